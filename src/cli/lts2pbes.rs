//! `muon lts2pbes`: an explicit LTS and a formula to a PBES artifact.

use crate::artifact::Artifact;
use crate::lps::Lps;
use std::path::PathBuf;
use std::process::ExitCode;

use miette::miette;

use super::Global;
use crate::artifact::{display_path, read_text};
use crate::lts::Lts;
use crate::modal::read_formula;
use crate::pbes::front::{proc_spec_of_lps, LabelArgParser};
use crate::pbes::lts2pbes::{lts2pbes_with, type_labels};
use crate::process::ir::{ActionDecl, ProcSpec};
use crate::process::typecheck::check_specification;
use crate::source::{SourceFile, Span};

/// Arguments of `muon lts2pbes`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// mCRL2's options of this tool that muon accepts as form hints or refuses.
    #[command(flatten)]
    pub compat: super::compat::Lts2pbes,
    /// The formula file (`.mcf`).
    #[arg(short = 'f', long = "formula")]
    pub formula: PathBuf,
    /// The mCRL2 specification the LTS came from (declares the actions and data of labels).
    #[arg(
        short = 'm',
        long = "spec",
        visible_alias = "mcrl2",
        conflicts_with = "lps"
    )]
    pub spec: Option<PathBuf>,
    /// The LPS the LTS came from (declares the actions and data of labels).
    #[arg(short = 'l', long = "lps")]
    pub lps: Option<PathBuf>,
    /// Input LTS (`.aut` or LTS artifact; standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output PBES (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
}

/// The declarations labels and formula are typed against: from `--spec`, `--lps`, or (for
/// labels without data) the action names found in the LTS itself.
pub(super) fn declarations(
    spec: Option<&std::path::Path>,
    lps: Option<&std::path::Path>,
    lts: &Lts,
) -> miette::Result<ProcSpec> {
    if let Some(p) = spec {
        let src = SourceFile::new(display_path(Some(p), "<stdin>"), read_text(Some(p))?);
        return check_specification(&src).map_err(miette::Report::new);
    }
    if let Some(p) = lps {
        return Ok(proc_spec_of_lps(&Lps::read_artifact(Some(p))?));
    }
    label_declarations(lts)
}

/// Declarations of the action names in the labels of `lts`, which must carry no data.
pub(crate) fn label_declarations(lts: &Lts) -> miette::Result<ProcSpec> {
    let mut actions: Vec<ActionDecl> = Vec::new();
    for l in &lts.labels {
        let parts = l
            .parts()
            .ok_or_else(|| miette!("label `{}` is not an mCRL2 multi-action", l.text()))?;
        for p in parts {
            if !p.args.is_empty() {
                return Err(miette!(
                    help = "give the specification with --spec (-m) or the LPS with --lps",
                    "label `{}` carries data; its sorts are unknown",
                    l.text()
                ));
            }
            if !actions.iter().any(|a| *a.name == *p.name) {
                actions.push(ActionDecl {
                    name: p.name.as_str().into(),
                    sorts: Vec::new(),
                    span: Span::default(),
                });
            }
        }
    }
    Ok(ProcSpec {
        data: Default::default(),
        actions,
        globals: Vec::new(),
        procs: Vec::new(),
        init: crate::process::ir::ProcExpr::Delta,
        init_span: Span::default(),
    })
}

/// The labels of `lts` typed against the actions and data of `spec`.
pub(super) fn typed_labels(
    lts: &Lts,
    spec: &ProcSpec,
) -> miette::Result<Vec<Vec<crate::process::ir::Action>>> {
    let store = crate::data::TermStore::new();
    let arg_parser = LabelArgParser::new(&spec.data, &store);
    Ok(type_labels(lts, &spec.actions, &mut |text, sort| {
        arg_parser.parse(text, sort)
    })?)
}

/// Runs `muon lts2pbes`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let lts = Lts::read_file(args.infile.as_deref())?;
    let spec = declarations(args.spec.as_deref(), args.lps.as_deref(), &lts)?;
    let formula = read_formula(&args.formula, &spec)?;
    let t = std::time::Instant::now();
    let labels = typed_labels(&lts, &spec)?;
    let pbes = lts2pbes_with(
        &lts,
        &labels,
        &spec.data,
        &formula,
        args.compat.counter_example,
    )?;
    // The PBES records which LTS file it came from (not known for standard input).
    let source = match args.infile.as_deref() {
        Some(p) if p != std::path::Path::new("-") => {
            std::fs::read(p).ok().map(|b| crate::artifact::identity(&b))
        }
        _ => None,
    };
    let equations = pbes.equations.len();
    crate::pbes::io::write_pbes(pbes, source, args.outfile.as_deref())?;
    if g.verbose {
        errln!(
            "lts2pbes: {} equations written to {} in {:.3} s",
            equations,
            display_path(args.outfile.as_deref(), "<stdout>"),
            t.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
