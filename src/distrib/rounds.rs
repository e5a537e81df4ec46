//! One worker's part of a distributed breadth-first exploration: the level loop, its five
//! rounds, and the canonical numbering (see the module documentation of [`super`]).

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

use super::comm::{join, split, Comm};
use super::records::{push_bytes, Announced, Ctx, Dictionaries, Inbound, Owner};
use super::Portable;
use crate::budget::StopReason;
use crate::lts::generate::GenerateError;
use crate::lts::table::StateStore;
use crate::lts::{
    explore::ActionHit, BatchInsert, ExploreOptions, ExploreSummary, Label, LabelId, Progress,
    StateId, Transition, TransitionSink,
};

/// Record kinds (each a run of `u32` words; see the round that sends it).
pub(super) const SUCC: u32 = 1;
const RANK: u32 = 2;
const COUNT: u32 = 3;
const NUMBER: u32 = 4;
const CUT: u32 = 5;
/// The last word of a CUT record: why the search stops there (a bit each).
const CUT_MAX: u32 = 1;
const CUT_REPORTS: u32 = 2;
const TRANS: u32 = 6;
pub(super) const LABEL: u32 = 7;
pub(super) const DEADLOCK: u32 = 8;
const CONTROL: u32 = 9;
const ERROR: u32 = 10;
const HELLO: u32 = 11;
// 12 to 14: the walk of `super::paths`.
/// `[c, deadlock, hits]` of a state with something to report, for `stop_after_reports`.
const REPORT: u32 = 15;

/// Words of a CONTROL record.
const CONTROL_WORDS: usize = 18;

/// Per expanding worker: its labels, numbered locally and announced to worker 0.
struct LocalLabels<L> {
    codes: FxHashMap<L, u32>,
    hits: Vec<bool>,
}

/// What the owner remembers of a transition into one of its states, until the target has
/// its number: (source number, successor index, expander, label code, target's local id).
pub(super) type Pending = (u64, u32, u32, u32, u32);

/// The distributed exploration as an [`crate::lts::generate::Engine`]: every worker runs it (inside
/// [`super::execute`]); worker 0 of process 0 gets the transitions in the sequential order
/// and hands them to the sink, and with [`ExploreOptions::keep_parents`] rebuilds the paths
/// to the reported states ([`crate::lts::generate::Engine::trace_to`], then [`Dist::row`]).
pub struct Dist<'w, S: Portable> {
    pub(super) worker: &'w mut timely::worker::Worker,
    pub(super) sys: &'w S,
    pub(super) opts: ExploreOptions,
    /// Whether worker 0 writes transitions (an output file).
    pub(super) keep_transitions: bool,
    pub(super) labels: Vec<Label>,
    pub(super) progress: Option<ProgressFn>,
    /// Worker 0, with parent pointers asked for: the parent and successor index of every
    /// state on the paths to the reported states.
    pub(super) found: FxHashMap<u64, (u64, u32)>,
    /// Worker 0: the rows of the states on the paths replayed so far, in its own store.
    pub(super) rows: FxHashMap<u64, Vec<u32>>,
}

/// The progress callback of [`Engine::on_progress`].
pub(super) type ProgressFn = Box<dyn FnMut(&Progress)>;

/// Totals of one level, summed over the workers from their CONTROL records.
#[derive(Default, Clone, Copy)]
struct Totals {
    transitions: u64,
    explored: u64,
    deadlocks: u64,
    actions: u64,
    table_bytes: u64,
    sent_words: u64,
    /// Successors sent to another worker so far (the others stayed with their source's).
    remote: u64,
    stop: Option<StopReason>,
    error: bool,
}

fn stop_code(r: Option<StopReason>) -> [u32; 3] {
    match r {
        None => [0, 0, 0],
        Some(StopReason::Memory(b)) => [1, b as u32, (b >> 32) as u32],
        Some(StopReason::Timeout(s)) => [2, s as u32, (s >> 32) as u32],
        Some(StopReason::Interrupted) => [3, 0, 0],
    }
}

