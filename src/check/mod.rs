//! `check`: one API that decides formulas on a model and returns, per formula, the
//! verdict, the checked evidence, the route taken and the statistics. Whatever shows the
//! results (the text and JSON of `muon check`, a report, a simulator) stands on this stage and
//! only presents what it returns; no other module loops over formulas.
//!
//! # Routes
//! - [`Route::Pbes`]: `lps2pbes` (or `lts2pbes` on an explicit LTS), instantiation and
//!   solving, evidence read off the solved game (every formula, evidence for both verdicts).
//! - [`Route::Explore`]: the regular safety monitor (`crate::monitor`) while exploring, with
//!   no PBES; a false formula gets a shortest counterexample.
//! - [`Route::Reduced`]: explore, reduce modulo a bisimulation, and decide each formula on
//!   the quotient (formulas the bisimulation preserves only, `crate::modal::preserve`);
//!   verdicts only.
//!
//! Formulas are read and refused before anything is explored ([`Checker::read_formulas`]),
//! so a refusal never costs an exploration. Evidence is confirmed by the independent checker
//! (`crate::evidence::check`) unless [`Options::verify`] is off; a confirmed result says so
//! in [`FormulaResult::verified`].
//!
//! Results go to a sink as each formula is decided ([`Checker::run`]), so a long run shows
//! its first verdicts while the later formulas are still being checked.

mod explore;
mod model;
mod reduced;
mod via_pbes;

use std::path::{Path, PathBuf};
use std::time::Instant;

pub use model::{load_lts, load_spec, lts_declarations, LoadedSpec};
pub use reduced::bisimulation_name;

use crate::bes::SolverKind;
use crate::evidence::Evidence;
use crate::lps::Lps;
use crate::lts::Lts;
use crate::modal::ir::FormulaSpec;
use crate::modal::preserve::Quotient;
use crate::process::ir::{Action, ProcSpec};
use crate::progress::Shown;
use crate::reduce::Bisimulation;

/// Stack of the exploring threads and of the thread that runs an exploring route (as
/// `lps2lts`: deep user equations need it).
pub(crate) const STACK: usize = 256 << 20;

/// The model the formulas are checked on.
pub enum Model {
    /// A linear process (from a specification or an LPS file).
    Lps(Lps),
    /// An explicit LTS with the declarations its labels are typed against.
    Lts {
        /// The LTS.
        lts: Lts,
        /// Its actions and data (from `--mcrl2`, `--lps`, or the labels themselves).
        decls: ProcSpec,
        /// Its labels typed against `decls`, index for index.
        labels: Vec<Vec<Action>>,
    },
}

impl Model {
    /// The declarations formulas are type-checked against.
    pub fn declarations(&self) -> ProcSpec {
        match self {
            Model::Lps(lps) => lps.declarations(),
            Model::Lts { decls, .. } => decls.clone(),
        }
    }

    /// The model as evidence is printed against it.
    pub fn evidence_model(&self) -> crate::evidence::Model<'_> {
        match self {
            Model::Lps(lps) => crate::evidence::Model::Lps(lps),
            Model::Lts { .. } => crate::evidence::Model::Lts,
        }
    }
}

/// How formulas are decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// Through a PBES and a BES (every formula).
    #[default]
    Pbes,
    /// On the fly while exploring (regular safety formulas).
    Explore,
}

/// What [`Checker::run`] does.
#[derive(Clone, Debug)]
pub struct Options {
    /// The engine (ignored under `reduce`).
    pub engine: Engine,
    /// Check on the quotient modulo this bisimulation instead (an LPS only; verdicts only).
    pub reduce: Option<Bisimulation>,
    /// The BES solver of the PBES routes.
    pub solver: SolverKind,
    /// Give up after this many BES variables per formula.
    pub max_vars: usize,
    /// Read evidence for every decided formula (the routes that have it).
    pub evidence: bool,
    /// Confirm the evidence with the independent checker.
    pub verify: bool,
    /// Exploring threads of the exploring routes (0: all cores).
    pub threads: usize,
    /// Progress of the long stages on standard error.
    pub progress: Shown,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            engine: Engine::Pbes,
            reduce: None,
            solver: SolverKind::Zielonka,
            max_vars: 100_000_000,
            evidence: true,
            verify: true,
            threads: 0,
            progress: Shown::Off,
        }
    }
}

