//! The rewriter: mCRL2's JITty strategy with lazy `if`/`&&`/`||`/`=>`, built-in functions
//! evaluated natively on machine-word numbers, and user equations compiled per head symbol.
//!
//! Strategy. `eval(t)` normalises `t` under the current substitution (the environment):
//! arguments first (innermost), except the arguments of a user function that its JITty
//! strategy rewrites only when needed (`lazy.rs`), then the head is applied to the arguments:
//! a built-in evaluator, the projection/recogniser of a struct, or the user equations of the
//! head symbol (indexed by function symbol, compiled to matching programs and code trees, see
//! `compiled.rs`), tried in mCRL2's JITty order (`strategy.rs`). The right-hand
//! side of a matching equation is evaluated directly under the match substitution, so no
//! intermediate (non-normal) term is ever interned. `if`, `&&`, `||` and `=>` evaluate their
//! condition / left operand first and only the branch that is needed, which makes recursive
//! definitions like `f(n) = if(n == 0, 0, f(Int2Nat(n - 1)))` terminate, as with mCRL2's JITty.
//! This is correct for confluent, terminating specifications; for others it finds *a* normal
//! form or stops with [`RewriteErrorKind::TooDeep`].

use std::cmp::Ordering;
use std::sync::Arc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use rustc_hash::FxHashMap;

use super::convert::{expr_to_term, names, ConvertError, Internal};
use super::enumerate::{EnumError, Enumerator};
use super::ir::{Binder, DataExpr, DataSpec, Func, Name, Sort, SortDef, Var};
use super::numbers::IntVal;

mod sets;
use super::store::{FuncId, NumSort, Term, TermId, TermStore, VarId};

mod compile;
mod compiled;
mod eval;
use compiled::{Compiled, LazyArgs, NO_RULES};
mod lazy;
mod lists;
mod native;
mod open;
mod order;
mod strategy;
mod switch;
mod words;
use lists::elem;
use native::*;

/// An error of rewriting: what went wrong ([`RewriteErrorKind`]) behind one pointer.
///
/// Why boxed: every step of the rewriter returns a `Result<TermId, RewriteError>`; with the
/// error one (non-null) pointer that result fits in two registers, where the unboxed kind
/// (three strings of an enumeration error) made every step return it through memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewriteError(Box<RewriteErrorKind>);

impl RewriteError {
    /// What went wrong.
    pub fn kind(&self) -> &RewriteErrorKind {
        &self.0
    }

    /// What went wrong, unboxed.
    pub fn into_kind(self) -> RewriteErrorKind {
        *self.0
    }
}

impl std::fmt::Display for RewriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for RewriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&*self.0)
    }
}

impl From<RewriteErrorKind> for RewriteError {
    #[cold]
    fn from(k: RewriteErrorKind) -> Self {
        RewriteError(Box::new(k))
    }
}

impl From<EnumError> for RewriteError {
    #[cold]
    fn from(e: EnumError) -> Self {
        RewriteErrorKind::Enumeration(e).into()
    }
}

impl From<ConvertError> for RewriteError {
    #[cold]
    fn from(e: ConvertError) -> Self {
        RewriteErrorKind::Convert(e).into()
    }
}

/// The kinds of errors of rewriting.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RewriteErrorKind {
    /// The recursion depth limit was reached (non-terminating equations, or a term too deep).
    #[error("rewriting exceeded the recursion limit ({limit} bytes of stack) while rewriting {term}; the equations may not terminate")]
    TooDeep {
        /// The stack limit in bytes.
        limit: usize,
        /// The term being rewritten when the limit was hit (abbreviated).
        term: String,
    },
    /// A number too large to compute (e.g. `exp` with an exponent beyond 2^32).
    #[error("the number computed by {term} is too large")]
    NumberTooLarge {
        /// The expression.
        term: String,
    },
    /// A quantifier that cannot be decided by enumeration.
    #[error(transparent)]
    Enumeration(EnumError),
    /// An equation could not be converted (bad literal).
    #[error("in an equation: {0}")]
    Convert(ConvertError),
}

