//! The product of an LPS and a modal μ-calculus formula as a parity game, built on the fly
//! from the exploration engine, with no PBES and no BES terms (`muon check --engine
//! product`, and the default `auto` for every formula the regular safety monitor does not
//! take).
//!
//! A vertex is `(LPS state, formula node, data valuation)` ([`build`]): the formula in
//! positive normal form ([`formula`]) times the states the exploration engine generates as
//! the game reaches them. Its cost per vertex is a few flat-table entries, where the PBES
//! route pays for PBES terms, substitution and a BES equation per variable. The game is
//! solved by Zielonka's algorithm (every alternation depth: fairness and "eventually
//! permanently" included), and the winner's strategy gives the evidence ([`proof`]): a
//! shortest trace to the deciding constant, or a lasso when the proof is infinite, with the
//! evidence LTS, confirmed by the independent checker as every route's is.
//!
//! A formula in which one player alone chooses (no `||`, `<α>`, `exists`, or none of
//! their duals: every box formula, "eventually permanently" and fairness among them) is
//! decided without building the game ([`cycles`]): a depth-first search for the chooser's
//! path or cycle that keeps four bytes per vertex and the states' table, and stops at the
//! first one. Its evidence is that path or lasso; the other player's verdict has none
//! beyond small products, whose game is then built to give the proof.
//!
//! What it does not take ([`ProductError::Unsupported`]): a state-level quantifier whose
//! variable neither the labels of the state's own transitions nor a data guard bound to
//! finitely many values (the PBES route's instantiation then decides); `check --engine
//! auto` takes the PBES route for those.

pub mod build;
pub mod cycles;
pub mod formula;
pub mod proof;

use std::time::Instant;

use miette::Diagnostic;
use thiserror::Error;

use crate::bes::{solve_zielonka_watched, Player, VertexId};
use crate::data::{Rewriter, TermStore};
use crate::evidence::{Evidence, EvidenceError};
use crate::lps::Lps;
use crate::lts::lps::{LpsError, LpsSystem};
use crate::modal::ir::FormulaSpec;
use crate::modal::preprocess::normalise_formula;
use crate::progress::{Halted, Meter, Shown};

/// Why the product route gives no verdict.
#[derive(Debug, Error, Diagnostic)]
pub enum ProductError {
    /// The formula has a shape the product does not take (after normalising).
    #[error("`--engine product`: in `{at}`, {reason}")]
    #[diagnostic(code(muon::product::outside), help("check it with `--engine pbes`"))]
    Outside {
        /// The offending subformula, printed.
        at: String,
        /// Why.
        reason: String,
    },
    /// The data of the formula cannot be decided as the product needs.
    #[error("`--engine product`: {0}")]
    #[diagnostic(
        code(muon::product::unsupported),
        help("check it with `--engine pbes`, whose instantiation enumerates data the product does not")
    )]
    Unsupported(String),
    /// The data engine failed.
    #[error("`--engine product`: {0}")]
    #[diagnostic(code(muon::product::data))]
    Data(String),
    /// The LPS could not be explored.
    #[error("`--engine product`: {0}")]
    #[diagnostic(code(muon::product::lps))]
    Lps(#[from] LpsError),
    /// More game vertices than allowed.
    #[error("`--engine product`: more than {0} game vertices")]
    #[diagnostic(
        code(muon::product::too_large),
        help("raise --max-vars, or check a smaller instance of the model")
    )]
    TooLarge(usize),
    /// The budget stopped the run.
    #[error(transparent)]
    #[diagnostic(
        code(muon::product::stopped),
        help("raise --memory-limit or --timeout")
    )]
    Stopped(#[from] Halted),
    /// The evidence could not be built.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Evidence(#[from] EvidenceError),
}

impl From<std::convert::Infallible> for ProductError {
    fn from(e: std::convert::Infallible) -> Self {
        match e {}
    }
}

/// How [`check`] runs.
#[derive(Clone, Copy, Debug)]
pub struct ProductOptions {
    /// Read the evidence off the solved game.
    pub evidence: bool,
    /// Give up beyond this many game vertices.
    pub max_vertices: usize,
    /// Expanded vertices before constant propagation first looks whether the verdict is
    /// already forced (then at every doubling: the checks cost about two passes over the
    /// edges in all).
    pub first_check: u32,
    /// Progress on standard error.
    pub progress: Shown,
    /// The stack size the thread that runs [`check`] has (deep user equations need it);
    /// the data engine keeps within it.
    pub stack: Option<usize>,
    /// How the product is decided.
    pub search: Search,
}

/// How [`check`] decides the product.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Search {
    /// The one-player search ([`cycles`]) when one player alone chooses, else the game.
    #[default]
    Auto,
    /// The game built whole and solved by Zielonka's algorithm.
    Game,
    /// As [`Search::Auto`], with the one-player search's ring of successor lists this
    /// long, spilling the lists of frames that leave it or not (tests reach both with a
    /// short ring).
    Ring {
        /// Successor lists in the ring (at least 1).
        lists: usize,
        /// Whether frames leaving the ring spill (else they generate their lists again).
        spill: bool,
    },
}

/// Products up to this many vertices whose one-player search gives no evidence (the other
/// player won) are built again as a game, whose proof is the evidence.
pub const PROOF_VERTICES: u64 = 1_000_000;

impl Default for ProductOptions {
    fn default() -> Self {
        ProductOptions {
            evidence: true,
            max_vertices: 100_000_000,
            first_check: 1 << 12,
            progress: Shown::Off,
            stack: None,
            search: Search::Auto,
        }
    }
}

