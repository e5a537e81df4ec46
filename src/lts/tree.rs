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

use super::StateId;

/// Entries per page of a pair arena (32 KiB): pages are allocated whole so the arena never
/// copies, and small so that small state spaces stay small.
const PAIR_PAGE: usize = 1 << 12;

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

/// A set of `(u32, u32)` pairs numbered densely in insertion order: a paged arena of packed
/// pairs plus an open-addressing (linear probing) index of pair numbers, at most 3/4 full.
#[derive(Debug)]
pub struct PairTable {
    pages: Vec<Box<[u64]>>,
    len: u32,
    slots: Vec<u32>,
    shift: u32,
}

impl Default for PairTable {
    fn default() -> Self {
        PairTable::new()
    }
}

impl PairTable {
    /// An empty table.
    pub fn new() -> PairTable {
        let bits = 10;
        PairTable {
            pages: Vec::new(),
            len: 0,
            slots: vec![NO_NODE; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// The number of pairs.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn packed(&self, i: u32) -> u64 {
        let i = i as usize;
        self.pages[i / PAIR_PAGE][i % PAIR_PAGE]
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
        self.probe(pack(a, b)).ok()
    }

    /// Linear probing for the packed pair `p`: `Ok(number)` when present, else
    /// `Err(slot)` with the empty slot where it belongs.
    #[inline]
    fn probe(&self, p: u64) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut pos = (hash_pair(p) >> self.shift) as usize;
        loop {
            let s = self.slots[pos];
            if s == NO_NODE {
                return Err(pos);
            }
            if self.packed(s) == p {
                return Ok(s);
            }
            pos = (pos + 1) & mask;
        }
    }

    /// The number of `(a, b)` and whether it is new, inserting it if absent; `None` when the
    /// table is full ([`MAX_PAIRS`]).
    pub fn intern(&mut self, a: u32, b: u32) -> Option<(u32, bool)> {
        let p = pack(a, b);
        let pos = match self.probe(p) {
            Ok(s) => return Some((s, false)),
            Err(pos) => pos,
        };
        if u64::from(self.len) >= MAX_PAIRS {
            return None;
        }
        let id = self.len;
        let i = id as usize;
        if i % PAIR_PAGE == 0 {
            self.pages.push(vec![0u64; PAIR_PAGE].into_boxed_slice());
        }
        self.pages[i / PAIR_PAGE][i % PAIR_PAGE] = p;
        self.len += 1;
        self.slots[pos] = id;
        if (self.len as usize) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        Some((id, true))
    }

    fn grow(&mut self) {
        let new_len = self.slots.len() * 2;
        self.shift -= 1;
        let mask = new_len - 1;
        let mut slots = vec![NO_NODE; new_len];
        for id in 0..self.len {
            let mut pos = (hash_pair(self.packed(id)) >> self.shift) as usize;
            while slots[pos] != NO_NODE {
                pos = (pos + 1) & mask;
            }
            slots[pos] = id;
        }
        self.slots = slots;
    }

    /// Bytes allocated for the arena and the index.
    pub fn memory_bytes(&self) -> usize {
        self.pages.len() * PAIR_PAGE * 8 + self.slots.len() * 4
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
}

impl TreeTable {
    /// An empty table of rows of `width` words.
    pub fn new(width: usize) -> TreeTable {
        TreeTable {
            width,
            leaves: width.max(2),
            roots: PairTable::new(),
            nodes: PairTable::new(),
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

    /// Puts `row` into the leaves of `tree` (resized to [`tree_len`]) and fills in the
    /// internal nodes that exist, reusing the nodes of `src` (the tree array of a decoded
    /// state, or empty) where the children agree; missing nodes become [`NO_NODE`]. Returns
    /// the state if the whole row is present.
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
                self.nodes.find(a, b).unwrap_or(NO_NODE)
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

    /// Bytes allocated for both pair tables (arenas and indices).
    pub fn memory_bytes(&self) -> usize {
        self.roots.memory_bytes() + self.nodes.memory_bytes()
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
        let missing = tree[2..width.max(2)]
            .iter()
            .filter(|&&n| n == NO_NODE)
            .count();
        assert!(
            (1..=4).contains(&missing),
            "only the path to the root is new"
        );
        let mut probe = tree.clone();
        assert_eq!(t.find_tree(&mut probe), None);
        let (s1, new) = t.insert_tree(&mut tree).unwrap();
        assert!(new);
        assert_eq!(s1, StateId(1));
        assert_eq!(t.node_count(), nodes + missing);
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
