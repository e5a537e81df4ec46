//! Type checking of sorts, data declarations and data expressions: from the untyped AST
//! ([`crate::syntax::ast`]) to the typed data IR ([`crate::data::ir`]).
//!
//! The algorithm follows mCRL2's: sorts are resolved with aliases expanded; an expression's
//! possible sorts are first computed bottom-up (`Checker::synth`) — numbers, `[]`, `{}`
//! and enumerations stay flexible — and then elaborated top-down against the sort the
//! context needs ([`Checker::check`]). Overloaded functions are resolved by their argument
//! sorts with the numeric subsorting `Pos < Nat < Int < Real`: among the signatures the
//! arguments fit (possibly after upcasts), the most specific one wins, and mCRL2's
//! ambiguity is reported when there is no single most specific one. Upcasts are inserted
//! explicitly (`Pos2Nat`, …), numbers get the sort the context needs.
//!
//! Errors are collected (several per file) and returned as one [`Diagnostics`].

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::Arc;

use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode};
use num_bigint::BigInt;
use thiserror::Error;

use crate::data::builtins::{self, SortPat};
use crate::data::ir::{
    Binder, DataExpr, DataSpec, Equation, Func, FuncDecl, Name, Sort, SortDecl, SortDef,
    StructCons, StructField, Var,
};
use crate::data::print::sort_to_string;
use crate::source::{SourceFile, Span};
use crate::syntax::{ast, SyntaxError};

// ---------------------------------------------------------------------------------------
// Diagnostics
// ---------------------------------------------------------------------------------------

/// One type error: a message, the offending span with a label, and an optional hint.
#[derive(Debug, Clone, Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(code(muon::typecheck))]
pub struct TypeError {
    /// What is wrong.
    pub message: String,
    /// The label under the span.
    pub label: String,
    /// A hint such as "did you mean `x`?".
    #[help]
    pub help: Option<String>,
    /// The offending span (for miette).
    #[label("{label}")]
    pub at: miette::SourceSpan,
    /// The offending span.
    pub span: Span,
    /// 1-based line of the span's start.
    pub line: usize,
    /// 1-based column of the span's start.
    pub col: usize,
}

/// All errors found in one input file (or the syntax error that stopped parsing it).
#[derive(Debug)]
pub struct Diagnostics {
    inner: Box<DiagInner>,
}

#[derive(Debug)]
struct DiagInner {
    file: String,
    src: NamedSource<Arc<str>>,
    errors: Vec<TypeError>,
    syntax: Option<SyntaxError>,
}

impl Diagnostics {
    /// Diagnostics for type errors in `src`.
    pub fn new(src: &SourceFile, errors: Vec<TypeError>) -> Diagnostics {
        Diagnostics {
            inner: Box::new(DiagInner {
                file: src.name.clone(),
                src: src.named_source(),
                errors,
                syntax: None,
            }),
        }
    }

    /// Diagnostics wrapping a syntax error.
    pub fn from_syntax(src: &SourceFile, e: SyntaxError) -> Diagnostics {
        Diagnostics {
            inner: Box::new(DiagInner {
                file: src.name.clone(),
                src: src.named_source(),
                errors: Vec::new(),
                syntax: Some(e),
            }),
        }
    }

    /// The type errors (empty for a syntax error).
    pub fn errors(&self) -> &[TypeError] {
        &self.inner.errors
    }

    /// The syntax error, if parsing failed.
    pub fn syntax_error(&self) -> Option<&SyntaxError> {
        self.inner.syntax.as_ref()
    }

    /// Every problem as `(line, column, message)`, for tests and terse output.
    pub fn messages(&self) -> Vec<(usize, usize, String)> {
        if let Some(s) = &self.inner.syntax {
            let (l, c) = s.line_col();
            return vec![(l, c, s.message().to_string())];
        }
        self.inner
            .errors
            .iter()
            .map(|e| (e.line, e.col, e.message.clone()))
            .collect()
    }

    /// The file the problems are in.
    pub fn file(&self) -> &str {
        &self.inner.file
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.inner.syntax {
            let (l, c) = s.line_col();
            return write!(f, "{}:{l}:{c}: {}", self.inner.file, s.message());
        }
        match self.inner.errors.as_slice() {
            [e] => write!(f, "{}:{}:{}: {}", self.inner.file, e.line, e.col, e.message),
            es => write!(f, "{}: {} type errors", self.inner.file, es.len()),
        }
    }
}

impl std::error::Error for Diagnostics {}

impl Diagnostic for Diagnostics {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match &self.inner.syntax {
            Some(s) => s.code(),
            None => Some(Box::new("muon::typecheck")),
        }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match (&self.inner.syntax, self.inner.errors.as_slice()) {
            (Some(s), _) => s.help(),
            (None, [e]) => e
                .help
                .as_ref()
                .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>),
            _ => None,
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.inner.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        match (&self.inner.syntax, self.inner.errors.as_slice()) {
            (Some(s), _) => s.labels(),
            (None, [e]) => Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
                Some(e.label.clone()),
                e.span,
            )))),
            _ => None,
        }
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.inner.syntax.is_some() || self.inner.errors.len() < 2 {
            return None;
        }
        Some(Box::new(
            self.inner.errors.iter().map(|e| e as &dyn Diagnostic),
        ))
    }
}

/// Marker: an error was recorded in the checker's error list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reported;

/// Result of a checking step whose errors are already recorded.
pub type Res<T> = Result<T, Reported>;

/// Edit distance (on characters) counting insertions, deletions, substitutions and swaps of
/// adjacent characters (optimal string alignment), for "did you mean" hints.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, x) in d.iter_mut().enumerate().take(w) {
        *x = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a plausible typo.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| {
            let d = if c.to_lowercase() == lower {
                0
            } else {
                edit_distance(name, c)
            };
            (d, c)
        })
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c.to_string())
}

/// "did you mean `x`?" for the closest candidate.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(name, candidates).map(|c| format!("did you mean `{c}`?"))
}

// ---------------------------------------------------------------------------------------
// Sorts with holes: what bottom-up inference knows about an expression
// ---------------------------------------------------------------------------------------

/// A sort as inferred bottom-up: like [`Sort`], but parts may still be open (`Hole`) and
/// literals (`[…]`, `{…}`) may still choose their container and element sorts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Ty {
    Bool,
    Pos,
    Nat,
    Int,
    Real,
    Named(Name),
    List(Box<Ty>),
    Set(Box<Ty>),
    FSet(Box<Ty>),
    Bag(Box<Ty>),
    FBag(Box<Ty>),
    Arrow(Vec<Ty>, Box<Ty>),
    /// Any sort.
    Hole,
    /// A list enumeration or `[]`: `List(T)` for any `T` its elements fit.
    ListLit(Box<Ty>),
    /// A set enumeration or `{}` (`true` when empty): `Set(T)` or `FSet(T)`; the empty one
    /// also a bag (older mCRL2 wrote `{}` for the empty bag).
    SetLit(Box<Ty>, bool),
    /// A bag enumeration or `{:}`: `Bag(T)` or `FBag(T)`.
    BagLit(Box<Ty>),
}

impl Ty {
    pub(crate) fn of(s: &Sort) -> Ty {
        match s {
            Sort::Bool => Ty::Bool,
            Sort::Pos => Ty::Pos,
            Sort::Nat => Ty::Nat,
            Sort::Int => Ty::Int,
            Sort::Real => Ty::Real,
            Sort::Named(n) => Ty::Named(n.clone()),
            Sort::List(s) => Ty::List(Box::new(Ty::of(s))),
            Sort::Set(s) => Ty::Set(Box::new(Ty::of(s))),
            Sort::FSet(s) => Ty::FSet(Box::new(Ty::of(s))),
            Sort::Bag(s) => Ty::Bag(Box::new(Ty::of(s))),
            Sort::FBag(s) => Ty::FBag(Box::new(Ty::of(s))),
            Sort::Arrow(d, c) => Ty::Arrow(d.iter().map(Ty::of).collect(), Box::new(Ty::of(c))),
        }
    }

    /// The sort, choosing defaults for literals (`FSet`, `FBag`); `None` if a hole remains.
    pub(crate) fn to_sort(&self) -> Option<Sort> {
        Some(match self {
            Ty::Bool => Sort::Bool,
            Ty::Pos => Sort::Pos,
            Ty::Nat => Sort::Nat,
            Ty::Int => Sort::Int,
            Ty::Real => Sort::Real,
            Ty::Named(n) => Sort::Named(n.clone()),
            Ty::List(s) | Ty::ListLit(s) => Sort::List(Box::new(s.to_sort()?)),
            Ty::Set(s) => Sort::Set(Box::new(s.to_sort()?)),
            Ty::FSet(s) | Ty::SetLit(s, _) => Sort::FSet(Box::new(s.to_sort()?)),
            Ty::Bag(s) => Sort::Bag(Box::new(s.to_sort()?)),
            Ty::FBag(s) | Ty::BagLit(s) => Sort::FBag(Box::new(s.to_sort()?)),
            Ty::Arrow(d, c) => Sort::Arrow(
                d.iter().map(Ty::to_sort).collect::<Option<_>>()?,
                Box::new(c.to_sort()?),
            ),
            Ty::Hole => return None,
        })
    }

    fn num_rank(&self) -> Option<u8> {
        match self {
            Ty::Pos => Some(0),
            Ty::Nat => Some(1),
            Ty::Int => Some(2),
            Ty::Real => Some(3),
            _ => None,
        }
    }

    fn has_hole(&self) -> bool {
        match self {
            Ty::Hole => true,
            Ty::List(s)
            | Ty::Set(s)
            | Ty::FSet(s)
            | Ty::Bag(s)
            | Ty::FBag(s)
            | Ty::ListLit(s)
            | Ty::SetLit(s, _)
            | Ty::BagLit(s) => s.has_hole(),
            Ty::Arrow(d, c) => d.iter().any(Ty::has_hole) || c.has_hole(),
            _ => false,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => f.write_str("Bool"),
            Ty::Pos => f.write_str("Pos"),
            Ty::Nat => f.write_str("Nat"),
            Ty::Int => f.write_str("Int"),
            Ty::Real => f.write_str("Real"),
            Ty::Named(n) => f.write_str(n),
            Ty::List(s) | Ty::ListLit(s) => write!(f, "List({s})"),
            Ty::Set(s) => write!(f, "Set({s})"),
            Ty::FSet(s) => write!(f, "FSet({s})"),
            Ty::SetLit(s, _) => write!(f, "FSet({s})"),
            Ty::Bag(s) => write!(f, "Bag({s})"),
            Ty::FBag(s) | Ty::BagLit(s) => write!(f, "FBag({s})"),
            Ty::Arrow(d, c) => {
                for (i, s) in d.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" # ")?;
                    }
                    if matches!(s, Ty::Arrow(..)) {
                        write!(f, "({s})")?;
                    } else {
                        write!(f, "{s}")?;
                    }
                }
                write!(f, " -> {c}")
            }
            Ty::Hole => f.write_str("?"),
        }
    }
}

