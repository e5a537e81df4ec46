//! The `lps2lts` back end over any [`TransitionSystem`]: exploration, output in the format
//! named by the file extension, deadlock/action reports, trace files, statistics, progress.
//!
//! Trace files (`-t`) are muon's readable trace files ([`super::trace`]): the initial state
//! with every parameter by name, then one line per step with its multi-action and the
//! parameters it changes; `muon tracepp` reads them back. They are named as mCRL2 names
//! them: `<prefix>_dlk_<n>.trc` for the `n`-th deadlock and `<prefix>_act_<n>_<action>.trc`
//! for the `n`-th detected action, where `<prefix>` is the input file's path (`m.lps` gives
//! `m.lps_dlk_0.trc`).

use std::fs::File;
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};

use miette::Diagnostic;
use thiserror::Error;

use super::explore::{ExploreOptions, ExploreSummary, Explorer, Strategy, TransitionSink};
use super::table::StoreKind;
use super::trace::{Trace, TraceFormat, TraceStep};
use super::{aut, dot, fsm, svg, Label, LabelId, Lts, StateId, Transition, TransitionSystem};
use crate::artifact::{display_path, write_output, write_report, Artifact, ArtifactError};

/// The LTS file formats muon writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// Aldebaran text (`.aut`).
    Aut,
    /// muon's binary LTS artifact (`.lts`).
    Lts,
    /// GraphViz (`.dot`).
    Dot,
    /// A picture (`.svg`), laid out in-process ([`super::svg`]).
    Svg,
    /// mCRL2's FSM format with the state values (`.fsm`, [`super::fsm`]).
    Fsm,
}

impl OutputFormat {
    /// The format named by a file's extension.
    pub fn from_path(path: &Path) -> Result<OutputFormat, GenerateError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("aut") => Ok(OutputFormat::Aut),
            Some("lts") => Ok(OutputFormat::Lts),
            Some("dot") => Ok(OutputFormat::Dot),
            Some("svg") => Ok(OutputFormat::Svg),
            Some("fsm") => Ok(OutputFormat::Fsm),
            _ => Err(GenerateError::UnknownFormat {
                path: path.display().to_string(),
            }),
        }
    }
}

/// What can go wrong generating a state space.
#[derive(Debug, Error, Diagnostic)]
pub enum GenerateError {
    /// Exploration failed (the message names the state being explored).
    #[error("state-space generation failed: {0}")]
    #[diagnostic(code(muon::lps2lts::explore))]
    Explore(String),
    /// The LTS is too large to draw.
    #[error(transparent)]
    #[diagnostic(code(muon::lps2lts::svg))]
    Svg(#[from] svg::SvgError),
    /// The output file name has no known LTS extension.
    #[error("{path}: cannot tell the output format from the file name")]
    #[diagnostic(
        code(muon::lps2lts::format),
        help("name the output file with .aut (Aldebaran text), .lts (muon binary LTS), .dot (GraphViz) or .svg (a picture)")
    )]
    UnknownFormat {
        /// The output file.
        path: String,
    },
    /// Writing an output failed.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Artifact(#[from] ArtifactError),
    /// The temporary file for the `.aut` body failed.
    #[error("cannot buffer the transitions in a temporary file: {0}")]
    #[diagnostic(
        code(muon::lps2lts::tempfile),
        help("check that the output directory is writable and has free space")
    )]
    Temp(#[source] io::Error),
}

/// Options of [`generate()`].
#[derive(Clone, Debug, Default)]
pub struct GenerateOptions {
    /// Exploration options.
    pub explore: ExploreOptions,
    /// The output file (format from its extension); `None` writes nothing.
    pub output: Option<PathBuf>,
    /// Write up to this many trace files to deadlocks and as many to detected actions
    /// (`-t[N]`; `usize::MAX` for no limit). The exploration stops once either count is
    /// reached: set [`ExploreOptions::stop_after_reports`] to the same number.
    pub traces: Option<usize>,
    /// The path prefix of trace files (the input file's path, as mCRL2 names them).
    pub trace_prefix: PathBuf,
    /// Write statistics as JSON to this file.
    pub stats_json: Option<PathBuf>,
    /// Print progress about once a second and a summary at the end.
    pub verbose: bool,
    /// Print nothing but errors.
    pub quiet: bool,
    /// When the run's budget stops exploration (memory limit, timeout, Ctrl-C), still write
    /// the part found so far; otherwise nothing is written.
    pub partial: bool,
}

