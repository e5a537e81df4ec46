//! Declarations and sorts: the sections of a specification (`sort`, `cons`, `map`, `var`,
//! `eqn`, `act`, `proc`, `init`) and sort expressions.

use super::*;

impl Builder<'_> {
    // ----- declarations -----

    pub(super) fn spec(&self, top: Pair<Rule>) -> R<Spec> {
        let span = sp(&top);
        let mut decls = Vec::new();
        let mut init_span: Option<Span> = None;
        for p in kids(top) {
            if p.as_rule() == Rule::init_decl {
                let s = sp(&p);
                if let Some(first) = init_span {
                    let (l, c) = first.line_col(&self.src.text);
                    return Err(self
                        .err(
                            Span::new(s.start as usize, s.start as usize + 4),
                            "a specification has exactly one `init`",
                            "second `init`",
                        )
                        .with_help(format!("the first `init` is at line {l}, column {c}")));
                }
                init_span = Some(s);
            }
            self.decl_section(p, &mut decls)?;
        }
        if init_span.is_none() {
            let end = self.src.text.trim_end().len();
            return Err(self
                .err(
                    Span::new(end, end),
                    "the specification has no `init` declaration",
                    "end of the specification",
                )
                .with_help("add `init P;` naming the initial process"));
        }
        Ok(Spec { decls, span })
    }

    pub(super) fn decl_section(&self, p: Pair<Rule>, out: &mut Vec<Decl>) -> R<()> {
        match p.as_rule() {
            Rule::sort_spec => {
                for d in kids(p) {
                    let d = d.into_inner().next().expect("sort_decl has a body");
                    match d.as_rule() {
                        Rule::sort_alias => {
                            let mut k = kids(d);
                            let name = ident(k.next().expect("alias name"));
                            let def = self.sort_expr(k.next().expect("alias sort"))?;
                            let span = name.span.join(def.span);
                            out.push(Decl::Sort(SortDecl {
                                name,
                                def: Some(def),
                                span,
                            }));
                        }
                        _ => {
                            for name in self.id_list(d) {
                                let span = name.span;
                                out.push(Decl::Sort(SortDecl {
                                    name,
                                    def: None,
                                    span,
                                }));
                            }
                        }
                    }
                }
            }
            Rule::cons_spec | Rule::map_spec => {
                let is_cons = p.as_rule() == Rule::cons_spec;
                for d in kids(p) {
                    let (names, sort) = self.ids_decl(d)?;
                    for name in names {
                        let f = FuncDecl {
                            span: name.span,
                            name,
                            sort: sort.clone(),
                        };
                        out.push(if is_cons { Decl::Cons(f) } else { Decl::Map(f) });
                    }
                }
            }
            Rule::glob_spec => {
                for l in kids(p) {
                    for v in self.vars_decl_list(l)? {
                        out.push(Decl::Glob(v));
                    }
                }
            }
            Rule::eqn_spec => {
                let span = sp(&p);
                let mut vars = Vec::new();
                let mut eqns = Vec::new();
                for c in kids(p) {
                    match c.as_rule() {
                        Rule::var_spec => {
                            for l in kids(c) {
                                vars.extend(self.vars_decl_list(l)?);
                            }
                        }
                        _ => eqns.push(self.eqn_decl(c)?),
                    }
                }
                out.push(Decl::Eqns(EqnSection { vars, eqns, span }));
            }
            Rule::act_spec => {
                for d in kids(p) {
                    let mut k = kids(d);
                    let names = self.id_list(k.next().expect("act names"));
                    let sorts = match k.next() {
                        Some(s) => self.sort_product(s)?,
                        None => Vec::new(),
                    };
                    for name in names {
                        out.push(Decl::Act(ActDecl {
                            span: name.span,
                            name,
                            sorts: sorts.clone(),
                        }));
                    }
                }
            }
            Rule::proc_spec => {
                for d in kids(p) {
                    let mut span = sp(&d);
                    span.end -= 1; // without the `;`
                    let mut k = kids(d);
                    let name = ident(k.next().expect("proc name"));
                    let mut params = Vec::new();
                    let mut body = None;
                    for c in k {
                        match c.as_rule() {
                            Rule::vars_decl_list => params = self.vars_decl_list(c)?,
                            _ => body = Some(self.proc_expr(c)?),
                        }
                    }
                    out.push(Decl::Proc(ProcDecl {
                        name,
                        params,
                        body: body.expect("proc body"),
                        span,
                    }));
                }
            }
            Rule::init_decl => {
                let mut span = sp(&p);
                span.end -= 1;
                let body = self.proc_expr(kids(p).next().expect("init body"))?;
                out.push(Decl::Init(InitDecl { body, span }));
            }
            r => unreachable!("not a declaration section: {r:?}"),
        }
        Ok(())
    }

    pub(super) fn id_list(&self, p: Pair<Rule>) -> Vec<Ident> {
        kids(p).map(ident).collect()
    }

    pub(super) fn ids_decl(&self, p: Pair<Rule>) -> R<(Vec<Ident>, SortExpr)> {
        let mut k = kids(p);
        let names = self.id_list(k.next().expect("names"));
        let sort = self.sort_expr(k.next().expect("sort"))?;
        Ok((names, sort))
    }

    pub(super) fn vars_decl_list(&self, p: Pair<Rule>) -> R<Vec<VarDecl>> {
        let mut out = Vec::new();
        for vd in kids(p) {
            let (names, sort) = self.ids_decl(vd)?;
            for name in names {
                out.push(VarDecl {
                    span: name.span,
                    name,
                    sort: sort.clone(),
                });
            }
        }
        Ok(out)
    }

    pub(super) fn var_decl(&self, p: Pair<Rule>) -> R<VarDecl> {
        let mut k = kids(p);
        let name = ident(k.next().expect("var name"));
        let sort = self.sort_expr(k.next().expect("var sort"))?;
        Ok(VarDecl {
            span: name.span,
            name,
            sort,
        })
    }

    pub(super) fn eqn_decl(&self, p: Pair<Rule>) -> R<EqnDecl> {
        let mut span = sp(&p);
        span.end -= 1;
        let mut es = kids(p).map(|e| self.data_expr(e)).collect::<R<Vec<_>>>()?;
        let rhs = es.pop().expect("rhs");
        let lhs = es.pop().expect("lhs");
        let condition = es.pop();
        Ok(EqnDecl {
            condition,
            lhs,
            rhs,
            span,
        })
    }

    // ----- sorts -----

    pub(super) fn sort_expr(&self, p: Pair<Rule>) -> R<SortExpr> {
        let span = sp(&p);
        let mut k = kids(p);
        let prod = k.next().expect("sort product");
        let prod_span = sp(&prod);
        let mut dom = self.sort_product(prod)?;
        match k.next() {
            Some(cod) => {
                let cod = self.sort_expr(cod)?;
                Ok(SortExpr {
                    kind: SortExprKind::Arrow(dom, Box::new(cod)),
                    span,
                })
            }
            None if dom.len() == 1 => Ok(dom.pop().expect("one sort")),
            None => Err(self
                .err(
                    prod_span,
                    "a product sort `A # B` is only allowed as the domain of a function sort",
                    "product without `->`",
                )
                .with_help("write `A # B -> C`, or use a struct sort for pairs")),
        }
    }

    pub(super) fn sort_product(&self, p: Pair<Rule>) -> R<Vec<SortExpr>> {
        match p.as_rule() {
            // An action's sort: a product, or a single (possibly function) sort.
            Rule::sort_expr => {
                let span = sp(&p);
                let mut k = kids(p);
                let prod = k.next().expect("product");
                match k.next() {
                    None => self.sort_product(prod),
                    Some(cod) => {
                        let dom = self.sort_product(prod)?;
                        let cod = self.sort_expr(cod)?;
                        Ok(vec![SortExpr {
                            kind: SortExprKind::Arrow(dom, Box::new(cod)),
                            span,
                        }])
                    }
                }
            }
            _ => kids(p).map(|s| self.sort_primary(s)).collect(),
        }
    }

    pub(super) fn sort_primary(&self, p: Pair<Rule>) -> R<SortExpr> {
        let span = sp(&p);
        let kind = match p.as_rule() {
            Rule::basic_sort => match p.as_str() {
                "Bool" => SortExprKind::Bool,
                "Pos" => SortExprKind::Pos,
                "Nat" => SortExprKind::Nat,
                "Int" => SortExprKind::Int,
                _ => SortExprKind::Real,
            },
            Rule::ident => SortExprKind::Id(name(&p)),
            Rule::sort_expr => return self.sort_expr(p),
            Rule::container_sort => {
                let mut k = kids(p);
                let c = k.next().expect("container");
                let inner = Box::new(self.sort_expr(k.next().expect("element sort"))?);
                match c.as_str() {
                    "List" => SortExprKind::List(inner),
                    "Set" => SortExprKind::Set(inner),
                    "FSet" => SortExprKind::FSet(inner),
                    "Bag" => SortExprKind::Bag(inner),
                    _ => SortExprKind::FBag(inner),
                }
            }
            Rule::struct_sort => {
                let mut conss = Vec::new();
                for c in kids(p) {
                    let cspan = sp(&c);
                    let mut name = None;
                    let mut fields = Vec::new();
                    let mut recogniser = None;
                    for x in kids(c) {
                        match x.as_rule() {
                            Rule::ident => name = Some(ident(x)),
                            Rule::proj_decl => {
                                let fspan = sp(&x);
                                let mut projection = None;
                                let mut sort = None;
                                for y in kids(x) {
                                    match y.as_rule() {
                                        Rule::ident => projection = Some(ident(y)),
                                        _ => sort = Some(self.sort_expr(y)?),
                                    }
                                }
                                fields.push(ProjDecl {
                                    projection,
                                    sort: sort.expect("field sort"),
                                    span: fspan,
                                });
                            }
                            _ => recogniser = Some(ident(kids(x).next().expect("recogniser"))),
                        }
                    }
                    conss.push(ConstrDecl {
                        name: name.expect("constructor name"),
                        fields,
                        recogniser,
                        span: cspan,
                    });
                }
                SortExprKind::Struct(conss)
            }
            r => unreachable!("not a sort: {r:?}"),
        };
        Ok(SortExpr { kind, span })
    }
}
