//! Finite sets and bags, sets and bags: mCRL2's normal forms, evaluated natively.
//!
//! mCRL2 (`set.spec`, `bag.spec`, `fset.spec`, `fbag.spec` of its data library) represents
//! `Set(S)` as `@set(f, s)`: `x` is a member iff `f(x) != x in s`, and `Bag(S)` as
//! `@bag(f, b)`: the count of `x` is `@swap_zero(f(x), count(x, b))` (`swap_zero(m, n)` is `m`
//! if `n = 0`, `0` if `n = m`, else `n`). The functions are symbolic: `@false_`, `@true_`,
//! `@zero_`, `@one_` and the combinators `@not_`, `@and_`, `@or_`, `@add_`, `@min_`,
//! `@monus_`, `@Nat2Bool_`, `@Bool2Nat_` with their simplification rules (`@or_(@false_, f) =
//! f`, `@and_(f, f) = f`, `@not_(@true_) = @false_`, …) or, for comprehensions, a lambda. The
//! finite part holds exactly the elements where the value differs from the function's
//! (`@fset_union(f, g, s, t)` and friends drop the others), so for one function term the
//! finite part is canonical. Equal sets with different function terms (`!{e1, e2, e3}` and `{}`
//! over `struct e1 | e2 | e3`) are different terms, exactly as in mCRL2 — state spaces
//! depend on it. Equality, `<` and `<=` are semantic (`x <= y` is `x * y == x`): decided on
//! the function terms, or by checking every element of a finite element sort.

use super::*;
use crate::data::finite::is_certainly_finite;

/// `@swap_zero(m, n)`: the count stored in a bag's finite part for a true count `n` under
/// function value `m`, and back (it is an involution in `n`).
fn swap_zero(m: &IntVal, n: &IntVal) -> IntVal {
    if n.signum() == 0 {
        m.clone()
    } else if m == n {
        IntVal::Small(0)
    } else {
        n.clone()
    }
}

fn monus(a: &IntVal, b: &IntVal) -> IntVal {
    let d = a.sub(b);
    if d.signum() < 0 {
        IntVal::Small(0)
    } else {
        d
    }
}

/// Largest number of values of a finite element sort that equality checks element by element.
const MAX_FINITE_VALUES: usize = 4096;

impl<'s> Rewriter<'s> {
    // ----- finite sets and bags ----------------------------------------------------------

    pub(crate) fn sort_dedup(&mut self, e: &mut Vec<TermId>) {
        let mut v = std::mem::take(e);
        v.sort_by(|a, b| self.term_cmp(*a, *b));
        v.dedup();
        *e = v;
    }

    pub(super) fn fset_elems(&mut self, t: TermId) -> Option<Vec<TermId>> {
        let (f, args) = self.store.as_func_app(t).map(|(f, a)| (f, a.to_vec()))?;
        match self.kind(f) {
            Kind::Ctor(Ctor::FSet) => Some(args),
            _ => None,
        }
    }

    pub(super) fn fbag_pairs(&mut self, t: TermId) -> Option<Vec<(TermId, IntVal)>> {
        let (f, args) = self.store.as_func_app(t).map(|(f, a)| (f, a.to_vec()))?;
        if self.kind(f) != Kind::Ctor(Ctor::FBag) {
            return None;
        }
        args.chunks(2)
            .map(|c| Some((c[0], self.int(c[1])?)))
            .collect()
    }

    pub(super) fn mk_fbag(&mut self, el: &Sort, mut pairs: Vec<(TermId, IntVal)>) -> TermId {
        pairs.sort_by(|a, b| self.term_cmp(a.0, b.0));
        let mut flat: Vec<TermId> = Vec::new();
        let mut merged: Vec<(TermId, IntVal)> = Vec::new();
        for (x, n) in pairs {
            match merged.last_mut() {
                Some((y, m)) if *y == x => *m = m.add(&n),
                _ => merged.push((x, n)),
            }
        }
        for (x, n) in merged {
            if n.signum() > 0 {
                flat.push(x);
                flat.push(match n {
                    IntVal::Small(v) => self.store.num(NumSort::Nat, v),
                    IntVal::Big(b) => self.store.big_num(NumSort::Nat, &b),
                });
            }
        }
        Internal::fbag(self.store, el, &flat)
    }

    /// Whether `t` is `{}` or `{:}` as a finite set or bag (no allocation: set operations
    /// ask it of every operand).
    fn is_empty_finite(&mut self, t: TermId) -> bool {
        matches!(self.store.as_func_app(t), Some((f, [])) if matches!(self.kind(f), Kind::Ctor(Ctor::FSet | Ctor::FBag)))
    }

