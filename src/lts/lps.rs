//! An LPS as a [`TransitionSystem`]: what `muon lps2lts` explores.
//!
//! A state is the vector of the process parameters' values as hash-consed normal-form
//! `TermId`s of the data engine's shared store (so equal states have equal rows, whichever
//! thread built them). For a state, every summand `sum e. c -> α . P(g)` is evaluated by
//! rewriting `c` with the parameters bound, enumerating the sum variables that make the
//! result true, and rewriting the action arguments and next-state expressions under the
//! parameters and the sum variables' values. Summands are tried in LPS order and solutions
//! in the enumerator's order, which fixes the state numbering.
//!
//! Summand memo. A summand's transitions depend only on the parameters it *reads* (free in
//! its condition, action arguments or next-state expressions). In a parallel composition
//! most summands read the local state of one or two components, which recurs in many global
//! states, so each worker memoises per summand: the values of the read parameters -> the
//! summand's transitions (label key and the new values of the parameters it changes). A hit
//! skips rewriting and enumeration entirely; the emitted transitions and their order are
//! exactly those of a fresh evaluation (rewriting is a function of the term and the values
//! of its free variables). The memo is bounded (`MEMO_WORDS`) and cleared when full. Its
//! tables (`memo.rs`) keep each entry's key and transitions together in one arena; the
//! look-ups of a state's summands run in three passes (hash and prefetch the slots,
//! prefetch the entries, probe in summand order), so their cache misses overlap.
//! Before the memo, a summand's guards (`guard.rs`: conjuncts `parameter == literal` of its
//! condition) are checked on the state row, so a disabled summand costs a few comparisons.

use rustc_hash::FxHashMap;
use thiserror::Error;

use super::guard::{self, Guard};
use super::memo::{hash_key, MemoTable};
use super::{ActionPart, Label, TransitionSystem};
use crate::data::ir::{DataExpr, Sort};
use crate::data::print::data_expr_to_string;
use crate::data::{ConvertError, EnumError, RewriteError, Rewriter, TermId, TermStore, VarId};
use crate::lps::{Lps, Summand, SummandAction};
use crate::source::Name;

