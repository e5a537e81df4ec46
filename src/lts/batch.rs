//! Pipelined look-ups of the tree store ([`super::tree`]) in the parallel phase of the
//! explorer: the successors of a few states are gathered and looked up together, one tree
//! level at a time, so that their cache misses overlap instead of following each other.
//!
//! A successor's tree starts as its source's: only the nodes above the leaves that changed
//! are looked up, deepest level first.
//!
//! A look-up of one successor is a chain of dependent loads (a node's number is the child
//! of the next level's pair; each probe reads an index slot, then the arena cell of the
//! number in it), and most of them miss the cache on a state space of millions of states:
//! one thread spent half its time waiting in `PairTable::probe`, and a second thread on the
//! other core waited longer still. Here every stage of a level is one pass over the batch:
//! the first computes the pairs and hashes and prefetches their home slots
//! ([`super::prefetch`]), the second prefetches the arena cells those slots name, the third
//! probes (a pair in its home slot, the usual case, is then in the cache) and interns what
//! is missing. The prefetches of a pass do not depend on one another, so they are in flight
//! together. Roots are looked up the same way, and the new states' roots go to the table
//! of new states ([`super::fresh`]) after a pass that prefetches their slots.
//!
//! What each successor gets is what a look-up of it alone would give: the state, if it
//! was present when the phase began; else its provisional number (with its position
//! noted); else, when a node or the new state did not fit, the tree for the exclusive
//! path. Only the order in which internal nodes are interned differs, and node numbers
//! are internal.

use super::table::StateStore;
use super::tree::{PairTable, SharedLookup, TreeTable, NO_NODE};
use super::StateId;

/// Successors gathered before their look-ups run: enough to overlap a dozen or more cache
/// misses per pass, few enough that the batch stays in the first-level cache.
pub(super) const BATCH_LOOKUPS: usize = 32;

/// One look-up waiting between the passes of a level: the successor, the node, its packed
/// pair and the pair's hash.
#[derive(Clone, Copy, Debug)]
struct Pending {
    succ: u32,
    node: u32,
    pair: u64,
    hash: u64,
}

/// The depth of internal node `i >= 2` in the tree (the root pair's children, 2 and 3, are
/// at depth 1); a node's children are one deeper.
#[inline]
fn depth(i: usize) -> usize {
    (usize::BITS - 1 - i.leading_zeros()) as usize
}

/// Successors of a run of states waiting for their look-ups (see the module docs).
#[derive(Debug, Default)]
pub(super) struct LookupBatch {
    /// Leaves of a tree ([`TreeTable::tree_len`] is twice this).
    leaves: usize,
    /// Row width in words.
    width: usize,
    /// The tree arrays of the source states, one after the other.
    srcs: Vec<u32>,
    /// Per successor: its tree array, leaves filled by [`push`](LookupBatch::push), nodes
    /// by [`run`](LookupBatch::run).
    trees: Vec<u32>,
    /// Per successor: the index of its source's tree in `srcs`.
    src_of: Vec<u32>,
    /// Per successor: the position of its look-up (see [`TreeTable::first_meets`]).
    pos: Vec<u64>,
    /// Per successor, after [`run`](LookupBatch::run): what its look-up found.
    found: Vec<SharedLookup>,
    /// Per depth: the internal nodes (node, successor) that differ from the source's
    /// because a leaf below them changed. The others are the source's nodes.
    dirty: Vec<Vec<(u32, u32)>>,
    /// Per internal node: the last successor (counted by `stamp`) that marked it dirty.
    mark: Vec<u64>,
    stamp: u64,
    stage: Vec<Pending>,
    /// The node numbers the probes of a chained level found, by stage entry.
    ids: Vec<u32>,
}

impl LookupBatch {
    /// An empty batch for the trees of `table`.
    pub(super) fn new(table: &TreeTable) -> LookupBatch {
        let leaves = table.tree_len() / 2;
        LookupBatch {
            leaves,
            width: table.width(),
            dirty: vec![Vec::new(); depth(leaves.max(2)) + 1],
            mark: vec![0; leaves],
            ..LookupBatch::default()
        }
    }

    /// The successors gathered.
    pub(super) fn len(&self) -> usize {
        self.src_of.len()
    }

