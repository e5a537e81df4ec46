//! Product games in which one player alone chooses, decided on the fly by a search for
//! the chooser's path or cycle, keeping a rank per vertex and the LPS states' tree.
//!
//! In a formula without `||`, `<α>` and `exists` (every box formula: safety, "eventually
//! permanently", `nu X . mu Y . ..` fairness) only Odd ever has a choice: Even's vertices
//! (fixpoint occurrences, constants) have one successor. Odd then wins from the initial
//! vertex iff some path reaches `false`, or reaches a cycle whose largest priority is odd;
//! dually, without `&&`, `[α]` and `forall`, Even alone chooses. That is an emptiness check,
//! not a game: a depth-first search numbers the vertices as Pearce's strongly connected
//! components algorithm does (its rank while open, `DONE` once closed), and a component
//! that closes is accepted when its largest priority is the chooser's parity; when it is
//! the other player's and a lower one is the chooser's, the component (then held in
//! memory) is searched again below its largest priority, as Emerson and Lei's algorithm
//! does. Successors are generated again each time a vertex is expanded
//! (`Product::lean`), so the search costs the states' tree, ten bytes a state of ranks,
//! 16-byte frames, eight bytes per closed vertex waiting for its component's root, and
//! the successor lists of the top frames.
//!
//! The evidence of the chooser's win is the search's own path: the depth-first stack to
//! the vertex that reaches the chooser's sink, or to the component, then a path inside it
//! to a vertex of the accepted priority and a cycle back to it (a lasso). The other
//! player's win has no path to show: it is the exploration of every reachable vertex.

use std::collections::VecDeque;

use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::bes::Player;
use crate::progress::Watch;

use super::build::{Product, FALSE, NO_LABEL, TRUE};
use super::formula::{Formula, Node};
use super::ProductError;

/// A vertex of the product: `(LPS state, formula node, valuation)`.
type Key = (u32, u32, u32);

/// A vertex packed as its slot (the pair `(node, valuation)`, numbered as met) above its
/// state.
type Packed = u64;

/// The number of a closed vertex.
const DONE: u32 = u32::MAX;

/// The player who alone chooses in `f`'s games, when one does (see the module
/// documentation): `None` when both do.
pub fn sole_chooser(f: &Formula) -> Option<Player> {
    let (mut odd, mut even) = (false, false);
    // `val(b) || φ` is no choice: Even wins at once or goes on to `φ`.
    let constant = |n: u32| matches!(f.nodes[n as usize], Node::True | Node::False | Node::Val(_));
    let both = |a: u32, b: u32| !constant(a) && !constant(b);
    for n in &f.nodes {
        match n {
            Node::And(a, b) if both(*a, *b) => odd = true,
            Node::Or(a, b) if both(*a, *b) => even = true,
            Node::Modal { must: true, .. } => odd = true,
            Node::Modal { must: false, .. } => even = true,
            Node::Quant(q) if f.quants[*q].forall => odd = true,
            Node::Quant(_) => even = true,
            _ => {}
        }
    }
    match (odd, even) {
        (_, false) => Some(Player::Odd),
        (false, true) => Some(Player::Even),
        (true, true) => None,
    }
}

/// Per-vertex numbers: 0 for a vertex not met, its rank while open, [`DONE`] once closed.
/// A giant component keeps most vertices open at once, so ranks are in flat arrays, not
/// hashed: per LPS state two ways, each the slot (the pair `(node, valuation)`, numbered as
/// met) of a vertex at that state and its number (ten bytes a state: most states carry one
/// or two vertices of the search, D.1's `[true* . crash(1)] φ` up to three after the
/// crash, where a column per slot cost 27 bytes a state); further vertices at a state,
/// and slots beyond a byte, share a hash map.
struct Marks {
    slot_of: FxHashMap<(u32, u32), u32>,
    /// Per slot: its `(node, valuation)` and the priority of its vertices.
    slots: Vec<(u32, u32, u32)>,
    /// Per state and way: the slot ([`NO_SLOT`] for none) and the number.
    way_slot: [Vec<u8>; 2],
    way: [Vec<u32>; 2],
    rest: FxHashMap<Packed, u32>,
}

