//! The counterexample of a violated formula on the on-the-fly route, in the form `check`'s
//! evidence has (`crate::evidence::Evidence`), so it is printed, written and confirmed by
//! the same code: the trace is the explorer's shortest path to the violating state, each
//! step with the summand and sum values that take it (found by evaluating the state's
//! summands again); the evidence LTS is that path plus every outgoing transition of the
//! violating state (a local `φ` is decided by those, so the formula is false on the
//! evidence LTS exactly as on the model).

use super::product::Product;
use super::MonitorError;
use crate::evidence::build::{origins, Builder};
use crate::evidence::{Evidence, EvidenceError, Trace};
use crate::lps::Lps;
use crate::lts::lps::LpsSystem;
use crate::lts::{Explorer, StateId};

/// The counterexample ending in product state `at`, which violates its `φ`.
pub fn counterexample(
    lps: &Lps,
    sys: &LpsSystem<'_>,
    product: &Product<'_, '_>,
    explorer: &Explorer<'_, Product<'_, '_>>,
    at: StateId,
) -> Result<Evidence, MonitorError> {
    let path = explorer
        .trace_to(at)
        .map_err(|e| MonitorError::Explore(e.to_string()))?;
    let row = |s: StateId| product.inner_row(&explorer.state(s)).to_vec();
    let mut rows = vec![row(StateId(0))];
    rows.extend(path.iter().map(|(_, s)| row(*s)));
    let labels: Vec<String> = path.iter().map(|(l, _)| l.text().to_string()).collect();
    counterexample_on(lps, sys, &labels, &rows)
}

/// The counterexample along `rows` (LPS states of `sys`, the initial state first), step
/// `i` labelled `labels[i]`, whose last state violates its `φ`.
pub fn counterexample_on(
    lps: &Lps,
    sys: &LpsSystem<'_>,
    labels: &[String],
    rows: &[Vec<u32>],
) -> Result<Evidence, MonitorError> {
    let store = crate::data::TermStore::new();
    let mut b = Builder::new(lps, sys, &store)?;
    b.state(&rows[0]);
    let mut steps = Vec::with_capacity(labels.len());
    for (i, label) in labels.iter().enumerate() {
        let (from, to) = (&rows[i], &rows[i + 1]);
        let found = origins(sys, from)
            .map_err(MonitorError::Explore)?
            .into_iter()
            .find(|(_, _, text, next)| next == to && text == label);
        let Some((summand, sums, _, _)) = found else {
            return Err(EvidenceError::Unchecked(format!(
                "step {} ({}) of the explored path is no transition of the LPS",
                i + 1,
                label
            ))
            .into());
        };
        steps.push(b.step(summand, &sums, from, to)?);
    }
    let last = rows.last().expect("the path starts in the initial state");
    for (summand, sums, _, next) in origins(sys, last).map_err(MonitorError::Explore)? {
        b.step(summand, &sums, last, &next)?;
    }
    let trace_states = rows.iter().map(|r| b.state(r)).collect();
    let initial = b.exprs(&rows[0]);
    let (lts, labels) = b.finish();
    Ok(Evidence {
        value: false,
        trace: Trace {
            initial,
            steps,
            loop_start: None,
        },
        lts,
        labels,
        trace_states,
        model_states: Vec::new(),
    })
}
