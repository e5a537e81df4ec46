//! Modal μ-calculus state formulas: the typed formula IR and its preprocessing
//! (regular modalities, negation normal form, monotonicity).

pub mod ir;
pub mod preprocess;
pub mod typecheck;
