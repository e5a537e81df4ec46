//! `muon lps2pbes`: a linear process and a formula to a PBES artifact.

use crate::artifact::Artifact;
use crate::lps::Lps;
use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;
use crate::artifact::display_path;
use crate::modal::read_formula;
use crate::pbes::lps2pbes::{lps2pbes_with, Lps2PbesOptions};

/// Arguments of `muon lps2pbes`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// mCRL2's options of this tool that muon accepts as form hints or refuses.
    #[command(flatten)]
    pub compat: super::compat::Lps2pbes,
    /// The formula file (`.mcf`).
    #[arg(short = 'f', long = "formula")]
    pub formula: PathBuf,
    /// Input file (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output PBES (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
    /// Add the equations that `pbessolve --file` reads evidence from (as mCRL2's `-c`).
    #[arg(short = 'c', long = "counter-example")]
    pub counter_example: bool,
}

/// Runs `muon lps2pbes`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    // The PBES records which LPS file it came from (for `pbessolve --file`).
    let bytes = crate::artifact::read_bytes(args.infile.as_deref())?;
    let source = crate::artifact::identity(&bytes);
    let lps = Lps::decode_artifact(&bytes, &display_path(args.infile.as_deref(), "<stdin>"))?;
    let formula = read_formula(&args.formula, &lps.declarations())?;
    let t = std::time::Instant::now();
    let opts = Lps2PbesOptions {
        counter_example: args.counter_example,
    };
    let pbes = lps2pbes_with(&lps, &formula, opts)?;
    let equations = pbes.equations.len();
    crate::pbes::io::write_pbes(pbes, Some(source), args.outfile.as_deref())?;
    if g.verbose {
        errln!(
            "lps2pbes: {} equations written to {} in {:.3} s",
            equations,
            display_path(args.outfile.as_deref(), "<stdout>"),
            t.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
