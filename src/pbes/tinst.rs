//! The fast instantiation engine: the same algorithm as [`super::inst`] (see its module
//! docs), but on the data engine's hash-consed terms. Right-hand sides are converted to
//! terms once per equation; an instance is a `TermId` vector, rewritten under a substitution
//! of the equation's parameters without building intermediate expressions, and instances
//! are looked up by their ids. This is what `pbesinst`, `pbes2bool`, `pbessolve` and `check`
//! use.
//!
//! Beyond [`super::inst`], quantifiers are also eliminated by distribution (`exists x.
//! (x == t1 || x == t2) && φ` into one-point branches, and the dual for `forall`), by guards
//! taken from every data-only part of the body in negation normal form, and, for data-only
//! bodies over unbounded numbers, by instances in order with an early stop. A data term
//! that does not rewrite to a Boolean (a partial function outside its domain) is an error
//! only when the other operand of its junction, or another instance of its quantifier,
//! does not decide the result.
//!
//! The part of eliminating a quantifier that depends on the quantifier alone (which bound
//! variables occur, the structural case, the one-point substitution, the distribution
//! branches, the guard) is computed once per quantifier node and reused by every instance
//! (`QPlan`); only the evaluation under the instance's values is redone.

use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Instant;

use num_bigint::BigInt;
use num_traits::Signed;
use rustc_hash::FxHashMap;

use crate::data::ir::{DataExpr, Func, Sort, Var};
use crate::data::ir_ops::default_value;
use crate::data::{NumSort, Rewriter, Substitution, Term, TermId, VarId};
use crate::pbes::graph::{b_and, b_or, Graph, B};
use crate::pbes::inst::{
    enumerate_sort, show_sort, InstError, InstOptions, InstStats, Instantiation, Justification,
    VarOrigin,
};
use crate::pbes::ir::{Pbes, PbesExpr};

/// A right-hand side over terms.
#[derive(Clone, Debug)]
enum T {
    True,
    False,
    Data(TermId),
    Not(Box<T>),
    And(Box<T>, Box<T>),
    Or(Box<T>, Box<T>),
    Imp(Box<T>, Box<T>),
    Forall(Vec<VarId>, Box<T>),
    Exists(Vec<VarId>, Box<T>),
    Prop(u32, Vec<TermId>),
}

struct Eng<'a> {
    pbes: &'a Pbes,
    rw: Rewriter,
    opts: &'a InstOptions,
    rank: Vec<u32>,
    rhs: Vec<T>,
    params: Vec<Vec<VarId>>,
    globals: Vec<(VarId, TermId)>,
    /// BES variable per instance key `[equation, argument ids…]`; looked up by slice so a
    /// known instance costs no allocation, and the key is shared with `inst`.
    ids: FxHashMap<Rc<[u32]>, u32>,
    /// Per BES variable: its instance key (`None` for auxiliary variables).
    inst: Vec<Option<Rc<[u32]>>>,
    /// Scratch for instance keys and argument values.
    key_buf: Vec<u32>,
    vals_buf: Vec<TermId>,
    g: Graph,
    queue: VecDeque<u32>,
    enum_cache: FxHashMap<Sort, Result<Vec<TermId>, String>>,
    current: u32,
    /// Free variables per term, indexed by [`TermId`] (`(u32::MAX, _)` = not computed yet):
    /// rewriting binds only those.
    fv_cache: Vec<(u32, u32)>,
    fv_arena: Vec<VarId>,
    /// Scratch substitution for [`Eng::rewrite`].
    small: Vec<(VarId, TermId)>,
    /// Normal forms of closed terms.
    closed_cache: FxHashMap<TermId, TermId>,
    /// Normal forms of open terms, keyed by `[term, value of each free variable]`
    /// (`u32::MAX` for an unbound one): a condition or next-state expression reads few
    /// parameters, whose values recur across many instances (see [`Eng::rewrite`]).
    memo: FxHashMap<Box<[u32]>, TermId>,
    /// Words held by `memo` keys (for the [`MEMO_WORDS`] bound).
    memo_words: usize,
    memo_key: Vec<u32>,
    /// Values of the globals and the current instance's parameters, by variable index
    /// (`u32::MAX` = unbound), and how many entries of the substitution they cover.
    dense: Vec<TermId>,
    base: usize,
    tt: TermId,
    ff: TermId,
    and_f: crate::data::FuncId,
    or_f: crate::data::FuncId,
    not_f: crate::data::FuncId,
    /// Symbolic plans of quantifiers, keyed by the address of the body node and the
    /// quantifier kind, then by the bound variables (see [`QPlan`]). Every body passed to
    /// [`Eng::quantifier`] is a node of a right-hand side or of a plan, and neither is freed
    /// while instantiating (this map is never cleared), so an address names one node.
    plans: FxHashMap<(usize, bool), Vec<PlanEntry>>,
}

/// A quantifier's bound variables and its plan.
type PlanEntry = (Vec<VarId>, Rc<QPlan>);

/// The part of eliminating `forall vs. body` (or `exists`) that depends on the quantifier
/// alone, not on the instance's data values: done once per quantifier node instead of once
/// per BES variable.
struct QPlan {
    /// The variables of `vs` that occur in the body.
    vs: Vec<VarId>,
    /// The variables of a directly nested quantifier of the same kind, merged in.
    merged: Vec<VarId>,
    /// For `forall x. a || b` (`exists x. a && b`): whether `a` is the side without `vs`
    /// (`Some(true)`), `b` (`Some(false)`), or both mention them (`None`).
    outside_a: Option<bool>,
    /// For `forall x. a => b`: whether `a` mentions none of `vs`.
    imp_outside: bool,
    /// The one-point rule: the remaining variables and the substituted body.
    one_point: Option<(Vec<VarId>, Box<T>)>,
    /// Quantifier distribution (see [`Eng::distribute`]).
    dist: Option<Vec<Branch>>,
    /// The guard (already negated for `forall`) and the rest (see [`Eng::guarded`]).
    guard: Option<(TermId, Box<T>)>,
    /// The body as a data term, when it has no propositional variables or quantifiers.
    term: Option<TermId>,
}

/// One branch of a distributed quantifier: its variables, the data parts of its core that
/// decide it cheaply, and its body.
struct Branch {
    all: Vec<VarId>,
    checks: Vec<T>,
    body: Box<T>,
}

/// Bound on the key words of [`Eng::rewrite`]'s memo before it is cleared (16 Mi words,
/// about 64 MiB of keys plus the table).
const MEMO_WORDS: usize = 16 << 20;

/// Whether `x` decides a conjunction (`false`) or a disjunction (`true`) on its own.
fn decides(x: &B, conj: bool) -> bool {
    matches!((x, conj), (B::F, true) | (B::T, false))
}

/// Whether `e` is a data term that did not rewrite to `true` or `false`: harmless where the
/// other operand of a junction decides it.
fn is_stuck(e: &InstError) -> bool {
    matches!(e, InstError::Undecided { .. })
}

