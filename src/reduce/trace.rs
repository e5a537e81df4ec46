//! Determinisation by the subset construction, for trace and weak trace equivalence.
//!
//! For (strong) trace equivalence tau is an ordinary label. For weak trace equivalence a
//! subset is closed under tau-steps and the determinised LTS has no tau. Two LTSs are
//! (weak) trace equivalent exactly when their determinisations are strongly bisimilar, and
//! the strong bisimulation quotient of a determinisation is the minimal deterministic LTS.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

use super::ReduceError;
use crate::lts::{LabelId, Lts, StateId, Transition};
use crate::progress::{grouped, Unwatched, Watch};

const NONE: u32 = u32::MAX;

/// The deterministic LTS whose states are the sets of states of `lts` reachable by one trace
/// (tau-closed and without tau-steps when `weak`); at most `max_states` subsets. Nothing
/// else bounds the subsets: a watched run stops at its memory limit.
pub fn determinise(lts: &Lts, weak: bool, max_states: u64) -> Result<Lts, ReduceError> {
    determinise_watched(lts, weak, max_states, &mut Unwatched)
}

/// [`determinise`] under `watch`: one tick per subset whose successors are built.
pub fn determinise_watched<W: Watch>(
    lts: &Lts,
    weak: bool,
    max_states: u64,
    watch: &mut W,
) -> Result<Lts, ReduceError>
where
    ReduceError: From<W::Stop>,
{
    let n = lts.num_states as usize;
    let is_tau: Vec<bool> = lts.labels.iter().map(|l| weak && l.is_tau()).collect();
    let mut out_start = vec![0u32; n + 1];
    for t in &lts.transitions {
        out_start[t.from.index() + 1] += 1;
    }
    for i in 0..n {
        out_start[i + 1] += out_start[i];
    }
    let mut fill = out_start.clone();
    let mut out = vec![(0u32, 0u32); lts.transitions.len()];
    for t in &lts.transitions {
        out[fill[t.from.index()] as usize] = (t.label.0, t.to.0);
        fill[t.from.index()] += 1;
    }
    let mut mark = vec![u32::MAX; n];
    let mut stamp = 0u32;
    // Sorts `set` and closes it under tau-steps (when weak).
    let mut close = |set: &mut Vec<u32>| {
        stamp += 1;
        let mut i = 0;
        for &s in set.iter() {
            mark[s as usize] = stamp;
        }
        while i < set.len() {
            let s = set[i] as usize;
            i += 1;
            for &(a, t) in &out[out_start[s] as usize..out_start[s + 1] as usize] {
                if is_tau[a as usize] && mark[t as usize] != stamp {
                    mark[t as usize] = stamp;
                    set.push(t);
                }
            }
        }
        set.sort_unstable();
        set.dedup();
    };
    // Each subset is stored once, in one arena as the gaps between its sorted elements in
    // LEB128 ([`encode`]): a subset's states lie close together, so most gaps take a byte
    // where a word took four (academic/onebit: 5.96 M subsets, 5.2 GB at peak as words).
    // The encoding of a set is unique, so equal sets have equal bytes. The index maps a
    // subset's hash to the first subset with that hash, and `same_hash` chains the others.
    let mut arena: Vec<u8> = Vec::new();
    let mut bytes: Vec<u8> = Vec::new();
    let mut starts: Vec<u64> = vec![0];
    let mut index: FxHashMap<u64, u32> = FxHashMap::default();
    let mut same_hash: Vec<u32> = Vec::new();
    let hash_of = |set: &[u8]| {
        let mut h = FxHasher::default();
        set.hash(&mut h);
        h.finish()
    };
    let mut first = vec![lts.initial.0];
    close(&mut first);
    encode(&first, &mut bytes);
    index.insert(hash_of(&bytes), 0);
    same_hash.push(NONE);
    arena.extend_from_slice(&bytes);
    starts.push(arena.len() as u64);
    let mut target: Vec<u32> = Vec::new();
    let mut transitions = Vec::new();
    let mut steps: Vec<(u32, u32)> = Vec::new();
    // Subset numbers are state numbers: below u32::MAX (the `NONE` mark).
    let cap = max_states.min(u64::from(NONE));
    let mut i = 0;
    while i + 1 < starts.len() {
        let subsets = starts.len() - 1;
        watch.tick(i as u64, || {
            format!(
                "{} of {} subsets determinised",
                grouped(i as u64),
                grouped(subsets as u64)
            )
        })?;
        steps.clear();
        for s in decode(&arena[starts[i] as usize..starts[i + 1] as usize]) {
            let s = s as usize;
            for &(a, t) in &out[out_start[s] as usize..out_start[s + 1] as usize] {
                if !is_tau[a as usize] {
                    steps.push((a, t));
                }
            }
        }
        steps.sort_unstable();
        steps.dedup();
        let mut j = 0;
        while j < steps.len() {
            let a = steps[j].0;
            target.clear();
            while j < steps.len() && steps[j].0 == a {
                target.push(steps[j].1);
                j += 1;
            }
            close(&mut target);
            encode(&target, &mut bytes);
            let h = hash_of(&bytes);
            let mut found = index.get(&h).copied().unwrap_or(NONE);
            while found != NONE {
                let f = found as usize;
                if arena[starts[f] as usize..starts[f + 1] as usize] == *bytes {
                    break;
                }
                found = same_hash[f];
            }
            let id = if found != NONE {
                found
            } else {
                let n = starts.len() as u64 - 1;
                if n >= cap {
                    return Err(ReduceError::TooManySubsets { limit: cap });
                }
                let id = n as u32;
                same_hash.push(index.insert(h, id).unwrap_or(NONE));
                arena.extend_from_slice(&bytes);
                starts.push(arena.len() as u64);
                id
            };
            transitions.push(Transition {
                from: StateId(i as u32),
                label: LabelId(a),
                to: StateId(id),
            });
        }
        i += 1;
    }
    Ok(Lts {
        initial: StateId(0),
        num_states: (starts.len() - 1) as u32,
        labels: lts.labels.clone(),
        transitions,
    })
}

