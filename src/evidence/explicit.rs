//! The explicit-state re-check of a formula on an evidence LTS: the formula's fixpoints are
//! evaluated over sets of states, straight from the modal formula (nested fixpoint
//! iteration; a fixpoint with no free fixpoint variable, as every fixpoint of an
//! alternation-free formula, is evaluated once per data valuation and kept, so such
//! formulas cost one iteration per fixpoint as in Emerson and Lei's evaluation), with the
//! data engine only for `val(…)` and for matching
//! labels against action formulas. It needs neither `lts2pbes` nor instantiation, and it
//! shares nothing with the proof that produced the evidence (no PBES, no BES, no game).
//!
//! What it covers, after the formula's positive normal form (`modal::preprocess`, the
//! form `lts2pbes` translates): fixpoints without data parameters; data quantifiers whose
//! variable either has sort `Bool` or is *bound by the labels*: every valuation where the
//! variable differs from every argument of its sort in the LTS's labels makes the
//! quantified formula `true` (`forall`) or `false` (`exists`) whatever the other variables
//! are, as in `forall p, v: Nat . [decide(p, v)] φ` (the modality then matches no
//! transition), so the candidates are those argument values; the same inside action
//! formulas, against the one label matched; or is *bound by a data guard*: `forall p: Nat .
//! val(1 <= p && p <= 3) => φ` takes the values the enumerator finds for the guard, as
//! instantiation does. Everything else ([`Unsupported`]), and an
//! evaluation that would take more than about a second of work (`MAX_WORK`), is
//! re-checked by the route through `lts2pbes`, instantiation and a solver, which stays the
//! reference (`tests/evidence_lts.rs` holds the two against each other on random LTSs and
//! formulas).

use std::collections::HashMap;
use std::rc::Rc;

use bitvec::prelude::{bitvec, BitVec};

use crate::data::ir::{DataExpr, DataSpec, Sort, Var};
use crate::data::ir_ops;
use crate::data::{Rewriter, Substitution, TermId, TermStore, VarId};
use crate::lts::lps::KeyAction;
use crate::lts::Lts;
use crate::modal::ir::formula_free_vars_into;
use crate::modal::ir::{ActionFormula, FormulaSpec, RegFormula, StateFormula};
use crate::modal::preprocess::normalise_formula;
use crate::process::ir::Action;

/// Why the explicit-state re-check does not decide a formula (the caller falls back to
/// `lts2pbes`): the construct it met.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// Bound on the valuations one quantifier enumerates (beyond it: [`Unsupported`]).
const MAX_VALUATIONS: usize = 100_000;

/// Bound on the work of one evaluation, in transitions visited and words of state sets
/// combined (about a second): nested iteration over many valuations can cost far more than
/// instantiating the formula's PBES, so beyond it the caller takes that route instead.
const MAX_WORK: u64 = 400_000_000;

/// A set of states.
type States = BitVec;

/// One action of a label: name, sorts, argument terms (normal forms).
pub type LabelAction<'f> = (&'f str, &'f [Sort], Vec<TermId>);

/// A label's actions as the exploration engine decodes them
/// ([`crate::lts::lps::LpsSystem::label_actions`]), as [`label_matches`], [`local_matches`]
/// and [`local_holds`] take them.
pub fn label_view(actions: &[KeyAction]) -> Vec<LabelAction<'_>> {
    actions
        .iter()
        .map(|(n, s, a)| (n.as_ref(), s.as_slice(), a.clone()))
        .collect()
}

/// The verdict of `formula` in the initial state of `lts`, whose label `i` is the typed
/// multi-action `labels[i]` (as `lts2pbes` types them) over the data of `data`; `Err` names
/// what this checker does not cover.
pub fn check_explicit(
    lts: &Lts,
    labels: &[Vec<Action>],
    data: &DataSpec,
    formula: &FormulaSpec,
) -> Result<bool, Unsupported> {
    check_explicit_within(lts, labels, data, formula, MAX_WORK)
}

