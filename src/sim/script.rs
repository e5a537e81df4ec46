//! The script mode of `muon sim --script`: commands read one per line (see
//! [`super::COMMANDS`]), each echoed as `> COMMAND`, then what it did and the current state
//! with its transitions as plain text, for tests and pipelines. A bad command or one that
//! fails is reported on the error stream with its line number, and the script goes on; the
//! caller gets the number of such errors (a non-zero exit status).

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};

use super::{execute, Command, Outcome, Simulator};

/// The current state and its transitions as plain text:
///
/// ```text
/// after step 1 of 2 (a(0)): n = 1, q = [0]
/// transitions (2):
///   1  b|c(true, 3)   n: 1 → 5, q: [0] → []
///   2  a(1)           n: 1 → 2, q: [0] → [1, 0]
/// ```
pub fn view(sim: &Simulator<'_>) -> String {
    let pos = sim.position();
    let len = sim.len();
    let steps = format!("{len} step{}", if len == 1 { "" } else { "s" });
    let at = match pos {
        0 => format!("at the initial state (0 of {steps})"),
        _ => format!(
            "after step {pos} of {steps} ({})",
            sim.transitions_into_label()
        ),
    };
    let mut out = format!(
        "{at}: {}\n",
        super::replay::state_text(sim.params(), sim.state())
    );
    let ts = sim.transitions();
    if ts.is_empty() {
        out.push_str("transitions: none (a deadlock)\n");
        return out;
    }
    let _ = writeln!(out, "transitions ({}):", ts.len());
    let (num, width) = super::column_widths(ts);
    for (i, t) in ts.iter().enumerate() {
        let _ = writeln!(
            out,
            "  {:>num$}  {:<width$}   {}",
            i + 1,
            t.label,
            t.describe(sim.params())
        );
    }
    out
}

/// Runs the commands of `input` on `sim` (`name`: the model's file), printing to `out`
/// and reporting errors to `err`; the number of commands that failed. The state is shown
/// once before the first command.
pub fn run(
    sim: &mut Simulator<'_>,
    name: &str,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<usize> {
    out.write_all(view(sim).as_bytes())?;
    let mut failed = 0;
    let mut line = String::new();
    let mut no = 0;
    // A stop of the run's budget (`--timeout`, `--memory-limit`) ends the script between
    // commands; the run then reports it.
    while crate::budget::poll_stop().is_none() {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            break;
        }
        no += 1;
        let cmd = match Command::parse(&line) {
            Ok(None) => continue,
            Ok(Some(c)) => c,
            Err(e) => {
                writeln!(err, "muon sim: line {no}: {e}")?;
                failed += 1;
                continue;
            }
        };
        writeln!(out, "> {}", line.trim())?;
        match execute(sim, &cmd, name, &mut |_| true) {
            Ok(Outcome::Quit) => break,
            Ok(Outcome::Show(text)) => out.write_all(text.as_bytes())?,
            Ok(Outcome::Done(msg)) => {
                if !msg.is_empty() {
                    writeln!(out, "{msg}")?;
                }
                out.write_all(view(sim).as_bytes())?;
            }
            Err(e) => {
                out.flush()?;
                writeln!(
                    err,
                    "muon sim: line {no} (`{}`): {:?}",
                    line.trim(),
                    miette::Report::new(e)
                )?;
                failed += 1;
            }
        }
    }
    out.flush()?;
    Ok(failed)
}
