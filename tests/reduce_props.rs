//! Property tests of `reduce` on random small LTSs with tau, self-loops and tau-cycles: the
//! fast partitions equal the naive reference's, quotients are fixpoints of reduction and
//! equivalent to the original, weak bisimulation equals its reference (strong bisimulation
//! of the saturated LTS), tau-star keeps weak traces, trace reduction agrees with
//! comparison, and counterexample formulas hold in the first LTS and fail in the second.

use muon::lts::{Label, LabelId, Lts, StateId, Transition};
use muon::reduce::counterexample::distinguishing_formula;
use muon::reduce::weak;
use muon::reduce::{
    compare, disjoint_union, naive, partition, quotient, reduce, Bisimulation, Equivalence,
    ReduceOptions,
};
use proptest::prelude::*;

mod reduce_common;
use reduce_common::Shape;

const KINDS: [Bisimulation; 3] = [
    Bisimulation::Strong,
    Bisimulation::Branching,
    Bisimulation::DivergenceBranching,
];

/// An LTS with up to `max_n` states over the labels `tau`, `a`, `b`; tau is drawn more often
/// so that tau-paths and tau-cycles are common.
fn arb_lts(max_n: u32, max_m: usize) -> impl Strategy<Value = Lts> {
    reduce_common::arb_lts(Shape {
        max_states: max_n,
        max_transitions: max_m,
        tau_weight: 3,
        actions: &["a", "b"],
        random_initial: true,
    })
}

/// The same over tau and six visible actions, tau still the most frequent label: blocks
/// then split on many labels at once.
fn arb_lts_many_labels(max_n: u32, max_m: usize) -> impl Strategy<Value = Lts> {
    reduce_common::arb_lts(Shape {
        max_states: max_n,
        max_transitions: max_m,
        tau_weight: 4,
        actions: &["a", "b", "c", "d", "e", "f"],
        random_initial: true,
    })
}

