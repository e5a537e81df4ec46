//! On-the-fly checking of regular safety formulas (`muon check --engine explore`): the
//! formula is checked while the state space is explored, with no PBES and no BES, so its
//! cost is that of `lps2lts` (plus one word per state when the formula needs to remember
//! something about the path).
//!
//! # The fragment
//!
//! Conjunctions of `[R] φ` ([`fragment`]): `R` a regular formula over action formulas
//! (`.`, `+`, `*`, postfix `+`, data and quantifiers in the action formulas, `true`); `φ`
//! *local*: a Boolean combination (quantifiers included) of `true`, `false`, closed
//! `val(..)` and one-step modalities `[α] ψ` / `<α> ψ` whose `ψ` is data-only, such as
//! `forall p, q: Nat . [suspect(p, q)] val(q == 1)`. A local `φ` is decided by the labels
//! of a state's outgoing transitions alone; a quantifier ranges over the values in those
//! labels as in the evidence re-check (`evidence::explicit`, whose matcher and evaluator
//! are used here: one implementation of each). Anything else (fixpoints, `<R>` diamonds, a
//! quantifier around `[R]`, a modality nested in `φ`) is refused before exploring, with the
//! construct and the reason ([`MonitorError::Outside`]).
//!
//! # The route
//!
//! The regular formulas become one minimal DFA ([`automaton`]) whose class is the extra
//! word of a product state ([`product`]); the explorer explores the product with its usual
//! breadth-first search (`--threads` included: the class is a function of the path's
//! letters, so state numbering stays deterministic). A product state whose class accepts a
//! conjunct and whose `φ` fails gets a self-loop labelled [`product::VIOLATION`]; the
//! explorer's action detection stops at the first (`stop_after_reports = 1`) and its
//! parent pointers give a shortest path to it: the counterexample ([`evidence`]), which is
//! then confirmed as `check`'s evidence is (`evidence::check`). A true verdict has no
//! evidence: it is the exploration of every reachable product state.

pub mod automaton;
pub mod cluster;
pub mod evidence;
pub mod fragment;
pub mod product;

use miette::Diagnostic;
use thiserror::Error;

use crate::budget::StopReason;
use crate::data::{Rewriter, TermStore};
use crate::evidence::explicit::local_holds;
use crate::evidence::{Evidence, EvidenceError};
use crate::lps::Lps;
use crate::lts::lps::LpsSystem;
use crate::lts::{ExploreOptions, Explorer, TransitionSystem};
use crate::modal::ir::{ActionFormula, FormulaSpec};
use crate::modal::preprocess::normalise_formula;
use crate::print::state_formula_to_string;
use automaton::Dfa;
use fragment::Conjunct;
use product::{Local, Monitor, Product};

/// Why a formula cannot be checked on the fly, or the check failed.
#[derive(Debug, Error, Diagnostic)]
pub enum MonitorError {
    /// The formula is outside the fragment.
    #[error("`--engine explore` checks regular safety formulas only: in `{at}`, {reason}")]
    #[diagnostic(
        code(muon::monitor::outside),
        help("check it with the default `--engine pbes`; `--engine explore` takes conjunctions of `[R] φ` with φ local (`true`, `false`, `val(..)`, `[a] val(..)`, `<a> true`, and Boolean combinations and quantifiers of these)")
    )]
    Outside {
        /// The offending subformula, printed.
        at: String,
        /// Why it is outside.
        reason: &'static str,
    },
    /// The automaton would be too big.
    #[error("`--engine explore`: {0}")]
    #[diagnostic(
        code(muon::monitor::automaton),
        help("check it with the default `--engine pbes`")
    )]
    Automaton(String),
    /// The data engine failed on the formula or the LPS.
    #[error("`--engine explore`: {0}")]
    #[diagnostic(code(muon::monitor::data))]
    Data(String),
    /// Exploration failed.
    #[error("`--engine explore`: {0}")]
    #[diagnostic(code(muon::monitor::explore))]
    Explore(String),
    /// The distributed run failed (a process lost or never connected, or a worker's error).
    #[error("`--engine explore` on several workers: {0}")]
    #[diagnostic(
        code(muon::monitor::cluster),
        help("start every process with the same command line but --process, and the same --hosts file; the processes' own messages say more")
    )]
    Cluster(String),
    /// The counterexample could not be built or confirmed.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Evidence(#[from] EvidenceError),
}

/// A formula of the fragment with the minimal DFA of its regular formulas: what deciding
/// whether the monitor takes the formula builds ([`automaton_of`]), kept so that checking
/// it ([`check_automaton`]) does not build it again.
#[derive(Clone, Debug)]
pub struct Automaton {
    /// The conjuncts `[R] φ`.
    pub conjuncts: Vec<Conjunct>,
    /// The minimal DFA of their regular formulas.
    pub dfa: Dfa,
}

