//! Finite sorts: which sorts certainly have finitely many values (mCRL2's rule) and every
//! value of such a sort as a normal form, as mCRL2's enumerator lists them.
//!
//! A sort is certainly finite when it is `Bool`, a sort whose constructors take only
//! certainly finite sorts (no recursion: a sort met again while it is being checked counts
//! as infinite), `Set(S)` or `FSet(S)` with `S` certainly finite, or a function sort whose
//! domain and codomain sorts all are. The values, in mCRL2's order:
//! - `Bool`: `true`, `false`; constructor sorts: constructor by constructor, the arguments'
//!   values combined with the first argument varying slowest;
//! - `FSet(S)`: the `2^n` subsets of the `n` values of `S`, the `i`-th holding value `j`
//!   when bit `j` of `i` is set, each the canonical finite set;
//! - `Set(S)`: `@set(@false_, s)` for each finite set `s` (mCRL2's normal form of a finite
//!   set used as a set);
//! - `D1 # … # Dk -> E`: one `lambda t_0: D1, …, t_(k-1): Dk . body` per function, the body
//!   a chain of `if(t_i == d, …, …)` over the domain values with equal branches merged, then
//!   rewritten. Equal functions are equal terms (each function has exactly one such form)
//!   and different ones different terms, as with mCRL2's lambdas; the bound variables have
//!   fixed names, so a function enumerated twice is the same term both times. (mCRL2 names
//!   them by a counter of the summand's enumeration: where another variable is enumerated
//!   first, one function becomes several terms there, and mCRL2 has more states.)
//!
//! Listing stops at a bound on the number of values ([`MAX_SORT_VALUES`] for the enumerator),
//! decided from the sort's size before any value is built, so nothing hangs.

use std::sync::Arc;

use super::convert::Internal;
use super::ir::{Binder, DataSpec, Func, Sort, Var};
use super::print::sort_to_string;
use super::rewrite::{RewriteError, Rewriter};
use super::store::{TermId, TermStore, VarId};

/// The most values of one sort the enumerator lists (`2^16`, where mCRL2 starts to warn).
pub const MAX_SORT_VALUES: usize = 1 << 16;

/// Why the values of a sort cannot be listed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SortValuesError {
    /// The sort is not certainly finite.
    #[error("{0}")]
    Infinite(&'static str),
    /// The sort is finite but has more values than the limit.
    #[error("the sort has {count} values, more than the limit of {limit}")]
    TooMany {
        /// The number of values (printed; `2^k` forms when it is huge).
        count: String,
        /// The limit.
        limit: usize,
    },
    /// Rewriting a value failed.
    #[error("{0}")]
    Rewrite(Box<RewriteError>),
}

/// Whether `sort` certainly has finitely many values (see the module documentation); mCRL2's
/// `is_certainly_finite`.
pub fn is_certainly_finite(sort: &Sort, spec: &DataSpec) -> bool {
    finiteness(sort, spec, &mut Vec::new()).is_ok()
}

/// `Ok` when `sort` is certainly finite, else why not; `visiting` holds the sorts being
/// checked further up (meeting one again is recursion).
fn finiteness(sort: &Sort, spec: &DataSpec, visiting: &mut Vec<Sort>) -> Result<(), &'static str> {
    if visiting.contains(sort) {
        return Err("the sort is recursive, so it has infinitely many values");
    }
    visiting.push(sort.clone());
    let r = match sort {
        Sort::Bool => Ok(()),
        Sort::Named(_) => {
            let ctors = spec.constructors_of(sort);
            if ctors.is_empty() {
                Err("the sort has no constructors")
            } else {
                ctors
                    .iter()
                    .flat_map(|c| c.sort.domain())
                    .try_for_each(|d| finiteness(d, spec, visiting))
            }
        }
        Sort::Set(e) | Sort::FSet(e) => finiteness(e, spec, visiting),
        Sort::Arrow(dom, cod) => dom
            .iter()
            .chain(std::iter::once(&**cod))
            .try_for_each(|d| finiteness(d, spec, visiting)),
        _ => Err("the sort has infinitely many values"),
    };
    visiting.pop();
    r
}

