//! `muon parse`: parse and type-check a specification and formulas.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;
use crate::artifact::{display_path, read_text};
use crate::modal::typecheck::check_formula;
use crate::process::ir::ProcSpec;
use crate::process::typecheck::check_specification;
use crate::source::SourceFile;

/// Arguments of `muon parse`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's `--timings[=FILE]`.
    #[command(flatten)]
    pub timings: super::compat::Timings,
    /// The mCRL2 specification.
    pub spec: PathBuf,
    /// Formula files (`.mcf`) to type-check against the specification.
    #[arg(short = 'f', long = "formula")]
    pub formulas: Vec<PathBuf>,
}

/// A one-line summary of a typed specification.
pub fn summary(spec: &ProcSpec) -> String {
    let sorts = spec
        .data
        .sorts
        .iter()
        .filter(|s| !s.name.starts_with('@'))
        .count()
        + spec.data.aliases.len();
    let n = |k: usize, what: &str| format!("{k} {what}{}", if k == 1 { "" } else { "s" });
    [
        n(sorts, "sort"),
        n(spec.data.constructors.len(), "constructor"),
        n(spec.data.mappings.len(), "map"),
        n(spec.data.equations.len(), "equation"),
        n(spec.actions.len(), "action"),
        n(spec.procs.len(), "process"),
    ]
    .join(", ")
    .replace("processs", "processes")
}

/// Runs `muon parse`: exit 0 with a summary when everything type-checks, else the
/// diagnostics of every failing file and exit 1.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let name = display_path(Some(&args.spec), "<stdin>");
    let src = SourceFile::new(name.clone(), read_text(Some(&args.spec))?);
    let spec = match check_specification(&src) {
        Ok(s) => s,
        Err(d) => return Err(miette::Report::new(d)),
    };
    let mut line = format!("{name}: {}", summary(&spec));
    let mut failed = false;
    for f in &args.formulas {
        let fname = display_path(Some(f), "<stdin>");
        let text = match read_text(Some(f)) {
            Ok(t) => t,
            Err(e) => {
                errln!("{:?}", miette::Report::new(e));
                failed = true;
                continue;
            }
        };
        let fsrc = SourceFile::new(fname.clone(), text);
        match check_formula(&fsrc, &spec) {
            Ok(_) => line.push_str(&format!("; {fname}: ok")),
            Err(d) => {
                errln!("{:?}", miette::Report::new(d));
                failed = true;
            }
        }
    }
    if failed {
        return Ok(ExitCode::from(1));
    }
    if !g.quiet {
        outln!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}
