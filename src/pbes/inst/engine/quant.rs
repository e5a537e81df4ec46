//! Quantifier elimination: plans computed once per quantifier node (which bound variables
//! occur, the structural case, the one-point substitution, distribution branches, the guard),
//! and their evaluation under an instance's values by enumeration, guards or instances in
//! order.

use super::*;

/// Plans of the quantifiers over one body node: the node itself (held, so that its address
/// stays its own while the cache lives), then per list of bound variables its plan.
pub(super) struct PlanEntry {
    body: Rc<T>,
    plans: Vec<(Vec<VarId>, Rc<QPlan>)>,
}

/// The part of eliminating `forall vs. body` (or `exists`) that depends on the quantifier
/// alone, not on the instance's data values: done once per quantifier node instead of once
/// per BES variable.
pub(super) struct QPlan {
    /// The variables of `vs` that occur in the body.
    vs: Vec<VarId>,
    /// The variables of a directly nested quantifier of the same kind, merged in.
    merged: Vec<VarId>,
    /// For `forall x. a || b` (`exists x. a && b`): whether `a` is the side without `vs`
    /// (`Some(true)`), `b` (`Some(false)`), or both mention them (`None`).
    outside_a: Option<bool>,
    /// With `outside_a`: evaluate the quantified side first, because it has no
    /// propositional variables and the other side has (see [`data_first`]).
    inside_first: bool,
    /// For `forall x. a => b`: whether `a` mentions none of `vs`.
    imp_outside: bool,
    /// The one-point rule: the remaining variables and the substituted body.
    one_point: Option<(Vec<VarId>, Rc<T>)>,
    /// Quantifier distribution (see [`Eng::distribute`]).
    dist: Option<Vec<Branch>>,
    /// The guard (already negated for `forall`) and the rest (see [`Eng::guarded`]).
    guard: Option<(TermId, Rc<T>)>,
    /// The body as a data term, when it has no propositional variables or quantifiers.
    term: Option<TermId>,
    /// Enumerate with the guard before trying every value of every variable: set when the
    /// variables have more than [`GUARD_FIRST_COMBINATIONS`] value combinations (the Boolean
    /// selectors of a clustered summand), or one of them has a sort whose values cannot be
    /// listed (a `Nat` the guard bounds beside the selectors). Trying every value of the
    /// finite ones first costs 2^k instances, each a miss of the guard memo (its key holds
    /// the values chosen so far), where the guard prunes at the first `false`.
    guard_first: bool,
}

/// See [`QPlan::guard_first`].
const GUARD_FIRST_COMBINATIONS: usize = 16;

/// One branch of a distributed quantifier: its variables, the data parts of its core that
/// decide it cheaply, and its body.
pub(super) struct Branch {
    all: Vec<VarId>,
    checks: Vec<T>,
    body: Rc<T>,
}

/// The running value of a quantifier over its instances: the conjunction (`forall`) or
/// disjunction of the instances so far, and the first stuck instance, which is an error
/// only if no later instance decides the quantifier.
pub(super) struct Acc {
    forall: bool,
    value: B,
    stuck: Option<InstError>,
}

impl Acc {
    pub(super) fn new(forall: bool) -> Acc {
        Acc {
            forall,
            value: if forall { B::T } else { B::F },
            stuck: None,
        }
    }

    /// Adds an instance; `Ok(true)` when the quantifier is decided.
    pub(super) fn add(&mut self, r: Result<B, InstError>) -> Result<bool, InstError> {
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
    pub(super) fn decided(&self) -> bool {
        decides(&self.value, self.forall)
    }

    pub(super) fn finish(self) -> Result<B, InstError> {
        match self.stuck {
            Some(e) if !self.decided() => Err(e),
            _ => Ok(self.value),
        }
    }
}

/// Instances tried by [`Eng::lazy_term`] for one quantifier before giving up.
pub(super) const LAZY_BUDGET: usize = 10_000;

impl Eng<'_> {
    /// The plan of `forall vs. body` (`exists`), computed on first use (see [`QPlan`]).
    pub(super) fn plan(&mut self, forall: bool, vs: &[VarId], body: &Rc<T>) -> Rc<QPlan> {
        let key = (Rc::as_ptr(body) as usize, forall);
        if let Some(entry) = self.plans.get(&key) {
            debug_assert!(Rc::ptr_eq(&entry.body, body));
            if let Some((_, p)) = entry.plans.iter().find(|(k, _)| k.as_slice() == vs) {
                return p.clone();
            }
        }
        let p = Rc::new(self.make_plan(forall, vs, body));
        self.plans
            .entry(key)
            .or_insert_with(|| PlanEntry {
                body: body.clone(),
                plans: Vec::new(),
            })
            .plans
            .push((vs.to_vec(), p.clone()));
        p
    }

