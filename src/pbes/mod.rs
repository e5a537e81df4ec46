//! Parameterised Boolean equation systems: the typed PBES, `lps2pbes`, `lts2pbes`,
//! instantiation into a BES (`pbesinst`), and the textual PBES format.
//!
//! # Public API
//! - [`lps2pbes::lps2pbes`]: LPS + formula → [`ir::Pbes`] (mCRL2's standard translation);
//!   process parameters are the last parameters of every equation.
//! - [`lts2pbes::lts2pbes`]: explicit LTS + formula → PBES with one equation per fixpoint
//!   and state.
//! - [`matching`]: `sat` of action formulas on multi-actions, PBES expression builders.

pub mod front;
mod graph;
pub mod inst;
pub mod ir;
pub mod lps2pbes;
pub mod lts2pbes;
pub mod matching;
pub mod solve;
pub mod tinst;
pub mod typecheck;
