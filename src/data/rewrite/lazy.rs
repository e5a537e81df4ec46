//! Arguments rewritten only when needed, as mCRL2's JITty rewriter does.
//!
//! Why: mCRL2 rewrites an argument of a user function only at the step of the function's
//! strategy that needs it (`strategy.rs`): an equation tried before that step gets the
//! argument as written, and its right-hand side decides whether it is ever rewritten. So
//! `first(x, y) = x` never rewrites `y`, and `first(1, loop(0))` is `1` where innermost
//! rewriting does not terminate; an accumulator that is returned only at the end is not
//! rewritten on the way. Matching the normal forms is not enough: which terms finish must
//! match too, or a state space mCRL2 explores stops with a recursion error in muon.
//!
//! How: a call of a function with lazy arguments passes those arguments as *raw* terms
//! (the argument with the caller's bindings substituted, see [`Rewriter::instantiate`])
//! with a bit mask saying which are raw. [`Rewriter::apply_user`] walks the strategy's
//! steps: a `Rewrite(i)` step rewrites argument `i` if it is raw, a `Try(k)` step tries
//! equation `k`, whose patterns at the raw arguments are linear variables (the strategy
//! rewrote every argument the equation inspects). A raw argument bound to a variable stays
//! raw in the equation's bindings (`Code::RawReg`, or a raw binding of the interpreter's
//! environment) and is rewritten where the right-hand side uses it. When no equation
//! applies, the remaining raw arguments are rewritten and the application is the normal
//! form. Arguments that are normal forms already, or pure arithmetic on numbers (which
//! always finishes), are rewritten before the call instead: that gives the same normal form
//! and saves interning the term.

use super::compiled::Code;
use super::strategy::Step;
use super::*;

impl<'s> Rewriter<'s> {
    /// The arguments (bits) of `f` applied to `n` arguments that its strategy rewrites only
    /// when needed; 0 for plain innermost rewriting.
    #[inline]
    pub(super) fn lazy_args(&self, f: FuncId, n: usize) -> u64 {
        match self.strats.get(f.0 as usize) {
            Some(Some(s)) if s.arity == n => s.lazy,
            _ => 0,
        }
    }

    /// The normal form of a raw term (a term with its bindings substituted, so it is
    /// rewritten in a frame of its own: the current frame's bindings do not apply to it).
    pub(super) fn eval_raw(&mut self, t: TermId) -> Result<TermId, RewriteError> {
        if self.store.is_closed(t) {
            return self.eval(t);
        }
        let mark = self.enter();
        let r = self.eval(t);
        self.leave(mark);
        r
    }

    /// The interpreter's call of a function `f` with lazy arguments (`lazy`, bits).
    pub(super) fn eval_app_lazy(
        &mut self,
        f: FuncId,
        h: TermId,
        args: &[TermId],
        lazy: u64,
    ) -> Result<TermId, RewriteError> {
        let mut buf = [TermId(0); 6];
        let mut heap = Vec::new();
        let vals: &mut [TermId] = if args.len() <= buf.len() {
            &mut buf[..args.len()]
        } else {
            heap.resize(args.len(), TermId(0));
            &mut heap
        };
        let mut raw = 0u64;
        for (i, &a) in args.iter().enumerate() {
            if lazy & (1 << i) != 0 {
                if let Some((t, is_raw)) = self.delay_arg(a) {
                    vals[i] = t;
                    if is_raw {
                        raw |= 1 << i;
                    }
                    continue;
                }
            }
            vals[i] = self.eval(a)?;
        }
        self.apply_user(f, h, vals, raw)
    }

    /// Argument `t` of a call, not rewritten: its value if it is a bound variable, else `t`
    /// with the current bindings substituted, and whether that is raw. `None` when a binder
    /// in `t` could capture a variable of a substituted value (then `t` is rewritten now).
    fn delay_arg(&mut self, t: TermId) -> Option<(TermId, bool)> {
        let store = self.store;
        if store.is_closed(t) {
            return Some((t, !self.is_known_nf(t)));
        }
        if let Term::Var(v) = store.get(t) {
            return Some(self.lookup_raw(*v).unwrap_or((t, false)));
        }
        Some((self.instantiate(t)?, true))
    }

