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
                    eprintln!("{}: {}", self.stage, message(false));
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
