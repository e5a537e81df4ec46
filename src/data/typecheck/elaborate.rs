//! Top-down elaboration: an expression checked against the sort its context needs, with
//! upcasts inserted and numbers given their sort.

use super::*;

impl<'s> Checker<'s> {
    // -----------------------------------------------------------------------------------
    // Top-down: elaboration
    // -----------------------------------------------------------------------------------

    /// Type-checks `e` against the sort the context needs (`None`: whatever it is, which
    /// must then be unambiguous) and returns the typed expression.
    pub fn check(&mut self, e: &ast::DataExpr, expected: Option<&Sort>) -> Res<DataExpr> {
        use ast::DataExprKind as K;
        match &e.kind {
            K::True | K::False => {
                let v = matches!(e.kind, K::True);
                let x = DataExpr::Func(Func {
                    name: if v { "true" } else { "false" }.into(),
                    sort: Sort::Bool,
                });
                self.coerce(x, expected, e.span)
            }
            K::Number(digits) => {
                let value: BigInt = digits.parse().map_err(|_| {
                    self.error(e.span, "malformed number", "not a decimal number", None)
                })?;
                let zero = value == BigInt::from(0);
                let min = if zero { Sort::Nat } else { Sort::Pos };
                let sort = match expected {
                    Some(s) if s.is_numeric() => {
                        if rank(&min) <= rank(s) {
                            s.clone()
                        } else {
                            return Err(self.error(
                                e.span,
                                format!("`{digits}` is not a {}", sort_to_string(s)),
                                format!("expected {}", sort_to_string(s)),
                                None,
                            ));
                        }
                    }
                    Some(s) => {
                        return Err(self.mismatch(e.span, s, &Ty::of(&min)));
                    }
                    None => min,
                };
                Ok(DataExpr::Number { value, sort })
            }
            K::Id(name) => self.check_id(name, e.span, expected),
            K::App { head, args } => {
                let arg_tys = self.synth_args(args)?;
                let insts = self.app_insts(head, &arg_tys, expected, e.span)?;
                let inst = self.pick(insts, &arg_tys, expected, e.span, head_name(head))?;
                let head_expr = match (&head.kind, &inst.cand) {
                    (ast::DataExprKind::Id(_), _) => None,
                    (_, Cand::Var(v)) => {
                        let hs = v.sort.clone();
                        Some(self.check(head, Some(&hs))?)
                    }
                    _ => None,
                };
                let args: Vec<&ast::DataExpr> = args.iter().collect();
                self.finish_app(head_expr, &inst, &args, expected, e.span)
            }
            K::Unary { op, arg } => {
                let arg_tys = vec![self.synth(arg)?];
                let cands = self.candidates(op.symbol(), Some(1));
                let insts = self.resolve(&cands, &arg_tys, expected);
                self.check_insts(op.symbol(), &insts, &arg_tys, e.span)?;
                let inst = self.pick(insts, &arg_tys, expected, e.span, Some(op.symbol()))?;
                self.finish_app(None, &inst, &[&**arg], expected, e.span)
            }
            K::Binary { op, lhs, rhs } => {
                let l = self.synth(lhs);
                let r = self.synth(rhs);
                let arg_tys = vec![l?, r?];
                let cands = self.candidates(op.symbol(), Some(2));
                let insts = self.resolve(&cands, &arg_tys, expected);
                self.check_insts(op.symbol(), &insts, &arg_tys, e.span)?;
                let inst = self.pick(insts, &arg_tys, expected, e.span, Some(op.symbol()))?;
                self.finish_app(None, &inst, &[&**lhs, &**rhs], expected, e.span)
            }
            K::ListEnum(elems) => {
                let t = self.synth_elems(elems)?;
                let elem = match expected {
                    Some(Sort::List(s)) => (**s).clone(),
                    Some(s) => return Err(self.mismatch(e.span, s, &Ty::ListLit(Box::new(t)))),
                    None => match t.to_sort() {
                        Some(s) => s,
                        None => {
                            return Err(self.error(
                                e.span,
                                "cannot determine the element sort of this list",
                                "empty list without context",
                                Some("use it where a list of known sort is expected".into()),
                            ))
                        }
                    },
                };
                let sort = Sort::List(Box::new(elem.clone()));
                if elems.is_empty() {
                    return Ok(DataExpr::Func(Func {
                        name: "[]".into(),
                        sort,
                    }));
                }
                let elems = self.check_all(elems, &elem)?;
                Ok(DataExpr::ListEnum { elems, sort })
            }
            K::SetEnum(elems) => {
                let t = self.synth_elems(elems)?;
                let sort = match expected {
                    Some(s @ (Sort::Set(_) | Sort::FSet(_))) => s.clone(),
                    Some(s @ (Sort::Bag(_) | Sort::FBag(_))) if elems.is_empty() => {
                        return Ok(DataExpr::Func(Func {
                            name: "{:}".into(),
                            sort: s.clone(),
                        }));
                    }
                    Some(s) => {
                        return Err(self.mismatch(
                            e.span,
                            s,
                            &Ty::SetLit(Box::new(t), elems.is_empty()),
                        ))
                    }
                    None => match t.to_sort() {
                        Some(s) => Sort::FSet(Box::new(s)),
                        None => {
                            return Err(self.error(
                                e.span,
                                "cannot determine the element sort of this set",
                                "empty set without context",
                                Some("use it where a set of known sort is expected".into()),
                            ))
                        }
                    },
                };
                if elems.is_empty() {
                    return Ok(DataExpr::Func(Func {
                        name: "{}".into(),
                        sort,
                    }));
                }
                let elem = elem_sort(&sort);
                let elems = self.check_all(elems, &elem)?;
                Ok(DataExpr::SetEnum { elems, sort })
            }
            K::BagEnum(pairs) => {
                let t = match self.synth(e)?.pop() {
                    Some(Ty::BagLit(t)) => *t,
                    _ => Ty::Hole,
                };
                let sort = match expected {
                    Some(s @ (Sort::Bag(_) | Sort::FBag(_))) => s.clone(),
                    Some(s) => return Err(self.mismatch(e.span, s, &Ty::BagLit(Box::new(t)))),
                    None => match t.to_sort() {
                        Some(s) => Sort::FBag(Box::new(s)),
                        None => {
                            return Err(self.error(
                                e.span,
                                "cannot determine the element sort of this bag",
                                "empty bag without context",
                                Some("use it where a bag of known sort is expected".into()),
                            ))
                        }
                    },
                };
                if pairs.is_empty() {
                    return Ok(DataExpr::Func(Func {
                        name: "{:}".into(),
                        sort,
                    }));
                }
                let elem = elem_sort(&sort);
                let mut out = Vec::new();
                let mut bad = false;
                for (x, n) in pairs {
                    let x = self.check(x, Some(&elem));
                    let n = self.check(n, Some(&Sort::Nat));
                    match (x, n) {
                        (Ok(x), Ok(n)) => out.push((x, n)),
                        _ => bad = true,
                    }
                }
                if bad {
                    return Err(Reported);
                }
                Ok(DataExpr::BagEnum { elems: out, sort })
            }
            K::Comprehension { var, body } => {
                let vars = self.resolve_vars(std::slice::from_ref(var))?;
                let alts = self.synth(e)?;
                let is_set = matches!(alts.first(), Some(Ty::Set(_)));
                let d = self.push_vars(&vars);
                let b = if is_set {
                    self.check(body, Some(&Sort::Bool))
                } else {
                    self.check(body, Some(&Sort::Nat))
                };
                self.pop_vars(d);
                let body = Box::new(b?);
                let kind = if is_set {
                    Binder::SetComprehension
                } else {
                    Binder::BagComprehension
                };
                let x = DataExpr::Binder { kind, vars, body };
                self.coerce(x, expected, e.span)
            }
            K::Binder { kind, vars, body } => {
                let vars = self.binder_vars(vars)?;
                let d = self.push_vars(&vars);
                let r = match kind {
                    ast::BinderKind::Lambda => {
                        let body_exp = match expected {
                            Some(Sort::Arrow(dom, cod))
                                if dom.len() == vars.len()
                                    && dom.iter().zip(&vars).all(|(s, v)| *s == v.sort) =>
                            {
                                Some((**cod).clone())
                            }
                            _ => None,
                        };
                        self.check(body, body_exp.as_ref())
                            .map(|b| DataExpr::Binder {
                                kind: Binder::Lambda,
                                vars: vars.clone(),
                                body: Box::new(b),
                            })
                    }
                    k => self
                        .check(body, Some(&Sort::Bool))
                        .map(|b| DataExpr::Binder {
                            kind: if *k == ast::BinderKind::Forall {
                                Binder::Forall
                            } else {
                                Binder::Exists
                            },
                            vars: vars.clone(),
                            body: Box::new(b),
                        }),
                };
                self.pop_vars(d);
                let x = r?;
                self.coerce(x, expected, e.span)
            }
            K::Whr { body, defs } => {
                let mut out = Vec::new();
                let mut vars = Vec::new();
                let mut bad = false;
                for a in defs {
                    crate::data::names::check_var_name(self, &a.name);
                    let r = self
                        .synth(&a.value)
                        .and_then(|alts| self.whr_sort(a, &alts))
                        .and_then(|s| self.check(&a.value, Some(&s)).map(|x| (s, x)));
                    match r {
                        Ok((s, x)) => {
                            let v = Var {
                                name: a.name.name.clone(),
                                sort: s,
                            };
                            vars.push(v.clone());
                            out.push((v, x));
                        }
                        Err(_) => bad = true,
                    }
                }
                if bad {
                    return Err(Reported);
                }
                let d = self.push_vars(&vars);
                let b = self.check(body, expected);
                self.pop_vars(d);
                Ok(DataExpr::Whr {
                    body: Box::new(b?),
                    defs: out,
                })
            }
            K::Update { func, arg, value } => {
                let alts = self.synth(e)?;
                let want = expected.map(Ty::of);
                let pick = alts
                    .iter()
                    .find(|t| want.as_ref().is_none_or(|w| fits(t, w, false)))
                    .or(alts.first())
                    .cloned()
                    .unwrap_or(Ty::Hole);
                let Some(fs) = pick.to_sort() else {
                    return Err(self.error(
                        func.span,
                        "cannot determine the sort of this function",
                        "ambiguous",
                        None,
                    ));
                };
                let (d, c) = (fs.domain()[0].clone(), fs.codomain().clone());
                let f = self.check(func, Some(&fs));
                let a = self.check(arg, Some(&d));
                let v = self.check(value, Some(&c));
                let (f, a, v) = (f?, a?, v?);
                let upd = Func {
                    name: "@func_update".into(),
                    sort: Sort::Arrow(vec![fs.clone(), d, c], Box::new(fs)),
                };
                let x = DataExpr::App {
                    head: Box::new(DataExpr::Func(upd)),
                    args: vec![f, a, v],
                };
                self.coerce(x, expected, e.span)
            }
        }
    }

