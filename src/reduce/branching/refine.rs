//! Refinement to the coarsest branching bisimulation in O(m log n) (after Jansen, Groote,
//! Keiren and Wijs, "An O(m log n) algorithm for branching bisimilarity on labelled
//! transition systems", TACAS 2020), over the structure of `parts.rs`.
//!
//! The partition is kept *stable* under the constellations: for every block `B`, label `a`
//! and constellation `C` (other than tau into `B`'s own constellation), if some state of `B`
//! has an `a`-step into `C` then every bottom state of `B` has one. Stable and every
//! constellation one block means a branching bisimulation; starting from one block, only
//! necessary splits are made, so it is the coarsest.
//!
//! The loop splits a constellation `C`: a block `B'` of at most half of it becomes a
//! constellation of its own (each transition moves O(log n) times). Every block with an
//! `a`-step into `B'` splits into the states that reach one by inert steps and the rest,
//! and the first part again under `a`-steps into `C \ B'` (a counter per state says which
//! bottom states have one). A split runs two searches side by side, one from the marked
//! states backwards over inert steps, one from the unmarked bottom states backwards
//! counting each state's inert steps, and stops when the first finishes: a split costs the
//! smaller part's edges. Tau-steps between the two parts stop being inert; states whose
//! last inert step went are *new bottom states*, for which the block is then stabilised
//! under every slice of its transitions (`stabilise`).
//!
//! The marked states of a split are met as its first search goes (`Seeds::Slice`), never
//! listed first: the second split of a block, under the steps into the rest of the old
//! constellation, and a split under a slice some new bottom states miss may have a large
//! slice and a small part to move, and listing its sources cost all of it (quadratic on
//! `scripts/bench-ltsconvert --family ladder:N`: 2.15 s at N = 64,000, now 0.08 s).
//!
//! New bottom states are handled as in the paper (`stabilise`): a block with new bottom
//! states first splits into the states that reach one by inert steps and the rest, which
//! keeps every old bottom state and is stable; only the first part's slices are visited,
//! and each visit is charged to a transition of a new bottom state (one found now, or one
//! the split under that slice makes). Each state becomes a new bottom state once, so this
//! costs O(m) over the run, and with the rest the algorithm is O(m log n). Before, the
//! block's slices were visited whole, old bottom states' included, and that visit was not
//! charged to anything. Measured (2026-11-26, `scripts/bench-ltsconvert`): no input tried
//! made the old visit dominate (B.1 and its `ch4_from_sendcrashed` variant have no tau, so
//! the only pass is the first; on `--family ladder:64000`, where the tau-chain becomes
//! bottom one state per pass, 128,003 slices in 64,001 passes).

use super::parts::{Block, Edge, Node, Parts, Pending};
use crate::progress::{grouped, Watch};

/// Which states count as marked in a split (the states the first search starts from).
#[derive(Clone, Copy)]
enum Mark {
    /// The states stamped in `Refiner::marked`.
    Flag,
    /// The states with a transition in this slice of the block being split.
    InSlice(super::parts::Slice),
}

/// Where the first search of a split starts: the marked states of the block.
#[derive(Clone, Copy)]
enum Seeds<'a> {
    /// These states, each once.
    List(&'a [Node]),
    /// The sources of this slice's transitions, read one transition per step of the
    /// search (a state met twice is skipped), so that a split costs the smaller part even
    /// when the slice is large.
    Slice(super::parts::Slice),
}

/// Where the second search of a split starts: the bottom states that are not marked.
enum Unmarked<'a> {
    /// The block's bottom states, filtered by the mark.
    Bottom,
    /// These states (the caller knows them to be all the unmarked bottom states).
    List(&'a [Node]),
}

/// The refinement's state beside the partition: scratch marks of the searches.
struct Refiner {
    p: Parts,
    /// `marked[v] == mark_epoch`: `v` is marked (for `Mark::Flag`).
    marked: Vec<u32>,
    mark_epoch: u32,
    /// `in_r[v] == op`, `in_u[v] == op`: `v` found by a search of split number `op`.
    in_r: Vec<u32>,
    in_u: Vec<u32>,
    /// Inert steps of `v` not yet known to lead into the unmarked part (valid when
    /// `u_stamp[v] == op`).
    u_left: Vec<u32>,
    u_stamp: Vec<u32>,
    op: u32,
    r_list: Vec<Node>,
    u_list: Vec<Node>,
    /// Scratch lists.
    seeds: Vec<Node>,
    rest: Vec<super::parts::Counter>,
    /// Splits done, for progress and stop messages.
    splits: u64,
    /// Stamp for per-slice counting in `stabilise_block`.
    slice_epoch: u32,
}

