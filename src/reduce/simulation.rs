//! Strong simulation: the simulation preorder (`ltscompare -p sim`), simulation equivalence
//! (`ltscompare -e sim`) and its quotient (`ltsconvert -e sim`). Tau is an ordinary label.
//!
//! `s ≤ t` (t simulates s) is the greatest relation with: whenever `s -a-> s'` there is
//! `t -a-> t'` with `s' ≤ t'`. Bisimilar states simulate each other, so the preorder is
//! computed on the strong bisimulation quotient ([`super::partition_watched`], O(m log n)), which is
//! usually much smaller. There the relation is a bit matrix, one row per state holding the
//! states that simulate it, refined to the greatest fixpoint of
//! `row(s) ∩= pre_a(row(s'))` for every `s -a-> s'`, where `pre_a(X)` is the set of states
//! with an `a`-step into `X`; only the `pre_a(row(s'))` of rows that changed are recomputed.
//! The matrix takes n² bits, so the quotient may have at most [`MAX_STATES`] states.
//! [`super::naive::simulation`] is the plain pair-by-pair reference of the property tests.
//!
//! The quotient has one state per simulation-equivalence class and, from each class, the
//! `a`-steps into the classes that are maximal (in the preorder) among the `a`-successors of
//! its states, as mCRL2's `ltsconvert -e sim` builds it: a step into a class below another
//! `a`-successor adds no behaviour up to simulation equivalence.

use super::{partition_watched, Bisimulation, Partition, ReduceError};
use crate::lts::{LabelId, Lts, StateId, Transition};
use crate::progress::{Unwatched, Watch};

/// The most states (after strong bisimulation reduction) whose simulation preorder is
/// computed: the bit matrix then takes at most 450 MB.
pub const MAX_STATES: u64 = 60_000;

/// The simulation preorder of an LTS.
pub struct SimPreorder {
    /// The strong bisimulation block of each state of the LTS.
    block: Vec<u32>,
    /// Words per row of `rows`.
    width: usize,
    /// Row `b`: the blocks that simulate block `b`, as bits.
    rows: Vec<u64>,
}

impl SimPreorder {
    fn le_blocks(&self, b: u32, c: u32) -> bool {
        let w = self.rows[b as usize * self.width + c as usize / 64];
        w >> (c % 64) & 1 == 1
    }

    /// Whether `t` simulates `s`.
    pub fn le(&self, s: StateId, t: StateId) -> bool {
        self.le_blocks(self.block[s.index()], self.block[t.index()])
    }

    /// The partition into simulation-equivalence classes (`s ≤ t` and `t ≤ s`).
    pub fn equivalence(&self) -> Partition {
        let k = self.rows.len().checked_div(self.width).unwrap_or(0);
        let mut class = vec![u32::MAX; k];
        let mut next = 0;
        for b in 0..k as u32 {
            if class[b as usize] != u32::MAX {
                continue;
            }
            class[b as usize] = next;
            for c in b + 1..k as u32 {
                if class[c as usize] == u32::MAX && self.le_blocks(b, c) && self.le_blocks(c, b) {
                    class[c as usize] = next;
                }
            }
            next += 1;
        }
        Partition::from_blocks(
            self.block.iter().map(|&b| class[b as usize]).collect(),
            next,
        )
    }
}

/// The simulation preorder of `lts`; fails when its strong bisimulation quotient has more
/// than [`MAX_STATES`] states.
pub fn simulation_preorder(lts: &Lts) -> Result<SimPreorder, ReduceError> {
    simulation_preorder_watched(lts, &mut Unwatched)
}

