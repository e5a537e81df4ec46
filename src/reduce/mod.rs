//! LTS reduction modulo behavioural equivalences and equivalence checking (`ltsconvert`,
//! `ltscompare`).
//!
//! # Public API
//!
//! - [`partition`]: the coarsest [`Bisimulation`] (strong, branching, divergence-preserving
//!   branching) of an LTS as a [`Partition`] of its states. Strong bisimulation is Paige and
//!   Tarjan's O(m log n) refinement ([`strong`]); the branching variants contract tau-SCCs
//!   and refine blocks under constellations in O(m log n), after Jansen, Groote, Keiren and
//!   Wijs (TACAS 2020) ([`branching`]). [`naive::partition`] is a
//!   plain signature-refinement reference that the property tests hold both against.
//! - [`quotient`]: the LTS with one state per block, as mCRL2's `ltsconvert` builds it.
//! - [`reduce`] / [`compare`]: the whole `ltsconvert -e` / `ltscompare -e` for an
//!   [`Equivalence`], including weak bisimulation ([`weak`]: saturation of the branching
//!   quotient, then strong bisimulation) and trace and weak trace equivalence by determinisation
//!   ([`determinise_minimal`]: bisimulation quotient, [`trace::determinise`], strong
//!   minimisation).
//! - [`counterexample::distinguishing_formula`]: for strong bisimulation, a
//!   Hennessy–Milner formula of least modal depth that tells two LTSs apart;
//!   [`branching_formula::branching_distinguishing_formula`] the same for (divergence-preserving)
//!   branching bisimulation, with the until modality written as a least fixpoint.
//! - [`weak::tau_star_reduce`]: `ltsconvert -e tau-star`.
//! - [`preorder::trace_inclusion`]: `ltscompare -p trace|weak-trace`, with a shortest
//!   counterexample trace.
//! - [`simulation`]: the simulation preorder (`ltscompare -p sim`), simulation equivalence
//!   and its quotient (`-e sim`).
//! - [`refinement::refines`]: failures, stable failures and failures-divergence refinement
//!   and trace inclusion by antichains (`ltscompare -p failures|weak-failures|
//!   failures-divergence|trace-ac|weak-trace-ac`), with a shortest counterexample.
//! - [`hide_actions`]: `--tau=a,b`, turning actions into tau.
//! - [`disjoint_union`]: the two LTSs side by side, for comparison.
//! - [`reachable_part`]: the states reachable from the initial state.
//!
//! # Quotients
//!
//! The quotient has one state per block; the initial state is the initial state's block,
//! numbered 0, and the other blocks are numbered in the order of their smallest state. Every
//! transition `s -a-> t` gives `B(s) -a-> B(t)`, duplicates removed, except that for the
//! branching equivalences a tau between two states of one block (an inert tau) is dropped.
//! For divergence-preserving branching bisimulation a block with a tau-cycle inside it (a
//! divergent block) keeps one tau self-loop. Labels that no quotient transition carries are
//! dropped from the label table, and the others keep their relative order. Unreachable
//! states are kept, each in its block; [`reachable_part`] removes them first, which
//! `ltsconvert` does unless told `--no-reach`, as mCRL2's `ltsconvert` does.
//!
//! # Tau
//!
//! A label is internal when it prints as `tau` (the empty multi-action, as mCRL2 writes it in
//! `.aut` files). [`hide_actions`] removes the hidden action names from every multi-action
//! first, so `a|b` with `a` hidden becomes `b` and `a` becomes `tau`.

pub mod branching;
pub mod branching_formula;
pub mod counterexample;
pub mod naive;
pub mod preorder;
pub mod refinement;
pub mod scc;
pub mod simulation;
pub mod strong;
pub mod trace;
pub mod weak;

use miette::Diagnostic;
use rustc_hash::FxHashMap;
use thiserror::Error;

use crate::lts::{Label, LabelId, Lts, StateId, Transition};
use crate::progress::{Halted, Unwatched, Watch};

