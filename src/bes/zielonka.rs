//! Zielonka's recursive algorithm, made fast the way Oink's ZLK does it, with strategies.
//!
//! * No subgame copies: one `region` array says for every vertex whether it is permanently
//!   removed (`DIS`), free in the innermost subgame (`BOT`, or a negative escape counter), or
//!   was removed from the subgame of the frame at depth `d` (tag `d >= 0`). The subgame of the
//!   frame at depth `d` is exactly the vertices that are free or carry a tag `>= d`.
//! * Vertices are visited in priority order through a sorted `order` array; the top of a
//!   subgame is a position in it.
//! * An explicit frame stack replaces recursion; the second recursive call of the textbook
//!   algorithm is a loop step of the same frame (phase 2), and it is skipped when the
//!   opponent attracts nothing from the frame's region.
//! * Attractors walk reverse edges; the escape counters of opponent vertices are computed
//!   lazily on first contact and stay valid when the subgame shrinks.
//! * Attraction of the top priority is extended to all lower priorities of the same parity
//!   until a free vertex of the other parity is met (Verver's "until inversion").
//!
//! Preprocessing removes the attractors of winner-owned self-loops (which covers BES `true`
//! and `false` vertices) before the main loop.

use super::game::{Game, Player, VertexId};
use super::solution::Solution;
use crate::progress::{grouped, Unwatched, Watch};

const DIS: i32 = i32::MIN;
const BOT: i32 = i32::MIN + 1;
const NONE: u32 = u32::MAX;
const UNKNOWN: u8 = 2;

struct Frame {
    /// Position in `order` of the subgame's highest free vertex.
    top: usize,
    /// Depth tag of this frame.
    r: i32,
    phase: u8,
}

struct Zlk<'g> {
    g: &'g Game,
    /// Owners as a bitset (1 = Odd): 1/8 of the game's owner bytes, so it stays in cache.
    owner_bits: Vec<u64>,
    region: Vec<i32>,
    winner: Vec<u8>,
    strategy: Vec<u32>,
    order: Vec<u32>,
    pos: Vec<u32>,
}

#[inline]
fn par(p: u32) -> u8 {
    (p & 1) as u8
}

