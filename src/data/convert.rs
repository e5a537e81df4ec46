//! Conversion between the typed IR ([`DataExpr`]) and terms of a [`TermStore`].
//!
//! Internal representation of the built-in data types (all names start with `@` or are
//! mCRL2's own constructor names, so users cannot clash with them):
//! - `List(S)`: `[]` and `|>` (as in mCRL2).
//! - `FSet(S)`: `{}` (empty) or `@fset(e1, …, en)` with the elements strictly increasing in
//!   the term order of the rewriter (variadic: the symbol's declared sort is `S -> FSet(S)`).
//! - `FBag(S)`: `{:}` (empty) or `@fbag(e1, c1, …, en, cn)`, elements increasing, counts
//!   positive `Nat`s (declared sort `S # Nat -> FBag(S)`).
//! - `Set(S)`: `@set(f, s)` with `f: S -> Bool` and `s: FSet(S)`; `x` is a member iff
//!   `f(x) != x in s` (mCRL2's representation). Finite sets have `f = @false_`; `f` is a
//!   symbolic function (`@false_`, `@true_`, `@not_(f)`, `@and_(f, g)`, `@or_(f, g)`) or, for
//!   a comprehension `{x: S | c}`, `lambda x. c`; see `rewrite::sets` for the normal forms.
//! - `Bag(S)`: `@bag(f, b)` with `f: S -> Nat`; the count of `x` is
//!   `@swap_zero(f(x), count(x, b))` (mCRL2's). Finite bags have `f = @zero_`; other
//!   functions: `@one_`, `@add_`, `@min_`, `@monus_`, `@Bool2Nat_`, lambdas.
//! - `FSet`/`FBag` enumerations with open elements stay `@fset_make(…)` / `@fbag_make(…)`
//!   until the elements are values (sorting open terms could separate equal elements).
//! - `whr` becomes a β-redex `(lambda x1, …, xn . body)(e1, …, en)`.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed};

use super::ir::{Binder, DataExpr, Func, Sort, Var};
use super::store::{NumSort, Term, TermId, TermStore};

/// Names of internal function symbols.
pub mod names {
    /// Non-empty canonical finite set (variadic).
    pub const FSET: &str = "@fset";
    /// Non-empty canonical finite bag (variadic, element/count pairs).
    pub const FBAG: &str = "@fbag";
    /// Finite set from arbitrary (unsorted, duplicated) elements.
    pub const FSET_MAKE: &str = "@fset_make";
    /// Finite bag from arbitrary element/count pairs.
    pub const FBAG_MAKE: &str = "@fbag_make";
    /// Set from characteristic function and finite exceptions.
    pub const SET: &str = "@set";
    /// Bag from count function and finite part.
    pub const BAG: &str = "@bag";
    /// The constant function `false`.
    pub const FALSE_FN: &str = "@false_";
    /// The constant function `0`.
    pub const ZERO_FN: &str = "@zero_";
    /// The constant function `true`.
    pub const TRUE_FN: &str = "@true_";
    /// The constant function `1`.
    pub const ONE_FN: &str = "@one_";
    /// Pointwise negation of a characteristic function.
    pub const NOT_FN: &str = "@not_";
    /// Pointwise conjunction of characteristic functions.
    pub const AND_FN: &str = "@and_";
    /// Pointwise disjunction of characteristic functions.
    pub const OR_FN: &str = "@or_";
    /// Pointwise sum of count functions.
    pub const ADD_FN: &str = "@add_";
    /// Pointwise minimum of count functions.
    pub const MIN_FN: &str = "@min_";
    /// Pointwise truncated difference of count functions.
    pub const MONUS_FN: &str = "@monus_";
    /// `x -> f(x) > 0` for a count function `f`.
    pub const NAT2BOOL_FN: &str = "@Nat2Bool_";
    /// `x -> if(f(x), 1, 0)` for a characteristic function `f`.
    pub const BOOL2NAT_FN: &str = "@Bool2Nat_";
    /// mCRL2's `@swap_zero(m, n)` (only printed, in bags with a non-zero count function).
    pub const SWAP_ZERO: &str = "@swap_zero";
    /// Function update `f[x -> v]`.
    pub const FUNC_UPDATE: &str = "@func_update";
    /// Empty set / finite set.
    pub const EMPTY_SET: &str = "{}";
    /// Empty bag / finite bag.
    pub const EMPTY_BAG: &str = "{:}";
}

