//! Boolean equation systems in flat form, their builder, and conversion to and from games.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::game::{Game, GameBuilder, GameError, Player, VertexId};
use crate::artifact::{Artifact, ArtifactKind};

/// A BES variable: an index into the [`Bes`] arrays. Variable `i` is vertex `i` of the game
/// made by [`bes_to_game`], and vice versa for [`game_to_bes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
#[repr(transparent)]
pub struct BesVarId(pub u32);

impl BesVarId {
    /// The index as `usize`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The game vertex of this variable (identity map).
    #[inline]
    pub fn vertex(self) -> VertexId {
        VertexId(self.0)
    }
}

/// The fixpoint symbol of an equation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fixpoint {
    /// Least fixpoint: cycles are false.
    Mu,
    /// Greatest fixpoint: cycles are true.
    Nu,
}

impl Fixpoint {
    /// The fixpoint of an mCRL2 rank: even ranks are `nu`, odd ranks `mu`.
    pub fn of_rank(rank: u32) -> Fixpoint {
        if rank.is_multiple_of(2) {
            Fixpoint::Nu
        } else {
            Fixpoint::Mu
        }
    }

    /// The keyword `mu` or `nu`.
    pub fn keyword(self) -> &'static str {
        match self {
            Fixpoint::Mu => "mu",
            Fixpoint::Nu => "nu",
        }
    }
}

/// The shape of a right-hand side: a constant, or a conjunction / disjunction of variables
/// (a single operand means the plain variable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RhsKind {
    /// `true`.
    True,
    /// `false`.
    False,
    /// `X1 && ... && Xk` (k >= 1).
    And,
    /// `X1 || ... || Xk` (k >= 1).
    Or,
}

/// A BES in flat form (every right-hand side a constant or an and/or of variables), ordered
/// by mCRL2 rank.
///
/// Invariants: `rank`, `kind`, `names` (unless empty) have one entry per variable;
/// `ops_start` has `n + 1` entries; `And`/`Or` right-hand sides have at least one operand,
/// constants none; every operand is `< n`; ranks are normalised (the lowest is 0 if its
/// equations are `nu`, else 1, consecutive ranks alternate fixpoints); `init < n` unless the
/// system is empty.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bes {
    rank: Vec<u32>,
    kind: Vec<RhsKind>,
    ops_start: Vec<u64>,
    ops: Vec<BesVarId>,
    names: Vec<String>,
    /// Whether each variable was introduced by flattening (not declared by the user).
    auxiliary: Vec<bool>,
    init: BesVarId,
}

/// Errors building a BES.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum BesError {
    /// A variable was declared but its equation never given.
    #[error("variable {0} has no equation")]
    Undefined(String),
    /// An equation was given twice.
    #[error("variable {0} has two equations")]
    DefinedTwice(String),
    /// An operand refers to an unknown variable.
    #[error("equation of {var} refers to variable number {operand}, which does not exist")]
    UnknownOperand {
        /// The equation's variable.
        var: String,
        /// The bad operand.
        operand: u32,
    },
    /// An and/or right-hand side without operands.
    #[error("equation of {0} is an empty conjunction or disjunction")]
    NoOperands(String),
    /// No initial variable.
    #[error("the BES has no initial variable")]
    NoInit,
}

impl Bes {
    /// Number of variables (equations).
    pub fn num_vars(&self) -> usize {
        self.rank.len()
    }

    /// All variables by index.
    pub fn vars(&self) -> impl Iterator<Item = BesVarId> {
        (0..self.rank.len() as u32).map(BesVarId)
    }

    /// The normalised mCRL2 rank of `x`'s equation (lower ranks dominate).
    pub fn rank(&self, x: BesVarId) -> u32 {
        self.rank[x.index()]
    }

    /// The fixpoint of `x`'s equation.
    pub fn fixpoint(&self, x: BesVarId) -> Fixpoint {
        Fixpoint::of_rank(self.rank(x))
    }

    /// The shape of `x`'s right-hand side.
    pub fn kind(&self, x: BesVarId) -> RhsKind {
        self.kind[x.index()]
    }

    /// The operands of `x`'s right-hand side.
    pub fn operands(&self, x: BesVarId) -> &[BesVarId] {
        &self.ops[self.ops_start[x.index()] as usize..self.ops_start[x.index() + 1] as usize]
    }

