//! `muon tracepp`: print a saved trace (`lps2lts -t`'s trace files, JSON traces, mCRL2's
//! plain traces) in another format, as mCRL2's `tracepp` does. The reading and printing are
//! [`crate::lts::trace`]'s.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::artifact::{display_path, read_bytes, write_output, ArtifactError};
use crate::lts::trace::{self, TraceFormat};

use super::Global;

/// The output formats of `--format`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatArg {
    /// Readable text: the initial state, then per step its multi-action and the parameters
    /// it changes (`n: 0 → 1`).
    Text,
    /// muon's trace file (the readable text behind a versioned header), as `lps2lts -t`
    /// writes it and `tracepp` reads it.
    Trace,
    /// JSON for tools (read back by `tracepp`).
    Json,
    /// mCRL2's plain format: one multi-action per line (mCRL2's tools read it).
    Plain,
    /// The state vectors between the actions, as mCRL2's `tracepp -fstates`.
    States,
    /// The path as an Aldebaran LTS.
    Aut,
    /// The path as a GraphViz digraph, states as node labels.
    Dot,
    /// mCRL2's binary trace format (refused: muon does not write it).
    Mcrl2,
    /// Nothing (only check that the trace reads).
    None,
}

/// Arguments of `muon tracepp`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's `--timings[=FILE]`.
    #[command(flatten)]
    pub timings: super::compat::Timings,
    /// The trace (standard input when omitted or `-`): a trace file of `lps2lts -t`, a JSON
    /// trace, or mCRL2's plain format (one multi-action per line).
    pub infile: Option<PathBuf>,
    /// Output file (standard output when omitted or `-`).
    pub outfile: Option<PathBuf>,
    /// The output format.
    #[arg(short = 'f', long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Text)]
    pub format: FormatArg,
}

/// Runs `muon tracepp`.
pub fn run(args: &Args, _g: Global) -> miette::Result<ExitCode> {
    let name = display_path(args.infile.as_deref(), "<stdin>");
    let bytes = read_bytes(args.infile.as_deref())?;
    let (t, heading) = trace::read(&bytes, &name)?;
    let format = match args.format {
        FormatArg::Text => TraceFormat::Text,
        FormatArg::Trace => TraceFormat::File,
        FormatArg::Json => TraceFormat::Json,
        FormatArg::Plain => TraceFormat::Plain,
        FormatArg::States => TraceFormat::States,
        FormatArg::Aut => TraceFormat::Aut,
        FormatArg::Dot => TraceFormat::Dot,
        // Refused before the run (`compat::tracepp`).
        FormatArg::Mcrl2 | FormatArg::None => return Ok(ExitCode::SUCCESS),
    };
    let what = heading.unwrap_or_else(|| "trace".to_string());
    let text = t.render(format, &what);
    let out = display_path(args.outfile.as_deref(), "<stdout>");
    write_output(args.outfile.as_deref(), |w| {
        w.write_all(text.as_bytes())
            .map_err(|source| ArtifactError::Write { path: out, source })
    })?;
    Ok(ExitCode::SUCCESS)
}
