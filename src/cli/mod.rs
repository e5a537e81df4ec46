//! The command-line interface: argument parsing and dispatch to the stages.
//!
//! The CLI is thin: each subcommand lives in its own file with its `Args` and a `run`
//! function that reads inputs, calls the stage's public interface, and writes outputs.
//! Exit codes: 0 success, 1 an error in the input or its processing, 2 a usage error, 3 the
//! run was stopped by its budget (`--memory-limit`, `--timeout`, Ctrl-C) with what it had
//! found so far reported.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::lts::svg::Layout;

mod bessolve;
mod check;
mod cluster;
mod compat;
mod lps2lts;
mod lps2pbes;
mod lpsinfo;
mod lpspp;
mod lpssimplify;
mod lts2pbes;
mod ltscompare;
mod ltsconvert;
mod ltsinfo;
mod mcrl22lps;
mod parse;
mod pbes2bool;
mod pbesinfo;
mod pbesinst;
mod pbespp;
mod pbessolve;
mod report;
mod rewrite;
mod sim;
mod tracepp;
mod txt2pbes;

/// Options shared by every subcommand.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct Global {
    /// Print progress and statistics on standard error.
    #[arg(short, long, global = true, conflicts_with = "quiet")]
    pub verbose: bool,
    /// Print nothing but results and errors.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Stop cleanly when the process's resident memory reaches SIZE (e.g. 200M, 4G): the
    /// run ends with what it found so far and exit status 3. Default: 80% of the memory
    /// available when the run starts.
    #[arg(long, global = true, value_name = "SIZE", value_parser = crate::budget::parse_size)]
    pub memory_limit: Option<u64>,
    /// Stop cleanly after SECONDS of wall time (exit status 3, as for --memory-limit).
    #[arg(long, global = true, value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<u64>,
    /// Who lays out `.svg` pictures: `in-process` (no external program; up to 60 states) or
    /// `graphviz` (Graphviz's `dot -Tsvg`, which must be installed; up to 5,000 states).
    #[arg(long, global = true, value_enum, value_name = "HOW", default_value_t = Layout::InProcess)]
    pub layout: Layout,
}

fn parse_seconds(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("`{text}` is not a positive number of seconds")),
    }
}

/// Stack of the thread that runs a subcommand: type checking, linearisation and printing
/// recurse over the syntax tree, which is as deep as the input's nesting (mCRL2 accepts
/// 20,000 nested brackets). Only the pages used are ever committed.
const MAIN_STACK: usize = 2 << 30;

#[derive(Parser, Debug)]
#[command(
    name = "muon",
    version,
    about = "Check modal mu-calculus properties of mCRL2 specifications",
    long_about = "muon reads mCRL2 specifications (without time and probabilities) and modal \
                  mu-calculus formulas, and runs the mCRL2 pipeline: linearisation, state-space \
                  generation, PBES generation, instantiation and solving. Each stage is a \
                  subcommand named after the mCRL2 tool it replaces; `muon check` runs them all."
)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Parse and type-check a specification and, optionally, formulas against it.
    Parse(parse::Args),
    /// Linearise a specification into a linear process (LPS artifact).
    Mcrl22lps(mcrl22lps::Args),
    /// Eliminate sum variables that are fixed by equalities in their summand's condition.
    Lpssumelm(lpssimplify::Args),
    /// Replace process parameters that never change by their constant value.
    Lpsconstelm(lpssimplify::Args),
    /// Remove process parameters that influence no condition, action or other parameter.
    Lpsparelm(lpssimplify::Args),
    /// Print a linear process as a textual mCRL2 specification.
    Lpspp(lpspp::Args),
    /// Print facts about a linear process: parameters, summands, action labels.
    Lpsinfo(lpsinfo::Args),
    /// Generate the state space of a linear process.
    Lps2lts(lps2lts::Args),
    /// Print facts about a labelled transition system.
    Ltsinfo(ltsinfo::Args),
    /// Convert an LTS between formats, reducing it modulo an equivalence (-e).
    Ltsconvert(ltsconvert::Args),
    /// Decide whether two LTSs are equivalent (exit 0 yes, 1 no, 2 error).
    Ltscompare(ltscompare::Args),
    /// Translate a linear process and a formula into a PBES.
    Lps2pbes(lps2pbes::Args),
    /// Translate an explicit LTS and a formula into a PBES.
    Lts2pbes(lts2pbes::Args),
    /// Read a PBES in mCRL2's textual format.
    Txt2pbes(txt2pbes::Args),
    /// Print a PBES in mCRL2's textual format.
    Pbespp(pbespp::Args),
    /// Print facts about a PBES.
    Pbesinfo(pbesinfo::Args),
    /// Instantiate a PBES into a BES or parity game.
    Pbesinst(pbesinst::Args),
    /// Solve a PBES and print `true` or `false`.
    Pbes2bool(pbes2bool::Args),
    /// Solve a PBES with a parity-game solver, optionally with evidence.
    Pbessolve(pbessolve::Args),
    /// Solve a BES or parity game (PGSolver `.pg`, mCRL2 textual BES, or BES artifact).
    Bessolve(bessolve::Args),
    /// Rewrite closed data expressions to normal form.
    Rewrite(rewrite::Args),
    /// Run the whole pipeline: specification + formula to verdict.
    Check(check::Args),
    /// Print a saved trace (`lps2lts -t`, JSON, mCRL2's plain format) as text, JSON, DOT,
    /// mCRL2's plain or states format, or `.aut`.
    Tracepp(tracepp::Args),
    /// Simulate a specification or LPS by hand, as mCRL2's `lpssim`: on a terminal screen,
    /// or with `--script` from commands on standard input.
    #[command(alias = "lpssim", alias = "lpsxsim")]
    Sim(sim::Args),
}