    /// The name of `x` (`X<index>` when the system has no names).
    pub fn name(&self, x: BesVarId) -> String {
        match self.names.get(x.index()) {
            Some(n) => n.clone(),
            None => format!("X{}", x.0),
        }
    }

    /// Whether `x` was introduced by flattening a nested right-hand side (such variables
    /// are not shown by default in solutions).
    pub fn is_auxiliary(&self, x: BesVarId) -> bool {
        self.auxiliary.get(x.index()).copied().unwrap_or(false)
    }

    /// The initial variable.
    pub fn init(&self) -> BesVarId {
        self.init
    }

    /// Variables in equation order: by rank, then by index.
    pub fn equation_order(&self) -> Vec<BesVarId> {
        let mut o: Vec<BesVarId> = self.vars().collect();
        o.sort_by_key(|x| (self.rank(*x), x.0));
        o
    }
}

/// Bulk construction of a [`Bes`]: declare variables, give each one equation (in any
/// order) with its mCRL2 rank, then [`BesBuilder::freeze`].
#[derive(Debug, Default)]
pub struct BesBuilder {
    names: Vec<String>,
    rank: Vec<u32>,
    kind: Vec<Option<RhsKind>>,
    def: Vec<(u64, u32)>,
    ops: Vec<BesVarId>,
    auxiliary: Vec<bool>,
    init: Option<BesVarId>,
    /// Whether names are dropped ([`BesBuilder::unnamed`]).
    unnamed: bool,
}

impl BesBuilder {
    /// An empty builder.
    pub fn new() -> BesBuilder {
        BesBuilder::default()
    }

    /// An empty builder that keeps no names (the BES names its variables `X<index>`): for
    /// a BES that is only solved, where a name per variable would cost more than the rest
    /// of the variable.
    pub fn unnamed() -> BesBuilder {
        BesBuilder {
            unnamed: true,
            ..BesBuilder::default()
        }
    }

    /// The name of variable `i` for messages.
    fn name_of(&self, i: usize) -> String {
        match self.names.get(i) {
            Some(n) => n.clone(),
            None => format!("X{i}"),
        }
    }

    /// Declares a new variable (its equation may be given later).
    pub fn add_variable(&mut self, name: &str) -> BesVarId {
        let id = BesVarId(self.rank.len() as u32);
        if !self.unnamed {
            self.names.push(name.to_string());
        }
        self.rank.push(0);
        self.kind.push(None);
        self.def.push((0, 0));
        self.auxiliary.push(false);
        id
    }

    /// Declares a new auxiliary variable (one that stands for a subformula of another
    /// equation; kept out of solution listings).
    pub fn add_auxiliary(&mut self, name: &str) -> BesVarId {
        let id = self.add_variable(name);
        self.auxiliary[id.index()] = true;
        id
    }

    /// Number of variables declared so far.
    pub fn num_vars(&self) -> usize {
        self.rank.len()
    }

    /// Gives the equation of `x`: `rank` is mCRL2's rank (even = `nu`, odd = `mu`, lower
    /// ranks dominate; only the order and parity matter), the right-hand side `kind` over
    /// `operands` (none for constants).
    pub fn define(
        &mut self,
        x: BesVarId,
        rank: u32,
        kind: RhsKind,
        operands: &[BesVarId],
    ) -> Result<(), BesError> {
        if self.kind[x.index()].is_some() {
            return Err(BesError::DefinedTwice(self.name_of(x.index())));
        }
        let operands = match kind {
            RhsKind::True | RhsKind::False => &[][..],
            _ if operands.is_empty() => return Err(BesError::NoOperands(self.name_of(x.index()))),
            _ => operands,
        };
        // A single operand is the plain variable: one canonical kind for it.
        let kind = if operands.len() == 1 {
            RhsKind::And
        } else {
            kind
        };
        self.rank[x.index()] = rank;
        self.kind[x.index()] = Some(kind);
        self.def[x.index()] = (self.ops.len() as u64, operands.len() as u32);
        self.ops.extend_from_slice(operands);
        Ok(())
    }

    /// Sets the initial variable.
    pub fn set_init(&mut self, x: BesVarId) {
        self.init = Some(x);
    }

