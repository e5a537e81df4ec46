//! Values, equality and order of normal forms: what can be decided on constructor terms and
//! numbers without rewriting further.

use super::*;

impl<'s> Rewriter<'s> {
    // ----- values, equality and order ----------------------------------------------------

    /// Whether `t` is a constructor value (closed, built from constructors and numbers),
    /// for which equality is identity.
    pub(crate) fn is_value(&mut self, t: TermId) -> bool {
        let store = self.store;
        if !store.is_closed(t) {
            return false;
        }
        match store.get(t) {
            Term::Num(..) | Term::BigNum(..) | Term::Real(_) => true,
            Term::Func(f) => matches!(self.kind(*f), Kind::Ctor(_)) || self.is_fn_value(t),
            Term::App(h, args) => match store.get(*h) {
                Term::Func(f) => match self.kind(*f) {
                    Kind::Ctor(Ctor::Set | Ctor::Bag) => {
                        self.is_fn_value(args[0]) && self.is_value(args[1])
                    }
                    Kind::Ctor(_) => args.iter().all(|a| self.is_value(*a)),
                    _ => false,
                },
                _ => false,
            },
            Term::Binder(..) => false,
            Term::Var(_) => false,
        }
    }

    pub(super) fn is_fn_value(&mut self, t: TermId) -> bool {
        match self.store.as_func_app(t) {
            Some((f, [])) => matches!(
                self.kind(f),
                Kind::Op(Op::FalseFn | Op::ZeroFn | Op::TrueFn | Op::OneFn)
            ),
            _ => false,
        }
    }