    /// Whether a finite set or bag certainly has an element: an enumeration with one (of
    /// a positive count), whether or not the elements are values.
    fn known_nonempty(&mut self, t: TermId) -> bool {
        let store = self.store;
        let Some((f, args)) = store.as_func_app(t) else {
            return false;
        };
        match self.kind(f) {
            Kind::Ctor(Ctor::FSet) => !args.is_empty(),
            Kind::Ctor(Ctor::FBag) => args
                .chunks(2)
                .any(|c| self.int(c[1]).is_some_and(|n| n.signum() > 0)),
            _ => false,
        }
    }

    /// `(f, finite part)` of `@set(f, s)` / `@bag(f, b)`.
    pub(super) fn set_parts(&mut self, t: TermId) -> Option<(TermId, TermId)> {
        match self.store.as_func_app(t) {
            Some((f, [a, b])) if matches!(self.kind(f), Kind::Ctor(Ctor::Set | Ctor::Bag)) => {
                Some((*a, *b))
            }
            _ => None,
        }
    }

    fn is_fn(&mut self, t: TermId, op: Op) -> bool {
        matches!(self.store.as_func_app(t), Some((f, [])) if self.kind(f) == Kind::Op(op))
    }

    pub(super) fn is_false_fn(&mut self, t: TermId) -> bool {
        self.is_fn(t, Op::FalseFn)
    }

    pub(super) fn is_zero_fn(&mut self, t: TermId) -> bool {
        self.is_fn(t, Op::ZeroFn)
    }

    // ----- symbolic functions ------------------------------------------------------------

    /// The simplification rules of the function combinators (`@not_(@false_) = @true_`,
    /// `@or_(f, f) = f`, …); `None` leaves `op(args)` as it is. `cod` is `S -> Bool|Nat`.
    pub(super) fn simplify_fn(&mut self, op: Op, cod: &Sort, args: &[TermId]) -> Option<TermId> {
        let store = self.store;
        let el = match cod {
            Sort::Arrow(d, _) if d.len() == 1 => d[0].clone(),
            _ => return None,
        };
        let c = |name: &str, s: Sort| Internal::const_fn(store, name, &el, s);
        let (ff, tt) = (
            c(names::FALSE_FN, Sort::Bool),
            c(names::TRUE_FN, Sort::Bool),
        );
        let (zero, one) = (c(names::ZERO_FN, Sort::Nat), c(names::ONE_FN, Sort::Nat));
        match (op, args) {
            (Op::NotFn, [f]) if *f == ff => Some(tt),
            (Op::NotFn, [f]) if *f == tt => Some(ff),
            (Op::AndFn, [f, g]) if f == g => Some(*f),
            (Op::AndFn, [f, g]) if *f == ff || *g == ff => Some(ff),
            (Op::AndFn, [f, g]) if *g == tt => Some(*f),
            (Op::AndFn, [f, g]) if *f == tt => Some(*g),
            (Op::OrFn, [f, g]) if f == g => Some(*f),
            (Op::OrFn, [f, g]) if *g == ff => Some(*f),
            (Op::OrFn, [f, g]) if *f == ff => Some(*g),
            (Op::OrFn, [f, g]) if *f == tt || *g == tt => Some(tt),
            (Op::AddFn, [f, g]) if *g == zero => Some(*f),
            (Op::AddFn, [f, g]) if *f == zero => Some(*g),
            (Op::MinFn, [f, g]) if f == g => Some(*f),
            (Op::MinFn, [f, g]) if *f == zero || *g == zero => Some(zero),
            (Op::MonusFn, [f, g]) if f == g => Some(zero),
            (Op::MonusFn, [f, g]) if *g == zero => Some(*f),
            (Op::MonusFn, [f, _]) if *f == zero => Some(zero),
            (Op::Nat2BoolFn, [f]) if *f == zero => Some(ff),
            (Op::Nat2BoolFn, [f]) if *f == one => Some(tt),
            (Op::Bool2NatFn, [f]) if *f == ff => Some(zero),
            (Op::Bool2NatFn, [f]) if *f == tt => Some(one),
            _ => None,
        }
    }

