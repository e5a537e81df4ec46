//! Simulating an LPS by hand (`muon sim`, as mCRL2's `lpssim` and `lpsxsim`): the current
//! state with its parameters by name, its enabled transitions with their data (the
//! multi-action, the parameters each changes, the sum variables' values), and a history that
//! one walks along by choosing transitions, undoing them and going back and forward.
//!
//! This module is the simulator without a screen: [`Simulator`] (state, transitions,
//! history), breadth-first search for a deadlock or an action from the current state
//! (`search.rs`: the shortest path, walked to), traces loaded and replayed or saved
//! (`replay.rs`: any trace [`crate::lts::trace::read`] reads, mCRL2's plain format among
//! them; saved in muon's trace format, JSON or mCRL2's plain format), and the commands both
//! front ends give it (`command.rs`). The front ends are the plain-text script mode
//! ([`script`], commands on standard input) and the terminal screen ([`ui`], ratatui).
//!
//! States are rows of the data engine's `TermId`s as [`LpsSystem`] explores them; each
//! transition is found with the summand and the sum values that take it
//! ([`LpsSystem::steps`]) and printed by the one printer of data ([`crate::data::print`]),
//! so the values read as in `lps2lts -t`'s trace files and `check`'s evidence.

mod command;
mod replay;
pub mod script;
mod search;
pub mod ui;

use miette::Diagnostic;
use thiserror::Error;

use crate::artifact::ArtifactError;
use crate::data::{TermId, TermStore};
use crate::lps::Lps;
use crate::lts::lps::{LpsError, LpsSystem, LpsWorker};
use crate::lts::trace::{Trace, TraceError, TraceStep};
use crate::lts::TransitionSystem;

pub use command::{execute, help_text, Choice, Command, Outcome, SaveFormat, COMMANDS};
pub use replay::{same_label, Loaded};
pub use search::{Found, Target};

/// The most states a search looks at before it gives up, unless told otherwise.
pub const DEFAULT_SEARCH_LIMIT: usize = 1_000_000;

/// What can go wrong while simulating.
#[derive(Debug, Error, Diagnostic)]
pub enum SimError {
    /// The LPS cannot be compiled or a state's transitions cannot be computed.
    #[error("cannot compute the transitions: {0}")]
    #[diagnostic(
        code(muon::sim::model),
        help("the LPS's data must give every condition and value a closed normal form, as for `lps2lts`")
    )]
    Model(#[from] LpsError),
    /// A trace file cannot be read.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Trace(#[from] TraceError),
    /// A trace was read but does not replay on the model.
    #[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    #[diagnostic(code(muon::sim::replay))]
    Replay {
        /// The trace file.
        file: String,
        /// The line of the step that does not replay, when the format has lines.
        line: Option<usize>,
        /// What does not match.
        message: String,
        /// What to do.
        #[help]
        help: String,
    },
    /// A saved trace cannot be written.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Write(#[from] ArtifactError),
    /// A command cannot be carried out here (no such transition, nothing to undo, …).
    #[error("{0}")]
    #[diagnostic(code(muon::sim::command))]
    Command(String),
}

/// One transition of a state: where it comes from, its label and the state it reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    /// The summand that takes it (from 0, in LPS order).
    pub summand: usize,
    /// The summand's sum variables with their values, printed.
    pub sums: Vec<(String, String)>,
    /// The multi-action as mCRL2 prints it (`a(1)|b`, `tau`).
    pub label: String,
    /// The state reached, as a row of terms.
    pub row: Vec<u32>,
    /// The state reached, one printed value per parameter.
    pub values: Vec<String>,
    /// The parameters it changes: (parameter index, old value, new value).
    pub changes: Vec<(usize, String, String)>,
}

impl Transition {
    /// The changes as `n: 0 → 1, q: [] → [0]` (or `(no parameter changes)`) with the sum
    /// values as `   [e = 1]` after them, as trace files print a step.
    pub fn describe(&self, params: &[String]) -> String {
        let mut out = self
            .changes
            .iter()
            .map(|(p, a, b)| format!("{}: {a} → {b}", params[*p]))
            .collect::<Vec<_>>()
            .join(", ");
        if out.is_empty() {
            out.push_str("(no parameter changes)");
        }
        if !self.sums.is_empty() {
            let sums: Vec<String> = self
                .sums
                .iter()
                .map(|(v, e)| format!("{v} = {e}"))
                .collect();
            out.push_str(&format!("   [{}]", sums.join(", ")));
        }
        out
    }
}

