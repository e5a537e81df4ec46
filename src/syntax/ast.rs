//! The untyped abstract syntax of mCRL2 specifications, state formulas and textual PBESs,
//! exactly as written (no name resolution, no sorts inferred). Every node carries the
//! [`Span`] of its source text; the type checker turns this into the typed IR.
//!
//! Conventions:
//! - A node's span covers its whole construct, including parentheses around its operands;
//!   a parenthesised expression itself is represented by its contents (parentheses are not
//!   kept as nodes), with the span of the contents.
//! - Declarations listing several names (`map f, g: Nat;`, `act a, b;`, `sort A, B;`) are
//!   split into one declaration per name; each declaration's span is the name's span.
//! - The parser already rejects what the grammar rejects (timed and probabilistic
//!   constructs, `<>` without `->`, `#` outside function domains …); everything else —
//!   overloading, whether `P(e)` is an action or a process call, whether `X` in a formula
//!   is a fixpoint variable or a Boolean data variable — is for the type checker.

use crate::source::Name;
use crate::source::Span;

/// An identifier occurrence.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    /// The identifier's text.
    pub name: Name,
    /// Where it was written.
    pub span: Span,
}

// ---------------------------------------------------------------------------------------
// Sorts
// ---------------------------------------------------------------------------------------

/// A sort expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SortExpr {
    /// What it is.
    pub kind: SortExprKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of sort expressions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SortExprKind {
    /// `Bool`.
    Bool,
    /// `Pos`.
    Pos,
    /// `Nat`.
    Nat,
    /// `Int`.
    Int,
    /// `Real`.
    Real,
    /// A sort name (user sort or alias).
    Id(Name),
    /// `List(S)`.
    List(Box<SortExpr>),
    /// `Set(S)`.
    Set(Box<SortExpr>),
    /// `FSet(S)`.
    FSet(Box<SortExpr>),
    /// `Bag(S)`.
    Bag(Box<SortExpr>),
    /// `FBag(S)`.
    FBag(Box<SortExpr>),
    /// `S1 # … # Sn -> S` (right associative: `A -> B -> C` is `A -> (B -> C)`).
    Arrow(Vec<SortExpr>, Box<SortExpr>),
    /// `struct c1(…)?is_c1 | c2 | …`.
    Struct(Vec<ConstrDecl>),
}

impl SortExpr {
    /// Whether `other` is the same sort expression, wherever each was written.
    pub fn same_as(&self, other: &SortExpr) -> bool {
        use SortExprKind as K;
        match (&self.kind, &other.kind) {
            (K::Bool, K::Bool)
            | (K::Pos, K::Pos)
            | (K::Nat, K::Nat)
            | (K::Int, K::Int)
            | (K::Real, K::Real) => true,
            (K::Id(a), K::Id(b)) => a == b,
            (K::List(a), K::List(b))
            | (K::Set(a), K::Set(b))
            | (K::FSet(a), K::FSet(b))
            | (K::Bag(a), K::Bag(b))
            | (K::FBag(a), K::FBag(b)) => a.same_as(b),
            (K::Arrow(a, r), K::Arrow(b, q)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_as(y)) && r.same_as(q)
            }
            (K::Struct(a), K::Struct(b)) => {
                let name = |x: &Option<Ident>| x.as_ref().map(|i| i.name.clone());
                a.len() == b.len()
                    && a.iter().zip(b).all(|(x, y)| {
                        x.name.name == y.name.name
                            && name(&x.recogniser) == name(&y.recogniser)
                            && x.fields.len() == y.fields.len()
                            && x.fields.iter().zip(&y.fields).all(|(f, g)| {
                                name(&f.projection) == name(&g.projection)
                                    && f.sort.same_as(&g.sort)
                            })
                    })
            }
            _ => false,
        }
    }
}

/// A constructor of a structured sort: `c(p1: S1, S2) ? is_c`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConstrDecl {
    /// The constructor's name.
    pub name: Ident,
    /// Its fields, in order (empty for a constant).
    pub fields: Vec<ProjDecl>,
    /// The recogniser, if declared.
    pub recogniser: Option<Ident>,
    /// The whole constructor declaration.
    pub span: Span,
}