    /// `op(fargs)(x)` for a function combinator `op`: `@not_(f)(x) = !f(x)`, …; `None` if
    /// `op` is not a combinator (or the arguments do not fit).
    pub(super) fn apply_fn(
        &mut self,
        op: Op,
        fargs: &[TermId],
        x: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let nat2 = |name: &str| {
            store.intern_func(&Func {
                name: name.into(),
                sort: Sort::Arrow(vec![Sort::Nat, Sort::Nat], Box::new(Sort::Nat)),
            })
        };
        Ok(match (op, fargs) {
            (Op::NotFn, [f]) => {
                let fx = self.apply(*f, &[x])?;
                Some(self.not(fx))
            }
            (Op::AndFn | Op::OrFn, [f, g]) => {
                let (fx, gx) = (self.apply(*f, &[x])?, self.apply(*g, &[x])?);
                let (bop, name) = if op == Op::AndFn {
                    (Op::And, "&&")
                } else {
                    (Op::Or, "||")
                };
                let h = store.func(store.intern_func(&Func {
                    name: name.into(),
                    sort: Sort::Arrow(vec![Sort::Bool, Sort::Bool], Box::new(Sort::Bool)),
                }));
                Some(self.bool_binop(bop, h, fx, gx)?)
            }
            (Op::AddFn | Op::MinFn, [f, g]) => {
                let (fx, gx) = (self.apply(*f, &[x])?, self.apply(*g, &[x])?);
                let fid = nat2(if op == Op::AddFn { "+" } else { "min" });
                Some(self.apply_func(fid, store.func(fid), &[fx, gx])?)
            }
            (Op::MonusFn, [f, g]) => {
                let (fx, gx) = (self.apply(*f, &[x])?, self.apply(*g, &[x])?);
                match (self.int(fx), self.int(gx)) {
                    (Some(m), Some(n)) => self.mk_num(&Sort::Nat, NumVal::I(monus(&m, &n))),
                    // No native term for an open `@monus`: the application stays as it is.
                    _ => None,
                }
            }
            (Op::Nat2BoolFn, [f]) => {
                let fx = self.apply(*f, &[x])?;
                let gt = store.intern_func(&Func {
                    name: ">".into(),
                    sort: Sort::Arrow(vec![Sort::Nat, Sort::Nat], Box::new(Sort::Bool)),
                });
                let zero = store.num(NumSort::Nat, 0);
                Some(self.apply_func(gt, store.func(gt), &[fx, zero])?)
            }
            (Op::Bool2NatFn, [f]) => {
                let fx = self.apply(*f, &[x])?;
                let (one, zero) = (store.num(NumSort::Nat, 1), store.num(NumSort::Nat, 0));
                Some(if fx == store.true_term() {
                    one
                } else if fx == store.false_term() {
                    zero
                } else {
                    let iff = store.intern_func(&Func {
                        name: "if".into(),
                        sort: Sort::Arrow(
                            vec![Sort::Bool, Sort::Nat, Sort::Nat],
                            Box::new(Sort::Nat),
                        ),
                    });
                    store.app_func(iff, &[fx, one, zero])
                })
            }
            _ => None,
        })
    }

    /// The combinator `name(args)` (of sort `el -> cod`), simplified by its rules.
    fn mk_fn(
        &mut self,
        op: Op,
        name: &str,
        el: &Sort,
        arg_cod: Sort,
        cod: Sort,
        args: &[TermId],
    ) -> TermId {
        let fcod = Sort::Arrow(vec![el.clone()], Box::new(cod.clone()));
        if let Some(r) = self.simplify_fn(op, &fcod, args) {
            return r;
        }
        let cods = vec![arg_cod; args.len()];
        Internal::fn_comb(self.store, name, el, &cods, cod, args)
    }

    /// `f(d)` as a Boolean, if it evaluates to one.
    fn bool_at(&mut self, f: TermId, d: TermId) -> Result<Option<bool>, RewriteError> {
        let r = self.apply(f, &[d])?;
        let store = self.store;
        Ok(if r == store.true_term() {
            Some(true)
        } else if r == store.false_term() {
            Some(false)
        } else {
            None
        })
    }

    /// `f(d)` as a number, if it evaluates to one.
    fn nat_at(&mut self, f: TermId, d: TermId) -> Result<Option<IntVal>, RewriteError> {
        if self.is_zero_fn(f) {
            return Ok(Some(IntVal::Small(0)));
        }
        let r = self.apply(f, &[d])?;
        Ok(self.int(r))
    }

    /// The (element, count) pairs of two finite bags whose elements are all values, with
    /// the sorted union of their elements; `None` otherwise (the operation stays as it is).
    #[allow(clippy::type_complexity)]
    fn fbag_operands(
        &mut self,
        a: TermId,
        b: TermId,
    ) -> Option<(Vec<(TermId, IntVal)>, Vec<(TermId, IntVal)>, Vec<TermId>)> {
        let (x, y) = (self.fbag_pairs(a)?, self.fbag_pairs(b)?);
        if !(x.iter().chain(&y).all(|p| self.is_value(p.0))) {
            return None;
        }
        let mut keys: Vec<TermId> = x.iter().chain(&y).map(|p| p.0).collect();
        self.sort_dedup(&mut keys);
        Some((x, y, keys))
    }

