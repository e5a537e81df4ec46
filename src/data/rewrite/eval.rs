//! The evaluation loop: environments, evaluation (innermost but for the lazy arguments of
//! `lazy.rs`) with lazy `if`/`&&`/`||`/`=>`, binders and quantifiers, and the application of
//! built-ins, projections and user equations.

use super::*;

impl<'s> Rewriter<'s> {
    // ----- environment -------------------------------------------------------------------

    pub(super) fn enter(&mut self) -> (u32, usize, usize) {
        let m = (self.frame, self.saved.len(), self.frame_start);
        self.frame_start = self.saved.len();
        self.frame = self.next_frame;
        self.next_frame = self.next_frame.wrapping_add(1).max(1);
        m
    }

    pub(super) fn leave(&mut self, (frame, len, start): (u32, usize, usize)) {
        self.frame_start = start;
        while self.saved.len() > len {
            let (v, old) = self.saved.pop().expect("saved binding");
            self.env[v.0 as usize] = old;
        }
        self.frame = frame;
    }

    pub(super) fn bind(&mut self, v: VarId, t: TermId) {
        self.bind_as(v, t, false);
    }

    /// Binds `v` to `t`, which is not rewritten yet if `raw` (rewritten at its first use).
    pub(super) fn bind_as(&mut self, v: VarId, t: TermId, raw: bool) {
        let i = v.0 as usize;
        if i >= self.env.len() {
            self.env.resize(i + 1, (0, TermId(0), false));
        }
        self.saved.push((v, self.env[i]));
        self.env[i] = (self.frame, t, raw);
    }

    /// The value bound to `v` in the current frame (raw or not).
    pub(super) fn lookup(&self, v: VarId) -> Option<TermId> {
        self.lookup_raw(v).map(|(t, _)| t)
    }

    /// The value bound to `v` in the current frame and whether it is still raw.
    pub(super) fn lookup_raw(&self, v: VarId) -> Option<(TermId, bool)> {
        match self.env.get(v.0 as usize) {
            Some(&(f, t, raw)) if f == self.frame => Some((t, raw)),
            _ => None,
        }
    }

    /// Bindings of the current frame whose values are open (for capture avoidance).
    pub(super) fn frame_has_open_values(&self, mark_len: usize) -> bool {
        self.saved[mark_len..]
            .iter()
            .any(|(v, _)| matches!(self.lookup(*v), Some(t) if !self.store.is_closed(t)))
    }

    /// What `f` is to the rewriter (cached per context). Inlined: every application asks.
    #[inline]
    pub(crate) fn kind(&mut self, f: FuncId) -> Kind {
        match self.kinds.get(f.0 as usize) {
            Some(Some(k)) => *k,
            _ => self.classify(f),
        }
    }

    /// [`Rewriter::kind`] on a cache miss: classifies `f` and caches it.
    #[cold]
    #[inline(never)]
    fn classify(&mut self, f: FuncId) -> Kind {
        let i = f.0 as usize;
        let k = match self.sys.kinds.get(&f) {
            Some(k) => *k,
            None => classify_builtin(self.store.func_of(f)),
        };
        if i >= self.kinds.len() {
            self.kinds.resize(i + 1, None);
        }
        self.kinds[i] = Some(k);
        k
    }

    pub(crate) fn fresh_var(&mut self, sort: &Sort) -> VarId {
        self.fresh += 1;
        self.store.intern_var(&Var {
            name: format!("@v{}", self.fresh).into(),
            sort: sort.clone(),
        })
    }

    pub(super) fn too_deep(&self, t: TermId) -> RewriteError {
        RewriteErrorKind::TooDeep {
            limit: self.max_stack,
            term: self.show(t),
        }
        .into()
    }

    /// A short textual rendering of a term for error messages.
    pub fn show(&self, t: TermId) -> String {
        let mut s = String::new();
        show_term(self.store, t, &mut s, 6);
        s
    }

    // ----- evaluation --------------------------------------------------------------------

