//! Sorts and declarations: sort expressions with aliases resolved, and the `sort`, `cons`,
//! `map`, `var` and `eqn` sections of a data specification.

use super::*;

impl<'s> Checker<'s> {
    // -----------------------------------------------------------------------------------
    // Sorts
    // -----------------------------------------------------------------------------------

    /// Declares the sorts of a list of declarations: all sort names first, then aliases and
    /// structs resolved (so declaration order does not matter).
    pub fn declare_sorts(&mut self, decls: &[&ast::SortDecl]) {
        let mut structs = Vec::new();
        let mut pending = Vec::new();
        // The first definition of each name declared here: mCRL2 accepts a sort declared
        // again identically (Treiber_DCAS: `sort ID = struct p1 | p2;` twice) as one sort.
        let mut first: HashMap<&Name, &Option<ast::SortExpr>> = HashMap::new();
        for d in decls {
            let n = &d.name.name;
            let same = |a: &Option<ast::SortExpr>, b: &Option<ast::SortExpr>| match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => a.same_as(b),
                _ => false,
            };
            if first.get(n).is_some_and(|prev| same(prev, &d.def)) {
                continue;
            }
            first.entry(n).or_insert(&d.def);
            if self.sorts.contains_key(n) {
                self.error(
                    d.name.span,
                    format!("sort `{n}` is declared twice"),
                    "declared again here",
                    None,
                );
                continue;
            }
            match &d.def {
                None => {
                    self.sorts.insert(n.clone(), SortEntry::Named);
                    self.data.sorts.push(SortDecl {
                        name: n.clone(),
                        def: SortDef::Basic,
                        span: d.span,
                    });
                }
                Some(ast::SortExpr {
                    kind: ast::SortExprKind::Struct(conss),
                    ..
                }) => {
                    self.sorts.insert(n.clone(), SortEntry::Named);
                    structs.push((n.clone(), conss, d.span));
                }
                Some(e) => {
                    self.sorts.insert(n.clone(), SortEntry::Pending(e.clone()));
                    pending.push((n.clone(), d.span));
                }
            }
        }
        for (n, span) in pending {
            let mut visiting = vec![n.clone()];
            if let Ok(s) = self.resolve_alias(&n, span, &mut visiting) {
                self.data.aliases.push((n, s));
            }
        }
        for (n, conss, span) in structs {
            self.define_struct(n, conss, span);
        }
    }

    pub(super) fn resolve_alias(
        &mut self,
        n: &Name,
        span: Span,
        visiting: &mut Vec<Name>,
    ) -> Res<Sort> {
        match self.sorts.get(n).cloned() {
            Some(SortEntry::Named) => Ok(Sort::Named(n.clone())),
            Some(SortEntry::Alias(s)) => Ok(s),
            Some(SortEntry::Pending(e)) => {
                let r = self.resolve_sort_in(&e, visiting);
                match &r {
                    Ok(s) => {
                        self.sorts.insert(n.clone(), SortEntry::Alias(s.clone()));
                    }
                    Err(_) => {
                        // Keep later uses from reporting the same problem again.
                        self.sorts
                            .insert(n.clone(), SortEntry::Alias(Sort::Named(n.clone())));
                    }
                }
                r
            }
            None => Err(self.error(span, format!("unknown sort `{n}`"), "not declared", None)),
        }
    }

    pub(super) fn define_struct(&mut self, name: Name, conss: &[ast::ConstrDecl], span: Span) {
        let mut out = Vec::new();
        for c in conss {
            self.check_function_name(&c.name, "constructor");
            for p in c.fields.iter().filter_map(|f| f.projection.as_ref()) {
                self.check_function_name(p, "projection");
            }
            if let Some(r) = &c.recogniser {
                self.check_function_name(r, "recogniser");
            }
            let mut fields = Vec::new();
            for f in &c.fields {
                let sort = self.resolve_sort(&f.sort).unwrap_or(Sort::Bool);
                fields.push(StructField {
                    projection: f.projection.as_ref().map(|p| p.name.clone()),
                    sort,
                });
            }
            out.push(StructCons {
                name: c.name.name.clone(),
                fields,
                recogniser: c.recogniser.as_ref().map(|r| r.name.clone()),
            });
        }
        let decl = SortDecl {
            name,
            def: SortDef::Struct(out),
            span,
        };
        self.register_struct_funcs(&decl);
        self.data.sorts.push(decl);
    }

    pub(super) fn register_struct_funcs(&mut self, d: &SortDecl) {
        let SortDef::Struct(conss) = &d.def else {
            return;
        };
        let me = Sort::Named(d.name.clone());
        for c in conss {
            let sort = if c.fields.is_empty() {
                me.clone()
            } else {
                Sort::Arrow(
                    c.fields.iter().map(|f| f.sort.clone()).collect(),
                    Box::new(me.clone()),
                )
            };
            self.add_func(Func {
                name: c.name.clone(),
                sort,
            });
            for f in &c.fields {
                if let Some(p) = &f.projection {
                    self.add_func(Func {
                        name: p.clone(),
                        sort: Sort::Arrow(vec![me.clone()], Box::new(f.sort.clone())),
                    });
                }
            }
            if let Some(r) = &c.recogniser {
                self.add_func(Func {
                    name: r.clone(),
                    sort: Sort::Arrow(vec![me.clone()], Box::new(Sort::Bool)),
                });
            }
        }
    }

    /// Resolves a sort expression (aliases expanded; anonymous structs get a name).
    pub fn resolve_sort(&mut self, e: &ast::SortExpr) -> Res<Sort> {
        self.resolve_sort_in(e, &mut Vec::new())
    }

    pub(super) fn resolve_sort_in(
        &mut self,
        e: &ast::SortExpr,
        visiting: &mut Vec<Name>,
    ) -> Res<Sort> {
        use ast::SortExprKind as K;
        Ok(match &e.kind {
            K::Bool => Sort::Bool,
            K::Pos => Sort::Pos,
            K::Nat => Sort::Nat,
            K::Int => Sort::Int,
            K::Real => Sort::Real,
            K::List(s) => Sort::List(Box::new(self.resolve_sort_in(s, visiting)?)),
            K::Set(s) => Sort::Set(Box::new(self.resolve_sort_in(s, visiting)?)),
            K::FSet(s) => Sort::FSet(Box::new(self.resolve_sort_in(s, visiting)?)),
            K::Bag(s) => Sort::Bag(Box::new(self.resolve_sort_in(s, visiting)?)),
            K::FBag(s) => Sort::FBag(Box::new(self.resolve_sort_in(s, visiting)?)),
            K::Arrow(d, c) => {
                let mut dom = Vec::new();
                let mut bad = false;
                for s in d {
                    match self.resolve_sort_in(s, visiting) {
                        Ok(s) => dom.push(s),
                        Err(_) => bad = true,
                    }
                }
                let c = self.resolve_sort_in(c, visiting)?;
                if bad {
                    return Err(Reported);
                }
                Sort::Arrow(dom, Box::new(c))
            }
            K::Struct(conss) => {
                self.anon_structs += 1;
                let name: Name = format!("@struct{}", self.anon_structs).into();
                self.sorts.insert(name.clone(), SortEntry::Named);
                self.define_struct(name.clone(), conss, e.span);
                Sort::Named(name)
            }
            K::Id(n) => {
                if let Some(SortEntry::Pending(_)) = self.sorts.get(n) {
                    if let Some(pos) = visiting.iter().position(|v| v == n) {
                        let mut cycle: Vec<&str> = visiting[pos..].iter().map(|v| &**v).collect();
                        cycle.push(n);
                        let msg = format!("sort aliases form a cycle: {}", cycle.join(" -> "));
                        return Err(self.error(
                            e.span,
                            msg,
                            "refers back to itself",
                            Some("an alias must eventually name a basic, struct or built-in sort; use `struct` for recursive sorts".into()),
                        ));
                    }
                    visiting.push(n.clone());
                    let r = self.resolve_alias(n, e.span, visiting);
                    visiting.pop();
                    return r;
                }
                match self.sorts.get(n) {
                    Some(SortEntry::Named) => Sort::Named(n.clone()),
                    Some(SortEntry::Alias(s)) => s.clone(),
                    _ => {
                        let mut names: Vec<&str> = self.sorts.keys().map(|k| &**k).collect();
                        names.extend([
                            "Bool", "Pos", "Nat", "Int", "Real", "List", "Set", "FSet", "Bag",
                            "FBag",
                        ]);
                        let help = did_you_mean(n, names);
                        return Err(self.error(
                            e.span,
                            format!("unknown sort `{n}`"),
                            "not declared",
                            help,
                        ));
                    }
                }
            }
        })
    }

    /// Resolves variable declarations into typed variables.
    pub fn resolve_vars(&mut self, decls: &[ast::VarDecl]) -> Res<Vec<Var>> {
        crate::data::names::check_var_names(self, decls);
        let mut out = Vec::new();
        let mut bad = false;
        for d in decls {
            match self.resolve_sort(&d.sort) {
                Ok(sort) => out.push(Var {
                    name: d.name.name.clone(),
                    sort,
                }),
                Err(_) => bad = true,
            }
        }
        if bad {
            Err(Reported)
        } else {
            Ok(out)
        }
    }

    // -----------------------------------------------------------------------------------
    // Declarations
    // -----------------------------------------------------------------------------------

    /// Declares the data part of a list of declarations: sorts, `cons`, `map`, then checks
    /// the equations. Other declarations are ignored here.
    pub fn declare_data(&mut self, decls: &[ast::Decl]) {
        let sorts: Vec<&ast::SortDecl> = decls
            .iter()
            .filter_map(|d| match d {
                ast::Decl::Sort(s) => Some(s),
                _ => None,
            })
            .collect();
        self.declare_sorts(&sorts);
        for d in decls {
            let (f, is_cons) = match d {
                ast::Decl::Cons(f) => (f, true),
                ast::Decl::Map(f) => (f, false),
                _ => continue,
            };
            self.check_function_name(&f.name, if is_cons { "constructor" } else { "map" });
            let Ok(sort) = self.resolve_sort(&f.sort) else {
                self.broken.insert(f.name.name.clone());
                continue;
            };
            let func = Func {
                name: f.name.name.clone(),
                sort,
            };
            if is_cons && matches!(func.sort.codomain(), Sort::Arrow(..)) {
                self.error(
                    f.span,
                    format!(
                        "constructor `{}` must produce a data sort, not a function",
                        func.name
                    ),
                    "function-valued constructor",
                    None,
                );
                continue;
            }
            // As mCRL2: the built-in number and Boolean sorts have fixed constructors that the
            // rewriter and enumerator rely on (`cons N: Pos; eqn N = 3;` would leave `n < N`
            // stuck).
            if is_cons
                && matches!(
                    func.sort.codomain(),
                    Sort::Bool | Sort::Pos | Sort::Nat | Sort::Int | Sort::Real
                )
            {
                self.error(
                    f.span,
                    format!(
                        "constructor `{}` of the built-in sort {}: constructors of built-in \
                         sorts are not allowed",
                        func.name,
                        sort_to_string(func.sort.codomain())
                    ),
                    "constructor of a built-in sort",
                    Some(format!(
                        "declare `{}` with `map` instead of `cons`",
                        func.name
                    )),
                );
                self.broken.insert(func.name.clone());
                continue;
            }
            if self
                .funcs
                .get(&func.name)
                .is_some_and(|v| v.contains(&func))
            {
                // mCRL2 accepts a declaration repeated identically (software_models/
                // Treiber_DCAS repeats `map N: Nat;`): one function, declared once.
                let earlier_cons = self.data.constructors.iter().any(|c| c.func == func);
                let earlier_map = self.data.mappings.iter().any(|c| c.func == func);
                if (is_cons && earlier_cons) || (!is_cons && earlier_map) {
                    continue;
                }
                self.error(
                    f.name.span,
                    format!(
                        "`{}: {}` is declared twice",
                        func.name,
                        sort_to_string(&func.sort)
                    ),
                    "declared again here",
                    None,
                );
                continue;
            }
            self.add_func(func.clone());
            let fd = FuncDecl { func, span: f.span };
            if is_cons {
                self.data.constructors.push(fd);
            } else {
                self.data.mappings.push(fd);
            }
        }
        for d in decls {
            if let ast::Decl::Eqns(sec) = d {
                self.check_eqn_section(sec);
            }
        }
    }

    /// Reports a declared function that reuses a built-in function's name, which mCRL2
    /// rejects ("Attempt to redeclare a system function"); the declaration is still used.
    pub(super) fn check_function_name(&mut self, id: &ast::Ident, kind: &str) {
        if let Some(b) = crate::data::names::builtin_named(&id.name) {
            self.error(
                id.span,
                format!("the {kind} `{}` redeclares the built-in function {b}", id.name),
                "a built-in function's name",
                Some(format!("rename the {kind}: mCRL2 does not let a declared function reuse a built-in name")),
            );
        }
    }

    pub(super) fn check_eqn_section(&mut self, sec: &ast::EqnSection) {
        let Ok(vars) = self.resolve_vars(&sec.vars) else {
            return;
        };
        let mut seen = HashSet::new();
        for v in &sec.vars {
            if !seen.insert(&v.name.name) {
                self.error(
                    v.name.span,
                    format!(
                        "variable `{}` is declared twice in this `var` section",
                        v.name.name
                    ),
                    "declared again here",
                    None,
                );
            }
        }
        for eq in &sec.eqns {
            let depth = self.push_vars(&vars);
            let r = self.check_equation(eq, &vars);
            self.pop_vars(depth);
            if let Ok(e) = r {
                self.data.equations.push(e);
            }
        }
    }

    pub(super) fn check_equation(&mut self, eq: &ast::EqnDecl, vars: &[Var]) -> Res<Equation> {
        let condition = eq
            .condition
            .as_ref()
            .map(|c| self.check(c, Some(&Sort::Bool)));
        let lhs_alts = self.synth(&eq.lhs)?;
        let sort = if lhs_alts.len() == 1 {
            self.fixed_sort(&lhs_alts[0], &eq.lhs)?
        } else {
            // Overloaded by result: let the right-hand side decide.
            let rhs_alts = self.synth(&eq.rhs)?;
            let mut chosen = None;
            for a in &lhs_alts {
                if let Some(s) = a.to_sort() {
                    if rhs_alts.iter().any(|r| fits(r, a, false)) {
                        chosen = Some(s);
                        break;
                    }
                }
            }
            match chosen {
                Some(s) => s,
                None => self.fixed_sort(&lhs_alts[0], &eq.lhs)?,
            }
        };
        let lhs = self.check(&eq.lhs, Some(&sort));
        let rhs = self.check(&eq.rhs, Some(&sort));
        let condition = condition.transpose()?;
        let lhs = lhs?;
        let rhs = rhs?;
        if matches!(lhs, DataExpr::Var(_)) {
            return Err(self.error(
                eq.lhs.span,
                "the left-hand side of an equation cannot be a variable",
                "a variable",
                Some("an equation defines a function: write `f(x) = …`".into()),
            ));
        }
        // A rewrite rule can only produce what its left-hand side binds.
        let mut in_lhs = HashSet::new();
        free_vars(&lhs, &mut Vec::new(), &mut in_lhs);
        let mut used = HashSet::new();
        free_vars(&rhs, &mut Vec::new(), &mut used);
        if let Some(c) = &condition {
            free_vars(c, &mut Vec::new(), &mut used);
        }
        let mut missing: Vec<&Var> = used.difference(&in_lhs).collect();
        missing.sort();
        if let Some(v) = missing.first() {
            let names: Vec<&str> = missing.iter().map(|v| &*v.name).collect();
            return Err(self.error(
                eq.span,
                format!(
                    "variable{} `{}` of the right-hand side or condition do{} not occur in the left-hand side",
                    if names.len() == 1 { "" } else { "s" },
                    names.join("`, `"),
                    if names.len() == 1 { "es" } else { "" }
                ),
                format!("`{}` is not bound by the left-hand side", v.name),
                Some("every variable of an equation must occur in its left-hand side".into()),
            ));
        }
        // Only variables that occur somewhere matter to consumers; keep the section's.
        Ok(Equation {
            vars: vars.to_vec(),
            condition,
            lhs,
            rhs,
            span: eq.span,
        })
    }

    /// The concrete sort of an equation's left-hand side, or an error that nothing fixes
    /// it: an equation is about one function, and its sort should say which.
    fn fixed_sort(&mut self, t: &Ty, e: &ast::DataExpr) -> Res<Sort> {
        match t.to_sort() {
            Some(s) => Ok(s),
            None => Err(self.error(
                e.span,
                "cannot determine the sort of this expression",
                format!("could be any {t}"),
                Some("add a typed variable or a sort annotation through a mapping".into()),
            )),
        }
    }
}
