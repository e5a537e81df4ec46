//! `muon lpsinfo`: facts about a linear process.

use crate::artifact::Artifact;
use crate::lps::Lps;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::artifact::{write_output, ArtifactError};

use super::Global;

/// Arguments of `muon lpsinfo`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// Input LPS (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output file (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
}

/// Runs `muon lpsinfo`.
pub fn run(args: &Args, _g: Global) -> miette::Result<ExitCode> {
    let lps = Lps::read_artifact(args.infile.as_deref())?;
    let info = lps.info();
    let mut t = String::new();
    let _ = writeln!(t, "Number of summands                  : {}", info.summands);
    let _ = writeln!(
        t,
        "Number of tau-summands              : {}",
        info.tau_summands
    );
    let _ = writeln!(
        t,
        "Number of declared global variables : {}",
        lps.globals.len()
    );
    let _ = writeln!(t, "Number of process parameters        : {}", info.params);
    let _ = writeln!(
        t,
        "Number of declared action labels    : {}",
        info.action_labels
    );
    let _ = writeln!(
        t,
        "Number of used action labels        : {}",
        info.used_labels.len()
    );
    let _ = writeln!(t, "Process parameters:");
    for p in &lps.params {
        let _ = writeln!(
            t,
            "  {}: {}",
            p.name,
            crate::data::print::sort_to_string(&p.sort)
        );
    }
    let _ = writeln!(t, "Action labels used (summands):");
    for (n, c) in &info.used_labels {
        let _ = writeln!(t, "  {n} ({c})");
    }
    let name = crate::artifact::display_path(args.outfile.as_deref(), "<stdout>");
    write_output(args.outfile.as_deref(), |w| {
        w.write_all(t.as_bytes())
            .map_err(|source| ArtifactError::Write { path: name, source })
    })?;
    Ok(ExitCode::SUCCESS)
}