/// Whether an expression of (inferred) sort `a` can be used where `b` is needed, possibly
/// after a numeric upcast or by choosing a literal's sort. `compat` also lets an empty `{}`
/// be a bag.
fn fits(a: &Ty, b: &Ty, compat: bool) -> bool {
    match (a, b) {
        (Ty::Hole, _) | (_, Ty::Hole) => true,
        _ if a.num_rank().is_some() && b.num_rank().is_some() => a.num_rank() <= b.num_rank(),
        (Ty::ListLit(x), Ty::List(y) | Ty::ListLit(y)) => fits(x, y, compat),
        (Ty::SetLit(x, _), Ty::Set(y) | Ty::FSet(y) | Ty::SetLit(y, _)) => fits(x, y, compat),
        (Ty::SetLit(_, true), Ty::Bag(_) | Ty::FBag(_) | Ty::BagLit(_)) => compat,
        (Ty::BagLit(x), Ty::Bag(y) | Ty::FBag(y) | Ty::BagLit(y)) => fits(x, y, compat),
        // mCRL2 converts finite sets and bags where sets and bags are needed.
        (Ty::FSet(x), Ty::Set(y)) | (Ty::FBag(x), Ty::Bag(y)) => unify(x, y).is_some(),
        _ => unify(a, b).is_some(),
    }
}

/// `fits`, but also with numeric widening inside container sorts (List(Pos) where
/// List(Nat) is needed): only for choosing an instance whose arguments are then checked
/// top-down, never to accept an expression by itself.
fn fits_widened(a: &Ty, b: &Ty) -> bool {
    if fits(a, b, false) {
        return true;
    }
    match (a, b) {
        (Ty::List(x) | Ty::ListLit(x), Ty::List(y))
        | (Ty::Set(x) | Ty::FSet(x) | Ty::SetLit(x, _), Ty::Set(y) | Ty::FSet(y))
        | (Ty::Bag(x) | Ty::FBag(x) | Ty::BagLit(x), Ty::Bag(y) | Ty::FBag(y)) => {
            fits_widened(x, y)
        }
        _ => false,
    }
}

/// The common sort of two rigid positions (equal up to holes and literal choices).
fn unify(a: &Ty, b: &Ty) -> Option<Ty> {
    Some(match (a, b) {
        (Ty::Hole, x) | (x, Ty::Hole) => x.clone(),
        (Ty::ListLit(x), Ty::List(y)) | (Ty::List(y), Ty::ListLit(x)) => {
            fits(x, y, false).then(|| Ty::List(y.clone()))?
        }
        (Ty::SetLit(x, _), Ty::Set(y)) | (Ty::Set(y), Ty::SetLit(x, _)) => {
            fits(x, y, false).then(|| Ty::Set(y.clone()))?
        }
        (Ty::SetLit(x, _), Ty::FSet(y)) | (Ty::FSet(y), Ty::SetLit(x, _)) => {
            fits(x, y, false).then(|| Ty::FSet(y.clone()))?
        }
        (Ty::BagLit(x), Ty::Bag(y)) | (Ty::Bag(y), Ty::BagLit(x)) => {
            fits(x, y, false).then(|| Ty::Bag(y.clone()))?
        }
        (Ty::BagLit(x), Ty::FBag(y)) | (Ty::FBag(y), Ty::BagLit(x)) => {
            fits(x, y, false).then(|| Ty::FBag(y.clone()))?
        }
        (Ty::ListLit(x), Ty::ListLit(y)) => Ty::ListLit(Box::new(join(x, y)?)),
        (Ty::SetLit(x, ex), Ty::SetLit(y, ey)) => Ty::SetLit(Box::new(join(x, y)?), *ex && *ey),
        (Ty::BagLit(x), Ty::BagLit(y)) => Ty::BagLit(Box::new(join(x, y)?)),
        (Ty::List(x), Ty::List(y)) => Ty::List(Box::new(unify(x, y)?)),
        (Ty::Set(x), Ty::Set(y)) => Ty::Set(Box::new(unify(x, y)?)),
        (Ty::FSet(x), Ty::FSet(y)) => Ty::FSet(Box::new(unify(x, y)?)),
        (Ty::Bag(x), Ty::Bag(y)) => Ty::Bag(Box::new(unify(x, y)?)),
        (Ty::FBag(x), Ty::FBag(y)) => Ty::FBag(Box::new(unify(x, y)?)),
        (Ty::Arrow(d1, c1), Ty::Arrow(d2, c2)) if d1.len() == d2.len() => Ty::Arrow(
            d1.iter()
                .zip(d2)
                .map(|(x, y)| unify(x, y))
                .collect::<Option<_>>()?,
            Box::new(unify(c1, c2)?),
        ),
        (x, y) if x == y => x.clone(),
        _ => return None,
    })
}

/// The least sort both `a` and `b` fit (numeric maximum; literal choices; else unify).
fn join(a: &Ty, b: &Ty) -> Option<Ty> {
    match (a.num_rank(), b.num_rank()) {
        (Some(x), Some(y)) => Some(if x >= y { a.clone() } else { b.clone() }),
        _ => unify(a, b),
    }
}

/// Whether `a` is at least as specific as `b` (for choosing among overloads).
fn more_specific(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        _ if a.num_rank().is_some() && b.num_rank().is_some() => a.num_rank() <= b.num_rank(),
        (Ty::FSet(x), Ty::Set(y)) | (Ty::FBag(x), Ty::Bag(y)) => unify(x, y).is_some(),
        (Ty::Set(x) | Ty::FSet(x), Ty::Bag(y) | Ty::FBag(y)) => unify(x, y).is_some(),
        _ => unify(a, b).is_some(),
    }
}

/// Instantiates a built-in pattern with (possibly open) sort parameters.
fn inst_pat(p: &SortPat, params: &[Ty]) -> Ty {
    match p {
        SortPat::Bool => Ty::Bool,
        SortPat::Pos => Ty::Pos,
        SortPat::Nat => Ty::Nat,
        SortPat::Int => Ty::Int,
        SortPat::Real => Ty::Real,
        SortPat::Param(i) => params.get(*i as usize).cloned().unwrap_or(Ty::Hole),
        SortPat::List(s) => Ty::List(Box::new(inst_pat(s, params))),
        SortPat::Set(s) => Ty::Set(Box::new(inst_pat(s, params))),
        SortPat::FSet(s) => Ty::FSet(Box::new(inst_pat(s, params))),
        SortPat::Bag(s) => Ty::Bag(Box::new(inst_pat(s, params))),
        SortPat::FBag(s) => Ty::FBag(Box::new(inst_pat(s, params))),
        SortPat::Arrow(d, c) => Ty::Arrow(
            d.iter().map(|s| inst_pat(s, params)).collect(),
            Box::new(inst_pat(c, params)),
        ),
    }
}

/// Constraints on one sort parameter gathered from the arguments.
#[derive(Default)]
struct ParamConstraint {
    /// Sorts it must equal (positions inside non-literal containers).
    exact: Vec<Ty>,
    /// Sorts it must be at least (top-level arguments, literal elements).
    lower: Vec<Ty>,
}

/// Gathers constraints for the parameters of `pat` from an argument of sort `ty`; false if
/// the shapes cannot match.
fn gather(pat: &SortPat, ty: &Ty, rigid: bool, cs: &mut Vec<ParamConstraint>) -> bool {
    match (pat, ty) {
        (SortPat::Param(i), t) => {
            let i = *i as usize;
            if cs.len() <= i {
                cs.resize_with(i + 1, ParamConstraint::default);
            }
            if *t != Ty::Hole {
                if rigid {
                    cs[i].exact.push(t.clone());
                } else {
                    cs[i].lower.push(t.clone());
                }
            }
            true
        }
        (_, Ty::Hole) => true,
        (SortPat::List(p), Ty::List(t)) => gather(p, t, true, cs),
        (SortPat::List(p), Ty::ListLit(t)) => gather(p, t, false, cs),
        (SortPat::Set(p), Ty::Set(t) | Ty::FSet(t)) | (SortPat::FSet(p), Ty::FSet(t)) => {
            gather(p, t, true, cs)
        }
        (SortPat::Set(p) | SortPat::FSet(p), Ty::SetLit(t, _)) => gather(p, t, false, cs),
        (SortPat::Bag(_) | SortPat::FBag(_), Ty::SetLit(_, true)) => true,
        (SortPat::Bag(p), Ty::Bag(t) | Ty::FBag(t)) | (SortPat::FBag(p), Ty::FBag(t)) => {
            gather(p, t, true, cs)
        }
        (SortPat::Bag(p) | SortPat::FBag(p), Ty::BagLit(t)) => gather(p, t, false, cs),
        (SortPat::Arrow(pd, pc), Ty::Arrow(td, tc)) => {
            pd.len() == td.len()
                && pd.iter().zip(td).all(|(p, t)| gather(p, t, true, cs))
                && gather(pc, tc, true, cs)
        }
        (SortPat::Bool, _)
        | (SortPat::Pos, _)
        | (SortPat::Nat, _)
        | (SortPat::Int, _)
        | (SortPat::Real, _) => true,
        _ => false,
    }
}

/// Solves the gathered constraints: each parameter is the common exact sort, or the join of
/// its lower bounds, or open.
fn solve(cs: &[ParamConstraint], n: usize) -> Option<Vec<Ty>> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let Some(c) = cs.get(i) else {
            out.push(Ty::Hole);
            continue;
        };
        let mut lower = Ty::Hole;
        for t in &c.lower {
            lower = join(&lower, t)?;
        }
        if c.exact.is_empty() {
            out.push(lower);
        } else {
            let mut exact = Ty::Hole;
            for t in &c.exact {
                exact = unify(&exact, t)?;
            }
            if !fits(&lower, &exact, false) {
                return None;
            }
            out.push(exact);
        }
    }
    Some(out)
}

// ---------------------------------------------------------------------------------------
// The checker
// ---------------------------------------------------------------------------------------

/// What a sort name stands for.
#[derive(Clone, Debug)]
enum SortEntry {
    /// A basic or struct sort: `Sort::Named`.
    Named,
    /// A resolved alias.
    Alias(Sort),
    /// An alias not yet resolved.
    Pending(ast::SortExpr),
}

/// A candidate signature of an overloaded name.
#[derive(Clone, Debug)]
enum Cand {
    /// A user function (or struct function) with its concrete sort.
    User(Func),
    /// A built-in signature.
    Builtin(&'static builtins::BuiltinSig),
    /// A local variable of function sort.
    Var(Var),
}

/// A candidate with its parameter and result sorts fixed as far as the arguments allow.
#[derive(Clone, Debug)]
struct Inst {
    cand: Cand,
    /// Sort parameters (built-ins only).
    sort_params: Vec<Ty>,
    params: Vec<Ty>,
    result: Ty,
}

/// The type checker's state: declarations in scope, local variables, and collected errors.
pub struct Checker<'s> {
    src: &'s SourceFile,
    /// Errors so far.
    pub(crate) errors: Vec<TypeError>,
    sorts: HashMap<Name, SortEntry>,
    /// User functions by name: constructors, mappings, struct functions.
    funcs: HashMap<Name, Vec<Func>>,
    /// Local variables, innermost last.
    scope: Vec<Var>,
    /// The data specification being built.
    pub(crate) data: DataSpec,
    anon_structs: usize,
    /// Names whose declaration had an error already reported: their uses stay silent.
    pub(crate) broken: HashSet<Name>,
    /// Bottom-up results per expression node (address, span, scope depth): top-down
    /// elaboration asks again for every subexpression, which would otherwise be
    /// exponential in the nesting of binders and applications.
    synth_cache: HashMap<(usize, u32, u32, usize), Res<Vec<Ty>>>,
}

