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
    // Each signature is a sorted range of `arena`; a state whose signature equals that of
    // one of its inert successors (the common case on inert tau-paths) shares its range, so
    // a long inert path costs one signature, not one per state.
    let mut sig: Vec<(usize, usize)> = vec![(0, 0); k];
    let mut arena: Vec<Pair> = Vec::new();
    let mut scratch: Vec<Pair> = Vec::new();
    loop {
        arena.clear();
        for c in 0..k {
            let bc = block[c];
            let out = &edges[out_start[c] as usize..out_start[c + 1] as usize];
            let inert = |a: u32, t: u32| inert_label(a) && block[t as usize] == bc;
            let mut inert_succs = out.iter().filter(|&&(_, a, t)| inert(a, t));
            if let (Some(&(_, _, t)), None) = (inert_succs.next(), inert_succs.next()) {
                let (s, e) = sig[t as usize];
                let succ_sig = &arena[s..e];
                if out.iter().all(|&(_, a, u)| {
                    inert(a, u) || succ_sig.binary_search(&(a, block[u as usize])).is_ok()
                }) {
                    sig[c] = (s, e);
                    continue;
                }
            }
            scratch.clear();
            let mut largest: Option<(usize, usize)> = None;
            for &(_, a, t) in out {
                if inert(a, t) {
                    let (s, e) = sig[t as usize];
                    scratch.extend_from_slice(&arena[s..e]);
                    if largest.is_none_or(|(ls, le)| le - ls < e - s) {
                        largest = Some((s, e));
                    }
                } else {
                    scratch.push((a, block[t as usize]));
                }
            }
            scratch.sort_unstable();
            scratch.dedup();
            match largest {
                // The successor's signature is contained in this one; equal size means equal.
                Some((s, e)) if e - s == scratch.len() => sig[c] = (s, e),
                _ => {
                    let s = arena.len();
                    arena.extend_from_slice(&scratch);
                    sig[c] = (s, arena.len());
                }
            }
        }
        let mut ids: FxHashMap<(u32, &[Pair]), u32> = FxHashMap::default();
        let mut next = vec![0u32; k];
        for c in 0..k {
            let (s, e) = sig[c];
            let fresh = ids.len() as u32;
            next[c] = *ids.entry((block[c], &arena[s..e])).or_insert(fresh);
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