    /// Whether no successor is gathered.
    pub(super) fn is_empty(&self) -> bool {
        self.src_of.is_empty()
    }

    /// Starts the successors of a state whose tree array (from [`TreeTable::decode`]) is
    /// `src`.
    pub(super) fn source(&mut self, src: &[u32]) {
        debug_assert_eq!(src.len(), 2 * self.leaves);
        self.srcs.extend_from_slice(src);
    }

    /// Adds a successor `row` of the last [`source`](LookupBatch::source), looked up at
    /// position `pos`.
    /// Its tree starts as the source's; the nodes above the leaves that differ are marked
    /// dirty, level by level, for [`run`](LookupBatch::run).
    pub(super) fn push(&mut self, row: &[u32], pos: u64) {
        debug_assert_eq!(row.len(), self.width);
        let kk = self.leaves;
        let tl = 2 * kk;
        let src_index = self.srcs.len() / tl - 1;
        let src = &self.srcs[src_index * tl..][..tl];
        let j = self.src_of.len() as u32;
        let at = self.trees.len();
        self.trees.extend_from_slice(src);
        let t = &mut self.trees[at..];
        self.stamp += 1;
        for (w, &v) in row.iter().enumerate() {
            if v == t[kk + w] {
                continue;
            }
            t[kk + w] = v;
            let mut i = (kk + w) / 2;
            while i >= 2 && self.mark[i] != self.stamp {
                self.mark[i] = self.stamp;
                self.dirty[depth(i)].push((i as u32, j));
                i /= 2;
            }
        }
        self.src_of.push(src_index as u32);
        self.pos.push(pos);
    }

    /// Drops the successors after the first `n` (those of a state whose expansion failed).
    pub(super) fn truncate(&mut self, n: usize) {
        for level in &mut self.dirty {
            level.retain(|&(_, j)| (j as usize) < n);
        }
        self.trees.truncate(n * 2 * self.leaves);
        self.src_of.truncate(n);
        self.pos.truncate(n);
    }

    /// The tree array of successor `j` after [`run`](LookupBatch::run): what the exclusive
    /// path takes (without its two unused slots) when the look-up found
    /// [`SharedLookup::Missing`].
    pub(super) fn tree(&self, j: usize) -> &[u32] {
        let tl = 2 * self.leaves;
        &self.trees[j * tl..(j + 1) * tl]
    }

    /// What each successor's look-up found, in the order of [`push`](LookupBatch::push),
    /// after [`run`](LookupBatch::run).
    pub(super) fn found(&self) -> &[SharedLookup] {
        &self.found
    }

    /// Looks up every successor gathered, in a phase of shared look-ups of `table` (after
    /// [`TreeTable::prepare_shared`]); [`found`](LookupBatch::found) tells what each found,
    /// and [`clear`](LookupBatch::clear) empties the batch after.
    pub(super) fn run(&mut self, table: &TreeTable) {
        let (nodes, roots) = table.pair_tables();
        let tl = 2 * self.leaves;
        let n = self.len();
        // Deepest level first: a node's children are done before it. The nodes of one
        // level do not depend on one another.
        for d in (1..self.dirty.len()).rev() {
            self.stage_level(d, nodes);
            // Pass 3: probe and intern. A node the index has no room for stays missing for
            // the exclusive path. Two successors with the same new pair meet here in order:
            // the second finds what the first interned.
            for e in &self.stage {
                self.trees[e.succ as usize * tl + e.node as usize] =
                    nodes.intern_shared_keyed(e.pair, e.hash).unwrap_or(NO_NODE);
            }
        }
        // The roots, in the same three passes; a root absent from the root table is a new
        // state's, looked up in the table of new states after a pass that prefetches its slot.
        self.found.clear();
        self.found.resize(n, SharedLookup::Missing);
        self.stage_roots(roots, n);
        // The stage's front is done with as the roots are found: it keeps the new states.
        let mut fresh = 0;
        for k in 0..self.stage.len() {
            let e = self.stage[k];
            match roots.find_keyed(e.pair, e.hash) {
                Some(id) => self.found[e.succ as usize] = SharedLookup::Known(StateId(id)),
                None => {
                    table.prefetch_fresh((e.pair >> 32) as u32, e.pair as u32);
                    self.stage[fresh] = e;
                    fresh += 1;
                }
            }
        }
        for e in &self.stage[..fresh] {
            let j = e.succ as usize;
            self.found[j] = table.meet_fresh((e.pair >> 32) as u32, e.pair as u32, self.pos[j]);
        }
    }

