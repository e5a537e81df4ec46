//! Parameterised Boolean equation systems: the typed PBES, `lps2pbes`, `lts2pbes`,
//! instantiation into a BES (`pbesinst`), and the textual PBES format.
//!
//! # Public API
//! - [`lps2pbes::lps2pbes`]: LPS + formula → [`ir::Pbes`] (mCRL2's standard translation);
//!   process parameters are the last parameters of every equation.
//! - [`lts2pbes::lts2pbes`]: explicit LTS + formula → PBES with one equation per fixpoint
//!   and state.
//! - [`matching`]: `sat` of action formulas on multi-actions, PBES expression builders.
//! - [`inst::instantiate`]: instantiation into a BES on the data engine's terms (one-point
//!   rule, miniscoping, distribution, finite-sort and guarded enumeration, `--max-vars`
//!   bound, constant propagation with an optional stop when the initial variable is decided,
//!   origins of BES variables); [`inst::naive::solve`]: the small reference it is
//!   property-tested against.
//! - [`solve::solve_pbes`]: instantiate + Zielonka (with strategies) or Gauss.
//! - [`io`]: the PBES artifact and the reader of PBES files (artifact or mCRL2 text).
//! - Evidence from a solved game of a `lps2pbes -c` PBES: [`crate::evidence::read`].

mod graph;
pub mod inst;
pub mod io;
pub mod ir;
pub mod lps2pbes;
pub mod lts2pbes;
pub mod matching;
pub mod solve;
pub mod typecheck;