/// The bisimulations computed as partitions of the states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bisimulation {
    /// Strong bisimulation: tau is an ordinary label.
    Strong,
    /// Branching bisimulation (van Glabbeek and Weijland).
    Branching,
    /// Divergence-preserving branching bisimulation.
    DivergenceBranching,
}

/// The equivalences of `ltsconvert -e` and `ltscompare -e`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Equivalence {
    /// Strong bisimulation (`bisim`).
    Bisim,
    /// Branching bisimulation (`branching-bisim`).
    BranchingBisim,
    /// Divergence-preserving branching bisimulation (`dpbranching-bisim`).
    DpBranchingBisim,
    /// Trace equivalence, tau an ordinary action (`trace`).
    Trace,
    /// Weak trace equivalence: equal sets of traces of visible actions (`weak-trace`).
    WeakTrace,
    /// Weak bisimulation (`weak-bisim`), by [`weak::weak_bisim_reduce`].
    WeakBisim,
    /// Strong simulation equivalence (`sim`), by [`simulation`].
    Sim,
}

impl Equivalence {
    /// Every equivalence, in the order of the command-line help.
    pub const ALL: [Equivalence; 7] = [
        Equivalence::Bisim,
        Equivalence::BranchingBisim,
        Equivalence::DpBranchingBisim,
        Equivalence::Trace,
        Equivalence::WeakTrace,
        Equivalence::WeakBisim,
        Equivalence::Sim,
    ];

    /// The name mCRL2's tools use for it (`bisim`, `branching-bisim`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Equivalence::Bisim => "bisim",
            Equivalence::BranchingBisim => "branching-bisim",
            Equivalence::DpBranchingBisim => "dpbranching-bisim",
            Equivalence::Trace => "trace",
            Equivalence::WeakTrace => "weak-trace",
            Equivalence::WeakBisim => "weak-bisim",
            Equivalence::Sim => "sim",
        }
    }

    /// The bisimulation it is, if it is one.
    pub fn bisimulation(self) -> Option<Bisimulation> {
        match self {
            Equivalence::Bisim => Some(Bisimulation::Strong),
            Equivalence::BranchingBisim => Some(Bisimulation::Branching),
            Equivalence::DpBranchingBisim => Some(Bisimulation::DivergenceBranching),
            Equivalence::Trace
            | Equivalence::WeakTrace
            | Equivalence::WeakBisim
            | Equivalence::Sim => None,
        }
    }
}

/// What can go wrong while reducing.
#[derive(Debug, Error, Diagnostic)]
pub enum ReduceError {
    /// Determinisation for a trace equivalence met more subsets than allowed.
    #[error("determinisation needs more than {limit} states")]
    #[diagnostic(
        code(muon::reduce::subsets),
        help(
            "raise the bound with --max-states (the input was already reduced modulo bisimulation)"
        )
    )]
    TooManySubsets {
        /// The bound that was reached.
        limit: u64,
    },
    /// The partition history a counterexample needs is too large.
    #[error(
        "a counterexample would need the partitions of more than {rounds} refinement rounds of \
         the {classes} classes of the two LTSs (at most {limit} entries are kept)"
    )]
    #[diagnostic(
        code(muon::reduce::counterexample),
        help("compare without --counter-example (the verdict needs no rounds)")
    )]
    CounterexampleTooLarge {
        /// The rounds kept when the bound was reached.
        rounds: u64,
        /// The states refined (classes of the union modulo the bisimulation).
        classes: u64,
        /// The bound on rounds times classes.
        limit: u64,
    },
    /// The run's budget (memory limit, timeout, Ctrl-C) stopped the reduction.
    #[error(transparent)]
    #[diagnostic(
        code(muon::reduce::stopped),
        help("raise --memory-limit or --timeout, or reduce a smaller LTS")
    )]
    Stopped(#[from] Halted),
    /// The simulation preorder's bit matrix would be too large.
    #[error("the simulation preorder of {states} states (after strong bisimulation reduction) is too large; at most {limit} are supported")]
    #[diagnostic(
        code(muon::reduce::simulation),
        help("the preorder takes states² bits; compare modulo a bisimulation or a trace preorder instead")
    )]
    SimulationTooLarge {
        /// States of the strong bisimulation quotient.
        states: u64,
        /// The most states supported.
        limit: u64,
    },
}

