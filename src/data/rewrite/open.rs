//! Built-ins on open or stuck arguments. Native evaluation needs values; where an argument
//! is a variable or a stuck term (`viewNum(nullQC)`, a projection on the wrong
//! constructor), mCRL2 still rewrites by the defining equations of its numeric sorts, and
//! non-confluent user equations can make the result observable (which of two conditional
//! rules fires). These are those equations, applied only when native evaluation did not
//! decide:
//! - `max(x, y) = if(x <= y, y, x)` and `min(x, y) = if(x <= y, x, y)` on `Pos`, `Nat`
//!   and `Int`; `if(x < y, …)` on `Real`; `max(p, n) = max(n, p) = if(n <= Pos2Nat(p), p,
//!   Nat2Pos(n))` between `Pos` and `Nat`;
//! - injective conversions compare by their arguments: `Pos2Nat(a) == Pos2Nat(b)` is
//!   `a == b` (mCRL2 reaches this through its constructors, e.g. `@cInt(m) == @cInt(n)`),
//!   and `Pos2Nat(a) == 3` is `a == 3`, `Pos2Nat(a) == 0` is `false`. The enumerator then
//!   sees the equation it can solve.

use super::*;

/// Conversions that are injective: `f(a) == f(b)` iff `a == b`.
const INJECTIVE: [&str; 6] = [
    "Pos2Nat", "Pos2Int", "Nat2Int", "Pos2Real", "Nat2Real", "Int2Real",
];

impl<'s> Rewriter<'s> {
    /// `name: sorts -> cod` applied to `args` and rewritten (the arguments are normal forms).
    pub(super) fn apply_named(
        &mut self,
        name: &str,
        sorts: Vec<Sort>,
        cod: Sort,
        args: &[TermId],
    ) -> Result<TermId, RewriteError> {
        let f = self.store.intern_func(&Func {
            name: name.into(),
            sort: Sort::Arrow(sorts, Box::new(cod)),
        });
        let h = self.store.func(f);
        self.apply_func(f, h, args)
    }

    /// `max`/`min` by their defining equations when an argument is not a number.
    pub(super) fn open_min_max(
        &mut self,
        op: Op,
        cod: &Sort,
        a: TermId,
        b: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        if self.num(a).is_some() && self.num(b).is_some() {
            return Ok(None);
        }
        let (sa, sb) = (self.store.sort_of(a), self.store.sort_of(b));
        let max = op == Op::Max;
        if sa == sb && matches!(sa, Sort::Pos | Sort::Nat | Sort::Int | Sort::Real) {
            // Real compares strictly: `max(r, s) = if(r < s, s, r)`.
            let cmp = if sa == Sort::Real { "<" } else { "<=" };
            let c = self.apply_named(cmp, vec![sa.clone(), sa.clone()], Sort::Bool, &[a, b])?;
            let (then, other) = if max { (b, a) } else { (a, b) };
            let r = self.apply_named(
                "if",
                vec![Sort::Bool, sa.clone(), sa],
                cod.clone(),
                &[c, then, other],
            )?;
            return Ok(Some(r));
        }
        // `max(p, n) = max(n, p) = if(n <= Pos2Nat(p), p, Nat2Pos(n))`.
        let pn = match (&sa, &sb) {
            (Sort::Pos, Sort::Nat) => Some((a, b)),
            (Sort::Nat, Sort::Pos) => Some((b, a)),
            _ => None,
        };
        if let (true, Some((p, n)), Sort::Pos) = (max, pn, cod) {
            let pnat = self.apply_named("Pos2Nat", vec![Sort::Pos], Sort::Nat, &[p])?;
            let c = self.apply_named("<=", vec![Sort::Nat, Sort::Nat], Sort::Bool, &[n, pnat])?;
            let npos = self.apply_named("Nat2Pos", vec![Sort::Nat], Sort::Pos, &[n])?;
            let r = self.apply_named(
                "if",
                vec![Sort::Bool, Sort::Pos, Sort::Pos],
                Sort::Pos,
                &[c, p, npos],
            )?;
            return Ok(Some(r));
        }
        Ok(None)
    }

    /// The argument and its sort if `t` is an injective conversion applied to a non-number.
    fn injective_arg(&self, t: TermId) -> Option<(&'static str, TermId)> {
        let (f, args) = self.store.as_func_app(t)?;
        let name: &str = &self.store.func_of(f).name;
        let conv = INJECTIVE.iter().find(|c| **c == name)?;
        (args.len() == 1).then(|| (*conv, args[0]))
    }

    /// `f(a) == f(b)` as `a == b`, and `f(a) == k` as `a == k'` (or `false` when the
    /// number `k` is outside `f`'s domain), for an injective conversion `f`.
    pub(super) fn eq_by_conversion(
        &mut self,
        a: TermId,
        b: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        match (self.injective_arg(a), self.injective_arg(b)) {
            (Some((f, x)), Some((g, y))) if f == g => Ok(Some(self.mk_eq(x, y)?)),
            (Some((_, x)), None) => self.eq_conv_number(x, b),
            (None, Some((_, y))) => self.eq_conv_number(y, a),
            _ => Ok(None),
        }
    }

    fn eq_conv_number(&mut self, x: TermId, k: TermId) -> Result<Option<TermId>, RewriteError> {
        let Some(v) = self.num(k) else {
            return Ok(None);
        };
        let sort = self.store.sort_of(x);
        Ok(Some(match self.mk_num(&sort, v) {
            Some(k2) => self.mk_eq(x, k2)?,
            None => self.store.false_term(),
        }))
    }
}