/// [`check_explicit`] with at most `max_work` work (transitions visited, words of state
/// sets combined, labels matched); beyond it, [`Unsupported`].
pub fn check_explicit_within(
    lts: &Lts,
    labels: &[Vec<Action>],
    data: &DataSpec,
    formula: &FormulaSpec,
    max_work: u64,
) -> Result<bool, Unsupported> {
    if labels.len() < lts.labels.len() {
        return Err(Unsupported("untyped labels".to_string()));
    }
    let f = normalise_formula(&formula.formula, Default::default())
        .map_err(|e| Unsupported(e.to_string()))?;
    let spec = formula.data_over(data);
    let store = TermStore::new();
    let rw = Rewriter::new(&spec, &store).map_err(|e| Unsupported(e.to_string()))?;
    let mut c = Checker::new(lts, &labels[..lts.labels.len()], rw, max_work)?;
    let set = c.eval(&f, &mut Vec::new())?;
    Ok(set[lts.initial.index()])
}

/// The on-the-fly monitor's view of one state (`crate::monitor`): the state's outgoing
/// transitions carry `labels` (terms of `rw`'s store) and lead to states without
/// successors. Which of `formulas` the label `labels[0]` satisfies, as a bit set (bit `j`
/// for `formulas[j]`), by the same matcher as the re-check (labels bind quantifiers).
/// The rewriter is lent and handed back whatever the outcome.
pub fn local_matches<'s>(
    rw: Rewriter<'s>,
    label: Vec<LabelAction<'_>>,
    formulas: &[ActionFormula],
) -> (Rewriter<'s>, Result<u64, Unsupported>) {
    let mut c = Checker::from_terms(2, vec![(0, 0, 1)], vec![label], rw, MAX_WORK);
    let mut bits = 0u64;
    let mut r = Ok(());
    for (j, alpha) in formulas.iter().enumerate() {
        match c.matches(alpha, 0, &mut Vec::new()) {
            Ok(true) => bits |= 1 << j,
            Ok(false) => {}
            Err(e) => {
                r = Err(e);
                break;
            }
        }
    }
    (c.rw, r.map(|()| bits))
}

/// Whether the multi-action `label` satisfies `alpha` under the valuation `env` (terms of
/// `rw`'s store, normal forms), by the re-check's matcher: quantifiers inside `alpha` range
/// over the label's values. The product game (`crate::product`) matches its modalities with
/// it. The rewriter is lent and handed back whatever the outcome.
pub fn label_matches<'s>(
    rw: Rewriter<'s>,
    label: Vec<LabelAction<'_>>,
    alpha: &ActionFormula,
    env: &[(VarId, TermId)],
) -> (Rewriter<'s>, Result<bool, Unsupported>) {
    let mut c = Checker::from_terms(2, vec![(0, 0, 1)], vec![label], rw, MAX_WORK);
    let r = c.matches(alpha, 0, &mut env.to_vec());
    (c.rw, r)
}

/// Whether `phi` (in positive normal form, as the re-check's `normalise_formula` gives it) holds in a
/// state whose outgoing transitions carry `labels` (one transition each, to states without
/// successors): the re-check's evaluator on that two-level LTS, so quantifiers range over
/// the labels' values as they do there. The rewriter is lent and handed back.
pub fn local_holds<'s>(
    rw: Rewriter<'s>,
    labels: Vec<Vec<LabelAction<'_>>>,
    phi: &StateFormula,
) -> (Rewriter<'s>, Result<bool, Unsupported>) {
    let trans = (0..labels.len() as u32).map(|l| (0, l, 1 + l)).collect();
    let n = labels.len() + 1;
    let mut c = Checker::from_terms(n, trans, labels, rw, MAX_WORK);
    let r = c.eval(phi, &mut Vec::new()).map(|set| set[0]);
    (c.rw, r)
}

