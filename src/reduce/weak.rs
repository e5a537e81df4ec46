//! Weak bisimulation and tau-star reduction (`ltsconvert -e weak-bisim`, `-e tau-star`), as
//! mCRL2's `ltsconvert` defines their results.
//!
//! Both start from the branching bisimulation quotient, which is smaller and has no
//! tau-cycles (a tau-cycle lies inside one block), so the tau-closures below are computed
//! once per state over a DAG.
//!
//! - **Weak bisimulation**: the quotient is saturated (`s -a-> t` for every
//!   `s =tau*=> -a-> =tau*=> t`, tau included, and a tau self-loop on every state), reduced
//!   modulo strong bisimulation, which on a saturated LTS is weak bisimulation; then the tau
//!   self-loops are dropped and so is every transition `s -a-> t` that another path
//!   `s -tau-> -a-> t` or `s -a-> -tau-> t` (for tau: `s -tau-> -tau-> t`) already implies.
//! - **Tau-star**: every tau-step disappears; `s -a-> t` is added for each
//!   `s -tau+-> -a-> t` with `a` visible; the unreachable states are removed and the result
//!   is reduced modulo strong bisimulation. It preserves weak traces, not branching structure.
//!
//! `naive_weak_partition` (strong bisimulation of the saturated input, no pre-reduction) is
//! the reference the property tests hold weak bisimulation against.

use rustc_hash::FxHashSet;

use super::{partition, partition_watched, quotient, reachable_part, scc, Bisimulation, Partition};
use crate::lts::{LabelId, Lts, StateId, Transition};
use crate::progress::{Unwatched, Watch};

fn tau_labels(lts: &Lts) -> Vec<bool> {
    lts.labels.iter().map(|l| l.is_tau()).collect()
}

/// The tau-graph of `lts` as adjacency lists (`start`, `succ`), the tau-SCC of every state
/// (Tarjan's numbering: successors first) and the number of SCCs.
fn tau_sccs(lts: &Lts, is_tau: &[bool]) -> (Vec<u32>, Vec<u32>, Vec<u32>, u32) {
    let n = lts.num_states as usize;
    let taus = lts
        .transitions
        .iter()
        .filter(|t| is_tau[t.label.index()])
        .map(|t| (t.from.0, t.to.0));
    let (start, succ) = scc::adjacency(n, taus);
    let (comp, k) = scc::tarjan(n, &start, &succ);
    (start, succ, comp, k)
}

/// The states each state reaches by one or more taus (sorted). Correct when the taus form
/// no cycle other than self-loops (which add the state itself).
fn tau_plus(lts: &Lts, is_tau: &[bool]) -> Vec<Vec<u32>> {
    let n = lts.num_states as usize;
    let (start, succ, comp, _) = tau_sccs(lts, is_tau);
    // Tarjan numbers components in reverse topological order: successors first.
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_unstable_by_key(|&s| comp[s as usize]);
    let mut reach: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &s in &order {
        let s = s as usize;
        let mut r = Vec::new();
        for &t in &succ[start[s] as usize..start[s + 1] as usize] {
            r.push(t);
            if t as usize != s {
                debug_assert_ne!(comp[t as usize], comp[s], "a tau-cycle");
                r.extend_from_slice(&reach[t as usize]);
            }
        }
        r.sort_unstable();
        r.dedup();
        reach[s] = r;
    }
    reach
}

/// The tau label's id, added to the label table if missing.
fn tau_id(lts: &mut Lts) -> u32 {
    match lts.labels.iter().position(|l| l.is_tau()) {
        Some(a) => a as u32,
        None => {
            lts.labels.push(crate::lts::Label::tau());
            lts.labels.len() as u32 - 1
        }
    }
}

fn with_edges(lts: &Lts, mut edges: Vec<(u32, u32, u32)>) -> Lts {
    edges.sort_unstable();
    edges.dedup();
    Lts {
        initial: lts.initial,
        num_states: lts.num_states,
        labels: lts.labels.clone(),
        transitions: edges
            .into_iter()
            .map(|(f, a, t)| Transition {
                from: StateId(f),
                label: LabelId(a),
                to: StateId(t),
            })
            .collect(),
    }
}

/// `lts` saturated: `s -a-> t` for every `s =tau*=> -a-> =tau*=> t` and `s -tau-> s` for
/// every state. `lts` must have no tau-cycles except self-loops.
fn saturate(lts: &Lts) -> Lts {
    let mut lts = lts.clone();
    let tau = tau_id(&mut lts);
    let is_tau = tau_labels(&lts);
    let fwd = tau_plus(&lts, &is_tau);
    // Backward closure: the states that reach each state by one or more taus.
    let mut bwd: Vec<Vec<u32>> = vec![Vec::new(); lts.num_states as usize];
    for (s, r) in fwd.iter().enumerate() {
        for &t in r {
            bwd[t as usize].push(s as u32);
        }
    }
    let mut edges = Vec::new();
    for t in &lts.transitions {
        let (f, a, to) = (t.from.0, t.label.0, t.to.0);
        for &f2 in std::iter::once(&f).chain(&bwd[f as usize]) {
            edges.push((f2, a, to));
            for &t2 in &fwd[to as usize] {
                edges.push((f2, a, t2));
            }
        }
    }
    edges.extend((0..lts.num_states).map(|s| (s, tau, s)));
    with_edges(&lts, edges)
}