impl Zlk<'_> {
    #[inline]
    fn owner(&self, v: u32) -> u8 {
        ((self.owner_bits[(v >> 6) as usize] >> (v & 63)) & 1) as u8
    }

    #[inline]
    fn succ(&self, v: u32) -> &[VertexId] {
        let a = self.g.succ_start[v as usize] as usize;
        let b = self.g.succ_start[v as usize + 1] as usize;
        &self.g.succ[a..b]
    }

    /// Removes the attractor of `seeds` for `pl` from the whole (non-removed) game: those
    /// vertices are won by `pl` in the full game. Uses the escape counters in `region`.
    fn remove_dominion(&mut self, pl: u8, seeds: &mut Vec<u32>) {
        // Attracted vertices carry tag 0 until the end, so that first-contact escape counts
        // include vertices attracted but not yet processed (each is counted off later).
        let mut qi = 0;
        while qi < seeds.len() {
            let cur = seeds[qi];
            qi += 1;
            for k in self.g.pred_start[cur as usize] as usize
                ..self.g.pred_start[cur as usize + 1] as usize
            {
                let from = self.g.pred[k].0;
                let rf = self.region[from as usize];
                if rf == DIS || rf >= 0 {
                    continue;
                }
                if self.owner(from) == pl {
                    self.region[from as usize] = 0;
                    self.winner[from as usize] = pl;
                    self.strategy[from as usize] = cur;
                    seeds.push(from);
                } else {
                    let count = if rf == BOT {
                        let live = self
                            .succ(from)
                            .iter()
                            .filter(|w| self.region[w.index()] != DIS)
                            .count() as i32;
                        1 - live
                    } else {
                        rf + 1
                    };
                    if count == 0 {
                        self.region[from as usize] = 0;
                        self.winner[from as usize] = pl;
                        self.strategy[from as usize] = NONE;
                        seeds.push(from);
                    } else {
                        self.region[from as usize] = count;
                    }
                }
            }
        }
        for &v in seeds.iter() {
            self.region[v as usize] = DIS;
        }
    }

    /// Attracts, for the parity of the vertex at `order[top]`, all free heads from `top`
    /// downwards until the first free vertex of the other parity, into `a` with tag `r`.
    /// Returns the position of that vertex (the top of the next subgame), if any.
    fn attract_ext(&mut self, top: usize, r: i32, a: &mut Vec<u32>) -> Option<usize> {
        let pl = par(self.g.priority[self.order[top] as usize]);
        let mut i = top as isize;
        while i >= 0 {
            let head = self.order[i as usize];
            let rh = self.region[head as usize];
            if rh == DIS || rh >= 0 {
                i -= 1;
                continue;
            }
            if par(self.g.priority[head as usize]) != pl {
                return Some(i as usize);
            }
            self.region[head as usize] = r;
            self.winner[head as usize] = pl;
            self.strategy[head as usize] = NONE;
            let mut qi = a.len();
            a.push(head);
            while qi < a.len() {
                let cur = a[qi];
                qi += 1;
                let (ps, pe) = (
                    self.g.pred_start[cur as usize] as usize,
                    self.g.pred_start[cur as usize + 1] as usize,
                );
                for k in ps..pe {
                    let from = self.g.pred[k].0;
                    let rf = self.region[from as usize];
                    if rf == DIS || rf >= 0 {
                        continue;
                    }
                    if self.owner(from) == pl {
                        self.region[from as usize] = r;
                        self.winner[from as usize] = pl;
                        self.strategy[from as usize] = cur;
                        a.push(from);
                    } else {
                        let count = if rf == BOT {
                            // 1 - (live successors); `cur` is live and already counted.
                            let mut c = 1i32;
                            for w in self.succ(from) {
                                let rt = self.region[w.index()];
                                if rt == DIS || (rt >= 0 && rt < r) {
                                    continue;
                                }
                                c -= 1;
                            }
                            c
                        } else {
                            rf + 1
                        };
                        if count == 0 {
                            self.region[from as usize] = r;
                            self.winner[from as usize] = pl;
                            self.strategy[from as usize] = NONE;
                            a.push(from);
                        } else {
                            self.region[from as usize] = count;
                        }
                    }
                }
            }
            i -= 1;
        }
        None
    }

    /// Whether `v` (owned by `pl`) has a successor in the solved subgame `>= r` won by `pl`.
    #[inline]
    fn can_stay(&self, v: u32, r: i32, pl: u8) -> bool {
        self.succ(v)
            .iter()
            .any(|w| self.region[w.index()] >= r && self.winner[w.index()] == pl)
    }

    /// The opponent attractor, inside the solved subgame of tag `r`, of the opponent's
    /// region `wo`; newly attracted vertices are appended to `wo` with tag `r`. Only the
    /// frame's own region `a` can touch `wo` directly. Returns how many were attracted.
    fn attract_losing(&mut self, pl: u8, r: i32, a: &[u32], wo: &mut Vec<u32>) -> usize {
        let op = 1 - pl;
        let start = wo.len();
        for &v in a {
            if self.winner[v as usize] != pl {
                continue;
            }
            if self.owner(v) == pl {
                if !self.can_stay(v, r, pl) {
                    self.winner[v as usize] = op;
                    self.strategy[v as usize] = NONE;
                    self.region[v as usize] = r;
                    wo.push(v);
                }
            } else if let Some(w) = self
                .succ(v)
                .iter()
                .find(|w| self.region[w.index()] >= r && self.winner[w.index()] == op)
            {
                self.strategy[v as usize] = w.0;
                self.winner[v as usize] = op;
                self.region[v as usize] = r;
                wo.push(v);
            }
        }
        let mut qi = start;
        while qi < wo.len() {
            let cur = wo[qi];
            qi += 1;
            for k in self.g.pred_start[cur as usize] as usize
                ..self.g.pred_start[cur as usize + 1] as usize
            {
                let from = self.g.pred[k].0;
                if self.region[from as usize] < r || self.winner[from as usize] != pl {
                    continue;
                }
                if self.owner(from) == op {
                    self.strategy[from as usize] = cur;
                } else if self.can_stay(from, r, pl) {
                    continue;
                } else {
                    self.strategy[from as usize] = NONE;
                }
                self.winner[from as usize] = op;
                self.region[from as usize] = r;
                wo.push(from);
            }
        }
        wo.len() - start
    }

    /// The main loop: frames of the recursion on an explicit stack. Phase 0 attracts the
    /// top priority and descends into the rest; phase 1 looks at the child's result and
    /// either finishes the frame or resets and descends again (phase 2, the textbook second
    /// recursive call); phase 2 finishes the frame. Results travel up in `w[0]`/`w[1]`,
    /// which are empty whenever a frame starts.
    fn run<W: Watch>(&mut self, watch: &mut W) -> Result<(), W::Stop> {
        if self.order.is_empty() {
            return Ok(());
        }
        let mut frames = vec![Frame {
            top: self.order.len() - 1,
            r: 0,
            phase: 0,
        }];
        let mut levels: Vec<Vec<u32>> = vec![Vec::new()];
        let mut pool: Vec<Vec<u32>> = Vec::new();
        let mut w: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        let mut steps = 0u64;
        while !frames.is_empty() {
            steps += 1;
            let depth = frames.len();
            watch.tick(steps, || {
                format!(
                    "{} recursion steps of Zielonka (depth {depth}) on {} vertices",
                    grouped(steps),
                    grouped(self.order.len() as u64)
                )
            })?;
            let Some(f) = frames.last_mut() else { break };
            let (top, r) = (f.top, f.r);
            let pl = par(self.g.priority[self.order[top] as usize]);
            let op = 1 - pl;
            match f.phase {
                0 => {
                    f.phase = 1;
                    let mut a = levels.pop().expect("one level per frame");
                    let next = self.attract_ext(top, r, &mut a);
                    levels.push(a);
                    if let Some(j) = next {
                        frames.push(Frame {
                            top: j,
                            r: r + 1,
                            phase: 0,
                        });
                        levels.push(pool.pop().unwrap_or_default());
                    }
                }
                1 => {
                    let mut a = levels.pop().expect("one level per frame");
                    let attracted = if w[op as usize].is_empty() {
                        0
                    } else {
                        let mut wo = std::mem::take(&mut w[op as usize]);
                        let c = self.attract_losing(pl, r, &a, &mut wo);
                        w[op as usize] = wo;
                        c
                    };
                    if attracted == 0 {
                        // Everything here outside the opponent's region is won by `pl`; a
                        // second recursive call would recompute the same, so skip it.
                        for &v in &a {
                            if self.owner(v) == pl {
                                let s = self.strategy[v as usize];
                                if s == NONE || self.winner[s as usize] != pl {
                                    let s = self
                                        .succ(v)
                                        .iter()
                                        .find(|x| {
                                            self.region[x.index()] >= r
                                                && self.winner[x.index()] == pl
                                        })
                                        .expect("a vertex won by its owner can stay");
                                    self.strategy[v as usize] = s.0;
                                }
                            }
                        }
                        w[pl as usize].extend_from_slice(&a);
                        a.clear();
                        pool.push(a);
                        frames.pop();
                    } else {
                        // Reset what `pl` still wins, solve it again as the second call.
                        let mut new_top: Option<u32> = None;
                        for list in [&a, &w[pl as usize]] {
                            for &v in list.iter() {
                                if self.winner[v as usize] == pl {
                                    self.region[v as usize] = BOT;
                                    self.winner[v as usize] = UNKNOWN;
                                    let p = self.pos[v as usize];
                                    new_top = Some(new_top.map_or(p, |t: u32| t.max(p)));
                                }
                            }
                        }
                        // The opponent's region becomes this frame's (tagged `r`, so the
                        // next child at depth `r + 1` sees none of it).
                        std::mem::swap(&mut a, &mut w[op as usize]);
                        for &v in &a {
                            self.region[v as usize] = r;
                        }
                        w[0].clear();
                        w[1].clear();
                        match new_top {
                            None => {
                                w[op as usize] = a;
                                frames.pop();
                            }
                            Some(t) => {
                                levels.push(a);
                                let f = frames.last_mut().expect("current frame");
                                f.phase = 2;
                                frames.push(Frame {
                                    top: t as usize,
                                    r: r + 1,
                                    phase: 0,
                                });
                                levels.push(pool.pop().unwrap_or_default());
                            }
                        }
                    }
                }
                _ => {
                    let mut a = levels.pop().expect("one level per frame");
                    w[op as usize].extend_from_slice(&a);
                    a.clear();
                    pool.push(a);
                    frames.pop();
                }
            }
        }
        Ok(())
    }
}

