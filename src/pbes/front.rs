//! The user-facing glue of the PBES tools: the declarations of an LPS as a specification
//! to type-check formulas against, and typing of LTS labels.

use crate::data::ir::{DataExpr, DataSpec, Sort};
use crate::data::ir_ops::Simplifier;
use crate::lps::Lps;
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

/// Types the printed arguments of LTS labels as closed data expressions (with the data
/// type checker and one simplifier for all labels: building the simplifier compiles the
/// data specification's rewrite rules and makes a term store, so it is made once per LTS,
/// never once per label).
pub struct LabelArgParser<'a> {
    data: &'a DataSpec,
    simp: Box<dyn Simplifier + 'a>,
}

impl<'a> LabelArgParser<'a> {
    /// A parser of label arguments against `data`; the simplifier's terms live in `store`.
    pub fn new(data: &'a DataSpec, store: &'a crate::data::TermStore) -> Self {
        LabelArgParser {
            data,
            simp: crate::data::simplify::best_simplifier(data, store),
        }
    }

    /// Parses a printed label argument as a closed data expression of sort `sort`.
    pub fn parse(&self, text: &str, sort: &Sort) -> Result<DataExpr, String> {
        let src = SourceFile::new("<label>".to_string(), text.to_string());
        let messages = |d: crate::data::typecheck::Diagnostics| {
            d.messages()
                .into_iter()
                .map(|(_, _, m)| m)
                .collect::<Vec<_>>()
                .join("; ")
        };
        // An expression whose sort the context decides (`[]`, `{}`, `[1]: List(Nat)`) is
        // checked again against the declared sort.
        let as_declared = || {
            crate::data::typecheck::check_data_expr_as(&src, self.data, sort)
                .map(|e| self.simp.simplify(&e))
                .ok()
                .filter(|e| e.sort() == *sort)
        };
        let e = match crate::data::typecheck::check_data_expr(&src, self.data, &[]) {
            Ok(e) => e,
            Err(d) => return as_declared().ok_or_else(|| messages(d)),
        };
        let e = self.simp.simplify(&e);
        if e.sort() == *sort {
            return Ok(e);
        }
        // Number literals are typed by their value (`1: Pos`); take the declared sort.
        match e {
            DataExpr::Number { value, .. } if sort.is_numeric() => Ok(DataExpr::Number {
                value,
                sort: sort.clone(),
            }),
            other => as_declared().ok_or_else(|| {
                format!(
                    "it has sort {}",
                    crate::data::print::sort_to_string(&other.sort())
                )
            }),
        }
    }
}