/// Writes the sorted, duplicate-free `set` into `out` (cleared first) as the LEB128 of each
/// element's distance from the one before it (the first from 0).
fn encode(set: &[u32], out: &mut Vec<u8>) {
    out.clear();
    let mut prev = 0u32;
    for &x in set {
        let mut gap = x - prev;
        prev = x;
        while gap >= 0x80 {
            out.push((gap & 0x7f) as u8 | 0x80);
            gap >>= 7;
        }
        out.push(gap as u8);
    }
}

/// The elements [`encode`] wrote into `bytes`, in order.
fn decode(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    let mut i = 0;
    let mut prev = 0u32;
    std::iter::from_fn(move || {
        if i == bytes.len() {
            return None;
        }
        let mut gap = 0u32;
        let mut shift = 0;
        loop {
            let b = bytes[i];
            i += 1;
            gap |= u32::from(b & 0x7f) << shift;
            if b < 0x80 {
                break;
            }
            shift += 7;
        }
        prev += gap;
        Some(prev)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A set's encoding decodes to the set, whatever its gaps (any `u32`, up to the
        /// five bytes of the largest).
        #[test]
        fn encoding_decodes(a in proptest::collection::btree_set(any::<u32>(), 0..40)) {
            let a: Vec<u32> = a.into_iter().collect();
            let mut e = Vec::new();
            encode(&a, &mut e);
            prop_assert_eq!(decode(&e).collect::<Vec<_>>(), a);
        }

        /// Two sets encode alike exactly when they are equal: drawn from a few small
        /// states (so equal pairs are common) and with gaps past one byte.
        #[test]
        fn encoding_is_unique(
            a in proptest::collection::btree_set(0u32..6, 0..5),
            b in proptest::collection::btree_set(0u32..6, 0..5),
            wide in any::<bool>(),
        ) {
            let scale = |s: std::collections::BTreeSet<u32>| -> Vec<u32> {
                s.into_iter().map(|x| if wide { x * 200 } else { x }).collect()
            };
            let (a, b) = (scale(a), scale(b));
            let (mut ea, mut eb) = (Vec::new(), Vec::new());
            encode(&a, &mut ea);
            encode(&b, &mut eb);
            prop_assert_eq!(ea == eb, a == b);
        }
    }
}