impl<'s> Checker<'s> {
    /// An empty checker (only built-ins) for `src`.
    pub fn new(src: &'s SourceFile) -> Checker<'s> {
        Checker {
            src,
            errors: Vec::new(),
            sorts: HashMap::new(),
            funcs: HashMap::new(),
            scope: Vec::new(),
            data: DataSpec::default(),
            anon_structs: 0,
            broken: HashSet::new(),
            synth_cache: HashMap::new(),
        }
    }

    /// A checker that knows the declarations of an already checked data specification
    /// (its own output `Checker::data` starts empty).
    pub fn with_data(src: &'s SourceFile, data: &DataSpec) -> Checker<'s> {
        let mut c = Checker::new(src);
        for d in &data.sorts {
            c.sorts.insert(d.name.clone(), SortEntry::Named);
            c.register_struct_funcs(d);
        }
        for (n, s) in &data.aliases {
            c.sorts.insert(n.clone(), SortEntry::Alias(s.clone()));
        }
        for f in data.constructors.iter().chain(&data.mappings) {
            c.add_func(f.func.clone());
        }
        c.anon_structs = data
            .sorts
            .iter()
            .filter(|d| d.name.starts_with('@'))
            .count();
        c
    }

    /// The source file being checked.
    pub fn source(&self) -> &SourceFile {
        self.src
    }

    /// Records an error.
    pub(crate) fn error(
        &mut self,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
        help: Option<String>,
    ) -> Reported {
        let message = message.into();
        // Expressions are visited twice (inference, then checking): report a problem once.
        if self
            .errors
            .iter()
            .any(|e| e.span == span && e.message == message)
        {
            return Reported;
        }
        let (line, col) = span.line_col(&self.src.text);
        self.errors.push(TypeError {
            message,
            label: label.into(),
            help,
            at: span.into(),
            span,
            line,
            col,
        });
        Reported
    }

    /// Finishes: the value if no error was recorded, else the diagnostics.
    pub fn finish<T>(self, value: Option<T>) -> Result<T, Diagnostics> {
        match value {
            Some(v) if self.errors.is_empty() => Ok(v),
            _ => {
                let mut errors = self.errors;
                if errors.is_empty() {
                    // Defensive: a failure must always come with a message.
                    let (line, col) = (1, 1);
                    errors.push(TypeError {
                        message: "type checking failed".into(),
                        label: "here".into(),
                        help: None,
                        at: Span::default().into(),
                        span: Span::default(),
                        line,
                        col,
                    });
                }
                errors.sort_by_key(|e| (e.span.start, e.span.end));
                Err(Diagnostics::new(self.src, errors))
            }
        }
    }

    fn add_func(&mut self, f: Func) {
        let v = self.funcs.entry(f.name.clone()).or_default();
        if !v.contains(&f) {
            v.push(f);
        }
    }

    /// Pushes local variables (innermost last); returns the previous scope depth.
    pub(crate) fn push_vars(&mut self, vars: &[Var]) -> usize {
        let d = self.scope.len();
        self.scope.extend(vars.iter().cloned());
        d
    }

    /// Restores the scope depth returned by [`Checker::push_vars`].
    pub(crate) fn pop_vars(&mut self, depth: usize) {
        self.scope.truncate(depth);
    }

    /// The innermost local variable named `name`.
    pub(crate) fn lookup_var(&self, name: &str) -> Option<&Var> {
        self.scope.iter().rev().find(|v| &*v.name == name)
    }

    /// Whether `name` is a data name in scope (variable, user function or built-in).
    pub(crate) fn is_data_name(&self, name: &str) -> bool {
        self.lookup_var(name).is_some()
            || self.funcs.contains_key(name)
            || builtins::is_builtin(name)
    }

    fn data_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.scope.iter().map(|v| &*v.name).collect();
        v.extend(self.funcs.keys().map(|k| &**k));
        v.extend(
            builtins::all()
                .iter()
                .map(|s| s.name)
                .filter(|n| n.chars().next().is_some_and(|c| c.is_alphabetic())),
        );
        v
    }

    // -----------------------------------------------------------------------------------
    // Sorts
    // -----------------------------------------------------------------------------------

    /// Declares the sorts of a list of declarations: all sort names first, then aliases and
    /// structs resolved (so declaration order does not matter).
    pub fn declare_sorts(&mut self, decls: &[&ast::SortDecl]) {
        let mut structs = Vec::new();
        let mut pending = Vec::new();
        // The first definition of each name declared here: mCRL2 accepts a sort declared
        // again identically (Treiber_DCAS: `sort ID = struct p1 | p2;` twice) as one sort.
        let mut first: HashMap<&Name, &Option<ast::SortExpr>> = HashMap::new();
        for d in decls {
            let n = &d.name.name;
            let same = |a: &Option<ast::SortExpr>, b: &Option<ast::SortExpr>| match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => a.same_as(b),
                _ => false,
            };
            if first.get(n).is_some_and(|prev| same(prev, &d.def)) {
                continue;
            }
            first.entry(n).or_insert(&d.def);
            if self.sorts.contains_key(n) {
                self.error(
                    d.name.span,
                    format!("sort `{n}` is declared twice"),
                    "declared again here",
                    None,
                );
                continue;
            }
            match &d.def {
                None => {
                    self.sorts.insert(n.clone(), SortEntry::Named);
                    self.data.sorts.push(SortDecl {
                        name: n.clone(),
                        def: SortDef::Basic,
                        span: d.span,
                    });
                }
                Some(ast::SortExpr {
                    kind: ast::SortExprKind::Struct(conss),
                    ..
                }) => {
                    self.sorts.insert(n.clone(), SortEntry::Named);
                    structs.push((n.clone(), conss, d.span));
                }
                Some(e) => {
                    self.sorts.insert(n.clone(), SortEntry::Pending(e.clone()));
                    pending.push((n.clone(), d.span));
                }
            }
        }
        for (n, span) in pending {
            let mut visiting = vec![n.clone()];
            if let Ok(s) = self.resolve_alias(&n, span, &mut visiting) {
                self.data.aliases.push((n, s));
            }
        }
        for (n, conss, span) in structs {
            self.define_struct(n, conss, span);
        }
    }

    fn resolve_alias(&mut self, n: &Name, span: Span, visiting: &mut Vec<Name>) -> Res<Sort> {
        match self.sorts.get(n).cloned() {
            Some(SortEntry::Named) => Ok(Sort::Named(n.clone())),
            Some(SortEntry::Alias(s)) => Ok(s),
            Some(SortEntry::Pending(e)) => {
                let r = self.resolve_sort_in(&e, visiting);
                match &r {
                    Ok(s) => {
                        self.sorts.insert(n.clone(), SortEntry::Alias(s.clone()));
                    }
                    Err(_) => {
                        // Keep later uses from reporting the same problem again.
                        self.sorts
                            .insert(n.clone(), SortEntry::Alias(Sort::Named(n.clone())));
                    }
                }
                r
            }
            None => Err(self.error(span, format!("unknown sort `{n}`"), "not declared", None)),
        }
    }

    fn define_struct(&mut self, name: Name, conss: &[ast::ConstrDecl], span: Span) {
        let mut out = Vec::new();
        for c in conss {
            self.check_function_name(&c.name, "constructor");
            for p in c.fields.iter().filter_map(|f| f.projection.as_ref()) {
                self.check_function_name(p, "projection");
            }
            if let Some(r) = &c.recogniser {
                self.check_function_name(r, "recogniser");
            }
            let mut fields = Vec::new();
            for f in &c.fields {
                let sort = self.resolve_sort(&f.sort).unwrap_or(Sort::Bool);
                fields.push(StructField {
                    projection: f.projection.as_ref().map(|p| p.name.clone()),
                    sort,
                });
            }
            out.push(StructCons {
                name: c.name.name.clone(),
                fields,
                recogniser: c.recogniser.as_ref().map(|r| r.name.clone()),
            });
        }
        let decl = SortDecl {
            name,
            def: SortDef::Struct(out),
            span,
        };
        self.register_struct_funcs(&decl);
        self.data.sorts.push(decl);
    }

    fn register_struct_funcs(&mut self, d: &SortDecl) {
        let SortDef::Struct(conss) = &d.def else {
            return;
        };
        let me = Sort::Named(d.name.clone());
        for c in conss {
            let sort = if c.fields.is_empty() {
                me.clone()
            } else {
                Sort::Arrow(
                    c.fields.iter().map(|f| f.sort.clone()).collect(),
                    Box::new(me.clone()),
                )
            };
            self.add_func(Func {
                name: c.name.clone(),
                sort,
            });
            for f in &c.fields {
                if let Some(p) = &f.projection {
                    self.add_func(Func {
                        name: p.clone(),
                        sort: Sort::Arrow(vec![me.clone()], Box::new(f.sort.clone())),
                    });
                }
            }
            if let Some(r) = &c.recogniser {
                self.add_func(Func {
                    name: r.clone(),
                    sort: Sort::Arrow(vec![me.clone()], Box::new(Sort::Bool)),
                });
            }
        }
    }

    /// Resolves a sort expression (aliases expanded; anonymous structs get a name).
    pub fn resolve_sort(&mut self, e: &ast::SortExpr) -> Res<Sort> {
        self.resolve_sort_in(e, &mut Vec::new())
    }

    fn resolve_sort_in(&mut self, e: &ast::SortExpr, visiting: &mut Vec<Name>) -> Res<Sort> {
        use ast::SortExprKind as K;
        Ok(match &e.kind {
            K::Bool => Sort::Bool,
            K::Pos => Sort::Pos,
            K::Nat => Sort::Nat,
            K::Int => Sort::Int,
            K::Real => Sort::Real,
            K::List(s) => Sort::List(Box::new(self.resolve_sort_in(s, visiting)?)),
            K::Set(s) => Sort::Set(Box::new(self.resolve_sort_in(s, visiting)?)),
            K::FSet(s) => Sort::FSet(Box::new(self.resolve_sort_in(s, visiting)?)),
            K::Bag(s) => Sort::Bag(Box::new(self.resolve_sort_in(s, visiting)?)),
            K::FBag(s) => Sort::FBag(Box::new(self.resolve_sort_in(s, visiting)?)),
            K::Arrow(d, c) => {
                let mut dom = Vec::new();
                let mut bad = false;
                for s in d {
                    match self.resolve_sort_in(s, visiting) {
                        Ok(s) => dom.push(s),
                        Err(_) => bad = true,
                    }
                }
                let c = self.resolve_sort_in(c, visiting)?;
                if bad {
                    return Err(Reported);
                }
                Sort::Arrow(dom, Box::new(c))
            }
            K::Struct(conss) => {
                self.anon_structs += 1;
                let name: Name = format!("@struct{}", self.anon_structs).into();
                self.sorts.insert(name.clone(), SortEntry::Named);
                self.define_struct(name.clone(), conss, e.span);
                Sort::Named(name)
            }
            K::Id(n) => {
                if let Some(SortEntry::Pending(_)) = self.sorts.get(n) {
                    if let Some(pos) = visiting.iter().position(|v| v == n) {
                        let mut cycle: Vec<&str> = visiting[pos..].iter().map(|v| &**v).collect();
                        cycle.push(n);
                        let msg = format!("sort aliases form a cycle: {}", cycle.join(" -> "));
                        return Err(self.error(
                            e.span,
                            msg,
                            "refers back to itself",
                            Some("an alias must eventually name a basic, struct or built-in sort; use `struct` for recursive sorts".into()),
                        ));
                    }
                    visiting.push(n.clone());
                    let r = self.resolve_alias(n, e.span, visiting);
                    visiting.pop();
                    return r;
                }
                match self.sorts.get(n) {
                    Some(SortEntry::Named) => Sort::Named(n.clone()),
                    Some(SortEntry::Alias(s)) => s.clone(),
                    _ => {
                        let mut names: Vec<&str> = self.sorts.keys().map(|k| &**k).collect();
                        names.extend([
                            "Bool", "Pos", "Nat", "Int", "Real", "List", "Set", "FSet", "Bag",
                            "FBag",
                        ]);
                        let help = did_you_mean(n, names);
                        return Err(self.error(
                            e.span,
                            format!("unknown sort `{n}`"),
                            "not declared",
                            help,
                        ));
                    }
                }
            }
        })
    }

