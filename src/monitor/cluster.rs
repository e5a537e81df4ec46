//! The monitor on several workers and processes (`check --engine explore --workers N`,
//! `--processes P --process I --hosts FILE`): every worker builds the product of the LPS
//! and the formula's automaton over its own store, and the distributed breadth-first
//! search of [`crate::distrib`] explores it. A product state travels as its LPS values and
//! its class ([`crate::distrib::Portable`] for [`Product`]); the search stops after the
//! level-ordered first violation, as one process does, so the verdict, the counts and the
//! shortest counterexample are the one-process ones. Worker 0 of process 0 replays the
//! path on its own store and builds the evidence from it.

use std::sync::Arc;

use super::evidence::counterexample_on;
use super::product::Product;
use super::{
    explore_options, nothing_to_explore, prepare, Automaton, MonitorError, MonitorOptions, Outcome,
    Verdict,
};
use crate::data::TermStore;
use crate::distrib::{execute, Cluster, Dist};
use crate::lps::Lps;
use crate::lts::generate::{Engine, GenerateError};
use crate::lts::StateId;
use crate::modal::ir::FormulaSpec;

impl From<GenerateError> for MonitorError {
    fn from(e: GenerateError) -> Self {
        MonitorError::Cluster(e.to_string())
    }
}

/// [`super::check`] on `cluster`, run by every process with the same arguments. Every
/// process gets the outcome (the verdict and counts are global); only process 0's has the
/// evidence. `a` is the formula's automaton when it is built; each worker's stack is
/// `opts.thread_stack` (256 MiB without it).
pub fn check_on(
    cluster: &Cluster,
    lps: Arc<Lps>,
    formula: Arc<FormulaSpec>,
    a: Option<Automaton>,
    opts: &MonitorOptions,
) -> Result<Outcome, MonitorError> {
    let stack = opts.thread_stack.unwrap_or(256 << 20);
    let mut opts = opts.clone();
    // One exploring thread per worker: the workers are the parallelism.
    opts.threads = 1;
    let opts = Arc::new(opts);
    let workers = cluster.workers;
    let outcome = execute(
        cluster,
        stack,
        move |worker| -> Result<Option<Outcome>, MonitorError> {
            let lead = worker.index() == 0;
            // The first worker of each process answers for it.
            let answers = worker.index() % workers == 0;
            let store = TermStore::new();
            let (sys, rw, monitor) = prepare(&lps, &formula, a.as_ref(), &opts, &store)?;
            if monitor.dfa.initial.is_none() {
                // Every worker sees it alike: none explores.
                return Ok(answers.then(nothing_to_explore));
            }
            let product = Product::new(&sys, &monitor, rw);
            let mut dist = Dist::new(worker, &product, explore_options(&opts), false);
            if let (true, Some(progress)) = (lead, opts.progress.clone()) {
                let mut shown = progress;
                dist.on_progress(Box::new(move |p| {
                    shown.update(|_| {
                        format!(
                            "{} states, {} transitions, level {}, {:.1} s",
                            p.states, p.transitions, p.level, p.seconds
                        )
                    })
                }));
            }
            let summary = dist.run(&mut ())?;
            if !answers {
                return Ok(None);
            }
            let mut outcome = Outcome {
                verdict: Verdict::Holds,
                states: summary.states,
                transitions: summary.transitions,
                class_word: monitor.dfa.classes() > 1,
                seconds: summary.seconds,
            };
            if summary.action_count > 0 && !lead {
                // Only worker 0 gathers the violation itself.
                outcome.verdict = Verdict::Violated {
                    evidence: None,
                    steps: None,
                };
            } else if let Some(hit) = summary.action_hits.first() {
                let (evidence, steps) = if opts.evidence {
                    let path = dist.trace_to(hit.transition.from)?;
                    let row = |s: StateId| -> Result<Vec<u32>, MonitorError> {
                        dist.row(s)
                            .map(|r| product.inner_row(r).to_vec())
                            .ok_or_else(|| {
                                MonitorError::Explore(format!(
                                    "state {s} of the path was not replayed"
                                ))
                            })
                    };
                    let mut rows = vec![row(StateId(0))?];
                    for (_, s) in &path {
                        rows.push(row(*s)?);
                    }
                    let labels: Vec<String> =
                        path.iter().map(|(l, _)| l.text().to_string()).collect();
                    let ev = counterexample_on(&lps, &sys, &labels, &rows)?;
                    let steps = ev.trace.steps.len();
                    (Some(Box::new(ev)), Some(steps))
                } else {
                    (None, None)
                };
                outcome.verdict = Verdict::Violated { evidence, steps };
            } else if let Some(reason) = summary.stopped_by {
                outcome.verdict = Verdict::Stopped(reason);
            }
            Ok(Some(outcome))
        },
    )?;
    outcome.ok_or_else(|| MonitorError::Explore("no worker of this process answered".into()))
}