impl Options {
    /// Refuses options that cannot go together, on an LTS (`on_lts`) or an LPS, before
    /// anything is read ([`Checker::new`] calls it too).
    pub fn validate(&self, on_lts: bool) -> Result<(), OptionsError> {
        if on_lts && self.reduce.is_some() {
            return Err(OptionsError::ExploresSpec("--reduce"));
        }
        if on_lts && self.engine == Engine::Explore {
            return Err(OptionsError::ExploresSpec("--engine explore"));
        }
        if self.threads != 0 && self.reduce.is_none() && self.engine == Engine::Pbes {
            return Err(OptionsError::ThreadsWithoutExploring);
        }
        if self.evidence && self.solver != SolverKind::Zielonka && self.reduce.is_none() {
            // Gauss elimination gives values, not the strategies a proof is read from.
            return Err(OptionsError::EvidenceNeedsZielonka);
        }
        Ok(())
    }
}

/// Why a check cannot run as asked, before any formula is read.
#[derive(Debug, thiserror::Error, miette::Diagnostic)]
pub enum OptionsError {
    /// Evidence needs strategies, which Gauss elimination does not give.
    #[error("evidence needs the strategies of `--solver zielonka`")]
    #[diagnostic(
        code(muon::check::solver),
        help("use the default `--solver zielonka`, or add `--no-evidence` (or `-q`) for the verdict alone")
    )]
    EvidenceNeedsZielonka,
    /// An exploring route on an LTS.
    #[error("{0} explores a specification; the model is an LTS")]
    #[diagnostic(
        code(muon::check::lts),
        help("give the specification (`.mcrl2`), or check the LTS with the default `--engine pbes` (reduce an LTS with `muon ltsconvert -e EQ` first)")
    )]
    ExploresSpec(&'static str),
    /// Threads asked for on a route that explores nothing.
    #[error("--threads applies to exploring the state space, which `--engine pbes` does not do")]
    #[diagnostic(
        code(muon::check::threads),
        help("add `--engine explore` or `--reduce EQ`, which explore the state space")
    )]
    ThreadsWithoutExploring,
}

/// The route a formula was decided by.
#[derive(Clone, Debug, PartialEq)]
pub enum Route {
    /// A PBES, instantiated and solved.
    Pbes {
        /// Equations of the PBES.
        equations: usize,
        /// BES variables instantiated (auxiliary ones included).
        bes_vars: usize,
        /// Of those, decided by constant propagation while instantiating.
        decided: usize,
    },
    /// The regular safety monitor while exploring.
    Explore {
        /// Product states found.
        states: u64,
        /// Product transitions found.
        transitions: u64,
        /// Whether states were paired with the formula's automaton (more than one class).
        with_automaton: bool,
    },
    /// A PBES of the quotient modulo a bisimulation.
    Reduced {
        /// The bisimulation.
        modulo: Bisimulation,
        /// States and transitions of the explored state space.
        explored: (u64, u64),
        /// States and transitions of the quotient.
        quotient: (u64, u64),
        /// Seconds exploring and reducing (once, for all formulas).
        seconds: (f64, f64),
        /// BES variables of this formula's PBES on the quotient.
        bes_vars: usize,
    },
}

impl Route {
    /// The route's name, as `--format json` and `-v` give it.
    pub fn name(&self) -> &'static str {
        match self {
            Route::Pbes { .. } => "pbes",
            Route::Explore { .. } => "explore",
            Route::Reduced { .. } => "reduce",
        }
    }
}

/// The verdict of one formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The formula holds (`true`) or not (`false`) on the model.
    Decided(bool),
    /// The budget or Ctrl-C stopped the route first (what stopped it).
    Stopped(String),
}

/// One formula to check: its name as shown and its typed formula.
pub struct Formula {
    /// The file it was read from.
    pub path: PathBuf,
    /// The formula, type-checked against the model's declarations.
    pub spec: FormulaSpec,
}

