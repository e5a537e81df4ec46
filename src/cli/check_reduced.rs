//! `muon check --reduce EQ`: explore the state space, reduce it modulo a bisimulation and
//! check each formula on the quotient (`lts2pbes`), for formulas the bisimulation is known
//! to preserve (`reduce::preserve`); the others are refused before anything is explored.
//! Verdicts only: evidence would name quotient states, so `--reduce` gives none.

use std::process::ExitCode;
use std::time::Instant;

use super::check::{Args, TraceFormat};
use super::Global;
use crate::lps::Lps;
use crate::lts::lps::LpsSystem;
use crate::lts::{explore_lts, ExploreOptions};
use crate::modal::ir::FormulaSpec;
use crate::modal::read_formula;
use crate::pbes::front::{proc_spec_of_lps, LabelArgParser};
use crate::pbes::inst::InstOptions;
use crate::pbes::lts2pbes::{lts2pbes, type_labels};
use crate::pbes::solve::solve_pbes;
use crate::print::state_formula_to_string;
use crate::progress::{Meter, Shown};
use crate::reduce::preserve::check_preserved;
use crate::reduce::{partition_watched, quotient, Bisimulation, ReduceError};

/// Stack of the exploring threads (as `lps2lts`: deep user equations need it).
const STACK: usize = 256 << 20;

/// The equivalences of `check --reduce`: those that preserve (a fragment of) the
/// mu-calculus.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceArg {
    /// Strong bisimulation: every formula.
    Bisim,
    /// Branching bisimulation: formulas whose modalities cannot observe tau steps.
    BranchingBisim,
    /// Divergence-preserving branching bisimulation: the same formulas as branching.
    DpbranchingBisim,
}

impl ReduceArg {
    /// The bisimulation.
    pub fn bisimulation(self) -> Bisimulation {
        match self {
            ReduceArg::Bisim => Bisimulation::Strong,
            ReduceArg::BranchingBisim => Bisimulation::Branching,
            ReduceArg::DpbranchingBisim => Bisimulation::DivergenceBranching,
        }
    }

    fn name(self) -> &'static str {
        match self {
            ReduceArg::Bisim => "bisim",
            ReduceArg::BranchingBisim => "branching-bisim",
            ReduceArg::DpbranchingBisim => "dpbranching-bisim",
        }
    }
}

/// Reads every formula and refuses the first one `eq` does not preserve.
fn read_formulas(args: &Args, lps: &Lps, eq: ReduceArg) -> miette::Result<Vec<FormulaSpec>> {
    let scope = proc_spec_of_lps(lps);
    let mut out = Vec::with_capacity(args.formulas.len());
    for f in &args.formulas {
        let formula = read_formula(f, &scope)?;
        if let Err(e) = check_preserved(&formula.formula, eq.bisimulation()) {
            miette::bail!(
                code = "muon::check::not_preserved",
                help = "use `--reduce bisim` (strong bisimulation preserves every formula), or check without --reduce; under branching bisimulation a modality keeps its verdict when it cannot see tau steps, as `[true*. a]`, `<true*. a . true*>`, or `[a]` right under `[true*]`",
                "{}: the verdict on the {} quotient may differ from the model's: in `{}`, {}",
                f.display(),
                eq.name(),
                state_formula_to_string(&e.at),
                e.reason.text()
            );
        }
        out.push(formula);
    }
    Ok(out)
}

/// Runs `check` on the quotient modulo `eq` (see the module documentation).
pub fn check_reduced(args: &Args, g: Global, lps: &Lps, eq: ReduceArg) -> miette::Result<ExitCode> {
    let formulas = read_formulas(args, lps, eq)?;
    let t = Instant::now();
    let explore = ExploreOptions {
        threads: args.threads,
        thread_stack: Some(STACK),
        ..ExploreOptions::default()
    };
    let lps_owned = lps.clone();
    let (lts, _) = std::thread::Builder::new()
        .name("check-explore".into())
        .stack_size(STACK)
        .spawn(move || -> miette::Result<_> {
            let store = crate::data::TermStore::new();
            let sys =
                LpsSystem::new(&lps_owned, &store, Some(STACK - (64 << 20))).map_err(|e| {
                    miette::miette!(code = "muon::check::lps", "cannot explore the LPS: {e}")
                })?;
            Ok(explore_lts(&sys, explore)?)
        })
        .map_err(|e| miette::miette!("cannot start the exploring thread: {e}"))?
        .join()
        .unwrap_or_else(|_| {
            Err(miette::miette!(
                "internal error: the exploring thread panicked"
            ))
        })?;
    let explored = t.elapsed();
    let kind = eq.bisimulation();
    let timer = crate::progress::time_stage("reduction");
    let mut meter = Meter::new("reduction", Shown::from_flags(g.quiet, g.verbose));
    let p = partition_watched(&lts, kind, &mut meter).map_err(ReduceError::from)?;
    meter.finish();
    let q = quotient(&lts, &p, kind);
    drop(timer);
    if g.verbose {
        errln!(
            "check: explored {} states, {} transitions in {:.3} s; reduced modulo {} to {} states, {} transitions in {:.3} s",
            lts.num_states,
            lts.transitions.len(),
            explored.as_secs_f64(),
            eq.name(),
            q.num_states,
            q.transitions.len(),
            (t.elapsed() - explored).as_secs_f64()
        );
    }
    drop(lts);
    let scope = proc_spec_of_lps(lps);
    let store = crate::data::TermStore::new();
    let arg_parser = LabelArgParser::new(&scope.data, &store);
    let labels = type_labels(&q, &scope.actions, &mut |text, sort| {
        arg_parser.parse(text, sort)
    })?;
    let opts = InstOptions {
        max_vars: args.max_vars,
        progress: Shown::from_flags(g.quiet, g.verbose),
        ..InstOptions::default()
    };
    let mut all_true = true;
    for (f, formula) in args.formulas.iter().zip(&formulas) {
        let t = Instant::now();
        let pbes = lts2pbes(&q, &labels, &scope.data, formula)?;
        let out = solve_pbes(&pbes, &opts, args.solver, true)?;
        all_true &= out.value;
        if args.format == TraceFormat::Json {
            let v = serde_json::json!({
                "formula": f.display().to_string(),
                "verdict": out.value,
                "reduced_modulo": eq.name(),
                "quotient": { "states": q.num_states, "transitions": q.transitions.len() },
            });
            outln!("{v}");
        } else if args.formulas.len() == 1 && g.quiet {
            outln!("{}", out.value);
        } else {
            outln!("{}: {}", f.display(), out.value);
        }
        if g.verbose {
            errln!(
                "check: {} on the quotient: {} BES variables, {:.3} s",
                f.display(),
                out.inst.stats.instances + out.inst.stats.auxiliary,
                t.elapsed().as_secs_f64()
            );
        }
    }
    if !g.quiet && !args.no_evidence && args.format == TraceFormat::Text {
        errln!("check: no evidence with --reduce (it would name states of the quotient); check without --reduce for a trace");
    }
    Ok(if all_true {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
