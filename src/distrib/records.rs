//! The successor records between workers: how the expanding worker writes a successor
//! owned elsewhere (as a difference from the previous row it sent that worker, its values
//! by dictionary id), and how the owner reads them, looks their rows up in its part of the
//! state space and keeps each new state's first position (see [`super`]).

use rustc_hash::FxHashMap;

use super::comm::{join, Comm};
use super::rounds::{Dist, Pending, DEADLOCK, LABEL, SUCC};
use super::Portable;
use crate::lts::generate::GenerateError;
use crate::lts::table::StateStore;
use crate::lts::{BatchInsert, Label, StateId};

/// The most received rows decoded before their look-ups run (a bound on the scratch, which
/// holds a whole row and a position per row).
pub(super) const ABSORB_ROWS: usize = 4096;
/// A successor record starts with this word; a value definition with [`DEF`]. A successor
/// record is `[STATE, source number (2 words), successor index, label code | hit bit, k,
/// k (position, word) pairs]`: the row is the previous row sent to that worker in the
/// level with those positions changed (all of them in the level's first), a word being a
/// dictionary id or, at a literal position, the word itself.
pub(super) const STATE: u32 = 0;
/// `[DEF, id, length, value words]`: the sender's dictionary id `id` stands for this value
/// from now on (successor records name values by these ids, one word each).
pub(super) const DEF: u32 = 1;

/// Per destination, the ids of the values already defined there (one dictionary per pair
/// of workers: ids are the sender's).
pub(super) struct Dictionaries {
    /// Per destination, per row word: id + 1 (0: not yet defined there).
    sent: Vec<Vec<u32>>,
    next: Vec<u32>,
    /// Per sender, per id: the row word in this worker's store.
    received: Vec<Vec<u32>>,
    /// Per destination: the last row sent there in this level (this worker's words; empty
    /// before the level's first). A successor record holds only the words that differ
    /// from it: successors of one source follow each other, and differ in a few.
    last_sent: Vec<Vec<u32>>,
    /// Per sender: the last row received from it in this level, in this worker's words.
    last_received: Vec<Vec<u32>>,
    /// Scratch of [`Dictionaries::send`]: the record and a value definition being written.
    words: Vec<u32>,
    def: Vec<u32>,
}

impl Dictionaries {
    /// Empty dictionaries for a run of `peers` workers.
    pub(super) fn new(peers: u32) -> Dictionaries {
        let per_peer = || vec![Vec::new(); peers as usize];
        Dictionaries {
            sent: per_peer(),
            next: vec![0; peers as usize],
            received: per_peer(),
            last_sent: per_peer(),
            last_received: per_peer(),
            words: Vec::new(),
            def: Vec::new(),
        }
    }

    /// Starts a level: its first record to (and from) each worker holds a whole row.
    pub(super) fn start_level(&mut self) {
        for r in self.last_sent.iter_mut().chain(&mut self.last_received) {
            r.clear();
        }
    }

    /// Sends `owner` the successor record of row `next` (`head`: source number, successor
    /// index, label code | hit bit): the positions where it differs from the previous row
    /// sent there in the level, each value defined first where `owner` has not seen it.
    pub(super) fn send<S: Portable>(
        &mut self,
        sys: &S,
        codec: &mut S::Codec,
        comm: &mut Comm,
        owner: u32,
        head: [u32; 4],
        next: &[u32],
    ) {
        let (words, def) = (&mut self.words, &mut self.def);
        words.clear();
        words.push(STATE);
        words.extend_from_slice(&head);
        words.push(0);
        let sent = &mut self.sent[owner as usize];
        let last = &mut self.last_sent[owner as usize];
        let whole = last.is_empty();
        for (pos, &v) in next.iter().enumerate() {
            if !whole && last[pos] == v {
                continue;
            }
            words.push(pos as u32);
            if sys.literal(pos) {
                words.push(v);
                continue;
            }
            if sent.len() <= v as usize {
                sent.resize(v as usize + 1, 0);
            }
            if sent[v as usize] == 0 {
                let id = self.next[owner as usize];
                self.next[owner as usize] += 1;
                sent[v as usize] = id + 1;
                def.clear();
                def.extend_from_slice(&[DEF, id, 0]);
                sys.encode_value(codec, v, def);
                def[2] = (def.len() - 3) as u32;
                comm.push(owner, SUCC, def);
            }
            words.push(sent[v as usize] - 1);
        }
        words[5] = ((words.len() - 6) / 2) as u32;
        last.clear();
        last.extend_from_slice(next);
        comm.push(owner, SUCC, words);
    }
}

