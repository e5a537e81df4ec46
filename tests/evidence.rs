//! Evidence: counterexamples and witnesses are the transitions of the proof (the last step
//! included), shortest, lassos for infinite ones, and always confirmed by the independent
//! checker; a corrupted trace is rejected. Through the binary for the user's view, and
//! through the library for a property test over random LPSs and formulas.

mod evidence_common;
use evidence_common::{pbes_evidence, random_spec, spec_of};
use std::path::Path;
use std::process::{Command, Output};

use muon::bes::SolverKind;
use muon::evidence::check::{check_evidence, check_trace, Replayer};
use muon::evidence::Evidence;
use muon::lps::{linearise, LineariseOptions, Lps};
use muon::pbes::inst::InstOptions;
use muon::pbes::lps2pbes::{lps2pbes_with, Lps2PbesOptions};
use muon::pbes::solve::solve_pbes;
use muon::process::ir::ProcSpec;
use muon::source::SourceFile;
use proptest::prelude::*;

fn muon(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run muon")
}

/// The model of the issue: `a` and `c` from 0 to 1, then `b` forever.
const ABC: &str = "act a, b, c;
proc P(n: Nat) = (n == 0) -> (a . P(1) + c . P(1)) + (n == 1) -> b . P(1);
init P(0);
";

/// Runs `muon check` on `spec` and one formula; the exit code and the printed lines.
fn check(spec: &str, formula: &str, extra: &[&str]) -> (i32, Vec<String>) {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.mcrl2"), spec).unwrap();
    std::fs::write(d.path().join("f.mcf"), formula).unwrap();
    let mut args = vec!["check", "m.mcrl2", "-f", "f.mcf", "--engine", "pbes"];
    args.extend_from_slice(extra);
    let o = muon(&args, d.path());
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.code() == Some(0) || o.status.code() == Some(1),
        "{formula}: {}\n{out}",
        String::from_utf8_lossy(&o.stderr)
    );
    (
        o.status.code().unwrap(),
        out.lines().map(str::to_string).collect(),
    )
}

/// The actions of the printed trace's steps, and whether a step is marked as a cycle start.
fn steps(lines: &[String]) -> (Vec<String>, Option<usize>) {
    let mut acts = Vec::new();
    let mut cycle = None;
    for l in lines.iter().skip(3) {
        let words: Vec<&str> = l.split_whitespace().collect();
        if words.is_empty() || words[0].parse::<usize>().is_err() {
            continue;
        }
        if words[1] == "↻" {
            cycle = Some(acts.len());
            acts.push(words[2].to_string());
        } else {
            acts.push(words[1].to_string());
        }
    }
    (acts, cycle)
}

#[test]
fn counterexamples_follow_the_modalities_and_include_the_last_step() {
    for (f, want) in [
        ("[c . true*][b]false", vec!["c", "b"]),
        ("[c][b]false", vec!["c", "b"]),
        // `a` or `c` first: both reach `b` in two steps.
        ("[true*.b]false", vec!["?", "b"]),
        ("[true*.c]false", vec!["c"]),
    ] {
        let (code, lines) = check(ABC, f, &[]);
        assert_eq!(code, 1, "{f}");
        assert_eq!(lines[0], "f.mcf: false", "{f}");
        assert!(lines[1].starts_with("counterexample"), "{f}: {lines:?}");
        let (acts, cycle) = steps(&lines);
        assert_eq!(cycle, None, "{f}");
        assert_eq!(acts.len(), want.len(), "{f}: {acts:?}");
        for (got, want) in acts.iter().zip(&want) {
            assert!(*want == "?" || got == want, "{f}: {acts:?}");
        }
    }
}

#[test]
fn infinite_evidence_is_a_lasso() {
    // Termination fails: a, then b forever.
    let (code, lines) = check(ABC, "mu X . [true]X", &[]);
    assert_eq!(code, 1);
    assert!(lines[1].contains("a lasso"), "{lines:?}");
    let (acts, cycle) = steps(&lines);
    assert_eq!(acts.last().map(String::as_str), Some("b"), "{lines:?}");
    assert_eq!(cycle, Some(acts.len() - 1), "{lines:?}");
    // An infinite witness: b forever after the first step.
    let (code, lines) = check(ABC, "nu X . <true>X", &[]);
    assert_eq!(code, 0);
    assert!(
        lines[1].starts_with("witness") && lines[1].contains("a lasso"),
        "{lines:?}"
    );
}

