//! Reading evidence off a solved game: one walk over the part of the game the winner's
//! strategy keeps, then the shortest trace and the evidence LTS from it. The walk is the
//! same for both routes; what a step on an edge stands for is the route's [`StepSource`]: a
//! summand instance of the LPS here, a transition of the LTS in [`super::lts`].

use std::collections::VecDeque;

use rustc_hash::FxHashMap as HashMap;

use super::check::{action_text, check_trace, Replayer};
use super::{Evidence, EvidenceError, Step, Trace};
use crate::bes::distance::{forced_distances, ForcedGraph, UNREACHED};
use crate::bes::{Game, Player, Solution, VertexId};
use crate::data::ir::{DataExpr, Var};
use crate::data::TermId;
use crate::lps::{Lps, SummandAction};
use crate::lts::tree::TreeTable;
use crate::lts::{Label, LabelId, Lts, StateId, Transition};
use crate::pbes::inst::{EdgeSteps, Instantiation};
use crate::pbes::ir::Pbes;
use crate::pbes::lps2pbes::step_summand;
use crate::process::ir::Action;

/// The model's step (summand or transition index) that recorded step `s` stands for, from
/// its step equation: `step_of` maps equations to steps.
pub(super) fn step_index(inst: &Instantiation, step_of: &[Option<usize>], s: u32) -> Option<usize> {
    let e = inst.origin.step_equation(s)?;
    step_of.get(e as usize).copied().flatten()
}

/// Per equation of `pbes`: the step (summand or transition index below `count`) its name
/// stands for by `step_of_name`. A PBES without any step equation cannot give evidence
/// unless the caller knows it was made with `-c`.
pub(super) fn step_table(
    pbes: &Pbes,
    step_of_name: fn(&str) -> Option<usize>,
    count: usize,
    known_counter_example: bool,
) -> Result<Vec<Option<usize>>, EvidenceError> {
    let step_of: Vec<Option<usize>> = pbes
        .equations
        .iter()
        .map(|e| step_of_name(&e.var.name).filter(|&i| i < count))
        .collect();
    if !known_counter_example && step_of.iter().all(Option::is_none) {
        return Err(EvidenceError::NoSteps);
    }
    Ok(step_of)
}

/// A step of the proof in its route's own numbering of states and labels (see
/// [`StepSource`]): compact, so that a proof of millions of steps is kept as ids and the
/// values of a state are never cloned or compared as expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct StepRef {
    /// The source's number of the state the step leaves from.
    pub from: u32,
    /// The source's number of the step's label.
    pub label: u32,
    /// The source's number of the state the step reaches.
    pub to: u32,
}

/// What the walk over a proof needs to know of the model: the (checked) step each step
/// recorded on an edge of the BES ([`crate::pbes::inst::EdgeSteps`]) stands for.
pub(super) trait StepSource {
    /// The step recorded step `s` stands for (checked), if its equation is a step equation;
    /// `target` is the vertex its edge leads to.
    fn step_at(&mut self, s: u32, target: VertexId) -> Result<Option<StepRef>, EvidenceError>;
    /// Recorded step `s` in full, for the trace.
    fn full_step(&mut self, s: u32) -> Result<Step, EvidenceError>;
    /// The source's number of the initial state.
    fn initial_state(&mut self) -> Result<u32, EvidenceError>;
    /// The text of label `l` (a number [`StepSource::step_at`] gave) and its typed
    /// multi-action (empty when unknown).
    fn label(&self, l: u32) -> (&str, &[Action]);
    /// Whether the source's state numbers are the model's own (an LTS's states), which the
    /// evidence then keeps ([`Evidence::model_states`]).
    fn model_numbers(&self) -> bool {
        false
    }
}

/// Interns rows of term ids (sum values and action arguments) densely, in order of first
/// sight.
#[derive(Default)]
struct StateTable {
    ids: HashMap<Box<[u32]>, u32>,
}

impl StateTable {
    fn intern(&mut self, row: &[u32]) -> u32 {
        if let Some(&i) = self.ids.get(row) {
            return i;
        }
        let i = self.ids.len() as u32;
        self.ids.insert(row.into(), i);
        i
    }
}