/// The coarsest stable partition of the graph's nodes: each node's block and the number
/// of blocks. Ticks `watch` once per split.
pub(super) fn refine<W: Watch>(
    g: super::parts::Graph,
    watch: &mut W,
) -> Result<(Vec<u32>, u32), W::Stop> {
    let k = g.nodes();
    let mut r = Refiner {
        p: Parts::new(g),
        marked: vec![0; k],
        mark_epoch: 0,
        in_r: vec![0; k],
        in_u: vec![0; k],
        u_left: vec![0; k],
        u_stamp: vec![0; k],
        op: 0,
        r_list: Vec::new(),
        u_list: Vec::new(),
        seeds: Vec::new(),
        rest: Vec::new(),
        splits: 0,
        slice_epoch: 0,
    };
    r.stabilise(watch)?;
    while r.p.split_constellation().is_some() {
        r.tick(watch)?;
        r.process_pending(watch)?;
        r.p.recycle_counters();
        r.stabilise(watch)?;
    }
    let blocks = r.p.block_of.iter().map(|b| b.0).collect();
    Ok((blocks, r.p.num_blocks() as u32))
}

impl Refiner {
    fn tick<W: Watch>(&mut self, watch: &mut W) -> Result<(), W::Stop> {
        self.splits += 1;
        let (blocks, cons) = (self.p.num_blocks(), self.p.num_constellations());
        watch.tick(self.splits, || {
            format!(
                "{} blocks, {} constellations",
                grouped(blocks as u64),
                grouped(cons as u64)
            )
        })
    }

    /// Splits every block under the waiting slices (see [`Pending`]).
    fn process_pending<W: Watch>(&mut self, watch: &mut W) -> Result<(), W::Stop> {
        while let Some(y) = self.p.pending.pop() {
            let kind = self.p.sl_pending[y.ix()];
            self.p.sl_pending[y.ix()] = Pending::No;
            if kind == Pending::No || self.p.slice_empty(y) {
                continue;
            }
            self.tick(watch)?;
            let b = self.p.sl_block[y.ix()];
            if kind == Pending::Plain {
                // The marked states are found in `y` as the first search goes: listing them
                // first would cost all of `y`, which may be the larger part.
                self.split(b, Seeds::Slice(y), Unmarked::Bottom, Mark::InSlice(y));
                continue;
            }
            self.mark_epoch += 1;
            let mut seeds = std::mem::take(&mut self.seeds);
            let mut rest = std::mem::take(&mut self.rest);
            seeds.clear();
            rest.clear();
            for &e in self.p.slice_edges(y) {
                let s = self.p.g.from[e.ix()];
                if self.marked[s.ix()] != self.mark_epoch {
                    self.marked[s.ix()] = self.mark_epoch;
                    seeds.push(s);
                    rest.push(self.p.cnt_link[self.p.edge_cnt[e.ix()].ix()]);
                }
            }
            let e0: Edge = self.p.slice_edges(y)[0];
            self.split(b, Seeds::List(&seeds), Unmarked::Bottom, Mark::Flag);
            if kind == Pending::WithRest {
                // The part that reaches `y` (holding all of `y`'s transitions), split under
                // the same label into the rest of the old constellation. Its bottom states
                // are all marked (a bottom state reaches only itself).
                let r = self.p.block_of[seeds[0].ix()];
                let ny = self.p.edge_slice[e0.ix()];
                let x = self.p.sl_sibling[ny.ix()];
                if x != super::parts::Slice::NONE && !self.p.slice_empty(x) {
                    let lacking: Vec<Node> = seeds
                        .iter()
                        .zip(&rest)
                        .filter(|&(&s, &c)| {
                            self.p.block_of[s.ix()] == r
                                && self.p.inert_out[s.ix()] == 0
                                && self.p.cnt[c.ix()] == 0
                        })
                        .map(|(&s, _)| s)
                        .collect();
                    if !lacking.is_empty() {
                        // `x` holds the steps into the rest, often the larger part: its
                        // sources are met as the first search goes, never listed in full.
                        self.split(
                            r,
                            Seeds::Slice(x),
                            Unmarked::List(&lacking),
                            Mark::InSlice(x),
                        );
                    }
                }
            }
            self.seeds = seeds;
            self.rest = rest;
        }
        Ok(())
    }

    fn is_marked(&self, v: Node, mark: Mark) -> bool {
        match mark {
            Mark::Flag => self.marked[v.ix()] == self.mark_epoch,
            Mark::InSlice(y) => self.p.has_edge_in(v, y),
        }
    }

