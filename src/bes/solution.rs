//! Solutions of parity games: the winner of every vertex and a winning strategy.

use super::game::{Game, Player, VertexId};

/// Sentinel for "no strategy" in [`Solution`]'s strategy array.
const NONE: u32 = u32::MAX;

/// A solution of a [`Game`]: the winner of every vertex and, for every vertex won by its
/// owner, the successor the owner plays (a positional winning strategy).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    winner: Vec<Player>,
    strategy: Vec<u32>,
}

impl Solution {
    /// A solution for `n` vertices, all won by `Even`, no strategies yet.
    pub fn new(n: usize) -> Solution {
        Solution {
            winner: vec![Player::Even; n],
            strategy: vec![NONE; n],
        }
    }

    /// Builds a solution from per-vertex winners and optional strategy successors.
    pub fn from_parts(winner: Vec<Player>, strategy: Vec<Option<VertexId>>) -> Solution {
        assert_eq!(winner.len(), strategy.len());
        Solution {
            winner,
            strategy: strategy
                .into_iter()
                .map(|s| s.map_or(NONE, |v| v.0))
                .collect(),
        }
    }

    pub(crate) fn from_raw(winner: Vec<Player>, strategy: Vec<u32>) -> Solution {
        Solution { winner, strategy }
    }

    /// Number of vertices covered.
    pub fn len(&self) -> usize {
        self.winner.len()
    }

    /// Whether the solution covers no vertices.
    pub fn is_empty(&self) -> bool {
        self.winner.is_empty()
    }

    /// The winner of `v`.
    #[inline]
    pub fn winner(&self, v: VertexId) -> Player {
        self.winner[v.index()]
    }

    /// The strategy successor of `v`, if one was recorded (only for vertices won by their
    /// owner).
    #[inline]
    pub fn strategy(&self, v: VertexId) -> Option<VertexId> {
        match self.strategy[v.index()] {
            NONE => None,
            s => Some(VertexId(s)),
        }
    }

    /// Sets the winner of `v`.
    pub fn set_winner(&mut self, v: VertexId, p: Player) {
        self.winner[v.index()] = p;
    }

    /// Sets (or clears) the strategy successor of `v`.
    pub fn set_strategy(&mut self, v: VertexId, s: Option<VertexId>) {
        self.strategy[v.index()] = s.map_or(NONE, |w| w.0);
    }

    /// The winners of all vertices, by index.
    pub fn winners(&self) -> &[Player] {
        &self.winner
    }

    /// Drops strategies of vertices not won by their owner (they carry no meaning).
    pub fn normalise(&mut self, game: &Game) {
        for v in game.vertices() {
            if self.winner(v) != game.owner(v) {
                self.set_strategy(v, None);
            }
        }
    }
}

/// The vertices reachable from `start` when the winner of `start` plays its strategy and
/// the opponent may take any edge: the part of the game that proves `start`'s result (what
/// evidence generation shows). In BFS order from `start`; all are won by the same player
/// when `sol` passes [`super::verify()`].
pub fn strategy_reachable(game: &Game, sol: &Solution, start: VertexId) -> Vec<VertexId> {
    let p = sol.winner(start);
    let mut seen = vec![false; game.num_vertices()];
    let mut out = vec![start];
    seen[start.index()] = true;
    let mut i = 0;
    while i < out.len() {
        let v = out[i];
        i += 1;
        let mut visit = |w: VertexId| {
            if !seen[w.index()] {
                seen[w.index()] = true;
                out.push(w);
            }
        };
        if game.owner(v) == p {
            if let Some(s) = sol.strategy(v) {
                visit(s);
            }
        } else {
            for &w in game.successors(v) {
                visit(w);
            }
        }
    }
    out
}
