//! The instantiation engine (see [`super`] for the algorithm), on the data engine's
//! hash-consed terms. Right-hand sides are converted to terms once per equation; an instance
//! is a `TermId` vector, rewritten under a substitution of the equation's parameters without
//! building intermediate expressions, and instances are looked up by their ids.
//!
//! Quantifiers are eliminated by the one-point rule, by distribution (`exists x.
//! (x == t1 || x == t2) && φ` into one-point branches, and the dual for `forall`), by guards
//! taken from every data-only part of the body in negation normal form, by enumerating
//! finite sorts, and, for data-only bodies over unbounded numbers, by instances in order with
//! an early stop. A data term that does not rewrite to a Boolean (a partial function outside
//! its domain) is an error only when the other operand of its junction, or another instance
//! of its quantifier, does not decide the result.
//!
//! The part of eliminating a quantifier that depends on the quantifier alone is computed
//! once per quantifier node and reused by every instance ([`quant`]); only the evaluation
//! under the instance's values is redone.

use std::collections::VecDeque;
use std::rc::Rc;
use std::time::Instant;

use num_bigint::BigInt;
use num_traits::Signed;
use rustc_hash::FxHashMap;

use crate::data::ir::{DataExpr, Func, Sort, Var};
use crate::data::ir_ops::default_value;
use crate::data::{NumSort, Rewriter, Substitution, Term, TermId, TermStore, VarId};
use crate::pbes::graph::{b_and, b_or, decides, Graph, Op, B, NO_STEP};
use crate::pbes::inst::{
    show_sort, InstError, InstOptions, InstStats, Instantiation, Justification, Keys, Origins,
    PARENT_STEP, STEP_BIT,
};
use crate::pbes::ir::{Pbes, PbesExpr};
use crate::progress::{grouped, Meter, Watch};

mod quant;
mod terms;
use quant::*;
use terms::{data_first, has_prop};

/// A right-hand side over terms.
#[derive(Clone, Debug)]
enum T {
    True,
    False,
    Data(TermId),
    Not(Rc<T>),
    And(Rc<T>, Rc<T>),
    Or(Rc<T>, Rc<T>),
    Imp(Rc<T>, Rc<T>),
    Forall(Vec<VarId>, Rc<T>),
    Exists(Vec<VarId>, Rc<T>),
    Prop(u32, Vec<TermId>),
}

struct Eng<'a> {
    pbes: &'a Pbes,
    rw: Rewriter<'a>,
    opts: &'a InstOptions,
    rank: Vec<u32>,
    rhs: Vec<T>,
    params: Vec<Vec<VarId>>,
    globals: Vec<(VarId, TermId)>,
    /// BES variable per instance key `[equation, argument ids…]`; looked up by slice so a
    /// known instance costs no allocation, and the key is shared with `inst`.
    ids: FxHashMap<Rc<[u32]>, u32>,
    /// Per BES variable: its instance key (`None` for auxiliary variables).
    inst: Keys,
    /// Per evidence step (recorded on an edge, see [`Origins`]): its key.
    steps: Keys,
    /// The step whose right-hand side is being evaluated in place ([`NO_STEP`] for none):
    /// the parent of a step met there.
    current_step: u32,
    /// The constant vertices (false, true) that a step whose right-hand side is a constant
    /// leads to, made on first use.
    constants: [Option<u32>; 2],
    /// Scratch for instance keys and argument values.
    key_buf: Vec<u32>,
    vals_buf: Vec<TermId>,
    g: Graph,
    queue: VecDeque<u32>,
    enum_cache: FxHashMap<Sort, Result<Vec<TermId>, String>>,
    /// The equation whose values are in `dense` (of the instance being expanded, or of the
    /// step being evaluated in place) and the BES variable being expanded.
    current: u32,
    current_var: u32,
    /// Per equation: whether its instances are evaluated in place ([`Eng::inline_step`]).
    inline: Vec<bool>,
    /// How deep in-place evaluations are nested (bounded by [`INLINE_DEPTH`]).
    inline_depth: u32,
    /// The `dense` entries that in-place evaluations replaced, to put back (a stack).
    saved: Vec<(VarId, TermId)>,
    /// Per (step equation, equation of the instance it is evaluated in): see
    /// [`Origins::inherit`].
    inherit: FxHashMap<(u32, u32), Inherit>,
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
    /// Symbolic plans of quantifiers, keyed by the body node (its address, which names it
    /// because the entry holds the node: it cannot be freed and its address reused while the
    /// cache lives) and the quantifier kind (see [`quant::QPlan`]).
    plans: FxHashMap<(usize, bool), PlanEntry>,
    /// Enumerated guards of [`Eng::guarded`], keyed like `memo` by `[guard, quantified
    /// variables…, separator, value of each free variable…]`: a clustered LPS has guards over
    /// many parameters of which an instance's values recur, and enumerating them once per
    /// instance dominated instantiation.
    guard_memo: FxHashMap<Box<[u32]>, quant::GuardCase>,
    /// Words held by `guard_memo` (keys and solutions, for the [`MEMO_WORDS`] bound).
    guard_memo_words: usize,
}

