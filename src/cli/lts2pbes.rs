//! `muon lts2pbes`: an explicit LTS and a formula to a PBES artifact.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;
use crate::artifact::display_path;
use crate::lts::Lts;
use crate::modal::read_formula;
use crate::pbes::lts2pbes::lts2pbes_with;

/// Arguments of `muon lts2pbes`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// mCRL2's options of this tool that muon accepts as form hints or refuses.
    #[command(flatten)]
    pub compat: super::compat::Lts2pbes,
    /// The formula file (`.mcf`).
    #[arg(short = 'f', long = "formula")]
    pub formula: PathBuf,
    /// The mCRL2 specification the LTS came from (declares the actions and data of labels).
    #[arg(
        short = 'm',
        long = "spec",
        visible_alias = "mcrl2",
        conflicts_with = "lps"
    )]
    pub spec: Option<PathBuf>,
    /// The LPS the LTS came from (declares the actions and data of labels).
    #[arg(short = 'l', long = "lps")]
    pub lps: Option<PathBuf>,
    /// Input LTS (`.aut` or LTS artifact; standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output PBES (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
}

/// Runs `muon lts2pbes`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let lts = Lts::read_file(args.infile.as_deref())?;
    let spec = crate::check::lts_declarations(args.spec.as_deref(), args.lps.as_deref(), &lts)?;
    let formula = read_formula(&args.formula, &spec)?;
    let t = std::time::Instant::now();
    let labels = crate::lts::typed::typed_labels(&lts, &spec)?;
    let pbes = lts2pbes_with(
        &lts,
        &labels,
        &spec.data,
        &formula,
        args.compat.counter_example,
    )?;
    // The PBES records which LTS file it came from (not known for standard input).
    let source = match args.infile.as_deref() {
        Some(p) if p != std::path::Path::new("-") => {
            std::fs::read(p).ok().map(|b| crate::artifact::identity(&b))
        }
        _ => None,
    };
    let equations = pbes.equations.len();
    crate::pbes::io::write_pbes(pbes, source, args.outfile.as_deref())?;
    if g.verbose {
        errln!(
            "lts2pbes: {} equations written to {} in {:.3} s",
            equations,
            display_path(args.outfile.as_deref(), "<stdout>"),
            t.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
