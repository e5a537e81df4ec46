//! Shortest paths of a distributed run (traces for `-t`, the monitor's counterexample):
//! parent pointers kept where the numbers are made, gathered by worker 0 once the search
//! has ended, and the path replayed on worker 0's own store.
//!
//! A state's parent is the first position `(c, j)` that reached it (successor `j` of state
//! `c`), exactly the transition a one-process search keeps, so the paths are the same. The
//! ranker that numbers a state in round 4 already holds that position, so it keeps it: 12
//! bytes a state, only when paths are asked for. Every worker knows which ranker numbered
//! a state from the per-level counts of round 3 ([`Levels`]), so a query goes straight to
//! the holder, which answers worker 0 and passes the query for the parent on; all paths
//! walk back at once, one round a step.

use rustc_hash::{FxHashMap, FxHashSet};

use super::comm::{join, split, Comm};
use super::rounds::Dist;
use super::Portable;
use crate::lts::generate::{Engine, GenerateError};
use crate::lts::trace::{Trace, TraceStep};
use crate::lts::{ExploreOptions, ExploreSummary, Label, Progress, StateId, TransitionSink};

/// Per level, the first number of its new states and how many each ranker numbered.
#[derive(Default)]
pub(super) struct Levels {
    peers: usize,
    firsts: Vec<u64>,
    /// `peers` counts per level.
    counts: Vec<u64>,
}

impl Levels {
    pub(super) fn new(peers: u32) -> Levels {
        Levels {
            peers: peers as usize,
            ..Levels::default()
        }
    }

    /// A level whose new states have numbers from `first` on, ranker `r` numbering the
    /// `counts[r]` after those of rankers below it.
    pub(super) fn push(&mut self, first: u64, counts: &[u64]) {
        self.firsts.push(first);
        self.counts.extend_from_slice(counts);
    }

    /// The ranker that numbered state `n` (not the initial state, which has no parent).
    fn holder(&self, n: u64) -> Option<u32> {
        let level = self.firsts.partition_point(|&f| f <= n).checked_sub(1)?;
        let mut at = self.firsts[level];
        for (r, &k) in self.counts[level * self.peers..(level + 1) * self.peers]
            .iter()
            .enumerate()
        {
            if n < at + k {
                return Some(r as u32);
            }
            at += k;
        }
        None
    }
}

/// The parents of the states a worker numbered: per level a run of consecutive numbers.
#[derive(Default)]
pub(super) struct Parents {
    /// Per run: its first number and where its parents start in `from`/`index`.
    runs: Vec<(u64, usize)>,
    from: Vec<u64>,
    index: Vec<u32>,
}

impl Parents {
    /// The states numbered from `first` on, in order, reached first as successor
    /// `index` of state `from`.
    pub(super) fn push_run(&mut self, first: u64, positions: impl Iterator<Item = (u64, u32)>) {
        self.runs.push((first, self.from.len()));
        for (c, j) in positions {
            self.from.push(c);
            self.index.push(j);
        }
    }

    fn get(&self, n: u64) -> Option<(u64, u32)> {
        let k = self.runs.partition_point(|r| r.0 <= n).checked_sub(1)?;
        let (first, at) = self.runs[k];
        let end = self.runs.get(k + 1).map_or(self.from.len(), |r| r.1);
        let i = at + (n - first) as usize;
        (i < end).then(|| (self.from[i], self.index[i]))
    }

    /// Bytes held.
    pub(super) fn bytes(&self) -> usize {
        self.from.capacity() * 8 + self.index.capacity() * 4 + self.runs.capacity() * 16
    }
}

/// Record kinds of the walk (see [`super::rounds`] for the others).
pub(super) const QUERY: u32 = 12;
pub(super) const REPLY: u32 = 13;
pub(super) const PENDING: u32 = 14;

