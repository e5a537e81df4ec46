//! The PBES tools end to end through the binary: mcrl22lps, lps2pbes, pbesinst (all output
//! formats), pbes2bool (both solvers), pbessolve with evidence, lts2pbes on an `.aut` file
//! with data labels, and check; plus clear errors.

use std::path::Path;
use std::process::{Command, Output};

fn muon(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run muon")
}

fn ok(args: &[&str], dir: &Path) -> String {
    let o = muon(args, dir);
    assert!(
        o.status.success(),
        "muon {args:?} failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

const SPEC: &str = "act a, b: Nat; c;
proc P(n: Nat) = (n < 3) -> a(n) . P(n + 1) + (n == 3) -> c . P(10) + (n == 1) -> b(n) . P(0);
init P(0);
";

fn setup() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("s.mcrl2"), SPEC).unwrap();
    std::fs::write(d.path().join("dl.mcf"), "[true*]<true>true\n").unwrap();
    std::fs::write(d.path().join("rc.mcf"), "<true*><c>true\n").unwrap();
    std::fs::write(
        d.path().join("pm.mcf"),
        "mu X(m: Nat = 0) . val(m == 3) || <true>X(m + 1)\n",
    )
    .unwrap();
    std::fs::write(
        d.path().join("q.mcf"),
        "forall k: Nat . val(k < 2) => <true*><a(k)>true\n",
    )
    .unwrap();
    ok(&["mcrl22lps", "s.mcrl2", "s.lps"], d.path());
    d
}