/// The outcome of [`generate()`].
#[derive(Clone, Debug)]
pub struct GenerateReport {
    /// The explorer's summary.
    pub summary: ExploreSummary,
    /// Number of distinct labels.
    pub labels: usize,
    /// Trace files written.
    pub traces: Vec<PathBuf>,
    /// Peak resident memory (VmHWM) in KiB, where the OS reports it.
    pub peak_memory_kib: Option<u64>,
    /// Resident memory (VmRSS) in KiB just before exploration, where the OS reports it:
    /// `peak - baseline` is what the exploration itself needed.
    pub baseline_memory_kib: Option<u64>,
    /// CPU seconds (user + system) of the whole process at the end, where the OS reports it.
    pub cpu_seconds: Option<f64>,
}

/// Reads a `kB` field of `/proc/self/status` (Linux); `None` elsewhere.
pub fn proc_status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|l| {
        let rest = l.strip_prefix(field)?.strip_prefix(':')?;
        rest.trim().trim_end_matches("kB").trim().parse().ok()
    })
}

/// User + system CPU seconds of this process so far (Linux `/proc/self/stat`, whose clock
/// ticks are always 1/100 s); `None` elsewhere.
pub fn proc_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// Streams `.aut` transition lines to an anonymous temporary file (the header, which needs
/// the final counts, is written in front when exploration ends).
struct AutBody {
    file: File,
    buf: Vec<u8>,
    labels: Vec<String>,
}

