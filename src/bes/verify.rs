//! An independent solution checker, sharing no code with the solvers.
//!
//! A claimed solution is correct when, for each player `P`, the region `W_P` it claims is
//! (1) closed under `P`'s strategy and all opponent moves — every `P`-vertex in `W_P` has a
//! strategy successor in `W_P`, every opponent vertex in `W_P` has all successors in `W_P` —
//! and (2) every cycle of the graph restricted to that (the strategy edge at `P`-vertices,
//! all edges at opponent vertices) has a highest priority of `P`'s parity. (2) is checked by
//! repeated SCC decomposition: in every non-trivial SCC the highest priority must favour `P`;
//! those vertices are then removed and the rest decomposed again.

use thiserror::Error;

use super::game::{Game, Player, VertexId};
use super::solution::Solution;

/// Why a claimed solution is wrong.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum VerifyError {
    /// The solution covers a different number of vertices than the game has.
    #[error("the solution has {found} vertices, the game {expected}")]
    WrongSize {
        /// Vertices in the game.
        expected: usize,
        /// Vertices in the solution.
        found: usize,
    },
    /// A vertex won by its owner has no strategy.
    #[error("vertex {0} is won by its owner but has no strategy")]
    MissingStrategy(u32),
    /// A strategy points to a vertex that is not a successor.
    #[error("the strategy of vertex {from} points to {to}, which is not a successor")]
    NotASuccessor {
        /// The vertex.
        from: u32,
        /// The claimed successor.
        to: u32,
    },
    /// A winner's strategy (or an opponent's move) leaves the winner's region.
    #[error("vertex {from} is claimed won by player {winner}, but play can move to {to}, claimed won by the other player")]
    LeavesRegion {
        /// The vertex.
        from: u32,
        /// The successor outside the region.
        to: u32,
        /// The claimed winner (0 or 1).
        winner: u32,
    },
    /// A cycle in a winner's region has a highest priority favouring the opponent.
    #[error("player {winner} is claimed to win vertex {vertex}, but it lies on a cycle consistent with the strategy whose highest priority is {priority}")]
    BadCycle {
        /// A vertex with the offending priority on the cycle.
        vertex: u32,
        /// The highest priority on the cycle.
        priority: u32,
        /// The claimed winner (0 or 1).
        winner: u32,
    },
}

const UNVISITED: u32 = u32::MAX;

/// Checks `sol` against `game`; see the module docs for the criteria.
pub fn verify(game: &Game, sol: &Solution) -> Result<(), VerifyError> {
    let n = game.num_vertices();
    if sol.len() != n {
        return Err(VerifyError::WrongSize {
            expected: n,
            found: sol.len(),
        });
    }
    // (1) closure.
    for v in game.vertices() {
        let p = sol.winner(v);
        if game.owner(v) == p {
            let s = sol.strategy(v).ok_or(VerifyError::MissingStrategy(v.0))?;
            if !game.successors(v).contains(&s) {
                return Err(VerifyError::NotASuccessor { from: v.0, to: s.0 });
            }
            if sol.winner(s) != p {
                return Err(VerifyError::LeavesRegion {
                    from: v.0,
                    to: s.0,
                    winner: p.number(),
                });
            }
        } else if let Some(&w) = game.successors(v).iter().find(|&&w| sol.winner(w) != p) {
            return Err(VerifyError::LeavesRegion {
                from: v.0,
                to: w.0,
                winner: p.number(),
            });
        }
    }
    // (2) cycles.
    let mut t = Tarjan {
        mark: vec![0; n],
        index: vec![UNVISITED; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stamp: 0,
    };
    for p in [Player::Even, Player::Odd] {
        let mut work: Vec<Vec<u32>> = vec![game
            .vertices()
            .filter(|&v| sol.winner(v) == p)
            .map(|v| v.0)
            .collect()];
        while let Some(set) = work.pop() {
            t.sccs(game, sol, p, &set, &mut |scc| {
                let nontrivial = scc.len() > 1 || {
                    let v = scc[0];
                    (0..)
                        .map_while(|k| edge(game, sol, p, v, k))
                        .any(|w| w == v)
                };
                if !nontrivial {
                    return Ok(());
                }
                let (top_v, top) = scc
                    .iter()
                    .map(|&v| (v, game.priority(VertexId(v))))
                    .max_by_key(|x| x.1)
                    .expect("non-empty scc");
                if Player::of_priority(top) != p {
                    return Err(VerifyError::BadCycle {
                        vertex: top_v,
                        priority: top,
                        winner: p.number(),
                    });
                }
                let rest: Vec<u32> = scc
                    .iter()
                    .copied()
                    .filter(|&v| game.priority(VertexId(v)) != top)
                    .collect();
                if !rest.is_empty() {
                    work.push(rest);
                }
                Ok(())
            })?;
        }
    }
    Ok(())
}

/// The `k`-th edge of `v` in the restricted graph of player `p` (strategy edge at `p`'s own
/// vertices, all edges elsewhere).
#[inline]
fn edge(g: &Game, sol: &Solution, p: Player, v: u32, k: usize) -> Option<u32> {
    let v = VertexId(v);
    if g.owner(v) == p {
        if k == 0 {
            sol.strategy(v).map(|s| s.0)
        } else {
            None
        }
    } else {
        g.successors(v).get(k).map(|w| w.0)
    }
}

struct Tarjan {
    mark: Vec<u32>,
    index: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stamp: u32,
}

impl Tarjan {
    /// Calls `f` on every SCC of the restricted graph induced by `set` (iterative Tarjan).
    fn sccs(
        &mut self,
        g: &Game,
        sol: &Solution,
        p: Player,
        set: &[u32],
        f: &mut dyn FnMut(&[u32]) -> Result<(), VerifyError>,
    ) -> Result<(), VerifyError> {
        self.stamp += 1;
        let stamp = self.stamp;
        for &v in set {
            self.mark[v as usize] = stamp;
            self.index[v as usize] = UNVISITED;
        }
        let mut counter = 0u32;
        let mut stack: Vec<u32> = Vec::new();
        let mut calls: Vec<(u32, usize)> = Vec::new();
        for &root in set {
            if self.index[root as usize] != UNVISITED {
                continue;
            }
            self.index[root as usize] = counter;
            self.low[root as usize] = counter;
            counter += 1;
            stack.push(root);
            self.on_stack[root as usize] = true;
            calls.push((root, 0));
            while let Some(&mut (v, ref mut k)) = calls.last_mut() {
                if let Some(w) = edge(g, sol, p, v, *k) {
                    *k += 1;
                    if self.mark[w as usize] != stamp {
                        continue;
                    }
                    if self.index[w as usize] == UNVISITED {
                        self.index[w as usize] = counter;
                        self.low[w as usize] = counter;
                        counter += 1;
                        stack.push(w);
                        self.on_stack[w as usize] = true;
                        calls.push((w, 0));
                    } else if self.on_stack[w as usize] {
                        self.low[v as usize] = self.low[v as usize].min(self.index[w as usize]);
                    }
                } else {
                    calls.pop();
                    if let Some(&(parent, _)) = calls.last() {
                        self.low[parent as usize] =
                            self.low[parent as usize].min(self.low[v as usize]);
                    }
                    if self.low[v as usize] == self.index[v as usize] {
                        let at = stack
                            .iter()
                            .rposition(|&x| x == v)
                            .expect("v is on the stack");
                        for &x in &stack[at..] {
                            self.on_stack[x as usize] = false;
                        }
                        let r = f(&stack[at..]);
                        stack.truncate(at);
                        r?;
                    }
                }
            }
        }
        Ok(())
    }
}
