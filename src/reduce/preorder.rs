//! Trace inclusion (`ltscompare -p trace`, `-p weak-trace`) with a shortest
//! counterexample trace.
//!
//! `a ⊑ b` when every trace of `a` is a trace of `b` (for the weak preorder: every trace
//! of visible actions). `b` is determinised and minimised ([`super::determinise_minimal`]),
//! then the pairs (state of `a`, state of `b`'s determinisation) reachable from the
//! initial pair are searched breadth-first (0-1: tau-steps cost nothing in the weak
//! preorder): a step of `a` that the deterministic `b`
//! cannot take ends the search with a shortest trace of `a` that `b` lacks. In the weak
//! preorder a tau-step of `a` moves `a` alone and is not part of the trace.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use super::{determinise_minimal, ReduceError, ReduceOptions};
use crate::lts::Lts;

/// The trace preorders of `ltscompare -p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preorder {
    /// Trace inclusion, tau an ordinary action (`trace`).
    Trace,
    /// Weak trace inclusion: traces of visible actions (`weak-trace`).
    WeakTrace,
}

impl Preorder {
    /// The name mCRL2's `ltscompare -p` uses for it.
    pub fn name(self) -> &'static str {
        match self {
            Preorder::Trace => "trace",
            Preorder::WeakTrace => "weak-trace",
        }
    }
}

/// `None` when `a ⊑ b` in `preorder`; otherwise a shortest trace of `a` (label texts) that
/// `b` does not have.
pub fn trace_inclusion(
    a: &Lts,
    b: &Lts,
    preorder: Preorder,
    opts: &ReduceOptions,
) -> Result<Option<Vec<String>>, ReduceError> {
    let weak = preorder == Preorder::WeakTrace;
    let d = determinise_minimal(b, weak, opts)?;
    // The deterministic step of `d` from a state by a label text.
    let d_label: FxHashMap<&str, u32> = d
        .labels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.text(), i as u32))
        .collect();
    let a_to_d: Vec<Option<u32>> = a
        .labels
        .iter()
        .map(|l| d_label.get(l.text()).copied())
        .collect();
    let step: FxHashMap<(u32, u32), u32> = d
        .transitions
        .iter()
        .map(|t| ((t.from.0, t.label.0), t.to.0))
        .collect();
    let a_tau: Vec<bool> = a.labels.iter().map(|l| weak && l.is_tau()).collect();
    let n = a.num_states as usize;
    let mut start = vec![0u32; n + 1];
    for t in &a.transitions {
        start[t.from.index() + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut out = vec![(0u32, 0u32); a.transitions.len()];
    for t in &a.transitions {
        out[fill[t.from.index()] as usize] = (t.label.0, t.to.0);
        fill[t.from.index()] += 1;
    }
    // Pairs are numbered in discovery order; each keeps its distance (visible steps from
    // the initial pair), its parent pair and the label of the step from it (`u32::MAX` for
    // a tau-step). Tau-steps are free in the weak preorder, so the search is a 0-1
    // breadth-first search: pairs leave the queue in order of distance, and the first step
    // `b` cannot follow ends a shortest trace.
    let mut index: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    let mut dist: Vec<u32> = Vec::new();
    let mut parent: Vec<(u32, u32)> = Vec::new();
    let mut queue = VecDeque::new();
    let init = (a.initial.0, 0u32);
    index.insert(init, 0);
    pairs.push(init);
    dist.push(0);
    parent.push((u32::MAX, u32::MAX));
    queue.push_back((0u32, 0u32));
    while let Some((p, dp)) = queue.pop_front() {
        if dp != dist[p as usize] {
            continue; // a stale entry: the pair was reached more cheaply since
        }
        let (s, q) = pairs[p as usize];
        for &(l, t) in &out[start[s as usize] as usize..start[s as usize + 1] as usize] {
            let (next, via, cost) = if a_tau[l as usize] {
                ((t, q), u32::MAX, 0)
            } else {
                match a_to_d[l as usize].and_then(|dl| step.get(&(q, dl))) {
                    Some(&q2) => ((t, q2), l, 1),
                    None => {
                        let mut trace = vec![a.labels[l as usize].text().to_string()];
                        let mut at = p;
                        while at != 0 {
                            let (from, lab) = parent[at as usize];
                            if lab != u32::MAX {
                                trace.push(a.labels[lab as usize].text().to_string());
                            }
                            at = from;
                        }
                        trace.reverse();
                        return Ok(Some(trace));
                    }
                }
            };
            let d = dp + cost;
            let id = *index.entry(next).or_insert_with(|| {
                pairs.push(next);
                dist.push(u32::MAX);
                parent.push((u32::MAX, u32::MAX));
                pairs.len() as u32 - 1
            });
            if d < dist[id as usize] {
                dist[id as usize] = d;
                parent[id as usize] = (p, via);
                if cost == 0 {
                    queue.push_front((id, d));
                } else {
                    queue.push_back((id, d));
                }
            }
        }
    }
    Ok(None)
}
