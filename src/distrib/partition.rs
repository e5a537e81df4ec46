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
//! Every process chooses the same parameters: it walks the same random walks through the
//! state space on its own (the same successors in the same order everywhere, the same
//! pseudo-random choices), counts how often each parameter changes along the transitions
//! of the states it passes, and takes parameters from the most stable on: of the sets that
//! spread the walks' deeper states well enough over the workers, the one with the least
//! expected time for the busiest worker. Walks, not a breadth-first prefix: a prefix sees
//! only the first levels, where parameters that change later look stable and take few
//! values (measured on D.1: a prefix's choice kept 75 % of the transitions local on the
//! first 4 M states and 63 % on 20 M, with the states spread unevenly). The numbering
//! of the states does not depend on the owners (see [`super`]), so neither does any output.

use super::Portable;

/// A choice of positions must promise at most this part of the busiest worker's time with
/// every position hashed (the walks' estimates are rough: on D.1 they promised 70 % of the
/// transitions local and 49 % were, at 20 M states).
const WORTH: f64 = 0.9;
/// Random walks the choice is made on, and the most steps of each (the states expanded:
/// at most their product).
const WALKS: usize = 64;
const WALK_STEPS: usize = 320;
/// The most rows (walked states and their successors) the walks keep: a state with a
/// great many successors ends the sampling there instead of filling memory (the same
/// point on every process, so the choice stays the same everywhere).
const SAMPLE_ROWS: usize = 400_000;
/// The most any worker may own of the walks' states, as a multiple of an even share.
const MAX_IMBALANCE: f64 = 1.1;
/// Fewest distinct hashed value tuples per worker among the walks' states (a few values
/// spread evenly by chance in a sample and unevenly in the whole space).
const MIN_KEYS_PER_WORKER: usize = 64;

