//! Strong bisimulation by partition refinement in O(m log n): Paige and Tarjan's algorithm
//! with per-label transition counts and "process the smaller half".
//!
//! States live in one array (`elems`) in which every block is a contiguous range, and every
//! *constellation* (a union of blocks that the partition is stable under) is a contiguous
//! range of blocks. A block that is split gives its marked part a new block number; the
//! marked part stays inside the old range, so constellations stay contiguous. The loop takes
//! a constellation with at least two blocks, moves its first or last block `B` (whichever is
//! smaller, so at most half of the constellation) into a constellation of its own, and
//! splits every block, per label `a`, into the states without `a`-transitions into `B`, those
//! with `a`-transitions into `B` only, and those with `a`-transitions both into `B` and into
//! the rest of the old constellation. The last test is what the counts are for: every
//! transition points to a shared cell holding the number of transitions with the same source
//! and label into the target's constellation, so "also into the rest" is one comparison.
//!
//! Each transition is scanned only when its target's constellation at least halves, so the
//! work is O(m log n) after the O(m log m) sort that builds the incoming adjacency.

use super::Partition;
use crate::lts::Transition;
use crate::progress::{grouped, Unwatched, Watch};

/// A refinable partition of `0..n`: each block is a contiguous range of `elems`, and marking
/// moves an element to the front of its block.
pub(crate) struct Refinable {
    /// The elements, block by block.
    pub(crate) elems: Vec<u32>,
    /// Where each element stands in `elems`.
    pos: Vec<u32>,
    /// The block of each element.
    pub(crate) block_of: Vec<u32>,
    /// Start of each block's range in `elems`.
    pub(crate) start: Vec<u32>,
    /// End (exclusive) of each block's range.
    pub(crate) end: Vec<u32>,
    /// How many elements at the front of each block are marked.
    marked: Vec<u32>,
    /// The blocks with marked elements.
    touched: Vec<u32>,
}

impl Refinable {
    /// One block holding `0..n`.
    pub(crate) fn new(n: usize) -> Refinable {
        Refinable {
            elems: (0..n as u32).collect(),
            pos: (0..n as u32).collect(),
            block_of: vec![0; n],
            start: vec![0],
            end: vec![n as u32],
            marked: vec![0],
            touched: Vec::new(),
        }
    }

    /// The number of blocks.
    pub(crate) fn num_blocks(&self) -> usize {
        self.start.len()
    }

    /// The size of block `b`.
    pub(crate) fn size(&self, b: u32) -> u32 {
        self.end[b as usize] - self.start[b as usize]
    }

    /// Marks element `s` (marking twice is harmless).
    pub(crate) fn mark(&mut self, s: u32) {
        let b = self.block_of[s as usize] as usize;
        let p = self.pos[s as usize];
        let m = self.start[b] + self.marked[b];
        if p < m {
            return;
        }
        if self.marked[b] == 0 {
            self.touched.push(b as u32);
        }
        let other = self.elems[m as usize];
        self.elems.swap(p as usize, m as usize);
        self.pos[other as usize] = p;
        self.pos[s as usize] = m;
        self.marked[b] += 1;
    }

    /// Splits every block with marked elements: the marked part (when it is not the whole
    /// block) becomes a new block; `on_split(old, new)` is told of each new block. Costs the
    /// number of marked elements.
    pub(crate) fn split(&mut self, mut on_split: impl FnMut(u32, u32)) {
        while let Some(b) = self.touched.pop() {
            let bi = b as usize;
            let m = std::mem::take(&mut self.marked[bi]);
            if m == self.end[bi] - self.start[bi] {
                continue;
            }
            let nb = self.start.len() as u32;
            let (s, e) = (self.start[bi], self.start[bi] + m);
            self.start.push(s);
            self.end.push(e);
            self.marked.push(0);
            self.start[bi] = e;
            for i in s..e {
                self.block_of[self.elems[i as usize] as usize] = nb;
            }
            on_split(b, nb);
        }
    }
}

/// The coarsest strong bisimulation of the LTS with `n` states, `num_labels` labels and the
/// `transitions`.
pub fn strong_partition(n: usize, num_labels: usize, transitions: &[Transition]) -> Partition {
    let Ok(p) = strong_partition_watched(n, num_labels, transitions, &mut Unwatched);
    p
}