/// A field of a structured-sort constructor, with its optional projection name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProjDecl {
    /// The projection function's name, if declared.
    pub projection: Option<Ident>,
    /// The field's sort.
    pub sort: SortExpr,
    /// The whole field declaration.
    pub span: Span,
}

// ---------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------

/// `sort S;` (basic, `def == None`) or `sort S = expr;` (alias or struct).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SortDecl {
    /// The declared name.
    pub name: Ident,
    /// The definition, if any.
    pub def: Option<SortExpr>,
    /// The declaration (the name for basic sorts, `S = …` for aliases).
    pub span: Span,
}

/// A constructor or mapping declaration `f: S` (one per name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FuncDecl {
    /// The declared name.
    pub name: Ident,
    /// Its sort.
    pub sort: SortExpr,
    /// The declared name's span.
    pub span: Span,
}

/// A typed variable `x: S` (in `var`, `glob`, binders, parameters; one per name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VarDecl {
    /// The variable's name.
    pub name: Ident,
    /// Its sort.
    pub sort: SortExpr,
    /// The variable name's span.
    pub span: Span,
}

/// An equation `condition -> lhs = rhs;`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EqnDecl {
    /// The condition, if any.
    pub condition: Option<DataExpr>,
    /// Left-hand side.
    pub lhs: DataExpr,
    /// Right-hand side.
    pub rhs: DataExpr,
    /// The whole equation (without the `;`).
    pub span: Span,
}

/// An `eqn` section with the `var` section directly before it (whose variables it may use).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EqnSection {
    /// The variables of the preceding `var` section (empty without one).
    pub vars: Vec<VarDecl>,
    /// The equations.
    pub eqns: Vec<EqnDecl>,
    /// The whole section, from `var` or `eqn`.
    pub span: Span,
}

/// An action declaration `a: S1 # … # Sn` (one per name; `sorts` empty for `act a;`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ActDecl {
    /// The action's name.
    pub name: Ident,
    /// Its parameter sorts.
    pub sorts: Vec<SortExpr>,
    /// The name's span.
    pub span: Span,
}

/// A process equation `P(x: S, …) = body;`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProcDecl {
    /// The process's name.
    pub name: Ident,
    /// Its parameters (empty for `P = …` and `P() = …`).
    pub params: Vec<VarDecl>,
    /// Its body.
    pub body: ProcExpr,
    /// The whole equation (without the `;`).
    pub span: Span,
}

/// `init p;`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InitDecl {
    /// The initial process.
    pub body: ProcExpr,
    /// The whole declaration (without the `;`).
    pub span: Span,
}

/// One declaration of a specification, in source order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decl {
    /// From a `sort` section.
    Sort(SortDecl),
    /// From a `cons` section.
    Cons(FuncDecl),
    /// From a `map` section.
    Map(FuncDecl),
    /// A `var` + `eqn` section.
    Eqns(EqnSection),
    /// From a `glob` section.
    Glob(VarDecl),
    /// From an `act` section.
    Act(ActDecl),
    /// From a `proc` section.
    Proc(ProcDecl),
    /// The `init` declaration.
    Init(InitDecl),
}

/// A whole mCRL2 specification. The parser guarantees exactly one [`Decl::Init`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    /// The declarations in source order.
    pub decls: Vec<Decl>,
    /// The whole file.
    pub span: Span,
}

impl Spec {
    /// The `init` declaration.
    pub fn init(&self) -> Option<&InitDecl> {
        self.decls.iter().find_map(|d| match d {
            Decl::Init(i) => Some(i),
            _ => None,
        })
    }
}

// ---------------------------------------------------------------------------------------
// Data expressions
// ---------------------------------------------------------------------------------------

/// A data expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DataExpr {
    /// What it is.
    pub kind: DataExprKind,
    /// Where it was written.
    pub span: Span,
}

/// Prefix operators of data expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `!`: negation, set/bag complement.
    Not,
    /// `-`: unary minus.
    Neg,
    /// `#`: size of a list.
    Size,
}

impl UnaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Not => "!",
            UnaryOp::Neg => "-",
            UnaryOp::Size => "#",
        }
    }
}

