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
//! Then, from the partition with one block, signatures
//! `{(a, B(t)) | s ⇒ s' -a-> t not inert}` (where `⇒` follows inert taus: taus between
//! states of one block of the current partition) split the blocks until they agree within
//! every block. Tarjan numbers SCCs in reverse topological order, so visiting states in
//! number order meets every tau-successor before its source: a state's signature is its own
//! non-inert steps merged with the (already computed) signatures of its inert successors.
//! After the first round only *dirty* states are recomputed (see the comment on `refine`), and
//! a state whose signature equals one inert successor's shares it instead of copying it.

use rustc_hash::FxHashMap;

use super::scc::{adjacency, tarjan};
use super::Partition;
use crate::lts::Transition;
use crate::progress::{grouped, Unwatched, Watch};

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
    let Ok(p) = branching_partition_watched(n, is_tau, transitions, divergence, &mut Unwatched);
    p
}

/// [`branching_partition`] under `watch`: one tick per signature computed, so a stop comes
/// within a round of refinement.
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
    let (block, num_blocks) = refine(k, &edges, &out_start, inert_label, watch)?;
    let blocks = comp.iter().map(|&c| block[c as usize]).collect();
    Ok(Partition::from_blocks(blocks, num_blocks))
}

/// Signature refinement of the contracted graph (`edges` sorted by source, `out_start` its
/// index; tau-edges go from higher to lower node numbers) to the coarsest stable partition.
///
/// Work is confined to *dirty* nodes: in the first round all of them, afterwards the nodes
/// that changed block in the previous round and their predecessors, closed backwards under
/// inert taus (whose signatures include their successors'). A node that is not dirty has
/// the signature its block was created with, which each block keeps (`block_sig`); a round
/// recomputes the dirty nodes' signatures in topological order and moves those whose
/// signature differs from their block's into new blocks, one per signature. So a long
/// chain that splits one state per round costs a few nodes per round, not the whole chain.
fn refine<W: Watch>(
    k: usize,
    edges: &[(u32, u32, u32)],
    out_start: &[u32],
    inert_label: impl Fn(u32) -> bool,
    watch: &mut W,
) -> Result<(Vec<u32>, u32), W::Stop> {
    // Predecessors: (source, label) per target.
    let (pred_start, pred) = {
        let mut start = vec![0u32; k + 1];
        for &(_, _, t) in edges {
            start[t as usize + 1] += 1;
        }
        for i in 0..k {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut pred = vec![(0u32, 0u32); edges.len()];
        for &(f, a, t) in edges {
            pred[fill[t as usize] as usize] = (f, a);
            fill[t as usize] += 1;
        }
        (start, pred)
    };
    let mut block = vec![0u32; k];
    let mut block_size: Vec<u32> = vec![k as u32];
    // Signatures are ranges of `arena`; `block_sig[b]` is block b's, `sig[c]` node c's in
    // the current round (valid when `dirty_at[c]` is the round number).
    let mut arena: Vec<Pair> = Vec::new();
    let mut block_sig: Vec<(usize, usize)> = vec![(0, 0)];
    let mut sig: Vec<(usize, usize)> = vec![(0, 0); k];
    let mut dirty_at = vec![0u32; k];
    let mut scratch: Vec<Pair> = Vec::new();
    let mut dirty: Vec<u32> = (0..k as u32).collect();
    let mut round = 0u32;
    let mut compact_at = 1usize << 20;
    // The first round must compare against no stale signature: block 0 has none yet.
    let mut block_sig_valid = vec![false];
    // For progress and stop messages: loop iterations and signatures computed.
    let (mut rounds, mut signatures) = (0u64, 0u64);
    while !dirty.is_empty() {
        round += 1;
        rounds += 1;
        // Close backwards under inert taus.
        for &c in &dirty {
            dirty_at[c as usize] = round;
        }
        let mut i = 0;
        while i < dirty.len() {
            let c = dirty[i] as usize;
            i += 1;
            for &(p, a) in &pred[pred_start[c] as usize..pred_start[c + 1] as usize] {
                if inert_label(a) && block[p as usize] == block[c] && dirty_at[p as usize] != round
                {
                    dirty_at[p as usize] = round;
                    dirty.push(p);
                }
            }
        }
        dirty.sort_unstable();
        // Compact the arena when dead signatures dominate; checked only when the arena has
        // doubled since the last check, so checks cost O(1) per round amortised.
        if arena.len() > compact_at {
            let live: usize = block_sig.iter().map(|&(s, e)| e - s).sum();
            if arena.len() > 2 * live + (1 << 20) {
                let mut fresh = Vec::with_capacity(live);
                for r in block_sig.iter_mut() {
                    let s = fresh.len();
                    fresh.extend_from_slice(&arena[r.0..r.1]);
                    *r = (s, fresh.len());
                }
                arena = fresh;
            }
            compact_at = 2 * arena.len() + (1 << 20);
        }
        let sig_of = |t: usize, sig: &[(usize, usize)], block: &[u32]| {
            if dirty_at[t] == round {
                sig[t]
            } else {
                block_sig[block[t] as usize]
            }
        };
        for &c in &dirty {
            signatures += 1;
            watch.tick(signatures, || {
                format!(
                    "{} refinement rounds, {} blocks",
                    grouped(rounds),
                    grouped(block_size.len() as u64)
                )
            })?;
            let c = c as usize;
            let bc = block[c];
            let out = &edges[out_start[c] as usize..out_start[c + 1] as usize];
            let inert = |a: u32, t: u32| inert_label(a) && block[t as usize] == bc;
            // One inert successor whose signature holds all of c's own steps: share it.
            let mut inert_succs = out.iter().filter(|&&(_, a, t)| inert(a, t));
            if let (Some(&(_, _, t)), None) = (inert_succs.next(), inert_succs.next()) {
                let (s, e) = sig_of(t as usize, &sig, &block);
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
                    let (s, e) = sig_of(t as usize, &sig, &block);
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
        // Group the dirty nodes by (block, signature). Nodes that share a signature (an
        // inert-tau chain above one node) share its arena range, so the range is looked up
        // first and the contents are hashed once per range, not once per node: hashing per
        // node made a chain of k nodes above a signature of size s cost k * s per round.
        let mut group_of: FxHashMap<(u32, &[Pair]), u32> = FxHashMap::default();
        let mut group_of_range: FxHashMap<(u32, usize, usize), u32> = FxHashMap::default();
        let mut groups: Vec<(u32, (usize, usize), Vec<u32>)> = Vec::new();
        for &c in &dirty {
            let (s, e) = sig[c as usize];
            let b = block[c as usize];
            let g = *group_of_range.entry((b, s, e)).or_insert_with(|| {
                *group_of.entry((b, &arena[s..e])).or_insert_with(|| {
                    groups.push((b, (s, e), Vec::new()));
                    groups.len() as u32 - 1
                })
            });
            groups[g as usize].2.push(c);
        }
        drop((group_of, group_of_range));
        groups.sort_by_key(|g| g.0);
        let mut moved: Vec<u32> = Vec::new();
        let mut gi = 0;
        while gi < groups.len() {
            let b = groups[gi].0;
            let mut gj = gi;
            let mut dirty_in_b = 0;
            while gj < groups.len() && groups[gj].0 == b {
                dirty_in_b += groups[gj].2.len();
                gj += 1;
            }
            let bs = block_sig[b as usize];
            // The group that keeps the block: the one with the block's signature (the
            // clean nodes' signature), or, when every node is dirty, the largest.
            let keep = if dirty_in_b as u32 == block_size[b as usize] {
                let g = (gi..gj)
                    .max_by_key(|&g| groups[g].2.len())
                    .expect("a non-empty block");
                block_sig[b as usize] = groups[g].1;
                block_sig_valid[b as usize] = true;
                Some(g)
            } else {
                debug_assert!(block_sig_valid[b as usize]);
                (gi..gj).find(|&g| {
                    let (s, e) = groups[g].1;
                    arena[s..e] == arena[bs.0..bs.1]
                })
            };
            for (g, (_, range, members)) in groups.iter().enumerate().take(gj).skip(gi) {
                if Some(g) == keep {
                    continue;
                }
                let nb = block_size.len() as u32;
                block_size.push(members.len() as u32);
                block_size[b as usize] -= members.len() as u32;
                block_sig.push(*range);
                block_sig_valid.push(true);
                for &c in members {
                    block[c as usize] = nb;
                    moved.push(c);
                }
            }
            gi = gj;
        }
        // Next round: the moved nodes and their predecessors.
        round += 1;
        dirty.clear();
        for &c in &moved {
            for &(p, _) in pred
                [pred_start[c as usize] as usize..pred_start[c as usize + 1] as usize]
                .iter()
                .chain(std::iter::once(&(c, 0)))
            {
                if dirty_at[p as usize] != round {
                    dirty_at[p as usize] = round;
                    dirty.push(p);
                }
            }
        }
    }
    let n = block_size.len() as u32;
    Ok((block, n))
}
