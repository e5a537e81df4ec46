//! Textual PBESs: parameterised fixpoint equations and their `init`.

use super::*;

impl Builder<'_> {
    // ----- PBES -----

    pub(super) fn pbes_spec(&self, top: Pair<Rule>) -> R<PbesSpec> {
        let span = sp(&top);
        let mut decls = Vec::new();
        let mut equations = Vec::new();
        let mut init = None;
        for p in kids(top) {
            match p.as_rule() {
                Rule::pbes_eqn => {
                    let mut espan = sp(&p);
                    espan.end -= 1;
                    let mut k = kids(p);
                    let fixpoint = match k.next().expect("fixpoint").as_str() {
                        "mu" => FixpointKind::Mu,
                        _ => FixpointKind::Nu,
                    };
                    let v = k.next().expect("variable");
                    let vspan = sp(&v);
                    let mut vk = kids(v);
                    let vname = ident(vk.next().expect("variable name"));
                    let params = match vk.next() {
                        Some(l) => self.vars_decl_list(l)?,
                        None => Vec::new(),
                    };
                    let rhs = self.pbes_expr(k.next().expect("right-hand side"))?;
                    equations.push(PbesEquation {
                        fixpoint,
                        var: PropVarDecl {
                            name: vname,
                            params,
                            span: vspan,
                        },
                        rhs,
                        span: espan,
                    });
                }
                Rule::pbes_init => {
                    init = Some(self.prop_var_inst(kids(p).next().expect("initial instance"))?)
                }
                _ => self.decl_section(p, &mut decls)?,
            }
        }
        Ok(PbesSpec {
            decls,
            equations,
            init: init.expect("pbes_spec has init"),
            span,
        })
    }

    pub(super) fn prop_var_inst(&self, p: Pair<Rule>) -> R<PropVarInst> {
        let span = sp(&p);
        let mut k = kids(p);
        let name = ident(k.next().expect("name"));
        let args = match k.next() {
            Some(l) => self.data_expr_list(l)?,
            None => Vec::new(),
        };
        Ok(PropVarInst { name, args, span })
    }

    pub(super) fn pbes_expr(&self, p: Pair<Rule>) -> R<PbesExpr> {
        let n = PBES_PRATT
            .map_primary(|q| {
                let span = sp(&q);
                let kind = match q.as_rule() {
                    Rule::b_true => PbesExprKind::True,
                    Rule::b_false => PbesExprKind::False,
                    Rule::b_val => {
                        PbesExprKind::Val(self.data_expr(kids(q).next().expect("val argument"))?)
                    }
                    Rule::prop_var_inst => PbesExprKind::PropVar(self.prop_var_inst(q)?),
                    _ => {
                        let e = self.pbes_expr(kids(q).next().expect("parenthesised"))?;
                        return Ok(Node { e, outer: span });
                    }
                };
                Ok(Node {
                    e: PbesExpr { kind, span },
                    outer: span,
                })
            })
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = sp(&op).join(rhs.outer);
                let body = Box::new(rhs.e);
                let kind = match op.as_rule() {
                    Rule::b_not => PbesExprKind::Not(body),
                    Rule::b_forall => PbesExprKind::Forall(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                    _ => PbesExprKind::Exists(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                };
                Ok(Node {
                    e: PbesExpr { kind, span },
                    outer: span,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.outer.join(rhs.outer);
                let (a, b) = (Box::new(lhs.e), Box::new(rhs.e));
                let kind = match op.as_rule() {
                    Rule::b_and => PbesExprKind::And(a, b),
                    Rule::b_or => PbesExprKind::Or(a, b),
                    _ => PbesExprKind::Imp(a, b),
                };
                Ok(Node {
                    e: PbesExpr { kind, span },
                    outer: span,
                })
            })
            .parse(p.into_inner())?;
        Ok(n.e)
    }
}
