//! `muon lps2lts`: generate the state space of a linear process.
//!
//! The options follow mCRL2's `lps2lts`. The exploration back end is
//! [`crate::lts::generate()`]; this file only turns the command line into
//! [`GenerateOptions`].

use crate::artifact::Artifact;
use crate::lps::Lps;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::Global;
use crate::lts::lps::LpsSystem;
use crate::lts::table::StoreKind;
use crate::lts::{generate, ExploreOptions, GenerateOptions, OutputFormat, Strategy};

/// Stack of the exploring threads: deep recursion in user equations needs it, and the
/// rewriter measures its own use against a limit below it (an error, never a crash).
const STACK: usize = 256 << 20;
/// `-t` without NUM: no limit on the number of traces (`usize::MAX`), as in mCRL2.
const NO_TRACE_LIMIT: &str = "18446744073709551615";

/// The exploration strategies of `--strategy`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrategyArg {
    /// Breadth-first (shortest traces; parallel).
    #[value(alias = "b")]
    Bfs,
    /// Depth-first (sequential).
    #[value(alias = "d")]
    Dfs,
    /// Highway search: per level at most --todo-max randomly chosen new states are explored.
    #[value(alias = "h")]
    Highway,
}

/// The state stores of `--state-store`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreArg {
    /// Tree compression of state vectors.
    Tree,
    /// Flat rows of parameter values.
    Table,
}

/// Arguments of `muon lps2lts`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// mCRL2's options of this tool that muon accepts as form hints or refuses.
    #[command(flatten)]
    pub compat: super::compat::Lps2lts,
    /// Input LPS (standard input when omitted or `-`).
    pub infile: Option<PathBuf>,
    /// Output LTS; the format follows the extension: `.aut` (Aldebaran), `.lts` (muon binary
    /// LTS), `.dot` (GraphViz),
    /// `.svg` (a picture), `.fsm` (mCRL2's FSM, with the state values). Without it only the state space's size is computed.
    pub outfile: Option<PathBuf>,
    /// Exploration strategy.
    #[arg(short, long, value_enum, default_value_t = StrategyArg::Bfs)]
    pub strategy: StrategyArg,
    /// With `--strategy highway`: the most states explored per level (default 10000).
    #[arg(long, value_name = "NUM")]
    pub todo_max: Option<usize>,
    /// With `--strategy highway`: the random seed (default 0).
    #[arg(long, value_name = "NUM")]
    pub seed: Option<u64>,
    /// Stop once NUM states are found (the output is the part found so far). As in mCRL2,
    /// the state being expanded at that moment is completed, so a few more may be found.
    #[arg(short = 'l', long = "max", value_name = "NUM")]
    pub max: Option<u64>,
    /// Report deadlock states (states without outgoing transitions).
    #[arg(short = 'D', long)]
    pub deadlock: bool,
    /// Report transitions with one of these actions (comma-separated names).
    #[arg(
        short = 'a',
        long = "action",
        value_name = "NAMES",
        value_delimiter = ','
    )]
    pub actions: Vec<String>,
    /// Write shortest traces to the deadlocks / detected actions to
    /// `<infile>_dlk_<n>.trc` and `<infile>_act_<n>_<action>.trc` (`m.lps_dlk_0.trc`, as
    /// mCRL2 names them): the initial state, then per step the multi-action and the
    /// parameters it changes. `muon tracepp` prints them in other formats. As in mCRL2,
    /// exploration stops once NUM traces of one kind are written; without NUM there is no
    /// limit.
    #[arg(short = 't', long = "trace", value_name = "NUM", num_args = 0..=1,
          default_missing_value = NO_TRACE_LIMIT, require_equals = true)]
    pub trace: Option<usize>,
    /// Worker threads (default: all cores); results do not depend on it.
    #[arg(long, value_name = "NUM", default_value_t = 0)]
    pub threads: usize,
    /// How states are stored: `tree` (tree compression, the default: little memory per
    /// state when states have many parameters) or `table` (flat rows). Results do not
    /// depend on it.
    #[arg(long, value_enum, value_name = "STORE", default_value_t = StoreArg::Tree)]
    pub state_store: StoreArg,
    /// When --memory-limit, --timeout or Ctrl-C stops the exploration, still write the part
    /// of the state space found so far (the output is otherwise not written).
    #[arg(long)]
    pub partial: bool,
    /// Write statistics (states, transitions, levels, seconds, peak memory) as JSON.
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,
    /// Where a distributed exploration runs.
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// Where a distributed exploration runs, or `None` for the one-process search.
pub fn cluster(args: &Args) -> miette::Result<Option<crate::distrib::Cluster>> {
    if !args.cluster.asked() {
        return args.cluster.cluster("lps2lts");
    }
    let refuse = |what: &str, help: &str| {
        Err(miette::miette!(
            code = "muon::lps2lts::cluster",
            help = help.to_string(),
            "{what}"
        ))
    };
    if args.threads != 0 {
        return refuse(
            "--threads is the one-process search; a distributed run has --workers",
            "use --workers NUM instead of --threads",
        );
    }
    if args.strategy != StrategyArg::Bfs {
        return refuse(
            "a distributed run searches breadth-first only",
            "drop --strategy, or run on one process",
        );
    }
    if let Some(out) = &args.outfile {
        if out.extension().and_then(|e| e.to_str()) == Some("fsm") {
            return refuse(
                "a distributed run does not gather the state values that .fsm lists",
                "write .aut or .lts, or run on one process",
            );
        }
    }
    let cluster = args.cluster.cluster("lps2lts")?;
    if cluster.as_ref().is_some_and(|c| c.hosts.len() > 1)
        && args.outfile.as_deref().is_some_and(|o| o == Path::new("-"))
    {
        return refuse(
            "a run on several processes cannot write the LTS to standard output",
            "name an output file",
        );
    }
    Ok(cluster)
}

