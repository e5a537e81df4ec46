//! `muon pbespp`: print a PBES (artifact or textual) in mCRL2's textual format.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;
use crate::artifact::{display_path, write_output, ArtifactError};
use crate::pbes::io::read_pbes;
use crate::print::pbes_to_string;

/// Arguments of `muon pbespp`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's `--timings[=FILE]`.
    #[command(flatten)]
    pub timings: super::compat::Timings,
    /// Input file (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output file (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
}

/// Runs `muon pbespp`.
pub fn run(args: &Args, _g: Global) -> miette::Result<ExitCode> {
    let pbes = read_pbes(args.infile.as_deref())?;
    let text = pbes_to_string(&pbes);
    let name = display_path(args.outfile.as_deref(), "<stdout>");
    write_output(args.outfile.as_deref(), |w| {
        w.write_all(text.as_bytes())
            .map_err(|source| ArtifactError::Write { path: name, source })
    })?;
    Ok(ExitCode::SUCCESS)
}