/// Infix operators of data expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `=>`.
    Imp,
    /// `||`.
    Or,
    /// `&&`.
    And,
    /// `==`.
    Eq,
    /// `!=`.
    Neq,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>=`.
    Ge,
    /// `>`.
    Gt,
    /// `in`.
    In,
    /// `|>`: list cons.
    Cons,
    /// `<|`: list snoc.
    Snoc,
    /// `++`: list concatenation.
    Concat,
    /// `+`: addition, set/bag union.
    Add,
    /// `-`: subtraction, set/bag difference.
    Sub,
    /// `/`: division (result `Real`).
    Div,
    /// `div`: integer division.
    IntDiv,
    /// `mod`.
    Mod,
    /// `*`: multiplication, set/bag intersection.
    Mul,
    /// `.`: list element at position.
    At,
}

impl BinaryOp {
    /// The operator as written (and mCRL2's name of the function it denotes).
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Imp => "=>",
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Eq => "==",
            BinaryOp::Neq => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::Gt => ">",
            BinaryOp::In => "in",
            BinaryOp::Cons => "|>",
            BinaryOp::Snoc => "<|",
            BinaryOp::Concat => "++",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Div => "/",
            BinaryOp::IntDiv => "div",
            BinaryOp::Mod => "mod",
            BinaryOp::Mul => "*",
            BinaryOp::At => ".",
        }
    }
}

/// The variable binders of data expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinderKind {
    /// `lambda`.
    Lambda,
    /// `forall`.
    Forall,
    /// `exists`.
    Exists,
}

/// A local definition `x = e` (in `whr`) or a named argument `x = e` (in `P(x = e)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Assignment {
    /// The name assigned.
    pub name: Ident,
    /// The value.
    pub value: DataExpr,
    /// The whole assignment.
    pub span: Span,
}

/// The kinds of data expressions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DataExprKind {
    /// A name: variable, constant, function, constructor, built-in function name.
    Id(Name),
    /// A natural-number literal, as its decimal digits.
    Number(Name),
    /// `true`.
    True,
    /// `false`.
    False,
    /// `head(a1, …, an)`, n ≥ 1.
    App {
        /// The function.
        head: Box<DataExpr>,
        /// The arguments.
        args: Vec<DataExpr>,
    },
    /// `op arg`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// The operand.
        arg: Box<DataExpr>,
    },
    /// `lhs op rhs`.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Left operand.
        lhs: Box<DataExpr>,
        /// Right operand.
        rhs: Box<DataExpr>,
    },
    /// `[e1, …, en]` (possibly empty).
    ListEnum(Vec<DataExpr>),
    /// `{e1, …, en}`; `{}` is the empty set.
    SetEnum(Vec<DataExpr>),
    /// `{e1: n1, …}`; `{:}` is the empty bag.
    BagEnum(Vec<(DataExpr, DataExpr)>),
    /// `{ x: S | body }`: a set (Boolean body) or bag (`Nat` body) comprehension.
    Comprehension {
        /// The bound variable.
        var: VarDecl,
        /// The body.
        body: Box<DataExpr>,
    },
    /// `lambda/forall/exists x1: S1, … . body`.
    Binder {
        /// Which binder.
        kind: BinderKind,
        /// The bound variables, at least one.
        vars: Vec<VarDecl>,
        /// The body.
        body: Box<DataExpr>,
    },
    /// `body whr x1 = e1, … end`.
    Whr {
        /// The body.
        body: Box<DataExpr>,
        /// The local definitions, at least one.
        defs: Vec<Assignment>,
    },
    /// Function update `func[arg -> value]`.
    Update {
        /// The function updated.
        func: Box<DataExpr>,
        /// The argument whose image changes.
        arg: Box<DataExpr>,
        /// The new image.
        value: Box<DataExpr>,
    },
}

// ---------------------------------------------------------------------------------------
// Process expressions
// ---------------------------------------------------------------------------------------

/// A process expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProcExpr {
    /// What it is.
    pub kind: ProcExprKind,
    /// Where it was written.
    pub span: Span,
}

/// A multi-action name `a|b|…` in an `allow` set (names in source order).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MultiActName {
    /// The names, at least one (repetitions allowed: `a|a`).
    pub names: Vec<Ident>,
    /// Where it was written.
    pub span: Span,
}

/// A renaming `from -> to`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RenameRule {
    /// The action renamed.
    pub from: Ident,
    /// Its new name.
    pub to: Ident,
    /// Where it was written.
    pub span: Span,
}