#[test]
fn witnesses_and_changed_parameters() {
    let (code, lines) = check(ABC, "<a><b>true", &[]);
    assert_eq!(code, 0);
    assert_eq!(lines[1], "witness (2 steps):");
    assert_eq!(lines[2].trim(), "initial state: n = 0");
    let words: Vec<&str> = lines[3].split_whitespace().collect();
    assert_eq!(words, ["1", "a", "n:", "0", "→", "1"]);
    assert!(lines[4].contains("(no parameter changes)"), "{lines:?}");
}

#[test]
fn sum_variables_are_shown_and_data_is_evaluated() {
    let spec = "act r: Nat; done;
proc P(n: Nat, k: Nat) = sum d: Nat . (d < 4 && n == 0) -> r(d) . P(1, d * 2)
  + (n == 1 && k == 6) -> done . P(2, k);
init P(0, 0);
";
    let (code, lines) = check(spec, "[true*.done]false", &[]);
    assert_eq!(code, 1);
    let (acts, _) = steps(&lines);
    assert_eq!(acts, ["r(3)", "done"], "{lines:?}");
    assert!(
        lines[3].contains("k: 0 → 6") && lines[3].contains("[d = 3]"),
        "{lines:?}"
    );
}

#[test]
fn branching_evidence_lists_every_branch() {
    // Mutual exclusion fails at a state where both c(0) and c(1) are possible: the evidence
    // needs both transitions, not only the one the trace takes.
    let spec = "act c: Nat; n: Nat;
proc T(id: Nat, pc: Nat) = (pc == 0) -> n(id) . T(id, 1) + (pc == 1) -> c(id) . T(id, 0);
init T(0, 0) || T(1, 0);
";
    let f = "forall t, t': Nat . val(t < 2 && t' < 2 && t != t') => [true*]!(<c(t)>true && <c(t')>true)";
    let d = tempfile::tempdir().unwrap();
    let (code, lines) = check(
        spec,
        f,
        &["--evidence-file", d.path().join("e.aut").to_str().unwrap()],
    );
    assert_eq!(code, 1);
    let aut = std::fs::read_to_string(d.path().join("e.aut")).unwrap();
    assert!(
        aut.contains("\"c(0)\"") && aut.contains("\"c(1)\""),
        "{aut}"
    );
    assert!(
        lines.iter().any(|l| l.contains("the evidence also takes")),
        "{lines:?}"
    );
}

/// An `--evidence-file` whose name says no format is refused before anything is checked
/// (no verdict printed, exit 2), not once the whole check is done; the names of the formats
/// it writes are taken.
#[test]
fn an_evidence_file_named_without_a_format_is_refused_before_the_check() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.mcrl2"), ABC).unwrap();
    std::fs::write(d.path().join("f.mcf"), "[c . true*][b]false").unwrap();
    let run = |out: &str| {
        let o = muon(
            &["check", "m.mcrl2", "-f", "f.mcf", "--evidence-file", out],
            d.path(),
        );
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    for out in ["-", "ev", "ev.xyz"] {
        let (code, stdout, stderr) = run(out);
        assert_eq!(code, Some(2), "{out}: {stdout}{stderr}");
        assert!(
            stdout.is_empty(),
            "{out}: refused before the check: {stdout}"
        );
        assert!(
            stderr.contains(&format!(
                "--evidence-file {out}: cannot tell the format from the file name"
            )),
            "{out}: {stderr}"
        );
        assert!(stderr.contains(".json or .txt"), "{out}: {stderr}");
    }
    for out in ["ev.json", "ev.txt", "ev.aut"] {
        let (code, stdout, stderr) = run(out);
        assert_eq!(code, Some(1), "{out}: {stdout}{stderr}");
        assert!(d.path().join(out).is_file(), "{out} is written");
    }
}

// ---- property test over random LPSs and formulas (library level) ----

