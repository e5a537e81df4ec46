//! Parameterised Boolean equation systems: the typed PBES, `lps2pbes`, `lts2pbes`,
//! instantiation into a BES (`pbesinst`), and the textual PBES format.

pub mod ir;
pub mod typecheck;
