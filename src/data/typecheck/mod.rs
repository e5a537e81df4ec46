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

use miette::{Diagnostic, LabeledSpan, SourceCode};
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

mod decls;
mod diag;
mod elaborate;
mod infer;
mod overload;
mod ty;
pub use diag::*;
use ty::*;

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
        .map(|alts| alts[0].to_sort_or_default())
        .and_then(|s| c.check(&ast, Some(&s)));
    c.finish(r.ok())
}

/// Parses and type-checks a closed data expression that must have sort `sort`, which
/// decides what the expression alone cannot (`[]: List(Nat)`, `{}: Set(Bool)`); for the
/// data in LTS labels.
pub fn check_data_expr_as(
    src: &SourceFile,
    data: &DataSpec,
    sort: &Sort,
) -> Result<DataExpr, Diagnostics> {
    let ast = crate::syntax::parse_data_expr(src).map_err(|e| Diagnostics::from_syntax(src, e))?;
    let mut c = Checker::with_data(src, data);
    let r = c.check(&ast, Some(sort));
    c.finish(r.ok())
}
