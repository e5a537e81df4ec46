//! Forced distances: in a graph where some nodes choose one successor (min) and the others
//! must answer for all of theirs (max), the fewest costs to a target the choosers can force,
//! and each chooser's move that achieves it. Evidence uses it to keep a proof whose paths
//! are shortest (the prover's choices in a solved game, the decisive operands of a
//! justification); a naive fixpoint beside it checks it in the property tests.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// "Not reachable": no forced path to a target.
pub const UNREACHED: u32 = u32::MAX;

/// What [`ForcedGraph::new`] asks for a node's edges: `succ(v, out)` pushes each
/// successor of `v` with what taking the edge costs.
pub type Successors<'a> = dyn FnMut(u32, &mut Vec<(u32, u32)>) + 'a;

/// The graph [`forced_distances`] works on, flat (CSR, with reverse edges).
pub struct ForcedGraph {
    chooses: Vec<bool>,
    succ_start: Vec<usize>,
    succ: Vec<u32>,
    /// Per edge (in `succ`'s order): what taking it costs.
    cost: Vec<u32>,
    pred_start: Vec<usize>,
    /// Per reverse edge: the predecessor and the edge's cost.
    pred: Vec<(u32, u32)>,
}

impl ForcedGraph {
    /// A graph of `chooses.len()` nodes: `chooses[v]` says whether `v` picks one successor
    /// (min) or must answer for all of them (max), and `succ(v, out)` pushes `v`'s
    /// successors onto `out` with what taking each edge costs (none for nodes left out).
    pub fn new(chooses: Vec<bool>, succ: &mut Successors<'_>) -> Self {
        let n = chooses.len();
        let mut succ_start = Vec::with_capacity(n + 1);
        let mut pairs = Vec::new();
        succ_start.push(0);
        for v in 0..n as u32 {
            succ(v, &mut pairs);
            succ_start.push(pairs.len());
        }
        let (edges, cost): (Vec<u32>, Vec<u32>) = pairs.into_iter().unzip();
        // Reverse edges by counting sort.
        let mut pred_start = vec![0usize; n + 1];
        for &w in &edges {
            pred_start[w as usize + 1] += 1;
        }
        for i in 0..n {
            pred_start[i + 1] += pred_start[i];
        }
        let mut at = pred_start.clone();
        let mut pred = vec![(0u32, 0u32); edges.len()];
        for v in 0..n {
            for e in succ_start[v]..succ_start[v + 1] {
                let w = edges[e] as usize;
                pred[at[w]] = (v as u32, cost[e]);
                at[w] += 1;
            }
        }
        ForcedGraph {
            chooses,
            succ_start,
            succ: edges,
            cost,
            pred_start,
            pred,
        }
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.chooses.len()
    }

    /// Whether the graph has no nodes.
    pub fn is_empty(&self) -> bool {
        self.chooses.is_empty()
    }

    /// The successors of `v`.
    pub fn successors(&self, v: u32) -> &[u32] {
        &self.succ[self.succ_start[v as usize]..self.succ_start[v as usize + 1]]
    }

    /// What taking each edge of [`ForcedGraph::successors`]`(v)` costs, in that order.
    pub fn costs(&self, v: u32) -> &[u32] {
        &self.cost[self.succ_start[v as usize]..self.succ_start[v as usize + 1]]
    }

    fn predecessors(&self, v: u32) -> &[(u32, u32)] {
        &self.pred[self.pred_start[v as usize]..self.pred_start[v as usize + 1]]
    }
}

/// Per node: the fewest costs to a target that the choosers can force ([`UNREACHED`] when
/// they cannot), and at choosers the successor that achieves it ([`UNREACHED`] if none).
///
/// Backward Dijkstra from `targets` (distance 0): a chooser is settled through its cheapest
/// settled successor, a max node once all its successors are settled, at the worst of them.
/// Every chosen move goes to a node settled earlier, so following the choices from a reached
/// node always ends in a target within its distance.
pub fn forced_distances(g: &ForcedGraph, targets: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let n = g.len();
    let mut dist = vec![UNREACHED; n];
    let mut choice = vec![UNREACHED; n];
    let mut done = vec![false; n];
    // Per max node: successors not settled yet and the worst distance through those settled.
    let mut left: Vec<u32> = (0..n as u32)
        .map(|v| g.successors(v).len() as u32)
        .collect();
    let mut worst = vec![0u32; n];
    let mut heap = BinaryHeap::new();
    let mut target = vec![false; n];
    for &t in targets {
        target[t as usize] = true;
        dist[t as usize] = 0;
        heap.push(Reverse((0u32, t)));
    }
    while let Some(Reverse((d, v))) = heap.pop() {
        if std::mem::replace(&mut done[v as usize], true) {
            continue;
        }
        for &(u, cost) in g.predecessors(v) {
            let through = d.saturating_add(cost);
            let ui = u as usize;
            if done[ui] || target[ui] {
                continue;
            }
            if g.chooses[ui] {
                if through < dist[ui] {
                    dist[ui] = through;
                    choice[ui] = v;
                    heap.push(Reverse((through, u)));
                }
            } else {
                left[ui] -= 1;
                worst[ui] = worst[ui].max(through);
                if left[ui] == 0 {
                    dist[ui] = worst[ui];
                    heap.push(Reverse((worst[ui], u)));
                }
            }
        }
    }
    (dist, choice)
}

/// The naive reference of [`forced_distances`]' distances: the least fixpoint of
/// `d(v) = min/max over successors of cost + d`, by rounds until nothing changes.
pub fn forced_distances_naive(g: &ForcedGraph, targets: &[u32]) -> Vec<u32> {
    let mut dist = vec![UNREACHED; g.len()];
    for &t in targets {
        dist[t as usize] = 0;
    }
    loop {
        let mut changed = false;
        for v in 0..g.len() as u32 {
            if targets.contains(&v) {
                continue;
            }
            let s = g.successors(v);
            let via = |(w, c): (&u32, &u32)| match dist[*w as usize] {
                UNREACHED => UNREACHED,
                d => d.saturating_add(*c),
            };
            let edges = s.iter().zip(g.costs(v));
            let d = if g.chooses[v as usize] {
                edges.map(via).min().unwrap_or(UNREACHED)
            } else if s.is_empty() {
                UNREACHED
            } else {
                edges.map(via).max().unwrap_or(UNREACHED)
            };
            if d < dist[v as usize] {
                dist[v as usize] = d;
                changed = true;
            }
        }
        if !changed {
            return dist;
        }
    }
}