/// What a function symbol is to the rewriter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A constructor (value former).
    Ctor(Ctor),
    /// A built-in operation.
    Op(Op),
    /// A struct projection; the struct's index.
    Proj(u32),
    /// A struct recogniser; the struct's index.
    Recog(u32),
    /// A user mapping: only equations give it meaning.
    Map,
}

/// Kinds of constructors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ctor {
    Bool,
    /// Constructor `index` of struct `sort`.
    Struct {
        sort: u32,
        index: u32,
    },
    /// A `cons` constructor of a basic sort (no generated equality).
    User,
    Nil,
    ListCons,
    FSet,
    FBag,
    Set,
    Bag,
}

/// Built-in operations (overloads are told apart by the argument/result sorts at evaluation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Op {
    Not,
    And,
    Or,
    Imp,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    If,
    Add,
    Sub,
    Neg,
    Mul,
    Divide,
    Div,
    Mod,
    Exp,
    Min,
    Max,
    Abs,
    Succ,
    Pred,
    Sqrt,
    Conv,
    Floor,
    Ceil,
    Round,
    Snoc,
    Concat,
    At,
    Len,
    Head,
    Tail,
    RHead,
    RTail,
    /// `pick` on a finite set or bag: its least element (mCRL2's first of the normal form).
    Pick,
    In,
    Count,
    Set2Bag,
    Bag2Set,
    SetFSet,
    BagFBag,
    FSetMake,
    FBagMake,
    FalseFn,
    ZeroFn,
    /// mCRL2's symbolic characteristic / count functions (see [`sets`]).
    TrueFn,
    OneFn,
    NotFn,
    AndFn,
    OrFn,
    AddFn,
    MinFn,
    MonusFn,
    Nat2BoolFn,
    Bool2NatFn,
    FuncUpdate,
    EmptySet,
    EmptyBag,
}

fn classify_builtin(f: &Func) -> Kind {
    use Op::*;
    let n = f.sort.domain().len();
    let cod = f.sort.codomain();
    let op = match (&*f.name, n) {
        ("true" | "false", 0) if *cod == Sort::Bool => return Kind::Ctor(Ctor::Bool),
        ("[]", 0) => return Kind::Ctor(Ctor::Nil),
        ("|>", 2) => return Kind::Ctor(Ctor::ListCons),
        (names::FSET, _) => return Kind::Ctor(Ctor::FSet),
        (names::FBAG, _) => return Kind::Ctor(Ctor::FBag),
        (names::SET, 2) => return Kind::Ctor(Ctor::Set),
        (names::BAG, 2) => return Kind::Ctor(Ctor::Bag),
        (names::EMPTY_SET | names::EMPTY_BAG, 0) => match cod {
            Sort::FSet(_) => return Kind::Ctor(Ctor::FSet),
            Sort::FBag(_) => return Kind::Ctor(Ctor::FBag),
            Sort::Set(_) => EmptySet,
            Sort::Bag(_) => EmptyBag,
            _ => return Kind::Map,
        },
        ("!", 1) => Not,
        ("&&", 2) => And,
        ("||", 2) => Or,
        ("=>", 2) => Imp,
        ("==", 2) => Eq,
        ("!=", 2) => Neq,
        ("<", 2) => Lt,
        ("<=", 2) => Le,
        (">", 2) => Gt,
        (">=", 2) => Ge,
        ("if", 3) => If,
        ("+", 2) => Add,
        ("-", 2) => Sub,
        ("-", 1) => Neg,
        ("*", 2) => Mul,
        ("/", 2) => Divide,
        ("div", 2) => Div,
        ("mod", 2) => Mod,
        ("exp", 2) => Exp,
        ("min", 2) => Min,
        ("max", 2) => Max,
        ("abs", 1) => Abs,
        ("succ", 1) => Succ,
        ("pred", 1) => Pred,
        ("sqrt", 1) => Sqrt,
        (
            "Pos2Nat" | "Pos2Int" | "Nat2Int" | "Pos2Real" | "Nat2Real" | "Int2Real" | "Int2Nat"
            | "Int2Pos" | "Nat2Pos" | "Real2Int" | "Real2Nat" | "Real2Pos",
            1,
        ) => Conv,
        ("floor", 1) => Floor,
        ("ceil", 1) => Ceil,
        ("round", 1) => Round,
        ("<|", 2) => Snoc,
        ("++", 2) => Concat,
        (".", 2) => At,
        ("#", 1) => Len,
        ("head", 1) => Head,
        ("tail", 1) => Tail,
        ("rhead", 1) => RHead,
        ("rtail", 1) => RTail,
        ("pick", 1) if matches!(f.sort.domain()[0], Sort::FSet(_) | Sort::FBag(_)) => Pick,
        ("in", 2) => In,
        ("count", 2) => Count,
        ("Set2Bag", 1) => Set2Bag,
        ("Bag2Set", 1) => Bag2Set,
        ("@setfset", 1) => SetFSet,
        ("@bagfbag", 1) => BagFBag,
        (names::FSET_MAKE, _) => FSetMake,
        (names::FBAG_MAKE, _) => FBagMake,
        (names::FALSE_FN, _) => FalseFn,
        (names::ZERO_FN, _) => ZeroFn,
        (names::TRUE_FN, _) => TrueFn,
        (names::ONE_FN, _) => OneFn,
        (names::NOT_FN, 1) => NotFn,
        (names::AND_FN, 2) => AndFn,
        (names::OR_FN, 2) => OrFn,
        (names::ADD_FN, 2) => AddFn,
        (names::MIN_FN, 2) => MinFn,
        (names::MONUS_FN, 2) => MonusFn,
        (names::NAT2BOOL_FN, 1) => Nat2BoolFn,
        (names::BOOL2NAT_FN, 1) => Bool2NatFn,
        (names::FUNC_UPDATE, 3) => FuncUpdate,
        _ => return Kind::Map,
    };
    Kind::Op(op)
}

