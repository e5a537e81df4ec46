//! The independent evidence checker, as [`crate::bes::verify()`] is for game solutions: it
//! trusts neither the PBES nor its solver. A step must be a real transition of the LPS (the
//! summand's condition rewrites to `true` for the recorded state and sum values, and the
//! next state is the summand's), a trace must start in the initial state, chain its steps,
//! and close its lasso, and the formula, checked afresh on the evidence LTS (its
//! strong-bisimulation quotient) by the explicit-state evaluator of [`super::explicit`] (or
//! by `lts2pbes` and a solver where that does not cover the formula), must give the same
//! verdict.

use super::{Evidence, EvidenceError, Step, Trace};
use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::bes::SolverKind;
use crate::data::ir::{DataExpr, DataSpec, Var};
use crate::data::print::data_expr_to_string;
use crate::data::{Rewriter, TermId, TermStore, VarId};
use crate::lps::{Lps, SummandAction};
use crate::lts::lps::CompiledSummand;
use crate::lts::Lts;
use crate::modal::ir::FormulaSpec;
use crate::pbes::inst::InstOptions;
use crate::pbes::lts2pbes::lts2pbes;
use crate::pbes::solve::solve_pbes;
use crate::process::ir::Action;
use crate::reduce::{partition, quotient, Bisimulation};

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

/// Replays steps on an LPS with the data engine: summands are compiled to terms once (as
/// exploration compiles them, [`CompiledSummand`]) and rewritten under a substitution of
/// the state's values, so a step costs a few rewrites, not a conversion of the substituted
/// expressions.
pub struct Replayer<'a> {
    lps: &'a Lps,
    rw: Rewriter<'a>,
    params: Vec<VarId>,
    /// Per summand of the LPS (`None` for a delta summand).
    compiled: Rc<[Option<CompiledSummand>]>,
    /// Values seen in states, as terms (they are normal forms), and back.
    to_term: FxHashMap<DataExpr, TermId>,
    to_expr: FxHashMap<TermId, DataExpr>,
    /// Replayed steps by summand, the values of the parameters it reads and the sum values:
    /// the action arguments, then the values of the parameters it changes. A step depends
    /// on these alone, and a summand of a large LPS reads few parameters, whose values
    /// recur in many states of a big evidence LTS.
    memo: FxHashMap<Box<[u32]>, Box<[u32]>>,
    /// Words held by `memo` (for the [`REPLAY_MEMO_WORDS`] bound).
    memo_words: usize,
    /// Scratch for a memo key.
    key: Vec<u32>,
}

/// Bound on the words of [`Replayer`]'s memo before it is cleared (8 Mi words, 32 MiB).
const REPLAY_MEMO_WORDS: usize = 8 << 20;