/// The evaluator: the LTS as per-label transition lists, the labels as terms, the data
/// engine, and the fixpoints' current approximations.
struct Checker<'s, 'f> {
    n: usize,
    /// Transitions `(from, label, to)`.
    trans: Vec<(u32, u32, u32)>,
    /// Per label, its actions with argument terms, sorted (multi-action equality compares
    /// these sorted lists).
    labels: Vec<Vec<LabelAction<'f>>>,
    /// Per sort, the distinct argument values of that sort in the labels.
    values: HashMap<Sort, Vec<TermId>>,
    rw: Rewriter<'s>,
    /// Terms of the formula's data expressions, by address (the formula outlives the run).
    terms: HashMap<usize, TermId>,
    /// The current approximation of each fixpoint variable in scope.
    rho: Vec<(&'f str, States)>,
    /// Values of fixpoints without free fixpoint variables, by address and valuation.
    done: HashMap<(usize, Vec<TermId>), States>,
    /// Whether a fixpoint (by address) has a free fixpoint variable.
    open: HashMap<usize, bool>,
    /// The labels an action formula (by address) matches, by valuation.
    matching: HashMap<(usize, Vec<TermId>), BitVec>,
    /// Per quantifier (by address): its data guard as a term (see
    /// [`Checker::guard_solutions`]), `None` without one.
    guards: HashMap<usize, Option<TermId>>,
    /// The guard solutions of a quantifier (by address) under a valuation.
    solved: HashMap<(usize, Vec<TermId>), Solutions>,
    /// Work done so far, and its bound (see [`MAX_WORK`]).
    work: u64,
    max_work: u64,
}

/// The valuations of a quantifier's guarded variables (see [`Checker::guard_solutions`]).
type Solutions = Rc<Vec<Vec<TermId>>>;

/// A data valuation: the quantified variables in scope with their values.
type Env = Vec<(VarId, TermId)>;

impl<'s, 'f> Checker<'s, 'f> {
    fn new(
        lts: &Lts,
        labels: &'f [Vec<Action>],
        mut rw: Rewriter<'s>,
        max_work: u64,
    ) -> Result<Self, Unsupported> {
        let mut out = Vec::with_capacity(labels.len());
        for l in labels {
            let mut acts = Vec::with_capacity(l.len());
            for a in l {
                let mut args = Vec::with_capacity(a.args.len());
                for e in &a.args {
                    let t = rw.term(e).map_err(|e| Unsupported(e.to_string()))?;
                    args.push(rw.rewrite(t).map_err(|e| Unsupported(e.to_string()))?);
                }
                acts.push((a.name.as_ref(), a.sorts.as_slice(), args));
            }
            out.push(acts);
        }
        let trans = lts
            .transitions
            .iter()
            .map(|t| (t.from.0, t.label.0, t.to.0))
            .collect();
        Ok(Checker::from_terms(
            lts.num_states as usize,
            trans,
            out,
            rw,
            max_work,
        ))
    }

    /// A checker of `n` states with transitions `trans` whose labels are already terms of
    /// `rw`'s store (normal forms).
    fn from_terms(
        n: usize,
        trans: Vec<(u32, u32, u32)>,
        mut labels: Vec<Vec<LabelAction<'f>>>,
        rw: Rewriter<'s>,
        max_work: u64,
    ) -> Self {
        let mut values: HashMap<Sort, Vec<TermId>> = HashMap::new();
        for acts in &mut labels {
            for (_, sorts, args) in acts.iter() {
                for (s, t) in sorts.iter().zip(args) {
                    label_parts(&rw, *t, s, &mut |s, t| {
                        let vs = values.entry(s.clone()).or_default();
                        if !vs.contains(&t) {
                            vs.push(t);
                        }
                    });
                }
            }
            acts.sort();
        }
        Checker {
            n,
            trans,
            labels,
            values,
            rw,
            terms: HashMap::new(),
            rho: Vec::new(),
            done: HashMap::new(),
            open: HashMap::new(),
            matching: HashMap::new(),
            guards: HashMap::new(),
            solved: HashMap::new(),
            work: 0,
            max_work,
        }
    }

    /// The values quantified variable `v` ranges over: `bound` (the labels' values) where
    /// only those can matter, else both Booleans; any other sort is [`Unsupported`].
    fn range(&self, v: &Var, bound: Option<Vec<TermId>>) -> Option<(VarId, Vec<TermId>)> {
        let store = self.rw.store();
        let cands = match bound {
            Some(c) => c,
            None if v.sort == Sort::Bool => vec![store.true_term(), store.false_term()],
            None => return None,
        };
        Some((store.intern_var(v), cands))
    }

    /// Every value of `v`'s sort, when the enumerator finds at most [`MAX_VALUATIONS`] of
    /// them (a finite sort).
    fn all_values(&mut self, v: &Var) -> Option<(VarId, Vec<TermId>)> {
        let store = self.rw.store();
        let id = store.intern_var(v);
        let tt = store.true_term();
        let mut out = Vec::new();
        let mut open = false;
        self.rw
            .enumerator()
            .enumerate(&[id], tt, &mut |vs, residual| {
                open |= residual != tt;
                out.push(vs[0]);
                !open && out.len() <= MAX_VALUATIONS
            })
            .ok()?;
        (!open && out.len() <= MAX_VALUATIONS).then_some((id, out))
    }

