//! The refinable structure of the O(m log n) branching-bisimulation algorithm: the
//! contracted graph, blocks (with their bottom states), constellations, *slices* of
//! transitions and per-state transition counters.
//!
//! - A *block* is a contiguous range of `perm`; its *bottom* states (no inert tau-step, that
//!   is no tau-step to a state of the same block) are listed apart, with their positions.
//! - A *constellation* is a set of blocks; the partition is kept stable under every
//!   constellation (see `refine.rs`).
//! - A *slice* holds the transitions with one source block, one label and one target
//!   constellation, as a contiguous range of `slots`. A block split or a constellation
//!   split moves transitions from a slice into a new slice right after it, so each move is
//!   O(1) (the transitions of a smaller part move, never those of the rest).
//! - A *counter* counts, per source state, label and target constellation, the transitions
//!   of that kind; a constellation split gives the transitions into the part split off a
//!   counter of their own whose `parent` is the old one, which then counts the transitions
//!   into the rest. So "does `s` also have an `a`-step into the rest" is one comparison.

/// Declares a typed index: a `u32` newtype with a `NONE` value and `ix()` for indexing.
macro_rules! typed_id {
    ($(#[$doc:meta] $name:ident),* $(,)?) => {$(
        #[$doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub(super) struct $name(pub(super) u32);
        impl $name {
            /// No such item.
            #[allow(dead_code)] // not every kind of item needs one
            pub(super) const NONE: $name = $name(u32::MAX);
            /// The index into the vectors of this kind of item.
            #[inline]
            pub(super) fn ix(self) -> usize {
                self.0 as usize
            }
        }
    )*};
}

typed_id! {
    /// A node of the contracted graph (a tau-SCC of the LTS).
    Node,
    /// A transition of the contracted graph.
    Edge,
    /// A block of the partition.
    Block,
    /// A constellation: a union of blocks.
    Cons,
    /// A slice: the transitions of one source block, label and target constellation.
    Slice,
    /// A counter of transitions with one source node, label and target constellation.
    Counter,
}

/// The contracted graph: transitions sorted by source, tau-transitions acyclic (no tau
/// self-loops), every tau label replaced by one.
pub(super) struct Graph {
    /// Source of each edge.
    pub(super) from: Vec<Node>,
    /// Label of each edge.
    pub(super) label: Vec<u32>,
    /// Target of each edge.
    pub(super) to: Vec<Node>,
    /// The edges out of node `v` are `out_start[v]..out_start[v + 1]`.
    pub(super) out_start: Vec<u32>,
    /// The edges into node `v` are `in_edges[in_start[v]..in_start[v + 1]]`.
    pub(super) in_start: Vec<u32>,
    /// Edge numbers, by target.
    pub(super) in_edges: Vec<Edge>,
    /// The one internal label (`u32::MAX` when there is none).
    pub(super) tau: u32,
}

impl Graph {
    /// The graph whose edges out of node `v` are `edges[out_start[v]..out_start[v + 1]]`,
    /// as `(label, to)` pairs, sorted, each edge once.
    pub(super) fn new(out_start: Vec<u32>, edges: Vec<(u32, u32)>, tau: u32) -> Graph {
        let k = out_start.len() - 1;
        let mut in_start = vec![0u32; k + 1];
        for &(_, t) in &edges {
            in_start[t as usize + 1] += 1;
        }
        for i in 0..k {
            in_start[i + 1] += in_start[i];
        }
        let mut from = Vec::with_capacity(edges.len());
        for v in 0..k {
            let n = (out_start[v + 1] - out_start[v]) as usize;
            from.extend(std::iter::repeat_n(Node(v as u32), n));
        }
        let label = edges.iter().map(|&(a, _)| a).collect();
        let to: Vec<Node> = edges.iter().map(|&(_, t)| Node(t)).collect();
        drop(edges);
        let mut fill = in_start.clone();
        let mut in_edges = vec![Edge(0); to.len()];
        for (e, t) in to.iter().enumerate() {
            in_edges[fill[t.ix()] as usize] = Edge(e as u32);
            fill[t.ix()] += 1;
        }
        Graph {
            from,
            label,
            to,
            out_start,
            in_start,
            in_edges,
            tau,
        }
    }

    /// The number of nodes.
    pub(super) fn nodes(&self) -> usize {
        self.out_start.len() - 1
    }

