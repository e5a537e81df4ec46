//! The numbering passes of a parallel batch ([`super::explore`]): the ordered insertion pass
//! on one thread, and the parallel one that gives the new states of a batch the numbers the
//! ordered pass would give them.
//!
//! A new state is numbered by the first transition to it in the order of the insertion pass
//! (chunks in state order, successors in the order the system reports them). Each shared
//! lookup notes its position with its provisional number (an atomic minimum), so after the
//! expansion every chunk can tell the entries that number a state; a count per chunk and a
//! prefix sum give each chunk its contiguous range of state numbers, and the chunks write
//! and index their new roots (and parent pointers) at once. What stays on one thread is
//! the prefix sum, the per-state bookkeeping (explored, deadlocks) and, when the sink keeps
//! transitions, handing them on in order. A batch this pass cannot number exactly as the
//! ordered pass would (the state bound falls in it, new labels, a key for the exclusive
//! path, a stop, an error, highway sampling, `--trace=NUM`) goes to the ordered pass.

use rayon::prelude::*;

use super::expand::position;
use super::explore::{
    ChunkOut, ExploreError, Explorer, Frontier, LabIn, Tgt, TgtIn, TransitionSink,
    TransitionSystem, CHUNK, NEW_LABEL_BIT, NO_PARENT,
};
use super::table::MAX_STATES;
use super::{LabelId, StateId, Transition};

/// How many entries ahead the numbering passes prefetch what they will read: their reads
/// fall on random cache lines of the tables, and this many in flight hide most of the wait.
const AHEAD: usize = 8;

/// The new states a chunk numbers, as (entry, provisional number) in entry order, or `None`
/// when it has an entry only the ordered pass can take (a store key).
fn owned<L, E>(
    table: &super::table::StateStore,
    c: usize,
    out: &ChunkOut<L, E>,
) -> Option<Vec<(u32, u32)>> {
    let mut mine = Vec::new();
    for (j, &(_, tgt)) in out.entries.iter().enumerate() {
        if let Some(&(_, Tgt::Fresh(q))) = out.entries.get(j + AHEAD) {
            table.prefetch_first(q);
        }
        match tgt {
            Tgt::Known(_) => {}
            Tgt::Fresh(p) if table.first_meets(p, position(c, j)) => mine.push((j as u32, p)),
            Tgt::Fresh(_) => {}
            Tgt::New { .. } => return None,
        }
    }
    Some(mine)
}