    /// The values of the variables `vs` that satisfy the data guard of the quantifier `q`
    /// (`forall vs . body` when `forall`, else `exists`) under `env`: the conjunction of the
    /// body's data-only conjuncts for `exists`, the negated disjunction of its data-only
    /// disjuncts for `forall`; outside it the body is `false` (`exists`) or `true`
    /// (`forall`) in every state, so only its solutions matter (as `forall p: Nat .
    /// val(1 <= p && p <= 3) => φ`). [`Unsupported`] when there is no guard, when the
    /// enumerator cannot bound it, or when a solution leaves it undecided.
    fn guard_solutions(
        &mut self,
        q: &'f StateFormula,
        forall: bool,
        body: &'f StateFormula,
        vs: &[&Var],
        env: &Env,
    ) -> Result<Vec<Vec<TermId>>, Unsupported> {
        let unbound = || {
            Unsupported(format!(
                "a quantifier over `{}` that neither the labels nor a data guard bound",
                vs[0].name
            ))
        };
        let key = q as *const StateFormula as usize;
        let guard = match self.guards.get(&key) {
            Some(g) => *g,
            None => {
                let mut parts = Vec::new();
                data_parts(body, !forall, &mut parts);
                let g = if parts.is_empty() {
                    None
                } else if forall {
                    let any = parts.into_iter().cloned().reduce(ir_ops::or);
                    any.map(ir_ops::not)
                } else {
                    Some(ir_ops::and_all(parts.into_iter().cloned()))
                };
                let t = match g {
                    Some(g) => Some(self.rw.term(&g).map_err(|e| Unsupported(e.to_string()))?),
                    None => None,
                };
                self.guards.insert(key, t);
                t
            }
        };
        let guard = guard.ok_or_else(unbound)?;
        let sigma: Substitution = env.iter().copied().collect();
        let guard = self.rw.substitute(guard, &sigma);
        let ids: Vec<VarId> = vs.iter().map(|v| self.rw.store().intern_var(v)).collect();
        let store = self.rw.store();
        if ids.iter().any(|&v| !store.occurs_free(v, guard)) {
            return Err(unbound());
        }
        let tt = store.true_term();
        let mut found = Vec::new();
        let mut undecided = false;
        self.rw
            .enumerator()
            .enumerate(&ids, guard, &mut |vals, residual| {
                undecided |= residual != tt;
                found.push(vals.to_vec());
                !undecided && found.len() <= MAX_VALUATIONS
            })
            .map_err(|e| Unsupported(e.to_string()))?;
        if undecided {
            return Err(Unsupported(
                "a data guard the enumerator leaves undecided".to_string(),
            ));
        }
        if found.len() > MAX_VALUATIONS {
            return Err(Unsupported("too many quantifier valuations".to_string()));
        }
        self.work += found.len() as u64;
        Ok(found)
    }

    fn all(&self) -> States {
        bitvec![1; self.n]
    }

    fn none(&self) -> States {
        bitvec![0; self.n]
    }

    /// The normal form of `e` under `env`.
    fn value(&mut self, e: &DataExpr, env: &Env) -> Result<TermId, Unsupported> {
        let key = e as *const DataExpr as usize;
        let t = match self.terms.get(&key) {
            Some(t) => *t,
            None => {
                let t = self.rw.term(e).map_err(|e| Unsupported(e.to_string()))?;
                self.terms.insert(key, t);
                t
            }
        };
        self.rw
            .rewrite_with(t, env)
            .map_err(|e| Unsupported(e.to_string()))
    }

    /// `e` under `env` as a Boolean.
    fn truth(&mut self, e: &DataExpr, env: &Env) -> Result<bool, Unsupported> {
        let t = self.value(e, env)?;
        let store = self.rw.store();
        if t == store.true_term() {
            Ok(true)
        } else if t == store.false_term() {
            Ok(false)
        } else {
            Err(Unsupported(
                "a data expression that is not true or false".to_string(),
            ))
        }
    }

