//! `muon pbesinst`: instantiate a PBES into a BES (artifact, mCRL2 text, or PGSolver game).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use miette::miette;

use super::Global;
use crate::artifact::{display_path, write_output, Artifact, ArtifactError};
use crate::bes::{bes_to_game, write_bes_text, write_pg};
use crate::pbes::inst::instantiate;
use crate::pbes::inst::InstOptions;

/// Arguments of `muon pbesinst`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// mCRL2's options of this tool that muon accepts as form hints or refuses.
    #[command(flatten)]
    pub compat: super::compat::Pbesinst,
    /// Input PBES: artifact or mCRL2 text (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output: `.pg` writes a PGSolver parity game, `.bes`/`.txt` mCRL2's textual BES,
    /// anything else (or standard output) the BES artifact.
    pub outfile: Option<PathBuf>,
    /// Give up after this many BES variables (instantiation that does not terminate).
    #[arg(long = "max-vars", default_value_t = 100_000_000)]
    pub max_vars: usize,
}

/// The output format, from the file extension.
fn format_of(path: Option<&Path>) -> &'static str {
    match path.and_then(|p| p.extension()).and_then(|e| e.to_str()) {
        Some("pg" | "gm") => "pg",
        Some("bes" | "txt") => "text",
        _ => "artifact",
    }
}

/// Maps a write error on `out` to an artifact error.
fn io_err(out: Option<&Path>) -> impl Fn(std::io::Error) -> ArtifactError + '_ {
    move |source| ArtifactError::Write {
        path: display_path(out, "<stdout>"),
        source,
    }
}

/// Runs `muon pbesinst`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let pbes = crate::pbes::io::read_pbes(args.infile.as_deref())?;
    let opts = InstOptions {
        max_vars: args.max_vars,
        progress: crate::progress::Shown::from_flags(g.quiet, g.verbose),
        ..InstOptions::default()
    };
    let inst = instantiate(&pbes, &opts)?;
    let bes = inst
        .bes
        .ok_or_else(|| miette!("internal error: instantiation incomplete"))?;
    let out = args.outfile.as_deref();
    match format_of(out) {
        "pg" => write_output(out, |w| {
            write_pg(&bes_to_game(&bes), w).map_err(io_err(out))
        })?,
        "text" => write_output(out, |w| write_bes_text(&bes, w).map_err(io_err(out)))?,
        _ => bes.write_artifact(out)?,
    }
    if g.verbose {
        errln!(
            "pbesinst: {} BES variables ({} instances, {} auxiliary) in {:.3} s, written to {}",
            bes.num_vars(),
            inst.stats.instances,
            inst.stats.auxiliary,
            inst.stats.seconds,
            display_path(out, "<stdout>")
        );
    }
    Ok(ExitCode::SUCCESS)
}
