//! `reduce::preorder`: trace and weak trace inclusion on random small LTSs with tau-cycles,
//! held against a reference built from the equivalences (`a ⊑ b` exactly when `b` and the
//! choice between `a` and `b` have the same traces), and counterexamples that are traces of
//! the first LTS, not of the second, and shortest. `reduce::simulation` against the
//! pair-by-pair reference, its quotient; `reduce::refinement` (failures, stable failures,
//! failures-divergence, antichain trace inclusion) against the reference over pairs of
//! subsets, with counterexamples checked by the definitions and as short as the reference's.

use muon::lts::aut::parse_aut;
use muon::lts::{Lts, StateId, Transition};
use muon::progress::Watch;
use muon::reduce::naive;
use muon::reduce::preorder::{trace_inclusion, Preorder};
use muon::reduce::refinement::{refines, refines_watched, Refinement, Violation};
use muon::reduce::simulation::simulation_preorder;
use muon::reduce::{compare, disjoint_union, reachable_part, reduce, Equivalence, ReduceOptions};
use proptest::prelude::*;

mod reduce_common;
use reduce_common::Shape;

/// An LTS over `tau`, `a`, `b` (tau drawn most often).
fn arb_lts() -> impl Strategy<Value = Lts> {
    reduce_common::arb_lts(Shape {
        max_states: 5,
        max_transitions: 9,
        tau_weight: 2,
        actions: &["a", "b"],
        random_initial: false,
    })
}

/// `a` and `b` side by side under a new initial state that takes the first steps of both
/// (for the weak preorder a tau to each is enough).
fn choice(a: &Lts, b: &Lts) -> Lts {
    let (mut u, init_b) = disjoint_union(a, b);
    let fresh = StateId(u.num_states);
    u.num_states += 1;
    let firsts: Vec<Transition> = u
        .transitions
        .iter()
        .filter(|t| t.from == u.initial || t.from == init_b)
        .map(|t| Transition { from: fresh, ..*t })
        .collect();
    u.transitions.extend(firsts);
    u.initial = fresh;
    u
}

