//! Process expressions: operators by precedence, conditions with the dangling `<>`, sums,
//! alphabet operators and multi-actions.

use super::*;

impl Builder<'_> {
    // ----- process expressions -----

    pub(super) fn proc_expr(&self, p: Pair<Rule>) -> R<ProcExpr> {
        debug_assert_eq!(p.as_rule(), Rule::proc_expr);
        let n = PROC_PRATT
            .map_primary(|q| self.proc_primary(q).map(PNode::from))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = sp(&op).join(rhs.outer);
                let last = rhs.e.span;
                let kind = match op.as_rule() {
                    Rule::p_sum => {
                        // `sum` binds weaker than `<>`, so in `c -> sum x: D. p <> q` the `<> q`
                        // ends up under the sum; it stays pending and goes to the condition.
                        let e = ProcExpr {
                            kind: ProcExprKind::Sum {
                                vars: self
                                    .vars_decl_list(kids(op).next().expect("sum variables"))?,
                                body: Box::new(rhs.e),
                            },
                            span: span_before(span, last, &rhs.pending),
                        };
                        return Ok(PNode {
                            e,
                            outer: span,
                            pending: rhs.pending,
                        });
                    }
                    Rule::p_cond => ProcExprKind::Cond {
                        cond: self.data_unit(kids(op).next().expect("condition"))?,
                        then: Box::new(rhs.e),
                        else_: rhs.pending.map(|(_, q)| Box::new(q)),
                    },
                    _ => {
                        let s = sp(&op);
                        return Err(self.unsupported(
                            Span::new(s.start as usize, s.start as usize + 4),
                            "probabilistic processes (`dist`) are not supported",
                        ));
                    }
                };
                Ok(PNode {
                    e: ProcExpr { kind, span },
                    outer: span,
                    pending: None,
                })
            })
            .map_postfix(|lhs, op| {
                let _ = lhs?;
                let s = sp(&op);
                Err(self.unsupported(
                    Span::new(s.start as usize, s.start as usize + 1),
                    "timed processes (the `@` operator) are not supported",
                ))
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let ospan = sp(&op);
                if let Some((else_span, _)) = &lhs.pending {
                    // `(… <> q) op r` without parentheses: the else branch was never claimed.
                    return Err(self.dangling_else(*else_span));
                }
                let span = lhs.outer.join(rhs.outer);
                let pending = rhs.pending;
                let inner = span_before(span, rhs.e.span, &pending);
                let (a, b) = (Box::new(lhs.e), Box::new(rhs.e));
                let kind = match op.as_rule() {
                    Rule::p_choice => ProcExprKind::Choice(a, b),
                    Rule::p_seq => ProcExprKind::Seq(a, b),
                    Rule::p_sync => ProcExprKind::Sync(a, b),
                    Rule::p_par => ProcExprKind::Par(a, b),
                    Rule::p_leftmerge => ProcExprKind::LeftMerge(a, b),
                    Rule::p_else => {
                        if let Some((else_span, _)) = &pending {
                            return Err(self.dangling_else(*else_span));
                        }
                        let outer = lhs.outer;
                        let mut then = *a;
                        if then.span.end == outer.end {
                            match attach_else(&mut then, *b) {
                                Ok(()) => {
                                    return Ok(PNode {
                                        e: ProcExpr {
                                            kind: then.kind,
                                            span,
                                        },
                                        outer: span,
                                        pending: None,
                                    })
                                }
                                // No open condition inside: an enclosing prefix (`sum`, then
                                // `c ->`) may still claim it.
                                Err(q) => {
                                    return Ok(PNode {
                                        e: then,
                                        outer: span,
                                        pending: Some((ospan, q)),
                                    })
                                }
                            }
                        }
                        return Err(self.dangling_else(ospan));
                    }
                    Rule::p_until => {
                        return Err(self.unsupported(
                            ospan,
                            "the until operator `<<` (timed processes) is not supported",
                        ))
                    }
                    _ => {
                        return Err(self
                            .err(
                                ospan,
                                "`|>` is a list operator, not a process operator",
                                "here",
                            )
                            .with_help(
                                "processes are composed with `.`, `+`, `|`, `||` and `||_`",
                            ))
                    }
                };
                Ok(PNode {
                    e: ProcExpr { kind, span: inner },
                    outer: span,
                    pending,
                })
            })
            .parse(p.into_inner())?;
        if let Some((else_span, _)) = n.pending {
            return Err(self.dangling_else(else_span));
        }
        Ok(n.e)
    }

    pub(super) fn dangling_else(&self, span: Span) -> SyntaxError {
        self.err(
            span,
            "`<>` without a matching condition `c ->`",
            "this `<>`",
        )
        .with_help("the if-then-else operator is written `c -> p <> q`")
    }

    pub(super) fn proc_primary(&self, p: Pair<Rule>) -> R<Node<ProcExpr>> {
        let span = sp(&p);
        let kind = match p.as_rule() {
            Rule::p_delta => ProcExprKind::Delta,
            Rule::p_tau => ProcExprKind::Tau,
            Rule::p_paren => {
                let e = self.proc_expr(kids(p).next().expect("parenthesised"))?;
                return Ok(Node { e, outer: span });
            }
            Rule::p_action => {
                let mut k = kids(p);
                let name = ident(k.next().expect("action name"));
                let args = match k.next() {
                    Some(l) => self.data_expr_list(l)?,
                    None => Vec::new(),
                };
                ProcExprKind::Action { name, args }
            }
            Rule::p_assign_call => {
                let mut k = kids(p);
                let name = ident(k.next().expect("process name"));
                let assignments = k.map(|a| self.assignment(a)).collect::<R<Vec<_>>>()?;
                ProcExprKind::AssignCall { name, assignments }
            }
            Rule::p_block | Rule::p_hide => {
                let is_block = p.as_rule() == Rule::p_block;
                let mut k = kids(p);
                let set = self.id_list(k.next().expect("action set"));
                let body = Box::new(self.proc_expr(k.next().expect("body"))?);
                if is_block {
                    ProcExprKind::Block { set, body }
                } else {
                    ProcExprKind::Hide { set, body }
                }
            }
            Rule::p_allow => {
                let mut k = kids(p);
                let set = kids(k.next().expect("multi-action set"))
                    .map(|m| MultiActName {
                        span: sp(&m),
                        names: self.id_list(m),
                    })
                    .collect();
                let body = Box::new(self.proc_expr(k.next().expect("body"))?);
                ProcExprKind::Allow { set, body }
            }
            Rule::p_rename => {
                let mut rules = Vec::new();
                let mut body = None;
                for c in kids(p) {
                    match c.as_rule() {
                        Rule::ren_expr => {
                            let rspan = sp(&c);
                            let mut k = kids(c);
                            let from = ident(k.next().expect("renamed action"));
                            let to = ident(k.next().expect("new name"));
                            rules.push(RenameRule {
                                from,
                                to,
                                span: rspan,
                            });
                        }
                        _ => body = Some(Box::new(self.proc_expr(c)?)),
                    }
                }
                ProcExprKind::Rename {
                    rules,
                    body: body.expect("rename body"),
                }
            }
            Rule::p_comm => {
                let mut rules = Vec::new();
                let mut body = None;
                for c in kids(p) {
                    match c.as_rule() {
                        Rule::comm_expr => {
                            let cspan = sp(&c);
                            let mut k = c.into_inner();
                            let lhs_pair = k.next().expect("communicating names");
                            let lhs_span = sp(&lhs_pair);
                            let lhs = self.id_list(lhs_pair);
                            if lhs.len() < 2 {
                                return Err(self
                                    .err(
                                        lhs_span,
                                        "a communication needs at least two actions, `a|b -> c`",
                                        "only one action",
                                    )
                                    .with_help("to rename a single action use `rename`"));
                            }
                            let r = k.next().expect("communication result");
                            let rhs = (r.as_rule() == Rule::ident).then(|| ident(r));
                            rules.push(CommRule {
                                lhs,
                                rhs,
                                span: cspan,
                            });
                        }
                        _ => body = Some(Box::new(self.proc_expr(c)?)),
                    }
                }
                ProcExprKind::Comm {
                    rules,
                    body: body.expect("comm body"),
                }
            }
            r => unreachable!("not a process primary: {r:?}"),
        };
        Ok(Node {
            e: ProcExpr { kind, span },
            outer: span,
        })
    }
}

