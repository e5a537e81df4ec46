//! Branching bisimulation (optionally divergence-preserving) by signature refinement over
//! the inert-tau DAG.
//!
//! First the tau-SCCs are contracted (states on a tau-cycle are branching bisimilar), so
//! the tau-transitions that remain form a DAG. A *divergent* SCC (more than one state, or a
//! tau self-loop) gets a self-loop with a pseudo-label of its own when divergence counts;
//! that loop is never inert, so it shows in the signature of every state that reaches it by
//! inert taus, which is exactly divergence in the sense of divergence-preserving branching
//! bisimulation.
//!
//! Then, from the partition with one block, each round computes every state's signature
//! `{(a, B(t)) | s ⇒ s' -a-> t not inert}`, where `⇒` follows inert taus (taus between states
//! of one block of the current partition), and splits the blocks by signature, until a round
//! splits nothing. Tarjan numbers SCCs in reverse topological order, so visiting them in
//! number order meets every tau-successor before its source: a state's signature is its own
//! non-inert steps merged with the (already computed) signatures of its inert successors,
//! one pass per round.

use rustc_hash::FxHashMap;

use super::scc::{adjacency, tarjan};
use super::Partition;
use crate::lts::Transition;

/// One signature element: a label and the block of the target.
type Pair = (u32, u32);

/// The coarsest (divergence-preserving when `divergence`) branching bisimulation of the LTS
/// with `n` states and `transitions`, where the labels `a` with `is_tau[a]` are internal.
pub fn branching_partition(
    n: usize,
    is_tau: &[bool],
    transitions: &[Transition],
    divergence: bool,
) -> Partition {
    if n == 0 {
        return Partition::from_blocks(Vec::new(), 0);
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
    // The contracted graph; the pseudo-label `div` marks divergence.
    let div = is_tau.len() as u32;
    let mut edges: Vec<(u32, u32, u32)> = Vec::with_capacity(transitions.len());
    for t in transitions {
        let (cf, ct) = (comp[t.from.index()], comp[t.to.index()]);
        if tau(t) && cf == ct {
            if t.from == t.to {
                divergent[cf as usize] = true;
            }
            continue;
        }
        edges.push((cf, t.label.0, ct));
    }
    if divergence {
        for (c, &d) in divergent.iter().enumerate() {
            if d {
                edges.push((c as u32, div, c as u32));
            }
        }
    }
    edges.sort_unstable();
    edges.dedup();
    let mut out_start = vec![0u32; k + 1];
    for &(f, _, _) in &edges {
        out_start[f as usize + 1] += 1;
    }
    for i in 0..k {
        out_start[i + 1] += out_start[i];
    }
    let inert_label = |a: u32| a != div && is_tau[a as usize];

    let mut block = vec![0u32; k];
    let mut num_blocks = 1usize;
    let mut sig_start = vec![0usize; k + 1];
    let mut arena: Vec<(u32, u32)> = Vec::new();
    let mut scratch: Vec<(u32, u32)> = Vec::new();
    loop {
        arena.clear();
        for c in 0..k {
            scratch.clear();
            let bc = block[c];
            for &(_, a, t) in &edges[out_start[c] as usize..out_start[c + 1] as usize] {
                let bt = block[t as usize];
                if inert_label(a) && bt == bc {
                    let (s, e) = (sig_start[t as usize], sig_start[t as usize + 1]);
                    scratch.extend_from_slice(&arena[s..e]);
                } else {
                    scratch.push((a, bt));
                }
            }
            scratch.sort_unstable();
            scratch.dedup();
            arena.extend_from_slice(&scratch);
            sig_start[c + 1] = arena.len();
        }
        let mut ids: FxHashMap<(u32, &[Pair]), u32> = FxHashMap::default();
        let mut next = vec![0u32; k];
        for c in 0..k {
            let sig = &arena[sig_start[c]..sig_start[c + 1]];
            let fresh = ids.len() as u32;
            next[c] = *ids.entry((block[c], sig)).or_insert(fresh);
        }
        let count = ids.len();
        drop(ids);
        block = next;
        if count == num_blocks {
            break;
        }
        num_blocks = count;
    }
    let blocks = comp.iter().map(|&c| block[c as usize]).collect();
    Partition::from_blocks(blocks, num_blocks as u32)
}