impl From<std::convert::Infallible> for ReduceError {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

/// Options of [`reduce`] and [`compare`].
#[derive(Clone, Copy, Debug)]
pub struct ReduceOptions {
    /// The most states a determinisation (trace equivalences) may build. By default the
    /// most that state numbers allow: the run's memory limit is what bounds it.
    pub max_subsets: u64,
}

impl Default for ReduceOptions {
    fn default() -> Self {
        ReduceOptions {
            max_subsets: u64::from(u32::MAX - 1),
        }
    }
}

/// A partition of the states `0..n` into blocks numbered `0..num_blocks`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    block: Vec<u32>,
    num_blocks: u32,
}

impl Partition {
    /// The partition with `block[s]` the block of state `s`; every block in
    /// `0..num_blocks` must be used.
    pub fn from_blocks(block: Vec<u32>, num_blocks: u32) -> Partition {
        debug_assert!(block.iter().all(|&b| b < num_blocks));
        Partition { block, num_blocks }
    }

    /// The block of state `s`.
    pub fn block_of(&self, s: StateId) -> u32 {
        self.block[s.index()]
    }

    /// The block of every state.
    pub fn blocks(&self) -> &[u32] {
        &self.block
    }

    /// The number of blocks.
    pub fn num_blocks(&self) -> u32 {
        self.num_blocks
    }

    /// The same partition with blocks numbered in the order of their smallest state, so that
    /// two partitions are equal exactly when they group the states the same way.
    pub fn normalised(&self) -> Partition {
        let mut map = vec![u32::MAX; self.num_blocks as usize];
        let mut next = 0;
        let block = self
            .block
            .iter()
            .map(|&b| {
                if map[b as usize] == u32::MAX {
                    map[b as usize] = next;
                    next += 1;
                }
                map[b as usize]
            })
            .collect();
        Partition {
            block,
            num_blocks: next,
        }
    }
}

fn tau_labels(lts: &Lts) -> Vec<bool> {
    lts.labels.iter().map(|l| l.is_tau()).collect()
}

/// The coarsest bisimulation of kind `kind` on `lts`.
pub fn partition(lts: &Lts, kind: Bisimulation) -> Partition {
    let Ok(p) = partition_watched(lts, kind, &mut Unwatched);
    p
}

/// [`partition`] under `watch` (progress, and a stop when the budget runs out).
pub fn partition_watched<W: Watch>(
    lts: &Lts,
    kind: Bisimulation,
    watch: &mut W,
) -> Result<Partition, W::Stop> {
    let n = lts.num_states as usize;
    match kind {
        Bisimulation::Strong => {
            strong::strong_partition_watched(n, lts.labels.len(), &lts.transitions, watch)
        }
        Bisimulation::Branching | Bisimulation::DivergenceBranching => {
            branching::branching_partition_watched(
                n,
                &tau_labels(lts),
                &lts.transitions,
                kind == Bisimulation::DivergenceBranching,
                watch,
            )
        }
    }
}

