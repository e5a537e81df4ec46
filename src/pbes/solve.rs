//! Solving a PBES: instantiate (stopping early when the initial variable is decided by
//! constant propagation), then solve the BES with Zielonka (with strategies) or Gauss
//! elimination.

use std::time::Instant;

use miette::Diagnostic;
use thiserror::Error;

use crate::bes::{
    bes_to_game, solve_gauss_watched, solve_zielonka_watched, Game, GaussError, Player, Solution,
    SolverKind,
};
use crate::pbes::inst::{instantiate, InstError, InstOptions, Instantiation};
use crate::pbes::ir::Pbes;
use crate::progress::{time_stage, Halted, Meter};

/// Why solving failed.
#[derive(Debug, Error, Diagnostic)]
pub enum SolveError {
    /// Instantiation failed.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Inst(#[from] InstError),
    /// Gauss elimination gave up.
    #[error("Gauss elimination gave up: {0}")]
    #[diagnostic(code(muon::pbes2bool::gauss), help("use --solver zielonka"))]
    Gauss(String),
    /// The run's budget (memory limit, timeout, Ctrl-C) stopped solving.
    #[error(transparent)]
    #[diagnostic(
        code(muon::pbes2bool::stopped),
        help("raise --memory-limit or --timeout")
    )]
    Stopped(#[from] Halted),
}

/// The outcome of [`solve_pbes`].
#[derive(Debug)]
pub struct SolveOutcome {
    /// The value of the initial instance.
    pub value: bool,
    /// The instantiation (origins of BES variables; the BES unless stopped early).
    pub inst: Instantiation,
    /// The parity game and its solution (Zielonka, when a BES was built).
    pub game: Option<(Game, Solution)>,
    /// Seconds spent instantiating and solving.
    pub inst_seconds: f64,
    /// Seconds spent solving the BES.
    pub solve_seconds: f64,
}

/// Instantiates and solves `pbes`. With `early` instantiation stops as soon as the initial
/// variable is decided (then no game is built).
pub fn solve_pbes(
    pbes: &Pbes,
    opts: &InstOptions,
    solver: SolverKind,
    early: bool,
) -> Result<SolveOutcome, SolveError> {
    let t0 = Instant::now();
    let mut o = opts.clone();
    o.stop_when_decided = early;
    let inst = instantiate(pbes, &o)?;
    let inst_seconds = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    if let Some(v) = inst.decided {
        if inst.bes.is_none() || solver == SolverKind::Gauss {
            return Ok(SolveOutcome {
                value: v,
                inst,
                game: None,
                inst_seconds,
                solve_seconds: 0.0,
            });
        }
    }
    let bes = inst
        .bes
        .as_ref()
        .ok_or_else(|| InstError::Bes("instantiation incomplete".into()))?;
    let _timer = time_stage("solving");
    let mut meter = Meter::new("solving", opts.progress);
    let (value, game) = match solver {
        SolverKind::Zielonka => {
            let g = bes_to_game(bes);
            let s = solve_zielonka_watched(&g, &mut meter)?;
            let v = s.winner(bes.init().vertex()) == Player::Even;
            (v, Some((g, s)))
        }
        SolverKind::Gauss => {
            let vals = solve_gauss_watched(bes, &mut meter).map_err(|e| match e {
                GaussError::Stopped(h) => SolveError::Stopped(h),
                e => SolveError::Gauss(e.to_string()),
            })?;
            (vals[bes.init().index()], None)
        }
    };
    meter.finish();
    Ok(SolveOutcome {
        value,
        inst,
        game,
        inst_seconds,
        solve_seconds: t1.elapsed().as_secs_f64(),
    })
}