/// A way without a vertex (and every slot from here on lives in the hash map).
const NO_SLOT: u8 = u8::MAX;

impl Marks {
    fn new() -> Self {
        Marks {
            slot_of: FxHashMap::default(),
            slots: Vec::new(),
            way_slot: [Vec::new(), Vec::new()],
            way: [Vec::new(), Vec::new()],
            rest: FxHashMap::default(),
        }
    }

    fn pack(&mut self, p: &Product<'_, '_>, key: Key) -> Packed {
        let slot = match self.slot_of.get(&(key.1, key.2)) {
            Some(&s) => s,
            None => {
                let s = self.slots.len() as u32;
                self.slot_of.insert((key.1, key.2), s);
                self.slots.push((key.1, key.2, p.priority_of(key)));
                s
            }
        };
        u64::from(slot) << 32 | u64::from(key.0)
    }

    fn key(&self, v: Packed) -> Key {
        let (node, val, _) = self.slots[(v >> 32) as usize];
        (v as u32, node, val)
    }

    fn priority(&self, v: Packed) -> u32 {
        self.slots[(v >> 32) as usize].2
    }

    fn get(&self, v: Packed) -> u32 {
        let (slot, s) = ((v >> 32) as usize, v as u32 as usize);
        let mut free = false;
        for k in 0..2 {
            match self.way_slot[k].get(s) {
                Some(&t) if usize::from(t) == slot => return self.way[k][s],
                Some(&NO_SLOT) | None => free = true,
                Some(_) => {}
            }
        }
        // A free way means the vertex was never put in the map (a slot beyond a byte
        // always is).
        if free && slot < usize::from(NO_SLOT) {
            return 0;
        }
        self.rest.get(&v).copied().unwrap_or(0)
    }

    fn set(&mut self, v: Packed, x: u32) {
        let (slot, s) = ((v >> 32) as usize, v as u32 as usize);
        if s >= self.way[0].len() {
            let n = (s + 1)
                .max(self.way[0].len() + self.way[0].len() / 4)
                .max(1024);
            crate::budget::before_big_allocation((n * 10) as u64);
            for k in 0..2 {
                self.way[k].resize(n, 0);
                self.way_slot[k].resize(n, NO_SLOT);
            }
        }
        if slot < usize::from(NO_SLOT) {
            for k in 0..2 {
                let t = self.way_slot[k][s];
                if usize::from(t) == slot || t == NO_SLOT {
                    self.way_slot[k][s] = slot as u8;
                    self.way[k][s] = x;
                    return;
                }
            }
        }
        self.rest.insert(v, x);
    }

    fn memory_bytes(&self) -> usize {
        self.way[0].capacity() * 10 + self.rest.capacity() * 16
    }
}

/// What the search found.
#[derive(Debug)]
pub struct Found {
    /// Whether the chooser wins the initial vertex.
    pub chooser_wins: bool,
    /// The chooser's path (states, each with the label of the transition into it), when
    /// the chooser wins.
    pub path: Vec<(u32, u32)>,
    /// Where the path's cycle starts, for a lasso.
    pub cycle_at: Option<usize>,
    /// Vertices met.
    pub vertices: u64,
    /// Edges followed.
    pub edges: u64,
    /// Bytes of the per-vertex numbers at the end.
    pub mark_bytes: usize,
}

/// A vertex on the depth-first stack: itself, how far its successors were looked at, and
/// [`ROOT`], [`SELF_LOOP`] (16 bytes: the stack may hold most of the vertices).
#[derive(Clone, Copy)]
struct Frame {
    v: Packed,
    cursor: u32,
    flags: u32,
}

/// No successor of the vertex has reached below its rank (so far).
const ROOT: u32 = 1;
/// The vertex is its own successor.
const SELF_LOOP: u32 = 2;
/// The frame left the ring: its successors still to look at are its segment of the spill,
/// and its cursor counts from the segment's start.
const SPILLED: u32 = 4;

