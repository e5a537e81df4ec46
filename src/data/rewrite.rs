//! The rewriter: innermost rewriting with lazy `if`/`&&`/`||`/`=>`, built-in functions
//! evaluated natively on machine-word numbers, and user equations compiled per head symbol.
//!
//! Strategy. `eval(t)` normalises `t` under the current substitution (the environment):
//! arguments first (innermost), then the head is applied to the normal-form arguments:
//! a built-in evaluator, the projection/recogniser of a struct, or the user equations of the
//! head symbol (indexed by function symbol, matched by a compiled pattern tree). The right-hand
//! side of a matching equation is evaluated directly under the match substitution, so no
//! intermediate (non-normal) term is ever interned. `if`, `&&`, `||` and `=>` evaluate their
//! condition / left operand first and only the branch that is needed, which makes recursive
//! definitions like `f(n) = if(n == 0, 0, f(Int2Nat(n - 1)))` terminate, as with mCRL2's JITty.
//! This is correct for confluent, terminating specifications; for others it finds *a* normal
//! form or stops with [`RewriteError::TooDeep`].

use std::cmp::Ordering;
use std::sync::Arc;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use rustc_hash::FxHashMap;

use super::convert::{expr_to_term, names, ConvertError, Internal};
use super::enumerate::{EnumError, Enumerator};
use super::ir::{Binder, DataExpr, DataSpec, Func, Name, Sort, SortDef, Var};
use super::numbers::IntVal;
use super::store::{FuncId, NumSort, Term, TermId, TermStore, VarId};

/// Errors of rewriting.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RewriteError {
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
    Enumeration(#[from] EnumError),
    /// An equation could not be converted (bad literal).
    #[error("in an equation: {0}")]
    Convert(#[from] ConvertError),
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
    /// Equations per head symbol, indexed by [`FuncId`].
    rules: Vec<Vec<Rule>>,
}

/// A substitution from variables to terms.
pub type Substitution = FxHashMap<VarId, TermId>;

/// Default stack budget of one rewrite call in bytes: safe on a 2 MiB thread stack (the
/// default of spawned threads). Deep computations should run on a thread with a bigger stack
/// and raise the limit with [`Rewriter::set_stack_limit`].
pub const DEFAULT_STACK_LIMIT: usize = 1 << 20;

/// A rewriting context: the compiled equations of one [`DataSpec`] (shared, immutable) plus
/// per-context scratch state. Clone it to get an independent context for another thread;
/// all contexts share the same [`TermStore`].
pub struct Rewriter {
    store: &'static TermStore,
    sys: Arc<System>,
    kinds: Vec<Option<Kind>>,
    /// Per variable: (frame, value); a binding counts only in the current frame.
    env: Vec<(u32, TermId)>,
    saved: Vec<(VarId, (u32, TermId))>,
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
    fresh: u32,
}

impl Clone for Rewriter {
    fn clone(&self) -> Self {
        Rewriter {
            store: self.store,
            sys: self.sys.clone(),
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
            fresh: self.fresh,
        }
    }
}

impl std::fmt::Debug for Rewriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rewriter({} equations)", self.sys.spec.equations.len())
    }
}

impl Rewriter {
    /// A rewriter for `spec` with a fresh term store that lives until the process exits
    /// ([`TermStore::new_static`]). Create one per tool run and clone it per thread; use
    /// [`Rewriter::with_store`] to share an existing store.
    pub fn new(spec: &DataSpec) -> Result<Rewriter, RewriteError> {
        Rewriter::with_store(spec, TermStore::new_static())
    }

    /// A rewriter for `spec` over an existing (shared) term store.
    pub fn with_store(
        spec: &DataSpec,
        store: &'static TermStore,
    ) -> Result<Rewriter, RewriteError> {
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
            fresh: 0,
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
        for (f, rs) in rules {
            let i = f.0 as usize;
            if i >= by_id.len() {
                by_id.resize_with(i + 1, Vec::new);
            }
            by_id[i] = rs;
        }
        Arc::get_mut(&mut rw.sys).expect("fresh system").rules = by_id;
        // Normal forms found while compiling patterns were computed without the equations.
        rw.nf_bits.clear();
        Ok(rw)
    }

    fn compile_rule(
        &mut self,
        lhs: TermId,
        cond: Option<TermId>,
        rhs: TermId,
    ) -> Result<Option<(FuncId, Rule)>, RewriteError> {
        let store = self.store;
        match store.get(lhs) {
            Term::Func(f) => Ok(Some((
                *f,
                Rule {
                    pats: vec![],
                    curried: false,
                    cond,
                    rhs,
                },
            ))),
            Term::App(h, args) => match store.get(*h) {
                Term::Func(f) => {
                    let pats = args
                        .iter()
                        .map(|a| self.compile_pat(*a))
                        .collect::<Result<Vec<_>, _>>()?;
                    Ok(Some((
                        *f,
                        Rule {
                            pats,
                            curried: false,
                            cond,
                            rhs,
                        },
                    )))
                }
                _ => {
                    let mut root = *h;
                    while let Term::App(h2, _) = store.get(root) {
                        root = *h2;
                    }
                    let Term::Func(f) = store.get(root) else {
                        return Ok(None);
                    };
                    let pat = self.compile_pat(lhs)?;
                    Ok(Some((
                        *f,
                        Rule {
                            pats: vec![pat],
                            curried: true,
                            cond,
                            rhs,
                        },
                    )))
                }
            },
            _ => Ok(None),
        }
    }

    fn compile_pat(&mut self, t: TermId) -> Result<Pat, RewriteError> {
        let store = self.store;
        if store.is_closed(t) {
            let builtin_head = match store.as_func_app(t) {
                Some((f, _)) => matches!(self.kind(f), Kind::Op(_)),
                None => false,
            };
            // Only built-in applications are normalised (mCRL2 does not rewrite left-hand
            // sides; this just makes literals such as `-1` and `{1, 2}` canonical).
            if builtin_head || self.has_builtin_op(t) {
                return Ok(Pat::Term(self.rewrite(t)?));
            }
            return Ok(Pat::Term(t));
        }
        Ok(match store.get(t) {
            Term::Var(v) => Pat::Var(*v),
            Term::App(h, args) => Pat::App(
                *h,
                args.iter()
                    .map(|a| self.compile_pat(*a))
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            _ => Pat::Term(t),
        })
    }

    fn has_builtin_op(&mut self, t: TermId) -> bool {
        let store = self.store;
        match store.get(t) {
            Term::App(h, args) => {
                let hb = match store.get(*h) {
                    Term::Func(f) => matches!(self.kind(*f), Kind::Op(_)),
                    _ => false,
                };
                hb || args.iter().any(|a| self.has_builtin_op(*a))
            }
            _ => false,
        }
    }

    /// The shared term store.
    pub fn store(&self) -> &'static TermStore {
        self.store
    }

    /// The data specification this rewriter was built for.
    pub fn spec(&self) -> &DataSpec {
        &self.sys.spec
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
    pub fn enumerator(&mut self) -> Enumerator<'_> {
        Enumerator::new(self)
    }

    // ----- environment -------------------------------------------------------------------

    fn enter(&mut self) -> (u32, usize, usize) {
        let m = (self.frame, self.saved.len(), self.frame_start);
        self.frame_start = self.saved.len();
        self.frame = self.next_frame;
        self.next_frame = self.next_frame.wrapping_add(1).max(1);
        m
    }

    fn leave(&mut self, (frame, len, start): (u32, usize, usize)) {
        self.frame_start = start;
        while self.saved.len() > len {
            let (v, old) = self.saved.pop().expect("saved binding");
            self.env[v.0 as usize] = old;
        }
        self.frame = frame;
    }

    fn bind(&mut self, v: VarId, t: TermId) {
        let i = v.0 as usize;
        if i >= self.env.len() {
            self.env.resize(i + 1, (0, TermId(0)));
        }
        self.saved.push((v, self.env[i]));
        self.env[i] = (self.frame, t);
    }

    fn lookup(&self, v: VarId) -> Option<TermId> {
        match self.env.get(v.0 as usize) {
            Some((f, t)) if *f == self.frame => Some(*t),
            _ => None,
        }
    }

    /// Bindings of the current frame whose values are open (for capture avoidance).
    fn frame_has_open_values(&self, mark_len: usize) -> bool {
        self.saved[mark_len..]
            .iter()
            .any(|(v, _)| matches!(self.lookup(*v), Some(t) if !self.store.is_closed(t)))
    }

    pub(crate) fn kind(&mut self, f: FuncId) -> Kind {
        let i = f.0 as usize;
        if let Some(Some(k)) = self.kinds.get(i) {
            return *k;
        }
        let k = match self.sys.kinds.get(&f) {
            Some(k) => *k,
            None => classify_builtin(self.store.func_of(f)),
        };
        if i >= self.kinds.len() {
            self.kinds.resize(i + 1, None);
        }
        self.kinds[i] = Some(k);
        k
    }

    pub(crate) fn fresh_var(&mut self, sort: &Sort) -> VarId {
        self.fresh += 1;
        self.store.intern_var(&Var {
            name: format!("@v{}", self.fresh).into(),
            sort: sort.clone(),
        })
    }

    fn too_deep(&self, t: TermId) -> RewriteError {
        RewriteError::TooDeep {
            limit: self.max_stack,
            term: self.show(t),
        }
    }

    /// A short textual rendering of a term for error messages.
    pub fn show(&self, t: TermId) -> String {
        let mut s = String::new();
        show_term(self.store, t, &mut s, 6);
        s
    }

    // ----- evaluation --------------------------------------------------------------------