/// A compiled left-hand-side pattern.
#[derive(Debug, Clone)]
enum Pat {
    /// A variable: binds, or (non-linear) must equal its earlier binding.
    Var(VarId),
    /// A closed subterm in normal form: matches by id.
    Term(TermId),
    /// `head(args…)`.
    App(TermId, Vec<Pat>),
    /// `head(args…)` whose head is itself an open application (`f(i)(j)`, curried).
    AppOf(Box<Pat>, Vec<Pat>),
}

#[derive(Debug, Clone)]
struct Rule {
    /// Argument patterns for `f(p1, …, pn)`; for a curried left-hand side `f(..)(..)`, a
    /// single pattern for the whole term and `curried` set.
    pats: Vec<Pat>,
    curried: bool,
    cond: Option<TermId>,
    rhs: TermId,
}

#[derive(Debug, Clone)]
struct CtorInfo {
    recogniser: Option<Name>,
    projections: Vec<Option<Name>>,
}

#[derive(Debug, Clone)]
struct StructInfo {
    ctors: Vec<CtorInfo>,
}

/// The compiled rewrite system, shared read-only by all rewriting contexts.
#[derive(Debug)]
struct System {
    spec: DataSpec,
    kinds: FxHashMap<FuncId, Kind>,
    structs: Vec<StructInfo>,
    /// Equations per head symbol, indexed by [`FuncId`], in mCRL2's JITty order.
    rules: Vec<Vec<Rule>>,
}

/// Per head symbol ([`FuncId`]) with arguments rewritten only when needed: its strategy.
type Strategies = [Option<Box<strategy::LazyStrategy>>];

/// A substitution from variables to terms.
pub type Substitution = FxHashMap<VarId, TermId>;

/// Default stack budget of one rewrite call in bytes: safe on a 2 MiB thread stack (the
/// default of spawned threads). Deep computations should run on a thread with a bigger stack
/// and raise the limit with [`Rewriter::set_stack_limit`].
pub const DEFAULT_STACK_LIMIT: usize = 1 << 20;