/// The widths of the columns the front ends list `ts` in: the transition's number (from 1)
/// and its multi-action.
fn column_widths(ts: &[Transition]) -> (usize, usize) {
    let num = ts.len().to_string().len();
    let label = ts
        .iter()
        .map(|t| t.label.chars().count())
        .max()
        .unwrap_or(0);
    (num, label)
}

/// A state of the history and the step that reached it.
#[derive(Clone, Debug)]
struct Visit {
    row: Vec<u32>,
    values: Vec<String>,
    /// The step into this state (`None` for the initial state).
    via: Option<Transition>,
}

/// An LPS being simulated: the history of states visited from the initial state, the
/// position in it, and the transitions of the state at that position.
///
/// Invariant: `history` is never empty and starts with the initial state, each later visit
/// is reached from the one before by its `via` transition, `pos < history.len()`, and
/// `enabled` are the transitions of `history[pos]`.
pub struct Simulator<'s> {
    sys: LpsSystem<'s>,
    worker: LpsWorker<'s>,
    params: Vec<String>,
    /// Per LPS summand, the names of its sum variables.
    sum_names: Vec<Vec<String>>,
    history: Vec<Visit>,
    pos: usize,
    enabled: Vec<Transition>,
    /// The most states a search looks at ([`DEFAULT_SEARCH_LIMIT`] unless set).
    pub search_limit: usize,
}

