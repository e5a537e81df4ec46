//! The typed process IR: action declarations, process equations and `init`, as the type
//! checker produces them and linearisation consumes them.
//!
//! Conventions: process calls are resolved to a [`ProcId`] with a full positional argument
//! list (`P(x = e)` and `P()` are expanded: unlisted parameters take the same-named variable
//! in scope); actions are resolved against their overloaded declarations and carry the
//! declared sorts; action-name sets of `allow`/`comm` are sorted multisets.

use serde::{Deserialize, Serialize};

use crate::data::ir::{DataExpr, DataSpec, Name, Sort, Var};
use crate::syntax::Span;

/// An action declaration `act a: S1 # … # Sn;` (one per overload).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ActionDecl {
    /// The action's name.
    pub name: Name,
    /// Its parameter sorts (empty for a plain action).
    pub sorts: Vec<Sort>,
    /// Where it was declared.
    pub span: Span,
}

/// An action occurrence `a(e1, …, en)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Action {
    /// The action's name.
    pub name: Name,
    /// The sorts of the declaration it resolves to.
    pub sorts: Vec<Sort>,
    /// The arguments, of those sorts.
    pub args: Vec<DataExpr>,
}

/// A multiset of action names, sorted: `a|b|b` in `allow`, and comm left-hand sides.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MultiActionName(pub Vec<Name>);

/// A communication rule `a1|…|an -> b` (n ≥ 2); `rhs` is `None` for `-> tau`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CommRule {
    /// The communicating names, sorted.
    pub lhs: MultiActionName,
    /// The result, or `None` for `tau`.
    pub rhs: Option<Name>,
}

/// Index of a process equation in [`ProcSpec::procs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ProcId(pub u32);

/// A typed process expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProcExpr {
    /// A single action.
    Action(Action),
    /// `tau`: the internal step (the empty multi-action).
    Tau,
    /// `delta`: deadlock.
    Delta,
    /// `P(e1, …, en)` with all parameters given, positionally.
    Call {
        /// The process called.
        proc: ProcId,
        /// One argument per parameter.
        args: Vec<DataExpr>,
    },
    /// `sum x1: S1, … . p`.
    Sum {
        /// The summation variables.
        vars: Vec<Var>,
        /// The body.
        body: Box<ProcExpr>,
    },
    /// `p + q`.
    Choice(Box<ProcExpr>, Box<ProcExpr>),
    /// `p . q`.
    Seq(Box<ProcExpr>, Box<ProcExpr>),
    /// `c -> p` (`else_ = None`) or `c -> p <> q`.
    If {
        /// The condition (sort `Bool`).
        cond: DataExpr,
        /// The then-branch.
        then: Box<ProcExpr>,
        /// The else-branch, if any.
        else_: Option<Box<ProcExpr>>,
    },
    /// `p | q`: synchronous product (multi-actions).
    Sync(Box<ProcExpr>, Box<ProcExpr>),
    /// `p || q`: parallel composition.
    Par(Box<ProcExpr>, Box<ProcExpr>),
    /// `p ||_ q`: left merge.
    LeftMerge(Box<ProcExpr>, Box<ProcExpr>),
    /// `allow({…}, p)`.
    Allow {
        /// The allowed multi-action names.
        set: Vec<MultiActionName>,
        /// The body.
        body: Box<ProcExpr>,
    },
    /// `block({…}, p)`.
    Block {
        /// The blocked action names.
        set: Vec<Name>,
        /// The body.
        body: Box<ProcExpr>,
    },
    /// `hide({…}, p)`.
    Hide {
        /// The hidden action names.
        set: Vec<Name>,
        /// The body.
        body: Box<ProcExpr>,
    },
    /// `rename({a -> b, …}, p)`.
    Rename {
        /// Pairs (from, to).
        map: Vec<(Name, Name)>,
        /// The body.
        body: Box<ProcExpr>,
    },
    /// `comm({…}, p)`.
    Comm {
        /// The rules.
        rules: Vec<CommRule>,
        /// The body.
        body: Box<ProcExpr>,
    },
}

/// A process equation `proc P(x1: S1, …) = body;`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ProcDecl {
    /// The process's name (processes may be overloaded by parameter sorts).
    pub name: Name,
    /// Its parameters.
    pub params: Vec<Var>,
    /// Its body.
    pub body: ProcExpr,
    /// Where it was declared.
    pub span: Span,
}

/// A whole typed specification.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProcSpec {
    /// Data declarations.
    pub data: DataSpec,
    /// Action declarations, in order.
    pub actions: Vec<ActionDecl>,
    /// `glob` variables (free in `init` and equations; any value may be chosen).
    pub globals: Vec<Var>,
    /// Process equations, indexed by [`ProcId`].
    pub procs: Vec<ProcDecl>,
    /// The initial process.
    pub init: ProcExpr,
    /// Where `init` was written.
    pub init_span: Span,
}

impl ProcSpec {
    /// The process equation `id`.
    pub fn proc(&self, id: ProcId) -> &ProcDecl {
        &self.procs[id.0 as usize]
    }
}
