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
//! For a user function whose equations all have the same number of arguments the steps are
//! followed as they are (`lazy.rs`): an argument is rewritten at its step, or where the
//! right-hand side of the equation that applied uses it. Otherwise arguments are rewritten
//! before the call and only the order of the equations is taken over; an equation matches
//! exactly where it would in mCRL2 either way (the arguments it inspects are normal forms in
//! both). mCRL2 keeps equations in a set ordered by the address of their terms, which follows
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

/// One step of a head symbol's strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    /// Rewrite argument `i` to normal form (if it is not one yet).
    Rewrite(usize),
    /// Try equation `k` (an index into the equations the strategy was built for).
    Try(usize),
}

/// mCRL2's JITty strategy for the equations `rules` of one head symbol (in declaration
/// order): which argument to rewrite before which equation is tried.
pub(super) fn jitty_steps(store: &TermStore, rules: &[Rule]) -> Vec<Step> {
    let needs: Vec<Vec<bool>> = rules.iter().map(|r| needed_args(store, r)).collect();
    let mut arities: Vec<usize> = needs.iter().map(Vec::len).collect();
    arities.sort_unstable();
    arities.dedup();
    let mut rewritten: Vec<bool> = Vec::new();
    let mut order = Vec::with_capacity(2 * rules.len());
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
                    order.push(Step::Try(*i));
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
                order.extend(pending.iter().map(|(i, _)| Step::Try(*i)));
                break;
            };
            demand[a] = 0;
            rewritten[a] = true;
            order.push(Step::Rewrite(a));
            for (_, deps) in &mut pending {
                deps.retain(|&d| d != a);
            }
        }
    }
    order
}

/// The strategy of a head symbol some of whose arguments are rewritten only when needed:
/// mCRL2's JITty rewrites an argument only at its `Rewrite` step, so an equation tried
/// before that step sees the argument as it was written, and its right-hand side gets it
/// unrewritten (`first(x, y) = x` never rewrites `y`).
#[derive(Debug)]
pub(super) struct LazyStrategy {
    /// The number of arguments of every equation of the symbol.
    pub(super) arity: usize,
    /// The arguments rewritten only when needed (bit `i`: argument `i`): those that some
    /// equation is tried without. The others are rewritten before the call.
    pub(super) lazy: u64,
    /// The steps; `Try(k)` indexes the equations in the order they are tried (the order of
    /// `System::rules`).
    pub(super) steps: Box<[Step]>,
    /// Per equation (in that order): the lazy arguments not rewritten when it is tried.
    pub(super) raw_at: Box<[u64]>,
}

impl LazyStrategy {
    /// The strategy from `steps` (over `rules` in declaration order; `order` lists the
    /// equations as tried); `None` when every argument is rewritten before the first
    /// equation is tried (plain innermost rewriting), when the equations do not all have the
    /// same number (1 to 64) of uncurried arguments, or for a curried symbol.
    pub(super) fn new(rules: &[Rule], steps: &[Step], order: &[usize]) -> Option<LazyStrategy> {
        let arity = rules.first()?.pats.len();
        if arity == 0 || arity > 64 || rules.iter().any(|r| r.curried || r.pats.len() != arity) {
            return None;
        }
        let mut rewritten = 0u64;
        let mut lazy = 0u64;
        let mut at = vec![0u64; rules.len()];
        for s in steps {
            match *s {
                Step::Rewrite(a) => rewritten |= 1 << a,
                Step::Try(k) => at[k] = !rewritten & low_bits(arity),
            }
        }
        for m in &at {
            lazy |= m;
        }
        if lazy == 0 {
            return None;
        }
        let pos: Vec<usize> = {
            let mut p = vec![0; rules.len()];
            for (j, &k) in order.iter().enumerate() {
                p[k] = j;
            }
            p
        };
        Some(LazyStrategy {
            arity,
            lazy,
            steps: steps
                .iter()
                .map(|s| match *s {
                    Step::Try(k) => Step::Try(pos[k]),
                    r => r,
                })
                .collect(),
            raw_at: order.iter().map(|&k| at[k]).collect(),
        })
    }
}

/// The mask of bits `0..n` (`n <= 64`).
pub(super) fn low_bits(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}
