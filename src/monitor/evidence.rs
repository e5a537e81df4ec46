//! The counterexample of a violated formula on the on-the-fly route, in the form `check`'s
//! evidence has (`crate::evidence::Evidence`), so it is printed, written and confirmed by
//! the same code: the trace is the explorer's shortest path to the violating state, each
//! step with the summand and sum values that take it (found by evaluating the state's
//! summands again); the evidence LTS is that path plus every outgoing transition of the
//! violating state (a local `φ` is decided by those, so the formula is false on the
//! evidence LTS exactly as on the model).

use std::collections::HashMap;

use super::product::Product;
use super::MonitorError;
use crate::data::ir::DataExpr;
use crate::data::{TermId, TermStore};
use crate::evidence::check::{action_text, Replayer};
use crate::evidence::{Evidence, EvidenceError, Step, Trace};
use crate::lps::Lps;
use crate::lts::lps::LpsSystem;
use crate::lts::{Explorer, Label, LabelId, Lts, StateId, Transition, TransitionSystem};
use crate::process::ir::Action;

/// A transition of an LPS state with its origin: summand, sum values, label text, target.
type Origin = (usize, Vec<TermId>, String, Vec<u32>);

/// Every transition of `row`, with its origin.
fn origins(sys: &LpsSystem<'_>, row: &[u32]) -> Result<Vec<Origin>, MonitorError> {
    let mut w = sys.worker();
    let mut out = Vec::new();
    sys.steps(&mut w, row, &mut |summand, sums, key, next| {
        out.push((
            summand,
            sums.to_vec(),
            sys.label(key).text().to_string(),
            next.to_vec(),
        ));
    })
    .map_err(|e| MonitorError::Explore(e.to_string()))?;
    Ok(out)
}

/// The evidence LTS under construction: states are LPS rows.
struct Builder<'a, 's> {
    sys: &'a LpsSystem<'s>,
    rp: Replayer<'a>,
    lps: &'a Lps,
    states: HashMap<Vec<u32>, u32>,
    labels: HashMap<String, LabelId>,
    typed: Vec<Vec<Action>>,
    lts_labels: Vec<Label>,
    transitions: Vec<Transition>,
}

impl<'a, 's> Builder<'a, 's> {
    fn state(&mut self, row: &[u32]) -> StateId {
        let n = self.states.len() as u32;
        StateId(*self.states.entry(row.to_vec()).or_insert(n))
    }

    fn exprs(&self, row: &[u32]) -> Vec<DataExpr> {
        row.iter().map(|&t| self.sys.expr(TermId(t))).collect()
    }

    /// The step `from -> to` by `summand` with `sums`, replayed for its typed
    /// multi-action, and added to the evidence LTS.
    fn step(
        &mut self,
        summand: usize,
        sums: &[TermId],
        from: &[u32],
        to: &[u32],
    ) -> Result<Step, MonitorError> {
        let vars = &self.lps.summands[summand].sum_vars;
        let sum_values: Vec<_> = vars
            .iter()
            .cloned()
            .zip(sums.iter().map(|&t| self.sys.expr(t)))
            .collect();
        let from_e = self.exprs(from);
        let (actions, _) = self.rp.replay(summand, &from_e, &sum_values)?;
        let text = action_text(&actions);
        let label = match self.labels.get(&text) {
            Some(&l) => l,
            None => {
                let l = LabelId(self.lts_labels.len() as u32);
                self.labels.insert(text.clone(), l);
                self.lts_labels.push(Label::from_text(text.clone()));
                self.typed.push(actions.clone());
                l
            }
        };
        let (f, t) = (self.state(from), self.state(to));
        self.transitions.push(Transition {
            from: f,
            label,
            to: t,
        });
        Ok(Step {
            summand,
            action: text,
            actions,
            from: from_e,
            sum_values,
            to: self.exprs(to),
        })
    }
}

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
    let store = TermStore::new();
    let mut b = Builder {
        sys,
        rp: Replayer::new(lps, &store)?,
        lps,
        states: HashMap::new(),
        labels: HashMap::new(),
        typed: Vec::new(),
        lts_labels: Vec::new(),
        transitions: Vec::new(),
    };
    b.state(&rows[0]);
    let mut steps = Vec::with_capacity(path.len());
    for (i, (label, _)) in path.iter().enumerate() {
        let (from, to) = (&rows[i], &rows[i + 1]);
        let found = origins(sys, from)?
            .into_iter()
            .find(|(_, _, text, next)| next == to && text == label.text());
        let Some((summand, sums, _, _)) = found else {
            return Err(EvidenceError::Unchecked(format!(
                "step {} ({}) of the explored path is no transition of the LPS",
                i + 1,
                label.text()
            ))
            .into());
        };
        steps.push(b.step(summand, &sums, from, to)?);
    }
    let last = rows.last().expect("the path starts in the initial state");
    for (summand, sums, _, next) in origins(sys, last)? {
        b.step(summand, &sums, last, &next)?;
    }
    let trace_states = rows.iter().map(|r| b.states[r]).map(StateId).collect();
    let mut transitions = std::mem::take(&mut b.transitions);
    transitions.sort_unstable();
    transitions.dedup();
    let initial = b.exprs(&rows[0]);
    let lts = Lts {
        initial: StateId(0),
        num_states: b.states.len() as u32,
        labels: b.lts_labels,
        transitions,
    };
    Ok(Evidence {
        value: false,
        trace: Trace {
            initial,
            steps,
            loop_start: None,
        },
        lts,
        labels: b.typed,
        trace_states,
    })
}