    /// The set of states satisfying `f` under `env`.
    fn eval(&mut self, f: &'f StateFormula, env: &mut Env) -> Result<States, Unsupported> {
        use StateFormula as S;
        self.work += self.n as u64 / 64 + 1;
        if self.work > self.max_work {
            return Err(Unsupported(
                "more work than instantiation would take".to_string(),
            ));
        }
        Ok(match f {
            S::True => self.all(),
            S::False => self.none(),
            S::Val(d) => {
                if self.truth(d, env)? {
                    self.all()
                } else {
                    self.none()
                }
            }
            S::And(a, b) => {
                let x = self.eval(a, env)?;
                if x.not_any() {
                    return Ok(x);
                }
                x & self.eval(b, env)?
            }
            S::Or(a, b) => {
                let x = self.eval(a, env)?;
                if x.all() {
                    return Ok(x);
                }
                x | self.eval(b, env)?
            }
            S::Must(r, a) | S::May(r, a) => {
                let RegFormula::Action(alpha) = r else {
                    return Err(Unsupported("a regular formula".to_string()));
                };
                let must = matches!(f, S::Must(..));
                let key = (
                    alpha as *const ActionFormula as usize,
                    env.iter().map(|(_, t)| *t).collect::<Vec<_>>(),
                );
                let matching = match self.matching.get(&key) {
                    Some(m) => m.clone(),
                    None => {
                        self.work += self.labels.len() as u64;
                        let mut m: BitVec = bitvec![0; self.labels.len()];
                        for l in 0..self.labels.len() {
                            if self.matches(alpha, l, env)? {
                                m.set(l, true);
                            }
                        }
                        self.matching.insert(key, m.clone());
                        m
                    }
                };
                if matching.not_any() {
                    return Ok(if must { self.all() } else { self.none() });
                }
                let target = self.eval(a, env)?;
                self.work += self.trans.len() as u64;
                let mut out = if must { self.all() } else { self.none() };
                for &(from, label, to) in &self.trans {
                    if matching[label as usize] && target[to as usize] != must {
                        out.set(from as usize, !must);
                    }
                }
                out
            }
            S::Forall(vs, a) | S::Exists(vs, a) => {
                let forall = matches!(f, S::Forall(..));
                let mut fv = Vec::new();
                formula_free_vars_into(a, &mut Vec::new(), &mut fv);
                let mut ranges: Vec<(VarId, Vec<TermId>)> = Vec::new();
                let mut guarded: Vec<&Var> = Vec::new();
                for v in vs.iter().filter(|v| fv.contains(v)) {
                    let rw = &mut self.rw;
                    let bound =
                        state_const_unless(a, v, forall, true, &mut |e, x| holds_var(rw, e, x))
                            .then(|| self.values.get(&v.sort).cloned().unwrap_or_default());
                    match self.range(v, bound) {
                        Some(r) => ranges.push(r),
                        None => guarded.push(v),
                    }
                }
                // The variables neither the labels nor `Bool` bound take the values that
                // satisfy the quantifier's data guard, if it has one.
                // Memoised by quantifier and valuation: a quantifier inside a fixpoint is
                // evaluated again on every iteration, with the same guard solutions.
                let solutions = if guarded.is_empty() {
                    Rc::new(vec![Vec::new()])
                } else {
                    let key = (
                        f as *const StateFormula as usize,
                        env.iter().map(|(_, t)| *t).collect::<Vec<_>>(),
                    );
                    match self.solved.get(&key) {
                        Some(found) => found.clone(),
                        None => {
                            let found = Rc::new(self.guard_solutions(f, forall, a, &guarded, env)?);
                            self.solved.insert(key, found.clone());
                            found
                        }
                    }
                };
                let count = ranges
                    .iter()
                    .try_fold(solutions.len(), |acc, (_, c)| acc.checked_mul(c.len()));
                if count.is_none_or(|c| c > MAX_VALUATIONS) {
                    return Err(Unsupported("too many quantifier valuations".to_string()));
                }
                let ids: Vec<VarId> = guarded
                    .iter()
                    .map(|v| self.rw.store().intern_var(v))
                    .collect();
                let mut acc = if forall { self.all() } else { self.none() };
                let done = |s: &States| if forall { s.not_any() } else { s.all() };
                for values in solutions.iter() {
                    let n = env.len();
                    env.extend(ids.iter().copied().zip(values.iter().copied()));
                    let r = for_each_valuation(&ranges, env, &mut |env| {
                        if done(&acc) {
                            return Ok(());
                        }
                        let x = self.eval(a, env)?;
                        if forall {
                            acc &= &x;
                        } else {
                            acc |= &x;
                        }
                        Ok(())
                    });
                    env.truncate(n);
                    r?;
                }
                acc
            }
            S::Mu(v, body) | S::Nu(v, body) => {
                if !v.params.is_empty() {
                    return Err(Unsupported(format!(
                        "fixpoint `{}` has data parameters",
                        v.name
                    )));
                }
                let key = f as *const StateFormula as usize;
                let open = match self.open.get(&key) {
                    Some(o) => *o,
                    None => {
                        let mut names = Vec::new();
                        free_fixpoint_vars(f, &mut Vec::new(), &mut names);
                        let o = !names.is_empty();
                        self.open.insert(key, o);
                        o
                    }
                };
                let memo = (!open).then(|| (key, env.iter().map(|(_, t)| *t).collect()));
                if let Some(hit) = memo.as_ref().and_then(|k| self.done.get(k)) {
                    return Ok(hit.clone());
                }
                let mu = matches!(f, S::Mu(..));
                let start = if mu { self.none() } else { self.all() };
                self.rho.push((v.name.as_ref(), start));
                let r = loop {
                    let next = match self.eval(body, env) {
                        Ok(x) => x,
                        Err(e) => break Err(e),
                    };
                    let cur = &mut self.rho.last_mut().expect("pushed above").1;
                    if next == *cur {
                        break Ok(next);
                    }
                    *cur = next;
                };
                self.rho.pop();
                let r = r?;
                if let Some(k) = memo {
                    self.done.insert(k, r.clone());
                }
                r
            }
            S::Var { name, args } => {
                if !args.is_empty() {
                    return Err(Unsupported(
                        "a fixpoint variable with arguments".to_string(),
                    ));
                }
                match self.rho.iter().rev().find(|(x, _)| *x == name.as_ref()) {
                    Some((_, s)) => s.clone(),
                    None => return Err(Unsupported(format!("unbound `{name}`"))),
                }
            }
            S::Not(_) | S::Imp(..) => {
                return Err(Unsupported(
                    "a formula not in positive normal form".to_string(),
                ))
            }
        })
    }

