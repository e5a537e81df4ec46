//! `check --engine explore` (`muon::monitor`): regular safety formulas checked while
//! exploring give the verdicts of the PBES route (a property test over random LPSs and
//! random formulas of the fragment, on one and two threads), shortest counterexamples
//! that the independent checker confirms, and refusals that name the construct outside
//! the fragment.

#[path = "cli_common/mod.rs"]
mod cli_common;
mod evidence_common;
use evidence_common::{pbes_evidence, random_spec, spec_of};
use std::path::Path;

use muon::bes::SolverKind;
use muon::evidence::check::check_evidence;
use muon::lps::{linearise, LineariseOptions, Lps};
use muon::modal::ir::FormulaSpec;
use muon::monitor::{check, MonitorError, MonitorOptions, Outcome, Verdict};
use muon::process::ir::ProcSpec;
use muon::source::SourceFile;
use proptest::prelude::*;

fn formula_of(spec: &ProcSpec, text: &str) -> FormulaSpec {
    muon::modal::typecheck::check_formula(&SourceFile::new("f.mcf", text), spec)
        .unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// The PBES route's verdict and, when false, the length of its counterexample.
fn by_pbes(lps: &Lps, f: &FormulaSpec) -> (bool, usize) {
    let (_, out, ev) = pbes_evidence(lps, f);
    (out.value, ev.trace.steps.len())
}

fn explore(lps: &Lps, f: &FormulaSpec, threads: usize) -> Outcome {
    let opts = MonitorOptions {
        threads,
        evidence: true,
        ..MonitorOptions::default()
    };
    check(lps, f, &opts).unwrap_or_else(|e| panic!("{e:?}"))
}

/// A random regular formula over a few action formulas.
fn random_reg() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "true",
        "a",
        "b",
        "e(0)",
        "e(1)",
        "!a",
        "a|b",
        "exists d: Nat . e(d)",
        "forall d: Nat . !e(d)",
    ])
    .prop_map(str::to_string);
    leaf.prop_recursive(3, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} . {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} + {y})")),
            inner.clone().prop_map(|x| format!("({x})*")),
            inner.prop_map(|x| format!("({x})+")),
        ]
    })
}

/// Local formulas, each decided by a state's outgoing labels.
const LOCAL: &[&str] = &[
    "false",
    "true",
    "<true>true",
    "[true]false",
    "[a]false",
    "<b>true || [e(1)]false",
    "forall d: Nat . [e(d)] val(d < 1)",
    "exists d: Nat . <e(d)> val(d == 1)",
    "val(1 < 2) && <a|b>true",
    "!(<a>true && <b>true)",
    "forall d: Nat . <e(d)>true => [a]false",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn explore_gives_the_pbes_verdict(
        src in random_spec(),
        r1 in random_reg(),
        p1 in 0..LOCAL.len(),
        second in prop::option::of((random_reg(), 0..LOCAL.len())),
    ) {
        let spec = spec_of(&src);
        let lps = linearise(&spec, LineariseOptions { simplify: true }).unwrap();
        let mut text = format!("[{r1}] ({})", LOCAL[p1]);
        if let Some((r2, p2)) = &second {
            text = format!("{text} && [{r2}] ({})", LOCAL[*p2]);
        }
        let f = formula_of(&spec, &text);
        let (value, pbes_steps) = by_pbes(&lps, &f);
        let one = explore(&lps, &f, 1);
        let two = explore(&lps, &f, 2);
        // The product is explored the same on every thread count.
        prop_assert_eq!((one.states, one.transitions), (two.states, two.transitions));
        match (&one.verdict, &two.verdict) {
            (Verdict::Holds, Verdict::Holds) => prop_assert!(value, "{}\n{}: explore says true", src, text),
            (
                Verdict::Violated { evidence: Some(ev), steps: Some(n) },
                Verdict::Violated { steps: Some(m), .. },
            ) => {
                prop_assert!(!value, "{}\n{}: explore says false", src, text);
                prop_assert_eq!(n, m);
                prop_assert_eq!(ev.trace.steps.len(), *n);
                check_evidence(&lps, &f, ev, SolverKind::Zielonka)
                    .unwrap_or_else(|e| panic!("{src}\n{text}: {e}"));
                // Breadth-first: no longer than the PBES route's counterexample, which
                // also takes the step out of the violating state when φ has a modality.
                prop_assert!(*n <= pbes_steps, "{}\n{}: {} > {}", src, text, n, pbes_steps);
            }
            (a, b) => prop_assert!(false, "{}\n{}: {:?} / {:?}", src, text, a, b),
        }
    }
}

/// The model of the evidence tests: `a` or `c`, then `b`, then `e(2)` into a deadlock.
const ABC: &str = "act a, b, c; e: Nat;
proc P(n: Nat) = (n == 0) -> (a . P(1) + c . P(1)) + (n == 1) -> b . P(2) + (n == 2) -> e(n) . P(3);
init P(0);
";