/// The running value of a quantifier over its instances: the conjunction (`forall`) or
/// disjunction of the instances so far, and the first stuck instance, which is an error
/// only if no later instance decides the quantifier.
struct Acc {
    forall: bool,
    value: B,
    stuck: Option<InstError>,
}

impl Acc {
    fn new(forall: bool) -> Acc {
        Acc {
            forall,
            value: if forall { B::T } else { B::F },
            stuck: None,
        }
    }

    /// Adds an instance; `Ok(true)` when the quantifier is decided.
    fn add(&mut self, r: Result<B, InstError>) -> Result<bool, InstError> {
        match r {
            Ok(x) => {
                let v = std::mem::replace(&mut self.value, B::T);
                self.value = if self.forall { b_and(v, x) } else { b_or(v, x) };
            }
            Err(e) if is_stuck(&e) => {
                if self.stuck.is_none() {
                    self.stuck = Some(e);
                }
            }
            Err(e) => return Err(e),
        }
        Ok(decides(&self.value, self.forall))
    }

    /// Whether the value is decided.
    fn decided(&self) -> bool {
        decides(&self.value, self.forall)
    }

    fn finish(self) -> Result<B, InstError> {
        match self.stuck {
            Some(e) if !self.decided() => Err(e),
            _ => Ok(self.value),
        }
    }
}

/// Instances tried by [`Eng::lazy_term`] for one quantifier before giving up.
const LAZY_BUDGET: usize = 10_000;

fn bool_func(name: &str, arity: usize) -> Func {
    Func {
        name: name.into(),
        sort: Sort::Arrow(vec![Sort::Bool; arity], Box::new(Sort::Bool)),
    }
}