    /// The edges out of `v`.
    #[inline]
    pub(super) fn out(&self, v: Node) -> impl Iterator<Item = Edge> {
        (self.out_start[v.ix()]..self.out_start[v.ix() + 1]).map(Edge)
    }

    /// The edges into `v`.
    #[inline]
    pub(super) fn incoming(&self, v: Node) -> &[Edge] {
        &self.in_edges[self.in_start[v.ix()] as usize..self.in_start[v.ix() + 1] as usize]
    }

    /// The number of edges out of and into `v` (the work of moving `v`).
    #[inline]
    pub(super) fn degree(&self, v: Node) -> u64 {
        u64::from(self.out_start[v.ix() + 1] - self.out_start[v.ix()])
            + u64::from(self.in_start[v.ix() + 1] - self.in_start[v.ix()])
    }
}

/// What a slice waiting in `Parts::pending` is to split its block under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pending {
    /// Not waiting.
    No,
    /// Split the block into the states that reach a transition of the slice by inert steps
    /// and the rest.
    Plain,
    /// As `Plain`, then split the first part under the slice's *sibling*: the same
    /// transitions into the rest of the constellation the slice's constellation left.
    WithRest,
}

/// Blocks, constellations, slices and counters over a [`Graph`].
pub(super) struct Parts {
    /// The graph.
    pub(super) g: Graph,
    /// The block of each node.
    pub(super) block_of: Vec<Block>,
    /// The nodes, block by block.
    perm: Vec<Node>,
    /// Where each node stands in `perm`.
    pos: Vec<u32>,
    /// Where each bottom node stands in its block's bottom list.
    bottom_pos: Vec<u32>,
    /// The number of inert tau-steps of each node.
    pub(super) inert_out: Vec<u32>,
    /// Bottom nodes whose block is not yet known to be stable for them.
    pub(super) is_new: Vec<bool>,
    /// New bottom nodes to stabilise (may hold nodes already stabilised).
    pub(super) new_bottom: Vec<Node>,
    /// Each block's range of `perm`.
    bl_begin: Vec<u32>,
    bl_end: Vec<u32>,
    /// Each block's constellation and its position in the constellation's list.
    pub(super) bl_cons: Vec<Cons>,
    bl_cons_pos: Vec<u32>,
    /// Each block's bottom nodes.
    pub(super) bl_bottom: Vec<Vec<Node>>,
    /// Each block's slices (some may have become empty).
    pub(super) bl_slices: Vec<Vec<Slice>>,
    /// Each constellation's blocks and number of nodes.
    co_blocks: Vec<Vec<Block>>,
    co_size: Vec<u32>,
    /// Whether a constellation is on the `nontrivial` stack.
    co_listed: Vec<bool>,
    /// Constellations that may have more than one block.
    nontrivial: Vec<Cons>,
    /// Each slice's range of `slots`, source block, label and target constellation.
    sl_begin: Vec<u32>,
    sl_end: Vec<u32>,
    pub(super) sl_block: Vec<Block>,
    pub(super) sl_label: Vec<u32>,
    pub(super) sl_cons: Vec<Cons>,
    /// The slice that receives a slice's moved transitions in the current operation.
    sl_split: Vec<Slice>,
    /// For a slice waiting as `WithRest`: the slice of the same block and label into the
    /// rest of the old constellation.
    pub(super) sl_sibling: Vec<Slice>,
    /// Whether and how a slice waits in `pending`.
    pub(super) sl_pending: Vec<Pending>,
    /// Scratch per slice for stabilisation: a stamp, a count and the last node counted.
    pub(super) sl_stamp: Vec<u32>,
    pub(super) sl_count: Vec<u32>,
    pub(super) sl_last: Vec<Node>,
    /// The edges, slice by slice.
    slots: Vec<Edge>,
    /// Where each edge stands in `slots`.
    edge_slot: Vec<u32>,
    /// The slice of each edge.
    pub(super) edge_slice: Vec<Slice>,
    /// The slices split in the current operation.
    touched: Vec<Slice>,
    /// Slices to split under, with `sl_pending` saying how.
    pub(super) pending: Vec<Slice>,
    /// The counter of each edge.
    pub(super) edge_cnt: Vec<Counter>,
    /// Each counter's count.
    pub(super) cnt: Vec<u32>,
    /// Links between the counters of the current constellation split (all `NONE` between
    /// splits): an old counter links to the counter that receives its edges into the new
    /// constellation, and that counter links back to it, its *parent*, which then counts
    /// the edges into the rest. One array for both directions: a counter is never old and
    /// new in the same split, and this is one of the few arrays as long as the edges.
    pub(super) cnt_link: Vec<Counter>,
    /// Counters split by the last constellation split, to recycle when they reach zero.
    cnt_touched: Vec<Counter>,
    /// Counters free for reuse.
    cnt_free: Vec<Counter>,
}

