//! Reading evidence off a solved game: one walk over the part of the game the winner's
//! strategy keeps, then the shortest trace and the evidence LTS from it. The walk is the
//! same for both routes; what a step vertex stands for is the route's [`StepSource`]: a
//! summand instance of the LPS here, a transition of the LTS in [`super::lts`].

use std::collections::VecDeque;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::check::{action_text, check_trace, Replayer};
use super::{Evidence, EvidenceError, Step, Trace};
use crate::bes::distance::{forced_distances, ForcedGraph, UNREACHED};
use crate::bes::{Game, Player, Solution, VertexId};
use crate::data::ir::{DataExpr, Var};
use crate::lps::{Lps, SummandAction};
use crate::lts::{Label, LabelId, Lts, StateId, Transition};
use crate::pbes::inst::Instantiation;
use crate::pbes::ir::Pbes;
use crate::pbes::lps2pbes::step_summand;
use crate::process::ir::Action;

/// What the walk over a proof needs to know of the model: which BES vertices are steps, and
/// the (checked) step each of them stands for.
/// The step (summand or transition index) that vertex `v` stands for, when its equation is
/// a step equation: `step_of` maps equations to steps.
pub(super) fn step_index(
    inst: &Instantiation,
    step_of: &[Option<usize>],
    v: VertexId,
) -> Option<usize> {
    let e = inst.origin.equation(v.0 as usize)?;
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

pub(super) trait StepSource {
    /// Whether a BES vertex is an instance of a step equation.
    fn is_step(&self, v: VertexId) -> bool;
    /// The step a BES vertex stands for, if it is an instance of a step equation.
    fn step_at(&mut self, v: VertexId) -> Result<Option<Step>, EvidenceError>;
}

/// Reads the steps of a solved PBES of `lps2pbes -c` over `lps`.
struct Reader<'a> {
    lps: &'a Lps,
    pbes: &'a Pbes,
    inst: &'a Instantiation,
    rp: Replayer<'a>,
    /// Per equation: the summand of a step equation.
    step_of: Vec<Option<usize>>,
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
        Ok(Reader {
            lps,
            pbes,
            inst,
            rp: Replayer::new(lps, store)?,
            step_of,
        })
    }

    fn normal_form(&mut self, e: &DataExpr) -> Result<DataExpr, EvidenceError> {
        self.rp.normal_form(e)
    }

    fn initial(&mut self) -> Result<Vec<DataExpr>, EvidenceError> {
        let init = self.lps.init.clone();
        init.iter().map(|e| self.normal_form(e)).collect()
    }
}

impl StepSource for Reader<'_> {
    fn is_step(&self, v: VertexId) -> bool {
        step_index(self.inst, &self.step_of, v).is_some()
    }

    fn step_at(&mut self, v: VertexId) -> Result<Option<Step>, EvidenceError> {
        let Some(i) = step_index(self.inst, &self.step_of, v) else {
            return Ok(None);
        };
        let o = self
            .inst
            .origin
            .get(v.0 as usize)
            .expect("an instance has an origin");
        let s = &self.lps.summands[i];
        let (k, m, n) = (self.lps.params.len(), s.sum_vars.len(), o.args.len());
        let decl = &self.pbes.equations[o.equation as usize].var;
        if n < k + m || decl.params.len() != n {
            return Err(EvidenceError::Unchecked(format!(
                "step equation {} has {n} arguments, fewer than the summand's {m} sum variables and {k} parameters",
                decl.name
            )));
        }
        let from = o.args[n - k..].to_vec();
        let sum_values: Vec<(Var, DataExpr)> = s
            .sum_vars
            .iter()
            .cloned()
            .zip(o.args[n - k - m..n - k].iter().cloned())
            .collect();
        if matches!(s.action, SummandAction::Delta) {
            return Err(EvidenceError::Unchecked(format!(
                "step equation {} stands for the delta summand {i}",
                decl.name
            )));
        }
        // Computing the step is its independent check: the summand's condition must rewrite
        // to true for the recorded state and sum values (the data engine, not the PBES).
        let (actions, to) = self.rp.replay(i, &from, &sum_values)?;
        let action = action_text(&actions);
        let step = Step {
            summand: i,
            action,
            actions,
            from,
            sum_values,
            to,
        };
        Ok(Some(step))
    }
}

