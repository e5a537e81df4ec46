//! `muon check`: the whole pipeline in one process — parse, type-check, linearise,
//! lps2pbes, instantiate and solve — printing the verdict per formula.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use super::Global;
use crate::artifact::{display_path, read_text};
use crate::lps::{linearise, LineariseOptions};
use crate::pbes::front::read_formula;
use crate::pbes::inst::InstOptions;
use crate::pbes::lps2pbes::lps2pbes;
use crate::pbes::solve::{solve_pbes, Engine, SolverKind};
use crate::process::typecheck::check_specification;
use crate::source::SourceFile;

/// Arguments of `muon check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The mCRL2 specification.
    pub spec: PathBuf,
    /// The formula files (`.mcf`) to check.
    #[arg(short = 'f', long = "formula", required = true)]
    pub formulas: Vec<PathBuf>,
    /// The BES solver.
    #[arg(long, value_enum, default_value_t = SolverKind::Zielonka)]
    pub solver: SolverKind,
    /// Give up after this many BES variables per formula.
    #[arg(long = "max-vars", default_value_t = 100_000_000)]
    pub max_vars: usize,
}

/// Runs `muon check`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let t = Instant::now();
    let name = display_path(Some(&args.spec), "<stdin>");
    let src = SourceFile::new(name.clone(), read_text(Some(&args.spec))?);
    let spec = check_specification(&src).map_err(miette::Report::new)?;
    let lps = linearise(&spec, LineariseOptions { simplify: true })
        .map_err(|e| miette::miette!("{name}: {e}"))?;
    if g.verbose {
        eprintln!(
            "check: linearised {name}: {} summands, {} parameters in {:.3} s",
            lps.summands.len(),
            lps.params.len(),
            t.elapsed().as_secs_f64()
        );
    }
    let opts = InstOptions {
        max_vars: args.max_vars,
        ..InstOptions::default()
    };
    for f in &args.formulas {
        let t = Instant::now();
        let formula = read_formula(f, &spec)?;
        let pbes = lps2pbes(&lps, &formula)?;
        let out = solve_pbes(&pbes, Engine::Terms, &opts, args.solver, true)?;
        if args.formulas.len() == 1 && g.quiet {
            println!("{}", out.value);
        } else {
            println!("{}: {}", f.display(), out.value);
        }
        if g.verbose {
            let s = &out.inst.stats;
            eprintln!(
                "check: {}: {} equations, {} BES variables ({} decided on the fly), {:.3} s",
                f.display(),
                pbes.equations.len(),
                s.instances + s.auxiliary,
                s.decided,
                t.elapsed().as_secs_f64()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
