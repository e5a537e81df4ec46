//! The parity game: flat CSR arrays with forward and reverse edges, and its bulk builder.

use rustc_hash::FxHashMap;
use thiserror::Error;

/// A vertex of a [`Game`]: an index into its arrays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct VertexId(pub u32);

impl VertexId {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A player of a parity game. `Even` (player 0) owns the disjunctive (`||`) vertices and wins
/// the plays whose highest priority seen infinitely often is even; in BES terms `Even` proves
/// `true`. `Odd` (player 1) owns the conjunctive (`&&`) vertices and proves `false`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Player {
    /// Player 0: disjunction, `true`.
    Even = 0,
    /// Player 1: conjunction, `false`.
    Odd = 1,
}

impl Player {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::Even => Player::Odd,
            Player::Odd => Player::Even,
        }
    }

    /// The player favoured by a priority (even priorities favour `Even`).
    #[inline]
    pub fn of_priority(p: u32) -> Player {
        if p & 1 == 0 {
            Player::Even
        } else {
            Player::Odd
        }
    }

    /// 0 for `Even`, 1 for `Odd` (the PGSolver encoding).
    #[inline]
    pub fn number(self) -> u32 {
        self as u32
    }

    /// The player with PGSolver number 0 or 1.
    pub fn from_number(n: u32) -> Option<Player> {
        match n {
            0 => Some(Player::Even),
            1 => Some(Player::Odd),
            _ => None,
        }
    }
}

/// What can make a game ill-formed when it is frozen.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GameError {
    /// A vertex has no successors (every vertex of a parity game needs one).
    #[error("vertex {0} has no successors")]
    NoSuccessors(u32),
    /// An edge points to a vertex that was never added.
    #[error("vertex {from} has successor {to}, which is not a vertex of the game")]
    DanglingSuccessor {
        /// Source vertex.
        from: u32,
        /// The missing target.
        to: u32,
    },
    /// The successors of a vertex were set twice.
    #[error("the successors of vertex {0} were given twice")]
    SuccessorsTwice(u32),
    /// More than `u32::MAX - 1` vertices.
    #[error("the game has more than 4294967294 vertices")]
    TooLarge,
}

/// A parity game (max-parity, PGSolver conventions) in compressed sparse row form.
///
/// Invariants: `succ_start`/`pred_start` have `n + 1` non-decreasing entries; every vertex has
/// at least one successor; every edge target is `< n`; the reverse edges are exactly the
/// forward edges flipped. Duplicate edges are kept as given.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) priority: Vec<u32>,
    pub(crate) owner: Vec<Player>,
    pub(crate) succ_start: Vec<u64>,
    pub(crate) succ: Vec<VertexId>,
    pub(crate) pred_start: Vec<u64>,
    pub(crate) pred: Vec<VertexId>,
    pub(crate) names: FxHashMap<u32, Box<str>>,
    pub(crate) initial: Option<VertexId>,
}

impl Game {
    /// Builds a game from CSR arrays, checking the invariants and computing reverse edges.
    pub(crate) fn from_csr(
        priority: Vec<u32>,
        owner: Vec<Player>,
        succ_start: Vec<u64>,
        succ: Vec<VertexId>,
        names: FxHashMap<u32, Box<str>>,
        initial: Option<VertexId>,
    ) -> Result<Game, GameError> {
        let n = priority.len();
        if n >= u32::MAX as usize {
            return Err(GameError::TooLarge);
        }
        debug_assert_eq!(owner.len(), n);
        debug_assert_eq!(succ_start.len(), n + 1);
        for v in 0..n {
            let (a, b) = (succ_start[v] as usize, succ_start[v + 1] as usize);
            if a == b {
                return Err(GameError::NoSuccessors(v as u32));
            }
            for &w in &succ[a..b] {
                if w.index() >= n {
                    return Err(GameError::DanglingSuccessor {
                        from: v as u32,
                        to: w.0,
                    });
                }
            }
        }
        // Reverse edges by counting sort: one pass to count, one to place.
        let mut pred_start = vec![0u64; n + 1];
        for &w in &succ {
            pred_start[w.index() + 1] += 1;
        }
        for i in 0..n {
            pred_start[i + 1] += pred_start[i];
        }
        // Place each edge at its target's cursor (pred_start[w] advances), then shift the
        // cursors back by one slot: no separate cursor array is needed.
        let mut pred = vec![VertexId(0); succ.len()];
        for v in 0..n {
            for &w in &succ[succ_start[v] as usize..succ_start[v + 1] as usize] {
                let slot = &mut pred_start[w.index()];
                pred[*slot as usize] = VertexId(v as u32);
                *slot += 1;
            }
        }
        for i in (1..=n).rev() {
            pred_start[i] = pred_start[i - 1];
        }
        pred_start[0] = 0;
        Ok(Game {
            priority,
            owner,
            succ_start,
            succ,
            pred_start,
            pred,
            names,
            initial,
        })
    }

