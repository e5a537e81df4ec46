//! Boolean equation systems and parity games: representation, solvers (Zielonka, Gauss
//! elimination), an independent solution checker, and the PGSolver / mCRL2 BES formats.
//!
//! # Representation
//!
//! A [`Game`] is a max-parity game in PGSolver conventions stored as flat arrays indexed by
//! [`VertexId`]`(u32)`: `priority: Vec<u32>`, `owner: Vec<Player>` (one byte), forward edges
//! in CSR form (`succ_start: Vec<u64>` with `n + 1` entries, `succ: Vec<VertexId>`) and the
//! reverse edges in the same form. That is 8 bytes per edge and 21 bytes per vertex, plus a
//! sparse map of vertex names. Invariants: every vertex has at least one successor, every
//! edge target is a vertex, the reverse edges are exactly the forward edges flipped.
//! Games are built in bulk with [`GameBuilder`] (add vertices, give each its successor list
//! once, freeze), or parsed from `.pg` with [`parse_pg`].
//!
//! A [`Bes`] is a flat Boolean equation system: per [`BesVarId`]`(u32)` an mCRL2 rank, a
//! right-hand-side kind ([`RhsKind`]: `true`, `false`, `&&`, `||`) and its operands (CSR).
//! Nested right-hand sides from text are flattened into auxiliary variables of the same
//! rank (which preserves every original variable's solution). Built with [`BesBuilder`],
//! parsed with [`parse_bes_text`], stored as the BES artifact (`crate::artifact`,
//! `ArtifactKind::Bes`, payload = [`Bes`]).
//!
//! # Rank mapping and players
//!
//! mCRL2 ranks: the first equation gets rank 0 if it is `nu`, else 1, and the rank goes up
//! by one at each change of fixpoint symbol; even ranks are `nu`, odd ranks `mu`, and the
//! *lowest* rank seen infinitely often decides. PGSolver priorities are the opposite: the
//! *highest* priority seen infinitely often decides, even favours player 0. We map
//! `priority = R - rank` with `R` the largest rank rounded up to even: the order flips and
//! the parity is kept, so `nu` ↔ even priority ↔ [`Player::Even`]. `Even` owns the
//! disjunctions and wins exactly the vertices of the variables that are **true**; `Odd`
//! owns the conjunctions and proves **false**. `true`/`false` right-hand sides become an
//! `Even` priority-0 / `Odd` priority-1 vertex with a self-loop. [`bes_to_game`] and
//! [`game_to_bes`] map variable `i` to vertex `i` and back (the identity), so a solution of
//! the game is read off per variable directly.
//!
//! A [`Solution`] holds a winner per vertex and a strategy successor exactly for the
//! vertices won by their owner (others carry none). Solutions from [`solve_zielonka`] always
//! pass [`verify()`]; the `--verify` flag of `muon bessolve` runs it on every solve.
//!
//! Memory: the game arrays take 8 bytes/edge + 21 bytes/vertex; Zielonka adds about
//! 22 bytes/vertex (region/escape counters, winner, strategy, priority order and its
//! inverse, owner bitset) plus the region lists. Measured peak of `muon bessolve` on a
//! random game of 5 M vertices / 12.5 M edges: 75 bytes/vertex including parsing (the
//! input text is freed before the reverse edges are built).
//!
//! # Solving
//!
//! [`solve_zielonka`] is the fast solver (Oink-style: see [`zielonka`]), returning a
//! [`Solution`]: the winner of every vertex and, for every vertex won by its owner, a
//! strategy successor — the evidence generator follows those from the initial vertex.
//! [`solve_gauss`] is Gauss elimination on a [`Bes`] (values only; exponential in general,
//! so it refuses systems that blow up). [`verify()`] checks a solution independently (closure
//! of each region under the winner's strategy and the opponent's moves, plus the highest
//! priority of every cycle inside it). [`solve_naive`] is a textbook reference for tests.

pub mod besys;
pub mod distance;
pub mod error;
pub mod game;
pub mod gauss;
pub mod gen;
pub mod naive;
pub mod pg;
pub mod solution;
pub mod text;
pub mod verify;
pub mod zielonka;

pub use besys::{
    bes_to_game, game_to_bes, priority_of_rank, Bes, BesBuilder, BesError, BesVarId, Fixpoint,
    RhsKind,
};
pub use error::ParseError;
pub use game::{Game, GameBuilder, GameError, Player, VertexId};
pub use gauss::{solve_gauss, solve_gauss_init, solve_gauss_watched, GaussError};
pub use naive::solve_naive;
pub use pg::{parse_paritysol, parse_pg, write_paritysol, write_pg};
pub use solution::{strategy_reachable, Solution};
pub use text::{parse_bes_text, write_bes_text};
pub use verify::{verify, VerifyError};

/// The solver of a BES or parity game, one choice for every command that solves
/// (`bessolve`, `pbes2bool`, `pbessolve`, `check`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum SolverKind {
    /// Zielonka's recursive algorithm on the parity game (fast, with the strategies
    /// evidence is read from).
    #[default]
    Zielonka,
    /// Gauss elimination on the BES (small systems only; values without strategies).
    Gauss,
}
pub use zielonka::{solve_zielonka, solve_zielonka_watched};

/// The values of all BES variables from a solution of [`bes_to_game`]'s game.
pub fn bes_values(sol: &Solution) -> Vec<bool> {
    sol.winners().iter().map(|&p| p == Player::Even).collect()
}

/// Solves a BES with Zielonka (through its game); returns every variable's value and the
/// game solution (with strategies).
pub fn solve_bes_zielonka(bes: &Bes) -> (Vec<bool>, Game, Solution) {
    let g = bes_to_game(bes);
    let s = solve_zielonka(&g);
    (bes_values(&s), g, s)
}
