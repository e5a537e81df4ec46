//! Summand guards: the conjuncts of a summand's condition that compare a process parameter
//! with a literal (`p == v`, `!(p == v)`, `p != v` for a number, a Boolean or a constant
//! constructor of a struct; `p < v`, `p <= v`, `p > v`, `p >= v` for numbers; `b`, `!b` for
//! a Boolean), checked on the state row before the summand memo is consulted.
//!
//! Why: a linearised parallel composition has hundreds of summands, each enabled only in a
//! few control states (`s2 == 1 && s4 == 2 && …`). Without guards every summand costs a
//! memo look-up per state, keyed by every parameter it reads: on C.1 (296 summands) those
//! look-ups, nearly all for disabled summands, were two thirds of the exploration time,
//! mostly cache misses in large tables. A guard is two word comparisons.
//!
//! Soundness: an equality guard fails only when the parameter's value is a *different
//! literal of the same kind* (two distinct numbers, two distinct constant constructors), a
//! disequality only on the literal itself, an ordering only on a number out of range: then
//! the conjunct rewrites to `false` and so does the conjunction (`x && false` is `false`), so the summand
//! has no transitions, exactly what its evaluation gives. Any other value (an unreduced
//! application, a constructor with arguments) passes and the condition is rewritten as
//! before. Guards are taken only from the conjuncts evaluated before any conjunct that might
//! not terminate or fail (only conjuncts of variables, literals, built-ins, constructors,
//! projections and recognisers come before them, no symbol with equations), so a summand
//! skipped by a guard would not have stopped the exploration with a rewriting error either.

use crate::data::ir::{DataSpec, Sort, SortDef};
use crate::data::{NumSort, Rewriter, Term, TermId, TermStore, VarId};

/// What the values a guard can decide look like.
#[derive(Debug, Clone)]
enum Domain {
    /// A number (`Pos`, `Nat`, `Int` machine word).
    Num,
    /// One of these constants (`true`/`false`, or a struct's constant constructors).
    Consts(Box<[TermId]>),
}

/// How a guard compares the parameter's value with its literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Test {
    /// `p == v`: fails on another literal of the domain.
    Eq,
    /// `!(p == v)` or `p != v`: fails on `v` itself (equal ids are equal values).
    Ne,
    /// `p < v`, `p <= v`, `p > v`, `p >= v` on numbers (parameter on the left): fails on a
    /// number outside the range.
    Cmp(std::cmp::Ordering, bool),
}

/// One guard: a conjunct on parameter `param` and literal `value` that a state row can
/// decide to be false.
#[derive(Debug, Clone)]
pub(super) struct Guard {
    param: u32,
    value: TermId,
    test: Test,
    domain: Domain,
}

impl Guard {
    /// Whether `state` decides this guard's conjunct to be `false`.
    #[inline]
    pub(super) fn fails(&self, store: &TermStore, state: &[u32]) -> bool {
        let v = state[self.param as usize];
        match self.test {
            Test::Ne => v == self.value.0,
            Test::Eq => {
                v != self.value.0
                    && match &self.domain {
                        Domain::Num => matches!(store.get(TermId(v)), Term::Num(..)),
                        Domain::Consts(cs) => cs.contains(&TermId(v)),
                    }
            }
            Test::Cmp(want, or_equal) => {
                let (Term::Num(_, x), Term::Num(_, y)) =
                    (store.get(TermId(v)), store.get(self.value))
                else {
                    return false;
                };
                let ord = x.cmp(y);
                !(ord == want || (or_equal && ord == std::cmp::Ordering::Equal))
            }
        }
    }
}

/// The guards of condition `cond`: from its conjuncts (left to right, the order they are
/// rewritten in) up to the first one that is neither a guard nor a comparison of numbers.
/// `params` are the LPS's parameters; `sum_vars` shadow parameters of the same name.
pub(super) fn guards(
    rw: &Rewriter<'_>,
    params: &[VarId],
    sum_vars: &[VarId],
    cond: TermId,
) -> Vec<Guard> {
    let (store, spec) = (rw.store(), rw.spec());
    let mut conjuncts = Vec::new();
    flatten_and(store, cond, &mut conjuncts);
    let param_of = |t: TermId| -> Option<(u32, VarId)> {
        let Term::Var(v) = store.get(t) else {
            return None;
        };
        if sum_vars.contains(v) {
            return None;
        }
        let i = params.iter().position(|p| p == v)?;
        Some((i as u32, *v))
    };
    let mut out = Vec::new();
    for c in conjuncts {
        if let Some(g) = guard_of(store, spec, c, &param_of) {
            out.push(g);
        } else if !terminates(rw, c) {
            break;
        }
    }
    out
}

/// The conjuncts of `t` (nested `&&`), left to right.
fn flatten_and(store: &TermStore, t: TermId, out: &mut Vec<TermId>) {
    match store.as_func_app(t) {
        Some((f, [a, b])) if &*store.func_of(f).name == "&&" => {
            flatten_and(store, *a, out);
            flatten_and(store, *b, out);
        }
        _ => out.push(t),
    }
}

