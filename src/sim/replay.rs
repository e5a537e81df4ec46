//! Traces in and out of the simulator: a trace file (any form [`crate::lts::trace::read`]
//! reads: muon's trace files of `lps2lts -t`, `check`'s evidence `.txt` and `.json`, JSON,
//! mCRL2's plain format) replayed on the model from its initial state, and the history
//! saved in muon's trace format, JSON or mCRL2's plain format.
//!
//! Replaying keeps, step by step, every state the steps so far may have reached: a step
//! goes on from each of them by the transitions whose printed multi-action is the step's
//! (compared action by action, without regard to spaces or the order of a multi-action's
//! actions) and, when the trace records states of the model's parameters, whose state is
//! the step's. So a plain trace replays whenever some path of the model has its actions,
//! even where a label alone does not say which transition was taken. A step that no state
//! can take is an error with its file and line.

use std::path::Path;

use super::{SimError, Simulator, Transition};
use crate::artifact::{write_output, ArtifactError};
use crate::lts::label::parse_multi_action;
use crate::lts::trace::{self, Trace, TraceFormat};

/// What loading a trace did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The steps replayed.
    pub steps: usize,
    /// Whether the trace's states were matched as well as its actions.
    pub by_states: bool,
    /// Why the trace's states were not matched although it has some.
    pub note: Option<String>,
}

/// The most states one step of a replay may keep apart.
const MAX_FRONTIER: usize = 100_000;

/// Whether two printed multi-actions are the same: the same actions with the same arguments
/// (spaces aside), in any order.
pub fn same_label(a: &str, b: &str) -> bool {
    canonical(a) == canonical(b)
}

/// A multi-action's text without spaces, its actions sorted.
fn canonical(text: &str) -> String {
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    match parse_multi_action(text) {
        Ok(parts) if parts.is_empty() => "tau".into(),
        Ok(parts) => {
            let mut acts: Vec<String> = parts
                .iter()
                .map(|p| {
                    if p.args.is_empty() {
                        p.name.clone()
                    } else {
                        let args: Vec<String> = p.args.iter().map(|a| squeeze(a)).collect();
                        format!("{}({})", p.name, args.join(","))
                    }
                })
                .collect();
            acts.sort();
            acts.join("|")
        }
        Err(_) => squeeze(text),
    }
}

/// One state a replay may have reached: its step into it and the state it came from.
struct Node {
    step: Transition,
    parent: usize,
}