    pub(super) fn check_all(&mut self, elems: &[ast::DataExpr], sort: &Sort) -> Res<Vec<DataExpr>> {
        let mut out = Vec::new();
        let mut bad = false;
        for x in elems {
            match self.check(x, Some(sort)) {
                Ok(x) => out.push(x),
                Err(_) => bad = true,
            }
        }
        if bad {
            Err(Reported)
        } else {
            Ok(out)
        }
    }

    pub(super) fn check_id(
        &mut self,
        name: &Name,
        span: Span,
        expected: Option<&Sort>,
    ) -> Res<DataExpr> {
        let cands = self.candidates(name, None);
        if cands.is_empty() {
            return Err(self.unknown_name(name, span));
        }
        if let Some(Cand::Var(v)) = cands.first() {
            let x = DataExpr::Var(v.clone());
            return self.coerce(x, expected, span);
        }
        // Prefer a candidate of exactly the expected sort, then one that fits it.
        let mut exact = Vec::new();
        let mut fitting = Vec::new();
        for c in &cands {
            let f = match c {
                Cand::User(f) => Some(f.clone()),
                Cand::Builtin(s) => match expected {
                    Some(exp) => {
                        let mut b = Vec::new();
                        if s.sort_pattern().matches(exp, &mut b) {
                            let params: Vec<Sort> =
                                b.into_iter().map(|x| x.unwrap_or(Sort::Bool)).collect();
                            Some(s.instantiate(&params))
                        } else if s.sort_params() == 0 {
                            Some(s.instantiate(&[]))
                        } else {
                            None
                        }
                    }
                    None if s.sort_params() == 0 => Some(s.instantiate(&[])),
                    None => None,
                },
                Cand::Var(_) => None,
            };
            let Some(f) = f else { continue };
            match expected {
                Some(exp) if f.sort == *exp => exact.push(f),
                Some(exp) if fits(&Ty::of(&f.sort), &Ty::of(exp), false) => fitting.push(f),
                Some(_) => {}
                None => exact.push(f),
            }
        }
        let chosen = if !exact.is_empty() { exact } else { fitting };
        match chosen.as_slice() {
            [f] => {
                let x = DataExpr::Func(f.clone());
                self.coerce(x, expected, span)
            }
            [] => {
                let sorts: Vec<String> = cands.iter().map(cand_sort_str).collect();
                match expected {
                    Some(exp) => Err(self.error(
                        span,
                        format!("`{name}` does not have sort {}", sort_to_string(exp)),
                        format!("expected {}", sort_to_string(exp)),
                        Some(format!("`{name}` has sort {}", sorts.join(", "))),
                    )),
                    None => Err(self.error(
                        span,
                        format!("cannot determine which `{name}` is meant"),
                        "ambiguous",
                        Some(format!("`{name}` has sorts {}", sorts.join(", "))),
                    )),
                }
            }
            many => {
                let sorts: Vec<String> = many.iter().map(|f| sort_to_string(&f.sort)).collect();
                Err(self.error(
                    span,
                    format!("ambiguous use of `{name}`"),
                    "could be several declarations",
                    Some(format!("`{name}` could have sort {}", sorts.join(" or "))),
                ))
            }
        }
    }