/// What can go wrong exploring an LPS.
#[derive(Debug, Error)]
pub enum LpsError {
    /// The LPS's data could not be compiled or converted.
    #[error("in the LPS's data: {0}")]
    Convert(#[from] ConvertError),
    /// Rewriting failed.
    #[error(transparent)]
    Rewrite(#[from] RewriteError),
    /// The sum variables of a summand could not be enumerated.
    #[error("in summand {summand} ({origin}): {source}")]
    Enumerate {
        /// The summand's number (from 1, in LPS order).
        summand: usize,
        /// Where it came from.
        origin: String,
        /// The enumerator's error.
        #[source]
        source: EnumError,
    },
    /// A condition did not rewrite to `true` or `false`.
    #[error("in summand {summand} ({origin}): the condition does not rewrite to true or false but to `{residual}`{hint}", hint = quantifier_hint(residual))]
    Undecided {
        /// The summand's number (from 1).
        summand: usize,
        /// Where it came from.
        origin: String,
        /// The normal form it reached.
        residual: String,
    },
    /// A global variable of a sort whose representative value muon does not build.
    #[error("the LPS has global variables without a value muon can give them ({0}): mCRL2 builds their values from internal mappings; give them values in the specification")]
    Globals(String),
    /// A data value is not a closed normal form (a free variable survived rewriting).
    #[error("the initial value of parameter `{param}` is not a closed value: `{value}`")]
    OpenInit {
        /// The parameter.
        param: String,
        /// Its value.
        value: String,
    },
}

/// What to do about a condition left undecided by a quantifier over numbers no condition
/// bounds (see [`crate::data::qlimit`]).
fn quantifier_hint(residual: &str) -> String {
    if residual.contains("exists ") || residual.contains("forall ") {
        format!(
            " (a quantifier that no condition bounds is tried, as mCRL2 does, on the values its enumeration reaches in {} steps (`-Q`), and not at all over sorts it cannot enumerate such as `Real`; bound the variable, e.g. `x < N`, to have every value tried)",
            crate::data::qlimit::limit()
        )
    } else {
        String::new()
    }
}

/// A summand with its expressions as terms of one rewriter's store: what exploration
/// evaluates per state, and what the evidence checker replays steps with.
pub struct CompiledSummand {
    /// The sum variables.
    pub sum_vars: Vec<VarId>,
    /// The condition.
    pub condition: TermId,
    /// Per action: the index of its name in the caller's name table, and its argument terms.
    pub actions: Vec<(u32, Vec<TermId>)>,
    /// Per parameter: `None` when the parameter keeps its value, else the expression.
    pub next: Vec<Option<TermId>>,
    origin: String,
    /// Indices of the parameters the summand reads: its transitions depend on these only.
    reads: Vec<u32>,
    /// Indices of the parameters it changes (the `Some` entries of `next`), in order.
    writes: Vec<u32>,
    /// Conjuncts of the condition decided on the state row (see [`super::guard`]).
    guards: Vec<Guard>,
}

impl CompiledSummand {
    /// Indices of the parameters the summand reads (free in its condition, action arguments
    /// or next state): only these need a value to take it.
    pub fn reads(&self) -> &[u32] {
        &self.reads
    }

    /// Compiles `s` (a summand with a multi-action; `None` for a delta summand) in `rw`'s
    /// store; `params` are the LPS's parameters there, `name_id` numbers action names.
    pub fn compile(
        rw: &Rewriter<'_>,
        params: &[VarId],
        s: &Summand,
        mut name_id: impl FnMut(&Name) -> u32,
    ) -> Result<Option<CompiledSummand>, ConvertError> {
        let SummandAction::Multi(acts) = &s.action else {
            return Ok(None); // delta: no transitions
        };
        let store = rw.store();
        let mut actions = Vec::with_capacity(acts.len());
        for a in acts {
            let args = a
                .args
                .iter()
                .map(|e| rw.term(e))
                .collect::<Result<Vec<_>, _>>()?;
            actions.push((name_id(&a.name), args));
        }
        let mut next = Vec::with_capacity(s.next.len());
        for (i, e) in s.next.iter().enumerate() {
            let t = rw.term(e)?;
            next.push(if t == store.var(params[i]) {
                None
            } else {
                Some(t)
            });
        }
        let condition = rw.term(&s.condition)?;
        let sum_vars: Vec<VarId> = s.sum_vars.iter().map(|v| store.intern_var(v)).collect();
        let mut reads: Vec<u32> = Vec::new();
        let terms = std::iter::once(condition)
            .chain(actions.iter().flat_map(|(_, args)| args.iter().copied()))
            .chain(next.iter().flatten().copied());
        for t in terms {
            for v in store.free_vars(t) {
                // Sum variables shadow parameters of the same name.
                if sum_vars.contains(&v) {
                    continue;
                }
                if let Some(i) = params.iter().position(|p| *p == v) {
                    let i = i as u32;
                    if !reads.contains(&i) {
                        reads.push(i);
                    }
                }
            }
        }
        reads.sort_unstable();
        let writes = (0..next.len() as u32)
            .filter(|&i| next[i as usize].is_some())
            .collect();
        let guards = guard::guards(rw, params, &sum_vars, condition);
        Ok(Some(CompiledSummand {
            guards,
            sum_vars,
            condition,
            actions,
            next,
            origin: s.origin.description.clone(),
            reads,
            writes,
        }))
    }
}

/// Bound on the `u32` words (keys plus outcomes) one worker's summand memo holds before it
/// is cleared: 16 Mi words = 64 MiB per exploring thread.
const MEMO_WORDS: usize = 16 << 20;

// One summand's transitions from one valuation of its read parameters (an outcome) are
// flattened: per transition the label length, the label key, then the values of the
// written parameters.

/// An LPS compiled for exploration.
pub struct LpsSystem<'s> {
    rw: Rewriter<'s>,
    params: Vec<VarId>,
    param_names: Vec<Name>,
    /// The parameters' sorts, printed (for `.fsm`).
    param_sorts: Vec<String>,
    init: Vec<TermId>,
    names: Vec<Name>,
    summands: Vec<CompiledSummand>,
    /// Per compiled summand, its index in the LPS (delta summands are not compiled).
    lps_index: Vec<usize>,
    /// Decide summand guards on the state row (see [`super::guard`]); off, every summand
    /// is looked up or evaluated: the reference the guards are tested against.
    use_guards: bool,
    /// The function symbols the store held once the LPS was compiled: every process that
    /// compiles the same LPS numbers these alike (what `distrib` sends by number).
    shared_symbols: u32,
}

/// What [`LpsSystem::steps`] reports per transition: LPS summand, sum values, label key,
/// successor.
pub type StepFn<'f> = dyn FnMut(usize, &[TermId], &Vec<u32>, &[u32]) + 'f;

/// Per-thread scratch: a rewriting context and buffers.
pub struct LpsWorker<'s> {
    rw: Rewriter<'s>,
    sigma: Vec<(VarId, TermId)>,
    next: Vec<u32>,
    label: Vec<u32>,
    parts: Vec<(u32, Vec<TermId>)>,
    /// Per summand: read-parameter values -> outcome.
    memo: Vec<MemoTable>,
    /// Words held by `memo` (for the [`MEMO_WORDS`] bound).
    memo_words: usize,
    /// The enabled summands of the state being expanded, with their keys' hashes.
    enabled: Vec<(u32, u64)>,
    key: Vec<u32>,
    outcome: Vec<u32>,
    /// With [`LpsSystem::steps`]: the sum values of each transition `evaluate` fires.
    sums: Option<Vec<Vec<TermId>>>,
}

