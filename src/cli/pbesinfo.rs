//! `muon pbesinfo`: facts about a PBES (artifact or textual).

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;
use crate::artifact::{display_path, write_output, ArtifactError};
use crate::data::print::sort_to_string;
use crate::pbes::ir::{Fixpoint, Pbes};

/// Arguments of `muon pbesinfo`.
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

/// The report `pbesinfo` prints.
pub fn info(pbes: &Pbes) -> String {
    let mus = pbes
        .equations
        .iter()
        .filter(|e| e.fixpoint == Fixpoint::Mu)
        .count();
    let nus = pbes.equations.len() - mus;
    // Alternation blocks: maximal runs of equations with the same fixpoint symbol.
    let blocks = pbes
        .equations
        .windows(2)
        .filter(|w| w[0].fixpoint != w[1].fixpoint)
        .count()
        + usize::from(!pbes.equations.is_empty());
    let mut s = String::new();
    s.push_str(&format!(
        "Number of equations:     {}\n",
        pbes.equations.len()
    ));
    s.push_str(&format!("Number of mu's:          {mus}\n"));
    s.push_str(&format!("Number of nu's:          {nus}\n"));
    s.push_str(&format!("Block nesting depth:     {blocks}\n"));
    s.push_str(&format!(
        "Global variables:        {}\n",
        if pbes.globals.is_empty() {
            "none".to_string()
        } else {
            pbes.globals
                .iter()
                .map(|v| format!("{}: {}", v.name, sort_to_string(&v.sort)))
                .collect::<Vec<_>>()
                .join(", ")
        }
    ));
    s.push_str(&format!("Initial variable:        {}\n", pbes.init.name));
    s.push_str("Equations:\n");
    for e in &pbes.equations {
        let params: Vec<String> = e
            .var
            .params
            .iter()
            .map(|v| format!("{}: {}", v.name, sort_to_string(&v.sort)))
            .collect();
        let fp = match e.fixpoint {
            Fixpoint::Mu => "mu",
            Fixpoint::Nu => "nu",
        };
        if params.is_empty() {
            s.push_str(&format!("  {fp} {}\n", e.var.name));
        } else {
            s.push_str(&format!("  {fp} {}({})\n", e.var.name, params.join(", ")));
        }
    }
    s
}

/// Runs `muon pbesinfo`.
pub fn run(args: &Args, _g: Global) -> miette::Result<ExitCode> {
    let pbes = crate::pbes::io::read_pbes(args.infile.as_deref())?;
    let text = info(&pbes);
    let name = display_path(args.outfile.as_deref(), "<stdout>");
    write_output(args.outfile.as_deref(), |w| {
        w.write_all(text.as_bytes())
            .map_err(|source| ArtifactError::Write { path: name, source })
    })?;
    Ok(ExitCode::SUCCESS)
}
