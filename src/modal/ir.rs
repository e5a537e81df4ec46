//! The typed state-formula IR (`.mcf` files after type checking against a specification).

use serde::{Deserialize, Serialize};

use crate::data::ir::{DataExpr, DataSpec, Name, Var};
use crate::data::ir_ops::free_vars_outside_into;
use crate::process::ir::Action;

/// A fixpoint variable declaration `X(n: Nat = e, …)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FixpointVar {
    /// The propositional variable's name.
    pub name: Name,
    /// Its parameters with their initial values.
    pub params: Vec<(Var, DataExpr)>,
}

/// A typed state formula.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StateFormula {
    /// `true`.
    True,
    /// `false`.
    False,
    /// `!φ`.
    Not(Box<StateFormula>),
    /// `φ && ψ`.
    And(Box<StateFormula>, Box<StateFormula>),
    /// `φ || ψ`.
    Or(Box<StateFormula>, Box<StateFormula>),
    /// `φ => ψ`.
    Imp(Box<StateFormula>, Box<StateFormula>),
    /// `forall x: S . φ`.
    Forall(Vec<Var>, Box<StateFormula>),
    /// `exists x: S . φ`.
    Exists(Vec<Var>, Box<StateFormula>),
    /// `[R]φ`.
    Must(RegFormula, Box<StateFormula>),
    /// `<R>φ`.
    May(RegFormula, Box<StateFormula>),
    /// `mu X(…) . φ`.
    Mu(FixpointVar, Box<StateFormula>),
    /// `nu X(…) . φ`.
    Nu(FixpointVar, Box<StateFormula>),
    /// An occurrence `X(e1, …)` of a fixpoint variable.
    Var {
        /// The variable.
        name: Name,
        /// Its arguments.
        args: Vec<DataExpr>,
    },
    /// `val(b)`: a Boolean data expression.
    Val(DataExpr),
}

/// A regular formula over action formulas.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RegFormula {
    /// A single step matching the action formula.
    Action(ActionFormula),
    /// `nil`: the empty sequence.
    Nil,
    /// `R1 . R2`.
    Seq(Box<RegFormula>, Box<RegFormula>),
    /// `R1 + R2`.
    Alt(Box<RegFormula>, Box<RegFormula>),
    /// `R*`.
    Star(Box<RegFormula>),
    /// `R+`.
    Plus(Box<RegFormula>),
}

/// An action formula: a predicate on multi-actions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ActionFormula {
    /// `true`: every multi-action.
    True,
    /// `false`: none.
    False,
    /// `!α`.
    Not(Box<ActionFormula>),
    /// `α && β`.
    And(Box<ActionFormula>, Box<ActionFormula>),
    /// `α || β`.
    Or(Box<ActionFormula>, Box<ActionFormula>),
    /// `α => β`.
    Imp(Box<ActionFormula>, Box<ActionFormula>),
    /// `forall x: S . α`.
    Forall(Vec<Var>, Box<ActionFormula>),
    /// `exists x: S . α`.
    Exists(Vec<Var>, Box<ActionFormula>),
    /// A multi-action `a(…)|b(…)`; empty for `tau`. Matches exactly that multi-action.
    MultiAction(Vec<Action>),
    /// `val(b)`.
    Val(DataExpr),
}

/// A formula file after type checking: extra data declarations it makes (if any) and the
/// formula.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormulaSpec {
    /// Data declarations made in the formula file itself (usually empty).
    pub data: DataSpec,
    /// The state formula.
    pub formula: StateFormula,
}

impl FormulaSpec {
    /// The data of a model (`base`: an LPS's or an LTS's declarations) extended with the
    /// declarations of this formula file, as every checking route types the formula.
    pub fn data_over(&self, base: &DataSpec) -> DataSpec {
        let mut d = base.clone();
        d.sorts.extend(self.data.sorts.iter().cloned());
        d.aliases.extend(self.data.aliases.iter().cloned());
        d.constructors
            .extend(self.data.constructors.iter().cloned());
        d.mappings.extend(self.data.mappings.iter().cloned());
        d.equations.extend(self.data.equations.iter().cloned());
        d
    }
}

/// Adds the free data variables of a state formula to `out` (in order of occurrence).
pub fn formula_free_vars_into(f: &StateFormula, bound: &mut Vec<Var>, out: &mut Vec<Var>) {
    use StateFormula as S;
    let add = free_vars_outside_into;
    match f {
        S::True | S::False => {}
        S::Val(d) => add(d, bound, out),
        S::Var { args, .. } => {
            for a in args {
                add(a, bound, out);
            }
        }
        S::Not(a) => formula_free_vars_into(a, bound, out),
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => {
            formula_free_vars_into(a, bound, out);
            formula_free_vars_into(b, bound, out);
        }
        S::Forall(vs, a) | S::Exists(vs, a) => {
            let n = bound.len();
            bound.extend(vs.iter().cloned());
            formula_free_vars_into(a, bound, out);
            bound.truncate(n);
        }
        S::Must(r, a) | S::May(r, a) => {
            reg_free_vars_into(r, bound, out);
            formula_free_vars_into(a, bound, out);
        }
        S::Mu(v, a) | S::Nu(v, a) => {
            for (_, init) in &v.params {
                add(init, bound, out);
            }
            let n = bound.len();
            bound.extend(v.params.iter().map(|(p, _)| p.clone()));
            formula_free_vars_into(a, bound, out);
            bound.truncate(n);
        }
    }
}

fn reg_free_vars_into(r: &RegFormula, bound: &mut Vec<Var>, out: &mut Vec<Var>) {
    match r {
        RegFormula::Action(a) => action_free_vars_into(a, bound, out),
        RegFormula::Nil => {}
        RegFormula::Seq(x, y) | RegFormula::Alt(x, y) => {
            reg_free_vars_into(x, bound, out);
            reg_free_vars_into(y, bound, out);
        }
        RegFormula::Star(x) | RegFormula::Plus(x) => reg_free_vars_into(x, bound, out),
    }
}

fn action_free_vars_into(a: &ActionFormula, bound: &mut Vec<Var>, out: &mut Vec<Var>) {
    use ActionFormula as A;
    let add = free_vars_outside_into;
    match a {
        A::True | A::False => {}
        A::Val(d) => add(d, bound, out),
        A::MultiAction(acts) => {
            for x in acts {
                for d in &x.args {
                    add(d, bound, out);
                }
            }
        }
        A::Not(x) => action_free_vars_into(x, bound, out),
        A::And(x, y) | A::Or(x, y) | A::Imp(x, y) => {
            action_free_vars_into(x, bound, out);
            action_free_vars_into(y, bound, out);
        }
        A::Forall(vs, x) | A::Exists(vs, x) => {
            let n = bound.len();
            bound.extend(vs.iter().cloned());
            action_free_vars_into(x, bound, out);
            bound.truncate(n);
        }
    }
}