/// The sets of states of `lts` reached by `trace` (tau-closed when `weak`).
fn run(lts: &Lts, trace: &[String], weak: bool) -> Vec<bool> {
    let n = lts.num_states as usize;
    let close = |set: &mut Vec<bool>| loop {
        let mut changed = false;
        for t in &lts.transitions {
            if weak
                && lts.labels[t.label.index()].is_tau()
                && set[t.from.index()]
                && !set[t.to.index()]
            {
                set[t.to.index()] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    };
    let mut set = vec![false; n];
    set[lts.initial.index()] = true;
    close(&mut set);
    for l in trace {
        let mut next = vec![false; n];
        for t in &lts.transitions {
            if set[t.from.index()] && lts.labels[t.label.index()].text() == l {
                next[t.to.index()] = true;
            }
        }
        set = next;
        close(&mut set);
    }
    set
}

/// Every trace of `lts` of length `len` (visible actions only when `weak`).
fn traces(lts: &Lts, len: usize, weak: bool) -> Vec<Vec<String>> {
    let mut out = vec![Vec::new()];
    for _ in 0..len {
        let mut next = Vec::new();
        for tr in &out {
            for l in &lts.labels {
                if weak && l.is_tau() {
                    continue;
                }
                let mut t2 = tr.clone();
                t2.push(l.text().to_string());
                if run(lts, &t2, weak).iter().any(|&x| x) {
                    next.push(t2);
                }
            }
        }
        next.sort();
        next.dedup();
        out = next;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn inclusion_agrees_with_the_reference(a in arb_lts(), b in arb_lts()) {
        let opts = ReduceOptions::default();
        for (pre, eq) in [(Preorder::Trace, Equivalence::Trace), (Preorder::WeakTrace, Equivalence::WeakTrace)] {
            let weak = pre == Preorder::WeakTrace;
            let missing = trace_inclusion(&a, &b, pre, &opts).unwrap();
            let reference = compare(&choice(&a, &b), &b, eq, &opts).unwrap();
            prop_assert_eq!(missing.is_none(), reference, "{:?}", pre);
            if let Some(trace) = missing {
                prop_assert!(run(&a, &trace, weak).iter().any(|&x| x), "{:?}: {:?} not a trace of a", pre, trace);
                prop_assert!(!run(&b, &trace, weak).iter().any(|&x| x), "{:?}: {:?} a trace of b", pre, trace);
                // Shortest: every shorter trace of `a` is one of `b`.
                for len in 0..trace.len() {
                    for t in traces(&a, len, weak) {
                        prop_assert!(run(&b, &t, weak).iter().any(|&x| x), "{:?}: shorter {:?}", pre, t);
                    }
                }
            }
            // Every LTS includes itself.
            prop_assert!(trace_inclusion(&a, &a, pre, &opts).unwrap().is_none());
        }
    }
}

/// Whether state `s` of `lts` lies on a tau-cycle.
fn divergent(lts: &Lts, s: usize) -> bool {
    let mut set = vec![false; lts.num_states as usize];
    for t in &lts.transitions {
        if t.from.index() == s && lts.labels[t.label.index()].is_tau() {
            set[t.to.index()] = true;
        }
    }
    let mut changed = true;
    while changed {
        changed = false;
        for t in &lts.transitions {
            if lts.labels[t.label.index()].is_tau() && set[t.from.index()] && !set[t.to.index()] {
                set[t.to.index()] = true;
                changed = true;
            }
        }
    }
    set[s]
}

/// The labels (texts) state `s` of `lts` enables, and whether it is stable (`weak`).
fn enabled(lts: &Lts, s: usize, weak: bool) -> (Vec<String>, bool) {
    let mut e: Vec<String> = lts
        .transitions
        .iter()
        .filter(|t| t.from.index() == s)
        .map(|t| lts.labels[t.label.index()].text().to_string())
        .collect();
    e.sort();
    e.dedup();
    let stable = !weak || !e.iter().any(|l| l == "tau");
    (e, stable)
}

/// Checks that `v` is a counterexample to `a` refining `b` in `r`, by the definitions.
fn check_violation(a: &Lts, b: &Lts, r: Refinement, v: &Violation) -> Result<(), String> {
    let weak = r.weak();
    let holds =
        |set: &[bool], f: &dyn Fn(usize) -> bool| set.iter().enumerate().any(|(s, &x)| x && f(s));
    match v {
        Violation::Trace(t) => {
            if !holds(&run(a, t, weak), &|_| true) || holds(&run(b, t, weak), &|_| true) {
                return Err(format!("{t:?} is not a missing trace"));
            }
        }
        Violation::Refusal {
            trace,
            accepts,
            refuses,
        } => {
            let sa = run(a, trace, weak);
            let mut acc = accepts.clone();
            acc.sort();
            let in_a = holds(&sa, &|s| enabled(a, s, weak) == (acc.clone(), true));
            let sb = run(b, trace, weak);
            let in_b = holds(&sb, &|s| {
                let (e, stable) = enabled(b, s, weak);
                stable && !e.iter().any(|l| refuses.contains(l))
            });
            if !in_a || in_b || accepts.iter().any(|l| refuses.contains(l)) {
                return Err(format!("{v:?} is not a failure of a only"));
            }
        }
        Violation::Divergence(t) => {
            if !holds(&run(a, t, true), &|s| divergent(a, s))
                || holds(&run(b, t, true), &|s| divergent(b, s))
            {
                return Err(format!("{v:?} is not a divergence of a only"));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn simulation_agrees_with_the_reference(a in arb_lts()) {
        let fast = simulation_preorder(&a).unwrap();
        let slow = naive::simulation(&a);
        for s in 0..a.num_states {
            for t in 0..a.num_states {
                prop_assert_eq!(fast.le(StateId(s), StateId(t)), slow[s as usize][t as usize], "{} <= {}", s, t);
            }
        }
    }

    #[test]
    fn simulation_quotient_is_equivalent_and_a_fixpoint(a in arb_lts()) {
        let opts = ReduceOptions::default();
        let q = reduce(&a, Equivalence::Sim, &opts).unwrap();
        prop_assert!(compare(&a, &q, Equivalence::Sim, &opts).unwrap());
        let qq = reduce(&q, Equivalence::Sim, &opts).unwrap();
        // A fixpoint up to the numbering of states.
        prop_assert_eq!((q.num_states, q.transitions.len()), (qq.num_states, qq.transitions.len()));
        // At most one state per class of the reachable part (a step into a class below
        // another successor is dropped, which may leave the lower class unreachable), and
        // no two states of the quotient simulation equivalent.
        let r = reachable_part(a.clone());
        prop_assert!(q.num_states <= simulation_preorder(&r).unwrap().equivalence().num_blocks());
        prop_assert_eq!(q.num_states, simulation_preorder(&q).unwrap().equivalence().num_blocks());
    }

    #[test]
    fn refinement_agrees_with_the_reference(a in arb_lts(), b in arb_lts()) {
        let opts = ReduceOptions::default();
        for r in Refinement::ALL {
            let v = refines(&a, &b, r);
            let naive_len = naive::refinement_violation(&a, &b, r.weak(), r.failures(), r == Refinement::FailuresDivergence);
            prop_assert_eq!(v.as_ref().map(|v| v.len()), naive_len, "{:?}: {:?}", r, v);
            if let Some(v) = &v {
                if let Err(e) = check_violation(&a, &b, r, v) {
                    prop_assert!(false, "{:?}: {}", r, e);
                }
            }
            prop_assert!(refines(&a, &a, r).is_none(), "{:?}: not reflexive", r);
        }
        // The antichain trace preorders decide what determinisation decides.
        for (r, p) in [(Refinement::Trace, Preorder::Trace), (Refinement::WeakTrace, Preorder::WeakTrace)] {
            let by_subsets = trace_inclusion(&a, &b, p, &opts).unwrap();
            prop_assert_eq!(refines(&a, &b, r).map(|v| v.len()), by_subsets.map(|t| t.len()), "{:?}", r);
        }
        // Failures refinement implies trace inclusion; simulation implies trace inclusion.
        let traces = trace_inclusion(&a, &b, Preorder::Trace, &opts).unwrap().is_none();
        let weak_traces = trace_inclusion(&a, &b, Preorder::WeakTrace, &opts).unwrap().is_none();
        prop_assert!(refines(&a, &b, Refinement::Failures).is_some() || traces);
        prop_assert!(refines(&a, &b, Refinement::WeakFailures).is_some() || weak_traces);
        let (u, init_b) = disjoint_union(&a, &b);
        prop_assert!(!simulation_preorder(&u).unwrap().le(u.initial, init_b) || traces);
    }
}

/// A watch that stops the antichain search at its first pair (and lets the bisimulation
/// reduction before it run), saying where it stopped.
struct StopAtFirstPair;

impl Watch for StopAtFirstPair {
    type Stop = String;
    fn tick(&mut self, _: u64, what: impl FnOnce() -> String) -> Result<(), String> {
        let what = what();
        if what.contains("pairs explored") {
            Err(what)
        } else {
            Ok(())
        }
    }
}

#[test]
fn the_antichain_search_polls_its_watch_after_the_reduction() {
    // Not equivalent, so the search runs after the reduction of the union; equivalent LTSs
    // are answered by the reduction alone, without a pair.
    let a = parse_aut("des (0,2,3)\n(0,\"a\",1)\n(1,\"b\",2)\n", "a.aut").unwrap();
    let b = parse_aut("des (0,2,3)\n(0,\"a\",1)\n(1,\"c\",2)\n", "b.aut").unwrap();
    for r in Refinement::ALL {
        let stop = refines_watched(&a, &b, r, &mut StopAtFirstPair).unwrap_err();
        assert!(stop.contains("1 pairs explored"), "{}: {stop}", r.name());
        assert_eq!(refines_watched(&a, &a, r, &mut StopAtFirstPair), Ok(None));
    }
}