/// Interns the states of the LPS route (rows of one term id per parameter) densely, in
/// order of first sight, tree-compressed as exploration stores them ([`TreeTable`]): the
/// evidence of a true safety formula is the whole reachable state space (B.1: 1.9 million
/// states of 59 parameters), and a boxed row per state cost 530 MB where the tree costs
/// tens. A step's target is looked up through its source's tree, so only the nodes above
/// the parameters it changes are hashed again.
struct States {
    table: TreeTable,
    /// The tree array of the source state last interned and its number, and the tree
    /// array of the last target.
    from: Vec<u32>,
    from_id: u32,
    /// The tree array of the source before the last one.
    prev: Vec<u32>,
    to: Vec<u32>,
}

impl States {
    fn new(width: usize) -> States {
        States {
            table: TreeTable::new(width),
            from: Vec::new(),
            from_id: 0,
            prev: Vec::new(),
            to: Vec::new(),
        }
    }

    fn full() -> EvidenceError {
        EvidenceError::Data("the evidence has more states than the state table holds".into())
    }

    /// The number of the source state `row` (it becomes the base of [`States::target`]).
    fn source(&mut self, row: &[u32]) -> Result<u32, EvidenceError> {
        // The steps of one state are usually read one after the other.
        let t = &self.table;
        if self.from.len() == t.tree_len() && t.row_of(&self.from) == row {
            return Ok(self.from_id);
        }
        // Looked up through the previous source's tree: the proof is walked breadth-first,
        // so consecutive sources are near in the state space and share most nodes (hashing
        // all 58 nodes of a B.1 state for every source was a sixth of the run).
        std::mem::swap(&mut self.from, &mut self.prev);
        self.from_id = match self.table.lookup(&self.prev, row, &mut self.from) {
            Some(id) => id.0,
            None => {
                let id = self.table.insert_tree(&mut self.from);
                id.ok_or_else(Self::full)?.0 .0
            }
        };
        Ok(self.from_id)
    }

    /// The number of the target state `row` of a step from the last [`States::source`].
    fn target(&mut self, row: &[u32]) -> Result<u32, EvidenceError> {
        if let Some(id) = self.table.lookup(&self.from, row, &mut self.to) {
            return Ok(id.0);
        }
        let id = self
            .table
            .insert_tree(&mut self.to)
            .ok_or_else(Self::full)?;
        Ok(id.0 .0)
    }
}

/// A replayed step's key: summand, source state, sum values (numbers of rows of term ids,
/// so that looking a step up allocates nothing).
type ReplayKey = (u32, u32, u32);

/// Bound on [`Reader`]'s memo of replayed steps (about 40 MiB).
const REPLAYED_BOUND: usize = 1 << 20;

/// Where a step's values are: its summand, where its sum values start in the
/// instance read into [`Reader::key`] (the state follows them), and how many there are.
type StepKey = (usize, usize, usize);

/// Reads the steps of a solved PBES of `lps2pbes -c` over `lps`. Values stay the term ids
/// instantiation recorded (the replayer shares its store), and a step's replay is memoised
/// by summand, source state and sum values (several modalities may take the same one).
struct Reader<'a> {
    lps: &'a Lps,
    pbes: &'a Pbes,
    inst: &'a Instantiation,
    rp: Replayer<'a>,
    /// Per equation: the summand of a step equation.
    step_of: Vec<Option<usize>>,
    states: States,
    /// The rows of sum values and of action arguments seen, numbered.
    rows: StateTable,
    /// Per label number: its text and multi-action.
    labels: Vec<(String, Vec<Action>)>,
    label_ids: HashMap<String, u32>,
    /// The label number of a summand's action arguments (their row in `rows`).
    label_of: HashMap<(u32, u32), u32>,
    /// Replayed steps: (summand, source state, sum values) to (label, target state);
    /// cleared at [`REPLAYED_BOUND`] entries (a proof of a safety formula takes each of
    /// millions of transitions about once, and the replayer memoises the rewriting).
    replayed: HashMap<ReplayKey, (u32, u32)>,
    /// Scratch rows.
    terms: Vec<TermId>,
    sums: Vec<TermId>,
    to: Vec<TermId>,
    row: Vec<u32>,
    /// The instance of the step last read ([`Reader::step_key`]).
    key: Vec<u32>,
    /// Per BES vertex: the number of its state (the last values of its instance), once a
    /// step into it was read, else `u32::MAX`; so the state table is searched once per
    /// vertex a step leads to, not once per step (B.1: 1.9 million, not 8.6 million).
    vertex_state: Vec<u32>,
    /// Scratch for a vertex's instance.
    vkey: Vec<u32>,
}