    /// Whether label `l` satisfies `alpha` under `env`.
    fn matches(
        &mut self,
        alpha: &'f ActionFormula,
        l: usize,
        env: &mut Env,
    ) -> Result<bool, Unsupported> {
        use ActionFormula as A;
        Ok(match alpha {
            A::True => true,
            A::False => false,
            A::Not(a) => !self.matches(a, l, env)?,
            A::And(a, b) => self.matches(a, l, env)? && self.matches(b, l, env)?,
            A::Or(a, b) => self.matches(a, l, env)? || self.matches(b, l, env)?,
            A::Imp(a, b) => !self.matches(a, l, env)? || self.matches(b, l, env)?,
            A::Val(d) => self.truth(d, env)?,
            A::MultiAction(acts) => {
                if acts.len() != self.labels[l].len() {
                    return Ok(false);
                }
                let mut mine: Vec<LabelAction<'f>> = Vec::with_capacity(acts.len());
                for a in acts {
                    let mut args = Vec::with_capacity(a.args.len());
                    for e in &a.args {
                        args.push(self.value(e, env)?);
                    }
                    mine.push((a.name.as_ref(), a.sorts.as_slice(), args));
                }
                mine.sort();
                mine == self.labels[l]
            }
            A::Forall(vs, a) | A::Exists(vs, a) => {
                let forall = matches!(alpha, A::Forall(..));
                let mut ranges: Vec<(VarId, Vec<TermId>)> = Vec::new();
                for v in vs {
                    let rw = &mut self.rw;
                    let bound = action_const_unless(a, v, forall, &mut |e, x| holds_var(rw, e, x))
                        .then(|| {
                            // The values of v's sort in this label, also below constructors.
                            let mut c: Vec<TermId> = Vec::new();
                            for (_, sorts, args) in &self.labels[l] {
                                for (s, t) in sorts.iter().zip(args) {
                                    label_parts(&self.rw, *t, s, &mut |s, t| {
                                        if *s == v.sort && !c.contains(&t) {
                                            c.push(t);
                                        }
                                    });
                                }
                            }
                            c
                        });
                    // Else every value of a sort with few enough of them (`forall v: E .
                    // a(v)` over a finite `E`).
                    let r = match self.range(v, bound) {
                        Some(r) => Some(r),
                        None => self.all_values(v),
                    };
                    ranges.push(r.ok_or_else(|| {
                        Unsupported(format!(
                            "a quantifier over `{}` that the label does not bind",
                            v.name
                        ))
                    })?);
                }
                let mut acc = forall;
                for_each_valuation(&ranges, env, &mut |env| {
                    if acc != forall {
                        return Ok(());
                    }
                    acc = self.matches(a, l, env)?;
                    Ok(())
                })?;
                acc
            }
        })
    }
}

/// Calls `f` with `env` extended by every combination of the `ranges`' values (none when a
/// range is empty), at most [`MAX_VALUATIONS`] of them.
fn for_each_valuation(
    ranges: &[(VarId, Vec<TermId>)],
    env: &mut Env,
    f: &mut dyn FnMut(&mut Env) -> Result<(), Unsupported>,
) -> Result<(), Unsupported> {
    let count = ranges
        .iter()
        .try_fold(1usize, |acc, (_, c)| acc.checked_mul(c.len()));
    if count.is_none_or(|c| c > MAX_VALUATIONS) {
        return Err(Unsupported("too many quantifier valuations".to_string()));
    }
    fn go(
        ranges: &[(VarId, Vec<TermId>)],
        env: &mut Env,
        f: &mut dyn FnMut(&mut Env) -> Result<(), Unsupported>,
    ) -> Result<(), Unsupported> {
        let Some(((v, cands), rest)) = ranges.split_first() else {
            return f(env);
        };
        for &t in cands {
            env.push((*v, t));
            let r = go(rest, env, f);
            env.pop();
            r?;
        }
        Ok(())
    }
    go(ranges, env, f)
}

/// Whether `alpha` is `!positive` on every multi-action none of whose arguments holds the
/// value of `x` (`holds`: as itself, or below free constructors as in `data(x)`): some
/// conjunct (in the polarity `positive`) is a multi-action with such an argument.
fn action_fails_unless(
    alpha: &ActionFormula,
    x: &Var,
    positive: bool,
    holds: &mut dyn FnMut(&DataExpr, &Var) -> bool,
) -> bool {
    use ActionFormula as A;
    match alpha {
        A::MultiAction(acts) => positive && acts.iter().any(|a| a.args.iter().any(|e| holds(e, x))),
        A::Not(a) => action_fails_unless(a, x, !positive, holds),
        A::And(a, b) | A::Or(a, b) | A::Imp(a, b) => {
            // In the polarity `positive`: a conjunction fails when either part does, a
            // disjunction when both do (`a => b` is `!a || b`).
            let conj = matches!(alpha, A::And(..)) == positive;
            let pa = if matches!(alpha, A::Imp(..)) {
                !positive
            } else {
                positive
            };
            let fa = action_fails_unless(a, x, pa, holds);
            if conj && fa {
                return true;
            }
            if !conj && !fa {
                return false;
            }
            action_fails_unless(b, x, positive, holds)
        }
        A::Forall(vs, a) | A::Exists(vs, a) => {
            !vs.iter().any(|v| v.name == x.name) && action_fails_unless(a, x, positive, holds)
        }
        A::True | A::False | A::Val(_) => false,
    }
}

/// Whether the value of `e` holds the value of `x` as a subterm whatever `x` is: the
/// normal form of `e` with `x` free is `x`, or a free constructor applied to arguments one
/// of which holds it (`data(x)`; `AssocReq(x)` whose equation gives `signal(req(x))`). A
/// term the rewriter cannot take holds nothing.
pub fn holds_var(rw: &mut Rewriter<'_>, e: &DataExpr, x: &Var) -> bool {
    if let DataExpr::Var(v) = e {
        return v == x;
    }
    if !crate::data::ir_ops::free_vars(e).contains(x) {
        return false;
    }
    let Ok(t) = rw.term(e) else {
        return false;
    };
    let Ok(nf) = rw.rewrite(t) else {
        return false;
    };
    let store = rw.store();
    let xt = store.var(store.intern_var(x));
    fn below(rw: &Rewriter<'_>, t: TermId, xt: TermId) -> bool {
        t == xt
            || rw.store().as_func_app(t).is_some_and(|(h, args)| {
                rw.is_free_constructor(h) && args.iter().any(|&a| below(rw, a, xt))
            })
    }
    below(rw, nf, xt)
}

/// Calls `out` with `t` (of sort `sort`) and, below free constructors, with each argument
/// and its sort, recursively: the values a quantifier may bind through a label argument
/// such as `data(d)` ([`holds_var`]).
pub fn label_parts(rw: &Rewriter<'_>, t: TermId, sort: &Sort, out: &mut dyn FnMut(&Sort, TermId)) {
    out(sort, t);
    let store = rw.store();
    if let Some((h, args)) = store.as_func_app(t) {
        if rw.is_free_constructor(h) {
            for &a in args {
                label_parts(rw, a, &store.sort_of(a), out);
            }
        }
    }
}

/// Whether `alpha` is `value` on every multi-action none of whose arguments holds `x`'s
/// value (whatever the other variables are), so a quantifier over `x` (`forall` when
/// `value`) needs only the label's values.
fn action_const_unless(
    alpha: &ActionFormula,
    x: &Var,
    value: bool,
    holds: &mut dyn FnMut(&DataExpr, &Var) -> bool,
) -> bool {
    action_fails_unless(alpha, x, !value, holds)
}

/// Whether `f` holds in no state or every state (`value`) whenever no label argument holds
/// `x`'s value (as itself or below free constructors, `holds`: [`holds_var`]), whatever
/// the other data variables and the fixpoint variables are. With `past_modalities` the labels are those of every transition (the
/// re-check's view, over the whole LTS), so a modality's body may make `f` constant too;
/// without, they are those of a state's own transitions (the product game's view), and a
/// modality's body, which is about other states, never does.
pub fn state_const_unless(
    f: &StateFormula,
    x: &Var,
    value: bool,
    past_modalities: bool,
    holds: &mut dyn FnMut(&DataExpr, &Var) -> bool,
) -> bool {
    use StateFormula as S;
    macro_rules! rec {
        ($a:expr, $v:expr) => {
            state_const_unless($a, x, $v, past_modalities, &mut *holds)
        };
    }
    match f {
        S::True => value,
        S::False => !value,
        S::Must(RegFormula::Action(alpha), a) => {
            value
                && (action_fails_unless(alpha, x, true, holds)
                    || (past_modalities && rec!(a, true)))
        }
        S::May(RegFormula::Action(alpha), a) => {
            !value
                && (action_fails_unless(alpha, x, true, holds)
                    || (past_modalities && rec!(a, false)))
        }
        S::And(a, b) if value => rec!(a, true) && rec!(b, true),
        S::And(a, b) => rec!(a, false) || rec!(b, false),
        S::Or(a, b) if value => rec!(a, true) || rec!(b, true),
        S::Or(a, b) => rec!(a, false) && rec!(b, false),
        S::Forall(vs, a) | S::Exists(vs, a) => {
            !vs.iter().any(|v| v.name == x.name) && rec!(a, value)
        }
        // The body at this same state; an occurrence of a fixpoint variable is `_` below.
        S::Mu(_, a) | S::Nu(_, a) => rec!(a, value),
        _ => false,
    }
}

/// The data-only operands `val(d)` of `f`'s conjunction (`conj`) or disjunction, through
/// nested ones of the same kind.
pub fn data_parts<'f>(f: &'f StateFormula, conj: bool, out: &mut Vec<&'f DataExpr>) {
    match f {
        StateFormula::And(a, b) if conj => {
            data_parts(a, conj, out);
            data_parts(b, conj, out);
        }
        StateFormula::Or(a, b) if !conj => {
            data_parts(a, conj, out);
            data_parts(b, conj, out);
        }
        StateFormula::Val(d) => out.push(d),
        _ => {}
    }
}

/// The fixpoint variables free in `f` (`bound` holds those bound around it).
fn free_fixpoint_vars<'f>(f: &'f StateFormula, bound: &mut Vec<&'f str>, out: &mut Vec<&'f str>) {
    use StateFormula as S;
    match f {
        S::Mu(v, a) | S::Nu(v, a) => {
            bound.push(v.name.as_ref());
            free_fixpoint_vars(a, bound, out);
            bound.pop();
        }
        S::Var { name, .. } => {
            if !bound.contains(&name.as_ref()) && !out.contains(&name.as_ref()) {
                out.push(name.as_ref());
            }
        }
        S::Not(a) | S::Forall(_, a) | S::Exists(_, a) | S::Must(_, a) | S::May(_, a) => {
            free_fixpoint_vars(a, bound, out)
        }
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => {
            free_fixpoint_vars(a, bound, out);
            free_fixpoint_vars(b, bound, out);
        }
        S::True | S::False | S::Val(_) => {}
    }
}
