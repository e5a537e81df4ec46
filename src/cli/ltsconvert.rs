//! `muon ltsconvert`: convert an LTS between formats and reduce it modulo an equivalence.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use super::Global;
use crate::artifact::{display_path, write_output, ArtifactError};
use crate::lts::generate::write_lts;
use crate::lts::{aut, Lts, OutputFormat};
use crate::progress::{time_stage, Meter, Shown};
use crate::reduce::{self, Equivalence, ReduceError, ReduceOptions};

/// The equivalences of `-e`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EqArg {
    /// No reduction: only convert the format.
    None,
    /// Strong bisimulation.
    Bisim,
    /// Branching bisimulation.
    BranchingBisim,
    /// Divergence-preserving branching bisimulation.
    DpbranchingBisim,
    /// Trace equivalence (tau is an ordinary action).
    Trace,
    /// Weak trace equivalence (traces of visible actions).
    WeakTrace,
    /// Weak bisimulation.
    WeakBisim,
    /// Strong simulation equivalence (tau is an ordinary action).
    Sim,
    /// Tau-star reduction (`ltsconvert` only): tau-steps removed, `s -a-> t` added for every
    /// `s -tau+-> -a-> t`, then strong bisimulation; preserves weak traces.
    TauStar,
}

impl EqArg {
    /// The equivalence, or `None` for no reduction and for `tau-star` (a reduction, not an
    /// equivalence).
    pub fn equivalence(self) -> Option<Equivalence> {
        match self {
            EqArg::None | EqArg::TauStar => None,
            EqArg::WeakBisim => Some(Equivalence::WeakBisim),
            EqArg::Sim => Some(Equivalence::Sim),
            EqArg::Bisim => Some(Equivalence::Bisim),
            EqArg::BranchingBisim => Some(Equivalence::BranchingBisim),
            EqArg::DpbranchingBisim => Some(Equivalence::DpBranchingBisim),
            EqArg::Trace => Some(Equivalence::Trace),
            EqArg::WeakTrace => Some(Equivalence::WeakTrace),
        }
    }
}

/// Arguments of `muon ltsconvert`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// mCRL2's options of this tool that muon accepts as form hints or refuses.
    #[command(flatten)]
    pub compat: super::compat::Ltsconvert,
    /// Input LTS: `.aut` or `.lts` (standard input when omitted or `-`; the format is then
    /// recognised from the content).
    pub infile: Option<PathBuf>,
    /// Output LTS; the format follows the extension: `.aut`, `.lts` (muon binary LTS),
    /// `.dot`, `.svg` (small LTSs). `.aut` on standard output when omitted or `-`.
    pub outfile: Option<PathBuf>,
    /// Reduce modulo this equivalence.
    #[arg(short = 'e', long = "equivalence", value_enum, default_value_t = EqArg::None)]
    pub equivalence: EqArg,
    /// Treat the actions with these names as internal (tau), comma-separated.
    #[arg(long = "tau", value_name = "ACTNAMES", value_delimiter = ',')]
    pub tau: Vec<String>,
    /// Keep the states that are not reachable from the initial state (by default they are
    /// removed before anything else).
    #[arg(long)]
    pub no_reach: bool,
    /// With `trace` or `weak-trace`: the most states determinisation may build (by default as
    /// many as state numbers allow: --memory-limit is what bounds it).
    #[arg(long, value_name = "NUM", default_value_t = ReduceOptions::default().max_subsets)]
    pub max_states: u64,
}

/// Writes `lts` to `path` in the format of its extension, or as `.aut` on standard output.
pub fn write_any(lts: &Lts, path: Option<&Path>) -> miette::Result<()> {
    match path {
        Some(p) if p != Path::new("-") => Ok(write_lts(lts, p)?),
        _ => {
            let name = display_path(None, "<stdout>");
            Ok(write_output(None, |w| {
                aut::write_aut(lts, w).map_err(|source| ArtifactError::Write { path: name, source })
            })?)
        }
    }
}

/// Runs `muon ltsconvert`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    if let Some(out) = &args.outfile {
        if out != Path::new("-") {
            OutputFormat::from_path(out)?;
        }
    }
    let started = Instant::now();
    let input = Lts::read_file(args.infile.as_deref())?;
    let input = reduce::hide_actions(input, &args.tau);
    let input = if args.no_reach {
        input
    } else {
        let _timer = time_stage("reachability check");
        reduce::reachable_part(input)
    };
    let (states, transitions, labels) = (
        input.num_states,
        input.transitions.len(),
        input.labels.len(),
    );
    let read = started.elapsed();
    let timer = time_stage("reduction");
    let mut meter = Meter::new("reduction", Shown::from_flags(g.quiet, g.verbose));
    let output = match args.equivalence.equivalence() {
        None if args.equivalence == EqArg::TauStar => {
            reduce::weak::tau_star_reduce_watched(&input, &mut meter).map_err(ReduceError::from)?
        }
        None => input,
        Some(eq) => {
            let opts = ReduceOptions {
                max_subsets: args.max_states,
            };
            reduce::reduce_watched(&input, eq, &opts, &mut meter)?
        }
    };
    meter.finish();
    drop(timer);
    let reduced = started.elapsed();
    write_any(&output, args.outfile.as_deref())?;
    if g.verbose {
        errln!(
            "ltsconvert: read {} states, {} transitions, {} labels in {:.3} s",
            states,
            transitions,
            labels,
            read.as_secs_f64()
        );
        if let Some(eq) = args.equivalence.equivalence() {
            errln!(
                "ltsconvert: reduced modulo {}: {} blocks (states), {} transitions in {:.3} s",
                eq.name(),
                output.num_states,
                output.transitions.len(),
                (reduced - read).as_secs_f64()
            );
        }
        errln!("ltsconvert: total {:.3} s", started.elapsed().as_secs_f64());
    }
    Ok(ExitCode::SUCCESS)
}