/// The back-end options for `args` (validated: output format, option combinations).
pub fn options(args: &Args, g: Global) -> miette::Result<GenerateOptions> {
    if let Some(out) = &args.outfile {
        if out != Path::new("-") {
            OutputFormat::from_path(out)?;
        }
    }
    if args.trace.is_some() && !args.deadlock && args.actions.is_empty() {
        return Err(miette::miette!(
            code = "muon::lps2lts::trace",
            help = "add -D (deadlocks) or -a NAMES (actions) to say what to trace to",
            "--trace needs something to trace to"
        ));
    }
    if args.strategy != StrategyArg::Highway && (args.todo_max.is_some() || args.seed.is_some()) {
        return Err(miette::miette!(
            code = "muon::lps2lts::highway",
            help = "add --strategy highway, or drop --todo-max/--seed",
            "--todo-max and --seed only apply to highway search"
        ));
    }
    let strategy = match args.strategy {
        StrategyArg::Bfs => Strategy::Bfs,
        StrategyArg::Dfs => Strategy::Dfs,
        StrategyArg::Highway => Strategy::Highway {
            todo_max: args.todo_max.unwrap_or(10_000).max(1),
            seed: args.seed.unwrap_or(0),
        },
    };
    let trace_prefix = match &args.infile {
        // mCRL2 keeps the extension: `m.lps` gives `m.lps_dlk_0.trc`.
        Some(p) if p != Path::new("-") => p.clone(),
        _ => PathBuf::from("stdin"),
    };
    Ok(GenerateOptions {
        explore: ExploreOptions {
            strategy,
            max_states: args.max,
            threads: args.threads,
            reference_loop: false,
            detect_deadlocks: args.deadlock,
            detect_actions: args.actions.clone(),
            keep_parents: args.trace.is_some(),
            // Every hit that gets a trace file is kept.
            record_limit: args.trace.map_or(1000, |n| n.max(1000)),
            stop_after_reports: args
                .trace
                .filter(|&n| n > 0 && n != usize::MAX)
                .map(|n| n as u64),
            thread_stack: Some(STACK),
            store: match args.state_store {
                StoreArg::Tree => StoreKind::Tree,
                StoreArg::Table => StoreKind::Table,
            },
        },
        output: args.outfile.clone(),
        traces: args.trace,
        trace_prefix,
        stats_json: args.stats_json.clone(),
        verbose: g.verbose,
        quiet: g.quiet,
        partial: args.partial,
    })
}

/// Runs `muon lps2lts`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let opts = options(args, g)?;
    let cluster = cluster(args)?;
    crate::budget::allow_partial_output(args.partial);
    let lps = Lps::read_artifact(args.infile.as_deref())?;
    let no_output = args.outfile.is_none();
    if let Some(cluster) = cluster {
        return match crate::distrib::run_lps(std::sync::Arc::new(lps), &opts, &cluster, STACK)? {
            crate::distrib::Outcome::Lead(r) => {
                if no_output && !opts.quiet && !opts.verbose {
                    errln!("{}", summary_line(&r.summary));
                }
                Ok(ExitCode::SUCCESS)
            }
            crate::distrib::Outcome::Helper => Ok(ExitCode::SUCCESS),
        };
    }
    let work = move || -> miette::Result<ExitCode> {
        let store = crate::data::TermStore::new();
        let sys = LpsSystem::new(&lps, &store, Some(STACK - (64 << 20))).map_err(|e| {
            miette::miette!(code = "muon::lps2lts::lps", "cannot explore the LPS: {e}")
        })?;
        let mut log = std::io::stderr();
        let r = generate(&sys, &opts, &mut log)?;
        if no_output && !opts.quiet && !opts.verbose {
            errln!("{}", summary_line(&r.summary));
        }
        Ok(ExitCode::SUCCESS)
    };
    std::thread::Builder::new()
        .name("lps2lts".into())
        .stack_size(STACK)
        .spawn(work)
        .map_err(|e| miette::miette!("cannot start the exploring thread: {e}"))?
        .join()
        .unwrap_or_else(|_| {
            Err(miette::miette!(
                "internal error: the exploring thread panicked"
            ))
        })
}

/// The one line `lps2lts` prints without an output file.
fn summary_line(s: &crate::lts::ExploreSummary) -> String {
    format!(
        "lps2lts: {} states, {} transitions, {} levels{}",
        s.states,
        s.transitions,
        s.levels,
        if s.stopped_by.is_some() {
            " (incomplete: stopped)"
        } else if s.stopped_at_max {
            " (incomplete: --max reached)"
        } else if s.stopped_at_reports {
            " (incomplete: stopped after --trace=NUM traces)"
        } else {
            ""
        }
    )
}