    /// Passes 1 and 2 of depth `d` (see the module docs): the dirty nodes' pairs staged
    /// with their hashes, their home slots and then the arena cells those name prefetched;
    /// a node with a child missing is missing.
    fn stage_level(&mut self, d: usize, nodes: &PairTable) {
        let kk = self.leaves;
        let tl = 2 * kk;
        self.stage.clear();
        for &(i, j) in &self.dirty[d] {
            let (i, j) = (i as usize, j as usize);
            let t = &mut self.trees[j * tl..(j + 1) * tl];
            let (a, b) = (t[2 * i], t[2 * i + 1]);
            if (2 * i < kk && a == NO_NODE) || (2 * i + 1 < kk && b == NO_NODE) {
                t[i] = NO_NODE;
            } else {
                let (pair, hash) = PairTable::key(a, b);
                nodes.prefetch_home(hash);
                self.stage.push(Pending {
                    succ: j as u32,
                    node: i as u32,
                    pair,
                    hash,
                });
            }
        }
        self.dirty[d].clear();
        for e in &self.stage {
            nodes.prefetch_pair(e.hash);
        }
    }

    /// Inserts every successor gathered, exclusively and outside phases of shared
    /// look-ups, in the order of [`push`](LookupBatch::push): appends each one's state and
    /// whether it is new to `out`, as [`TreeTable::insert`] of each in turn gives; `None`
    /// when a pair table is full. The sources' trees must be complete (from
    /// [`TreeTable::decode`] or an earlier insertion). [`clear`](LookupBatch::clear)
    /// empties the batch after; [`tree`](LookupBatch::tree) has each one's full tree.
    pub(super) fn insert_all(
        &mut self,
        table: &mut TreeTable,
        out: &mut Vec<(StateId, bool)>,
    ) -> Option<()> {
        let tl = 2 * self.leaves;
        let n = self.len();
        for d in (1..self.dirty.len()).rev() {
            let (nodes, _) = table.pair_tables_mut();
            self.stage_level(d, nodes);
            for e in &self.stage {
                let (id, _) = nodes.intern_keyed(e.pair, e.hash)?;
                self.trees[e.succ as usize * tl + e.node as usize] = id;
            }
        }
        self.roots_in_order(table, n, out)
    }

    /// Inserts the `n` rows of `rows` (each [`TreeTable::width`] words) exclusively, as
    /// [`insert_all`](LookupBatch::insert_all) does, each looked up from the tree of the
    /// row before it (the first from `src`, a complete tree): for rows that come without
    /// their sources, where neighbours are the nearest trees at hand. A node with no leaf
    /// below it changed from the row before is that row's node; the others are probed
    /// together, level by level, and each level is copied down the rows after its probes.
    /// [`tree`](LookupBatch::tree) has each row's full tree until the batch is cleared.
    pub(super) fn insert_chained(
        &mut self,
        table: &mut TreeTable,
        src: &[u32],
        rows: &[u32],
        n: usize,
        out: &mut Vec<(StateId, bool)>,
    ) -> Option<()> {
        let kk = self.leaves;
        let tl = 2 * kk;
        let width = table.width();
        debug_assert_eq!(src.len(), tl);
        self.trees.clear();
        self.trees.resize(n * tl, 0);
        for k in 0..n {
            self.trees[k * tl + kk..][..width].copy_from_slice(&rows[k * width..][..width]);
        }
        // A node is dirty where a leaf below it differs from the row before's.
        for k in 0..n {
            self.stamp += 1;
            for w in 0..width {
                let prev = if k == 0 {
                    src[kk + w]
                } else {
                    self.trees[(k - 1) * tl + kk + w]
                };
                if self.trees[k * tl + kk + w] == prev {
                    continue;
                }
                let mut i = (kk + w) / 2;
                while i >= 2 && self.mark[i] != self.stamp {
                    self.mark[i] = self.stamp;
                    self.dirty[depth(i)].push((i as u32, k as u32));
                    i /= 2;
                }
            }
        }
        for d in (1..self.dirty.len()).rev() {
            let (lo, hi) = (1usize << d, (2usize << d).min(kk));
            if lo >= hi {
                continue;
            }
            // The dirty nodes of this level, in row order: staged, prefetched, probed.
            let (nodes, _) = table.pair_tables_mut();
            self.stage_level(d, nodes);
            self.ids.clear();
            for e in &self.stage {
                self.ids.push(nodes.intern_keyed(e.pair, e.hash)?.0);
            }
            // Each row's level is the row before's, with its own dirty nodes written over.
            let mut e = 0;
            for k in 0..n {
                if k == 0 {
                    self.trees[lo..hi].copy_from_slice(&src[lo..hi]);
                } else {
                    self.trees
                        .copy_within((k - 1) * tl + lo..(k - 1) * tl + hi, k * tl + lo);
                }
                while e < self.stage.len() && self.stage[e].succ as usize == k {
                    self.trees[k * tl + self.stage[e].node as usize] = self.ids[e];
                    e += 1;
                }
            }
        }
        self.roots_in_order(table, n, out)
    }

