//! The typed data IR: what the type checker produces for sorts, data declarations and data
//! expressions, and what linearisation, PBES generation and the data engine consume.
//!
//! Conventions (every producer and consumer relies on them):
//! - Sorts are fully resolved: aliases of non-struct sorts are expanded (`sort A = List(Nat)`
//!   makes `A` *be* `List(Nat)`); a struct sort, a basic sort `sort S;`, and an alias naming a
//!   struct are [`Sort::Named`]. Anonymous structs get a generated name starting with `@`.
//! - Overloading is resolved: every function symbol is a [`Func`] whose identity is its name
//!   *and* its sort, as in mCRL2. Built-in operations are `Func`s with mCRL2's surface name
//!   (`+`, `div`, `==`, `if`, `head`, `#`, `|>`, `in`, `Int2Nat`, …) and one of the sorts
//!   mCRL2's data type reference gives that name. Names that the user cannot write start with
//!   `@` (e.g. `@func_update` for `f[x -> v]`).
//! - Implicit numeric upcasts are explicit: the type checker inserts applications of
//!   `Pos2Nat`, `Pos2Int`, `Nat2Int`, `Pos2Real`, `Nat2Real`, `Int2Real` where mCRL2 coerces.
//!   Numeric literals carry their own sort directly (`Number { value: 3, sort: Nat }` instead
//!   of `Pos2Nat(3)`), always the sort the context needs.
//! - List enumerations `[a, b]` are kept as [`DataExpr::ListEnum`] (printing them back is
//!   then trivial); the data engine turns them into `|>` chains.

use num_bigint::BigInt;
use serde::{Deserialize, Serialize};

use crate::source::Span;

pub use crate::source::Name;

/// A resolved sort.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Sort {
    /// `Bool`.
    Bool,
    /// `Pos`: 1, 2, …
    Pos,
    /// `Nat`: 0, 1, …
    Nat,
    /// `Int`.
    Int,
    /// `Real`: exact rationals.
    Real,
    /// `List(S)`.
    List(Box<Sort>),
    /// `Set(S)`: possibly infinite sets (comprehensions, complements).
    Set(Box<Sort>),
    /// `FSet(S)`: finite sets.
    FSet(Box<Sort>),
    /// `Bag(S)`: possibly infinite bags.
    Bag(Box<Sort>),
    /// `FBag(S)`: finite bags.
    FBag(Box<Sort>),
    /// `S1 # … # Sn -> S`.
    Arrow(Vec<Sort>, Box<Sort>),
    /// A user sort: basic (`sort S;`) or struct (`sort S = struct …;`).
    Named(Name),
}

impl Sort {
    /// Whether this is one of `Pos`, `Nat`, `Int`, `Real`.
    pub fn is_numeric(&self) -> bool {
        matches!(self, Sort::Pos | Sort::Nat | Sort::Int | Sort::Real)
    }

    /// The codomain of a function sort, or the sort itself for a constant.
    pub fn codomain(&self) -> &Sort {
        match self {
            Sort::Arrow(_, c) => c,
            s => s,
        }
    }

    /// The domain of a function sort (empty for a constant).
    pub fn domain(&self) -> &[Sort] {
        match self {
            Sort::Arrow(d, _) => d,
            _ => &[],
        }
    }
}

/// A typed data variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Var {
    /// Its name.
    pub name: Name,
    /// Its sort.
    pub sort: Sort,
}

/// A function symbol: user constructor or mapping, struct constructor/projection/recogniser,
/// or built-in operation. Identity is name and sort together.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Func {
    /// Its name (mCRL2's surface name for built-ins; `@…` for internal ones).
    pub name: Name,
    /// Its sort: an [`Sort::Arrow`] for functions, the result sort for constants.
    pub sort: Sort,
}

/// The binders of data expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Binder {
    /// `lambda x: S . e` — sort `S -> sort(e)`.
    Lambda,
    /// `forall x: S . b` — sort `Bool`.
    Forall,
    /// `exists x: S . b` — sort `Bool`.
    Exists,
    /// `{ x: S | b }` with a Boolean body — sort `Set(S)`.
    SetComprehension,
    /// `{ x: S | n }` with a `Nat` body — sort `Bag(S)`.
    BagComprehension,
}

/// A typed data expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DataExpr {
    /// A variable.
    Var(Var),
    /// A function symbol or constant.
    Func(Func),
    /// A numeric literal of sort `Pos`, `Nat`, `Int` or `Real` (non-negative; `-4` is the
    /// application of unary `-`).
    Number {
        /// The value.
        value: BigInt,
        /// The literal's sort.
        sort: Sort,
    },
    /// Application `head(args…)`; `head` has an arrow sort whose domain matches `args`.
    App {
        /// The function.
        head: Box<DataExpr>,
        /// The arguments, at least one.
        args: Vec<DataExpr>,
    },
    /// `lambda`, `forall`, `exists` or a set/bag comprehension (exactly one variable for the
    /// comprehensions).
    Binder {
        /// Which binder.
        kind: Binder,
        /// The bound variables, at least one.
        vars: Vec<Var>,
        /// The body.
        body: Box<DataExpr>,
    },
    /// `body whr x1 = e1, …, xn = en end` (the `ei` do not see the `xi`).
    Whr {
        /// The body.
        body: Box<DataExpr>,
        /// The local definitions.
        defs: Vec<(Var, DataExpr)>,
    },
    /// `[e1, …, en]` of sort `List(S)`.
    ListEnum {
        /// The elements.
        elems: Vec<DataExpr>,
        /// The list sort `List(S)`.
        sort: Sort,
    },
    /// `{e1, …, en}` of sort `Set(S)` or `FSet(S)`.
    SetEnum {
        /// The elements.
        elems: Vec<DataExpr>,
        /// The set sort.
        sort: Sort,
    },
    /// `{e1: n1, …, ek: nk}` of sort `Bag(S)` or `FBag(S)`.
    BagEnum {
        /// Element and multiplicity (`Nat`) pairs.
        elems: Vec<(DataExpr, DataExpr)>,
        /// The bag sort.
        sort: Sort,
    },
}