impl TransitionSink for AutBody {
    fn new_label(&mut self, _id: LabelId, label: &Label) -> io::Result<()> {
        self.labels.push(label.text().to_string());
        Ok(())
    }
    fn transition(&mut self, t: Transition) -> io::Result<()> {
        aut::push_transition(&mut self.buf, t.from, &self.labels[t.label.index()], t.to);
        if self.buf.len() >= 1 << 18 {
            self.file.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

/// Writes an in-memory LTS to `path` in the format of its extension (atomically).
pub fn write_lts(lts: &Lts, path: &Path) -> Result<(), GenerateError> {
    write_lts_with(lts, None, path)
}

/// [`write_lts`] with the state values, which `.fsm` lists (the other formats have none).
pub fn write_lts_with(
    lts: &Lts,
    values: Option<&fsm::StateValues>,
    path: &Path,
) -> Result<(), GenerateError> {
    let name = path.display().to_string();
    let werr = |source| {
        GenerateError::Artifact(ArtifactError::Write {
            path: name.clone(),
            source,
        })
    };
    match OutputFormat::from_path(path)? {
        OutputFormat::Lts => Ok(lts.write_artifact(Some(path))?),
        OutputFormat::Aut => write_output(Some(path), |w| aut::write_aut(lts, w).map_err(werr)),
        OutputFormat::Dot => {
            let graph = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("lts")
                .to_string();
            write_output(Some(path), |w| dot::write_dot(lts, &graph, w).map_err(werr))
        }
        OutputFormat::Fsm => {
            write_output(Some(path), |w| fsm::write_fsm(lts, values, w).map_err(werr))
        }
        OutputFormat::Svg => {
            let picture = svg::svg_string(lts)?;
            write_output(Some(path), |w| {
                w.write_all(picture.as_bytes()).map_err(werr)
            })
        }
    }
}

/// Explores `sys` into an LTS in memory (for reducing it before checking). The options'
/// state bound must not cut the state space short: a partial LTS would give wrong verdicts.
pub fn explore_lts<S: TransitionSystem>(
    sys: &S,
    explore: ExploreOptions,
) -> Result<(Lts, ExploreSummary), GenerateError> {
    let _timer = crate::progress::time_stage("exploration");
    let mut explorer = Explorer::new(sys, explore);
    let mut transitions: Vec<Transition> = Vec::new();
    let summary = explorer
        .run(&mut transitions)
        .map_err(|e| explore_error(&explorer, e))?;
    if summary.stopped_at_max {
        return Err(GenerateError::Explore(
            "the state space was cut short at its state bound".into(),
        ));
    }
    // A partial state space would give wrong verdicts: the caller gets what was found as
    // the error's message instead.
    if let Some(reason) = summary.stopped_by {
        return Err(GenerateError::Explore(format!(
            "exploration stopped ({}) after {} states, {} transitions",
            reason.describe(),
            crate::progress::grouped(summary.states),
            crate::progress::grouped(summary.transitions)
        )));
    }
    let lts = Lts {
        initial: StateId(0),
        num_states: summary.states as u32,
        labels: explorer.labels().to_vec(),
        transitions,
    };
    Ok((lts, summary))
}

fn strategy_name(s: Strategy) -> &'static str {
    match s {
        Strategy::Bfs => "bfs",
        Strategy::Dfs => "dfs",
        Strategy::Highway { .. } => "highway",
    }
}

/// What [`generate_with`] needs of an exploration: the one-thread [`Explorer`] or the
/// distributed one, whichever produced the transitions, goes through the same output,
/// report and statistics code.
pub trait Engine {
    /// Explores, handing labels and transitions to `sink` in the order of a sequential
    /// breadth-first search (the numbering every engine reproduces).
    fn run(&mut self, sink: &mut dyn TransitionSink) -> Result<ExploreSummary, GenerateError>;
    /// The labels, indexed by [`LabelId`].
    fn labels(&self) -> &[Label];
    /// The state parameters as (name, printed sort), for `.fsm`.
    fn parameters(&self) -> Vec<(String, String)>;
    /// The printed values of state `s`, for `.fsm`.
    fn state_values(&self, s: StateId) -> Result<Vec<String>, GenerateError>;
    /// A shortest path from the initial state to `s` as (label, state) steps.
    fn trace_to(&mut self, s: StateId) -> Result<Vec<(Label, StateId)>, GenerateError>;
    /// The readable trace of `steps` (state values by parameter name).
    fn trace(&mut self, steps: &[(Label, StateId)]) -> Result<Trace, GenerateError>;
    /// Progress reports while [`run`](Engine::run) runs.
    fn on_progress(&mut self, f: Box<dyn FnMut(&super::Progress)>);
}

/// The one-process engine: the [`Explorer`] over a system.
struct Local<'a, S: TransitionSystem> {
    explorer: Explorer<'a, S>,
}

impl<'a, S: TransitionSystem> Engine for Local<'a, S> {
    fn run(&mut self, sink: &mut dyn TransitionSink) -> Result<ExploreSummary, GenerateError> {
        let r = self.explorer.run(sink);
        r.map_err(|e| explore_error(&self.explorer, e))
    }
    fn labels(&self) -> &[Label] {
        self.explorer.labels()
    }
    fn parameters(&self) -> Vec<(String, String)> {
        self.explorer.system().parameters()
    }
    fn state_values(&self, s: StateId) -> Result<Vec<String>, GenerateError> {
        Ok(self.explorer.system().state_values(&self.explorer.state(s)))
    }
    fn trace_to(&mut self, s: StateId) -> Result<Vec<(Label, StateId)>, GenerateError> {
        self.explorer
            .trace_to(s)
            .map_err(|e| explore_error(&self.explorer, e))
    }
    fn trace(&mut self, steps: &[(Label, StateId)]) -> Result<Trace, GenerateError> {
        Ok(explored_trace(&self.explorer, steps))
    }
    fn on_progress(&mut self, f: Box<dyn FnMut(&super::Progress)>) {
        self.explorer.on_progress(f);
    }
}

/// Explores `sys` and writes everything `opts` asks for. Messages (deadlocks, detected
/// actions, trace files, the state bound, the verbose summary) go to `log`; progress lines
/// go to standard error.
pub fn generate<S: TransitionSystem>(
    sys: &S,
    opts: &GenerateOptions,
    log: &mut dyn Write,
) -> Result<GenerateReport, GenerateError> {
    generate_with(opts, log, |explore| Local {
        explorer: Explorer::new(sys, explore.clone()),
    })
}

fn output_format(opts: &GenerateOptions) -> Result<Option<OutputFormat>, GenerateError> {
    Ok(match &opts.output {
        Some(p) if p != Path::new("-") => Some(OutputFormat::from_path(p)?),
        Some(_) => Some(OutputFormat::Aut),
        None => None,
    })
}

/// The exploration options [`generate_with`] gives its engine: `opts.explore` with a
/// picture's state bound and parent pointers for traces.
pub fn explore_options(opts: &GenerateOptions) -> Result<ExploreOptions, GenerateError> {
    let mut explore = opts.explore.clone();
    // A picture has room for few states: explore no further than one past the bound.
    let svg_cap = (svg::max_drawn().0 + 1) as u64;
    if output_format(opts)? == Some(OutputFormat::Svg)
        && explore.max_states.is_none_or(|m| m > svg_cap)
    {
        explore.max_states = Some(svg_cap);
    }
    if opts.traces.is_some() {
        explore.keep_parents = true;
    }
    Ok(explore)
}

/// [`generate`] over any [`Engine`]: `make` builds it from the exploration options as
/// adjusted here (a picture's state bound, parent pointers for traces).
pub fn generate_with<E: Engine>(
    opts: &GenerateOptions,
    log: &mut dyn Write,
    make: impl FnOnce(&ExploreOptions) -> E,
) -> Result<GenerateReport, GenerateError> {
    let format = output_format(opts)?;
    let explore = explore_options(opts)?;
    let capped = format == Some(OutputFormat::Svg) && opts.explore.max_states != explore.max_states;
    let baseline = proc_status_kib("VmRSS");
    let _timer = crate::progress::time_stage("exploration");
    let mut explorer = make(&explore);
    // A live line on a terminal, a few plain lines in a log, nothing under -q; the plain
    // lines keep the "N states (M explored)" form that scripts/bench-lps2lts reads.
    let progress = crate::progress::Progress::new("lps2lts", opts.quiet, opts.verbose);
    if progress.active() {
        let mut shown = progress.clone();
        explorer.on_progress(Box::new(move |p| {
            shown.update(|live| {
                let rate = if p.seconds > 0.0 {
                    p.states as f64 / p.seconds
                } else {
                    0.0
                };
                let mem = crate::progress::resident_mib()
                    .map(|m| format!(", {m} MiB"))
                    .unwrap_or_default();
                if live {
                    return format!(
                        "{} states, {} trans, level {}, {:.0} states/s{}",
                        p.states, p.transitions, p.level, rate, mem
                    );
                }
                format!(
                    "{} states ({} explored), {} transitions, level {}, {:.0} states/s, {:.1} s{}",
                    p.states, p.explored, p.transitions, p.level, rate, p.seconds, mem
                )
            })
        }));
    }

    // Run, with the sink the output format needs.
    let (summary, kept, aut_body) = match format {
        None => (explorer.run(&mut ())?, None, None),
        Some(OutputFormat::Aut) => {
            let dir = opts
                .output
                .as_deref()
                .and_then(|p| p.parent())
                .filter(|d| !d.as_os_str().is_empty())
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("."));
            let file = tempfile::tempfile_in(&dir)
                .or_else(|_| tempfile::tempfile())
                .map_err(GenerateError::Temp)?;
            let mut body = AutBody {
                file,
                buf: Vec::with_capacity(1 << 18),
                labels: Vec::new(),
            };
            (explorer.run(&mut body)?, None, Some(body))
        }
        Some(_) => {
            let mut ts: Vec<Transition> = Vec::new();
            (explorer.run(&mut ts)?, Some(ts), None)
        }
    };