impl Parts {
    /// One block and one constellation holding every node, one slice per label; every bottom
    /// node is new (nothing is known stable yet).
    pub(super) fn new(g: Graph) -> Parts {
        let k = g.nodes();
        let m = g.from.len();
        let mut inert_out = vec![0u32; k];
        for e in 0..m {
            if g.label[e] == g.tau {
                inert_out[g.from[e].ix()] += 1;
            }
        }
        let bottom: Vec<Node> = (0..k as u32)
            .map(Node)
            .filter(|v| inert_out[v.ix()] == 0)
            .collect();
        let mut bottom_pos = vec![u32::MAX; k];
        for (i, v) in bottom.iter().enumerate() {
            bottom_pos[v.ix()] = i as u32;
        }
        // Slices: edges by label (counting sort).
        let labels = g.label.iter().map(|&a| a as usize + 1).max().unwrap_or(0);
        let mut lstart = vec![0u32; labels + 1];
        for &a in &g.label {
            lstart[a as usize + 1] += 1;
        }
        for i in 0..labels {
            lstart[i + 1] += lstart[i];
        }
        let mut slot_of_label: Vec<u32> = vec![u32::MAX; labels];
        let mut parts_slices = Vec::new();
        let (mut sl_begin, mut sl_end, mut sl_label) = (Vec::new(), Vec::new(), Vec::new());
        for a in 0..labels {
            if lstart[a] < lstart[a + 1] {
                slot_of_label[a] = parts_slices.len() as u32;
                parts_slices.push(Slice(parts_slices.len() as u32));
                sl_begin.push(lstart[a]);
                sl_end.push(lstart[a + 1]);
                sl_label.push(a as u32);
            }
        }
        let mut fill = lstart.clone();
        let mut slots = vec![Edge(0); m];
        let mut edge_slot = vec![0u32; m];
        let mut edge_slice = vec![Slice(0); m];
        for e in 0..m {
            let a = g.label[e] as usize;
            slots[fill[a] as usize] = Edge(e as u32);
            edge_slot[e] = fill[a];
            fill[a] += 1;
            edge_slice[e] = Slice(slot_of_label[a]);
        }
        // Counters: edges are sorted by source, then label.
        let mut cnt: Vec<u32> = Vec::new();
        let edge_cnt: Vec<Counter> = (0..m)
            .map(|e| {
                if e == 0 || g.from[e] != g.from[e - 1] || g.label[e] != g.label[e - 1] {
                    cnt.push(0);
                }
                let c = cnt.len() - 1;
                cnt[c] += 1;
                Counter(c as u32)
            })
            .collect();
        let ns = parts_slices.len();
        let nc = cnt.len();
        Parts {
            block_of: vec![Block(0); k],
            perm: (0..k as u32).map(Node).collect(),
            pos: (0..k as u32).collect(),
            bottom_pos,
            is_new: inert_out.iter().map(|&i| i == 0).collect(),
            new_bottom: bottom.clone(),
            inert_out,
            bl_begin: vec![0],
            bl_end: vec![k as u32],
            bl_cons: vec![Cons(0)],
            bl_cons_pos: vec![0],
            bl_bottom: vec![bottom],
            bl_slices: vec![parts_slices],
            co_blocks: vec![vec![Block(0)]],
            co_size: vec![k as u32],
            co_listed: vec![false],
            nontrivial: Vec::new(),
            sl_begin,
            sl_end,
            sl_block: vec![Block(0); ns],
            sl_label,
            sl_cons: vec![Cons(0); ns],
            sl_split: vec![Slice::NONE; ns],
            sl_sibling: vec![Slice::NONE; ns],
            sl_pending: vec![Pending::No; ns],
            sl_stamp: vec![0; ns],
            sl_count: vec![0; ns],
            sl_last: vec![Node::NONE; ns],
            slots,
            edge_slot,
            edge_slice,
            touched: Vec::new(),
            pending: Vec::new(),
            edge_cnt,
            cnt,
            cnt_link: vec![Counter::NONE; nc],
            cnt_touched: Vec::new(),
            cnt_free: Vec::new(),
            g,
        }
    }