/// mCRL2's tools take an optional value glued to a short option (`lps2lts -t5`); clap's
/// optional values need `=` (`-t=5`) so that `-t IN.lps` does not read the file name as
/// the value. Rewrite the glued form `-t<digits>` to `--trace=<digits>` before parsing.
fn mcrl2_style_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    args.into_iter()
        .map(|a| match a.to_str() {
            Some(s)
                if s.len() > 2
                    && s.starts_with("-t")
                    && s[2..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                format!("--trace={}", &s[2..]).into()
            }
            _ => a,
        })
        .collect()
}

impl Command {
    /// The tool's name (mCRL2's) and its `--timings` option.
    fn timings(&self) -> (&'static str, &compat::Timings) {
        match self {
            Command::Parse(a) => ("parse", &a.timings),
            Command::Mcrl22lps(a) => ("mcrl22lps", &a.common.timings),
            Command::Lpssumelm(a) => ("lpssumelm", &a.common.timings),
            Command::Lpsconstelm(a) => ("lpsconstelm", &a.common.timings),
            Command::Lpsparelm(a) => ("lpsparelm", &a.common.timings),
            Command::Lpspp(a) => ("lpspp", &a.timings),
            Command::Lpsinfo(a) => ("lpsinfo", &a.common.timings),
            Command::Lps2lts(a) => ("lps2lts", &a.common.timings),
            Command::Ltsinfo(a) => ("ltsinfo", &a.common.timings),
            Command::Ltsconvert(a) => ("ltsconvert", &a.common.timings),
            Command::Ltscompare(a) => ("ltscompare", &a.timings),
            Command::Lps2pbes(a) => ("lps2pbes", &a.common.timings),
            Command::Lts2pbes(a) => ("lts2pbes", &a.common.timings),
            Command::Txt2pbes(a) => ("txt2pbes", &a.common.timings),
            Command::Pbespp(a) => ("pbespp", &a.timings),
            Command::Pbesinfo(a) => ("pbesinfo", &a.common.timings),
            Command::Pbesinst(a) => ("pbesinst", &a.common.timings),
            Command::Pbes2bool(a) => ("pbes2bool", &a.common.timings),
            Command::Pbessolve(a) => ("pbessolve", &a.common.timings),
            Command::Bessolve(a) => ("bessolve", &a.timings),
            Command::Rewrite(a) => ("rewrite", &a.timings),
            Command::Check(a) => ("check", &a.timings),
            Command::Tracepp(a) => ("tracepp", &a.timings),
            Command::Sim(a) => ("lpssim", &a.common.timings),
        }
    }

