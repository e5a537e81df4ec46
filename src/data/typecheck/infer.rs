//! Bottom-up inference: the possible sorts of an expression, before the context fixes one.

use super::*;

impl<'s> Checker<'s> {
    /// The sort of a `whr` definition whose value has the sorts `alts`. mCRL2 rejects a
    /// definition its value leaves open (`x whr x = [] end` is `List(untyped_sort)`), so
    /// muon does too rather than pick a sort for it.
    pub(super) fn whr_sort(
        &mut self,
        a: &crate::syntax::ast::Assignment,
        alts: &[Ty],
    ) -> Result<Sort, Reported> {
        if alts[0].has_hole() {
            return Err(self.error(
                a.span,
                format!(
                    "the sort of `{}` cannot be determined from its value (it is {})",
                    a.name.name, alts[0]
                ),
                "sort left open",
                Some(
                    "give the value a known sort, e.g. a non-empty list or a mapping declared \
                     with its sort, or bind the variable with a `sum` of a declared sort"
                        .to_string(),
                ),
            ));
        }
        Ok(alts[0].to_sort_or_default())
    }

    // -----------------------------------------------------------------------------------
    // Bottom-up: possible sorts
    // -----------------------------------------------------------------------------------

    /// The possible sorts of `e` (usually one), computed bottom-up; errors are recorded
    /// (once: the result is remembered for the node).
    pub(crate) fn synth(&mut self, e: &ast::DataExpr) -> Res<Vec<Ty>> {
        let key = (
            e as *const ast::DataExpr as usize,
            e.span.start,
            e.span.end,
            self.scope.len(),
        );
        if let Some(r) = self.synth_cache.get(&key) {
            return r.clone();
        }
        let r = self.synth_uncached(e);
        self.synth_cache.insert(key, r.clone());
        r
    }

    /// Forgets remembered bottom-up results (the expressions they belong to are gone).
    pub(crate) fn clear_cache(&mut self) {
        self.synth_cache.clear();
    }