/// The owner function of a run: the row positions hashed.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Partition {
    positions: Vec<usize>,
    peers: u32,
    /// Of the walks' judged transitions, the share whose source and target have the same
    /// owner (an estimate; `remote_successors` of a run says what it was).
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

    /// Chooses the positions for `peers` workers from random walks through `sys` (the
    /// same on every process); every position when a walk fails or no set of positions
    /// spreads the states the walks pass (a small state space, which takes few keys).
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
        let mut order: Vec<usize> = (0..width).collect();
        order.sort_by_key(|&p| (sample.changes[p], p));
        // Per sampled state, the hash of its chosen positions so far.
        let mut hashes = vec![0u64; sample.len()];
        let even = sample.judged.len() as f64 / peers as f64;
        let mut best: Option<(f64, usize, f64)> = None;
        for (k, &p) in order.iter().enumerate() {
            for (s, h) in hashes.iter_mut().enumerate() {
                *h = h.wrapping_add(term(p, position_hash(sys, codec, p, sample.row(s)[p])));
            }
            let mut keys: Vec<u64> = sample.judged.iter().map(|&s| hashes[s]).collect();
            keys.sort_unstable();
            keys.dedup();
            if keys.len() < MIN_KEYS_PER_WORKER * peers as usize {
                continue;
            }
            let mut counts = vec![0usize; peers as usize];
            for &s in &sample.judged {
                counts[bucket(hashes[s], peers) as usize] += 1;
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
        // Hashing every parameter spreads the states evenly and keeps 1/P of the
        // successors at home; a choice must promise clearly better than that.
        let whole_cost = 2.0 - 1.0 / peers as f64;
        let Some((_, k, local_share)) = best.filter(|b| b.0 < WORTH * whole_cost) else {
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

    /// The key of the state of `row`: a sum over the hashed positions of a mix of each
    /// position with its value's hash. A sum, so that a successor's key follows from its
    /// source's by the positions that changed ([`Partition::successor_owner`]).
    pub(super) fn key<S: Portable>(&self, sys: &S, codec: &mut S::Codec, row: &[u32]) -> u64 {
        let mut h = 0u64;
        for &p in &self.positions {
            h = h.wrapping_add(term(p, position_hash(sys, codec, p, row[p])));
        }
        h
    }

    /// The worker that owns the state of `row`.
    pub(super) fn owner<S: Portable>(&self, sys: &S, codec: &mut S::Codec, row: &[u32]) -> u32 {
        if self.peers <= 1 {
            return 0;
        }
        bucket(self.key(sys, codec, row), self.peers)
    }

    /// The owner of `next`, a successor of `src`, whose owner is `src_owner`: the same
    /// when no hashed position changed (most transitions, by the choice), and no value is
    /// hashed then; otherwise from `src`'s key and the values of the positions that
    /// changed only (a transition changes few). `src_key` caches `src`'s key
    /// ([`Partition::key`]) over its successors: it is computed at the first that needs it.
    pub(super) fn successor_owner<S: Portable>(
        &self,
        sys: &S,
        codec: &mut S::Codec,
        (src, src_owner): (&[u32], u32),
        src_key: &mut Option<u64>,
        next: &[u32],
    ) -> u32 {
        let mut key: Option<u64> = None;
        for &p in &self.positions {
            let (a, b) = (src[p], next[p]);
            if a != b {
                let k = match key {
                    Some(k) => k,
                    None => *src_key.get_or_insert_with(|| self.key(sys, codec, src)),
                };
                key = Some(
                    k.wrapping_sub(term(p, position_hash(sys, codec, p, a)))
                        .wrapping_add(term(p, position_hash(sys, codec, p, b))),
                );
            }
        }
        key.map_or(src_owner, |k| bucket(k, self.peers))
    }

    /// The positions hashed, in order.
    pub(super) fn positions(&self) -> &[usize] {
        &self.positions
    }
}

/// The hash of the value at row position `pos` (the same on every process).
fn position_hash<S: Portable>(sys: &S, codec: &mut S::Codec, pos: usize, word: u32) -> u64 {
    if sys.literal(pos) {
        (word as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)
    } else {
        sys.value_hash(codec, word)
    }
}

/// Position `pos` holding a value whose hash is `v`, as one summand of a key: a full
/// avalanche of both (splitmix64's finaliser), so that sums of a few summands still spread.
fn term(pos: usize, v: u64) -> u64 {
    fmix(v.wrapping_add((pos as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)))
}

/// The worker of a key: the key goes through a full avalanche first. A weak final mix
/// would keep the low bits of a sum tied to those of its summands, so transitions that
/// add the same difference (a flag that toggles, a counter that steps) would move their
/// sources' owners alike.
fn bucket(h: u64, peers: u32) -> u32 {
    (fmix(h) % peers as u64) as u32
}

/// splitmix64's finaliser: every output bit depends on every input bit.
fn fmix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Random walks from the initial state: the rows of the states they pass and of those
/// states' successors, the transitions of the judged states, and per position how many of
/// those change it.
struct Sample {
    width: usize,
    rows: Vec<u32>,
    /// (source, target) row indices: every transition of every judged state.
    edges: Vec<(usize, usize)>,
    changes: Vec<u64>,
    /// The rows the balance is judged on: the states the walks passed after their first
    /// quarter (deep in the state space, where most states are).
    judged: Vec<usize>,
}

impl Sample {
    /// Walks [`WALKS`] walks of up to [`WALK_STEPS`] steps, each step to a successor
    /// drawn by a fixed pseudo-random sequence (the same on every process); `None` when
    /// the system fails on a state (the search proper reports that) or its states have no
    /// parameters.
    fn explore<S: Portable>(sys: &S) -> Option<Sample> {
        let width = sys.state_width();
        if width == 0 {
            // One state at most: nothing to hash.
            return None;
        }
        let mut w = sys.worker();
        let mut init = Vec::with_capacity(width);
        sys.initial_state(&mut w, &mut init).ok()?;
        let mut sample = Sample {
            width,
            rows: Vec::new(),
            edges: Vec::new(),
            changes: vec![0; width],
            judged: Vec::new(),
        };
        let mut rng: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut cur = Vec::with_capacity(width);
        for _ in 0..WALKS {
            cur.clear();
            cur.extend_from_slice(&init);
            for step in 0..WALK_STEPS {
                let from = sample.len();
                sample.rows.extend_from_slice(&cur);
                // Only the deeper states count (the first ones are few and alike, and
                // their transitions, such as an initial choice, are rarely taken again).
                let judged = step >= WALK_STEPS / 4;
                if judged {
                    sample.judged.push(from);
                }
                let mut bad = false;
                let (rows, edges, changes) =
                    (&mut sample.rows, &mut sample.edges, &mut sample.changes);
                sys.successors(&mut w, &cur, &mut |_, next| {
                    if next.len() != width {
                        bad = true;
                        return;
                    }
                    if judged {
                        for (p, (a, b)) in cur.iter().zip(next).enumerate() {
                            changes[p] += (a != b) as u64;
                        }
                        edges.push((from, rows.len() / width));
                    }
                    rows.extend_from_slice(next);
                })
                .ok()?;
                if bad {
                    return None;
                }
                let n = sample.len() - from - 1;
                if n == 0 {
                    break;
                }
                if sample.len() >= SAMPLE_ROWS {
                    return Some(sample);
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let pick = from + 1 + (rng % n as u64) as usize;
                cur.clear();
                cur.extend_from_slice(sample.row(pick));
            }
        }
        Some(sample)
    }

    /// The rows kept (the width is never 0: such a system is not sampled).
    fn len(&self) -> usize {
        self.rows.len() / self.width
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

    fn lps(src: &SourceFile) -> crate::lps::Lps {
        let spec = check_specification(src).expect("well-typed");
        linearise(&spec, LineariseOptions::default()).expect("linearisable")
    }

    /// A first step sets `m` to one of 1000 values; after it `x` and `y` count round
    /// and round, and `m` moves on only when both are 0. The stable parameters are
    /// hashed, and the owner of a successor is the owner of its row.
    #[test]
    fn the_seldom_changed_parameters_are_hashed() {
        let src = SourceFile::new(
            "p.mcrl2",
            "act a, b, c;\n\
             proc P(s: Bool, x: Nat, y: Nat, m: Nat) =\n\
                 sum k: Nat . (!s && k < 1000) -> c . P(s = true, m = k)\n\
               + s -> a . P(x = (x + 1) mod 5)\n\
               + s -> b . P(y = (y + 1) mod 5)\n\
               + (s && x == 0 && y == 0) -> c . P(m = (m + 1) mod 1000);\n\
             init P(false, 0, 0, 0);",
        );
        let lps = lps(&src);
        let store = TermStore::new();
        let sys = LpsSystem::new(&lps, &store, None).expect("compiles");
        let names: Vec<String> = sys.parameters().into_iter().map(|(n, _)| n).collect();
        let mut codec = Default::default();
        let p = Partition::choose(&sys, &mut codec, 2);
        let hashed: Vec<&str> = p.positions().iter().map(|&i| names[i].as_str()).collect();
        assert_eq!(hashed, ["s", "m"]);
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
            let mut key = None;
            owned[o as usize] += 1;
            sys.successors(&mut w, row, &mut |_, next| {
                let via =
                    p.successor_owner(&sys, &mut Default::default(), (row, o), &mut key, next);
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
        let lps = lps(&src);
        let store = TermStore::new();
        let sys = LpsSystem::new(&lps, &store, None).expect("compiles");
        let p = Partition::choose(&sys, &mut Default::default(), 3);
        assert_eq!(p, Partition::whole(sys.state_width(), 3));
    }

    /// States without parameters (one state at most): nothing to sample or hash.
    #[test]
    fn states_without_parameters_hash_nothing() {
        let src = SourceFile::new("r.mcrl2", "act a;\nproc P = a . P;\ninit P;");
        let lps = lps(&src);
        let store = TermStore::new();
        let sys = LpsSystem::new(&lps, &store, None).expect("compiles");
        assert_eq!(sys.state_width(), 0);
        let p = Partition::choose(&sys, &mut Default::default(), 2);
        assert_eq!(p, Partition::whole(0, 2));
        assert!(p.owner(&sys, &mut Default::default(), &[]) < 2);
    }
}