/// How deep in-place evaluations of step equations may nest ([`Eng::inline_step`]); deeper
/// ones (a step equation whose right-hand side refers to itself) become ordinary instances.
const INLINE_DEPTH: u32 = 64;

/// Per parameter of a step equation, its position among the parameters of the equation of
/// the instance it is evaluated in (`u32::MAX` for none), and the positions of that
/// equation's parameters that are not the step's (hidden while the step is evaluated).
#[derive(Clone)]
pub(crate) struct Inherit {
    pub(crate) from_parent: Rc<[u32]>,
    hidden: Rc<[u32]>,
}

/// Bound on the key words of [`Eng::rewrite`]'s memo before it is cleared (16 Mi words,
/// about 64 MiB of keys plus the table).
const MEMO_WORDS: usize = 16 << 20;

/// Whether `e` is a data term that did not rewrite to `true` or `false`: harmless where the
/// other operand of a junction decides it.
fn is_stuck(e: &InstError) -> bool {
    matches!(e, InstError::Undecided { .. })
}

fn bool_func(name: &str, arity: usize) -> Func {
    Func {
        name: name.into(),
        sort: Sort::Arrow(vec![Sort::Bool; arity], Box::new(Sort::Bool)),
    }
}

/// Instantiates `pbes` on terms (see the module docs). Fails with a clear error when the
/// data engine cannot handle the PBES's data specification.
pub fn instantiate(pbes: &Pbes, opts: &InstOptions) -> Result<Instantiation, InstError> {
    let started = Instant::now();
    // The run's terms: freed when the instantiation is dropped, or kept alive by its
    // origins (which print instance arguments on demand).
    let terms = std::sync::Arc::new(TermStore::new());
    let store = &*terms;
    let rw = Rewriter::new(&pbes.data, store).map_err(|e| InstError::Data(e.to_string()))?;
    let mut eng = Eng {
        pbes,
        opts,
        rank: super::equation_ranks(pbes),
        rhs: Vec::new(),
        params: Vec::new(),
        globals: Vec::new(),
        ids: FxHashMap::default(),
        inst: Keys::default(),
        steps: Keys::default(),
        current_step: NO_STEP,
        constants: [None; 2],
        key_buf: Vec::new(),
        vals_buf: Vec::new(),
        g: Graph::new(opts.max_vars, opts.keep_origins),
        queue: VecDeque::new(),
        enum_cache: FxHashMap::default(),
        current: 0,
        current_var: 0,
        inline: Vec::new(),
        inline_depth: 0,
        saved: Vec::new(),
        inherit: FxHashMap::default(),
        fv_cache: Vec::new(),
        fv_arena: Vec::new(),
        small: Vec::new(),
        closed_cache: FxHashMap::default(),
        memo: FxHashMap::default(),
        memo_words: 0,
        memo_key: Vec::new(),
        guard_memo: FxHashMap::default(),
        guard_memo_words: 0,
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
        let v = crate::data::ir_ops::representative(&g.sort, &pbes.data)
            .or_else(|| default_value(&g.sort, &pbes.data))
            .ok_or_else(|| InstError::Global(g.name.clone()))?;
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
        // Evidence's step equations: one instance per transition, evaluated in place.
        eng.inline.push(
            opts.keep_origins
                && (crate::pbes::lps2pbes::step_summand(&e.var.name).is_some()
                    || crate::pbes::lts2pbes::step_transition(&e.var.name).is_some()),
        );
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
    let _timer = crate::progress::time_stage("instantiation");
    let mut meter = Meter::new("instantiation", opts.progress);
    let mut expanded = 0u64;
    while let Some(x) = eng.queue.pop_front() {
        if opts.stop_when_decided && eng.g.value[init as usize].is_some() {
            break;
        }
        let (vars, pending) = (eng.g.value.len(), eng.queue.len() + 1);
        if let Err(h) = meter.tick(expanded, || {
            format!(
                "{} BES variables, {} to expand",
                grouped(vars as u64),
                grouped(pending as u64)
            )
        }) {
            return Err(InstError::Stopped {
                vars,
                pending,
                reason: h.reason,
            });
        }
        eng.expand(x)?;
        expanded += 1;
    }
    meter.finish();
    let decided = eng.g.value[init as usize];
    let complete = eng.queue.is_empty() && eng.g.is_complete();
    let steps = eng.g.edge_steps();
    // A decided initial variable under `stop_when_decided` needs no BES: its value is
    // known, and evidence reads the justification.
    let bes = if complete && !(opts.stop_when_decided && decided.is_some()) {
        let name = |i: usize| match eng.inst.get(i) {
            Some(key) => format!(
                "{}_{i}",
                pbes.equations[(key[0] & !STEP_BIT) as usize].var.name
            ),
            None => format!("aux_{i}"),
        };
        Some(eng.g.build(
            init,
            opts.names.then_some(&name as &dyn Fn(usize) -> String),
        )?)
    } else {
        None
    };
    let origin = if opts.keep_origins {
        let inherit = eng
            .inherit
            .iter()
            .map(|(&k, v)| (k, v.from_parent.clone()))
            .collect();
        Origins::new(
            terms.clone(),
            std::mem::take(&mut eng.inst),
            std::mem::take(&mut eng.steps),
            inherit,
        )
    } else {
        Origins::default()
    };
    let stats = InstStats {
        instances: eng.g.value.len() - eng.g.aux_count,
        auxiliary: eng.g.aux_count,
        decided: eng.g.decided_count,
        seconds: started.elapsed().as_secs_f64(),
    };
    Ok(Instantiation {
        bes,
        decided,
        origin,
        steps,
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

    /// The free variables of `t` as a range of `fv_arena`, computed once per term.
    fn free_vars_of(&mut self, t: TermId) -> (u32, u32) {
        let ti = t.0 as usize;
        match self.fv_cache.get(ti) {
            Some(&r) if r.0 != u32::MAX => r,
            _ => {
                let fv = self.rw.store().free_vars(t);
                let r = (self.fv_arena.len() as u32, fv.len() as u32);
                self.fv_arena.extend(fv);
                if ti >= self.fv_cache.len() {
                    self.fv_cache.resize(ti + 1024, (u32::MAX, 0));
                }
                self.fv_cache[ti] = r;
                r
            }
        }
    }

    /// The normal form of `t` under `sigma` (whose terms are normal forms). Only the
    /// variables that occur in `t` are bound (an LPS has many parameters, a condition or
    /// next-state expression mentions few), a variable is looked up without rewriting, and
    /// closed terms are rewritten once. Open terms are memoised by the values of their free
    /// variables: the normal form is a function of the term and those values alone, and the
    /// same local values recur in many instances.
    fn rewrite(&mut self, t: TermId, sigma: &[(VarId, TermId)]) -> Result<TermId, InstError> {
        if let Term::Var(v) = self.rw.store().get(t) {
            if let Some(val) = self.lookup(*v, sigma) {
                return Ok(val);
            }
        }
        let (start, len) = self.free_vars_of(t);
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
        let b = |x: &PbesExpr| self.compile(x, index).map(Rc::new);
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
            PbesExpr::And(x, y) => {
                let (x, y) = data_first(b(x)?, b(y)?);
                T::And(x, y)
            }
            PbesExpr::Or(x, y) => {
                let (x, y) = data_first(b(x)?, b(y)?);
                T::Or(x, y)
            }
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
            self.inst.push_shared(shared.clone());
            self.ids.insert(shared, id);
            self.queue.push_back(id);
        }
        self.key_buf = key;
        id
    }

    /// Step equation `eq`'s instance `vals`, met in the right-hand side of the instance
    /// being evaluated: its right-hand side evaluated here and now, and the step recorded
    /// on the edge to what it leads to (see [`Origins`]), so it makes no BES variable of its
    /// own. A step is one transition of the proof; it is reached from this one place only,
    /// so it needs no lookup table and no queue, and its key records the values that differ
    /// from the enclosing instance's (the sum values; [`Origins`] puts the rest back from
    /// the parent). What it leads to: the variable its right-hand side is, a constant
    /// vertex when that is a constant, else an auxiliary variable defined by it.
    fn inline_step(&mut self, eq: u32, vals: &[TermId]) -> Result<B, InstError> {
        let peq = self.current;
        let parent = if self.current_step != NO_STEP {
            self.current_step | PARENT_STEP
        } else {
            self.current_var
        };
        let inh = match self.inherit.get(&(eq, peq)) {
            Some(i) => i.clone(),
            None => {
                let (mine, theirs) = (&self.params[eq as usize], &self.params[peq as usize]);
                let from_parent: Rc<[u32]> = mine
                    .iter()
                    .map(|v| {
                        theirs
                            .iter()
                            .position(|w| w == v)
                            .map_or(u32::MAX, |j| j as u32)
                    })
                    .collect();
                let hidden: Rc<[u32]> = (0..theirs.len() as u32)
                    .filter(|j| !from_parent.contains(j))
                    .collect();
                let i = Inherit {
                    from_parent,
                    hidden,
                };
                self.inherit.insert((eq, peq), i.clone());
                i
            }
        };
        // The key: compact when every inherited value is the parent's (the values of the
        // parent's parameters are in `dense`), else in full.
        let params = &self.params[eq as usize];
        let inherited = params
            .iter()
            .zip(inh.from_parent.iter())
            .zip(vals)
            .all(|((v, &j), t)| j == u32::MAX || self.dense[v.0 as usize] == *t);
        let id = self.steps.len() as u32;
        if id >= PARENT_STEP || (self.current_step == NO_STEP && parent & PARENT_STEP != 0) {
            return Err(InstError::TooManyVariables(self.g.len()));
        }
        if inherited {
            let own = inh
                .from_parent
                .iter()
                .zip(vals)
                .filter(|&(&j, _)| j == u32::MAX);
            self.steps.push_flat(
                [eq | STEP_BIT, parent]
                    .into_iter()
                    .chain(own.map(|(_, t)| t.0)),
            );
        } else {
            self.steps
                .push_flat(std::iter::once(eq).chain(vals.iter().map(|t| t.0)));
        }
        // Evaluate under the step's parameters: the parent's other parameters hidden, its
        // quantifier values out of sight (a fresh substitution), then everything restored.
        let saved_from = self.saved.len();
        for &j in inh.hidden.iter() {
            let v = self.params[peq as usize][j as usize];
            self.saved.push((v, self.dense[v.0 as usize]));
            self.dense[v.0 as usize] = TermId(u32::MAX);
        }
        for (v, t) in self.params[eq as usize].iter().zip(vals) {
            let i = v.0 as usize;
            if i >= self.dense.len() {
                self.dense.resize(i + 1, TermId(u32::MAX));
            }
            self.saved.push((*v, self.dense[i]));
            self.dense[i] = *t;
        }
        let outer = (self.current, self.current_step, self.base);
        (self.current, self.current_step, self.base) = (eq, id, 0);
        self.inline_depth += 1;
        let rhs = std::mem::replace(&mut self.rhs[eq as usize], T::True);
        let r = self.eval(&rhs, &mut Vec::new(), true);
        self.rhs[eq as usize] = rhs;
        self.inline_depth -= 1;
        (self.current, self.current_step, self.base) = outer;
        for &(v, t) in self.saved[saved_from..].iter().rev() {
            self.dense[v.0 as usize] = t;
        }
        self.saved.truncate(saved_from);
        let rank = self.rank[eq as usize];
        let (var, value) = match r? {
            B::T => (self.constant(true, rank)?, Some(true)),
            B::F => (self.constant(false, rank)?, Some(false)),
            B::V(o) if o.step == NO_STEP => (o.var, o.value),
            other => {
                let z = self.g.new_var(rank)?;
                self.g.aux_count += 1;
                self.inst.push_none();
                let inst = &mut self.inst;
                self.g.define(z, other, &mut |_| inst.push_none())?;
                (z, self.g.value[z as usize])
            }
        };
        Ok(B::V(Op {
            var,
            step: id,
            value,
        }))
    }

    /// The constant vertex of value `v` (made on first use, of rank `rank`).
    fn constant(&mut self, v: bool, rank: u32) -> Result<u32, InstError> {
        if let Some(c) = self.constants[usize::from(v)] {
            return Ok(c);
        }
        let c = self.g.new_var(rank)?;
        self.g.aux_count += 1;
        self.inst.push_none();
        self.g
            .define(c, if v { B::T } else { B::F }, &mut |_| unreachable!())?;
        self.constants[usize::from(v)] = Some(c);
        Ok(c)
    }

    fn expand(&mut self, x: u32) -> Result<(), InstError> {
        let Some(key) = self.inst.shared(x as usize) else {
            return Ok(());
        };
        let eq = key[0];
        self.current = eq;
        self.current_var = x;
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
        self.g.define(x, b, &mut |_| inst.push_none())
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
                if self.inline[*eq as usize] && self.inline_depth < INLINE_DEPTH {
                    // A nested step finds `vals_buf` empty and makes its own.
                    let b = self.inline_step(*eq, &vals);
                    self.vals_buf = vals;
                    return b;
                }
                let id = self.var_of(*eq, &vals);
                self.vals_buf = vals;
                let id = id?;
                // A decided variable becomes its constant, except when origins are kept
                // for evidence: then its vertex stays, so the proof keeps every step (its
                // value still decides a junction, as the constant would).
                match self.g.value[id as usize] {
                    Some(true) if !self.opts.keep_origins => B::T,
                    Some(false) if !self.opts.keep_origins => B::F,
                    value => Op::var(id, value),
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
}
