//! `muon pbessolve`: solve a PBES with a parity-game solver and, given the LPS or LTS it came
//! from (`lps2pbes -c`, `lts2pbes -c`), print evidence: a counterexample (false) or witness
//! (true) trace of actions.

use crate::artifact::{Artifact, ArtifactKind, MAGIC};
use crate::evidence::Evidence;
use crate::lps::Lps;
use crate::lts::Lts;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;
use crate::bes::SolverKind;
use crate::pbes::inst::InstOptions;
use crate::pbes::solve::solve_pbes;

/// Arguments of `muon pbessolve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// mCRL2's options of this tool that muon accepts as form hints or refuses.
    #[command(flatten)]
    pub compat: super::compat::Solve,
    /// Input PBES: artifact or mCRL2 text (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// The LPS (`lps2pbes -c`) or LTS (`lts2pbes -c`: `.aut` or `.lts`) the PBES was
    /// generated from: print the evidence trace.
    #[arg(
        short = 'f',
        long = "file",
        visible_alias = "lps",
        value_name = "LPS|LTS"
    )]
    pub lps: Option<PathBuf>,
    /// Write the evidence (needs `--file`) in the format of the extension: `.aut`, `.dot`,
    /// `.svg`, `.lts` (the evidence LTS), `.json` or `.txt` (the trace).
    #[arg(long = "evidence-file", value_name = "OUT", requires = "lps")]
    pub evidence_file: Option<PathBuf>,
    /// The BES solver (evidence needs `zielonka`).
    #[arg(long, value_enum, default_value_t = SolverKind::Zielonka)]
    pub solver: SolverKind,
    /// Give up after this many BES variables (instantiation that does not terminate).
    #[arg(long = "max-vars", default_value_t = 100_000_000)]
    pub max_vars: usize,
}

/// The model evidence is read on: the LPS or LTS of `--file`.
enum Model {
    Lps(Box<Lps>),
    Lts(Lts),
}

/// Runs `muon pbessolve`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let file = crate::pbes::io::read_pbes_file(args.infile.as_deref())?;
    let pbes = file.pbes;
    let model = match &args.lps {
        Some(p) => {
            let bytes = crate::artifact::read_bytes(Some(p))?;
            let found = crate::artifact::identity(&bytes);
            if let Some(source) = file.source.filter(|s| *s != found) {
                miette::bail!(
                    code = "muon::pbessolve::other_lps",
                    help = "give the LPS or LTS that `lps2pbes -c` or `lts2pbes -c` read to \
                            make this PBES, or regenerate the PBES from this file",
                    "{} is not the LPS or LTS this PBES was generated from (identity \
                     {found:016x}; the PBES records {source:016x})",
                    p.display()
                );
            }
            let lps_header = [&MAGIC[..], &ArtifactKind::Lps.tag()[..]].concat();
            if bytes.starts_with(&lps_header) {
                let lps = Lps::decode_artifact(&bytes, &p.display().to_string())?;
                Some(Model::Lps(Box::new(lps)))
            } else {
                Some(Model::Lts(Lts::read_file(Some(p))?))
            }
        }
        None => None,
    };
    let lps = model.as_ref();
    if lps.is_some() && args.solver != SolverKind::Zielonka {
        miette::bail!("evidence needs the strategies of `--solver zielonka`");
    }
    let opts = InstOptions {
        max_vars: args.max_vars,
        progress: crate::progress::Shown::from_flags(g.quiet, g.verbose),
        keep_origins: lps.is_some(),
        ..InstOptions::default()
    };
    // Evidence comes from the finite proof of an early stop, or else from the solved game.
    let out = solve_pbes(&pbes, &opts, args.solver, true)?;
    let mut text = format!("{}\n", out.value);
    if let Some(model) = &model {
        let game = out.game.as_ref().map(|(g, s)| (g, s));
        // Every step and the trace are checked on the model as they are read; re-checking
        // the formula needs the formula, which only `muon check` has.
        let (ev, shown): (Evidence, crate::evidence::Model<'_>) = match model {
            Model::Lps(lps) => (
                crate::evidence::read(lps, &pbes, &out.inst, game, out.value, false)?,
                lps.as_ref().into(),
            ),
            Model::Lts(lts) => (
                crate::evidence::read_lts(lts, None, &pbes, &out.inst, game, out.value, false)?,
                lts.into(),
            ),
        };
        text.push_str(&crate::evidence::text::trace_text(shown, &ev));
        if let Some(path) = &args.evidence_file {
            crate::evidence::text::write_evidence(shown, &ev, path)?;
            if g.verbose {
                errln!(
                    "pbessolve: evidence LTS with {} states and {} transitions written to {}",
                    ev.lts.num_states,
                    ev.lts.transitions.len(),
                    path.display()
                );
            }
        }
    }
    // Write errors (a closed pipe) end the output quietly instead of panicking.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    if g.verbose {
        let s = &out.inst.stats;
        errln!(
            "pbessolve: {} BES variables, instantiation {:.3} s, solving {:.3} s",
            s.instances + s.auxiliary,
            out.inst_seconds,
            out.solve_seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}