/// Solves `game` with Zielonka's recursive algorithm (see the module docs for how it is made
/// fast). Returns the winner of every vertex and a winning strategy for every vertex won by
/// its owner.
pub fn solve_zielonka(game: &Game) -> Solution {
    let Ok(s) = solve_zielonka_watched(game, &mut Unwatched);
    s
}

/// [`solve_zielonka`] under `watch`: one tick per step of the recursion.
pub fn solve_zielonka_watched<W: Watch>(game: &Game, watch: &mut W) -> Result<Solution, W::Stop> {
    let n = game.num_vertices();
    let mut owner_bits = vec![0u64; n.div_ceil(64)];
    for (v, &o) in game.owner.iter().enumerate() {
        if o == Player::Odd {
            owner_bits[v >> 6] |= 1 << (v & 63);
        }
    }
    let mut z = Zlk {
        g: game,
        owner_bits,
        region: vec![BOT; n],
        winner: vec![UNKNOWN; n],
        strategy: vec![NONE; n],
        order: Vec::new(),
        pos: Vec::new(),
    };
    // Preprocessing: a vertex with a self-loop whose owner likes its priority is won by its
    // owner (it can stay forever); so is that player's attractor of such vertices.
    for pl in [0u8, 1u8] {
        let mut seeds = Vec::new();
        for v in 0..n as u32 {
            if z.region[v as usize] == BOT
                && z.owner(v) == pl
                && par(game.priority[v as usize]) == pl
                && z.succ(v).iter().any(|w| w.0 == v)
            {
                z.region[v as usize] = 0;
                z.winner[v as usize] = pl;
                z.strategy[v as usize] = v;
                seeds.push(v);
            }
        }
        if !seeds.is_empty() {
            z.remove_dominion(pl, &mut seeds);
            for r in z.region.iter_mut() {
                if *r != DIS {
                    *r = BOT;
                }
            }
        }
    }
    // Order the remaining vertices by priority (counting sort when priorities are dense).
    let is_live = |v: u32| z.region[v as usize] != DIS;
    let (mut live, mut maxp) = (0usize, 0u32);
    for v in 0..n as u32 {
        if is_live(v) {
            live += 1;
            maxp = maxp.max(game.priority[v as usize]);
        }
    }
    let maxp = maxp as usize;
    let order = if maxp <= 4 * live + 64 {
        let mut cnt = vec![0u32; maxp + 2];
        for v in (0..n as u32).filter(|&v| is_live(v)) {
            cnt[game.priority[v as usize] as usize + 1] += 1;
        }
        for i in 0..=maxp {
            cnt[i + 1] += cnt[i];
        }
        let mut order = vec![0u32; live];
        for v in (0..n as u32).filter(|&v| is_live(v)) {
            let c = &mut cnt[game.priority[v as usize] as usize];
            order[*c as usize] = v;
            *c += 1;
        }
        order
    } else {
        let mut order: Vec<u32> = (0..n as u32).filter(|&v| is_live(v)).collect();
        order.sort_by_key(|&v| game.priority[v as usize]);
        order
    };
    let mut pos = vec![0u32; n];
    for (i, &v) in order.iter().enumerate() {
        pos[v as usize] = i as u32;
    }
    z.order = order;
    z.pos = pos;
    z.run(watch)?;
    let Zlk {
        winner, strategy, ..
    } = z;
    let winner: Vec<Player> = winner
        .into_iter()
        .map(|w| if w == 0 { Player::Even } else { Player::Odd })
        .collect();
    let mut sol = Solution::from_raw(winner, strategy);
    sol.normalise(game);
    Ok(sol)
}
