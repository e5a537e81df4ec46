//! Data expressions: operators by precedence (Pratt), applications, binders, set and bag
//! comprehensions, lists and `whr` clauses.

use super::*;

impl Builder<'_> {
    // ----- data expressions -----

    pub(super) fn data_expr(&self, p: Pair<Rule>) -> R<DataExpr> {
        debug_assert!(matches!(p.as_rule(), Rule::data_expr));
        let n = DATA_PRATT
            .map_primary(|q| self.data_primary(q))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = sp(&op).join(rhs.outer);
                let kind = match op.as_rule() {
                    Rule::d_not => DataExprKind::Unary {
                        op: UnaryOp::Not,
                        arg: Box::new(rhs.e),
                    },
                    Rule::d_neg => DataExprKind::Unary {
                        op: UnaryOp::Neg,
                        arg: Box::new(rhs.e),
                    },
                    Rule::d_size => DataExprKind::Unary {
                        op: UnaryOp::Size,
                        arg: Box::new(rhs.e),
                    },
                    r => {
                        let kind = match r {
                            Rule::d_forall => BinderKind::Forall,
                            Rule::d_exists => BinderKind::Exists,
                            _ => BinderKind::Lambda,
                        };
                        let vars =
                            self.vars_decl_list(kids(op).next().expect("binder variables"))?;
                        DataExprKind::Binder {
                            kind,
                            vars,
                            body: Box::new(rhs.e),
                        }
                    }
                };
                Ok(Node {
                    e: DataExpr { kind, span },
                    outer: span,
                })
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                let span = lhs.outer.join(sp(&op));
                let kind = match op.as_rule() {
                    Rule::d_app => DataExprKind::App {
                        head: Box::new(lhs.e),
                        args: self.data_expr_list(kids(op).next().expect("arguments"))?,
                    },
                    Rule::d_update => {
                        let mut k = kids(op);
                        let arg = self.data_expr(k.next().expect("update argument"))?;
                        let value = self.data_expr(k.next().expect("update value"))?;
                        DataExprKind::Update {
                            func: Box::new(lhs.e),
                            arg: Box::new(arg),
                            value: Box::new(value),
                        }
                    }
                    _ => DataExprKind::Whr {
                        body: Box::new(lhs.e),
                        defs: kids(op)
                            .map(|a| self.assignment(a))
                            .collect::<R<Vec<_>>>()?,
                    },
                };
                Ok(Node {
                    e: DataExpr { kind, span },
                    outer: span,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.outer.join(rhs.outer);
                let op = match op.as_rule() {
                    Rule::d_imp => BinaryOp::Imp,
                    Rule::d_or => BinaryOp::Or,
                    Rule::d_and => BinaryOp::And,
                    Rule::d_eq => BinaryOp::Eq,
                    Rule::d_neq => BinaryOp::Neq,
                    Rule::d_lt => BinaryOp::Lt,
                    Rule::d_le => BinaryOp::Le,
                    Rule::d_ge => BinaryOp::Ge,
                    Rule::d_gt => BinaryOp::Gt,
                    Rule::d_in => BinaryOp::In,
                    Rule::d_cons => BinaryOp::Cons,
                    Rule::d_snoc => BinaryOp::Snoc,
                    Rule::d_concat => BinaryOp::Concat,
                    Rule::d_add => BinaryOp::Add,
                    Rule::d_sub => BinaryOp::Sub,
                    Rule::d_div => BinaryOp::Div,
                    Rule::d_intdiv => BinaryOp::IntDiv,
                    Rule::d_mod => BinaryOp::Mod,
                    Rule::d_mul => BinaryOp::Mul,
                    _ => BinaryOp::At,
                };
                Ok(Node {
                    e: DataExpr {
                        kind: DataExprKind::Binary {
                            op,
                            lhs: Box::new(lhs.e),
                            rhs: Box::new(rhs.e),
                        },
                        span,
                    },
                    outer: span,
                })
            })
            .parse(p.into_inner())?;
        Ok(n.e)
    }

    pub(super) fn data_expr_list(&self, p: Pair<Rule>) -> R<Vec<DataExpr>> {
        kids(p).map(|e| self.data_expr(e)).collect()
    }

    pub(super) fn assignment(&self, p: Pair<Rule>) -> R<Assignment> {
        let span = sp(&p);
        let mut k = kids(p);
        let name = ident(k.next().expect("assigned name"));
        let value = self.data_expr(k.next().expect("assigned value"))?;
        Ok(Assignment { name, value, span })
    }

    pub(super) fn data_primary(&self, p: Pair<Rule>) -> R<Node<DataExpr>> {
        let span = sp(&p);
        let kind = match p.as_rule() {
            Rule::d_true => DataExprKind::True,
            Rule::d_false => DataExprKind::False,
            Rule::number => DataExprKind::Number(name(&p)),
            Rule::ident => DataExprKind::Id(name(&p)),
            Rule::d_paren => {
                let e = self.data_expr(kids(p).next().expect("parenthesised"))?;
                return Ok(Node { e, outer: span });
            }
            Rule::d_list => {
                DataExprKind::ListEnum(kids(p).map(|e| self.data_expr(e)).collect::<R<Vec<_>>>()?)
            }
            Rule::d_empty_bag => DataExprKind::BagEnum(Vec::new()),
            Rule::d_compr => {
                let mut k = kids(p);
                let var = self.var_decl(k.next().expect("comprehension variable"))?;
                let body = self.data_expr(k.next().expect("comprehension body"))?;
                DataExprKind::Comprehension {
                    var,
                    body: Box::new(body),
                }
            }
            Rule::d_braces => {
                let mut set = Vec::new();
                let mut bag = Vec::new();
                for elt in kids(p) {
                    let espan = sp(&elt);
                    let mut k = kids(elt);
                    let e = self.data_expr(k.next().expect("element"))?;
                    match k.next() {
                        Some(m) => {
                            if !set.is_empty() {
                                return Err(self.mixed_enum(espan));
                            }
                            bag.push((e, self.data_expr(m)?));
                        }
                        None => {
                            if !bag.is_empty() {
                                return Err(self.mixed_enum(espan));
                            }
                            set.push(e);
                        }
                    }
                }
                if bag.is_empty() {
                    DataExprKind::SetEnum(set)
                } else {
                    DataExprKind::BagEnum(bag)
                }
            }
            r => unreachable!("not a data primary: {r:?}"),
        };
        Ok(Node {
            e: DataExpr { kind, span },
            outer: span,
        })
    }

    pub(super) fn mixed_enum(&self, span: Span) -> SyntaxError {
        self.err(
            span,
            "an enumeration mixes set elements `e` and bag elements `e: n`",
            "this element",
        )
        .with_help("a set is written `{a, b}`, a bag `{a: 2, b: 1}`")
    }

    /// A data unit (`data_unit`): prefix operators, a primary, applications.
    pub(super) fn data_unit(&self, p: Pair<Rule>) -> R<DataExpr> {
        let mut prefixes = Vec::new();
        let mut head: Option<DataExpr> = None;
        for c in kids(p) {
            let cspan = sp(&c);
            match c.as_rule() {
                Rule::u_not | Rule::u_neg | Rule::u_size => prefixes.push(c),
                Rule::d_app => {
                    let h = head.take().expect("application head");
                    let span = h.span.join(sp(&c));
                    let args = self.data_expr_list(kids(c).next().expect("arguments"))?;
                    head = Some(DataExpr {
                        kind: DataExprKind::App {
                            head: Box::new(h),
                            args,
                        },
                        span,
                    });
                }
                Rule::u_paren => head = Some(self.data_expr(kids(c).next().expect("inner"))?),
                r => {
                    let kind = match r {
                        Rule::u_true => DataExprKind::True,
                        Rule::u_false => DataExprKind::False,
                        Rule::u_number => DataExprKind::Number(name(&c)),
                        _ => DataExprKind::Id(name(&c)),
                    };
                    head = Some(DataExpr { kind, span: cspan });
                }
            }
        }
        let mut e = head.expect("unit primary");
        for op in prefixes.into_iter().rev() {
            let span = sp(&op).join(e.span);
            let op = match op.as_rule() {
                Rule::u_not => UnaryOp::Not,
                Rule::u_neg => UnaryOp::Neg,
                _ => UnaryOp::Size,
            };
            e = DataExpr {
                kind: DataExprKind::Unary {
                    op,
                    arg: Box::new(e),
                },
                span,
            };
        }
        Ok(e)
    }
}