    /// The roots of the first `n` trees, in three passes (home slots, arena cells, then
    /// probe or intern in order): each one's state and whether it is new, appended to
    /// `out`; `None` when the root table is full.
    fn roots_in_order(
        &mut self,
        table: &mut TreeTable,
        n: usize,
        out: &mut Vec<(StateId, bool)>,
    ) -> Option<()> {
        let (_, roots) = table.pair_tables_mut();
        self.stage_roots(roots, n);
        for e in &self.stage {
            let (id, new) = roots.intern_keyed(e.pair, e.hash)?;
            out.push((StateId(id), new));
        }
        Some(())
    }

    /// The first two passes over the roots of the first `n` trees: the root pairs of the
    /// trees with both children (every tree outside a phase of shared look-ups) staged,
    /// their home slots and then their arena cells prefetched.
    fn stage_roots(&mut self, roots: &PairTable, n: usize) {
        let kk = self.leaves;
        let tl = 2 * kk;
        self.stage.clear();
        for j in 0..n {
            let t = &self.trees[j * tl..(j + 1) * tl];
            if (kk > 2 && t[2] == NO_NODE) || (kk > 3 && t[3] == NO_NODE) {
                continue;
            }
            let (pair, hash) = PairTable::key(t[2], t[3]);
            roots.prefetch_home(hash);
            self.stage.push(Pending {
                succ: j as u32,
                node: 1,
                pair,
                hash,
            });
        }
        for e in &self.stage {
            roots.prefetch_pair(e.hash);
        }
    }

    /// Empties the batch (sources and successors), keeping its allocations.
    pub(super) fn clear(&mut self) {
        for level in &mut self.dirty {
            level.clear();
        }
        self.srcs.clear();
        self.trees.clear();
        self.src_of.clear();
        self.pos.clear();
        self.found.clear();
    }
}

/// Rows inserted one after the other into a tree table, their look-ups pipelined as the
/// explorer's are (a batch of rows a pass, one tree level at a time), exclusively and
/// without provisional numbers: for the searches that insert the successors of one state
/// at a time (the product, `product::build`) and for a worker that owns part of a state
/// space and receives the rows it must look up from elsewhere (`distrib`). One look-up at
/// a time waits on a cache miss at every tree level: 43 % of a distributed worker's time on
/// D.1, and most of the product's beyond a hundred million states.
#[derive(Debug, Default)]
pub struct BatchInsert {
    batch: Option<LookupBatch>,
    /// The tree of the last row inserted (empty before the first).
    last: Vec<u32>,
    work: Vec<u32>,
    keys: Vec<u32>,
}

impl BatchInsert {
    /// An inserter with nothing inserted yet.
    pub fn new() -> BatchInsert {
        BatchInsert::default()
    }

