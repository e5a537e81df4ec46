//! The enumerator: all values of a list of variables that make a condition true.
//!
//! Strategy (per variable, on the condition rewritten under the partial solution):
//! 1. one-point rule: a conjunct `x == e` (or `e == x`) with `x` not in `e` fixes `x := e`;
//! 2. bounds: `x < K`, `x <= K`, `K < x`, `x > K`, …, their negations, `x == K` and
//!    `x in L` with closed `K`, `L` give a finite candidate list for numbers / the elements
//!    of a closed list or set; a conjunction takes the tighter bound of its operands, a
//!    disjunction the hull of theirs (`x < 3 || (5 <= x && x <= 7)` gives `0..=7`);
//! 3. constructor expansion: `Bool`, structs and `cons` sorts are expanded constructor by
//!    constructor with fresh variables for the fields (recursive sorts stop at the budget);
//!    `Set(S)`, `FSet(S)` and function sorts over certainly finite sorts take every value of
//!    the sort ([`Rewriter::sort_values`], at most [`MAX_SORT_VALUES`] of them), as mCRL2's
//!    enumerator does;
//! 4. otherwise the variable waits until the other pending variables have values (they may
//!    bound it, or make the condition `false`); when none is bounded, the set of solutions
//!    is not known to be finite: [`EnumError::Unbounded`].
//!
//! Partial solutions whose condition rewrites to `false` are pruned as early as possible.
//! Every enumeration has a budget of candidate values ([`Rewriter::set_enum_budget`]), so it
//! never loops: exceeding it is [`EnumError::Budget`].

use num_bigint::BigInt;
use num_traits::{One, ToPrimitive};

use super::convert::Internal;
use super::finite::{SortValuesError, MAX_SORT_VALUES};
use super::ir::{Func, Sort};
use super::print::sort_to_string;
use super::rewrite::{Ctor, Kind, Op, RewriteError, RewriteErrorKind, Rewriter};
use super::store::{NumSort, Term, TermId, VarId};

/// Errors of enumeration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnumError {
    /// The variable ranges over an infinite sort and the condition does not bound it.
    #[error("cannot enumerate the values of `{var}: {sort}`: the sort is infinite and the condition `{cond}` does not bound it (add a bound such as `{var} < N`, `{var} in [...]` or `{var} == e`)")]
    Unbounded {
        /// The variable's name.
        var: String,
        /// Its sort.
        sort: String,
        /// The condition at that point.
        cond: String,
    },
    /// More candidate values than the budget allows.
    #[error("enumerating `{var}: {sort}` exceeded the budget of {budget} candidate values; the set of solutions may be infinite")]
    Budget {
        /// The variable's name.
        var: String,
        /// Its sort.
        sort: String,
        /// The budget.
        budget: usize,
    },
    /// The variable's sort is finite but has too many values to list.
    #[error("cannot enumerate the values of `{var}: {sort}`: {reason}")]
    TooMany {
        /// The variable's name.
        var: String,
        /// Its sort.
        sort: String,
        /// How many values, against which limit.
        reason: String,
    },
    /// Rewriting failed while enumerating.
    #[error("{0}")]
    Rewrite(Box<RewriteError>),
}

impl From<RewriteError> for EnumError {
    fn from(e: RewriteError) -> Self {
        match e.into_kind() {
            RewriteErrorKind::Enumeration(inner) => inner,
            other => EnumError::Rewrite(Box::new(other.into())),
        }
    }
}

/// Enumerates solutions of conditions; see the module documentation.
pub struct Enumerator<'r, 's> {
    rw: &'r mut Rewriter<'s>,
}

struct Partial {
    /// Values of the requested variables (may contain pending fresh variables).
    values: Vec<TermId>,
    /// Variables still to be given a value (requested or fresh).
    pending: Vec<VarId>,
    /// How many pending variables in a row were put last because the condition did not
    /// bound them yet; when every one was, the enumeration cannot go on.
    deferred: usize,
}