    pub(crate) fn eval(&mut self, t: TermId) -> Result<TermId, RewriteError> {
        let store = self.store;
        match store.get(t) {
            Term::Num(..) | Term::BigNum(..) | Term::Real(_) => Ok(t),
            Term::Var(v) => Ok(self.lookup(*v).unwrap_or(t)),
            Term::Func(f) => {
                if let Some(k) = self.kinds.get(f.0 as usize).copied().flatten() {
                    if matches!(k, Kind::Ctor(_)) {
                        return Ok(t);
                    }
                }
                self.apply_func(*f, t, &[])
            }
            Term::App(h, args) => {
                // Stack in use, measured by address (stacks grow down on every supported
                // target; `abs_diff` keeps this safe either way).
                let closed = store.is_closed(t);
                if closed && self.is_known_nf(t) {
                    return Ok(t);
                }
                let probe = 0u8;
                let here = std::hint::black_box(&probe) as *const u8 as usize;
                if self.stack_base != 0 && here.abs_diff(self.stack_base) > self.max_stack {
                    return Err(self.too_deep(t));
                }
                let r = self.eval_app(*h, args)?;
                // A result is a normal form; if it is closed it stays one in every context.
                if store.is_closed(r) {
                    self.mark_nf(r);
                }
                Ok(r)
            }
            Term::Binder(kind, vs, body) => self.eval_binder(*kind, vs, *body),
        }
    }

    fn is_known_nf(&self, t: TermId) -> bool {
        let i = t.0 as usize;
        self.nf_bits
            .get(i >> 6)
            .is_some_and(|w| w & (1u64 << (i & 63)) != 0)
    }

    fn mark_nf(&mut self, t: TermId) {
        let i = t.0 as usize;
        if i >> 6 >= self.nf_bits.len() {
            self.nf_bits.resize((i >> 6) + 1024, 0);
        }
        self.nf_bits[i >> 6] |= 1u64 << (i & 63);
    }

    fn eval_app(&mut self, h: TermId, args: &[TermId]) -> Result<TermId, RewriteError> {
        let store = self.store;
        // Normal-form arguments go to a stack buffer: no allocation for the usual arities.
        let mut buf = [TermId(0); 6];
        let mut heap = Vec::new();
        let n = args.len();
        if let Term::Func(f) = store.get(h) {
            let k = self.kind(*f);
            if let Kind::Op(op @ (Op::If | Op::And | Op::Or | Op::Imp)) = k {
                if n == if op == Op::If { 3 } else { 2 } {
                    return self.eval_lazy(op, h, args);
                }
            }
            let nargs = self.eval_args(args, &mut buf, &mut heap)?;
            return self.apply_func(*f, h, nargs);
        }
        let hn = self.eval(h)?;
        let nargs = self.eval_args(args, &mut buf, &mut heap)?;
        self.apply(hn, nargs)
    }

