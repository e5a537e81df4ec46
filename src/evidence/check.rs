//! The independent evidence checker, as [`crate::bes::verify()`] is for game solutions: it
//! trusts neither the PBES nor its solver. A step must be a real transition of the LPS (the
//! summand's condition rewrites to `true` for the recorded state and sum values, and the
//! next state is the summand's), a trace must start in the initial state, chain its steps,
//! and close its lasso, and the formula, checked afresh on the evidence LTS by `lts2pbes`
//! and a solver, must give the same verdict.

use super::{Evidence, EvidenceError, Step, Trace};
use crate::data::ir::{DataExpr, Var};
use crate::data::ir_ops::{is_true, substitute, Subst};
use crate::data::print::data_expr_to_string;
use crate::data::Rewriter;
use crate::lps::{Lps, SummandAction};
use crate::modal::ir::FormulaSpec;
use crate::pbes::inst::InstOptions;
use crate::pbes::lts2pbes::lts2pbes;
use crate::pbes::solve::{solve_pbes, SolverKind};
use crate::process::ir::Action;

fn normal_form(rw: &mut Rewriter, e: &DataExpr) -> Result<DataExpr, EvidenceError> {
    let t = rw.term(e).map_err(|e| EvidenceError::Data(e.to_string()))?;
    let n = rw
        .rewrite(t)
        .map_err(|e| EvidenceError::Data(e.to_string()))?;
    Ok(rw.expr(n))
}

