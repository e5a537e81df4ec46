//! Instantiation of a PBES into a BES (`pbesinst`), and solving while instantiating.
//!
//! Starting from the initial instance, every reachable instance `X(v)` (closed data
//! values `v`) becomes one BES variable. Its right-hand side is the equation's, with the
//! parameters replaced by `v`, data rewritten to normal form by a
//! [`Simplifier`] (the data engine's rewriter, or the syntactic simplifier), quantifiers
//! eliminated — by the one-point rule (`exists x. x == t && φ` is `φ[x := t]`, dually for
//! `forall` with `x == t => φ` or `x != t || φ`) and otherwise by enumerating the values of a
//! finite sort — and `true`/`false` simplified on the fly. Nested right-hand sides are
//! flattened into auxiliary variables of the same rank (their origin is `None`).
//!
//! Every BES variable keeps its origin (equation index and data instance), so witnesses and
//! counterexamples can be read off a solved BES without redoing the work.
//!
//! *Solving while instantiating*: a variable whose right-hand side becomes a constant is
//! decided, and decisions propagate backwards through the right-hand sides found so far
//! (an `||` with a true operand is true, an `&&` whose operands are all false is false, …).
//! With [`InstOptions::stop_when_decided`] instantiation stops as soon as the initial
//! variable is decided. Constant propagation is sound for every fixpoint, so the remaining
//! BES (when not stopped) has the same solution.

use std::collections::VecDeque;
use std::time::Instant;

use miette::Diagnostic;
use rustc_hash::FxHashMap;
use thiserror::Error;

use crate::bes::Bes;
use crate::data::ir::{DataExpr, DataSpec, Name, Sort, SortDef, Var};
use crate::data::ir_ops::{
    as_app, conjuncts, default_value, free_vars, is_closed, is_false, is_true, substitute,
    Simplifier, Subst,
};
use crate::pbes::graph::{b_and, b_or, Graph, B};
use crate::pbes::ir::{Fixpoint, Pbes, PbesExpr};
use crate::pbes::matching::pbes_free_vars_into;

/// The data operations instantiation needs: normal forms, and (optionally) the values of
/// variables that satisfy a condition, for quantifiers over infinite sorts.
pub trait InstData: Simplifier {
    /// The assignments to `vars` (with the residual condition under each) for which `cond`
    /// does not rewrite to `false`, at most `limit` of them; `None` without an enumerator,
    /// `Some(Err(reason))` when they cannot be enumerated finitely.
    #[allow(clippy::type_complexity)]
    fn solutions(
        &self,
        _vars: &[Var],
        _cond: &DataExpr,
        _limit: usize,
    ) -> Option<Result<Vec<(Vec<DataExpr>, DataExpr)>, String>> {
        None
    }
}

impl InstData for crate::data::ir_ops::SyntacticSimplifier {}

/// Options of [`instantiate`].
#[derive(Clone, Debug)]
pub struct InstOptions {
    /// Stop with [`InstError::TooManyVariables`] after this many BES variables.
    pub max_vars: usize,
    /// Refuse to enumerate a quantifier domain with more values than this.
    pub max_enumeration: usize,
    /// Stop as soon as the initial variable is decided by constant propagation.
    pub stop_when_decided: bool,
    /// Keep the data instance of every BES variable as IR ([`Instantiation::origin`]), for
    /// evidence (the IR engine always keeps them).
    pub keep_origins: bool,
}

impl Default for InstOptions {
    fn default() -> Self {
        InstOptions {
            max_vars: 100_000_000,
            max_enumeration: 100_000,
            stop_when_decided: false,
            keep_origins: false,
        }
    }
}