/// A rewriting context: the compiled equations of one [`DataSpec`] (shared, immutable) plus
/// per-context scratch state. Clone it to get an independent context for another thread;
/// all contexts share the same [`TermStore`], which the caller owns and which outlives them
/// (`'s`): its terms, and the compiled equations it keeps ([`TermStore::keep`]), are read
/// through plain references, with no reference counting in the rewriting loop.
pub struct Rewriter<'s> {
    store: &'s TermStore,
    sys: Arc<System>,
    /// The compiled equations (see [`compiled`]), kept by the store whose terms they use.
    code: &'s Compiled,
    /// The strategies of head symbols with arguments rewritten only when needed (kept
    /// by the store, like the compiled equations).
    strats: &'s Strategies,
    /// Use [`Rewriter::code`] (else the interpreter, the reference).
    use_compiled: bool,
    /// Registers of the compiled equations being applied (a stack of frames).
    slots: Vec<TermId>,
    kinds: Vec<Option<Kind>>,
    /// Per variable: (frame, value, raw); a binding counts only in the current frame. A raw
    /// value is a term not rewritten yet (an argument the strategy left alone, see [`lazy`]).
    env: Vec<(u32, TermId, bool)>,
    saved: Vec<(VarId, (u32, TermId, bool))>,
    /// Closed terms known to be normal forms (bit per [`TermId`]): they are not walked again.
    nf_bits: Vec<u64>,
    /// Index in `saved` where the current frame's bindings start.
    frame_start: usize,
    /// Match substitutions under construction (a stack shared by nested matches).
    subs: Vec<(VarId, TermId)>,
    frame: u32,
    next_frame: u32,
    /// Address of a local of the outermost rewrite call: the stack in use is measured from it.
    stack_base: usize,
    max_stack: usize,
    /// Budget for the enumerator (candidate values per enumeration).
    pub(crate) enum_budget: usize,
    /// Decide `<`, `<=` on open terms by mCRL2 202607.0's equations alone (a term against
    /// its sort's least value), not by lower bounds of sums and conversions: set where the
    /// syntax of the result matters, as in the lineariser (see
    /// [`Rewriter::decide_ord_by_bound`]). Exploration and the PBES stages keep the bounds,
    /// which decide quantifiers such as `exists x, y: Pos . x + y > 0` mCRL2 decides by
    /// enumerating a witness.
    pub(crate) mcrl2_order: bool,
    fresh: u32,
    /// The values of finite sorts listed so far (see [`crate::data::finite`]).
    pub(crate) value_cache: FxHashMap<Sort, Arc<[TermId]>>,
}

impl Clone for Rewriter<'_> {
    fn clone(&self) -> Self {
        Rewriter {
            store: self.store,
            sys: self.sys.clone(),
            code: self.code,
            strats: self.strats,
            use_compiled: self.use_compiled,
            slots: Vec::new(),
            kinds: self.kinds.clone(),
            env: Vec::new(),
            saved: Vec::new(),
            subs: Vec::new(),
            frame_start: 0,
            nf_bits: Vec::new(),
            frame: 0,
            next_frame: 1,
            stack_base: 0,
            max_stack: self.max_stack,
            enum_budget: self.enum_budget,
            mcrl2_order: self.mcrl2_order,
            fresh: self.fresh,
            value_cache: self.value_cache.clone(),
        }
    }
}

impl std::fmt::Debug for Rewriter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rewriter({} equations)", self.sys.spec.equations.len())
    }
}

