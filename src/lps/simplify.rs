//! LPS simplifications that keep the reachable state space: sum elimination, constant
//! elimination and (unobservable) parameter elimination.
//!
//! Every decision about data goes through a [`Simplifier`]: the syntactic one decides
//! what is evident from the terms; the data engine's rewriter can be plugged in for more.

use crate::data::finite::is_certainly_finite;
use crate::data::ir::{DataExpr, Var};
use crate::data::ir_ops::{
    as_app, conjuncts, free_vars_into, is_closed, is_false, occurs_free, substitute, Simplifier,
    Subst,
};

use super::{Lps, Summand, SummandAction};

/// Applies `sigma` to every expression of `s` that mentions one of its variables, and
/// simplifies those (the others are left alone: they are already simplified).
fn subst_summand(s: &mut Summand, sigma: &Subst, simp: &dyn Simplifier) {
    let touch = |d: &mut DataExpr| {
        let fv = crate::data::ir_ops::free_vars(d);
        if fv.iter().any(|v| sigma.contains_key(v)) {
            *d = simp.simplify(&substitute(d, sigma));
        }
    };
    touch(&mut s.condition);
    if let SummandAction::Multi(acts) = &mut s.action {
        for a in acts.iter_mut() {
            for d in a.args.iter_mut() {
                touch(d);
            }
        }
        acts.sort();
    }
    for d in s.next.iter_mut() {
        touch(d);
    }
}

fn summand_free_vars(s: &Summand) -> Vec<Var> {
    let mut out = Vec::new();
    free_vars_into(&s.condition, &mut out);
    if let SummandAction::Multi(acts) = &s.action {
        for a in acts {
            for d in &a.args {
                free_vars_into(d, &mut out);
            }
        }
    }
    for d in &s.next {
        free_vars_into(d, &mut out);
    }
    out
}

/// Which unused sum variables sum elimination drops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unused {
    /// Every one (`lpssumelm`): `sum d: Bool . a . P` becomes `a . P`, one transition.
    Drop,
    /// Only those of sorts that are not certainly finite (which no explorer could
    /// enumerate): mCRL2 202607.0's `mcrl22lps` keeps the others outside `comm`, and each of
    /// their values is a transition of its own (`sum d: Bool . a . P` has two,
    /// `sum s: Set(Bool) . a . P` four).
    DropInfinite,
}

/// Sum elimination: a sum variable `v` with a conjunct `v == e` (or `e == v`, `v` not in
/// `e`) in its condition is replaced by `e`; unused sum variables are dropped; summands
/// whose condition simplifies to `false` are removed. Returns the number of sum variables
/// eliminated.
pub fn sumelm(lps: &mut Lps, simp: &dyn Simplifier) -> usize {
    sumelm_with(lps, simp, Unused::Drop)
}

/// [`sumelm`], dropping the unused sum variables `unused` says.
pub fn sumelm_with(lps: &mut Lps, simp: &dyn Simplifier, unused: Unused) -> usize {
    let mut removed = 0;
    for s in lps.summands.iter_mut() {
        // Conditions are rewritten as terms with variables, as mCRL2's rewriter does
        // (`rhead(q) < 1` on `Pos` is `false`, so the summand goes).
        s.condition = simp.normalise(&s.condition);
        loop {
            let mut found: Option<(Var, DataExpr)> = None;
            'search: for c in conjuncts(&s.condition) {
                if let Some(("==", [l, r])) = as_app(&c) {
                    for (x, e) in [(l, r), (r, l)] {
                        if let DataExpr::Var(v) = x {
                            if s.sum_vars.contains(v) && !occurs_free(v, e) {
                                found = Some((v.clone(), e.clone()));
                                break 'search;
                            }
                        }
                    }
                }
            }
            let Some((v, e)) = found else { break };
            let mut sigma = Subst::new();
            sigma.insert(v.clone(), e);
            s.sum_vars.retain(|x| *x != v);
            subst_summand(s, &sigma, simp);
            removed += 1;
        }
        let fv = summand_free_vars(s);
        let before = s.sum_vars.len();
        let data = &lps.data;
        s.sum_vars.retain(|v| {
            fv.contains(v) || (unused == Unused::DropInfinite && is_certainly_finite(&v.sort, data))
        });
        removed += before - s.sum_vars.len();
    }
    lps.summands.retain(|s| !is_false(&s.condition));
    removed
}

/// Constant elimination: parameters that keep their (closed) initial value in every summand
/// that can fire are replaced by that value and removed. Summands whose condition is `false`
/// under the constants are removed (they can never fire). Returns the removed parameters.
pub fn constelm(lps: &mut Lps, simp: &dyn Simplifier) -> Vec<Var> {
    constelm_with(lps, simp, false)
}