/// The successor lists of the top frames are kept (a ring by depth). When a frame leaves
/// the ring, the successors it has still to look at that are already met are looked at
/// then (their ranks folded into its own, as Pearce's search may at any time while it is
/// on the stack), and those not met are spilled; a frame that could not spill (memory)
/// generates its vertex's successors again when the search comes back to it.
pub const WINDOW: usize = 1 << 18;

/// Spilling stops before the resident memory reaches this share (%) of the limit.
const SPILL_SHARE: u64 = 75;

/// One expansion's outcome.
enum Expansion {
    /// An edge to the chooser's sink.
    Wins,
    /// The successors (in the search's buffer).
    Next,
}

/// The search (see the module documentation).
struct Search<'p, 'a, 's> {
    p: &'p mut Product<'a, 's>,
    chooser: Player,
    marks: Marks,
    buf: Vec<Packed>,
    edges: u64,
    /// The ring of successor lists: per depth modulo [`WINDOW`], the vertex and its list.
    lists: Vec<(Packed, Vec<Packed>)>,
    /// Successor lists generated again (frames that had left the window).
    again: u64,
    /// The not-yet-met successors of frames that left the ring, a segment per frame
    /// ([`SPILLED`]), the deepest frame's last.
    spill: Vec<Packed>,
    /// Where each spilled frame's segment starts, in stack order.
    segments: Vec<usize>,
    /// Whether frames leaving the ring spill (until memory runs short).
    spilling: bool,
    /// The ring's length ([`WINDOW`] but in tests).
    window: usize,
}

