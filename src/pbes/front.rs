//! The user-facing glue of the PBES tools: the declarations of an LPS as a specification
//! to type-check formulas against, and typing of LTS labels.

use crate::data::ir::{DataExpr, DataSpec, Sort};
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

/// Parses a printed label argument as a closed data expression of sort `sort` (with the
/// data type checker), for typing `.aut` labels.
pub fn parse_label_arg(data: &DataSpec, text: &str, sort: &Sort) -> Result<DataExpr, String> {
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
        crate::data::typecheck::check_data_expr_as(&src, data, sort)
            .map(|e| crate::data::simplify::best_simplifier(data).simplify(&e))
            .ok()
            .filter(|e| e.sort() == *sort)
    };
    let e = match crate::data::typecheck::check_data_expr(&src, data, &[]) {
        Ok(e) => e,
        Err(d) => return as_declared().ok_or_else(|| messages(d)),
    };
    let e = crate::data::simplify::best_simplifier(data).simplify(&e);
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
