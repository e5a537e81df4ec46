//! `muon parse`: parse and type-check a specification and formulas.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;

/// Arguments of `muon parse`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The mCRL2 specification.
    pub spec: PathBuf,
    /// Formula files (`.mcf`) to type-check against the specification.
    #[arg(short = 'f', long = "formula")]
    pub formulas: Vec<PathBuf>,
}

/// Runs `muon parse`.
pub fn run(_args: &Args, _g: Global) -> miette::Result<ExitCode> {
    super::not_implemented("parse")
}