/// A communication `a1|…|an -> b` (n ≥ 2; `rhs == None` for `-> tau`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CommRule {
    /// The communicating names, in source order.
    pub lhs: Vec<Ident>,
    /// The resulting action, or `None` for `tau`.
    pub rhs: Option<Ident>,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of process expressions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ProcExprKind {
    /// `a`, `a(e1, …)`, `P` or `P(e1, …)`: an action or a process call with positional
    /// arguments (syntax cannot tell them apart).
    Action {
        /// The action or process name.
        name: Ident,
        /// The arguments (empty without parentheses).
        args: Vec<DataExpr>,
    },
    /// `P(x1 = e1, …)` or `P()`: a process call with named arguments.
    AssignCall {
        /// The process name.
        name: Ident,
        /// The named arguments (possibly empty).
        assignments: Vec<Assignment>,
    },
    /// `delta`.
    Delta,
    /// `tau`.
    Tau,
    /// `sum x1: S1, … . body`.
    Sum {
        /// The summation variables.
        vars: Vec<VarDecl>,
        /// The body.
        body: Box<ProcExpr>,
    },
    /// `p + q`.
    Choice(Box<ProcExpr>, Box<ProcExpr>),
    /// `p . q`.
    Seq(Box<ProcExpr>, Box<ProcExpr>),
    /// `p | q`.
    Sync(Box<ProcExpr>, Box<ProcExpr>),
    /// `p || q`.
    Par(Box<ProcExpr>, Box<ProcExpr>),
    /// `p ||_ q`.
    LeftMerge(Box<ProcExpr>, Box<ProcExpr>),
    /// `c -> p` or `c -> p <> q`.
    Cond {
        /// The condition.
        cond: DataExpr,
        /// The then-branch.
        then: Box<ProcExpr>,
        /// The else-branch.
        else_: Option<Box<ProcExpr>>,
    },
    /// `allow({…}, p)`.
    Allow {
        /// The allowed multi-action names.
        set: Vec<MultiActName>,
        /// The body.
        body: Box<ProcExpr>,
    },
    /// `block({…}, p)`.
    Block {
        /// The blocked names.
        set: Vec<Ident>,
        /// The body.
        body: Box<ProcExpr>,
    },
    /// `hide({…}, p)`.
    Hide {
        /// The hidden names.
        set: Vec<Ident>,
        /// The body.
        body: Box<ProcExpr>,
    },
    /// `rename({a -> b, …}, p)`.
    Rename {
        /// The renamings.
        rules: Vec<RenameRule>,
        /// The body.
        body: Box<ProcExpr>,
    },
    /// `comm({a|b -> c, …}, p)`.
    Comm {
        /// The communications.
        rules: Vec<CommRule>,
        /// The body.
        body: Box<ProcExpr>,
    },
}

// ---------------------------------------------------------------------------------------
// State, regular and action formulas
// ---------------------------------------------------------------------------------------

/// A fixpoint parameter `x: S = e`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FixpointParam {
    /// The parameter.
    pub var: VarDecl,
    /// Its initial value.
    pub init: DataExpr,
    /// The whole parameter declaration.
    pub span: Span,
}

/// The variable of a fixpoint: `X` or `X(x1: S1 = e1, …)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FixpointDecl {
    /// The propositional variable.
    pub name: Ident,
    /// Its parameters (possibly empty).
    pub params: Vec<FixpointParam>,
    /// Where it was written.
    pub span: Span,
}

/// A state formula.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateFormula {
    /// What it is.
    pub kind: StateFormulaKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of state formulas.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StateFormulaKind {
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
    Forall(Vec<VarDecl>, Box<StateFormula>),
    /// `exists x: S . φ`.
    Exists(Vec<VarDecl>, Box<StateFormula>),
    /// `[R]φ`.
    Must(RegFormula, Box<StateFormula>),
    /// `<R>φ`.
    May(RegFormula, Box<StateFormula>),
    /// `mu X(…) . φ`.
    Mu(FixpointDecl, Box<StateFormula>),
    /// `nu X(…) . φ`.
    Nu(FixpointDecl, Box<StateFormula>),
    /// `X` or `X(e1, …)`: a fixpoint variable occurrence (or, for the type checker to decide,
    /// a Boolean data variable/application).
    Var {
        /// The name.
        name: Ident,
        /// The arguments (empty without parentheses).
        args: Vec<DataExpr>,
    },
    /// `val(b)`.
    Val(DataExpr),
}