    /// `t` with the variables bound in the current frame replaced by their values (raw or
    /// not: the result is rewritten later as a whole). `None` if a binder in `t` binds a
    /// variable free in a value (capture).
    pub(super) fn instantiate(&mut self, t: TermId) -> Option<TermId> {
        let store = self.store;
        if store.is_closed(t) {
            return Some(t);
        }
        match store.get(t) {
            Term::Var(v) => Some(self.lookup(*v).unwrap_or(t)),
            Term::App(h, args) => {
                let h2 = self.instantiate(*h)?;
                let mut buf = [TermId(0); 6];
                let mut heap = Vec::new();
                let a2: &[TermId] = if args.len() <= buf.len() {
                    for (i, a) in args.iter().enumerate() {
                        buf[i] = self.instantiate(*a)?;
                    }
                    &buf[..args.len()]
                } else {
                    for a in args.iter() {
                        heap.push(self.instantiate(*a)?);
                    }
                    &heap
                };
                Some(store.app(h2, a2))
            }
            Term::Binder(k, vs, body) => {
                if self.frame_has_open_values(self.frame_start) {
                    return None;
                }
                // The bound variables shadow the frame's bindings inside the body.
                let mark = self.saved.len();
                for v in vs.iter() {
                    self.bind(*v, store.var(*v));
                }
                let b = self.instantiate(*body);
                while self.saved.len() > mark {
                    let (v, old) = self.saved.pop().expect("saved binding");
                    self.env[v.0 as usize] = old;
                }
                Some(store.binder(*k, vs, b?))
            }
            _ => Some(t),
        }
    }

    /// Applies user function `f` to `args`, of which those in `raw` (bits) are not rewritten
    /// yet, by its strategy: argument rewrites and equations in mCRL2's JITty order.
    pub(super) fn apply_user(
        &mut self,
        f: FuncId,
        h: TermId,
        args: &mut [TermId],
        mut raw: u64,
    ) -> Result<TermId, RewriteError> {
        if raw == 0 {
            return self.apply_func(f, h, args);
        }
        let strats: &'s Strategies = self.strats;
        let Some(Some(strat)) = strats.get(f.0 as usize) else {
            unreachable!("raw arguments only for a symbol with a lazy strategy")
        };
        for step in strat.steps.iter() {
            match *step {
                Step::Rewrite(i) => {
                    if raw & (1 << i) != 0 {
                        args[i] = self.eval_raw(args[i])?;
                        raw &= !(1 << i);
                    }
                }
                Step::Try(k) => {
                    if let Some(r) = self.try_rule_at(f, k, args, raw)? {
                        return Ok(r);
                    }
                }
            }
        }
        // No equation applies: the normal form is the application to normal forms.
        for (i, a) in args.iter_mut().enumerate() {
            if raw & (1 << i) != 0 {
                *a = self.eval_raw(*a)?;
            }
        }
        Ok(self.store.app(h, args))
    }

    /// A compiled call `f(args…)` passing the arguments in `delay` (bits) unrewritten;
    /// `user` as in [`Code::App`].
    pub(super) fn run_delayed(
        &mut self,
        f: FuncId,
        h: TermId,
        args: &[Code],
        delay: u64,
        user: bool,
        (base, vars, raw): (usize, &[(VarId, u16)], u64),
    ) -> Result<TermId, RewriteError> {
        let mut buf = [TermId(0); 6];
        let mut heap = Vec::new();
        let vals: &mut [TermId] = if args.len() <= buf.len() {
            &mut buf[..args.len()]
        } else {
            heap.resize(args.len(), TermId(0));
            &mut heap
        };
        let mut now_raw = 0u64;
        for (i, a) in args.iter().enumerate() {
            if delay & (1 << i) != 0 {
                let (t, is_raw) = self.build(a, base, vars, raw);
                vals[i] = t;
                if is_raw {
                    now_raw |= 1 << i;
                }
            } else {
                vals[i] = self.run(a, base, vars, raw)?;
            }
        }
        // Every delayed argument was a normal form already (a register rewritten before
        // this call): the plain call, straight to the equations as in `Code::App`.
        let r = if now_raw == 0 && user {
            match self.try_rules(f, vals, false)? {
                Some(r) => r,
                None => self.store.app(h, vals),
            }
        } else {
            self.apply_user(f, h, vals, now_raw)?
        };
        self.note_nf(r);
        Ok(r)
    }

