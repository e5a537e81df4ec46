//! From the explored product to a verdict and its evidence: the parity game (owners and
//! priorities from the formula's nodes), solved by Zielonka's algorithm, and the proof the
//! winner's strategy gives, as `check`'s evidence (`crate::evidence::Evidence`), so that it
//! is printed, written and confirmed by the same code as every other route's.
//!
//! The proof is the part of the game the winner keeps: at the winner's vertices the
//! strategy's successor, at the opponent's every successor. Its edges that take a
//! transition make the evidence LTS (a part of the model). The trace is the proof's
//! shortest path (in transitions) to the winner's sink, or, when every path of the proof
//! is infinite, a lasso: a path to a cycle of the proof, the cycle repeated forever.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::bes::{Game, Player, Solution, VertexId};
use crate::data::TermStore;
use crate::evidence::build::{origins, Builder, Origin};
use crate::evidence::{Evidence, EvidenceError, Step, Trace};
use crate::lps::Lps;
use crate::lts::lps::LpsSystem;
use crate::lts::{StateId, TransitionSystem};

use super::build::{Product, FALSE, NO_LABEL, TRUE};
use super::ProductError;

/// The evidence of the verdict at `init` from the solved game (see the module
/// documentation).
pub fn evidence(
    lps: &Lps,
    sys: &LpsSystem<'_>,
    p: &Product<'_, '_>,
    game: &Game,
    sol: &Solution,
    init: u32,
) -> Result<Evidence, ProductError> {
    let winner = sol.winner(VertexId(init));
    let value = winner == Player::Even;
    let proof = |v: u32| -> Vec<(u32, u32)> {
        let succ = game.successors(VertexId(v));
        let first = game.successor_start(VertexId(v));
        let labels = &p.succ_label[first..first + succ.len()];
        if game.owner(VertexId(v)) == winner {
            let s = sol.strategy(VertexId(v)).unwrap_or(succ[0]);
            let k = succ.iter().position(|&w| w == s).unwrap_or(0);
            vec![(succ[k].0, labels[k])]
        } else {
            succ.iter()
                .map(|w| w.0)
                .zip(labels.iter().copied())
                .collect()
        }
    };
    // 0-1 breadth-first search over the proof: an edge that takes a transition costs one.
    let n = p.vertices();
    let mut dist = vec![u32::MAX; n];
    let mut parent = vec![(u32::MAX, NO_LABEL); n];
    let mut queue = VecDeque::from([init]);
    dist[init as usize] = 0;
    let mut edges: Vec<(u32, u32, u32)> = Vec::new();
    let mut seen = vec![false; n];
    while let Some(v) = queue.pop_front() {
        if seen[v as usize] {
            continue;
        }
        seen[v as usize] = true;
        for (w, l) in proof(v) {
            let cost = u32::from(l != NO_LABEL);
            if l != NO_LABEL {
                edges.push((p.keys[v as usize].0, l, p.keys[w as usize].0));
            }
            let d = dist[v as usize] + cost;
            if d < dist[w as usize] {
                dist[w as usize] = d;
                parent[w as usize] = (v, l);
                if cost == 0 {
                    queue.push_front(w);
                } else {
                    queue.push_back(w);
                }
            }
        }
    }
    let sink = if value { TRUE } else { FALSE };
    // The trace as vertices (with the label of the edge into each) and where its cycle
    // starts.
    let (path, cycle_at) = if dist[sink as usize] != u32::MAX {
        (path_to(&parent, init, sink), None)
    } else {
        lasso(init, &proof, n)
    };
    let path: Vec<(u32, u32)> = path
        .iter()
        .map(|&(v, l)| (p.keys[v as usize].0, l))
        .collect();
    assemble(lps, sys, p, value, &path, cycle_at, edges)
}