    /// Resolves variable declarations into typed variables.
    pub fn resolve_vars(&mut self, decls: &[ast::VarDecl]) -> Res<Vec<Var>> {
        super::names::check_var_names(self, decls);
        let mut out = Vec::new();
        let mut bad = false;
        for d in decls {
            match self.resolve_sort(&d.sort) {
                Ok(sort) => out.push(Var {
                    name: d.name.name.clone(),
                    sort,
                }),
                Err(_) => bad = true,
            }
        }
        if bad {
            Err(Reported)
        } else {
            Ok(out)
        }
    }

    // -----------------------------------------------------------------------------------
    // Declarations
    // -----------------------------------------------------------------------------------

    /// Declares the data part of a list of declarations: sorts, `cons`, `map`, then checks
    /// the equations. Other declarations are ignored here.
    pub fn declare_data(&mut self, decls: &[ast::Decl]) {
        let sorts: Vec<&ast::SortDecl> = decls
            .iter()
            .filter_map(|d| match d {
                ast::Decl::Sort(s) => Some(s),
                _ => None,
            })
            .collect();
        self.declare_sorts(&sorts);
        for d in decls {
            let (f, is_cons) = match d {
                ast::Decl::Cons(f) => (f, true),
                ast::Decl::Map(f) => (f, false),
                _ => continue,
            };
            self.check_function_name(&f.name, if is_cons { "constructor" } else { "map" });
            let Ok(sort) = self.resolve_sort(&f.sort) else {
                self.broken.insert(f.name.name.clone());
                continue;
            };
            let func = Func {
                name: f.name.name.clone(),
                sort,
            };
            if is_cons && matches!(func.sort.codomain(), Sort::Arrow(..)) {
                self.error(
                    f.span,
                    format!(
                        "constructor `{}` must produce a data sort, not a function",
                        func.name
                    ),
                    "function-valued constructor",
                    None,
                );
                continue;
            }
            // As mCRL2: the built-in number and Boolean sorts have fixed constructors that the
            // rewriter and enumerator rely on (`cons N: Pos; eqn N = 3;` would leave `n < N`
            // stuck).
            if is_cons
                && matches!(
                    func.sort.codomain(),
                    Sort::Bool | Sort::Pos | Sort::Nat | Sort::Int | Sort::Real
                )
            {
                self.error(
                    f.span,
                    format!(
                        "constructor `{}` of the built-in sort {}: constructors of built-in \
                         sorts are not allowed",
                        func.name,
                        sort_to_string(func.sort.codomain())
                    ),
                    "constructor of a built-in sort",
                    Some(format!(
                        "declare `{}` with `map` instead of `cons`",
                        func.name
                    )),
                );
                self.broken.insert(func.name.clone());
                continue;
            }
            if self
                .funcs
                .get(&func.name)
                .is_some_and(|v| v.contains(&func))
            {
                // mCRL2 accepts a declaration repeated identically (software_models/
                // Treiber_DCAS repeats `map N: Nat;`): one function, declared once.
                let earlier_cons = self.data.constructors.iter().any(|c| c.func == func);
                let earlier_map = self.data.mappings.iter().any(|c| c.func == func);
                if (is_cons && earlier_cons) || (!is_cons && earlier_map) {
                    continue;
                }
                self.error(
                    f.name.span,
                    format!(
                        "`{}: {}` is declared twice",
                        func.name,
                        sort_to_string(&func.sort)
                    ),
                    "declared again here",
                    None,
                );
                continue;
            }
            self.add_func(func.clone());
            let fd = FuncDecl { func, span: f.span };
            if is_cons {
                self.data.constructors.push(fd);
            } else {
                self.data.mappings.push(fd);
            }
        }
        for d in decls {
            if let ast::Decl::Eqns(sec) = d {
                self.check_eqn_section(sec);
            }
        }
    }

    /// Reports a declared function that reuses a built-in function's name, which mCRL2
    /// rejects ("Attempt to redeclare a system function"); the declaration is still used.
    fn check_function_name(&mut self, id: &ast::Ident, kind: &str) {
        if let Some(b) = super::names::builtin_named(&id.name) {
            self.error(
                id.span,
                format!("the {kind} `{}` redeclares the built-in function {b}", id.name),
                "a built-in function's name",
                Some(format!("rename the {kind}: mCRL2 does not let a declared function reuse a built-in name")),
            );
        }
    }

    fn check_eqn_section(&mut self, sec: &ast::EqnSection) {
        let Ok(vars) = self.resolve_vars(&sec.vars) else {
            return;
        };
        let mut seen = HashSet::new();
        for v in &sec.vars {
            if !seen.insert(&v.name.name) {
                self.error(
                    v.name.span,
                    format!(
                        "variable `{}` is declared twice in this `var` section",
                        v.name.name
                    ),
                    "declared again here",
                    None,
                );
            }
        }
        for eq in &sec.eqns {
            let depth = self.push_vars(&vars);
            let r = self.check_equation(eq, &vars);
            self.pop_vars(depth);
            if let Ok(e) = r {
                self.data.equations.push(e);
            }
        }
    }

    fn check_equation(&mut self, eq: &ast::EqnDecl, vars: &[Var]) -> Res<Equation> {
        let condition = eq
            .condition
            .as_ref()
            .map(|c| self.check(c, Some(&Sort::Bool)));
        let lhs_alts = self.synth(&eq.lhs)?;
        let sort = if lhs_alts.len() == 1 {
            self.default_sort(&lhs_alts[0], &eq.lhs)?
        } else {
            // Overloaded by result: let the right-hand side decide.
            let rhs_alts = self.synth(&eq.rhs)?;
            let mut chosen = None;
            for a in &lhs_alts {
                if let Some(s) = a.to_sort() {
                    if rhs_alts.iter().any(|r| fits(r, a, false)) {
                        chosen = Some(s);
                        break;
                    }
                }
            }
            match chosen {
                Some(s) => s,
                None => self.default_sort(&lhs_alts[0], &eq.lhs)?,
            }
        };
        let lhs = self.check(&eq.lhs, Some(&sort));
        let rhs = self.check(&eq.rhs, Some(&sort));
        let condition = condition.transpose()?;
        let lhs = lhs?;
        let rhs = rhs?;
        if matches!(lhs, DataExpr::Var(_)) {
            return Err(self.error(
                eq.lhs.span,
                "the left-hand side of an equation cannot be a variable",
                "a variable",
                Some("an equation defines a function: write `f(x) = …`".into()),
            ));
        }
        // A rewrite rule can only produce what its left-hand side binds.
        let mut in_lhs = HashSet::new();
        free_vars(&lhs, &mut Vec::new(), &mut in_lhs);
        let mut used = HashSet::new();
        free_vars(&rhs, &mut Vec::new(), &mut used);
        if let Some(c) = &condition {
            free_vars(c, &mut Vec::new(), &mut used);
        }
        let mut missing: Vec<&Var> = used.difference(&in_lhs).collect();
        missing.sort();
        if let Some(v) = missing.first() {
            let names: Vec<&str> = missing.iter().map(|v| &*v.name).collect();
            return Err(self.error(
                eq.span,
                format!(
                    "variable{} `{}` of the right-hand side or condition do{} not occur in the left-hand side",
                    if names.len() == 1 { "" } else { "s" },
                    names.join("`, `"),
                    if names.len() == 1 { "es" } else { "" }
                ),
                format!("`{}` is not bound by the left-hand side", v.name),
                Some("every variable of an equation must occur in its left-hand side".into()),
            ));
        }
        // Only variables that occur somewhere matter to consumers; keep the section's.
        Ok(Equation {
            vars: vars.to_vec(),
            condition,
            lhs,
            rhs,
            span: eq.span,
        })
    }

    /// The concrete sort of a bottom-up result, or an error that the context does not fix it.
    fn default_sort(&mut self, t: &Ty, e: &ast::DataExpr) -> Res<Sort> {
        match t.to_sort() {
            Some(s) => Ok(s),
            None => Err(self.error(
                e.span,
                "cannot determine the sort of this expression",
                format!("could be any {t}"),
                Some("add a typed variable or a sort annotation through a mapping".into()),
            )),
        }
    }

    // -----------------------------------------------------------------------------------
    // Expressions: candidates and overload resolution
    // -----------------------------------------------------------------------------------

    /// All candidates for name `name` applied to `arity` arguments (`None`: not applied).
    fn candidates(&self, name: &str, arity: Option<usize>) -> Vec<Cand> {
        if let Some(v) = self.lookup_var(name) {
            // A variable hides functions of the same name, except where it cannot be meant:
            // applied to arguments it does not take (mCRL2 then falls back to the functions,
            // e.g. a projection `fset(p)` next to a variable `fset: Set(D)`).
            let applicable = match arity {
                Some(n) => v.sort.domain().len() == n,
                None => true,
            };
            if applicable || !self.funcs.contains_key(name) && !builtins::is_builtin(name) {
                return vec![Cand::Var(v.clone())];
            }
        }
        let mut out = Vec::new();
        if let Some(fs) = self.funcs.get(name) {
            for f in fs {
                match arity {
                    Some(n) if f.sort.domain().len() != n => {}
                    _ => out.push(Cand::User(f.clone())),
                }
            }
        }
        for s in builtins::signatures(name) {
            match arity {
                Some(n) if s.params.len() != n => {}
                None if s.name == "[]" || s.name == "{}" || s.name == "{:}" => {}
                _ => out.push(Cand::Builtin(s)),
            }
        }
        out
    }

    /// Instantiates a built-in candidate by solving its sort parameters from the expected
    /// result sort alone; `None` unless every parameter is fixed and the arguments fit.
    fn instantiate_for_result(&self, cand: &Cand, args: &[Vec<Ty>], exp: &Sort) -> Option<Inst> {
        let Cand::Builtin(s) = cand else { return None };
        if s.params.len() != args.len() || s.sort_params() == 0 {
            return None;
        }
        let mut cs = Vec::new();
        if !gather(&s.result, &Ty::of(exp), true, &mut cs) {
            return None;
        }
        let sp = solve(&cs, s.sort_params())?;
        if sp.iter().any(Ty::has_hole) {
            return None;
        }
        let params: Vec<Ty> = s.params.iter().map(|p| inst_pat(p, &sp)).collect();
        // Numbers may widen inside containers here: the arguments are checked top-down
        // against `params` afterwards, which accepts only what can be re-typed (literals).
        let fits_all = params
            .iter()
            .zip(args)
            .all(|(p, alts)| alts.iter().any(|a| fits_widened(a, p)));
        fits_all.then(|| Inst {
            cand: cand.clone(),
            result: inst_pat(&s.result, &sp),
            sort_params: sp,
            params,
        })
    }