impl<'r, 's> Enumerator<'r, 's> {
    /// An enumerator over `rw` (which also supplies the budget).
    pub fn new(rw: &'r mut Rewriter<'s>) -> Enumerator<'r, 's> {
        Enumerator { rw }
    }

    /// Calls `found(values, residual)` for every assignment of normal-form `values` to `vars`
    /// under which `cond` does not rewrite to `false`; `residual` is the normal form of `cond`
    /// under the assignment (`true` when `cond` has no other free variables). `found` returns
    /// `false` to stop early. Errors when the solutions cannot be enumerated finitely.
    pub fn enumerate(
        &mut self,
        vars: &[VarId],
        cond: TermId,
        found: &mut dyn FnMut(&[TermId], TermId) -> bool,
    ) -> Result<(), EnumError> {
        let store = self.rw.store();
        let ff = store.false_term();
        let budget = self.rw.enum_budget;
        let mut used = 0usize;
        let mut stack = vec![Partial {
            values: vars.iter().map(|v| store.var(*v)).collect(),
            pending: vars.to_vec(),
            deferred: 0,
        }];
        while let Some(p) = stack.pop() {
            let sigma: Vec<(VarId, TermId)> =
                vars.iter().copied().zip(p.values.iter().copied()).collect();
            let c = self.rw.rewrite_with(cond, &sigma)?;
            if c == ff {
                continue;
            }
            let Some((&x, rest)) = p.pending.split_first() else {
                let mut vals = Vec::with_capacity(p.values.len());
                for v in &p.values {
                    vals.push(self.rw.rewrite(*v)?);
                }
                if !found(&vals, c) {
                    return Ok(());
                }
                continue;
            };
            // If x no longer matters, give it no value (keep it as is) — unless it is one of
            // the requested variables, which must get values.
            let requested = vars.contains(&x);
            if !requested
                && !store.occurs_free(x, c)
                && !p.values.iter().any(|v| store.occurs_free(x, *v))
            {
                stack.push(Partial {
                    values: p.values,
                    pending: rest.to_vec(),
                    deferred: 0,
                });
                continue;
            }
            let candidates = match self.candidates(x, c) {
                // The values of the other variables may bound x, or make the condition false
                // (`in(f(x, k), [f(1, k0)]) && k == k1`: every k is pruned, x never needs
                // values), as mCRL2's narrowing finds: x goes last, once per round.
                Err(EnumError::Unbounded { .. }) if p.deferred + 1 < p.pending.len() => {
                    let mut pending = rest.to_vec();
                    pending.push(x);
                    stack.push(Partial {
                        values: p.values,
                        pending,
                        deferred: p.deferred + 1,
                    });
                    continue;
                }
                other => other?,
            };
            let sort = store.var_of(x).sort.clone();
            used += candidates.len();
            if used > budget {
                return Err(EnumError::Budget {
                    var: display_var(&store.var_of(x).name),
                    sort: sort_to_string(&sort),
                    budget,
                });
            }
            for (value, fresh) in candidates.into_iter().rev() {
                let sub = [(x, value)];
                let values = p
                    .values
                    .iter()
                    .map(|t| super::rewrite::substitute(store, *t, &sub.iter().copied().collect()))
                    .collect();
                let mut pending = fresh;
                pending.extend_from_slice(rest);
                stack.push(Partial {
                    values,
                    pending,
                    deferred: 0,
                });
            }
        }
        Ok(())
    }

