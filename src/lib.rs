//! muon: checks modal μ-calculus properties of mCRL2 process specifications.
//!
//! The crate is organised as one module per pipeline stage; see `ARCHITECTURE.md` for the
//! pipeline, the artifact types passed between stages, and the invariants each stage keeps.

// `unsafe` is denied everywhere but in the one prefetch hint of `lts::prefetch`, whose
// block proves itself sound.
#![deny(unsafe_code)]

pub mod artifact;
pub mod bes;
pub mod budget;
pub mod cli;
pub mod data;
pub mod evidence;
pub mod lps;
pub mod lts;
pub mod modal;
pub mod monitor;
pub mod pbes;
pub mod print;
pub mod process;
pub mod progress;
pub mod reduce;
pub mod source;
pub mod syntax;
