//! `muon lps2pbes`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;

/// Arguments of `muon lps2pbes`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The formula file (`.mcf`).
    #[arg(short = 'f', long = "formula")]
    pub formula: PathBuf,
    /// Input file (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output PBES (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
}

/// Runs `muon lps2pbes`.
pub fn run(_args: &Args, _g: Global) -> miette::Result<ExitCode> {
    super::not_implemented("lps2pbes")
}