/// What [`check`] found.
#[derive(Debug)]
pub struct Outcome {
    /// The verdict.
    pub value: bool,
    /// Its evidence, when asked for.
    pub evidence: Option<Evidence>,
    /// Game vertices (the two sinks included).
    pub vertices: u64,
    /// Game edges.
    pub edges: u64,
    /// LPS states the game reached.
    pub states: u64,
    /// LPS transitions generated.
    pub transitions: u64,
    /// Whether constant propagation decided the initial vertex before the game was
    /// explored in full (then the game is the explored part).
    pub early: bool,
    /// Seconds building the game, solving it, and reading the evidence.
    pub seconds: (f64, f64, f64),
    /// Whether the one-player search decided it ([`cycles`]), not the game.
    pub one_player: bool,
}

/// Refuses `formula` when its shape is outside what the product takes, before anything is
/// explored (data the product cannot bound is found only while exploring).
pub fn refuse_outside(lps: &Lps, formula: &FormulaSpec) -> Result<(), ProductError> {
    let f = normalise_formula(&formula.formula, Default::default())
        .map_err(|e| ProductError::Data(e.to_string()))?;
    let store = TermStore::new();
    let data = formula.data_over(&lps.data);
    let rw = Rewriter::new(&data, &store).map_err(|e| ProductError::Data(e.to_string()))?;
    formula::compile(&f, &rw).map(|_| ())
}

/// Decides `formula` on `lps` by the product game (see the module documentation).
pub fn check(
    lps: &Lps,
    formula: &FormulaSpec,
    opts: &ProductOptions,
) -> Result<Outcome, ProductError> {
    let t = Instant::now();
    let store = TermStore::new();
    let stack_limit = opts.stack.map(|s| s.saturating_sub(64 << 20));
    let sys = LpsSystem::new(lps, &store, stack_limit)?;
    let f = normalise_formula(&formula.formula, Default::default())
        .map_err(|e| ProductError::Data(e.to_string()))?;
    let data = formula.data_over(&lps.data);
    let mut rw = Rewriter::new(&data, &store).map_err(|e| ProductError::Data(e.to_string()))?;
    if let Some(l) = stack_limit {
        rw.set_stack_limit(l);
    }
    let compiled = formula::compile(&f, &rw)?;
    if opts.search != Search::Game {
        if let Some(chooser) = cycles::sole_chooser(&compiled) {
            return one_player(lps, formula, opts, &sys, &compiled, rw, chooser, t);
        }
    }
    let mut p = build::Product::new(&sys, &compiled, rw);
    let mut meter = Meter::new("product", opts.progress);
    let init = p.explore(opts.max_vertices, opts.first_check, &mut meter)?;
    meter.finish();
    let built = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let early = p.closed_early;
    let (states, transitions) = (p.states() as u64, p.transitions() as u64);
    let vertices = p.vertices() as u64;
    let edges = p.edges() as u64;
    let game = p.into_game(init)?;
    let mut meter = Meter::new("solving", opts.progress);
    let sol = solve_zielonka_watched(&game, &mut meter)?;
    meter.finish();
    let value = sol.winner(VertexId(init)) == Player::Even;
    let solved = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let evidence = if opts.evidence {
        Some(proof::evidence(lps, &sys, &p, &game, &sol, init)?)
    } else {
        None
    };
    Ok(Outcome {
        value,
        evidence,
        vertices,
        edges,
        states,
        transitions,
        early,
        seconds: (built, solved, t.elapsed().as_secs_f64()),
        one_player: false,
    })
}

/// [`check`] by the one-player search, `chooser` choosing alone in `compiled`'s games.
#[allow(clippy::too_many_arguments)]
fn one_player(
    lps: &Lps,
    formula: &FormulaSpec,
    opts: &ProductOptions,
    sys: &LpsSystem<'_>,
    compiled: &formula::Formula,
    rw: Rewriter<'_>,
    chooser: Player,
    t: Instant,
) -> Result<Outcome, ProductError> {
    let mut p = build::Product::lean(sys, compiled, rw);
    let mut meter = Meter::new("product", opts.progress);
    let ring = match opts.search {
        Search::Ring { lists, spill } => (lists.max(1), spill),
        _ => (cycles::WINDOW, true),
    };
    let found = cycles::search(&mut p, chooser, &mut meter, ring)?;
    meter.finish();
    let searched = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let value = (chooser == Player::Even) == found.chooser_wins;
    let evidence = if !opts.evidence {
        None
    } else if found.chooser_wins {
        Some(proof::assemble(
            lps,
            sys,
            &p,
            value,
            &found.path,
            found.cycle_at,
            Vec::new(),
        )?)
    } else if found.vertices <= PROOF_VERTICES {
        let game = check(
            lps,
            formula,
            &ProductOptions {
                search: Search::Game,
                progress: Shown::Off,
                ..*opts
            },
        )?;
        if game.value != value {
            return Err(ProductError::Data(format!(
                "internal error: the one-player search gives {value}, the game {}",
                game.value
            )));
        }
        game.evidence
    } else {
        None
    };
    Ok(Outcome {
        value,
        evidence,
        vertices: found.vertices,
        edges: found.edges,
        states: p.states() as u64,
        transitions: p.generated,
        early: found.chooser_wins,
        seconds: (searched, 0.0, t.elapsed().as_secs_f64()),
        one_player: true,
    })
}