    /// Decides `a == b` for normal forms where possible.
    pub(crate) fn decide_eq(&mut self, a: TermId, b: TermId) -> Option<bool> {
        if a == b {
            return Some(true);
        }
        let store = self.store;
        if let (
            Term::Num(..) | Term::BigNum(..) | Term::Real(_),
            Term::Num(..) | Term::BigNum(..) | Term::Real(_),
        ) = (store.get(a), store.get(b))
        {
            return Some(false);
        }
        // A number below the other side's lower bound (`Pos2Nat(p) == 0` is false). Read
        // in place: on constructor terms (the usual case) nothing is converted.
        for (n, e) in [(a, b), (b, a)] {
            if let Term::Num(_, y) = store.get(n) {
                if self.lower_bound(e).is_some_and(|l| l > *y) {
                    return Some(false);
                }
            }
        }
        let (fa, aa) = store.as_func_app(a)?;
        let (fb, ba) = store.as_func_app(b)?;
        let (ka, kb) = (self.kind(fa), self.kind(fb));
        match (ka, kb) {
            (Kind::Ctor(Ctor::Bool), Kind::Ctor(Ctor::Bool)) => Some(false),
            (
                Kind::Ctor(Ctor::Struct { index: i, .. }),
                Kind::Ctor(Ctor::Struct { index: j, .. }),
            ) => {
                if i != j {
                    return Some(false);
                }
                self.decide_all_eq(aa, ba)
            }
            (Kind::Ctor(Ctor::Nil), Kind::Ctor(Ctor::ListCons))
            | (Kind::Ctor(Ctor::ListCons), Kind::Ctor(Ctor::Nil)) => Some(false),
            (Kind::Ctor(Ctor::ListCons), Kind::Ctor(Ctor::ListCons)) => self.decide_all_eq(aa, ba),
            (Kind::Ctor(Ctor::FSet | Ctor::FBag), Kind::Ctor(Ctor::FSet | Ctor::FBag)) => {
                if self.is_value(a) && self.is_value(b) {
                    Some(false)
                } else {
                    None
                }
            }
            // One function part: the finite parts are canonical (mCRL2's normal forms), so
            // distinct value parts mean distinct sets. Otherwise see `set_eq`.
            (Kind::Ctor(Ctor::Set), Kind::Ctor(Ctor::Set))
            | (Kind::Ctor(Ctor::Bag), Kind::Ctor(Ctor::Bag)) => {
                if aa[0] == ba[0] && self.is_value(aa[1]) && self.is_value(ba[1]) {
                    Some(false)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    pub(super) fn decide_all_eq(&mut self, xs: &[TermId], ys: &[TermId]) -> Option<bool> {
        if xs.len() != ys.len() {
            return Some(false);
        }
        let mut all = true;
        for (x, y) in xs.iter().zip(ys) {
            match self.decide_eq(*x, *y) {
                Some(false) => return Some(false),
                Some(true) => {}
                None => all = false,
            }
        }
        if all {
            Some(true)
        } else {
            None
        }
    }

    /// `a == b` as a normal form.
    /// `c(x1, …, xn) == c(y1, …, yn)` for one struct constructor (or `cons`) `c` on open
    /// terms: `x1 == y1 && … && xn == yn`, as mCRL2's generated equations for the sort say.
    /// `None` when `a` and `b` are not applications of one constructor.
    pub(crate) fn eq_by_fields(
        &mut self,
        a: TermId,
        b: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let (Some((fa, aa)), Some((fb, ba))) = (store.as_func_app(a), store.as_func_app(b)) else {
            return Ok(None);
        };
        if fa != fb
            || aa.len() != ba.len()
            || aa.is_empty()
            || !matches!(
                self.kind(fa),
                Kind::Ctor(Ctor::Struct { .. } | Ctor::ListCons)
            )
        {
            return Ok(None);
        }
        let pairs: Vec<(TermId, TermId)> = aa.iter().copied().zip(ba.iter().copied()).collect();
        let and = store.func(store.intern_func(&Func {
            name: "&&".into(),
            sort: Sort::Arrow(vec![Sort::Bool, Sort::Bool], Box::new(Sort::Bool)),
        }));
        let mut acc = store.true_term();
        for (x, y) in pairs.into_iter().rev() {
            let e = self.mk_eq(x, y)?;
            acc = self.bool_binop(Op::And, and, e, acc)?;
        }
        Ok(Some(acc))
    }

    pub(crate) fn mk_eq(&mut self, a: TermId, b: TermId) -> Result<TermId, RewriteError> {
        let s = self.store.sort_of(a);
        self.apply_named("==", vec![s.clone(), s], Sort::Bool, &[a, b])
    }

    /// The total order on values used for canonical sets/bags and for `<` on lists, structs,
    /// numbers and Booleans (`false < true`, constructors in declaration order, then fields
    /// lexicographically).
    pub(crate) fn term_cmp(&mut self, a: TermId, b: TermId) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let store = self.store;
        let rank = |t: &Term| match t {
            Term::Num(..) | Term::BigNum(..) | Term::Real(_) => 0,
            Term::Func(_) | Term::App(..) => 1,
            Term::Binder(..) => 2,
            Term::Var(_) => 3,
        };
        let (ta, tb) = (store.get(a), store.get(b));
        if let (Some(x), Some(y)) = (num_of(ta), num_of(tb)) {
            return x.cmp_num(&y);
        }
        let (ra, rb) = (rank(ta), rank(tb));
        if ra != rb {
            return ra.cmp(&rb);
        }
        match (ta, tb) {
            (Term::Var(x), Term::Var(y)) => x.cmp(y),
            (Term::Binder(..), Term::Binder(..)) => a.cmp(&b),
            _ => {
                let (fa, aa) = store.as_func_app(a).unwrap_or((FuncId(u32::MAX), &[]));
                let (fb, ba) = store.as_func_app(b).unwrap_or((FuncId(u32::MAX), &[]));
                if fa != fb {
                    let ka = if fa.0 == u32::MAX {
                        Kind::Map
                    } else {
                        self.kind(fa)
                    };
                    let kb = if fb.0 == u32::MAX {
                        Kind::Map
                    } else {
                        self.kind(fb)
                    };
                    if let (
                        Kind::Ctor(Ctor::Struct { index: i, .. }),
                        Kind::Ctor(Ctor::Struct { index: j, .. }),
                    ) = (ka, kb)
                    {
                        return i.cmp(&j);
                    }
                    if let (Kind::Ctor(Ctor::Nil), Kind::Ctor(Ctor::ListCons)) = (ka, kb) {
                        return Ordering::Less;
                    }
                    if let (Kind::Ctor(Ctor::ListCons), Kind::Ctor(Ctor::Nil)) = (ka, kb) {
                        return Ordering::Greater;
                    }
                    if fa.0 == u32::MAX || fb.0 == u32::MAX {
                        return a.cmp(&b);
                    }
                    let (na, nb) = (&store.func_of(fa).name, &store.func_of(fb).name);
                    return na.cmp(nb).then(fa.cmp(&fb));
                }
                if fa.0 == u32::MAX {
                    // Higher-order heads: compare structurally by head then arguments.
                    if let (Term::App(ha, xa), Term::App(hb, xb)) = (ta, tb) {
                        let c = self.term_cmp(*ha, *hb);
                        if c != Ordering::Equal {
                            return c;
                        }
                        return self.cmp_seq(xa, xb);
                    }
                    return a.cmp(&b);
                }
                self.cmp_seq(aa, ba)
            }
        }
    }

    pub(super) fn cmp_seq(&mut self, xs: &[TermId], ys: &[TermId]) -> Ordering {
        for (x, y) in xs.iter().zip(ys) {
            let c = self.term_cmp(*x, *y);
            if c != Ordering::Equal {
                return c;
            }
        }
        xs.len().cmp(&ys.len())
    }

    /// Decides `a < b` (`strict`) or `a <= b` for normal forms where possible, as mCRL2
    /// defines the orders: numbers and Booleans by value; structs by constructor order, then
    /// the first differing field decides with that field's own `<`; lists lexicographically
    /// with the elements' `<`; sets and bags by (proper) inclusion. `None` when undecided.
    pub(super) fn decide_ord(
        &mut self,
        a: TermId,
        b: TermId,
        strict: bool,
    ) -> Result<Option<bool>, RewriteError> {
        if a == b {
            return Ok(Some(!strict));
        }
        if let (Some(x), Some(y)) = (self.num(a), self.num(b)) {
            let c = x.cmp_num(&y);
            return Ok(Some(if strict { c.is_lt() } else { c.is_le() }));
        }
        if let Some(r) = self.decide_ord_by_bound(a, b, strict) {
            return Ok(Some(r));
        }
        if let (Some(x), Some(y)) = (self.int_sign(a), self.int_sign(b)) {
            if x != y {
                return Ok(Some(x == IntSign::Negative));
            }
        }
        let store = self.store;
        if matches!(
            &*store.sort_ref(a),
            Sort::Set(_) | Sort::FSet(_) | Sort::Bag(_) | Sort::FBag(_)
        ) {
            let tt = store.true_term();
            return Ok(self.subset(a, b, strict)?.map(|r| r == tt));
        }
        let (Some((fa, aa)), Some((fb, ba))) = (store.as_func_app(a), store.as_func_app(b)) else {
            return Ok(None);
        };
        match (self.kind(fa), self.kind(fb)) {
            (Kind::Ctor(Ctor::Bool), Kind::Ctor(Ctor::Bool)) => {
                // a != b here, so a < b iff a is false.
                Ok(Some(a == store.false_term()))
            }
            (
                Kind::Ctor(Ctor::Struct { sort: s1, index: i }),
                Kind::Ctor(Ctor::Struct { sort: s2, index: j }),
            ) if s1 == s2 => {
                if i != j {
                    return Ok(Some(i < j));
                }
                for (x, y) in aa.iter().zip(ba) {
                    match self.decide_eq(*x, *y) {
                        Some(true) => {}
                        Some(false) => return self.decide_ord(*x, *y, true),
                        None => return Ok(None),
                    }
                }
                Ok(Some(!strict))
            }
            (Kind::Ctor(Ctor::Nil), Kind::Ctor(Ctor::ListCons)) => Ok(Some(true)),
            (Kind::Ctor(Ctor::ListCons), Kind::Ctor(Ctor::Nil)) => Ok(Some(false)),
            (Kind::Ctor(Ctor::ListCons), Kind::Ctor(Ctor::ListCons)) => {
                let (d, s, e, t) = (aa[0], aa[1], ba[0], ba[1]);
                match self.decide_eq(d, e) {
                    Some(true) => self.decide_ord(s, t, strict),
                    Some(false) => self.decide_ord(d, e, true),
                    None => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }

    /// A lower bound of the value of a numeric normal form that is not a number: every `Pos`
    /// is at least 1, every `Nat` at least 0, a sum at least the sum of its operands' bounds,
    /// and a widening conversion keeps its operand's. It decides more than mCRL2's equations
    /// do (see [`Self::decide_ord_by_bound`]).
    pub(crate) fn lower_bound(&mut self, t: TermId) -> Option<i64> {
        if let Some(NumVal::I(IntVal::Small(v))) = self.num(t) {
            return Some(v);
        }
        let store = self.store;
        let own = match &*store.sort_ref(t) {
            Sort::Pos => Some(1),
            Sort::Nat => Some(0),
            _ => None,
        };
        let derived = match store.as_func_app(t) {
            Some((f, [x])) if self.kind(f) == Kind::Op(Op::Conv) => {
                if matches!(&*store.sort_ref(*x), Sort::Pos | Sort::Nat) {
                    self.lower_bound(*x)
                } else {
                    None
                }
            }
            Some((f, [x])) if self.kind(f) == Kind::Op(Op::Succ) => {
                self.lower_bound(*x).and_then(|v| v.checked_add(1))
            }
            Some((f, [x, y])) if self.kind(f) == Kind::Op(Op::Add) => {
                match (self.lower_bound(*x), self.lower_bound(*y)) {
                    (Some(u), Some(v)) => u.checked_add(v),
                    _ => None,
                }
            }
            _ => None,
        };
        match (own, derived) {
            (Some(u), Some(v)) => Some(u.max(v)),
            (u, v) => u.or(v),
        }
    }

    /// The least value of `t`'s sort: 1 for `Pos`, 0 for `Nat`.
    fn sort_minimum(&self, t: TermId) -> Option<i64> {
        match &*self.store.sort_ref(t) {
            Sort::Pos => Some(1),
            Sort::Nat => Some(0),
            _ => None,
        }
    }

    /// The constructor an `Int` term is known to have, as mCRL2 sees it (`Int` is
    /// `cint(n: Nat) | cneg(p: Pos)`): `Nat2Int(t)` and `Pos2Int(t)` are `cint`, `-t` of a
    /// `Pos` term is `cneg`, and a literal by its sign. Its equations `cint(m) < cneg(p) =
    /// false` and `cneg(p) < cint(n) = true` (and `<=` alike) then decide comparisons of open
    /// terms: `Nat2Int(n) < -4` is `false`. A `Real` is `creal(i: Int, p: Pos)` compared by
    /// `i * q < j * p`, so the numerator's constructor decides it alike: `Pos2Real(t)` and
    /// `Nat2Real(t)` are `cint`, `Int2Real(t)` is `t`'s, `-25/9 < Pos2Real(3 + [] . 2)`.
    fn int_sign(&self, t: TermId) -> Option<IntSign> {
        let store = self.store;
        let sort = store.sort_ref(t);
        if !matches!(*sort, Sort::Int | Sort::Real) {
            return None;
        }
        let literal = match self.num(t) {
            Some(NumVal::I(v)) => Some(v.signum()),
            Some(NumVal::R(r)) => Some(if r < num_traits::Zero::zero() { -1 } else { 0 }),
            None => None,
        };
        if let Some(sign) = literal {
            return Some(if sign < 0 {
                IntSign::Negative
            } else {
                IntSign::NonNegative
            });
        }
        let (f, args) = store.as_func_app(t)?;
        let func = store.func_of(f);
        match (&*func.name, args) {
            ("Nat2Int" | "Pos2Int" | "Nat2Real" | "Pos2Real", [_]) => Some(IntSign::NonNegative),
            ("Int2Real", [i]) => self.int_sign(*i),
            ("-", [p]) if *store.sort_ref(*p) == Sort::Pos => Some(IntSign::Negative),
            _ => None,
        }
    }

    /// The bound [`Self::decide_ord_by_bound`] uses for `t`: with `mcrl2_order` the least
    /// value of its sort, else its [`Self::lower_bound`].
    fn order_bound(&mut self, t: TermId) -> Option<i64> {
        if self.mcrl2_order {
            self.sort_minimum(t)
        } else {
            self.lower_bound(t)
        }
    }

    /// `a < b` (or `a <= b`) decided by a number on one side and a lower bound of the other.
    /// With `mcrl2_order` that bound is the least value of the sort, so exactly mCRL2
    /// 202607.0's equations `n < 0 = false`, `0 <= n = true`, `p < 1 = false`, `1 <= p =
    /// true` (and their mirrors through `>`, `>=`) apply: its 64-bit numbers leave `0 <
    /// Pos2Nat(q)` and `0 < n + 1` as they are, and the lineariser must too (random seed 25
    /// #82: `Q0(0 < q)` keeps `q`, 14 states).
    pub(crate) fn decide_ord_by_bound(
        &mut self,
        a: TermId,
        b: TermId,
        strict: bool,
    ) -> Option<bool> {
        if let Some(NumVal::I(IntVal::Small(y))) = self.num(b) {
            // a >= l: `a < y` is false when l >= y, `a <= y` when l > y.
            let l = self.order_bound(a)?;
            if (strict && l >= y) || (!strict && l > y) {
                return Some(false);
            }
        } else if let Some(NumVal::I(IntVal::Small(x))) = self.num(a) {
            // b >= l: `x < b` holds when x < l, `x <= b` when x <= l.
            let l = self.order_bound(b)?;
            if (strict && x < l) || (!strict && x <= l) {
                return Some(true);
            }
        }
        None
    }
}

/// Which of `Int`'s constructors a term has (see [`Rewriter::int_sign`]).
#[derive(Clone, Copy, PartialEq, Eq)]
enum IntSign {
    NonNegative,
    Negative,
}