impl<'a> Reader<'a> {
    fn new(
        lps: &'a Lps,
        pbes: &'a Pbes,
        inst: &'a Instantiation,
        store: &'a crate::data::TermStore,
        known_counter_example: bool,
    ) -> Result<Self, EvidenceError> {
        let step_of = step_table(
            pbes,
            step_summand,
            lps.summands.len(),
            known_counter_example,
        )?;
        // Instantiation's store when it kept origins, so that the values it recorded are
        // the replayer's terms as they are ([`Replayer::replay_terms`]).
        let rp = match inst.origin.store() {
            Some(s) => Replayer::new(lps, s)?,
            None => Replayer::new(lps, store)?,
        };
        Ok(Reader {
            lps,
            pbes,
            inst,
            rp,
            step_of,
            states: States::new(lps.params.len()),
            rows: StateTable::default(),
            labels: Vec::new(),
            label_ids: HashMap::default(),
            label_of: HashMap::default(),
            replayed: HashMap::default(),
            terms: Vec::new(),
            sums: Vec::new(),
            to: Vec::new(),
            row: Vec::new(),
            key: Vec::new(),
            vertex_state: Vec::new(),
            vkey: Vec::new(),
        })
    }

    fn initial(&mut self) -> Result<Vec<DataExpr>, EvidenceError> {
        let init = self.lps.init.clone();
        init.iter().map(|e| self.rp.normal_form(e)).collect()
    }

    /// The number of the state in `self.row`, reached by a step from the last source into
    /// vertex `w`: through [`Reader::vertex_state`] when `w` is an instance of that state
    /// (its last values are the row), else from the state table.
    fn target_state(&mut self, w: VertexId) -> Result<u32, EvidenceError> {
        let (k, wi) = (self.row.len(), w.index());
        let of_w = self.inst.origin.instance(wi, &mut self.vkey).is_some()
            && self.vkey.len() >= k
            && self.vkey[self.vkey.len() - k..] == self.row[..];
        if !of_w {
            return self.states.target(&self.row);
        }
        if let Some(&id) = self.vertex_state.get(wi).filter(|&&id| id != u32::MAX) {
            return Ok(id);
        }
        let id = self.states.target(&self.row)?;
        if wi >= self.vertex_state.len() {
            self.vertex_state.resize(wi + 1, u32::MAX);
        }
        self.vertex_state[wi] = id;
        Ok(id)
    }

    /// The summand of recorded step `s`, its instance read into `self.key`, and the
    /// positions of the sum values and the state in it, checked.
    fn step_key(&mut self, s: u32) -> Result<Option<StepKey>, EvidenceError> {
        let Some(i) = step_index(self.inst, &self.step_of, s) else {
            return Ok(None);
        };
        let eq = self
            .inst
            .origin
            .step_instance(s, &mut self.key)
            .ok_or_else(|| EvidenceError::Unchecked(format!("step {s} has no instance")))?;
        let s = &self.lps.summands[i];
        let (k, m, n) = (self.lps.params.len(), s.sum_vars.len(), self.key.len());
        let decl = &self.pbes.equations[eq as usize].var;
        if n < k + m || decl.params.len() != n {
            return Err(EvidenceError::Unchecked(format!(
                "step equation {} has {n} arguments, fewer than the summand's {m} sum variables and {k} parameters",
                decl.name
            )));
        }
        if matches!(s.action, SummandAction::Delta) {
            return Err(EvidenceError::Unchecked(format!(
                "step equation {} stands for the delta summand {i}",
                decl.name
            )));
        }
        // The values of the sum variables, then of the parameters, end the instance.
        Ok(Some((i, n - k - m, m)))
    }
}

