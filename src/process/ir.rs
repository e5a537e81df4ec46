//! The typed process IR: action declarations, process equations and `init`, as the type
//! checker produces them and linearisation consumes them.
//!
//! Conventions: process calls are resolved to a [`ProcId`] with a full positional argument
//! list (`P(x = e)` and `P()` are expanded: unlisted parameters take the same-named variable
//! in scope); actions are resolved against their overloaded declarations and carry the
//! declared sorts; action-name sets of `allow`/`comm` are sorted multisets.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::data::ir::{DataExpr, DataSpec, Name, Sort, Var};
use crate::source::Span;

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
        body: Arc<ProcExpr>,
    },
    /// `p + q`.
    Choice(Arc<ProcExpr>, Arc<ProcExpr>),
    /// `p . q`.
    Seq(Arc<ProcExpr>, Arc<ProcExpr>),
    /// `c -> p` (`else_ = None`) or `c -> p <> q`.
    If {
        /// The condition (sort `Bool`).
        cond: DataExpr,
        /// The then-branch.
        then: Arc<ProcExpr>,
        /// The else-branch, if any.
        else_: Option<Arc<ProcExpr>>,
    },
    /// `p | q`: synchronous product (multi-actions).
    Sync(Arc<ProcExpr>, Arc<ProcExpr>),
    /// `p || q`: parallel composition.
    Par(Arc<ProcExpr>, Arc<ProcExpr>),
    /// `p ||_ q`: left merge.
    LeftMerge(Arc<ProcExpr>, Arc<ProcExpr>),
    /// `allow({…}, p)`.
    Allow {
        /// The allowed multi-action names.
        set: Vec<MultiActionName>,
        /// The body.
        body: Arc<ProcExpr>,
    },
    /// `block({…}, p)`.
    Block {
        /// The blocked action names.
        set: Vec<Name>,
        /// The body.
        body: Arc<ProcExpr>,
    },
    /// `hide({…}, p)`.
    Hide {
        /// The hidden action names.
        set: Vec<Name>,
        /// The body.
        body: Arc<ProcExpr>,
    },
    /// `rename({a -> b, …}, p)`.
    Rename {
        /// Pairs (from, to).
        map: Vec<(Name, Name)>,
        /// The body.
        body: Arc<ProcExpr>,
    },
    /// `comm({…}, p)`.
    Comm {
        /// The rules.
        rules: Vec<CommRule>,
        /// The body.
        body: Arc<ProcExpr>,
    },
}

impl ProcExpr {
    /// Calls `f` on every direct sub-process, in order: the read-only walk beside
    /// [`ProcExpr::map_children`], so that analyses only spell out the cases they treat.
    pub fn for_each_child(&self, mut f: impl FnMut(&ProcExpr)) {
        match self {
            ProcExpr::Action(_) | ProcExpr::Tau | ProcExpr::Delta | ProcExpr::Call { .. } => {}
            ProcExpr::Choice(x, y)
            | ProcExpr::Seq(x, y)
            | ProcExpr::Sync(x, y)
            | ProcExpr::Par(x, y)
            | ProcExpr::LeftMerge(x, y) => {
                f(x);
                f(y);
            }
            ProcExpr::If { then, else_, .. } => {
                f(then);
                if let Some(x) = else_ {
                    f(x);
                }
            }
            ProcExpr::Sum { body, .. }
            | ProcExpr::Allow { body, .. }
            | ProcExpr::Block { body, .. }
            | ProcExpr::Hide { body, .. }
            | ProcExpr::Rename { body, .. }
            | ProcExpr::Comm { body, .. } => f(body),
        }
    }

    /// This node with every direct sub-process replaced by `f` of it; data, variables and
    /// action sets are kept. The one place that builds every operator anew, so that
    /// structural rewrites only spell out the cases they change.
    pub fn map_children(&self, mut f: impl FnMut(&ProcExpr) -> ProcExpr) -> ProcExpr {
        let mut b = |p: &ProcExpr| Arc::new(f(p));
        match self {
            ProcExpr::Action(_) | ProcExpr::Tau | ProcExpr::Delta | ProcExpr::Call { .. } => {
                self.clone()
            }
            ProcExpr::Sum { vars, body } => ProcExpr::Sum {
                vars: vars.clone(),
                body: b(body),
            },
            ProcExpr::Choice(x, y) => ProcExpr::Choice(b(x), b(y)),
            ProcExpr::Seq(x, y) => ProcExpr::Seq(b(x), b(y)),
            ProcExpr::Sync(x, y) => ProcExpr::Sync(b(x), b(y)),
            ProcExpr::Par(x, y) => ProcExpr::Par(b(x), b(y)),
            ProcExpr::LeftMerge(x, y) => ProcExpr::LeftMerge(b(x), b(y)),
            ProcExpr::If { cond, then, else_ } => ProcExpr::If {
                cond: cond.clone(),
                then: b(then),
                else_: else_.as_ref().map(|x| b(x)),
            },
            ProcExpr::Allow { set, body } => ProcExpr::Allow {
                set: set.clone(),
                body: b(body),
            },
            ProcExpr::Block { set, body } => ProcExpr::Block {
                set: set.clone(),
                body: b(body),
            },
            ProcExpr::Hide { set, body } => ProcExpr::Hide {
                set: set.clone(),
                body: b(body),
            },
            ProcExpr::Rename { map, body } => ProcExpr::Rename {
                map: map.clone(),
                body: b(body),
            },
            ProcExpr::Comm { rules, body } => ProcExpr::Comm {
                rules: rules.clone(),
                body: b(body),
            },
        }
    }
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