    /// Inserts the `n` rows of `rows` (each [`TreeTable::width`] words, one after the
    /// other) into `table` in order, each looked up from `src` (the full tree array of a
    /// state, from [`TreeTable::decode`], whose unchanged subtrees it keeps), appending
    /// what [`TreeTable::insert`] of each row in turn gives: its number and whether it is
    /// new. `None` when a pair table is full.
    pub fn insert_from(
        &mut self,
        table: &mut TreeTable,
        src: &[u32],
        rows: &[u32],
        n: usize,
        out: &mut Vec<(StateId, bool)>,
    ) -> Option<()> {
        let width = table.width();
        debug_assert_eq!(rows.len(), n * width);
        debug_assert_eq!(src.len(), table.tree_len());
        let mut b = self.take_batch(table);
        let mut j = 0;
        let mut res = Some(());
        while j < n && res.is_some() {
            let end = (j + BATCH_LOOKUPS).min(n);
            b.source(src);
            for k in j..end {
                b.push(&rows[k * width..(k + 1) * width], k as u64);
            }
            res = b.insert_all(table, out);
            b.clear();
            j = end;
        }
        self.batch = Some(b);
        res
    }

    /// Inserts the `n` rows of `rows` (each [`StateStore::width`] words) into `store` in
    /// order, appending each one's number and whether it is new, as
    /// [`StateStore::lookup`] and [`StateStore::insert_key`] of each in turn give; `None`
    /// when the store is full. Each row of the tree store is looked up from the tree of
    /// the row before it (rows that arrive together mostly come from a few states).
    pub fn insert(
        &mut self,
        store: &mut StateStore,
        rows: &[u32],
        n: usize,
        out: &mut Vec<(StateId, bool)>,
    ) -> Option<()> {
        let width = store.width();
        debug_assert_eq!(rows.len(), n * width);
        let row = |j: usize| &rows[j * width..(j + 1) * width];
        if store.tree().is_none() {
            for j in 0..n {
                self.keys.clear();
                let got = match store.lookup(&[], row(j), &mut self.work, &mut self.keys) {
                    Ok(id) => (id, false),
                    Err(h) => store.insert_key(&self.keys, h)?,
                };
                out.push(got);
            }
            return Some(());
        }
        let Some(table) = store.tree_mut() else {
            unreachable!("a tree store, asked just above")
        };
        let mut j = 0;
        if self.last.len() != table.tree_len() && n > 0 {
            // No tree to start from yet: the first row alone gives one.
            out.push(table.insert(row(0))?);
            table.decode(out[out.len() - 1].0, &mut self.last);
            j = 1;
        }
        let mut b = self.take_batch(table);
        let mut res = Some(());
        while j < n && res.is_some() {
            let end = (j + BATCH_LOOKUPS).min(n);
            res = b.insert_chained(
                table,
                &self.last,
                &rows[j * width..end * width],
                end - j,
                out,
            );
            if res.is_some() {
                self.last.clear();
                self.last.extend_from_slice(b.tree(end - j - 1));
            }
            b.clear();
            j = end;
        }
        self.batch = Some(b);
        res
    }

