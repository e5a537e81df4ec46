//! The generic state-space explorer (see the module docs of [`crate::lts`] for the numbering
//! invariant, the parallel design and the memory layout).

use std::hash::Hash;
use std::sync::Mutex;
use std::time::Instant;

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use thiserror::Error;

use super::batch::LookupBatch;
use super::expand::View;
use super::table::{StateStore, StoreKind, MAX_STATES};
use super::{Label, LabelId, StateId, Transition};

/// A system whose states the [`Explorer`] enumerates; `muon lps2lts` implements it for an LPS.
///
/// A state is a row of exactly [`state_width`](TransitionSystem::state_width) `u32` words
/// (for an LPS: one hash-consed `TermId` per process parameter). Two states are the same
/// state exactly when their rows are equal, so the encoding must be canonical (terms in
/// normal form, hash-consed).
pub trait TransitionSystem: Sync {
    /// A transition label as the system produces it, cheap to hash and compare (for an LPS:
    /// action ids and data `TermId`s). It is turned into a printable [`Label`] only the first
    /// time it is seen.
    type Label: Clone + Eq + Hash + Send + Sync;
    /// What can go wrong computing the initial state or successors (e.g. a rewriter error or
    /// an infinite sum domain).
    type Error: std::error::Error + Send + Sync + 'static;
    /// Mutable per-thread scratch (rewriter caches, enumerator stacks); one per exploring
    /// thread, created with [`worker`](TransitionSystem::worker) and reused across states.
    type Worker: Send;

    /// The number of `u32` words in every state row.
    fn state_width(&self) -> usize;

    /// A fresh per-thread scratch value.
    fn worker(&self) -> Self::Worker;

    /// Writes the initial state's row into `out` (which is empty on entry).
    fn initial_state(&self, w: &mut Self::Worker, out: &mut Vec<u32>) -> Result<(), Self::Error>;

    /// Calls `emit(label, successor_row)` once per outgoing transition of `state`, in a
    /// deterministic order (the order decides the state numbering). The row passed to `emit`
    /// may be a scratch buffer that is reused after `emit` returns.
    fn successors(
        &self,
        w: &mut Self::Worker,
        state: &[u32],
        emit: &mut dyn FnMut(&Self::Label, &[u32]),
    ) -> Result<(), Self::Error>;

    /// The printable multi-action of a label (called once per distinct label).
    fn label(&self, label: &Self::Label) -> Label;

    /// A readable rendering of a state for traces and messages (the LPS prints its parameter
    /// values); the default prints the raw words.
    fn format_state(&self, state: &[u32]) -> String {
        let words: Vec<String> = state.iter().map(u32::to_string).collect();
        format!("[{}]", words.join(", "))
    }

    /// The state parameters as (name, printed sort), for outputs that list state values
    /// (`.fsm`); the default has none.
    fn parameters(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// A state's values printed, one per entry of [`parameters`](TransitionSystem::parameters).
    fn state_values(&self, _state: &[u32]) -> Vec<String> {
        Vec::new()
    }
}

/// Shorthand for the per-thread scratch type of a system.
pub type Worker<S> = <S as TransitionSystem>::Worker;

/// The exploration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Breadth-first (the default); parallel; shortest traces.
    Bfs,
    /// Depth-first with an explicit stack; sequential.
    Dfs,
    /// Highway search: per level, expand a random subset of at most `todo_max` of the newly
    /// found states (reproducible for a fixed `seed`); parallel.
    Highway {
        /// The most states expanded per level.
        todo_max: usize,
        /// The random seed.
        seed: u64,
    },
}