#[test]
fn lps2pbes_pbesinst_pbes2bool_pbessolve() {
    let d = setup();
    let p = d.path();
    for (f, v) in [
        ("dl", "false"),
        ("rc", "true"),
        ("pm", "true"),
        ("q", "true"),
    ] {
        ok(
            &[
                "lps2pbes",
                "-f",
                &format!("{f}.mcf"),
                "s.lps",
                &format!("{f}.pbes"),
            ],
            p,
        );
        for solver in ["zielonka", "gauss"] {
            let out = ok(&["pbes2bool", "--solver", solver, &format!("{f}.pbes")], p);
            assert_eq!(out.trim(), v, "{f} with {solver}");
        }
    }
    // pbesinst to every format; bessolve reads them back.
    for out in ["dl.pg", "dl.bes", "dl.besart"] {
        ok(&["pbesinst", "dl.pbes", out], p);
        let v = ok(&["bessolve", out], p);
        if out.ends_with(".pg") {
            // A parity-game solution: the initial vertex 0 is won by player 1 (false).
            assert!(v.lines().any(|l| l.starts_with("0 1")), "{out}: {v}");
        } else {
            assert!(v.trim_start().starts_with("false"), "{out}: {v}");
        }
    }
    // Evidence needs the counter-example information of `lps2pbes -c`.
    let o = muon(&["pbessolve", "--file", "s.lps", "dl.pbes"], p);
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("lps2pbes -c"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The counterexample of deadlock freedom ends in the deadlock, its last step `c`
    // included, and every step shows the parameter it changes.
    ok(&["lps2pbes", "-c", "-f", "dl.mcf", "s.lps", "dlc.pbes"], p);
    let ev = ok(
        &[
            "pbessolve",
            "--file",
            "s.lps",
            "dlc.pbes",
            "--evidence-file",
            "dl.aut",
        ],
        p,
    );
    let lines: Vec<&str> = ev.lines().collect();
    assert_eq!(lines[0], "false", "{ev}");
    assert!(lines[1].starts_with("counterexample (4 steps"), "{ev}");
    assert_eq!(lines[2].trim(), "initial state: n = 0", "{ev}");
    let steps: Vec<Vec<&str>> = lines[3..]
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(steps[0], ["1", "a(0)", "n:", "0", "→", "1"], "{ev}");
    assert_eq!(steps[3], ["4", "c", "n:", "3", "→", "10"], "{ev}");
    assert_eq!(steps.len(), 4, "{ev}");
    // The evidence LTS is that path, with the model's labels.
    let aut = std::fs::read_to_string(p.join("dl.aut")).unwrap();
    assert_eq!(
        aut,
        "des (0,4,5)\n(0,\"a(0)\",1)\n(1,\"a(1)\",2)\n(2,\"a(2)\",3)\n(3,\"c\",4)\n"
    );
}

#[test]
fn check_runs_the_whole_pipeline() {
    let d = setup();
    // Verdicts alone: exit 1 because one formula is false.
    let o = muon(
        &[
            "check", "-q", "s.mcrl2", "-f", "dl.mcf", "-f", "rc.mcf", "-f", "pm.mcf",
        ],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "dl.mcf: false\nrc.mcf: true\npm.mcf: true\n"
    );
    // Every formula true: exit 0; each verdict with its witness.
    let out = ok(
        &["check", "s.mcrl2", "-f", "rc.mcf", "-f", "pm.mcf"],
        d.path(),
    );
    let heads: Vec<&str> = out.lines().filter(|l| l.ends_with(": true")).collect();
    assert_eq!(heads, ["rc.mcf: true", "pm.mcf: true"], "{out}");
    assert!(out.contains("witness (4 steps):"), "{out}");
    // JSON Lines for tools, and evidence files per formula.
    let out = ok(
        &[
            "check",
            "s.mcrl2",
            "-f",
            "rc.mcf",
            "--format",
            "json",
            "--evidence-dir",
            "ev",
        ],
        d.path(),
    );
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("\"verdict\":true"), "{out}");
    assert!(out.contains("\"formula\":\"rc.mcf\""), "{out}");
    for ext in ["aut", "dot", "json", "txt"] {
        assert!(
            d.path().join("ev").join(format!("rc.{ext}")).is_file(),
            "rc.{ext}"
        );
    }
    // An error exits 2, not 1.
    let o = muon(&["check", "missing.mcrl2", "-f", "rc.mcf"], d.path());
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn lts2pbes_on_aut_with_data_labels() {
    let d = setup();
    let p = d.path();
    // The state space of SPEC by hand.
    std::fs::write(
        p.join("s.aut"),
        "des (0,6,5)\n(0,\"a(0)\",1)\n(1,\"a(1)\",2)\n(1,\"b(1)\",0)\n(2,\"a(2)\",3)\n(3,\"c\",4)\n(4,\"tau\",4)\n",
    )
    .unwrap();
    for (f, v) in [
        ("dl", "true"),
        ("rc", "true"),
        ("pm", "true"),
        ("q", "true"),
    ] {
        ok(
            &[
                "lts2pbes",
                "--lps",
                "s.lps",
                "-f",
                &format!("{f}.mcf"),
                "s.aut",
                "x.pbes",
            ],
            p,
        );
        assert_eq!(ok(&["pbes2bool", "x.pbes"], p).trim(), v, "{f}");
    }
    // Without declarations, labels with data are refused clearly.
    let o = muon(&["lts2pbes", "-f", "dl.mcf", "s.aut", "y.pbes"], p);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--spec"));
    assert!(!p.join("y.pbes").exists());
}

#[test]
fn errors_are_clear() {
    let d = setup();
    let p = d.path();
    std::fs::write(p.join("bad.mcf"), "nu X . !X\n").unwrap();
    let o = muon(&["lps2pbes", "-f", "bad.mcf", "s.lps", "bad.pbes"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("negatively"));
    assert!(!p.join("bad.pbes").exists());
    // Unbounded instantiation stops at --max-vars.
    std::fs::write(p.join("inf.mcf"), "nu X(m: Nat = 0) . [true]X(m + 1)\n").unwrap();
    ok(&["lps2pbes", "-f", "inf.mcf", "s.lps", "inf.pbes"], p);
    let o = muon(&["pbes2bool", "--max-vars", "500", "inf.pbes"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("500"));
}

#[test]
fn a_nested_fixpoint_passes_on_the_context_of_the_fixpoint_it_calls() {
    // `k` occurs only in X's initial value, so it is X's context parameter; Y calls X and
    // must carry `k` although its own body never mentions it (mCRL2's minepump prop3/prop5).
    let d = setup();
    let p = d.path();
    std::fs::write(
        p.join("ctx.mcf"),
        "forall k: Nat . val(k < 2) => nu X(p: Nat = k) . mu Y(q: Nat = p) . <true>X(q + 1) || val(q > 5)\n",
    )
    .unwrap();
    let out = ok(&["check", "-q", "s.mcrl2", "-f", "ctx.mcf"], p);
    assert_eq!(out.trim(), "true");
    ok(&["lps2lts", "s.lps", "s.aut"], p);
    ok(
        &[
            "lts2pbes", "--lps", "s.lps", "-f", "ctx.mcf", "s.aut", "ctx.pbes",
        ],
        p,
    );
    assert_eq!(ok(&["pbes2bool", "ctx.pbes"], p).trim(), "true");
}

#[test]
fn check_with_evidence_needs_zielonka() {
    let d = setup();
    let o = muon(
        &["check", "--solver", "gauss", "s.mcrl2", "-f", "rc.mcf"],
        d.path(),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--solver zielonka"));
    // The verdict alone works with Gauss.
    let out = ok(
        &[
            "check", "-q", "--solver", "gauss", "s.mcrl2", "-f", "rc.mcf",
        ],
        d.path(),
    );
    assert_eq!(out.trim(), "true");
}

#[test]
fn a_pbes_artifact_that_breaks_its_invariants_is_refused() {
    use muon::artifact::Artifact;
    use muon::pbes::ir::PbesExpr;
    let d = setup();
    let p = d.path();
    std::fs::write(
        p.join("x.txt"),
        "pbes nu X(n: Nat) = X(n + 1);\ninit X(0);\n",
    )
    .unwrap();
    ok(&["txt2pbes", "x.txt", "x.pbes"], p);
    let mut file = muon::pbes::io::PbesFile::read_artifact(Some(&p.join("x.pbes"))).unwrap();
    let pbes = &mut file.pbes;
    // The right-hand side calls X with no argument although X has one parameter.
    if let PbesExpr::PropVar(x) = &mut pbes.equations[0].rhs {
        x.args.clear();
    } else {
        panic!("unexpected right-hand side {:?}", pbes.equations[0].rhs);
    }
    file.write_artifact(Some(&p.join("bad.pbes"))).unwrap();
    let o = muon(&["pbes2bool", "bad.pbes"], p);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("corrupt") && err.contains("0 arguments"),
        "{err}"
    );
}

#[test]
fn formulas_may_name_the_terminate_action_linearisation_adds() {
    // mCRL2 202607.0: `init a;` linearises with `Terminate`, and `<a . Terminate>true` holds.
    let d = setup();
    let p = d.path();
    std::fs::write(p.join("t.mcrl2"), "act a;\ninit a;\n").unwrap();
    std::fs::write(p.join("t.mcf"), "<a . Terminate>true\n").unwrap();
    let out = ok(&["check", "-q", "t.mcrl2", "-f", "t.mcf"], p);
    assert_eq!(out.trim(), "true");
    ok(&["mcrl22lps", "t.mcrl2", "t.lps"], p);
    ok(&["lps2pbes", "-f", "t.mcf", "t.lps", "t.pbes"], p);
    assert_eq!(ok(&["pbes2bool", "t.pbes"], p).trim(), "true");
    // Without termination there is no `Terminate` to name.
    std::fs::write(p.join("l.mcrl2"), "act a;\nproc P = a . P;\ninit P;\n").unwrap();
    let o = muon(&["check", "-q", "l.mcrl2", "-f", "t.mcf"], p);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("Terminate"));
}

#[test]
fn a_choice_in_a_regular_modality_gives_equations_of_distinct_names() {
    // `[(R1 + R2) . R]φ` copies the fixpoint of `[R]φ` into both branches; each copy must
    // become its own equation (the PBES artifact refuses two equations of one name).
    let d = setup();
    let p = d.path();
    std::fs::write(p.join("ch.mcf"), "[(b(1) + c) . (!c)* . c]false\n").unwrap();
    ok(&["lps2pbes", "-f", "ch.mcf", "s.lps", "ch.pbes"], p);
    let text = ok(&["pbespp", "ch.pbes"], p);
    let mut names: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("nu ")
                .or(l.trim().strip_prefix("mu "))
        })
        .filter_map(|l| l.split(['(', ' ', '=']).next())
        .collect();
    let n = names.len();
    names.sort();
    names.dedup();
    assert!(n >= 3 && names.len() == n, "{text}");
    ok(&["pbes2bool", "ch.pbes"], p);
}