impl<'a> Replayer<'a> {
    /// A replayer for `lps`, with its own data engine over `store`.
    pub fn new(lps: &'a Lps, store: &'a TermStore) -> Result<Replayer<'a>, EvidenceError> {
        let rw = Rewriter::new(&lps.data, store).map_err(|e| EvidenceError::Data(e.to_string()))?;
        let params: Vec<VarId> = lps
            .params
            .iter()
            .map(|p| rw.store().intern_var(p))
            .collect();
        let compiled = lps
            .summands
            .iter()
            .map(|s| CompiledSummand::compile(&rw, &params, s, |_| 0))
            .collect::<Result<_, _>>()
            .map_err(|e| EvidenceError::Data(e.to_string()))?;
        Ok(Replayer {
            lps,
            rw,
            params,
            compiled,
            to_term: FxHashMap::default(),
            to_expr: FxHashMap::default(),
            memo: FxHashMap::default(),
            memo_words: 0,
            key: Vec::new(),
        })
    }

    /// The LPS steps are replayed on.
    pub fn lps(&self) -> &'a Lps {
        self.lps
    }

    fn term(&mut self, e: &DataExpr) -> Result<TermId, EvidenceError> {
        self.rw
            .term(e)
            .map_err(|e| EvidenceError::Data(e.to_string()))
    }

    fn value_term(&mut self, e: &DataExpr) -> Result<TermId, EvidenceError> {
        if let Some(t) = self.to_term.get(e) {
            return Ok(*t);
        }
        // The IR form of a value need not convert to the engine's normal form (sets, for
        // one, print more nicely than they are represented), so normalise it once.
        let t = self.term(e)?;
        let t = self.rewrite(t, &[])?;
        self.to_term.insert(e.clone(), t);
        Ok(t)
    }

    fn value_expr(&mut self, t: TermId) -> DataExpr {
        if let Some(e) = self.to_expr.get(&t) {
            return e.clone();
        }
        let e = self.rw.expr(t);
        self.to_expr.insert(t, e.clone());
        e
    }

    fn rewrite(&mut self, t: TermId, sigma: &[(VarId, TermId)]) -> Result<TermId, EvidenceError> {
        self.rw
            .rewrite_with(t, sigma)
            .map_err(|e| EvidenceError::Data(e.to_string()))
    }

    /// The normal form of a closed expression.
    pub fn normal_form(&mut self, e: &DataExpr) -> Result<DataExpr, EvidenceError> {
        let t = self.term(e)?;
        let n = self.rewrite(t, &[])?;
        Ok(self.value_expr(n))
    }

    /// Takes summand `summand` from state `from` with `sum_values`, checking that its
    /// condition rewrites to `true`: the multi-action (arguments in normal form, sorted) and
    /// the next state. `from` must be in normal form (an unchanged parameter keeps its
    /// value).
    pub fn replay(
        &mut self,
        summand: usize,
        from: &[DataExpr],
        sum_values: &[(Var, DataExpr)],
    ) -> Result<(Vec<Action>, Vec<DataExpr>), EvidenceError> {
        let lps = self.lps;
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
        let mut sigma: Vec<TermId> = Vec::with_capacity(from.len());
        for v in from {
            sigma.push(self.value_term(v)?);
        }
        let mut sums: Vec<TermId> = Vec::with_capacity(sum_values.len());
        for (_, v) in sum_values {
            sums.push(self.value_term(v)?);
        }
        let mut to_terms = Vec::new();
        let args = self.replay_terms(summand, &sigma, &sums, &mut to_terms)?;
        let actions = self.actions(summand, &args);
        let to = to_terms.iter().map(|&t| self.value_expr(t)).collect();
        Ok((actions, to))
    }

    /// [`Replayer::replay`] on terms (normal forms in this replayer's store): the argument
    /// terms of the summand's actions, in the summand's order, flattened; the next state
    /// goes to `to`. The summand's condition must rewrite to `true`.
    pub fn replay_terms(
        &mut self,
        summand: usize,
        from: &[TermId],
        sums: &[TermId],
        to: &mut Vec<TermId>,
    ) -> Result<Vec<TermId>, EvidenceError> {
        let lps = self.lps;
        let compiled = Rc::clone(&self.compiled);
        let Some(s) = lps.summands.get(summand) else {
            return Err(EvidenceError::Unchecked(format!("no summand {summand}")));
        };
        let Some(Some(c)) = compiled.get(summand) else {
            return Err(EvidenceError::Unchecked(format!(
                "summand {summand} is a delta summand"
            )));
        };
        if from.len() != self.params.len() || sums.len() != s.sum_vars.len() {
            return Err(EvidenceError::Unchecked(format!(
                "a step does not give summand {summand}'s parameters and sum variables"
            )));
        }
        let mut key = std::mem::take(&mut self.key);
        key.clear();
        key.push(summand as u32);
        key.extend(c.reads().iter().map(|&i| from[i as usize].0));
        key.extend(sums.iter().map(|t| t.0));
        let n_args: usize = c.actions.iter().map(|(_, a)| a.len()).sum();
        let hit = self.memo.get(key.as_slice());
        self.key = key;
        if let Some(hit) = hit {
            let (args, writes) = hit.split_at(n_args);
            let mut writes = writes.iter();
            to.clear();
            for (j, e) in c.next.iter().enumerate() {
                to.push(match e {
                    None => from[j],
                    Some(_) => TermId(*writes.next().expect("one value per write")),
                });
            }
            return Ok(args.iter().map(|&t| TermId(t)).collect());
        }
        // Only the parameters the summand reads are bound: every rewrite below binds its
        // substitution afresh, and a summand of a large LPS reads few of its parameters.
        let mut sigma: Vec<(VarId, TermId)> = Vec::with_capacity(c.reads().len() + sums.len());
        sigma.extend(
            c.reads()
                .iter()
                .map(|&i| (self.params[i as usize], from[i as usize])),
        );
        sigma.extend(c.sum_vars.iter().copied().zip(sums.iter().copied()));
        let sigma = &sigma;
        let cond = self.rewrite(c.condition, sigma)?;
        if cond != self.rw.store().true_term() {
            let shown = self.rw.expr(cond);
            let state: Vec<DataExpr> = from.iter().map(|&t| self.rw.expr(t)).collect();
            return Err(EvidenceError::Unchecked(format!(
                "summand {summand}'s condition is `{}`, not true, in the state ({})",
                data_expr_to_string(&shown),
                state_text(self.lps, &state)
            )));
        }
        let mut args = Vec::with_capacity(n_args);
        for (_, a) in &c.actions {
            for t in a {
                args.push(self.rewrite(*t, sigma)?);
            }
        }
        let mut value: Vec<u32> = args.iter().map(|t| t.0).collect();
        to.clear();
        for (j, e) in c.next.iter().enumerate() {
            to.push(match e {
                None => from[j],
                Some(t) => {
                    let r = self.rewrite(*t, sigma)?;
                    value.push(r.0);
                    r
                }
            });
        }
        if self.memo_words + self.key.len() + value.len() > REPLAY_MEMO_WORDS {
            self.memo.clear();
            self.memo_words = 0;
        }
        self.memo_words += self.key.len() + value.len();
        self.memo.insert(self.key.as_slice().into(), value.into());
        Ok(args)
    }

    /// The multi-action of `summand` with the argument terms `args` (as
    /// [`Replayer::replay_terms`] gives them), typed, sorted as mCRL2 orders it.
    pub fn actions(&mut self, summand: usize, args: &[TermId]) -> Vec<Action> {
        let compiled = Rc::clone(&self.compiled);
        let (SummandAction::Multi(multi), Some(Some(c))) =
            (&self.lps.summands[summand].action, compiled.get(summand))
        else {
            return Vec::new();
        };
        let mut args = args.iter();
        let mut actions: Vec<Action> = multi
            .iter()
            .zip(&c.actions)
            .map(|(a, (_, terms))| Action {
                name: a.name.clone(),
                sorts: a.sorts.clone(),
                args: (&mut args)
                    .take(terms.len())
                    .map(|&t| self.value_expr(t))
                    .collect(),
            })
            .collect();
        actions.sort();
        actions
    }

    /// A value of this replayer's store as an expression.
    pub fn expr(&mut self, t: TermId) -> DataExpr {
        self.value_expr(t)
    }

    /// The initial state of the LPS, in normal form, as terms.
    pub fn initial_terms(&mut self) -> Result<Vec<TermId>, EvidenceError> {
        let lps = self.lps;
        lps.init
            .iter()
            .map(|e| {
                let t = self.term(e)?;
                self.rewrite(t, &[])
            })
            .collect()
    }
}

