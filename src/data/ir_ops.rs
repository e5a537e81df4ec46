//! Generic operations on the typed data IR: constructors for common Boolean and numeric
//! terms, free variables, capture-avoiding substitution, and a cheap syntactic simplifier.
//!
//! The simplifier is *syntactic*: it folds Boolean connectives, `if`, literal arithmetic and
//! comparisons, and equalities between distinct constructor terms. It never unfolds user
//! equations; deciding equalities that need them is the data engine's rewriter's job
//! (see [`Simplifier`] for the hook).

use std::collections::{BTreeMap, BTreeSet, HashSet};

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use super::ir::{Binder, DataExpr, DataSpec, Func, Name, Sort, Var};

/// A function symbol `name: sort`.
pub fn func(name: &str, sort: Sort) -> DataExpr {
    DataExpr::Func(Func {
        name: name.into(),
        sort,
    })
}

/// The constant `true`.
pub fn true_() -> DataExpr {
    func("true", Sort::Bool)
}

/// The constant `false`.
pub fn false_() -> DataExpr {
    func("false", Sort::Bool)
}

/// A Boolean literal.
pub fn bool_lit(b: bool) -> DataExpr {
    if b {
        true_()
    } else {
        false_()
    }
}

/// Whether `e` is the constant `true`.
pub fn is_true(e: &DataExpr) -> bool {
    matches!(e, DataExpr::Func(f) if &*f.name == "true" && f.sort == Sort::Bool)
}

/// Whether `e` is the constant `false`.
pub fn is_false(e: &DataExpr) -> bool {
    matches!(e, DataExpr::Func(f) if &*f.name == "false" && f.sort == Sort::Bool)
}

/// A numeric literal of `sort`.
pub fn number(value: impl Into<BigInt>, sort: Sort) -> DataExpr {
    DataExpr::Number {
        value: value.into(),
        sort,
    }
}

/// The application `head(args)` of a function symbol `name: args' sorts -> result`.
pub fn app(name: &str, args: Vec<DataExpr>, result: Sort) -> DataExpr {
    let dom = args.iter().map(|a| a.sort()).collect();
    DataExpr::App {
        head: Box::new(func(name, Sort::Arrow(dom, Box::new(result)))),
        args,
    }
}

/// A Boolean connective application with a fixed `Bool` signature (no sort computation).
fn bool_app(name: &str, args: Vec<DataExpr>) -> DataExpr {
    DataExpr::App {
        head: Box::new(func(
            name,
            Sort::Arrow(vec![Sort::Bool; args.len()], Box::new(Sort::Bool)),
        )),
        args,
    }
}

/// `!e`.
pub fn not(e: DataExpr) -> DataExpr {
    if is_true(&e) {
        return false_();
    }
    if is_false(&e) {
        return true_();
    }
    if let Some((n, args)) = as_app(&e) {
        if n == "!" && args.len() == 1 {
            return args[0].clone();
        }
    }
    bool_app("!", vec![e])
}

/// `a && b`, with the units folded.
pub fn and(a: DataExpr, b: DataExpr) -> DataExpr {
    if is_true(&a) || is_false(&b) {
        return b;
    }
    if is_true(&b) || is_false(&a) {
        return a;
    }
    bool_app("&&", vec![a, b])
}

/// The conjunction of `es` (`true` when empty).
pub fn and_all(es: impl IntoIterator<Item = DataExpr>) -> DataExpr {
    let mut acc: Option<DataExpr> = None;
    for e in es {
        acc = Some(match acc {
            None => e,
            Some(a) => and(a, e),
        });
    }
    acc.unwrap_or_else(true_)
}

/// `a || b`, with the units folded.
pub fn or(a: DataExpr, b: DataExpr) -> DataExpr {
    if is_false(&a) || is_true(&b) {
        return b;
    }
    if is_false(&b) || is_true(&a) {
        return a;
    }
    bool_app("||", vec![a, b])
}

/// `a == b`.
pub fn eq(a: DataExpr, b: DataExpr) -> DataExpr {
    app("==", vec![a, b], Sort::Bool)
}

/// The head name and arguments of an application of a function symbol.
pub fn as_app(e: &DataExpr) -> Option<(&str, &[DataExpr])> {
    match e {
        DataExpr::App { head, args } => match &**head {
            DataExpr::Func(f) => Some((&*f.name, args)),
            _ => None,
        },
        _ => None,
    }
}

