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
mod on_the_fly;
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
use crate::monitor::Automaton;
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
    /// Per formula, by its shape: the monitor for regular safety formulas, the product
    /// game for the others, the PBES route where the product does not take the formula's
    /// data (or the model is an LTS or has global variables).
    #[default]
    Auto,
    /// Through a PBES and a BES (every formula).
    Pbes,
    /// On the fly while exploring (regular safety formulas).
    Explore,
    /// The product game of the LPS and the formula, built on the fly.
    Product,
}

impl Engine {
    /// The engine's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Auto => "auto",
            Engine::Pbes => "pbes",
            Engine::Explore => "explore",
            Engine::Product => "product",
        }
    }
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
    /// The workers and processes of a distributed `--engine explore` (`None`: this process
    /// alone).
    pub cluster: Option<crate::distrib::Cluster>,
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
            cluster: None,
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
        if on_lts && self.engine == Engine::Product {
            return Err(OptionsError::ExploresSpec("--engine product"));
        }
        if self.threads != 0 && self.reduce.is_none() && self.engine == Engine::Pbes {
            return Err(OptionsError::ThreadsWithoutExploring);
        }
        if self.cluster.is_some() {
            if on_lts || self.reduce.is_some() || self.engine != Engine::Explore {
                return Err(OptionsError::ClusterNeedsExplore);
            }
            if self.threads != 0 {
                return Err(OptionsError::ThreadsInCluster);
            }
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
    /// Workers or processes for a route other than the monitor's.
    #[error("--workers, --processes and --hosts distribute `--engine explore` only")]
    #[diagnostic(
        code(muon::check::cluster),
        help("add `--engine explore` (regular safety formulas on a specification), or drop the cluster options")
    )]
    ClusterNeedsExplore,
    /// Threads and workers together.
    #[error("--threads is the one-process search; a distributed run has --workers")]
    #[diagnostic(
        code(muon::check::cluster),
        help("use --workers NUM instead of --threads")
    )]
    ThreadsInCluster,
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
    /// The product game of the LPS and the formula, solved.
    Product {
        /// Game vertices.
        vertices: u64,
        /// Game edges.
        edges: u64,
        /// LPS states the game reached.
        states: u64,
        /// LPS transitions generated.
        transitions: u64,
        /// Whether the verdict was decided before the game was explored in full.
        early: bool,
        /// Whether the one-player search decided it (`product::cycles`): the game was
        /// searched for the chooser's path or cycle, never built.
        one_player: bool,
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
            Route::Product { .. } => "product",
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

/// One formula to check: its name as shown, its typed formula and the engine chosen for it.
pub struct Formula {
    /// The file it was read from.
    pub path: PathBuf,
    /// The formula, type-checked against the model's declarations.
    pub spec: FormulaSpec,
    /// The engine that decides it (never [`Engine::Auto`]: resolved when read).
    pub engine: Engine,
    /// Why that engine, in a sentence (`-v` shows it).
    pub why: String,
    /// For the monitor ([`Engine::Explore`]): the formula's automaton, built when the
    /// formula was found in the monitor's fragment.
    automaton: Option<Automaton>,
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
    /// When the chosen engine could not decide the formula and the PBES route did: why.
    pub fallback: Option<String>,
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
    pub fn new(mut model: Model, opts: Options) -> Result<Checker, OptionsError> {
        opts.validate(matches!(model, Model::Lts { .. }))?;
        // Global variables take mCRL2's representative values once, for every route and
        // the evidence alike (as its `lps2lts` and `pbesinst` give them); one whose sort
        // has none muon builds stays, for the PBES route.
        if let Model::Lps(lps) = &mut model {
            if let Ok(l) = crate::lts::lps::instantiate_globals(lps) {
                *lps = l;
            }
        }
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
            let (engine, why, automaton) = self.plan(p, &spec)?;
            out.push(Formula {
                path: p.clone(),
                spec,
                engine,
                why,
                automaton,
            });
        }
        Ok(out)
    }

    /// The engine that decides `spec` (read from `path`), why, and for the monitor the
    /// formula's automaton (built to find the formula in the monitor's fragment, kept so
    /// that the monitor does not build it again); refuses a formula the engine asked for
    /// cannot decide.
    fn plan(&self, path: &Path, spec: &FormulaSpec) -> miette::Result<Plan> {
        let named = |e: miette::Report| e.wrap_err(path.display().to_string());
        let other = |engine: Engine, why: String| Ok((engine, why, None));
        if let Some(eq) = self.opts.reduce {
            reduced::refuse(path, spec, eq)?;
            return other(
                Engine::Pbes,
                format!("on the quotient modulo {}", bisimulation_name(eq)),
            );
        }
        let lps = match &self.model {
            Model::Lps(lps) => lps,
            Model::Lts { .. } => {
                return other(Engine::Pbes, "the model is an LTS: lts2pbes".to_string())
            }
        };
        match self.opts.engine {
            Engine::Pbes => other(Engine::Pbes, "asked for (--engine pbes)".to_string()),
            Engine::Explore => {
                let a = crate::monitor::automaton_of(spec).map_err(|e| named(e.into()))?;
                let why = "asked for (--engine explore)".to_string();
                Ok((Engine::Explore, why, Some(a)))
            }
            Engine::Product => {
                crate::product::refuse_outside(lps, spec).map_err(|e| named(e.into()))?;
                other(Engine::Product, "asked for (--engine product)".to_string())
            }
            Engine::Auto => match crate::monitor::automaton_of(spec) {
                Ok(a) => {
                    let why = "a regular safety formula: the monitor, while exploring";
                    Ok((Engine::Explore, why.to_string(), Some(a)))
                }
                Err(_) if !lps.globals.is_empty() => other(
                    Engine::Pbes,
                    "the LPS has global variables, which only the PBES route takes".to_string(),
                ),
                Err(_) if has_parameterised_fixpoint(&spec.formula) => other(
                    Engine::Pbes,
                    "a fixpoint with data parameters: the PBES route, whose instantiation stops as soon as the verdict is decided (the product game is built whole, and such parameters may take unboundedly many values)".to_string(),
                ),
                Err(_) => match crate::product::refuse_outside(lps, spec) {
                    Ok(()) => other(
                        Engine::Product,
                        "not regular safety: the product game of the LPS and the formula"
                            .to_string(),
                    ),
                    Err(e) => other(
                        Engine::Pbes,
                        format!("the product game does not take it ({e})"),
                    ),
                },
            },
        }
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
        if let (Model::Lps(lps), Some(eq)) = (&self.model, self.opts.reduce) {
            reduced::run(lps, formulas, eq, &self.opts, &mut emit)?;
            return Ok(summary);
        }
        for f in formulas {
            let decided = match (&self.model, f.engine) {
                (Model::Lps(lps), Engine::Explore) => explore::decide(lps, f, &self.opts),
                (Model::Lps(lps), Engine::Product) => on_the_fly::decide(lps, f, &self.opts),
                (model, _) => via_pbes::decide(model, f, &self.opts).map_err(RouteError::Failed),
            };
            let result = match decided {
                Ok(r) => r,
                // Under `auto`, a formula whose data the chosen engine cannot decide goes to
                // the PBES route, whose instantiation takes more.
                Err(RouteError::Unsupported(why)) if self.opts.engine == Engine::Auto => {
                    let mut r = via_pbes::decide(&self.model, f, &self.opts)?;
                    r.fallback = Some(why);
                    r
                }
                Err(RouteError::Unsupported(why)) => miette::bail!(
                    code = "muon::check::unsupported",
                    help = "check it with `--engine pbes` (or the default `--engine auto`, which falls back to it)",
                    "{}: {why}",
                    f.path.display()
                ),
                Err(RouteError::Failed(e)) => return Err(e),
            };
            if !emit(result)? {
                break;
            }
        }
        Ok(summary)
    }
}

