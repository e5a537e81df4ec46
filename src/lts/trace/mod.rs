//! Traces: one path of a model from its initial state, with the state after every step, and
//! the one renderer of traces for people and tools. `muon check`'s evidence, `lps2lts -t`'s
//! trace files and `muon tracepp` all print a [`Trace`] here, so a trace reads the same
//! wherever it comes from.
//!
//! States are printed values (by [`crate::data::print`] upstream), one per parameter; a
//! model without parameters (an explicit LTS) has the one parameter `state`, its number. A
//! trace read from mCRL2's plain format (one multi-action per line) has no states at all.
//!
//! Forms ([`Trace::render`]): readable text (one step per line, the parameters a step
//! changes as `n: 0 → 1`, a lasso's cycle marked `↻`), muon's trace file (that text behind
//! the versioned header [`HEADER`] and the parameter names, read back by [`read`]), JSON,
//! mCRL2's `plain` (the multi-actions, one per line, which mCRL2's `tracepp` reads) and
//! `states` (state vectors between the actions, as mCRL2's `tracepp -fstates`), `.aut`
//! and GraphViz DOT.

mod read;

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

pub use read::{read, step_lines, TraceError};

/// The first line of a muon trace file; the number is the format's version.
pub const HEADER: &str = "muon trace 1";

/// The mark of the step a lasso's cycle starts at.
pub const CYCLE: &str = "↻";

/// One step of a [`Trace`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceStep {
    /// The multi-action as mCRL2 prints it (`a(1)|b`, `tau`).
    pub action: String,
    /// The values of the summand's sum variables that mean something in the model, by name
    /// (evidence only; empty in explored traces).
    pub sums: Vec<(String, String)>,
    /// The state the step reaches, one printed value per parameter (`None` when the trace
    /// records no states).
    pub state: Option<Vec<String>>,
}

/// A path from the initial state. Invariant (checked by [`Trace::check`], which every
/// reader calls): either `initial` and every step's `state` are present with one value per
/// parameter, or none is; `loop_start` is below the number of steps.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    /// The names of the state's values (the process parameters; `state` for an LTS).
    pub params: Vec<String>,
    /// The initial state's printed values (`None` when the trace records no states).
    pub initial: Option<Vec<String>>,
    /// The steps, in order.
    pub steps: Vec<TraceStep>,
    /// For a lasso: the first step of the cycle (the last step returns to the state that
    /// step leaves from).
    pub loop_start: Option<usize>,
}

/// The forms a trace is printed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    /// Readable text: the heading, the initial state, one line per step.
    Text,
    /// muon's trace file: [`HEADER`], the parameter names, then the readable text.
    File,
    /// JSON for tools.
    Json,
    /// mCRL2's plain format: one multi-action per line.
    Plain,
    /// mCRL2's `states` format: each state vector, then the action taken from it.
    States,
    /// Aldebaran (`.aut`): the path as an LTS with states numbered along it.
    Aut,
    /// GraphViz DOT: the path with its states as node labels.
    Dot,
}

impl Trace {
    /// Whether the trace records its states.
    pub fn has_states(&self) -> bool {
        self.initial.is_some()
    }

    /// The state before step `i` (the initial state for 0), if states are recorded.
    pub fn state_before(&self, i: usize) -> Option<&[String]> {
        match i {
            0 => self.initial.as_deref(),
            _ => self.steps[i - 1].state.as_deref(),
        }
    }

    /// The parameters step `i` changes, as (name, old, new).
    pub fn changes(&self, i: usize) -> Vec<(&str, &str, &str)> {
        let (Some(from), Some(to)) = (self.state_before(i), self.steps[i].state.as_deref()) else {
            return Vec::new();
        };
        self.params
            .iter()
            .zip(from.iter().zip(to))
            .filter(|(_, (a, b))| a != b)
            .map(|(p, (a, b))| (p.as_str(), a.as_str(), b.as_str()))
            .collect()
    }

