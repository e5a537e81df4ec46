//! The quotient route (`check --reduce EQ`): explore the state space once, reduce it modulo
//! a bisimulation, and decide each formula on the quotient (`lts2pbes`), for formulas the
//! bisimulation is known to preserve (`crate::modal::preserve`); the others are refused
//! before anything is explored. Verdicts only: evidence would name quotient states.

use std::path::Path;
use std::time::Instant;

use crate::lps::Lps;
use crate::lts::lps::LpsSystem;
use crate::lts::typed::typed_labels;
use crate::lts::{explore_lts, ExploreOptions};
use crate::modal::ir::FormulaSpec;
use crate::modal::preserve::check_preserved;
use crate::pbes::inst::InstOptions;
use crate::pbes::lts2pbes::lts2pbes;
use crate::pbes::solve::solve_pbes;
use crate::print::state_formula_to_string;
use crate::progress::Meter;
use crate::reduce::{partition_watched, quotient, Bisimulation, ReduceError};

use super::{
    on_exploring_thread, preserved_by, since, Emit, Formula, FormulaResult, Options, Route,
    Verdict, STACK,
};

/// mCRL2's name of the bisimulation (`ltsconvert -e`).
pub fn bisimulation_name(eq: Bisimulation) -> &'static str {
    match eq {
        Bisimulation::Strong => "bisim",
        Bisimulation::Branching => "branching-bisim",
        Bisimulation::DivergenceBranching => "dpbranching-bisim",
    }
}

/// Refuses `spec` (read from `path`) when the quotient modulo `eq` may not preserve it.
pub(super) fn refuse(path: &Path, spec: &FormulaSpec, eq: Bisimulation) -> miette::Result<()> {
    if let Err(e) = check_preserved(&spec.formula, preserved_by(eq)) {
        miette::bail!(
            code = "muon::check::not_preserved",
            help = "use `--reduce bisim` (strong bisimulation preserves every formula), or check without --reduce; under branching bisimulation a modality keeps its verdict when it cannot see tau steps, as `[true*. a]`, `<true*. a . true*>`, or `[a]` right under `[true*]`",
            "{}: the verdict on the {} quotient may differ from the model's: in `{}`, {}",
            path.display(),
            bisimulation_name(eq),
            state_formula_to_string(&e.at),
            e.reason.text()
        );
    }
    Ok(())
}

/// Explores `lps`, reduces modulo `eq` and decides `formulas` on the quotient.
pub(super) fn run(
    lps: &Lps,
    formulas: &[Formula],
    eq: Bisimulation,
    opts: &Options,
    emit: &mut Emit<'_>,
) -> miette::Result<()> {
    let t = Instant::now();
    let explore = ExploreOptions {
        threads: opts.threads,
        thread_stack: Some(STACK),
        ..ExploreOptions::default()
    };
    let lts = on_exploring_thread(
        "check-explore",
        "exploring thread",
        || -> miette::Result<_> {
            let store = crate::data::TermStore::new();
            let sys = LpsSystem::new(lps, &store, Some(STACK - (64 << 20))).map_err(|e| {
                miette::miette!(code = "muon::check::lps", "cannot explore the LPS: {e}")
            })?;
            Ok(explore_lts(&sys, explore)?.0)
        },
    )??;
    let explored_seconds = since(t);
    let t = Instant::now();
    let timer = crate::progress::time_stage("reduction");
    let mut meter = Meter::new("reduction", opts.progress);
    let p = partition_watched(&lts, eq, &mut meter).map_err(ReduceError::from)?;
    meter.finish();
    let q = quotient(&lts, &p, eq);
    drop(timer);
    let reduced_seconds = since(t);
    let explored = (u64::from(lts.num_states), lts.transitions.len() as u64);
    drop(lts);
    let labels = typed_labels(&q, &lps.declarations())?;
    let inst = InstOptions {
        max_vars: opts.max_vars,
        progress: opts.progress,
        ..InstOptions::default()
    };
    for f in formulas {
        let t = Instant::now();
        let pbes = lts2pbes(&q, &labels, &lps.data, &f.spec)?;
        let out = solve_pbes(&pbes, &inst, opts.solver, true)?;
        let result = FormulaResult {
            formula: f,
            verdict: Verdict::Decided(out.value),
            route: Route::Reduced {
                modulo: eq,
                explored,
                quotient: (u64::from(q.num_states), q.transitions.len() as u64),
                seconds: (explored_seconds, reduced_seconds),
                bes_vars: out.inst.stats.instances + out.inst.stats.auxiliary,
            },
            evidence: None,
            verified: false,
            seconds: since(t),
            fallback: None,
            evidence_seconds: 0.0,
            verify_seconds: 0.0,
        };
        if !emit(result)? {
            break;
        }
    }
    Ok(())
}