    /// Instantiates a candidate against argument sorts (alternatives per argument): one
    /// instance per distinct way the arguments fix a built-in's sort parameters.
    fn instantiate(&self, cand: &Cand, args: &[Vec<Ty>], compat: bool) -> Vec<Inst> {
        let fits_all = |params: &[Ty]| {
            params.len() == args.len()
                && params
                    .iter()
                    .zip(args)
                    .all(|(p, alts)| alts.iter().any(|a| fits(a, p, compat)))
        };
        let concrete = |sort: &Sort| {
            let params: Vec<Ty> = sort.domain().iter().map(Ty::of).collect();
            let result = Ty::of(sort.codomain());
            fits_all(&params).then(|| Inst {
                cand: cand.clone(),
                sort_params: Vec::new(),
                params,
                result,
            })
        };
        match cand {
            Cand::User(f) => concrete(&f.sort).into_iter().collect(),
            Cand::Var(v) => concrete(&v.sort).into_iter().collect(),
            Cand::Builtin(s) => {
                if s.params.len() != args.len() {
                    return Vec::new();
                }
                let n = s.sort_params();
                let mut out: Vec<Inst> = Vec::new();
                for choice in alternatives_product(args) {
                    let mut cs = Vec::new();
                    if !s
                        .params
                        .iter()
                        .zip(&choice)
                        .all(|(p, t)| gather(p, t, false, &mut cs))
                    {
                        continue;
                    }
                    let Some(sp) = solve(&cs, n) else { continue };
                    if out.iter().any(|i| i.sort_params == sp) {
                        continue;
                    }
                    let params: Vec<Ty> = s.params.iter().map(|p| inst_pat(p, &sp)).collect();
                    if !fits_all(&params) {
                        continue;
                    }
                    let result = inst_pat(&s.result, &sp);
                    out.push(Inst {
                        cand: cand.clone(),
                        sort_params: sp,
                        params,
                        result,
                    });
                }
                out
            }
        }
    }

    /// The most specific viable instances (several when incomparable or differing only in
    /// their result sort).
    fn resolve(&self, cands: &[Cand], args: &[Vec<Ty>], expected: Option<&Sort>) -> Vec<Inst> {
        let mut viable: Vec<Inst> = cands
            .iter()
            .flat_map(|c| self.instantiate(c, args, false))
            .collect();
        if viable.is_empty() {
            viable = cands
                .iter()
                .flat_map(|c| self.instantiate(c, args, true))
                .collect();
        }
        if let Some(exp) = expected {
            let e = Ty::of(exp);
            let matching: Vec<Inst> = viable
                .iter()
                .filter(|i| fits(&i.result, &e, false))
                .cloned()
                .collect();
            if !matching.is_empty() {
                viable = matching;
            } else {
                // The arguments alone fixed a built-in's sort parameters to a sort that does
                // not fit (`[1, 2] ++ [3]` is a List(Pos)); as mCRL2, let the expected result
                // fix them instead when the arguments (literals) fit that instance too.
                let directed: Vec<Inst> = cands
                    .iter()
                    .filter_map(|c| self.instantiate_for_result(c, args, exp))
                    .collect();
                if !directed.is_empty() {
                    viable = directed;
                }
            }
        }
        let best: Vec<Inst> = viable
            .iter()
            .filter(|a| {
                viable.iter().all(|b| {
                    a.params
                        .iter()
                        .zip(&b.params)
                        .all(|(x, y)| more_specific(x, y))
                })
            })
            .cloned()
            .collect();
        if !best.is_empty() {
            // A user declaration of exactly a built-in's sort is the same function symbol.
            let mut uniq: Vec<Inst> = Vec::new();
            for i in best {
                if !uniq
                    .iter()
                    .any(|u| u.params == i.params && u.result == i.result && !i.result.has_hole())
                {
                    uniq.push(i);
                }
            }
            return uniq;
        }
        // No single most specific one: keep those not strictly dominated.
        viable
            .iter()
            .filter(|a| {
                !viable.iter().any(|b| {
                    b.params
                        .iter()
                        .zip(&a.params)
                        .all(|(x, y)| more_specific(x, y))
                        && !a
                            .params
                            .iter()
                            .zip(&b.params)
                            .all(|(x, y)| more_specific(x, y))
                })
            })
            .cloned()
            .collect()
    }

    // -----------------------------------------------------------------------------------
    // Bottom-up: possible sorts
    // -----------------------------------------------------------------------------------

    /// The possible sorts of `e` (usually one), computed bottom-up; errors are recorded
    /// (once: the result is remembered for the node).
    pub(crate) fn synth(&mut self, e: &ast::DataExpr) -> Res<Vec<Ty>> {
        let key = (
            e as *const ast::DataExpr as usize,
            e.span.start,
            e.span.end,
            self.scope.len(),
        );
        if let Some(r) = self.synth_cache.get(&key) {
            return r.clone();
        }
        let r = self.synth_uncached(e);
        self.synth_cache.insert(key, r.clone());
        r
    }

    /// Forgets remembered bottom-up results (the expressions they belong to are gone).
    pub(crate) fn clear_cache(&mut self) {
        self.synth_cache.clear();
    }

