//! `muon lpssumelm`, `muon lpsconstelm`, `muon lpsparelm`: the LPS simplifications.

use crate::artifact::Artifact;
use crate::lps::Lps;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::data::ir_ops::SyntacticSimplifier;
use crate::lps::simplify;

use super::Global;

/// Arguments shared by the LPS simplification subcommands.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// mCRL2's options of this tool that muon accepts as form hints or refuses.
    #[command(flatten)]
    pub compat: super::compat::Simplify,
    /// Input LPS (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output LPS (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
}

/// Runs the simplification named `name` (`lpssumelm`, `lpsconstelm` or `lpsparelm`).
pub fn run(name: &str, args: &Args, g: Global) -> miette::Result<ExitCode> {
    let mut lps = Lps::read_artifact(args.infile.as_deref())?;
    let simp = SyntacticSimplifier::new(&lps.data);
    let before = (lps.params.len(), lps.summands.len());
    let what = match name {
        "lpssumelm" => format!(
            "eliminated {} sum variables",
            simplify::sumelm(&mut lps, &simp)
        ),
        "lpsconstelm" => {
            let r = simplify::constelm(&mut lps, &simp);
            format!("removed {} constant parameters", r.len())
        }
        "lpsparelm" => {
            let r = simplify::parelm(&mut lps);
            format!("removed {} parameters", r.len())
        }
        other => unreachable!("unknown simplification {other}"),
    };
    if g.verbose {
        errln!(
            "{name}: {what}; parameters {} -> {}, summands {} -> {}",
            before.0,
            lps.params.len(),
            before.1,
            lps.summands.len()
        );
    }
    lps.write_artifact(args.outfile.as_deref())?;
    Ok(ExitCode::SUCCESS)
}