#[test]
fn a_quantifier_over_nat_fixed_inside_a_multi_action_match() {
    // Petersons' `Bounded overtaking.mcf`: `forall i: Nat. [exists b: Bool. wish(i)|set(i, b)]…`
    // fixes `i` by an equation inside the `exists` that matches the multi-action; the
    // one-point rule must see it there (mCRL2 202607.0: true here, false with bound 0).
    let d = setup();
    let p = d.path();
    std::fs::write(
        p.join("w.mcrl2"),
        "act wish, enter: Nat; set: Nat # Bool;\n\
         init wish(0) | set(0, true) . enter(1) . enter(0) . delta;\n",
    )
    .unwrap();
    let f = |bound: u32| {
        format!(
            "[true*] forall i: Nat. [exists b: Bool. wish(i) | set(i, b)]\n\
             (nu Y(n: Nat = 0). val(n <= {bound}) && [!(exists j: Nat. enter(j))]Y(n) &&\n\
             [exists j: Nat. val(j != i) && enter(j)]Y(n + 1))\n"
        )
    };
    std::fs::write(p.join("b1.mcf"), f(1)).unwrap();
    std::fs::write(p.join("b0.mcf"), f(0)).unwrap();
    let o = muon(
        &["check", "-q", "w.mcrl2", "-f", "b1.mcf", "-f", "b0.mcf"],
        p,
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let verdicts: Vec<&str> = out.lines().map(|l| l.rsplit(' ').next().unwrap()).collect();
    assert_eq!(verdicts, ["true", "false"], "{out}");
}

/// A PBES records the LPS it was generated from; `pbessolve --file` refuses another one
/// (mCRL2 issue #1747), and an old PBES artifact gets a clear version error.
#[test]
fn pbessolve_refuses_evidence_from_another_lps() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(p.join("a.mcrl2"), "act a;\nproc P = a . P;\ninit P;\n").unwrap();
    std::fs::write(p.join("b.mcrl2"), "act a;\nproc P = a . a . P;\ninit P;\n").unwrap();
    std::fs::write(p.join("f.mcf"), "[true*]<true>true\n").unwrap();
    ok(&["mcrl22lps", "a.mcrl2", "a.lps"], p);
    ok(&["mcrl22lps", "b.mcrl2", "b.lps"], p);
    ok(&["lps2pbes", "-c", "-f", "f.mcf", "a.lps", "a.pbes"], p);
    ok(&["pbessolve", "--file=a.lps", "a.pbes"], p);
    let o = muon(&["pbessolve", "-f", "b.lps", "a.pbes"], p);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("b.lps is not the LPS or LTS this PBES was generated from"),
        "{err}"
    );
    // Version 1 (before the PBES recorded its LPS): a clear error, no misreading.
    let mut old = std::fs::read(p.join("a.pbes")).unwrap();
    old[8..12].copy_from_slice(&1u32.to_le_bytes());
    std::fs::write(p.join("old.pbes"), old).unwrap();
    let o = muon(&["pbessolve", "old.pbes"], p);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("format version 1 is not supported"), "{err}");
}