/// The quotient of `lts` by `p`, a partition for `kind` (see the module documentation).
pub fn quotient(lts: &Lts, p: &Partition, kind: Bisimulation) -> Lts {
    let n = lts.num_states as usize;
    let map = quotient_numbers(lts, p);
    let next = p.num_blocks;
    let block = |s: StateId| map[p.block[s.index()] as usize];
    let is_tau = tau_labels(lts);
    let branching = kind != Bisimulation::Strong;
    let mut edges: Vec<(u32, u32, u32)> = Vec::with_capacity(lts.transitions.len());
    for t in &lts.transitions {
        let (f, to) = (block(t.from), block(t.to));
        if branching && f == to && is_tau[t.label.index()] {
            continue;
        }
        edges.push((f, t.label.0, to));
    }
    if kind == Bisimulation::DivergenceBranching {
        // A block is divergent when its inert taus contain a cycle.
        let inert = lts
            .transitions
            .iter()
            .filter(|t| is_tau[t.label.index()] && block(t.from) == block(t.to));
        let (start, succ) = scc::adjacency(n, inert.clone().map(|t| (t.from.0, t.to.0)));
        let (comp, k) = scc::tarjan(n, &start, &succ);
        let mut size = vec![0u32; k as usize];
        for &c in &comp {
            size[c as usize] += 1;
        }
        let tau = is_tau.iter().position(|&t| t).map(|a| a as u32);
        for t in inert {
            if t.from == t.to || size[comp[t.from.index()] as usize] > 1 {
                let b = block(t.from);
                edges.push((b, tau.expect("an inert tau has a tau label"), b));
            }
        }
    }
    let edges = sort_dedup_by_source(edges, next as usize);
    // Keep the labels in use, in their order.
    let mut used = vec![false; lts.labels.len()];
    for &(_, a, _) in &edges {
        used[a as usize] = true;
    }
    let mut label_map = vec![u32::MAX; lts.labels.len()];
    let mut labels = Vec::new();
    for (a, l) in lts.labels.iter().enumerate() {
        if used[a] {
            label_map[a] = labels.len() as u32;
            labels.push(l.clone());
        }
    }
    Lts {
        initial: StateId(0),
        num_states: next,
        labels,
        transitions: edges
            .into_iter()
            .map(|(f, a, t)| Transition {
                from: StateId(f),
                label: LabelId(label_map[a as usize]),
                to: StateId(t),
            })
            .collect(),
    }
}

/// The state of [`quotient`]`(lts, p, _)` each block of `p` becomes: the initial block 0,
/// the others numbered by their smallest state.
pub(crate) fn quotient_numbers(lts: &Lts, p: &Partition) -> Vec<u32> {
    let mut map = vec![u32::MAX; p.num_blocks as usize];
    map[p.block_of(lts.initial) as usize] = 0;
    let mut next = 1;
    for &b in &p.block {
        if map[b as usize] == u32::MAX {
            map[b as usize] = next;
            next += 1;
        }
    }
    map
}