    /// The position of `v`'s first successor among all successors (so that data kept per
    /// edge beside the game, in the same order, can be found).
    #[inline]
    pub fn successor_start(&self, v: VertexId) -> usize {
        self.succ_start[v.index()] as usize
    }

    /// Number of vertices.
    #[inline]
    pub fn num_vertices(&self) -> usize {
        self.priority.len()
    }

    /// Number of edges.
    #[inline]
    pub fn num_edges(&self) -> usize {
        self.succ.len()
    }

    /// All vertices in index order.
    pub fn vertices(&self) -> impl Iterator<Item = VertexId> + '_ {
        (0..self.priority.len() as u32).map(VertexId)
    }

    /// The priority of `v`.
    #[inline]
    pub fn priority(&self, v: VertexId) -> u32 {
        self.priority[v.index()]
    }

    /// The owner of `v`.
    #[inline]
    pub fn owner(&self, v: VertexId) -> Player {
        self.owner[v.index()]
    }

    /// The successors of `v`, in input order.
    #[inline]
    pub fn successors(&self, v: VertexId) -> &[VertexId] {
        &self.succ[self.succ_start[v.index()] as usize..self.succ_start[v.index() + 1] as usize]
    }

    /// The predecessors of `v`.
    #[inline]
    pub fn predecessors(&self, v: VertexId) -> &[VertexId] {
        &self.pred[self.pred_start[v.index()] as usize..self.pred_start[v.index() + 1] as usize]
    }

    /// The name (PGSolver label or BES variable name) of `v`, if it has one.
    pub fn name(&self, v: VertexId) -> Option<&str> {
        self.names.get(&v.0).map(|s| &**s)
    }

    /// The initial vertex (PGSolver `start`, BES `init`), if any.
    pub fn initial(&self) -> Option<VertexId> {
        self.initial
    }

    /// The highest priority, or `None` for the empty game.
    pub fn max_priority(&self) -> Option<u32> {
        self.priority.iter().copied().max()
    }

    /// Approximate heap bytes held by the game's arrays.
    pub fn heap_bytes(&self) -> usize {
        self.priority.capacity() * 4
            + self.owner.capacity()
            + (self.succ_start.capacity() + self.pred_start.capacity()) * 8
            + (self.succ.capacity() + self.pred.capacity()) * 4
    }
}

/// Bulk construction of a [`Game`]: add vertices, give each its successors once (in any
/// order; in vertex order is fastest and uses no extra memory), then [`GameBuilder::freeze`].
#[derive(Debug, Default)]
pub struct GameBuilder {
    priority: Vec<u32>,
    owner: Vec<Player>,
    /// Successors of vertices `0..succ_start.len()-1`, given in vertex order.
    succ_start: Vec<u64>,
    succ: Vec<VertexId>,
    /// Successor lists given out of vertex order: (vertex, offset into `late_succ`, length).
    late: Vec<(u32, u64, u32)>,
    late_succ: Vec<VertexId>,
    names: FxHashMap<u32, Box<str>>,
    initial: Option<VertexId>,
}

impl GameBuilder {
    /// An empty builder.
    pub fn new() -> GameBuilder {
        GameBuilder {
            succ_start: vec![0],
            ..Default::default()
        }
    }

    /// An empty builder with room for `vertices` vertices and `edges` edges.
    pub fn with_capacity(vertices: usize, edges: usize) -> GameBuilder {
        let mut b = GameBuilder::new();
        b.priority.reserve(vertices);
        b.owner.reserve(vertices);
        b.succ_start.reserve(vertices);
        b.succ.reserve(edges);
        b
    }