/// The verdict without evidence (early stop) and, with evidence, the evidence read from the
/// solved game and from the finite proof of the early stop.
fn verdict_and_evidence(spec: &ProcSpec, lps: &Lps, formula: &str) -> (bool, Evidence, Evidence) {
    let f = muon::modal::typecheck::check_formula(&SourceFile::new("f.mcf", formula), spec)
        .unwrap_or_else(|e| panic!("{e:?}\n{formula}"));
    let plain = lps2pbes_with(lps, &f, Lps2PbesOptions::default()).unwrap();
    let quick = solve_pbes(&plain, &InstOptions::default(), SolverKind::Zielonka, true)
        .unwrap()
        .value;
    // Evidence from the finite proof of an early stop, or from the solved game.
    let (pbes, early, ev_early) = pbes_evidence(lps, &f);
    assert_eq!(
        early.value, quick,
        "{formula}: verdicts differ with and without evidence"
    );
    check_evidence(lps, &f, &ev_early, SolverKind::Zielonka)
        .unwrap_or_else(|e| panic!("{formula} (early stop): {e}"));
    let opts = InstOptions {
        keep_origins: true,
        ..InstOptions::default()
    };
    let mut out = solve_pbes(&pbes, &opts, SolverKind::Zielonka, false).unwrap();
    assert_eq!(
        out.value, quick,
        "{formula}: verdicts differ with and without evidence"
    );
    // From the game even where constant propagation decided the verdict.
    out.inst.justification = None;
    let (game, sol) = out.game.as_ref().unwrap();
    let ev = muon::evidence::read(lps, &pbes, &out.inst, Some((game, sol)), out.value, true)
        .unwrap_or_else(|e| panic!("{formula}: {e}"));
    check_evidence(lps, &f, &ev, SolverKind::Zielonka).unwrap_or_else(|e| panic!("{formula}: {e}"));
    // The evidence LTS re-checks to the same verdict with the other solver too.
    check_evidence(lps, &f, &ev, SolverKind::Gauss).unwrap_or_else(|e| panic!("{formula}: {e}"));
    (out.value, ev, ev_early)
}

const FORMULAS: &[&str] = &[
    "[true*.a]false",
    "[true*]<true>true",
    "[a][b]false",
    "<true*.e(1)>true",
    "[true*.b.true*.a]false",
    "mu X . [true]X",
    "mu X . [!a]X && <true>true",
    "nu X . <true>X",
    "nu X . mu Y . [a]X && [!a]Y",
    "nu X . mu Y . <a>X || <!a>Y",
    "[true*](<a>true || <b>true)",
    "forall k: Nat . val(k < 2) => [true*.e(k)]false",
    "exists k: Nat . val(k < 2) && <true*.e(k).true*.a>true",
    "<a|b>true || [true*.e(0)]<e(1)>true",
];

/// The safety formulas of [`FORMULAS`] whose shortest counterexample
/// [`shortest_violation`] computes.
const SAFETY: &[usize] = &[0, 2];