    /// Checks that every variable has an equation and builds the BES.
    pub fn freeze(self) -> Result<Bes, BesError> {
        let n = self.rank.len();
        let mut kind = Vec::with_capacity(n);
        let mut ops_start = Vec::with_capacity(n + 1);
        let mut ops = Vec::with_capacity(self.ops.len());
        ops_start.push(0u64);
        for i in 0..n {
            let k = self.kind[i].ok_or_else(|| BesError::Undefined(self.name_of(i)))?;
            kind.push(k);
            let (s, l) = self.def[i];
            for &o in &self.ops[s as usize..s as usize + l as usize] {
                if o.index() >= n {
                    return Err(BesError::UnknownOperand {
                        var: self.name_of(i),
                        operand: o.0,
                    });
                }
                ops.push(o);
            }
            ops_start.push(ops.len() as u64);
        }
        let init = match self.init {
            Some(x) => x,
            None if n == 0 => BesVarId(0),
            None => return Err(BesError::NoInit),
        };
        Ok(Bes {
            rank: normalise_ranks(&self.rank),
            kind,
            ops_start,
            ops,
            names: self.names,
            auxiliary: self.auxiliary,
            init,
        })
    }
}

/// The BES artifact: read and written only through this implementation.
impl Artifact for Bes {
    const KIND: ArtifactKind = ArtifactKind::Bes;

    /// The invariants listed on [`Bes`]: consistent lengths, operands in range, non-empty
    /// junctions, normalised ranks and an initial variable in range.
    fn check_invariants(&self) -> Result<(), String> {
        let n = self.names.len();
        if self.rank.len() != n || self.kind.len() != n || self.auxiliary.len() != n {
            return Err(format!(
                "{n} names but {} ranks, {} right-hand sides and {} auxiliary flags",
                self.rank.len(),
                self.kind.len(),
                self.auxiliary.len()
            ));
        }
        if self.ops_start.len() != n + 1
            || self.ops_start.first() != Some(&0)
            || self.ops_start.last() != Some(&(self.ops.len() as u64))
            || self.ops_start.windows(2).any(|w| w[0] > w[1])
        {
            return Err("the operand index is inconsistent".into());
        }
        for i in 0..n {
            let ops = &self.ops[self.ops_start[i] as usize..self.ops_start[i + 1] as usize];
            match self.kind[i] {
                RhsKind::True | RhsKind::False if !ops.is_empty() => {
                    return Err(format!(
                        "constant equation of {} has operands",
                        self.names[i]
                    ));
                }
                RhsKind::And | RhsKind::Or if ops.is_empty() => {
                    return Err(BesError::NoOperands(self.names[i].clone()).to_string());
                }
                _ => {}
            }
            if let Some(o) = ops.iter().find(|o| o.index() >= n) {
                return Err(BesError::UnknownOperand {
                    var: self.names[i].clone(),
                    operand: o.0,
                }
                .to_string());
            }
        }
        if normalise_ranks(&self.rank) != self.rank {
            return Err("ranks are not in mCRL2's normal form".into());
        }
        if n > 0 && self.init.index() >= n {
            return Err(format!("initial variable {} is not below {n}", self.init.0));
        }
        Ok(())
    }
}

/// Renumbers ranks to mCRL2's normal form, keeping order and parity: the lowest becomes 0
/// (`nu`) or 1 (`mu`), and the rank goes up by one exactly where the fixpoint changes.
fn normalise_ranks(rank: &[u32]) -> Vec<u32> {
    let mut distinct: Vec<u32> = rank.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    let mut map = rustc_hash::FxHashMap::default();
    let mut cur = 0u32;
    for (k, &r) in distinct.iter().enumerate() {
        if k == 0 {
            cur = r % 2;
        } else if r % 2 != distinct[k - 1] % 2 {
            cur += 1;
        }
        map.insert(r, cur);
    }
    rank.iter().map(|r| map[r]).collect()
}

/// The PGSolver priority of an mCRL2 rank, when the largest rank in the system is
/// `max_rank`: `R - rank` with `R` = `max_rank` rounded up to even. Lower ranks get higher
/// priorities and the parity is kept (`nu` = even rank = even priority = [`Player::Even`]).
/// For builders of structure graphs (`pbesinst`) that make a [`Game`] directly.
pub fn priority_of_rank(rank: u32, max_rank: u32) -> u32 {
    debug_assert!(rank <= max_rank);
    max_rank + (max_rank & 1) - rank
}

