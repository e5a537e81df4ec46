//! Tree compression of state rows (LTSmin's tree database: Blom, van de Pol, Weber, "A
//! database approach to LTL model checking"; Laarman, van de Pol, Weber, "Optimal
//! compression of combinatorial state spaces").
//!
//! A row of `k` words is the leaf sequence of a fixed binary tree; every internal node is
//! the pair (left child, right child) of `u32`s, interned in a table of pairs that gives
//! each distinct pair a dense index. Rows that share a sub-vector share its node, so a
//! state whose sub-vectors all occur in other states costs a single new pair: its root.
//! Roots are interned in their own pair table whose dense indices *are* the state numbers,
//! so no separate number map is needed.
//!
//! Tree layout (the implicit heap of LTSmin): with `kk = max(k, 2)` leaves, the tree array
//! `t` has `2·kk` slots; slots `kk..2·kk` hold the row (padded with zeros when `k < 2`),
//! internal node `i` (for `2 <= i < kk`) is the pair `(t[2i], t[2i+1])` in the node table,
//! and the root is the pair `(t[2], t[3])` in the root table. Slots 0 and 1 are unused.
//! Decoding a state walks the tree top-down (`kk - 1` pair reads); looking up a successor
//! of a decoded state re-interns only the nodes above leaves that changed, because a node
//! whose children equal the source's children is the source's node.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

use rayon::prelude::*;

use super::fresh::FreshTable;
use super::prefetch::prefetch;
use super::StateId;

/// Entries per page of a pair arena (32 KiB): pages are allocated whole so the arena never
/// copies, and small so that small state spaces stay small.
const PAIR_PAGE: usize = 1 << 12;

/// Pages per directory of the arena; a directory is allocated when its first page is, so
/// the arena's fixed part is one array of [`DIRS`] empty cells.
const DIR_PAGES: usize = 1 << 10;

/// Directories of an arena: enough for [`MAX_PAIRS`] entries.
const DIRS: usize = (1 << 32) / (PAIR_PAGE * DIR_PAGES);

/// Slots of an index from which [`PairTable::grow`] rebuilds it in parallel when asked,
/// and the old slots each task takes: below this, one thread is quicker.
const PARALLEL_GROW: usize = 1 << 16;

/// Marks an empty index slot, and in a tree array a node not (yet) in the node table.
pub const NO_NODE: u32 = u32::MAX;

/// The most entries a pair table holds (`u32::MAX` marks empty slots).
pub const MAX_PAIRS: u64 = u32::MAX as u64 - 1;

#[inline]
fn pack(a: u32, b: u32) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