/// Why instantiation failed.
#[derive(Debug, Error, Diagnostic)]
pub enum InstError {
    /// The bound on BES variables was reached.
    #[error("instantiation stopped after {0} BES variables (bound of --max-vars)")]
    #[diagnostic(
        code(muon::pbesinst::too_many),
        help("the PBES may have infinitely many reachable instances (e.g. an unbounded counter); raise --max-vars if it is just large")
    )]
    TooManyVariables(usize),
    /// A quantifier over an infinite (or too large) sort that the one-point rule cannot
    /// remove.
    #[error(
        "cannot eliminate the quantifier over `{var}: {sort}` in equation `{equation}`: {reason}"
    )]
    #[diagnostic(
        code(muon::pbesinst::quantifier),
        help("the quantified variable must be fixed by an equality (`x == e`) or range over a finite sort")
    )]
    Quantifier {
        /// The equation.
        equation: Name,
        /// The variable.
        var: Name,
        /// Its sort, printed.
        sort: String,
        /// Why.
        reason: String,
    },
    /// A Boolean data expression did not rewrite to `true` or `false`.
    #[error("in equation `{equation}`: the condition `{expr}` does not rewrite to true or false")]
    #[diagnostic(
        code(muon::pbesinst::undecided),
        help("it probably uses a mapping without equations for these arguments, or needs the data rewriter")
    )]
    Undecided {
        /// The equation.
        equation: Name,
        /// The expression after rewriting, printed.
        expr: String,
    },
    /// A propositional variable argument did not rewrite to a closed value.
    #[error("in equation `{equation}`: argument `{expr}` of `{target}` is not a closed value after rewriting")]
    #[diagnostic(code(muon::pbesinst::open_argument))]
    OpenArgument {
        /// The equation.
        equation: Name,
        /// The referenced variable.
        target: Name,
        /// The argument.
        expr: String,
    },
    /// A reference to an undeclared propositional variable or with the wrong arity.
    #[error(
        "`{0}` is not a propositional variable of the PBES (or has the wrong number of arguments)"
    )]
    #[diagnostic(code(muon::pbesinst::unknown_variable))]
    UnknownVariable(Name),
    /// A negated propositional variable (the PBES is not in positive form).
    #[error("in equation `{0}`: a propositional variable occurs under a negation or on the left of `=>`")]
    #[diagnostic(
        code(muon::pbesinst::not_positive),
        help("pbesinst needs every propositional variable to occur positively")
    )]
    NotPositive(Name),
    /// A global variable without a default value.
    #[error("global variable `{0}` has a sort without a known value")]
    #[diagnostic(code(muon::pbesinst::global))]
    Global(Name),
    /// The data engine rejected the data specification or an expression.
    #[error("data engine: {0}")]
    #[diagnostic(code(muon::pbesinst::data))]
    Data(String),
    /// Building the BES failed (an internal invariant).
    #[error("internal error building the BES: {0}")]
    #[diagnostic(code(muon::pbesinst::internal))]
    Bes(String),
}

/// Where a BES variable came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarOrigin {
    /// Index of the PBES equation.
    pub equation: u32,
    /// The data instance (closed values of the equation's parameters).
    pub args: Vec<DataExpr>,
}

/// Statistics of an instantiation.
#[derive(Clone, Debug, Default)]
pub struct InstStats {
    /// BES variables for PBES instances.
    pub instances: usize,
    /// Auxiliary BES variables (flattened nested right-hand sides).
    pub auxiliary: usize,
    /// Variables decided by constant propagation during instantiation.
    pub decided: usize,
    /// Time spent, in seconds.
    pub seconds: f64,
}

/// A finite proof of a value decided by constant propagation. From `init`, each decided
/// variable's value follows from its `succ`: from any one of them where `decisive` (a
/// conjunction decided false, a disjunction decided true), from all of them otherwise.
/// Every one of them was decided before it (`order`), so every path ends in a constant.
#[derive(Debug, Clone)]
pub struct Justification {
    /// The initial BES variable.
    pub init: u32,
    /// Per BES variable: whether one of `succ` suffices.
    pub decisive: Vec<bool>,
    /// Per BES variable: the variables its value may follow from.
    pub succ: Vec<Vec<u32>>,
    /// Per BES variable: when it was decided (`u32::MAX` if never).
    pub order: Vec<u32>,
}

impl Justification {
    pub(crate) fn new(
        init: u32,
        (decisive, succ, order): (Vec<bool>, Vec<Vec<u32>>, Vec<u32>),
    ) -> Self {
        Justification {
            init,
            decisive,
            succ,
            order,
        }
    }

