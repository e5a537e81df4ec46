//! Game generators for benchmarks and tests (deterministic from a seed).

use super::game::{Game, GameBuilder, Player, VertexId};

/// A small, fast, seedable pseudo-random generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

/// A random game: `n` vertices, random owners, priorities uniform in `0..priorities`, and
/// `min_out..=max_out` successors per vertex chosen uniformly (self-loops allowed).
pub fn random_game(n: u32, priorities: u32, min_out: u32, max_out: u32, seed: u64) -> Game {
    assert!(n > 0 && priorities > 0 && min_out >= 1 && max_out >= min_out);
    let mut rng = Rng::new(seed);
    let avg = (min_out + max_out) as usize / 2 + 1;
    let mut b = GameBuilder::with_capacity(n as usize, n as usize * avg);
    let mut succ = Vec::with_capacity(max_out as usize);
    for _ in 0..n {
        let owner = if rng.next_u64() & 1 == 0 {
            Player::Even
        } else {
            Player::Odd
        };
        let v = b.add_vertex(owner, rng.below(priorities as u64) as u32);
        let k = min_out + rng.below((max_out - min_out + 1) as u64) as u32;
        succ.clear();
        for _ in 0..k {
            succ.push(VertexId(rng.below(n as u64) as u32));
        }
        b.set_successors(v, &succ);
    }
    b.freeze().expect("random games are well-formed")
}

/// A "ladder" of `n` vertices: vertex `i` moves to `i + 1` and `i + 2` (cyclically), owners
/// alternate in pairs and priorities alternate in parity while growing, so every attractor
/// is short and Zielonka recurses through all priorities.
pub fn ladder_game(n: u32) -> Game {
    assert!(n > 0);
    let mut b = GameBuilder::with_capacity(n as usize, 2 * n as usize);
    for i in 0..n {
        let owner = if (i / 2) % 2 == 0 {
            Player::Even
        } else {
            Player::Odd
        };
        let v = b.add_vertex(owner, i);
        b.set_successors(v, &[VertexId((i + 1) % n), VertexId((i + 2) % n)]);
    }
    b.freeze().expect("ladder games are well-formed")
}

/// A model-checking-like game: few priorities (`0..4`), mostly disjunctive/conjunctive
/// chains with random back edges, like the structure graphs `pbesinst` produces.
pub fn mc_game(n: u32, seed: u64) -> Game {
    assert!(n > 0);
    let mut rng = Rng::new(seed);
    let mut b = GameBuilder::with_capacity(n as usize, 3 * n as usize);
    let mut succ = Vec::new();
    for i in 0..n {
        let owner = if rng.below(2) == 0 {
            Player::Even
        } else {
            Player::Odd
        };
        let v = b.add_vertex(owner, rng.below(4) as u32);
        succ.clear();
        succ.push(VertexId((i + 1) % n));
        for _ in 0..rng.below(3) {
            // Mostly local edges, sometimes far back.
            let w = if rng.below(8) == 0 {
                rng.below(n as u64) as u32
            } else {
                i.saturating_sub(rng.below(16) as u32)
            };
            succ.push(VertexId(w));
        }
        b.set_successors(v, &succ);
    }
    b.freeze().expect("generated games are well-formed")
}
