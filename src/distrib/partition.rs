//! Which worker owns a state: a hash of part of its values, chosen so that most
//! transitions stay with their source's owner.
//!
//! A successor whose owner is the expanding worker is looked up from its source's tree with
//! no message at all; one owned elsewhere costs a record of its whole row and the owner's
//! look-up without that tree. Hashing all the values scatters the successors evenly, so on
//! P workers only 1/P of them stay. Most transitions of a protocol change a few
//! parameters (one process's control state and its local data), so hashing only the
//! parameters that transitions seldom change keeps most successors at home, as long as
//! those parameters still spread the states over the workers.
//!
//! Every process chooses the same parameters: it explores the same breadth-first prefix of
//! the state space on its own (the same successors in the same order everywhere), counts
//! how often each parameter changes along its transitions, and takes parameters from the
//! most stable on: of the sets that spread the prefix's later states well enough over the
//! workers, the one with the least expected time for the busiest worker. The numbering
//! of the states does not depend on the owners (see [`super`]), so neither does any output.

use rustc_hash::FxHashMap;

use super::Portable;

/// States of the breadth-first prefix the choice is made on.
const SAMPLE_STATES: usize = 20_000;
/// Fewer sampled states than this per worker: the prefix says too little (a small state
/// space, which is all explored at once anyway), so every parameter is hashed.
const MIN_STATES_PER_WORKER: usize = 64;
/// The most any worker may own of the prefix's states, as a multiple of an even share.
const MAX_IMBALANCE: f64 = 1.25;
/// Fewest distinct hashed value tuples per worker in the prefix (a few values spread
/// evenly by chance in a prefix and unevenly in the whole space).
const MIN_KEYS_PER_WORKER: usize = 64;

/// The owner function of a run: the row positions hashed.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Partition {
    positions: Vec<usize>,
    peers: u32,
    /// Of the prefix's transitions, the share whose source and target have the same owner.
    pub(super) local_share: f64,
}

impl Partition {
    /// Every position hashed (the even spread of a hash of the whole state).
    pub(super) fn whole(width: usize, peers: u32) -> Partition {
        Partition {
            positions: (0..width).collect(),
            peers,
            local_share: 1.0 / peers.max(1) as f64,
        }
    }

    /// Chooses the positions for `peers` workers from a breadth-first prefix of `sys`
    /// (the same on every process); every position when the prefix cannot be explored
    /// or says too little.
    pub(super) fn choose<S: Portable>(sys: &S, codec: &mut S::Codec, peers: u32) -> Partition {
        let width = sys.state_width();
        let whole = Partition::whole(width, peers);
        if peers <= 1 {
            return Partition {
                positions: Vec::new(),
                peers: 1,
                local_share: 1.0,
            };
        }
        let Some(sample) = Sample::explore(sys) else {
            return whole;
        };
        if sample.len() < MIN_STATES_PER_WORKER * peers as usize {
            return whole;
        }
        let mut order: Vec<usize> = (0..width).collect();
        order.sort_by_key(|&p| (sample.changes[p], p));
        // Per sampled state, the hash of its chosen positions so far.
        let mut hashes = vec![SEED; sample.len()];
        // The balance is judged on the later half of the prefix: its first states are
        // few and alike, and those of the deeper levels are more like the whole space's.
        let later = sample.len() / 2;
        let even = (sample.len() - later) as f64 / peers as f64;
        let mut best: Option<(f64, usize, f64)> = None;
        for (k, &p) in order.iter().enumerate() {
            for (s, h) in hashes.iter_mut().enumerate() {
                *h = mix(*h, position_hash(sys, codec, p, sample.row(s)[p]));
            }
            let mut keys: Vec<u64> = hashes[later..].to_vec();
            keys.sort_unstable();
            keys.dedup();
            if keys.len() < MIN_KEYS_PER_WORKER * peers as usize {
                continue;
            }
            let mut counts = vec![0usize; peers as usize];
            for &h in &hashes[later..] {
                counts[bucket(h, peers) as usize] += 1;
            }
            let imbalance = counts.iter().copied().max().unwrap_or(0) as f64 / even;
            if imbalance > MAX_IMBALANCE {
                continue;
            }
            let local = sample
                .edges
                .iter()
                .filter(|&&(s, t)| bucket(hashes[s], peers) == bucket(hashes[t], peers))
                .count() as f64
                / sample.edges.len().max(1) as f64;
            // The busiest worker's time: its share of the states, each costing once more
            // for the successors it sends away (about what a remote successor costs:
            // its record written, sent, read, and looked up without its source's tree).
            let cost = imbalance * (2.0 - local);
            if best.is_none_or(|(c, _, _)| cost <= c) {
                best = Some((cost, k, local));
            }
        }
        let Some((_, k, local_share)) = best else {
            return whole;
        };
        let mut positions: Vec<usize> = order[..=k].to_vec();
        positions.sort_unstable();
        Partition {
            positions,
            peers,
            local_share,
        }
    }