impl<'s> Rewriter<'s> {
    /// A rewriter for `spec` over `store`, which owns every term the rewriter makes and
    /// frees them when it is dropped. Create one per tool run and clone it per thread.
    pub fn new(spec: &DataSpec, store: &'s TermStore) -> Result<Rewriter<'s>, RewriteError> {
        let mut kinds = FxHashMap::default();
        let mut structs = Vec::new();
        for decl in &spec.sorts {
            if let SortDef::Struct(conss) = &decl.def {
                let sidx = structs.len() as u32;
                let sort = Sort::Named(decl.name.clone());
                let mut info = StructInfo { ctors: Vec::new() };
                for (i, c) in conss.iter().enumerate() {
                    let csort = if c.fields.is_empty() {
                        sort.clone()
                    } else {
                        Sort::Arrow(
                            c.fields.iter().map(|f| f.sort.clone()).collect(),
                            Box::new(sort.clone()),
                        )
                    };
                    let fid = store.intern_func(&Func {
                        name: c.name.clone(),
                        sort: csort,
                    });
                    kinds.insert(
                        fid,
                        Kind::Ctor(Ctor::Struct {
                            sort: sidx,
                            index: i as u32,
                        }),
                    );
                    if let Some(r) = &c.recogniser {
                        let rid = store.intern_func(&Func {
                            name: r.clone(),
                            sort: Sort::Arrow(vec![sort.clone()], Box::new(Sort::Bool)),
                        });
                        kinds.insert(rid, Kind::Recog(sidx));
                    }
                    for f in &c.fields {
                        if let Some(p) = &f.projection {
                            let pid = store.intern_func(&Func {
                                name: p.clone(),
                                sort: Sort::Arrow(vec![sort.clone()], Box::new(f.sort.clone())),
                            });
                            kinds.insert(pid, Kind::Proj(sidx));
                        }
                    }
                    info.ctors.push(CtorInfo {
                        recogniser: c.recogniser.clone(),
                        projections: c.fields.iter().map(|f| f.projection.clone()).collect(),
                    });
                }
                structs.push(info);
            }
        }
        for c in &spec.constructors {
            let fid = store.intern_func(&c.func);
            kinds.entry(fid).or_insert(Kind::Ctor(Ctor::User));
        }
        let sys = System {
            spec: spec.clone(),
            kinds,
            structs,
            rules: Vec::new(),
        };
        let mut rw = Rewriter {
            store,
            sys: Arc::new(sys),
            code: &NO_RULES,
            strats: &[],
            use_compiled: true,
            slots: Vec::new(),
            kinds: Vec::new(),
            env: Vec::new(),
            saved: Vec::new(),
            subs: Vec::new(),
            frame_start: 0,
            nf_bits: Vec::new(),
            frame: 0,
            next_frame: 1,
            stack_base: 0,
            max_stack: DEFAULT_STACK_LIMIT,
            enum_budget: 100_000,
            mcrl2_order: false,
            fresh: 0,
            value_cache: FxHashMap::default(),
        };
        // Compile the equations; closed sub-patterns built from built-ins (`-1`, `{1, 2}`)
        // are normalised with the built-ins alone, so they match normal forms by id.
        let mut rules: FxHashMap<FuncId, Vec<Rule>> = FxHashMap::default();
        for eq in &spec.equations {
            let lhs = expr_to_term(rw.store, &eq.lhs)?;
            let rhs = expr_to_term(rw.store, &eq.rhs)?;
            let cond = match &eq.condition {
                Some(c) => Some(expr_to_term(rw.store, c)?),
                None => None,
            };
            let Some((root, rule)) = rw.compile_rule(lhs, cond, rhs)? else {
                continue;
            };
            rules.entry(root).or_default().push(rule);
        }
        let mut by_id: Vec<Vec<Rule>> = Vec::new();
        let mut lazy: Vec<Option<Box<strategy::LazyStrategy>>> = Vec::new();
        for (f, rs) in rules {
            let i = f.0 as usize;
            if i >= by_id.len() {
                by_id.resize_with(i + 1, Vec::new);
            }
            // mCRL2's JITty strategy, not declaration order (see `strategy.rs`).
            let steps = strategy::jitty_steps(rw.store, &rs);
            let order: Vec<usize> = steps
                .iter()
                .filter_map(|s| match s {
                    strategy::Step::Try(k) => Some(*k),
                    strategy::Step::Rewrite(_) => None,
                })
                .collect();
            if rw.kind(f) == Kind::Map {
                if let Some(l) = strategy::LazyStrategy::new(&rs, &steps, &order) {
                    if i >= lazy.len() {
                        lazy.resize_with(i + 1, || None);
                    }
                    lazy[i] = Some(Box::new(l));
                }
            }
            let mut slots: Vec<Option<Rule>> = rs.into_iter().map(Some).collect();
            by_id[i] = order
                .into_iter()
                .map(|k| slots[k].take().expect("a permutation"))
                .collect();
        }
        // Kept by the store like the compiled equations (read by every call, shared by all
        // threads) and freed with it.
        if !lazy.is_empty() {
            rw.strats = store.keep(lazy.into_boxed_slice());
        }
        Arc::get_mut(&mut rw.sys).expect("fresh system").rules = by_id;
        // The compiled equations live as long as the store their terms belong to, which
        // frees them with those terms.
        let compiled = rw.compile_rules();
        if !compiled.rules.is_empty() {
            rw.code = store.keep(compiled);
        }
        // Normal forms found while compiling patterns were computed without the equations.
        rw.nf_bits.clear();
        Ok(rw)
    }

    /// The shared term store.
    pub fn store(&self) -> &'s TermStore {
        self.store
    }