impl StepSource for Reader<'_> {
    fn step_at(&mut self, s: u32, target: VertexId) -> Result<Option<StepRef>, EvidenceError> {
        let Some((i, at, m)) = self.step_key(s)? else {
            return Ok(None);
        };
        let (sums, from) = self.key[at..].split_at(m);
        let from_id = self.states.source(from)?;
        let memo = (i as u32, from_id, self.rows.intern(sums));
        if let Some(&(label, to)) = self.replayed.get(&memo) {
            return Ok(Some(StepRef {
                from: from_id,
                label,
                to,
            }));
        }
        // Computing the step is its independent check: the summand's condition must rewrite
        // to true for the recorded state and sum values (the data engine, not the PBES).
        self.terms.clear();
        self.terms.extend(from.iter().map(|&t| TermId(t)));
        self.sums.clear();
        self.sums.extend(sums.iter().map(|&t| TermId(t)));
        let args = self
            .rp
            .replay_terms(i, &self.terms, &self.sums, &mut self.to)?;
        self.row.clear();
        self.row.extend(self.to.iter().map(|t| t.0));
        let to = self.target_state(target)?;
        self.row.clear();
        self.row.extend(args.iter().map(|t| t.0));
        let arg_key = (i as u32, self.rows.intern(&self.row));
        let label = match self.label_of.get(&arg_key) {
            Some(&l) => l,
            None => {
                let actions = self.rp.actions(i, &args);
                let text = action_text(&actions);
                let l = match self.label_ids.get(&text) {
                    Some(&l) => l,
                    None => {
                        let l = self.labels.len() as u32;
                        self.label_ids.insert(text.clone(), l);
                        self.labels.push((text, actions));
                        l
                    }
                };
                self.label_of.insert(arg_key, l);
                l
            }
        };
        if self.replayed.len() >= REPLAYED_BOUND {
            self.replayed.clear();
        }
        self.replayed.insert(memo, (label, to));
        Ok(Some(StepRef {
            from: from_id,
            label,
            to,
        }))
    }

    fn full_step(&mut self, s: u32) -> Result<Step, EvidenceError> {
        let Some((i, at, m)) = self.step_key(s)? else {
            return Err(EvidenceError::Unchecked(format!("step {s} is no step")));
        };
        let (sums, from) = self.key[at..].split_at(m);
        let from: Vec<DataExpr> = from.iter().map(|&t| self.rp.expr(TermId(t))).collect();
        let sum_values: Vec<(Var, DataExpr)> = self.lps.summands[i]
            .sum_vars
            .iter()
            .zip(sums)
            .map(|(x, &t)| (x.clone(), self.rp.expr(TermId(t))))
            .collect();
        let (actions, to) = self.rp.replay(i, &from, &sum_values)?;
        Ok(Step {
            summand: i,
            action: action_text(&actions),
            actions,
            from,
            sum_values,
            to,
        })
    }

    fn initial_state(&mut self) -> Result<u32, EvidenceError> {
        let init = self.rp.initial_terms()?;
        self.row.clear();
        self.row.extend(init.iter().map(|t| t.0));
        let row = std::mem::take(&mut self.row);
        let id = self.states.source(&row)?;
        self.row = row;
        Ok(id)
    }

    fn label(&self, l: u32) -> (&str, &[Action]) {
        let (text, actions) = &self.labels[l as usize];
        (text, actions)
    }
}

/// The successors of `v` that the proof keeps, appended to `out`: the chosen one at the
/// winner's vertices, all at the opponent's; whether `v` is the winner's (picks one).
fn kept(
    game: &Game,
    choice: &[Option<VertexId>],
    winner: Player,
    v: VertexId,
    out: &mut Vec<u32>,
) -> bool {
    if game.owner(v) == winner {
        out.extend(choice[v.index()].map(|w| w.0));
        true
    } else {
        out.extend(game.successors(v).iter().map(|w| w.0));
        false
    }
}

