//! The simulator's commands, as the script mode reads them from its input and the screen's
//! command line (`:`) takes them: parsed from one line of text, then carried out on a
//! [`Simulator`] with a message saying what was done.

use std::path::PathBuf;

use super::{Found, SimError, Simulator, Target};
use crate::lts::trace::TraceFormat;

/// The commands, one per line, as the help lists them.
pub const COMMANDS: &[(&str, &str)] = &[
    ("take N", "take transition N of the current state (numbered from 1)"),
    ("take ACTION", "take the transition with this multi-action (`a(1)`, `b|c`)"),
    ("undo", "go back one step and forget it"),
    ("back", "go back one step, keeping the history ahead"),
    ("forward", "go forward one step along the history"),
    ("goto N", "go to position N of the history (0: the initial state)"),
    ("find deadlock", "walk a shortest path to a deadlock"),
    ("find ACTION", "walk a shortest path ending with this action (a name or a multi-action)"),
    ("save FILE [muon|plain|json]", "save the history as a trace (muon's trace file unless FILE ends in .json; plain: mCRL2's, one multi-action per line)"),
    ("load FILE", "load a trace (muon's, `check`'s evidence, JSON, mCRL2's plain format) and replay it from the initial state"),
    ("state", "show the current state and its transitions"),
    ("trace", "show the history as a trace"),
    ("help", "list the commands"),
    ("quit", "end the simulation"),
];

/// Which transition `take` takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// By number, from 1.
    Number(usize),
    /// By its multi-action.
    Action(String),
}

/// The format of a saved trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveFormat {
    /// muon's trace file (states by parameter name; `tracepp` and `sim` read it).
    Muon,
    /// mCRL2's plain format: one multi-action per line (mCRL2's tools read it).
    Plain,
    /// JSON.
    Json,
}

/// A simulator command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Take a transition.
    Take(Choice),
    /// Go back one step and forget it.
    Undo,
    /// Go back one step.
    Back,
    /// Go forward one step.
    Forward,
    /// Go to a position of the history.
    Goto(usize),
    /// Search and walk to a target.
    Find(Target),
    /// Save the history.
    Save(PathBuf, SaveFormat),
    /// Load and replay a trace.
    Load(PathBuf),
    /// Show the state.
    State,
    /// Show the history as a trace.
    Trace,
    /// List the commands.
    Help,
    /// End the simulation.
    Quit,
}

/// What a command did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Done; the message says what happened (empty when nothing needs saying).
    Done(String),
    /// Text to show as it is (the trace, the help).
    Show(String),
    /// The simulation ends.
    Quit,
}