    /// The data specification this rewriter was built for.
    pub fn spec(&self) -> &DataSpec {
        &self.sys.spec
    }

    /// Whether some equation has function symbol `f` as its head: rewriting an application
    /// of any other symbol to normal forms needs no equation (built-ins, constructors,
    /// projections, recognisers and mappings without equations).
    pub fn has_equations(&self, f: FuncId) -> bool {
        self.sys
            .rules
            .get(f.0 as usize)
            .is_some_and(|rs| !rs.is_empty())
    }

    /// Whether `f` is a constructor whose applications are normal forms as they stand (a
    /// struct or `cons` constructor, list cons, `[]`, `true`, `false`; none with equations
    /// of its own): a value `f(v1, ..)` then holds each `vi` as a subterm.
    pub fn is_free_constructor(&self, f: FuncId) -> bool {
        let kind = match self.kinds.get(f.0 as usize) {
            Some(Some(k)) => *k,
            _ => match self.sys.kinds.get(&f) {
                Some(k) => *k,
                None => classify_builtin(self.store.func_of(f)),
            },
        };
        matches!(
            kind,
            Kind::Ctor(Ctor::Struct { .. } | Ctor::User | Ctor::ListCons | Ctor::Nil | Ctor::Bool)
        ) && !self.has_equations(f)
    }

    /// Sets the stack budget of one rewrite call in bytes (the thread's stack must be bigger).
    pub fn set_stack_limit(&mut self, bytes: usize) {
        self.max_stack = bytes;
    }

    /// Sets the enumerator's budget: candidate values tried per enumeration.
    pub fn set_enum_budget(&mut self, budget: usize) {
        self.enum_budget = budget;
    }

    /// Converts an IR expression into a term of this rewriter's store.
    pub fn term(&self, e: &DataExpr) -> Result<TermId, ConvertError> {
        expr_to_term(self.store, e)
    }

    /// Converts a term back into the IR (nicest form; see [`super::convert::term_to_expr`]).
    pub fn expr(&self, t: TermId) -> DataExpr {
        super::convert::term_to_expr(self.store, t)
    }

    /// The normal form of `t`.
    pub fn rewrite(&mut self, t: TermId) -> Result<TermId, RewriteError> {
        self.rewrite_with(t, &[])
    }

    /// The normal form of `t` with the variables of `sigma` replaced by their terms (which
    /// should be normal forms; they are not rewritten again).
    pub fn rewrite_with(
        &mut self,
        t: TermId,
        sigma: &[(VarId, TermId)],
    ) -> Result<TermId, RewriteError> {
        let outermost = self.stack_base == 0;
        if outermost {
            let probe = 0u8;
            self.stack_base = std::hint::black_box(&probe) as *const u8 as usize;
        }
        let mark = self.enter();
        for (v, x) in sigma {
            self.bind(*v, *x);
        }
        let r = self.eval(t);
        self.leave(mark);
        if outermost {
            self.stack_base = 0;
        }
        r
    }

