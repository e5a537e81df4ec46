//! The state stores: the flat table (fixed-width `u32` rows in a paged arena, numbered
//! densely, with an open-addressing hash index of state numbers) and, behind the same
//! [`StateStore`] interface, the tree-compressed table of [`super::tree`].

use super::tree::TreeTable;
use super::StateId;

/// Rows per arena page; pages are allocated whole so the arena never reallocates.
pub const PAGE_ROWS: usize = 1 << 14;

const EMPTY: u32 = u32::MAX;

/// The largest number of states a table holds (`u32::MAX` marks empty index slots).
pub const MAX_STATES: u64 = u32::MAX as u64 - 1;

/// Hash of a state row (64 bits; the index uses the high bits).
#[inline]
pub fn hash_row(row: &[u32]) -> u64 {
    // Multiply-rotate mixing per word (FxHash-style) plus a final avalanche, because the
    // index takes the top bits and term ids are small, clustered integers.
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15 ^ row.len() as u64;
    for &w in row {
        h = (h.rotate_left(26) ^ u64::from(w)).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 29)
}

/// A set of fixed-width rows numbered densely in insertion order.
#[derive(Debug)]
pub struct StateTable {
    width: usize,
    pages: Vec<Box<[u32]>>,
    len: u32,
    /// Open addressing, linear probing; `EMPTY` or a state number. Length is a power of two.
    slots: Vec<u32>,
    shift: u32,
}

impl StateTable {
    /// An empty table of rows of `width` words.
    pub fn new(width: usize) -> StateTable {
        let bits = 10;
        StateTable {
            width,
            pages: Vec::new(),
            len: 0,
            slots: vec![EMPTY; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// The row width in words.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The row of state `id`.
    #[inline]
    pub fn row(&self, id: StateId) -> &[u32] {
        let i = id.index();
        let page = &self.pages[i / PAGE_ROWS];
        let off = (i % PAGE_ROWS) * self.width;
        &page[off..off + self.width]
    }

    /// Looks up `row` (whose hash is `hash`).
    #[inline]
    pub fn find(&self, row: &[u32], hash: u64) -> Option<StateId> {
        let mask = self.slots.len() - 1;
        let mut pos = (hash >> self.shift) as usize;
        loop {
            let s = self.slots[pos];
            if s == EMPTY {
                return None;
            }
            if self.row(StateId(s)) == row {
                return Some(StateId(s));
            }
            pos = (pos + 1) & mask;
        }
    }

    /// Inserts `row` (whose hash is `hash`) unless present; returns its number and whether it
    /// is new, or `None` when the table is full ([`MAX_STATES`]).
    pub fn insert(&mut self, row: &[u32], hash: u64) -> Option<(StateId, bool)> {
        debug_assert_eq!(row.len(), self.width);
        let mask = self.slots.len() - 1;
        let mut pos = (hash >> self.shift) as usize;
        loop {
            let s = self.slots[pos];
            if s == EMPTY {
                break;
            }
            if self.row(StateId(s)) == row {
                return Some((StateId(s), false));
            }
            pos = (pos + 1) & mask;
        }
        if u64::from(self.len) >= MAX_STATES {
            return None;
        }
        let id = self.len;
        self.push_row(row);
        self.slots[pos] = id;
        if (self.len as usize) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        Some((StateId(id), true))
    }

    fn push_row(&mut self, row: &[u32]) {
        let i = self.len as usize;
        if i.is_multiple_of(PAGE_ROWS) && i / PAGE_ROWS == self.pages.len() {
            self.pages
                .push(vec![0u32; PAGE_ROWS * self.width].into_boxed_slice());
        }
        let off = (i % PAGE_ROWS) * self.width;
        self.pages[i / PAGE_ROWS][off..off + self.width].copy_from_slice(row);
        self.len += 1;
    }

    fn grow(&mut self) {
        let new_len = self.slots.len() * 2;
        // A rehash does not poll: stop after it, cleanly, if it reaches the memory limit.
        crate::budget::before_big_allocation(new_len as u64 * 4);
        self.shift -= 1;
        let mask = new_len - 1;
        let mut slots = vec![EMPTY; new_len];
        for id in 0..self.len {
            let mut pos = (hash_row(self.row(StateId(id))) >> self.shift) as usize;
            while slots[pos] != EMPTY {
                pos = (pos + 1) & mask;
            }
            slots[pos] = id;
        }
        self.slots = slots;
    }

    /// Bytes allocated for rows and index.
    pub fn memory_bytes(&self) -> usize {
        self.pages.iter().map(|p| p.len() * 4).sum::<usize>() + self.slots.len() * 4
    }
}

/// Which state store an exploration uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StoreKind {
    /// Tree compression ([`TreeTable`]): a state whose sub-vectors occur in other states
    /// costs about one pair (8 bytes plus index); the default.
    #[default]
    Tree,
    /// The flat table ([`StateTable`]): `4·k` bytes of row plus index per state; fastest
    /// when states have few words.
    Table,
}

/// A state store: rows numbered densely in insertion order, looked up through a per-thread
/// *cursor* (the decoded form of the state being expanded: its row for the flat table, its
/// tree array for the tree table) so that successors can reuse the work of decoding it.
///
/// A successor is found with [`lookup`](StateStore::lookup), which on a miss appends a
/// *key* of [`key_len`](StateStore::key_len) words (and returns a hash) that
/// [`insert_key`](StateStore::insert_key) or [`find_key`](StateStore::find_key) accept
/// later, even after other insertions: this is how the parallel phase hands new states to
/// the sequential one.
#[derive(Debug)]
// One store per exploration, so the size of the tree variant (its per-batch tables inline)
// costs nothing worth a pointer chase on every lookup.
#[allow(clippy::large_enum_variant)]
pub enum StateStore {
    /// The flat table.
    Table(StateTable),
    /// The tree-compressed table.
    Tree(TreeTable, Vec<u32>),
}

impl StateStore {
    /// An empty store of rows of `width` words.
    pub fn new(kind: StoreKind, width: usize) -> StateStore {
        match kind {
            StoreKind::Table => StateStore::Table(StateTable::new(width)),
            StoreKind::Tree => StateStore::Tree(TreeTable::new(width), Vec::new()),
        }
    }

    /// The row width in words.
    pub fn width(&self) -> usize {
        match self {
            StateStore::Table(t) => t.width(),
            StateStore::Tree(t, _) => t.width(),
        }
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        match self {
            StateStore::Table(t) => t.len(),
            StateStore::Tree(t, _) => t.len(),
        }
    }

    /// Whether the store is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The length of a key (see [`lookup`](StateStore::lookup)).
    pub fn key_len(&self) -> usize {
        match self {
            StateStore::Table(t) => t.width(),
            StateStore::Tree(t, _) => t.tree_len() - 2,
        }
    }

    /// Decodes state `id` into the cursor `cur`.
    #[inline]
    pub fn load(&self, id: StateId, cur: &mut Vec<u32>) {
        match self {
            StateStore::Table(t) => {
                cur.clear();
                cur.extend_from_slice(t.row(id));
            }
            StateStore::Tree(t, _) => t.decode(id, cur),
        }
    }

    /// The row of a cursor filled by [`load`](StateStore::load).
    #[inline]
    pub fn row_of<'c>(&self, cur: &'c [u32]) -> &'c [u32] {
        match self {
            StateStore::Table(_) => cur,
            StateStore::Tree(t, _) => t.row_of(cur),
        }
    }

