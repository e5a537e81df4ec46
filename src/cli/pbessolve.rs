//! `muon pbessolve`: solve a PBES with a parity-game solver and, given the LPS it came
//! from, print evidence: a counterexample (false) or witness (true) trace of actions.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;
use crate::data::ir::DataExpr;
use crate::data::print::data_expr_to_string;
use crate::lps::read_lps;
use crate::pbes::inst::InstOptions;
use crate::pbes::solve::{solve_pbes, Engine, SolverKind};

/// Arguments of `muon pbessolve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input PBES: artifact or mCRL2 text (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// The LPS the PBES was generated from (`lps2pbes`): print an evidence trace.
    #[arg(long = "file", visible_alias = "lps", value_name = "LPS")]
    pub lps: Option<PathBuf>,
    /// The BES solver (evidence needs `zielonka`).
    #[arg(long, value_enum, default_value_t = SolverKind::Zielonka)]
    pub solver: SolverKind,
    /// Give up after this many BES variables (instantiation that does not terminate).
    #[arg(long = "max-vars", default_value_t = 100_000_000)]
    pub max_vars: usize,
}

fn state(s: &[DataExpr]) -> String {
    s.iter()
        .map(data_expr_to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs `muon pbessolve`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let pbes = super::pbesinfo::read_pbes(args.infile.as_deref())?;
    let lps = match &args.lps {
        Some(p) => Some(read_lps(Some(p))?),
        None => None,
    };
    let opts = InstOptions {
        max_vars: args.max_vars,
        keep_origins: lps.is_some(),
        ..InstOptions::default()
    };
    // Evidence needs the whole game with strategies: no early stop then.
    let out = solve_pbes(&pbes, Engine::Terms, &opts, args.solver, lps.is_none())?;
    // Write errors (a closed pipe) end the output quietly instead of panicking.
    let stdout = std::io::stdout();
    let mut w = stdout.lock();
    let _ = writeln!(w, "{}", out.value);
    if let (Some(lps), Some((game, sol))) = (&lps, &out.game) {
        let t = crate::evidence::trace(lps, &out.inst, game, sol, out.value);
        let _ = writeln!(
            w,
            "{} trace ({} steps{}):",
            if out.value {
                "witness"
            } else {
                "counterexample"
            },
            t.steps.len(),
            if t.ends_in_cycle {
                ", ends in a cycle"
            } else {
                ""
            }
        );
        let _ = writeln!(w, "  state: ({})", state(&t.initial));
        for s in &t.steps {
            let _ = writeln!(w, "  {}", s.action);
            if g.verbose {
                let _ = writeln!(w, "  state: ({})", state(&s.state));
            }
        }
        if !t.ends_in_cycle {
            // The walk stopped at a constant: the last state decides the formula on its
            // own. A step into that constant (the action of a final `[a]false` or
            // `<a>true`) leads to no recorded state, so it is named here, not printed.
            let _ = writeln!(
                w,
                "  (the last state decides the formula by itself; a final step that the formula requires from it, such as the action of an innermost modality, is not listed)"
            );
        }
    }
    if g.verbose {
        let s = &out.inst.stats;
        eprintln!(
            "pbessolve: {} BES variables, instantiation {:.3} s, solving {:.3} s",
            s.instances + s.auxiliary,
            out.inst_seconds,
            out.solve_seconds
        );
    }
    Ok(ExitCode::SUCCESS)
}