    /// The look-up batch, made for `table`'s trees (given back by the caller).
    fn take_batch(&mut self, table: &TreeTable) -> LookupBatch {
        match self.batch.take() {
            Some(b) if 2 * b.leaves == table.tree_len() => b,
            _ => LookupBatch::new(table),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Splitmix64: deterministic pseudo-random words for the test.
    fn next(s: &mut u64) -> u64 {
        *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The batch finds what one look-up at a time finds (the reference: the exclusive
    /// look-up against the same table), for every width, with successors that share new
    /// rows inside a batch and across batches, sources of every kind, and new states
    /// numbered between phases.
    #[test]
    fn batched_lookups_agree_with_single_lookups() {
        for width in 0..10usize {
            let mut seed = width as u64;
            let mut t = TreeTable::new(width);
            let row0: Vec<u32> = (0..width as u32).collect();
            t.insert(&row0).unwrap();
            let mut total = 0;
            for phase in 0..6 {
                t.prepare_shared(64);
                let mut b = LookupBatch::new(&t);
                let mut src = Vec::new();
                let mut rows = Vec::new();
                for s in 0..t.len().min(12) {
                    t.decode(StateId(s as u32), &mut src);
                    b.source(&src);
                    let base = t.row_of(&src).to_vec();
                    for k in 0..5u64 {
                        let mut row = base.clone();
                        for w in row.iter_mut() {
                            if next(&mut seed).is_multiple_of(3) {
                                *w = (next(&mut seed) % 4) as u32;
                            }
                        }
                        b.push(&row, (s as u64) << 32 | k);
                        rows.push(row);
                    }
                }
                b.run(&t);
                let found = b.found().to_vec();
                // The reference: the exclusive look-up of each row.
                let mut fresh_of = std::collections::HashMap::new();
                let mut tree = Vec::new();
                for (j, row) in rows.iter().enumerate() {
                    match (t.lookup(&[], row, &mut tree), found[j]) {
                        (Some(id), SharedLookup::Known(got)) => assert_eq!(id, got),
                        (None, SharedLookup::Fresh(p)) => {
                            assert_eq!(*fresh_of.entry(row.clone()).or_insert(p), p);
                            assert_eq!(&b.tree(j)[2..], &tree[2..]);
                        }
                        (want, got) => panic!("width {width} phase {phase}: {want:?} vs {got:?}"),
                    }
                }
                // The first position noted is the first push of each new row.
                for (j, row) in rows.iter().enumerate() {
                    if let SharedLookup::Fresh(p) = found[j] {
                        let first = rows.iter().position(|r| r == row).unwrap();
                        assert_eq!(t.first_meets(p, b.pos[j]), first == j);
                    }
                }
                // Number the new states as the insertion pass would, before the next phase.
                let mut ids = Vec::new();
                for &f in &found {
                    if let SharedLookup::Fresh(p) = f {
                        let (_, new) = t.insert_fresh(p).unwrap();
                        ids.extend(new.then_some(()));
                    }
                }
                let un = t.take_unindexed();
                t.index_roots(&un);
                t.end_shared(un);
                b.clear();
                assert!(b.is_empty());
                total += ids.len();
                assert_eq!(t.len(), 1 + total, "width {width} phase {phase}");
            }
        }
    }

    /// The exclusive batched insertion numbers rows exactly as one insertion at a time
    /// does (the reference: [`TreeTable::insert`] on a second table), for every width, from
    /// a given source and from the last row, with rows repeated inside a call and across
    /// calls, and for the flat store too.
    #[test]
    fn batched_insertion_agrees_with_single_insertion() {
        for width in 0..10usize {
            let mut seed = 77 + width as u64;
            let mut fast = TreeTable::new(width);
            let mut store = StateStore::new(crate::lts::table::StoreKind::Tree, width);
            let mut flat = StateStore::new(crate::lts::table::StoreKind::Table, width);
            let mut reference = TreeTable::new(width);
            let (mut bi, mut bs, mut bf) =
                (BatchInsert::new(), BatchInsert::new(), BatchInsert::new());
            let row0: Vec<u32> = (0..width as u32).collect();
            assert_eq!(fast.insert(&row0), reference.insert(&row0));
            for (b, st) in [(&mut bs, &mut store), (&mut bf, &mut flat)] {
                let mut got = Vec::new();
                b.insert(st, &row0, 1, &mut got).unwrap();
                assert_eq!(got, [(StateId(0), true)]);
            }
            let mut src = Vec::new();
            for call in 0..40 {
                let n = (next(&mut seed) % 70) as usize;
                let s = StateId((next(&mut seed) % fast.len() as u64) as u32);
                fast.decode(s, &mut src);
                let base = fast.row_of(&src).to_vec();
                let mut rows = Vec::new();
                for _ in 0..n {
                    for &v in &base {
                        let w = if next(&mut seed).is_multiple_of(3) {
                            (next(&mut seed) % 5) as u32
                        } else {
                            v
                        };
                        rows.push(w);
                    }
                }
                let want: Vec<_> = (0..n)
                    .map(|k| reference.insert(&rows[k * width..(k + 1) * width]).unwrap())
                    .collect();
                let mut got = Vec::new();
                bi.insert_from(&mut fast, &src, &rows[..n * width], n, &mut got)
                    .unwrap();
                assert_eq!(got, want, "width {width} call {call}: from a source");
                for (b, st) in [(&mut bs, &mut store), (&mut bf, &mut flat)] {
                    got.clear();
                    b.insert(st, &rows[..n * width], n, &mut got).unwrap();
                    assert_eq!(got, want, "width {width} call {call}: from the last row");
                }
            }
            // Every tree the batch left decodes to its row.
            let mut t = Vec::new();
            for id in 0..fast.len() as u32 {
                fast.decode(StateId(id), &mut t);
                reference.decode(StateId(id), &mut src);
                assert_eq!(fast.row_of(&t), reference.row_of(&src));
            }
        }
    }
}