/// The winner's choices of a proof whose paths reach a constant in the fewest steps.
///
/// Where the winner can force the play to a constant of its own (a vertex whose only
/// successor is itself), it moves to the successor with the fewest steps to one in the
/// worst case ([`forced_distances`] over its winning region); each such move goes to a
/// vertex settled earlier, so these plays end. Elsewhere it keeps the solver's strategy,
/// which stays in its winning region, so the combined strategy still wins every play and
/// the proof stays a proof.
fn shortest_choices(
    game: &Game,
    sol: &Solution,
    winner: Player,
    cost: &dyn Fn(u32, u32) -> u32,
) -> Vec<Option<VertexId>> {
    let n = game.num_vertices() as u32;
    let wins = |v: u32| sol.winner(VertexId(v)) == winner;
    let chooses = (0..n).map(|v| game.owner(VertexId(v)) == winner).collect();
    let g = ForcedGraph::new(chooses, &mut |v, out| {
        if wins(v) {
            out.extend(
                game.successors(VertexId(v))
                    .iter()
                    .map(|w| w.0)
                    .filter(|&w| wins(w))
                    .map(|w| (w, cost(v, w))),
            );
        }
    });
    let ends: Vec<u32> = (0..n)
        .filter(|&v| wins(v) && game.successors(VertexId(v)).iter().all(|w| w.0 == v))
        .collect();
    let (_, choice) = forced_distances(&g, &ends);
    (0..n)
        .map(|v| match choice[v as usize] {
            UNREACHED => sol.strategy(VertexId(v)),
            w => Some(VertexId(w)),
        })
        .collect()
}

/// The part of the game the proof keeps, reachable from the initial vertex, with a node
/// per BES vertex and one per step recorded on a kept edge (between the edge's two vertex
/// nodes); flat, since a proof may have millions of nodes.
struct Proof {
    /// Per node: its BES vertex (for a step node, the vertex its step leads to).
    vertex: Vec<VertexId>,
    /// Per node: for a step node, its step as an index into `steps`.
    step: Vec<Option<u32>>,
    /// Per node `n`: its kept successors are `succ[start[n]..start[n + 1]]`.
    start: Vec<u32>,
    succ: Vec<u32>,
    steps: Vec<StepRef>,
    /// Per entry of `steps`: the recorded step it is.
    step_ids: Vec<u32>,
}

impl Proof {
    fn walk(
        r: &mut dyn StepSource,
        edges: &EdgeSteps,
        kept: &dyn Fn(VertexId, &mut Vec<u32>) -> bool,
        root: VertexId,
    ) -> Result<Proof, EvidenceError> {
        // Per BES vertex and per recorded step: its node, or `u32::MAX` (flat: a proof may
        // have millions of nodes).
        let mut index: Vec<u32> = Vec::new();
        let mut step_index: Vec<u32> = Vec::new();
        let node = |i: usize, index: &mut Vec<u32>, nodes: &mut Vec<(VertexId, u32)>, item| {
            if i >= index.len() {
                index.resize(i + 1, u32::MAX);
            }
            if index[i] == u32::MAX {
                index[i] = nodes.len() as u32;
                nodes.push(item);
            }
            index[i]
        };
        // The nodes in order of discovery: (vertex, recorded step or `u32::MAX`).
        let mut nodes: Vec<(VertexId, u32)> = Vec::new();
        node(root.index(), &mut index, &mut nodes, (root, u32::MAX));
        let mut p = Proof {
            vertex: Vec::new(),
            step: Vec::new(),
            start: vec![0],
            succ: Vec::new(),
            steps: Vec::new(),
            step_ids: Vec::new(),
        };
        let mut out = Vec::new();
        let mut i = 0;
        while i < nodes.len() {
            let (v, s) = nodes[i];
            p.vertex.push(v);
            if s != u32::MAX {
                // A step node: the step, then the vertex it leads to.
                let step = r.step_at(s, v)?.map(|st| {
                    p.steps.push(st);
                    p.step_ids.push(s);
                    p.steps.len() as u32 - 1
                });
                p.step.push(step);
                let n = node(v.index(), &mut index, &mut nodes, (v, u32::MAX));
                p.succ.push(n);
            } else {
                p.step.push(None);
                out.clear();
                // A vertex that picks one successor takes one step to it; one that answers
                // for all takes every step to each (several transitions may lead to one
                // vertex: every step whose right-hand side is `false` leads to the one
                // constant vertex `false`).
                let picks = kept(v, &mut out);
                out.sort_unstable();
                out.dedup();
                for &w in &out {
                    let mut any = false;
                    for s in edges.steps(v.0, w) {
                        any = true;
                        let n = node(s as usize, &mut step_index, &mut nodes, (VertexId(w), s));
                        p.succ.push(n);
                        if picks {
                            break;
                        }
                    }
                    if !any {
                        let n = node(w as usize, &mut index, &mut nodes, (VertexId(w), u32::MAX));
                        p.succ.push(n);
                    }
                }
            }
            p.start.push(p.succ.len() as u32);
            i += 1;
        }
        Ok(p)
    }