/// `edges` sorted and each once, by a counting sort on the source (`< n`) and a sort of each
/// source's few edges: linear in the edges, where sorting them all was a twentieth of
/// `ltsconvert -e branching-bisim` on B.1.
fn sort_dedup_by_source(edges: Vec<(u32, u32, u32)>, n: usize) -> Vec<(u32, u32, u32)> {
    let mut start = vec![0u32; n + 1];
    for &(f, _, _) in &edges {
        start[f as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut sorted = vec![(0u32, 0u32, 0u32); edges.len()];
    for &e in &edges {
        sorted[start[e.0 as usize] as usize] = e;
        start[e.0 as usize] += 1;
    }
    drop(edges);
    // `start[i]` is now where source `i`'s edges end.
    let mut begin = 0;
    for &end in &start[..n] {
        sorted[begin..end as usize].sort_unstable();
        begin = end as usize;
    }
    sorted.dedup();
    sorted
}

/// The part of `lts` reachable from its initial state: the reachable states keep their
/// relative order (renumbered densely), the labels are kept as they are. `ltsconvert`
/// applies it before reducing unless `--no-reach` is given, as mCRL2's `ltsconvert` does.
/// Takes `lts` by value and renumbers its transitions in place: on an LTS of millions of
/// transitions a second copy would be the largest allocation of the whole reduction.
pub fn reachable_part(mut lts: Lts) -> Lts {
    let n = lts.num_states as usize;
    let (start, succ) = scc::adjacency(n, lts.transitions.iter().map(|t| (t.from.0, t.to.0)));
    let mut seen = vec![false; n];
    seen[lts.initial.index()] = true;
    let mut stack = vec![lts.initial.0];
    while let Some(s) = stack.pop() {
        for &t in &succ[start[s as usize] as usize..start[s as usize + 1] as usize] {
            if !seen[t as usize] {
                seen[t as usize] = true;
                stack.push(t);
            }
        }
    }
    drop((start, succ));
    if seen.iter().all(|&r| r) {
        return lts;
    }
    let mut map = vec![u32::MAX; n];
    let mut next = 0;
    for s in 0..n {
        if seen[s] {
            map[s] = next;
            next += 1;
        }
    }
    lts.transitions.retain(|t| seen[t.from.index()]);
    for t in &mut lts.transitions {
        t.from = StateId(map[t.from.index()]);
        t.to = StateId(map[t.to.index()]);
    }
    lts.transitions.shrink_to_fit();
    Lts {
        initial: StateId(map[lts.initial.index()]),
        num_states: next,
        ..lts
    }
}

/// `lts` with the actions named in `hidden` made internal: they are removed from every
/// multi-action, and a multi-action left empty becomes `tau`. Labels that become equal are
/// merged. Takes `lts` by value and relabels its transitions in place (no second copy).
pub fn hide_actions(mut lts: Lts, hidden: &[String]) -> Lts {
    if hidden.is_empty() {
        return lts;
    }
    let hide = |l: &Label| -> Label {
        match l.parts() {
            Some(parts) => Label::from_parts(
                parts
                    .iter()
                    .filter(|p| !hidden.contains(&p.name))
                    .cloned()
                    .collect(),
            ),
            None if hidden.iter().any(|h| h == l.text()) => Label::tau(),
            None => l.clone(),
        }
    };
    let mut labels: Vec<Label> = Vec::new();
    let mut index: FxHashMap<String, u32> = FxHashMap::default();
    let map: Vec<u32> = lts
        .labels
        .iter()
        .map(|l| {
            let h = hide(l);
            *index.entry(h.text().to_string()).or_insert_with(|| {
                labels.push(h);
                labels.len() as u32 - 1
            })
        })
        .collect();
    for t in &mut lts.transitions {
        t.label = LabelId(map[t.label.index()]);
    }
    Lts { labels, ..lts }
}

/// `a` and `b` side by side: `a`'s states keep their numbers, `b`'s are shifted past them,
/// labels with the same text are identified. The initial state is `a`'s; the second result
/// is `b`'s initial state in the union.
pub fn disjoint_union(a: &Lts, b: &Lts) -> (Lts, StateId) {
    let mut labels = a.labels.clone();
    let mut index: FxHashMap<&str, u32> = a
        .labels
        .iter()
        .enumerate()
        .map(|(i, l)| (l.text(), i as u32))
        .collect();
    let map: Vec<u32> = b
        .labels
        .iter()
        .map(|l| {
            *index.entry(l.text()).or_insert_with(|| {
                labels.push(l.clone());
                labels.len() as u32 - 1
            })
        })
        .collect();
    let shift = a.num_states;
    let mut transitions = a.transitions.clone();
    transitions.extend(b.transitions.iter().map(|t| Transition {
        from: StateId(t.from.0 + shift),
        label: LabelId(map[t.label.index()]),
        to: StateId(t.to.0 + shift),
    }));
    (
        Lts {
            initial: a.initial,
            num_states: a.num_states + b.num_states,
            labels,
            transitions,
        },
        StateId(b.initial.0 + shift),
    )
}

/// The bisimulation quotient that [`determinise_minimal`] starts from: strong bisimulation
/// preserves traces, branching bisimulation weak traces, and a smaller input gives a much
/// smaller subset construction.
fn trace_prereduce<W: Watch>(lts: &Lts, weak: bool, watch: &mut W) -> Result<Lts, W::Stop> {
    let kind = if weak {
        Bisimulation::Branching
    } else {
        Bisimulation::Strong
    };
    Ok(quotient(lts, &partition_watched(lts, kind, watch)?, kind))
}

/// The minimal deterministic LTS with the traces (weak traces when `weak`) of `lts`: the
/// bisimulation quotient, determinised, then minimised modulo strong bisimulation.
pub fn determinise_minimal(
    lts: &Lts,
    weak: bool,
    opts: &ReduceOptions,
) -> Result<Lts, ReduceError> {
    determinise_minimal_watched(lts, weak, opts, &mut Unwatched)
}

/// [`determinise_minimal`] under `watch`.
pub fn determinise_minimal_watched<W: Watch>(
    lts: &Lts,
    weak: bool,
    opts: &ReduceOptions,
    watch: &mut W,
) -> Result<Lts, ReduceError>
where
    ReduceError: From<W::Stop>,
{
    let pre = trace_prereduce(lts, weak, watch)?;
    let det = trace::determinise_watched(&pre, weak, opts.max_subsets, watch)?;
    let p = partition_watched(&det, Bisimulation::Strong, watch)?;
    Ok(quotient(&det, &p, Bisimulation::Strong))
}

/// `lts` reduced modulo `eq`: the bisimulation quotient (for weak bisimulation as
/// [`weak::weak_bisim_reduce`] builds it), or for the trace equivalences the minimal
/// deterministic LTS with the same (weak) traces.
pub fn reduce(lts: &Lts, eq: Equivalence, opts: &ReduceOptions) -> Result<Lts, ReduceError> {
    reduce_watched(lts, eq, opts, &mut Unwatched)
}

/// [`reduce`] under `watch` (progress, and [`ReduceError::Stopped`] when the budget runs
/// out).
pub fn reduce_watched<W: Watch>(
    lts: &Lts,
    eq: Equivalence,
    opts: &ReduceOptions,
    watch: &mut W,
) -> Result<Lts, ReduceError>
where
    ReduceError: From<W::Stop>,
{
    match eq.bisimulation() {
        Some(kind) => Ok(quotient(lts, &partition_watched(lts, kind, watch)?, kind)),
        None if eq == Equivalence::WeakBisim => Ok(weak::weak_bisim_reduce_watched(lts, watch)?),
        None if eq == Equivalence::Sim => simulation::sim_reduce_watched(lts, watch),
        None => determinise_minimal_watched(lts, eq == Equivalence::WeakTrace, opts, watch),
    }
}

/// Whether the initial states of `a` and `b` are equivalent modulo `eq`.
pub fn compare(
    a: &Lts,
    b: &Lts,
    eq: Equivalence,
    opts: &ReduceOptions,
) -> Result<bool, ReduceError> {
    compare_watched(a, b, eq, opts, &mut Unwatched)
}

/// [`compare`] under `watch`.
pub fn compare_watched<W: Watch>(
    a: &Lts,
    b: &Lts,
    eq: Equivalence,
    opts: &ReduceOptions,
    watch: &mut W,
) -> Result<bool, ReduceError>
where
    ReduceError: From<W::Stop>,
{
    if eq == Equivalence::Sim {
        let (u, init_b) = disjoint_union(a, b);
        let pre = simulation::simulation_preorder_watched(&u, watch)?;
        return Ok(pre.le(u.initial, init_b) && pre.le(init_b, u.initial));
    }
    let (a, b) = match eq.bisimulation() {
        Some(_) => (a.clone(), b.clone()),
        // Weakly bisimilar exactly when the reductions are strongly bisimilar.
        None if eq == Equivalence::WeakBisim => (
            weak::weak_bisim_reduce_watched(a, watch)?,
            weak::weak_bisim_reduce_watched(b, watch)?,
        ),
        None => {
            let weak = eq == Equivalence::WeakTrace;
            (
                determinise_minimal_watched(a, weak, opts, watch)?,
                determinise_minimal_watched(b, weak, opts, watch)?,
            )
        }
    };
    let (u, init_b) = disjoint_union(&a, &b);
    let kind = eq.bisimulation().unwrap_or(Bisimulation::Strong);
    let p = partition_watched(&u, kind, watch)?;
    Ok(p.block_of(u.initial) == p.block_of(init_b))
}
