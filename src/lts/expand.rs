//! The parallel phase of the explorer ([`super::explore`]): the threads expand runs of
//! states of a batch against the state store and buffer their successors for the ordered
//! insertion pass.

use std::sync::Mutex;

use rustc_hash::FxHashMap;

use super::explore::{ChunkOut, Tgt, TransitionSystem, NEW_LABEL_BIT};
use super::table::{Probe, StateStore};
use super::{LabelId, StateId};

/// The place of entry `entry` of the chunk numbered `chunk` in its batch, in the order of
/// the insertion pass (chunks in state order, entries in successor order).
#[inline]
pub(super) fn position(chunk: usize, entry: usize) -> u64 {
    ((chunk as u64) << 32) | entry as u64
}

/// The read-only part of an [`Explorer`](super::Explorer) shared by the threads of the parallel phase.
pub(super) struct View<'v, S: TransitionSystem> {
    pub(super) sys: &'v S,
    pub(super) table: &'v StateStore,
    pub(super) label_map: &'v FxHashMap<S::Label, LabelId>,
    pub(super) workers: &'v Mutex<Vec<S::Worker>>,
}

impl<S: TransitionSystem> View<'_, S> {
    /// The parallel phase for a run of states: successors with known targets and labels
    /// resolved against the (read-only) tables.
    /// `index` is the chunk's place in its batch (for [`position`]).
    pub(super) fn expand_chunk(
        &self,
        index: usize,
        chunk: &[StateId],
    ) -> ChunkOut<S::Label, S::Error> {
        let mut worker = self
            .workers
            .lock()
            .map(|mut v| v.pop())
            .unwrap_or(None)
            .unwrap_or_else(|| self.sys.worker());
        let width = self.table.width();
        let mut out = ChunkOut {
            counts: Vec::with_capacity(chunk.len()),
            entries: Vec::new(),
            keys: Vec::new(),
            new_labels: Vec::new(),
            error: None,
            bad_width: None,
        };
        let mut local_labels: FxHashMap<S::Label, u32> = FxHashMap::default();
        let (mut cur, mut work) = (Vec::new(), Vec::new());
        for &s in chunk {
            // A stop request (memory limit, timeout, Ctrl-C) ends the batch early; the
            // states after the last counted one stay unexplored.
            if crate::budget::stop_requested().is_some() {
                break;
            }
            let before = out.entries.len();
            let mut bad_width = None;
            self.table.load(s, &mut cur);
            let res = self
                .sys
                .successors(&mut worker, self.table.row_of(&cur), &mut |lab, row| {
                    if row.len() != width {
                        bad_width = Some(row.len());
                        return;
                    }
                    let l = match self.label_map.get(lab) {
                        Some(id) => id.0,
                        None => {
                            let n = out.new_labels.len() as u32;
                            *local_labels.entry(lab.clone()).or_insert_with(|| {
                                out.new_labels.push(lab.clone());
                                n
                            }) | NEW_LABEL_BIT
                        }
                    };
                    let off = out.keys.len() as u32;
                    let pos = position(index, out.entries.len());
                    let t = match self
                        .table
                        .lookup_shared(&cur, row, &mut work, &mut out.keys, pos)
                    {
                        Probe::Known(t) => Tgt::Known(t),
                        Probe::Fresh(p) => Tgt::Fresh(p),
                        Probe::Key(hash) => Tgt::New { off, hash },
                    };
                    out.entries.push((l, t));
                });
            if bad_width.is_some() {
                out.bad_width = bad_width;
                out.entries.truncate(before);
                break;
            }
            if let Err(e) = res {
                out.error = Some(e);
                out.entries.truncate(before);
                break;
            }
            out.counts.push((out.entries.len() - before) as u32);
        }
        if let Ok(mut v) = self.workers.lock() {
            v.push(worker);
        }
        out
    }
}