/// Every worker: walks back from `targets` (worker 0's; the others pass none) to the
/// initial state; `error` is this worker's failure so far, which ends every worker's walk
/// at once. Worker 0 gets, for every state on the paths, its parent and successor
/// index; the others get an empty map. An error of any worker ends every worker's walk.
pub(super) fn walk(
    comm: &mut Comm,
    worker: &mut timely::worker::Worker,
    levels: &Levels,
    parents: &Parents,
    targets: &[u64],
    mut error: Option<String>,
) -> Result<FxHashMap<u64, (u64, u32)>, String> {
    let mut found: FxHashMap<u64, (u64, u32)> = FxHashMap::default();
    let mut asked: FxHashSet<u64> = FxHashSet::default();
    let mut ask = |comm: &mut Comm, n: u64, error: &mut Option<String>| -> u64 {
        if n == 0 || !asked.insert(n) {
            return 0;
        }
        match levels.holder(n) {
            Some(h) => {
                comm.push(h, QUERY, &split(n));
                1
            }
            None => {
                error.get_or_insert(format!("state {n} was not numbered by any worker"));
                0
            }
        }
    };
    let mut sent = 0;
    for &t in targets {
        sent += ask(comm, t, &mut error);
    }
    loop {
        let [s0, s1] = split(sent);
        comm.broadcast(PENDING, &[s0, s1, error.is_some() as u32]);
        let inbox = comm.round(worker);
        let (mut pending, mut failed) = (0u64, false);
        sent = 0;
        for (kind, _, recs) in inbox {
            match kind {
                PENDING => {
                    for r in recs.chunks(3) {
                        pending += join(r[0], r[1]);
                        failed |= r[2] != 0;
                    }
                }
                QUERY => {
                    for r in recs.chunks(2) {
                        let n = join(r[0], r[1]);
                        match parents.get(n) {
                            Some((c, j)) => {
                                let ([n0, n1], [c0, c1]) = (split(n), split(c));
                                comm.push(0, REPLY, &[n0, n1, c0, c1, j]);
                                sent += ask(comm, c, &mut error);
                            }
                            None => {
                                error.get_or_insert(format!(
                                    "the parent of state {n} was not kept by the worker that numbered it"
                                ));
                            }
                        }
                    }
                }
                REPLY => {
                    for r in recs.chunks(5) {
                        found.insert(join(r[0], r[1]), (join(r[2], r[3]), r[4]));
                    }
                }
                _ => {}
            }
        }
        if failed {
            return Err(error.unwrap_or_else(|| "another worker failed to find a path".into()));
        }
        // No query was sent last round: every reply has arrived.
        if pending == 0 {
            return Ok(found);
        }
    }
}

/// Worker 0: the path from the initial state to `target` as (state, successor index)
/// steps, from the parents [`walk`] gathered.
pub(super) fn path_to(
    found: &FxHashMap<u64, (u64, u32)>,
    target: u64,
) -> Result<Vec<(u64, u32)>, String> {
    let mut steps = Vec::new();
    let mut n = target;
    while n != 0 {
        let &(c, j) = found
            .get(&n)
            .ok_or_else(|| format!("no path to state {target} was gathered"))?;
        steps.push((n, j));
        n = c;
    }
    steps.reverse();
    Ok(steps)
}

/// Worker 0's paths: `Dist::trace_to` walks the parents `walk` gathered and replays
/// them on its own store.
impl<'w, S: Portable> Dist<'w, S> {
    /// One worker's engine over its own `sys` (every worker builds the same system from
    /// the same input); worker 0 hands transitions to the sink when `keep_transitions`.
    pub fn new(
        worker: &'w mut timely::worker::Worker,
        sys: &'w S,
        opts: ExploreOptions,
        keep_transitions: bool,
    ) -> Self {
        Dist {
            worker,
            sys,
            opts,
            keep_transitions,
            labels: Vec::new(),
            progress: None,
            found: FxHashMap::default(),
            rows: FxHashMap::default(),
        }
    }