    // ----- membership and counts ---------------------------------------------------------

    /// `x in c` for lists, finite sets/bags and sets/bags.
    pub(super) fn member(&mut self, x: TermId, c: TermId) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let s = store.sort_ref(c);
        match &*s {
            Sort::List(_) => {
                let mut l = c;
                let mut unknown = false;
                loop {
                    if self.is_nil(l) {
                        return Ok(if unknown {
                            None
                        } else {
                            Some(store.false_term())
                        });
                    }
                    let Some((y, r)) = self.cons_parts(l) else {
                        return Ok(None);
                    };
                    match self.decide_eq(x, y) {
                        Some(true) => return Ok(Some(store.true_term())),
                        Some(false) => {}
                        None => unknown = true,
                    }
                    l = r;
                }
            }
            Sort::FSet(_) => {
                // Canonical `@fset(…)` or a not yet sorted `@fset_make(…)`.
                let e = match store.as_func_app(c) {
                    Some((f, a))
                        if matches!(
                            self.kind(f),
                            Kind::Ctor(Ctor::FSet) | Kind::Op(Op::FSetMake)
                        ) =>
                    {
                        a.to_vec()
                    }
                    _ => return Ok(None),
                };
                let mut unknown = false;
                for y in e {
                    match self.decide_eq(x, y) {
                        Some(true) => return Ok(Some(store.true_term())),
                        Some(false) => {}
                        None => unknown = true,
                    }
                }
                Ok(if unknown {
                    None
                } else {
                    Some(store.false_term())
                })
            }
            // in(e, b) = count(e, b) > 0
            Sort::FBag(_) | Sort::Bag(_) => {
                let Some(n) = self.count(x, c)? else {
                    return Ok(None);
                };
                match self.int(n) {
                    Some(v) => Ok(Some(store.bool_term(v.signum() > 0))),
                    None => Ok(None),
                }
            }
            // in(e, @set(f, s)) = f(e) != e in s
            Sort::Set(_) => {
                let Some((f, fs)) = self.set_parts(c) else {
                    return Ok(None);
                };
                if self.is_false_fn(f) {
                    return self.member(x, fs);
                }
                // The exceptions as a term (stuck for an unknown `x`): `f(x)` may still
                // decide or bound it, e.g. for the enumerator.
                let inf = self.member_term(x, fs)?;
                let fx = self.apply(f, &[x])?;
                let neq = store.intern_func(&Func {
                    name: "!=".into(),
                    sort: Sort::Arrow(vec![Sort::Bool, Sort::Bool], Box::new(Sort::Bool)),
                });
                let h = store.func(neq);
                Ok(Some(self.apply_func(neq, h, &[fx, inf])?))
            }
            _ => Ok(None),
        }
    }

    /// `x in c` as a term: its value when [`Self::member`] decides it, else the
    /// application itself.
    fn member_term(&mut self, x: TermId, c: TermId) -> Result<TermId, RewriteError> {
        if let Some(r) = self.member(x, c)? {
            return Ok(r);
        }
        let s = self.store.sort_of(c);
        let el = self.store.sort_of(x);
        let f = self.store.intern_func(&Func {
            name: "in".into(),
            sort: Sort::Arrow(vec![el, s], Box::new(Sort::Bool)),
        });
        Ok(self.store.app_func(f, &[x, c]))
    }

    /// `count(x, c)` for finite bags and bags.
    pub(super) fn count(&mut self, x: TermId, c: TermId) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        match &*store.sort_ref(c) {
            Sort::FBag(_) => {
                let Some(p) = self.fbag_pairs(c) else {
                    return Ok(None);
                };
                let mut unknown = false;
                for (y, n) in p {
                    match self.decide_eq(x, y) {
                        Some(true) => return Ok(self.mk_num(&Sort::Nat, NumVal::I(n))),
                        Some(false) => {}
                        None => unknown = true,
                    }
                }
                Ok(if unknown {
                    None
                } else {
                    Some(store.num(NumSort::Nat, 0))
                })
            }
            // count(e, @bag(f, b)) = @swap_zero(f(e), count(e, b))
            Sort::Bag(_) => {
                let Some((f, fb)) = self.set_parts(c) else {
                    return Ok(None);
                };
                let Some(k) = self.count(x, fb)? else {
                    return Ok(None);
                };
                if self.is_zero_fn(f) {
                    return Ok(Some(k));
                }
                let fx = self.apply(f, &[x])?;
                match (self.int(fx), self.int(k)) {
                    (Some(m), Some(n)) => Ok(self.mk_num(&Sort::Nat, NumVal::I(swap_zero(&m, &n)))),
                    (_, Some(n)) if n.signum() == 0 => Ok(Some(fx)),
                    _ => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    // ----- operations --------------------------------------------------------------------

    /// `!@set(f, s) = @set(@not_(f), s)`.
    pub(super) fn set_complement(
        &mut self,
        cod: &Sort,
        s: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        if !matches!(cod, Sort::Set(_)) {
            return Ok(None);
        }
        let el = elem(cod);
        let Some((f, fs)) = self.set_parts(s) else {
            return Ok(None);
        };
        let g = self.mk_fn(Op::NotFn, names::NOT_FN, &el, Sort::Bool, Sort::Bool, &[f]);
        Ok(Some(Internal::set(self.store, &el, g, fs)))
    }

    /// `+`, `*`, `-` on finite sets/bags and sets/bags.
    pub(super) fn set_binop(
        &mut self,
        op: Op,
        cod: &Sort,
        a: TermId,
        b: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let el = elem(cod);
        // The empty operand decides, whatever the other is (`{} - s = {}`, `b - {:} = b`).
        if matches!(cod, Sort::FSet(_) | Sort::FBag(_)) {
            let (ea, eb) = (self.is_empty_finite(a), self.is_empty_finite(b));
            if ea || eb {
                return Ok(Some(match op {
                    // The other one.
                    Op::Add => {
                        if ea {
                            b
                        } else {
                            a
                        }
                    }
                    // The empty one.
                    Op::Mul => {
                        if ea {
                            a
                        } else {
                            b
                        }
                    }
                    // Empty minus anything, or anything minus empty.
                    _ => a,
                }));
            }
        }
        match cod {
            Sort::FSet(_) => {
                let (Some(x), Some(y)) = (self.fset_elems(a), self.fset_elems(b)) else {
                    return Ok(None);
                };
                if !(x.iter().chain(&y).all(|t| self.is_value(*t))) {
                    return Ok(None);
                }
                let mut r: Vec<TermId> = match op {
                    Op::Add => x.iter().chain(&y).copied().collect(),
                    Op::Mul => x.iter().filter(|t| y.contains(t)).copied().collect(),
                    _ => x.iter().filter(|t| !y.contains(t)).copied().collect(),
                };
                self.sort_dedup(&mut r);
                Ok(Some(Internal::fset(store, &el, &r)))
            }
            Sort::FBag(_) => {
                let Some((x, y, keys)) = self.fbag_operands(a, b) else {
                    return Ok(None);
                };
                let get = count_in;
                let pairs = keys
                    .into_iter()
                    .map(|k| {
                        let (m, n) = (get(&x, k), get(&y, k));
                        let c = match op {
                            Op::Add => m.add(&n),
                            Op::Mul => m.min(n),
                            _ => monus(&m, &n),
                        };
                        (k, c)
                    })
                    .collect();
                Ok(Some(self.mk_fbag(&el, pairs)))
            }
            Sort::Set(_) => {
                let (Some((f, s)), Some((g, t))) = (self.set_parts(a), self.set_parts(b)) else {
                    return Ok(None);
                };
                // -(x, y) = *(x, !(y))
                let g = if op == Op::Sub {
                    self.mk_fn(Op::NotFn, names::NOT_FN, &el, Sort::Bool, Sort::Bool, &[g])
                } else {
                    g
                };
                let union = op == Op::Add;
                let Some(fin) = self.fset_combine(union, &el, f, g, s, t)? else {
                    return Ok(None);
                };
                let h = if union {
                    self.mk_fn(Op::OrFn, names::OR_FN, &el, Sort::Bool, Sort::Bool, &[f, g])
                } else {
                    self.mk_fn(
                        Op::AndFn,
                        names::AND_FN,
                        &el,
                        Sort::Bool,
                        Sort::Bool,
                        &[f, g],
                    )
                };
                Ok(Some(Internal::set(store, &el, h, fin)))
            }
            Sort::Bag(_) => {
                let (Some((f, x)), Some((g, y))) = (self.set_parts(a), self.set_parts(b)) else {
                    return Ok(None);
                };
                let Some(fin) = self.fbag_combine(op, &el, f, g, x, y)? else {
                    return Ok(None);
                };
                let (fop, name) = match op {
                    Op::Add => (Op::AddFn, names::ADD_FN),
                    Op::Mul => (Op::MinFn, names::MIN_FN),
                    _ => (Op::MonusFn, names::MONUS_FN),
                };
                let h = self.mk_fn(fop, name, &el, Sort::Nat, Sort::Nat, &[f, g]);
                Ok(Some(Internal::bag(store, &el, h, fin)))
            }
            _ => Ok(None),
        }
    }

    /// mCRL2's `@fset_union(f, g, s, t)` (`union`) / `@fset_inter(f, g, s, t)`: the finite
    /// part of `@set(f, s) + @set(g, t)` / `*` under the function `@or_(f, g)` / `@and_(f, g)`.
    /// An element only in `s` stays iff `!g(d)` (union) / `g(d)` (intersection), only in `t`
    /// iff `!f(d)` / `f(d)`, in both iff `f(d) == g(d)`.
    fn fset_combine(
        &mut self,
        union: bool,
        el: &Sort,
        f: TermId,
        g: TermId,
        s: TermId,
        t: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        let (Some(xs), Some(ys)) = (self.fset_elems(s), self.fset_elems(t)) else {
            return Ok(None);
        };
        // Merging by the term order is only sound on values (mCRL2 needs `<` decided too).
        if !(xs.iter().chain(&ys).all(|d| self.is_value(*d))) {
            return Ok(None);
        }
        let mut keys: Vec<TermId> = xs.iter().chain(&ys).copied().collect();
        self.sort_dedup(&mut keys);
        let mut out = Vec::with_capacity(keys.len());
        for d in keys {
            let (in_s, in_t) = (xs.contains(&d), ys.contains(&d));
            let keep = if in_s && in_t {
                match (self.bool_at(f, d)?, self.bool_at(g, d)?) {
                    (Some(p), Some(q)) => p == q,
                    _ => return Ok(None),
                }
            } else {
                let other = if in_s { g } else { f };
                match self.bool_at(other, d)? {
                    Some(v) => v != union,
                    None => return Ok(None),
                }
            };
            if keep {
                out.push(d);
            }
        }
        Ok(Some(Internal::fset(self.store, el, &out)))
    }

    /// mCRL2's `@fbag_join` / `@fbag_inter` / `@fbag_diff`: the finite part of
    /// `@bag(f, b) op @bag(g, c)` under `h = @add_(f, g)` / `@min_` / `@monus_`. For each
    /// element of `b` or `c`: true counts `x = swap_zero(f(d), b(d))`, `y = swap_zero(g(d),
    /// c(d))`; the stored count is `swap_zero(h(d), x op y)`.
    fn fbag_combine(
        &mut self,
        op: Op,
        el: &Sort,
        f: TermId,
        g: TermId,
        b: TermId,
        c: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        let Some((xs, ys, keys)) = self.fbag_operands(b, c) else {
            return Ok(None);
        };
        let get = count_in;
        let combine = |p: &IntVal, q: &IntVal| match op {
            Op::Add => p.add(q),
            Op::Mul => p.clone().min(q.clone()),
            _ => monus(p, q),
        };
        let mut pairs = Vec::with_capacity(keys.len());
        for d in keys {
            let (Some(p), Some(q)) = (self.nat_at(f, d)?, self.nat_at(g, d)?) else {
                return Ok(None);
            };
            let x = swap_zero(&p, &get(&xs, d));
            let y = swap_zero(&q, &get(&ys, d));
            pairs.push((d, swap_zero(&combine(&p, &q), &combine(&x, &y))));
        }
        Ok(Some(self.mk_fbag(el, pairs)))
    }

    /// `Set2Bag(@set(h, s)) = @bag(@Bool2Nat_(h), @fset2fbag(s))` (every element once).
    pub(super) fn set2bag(&mut self, cod: &Sort, s: TermId) -> Option<TermId> {
        let el = elem(cod);
        let (h, fs) = self.set_parts(s)?;
        let e = self.fset_elems(fs)?;
        let flat: Vec<TermId> = e
            .iter()
            .flat_map(|x| [*x, self.store.num(NumSort::Nat, 1)])
            .collect();
        let fb = Internal::fbag(self.store, &el, &flat);
        let f = self.mk_fn(
            Op::Bool2NatFn,
            names::BOOL2NAT_FN,
            &el,
            Sort::Bool,
            Sort::Nat,
            &[h],
        );
        Some(Internal::bag(self.store, &el, f, fb))
    }

    /// `Bag2Set(@bag(f, b)) = @set(@Nat2Bool_(f), @fbag2fset(f, b))`, where an element `d`
    /// with stored count `p` stays iff `(f(d) == p) == (f(d) > 0)`.
    pub(super) fn bag2set(
        &mut self,
        cod: &Sort,
        b: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        let el = elem(cod);
        let Some((f, fb)) = self.set_parts(b) else {
            return Ok(None);
        };
        let Some(pairs) = self.fbag_pairs(fb) else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(pairs.len());
        for (d, p) in pairs {
            let Some(m) = self.nat_at(f, d)? else {
                return Ok(None);
            };
            if (m == p) == (m.signum() > 0) {
                out.push(d);
            }
        }
        let fs = Internal::fset(self.store, &el, &out);
        let h = self.mk_fn(
            Op::Nat2BoolFn,
            names::NAT2BOOL_FN,
            &el,
            Sort::Nat,
            Sort::Bool,
            &[f],
        );
        Ok(Some(Internal::set(self.store, &el, h, fs)))
    }

    // ----- equality and inclusion --------------------------------------------------------

    /// Semantic equality of two sets or two bags (`None` when undecided). With one function
    /// term the canonical finite parts decide; otherwise every value of a finite element sort
    /// is checked (mCRL2's `forall`); over an infinite sort, sets `@set(@false_, s)` and
    /// `@set(@true_, t)` (bags with `@zero_` and `@one_`) differ somewhere.
    pub(super) fn set_eq(&mut self, a: TermId, b: TermId) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let (Some((f, x)), Some((g, y))) = (self.set_parts(a), self.set_parts(b)) else {
            return Ok(None);
        };
        if f == g {
            if let Some(r) = self.decide_eq(x, y) {
                return Ok(Some(store.bool_term(r)));
            }
            return Ok(None);
        }
        let sort = store.sort_of(a);
        let is_set = matches!(sort, Sort::Set(_));
        let el = elem(&sort);
        if let Some(values) = self.finite_values(&el) {
            for &c in values.iter() {
                let (p, q) = if is_set {
                    (self.member(c, a)?, self.member(c, b)?)
                } else {
                    (self.count(c, a)?, self.count(c, b)?)
                };
                let (Some(p), Some(q)) = (p, q) else {
                    return Ok(None);
                };
                let decided = if is_set {
                    let bools = [store.true_term(), store.false_term()];
                    bools.contains(&p) && bools.contains(&q)
                } else {
                    self.int(p).is_some() && self.int(q).is_some()
                };
                if !decided {
                    return Ok(None);
                }
                if p != q {
                    return Ok(Some(store.false_term()));
                }
            }
            return Ok(Some(store.true_term()));
        }
        let consts = if is_set {
            [Op::FalseFn, Op::TrueFn]
        } else {
            [Op::ZeroFn, Op::OneFn]
        };
        let both_const = (self.is_fn(f, consts[0]) && self.is_fn(g, consts[1]))
            || (self.is_fn(f, consts[1]) && self.is_fn(g, consts[0]));
        if both_const && self.is_value(x) && self.is_value(y) && self.infinite(&el) {
            return Ok(Some(store.false_term()));
        }
        if store.is_closed(a) && store.is_closed(b) {
            return self.extensional_eq(a, b, &el, is_set);
        }
        Ok(None)
    }

    /// Closed sets (bags) over an infinite element sort are equal when no element tells them
    /// apart: `exists c. (c in a) != (c in b)` is enumerated where the membership conditions
    /// bound `c` (`{n: Nat | 0 < n && n <= 2} - {1} != {}`), as mCRL2's enumerator decides
    /// the same quantifier by narrowing. `None` when the enumerator cannot decide it.
    fn extensional_eq(
        &mut self,
        a: TermId,
        b: TermId,
        el: &Sort,
        is_set: bool,
    ) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let v = self.fresh_var(el);
        let c = store.var(v);
        // Membership of the open element stays a term where it is not decided yet
        // (`c in {1, 12}`): the enumerator decides it per value.
        let (p, q) = if is_set {
            (Some(self.member_term(c, a)?), Some(self.member_term(c, b)?))
        } else {
            (self.count(c, a)?, self.count(c, b)?)
        };
        let (Some(p), Some(q)) = (p, q) else {
            return Ok(None);
        };
        let same = self.mk_eq(p, q)?;
        let differ = self.negate(same);
        let tt = store.true_term();
        let (mut found, mut undecided) = (false, false);
        let res = self
            .enumerator()
            .enumerate(&[v], differ, &mut |_, residual| {
                if residual == tt {
                    found = true;
                    false
                } else {
                    undecided = true;
                    true
                }
            });
        Ok(match res {
            Ok(()) if found => Some(store.false_term()),
            Ok(()) if !undecided => Some(tt),
            // mCRL2's `@set(f, s) == @set(g, t)` is a `forall` over the elements, which its
            // enumeration tries on its first values (`{ n: Nat | true } == {1, 12}` is
            // `false` at 0).
            Err(EnumError::Unbounded { .. } | EnumError::Budget { .. })
                if crate::data::qlimit::covers(self, &[v]) =>
            {
                crate::data::qlimit::find_witness(self, &[v], differ)?.then(|| store.false_term())
            }
            _ => None,
        })
    }

    /// `x <= y` (`strict`: `x < y`) on (finite) sets and bags, as mCRL2 defines it:
    /// `x <= y = x * y == x`, `x < y = x <= y && x != y`.
    pub(super) fn subset(
        &mut self,
        a: TermId,
        b: TermId,
        strict: bool,
    ) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let s = store.sort_of(a);
        if matches!(s, Sort::Set(_) | Sort::Bag(_)) {
            let Some(i) = self.set_binop(Op::Mul, &s, a, b)? else {
                return Ok(None);
            };
            let le = if i == a {
                Some(store.true_term())
            } else {
                self.set_eq(i, a)?
            };
            let Some(le) = le else { return Ok(None) };
            if !strict || le == store.false_term() {
                return Ok(Some(le));
            }
            return Ok(self
                .set_eq(a, b)?
                .map(|eq| store.bool_term(eq == store.false_term())));
        }
        // An empty operand decides it whatever the other's elements are: `{} <= y`, and
        // `{x: 3} <= {:}` is `false` even when `x` is not a value (mCRL2 202607.0 alike).
        if self.is_empty_finite(a) {
            if !strict {
                return Ok(Some(store.true_term()));
            }
            if self.is_empty_finite(b) {
                return Ok(Some(store.false_term()));
            }
            if self.known_nonempty(b) {
                return Ok(Some(store.true_term()));
            }
        } else if self.is_empty_finite(b) && (strict || self.known_nonempty(a)) {
            return Ok(Some(store.false_term()));
        }
        if !(self.is_value(a) && self.is_value(b)) {
            return Ok(None);
        }
        let r = if let (Some(x), Some(y)) = (self.fset_elems(a), self.fset_elems(b)) {
            x.iter().all(|t| y.contains(t)) && (!strict || x.len() < y.len())
        } else if let (Some(x), Some(y)) = (self.fbag_pairs(a), self.fbag_pairs(b)) {
            let sub = x
                .iter()
                .all(|(t, n)| y.iter().any(|(u, m)| u == t && n <= m));
            sub && (!strict || a != b)
        } else {
            return Ok(None);
        };
        Ok(Some(store.bool_term(r)))
    }

    /// All values of a finite element sort whose values are equal exactly when their terms
    /// are (Booleans, finite sets and structs over such sorts), or `None` when the sort is
    /// not such a sort or has too many values.
    fn finite_values(&mut self, sort: &Sort) -> Option<Arc<[TermId]>> {
        fn plain(sort: &Sort, spec: &DataSpec) -> bool {
            match sort {
                Sort::Bool => true,
                Sort::FSet(e) => plain(e, spec),
                Sort::Named(_) => (spec.constructors_of(sort).iter())
                    .all(|c| c.sort.domain().iter().all(|d| plain(d, spec))),
                _ => false,
            }
        }
        // Finite first: `plain` follows constructors and would not end on a recursive sort.
        let spec = self.spec();
        if !(is_certainly_finite(sort, spec) && plain(sort, spec)) {
            return None;
        }
        self.sort_values(sort, MAX_FINITE_VALUES).ok()
    }

    /// Whether `sort` certainly has infinitely many values.
    fn infinite(&mut self, sort: &Sort) -> bool {
        matches!(
            sort,
            Sort::Pos
                | Sort::Nat
                | Sort::Int
                | Sort::Real
                | Sort::List(_)
                | Sort::FBag(_)
                | Sort::Bag(_)
        ) || matches!(sort, Sort::Set(e) | Sort::FSet(e) if self.infinite(e))
    }
}

/// The count of `t` in the (element, count) pairs `v` of a finite bag (0 when absent).
fn count_in(v: &[(TermId, IntVal)], t: TermId) -> IntVal {
    v.iter()
        .find(|p| p.0 == t)
        .map(|p| p.1.clone())
        .unwrap_or(IntVal::Small(0))
}