/// Options of an exploration.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// The exploration order.
    pub strategy: Strategy,
    /// Stop once this many states have been found, as mCRL2's `--max` does: the state
    /// being expanded when the bound is reached is completed (so a few more states may be
    /// found), then exploration stops.
    pub max_states: Option<u64>,
    /// Threads for the breadth-first and highway searches; 0 means all cores. One thread
    /// takes the same batched look-ups as several (one pool thread).
    pub threads: usize,
    /// The tests' reference: expand one state at a time on the calling thread and look each
    /// successor up as it comes, whatever `threads` says. This is the plain sequential
    /// search whose numbering every thread count must reproduce; the tools never set it.
    pub reference_loop: bool,
    /// Record states without outgoing transitions.
    pub detect_deadlocks: bool,
    /// Record transitions whose multi-action contains one of these action names.
    pub detect_actions: Vec<String>,
    /// Keep a parent pointer per state so [`Explorer::trace_to`] can rebuild paths.
    pub keep_parents: bool,
    /// How many deadlock states and action occurrences to keep (all are counted).
    pub record_limit: usize,
    /// Stop after the state whose expansion found the n-th deadlock state or the n-th
    /// transition with a detected action (mCRL2's `lps2lts --trace=NUM`, which aborts the
    /// exploration once NUM traces are written, each detector counting its own).
    pub stop_after_reports: Option<u64>,
    /// Stack size in bytes of the parallel worker threads (`None`: rayon's default); deep
    /// rewriting needs more than the default.
    pub thread_stack: Option<usize>,
    /// How states are stored (tree compression by default); the numbering and every
    /// output are the same for both.
    pub store: StoreKind,
}

impl Default for ExploreOptions {
    fn default() -> Self {
        ExploreOptions {
            strategy: Strategy::Bfs,
            max_states: None,
            threads: 1,
            reference_loop: false,
            detect_deadlocks: false,
            detect_actions: Vec::new(),
            keep_parents: false,
            record_limit: 1000,
            stop_after_reports: None,
            thread_stack: None,
            store: StoreKind::default(),
        }
    }
}

/// Receives the labels and transitions as the explorer finds them.
pub trait TransitionSink {
    /// A label seen for the first time, with its id (ids are dense, in order of first use).
    fn new_label(&mut self, _id: LabelId, _label: &Label) -> std::io::Result<()> {
        Ok(())
    }
    /// One transition; transitions arrive grouped by source state in expansion order.
    fn transition(&mut self, t: Transition) -> std::io::Result<()>;
    /// Whether [`transition`](TransitionSink::transition) does anything: a sink that only
    /// discards lets a parallel batch skip the ordered walk over its transitions.
    fn takes_transitions(&self) -> bool {
        true
    }
}

/// Discards transitions (counting only).
impl TransitionSink for () {
    fn takes_transitions(&self) -> bool {
        false
    }

    fn transition(&mut self, _t: Transition) -> std::io::Result<()> {
        Ok(())
    }
}

/// Collects transitions in memory.
impl TransitionSink for Vec<Transition> {
    fn transition(&mut self, t: Transition) -> std::io::Result<()> {
        self.push(t);
        Ok(())
    }
}

/// A transition whose label contains a detected action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionHit {
    /// The transition.
    pub transition: Transition,
}

/// A snapshot for progress reports.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// States found so far.
    pub states: u64,
    /// States expanded so far.
    pub explored: u64,
    /// Transitions found so far.
    pub transitions: u64,
    /// The current BFS level (1 = the initial state's level; 0 for DFS).
    pub level: u32,
    /// Seconds since the start.
    pub seconds: f64,
}

/// The outcome of an exploration.
#[derive(Clone, Debug, Default)]
pub struct ExploreSummary {
    /// States found (numbered `0..states`).
    pub states: u64,
    /// States expanded (fewer than `states` with `--max` or highway search).
    pub explored: u64,
    /// Transitions found.
    pub transitions: u64,
    /// BFS / highway levels expanded (0 for DFS).
    pub levels: u32,
    /// Whether exploration stopped at the state bound before the state space was complete.
    pub stopped_at_max: bool,
    /// Whether exploration stopped because [`ExploreOptions::stop_after_reports`] deadlocks
    /// or detected actions were found (the state space is then incomplete too).
    pub stopped_at_reports: bool,
    /// Why exploration stopped early by the run's budget (memory limit, timeout, Ctrl-C),
    /// if it did: the counts are then those of the part found so far.
    pub stopped_by: Option<crate::budget::StopReason>,
    /// Number of deadlock states (when detecting deadlocks).
    pub deadlock_count: u64,
    /// The first `record_limit` deadlock states, in discovery order.
    pub deadlocks: Vec<StateId>,
    /// Number of transitions with a detected action.
    pub action_count: u64,
    /// The first `record_limit` such transitions.
    pub action_hits: Vec<ActionHit>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Bytes allocated by the state store (rows or tree nodes, and hash indices) at the end.
    pub table_bytes: u64,
    /// Bytes allocated for parent pointers.
    pub parent_bytes: u64,
    /// Bytes of records sent between workers (a distributed run; 0 otherwise).
    pub sent_bytes: u64,
    /// Successors sent to a worker other than their source's (a distributed run; 0
    /// otherwise): the rest were looked up where they were found.
    pub remote_successors: u64,
    /// Wall-clock seconds per phase of the batched exploration (all zero for depth-first
    /// search and the reference loop).
    pub phases: PhaseSeconds,
}

