//! mCRL2's bounded search for a quantifier over numbers that no condition bounds.
//!
//! mCRL2's rewriter eliminates `exists x: Nat . φ` by enumerating `x` breadth-first over
//! the sort's constructors (`0 | succ(n)` for `Nat`, `1 | succ(p)` for `Pos`,
//! `cint(n) | cneg(p)` for `Int`, `true | false` for `Bool`; the fresh argument variables go
//! to the back of the list still to enumerate) and gives up after a number of processed
//! elements, its `--qlimit` (10 by default in every tool): `exists x: Nat . x > 5` is `true`
//! (the sixth value is reached), `exists x: Nat . x > 20` stays as it is. When muon's own
//! enumerator cannot bound such a variable, the rewriter asks this search for a witness
//! (a counterexample for `forall`) among the values mCRL2 reaches within its limit.
//!
//! mCRL2 also drops a partial element whose condition rewrites to `false` (`x < 0` drops
//! `cint(n)`, so `exists x: Int . x < -4` reaches `-5`), and so does this search, with
//! muon's rewriter on the partial value (`Nat2Int(n)`, `-(p)`, `k + n`). The two rewriters
//! do not prove the same open terms `false`, but a witness's partial elements are never
//! `false`, so pruning can only bring later values within the limit: a witness mCRL2 finds
//! is found here whenever muon prunes at least what mCRL2 does, and one found here is a
//! real witness either way. When none is found the quantifier stays as a stuck term.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::ir::{Func, Sort};
use super::rewrite::{RewriteError, Rewriter};
use super::store::{NumSort, TermId, VarId};

/// mCRL2's default quantifier enumeration limit (`-Q`/`--qlimit` of its rewriting tools):
/// the number of partial solutions its enumerator processes before it gives up.
pub const MCRL2_QLIMIT: usize = 10;

/// The limit in force: one per process, as mCRL2's (its tools set it from `-Q` before they
/// rewrite anything).
static LIMIT: AtomicUsize = AtomicUsize::new(MCRL2_QLIMIT);

/// Sets the limit (`-Q`); 0 is mCRL2's "no limit", which here stops at the rewriter's
/// enumeration budget instead of looking for ever.
pub fn set_limit(n: usize) {
    LIMIT.store(n, Ordering::Relaxed);
}

/// The limit in force (see [`set_limit`]).
pub fn limit() -> usize {
    LIMIT.load(Ordering::Relaxed)
}

/// The kinds of variables the search knows the constructors of.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Bool,
    Nat,
    Pos,
    Int,
}

impl Kind {
    fn of(sort: &Sort) -> Option<Kind> {
        match sort {
            Sort::Bool => Some(Kind::Bool),
            Sort::Nat => Some(Kind::Nat),
            Sort::Pos => Some(Kind::Pos),
            Sort::Int => Some(Kind::Int),
            _ => None,
        }
    }
}

/// A requested variable's value in a partial solution.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Val {
    Bool(bool),
    Num(i64),
    /// `sign * (offset + h)` where `h` is a variable of kind `kind` still to enumerate
    /// (each constructor has at most one argument, so a value has at most one hole).
    Open {
        sign: i64,
        offset: i64,
        kind: Kind,
    },
}

/// One of mCRL2's enumerator elements: the values so far and the variables (by the index
/// of the requested variable whose hole they are) still to enumerate, front first.
struct Element {
    vals: Vec<Val>,
    pending: VecDeque<usize>,
}

/// Whether every variable of `vars` has a sort this search enumerates.
pub fn covers(rw: &Rewriter<'_>, vars: &[VarId]) -> bool {
    vars.iter()
        .all(|v| Kind::of(&rw.store().var_of(*v).sort).is_some())
}

/// What [`search`] asks its caller about an element.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ask {
    /// A complete solution: stop the search?
    Report,
    /// A partial element: drop it (its condition is `false`)?
    Prune,
}

