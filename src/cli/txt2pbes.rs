//! `muon txt2pbes`: read a PBES in mCRL2's textual format, type-check it, and write the
//! PBES artifact.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;
use crate::artifact::{display_path, read_text};
use crate::pbes::typecheck::check_pbes;
use crate::source::SourceFile;

/// Arguments of `muon txt2pbes`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// Input file (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output file (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
}

/// Runs `muon txt2pbes`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let name = display_path(args.infile.as_deref(), "<stdin>");
    let src = SourceFile::new(name, read_text(args.infile.as_deref())?);
    let pbes = check_pbes(&src).map_err(miette::Report::new)?;
    let equations = pbes.equations.len();
    crate::pbes::io::write_pbes(pbes, None, args.outfile.as_deref())?;
    if g.verbose {
        errln!(
            "txt2pbes: {} equations written to {}",
            equations,
            display_path(args.outfile.as_deref(), "<stdout>")
        );
    }
    Ok(ExitCode::SUCCESS)
}