    /// The number of blocks.
    pub(super) fn num_blocks(&self) -> usize {
        self.bl_begin.len()
    }

    /// The number of constellations.
    pub(super) fn num_constellations(&self) -> usize {
        self.co_blocks.len()
    }

    /// The number of nodes of block `b`.
    pub(super) fn block_size(&self, b: Block) -> usize {
        (self.bl_end[b.ix()] - self.bl_begin[b.ix()]) as usize
    }

    /// The edges of slice `y`.
    pub(super) fn slice_edges(&self, y: Slice) -> &[Edge] {
        &self.slots[self.sl_begin[y.ix()] as usize..self.sl_end[y.ix()] as usize]
    }

    /// Whether slice `y` has no edges.
    pub(super) fn slice_empty(&self, y: Slice) -> bool {
        self.sl_begin[y.ix()] == self.sl_end[y.ix()]
    }

    /// Whether slice `y` holds tau-steps into its own block's constellation, which
    /// stability ignores.
    pub(super) fn slice_inert(&self, y: Slice) -> bool {
        self.sl_label[y.ix()] == self.g.tau
            && self.sl_cons[y.ix()] == self.bl_cons[self.sl_block[y.ix()].ix()]
    }

    /// Whether `v` has an edge in slice `y` (for `v` in `y`'s block: a step with `y`'s
    /// label into `y`'s constellation). One read per edge, where comparing label and target
    /// constellation took four.
    pub(super) fn has_edge_in(&self, v: Node, y: Slice) -> bool {
        self.g.out(v).any(|e| self.edge_slice[e.ix()] == y)
    }

    /// Makes `v` a bottom node of its block (its last inert step became non-inert), new.
    fn make_bottom(&mut self, v: Node) {
        let b = self.block_of[v.ix()];
        self.bottom_pos[v.ix()] = self.bl_bottom[b.ix()].len() as u32;
        self.bl_bottom[b.ix()].push(v);
        self.is_new[v.ix()] = true;
        self.new_bottom.push(v);
    }

    /// The slice that receives `x`'s transitions moved in this operation, with source block
    /// `b` and target constellation `c`; created right after `x` on first use.
    fn split_target(&mut self, x: Slice, b: Block, c: Cons) -> Slice {
        if self.sl_split[x.ix()] == Slice::NONE {
            let y = Slice(self.sl_begin.len() as u32);
            let end = self.sl_end[x.ix()];
            self.sl_begin.push(end);
            self.sl_end.push(end);
            self.sl_block.push(b);
            self.sl_label.push(self.sl_label[x.ix()]);
            self.sl_cons.push(c);
            self.sl_split.push(Slice::NONE);
            self.sl_sibling.push(Slice::NONE);
            self.sl_pending.push(Pending::No);
            self.sl_stamp.push(0);
            self.sl_count.push(0);
            self.sl_last.push(Node::NONE);
            self.bl_slices[b.ix()].push(y);
            self.sl_split[x.ix()] = y;
            self.touched.push(x);
        }
        self.sl_split[x.ix()]
    }

    /// Moves edge `e` from its slice to the slice `y` right after it.
    fn move_edge(&mut self, e: Edge, y: Slice) {
        let x = self.edge_slice[e.ix()];
        let last = self.sl_end[x.ix()] - 1;
        let at = self.edge_slot[e.ix()];
        let other = self.slots[last as usize];
        self.slots.swap(at as usize, last as usize);
        self.edge_slot[other.ix()] = at;
        self.edge_slot[e.ix()] = last;
        self.sl_end[x.ix()] = last;
        self.sl_begin[y.ix()] = last;
        self.edge_slice[e.ix()] = y;
    }