    /// Checks the invariant on [`Trace`].
    pub fn check(&self) -> Result<(), String> {
        let width = |s: &[String], what: &str| {
            if s.len() == self.params.len() {
                Ok(())
            } else {
                Err(format!(
                    "{what} has {} values but there are {} parameters",
                    s.len(),
                    self.params.len()
                ))
            }
        };
        match &self.initial {
            Some(init) => width(init, "the initial state")?,
            None if self.steps.iter().any(|s| s.state.is_some()) => {
                return Err("steps have states but the initial state is missing".into())
            }
            None => {}
        }
        for (i, s) in self.steps.iter().enumerate() {
            match &s.state {
                Some(st) => width(st, &format!("the state after step {}", i + 1))?,
                None if self.initial.is_some() => {
                    return Err(format!("step {} has no state", i + 1))
                }
                None => {}
            }
        }
        if let Some(l) = self.loop_start {
            if l >= self.steps.len() {
                return Err(format!(
                    "the cycle starts at step {} of {}",
                    l + 1,
                    self.steps.len()
                ));
            }
        }
        Ok(())
    }

    /// The heading of the readable text: `WHAT (N steps, a lasso…EXTRA):`.
    pub fn heading(&self, what: &str, extra: &str) -> String {
        let n = self.steps.len();
        let mut head = format!("{what} ({n} step{}", if n == 1 { "" } else { "s" });
        if self.loop_start.is_some() {
            let _ = write!(head, ", a lasso: the steps from {CYCLE} on repeat forever");
        }
        format!("{head}{extra}):")
    }

    /// The readable body: the initial state, then one line per step with its multi-action,
    /// the parameters it changes and its sum variables' values.
    pub fn body_text(&self) -> String {
        let width = self
            .steps
            .iter()
            .map(|s| s.action.chars().count())
            .max()
            .unwrap_or(0);
        let num = self.steps.len().to_string().len();
        let init = match &self.initial {
            None => NO_STATES.to_string(),
            Some(_) if self.params.is_empty() => NO_PARAMS.to_string(),
            Some(v) => state_text(&self.params, v),
        };
        let mut out = format!("  initial state: {init}\n");
        for (i, s) in self.steps.iter().enumerate() {
            let mark = if self.loop_start == Some(i) {
                CYCLE
            } else {
                " "
            };
            if !self.has_states() {
                let _ = writeln!(out, "  {:>num$} {mark}  {}", i + 1, s.action);
                continue;
            }
            let mut rest = self
                .changes(i)
                .iter()
                .map(|(p, a, b)| format!("{p}: {a} → {b}"))
                .collect::<Vec<_>>()
                .join(", ");
            if rest.is_empty() {
                rest = NO_CHANGES.to_string();
            }
            if !s.sums.is_empty() {
                let sums: Vec<String> = s.sums.iter().map(|(v, e)| format!("{v} = {e}")).collect();
                let _ = write!(rest, "   [{}]", sums.join(", "));
            }
            let _ = writeln!(
                out,
                "  {:>num$} {mark}  {:<width$}   {rest}",
                i + 1,
                s.action
            );
        }
        out
    }

