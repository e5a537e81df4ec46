//! The textual languages: mCRL2 specifications, μ-calculus formulas, textual PBES and BES.
//! Parsing (pest) into an untyped AST with source spans. Printing typed IR back to text is
//! `crate::data::print` and `crate::print`: this module knows no typed IR.
//!
//! Entry points: [`parse_spec`], [`parse_formula_spec`], [`parse_pbes`], [`parse_data_expr`].
//! Every parse runs on a thread with a large stack and rejects nesting deeper than
//! [`parser::MAX_BRACKET_DEPTH`] brackets or an AST deeper than [`parser::MAX_AST_DEPTH`]
//! with a [`SyntaxErrorKind::TooDeep`] error, so no input overflows the stack.

pub mod ast;
pub mod error;
pub mod parser;

pub use error::{SyntaxError, SyntaxErrorKind};

use crate::source::SourceFile;
use parser::{Entry, Parsed};

/// Parses an mCRL2 specification (`.mcrl2`).
pub fn parse_spec(src: &SourceFile) -> Result<ast::Spec, SyntaxError> {
    match parser::parse(src, Entry::Spec)? {
        Parsed::Spec(s) => Ok(s),
        _ => unreachable!("entry and result agree"),
    }
}

/// Parses a state-formula file (`.mcf`): a formula alone, or declarations (`sort`, `cons`,
/// `map`, `var`/`eqn`, `act`) and `form φ;`.
pub fn parse_formula_spec(src: &SourceFile) -> Result<ast::FormulaSpec, SyntaxError> {
    match parser::parse(src, Entry::Formula)? {
        Parsed::Formula(f) => Ok(f),
        _ => unreachable!("entry and result agree"),
    }
}

/// Parses a textual PBES (`pbes … init X;`, optionally after data declarations and `glob`).
pub fn parse_pbes(src: &SourceFile) -> Result<ast::PbesSpec, SyntaxError> {
    match parser::parse(src, Entry::Pbes)? {
        Parsed::Pbes(p) => Ok(p),
        _ => unreachable!("entry and result agree"),
    }
}

/// Parses a lone data expression (as `muon rewrite` reads them).
pub fn parse_data_expr(src: &SourceFile) -> Result<ast::DataExpr, SyntaxError> {
    match parser::parse(src, Entry::Data)? {
        Parsed::Data(e) => Ok(e),
        _ => unreachable!("entry and result agree"),
    }
}