impl<S: TransitionSystem> Explorer<'_, S> {
    /// Numbers the new states of a batch in parallel and records its transitions; `false`,
    /// having changed nothing, when the batch needs the ordered insertion pass.
    pub(super) fn number_batch(
        &mut self,
        ids: &[StateId],
        outs: &[ChunkOut<S::Label, S::Error>],
        pool: &rayon::ThreadPool,
        sink: &mut dyn TransitionSink,
    ) -> Result<bool, ExploreError<S::Error>> {
        if self.stopped
            || !matches!(self.frontier, Frontier::Implicit)
            || self.opts.stop_after_reports.is_some()
            || !self.table.numbers_in_parallel()
        {
            return Ok(false);
        }
        let complete = ids.chunks(CHUNK).zip(outs).all(|(chunk, out)| {
            out.counts.len() == chunk.len()
                && out.error.is_none()
                && out.bad_width.is_none()
                && out.new_labels.is_empty()
        });
        if !complete {
            return Ok(false);
        }
        let table = &self.table;
        let lists: Option<Vec<Vec<(u32, u32)>>> = pool.install(|| {
            outs.par_iter()
                .enumerate()
                .map(|(c, out)| owned(table, c, out))
                .collect()
        });
        let Some(lists) = lists else {
            return Ok(false);
        };
        let counts: Vec<u32> = lists.iter().map(|l| l.len() as u32).collect();
        let total: u64 = counts.iter().map(|&n| u64::from(n)).sum();
        let len = self.table.len() as u64;
        // The bound must stop the run after the state that finds it: the ordered pass.
        if self.opts.max_states.is_some_and(|m| len + total >= m) || len + total > MAX_STATES {
            return Ok(false);
        }
        // In the pool: its threads grow the root index if need be.
        let table = &mut self.table;
        let Some(base) = pool.install(|| table.take_state_numbers(total as usize)) else {
            return Err(ExploreError::TooManyStates);
        };
        // Each chunk's new states have consecutive numbers from its base.
        let mut bases = Vec::with_capacity(counts.len());
        let mut next = base.0;
        for &n in &counts {
            bases.push(next);
            next += n;
        }
        let keep = self.opts.keep_parents;
        let at = self.parents.len();
        if keep {
            self.parents.resize(at + total as usize, NO_PARENT);
        }
        let mut rest: &mut [u32] = if keep {
            &mut self.parents[at..]
        } else {
            &mut []
        };
        let mut slices = Vec::with_capacity(counts.len());
        for &n in &counts {
            let (mine, after) =
                std::mem::take(&mut rest).split_at_mut(if keep { n as usize } else { 0 });
            slices.push(mine);
            rest = after;
        }
        let table = &self.table;
        pool.install(|| {
            outs.par_iter()
                .zip(ids.par_chunks(CHUNK))
                .zip(bases.par_iter())
                .zip(slices.into_par_iter())
                .zip(lists.par_iter())
                .for_each(|((((out, chunk), &base), parents), list)| {
                    // The source state of each entry: states in order, `end` past the
                    // entries of state `k`.
                    let (mut k, mut end) = (0usize, 0usize);
                    for (i, &(j, p)) in list.iter().enumerate() {
                        if let Some(&(_, q)) = list.get(i + AHEAD) {
                            table.prefetch_numbering(q);
                        }
                        table.number_fresh(p, StateId(base + i as u32));
                        if let Some(parent) = parents.get_mut(i) {
                            while end <= j as usize {
                                end += out.counts[k] as usize;
                                k += 1;
                            }
                            *parent = chunk[k - 1].0;
                        }
                    }
                })
        });
        // The ordered part: per state its count, and the transitions where they are wanted.
        let walk = sink.takes_transitions() || self.detect_flags.iter().any(|&f| f);
        for (chunk, out) in ids.chunks(CHUNK).zip(outs) {
            let mut e = 0usize;
            for (&count, &s) in out.counts.iter().zip(chunk) {
                let entries = &out.entries[e..e + count as usize];
                e += count as usize;
                if walk {
                    for &(label, tgt) in entries {
                        let to = match tgt {
                            Tgt::Known(t) => t,
                            Tgt::Fresh(p) => self
                                .table
                                .find_fresh(p)
                                .ok_or(ExploreError::Internal("a new state was not numbered"))?,
                            Tgt::New { .. } => {
                                return Err(ExploreError::Internal("a key in a numbered batch"))
                            }
                        };
                        let t = Transition {
                            from: s,
                            label: LabelId(label),
                            to,
                        };
                        self.record(t, sink)?;
                    }
                } else {
                    self.summary.transitions += u64::from(count);
                }
                self.finish_state(s, count);
            }
        }
        Ok(true)
    }

    /// The insertion pass of a batch: its successors in expansion order.
    pub(super) fn insert_batch(
        &mut self,
        ids: &[StateId],
        outs: Vec<ChunkOut<S::Label, S::Error>>,
        sink: &mut dyn TransitionSink,
    ) -> Result<(), ExploreError<S::Error>> {
        for (chunk, out) in ids.chunks(CHUNK).zip(outs) {
            let mut e = 0usize;
            for (k, &count) in out.counts.iter().enumerate() {
                let s = chunk[k];
                for &(lab, tgt) in &out.entries[e..e + count as usize] {
                    if self.stopped {
                        return Ok(());
                    }
                    let lab = if lab & NEW_LABEL_BIT != 0 {
                        LabIn::Sys(&out.new_labels[(lab & !NEW_LABEL_BIT) as usize])
                    } else {
                        LabIn::Known(LabelId(lab))
                    };
                    let tgt = match tgt {
                        Tgt::Known(t) => TgtIn::Known(t),
                        Tgt::Fresh(p) => TgtIn::Fresh(p),
                        Tgt::New { off, hash } => {
                            let off = off as usize;
                            TgtIn::Key(&out.keys[off..off + self.table.key_len()], hash)
                        }
                    };
                    self.accept(s, lab, tgt, sink)?;
                }
                e += count as usize;
                if self.stopped {
                    return Ok(());
                }
                self.finish_state(s, count);
            }
            if let Some(found) = out.bad_width {
                self.check_width(found)?;
            }
            if let Some(source) = out.error {
                return Err(ExploreError::System {
                    state: Some(chunk[out.counts.len()]),
                    source,
                });
            }
            if out.counts.len() < chunk.len() && self.over_budget() {
                return Ok(());
            }
        }
        Ok(())
    }
}