/// Cases per cross-check of the fast partitions against the naive one: 600, or
/// `MUON_REDUCE_CASES` (`scripts/reduce-crosscheck` runs 10,000).
fn crosscheck_cases() -> u32 {
    std::env::var("MUON_REDUCE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(600)
}

fn eq_of(kind: Bisimulation) -> Equivalence {
    match kind {
        Bisimulation::Strong => Equivalence::Bisim,
        Bisimulation::Branching => Equivalence::BranchingBisim,
        Bisimulation::DivergenceBranching => Equivalence::DpBranchingBisim,
    }
}

fn same_counts(a: &Lts, b: &Lts) -> bool {
    a.num_states == b.num_states && a.transitions.len() == b.transitions.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crosscheck_cases()))]

    #[test]
    fn fast_partition_equals_naive(lts in arb_lts(9, 22)) {
        for kind in KINDS {
            let fast = partition(&lts, kind).normalised();
            let slow = naive::partition(&lts, kind).normalised();
            prop_assert_eq!(fast, slow, "{:?}", kind);
        }
    }

    #[test]
    fn fast_partition_equals_naive_on_larger_systems(lts in arb_lts(40, 90)) {
        for kind in KINDS {
            let fast = partition(&lts, kind).normalised();
            let slow = naive::partition(&lts, kind).normalised();
            prop_assert_eq!(fast, slow, "{:?}", kind);
        }
    }

    #[test]
    fn fast_partition_equals_naive_with_many_labels(lts in arb_lts_many_labels(30, 80)) {
        for kind in KINDS {
            let fast = partition(&lts, kind).normalised();
            let slow = naive::partition(&lts, kind).normalised();
            prop_assert_eq!(fast, slow, "{:?}", kind);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn quotient_is_a_fixpoint_and_equivalent(lts in arb_lts(9, 22)) {
        let opts = ReduceOptions::default();
        for kind in KINDS {
            let q = quotient(&lts, &partition(&lts, kind), kind);
            let qq = quotient(&q, &partition(&q, kind), kind);
            prop_assert!(same_counts(&q, &qq), "{:?}: {:?} then {:?}", kind, q, qq);
            prop_assert_eq!(&q, &qq, "{:?}", kind);
            prop_assert!(compare(&lts, &q, eq_of(kind), &opts).unwrap(), "{:?}", kind);
            // The union of the LTS with its quotient has the quotient's number of blocks.
            let (u, _) = disjoint_union(&lts, &q);
            prop_assert_eq!(partition(&u, kind).num_blocks(), q.num_states, "{:?}", kind);
        }
    }

    #[test]
    fn finer_equivalences_imply_coarser(a in arb_lts(6, 12), b in arb_lts(6, 12)) {
        let opts = ReduceOptions::default();
        let r: Vec<bool> = Equivalence::ALL
            .iter()
            .map(|&e| compare(&a, &b, e, &opts).unwrap())
            .collect();
        let [bisim, branching, dp, trace, weak, weak_bisim, sim] = [r[0], r[1], r[2], r[3], r[4], r[5], r[6]];
        prop_assert!(!bisim || dp);
        prop_assert!(!dp || branching);
        prop_assert!(!branching || weak_bisim);
        prop_assert!(!weak_bisim || weak);
        prop_assert!(!branching || weak);
        prop_assert!(!bisim || trace);
        prop_assert!(!trace || weak);
        prop_assert!(!bisim || sim);
        prop_assert!(!sim || trace);
    }

    #[test]
    fn counterexamples_tell_the_lts_apart(a in arb_lts(6, 12), b in arb_lts(6, 12)) {
        let same = compare(&a, &b, Equivalence::Bisim, &ReduceOptions::default()).unwrap();
        match distinguishing_formula(&a, &b).unwrap() {
            None => prop_assert!(same),
            Some(f) => {
                prop_assert!(!same);
                prop_assert!(f.holds(&a, a.initial), "{} fails in the first", f);
                prop_assert!(!f.holds(&b, b.initial), "{} holds in the second", f);
            }
        }
    }

    #[test]
    fn weak_bisimulation_equals_the_naive_reference(lts in arb_lts(8, 18)) {
        let opts = ReduceOptions::default();
        let r = weak::weak_bisim_reduce(&lts);
        // One state per class of the reference (unreachable states are kept, as by every
        // quotient), equivalent to the input, and a fixpoint.
        prop_assert_eq!(r.num_states, weak::naive_weak_partition(&lts).num_blocks());
        prop_assert!(compare(&lts, &r, Equivalence::WeakBisim, &opts).unwrap());
        let rr = weak::weak_bisim_reduce(&r);
        prop_assert_eq!(rr.num_states, r.num_states);
        // The reduction keeps no tau self-loop and no transition another path implies.
        prop_assert!(r.transitions.iter().all(|t| !(t.from == t.to && r.labels[t.label.index()].is_tau())));
    }

    #[test]
    fn tau_star_keeps_weak_traces(lts in arb_lts(8, 18)) {
        let opts = ReduceOptions::default();
        let r = weak::tau_star_reduce(&lts);
        prop_assert!(r.labels.iter().all(|l| !l.is_tau()));
        prop_assert!(compare(&lts, &r, Equivalence::WeakTrace, &opts).unwrap());
    }

    #[test]
    fn trace_reduction_is_minimal_and_equivalent(lts in arb_lts(7, 16)) {
        let opts = ReduceOptions::default();
        for eq in [Equivalence::Trace, Equivalence::WeakTrace] {
            let r = reduce(&lts, eq, &opts).unwrap();
            prop_assert!(compare(&lts, &r, eq, &opts).unwrap());
            let rr = reduce(&r, eq, &opts).unwrap();
            prop_assert!(same_counts(&r, &rr));
            if eq == Equivalence::WeakTrace {
                prop_assert!(r.labels.iter().all(|l| !l.is_tau()));
            }
        }
    }
}

/// A chain `0 -a-> 1 -a-> ... -a-> n` splits one state per signature round; the branching
/// refinement must handle it without a round over the whole chain each time.
#[test]
fn long_chains_are_minimal_already() {
    let n = 200_000u32;
    let lts = Lts {
        initial: StateId(0),
        num_states: n + 1,
        labels: vec![Label::from_text("a"), Label::tau()],
        transitions: (0..n)
            .map(|i| Transition {
                from: StateId(i),
                label: LabelId(u32::from(i % 1000 == 999)),
                to: StateId(i + 1),
            })
            .collect(),
    };
    for kind in KINDS {
        let p = partition(&lts, kind);
        let expect = if kind == Bisimulation::Strong {
            n + 1
        } else {
            n + 1 - n / 1000
        };
        assert_eq!(p.num_blocks(), expect, "{kind:?}");
    }
}

#[test]
fn divergence_is_kept_as_a_tau_self_loop() {
    // 0 -tau-> 1 -tau-> 0, 0 -a-> 2: divergent, so dpbranching keeps a tau loop.
    let lts = Lts {
        initial: StateId(0),
        num_states: 3,
        labels: vec![Label::tau(), Label::from_text("a")],
        transitions: [(0, 0, 1), (1, 0, 0), (0, 1, 2)]
            .into_iter()
            .map(|(f, a, t)| Transition {
                from: StateId(f),
                label: LabelId(a),
                to: StateId(t),
            })
            .collect(),
    };
    let q = reduce(
        &lts,
        Equivalence::DpBranchingBisim,
        &ReduceOptions::default(),
    )
    .unwrap();
    assert_eq!((q.num_states, q.transitions.len()), (2, 2));
    let q = reduce(&lts, Equivalence::BranchingBisim, &ReduceOptions::default()).unwrap();
    assert_eq!((q.num_states, q.transitions.len()), (2, 1));
}

#[test]
fn a_tau_chain_above_a_state_that_splits_every_round_collapses() {
    // `scripts/bench-ltsconvert --family chain:N`: c_0 -a-> ... -a-> c_N (all distinct),
    // t_0 -tau-> ... -tau-> t_N -b-> c_i for every i (all t_j branching bisimilar to t_N).
    let n = 120u32;
    let t = |j: u32| n + 1 + j;
    let steps = (0..n)
        .map(|i| (i, 1, i + 1))
        .chain((0..n).map(|j| (t(j), 0, t(j + 1))))
        .chain((0..=n).map(|i| (t(n), 2, i)));
    let lts = Lts {
        initial: StateId(t(0)),
        num_states: 2 * n + 2,
        labels: vec![Label::tau(), Label::from_text("a"), Label::from_text("b")],
        transitions: steps
            .map(|(f, a, to)| Transition {
                from: StateId(f),
                label: LabelId(a),
                to: StateId(to),
            })
            .collect(),
    };
    for kind in KINDS {
        let fast = partition(&lts, kind).normalised();
        assert_eq!(fast, naive::partition(&lts, kind).normalised(), "{kind:?}");
        let expect = if kind == Bisimulation::Strong {
            2 * n + 2
        } else {
            n + 2
        };
        assert_eq!(fast.num_blocks(), expect, "{kind:?}");
    }
}