/// Wall-clock seconds spent in each phase of parallel exploration, summed over batches:
/// where the time of a multi-threaded run goes (`lps2lts -v` prints them), so the serial
/// part can be told from the parallel one.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseSeconds {
    /// Threads expanding states and looking successors up (parallel).
    pub expand: f64,
    /// The ordered pass that numbers new states and hands transitions on (serial).
    pub number: f64,
    /// Threads indexing the new states (parallel).
    pub index: f64,
    /// Growing the tables between batches (serial).
    pub grow: f64,
}

/// Why an exploration failed.
#[derive(Debug, Error)]
pub enum ExploreError<E: std::error::Error + 'static> {
    /// The system failed computing the initial state (`state: None`) or a successor.
    #[error("{}: {source}", state_context(.state))]
    System {
        /// The state being expanded.
        state: Option<StateId>,
        /// The system's error.
        #[source]
        source: E,
    },
    /// The system produced a row of the wrong width (a bug in the system).
    #[error("the system produced a state of {found} words, but its states have {expected}")]
    Width {
        /// The declared width.
        expected: usize,
        /// The width produced.
        found: usize,
    },
    /// More states (or, with tree compression, tree nodes) than fit in 32-bit numbers.
    #[error(
        "the state space has more than {MAX_STATES} states or tree nodes; bound it with --max"
    )]
    TooManyStates,
    /// Writing transitions failed.
    #[error("cannot write the transitions: {0}")]
    Sink(#[source] std::io::Error),
    /// A rayon thread pool could not be started.
    #[error("cannot start {threads} worker threads: {detail}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// What rayon said.
        detail: String,
    },
    /// A broken invariant of the explorer (a bug, reported instead of a panic).
    #[error("internal error of the explorer: {0}")]
    Internal(&'static str),
    /// A trace was asked for without parent pointers, or to an unknown state.
    #[error("cannot rebuild a trace to state {0}: {1}")]
    Trace(StateId, &'static str),
}

fn state_context(state: &Option<StateId>) -> String {
    match state {
        Some(s) => format!("while exploring state {s}"),
        None => "while computing the initial state".to_string(),
    }
}

pub(super) const NO_PARENT: u32 = u32::MAX;
/// States per parallel batch: big enough to keep all threads busy, small enough that the
/// buffered successors of one batch stay small.
const BATCH: usize = 1 << 14;
/// States per rayon task within a batch.
pub(super) const CHUNK: usize = 64;
/// New states per rayon task when indexing a batch's new states.
const INDEX_CHUNK: usize = 1 << 12;

pub(super) enum Frontier {
    /// BFS: the table is the queue.
    Implicit,
    /// DFS stack.
    Stack(Vec<u32>),
    /// Highway: reservoir sample of the next level.
    Reservoir {
        next: Vec<u32>,
        seen: u64,
        todo_max: usize,
        rng: u64,
    },
}

/// Label of a buffered successor.
pub(super) enum LabIn<'l, L> {
    Known(LabelId),
    Sys(&'l L),
}

/// Target of a buffered successor: a known state, a provisional number of this batch, or a
/// store key (with its hash).
pub(super) enum TgtIn<'r> {
    Known(StateId),
    Fresh(u32),
    Key(&'r [u32], u64),
}

/// What one rayon task produced for a run of consecutive states.
pub(super) struct ChunkOut<L, E> {
    /// Successor count per fully expanded state.
    pub(super) counts: Vec<u32>,
    /// Successors: label (known id, or index into `new_labels` with the top bit set) and
    /// target (known state, or the offset of its store key in `keys`).
    pub(super) entries: Vec<(u32, Tgt)>,
    pub(super) keys: Vec<u32>,
    pub(super) new_labels: Vec<L>,
    /// The error of the state after the last counted one, if any.
    pub(super) error: Option<E>,
    pub(super) bad_width: Option<usize>,
}

#[derive(Clone, Copy)]
pub(super) enum Tgt {
    Known(StateId),
    Fresh(u32),
    New { off: u32, hash: u64 },
}

pub(super) const NEW_LABEL_BIT: u32 = 1 << 31;

/// Explores a [`TransitionSystem`]; keeps the state table (and parent pointers) afterwards so
/// traces can be rebuilt and states printed.
pub struct Explorer<'a, S: TransitionSystem> {
    sys: &'a S,
    pub(super) opts: ExploreOptions,
    pub(super) table: StateStore,
    pub(super) parents: Vec<u32>,
    label_map: FxHashMap<S::Label, LabelId>,
    text_map: FxHashMap<String, LabelId>,
    labels: Vec<Label>,
    pub(super) detect_flags: Vec<bool>,
    workers: Mutex<Vec<S::Worker>>,
    /// The look-up batches of the parallel phase, reused as the workers are.
    batches: Mutex<Vec<LookupBatch>>,
    pub(super) frontier: Frontier,
    pub(super) summary: ExploreSummary,
    pub(super) stopped: bool,
    /// The state bound was reached: stop once the current state is complete.
    bound_hit: bool,
    start: Instant,
    last_report: Instant,
    level: u32,
    progress: Option<ProgressFn<'a>>,
}

