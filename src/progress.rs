//! Progress of long stages on standard error, for people: a live line with a spinner on a
//! terminal (redrawn in place, at most 10 times a second), plain periodic lines when
//! standard error is a file or a pipe (every second under `-v`, else every 10 seconds, so
//! a log keeps a few of them), nothing under `-q`.
//!
//! A stage calls [`Progress::update`] as often as it likes with a closure that formats its
//! counters; the closure runs only when something is shown.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How progress is shown.
#[derive(Clone)]
enum Mode {
    Off,
    Bar(ProgressBar),
    Lines { every: Duration, last: Instant },
}

/// The progress display of one stage (cheap to clone: clones share the terminal line).
#[derive(Clone)]
pub struct Progress {
    stage: &'static str,
    mode: Mode,
}

impl Progress {
    /// The display for `stage` (`lps2lts`, ...): off under `quiet`, a live line when
    /// standard error is a terminal, else plain lines (every second when `verbose`).
    pub fn new(stage: &'static str, quiet: bool, verbose: bool) -> Progress {
        let mode = if quiet {
            Mode::Off
        } else if std::io::stderr().is_terminal() {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(10));
            bar.set_style(
                ProgressStyle::with_template(
                    "{spinner:.cyan} {prefix:.bold} {elapsed:>4} {wide_msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar.set_prefix(stage);
            bar.enable_steady_tick(Duration::from_millis(200));
            Mode::Bar(bar)
        } else {
            let every = Duration::from_secs(if verbose { 1 } else { 10 });
            Mode::Lines {
                every,
                last: Instant::now(),
            }
        };
        Progress { stage, mode }
    }

    /// Whether anything is shown at all.
    pub fn active(&self) -> bool {
        !matches!(self.mode, Mode::Off)
    }

    /// Shows the counters `message` formats (on a terminal: always, the bar redraws at its
    /// own rate; as lines: when the period has passed). `message(true)` is for the live
    /// line, which should fit an 80-column terminal beside the stage and elapsed time.
    pub fn update(&mut self, message: impl FnOnce(bool) -> String) {
        match &mut self.mode {
            Mode::Off => {}
            Mode::Bar(bar) => bar.set_message(message(true)),
            Mode::Lines { every, last } => {
                if last.elapsed() >= *every {
                    *last = Instant::now();
                    errln!("{}: {}", self.stage, message(false));
                }
            }
        }
    }

    /// Removes the live line (the stage's results follow on a clean terminal).
    pub fn finish(&self) {
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
        }
    }
}

/// The resident memory of this process in MiB (Linux `/proc/self/status`); `None` elsewhere.
pub fn resident_mib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|l| {
        let kib: u64 = l
            .strip_prefix("VmRSS:")?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kib / 1024)
    })
}

/// Whether and how often a stage's progress is shown (from `-q` and `-v`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shown {
    /// Nothing (`-q`, and library callers by default).
    #[default]
    Off,
    /// A live line on a terminal, a plain line every 10 s otherwise.
    Normal,
    /// As `Normal`, plain lines every second.
    Verbose,
}

impl Shown {
    /// From the `-q` and `-v` flags.
    pub fn from_flags(quiet: bool, verbose: bool) -> Shown {
        match (quiet, verbose) {
            (true, _) => Shown::Off,
            (false, true) => Shown::Verbose,
            (false, false) => Shown::Normal,
        }
    }
}

/// A long loop's companion: at each unit of work it polls the run's budget
/// ([`crate::budget`]) and shows the loop's counters with their rate and the memory in use.
/// Generic loops take any `Watch`; [`Unwatched`] never stops (for library callers and
/// tests), [`Meter`] stops when the budget says so.
pub trait Watch {
    /// What a stop is: [`Halted`] for a [`Meter`], uninhabited for [`Unwatched`].
    type Stop;
    /// One unit of work done; `done` counts them so far and `what` describes the state of the
    /// work for people ("12 refinement rounds, 340,211 blocks"). Runs `what` only when
    /// something is shown or the loop stops.
    fn tick(&mut self, done: u64, what: impl FnOnce() -> String) -> Result<(), Self::Stop>;
}

/// A watch that shows nothing and never stops.
pub struct Unwatched;

impl Watch for Unwatched {
    type Stop = std::convert::Infallible;
    fn tick(&mut self, _: u64, _: impl FnOnce() -> String) -> Result<(), Self::Stop> {
        Ok(())
    }
}

/// A stage stopped by the budget, with what it had done by then.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{stage} stopped ({}) after {done}", .reason.describe())]
pub struct Halted {
    /// The stage (`reduction`, `solving`, ...).
    pub stage: &'static str,
    /// Why.
    pub reason: crate::budget::StopReason,
    /// The work done, as the loop describes it.
    pub done: String,
}

/// How many ticks pass between two looks at the clock (a tick may be a few nanoseconds).
const CLOCK_EVERY: u32 = 64;

/// The [`Watch`] of a stage run from the command line: budget polls on every tick, the
/// counters shown through a [`Progress`] at most every 100 ms.
pub struct Meter {
    progress: Progress,
    stage: &'static str,
    start: Instant,
    last: Instant,
    ticks: u32,
}