/// The conjuncts of `e` (`a && b && c` gives `[a, b, c]`; `true` gives none).
pub fn conjuncts(e: &DataExpr) -> Vec<DataExpr> {
    let mut out = Vec::new();
    fn go(e: &DataExpr, out: &mut Vec<DataExpr>) {
        if is_true(e) {
            return;
        }
        match as_app(e) {
            Some(("&&", [a, b])) => {
                go(a, out);
                go(b, out);
            }
            _ => out.push(e.clone()),
        }
    }
    go(e, &mut out);
    out
}

/// Adds the free variables of `e` to `out`, in order of first occurrence.
pub fn free_vars_into(e: &DataExpr, out: &mut Vec<Var>) {
    free_vars_outside_into(e, &[], out);
}

/// Adds the free variables of `e` that are not in `outside` (the variables bound around
/// `e`) to `out`, each once, in order of first occurrence.
pub fn free_vars_outside_into(e: &DataExpr, outside: &[Var], out: &mut Vec<Var>) {
    /// `bound`: the variables bound inside `e` around the subterm `e` now is.
    fn go(e: &DataExpr, outside: &[Var], bound: &mut Vec<Var>, out: &mut Vec<Var>) {
        match e {
            DataExpr::Var(v) => {
                if !bound.contains(v) && !outside.contains(v) && !out.contains(v) {
                    out.push(v.clone());
                }
            }
            DataExpr::Func(_) | DataExpr::Number { .. } => {}
            DataExpr::App { head, args } => {
                go(head, outside, bound, out);
                for a in args {
                    go(a, outside, bound, out);
                }
            }
            DataExpr::Binder { vars, body, .. } => {
                let n = bound.len();
                bound.extend(vars.iter().cloned());
                go(body, outside, bound, out);
                bound.truncate(n);
            }
            DataExpr::Whr { body, defs } => {
                for (_, d) in defs {
                    go(d, outside, bound, out);
                }
                let n = bound.len();
                bound.extend(defs.iter().map(|(v, _)| v.clone()));
                go(body, outside, bound, out);
                bound.truncate(n);
            }
            DataExpr::ListEnum { elems, .. } | DataExpr::SetEnum { elems, .. } => {
                for a in elems {
                    go(a, outside, bound, out);
                }
            }
            DataExpr::BagEnum { elems, .. } => {
                for (a, b) in elems {
                    go(a, outside, bound, out);
                    go(b, outside, bound, out);
                }
            }
        }
    }
    go(e, outside, &mut Vec::new(), out);
}

/// The free variables of `e`, in order of first occurrence.
pub fn free_vars(e: &DataExpr) -> Vec<Var> {
    let mut out = Vec::new();
    free_vars_into(e, &mut out);
    out
}

/// Whether variable `v` occurs free in `e`.
pub fn occurs_free(v: &Var, e: &DataExpr) -> bool {
    free_vars(e).contains(v)
}

/// Whether `e` has no free variables.
pub fn is_closed(e: &DataExpr) -> bool {
    free_vars(e).is_empty()
}

/// A substitution from variables to expressions.
pub type Subst = BTreeMap<Var, DataExpr>;

/// A name based on `base` that is not in `used`; the result is added to `used`.
pub fn fresh_name(base: &str, used: &mut HashSet<Name>) -> Name {
    if !used.contains(base) {
        let n: Name = base.into();
        used.insert(n.clone());
        return n;
    }
    let stem = base.trim_end_matches(|c: char| c.is_ascii_digit());
    let stem = if stem.is_empty() { base } else { stem };
    let mut i = 1u32;
    loop {
        let cand = format!("{stem}{i}");
        if !used.contains(cand.as_str()) {
            let n: Name = cand.into();
            used.insert(n.clone());
            return n;
        }
        i += 1;
    }
}