    /// Candidate values for `x` under condition `c`, each with the fresh variables it uses.
    fn candidates(&mut self, x: VarId, c: TermId) -> Result<Vec<(TermId, Vec<VarId>)>, EnumError> {
        let store = self.rw.store();
        let sort = store.var_of(x).sort.clone();
        let xt = store.var(x);
        let mut conj = Vec::new();
        self.conjuncts(c, &mut conj);
        // 1. one-point rule.
        for &a in &conj {
            if let Some((f, [l, r])) = store.as_func_app(a) {
                if self.rw.kind(f) == Kind::Op(Op::Eq) {
                    for (p, q) in [(*l, *r), (*r, *l)] {
                        if p == xt && !store.occurs_free(x, q) {
                            return Ok(vec![(q, vec![])]);
                        }
                    }
                }
            }
        }
        // 2. bounds, through conjunctions (meet), disjunctions (join) and negated
        // comparisons: each disjunct of `x < 3 || (2 < x && x <= 5)` bounds `x`.
        match self.bound(x, &sort, c, Subject::Value, 0) {
            Bound::Vals(m) => return Ok(m.into_iter().map(|t| (t, vec![])).collect()),
            Bound::Range(Some(lo), Some(hi)) => {
                if let Some(ns) = NumSort::of(&sort) {
                    let n = (&hi - &lo + 1i32).to_i64().unwrap_or(i64::MAX);
                    if n > self.rw.enum_budget as i64 {
                        return Err(EnumError::Budget {
                            var: display_var(&store.var_of(x).name),
                            sort: sort_to_string(&sort),
                            budget: self.rw.enum_budget,
                        });
                    }
                    let mut out = Vec::new();
                    let mut v = lo;
                    while v <= hi {
                        out.push((store.big_num(ns, &v), vec![]));
                        v += 1;
                    }
                    return Ok(out);
                }
            }
            _ => {}
        }
        // A list whose length the condition bounds (`#l < 4`): one candidate per length,
        // with fresh variables for the elements (enumerated in turn).
        if let Sort::List(el) = &sort {
            if let Bound::Range(lo, Some(hi)) = self.bound(x, &sort, c, Subject::Len, 0) {
                let lo = lo.unwrap_or_default().max(BigInt::from(0));
                if hi < lo {
                    return Ok(Vec::new());
                }
                let n_max = hi.to_usize().unwrap_or(usize::MAX);
                if n_max > self.rw.enum_budget {
                    return Err(EnumError::Budget {
                        var: display_var(&store.var_of(x).name),
                        sort: sort_to_string(&sort),
                        budget: self.rw.enum_budget,
                    });
                }
                let cons = Internal::cons(store, el);
                let mut out = Vec::new();
                for n in lo.to_usize().unwrap_or(0)..=n_max {
                    let fresh: Vec<VarId> = (0..n).map(|_| self.rw.fresh_var(el)).collect();
                    let mut l = Internal::nil(store, el);
                    for v in fresh.iter().rev() {
                        l = store.app(cons, &[store.var(*v), l]);
                    }
                    out.push((l, fresh));
                }
                return Ok(out);
            }
        }
        // 3. constructors.
        if sort == Sort::Bool {
            return Ok(vec![
                (store.false_term(), vec![]),
                (store.true_term(), vec![]),
            ]);
        }
        if matches!(sort, Sort::Set(_) | Sort::FSet(_) | Sort::Arrow(..)) {
            match self.rw.sort_values(&sort, MAX_SORT_VALUES) {
                Ok(vals) => return Ok(vals.iter().map(|v| (*v, vec![])).collect()),
                Err(SortValuesError::Infinite(_)) => {}
                Err(e @ SortValuesError::TooMany { .. }) => {
                    return Err(EnumError::TooMany {
                        var: display_var(&store.var_of(x).name),
                        sort: sort_to_string(&sort),
                        reason: e.to_string(),
                    })
                }
                Err(SortValuesError::Rewrite(e)) => return Err((*e).into()),
            }
        }
        if let Sort::Named(_) = sort {
            let ctors = self.rw.spec().constructors_of(&sort);
            if !ctors.is_empty() {
                let mut out = Vec::new();
                for c in ctors {
                    let fid = store.intern_func(&c);
                    let dom: Vec<Sort> = c.sort.domain().to_vec();
                    let fresh: Vec<VarId> = dom.iter().map(|s| self.rw.fresh_var(s)).collect();
                    let args: Vec<TermId> = fresh.iter().map(|v| store.var(*v)).collect();
                    out.push((store.app_func(fid, &args), fresh));
                }
                return Ok(out);
            }
        }
        Err(EnumError::Unbounded {
            var: display_var(&store.var_of(x).name),
            sort: sort_to_string(&sort),
            cond: self.rw.show(c),
        })
    }