    progress.finish();

    // A run stopped by its budget reports how far it got; its output is incomplete, so it
    // is written only when asked for.
    if let Some(reason) = summary.stopped_by {
        if !opts.quiet {
            let _ = writeln!(
                log,
                "lps2lts: stopped ({}) at level {}: {} states found, {} explored, {} transitions, {:.1} s",
                reason.describe(),
                summary.levels,
                summary.states,
                summary.explored,
                summary.transitions,
                summary.seconds
            );
            if opts.output.is_some() && !opts.partial {
                let _ = writeln!(
                    log,
                    "lps2lts: no output written (--partial writes the part found so far)"
                );
            }
        }
        if !opts.partial {
            let report = GenerateReport {
                labels: explorer.labels().len(),
                summary,
                traces: Vec::new(),
                peak_memory_kib: proc_status_kib("VmHWM"),
                baseline_memory_kib: baseline,
                cpu_seconds: proc_cpu_seconds(),
            };
            write_stats(opts, &report, &explore)?;
            return Ok(report);
        }
    }

    // Output.
    let out_path = opts.output.as_deref();
    let out_name = display_path(out_path, "<stdout>");
    if let Some(mut body) = aut_body {
        let werr = |source| {
            GenerateError::Artifact(ArtifactError::Write {
                path: out_name.clone(),
                source,
            })
        };
        body.file
            .write_all(&body.buf)
            .map_err(GenerateError::Temp)?;
        body.buf = Vec::new();
        body.file.flush().map_err(GenerateError::Temp)?;
        body.file.rewind().map_err(GenerateError::Temp)?;
        write_output(out_path, |w| {
            aut::write_header(w, StateId(0), summary.transitions, summary.states).map_err(werr)?;
            io::copy(&mut body.file, w).map_err(werr)?;
            Ok::<(), GenerateError>(())
        })?;
    } else if let Some(transitions) = kept {
        if capped && summary.stopped_at_max {
            return Err(GenerateError::Svg(
                svg::TooLarge {
                    states: summary.states as usize,
                    transitions: transitions.len(),
                    at_least: true,
                }
                .into(),
            ));
        }
        let lts = Lts {
            initial: StateId(0),
            num_states: summary.states as u32,
            labels: explorer.labels().to_vec(),
            transitions,
        };
        let values = match format {
            Some(OutputFormat::Fsm) => Some(fsm::StateValues {
                params: explorer.parameters(),
                states: (0..lts.num_states)
                    .map(|s| explorer.state_values(StateId(s)))
                    .collect::<Result<_, _>>()?,
            }),
            _ => None,
        };
        match out_path {
            Some(p) if p != Path::new("-") => write_lts_with(&lts, values.as_ref(), p)?,
            _ => unreachable!("standard output is written as .aut"),
        }
    }

