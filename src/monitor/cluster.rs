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
    explore_options, nothing_to_explore, outcome_of, prepare, progress_line, Automaton,
    MonitorError, MonitorOptions, Outcome,
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
            if let (true, Some(mut shown)) = (lead, opts.progress.clone()) {
                dist.on_progress(Box::new(move |p| shown.update(|_| progress_line(p))));
            }
            let summary = dist.run(&mut ())?;
            if !answers {
                return Ok(None);
            }
            // Every process counts the violation; worker 0 of process 0 recorded it.
            let outcome = outcome_of(&summary, monitor.dfa.classes() > 1, |at| {
                if !(lead && opts.evidence) {
                    return Ok(None);
                }
                let path = dist.trace_to(at)?;
                let row = |s: StateId| -> Result<Vec<u32>, MonitorError> {
                    dist.row(s)
                        .map(|r| product.inner_row(r).to_vec())
                        .ok_or_else(|| {
                            MonitorError::Explore(format!("state {s} of the path was not replayed"))
                        })
                };
                let mut rows = vec![row(StateId(0))?];
                for (_, s) in &path {
                    rows.push(row(*s)?);
                }
                let labels: Vec<String> = path.iter().map(|(l, _)| l.text().to_string()).collect();
                counterexample_on(&lps, &sys, &labels, &rows).map(Some)
            })?;
            Ok(Some(outcome))
        },
    )?;
    outcome.ok_or_else(|| MonitorError::Explore("no worker of this process answered".into()))
}