impl Command {
    /// Parses one line: `Ok(None)` for a blank line or a comment (`# …`), an error that
    /// says what is wrong and what the commands are.
    pub fn parse(line: &str) -> Result<Option<Command>, String> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let none = |c: Command| {
            if rest.is_empty() {
                Ok(Some(c))
            } else {
                Err(format!("`{word}` takes no argument, but `{rest}` follows"))
            }
        };
        match word {
            "take" | "t" => {
                if rest.is_empty() {
                    return Err("`take` needs a transition number or a multi-action".into());
                }
                match rest.parse::<usize>() {
                    Ok(0) => Err("transitions are numbered from 1".into()),
                    Ok(n) => Ok(Some(Command::Take(Choice::Number(n)))),
                    Err(_) if rest.starts_with(|c: char| c.is_ascii_digit()) => {
                        Err(format!("`{rest}` is not a transition number"))
                    }
                    Err(_) => Ok(Some(Command::Take(Choice::Action(rest.to_string())))),
                }
            }
            "undo" | "u" => none(Command::Undo),
            "back" | "b" => none(Command::Back),
            "forward" | "f" | "redo" | "r" => none(Command::Forward),
            "goto" | "g" => rest
                .parse::<usize>()
                .map(|n| Some(Command::Goto(n)))
                .map_err(|_| {
                    format!("`goto` needs a position (0 to the history's length), not `{rest}`")
                }),
            "find" => match rest {
                "" => Err("`find` needs `deadlock` or an action".into()),
                "deadlock" => Ok(Some(Command::Find(Target::Deadlock))),
                a => Ok(Some(Command::Find(Target::Action(a.to_string())))),
            },
            "save" | "s" => {
                let mut words: Vec<&str> = rest.split_whitespace().collect();
                let format = match words.last().copied() {
                    Some("plain") if words.len() > 1 => Some(SaveFormat::Plain),
                    Some("muon") if words.len() > 1 => Some(SaveFormat::Muon),
                    Some("json") if words.len() > 1 => Some(SaveFormat::Json),
                    _ => None,
                };
                if format.is_some() {
                    words.pop();
                }
                if words.len() != 1 {
                    return Err("`save` needs a file name (without spaces), then optionally `muon`, `plain` or `json`".into());
                }
                let path = PathBuf::from(words[0]);
                let format = format.unwrap_or_else(|| {
                    if path.extension().is_some_and(|e| e == "json") {
                        SaveFormat::Json
                    } else {
                        SaveFormat::Muon
                    }
                });
                Ok(Some(Command::Save(path, format)))
            }
            "load" | "l" | "open" => match rest {
                "" => Err("`load` needs a trace file".into()),
                "-" => Err("`load` needs a trace file, not standard input".into()),
                f => Ok(Some(Command::Load(PathBuf::from(f)))),
            },
            "state" => none(Command::State),
            "trace" => none(Command::Trace),
            "help" | "h" | "?" => none(Command::Help),
            "quit" | "q" | "exit" => none(Command::Quit),
            _ => Err(format!(
                "unknown command `{word}`; the commands are: {}",
                COMMANDS
                    .iter()
                    .map(|(c, _)| *c)
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}

/// The help text: one command per line.
pub fn help_text() -> String {
    let width = COMMANDS.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    COMMANDS
        .iter()
        .map(|(c, what)| format!("  {c:<width$}  {what}\n"))
        .collect()
}

/// Carries out `cmd` on `sim`. `name` is the model's file (named in saved traces); a search
/// calls `tick` as [`Simulator::search`] does.
pub fn execute(
    sim: &mut Simulator<'_>,
    cmd: &Command,
    name: &str,
    tick: &mut dyn FnMut(usize) -> bool,
) -> Result<Outcome, SimError> {
    let done = |s: String| Ok(Outcome::Done(s));
    match cmd {
        Command::Take(Choice::Number(n)) => {
            sim.take(n - 1)?;
            done(format!("took {}", sim.transitions_into_label()))
        }
        Command::Take(Choice::Action(a)) => {
            let hits: Vec<usize> = (0..sim.transitions().len())
                .filter(|&i| super::same_label(&sim.transitions()[i].label, a))
                .collect();
            let Some(&first) = hits.first() else {
                return Err(SimError::Command(format!(
                    "no transition of the current state has the multi-action `{a}`{}",
                    if sim.transitions().is_empty() {
                        ": it is a deadlock".to_string()
                    } else {
                        format!(
                            "; its transitions are: {}",
                            sim.transitions()
                                .iter()
                                .map(|t| t.label.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    }
                )));
            };
            let row = &sim.transitions()[first].row;
            if hits.iter().any(|&i| &sim.transitions()[i].row != row) {
                let nums: Vec<String> = hits.iter().map(|i| (i + 1).to_string()).collect();
                return Err(SimError::Command(format!(
                    "transitions {} all have the multi-action `{a}` but lead to different states: take one by its number",
                    nums.join(", ")
                )));
            }
            sim.take(first)?;
            done(format!("took {}", sim.transitions_into_label()))
        }
        Command::Undo => done(match sim.undo()? {
            true => "undid the last step".into(),
            false => "nothing to undo: at the initial state".into(),
        }),
        Command::Back => done(match sim.back()? {
            true => "back one step".into(),
            false => "already at the initial state".into(),
        }),
        Command::Forward => done(match sim.forward()? {
            true => format!("forward: {}", sim.transitions_into_label()),
            false => "already at the end of the history".into(),
        }),
        Command::Goto(n) => {
            sim.goto(*n)?;
            done(format!("at position {n}"))
        }
        Command::Find(target) => match sim.search(target, tick)? {
            Found::Path(path) if path.is_empty() => {
                done(format!("the current state is {}", target.describe()))
            }
            Found::Path(path) => {
                sim.walk(&path)?;
                done(format!(
                    "found {} {} step{} away (a shortest path), walked to it",
                    target.describe(),
                    path.len(),
                    if path.len() == 1 { "" } else { "s" }
                ))
            }
            Found::Nowhere { states } => Err(SimError::Command(format!(
                "no {} is reachable from the current state ({states} state{} looked at, all there are)",
                target.describe().trim_start_matches("a "),
                if states == 1 { "" } else { "s" }
            ))),
            Found::Stopped { states, at_limit } => Err(SimError::Command(format!(
                "no {} found in the {states} states nearest the current one; the search stopped there ({})",
                target.describe().trim_start_matches("a "),
                if at_limit {
                    "at its limit: a larger --search-limit looks further"
                } else {
                    "as asked"
                }
            ))),
        },
        Command::Save(path, format) => {
            let (f, what) = match format {
                SaveFormat::Muon => (TraceFormat::File, "muon's trace format"),
                SaveFormat::Plain => (TraceFormat::Plain, "mCRL2's plain format"),
                SaveFormat::Json => (TraceFormat::Json, "JSON"),
            };
            sim.save(path, f, &format!("simulation of {name}"))?;
            done(format!(
                "saved {} step{} to {} ({what})",
                sim.len(),
                if sim.len() == 1 { "" } else { "s" },
                path.display()
            ))
        }
        Command::Load(path) => {
            let file = path.display().to_string();
            let bytes = crate::artifact::read_bytes(Some(path))?;
            let loaded = sim.load(&bytes, &file)?;
            let mut msg = format!(
                "loaded {} step{} from {file}{}; at the initial state (forward walks the trace)",
                loaded.steps,
                if loaded.steps == 1 { "" } else { "s" },
                if loaded.by_states {
                    ", states matched"
                } else {
                    ""
                }
            );
            if let Some(note) = loaded.note {
                msg.push_str(&format!("; {note}"));
            }
            done(msg)
        }
        Command::State => done(String::new()),
        Command::Trace => Ok(Outcome::Show(
            sim.trace()
                .render(TraceFormat::Text, &format!("simulation of {name}")),
        )),
        Command::Help => Ok(Outcome::Show(help_text())),
        Command::Quit => Ok(Outcome::Quit),
    }
}

impl Simulator<'_> {
    /// The multi-action of the step into the current state (`initial state` there).
    pub fn transitions_into_label(&self) -> String {
        self.step(self.position())
            .map_or_else(|| "the initial state".into(), |t| t.label.clone())
    }
}