/// Applies `sigma` to `e` simultaneously, renaming bound variables that would capture a
/// variable of the substituted expressions.
pub fn substitute(e: &DataExpr, sigma: &Subst) -> DataExpr {
    if sigma.is_empty() {
        return e.clone();
    }
    match e {
        DataExpr::Var(v) => sigma.get(v).cloned().unwrap_or_else(|| e.clone()),
        DataExpr::Func(_) | DataExpr::Number { .. } => e.clone(),
        DataExpr::App { head, args } => DataExpr::App {
            head: Box::new(substitute(head, sigma)),
            args: args.iter().map(|a| substitute(a, sigma)).collect(),
        },
        DataExpr::Binder { kind, vars, body } => {
            let (vars, inner) = rebind(vars, sigma, std::slice::from_ref(&**body));
            DataExpr::Binder {
                kind: *kind,
                vars,
                body: Box::new(substitute(body, &inner)),
            }
        }
        DataExpr::Whr { body, defs } => {
            let new_defs_rhs: Vec<DataExpr> =
                defs.iter().map(|(_, d)| substitute(d, sigma)).collect();
            let bvars: Vec<Var> = defs.iter().map(|(v, _)| v.clone()).collect();
            let (bvars, inner) = rebind(&bvars, sigma, std::slice::from_ref(&**body));
            DataExpr::Whr {
                body: Box::new(substitute(body, &inner)),
                defs: bvars.into_iter().zip(new_defs_rhs).collect(),
            }
        }
        DataExpr::ListEnum { elems, sort } => DataExpr::ListEnum {
            elems: elems.iter().map(|a| substitute(a, sigma)).collect(),
            sort: sort.clone(),
        },
        DataExpr::SetEnum { elems, sort } => DataExpr::SetEnum {
            elems: elems.iter().map(|a| substitute(a, sigma)).collect(),
            sort: sort.clone(),
        },
        DataExpr::BagEnum { elems, sort } => DataExpr::BagEnum {
            elems: elems
                .iter()
                .map(|(a, b)| (substitute(a, sigma), substitute(b, sigma)))
                .collect(),
            sort: sort.clone(),
        },
    }
}

/// For binding `vars` over `bodies` under `sigma`: the (possibly renamed) bound variables and
/// the substitution to apply inside.
fn rebind(vars: &[Var], sigma: &Subst, bodies: &[DataExpr]) -> (Vec<Var>, Subst) {
    let mut inner = sigma.clone();
    for v in vars {
        inner.remove(v);
    }
    // Variables free in the substituted expressions (only those that matter in the bodies).
    let mut body_fv = Vec::new();
    for b in bodies {
        free_vars_into(b, &mut body_fv);
    }
    let mut danger: HashSet<Name> = HashSet::new();
    for (k, val) in &inner {
        if body_fv.contains(k) {
            for fv in free_vars(val) {
                danger.insert(fv.name.clone());
            }
        }
    }
    let mut used: HashSet<Name> = danger.clone();
    for v in &body_fv {
        used.insert(v.name.clone());
    }
    for v in vars {
        used.insert(v.name.clone());
    }
    let mut out = Vec::with_capacity(vars.len());
    for v in vars {
        if danger.contains(&v.name) {
            let nv = Var {
                name: fresh_name(&v.name, &mut used),
                sort: v.sort.clone(),
            };
            inner.insert(v.clone(), DataExpr::Var(nv.clone()));
            out.push(nv);
        } else {
            out.push(v.clone());
        }
    }
    (out, inner)
}

/// Decides (some) data equalities and simplifies expressions; the LPS simplifications use
/// it to evaluate conditions and next-state expressions.
///
/// The built-in [`SyntacticSimplifier`] is purely syntactic. Once the data engine's rewriter
/// is available, an implementation that rewrites to normal form can be plugged in: every
/// decision the simplifications make goes through this trait.
pub trait Simplifier {
    /// A simplified expression equal to `e` in every model of the data specification.
    fn simplify(&self, e: &DataExpr) -> DataExpr;

    /// Like [`Simplifier::simplify`], but rewriting open subterms too where the simplifier
    /// can (`max(p, p)` is `p`): for the few expressions whose syntax decides something,
    /// as mCRL2 rewrites the arguments that key a linearisation state.
    fn normalise(&self, e: &DataExpr) -> DataExpr {
        self.simplify(e)
    }
}

/// Syntactic simplification: Boolean connectives, `if`, literal arithmetic and comparisons,
/// equalities between constructor terms. Knows the constructors of the data specification.
#[derive(Clone, Debug, Default)]
pub struct SyntacticSimplifier {
    constructors: BTreeSet<Func>,
}