    /// Number of vertices added so far.
    pub fn num_vertices(&self) -> usize {
        self.priority.len()
    }

    /// Adds a vertex and returns its id (ids are consecutive from 0).
    pub fn add_vertex(&mut self, owner: Player, priority: u32) -> VertexId {
        let id = VertexId(self.priority.len() as u32);
        self.priority.push(priority);
        self.owner.push(owner);
        id
    }

    /// Sets the owner and priority of vertex `v`, adding vertices up to `v` if needed (the
    /// ones in between get priority 0, owner `Even` until they are set).
    pub fn set_vertex(&mut self, v: VertexId, owner: Player, priority: u32) {
        if v.index() >= self.priority.len() {
            self.priority.resize(v.index() + 1, 0);
            self.owner.resize(v.index() + 1, Player::Even);
        }
        self.priority[v.index()] = priority;
        self.owner[v.index()] = owner;
    }

    /// Gives the successors of `v` (once per vertex; targets may be added later).
    pub fn set_successors(&mut self, v: VertexId, succ: &[VertexId]) {
        if v.index() + 1 == self.succ_start.len() {
            self.succ.extend_from_slice(succ);
            self.succ_start.push(self.succ.len() as u64);
        } else {
            self.late
                .push((v.0, self.late_succ.len() as u64, succ.len() as u32));
            self.late_succ.extend_from_slice(succ);
        }
    }

    /// Appends one successor to the most recent in-order list (used by streaming parsers
    /// that learn successors one at a time): call [`GameBuilder::begin_successors`] first.
    #[inline]
    pub(crate) fn push_successor(&mut self, w: VertexId) {
        self.succ.push(w);
    }

    /// Starts an in-order successor list for `v` if `v` is next in order; returns whether it
    /// is (otherwise the caller must collect the list and use `set_successors`).
    #[inline]
    pub(crate) fn begin_successors(&mut self, v: VertexId) -> bool {
        v.index() + 1 == self.succ_start.len()
    }

    /// Ends the in-order list begun by `begin_successors`.
    #[inline]
    pub(crate) fn end_successors(&mut self) {
        self.succ_start.push(self.succ.len() as u64);
    }

    /// Names vertex `v` (kept for output).
    pub fn set_name(&mut self, v: VertexId, name: &str) {
        self.names.insert(v.0, name.into());
    }

    /// Marks `v` as the initial vertex.
    pub fn set_initial(&mut self, v: VertexId) {
        self.initial = Some(v);
    }

    /// Checks the invariants and builds the game with its reverse edges.
    pub fn freeze(self) -> Result<Game, GameError> {
        let n = self.priority.len();
        let GameBuilder {
            priority,
            owner,
            mut succ_start,
            mut succ,
            mut late,
            late_succ,
            names,
            initial,
        } = self;
        if succ_start.len() > n + 1 {
            // Successors given for vertices that were never added.
            return Err(GameError::DanglingSuccessor {
                from: n as u32,
                to: n as u32,
            });
        }
        if !late.is_empty() {
            late.sort_unstable_by_key(|e| e.0);
            for w in late.windows(2) {
                if w[0].0 == w[1].0 {
                    return Err(GameError::SuccessorsTwice(w[0].0));
                }
            }
            let in_order = succ_start.len() - 1;
            if let Some(&(v, _, _)) = late.iter().find(|e| (e.0 as usize) < in_order) {
                return Err(GameError::SuccessorsTwice(v));
            }
            if let Some(&(v, _, _)) = late.iter().find(|e| e.0 as usize >= n) {
                return Err(GameError::DanglingSuccessor { from: v, to: v });
            }
            // Append the late lists in vertex order; gaps become empty lists (an error below).
            let mut next = in_order;
            succ.reserve(late_succ.len());
            for &(v, off, len) in &late {
                while next < v as usize {
                    succ_start.push(succ.len() as u64);
                    next += 1;
                }
                succ.extend_from_slice(&late_succ[off as usize..off as usize + len as usize]);
                succ_start.push(succ.len() as u64);
                next += 1;
            }
        }
        while succ_start.len() < n + 1 {
            succ_start.push(succ.len() as u64);
        }
        succ.shrink_to_fit();
        Game::from_csr(priority, owner, succ_start, succ, names, initial)
    }
}
