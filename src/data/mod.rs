//! Data: sorts, the typed data IR, hash-consed terms, the rewriter and the enumerator.
//!
//! # Public API
//! - [`TermStore`]: the shared store of hash-consed terms ([`TermId`]), interned function
//!   symbols ([`FuncId`]) and variables ([`VarId`]); [`Term`] is a term's shape.
//! - [`Rewriter::new`]`(&DataSpec)` compiles a specification's equations;
//!   [`Rewriter::rewrite`]`(TermId) -> Result<TermId, RewriteError>` gives normal forms,
//!   [`Rewriter::rewrite_with`] / [`Rewriter::rewrite_subst`] rewrite under a substitution,
//!   [`substitute`] applies one without rewriting.
//! - [`Enumerator::enumerate`]`(vars, condition, &mut callback)` (via
//!   [`Rewriter::enumerator`]) lists the values of sum/quantifier variables that make a
//!   condition true, or fails with a clear [`EnumError`].
//! - [`finite::is_certainly_finite`] decides mCRL2's finite sorts (`Bool`, non-recursive
//!   structs over finite sorts, `Set`/`FSet` and function sorts over them), and
//!   [`Rewriter::sort_values`] lists every value of one as normal forms, bounded.
//! - [`expr_to_term`] / [`term_to_expr`] (also [`Rewriter::term`], [`Rewriter::expr`]) convert
//!   between the typed IR and terms; normal forms come back in the form mCRL2 prints them.
//! - [`rewrite_expr`]: one-shot normal form of an IR expression, for `muon rewrite`.
//!
//! # Terms: ownership, lifetime and concurrency
//! Terms live in a [`TermStore`], an **append-only arena without garbage collection**: a
//! [`TermId`] is valid for the store's whole life and never reused, so ids can be copied
//! freely into state vectors, hash tables and artifacts with no reference counting or
//! protection sets (which cost mCRL2 and MERC a lot of bookkeeping on every term copy).
//! Memory is reclaimed by dropping the store at the end of a tool run. This is affordable
//! because the rewriter interns only normal forms and the terms it must return: right-hand
//! sides are evaluated directly under the match substitution, so intermediate redexes are
//! never stored. (A collector can be added later as a store-level "compact and remap" pass
//! between exploration phases, if ever needed.)
//!
//! The store is `Send + Sync` and every operation takes `&self`, so rayon workers share one
//! store and exchange [`TermId`]s (state vectors) directly:
//! - reads ([`TermStore::get`]) are lock-free: nodes sit in geometrically growing chunks of
//!   `OnceLock` slots that never move once published;
//! - interning hashes the term and locks one of 32 shards of the hash table (chosen by the
//!   hash), so threads contend only when they intern terms in the same shard at once;
//! - a store is owned by the run that uses it (a tool's command, a test) and lent to every
//!   rewriting context ([`Rewriter::new`] takes `&'s TermStore`): the reference each context
//!   and worker thread holds is a plain pointer copy, with no reference-count traffic
//!   between threads, and the borrow checker proves that no context outlives its store,
//!   which frees its terms (and the compiled equations it keeps) when it is dropped.
//!
//! Rewriting state (the substitution environment, per-symbol caches, the normal-form memo)
//! lives in a [`Rewriter`] *context*; the compiled rewrite system inside it is shared (`Arc`) and
//! immutable. Each worker thread clones the rewriter (cheap) and rewrites without any
//! synchronisation besides the store's shard locks. We chose a shared `Sync` store over
//! per-thread stores because states must be compared and hashed across threads by id: with
//! one store, equal states have equal ids no matter which thread built them.
//!
//! # Rewriting strategy
//! Innermost rewriting with lazy `if`, `&&`, `||`, `=>` (condition / left operand first,
//! then only the needed branch), which is what makes the usual recursive definitions
//! terminate, as with mCRL2's JITty strategy. Built-in functions are evaluated natively on
//! normal-form arguments; struct projections, recognisers, equality and the generated
//! ordering are native too. User equations are indexed by head symbol and compiled into
//! pattern trees (closed sub-patterns match by id; non-linear variables by id equality);
//! conditions are rewritten first and an equation applies only when its condition rewrites
//! to `true`. A right-hand side is evaluated directly under the match substitution, so no
//! redex is ever interned. Left-hand sides are matched syntactically, as in mCRL2 (a map
//! `N` in a pattern matches `N` only, not its value). Closed normal forms are remembered per
//! context and never walked again. Recursion is bounded by measuring the stack in use
//! ([`Rewriter::set_stack_limit`]): non-terminating equations give [`RewriteErrorKind::TooDeep`],
//! never a crash.
//!
//! # Built-in data
//! `Pos`, `Nat` and `Int` values are machine words ([`Term::Num`]) and switch to big integers
//! ([`Term::BigNum`]) instead of ever wrapping; `Real` values are exact rationals. Lists,
//! finite sets and finite bags have compact canonical forms (see [`convert`]); `Set` and
//! `Bag` values take mCRL2's normal forms `@set(f, s)` / `@bag(f, b)` with symbolic
//! functions, so they are equal terms exactly where mCRL2's are (state counts depend on it). Partial functions
//! (`head([])`, `Nat2Pos(0)`, `x div 0`) stay unevaluated, as in mCRL2.

pub mod builtins;
pub mod convert;
pub mod enumerate;
pub mod finite;
pub mod ir;
pub mod ir_ops;
pub mod names;
pub mod numbers;
pub mod portable;
pub mod print;
pub mod qlimit;
pub mod rewrite;
pub mod simplify;
pub mod store;
pub mod typecheck;

pub use convert::{expr_to_term, term_to_expr, ConvertError};
pub use enumerate::{EnumError, Enumerator};
pub use rewrite::{
    substitute, RewriteError, RewriteErrorKind, Rewriter, Substitution, DEFAULT_STACK_LIMIT,
};
pub use store::{FuncId, NumSort, Term, TermId, TermStore, VarId};

use ir::{DataExpr, DataSpec};

/// Errors of [`rewrite_expr`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// Conversion into terms failed.
    #[error(transparent)]
    Convert(#[from] ConvertError),
    /// Rewriting failed.
    #[error(transparent)]
    Rewrite(#[from] RewriteError),
}

/// The normal form of `e` with respect to `spec`, converted back to the IR. Builds a new
/// [`Rewriter`] (and term store) per call: for many expressions, keep one rewriter.
pub fn rewrite_expr(spec: &DataSpec, e: &DataExpr) -> Result<DataExpr, EngineError> {
    let store = TermStore::new();
    let mut rw = Rewriter::new(spec, &store)?;
    let t = rw.term(e)?;
    let n = rw.rewrite(t)?;
    Ok(rw.expr(n))
}