    // Reports and traces.
    let mut traces = Vec::new();
    let mut say = |line: String| {
        if !opts.quiet {
            let _ = writeln!(log, "{line}");
        }
    };
    if summary.stopped_at_max {
        say(format!(
            "lps2lts: stopped at the bound of {} states (--max); the state space is incomplete: {} states found, {} explored",
            explore.max_states.unwrap_or(0),
            summary.states,
            summary.explored
        ));
    }
    if summary.stopped_at_reports {
        let n = explore.stop_after_reports.unwrap_or(0);
        say(format!(
            "lps2lts: stopped after {n} trace{} of one kind (--trace={n}, as mCRL2 stops); the state space is incomplete: {} states found, {} explored",
            if n == 1 { "" } else { "s" },
            summary.states,
            summary.explored
        ));
    }
    let max_traces = opts.traces.unwrap_or(0);
    const SHOWN: usize = 20;
    if explore.detect_deadlocks {
        for (i, &d) in summary.deadlocks.iter().enumerate() {
            if i < SHOWN {
                say(format!(
                    "deadlock-detect: deadlock found (state index: {d})."
                ));
            }
            if i < max_traces {
                let steps = explorer.trace_to(d)?;
                let path = trace_path(&opts.trace_prefix, &format!("_dlk_{i}"));
                let what = format!("trace to deadlock state {d}");
                write_trace(&explorer.trace(&steps)?, &path, &what)?;
                say(format!(
                    "deadlock-detect: trace to state {d} written to {}",
                    path.display()
                ));
                traces.push(path);
            }
        }
        if summary.deadlock_count as usize > SHOWN.min(summary.deadlocks.len()) {
            say(format!(
                "deadlock-detect: {} deadlock states in total",
                summary.deadlock_count
            ));
        }
        if summary.deadlock_count == 0 && opts.verbose {
            say("deadlock-detect: no deadlocks found".to_string());
        }
    }
    if !explore.detect_actions.is_empty() {
        for (i, hit) in summary.action_hits.iter().enumerate() {
            let t = hit.transition;
            let label = &explorer.labels()[t.label.index()].clone();
            if i < SHOWN {
                say(format!(
                    "action-detect: action {} found (transition {} -> {}).",
                    label.text(),
                    t.from,
                    t.to
                ));
            }
            if i < max_traces {
                let mut steps = explorer.trace_to(t.from)?;
                steps.push((label.clone(), t.to));
                let name = explore
                    .detect_actions
                    .iter()
                    .find(|a| label.has_action(a))
                    .cloned()
                    .unwrap_or_default();
                let path = trace_path(&opts.trace_prefix, &format!("_act_{i}_{name}"));
                let what = format!("trace to action {}", label.text());
                write_trace(&explorer.trace(&steps)?, &path, &what)?;
                say(format!(
                    "action-detect: trace written to {}",
                    path.display()
                ));
                traces.push(path);
            }
        }
        if summary.action_count as usize > SHOWN.min(summary.action_hits.len()) {
            say(format!(
                "action-detect: {} transitions with detected actions in total",
                summary.action_count
            ));
        }
        if summary.action_count == 0 && !opts.quiet {
            say("action-detect: none of the actions occur".to_string());
        }
    }
    let peak = proc_status_kib("VmHWM");
    if opts.verbose {
        say(format!(
            "lps2lts: done with state space generation ({} levels, {} states and {} transitions) in {:.3} s, {:.0} states/s, peak memory {} MiB",
            summary.levels,
            summary.states,
            summary.transitions,
            summary.seconds,
            summary.states as f64 / summary.seconds.max(1e-9),
            peak.map(|k| (k / 1024).to_string()).unwrap_or_else(|| "?".into())
        ));
    }
    let ph = summary.phases;
    if opts.verbose && ph.expand > 0.0 {
        say(format!(
            "lps2lts: parallel phases (wall): expanding {:.3} s, numbering {:.3} s, indexing {:.3} s, growing tables {:.3} s (one thread)",
            ph.expand, ph.number, ph.index, ph.grow
        ));
    }
    let report = GenerateReport {
        labels: explorer.labels().len(),
        summary,
        traces,
        peak_memory_kib: peak,
        baseline_memory_kib: baseline,
        cpu_seconds: proc_cpu_seconds(),
    };
    write_stats(opts, &report, &explore)?;
    Ok(report)
}