/// The conjuncts of `formula` and their automaton; refuses a formula outside the fragment,
/// or whose automaton would be too big, before anything is explored.
pub fn automaton_of(formula: &FormulaSpec) -> Result<Automaton, MonitorError> {
    let conjuncts =
        fragment::conjuncts(&formula.formula).map_err(|(r, at)| MonitorError::Outside {
            at: state_formula_to_string(&at),
            reason: r.text(),
        })?;
    let dfa = automaton::build(&conjuncts).map_err(|e| MonitorError::Automaton(e.to_string()))?;
    Ok(Automaton { conjuncts, dfa })
}

/// Compiles `formula` for monitoring, with the data engine `rw` for the parts of `φ` that
/// are decided once; refuses a formula outside the fragment.
pub fn compile(formula: &FormulaSpec, rw: Rewriter<'_>) -> Result<Monitor, MonitorError> {
    compile_automaton(automaton_of(formula)?, rw)
}

/// [`compile`] of a formula whose [`Automaton`] is built.
fn compile_automaton(a: Automaton, rw: Rewriter<'_>) -> Result<Monitor, MonitorError> {
    let Automaton { conjuncts, dfa } = a;
    let mut rw = rw;
    let mut locals = Vec::with_capacity(conjuncts.len());
    for c in &conjuncts {
        let phi = normalise_formula(&c.phi, Default::default())
            .map_err(|e| MonitorError::Data(e.to_string()))?;
        let mut all_true = true;
        let mut modalities = 0;
        fragment::modality_actions(&c.phi, &mut |a| {
            modalities += 1;
            all_true &= *a == ActionFormula::True;
        });
        let decide = |rw, with: bool| decide(rw, with, &phi);
        let local = if modalities == 0 {
            let (back, v) = decide(rw, false);
            rw = back;
            Local::Const(v?)
        } else if all_true && !fragment::quantifier_over_modality(&c.phi) {
            let (back, with) = decide(rw, true);
            let (back, without) = decide(back, false);
            rw = back;
            Local::Successors {
                with: with?,
                without: without?,
            }
        } else {
            Local::Labels(phi)
        };
        locals.push(local);
    }
    Ok(Monitor {
        conjuncts,
        dfa,
        locals,
    })
}

/// The value of the local `phi` in a state with one `tau` transition (`with`) or none.
fn decide<'s>(
    rw: Rewriter<'s>,
    with: bool,
    phi: &crate::modal::ir::StateFormula,
) -> (Rewriter<'s>, Result<bool, MonitorError>) {
    let labels = if with { vec![Vec::new()] } else { Vec::new() };
    let (rw, r) = local_holds(rw, labels, phi);
    (rw, r.map_err(|e| MonitorError::Data(e.0)))
}

/// How [`check`] runs.
#[derive(Clone, Default)]
pub struct MonitorOptions {
    /// Exploring threads (0: all cores).
    pub threads: usize,
    /// Stack of the exploring threads.
    pub thread_stack: Option<usize>,
    /// Build the counterexample of a false verdict.
    pub evidence: bool,
    /// Show progress on standard error (`None`: nothing).
    pub progress: Option<crate::progress::Progress>,
}

/// The verdict of [`check`].
#[derive(Debug)]
pub enum Verdict {
    /// Every reachable product state satisfies its `φ`.
    Holds,
    /// A reachable product state violates a `φ`: its shortest path, as evidence (when
    /// asked for), and the path's length.
    Violated {
        /// The counterexample.
        evidence: Option<Box<Evidence>>,
        /// Its number of steps (known when parent pointers were kept, with evidence).
        steps: Option<usize>,
    },
    /// The budget or Ctrl-C stopped exploration before a verdict.
    Stopped(StopReason),
}

/// What [`check`] found.
#[derive(Debug)]
pub struct Outcome {
    /// The verdict.
    pub verdict: Verdict,
    /// Product states found.
    pub states: u64,
    /// Product transitions found (the violation self-loop included).
    pub transitions: u64,
    /// Whether the product's rows carry the automaton's class (more than one live class).
    pub class_word: bool,
    /// Exploration time in seconds.
    pub seconds: f64,
}

/// Checks `formula` on `lps` by exploring their product (see the module docs).
pub fn check(
    lps: &Lps,
    formula: &FormulaSpec,
    opts: &MonitorOptions,
) -> Result<Outcome, MonitorError> {
    check_with(lps, formula, None, opts)
}

/// [`check`] of `formula` with its automaton `a` (from [`automaton_of`]), not built again.
pub fn check_automaton(
    lps: &Lps,
    formula: &FormulaSpec,
    a: &Automaton,
    opts: &MonitorOptions,
) -> Result<Outcome, MonitorError> {
    check_with(lps, formula, Some(a), opts)
}

