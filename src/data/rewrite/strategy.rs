//! The order in which the equations of one head symbol are tried: mCRL2's JITty strategy.
//!
//! Why: for equations that overlap with different results (`f(d1) = 1` and `f(x) = 2`), the
//! normal form depends on which equation is tried first, and so can the state space. mCRL2's
//! JITty rewriter (its default) does not try equations in declaration order: per head
//! symbol it builds a strategy that interleaves "rewrite argument i" steps with equations,
//! and an equation is tried as soon as every argument it *needs* has been rewritten. An
//! argument is needed when its pattern is not a variable, or is a variable that also occurs
//! elsewhere in the left-hand side, in the condition, or more than once in the right-hand
//! side. So `f(x) = 2` (needs nothing) comes before `f(d1) = 1` (needs argument 0).
//!
//! The strategy, per number of arguments (fewer first): equations needing nothing come
//! first, in declaration order; then the argument most equations need (the leftmost among
//! equals) is rewritten, and the equations needing nothing more follow, and so on. An
//! argument rewritten for a smaller number of arguments stays rewritten for the larger ones.
//! muon rewrites arguments innermost, so an equation matches exactly where it would in
//! mCRL2 (the arguments it inspects are normal forms in both); only this order is taken
//! over. mCRL2 keeps equations in a set ordered by the address of their terms, which follows
//! their creation, i.e. declaration order; ties are broken by declaration order here.
//!
//! Facts measured with mCRL2 202607.0 (`lps2lts -rjitty`) are pinned by
//! `tests/data_rewrite.rs`. mCRL2's compiling rewriter (`-rjittyc`) decides ties within one
//! step differently (it prefers an equation whose patterns are all variables); muon follows
//! JITty, mCRL2's default.

use super::*;

/// One argument of a left-hand side, as the strategy sees it.
enum Arg {
    /// A variable pattern.
    Var(VarId),
    /// Any other pattern (a closed term or an application).
    Other,
}

/// The arguments of a rule's left-hand side, curried applications flattened
/// (`f(a)(b, c)` has the three arguments `a, b, c`).
fn flat_args(store: &TermStore, rule: &Rule) -> Vec<Arg> {
    fn pat_args(store: &TermStore, p: &Pat, out: &mut Vec<Arg>) {
        match p {
            Pat::AppOf(h, ps) => {
                pat_args(store, h, out);
                out.extend(ps.iter().map(arg_of));
            }
            Pat::App(h, ps) => {
                term_args(store, *h, out);
                out.extend(ps.iter().map(arg_of));
            }
            Pat::Term(t) => term_args(store, *t, out),
            Pat::Var(_) => {}
        }
    }
    fn term_args(store: &TermStore, t: TermId, out: &mut Vec<Arg>) {
        if let Term::App(h, args) = store.get(t) {
            term_args(store, *h, out);
            out.extend(args.iter().map(|_| Arg::Other));
        }
    }
    fn arg_of(p: &Pat) -> Arg {
        match p {
            Pat::Var(v) => Arg::Var(*v),
            _ => Arg::Other,
        }
    }
    if rule.curried {
        let mut out = Vec::new();
        if let Some(p) = rule.pats.first() {
            pat_args(store, p, &mut out);
        }
        out
    } else {
        rule.pats.iter().map(arg_of).collect()
    }
}

/// How often each variable occurs in `t`, binding occurrences included (as mCRL2 counts).
fn count_vars(store: &TermStore, t: TermId, counts: &mut FxHashMap<VarId, u32>) {
    let mut todo = vec![t];
    while let Some(t) = todo.pop() {
        match store.get(t) {
            Term::Var(v) => *counts.entry(*v).or_default() += 1,
            Term::App(h, args) => {
                todo.push(*h);
                todo.extend_from_slice(args);
            }
            Term::Binder(_, vs, body) => {
                for v in vs.iter() {
                    *counts.entry(*v).or_default() += 1;
                }
                todo.push(*body);
            }
            _ => {}
        }
    }
}

fn count_pat_vars(p: &Pat, counts: &mut FxHashMap<VarId, u32>) {
    match p {
        Pat::Var(v) => *counts.entry(*v).or_default() += 1,
        Pat::Term(_) => {}
        Pat::App(_, ps) => ps.iter().for_each(|q| count_pat_vars(q, counts)),
        Pat::AppOf(h, ps) => {
            count_pat_vars(h, counts);
            ps.iter().for_each(|q| count_pat_vars(q, counts));
        }
    }
}

/// Which arguments `rule` needs rewritten before it can be tried.
fn needed_args(store: &TermStore, rule: &Rule) -> Vec<bool> {
    let mut lhs = FxHashMap::default();
    rule.pats.iter().for_each(|p| count_pat_vars(p, &mut lhs));
    let mut rhs = FxHashMap::default();
    count_vars(store, rule.rhs, &mut rhs);
    let cond = rule.cond.map(|c| store.free_vars(c)).unwrap_or_default();
    flat_args(store, rule)
        .iter()
        .map(|a| match a {
            Arg::Other => true,
            Arg::Var(v) => {
                lhs.get(v).is_some_and(|&n| n > 1)
                    || rhs.get(v).is_some_and(|&n| n > 1)
                    || cond.contains(v)
            }
        })
        .collect()
}

/// The indices of `rules` (the equations of one head symbol in declaration order) in the
/// order mCRL2's JITty strategy tries them.
pub(super) fn jitty_order(store: &TermStore, rules: &[Rule]) -> Vec<usize> {
    let needs: Vec<Vec<bool>> = rules.iter().map(|r| needed_args(store, r)).collect();
    let mut arities: Vec<usize> = needs.iter().map(Vec::len).collect();
    arities.sort_unstable();
    arities.dedup();
    let mut rewritten: Vec<bool> = Vec::new();
    let mut order = Vec::with_capacity(rules.len());
    for arity in arities {
        rewritten.resize(rewritten.len().max(arity), false);
        // Per argument: how many equations of this arity need it (and it is not rewritten).
        let mut demand = vec![0usize; arity];
        let mut pending: Vec<(usize, Vec<usize>)> = Vec::new();
        for (i, need) in needs.iter().enumerate() {
            if need.len() != arity {
                continue;
            }
            let deps: Vec<usize> = (0..arity).filter(|&a| need[a] && !rewritten[a]).collect();
            for &a in &deps {
                demand[a] += 1;
            }
            pending.push((i, deps));
        }
        loop {
            pending.retain(|(i, deps)| {
                let ready = deps.is_empty();
                if ready {
                    order.push(*i);
                }
                !ready
            });
            if pending.is_empty() {
                break;
            }
            // The most demanded argument, the leftmost among equals; demands count every
            // equation of this arity, tried or not, as mCRL2's do.
            let mut best: Option<usize> = None;
            for (a, &d) in demand.iter().enumerate() {
                if d > 0 && best.is_none_or(|b| d > demand[b]) {
                    best = Some(a);
                }
            }
            let Some(a) = best else {
                // Unreachable: a pending equation needs an argument with positive demand.
                order.extend(pending.iter().map(|(i, _)| *i));
                break;
            };
            demand[a] = 0;
            rewritten[a] = true;
            for (_, deps) in &mut pending {
                deps.retain(|&d| d != a);
            }
        }
    }
    order
}
