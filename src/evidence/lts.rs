//! Evidence on the LTS route: from a solved PBES of `lts2pbes -c`
//! ([`crate::pbes::lts2pbes::lts2pbes_with`]), whose step equations' instances `EvTrans<k>_<j>` each stand
//! for transition `k` of the LTS. The proof is walked as on the LPS route
//! (as [`super::read()`] walks it); a state of the trace is the LTS state number (one value,
//! shown as `state`), a step's action is the LTS's own label, and the evidence LTS is a part
//! of the model with its labels. The independent check replays the trace on the LTS (every
//! step a transition of it from the state the trace is in) and re-checks the formula on the
//! evidence LTS.

use super::check::recheck_on;
use super::read::{assemble, step_index, step_table, StepRef, StepSource};
use super::{Evidence, EvidenceError, Step, Trace};
use crate::bes::SolverKind;
use crate::bes::{Game, Solution, VertexId};
use crate::data::ir::{DataExpr, DataSpec, Sort};
use crate::data::ir_ops::number;
use crate::lts::{LabelId, Lts, Transition};
use crate::modal::ir::FormulaSpec;
use crate::pbes::inst::Instantiation;
use crate::pbes::ir::Pbes;
use crate::pbes::lts2pbes::step_transition;
use crate::process::ir::Action;

/// The state of a trace on the LTS route: the state number, as one `Nat` value.
pub fn state(s: u32) -> Vec<DataExpr> {
    vec![number(s, Sort::Nat)]
}

/// The LTS state number of a trace state made by [`state`].
fn state_number(v: &[DataExpr]) -> Option<u32> {
    match v {
        [DataExpr::Number { value, sort }] if *sort == Sort::Nat => u32::try_from(value).ok(),
        _ => None,
    }
}

/// Reads the steps of a solved PBES of `lts2pbes -c` over an LTS.
struct LtsReader<'a> {
    lts: &'a Lts,
    inst: &'a Instantiation,
    labels: Option<&'a [Vec<Action>]>,
    /// Per equation: the transition of a step equation.
    step_of: Vec<Option<usize>>,
}

impl LtsReader<'_> {
    /// The transition of recorded step `s`, if it is one.
    fn transition(&self, s: u32) -> Option<(usize, Transition)> {
        let k = step_index(self.inst, &self.step_of, s)?;
        Some((k, self.lts.transitions[k]))
    }
}

impl StepSource for LtsReader<'_> {
    fn step_at(&mut self, s: u32, _target: VertexId) -> Result<Option<StepRef>, EvidenceError> {
        Ok(self.transition(s).map(|(_, t)| StepRef {
            from: t.from.0,
            label: t.label.0,
            to: t.to.0,
        }))
    }

    fn full_step(&mut self, s: u32) -> Result<Step, EvidenceError> {
        let Some((k, t)) = self.transition(s) else {
            return Err(EvidenceError::Unchecked(format!("step {s} is no step")));
        };
        let (action, actions) = self.label(t.label.0);
        Ok(Step {
            summand: k,
            action: action.to_string(),
            actions: actions.to_vec(),
            from: state(t.from.0),
            sum_values: Vec::new(),
            to: state(t.to.0),
        })
    }

    fn initial_state(&mut self) -> Result<u32, EvidenceError> {
        Ok(self.lts.initial.0)
    }

    fn label(&self, l: u32) -> (&str, &[Action]) {
        let typed = self.labels.and_then(|ls| ls.get(l as usize));
        (
            self.lts.label_text(LabelId(l)),
            typed.map(Vec::as_slice).unwrap_or_default(),
        )
    }

    fn model_numbers(&self) -> bool {
        true
    }
}

/// Reads the evidence of `value` (the verdict) of a PBES made by `lts2pbes -c` over `lts`
/// and checks its trace on the LTS ([`check_lts_trace`]). `labels` are the typed labels of
/// `lts` (as `lts2pbes` typed them) when known: the evidence keeps them for re-checking the
/// formula ([`check_lts_evidence`]); without them [`Evidence::labels`] is empty.
/// `known_counter_example` as for [`super::read`].
pub fn read_lts(
    lts: &Lts,
    labels: Option<&[Vec<Action>]>,
    pbes: &Pbes,
    inst: &Instantiation,
    game: Option<(&Game, &Solution)>,
    value: bool,
    known_counter_example: bool,
) -> Result<Evidence, EvidenceError> {
    let step_of = step_table(
        pbes,
        step_transition,
        lts.transitions.len(),
        known_counter_example,
    )?;
    let mut r = LtsReader {
        lts,
        inst,
        labels,
        step_of,
    };
    let mut ev = assemble(&mut r, inst, game, value, state(lts.initial.0))?;
    if labels.is_none() {
        ev.labels.clear();
    }
    check_lts_trace(lts, &ev.trace)?;
    Ok(ev)
}

/// Checks that `trace` is a path of `lts`: it starts in the initial state, every step is
/// transition `summand` of the LTS, with its label, leaving from the state the previous step
/// reached, and a lasso's last step returns to the state its cycle starts from.
pub fn check_lts_trace(lts: &Lts, trace: &Trace) -> Result<(), EvidenceError> {
    let unchecked = |m: String| Err(EvidenceError::Unchecked(m));
    if state_number(&trace.initial) != Some(lts.initial.0) {
        return unchecked(format!(
            "the trace does not start in the LTS's initial state {}",
            lts.initial
        ));
    }
    for (i, step) in trace.steps.iter().enumerate() {
        let Some(t) = lts.transitions.get(step.summand) else {
            return unchecked(format!("step {} is no transition of the LTS", i + 1));
        };
        let at = state_number(trace.state_before(i));
        if at != Some(t.from.0)
            || state_number(&step.from) != Some(t.from.0)
            || state_number(&step.to) != Some(t.to.0)
            || lts.label_text(t.label) != step.action
        {
            return unchecked(format!(
                "step {} ({}) is not a transition of the LTS from the state the trace is in",
                i + 1,
                step.action
            ));
        }
    }
    if let Some(k) = trace.loop_start {
        let closes = k < trace.steps.len()
            && trace.steps.last().map(|s| s.to.as_slice()) == Some(trace.state_before(k));
        if !closes {
            return unchecked(format!(
                "the lasso's cycle (from step {}) does not return to where it starts",
                k + 1
            ));
        }
    }
    Ok(())
}

/// Every check of evidence on the LTS route: the trace on `lts` ([`check_lts_trace`]) and the
/// verdict of `formula` on the evidence LTS (`data` is the data specification of the labels).
pub fn check_lts_evidence(
    lts: &Lts,
    data: &DataSpec,
    formula: &FormulaSpec,
    ev: &Evidence,
    solver: SolverKind,
) -> Result<(), EvidenceError> {
    check_lts_trace(lts, &ev.trace)?;
    recheck_on(data, formula, ev, solver)
}