/// [`constelm`]; with `instantiate_globals` (as `mcrl22lps` runs it, and `lpsconstelm
/// --instantiate-free-variables`), a next value that is a global variable counts as the
/// parameter's initial value, the global variable taking that value everywhere (mCRL2's
/// `constelm`: `P(g)` after `init P(true)` keeps `b` constant, `g` becoming `true`), unless
/// the parameter turns out not to be constant after all. The instantiated global variables
/// leave `lps.globals`.
pub fn constelm_with(lps: &mut Lps, simp: &dyn Simplifier, instantiate_globals: bool) -> Vec<Var> {
    let n = lps.params.len();
    let mut constant: Vec<Option<DataExpr>> = lps
        .init
        .iter()
        .map(|e| {
            let e = simp.simplify(e);
            if is_closed(&e) {
                Some(e)
            } else {
                None
            }
        })
        .collect();
    // Global variables given a value, and per parameter the ones it gave (undone when the
    // parameter is found to change).
    let mut globals: Subst = Subst::new();
    let mut gave: Vec<Vec<Var>> = vec![Vec::new(); n];
    loop {
        let mut sigma: Subst = (0..n)
            .filter_map(|i| constant[i].clone().map(|c| (lps.params[i].clone(), c)))
            .collect();
        sigma.extend(globals.iter().map(|(k, v)| (k.clone(), v.clone())));
        let mut changed = false;
        for s in &lps.summands {
            let cond = simp.simplify(&substitute(&s.condition, &sigma));
            if is_false(&cond) {
                continue;
            }
            for i in 0..n {
                let Some(c) = constant[i].clone() else {
                    continue;
                };
                if matches!(&s.next[i], DataExpr::Var(v) if *v == lps.params[i]) {
                    continue;
                }
                let v = substitute(&s.next[i], &sigma);
                if v == c {
                    continue;
                }
                let v = simp.simplify(&v);
                if v == c {
                    continue;
                }
                match &v {
                    DataExpr::Var(g)
                        if instantiate_globals
                            && lps.globals.contains(g)
                            && !globals.contains_key(g) =>
                    {
                        globals.insert(g.clone(), c);
                        gave[i].push(g.clone());
                        sigma.insert(g.clone(), constant[i].clone().expect("constant"));
                    }
                    _ => {
                        constant[i] = None;
                        for g in gave[i].drain(..) {
                            globals.remove(&g);
                        }
                    }
                }
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut sigma: Subst = (0..n)
        .filter_map(|i| constant[i].clone().map(|c| (lps.params[i].clone(), c)))
        .collect();
    sigma.extend(globals.iter().map(|(k, v)| (k.clone(), v.clone())));
    if sigma.is_empty() {
        return Vec::new();
    }
    for s in lps.summands.iter_mut() {
        subst_summand(s, &sigma, simp);
    }
    lps.summands.retain(|s| !is_false(&s.condition));
    lps.globals.retain(|g| !globals.contains_key(g));
    let keep: Vec<bool> = constant.iter().map(|c| c.is_none()).collect();
    remove_params(lps, &keep)
}

/// Keeps only the parameters marked in `keep`; returns the removed ones.
fn remove_params(lps: &mut Lps, keep: &[bool]) -> Vec<Var> {
    let removed: Vec<Var> = lps
        .params
        .iter()
        .zip(keep)
        .filter(|(_, k)| !**k)
        .map(|(v, _)| v.clone())
        .collect();
    let filt = |v: &mut Vec<DataExpr>| {
        let mut i = 0;
        v.retain(|_| {
            let k = keep[i];
            i += 1;
            k
        });
    };
    let mut i = 0;
    lps.params.retain(|_| {
        let k = keep[i];
        i += 1;
        k
    });
    filt(&mut lps.init);
    for s in lps.summands.iter_mut() {
        filt(&mut s.next);
    }
    removed
}

/// Parameter elimination: parameters that influence no condition, no action argument and
/// no next value of an influential parameter are removed. Returns the removed parameters.
pub fn parelm(lps: &mut Lps) -> Vec<Var> {
    let n = lps.params.len();
    let mut relevant = vec![false; n];
    let index = |v: &Var| lps.params.iter().position(|p| p == v);
    let mut work: Vec<usize> = Vec::new();
    let mark = |vars: Vec<Var>, relevant: &mut Vec<bool>, work: &mut Vec<usize>| {
        for v in vars {
            if let Some(i) = index(&v) {
                if !relevant[i] {
                    relevant[i] = true;
                    work.push(i);
                }
            }
        }
    };
    for s in &lps.summands {
        let mut fv = Vec::new();
        free_vars_into(&s.condition, &mut fv);
        if let SummandAction::Multi(acts) = &s.action {
            for a in acts {
                for d in &a.args {
                    free_vars_into(d, &mut fv);
                }
            }
        }
        mark(fv, &mut relevant, &mut work);
    }
    while let Some(i) = work.pop() {
        let mut fv = Vec::new();
        for s in &lps.summands {
            free_vars_into(&s.next[i], &mut fv);
        }
        mark(fv, &mut relevant, &mut work);
    }
    remove_params(lps, &relevant)
}

/// The default pipeline of `mcrl22lps`: sumelm, constelm, sumelm. No parelm: mCRL2
/// 202607.0's `mcrl22lps` keeps a parameter nothing observes (`academic/trains` keeps `V`'s
/// Boolean, read only by actions `allow` removes: 32 states, 27 after parelm), so parelm
/// stays the separate `lpsparelm` step, as in mCRL2.
/// Duplicate summands stay: mCRL2 202607.0 gives every summand its own transition, so
/// `a . P + a . P` has two (language/numbers: 59 transitions, not 49). Unused sum variables
/// of finite sorts stay too ([`Unused::DropInfinite`]): mCRL2 drops them only under `comm`,
/// which linearisation does on its own.
pub fn simplify_all(lps: &mut Lps, simp: &dyn Simplifier) {
    sumelm_with(lps, simp, Unused::DropInfinite);
    constelm_with(lps, simp, true);
    sumelm_with(lps, simp, Unused::DropInfinite);
}