    /// A proof whose longest-needed path is shortest: per variable the successors it keeps
    /// (at decisive variables the one with the fewest `cost`s to a constant, at the others
    /// all). `cost(v)` is what entering `v` costs (1 for an evidence step, else 0).
    pub fn shortest(&self, cost: &dyn Fn(u32) -> u32) -> Vec<Vec<u32>> {
        let n = self.succ.len();
        let mut by_order: Vec<u32> = (0..n as u32)
            .filter(|&x| self.order[x as usize] != u32::MAX)
            .collect();
        by_order.sort_unstable_by_key(|&x| self.order[x as usize]);
        // Distance to a constant along the cheapest path; successors are decided earlier,
        // so one pass in decision order suffices.
        let mut dist = vec![u32::MAX; n];
        let mut kept = vec![Vec::new(); n];
        for &x in &by_order {
            let s = &self.succ[x as usize];
            let best = s
                .iter()
                .copied()
                .filter(|&y| dist[y as usize] != u32::MAX)
                .min_by_key(|&y| dist[y as usize].saturating_add(cost(y)));
            dist[x as usize] = match best {
                Some(y) => dist[y as usize].saturating_add(cost(y)),
                None => 0,
            };
            kept[x as usize] = if self.decisive[x as usize] {
                best.into_iter().collect()
            } else {
                s.clone()
            };
        }
        kept
    }
}

/// The result of [`instantiate`].
#[derive(Debug)]
pub struct Instantiation {
    /// The BES (`None` when instantiation stopped early because the initial variable was
    /// decided: then [`Instantiation::decided`] holds the answer).
    pub bes: Option<Bes>,
    /// The value of the initial variable if constant propagation decided it.
    pub decided: Option<bool>,
    /// Per BES variable: its origin (`None` for auxiliary variables); empty unless kept
    /// ([`InstOptions::keep_origins`]).
    pub origin: Vec<Option<VarOrigin>>,
    /// Per BES variable: its value, when decided by constant propagation.
    pub value: Vec<Option<bool>>,
    /// When origins are kept and constant propagation decided the initial variable: the
    /// finite proof of its value ([`Justification`]), so evidence needs no full BES.
    pub justification: Option<Justification>,
    /// Statistics.
    pub stats: InstStats,
}

struct Inst<'a> {
    pbes: &'a Pbes,
    data: &'a dyn InstData,
    opts: &'a InstOptions,
    rank: Vec<u32>,
    eq_index: FxHashMap<Name, u32>,
    globals: Subst,
    ids: FxHashMap<(u32, Vec<DataExpr>), u32>,
    origin: Vec<Option<VarOrigin>>,
    g: Graph,
    queue: VecDeque<u32>,
    enum_cache: FxHashMap<Sort, Result<Vec<DataExpr>, String>>,
    current: Name,
}

/// mCRL2 ranks of the equations: 0 for a leading `nu` block (else 1), +1 at each change.
pub fn equation_ranks(pbes: &Pbes) -> Vec<u32> {
    let mut out = Vec::with_capacity(pbes.equations.len());
    let mut rank = 0u32;
    let mut prev: Option<Fixpoint> = None;
    for e in &pbes.equations {
        match prev {
            None => rank = if e.fixpoint == Fixpoint::Nu { 0 } else { 1 },
            Some(p) if p != e.fixpoint => rank += 1,
            _ => {}
        }
        prev = Some(e.fixpoint);
        out.push(rank);
    }
    out
}

/// Instantiates `pbes` from its initial instance (see the module docs).
pub fn instantiate(
    pbes: &Pbes,
    data: &dyn InstData,
    opts: &InstOptions,
) -> Result<Instantiation, InstError> {
    let started = Instant::now();
    let mut globals = Subst::new();
    for g in &pbes.globals {
        let v =
            default_value(&g.sort, &pbes.data).ok_or_else(|| InstError::Global(g.name.clone()))?;
        globals.insert(g.clone(), v);
    }
    let mut inst = Inst {
        pbes,
        data,
        opts,
        rank: equation_ranks(pbes),
        eq_index: pbes
            .equations
            .iter()
            .enumerate()
            .map(|(i, e)| (e.var.name.clone(), i as u32))
            .collect(),
        globals,
        ids: FxHashMap::default(),
        origin: Vec::new(),
        g: Graph::new(opts.max_vars),
        queue: VecDeque::new(),
        enum_cache: FxHashMap::default(),
        current: pbes.init.name.clone(),
    };
    let init_args: Vec<DataExpr> = pbes
        .init
        .args
        .iter()
        .map(|a| inst.data.simplify(&substitute(a, &inst.globals)))
        .collect();
    let init = inst.var_of(&pbes.init.name, init_args)?;
    while let Some(x) = inst.queue.pop_front() {
        if opts.stop_when_decided && inst.g.value[init as usize].is_some() {
            break;
        }
        inst.expand(x)?;
    }
    let decided = inst.g.value[init as usize];
    let stats = InstStats {
        instances: inst.origin.len() - inst.g.aux_count,
        auxiliary: inst.g.aux_count,
        decided: inst.g.decided_count,
        seconds: 0.0,
    };
    let complete = inst.queue.is_empty() && inst.g.is_complete();
    let bes = if complete {
        Some(inst.build(init)?)
    } else {
        None
    };
    let mut stats = stats;
    stats.seconds = started.elapsed().as_secs_f64();
    Ok(Instantiation {
        bes,
        decided,
        origin: inst.origin,
        justification: (opts.keep_origins && decided.is_some())
            .then(|| Justification::new(init, inst.g.justification())),
        value: inst.g.value,
        stats,
    })
}