/// [`simulation_preorder`] under `watch`: ticks through the strong bisimulation, the
/// initial matrix (one per row) and every refinement round (one per target class), so a
/// budget stop reports the rounds done.
pub fn simulation_preorder_watched<W: Watch>(
    lts: &Lts,
    watch: &mut W,
) -> Result<SimPreorder, ReduceError>
where
    ReduceError: From<W::Stop>,
{
    let bisim = partition_watched(lts, Bisimulation::Strong, watch)?;
    let k = bisim.num_blocks() as usize;
    if k as u64 > MAX_STATES {
        return Err(ReduceError::SimulationTooLarge {
            states: k as u64,
            limit: MAX_STATES,
        });
    }
    let num_labels = lts.labels.len();
    // The quotient's transitions (block, label, block), sorted by label then target.
    let mut edges: Vec<(u32, u32, u32)> = lts
        .transitions
        .iter()
        .map(|t| (t.label.0, bisim.block_of(t.to), bisim.block_of(t.from)))
        .collect();
    edges.sort_unstable();
    edges.dedup();
    let width = k.div_ceil(64);
    let lwidth = num_labels.div_ceil(64).max(1);
    // Enabled labels per block; a block simulates another only if it enables all its labels.
    let mut enabled = vec![0u64; k * lwidth];
    for &(a, _, s) in &edges {
        enabled[s as usize * lwidth + a as usize / 64] |= 1 << (a % 64);
    }
    let mut rows = vec![0u64; k * width];
    // One monotone count of work units for the meter: rows, then target classes refined.
    let mut work = 0u64;
    for s in 0..k {
        work += 1;
        watch.tick(work, || {
            format!("simulation matrix of {k} classes: {s} rows initialised")
        })?;
        let es = &enabled[s * lwidth..(s + 1) * lwidth];
        for t in 0..k {
            let et = &enabled[t * lwidth..(t + 1) * lwidth];
            if es.iter().zip(et).all(|(x, y)| x & !y == 0) {
                rows[s * width + t / 64] |= 1 << (t % 64);
            }
        }
    }
    // Per label: the targets with their sources (`edges` is sorted by label, target).
    let mut label_start = vec![0usize; num_labels + 1];
    for &(a, _, _) in &edges {
        label_start[a as usize + 1] += 1;
    }
    for a in 0..num_labels {
        label_start[a + 1] += label_start[a];
    }
    // pre[a][t]: the sources of `a`-steps into `t`, as ranges of `edges` sorted by target.
    let mut dirty = vec![true; k];
    let mut pre_set = vec![0u64; width];
    let mut changed = true;
    let mut rounds = 0u64;
    while changed {
        changed = false;
        rounds += 1;
        let mut now_dirty = vec![false; k];
        for a in 0..num_labels {
            let es = &edges[label_start[a]..label_start[a + 1]];
            let mut i = 0;
            while i < es.len() {
                let target = es[i].1;
                let mut j = i;
                while j < es.len() && es[j].1 == target {
                    j += 1;
                }
                if dirty[target as usize] {
                    work += 1;
                    watch.tick(work, || {
                        format!("simulation of {k} classes: refinement round {rounds}")
                    })?;
                    // pre_a(row(target)): every source of an a-step into a simulating block.
                    pre_set.iter_mut().for_each(|w| *w = 0);
                    let row = &rows[target as usize * width..(target as usize + 1) * width];
                    for &(_, t2, s2) in es {
                        if row[t2 as usize / 64] >> (t2 % 64) & 1 == 1 {
                            pre_set[s2 as usize / 64] |= 1 << (s2 % 64);
                        }
                    }
                    for &(_, _, s) in &es[i..j] {
                        let r = &mut rows[s as usize * width..(s as usize + 1) * width];
                        let mut any = false;
                        for (x, &p) in r.iter_mut().zip(&pre_set) {
                            let y = *x & p;
                            any |= y != *x;
                            *x = y;
                        }
                        if any {
                            now_dirty[s as usize] = true;
                            changed = true;
                        }
                    }
                }
                i = j;
            }
        }
        dirty = now_dirty;
    }
    Ok(SimPreorder {
        block: bisim.blocks().to_vec(),
        width,
        rows,
    })
}

/// The simulation-equivalence quotient of `lts` (see the module documentation), restricted
/// to the part reachable from the initial class.
pub fn sim_reduce(lts: &Lts) -> Result<Lts, ReduceError> {
    sim_reduce_watched(lts, &mut Unwatched)
}

/// [`sim_reduce`] under `watch`.
pub fn sim_reduce_watched<W: Watch>(lts: &Lts, watch: &mut W) -> Result<Lts, ReduceError>
where
    ReduceError: From<W::Stop>,
{
    let pre = simulation_preorder_watched(lts, watch)?;
    let p = pre.equivalence();
    let k = p.num_blocks() as usize;
    // A representative state per class, for comparing classes.
    let mut rep = vec![u32::MAX; k];
    for s in 0..lts.num_states {
        let c = p.block_of(StateId(s)) as usize;
        if rep[c] == u32::MAX {
            rep[c] = s;
        }
    }
    let class_le = |c: u32, d: u32| pre.le(StateId(rep[c as usize]), StateId(rep[d as usize]));
    let mut steps: Vec<(u32, u32, u32)> = lts
        .transitions
        .iter()
        .map(|t| (p.block_of(t.from), t.label.0, p.block_of(t.to)))
        .collect();
    steps.sort_unstable();
    steps.dedup();
    let mut transitions = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        let (c, a) = (steps[i].0, steps[i].1);
        let mut j = i;
        while j < steps.len() && (steps[j].0, steps[j].1) == (c, a) {
            j += 1;
        }
        let group = &steps[i..j];
        for &(_, _, d) in group {
            if !group.iter().any(|&(_, _, e)| e != d && class_le(d, e)) {
                transitions.push(Transition {
                    from: StateId(c),
                    label: LabelId(a),
                    to: StateId(d),
                });
            }
        }
        i = j;
    }
    let q = Lts {
        initial: StateId(p.block_of(lts.initial)),
        num_states: k as u32,
        labels: lts.labels.clone(),
        transitions,
    };
    // Renumber as every quotient is: the initial state 0, the others by smallest state.
    let r = super::reachable_part(q);
    let order = Partition::from_blocks((0..r.num_states).collect(), r.num_states);
    Ok(super::quotient(&r, &order, Bisimulation::Strong))
}