/// Checks that `step` is a transition of `lps` ([`Replayer::replay`]): its summand's condition
/// rewrites to `true` for the step's source state and sum values, and its multi-action and
/// target are the summand's.
pub fn check_step(rp: &mut Replayer<'_>, step: &Step) -> Result<(), EvidenceError> {
    let (actions, to) = rp.replay(step.summand, &step.from, &step.sum_values)?;
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
pub fn check_trace(rp: &mut Replayer<'_>, trace: &Trace) -> Result<(), EvidenceError> {
    let lps = rp.lps();
    let init: Vec<DataExpr> = lps
        .init
        .iter()
        .map(|e| rp.normal_form(e))
        .collect::<Result<_, _>>()?;
    if trace.initial != init {
        return Err(EvidenceError::Unchecked(format!(
            "the trace starts in ({}), not in the initial state ({})",
            state_text(lps, &trace.initial),
            state_text(lps, &init)
        )));
    }
    for (i, step) in trace.steps.iter().enumerate() {
        check_step(rp, step)?;
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
    recheck_on(&lps.data, formula, ev, solver)
}

/// [`recheck`] with the data specification the labels' data come from (the LTS route has
/// no LPS).
///
/// The formula is checked by the explicit-state evaluator on the evidence LTS itself when
/// that takes at most a few passes over its transitions, else on its strong-bisimulation
/// quotient ([`bisim_quotient`]): modal mu-calculus formulas (data in labels included) cannot tell
/// bisimilar states apart, so checking the quotient (A.2 tmin 9 R2: 4,228 states instead
/// of 310,689) costs a partition of the transitions instead of work on every state. It is
/// checked there by the explicit-state evaluator ([`super::explicit::check_explicit`]), and
/// where that does not cover the formula (data parameters of fixpoints, quantifiers the
/// labels do not bind) by `lts2pbes`, instantiation and `solver` ([`verdict_by_pbes`]).
pub fn recheck_on(
    data: &DataSpec,
    formula: &FormulaSpec,
    ev: &Evidence,
    solver: SolverKind,
) -> Result<(), EvidenceError> {
    // A few passes over the evidence LTS itself cost less than its partition (B.1 R1: 8.6
    // million transitions, where a true safety formula takes two passes).
    let few_passes = 8 * (u64::from(ev.lts.num_states) / 64 + ev.lts.transitions.len() as u64);
    if ev.labels.len() >= ev.lts.labels.len() {
        if let Ok(value) =
            super::explicit::check_explicit_within(&ev.lts, &ev.labels, data, formula, few_passes)
        {
            return same_verdict(value, ev, None);
        }
    }
    let (lts, labels) = bisim_quotient(&ev.lts, &ev.labels)?;
    let value = match super::explicit::check_explicit(&lts, &labels, data, formula) {
        Ok(v) => v,
        Err(_) => verdict_by_pbes(&lts, &labels, data, formula, solver)?,
    };
    same_verdict(value, ev, Some(lts.num_states))
}

/// `Ok` when `value`, the verdict re-checked on the evidence LTS (on its quotient of
/// `quotient` states when that is given), is the verdict `ev` proves.
fn same_verdict(value: bool, ev: &Evidence, quotient: Option<u32>) -> Result<(), EvidenceError> {
    let modulo = match quotient {
        Some(n) => format!("; {n} states modulo strong bisimulation"),
        None => String::new(),
    };
    if value != ev.value {
        return Err(EvidenceError::Unchecked(format!(
            "the formula is {} on the evidence LTS ({} states, {} transitions{modulo}), but the \
             evidence is for {}",
            value,
            ev.lts.num_states,
            ev.lts.transitions.len(),
            ev.value
        )));
    }
    Ok(())
}

/// The verdict of `formula` in the initial state of `lts` (labels typed as `lts2pbes`
/// types them) through `lts2pbes`, instantiation and `solver`: the re-check for what the
/// explicit-state evaluator does not cover, and its reference in the property tests.
pub fn verdict_by_pbes(
    lts: &Lts,
    labels: &[Vec<Action>],
    data: &DataSpec,
    formula: &FormulaSpec,
    solver: SolverKind,
) -> Result<bool, EvidenceError> {
    let pbes =
        lts2pbes(lts, labels, data, formula).map_err(|e| EvidenceError::Recheck(e.to_string()))?;
    let opts = InstOptions {
        names: false,
        ..InstOptions::default()
    };
    let out = solve_pbes(&pbes, &opts, solver, true)
        .map_err(|e| EvidenceError::Recheck(e.to_string()))?;
    Ok(out.value)
}

/// The strong-bisimulation quotient of `lts` ([`crate::reduce::quotient`]: the initial
/// state's block is state 0) with the typed multi-actions of its labels: the quotient keeps
/// the labels some transition uses, in their order, so they are `labels` filtered the same
/// way. `labels` may be empty (untyped labels on the LTS route); it stays empty then.
pub fn bisim_quotient(
    lts: &Lts,
    labels: &[Vec<Action>],
) -> Result<(Lts, Vec<Vec<Action>>), EvidenceError> {
    let kind = Bisimulation::Strong;
    let q = quotient(lts, &partition(lts, kind), kind);
    if labels.is_empty() {
        return Ok((q, Vec::new()));
    }
    let mut used = vec![false; lts.labels.len()];
    for t in &lts.transitions {
        used[t.label.index()] = true;
    }
    let kept: Vec<Vec<Action>> = labels
        .iter()
        .zip(&used)
        .filter(|(_, &u)| u)
        .map(|(l, _)| l.clone())
        .collect();
    if kept.len() != q.labels.len() || labels.len() < lts.labels.len() {
        return Err(EvidenceError::Recheck(format!(
            "the quotient of the evidence LTS has {} labels, but {} of the {} typed labels are in use",
            q.labels.len(),
            kept.len(),
            labels.len()
        )));
    }
    Ok((q, kept))
}

/// Every check of [`Evidence`]: the trace ([`check_trace`]) and the verdict on the evidence
/// LTS ([`recheck`]). The steps of the evidence LTS were checked one by one as they were read.
pub fn check_evidence(
    lps: &Lps,
    formula: &FormulaSpec,
    ev: &Evidence,
    solver: SolverKind,
) -> Result<(), EvidenceError> {
    let store = TermStore::new();
    check_trace(&mut Replayer::new(lps, &store)?, &ev.trace)?;
    recheck(lps, formula, ev, solver)
}