impl Meter {
    /// The meter of `stage`, shown as [`Progress::new`] says.
    pub fn new(stage: &'static str, shown: Shown) -> Meter {
        let now = Instant::now();
        Meter {
            progress: Progress::new(stage, shown == Shown::Off, shown == Shown::Verbose),
            stage,
            start: now,
            last: now,
            ticks: 0,
        }
    }

    /// Removes the live line.
    pub fn finish(&self) {
        self.progress.finish();
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        self.progress.finish();
    }
}

impl Watch for Meter {
    type Stop = Halted;
    fn tick(&mut self, done: u64, what: impl FnOnce() -> String) -> Result<(), Halted> {
        if let Some(reason) = crate::budget::poll_stop() {
            self.progress.finish();
            return Err(Halted {
                stage: self.stage,
                reason,
                done: what(),
            });
        }
        self.ticks = self.ticks.wrapping_add(1);
        if !self.progress.active() || self.ticks % CLOCK_EVERY != 1 {
            return Ok(());
        }
        let now = Instant::now();
        if now.duration_since(self.last) < Duration::from_millis(100) {
            return Ok(());
        }
        self.last = now;
        let secs = now.duration_since(self.start).as_secs_f64().max(1e-3);
        let text = what();
        let mem = resident_mib()
            .map(|m| format!(", {m} MiB"))
            .unwrap_or_default();
        self.progress
            .update(|_| format!("{text} ({}/s{mem})", grouped((done as f64 / secs) as u64)));
        Ok(())
    }
}

/// `n` with thousands separators (`340,211`), for progress and stop messages.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One stage's time for `--timings`: wall and user seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageTime {
    /// Wall-clock seconds.
    pub wall: f64,
    /// User CPU seconds of the whole process (all threads) meanwhile.
    pub user: f64,
}

/// The stages timed so far, by name (a stage run twice, e.g. solving two formulas, adds up).
static TIMINGS: std::sync::Mutex<Vec<(&'static str, StageTime)>> =
    std::sync::Mutex::new(Vec::new());

/// Times a stage from its creation until it is dropped, for `--timings` ([`timings`]).
/// A stage that fails or is stopped is recorded too (with the time it ran).
pub struct StageTimer {
    name: &'static str,
    start: Instant,
    user: f64,
}

/// Starts timing the stage `name` (mCRL2's stage names where it has them: `reduction`,
/// `instantiation`, `solving`, ...).
pub fn time_stage(name: &'static str) -> StageTimer {
    StageTimer {
        name,
        start: Instant::now(),
        user: user_seconds(),
    }
}

impl Drop for StageTimer {
    fn drop(&mut self) {
        let t = StageTime {
            wall: self.start.elapsed().as_secs_f64(),
            user: (user_seconds() - self.user).max(0.0),
        };
        if let Ok(mut v) = TIMINGS.lock() {
            match v.iter_mut().find(|(n, _)| *n == self.name) {
                Some((_, sum)) => {
                    sum.wall += t.wall;
                    sum.user += t.user;
                }
                None => v.push((self.name, t)),
            }
        }
    }
}

/// The stages timed so far, in the order they first ran.
pub fn timings() -> Vec<(&'static str, StageTime)> {
    TIMINGS.lock().map(|v| v.clone()).unwrap_or_default()
}

/// The user CPU seconds of this process so far (all threads; Linux `/proc/self/stat`, whose
/// unit is the kernel's fixed `USER_HZ` of 100 per second); 0 where it cannot be read.
pub fn user_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which may hold spaces) start with the state (field 3);
    // utime is field 14.
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(11)?.parse::<u64>().ok())
        .map_or(0.0, |ticks| ticks as f64 / 100.0)
}

/// mCRL2's `--timings` block for `tool`: `- tool: NAME`, `  timing:` and one line
/// `    STAGE: W.WWWs (user: U.UUUs)` per stage and for `total`, ordered by name as mCRL2
/// orders them.
pub fn timings_report(tool: &str, stages: &[(&str, StageTime)], total: StageTime) -> String {
    let mut lines: Vec<(&str, StageTime)> = stages.to_vec();
    lines.push(("total", total));
    lines.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = format!("- tool: {tool}\n  timing:\n");
    for (name, t) in lines {
        out.push_str(&format!(
            "    {name}: {:.3}s (user: {:.3}s)\n",
            t.wall, t.user
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(340_211), "340,211");
        assert_eq!(grouped(12_345_678), "12,345,678");
    }

    #[test]
    fn timings_are_listed_by_name_in_mcrl2s_form() {
        let t = |wall, user| StageTime { wall, user };
        let text = timings_report(
            "ltsconvert",
            &[
                ("reduction", t(1.5, 1.25)),
                ("reachability check", t(0.0, 0.0)),
            ],
            t(2.0, 1.5),
        );
        assert_eq!(
            text,
            "- tool: ltsconvert\n  timing:\n    reachability check: 0.000s (user: 0.000s)\n    \
             reduction: 1.500s (user: 1.250s)\n    total: 2.000s (user: 1.500s)\n"
        );
    }
}
