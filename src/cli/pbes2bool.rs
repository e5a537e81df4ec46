//! `muon pbes2bool`: solve a PBES and print `true` or `false`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;
use crate::bes::SolverKind;
use crate::pbes::inst::InstOptions;
use crate::pbes::solve::solve_pbes;

/// Arguments of `muon pbes2bool`.
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
    /// The BES solver.
    #[arg(long, value_enum, default_value_t = SolverKind::Zielonka)]
    pub solver: SolverKind,
    /// Give up after this many BES variables (instantiation that does not terminate).
    #[arg(long = "max-vars", default_value_t = 100_000_000)]
    pub max_vars: usize,
    /// Instantiate the whole reachable BES even when the answer is known earlier.
    #[arg(long = "no-early-stop")]
    pub no_early_stop: bool,
}

/// Runs `muon pbes2bool`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let t = std::time::Instant::now();
    let pbes = crate::pbes::io::read_pbes(args.infile.as_deref())?;
    let read = t.elapsed().as_secs_f64();
    let opts = InstOptions {
        max_vars: args.max_vars,
        progress: crate::progress::Shown::from_flags(g.quiet, g.verbose),
        ..InstOptions::default()
    };
    let out = solve_pbes(&pbes, &opts, args.solver, !args.no_early_stop)?;
    outln!("{}", out.value);
    if g.verbose {
        let s = &out.inst.stats;
        errln!(
            "pbes2bool: read {} equations in {read:.3} s",
            pbes.equations.len()
        );
        errln!(
            "pbes2bool: instantiated {} BES variables ({} instances, {} auxiliary, {} decided on the fly) in {:.3} s{}",
            s.instances + s.auxiliary,
            s.instances,
            s.auxiliary,
            s.decided,
            out.inst_seconds,
            if out.inst.bes.is_none() { " (stopped early: initial variable decided)" } else { "" }
        );
        errln!(
            "pbes2bool: solved in {:.3} s ({:?})",
            out.solve_seconds,
            args.solver
        );
    }
    Ok(ExitCode::SUCCESS)
}