    /// Worker 0: the row of state `n` of a path [`Engine::trace_to`] replayed.
    pub fn row(&self, n: StateId) -> Option<&[u32]> {
        self.rows.get(&(n.0 as u64)).map(|r| &r[..])
    }

    /// Worker 0: replays the path to `target` from the initial state, keeping the rows.
    fn replay(&mut self, target: StateId) -> Result<Vec<(Label, StateId)>, GenerateError> {
        let fail = |e: String| GenerateError::Explore(format!("the trace to state {target}: {e}"));
        let path = super::paths::path_to(&self.found, target.0 as u64).map_err(fail)?;
        let sys = self.sys;
        let mut w = sys.worker();
        let mut row = Vec::new();
        sys.initial_state(&mut w, &mut row)
            .map_err(|e| fail(format!("the initial state: {e}")))?;
        self.rows.insert(0, row.clone());
        let mut steps = Vec::with_capacity(path.len());
        for (n, j) in path {
            let mut k = 0u32;
            let mut next: Option<(Label, Vec<u32>)> = None;
            sys.successors(&mut w, &row, &mut |lab, succ| {
                if k == j {
                    next = Some((sys.label(lab), succ.to_vec()));
                }
                k += 1;
            })
            .map_err(|e| fail(e.to_string()))?;
            let (label, succ) = next.ok_or_else(|| {
                fail(format!(
                    "state {n} is successor {j} of its parent, which has {k} on this worker"
                ))
            })?;
            self.rows.insert(n, succ.clone());
            steps.push((label, StateId(n as u32)));
            row = succ;
        }
        Ok(steps)
    }
}

impl<S: Portable> Engine for Dist<'_, S> {
    fn run(&mut self, sink: &mut dyn TransitionSink) -> Result<ExploreSummary, GenerateError> {
        self.explore(sink)
    }
    fn labels(&self) -> &[Label] {
        &self.labels
    }
    fn parameters(&self) -> Vec<(String, String)> {
        self.sys.parameters()
    }
    fn state_values(&self, s: StateId) -> Result<Vec<String>, GenerateError> {
        // Only the states of replayed paths are known here.
        self.row(s)
            .map(|r| self.sys.state_values(r))
            .ok_or_else(|| {
                GenerateError::Explore(
                    "state values are not gathered from the processes of a distributed run".into(),
                )
            })
    }
    fn trace_to(&mut self, s: StateId) -> Result<Vec<(Label, StateId)>, GenerateError> {
        if !self.opts.keep_parents {
            return Err(GenerateError::Explore(
                "parent pointers were not kept in this distributed run".into(),
            ));
        }
        self.replay(s)
    }
    fn trace(&mut self, steps: &[(Label, StateId)]) -> Result<Trace, GenerateError> {
        // The target of a detected action may lie off the path to its source.
        for (_, s) in steps {
            if self.row(*s).is_none() {
                self.replay(*s)?;
            }
        }
        let mut params: Vec<String> = self.sys.parameters().into_iter().map(|(n, _)| n).collect();
        let numbered = params.is_empty();
        if numbered {
            params.push("state".to_string());
        }
        let values = |s: StateId| -> Result<Vec<String>, GenerateError> {
            if numbered {
                Ok(vec![s.to_string()])
            } else {
                self.state_values(s)
            }
        };
        Ok(Trace {
            params,
            initial: Some(values(StateId(0))?),
            steps: steps
                .iter()
                .map(|(l, s)| {
                    Ok(TraceStep {
                        action: l.text().to_string(),
                        sums: Vec::new(),
                        state: Some(values(*s)?),
                    })
                })
                .collect::<Result<_, GenerateError>>()?,
            loop_start: None,
        })
    }
    fn on_progress(&mut self, f: Box<dyn FnMut(&Progress)>) {
        self.progress = Some(f);
    }
}