    /// Moves the nodes `moved` (all in block `b`, not all of it) into a new block of the
    /// same constellation, which it returns. Tau-steps between the two parts stop being
    /// inert, so their sources may become (new) bottom nodes; the moved nodes' transitions
    /// move to slices of the new block, and a waiting slice's part waits too. Costs
    /// O(moved nodes and their edges).
    pub(super) fn split_off(&mut self, b: Block, moved: &[Node]) -> Block {
        let nb = Block(self.bl_begin.len() as u32);
        let c = self.bl_cons[b.ix()];
        let end = self.bl_end[b.ix()];
        self.bl_begin.push(end - moved.len() as u32);
        self.bl_end.push(end);
        self.bl_cons.push(c);
        self.bl_cons_pos.push(self.co_blocks[c.ix()].len() as u32);
        self.co_blocks[c.ix()].push(nb);
        if !self.co_listed[c.ix()] {
            self.co_listed[c.ix()] = true;
            self.nontrivial.push(c);
        }
        self.bl_bottom.push(Vec::new());
        self.bl_slices.push(Vec::new());
        for &v in moved {
            let last = self.bl_end[b.ix()] - 1;
            let at = self.pos[v.ix()];
            let other = self.perm[last as usize];
            self.perm.swap(at as usize, last as usize);
            self.pos[other.ix()] = at;
            self.pos[v.ix()] = last;
            self.bl_end[b.ix()] = last;
            self.block_of[v.ix()] = nb;
            if self.inert_out[v.ix()] == 0 {
                let list = &mut self.bl_bottom[b.ix()];
                let i = self.bottom_pos[v.ix()] as usize;
                let tail = *list.last().expect("v is listed");
                list.swap_remove(i);
                if tail != v {
                    self.bottom_pos[tail.ix()] = i as u32;
                }
                self.bottom_pos[v.ix()] = self.bl_bottom[nb.ix()].len() as u32;
                self.bl_bottom[nb.ix()].push(v);
                if self.is_new[v.ix()] {
                    self.new_bottom.push(v);
                }
            }
        }
        debug_assert!(self.bl_begin[nb.ix()] == self.bl_end[b.ix()]);
        for &v in moved {
            for e in self.g.out(v) {
                let t = self.g.to[e.ix()];
                if self.g.label[e.ix()] == self.g.tau && self.block_of[t.ix()] == b {
                    self.inert_out[v.ix()] -= 1;
                    if self.inert_out[v.ix()] == 0 {
                        self.make_bottom(v);
                    }
                }
                let x = self.edge_slice[e.ix()];
                let y = self.split_target(x, nb, self.sl_cons[x.ix()]);
                self.move_edge(e, y);
            }
            for i in self.g.in_start[v.ix()]..self.g.in_start[v.ix() + 1] {
                let e = self.g.in_edges[i as usize];
                let p = self.g.from[e.ix()];
                if self.g.label[e.ix()] == self.g.tau && self.block_of[p.ix()] == b {
                    self.inert_out[p.ix()] -= 1;
                    if self.inert_out[p.ix()] == 0 {
                        self.make_bottom(p);
                    }
                }
            }
        }
        for i in 0..self.touched.len() {
            let x = self.touched[i];
            let y = self.sl_split[x.ix()];
            let kind = self.sl_pending[x.ix()];
            if kind != Pending::No {
                self.sl_pending[y.ix()] = kind;
                self.pending.push(y);
            }
            // Also for the slice being processed (no longer waiting), whose sibling its
            // processing reads after this split; a stale sibling is never read.
            let sib = self.sl_sibling[x.ix()];
            if sib != Slice::NONE {
                self.sl_sibling[y.ix()] = self.sl_split[sib.ix()];
            }
        }
        self.end_operation();
        nb
    }

    /// Forgets the current operation's split targets.
    fn end_operation(&mut self) {
        for x in self.touched.drain(..) {
            self.sl_split[x.ix()] = Slice::NONE;
        }
    }

