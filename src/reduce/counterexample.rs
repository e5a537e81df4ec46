//! Distinguishing formulas for strong bisimulation (`ltscompare -e bisim -c`).
//!
//! Signature refinement on the disjoint union keeps the partition of every round; two states
//! first separated in round `k` differ in their round-`(k-1)` signatures, so one of them has
//! an `a`-step into a block that the other cannot reach by `a`. That step gives a
//! Hennessy–Milner formula `<a>(φ1 && ... && φn)` with one conjunct, built recursively from
//! earlier rounds, per block of the other state's `a`-successors (or its negation when the
//! step is the second state's). The formula holds in the first state, fails in the second,
//! and its modal depth is the round of the split, the least possible.
//!
//! Why per-round signature refinement and not the fast algorithm's split history: a formula
//! of least depth needs the partition of every round (which states are told apart by
//! formulas of depth `k`), and the fast algorithms' splits are not rounds: a formula read off
//! their split history (one modality per splitter) is valid but neither of least depth nor
//! small, its conjunctions growing with the blocks a splitter separates. (mCRL2 likewise
//! switches to a slower minimal-depth refinement for counterexamples.) The fast algorithm
//! still does part of the work: it decides whether there is a formula at all (equivalent
//! LTSs need no round), and the rounds run on the union's quotient modulo strong
//! bisimulation (`reduced_union`), on which every state satisfies the formulas of its
//! class, so formulas and their depths are the same. The rounds are bounded: at most `HISTORY_LIMIT` entries (rounds times
//! classes, at most classes squared: any quotient of up to 14,142 classes passes), beyond
//! which a clear error says to compare without a counterexample.

use std::fmt;

use rustc_hash::FxHashMap;

use super::{disjoint_union, partition, quotient, quotient_numbers, Bisimulation, ReduceError};
use crate::lts::{LabelId, Lts, StateId};

/// The most `rounds × states` entries of partition history kept.
const HISTORY_LIMIT: u64 = 200_000_000;

/// A Hennessy–Milner formula over the labels of an LTS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hml {
    /// Holds everywhere.
    True,
    /// Negation.
    Not(Box<Hml>),
    /// `<label>(φ1 && ... && φn)`: some `label`-step leads to a state satisfying every `φi`.
    Diamond(String, Vec<Hml>),
}

impl fmt::Display for Hml {
    /// mCRL2's modal formula syntax (`<a>(<b>true && !<c>true)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hml::True => f.write_str("true"),
            Hml::Not(p) => write!(f, "!{p}"),
            Hml::Diamond(l, ps) => match ps.as_slice() {
                [] => write!(f, "<{l}>true"),
                [p] => write!(f, "<{l}>{p}"),
                _ => {
                    write!(f, "<{l}>(")?;
                    for (i, p) in ps.iter().enumerate() {
                        if i > 0 {
                            f.write_str(" && ")?;
                        }
                        write!(f, "{p}")?;
                    }
                    f.write_str(")")
                }
            },
        }
    }
}

impl Hml {
    /// Whether the formula holds in state `s` of `lts` (labels matched by their text).
    pub fn holds(&self, lts: &Lts, s: StateId) -> bool {
        match self {
            Hml::True => true,
            Hml::Not(p) => !p.holds(lts, s),
            Hml::Diamond(l, ps) => lts.transitions.iter().any(|t| {
                t.from == s && lts.label_text(t.label) == l && ps.iter().all(|p| p.holds(lts, t.to))
            }),
        }
    }
}

/// The disjoint union of `a` and `b` reduced modulo strong bisimulation by the fast partition
/// refinement, with the classes of `a`'s initial state (the quotient's initial state) and
/// of `b`'s; `None` when the two initial states are equivalent modulo `kind` (decided by the
/// fast algorithm too). Strong bisimilar states satisfy the same modal formulas, the strong
/// modalities the formulas are written with included, so a formula found on the quotient
/// holds where it holds on the union. A branching quotient would not do: it drops the
/// inert taus that a formula's `<tau>` steps can see (a tau self-loop, say).
pub(super) fn reduced_union(a: &Lts, b: &Lts, kind: Bisimulation) -> Option<(Lts, StateId)> {
    let (u, init_b) = disjoint_union(a, b);
    let mut p = partition(&u, kind);
    if p.block_of(u.initial) == p.block_of(init_b) {
        return None;
    }
    if kind != Bisimulation::Strong {
        p = partition(&u, Bisimulation::Strong);
    }
    let init_b = StateId(quotient_numbers(&u, &p)[p.block_of(init_b) as usize]);
    Some((quotient(&u, &p, Bisimulation::Strong), init_b))
}

