//! Evidence on an LPS built step by step from explored states (the on-the-fly routes: the
//! monitor's counterexample, the product game's proof): each step found again among a
//! state's transitions with the summand and sum values that take it, replayed for its typed
//! multi-action, and added to an evidence LTS whose states are LPS rows.

use std::collections::HashMap;

use crate::data::ir::DataExpr;
use crate::data::{TermId, TermStore};
use crate::evidence::check::{action_text, Replayer};
use crate::evidence::{EvidenceError, Step};
use crate::lps::Lps;
use crate::lts::lps::LpsSystem;
use crate::lts::{Label, LabelId, Lts, StateId, Transition, TransitionSystem};
use crate::process::ir::Action;

/// A transition of an LPS state with its origin: summand, sum values, label text, target.
pub type Origin = (usize, Vec<TermId>, String, Vec<u32>);

/// Every transition of `row`, with its origin.
pub fn origins(sys: &LpsSystem<'_>, row: &[u32]) -> Result<Vec<Origin>, String> {
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
    .map_err(|e| e.to_string())?;
    Ok(out)
}

/// The evidence LTS under construction: states are LPS rows, numbered as they are first
/// met (the first one is the initial state).
pub struct Builder<'a, 's> {
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
    /// An empty evidence LTS of `lps`, explored as `sys`; the replayer's terms live in
    /// `store`.
    pub fn new(
        lps: &'a Lps,
        sys: &'a LpsSystem<'s>,
        store: &'a TermStore,
    ) -> Result<Self, EvidenceError> {
        Ok(Builder {
            sys,
            rp: Replayer::new(lps, store)?,
            lps,
            states: HashMap::new(),
            labels: HashMap::new(),
            typed: Vec::new(),
            lts_labels: Vec::new(),
            transitions: Vec::new(),
        })
    }

    /// The evidence LTS (transitions sorted, without duplicates) and the typed multi-action
    /// of each of its labels.
    pub fn finish(mut self) -> (Lts, Vec<Vec<Action>>) {
        let mut transitions = std::mem::take(&mut self.transitions);
        transitions.sort_unstable();
        transitions.dedup();
        let lts = Lts {
            initial: StateId(0),
            num_states: self.states.len() as u32,
            labels: self.lts_labels,
            transitions,
        };
        (lts, self.typed)
    }

    /// The number of the state `row`, a new one when first met.
    pub fn state(&mut self, row: &[u32]) -> StateId {
        let n = self.states.len() as u32;
        StateId(*self.states.entry(row.to_vec()).or_insert(n))
    }

    /// The values of `row` as expressions.
    pub fn exprs(&self, row: &[u32]) -> Vec<DataExpr> {
        row.iter().map(|&t| self.sys.expr(TermId(t))).collect()
    }

    /// The step `from -> to` by `summand` with `sums`, replayed for its typed
    /// multi-action, and added to the evidence LTS.
    pub fn step(
        &mut self,
        summand: usize,
        sums: &[TermId],
        from: &[u32],
        to: &[u32],
    ) -> Result<Step, EvidenceError> {
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
