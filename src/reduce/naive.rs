//! A deliberately simple reference: signature refinement to a fixpoint on the original LTS,
//! with inert-tau closures recomputed by search for every state in every round. Cubic or
//! worse; for cross-checking the fast algorithms on small systems (`tests/reduce_props.rs`).
//! Beside it, the simulation preorder by its definition and refinement checking over pairs
//! of subsets, the references of [`super::simulation`] and [`super::refinement`].

use rustc_hash::FxHashMap;

use super::{Bisimulation, Partition};
use crate::lts::Lts;

/// The pseudo-label that marks divergence in a signature.
const DIV: u32 = u32::MAX;

/// The coarsest bisimulation of kind `kind` on `lts` (tau: the labels that print as `tau`).
pub fn partition(lts: &Lts, kind: Bisimulation) -> Partition {
    let n = lts.num_states as usize;
    let is_tau: Vec<bool> = lts.labels.iter().map(|l| l.is_tau()).collect();
    let mut out: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    for t in &lts.transitions {
        out[t.from.index()].push((t.label.0, t.to.0));
    }
    let mut block = vec![0u32; n];
    let mut num_blocks = 1usize;
    loop {
        let inert = |s: usize, a: u32, t: u32| is_tau[a as usize] && block[t as usize] == block[s];
        // Divergent states: the greatest set D with an inert tau into D from each member.
        let mut div = vec![true; n];
        if kind == Bisimulation::DivergenceBranching {
            let mut changed = true;
            while changed {
                changed = false;
                for s in 0..n {
                    if div[s]
                        && !out[s]
                            .iter()
                            .any(|&(a, t)| inert(s, a, t) && div[t as usize])
                    {
                        div[s] = false;
                        changed = true;
                    }
                }
            }
        }
        let mut ids: FxHashMap<(u32, Vec<(u32, u32)>), u32> = FxHashMap::default();
        let mut next = vec![0u32; n];
        for s in 0..n {
            let mut sig: Vec<(u32, u32)> = Vec::new();
            match kind {
                Bisimulation::Strong => {
                    sig.extend(out[s].iter().map(|&(a, t)| (a, block[t as usize])));
                }
                Bisimulation::Branching | Bisimulation::DivergenceBranching => {
                    let mut seen = vec![false; n];
                    let mut stack = vec![s];
                    seen[s] = true;
                    while let Some(u) = stack.pop() {
                        for &(a, t) in &out[u] {
                            if inert(u, a, t) {
                                if !seen[t as usize] {
                                    seen[t as usize] = true;
                                    stack.push(t as usize);
                                }
                            } else {
                                sig.push((a, block[t as usize]));
                            }
                        }
                    }
                    if kind == Bisimulation::DivergenceBranching && div[s] {
                        sig.push((DIV, block[s]));
                    }
                }
            }
            sig.sort_unstable();
            sig.dedup();
            let fresh = ids.len() as u32;
            next[s] = *ids.entry((block[s], sig)).or_insert(fresh);
        }
        let count = ids.len();
        block = next;
        if count == num_blocks {
            return Partition::from_blocks(block, count as u32);
        }
        num_blocks = count;
    }
}

/// The simulation preorder by its definition: `le[s][t]` (t simulates s) starts true and is
/// cleared, pair by pair, until every `s -a-> s'` has some `t -a-> t'` with `le[s'][t']`.
/// The reference for [`super::simulation`].
pub fn simulation(lts: &Lts) -> Vec<Vec<bool>> {
    let n = lts.num_states as usize;
    let mut le = vec![vec![true; n]; n];
    let mut changed = true;
    while changed {
        changed = false;
        for s in 0..n {
            for t in 0..n {
                if !le[s][t] {
                    continue;
                }
                let matched = lts
                    .transitions
                    .iter()
                    .filter(|x| x.from.index() == s)
                    .all(|x| {
                        lts.transitions.iter().any(|y| {
                            y.from.index() == t
                                && y.label == x.label
                                && le[x.to.index()][y.to.index()]
                        })
                    });
                if !matched {
                    le[s][t] = false;
                    changed = true;
                }
            }
        }
    }
    le
}

/// The length of a shortest counterexample to "`a` refines `b`" in the refinement model
/// given by `weak`, `failures` and `divergence` (see [`super::refinement`]), or `None` when
/// `a` refines `b`. The reference for [`super::refinement::refines`]: a breadth-first search
/// over pairs (set of `a`'s states, set of `b`'s states) reached by one trace, no antichain.
pub fn refinement_violation(
    a: &Lts,
    b: &Lts,
    weak: bool,
    failures: bool,
    divergence: bool,
) -> Option<usize> {
    use std::collections::{BTreeSet, HashSet};
    let (u, init_b) = super::disjoint_union(a, b);
    let internal = |l: u32| weak && u.labels[l as usize].is_tau();
    let close = |mut set: BTreeSet<u32>| loop {
        let more: Vec<u32> = u
            .transitions
            .iter()
            .filter(|t| internal(t.label.0) && set.contains(&t.from.0) && !set.contains(&t.to.0))
            .map(|t| t.to.0)
            .collect();
        if more.is_empty() {
            return set;
        }
        set.extend(more);
    };
    let stable = |s: u32| {
        !u.transitions
            .iter()
            .any(|t| t.from.0 == s && internal(t.label.0))
    };
    // On a tau-cycle: reaches itself by one or more internal steps.
    let divergent = |s: u32| {
        let start: BTreeSet<u32> = u
            .transitions
            .iter()
            .filter(|t| t.from.0 == s && internal(t.label.0))
            .map(|t| t.to.0)
            .collect();
        close(start).contains(&s)
    };
    let enabled = |s: u32| -> BTreeSet<u32> {
        u.transitions
            .iter()
            .filter(|t| t.from.0 == s)
            .map(|t| t.label.0)
            .collect()
    };
    let step = |set: &BTreeSet<u32>, l: u32| {
        close(
            u.transitions
                .iter()
                .filter(|t| t.label.0 == l && set.contains(&t.from.0))
                .map(|t| t.to.0)
                .collect(),
        )
    };
    let mut seen: HashSet<(BTreeSet<u32>, BTreeSet<u32>)> = HashSet::new();
    let mut level = vec![(close([u.initial.0].into()), close([init_b.0].into()))];
    let mut depth = 0;
    while !level.is_empty() {
        let mut next = Vec::new();
        let mut missing = false;
        for (x, y) in level {
            if !seen.insert((x.clone(), y.clone())) {
                continue;
            }
            if divergence && y.iter().any(|&s| divergent(s)) {
                continue;
            }
            if divergence && x.iter().any(|&s| divergent(s)) {
                return Some(depth);
            }
            if failures {
                for &s in x.iter().filter(|&&s| stable(s)) {
                    let acc = enabled(s);
                    if !y.iter().any(|&t| stable(t) && enabled(t).is_subset(&acc)) {
                        return Some(depth);
                    }
                }
            }
            for l in 0..u.labels.len() as u32 {
                if internal(l) {
                    continue;
                }
                let x2 = step(&x, l);
                if x2.is_empty() {
                    continue;
                }
                let y2 = step(&y, l);
                if y2.is_empty() {
                    missing = true;
                } else {
                    next.push((x2, y2));
                }
            }
        }
        if missing {
            return Some(depth + 1);
        }
        level = next;
        depth += 1;
    }
    None
}
