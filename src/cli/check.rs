//! `muon check`: the whole pipeline in one process.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;

/// Arguments of `muon check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The mCRL2 specification.
    pub spec: PathBuf,
    /// The formula files (`.mcf`) to check.
    #[arg(short = 'f', long = "formula", required = true)]
    pub formulas: Vec<PathBuf>,
}

/// Runs `muon check`.
pub fn run(_args: &Args, _g: Global) -> miette::Result<ExitCode> {
    super::not_implemented("check")
}