fn arrow(dom: Vec<Sort>, cod: Sort) -> Sort {
    Sort::Arrow(dom, Box::new(cod))
}

fn elem_sort(s: &Sort) -> Sort {
    match s {
        Sort::List(e) | Sort::Set(e) | Sort::FSet(e) | Sort::Bag(e) | Sort::FBag(e) => {
            (**e).clone()
        }
        other => other.clone(),
    }
}

/// Internal function symbols used by the data engine, built for a given element sort.
pub(crate) struct Internal;

impl Internal {
    pub(crate) fn nil(store: &TermStore, elem: &Sort) -> TermId {
        let f = store.intern_func(&Func {
            name: "[]".into(),
            sort: Sort::List(Box::new(elem.clone())),
        });
        store.func(f)
    }
    pub(crate) fn cons(store: &TermStore, elem: &Sort) -> TermId {
        let l = Sort::List(Box::new(elem.clone()));
        let f = store.intern_func(&Func {
            name: "|>".into(),
            sort: arrow(vec![elem.clone(), l.clone()], l),
        });
        store.func(f)
    }
    pub(crate) fn fset(store: &TermStore, elem: &Sort, elems: &[TermId]) -> TermId {
        let fs = Sort::FSet(Box::new(elem.clone()));
        if elems.is_empty() {
            let f = store.intern_func(&Func {
                name: names::EMPTY_SET.into(),
                sort: fs,
            });
            return store.func(f);
        }
        let f = store.intern_func(&Func {
            name: names::FSET.into(),
            sort: arrow(vec![elem.clone()], fs),
        });
        store.app_func(f, elems)
    }
    pub(crate) fn fbag(store: &TermStore, elem: &Sort, flat: &[TermId]) -> TermId {
        let fb = Sort::FBag(Box::new(elem.clone()));
        if flat.is_empty() {
            let f = store.intern_func(&Func {
                name: names::EMPTY_BAG.into(),
                sort: fb,
            });
            return store.func(f);
        }
        let f = store.intern_func(&Func {
            name: names::FBAG.into(),
            sort: arrow(vec![elem.clone(), Sort::Nat], fb),
        });
        store.app_func(f, flat)
    }
    pub(crate) fn false_fn(store: &TermStore, elem: &Sort) -> TermId {
        let f = store.intern_func(&Func {
            name: names::FALSE_FN.into(),
            sort: arrow(vec![elem.clone()], Sort::Bool),
        });
        store.func(f)
    }
    pub(crate) fn zero_fn(store: &TermStore, elem: &Sort) -> TermId {
        let f = store.intern_func(&Func {
            name: names::ZERO_FN.into(),
            sort: arrow(vec![elem.clone()], Sort::Nat),
        });
        store.func(f)
    }
    /// A constant function symbol `name: elem -> cod` (`@false_`, `@true_`, `@zero_`, `@one_`).
    pub(crate) fn const_fn(store: &TermStore, name: &str, elem: &Sort, cod: Sort) -> TermId {
        let f = store.intern_func(&Func {
            name: name.into(),
            sort: arrow(vec![elem.clone()], cod),
        });
        store.func(f)
    }
    /// A function combinator applied to functions: `name(args)` of sort `elem -> cod`, where
    /// argument `i` has sort `elem -> arg_cods[i]`.
    pub(crate) fn fn_comb(
        store: &TermStore,
        name: &str,
        elem: &Sort,
        arg_cods: &[Sort],
        cod: Sort,
        args: &[TermId],
    ) -> TermId {
        let dom = arg_cods
            .iter()
            .map(|c| arrow(vec![elem.clone()], c.clone()))
            .collect();
        let f = store.intern_func(&Func {
            name: name.into(),
            sort: arrow(dom, arrow(vec![elem.clone()], cod)),
        });
        store.app_func(f, args)
    }
    pub(crate) fn set(store: &TermStore, elem: &Sort, f: TermId, fs: TermId) -> TermId {
        let func = store.intern_func(&Func {
            name: names::SET.into(),
            sort: arrow(
                vec![
                    arrow(vec![elem.clone()], Sort::Bool),
                    Sort::FSet(Box::new(elem.clone())),
                ],
                Sort::Set(Box::new(elem.clone())),
            ),
        });
        store.app_func(func, &[f, fs])
    }
    pub(crate) fn bag(store: &TermStore, elem: &Sort, f: TermId, fb: TermId) -> TermId {
        let func = store.intern_func(&Func {
            name: names::BAG.into(),
            sort: arrow(
                vec![
                    arrow(vec![elem.clone()], Sort::Nat),
                    Sort::FBag(Box::new(elem.clone())),
                ],
                Sort::Bag(Box::new(elem.clone())),
            ),
        });
        store.app_func(func, &[f, fb])
    }
    fn make(store: &TermStore, name: &str, dom: Vec<Sort>, cod: Sort, args: &[TermId]) -> TermId {
        let f = store.intern_func(&Func {
            name: name.into(),
            sort: arrow(dom, cod),
        });
        store.app_func(f, args)
    }
}