impl Simulator<'_> {
    /// Reads the trace file `path` (its bytes `bytes`) and replays it from the initial
    /// state; on success the history is the trace and the current state the initial one.
    pub fn load(&mut self, bytes: &[u8], path: &str) -> Result<Loaded, SimError> {
        let (trace, _) = trace::read(bytes, path)?;
        let lines = trace::step_lines(bytes);
        self.replay(&trace, path, &lines)
    }

    /// Replays `trace` (read from `file`, its steps on `lines`, see
    /// [`trace::step_lines`]) from the initial state and makes it the history.
    pub fn replay(
        &mut self,
        trace: &Trace,
        file: &str,
        lines: &[usize],
    ) -> Result<Loaded, SimError> {
        let by_states = trace.has_states() && trace.params == self.params;
        let note = (trace.has_states() && !by_states).then(|| {
            format!(
                "the trace's parameters ({}) are not the model's ({}): it was replayed by its actions only",
                trace.params.join(", "),
                self.params.join(", ")
            )
        });
        let err = |line: Option<usize>, message: String, help: &str| SimError::Replay {
            file: file.to_string(),
            line,
            message,
            help: help.to_string(),
        };
        if by_states {
            let init = trace.initial.as_deref().unwrap_or_default();
            if init != self.history[0].values.as_slice() {
                return Err(err(
                    None,
                    format!(
                        "the trace starts in {}, but the model's initial state is {}",
                        state_text(&self.params, init),
                        state_text(&self.params, &self.history[0].values)
                    ),
                    "a trace replays from the model's initial state: give a trace of this model",
                ));
            }
        }
        let initial = self.history[0].row.clone();
        // Per step, the states reached (layer 0: the initial state, with no step into it).
        let mut layers: Vec<Vec<Node>> = Vec::with_capacity(trace.steps.len());
        let mut frontier: Vec<Vec<u32>> = vec![initial];
        for (i, step) in trace.steps.iter().enumerate() {
            let want_state = by_states.then_some(step.state.as_deref()).flatten();
            let mut layer: Vec<Node> = Vec::new();
            let mut seen = rustc_hash::FxHashSet::default();
            let mut labels: Vec<String> = Vec::new();
            let mut wrong_state: Option<Vec<String>> = None;
            let line = lines.get(i).copied();
            for (p, row) in frontier.iter().enumerate() {
                // A wide frontier takes long: a stop of the run's budget (`--timeout`,
                // `--memory-limit`, SIGTERM) ends the replay here, acknowledged, so that the
                // script or the screen ends (the terminal put back) and the run reports it.
                if let Some(reason) = crate::budget::poll_stop() {
                    return Err(err(
                        line,
                        format!("the replay stopped at step {}: {}", i + 1, reason.describe()),
                        "raise --timeout or --memory-limit, or give a trace with its states (muon's trace file or JSON), which replays without following every path its actions allow",
                    ));
                }
                for t in self.expand(row)? {
                    if !same_label(&t.label, &step.action) {
                        if !labels.contains(&t.label) {
                            labels.push(t.label.clone());
                        }
                        continue;
                    }
                    if want_state.is_some_and(|s| s != t.values.as_slice()) {
                        wrong_state.get_or_insert(t.values.clone());
                        continue;
                    }
                    if seen.insert(t.row.clone()) {
                        layer.push(Node { step: t, parent: p });
                    }
                }
            }
            let before = match i {
                0 => "the initial state".to_string(),
                _ if frontier.len() == 1 => format!("the state after step {i}"),
                _ => format!("the {} states the first {i} steps reach", frontier.len()),
            };
            if layer.is_empty() {
                let message = match wrong_state {
                    Some(got) => format!(
                        "step {} `{}` leads from {before} to {}, not to the trace's state {}",
                        i + 1,
                        step.action,
                        state_text(&self.params, &got),
                        state_text(&self.params, want_state.unwrap_or_default())
                    ),
                    None => {
                        let enabled = match labels.len() {
                            0 => "none: it is a deadlock".to_string(),
                            n if n > 8 => format!("{}, and {} more", labels[..8].join(", "), n - 8),
                            _ => labels.join(", "),
                        };
                        format!(
                            "step {} `{}` is no transition of {before}; the transitions there are: {enabled}",
                            i + 1,
                            step.action
                        )
                    }
                };
                return Err(err(
                    line,
                    message,
                    "a trace replays from the model's initial state, each step a transition with that multi-action: give a trace of this model (of the same specification, linearised the same way)",
                ));
            }
            if layer.len() > MAX_FRONTIER {
                return Err(err(
                    line,
                    format!(
                        "after step {} the trace may have reached more than {MAX_FRONTIER} states: its actions do not say which path it takes",
                        i + 1
                    ),
                    "give a trace with its states (muon's trace file or JSON), which says which transition each step takes",
                ));
            }
            frontier = layer.iter().map(|n| n.step.row.clone()).collect();
            layers.push(layer);
        }
        // The path back from the first state the last step reached.
        let mut steps = Vec::with_capacity(layers.len());
        let mut at = 0;
        for layer in layers.iter_mut().rev() {
            let node = layer.swap_remove(at);
            at = node.parent;
            steps.push(node.step);
        }
        steps.reverse();
        let n = steps.len();
        self.replace_history(steps, 0)?;
        Ok(Loaded {
            steps: n,
            by_states,
            note,
        })
    }

    /// Writes the whole history to `path` in `format` ([`TraceFormat::File`],
    /// [`TraceFormat::Json`] or [`TraceFormat::Plain`]), atomically.
    pub fn save(&self, path: &Path, format: TraceFormat, what: &str) -> Result<(), SimError> {
        let text = self.trace().render(format, what);
        let name = path.display().to_string();
        write_output(Some(path), |w| {
            w.write_all(text.as_bytes())
                .map_err(|source| ArtifactError::Write { path: name, source })
        })?;
        Ok(())
    }
}

/// A state as `n = 1, q = [0]`.
pub(super) fn state_text(params: &[String], values: &[String]) -> String {
    if params.is_empty() {
        return "(no parameters)".into();
    }
    params
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{p} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}