/// `lps` with its global variables replaced by their representative values
/// ([`crate::data::ir_ops::representative`]), as mCRL2's explorer replaces them.
pub fn instantiate_globals(lps: &Lps) -> Result<Lps, LpsError> {
    let mut sigma = crate::data::ir_ops::Subst::new();
    let mut missing = Vec::new();
    for g in &lps.globals {
        match crate::data::ir_ops::representative(&g.sort, &lps.data) {
            Some(d) => {
                sigma.insert(g.clone(), d);
            }
            None => missing.push(format!(
                "{}: {}",
                g.name,
                crate::data::print::sort_to_string(&g.sort)
            )),
        }
    }
    if !missing.is_empty() {
        return Err(LpsError::Globals(missing.join(", ")));
    }
    let mut out = lps.clone();
    out.globals.clear();
    let sub = |e: &mut crate::data::ir::DataExpr| *e = crate::data::ir_ops::substitute(e, &sigma);
    for e in out.init.iter_mut() {
        sub(e);
    }
    for s in out.summands.iter_mut() {
        sub(&mut s.condition);
        if let crate::lps::SummandAction::Multi(acts) = &mut s.action {
            for a in acts.iter_mut() {
                a.args.iter_mut().for_each(sub);
            }
        }
        s.next.iter_mut().for_each(sub);
    }
    Ok(out)
}