/// Errors converting IR expressions into terms.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    /// A number literal that is not a value of its sort (e.g. `0` of sort `Pos`).
    #[error("the literal {value} is not a value of sort {sort:?}")]
    BadLiteral {
        /// The literal.
        value: String,
        /// Its sort.
        sort: Sort,
    },
}

/// Converts a typed IR expression into a term (not yet rewritten).
pub fn expr_to_term(store: &TermStore, e: &DataExpr) -> Result<TermId, ConvertError> {
    Ok(match e {
        DataExpr::Var(v) => store.var(store.intern_var(v)),
        DataExpr::Func(f) => {
            let cod = f.sort.clone();
            match (&*f.name, &cod) {
                (names::EMPTY_SET | names::EMPTY_BAG, Sort::Set(el)) => Internal::set(
                    store,
                    el,
                    Internal::false_fn(store, el),
                    Internal::fset(store, el, &[]),
                ),
                (names::EMPTY_SET | names::EMPTY_BAG, Sort::Bag(el)) => Internal::bag(
                    store,
                    el,
                    Internal::zero_fn(store, el),
                    Internal::fbag(store, el, &[]),
                ),
                (names::EMPTY_SET | names::EMPTY_BAG, Sort::FSet(el)) => {
                    Internal::fset(store, el, &[])
                }
                (names::EMPTY_SET | names::EMPTY_BAG, Sort::FBag(el)) => {
                    Internal::fbag(store, el, &[])
                }
                _ => store.func(store.intern_func(f)),
            }
        }
        DataExpr::Number { value, sort } => number(store, value, sort)?,
        DataExpr::App { head, args } => {
            let h = expr_to_term(store, head)?;
            let a = args
                .iter()
                .map(|x| expr_to_term(store, x))
                .collect::<Result<Vec<_>, _>>()?;
            store.app(h, &a)
        }
        DataExpr::Binder { kind, vars, body } => {
            let vs: Vec<_> = vars.iter().map(|v| store.intern_var(v)).collect();
            let b = expr_to_term(store, body)?;
            store.binder(*kind, &vs, b)
        }
        DataExpr::Whr { body, defs } => {
            let vs: Vec<_> = defs.iter().map(|(v, _)| store.intern_var(v)).collect();
            let b = expr_to_term(store, body)?;
            let args = defs
                .iter()
                .map(|(_, x)| expr_to_term(store, x))
                .collect::<Result<Vec<_>, _>>()?;
            let lam = store.binder(Binder::Lambda, &vs, b);
            store.app(lam, &args)
        }
        DataExpr::ListEnum { elems, sort } => {
            let el = elem_sort(sort);
            let mut t = Internal::nil(store, &el);
            let cons = Internal::cons(store, &el);
            for x in elems.iter().rev() {
                let h = expr_to_term(store, x)?;
                t = store.app(cons, &[h, t]);
            }
            t
        }
        DataExpr::SetEnum { elems, sort } => {
            let el = elem_sort(sort);
            let a = elems
                .iter()
                .map(|x| expr_to_term(store, x))
                .collect::<Result<Vec<_>, _>>()?;
            let fs = if a.is_empty() {
                Internal::fset(store, &el, &[])
            } else {
                Internal::make(
                    store,
                    names::FSET_MAKE,
                    vec![el.clone()],
                    Sort::FSet(Box::new(el.clone())),
                    &a,
                )
            };
            match sort {
                Sort::Set(_) => Internal::set(store, &el, Internal::false_fn(store, &el), fs),
                _ => fs,
            }
        }
        DataExpr::BagEnum { elems, sort } => {
            let el = elem_sort(sort);
            let mut a = Vec::with_capacity(elems.len() * 2);
            for (x, n) in elems {
                a.push(expr_to_term(store, x)?);
                a.push(expr_to_term(store, n)?);
            }
            let fb = if a.is_empty() {
                Internal::fbag(store, &el, &[])
            } else {
                Internal::make(
                    store,
                    names::FBAG_MAKE,
                    vec![el.clone(), Sort::Nat],
                    Sort::FBag(Box::new(el.clone())),
                    &a,
                )
            };
            match sort {
                Sort::Bag(_) => Internal::bag(store, &el, Internal::zero_fn(store, &el), fb),
                _ => fb,
            }
        }
    })
}