    /// A superset of the values of `x` that can make `c` true (every candidate is checked
    /// against `c` afterwards, so over-approximating is sound).
    fn bound(&mut self, x: VarId, sort: &Sort, c: TermId, subj: Subject, depth: usize) -> Bound {
        let store = self.rw.store();
        let xt = store.var(x);
        // The sort's own lower bound, so that `x < 3` bounds a `Nat` on both sides.
        let sort_lo = match (subj, sort) {
            (Subject::Len, _) | (Subject::Value, Sort::Nat) => Some(BigInt::from(0)),
            (Subject::Value, Sort::Pos) => Some(BigInt::one()),
            _ => None,
        };
        if c == store.false_term() {
            return Bound::Vals(vec![]);
        }
        if depth > 64 {
            return Bound::Any;
        }
        let Some((f, args)) = store.as_func_app(c) else {
            return Bound::Any;
        };
        let args = args.to_vec();
        let kind = self.rw.kind(f);
        match (kind, &args[..]) {
            (Kind::Op(Op::And), [a, b]) => {
                let (ba, bb) = (
                    self.bound(x, sort, *a, subj, depth + 1),
                    self.bound(x, sort, *b, subj, depth + 1),
                );
                self.meet(ba, bb)
            }
            (Kind::Op(Op::Or), [a, b]) => {
                let (ba, bb) = (
                    self.bound(x, sort, *a, subj, depth + 1),
                    self.bound(x, sort, *b, subj, depth + 1),
                );
                self.join(ba, bb)
            }
            (Kind::Op(Op::Not), [a]) => match store.as_func_app(*a) {
                // `!(x < k)` is `k <= x`, and so on; other negations do not bound.
                Some((g, [l, r])) => {
                    let (l, r) = (*l, *r);
                    match self.rw.kind(g) {
                        Kind::Op(Op::Lt) => self.compare(x, subj, sort_lo, r, l, false),
                        Kind::Op(Op::Le) => self.compare(x, subj, sort_lo, r, l, true),
                        Kind::Op(Op::Gt) => self.compare(x, subj, sort_lo, l, r, false),
                        Kind::Op(Op::Ge) => self.compare(x, subj, sort_lo, l, r, true),
                        // `!(p == q)` on Booleans is `p != q`: one of them holds.
                        Kind::Op(Op::Eq) if store.sort_of(l) == Sort::Bool => {
                            let (bl, br) = (
                                self.bound(x, sort, l, subj, depth + 1),
                                self.bound(x, sort, r, subj, depth + 1),
                            );
                            self.join(bl, br)
                        }
                        _ => Bound::Any,
                    }
                }
                _ => Bound::Any,
            },
            // `if(c, t, e)` holds only where `c && t` or `e` does (`if(c, true, false)` is
            // how recursive user predicates often end up).
            (Kind::Op(Op::If), [c, t, e]) => {
                let (bc, bt, be) = (
                    self.bound(x, sort, *c, subj, depth + 1),
                    self.bound(x, sort, *t, subj, depth + 1),
                    self.bound(x, sort, *e, subj, depth + 1),
                );
                let then = self.meet(bc, bt);
                self.join(then, be)
            }
            // `a != b` on Booleans (set membership `f(x) != x in s`) holds only where
            // one of them does.
            (Kind::Op(Op::Neq), [a, b]) if store.sort_of(*a) == Sort::Bool => {
                let (ba, bb) = (
                    self.bound(x, sort, *a, subj, depth + 1),
                    self.bound(x, sort, *b, subj, depth + 1),
                );
                self.join(ba, bb)
            }
            (Kind::Op(Op::Eq), [l, r]) => {
                for (p, q) in [(*l, *r), (*r, *l)] {
                    if subj == Subject::Value && p == xt && !store.occurs_free(x, q) {
                        return Bound::Vals(vec![q]);
                    }
                }
                // `x + k == v` (or `#x + k == v`): exactly `v - k`, if the sort has it.
                for (p, q) in [(*l, *r), (*r, *l)] {
                    if let (Some(k), Some(v)) = (self.offset(x, subj, p), self.int_value(q)) {
                        let n = v - k;
                        let lo = max_opt(sort_lo.clone(), Some(n.clone()), true);
                        return Bound::Range(lo, Some(n));
                    }
                }
                // `x + y + z == 15` with `y, z: Pos`: at most `15 - 2`.
                for (p, q) in [(*l, *r), (*r, *l)] {
                    if let (Some(k), Some(v)) = (self.offset_min(x, subj, p), self.int_value(q)) {
                        return Bound::Range(sort_lo, Some(v - k));
                    }
                }
                Bound::Any
            }
            (Kind::Op(Op::In), [l, r])
                if subj == Subject::Value && self.strip_conv(*l) == xt && store.is_closed(*r) =>
            {
                match self.elements(*r) {
                    Some(e) if *l == xt => Bound::Vals(e),
                    _ => Bound::Any,
                }
            }
            // `f(x, k) in [f(1, k), g]`: one of `f(x, k) == e` holds; rewritten, each is
            // `x == 1` or `false` (constructors are injective), as mCRL2's narrowing finds.
            // Numbers only: other sorts are expanded by constructors, in their order.
            (Kind::Op(Op::In), [l, r])
                if subj == Subject::Value
                    && NumSort::of(sort).is_some()
                    && store.occurs_free(x, *l)
                    && store.is_closed(*r) =>
            {
                let Some(elems) = self.elements(*r) else {
                    return Bound::Any;
                };
                let s = store.sort_of(*l);
                let eq = store.intern_func(&Func {
                    name: "==".into(),
                    sort: Sort::Arrow(vec![s.clone(), s], Box::new(Sort::Bool)),
                });
                let mut acc = Bound::Vals(vec![]);
                for e in elems {
                    let Ok(c) = self.rw.rewrite(store.app_func(eq, &[*l, e])) else {
                        return Bound::Any;
                    };
                    let b = self.bound(x, sort, c, subj, depth + 1);
                    acc = self.join(acc, b);
                    if matches!(acc, Bound::Any) {
                        break;
                    }
                }
                acc
            }
            (Kind::Op(Op::Lt), [l, r]) => self.compare(x, subj, sort_lo, *l, *r, true),
            (Kind::Op(Op::Le), [l, r]) => self.compare(x, subj, sort_lo, *l, *r, false),
            (Kind::Op(Op::Gt), [l, r]) => self.compare(x, subj, sort_lo, *r, *l, true),
            (Kind::Op(Op::Ge), [l, r]) => self.compare(x, subj, sort_lo, *r, *l, false),
            _ => Bound::Any,
        }
    }