impl SyntacticSimplifier {
    /// A simplifier for the constructors of `data` (plus the built-in ones).
    pub fn new(data: &DataSpec) -> SyntacticSimplifier {
        let mut constructors = BTreeSet::new();
        for d in &data.constructors {
            constructors.insert(d.func.clone());
        }
        for s in &data.sorts {
            for f in data.constructors_of(&Sort::Named(s.name.clone())) {
                constructors.insert(f);
            }
        }
        SyntacticSimplifier { constructors }
    }

    /// Whether `e` is a closed term built only from constructors, literals and enumerations
    /// of such (a value: two different values are different).
    fn is_value(&self, e: &DataExpr) -> bool {
        match e {
            DataExpr::Number { .. } => true,
            DataExpr::Func(f) => {
                self.constructors.contains(f)
                    || (f.sort == Sort::Bool && (&*f.name == "true" || &*f.name == "false"))
            }
            DataExpr::App { head, args } => match &**head {
                DataExpr::Func(f) => {
                    self.constructors.contains(f) && args.iter().all(|a| self.is_value(a))
                }
                _ => false,
            },
            DataExpr::ListEnum { elems, .. } => elems.iter().all(|a| self.is_value(a)),
            _ => false,
        }
    }

    /// `Some(b)` when the equality of `a` and `b` is decided syntactically.
    fn decide_eq(&self, a: &DataExpr, b: &DataExpr) -> Option<bool> {
        if a == b {
            return Some(true);
        }
        match (a, b) {
            (DataExpr::Number { value: x, .. }, DataExpr::Number { value: y, .. }) => {
                return Some(x == y)
            }
            (DataExpr::ListEnum { elems: x, .. }, DataExpr::ListEnum { elems: y, .. })
                if x.len() != y.len() =>
            {
                return Some(false)
            }
            _ => {}
        }
        if self.is_value(a) && self.is_value(b) {
            // Different constructor terms; numbers of different literal value; lists of
            // values that differ somewhere. All denote different values.
            return Some(false);
        }
        None
    }

    fn simp(&self, e: &DataExpr) -> DataExpr {
        match e {
            DataExpr::App { head, args } => {
                let args: Vec<DataExpr> = args.iter().map(|a| self.simp(a)).collect();
                let head = self.simp(head);
                let name = match &head {
                    DataExpr::Func(f) => f.name.clone(),
                    _ => {
                        return DataExpr::App {
                            head: Box::new(head),
                            args,
                        }
                    }
                };
                if let Some(r) = self.fold(&name, &args, &head) {
                    return r;
                }
                DataExpr::App {
                    head: Box::new(head),
                    args,
                }
            }
            DataExpr::Binder { kind, vars, body } => DataExpr::Binder {
                kind: *kind,
                vars: vars.clone(),
                body: Box::new(self.simp(body)),
            },
            DataExpr::Whr { body, defs } => DataExpr::Whr {
                body: Box::new(self.simp(body)),
                defs: defs
                    .iter()
                    .map(|(v, d)| (v.clone(), self.simp(d)))
                    .collect(),
            },
            DataExpr::ListEnum { elems, sort } => DataExpr::ListEnum {
                elems: elems.iter().map(|a| self.simp(a)).collect(),
                sort: sort.clone(),
            },
            DataExpr::SetEnum { elems, sort } => DataExpr::SetEnum {
                elems: elems.iter().map(|a| self.simp(a)).collect(),
                sort: sort.clone(),
            },
            DataExpr::BagEnum { elems, sort } => DataExpr::BagEnum {
                elems: elems
                    .iter()
                    .map(|(a, b)| (self.simp(a), self.simp(b)))
                    .collect(),
                sort: sort.clone(),
            },
            _ => e.clone(),
        }
    }

