//! Modal formulas: state formulas, regular formulas and action formulas.

use super::*;

impl Builder<'_> {
    // ----- formulas -----

    pub(super) fn formula_spec(&self, top: Pair<Rule>) -> R<FormulaSpec> {
        let span = sp(&top);
        let mut decls = Vec::new();
        let mut formula = None;
        for p in kids(top) {
            match p.as_rule() {
                Rule::form_decl => {
                    formula = Some(self.state_frm(kids(p).next().expect("formula"))?)
                }
                Rule::state_frm => formula = Some(self.state_frm(p)?),
                _ => self.decl_section(p, &mut decls)?,
            }
        }
        Ok(FormulaSpec {
            decls,
            formula: formula.expect("formula_spec has a formula"),
            span,
        })
    }

    pub(super) fn fixpoint_decl(&self, p: Pair<Rule>) -> R<FixpointDecl> {
        let span = sp(&p);
        let mut k = kids(p);
        let name = ident(k.next().expect("fixpoint variable"));
        let mut params = Vec::new();
        for fp in k {
            let pspan = sp(&fp);
            let mut k = kids(fp);
            let vname = ident(k.next().expect("parameter"));
            let sort = self.sort_expr(k.next().expect("parameter sort"))?;
            let init = self.data_expr(k.next().expect("initial value"))?;
            params.push(FixpointParam {
                var: VarDecl {
                    span: vname.span,
                    name: vname,
                    sort,
                },
                init,
                span: pspan,
            });
        }
        Ok(FixpointDecl { name, params, span })
    }

    pub(super) fn state_frm(&self, p: Pair<Rule>) -> R<StateFormula> {
        let quantitative = "quantitative formulas (`sum`, `inf`, `sup`, `+`, `*`, unary `-`) \
                            are not supported";
        let n = STATE_PRATT
            .map_primary(|q| {
                let span = sp(&q);
                let kind = match q.as_rule() {
                    Rule::s_true => StateFormulaKind::True,
                    Rule::s_false => StateFormulaKind::False,
                    Rule::s_val => StateFormulaKind::Val(
                        self.data_expr(kids(q).next().expect("val argument"))?,
                    ),
                    Rule::s_var => {
                        let mut k = kids(q);
                        let name = ident(k.next().expect("variable"));
                        let args = match k.next() {
                            Some(l) => self.data_expr_list(l)?,
                            None => Vec::new(),
                        };
                        StateFormulaKind::Var { name, args }
                    }
                    Rule::s_paren => {
                        let e = self.state_frm(kids(q).next().expect("parenthesised"))?;
                        return Ok(Node { e, outer: span });
                    }
                    _ => {
                        let word = q.into_inner().next().expect("delay/yaled");
                        return Err(self.unsupported(
                            sp(&word),
                            format!("timed formulas are not supported (`{}`)", word.as_str()),
                        ));
                    }
                };
                Ok(Node {
                    e: StateFormula { kind, span },
                    outer: span,
                })
            })
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let ospan = sp(&op);
                let span = ospan.join(rhs.outer);
                let body = Box::new(rhs.e);
                let kind = match op.as_rule() {
                    Rule::s_mu => {
                        StateFormulaKind::Mu(self.fixpoint_decl(kids(op).next().expect("X"))?, body)
                    }
                    Rule::s_nu => {
                        StateFormulaKind::Nu(self.fixpoint_decl(kids(op).next().expect("X"))?, body)
                    }
                    Rule::s_forall => StateFormulaKind::Forall(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                    Rule::s_exists => StateFormulaKind::Exists(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                    Rule::s_must => {
                        StateFormulaKind::Must(self.reg_frm(kids(op).next().expect("R"))?, body)
                    }
                    Rule::s_may => {
                        StateFormulaKind::May(self.reg_frm(kids(op).next().expect("R"))?, body)
                    }
                    Rule::s_not => StateFormulaKind::Not(body),
                    _ => return Err(self.unsupported(ospan, quantitative)),
                };
                Ok(Node {
                    e: StateFormula { kind, span },
                    outer: span,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.outer.join(rhs.outer);
                let (a, b) = (Box::new(lhs.e), Box::new(rhs.e));
                let kind = match op.as_rule() {
                    Rule::s_and => StateFormulaKind::And(a, b),
                    Rule::s_or => StateFormulaKind::Or(a, b),
                    Rule::s_imp => StateFormulaKind::Imp(a, b),
                    _ => return Err(self.unsupported(sp(&op), quantitative)),
                };
                Ok(Node {
                    e: StateFormula { kind, span },
                    outer: span,
                })
            })
            .parse(p.into_inner())?;
        Ok(n.e)
    }

    pub(super) fn reg_frm(&self, p: Pair<Rule>) -> R<RegFormula> {
        let n = REG_PRATT
            .map_primary(|q| {
                let span = sp(&q);
                let kind = match q.as_rule() {
                    Rule::r_nil => RegFormulaKind::Nil,
                    Rule::act_frm => RegFormulaKind::Action(self.act_frm(q)?),
                    _ => {
                        let e = self.reg_frm(kids(q).next().expect("parenthesised"))?;
                        return Ok(Node { e, outer: span });
                    }
                };
                Ok(Node {
                    e: RegFormula { kind, span },
                    outer: span,
                })
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                let span = lhs.outer.join(sp(&op));
                let kind = match op.as_rule() {
                    Rule::r_star => RegFormulaKind::Star(Box::new(lhs.e)),
                    _ => RegFormulaKind::Plus(Box::new(lhs.e)),
                };
                Ok(Node {
                    e: RegFormula { kind, span },
                    outer: span,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.outer.join(rhs.outer);
                let (a, b) = (Box::new(lhs.e), Box::new(rhs.e));
                let kind = match op.as_rule() {
                    Rule::r_alt => RegFormulaKind::Alt(a, b),
                    _ => RegFormulaKind::Seq(a, b),
                };
                Ok(Node {
                    e: RegFormula { kind, span },
                    outer: span,
                })
            })
            .parse(p.into_inner())?;
        Ok(n.e)
    }

    pub(super) fn act_frm(&self, p: Pair<Rule>) -> R<ActionFormula> {
        let n = ACT_PRATT
            .map_primary(|q| {
                let span = sp(&q);
                let kind = match q.as_rule() {
                    Rule::a_true => ActionFormulaKind::True,
                    Rule::a_false => ActionFormulaKind::False,
                    Rule::a_val => ActionFormulaKind::Val(
                        self.data_expr(kids(q).next().expect("val argument"))?,
                    ),
                    Rule::a_multact => {
                        let mut acts = Vec::new();
                        // `tau` is a keyword child (filtered out): no actions.
                        for a in kids(q) {
                            let aspan = sp(&a);
                            let mut k = kids(a);
                            let name = ident(k.next().expect("action name"));
                            let args = match k.next() {
                                Some(l) => self.data_expr_list(l)?,
                                None => Vec::new(),
                            };
                            acts.push(ActionOcc {
                                name,
                                args,
                                span: aspan,
                            });
                        }
                        ActionFormulaKind::MultiAction(acts)
                    }
                    _ => {
                        let e = self.act_frm(kids(q).next().expect("parenthesised"))?;
                        return Ok(Node { e, outer: span });
                    }
                };
                Ok(Node {
                    e: ActionFormula { kind, span },
                    outer: span,
                })
            })
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = sp(&op).join(rhs.outer);
                let body = Box::new(rhs.e);
                let kind = match op.as_rule() {
                    Rule::a_not => ActionFormulaKind::Not(body),
                    Rule::a_forall => ActionFormulaKind::Forall(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                    _ => ActionFormulaKind::Exists(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                };
                Ok(Node {
                    e: ActionFormula { kind, span },
                    outer: span,
                })
            })
            .map_postfix(|lhs, op| {
                let _ = lhs?;
                let s = sp(&op);
                Err(self.unsupported(
                    Span::new(s.start as usize, s.start as usize + 1),
                    "timed formulas are not supported (`@` in an action formula)",
                ))
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.outer.join(rhs.outer);
                let (a, b) = (Box::new(lhs.e), Box::new(rhs.e));
                let kind = match op.as_rule() {
                    Rule::a_and => ActionFormulaKind::And(a, b),
                    Rule::a_or => ActionFormulaKind::Or(a, b),
                    _ => ActionFormulaKind::Imp(a, b),
                };
                Ok(Node {
                    e: ActionFormula { kind, span },
                    outer: span,
                })
            })
            .parse(p.into_inner())?;
        Ok(n.e)
    }
}
