//! `muon ltsinfo`: facts about an LTS (`.aut` or the binary `.lts` artifact).

use std::path::PathBuf;
use std::process::ExitCode;

use super::Global;
use crate::artifact::{display_path, write_output, ArtifactError};
use crate::lts::Lts;

/// Arguments of `muon ltsinfo`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// Input LTS: `.aut` or `.lts` (standard input when omitted or `-`; the format is then
    /// recognised from the content).
    pub infile: Option<PathBuf>,
    /// Output file for the report (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
    /// Also list every action label with the number of transitions it labels.
    #[arg(short = 'l', long)]
    pub labels: bool,
}

/// Runs `muon ltsinfo`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let lts = Lts::read_file(args.infile.as_deref())?;
    let deadlocks = lts.deadlock_states();
    let mut text = String::new();
    use std::fmt::Write as _;
    let _ = writeln!(text, "Number of states: {}", lts.num_states);
    let _ = writeln!(text, "Number of transitions: {}", lts.transitions.len());
    let _ = writeln!(text, "Number of action labels: {}", lts.labels.len());
    let _ = writeln!(text, "Initial state: {}", lts.initial);
    let _ = write!(text, "Number of deadlock states: {}", deadlocks.len());
    if !deadlocks.is_empty() {
        let shown: Vec<String> = deadlocks.iter().take(10).map(|s| s.to_string()).collect();
        let more = if deadlocks.len() > 10 { ", ..." } else { "" };
        let _ = write!(text, " ({}{more})", shown.join(", "));
    }
    text.push('\n');
    if args.labels || g.verbose {
        let counts = lts.label_counts();
        let _ = writeln!(text, "Action labels (transitions):");
        for (l, c) in lts.labels.iter().zip(counts) {
            let _ = writeln!(text, "  {} ({c})", l.text());
        }
    }
    let name = display_path(args.outfile.as_deref(), "<stdout>");
    write_output(args.outfile.as_deref(), |w| {
        w.write_all(text.as_bytes())
            .map_err(|source| ArtifactError::Write { path: name, source })
    })?;
    Ok(ExitCode::SUCCESS)
}