fn stop_of(w: &[u32]) -> Option<StopReason> {
    match w[0] {
        1 => Some(StopReason::Memory(join(w[1], w[2]))),
        2 => Some(StopReason::Timeout(join(w[1], w[2]))),
        3 => Some(StopReason::Interrupted),
        _ => None,
    }
}

impl<S: Portable> Dist<'_, S> {
    pub(super) fn explore(
        &mut self,
        sink: &mut dyn TransitionSink,
    ) -> Result<ExploreSummary, GenerateError> {
        let start = Instant::now();
        let sys = self.sys;
        let mut comm = Comm::new(self.worker);
        let (me, peers) = (comm.me, comm.peers);
        let lead = me == 0;
        let width = sys.state_width();
        let mut sw = sys.worker();
        let mut ctx = Ctx::<S> {
            store: StateStore::new(self.opts.store, width),
            codec: S::Codec::default(),
            inserter: BatchInsert::new(),
            rows: Vec::new(),
            meta: Vec::new(),
            found: Vec::new(),
        };
        let detect = !self.opts.detect_actions.is_empty();
        // Numbers of all states are kept only when transitions or action hits need their
        // targets' numbers; otherwise only the current level's.
        let keep_numbers = self.keep_transitions || detect;
        let mut numbers: Vec<u64> = Vec::new();
        let mut local_labels = LocalLabels::<S::Label> {
            codes: FxHashMap::default(),
            hits: Vec::new(),
        };
        // Worker 0: labels by (expander, code), and global label ids in order of first use.
        let mut global: FxHashMap<(u32, u32), LabelId> = FxHashMap::default();
        let mut text_ids: FxHashMap<String, LabelId> = FxHashMap::default();
        let mut summary = ExploreSummary::default();
        let partition = super::partition::Partition::choose(sys, &mut ctx.codec, peers);

        // Round 0: every process built the same symbols (or the values cannot travel).
        // The options that shape the rounds must be the same everywhere too.
        let o = &self.opts;
        let mut mine = sys.fingerprint();
        for x in [
            o.keep_parents as u64,
            o.detect_deadlocks as u64,
            o.max_states.map_or(u64::MAX, |m| m),
            o.stop_after_reports.map_or(u64::MAX, |m| m),
            o.record_limit as u64,
        ]
        .into_iter()
        .chain(partition.positions().iter().map(|&p| p as u64))
        .chain(
            o.detect_actions
                .iter()
                .flat_map(|a| a.bytes().map(u64::from).chain([256])),
        ) {
            mine = (mine ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        comm.broadcast(HELLO, &split(mine));
        let mut mismatch = false;
        for (kind, _, words) in comm.round(self.worker) {
            if kind == HELLO && words.chunks(2).any(|c| join(c[0], c[1]) != mine) {
                mismatch = true;
            }
        }
        if mismatch {
            return Err(GenerateError::Explore(
                "the processes did not build the same specification: give every process the same input file, options and muon version".into(),
            ));
        }

        // The initial state, inserted by its owner as state 0.
        let mut row = Vec::with_capacity(width);
        sys.initial_state(&mut sw, &mut row)
            .map_err(|e| GenerateError::Explore(format!("the initial state: {e}")))?;
        // The level's states of this worker, in number order: (number - the level's first
        // number, local id). Offsets within a level keep the level's bookkeeping at 8 bytes
        // a state (a level holds fewer than 2^32 states; see the check after round 3).
        let mut frontier: Vec<(u32, u32)> = Vec::new();
        let mut got = Inbound {
            dict: Dictionaries::new(peers),
            announced: FxHashMap::default(),
            deadlocks: Vec::new(),
            errors: Vec::new(),
        };
        if partition.owner(sys, &mut ctx.codec, &row) == me {
            let lid = ctx.insert(&row)?.0;
            frontier.push((0, lid));
            if keep_numbers {
                numbers.push(0);
            }
        }
        let max = self.opts.max_states;
        let record_limit = self.opts.record_limit;
        let mut total_states: u64 = 1;
        let mut stopped_by: Option<StopReason> = None;
        let mut stopped_at_max = max.is_some_and(|m| m <= 1);
        let mut cur = Vec::new();
        let mut deadlocks_sent = 0usize;
        let mut remote: u64 = 0;
        let mut last_report = start;
        // Worker 0: the action hits and deadlocks so far, in the sequential order.
        let mut hits: Vec<ActionHit> = Vec::new();

        let mut levels = super::paths::Levels::new(peers);
        let mut parents = super::paths::Parents::default();
        let mut level_size: u64 = 1;
        loop {
            // The level's states have numbers `lo..total_states`; each worker expands its
            // own in number order.
            let lo = total_states - level_size;
            summary.levels += 1;
            got.dict.start_level();
            if stopped_at_max {
                // A bound of 0 or 1 keeps even the initial state unexplored, as in mCRL2.
                break;
            }

            // Round 1: expand. Successor j of state c goes to its owner as
            // [c, j, label code, value words]; new labels go to worker 0. Owners look up
            // the successors sent to them as they arrive (rounds 1 and 2 overlap, so a
            // level's messages never pile up): a new state remembers the first transition
            // to it in the sequential order.
            let mut own = Owner {
                lo,
                base: ctx.store.len() as u32,
                first: Vec::new(),
                pending: Vec::new(),
            };
            // Per expanded state, in frontier order: its successors, action hits and
            // successors sent to another worker (12 bytes; the level's bookkeeping, not the
            // store, bounds a worker's memory). Only the states before a cut count.
            let mut per_state: Vec<(u32, u32, u32)> = Vec::with_capacity(frontier.len());
            for &(off, lid) in &frontier {
                let c = lo + off as u64;
                if !got.errors.is_empty() || stopped_by.is_some() {
                    break;
                }
                if per_state.len() % 64 == 63 {
                    if per_state.len() % 256 == 255 {
                        stopped_by = crate::budget::poll_stop();
                    }
                    let arrived = comm.poll(self.worker);
                    self.receive(&mut own, &mut ctx, &mut got, arrived);
                }
                ctx.store.load(StateId(lid), &mut cur);
                let [c0, c1] = split(c);
                let (mut n, mut state_hits, mut state_remote) = (0u32, 0u32, 0u32);
                let mut failed: Option<String> = None;
                let opts = &self.opts;
                let src = ctx.store.row_of(&cur);
                let mut src_key = None;
                let r = sys.successors(&mut sw, src, &mut |lab, next| {
                    if failed.is_some() {
                        return;
                    }
                    if next.len() != width {
                        failed = Some(format!(
                            "the system produced a state of {} words, but its states have {width}",
                            next.len()
                        ));
                        return;
                    }
                    let code = match local_labels.codes.get(lab) {
                        Some(&code) => code,
                        None => {
                            let label = sys.label(lab);
                            let code = local_labels.hits.len() as u32;
                            local_labels
                                .hits
                                .push(opts.detect_actions.iter().any(|a| label.has_action(a)));
                            local_labels.codes.insert(lab.clone(), code);
                            let mut rec = vec![code];
                            push_bytes(
                                &mut rec,
                                &postcard::to_allocvec(&label).unwrap_or_default(),
                            );
                            comm.push(0, LABEL, &rec);
                            code
                        }
                    };
                    let hit = local_labels.hits[code as usize];
                    state_hits += hit as u32;
                    let owner = partition.successor_owner(
                        sys,
                        &mut ctx.codec,
                        (src, me),
                        &mut src_key,
                        next,
                    );
                    if owner == me {
                        // This worker's own successor: looked up from its source's tree
                        // below, with no record sent to itself.
                        ctx.rows.extend_from_slice(next);
                        ctx.meta.push((c, n, code | (hit as u32) << 31));
                        n += 1;
                        return;
                    }
                    state_remote += 1;
                    let head = [c0, c1, n, code | (hit as u32) << 31];
                    got.dict
                        .send(sys, &mut ctx.codec, &mut comm, owner, head, next);
                    n += 1;
                });
                if let Err(e) = r {
                    failed = Some(format!(
                        "while exploring state {c} {}: {e}",
                        sys.format_state(ctx.store.row_of(&cur))
                    ));
                }
                if let Some(e) = failed {
                    // The own successors found before the failure are not looked up.
                    ctx.rows.clear();
                    ctx.meta.clear();
                    got.errors.push(e);
                    break;
                }
                if !ctx.meta.is_empty()
                    && !self.keep(&mut own, &mut ctx, &mut got.errors, me, Some(&cur))
                {
                    break;
                }
                let deadlock = n == 0 && self.opts.detect_deadlocks;
                if deadlock && deadlocks_sent < record_limit {
                    deadlocks_sent += 1;
                    comm.push(0, DEADLOCK, &split(c));
                }
                per_state.push((n, state_hits, state_remote));
            }
            // The end of round 1: the others' successors are looked up as they arrive, not
            // held until everyone has expanded (a worker that finished first would hold
            // the rest of the level's records).
            comm.finish();
            loop {
                let done = comm.settled();
                let arrived = comm.take_finished();
                self.receive(&mut own, &mut ctx, &mut got, arrived);
                if done {
                    break;
                }
                comm.wait(self.worker);
            }
            let Owner {
                base,
                first,
                pending,
                ..
            } = own;
            let span = level_size.max(1);
            let ranker = |c: u64| (((c - lo) as u128 * peers as u128) / span as u128) as u32;
            for (k, &(off, j)) in first.iter().enumerate() {
                let c = lo + off as u64;
                let [c0, c1] = split(c);
                comm.push(ranker(c), RANK, &[c0, c1, j, base + k as u32]);
            }
            drop(first);
            let deadlock_at = |n: u32| n == 0 && self.opts.detect_deadlocks;
            // With `stop_after_reports = n`, everyone is told of the first n states of
            // this worker that report something: the level's first n are among them.
            if let Some(n) = self.opts.stop_after_reports {
                let reporting = frontier
                    .iter()
                    .zip(&per_state)
                    .filter(|(_, &(n, h, _))| h > 0 || deadlock_at(n));
                for (&(off, _), &(n, h, _)) in reporting.take(n as usize) {
                    let [c0, c1] = split(lo + off as u64);
                    comm.broadcast(REPORT, &[c0, c1, deadlock_at(n) as u32, h]);
                }
            }
            let inbox = comm.round(self.worker);

            // Round 3: each ranker sorts the positions it got and tells everyone how many.
            // (source number - lo, successor index, owner, owner's local id).
            let mut ranks: Vec<(u32, u32, u32, u32)> = Vec::new();
            let mut reports: Vec<(u64, u32, u32)> = Vec::new();
            for (kind, sender, recs) in inbox {
                if kind == RANK {
                    for r in recs.chunks(4) {
                        ranks.push(((join(r[0], r[1]) - lo) as u32, r[2], sender, r[3]));
                    }
                } else if kind == REPORT {
                    reports.extend(recs.chunks(4).map(|r| (join(r[0], r[1]), r[2], r[3])));
                }
            }
            ranks.sort_unstable();
            // The state after which a sequential search stops for its reports (checked
            // once a state is complete, as there).
            let report_stop = self.opts.stop_after_reports.and_then(|n| {
                reports.sort_unstable();
                let (mut d, mut a) = (summary.deadlock_count, summary.action_count);
                reports.iter().find_map(|&(c, dl, h)| {
                    d += dl as u64;
                    a += h as u64;
                    (d >= n || a >= n).then_some(c)
                })
            });
            comm.broadcast(COUNT, &split(ranks.len() as u64));
            let inbox = comm.round(self.worker);
            let mut counts = vec![0u64; peers as usize];
            for (kind, sender, recs) in inbox {
                if kind == COUNT {
                    counts[sender as usize] = join(recs[0], recs[1]);
                }
            }
            let new_total: u64 = counts.iter().sum();
            if new_total >= u32::MAX as u64 {
                // Every worker sees the same counts: all stop here alike.
                return Err(GenerateError::Explore(format!(
                    "a breadth-first level of more than {} states: the distributed search numbers a level's states in 32 bits",
                    u32::MAX - 1
                )));
            }
            if self.opts.keep_parents {
                levels.push(total_states, &counts);
            }

            // Round 4: rankers number their positions; the one that holds the state that
            // reaches the bound tells everyone where the sequential search stops: after
            // the source of that state, keeping the states it found.
            let offset = total_states + counts[..me as usize].iter().sum::<u64>();
            if self.opts.keep_parents {
                parents.push_run(offset, ranks.iter().map(|r| (lo + r.0 as u64, r.1)));
            }
            for (k, &(_, _, owner, lid)) in ranks.iter().enumerate() {
                let n = split(offset + k as u64);
                comm.push(owner, NUMBER, &[lid, n[0], n[1]]);
            }
            if let Some(m) = max {
                if total_states + new_total >= m {
                    let k = m - 1;
                    if (offset..offset + ranks.len() as u64).contains(&k) {
                        let src = ranks[(k - offset) as usize].0;
                        let kept = ranks.partition_point(|r| r.0 <= src) as u64;
                        let src = lo + src as u64;
                        let [s0, s1] = split(src);
                        let [n0, n1] = split(offset + kept);
                        comm.broadcast(CUT, &[s0, s1, n0, n1, CUT_MAX]);
                    }
                }
            }
            if let Some(src) = report_stop {
                if ranker(src) == me {
                    let kept = ranks.partition_point(|r| lo + (r.0 as u64) <= src) as u64;
                    let [s0, s1] = split(src);
                    let [n0, n1] = split(offset + kept);
                    comm.broadcast(CUT, &[s0, s1, n0, n1, CUT_REPORTS]);
                }
            }
            drop(ranks);
            let inbox = comm.round(self.worker);

            // Round 5: owners number their new states and send worker 0 the level's
            // transitions (or hits); every worker reports its counts.
            let mut cut: Option<(u64, u64)> = None;
            let mut cut_why = 0u32;
            // Per new state of this worker: its number - total_states (u32::MAX: none).
            let mut new_numbers = vec![u32::MAX; (ctx.store.len() as u32 - base) as usize];
            for (kind, _, recs) in inbox {
                match kind {
                    NUMBER => {
                        for r in recs.chunks(3) {
                            new_numbers[(r[0] - base) as usize] =
                                (join(r[1], r[2]) - total_states) as u32;
                        }
                    }
                    CUT => {
                        // Of a bound's cut and the reports', the earlier (both when at the
                        // same state: the sequential search says it stopped for reports).
                        for r in recs.chunks(5) {
                            let (src, states) = (join(r[0], r[1]), join(r[2], r[3]));
                            match cut {
                                Some((s, _)) if s < src => {}
                                Some((s, _)) if s == src => cut_why |= r[4],
                                _ => {
                                    cut = Some((src, states));
                                    cut_why = r[4];
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            let keep_below = cut.map_or(u64::MAX, |(_, states)| states);
            let last_source = cut.map_or(u64::MAX, |(src, _)| src);
            if keep_numbers {
                numbers.extend(new_numbers.iter().map(|&n| {
                    if n == u32::MAX {
                        u64::MAX
                    } else {
                        total_states + n as u64
                    }
                }));
            }
            let mut next: Vec<(u32, u32)> = new_numbers
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n != u32::MAX && total_states + (n as u64) < keep_below)
                .map(|(k, &n)| (n, base + k as u32))
                .collect();
            next.sort_unstable();
            drop(new_numbers);
            for &(c, j, expander, code, lid) in &pending {
                if c > last_source {
                    continue;
                }
                let t = split(numbers[lid as usize]);
                let [c0, c1] = split(c);
                comm.push(0, TRANS, &[c0, c1, j, expander, code, t[0], t[1]]);
            }
            let mut ctl = [0u32; CONTROL_WORDS];
            let mut done = (0u64, 0u64, 0u64, 0u64);
            for (&(off, _), &(n, h, r)) in frontier.iter().zip(&per_state) {
                if lo + off as u64 > last_source {
                    break;
                }
                remote += r as u64;
                done.0 += 1;
                done.1 += n as u64;
                done.2 += h as u64;
                done.3 += deadlock_at(n) as u64;
            }
            let sent = comm.sent_words;
            for (i, v) in [
                done.0,
                done.1,
                done.2,
                done.3,
                ctx.store.memory_bytes() as u64,
                sent,
                remote,
            ]
            .into_iter()
            .enumerate()
            {
                ctl[2 * i..2 * i + 2].copy_from_slice(&split(v));
            }
            let stop_here = stopped_by.or_else(crate::budget::poll_stop);
            ctl[14..17].copy_from_slice(&stop_code(stop_here));
            ctl[17] = !got.errors.is_empty() as u32;
            comm.broadcast(CONTROL, &ctl);
            if let Some(e) = got.errors.first() {
                let mut rec = Vec::new();
                push_bytes(&mut rec, e.as_bytes());
                comm.push(0, ERROR, &rec);
            }
            let inbox = comm.round(self.worker);

            // Everyone: the level's totals. Worker 0: the level's transitions in the
            // sequential order.
            let mut t = Totals::default();
            let mut trans: Vec<[u32; 7]> = Vec::new();
            for (kind, _, recs) in inbox {
                match kind {
                    CONTROL => {
                        let v = |i: usize| join(recs[2 * i], recs[2 * i + 1]);
                        t.explored += v(0);
                        t.transitions += v(1);
                        t.actions += v(2);
                        t.deadlocks += v(3);
                        t.table_bytes += v(4);
                        t.sent_words += v(5);
                        t.remote += v(6);
                        t.stop = t.stop.or(stop_of(&recs[14..17]));
                        t.error |= recs[17] != 0;
                    }
                    TRANS => trans.extend(recs.chunks(7).map(|r| {
                        let mut a = [0u32; 7];
                        a.copy_from_slice(r);
                        a
                    })),
                    ERROR => {
                        let len = recs[0] as usize;
                        let bytes: Vec<u8> = recs[1..]
                            .iter()
                            .flat_map(|w| w.to_le_bytes())
                            .take(len)
                            .collect();
                        got.errors
                            .push(String::from_utf8_lossy(&bytes).into_owned());
                    }
                    _ => {}
                }
            }
            if t.error {
                let e = got
                    .errors
                    .first()
                    .cloned()
                    .unwrap_or_else(|| "another worker failed".to_string());
                return Err(GenerateError::Explore(e));
            }
            if lead {
                // A failure here (the output cannot be written) stops every worker at the
                // next level's count, as any worker's error does.
                if let Err(e) = self.hand_on(
                    &mut trans,
                    &got.announced,
                    &mut global,
                    &mut text_ids,
                    &mut hits,
                    sink,
                ) {
                    got.errors.push(e);
                }
            }
            summary.explored += t.explored;
            summary.transitions += t.transitions;
            summary.action_count += t.actions;
            summary.deadlock_count += t.deadlocks;
            summary.table_bytes = t.table_bytes;
            summary.sent_bytes = 4 * t.sent_words;
            summary.remote_successors = t.remote;
            let kept_new = cut.map_or(new_total, |(_, states)| states - total_states);
            total_states += kept_new;
            let numbered = self.keep_transitions || detect || self.opts.detect_deadlocks;
            if numbered && total_states > u32::MAX as u64 {
                got.errors.push(format!(
                    "more than {} states: an output file and deadlock or action reports number states in 32 bits; count the state space without them",
                    u32::MAX
                ));
            }
            summary.states = total_states;
            level_size = kept_new;
            frontier = next;
            if let Some(f) = self.progress.as_mut() {
                if lead && last_report.elapsed() >= Duration::from_secs(1) {
                    last_report = Instant::now();
                    f(&Progress {
                        states: total_states,
                        explored: summary.explored,
                        transitions: summary.transitions,
                        level: summary.levels,
                        seconds: start.elapsed().as_secs_f64(),
                    });
                }
            }
            if let Some(r) = t.stop {
                stopped_by = Some(r);
                break;
            }
            if cut.is_some() {
                if cut_why & CUT_REPORTS != 0 {
                    summary.stopped_at_reports = true;
                } else {
                    stopped_at_max = true;
                }
                break;
            }
            if kept_new == 0 {
                break;
            }
        }
        let failed = got.errors.first().cloned();
        if lead {
            got.deadlocks.sort_unstable();
            let explored = summary.explored;
            if stopped_by.is_none() {
                got.deadlocks.retain(|d| (d.0 as u64) < explored);
            }
            got.deadlocks.truncate(record_limit);
            summary.deadlocks = got.deadlocks;
            summary.action_hits = hits;
        }
        if self.opts.keep_parents {
            let targets: Vec<u64> = summary
                .deadlocks
                .iter()
                .copied()
                .chain(
                    summary
                        .action_hits
                        .iter()
                        .flat_map(|h| [h.transition.from, h.transition.to]),
                )
                .map(|s| s.0 as u64)
                .collect();
            let walk = super::paths::walk(
                &mut comm,
                self.worker,
                &levels,
                &parents,
                &targets,
                failed.clone(),
            );
            self.found = walk.map_err(GenerateError::Explore)?;
            summary.parent_bytes = parents.bytes() as u64;
        }
        if let Some(e) = failed {
            return Err(GenerateError::Explore(e));
        }
        summary.states = total_states;
        summary.stopped_at_max = stopped_at_max && stopped_by.is_none();
        summary.stopped_by = stopped_by;
        summary.seconds = start.elapsed().as_secs_f64();
        Ok(summary)
    }
}

impl<S: Portable> Dist<'_, S> {
    /// Worker 0: hands a level's transitions to the sink in the sequential order (by
    /// source number, then successor index), numbering labels in order of first use, and
    /// keeps the first action hits.
    fn hand_on(
        &mut self,
        trans: &mut [[u32; 7]],
        announced: &Announced,
        global: &mut FxHashMap<(u32, u32), LabelId>,
        text_ids: &mut FxHashMap<String, LabelId>,
        hits: &mut Vec<ActionHit>,
        sink: &mut dyn TransitionSink,
    ) -> Result<(), String> {
        trans.sort_unstable_by_key(|r| (join(r[0], r[1]), r[2]));
        for r in trans.iter() {
            let key = (r[3], r[4] & !(1 << 31));
            let label = match global.get(&key) {
                Some(&id) => id,
                None => {
                    let l = announced
                        .get(&key)
                        .cloned()
                        .ok_or("a label was not announced")?;
                    let id = match text_ids.get(l.text()) {
                        Some(&id) => id,
                        None => {
                            let id = LabelId(self.labels.len() as u32);
                            sink.new_label(id, &l)
                                .map_err(|e| format!("cannot write the transitions: {e}"))?;
                            text_ids.insert(l.text().to_string(), id);
                            self.labels.push(l);
                            id
                        }
                    };
                    global.insert(key, id);
                    id
                }
            };
            let tr = Transition {
                from: StateId(join(r[0], r[1]) as u32),
                label,
                to: StateId(join(r[5], r[6]) as u32),
            };
            if r[4] >> 31 == 1 && hits.len() < self.opts.record_limit {
                hits.push(ActionHit { transition: tr });
            }
            if self.keep_transitions {
                sink.transition(tr)
                    .map_err(|e| format!("cannot write the transitions: {e}"))?;
            }
        }
        Ok(())
    }
}