    /// The row of state `id` as a new vector.
    pub fn row(&self, id: StateId) -> Vec<u32> {
        let mut cur = Vec::new();
        self.load(id, &mut cur);
        self.row_of(&cur).to_vec()
    }

    /// Looks up `row` (of `width` words), a successor of the state loaded in the cursor
    /// `src` (empty if none). On a miss, appends the row's key to `keys` and returns its
    /// hash; `work` is scratch space. Threads may call this concurrently: the tree store
    /// interns a missing row's internal nodes here (their numbers are internal), so that
    /// inserting the key later only numbers the state.
    #[inline]
    pub fn lookup(
        &self,
        src: &[u32],
        row: &[u32],
        work: &mut Vec<u32>,
        keys: &mut Vec<u32>,
    ) -> Result<StateId, u64> {
        match self {
            StateStore::Table(t) => {
                let h = hash_row(row);
                match t.find(row, h) {
                    Some(id) => Ok(id),
                    None => {
                        keys.extend_from_slice(row);
                        Err(h)
                    }
                }
            }
            StateStore::Tree(t, _) => match t.lookup(src, row, work) {
                Some(id) => Ok(id),
                None => {
                    keys.extend_from_slice(&work[2..]);
                    Err(0)
                }
            },
        }
    }

    /// Before a phase of concurrent [`lookup`](StateStore::lookup)s (one parallel batch):
    /// makes room in the tree's node index for the nodes the threads are about to intern.
    /// `batch` is the number of states the phase expands.
    pub fn prepare_shared(&mut self, batch: usize) {
        if let StateStore::Tree(t, _) = self {
            t.prepare_shared(batch);
        }
    }