    /// Folds the application `name(args)` when its value is evident.
    fn fold(&self, name: &str, args: &[DataExpr], head: &DataExpr) -> Option<DataExpr> {
        let num = |e: &DataExpr| match e {
            DataExpr::Number { value, .. } => Some(value.clone()),
            _ => None,
        };
        let lit = |e: &DataExpr| is_true(e) || is_false(e);
        match (name, args) {
            ("!", [a]) if lit(a) || as_app(a).is_some_and(|(n, _)| n == "!") => {
                return Some(not(a.clone()))
            }
            ("&&", [a, b]) if lit(a) || lit(b) => return Some(and(a.clone(), b.clone())),
            ("||", [a, b]) if lit(a) || lit(b) => return Some(or(a.clone(), b.clone())),
            ("!" | "&&" | "||", _) => return None,
            _ => {}
        }
        match (name, args) {
            ("=>", [a, b]) => {
                return if is_true(a) {
                    Some(b.clone())
                } else if is_false(a) || is_true(b) {
                    Some(true_())
                } else {
                    None
                }
            }
            // Union / bag sum with an empty enumeration, and difference with one.
            ("+", [a, b]) if is_empty_collection(b) && !a.sort().is_numeric() => {
                return Some(a.clone())
            }
            ("+", [a, b]) if is_empty_collection(a) && !b.sort().is_numeric() => {
                return Some(b.clone())
            }
            ("-", [a, b]) if is_empty_collection(b) && !a.sort().is_numeric() => {
                return Some(a.clone())
            }
            ("==", [a, b]) => return self.decide_eq(a, b).map(bool_lit),
            ("!=", [a, b]) => return self.decide_eq(a, b).map(|x| bool_lit(!x)),
            ("if", [c, t, f]) => {
                return if is_true(c) || t == f {
                    Some(t.clone())
                } else if is_false(c) {
                    Some(f.clone())
                } else {
                    None
                }
            }
            _ => {}
        }
        if !args.iter().all(|a| matches!(a, DataExpr::Number { .. })) {
            return None;
        }
        let result_sort = head.sort().codomain().clone();
        match (name, args) {
            ("=>", [a, b]) => {
                if is_true(a) {
                    Some(b.clone())
                } else if is_false(a) || is_true(b) {
                    Some(true_())
                } else {
                    None
                }
            }
            ("==", [a, b]) => self.decide_eq(a, b).map(bool_lit),
            ("!=", [a, b]) => self.decide_eq(a, b).map(|x| bool_lit(!x)),
            ("if", [c, t, f]) => {
                if is_true(c) || t == f {
                    Some(t.clone())
                } else if is_false(c) {
                    Some(f.clone())
                } else {
                    None
                }
            }
            ("<" | "<=" | ">" | ">=", [a, b]) => {
                let (x, y) = (num(a)?, num(b)?);
                Some(bool_lit(match name {
                    "<" => x < y,
                    "<=" => x <= y,
                    ">" => x > y,
                    _ => x >= y,
                }))
            }
            ("+" | "*" | "max" | "min", [a, b]) if result_sort != Sort::Real => {
                let (x, y) = (num(a)?, num(b)?);
                let v = match name {
                    "+" => x + y,
                    "*" => x * y,
                    "max" => x.max(y),
                    _ => x.min(y),
                };
                Some(number(v, result_sort))
            }
            ("-", [a, b]) if matches!(result_sort, Sort::Int) => {
                let (x, y) = (num(a)?, num(b)?);
                let d = x - y;
                if d.is_negative() {
                    Some(app("-", vec![number(-d, Sort::Nat)], Sort::Int))
                } else {
                    Some(number(d, Sort::Int))
                }
            }
            ("div" | "mod", [a, b]) if !matches!(result_sort, Sort::Int | Sort::Real) => {
                let (x, y) = (num(a)?, num(b)?);
                if y.is_zero() {
                    return None;
                }
                Some(number(
                    if name == "div" { x / y } else { x % y },
                    result_sort,
                ))
            }
            ("succ", [a]) if matches!(result_sort, Sort::Pos | Sort::Nat) => {
                Some(number(num(a)? + 1, result_sort))
            }
            ("Pos2Nat" | "Pos2Int" | "Nat2Int" | "Pos2Real" | "Nat2Real" | "Int2Real", [a]) => {
                Some(number(num(a)?, result_sort))
            }
            ("Int2Nat" | "Int2Pos" | "Nat2Pos", [a]) => {
                let x = num(a)?;
                if name == "Int2Nat" || !x.is_zero() {
                    Some(number(x, result_sort))
                } else {
                    None
                }
            }
            _ => None,
        }
    }
}

impl Simplifier for SyntacticSimplifier {
    fn simplify(&self, e: &DataExpr) -> DataExpr {
        self.simp(e)
    }
}

/// Whether `e` is `{}`, `{:}` or `[]`.
pub fn is_empty_collection(e: &DataExpr) -> bool {
    match e {
        DataExpr::SetEnum { elems, .. } | DataExpr::ListEnum { elems, .. } => elems.is_empty(),
        DataExpr::BagEnum { elems, .. } => elems.is_empty(),
        _ => false,
    }
}