    /// Takes a constellation with two or more blocks, moves its smaller first or second
    /// block `bsp` (at most half of it) into a constellation of its own, and moves the
    /// transitions into `bsp` to slices and counters of their own. Queues the slices the
    /// blocks must now be split under (see [`Pending`]). `None` when every constellation is
    /// one block: the partition is then stable.
    pub(super) fn split_constellation(&mut self) -> Option<Block> {
        let c = loop {
            let c = *self.nontrivial.last()?;
            if self.co_blocks[c.ix()].len() >= 2 {
                break c;
            }
            self.nontrivial.pop();
            self.co_listed[c.ix()] = false;
        };
        let (b1, b2) = (self.co_blocks[c.ix()][0], self.co_blocks[c.ix()][1]);
        let bsp = if self.block_size(b1) <= self.block_size(b2) {
            b1
        } else {
            b2
        };
        let list = &mut self.co_blocks[c.ix()];
        let i = self.bl_cons_pos[bsp.ix()] as usize;
        let tail = *list.last().expect("two blocks");
        list.swap_remove(i);
        if tail != bsp {
            self.bl_cons_pos[tail.ix()] = i as u32;
        }
        if list.len() < 2 {
            self.nontrivial.pop();
            self.co_listed[c.ix()] = false;
        }
        let nc = Cons(self.co_blocks.len() as u32);
        self.co_blocks.push(vec![bsp]);
        self.co_listed.push(false);
        let size = self.block_size(bsp) as u32;
        self.co_size.push(size);
        self.co_size[c.ix()] -= size;
        self.bl_cons[bsp.ix()] = nc;
        self.bl_cons_pos[bsp.ix()] = 0;
        debug_assert!(
            self.cnt_touched.is_empty(),
            "recycle_counters ends each split"
        );
        for i in self.bl_begin[bsp.ix()]..self.bl_end[bsp.ix()] {
            let v = self.perm[i as usize];
            for j in self.g.in_start[v.ix()]..self.g.in_start[v.ix() + 1] {
                let e = self.g.in_edges[j as usize];
                let x = self.edge_slice[e.ix()];
                let y = self.split_target(x, self.sl_block[x.ix()], nc);
                self.move_edge(e, y);
                let old = self.edge_cnt[e.ix()];
                if self.cnt_link[old.ix()] == Counter::NONE {
                    let new = match self.cnt_free.pop() {
                        Some(f) => f,
                        None => {
                            self.cnt.push(0);
                            self.cnt_link.push(Counter::NONE);
                            Counter(self.cnt.len() as u32 - 1)
                        }
                    };
                    self.cnt[new.ix()] = 0;
                    self.cnt_link[new.ix()] = old;
                    self.cnt_link[old.ix()] = new;
                    self.cnt_touched.push(old);
                }
                let new = self.cnt_link[old.ix()];
                self.cnt[old.ix()] -= 1;
                self.cnt[new.ix()] += 1;
                self.edge_cnt[e.ix()] = new;
            }
        }
        // The splitters: per source block and label, the transitions into `bsp`.
        for i in 0..self.touched.len() {
            let x = self.touched[i];
            let y = self.sl_split[x.ix()];
            let b = self.sl_block[x.ix()];
            let kind = if self.sl_label[x.ix()] != self.g.tau {
                Pending::WithRest
            } else if b == bsp {
                continue; // inert: tau-steps inside the new constellation
            } else if self.bl_cons[b.ix()] == c {
                Pending::Plain // tau into bsp from the rest: it used to be ignored
            } else {
                Pending::WithRest
            };
            self.sl_pending[y.ix()] = kind;
            self.sl_sibling[y.ix()] = if kind == Pending::WithRest {
                x
            } else {
                Slice::NONE
            };
            self.pending.push(y);
        }
        self.end_operation();
        // Tau-steps from `bsp` into the rest of its old constellation used to be ignored.
        if let Some(&y) = self.bl_slices[bsp.ix()].iter().find(|&&y| {
            self.sl_label[y.ix()] == self.g.tau && self.sl_cons[y.ix()] == c && !self.slice_empty(y)
        }) {
            self.sl_pending[y.ix()] = Pending::Plain;
            self.sl_sibling[y.ix()] = Slice::NONE;
            self.pending.push(y);
        }
        Some(bsp)
    }

    /// Clears the links of the last constellation split (no longer needed once its
    /// splitters are processed) and recycles the counters it emptied.
    pub(super) fn recycle_counters(&mut self) {
        for &old in &self.cnt_touched {
            let new = self.cnt_link[old.ix()];
            self.cnt_link[new.ix()] = Counter::NONE;
            self.cnt_link[old.ix()] = Counter::NONE;
            if self.cnt[old.ix()] == 0 {
                self.cnt_free.push(old);
            }
        }
        self.cnt_touched.clear();
    }

    /// Drops the empty slices from block `b`'s list.
    pub(super) fn compact_slices(&mut self, b: Block) {
        let mut list = std::mem::take(&mut self.bl_slices[b.ix()]);
        list.retain(|&y| !self.slice_empty(y));
        self.bl_slices[b.ix()] = list;
    }
}