    /// The trace as JSON: the parameter names, the initial state, per step its action, sum
    /// values, state reached and changes (`name: [old, new]`), and the lasso's start.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::{json, Map, Value};
        let steps: Vec<Value> = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let changed: Map<String, Value> = self
                    .changes(i)
                    .into_iter()
                    .map(|(p, a, b)| (p.to_string(), json!([a, b])))
                    .collect();
                let sums: Map<String, Value> = s
                    .sums
                    .iter()
                    .map(|(v, e)| (v.clone(), Value::from(e.as_str())))
                    .collect();
                json!({
                    "action": s.action,
                    "sum": sums,
                    "state": s.state,
                    "changed": changed,
                })
            })
            .collect();
        json!({
            "parameters": self.params,
            "initial": self.initial,
            "steps": steps,
            "loop_start": self.loop_start,
        })
    }

    /// The trace in `format`; `what` heads the readable text (`counterexample`, `trace to
    /// deadlock state 3`) and names the DOT graph.
    pub fn render(&self, format: TraceFormat, what: &str) -> String {
        match format {
            TraceFormat::Text => format!("{}\n{}", self.heading(what, ""), self.body_text()),
            TraceFormat::File => format!(
                "{HEADER}\nparameters:{}{}\n{}\n{}",
                if self.params.is_empty() { "" } else { " " },
                self.params.join(", "),
                self.heading(what, ""),
                self.body_text()
            ),
            TraceFormat::Json => format!("{:#}\n", self.to_json()),
            TraceFormat::Plain => self.plain(),
            TraceFormat::States => self.states(),
            TraceFormat::Aut => self.aut(),
            TraceFormat::Dot => self.dot(what),
        }
    }

    /// mCRL2's plain format: the multi-actions, one per line, then a newline (a lasso's
    /// cycle is listed once).
    fn plain(&self) -> String {
        let mut out = String::new();
        for (i, s) in self.steps.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&s.action);
        }
        out.push('\n');
        out
    }

    /// A state as mCRL2's `tracepp -fstates` prints it: `(v1,v2)`; nothing without states.
    fn vector(&self, i: usize) -> String {
        self.state_before(i)
            .map(|v| format!("({})", v.join(",")))
            .unwrap_or_default()
    }

    /// mCRL2's `states` format: per step the state it leaves and ` -ACTION-> `, then the
    /// last state.
    fn states(&self) -> String {
        let mut out = String::new();
        for (i, s) in self.steps.iter().enumerate() {
            let _ = writeln!(out, "{} -{}-> ", self.vector(i), s.action);
        }
        let _ = writeln!(out, "{}", self.vector(self.steps.len()));
        out
    }

    /// The state a step's target is numbered as in `.aut` and DOT: the next one along the
    /// path, or for a lasso's last step the state its cycle starts from.
    fn target(&self, i: usize) -> usize {
        match self.loop_start {
            Some(l) if i + 1 == self.steps.len() => l,
            _ => i + 1,
        }
    }

    /// The number of distinct states of the path (a lasso's last state is its cycle's first).
    fn num_states(&self) -> usize {
        self.steps.len() + usize::from(self.loop_start.is_none())
    }

    fn aut(&self) -> String {
        let mut out = format!("des (0,{},{})\n", self.steps.len(), self.num_states());
        for (i, s) in self.steps.iter().enumerate() {
            let label = s.action.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "({i},\"{label}\",{})", self.target(i));
        }
        out
    }

    fn dot(&self, name: &str) -> String {
        let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
        let mut out = format!("digraph \"{}\" {{\n", esc(name));
        out.push_str("  node [shape=box];\n");
        for i in 0..self.num_states() {
            let label = match self.state_before(i) {
                Some(v) if !self.params.is_empty() => state_text(&self.params, v),
                _ => String::new(),
            };
            let initial = if i == 0 { ", peripheries=2" } else { "" };
            let _ = writeln!(out, "  {i} [label=\"{}\"{initial}];", esc(&label));
        }
        for (i, s) in self.steps.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {i} -> {} [label=\"{}\"];",
                self.target(i),
                esc(&s.action)
            );
        }
        out.push_str("}\n");
        out
    }
}

/// The initial state of a model without parameters.
const NO_PARAMS: &str = "(no parameters)";
/// The initial state of a trace without states.
const NO_STATES: &str = "not recorded (the trace lists actions only)";
/// A step that changes no parameter.
const NO_CHANGES: &str = "(no parameter changes)";

/// A state as `name = value` pairs: `n = 1, q = [2]`.
fn state_text(names: &[String], values: &[String]) -> String {
    names
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{p} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}