impl Search<'_, '_, '_> {
    /// Keeps `buf` as the successor list of `v` at `depth`.
    fn keep(&mut self, depth: usize, v: Packed) {
        let at = depth % self.window;
        if at >= self.lists.len() {
            self.lists.resize_with(at + 1, || (u64::MAX, Vec::new()));
        }
        let entry = &mut self.lists[at];
        entry.0 = v;
        entry.1.clear();
        entry.1.extend_from_slice(&self.buf);
    }

    /// The frame at `depth` leaves the ring (a frame `WINDOW` deeper takes its place):
    /// its met successors are looked at now, the others spilled.
    fn evict(&mut self, f: &mut Frame, depth: usize) {
        let at = depth % self.window;
        if !self.spilling || f.flags & SPILLED != 0 || self.lists.get(at).is_none_or(|e| e.0 != f.v)
        {
            return;
        }
        let start = self.spill.len();
        let list = &self.lists[at].1;
        let mut rank = self.marks.get(f.v);
        for &w in list.iter().skip(f.cursor as usize) {
            if w == f.v {
                f.flags |= SELF_LOOP;
                continue;
            }
            match self.marks.get(w) {
                0 => {
                    if self.spill.len() == self.spill.capacity() {
                        let more = (self.spill.capacity().max(1 << 16) * 8) as u64;
                        if !crate::budget::room_for(more, SPILL_SHARE) {
                            // The frame keeps its cursor and generates its list again.
                            self.spilling = false;
                            self.spill.truncate(start);
                            self.marks.set(f.v, rank);
                            return;
                        }
                        self.spill.reserve(self.spill.capacity().max(1 << 16));
                    }
                    self.spill.push(w);
                }
                r if r < rank => {
                    rank = r;
                    f.flags &= !ROOT;
                }
                _ => {}
            }
        }
        self.marks.set(f.v, rank);
        f.flags |= SPILLED;
        f.cursor = 0;
        self.segments.push(start);
    }

    /// The frame `f` at `depth` is done: its spilled segment goes.
    fn done(&mut self, f: &Frame) {
        if f.flags & SPILLED != 0 {
            let start = self.segments.pop().expect("a segment per spilled frame");
            self.spill.truncate(start);
        }
    }

    /// The successor at the cursor of `f` at `depth`: from the spill, the ring, or
    /// generated again.
    fn successor(&mut self, depth: usize, f: &Frame) -> Result<Option<Packed>, ProductError> {
        let (v, k) = (f.v, f.cursor);
        if f.flags & SPILLED != 0 {
            // The top frame's segment is the last one.
            let start = *self.segments.last().expect("a segment per spilled frame");
            return Ok(self.spill.get(start + k as usize).copied());
        }
        let at = depth % self.window;
        if self.lists.get(at).is_none_or(|e| e.0 != v) {
            self.again += 1;
            self.expand(v)?;
            self.keep(depth, v);
        }
        Ok(self.lists[at].1.get(k as usize).copied())
    }

    fn sinks(&self) -> (u32, u32) {
        if self.chooser == Player::Odd {
            (FALSE, TRUE)
        } else {
            (TRUE, FALSE)
        }
    }

    /// The successors of `v` that matter to the chooser into `buf`: an edge to the
    /// other player's sink is dropped at the chooser's vertex, and ends the other player's.
    fn expand(&mut self, v: Packed) -> Result<Expansion, ProductError> {
        let key = self.marks.key(v);
        self.p.successors_of(key)?;
        let (mine, theirs) = self.sinks();
        let chooses = self.p.owner_of(key) == self.chooser;
        self.buf.clear();
        // Straight into `buf` (no list per expansion: this runs once per vertex).
        let p: &Product<'_, '_> = self.p;
        for (w, _) in p.last_successors() {
            if w == mine {
                return Ok(Expansion::Wins);
            }
            if w == theirs {
                if chooses {
                    continue;
                }
                self.buf.clear();
                return Ok(Expansion::Next);
            }
            let packed = self.marks.pack(p, p.fresh[w as usize - 2]);
            self.buf.push(packed);
        }
        if !chooses && self.buf.len() > 1 {
            return Err(ProductError::Data(
                "internal error: the other player has a choice in a one-player product".to_string(),
            ));
        }
        Ok(Expansion::Next)
    }

    /// The successors of `v` (as [`Search::expand`] gives them) that are in `set`.
    fn successors_in(
        &mut self,
        v: Packed,
        set: &FxHashSet<Packed>,
    ) -> Result<Vec<Packed>, ProductError> {
        self.expand(v)?;
        Ok(self
            .buf
            .iter()
            .copied()
            .filter(|w| set.contains(w))
            .collect())
    }

    /// A shortest path from `from` to `to` through `set` (both ends included; at least one
    /// edge when `from == to`).
    fn path_within(
        &mut self,
        from: Packed,
        to: Packed,
        set: &FxHashSet<Packed>,
    ) -> Result<Vec<Packed>, ProductError> {
        if from == to && self.successors_in(from, set)?.contains(&to) {
            return Ok(vec![from, to]);
        }
        let mut parent: FxHashMap<Packed, Packed> = FxHashMap::default();
        let mut queue = VecDeque::from([from]);
        while let Some(x) = queue.pop_front() {
            for w in self.successors_in(x, set)? {
                if w == to {
                    let mut path = vec![to, x];
                    let mut y = x;
                    while y != from {
                        y = parent[&y];
                        path.push(y);
                    }
                    path.reverse();
                    return Ok(path);
                }
                if w != from && !parent.contains_key(&w) {
                    parent.insert(w, x);
                    queue.push_back(w);
                }
            }
        }
        Err(ProductError::Data(
            "internal error: no path inside a strongly connected component".to_string(),
        ))
    }

    /// In the component `members` (its vertices below priority `bound`), a vertex of the
    /// chooser's parity that lies on a cycle whose largest priority is its own, with the
    /// component of that cycle (Emerson and Lei's recursion, in memory).
    fn accepting(
        &mut self,
        members: &[Packed],
        bound: u32,
    ) -> Result<Option<(Packed, FxHashSet<Packed>)>, ProductError> {
        let parity = u32::from(self.chooser == Player::Odd);
        let kept: Vec<Packed> = members
            .iter()
            .copied()
            .filter(|&v| self.marks.priority(v) < bound)
            .collect();
        let index: FxHashMap<Packed, usize> =
            kept.iter().enumerate().map(|(i, &v)| (v, i)).collect();
        let mut g: DiGraph<(), ()> = DiGraph::with_capacity(kept.len(), kept.len());
        for _ in &kept {
            g.add_node(());
        }
        for (i, &v) in kept.iter().enumerate() {
            self.expand(v)?;
            for w in &self.buf {
                if let Some(&j) = index.get(w) {
                    g.add_edge(NodeIndex::new(i), NodeIndex::new(j), ());
                }
            }
        }
        for scc in petgraph::algo::tarjan_scc(&g) {
            let nontrivial = scc.len() > 1 || g.contains_edge(scc[0], scc[0]);
            if !nontrivial {
                continue;
            }
            let vs: Vec<Packed> = scc.iter().map(|n| kept[n.index()]).collect();
            let top = vs
                .iter()
                .map(|&v| self.marks.priority(v))
                .max()
                .expect("not empty");
            if top % 2 == parity {
                let u = *vs
                    .iter()
                    .find(|&&v| self.marks.priority(v) == top)
                    .expect("the largest");
                return Ok(Some((u, vs.into_iter().collect())));
            }
            if vs.iter().any(|&v| self.marks.priority(v) % 2 == parity) {
                if let Some(found) = self.accepting(&vs, top)? {
                    return Ok(Some(found));
                }
            }
        }
        Ok(None)
    }

    /// The labels of the transitions along `path` (vertices), as states with the label
    /// into each.
    fn labelled(&mut self, path: &[Packed]) -> Result<Vec<(u32, u32)>, ProductError> {
        let mut out = vec![(path[0] as u32, NO_LABEL)];
        for pair in path.windows(2) {
            let key = self.marks.key(pair[0]);
            let next = self.marks.key(pair[1]);
            self.p.successors_of(key)?;
            let label = self
                .p
                .last_successors()
                .find(|&(w, _)| w >= 2 && self.p.fresh[w as usize - 2] == next)
                .map(|(_, l)| l)
                .ok_or_else(|| {
                    ProductError::Data("internal error: a step of the path is gone".to_string())
                })?;
            out.push((next.0, label));
        }
        Ok(out)
    }
}