/// Walks mCRL2's enumeration for variables of `kinds` for at most `limit` processed
/// elements: `visit(values, Ask::Report)` for each complete solution in mCRL2's order
/// (`true` stops the search), `visit(values, Ask::Prune)` for each partial element before it
/// is queued (`true` drops it). Returns whether a report stopped it.
fn search(kinds: &[Kind], limit: usize, visit: &mut dyn FnMut(&[Val], Ask) -> bool) -> bool {
    let mut queue = VecDeque::from([Element {
        vals: kinds
            .iter()
            .map(|&kind| Val::Open {
                sign: 1,
                offset: 0,
                kind,
            })
            .collect(),
        pending: (0..kinds.len()).collect(),
    }]);
    let mut count = 0;
    while let Some(e) = queue.pop_front() {
        if count >= limit {
            return false;
        }
        count += 1;
        let mut pending = e.pending;
        let Some(i) = pending.pop_front() else {
            continue; // only an initial element of no variables: never asked for
        };
        let Val::Open { sign, offset, kind } = e.vals[i] else {
            unreachable!("a pending variable has a hole")
        };
        // Each constructor's value, and whether it has an argument still to enumerate.
        let children: [(Val, bool); 2] = match kind {
            Kind::Bool => [(Val::Bool(true), false), (Val::Bool(false), false)],
            Kind::Nat => [
                (Val::Num(sign * offset), false),
                (
                    Val::Open {
                        sign,
                        offset: offset + 1,
                        kind: Kind::Nat,
                    },
                    true,
                ),
            ],
            Kind::Pos => [
                (Val::Num(sign * (offset + 1)), false),
                (
                    Val::Open {
                        sign,
                        offset: offset + 1,
                        kind: Kind::Pos,
                    },
                    true,
                ),
            ],
            Kind::Int => [
                (
                    Val::Open {
                        sign: 1,
                        offset: 0,
                        kind: Kind::Nat,
                    },
                    true,
                ),
                (
                    Val::Open {
                        sign: -1,
                        offset: 0,
                        kind: Kind::Pos,
                    },
                    true,
                ),
            ],
        };
        for (val, open) in children {
            let mut vals = e.vals.clone();
            vals[i] = val;
            let mut rest = pending.clone();
            if open {
                rest.push_back(i);
            }
            if rest.is_empty() {
                if visit(&vals, Ask::Report) {
                    return true;
                }
            } else if !visit(&vals, Ask::Prune) {
                queue.push_back(Element {
                    vals,
                    pending: rest,
                });
            }
        }
    }
    false
}

/// Looks for values of `vars` (all of sorts [`covers`] takes) that make `goal` rewrite to
/// `true` among those mCRL2 reaches within the limit in force ([`limit`], by default
/// [`MCRL2_QLIMIT`]; see the module documentation). `Ok(true)`: found; `Ok(false)`: none reached.
pub fn find_witness(
    rw: &mut Rewriter<'_>,
    vars: &[VarId],
    goal: TermId,
) -> Result<bool, RewriteError> {
    let store = rw.store();
    let kinds: Vec<Kind> = vars
        .iter()
        .map(|v| Kind::of(&store.var_of(*v).sort).expect("a sort the search covers"))
        .collect();
    let (tt, ff) = (store.true_term(), store.false_term());
    let mut err = None;
    let mut sigma: Vec<(VarId, TermId)> = Vec::new();
    // The hole of each variable's partial value, per hole sort (`Nat`, `Pos`): made once
    // per search, not per element (every fresh variable stays in the term store).
    let mut holes: Vec<[Option<VarId>; 2]> = vec![[None; 2]; vars.len()];
    let steps = match limit() {
        0 => rw.enum_budget,
        n => n,
    };
    let found = search(&kinds, steps, &mut |vals, ask| {
        let mut run = || -> Result<TermId, RewriteError> {
            sigma.clear();
            for (i, ((v, k), val)) in vars.iter().zip(&kinds).zip(vals).enumerate() {
                if let Some(t) = value_term(rw, *k, *val, &mut holes[i])? {
                    sigma.push((*v, t));
                }
            }
            rw.rewrite_with(goal, &sigma)
        };
        match (run(), ask) {
            (Ok(r), Ask::Report) => r == tt,
            (Ok(r), Ask::Prune) => r == ff,
            // An open term the rewriter cannot take is simply not pruned.
            (Err(_), Ask::Prune) => false,
            (Err(e), Ask::Report) => {
                err = Some(e);
                true
            }
        }
    });
    match err {
        Some(e) => Err(e),
        None => Ok(found),
    }
}

