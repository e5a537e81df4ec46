//! Evidence: the transitions that prove a verdict, read from the solved BES of a PBES made by
//! `lps2pbes -c` ([`crate::pbes::lps2pbes::Lps2PbesOptions::counter_example`]), or by
//! `lts2pbes -c` on the LTS route ([`lts`]).
//!
//! Every instance of a step equation `EvStep<i>_<k>(c, e, d)` stands for one transition:
//! summand `i` taken from state `d` with sum values `e`; instantiation records it on the BES
//! edge from the instance that takes it to what it leads to
//! ([`crate::pbes::inst::EdgeSteps`]), so the game has the verdict's vertices. The proof is
//! the part of the game that the winner's strategy keeps: at the winner's vertices the
//! strategy's successor, at the opponent's vertices every successor (each of them is lost by
//! the opponent). [`read`] walks that part once and gives one [`Evidence`] with two forms:
//! - the **evidence LTS** ([`Evidence::lts`]): the steps on the proof's edges, i.e. every
//!   branch the formula requires and the chosen branch where it lets the prover choose, with
//!   the model's own action labels;
//! - the **trace** ([`Evidence::trace`]): the shortest path of the proof (in steps) from the
//!   initial vertex to a constant — a finite counterexample or witness, its last step
//!   included — or, when every path of the proof is infinite, a lasso
//!   ([`Trace::loop_start`] says where its cycle begins).
//!
//! The [`check`] module confirms evidence independently of the PBES and its solver: every
//! step replays on the LPS, a lasso closes, and the formula, checked afresh on the evidence
//! LTS (by the explicit-state evaluator of [`explicit`], or through `lts2pbes` where that
//! does not cover the formula), gives the same verdict. Evidence that fails is an internal error
//! ([`EvidenceError::Unchecked`]), never printed. [`text`] renders traces for people (one
//! step per line, changed parameters by name) and for tools (JSON).

pub mod build;
pub mod check;
pub mod explicit;
pub mod lts;
mod read;
pub mod text;

use miette::Diagnostic;
use thiserror::Error;

use crate::data::ir::{DataExpr, Var};
use crate::lts::{Lts, StateId};
use crate::process::ir::Action;

pub use lts::read_lts;
pub use read::read;

/// Why no evidence can be given.
#[derive(Debug, Error, Diagnostic)]
pub enum EvidenceError {
    /// The PBES was made without counter-example information.
    #[error("the PBES has no counter-example information, so no evidence can be read from it")]
    #[diagnostic(
        code(muon::evidence::no_steps),
        help("generate the PBES with `muon lps2pbes -c` or `muon lts2pbes -c` (`--counter-example`); with `-c`, a PBES has no step equations only when the formula's modalities match no summand or transition, and then the proof takes no step")
    )]
    NoSteps,
    /// The solver stopped before building the whole game (the verdict was decided early).
    #[error("the BES was not built in full, so there is no game to read evidence from")]
    #[diagnostic(code(muon::evidence::no_game))]
    NoGame,
    /// The data engine failed on a step.
    #[error("evidence: the data engine failed on a step: {0}")]
    #[diagnostic(code(muon::evidence::data))]
    Data(String),
    /// Re-checking the formula on the evidence LTS failed to run.
    #[error("evidence: re-checking the formula on the evidence LTS failed: {0}")]
    #[diagnostic(code(muon::evidence::recheck))]
    Recheck(String),
    /// Evidence did not pass the independent check: a bug in muon, reported instead of wrong
    /// evidence.
    #[error("internal error: the evidence failed its independent check: {0}")]
    #[diagnostic(
        code(muon::evidence::unchecked),
        help("please report this with the specification and formula; `--no-evidence` gives the verdict alone")
    )]
    Unchecked(String),
}