    fn eval_args<'b>(
        &mut self,
        args: &[TermId],
        buf: &'b mut [TermId; 6],
        heap: &'b mut Vec<TermId>,
    ) -> Result<&'b [TermId], RewriteError> {
        if args.len() <= buf.len() {
            for (i, a) in args.iter().enumerate() {
                buf[i] = self.eval(*a)?;
            }
            Ok(&buf[..args.len()])
        } else {
            for a in args {
                let v = self.eval(*a)?;
                heap.push(v);
            }
            Ok(heap)
        }
    }

    fn eval_lazy(&mut self, op: Op, h: TermId, args: &[TermId]) -> Result<TermId, RewriteError> {
        let (tt, ff) = (self.store.true_term(), self.store.false_term());
        let c = self.eval(args[0])?;
        match op {
            Op::If => {
                if c == tt {
                    return self.eval(args[1]);
                }
                if c == ff {
                    return self.eval(args[2]);
                }
                let a = self.eval(args[1])?;
                let b = self.eval(args[2])?;
                if a == b {
                    return Ok(a);
                }
                Ok(self.store.app(h, &[c, a, b]))
            }
            Op::And | Op::Or | Op::Imp => {
                let (short, pass) = match op {
                    Op::And => (ff, tt),
                    Op::Or => (tt, ff),
                    _ => (tt, tt),
                };
                // `false => b` is `true`; `true => b` is `b`.
                if op == Op::Imp {
                    if c == ff {
                        return Ok(tt);
                    }
                    if c == tt {
                        return self.eval(args[1]);
                    }
                } else {
                    if c == short {
                        return Ok(short);
                    }
                    if c == pass {
                        return self.eval(args[1]);
                    }
                }
                let b = self.eval(args[1])?;
                self.bool_binop(op, h, c, b)
            }
            _ => unreachable!("not a lazy operator"),
        }
    }

    /// `&&`, `||`, `=>` on normal forms, with the standard simplifications.
    fn bool_binop(
        &mut self,
        op: Op,
        h: TermId,
        a: TermId,
        b: TermId,
    ) -> Result<TermId, RewriteError> {
        let (tt, ff) = (self.store.true_term(), self.store.false_term());
        let r = match op {
            Op::And => {
                if a == ff || b == ff {
                    ff
                } else if a == tt {
                    b
                } else if b == tt || a == b {
                    a
                } else {
                    self.store.app(h, &[a, b])
                }
            }
            Op::Or => {
                if a == tt || b == tt {
                    tt
                } else if a == ff {
                    b
                } else if b == ff || a == b {
                    a
                } else {
                    self.store.app(h, &[a, b])
                }
            }
            _ => {
                if a == ff || b == tt || a == b {
                    tt
                } else if a == tt {
                    b
                } else if b == ff {
                    self.not(a)
                } else {
                    self.store.app(h, &[a, b])
                }
            }
        };
        Ok(r)
    }

    fn not(&mut self, a: TermId) -> TermId {
        let (tt, ff) = (self.store.true_term(), self.store.false_term());
        if a == tt {
            return ff;
        }
        if a == ff {
            return tt;
        }
        if let Some((f, [x])) = self.store.as_func_app(a) {
            if self.kind(f) == Kind::Op(Op::Not) {
                return *x;
            }
        }
        let nf = self.store.intern_func(&Func {
            name: "!".into(),
            sort: Sort::Arrow(vec![Sort::Bool], Box::new(Sort::Bool)),
        });
        self.store.app_func(nf, &[a])
    }

    /// `!t` with the negation pushed through `&&`, `||` and `=>`, so that the enumerator
    /// sees the bounds of `forall x. x < K => …` as conjuncts of the counterexample goal.
    fn negate(&mut self, t: TermId) -> TermId {
        let store = self.store;
        if let Some((f, [a, b])) = store.as_func_app(t) {
            let (a, b) = (*a, *b);
            let bool2 = Sort::Arrow(vec![Sort::Bool, Sort::Bool], Box::new(Sort::Bool));
            let mk = |name: &str| {
                store.func(store.intern_func(&Func {
                    name: name.into(),
                    sort: bool2.clone(),
                }))
            };
            match self.kind(f) {
                Kind::Op(Op::And) => {
                    let (na, nb) = (self.negate(a), self.negate(b));
                    return self.bool_binop(Op::Or, mk("||"), na, nb).unwrap_or(t);
                }
                Kind::Op(Op::Or) => {
                    let (na, nb) = (self.negate(a), self.negate(b));
                    return self.bool_binop(Op::And, mk("&&"), na, nb).unwrap_or(t);
                }
                Kind::Op(Op::Imp) => {
                    let nb = self.negate(b);
                    return self.bool_binop(Op::And, mk("&&"), a, nb).unwrap_or(t);
                }
                _ => {}
            }
        }
        self.not(t)
    }

    fn eval_binder(
        &mut self,
        kind: Binder,
        vs: &[VarId],
        body: TermId,
    ) -> Result<TermId, RewriteError> {
        let store = self.store;
        // Capture avoidance: rename bound variables that occur in open values of the frame.
        let mut vars: Vec<VarId> = vs.to_vec();
        let mark = self.saved.len();
        let mut renamed: Vec<(VarId, TermId)> = Vec::new();
        let start = self.frame_start;
        if self.frame_has_open_values(start) {
            for v in vars.iter_mut() {
                let clash = self.saved[start..]
                    .iter()
                    .any(|(w, _)| matches!(self.lookup(*w), Some(t) if store.occurs_free(*v, t)));
                if clash {
                    let sort = store.var_of(*v).sort.clone();
                    let nv = self.fresh_var(&sort);
                    renamed.push((*v, store.var(nv)));
                    *v = nv;
                }
            }
        }
        // Bound variables shadow outer bindings (bound to themselves / their new names).
        for (i, v) in vs.iter().enumerate() {
            let val = renamed
                .iter()
                .find(|(o, _)| o == v)
                .map(|(_, n)| *n)
                .unwrap_or_else(|| store.var(vars[i]));
            self.bind(*v, val);
        }
        let b = self.eval(body);
        // Restore the shadowed bindings (they live in the current frame).
        while self.saved.len() > mark {
            let (v, old) = self.saved.pop().expect("saved binding");
            self.env[v.0 as usize] = old;
        }
        let b = b?;
        match kind {
            Binder::Lambda => Ok(store.binder(kind, &vars, b)),
            Binder::Forall | Binder::Exists => self.eval_quantifier(kind, &vars, b),
            Binder::SetComprehension => {
                let el = store.var_of(vars[0]).sort.clone();
                let lam = store.binder(Binder::Lambda, &vars, b);
                let f = self.eta(lam);
                Ok(Internal::set(
                    store,
                    &el,
                    f,
                    Internal::fset(store, &el, &[]),
                ))
            }
            Binder::BagComprehension => {
                let el = store.var_of(vars[0]).sort.clone();
                let lam = store.binder(Binder::Lambda, &vars, b);
                let f = self.eta(lam);
                Ok(Internal::bag(
                    store,
                    &el,
                    f,
                    Internal::fbag(store, &el, &[]),
                ))
            }
        }
    }

    /// `lambda x. false` → `@false_`, `lambda x. 0` → `@zero_`, so finite sets stay canonical.
    fn eta(&mut self, lam: TermId) -> TermId {
        let store = self.store;
        if let Term::Binder(Binder::Lambda, vs, b) = store.get(lam) {
            if vs.len() == 1 {
                let el = store.var_of(vs[0]).sort.clone();
                if *b == store.false_term() {
                    return Internal::false_fn(store, &el);
                }
                if matches!(store.get(*b), Term::Num(NumSort::Nat, 0)) {
                    return Internal::zero_fn(store, &el);
                }
            }
        }
        lam
    }

    fn eval_quantifier(
        &mut self,
        kind: Binder,
        vars: &[VarId],
        body: TermId,
    ) -> Result<TermId, RewriteError> {
        let store = self.store;
        let (tt, ff) = (store.true_term(), store.false_term());
        if body == tt || body == ff {
            return Ok(body);
        }
        let used: Vec<VarId> = vars
            .iter()
            .copied()
            .filter(|v| store.occurs_free(*v, body))
            .collect();
        if used.is_empty() {
            return Ok(body);
        }
        // exists: look for a witness of body; forall: look for a counterexample (!body).
        let goal = if kind == Binder::Exists {
            body
        } else {
            self.negate(body)
        };
        let only_bound = store.free_vars(goal).iter().all(|v| used.contains(v));
        let mut found = false;
        let mut undecided = false;
        let res = self
            .enumerator()
            .enumerate(&used, goal, &mut |_, residual| {
                if residual == tt {
                    found = true;
                    false
                } else {
                    undecided = true;
                    true
                }
            });
        match res {
            Ok(()) => {}
            Err(e) => {
                if only_bound {
                    return Err(e.into());
                }
                return Ok(store.binder(kind, &used, body));
            }
        }
        if found {
            return Ok(if kind == Binder::Exists { tt } else { ff });
        }
        if undecided {
            return Ok(store.binder(kind, &used, body));
        }
        Ok(if kind == Binder::Exists { ff } else { tt })
    }

    /// Applies a normal-form head to normal-form arguments.
    pub(crate) fn apply(&mut self, h: TermId, args: &[TermId]) -> Result<TermId, RewriteError> {
        let store = self.store;
        match store.get(h) {
            Term::Func(f) => self.apply_func(*f, h, args),
            Term::Binder(Binder::Lambda, vs, body) if vs.len() == args.len() => {
                let mark = self.enter();
                for (v, a) in vs.iter().zip(args) {
                    self.bind(*v, *a);
                }
                let r = self.eval(*body);
                self.leave(mark);
                r
            }
            Term::App(g, gargs) => {
                if let Term::Func(u) = store.get(*g) {
                    if self.kind(*u) == Kind::Op(Op::FuncUpdate)
                        && gargs.len() == 3
                        && args.len() == 1
                    {
                        let (f, x, v) = (gargs[0], gargs[1], gargs[2]);
                        return match self.decide_eq(args[0], x) {
                            Some(true) => Ok(v),
                            Some(false) => self.apply(f, args),
                            None => {
                                let fa = self.apply(f, args)?;
                                let c = self.mk_eq(args[0], x)?;
                                if fa == v {
                                    return Ok(v);
                                }
                                let s = store.sort_of(v);
                                let iff = store.intern_func(&Func {
                                    name: "if".into(),
                                    sort: Sort::Arrow(
                                        vec![Sort::Bool, s.clone(), s.clone()],
                                        Box::new(s),
                                    ),
                                });
                                Ok(store.app_func(iff, &[c, v, fa]))
                            }
                        };
                    }
                }
                let t = store.app(h, args);
                let mut root = h;
                while let Term::App(r, _) = store.get(root) {
                    root = *r;
                }
                if let Term::Func(f) = store.get(root) {
                    if let Some(r) = self.try_rules(*f, &[t], true)? {
                        return Ok(r);
                    }
                }
                Ok(t)
            }
            _ => Ok(store.app(h, args)),
        }
    }

    fn apply_func(
        &mut self,
        f: FuncId,
        h: TermId,
        args: &[TermId],
    ) -> Result<TermId, RewriteError> {
        match self.kind(f) {
            Kind::Ctor(_) => {}
            Kind::Op(op) => {
                if let Some(r) = self.builtin(op, f, h, args)? {
                    return Ok(r);
                }
            }
            Kind::Proj(s) if args.len() == 1 => {
                if let Some(r) = self.project(s, f, args[0]) {
                    return Ok(r);
                }
            }
            Kind::Recog(s) if args.len() == 1 => {
                if let Some(r) = self.recognise(s, f, args[0]) {
                    return Ok(r);
                }
            }
            _ => {}
        }
        if let Some(r) = self.try_rules(f, args, false)? {
            return Ok(r);
        }
        Ok(if args.is_empty() {
            h
        } else {
            self.store.app(h, args)
        })
    }

    fn try_rules(
        &mut self,
        f: FuncId,
        args: &[TermId],
        curried: bool,
    ) -> Result<Option<TermId>, RewriteError> {
        let fi = f.0 as usize;
        let n = match self.sys.rules.get(fi) {
            Some(r) if !r.is_empty() => r.len(),
            _ => return Ok(None),
        };
        let base = self.subs.len();
        for i in 0..n {
            self.subs.truncate(base);
            let (cond, rhs) = {
                let rule = &self.sys.rules[fi][i];
                if rule.curried != curried || rule.pats.len() != args.len() {
                    continue;
                }
                let store = self.store;
                let subs = &mut self.subs;
                if !rule
                    .pats
                    .iter()
                    .zip(args)
                    .all(|(p, a)| match_pat(store, p, *a, subs, base))
                {
                    continue;
                }
                (rule.cond, rule.rhs)
            };
            let mark = self.enter();
            for k in base..self.subs.len() {
                let (v, t) = self.subs[k];
                self.bind(v, t);
            }
            self.subs.truncate(base);
            if let Some(c) = cond {
                let cv = match self.eval(c) {
                    Ok(cv) => cv,
                    Err(e) => {
                        self.leave(mark);
                        return Err(e);
                    }
                };
                if cv != self.store.true_term() {
                    self.leave(mark);
                    continue;
                }
            }
            let r = self.eval(rhs);
            self.leave(mark);
            return r.map(Some);
        }
        self.subs.truncate(base);
        Ok(None)
    }

    fn project(&mut self, s: u32, f: FuncId, arg: TermId) -> Option<TermId> {
        let store = self.store;
        let (c, cargs) = store.as_func_app(arg)?;
        let Kind::Ctor(Ctor::Struct { sort, index }) = self.kind(c) else {
            return None;
        };
        if sort != s {
            return None;
        }
        let name = &store.func_of(f).name;
        let info = &self.sys.structs[s as usize].ctors[index as usize];
        let i = info
            .projections
            .iter()
            .position(|p| p.as_ref() == Some(name))?;
        cargs.get(i).copied()
    }

    fn recognise(&mut self, s: u32, f: FuncId, arg: TermId) -> Option<TermId> {
        let store = self.store;
        let (c, _) = store.as_func_app(arg)?;
        let Kind::Ctor(Ctor::Struct { sort, index }) = self.kind(c) else {
            return None;
        };
        if sort != s {
            return None;
        }
        let name = &store.func_of(f).name;
        let info = &self.sys.structs[s as usize].ctors[index as usize];
        Some(store.bool_term(info.recogniser.as_ref() == Some(name)))
    }

    // ----- values, equality and order ----------------------------------------------------

    /// Whether `t` is a constructor value (closed, built from constructors and numbers),
    /// for which equality is identity.
    pub(crate) fn is_value(&mut self, t: TermId) -> bool {
        let store = self.store;
        if !store.is_closed(t) {
            return false;
        }
        match store.get(t) {
            Term::Num(..) | Term::BigNum(..) | Term::Real(_) => true,
            Term::Func(f) => matches!(self.kind(*f), Kind::Ctor(_)) || self.is_fn_value(t),
            Term::App(h, args) => match store.get(*h) {
                Term::Func(f) => match self.kind(*f) {
                    Kind::Ctor(Ctor::Set | Ctor::Bag) => {
                        self.is_fn_value(args[0]) && self.is_value(args[1])
                    }
                    Kind::Ctor(_) => args.iter().all(|a| self.is_value(*a)),
                    _ => false,
                },
                _ => false,
            },
            Term::Binder(..) => false,
            Term::Var(_) => false,
        }
    }

    fn is_fn_value(&mut self, t: TermId) -> bool {
        match self.store.as_func_app(t) {
            Some((f, [])) => matches!(self.kind(f), Kind::Op(Op::FalseFn | Op::ZeroFn)),
            _ => false,
        }
    }

    /// Decides `a == b` for normal forms where possible.
    pub(crate) fn decide_eq(&mut self, a: TermId, b: TermId) -> Option<bool> {
        if a == b {
            return Some(true);
        }
        let store = self.store;
        if let (
            Term::Num(..) | Term::BigNum(..) | Term::Real(_),
            Term::Num(..) | Term::BigNum(..) | Term::Real(_),
        ) = (store.get(a), store.get(b))
        {
            return Some(false);
        }
        let (fa, aa) = store.as_func_app(a)?;
        let (fb, ba) = store.as_func_app(b)?;
        let (ka, kb) = (self.kind(fa), self.kind(fb));
        match (ka, kb) {
            (Kind::Ctor(Ctor::Bool), Kind::Ctor(Ctor::Bool)) => Some(false),
            (
                Kind::Ctor(Ctor::Struct { index: i, .. }),
                Kind::Ctor(Ctor::Struct { index: j, .. }),
            ) => {
                if i != j {
                    return Some(false);
                }
                self.decide_all_eq(aa, ba)
            }
            (Kind::Ctor(Ctor::Nil), Kind::Ctor(Ctor::ListCons))
            | (Kind::Ctor(Ctor::ListCons), Kind::Ctor(Ctor::Nil)) => Some(false),
            (Kind::Ctor(Ctor::ListCons), Kind::Ctor(Ctor::ListCons)) => self.decide_all_eq(aa, ba),
            (Kind::Ctor(Ctor::FSet | Ctor::FBag), Kind::Ctor(Ctor::FSet | Ctor::FBag)) => {
                if self.is_value(a) && self.is_value(b) {
                    Some(false)
                } else {
                    None
                }
            }
            (Kind::Ctor(Ctor::Set), Kind::Ctor(Ctor::Set))
            | (Kind::Ctor(Ctor::Bag), Kind::Ctor(Ctor::Bag)) => {
                if self.is_value(a) && self.is_value(b) {
                    Some(false)
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    fn decide_all_eq(&mut self, xs: &[TermId], ys: &[TermId]) -> Option<bool> {
        if xs.len() != ys.len() {
            return Some(false);
        }
        let mut all = true;
        for (x, y) in xs.iter().zip(ys) {
            match self.decide_eq(*x, *y) {
                Some(false) => return Some(false),
                Some(true) => {}
                None => all = false,
            }
        }
        if all {
            Some(true)
        } else {
            None
        }
    }

    /// `a == b` as a normal form.
    pub(crate) fn mk_eq(&mut self, a: TermId, b: TermId) -> Result<TermId, RewriteError> {
        let s = self.store.sort_of(a);
        let f = self.store.intern_func(&Func {
            name: "==".into(),
            sort: Sort::Arrow(vec![s.clone(), s], Box::new(Sort::Bool)),
        });
        let h = self.store.func(f);
        self.apply_func(f, h, &[a, b])
    }

    /// The total order on values used for canonical sets/bags and for `<` on lists, structs,
    /// numbers and Booleans (`false < true`, constructors in declaration order, then fields
    /// lexicographically).
    pub(crate) fn term_cmp(&mut self, a: TermId, b: TermId) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let store = self.store;
        let rank = |t: &Term| match t {
            Term::Num(..) | Term::BigNum(..) | Term::Real(_) => 0,
            Term::Func(_) | Term::App(..) => 1,
            Term::Binder(..) => 2,
            Term::Var(_) => 3,
        };
        let (ta, tb) = (store.get(a), store.get(b));
        if let (Some(x), Some(y)) = (num_of(ta), num_of(tb)) {
            return x.cmp_num(&y);
        }
        let (ra, rb) = (rank(ta), rank(tb));
        if ra != rb {
            return ra.cmp(&rb);
        }
        match (ta, tb) {
            (Term::Var(x), Term::Var(y)) => x.cmp(y),
            (Term::Binder(..), Term::Binder(..)) => a.cmp(&b),
            _ => {
                let (fa, aa) = store.as_func_app(a).unwrap_or((FuncId(u32::MAX), &[]));
                let (fb, ba) = store.as_func_app(b).unwrap_or((FuncId(u32::MAX), &[]));
                if fa != fb {
                    let ka = if fa.0 == u32::MAX {
                        Kind::Map
                    } else {
                        self.kind(fa)
                    };
                    let kb = if fb.0 == u32::MAX {
                        Kind::Map
                    } else {
                        self.kind(fb)
                    };
                    if let (
                        Kind::Ctor(Ctor::Struct { index: i, .. }),
                        Kind::Ctor(Ctor::Struct { index: j, .. }),
                    ) = (ka, kb)
                    {
                        return i.cmp(&j);
                    }
                    if let (Kind::Ctor(Ctor::Nil), Kind::Ctor(Ctor::ListCons)) = (ka, kb) {
                        return Ordering::Less;
                    }
                    if let (Kind::Ctor(Ctor::ListCons), Kind::Ctor(Ctor::Nil)) = (ka, kb) {
                        return Ordering::Greater;
                    }
                    if fa.0 == u32::MAX || fb.0 == u32::MAX {
                        return a.cmp(&b);
                    }
                    let (na, nb) = (&store.func_of(fa).name, &store.func_of(fb).name);
                    return na.cmp(nb).then(fa.cmp(&fb));
                }
                if fa.0 == u32::MAX {
                    // Higher-order heads: compare structurally by head then arguments.
                    if let (Term::App(ha, xa), Term::App(hb, xb)) = (ta, tb) {
                        let c = self.term_cmp(*ha, *hb);
                        if c != Ordering::Equal {
                            return c;
                        }
                        return self.cmp_seq(xa, xb);
                    }
                    return a.cmp(&b);
                }
                self.cmp_seq(aa, ba)
            }
        }
    }

    fn cmp_seq(&mut self, xs: &[TermId], ys: &[TermId]) -> Ordering {
        for (x, y) in xs.iter().zip(ys) {
            let c = self.term_cmp(*x, *y);
            if c != Ordering::Equal {
                return c;
            }
        }
        xs.len().cmp(&ys.len())
    }

    /// Decides `a < b` (`strict`) or `a <= b` for normal forms where possible, as mCRL2
    /// defines the orders: numbers and Booleans by value; structs by constructor order, then
    /// the first differing field decides with that field's own `<`; lists lexicographically
    /// with the elements' `<`; sets and bags by (proper) inclusion. `None` when undecided.
    fn decide_ord(
        &mut self,
        a: TermId,
        b: TermId,
        strict: bool,
    ) -> Result<Option<bool>, RewriteError> {
        if a == b {
            return Ok(Some(!strict));
        }
        if let (Some(x), Some(y)) = (self.num(a), self.num(b)) {
            let c = x.cmp_num(&y);
            return Ok(Some(if strict { c.is_lt() } else { c.is_le() }));
        }
        let store = self.store;
        if matches!(
            &*store.sort_ref(a),
            Sort::Set(_) | Sort::FSet(_) | Sort::Bag(_) | Sort::FBag(_)
        ) {
            let tt = store.true_term();
            return Ok(self.subset(a, b, strict)?.map(|r| r == tt));
        }
        let (Some((fa, aa)), Some((fb, ba))) = (store.as_func_app(a), store.as_func_app(b)) else {
            return Ok(None);
        };
        match (self.kind(fa), self.kind(fb)) {
            (Kind::Ctor(Ctor::Bool), Kind::Ctor(Ctor::Bool)) => {
                // a != b here, so a < b iff a is false.
                Ok(Some(a == store.false_term()))
            }
            (
                Kind::Ctor(Ctor::Struct { sort: s1, index: i }),
                Kind::Ctor(Ctor::Struct { sort: s2, index: j }),
            ) if s1 == s2 => {
                if i != j {
                    return Ok(Some(i < j));
                }
                for (x, y) in aa.iter().zip(ba) {
                    match self.decide_eq(*x, *y) {
                        Some(true) => {}
                        Some(false) => return self.decide_ord(*x, *y, true),
                        None => return Ok(None),
                    }
                }
                Ok(Some(!strict))
            }
            (Kind::Ctor(Ctor::Nil), Kind::Ctor(Ctor::ListCons)) => Ok(Some(true)),
            (Kind::Ctor(Ctor::ListCons), Kind::Ctor(Ctor::Nil)) => Ok(Some(false)),
            (Kind::Ctor(Ctor::ListCons), Kind::Ctor(Ctor::ListCons)) => {
                let (d, s, e, t) = (aa[0], aa[1], ba[0], ba[1]);
                match self.decide_eq(d, e) {
                    Some(true) => self.decide_ord(s, t, strict),
                    Some(false) => self.decide_ord(d, e, true),
                    None => Ok(None),
                }
            }
            _ => Ok(None),
        }
    }
}

/// Matches pattern `p` against normal form `t`, extending `sub` (entries from `base` on).
fn match_pat(
    store: &TermStore,
    p: &Pat,
    t: TermId,
    sub: &mut Vec<(VarId, TermId)>,
    base: usize,
) -> bool {
    match p {
        Pat::Term(x) => *x == t,
        Pat::Var(v) => {
            if let Some((_, b)) = sub[base..].iter().find(|(w, _)| w == v) {
                *b == t
            } else {
                sub.push((*v, t));
                true
            }
        }
        Pat::App(h, ps) => match store.get(t) {
            Term::App(th, targs) if th == h && targs.len() == ps.len() => ps
                .iter()
                .zip(targs.iter())
                .all(|(p, a)| match_pat(store, p, *a, sub, base)),
            _ => false,
        },
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

/// A numeric value of a term.
#[derive(Clone, Debug)]
pub(crate) enum NumVal {
    I(IntVal),
    R(BigRational),
}

impl NumVal {
    fn is_zero(&self) -> bool {
        match self {
            NumVal::I(i) => i.signum() == 0,
            NumVal::R(r) => r.is_zero(),
        }
    }
    fn is_one(&self) -> bool {
        match self {
            NumVal::I(i) => *i == IntVal::Small(1),
            NumVal::R(r) => r.is_one(),
        }
    }
    fn to_rat(&self) -> BigRational {
        match self {
            NumVal::I(i) => BigRational::from_integer(i.to_big()),
            NumVal::R(r) => r.clone(),
        }
    }
    fn cmp_num(&self, o: &NumVal) -> Ordering {
        match (self, o) {
            (NumVal::I(a), NumVal::I(b)) => a.cmp(b),
            _ => self.to_rat().cmp(&o.to_rat()),
        }
    }
}

pub(crate) fn num_of(t: &Term) -> Option<NumVal> {
    match t {
        Term::Num(_, v) => Some(NumVal::I(IntVal::Small(*v))),
        Term::BigNum(_, v) => Some(NumVal::I(IntVal::Big((**v).clone()))),
        Term::Real(r) => Some(NumVal::R((**r).clone())),
        _ => None,
    }
}

// ----- built-in operations ---------------------------------------------------------------

impl Rewriter {
    fn num(&self, t: TermId) -> Option<NumVal> {
        num_of(self.store.get(t))
    }

    fn int(&self, t: TermId) -> Option<IntVal> {
        match self.num(t)? {
            NumVal::I(i) => Some(i),
            NumVal::R(_) => None,
        }
    }

    /// A number of sort `cod`, or `None` if the value is not in that sort.
    fn mk_num(&self, cod: &Sort, v: NumVal) -> Option<TermId> {
        match cod {
            Sort::Real => Some(self.store.real(&v.to_rat())),
            s => {
                let ns = NumSort::of(s)?;
                let i = match v {
                    NumVal::I(i) => i,
                    NumVal::R(r) => {
                        if !r.is_integer() {
                            return None;
                        }
                        IntVal::from_big(r.to_integer())
                    }
                };
                let ok = match ns {
                    NumSort::Pos => i.signum() > 0,
                    NumSort::Nat => i.signum() >= 0,
                    NumSort::Int => true,
                };
                if !ok {
                    return None;
                }
                Some(match i {
                    IntVal::Small(x) => self.store.num(ns, x),
                    IntVal::Big(b) => self.store.big_num(ns, &b),
                })
            }
        }
    }

    /// `t` if its sort is `sort` (unit laws must not change the sort of a term).
    fn same_sort(&self, t: TermId, sort: &Sort) -> Option<TermId> {
        (*self.store.sort_ref(t) == *sort).then_some(t)
    }

    fn arith(
        &self,
        a: &NumVal,
        b: &NumVal,
        iop: fn(&IntVal, &IntVal) -> IntVal,
        rop: fn(&BigRational, &BigRational) -> BigRational,
    ) -> NumVal {
        match (a, b) {
            (NumVal::I(x), NumVal::I(y)) => NumVal::I(iop(x, y)),
            _ => NumVal::R(rop(&a.to_rat(), &b.to_rat())),
        }
    }

    #[allow(clippy::too_many_lines)]
    fn builtin(
        &mut self,
        op: Op,
        f: FuncId,
        h: TermId,
        args: &[TermId],
    ) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let cod: &'static Sort = store.func_of(f).sort.codomain();
        let (tt, ff) = (store.true_term(), store.false_term());
        let a0 = args.first().copied();
        let a1 = args.get(1).copied();
        Ok(match (op, args.len()) {
            (Op::Not, 1) => {
                let a = args[0];
                if *cod == Sort::Bool {
                    let r = self.not(a);
                    if r == store.app(h, &[a]) {
                        return Ok(None);
                    }
                    Some(r)
                } else {
                    self.set_complement(cod, a)?
                }
            }
            (Op::And | Op::Or | Op::Imp, 2) => Some(self.bool_binop(op, h, args[0], args[1])?),
            (Op::If, 3) => {
                if args[0] == tt {
                    Some(args[1])
                } else if args[0] == ff {
                    Some(args[2])
                } else if args[1] == args[2] {
                    Some(args[1])
                } else {
                    None
                }
            }
            (Op::Eq, 2) => {
                let (a, b) = (args[0], args[1]);
                match self.decide_eq(a, b) {
                    Some(r) => Some(store.bool_term(r)),
                    None => {
                        if a == tt {
                            Some(b)
                        } else if b == tt {
                            Some(a)
                        } else if a == ff {
                            Some(self.not(b))
                        } else if b == ff {
                            Some(self.not(a))
                        } else {
                            self.set_eq(a, b)?
                        }
                    }
                }
            }
            (Op::Neq, 2) => {
                let (a, b) = (args[0], args[1]);
                match self.decide_eq(a, b) {
                    Some(r) => Some(store.bool_term(!r)),
                    None => {
                        if a == ff {
                            Some(b)
                        } else if b == ff {
                            Some(a)
                        } else if a == tt {
                            Some(self.not(b))
                        } else if b == tt {
                            Some(self.not(a))
                        } else {
                            match self.set_eq(a, b)? {
                                Some(r) if r == tt || r == ff => Some(self.not(r)),
                                _ => None,
                            }
                        }
                    }
                }
            }
            (Op::Lt | Op::Le | Op::Gt | Op::Ge, 2) => {
                let (a, b) = if matches!(op, Op::Gt | Op::Ge) {
                    (args[1], args[0])
                } else {
                    (args[0], args[1])
                };
                let strict = matches!(op, Op::Lt | Op::Gt);
                if a == b {
                    return Ok(Some(store.bool_term(!strict)));
                }
                if let (Some(x), Some(y)) = (self.num(a), self.num(b)) {
                    let c = x.cmp_num(&y);
                    return Ok(Some(store.bool_term(if strict {
                        c.is_lt()
                    } else {
                        c.is_le()
                    })));
                }
                self.decide_ord(a, b, strict)?.map(|r| store.bool_term(r))
            }
            (Op::Add, 2) if cod.is_numeric() => {
                let (x, y) = (self.num(args[0]), self.num(args[1]));
                match (x, y) {
                    (Some(x), Some(y)) => {
                        self.mk_num(cod, self.arith(&x, &y, IntVal::add, |a, b| a + b))
                    }
                    // `0 + e = e`, `e + 0 = e` on open terms (mCRL2's unit equations).
                    (Some(z), None) if z.is_zero() => self.same_sort(args[1], cod),
                    (None, Some(z)) if z.is_zero() => self.same_sort(args[0], cod),
                    _ => None,
                }
            }
            (Op::Sub, 2) if cod.is_numeric() => match (self.num(args[0]), self.num(args[1])) {
                (Some(x), Some(y)) => {
                    self.mk_num(cod, self.arith(&x, &y, IntVal::sub, |a, b| a - b))
                }
                _ => None,
            },
            (Op::Mul, 2) if cod.is_numeric() => match (self.num(args[0]), self.num(args[1])) {
                (Some(x), Some(y)) => {
                    self.mk_num(cod, self.arith(&x, &y, IntVal::mul, |a, b| a * b))
                }
                // `0 * e = 0`, `1 * e = e` (and mirrored) on open terms.
                (Some(z), None) | (None, Some(z)) if z.is_zero() => self.mk_num(cod, z),
                (Some(o), None) if o.is_one() => self.same_sort(args[1], cod),
                (None, Some(o)) if o.is_one() => self.same_sort(args[0], cod),
                _ => None,
            },
            (Op::Add | Op::Sub | Op::Mul, 2) => self.set_binop(op, cod, args[0], args[1])?,
            (Op::Neg, 1) => match self.num(args[0]) {
                Some(NumVal::I(i)) => self.mk_num(cod, NumVal::I(i.neg())),
                Some(NumVal::R(r)) => self.mk_num(cod, NumVal::R(-r)),
                None => None,
            },
            (Op::Divide, 2) => match (self.num(args[0]), self.num(args[1])) {
                (Some(x), Some(y)) => {
                    let d = y.to_rat();
                    if d.is_zero() {
                        None
                    } else {
                        self.mk_num(cod, NumVal::R(x.to_rat() / d))
                    }
                }
                _ => None,
            },
            (Op::Div | Op::Mod, 2) => match (self.int(args[0]), self.int(args[1])) {
                (Some(x), Some(y)) if y.signum() > 0 => {
                    let r = if op == Op::Div {
                        x.div_floor(&y)
                    } else {
                        x.mod_floor(&y)
                    };
                    self.mk_num(cod, NumVal::I(r))
                }
                _ => None,
            },
            (Op::Exp, 2) => match (self.num(args[0]), self.int(args[1])) {
                (Some(NumVal::I(b)), Some(e)) if e.signum() >= 0 => match b.pow(&e) {
                    Some(r) => self.mk_num(cod, NumVal::I(r)),
                    None => {
                        return Err(RewriteError::NumberTooLarge {
                            term: self.show(store.app(h, args)),
                        })
                    }
                },
                (Some(NumVal::R(b)), Some(e)) => {
                    let neg = e.signum() < 0;
                    let ea = e.abs();
                    if neg && b.is_zero() {
                        None
                    } else {
                        let n = match ea {
                            IntVal::Small(n) if n <= u32::MAX as i64 => n as u32,
                            _ => {
                                return Err(RewriteError::NumberTooLarge {
                                    term: self.show(store.app(h, args)),
                                })
                            }
                        };
                        let p = num_traits::pow(b, n as usize);
                        self.mk_num(cod, NumVal::R(if neg { p.recip() } else { p }))
                    }
                }
                _ => None,
            },
            (Op::Min | Op::Max, 2) => match (self.num(args[0]), self.num(args[1])) {
                (Some(x), Some(y)) => {
                    let less = x.cmp_num(&y).is_le();
                    let pick = if (op == Op::Min) == less { x } else { y };
                    self.mk_num(cod, pick)
                }
                _ => None,
            },
            (Op::Abs, 1) => match self.num(args[0]) {
                Some(NumVal::I(i)) => self.mk_num(cod, NumVal::I(i.abs())),
                Some(NumVal::R(r)) => self.mk_num(cod, NumVal::R(r.abs())),
                None => None,
            },
            (Op::Succ | Op::Pred, 1) => match self.num(args[0]) {
                Some(x) => {
                    let one = NumVal::I(IntVal::Small(1));
                    let r = if op == Op::Succ {
                        self.arith(&x, &one, IntVal::add, |a, b| a + b)
                    } else {
                        self.arith(&x, &one, IntVal::sub, |a, b| a - b)
                    };
                    self.mk_num(cod, r)
                }
                None => None,
            },
            (Op::Sqrt, 1) => match self.int(args[0]) {
                Some(i) if i.signum() >= 0 => {
                    let r = match i {
                        IntVal::Small(v) => IntVal::Small(num_integer::Roots::sqrt(&v)),
                        IntVal::Big(b) => IntVal::from_big(b.sqrt()),
                    };
                    self.mk_num(cod, NumVal::I(r))
                }
                _ => None,
            },
            (Op::Conv, 1) => match self.num(args[0]) {
                Some(x) => self.mk_num(cod, x),
                None => None,
            },
            (Op::Floor | Op::Ceil | Op::Round, 1) => match self.num(args[0]) {
                Some(x) => {
                    let r = x.to_rat();
                    let v = match op {
                        Op::Floor => r.floor(),
                        Op::Ceil => r.ceil(),
                        _ => (r + BigRational::new(BigInt::one(), BigInt::from(2))).floor(),
                    };
                    self.mk_num(cod, NumVal::I(IntVal::from_big(v.to_integer())))
                }
                None => None,
            },
            (Op::Snoc, 2) => {
                let (l, x) = (args[0], args[1]);
                match self.list_spine(l) {
                    Some((mut elems, nil, cons)) => {
                        elems.push(x);
                        Some(self.mk_list(&elems, nil, cons, cod))
                    }
                    None => None,
                }
            }
            (Op::Concat, 2) => {
                let (l1, l2) = (args[0], args[1]);
                if self.is_nil(l2) {
                    return Ok(Some(l1));
                }
                self.list_spine(l1)
                    .map(|(elems, _, cons)| self.mk_list(&elems, l2, cons, cod))
            }
            (Op::At, 2) => {
                let Some(IntVal::Small(mut n)) = self.int(args[1]) else {
                    return Ok(None);
                };
                let mut l = args[0];
                loop {
                    match self.cons_parts(l) {
                        Some((x, rest)) => {
                            if n == 0 {
                                break Some(x);
                            }
                            n -= 1;
                            l = rest;
                        }
                        None => break None,
                    }
                }
            }
            (Op::Len, 1) => {
                let s = store.sort_ref(args[0]);
                match &*s {
                    Sort::List(_) => self
                        .list_spine(args[0])
                        .map(|(e, _, _)| store.num(NumSort::Nat, e.len() as i64)),
                    Sort::FSet(_) => match self.fset_elems(args[0]) {
                        Some(e) if e.iter().all(|x| self.is_value(*x)) => {
                            Some(store.num(NumSort::Nat, e.len() as i64))
                        }
                        _ => None,
                    },
                    Sort::FBag(_) => match self.fbag_pairs(args[0]) {
                        Some(p) if p.iter().all(|(x, _)| self.is_value(*x)) => {
                            let mut sum = IntVal::Small(0);
                            for (_, c) in &p {
                                sum = sum.add(c);
                            }
                            self.mk_num(cod, NumVal::I(sum))
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }
            (Op::Head, 1) => self.cons_parts(args[0]).map(|(x, _)| x),
            (Op::Tail, 1) => self.cons_parts(args[0]).map(|(_, r)| r),
            (Op::RHead, 1) => match self.list_spine(args[0]) {
                Some((e, _, _)) if !e.is_empty() => e.last().copied(),
                _ => None,
            },
            (Op::RTail, 1) => match self.list_spine(args[0]) {
                Some((mut e, nil, cons)) if !e.is_empty() => {
                    e.pop();
                    Some(self.mk_list(&e, nil, cons, cod))
                }
                _ => None,
            },
            (Op::In, 2) => self.member(args[0], args[1])?,
            (Op::Count, 2) => self.count(args[0], args[1])?,
            (Op::EmptySet, 0) => {
                let el = elem(cod);
                Some(Internal::set(
                    store,
                    &el,
                    Internal::false_fn(store, &el),
                    Internal::fset(store, &el, &[]),
                ))
            }
            (Op::EmptyBag, 0) => {
                let el = elem(cod);
                Some(Internal::bag(
                    store,
                    &el,
                    Internal::zero_fn(store, &el),
                    Internal::fbag(store, &el, &[]),
                ))
            }
            (Op::SetFSet, 1) => {
                let el = elem(cod);
                Some(Internal::set(
                    store,
                    &el,
                    Internal::false_fn(store, &el),
                    args[0],
                ))
            }
            (Op::BagFBag, 1) => {
                let el = elem(cod);
                Some(Internal::bag(
                    store,
                    &el,
                    Internal::zero_fn(store, &el),
                    args[0],
                ))
            }
            (Op::FSetMake, _) => {
                let el = elem(cod);
                let mut e = args.to_vec();
                self.sort_dedup(&mut e);
                Some(Internal::fset(store, &el, &e))
            }
            (Op::FBagMake, _) => {
                let el = elem(cod);
                let mut pairs = Vec::new();
                for c in args.chunks(2) {
                    let Some(n) = self.int(c[1]) else {
                        return Ok(None);
                    };
                    pairs.push((c[0], n));
                }
                Some(self.mk_fbag(&el, pairs))
            }
            (Op::FalseFn, 1) => Some(ff),
            (Op::ZeroFn, 1) => Some(store.num(NumSort::Nat, 0)),
            (Op::FuncUpdate, 3) => self.func_update(h, args[0], args[1], args[2])?,
            (Op::Set2Bag, 1) => {
                let el = elem(cod);
                match self.set_parts(args[0]) {
                    Some((fun, fs)) if self.is_false_fn(fun) => {
                        let e = self.fset_elems(fs).unwrap_or_default();
                        let pairs = e.into_iter().map(|x| (x, IntVal::Small(1))).collect();
                        let fb = self.mk_fbag(&el, pairs);
                        Some(Internal::bag(store, &el, Internal::zero_fn(store, &el), fb))
                    }
                    Some(_) => {
                        // Set2Bag(s) = { x: S | if(x in s, 1, 0) }
                        let s0 = args[0];
                        let f = self.lambda_over(&el, &[s0], |rw, x| {
                            let c = rw.member_term(x, s0)?;
                            let (one, zero) =
                                (rw.store.num(NumSort::Nat, 1), rw.store.num(NumSort::Nat, 0));
                            if c == rw.store.true_term() {
                                return Ok(one);
                            }
                            if c == rw.store.false_term() {
                                return Ok(zero);
                            }
                            let iff = rw.store.intern_func(&Func {
                                name: "if".into(),
                                sort: Sort::Arrow(
                                    vec![Sort::Bool, Sort::Nat, Sort::Nat],
                                    Box::new(Sort::Nat),
                                ),
                            });
                            Ok(rw.store.app_func(iff, &[c, one, zero]))
                        })?;
                        Some(Internal::bag(
                            store,
                            &el,
                            f,
                            Internal::fbag(store, &el, &[]),
                        ))
                    }
                    None => None,
                }
            }
            (Op::Bag2Set, 1) => {
                let el = elem(cod);
                match self.set_parts(args[0]) {
                    Some((fun, fb)) if self.is_zero_fn(fun) => {
                        let p = self.fbag_pairs(fb).unwrap_or_default();
                        let e: Vec<_> = p.into_iter().map(|(x, _)| x).collect();
                        let fs = Internal::fset(store, &el, &e);
                        Some(Internal::set(
                            store,
                            &el,
                            Internal::false_fn(store, &el),
                            fs,
                        ))
                    }
                    Some(_) => {
                        // Bag2Set(b) = { x: S | count(x, b) > 0 }
                        let b0 = args[0];
                        let f = self.lambda_over(&el, &[b0], |rw, x| {
                            let c = rw.count_term(x, b0)?;
                            let zero = rw.store.num(NumSort::Nat, 0);
                            let gt = rw.store.intern_func(&Func {
                                name: ">".into(),
                                sort: Sort::Arrow(vec![Sort::Nat, Sort::Nat], Box::new(Sort::Bool)),
                            });
                            let h = rw.store.func(gt);
                            rw.apply_func(gt, h, &[c, zero])
                        })?;
                        Some(Internal::set(
                            store,
                            &el,
                            f,
                            Internal::fset(store, &el, &[]),
                        ))
                    }
                    None => None,
                }
            }
            _ => {
                let _ = (a0, a1);
                None
            }
        })
    }

    // ----- lists -------------------------------------------------------------------------

    fn is_nil(&mut self, t: TermId) -> bool {
        matches!(self.store.as_func_app(t), Some((f, [])) if self.kind(f) == Kind::Ctor(Ctor::Nil))
    }

    fn cons_parts(&mut self, t: TermId) -> Option<(TermId, TermId)> {
        match self.store.as_func_app(t) {
            Some((f, [x, r])) if self.kind(f) == Kind::Ctor(Ctor::ListCons) => Some((*x, *r)),
            _ => None,
        }
    }

    /// The elements of a list whose spine is concrete, its `[]`, and its `|>` symbol.
    fn list_spine(&mut self, mut t: TermId) -> Option<(Vec<TermId>, TermId, Option<TermId>)> {
        let store = self.store;
        let mut elems = Vec::new();
        let mut cons = None;
        loop {
            if self.is_nil(t) {
                return Some((elems, t, cons));
            }
            match store.get(t) {
                Term::App(h, a) if a.len() == 2 => {
                    let Term::Func(f) = store.get(*h) else {
                        return None;
                    };
                    if self.kind(*f) != Kind::Ctor(Ctor::ListCons) {
                        return None;
                    }
                    cons = Some(*h);
                    elems.push(a[0]);
                    t = a[1];
                }
                _ => return None,
            }
        }
    }

    fn mk_list(
        &mut self,
        elems: &[TermId],
        tail: TermId,
        cons: Option<TermId>,
        list_sort: &Sort,
    ) -> TermId {
        let store = self.store;
        let cons = cons.unwrap_or_else(|| Internal::cons(store, &elem(list_sort)));
        let mut t = tail;
        for x in elems.iter().rev() {
            t = store.app(cons, &[*x, t]);
        }
        t
    }

    // ----- sets and bags -----------------------------------------------------------------

    fn sort_dedup(&mut self, e: &mut Vec<TermId>) {
        let mut v = std::mem::take(e);
        v.sort_by(|a, b| self.term_cmp(*a, *b));
        v.dedup();
        *e = v;
    }

    fn fset_elems(&mut self, t: TermId) -> Option<Vec<TermId>> {
        let (f, args) = self.store.as_func_app(t).map(|(f, a)| (f, a.to_vec()))?;
        match self.kind(f) {
            Kind::Ctor(Ctor::FSet) => Some(args),
            _ => None,
        }
    }

    fn fbag_pairs(&mut self, t: TermId) -> Option<Vec<(TermId, IntVal)>> {
        let (f, args) = self.store.as_func_app(t).map(|(f, a)| (f, a.to_vec()))?;
        if self.kind(f) != Kind::Ctor(Ctor::FBag) {
            return None;
        }
        args.chunks(2)
            .map(|c| Some((c[0], self.int(c[1])?)))
            .collect()
    }

    fn mk_fbag(&mut self, el: &Sort, mut pairs: Vec<(TermId, IntVal)>) -> TermId {
        pairs.sort_by(|a, b| self.term_cmp(a.0, b.0));
        let mut flat: Vec<TermId> = Vec::new();
        let mut merged: Vec<(TermId, IntVal)> = Vec::new();
        for (x, n) in pairs {
            match merged.last_mut() {
                Some((y, m)) if *y == x => *m = m.add(&n),
                _ => merged.push((x, n)),
            }
        }
        for (x, n) in merged {
            if n.signum() > 0 {
                flat.push(x);
                flat.push(match n {
                    IntVal::Small(v) => self.store.num(NumSort::Nat, v),
                    IntVal::Big(b) => self.store.big_num(NumSort::Nat, &b),
                });
            }
        }
        Internal::fbag(self.store, el, &flat)
    }

    fn set_parts(&mut self, t: TermId) -> Option<(TermId, TermId)> {
        match self.store.as_func_app(t) {
            Some((f, [a, b])) if matches!(self.kind(f), Kind::Ctor(Ctor::Set | Ctor::Bag)) => {
                Some((*a, *b))
            }
            _ => None,
        }
    }

    fn is_false_fn(&mut self, t: TermId) -> bool {
        matches!(self.store.as_func_app(t), Some((f, [])) if self.kind(f) == Kind::Op(Op::FalseFn))
    }

    fn is_zero_fn(&mut self, t: TermId) -> bool {
        matches!(self.store.as_func_app(t), Some((f, [])) if self.kind(f) == Kind::Op(Op::ZeroFn))
    }

    /// `x in c` for lists, finite sets/bags and sets/bags.
    fn member(&mut self, x: TermId, c: TermId) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let s = store.sort_ref(c);
        match &*s {
            Sort::List(_) => {
                let mut l = c;
                let mut unknown = false;
                loop {
                    if self.is_nil(l) {
                        return Ok(if unknown {
                            None
                        } else {
                            Some(store.false_term())
                        });
                    }
                    let Some((y, r)) = self.cons_parts(l) else {
                        return Ok(None);
                    };
                    match self.decide_eq(x, y) {
                        Some(true) => return Ok(Some(store.true_term())),
                        Some(false) => {}
                        None => unknown = true,
                    }
                    l = r;
                }
            }
            Sort::FSet(_) => {
                let Some(e) = self.fset_elems(c) else {
                    return Ok(None);
                };
                let mut unknown = false;
                for y in e {
                    match self.decide_eq(x, y) {
                        Some(true) => return Ok(Some(store.true_term())),
                        Some(false) => {}
                        None => unknown = true,
                    }
                }
                Ok(if unknown {
                    None
                } else {
                    Some(store.false_term())
                })
            }
            Sort::FBag(_) | Sort::Bag(_) => {
                let Some(n) = self.count(x, c)? else {
                    return Ok(None);
                };
                match store.get(n) {
                    Term::Num(..) | Term::BigNum(..) => Ok(Some(
                        store.bool_term(!matches!(store.get(n), Term::Num(_, 0))),
                    )),
                    _ => Ok(None),
                }
            }
            Sort::Set(_) => {
                let Some((f, fs)) = self.set_parts(c) else {
                    return Ok(None);
                };
                if self.is_false_fn(f) {
                    return self.member(x, fs);
                }
                // The exceptions as a term (stuck for an unknown `x`): `f(x)` may still
                // decide or bound it.
                let inf = self.member_term(x, fs)?;
                let fx = self.apply(f, &[x])?;
                // x in @set(f, s)  =  f(x) != x in s
                let neq = store.intern_func(&Func {
                    name: "!=".into(),
                    sort: Sort::Arrow(vec![Sort::Bool, Sort::Bool], Box::new(Sort::Bool)),
                });
                let h = store.func(neq);
                Ok(Some(self.apply_func(neq, h, &[fx, inf])?))
            }
            _ => Ok(None),
        }
    }

    /// `x in c` as a normal form (the stuck application if undecided).
    fn member_term(&mut self, x: TermId, c: TermId) -> Result<TermId, RewriteError> {
        if let Some(r) = self.member(x, c)? {
            return Ok(r);
        }
        let s = self.store.sort_of(c);
        let el = self.store.sort_of(x);
        let f = self.store.intern_func(&Func {
            name: "in".into(),
            sort: Sort::Arrow(vec![el, s], Box::new(Sort::Bool)),
        });
        Ok(self.store.app_func(f, &[x, c]))
    }

    /// `count(x, c)` as a normal form (the stuck application if undecided).
    fn count_term(&mut self, x: TermId, c: TermId) -> Result<TermId, RewriteError> {
        if let Some(r) = self.count(x, c)? {
            return Ok(r);
        }
        let s = self.store.sort_of(c);
        let el = self.store.sort_of(x);
        let f = self.store.intern_func(&Func {
            name: "count".into(),
            sort: Sort::Arrow(vec![el, s], Box::new(Sort::Nat)),
        });
        Ok(self.store.app_func(f, &[x, c]))
    }

    fn count(&mut self, x: TermId, c: TermId) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        match &*store.sort_ref(c) {
            Sort::FBag(_) => {
                let Some(p) = self.fbag_pairs(c) else {
                    return Ok(None);
                };
                let mut unknown = false;
                for (y, n) in p {
                    match self.decide_eq(x, y) {
                        Some(true) => return Ok(self.mk_num(&Sort::Nat, NumVal::I(n))),
                        Some(false) => {}
                        None => unknown = true,
                    }
                }
                Ok(if unknown {
                    None
                } else {
                    Some(store.num(NumSort::Nat, 0))
                })
            }
            Sort::Bag(_) => {
                let Some((f, fb)) = self.set_parts(c) else {
                    return Ok(None);
                };
                let Some(k) = self.count(x, fb)? else {
                    return Ok(None);
                };
                if self.is_zero_fn(f) {
                    return Ok(Some(k));
                }
                let fx = self.apply(f, &[x])?;
                let plus = store.intern_func(&Func {
                    name: "+".into(),
                    sort: Sort::Arrow(vec![Sort::Nat, Sort::Nat], Box::new(Sort::Nat)),
                });
                let h = store.func(plus);
                Ok(Some(self.apply_func(plus, h, &[fx, k])?))
            }
            _ => Ok(None),
        }
    }

    /// A lambda `lambda x: S . body(x)` built from a closure over a fresh variable.
    fn lambda_over(
        &mut self,
        el: &Sort,
        avoid: &[TermId],
        body: impl FnOnce(&mut Self, TermId) -> Result<TermId, RewriteError>,
    ) -> Result<TermId, RewriteError> {
        // Named `x` (as mCRL2 prints comprehensions) unless that could capture a variable.
        let store = self.store;
        let named_x = |t: &TermId| {
            store
                .free_vars(*t)
                .iter()
                .any(|w| store.var_of(*w).name.as_ref() == "x")
        };
        let v = if avoid.iter().any(named_x) {
            self.fresh_var(el)
        } else {
            store.intern_var(&Var {
                name: "x".into(),
                sort: el.clone(),
            })
        };
        let x = self.store.var(v);
        let b = body(self, x)?;
        let lam = self.store.binder(Binder::Lambda, &[v], b);
        Ok(self.eta(lam))
    }

    fn set_complement(&mut self, cod: &Sort, s: TermId) -> Result<Option<TermId>, RewriteError> {
        if !matches!(cod, Sort::Set(_)) {
            return Ok(None);
        }
        let el = elem(cod);
        let Some((f, fs)) = self.set_parts(s) else {
            return Ok(None);
        };
        // !@set(f, s) = @set(lambda x. !f(x), s)
        let g = self.lambda_over(&el, &[f], |rw, x| {
            let fx = rw.apply(f, &[x])?;
            Ok(rw.not(fx))
        })?;
        Ok(Some(Internal::set(self.store, &el, g, fs)))
    }

    fn set_binop(
        &mut self,
        op: Op,
        cod: &Sort,
        a: TermId,
        b: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let el = elem(cod);
        match cod {
            Sort::FSet(_) => {
                let (Some(x), Some(y)) = (self.fset_elems(a), self.fset_elems(b)) else {
                    return Ok(None);
                };
                if op != Op::Add && !(x.iter().chain(&y).all(|t| self.is_value(*t))) {
                    return Ok(None);
                }
                let mut r: Vec<TermId> = match op {
                    Op::Add => x.iter().chain(&y).copied().collect(),
                    Op::Mul => x.iter().filter(|t| y.contains(t)).copied().collect(),
                    _ => x.iter().filter(|t| !y.contains(t)).copied().collect(),
                };
                self.sort_dedup(&mut r);
                Ok(Some(Internal::fset(store, &el, &r)))
            }
            Sort::FBag(_) => {
                let (Some(x), Some(y)) = (self.fbag_pairs(a), self.fbag_pairs(b)) else {
                    return Ok(None);
                };
                if !(x.iter().chain(&y).all(|t| self.is_value(t.0))) {
                    return Ok(None);
                }
                let get = |v: &[(TermId, IntVal)], t: TermId| {
                    v.iter()
                        .find(|p| p.0 == t)
                        .map(|p| p.1.clone())
                        .unwrap_or(IntVal::Small(0))
                };
                let mut keys: Vec<TermId> = x.iter().chain(&y).map(|p| p.0).collect();
                self.sort_dedup(&mut keys);
                let pairs = keys
                    .into_iter()
                    .map(|k| {
                        let (m, n) = (get(&x, k), get(&y, k));
                        let c = match op {
                            Op::Add => m.add(&n),
                            Op::Mul => m.min(n),
                            _ => {
                                let d = m.sub(&n);
                                if d.signum() < 0 {
                                    IntVal::Small(0)
                                } else {
                                    d
                                }
                            }
                        };
                        (k, c)
                    })
                    .collect();
                Ok(Some(self.mk_fbag(&el, pairs)))
            }
            Sort::Set(_) | Sort::Bag(_) => {
                let is_set = matches!(cod, Sort::Set(_));
                let (Some((f, fa)), Some((g, gb))) = (self.set_parts(a), self.set_parts(b)) else {
                    return Ok(None);
                };
                let finite = if is_set {
                    self.is_false_fn(f) && self.is_false_fn(g)
                } else {
                    self.is_zero_fn(f) && self.is_zero_fn(g)
                };
                if finite {
                    let fcod = if is_set {
                        Sort::FSet(Box::new(el.clone()))
                    } else {
                        Sort::FBag(Box::new(el.clone()))
                    };
                    let Some(r) = self.set_binop(op, &fcod, fa, gb)? else {
                        return Ok(None);
                    };
                    return Ok(Some(if is_set {
                        Internal::set(store, &el, f, r)
                    } else {
                        Internal::bag(store, &el, f, r)
                    }));
                }
                // An infinite set combined with a finite one keeps its characteristic
                // function and updates the exceptions (mCRL2's @set(f, s) rules), so that
                // `s - {x} + {x}` returns to `s`: a PBES parameter of sort Set stays finite.
                if is_set {
                    let swap = self.is_false_fn(f) && matches!(op, Op::Add | Op::Mul);
                    let (f, s, g, t) = if swap { (g, gb, f, fa) } else { (f, fa, g, gb) };
                    if self.is_false_fn(g) {
                        if let Some(r) = self.set_with_finite(op, &el, f, s, g, t)? {
                            return Ok(Some(r));
                        }
                    }
                }
                // General case: characteristic / count function of the result.
                let fun = self.lambda_over(&el, &[a, b], |rw, x| {
                    if is_set {
                        let ia = rw.member_term(x, a)?;
                        let ib = rw.member_term(x, b)?;
                        let and = rw.store.intern_func(&Func {
                            name: "&&".into(),
                            sort: Sort::Arrow(vec![Sort::Bool, Sort::Bool], Box::new(Sort::Bool)),
                        });
                        let or = rw.store.intern_func(&Func {
                            name: "||".into(),
                            sort: Sort::Arrow(vec![Sort::Bool, Sort::Bool], Box::new(Sort::Bool)),
                        });
                        let (oh, ah) = (rw.store.func(or), rw.store.func(and));
                        match op {
                            Op::Add => rw.bool_binop(Op::Or, oh, ia, ib),
                            Op::Mul => rw.bool_binop(Op::And, ah, ia, ib),
                            _ => {
                                let nb = rw.not(ib);
                                rw.bool_binop(Op::And, ah, ia, nb)
                            }
                        }
                    } else {
                        let ca = rw.count_term(x, a)?;
                        let cb = rw.count_term(x, b)?;
                        let name = match op {
                            Op::Add => "+",
                            Op::Mul => "min",
                            _ => "@monus",
                        };
                        if name == "@monus" {
                            // max(a - b, 0) as Nat: Int2Nat(max(a - b, 0)) evaluated natively.
                            if let (Some(p), Some(q)) = (rw.int(ca), rw.int(cb)) {
                                let d = p.sub(&q);
                                let d = if d.signum() < 0 { IntVal::Small(0) } else { d };
                                return Ok(rw
                                    .mk_num(&Sort::Nat, NumVal::I(d))
                                    .expect("non-negative"));
                            }
                        }
                        let func = rw.store.intern_func(&Func {
                            name: name.into(),
                            sort: Sort::Arrow(vec![Sort::Nat, Sort::Nat], Box::new(Sort::Nat)),
                        });
                        let h = rw.store.func(func);
                        rw.apply_func(func, h, &[ca, cb])
                    }
                })?;
                Ok(Some(if is_set {
                    Internal::set(store, &el, fun, Internal::fset(store, &el, &[]))
                } else {
                    Internal::bag(store, &el, fun, Internal::fbag(store, &el, &[]))
                }))
            }
            _ => Ok(None),
        }
    }

    /// `@set(f, s) op @set(false, t)` with the exceptions `s` updated element by element of
    /// the finite `t` (membership in `@set(f, s)` is `f(x) != x in s`); `None` when an
    /// element is not a value or `f` does not decide it.
    fn set_with_finite(
        &mut self,
        op: Op,
        el: &Sort,
        f: TermId,
        s: TermId,
        false_fn: TermId,
        t: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        let (Some(xs), Some(ts)) = (self.fset_elems(s), self.fset_elems(t)) else {
            return Ok(None);
        };
        if !xs.iter().chain(&ts).all(|x| self.is_value(*x)) {
            return Ok(None);
        }
        let (tt, ff) = (self.store.true_term(), self.store.false_term());
        let mut fin = Vec::with_capacity(ts.len());
        for &x in &ts {
            let fx = self.apply(f, &[x])?;
            if fx != tt && fx != ff {
                return Ok(None);
            }
            fin.push((x, fx == tt));
        }
        let mut r: Vec<TermId> = Vec::new();
        match op {
            // x in t becomes a member: an exception exactly where f(x) is false.
            Op::Add | Op::Sub => {
                r.extend(xs.iter().filter(|x| !ts.contains(x)).copied());
                let want = op == Op::Sub;
                r.extend(fin.iter().filter(|(_, fx)| *fx == want).map(|(x, _)| *x));
                self.sort_dedup(&mut r);
                Ok(Some(Internal::set(
                    self.store,
                    el,
                    f,
                    Internal::fset(self.store, el, &r),
                )))
            }
            Op::Mul => {
                r.extend(
                    fin.iter()
                        .filter(|(x, fx)| *fx != xs.contains(x))
                        .map(|(x, _)| *x),
                );
                self.sort_dedup(&mut r);
                Ok(Some(Internal::set(
                    self.store,
                    el,
                    false_fn,
                    Internal::fset(self.store, el, &r),
                )))
            }
            _ => Ok(None),
        }
    }

    /// Equality of (infinite) sets and bags with identical representation parts.
    fn set_eq(&mut self, a: TermId, b: TermId) -> Result<Option<TermId>, RewriteError> {
        let (Some((f, x)), Some((g, y))) = (self.set_parts(a), self.set_parts(b)) else {
            return Ok(None);
        };
        if f == g {
            if let Some(r) = self.decide_eq(x, y) {
                return Ok(Some(self.store.bool_term(r)));
            }
        }
        Ok(None)
    }

    fn subset(
        &mut self,
        a: TermId,
        b: TermId,
        strict: bool,
    ) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        let s = store.sort_of(a);
        let (fa, fb) = match s {
            Sort::FSet(_) | Sort::FBag(_) => (a, b),
            Sort::Set(_) | Sort::Bag(_) => {
                let (Some((f, x)), Some((g, y))) = (self.set_parts(a), self.set_parts(b)) else {
                    return Ok(None);
                };
                let fin = (self.is_false_fn(f) || self.is_zero_fn(f))
                    && (self.is_false_fn(g) || self.is_zero_fn(g));
                if !fin {
                    return Ok(None);
                }
                (x, y)
            }
            _ => return Ok(None),
        };
        if !(self.is_value(fa) && self.is_value(fb)) {
            return Ok(None);
        }
        let r = if let (Some(x), Some(y)) = (self.fset_elems(fa), self.fset_elems(fb)) {
            x.iter().all(|t| y.contains(t)) && (!strict || x.len() < y.len())
        } else if let (Some(x), Some(y)) = (self.fbag_pairs(fa), self.fbag_pairs(fb)) {
            let sub = x
                .iter()
                .all(|(t, n)| y.iter().any(|(u, m)| u == t && n <= m));
            sub && (!strict || fa != fb)
        } else {
            return Ok(None);
        };
        Ok(Some(store.bool_term(r)))
    }

    /// Normalises `f[x -> v]`: drops updates that change nothing, merges updates of one
    /// argument, and orders updates of distinct value arguments, so equal functions built
    /// by updates in different orders get one normal form.
    fn func_update(
        &mut self,
        h: TermId,
        f: TermId,
        x: TermId,
        v: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        if let Some((u, [g, y, w])) = store.as_func_app(f) {
            if self.kind(u) == Kind::Op(Op::FuncUpdate) {
                let (g, y, w) = (*g, *y, *w);
                match self.decide_eq(x, y) {
                    Some(true) => {
                        return Ok(Some(match self.func_update(h, g, x, v)? {
                            Some(r) => r,
                            None => store.app(h, &[g, x, v]),
                        }))
                    }
                    Some(false) if self.term_cmp(x, y) == Ordering::Less => {
                        let inner = match self.func_update(h, g, x, v)? {
                            Some(r) => r,
                            None => store.app(h, &[g, x, v]),
                        };
                        return Ok(Some(store.app(h, &[inner, y, w])));
                    }
                    _ => {}
                }
            }
        }
        if self.is_value(x) {
            let fx = self.apply(f, &[x])?;
            if fx == v {
                return Ok(Some(f));
            }
        }
        Ok(None)
    }
}

fn elem(s: &Sort) -> Sort {
    match s {
        Sort::List(e) | Sort::Set(e) | Sort::FSet(e) | Sort::Bag(e) | Sort::FBag(e) => {
            (**e).clone()
        }
        other => other.clone(),
    }
}

#[allow(dead_code)]
fn _keep(_: BigInt) -> Option<i64> {
    BigInt::zero().to_i64()
}

#[cfg(test)]
mod tests {
    use super::*;

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