    /// The worker that owns the state of `row`.
    pub(super) fn owner<S: Portable>(&self, sys: &S, codec: &mut S::Codec, row: &[u32]) -> u32 {
        if self.peers <= 1 {
            return 0;
        }
        let mut h = SEED;
        for &p in &self.positions {
            h = mix(h, position_hash(sys, codec, p, row[p]));
        }
        bucket(h, self.peers)
    }

    /// The owner of `next`, a successor of `src`, whose owner is `src_owner`: the same
    /// when no hashed position changed (most transitions, by the choice), and no value is
    /// hashed then.
    pub(super) fn successor_owner<S: Portable>(
        &self,
        sys: &S,
        codec: &mut S::Codec,
        src: &[u32],
        src_owner: u32,
        next: &[u32],
    ) -> u32 {
        if self.positions.iter().all(|&p| src[p] == next[p]) {
            src_owner
        } else {
            self.owner(sys, codec, next)
        }
    }

    /// The positions hashed, in order.
    pub(super) fn positions(&self) -> &[usize] {
        &self.positions
    }
}

const SEED: u64 = 0x243F_6A88_85A3_08D3;

/// The hash of the value at row position `pos` (the same on every process).
fn position_hash<S: Portable>(sys: &S, codec: &mut S::Codec, pos: usize, word: u32) -> u64 {
    if sys.literal(pos) {
        (word as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)
    } else {
        sys.value_hash(codec, word)
    }
}