/// One transition of the evidence: summand `summand` from `from` with `sum_values`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The index of the LPS summand; on the LTS route, of the transition in
    /// [`Lts::transitions`].
    pub summand: usize,
    /// The multi-action as mCRL2 prints it (`tau` for the empty one).
    pub action: String,
    /// The multi-action, typed, its arguments in normal form (empty for `tau`).
    pub actions: Vec<Action>,
    /// The process parameter values before the step (on the LTS route, the state number:
    /// [`lts::state`]).
    pub from: Vec<DataExpr>,
    /// The values of the summand's sum variables.
    pub sum_values: Vec<(Var, DataExpr)>,
    /// The process parameter values after the step.
    pub to: Vec<DataExpr>,
}

/// A path of the evidence from the initial state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The initial state.
    pub initial: Vec<DataExpr>,
    /// The steps, in order; each leaves from the state the previous one reached.
    pub steps: Vec<Step>,
    /// For a lasso: the index of the first step of the cycle (the steps from there on repeat
    /// forever; the last step returns to the state that step leaves from).
    pub loop_start: Option<usize>,
}

impl Trace {
    /// The actions of the steps, in order.
    pub fn actions(&self) -> Vec<&str> {
        self.steps.iter().map(|s| s.action.as_str()).collect()
    }

    /// The state before step `i` (the initial state for 0).
    pub fn state_before(&self, i: usize) -> &[DataExpr] {
        match i {
            0 => &self.initial,
            _ => &self.steps[i - 1].to,
        }
    }
}

/// The evidence of one verdict (see the module docs).
#[derive(Clone, Debug)]
pub struct Evidence {
    /// The verdict the evidence proves.
    pub value: bool,
    /// The shortest path of the proof.
    pub trace: Trace,
    /// The evidence LTS: state 0 is the initial state.
    pub lts: Lts,
    /// The typed multi-action of each label of [`Evidence::lts`] (for re-checking; empty on
    /// the LTS route when the labels were not typed).
    pub labels: Vec<Vec<Action>>,
    /// The state of [`Evidence::lts`] at each position of the trace: the initial state,
    /// then the state each step reaches.
    pub trace_states: Vec<StateId>,
    /// On the LTS route, each state's number in the model LTS (the evidence LTS is a part
    /// of the model, its states renumbered from 0 in order of first use); empty on the
    /// routes over an LPS, whose states are parameter values.
    pub model_states: Vec<u32>,
}

impl Evidence {
    /// "counterexample" for a false verdict, "witness" for a true one.
    pub fn kind(&self) -> &'static str {
        if self.value {
            "witness"
        } else {
            "counterexample"
        }
    }
}

/// The model evidence is about, for showing states and steps: an LPS (states are its
/// parameters) or an LTS (a state is its number, shown as the one parameter `state`).
#[derive(Clone, Copy, Debug)]
pub enum Model<'a> {
    /// The LPS route.
    Lps(&'a crate::lps::Lps),
    /// The LTS route.
    Lts,
}

impl<'a> From<&'a crate::lps::Lps> for Model<'a> {
    fn from(lps: &'a crate::lps::Lps) -> Self {
        Model::Lps(lps)
    }
}

impl<'a> From<&'a Lts> for Model<'a> {
    fn from(_: &'a Lts) -> Self {
        Model::Lts
    }
}

impl<'a> Model<'a> {
    /// The names of the state's values.
    pub fn param_names(&self) -> Vec<String> {
        match self {
            Model::Lps(lps) => lps.params.iter().map(|p| p.name.to_string()).collect(),
            Model::Lts => vec!["state".to_string()],
        }
    }

    /// What a step's index counts: LPS summands or LTS transitions.
    pub fn step_kind(&self) -> &'static str {
        match self {
            Model::Lps(_) => "summand",
            Model::Lts => "transition",
        }
    }

    /// The sum values of `step` that mean something in the model, under the model's names:
    /// on the LPS route [`crate::lps::Origin::model_sums`] (the lineariser's selectors and
    /// the merged variables the clustered member that fired does not use are left out).
    pub fn model_sums(self, step: &'a Step) -> Vec<(crate::data::ir::Name, &'a DataExpr)> {
        match self {
            Model::Lps(lps) => match lps.summands.get(step.summand) {
                Some(s) => s.origin.model_sums(&step.sum_values),
                None => Vec::new(),
            },
            Model::Lts => Vec::new(),
        }
    }
}