impl Inst<'_> {
    fn new_var(&mut self, rank: u32, origin: Option<VarOrigin>) -> Result<u32, InstError> {
        let id = self.g.new_var(rank)?;
        self.origin.push(origin);
        Ok(id)
    }

    /// The BES variable of instance `name(args)` (closed, rewritten arguments).
    fn var_of(&mut self, name: &Name, args: Vec<DataExpr>) -> Result<u32, InstError> {
        let eq = *self
            .eq_index
            .get(name)
            .ok_or_else(|| InstError::UnknownVariable(name.clone()))?;
        if self.pbes.equations[eq as usize].var.params.len() != args.len() {
            return Err(InstError::UnknownVariable(name.clone()));
        }
        let key = (eq, args);
        if let Some(&id) = self.ids.get(&key) {
            return Ok(id);
        }
        let id = self.new_var(
            self.rank[eq as usize],
            Some(VarOrigin {
                equation: eq,
                args: key.1.clone(),
            }),
        )?;
        self.ids.insert(key, id);
        self.queue.push_back(id);
        Ok(id)
    }

    fn expand(&mut self, x: u32) -> Result<(), InstError> {
        let Some(origin) = self.origin[x as usize].clone() else {
            return Ok(());
        };
        let eq = &self.pbes.equations[origin.equation as usize];
        self.current = eq.var.name.clone();
        let mut sigma = self.globals.clone();
        for (p, v) in eq.var.params.iter().zip(origin.args) {
            sigma.insert(p.clone(), v);
        }
        let b = self.eval(&eq.rhs, &sigma, true)?;
        self.define(x, b)
    }

    fn define(&mut self, x: u32, b: B) -> Result<(), InstError> {
        let origin = &mut self.origin;
        self.g.define(x, b, &mut |_| origin.push(None))
    }

    fn rewrite_bool(&self, d: &DataExpr, sigma: &Subst) -> Result<bool, InstError> {
        let r = self.data.simplify(&substitute(d, sigma));
        if is_true(&r) {
            Ok(true)
        } else if is_false(&r) {
            Ok(false)
        } else {
            Err(InstError::Undecided {
                equation: self.current.clone(),
                expr: show(&r),
            })
        }
    }

    /// Evaluates `e` under `sigma`; `positive` is false under a negation (where only
    /// variable-free subexpressions are allowed).
    fn eval(&mut self, e: &PbesExpr, sigma: &Subst, positive: bool) -> Result<B, InstError> {
        Ok(match e {
            PbesExpr::True => B::T,
            PbesExpr::False => B::F,
            PbesExpr::Data(d) => {
                if self.rewrite_bool(d, sigma)? {
                    B::T
                } else {
                    B::F
                }
            }
            PbesExpr::Not(a) => match self.eval(a, sigma, false)? {
                B::T => B::F,
                B::F => B::T,
                _ => return Err(InstError::NotPositive(self.current.clone())),
            },
            PbesExpr::And(a, b) => {
                let x = self.eval(a, sigma, positive)?;
                if matches!(x, B::F) {
                    return Ok(B::F);
                }
                b_and(x, self.eval(b, sigma, positive)?)
            }
            PbesExpr::Or(a, b) => {
                let x = self.eval(a, sigma, positive)?;
                if matches!(x, B::T) {
                    return Ok(B::T);
                }
                b_or(x, self.eval(b, sigma, positive)?)
            }
            PbesExpr::Imp(a, b) => match self.eval(a, sigma, false)? {
                B::F => B::T,
                B::T => self.eval(b, sigma, positive)?,
                _ => return Err(InstError::NotPositive(self.current.clone())),
            },
            PbesExpr::Forall(vs, a) => self.quantifier(true, vs, a, sigma, positive)?,
            PbesExpr::Exists(vs, a) => self.quantifier(false, vs, a, sigma, positive)?,
            PbesExpr::PropVar(x) => {
                if !positive {
                    return Err(InstError::NotPositive(self.current.clone()));
                }
                let mut args = Vec::with_capacity(x.args.len());
                for a in &x.args {
                    let r = self.data.simplify(&substitute(a, sigma));
                    if !is_closed(&r) {
                        return Err(InstError::OpenArgument {
                            equation: self.current.clone(),
                            target: x.name.clone(),
                            expr: show(&r),
                        });
                    }
                    args.push(r);
                }
                let id = self.var_of(&x.name, args)?;
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

    fn quantifier(
        &mut self,
        forall: bool,
        vs: &[Var],
        body: &PbesExpr,
        sigma: &Subst,
        positive: bool,
    ) -> Result<B, InstError> {
        // Only variables that occur matter (sorts are non-empty).
        let mut fv = Vec::new();
        pbes_free_vars_into(body, &mut Vec::new(), &mut fv);
        let vs: Vec<Var> = vs.iter().filter(|v| fv.contains(v)).cloned().collect();
        if vs.is_empty() {
            return self.eval(body, sigma, positive);
        }
        let mentions = |e: &PbesExpr| {
            let mut f = Vec::new();
            pbes_free_vars_into(e, &mut Vec::new(), &mut f);
            f.iter().any(|v| vs.contains(v))
        };
        // Miniscoping: merge nested quantifiers of the same kind, distribute over the
        // matching connective, and move subformulas without the variables out.
        match (body, forall) {
            (PbesExpr::Forall(inner, b), true) | (PbesExpr::Exists(inner, b), false) => {
                let mut all = vs.clone();
                all.extend(inner.iter().filter(|v| !vs.contains(v)).cloned());
                return self.quantifier(forall, &all, b, sigma, positive);
            }
            (PbesExpr::And(a, b), true) => {
                let x = self.quantifier(true, &vs, a, sigma, positive)?;
                if matches!(x, B::F) {
                    return Ok(B::F);
                }
                return Ok(b_and(x, self.quantifier(true, &vs, b, sigma, positive)?));
            }
            (PbesExpr::Or(a, b), false) => {
                let x = self.quantifier(false, &vs, a, sigma, positive)?;
                if matches!(x, B::T) {
                    return Ok(B::T);
                }
                return Ok(b_or(x, self.quantifier(false, &vs, b, sigma, positive)?));
            }
            (PbesExpr::Or(a, b), true) | (PbesExpr::And(a, b), false)
                if !mentions(a) || !mentions(b) =>
            {
                let (outside, inside) = if !mentions(a) { (a, b) } else { (b, a) };
                let x = self.eval(outside, sigma, positive)?;
                return Ok(match (forall, x) {
                    (true, B::T) => B::T,
                    (false, B::F) => B::F,
                    (true, x) => b_or(x, self.quantifier(true, &vs, inside, sigma, positive)?),
                    (false, x) => b_and(x, self.quantifier(false, &vs, inside, sigma, positive)?),
                });
            }
            (PbesExpr::Imp(a, b), true) if !mentions(a) => {
                return match self.eval(a, sigma, false)? {
                    B::F => Ok(B::T),
                    B::T => self.quantifier(true, &vs, b, sigma, positive),
                    _ => Err(InstError::NotPositive(self.current.clone())),
                };
            }
            _ => {}
        }
        // One-point rule, symbolically: the term may mention the other bound variables.
        for (i, x) in vs.iter().enumerate() {
            if let Some(t) = one_point(forall, x, body) {
                if !free_vars(&t).contains(x) {
                    let mut one = Subst::new();
                    one.insert(x.clone(), t);
                    let body = crate::pbes::lps2pbes::substitute_pbes(body, &one);
                    let mut rest = vs.clone();
                    rest.remove(i);
                    return self.quantifier(forall, &rest, &body, sigma, positive);
                }
            }
        }
        // A finite sort: enumerate its values.
        let mut first_err = None;
        for (i, x) in vs.iter().enumerate() {
            match self.enumerate(&x.sort) {
                Ok(values) => {
                    let mut rest = vs.clone();
                    rest.remove(i);
                    let mut acc = if forall { B::T } else { B::F };
                    for v in values {
                        let mut inner = sigma.clone();
                        inner.insert(x.clone(), v);
                        let r = self.quantifier(forall, &rest, body, &inner, positive)?;
                        acc = if forall { b_and(acc, r) } else { b_or(acc, r) };
                        if matches!((&acc, forall), (B::F, true) | (B::T, false)) {
                            break;
                        }
                    }
                    return Ok(acc);
                }
                Err(reason) => {
                    if first_err.is_none() {
                        first_err = Some((x.clone(), reason));
                    }
                }
            }
        }
        // Infinite sorts: let the data engine's enumerator find the values that satisfy the
        // data guard (`forall x. g => φ`, `exists x. g && φ`, or a data-only body).
        if let Some(r) = self.guarded(forall, &vs, body, sigma, positive) {
            return r;
        }
        let (x, reason) = first_err.expect("some variable");
        Err(InstError::Quantifier {
            equation: self.current.clone(),
            var: x.name.clone(),
            sort: show_sort(&x.sort),
            reason,
        })
    }

    /// Guarded enumeration with the data engine (see [`Inst::quantifier`]); `None` when the
    /// body has no usable guard or no enumerator is available.
    fn guarded(
        &mut self,
        forall: bool,
        vs: &[Var],
        body: &PbesExpr,
        sigma: &Subst,
        positive: bool,
    ) -> Option<Result<B, InstError>> {
        // guard: the values to enumerate; rest: what must hold (forall) / be found (exists).
        let (guard, rest): (DataExpr, PbesExpr) = match (body, forall) {
            (PbesExpr::Imp(a, b), true) => (to_data(a)?, (**b).clone()),
            (PbesExpr::Or(a, b), true) => match (to_data(a), to_data(b)) {
                (Some(g), _) => (crate::data::ir_ops::not(g), (**b).clone()),
                (None, Some(g)) => (crate::data::ir_ops::not(g), (**a).clone()),
                _ => return None,
            },
            (PbesExpr::And(a, b), false) => match (to_data(a), to_data(b)) {
                (Some(g), _) => (g, (**b).clone()),
                (None, Some(g)) => (g, (**a).clone()),
                _ => return None,
            },
            (other, true) => (crate::data::ir_ops::not(to_data(other)?), PbesExpr::False),
            (other, false) => (to_data(other)?, PbesExpr::True),
        };
        let guard = substitute(&guard, sigma);
        let gv = free_vars(&guard);
        let evars: Vec<Var> = vs.iter().filter(|v| gv.contains(v)).cloned().collect();
        if evars.is_empty() {
            return None;
        }
        let sols = match self
            .data
            .solutions(&evars, &guard, self.opts.max_enumeration)?
        {
            Ok(s) => s,
            Err(reason) => {
                return Some(Err(InstError::Quantifier {
                    equation: self.current.clone(),
                    var: evars[0].name.clone(),
                    sort: show_sort(&evars[0].sort),
                    reason,
                }))
            }
        };
        let remaining: Vec<Var> = vs.iter().filter(|v| !evars.contains(v)).cloned().collect();
        let mut acc = if forall { B::T } else { B::F };
        for (values, residual) in sols {
            if !is_true(&residual) {
                return Some(Err(InstError::Undecided {
                    equation: self.current.clone(),
                    expr: show(&residual),
                }));
            }
            let mut inner = sigma.clone();
            for (v, val) in evars.iter().zip(values) {
                inner.insert(v.clone(), val);
            }
            let r = match self.quantifier(forall, &remaining, &rest, &inner, positive) {
                Ok(r) => r,
                Err(e) => return Some(Err(e)),
            };
            acc = if forall { b_and(acc, r) } else { b_or(acc, r) };
            if matches!((&acc, forall), (B::F, true) | (B::T, false)) {
                break;
            }
        }
        Some(Ok(acc))
    }

    /// All values of a finite sort (cached).
    fn enumerate(&mut self, sort: &Sort) -> Result<Vec<DataExpr>, String> {
        if let Some(r) = self.enum_cache.get(sort) {
            return r.clone();
        }
        let r = enumerate_sort(sort, &self.pbes.data, self.opts.max_enumeration, 0);
        self.enum_cache.insert(sort.clone(), r.clone());
        r
    }

    fn build(&self, init: u32) -> Result<Bes, InstError> {
        let name = |i: usize| match &self.origin[i] {
            Some(o) => format!("{}_{i}", self.pbes.equations[o.equation as usize].var.name),
            None => format!("aux_{i}"),
        };
        self.g.build(init, &name)
    }
}

/// The values of a finite sort: `Bool`, and user sorts whose constructors have finite
/// argument sorts (non-recursive).
pub fn enumerate_sort(
    sort: &Sort,
    data: &DataSpec,
    limit: usize,
    depth: usize,
) -> Result<Vec<DataExpr>, String> {
    if depth > 16 {
        return Err("the sort is recursive, so it has infinitely many values".into());
    }
    match sort {
        Sort::Bool => Ok(vec![
            crate::data::ir_ops::false_(),
            crate::data::ir_ops::true_(),
        ]),
        Sort::Named(n) => {
            let conss = data.constructors_of(sort);
            if conss.is_empty() {
                let basic = matches!(
                    data.sort_decl(n).map(|d| &d.def),
                    Some(SortDef::Basic) | None
                );
                return Err(if basic {
                    "the sort has no constructors".into()
                } else {
                    "the sort has no values".into()
                });
            }
            let mut out = Vec::new();
            for c in conss {
                let dom = c.sort.domain().to_vec();
                if dom.is_empty() {
                    out.push(DataExpr::Func(c));
                    continue;
                }
                let mut combos: Vec<Vec<DataExpr>> = vec![Vec::new()];
                for s in &dom {
                    if s == sort {
                        return Err(
                            "the sort is recursive, so it has infinitely many values".into()
                        );
                    }
                    let vals = enumerate_sort(s, data, limit, depth + 1)?;
                    let mut next = Vec::new();
                    for c in &combos {
                        for v in &vals {
                            let mut c = c.clone();
                            c.push(v.clone());
                            next.push(c);
                            if next.len() > limit {
                                return Err(format!("it has more than {limit} values"));
                            }
                        }
                    }
                    combos = next;
                }
                for args in combos {
                    out.push(DataExpr::App {
                        head: Box::new(DataExpr::Func(c.clone())),
                        args,
                    });
                }
                if out.len() > limit {
                    return Err(format!("it has more than {limit} values"));
                }
            }
            Ok(out)
        }
        Sort::Pos | Sort::Nat | Sort::Int | Sort::Real => {
            Err("the sort has infinitely many values".into())
        }
        _ => Err("enumerating values of this sort is not supported".into()),
    }
}

/// A PBES expression without propositional variables as a Boolean data expression.
fn to_data(e: &PbesExpr) -> Option<DataExpr> {
    use crate::data::ir_ops as d;
    Some(match e {
        PbesExpr::True => d::true_(),
        PbesExpr::False => d::false_(),
        PbesExpr::Data(x) => x.clone(),
        PbesExpr::Not(a) => d::not(to_data(a)?),
        PbesExpr::And(a, b) => d::and(to_data(a)?, to_data(b)?),
        PbesExpr::Or(a, b) => d::or(to_data(a)?, to_data(b)?),
        PbesExpr::Imp(a, b) => d::or(d::not(to_data(a)?), to_data(b)?),
        PbesExpr::Forall(vs, a) | PbesExpr::Exists(vs, a) => DataExpr::Binder {
            kind: if matches!(e, PbesExpr::Forall(..)) {
                crate::data::ir::Binder::Forall
            } else {
                crate::data::ir::Binder::Exists
            },
            vars: vs.clone(),
            body: Box::new(to_data(a)?),
        },
        PbesExpr::PropVar(_) => return None,
    })
}

/// For `exists x. … && x == t && …` (or `forall x. (… && x == t) => …`, or
/// `forall x. x != t || …`): the term `t`.
fn one_point(forall: bool, x: &Var, body: &PbesExpr) -> Option<DataExpr> {
    let mut found = None;
    if forall {
        match body {
            PbesExpr::Imp(lhs, _) => pbes_conjuncts(lhs, &mut |d| {
                if found.is_none() {
                    found = equality_for(x, d);
                }
            }),
            PbesExpr::Or(..) | PbesExpr::Data(_) => pbes_disjuncts(body, &mut |d| {
                if found.is_none() {
                    found = disequality_for(x, d);
                }
            }),
            _ => {}
        }
    } else {
        pbes_conjuncts(body, &mut |d| {
            if found.is_none() {
                found = equality_for(x, d);
            }
        });
    }
    found
}

fn pbes_conjuncts(e: &PbesExpr, f: &mut dyn FnMut(&DataExpr)) {
    match e {
        PbesExpr::And(a, b) => {
            pbes_conjuncts(a, f);
            pbes_conjuncts(b, f);
        }
        PbesExpr::Data(d) => {
            for c in conjuncts(d) {
                f(&c);
            }
        }
        _ => {}
    }
}

fn pbes_disjuncts(e: &PbesExpr, f: &mut dyn FnMut(&DataExpr)) {
    match e {
        PbesExpr::Or(a, b) => {
            pbes_disjuncts(a, f);
            pbes_disjuncts(b, f);
        }
        PbesExpr::Data(d) => {
            let mut stack = vec![d.clone()];
            while let Some(d) = stack.pop() {
                match as_app(&d) {
                    Some(("||", [a, b])) => {
                        stack.push(a.clone());
                        stack.push(b.clone());
                    }
                    _ => f(&d),
                }
            }
        }
        _ => {}
    }
}

/// `t` when `d` is `x == t` or `t == x`.
fn equality_for(x: &Var, d: &DataExpr) -> Option<DataExpr> {
    match as_app(d) {
        Some(("==", [a, b])) => match (a, b) {
            (DataExpr::Var(v), t) if v == x => Some(t.clone()),
            (t, DataExpr::Var(v)) if v == x => Some(t.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// `t` when `d` is `x != t`, `t != x` or `!(x == t)`.
fn disequality_for(x: &Var, d: &DataExpr) -> Option<DataExpr> {
    match as_app(d) {
        Some(("!=", [a, b])) => match (a, b) {
            (DataExpr::Var(v), t) if v == x => Some(t.clone()),
            (t, DataExpr::Var(v)) if v == x => Some(t.clone()),
            _ => None,
        },
        Some(("!", [inner])) => equality_for(x, inner),
        _ => None,
    }
}

/// A short printed form of a data expression for error messages.
pub fn show(e: &DataExpr) -> String {
    match e {
        DataExpr::Var(v) => v.name.to_string(),
        DataExpr::Func(f) => f.name.to_string(),
        DataExpr::Number { value, .. } => value.to_string(),
        DataExpr::App { head, args } => {
            let h = show(head);
            let a: Vec<String> = args.iter().map(show).collect();
            let infix = matches!(
                &*h,
                "==" | "!="
                    | "<"
                    | "<="
                    | ">"
                    | ">="
                    | "+"
                    | "-"
                    | "*"
                    | "&&"
                    | "||"
                    | "=>"
                    | "div"
                    | "mod"
                    | "in"
                    | "|>"
                    | "<|"
                    | "++"
            );
            if infix && a.len() == 2 {
                format!("({} {h} {})", a[0], a[1])
            } else {
                format!("{h}({})", a.join(", "))
            }
        }
        DataExpr::ListEnum { elems, .. } => {
            format!(
                "[{}]",
                elems.iter().map(show).collect::<Vec<_>>().join(", ")
            )
        }
        DataExpr::SetEnum { elems, .. } => {
            format!(
                "{{{}}}",
                elems.iter().map(show).collect::<Vec<_>>().join(", ")
            )
        }
        other => format!("{other:?}"),
    }
}

/// A printed sort.
pub fn show_sort(s: &Sort) -> String {
    match s {
        Sort::Bool => "Bool".into(),
        Sort::Pos => "Pos".into(),
        Sort::Nat => "Nat".into(),
        Sort::Int => "Int".into(),
        Sort::Real => "Real".into(),
        Sort::List(x) => format!("List({})", show_sort(x)),
        Sort::Set(x) => format!("Set({})", show_sort(x)),
        Sort::FSet(x) => format!("FSet({})", show_sort(x)),
        Sort::Bag(x) => format!("Bag({})", show_sort(x)),
        Sort::FBag(x) => format!("FBag({})", show_sort(x)),
        Sort::Arrow(d, c) => format!(
            "{} -> {}",
            d.iter().map(show_sort).collect::<Vec<_>>().join(" # "),
            show_sort(c)
        ),
        Sort::Named(n) => n.to_string(),
    }
}
