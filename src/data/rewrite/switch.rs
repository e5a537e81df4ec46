//! Match compilation per head symbol: the equations of a function symbol indexed by the
//! head of the argument most of them inspect, so one test selects the equations that can
//! match and the others are never tried.
//!
//! Why: equations were tried one by one, each loading the arguments into its registers and
//! running its matching program until the first test failed; a function defined by cases
//! on a constructor (`merge([], l)`, `merge(l, [])`, `merge(x |> l, y |> m)`, or the many
//! `f(N0, …)`, `f(N1, …)` of a struct) paid for every case before the one that applies.
//! The switch tests the head of the chosen argument once (an application's head symbol, or
//! the term itself for a constant or number) and yields the equations whose pattern there
//! has that head, interleaved with those that do not inspect the argument, in the order
//! they are tried (`strategy.rs`): the same equation applies as without the switch, only
//! equations that would fail their first test on that argument are left out.
//!
//! This is the first level of a decision tree; the remaining tests of a selected equation
//! run in its straight-line matching program (`compiled.rs`). Arguments passed unrewritten
//! by the lazy strategy (`lazy.rs`) are not switched on: those calls try equations step by
//! step as the strategy says.

use super::*;

/// The head a pattern or normal form is switched on: an application's head, else the term.
fn head_key(store: &TermStore, t: TermId) -> TermId {
    match store.get(t) {
        Term::App(h, _) => *h,
        _ => t,
    }
}

/// The switch of one head symbol's equations (for calls with `arity` arguments).
#[derive(Debug)]
pub(super) struct Switch {
    /// The number of arguments of the calls it applies to.
    arity: usize,
    /// The argument whose head is tested.
    arg: usize,
    /// Per head (sorted): the indices of the equations to try, in order.
    cases: Box<[(TermId, Box<[u32]>)]>,
    /// The equations for any other head: those that do not inspect the argument.
    other: Box<[u32]>,
}

impl Switch {
    /// The switch for `rules` (one head symbol's equations, in the order tried), or `None`
    /// when no argument is inspected by at least two equations (nothing to share).
    pub(super) fn build(store: &TermStore, rules: &[Rule]) -> Option<Switch> {
        // The most common number of arguments, then the argument most equations of that
        // arity inspect (the leftmost among equals).
        let mut arities: Vec<usize> = rules
            .iter()
            .filter(|r| !r.curried)
            .map(|r| r.pats.len())
            .collect();
        arities.sort_unstable();
        let arity = *arities
            .chunk_by(|a, b| a == b)
            .max_by_key(|c| c.len())?
            .first()?;
        let inspects = |r: &Rule, i: usize| -> Option<TermId> {
            if r.curried || r.pats.len() != arity {
                return None;
            }
            match &r.pats[i] {
                Pat::App(h, _) => Some(*h),
                Pat::Term(t) => Some(head_key(store, *t)),
                Pat::Var(_) | Pat::AppOf(..) => None,
            }
        };
        let (arg, count) = (0..arity)
            .map(|i| (i, rules.iter().filter(|r| inspects(r, i).is_some()).count()))
            .fold(None, |best: Option<(usize, usize)>, (i, n)| match best {
                Some((_, m)) if m >= n => best,
                _ => Some((i, n)),
            })?;
        if count < 2 || rules.len() > u32::MAX as usize {
            return None;
        }
        let mut heads: Vec<TermId> = rules.iter().filter_map(|r| inspects(r, arg)).collect();
        heads.sort_unstable();
        heads.dedup();
        let select = |want: Option<TermId>| -> Box<[u32]> {
            (0..rules.len())
                .filter(|&k| match inspects(&rules[k], arg) {
                    None => true,
                    Some(h) => Some(h) == want,
                })
                .map(|k| k as u32)
                .collect()
        };
        Some(Switch {
            arity,
            arg,
            cases: heads.iter().map(|&h| (h, select(Some(h)))).collect(),
            other: select(None),
        })
    }

    /// The equations to try on `args` (normal forms), in order; `None` when the switch does
    /// not apply to this number of arguments.
    #[inline]
    pub(super) fn select(&self, store: &TermStore, args: &[TermId]) -> Option<&[u32]> {
        if args.len() != self.arity {
            return None;
        }
        let key = head_key(store, args[self.arg]);
        Some(match self.cases.binary_search_by_key(&key, |(h, _)| *h) {
            Ok(i) => &self.cases[i].1,
            Err(_) => &self.other,
        })
    }
}