    pub(super) fn make_plan(&mut self, forall: bool, vs: &[VarId], body: &T) -> QPlan {
        let vs: Vec<VarId> = vs
            .iter()
            .filter(|v| self.mentions(body, std::slice::from_ref(v)))
            .copied()
            .collect();
        let mut plan = QPlan {
            vs: Vec::new(),
            merged: Vec::new(),
            outside_a: None,
            inside_first: false,
            imp_outside: false,
            one_point: None,
            dist: None,
            guard: None,
            term: None,
            guard_first: false,
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
                if let Some(a_outside) = plan.outside_a {
                    let (outside, inside) = if a_outside { (a, b) } else { (b, a) };
                    plan.inside_first = has_prop(outside) && !has_prop(inside);
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
                plan.one_point = Some((rest, Rc::new(nb)));
                plan.vs = vs;
                return plan;
            }
        }
        plan.dist = self.distribute_plan(forall, &vs, body);
        plan.guard = self.guard_plan(forall, body);
        if plan.guard.is_some() {
            let mut combos = 1usize;
            for x in &vs {
                let sort = self.rw.store().var_of(*x).sort.clone();
                combos = match self.enumerate(&sort) {
                    Ok(values) => combos.saturating_mul(values.len()),
                    Err(_) => usize::MAX,
                };
                if combos > GUARD_FIRST_COMBINATIONS {
                    break;
                }
            }
            plan.guard_first = combos > GUARD_FIRST_COMBINATIONS;
        }
        plan.term = self.to_term(body);
        plan.vs = vs;
        plan
    }