/// The successors of `v` that the proof keeps: the chosen one at the winner's vertices, all
/// at the opponent's.
fn kept(game: &Game, choice: &[Option<VertexId>], winner: Player, v: VertexId) -> Vec<VertexId> {
    if game.owner(v) == winner {
        choice[v.index()].into_iter().collect()
    } else {
        game.successors(v).to_vec()
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
    cost: &dyn Fn(VertexId) -> u32,
) -> Vec<Option<VertexId>> {
    let n = game.num_vertices() as u32;
    let wins = |v: u32| sol.winner(VertexId(v)) == winner;
    let chooses = (0..n).map(|v| game.owner(VertexId(v)) == winner).collect();
    let costs = (0..n).map(|v| cost(VertexId(v))).collect();
    let g = ForcedGraph::new(chooses, costs, &mut |v, out| {
        if wins(v) {
            out.extend(
                game.successors(VertexId(v))
                    .iter()
                    .map(|w| w.0)
                    .filter(|&w| wins(w)),
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

/// The part of the game the proof keeps, reachable from the initial vertex.
struct Proof {
    /// Per node: its step, as an index into `steps`.
    step: Vec<Option<u32>>,
    /// Per node: its kept successors.
    succ: Vec<Vec<u32>>,
    steps: Vec<Step>,
}

impl Proof {
    fn walk(
        r: &mut dyn StepSource,
        kept: &dyn Fn(VertexId) -> Vec<VertexId>,
        root: VertexId,
    ) -> Result<Proof, EvidenceError> {
        let mut index: HashMap<VertexId, u32> = HashMap::default();
        index.insert(root, 0);
        let mut nodes = vec![root];
        let mut p = Proof {
            step: Vec::new(),
            succ: Vec::new(),
            steps: Vec::new(),
        };
        let mut i = 0;
        while i < nodes.len() {
            let v = nodes[i];
            let step = r.step_at(v)?.map(|s| {
                p.steps.push(s);
                p.steps.len() as u32 - 1
            });
            p.step.push(step);
            let out = kept(v)
                .into_iter()
                .map(|w| {
                    *index.entry(w).or_insert_with(|| {
                        nodes.push(w);
                        nodes.len() as u32 - 1
                    })
                })
                .collect();
            p.succ.push(out);
            i += 1;
        }
        Ok(p)
    }

    /// A node the proof ends in: a constant (its only successor is itself) or a dead end.
    fn is_end(&self, n: u32) -> bool {
        let s = &self.succ[n as usize];
        s.is_empty() || s.iter().all(|&m| m == n)
    }

    /// Distance in steps from node 0 (0-1 breadth-first: entering a step node costs 1), and
    /// the predecessor on a shortest path.
    fn distances(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.succ.len();
        let mut dist = vec![u32::MAX; n];
        let mut pred = vec![u32::MAX; n];
        let mut queue = VecDeque::from([0u32]);
        dist[0] = 0;
        while let Some(u) = queue.pop_front() {
            for &w in &self.succ[u as usize] {
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
        let end = (0..self.succ.len() as u32)
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
            n = *self.succ[n as usize]
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
    let proof = if let Some(j) = &inst.justification {
        // Decided by constant propagation: the finite proof of that, no game needed; its
        // choices are made for the fewest steps.
        let succ = j.shortest(&|v| u32::from(src.is_step(VertexId(v))));
        let kept = |v: VertexId| -> Vec<VertexId> {
            succ.get(v.0 as usize)
                .map(|s| s.iter().map(|&w| VertexId(w)).collect())
                .unwrap_or_default()
        };
        Proof::walk(src, &kept, VertexId(j.init))?
    } else {
        let bes = inst.bes.as_ref().ok_or(EvidenceError::NoGame)?;
        let (game, sol) = game.ok_or(EvidenceError::NoGame)?;
        let winner = if value { Player::Even } else { Player::Odd };
        let choice = shortest_choices(game, sol, winner, &|v| u32::from(src.is_step(v)));
        let kept = |v: VertexId| kept(game, &choice, winner, v);
        Proof::walk(src, &kept, bes.init().vertex())?
    };

    let (path, cycle) = proof.trace_nodes();
    let mut steps = Vec::new();
    let mut loop_start = None;
    for (i, &n) in path.iter().enumerate() {
        if cycle == Some(i) {
            loop_start = Some(steps.len());
        }
        if let Some(s) = proof.step[n as usize] {
            steps.push(proof.steps[s as usize].clone());
        }
    }
    // A cycle through no step is no lasso of the process: the trace ends in a state where
    // the remaining obligation holds (or fails) without moving.
    if loop_start == Some(steps.len()) {
        loop_start = None;
    }
    let trace = Trace {
        initial: initial.clone(),
        steps,
        loop_start,
    };

    let mut ids: HashMap<Vec<DataExpr>, StateId> = HashMap::default();
    ids.insert(initial.clone(), StateId(0));
    let mut states = vec![initial];
    let mut labels: Vec<Label> = Vec::new();
    let mut typed: Vec<Vec<Action>> = Vec::new();
    let mut label_ids: HashMap<String, LabelId> = HashMap::default();
    let mut transitions = Vec::new();
    let mut have: HashSet<Transition> = HashSet::default();
    for step in &proof.steps {
        // Looked up before inserting: a state (a vector of expressions) is cloned only when
        // it is new, not once per step.
        let mut id = |s: &Vec<DataExpr>| {
            if let Some(&i) = ids.get(s) {
                return i;
            }
            let i = StateId(states.len() as u32);
            states.push(s.clone());
            ids.insert(s.clone(), i);
            i
        };
        let from = id(&step.from);
        let to = id(&step.to);
        let label = match label_ids.get(&step.action) {
            Some(&l) => l,
            None => {
                let l = LabelId(labels.len() as u32);
                labels.push(Label::from_text(step.action.clone()));
                typed.push(step.actions.clone());
                label_ids.insert(step.action.clone(), l);
                l
            }
        };
        let t = Transition { from, label, to };
        if have.insert(t) {
            transitions.push(t);
        }
    }
    Ok(Evidence {
        value,
        trace,
        lts: Lts {
            initial: StateId(0),
            num_states: states.len() as u32,
            labels,
            transitions,
        },
        labels: typed,
        states,
    })
}