    /// The bound on the subject (`x` or `#x`) from `small < big` (`strict`) or
    /// `small <= big`, where one side is the subject plus a constant and the other a number.
    fn compare(
        &mut self,
        x: VarId,
        subj: Subject,
        sort_lo: Option<BigInt>,
        small: TermId,
        big: TermId,
        strict: bool,
    ) -> Bound {
        if let (Some(k), Some(v)) = (self.offset_min(x, subj, small), self.int_value(big)) {
            let v = v - k;
            let v = if strict { v - 1 } else { v };
            return Bound::Range(sort_lo, Some(v));
        }
        if let (Some(k), Some(v)) = (self.offset(x, subj, big), self.int_value(small)) {
            let v = v - k;
            let v = if strict { v + 1 } else { v };
            return Bound::Range(max_opt(sort_lo, Some(v), true), None);
        }
        Bound::Any
    }

    /// `Some(k)` when `t` is the subject plus the constant `k`: `x`, `#x`, `x + 2`,
    /// `Pos2Nat(x + 1)`, `#x - 1`, … (numeric upcasts stripped).
    fn offset(&mut self, x: VarId, subj: Subject, t: TermId) -> Option<BigInt> {
        let store = self.rw.store();
        let t = self.strip_conv(t);
        if subj == Subject::Value && t == store.var(x) {
            return Some(BigInt::from(0));
        }
        let (f, args) = store.as_func_app(t)?;
        let args = args.to_vec();
        match (self.rw.kind(f), &args[..]) {
            (Kind::Op(Op::Len), [a]) if subj == Subject::Len && *a == store.var(x) => {
                Some(BigInt::from(0))
            }
            (Kind::Op(Op::Add), [a, b]) => {
                if let (Some(o), Some(k)) = (self.offset(x, subj, *a), self.int_value(*b)) {
                    return Some(o + k);
                }
                let (k, o) = (self.int_value(*a)?, self.offset(x, subj, *b)?);
                Some(o + k)
            }
            (Kind::Op(Op::Sub), [a, b]) => {
                let (o, k) = (self.offset(x, subj, *a)?, self.int_value(*b)?);
                Some(o - k)
            }
            _ => None,
        }
    }

