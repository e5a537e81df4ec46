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

/// The most states all subsets may hold together (each is stored once, so this bounds
/// their memory at 512 MB).
pub const MAX_ELEMENTS: u64 = 1 << 27;

const NONE: u32 = u32::MAX;

/// The deterministic LTS whose states are the sets of states of `lts` reachable by one trace
/// (tau-closed and without tau-steps when `weak`); at most `max_states` subsets, holding at
/// most [`MAX_ELEMENTS`] states together.
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
    // Each subset is stored once, exactly sized; the index maps a subset's hash to the first
    // subset with that hash, and `same_hash` chains the others.
    let mut sets: Vec<Box<[u32]>> = Vec::new();
    let mut index: FxHashMap<u64, u32> = FxHashMap::default();
    let mut same_hash: Vec<u32> = Vec::new();
    let hash_of = |set: &[u32]| {
        let mut h = FxHasher::default();
        set.hash(&mut h);
        h.finish()
    };
    let mut first = vec![lts.initial.0];
    close(&mut first);
    index.insert(hash_of(&first), 0);
    same_hash.push(NONE);
    sets.push(first.into_boxed_slice());
    let mut target: Vec<u32> = Vec::new();
    let mut elements = 0u64;
    let mut transitions = Vec::new();
    let mut steps: Vec<(u32, u32)> = Vec::new();
    let mut i = 0;
    while i < sets.len() {
        watch.tick(i as u64, || {
            format!(
                "{} of {} subsets determinised",
                grouped(i as u64),
                grouped(sets.len() as u64)
            )
        })?;
        steps.clear();
        for &s in &sets[i] {
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
            let h = hash_of(&target);
            let mut found = index.get(&h).copied().unwrap_or(NONE);
            while found != NONE && *sets[found as usize] != *target {
                found = same_hash[found as usize];
            }
            let id = if found != NONE {
                found
            } else {
                if sets.len() as u64 >= max_states {
                    return Err(ReduceError::TooManySubsets { limit: max_states });
                }
                elements += target.len() as u64;
                if elements > MAX_ELEMENTS {
                    return Err(ReduceError::SubsetsTooLarge {
                        limit: MAX_ELEMENTS,
                        subsets: sets.len() as u64,
                    });
                }
                let id = sets.len() as u32;
                same_hash.push(index.insert(h, id).unwrap_or(NONE));
                sets.push(target.as_slice().into());
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
        num_states: sets.len() as u32,
        labels: lts.labels.clone(),
        transitions,
    })
}