    pub(super) fn synth_uncached(&mut self, e: &ast::DataExpr) -> Res<Vec<Ty>> {
        use ast::DataExprKind as K;
        Ok(match &e.kind {
            K::True | K::False => vec![Ty::Bool],
            K::Number(digits) => vec![if digits.chars().all(|c| c == '0') {
                Ty::Nat
            } else {
                Ty::Pos
            }],
            K::Id(name) => {
                let cands = self.candidates(name, None);
                if cands.is_empty() {
                    return Err(self.unknown_name(name, e.span));
                }
                let mut out = Vec::new();
                for c in cands {
                    let t = match c {
                        Cand::User(f) => Ty::of(&f.sort),
                        Cand::Var(v) => Ty::of(&v.sort),
                        Cand::Builtin(s) => {
                            let holes = vec![Ty::Hole; s.sort_params()];
                            inst_pat(&s.sort_pattern(), &holes)
                        }
                    };
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
                out
            }
            K::App { head, args } => {
                let arg_tys = self.synth_args(args)?;
                let insts = self.app_insts(head, &arg_tys, None, e.span)?;
                dedup(insts.into_iter().map(|i| i.result).collect())
            }
            K::Unary { op, arg } => {
                let arg_tys = vec![self.synth(arg)?];
                let cands = self.candidates(op.symbol(), Some(1));
                let insts = self.resolve(&cands, &arg_tys, None);
                self.check_insts(op.symbol(), &insts, &arg_tys, e.span)?;
                dedup(insts.into_iter().map(|i| i.result).collect())
            }
            K::Binary { op, lhs, rhs } => {
                let l = self.synth(lhs);
                let r = self.synth(rhs);
                let arg_tys = vec![l?, r?];
                let cands = self.candidates(op.symbol(), Some(2));
                let insts = self.resolve(&cands, &arg_tys, None);
                self.check_insts(op.symbol(), &insts, &arg_tys, e.span)?;
                dedup(insts.into_iter().map(|i| i.result).collect())
            }
            K::ListEnum(elems) => vec![Ty::ListLit(Box::new(self.synth_elems(elems)?))],
            K::SetEnum(elems) => vec![Ty::SetLit(
                Box::new(self.synth_elems(elems)?),
                elems.is_empty(),
            )],
            K::BagEnum(elems) => {
                let mut t = Ty::Hole;
                let mut bad = false;
                for (x, n) in elems {
                    match self.synth(x) {
                        Ok(alts) => match join(&t, &alts[0]) {
                            Some(j) => t = j,
                            None => {
                                bad = true;
                                self.error(
                                    x.span,
                                    format!(
                                        "bag elements have different sorts: {t} and {}",
                                        alts[0]
                                    ),
                                    "does not match the earlier elements",
                                    None,
                                );
                            }
                        },
                        Err(_) => bad = true,
                    }
                    if self.check(n, Some(&Sort::Nat)).is_err() {
                        bad = true;
                    }
                }
                if bad {
                    return Err(Reported);
                }
                vec![Ty::BagLit(Box::new(t))]
            }
            K::Comprehension { var, body } => {
                let vars = self.resolve_vars(std::slice::from_ref(var))?;
                let d = self.push_vars(&vars);
                let b = self.synth(body);
                self.pop_vars(d);
                let b = b?;
                let s = Box::new(Ty::of(&vars[0].sort));
                if b.contains(&Ty::Bool) {
                    vec![Ty::Set(s)]
                } else if b.iter().any(|t| fits(t, &Ty::Nat, false)) {
                    vec![Ty::Bag(s)]
                } else {
                    return Err(self.error(
                        body.span,
                        format!("the body of a comprehension must be a Bool (set) or a Nat (bag), not {}", b[0]),
                        "neither Bool nor Nat",
                        None,
                    ));
                }
            }
            K::Binder { kind, vars, body } => {
                let vars = self.binder_vars(vars)?;
                let d = self.push_vars(&vars);
                let b = match kind {
                    ast::BinderKind::Lambda => self.synth(body),
                    _ => self.check(body, Some(&Sort::Bool)).map(|_| vec![Ty::Bool]),
                };
                self.pop_vars(d);
                let b = b?;
                match kind {
                    ast::BinderKind::Lambda => b
                        .into_iter()
                        .map(|t| {
                            Ty::Arrow(vars.iter().map(|v| Ty::of(&v.sort)).collect(), Box::new(t))
                        })
                        .collect(),
                    _ => vec![Ty::Bool],
                }
            }
            K::Whr { body, defs } => {
                let mut vars = Vec::new();
                for a in defs {
                    let alts = self.synth(&a.value)?;
                    let s = self.whr_sort(a, &alts)?;
                    vars.push(Var {
                        name: a.name.name.clone(),
                        sort: s,
                    });
                }
                let d = self.push_vars(&vars);
                let b = self.synth(body);
                self.pop_vars(d);
                b?
            }
            K::Update { func, arg, value } => {
                let f = self.synth(func)?;
                let mut out = Vec::new();
                for t in f {
                    if let Ty::Arrow(d, _) = &t {
                        if d.len() == 1 {
                            out.push(t.clone());
                        }
                    }
                }
                if out.is_empty() {
                    return Err(self.error(
                        func.span,
                        "only a function of one argument can be updated with `f[x -> v]`",
                        "not a unary function",
                        None,
                    ));
                }
                let _ = (arg, value);
                out
            }
        })
    }

    pub(super) fn synth_args(&mut self, args: &[ast::DataExpr]) -> Res<Vec<Vec<Ty>>> {
        let mut out = Vec::new();
        let mut bad = false;
        for a in args {
            match self.synth(a) {
                Ok(t) => out.push(t),
                Err(_) => bad = true,
            }
        }
        if bad {
            Err(Reported)
        } else {
            Ok(out)
        }
    }

    pub(super) fn synth_elems(&mut self, elems: &[ast::DataExpr]) -> Res<Ty> {
        let mut t = Ty::Hole;
        let mut bad = false;
        for x in elems {
            match self.synth(x) {
                Ok(alts) => {
                    let pick = alts.iter().find_map(|a| join(&t, a));
                    match pick {
                        Some(j) => t = j,
                        None => {
                            bad = true;
                            self.error(
                                x.span,
                                format!("elements have different sorts: {t} and {}", alts[0]),
                                "does not match the earlier elements",
                                None,
                            );
                        }
                    }
                }
                Err(_) => bad = true,
            }
        }
        if bad {
            Err(Reported)
        } else {
            Ok(t)
        }
    }

    /// Resolves the variables of a binder, reporting duplicates.
    pub(crate) fn binder_vars(&mut self, decls: &[ast::VarDecl]) -> Res<Vec<Var>> {
        let vars = self.resolve_vars(decls)?;
        let mut seen = HashSet::new();
        for d in decls {
            if !seen.insert(&d.name.name) {
                return Err(self.error(
                    d.name.span,
                    format!("variable `{}` is bound twice", d.name.name),
                    "bound again here",
                    None,
                ));
            }
        }
        Ok(vars)
    }

    /// Candidates of an application head, resolved against the argument sorts.
    pub(super) fn app_insts(
        &mut self,
        head: &ast::DataExpr,
        arg_tys: &[Vec<Ty>],
        expected: Option<&Sort>,
        span: Span,
    ) -> Res<Vec<Inst>> {
        let n = arg_tys.len();
        let (cands, what) = match &head.kind {
            ast::DataExprKind::Id(name) => {
                let c = self.candidates(name, Some(n));
                if c.is_empty() {
                    let all = self.candidates(name, None);
                    if all.is_empty() {
                        return Err(self.unknown_name(name, head.span));
                    }
                    let arities: Vec<String> = all.iter().map(cand_sort_str).collect();
                    return Err(self.error(
                        head.span,
                        format!("`{name}` is not a function of {n} argument{}", plural(n)),
                        format!("applied to {n} argument{}", plural(n)),
                        Some(format!("`{name}` has sort {}", arities.join(", "))),
                    ));
                }
                (c, name.to_string())
            }
            _ => {
                let hs = self.synth(head)?;
                let mut c = Vec::new();
                for t in hs {
                    if let Some(s) = t.to_sort() {
                        if s.domain().len() == n {
                            c.push(Cand::Var(Var {
                                name: "@head".into(),
                                sort: s,
                            }));
                        }
                    }
                }
                if c.is_empty() {
                    return Err(self.error(
                        head.span,
                        format!(
                            "this expression is not a function of {n} argument{}",
                            plural(n)
                        ),
                        "applied here",
                        None,
                    ));
                }
                (c, "this function".to_string())
            }
        };
        let insts = self.resolve(&cands, arg_tys, expected);
        self.check_insts(&what, &insts, arg_tys, span)?;
        Ok(insts)
    }

    /// Reports no-match and ambiguity for a resolved application.
    pub(super) fn check_insts(
        &mut self,
        name: &str,
        insts: &[Inst],
        arg_tys: &[Vec<Ty>],
        span: Span,
    ) -> Res<()> {
        if insts.is_empty() {
            let args: Vec<String> = arg_tys.iter().map(|a| alts_str(a)).collect();
            let cands = self.candidates(name, Some(arg_tys.len()));
            let help = if cands.is_empty() {
                None
            } else {
                let mut sigs: Vec<String> = cands.iter().map(cand_sort_str).collect();
                sigs.dedup();
                if sigs.len() > 6 {
                    sigs.truncate(6);
                    sigs.push("…".into());
                }
                Some(format!(
                    "`{name}` is declared with sort {}",
                    sigs.join(", ")
                ))
            };
            return Err(self.error(
                span,
                format!(
                    "no `{name}` takes arguments of sort{} {}",
                    if args.len() == 1 { "" } else { "s" },
                    args.join(" # ")
                ),
                "sort mismatch",
                help,
            ));
        }
        Ok(())
    }

    pub(super) fn unknown_name(&mut self, name: &str, span: Span) -> Reported {
        if self.broken.contains(name) {
            return Reported;
        }
        let help = did_you_mean(name, self.data_names());
        self.error(
            span,
            format!("unknown name `{name}`"),
            "not a variable, function or constructor in scope",
            help,
        )
    }
}
