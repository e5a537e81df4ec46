//! Distinguishing formulas for branching and divergence-preserving branching bisimulation
//! (`ltscompare -e branching-bisim|dpbranching-bisim -c`) on random pairs of small LTSs with
//! tau-paths and tau-cycles: a formula is found exactly when the pair is not equivalent, and
//! every formula holds in the first LTS and fails in the second both by its own evaluation
//! and by muon's model checker (`lts2pbes` and the solver), as `ltscompare` confirms it.

use muon::bes::SolverKind;
use muon::lts::aut::parse_aut;
use muon::lts::typed::type_labels;
use muon::lts::typed::LabelArgParser;
use muon::lts::Lts;
use muon::modal::typecheck::check_formula;
use muon::pbes::inst::InstOptions;
use muon::pbes::lts2pbes::lts2pbes;
use muon::pbes::solve::solve_pbes;
use muon::process::ir::ProcSpec;
use muon::reduce::branching_formula::branching_distinguishing_formula;
use muon::reduce::{compare, Equivalence, ReduceOptions};
use muon::source::SourceFile;
use proptest::prelude::*;

mod reduce_common;
use reduce_common::Shape;

fn arb_lts() -> impl Strategy<Value = Lts> {
    reduce_common::arb_lts(Shape {
        max_states: 6,
        max_transitions: 12,
        tau_weight: 3,
        actions: &["a", "b"],
        random_initial: true,
    })
}

fn spec() -> ProcSpec {
    muon::process::typecheck::check_specification(&SourceFile::new(
        "m.mcrl2",
        "act a, b; init delta;",
    ))
    .unwrap()
}

/// The verdict of `text` on `lts` by muon's model checker.
fn model_check(spec: &ProcSpec, lts: &Lts, text: &str) -> bool {
    let formula = check_formula(&SourceFile::new("f.mcf", text), spec)
        .unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let store = muon::data::TermStore::new();
    let parser = LabelArgParser::new(&spec.data, &store);
    let labels = type_labels(lts, &spec.actions, &mut |t, sort| parser.parse(t, sort)).unwrap();
    let pbes = lts2pbes(lts, &labels, &spec.data, &formula).unwrap();
    solve_pbes(&pbes, &InstOptions::default(), SolverKind::Zielonka, true)
        .unwrap()
        .value
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn branching_formulas_tell_the_lts_apart(a in arb_lts(), b in arb_lts()) {
        let spec = spec();
        let opts = ReduceOptions::default();
        for (eq, dp) in [(Equivalence::BranchingBisim, false), (Equivalence::DpBranchingBisim, true)] {
            let same = compare(&a, &b, eq, &opts).unwrap();
            match branching_distinguishing_formula(&a, &b, dp).unwrap() {
                None => prop_assert!(same, "{}: no formula for a non-equivalent pair", eq.name()),
                Some(f) => {
                    prop_assert!(!same, "{}: a formula {} for an equivalent pair", eq.name(), f);
                    prop_assert!(f.states(&a)[a.initial.index()], "{} fails in the first", f);
                    prop_assert!(!f.states(&b)[b.initial.index()], "{} holds in the second", f);
                    let text = f.to_string();
                    prop_assert!(model_check(&spec, &a, &text), "{}: false in the first by model checking", text);
                    prop_assert!(!model_check(&spec, &b, &text), "{}: true in the second by model checking", text);
                }
            }
        }
    }
}

#[test]
fn a_visible_step_after_a_tau_is_an_until_formula() {
    // mCRL2's example pair: `tau.b + a` against `tau.b + a + b`.
    let a = parse_aut(
        "des (0,3,3)\n(0,\"tau\",1)\n(0,\"a\",2)\n(1,\"b\",2)\n",
        "x.aut",
    )
    .unwrap();
    let b = parse_aut(
        "des (0,4,3)\n(0,\"tau\",1)\n(0,\"a\",2)\n(1,\"b\",2)\n(0,\"b\",2)\n",
        "y.aut",
    )
    .unwrap();
    let f = branching_distinguishing_formula(&b, &a, false)
        .unwrap()
        .unwrap();
    let spec = spec();
    let text = f.to_string();
    assert!(
        model_check(&spec, &b, &text) && !model_check(&spec, &a, &text),
        "{text}"
    );
}

#[test]
fn divergence_is_a_greatest_fixpoint() {
    let a = parse_aut("des (0,2,2)\n(0,\"tau\",1)\n(1,\"tau\",1)\n", "x.aut").unwrap();
    let b = parse_aut("des (0,1,2)\n(0,\"tau\",1)\n", "x.aut").unwrap();
    assert!(branching_distinguishing_formula(&a, &b, false)
        .unwrap()
        .is_none());
    let f = branching_distinguishing_formula(&a, &b, true)
        .unwrap()
        .unwrap();
    assert_eq!(f.to_string(), "nu X0. <tau>X0");
}