fn refusal(text: &str) -> String {
    let spec = spec_of(ABC);
    let lps = linearise(&spec, LineariseOptions { simplify: true }).unwrap();
    let f = formula_of(&spec, text);
    match check(&lps, &f, &MonitorOptions::default()) {
        Err(e @ MonitorError::Outside { .. }) => e.to_string(),
        other => panic!("{text}: not refused: {other:?}"),
    }
}

#[test]
fn formulas_outside_the_fragment_are_refused_with_the_reason() {
    let cases = [
        ("mu X . [a]X", "a fixpoint"),
        ("<true* . a>true", "a diamond `<R>` of a regular formula"),
        (
            "forall d: Nat . [true* . e(d)]false",
            "a quantifier around a regular box",
        ),
        (
            "[true*]<a><b>true",
            "a modality whose body is not data-only",
        ),
        ("[true*](<a>true || [true*]false)", "around a regular box"),
        ("!([true*. a]false)", "around a regular box"),
        ("[true*](nu X . <true>X)", "a fixpoint"),
    ];
    for (text, reason) in cases {
        let msg = refusal(text);
        assert!(msg.contains(reason), "{text}: {msg}");
    }
}

#[test]
fn counterexamples_are_shortest_and_confirmed() {
    let spec = spec_of(ABC);
    let lps = linearise(&spec, LineariseOptions { simplify: true }).unwrap();
    for (text, steps) in [
        // Deadlock freedom: the deadlock after e(2), as long as the PBES route's trace.
        ("[true*]<true>true", 3),
        // A multi-step regular formula: `a` or `c`, then `b`.
        ("[true* . (a + c) . b]false", 2),
        // A box bound by a quantifier: the state with `e(2)` violates it.
        ("[true*] forall d: Nat . [e(d)] val(d < 2)", 2),
    ] {
        let f = formula_of(&spec, text);
        let out = explore(&lps, &f, 1);
        let Verdict::Violated {
            evidence: Some(ev),
            steps: Some(n),
        } = out.verdict
        else {
            panic!("{text}: {:?}", out.verdict);
        };
        assert_eq!(n, steps, "{text}");
        check_evidence(&lps, &f, &ev, SolverKind::Zielonka).unwrap();
        if !text.contains("forall") {
            assert_eq!(by_pbes(&lps, &f), (false, steps), "{text}");
        }
    }
    // True: the product with the automaton of `a . true* . b` is explored in full.
    let f = formula_of(&spec, "[true* . a . true* . b]<true>true");
    let out = explore(&lps, &f, 2);
    assert!(matches!(out.verdict, Verdict::Holds), "{:?}", out.verdict);
    assert!(out.class_word);
    // `[true*] φ` adds no word: exactly the model's four states.
    let f = formula_of(&spec, "[true*](<true>true || val(true))");
    let out = explore(&lps, &f, 1);
    assert!(matches!(out.verdict, Verdict::Holds), "{:?}", out.verdict);
    assert_eq!((out.states, out.transitions, out.class_word), (4, 4, false));
}

// ---- through the binary, on the failure detector (D.1) ----

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `check --engine explore` on a D.1 model: exit code and standard output.
fn check_d1(model: &str, formula: &str, extra: &[&str]) -> (i32, String) {
    let spec = repo().join("lps").join(model);
    let f = repo().join("formulas").join(formula);
    let mut args = vec![
        "check",
        spec.to_str().unwrap(),
        "-f",
        f.to_str().unwrap(),
        "--engine",
        "explore",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = cli_common::muon_in(repo(), &args);
    (code, out + &err)
}

#[test]
fn d1_type_r_violations_are_found_while_exploring() {
    // Strong accuracy (a `forall`-bound box): the free timeout suspects a correct process.
    let (code, out) = check_d1(
        "D1_failure_detector_typeR.mcrl2",
        "failure_detector_strong_accuracy.mcf",
        &["--threads", "2"],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(": false") && out.contains("counterexample ("),
        "{out}"
    );
    // A multi-step regular formula: the no-oscillation form of weak completeness.
    let (code, out) = check_d1(
        "D1_failure_detector_typeR.mcrl2",
        "failure_detector_weak_completeness_no_oscillation.mcf",
        &["--format", "json"],
    );
    assert_eq!(code, 1, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(v["verdict"], false, "{out}");
    let acts: Vec<String> = v["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["action"].as_str().unwrap_or_default().to_string())
        .collect();
    let pos = |a: &str| acts.iter().position(|x| x == a);
    let crash = pos("crash(1)").expect("the trace crashes p1");
    assert!(
        acts.last().map(String::as_str) == Some("stopSuspect(0, 1)"),
        "{acts:?}"
    );
    assert!(
        acts[crash..].iter().any(|a| a == "suspect(0, 1)"),
        "{acts:?}"
    );
}

#[test]
fn stops_give_no_verdict() {
    // The whole type I state space does not fit in 1 second: "unknown", and the exit
    // status of every stop by the budget.
    let (code, out) = check_d1(
        "D1_failure_detector_typeI.mcrl2",
        "failure_detector_deadlock_freedom.mcf",
        &["--timeout", "1", "--threads", "1"],
    );
    assert_eq!(code, 3, "{out}");
    assert!(out.contains("unknown, stopped after"), "{out}");
}