impl<'s> LpsSystem<'s> {
    /// Compiles `lps`; `stack_limit` is the rewriter's stack budget in bytes (the exploring
    /// threads' stacks must be bigger).
    pub fn new(
        lps: &Lps,
        store: &'s TermStore,
        stack_limit: Option<usize>,
    ) -> Result<LpsSystem<'s>, LpsError> {
        // Global variables take mCRL2's representative values (as its explorer's
        // `instantiate_global_variables` gives them).
        let instantiated;
        let lps = if lps.globals.is_empty() {
            lps
        } else {
            instantiated = instantiate_globals(lps)?;
            &instantiated
        };
        let mut rw = Rewriter::new(&lps.data, store)?;
        if let Some(l) = stack_limit {
            rw.set_stack_limit(l);
        }
        let store = rw.store();
        let params: Vec<VarId> = lps.params.iter().map(|v| store.intern_var(v)).collect();
        let mut init = Vec::with_capacity(lps.init.len());
        for (p, e) in lps.params.iter().zip(&lps.init) {
            let t = rw.term(e)?;
            let n = rw.rewrite(t)?;
            if !store.is_closed(n) {
                return Err(LpsError::OpenInit {
                    param: p.name.to_string(),
                    value: data_expr_to_string(&rw.expr(n)),
                });
            }
            init.push(n);
        }
        let mut names: Vec<Name> = Vec::new();
        let mut name_ids: FxHashMap<Name, u32> = FxHashMap::default();
        let mut summands = Vec::new();
        let mut lps_index = Vec::new();
        for (i, s) in lps.summands.iter().enumerate() {
            let name_id = |n: &Name| {
                *name_ids.entry(n.clone()).or_insert_with(|| {
                    names.push(n.clone());
                    (names.len() - 1) as u32
                })
            };
            if let Some(c) = CompiledSummand::compile(&rw, &params, s, name_id)? {
                summands.push(c);
                lps_index.push(i);
            }
        }
        Ok(LpsSystem {
            rw,
            params,
            param_names: lps.params.iter().map(|v| v.name.clone()).collect(),
            param_sorts: lps
                .params
                .iter()
                .map(|v| crate::data::print::sort_to_string(&v.sort))
                .collect(),
            init,
            names,
            summands,
            lps_index,
            use_guards: true,
            shared_symbols: store.func_count() as u32,
        })
    }

    /// The number of function symbols interned while compiling (see the field's comment).
    pub fn shared_symbols(&self) -> u32 {
        self.shared_symbols
    }

    /// Turns the summand guards on (the default) or off; the transitions are the same
    /// either way (property-tested in `tests/lts_store.rs`).
    pub fn set_guards(&mut self, on: bool) {
        self.use_guards = on;
    }

    fn print(&self, t: TermId) -> String {
        data_expr_to_string(&self.rw.expr(t))
    }

    /// The name of action number `id` of a label key (see [`TransitionSystem::Label`]).
    pub fn action_name(&self, id: u32) -> &Name {
        &self.names[id as usize]
    }

    /// The actions of the label key `key` (see [`TransitionSystem::Label`]), in the key's
    /// order: each its name, the sorts of its arguments and the arguments, terms of
    /// [`LpsSystem::store`].
    pub fn label_actions(&self, key: &[u32]) -> Vec<KeyAction> {
        let store = self.store();
        key_actions(key)
            .map(|(name, args)| {
                let args: Vec<TermId> = args.iter().map(|&t| TermId(t)).collect();
                let sorts = args.iter().map(|&t| store.sort_of(t)).collect();
                (self.action_name(name).clone(), sorts, args)
            })
            .collect()
    }

    /// A term of the exploring store as an expression.
    pub fn expr(&self, t: TermId) -> DataExpr {
        self.rw.expr(t)
    }

    /// The store of the states' and labels' terms.
    pub fn store(&self) -> &'s TermStore {
        self.rw.store()
    }

    /// Every transition of `state` with where it comes from, for evidence: `f(summand,
    /// sum values, label, successor)`, the summand numbered as in the LPS, in the order of
    /// [`TransitionSystem::successors`]. Each summand is evaluated afresh (not looked up
    /// in the memo, which does not keep sum values).
    pub fn steps(
        &self,
        w: &mut LpsWorker<'s>,
        state: &[u32],
        f: &mut StepFn<'_>,
    ) -> Result<(), LpsError> {
        for k in 0..self.summands.len() {
            w.sums = Some(Vec::new());
            let r = self.evaluate(w, k, state);
            let sums = w.sums.take().unwrap_or_default();
            r?;
            let outcome = std::mem::take(&mut w.outcome);
            let mut i = 0;
            let (mut label, mut next) = (Vec::new(), Vec::new());
            emit_outcome(
                &outcome,
                &self.summands[k].writes,
                state,
                &mut label,
                &mut next,
                &mut |l, row| {
                    f(self.lps_index[k], &sums[i], l, row);
                    i += 1;
                },
            );
            w.outcome = outcome;
        }
        Ok(())
    }
}