    pub(crate) fn eval(&mut self, t: TermId) -> Result<TermId, RewriteError> {
        let store = self.store;
        match store.get(t) {
            Term::Num(..) | Term::BigNum(..) | Term::Real(_) => Ok(t),
            Term::Var(v) => match self.lookup_raw(*v) {
                Some((x, false)) => Ok(x),
                Some((x, true)) => {
                    let r = self.eval_raw(x)?;
                    // Rewritten once: later uses (in a lambda's body) see the normal form.
                    self.env[v.0 as usize] = (self.frame, r, false);
                    Ok(r)
                }
                None => Ok(t),
            },
            Term::Func(f) => {
                if let Some(k) = self.kinds.get(f.0 as usize).copied().flatten() {
                    if matches!(k, Kind::Ctor(_)) {
                        return Ok(t);
                    }
                }
                self.apply_func(*f, t, &[])
            }
            Term::App(h, args) => {
                // Stack in use, measured by address (stacks grow down on every supported
                // target; `abs_diff` keeps this safe either way).
                let closed = store.is_closed(t);
                if closed && self.is_known_nf(t) {
                    return Ok(t);
                }
                let probe = 0u8;
                let here = std::hint::black_box(&probe) as *const u8 as usize;
                if self.stack_base != 0 && here.abs_diff(self.stack_base) > self.max_stack {
                    return Err(self.too_deep(t));
                }
                let r = self.eval_app(*h, args)?;
                // A result is a normal form; if it is closed it stays one in every context.
                if store.is_closed(r) {
                    self.mark_nf(r);
                }
                Ok(r)
            }
            Term::Binder(kind, vs, body) => self.eval_binder(*kind, vs, *body),
        }
    }

    #[inline]
    pub(super) fn is_known_nf(&self, t: TermId) -> bool {
        let i = t.0 as usize;
        self.nf_bits
            .get(i >> 6)
            .is_some_and(|w| w & (1u64 << (i & 63)) != 0)
    }

    #[inline]
    pub(super) fn mark_nf(&mut self, t: TermId) {
        let i = t.0 as usize;
        match self.nf_bits.get_mut(i >> 6) {
            Some(w) => *w |= 1u64 << (i & 63),
            None => self.mark_nf_grow(t),
        }
    }

    /// [`Rewriter::mark_nf`] past the end of the bits: grows them first.
    #[cold]
    #[inline(never)]
    fn mark_nf_grow(&mut self, t: TermId) {
        let i = t.0 as usize;
        self.nf_bits.resize((i >> 6) + 1024, 0);
        self.nf_bits[i >> 6] |= 1u64 << (i & 63);
    }

    /// Marks `r`, a normal form, as one if it is closed (an open normal form may rewrite
    /// further once its variables are bound, so it is not marked).
    #[inline]
    pub(super) fn note_nf(&mut self, r: TermId) {
        if self.store.is_closed(r) {
            self.mark_nf(r);
        }
    }

    pub(super) fn eval_app(&mut self, h: TermId, args: &[TermId]) -> Result<TermId, RewriteError> {
        let store = self.store;
        // Normal-form arguments go to a stack buffer: no allocation for the usual arities.
        let mut buf = [TermId(0); 6];
        let mut heap = Vec::new();
        let n = args.len();
        if let Term::Func(f) = store.get(h) {
            let k = self.kind(*f);
            if let Kind::Op(op @ (Op::If | Op::And | Op::Or | Op::Imp)) = k {
                if n == if op == Op::If { 3 } else { 2 } {
                    return self.eval_lazy(op, h, args);
                }
            }
            if k == Kind::Map {
                let lazy = self.lazy_args(*f, n);
                if lazy != 0 {
                    return self.eval_app_lazy(*f, h, args, lazy);
                }
            }
            let nargs = self.eval_args(args, &mut buf, &mut heap)?;
            return self.apply_func(*f, h, nargs);
        }
        let hn = self.eval(h)?;
        let nargs = self.eval_args(args, &mut buf, &mut heap)?;
        self.apply(hn, nargs)
    }

