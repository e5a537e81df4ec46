//! `muon rewrite`: normal forms of closed data expressions.

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;

/// Arguments of `muon rewrite`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A specification whose sorts, maps and equations are in scope.
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// Closed data expressions to rewrite.
    #[arg(required = true)]
    pub exprs: Vec<String>,
}

/// Runs `muon rewrite`.
pub fn run(_args: &Args, _g: Global) -> miette::Result<ExitCode> {
    super::not_implemented("rewrite")
}