    /// `Some(k)` when `t` is at least the subject plus `k`: like [`Self::offset`], but a
    /// summand without the subject counts with its lower bound (`x + y` with `y: Pos` is at
    /// least `x + 1`). Sound only for upper bounds on the subject.
    fn offset_min(&mut self, x: VarId, subj: Subject, t: TermId) -> Option<BigInt> {
        if let Some(k) = self.offset(x, subj, t) {
            return Some(k);
        }
        let store = self.rw.store();
        let t = self.strip_conv(t);
        let (f, args) = store.as_func_app(t)?;
        let args = args.to_vec();
        match (self.rw.kind(f), &args[..]) {
            (Kind::Op(Op::Add), [a, b]) => {
                if let Some(o) = self.offset_min(x, subj, *a) {
                    return Some(o + self.rw.lower_bound(*b)?);
                }
                let o = self.offset_min(x, subj, *b)?;
                Some(o + self.rw.lower_bound(*a)?)
            }
            (Kind::Op(Op::Sub), [a, b]) => {
                let (o, k) = (self.offset_min(x, subj, *a)?, self.int_value(*b)?);
                Some(o - k)
            }
            _ => None,
        }
    }

    fn meet(&mut self, a: Bound, b: Bound) -> Bound {
        match (a, b) {
            (Bound::Any, o) | (o, Bound::Any) => o,
            (Bound::Vals(v), Bound::Vals(w)) => {
                Bound::Vals(v.into_iter().filter(|t| w.contains(t)).collect())
            }
            (Bound::Vals(v), Bound::Range(lo, hi)) | (Bound::Range(lo, hi), Bound::Vals(v)) => {
                // Keep the values that may lie in the range (unknown ones stay).
                Bound::Vals(
                    v.into_iter()
                        .filter(|t| match self.int_value(*t) {
                            Some(n) => {
                                lo.as_ref().is_none_or(|l| &n >= l)
                                    && hi.as_ref().is_none_or(|h| &n <= h)
                            }
                            None => true,
                        })
                        .collect(),
                )
            }
            (Bound::Range(l1, h1), Bound::Range(l2, h2)) => {
                Bound::Range(max_opt(l1, l2, true), max_opt(h1, h2, false))
            }
        }
    }