impl<'s> Simulator<'s> {
    /// A simulator of `lps` at its initial state; terms live in `store`. `stack_limit` is
    /// the rewriter's stack budget in bytes (the calling thread's stack must be bigger),
    /// `None` for the rewriter's default.
    pub fn new(
        lps: &Lps,
        store: &'s TermStore,
        stack_limit: Option<usize>,
    ) -> Result<Simulator<'s>, SimError> {
        let sys = LpsSystem::new(lps, store, stack_limit)?;
        let mut worker = sys.worker();
        let mut row = Vec::new();
        sys.initial_state(&mut worker, &mut row)?;
        let values = sys.state_values(&row);
        let mut sim = Simulator {
            params: lps.params.iter().map(|v| v.name.to_string()).collect(),
            sum_names: lps
                .summands
                .iter()
                .map(|s| s.sum_vars.iter().map(|v| v.name.to_string()).collect())
                .collect(),
            sys,
            worker,
            history: vec![Visit {
                row,
                values,
                via: None,
            }],
            pos: 0,
            enabled: Vec::new(),
            search_limit: DEFAULT_SEARCH_LIMIT,
        };
        sim.refresh()?;
        Ok(sim)
    }

    /// The process parameters' names.
    pub fn params(&self) -> &[String] {
        &self.params
    }

    /// The current state's values, one per parameter.
    pub fn state(&self) -> &[String] {
        &self.history[self.pos].values
    }

    /// The position in the history: the number of steps from the initial state to the
    /// current state.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The number of steps in the history (some may lie ahead of the current state after
    /// going back).
    pub fn len(&self) -> usize {
        self.history.len() - 1
    }

    /// Whether the history has no steps.
    pub fn is_empty(&self) -> bool {
        self.history.len() == 1
    }

    /// The transitions of the current state, in the order of the LPS's summands.
    pub fn transitions(&self) -> &[Transition] {
        &self.enabled
    }

    /// Step `i` of the history (from 1): the transition into the state at position `i`.
    pub fn step(&self, i: usize) -> Option<&Transition> {
        self.history.get(i).and_then(|v| v.via.as_ref())
    }

    /// The values of the state at position `i` of the history.
    pub fn state_at(&self, i: usize) -> Option<&[String]> {
        self.history.get(i).map(|v| v.values.as_slice())
    }

    /// Takes transition `i` (from 0) of the current state. When it is the step the history
    /// already has next, the history ahead is kept; otherwise it is replaced by this step.
    pub fn take(&mut self, i: usize) -> Result<(), SimError> {
        let Some(t) = self.enabled.get(i).cloned() else {
            return Err(SimError::Command(match self.enabled.len() {
                0 => "there is no transition to take: the state is a deadlock".into(),
                n => format!(
                    "there is no transition {}: the state has {n} (numbered from 1)",
                    i + 1
                ),
            }));
        };
        let next = self.pos + 1;
        if self.history.get(next).and_then(|v| v.via.as_ref()) != Some(&t) {
            self.history.truncate(next);
            self.history.push(Visit {
                row: t.row.clone(),
                values: t.values.clone(),
                via: Some(t),
            });
        }
        self.pos = next;
        self.refresh()
    }

    /// Undoes the last step to the current state: goes back one step and forgets the steps
    /// from there on. False (nothing changes) at the initial state.
    pub fn undo(&mut self) -> Result<bool, SimError> {
        if self.pos == 0 {
            return Ok(false);
        }
        self.pos -= 1;
        self.history.truncate(self.pos + 1);
        self.refresh()?;
        Ok(true)
    }

    /// Goes back one step, keeping the history ahead. False at the initial state.
    pub fn back(&mut self) -> Result<bool, SimError> {
        if self.pos == 0 {
            return Ok(false);
        }
        self.goto(self.pos - 1)?;
        Ok(true)
    }

    /// Goes forward one step along the history. False at its end.
    pub fn forward(&mut self) -> Result<bool, SimError> {
        if self.pos == self.len() {
            return Ok(false);
        }
        self.goto(self.pos + 1)?;
        Ok(true)
    }

    /// Goes to position `n` of the history (0: the initial state), keeping the history.
    pub fn goto(&mut self, n: usize) -> Result<(), SimError> {
        if n > self.len() {
            return Err(SimError::Command(format!(
                "there is no position {n}: the history has {} step{} (positions 0 to {})",
                self.len(),
                if self.len() == 1 { "" } else { "s" },
                self.len()
            )));
        }
        self.pos = n;
        self.refresh()
    }

    /// The whole history as a trace (every step, also those ahead of the current state).
    pub fn trace(&self) -> Trace {
        Trace {
            params: self.params.clone(),
            initial: Some(self.history[0].values.clone()),
            steps: self.history[1..]
                .iter()
                .map(|v| {
                    let t = v
                        .via
                        .as_ref()
                        .expect("every visit but the first has a step");
                    TraceStep {
                        action: t.label.clone(),
                        sums: t.sums.clone(),
                        state: Some(v.values.clone()),
                    }
                })
                .collect(),
            loop_start: None,
        }
    }

    /// Recomputes the transitions of the current state.
    fn refresh(&mut self) -> Result<(), SimError> {
        let row = self.history[self.pos].row.clone();
        self.enabled = self.expand(&row)?;
        Ok(())
    }

    /// Every transition of the state `row` (whose printed values are `from`).
    fn expand(&mut self, row: &[u32]) -> Result<Vec<Transition>, SimError> {
        let mut raw = Vec::new();
        let sys = &self.sys;
        sys.steps(&mut self.worker, row, &mut |summand, sums, key, next| {
            raw.push((
                summand,
                sums.to_vec(),
                sys.label(key).text().to_string(),
                next.to_vec(),
            ));
        })?;
        let from = self.sys.state_values(row);
        Ok(raw
            .into_iter()
            .map(|(summand, sums, label, next)| {
                let values = self.sys.state_values(&next);
                let changes = from
                    .iter()
                    .zip(&values)
                    .enumerate()
                    .filter(|(_, (a, b))| a != b)
                    .map(|(i, (a, b))| (i, a.clone(), b.clone()))
                    .collect();
                let sums = self.sum_names[summand]
                    .iter()
                    .zip(&sums)
                    .map(|(n, t)| (n.clone(), self.print(*t)))
                    .collect();
                Transition {
                    summand,
                    sums,
                    label,
                    row: next,
                    values,
                    changes,
                }
            })
            .collect())
    }

    fn print(&self, t: TermId) -> String {
        crate::data::print::data_expr_to_string(&self.sys.expr(t))
    }

    /// Replaces the history by `visits` after the initial state, at position `pos`.
    fn replace_history(&mut self, steps: Vec<Transition>, pos: usize) -> Result<(), SimError> {
        self.history.truncate(1);
        for t in steps {
            self.history.push(Visit {
                row: t.row.clone(),
                values: t.values.clone(),
                via: Some(t),
            });
        }
        self.pos = pos.min(self.len());
        self.refresh()
    }
}