/// A state as `name = value` pairs: `n = 1, q = [2]`.
pub fn state_text(lps: &Lps, values: &[DataExpr]) -> String {
    lps.params
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{} = {}", p.name, data_expr_to_string(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The multi-action as mCRL2 prints it: actions ordered by name and arguments, `tau` for
/// the empty one.
pub fn action_text(actions: &[Action]) -> String {
    if actions.is_empty() {
        return "tau".to_string();
    }
    let mut parts: Vec<String> = actions
        .iter()
        .map(|a| {
            if a.args.is_empty() {
                a.name.to_string()
            } else {
                let shown: Vec<String> = a.args.iter().map(data_expr_to_string).collect();
                format!("{}({})", a.name, shown.join(", "))
            }
        })
        .collect();
    parts.sort();
    parts.join("|")
}

/// Takes summand `summand` of `lps` from state `from` with `sum_values`, checking that its
/// condition rewrites to `true`: the multi-action (arguments in normal form, sorted) and
/// the next state. `from` must be in normal form (an unchanged parameter keeps its value).
pub fn replay(
    lps: &Lps,
    rw: &mut Rewriter,
    summand: usize,
    from: &[DataExpr],
    sum_values: &[(Var, DataExpr)],
) -> Result<(Vec<Action>, Vec<DataExpr>), EvidenceError> {
    let s = lps
        .summands
        .get(summand)
        .ok_or_else(|| EvidenceError::Unchecked(format!("no summand {summand}")))?;
    if from.len() != lps.params.len() {
        return Err(EvidenceError::Unchecked(
            "a step has a state of the wrong length".to_string(),
        ));
    }
    if sum_values.len() != s.sum_vars.len()
        || sum_values.iter().zip(&s.sum_vars).any(|((v, _), w)| v != w)
    {
        return Err(EvidenceError::Unchecked(format!(
            "a step does not give summand {summand}'s sum variables"
        )));
    }
    let mut sigma: Subst = lps
        .params
        .iter()
        .cloned()
        .zip(from.iter().cloned())
        .collect();
    sigma.extend(sum_values.iter().cloned());
    let c = normal_form(rw, &substitute(&s.condition, &sigma))?;
    if !is_true(&c) {
        return Err(EvidenceError::Unchecked(format!(
            "summand {summand}'s condition is `{}`, not true, in the state ({})",
            data_expr_to_string(&c),
            state_text(lps, from)
        )));
    }
    let SummandAction::Multi(acts) = &s.action else {
        return Err(EvidenceError::Unchecked(format!(
            "summand {summand} is a delta summand"
        )));
    };
    let mut actions = Vec::with_capacity(acts.len());
    for a in acts {
        let mut b = a.clone();
        for e in &mut b.args {
            *e = normal_form(rw, &substitute(e, &sigma))?;
        }
        actions.push(b);
    }
    actions.sort();
    let mut to = Vec::with_capacity(s.next.len());
    for (j, e) in s.next.iter().enumerate() {
        // Most parameters keep their value: no rewriting for them.
        if *e == DataExpr::Var(lps.params[j].clone()) {
            to.push(from[j].clone());
        } else {
            to.push(normal_form(rw, &substitute(e, &sigma))?);
        }
    }
    Ok((actions, to))
}

/// Checks that `step` is a transition of `lps` ([`replay`]): its summand's condition
/// rewrites to `true` for the step's source state and sum values, and its multi-action and
/// target are the summand's.
pub fn check_step(lps: &Lps, rw: &mut Rewriter, step: &Step) -> Result<(), EvidenceError> {
    let (actions, to) = replay(lps, rw, step.summand, &step.from, &step.sum_values)?;
    if actions != step.actions {
        return Err(EvidenceError::Unchecked(format!(
            "step {} is not summand {}'s multi-action",
            step.action, step.summand
        )));
    }
    if to != step.to {
        return Err(EvidenceError::Unchecked(format!(
            "summand {} does not lead to the recorded state of step {}",
            step.summand, step.action
        )));
    }
    Ok(())
}

/// Checks that `trace` is a path of `lps`: it starts in the initial state, every step is a
/// transition ([`check_step`]) from the state the previous one reached, and a lasso's last
/// step returns to the state its cycle starts from.
pub fn check_trace(lps: &Lps, rw: &mut Rewriter, trace: &Trace) -> Result<(), EvidenceError> {
    let init: Vec<DataExpr> = lps
        .init
        .iter()
        .map(|e| normal_form(rw, e))
        .collect::<Result<_, _>>()?;
    if trace.initial != init {
        return Err(EvidenceError::Unchecked(format!(
            "the trace starts in ({}), not in the initial state ({})",
            state_text(lps, &trace.initial),
            state_text(lps, &init)
        )));
    }
    for (i, step) in trace.steps.iter().enumerate() {
        check_step(lps, rw, step)?;
        if step.from != trace.state_before(i) {
            return Err(EvidenceError::Unchecked(format!(
                "step {} ({}) leaves from ({}), but the trace is in ({})",
                i + 1,
                step.action,
                state_text(lps, &step.from),
                state_text(lps, trace.state_before(i))
            )));
        }
    }
    if let Some(k) = trace.loop_start {
        let closes = k < trace.steps.len()
            && trace.steps.last().map(|s| s.to.as_slice()) == Some(trace.state_before(k));
        if !closes {
            return Err(EvidenceError::Unchecked(format!(
                "the lasso's cycle (from step {}) does not return to where it starts",
                k + 1
            )));
        }
    }
    Ok(())
}

/// Checks `formula` afresh on the evidence LTS (`lts2pbes`, instantiation and `solver`)
/// and that it gives the verdict the evidence claims to prove.
pub fn recheck(
    lps: &Lps,
    formula: &FormulaSpec,
    ev: &Evidence,
    solver: SolverKind,
) -> Result<(), EvidenceError> {
    let pbes = lts2pbes(&ev.lts, &ev.labels, &lps.data, formula)
        .map_err(|e| EvidenceError::Recheck(e.to_string()))?;
    let out = solve_pbes(&pbes, &InstOptions::default(), solver, true)
        .map_err(|e| EvidenceError::Recheck(e.to_string()))?;
    if out.value != ev.value {
        return Err(EvidenceError::Unchecked(format!(
            "the formula is {} on the evidence LTS ({} states, {} transitions), but the evidence is for {}",
            out.value,
            ev.lts.num_states,
            ev.lts.transitions.len(),
            ev.value
        )));
    }
    Ok(())
}

/// Every check of [`Evidence`]: the trace ([`check_trace`]) and the verdict on the evidence
/// LTS ([`recheck`]). The steps of the evidence LTS were checked one by one as they were read.
pub fn check_evidence(
    lps: &Lps,
    formula: &FormulaSpec,
    ev: &Evidence,
    solver: SolverKind,
) -> Result<(), EvidenceError> {
    let mut rw = Rewriter::new(&lps.data).map_err(|e| EvidenceError::Data(e.to_string()))?;
    check_trace(lps, &mut rw, &ev.trace)?;
    recheck(lps, formula, ev, solver)
}
