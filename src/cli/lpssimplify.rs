//! `muon lpssumelm`, `muon lpsconstelm`, `muon lpsparelm`: the LPS simplifications.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;

/// Arguments shared by the LPS simplification subcommands.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input LPS (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output LPS (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
}

/// Runs the simplification named `name`.
pub fn run(name: &str, _args: &Args, _g: Global) -> miette::Result<ExitCode> {
    super::not_implemented(name)
}
