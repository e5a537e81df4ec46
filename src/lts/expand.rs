//! The parallel phase of the explorer ([`super::explore`]): the threads expand runs of
//! states of a batch against the state store and buffer their successors for the ordered
//! insertion pass.

use std::sync::Mutex;

use rustc_hash::FxHashMap;

use super::batch::{LookupBatch, BATCH_LOOKUPS};
use super::explore::{ChunkOut, Tgt, TransitionSystem, NEW_LABEL_BIT};
use super::table::StateStore;
use super::tree::{SharedLookup, TreeTable};
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
    pub(super) batches: &'v Mutex<Vec<LookupBatch>>,
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
        // The tree store's look-ups wait in a batch and run together (`super::batch`); the
        // entries from `first` on are those whose targets the batch has still to find.
        let tree = self.table.tree();
        let mut batch = tree.map(|t| {
            let kept = self.batches.lock().map(|mut v| v.pop()).unwrap_or(None);
            kept.unwrap_or_else(|| LookupBatch::new(t))
        });
        let mut first = 0usize;
        for &s in chunk {
            // A stop request (memory limit, timeout, Ctrl-C) ends the batch early; the
            // states after the last counted one stay unexplored.
            if crate::budget::stop_requested().is_some() {
                break;
            }
            let before = out.entries.len();
            let batch_before = batch.as_ref().map_or(0, LookupBatch::len);
            let mut bad_width = None;
            self.table.load(s, &mut cur);
            if let Some(b) = batch.as_mut() {
                b.source(&cur);
            }
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
                    let t = match batch.as_mut() {
                        Some(b) => {
                            b.push(row, position(index, out.entries.len()));
                            // Found by `resolve` once the batch has run.
                            Tgt::Known(StateId(0))
                        }
                        None => {
                            let off = out.keys.len() as u32;
                            match self.table.lookup(&cur, row, &mut work, &mut out.keys) {
                                Ok(t) => Tgt::Known(t),
                                Err(hash) => Tgt::New { off, hash },
                            }
                        }
                    };
                    out.entries.push((l, t));
                });
            let failed = bad_width.is_some() || res.is_err();
            if failed {
                out.entries.truncate(before);
                if let Some(b) = batch.as_mut() {
                    b.truncate(batch_before);
                }
            }
            if bad_width.is_some() {
                out.bad_width = bad_width;
                break;
            }
            if let Err(e) = res {
                out.error = Some(e);
                break;
            }
            out.counts.push((out.entries.len() - before) as u32);
            if let (Some(t), Some(b)) = (tree, batch.as_mut()) {
                if b.len() >= BATCH_LOOKUPS {
                    resolve(t, b, &mut out, first);
                    first = out.entries.len();
                }
            }
        }
        if let (Some(t), Some(mut b)) = (tree, batch) {
            resolve(t, &mut b, &mut out, first);
            if let Ok(mut v) = self.batches.lock() {
                v.push(b);
            }
        }
        if let Ok(mut v) = self.workers.lock() {
            v.push(worker);
        }
        out
    }
}

/// Runs the look-ups of `batch` and writes what they found into the entries of `out` from
/// `first` on (one per successor in the batch); a successor the shared tables had no room
/// for gets its tree as the key of the exclusive path. Empties the batch.
fn resolve<L, E>(
    table: &TreeTable,
    batch: &mut LookupBatch,
    out: &mut ChunkOut<L, E>,
    first: usize,
) {
    if !batch.is_empty() {
        batch.run(table);
        for (j, &f) in batch.found().iter().enumerate() {
            out.entries[first + j].1 = match f {
                SharedLookup::Known(id) => Tgt::Known(id),
                SharedLookup::Fresh(p) => Tgt::Fresh(p),
                SharedLookup::Missing => {
                    let off = out.keys.len() as u32;
                    out.keys.extend_from_slice(&batch.tree(j)[2..]);
                    Tgt::New { off, hash: 0 }
                }
            };
        }
    }
    batch.clear();
}