    /// The kept successors of node `n`.
    fn succ(&self, n: u32) -> &[u32] {
        &self.succ[self.start[n as usize] as usize..self.start[n as usize + 1] as usize]
    }

    /// A node the proof ends in: a constant (its only successor is itself) or a dead end.
    fn is_end(&self, n: u32) -> bool {
        self.succ(n).iter().all(|&m| m == n)
    }

    /// Distance in steps from node 0 (0-1 breadth-first: entering a step node costs 1), and
    /// the predecessor on a shortest path.
    fn distances(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.vertex.len();
        let mut dist = vec![u32::MAX; n];
        let mut pred = vec![u32::MAX; n];
        let mut queue = VecDeque::from([0u32]);
        dist[0] = 0;
        while let Some(u) = queue.pop_front() {
            for &w in self.succ(u) {
                let cost = u32::from(self.step[w as usize].is_some());
                let d = dist[u as usize] + cost;
                if d < dist[w as usize] {
                    dist[w as usize] = d;
                    pred[w as usize] = u;
                    if cost == 0 {
                        queue.push_front(w);
                    } else {
                        queue.push_back(w);
                    }
                }
            }
        }
        (dist, pred)
    }

    /// The shortest path to an end, or a short lasso when no end is reachable: then each
    /// move goes to the successor nearest the start, which closes a cycle soon.
    fn trace_nodes(&self) -> (Vec<u32>, Option<usize>) {
        let (dist, pred) = self.distances();
        let end = (0..self.vertex.len() as u32)
            .filter(|&n| dist[n as usize] != u32::MAX && self.is_end(n))
            .min_by_key(|&n| dist[n as usize]);
        if let Some(mut n) = end {
            let mut path = vec![n];
            while n != 0 {
                n = pred[n as usize];
                path.push(n);
            }
            path.reverse();
            return (path, None);
        }
        let mut at: HashMap<u32, usize> = HashMap::default();
        let mut path = Vec::new();
        let mut n = 0u32;
        loop {
            if let Some(&i) = at.get(&n) {
                return (path, Some(i));
            }
            at.insert(n, path.len());
            path.push(n);
            n = *self
                .succ(n)
                .iter()
                .min_by_key(|&&m| dist[m as usize])
                .expect("a node that is no end has a successor");
        }
    }
}

/// Reads the evidence of `value` (the verdict) of a PBES made by `lps2pbes -c` over `lps`,
/// checking every step and the trace (see the module docs): from the finite proof of an
/// early stop ([`Instantiation::justification`]) when there is one, else from the solved
/// `game`.
/// `known_counter_example` says the caller made the PBES with `-c` itself; otherwise a PBES
/// without step equations is taken to lack the information ([`EvidenceError::NoSteps`]),
/// though `-c` gives none either when the formula's modalities match no summand.
pub fn read(
    lps: &Lps,
    pbes: &Pbes,
    inst: &Instantiation,
    game: Option<(&Game, &Solution)>,
    value: bool,
    known_counter_example: bool,
) -> Result<Evidence, EvidenceError> {
    let store = crate::data::TermStore::new();
    let mut r = Reader::new(lps, pbes, inst, &store, known_counter_example)?;
    let initial = r.initial()?;
    let ev = assemble(&mut r, inst, game, value, initial)?;
    check_trace(&mut r.rp, &ev.trace)?;
    Ok(ev)
}