/// `--stats-json`: written after a stop too, since the statistics say how far the run got
/// (`"complete": false` and `"stopped_by"`).
fn write_stats(
    opts: &GenerateOptions,
    report: &GenerateReport,
    explore: &ExploreOptions,
) -> Result<(), GenerateError> {
    let Some(p) = &opts.stats_json else {
        return Ok(());
    };
    let json = stats_json(report, explore);
    let name = p.display().to_string();
    write_report(Some(p), |w| {
        w.write_all(json.as_bytes())
            .map_err(|source| GenerateError::Artifact(ArtifactError::Write { path: name, source }))
    })
}

/// The error message, with the failing state's values where the system can print them.
fn explore_error<S: TransitionSystem>(
    ex: &Explorer<'_, S>,
    e: super::ExploreError<S::Error>,
) -> GenerateError {
    match e {
        super::ExploreError::System {
            state: Some(s),
            source,
        } if s.index() < ex.num_states() => GenerateError::Explore(format!(
            "while exploring state {s} {}: {source}",
            ex.system().format_state(&ex.state(s))
        )),
        e => GenerateError::Explore(e.to_string()),
    }
}

fn trace_path(prefix: &Path, suffix: &str) -> PathBuf {
    let mut s = prefix.as_os_str().to_os_string();
    s.push(suffix);
    s.push(".trc");
    PathBuf::from(s)
}