/// The LPS as a system over `store`, the formula's data engine and the compiled monitor.
fn prepare<'s>(
    lps: &Lps,
    formula: &FormulaSpec,
    a: Option<&Automaton>,
    opts: &MonitorOptions,
    store: &'s TermStore,
) -> Result<(LpsSystem<'s>, Rewriter<'s>, Monitor), MonitorError> {
    let stack_limit = opts.thread_stack.map(|s| s.saturating_sub(64 << 20));
    let sys = LpsSystem::new(lps, store, stack_limit)
        .map_err(|e| MonitorError::Data(format!("cannot explore the LPS: {e}")))?;
    let data = formula.data_over(&lps.data);
    let mut rw = Rewriter::new(&data, store).map_err(|e| MonitorError::Data(e.to_string()))?;
    if let Some(l) = stack_limit {
        rw.set_stack_limit(l);
    }
    let monitor = match a {
        Some(a) => compile_automaton(a.clone(), rw.clone())?,
        None => compile(formula, rw.clone())?,
    };
    Ok((sys, rw, monitor))
}

/// The outcome when no path can reach an accepting class: nothing is explored.
fn nothing_to_explore() -> Outcome {
    Outcome {
        verdict: Verdict::Holds,
        states: 0,
        transitions: 0,
        class_word: false,
        seconds: 0.0,
    }
}

/// The search the monitor asks of the explorer: the first violation (a self-loop labelled
/// [`product::VIOLATION`]) ends it, with parent pointers for the evidence.
fn explore_options(opts: &MonitorOptions) -> ExploreOptions {
    ExploreOptions {
        threads: opts.threads,
        thread_stack: opts.thread_stack,
        detect_actions: vec![product::VIOLATION.to_string()],
        keep_parents: opts.evidence,
        stop_after_reports: Some(1),
        record_limit: 1,
        ..ExploreOptions::default()
    }
}

/// [`check`], with the automaton of `formula` when it is built.
fn check_with(
    lps: &Lps,
    formula: &FormulaSpec,
    a: Option<&Automaton>,
    opts: &MonitorOptions,
) -> Result<Outcome, MonitorError> {
    let store = TermStore::new();
    let (sys, rw, monitor) = prepare(lps, formula, a, opts, &store)?;
    if monitor.dfa.initial.is_none() {
        return Ok(nothing_to_explore());
    }
    let product = Product::new(&sys, &monitor, rw);
    let explore = explore_options(opts);
    let _timer = crate::progress::time_stage("exploration");
    let mut explorer = Explorer::new(&product, explore);
    if let Some(mut shown) = opts.progress.clone() {
        explorer.on_progress(move |p| shown.update(|_| progress_line(p)));
    }
    let summary = explorer.run(&mut ()).map_err(|e| match &e {
        crate::lts::ExploreError::System {
            state: Some(s),
            source,
        } if s.index() < explorer.num_states() => MonitorError::Explore(format!(
            "while exploring state {s} {}: {source}",
            product.format_state(&explorer.state(*s))
        )),
        _ => MonitorError::Explore(e.to_string()),
    })?;
    outcome_of(&summary, monitor.dfa.classes() > 1, |at| {
        opts.evidence
            .then(|| evidence::counterexample(lps, &sys, &product, &explorer, at))
            .transpose()
    })
}

/// The progress line of the product's exploration.
fn progress_line(p: &crate::lts::Progress) -> String {
    format!(
        "{} states, {} transitions, level {}, {:.1} s",
        p.states, p.transitions, p.level, p.seconds
    )
}

/// The outcome of exploring the product, from `summary`: violated when it counted a
/// violation, with the evidence `counterexample` gives for the violating state when this
/// worker recorded it (`None`: not asked for); else stopped, or holding.
fn outcome_of(
    summary: &crate::lts::ExploreSummary,
    class_word: bool,
    counterexample: impl FnOnce(crate::lts::StateId) -> Result<Option<Evidence>, MonitorError>,
) -> Result<Outcome, MonitorError> {
    let verdict = if summary.action_count > 0 {
        let evidence = match summary.action_hits.first() {
            Some(hit) => counterexample(hit.transition.from)?,
            None => None,
        };
        let steps = evidence.as_ref().map(|e| e.trace.steps.len());
        Verdict::Violated {
            evidence: evidence.map(Box::new),
            steps,
        }
    } else if let Some(reason) = summary.stopped_by {
        Verdict::Stopped(reason)
    } else {
        Verdict::Holds
    };
    Ok(Outcome {
        verdict,
        states: summary.states,
        transitions: summary.transitions,
        class_word,
        seconds: summary.seconds,
    })
}
