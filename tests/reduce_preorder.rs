//! `reduce::preorder`: trace and weak trace inclusion on random small LTSs with tau-cycles,
//! held against a reference built from the equivalences (`a ⊑ b` exactly when `b` and the
//! choice between `a` and `b` have the same traces), and counterexamples that are traces of
//! the first LTS, not of the second, and shortest.

use muon::lts::{Lts, StateId, Transition};
use muon::reduce::preorder::{trace_inclusion, Preorder};
use muon::reduce::{compare, disjoint_union, Equivalence, ReduceOptions};
use proptest::prelude::*;

mod reduce_common;
use reduce_common::Shape;

/// An LTS over `tau`, `a`, `b` (tau drawn most often).
fn arb_lts() -> impl Strategy<Value = Lts> {
    reduce_common::arb_lts(Shape {
        max_states: 5,
        max_transitions: 9,
        tau_weight: 2,
        actions: ["a", "b"],
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