/// What [`Checker::plan`] decides for a formula: the engine, why, and the monitor's
/// automaton when the engine is the monitor.
type Plan = (Engine, String, Option<Automaton>);

/// What a whole run found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Every formula was decided true.
    pub all_true: bool,
    /// The budget stopped a formula (no verdict).
    pub stopped: bool,
}

/// Whether `f` has a fixpoint with data parameters.
fn has_parameterised_fixpoint(f: &crate::modal::ir::StateFormula) -> bool {
    use crate::modal::ir::StateFormula as S;
    match f {
        S::Mu(v, a) | S::Nu(v, a) => !v.params.is_empty() || has_parameterised_fixpoint(a),
        S::Not(a) | S::Forall(_, a) | S::Exists(_, a) | S::Must(_, a) | S::May(_, a) => {
            has_parameterised_fixpoint(a)
        }
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => {
            has_parameterised_fixpoint(a) || has_parameterised_fixpoint(b)
        }
        S::True | S::False | S::Val(_) | S::Var { .. } => false,
    }
}

/// The formulas a quotient modulo `eq` preserves, as [`crate::modal::preserve`] knows them.
pub fn preserved_by(eq: Bisimulation) -> Quotient {
    match eq {
        Bisimulation::Strong => Quotient::Strong,
        Bisimulation::Branching | Bisimulation::DivergenceBranching => Quotient::Branching,
    }
}

/// Why a route gave no result.
pub(crate) enum RouteError {
    /// The engine does not decide this formula's data (another route may).
    Unsupported(String),
    /// The route failed.
    Failed(miette::Report),
}

impl<E: Into<miette::Report>> From<E> for RouteError {
    fn from(e: E) -> Self {
        RouteError::Failed(e.into())
    }
}

/// The result sink of the routes: `Ok(false)` asks the route to stop.
pub(crate) type Emit<'e> = dyn FnMut(FormulaResult<'_>) -> miette::Result<bool> + 'e;

/// Seconds since `t`.
pub(crate) fn since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64()
}

/// Runs `work` on a thread of its own named `name`, with the exploring stack [`STACK`]; an
/// error naming the thread as `what` when it cannot start or panics.
pub(crate) fn on_exploring_thread<T: Send>(
    name: &str,
    what: &str,
    work: impl FnOnce() -> T + Send,
) -> miette::Result<T> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name(name.into())
            .stack_size(STACK)
            .spawn_scoped(s, work)
            .map_err(|e| miette::miette!("cannot start the {what}: {e}"))?
            .join()
            .map_err(|_| miette::miette!("internal error: the {what} panicked"))
    })
}

/// Gives `result` the evidence `ev` of an exploring route on `lps`, first confirmed by the
/// independent checker when [`Options::verify`] asks (its time counted in the result's).
fn attach_evidence(
    result: &mut FormulaResult<'_>,
    lps: &Lps,
    ev: Evidence,
    opts: &Options,
) -> Result<(), crate::evidence::EvidenceError> {
    if opts.verify {
        let t = Instant::now();
        crate::evidence::check::check_evidence(lps, &result.formula.spec, &ev, opts.solver)?;
        result.verify_seconds = since(t);
        result.seconds += result.verify_seconds;
        result.verified = true;
    }
    result.evidence = Some(ev);
    Ok(())
}