    /// The tree table, whose look-ups in a phase of concurrent look-ups (after
    /// [`prepare_shared`](StateStore::prepare_shared)) are pipelined by
    /// `lts/batch.rs`: a new row with all its nodes gets a provisional number instead of
    /// a key, the same for equal rows, which [`insert_fresh`](StateStore::insert_fresh)
    /// numbers in the following insertion pass, or [`number_fresh`](StateStore::number_fresh)
    /// in a parallel one. `None` for the flat table, whose threads use
    /// [`lookup`](StateStore::lookup).
    pub fn tree(&self) -> Option<&TreeTable> {
        match self {
            StateStore::Table(_) => None,
            StateStore::Tree(t, _) => Some(t),
        }
    }

    /// The tree table, exclusively (`None` for the flat table): for the pipelined
    /// insertions of `lts::BatchInsert`.
    pub fn tree_mut(&mut self) -> Option<&mut TreeTable> {
        match self {
            StateStore::Table(_) => None,
            StateStore::Tree(t, _) => Some(t),
        }
    }

    /// Inserts the state of a provisional number from a shared look-up of the tree table
    /// ([`tree`](StateStore::tree)) unless present; returns its number and
    /// whether it is new, or `None` when the store is full.
    pub fn insert_fresh(&mut self, p: u32) -> Option<(StateId, bool)> {
        match self {
            StateStore::Table(_) => unreachable!("the flat table gives no provisional numbers"),
            StateStore::Tree(t, _) => t.insert_fresh(p),
        }
    }

    /// Whether new states can be numbered in parallel ([`number_fresh`](StateStore::number_fresh)):
    /// the tree store only.
    pub fn numbers_in_parallel(&self) -> bool {
        matches!(self, StateStore::Tree(..))
    }

    /// Whether the shared lookup at `pos` was the first of its phase to meet the new state of
    /// provisional number `p`: the one whose transition numbers it.
    #[inline]
    pub fn first_meets(&self, p: u32, pos: u64) -> bool {
        match self {
            StateStore::Table(_) => false,
            StateStore::Tree(t, _) => t.first_meets(p, pos),
        }
    }

    /// Takes the next `n` state numbers for [`number_fresh`](StateStore::number_fresh): the
    /// first, or `None` when the store is full.
    pub fn take_state_numbers(&mut self, n: usize) -> Option<StateId> {
        match self {
            StateStore::Table(_) => None,
            StateStore::Tree(t, _) => t.take_state_numbers(n).map(StateId),
        }
    }

    /// Starts loading what [`first_meets`](StateStore::first_meets) reads about provisional
    /// number `p`, a few look-ups ahead of it.
    #[inline]
    pub fn prefetch_first(&self, p: u32) {
        if let StateStore::Tree(t, _) = self {
            t.prefetch_first(p);
        }
    }

    /// Starts loading the index slot where [`number_fresh`](StateStore::number_fresh) will
    /// index the state of provisional number `p`, a few states ahead of it.
    #[inline]
    pub fn prefetch_numbering(&self, p: u32) {
        if let StateStore::Tree(t, _) = self {
            t.prefetch_numbering(p);
        }
    }

    /// Gives the new state of provisional number `p` the number `id` from
    /// [`take_state_numbers`](StateStore::take_state_numbers); threads call this
    /// concurrently for distinct numbers.
    pub fn number_fresh(&self, p: u32, id: StateId) {
        if let StateStore::Tree(t, _) = self {
            t.number_fresh(p, id.0);
        }
    }

    /// The state of a provisional number, if present, without inserting.
    pub fn find_fresh(&self, p: u32) -> Option<StateId> {
        match self {
            StateStore::Table(_) => unreachable!("the flat table gives no provisional numbers"),
            StateStore::Tree(t, _) => t.find_fresh(p),
        }
    }

    /// Ends the insertion pass of a phase of concurrent lookups: the states whose index
    /// entries are still to be made, for [`index_states`](StateStore::index_states) (the
    /// vector goes back to [`end_shared`](StateStore::end_shared)).
    pub fn take_unindexed(&mut self) -> Vec<u32> {
        match self {
            StateStore::Table(_) => Vec::new(),
            StateStore::Tree(t, _) => t.take_unindexed(),
        }
    }

    /// Indexes states from [`take_unindexed`](StateStore::take_unindexed); threads call it
    /// concurrently on disjoint parts.
    pub fn index_states(&self, ids: &[u32]) {
        if let StateStore::Tree(t, _) = self {
            t.index_roots(ids);
        }
    }

