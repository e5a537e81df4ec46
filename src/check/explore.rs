//! The exploring route: each formula, a regular safety formula, decided while the state
//! space is explored (`crate::monitor`), with no PBES. A false formula gets its shortest
//! counterexample, confirmed by the same independent checker as the PBES route; a true one
//! has no evidence, only the counts of the states explored. A stop by the budget or Ctrl-C
//! is a [`Verdict::Stopped`].

use crate::evidence::check::check_evidence;
use crate::lps::Lps;
use crate::monitor::{check, MonitorOptions, Verdict as MonitorVerdict};
use crate::progress::{Progress, Shown};

use super::{since, Emit, Formula, FormulaResult, Options, Route, Verdict, STACK};

/// Decides `formulas` (refused before if outside the fragment) on `lps` by the monitor.
pub(super) fn run(
    lps: &Lps,
    formulas: &[Formula],
    opts: &Options,
    emit: &mut Emit<'_>,
) -> miette::Result<()> {
    for f in formulas {
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
        let outcome = std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("check-explore".into())
                .stack_size(STACK)
                .spawn_scoped(s, || check(lps, &f.spec, &mopts))
                .map_err(|e| miette::miette!("cannot start the exploring thread: {e}"))?
                .join()
                .map_err(|_| miette::miette!("internal error: the exploring thread panicked"))
        })??;
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
            evidence_seconds: 0.0,
            verify_seconds: 0.0,
        };
        match outcome.verdict {
            MonitorVerdict::Holds => {}
            MonitorVerdict::Violated { evidence, .. } => {
                result.verdict = Verdict::Decided(false);
                if let Some(ev) = evidence {
                    if opts.verify {
                        let t = std::time::Instant::now();
                        check_evidence(lps, &f.spec, &ev, opts.solver)?;
                        result.verify_seconds = since(t);
                        result.seconds += result.verify_seconds;
                        result.verified = true;
                    }
                    result.evidence = Some(*ev);
                }
            }
            MonitorVerdict::Stopped(reason) => {
                result.verdict = Verdict::Stopped(reason.describe().to_string());
            }
        }
        if !emit(result)? {
            break;
        }
    }
    Ok(())
}
