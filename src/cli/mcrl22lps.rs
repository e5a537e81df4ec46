//! `muon mcrl22lps`: linearise a specification into an LPS artifact.

use crate::artifact::Artifact;
use std::path::PathBuf;
use std::process::ExitCode;

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

use super::Global;
use crate::artifact::{display_path, read_text};
use crate::lps::{linearise, LinError, LineariseOptions};
use crate::process::typecheck::check_specification;
use crate::source::SourceFile;

/// Arguments of `muon mcrl22lps`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// mCRL2's options of this tool that muon accepts as form hints or refuses.
    #[command(flatten)]
    pub compat: super::compat::Mcrl22lps,
    /// Input specification (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output LPS (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
    /// Skip sumelm and constelm on the result.
    #[arg(long = "no-simplify")]
    pub no_simplify: bool,
}

/// A linearisation error located in its source file.
#[derive(Debug, Error, Diagnostic)]
#[error("{file}: cannot linearise")]
struct Located {
    file: String,
    #[diagnostic_source]
    error: LinError,
    #[source_code]
    src: crate::source::WindowedSource,
    #[label("here")]
    at: SourceSpan,
}

/// Runs `muon mcrl22lps`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let name = display_path(args.infile.as_deref(), "<stdin>");
    let src = SourceFile::new(name.clone(), read_text(args.infile.as_deref())?);
    let spec = check_specification(&src).map_err(miette::Report::new)?;
    let t = std::time::Instant::now();
    let opts = LineariseOptions {
        simplify: !args.no_simplify,
    };
    let lps = linearise(&spec, opts).map_err(|error| {
        let at = error.span().into();
        Located {
            file: name.clone(),
            error,
            src: src.named_source(),
            at,
        }
    })?;
    if g.verbose {
        errln!(
            "mcrl22lps: {} summands, {} parameters, {:.2?}",
            lps.summands.len(),
            lps.params.len(),
            t.elapsed()
        );
    }
    lps.write_artifact(args.outfile.as_deref())?;
    Ok(ExitCode::SUCCESS)
}