fn number(store: &TermStore, value: &BigInt, sort: &Sort) -> Result<TermId, ConvertError> {
    let bad = || ConvertError::BadLiteral {
        value: value.to_string(),
        sort: sort.clone(),
    };
    match sort {
        Sort::Real => Ok(store.real(&BigRational::from_integer(value.clone()))),
        s => {
            let ns = NumSort::of(s).ok_or_else(bad)?;
            let ok = match ns {
                NumSort::Pos => value.is_positive(),
                NumSort::Nat => !value.is_negative(),
                NumSort::Int => true,
            };
            if !ok {
                return Err(bad());
            }
            Ok(store.big_num(ns, value))
        }
    }
}

fn func_expr(name: &str, sort: Sort) -> DataExpr {
    DataExpr::Func(Func {
        name: name.into(),
        sort,
    })
}

fn app(head: DataExpr, args: Vec<DataExpr>) -> DataExpr {
    DataExpr::App {
        head: Box::new(head),
        args,
    }
}

fn negate_literal(abs: BigInt, lit_sort: Sort, result: Sort) -> DataExpr {
    app(
        func_expr("-", arrow(vec![lit_sort.clone()], result)),
        vec![DataExpr::Number {
            value: abs,
            sort: lit_sort,
        }],
    )
}

fn int_expr(v: BigInt, sort: Sort) -> DataExpr {
    if v.is_negative() {
        negate_literal(-v, Sort::Pos, sort)
    } else {
        DataExpr::Number { value: v, sort }
    }
}