    /// Splits block `b` into the states that reach a marked state by inert steps (`seeds`
    /// gives every marked state of `b`) and the rest, by two searches side by
    /// side; the part whose search finishes first moves to a new block. Returns whether
    /// `b` split.
    fn split(&mut self, b: Block, seeds: Seeds, unmarked: Unmarked, mark: Mark) -> bool {
        self.op += 1;
        let op = self.op;
        let tau = self.p.g.tau;
        self.r_list.clear();
        self.u_list.clear();
        let size = self.p.block_size(b);
        // Search R: seeds, then inert predecessors; (state index, in-edge cursor).
        let (mut r_seed, mut r_at, mut r_edge) = (0usize, 0usize, 0usize);
        // Search U: seeds, then inert predecessors whose inert steps all lead into U.
        let (mut u_seed, mut u_at, mut u_edge) = (0usize, 0usize, 0usize);
        let seeds_len = match seeds {
            Seeds::List(l) => l.len(),
            Seeds::Slice(x) => self.p.slice_edges(x).len(),
        };
        let u_seeds: &[Node] = match unmarked {
            Unmarked::Bottom => &[],
            Unmarked::List(l) => l,
        };
        let bottom_len = self.p.bl_bottom[b.ix()].len();
        let (mut r_work, mut u_work) = (0u64, 0u64);
        let r_first = loop {
            if r_work <= u_work {
                // One step of R.
                r_work += 1;
                if r_seed < seeds_len {
                    let s = match seeds {
                        Seeds::List(l) => l[r_seed],
                        Seeds::Slice(x) => self.p.g.from[self.p.slice_edges(x)[r_seed].ix()],
                    };
                    r_seed += 1;
                    if self.in_r[s.ix()] != op {
                        self.in_r[s.ix()] = op;
                        self.r_list.push(s);
                        r_work += self.p.g.degree(s);
                    }
                } else if r_at < self.r_list.len() {
                    let s = self.r_list[r_at];
                    let ins = self.p.g.incoming(s);
                    if r_edge < ins.len() {
                        let e = ins[r_edge];
                        r_edge += 1;
                        let q = self.p.g.from[e.ix()];
                        if self.p.g.label[e.ix()] == tau
                            && self.p.block_of[q.ix()] == b
                            && self.in_r[q.ix()] != op
                        {
                            self.in_r[q.ix()] = op;
                            self.r_list.push(q);
                            r_work += self.p.g.degree(q);
                        }
                    } else {
                        r_at += 1;
                        r_edge = 0;
                    }
                } else {
                    break true;
                }
            } else {
                // One step of U.
                u_work += 1;
                let seed = match unmarked {
                    Unmarked::Bottom if u_seed < bottom_len => {
                        let s = self.p.bl_bottom[b.ix()][u_seed];
                        u_seed += 1;
                        if let Mark::InSlice(_) = mark {
                            // Asking a slice reads `s`'s out-edges: counted, so that a split
                            // still costs its smaller part when the marked bottom states
                            // have many.
                            u_work += self.p.g.degree(s);
                        }
                        (!self.is_marked(s, mark)).then_some(s)
                    }
                    Unmarked::List(_) if u_seed < u_seeds.len() => {
                        u_seed += 1;
                        Some(u_seeds[u_seed - 1])
                    }
                    _ => {
                        if u_at < self.u_list.len() {
                            let s = self.u_list[u_at];
                            let ins = self.p.g.incoming(s);
                            if u_edge < ins.len() {
                                let e = ins[u_edge];
                                u_edge += 1;
                                let q = self.p.g.from[e.ix()];
                                let mut found = None;
                                if self.p.g.label[e.ix()] == tau && self.p.block_of[q.ix()] == b {
                                    if self.u_stamp[q.ix()] != op {
                                        self.u_stamp[q.ix()] = op;
                                        self.u_left[q.ix()] = self.p.inert_out[q.ix()];
                                    }
                                    self.u_left[q.ix()] -= 1;
                                    if self.u_left[q.ix()] == 0 {
                                        u_work += self.p.g.degree(q);
                                        if !self.is_marked(q, mark) {
                                            found = Some(q);
                                        }
                                    }
                                }
                                found
                            } else {
                                u_at += 1;
                                u_edge = 0;
                                None
                            }
                        } else {
                            break false;
                        }
                    }
                };
                if let Some(s) = seed {
                    if self.in_u[s.ix()] != op {
                        self.in_u[s.ix()] = op;
                        self.u_list.push(s);
                        u_work += self.p.g.degree(s);
                    }
                }
            }
        };
        self.splits += 1;
        if r_first {
            if self.r_list.len() == size {
                return false;
            }
            let moved = std::mem::take(&mut self.r_list);
            self.p.split_off(b, &moved);
            self.r_list = moved;
        } else {
            if self.u_list.is_empty() || self.u_list.len() == size {
                return false;
            }
            let moved = std::mem::take(&mut self.u_list);
            self.p.split_off(b, &moved);
            self.u_list = moved;
        }
        true
    }