    /// The term a code tree stands for under the registers from `base` on, not rewritten,
    /// and whether it is raw (else a normal form).
    fn build(
        &mut self,
        code: &Code,
        base: usize,
        vars: &[(VarId, u16)],
        raw: u64,
    ) -> (TermId, bool) {
        let store = self.store;
        match code {
            Code::Reg(r) => (self.slots[base + *r as usize], false),
            Code::RawReg(r) => (self.slots[base + *r as usize], raw & (1 << r) != 0),
            Code::Closed(t) => (*t, !self.is_known_nf(*t)),
            Code::App { head, args, .. }
            | Code::Ctor { head, args }
            | Code::Word { head, args, .. }
            | Code::Lazy { head, args, .. } => {
                let mut buf = [TermId(0); 6];
                let mut heap = Vec::new();
                let a2: &[TermId] = if args.len() <= buf.len() {
                    for (i, a) in args.iter().enumerate() {
                        buf[i] = self.build(a, base, vars, raw).0;
                    }
                    &buf[..args.len()]
                } else {
                    for a in args.iter() {
                        let x = self.build(a, base, vars, raw).0;
                        heap.push(x);
                    }
                    &heap
                };
                (store.app(*head, a2), true)
            }
            Code::Interp(t) => {
                let sigma: Substitution = vars
                    .iter()
                    .map(|&(v, r)| (v, self.slots[base + r as usize]))
                    .collect();
                (substitute(store, *t, &sigma), true)
            }
        }
    }

    /// Whether `t` (a subterm of an equation's right-hand side or condition) is arithmetic or
    /// logic on numbers and Booleans over variables bound to normal forms (not in `raw`):
    /// rewriting it always finishes, so it may be rewritten before a call that would
    /// otherwise leave it alone, with the same normal form.
    pub(super) fn safe_term(&mut self, t: TermId, vars: &[(VarId, u16)], raw: u64) -> bool {
        let store = self.store;
        let simple_sort = |s: &Sort| {
            matches!(
                s,
                Sort::Bool | Sort::Pos | Sort::Nat | Sort::Int | Sort::Real
            )
        };
        match store.get(t) {
            Term::Num(..) | Term::BigNum(..) | Term::Real(_) => true,
            Term::Func(f) => matches!(self.kind(*f), Kind::Ctor(Ctor::Bool)),
            Term::Var(v) => {
                let normal = match vars.iter().find(|(w, _)| w == v) {
                    Some(&(_, r)) => r >= 64 || raw & (1 << r) == 0,
                    None => false,
                };
                normal && simple_sort(&store.var_of(*v).sort)
            }
            Term::App(h, args) => {
                let Term::Func(f) = store.get(*h) else {
                    return false;
                };
                use Op::*;
                let op_ok = matches!(
                    self.kind(*f),
                    Kind::Op(
                        Not | And
                            | Or
                            | Imp
                            | Eq
                            | Neq
                            | Lt
                            | Le
                            | Gt
                            | Ge
                            | If
                            | Add
                            | Sub
                            | Neg
                            | Mul
                            | Div
                            | Mod
                            | Min
                            | Max
                            | Abs
                            | Succ
                            | Pred
                            | Conv
                    )
                );
                op_ok && args.iter().all(|a| self.safe_term(*a, vars, raw))
            }
            Term::Binder(..) => false,
        }
    }
}