/// The number of values of a certainly finite sort, saturating at `u128::MAX`.
fn count(sort: &Sort, spec: &DataSpec) -> u128 {
    match sort {
        Sort::Bool => 2,
        Sort::Named(_) => spec
            .constructors_of(sort)
            .iter()
            .map(|c| {
                (c.sort.domain().iter()).fold(1u128, |acc, d| acc.saturating_mul(count(d, spec)))
            })
            .fold(0u128, u128::saturating_add),
        Sort::Set(e) | Sort::FSet(e) => pow_sat(2, count(e, spec)),
        Sort::Arrow(dom, cod) => {
            let args = dom
                .iter()
                .fold(1u128, |acc, d| acc.saturating_mul(count(d, spec)));
            pow_sat(count(cod, spec), args)
        }
        _ => u128::MAX,
    }
}

/// `b^e`, saturating.
fn pow_sat(b: u128, e: u128) -> u128 {
    if b <= 1 {
        return if e == 0 { 1 } else { b };
    }
    u32::try_from(e)
        .ok()
        .and_then(|e| b.checked_pow(e))
        .unwrap_or(u128::MAX)
}

/// The function values of `D1 # … # Dk -> E`, one per index, as mCRL2 numbers them: the
/// index's digits in base `|E|` pick the result at each argument tuple.
struct Functions<'a> {
    doms: &'a [Arc<[TermId]>],
    cods: &'a [TermId],
    params: &'a [TermId],
    /// `==` on each domain sort, and `if` on the codomain.
    eqs: &'a [TermId],
    if_: TermId,
}

impl Functions<'_> {
    /// The body for the argument positions from `arg` on, consuming digits of `index`.
    fn body(&self, store: &TermStore, index: &mut u128, arg: usize) -> TermId {
        if arg == self.doms.len() {
            let n = self.cods.len() as u128;
            let r = self.cods[(*index % n) as usize];
            *index /= n;
            return r;
        }
        // From the last domain value backwards; the last one is the final else branch, and a
        // branch equal to what follows it needs no test.
        let mut result = None;
        for d in self.doms[arg].iter().rev() {
            let branch = self.body(store, index, arg + 1);
            result = Some(match result {
                None => branch,
                Some(r) if r == branch => r,
                Some(r) => {
                    let c = store.app(self.eqs[arg], &[self.params[arg], *d]);
                    store.app(self.if_, &[c, branch, r])
                }
            });
        }
        result.expect("a finite sort has a value")
    }
}

impl<'s> Rewriter<'s> {
    /// Every value of `sort` as a normal form, in mCRL2's enumeration order (see the module
    /// documentation); an error when the sort is not certainly finite or has more than
    /// `limit` values. Cached per rewriter.
    pub fn sort_values(
        &mut self,
        sort: &Sort,
        limit: usize,
    ) -> Result<Arc<[TermId]>, SortValuesError> {
        if let Some(v) = self.value_cache.get(sort) {
            return if v.len() > limit {
                Err(too_many(v.len() as u128, limit))
            } else {
                Ok(v.clone())
            };
        }
        finiteness(sort, self.spec(), &mut Vec::new()).map_err(SortValuesError::Infinite)?;
        let n = count(sort, self.spec());
        if n > limit as u128 {
            return Err(too_many(n, limit));
        }
        let vals: Arc<[TermId]> = self.build_values(sort, limit)?.into();
        debug_assert_eq!(vals.len() as u128, n, "{}", sort_to_string(sort));
        self.value_cache.insert(sort.clone(), vals.clone());
        Ok(vals)
    }

