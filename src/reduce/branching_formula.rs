//! Distinguishing formulas for branching and divergence-preserving branching bisimulation
//! (`ltscompare -e branching-bisim -c`, `-e dpbranching-bisim -c`).
//!
//! Branching signature refinement on the disjoint union keeps the partition of every round:
//! the round-`k+1` block of a state is its round-`k` block `B` with its signature, the pairs
//! `(a, B')` of steps `s' -a-> s''` (`s''` in round-`k` block `B'`, not an inert tau back
//! into `B`) from the states `s'` that `s` reaches by taus inside `B`, plus, for the
//! divergence-preserving variant, whether `s` has an infinite tau-path inside `B`. Two states
//! first separated in round `k+1` have the same block `B` and different signatures; when
//! `s` has a pair `(a, B')` that `t` lacks, the formula is the until modality of branching
//! bisimulation written as a least fixpoint,
//!
//! ```text
//! mu X. (Φ && (<a>Ψ || <tau>X))
//! ```
//!
//! with `Φ` true on `s`'s tau-path to `s'` and false on every state a tau leads to out of
//! the states `t` reaches by taus inside `B`, and `Ψ` true in `s''` and false in every
//! `a`-successor of those states; both are conjunctions of formulas of earlier rounds, so
//! the recursion ends. A divergence gives `nu X. (Φ && <tau>X)` with `Φ` true on the states
//! `s` reaches inside `B`. When only `t` has the pair (or the divergence), the formula is the
//! negation of the one for `(t, s)`. Every subformula is evaluated on the union as it is
//! built (its set of states), which keeps conjunctions short: a state a conjunct already
//! rules out needs none of its own.
//!
//! The fast algorithm first decides whether the LTSs are equivalent, and the rounds run on
//! the union's quotient modulo strong bisimulation; why rounds at all, why not the
//! branching quotient, and their bound, are in `counterexample`'s module documentation.

use std::collections::VecDeque;
use std::fmt;
use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::counterexample::{reduced_union, separating_levels};
use super::{scc, Bisimulation, ReduceError};
use crate::lts::{LabelId, Lts};

/// A modal formula over the labels of an LTS, with the branching modalities.
#[derive(Debug, PartialEq, Eq)]
pub enum BranchingFormula {
    /// Holds everywhere.
    True,
    /// Negation.
    Not(Rc<BranchingFormula>),
    /// Conjunction (at least two operands).
    And(Vec<Rc<BranchingFormula>>),
    /// Disjunction (at least two operands).
    Or(Vec<Rc<BranchingFormula>>),
    /// `mu X. (phi && (<label>psi || <tau>X))`: a tau-path through `phi`-states to a state
    /// with a `label`-step into `psi`.
    Until {
        /// What holds along the tau-path and in its last state.
        phi: Rc<BranchingFormula>,
        /// The label of the last step (maybe `tau`).
        label: String,
        /// What holds after the last step.
        psi: Rc<BranchingFormula>,
    },
    /// `nu X. (phi && <tau>X)`: an infinite tau-path through `phi`-states.
    Diverge(Rc<BranchingFormula>),
}

impl BranchingFormula {
    /// Whether it is printed without parentheses as an operand.
    fn is_tight(&self) -> bool {
        matches!(self, BranchingFormula::True | BranchingFormula::Not(_))
            || matches!(self, BranchingFormula::Until { phi, .. } if **phi == BranchingFormula::True)
    }

    fn operand(&self, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
        if self.is_tight() {
            self.write(f, depth)
        } else {
            f.write_str("(")?;
            self.write(f, depth)?;
            f.write_str(")")
        }
    }