/// Fires one solution of a summand: rewrites action arguments and next state under `sigma`
/// and appends the transition to `w.outcome` (flattened as the memo keeps it).
fn fire(w: &mut LpsWorker<'_>, s: &CompiledSummand) -> Result<(), LpsError> {
    // The label key: actions sorted by (name, argument ids), each as name, args.
    w.parts.clear();
    for (name, args) in &s.actions {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(w.rw.rewrite_with(*a, &w.sigma)?);
        }
        w.parts.push((*name, vals));
    }
    w.parts.sort_unstable();
    let len_at = w.outcome.len();
    w.outcome.push(0);
    for (name, vals) in &w.parts {
        w.outcome.push(*name);
        w.outcome.push(vals.len() as u32);
        w.outcome.extend(vals.iter().map(|v| v.0));
    }
    w.outcome[len_at] = (w.outcome.len() - len_at - 1) as u32;
    for t in s.next.iter().flatten() {
        let v = w.rw.rewrite_with(*t, &w.sigma)?;
        w.outcome.push(v.0);
    }
    Ok(())
}

impl<'s> LpsSystem<'s> {
    /// Computes summand `k`'s transitions from `state` into `w.outcome`.
    fn evaluate(&self, w: &mut LpsWorker<'s>, k: usize, state: &[u32]) -> Result<(), LpsError> {
        let s = &self.summands[k];
        let store = w.rw.store();
        let tt = store.true_term();
        let ff = store.false_term();
        w.outcome.clear();
        // Only the read parameters are bound: the others do not occur.
        w.sigma.clear();
        w.sigma.extend(
            s.reads
                .iter()
                .map(|&i| (self.params[i as usize], TermId(state[i as usize]))),
        );
        let c = w.rw.rewrite_with(s.condition, &w.sigma)?;
        if c == ff {
            return Ok(());
        }
        if s.sum_vars.is_empty() {
            if c != tt {
                return Err(LpsError::Undecided {
                    summand: k + 1,
                    origin: s.origin.clone(),
                    residual: self.print(c),
                });
            }
            if let Some(sums) = &mut w.sums {
                sums.push(Vec::new());
            }
            return fire(w, s);
        }
        // Enumerate the sum variables; collect solutions first (the enumerator borrows
        // the rewriter), then fire each.
        let mut solutions: Vec<Vec<TermId>> = Vec::new();
        let mut undecided = None;
        w.rw.enumerator()
            .enumerate(&s.sum_vars, c, &mut |vals, residual| {
                if residual == tt {
                    solutions.push(vals.to_vec());
                    true
                } else {
                    undecided = Some(residual);
                    false
                }
            })
            .map_err(|source| LpsError::Enumerate {
                summand: k + 1,
                origin: s.origin.clone(),
                source,
            })?;
        if let Some(r) = undecided {
            return Err(LpsError::Undecided {
                summand: k + 1,
                origin: s.origin.clone(),
                residual: self.print(r),
            });
        }
        let bound = w.sigma.len();
        for vals in solutions {
            w.sigma.truncate(bound);
            w.sigma
                .extend(s.sum_vars.iter().copied().zip(vals.iter().copied()));
            if let Some(sums) = &mut w.sums {
                sums.push(vals);
            }
            fire(w, s)?;
        }
        Ok(())
    }
}

/// One action of a label key as [`LpsSystem::label_actions`] decodes it: its name, the
/// sorts of its arguments and the arguments.
pub type KeyAction = (Name, Vec<Sort>, Vec<TermId>);