/// A formula that holds in the initial state of `a` and fails in that of `b`, or `None`
/// when they are strongly bisimilar.
pub fn distinguishing_formula(a: &Lts, b: &Lts) -> Result<Option<Hml>, ReduceError> {
    let Some((u, init_b)) = reduced_union(a, b, Bisimulation::Strong) else {
        return Ok(None);
    };
    let n = u.num_states as usize;
    let mut out: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
    for t in &u.transitions {
        out[t.from.index()].push((t.label.0, t.to.0));
    }
    for o in &mut out {
        o.sort_unstable();
        o.dedup();
    }
    let Some(levels) = separating_levels(n, (u.initial.index(), init_b.index()), |prev| {
        let mut ids: FxHashMap<(u32, Vec<(u32, u32)>), u32> = FxHashMap::default();
        let next: Vec<u32> = (0..n)
            .map(|s| {
                let mut sig: Vec<(u32, u32)> =
                    out[s].iter().map(|&(l, t)| (l, prev[t as usize])).collect();
                sig.sort_unstable();
                sig.dedup();
                let fresh = ids.len() as u32;
                *ids.entry((prev[s], sig)).or_insert(fresh)
            })
            .collect();
        (next, ids.len())
    })?
    else {
        return Ok(None);
    };
    let builder = Builder {
        lts: &u,
        out: &out,
        levels: &levels,
    };
    Ok(Some(builder.formula(u.initial.0, init_b.0)))
}

/// The partitions of signature refinement, level by level from one block (`refine` maps a
/// level's block numbers to the next level's and their count), until states `pair` are in different blocks
/// (the levels, for building a formula of least depth) or the partition is stable (`None`:
/// they are equivalent). Shared by the strong and the branching formula builders.
pub(super) fn separating_levels(
    n: usize,
    pair: (usize, usize),
    mut refine: impl FnMut(&[u32]) -> (Vec<u32>, usize),
) -> Result<Option<Vec<Vec<u32>>>, ReduceError> {
    let mut levels: Vec<Vec<u32>> = vec![vec![0; n]];
    let mut count = 1;
    loop {
        if (levels.len() as u64 + 1) * (n as u64) > HISTORY_LIMIT {
            return Err(ReduceError::CounterexampleTooLarge {
                rounds: levels.len() as u64,
                classes: n as u64,
                limit: HISTORY_LIMIT,
            });
        }
        let (next, new_count) = refine(levels.last().expect("level 0"));
        let separated = next[pair.0] != next[pair.1];
        levels.push(next);
        if separated {
            return Ok(Some(levels));
        }
        if new_count == count {
            return Ok(None);
        }
        count = new_count;
    }
}

struct Builder<'a> {
    lts: &'a Lts,
    out: &'a [Vec<(u32, u32)>],
    levels: &'a [Vec<u32>],
}

impl Builder<'_> {
    /// The first round in which `s` and `t` are in different blocks.
    fn split_round(&self, s: u32, t: u32) -> usize {
        (0..self.levels.len())
            .find(|&k| self.levels[k][s as usize] != self.levels[k][t as usize])
            .expect("s and t are separated")
    }

    /// A formula true in `s` and false in `t`, which are separated.
    fn formula(&self, s: u32, t: u32) -> Hml {
        let prev = &self.levels[self.split_round(s, t) - 1];
        let can = |x: u32, l: u32, blk: u32| {
            self.out[x as usize]
                .iter()
                .any(|&(m, y)| m == l && prev[y as usize] == blk)
        };
        for &(l, s2) in &self.out[s as usize] {
            if !can(t, l, prev[s2 as usize]) {
                return self.diamond(l, s2, t, prev);
            }
        }
        for &(l, t2) in &self.out[t as usize] {
            if !can(s, l, prev[t2 as usize]) {
                return Hml::Not(Box::new(self.diamond(l, t2, s, prev)));
            }
        }
        unreachable!("states separated in a round differ in the previous round's signatures")
    }

    /// `<l>(...)` true in the source of `x -l-> x2` and false in `y`, whose `l`-successors
    /// are all outside `x2`'s block of `prev`: one conjunct per such block (states in one
    /// block of `prev` satisfy the same formulas of the depth used).
    fn diamond(&self, l: u32, x2: u32, y: u32, prev: &[u32]) -> Hml {
        let mut seen: Vec<u32> = Vec::new();
        let mut parts = Vec::new();
        for &(m, y2) in &self.out[y as usize] {
            if m != l || seen.contains(&prev[y2 as usize]) {
                continue;
            }
            seen.push(prev[y2 as usize]);
            parts.push(self.formula(x2, y2));
        }
        Hml::Diamond(self.lts.label_text(LabelId(l)).to_string(), parts)
    }
}
