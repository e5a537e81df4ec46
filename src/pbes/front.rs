//! The user-facing glue of the PBES tools: type-checking formulas against an LPS, typing
//! LTS labels, the data simplifier used for instantiation, and evidence traces.

use std::cell::RefCell;

use crate::data::ir::Var;
use crate::data::ir::{DataExpr, DataSpec, Sort};
use crate::data::ir_ops::{Simplifier, SyntacticSimplifier};
use crate::data::{Rewriter, TermId, VarId};
use crate::lps::Lps;
use crate::pbes::inst::InstData;
use crate::process::ir::{ProcExpr, ProcSpec};
use crate::source::{SourceFile, Span};

/// The declarations of an LPS as a (process-less) specification, for type-checking
/// formulas: its data, actions and globals.
pub fn proc_spec_of_lps(lps: &Lps) -> ProcSpec {
    ProcSpec {
        data: lps.data.clone(),
        actions: lps.actions.clone(),
        globals: lps.globals.clone(),
        procs: Vec::new(),
        init: ProcExpr::Delta,
        init_span: Span::default(),
    }
}

/// The data simplifier instantiation uses for `data`: the data engine's rewriter (normal
/// forms with respect to the specification's equations), falling back to syntactic
/// simplification when the rewriter cannot handle the specification or an expression.
pub fn simplifier(data: &DataSpec) -> Box<dyn InstData> {
    match Rewriter::new(data) {
        Ok(rw) => Box::new(RewriterSimplifier {
            rw: RefCell::new(rw),
            fallback: SyntacticSimplifier::new(data),
        }),
        Err(_) => Box::new(SyntacticSimplifier::new(data)),
    }
}

/// The data engine's rewriter as a [`Simplifier`] on the typed IR.
pub struct RewriterSimplifier {
    rw: RefCell<Rewriter>,
    fallback: SyntacticSimplifier,
}

impl InstData for RewriterSimplifier {
    fn solutions(
        &self,
        vars: &[Var],
        cond: &DataExpr,
        limit: usize,
    ) -> Option<Result<Vec<(Vec<DataExpr>, DataExpr)>, String>> {
        let mut rw = self.rw.borrow_mut();
        let c = match rw.term(cond) {
            Ok(c) => c,
            Err(e) => return Some(Err(e.to_string())),
        };
        let ids: Vec<VarId> = vars.iter().map(|v| rw.store().intern_var(v)).collect();
        let mut found: Vec<(Vec<TermId>, TermId)> = Vec::new();
        let mut too_many = false;
        let r = rw.enumerator().enumerate(&ids, c, &mut |vals, residual| {
            found.push((vals.to_vec(), residual));
            if found.len() > limit {
                too_many = true;
                return false;
            }
            true
        });
        if let Err(e) = r {
            return Some(Err(e.to_string()));
        }
        if too_many {
            return Some(Err(format!(
                "more than {limit} values satisfy the condition"
            )));
        }
        Some(Ok(found
            .into_iter()
            .map(|(vals, res)| (vals.into_iter().map(|t| rw.expr(t)).collect(), rw.expr(res)))
            .collect()))
    }
}

impl Simplifier for RewriterSimplifier {
    fn simplify(&self, e: &DataExpr) -> DataExpr {
        let mut rw = self.rw.borrow_mut();
        let r = rw
            .term(e)
            .ok()
            .and_then(|t| rw.rewrite(t).ok())
            .map(|n| rw.expr(n));
        match r {
            Some(x) => x,
            None => self.fallback.simplify(e),
        }
    }
}

/// Parses a printed label argument as a closed data expression of sort `sort` (with the
/// data type checker), for typing `.aut` labels.
pub fn parse_label_arg(data: &DataSpec, text: &str, sort: &Sort) -> Result<DataExpr, String> {
    let src = SourceFile::new("<label>".to_string(), text.to_string());
    let e = crate::data::typecheck::check_data_expr(&src, data, &[]).map_err(|d| {
        d.messages()
            .into_iter()
            .map(|(_, _, m)| m)
            .collect::<Vec<_>>()
            .join("; ")
    })?;
    let e = simplifier(data).simplify(&e);
    if e.sort() == *sort {
        return Ok(e);
    }
    // Number literals are typed by their value (`1: Pos`); take the declared sort.
    match e {
        DataExpr::Number { value, .. } if sort.is_numeric() => Ok(DataExpr::Number {
            value,
            sort: sort.clone(),
        }),
        other => Err(format!(
            "it has sort {}",
            crate::data::print::sort_to_string(&other.sort())
        )),
    }
}