/// A worker's part of the state space and its scratch.
pub(super) struct Ctx<S: Portable> {
    pub(super) store: StateStore,
    pub(super) codec: S::Codec,
    /// The look-ups of received rows, pipelined (`lts::BatchInsert`).
    pub(super) inserter: BatchInsert,
    /// Rows waiting for their look-ups (decoded from one batch of records, or the own
    /// successors of the state being expanded), their positions, and what each found.
    pub(super) rows: Vec<u32>,
    pub(super) meta: Vec<(u64, u32, u32)>,
    pub(super) found: Vec<(StateId, bool)>,
}

impl<S: Portable> Ctx<S> {
    /// Inserts the `n` rows of `self.rows` into the store, in order; their (local id, new)
    /// in `self.found`. With `src`, the tree of the state they are successors of (as
    /// [`StateStore::load`] gives it), each is looked up from there: its unchanged subtrees
    /// are the source's, so only the changed paths are probed.
    fn insert_rows(&mut self, n: usize, src: Option<&[u32]>) -> Result<(), GenerateError> {
        self.found.clear();
        let done = match (src, self.store.tree_mut()) {
            (Some(src), Some(tree)) => {
                self.inserter
                    .insert_from(tree, src, &self.rows, n, &mut self.found)
            }
            _ => self
                .inserter
                .insert(&mut self.store, &self.rows, n, &mut self.found),
        };
        done.ok_or_else(|| {
                GenerateError::Explore(
                    "a worker's part of the state space has more than 2^32 states or tree nodes: use more workers".into(),
                )
            })
    }

    /// Inserts `row` into the store: (local id, new).
    pub(super) fn insert(&mut self, row: &[u32]) -> Result<(u32, bool), GenerateError> {
        self.rows.clear();
        self.rows.extend_from_slice(row);
        let inserted = self.insert_rows(1, None);
        // The scratch is the received rows' (`absorb`): nothing of this row stays in it.
        self.rows.clear();
        inserted?;
        Ok((self.found[0].0 .0, self.found[0].1))
    }
}

/// What an owner gathers in a level: its new states' first positions and, when targets
/// are needed, the transitions into its states.
pub(super) struct Owner {
    /// The number of the level's first state.
    pub(super) lo: u64,
    pub(super) base: u32,
    /// Per new state: the least (source number - `lo`, successor index) that reached it.
    pub(super) first: Vec<(u32, u32)>,
    pub(super) pending: Vec<Pending>,
}

/// Worker 0's label tables: labels by (expander, code) as announced, global ids by the
/// same key and by text.
pub(super) type Announced = FxHashMap<(u32, u32), Label>;

/// What a worker takes in besides its states: the value dictionaries of its peers, and on
/// worker 0 the announced labels and the deadlocks; and the run's errors so far.
pub(super) struct Inbound {
    pub(super) dict: Dictionaries,
    pub(super) announced: Announced,
    pub(super) deadlocks: Vec<StateId>,
    pub(super) errors: Vec<String>,
}