    /// Writes the formula; fixpoint variables are named by their nesting depth, so no
    /// binder shadows another.
    fn write(&self, f: &mut fmt::Formatter<'_>, depth: usize) -> fmt::Result {
        let junction = |f: &mut fmt::Formatter<'_>, ps: &[Rc<BranchingFormula>], op: &str| {
            for (i, p) in ps.iter().enumerate() {
                if i > 0 {
                    f.write_str(op)?;
                }
                p.operand(f, depth)?;
            }
            Ok(())
        };
        match self {
            BranchingFormula::True => f.write_str("true"),
            BranchingFormula::Not(p) => {
                f.write_str("!")?;
                p.operand(f, depth)
            }
            BranchingFormula::And(ps) => junction(f, ps, " && "),
            BranchingFormula::Or(ps) => junction(f, ps, " || "),
            BranchingFormula::Until { phi, label, psi } if **phi == BranchingFormula::True => {
                write!(f, "<tau*><{label}>")?;
                psi.operand(f, depth)
            }
            BranchingFormula::Until { phi, label, psi } => {
                write!(f, "mu X{depth}. (")?;
                phi.operand(f, depth + 1)?;
                write!(f, " && (<{label}>")?;
                psi.operand(f, depth + 1)?;
                write!(f, " || <tau>X{depth}))")
            }
            BranchingFormula::Diverge(phi) if **phi == BranchingFormula::True => {
                write!(f, "nu X{depth}. <tau>X{depth}")
            }
            BranchingFormula::Diverge(phi) => {
                write!(f, "nu X{depth}. (")?;
                phi.operand(f, depth + 1)?;
                write!(f, " && <tau>X{depth})")
            }
        }
    }

    /// The states of `lts` where the formula holds (labels matched by their text).
    pub fn states(&self, lts: &Lts) -> Vec<bool> {
        let g = Graph::new(lts);
        self.eval(&g)
    }

    fn eval(&self, g: &Graph) -> Vec<bool> {
        match self {
            BranchingFormula::True => vec![true; g.n],
            BranchingFormula::Not(p) => p.eval(g).into_iter().map(|x| !x).collect(),
            BranchingFormula::And(ps) => ps.iter().fold(vec![true; g.n], |acc, p| {
                acc.iter().zip(p.eval(g)).map(|(&x, y)| x && y).collect()
            }),
            BranchingFormula::Or(ps) => ps.iter().fold(vec![false; g.n], |acc, p| {
                acc.iter().zip(p.eval(g)).map(|(&x, y)| x || y).collect()
            }),
            BranchingFormula::Until { phi, label, psi } => {
                let label = g.label(label);
                g.until(&phi.eval(g), label, &psi.eval(g))
            }
            BranchingFormula::Diverge(phi) => g.diverge(&phi.eval(g)),
        }
    }
}

impl fmt::Display for BranchingFormula {
    /// mCRL2's modal formula syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f, 0)
    }
}

/// The transitions of an LTS by source and by target, for evaluation.
struct Graph<'a> {
    lts: &'a Lts,
    n: usize,
    tau: Vec<bool>,
    /// Outgoing `(label, target)` per state, sorted.
    out: Vec<Vec<(u32, u32)>>,
    /// Incoming `(label, source)` per state.
    inc: Vec<Vec<(u32, u32)>>,
}