/// Hash of a packed pair (murmur3's 64-bit finaliser: the index takes the top bits and
/// the words are small, clustered integers).
#[inline]
fn hash_pair(p: u64) -> u64 {
    let mut h = p ^ 0x9E37_79B9_7F4A_7C15;
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

/// A page of packed pairs.
type Page = Box<[AtomicU64]>;

/// A directory of [`DIR_PAGES`] pages, each allocated on first use.
type Dir = Box<[OnceLock<Page>]>;

/// A set of `(u32, u32)` pairs numbered in insertion order: a paged arena of packed pairs
/// plus an open-addressing (linear probing) index of pair numbers, at most 3/4 full.
///
/// Reads are lock-free, and besides the exclusive [`intern`](PairTable::intern) (which
/// grows the index) there is a shared one, [`intern_shared`](PairTable::intern_shared),
/// that exploring threads call concurrently: a number is taken from an atomic counter, the
/// pair is written to the arena, then published by a compare-and-swap of an empty index
/// slot (release; readers load slots with acquire, so a published number's pair is
/// visible). Two threads racing for the same pair both take a number; the loser finds the
/// winner's pair in the slot and returns the winner's number, so its own number stays a
/// *hole* (a pair that no slot names). Holes happen only under shared interning, so a
/// table filled by `intern` alone is numbered densely; the root table of a
/// [`TreeTable`], whose numbers are the state numbers, is only ever interned exclusively.
/// The shared interning never grows the index: it declines (`None`) at the 3/4 load bound,
/// and the caller leaves the node to the exclusive path.
#[derive(Debug)]
pub struct PairTable {
    dirs: Box<[OnceLock<Dir>]>,
    slots: Box<[AtomicU32]>,
    shift: u32,
    /// The counters that threads write, apart from the fields every probe reads.
    counters: Counters,
}

/// The written counters of a [`PairTable`], on cache lines of their own (128 bytes: the
/// adjacent-line prefetcher fetches lines in pairs). Sharing a line with the slot pointer
/// or the shift, every number one thread took would evict that line from the other core,
/// and so cost a cache miss on the next probe of every table on it.
#[derive(Debug, Default)]
#[repr(align(128))]
struct Counters {
    /// Numbers handed out (pairs and holes).
    len: AtomicUsize,
    /// Arena pages allocated (kept by [`clear`](PairTable::clear)).
    pages: AtomicUsize,
}

impl Default for PairTable {
    fn default() -> Self {
        PairTable::new()
    }
}

fn empty_slots(n: usize) -> Box<[AtomicU32]> {
    (0..n).map(|_| AtomicU32::new(NO_NODE)).collect()
}

impl PairTable {
    /// An empty table.
    pub fn new() -> PairTable {
        let bits = 10;
        PairTable {
            dirs: (0..DIRS).map(|_| OnceLock::new()).collect(),
            slots: empty_slots(1 << bits),
            shift: 64 - bits,
            counters: Counters::default(),
        }
    }

    /// The numbers handed out (pairs, plus the holes of racing shared interning).
    pub fn len(&self) -> usize {
        self.counters.len.load(Ordering::Relaxed)
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The arena cell of number `i`, allocating its page if needed.
    #[inline]
    fn cell(&self, i: u32) -> &AtomicU64 {
        let i = i as usize;
        let (page, off) = (i / PAIR_PAGE, i % PAIR_PAGE);
        let dir = self.dirs[page / DIR_PAGES]
            .get_or_init(|| (0..DIR_PAGES).map(|_| OnceLock::new()).collect());
        let page = dir[page % DIR_PAGES].get_or_init(|| {
            self.counters.pages.fetch_add(1, Ordering::Relaxed);
            (0..PAIR_PAGE).map(|_| AtomicU64::new(0)).collect()
        });
        &page[off]
    }

    #[inline]
    fn packed(&self, i: u32) -> u64 {
        // Relaxed suffices: a number reaches a reader through an acquire load of its slot
        // (or, for the tree's own reads, through this thread's or an earlier phase's writes).
        self.cell(i).load(Ordering::Relaxed)
    }

    /// The pair numbered `i` (`i < len`).
    #[inline]
    pub fn get(&self, i: u32) -> (u32, u32) {
        let p = self.packed(i);
        ((p >> 32) as u32, p as u32)
    }

    /// The number of `(a, b)`, if present.
    #[inline]
    pub fn find(&self, a: u32, b: u32) -> Option<u32> {
        self.probe(pack(a, b), hash_pair(pack(a, b))).ok()
    }

    /// The packed pair `(a, b)` and its hash: the first stage of a pipelined look-up
    /// (`lts/batch.rs`).
    #[inline]
    pub(super) fn key(a: u32, b: u32) -> (u64, u64) {
        let p = pack(a, b);
        (p, hash_pair(p))
    }

    /// Starts loading the home slot of hash `h` (see `lts/prefetch.rs`): the first pass
    /// of a pipelined look-up.
    #[inline]
    pub(super) fn prefetch_home(&self, h: u64) {
        prefetch(&self.slots[(h >> self.shift) as usize]);
    }

    /// Starts loading the arena cell of the number in the home slot of hash `h`, if any:
    /// the second pass of a pipelined look-up, after [`prefetch_home`](PairTable::prefetch_home).
    #[inline]
    pub(super) fn prefetch_pair(&self, h: u64) {
        let s = self.slots[(h >> self.shift) as usize].load(Ordering::Acquire);
        if s != NO_NODE {
            prefetch(self.cell(s));
        }
    }

    /// [`find`](PairTable::find) of a packed pair `p` of hash `h` (from [`key`](PairTable::key)).
    #[inline]
    pub(super) fn find_keyed(&self, p: u64, h: u64) -> Option<u32> {
        self.probe(p, h).ok()
    }

    /// [`intern_shared`](PairTable::intern_shared) of a packed pair `p` of hash `h` (from
    /// [`key`](PairTable::key)).
    #[inline]
    pub(super) fn intern_shared_keyed(&self, p: u64, h: u64) -> Option<u32> {
        let pos = match self.probe(p, h) {
            Ok(s) => return Some(s),
            Err(pos) => pos,
        };
        if self.len() >= self.load_bound() {
            return None;
        }
        let id = self.allocate(p)?;
        Some(self.publish(p, id, pos).0)
    }

    /// Linear probing for the packed pair `p` from the slot of hash `h`: `Ok(number)` when
    /// present, else `Err(slot)` with the empty slot where it belongs.
    #[inline]
    fn probe(&self, p: u64, h: u64) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut pos = (h >> self.shift) as usize;
        loop {
            let s = self.slots[pos].load(Ordering::Acquire);
            if s == NO_NODE {
                return Err(pos);
            }
            if self.packed(s) == p {
                return Ok(s);
            }
            pos = (pos + 1) & mask;
        }
    }

    /// The most numbers the index takes before it must grow (3/4 of its slots).
    fn load_bound(&self) -> usize {
        self.slots.len() / 4 * 3
    }

    /// Takes a fresh number and writes `p` to it; `None` at [`MAX_PAIRS`].
    fn allocate(&self, p: u64) -> Option<u32> {
        let id = self
            .counters
            .len
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                ((n as u64) < MAX_PAIRS).then_some(n + 1)
            })
            .ok()?;
        let id = id as u32;
        self.cell(id).store(p, Ordering::Relaxed);
        Some(id)
    }

    /// Publishes number `id` of pair `p` from the empty slot `pos` on: `(number, new)`,
    /// where the number is another thread's when it published the same pair first.
    fn publish(&self, p: u64, id: u32, mut pos: usize) -> (u32, bool) {
        let mask = self.slots.len() - 1;
        loop {
            match self.slots[pos].compare_exchange(
                NO_NODE,
                id,
                Ordering::Release,
                Ordering::Acquire,
            ) {
                Ok(_) => return (id, true),
                Err(s) if self.packed(s) == p => return (s, false),
                Err(_) => pos = (pos + 1) & mask,
            }
        }
    }

    /// Interns `(a, b)` from a shared reference, concurrently with other threads doing the
    /// same: its number, or `None` when the index is at its load bound or the table is
    /// full (then the caller leaves the pair to [`intern`](PairTable::intern)).
    pub fn intern_shared(&self, a: u32, b: u32) -> Option<u32> {
        let (p, h) = PairTable::key(a, b);
        self.intern_shared_keyed(p, h)
    }

    /// The number of `(a, b)` and whether it is new, inserting it if absent; `None` when the
    /// table is full ([`MAX_PAIRS`]).
    pub fn intern(&mut self, a: u32, b: u32) -> Option<(u32, bool)> {
        let (p, h) = PairTable::key(a, b);
        self.intern_keyed(p, h)
    }

    /// [`intern`](PairTable::intern) of a packed pair `p` of hash `h` (from
    /// [`key`](PairTable::key)).
    #[inline]
    pub(super) fn intern_keyed(&mut self, p: u64, h: u64) -> Option<(u32, bool)> {
        let pos = match self.probe(p, h) {
            Ok(s) => return Some((s, false)),
            Err(pos) => pos,
        };
        let id = self.allocate(p)?;
        let res = self.publish(p, id, pos);
        if self.len() > self.load_bound() {
            self.grow(1, false);
        }
        Some(res)
    }

    /// Grows the index (exclusively) so that `extra` more numbers fit under the load
    /// bound: what the exploring threads are expected to intern before the next exclusive
    /// phase.
    pub fn reserve(&mut self, extra: usize) {
        self.reserve_with(extra, false);
    }

    /// [`reserve`](PairTable::reserve) with the index rebuilt by the threads of the rayon
    /// pool it is called in when `parallel` (the exclusive steps of a parallel exploration:
    /// the rebuild of the root index would otherwise be the one serial pass of its size).
    fn reserve_with(&mut self, extra: usize, parallel: bool) {
        let need = self.len().saturating_add(extra);
        let mut bits = 0;
        while (self.slots.len() << bits) / 4 * 3 < need {
            bits += 1;
        }
        if bits > 0 {
            self.grow(bits, parallel);
        }
    }

    /// Takes the next number for `(a, b)` without indexing it (exclusively): for a pair known
    /// to be absent, which [`publish_new`](PairTable::publish_new) indexes later; until
    /// then `find` does not see it. `None` at [`MAX_PAIRS`].
    pub fn append(&mut self, a: u32, b: u32) -> Option<u32> {
        self.allocate(pack(a, b))
    }

    /// Takes the next `n` numbers (exclusively) and makes room for them in the index; their
    /// pairs are written by [`set`](PairTable::set) and indexed by
    /// [`publish_new`](PairTable::publish_new). The first number, or `None` when they do not
    /// fit under [`MAX_PAIRS`].
    /// Called in the rayon pool of a parallel exploration, whose threads grow the index.
    pub fn take_numbers(&mut self, n: usize) -> Option<u32> {
        let first = self.len();
        if (first as u64).saturating_add(n as u64) > MAX_PAIRS {
            return None;
        }
        self.reserve_with(n, true);
        *self.counters.len.get_mut() += n;
        Some(first as u32)
    }

    /// Writes the pair of number `id` from [`take_numbers`](PairTable::take_numbers); threads
    /// may call this concurrently for distinct numbers.
    pub fn set(&self, id: u32, a: u32, b: u32) {
        self.cell(id).store(pack(a, b), Ordering::Relaxed);
    }

    /// Indexes number `id` from [`append`](PairTable::append), whose pair is in no slot;
    /// threads may call this concurrently for distinct numbers (after a
    /// [`reserve`](PairTable::reserve) that makes room for them).
    pub fn publish_new(&self, id: u32) {
        let mask = self.slots.len() - 1;
        let mut pos = (hash_pair(self.packed(id)) >> self.shift) as usize;
        // The pair is absent, so no slot needs comparing: the first free one takes it.
        while self.slots[pos]
            .compare_exchange(NO_NODE, id, Ordering::Release, Ordering::Relaxed)
            .is_err()
        {
            pos = (pos + 1) & mask;
        }
    }

    /// Empties the table (exclusively), keeping its allocations.
    pub fn clear(&mut self) {
        *self.counters.len.get_mut() = 0;
        for s in self.slots.iter_mut() {
            *s.get_mut() = NO_NODE;
        }
    }

    /// Rebuilds the index with `2^bits` times the slots; holes (pairs that a slot of the
    /// old index does not name) are left out. With `parallel`, the threads of the rayon
    /// pool this is called in share the work: each indexes its part of the old slots as
    /// [`publish_new`](PairTable::publish_new) does, so the numbers in a run of taken slots
    /// may stand in another order, which look-ups do not depend on.
    fn grow(&mut self, bits: u32, parallel: bool) {
        let new_len = self.slots.len() << bits;
        // A rehash does not poll: stop after it, cleanly, if it reaches the memory limit.
        crate::budget::before_big_allocation(new_len as u64 * 4);
        if parallel && new_len >= PARALLEL_GROW {
            let old = std::mem::replace(
                &mut self.slots,
                (0..new_len)
                    .into_par_iter()
                    .map(|_| AtomicU32::new(NO_NODE))
                    .collect::<Vec<_>>()
                    .into_boxed_slice(),
            );
            self.shift -= bits;
            let this = &*self;
            old.par_chunks(PARALLEL_GROW).for_each(|part| {
                for s in part {
                    let id = s.load(Ordering::Relaxed);
                    if id != NO_NODE {
                        this.publish_new(id);
                    }
                }
            });
            return;
        }
        let old = std::mem::replace(&mut self.slots, empty_slots(new_len));
        self.shift -= bits;
        let mask = new_len - 1;
        for s in old.iter() {
            let id = s.load(Ordering::Relaxed);
            if id == NO_NODE {
                continue;
            }
            let mut pos = (hash_pair(self.packed(id)) >> self.shift) as usize;
            while self.slots[pos].load(Ordering::Relaxed) != NO_NODE {
                pos = (pos + 1) & mask;
            }
            self.slots[pos].store(id, Ordering::Relaxed);
        }
    }

    /// Bytes allocated for the arena and the index.
    pub fn memory_bytes(&self) -> usize {
        self.counters.pages.load(Ordering::Relaxed) * PAIR_PAGE * 8 + self.slots.len() * 4
    }
}