    /// Judges mCRL2's options on this command line (`Err`: refused, one line printed, exit
    /// code 2).
    fn compat(&self, verbose: bool) -> Result<(), ExitCode> {
        use compat::ToolCompat;
        let (tool, common, own): (&str, &compat::Common, compat::Judge) = match self {
            Command::Mcrl22lps(a) => ("mcrl22lps", &a.common, &|v| a.compat.judge(v)),
            Command::Lpssumelm(a) => ("lpssumelm", &a.common, &|v| a.compat.judge(v)),
            Command::Lpsconstelm(a) => ("lpsconstelm", &a.common, &|v| a.compat.judge(v)),
            Command::Lpsparelm(a) => ("lpsparelm", &a.common, &|v| a.compat.judge(v)),
            Command::Lpsinfo(a) => ("lpsinfo", &a.common, &|_| {}),
            Command::Lps2lts(a) => ("lps2lts", &a.common, &|v| {
                a.compat.judge_with(a.outfile.as_deref(), v)
            }),
            Command::Ltsinfo(a) => ("ltsinfo", &a.common, &|_| {}),
            Command::Ltsconvert(a) => ("ltsconvert", &a.common, &|v| a.compat.judge(v)),
            Command::Lps2pbes(a) => ("lps2pbes", &a.common, &|v| a.compat.judge(v)),
            Command::Lts2pbes(a) => ("lts2pbes", &a.common, &|v| a.compat.judge(v)),
            Command::Txt2pbes(a) => ("txt2pbes", &a.common, &|_| {}),
            Command::Pbesinfo(a) => ("pbesinfo", &a.common, &|_| {}),
            Command::Pbesinst(a) => ("pbesinst", &a.common, &|v| a.compat.judge(v)),
            Command::Pbes2bool(a) => ("pbes2bool", &a.common, &|v| a.compat.judge(v)),
            Command::Pbessolve(a) => ("pbessolve", &a.common, &|v| a.compat.judge(v)),
            Command::Sim(a) => ("lpssim", &a.common, &|_| {}),
            Command::Tracepp(a) => {
                let mcrl2 = a.format == tracepp::FormatArg::Mcrl2;
                let none = compat::Common::default();
                return compat::apply("tracepp", &none, &|v| compat::tracepp(mcrl2, v), verbose);
            }
            _ => return Ok(()),
        };
        compat::apply(tool, common, own, verbose)
    }
}

/// Parses the command line, judges mCRL2's options, runs the subcommand on a thread with a
/// large stack under the run's budget, and maps errors to diagnostics and exit 1 (3 when the
/// budget stopped it).
pub fn main() -> ExitCode {
    install_report_handler();
    let args = mcrl2_style_args(std::env::args_os());
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e, &args),
    };
    let g = cli.global;
    if let Err(code) = cli.command.compat(g.verbose) {
        return code;
    }
    crate::lts::svg::set_layout(g.layout);
    crate::budget::install(
        g.memory_limit.or_else(crate::budget::default_memory_limit),
        g.timeout.map(std::time::Duration::from_secs),
    );
    let start = std::time::Instant::now();
    let user_start = crate::progress::user_seconds();
    // A scoped thread, so the judged options can still be read for `--timings` afterwards.
    let result = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("muon".into())
            .stack_size(MAIN_STACK)
            .spawn_scoped(scope, || dispatch(&cli))
            .map_err(|e| miette::miette!("cannot start the main thread: {e}"))
            .and_then(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    });
    if let Some(reason) = crate::budget::stop_requested() {
        if let Err(report) = &result {
            if !g.quiet {
                errln!("{report:?}");
            }
        }
        errln!(
            "muon: stopped: {} (peak memory {}); {}",
            reason.describe(),
            crate::budget::show_bytes(crate::budget::peak_memory()),
            reason.advice()
        );
        return ExitCode::from(crate::budget::EXIT_STOPPED);
    }
    // As mCRL2's tools, a run that ends in an error writes no timings.
    if result.is_ok() {
        let (tool, timings) = cli.command.timings();
        let total = crate::progress::StageTime {
            wall: start.elapsed().as_secs_f64(),
            user: crate::progress::user_seconds() - user_start,
        };
        if let Err(e) = timings.write(tool, total) {
            errln!("muon {tool}: cannot write the timings: {e}");
            return ExitCode::from(1);
        }
    }
    match result {
        Ok(code) => code,
        Err(report) => {
            errln!("{report:?}");
            ExitCode::from(1)
        }
    }
}

/// Installs miette's report handler. On a terminal it keeps its look, wrapped at the
/// terminal's width; to a pipe or a file each message stays on one line, since there the
/// width (80 when nobody chose one) would split messages, and the words scripts and tests
/// look for, wherever a long path happened to push them.
fn install_report_handler() {
    let wrap = std::io::IsTerminal::is_terminal(&std::io::stderr());
    // Fails only when a handler is installed already; that one is kept.
    let _ = miette::set_hook(Box::new(move |_| {
        Box::new(miette::MietteHandlerOpts::new().wrap_lines(wrap).build())
    }));
}