/// What [`Checker::run`] found for one formula.
pub struct FormulaResult<'a> {
    /// The formula.
    pub formula: &'a Formula,
    /// Its verdict.
    pub verdict: Verdict,
    /// The route and its sizes.
    pub route: Route,
    /// The evidence (a false formula's counterexample, a true one's witness), when asked
    /// for and the route gives it.
    pub evidence: Option<Evidence>,
    /// Whether the independent checker confirmed the evidence.
    pub verified: bool,
    /// Seconds deciding the formula (evidence and its check included).
    pub seconds: f64,
    /// Of those, seconds reading the evidence off the solved game.
    pub evidence_seconds: f64,
    /// Of those, seconds confirming it.
    pub verify_seconds: f64,
}

/// The model and options of one run of formulas (see the module documentation).
pub struct Checker {
    model: Model,
    opts: Options,
}

impl Checker {
    /// A checker of `model` with `opts`, refusing options that cannot go together.
    pub fn new(model: Model, opts: Options) -> Result<Checker, OptionsError> {
        opts.validate(matches!(model, Model::Lts { .. }))?;
        Ok(Checker { model, opts })
    }

    /// The model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// Reads and type-checks the formula files against the model's declarations, refusing
    /// (with the file's name) a formula the chosen route cannot decide.
    pub fn read_formulas(&self, paths: &[PathBuf]) -> miette::Result<Vec<Formula>> {
        let scope = self.model.declarations();
        let mut out = Vec::with_capacity(paths.len());
        for p in paths {
            let spec = crate::modal::read_formula(p, &scope)?;
            self.refuse(p, &spec)?;
            out.push(Formula {
                path: p.clone(),
                spec,
            });
        }
        Ok(out)
    }

    /// Refuses `spec` (read from `path`) when the chosen route cannot decide it.
    fn refuse(&self, path: &Path, spec: &FormulaSpec) -> miette::Result<()> {
        if let Some(eq) = self.opts.reduce {
            return reduced::refuse(path, spec, eq);
        }
        if self.opts.engine == Engine::Explore {
            crate::monitor::refuse_outside(spec)
                .map_err(|e| miette::Report::new(e).wrap_err(path.display().to_string()))?;
        }
        Ok(())
    }

    /// Decides `formulas` one by one, handing each result to `sink` as soon as it is
    /// known; stops at the first error (of the route or of the sink) and after a formula
    /// the budget stopped. Returns whether every formula was decided true.
    pub fn run(
        &self,
        formulas: &[Formula],
        sink: &mut dyn FnMut(&Model, FormulaResult<'_>) -> miette::Result<()>,
    ) -> miette::Result<Summary> {
        let mut summary = Summary {
            all_true: true,
            stopped: false,
        };
        let mut emit = |r: FormulaResult<'_>| -> miette::Result<bool> {
            let go_on = match &r.verdict {
                Verdict::Decided(v) => {
                    summary.all_true &= *v;
                    true
                }
                Verdict::Stopped(_) => {
                    summary.stopped = true;
                    false
                }
            };
            sink(&self.model, r)?;
            Ok(go_on)
        };
        match (&self.model, self.opts.reduce) {
            (Model::Lps(lps), Some(eq)) => reduced::run(lps, formulas, eq, &self.opts, &mut emit)?,
            (Model::Lps(lps), None) if self.opts.engine == Engine::Explore => {
                explore::run(lps, formulas, &self.opts, &mut emit)?
            }
            (model, _) => via_pbes::run(model, formulas, &self.opts, &mut emit)?,
        }
        Ok(summary)
    }
}

/// What a whole run found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Every formula was decided true.
    pub all_true: bool,
    /// The budget stopped a formula (no verdict).
    pub stopped: bool,
}

/// The formulas a quotient modulo `eq` preserves, as [`crate::modal::preserve`] knows them.
pub fn preserved_by(eq: Bisimulation) -> Quotient {
    match eq {
        Bisimulation::Strong => Quotient::Strong,
        Bisimulation::Branching | Bisimulation::DivergenceBranching => Quotient::Branching,
    }
}

/// The result sink of the routes: `Ok(false)` asks the route to stop.
pub(crate) type Emit<'e> = dyn FnMut(FormulaResult<'_>) -> miette::Result<bool> + 'e;

/// Seconds since `t`.
pub(crate) fn since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64()
}
