//! The textual languages: mCRL2 specifications, μ-calculus formulas, textual PBES and BES.
//! Parsing (pest) into an untyped AST with source spans, and pretty printing.

pub mod span;

pub use span::{SourceFile, Span};