#[test]
fn formula_quantifiers_over_finite_sets_and_functions() {
    // Every value of `FSet(A)`, `Set(Bool)` and `A -> Bool` is an instance, as in mCRL2's
    // pbesinst; the verdicts are mCRL2 202607.0's (lps2pbes, pbessolve).
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(
        p.join("fs.mcrl2"),
        "sort A = struct a1 | a2 | a3;\nact x: FSet(A);\n\
         proc P = sum s: FSet(A) . (a1 in s) -> x(s) . delta;\ninit P;\n",
    )
    .unwrap();
    ok(&["mcrl22lps", "fs.mcrl2", "fs.lps"], p);
    for (i, (formula, verdict)) in [
        ("exists s: FSet(A) . <x(s)> true", "true"),
        ("forall s: FSet(A) . <x(s)> true", "false"),
        ("forall s: FSet(A) . val(a1 in s) => <x(s)> true", "true"),
        (
            "forall s: FSet(A) . val(#s == 2) => <exists t: FSet(A) . x(t) && val(t == s)> true",
            "false",
        ),
        (
            "exists f: A -> Bool . val(f(a1) && !f(a2)) && <x({a1, a3})> true",
            "true",
        ),
        (
            "forall b: Set(Bool) . val(b == {} || true in b || false in b)",
            "true",
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let mcf = format!("q{i}.mcf");
        std::fs::write(p.join(&mcf), format!("{formula}\n")).unwrap();
        let pbes = format!("q{i}.pbes");
        ok(&["lps2pbes", "-f", &mcf, "fs.lps", &pbes], p);
        assert_eq!(ok(&["pbes2bool", &pbes], p).trim(), verdict, "{formula}");
        for engine in ["pbes", "product"] {
            let o = muon(
                &["check", "-q", "--engine", engine, "fs.mcrl2", "-f", &mcf],
                p,
            );
            assert_eq!(
                String::from_utf8_lossy(&o.stdout).trim(),
                verdict,
                "{formula} by {engine}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

#[test]
fn selectors_beside_a_bounded_nat_are_enumerated_through_the_guard() {
    // A clustered summand quantifies over many Boolean selectors and a `Nat` its condition
    // bounds. Trying every selector value before the guard costs 2^k instances (2^22 here);
    // enumerating with the guard prunes at the first `false` (random spec 4242 #409 took
    // 125 s for 253 BES variables that way).
    let d = tempfile::tempdir().unwrap();
    let n = 22;
    let sels: Vec<String> = (0..n).map(|k| format!("s{k}: Bool")).collect();
    let chain: Vec<String> = (0..n - 1)
        .map(|k| format!("if(s{k}, s{}, !s{})", k + 1, k + 1))
        .collect();
    let text = format!(
        "pbes\n  mu X(i: Nat) = val(i >= 3) || (exists {}, k: Nat .\n    val({} && s0 != s{} && k < 1) && X(i + k + 1));\ninit X(0);\n",
        sels.join(", "),
        chain.join(" && "),
        n - 1
    );
    std::fs::write(d.path().join("sel.txt"), text).unwrap();
    assert_eq!(ok(&["pbes2bool", "sel.txt"], d.path()).trim(), "false");
}
