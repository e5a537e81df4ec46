//! The BES under construction, shared by both instantiation engines: flat right-hand sides,
//! auxiliary variables for nested ones, and on-the-fly constant propagation.

use crate::bes::{Bes, BesBuilder, BesVarId, RhsKind};
use crate::pbes::inst::{EdgeSteps, InstError};

/// No evidence step on an operand's edge ([`Op::step`]).
pub(crate) const NO_STEP: u32 = u32::MAX;

/// An operand of a right-hand side: a BES variable, the evidence step its edge stands for,
/// and its value when already decided.
///
/// With counter-example information a transition is recorded on the *edge* to the variable
/// it leads to, not as a variable of its own, so the BES of evidence has the vertices of the
/// verdict's. A decided operand decides a junction as a constant would (a true one a
/// disjunction, a false one a conjunction), so instantiation stops looking at alternatives
/// where the verdict alone stops, but it stays a vertex: the proof goes on through it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Op {
    /// The BES variable.
    pub(crate) var: u32,
    /// The step on the edge ([`NO_STEP`] for none).
    pub(crate) step: u32,
    /// Its value, when decided. A decided operand stays where a constant would vanish
    /// (a true one in a conjunction): a witness shows every branch of a conjunction, and a
    /// true step there may be a diamond's whose transition the proof needs.
    pub(crate) value: Option<bool>,
}

impl Op {
    /// A plain operand (no step).
    pub(crate) fn var(var: u32, value: Option<bool>) -> B {
        B::V(Op {
            var,
            step: NO_STEP,
            value,
        })
    }
}

/// A right-hand side after instantiation: a positive Boolean combination of BES variables.
#[derive(Clone, Debug)]
pub(crate) enum B {
    T,
    F,
    V(Op),
    And(Vec<B>),
    Or(Vec<B>),
}

/// Whether `x` decides a conjunction (`conj`, when false) or a disjunction (when true) on
/// its own: a constant, or a decided operand.
pub(crate) fn decides(x: &B, conj: bool) -> bool {
    match x {
        B::T => !conj,
        B::F => conj,
        B::V(o) => o.value == Some(!conj),
        _ => false,
    }
}

/// `a && b` with constants folded and conjunctions flattened; a decided false operand
/// decides it (the plain constant preferred: it needs no proof).
pub(crate) fn b_and(a: B, b: B) -> B {
    junction(true, a, b)
}

/// `a || b` with constants folded and disjunctions flattened (dual of [`b_and`]).
pub(crate) fn b_or(a: B, b: B) -> B {
    junction(false, a, b)
}

fn junction(conj: bool, a: B, b: B) -> B {
    // The plain constant first: it decides without a proof.
    if matches!((&a, conj), (B::F, true) | (B::T, false)) {
        return a;
    }
    if matches!((&b, conj), (B::F, true) | (B::T, false)) {
        return b;
    }
    if decides(&a, conj) {
        return a;
    }
    if decides(&b, conj) {
        return b;
    }
    match (conj, a, b) {
        (_, B::T | B::F, x) | (_, x, B::T | B::F) => x,
        (true, B::And(mut x), B::And(y)) | (false, B::Or(mut x), B::Or(y)) => {
            x.extend(y);
            if conj {
                B::And(x)
            } else {
                B::Or(x)
            }
        }
        (true, B::And(mut x), y) | (true, y, B::And(mut x)) => {
            x.push(y);
            B::And(x)
        }
        (false, B::Or(mut x), y) | (false, y, B::Or(mut x)) => {
            x.push(y);
            B::Or(x)
        }
        (true, x, y) => B::And(vec![x, y]),
        (false, x, y) => B::Or(vec![x, y]),
    }
}

/// No right-hand side yet (in [`Graph::kind`]), or the end of a predecessor list.
const NONE: u32 = u32::MAX;

/// The BES being built. Flat vectors, no allocation per variable: right-hand sides are
/// ranges of one operand arena, and the reverse edges of undecided variables are linked
/// lists in one arena (millions of variables). With `steps`, each operand also records the
/// evidence step on its edge.
#[derive(Default)]
pub(crate) struct Graph {
    pub(crate) var_rank: Vec<u32>,
    /// Per variable: its right-hand side's kind (`None` while undefined) and the start of
    /// its operands in `ops` (they end where the next defined variable's start).
    kind: Vec<Option<RhsKind>>,
    ops_start: Vec<u64>,
    ops_len: Vec<u32>,
    ops: Vec<u32>,
    /// Per operand in `ops`: the evidence step on its edge, kept only with `steps`.
    op_step: Vec<u32>,
    /// Whether edges record evidence steps.
    steps: bool,
    pub(crate) value: Vec<Option<bool>>,
    /// Per variable: when it was decided (a sequence number; `u32::MAX` while undecided).
    order: Vec<u32>,
    /// Reverse edges (per operand occurrence) of undecided variables: per variable the
    /// head of its list in `pred_links` (`NONE` for none), each link (predecessor, next).
    pred_head: Vec<u32>,
    pred_links: Vec<(u32, u32)>,
    /// Per variable: its operands not decided yet.
    open_ops: Vec<u32>,
    pub(crate) decided_count: usize,
    pub(crate) aux_count: usize,
    pub(crate) max_vars: usize,
}