/// The evidence of `value` from a path through the product: `path` holds the LPS states it
/// passes, each with the label of the transition into it ([`NO_LABEL`] where the game moved
/// without one, and for the first, the initial state), `cycle_at` the index in `path`
/// where its cycle starts (a lasso), `edges` the evidence LTS's transitions `(state,
/// label, state)` besides the path's own.
pub(super) fn assemble(
    lps: &Lps,
    sys: &LpsSystem<'_>,
    p: &Product<'_, '_>,
    value: bool,
    path: &[(u32, u32)],
    cycle_at: Option<usize>,
    mut edges: Vec<(u32, u32, u32)>,
) -> Result<Evidence, ProductError> {
    let store = TermStore::new();
    let mut b = Builder::new(lps, sys, &store)?;
    let row = |s: u32| p.row(s);
    let s0 = path[0].0;
    b.state(&row(s0));
    let mut known: FxHashMap<u32, Vec<Origin>> = FxHashMap::default();
    let mut take =
        |b: &mut Builder<'_, '_>, from: u32, l: u32, to: u32| -> Result<Step, ProductError> {
            let (fr, tr) = (row(from), row(to));
            if let std::collections::hash_map::Entry::Vacant(e) = known.entry(from) {
                e.insert(origins(sys, &fr).map_err(ProductError::Data)?);
            }
            let text = sys.label(&p.labels[l as usize].0).text().to_string();
            let found = known[&from]
                .iter()
                .find(|(_, _, t, next)| *t == text && *next == tr);
            let Some((summand, sums, _, _)) = found else {
                return Err(EvidenceError::Unchecked(format!(
                    "a step of the proof ({text}) is no transition of the LPS"
                ))
                .into());
            };
            Ok(b.step(*summand, &sums.clone(), &fr, &tr)?)
        };
    edges.sort_unstable();
    edges.dedup();
    for &(from, l, to) in &edges {
        take(&mut b, from, l, to)?;
    }
    let mut steps = Vec::new();
    let mut states = vec![s0];
    let mut loop_start = None;
    for (i, &(to, l)) in path.iter().enumerate().skip(1) {
        if Some(i) == cycle_at.map(|c| c + 1).filter(|_| loop_start.is_none()) {
            loop_start = Some(steps.len());
        }
        if l != NO_LABEL {
            let from = *states.last().expect("the initial state");
            steps.push(take(&mut b, from, l, to)?);
            states.push(to);
        }
    }
    // A cycle that takes no transition (`nu X . X`) is no lasso of the model.
    if loop_start.is_some_and(|k| k >= steps.len()) {
        loop_start = None;
    }
    let trace_states: Vec<StateId> = states.iter().map(|&s| b.state(&row(s))).collect();
    let initial = b.exprs(&row(s0));
    let (lts, labels) = b.finish();
    Ok(Evidence {
        value,
        trace: Trace {
            initial,
            steps,
            loop_start,
        },
        lts,
        labels,
        trace_states,
        model_states: Vec::new(),
    })
}

/// The path from `from` to `to` by `parent` pointers, each vertex with the label of the
/// edge into it (none for `from`).
fn path_to(parent: &[(u32, u32)], from: u32, to: u32) -> Vec<(u32, u32)> {
    let mut out = vec![(to, parent[to as usize].1)];
    let mut v = to;
    while v != from {
        v = parent[v as usize].0;
        out.push((v, parent[v as usize].1));
    }
    out.reverse();
    out[0].1 = NO_LABEL;
    out
}

/// A vertex on the depth-first stack: itself, the label into it, its proof successors
/// (with their labels), and how many of those were tried.
type Frame = (u32, u32, Vec<(u32, u32)>, usize);

/// A lasso of the proof from `init`: the path (vertices with the label into each) that ends
/// where its cycle closes, and the index of the vertex the cycle starts at.
fn lasso(
    init: u32,
    proof: &dyn Fn(u32) -> Vec<(u32, u32)>,
    n: usize,
) -> (Vec<(u32, u32)>, Option<usize>) {
    // Depth-first: the first edge back to a vertex on the stack closes the cycle.
    let mut on_stack = vec![u32::MAX; n];
    let mut done = vec![false; n];
    let mut stack: Vec<Frame> = vec![(init, NO_LABEL, proof(init), 0)];
    on_stack[init as usize] = 0;
    while let Some(top) = stack.last_mut() {
        if top.3 == top.2.len() {
            let (v, ..) = stack.pop().expect("not empty");
            on_stack[v as usize] = u32::MAX;
            done[v as usize] = true;
            continue;
        }
        let (w, l) = top.2[top.3];
        top.3 += 1;
        if on_stack[w as usize] != u32::MAX {
            let at = on_stack[w as usize] as usize;
            let mut path: Vec<(u32, u32)> = stack.iter().map(|e| (e.0, e.1)).collect();
            path.push((w, l));
            return (path, Some(at));
        }
        if !done[w as usize] {
            on_stack[w as usize] = stack.len() as u32;
            stack.push((w, l, proof(w), 0));
        }
    }
    // Every proof path is infinite, so a cycle exists; without one, the initial vertex
    // alone.
    (vec![(init, NO_LABEL)], None)
}