/// Tree-compressed rows of a fixed width, numbered densely in insertion order (the
/// numbering of the root table).
#[derive(Debug)]
pub struct TreeTable {
    width: usize,
    /// Leaves of the tree: `max(width, 2)`.
    leaves: usize,
    roots: PairTable,
    nodes: PairTable,
    /// Internal nodes at the last [`prepare_shared`](TreeTable::prepare_shared).
    nodes_at_prepare: usize,
    /// States at the last [`prepare_shared`](TreeTable::prepare_shared).
    roots_at_prepare: usize,
    /// New states found in the last phase, and the states it expanded: the rate the next
    /// phase's table of new states is sized by.
    fresh_at_end: usize,
    expanded_at_end: usize,
    /// The root pairs of the new states met in one phase of shared lookups, interned
    /// concurrently: a provisional number per distinct new state, so that the insertion
    /// pass probes the root table once per new state instead of once per transition.
    fresh: FreshTable,
    /// States numbered from provisional numbers whose roots are not indexed yet: the
    /// insertion pass only appends them, and the threads index them together afterwards
    /// ([`index_roots`](TreeTable::index_roots)).
    unindexed: Vec<u32>,
}

/// What a look-up in a phase of shared look-ups (`lts/batch.rs`) found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SharedLookup {
    /// A state present when the phase began.
    Known(StateId),
    /// A new state with every node interned: its provisional number in this phase.
    Fresh(u32),
    /// A new state whose nodes did not all fit: the tree array goes to
    /// [`insert_tree`](TreeTable::insert_tree).
    Missing,
}

