//! Branching bisimulation (optionally divergence-preserving) in O(m log n): tau-SCC
//! contraction, then the partition-refinement algorithm of Jansen, Groote, Keiren and Wijs
//! (TACAS 2020) on the contracted graph.
//!
//! First the tau-SCCs are contracted (states on a tau-cycle are branching bisimilar), so
//! the tau-transitions that remain form a DAG. A *divergent* SCC (more than one state, or a
//! tau self-loop) gets a self-loop with a pseudo-label of its own when divergence counts;
//! that loop is never inert, so a state that reaches it by inert taus is told apart from one
//! that cannot, which is exactly divergence in the sense of divergence-preserving branching
//! bisimulation (mCRL2 keeps such a tau self-loop as a non-inert step to the same effect).
//! Every tau label becomes one label, so that two spellings of tau are one action.
//!
//! - `parts.rs`: the contracted graph, blocks, constellations, slices of transitions and
//!   per-state counters, with their O(1) moves;
//! - `refine.rs`: the refinement loop: constellation splits, the two-search block splits
//!   that cost the smaller part, and stabilisation for new bottom states.
//!
//! [`super::naive::partition`] (plain signature refinement) is the reference the property
//! tests hold this against.

mod parts;
mod refine;

use super::scc::{adjacency, tarjan};
use super::Partition;
use crate::lts::Transition;
use crate::progress::{Unwatched, Watch};

/// The coarsest (divergence-preserving when `divergence`) branching bisimulation of the LTS
/// with `n` states and `transitions`, where the labels `a` with `is_tau[a]` are internal.
pub fn branching_partition(
    n: usize,
    is_tau: &[bool],
    transitions: &[Transition],
    divergence: bool,
) -> Partition {
    let Ok(p) = branching_partition_watched(n, is_tau, transitions, divergence, &mut Unwatched);
    p
}

/// [`branching_partition`] under `watch`: one tick per split of a block or a constellation,
/// so a stop comes within one split.
pub fn branching_partition_watched<W: Watch>(
    n: usize,
    is_tau: &[bool],
    transitions: &[Transition],
    divergence: bool,
    watch: &mut W,
) -> Result<Partition, W::Stop> {
    if n == 0 {
        return Ok(Partition::from_blocks(Vec::new(), 0));
    }
    let tau = |t: &Transition| is_tau[t.label.index()];
    let (start, succ) = adjacency(
        n,
        transitions
            .iter()
            .filter(|t| tau(t))
            .map(|t| (t.from.0, t.to.0)),
    );
    let (comp, k) = tarjan(n, &start, &succ);
    drop((start, succ));
    let k = k as usize;
    // Divergent components: more than one state, or a tau self-loop.
    let mut size = vec![0u32; k];
    for &c in &comp {
        size[c as usize] += 1;
    }
    let mut divergent: Vec<bool> = size.iter().map(|&s| s > 1).collect();
    drop(size);
    // The contracted graph; the pseudo-label `div` marks divergence.
    let div = is_tau.len() as u32;
    let tau_label = is_tau
        .iter()
        .position(|&t| t)
        .map_or(u32::MAX, |a| a as u32);
    // An edge of the contracted graph, or `None` for a tau inside one component (noting a
    // tau self-loop as divergence).
    let contracted = |t: &Transition| {
        let (cf, ct) = (comp[t.from.index()], comp[t.to.index()]);
        if tau(t) && cf == ct {
            return None;
        }
        Some((cf, if tau(t) { tau_label } else { t.label.0 }, ct))
    };
    for t in transitions {
        if tau(t) && t.from == t.to {
            divergent[comp[t.from.index()] as usize] = true;
        }
    }
    let loops = |c: usize| u32::from(divergence && divergent[c]);
    // Bucketed by source (a counting sort: linear, where sorting all m triples was a tenth
    // of the whole reduction on B.1), then each source's few edges sorted and deduplicated.
    let mut out_start = vec![0u32; k + 1];
    for (cf, _, _) in transitions.iter().filter_map(contracted) {
        out_start[cf as usize + 1] += 1;
    }
    for c in 0..k {
        out_start[c + 1] += out_start[c] + loops(c);
    }
    let mut fill = out_start.clone();
    let mut pairs = vec![(0u32, 0u32); out_start[k] as usize];
    for (cf, a, ct) in transitions.iter().filter_map(contracted) {
        pairs[fill[cf as usize] as usize] = (a, ct);
        fill[cf as usize] += 1;
    }
    for c in 0..k {
        if loops(c) == 1 {
            pairs[fill[c] as usize] = (div, c as u32);
        }
    }
    drop(fill);
    // Sort and deduplicate each source's edges, compacting in place.
    let mut kept = 0usize;
    let mut begin = 0usize;
    for c in 0..k {
        let end = out_start[c + 1] as usize;
        pairs[begin..end].sort_unstable();
        let start = kept;
        for i in begin..end {
            if kept == start || pairs[kept - 1] != pairs[i] {
                pairs[kept] = pairs[i];
                kept += 1;
            }
        }
        out_start[c] = start as u32;
        begin = end;
    }
    out_start[k] = kept as u32;
    pairs.truncate(kept);
    pairs.shrink_to_fit();
    let (block, num_blocks) =
        refine::refine(parts::Graph::new(out_start, pairs, tau_label), watch)?;
    let blocks = comp.iter().map(|&c| block[c as usize]).collect();
    Ok(Partition::from_blocks(blocks, num_blocks))
}
