//! A deliberately simple reference: signature refinement to a fixpoint on the original LTS,
//! with inert-tau closures recomputed by search for every state in every round. Cubic or
//! worse; for cross-checking the fast algorithms on small systems (`tests/reduce_props.rs`).

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