/// The reference partition modulo weak bisimulation: strong bisimulation of the saturated
/// LTS (tau-cycles are first contracted by the branching partition, which is finer).
pub fn naive_weak_partition(lts: &Lts) -> Partition {
    // Saturating needs a tau-DAG: contract tau-SCCs (their states are weakly bisimilar).
    let is_tau = tau_labels(lts);
    let (_, _, comp, k) = tau_sccs(lts, &is_tau);
    let contracted = Lts {
        initial: StateId(comp[lts.initial.index()]),
        num_states: k,
        labels: lts.labels.clone(),
        transitions: lts
            .transitions
            .iter()
            .map(|t| Transition {
                from: StateId(comp[t.from.index()]),
                label: t.label,
                to: StateId(comp[t.to.index()]),
            })
            .collect(),
    };
    let p = partition(&saturate(&contracted), Bisimulation::Strong);
    let block: Vec<u32> = comp.iter().map(|&c| p.block_of(StateId(c))).collect();
    Partition::from_blocks(block, p.num_blocks()).normalised()
}

/// `lts` reduced modulo weak bisimulation (see the module documentation).
pub fn weak_bisim_reduce(lts: &Lts) -> Lts {
    let Ok(r) = weak_bisim_reduce_watched(lts, &mut Unwatched);
    r
}

/// [`weak_bisim_reduce`] under `watch` (its two partitions are watched).
pub fn weak_bisim_reduce_watched<W: Watch>(lts: &Lts, watch: &mut W) -> Result<Lts, W::Stop> {
    let b = quotient(
        lts,
        &partition_watched(lts, Bisimulation::Branching, watch)?,
        Bisimulation::Branching,
    );
    let sat = saturate(&b);
    let q = quotient(
        &sat,
        &partition_watched(&sat, Bisimulation::Strong, watch)?,
        Bisimulation::Strong,
    );
    let is_tau = tau_labels(&q);
    // Without the tau self-loops (no other tau-cycle is left: states on one are weakly
    // bisimilar, so already merged).
    let kept: Vec<(u32, u32, u32)> = q
        .transitions
        .iter()
        .filter(|t| !(t.from == t.to && is_tau[t.label.index()]))
        .map(|t| (t.from.0, t.label.0, t.to.0))
        .collect();
    let set: FxHashSet<(u32, u32, u32)> = kept.iter().copied().collect();
    let n = q.num_states as usize;
    let mut out_start = vec![0usize; n + 1];
    for &(f, _, _) in &kept {
        out_start[f as usize + 1] += 1;
    }
    for i in 0..n {
        out_start[i + 1] += out_start[i];
    }
    // `kept` is sorted by source, so each state's transitions are one slice of it.
    let outgoing = |s: u32| &kept[out_start[s as usize]..out_start[s as usize + 1]];
    let tau = q.labels.iter().position(|l| l.is_tau()).map(|a| a as u32);
    let redundant = |&(f, a, to): &(u32, u32, u32)| -> bool {
        let Some(tau) = tau else { return false };
        let via_tau_first = outgoing(f)
            .iter()
            .filter(|&&(_, l, _)| l == tau)
            .any(|&(_, _, m)| set.contains(&(m, a, to)));
        via_tau_first
            || (a != tau
                && outgoing(f)
                    .iter()
                    .filter(|&&(_, l, _)| l == a)
                    .any(|&(_, _, m)| set.contains(&(m, tau, to))))
    };
    let edges: Vec<(u32, u32, u32)> = kept.iter().filter(|e| !redundant(e)).copied().collect();
    let reduced = with_edges(&q, edges);
    // Drop the labels no transition carries any more, as the quotients do.
    let p = Partition::from_blocks((0..reduced.num_states).collect(), reduced.num_states);
    Ok(quotient(&reduced, &p, Bisimulation::Strong))
}

/// `lts` reduced modulo tau-star (see the module documentation).
pub fn tau_star_reduce(lts: &Lts) -> Lts {
    let Ok(r) = tau_star_reduce_watched(lts, &mut Unwatched);
    r
}

/// [`tau_star_reduce`] under `watch` (its two partitions are watched).
pub fn tau_star_reduce_watched<W: Watch>(lts: &Lts, watch: &mut W) -> Result<Lts, W::Stop> {
    let b = quotient(
        lts,
        &partition_watched(lts, Bisimulation::Branching, watch)?,
        Bisimulation::Branching,
    );
    let is_tau = tau_labels(&b);
    let fwd = tau_plus(&b, &is_tau);
    let n = b.num_states as usize;
    let visible: Vec<(u32, u32, u32)> = {
        let mut v: Vec<(u32, u32, u32)> = b
            .transitions
            .iter()
            .filter(|t| !is_tau[t.label.index()])
            .map(|t| (t.from.0, t.label.0, t.to.0))
            .collect();
        v.sort_unstable();
        v
    };
    let mut start = vec![0usize; n + 1];
    for &(f, _, _) in &visible {
        start[f as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut edges = visible.clone();
    for (s, r) in fwd.iter().enumerate() {
        for &m in r {
            for &(_, a, t) in &visible[start[m as usize]..start[m as usize + 1]] {
                edges.push((s as u32, a, t));
            }
        }
    }
    let star = reachable_part(with_edges(&b, edges));
    Ok(quotient(
        &star,
        &partition_watched(&star, Bisimulation::Strong, watch)?,
        Bisimulation::Strong,
    ))
}