/// A regular formula.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RegFormula {
    /// What it is.
    pub kind: RegFormulaKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of regular formulas.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RegFormulaKind {
    /// A single step matching an action formula.
    Action(ActionFormula),
    /// `nil`.
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

/// An action occurrence `a(e1, …)` in a multi-action.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ActionOcc {
    /// The action name.
    pub name: Ident,
    /// Its arguments (empty without parentheses).
    pub args: Vec<DataExpr>,
    /// Where it was written.
    pub span: Span,
}

/// An action formula.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ActionFormula {
    /// What it is.
    pub kind: ActionFormulaKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of action formulas.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ActionFormulaKind {
    /// `true`.
    True,
    /// `false`.
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
    Forall(Vec<VarDecl>, Box<ActionFormula>),
    /// `exists x: S . α`.
    Exists(Vec<VarDecl>, Box<ActionFormula>),
    /// `a(…)|b(…)|…`; empty for `tau`.
    MultiAction(Vec<ActionOcc>),
    /// `val(b)`.
    Val(DataExpr),
}

/// A formula file: optional data and action declarations (`sort cons map var/eqn act`)
/// and the state formula (after `form` when there are declarations, or alone).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FormulaSpec {
    /// Declarations made in the formula file, in source order (only
    /// [`Decl::Sort`], [`Decl::Cons`], [`Decl::Map`], [`Decl::Eqns`], [`Decl::Act`]).
    pub decls: Vec<Decl>,
    /// The formula.
    pub formula: StateFormula,
    /// The whole file.
    pub span: Span,
}

// ---------------------------------------------------------------------------------------
// Textual PBES
// ---------------------------------------------------------------------------------------

/// `mu` or `nu`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FixpointKind {
    /// Least fixpoint.
    Mu,
    /// Greatest fixpoint.
    Nu,
}

/// A PBES variable declaration `X(d1: D1, …)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PropVarDecl {
    /// The variable's name.
    pub name: Ident,
    /// Its parameters (possibly empty).
    pub params: Vec<VarDecl>,
    /// Where it was written.
    pub span: Span,
}

/// `X(e1, …)`: a PBES variable instance (or, inside equations, possibly a Boolean data
/// application or variable; the type checker decides).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PropVarInst {
    /// The name.
    pub name: Ident,
    /// The arguments (empty without parentheses).
    pub args: Vec<DataExpr>,
    /// Where it was written.
    pub span: Span,
}

/// A PBES expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PbesExpr {
    /// What it is.
    pub kind: PbesExprKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of PBES expressions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PbesExprKind {
    /// `true`.
    True,
    /// `false`.
    False,
    /// `val(b)`.
    Val(DataExpr),
    /// `X(e1, …)` or a Boolean data name/application.
    PropVar(PropVarInst),
    /// `!φ`.
    Not(Box<PbesExpr>),
    /// `φ && ψ`.
    And(Box<PbesExpr>, Box<PbesExpr>),
    /// `φ || ψ`.
    Or(Box<PbesExpr>, Box<PbesExpr>),
    /// `φ => ψ`.
    Imp(Box<PbesExpr>, Box<PbesExpr>),
    /// `forall x: S . φ`.
    Forall(Vec<VarDecl>, Box<PbesExpr>),
    /// `exists x: S . φ`.
    Exists(Vec<VarDecl>, Box<PbesExpr>),
}

/// A PBES equation `mu X(d: D) = φ;`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PbesEquation {
    /// `mu` or `nu`.
    pub fixpoint: FixpointKind,
    /// The variable defined.
    pub var: PropVarDecl,
    /// The right-hand side.
    pub rhs: PbesExpr,
    /// The whole equation (without the `;`).
    pub span: Span,
}

/// A textual PBES: data declarations and `glob` variables, equations, initial instance.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PbesSpec {
    /// Data declarations and globals, in source order (only [`Decl::Sort`], [`Decl::Cons`],
    /// [`Decl::Map`], [`Decl::Eqns`], [`Decl::Glob`]).
    pub decls: Vec<Decl>,
    /// The equations, in order (first = outermost).
    pub equations: Vec<PbesEquation>,
    /// `init X(…);`.
    pub init: PropVarInst,
    /// The whole file.
    pub span: Span,
}
