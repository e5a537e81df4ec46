//! Modal μ-calculus state formulas: the typed formula IR and its preprocessing
//! (regular modalities, negation normal form, monotonicity), and the reader of formula files.

pub mod ir;
pub mod preprocess;
pub mod preserve;
pub mod typecheck;

use std::path::Path;

use crate::artifact::{display_path, read_text};
use crate::process::ir::ProcSpec;
use crate::source::SourceFile;

/// Reads the formula file `path` and type-checks it against `spec` (its data, actions and
/// globals).
pub fn read_formula(path: &Path, spec: &ProcSpec) -> miette::Result<ir::FormulaSpec> {
    let name = display_path(Some(path), "<stdin>");
    let src = SourceFile::new(name, read_text(Some(path))?);
    typecheck::check_formula(&src, spec).map_err(miette::Report::new)
}