/// A progress callback.
type ProgressFn<'a> = Box<dyn FnMut(&Progress) + 'a>;

impl<'a, S: TransitionSystem> Explorer<'a, S> {
    /// An explorer of `sys` with `opts`.
    pub fn new(sys: &'a S, opts: ExploreOptions) -> Self {
        let frontier = match opts.strategy {
            Strategy::Bfs => Frontier::Implicit,
            Strategy::Dfs => Frontier::Stack(Vec::new()),
            Strategy::Highway { todo_max, seed } => Frontier::Reservoir {
                next: Vec::new(),
                seen: 0,
                todo_max: todo_max.max(1),
                rng: seed ^ 0x2545_F491_4F6C_DD1D,
            },
        };
        let now = Instant::now();
        Explorer {
            sys,
            table: StateStore::new(opts.store, sys.state_width()),
            opts,
            parents: Vec::new(),
            label_map: FxHashMap::default(),
            text_map: FxHashMap::default(),
            labels: Vec::new(),
            detect_flags: Vec::new(),
            workers: Mutex::new(Vec::new()),
            batches: Mutex::new(Vec::new()),
            frontier,
            summary: ExploreSummary::default(),
            stopped: false,
            bound_hit: false,
            start: now,
            last_report: now,
            level: 0,
            progress: None,
        }
    }

    /// Calls `f` about once a second during [`run`](Explorer::run).
    pub fn on_progress(&mut self, f: impl FnMut(&Progress) + 'a) {
        self.progress = Some(Box::new(f));
    }

    /// The labels found, indexed by [`LabelId`].
    pub fn labels(&self) -> &[Label] {
        &self.labels
    }

    /// The number of states found.
    pub fn num_states(&self) -> usize {
        self.table.len()
    }

    /// The row of a state (decoded from the store).
    pub fn state(&self, s: StateId) -> Vec<u32> {
        self.table.row(s)
    }