/// The subcommands named after mCRL2 tools whose errors all exit with status 1, as mCRL2's
/// do: a usage error (unknown option, missing argument) too. The others (`check`,
/// `ltscompare`, whose status 1 means "false", and muon's own `parse`, `rewrite`) give 2.
const MCRL2_EXIT_1: [&str; 19] = [
    "mcrl22lps",
    "lpssumelm",
    "lpsconstelm",
    "lpsparelm",
    "lpspp",
    "lpsinfo",
    "lps2lts",
    "ltsinfo",
    "ltsconvert",
    "lps2pbes",
    "lts2pbes",
    "txt2pbes",
    "pbespp",
    "pbesinfo",
    "pbesinst",
    "pbes2bool",
    "pbessolve",
    "bessolve",
    "tracepp",
];

/// Prints a command-line error (or the help or version asked for) and gives the exit status:
/// 0 for help and version, 1 for a usage error of a subcommand in [`MCRL2_EXIT_1`], else 2.
fn usage_error(e: &clap::Error, args: &[std::ffi::OsString]) -> ExitCode {
    use clap::error::ErrorKind;
    let _ = e.print();
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        return ExitCode::SUCCESS;
    }
    // The subcommand: the first argument that names one (global options and their values
    // may come first).
    let cmd = <Cli as clap::CommandFactory>::command();
    let tool = args
        .iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .find(|a| cmd.get_subcommands().any(|c| c.get_name() == *a));
    if tool.is_some_and(|t| MCRL2_EXIT_1.contains(&t)) {
        ExitCode::from(1)
    } else {
        ExitCode::from(2)
    }
}

fn dispatch(cli: &Cli) -> miette::Result<ExitCode> {
    let g = cli.global;
    match &cli.command {
        Command::Parse(a) => parse::run(a, g),
        Command::Mcrl22lps(a) => mcrl22lps::run(a, g),
        Command::Lpssumelm(a) => lpssimplify::run("lpssumelm", a, g),
        Command::Lpsconstelm(a) => lpssimplify::run("lpsconstelm", a, g),
        Command::Lpsparelm(a) => lpssimplify::run("lpsparelm", a, g),
        Command::Lpspp(a) => lpspp::run(a, g),
        Command::Lpsinfo(a) => lpsinfo::run(a, g),
        Command::Lps2lts(a) => lps2lts::run(a, g),
        Command::Ltsinfo(a) => ltsinfo::run(a, g),
        Command::Ltsconvert(a) => ltsconvert::run(a, g),
        Command::Ltscompare(a) => ltscompare::run(a, g),
        Command::Lps2pbes(a) => lps2pbes::run(a, g),
        Command::Lts2pbes(a) => lts2pbes::run(a, g),
        Command::Txt2pbes(a) => txt2pbes::run(a, g),
        Command::Pbespp(a) => pbespp::run(a, g),
        Command::Pbesinfo(a) => pbesinfo::run(a, g),
        Command::Pbesinst(a) => pbesinst::run(a, g),
        Command::Pbes2bool(a) => pbes2bool::run(a, g),
        Command::Pbessolve(a) => pbessolve::run(a, g),
        Command::Bessolve(a) => bessolve::run(a, g),
        Command::Rewrite(a) => rewrite::run(a, g),
        Command::Check(a) => check::run(a, g),
        Command::Tracepp(a) => tracepp::run(a, g),
        Command::Sim(a) => sim::run(a, g),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glued_trace_count_is_accepted() {
        let args = ["muon", "lps2lts", "-D", "-t5", "in.lps", "-t", "-tx"];
        let out = mcrl2_style_args(args.iter().map(std::ffi::OsString::from));
        let out: Vec<&str> = out.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            out,
            ["muon", "lps2lts", "-D", "--trace=5", "in.lps", "-t", "-tx"]
        );
        let cli = Cli::try_parse_from(mcrl2_style_args(
            ["muon", "lps2lts", "-D", "-t3", "in.lps"].map(std::ffi::OsString::from),
        ))
        .unwrap();
        match cli.command {
            Command::Lps2lts(a) => assert_eq!(a.trace, Some(3)),
            other => panic!("parsed as {other:?}"),
        }
    }
}
