//! `muon lpspp`.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;

/// Arguments of `muon lpspp`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Input file (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output file (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
}

/// Runs `muon lpspp`.
pub fn run(_args: &Args, _g: Global) -> miette::Result<ExitCode> {
    super::not_implemented("lpspp")
}