    fn build_values(&mut self, sort: &Sort, limit: usize) -> Result<Vec<TermId>, SortValuesError> {
        let store = self.store();
        Ok(match sort {
            Sort::Bool => vec![store.true_term(), store.false_term()],
            Sort::Named(_) => {
                let mut out = Vec::new();
                for c in self.spec().constructors_of(sort) {
                    let fid = store.intern_func(&c);
                    let mut tuples: Vec<Vec<TermId>> = vec![vec![]];
                    for d in c.sort.domain() {
                        let vals = self.sort_values(d, limit)?;
                        tuples = tuples
                            .iter()
                            .flat_map(|t| vals.iter().map(move |v| [&t[..], &[*v]].concat()))
                            .collect();
                    }
                    out.extend(tuples.iter().map(|t| store.app_func(fid, t)));
                }
                out
            }
            Sort::FSet(e) => {
                let elems = self.sort_values(e, limit)?;
                let mut out = Vec::with_capacity(1 << elems.len());
                for i in 0u64..(1 << elems.len()) {
                    let mut sub: Vec<TermId> = (elems.iter().enumerate())
                        .filter(|(j, _)| i >> j & 1 == 1)
                        .map(|(_, v)| *v)
                        .collect();
                    self.sort_dedup(&mut sub);
                    out.push(Internal::fset(store, e, &sub));
                }
                out
            }
            Sort::Set(e) => {
                let fsets = self.sort_values(&Sort::FSet(e.clone()), limit)?;
                let f = Internal::false_fn(store, e);
                fsets
                    .iter()
                    .map(|s| Internal::set(store, e, f, *s))
                    .collect()
            }
            Sort::Arrow(dom, cod) => self.function_values(dom, cod, limit)?,
            _ => unreachable!("checked to be finite"),
        })
    }

    fn function_values(
        &mut self,
        dom: &[Sort],
        cod: &Sort,
        limit: usize,
    ) -> Result<Vec<TermId>, SortValuesError> {
        let store = self.store();
        let cods = self.sort_values(cod, limit)?;
        let vars: Vec<VarId> = (dom.iter().enumerate())
            .map(|(i, d)| {
                store.intern_var(&Var {
                    name: format!("t_{i}").into(),
                    sort: d.clone(),
                })
            })
            .collect();
        let lambda = |body| store.binder(Binder::Lambda, &vars, body);
        if cods.len() == 1 {
            return Ok(vec![self.rewrite(lambda(cods[0])).map_err(boxed)?]);
        }
        let mut doms = Vec::with_capacity(dom.len());
        for d in dom {
            doms.push(self.sort_values(d, limit)?);
        }
        let func = |name: &str, sort| {
            store.func(store.intern_func(&Func {
                name: name.into(),
                sort,
            }))
        };
        let eqs: Vec<TermId> = (dom.iter())
            .map(|d| {
                func(
                    "==",
                    Sort::Arrow(vec![d.clone(), d.clone()], Box::new(Sort::Bool)),
                )
            })
            .collect();
        let if_ = func(
            "if",
            Sort::Arrow(
                vec![Sort::Bool, cod.clone(), cod.clone()],
                Box::new(cod.clone()),
            ),
        );
        let params: Vec<TermId> = vars.iter().map(|v| store.var(*v)).collect();
        let fs = Functions {
            doms: &doms,
            cods: &cods,
            params: &params,
            eqs: &eqs,
            if_,
        };
        let n = count(
            &Sort::Arrow(dom.to_vec(), Box::new(cod.clone())),
            self.spec(),
        );
        let mut out = Vec::with_capacity(n as usize);
        for i in 0..n {
            let mut index = i;
            let body = fs.body(store, &mut index, 0);
            out.push(self.rewrite(lambda(body)).map_err(boxed)?);
        }
        Ok(out)
    }
}

fn boxed(e: RewriteError) -> SortValuesError {
    SortValuesError::Rewrite(Box::new(e))
}

fn too_many(n: u128, limit: usize) -> SortValuesError {
    let count = if n == u128::MAX {
        "over 2^127".to_string()
    } else {
        n.to_string()
    };
    SortValuesError::TooMany { count, limit }
}