/// The actions of a label key (see [`TransitionSystem::Label`]): per action its name's
/// number and its argument terms.
fn key_actions(key: &[u32]) -> impl Iterator<Item = (u32, &[u32])> {
    let mut i = 0;
    std::iter::from_fn(move || {
        if i + 1 >= key.len() {
            return None;
        }
        let n = key[i + 1] as usize;
        let action = (key[i], &key[i + 2..i + 2 + n]);
        i += 2 + n;
        Some(action)
    })
}

/// Emits the transitions of one [`Outcome`] from `state`.
fn emit_outcome(
    outcome: &[u32],
    writes: &[u32],
    state: &[u32],
    label: &mut Vec<u32>,
    next: &mut Vec<u32>,
    emit: &mut dyn FnMut(&Vec<u32>, &[u32]),
) {
    let mut i = 0;
    while i < outcome.len() {
        let n = outcome[i] as usize;
        label.clear();
        label.extend_from_slice(&outcome[i + 1..i + 1 + n]);
        i += 1 + n;
        next.clear();
        next.extend_from_slice(state);
        for (&p, &v) in writes.iter().zip(&outcome[i..i + writes.len()]) {
            next[p as usize] = v;
        }
        i += writes.len();
        emit(label, next);
    }
}

impl<'s> TransitionSystem for LpsSystem<'s> {
    /// Encoded multi-action: per action its name index, arity and argument `TermId`s.
    type Label = Vec<u32>;
    type Error = LpsError;
    type Worker = LpsWorker<'s>;

    fn state_width(&self) -> usize {
        self.params.len()
    }