impl TreeTable {
    /// An empty table of rows of `width` words.
    pub fn new(width: usize) -> TreeTable {
        TreeTable {
            width,
            leaves: width.max(2),
            roots: PairTable::new(),
            nodes: PairTable::new(),
            nodes_at_prepare: 0,
            roots_at_prepare: 0,
            fresh_at_end: 0,
            expanded_at_end: 0,
            fresh: FreshTable::default(),
            unindexed: Vec::new(),
        }
    }

    /// The row width in words.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The length of a tree array (see the module docs).
    pub fn tree_len(&self) -> usize {
        2 * self.leaves
    }

    /// The number of rows (states).
    pub fn len(&self) -> usize {
        self.roots.len()
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// The number of internal (non-root) nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The row part of a tree array.
    #[inline]
    pub fn row_of<'t>(&self, tree: &'t [u32]) -> &'t [u32] {
        &tree[self.leaves..self.leaves + self.width]
    }

    /// Writes the full tree array of state `id` into `tree` (resized to [`tree_len`]).
    ///
    /// [`tree_len`]: TreeTable::tree_len
    pub fn decode(&self, id: StateId, tree: &mut Vec<u32>) {
        tree.resize(self.tree_len(), 0);
        let (a, b) = self.roots.get(id.0);
        tree[2] = a;
        tree[3] = b;
        for i in 2..self.leaves {
            let (a, b) = self.nodes.get(tree[i]);
            tree[2 * i] = a;
            tree[2 * i + 1] = b;
        }
    }

    /// Puts `row` into the leaves of `tree` (resized to [`tree_len`]) and fills in its
    /// internal nodes, reusing the nodes of `src` (the tree array of a decoded state, or
    /// empty) where the children agree. Missing internal nodes are interned here (shared:
    /// exploring threads call this concurrently, so the insertion pass that numbers states
    /// is left with the root only); one that the node index has no room for becomes
    /// [`NO_NODE`] and is left to [`insert_tree`](TreeTable::insert_tree). Returns the
    /// state if the whole row is present (roots are never inserted here: their numbers are
    /// the state numbers).
    ///
    /// [`tree_len`]: TreeTable::tree_len
    pub fn lookup(&self, src: &[u32], row: &[u32], tree: &mut Vec<u32>) -> Option<StateId> {
        debug_assert_eq!(row.len(), self.width);
        let kk = self.leaves;
        tree.resize(2 * kk, 0);
        tree[kk..kk + self.width].copy_from_slice(row);
        tree[kk + self.width..].fill(0);
        let have_src = src.len() == 2 * kk;
        for i in (2..kk).rev() {
            let (a, b) = (tree[2 * i], tree[2 * i + 1]);
            tree[i] = if have_src && a == src[2 * i] && b == src[2 * i + 1] {
                src[i]
            } else if (2 * i < kk && a == NO_NODE) || (2 * i + 1 < kk && b == NO_NODE) {
                NO_NODE
            } else {
                // A node interned for a successor that turns out not to be inserted (at the
                // state bound) is only unused memory.
                self.nodes.intern_shared(a, b).unwrap_or(NO_NODE)
            };
        }
        if (kk > 2 && tree[2] == NO_NODE) || (kk > 3 && tree[3] == NO_NODE) {
            return None;
        }
        self.roots.find(tree[2], tree[3]).map(StateId)
    }

    /// Looks up the row of a tree array filled by [`lookup`](TreeTable::lookup) (possibly
    /// before other insertions), without inserting.
    pub fn find_tree(&self, tree: &mut [u32]) -> Option<StateId> {
        for i in (2..self.leaves).rev() {
            if tree[i] == NO_NODE {
                tree[i] = self.nodes.find(tree[2 * i], tree[2 * i + 1])?;
            }
        }
        if let Some(p) = self.fresh.find(tree[2], tree[3]) {
            return self.find_fresh(p);
        }
        self.roots.find(tree[2], tree[3]).map(StateId)
    }

    /// Inserts the row of a tree array filled by [`lookup`](TreeTable::lookup) (possibly
    /// before other insertions); returns its number and whether it is new, or `None` when
    /// a pair table is full.
    pub fn insert_tree(&mut self, tree: &mut [u32]) -> Option<(StateId, bool)> {
        for i in (2..self.leaves).rev() {
            if tree[i] == NO_NODE {
                tree[i] = self.nodes.intern(tree[2 * i], tree[2 * i + 1])?.0;
            }
        }
        // A state that other threads met with all its nodes has a provisional number (and
        // maybe an unindexed root): one way in for it.
        if let Some(p) = self.fresh.find(tree[2], tree[3]) {
            return self.insert_fresh(p);
        }
        self.roots
            .intern(tree[2], tree[3])
            .map(|(id, new)| (StateId(id), new))
    }

    /// Inserts `row` unless present; returns its number and whether it is new.
    pub fn insert(&mut self, row: &[u32]) -> Option<(StateId, bool)> {
        let mut tree = Vec::new();
        if let Some(id) = self.lookup(&[], row, &mut tree) {
            return Some((id, false));
        }
        self.insert_tree(&mut tree)
    }

    /// Before a phase of concurrent [`lookup`](TreeTable::lookup)s: grows the node index
    /// (exclusively) so that twice the nodes interned since the previous call fit under its
    /// load bound, so that the threads rarely find it full.
    /// `batch` is the number of states the phase expands: the table of new states is sized
    /// for the last phase's rate of new states per expanded state (the last batch of a
    /// level may be small, the next one full), plus one per state. Called in the rayon pool
    /// of the exploration, whose threads grow the index.
    pub fn prepare_shared(&mut self, batch: usize) {
        let n = self.nodes.len();
        let grown = n - self.nodes_at_prepare.min(n);
        self.nodes_at_prepare = n;
        self.nodes.reserve_with(2 * grown, true);
        let rate = self.fresh_at_end as f64 / self.expanded_at_end.max(1) as f64;
        self.fresh.fit(batch + (rate * batch as f64) as usize);
        self.expanded_at_end = batch;
        self.roots_at_prepare = self.roots.len();
    }

    /// Ends the insertion pass of a phase (exclusively): makes room in the root index for
    /// the states numbered from provisional numbers, and returns them for
    /// [`index_roots`](TreeTable::index_roots) (give the vector back to
    /// [`end_shared`](TreeTable::end_shared)).
    pub fn take_unindexed(&mut self) -> Vec<u32> {
        self.roots.reserve(0);
        std::mem::take(&mut self.unindexed)
    }

    /// Indexes roots from [`take_unindexed`](TreeTable::take_unindexed); threads call it
    /// concurrently on disjoint parts.
    pub fn index_roots(&self, ids: &[u32]) {
        for &id in ids {
            self.roots.publish_new(id);
        }
    }

    /// Closes a phase once every root is indexed: forgets the provisional numbers.
    pub fn end_shared(&mut self, mut ids: Vec<u32>) {
        ids.clear();
        self.unindexed = ids;
        self.fresh_at_end = self.roots.len() - self.roots_at_prepare.min(self.roots.len());
        self.fresh.clear();
    }

    /// The node table and the root table, for the pipelined look-ups of
    /// `lts/batch.rs` (which stand for [`lookup`](TreeTable::lookup) in a phase of
    /// shared look-ups).
    pub(super) fn pair_tables(&self) -> (&PairTable, &PairTable) {
        (&self.nodes, &self.roots)
    }

    /// The node table and the root table, exclusively, for the pipelined insertions of
    /// `lts/batch.rs` outside phases of shared look-ups (no provisional numbers are open:
    /// a root absent from the root table is a new state).
    pub(super) fn pair_tables_mut(&mut self) -> (&mut PairTable, &mut PairTable) {
        debug_assert!(
            self.unindexed.is_empty(),
            "a phase of shared look-ups is open"
        );
        (&mut self.nodes, &mut self.roots)
    }

    /// Starts loading the slot of root pair `(a, b)` in the table of new states, ahead of
    /// [`meet_fresh`](TreeTable::meet_fresh) (see `lts/prefetch.rs`).
    #[inline]
    pub(super) fn prefetch_fresh(&self, a: u32, b: u32) {
        self.fresh.prefetch_home(a, b);
    }

    /// During a phase of shared look-ups (after [`prepare_shared`](TreeTable::prepare_shared),
    /// threads calling it concurrently), a root pair `(a, b)` absent from the root table: the
    /// new state's provisional number, the same for equal rows, with `pos` (the place of
    /// this look-up in the order of the insertion pass) noted for
    /// [`first_meets`](TreeTable::first_meets); [`SharedLookup::Missing`] when the table of
    /// new states has no room.
    #[inline]
    pub(super) fn meet_fresh(&self, a: u32, b: u32, pos: u64) -> SharedLookup {
        match self.fresh.intern_shared(a, b) {
            Some(p) => {
                self.fresh.note(p, pos);
                SharedLookup::Fresh(p)
            }
            None => SharedLookup::Missing,
        }
    }

    /// Whether the lookup at `pos` is the first of the phase to meet provisional number `p`
    /// (after every lookup of the phase has returned).
    #[inline]
    pub fn first_meets(&self, p: u32, pos: u64) -> bool {
        self.fresh.first_meets(p, pos)
    }

    /// Takes the next `n` state numbers for new states numbered by
    /// [`number_fresh`](TreeTable::number_fresh) (exclusively, between the lookups of a
    /// phase and the numbering): the first, or `None` when the root table is full.
    pub fn take_state_numbers(&mut self, n: usize) -> Option<u32> {
        self.roots.take_numbers(n)
    }

    /// Starts loading what [`first_meets`](TreeTable::first_meets) reads about provisional
    /// number `p` (see `lts/prefetch.rs`).
    #[inline]
    pub fn prefetch_first(&self, p: u32) {
        self.fresh.prefetch_slot(p);
    }

    /// Starts loading the root index slot where [`number_fresh`](TreeTable::number_fresh)
    /// will index the new state of provisional number `p` (see `lts/prefetch.rs`).
    #[inline]
    pub fn prefetch_numbering(&self, p: u32) {
        let (a, b) = self.fresh.get(p);
        self.roots.prefetch_home(PairTable::key(a, b).1);
    }

    /// Gives the new state of provisional number `p` the state number `id` (taken by
    /// [`take_state_numbers`](TreeTable::take_state_numbers)): its root is written and
    /// indexed. Threads call this concurrently for distinct `p` and `id`.
    pub fn number_fresh(&self, p: u32, id: u32) {
        let (a, b) = self.fresh.get(p);
        self.roots.set(id, a, b);
        self.roots.publish_new(id);
        self.fresh.set_state(p, id);
    }

    /// Inserts the state of provisional number `p` (from
    /// a look-up of `lts/batch.rs` in the current phase) unless present;
    /// returns its number and whether it is new, or `None` when the root table is full.
    pub fn insert_fresh(&mut self, p: u32) -> Option<(StateId, bool)> {
        match self.fresh.state(p) {
            None => {
                // Absent from the roots: not there when the phase began (or the lookup
                // would have found it), and `insert_tree` sends this pair here.
                let (a, b) = self.fresh.get(p);
                let id = self.roots.append(a, b)?;
                self.fresh.set_state(p, id);
                self.unindexed.push(id);
                Some((StateId(id), true))
            }
            Some(id) => Some((StateId(id), false)),
        }
    }

    /// The state of provisional number `p`, if it is present, without inserting.
    pub fn find_fresh(&self, p: u32) -> Option<StateId> {
        self.fresh.state(p).map(StateId)
    }

    /// Bytes allocated for both pair tables (arenas and indices).
    pub fn memory_bytes(&self) -> usize {
        self.roots.memory_bytes()
            + self.nodes.memory_bytes()
            + self.fresh.memory_bytes()
            + self.unindexed.capacity() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_interned_densely() {
        let mut t = PairTable::new();
        for i in 0..100_000u32 {
            assert_eq!(t.intern(i % 300, i / 300), Some((i, true)));
        }
        for i in 0..100_000u32 {
            assert_eq!(t.intern(i % 300, i / 300), Some((i, false)));
            assert_eq!(t.find(i % 300, i / 300), Some(i));
            assert_eq!(t.get(i), (i % 300, i / 300));
        }
        assert_eq!(t.find(300, 0), None);
        assert_eq!(t.len(), 100_000);
        // Extreme words are ordinary values.
        assert_eq!(t.intern(u32::MAX, u32::MAX), Some((100_000, true)));
        assert_eq!(t.get(100_000), (u32::MAX, u32::MAX));
    }

    /// Threads interning overlapping pairs through shared references agree on one number
    /// per pair; losers of a race leave holes, which a later exclusive growth drops.
    #[test]
    fn shared_interning_agrees_across_threads() {
        let mut t = PairTable::new();
        t.reserve(40_000);
        let per_thread: Vec<Vec<(u32, u32, u32)>> = std::thread::scope(|sc| {
            let t = &t;
            let hs: Vec<_> = (0..4u32)
                .map(|k| {
                    sc.spawn(move || {
                        // Every thread walks the same 10,000 pairs, from its own start.
                        (0..10_000u32)
                            .map(|i| (i + 2_500 * k) % 10_000)
                            .map(|i| (i % 97, i / 97, t.intern_shared(i % 97, i / 97).unwrap()))
                            .collect()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut number = std::collections::HashMap::new();
        for (a, b, n) in per_thread.into_iter().flatten() {
            assert_eq!(*number.entry((a, b)).or_insert(n), n, "one number per pair");
            assert_eq!(t.get(n), (a, b));
            assert_eq!(t.find(a, b), Some(n));
        }
        assert_eq!(number.len(), 10_000);
        assert!(t.len() >= 10_000);
        // Growing keeps every published pair and its number.
        t.reserve(t.len() * 4);
        for (&(a, b), &n) in &number {
            assert_eq!(t.find(a, b), Some(n));
            assert_eq!(t.intern(a, b), Some((n, false)));
        }
    }

    /// Shared interning declines at the load bound (the exclusive path grows instead), and
    /// a tree lookup then leaves the node missing for `insert_tree`.
    #[test]
    fn shared_interning_declines_when_the_index_is_full() {
        let t = PairTable::new();
        let bound = t.load_bound();
        for i in 0..bound as u32 {
            assert_eq!(t.intern_shared(i, 0), Some(i));
        }
        assert_eq!(t.intern_shared(u32::MAX - 1, 0), None);
        assert_eq!(
            t.intern_shared(3, 0),
            Some(3),
            "present pairs are still found"
        );
        let mut tt = TreeTable::new(4);
        for i in 0..2_000u32 {
            let row = [i, i + 1, i + 2, i + 3];
            let mut tree = Vec::new();
            assert_eq!(tt.lookup(&[], &row, &mut tree), None);
            assert_eq!(tt.insert_tree(&mut tree), Some((StateId(i), true)));
            assert_eq!(tt.lookup(&[], &row, &mut tree), Some(StateId(i)));
        }
    }

    /// Round trip, dense numbering in insertion order, and sharing, for every small width.
    #[test]
    fn rows_round_trip_for_all_widths() {
        for width in 0..12usize {
            let mut t = TreeTable::new(width);
            let rows: Vec<Vec<u32>> = (0..500u32)
                .map(|i| (0..width as u32).map(|j| (i >> j) % 3 + j).collect())
                .collect();
            let mut ids = Vec::new();
            for r in &rows {
                let (id, new) = t.insert(r).unwrap();
                let want = ids.iter().position(|(_, q): &(StateId, Vec<u32>)| q == r);
                match want {
                    Some(k) => {
                        assert!(!new);
                        assert_eq!(id, ids[k].0);
                    }
                    None => {
                        assert!(new);
                        assert_eq!(id, StateId(ids.len() as u32), "width {width}");
                        ids.push((id, r.clone()));
                    }
                }
            }
            assert_eq!(t.len(), ids.len());
            let mut tree = Vec::new();
            for (id, r) in &ids {
                t.decode(*id, &mut tree);
                assert_eq!(t.row_of(&tree), &r[..], "width {width}");
                let mut again = Vec::new();
                assert_eq!(t.lookup(&[], r, &mut again), Some(*id));
                assert_eq!(again, tree, "lookup rebuilds the decoded tree");
            }
        }
    }

    #[test]
    fn successor_lookup_reuses_the_source_tree() {
        let width = 9;
        let mut t = TreeTable::new(width);
        let base: Vec<u32> = (0..width as u32).collect();
        let (s0, _) = t.insert(&base).unwrap();
        let nodes = t.node_count();
        assert_eq!(
            nodes,
            width - 2,
            "a tree of k leaves has k-2 internal nodes"
        );
        let mut src = Vec::new();
        t.decode(s0, &mut src);
        // Changing one leaf: every node off its path is the source's.
        let mut succ = base.clone();
        succ[4] = 77;
        let mut tree = Vec::new();
        assert_eq!(t.lookup(&src, &succ, &mut tree), None);
        // The lookup interned the new nodes: those on the path to the root.
        assert!(tree[2..width.max(2)].iter().all(|&n| n != NO_NODE));
        let added = t.node_count() - nodes;
        assert!((1..=4).contains(&added), "only the path to the root is new");
        let mut probe = tree.clone();
        assert_eq!(t.find_tree(&mut probe), None);
        let (s1, new) = t.insert_tree(&mut tree).unwrap();
        assert!(new);
        assert_eq!(s1, StateId(1));
        assert_eq!(t.node_count(), nodes + added);
        // The same row through the source tree, without it, and from a stale lookup.
        let mut tree2 = Vec::new();
        assert_eq!(t.lookup(&src, &succ, &mut tree2), Some(s1));
        assert_eq!(t.lookup(&[], &succ, &mut tree2), Some(s1));
        assert_eq!(t.find_tree(&mut probe), Some(s1));
        assert_eq!(t.insert_tree(&mut probe), Some((s1, false)));
        // Leaves equal to the "missing" marker are ordinary values.
        let odd = vec![u32::MAX; width];
        let (s2, new) = t.insert(&odd).unwrap();
        assert!(new);
        t.decode(s2, &mut tree);
        assert_eq!(t.row_of(&tree), &odd[..]);
        assert_eq!(t.lookup(&src, &odd, &mut tree2), Some(s2));
    }
}