impl Graph {
    /// An empty BES of at most `max_vars` variables; `steps`: record evidence steps on
    /// the edges.
    pub(crate) fn new(max_vars: usize, steps: bool) -> Graph {
        Graph {
            max_vars,
            steps,
            ..Graph::default()
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.var_rank.len()
    }

    pub(crate) fn new_var(&mut self, rank: u32) -> Result<u32, InstError> {
        let id = self.var_rank.len();
        if id >= self.max_vars {
            return Err(InstError::TooManyVariables(id));
        }
        self.var_rank.push(rank);
        self.kind.push(None);
        self.ops_start.push(0);
        self.ops_len.push(0);
        self.value.push(None);
        self.order.push(u32::MAX);
        self.pred_head.push(NONE);
        self.open_ops.push(0);
        Ok(id as u32)
    }

    pub(crate) fn is_complete(&self) -> bool {
        self.kind.iter().all(|d| d.is_some())
    }

    /// The operands of `x` (none while undefined).
    fn operands(&self, x: usize) -> &[u32] {
        let s = self.ops_start[x] as usize;
        &self.ops[s..s + self.ops_len[x] as usize]
    }

    /// Gives `x` the right-hand side `b`, flattening nested parts into auxiliary variables
    /// (`on_aux` is told about each), and propagates constants.
    pub(crate) fn define(
        &mut self,
        x: u32,
        b: B,
        on_aux: &mut dyn FnMut(u32),
    ) -> Result<(), InstError> {
        let rank = self.var_rank[x as usize];
        let (kind, parts) = match b {
            B::T => (RhsKind::True, vec![]),
            B::F => (RhsKind::False, vec![]),
            B::V(y) => (RhsKind::Or, vec![B::V(y)]),
            B::And(v) => (RhsKind::And, v),
            B::Or(v) => (RhsKind::Or, v),
        };
        let mut ops = Vec::with_capacity(parts.len());
        let mut steps = Vec::new();
        for p in parts {
            match p {
                B::V(y) => {
                    ops.push(y.var);
                    if self.steps {
                        steps.push(y.step);
                    }
                }
                B::T | B::F => {}
                nested => {
                    let aux = self.new_var(rank)?;
                    self.aux_count += 1;
                    on_aux(aux);
                    self.define(aux, nested, on_aux)?;
                    ops.push(aux);
                    if self.steps {
                        steps.push(NO_STEP);
                    }
                }
            }
        }
        let mut open = 0;
        let mut decided = None;
        for &y in &ops {
            match self.value[y as usize] {
                Some(true) if kind == RhsKind::Or => decided = Some(true),
                Some(false) if kind == RhsKind::And => decided = Some(false),
                Some(_) => {}
                None => open += 1,
            }
        }
        if decided.is_none() {
            decided = match kind {
                RhsKind::True => Some(true),
                RhsKind::False => Some(false),
                RhsKind::And if open == 0 => Some(true),
                RhsKind::Or if open == 0 => Some(false),
                _ => None,
            };
        }
        if decided.is_none() {
            for &y in &ops {
                if self.value[y as usize].is_none() {
                    let link = self.pred_links.len() as u32;
                    self.pred_links.push((x, self.pred_head[y as usize]));
                    self.pred_head[y as usize] = link;
                }
            }
        }
        self.open_ops[x as usize] = open;
        self.kind[x as usize] = Some(kind);
        self.ops_start[x as usize] = self.ops.len() as u64;
        self.ops_len[x as usize] = ops.len() as u32;
        self.ops.extend_from_slice(&ops);
        if self.steps {
            self.op_step.extend_from_slice(&steps);
        }
        if let Some(v) = decided {
            self.decide(x, v);
        }
        Ok(())
    }

    fn decide(&mut self, x: u32, v: bool) {
        let mut stack = vec![(x, v)];
        while let Some((x, v)) = stack.pop() {
            if self.value[x as usize].is_some() {
                continue;
            }
            self.value[x as usize] = Some(v);
            self.order[x as usize] = self.decided_count as u32;
            self.decided_count += 1;
            // The list is dropped from `x` (its links stay in the arena, unused).
            let mut link = std::mem::replace(&mut self.pred_head[x as usize], NONE);
            while link != NONE {
                let (p, next) = self.pred_links[link as usize];
                link = next;
                if self.value[p as usize].is_some() {
                    continue;
                }
                let Some(kind) = self.kind[p as usize] else {
                    continue;
                };
                match (kind, v) {
                    (RhsKind::Or, true) => stack.push((p, true)),
                    (RhsKind::And, false) => stack.push((p, false)),
                    (RhsKind::Or, false) | (RhsKind::And, true) => {
                        self.open_ops[p as usize] -= 1;
                        if self.open_ops[p as usize] == 0 {
                            stack.push((p, kind == RhsKind::And));
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// Why each decided variable got its value (see [`crate::pbes::inst::Justification`]):
    /// per variable whether one operand suffices (a conjunction decided false, a disjunction
    /// decided true), the operands it may follow from (every decided one with its value
    /// where one suffices, all where all are needed, none for a constant) as one flat list
    /// with per-variable starts (a justification of evidence has millions of variables),
    /// and the decision order. The reverse edges are freed first: only
    /// propagation needed them, and this runs at instantiation's memory peak.
    pub(crate) fn justification(&mut self) -> (Vec<bool>, Vec<u64>, Vec<u32>, Vec<u32>) {
        self.pred_head = Vec::new();
        self.pred_links = Vec::new();
        self.open_ops = Vec::new();
        let mut decisive = vec![false; self.len()];
        let mut start = Vec::with_capacity(self.len() + 1);
        let mut succ = Vec::new();
        start.push(0u64);
        for (x, decisive) in decisive.iter_mut().enumerate() {
            if let (Some(v), Some(kind)) = (self.value[x], self.kind[x]) {
                if matches!((kind, v), (RhsKind::And, false) | (RhsKind::Or, true)) {
                    *decisive = true;
                    let value = &self.value;
                    succ.extend(
                        self.operands(x)
                            .iter()
                            .copied()
                            .filter(|&y| value[y as usize] == Some(v)),
                    );
                } else {
                    succ.extend_from_slice(self.operands(x));
                }
            }
            start.push(succ.len() as u64);
        }
        succ.shrink_to_fit();
        (decisive, start, succ, std::mem::take(&mut self.order))
    }

    /// The edges that record evidence steps ([`EdgeSteps`]); empty without `steps`.
    pub(crate) fn edge_steps(&self) -> EdgeSteps {
        let mut e = EdgeSteps::default();
        if !self.steps {
            return e;
        }
        e.start.reserve(self.len() + 1);
        e.start.push(0);
        for x in 0..self.len() {
            let s = self.ops_start[x] as usize;
            let at = e.edges.len();
            for k in s..s + self.ops_len[x] as usize {
                if self.op_step[k] != NO_STEP {
                    e.edges.push((self.ops[k], self.op_step[k]));
                }
            }
            e.edges[at..].sort_unstable();
            e.start.push(e.edges.len() as u64);
        }
        e.edges.shrink_to_fit();
        e
    }

    /// The BES (every variable must be defined), with names from `name` (none without).
    pub(crate) fn build(
        &self,
        init: u32,
        name: Option<&dyn Fn(usize) -> String>,
    ) -> Result<Bes, InstError> {
        let mut b = match name {
            Some(_) => BesBuilder::new(),
            None => BesBuilder::unnamed(),
        };
        for i in 0..self.len() {
            b.add_variable(&name.map(|f| f(i)).unwrap_or_default());
        }
        for (i, d) in self.kind.iter().enumerate() {
            let d = d.ok_or_else(|| InstError::Bes(format!("variable {i} undefined")))?;
            let ops: Vec<BesVarId> = self.operands(i).iter().map(|&o| BesVarId(o)).collect();
            let kind = match (d, ops.is_empty()) {
                (RhsKind::And, true) => RhsKind::True,
                (RhsKind::Or, true) => RhsKind::False,
                (k, _) => k,
            };
            b.define(BesVarId(i as u32), self.var_rank[i], kind, &ops)
                .map_err(|e| InstError::Bes(e.to_string()))?;
        }
        b.set_init(BesVarId(init));
        b.freeze().map_err(|e| InstError::Bes(e.to_string()))
    }
}