    /// Makes every block with new bottom states stable again, as the paper does. Per block
    /// `b` with new bottom states `news`, first `b` splits into `N`, the states that reach
    /// one of `news` by inert steps, and `R'`, the rest (a split like any other: it costs
    /// the smaller part). `R'` keeps exactly `b`'s old bottom states, which have a
    /// transition in every slice of `b` (it was stable for them), so `R'` is stable; and
    /// no state becomes bottom by this split (a state of `N` keeps its inert step towards
    /// `news`, and no inert step leads from `R'` into `N`). Then every slice of `N` that
    /// some of its bottom states (all new) miss becomes a splitter, and all of them split
    /// `N` in one pass. Afterwards each part either has such a slice at all its bottom
    /// states or not at all, except for states that became bottom during the pass, which
    /// the next pass checks.
    ///
    /// The cost, charged as in the paper: the first split costs its smaller part; visiting
    /// the slices of `N` costs one per slice, and a slice of `N` either holds a transition
    /// of a new bottom state (charged to that transition) or holds none, and then the
    /// split under it leaves no old bottom state in the part that reaches it, whose bottom
    /// states are therefore new ones with a transition in it (charged to that
    /// transition). A state is a new bottom state once, and its slices are visited in the
    /// pass that finds it (afterwards it is old and stays in `R'`), so this is O(m) over
    /// the whole run, where the departure before (visiting all slices of `b`, old bottom
    /// states' included) was not charged to anything.
    fn stabilise<W: Watch>(&mut self, watch: &mut W) -> Result<(), W::Stop> {
        while !self.p.new_bottom.is_empty() {
            let mut list = std::mem::take(&mut self.p.new_bottom);
            list.retain(|v| self.p.is_new[v.ix()]);
            list.sort_unstable_by_key(|v| (self.p.block_of[v.ix()], *v));
            list.dedup();
            let mut i = 0;
            while i < list.len() {
                let b = self.p.block_of[list[i].ix()];
                let mut j = i;
                while j < list.len() && self.p.block_of[list[j].ix()] == b {
                    j += 1;
                }
                self.tick(watch)?;
                let news = &list[i..j];
                if self.p.bl_bottom[b.ix()].len() > news.len() {
                    // Old bottom states too: set `R'` apart first.
                    self.mark_epoch += 1;
                    for v in news {
                        self.marked[v.ix()] = self.mark_epoch;
                    }
                    self.split(b, Seeds::List(news), Unmarked::Bottom, Mark::Flag);
                }
                let n = self.p.block_of[news[0].ix()];
                debug_assert_eq!(self.p.bl_bottom[n.ix()].len(), news.len());
                self.queue_missed(n, news);
                for v in news {
                    self.p.is_new[v.ix()] = false;
                }
                i = j;
            }
            self.process_pending(watch)?;
        }
        Ok(())
    }

    /// Queues as `Plain` splitters the slices of block `b` (other than tau into its own
    /// constellation) that some of its new bottom states `news` have no transition in.
    fn queue_missed(&mut self, b: Block, news: &[Node]) {
        self.slice_epoch += 1;
        let ep = self.slice_epoch;
        for &v in news {
            for e in self.p.g.out(v) {
                let y = self.p.edge_slice[e.ix()];
                if self.p.sl_stamp[y.ix()] != ep {
                    self.p.sl_stamp[y.ix()] = ep;
                    self.p.sl_count[y.ix()] = 0;
                    self.p.sl_last[y.ix()] = Node::NONE;
                }
                if self.p.sl_last[y.ix()] != v {
                    self.p.sl_last[y.ix()] = v;
                    self.p.sl_count[y.ix()] += 1;
                }
            }
        }
        self.p.compact_slices(b);
        for k in 0..self.p.bl_slices[b.ix()].len() {
            let y = self.p.bl_slices[b.ix()][k];
            if !self.p.slice_inert(y)
                && (self.p.sl_stamp[y.ix()] != ep
                    || (self.p.sl_count[y.ix()] as usize) < news.len())
            {
                self.p.sl_pending[y.ix()] = Pending::Plain;
                self.p.sl_sibling[y.ix()] = super::parts::Slice::NONE;
                self.p.pending.push(y);
            }
        }
    }
}