/// The guard of conjunct `c` if it is `p == v`, `v == p`, `p` or `!p` for a parameter `p`
/// and a literal `v`.
fn guard_of(
    store: &TermStore,
    spec: &DataSpec,
    c: TermId,
    param_of: &dyn Fn(TermId) -> Option<(u32, VarId)>,
) -> Option<Guard> {
    let bools = || Domain::Consts([store.true_term(), store.false_term()].into());
    if let Some((param, _)) = param_of(c) {
        return Some(Guard {
            param,
            value: store.true_term(),
            test: Test::Eq,
            domain: bools(),
        });
    }
    let (f, args) = store.as_func_app(c)?;
    let name = &*store.func_of(f).name;
    if name == "!" {
        let arg = *args.first()?;
        if let Some((param, v)) = param_of(arg) {
            if store.var_of(v).sort != Sort::Bool {
                return None;
            }
            return Some(Guard {
                param,
                value: store.false_term(),
                test: Test::Eq,
                domain: bools(),
            });
        }
        // `!(p == v)`: false exactly when `p` is `v`.
        let g = guard_of(store, spec, arg, param_of)?;
        return (g.test == Test::Eq).then_some(Guard {
            test: Test::Ne,
            ..g
        });
    }
    let [a, b] = args else {
        return None;
    };
    let (param, v, lit) = match (param_of(*a), param_of(*b)) {
        (Some((p, v)), None) if store.is_closed(*b) => (p, v, *b),
        (None, Some((p, v))) if name == "==" || name == "!=" => {
            if !store.is_closed(*a) {
                return None;
            }
            (p, v, *a)
        }
        _ => return None,
    };
    use std::cmp::Ordering::{Greater, Less};
    let test = match name {
        "==" => Test::Eq,
        "!=" => Test::Ne,
        "<" => Test::Cmp(Less, false),
        "<=" => Test::Cmp(Less, true),
        ">" => Test::Cmp(Greater, false),
        ">=" => Test::Cmp(Greater, true),
        _ => return None,
    };
    if matches!(test, Test::Cmp(..)) {
        // Ordering on machine-word numbers of the parameter's own sort only.
        let num = matches!(store.get(lit), Term::Num(s, _) if NumSort::of(&store.var_of(v).sort) == Some(*s));
        return num.then_some(Guard {
            param,
            value: lit,
            test,
            domain: Domain::Num,
        });
    }
    let domain = match (store.get(lit), &store.var_of(v).sort) {
        (Term::Num(s, _), sort) if NumSort::of(sort) == Some(*s) => Domain::Num,
        (Term::Func(_), Sort::Bool) if lit == store.true_term() || lit == store.false_term() => {
            bools()
        }
        (Term::Func(_), Sort::Named(n)) => {
            let consts = struct_constants(store, spec, n)?;
            if !consts.contains(&lit) {
                return None;
            }
            Domain::Consts(consts.into())
        }
        _ => return None,
    };
    Some(Guard {
        param,
        value: lit,
        test,
        domain,
    })
}

/// The constant constructors of struct sort `name` as terms (`None` for other sorts).
fn struct_constants(store: &TermStore, spec: &DataSpec, name: &str) -> Option<Vec<TermId>> {
    let decl = spec.sorts.iter().find(|d| &*d.name == name)?;
    let SortDef::Struct(conss) = &decl.def else {
        return None;
    };
    let sort = Sort::Named(decl.name.clone());
    Some(
        conss
            .iter()
            .filter(|c| c.fields.is_empty())
            .map(|c| {
                store.func(store.intern_func(&crate::data::ir::Func {
                    name: c.name.clone(),
                    sort: sort.clone(),
                }))
            })
            .collect(),
    )
}

/// Whether rewriting `c` surely finishes without an error: variables, literals and
/// applications of symbols without equations (built-ins, constructors, projections,
/// recognisers) other than `exp`, none taking a set, bag or function (whose normal forms
/// may apply lambdas), to arguments that finish.
fn terminates(rw: &Rewriter<'_>, c: TermId) -> bool {
    let store = rw.store();
    match store.get(c) {
        Term::Num(..) | Term::BigNum(..) | Term::Real(_) | Term::Var(_) => true,
        Term::Func(f) => !rw.has_equations(*f),
        Term::App(..) => {
            let Some((f, args)) = store.as_func_app(c) else {
                return false;
            };
            let func = store.func_of(f);
            let plain = func.sort.domain().iter().all(|s| {
                !matches!(
                    s,
                    Sort::Set(_) | Sort::Bag(_) | Sort::Arrow(..) | Sort::Real
                )
            });
            plain
                && &*func.name != "exp"
                && !rw.has_equations(f)
                && args.iter().all(|a| terminates(rw, *a))
        }
        Term::Binder(..) => false,
    }
}