    fn synth_uncached(&mut self, e: &ast::DataExpr) -> Res<Vec<Ty>> {
        use ast::DataExprKind as K;
        Ok(match &e.kind {
            K::True | K::False => vec![Ty::Bool],
            K::Number(digits) => vec![if digits.chars().all(|c| c == '0') {
                Ty::Nat
            } else {
                Ty::Pos
            }],
            K::Id(name) => {
                let cands = self.candidates(name, None);
                if cands.is_empty() {
                    return Err(self.unknown_name(name, e.span));
                }
                let mut out = Vec::new();
                for c in cands {
                    let t = match c {
                        Cand::User(f) => Ty::of(&f.sort),
                        Cand::Var(v) => Ty::of(&v.sort),
                        Cand::Builtin(s) => {
                            let holes = vec![Ty::Hole; s.sort_params()];
                            inst_pat(&s.sort_pattern(), &holes)
                        }
                    };
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
                out
            }
            K::App { head, args } => {
                let arg_tys = self.synth_args(args)?;
                let insts = self.app_insts(head, &arg_tys, None, e.span)?;
                dedup(insts.into_iter().map(|i| i.result).collect())
            }
            K::Unary { op, arg } => {
                let arg_tys = vec![self.synth(arg)?];
                let cands = self.candidates(op.symbol(), Some(1));
                let insts = self.resolve(&cands, &arg_tys, None);
                self.check_insts(op.symbol(), &insts, &arg_tys, e.span)?;
                dedup(insts.into_iter().map(|i| i.result).collect())
            }
            K::Binary { op, lhs, rhs } => {
                let l = self.synth(lhs);
                let r = self.synth(rhs);
                let arg_tys = vec![l?, r?];
                let cands = self.candidates(op.symbol(), Some(2));
                let insts = self.resolve(&cands, &arg_tys, None);
                self.check_insts(op.symbol(), &insts, &arg_tys, e.span)?;
                dedup(insts.into_iter().map(|i| i.result).collect())
            }
            K::ListEnum(elems) => vec![Ty::ListLit(Box::new(self.synth_elems(elems)?))],
            K::SetEnum(elems) => vec![Ty::SetLit(
                Box::new(self.synth_elems(elems)?),
                elems.is_empty(),
            )],
            K::BagEnum(elems) => {
                let mut t = Ty::Hole;
                let mut bad = false;
                for (x, n) in elems {
                    match self.synth(x) {
                        Ok(alts) => match join(&t, &alts[0]) {
                            Some(j) => t = j,
                            None => {
                                bad = true;
                                self.error(
                                    x.span,
                                    format!(
                                        "bag elements have different sorts: {t} and {}",
                                        alts[0]
                                    ),
                                    "does not match the earlier elements",
                                    None,
                                );
                            }
                        },
                        Err(_) => bad = true,
                    }
                    if self.check(n, Some(&Sort::Nat)).is_err() {
                        bad = true;
                    }
                }
                if bad {
                    return Err(Reported);
                }
                vec![Ty::BagLit(Box::new(t))]
            }
            K::Comprehension { var, body } => {
                let vars = self.resolve_vars(std::slice::from_ref(var))?;
                let d = self.push_vars(&vars);
                let b = self.synth(body);
                self.pop_vars(d);
                let b = b?;
                let s = Box::new(Ty::of(&vars[0].sort));
                if b.contains(&Ty::Bool) {
                    vec![Ty::Set(s)]
                } else if b.iter().any(|t| fits(t, &Ty::Nat, false)) {
                    vec![Ty::Bag(s)]
                } else {
                    return Err(self.error(
                        body.span,
                        format!("the body of a comprehension must be a Bool (set) or a Nat (bag), not {}", b[0]),
                        "neither Bool nor Nat",
                        None,
                    ));
                }
            }
            K::Binder { kind, vars, body } => {
                let vars = self.binder_vars(vars)?;
                let d = self.push_vars(&vars);
                let b = match kind {
                    ast::BinderKind::Lambda => self.synth(body),
                    _ => self.check(body, Some(&Sort::Bool)).map(|_| vec![Ty::Bool]),
                };
                self.pop_vars(d);
                let b = b?;
                match kind {
                    ast::BinderKind::Lambda => b
                        .into_iter()
                        .map(|t| {
                            Ty::Arrow(vars.iter().map(|v| Ty::of(&v.sort)).collect(), Box::new(t))
                        })
                        .collect(),
                    _ => vec![Ty::Bool],
                }
            }
            K::Whr { body, defs } => {
                let mut vars = Vec::new();
                for a in defs {
                    let alts = self.synth(&a.value)?;
                    let s = self.default_sort(&alts[0], &a.value)?;
                    vars.push(Var {
                        name: a.name.name.clone(),
                        sort: s,
                    });
                }
                let d = self.push_vars(&vars);
                let b = self.synth(body);
                self.pop_vars(d);
                b?
            }
            K::Update { func, arg, value } => {
                let f = self.synth(func)?;
                let mut out = Vec::new();
                for t in f {
                    if let Ty::Arrow(d, _) = &t {
                        if d.len() == 1 {
                            out.push(t.clone());
                        }
                    }
                }
                if out.is_empty() {
                    return Err(self.error(
                        func.span,
                        "only a function of one argument can be updated with `f[x -> v]`",
                        "not a unary function",
                        None,
                    ));
                }
                let _ = (arg, value);
                out
            }
        })
    }

    fn synth_args(&mut self, args: &[ast::DataExpr]) -> Res<Vec<Vec<Ty>>> {
        let mut out = Vec::new();
        let mut bad = false;
        for a in args {
            match self.synth(a) {
                Ok(t) => out.push(t),
                Err(_) => bad = true,
            }
        }
        if bad {
            Err(Reported)
        } else {
            Ok(out)
        }
    }

    fn synth_elems(&mut self, elems: &[ast::DataExpr]) -> Res<Ty> {
        let mut t = Ty::Hole;
        let mut bad = false;
        for x in elems {
            match self.synth(x) {
                Ok(alts) => {
                    let pick = alts.iter().find_map(|a| join(&t, a));
                    match pick {
                        Some(j) => t = j,
                        None => {
                            bad = true;
                            self.error(
                                x.span,
                                format!("elements have different sorts: {t} and {}", alts[0]),
                                "does not match the earlier elements",
                                None,
                            );
                        }
                    }
                }
                Err(_) => bad = true,
            }
        }
        if bad {
            Err(Reported)
        } else {
            Ok(t)
        }
    }

    /// Resolves the variables of a binder, reporting duplicates.
    pub(crate) fn binder_vars(&mut self, decls: &[ast::VarDecl]) -> Res<Vec<Var>> {
        let vars = self.resolve_vars(decls)?;
        let mut seen = HashSet::new();
        for d in decls {
            if !seen.insert(&d.name.name) {
                return Err(self.error(
                    d.name.span,
                    format!("variable `{}` is bound twice", d.name.name),
                    "bound again here",
                    None,
                ));
            }
        }
        Ok(vars)
    }

    /// Candidates of an application head, resolved against the argument sorts.
    fn app_insts(
        &mut self,
        head: &ast::DataExpr,
        arg_tys: &[Vec<Ty>],
        expected: Option<&Sort>,
        span: Span,
    ) -> Res<Vec<Inst>> {
        let n = arg_tys.len();
        let (cands, what) = match &head.kind {
            ast::DataExprKind::Id(name) => {
                let c = self.candidates(name, Some(n));
                if c.is_empty() {
                    let all = self.candidates(name, None);
                    if all.is_empty() {
                        return Err(self.unknown_name(name, head.span));
                    }
                    let arities: Vec<String> = all.iter().map(cand_sort_str).collect();
                    return Err(self.error(
                        head.span,
                        format!("`{name}` is not a function of {n} argument{}", plural(n)),
                        format!("applied to {n} argument{}", plural(n)),
                        Some(format!("`{name}` has sort {}", arities.join(", "))),
                    ));
                }
                (c, name.to_string())
            }
            _ => {
                let hs = self.synth(head)?;
                let mut c = Vec::new();
                for t in hs {
                    if let Some(s) = t.to_sort() {
                        if s.domain().len() == n {
                            c.push(Cand::Var(Var {
                                name: "@head".into(),
                                sort: s,
                            }));
                        }
                    }
                }
                if c.is_empty() {
                    return Err(self.error(
                        head.span,
                        format!(
                            "this expression is not a function of {n} argument{}",
                            plural(n)
                        ),
                        "applied here",
                        None,
                    ));
                }
                (c, "this function".to_string())
            }
        };
        let insts = self.resolve(&cands, arg_tys, expected);
        self.check_insts(&what, &insts, arg_tys, span)?;
        Ok(insts)
    }

    /// Reports no-match and ambiguity for a resolved application.
    fn check_insts(
        &mut self,
        name: &str,
        insts: &[Inst],
        arg_tys: &[Vec<Ty>],
        span: Span,
    ) -> Res<()> {
        if insts.is_empty() {
            let args: Vec<String> = arg_tys.iter().map(|a| alts_str(a)).collect();
            let cands = self.candidates(name, Some(arg_tys.len()));
            let help = if cands.is_empty() {
                None
            } else {
                let mut sigs: Vec<String> = cands.iter().map(cand_sort_str).collect();
                sigs.dedup();
                if sigs.len() > 6 {
                    sigs.truncate(6);
                    sigs.push("…".into());
                }
                Some(format!(
                    "`{name}` is declared with sort {}",
                    sigs.join(", ")
                ))
            };
            return Err(self.error(
                span,
                format!(
                    "no `{name}` takes arguments of sort{} {}",
                    if args.len() == 1 { "" } else { "s" },
                    args.join(" # ")
                ),
                "sort mismatch",
                help,
            ));
        }
        Ok(())
    }

    fn unknown_name(&mut self, name: &str, span: Span) -> Reported {
        if self.broken.contains(name) {
            return Reported;
        }
        let help = did_you_mean(name, self.data_names());
        self.error(
            span,
            format!("unknown name `{name}`"),
            "not a variable, function or constructor in scope",
            help,
        )
    }

    // -----------------------------------------------------------------------------------
    // Top-down: elaboration
    // -----------------------------------------------------------------------------------

    /// Type-checks `e` against the sort the context needs (`None`: whatever it is, which
    /// must then be unambiguous) and returns the typed expression.
    pub fn check(&mut self, e: &ast::DataExpr, expected: Option<&Sort>) -> Res<DataExpr> {
        use ast::DataExprKind as K;
        match &e.kind {
            K::True | K::False => {
                let v = matches!(e.kind, K::True);
                let x = DataExpr::Func(Func {
                    name: if v { "true" } else { "false" }.into(),
                    sort: Sort::Bool,
                });
                self.coerce(x, expected, e.span)
            }
            K::Number(digits) => {
                let value: BigInt = digits.parse().map_err(|_| {
                    self.error(e.span, "malformed number", "not a decimal number", None)
                })?;
                let zero = value == BigInt::from(0);
                let min = if zero { Sort::Nat } else { Sort::Pos };
                let sort = match expected {
                    Some(s) if s.is_numeric() => {
                        if rank(&min) <= rank(s) {
                            s.clone()
                        } else {
                            return Err(self.error(
                                e.span,
                                format!("`{digits}` is not a {}", sort_to_string(s)),
                                format!("expected {}", sort_to_string(s)),
                                None,
                            ));
                        }
                    }
                    Some(s) => {
                        return Err(self.mismatch(e.span, s, &Ty::of(&min)));
                    }
                    None => min,
                };
                Ok(DataExpr::Number { value, sort })
            }
            K::Id(name) => self.check_id(name, e.span, expected),
            K::App { head, args } => {
                let arg_tys = self.synth_args(args)?;
                let insts = self.app_insts(head, &arg_tys, expected, e.span)?;
                let inst = self.pick(insts, &arg_tys, expected, e.span, head_name(head))?;
                let head_expr = match (&head.kind, &inst.cand) {
                    (ast::DataExprKind::Id(_), _) => None,
                    (_, Cand::Var(v)) => {
                        let hs = v.sort.clone();
                        Some(self.check(head, Some(&hs))?)
                    }
                    _ => None,
                };
                let args: Vec<&ast::DataExpr> = args.iter().collect();
                self.finish_app(head_expr, &inst, &args, expected, e.span)
            }
            K::Unary { op, arg } => {
                let arg_tys = vec![self.synth(arg)?];
                let cands = self.candidates(op.symbol(), Some(1));
                let insts = self.resolve(&cands, &arg_tys, expected);
                self.check_insts(op.symbol(), &insts, &arg_tys, e.span)?;
                let inst = self.pick(insts, &arg_tys, expected, e.span, Some(op.symbol()))?;
                self.finish_app(None, &inst, &[&**arg], expected, e.span)
            }
            K::Binary { op, lhs, rhs } => {
                let l = self.synth(lhs);
                let r = self.synth(rhs);
                let arg_tys = vec![l?, r?];
                let cands = self.candidates(op.symbol(), Some(2));
                let insts = self.resolve(&cands, &arg_tys, expected);
                self.check_insts(op.symbol(), &insts, &arg_tys, e.span)?;
                let inst = self.pick(insts, &arg_tys, expected, e.span, Some(op.symbol()))?;
                self.finish_app(None, &inst, &[&**lhs, &**rhs], expected, e.span)
            }
            K::ListEnum(elems) => {
                let t = self.synth_elems(elems)?;
                let elem = match expected {
                    Some(Sort::List(s)) => (**s).clone(),
                    Some(s) => return Err(self.mismatch(e.span, s, &Ty::ListLit(Box::new(t)))),
                    None => match t.to_sort() {
                        Some(s) => s,
                        None => {
                            return Err(self.error(
                                e.span,
                                "cannot determine the element sort of this list",
                                "empty list without context",
                                Some("use it where a list of known sort is expected".into()),
                            ))
                        }
                    },
                };
                let sort = Sort::List(Box::new(elem.clone()));
                if elems.is_empty() {
                    return Ok(DataExpr::Func(Func {
                        name: "[]".into(),
                        sort,
                    }));
                }
                let elems = self.check_all(elems, &elem)?;
                Ok(DataExpr::ListEnum { elems, sort })
            }
            K::SetEnum(elems) => {
                let t = self.synth_elems(elems)?;
                let sort = match expected {
                    Some(s @ (Sort::Set(_) | Sort::FSet(_))) => s.clone(),
                    Some(s @ (Sort::Bag(_) | Sort::FBag(_))) if elems.is_empty() => {
                        return Ok(DataExpr::Func(Func {
                            name: "{:}".into(),
                            sort: s.clone(),
                        }));
                    }
                    Some(s) => {
                        return Err(self.mismatch(
                            e.span,
                            s,
                            &Ty::SetLit(Box::new(t), elems.is_empty()),
                        ))
                    }
                    None => match t.to_sort() {
                        Some(s) => Sort::FSet(Box::new(s)),
                        None => {
                            return Err(self.error(
                                e.span,
                                "cannot determine the element sort of this set",
                                "empty set without context",
                                Some("use it where a set of known sort is expected".into()),
                            ))
                        }
                    },
                };
                if elems.is_empty() {
                    return Ok(DataExpr::Func(Func {
                        name: "{}".into(),
                        sort,
                    }));
                }
                let elem = elem_sort(&sort);
                let elems = self.check_all(elems, &elem)?;
                Ok(DataExpr::SetEnum { elems, sort })
            }
            K::BagEnum(pairs) => {
                let t = match self.synth(e)?.pop() {
                    Some(Ty::BagLit(t)) => *t,
                    _ => Ty::Hole,
                };
                let sort = match expected {
                    Some(s @ (Sort::Bag(_) | Sort::FBag(_))) => s.clone(),
                    Some(s) => return Err(self.mismatch(e.span, s, &Ty::BagLit(Box::new(t)))),
                    None => match t.to_sort() {
                        Some(s) => Sort::FBag(Box::new(s)),
                        None => {
                            return Err(self.error(
                                e.span,
                                "cannot determine the element sort of this bag",
                                "empty bag without context",
                                Some("use it where a bag of known sort is expected".into()),
                            ))
                        }
                    },
                };
                if pairs.is_empty() {
                    return Ok(DataExpr::Func(Func {
                        name: "{:}".into(),
                        sort,
                    }));
                }
                let elem = elem_sort(&sort);
                let mut out = Vec::new();
                let mut bad = false;
                for (x, n) in pairs {
                    let x = self.check(x, Some(&elem));
                    let n = self.check(n, Some(&Sort::Nat));
                    match (x, n) {
                        (Ok(x), Ok(n)) => out.push((x, n)),
                        _ => bad = true,
                    }
                }
                if bad {
                    return Err(Reported);
                }
                Ok(DataExpr::BagEnum { elems: out, sort })
            }
            K::Comprehension { var, body } => {
                let vars = self.resolve_vars(std::slice::from_ref(var))?;
                let alts = self.synth(e)?;
                let is_set = matches!(alts.first(), Some(Ty::Set(_)));
                let d = self.push_vars(&vars);
                let b = if is_set {
                    self.check(body, Some(&Sort::Bool))
                } else {
                    self.check(body, Some(&Sort::Nat))
                };
                self.pop_vars(d);
                let body = Box::new(b?);
                let kind = if is_set {
                    Binder::SetComprehension
                } else {
                    Binder::BagComprehension
                };
                let x = DataExpr::Binder { kind, vars, body };
                self.coerce(x, expected, e.span)
            }
            K::Binder { kind, vars, body } => {
                let vars = self.binder_vars(vars)?;
                let d = self.push_vars(&vars);
                let r = match kind {
                    ast::BinderKind::Lambda => {
                        let body_exp = match expected {
                            Some(Sort::Arrow(dom, cod))
                                if dom.len() == vars.len()
                                    && dom.iter().zip(&vars).all(|(s, v)| *s == v.sort) =>
                            {
                                Some((**cod).clone())
                            }
                            _ => None,
                        };
                        self.check(body, body_exp.as_ref())
                            .map(|b| DataExpr::Binder {
                                kind: Binder::Lambda,
                                vars: vars.clone(),
                                body: Box::new(b),
                            })
                    }
                    k => self
                        .check(body, Some(&Sort::Bool))
                        .map(|b| DataExpr::Binder {
                            kind: if *k == ast::BinderKind::Forall {
                                Binder::Forall
                            } else {
                                Binder::Exists
                            },
                            vars: vars.clone(),
                            body: Box::new(b),
                        }),
                };
                self.pop_vars(d);
                let x = r?;
                self.coerce(x, expected, e.span)
            }
            K::Whr { body, defs } => {
                let mut out = Vec::new();
                let mut vars = Vec::new();
                let mut bad = false;
                for a in defs {
                    super::names::check_var_name(self, &a.name);
                    let r = self
                        .synth(&a.value)
                        .and_then(|alts| self.default_sort(&alts[0], &a.value))
                        .and_then(|s| self.check(&a.value, Some(&s)).map(|x| (s, x)));
                    match r {
                        Ok((s, x)) => {
                            let v = Var {
                                name: a.name.name.clone(),
                                sort: s,
                            };
                            vars.push(v.clone());
                            out.push((v, x));
                        }
                        Err(_) => bad = true,
                    }
                }
                if bad {
                    return Err(Reported);
                }
                let d = self.push_vars(&vars);
                let b = self.check(body, expected);
                self.pop_vars(d);
                Ok(DataExpr::Whr {
                    body: Box::new(b?),
                    defs: out,
                })
            }
            K::Update { func, arg, value } => {
                let alts = self.synth(e)?;
                let want = expected.map(Ty::of);
                let pick = alts
                    .iter()
                    .find(|t| want.as_ref().is_none_or(|w| fits(t, w, false)))
                    .or(alts.first())
                    .cloned()
                    .unwrap_or(Ty::Hole);
                let Some(fs) = pick.to_sort() else {
                    return Err(self.error(
                        func.span,
                        "cannot determine the sort of this function",
                        "ambiguous",
                        None,
                    ));
                };
                let (d, c) = (fs.domain()[0].clone(), fs.codomain().clone());
                let f = self.check(func, Some(&fs));
                let a = self.check(arg, Some(&d));
                let v = self.check(value, Some(&c));
                let (f, a, v) = (f?, a?, v?);
                let upd = Func {
                    name: "@func_update".into(),
                    sort: Sort::Arrow(vec![fs.clone(), d, c], Box::new(fs)),
                };
                let x = DataExpr::App {
                    head: Box::new(DataExpr::Func(upd)),
                    args: vec![f, a, v],
                };
                self.coerce(x, expected, e.span)
            }
        }
    }

    fn check_all(&mut self, elems: &[ast::DataExpr], sort: &Sort) -> Res<Vec<DataExpr>> {
        let mut out = Vec::new();
        let mut bad = false;
        for x in elems {
            match self.check(x, Some(sort)) {
                Ok(x) => out.push(x),
                Err(_) => bad = true,
            }
        }
        if bad {
            Err(Reported)
        } else {
            Ok(out)
        }
    }

    fn check_id(&mut self, name: &Name, span: Span, expected: Option<&Sort>) -> Res<DataExpr> {
        let cands = self.candidates(name, None);
        if cands.is_empty() {
            return Err(self.unknown_name(name, span));
        }
        if let Some(Cand::Var(v)) = cands.first() {
            let x = DataExpr::Var(v.clone());
            return self.coerce(x, expected, span);
        }
        // Prefer a candidate of exactly the expected sort, then one that fits it.
        let mut exact = Vec::new();
        let mut fitting = Vec::new();
        for c in &cands {
            let f = match c {
                Cand::User(f) => Some(f.clone()),
                Cand::Builtin(s) => match expected {
                    Some(exp) => {
                        let mut b = Vec::new();
                        if s.sort_pattern().matches(exp, &mut b) {
                            let params: Vec<Sort> =
                                b.into_iter().map(|x| x.unwrap_or(Sort::Bool)).collect();
                            Some(s.instantiate(&params))
                        } else if s.sort_params() == 0 {
                            Some(s.instantiate(&[]))
                        } else {
                            None
                        }
                    }
                    None if s.sort_params() == 0 => Some(s.instantiate(&[])),
                    None => None,
                },
                Cand::Var(_) => None,
            };
            let Some(f) = f else { continue };
            match expected {
                Some(exp) if f.sort == *exp => exact.push(f),
                Some(exp) if fits(&Ty::of(&f.sort), &Ty::of(exp), false) => fitting.push(f),
                Some(_) => {}
                None => exact.push(f),
            }
        }
        let chosen = if !exact.is_empty() { exact } else { fitting };
        match chosen.as_slice() {
            [f] => {
                let x = DataExpr::Func(f.clone());
                self.coerce(x, expected, span)
            }
            [] => {
                let sorts: Vec<String> = cands.iter().map(cand_sort_str).collect();
                match expected {
                    Some(exp) => Err(self.error(
                        span,
                        format!("`{name}` does not have sort {}", sort_to_string(exp)),
                        format!("expected {}", sort_to_string(exp)),
                        Some(format!("`{name}` has sort {}", sorts.join(", "))),
                    )),
                    None => Err(self.error(
                        span,
                        format!("cannot determine which `{name}` is meant"),
                        "ambiguous",
                        Some(format!("`{name}` has sorts {}", sorts.join(", "))),
                    )),
                }
            }
            many => {
                let sorts: Vec<String> = many.iter().map(|f| sort_to_string(&f.sort)).collect();
                Err(self.error(
                    span,
                    format!("ambiguous use of `{name}`"),
                    "could be several declarations",
                    Some(format!("`{name}` could have sort {}", sorts.join(" or "))),
                ))
            }
        }
    }

    /// Chooses exactly one instance or reports the ambiguity.
    fn pick(
        &mut self,
        insts: Vec<Inst>,
        arg_tys: &[Vec<Ty>],
        expected: Option<&Sort>,
        span: Span,
        name: Option<&str>,
    ) -> Res<Inst> {
        let mut insts = insts;
        if insts.len() > 1 {
            if let Some(exp) = expected {
                let e = Ty::of(exp);
                let exact: Vec<Inst> = insts
                    .iter()
                    .filter(|i| unify(&i.result, &e).is_some())
                    .cloned()
                    .collect();
                if exact.len() == 1 {
                    insts = exact;
                }
            }
        }
        if insts.len() == 1 {
            return Ok(insts.pop().unwrap_or_else(unreachable_inst));
        }
        let name = name.unwrap_or("function");
        let sigs: Vec<String> = insts.iter().map(inst_str).collect();
        let args: Vec<String> = arg_tys.iter().map(|a| alts_str(a)).collect();
        Err(self.error(
            span,
            format!(
                "ambiguous application of `{name}` to arguments of sort {}",
                args.join(" # ")
            ),
            "several declarations fit equally well",
            Some(format!("candidates: {}", sigs.join("; "))),
        ))
    }

    /// Elaborates the arguments of a chosen instance and builds the application.
    fn finish_app(
        &mut self,
        head: Option<DataExpr>,
        inst: &Inst,
        args: &[&ast::DataExpr],
        expected: Option<&Sort>,
        span: Span,
    ) -> Res<DataExpr> {
        let (head, dom) = self.close_head(head, inst, expected, span)?;
        let mut out = Vec::new();
        let mut bad = false;
        for (a, s) in args.iter().zip(&dom) {
            match self.check(a, Some(s)) {
                Ok(x) => out.push(x),
                Err(_) => bad = true,
            }
        }
        if bad {
            return Err(Reported);
        }
        let x = DataExpr::App {
            head: Box::new(head),
            args: out,
        };
        self.coerce(x, expected, span)
    }

    /// Fixes the sort parameters still open after looking at the arguments from the
    /// expected sort; returns the head and its concrete domain.
    fn close_head(
        &mut self,
        head: Option<DataExpr>,
        inst: &Inst,
        expected: Option<&Sort>,
        span: Span,
    ) -> Res<(DataExpr, Vec<Sort>)> {
        if let Cand::Builtin(s) = &inst.cand {
            let mut sp = inst.sort_params.clone();
            if sp.iter().any(Ty::has_hole) {
                if let Some(exp) = expected {
                    // Bind open parameters from the expected result sort.
                    let mut cs = Vec::new();
                    if gather(&s.result, &Ty::of(exp), true, &mut cs) {
                        if let Some(from_exp) = solve(&cs, s.sort_params()) {
                            for (p, e) in sp.iter_mut().zip(from_exp) {
                                if let Some(u) = unify(p, &e) {
                                    *p = u;
                                }
                            }
                        }
                    }
                }
            }
            let mut params = Vec::new();
            for t in &sp {
                match t.to_sort() {
                    Some(x) => params.push(x),
                    None => {
                        return Err(self.error(
                            span,
                            format!("cannot determine the sort of this use of `{}`", s.name),
                            "element sort unknown",
                            Some(
                                "give an argument a known sort, e.g. through a typed variable"
                                    .into(),
                            ),
                        ))
                    }
                }
            }
            let f = s.instantiate(&params);
            let dom = f.sort.domain().to_vec();
            return Ok((DataExpr::Func(f), dom));
        }
        let head = match (head, &inst.cand) {
            (Some(h), _) => h,
            (None, Cand::User(f)) => DataExpr::Func(f.clone()),
            (None, Cand::Var(v)) => DataExpr::Var(v.clone()),
            (None, Cand::Builtin(_)) => return Err(Reported),
        };
        let dom = head.sort().domain().to_vec();
        Ok((head, dom))
    }

    fn mismatch(&mut self, span: Span, expected: &Sort, found: &Ty) -> Reported {
        self.error(
            span,
            format!(
                "expected an expression of sort {}, found {}",
                sort_to_string(expected),
                found
            ),
            format!("this has sort {found}"),
            conversion_hint(found, expected),
        )
    }

    /// Makes `x` have sort `expected`: nothing, a numeric upcast, or an error.
    fn coerce(&mut self, x: DataExpr, expected: Option<&Sort>, span: Span) -> Res<DataExpr> {
        let Some(exp) = expected else {
            return Ok(x);
        };
        let have = x.sort();
        if have == *exp {
            return Ok(x);
        }
        if let DataExpr::Number { value, sort } = &x {
            if sort.is_numeric() && exp.is_numeric() && rank(sort) <= rank(exp) {
                return Ok(DataExpr::Number {
                    value: value.clone(),
                    sort: exp.clone(),
                });
            }
        }
        if let Some(f) = builtins::upcast_func(&have, exp) {
            return Ok(DataExpr::App {
                head: Box::new(DataExpr::Func(f)),
                args: vec![x],
            });
        }
        Err(self.mismatch(span, exp, &Ty::of(&have)))
    }
}

impl Checker<'_> {
    /// Resolves `name(args)` against concrete overloads `sigs` (actions, processes):
    /// the most specific declaration whose sorts the arguments fit; returns its index and
    /// the typed arguments. `kind` names what is called in messages ("action", "process").
    pub fn resolve_overload(
        &mut self,
        kind: &str,
        name: &str,
        sigs: &[Vec<Sort>],
        args: &[ast::DataExpr],
        span: Span,
    ) -> Res<(usize, Vec<DataExpr>)> {
        let decls: Vec<String> = sigs.iter().map(|s| sorts_str(s)).collect();
        if !sigs.iter().any(|s| s.len() == args.len()) {
            let n = args.len();
            return Err(self.error(
                span,
                format!(
                    "{kind} `{name}` is not declared with {n} argument{}",
                    plural(n)
                ),
                format!("{n} argument{} given", plural(n)),
                Some(format!("`{name}` is declared with {}", decls.join(", "))),
            ));
        }
        let arg_tys = self.synth_args(args)?;
        let viable_with = |compat: bool| -> Vec<usize> {
            sigs.iter()
                .enumerate()
                .filter(|(_, s)| {
                    s.len() == args.len()
                        && s.iter()
                            .zip(&arg_tys)
                            .all(|(p, alts)| alts.iter().any(|a| fits(a, &Ty::of(p), compat)))
                })
                .map(|(i, _)| i)
                .collect()
        };
        // As for functions (`resolve`): an empty `{}` may stand for the empty bag, as in
        // mCRL2's own examples (`P_kl({})` with `P_kl(b: Bag(Nat))`), but only when no
        // declaration fits otherwise.
        let mut viable = viable_with(false);
        if viable.is_empty() {
            viable = viable_with(true);
        }
        if viable.is_empty() {
            // Bottom-up sorts are too rigid for built-ins over literals only (`[1, 2] ++ [3]`
            // is a List(Pos), but checking it against List(Nat) succeeds, as in mCRL2): try
            // each declaration top-down, keeping no diagnostics from the attempts.
            for (i, sig) in sigs.iter().enumerate() {
                if sig.len() != args.len() {
                    continue;
                }
                let before = self.errors.len();
                let ok = args
                    .iter()
                    .zip(sig)
                    .all(|(a, s)| self.check(a, Some(s)).is_ok());
                self.errors.truncate(before);
                if ok {
                    viable.push(i);
                }
            }
        }
        let found: Vec<String> = arg_tys.iter().map(|a| alts_str(a)).collect();
        if viable.is_empty() {
            let same_arity: Vec<&Vec<Sort>> =
                sigs.iter().filter(|s| s.len() == args.len()).collect();
            let mut help = format!("`{name}` is declared with {}", decls.join(", "));
            if let [sig] = same_arity.as_slice() {
                let hint = sig
                    .iter()
                    .zip(&arg_tys)
                    .filter(|(p, alts)| !alts.iter().any(|a| fits(a, &Ty::of(p), false)))
                    .find_map(|(p, alts)| alts.first().and_then(|a| conversion_hint(a, p)));
                if let Some(h) = hint {
                    help.push_str("; ");
                    help.push_str(&h);
                }
            }
            return Err(self.error(
                span,
                format!(
                    "no declaration of {kind} `{name}` accepts arguments of sort{} {}",
                    if found.len() == 1 { "" } else { "s" },
                    found.join(" # ")
                ),
                "sort mismatch",
                Some(help),
            ));
        }
        let best: Vec<usize> = viable
            .iter()
            .copied()
            .filter(|&a| {
                viable.iter().all(|&b| {
                    sigs[a]
                        .iter()
                        .zip(&sigs[b])
                        .all(|(x, y)| more_specific(&Ty::of(x), &Ty::of(y)))
                })
            })
            .collect();
        let [i] = best.as_slice() else {
            let c: Vec<String> = viable.iter().map(|&i| sorts_str(&sigs[i])).collect();
            return Err(self.error(
                span,
                format!(
                    "ambiguous {kind} `{name}` with arguments of sort {}",
                    found.join(" # ")
                ),
                "several declarations fit equally well",
                Some(format!("candidates: {}", c.join("; "))),
            ));
        };
        let i = *i;
        let mut out = Vec::new();
        let mut bad = false;
        for (a, s) in args.iter().zip(&sigs[i]) {
            match self.check(a, Some(s)) {
                Ok(x) => out.push(x),
                Err(_) => bad = true,
            }
        }
        if bad {
            return Err(Reported);
        }
        Ok((i, out))
    }