fn mix(h: u64, v: u64) -> u64 {
    let h = (h ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    h ^ (h >> 29)
}

fn bucket(h: u64, peers: u32) -> u32 {
    ((h ^ (h >> 32)) % peers as u64) as u32
}

/// A breadth-first prefix: its states' rows, its transitions between them, and per
/// position how many of them change it.
struct Sample {
    width: usize,
    rows: Vec<u32>,
    edges: Vec<(usize, usize)>,
    changes: Vec<u64>,
}

impl Sample {
    /// Explores up to [`SAMPLE_STATES`] states; `None` when the system fails on one (the
    /// search proper reports that).
    fn explore<S: Portable>(sys: &S) -> Option<Sample> {
        let width = sys.state_width();
        let mut w = sys.worker();
        let mut row = Vec::with_capacity(width);
        sys.initial_state(&mut w, &mut row).ok()?;
        let mut index: FxHashMap<Vec<u32>, usize> = FxHashMap::default();
        index.insert(row.clone(), 0);
        let mut sample = Sample {
            width,
            rows: row,
            edges: Vec::new(),
            changes: vec![0; width],
        };
        let mut next_state = 0;
        let mut cur = Vec::with_capacity(width);
        while next_state < sample.len() {
            cur.clear();
            cur.extend_from_slice(sample.row(next_state));
            let mut bad = false;
            let (rows, edges, changes) = (&mut sample.rows, &mut sample.edges, &mut sample.changes);
            let from = next_state;
            sys.successors(&mut w, &cur, &mut |_, next| {
                if next.len() != width {
                    bad = true;
                    return;
                }
                for (p, (a, b)) in cur.iter().zip(next).enumerate() {
                    changes[p] += (a != b) as u64;
                }
                let n = index.len();
                let to = if n < SAMPLE_STATES {
                    *index.entry(next.to_vec()).or_insert_with(|| {
                        rows.extend_from_slice(next);
                        n
                    })
                } else {
                    match index.get(next) {
                        Some(&t) => t,
                        None => return,
                    }
                };
                edges.push((from, to));
            })
            .ok()?;
            if bad {
                return None;
            }
            next_state += 1;
        }
        Some(sample)
    }

    fn len(&self) -> usize {
        self.rows.len() / self.width.max(1)
    }

    fn row(&self, s: usize) -> &[u32] {
        &self.rows[s * self.width..(s + 1) * self.width]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::TermStore;
    use crate::lps::{linearise, LineariseOptions};
    use crate::lts::lps::LpsSystem;
    use crate::lts::TransitionSystem;
    use crate::process::typecheck::check_specification;
    use crate::source::SourceFile;

    /// `m` counts to 1000 once both counters `x` and `y`, which the other transitions
    /// move, are full. The stable parameter is hashed, and the owner of a successor is the
    /// owner of its row.
    #[test]
    fn the_seldom_changed_parameters_are_hashed() {
        let src = SourceFile::new(
            "p.mcrl2",
            "act a, b, c;\n\
             proc P(x: Nat, y: Nat, m: Nat) = (x < 5) -> a . P(x = x + 1)\n\
               + (y < 5) -> b . P(y = y + 1)\n\
               + (x == 5 && y == 5) -> c . P(x = 0, y = 0, m = (m + 1) mod 1000);\n\
             init P(0, 0, 0);",
        );
        let lps = linearise(
            &check_specification(&src).expect("well-typed"),
            LineariseOptions::default(),
        )
        .expect("linearisable");
        let store = TermStore::new();
        let sys = LpsSystem::new(&lps, &store, None).expect("compiles");
        let names: Vec<String> = sys.parameters().into_iter().map(|(n, _)| n).collect();
        let mut codec = Default::default();
        let p = Partition::choose(&sys, &mut codec, 2);
        let hashed: Vec<&str> = p.positions().iter().map(|&i| names[i].as_str()).collect();
        assert_eq!(hashed, ["m"]);
        assert!(p.local_share > 0.9, "{p:?}");
        // One worker: nothing hashed, everything local.
        let one = Partition::choose(&sys, &mut codec, 1);
        assert!(one.positions().is_empty() && one.local_share == 1.0);
        // The owner of a successor found from its source's is the owner of its row, and
        // the states spread over both workers.
        let sample = Sample::explore(&sys).expect("explorable");
        let mut w = sys.worker();
        let mut owned = [0usize; 2];
        for s in 0..sample.len() {
            let row = sample.row(s);
            let o = p.owner(&sys, &mut codec, row);
            owned[o as usize] += 1;
            sys.successors(&mut w, row, &mut |_, next| {
                let via = p.successor_owner(&sys, &mut Default::default(), row, o, next);
                assert_eq!(via, p.owner(&sys, &mut Default::default(), next));
            })
            .unwrap();
        }
        assert!(owned.iter().all(|&k| k * 3 > sample.len()), "{owned:?}");
    }

    /// A state space too small to judge by: every parameter is hashed.
    #[test]
    fn a_small_state_space_hashes_every_parameter() {
        let src = SourceFile::new(
            "q.mcrl2",
            "act a;\nproc P(x: Nat, y: Bool) = (x < 5) -> a . P(x = x + 1, y = !y);\ninit P(0, true);",
        );
        let lps = linearise(
            &check_specification(&src).expect("well-typed"),
            LineariseOptions::default(),
        )
        .expect("linearisable");
        let store = TermStore::new();
        let sys = LpsSystem::new(&lps, &store, None).expect("compiles");
        let p = Partition::choose(&sys, &mut Default::default(), 3);
        assert_eq!(p, Partition::whole(sys.state_width(), 3));
    }
}
