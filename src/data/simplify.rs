//! The one data simplifier on the typed IR that the stages share: the data engine's
//! rewriter on maximal closed subterms, with the syntactic folds of
//! [`SyntacticSimplifier`] around it (linearisation, LPS simplification, typing of LTS
//! labels).

use std::cell::RefCell;

use crate::data::ir::{DataExpr, DataSpec};
use crate::data::ir_ops::{is_closed, Simplifier, SyntacticSimplifier};
use crate::data::{Rewriter, TermStore};

/// A [`Simplifier`] that rewrites with the data engine ([`Rewriter`]) and then
/// applies the syntactic folds; falls back to syntactic simplification alone for
/// expressions the engine cannot convert or rewrite.
pub struct RewriterSimplifier<'s> {
    rw: RefCell<Rewriter<'s>>,
    syn: SyntacticSimplifier,
}

impl<'s> RewriterSimplifier<'s> {
    /// A simplifier for `data` whose terms live in `store`; `None` when the engine rejects
    /// the data specification.
    pub fn new(data: &DataSpec, store: &'s TermStore) -> Option<RewriterSimplifier<'s>> {
        let mut rw = Rewriter::new(data, store).ok()?;
        // Simplified data is printed and decides which parameters a process keeps: only
        // mCRL2's own equations may decide comparisons with variables.
        rw.mcrl2_order = true;
        Some(RewriterSimplifier {
            rw: RefCell::new(rw),
            syn: SyntacticSimplifier::new(data),
        })
    }
}

impl RewriterSimplifier<'_> {
    /// The normal form of an expression (closed, or with free variables the engine leaves
    /// alone), or `None` if the engine cannot produce it.
    fn rewrite_closed(&self, e: &DataExpr) -> Option<DataExpr> {
        let mut rw = self.rw.borrow_mut();
        let t = rw.term(e).ok()?;
        let n = rw.rewrite(t).ok()?;
        Some(rw.expr(n))
    }

    /// Rewrites the maximal closed subterms of `e` (open terms are left to the syntactic
    /// folds: with free variables the rewriter rarely decides more, and it is costly on the
    /// large conjunctions of composed summands).
    fn rewrite_closed_subterms(&self, e: &DataExpr) -> (DataExpr, bool) {
        match e {
            DataExpr::Var(_) | DataExpr::Number { .. } => (e.clone(), false),
            DataExpr::Func(_) => (self.rewrite_closed(e).unwrap_or_else(|| e.clone()), true),
            DataExpr::App { head, args } => {
                let parts: Vec<(DataExpr, bool)> = args
                    .iter()
                    .map(|a| self.rewrite_closed_subterms(a))
                    .collect();
                let closed = parts.iter().all(|p| p.1) && is_closed(head);
                let app = DataExpr::App {
                    head: head.clone(),
                    args: parts.into_iter().map(|p| p.0).collect(),
                };
                if closed {
                    (self.rewrite_closed(&app).unwrap_or(app), true)
                } else {
                    (app, false)
                }
            }
            _ => {
                if is_closed(e) {
                    (self.rewrite_closed(e).unwrap_or_else(|| e.clone()), true)
                } else {
                    (e.clone(), false)
                }
            }
        }
    }
}

impl Simplifier for RewriterSimplifier<'_> {
    fn normalise(&self, e: &DataExpr) -> DataExpr {
        // The engine leaves free variables as they are, so it rewrites open terms too.
        let e1 = self.syn.simplify(e);
        let rewritten = {
            let mut rw = self.rw.borrow_mut();
            rw.term(&e1)
                .ok()
                .and_then(|t| rw.rewrite(t).ok().map(|n| (n != t).then(|| rw.expr(n))))
        };
        match rewritten {
            // Already a normal form (every condition on sumelm's second pass): no second
            // round of folds, no conversion back.
            Some(None) => e1,
            Some(Some(n)) => self.syn.simplify(&n),
            None => self.simplify(e),
        }
    }

    fn simplify(&self, e: &DataExpr) -> DataExpr {
        let e1 = self.syn.simplify(e);
        if matches!(e1, DataExpr::Var(_) | DataExpr::Number { .. }) {
            return e1;
        }
        let (e2, _) = self.rewrite_closed_subterms(&e1);
        if e2 == e1 {
            e1
        } else {
            self.syn.simplify(&e2)
        }
    }
}

/// The best available simplifier for `data`: the data engine's rewriter, or the syntactic
/// simplifier when the engine cannot take the specification. The rewriter's terms live in
/// `store` (one per run: the caller frees them by dropping it).
pub fn best_simplifier<'s>(data: &DataSpec, store: &'s TermStore) -> Box<dyn Simplifier + 's> {
    match RewriterSimplifier::new(data, store) {
        Some(r) => Box::new(r),
        None => Box::new(SyntacticSimplifier::new(data)),
    }
}