/// Converts a term (normally a normal form) back into the IR, in the form mCRL2's pretty
/// printer shows: closed lists as `[…]`, finite sets and bags as `{…}` / `{e: n, …}`,
/// negative numbers as unary minus on a literal, non-integral reals as `n / d`.
pub fn term_to_expr(store: &TermStore, t: TermId) -> DataExpr {
    match store.get(t) {
        Term::Var(v) => DataExpr::Var(store.var_of(*v).clone()),
        Term::Num(s, v) => int_expr(BigInt::from(*v), s.sort()),
        Term::BigNum(s, v) => int_expr((**v).clone(), s.sort()),
        Term::Real(r) => {
            let (n, d) = (r.numer().clone(), r.denom().clone());
            if d.is_one() {
                if n.is_negative() {
                    negate_literal(-n, Sort::Real, Sort::Real)
                } else {
                    DataExpr::Number {
                        value: n,
                        sort: Sort::Real,
                    }
                }
            } else {
                app(
                    func_expr("/", arrow(vec![Sort::Int, Sort::Pos], Sort::Real)),
                    vec![
                        int_expr(n, Sort::Int),
                        DataExpr::Number {
                            value: d,
                            sort: Sort::Pos,
                        },
                    ],
                )
            }
        }
        Term::Binder(kind, vs, body) => DataExpr::Binder {
            kind: *kind,
            vars: vs.iter().map(|v| store.var_of(*v).clone()).collect(),
            body: Box::new(term_to_expr(store, *body)),
        },
        Term::Func(f) => {
            let func = store.func_of(*f);
            match &*func.name {
                names::EMPTY_SET if matches!(func.sort, Sort::FSet(_)) => DataExpr::SetEnum {
                    elems: vec![],
                    sort: func.sort.clone(),
                },
                names::EMPTY_BAG if matches!(func.sort, Sort::FBag(_)) => DataExpr::BagEnum {
                    elems: vec![],
                    sort: func.sort.clone(),
                },
                "[]" => DataExpr::ListEnum {
                    elems: vec![],
                    sort: func.sort.clone(),
                },
                _ => DataExpr::Func(func.clone()),
            }
        }
        Term::App(h, args) => {
            if let Term::Func(f) = store.get(*h) {
                let func = store.func_of(*f);
                match &*func.name {
                    "|>" if args.len() == 2 => {
                        if let Some(e) = list_expr(store, t) {
                            return e;
                        }
                    }
                    names::FSET | names::FSET_MAKE => {
                        return DataExpr::SetEnum {
                            elems: args.iter().map(|a| term_to_expr(store, *a)).collect(),
                            sort: func.sort.codomain().clone(),
                        }
                    }
                    names::FBAG | names::FBAG_MAKE => {
                        return DataExpr::BagEnum {
                            elems: args
                                .chunks(2)
                                .map(|c| (term_to_expr(store, c[0]), term_to_expr(store, c[1])))
                                .collect(),
                            sort: func.sort.codomain().clone(),
                        }
                    }
                    names::SET | names::BAG if args.len() == 2 => {
                        if let Some(e) =
                            set_expr(store, &*func.name == names::SET, args[0], args[1])
                        {
                            return e;
                        }
                    }
                    _ => {}
                }
            }
            app(
                term_to_expr(store, *h),
                args.iter().map(|a| term_to_expr(store, *a)).collect(),
            )
        }
    }
}

fn list_expr(store: &TermStore, mut t: TermId) -> Option<DataExpr> {
    let mut elems = Vec::new();
    loop {
        match store.as_func_app(t) {
            Some((f, args)) if &*store.func_of(f).name == "|>" && args.len() == 2 => {
                elems.push(term_to_expr(store, args[0]));
                t = args[1];
            }
            Some((f, [])) if &*store.func_of(f).name == "[]" => {
                return Some(DataExpr::ListEnum {
                    elems,
                    sort: store.func_of(f).sort.clone(),
                })
            }
            _ => return None,
        }
    }
}