    fn join(&mut self, a: Bound, b: Bound) -> Bound {
        let empty = |b: &Bound| match b {
            Bound::Vals(v) => v.is_empty(),
            Bound::Range(Some(l), Some(h)) => l > h,
            _ => false,
        };
        if empty(&a) {
            return b;
        }
        if empty(&b) {
            return a;
        }
        match (a, b) {
            (Bound::Any, _) | (_, Bound::Any) => Bound::Any,
            (Bound::Vals(mut v), Bound::Vals(w)) => {
                for t in w {
                    if !v.contains(&t) {
                        v.push(t);
                    }
                }
                Bound::Vals(v)
            }
            (Bound::Range(l1, h1), Bound::Range(l2, h2)) => {
                let lo = match (l1, l2) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    _ => None,
                };
                let hi = match (h1, h2) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
                Bound::Range(lo, hi)
            }
            (Bound::Vals(v), Bound::Range(lo, hi)) | (Bound::Range(lo, hi), Bound::Vals(v)) => {
                // A range widened by the values' numbers, if they all are numbers.
                let mut lo = lo;
                let mut hi = hi;
                for t in &v {
                    let Some(n) = self.int_value(*t) else {
                        return Bound::Any;
                    };
                    lo = lo.map(|l| l.min(n.clone()));
                    hi = hi.map(|h| h.max(n));
                }
                Bound::Range(lo, hi)
            }
        }
    }

    fn conjuncts(&mut self, c: TermId, out: &mut Vec<TermId>) {
        let store = self.rw.store();
        if let Some((f, [a, b])) = store.as_func_app(c) {
            if self.rw.kind(f) == Kind::Op(Op::And) {
                self.conjuncts(*a, out);
                self.conjuncts(*b, out);
                return;
            }
        }
        out.push(c);
    }

    /// Strips numeric upcasts (`Pos2Nat(x)` → `x`) so bounds on casts bound the variable.
    fn strip_conv(&mut self, t: TermId) -> TermId {
        let store = self.rw.store();
        match store.as_func_app(t) {
            Some((f, [a])) if self.rw.kind(f) == Kind::Op(Op::Conv) => {
                let name = &store.func_of(f).name;
                if matches!(&**name, "Pos2Nat" | "Pos2Int" | "Nat2Int") {
                    return *a;
                }
                t
            }
            _ => t,
        }
    }

    fn int_value(&self, t: TermId) -> Option<BigInt> {
        match self.rw.store().get(t) {
            Term::Num(_, v) => Some(BigInt::from(*v)),
            Term::BigNum(_, v) => Some((**v).clone()),
            Term::Real(r) if r.is_integer() => Some(r.to_integer()),
            _ => None,
        }
    }

    /// Elements of a closed list, finite set or finite-set-based set.
    fn elements(&mut self, t: TermId) -> Option<Vec<TermId>> {
        let store = self.rw.store();
        let (f, args) = store.as_func_app(t)?;
        match self.rw.kind(f) {
            Kind::Ctor(Ctor::Nil) => Some(vec![]),
            Kind::Ctor(Ctor::ListCons) => {
                let mut rest = self.elements(args[1])?;
                rest.insert(0, args[0]);
                Some(rest)
            }
            Kind::Ctor(Ctor::FSet) => Some(args.to_vec()),
            Kind::Ctor(Ctor::FBag) => Some(args.chunks(2).map(|c| c[0]).collect()),
            Kind::Ctor(Ctor::Set | Ctor::Bag) => {
                let (g, _) = store.as_func_app(args[0])?;
                if matches!(self.rw.kind(g), Kind::Op(Op::FalseFn | Op::ZeroFn)) {
                    self.elements(args[1])
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

/// What a bound is about: the variable's value, or the length `#x` of a list variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Subject {
    Value,
    Len,
}

/// What a condition says about the values of one variable (see [`Enumerator::bound`]).
enum Bound {
    /// No usable bound.
    Any,
    /// At most these values.
    Vals(Vec<TermId>),
    /// Numbers between the bounds (inclusive; `None` = unbounded on that side).
    Range(Option<BigInt>, Option<BigInt>),
}

/// The larger (`larger`) or smaller of two optional bounds; `None` is no bound.
fn max_opt(a: Option<BigInt>, b: Option<BigInt>, larger: bool) -> Option<BigInt> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if larger { a.max(b) } else { a.min(b) }),
        (a, None) => a,
        (None, b) => b,
    }
}

fn display_var(name: &str) -> String {
    name.to_string()
}

#[allow(dead_code)]
fn _f(_: Func) {}