/// The normal form of a variable's value of kind `kind` (its sort), complete or partial
/// with a variable for the hole (`holes[0]` of sort `Nat`, `holes[1]` of sort `Pos`, made
/// fresh when first needed); `None` when it is still the whole sort.
fn value_term(
    rw: &mut Rewriter<'_>,
    kind: Kind,
    val: Val,
    holes: &mut [Option<VarId>; 2],
) -> Result<Option<TermId>, RewriteError> {
    let store = rw.store();
    let num = |s: NumSort, n: i64| store.num(s, n);
    let func = |name: &str, dom: Vec<Sort>, cod: Sort| {
        store.intern_func(&Func {
            name: name.into(),
            sort: Sort::Arrow(dom, Box::new(cod)),
        })
    };
    let t = match val {
        Val::Bool(b) => {
            return Ok(Some(if b {
                store.true_term()
            } else {
                store.false_term()
            }))
        }
        Val::Num(n) => {
            let s = match kind {
                Kind::Pos => NumSort::Pos,
                Kind::Nat => NumSort::Nat,
                _ => NumSort::Int,
            };
            return Ok(Some(num(s, n)));
        }
        Val::Open {
            sign: 1,
            offset: 0,
            kind: k,
        } if k == kind => return Ok(None),
        Val::Open {
            sign,
            offset,
            kind: hole,
        } => {
            let (hs, s) = if hole == Kind::Pos {
                (Sort::Pos, NumSort::Pos)
            } else {
                (Sort::Nat, NumSort::Nat)
            };
            let slot = &mut holes[usize::from(hole == Kind::Pos)];
            let h = *slot.get_or_insert_with(|| rw.fresh_var(&hs));
            // `offset + h`, of the hole's sort.
            let mut t = store.var(h);
            if offset > 0 {
                let plus = func("+", vec![hs.clone(), hs.clone()], hs.clone());
                t = store.app_func(plus, &[num(s, offset), t]);
            }
            if kind == Kind::Int {
                t = if sign < 0 {
                    store.app_func(func("-", vec![hs], Sort::Int), &[t])
                } else {
                    let name = if hole == Kind::Pos {
                        "Pos2Int"
                    } else {
                        "Nat2Int"
                    };
                    store.app_func(func(name, vec![hs], Sort::Int), &[t])
                };
            }
            t
        }
    };
    rw.rewrite(t).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reached(kinds: &[Kind], limit: usize) -> Vec<Vec<Val>> {
        let mut out = Vec::new();
        search(kinds, limit, &mut |v, ask| {
            if ask == Ask::Report {
                out.push(v.to_vec());
            }
            false
        });
        out
    }

    fn nums(v: &[Vec<Val>]) -> Vec<i64> {
        v.iter()
            .map(|x| match x[0] {
                Val::Num(n) => n,
                _ => panic!("{x:?}"),
            })
            .collect()
    }

    // The values mCRL2 202607.0's `mcrl2i -Q<limit>` finds for `exists x: S . f(x)` with an
    // opaque `f` true at one value only.
    #[test]
    fn one_variable_reaches_what_mcrl2_reaches() {
        assert_eq!(
            nums(&reached(&[Kind::Nat], 10)),
            (0..10).collect::<Vec<_>>()
        );
        assert_eq!(nums(&reached(&[Kind::Nat], 3)), [0, 1, 2]);
        assert_eq!(nums(&reached(&[Kind::Nat], 5)), [0, 1, 2, 3, 4]);
        assert_eq!(
            nums(&reached(&[Kind::Nat], 20)),
            (0..20).collect::<Vec<_>>()
        );
        assert_eq!(
            nums(&reached(&[Kind::Pos], 10)),
            (1..=10).collect::<Vec<_>>()
        );
        assert_eq!(
            nums(&reached(&[Kind::Int], 10)),
            [0, -1, 1, -2, 2, -3, 3, -4, 4]
        );
    }

    #[test]
    fn pairs_come_breadth_first_with_fresh_variables_last() {
        let got: Vec<(i64, i64)> = reached(&[Kind::Nat, Kind::Nat], 10)
            .iter()
            .map(|v| match (v[0], v[1]) {
                (Val::Num(a), Val::Num(b)) => (a, b),
                _ => panic!(),
            })
            .collect();
        assert_eq!(got, [(0, 0), (0, 1), (1, 0), (0, 2), (2, 0), (1, 1)]);
        let bools = reached(&[Kind::Bool, Kind::Pos], 10);
        assert_eq!(bools[0], [Val::Bool(true), Val::Num(1)]);
        assert_eq!(bools[1], [Val::Bool(false), Val::Num(1)]);
    }
}