impl<S: Portable> Dist<'_, S> {
    /// Takes in the records of round 1 that have arrived: successors are looked up (a new
    /// state keeps its least position), label texts and deadlocks are kept for worker 0.
    /// A record that cannot be read is an error of the run, reported at the level's count.
    pub(super) fn receive(
        &self,
        own: &mut Owner,
        ctx: &mut Ctx<S>,
        got: &mut Inbound,
        records: Vec<(u32, u32, Vec<u32>)>,
    ) {
        for (kind, sender, recs) in records {
            match kind {
                SUCC => self.absorb(own, ctx, got, sender, &recs),
                LABEL => {
                    let mut i = 0;
                    while i < recs.len() {
                        let code = recs[i];
                        let (bytes, next) = take_bytes(&recs, i + 1);
                        i = next;
                        match postcard::from_bytes::<Label>(&bytes) {
                            Ok(label) => {
                                got.announced.insert((sender, code), label);
                            }
                            Err(e) => got.errors.push(format!("a label cannot be read: {e}")),
                        }
                    }
                }
                DEADLOCK => {
                    for c in recs.chunks(2) {
                        got.deadlocks.push(StateId(join(c[0], c[1]) as u32));
                    }
                }
                _ => {}
            }
        }
    }

    /// Looks up the successors of one SUCC batch, defining the values it defines: the
    /// records are decoded first, then looked up together (`lts::BatchInsert`), then kept
    /// in order.
    fn absorb(
        &self,
        own: &mut Owner,
        ctx: &mut Ctx<S>,
        got: &mut Inbound,
        sender: u32,
        recs: &[u32],
    ) {
        let errors = &mut got.errors;
        let width = self.sys.state_width();
        let values = &mut got.dict.received[sender as usize];
        let last = &mut got.dict.last_received[sender as usize];
        ctx.rows.clear();
        ctx.meta.clear();
        let mut i = 0;
        'records: while i < recs.len() {
            if recs[i] == DEF {
                let (id, n) = (recs.get(i + 1), recs.get(i + 2));
                let (Some(&id), Some(&n)) = (id, n) else {
                    errors.push("a value definition was cut short".into());
                    break;
                };
                let Some(words) = recs.get(i + 3..i + 3 + n as usize) else {
                    errors.push("a value definition was cut short".into());
                    break;
                };
                i += 3 + n as usize;
                match self.sys.decode_value(&mut ctx.codec, words) {
                    Ok(v) if id as usize == values.len() => values.push(v),
                    Ok(_) => {
                        errors.push("value definitions arrived out of order".into());
                        break;
                    }
                    Err(e) => {
                        errors.push(e.to_string());
                        break;
                    }
                }
                continue;
            }
            let Some(r) = recs.get(i..i + 6) else {
                errors.push("a successor record was cut short".into());
                break;
            };
            let k = r[5] as usize;
            let Some(changes) = recs.get(i + 6..i + 6 + 2 * k) else {
                errors.push("a successor record was cut short".into());
                break;
            };
            i += 6 + 2 * k;
            let whole = last.is_empty();
            if whole {
                if k != width
                    || changes
                        .chunks(2)
                        .enumerate()
                        .any(|(i, c)| c[0] as usize != i)
                {
                    errors.push(
                        "a level's first successor record from a worker is not a whole row".into(),
                    );
                    break;
                }
                last.resize(width, 0);
            }
            for c in changes.chunks(2) {
                let (pos, id) = (c[0] as usize, c[1]);
                if pos >= width {
                    errors.push(format!(
                        "a successor record changes position {pos} of {width}"
                    ));
                    break 'records;
                }
                last[pos] = if self.sys.literal(pos) {
                    id
                } else {
                    match values.get(id as usize) {
                        Some(&v) => v,
                        None => {
                            errors.push(format!("value {id} was used before it was defined"));
                            break 'records;
                        }
                    }
                };
            }
            ctx.rows.extend_from_slice(last);
            ctx.meta.push((join(r[1], r[2]), r[3], r[4]));
            if ctx.meta.len() == ABSORB_ROWS && !self.keep(own, ctx, errors, sender, None) {
                return;
            }
        }
        self.keep(own, ctx, errors, sender, None);
    }

    /// Looks up the rows `absorb` decoded (or the expansion kept, successors of the state
    /// whose tree is `src`) and keeps, in order, each new state's first position and the
    /// transitions wanted; false after an error.
    pub(super) fn keep(
        &self,
        own: &mut Owner,
        ctx: &mut Ctx<S>,
        errors: &mut Vec<String>,
        sender: u32,
        src: Option<&[u32]>,
    ) -> bool {
        if let Err(e) = ctx.insert_rows(ctx.meta.len(), src) {
            errors.push(e.to_string());
            ctx.rows.clear();
            ctx.meta.clear();
            return false;
        }
        for (&(c, j, code), &(lid, new)) in ctx.meta.iter().zip(&ctx.found) {
            let lid = lid.0;
            if lid >= own.base {
                let k = (lid - own.base) as usize;
                let at = ((c - own.lo) as u32, j);
                if new {
                    own.first.push(at);
                } else if at < own.first[k] {
                    own.first[k] = at;
                }
            }
            if self.keep_transitions || code >> 31 == 1 {
                own.pending.push((c, j, sender, code, lid));
            }
        }
        ctx.rows.clear();
        ctx.meta.clear();
        true
    }
}

/// Appends `bytes` to `rec` as its length and then little-endian words.
pub(super) fn push_bytes(rec: &mut Vec<u32>, bytes: &[u8]) {
    rec.push(bytes.len() as u32);
    rec.extend(bytes.chunks(4).map(|c| {
        let mut w = [0u8; 4];
        w[..c.len()].copy_from_slice(c);
        u32::from_le_bytes(w)
    }));
}

/// The bytes written by [`push_bytes`] at `recs[at..]`, and the index after them.
pub(super) fn take_bytes(recs: &[u32], at: usize) -> (Vec<u8>, usize) {
    let len = recs.get(at).copied().unwrap_or(0) as usize;
    let n = len.div_ceil(4);
    let end = (at + 1 + n).min(recs.len());
    let bytes = recs[(at + 1).min(end)..end]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take(len)
        .collect();
    (bytes, at + 1 + n)
}