    /// The possible sorts of `e` as concrete sorts (those that are determined).
    pub fn possible_sorts(&mut self, e: &ast::DataExpr) -> Res<Vec<Sort>> {
        Ok(self.synth(e)?.iter().filter_map(Ty::to_sort).collect())
    }

    /// Whether an expression with possible sorts `alts` fits sort `s`.
    pub fn fits_sort(&mut self, e: &ast::DataExpr, s: &Sort) -> Res<bool> {
        let alts = self.synth(e)?;
        Ok(alts.iter().any(|a| fits(a, &Ty::of(s), false)))
    }

    /// Whether sort tuple `a` is at least as specific as `b` (pointwise subsorting).
    pub fn tuple_more_specific(a: &[Sort], b: &[Sort]) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| more_specific(&Ty::of(x), &Ty::of(y)))
    }

    /// The names of everything in data scope, for "did you mean" hints.
    pub fn scope_names(&self) -> Vec<String> {
        self.data_names().into_iter().map(String::from).collect()
    }
}

/// `S1 # … # Sn` (or `no arguments`).
pub fn sorts_str(s: &[Sort]) -> String {
    if s.is_empty() {
        "no arguments".into()
    } else {
        s.iter().map(sort_to_string).collect::<Vec<_>>().join(" # ")
    }
}