    /// The normal form of `t` under a substitution map.
    pub fn rewrite_subst(
        &mut self,
        t: TermId,
        sigma: &Substitution,
    ) -> Result<TermId, RewriteError> {
        let v: Vec<_> = sigma.iter().map(|(a, b)| (*a, *b)).collect();
        self.rewrite_with(t, &v)
    }

    /// Applies a substitution to `t` without rewriting (capture-avoiding for closed values).
    pub fn substitute(&self, t: TermId, sigma: &Substitution) -> TermId {
        substitute(self.store, t, sigma)
    }

    /// An enumerator over this rewriter.
    pub fn enumerator(&mut self) -> Enumerator<'_, 's> {
        Enumerator::new(self)
    }
}

/// Applies a substitution without rewriting; bound variables shadow the substitution.
pub fn substitute(store: &TermStore, t: TermId, sigma: &Substitution) -> TermId {
    if store.is_closed(t) || sigma.is_empty() {
        return t;
    }
    match store.get(t) {
        Term::Var(v) => sigma.get(v).copied().unwrap_or(t),
        Term::App(h, args) => {
            let h2 = substitute(store, *h, sigma);
            let a2: Vec<_> = args.iter().map(|a| substitute(store, *a, sigma)).collect();
            store.app(h2, &a2)
        }
        Term::Binder(k, vs, body) => {
            let inner: Substitution = sigma
                .iter()
                .filter(|(v, _)| !vs.contains(v))
                .map(|(a, b)| (*a, *b))
                .collect();
            let b2 = substitute(store, *body, &inner);
            store.binder(*k, vs, b2)
        }
        _ => t,
    }
}

fn show_term(store: &TermStore, t: TermId, out: &mut String, depth: usize) {
    use std::fmt::Write;
    if depth == 0 {
        out.push('…');
        return;
    }
    match store.get(t) {
        Term::Var(v) => out.push_str(&store.var_of(*v).name),
        Term::Func(f) => out.push_str(&store.func_of(*f).name),
        Term::Num(_, v) => {
            let _ = write!(out, "{v}");
        }
        Term::BigNum(_, v) => {
            let _ = write!(out, "{v}");
        }
        Term::Real(r) => {
            let _ = write!(out, "{} / {}", r.numer(), r.denom());
        }
        Term::App(h, args) => {
            show_term(store, *h, out, depth - 1);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if i >= 4 {
                    out.push('…');
                    break;
                }
                show_term(store, *a, out, depth - 1);
            }
            out.push(')');
        }
        Term::Binder(k, vs, body) => {
            let kw = match k {
                Binder::Lambda => "lambda",
                Binder::Forall => "forall",
                Binder::Exists => "exists",
                Binder::SetComprehension | Binder::BagComprehension => "{",
            };
            out.push_str(kw);
            out.push(' ');
            for (i, v) in vs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let var = store.var_of(*v);
                let _ = write!(out, "{}: {:?}", var.name, var.sort);
            }
            out.push_str(". ");
            show_term(store, *body, out, depth - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The result of a rewriting step fits in two registers (see [`RewriteError`]).
    #[test]
    fn a_step_result_is_two_words() {
        assert!(std::mem::size_of::<Result<TermId, RewriteError>>() <= 16);
        assert!(std::mem::size_of::<Result<Option<TermId>, RewriteError>>() <= 16);
    }

    /// Every built-in of the type checker's catalog has a meaning in the engine.
    #[test]
    fn every_catalog_builtin_is_known() {
        let params = [Sort::Nat, Sort::Bool];
        for sig in crate::data::builtins::all() {
            let f = sig.instantiate(&params[..sig.sort_params()]);
            assert_ne!(
                classify_builtin(&f),
                Kind::Map,
                "{sig} has no meaning in the rewriter"
            );
        }
    }
}