/// Instantiates `pbes` on terms (see the module docs). Fails with a clear error when the
/// data engine cannot handle the PBES's data specification.
pub fn instantiate_terms(pbes: &Pbes, opts: &InstOptions) -> Result<Instantiation, InstError> {
    let started = Instant::now();
    let rw = Rewriter::new(&pbes.data).map_err(|e| InstError::Data(e.to_string()))?;
    let store = rw.store();
    let mut eng = Eng {
        pbes,
        opts,
        rank: crate::pbes::inst::equation_ranks(pbes),
        rhs: Vec::new(),
        params: Vec::new(),
        globals: Vec::new(),
        ids: FxHashMap::default(),
        inst: Vec::new(),
        key_buf: Vec::new(),
        vals_buf: Vec::new(),
        g: Graph::new(opts.max_vars),
        queue: VecDeque::new(),
        enum_cache: FxHashMap::default(),
        current: 0,
        fv_cache: Vec::new(),
        fv_arena: Vec::new(),
        small: Vec::new(),
        closed_cache: FxHashMap::default(),
        memo: FxHashMap::default(),
        memo_words: 0,
        memo_key: Vec::new(),
        dense: Vec::new(),
        base: 0,
        tt: store.true_term(),
        ff: store.false_term(),
        and_f: store.intern_func(&bool_func("&&", 2)),
        or_f: store.intern_func(&bool_func("||", 2)),
        not_f: store.intern_func(&bool_func("!", 1)),
        plans: FxHashMap::default(),
        rw,
    };
    let index: FxHashMap<&str, u32> = pbes
        .equations
        .iter()
        .enumerate()
        .map(|(i, e)| (&*e.var.name, i as u32))
        .collect();
    for g in &pbes.globals {
        let v =
            default_value(&g.sort, &pbes.data).ok_or_else(|| InstError::Global(g.name.clone()))?;
        let id = eng.rw.store().intern_var(g);
        let t = eng.term(&v)?;
        eng.globals.push((id, t));
    }
    for e in &pbes.equations {
        let t = eng.compile(&e.rhs, &index)?;
        eng.rhs.push(t);
        let ps = e
            .var
            .params
            .iter()
            .map(|p| eng.rw.store().intern_var(p))
            .collect();
        eng.params.push(ps);
    }
    let init_eq = *index
        .get(&*pbes.init.name)
        .ok_or_else(|| InstError::UnknownVariable(pbes.init.name.clone()))?;
    let mut args = Vec::new();
    for a in &pbes.init.args {
        let t = eng.term(a)?;
        let globals = eng.globals.clone();
        let r = eng.rewrite(t, &globals)?;
        args.push(r);
    }
    let init = eng.var_of(init_eq, &args)?;
    while let Some(x) = eng.queue.pop_front() {
        if opts.stop_when_decided && eng.g.value[init as usize].is_some() {
            break;
        }
        eng.expand(x)?;
    }
    let decided = eng.g.value[init as usize];
    let complete = eng.queue.is_empty() && eng.g.is_complete();
    let bes = if complete {
        let name = |i: usize| match &eng.inst[i] {
            Some(key) => format!("{}_{i}", pbes.equations[key[0] as usize].var.name),
            None => format!("aux_{i}"),
        };
        Some(eng.g.build(init, &name)?)
    } else {
        None
    };
    let origin = if opts.keep_origins {
        eng.inst
            .iter()
            .map(|o| {
                o.as_ref().map(|key| VarOrigin {
                    equation: key[0],
                    args: key[1..].iter().map(|t| eng.rw.expr(TermId(*t))).collect(),
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let stats = InstStats {
        instances: eng.inst.len() - eng.g.aux_count,
        auxiliary: eng.g.aux_count,
        decided: eng.g.decided_count,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok(Instantiation {
        bes,
        decided,
        origin,
        justification: (opts.keep_origins && decided.is_some())
            .then(|| Justification::new(init, eng.g.justification())),
        value: std::mem::take(&mut eng.g.value),
        stats,
    })
}

impl Eng<'_> {
    fn eq_name(&self) -> crate::source::Name {
        self.pbes.equations[self.current as usize].var.name.clone()
    }

    fn term(&self, e: &DataExpr) -> Result<TermId, InstError> {
        self.rw
            .term(e)
            .map_err(|err| InstError::Data(err.to_string()))
    }

    /// The value of `v` under `sigma`: its first `base` entries (globals and parameters) are
    /// also in the dense table, later ones (quantifier values) are searched.
    fn lookup(&self, v: VarId, sigma: &[(VarId, TermId)]) -> Option<TermId> {
        if let Some((_, t)) = sigma[self.base.min(sigma.len())..]
            .iter()
            .rev()
            .find(|(x, _)| *x == v)
        {
            return Some(*t);
        }
        match self.dense.get(v.0 as usize) {
            Some(t) if t.0 != u32::MAX => Some(*t),
            _ => None,
        }
    }

    /// The normal form of `t` under `sigma` (whose terms are normal forms). Only the
    /// variables that occur in `t` are bound (an LPS has many parameters, a condition or
    /// next-state expression mentions few), a variable is looked up without rewriting, and
    /// closed terms are rewritten once. Open terms are memoised by the values of their free
    /// variables: the normal form is a function of the term and those values alone, and the
    /// same local values recur in many instances.
    fn rewrite(&mut self, t: TermId, sigma: &[(VarId, TermId)]) -> Result<TermId, InstError> {
        let store = self.rw.store();
        if let Term::Var(v) = store.get(t) {
            if let Some(val) = self.lookup(*v, sigma) {
                return Ok(val);
            }
        }
        let ti = t.0 as usize;
        let (start, len) = match self.fv_cache.get(ti) {
            Some(&r) if r.0 != u32::MAX => r,
            _ => {
                let fv = store.free_vars(t);
                let r = (self.fv_arena.len() as u32, fv.len() as u32);
                self.fv_arena.extend(fv);
                if ti >= self.fv_cache.len() {
                    self.fv_cache.resize(ti + 1024, (u32::MAX, 0));
                }
                self.fv_cache[ti] = r;
                r
            }
        };
        if len == 0 {
            if let Some(&r) = self.closed_cache.get(&t) {
                return Ok(r);
            }
        }
        let mut small = std::mem::take(&mut self.small);
        small.clear();
        let mut key = std::mem::take(&mut self.memo_key);
        key.clear();
        key.push(t.0);
        for k in start..start + len {
            let v = self.fv_arena[k as usize];
            match self.lookup(v, sigma) {
                Some(val) => {
                    small.push((v, val));
                    key.push(val.0);
                }
                None => key.push(u32::MAX),
            }
        }
        if len > 0 {
            if let Some(&r) = self.memo.get(key.as_slice()) {
                self.small = small;
                self.memo_key = key;
                return Ok(r);
            }
        }
        let r = self.rw.rewrite_with(t, &small);
        self.small = small;
        let r = r.map_err(|err| InstError::Data(err.to_string()));
        if let Ok(r) = r {
            if len == 0 {
                self.closed_cache.insert(t, r);
            } else {
                if self.memo_words + key.len() > MEMO_WORDS {
                    self.memo.clear();
                    self.memo_words = 0;
                }
                self.memo_words += key.len();
                self.memo.insert(key.as_slice().into(), r);
            }
        }
        self.memo_key = key;
        r
    }

    fn compile(&self, e: &PbesExpr, index: &FxHashMap<&str, u32>) -> Result<T, InstError> {
        let b = |x: &PbesExpr| self.compile(x, index).map(Box::new);
        Ok(match e {
            PbesExpr::True => T::True,
            PbesExpr::False => T::False,
            PbesExpr::Data(d) => {
                let t = self.term(d)?;
                if t == self.tt {
                    T::True
                } else if t == self.ff {
                    T::False
                } else {
                    T::Data(t)
                }
            }
            PbesExpr::Not(a) => T::Not(b(a)?),
            PbesExpr::And(x, y) => T::And(b(x)?, b(y)?),
            PbesExpr::Or(x, y) => T::Or(b(x)?, b(y)?),
            PbesExpr::Imp(x, y) => T::Imp(b(x)?, b(y)?),
            PbesExpr::Forall(vs, a) | PbesExpr::Exists(vs, a) => {
                let ids = vs.iter().map(|v| self.rw.store().intern_var(v)).collect();
                if matches!(e, PbesExpr::Forall(..)) {
                    T::Forall(ids, b(a)?)
                } else {
                    T::Exists(ids, b(a)?)
                }
            }
            PbesExpr::PropVar(x) => {
                let eq = *index
                    .get(&*x.name)
                    .ok_or_else(|| InstError::UnknownVariable(x.name.clone()))?;
                if self.pbes.equations[eq as usize].var.params.len() != x.args.len() {
                    return Err(InstError::UnknownVariable(x.name.clone()));
                }
                let args = x
                    .args
                    .iter()
                    .map(|a| self.term(a))
                    .collect::<Result<_, _>>()?;
                T::Prop(eq, args)
            }
        })
    }

    fn var_of(&mut self, eq: u32, args: &[TermId]) -> Result<u32, InstError> {
        let mut key = std::mem::take(&mut self.key_buf);
        key.clear();
        key.push(eq);
        key.extend(args.iter().map(|t| t.0));
        if let Some(&id) = self.ids.get(key.as_slice()) {
            self.key_buf = key;
            return Ok(id);
        }
        let id = self.g.new_var(self.rank[eq as usize]);
        if let Ok(id) = id {
            let shared: Rc<[u32]> = key.as_slice().into();
            self.inst.push(Some(shared.clone()));
            self.ids.insert(shared, id);
            self.queue.push_back(id);
        }
        self.key_buf = key;
        id
    }

    fn expand(&mut self, x: u32) -> Result<(), InstError> {
        let Some(key) = self.inst[x as usize].clone() else {
            return Ok(());
        };
        let eq = key[0];
        self.current = eq;
        let mut sigma = self.globals.clone();
        sigma.extend(
            self.params[eq as usize]
                .iter()
                .copied()
                .zip(key[1..].iter().map(|t| TermId(*t))),
        );
        for (v, t) in &sigma {
            let i = v.0 as usize;
            if i >= self.dense.len() {
                self.dense.resize(i + 1, TermId(u32::MAX));
            }
            self.dense[i] = *t;
        }
        self.base = sigma.len();
        // The right-hand side is borrowed from `self` while evaluating; take it out.
        let rhs = std::mem::replace(&mut self.rhs[eq as usize], T::True);
        let r = self.eval(&rhs, &mut sigma, true);
        self.rhs[eq as usize] = rhs;
        for (v, _) in &sigma[..self.base] {
            self.dense[v.0 as usize] = TermId(u32::MAX);
        }
        self.base = 0;
        let b = r?;
        let inst = &mut self.inst;
        self.g.define(x, b, &mut |_| inst.push(None))
    }

    fn eval(
        &mut self,
        e: &T,
        sigma: &mut Vec<(VarId, TermId)>,
        positive: bool,
    ) -> Result<B, InstError> {
        Ok(match e {
            T::True => B::T,
            T::False => B::F,
            T::Data(t) => {
                let r = self.rewrite(*t, sigma)?;
                if r == self.tt {
                    B::T
                } else if r == self.ff {
                    B::F
                } else {
                    return Err(InstError::Undecided {
                        equation: self.eq_name(),
                        expr: self.rw.show(r),
                    });
                }
            }
            T::Not(a) => match self.eval(a, sigma, false)? {
                B::T => B::F,
                B::F => B::T,
                _ => return Err(InstError::NotPositive(self.eq_name())),
            },
            T::And(a, b) => {
                let x = self.eval(a, sigma, positive);
                return self.join(true, x, |eng| eng.eval(b, sigma, positive));
            }
            T::Or(a, b) => {
                let x = self.eval(a, sigma, positive);
                return self.join(false, x, |eng| eng.eval(b, sigma, positive));
            }
            T::Imp(a, b) => match self.eval(a, sigma, false) {
                Ok(B::F) => B::T,
                Ok(B::T) => self.eval(b, sigma, positive)?,
                Ok(_) => return Err(InstError::NotPositive(self.eq_name())),
                // A stuck premise is harmless when the conclusion is true.
                Err(e) if is_stuck(&e) => match self.eval(b, sigma, positive) {
                    Ok(B::T) => B::T,
                    _ => return Err(e),
                },
                Err(e) => return Err(e),
            },
            T::Forall(vs, a) => self.quantifier(true, vs, a, sigma, positive)?,
            T::Exists(vs, a) => self.quantifier(false, vs, a, sigma, positive)?,
            T::Prop(eq, args) => {
                if !positive {
                    return Err(InstError::NotPositive(self.eq_name()));
                }
                // Argument rewriting never re-enters `eval`, so one scratch buffer serves.
                let mut vals = std::mem::take(&mut self.vals_buf);
                vals.clear();
                for a in args {
                    let r = self.rewrite(*a, sigma)?;
                    if !self.rw.store().is_closed(r) {
                        return Err(InstError::OpenArgument {
                            equation: self.eq_name(),
                            target: self.pbes.equations[*eq as usize].var.name.clone(),
                            expr: self.rw.show(r),
                        });
                    }
                    vals.push(r);
                }
                let id = self.var_of(*eq, &vals);
                self.vals_buf = vals;
                let id = id?;
                // A decided variable becomes its constant, except when origins are kept
                // for evidence: then its vertex stays, so the proof keeps every step.
                match self.g.value[id as usize] {
                    Some(true) if !self.opts.keep_origins => B::T,
                    Some(false) if !self.opts.keep_origins => B::F,
                    _ => B::V(id),
                }
            }
        })
    }

    /// `first && second` (`conj`) or `first || second`, evaluating `second` only when
    /// `first` does not decide. A stuck data term (a partial function outside its domain,
    /// as mCRL2's `Int2Pos(0)`) in `first` is harmless when `second` decides the junction
    /// (`stuck && false == false`), as in mCRL2's simplifying rewriter; otherwise its error
    /// stands.
    fn join(
        &mut self,
        conj: bool,
        first: Result<B, InstError>,
        second: impl FnOnce(&mut Self) -> Result<B, InstError>,
    ) -> Result<B, InstError> {
        match first {
            Ok(x) if decides(&x, conj) => Ok(x),
            Ok(x) => {
                let y = second(self)?;
                Ok(if conj { b_and(x, y) } else { b_or(x, y) })
            }
            Err(e) if is_stuck(&e) => match second(self) {
                Ok(y) if decides(&y, conj) => Ok(y),
                _ => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    /// The free variables of `e` among `vs`.
    fn mentions(&self, e: &T, vs: &[VarId]) -> bool {
        let store = self.rw.store();
        match e {
            T::True | T::False => false,
            T::Data(t) => vs.iter().any(|v| store.occurs_free(*v, *t)),
            T::Not(a) => self.mentions(a, vs),
            T::And(a, b) | T::Or(a, b) | T::Imp(a, b) => {
                self.mentions(a, vs) || self.mentions(b, vs)
            }
            T::Forall(bound, a) | T::Exists(bound, a) => {
                let inner: Vec<VarId> = vs.iter().filter(|v| !bound.contains(v)).copied().collect();
                !inner.is_empty() && self.mentions(a, &inner)
            }
            T::Prop(_, args) => args
                .iter()
                .any(|t| vs.iter().any(|v| store.occurs_free(*v, *t))),
        }
    }

    /// The plan of `forall vs. body` (`exists`), computed on first use (see [`QPlan`]).
    fn plan(&mut self, forall: bool, vs: &[VarId], body: &T) -> Rc<QPlan> {
        let key = (body as *const T as usize, forall);
        if let Some(list) = self.plans.get(&key) {
            if let Some((_, p)) = list.iter().find(|(k, _)| k.as_slice() == vs) {
                return p.clone();
            }
        }
        let p = Rc::new(self.make_plan(forall, vs, body));
        self.plans
            .entry(key)
            .or_default()
            .push((vs.to_vec(), p.clone()));
        p
    }

    fn make_plan(&mut self, forall: bool, vs: &[VarId], body: &T) -> QPlan {
        let vs: Vec<VarId> = vs
            .iter()
            .filter(|v| self.mentions(body, std::slice::from_ref(v)))
            .copied()
            .collect();
        let mut plan = QPlan {
            vs: Vec::new(),
            merged: Vec::new(),
            outside_a: None,
            imp_outside: false,
            one_point: None,
            dist: None,
            guard: None,
            term: None,
        };
        if vs.is_empty() {
            return plan;
        }
        // The structural cases of `quantifier`, in its order: when one applies, the later
        // parts are never used.
        match (body, forall) {
            (T::Forall(inner, _), true) | (T::Exists(inner, _), false) => {
                let mut all = vs.clone();
                all.extend(inner.iter().filter(|v| !vs.contains(v)));
                plan.merged = all;
                plan.vs = vs;
                return plan;
            }
            (T::And(..), true) | (T::Or(..), false) => {
                plan.vs = vs;
                return plan;
            }
            (T::Or(a, b), true) | (T::And(a, b), false) => {
                if !self.mentions(a, &vs) {
                    plan.outside_a = Some(true);
                } else if !self.mentions(b, &vs) {
                    plan.outside_a = Some(false);
                }
                if plan.outside_a.is_some() {
                    plan.vs = vs;
                    return plan;
                }
            }
            (T::Imp(a, _), true) if !self.mentions(a, &vs) => {
                plan.imp_outside = true;
                plan.vs = vs;
                return plan;
            }
            _ => {}
        }
        // One-point rule, symbolically.
        for (i, x) in vs.iter().enumerate() {
            if let Some(t) = self.one_point(forall, *x, body) {
                let store = self.rw.store();
                if store.occurs_free(*x, t) {
                    continue;
                }
                let tv = store.free_vars(t);
                if self.binds_any(body, &tv) {
                    continue; // substituting would capture
                }
                let mut one = Substitution::default();
                one.insert(*x, t);
                let nb = self.subst(body, &one);
                let mut rest = vs.clone();
                rest.remove(i);
                plan.one_point = Some((rest, Box::new(nb)));
                plan.vs = vs;
                return plan;
            }
        }
        plan.dist = self.distribute_plan(forall, &vs, body);
        plan.guard = self.guard_plan(forall, body);
        plan.term = self.to_term(body);
        plan.vs = vs;
        plan
    }

    fn quantifier(
        &mut self,
        forall: bool,
        vs: &[VarId],
        body: &T,
        sigma: &mut Vec<(VarId, TermId)>,
        positive: bool,
    ) -> Result<B, InstError> {
        let plan = self.plan(forall, vs, body);
        let vs = &plan.vs;
        if vs.is_empty() {
            return self.eval(body, sigma, positive);
        }
        match (body, forall) {
            (T::Forall(_, b), true) | (T::Exists(_, b), false) => {
                return self.quantifier(forall, &plan.merged, b, sigma, positive);
            }
            (T::And(a, b), true) => {
                let x = self.quantifier(true, vs, a, sigma, positive);
                return self.join(true, x, |eng| eng.quantifier(true, vs, b, sigma, positive));
            }
            (T::Or(a, b), false) => {
                let x = self.quantifier(false, vs, a, sigma, positive);
                return self.join(false, x, |eng| {
                    eng.quantifier(false, vs, b, sigma, positive)
                });
            }
            (T::Or(a, b), true) | (T::And(a, b), false) if plan.outside_a.is_some() => {
                let (outside, inside) = if plan.outside_a == Some(true) {
                    (a, b)
                } else {
                    (b, a)
                };
                let x = self.eval(outside, sigma, positive);
                return self.join(!forall, x, |eng| {
                    eng.quantifier(forall, vs, inside, sigma, positive)
                });
            }
            (T::Imp(a, b), true) if plan.imp_outside => {
                return match self.eval(a, sigma, false)? {
                    B::F => Ok(B::T),
                    B::T => self.quantifier(true, vs, b, sigma, positive),
                    _ => Err(InstError::NotPositive(self.eq_name())),
                };
            }
            _ => {}
        }
        if let Some((rest, nb)) = &plan.one_point {
            return self.quantifier(forall, rest, nb, sigma, positive);
        }
        // A finite sort: enumerate its values.
        let mut first_err = None;
        for (i, x) in vs.iter().enumerate() {
            let sort = self.rw.store().var_of(*x).sort.clone();
            match self.enumerate(&sort) {
                Ok(values) => {
                    let mut rest = vs.clone();
                    rest.remove(i);
                    let mut acc = Acc::new(forall);
                    for v in values {
                        sigma.push((*x, v));
                        let r = self.quantifier(forall, &rest, body, sigma, positive);
                        sigma.pop();
                        if acc.add(r)? {
                            break;
                        }
                    }
                    return acc.finish();
                }
                Err(reason) => {
                    if first_err.is_none() {
                        first_err = Some((*x, reason));
                    }
                }
            }
        }
        if let Some(branches) = &plan.dist {
            return self.distribute(forall, branches, sigma, positive);
        }
        let guarded = match &plan.guard {
            Some((guard, rest)) => self.guarded(forall, vs, *guard, rest, sigma, positive),
            None => None,
        };
        match guarded {
            Some(Err(InstError::Quantifier { .. })) | None => {
                // A data-only body over numbers the guard does not bound: try values in
                // order, stopping at the first deciding instance (or when the values
                // tried cover every case of the body's comparisons).
                if let Some(t) = plan.term {
                    let t = self.rewrite(t, sigma)?;
                    let mut budget = LAZY_BUDGET.min(self.opts.max_enumeration.max(1));
                    if let Some(b) = self.lazy_term(forall, vs, t, &mut budget) {
                        return Ok(if b { B::T } else { B::F });
                    }
                }
                if let Some(r) = guarded {
                    return r;
                }
            }
            Some(r) => return r,
        }
        let (x, reason) = first_err.expect("some variable");
        let v: Var = self.rw.store().var_of(x).clone();
        Err(InstError::Quantifier {
            equation: self.eq_name(),
            var: v.name,
            sort: show_sort(&v.sort),
            reason,
        })
    }

    /// `e` in negation normal form: implications removed, negations pushed to data atoms
    /// (and propositional variables), the Boolean junctions of data terms lifted.
    fn nnf(&self, e: &T, neg: bool) -> T {
        let b = |x: &T, n: bool| Box::new(self.nnf(x, n));
        match e {
            T::True | T::False => {
                if matches!(e, T::True) != neg {
                    T::True
                } else {
                    T::False
                }
            }
            T::Data(t) => self.nnf_data(*t, neg),
            T::Not(a) => self.nnf(a, !neg),
            T::And(x, y) if neg => T::Or(b(x, true), b(y, true)),
            T::And(x, y) => T::And(b(x, false), b(y, false)),
            T::Or(x, y) if neg => T::And(b(x, true), b(y, true)),
            T::Or(x, y) => T::Or(b(x, false), b(y, false)),
            T::Imp(x, y) if neg => T::And(b(x, false), b(y, true)),
            T::Imp(x, y) => T::Or(b(x, true), b(y, false)),
            T::Forall(vs, a) if neg => T::Exists(vs.clone(), b(a, true)),
            T::Forall(vs, a) => T::Forall(vs.clone(), b(a, false)),
            T::Exists(vs, a) if neg => T::Forall(vs.clone(), b(a, true)),
            T::Exists(vs, a) => T::Exists(vs.clone(), b(a, false)),
            T::Prop(..) if neg => T::Not(Box::new(e.clone())),
            T::Prop(..) => e.clone(),
        }
    }

    fn nnf_data(&self, t: TermId, neg: bool) -> T {
        let b = |x: TermId, n: bool| Box::new(self.nnf_data(x, n));
        match self.app(t) {
            Some(("&&", [x, y])) if neg => T::Or(b(*x, true), b(*y, true)),
            Some(("&&", [x, y])) => T::And(b(*x, false), b(*y, false)),
            Some(("||", [x, y])) if neg => T::And(b(*x, true), b(*y, true)),
            Some(("||", [x, y])) => T::Or(b(*x, false), b(*y, false)),
            Some(("!", [x])) => self.nnf_data(*x, !neg),
            _ if t == self.tt || t == self.ff => {
                if (t == self.tt) != neg {
                    T::True
                } else {
                    T::False
                }
            }
            _ if neg => T::Data(self.rw.store().app_func(self.not_f, &[t])),
            _ => T::Data(t),
        }
    }

    /// The operands of nested conjunctions (`conj`) or disjunctions of `e`.
    fn junction_parts<'t>(e: &'t T, conj: bool, out: &mut Vec<&'t T>) {
        match (e, conj) {
            (T::And(a, b), true) | (T::Or(a, b), false) => {
                Self::junction_parts(a, conj, out);
                Self::junction_parts(b, conj, out);
            }
            _ => out.push(e),
        }
    }

    /// `e` (in NNF) as `Q ds. core` with the quantifiers `Q` (`exists` when `conj`, else
    /// `forall`) pulled out of its conjunction (disjunction). `None` if a variable would be
    /// bound twice.
    fn pull(&self, e: &T, conj: bool, ds: &mut Vec<VarId>) -> Option<T> {
        let mut parts = Vec::new();
        Self::junction_parts(e, conj, &mut parts);
        let mut out: Option<T> = None;
        for p in parts {
            let q = match (p, conj) {
                (T::Exists(vs, a), true) | (T::Forall(vs, a), false) => {
                    if vs.iter().any(|v| ds.contains(v)) {
                        return None;
                    }
                    ds.extend(vs.iter().copied());
                    self.pull(a, conj, ds)?
                }
                _ => p.clone(),
            };
            out = Some(match out {
                None => q,
                Some(o) if conj => T::And(Box::new(o), Box::new(q)),
                Some(o) => T::Or(Box::new(o), Box::new(q)),
            });
        }
        out
    }

    /// Every variable occurring in `e` (free or bound): an over-approximation of its free
    /// variables.
    fn vars_of(&self, e: &T) -> rustc_hash::FxHashSet<VarId> {
        fn go(eng: &Eng<'_>, e: &T, out: &mut rustc_hash::FxHashSet<VarId>) {
            let store = eng.rw.store();
            match e {
                T::True | T::False => {}
                T::Data(t) => out.extend(store.free_vars(*t)),
                T::Prop(_, args) => {
                    for t in args.iter() {
                        out.extend(store.free_vars(*t));
                    }
                }
                T::Not(a) => go(eng, a, out),
                T::And(a, b) | T::Or(a, b) | T::Imp(a, b) => {
                    go(eng, a, out);
                    go(eng, b, out);
                }
                T::Forall(vs, a) | T::Exists(vs, a) => {
                    out.extend(vs.iter().copied());
                    go(eng, a, out);
                }
            }
        }
        let mut out = rustc_hash::FxHashSet::default();
        go(self, e, &mut out);
        out
    }

    /// Quantifier distribution for the one-point rule: `exists x. (D1 || … || Dn) && R`
    /// becomes `(exists x. D1 && R) || … || (exists x. Dn && R)` when every `Di` fixes `x`
    /// by an equation `x == ti` (after pulling its own `exists` out), so that each branch
    /// loses `x` by the one-point rule; dually `forall x. (C1 && … && Cn) || R` when every
    /// `Ci` has a disjunct `x != ti`. This is how a quantifier over an infinite sort guarded
    /// by a modality (`forall a. <label(a)>true => φ`) is eliminated: the modality is the
    /// disjunction of the transitions' `a == label`.
    fn distribute_plan(&self, forall: bool, vs: &[VarId], body: &T) -> Option<Vec<Branch>> {
        let conj = !forall; // the junction of the body around the distributed part
        let n = self.nnf(body, false);
        let mut outer = Vec::new();
        Self::junction_parts(&n, conj, &mut outer);
        for k in 0..outer.len() {
            let part = outer[k];
            let mut inner = Vec::new();
            Self::junction_parts(part, !conj, &mut inner);
            if inner.len() < 2 || !self.mentions(part, vs) {
                continue;
            }
            let mut rest: Option<T> = None;
            for (j, p) in outer.iter().enumerate() {
                if j != k {
                    let p = (*p).clone();
                    rest = Some(match rest {
                        None => p,
                        Some(r) if conj => T::And(Box::new(r), Box::new(p)),
                        Some(r) => T::Or(Box::new(r), Box::new(p)),
                    });
                }
            }
            let rest_vars = rest.as_ref().map(|r| self.vars_of(r)).unwrap_or_default();
            let mut cores = Vec::new();
            let mut fits = true;
            for piece in inner {
                let mut ds = Vec::new();
                let Some(core) = self.pull(piece, conj, &mut ds) else {
                    fits = false;
                    break;
                };
                if ds.iter().any(|d| vs.contains(d) || rest_vars.contains(d)) {
                    fits = false;
                    break;
                }
                let fixed = vs.iter().any(|x| {
                    self.one_point(forall, *x, &core)
                        .is_some_and(|t| !self.rw.store().occurs_free(*x, t))
                });
                if !fixed {
                    fits = false;
                    break;
                }
                let mut all = vs.to_vec();
                all.extend(ds);
                cores.push((all, core));
            }
            if !fits {
                continue;
            }
            let branches = cores
                .into_iter()
                .map(|(all, core)| {
                    // A cheap data part of the branch's own core (the summand's or
                    // transition's condition) may decide it before substituting into `rest`.
                    let mut parts = Vec::new();
                    Self::junction_parts(&core, conj, &mut parts);
                    let checks = parts
                        .into_iter()
                        .filter(|p| !self.mentions(p, &all) && self.to_term(p).is_some())
                        .cloned()
                        .collect();
                    let body = match &rest {
                        None => core,
                        Some(r) if conj => T::And(Box::new(core), Box::new(r.clone())),
                        Some(r) => T::Or(Box::new(core), Box::new(r.clone())),
                    };
                    Branch {
                        all,
                        checks,
                        body: Box::new(body),
                    }
                })
                .collect();
            return Some(branches);
        }
        None
    }

    /// Evaluates a distributed quantifier's branches (planned by [`Eng::distribute_plan`]).
    fn distribute(
        &mut self,
        forall: bool,
        branches: &[Branch],
        sigma: &mut Vec<(VarId, TermId)>,
        positive: bool,
    ) -> Result<B, InstError> {
        let conj = !forall;
        let mut acc = Acc::new(forall);
        for br in branches {
            let mut dead = false;
            for p in &br.checks {
                if let Ok(x) = self.eval(p, sigma, positive) {
                    if decides(&x, conj) {
                        dead = true;
                        break;
                    }
                }
            }
            if dead {
                continue;
            }
            let r = self.quantifier(forall, &br.all, &br.body, sigma, positive);
            if acc.add(r)? {
                break;
            }
        }
        acc.finish()
    }

    /// `forall vs. t` (or `exists`) for a Boolean data term `t`, by instances: finite sorts
    /// by their values, numbers in the order 0, 1, 2, … (Int: 0, 1, -1, …) with an early stop
    /// at the first deciding instance. When the variable occurs only in comparisons with
    /// constants the values up to one past the constants cover every case, so the
    /// quantifier is decided either way. `None` when undecided within `budget` instances.
    fn lazy_term(
        &mut self,
        forall: bool,
        vs: &[VarId],
        t: TermId,
        budget: &mut usize,
    ) -> Option<bool> {
        if t == self.tt || t == self.ff {
            return Some(t == self.tt);
        }
        let store = self.rw.store();
        let free: Vec<VarId> = vs
            .iter()
            .filter(|v| store.occurs_free(**v, t))
            .copied()
            .collect();
        let (&x, rest) = free.split_first()?;
        let sort = store.var_of(x).sort.clone();
        let ns = NumSort::of(&sort);
        let finite = match ns {
            Some(_) => None,
            None => Some(self.enumerate(&sort).ok()?),
        };
        // The values that cover every case, when `x` occurs only in comparisons.
        let cover = match (ns, &finite) {
            (Some(ns), None) => {
                let mut consts = Vec::new();
                self.comparison_constants(x, t, &mut consts, 0).then(|| {
                    let lo: BigInt = consts.iter().min().cloned().unwrap_or_default() - 1;
                    let hi: BigInt = consts.iter().max().cloned().unwrap_or_default() + 1;
                    let lo = match ns {
                        NumSort::Pos => lo.max(BigInt::from(1)),
                        NumSort::Nat => lo.max(BigInt::from(0)),
                        NumSort::Int => lo,
                    };
                    (lo, hi)
                })
            }
            _ => None,
        };
        let mut unknown = false;
        let mut k: u64 = 0;
        loop {
            let value = if let Some(vals) = &finite {
                match vals.get(k as usize) {
                    Some(v) => *v,
                    None => break,
                }
            } else {
                let ns = ns.expect("numeric");
                // 0, 1, 2, … for Nat; 1, 2, … for Pos; 0, 1, -1, 2, -2, … for Int.
                let n = match ns {
                    NumSort::Pos => BigInt::from(k + 1),
                    NumSort::Nat => BigInt::from(k),
                    NumSort::Int if k % 2 == 1 => BigInt::from(k.div_ceil(2)),
                    NumSort::Int => -BigInt::from(k / 2),
                };
                if let Some((lo, hi)) = &cover {
                    let past = match ns {
                        NumSort::Int => n.abs() > lo.abs().max(hi.abs()),
                        _ => &n > hi,
                    };
                    if past {
                        break;
                    }
                    if &n < lo || &n > hi {
                        k += 1;
                        continue;
                    }
                }
                store.big_num(ns, &n)
            };
            k += 1;
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            let r = match self.rw.rewrite_with(t, &[(x, value)]) {
                Ok(tv) => self.lazy_term(forall, rest, tv, budget),
                Err(_) => None,
            };
            match r {
                Some(b) if b != forall => return Some(b),
                Some(_) => {}
                None => unknown = true,
            }
            if finite.is_none() && cover.is_none() && *budget == 0 {
                return None;
            }
        }
        (!unknown).then_some(forall)
    }

    /// Collects the integer constants that `x` is compared with in `t`; false when `x`
    /// occurs elsewhere than as an operand of `==`, `!=`, `<`, `<=`, `>`, `>=` (possibly
    /// under a numeric upcast) facing a constant.
    fn comparison_constants(
        &self,
        x: VarId,
        t: TermId,
        out: &mut Vec<BigInt>,
        depth: usize,
    ) -> bool {
        let store = self.rw.store();
        if !store.occurs_free(x, t) {
            return true;
        }
        if depth > 256 {
            return false;
        }
        let strip = |u: TermId| match self.app(u) {
            Some(("Pos2Nat" | "Pos2Int" | "Nat2Int", [a])) => *a,
            _ => u,
        };
        let xt = store.var(x);
        if let Some((op, [l, r])) = self.app(t) {
            if matches!(op, "==" | "!=" | "<" | "<=" | ">" | ">=") {
                for (a, b) in [(*l, *r), (*r, *l)] {
                    if strip(a) == xt {
                        let b = strip(b);
                        match store.get(b) {
                            Term::Num(_, v) => out.push(BigInt::from(*v)),
                            Term::BigNum(_, v) => out.push((**v).clone()),
                            _ => return false,
                        }
                        return true;
                    }
                }
            }
        }
        match store.get(t) {
            Term::App(h, args) => {
                matches!(store.get(*h), Term::Func(_))
                    && args
                        .iter()
                        .all(|a| self.comparison_constants(x, *a, out, depth + 1))
            }
            _ => false,
        }
    }

    /// Whether a binder inside `e` binds one of `vs`.
    fn binds_any(&self, e: &T, vs: &[VarId]) -> bool {
        match e {
            T::Forall(b, a) | T::Exists(b, a) => {
                b.iter().any(|x| vs.contains(x)) || self.binds_any(a, vs)
            }
            T::Not(a) => self.binds_any(a, vs),
            T::And(a, b) | T::Or(a, b) | T::Imp(a, b) => {
                self.binds_any(a, vs) || self.binds_any(b, vs)
            }
            T::Data(t) => {
                // Data binders inside terms are renamed by the store's substitution.
                let _ = t;
                false
            }
            T::True | T::False | T::Prop(..) => false,
        }
    }

    fn subst(&self, e: &T, sigma: &Substitution) -> T {
        let b = |x: &T| Box::new(self.subst(x, sigma));
        match e {
            T::True => T::True,
            T::False => T::False,
            T::Data(t) => T::Data(self.rw.substitute(*t, sigma)),
            T::Not(a) => T::Not(b(a)),
            T::And(x, y) => T::And(b(x), b(y)),
            T::Or(x, y) => T::Or(b(x), b(y)),
            T::Imp(x, y) => T::Imp(b(x), b(y)),
            T::Forall(vs, a) | T::Exists(vs, a) => {
                let mut inner = sigma.clone();
                for v in vs {
                    inner.remove(v);
                }
                let body = Box::new(self.subst(a, &inner));
                if matches!(e, T::Forall(..)) {
                    T::Forall(vs.clone(), body)
                } else {
                    T::Exists(vs.clone(), body)
                }
            }
            T::Prop(eq, args) => T::Prop(
                *eq,
                args.iter().map(|t| self.rw.substitute(*t, sigma)).collect(),
            ),
        }
    }

    /// The name and arguments of an application of a function symbol.
    fn app(&self, t: TermId) -> Option<(&str, &[TermId])> {
        let store = self.rw.store();
        match store.get(t) {
            Term::App(h, args) => match store.get(*h) {
                Term::Func(f) => Some((&*store.func_of(*f).name, &args[..])),
                _ => None,
            },
            _ => None,
        }
    }

    fn data_parts(&self, t: TermId, conj: bool, out: &mut Vec<TermId>) {
        match self.app(t) {
            Some(("&&", [a, b])) if conj => {
                self.data_parts(*a, conj, out);
                self.data_parts(*b, conj, out);
            }
            Some(("||", [a, b])) if !conj => {
                self.data_parts(*a, conj, out);
                self.data_parts(*b, conj, out);
            }
            _ => out.push(t),
        }
    }

    fn parts(&self, e: &T, conj: bool, out: &mut Vec<TermId>) {
        match (e, conj) {
            (T::And(a, b), true) | (T::Or(a, b), false) => {
                self.parts(a, conj, out);
                self.parts(b, conj, out);
            }
            (T::Data(t), _) => self.data_parts(*t, conj, out),
            _ => {}
        }
    }

    /// `t` with `x == t` a conjunct (exists, or the premise of a forall's implication) or
    /// `x != t` a disjunct (forall).
    fn one_point(&self, forall: bool, x: VarId, body: &T) -> Option<TermId> {
        let store = self.rw.store();
        let xt = store.var(x);
        let eq_of = |t: TermId| -> Option<TermId> {
            match self.app(t) {
                Some(("==", [a, b])) if *a == xt => Some(*b),
                Some(("==", [a, b])) if *b == xt => Some(*a),
                _ => None,
            }
        };
        let mut parts = Vec::new();
        if forall {
            match body {
                T::Imp(lhs, _) => {
                    self.parts(lhs, true, &mut parts);
                    return parts.into_iter().find_map(eq_of);
                }
                _ => {
                    self.parts(body, false, &mut parts);
                    return parts.into_iter().find_map(|t| match self.app(t) {
                        Some(("!=", [a, b])) if *a == xt => Some(*b),
                        Some(("!=", [a, b])) if *b == xt => Some(*a),
                        Some(("!", [inner])) => eq_of(*inner),
                        _ => None,
                    });
                }
            }
        }
        self.parts(body, true, &mut parts);
        parts.into_iter().find_map(eq_of)
    }

    fn enumerate(&mut self, sort: &Sort) -> Result<Vec<TermId>, String> {
        if let Some(r) = self.enum_cache.get(sort) {
            return r.clone();
        }
        let r =
            enumerate_sort(sort, &self.pbes.data, self.opts.max_enumeration, 0).and_then(|vals| {
                vals.iter()
                    .map(|v| {
                        let t = self.rw.term(v).map_err(|e| e.to_string())?;
                        self.rw.rewrite(t).map_err(|e| e.to_string())
                    })
                    .collect()
            });
        self.enum_cache.insert(sort.clone(), r.clone());
        r
    }

    /// `!t` with the negation pushed through `!`, `&&` and `||` (the enumerator narrows
    /// conjunctions of bounds, not negated disjunctions).
    fn negate_term(&self, t: TermId) -> TermId {
        let store = self.rw.store();
        match self.app(t) {
            Some(("!", [a])) => *a,
            Some(("&&", [a, b])) => {
                let (a, b) = (*a, *b);
                store.app_func(self.or_f, &[self.negate_term(a), self.negate_term(b)])
            }
            Some(("||", [a, b])) => {
                let (a, b) = (*a, *b);
                store.app_func(self.and_f, &[self.negate_term(a), self.negate_term(b)])
            }
            _ if t == self.tt => self.ff,
            _ if t == self.ff => self.tt,
            _ => store.app_func(self.not_f, &[t]),
        }
    }

    /// A term for a PBES expression without propositional variables or quantifiers.
    fn to_term(&self, e: &T) -> Option<TermId> {
        let store = self.rw.store();
        Some(match e {
            T::True => self.tt,
            T::False => self.ff,
            T::Data(t) => *t,
            T::Not(a) => store.app_func(self.not_f, &[self.to_term(a)?]),
            T::And(a, b) => store.app_func(self.and_f, &[self.to_term(a)?, self.to_term(b)?]),
            T::Or(a, b) => store.app_func(self.or_f, &[self.to_term(a)?, self.to_term(b)?]),
            T::Imp(a, b) => {
                let na = store.app_func(self.not_f, &[self.to_term(a)?]);
                store.app_func(self.or_f, &[na, self.to_term(b)?])
            }
            T::Forall(..) | T::Exists(..) | T::Prop(..) => return None,
        })
    }

    /// The guard of `forall x. g => φ`, `forall x. !g || φ`, `exists x. g && φ`, or a
    /// data-only body (negated for `forall`), and the rest of the body; `None` without one.
    fn guard_plan(&self, forall: bool, body: &T) -> Option<(TermId, Box<T>)> {
        let store = self.rw.store();
        // In negation normal form, `forall x. g1 || … || φ` has the guard `!(g1 || …)` and
        // `exists x. g1 && … && φ` the guard `g1 && …`, the `gi` being the data-only parts.
        let n = self.nnf(body, false);
        let mut parts = Vec::new();
        Self::junction_parts(&n, !forall, &mut parts);
        let mut guard: Option<TermId> = None;
        let mut rest: Option<T> = None;
        for p in parts {
            match self.to_term(p) {
                Some(t) => {
                    let f = if forall { self.or_f } else { self.and_f };
                    guard = Some(match guard {
                        Some(g) => store.app_func(f, &[g, t]),
                        None => t,
                    })
                }
                None => {
                    let p = p.clone();
                    rest = Some(match rest {
                        Some(r) if forall => T::Or(Box::new(r), Box::new(p)),
                        Some(r) => T::And(Box::new(r), Box::new(p)),
                        None => p,
                    })
                }
            }
        }
        let guard = guard?;
        let guard = if forall {
            self.negate_term(guard)
        } else {
            guard
        };
        let rest = rest.unwrap_or(if forall { T::False } else { T::True });
        Some((guard, Box::new(rest)))
    }

    /// Guarded enumeration with the data engine's enumerator, for the guard and rest
    /// planned by [`Eng::guard_plan`].
    fn guarded(
        &mut self,
        forall: bool,
        vs: &[VarId],
        guard: TermId,
        rest: &T,
        sigma: &mut Vec<(VarId, TermId)>,
        positive: bool,
    ) -> Option<Result<B, InstError>> {
        let store = self.rw.store();
        // Apply the current substitution, keeping the variables to enumerate free.
        let mut sub = Substitution::default();
        for (v, t) in sigma.iter() {
            if !vs.contains(v) {
                sub.insert(*v, *t);
            }
        }
        let guard = self.rw.substitute(guard, &sub);
        let evars: Vec<VarId> = vs
            .iter()
            .filter(|v| store.occurs_free(**v, guard))
            .copied()
            .collect();
        if evars.is_empty() {
            return None;
        }
        let limit = self.opts.max_enumeration;
        let mut found: Vec<(Vec<TermId>, TermId)> = Vec::new();
        let mut too_many = false;
        let r = self
            .rw
            .enumerator()
            .enumerate(&evars, guard, &mut |vals, residual| {
                found.push((vals.to_vec(), residual));
                if found.len() > limit {
                    too_many = true;
                    return false;
                }
                true
            });
        let fail = |eng: &Self, reason: String| {
            let v = eng.rw.store().var_of(evars[0]).clone();
            Some(Err(InstError::Quantifier {
                equation: eng.eq_name(),
                var: v.name,
                sort: show_sort(&v.sort),
                reason,
            }))
        };
        if let Err(e) = r {
            return fail(self, e.to_string());
        }
        if too_many {
            return fail(
                self,
                format!("more than {limit} values satisfy the condition"),
            );
        }
        let remaining: Vec<VarId> = vs.iter().filter(|v| !evars.contains(v)).copied().collect();
        let mut acc = Acc::new(forall);
        for (values, residual) in found {
            let r = if residual != self.tt {
                // A stuck guard instance: only an error if no other instance decides.
                Err(InstError::Undecided {
                    equation: self.eq_name(),
                    expr: self.rw.show(residual),
                })
            } else {
                let n = sigma.len();
                sigma.extend(evars.iter().copied().zip(values));
                let r = self.quantifier(forall, &remaining, rest, sigma, positive);
                sigma.truncate(n);
                r
            };
            match acc.add(r) {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => return Some(Err(e)),
            }
        }
        Some(acc.finish())
    }
}