/// Decides the one-player product `p` (lean) whose sole chooser is `chooser` (see the
/// module documentation), ticking `watch`; `ring` is the ring's length ([`WINDOW`]) and
/// whether frames that leave it spill.
pub fn search<W: Watch>(
    p: &mut Product<'_, '_>,
    chooser: Player,
    watch: &mut W,
    ring: (usize, bool),
) -> Result<Found, ProductError>
where
    ProductError: From<W::Stop>,
{
    let root = p.root_key()?;
    let mut s = Search {
        p,
        chooser,
        marks: Marks::new(),
        buf: Vec::new(),
        edges: 0,
        lists: Vec::new(),
        again: 0,
        spill: Vec::new(),
        segments: Vec::new(),
        spilling: ring.1,
        window: ring.0,
    };
    let parity = u32::from(chooser == Player::Odd);
    let v0 = s.marks.pack(s.p, root);
    let mut frames: Vec<Frame> = Vec::new();
    // Closed vertices that are not roots: they wait for their component's root.
    let mut open: Vec<Packed> = Vec::new();
    let mut index: u32 = 1;
    let mut vertices: u64 = 0;
    let mut next = Some(v0);
    loop {
        if let Some(v) = next.take() {
            // Open `v`: its rank and its successors.
            s.marks.set(v, index);
            index += 1;
            vertices += 1;
            if vertices.is_multiple_of(4096) {
                let (st, b) = (s.p.states(), s.marks.memory_bytes());
                let (depth, waiting, again) = (frames.len(), open.len(), s.again);
                let spilled = s.spill.len();
                watch.tick(vertices, || {
                    format!(
                        "{vertices} game vertices, {st} states, {} MiB of marks, depth {depth}, {waiting} closed waiting, {spilled} spilled, {again} lists again",
                        b >> 20
                    )
                })?;
            }
            if let Expansion::Wins = s.expand(v)? {
                let mut path: Vec<Packed> = frames.iter().map(|f| f.v).collect();
                path.push(v);
                let path = s.labelled(&path)?;
                return Ok(Found {
                    chooser_wins: true,
                    path,
                    cycle_at: None,
                    vertices,
                    edges: s.edges,
                    mark_bytes: s.marks.memory_bytes(),
                });
            }
            s.edges += s.buf.len() as u64;
            if let Some(e) = frames.len().checked_sub(s.window) {
                let mut f = frames[e];
                s.evict(&mut f, e);
                frames[e] = f;
            }
            s.keep(frames.len(), v);
            frames.push(Frame {
                v,
                cursor: 0,
                flags: ROOT,
            });
        }
        let depth = frames.len() - 1;
        let mut f = frames[depth];
        // Look at the successors from the cursor on: those met lower the rank, the first
        // one not met is opened.
        let mut rank = s.marks.get(f.v);
        while let Some(w) = s.successor(depth, &f)? {
            f.cursor += 1;
            if w == f.v {
                f.flags |= SELF_LOOP;
                continue;
            }
            match s.marks.get(w) {
                0 => {
                    next = Some(w);
                    break;
                }
                r if r < rank => {
                    rank = r;
                    f.flags &= !ROOT;
                }
                _ => {}
            }
        }
        s.marks.set(f.v, rank);
        frames[depth] = f;
        if next.is_some() {
            continue;
        }
        frames.pop();
        s.done(&f);
        if f.flags & ROOT != 0 {
            // `f.v` closes its component: the waiting vertices above it in rank.
            let mut size = 1usize;
            let mut top = s.marks.priority(f.v);
            let mut mine = top % 2 == parity;
            for &w in open.iter().rev() {
                if s.marks.get(w) < rank {
                    break;
                }
                size += 1;
                let pw = s.marks.priority(w);
                top = top.max(pw);
                mine |= pw % 2 == parity;
            }
            let members: Vec<Packed> = if (size > 1 || f.flags & SELF_LOOP != 0) && mine {
                let mut m = open[open.len() - (size - 1)..].to_vec();
                m.push(f.v);
                m
            } else {
                Vec::new()
            };
            for _ in 1..size {
                let w = open.pop().expect("counted above");
                s.marks.set(w, DONE);
            }
            s.marks.set(f.v, DONE);
            index -= size as u32;
            if !members.is_empty() {
                let found = if top % 2 == parity {
                    let u = *members
                        .iter()
                        .find(|&&v| s.marks.priority(v) == top)
                        .expect("the largest");
                    Some((u, members.iter().copied().collect::<FxHashSet<_>>()))
                } else {
                    s.accepting(&members, top)?
                };
                if let Some((u, inner)) = found {
                    let all: FxHashSet<Packed> = members.iter().copied().collect();
                    let mut path: Vec<Packed> = frames.iter().map(|f| f.v).collect();
                    if f.v == u {
                        path.push(u);
                    } else {
                        path.extend(s.path_within(f.v, u, &all)?);
                    }
                    let at = path.len() - 1;
                    let cycle = s.path_within(u, u, &inner)?;
                    path.extend(&cycle[1..]);
                    let path = s.labelled(&path)?;
                    return Ok(Found {
                        chooser_wins: true,
                        path,
                        cycle_at: Some(at),
                        vertices,
                        edges: s.edges,
                        mark_bytes: s.marks.memory_bytes(),
                    });
                }
            }
        } else {
            open.push(f.v);
        }
        let Some(parent) = frames.last_mut() else {
            break;
        };
        let r = s.marks.get(f.v);
        if r < s.marks.get(parent.v) {
            s.marks.set(parent.v, r);
            parent.flags &= !ROOT;
        }
    }
    Ok(Found {
        chooser_wins: false,
        path: Vec::new(),
        cycle_at: None,
        vertices,
        edges: s.edges,
        mark_bytes: s.marks.memory_bytes(),
    })
}
