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

/// Van Dijk's "two binary counters" family (GandALF 2019, "A Parity Game Tale of Two
/// Counters"): an exponential lower bound for Zielonka-style solvers; `bits` bits per
/// counter, about `3 * bits^2` vertices. Built from the published description.
pub fn two_counters_game(bits: u32) -> Game {
    assert!(bits > 0);
    let n = bits as usize;
    // Layout: for every bit i, an Even block then an Odd block, each of 4 + 3i vertices.
    let (mut base, mut input) = (
        [vec![0usize; n], vec![0usize; n]],
        [vec![0usize; n], vec![0usize; n]],
    );
    let mut size = 0;
    for i in 0..n {
        for pl in 0..2 {
            base[pl][i] = size;
            input[pl][i] = size + 2;
            size += 4 + 3 * i;
        }
    }
    let mut prio = vec![0u32; size];
    let mut owner = vec![Player::Even; size];
    let mut succ: Vec<Vec<u32>> = vec![Vec::new(); size];
    let player = |p: usize| if p == 0 { Player::Even } else { Player::Odd };
    let mut lo = 0u32;
    let mut top = ((n + 3) * n + 6 * n) as u32;
    for i in 0..n {
        lo += 2 * (n as u32 + 1 - i as u32);
        for pl in 0..2usize {
            let (hi_p, in_p, lo_p) = if pl == 0 {
                (top, top - 2 * n as u32 - 1, lo)
            } else {
                (top - 1, top - 2 * n as u32 - 2, lo + 1)
            };
            let c = base[pl][i];
            let (high, low, gate, sel) = (c, c + 1, c + 2, c + 3);
            prio[high] = hi_p;
            owner[high] = player(pl);
            prio[low] = lo_p;
            owner[low] = player(1 - pl);
            prio[gate] = in_p;
            owner[gate] = player(1 - pl);
            owner[sel] = player(pl);
            succ[low].push(high as u32);
            succ[gate].push(low as u32);
            succ[sel].push(low as u32);
            succ[low].push(if i == 0 { sel } else { c + 4 } as u32);
            // A chain of selectors: each chooses between this player's and the opponent's
            // input of a lower bit j, then continues to the next selector or to `sel`.
            for j in 0..i {
                let d = c + 4 + 3 * j;
                owner[d] = player(pl);
                owner[d + 1] = player(1 - pl);
                owner[d + 2] = player(1 - pl);
                succ[d].extend([(d + 1) as u32, (d + 2) as u32]);
                let next = if j + 1 != i { d + 3 } else { sel };
                succ[d + 1].extend([next as u32, input[pl][j] as u32]);
                succ[d + 2].extend([next as u32, input[1 - pl][j] as u32]);
            }
            succ[high].push(input[pl][(i + n - 1) % n] as u32);
            for j in i + pl..n {
                succ[sel].push(input[1 - pl][j] as u32);
            }
        }
        top -= 2;
    }
    let mut b = GameBuilder::with_capacity(size, size * 3);
    for v in 0..size {
        let id = b.add_vertex(owner[v], prio[v]);
        let s: Vec<VertexId> = succ[v].iter().map(|&w| VertexId(w)).collect();
        b.set_successors(id, &s);
    }
    b.freeze().expect("two-counters games are well-formed")
}