/// A set or bag value as mCRL2's printer shows it (`print.h`): `@set(@false_, s)` as `s`,
/// `@set(@true_, s)` as `!s`, `@set(lambda x. c, {})` as `{ x: S | c }`, any other
/// `@set(f, s)` as `{ x: S | f(x) != x in s }`; `@bag(@zero_, b)` as `b`, `@bag(f, b)` as
/// `{ x: S | @swap_zero(f(x), count(x, b)) }` (just `f(x)` when `b` is empty).
fn set_expr(store: &TermStore, is_set: bool, f: TermId, fin: TermId) -> Option<DataExpr> {
    let sort = store.sort_of(fin);
    let el = elem_sort(&sort);
    let outer = if is_set {
        Sort::Set(Box::new(el.clone()))
    } else {
        Sort::Bag(Box::new(el.clone()))
    };
    let fin_expr = match term_to_expr(store, fin) {
        DataExpr::SetEnum { elems, .. } => DataExpr::SetEnum {
            elems,
            sort: outer.clone(),
        },
        DataExpr::BagEnum { elems, .. } => DataExpr::BagEnum {
            elems,
            sort: outer.clone(),
        },
        other => other,
    };
    let empty = match &fin_expr {
        DataExpr::SetEnum { elems, .. } => elems.is_empty(),
        DataExpr::BagEnum { elems, .. } => elems.is_empty(),
        _ => false,
    };
    let const_name = store
        .as_func_app(f)
        .filter(|(_, a)| a.is_empty())
        .map(|(g, _)| store.func_of(g).name.clone());
    match const_name.as_deref() {
        Some(names::FALSE_FN) if is_set => return Some(fin_expr),
        Some(names::ZERO_FN) if !is_set => return Some(fin_expr),
        Some(names::TRUE_FN) if is_set => {
            return Some(app(
                func_expr("!", arrow(vec![outer.clone()], outer)),
                vec![fin_expr],
            ))
        }
        _ => {}
    }
    let comprehension = |var: Var, body: DataExpr| DataExpr::Binder {
        kind: if is_set {
            Binder::SetComprehension
        } else {
            Binder::BagComprehension
        },
        vars: vec![var],
        body: Box::new(body),
    };
    // A lambda over an empty finite part prints as the comprehension it came from.
    let lambda = match store.get(f) {
        Term::Binder(Binder::Lambda, vs, b) if vs.len() == 1 => Some((vs[0], *b)),
        _ => None,
    };
    if let (Some((v, b)), true) = (lambda, empty) {
        return Some(comprehension(
            store.var_of(v).clone(),
            term_to_expr(store, b),
        ));
    }
    // Otherwise a fresh `x` (as mCRL2: `x`, or `x1`, `x2`, … if `x` occurs in the value).
    let mut used = Vec::new();
    var_names(store, f, &mut used);
    var_names(store, fin, &mut used);
    let mut name = "x".to_string();
    let mut i = 0;
    while used.iter().any(|n| **n == *name) {
        i += 1;
        name = format!("x{i}");
    }
    let var = Var {
        name: name.into(),
        sort: el.clone(),
    };
    let x = DataExpr::Var(var.clone());
    let fx = if !is_set && const_name.as_deref() == Some(names::ONE_FN) {
        DataExpr::Number {
            value: BigInt::one(),
            sort: Sort::Nat,
        }
    } else {
        app(term_to_expr(store, f), vec![x.clone()])
    };
    let body = if empty {
        fx
    } else if is_set {
        let inn = app(
            func_expr("in", arrow(vec![el.clone(), outer.clone()], Sort::Bool)),
            vec![x, fin_expr],
        );
        app(
            func_expr("!=", arrow(vec![Sort::Bool, Sort::Bool], Sort::Bool)),
            vec![fx, inn],
        )
    } else {
        let cnt = app(
            func_expr("count", arrow(vec![el.clone(), outer.clone()], Sort::Nat)),
            vec![x, fin_expr],
        );
        app(
            func_expr(
                names::SWAP_ZERO,
                arrow(vec![Sort::Nat, Sort::Nat], Sort::Nat),
            ),
            vec![fx, cnt],
        )
    };
    Some(comprehension(var, body))
}

/// Names of all variables (free and bound) in `t`.
fn var_names(store: &TermStore, t: TermId, out: &mut Vec<super::ir::Name>) {
    match store.get(t) {
        Term::Var(v) => out.push(store.var_of(*v).name.clone()),
        Term::Binder(_, vs, b) => {
            out.extend(vs.iter().map(|v| store.var_of(*v).name.clone()));
            var_names(store, *b, out);
        }
        Term::App(h, args) => {
            var_names(store, *h, out);
            for a in args.iter() {
                var_names(store, *a, out);
            }
        }
        _ => {}
    }
}
