//! The exploring route: each formula, a regular safety formula, decided while the state
//! space is explored (`crate::monitor`), with no PBES. A false formula gets its shortest
//! counterexample, confirmed by the same independent checker as the PBES route; a true one
//! has no evidence, only the counts of the states explored. A stop by the budget or Ctrl-C
//! is a [`Verdict::Stopped`].

use std::sync::Arc;

use crate::lps::Lps;
use crate::monitor::{
    check, check_automaton, MonitorError, MonitorOptions, Verdict as MonitorVerdict,
};
use crate::progress::{Progress, Shown};

use super::{
    attach_evidence, on_exploring_thread, Formula, FormulaResult, Options, Route, RouteError,
    Verdict, STACK,
};

/// Decides `f` (refused before if outside the fragment) on `lps` by the monitor.
pub(super) fn decide<'f>(
    lps: &Lps,
    f: &'f Formula,
    opts: &Options,
) -> Result<FormulaResult<'f>, RouteError> {
    {
        let progress = Progress::new(
            "check",
            opts.progress == Shown::Off,
            opts.progress == Shown::Verbose,
        );
        let mopts = MonitorOptions {
            threads: opts.threads,
            thread_stack: Some(STACK),
            evidence: opts.evidence,
            progress: progress.active().then(|| progress.clone()),
        };
        let outcome = match &opts.cluster {
            // Each worker of the cluster has its own thread and stack.
            Some(cluster) => crate::monitor::cluster::check_on(
                cluster,
                Arc::new(lps.clone()),
                Arc::new(f.spec.clone()),
                f.automaton.clone(),
                &mopts,
            ),
            None => {
                on_exploring_thread("check-explore", "exploring thread", || match &f.automaton {
                    Some(a) => check_automaton(lps, &f.spec, a, &mopts),
                    None => check(lps, &f.spec, &mopts),
                })?
            }
        }
        .map_err(|e| match e {
            // The formula's data on the labels (a quantifier nothing bounds, a `val` that
            // is not decided): the PBES route may decide it.
            MonitorError::Data(why) | MonitorError::Explore(why) => RouteError::Unsupported(why),
            e => RouteError::Failed(e.into()),
        })?;
        progress.finish();
        let route = Route::Explore {
            states: outcome.states,
            transitions: outcome.transitions,
            with_automaton: outcome.class_word,
        };
        let mut result = FormulaResult {
            formula: f,
            verdict: Verdict::Decided(true),
            route,
            evidence: None,
            verified: false,
            seconds: outcome.seconds,
            fallback: None,
            evidence_seconds: 0.0,
            verify_seconds: 0.0,
        };
        match outcome.verdict {
            MonitorVerdict::Holds => {}
            MonitorVerdict::Violated { evidence, .. } => {
                result.verdict = Verdict::Decided(false);
                if let Some(ev) = evidence {
                    attach_evidence(&mut result, lps, *ev, opts)?;
                }
            }
            MonitorVerdict::Stopped(reason) => {
                result.verdict = Verdict::Stopped(reason.describe().to_string());
            }
        }
        Ok(result)
    }
}