    /// The system being explored.
    pub fn system(&self) -> &'a S {
        self.sys
    }

    /// Explores the state space, sending labels and transitions to `sink`.
    pub fn run(
        &mut self,
        sink: &mut dyn TransitionSink,
    ) -> Result<ExploreSummary, ExploreError<S::Error>> {
        self.start = Instant::now();
        self.last_report = self.start;
        let threads = match self.opts.threads {
            0 => rayon::current_num_threads().max(1),
            n => n,
        };
        // One thread too goes through the pool's batches: the look-ups of a batch overlap
        // their cache misses (`lts/batch.rs`), which one at a time they cannot.
        let pool = if !self.opts.reference_loop && !matches!(self.opts.strategy, Strategy::Dfs) {
            Some(
                {
                    let mut b = rayon::ThreadPoolBuilder::new().num_threads(threads);
                    if let Some(st) = self.opts.thread_stack {
                        b = b.stack_size(st);
                    }
                    b
                }
                .build()
                .map_err(|e| ExploreError::Threads {
                    threads,
                    detail: e.to_string(),
                })?,
            )
        } else {
            None
        };

        // The initial state.
        let mut worker = self.sys.worker();
        let mut row = Vec::with_capacity(self.table.width());
        self.sys
            .initial_state(&mut worker, &mut row)
            .map_err(|source| ExploreError::System {
                state: None,
                source,
            })?;
        self.check_width(row.len())?;
        let mut key = Vec::new();
        if let Err(h) = self.table.lookup(&[], &row, &mut Vec::new(), &mut key) {
            self.table
                .insert_key(&key, h)
                .ok_or(ExploreError::TooManyStates)?;
        }
        if self.opts.keep_parents {
            self.parents.push(NO_PARENT);
        }
        self.workers.get_mut().expect("no poisoning").push(worker);
        // As in mCRL2, a bound of 0 or 1 keeps even the initial state unexplored.
        self.note_bound();
        if self.bound_hit {
            self.stopped = true;
        }

        match self.opts.strategy {
            Strategy::Dfs => self.run_dfs(sink)?,
            Strategy::Bfs | Strategy::Highway { .. } => self.run_levels(sink, pool.as_ref())?,
        }

        self.summary.states = self.table.len() as u64;
        self.summary.stopped_at_max =
            self.stopped && self.summary.stopped_by.is_none() && !self.summary.stopped_at_reports;
        self.summary.seconds = self.start.elapsed().as_secs_f64();
        self.summary.table_bytes = self.table.memory_bytes() as u64;
        self.summary.parent_bytes = (self.parents.capacity() * 4) as u64;
        self.report_progress(true);
        Ok(self.summary.clone())
    }

    /// Whether the run's budget asks to stop; if so, stops here (between two states, so
    /// the counts describe the part explored so far).
    pub(super) fn over_budget(&mut self) -> bool {
        match crate::budget::poll_stop() {
            None => false,
            Some(r) => {
                self.stopped = true;
                self.summary.stopped_by = Some(r);
                true
            }
        }
    }

    pub(super) fn check_width(&self, found: usize) -> Result<(), ExploreError<S::Error>> {
        if found != self.table.width() {
            return Err(ExploreError::Width {
                expected: self.table.width(),
                found,
            });
        }
        Ok(())
    }

    fn run_dfs(&mut self, sink: &mut dyn TransitionSink) -> Result<(), ExploreError<S::Error>> {
        if let Frontier::Stack(st) = &mut self.frontier {
            st.push(0);
        }
        let mut worker = self.take_worker();
        let mut scratch = Scratch::default();
        while !self.stopped {
            let next = match &mut self.frontier {
                Frontier::Stack(st) => st.pop(),
                _ => None,
            };
            let Some(s) = next else { break };
            self.expand_seq(StateId(s), &mut worker, &mut scratch, sink)?;
            if self.stopped || self.over_budget() {
                break;
            }
            if self.summary.explored.is_multiple_of(1024) {
                self.report_progress(false);
            }
        }
        self.give_worker(worker);
        Ok(())
    }

    fn run_levels(
        &mut self,
        sink: &mut dyn TransitionSink,
        pool: Option<&rayon::ThreadPool>,
    ) -> Result<(), ExploreError<S::Error>> {
        let highway = matches!(self.frontier, Frontier::Reservoir { .. });
        let mut level_list: Vec<u32> = vec![0];
        let mut level_start = 0usize;
        // The batches take their workers from the pool's list: this one is the reference
        // loop's only.
        let mut worker = pool.is_none().then(|| self.take_worker());
        let mut scratch = Scratch::default();
        let mut ids: Vec<StateId> = Vec::new();
        loop {
            // The current level: a range of the table (BFS) or the sampled list (highway).
            let level_end = self.table.len();
            let count = if highway {
                level_list.len()
            } else {
                level_end - level_start
            };
            if count == 0 {
                break;
            }
            self.level += 1;
            self.summary.levels = self.level;
            let mut done = 0usize;
            while done < count && !self.stopped {
                let n = (count - done).min(BATCH);
                ids.clear();
                if highway {
                    ids.extend(level_list[done..done + n].iter().map(|&s| StateId(s)));
                } else {
                    ids.extend(
                        (level_start + done..level_start + done + n).map(|s| StateId(s as u32)),
                    );
                }
                match (pool, worker.as_mut()) {
                    (Some(pool), _) => {
                        self.expand_batch(&ids, pool, sink)?;
                        self.over_budget();
                        self.report_progress(false);
                    }
                    (None, Some(worker)) => {
                        for &s in &ids {
                            self.expand_seq(s, worker, &mut scratch, sink)?;
                            if self.stopped || self.over_budget() {
                                break;
                            }
                            if self.summary.explored.is_multiple_of(1024) {
                                self.report_progress(false);
                            }
                        }
                    }
                    (None, None) => return Err(ExploreError::Internal("no worker for the loop")),
                }
                done += n;
            }
            if self.stopped {
                break;
            }
            level_start = level_end;
            if let Frontier::Reservoir { next, seen, .. } = &mut self.frontier {
                level_list = std::mem::take(next);
                level_list.sort_unstable();
                *seen = 0;
            }
        }
        if let Some(worker) = worker {
            self.give_worker(worker);
        }
        Ok(())
    }

    fn take_worker(&self) -> S::Worker {
        let w = self.workers.lock().map(|mut v| v.pop()).unwrap_or(None);
        w.unwrap_or_else(|| self.sys.worker())
    }

    fn give_worker(&self, w: S::Worker) {
        if let Ok(mut v) = self.workers.lock() {
            v.push(w);
        }
    }

    /// Expands one state on this thread, inserting successors directly: depth-first search,
    /// and the reference loop of [`ExploreOptions::reference_loop`].
    fn expand_seq(
        &mut self,
        s: StateId,
        worker: &mut S::Worker,
        scratch: &mut Scratch,
        sink: &mut dyn TransitionSink,
    ) -> Result<(), ExploreError<S::Error>> {
        let Scratch { cur, work, key } = scratch;
        self.table.load(s, cur);
        let width = self.table.width();
        let sys = self.sys;
        let mut count = 0u32;
        let mut err = None;
        let res = sys.successors(worker, self.table.row_of(cur), &mut |lab, row| {
            if err.is_some() || self.stopped {
                return;
            }
            count += 1;
            if row.len() != width {
                err = Some(ExploreError::Width {
                    expected: width,
                    found: row.len(),
                });
                return;
            }
            key.clear();
            let tgt = match self.table.lookup(cur, row, work, key) {
                Ok(t) => TgtIn::Known(t),
                Err(h) => TgtIn::Key(key, h),
            };
            if let Err(e) = self.accept(s, LabIn::Sys(lab), tgt, sink) {
                err = Some(e);
            }
        });
        res.map_err(|source| ExploreError::System {
            state: Some(s),
            source,
        })?;
        if let Some(e) = err {
            return Err(e);
        }
        // A state cut short by the state bound is not counted as explored (nor as a deadlock).
        if !self.stopped {
            self.finish_state(s, count);
        }
        Ok(())
    }

    /// Expands `ids` in parallel, then inserts their successors in order (numbering the new
    /// states), then indexes the new states in parallel.
    fn expand_batch(
        &mut self,
        ids: &[StateId],
        pool: &rayon::ThreadPool,
        sink: &mut dyn TransitionSink,
    ) -> Result<(), ExploreError<S::Error>> {
        let t0 = Instant::now();
        // In the pool: its threads grow the node index if need be.
        let table = &mut self.table;
        pool.install(|| table.prepare_shared(ids.len()));
        let t1 = Instant::now();
        let view = View {
            sys: self.sys,
            table: &self.table,
            label_map: &self.label_map,
            workers: &self.workers,
            batches: &self.batches,
        };
        let outs: Vec<ChunkOut<S::Label, S::Error>> = pool.install(|| {
            ids.par_chunks(CHUNK)
                .enumerate()
                .map(|(c, chunk)| view.expand_chunk(c, chunk))
                .collect()
        });
        let t2 = Instant::now();
        let res = match self.number_batch(ids, &outs, pool, sink) {
            Ok(true) => Ok(()),
            Ok(false) => self.insert_batch(ids, outs, sink),
            Err(e) => Err(e),
        };
        // Whatever ended the pass, the numbered states get their index entries.
        let new = self.table.take_unindexed();
        let t3 = Instant::now();
        let table = &self.table;
        pool.install(|| {
            new.par_chunks(INDEX_CHUNK)
                .for_each(|c| table.index_states(c))
        });
        self.table.end_shared(new);
        let t4 = Instant::now();
        let ph = &mut self.summary.phases;
        ph.grow += (t1 - t0).as_secs_f64();
        ph.expand += (t2 - t1).as_secs_f64();
        ph.number += (t3 - t2).as_secs_f64();
        ph.index += (t4 - t3).as_secs_f64();
        res
    }

    /// Interns a label.
    fn intern(
        &mut self,
        lab: &S::Label,
        sink: &mut dyn TransitionSink,
    ) -> Result<LabelId, ExploreError<S::Error>> {
        if let Some(&id) = self.label_map.get(lab) {
            return Ok(id);
        }
        let label = self.sys.label(lab);
        let id = match self.text_map.get(label.text()) {
            Some(&id) => id,
            None => {
                let id = LabelId(self.labels.len() as u32);
                sink.new_label(id, &label).map_err(ExploreError::Sink)?;
                let hit = self.opts.detect_actions.iter().any(|a| label.has_action(a));
                self.detect_flags.push(hit);
                self.text_map.insert(label.text().to_string(), id);
                self.labels.push(label);
                id
            }
        };
        self.label_map.insert(lab.clone(), id);
        Ok(id)
    }

    /// Records one successor of `from` (the sequential part; decides numbering).
    pub(super) fn accept(
        &mut self,
        from: StateId,
        lab: LabIn<'_, S::Label>,
        tgt: TgtIn<'_>,
        sink: &mut dyn TransitionSink,
    ) -> Result<(), ExploreError<S::Error>> {
        let (to, new) = match tgt {
            TgtIn::Known(t) => (t, false),
            TgtIn::Fresh(p) => self
                .table
                .insert_fresh(p)
                .ok_or(ExploreError::TooManyStates)?,
            TgtIn::Key(key, hash) => self
                .table
                .insert_key(key, hash)
                .ok_or(ExploreError::TooManyStates)?,
        };
        if new {
            if self.opts.keep_parents {
                self.parents.push(from.0);
            }
            self.on_new_state(to);
            self.note_bound();
        }
        let label = match lab {
            LabIn::Known(id) => id,
            LabIn::Sys(l) => self.intern(l, sink)?,
        };
        self.record(Transition { from, label, to }, sink)
    }

    /// Counts a transition of a numbered target, notes a detected action and hands it on.
    pub(super) fn record(
        &mut self,
        t: Transition,
        sink: &mut dyn TransitionSink,
    ) -> Result<(), ExploreError<S::Error>> {
        let label = t.label;
        self.summary.transitions += 1;
        if self
            .detect_flags
            .get(label.index())
            .copied()
            .unwrap_or(false)
        {
            self.summary.action_count += 1;
            if self.summary.action_hits.len() < self.opts.record_limit {
                self.summary.action_hits.push(ActionHit { transition: t });
            }
        }
        sink.transition(t).map_err(ExploreError::Sink)
    }

    fn on_new_state(&mut self, t: StateId) {
        match &mut self.frontier {
            Frontier::Implicit => {}
            Frontier::Stack(st) => st.push(t.0),
            Frontier::Reservoir {
                next,
                seen,
                todo_max,
                rng,
            } => {
                *seen += 1;
                if next.len() < *todo_max {
                    next.push(t.0);
                } else {
                    let j = splitmix(rng) % *seen;
                    if (j as usize) < *todo_max {
                        next[j as usize] = t.0;
                    }
                }
            }
        }
    }

    /// mCRL2's `--max`: the state that finds the bound-th state is still expanded in full
    /// (its other new successors included), then exploration stops. So the counts at the
    /// bound are mCRL2's, and a bounded run is a prefix of the full one.
    fn note_bound(&mut self) {
        if self
            .opts
            .max_states
            .is_some_and(|max| self.table.len() as u64 >= max)
        {
            self.bound_hit = true;
        }
    }

    pub(super) fn finish_state(&mut self, s: StateId, successors: u32) {
        if self.bound_hit {
            self.stopped = true;
        }
        self.summary.explored += 1;
        if successors == 0 && self.opts.detect_deadlocks {
            self.summary.deadlock_count += 1;
            if self.summary.deadlocks.len() < self.opts.record_limit {
                self.summary.deadlocks.push(s);
            }
        }
        // Checked once the state is complete, as mCRL2 checks its abort flag between states,
        // so the counts at the stop are the same for every thread count.
        if let Some(n) = self.opts.stop_after_reports {
            if self.summary.deadlock_count >= n || self.summary.action_count >= n {
                self.stopped = true;
                self.summary.stopped_at_reports = true;
            }
        }
    }

    fn report_progress(&mut self, force: bool) {
        let Some(f) = self.progress.as_mut() else {
            return;
        };
        let now = Instant::now();
        if !force && now.duration_since(self.last_report).as_secs_f64() < 1.0 {
            return;
        }
        self.last_report = now;
        f(&Progress {
            states: self.table.len() as u64,
            explored: self.summary.explored,
            transitions: self.summary.transitions,
            level: self.level,
            seconds: now.duration_since(self.start).as_secs_f64(),
        });
    }

    /// The path from the initial state to `target` as (label, state) steps, rebuilt from the
    /// parent pointers by re-expanding each state on the path (BFS: a shortest path).
    pub fn trace_to(
        &self,
        target: StateId,
    ) -> Result<Vec<(Label, StateId)>, ExploreError<S::Error>> {
        if self.parents.len() != self.table.len() {
            return Err(ExploreError::Trace(target, "parent pointers were not kept"));
        }
        if target.index() >= self.table.len() {
            return Err(ExploreError::Trace(target, "no such state"));
        }
        let mut path = vec![target];
        let mut cur = target;
        while self.parents[cur.index()] != NO_PARENT {
            cur = StateId(self.parents[cur.index()]);
            path.push(cur);
        }
        path.reverse();
        let mut worker = self.take_worker();
        let mut steps = Vec::with_capacity(path.len().saturating_sub(1));
        for w in path.windows(2) {
            let (p, c) = (w[0], w[1]);
            let want = self.table.row(c);
            let mut found: Option<S::Label> = None;
            self.sys
                .successors(&mut worker, &self.table.row(p), &mut |lab, row| {
                    if found.is_none() && row == &want[..] {
                        found = Some(lab.clone());
                    }
                })
                .map_err(|source| ExploreError::System {
                    state: Some(p),
                    source,
                })?;
            let lab = found.ok_or(ExploreError::Trace(
                target,
                "the system is not deterministic: a step on the path disappeared",
            ))?;
            steps.push((self.sys.label(&lab), c));
        }
        self.give_worker(worker);
        Ok(steps)
    }
}

/// Per-thread buffers of the sequential expansion: the cursor of the state being expanded,
/// lookup scratch, and the key of a new successor.
#[derive(Default)]
struct Scratch {
    cur: Vec<u32>,
    work: Vec<u32>,
    key: Vec<u32>,
}

/// splitmix64: a small, good-quality generator for reproducible highway sampling.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
