//! Parameterised Boolean equation systems: the typed PBES, `lps2pbes`, `lts2pbes`,
//! instantiation into a BES (`pbesinst`), and the textual PBES format.
//!
//! # Public API
//! - [`lps2pbes::lps2pbes`]: LPS + formula → [`ir::Pbes`] (mCRL2's standard translation);
//!   process parameters are the last parameters of every equation.
//! - [`lts2pbes::lts2pbes`]: explicit LTS + formula → PBES with one equation per fixpoint
//!   and state.
//! - [`matching`]: `sat` of action formulas on multi-actions, PBES expression builders.
//! - [`tinst::instantiate_terms`]: instantiation into a BES on the data engine's terms (the
//!   engine the tools use); [`inst::instantiate`]: the same algorithm on the typed IR with
//!   any [`inst::InstData`] (cross-checking, tests). Both: one-point rule, miniscoping,
//!   finite-sort and guarded enumeration, `--max-vars` bound, constant propagation with an
//!   optional stop when the initial variable is decided, origins of BES variables.
//! - [`solve::solve_pbes`]: instantiate + Zielonka (with strategies) or Gauss.
//! - [`front`]: formulas against an LPS, typing `.aut` labels, PBES artifact output.
//! - Evidence from a solved game of a `lps2pbes -c` PBES: [`crate::evidence::read`].

pub mod front;
mod graph;
pub mod inst;
pub mod io;
pub mod ir;
pub mod lps2pbes;
pub mod lts2pbes;
pub mod matching;
pub mod solve;
pub mod tinst;
pub mod typecheck;