/// The fewest steps of a counterexample to `FORMULAS[fi]` (`[true*.a]false`: the steps to a
/// state with an `a` transition, plus it, by breadth-first search over the states replayed
/// with the data engine, independently of PBESs; `[a][b]false`: 2).
fn shortest_violation(lps: &Lps, fi: usize) -> usize {
    if fi == 2 {
        // A violation of `[a][b]false` is an `a` step and a `b` step, by its shape.
        return 2;
    }
    let store = muon::data::TermStore::new();
    let mut rp = Replayer::new(lps, &store).unwrap();
    let init: Vec<_> = lps
        .init
        .iter()
        .map(|e| rp.normal_form(e).unwrap())
        .collect();
    let mut seen = std::collections::HashSet::from([init.clone()]);
    let mut level = vec![init];
    for depth in 1.. {
        let mut next = Vec::new();
        for state in &level {
            for (i, s) in lps.summands.iter().enumerate() {
                for d in 0..2u8 {
                    // The random specs' only sum variable is `d: Nat` (`d < 2`).
                    let sums: Vec<_> = s
                        .sum_vars
                        .iter()
                        .map(|v| (v.clone(), muon::data::ir_ops::number(d, v.sort.clone())))
                        .collect();
                    if s.sum_vars.is_empty() && d > 0 {
                        continue;
                    }
                    let Ok((acts, to)) = rp.replay(i, state, &sums) else {
                        continue;
                    };
                    let name = muon::evidence::check::action_text(&acts);
                    if name == "a" {
                        return depth;
                    }
                    if seen.insert(to.clone()) {
                        next.push(to);
                    }
                }
            }
        }
        assert!(!next.is_empty(), "no violation of formula {fi}");
        level = next;
    }
    unreachable!()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn every_verdict_has_confirmed_evidence(src in random_spec(), fi in 0..FORMULAS.len()) {
        let spec = spec_of(&src);
        let lps = linearise(&spec, LineariseOptions { simplify: true }).unwrap();
        let formula = FORMULAS[fi];
        let (value, ev, early) = verdict_and_evidence(&spec, &lps, formula);
        // Safety counterexamples are shortest: the game's proof keeps the prover's moves
        // with the fewest steps to a violation, and the early stop finds one as short.
        if !value && SAFETY.contains(&fi) {
            prop_assert_eq!(ev.trace.loop_start, None);
            prop_assert_eq!(
                early.trace.steps.len(), ev.trace.steps.len(),
                "{}\n{}: early stop {:?}, game {:?}", src, formula, early.trace.actions(), ev.trace.actions()
            );
            prop_assert_eq!(ev.trace.steps.len(), shortest_violation(&lps, fi), "{}\n{}", src, formula);
        }
        let store = muon::data::TermStore::new();
        let mut rp = Replayer::new(&lps, &store).unwrap();
        check_trace(&mut rp, &ev.trace).unwrap();
        // Corruptions the checker must reject.
        let t = &ev.trace;
        if let Some(i) = t.steps.iter().position(|s| s.from != s.to) {
            let mut bad = t.clone();
            bad.steps[i].to = bad.steps[i].from.clone();
            prop_assert!(check_trace(&mut rp, &bad).is_err(), "{src}\n{formula}: wrong target accepted");
        }
        if t.steps.len() >= 2 && t.steps[1].from != t.initial {
            let mut bad = t.clone();
            bad.steps.remove(0);
            bad.loop_start = None;
            prop_assert!(check_trace(&mut rp, &bad).is_err(), "{src}\n{formula}: missing step accepted");
        }
        if t.loop_start.is_some() {
            let mut bad = t.clone();
            bad.loop_start = Some(t.steps.len());
            prop_assert!(check_trace(&mut rp, &bad).is_err(), "{src}\n{formula}: open lasso accepted");
        }
    }
}

#[test]
fn set_valued_parameters_replay_in_normal_form() {
    // `{0} - {0}` and `{}` are one value: the checker compares states in normal form.
    let spec = "act a, b, c;
proc P(s: Set(Nat)) = !(0 in s) -> a . P(s + {0}) + (0 in s) -> b . P(s - {0})
  + (s == {}) -> c . P(s);
init P({});
";
    let (code, lines) = check(spec, "[true*.a.b.a.b.c]false", &[]);
    assert_eq!(code, 1, "{lines:?}");
    let (acts, _) = steps(&lines);
    assert_eq!(acts, ["a", "b", "a", "b", "c"], "{lines:?}");
}

#[test]
fn cluster_selectors_stay_out_of_traces() {
    // Four alternatives of one action per component, synchronised four ways: the clusters'
    // Boolean selectors (8, too many to expand back) are sum variables of the LPS, but they
    // mean nothing in the model; the model's own sum variable `k` is shown.
    let mut spec = String::from("act a, b, c, d: Nat;\n");
    for (p, x) in [("A", "a"), ("B", "b"), ("C", "c"), ("D", "d")] {
        spec.push_str(&format!(
            "proc {p}(n: Nat) = (n == 0) -> {x}(1) . {p}(1) + (n == 0) -> {x}(2) . {p}(2) \
             + (n == 0) -> {x}(3) . {p}(0) + sum k: Nat . (k < 2 && n == 0) -> {x}(k) . {p}(k + 1) \
             + (n > 0) -> {x}(0) . {p}(0);\n"
        ));
    }
    spec.push_str("init allow({a|b|c|d}, A(0) || B(0) || C(0) || D(0));\n");
    let (code, lines) = check(&spec, "[true*.a(1)|b(2)|c(3)|d(0)]false", &[]);
    assert_eq!(code, 1, "{lines:?}");
    let (acts, _) = steps(&lines);
    assert_eq!(acts.len(), 1, "{lines:?}");
    let text = lines.join("\n");
    assert!(text.contains("k = "), "{text}");
    assert!(!text.contains("sel"), "{text}");
    let (_, json) = check(
        &spec,
        "[true*.a(1)|b(2)|c(3)|d(0)]false",
        &["--format", "json"],
    );
    assert!(
        json[0].contains("\"k\"") && !json[0].contains("sel"),
        "{json:?}"
    );
}