/// The parity game of a BES (mCRL2's structure graph, in PGSolver conventions). Variable `i`
/// becomes vertex `i`: `Or` right-hand sides are owned by `Even`, `And` by `Odd`; the
/// priority is `R - rank` with `R` the largest rank rounded up to even, so the lowest rank
/// gets the highest priority and `nu` (even rank) gets even priorities. `true` is an
/// `Even` vertex of priority 0 with a self-loop, `false` an `Odd` vertex of priority 1 with a
/// self-loop (no other cycle passes through them, so their priority matters only there).
/// A variable is true exactly when `Even` wins its vertex.
pub fn bes_to_game(bes: &Bes) -> Game {
    let n = bes.num_vars();
    let max_rank = bes.rank.iter().copied().max().unwrap_or(0);
    let mut b = GameBuilder::with_capacity(n, bes.ops.len() + n);
    for x in bes.vars() {
        let v = match bes.kind(x) {
            RhsKind::True => b.add_vertex(Player::Even, 0),
            RhsKind::False => b.add_vertex(Player::Odd, 1),
            RhsKind::And => b.add_vertex(Player::Odd, priority_of_rank(bes.rank(x), max_rank)),
            RhsKind::Or => b.add_vertex(Player::Even, priority_of_rank(bes.rank(x), max_rank)),
        };
        match bes.kind(x) {
            RhsKind::True | RhsKind::False => b.set_successors(v, &[v]),
            _ => {
                let succ: Vec<VertexId> = bes.operands(x).iter().map(|o| o.vertex()).collect();
                b.set_successors(v, &succ);
            }
        }
        if !bes.names.is_empty() {
            b.set_name(v, &bes.names[x.index()]);
        }
    }
    if n > 0 {
        b.set_initial(bes.init.vertex());
    }
    b.freeze()
        .expect("a frozen BES gives a well-formed game (operands exist, and/or non-empty)")
}

/// The BES of a parity game: vertex `i` becomes variable `i` (named after the vertex, or
/// `X<i>`), `Even` vertices disjunctions and `Odd` vertices conjunctions of their successors,
/// rank `R - priority` with `R` the largest priority rounded up to even. The initial variable
/// is the game's initial vertex, or vertex 0.
pub fn game_to_bes(game: &Game) -> Result<Bes, GameError> {
    let top = game.max_priority().unwrap_or(0);
    let top = top + (top & 1);
    let mut b = BesBuilder::new();
    for v in game.vertices() {
        match game.name(v) {
            Some(nm) => b.add_variable(nm),
            None => b.add_variable(&format!("X{}", v.0)),
        };
    }
    for v in game.vertices() {
        let kind = match game.owner(v) {
            Player::Even => RhsKind::Or,
            Player::Odd => RhsKind::And,
        };
        let ops: Vec<BesVarId> = game.successors(v).iter().map(|w| BesVarId(w.0)).collect();
        b.define(BesVarId(v.0), top - game.priority(v), kind, &ops)
            .expect("fresh variables, non-empty successor lists");
    }
    if game.num_vertices() > 0 {
        b.set_init(BesVarId(game.initial().map_or(0, |v| v.0)));
    }
    Ok(b.freeze().expect("every variable defined"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_vars() -> Bes {
        let mut b = BesBuilder::new();
        let x = b.add_variable("X");
        let y = b.add_variable("Y");
        b.define(x, 1, RhsKind::Or, &[x, y]).unwrap();
        b.define(y, 2, RhsKind::True, &[]).unwrap();
        b.set_init(x);
        b.freeze().unwrap()
    }

    #[test]
    fn artifact_invariants_reject_broken_systems() {
        let good = two_vars();
        assert_eq!(good.check_invariants(), Ok(()));
        let mut bad = good.clone();
        bad.ops[1] = BesVarId(7);
        assert!(bad
            .check_invariants()
            .unwrap_err()
            .contains("does not exist"));
        let mut bad = good.clone();
        bad.init = BesVarId(2);
        assert!(bad
            .check_invariants()
            .unwrap_err()
            .contains("initial variable"));
        let mut bad = good.clone();
        bad.rank[1] = 5;
        assert!(bad.check_invariants().unwrap_err().contains("normal form"));
        let mut bad = good.clone();
        bad.ops_start[1] = 0;
        assert!(bad.check_invariants().is_err());
        let mut bad = good;
        bad.names.pop();
        assert!(bad.check_invariants().unwrap_err().contains("names"));
    }
}