impl DataExpr {
    /// The sort of this expression.
    pub fn sort(&self) -> Sort {
        match self {
            DataExpr::Var(v) => v.sort.clone(),
            DataExpr::Func(f) => f.sort.clone(),
            DataExpr::Number { sort, .. } => sort.clone(),
            DataExpr::App { head, .. } => head.sort().codomain().clone(),
            DataExpr::Binder { kind, vars, body } => match kind {
                Binder::Lambda => Sort::Arrow(
                    vars.iter().map(|v| v.sort.clone()).collect(),
                    Box::new(body.sort()),
                ),
                Binder::Forall | Binder::Exists => Sort::Bool,
                Binder::SetComprehension => Sort::Set(Box::new(vars[0].sort.clone())),
                Binder::BagComprehension => Sort::Bag(Box::new(vars[0].sort.clone())),
            },
            DataExpr::Whr { body, .. } => body.sort(),
            DataExpr::ListEnum { sort, .. }
            | DataExpr::SetEnum { sort, .. }
            | DataExpr::BagEnum { sort, .. } => sort.clone(),
        }
    }
}

/// A constructor of a struct sort: `c(p1: S1, …) ? is_c`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StructCons {
    /// The constructor's name.
    pub name: Name,
    /// Its fields, in order.
    pub fields: Vec<StructField>,
    /// The recogniser's name, if declared (`? is_c`).
    pub recogniser: Option<Name>,
}

/// A field of a struct constructor.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct StructField {
    /// The projection's name, if declared.
    pub projection: Option<Name>,
    /// The field's sort.
    pub sort: Sort,
}

/// What a user sort is.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SortDef {
    /// `sort S;` — a basic sort, given meaning by `cons`/`map`/`eqn`.
    Basic,
    /// `sort S = struct …;` — constructors in declaration order.
    Struct(Vec<StructCons>),
}

/// A user sort declaration.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SortDecl {
    /// The sort's name (as in [`Sort::Named`]).
    pub name: Name,
    /// Its definition.
    pub def: SortDef,
    /// Where it was declared.
    pub span: Span,
}

/// A declared constructor or mapping.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FuncDecl {
    /// The symbol.
    pub func: Func,
    /// Where it was declared.
    pub span: Span,
}

/// A rewrite rule `vars: condition -> lhs = rhs`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Equation {
    /// The variables the equation may use (from its `var` section).
    pub vars: Vec<Var>,
    /// The condition, if any (sort `Bool`).
    pub condition: Option<DataExpr>,
    /// Left-hand side.
    pub lhs: DataExpr,
    /// Right-hand side (same sort as `lhs`).
    pub rhs: DataExpr,
    /// Where it was written.
    pub span: Span,
}

/// The data part of a specification: user sorts, constructors, mappings and equations.
/// Built-in sorts and functions are implicit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataSpec {
    /// User sorts (basic and struct), in declaration order.
    pub sorts: Vec<SortDecl>,
    /// Aliases of non-struct sorts as written (`sort A = List(Nat)`), kept for printing only:
    /// every use of `A` is already expanded.
    pub aliases: Vec<(Name, Sort)>,
    /// `cons` declarations (struct constructors are in [`DataSpec::sorts`], not here).
    pub constructors: Vec<FuncDecl>,
    /// `map` declarations (struct projections and recognisers are implicit in the struct).
    pub mappings: Vec<FuncDecl>,
    /// `eqn` declarations.
    pub equations: Vec<Equation>,
}

impl DataSpec {
    /// The declaration of user sort `name`, if any.
    pub fn sort_decl(&self, name: &str) -> Option<&SortDecl> {
        self.sorts.iter().find(|d| &*d.name == name)
    }

    /// All constructors of `sort`: struct constructors, then `cons` declarations whose
    /// codomain is `sort`. Empty for sorts without constructors.
    pub fn constructors_of(&self, sort: &Sort) -> Vec<Func> {
        let mut out = Vec::new();
        if let Sort::Named(n) = sort {
            if let Some(SortDecl {
                def: SortDef::Struct(conss),
                ..
            }) = self.sort_decl(n)
            {
                for c in conss {
                    let s = if c.fields.is_empty() {
                        sort.clone()
                    } else {
                        Sort::Arrow(
                            c.fields.iter().map(|f| f.sort.clone()).collect(),
                            Box::new(sort.clone()),
                        )
                    };
                    out.push(Func {
                        name: c.name.clone(),
                        sort: s,
                    });
                }
            }
        }
        out.extend(
            self.constructors
                .iter()
                .filter(|d| d.func.sort.codomain() == sort)
                .map(|d| d.func.clone()),
        );
        out
    }
}