    /// Chooses exactly one instance or reports the ambiguity.
    pub(super) fn pick(
        &mut self,
        insts: Vec<Inst>,
        arg_tys: &[Vec<Ty>],
        expected: Option<&Sort>,
        span: Span,
        name: Option<&str>,
    ) -> Res<Inst> {
        let mut insts = insts;
        if insts.len() > 1 {
            if let Some(exp) = expected {
                let e = Ty::of(exp);
                let exact: Vec<Inst> = insts
                    .iter()
                    .filter(|i| unify(&i.result, &e).is_some())
                    .cloned()
                    .collect();
                if exact.len() == 1 {
                    insts = exact;
                }
            }
        }
        if insts.len() == 1 {
            return Ok(insts.pop().unwrap_or_else(unreachable_inst));
        }
        let name = name.unwrap_or("function");
        let sigs: Vec<String> = insts.iter().map(inst_str).collect();
        let args: Vec<String> = arg_tys.iter().map(|a| alts_str(a)).collect();
        Err(self.error(
            span,
            format!(
                "ambiguous application of `{name}` to arguments of sort {}",
                args.join(" # ")
            ),
            "several declarations fit equally well",
            Some(format!("candidates: {}", sigs.join("; "))),
        ))
    }

    /// Elaborates the arguments of a chosen instance and builds the application.
    pub(super) fn finish_app(
        &mut self,
        head: Option<DataExpr>,
        inst: &Inst,
        args: &[&ast::DataExpr],
        expected: Option<&Sort>,
        span: Span,
    ) -> Res<DataExpr> {
        let (head, dom) = self.close_head(head, inst, expected)?;
        let mut out = Vec::new();
        let mut bad = false;
        for (a, s) in args.iter().zip(&dom) {
            match self.check(a, Some(s)) {
                Ok(x) => out.push(x),
                Err(_) => bad = true,
            }
        }
        if bad {
            return Err(Reported);
        }
        let x = DataExpr::App {
            head: Box::new(head),
            args: out,
        };
        self.coerce(x, expected, span)
    }