/// Whether `e` mentions a binder (lambda, quantifier, comprehension); used to keep
/// simplification from reasoning under binders it does not model.
pub fn has_binder(e: &DataExpr) -> bool {
    match e {
        DataExpr::Binder { .. } | DataExpr::Whr { .. } => true,
        DataExpr::App { head, args } => has_binder(head) || args.iter().any(has_binder),
        DataExpr::ListEnum { elems, .. } | DataExpr::SetEnum { elems, .. } => {
            elems.iter().any(has_binder)
        }
        DataExpr::BagEnum { elems, .. } => {
            elems.iter().any(|(a, b)| has_binder(a) || has_binder(b))
        }
        _ => false,
    }
}

/// A closed default value of `sort`, as mCRL2 uses for "don't care" parameter values:
/// `false`, `1`, `0`, `[]`, `{}`, or the first constructor of a user sort whose arguments
/// have defaults. `None` when the sort has no such value (e.g. a basic sort without
/// constructor constants); callers then use a global variable.
pub fn default_value(sort: &Sort, data: &DataSpec) -> Option<DataExpr> {
    default_value_depth(sort, data, 0)
}

fn default_value_depth(sort: &Sort, data: &DataSpec, depth: usize) -> Option<DataExpr> {
    if depth > 8 {
        return None;
    }
    if let Some(v) = plain_value(sort) {
        return Some(v);
    }
    Some(match sort {
        Sort::Set(_) => DataExpr::SetEnum {
            elems: vec![],
            sort: sort.clone(),
        },
        Sort::Bag(_) => DataExpr::BagEnum {
            elems: vec![],
            sort: sort.clone(),
        },
        Sort::Arrow(dom, cod) => {
            let body = default_value_depth(cod, data, depth + 1)?;
            let vars = dom
                .iter()
                .enumerate()
                .map(|(i, s)| Var {
                    name: format!("x{i}").into(),
                    sort: s.clone(),
                })
                .collect();
            DataExpr::Binder {
                kind: Binder::Lambda,
                vars,
                body: Box::new(body),
            }
        }
        Sort::Named(_) => {
            let conss = data.constructors_of(sort);
            // Prefer constants, then constructors whose fields have defaults.
            if let Some(c) = conss.iter().find(|c| c.sort.domain().is_empty()) {
                return Some(DataExpr::Func(c.clone()));
            }
            first_applied(&conss, |s| {
                if s == sort {
                    None
                } else {
                    default_value_depth(s, data, depth + 1)
                }
            })?
        }
        // Answered by `plain_value` above.
        _ => return None,
    })
}

/// The first of the constructors `conss` whose arguments all have a value by `arg`,
/// applied to them.
fn first_applied(
    conss: &[Func],
    mut arg: impl FnMut(&Sort) -> Option<DataExpr>,
) -> Option<DataExpr> {
    conss.iter().find_map(|c| {
        let args: Option<Vec<DataExpr>> = c.sort.domain().iter().map(&mut arg).collect();
        args.map(|args| DataExpr::App {
            head: Box::new(DataExpr::Func(c.clone())),
            args,
        })
    })
}

/// The value mCRL2 gives a global variable of `sort` that nothing determines (its
/// `representative_generator`, which `lps2lts` and `lps2pbes` use): `false`, `1`, `0`,
/// `[]`, the empty finite set or bag; for a user sort the constant constructor first by
/// name, else the first constructor whose arguments have such values, else the first
/// constant mapping declared. `None` for `Set`, `Bag` and function sorts, whose value
/// mCRL2 builds from its internal mappings (`{ x: Bool | !x }` for `Set(Bool)`), and for
/// sorts without any of these.
pub fn representative(sort: &Sort, data: &DataSpec) -> Option<DataExpr> {
    representative_avoiding(sort, data, &mut Vec::new())
}