/// The evidence of `value` read by walking the proof with `src` (see [`read`]), from the
/// model's `initial` state; its trace is not checked here (the route's checker does that).
pub(super) fn assemble(
    src: &mut dyn StepSource,
    inst: &Instantiation,
    game: Option<(&Game, &Solution)>,
    value: bool,
    initial: Vec<DataExpr>,
) -> Result<Evidence, EvidenceError> {
    let edges = &inst.steps;
    let proof = if let Some(j) = &inst.justification {
        // Decided by constant propagation: the finite proof of that, no game needed; its
        // choices are made for the fewest steps.
        let choice = j.shortest(&|v, w| u32::from(edges.first(v, w).is_some()));
        let kept = |v: VertexId, out: &mut Vec<u32>| {
            if (v.0 as usize) < j.len() {
                j.kept(&choice, v.0, out);
                return j.decisive[v.index()];
            }
            false
        };
        Proof::walk(src, edges, &kept, VertexId(j.init))?
    } else {
        let bes = inst.bes.as_ref().ok_or(EvidenceError::NoGame)?;
        let (game, sol) = game.ok_or(EvidenceError::NoGame)?;
        let winner = if value { Player::Even } else { Player::Odd };
        let choice = shortest_choices(game, sol, winner, &|v, w| {
            u32::from(edges.first(v, w).is_some())
        });
        let kept = |v: VertexId, out: &mut Vec<u32>| kept(game, &choice, winner, v, out);
        Proof::walk(src, edges, &kept, bes.init().vertex())?
    };

    // The evidence LTS: the source's states and labels renumbered in order of first use,
    // the initial state first.
    let mut state_ids: Vec<u32> = Vec::new();
    let mut num_states = 0u32;
    let mut id = |s: u32| {
        let s = s as usize;
        if s >= state_ids.len() {
            state_ids.resize(s + 1, u32::MAX);
        }
        if state_ids[s] == u32::MAX {
            state_ids[s] = num_states;
            num_states += 1;
        }
        StateId(state_ids[s])
    };
    let init = src.initial_state()?;
    id(init);
    let mut label_ids: Vec<u32> = Vec::new();
    let mut labels: Vec<Label> = Vec::new();
    let mut typed: Vec<Vec<Action>> = Vec::new();
    let mut transitions = Vec::with_capacity(proof.steps.len());
    for step in &proof.steps {
        let from = id(step.from);
        let to = id(step.to);
        let l = step.label as usize;
        if l >= label_ids.len() {
            label_ids.resize(l + 1, u32::MAX);
        }
        if label_ids[l] == u32::MAX {
            label_ids[l] = labels.len() as u32;
            let (text, actions) = src.label(step.label);
            labels.push(Label::from_text(text.to_string()));
            typed.push(actions.to_vec());
        }
        let t = Transition {
            from,
            label: LabelId(label_ids[l]),
            to,
        };
        transitions.push(t);
    }
    // Several steps may stand for one transition. Sorted, not hashed: a set of
    // millions of transitions beside the list doubled its memory.
    transitions.sort_unstable_by_key(|t| (t.from, t.label, t.to));
    transitions.dedup();
    transitions.shrink_to_fit();

    let (path, cycle) = proof.trace_nodes();
    let mut steps = Vec::new();
    let mut trace_states = vec![id(init)];
    let mut loop_start = None;
    for (i, &n) in path.iter().enumerate() {
        if cycle == Some(i) {
            loop_start = Some(steps.len());
        }
        if let Some(s) = proof.step[n as usize] {
            steps.push(src.full_step(proof.step_ids[s as usize])?);
            trace_states.push(id(proof.steps[s as usize].to));
        }
    }
    // A cycle through no step is no lasso of the process: the trace ends in a state where
    // the remaining obligation holds (or fails) without moving.
    if loop_start == Some(steps.len()) {
        loop_start = None;
    }
    let trace = Trace {
        initial,
        steps,
        loop_start,
    };
    let mut model_states = Vec::new();
    if src.model_numbers() {
        model_states = vec![0; num_states as usize];
        for (s, &e) in state_ids.iter().enumerate() {
            if e != u32::MAX {
                model_states[e as usize] = s as u32;
            }
        }
    }
    Ok(Evidence {
        value,
        trace,
        lts: Lts {
            initial: StateId(0),
            num_states,
            labels,
            transitions,
        },
        labels: typed,
        trace_states,
        model_states,
    })
}
