//! The typed PBES IR: what `txt2pbes` (through the type checker) and `lps2pbes` produce.

use serde::{Deserialize, Serialize};

use crate::data::ir::{DataExpr, DataSpec, Name, Var};
use crate::source::Span;

/// A fixpoint symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Fixpoint {
    /// Least fixpoint.
    Mu,
    /// Greatest fixpoint.
    Nu,
}

/// A propositional variable declaration `X(d1: D1, …)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PropVarDecl {
    /// Its name, unique in the PBES.
    pub name: Name,
    /// Its parameters.
    pub params: Vec<Var>,
}

/// An occurrence `X(e1, …)` of a propositional variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PropVarInst {
    /// The variable's name.
    pub name: Name,
    /// Its arguments.
    pub args: Vec<DataExpr>,
}

/// A PBES expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PbesExpr {
    /// `true`.
    True,
    /// `false`.
    False,
    /// A Boolean data expression (`val(b)` in the textual format when it is not a name or an
    /// application).
    Data(DataExpr),
    /// `!φ`.
    Not(Box<PbesExpr>),
    /// `φ && ψ`.
    And(Box<PbesExpr>, Box<PbesExpr>),
    /// `φ || ψ`.
    Or(Box<PbesExpr>, Box<PbesExpr>),
    /// `φ => ψ`.
    Imp(Box<PbesExpr>, Box<PbesExpr>),
    /// `forall x: S . φ`.
    Forall(Vec<Var>, Box<PbesExpr>),
    /// `exists x: S . φ`.
    Exists(Vec<Var>, Box<PbesExpr>),
    /// `X(e1, …)`.
    PropVar(PropVarInst),
}

/// An equation `sigma X(d: D) = φ`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PbesEquation {
    /// `mu` or `nu`.
    pub fixpoint: Fixpoint,
    /// The variable it defines.
    pub var: PropVarDecl,
    /// Its right-hand side.
    pub rhs: PbesExpr,
    /// Where it was written (default for generated equations).
    pub span: Span,
}

/// A whole PBES: data, global variables, equations in order, and the initial instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pbes {
    /// Data declarations.
    pub data: DataSpec,
    /// `glob` variables.
    pub globals: Vec<Var>,
    /// The equations; their order is the fixpoint nesting (first = outermost).
    pub equations: Vec<PbesEquation>,
    /// The initial instance.
    pub init: PropVarInst,
}