impl<'a> Graph<'a> {
    fn new(lts: &'a Lts) -> Graph<'a> {
        let n = lts.num_states as usize;
        let mut out: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
        let mut inc: Vec<Vec<(u32, u32)>> = vec![Vec::new(); n];
        for t in &lts.transitions {
            out[t.from.index()].push((t.label.0, t.to.0));
            inc[t.to.index()].push((t.label.0, t.from.0));
        }
        for o in out.iter_mut().chain(inc.iter_mut()) {
            o.sort_unstable();
            o.dedup();
        }
        Graph {
            lts,
            n,
            tau: lts.labels.iter().map(|l| l.is_tau()).collect(),
            out,
            inc,
        }
    }

    /// The label with this text, if the LTS has it.
    fn label(&self, text: &str) -> Option<u32> {
        (0..self.lts.labels.len() as u32).find(|&l| self.lts.label_text(LabelId(l)) == text)
    }

    /// The least fixpoint of [`BranchingFormula::Until`]: backwards along taus through `phi`.
    fn until(&self, phi: &[bool], label: Option<u32>, psi: &[bool]) -> Vec<bool> {
        let mut sat = vec![false; self.n];
        let mut queue = VecDeque::new();
        for s in 0..self.n {
            if phi[s]
                && self.out[s]
                    .iter()
                    .any(|&(l, t)| Some(l) == label && psi[t as usize])
            {
                sat[s] = true;
                queue.push_back(s);
            }
        }
        while let Some(t) = queue.pop_front() {
            for &(l, s) in &self.inc[t] {
                let s = s as usize;
                if self.tau[l as usize] && phi[s] && !sat[s] {
                    sat[s] = true;
                    queue.push_back(s);
                }
            }
        }
        sat
    }

    /// The greatest fixpoint of [`BranchingFormula::Diverge`]: `phi`-states keep a
    /// tau-successor among the kept states.
    fn diverge(&self, phi: &[bool]) -> Vec<bool> {
        let mut sat = phi.to_vec();
        let mut count: Vec<usize> = (0..self.n)
            .map(|s| {
                self.out[s]
                    .iter()
                    .filter(|&&(l, t)| self.tau[l as usize] && sat[t as usize])
                    .count()
            })
            .collect();
        let mut queue: VecDeque<usize> = (0..self.n).filter(|&s| sat[s] && count[s] == 0).collect();
        for &s in &queue {
            sat[s] = false;
        }
        while let Some(t) = queue.pop_front() {
            for &(l, s) in &self.inc[t] {
                let s = s as usize;
                if self.tau[l as usize] && sat[s] {
                    count[s] -= 1;
                    if count[s] == 0 {
                        sat[s] = false;
                        queue.push_back(s);
                    }
                }
            }
        }
        sat
    }
}

/// A formula that holds in the initial state of `a` and fails in that of `b`, or `None` when
/// they are branching bisimilar (with `divergence`: divergence-preserving branching
/// bisimilar).
pub fn branching_distinguishing_formula(
    a: &Lts,
    b: &Lts,
    divergence: bool,
) -> Result<Option<Rc<BranchingFormula>>, ReduceError> {
    let kind = if divergence {
        Bisimulation::DivergenceBranching
    } else {
        Bisimulation::Branching
    };
    let Some((u, init_b)) = reduced_union(a, b, kind) else {
        return Ok(None);
    };
    let g = Graph::new(&u);
    let n = g.n;
    let Some(levels) = separating_levels(n, (u.initial.index(), init_b.index()), |prev| {
        let sigs = signatures(&g, prev, divergence);
        let mut ids: FxHashMap<(u32, &Signature), u32> = FxHashMap::default();
        let next: Vec<u32> = (0..n)
            .map(|s| {
                let fresh = ids.len() as u32;
                *ids.entry((prev[s], &sigs[s])).or_insert(fresh)
            })
            .collect();
        (next, ids.len())
    })?
    else {
        return Ok(None);
    };
    let mut builder = Builder {
        g: &g,
        levels: &levels,
        memo: FxHashMap::default(),
    };
    let (f, sat) = builder.formula(u.initial.0, init_b.0);
    debug_assert!(sat[u.initial.index()] && !sat[init_b.index()]);
    Ok(Some(f))
}

/// A state's branching signature: its `(label, block)` pairs, sorted, and whether it
/// diverges inside its block.
type Signature = (Vec<(u32, u32)>, bool);

/// Whether `s -l-> t` is an inert tau under the partition `block`.
fn inert(g: &Graph, block: &[u32], s: u32, l: u32, t: u32) -> bool {
    g.tau[l as usize] && block[s as usize] == block[t as usize]
}

/// Every state's signature under `block`: the inert taus are contracted to their SCCs,
/// which Tarjan numbers successors first, so one pass in that order unions the
/// successors' signatures into each component's.
fn signatures(g: &Graph, block: &[u32], divergence: bool) -> Vec<Signature> {
    let n = g.n;
    let edges = (0..n as u32).flat_map(|s| {
        g.out[s as usize]
            .iter()
            .filter(move |&&(l, t)| inert(g, block, s, l, t))
            .map(move |&(_, t)| (s, t))
    });
    let (start, succ) = scc::adjacency(n, edges);
    let (comp, k) = scc::tarjan(n, &start, &succ);
    let mut members: Vec<Vec<u32>> = vec![Vec::new(); k as usize];
    for s in 0..n {
        members[comp[s] as usize].push(s as u32);
    }
    let mut sig: Vec<Signature> = vec![(Vec::new(), false); k as usize];
    for c in 0..k as usize {
        let mut pairs = Vec::new();
        let mut div = members[c].len() > 1;
        for &s in &members[c] {
            for &(l, t) in &g.out[s as usize] {
                if !inert(g, block, s, l, t) {
                    pairs.push((l, block[t as usize]));
                } else if t == s {
                    div = true;
                } else if comp[t as usize] as usize != c {
                    let (ps, d) = &sig[comp[t as usize] as usize];
                    pairs.extend_from_slice(ps);
                    div |= d;
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        sig[c] = (pairs, div && divergence);
    }
    (0..n).map(|s| sig[comp[s] as usize].clone()).collect()
}

/// A formula with the states where it holds.
type Built = (Rc<BranchingFormula>, Rc<Vec<bool>>);

struct Builder<'a> {
    g: &'a Graph<'a>,
    levels: &'a [Vec<u32>],
    memo: FxHashMap<(u32, u32), Built>,
}

impl Builder<'_> {
    /// The first round in which `s` and `t` are in different blocks.
    fn split_round(&self, s: u32, t: u32) -> usize {
        (0..self.levels.len())
            .find(|&k| self.levels[k][s as usize] != self.levels[k][t as usize])
            .expect("s and t are separated")
    }

    /// The states `s` reaches by inert taus under `prev`, breadth-first, with the state each
    /// was first reached from (`u32::MAX` for `s`).
    fn inert_closure(&self, s: u32, prev: &[u32]) -> Vec<(u32, u32)> {
        let mut seen = vec![s];
        let mut order = vec![(s, u32::MAX)];
        let mut i = 0;
        while i < order.len() {
            let x = order[i].0;
            i += 1;
            for &(l, y) in &self.g.out[x as usize] {
                if inert(self.g, prev, x, l, y) && !seen.contains(&y) {
                    seen.push(y);
                    order.push((y, x));
                }
            }
        }
        order
    }

    /// A formula true in `s` and false in `t`, which are separated.
    fn formula(&mut self, s: u32, t: u32) -> Built {
        if let Some(b) = self.memo.get(&(s, t)) {
            return b.clone();
        }
        let built = self.build(s, t);
        self.memo.insert((s, t), built.clone());
        built
    }

    fn build(&mut self, s: u32, t: u32) -> Built {
        let g = self.g;
        let prev = &self.levels[self.split_round(s, t) - 1];
        let cs = self.inert_closure(s, prev);
        let ct = self.inert_closure(t, prev);
        let pairs = |c: &[(u32, u32)]| -> Vec<(u32, u32)> {
            let mut v: Vec<(u32, u32)> = c
                .iter()
                .flat_map(|&(x, _)| {
                    g.out[x as usize]
                        .iter()
                        .filter(move |&&(l, y)| !inert(g, prev, x, l, y))
                        .map(|&(l, y)| (l, prev[y as usize]))
                })
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let pt = pairs(&ct);
        // A step of s's closure whose (label, block) t's closure lacks.
        for (i, &(x, _)) in cs.iter().enumerate() {
            for &(l, y) in &self.g.out[x as usize] {
                if !inert(self.g, prev, x, l, y)
                    && pt.binary_search(&(l, prev[y as usize])).is_err()
                {
                    return self.until(&cs, i, l, y, &ct, prev);
                }
            }
        }
        let ps = pairs(&cs);
        if pt.iter().any(|p| ps.binary_search(p).is_err()) {
            return self.negation(t, s);
        }
        // The signatures differ in divergence only.
        if self.diverges(&cs, prev) {
            let path: Vec<u32> = cs.iter().map(|&(x, _)| x).collect();
            let phi = self.guard(&path, &ct, prev);
            let sat = self.g.diverge(&phi.1);
            (Rc::new(BranchingFormula::Diverge(phi.0)), Rc::new(sat))
        } else {
            debug_assert!(self.diverges(&ct, prev));
            self.negation(t, s)
        }
    }

    fn negation(&mut self, s: u32, t: u32) -> Built {
        let (f, sat) = self.formula(s, t);
        let sat = sat.iter().map(|&x| !x).collect();
        (Rc::new(BranchingFormula::Not(f)), Rc::new(sat))
    }

    /// Whether the closure `c` (one block of `prev`) has an inert tau-cycle.
    fn diverges(&self, c: &[(u32, u32)], prev: &[u32]) -> bool {
        let mut index = FxHashMap::default();
        for (i, &(x, _)) in c.iter().enumerate() {
            index.insert(x, i as u32);
        }
        let (g, index) = (self.g, &index);
        let edges = c.iter().flat_map(move |&(x, _)| {
            g.out[x as usize]
                .iter()
                .filter(move |&&(l, y)| inert(g, prev, x, l, y))
                .map(move |&(_, y)| (index[&x], index[&y]))
        });
        let (start, succ) = scc::adjacency(c.len(), edges.clone());
        // Fewer components than states: some component is a cycle.
        let (_, k) = scc::tarjan(c.len(), &start, &succ);
        edges.into_iter().any(|(x, y)| x == y) || (k as usize) < c.len()
    }

    /// The until formula for the step `x -l-> y`, where `x = cs[i]` is reached from `s =
    /// cs[0]` along the recorded inert taus, and no state of `t`'s closure `ct` has an
    /// `l`-step into `y`'s block of `prev`.
    fn until(
        &mut self,
        cs: &[(u32, u32)],
        i: usize,
        l: u32,
        y: u32,
        ct: &[(u32, u32)],
        prev: &[u32],
    ) -> Built {
        let mut path = vec![cs[i].0];
        let mut from = cs[i].1;
        while from != u32::MAX {
            path.push(from);
            from = cs.iter().find(|&&(x, _)| x == from).expect("recorded").1;
        }
        let phi = self.guard(&path, ct, prev);
        // psi: true in y, false in every l-successor of t's closure.
        let mut conj = Vec::new();
        let mut sat = vec![true; self.g.n];
        for &(r, _) in ct {
            for &(m, r2) in &self.g.out[r as usize] {
                if m == l && sat[r2 as usize] {
                    let (f, fs) = self.formula(y, r2);
                    sat.iter_mut().zip(fs.iter()).for_each(|(a, &b)| *a &= b);
                    conj.push(f);
                }
            }
        }
        let psi = junction(conj, BranchingFormula::And);
        let until = self.g.until(&phi.1, Some(l), &sat);
        let label = self.g.lts.label_text(LabelId(l)).to_string();
        (
            Rc::new(BranchingFormula::Until {
                phi: phi.0,
                label,
                psi,
            }),
            Rc::new(until),
        )
    }

    /// A formula true in every state of `path` (all in one block of `prev`) and false in
    /// every state that a tau leads to out of that block from `t`'s closure `ct`.
    fn guard(
        &mut self,
        path: &[u32],
        ct: &[(u32, u32)],
        prev: &[u32],
    ) -> (Rc<BranchingFormula>, Vec<bool>) {
        let mut conj = Vec::new();
        let mut sat = vec![true; self.g.n];
        for &(r, _) in ct {
            for &(m, u) in &self.g.out[r as usize] {
                if !self.g.tau[m as usize] || inert(self.g, prev, r, m, u) || !sat[u as usize] {
                    continue;
                }
                // A disjunction of formulas true in path states and false in u.
                let mut disj = Vec::new();
                let mut covered = vec![false; self.g.n];
                for &p in path {
                    if !covered[p as usize] {
                        let (f, fs) = self.formula(p, u);
                        covered
                            .iter_mut()
                            .zip(fs.iter())
                            .for_each(|(a, &b)| *a |= b);
                        disj.push(f);
                    }
                }
                sat.iter_mut().zip(covered).for_each(|(a, b)| *a &= b);
                conj.push(junction(disj, BranchingFormula::Or));
            }
        }
        (junction(conj, BranchingFormula::And), sat)
    }
}

/// `fs` joined by `make`: `true` when empty, the formula itself when single.
fn junction(
    mut fs: Vec<Rc<BranchingFormula>>,
    make: fn(Vec<Rc<BranchingFormula>>) -> BranchingFormula,
) -> Rc<BranchingFormula> {
    match fs.len() {
        0 => Rc::new(BranchingFormula::True),
        1 => fs.pop().expect("one"),
        _ => Rc::new(make(fs)),
    }
}