/// The trace of `steps` from the initial state, with every state's values by parameter
/// name ([`super::trace::Trace`]); a system without parameters shows its state numbers as
/// the one parameter `state`.
pub fn explored_trace<S: TransitionSystem>(
    ex: &Explorer<'_, S>,
    steps: &[(Label, StateId)],
) -> Trace {
    let sys = ex.system();
    let mut params: Vec<String> = sys.parameters().into_iter().map(|(n, _)| n).collect();
    let numbered = params.is_empty();
    if numbered {
        params.push("state".to_string());
    }
    let values = |s: StateId| {
        if numbered {
            vec![s.to_string()]
        } else {
            sys.state_values(&ex.state(s))
        }
    };
    Trace {
        params,
        initial: Some(values(StateId(0))),
        steps: steps
            .iter()
            .map(|(l, s)| TraceStep {
                action: l.text().to_string(),
                sums: Vec::new(),
                state: Some(values(*s)),
            })
            .collect(),
        loop_start: None,
    }
}

/// Writes `trace` as muon's trace file ([`TraceFormat::File`]).
fn write_trace(trace: &Trace, path: &Path, what: &str) -> Result<(), GenerateError> {
    let text = trace.render(TraceFormat::File, what);
    let name = path.display().to_string();
    write_output(Some(path), |w| {
        w.write_all(text.as_bytes())
            .map_err(|source| GenerateError::Artifact(ArtifactError::Write { path: name, source }))
    })
}

fn stats_json(r: &GenerateReport, opts: &ExploreOptions) -> String {
    let s = &r.summary;
    let per_state = |bytes: u64| {
        if s.states == 0 {
            0.0
        } else {
            bytes as f64 / s.states as f64
        }
    };
    let peak_bytes = r.peak_memory_kib.map(|k| k * 1024);
    let base_bytes = r.baseline_memory_kib.map(|k| k * 1024);
    let explore_bytes = peak_bytes.zip(base_bytes).map(|(p, b)| p.saturating_sub(b));
    format!(
        concat!(
            "{{\n",
            "  \"states\": {},\n",
            "  \"transitions\": {},\n",
            "  \"labels\": {},\n",
            "  \"levels\": {},\n",
            "  \"explored\": {},\n",
            "  \"complete\": {},\n",
            "  \"stopped_by\": {},\n",
            "  \"strategy\": \"{}\",\n",
            "  \"threads\": {},\n",
            "  \"seconds\": {:.6},\n",
            "  \"cpu_seconds\": {},\n",
            "  \"states_per_second\": {:.1},\n",
            "  \"peak_memory_bytes\": {},\n",
            "  \"peak_bytes_per_state\": {},\n",
            "  \"baseline_memory_bytes\": {},\n",
            "  \"explore_bytes_per_state\": {},\n",
            "  \"state_store\": \"{}\",\n",
            "  \"table_bytes\": {},\n",
            "  \"table_bytes_per_state\": {:.2},\n",
            "  \"parent_bytes\": {},\n",
            "  \"sent_bytes\": {},\n",
            "  \"remote_successors\": {},\n",
            "  \"deadlocks\": {},\n",
            "  \"action_hits\": {}\n",
            "}}\n"
        ),
        s.states,
        s.transitions,
        r.labels,
        s.levels,
        s.explored,
        !s.stopped_at_max && !s.stopped_at_reports && s.stopped_by.is_none(),
        s.stopped_by.map_or("null".to_string(), |r| {
            format!(
                "\"{}\"",
                r.describe().replace('\\', "\\\\").replace('"', "\\\"")
            )
        }),
        strategy_name(opts.strategy),
        if opts.threads == 0 {
            rayon::current_num_threads()
        } else {
            opts.threads
        },
        s.seconds,
        r.cpu_seconds
            .map_or("null".to_string(), |c| format!("{c:.2}")),
        s.states as f64 / s.seconds.max(1e-9),
        peak_bytes.map_or("null".to_string(), |b| b.to_string()),
        peak_bytes.map_or("null".to_string(), |b| format!("{:.2}", per_state(b))),
        base_bytes.map_or("null".to_string(), |b| b.to_string()),
        explore_bytes.map_or("null".to_string(), |b| format!("{:.2}", per_state(b))),
        match opts.store {
            StoreKind::Tree => "tree",
            StoreKind::Table => "table",
        },
        s.table_bytes,
        per_state(s.table_bytes),
        s.parent_bytes,
        s.sent_bytes,
        s.remote_successors,
        s.deadlock_count,
        s.action_count
    )
}