#[test]
fn merged_sum_variables_show_the_member_that_fired() {
    // A's three alternatives of `a` are clustered: `k` and `j` merge into one variable,
    // fixed to a default value where a member does not use it. A step shows the variables of
    // the member that fired, under the model's names, and none for a member without any.
    let mut spec = String::from("act a, b, c, d: Nat;\n");
    spec.push_str(
        "proc A(n: Nat) = sum k: Nat . (k < 2 && n == 0) -> a(k) . A(k + 1) \
         + sum j: Nat . (j < 3 && n == 0) -> a(j + 10) . A(j) + (n == 0) -> a(7) . A(0) \
         + (n > 0) -> a(0) . A(0);\n",
    );
    for (p, x) in [("B", "b"), ("C", "c"), ("D", "d")] {
        spec.push_str(&format!(
            "proc {p}(n: Nat) = (n == 0) -> {x}(1) . {p}(1) + (n == 0) -> {x}(2) . {p}(2) \
             + (n == 0) -> {x}(3) . {p}(0) + (n > 0) -> {x}(0) . {p}(0);\n"
        ));
    }
    spec.push_str("init allow({a|b|c|d}, A(0) || B(0) || C(0) || D(0));\n");
    for (act, shown) in [
        ("a(7)", None),
        ("a(12)", Some("[j = 2]")),
        ("a(1)", Some("[k = 1]")),
    ] {
        let f = format!("[true*.{act}|b(1)|c(1)|d(1)]false");
        let (code, lines) = check(&spec, &f, &[]);
        assert_eq!(code, 1, "{lines:?}");
        let step = &lines[3];
        assert!(step.contains(act), "{lines:?}");
        match shown {
            Some(s) => assert!(step.ends_with(s), "{act}: {step}"),
            None => assert!(!step.contains('['), "{act}: {step}"),
        }
    }
}

#[test]
fn renamed_sum_variables_keep_the_models_names() {
    // The lineariser renames P's `n` (it clashes with the parameter) to `n1` and, in the
    // synchronous summand, Q's `k` to `k1`; the trace shows the names of the model, through
    // the LPS artifact too.
    let spec = include_str!("../fixtures/evidence/renamed_sums.mcrl2");
    let formula = "[true*][exists x: Nat . b(1) | c(x, 0)]false";
    let (code, lines) = check(spec, formula, &[]);
    assert_eq!(code, 1, "{lines:?}");
    assert!(lines[3].ends_with("[n = 0]"), "{lines:?}");
    assert!(lines[4].contains("b(1)|c(0, 0)"), "{lines:?}");
    assert!(lines[4].ends_with("[k = 1, k = 0]"), "{lines:?}");
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("m.mcrl2"), spec).unwrap();
    std::fs::write(d.path().join("f.mcf"), formula).unwrap();
    for args in [
        &["mcrl22lps", "m.mcrl2", "m.lps"][..],
        &["lps2pbes", "-c", "m.lps", "-f", "f.mcf", "p.pbes"],
    ] {
        let o = muon(args, d.path());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let printed = String::from_utf8_lossy(&muon(&["lpspp", "m.lps"], d.path()).stdout).to_string();
    assert!(
        printed.contains("sum n1: Nat") && printed.contains("k1: Nat"),
        "{printed}"
    );
    let o = muon(&["pbessolve", "--file=m.lps", "p.pbes"], d.path());
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.iter().any(|l| l.ends_with("[n = 0]")), "{out}");
    assert!(lines.iter().any(|l| l.ends_with("[k = 1, k = 0]")), "{out}");
    assert!(!out.contains("n1") && !out.contains("k1"), "{out}");
}