    fn worker(&self) -> LpsWorker<'s> {
        LpsWorker {
            rw: self.rw.clone(),
            sigma: Vec::with_capacity(self.params.len() + 4),
            next: Vec::with_capacity(self.params.len()),
            label: Vec::new(),
            parts: Vec::new(),
            memo: vec![MemoTable::default(); self.summands.len()],
            memo_words: 0,
            enabled: Vec::with_capacity(self.summands.len()),
            key: Vec::new(),
            outcome: Vec::new(),
            sums: None,
        }
    }

    fn initial_state(&self, _w: &mut LpsWorker<'s>, out: &mut Vec<u32>) -> Result<(), LpsError> {
        out.extend(self.init.iter().map(|t| t.0));
        Ok(())
    }

    fn successors(
        &self,
        w: &mut LpsWorker<'s>,
        state: &[u32],
        emit: &mut dyn FnMut(&Vec<u32>, &[u32]),
    ) -> Result<(), LpsError> {
        let store = w.rw.store();
        // The enabled summands, their keys hashed and home slots prefetched; then their
        // entries prefetched; then the probes in summand order.
        w.enabled.clear();
        for (k, s) in self.summands.iter().enumerate() {
            if self.use_guards && s.guards.iter().any(|g| g.fails(store, state)) {
                continue;
            }
            let hash = hash_key(s.reads.iter().map(|&i| state[i as usize]));
            w.memo[k].prefetch_slot(hash);
            w.enabled.push((k as u32, hash));
        }
        for &(k, hash) in &w.enabled {
            w.memo[k as usize].prefetch_entry(hash);
        }
        for e in 0..w.enabled.len() {
            let (k, hash) = w.enabled[e];
            let k = k as usize;
            let s = &self.summands[k];
            let key = |j: usize| state[s.reads[j] as usize];
            if let Some(out) = w.memo[k].get(hash, s.reads.len(), key) {
                emit_outcome(out, &s.writes, state, &mut w.label, &mut w.next, emit);
                continue;
            }
            self.evaluate(w, k, state)?;
            emit_outcome(
                &w.outcome,
                &s.writes,
                state,
                &mut w.label,
                &mut w.next,
                emit,
            );
            // The entry, and the slots if the table doubles: at most this many words.
            let words = s.reads.len() + 1 + w.outcome.len() + 2 * w.memo[k].slot_count().max(16);
            if w.memo_words + words > MEMO_WORDS {
                w.memo.iter_mut().for_each(MemoTable::clear);
                w.memo_words = 0;
            }
            w.key.clear();
            w.key.extend(s.reads.iter().map(|&i| state[i as usize]));
            w.memo_words += w.memo[k].insert(&w.key, hash, &w.outcome);
        }
        Ok(())
    }

    fn label(&self, key: &Vec<u32>) -> Label {
        let mut parts: Vec<ActionPart> = key_actions(key)
            .map(|(name, args)| {
                let args = args.iter().map(|t| self.print(TermId(*t))).collect();
                ActionPart::new(self.action_name(name).to_string(), args)
            })
            .collect();
        // mCRL2 orders the actions of a multi-action by name, then by arguments.
        parts.sort();
        Label::from_parts(parts)
    }

    fn format_state(&self, state: &[u32]) -> String {
        let vals: Vec<String> = self
            .param_names
            .iter()
            .zip(state)
            .map(|(n, v)| format!("{n} = {}", self.print(TermId(*v))))
            .collect();
        format!("({})", vals.join(", "))
    }

    fn parameters(&self) -> Vec<(String, String)> {
        let names = self.param_names.iter().map(|n| n.to_string());
        names.zip(self.param_sorts.iter().cloned()).collect()
    }

    fn state_values(&self, state: &[u32]) -> Vec<String> {
        state.iter().map(|v| self.print(TermId(*v))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lps::{linearise, LineariseOptions};
    use crate::process::typecheck::check_specification;
    use crate::source::SourceFile;

    fn lps(text: &str) -> Lps {
        let src = SourceFile::new("memo.mcrl2", text);
        let spec = check_specification(&src).expect("well-typed");
        linearise(&spec, LineariseOptions::default()).expect("linearisable")
    }

    /// Every transition reachable from the initial state, as printed (source, label, target),
    /// sorted; states are expanded in breadth-first order with one long-lived worker, so
    /// later states are answered from the summand memo.
    fn transitions(sys: &LpsSystem<'_>) -> Vec<(String, String, String)> {
        let mut w = sys.worker();
        let mut init = Vec::new();
        sys.initial_state(&mut w, &mut init).unwrap();
        let mut seen = vec![init.clone()];
        let mut queue = std::collections::VecDeque::from([init]);
        let mut out = Vec::new();
        while let Some(s) = queue.pop_front() {
            let mut succ = Vec::new();
            sys.successors(&mut w, &s, &mut |l, row| {
                succ.push((sys.label(l).to_string(), row.to_vec()))
            })
            .unwrap();
            for (l, row) in succ {
                out.push((sys.format_state(&s), l, sys.format_state(&row)));
                if !seen.contains(&row) {
                    seen.push(row.clone());
                    queue.push_back(row);
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn summand_memo_is_keyed_by_every_parameter_a_summand_reads() {
        // The first summand's condition reads only `x` but its action reads `y`; the third
        // one's condition reads `x` and its sum variable is enumerated. A memo keyed by the
        // condition alone would give (x = 0, y = 1) the label of (x = 0, y = 0).
        let lps = lps("act a, b: Nat;\n\
             proc P(x: Nat, y: Nat) = (x < 2) -> a(y) . P(x + 1, y)\n\
               + (y < 2) -> a(x) . P(x, y + 1)\n\
               + sum z: Nat . (z < 2 && x == 0) -> b(z) . P(x, y);\n\
             init P(0, 0);");
        let store = TermStore::new();
        let sys = LpsSystem::new(&lps, &store, None).expect("compiles");
        let st = |x: u32, y: u32| format!("(x = {x}, y = {y})");
        let mut want = Vec::new();
        for x in 0..3 {
            for y in 0..3 {
                if x < 2 {
                    want.push((st(x, y), format!("a({y})"), st(x + 1, y)));
                }
                if y < 2 {
                    want.push((st(x, y), format!("a({x})"), st(x, y + 1)));
                }
                if x == 0 {
                    for z in 0..2 {
                        want.push((st(x, y), format!("b({z})"), st(x, y)));
                    }
                }
            }
        }
        want.sort();
        assert_eq!(want.len(), 18);
        assert_eq!(transitions(&sys), want);
    }

    /// Every transition from the initial state, or the error of expanding it.
    fn first_step(text: &str) -> Result<Vec<String>, LpsError> {
        let lps = lps(text);
        let store = TermStore::new();
        let sys = LpsSystem::new(&lps, &store, None).expect("compiles");
        let mut w = sys.worker();
        let mut init = Vec::new();
        sys.initial_state(&mut w, &mut init)?;
        let mut out = Vec::new();
        sys.successors(&mut w, &init, &mut |l, row| {
            out.push(format!("{} {}", sys.label(l), sys.format_state(row)))
        })?;
        Ok(out)
    }

    #[test]
    fn guards_decide_comparisons_with_literals() {
        // Every summand's condition starts with guards; only the ones noted hold in
        // (s = 2, c = green, b = false, n = 2). The last summand keeps constelm from
        // replacing the parameters by their values (which would leave no guard).
        let out = first_step(
            "sort Col = struct red | green;\n\
             act a, b, c, d, e: Nat; z;\n\
             proc P(s: Pos, c: Col, b: Bool, n: Nat) =\n\
                 (s == 1) -> a(n) . P()\n\
               + (c == red) -> a(n) . P()\n\
               + (b) -> a(n) . P()\n\
               + (n < 2) -> a(n) . P()\n\
               + (n > 2) -> a(n) . P()\n\
               + (s != 2) -> a(n) . P()\n\
               + (!(c == green)) -> a(n) . P()\n\
               + (s == 2 && green == c && !b) -> b(n) . P()\n\
               + (n <= 2 && n >= 2 && 2 == s) -> c(n) . P()\n\
               + (s == 2 && n + 1 == 3) -> d(n) . P()\n\
               + (!(s == 1) && c != red) -> e(n) . P()\n\
               + z . P(s + 1, red, !b, n + 1);\n\
             init P(2, green, false, 2);",
        )
        .expect("no error");
        let labels: Vec<&str> = out.iter().map(|t| t.split(' ').next().unwrap()).collect();
        assert_eq!(labels, ["b(2)", "c(2)", "d(2)", "e(2)", "z"]);
    }

    #[test]
    fn guards_leave_undecided_values_and_earlier_conjuncts_alone() {
        // `g(0)` has no equation: `x == 1` does not rewrite to false, so the summand is
        // evaluated and its undecided condition reported, not skipped.
        let e = first_step(
            "map g: Nat -> Nat;\n\
             act a;\n\
             proc P(x: Nat) = (x == 1) -> a . P() + a . P(x + 1);\n\
             init P(g(0));",
        );
        assert!(matches!(e, Err(LpsError::Undecided { .. })), "{e:?}");
        // A conjunct that does not terminate comes before the guard: the guard is not used
        // and rewriting fails, as it does without guards (and in mCRL2).
        let looping = "map loop: Nat -> Bool;\n\
             var n: Nat;\n\
             eqn loop(n) = loop(n + 1);\n\
             act a, z;\n";
        let e = first_step(&format!(
            "{looping}proc P(s: Pos, n: Nat) = (loop(n) && s == 2) -> a . P() + z . P(s + 1, n + 1);\n\
             init P(1, 0);"
        ));
        assert!(matches!(e, Err(LpsError::Rewrite(_))), "{e:?}");
        // After the guard it is never reached.
        let out = first_step(&format!(
            "{looping}proc P(s: Pos, n: Nat) = (s == 2 && loop(n)) -> a . P() + z . P(s + 1, n + 1);\n\
             init P(1, 0);"
        ));
        let out = out.expect("no error");
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with("z "), "{out:?}");
    }
}