/// Attaches `else_` to the innermost conditional without else-branch on the right spine of
/// `e` (the dangling `<>` binds to the nearest `->`), extending the spans along the way.
/// Children written in parentheses end before their parent does, so the walk never enters
/// them. Gives `else_` back when there is no such conditional.
pub(super) fn attach_else(e: &mut ProcExpr, else_: ProcExpr) -> Result<(), ProcExpr> {
    let end = e.span.end;
    let new_end = else_.span.end.max(end);
    // Deeper first: the innermost open conditional wins.
    if let Some(c) = spine_child_mut(e) {
        if c.span.end == end && open_cond(c) {
            attach_else(c, else_)?;
            e.span.end = new_end;
            return Ok(());
        }
    }
    match &mut e.kind {
        ProcExprKind::Cond { else_: slot, .. } if slot.is_none() => {
            *slot = Some(Box::new(else_));
            e.span.end = new_end;
            Ok(())
        }
        _ => Err(else_),
    }
}

pub(super) fn spine_child_mut(e: &mut ProcExpr) -> Option<&mut ProcExpr> {
    match &mut e.kind {
        ProcExprKind::Sum { body, .. } => Some(body),
        ProcExprKind::Choice(_, b)
        | ProcExprKind::Seq(_, b)
        | ProcExprKind::Sync(_, b)
        | ProcExprKind::Par(_, b)
        | ProcExprKind::LeftMerge(_, b) => Some(b),
        ProcExprKind::Cond { then, else_, .. } => match else_ {
            Some(x) => Some(x),
            None => Some(then),
        },
        _ => None,
    }
}

/// Whether the right spine of `e` (outside parentheses) has a conditional without else.
pub(super) fn open_cond(e: &ProcExpr) -> bool {
    let end = e.span.end;
    let child: Option<&ProcExpr> = match &e.kind {
        ProcExprKind::Sum { body, .. } => Some(body),
        ProcExprKind::Choice(_, b)
        | ProcExprKind::Seq(_, b)
        | ProcExprKind::Sync(_, b)
        | ProcExprKind::Par(_, b)
        | ProcExprKind::LeftMerge(_, b) => Some(b),
        ProcExprKind::Cond { else_: None, .. } => return true,
        ProcExprKind::Cond { else_: Some(x), .. } => Some(x),
        _ => None,
    };
    child.is_some_and(|c| c.span.end == end && open_cond(c))
}