fn representative_avoiding(
    sort: &Sort,
    data: &DataSpec,
    visiting: &mut Vec<Sort>,
) -> Option<DataExpr> {
    if let Some(v) = plain_value(sort) {
        return Some(v);
    }
    Some(match sort {
        Sort::Named(_) => {
            if visiting.contains(sort) {
                return None;
            }
            let conss = data.constructors_of(sort);
            if let Some(c) = conss
                .iter()
                .filter(|c| c.sort.domain().is_empty())
                .min_by(|a, b| a.name.cmp(&b.name))
            {
                return Some(DataExpr::Func(c.clone()));
            }
            visiting.push(sort.clone());
            let found = first_applied(&conss, |s| representative_avoiding(s, data, visiting));
            visiting.pop();
            if found.is_some() {
                return found;
            }
            let m = data.mappings.iter().find(|m| m.func.sort == *sort)?;
            DataExpr::Func(m.func.clone())
        }
        // `Set`, `Bag` and function sorts: mCRL2 builds these from its internal mappings.
        _ => return None,
    })
}

/// The value both [`default_value`] and [`representative`] give the built-in sorts whose
/// values are written as they are: `false`, `1`, `0`, `[]`, `{}` of `FSet` and `FBag`.
fn plain_value(sort: &Sort) -> Option<DataExpr> {
    Some(match sort {
        Sort::Bool => false_(),
        Sort::Pos => number(1, Sort::Pos),
        Sort::Nat | Sort::Int | Sort::Real => number(0, sort.clone()),
        Sort::List(_) => DataExpr::ListEnum {
            elems: vec![],
            sort: sort.clone(),
        },
        Sort::FSet(_) => DataExpr::SetEnum {
            elems: vec![],
            sort: sort.clone(),
        },
        Sort::FBag(_) => DataExpr::BagEnum {
            elems: vec![],
            sort: sort.clone(),
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: &str, s: Sort) -> Var {
        Var {
            name: n.into(),
            sort: s,
        }
    }

    #[test]
    fn substitution_avoids_capture() {
        let x = v("x", Sort::Nat);
        let y = v("y", Sort::Nat);
        // exists y. x == y   with x := y
        let e = DataExpr::Binder {
            kind: Binder::Exists,
            vars: vec![y.clone()],
            body: Box::new(eq(DataExpr::Var(x.clone()), DataExpr::Var(y.clone()))),
        };
        let mut s = Subst::new();
        s.insert(x.clone(), DataExpr::Var(y.clone()));
        let r = substitute(&e, &s);
        match &r {
            DataExpr::Binder { vars, body, .. } => {
                assert_ne!(vars[0], y);
                assert_eq!(free_vars(body), vec![y.clone(), vars[0].clone()]);
            }
            _ => panic!("binder expected"),
        }
        assert_eq!(free_vars(&r), vec![y]);
    }

    #[test]
    fn free_variables_outside_leave_out_the_bound_and_those_already_found() {
        let [x, y, z] = ["x", "y", "z"].map(|n| v(n, Sort::Nat));
        // z == x && (exists y . y == z) && y == x, with x bound around it and z found before.
        let e = and(
            and(
                eq(DataExpr::Var(z.clone()), DataExpr::Var(x.clone())),
                DataExpr::Binder {
                    kind: Binder::Exists,
                    vars: vec![y.clone()],
                    body: Box::new(eq(DataExpr::Var(y.clone()), DataExpr::Var(z.clone()))),
                },
            ),
            eq(DataExpr::Var(y.clone()), DataExpr::Var(x.clone())),
        );
        let mut out = vec![z.clone()];
        free_vars_outside_into(&e, std::slice::from_ref(&x), &mut out);
        assert_eq!(out, vec![z, y]);
    }

    #[test]
    fn simplifies_literals_and_constructors() {
        let s = SyntacticSimplifier::default();
        let e = and(
            eq(number(1, Sort::Nat), number(1, Sort::Nat)),
            app(
                "<",
                vec![number(3, Sort::Nat), number(2, Sort::Nat)],
                Sort::Bool,
            ),
        );
        assert!(is_false(&s.simplify(&e)));
        let x = DataExpr::Var(v("x", Sort::Nat));
        let e = eq(x.clone(), x.clone());
        assert!(is_true(&s.simplify(&e)));
        let e = eq(x.clone(), number(2, Sort::Nat));
        assert_eq!(s.simplify(&e), e);
        let e = app(
            "+",
            vec![number(2, Sort::Nat), number(3, Sort::Nat)],
            Sort::Nat,
        );
        assert_eq!(s.simplify(&e), number(5, Sort::Nat));
    }
}
