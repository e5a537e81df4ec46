//! Compilation of user equations: each left-hand side becomes a pattern tree indexed by its
//! head symbol.

use super::*;

impl<'s> Rewriter<'s> {
    pub(super) fn compile_rule(
        &mut self,
        lhs: TermId,
        cond: Option<TermId>,
        rhs: TermId,
    ) -> Result<Option<(FuncId, Rule)>, RewriteError> {
        let store = self.store;
        match store.get(lhs) {
            Term::Func(f) => Ok(Some((
                *f,
                Rule {
                    pats: vec![],
                    curried: false,
                    cond,
                    rhs,
                },
            ))),
            Term::App(h, args) => match store.get(*h) {
                Term::Func(f) => {
                    let pats = args
                        .iter()
                        .map(|a| self.compile_pat(*a))
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(Some((
                        *f,
                        Rule {
                            pats,
                            curried: false,
                            cond,
                            rhs,
                        },
                    )))
                }
                _ => {
                    let mut root = *h;
                    while let Term::App(h2, _) = store.get(root) {
                        root = *h2;
                    }
                    let Term::Func(f) = store.get(root) else {
                        return Ok(None);
                    };
                    let pat = self.compile_pat(lhs)?;
                    Ok(Some((
                        *f,
                        Rule {
                            pats: vec![pat],
                            curried: true,
                            cond,
                            rhs,
                        },
                    )))
                }
            },
            _ => Ok(None),
        }
    }

    pub(super) fn compile_pat(&mut self, t: TermId) -> Result<Pat, RewriteError> {
        let store = self.store;
        if store.is_closed(t) {
            let builtin_head = match store.as_func_app(t) {
                Some((f, _)) => matches!(self.kind(f), Kind::Op(_)),
                None => false,
            };
            // Only built-in applications are normalised (mCRL2 does not rewrite left-hand
            // sides; this just makes literals such as `-1` and `{1, 2}` canonical).
            if builtin_head || self.has_builtin_op(t) {
                return Ok(Pat::Term(self.rewrite(t)?));
            }
            return Ok(Pat::Term(t));
        }
        Ok(match store.get(t) {
            Term::Var(v) => Pat::Var(*v),
            Term::App(h, args) => {
                let ps = args
                    .iter()
                    .map(|a| self.compile_pat(*a))
                    .collect::<Result<Vec<_>, _>>()?;
                if store.is_closed(*h) {
                    Pat::App(*h, ps)
                } else {
                    Pat::AppOf(Box::new(self.compile_pat(*h)?), ps)
                }
            }
            _ => Pat::Term(t),
        })
    }

    pub(super) fn has_builtin_op(&mut self, t: TermId) -> bool {
        let store = self.store;
        match store.get(t) {
            Term::App(h, args) => {
                let hb = match store.get(*h) {
                    Term::Func(f) => matches!(self.kind(*f), Kind::Op(_)),
                    _ => false,
                };
                hb || args.iter().any(|a| self.has_builtin_op(*a))
            }
            _ => false,
        }
    }
}