    pub(super) fn eval_args<'b>(
        &mut self,
        args: &[TermId],
        buf: &'b mut [TermId; 6],
        heap: &'b mut Vec<TermId>,
    ) -> Result<&'b [TermId], RewriteError> {
        if args.len() <= buf.len() {
            for (i, a) in args.iter().enumerate() {
                buf[i] = self.eval(*a)?;
            }
            Ok(&buf[..args.len()])
        } else {
            for a in args {
                let v = self.eval(*a)?;
                heap.push(v);
            }
            Ok(heap)
        }
    }

    /// `if`, `&&`, `||`, `=>`: the condition / left operand first, then only what is
    /// needed (`args` are terms for the interpreter or code trees of a compiled equation).
    pub(super) fn eval_lazy<A: LazyArgs + ?Sized>(
        &mut self,
        op: Op,
        h: TermId,
        args: &A,
    ) -> Result<TermId, RewriteError> {
        let (tt, ff) = (self.store.true_term(), self.store.false_term());
        let c = args.eval_arg(self, 0)?;
        match op {
            Op::If => {
                if c == tt {
                    return args.eval_arg(self, 1);
                }
                if c == ff {
                    return args.eval_arg(self, 2);
                }
                let a = args.eval_arg(self, 1)?;
                let b = args.eval_arg(self, 2)?;
                if a == b {
                    return Ok(a);
                }
                Ok(self.store.app(h, &[c, a, b]))
            }
            Op::And | Op::Or | Op::Imp => {
                let (short, pass) = match op {
                    Op::And => (ff, tt),
                    Op::Or => (tt, ff),
                    _ => (tt, tt),
                };
                // `false => b` is `true`; `true => b` is `b`.
                if op == Op::Imp {
                    if c == ff {
                        return Ok(tt);
                    }
                    if c == tt {
                        return args.eval_arg(self, 1);
                    }
                } else {
                    if c == short {
                        return Ok(short);
                    }
                    if c == pass {
                        return args.eval_arg(self, 1);
                    }
                }
                let b = args.eval_arg(self, 1)?;
                self.bool_binop(op, h, c, b)
            }
            _ => unreachable!("not a lazy operator"),
        }
    }

    /// `&&`, `||`, `=>` on normal forms, with the standard simplifications.
    pub(super) fn bool_binop(
        &mut self,
        op: Op,
        h: TermId,
        a: TermId,
        b: TermId,
    ) -> Result<TermId, RewriteError> {
        let (tt, ff) = (self.store.true_term(), self.store.false_term());
        let r = match op {
            Op::And => {
                if a == ff || b == ff {
                    ff
                } else if a == tt {
                    b
                } else if b == tt {
                    a
                } else {
                    self.store.app(h, &[a, b])
                }
            }
            Op::Or => {
                if a == tt || b == tt {
                    tt
                } else if a == ff {
                    b
                } else if b == ff {
                    a
                } else {
                    self.store.app(h, &[a, b])
                }
            }
            _ => {
                if a == ff || b == tt {
                    tt
                } else if a == tt {
                    b
                } else if b == ff {
                    self.not(a)
                } else {
                    self.store.app(h, &[a, b])
                }
            }
        };
        Ok(r)
    }

    pub(super) fn not(&mut self, a: TermId) -> TermId {
        let (tt, ff) = (self.store.true_term(), self.store.false_term());
        if a == tt {
            return ff;
        }
        if a == ff {
            return tt;
        }
        if let Some((f, [x])) = self.store.as_func_app(a) {
            if self.kind(f) == Kind::Op(Op::Not) {
                return *x;
            }
        }
        let nf = self.store.intern_func(&Func {
            name: "!".into(),
            sort: Sort::Arrow(vec![Sort::Bool], Box::new(Sort::Bool)),
        });
        self.store.app_func(nf, &[a])
    }

    /// `!t` with the negation pushed through `&&`, `||` and `=>`, so that the enumerator
    /// sees the bounds of `forall x. x < K => …` as conjuncts of the counterexample goal.
    pub(super) fn negate(&mut self, t: TermId) -> TermId {
        let store = self.store;
        if let Some((f, [a, b])) = store.as_func_app(t) {
            let (a, b) = (*a, *b);
            let bool2 = Sort::Arrow(vec![Sort::Bool, Sort::Bool], Box::new(Sort::Bool));
            let mk = |name: &str| {
                store.func(store.intern_func(&Func {
                    name: name.into(),
                    sort: bool2.clone(),
                }))
            };
            match self.kind(f) {
                Kind::Op(Op::And) => {
                    let (na, nb) = (self.negate(a), self.negate(b));
                    return self.bool_binop(Op::Or, mk("||"), na, nb).unwrap_or(t);
                }
                Kind::Op(Op::Or) => {
                    let (na, nb) = (self.negate(a), self.negate(b));
                    return self.bool_binop(Op::And, mk("&&"), na, nb).unwrap_or(t);
                }
                Kind::Op(Op::Imp) => {
                    let nb = self.negate(b);
                    return self.bool_binop(Op::And, mk("&&"), a, nb).unwrap_or(t);
                }
                _ => {}
            }
        }
        self.not(t)
    }

    pub(super) fn eval_binder(
        &mut self,
        kind: Binder,
        vs: &[VarId],
        body: TermId,
    ) -> Result<TermId, RewriteError> {
        let store = self.store;
        // Capture avoidance: rename bound variables that occur in open values of the frame.
        let mut vars: Vec<VarId> = vs.to_vec();
        let mark = self.saved.len();
        let mut renamed: Vec<(VarId, TermId)> = Vec::new();
        let start = self.frame_start;
        if self.frame_has_open_values(start) {
            for v in vars.iter_mut() {
                let clash = self.saved[start..]
                    .iter()
                    .any(|(w, _)| matches!(self.lookup(*w), Some(t) if store.occurs_free(*v, t)));
                if clash {
                    let sort = store.var_of(*v).sort.clone();
                    let nv = self.fresh_var(&sort);
                    renamed.push((*v, store.var(nv)));
                    *v = nv;
                }
            }
        }
        // Bound variables shadow outer bindings (bound to themselves / their new names).
        for (i, v) in vs.iter().enumerate() {
            let val = renamed
                .iter()
                .find(|(o, _)| o == v)
                .map(|(_, n)| *n)
                .unwrap_or_else(|| store.var(vars[i]));
            self.bind(*v, val);
        }
        let b = self.eval(body);
        // Restore the shadowed bindings (they live in the current frame).
        while self.saved.len() > mark {
            let (v, old) = self.saved.pop().expect("saved binding");
            self.env[v.0 as usize] = old;
        }
        let b = b?;
        match kind {
            Binder::Lambda => Ok(store.binder(kind, &vars, b)),
            Binder::Forall | Binder::Exists => self.eval_quantifier(kind, &vars, b),
            // mCRL2: `{x: S | c}` is `@setcomp(lambda x. c)` = `@set(lambda x. c, {})`.
            Binder::SetComprehension => {
                let el = store.var_of(vars[0]).sort.clone();
                let f = store.binder(Binder::Lambda, &vars, b);
                Ok(Internal::set(
                    store,
                    &el,
                    f,
                    Internal::fset(store, &el, &[]),
                ))
            }
            Binder::BagComprehension => {
                let el = store.var_of(vars[0]).sort.clone();
                let f = store.binder(Binder::Lambda, &vars, b);
                Ok(Internal::bag(
                    store,
                    &el,
                    f,
                    Internal::fbag(store, &el, &[]),
                ))
            }
        }
    }

    pub(super) fn eval_quantifier(
        &mut self,
        kind: Binder,
        vars: &[VarId],
        body: TermId,
    ) -> Result<TermId, RewriteError> {
        let store = self.store;
        let (tt, ff) = (store.true_term(), store.false_term());
        if body == tt || body == ff {
            return Ok(body);
        }
        let used: Vec<VarId> = vars
            .iter()
            .copied()
            .filter(|v| store.occurs_free(*v, body))
            .collect();
        if used.is_empty() {
            return Ok(body);
        }
        // exists: look for a witness of body; forall: look for a counterexample (!body).
        let goal = if kind == Binder::Exists {
            body
        } else {
            self.negate(body)
        };
        let mut found = false;
        let mut undecided = false;
        let res = self
            .enumerator()
            .enumerate(&used, goal, &mut |_, residual| {
                if residual == tt {
                    found = true;
                    false
                } else {
                    undecided = true;
                    true
                }
            });
        match res {
            Ok(()) => {}
            // Numbers no condition bounds: mCRL2 tries the first values of its breadth-first
            // enumeration and leaves the quantifier as it is when none decides it.
            Err(EnumError::Unbounded { .. } | EnumError::Budget { .. })
                if crate::data::qlimit::covers(self, &used) =>
            {
                if crate::data::qlimit::find_witness(self, &used, goal)? {
                    return Ok(if kind == Binder::Exists { tt } else { ff });
                }
                return Ok(store.binder(kind, &used, body));
            }
            Err(EnumError::Rewrite(e)) => return Err(*e),
            // A sort mCRL2 cannot enumerate (`Real`, bags), or too many values: mCRL2
            // leaves the quantifier as it is, and so does muon.
            Err(_) => return Ok(store.binder(kind, &used, body)),
        }
        if found {
            return Ok(if kind == Binder::Exists { tt } else { ff });
        }
        if undecided {
            return Ok(store.binder(kind, &used, body));
        }
        Ok(if kind == Binder::Exists { ff } else { tt })
    }

    /// Applies a normal-form head to normal-form arguments.
    pub(crate) fn apply(&mut self, h: TermId, args: &[TermId]) -> Result<TermId, RewriteError> {
        let store = self.store;
        match store.get(h) {
            Term::Func(f) => self.apply_func(*f, h, args),
            Term::Binder(Binder::Lambda, vs, body) if vs.len() == args.len() => {
                let mark = self.enter();
                for (v, a) in vs.iter().zip(args) {
                    self.bind(*v, *a);
                }
                let r = self.eval(*body);
                self.leave(mark);
                r
            }
            Term::App(g, gargs) => {
                if let Term::Func(u) = store.get(*g) {
                    if let (Kind::Op(op), [x]) = (self.kind(*u), args) {
                        if let Some(r) = self.apply_fn(op, gargs, *x)? {
                            return Ok(r);
                        }
                    }
                    if self.kind(*u) == Kind::Op(Op::FuncUpdate)
                        && gargs.len() == 3
                        && args.len() == 1
                    {
                        let (f, x, v) = (gargs[0], gargs[1], gargs[2]);
                        return match self.decide_eq(args[0], x) {
                            Some(true) => Ok(v),
                            Some(false) => self.apply(f, args),
                            None => {
                                let fa = self.apply(f, args)?;
                                let c = self.mk_eq(args[0], x)?;
                                if fa == v {
                                    return Ok(v);
                                }
                                let s = store.sort_of(v);
                                let iff = store.intern_func(&Func {
                                    name: "if".into(),
                                    sort: Sort::Arrow(
                                        vec![Sort::Bool, s.clone(), s.clone()],
                                        Box::new(s),
                                    ),
                                });
                                Ok(store.app_func(iff, &[c, v, fa]))
                            }
                        };
                    }
                }
                let t = store.app(h, args);
                let mut root = h;
                while let Term::App(r, _) = store.get(root) {
                    root = *r;
                }
                if let Term::Func(f) = store.get(root) {
                    if let Some(r) = self.try_rules(*f, &[t], true)? {
                        return Ok(r);
                    }
                }
                Ok(t)
            }
            _ => Ok(store.app(h, args)),
        }
    }

    pub(super) fn apply_func(
        &mut self,
        f: FuncId,
        h: TermId,
        args: &[TermId],
    ) -> Result<TermId, RewriteError> {
        match self.kind(f) {
            Kind::Ctor(_) => {}
            Kind::Op(op) => {
                if let Some(r) = self.builtin(op, f, h, args)? {
                    return Ok(r);
                }
            }
            Kind::Proj(s) if args.len() == 1 => {
                if let Some(r) = self.project(s, f, args[0]) {
                    return Ok(r);
                }
            }
            Kind::Recog(s) if args.len() == 1 => {
                if let Some(r) = self.recognise(s, f, args[0]) {
                    return Ok(r);
                }
            }
            _ => {}
        }
        // `f(1)` where an equation defines the constant `f` itself (`f = lambda x: Pos. …`):
        // rewrite the head, then apply what it became. mCRL2 tries equations with fewer
        // arguments first, so these come before the equations of `f(x)`.
        if !args.is_empty() && self.has_constant_rule(f) {
            if let Some(hv) = self.try_rules(f, &[], false)? {
                if hv != h {
                    return self.apply(hv, args);
                }
            }
        }
        if let Some(r) = self.try_rules(f, args, false)? {
            return Ok(r);
        }
        Ok(if args.is_empty() {
            h
        } else {
            self.store.app(h, args)
        })
    }

    /// Whether `f` has an equation without arguments (`f = …`); in mCRL2's order (see
    /// `strategy.rs`) such equations come first.
    pub(super) fn has_constant_rule(&self, f: FuncId) -> bool {
        self.sys
            .rules
            .get(f.0 as usize)
            .and_then(|rs| rs.first())
            .is_some_and(|r| !r.curried && r.pats.is_empty())
    }

    /// The interpreter's [`Rewriter::try_rules`] (the reference for the compiled
    /// equations): all equations of `f` in order, or only equation `only`. The arguments in
    /// `raw` (bits) are not rewritten yet; only `only` is tried then, and its patterns at
    /// those arguments are variables (the strategy rewrote every argument it inspects).
    pub(super) fn try_rules_interp(
        &mut self,
        f: FuncId,
        args: &[TermId],
        curried: bool,
        only: Option<usize>,
        raw: u64,
    ) -> Result<Option<TermId>, RewriteError> {
        let fi = f.0 as usize;
        let n = match self.sys.rules.get(fi) {
            Some(r) if !r.is_empty() => r.len(),
            _ => return Ok(None),
        };
        let range = match only {
            Some(i) => i..(i + 1).min(n),
            None => 0..n,
        };
        let base = self.subs.len();
        for i in range {
            self.subs.truncate(base);
            let (cond, rhs) = {
                let rule = &self.sys.rules[fi][i];
                if rule.curried != curried || rule.pats.len() != args.len() {
                    continue;
                }
                let store = self.store;
                let subs = &mut self.subs;
                if !rule
                    .pats
                    .iter()
                    .zip(args)
                    .all(|(p, a)| match_pat(store, p, *a, subs, base))
                {
                    continue;
                }
                (rule.cond, rule.rhs)
            };
            let mark = self.enter();
            for k in base..self.subs.len() {
                let (v, t) = self.subs[k];
                let is_raw = raw != 0 && {
                    let pats = &self.sys.rules[fi][i].pats;
                    (0..pats.len())
                        .any(|a| raw & (1 << a) != 0 && matches!(pats[a], Pat::Var(w) if w == v))
                };
                self.bind_as(v, t, is_raw);
            }
            self.subs.truncate(base);
            if let Some(c) = cond {
                let cv = match self.eval(c) {
                    Ok(cv) => cv,
                    Err(e) => {
                        self.leave(mark);
                        return Err(e);
                    }
                };
                if cv != self.store.true_term() {
                    self.leave(mark);
                    continue;
                }
            }
            let r = self.eval(rhs);
            self.leave(mark);
            return r.map(Some);
        }
        self.subs.truncate(base);
        Ok(None)
    }

    pub(super) fn project(&mut self, s: u32, f: FuncId, arg: TermId) -> Option<TermId> {
        let store = self.store;
        let (c, cargs) = store.as_func_app(arg)?;
        let Kind::Ctor(Ctor::Struct { sort, index }) = self.kind(c) else {
            return None;
        };
        if sort != s {
            return None;
        }
        let name = &store.func_of(f).name;
        let info = &self.sys.structs[s as usize].ctors[index as usize];
        let i = info
            .projections
            .iter()
            .position(|p| p.as_ref() == Some(name))?;
        cargs.get(i).copied()
    }

    pub(super) fn recognise(&mut self, s: u32, f: FuncId, arg: TermId) -> Option<TermId> {
        let store = self.store;
        let (c, _) = store.as_func_app(arg)?;
        let Kind::Ctor(Ctor::Struct { sort, index }) = self.kind(c) else {
            return None;
        };
        if sort != s {
            return None;
        }
        let name = &store.func_of(f).name;
        let info = &self.sys.structs[s as usize].ctors[index as usize];
        Some(store.bool_term(info.recogniser.as_ref() == Some(name)))
    }
}

/// Matches pattern `p` against normal form `t`, extending `sub` (entries from `base` on).
pub(super) fn match_pat(
    store: &TermStore,
    p: &Pat,
    t: TermId,
    sub: &mut Vec<(VarId, TermId)>,
    base: usize,
) -> bool {
    match p {
        Pat::Term(x) => *x == t,
        Pat::Var(v) => {
            if let Some((_, b)) = sub[base..].iter().find(|(w, _)| w == v) {
                *b == t
            } else {
                sub.push((*v, t));
                true
            }
        }
        Pat::App(h, ps) => match store.get(t) {
            Term::App(th, targs) if th == h && targs.len() == ps.len() => ps
                .iter()
                .zip(targs.iter())
                .all(|(p, a)| match_pat(store, p, *a, sub, base)),
            _ => false,
        },
        Pat::AppOf(hp, ps) => match store.get(t) {
            Term::App(th, targs) if targs.len() == ps.len() => {
                match_pat(store, hp, *th, sub, base)
                    && ps
                        .iter()
                        .zip(targs.iter())
                        .all(|(p, a)| match_pat(store, p, *a, sub, base))
            }
            _ => false,
        },
    }
}