    /// Fixes the sort parameters still open after looking at the arguments from the
    /// expected sort; returns the head and its concrete domain.
    pub(super) fn close_head(
        &mut self,
        head: Option<DataExpr>,
        inst: &Inst,
        expected: Option<&Sort>,
    ) -> Res<(DataExpr, Vec<Sort>)> {
        if let Cand::Builtin(s) = &inst.cand {
            let mut sp = inst.sort_params.clone();
            if sp.iter().any(Ty::has_hole) {
                if let Some(exp) = expected {
                    // Bind open parameters from the expected result sort.
                    let mut cs = Vec::new();
                    if gather(&s.result, &Ty::of(exp), true, false, &mut cs) {
                        if let Some(from_exp) = solve(&cs, s.sort_params(), false) {
                            for (p, e) in sp.iter_mut().zip(from_exp) {
                                if let Some(u) = unify(p, &e) {
                                    *p = u;
                                }
                            }
                        }
                    }
                }
            }
            // A parameter nothing fixed belongs to empty containers alone (`#[]`).
            let params: Vec<Sort> = sp.iter().map(Ty::to_sort_or_default).collect();
            let f = s.instantiate(&params);
            let dom = f.sort.domain().to_vec();
            return Ok((DataExpr::Func(f), dom));
        }
        let head = match (head, &inst.cand) {
            (Some(h), _) => h,
            (None, Cand::User(f)) => DataExpr::Func(f.clone()),
            (None, Cand::Var(v)) => DataExpr::Var(v.clone()),
            (None, Cand::Builtin(_)) => return Err(Reported),
        };
        let dom = head.sort().domain().to_vec();
        Ok((head, dom))
    }

    pub(super) fn mismatch(&mut self, span: Span, expected: &Sort, found: &Ty) -> Reported {
        self.error(
            span,
            format!(
                "expected an expression of sort {}, found {}",
                sort_to_string(expected),
                found
            ),
            format!("this has sort {found}"),
            conversion_hint(found, expected),
        )
    }

    /// Makes `x` have sort `expected`: nothing, a numeric upcast, or an error.
    pub(super) fn coerce(
        &mut self,
        x: DataExpr,
        expected: Option<&Sort>,
        span: Span,
    ) -> Res<DataExpr> {
        let Some(exp) = expected else {
            return Ok(x);
        };
        let have = x.sort();
        if have == *exp {
            return Ok(x);
        }
        if let DataExpr::Number { value, sort } = &x {
            if sort.is_numeric() && exp.is_numeric() && rank(sort) <= rank(exp) {
                return Ok(DataExpr::Number {
                    value: value.clone(),
                    sort: exp.clone(),
                });
            }
        }
        if let Some(f) = builtins::upcast_func(&have, exp) {
            return Ok(DataExpr::App {
                head: Box::new(DataExpr::Func(f)),
                args: vec![x],
            });
        }
        Err(self.mismatch(span, exp, &Ty::of(&have)))
    }
}