    pub(super) fn quantifier(
        &mut self,
        forall: bool,
        vs: &[VarId],
        body: &Rc<T>,
        sigma: &mut Vec<(VarId, TermId)>,
        positive: bool,
    ) -> Result<B, InstError> {
        let plan = self.plan(forall, vs, body);
        let vs = &plan.vs;
        if vs.is_empty() {
            return self.eval(body, sigma, positive);
        }
        match (&**body, forall) {
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
                if plan.inside_first {
                    let x = self.quantifier(forall, vs, inside, sigma, positive);
                    return self.join(!forall, x, |eng| eng.eval(outside, sigma, positive));
                }
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
        if plan.guard_first {
            if let Some((guard, rest)) = &plan.guard {
                match self.guarded(forall, vs, *guard, rest, sigma, positive) {
                    Some(Err(InstError::Quantifier { .. })) | None => {}
                    Some(r) => return r,
                }
            }
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
}

impl Eng<'_> {
    /// Quantifier distribution for the one-point rule: `exists x. (D1 || … || Dn) && R`
    /// becomes `(exists x. D1 && R) || … || (exists x. Dn && R)` when every `Di` fixes `x`
    /// by an equation `x == ti` (after pulling its own `exists` out), so that each branch
    /// loses `x` by the one-point rule; dually `forall x. (C1 && … && Cn) || R` when every
    /// `Ci` has a disjunct `x != ti`. This is how a quantifier over an infinite sort guarded
    /// by a modality (`forall a. <label(a)>true => φ`) is eliminated: the modality is the
    /// disjunction of the transitions' `a == label`.
    pub(super) fn distribute_plan(
        &self,
        forall: bool,
        vs: &[VarId],
        body: &T,
    ) -> Option<Vec<Branch>> {
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
                        Some(r) if conj => T::And(Rc::new(r), Rc::new(p)),
                        Some(r) => T::Or(Rc::new(r), Rc::new(p)),
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
                        Some(r) if conj => T::And(Rc::new(core), Rc::new(r.clone())),
                        Some(r) => T::Or(Rc::new(core), Rc::new(r.clone())),
                    };
                    Branch {
                        all,
                        checks,
                        body: Rc::new(body),
                    }
                })
                .collect();
            return Some(branches);
        }
        None
    }

    /// Evaluates a distributed quantifier's branches (planned by [`Eng::distribute_plan`]).
    pub(super) fn distribute(
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
    pub(super) fn lazy_term(
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
    pub(super) fn comparison_constants(
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
}

impl Eng<'_> {
    /// `t` with `x == t` a conjunct (exists, or the premise of a forall's implication) or
    /// `x != t` a disjunct (forall).
    pub(super) fn one_point(&self, forall: bool, x: VarId, body: &T) -> Option<TermId> {
        let store = self.rw.store();
        let xt = store.var(x);
        let eq_of = |t: TermId| -> Option<TermId> {
            match self.app(t) {
                Some(("==", [a, b])) if *a == xt => Some(*b),
                Some(("==", [a, b])) if *b == xt => Some(*a),
                _ => None,
            }
        };
        let (mut parts, mut bound) = (Vec::new(), Vec::new());
        let found = if forall {
            match body {
                T::Imp(lhs, _) => {
                    self.parts(lhs, true, x, &mut parts, &mut bound);
                    parts.into_iter().filter_map(eq_of).collect::<Vec<_>>()
                }
                _ => {
                    self.parts(body, false, x, &mut parts, &mut bound);
                    parts
                        .into_iter()
                        .filter_map(|t| match self.app(t) {
                            Some(("!=", [a, b])) if *a == xt => Some(*b),
                            Some(("!=", [a, b])) if *b == xt => Some(*a),
                            Some(("!", [inner])) => eq_of(*inner),
                            _ => None,
                        })
                        .collect()
                }
            }
        } else {
            self.parts(body, true, x, &mut parts, &mut bound);
            parts.into_iter().filter_map(eq_of).collect()
        };
        // A value that mentions a variable bound inside the body names nothing outside it.
        found
            .into_iter()
            .find(|t| bound.iter().all(|v| !store.occurs_free(*v, *t)))
    }

    pub(super) fn enumerate(&mut self, sort: &Sort) -> Result<Vec<TermId>, String> {
        if let Some(r) = self.enum_cache.get(sort) {
            return r.clone();
        }
        let r = (self.rw.sort_values(sort, self.opts.max_enumeration))
            .map(|vals| vals.to_vec())
            .map_err(|e| e.to_string());
        self.enum_cache.insert(sort.clone(), r.clone());
        r
    }

    /// `!t` with the negation pushed through `!`, `&&` and `||` (the enumerator narrows
    /// conjunctions of bounds, not negated disjunctions).
    pub(super) fn negate_term(&self, t: TermId) -> TermId {
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
    pub(super) fn to_term(&self, e: &T) -> Option<TermId> {
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
    pub(super) fn guard_plan(&self, forall: bool, body: &T) -> Option<(TermId, Rc<T>)> {
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
                        Some(r) if forall => T::Or(Rc::new(r), Rc::new(p)),
                        Some(r) => T::And(Rc::new(r), Rc::new(p)),
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
        Some((guard, Rc::new(rest)))
    }

    /// Guarded enumeration with the data engine's enumerator, for the guard and rest
    /// planned by [`Eng::guard_plan`].
    pub(super) fn guarded(
        &mut self,
        forall: bool,
        vs: &[VarId],
        guard: TermId,
        rest: &Rc<T>,
        sigma: &mut Vec<(VarId, TermId)>,
        positive: bool,
    ) -> Option<Result<B, InstError>> {
        let case = self.enumerate_guard(vs, guard, sigma);
        let (evars, found) = match &*case {
            GuardSolutions::Unguarded => return None,
            GuardSolutions::Failed(var, reason) => {
                let v = self.rw.store().var_of(*var).clone();
                return Some(Err(InstError::Quantifier {
                    equation: self.eq_name(),
                    var: v.name,
                    sort: show_sort(&v.sort),
                    reason: reason.clone(),
                }));
            }
            GuardSolutions::Found { evars, found } => (evars, found),
        };
        let remaining: Vec<VarId> = vs.iter().filter(|v| !evars.contains(v)).copied().collect();
        let mut acc = Acc::new(forall);
        for (values, residual) in found.iter() {
            let residual = *residual;
            let r = if residual != self.tt {
                // A stuck guard instance: only an error if no other instance decides.
                Err(InstError::Undecided {
                    equation: self.eq_name(),
                    expr: self.rw.show(residual),
                })
            } else {
                let n = sigma.len();
                sigma.extend(evars.iter().copied().zip(values.iter().copied()));
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

/// The solutions of a quantifier's guard under one instance (see [`Eng::enumerate_guard`]),
/// shared by the memo and its users.
pub(super) type GuardCase = Rc<GuardSolutions>;

/// What enumerating a guard gave.
pub(super) enum GuardSolutions {
    /// No quantified variable occurs in the guard: it does not restrict the quantifier.
    Unguarded,
    /// The enumerator failed on this variable, or found too many values (the reason).
    Failed(VarId, String),
    /// The guard's quantified variables and, per solution, their values and the residual
    /// guard (`true` unless the guard got stuck on that solution).
    Found {
        evars: Vec<VarId>,
        found: Vec<(Box<[TermId]>, TermId)>,
    },
}

impl Eng<'_> {
    /// Enumerates `guard` over the variables `vs` it mentions under `sigma`, memoised by the
    /// values of the guard's other free variables: the solutions are a function of the guard
    /// and those values alone (the enumerator is deterministic), and an LPS's guards read
    /// few parameters whose values recur across instances. Only those variables are
    /// substituted, not the whole instance.
    fn enumerate_guard(
        &mut self,
        vs: &[VarId],
        guard: TermId,
        sigma: &[(VarId, TermId)],
    ) -> GuardCase {
        let (start, len) = self.free_vars_of(guard);
        // The key is built in a scratch buffer: this runs once per quantifier and instance,
        // and almost always hits.
        let mut key = std::mem::take(&mut self.memo_key);
        key.clear();
        key.push(guard.0);
        key.extend(vs.iter().map(|v| v.0));
        key.push(u32::MAX);
        for k in start..start + len {
            let v = self.fv_arena[k as usize];
            if vs.contains(&v) {
                key.push(u32::MAX - 1);
            } else if let Some(val) = self.lookup(v, sigma) {
                key.push(val.0);
            } else {
                key.push(u32::MAX);
            }
        }
        if let Some(case) = self.guard_memo.get(key.as_slice()) {
            let case = case.clone();
            self.memo_key = key;
            return case;
        }
        // A miss: bind the guard's free variables (their values are in the key).
        let mut sub = Substitution::default();
        let offset = 2 + vs.len();
        for k in 0..len as usize {
            let val = key[offset + k];
            if val < u32::MAX - 1 {
                sub.insert(self.fv_arena[start as usize + k], TermId(val));
            }
        }
        let case = Rc::new(self.solve_guard(vs, guard, &sub));
        let words = key.len()
            + match &*case {
                GuardSolutions::Found { evars, found } => {
                    evars.len() + found.len() * (evars.len() + 1)
                }
                _ => 1,
            };
        if self.guard_memo_words + words > MEMO_WORDS {
            self.guard_memo.clear();
            self.guard_memo_words = 0;
        }
        self.guard_memo_words += words;
        self.guard_memo.insert(key.as_slice().into(), case.clone());
        self.memo_key = key;
        case
    }

    /// Enumerates the guard with `sub` applied (the work [`Eng::enumerate_guard`] memoises).
    fn solve_guard(&mut self, vs: &[VarId], guard: TermId, sub: &Substitution) -> GuardSolutions {
        let guard = self.rw.substitute(guard, sub);
        let store = self.rw.store();
        let evars: Vec<VarId> = vs
            .iter()
            .filter(|v| store.occurs_free(**v, guard))
            .copied()
            .collect();
        if evars.is_empty() {
            return GuardSolutions::Unguarded;
        }
        let limit = self.opts.max_enumeration;
        let mut found: Vec<(Box<[TermId]>, TermId)> = Vec::new();
        let mut too_many = false;
        let r = self
            .rw
            .enumerator()
            .enumerate(&evars, guard, &mut |vals, residual| {
                found.push((vals.into(), residual));
                if found.len() > limit {
                    too_many = true;
                    return false;
                }
                true
            });
        if let Err(e) = r {
            return GuardSolutions::Failed(evars[0], e.to_string());
        }
        if too_many {
            return GuardSolutions::Failed(
                evars[0],
                format!("more than {limit} values satisfy the condition"),
            );
        }
        GuardSolutions::Found { evars, found }
    }
}
