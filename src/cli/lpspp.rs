//! `muon lpspp`: print a linear process as an mCRL2 specification.

use crate::artifact::Artifact;
use crate::lps::Lps;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::artifact::{write_output, ArtifactError};

use super::Global;

/// Arguments of `muon lpspp`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's `--timings[=FILE]`.
    #[command(flatten)]
    pub timings: super::compat::Timings,
    /// Input LPS (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output file (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
}

/// Runs `muon lpspp`.
pub fn run(args: &Args, _g: Global) -> miette::Result<ExitCode> {
    let lps = Lps::read_artifact(args.infile.as_deref())?;
    let text = crate::print::lps_to_string(&lps);
    let name = crate::artifact::display_path(args.outfile.as_deref(), "<stdout>");
    write_output(args.outfile.as_deref(), |w| {
        w.write_all(text.as_bytes())
            .map_err(|source| ArtifactError::Write { path: name, source })
    })?;
    Ok(ExitCode::SUCCESS)
}