/// [`strong_partition`] under `watch`: one tick per splitter constellation, so a stop comes
/// between two splits.
pub fn strong_partition_watched<W: Watch>(
    n: usize,
    num_labels: usize,
    transitions: &[Transition],
    watch: &mut W,
) -> Result<Partition, W::Stop> {
    let m = transitions.len();
    let mut part = Refinable::new(n);
    if n == 0 {
        return Ok(Partition::from_blocks(Vec::new(), 0));
    }
    // Incoming adjacency, sorted by (target, label).
    let mut order: Vec<u32> = (0..m as u32).collect();
    order.sort_unstable_by_key(|&i| {
        let t = &transitions[i as usize];
        (t.to, t.label)
    });
    let mut in_start = vec![0u32; n + 1];
    for t in transitions {
        in_start[t.to.index() + 1] += 1;
    }
    for i in 0..n {
        in_start[i + 1] += in_start[i];
    }
    let in_from: Vec<u32> = order
        .iter()
        .map(|&i| transitions[i as usize].from.0)
        .collect();
    let in_label: Vec<u32> = order
        .iter()
        .map(|&i| transitions[i as usize].label.0)
        .collect();
    // Count cells: one per (source, label) to begin with (one constellation: all states).
    let mut by_src: Vec<u32> = (0..m as u32).collect();
    by_src.sort_unstable_by_key(|&j| (in_from[j as usize], in_label[j as usize]));
    let mut cell = vec![0u32; m];
    let mut count: Vec<u32> = Vec::new();
    let mut prev: Option<(u32, u32)> = None;
    for &j in &by_src {
        let key = (in_from[j as usize], in_label[j as usize]);
        if prev != Some(key) {
            count.push(0);
            prev = Some(key);
        }
        let c = count.len() as u32 - 1;
        count[c as usize] += 1;
        cell[j as usize] = c;
    }
    // Initial split: per label, the states with a transition with that label.
    let mut label_first: Vec<u32> = by_src.clone();
    label_first.sort_unstable_by_key(|&j| in_label[j as usize]);
    let mut i = 0;
    while i < m {
        let a = in_label[label_first[i] as usize];
        while i < m && in_label[label_first[i] as usize] == a {
            part.mark(in_from[label_first[i] as usize]);
            i += 1;
        }
        part.split(|_, _| {});
    }
    drop(label_first);
    drop(by_src);

    // Constellations: ranges of `elems`; initially one holding everything.
    let mut c_start = vec![0u32];
    let mut c_end = vec![n as u32];
    let mut const_of_block = vec![0u32; part.num_blocks()];
    let mut todo: Vec<u32> = Vec::new();
    let mut in_todo = vec![false];
    if part.num_blocks() > 1 {
        todo.push(0);
        in_todo[0] = true;
    }
    let mut free_cells: Vec<u32> = Vec::new();
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); num_labels];
    let mut touched_labels: Vec<u32> = Vec::new();
    let mut stamp = vec![u32::MAX; n];
    let mut old_cell = vec![0u32; n];
    let mut new_cell = vec![0u32; n];
    let mut epoch: u32 = 0;
    let mut srcs: Vec<u32> = Vec::new();

    let mut splitters = 0u64;
    while let Some(c) = todo.pop() {
        splitters += 1;
        watch.tick(splitters, || {
            format!(
                "{} splitters, {} blocks",
                grouped(splitters),
                grouped(part.num_blocks() as u64)
            )
        })?;
        let ci = c as usize;
        in_todo[ci] = false;
        let bf = part.block_of[part.elems[c_start[ci] as usize] as usize];
        let bl = part.block_of[part.elems[c_end[ci] as usize - 1] as usize];
        if bf == bl {
            continue;
        }
        let b = if part.size(bf) <= part.size(bl) {
            bf
        } else {
            bl
        };
        if b == bf {
            c_start[ci] = part.end[b as usize];
        } else {
            c_end[ci] = part.start[b as usize];
        }
        let nc = c_start.len() as u32;
        c_start.push(part.start[b as usize]);
        c_end.push(part.end[b as usize]);
        in_todo.push(false);
        const_of_block[b as usize] = nc;
        if part.block_of[part.elems[c_start[ci] as usize] as usize]
            != part.block_of[part.elems[c_end[ci] as usize - 1] as usize]
        {
            todo.push(c);
            in_todo[ci] = true;
        }
        // The transitions into B, by label.
        for p in part.start[b as usize]..part.end[b as usize] {
            let s = part.elems[p as usize] as usize;
            for j in in_start[s]..in_start[s + 1] {
                let a = in_label[j as usize];
                if buckets[a as usize].is_empty() {
                    touched_labels.push(a);
                }
                buckets[a as usize].push(j);
            }
        }
        for a in std::mem::take(&mut touched_labels) {
            let js = std::mem::take(&mut buckets[a as usize]);
            epoch = epoch.wrapping_add(1);
            for &j in &js {
                let src = in_from[j as usize];
                let si = src as usize;
                if stamp[si] != epoch {
                    stamp[si] = epoch;
                    old_cell[si] = cell[j as usize];
                    let fresh = match free_cells.pop() {
                        Some(f) => {
                            count[f as usize] = 0;
                            f
                        }
                        None => {
                            count.push(0);
                            count.len() as u32 - 1
                        }
                    };
                    new_cell[si] = fresh;
                    srcs.push(src);
                }
                count[new_cell[si] as usize] += 1;
                count[cell[j as usize] as usize] -= 1;
                cell[j as usize] = new_cell[si];
            }
            let mut note = |old: u32, new: u32| {
                let k = const_of_block[old as usize];
                const_of_block.push(k);
                debug_assert_eq!(const_of_block.len() as u32, new + 1);
                if !in_todo[k as usize] {
                    in_todo[k as usize] = true;
                    todo.push(k);
                }
            };
            for &s in &srcs {
                part.mark(s);
            }
            part.split(&mut note);
            for &s in &srcs {
                let oc = old_cell[s as usize];
                if count[oc as usize] > 0 {
                    part.mark(s);
                } else {
                    free_cells.push(oc);
                }
            }
            part.split(&mut note);
            srcs.clear();
            buckets[a as usize] = js;
            buckets[a as usize].clear();
        }
    }
    let nb = part.num_blocks() as u32;
    Ok(Partition::from_blocks(part.block_of, nb))
}