    /// Closes a phase of concurrent lookups once every state is indexed.
    pub fn end_shared(&mut self, ids: Vec<u32>) {
        if let StateStore::Tree(t, _) = self {
            t.end_shared(ids);
        }
    }

    /// Looks up the state of a key from [`lookup`](StateStore::lookup), without inserting.
    pub fn find_key(&mut self, key: &[u32], hash: u64) -> Option<StateId> {
        match self {
            StateStore::Table(t) => t.find(key, hash),
            StateStore::Tree(t, work) => {
                fill_tree(work, key);
                t.find_tree(work)
            }
        }
    }

    /// Inserts the state of a key from [`lookup`](StateStore::lookup) unless present;
    /// returns its number and whether it is new, or `None` when the store is full.
    pub fn insert_key(&mut self, key: &[u32], hash: u64) -> Option<(StateId, bool)> {
        match self {
            StateStore::Table(t) => t.insert(key, hash),
            StateStore::Tree(t, work) => {
                fill_tree(work, key);
                t.insert_tree(work)
            }
        }
    }

    /// Bytes allocated by the store (rows or pairs, and indices).
    pub fn memory_bytes(&self) -> usize {
        match self {
            StateStore::Table(t) => t.memory_bytes(),
            StateStore::Tree(t, _) => t.memory_bytes(),
        }
    }
}

/// A tree array from a key (the key is the array without its two unused slots).
fn fill_tree(work: &mut Vec<u32>, key: &[u32]) {
    work.clear();
    work.extend_from_slice(&[0, 0]);
    work.extend_from_slice(key);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_find_grow() {
        let mut t = StateTable::new(3);
        for i in 0..50_000u32 {
            let row = [i % 7, i / 7, 42];
            let (id, new) = t.insert(&row, hash_row(&row)).unwrap();
            assert!(new);
            assert_eq!(id, StateId(i));
        }
        for i in 0..50_000u32 {
            let row = [i % 7, i / 7, 42];
            assert_eq!(t.find(&row, hash_row(&row)), Some(StateId(i)));
            assert_eq!(t.insert(&row, hash_row(&row)), Some((StateId(i), false)));
            assert_eq!(t.row(StateId(i)), &row);
        }
        assert_eq!(t.find(&[9, 9, 9], hash_row(&[9, 9, 9])), None);
        assert_eq!(t.len(), 50_000);
    }

    /// Both stores number the same rows identically, through cursors and keys.
    #[test]
    fn stores_agree_through_keys() {
        for width in [0usize, 1, 2, 3, 7, 16] {
            let mut stores = [
                StateStore::new(StoreKind::Table, width),
                StateStore::new(StoreKind::Tree, width),
            ];
            let row = |i: u32| -> Vec<u32> { (0..width as u32).map(|j| (i * 7 + j) % 5).collect() };
            let mut ids: [Vec<StateId>; 2] = [Vec::new(), Vec::new()];
            for (k, st) in stores.iter_mut().enumerate() {
                let (mut cur, mut work, mut keys) = (Vec::new(), Vec::new(), Vec::new());
                let r0 = row(0);
                let h = st.lookup(&[], &r0, &mut work, &mut keys).unwrap_err();
                assert_eq!(st.insert_key(&keys, h), Some((StateId(0), true)));
                for i in 0..200u32 {
                    st.load(StateId(i % st.len() as u32), &mut cur);
                    let r = row(i + 1);
                    keys.clear();
                    let id = match st.lookup(&cur, &r, &mut work, &mut keys) {
                        Ok(id) => id,
                        Err(h) => {
                            assert_eq!(keys.len(), st.key_len());
                            assert_eq!(st.find_key(&keys, h), None);
                            let (id, new) = st.insert_key(&keys, h).unwrap();
                            assert!(new);
                            assert_eq!(st.find_key(&keys, h), Some(id));
                            id
                        }
                    };
                    assert_eq!(st.row(id), r);
                    ids[k].push(id);
                }
            }
            assert_eq!(ids[0], ids[1], "width {width}");
            assert_eq!(stores[0].len(), stores[1].len());
        }
    }

    #[test]
    fn zero_width_rows() {
        let mut t = StateTable::new(0);
        assert_eq!(t.insert(&[], hash_row(&[])), Some((StateId(0), true)));
        assert_eq!(t.insert(&[], hash_row(&[])), Some((StateId(0), false)));
        assert_eq!(t.len(), 1);
    }
}