/// The free variables of `e` (not bound by an enclosing binder inside `e`).
fn free_vars(e: &DataExpr, bound: &mut Vec<Name>, out: &mut HashSet<Var>) {
    match e {
        DataExpr::Var(v) => {
            if !bound.contains(&v.name) {
                out.insert(v.clone());
            }
        }
        DataExpr::Func(_) | DataExpr::Number { .. } => {}
        DataExpr::App { head, args } => {
            free_vars(head, bound, out);
            for a in args {
                free_vars(a, bound, out);
            }
        }
        DataExpr::Binder { vars, body, .. } => {
            let d = bound.len();
            bound.extend(vars.iter().map(|v| v.name.clone()));
            free_vars(body, bound, out);
            bound.truncate(d);
        }
        DataExpr::Whr { body, defs } => {
            for (_, x) in defs {
                free_vars(x, bound, out);
            }
            let d = bound.len();
            bound.extend(defs.iter().map(|(v, _)| v.name.clone()));
            free_vars(body, bound, out);
            bound.truncate(d);
        }
        DataExpr::ListEnum { elems, .. } | DataExpr::SetEnum { elems, .. } => {
            for x in elems {
                free_vars(x, bound, out);
            }
        }
        DataExpr::BagEnum { elems, .. } => {
            for (x, n) in elems {
                free_vars(x, bound, out);
                free_vars(n, bound, out);
            }
        }
    }
}

/// How to convert explicitly where mCRL2 does not convert implicitly (downcasts).
fn conversion_hint(found: &Ty, expected: &Sort) -> Option<String> {
    const UP: &str = "only upward conversions Pos < Nat < Int < Real are implicit";
    Some(match (found, expected) {
        (Ty::Int, Sort::Nat) => format!(
            "{UP}, and a difference `a - b` is an Int even for naturals: write Int2Nat(…) where the value cannot be negative"
        ),
        (Ty::Int, Sort::Pos) => format!("{UP}: write Int2Pos(…) where the value is positive"),
        (Ty::Nat, Sort::Pos) => format!("{UP}: write Nat2Pos(…) where the value is not 0"),
        (Ty::Real, Sort::Int | Sort::Nat | Sort::Pos) => {
            format!("{UP}: round with floor(…), ceil(…) or round(…) first")
        }
        _ => return None,
    })
}

/// The possible sorts of an argument: `A`, or `A or B` when it is still open.
fn alts_str(a: &[Ty]) -> String {
    match a {
        [] => "?".into(),
        [t] => t.to_string(),
        ts => format!(
            "({})",
            ts.iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    }
}

fn unreachable_inst() -> Inst {
    Inst {
        cand: Cand::Var(Var {
            name: "@none".into(),
            sort: Sort::Bool,
        }),
        sort_params: Vec::new(),
        params: Vec::new(),
        result: Ty::Hole,
    }
}

fn rank(s: &Sort) -> u8 {
    match s {
        Sort::Pos => 0,
        Sort::Nat => 1,
        Sort::Int => 2,
        _ => 3,
    }
}

fn elem_sort(s: &Sort) -> Sort {
    match s {
        Sort::List(e) | Sort::Set(e) | Sort::FSet(e) | Sort::Bag(e) | Sort::FBag(e) => {
            (**e).clone()
        }
        s => s.clone(),
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn head_name(h: &ast::DataExpr) -> Option<&str> {
    match &h.kind {
        ast::DataExprKind::Id(n) => Some(n),
        _ => None,
    }
}

fn dedup(v: Vec<Ty>) -> Vec<Ty> {
    let mut out = Vec::new();
    for t in v {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

fn cand_sort_str(c: &Cand) -> String {
    match c {
        Cand::User(f) => sort_to_string(&f.sort),
        Cand::Var(v) => sort_to_string(&v.sort),
        Cand::Builtin(s) => s.sort_pattern().to_string(),
    }
}

fn inst_str(i: &Inst) -> String {
    let params: Vec<String> = i.params.iter().map(|p| p.to_string()).collect();
    let name = match &i.cand {
        Cand::User(f) => f.name.to_string(),
        Cand::Var(v) => v.name.to_string(),
        Cand::Builtin(s) => s.name.to_string(),
    };
    format!("{name}: {} -> {}", params.join(" # "), i.result)
}

/// Every combination of one alternative per argument (usually exactly one combination);
/// capped so that pathological overloading cannot explode.
fn alternatives_product(args: &[Vec<Ty>]) -> Vec<Vec<Ty>> {
    let mut out: Vec<Vec<Ty>> = vec![Vec::new()];
    for alts in args {
        let mut next = Vec::new();
        for prefix in &out {
            for a in alts {
                if next.len() >= 64 {
                    break;
                }
                let mut p = prefix.clone();
                p.push(a.clone());
                next.push(p);
            }
        }
        if alts.is_empty() {
            for prefix in &out {
                let mut p = prefix.clone();
                p.push(Ty::Hole);
                next.push(p);
            }
        }
        out = next;
    }
    out
}

// ---------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------

/// Parses and type-checks a lone data expression against `data`, with free variables
/// `vars` (for `muon rewrite`).
pub fn check_data_expr(
    src: &SourceFile,
    data: &DataSpec,
    vars: &[Var],
) -> Result<DataExpr, Diagnostics> {
    let ast = crate::syntax::parse_data_expr(src).map_err(|e| Diagnostics::from_syntax(src, e))?;
    let mut c = Checker::with_data(src, data);
    c.push_vars(vars);
    let r = c
        .synth(&ast)
        .and_then(|alts| c.default_sort(&alts[0], &ast))
        .and_then(|s| c.check(&ast, Some(&s)));
    c.finish(r.ok())
}
