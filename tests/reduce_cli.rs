//! `muon ltsconvert` and `muon ltscompare` on the small fixtures in `fixtures/reduce/`:
//! quotient sizes from `expected.tsv` (checked by hand and against mCRL2's `ltsconvert`),
//! comparison verdicts and exit codes, format conversion, standard input and output, and
//! bad input (a clear error and no output file).

#[path = "cli_common/mod.rs"]
mod cli_common;
use cli_common::{muon, s};

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/reduce")
}

/// The `(transitions, states)` of an `.aut` header.
fn header_counts(text: &str) -> (u64, u64) {
    let h = text.lines().next().unwrap();
    let inner = h.trim_start_matches("des (").trim_end_matches(')');
    let f: Vec<u64> = inner
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    (f[1], f[2])
}

#[test]
fn quotient_sizes_match_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let table = std::fs::read_to_string(fixtures().join("expected.tsv")).unwrap();
    let mut rows = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let (file, tau, eq, states, trans) = (f[0], f[1], f[2], f[3], f[4]);
        let out = dir.path().join("out.aut");
        let input = fixtures().join(file);
        let mut args = vec!["ltsconvert", "-e", eq, s(&input), s(&out)];
        let tau_arg = format!("--tau={tau}");
        if tau != "-" {
            args.push(&tau_arg);
        }
        let (code, _, err) = muon(&args);
        assert_eq!(code, 0, "{line}: {err}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(
            header_counts(&text),
            (trans.parse().unwrap(), states.parse().unwrap()),
            "{line}"
        );
        rows += 1;
    }
    assert!(rows >= 20);
}

#[test]
fn compare_verdicts_and_exit_codes() {
    let split = fixtures().join("coffee_split.aut");
    let choice = fixtures().join("coffee_choice.aut");
    for (eq, same) in [
        ("bisim", false),
        ("branching-bisim", false),
        ("dpbranching-bisim", false),
        ("trace", true),
        ("weak-trace", true),
    ] {
        let (code, out, err) = muon(&["ltscompare", "-e", eq, s(&split), s(&choice)]);
        assert_eq!(
            out.trim(),
            if same { "true" } else { "false" },
            "{eq}: {err}"
        );
        assert_eq!(code, if same { 0 } else { 1 }, "{eq}");
    }
    let chain = fixtures().join("tau_chain.aut");
    let (code, out, _) = muon(&["ltscompare", "-e", "bisim", s(&chain), s(&chain)]);
    assert_eq!((code, out.trim()), (0, "true"));
}

/// The counterexample formula of `-c`, checked with muon's own `lts2pbes` and `pbes2bool`.
#[test]
fn counterexample_formula_holds_in_the_first_only() {
    let dir = tempfile::tempdir().unwrap();
    let split = fixtures().join("coffee_split.aut");
    let choice = fixtures().join("coffee_choice.aut");
    let mcf = dir.path().join("ce.mcf");
    let ce_file = format!("--counter-example-file={}", s(&mcf));
    let (code, out, err) = muon(&[
        "ltscompare",
        "-e",
        "bisim",
        "-c",
        &ce_file,
        s(&split),
        s(&choice),
    ]);
    assert_eq!((code, out.trim()), (1, "false"), "{err}");
    let formula = std::fs::read_to_string(&mcf).unwrap();
    assert!(formula.starts_with("<coin>"), "{formula}");
    for (lts, expect) in [(&split, "true"), (&choice, "false")] {
        let pbes = dir.path().join("f.pbes");
        let (code, _, err) = muon(&["lts2pbes", "-f", s(&mcf), s(lts), s(&pbes)]);
        assert_eq!(code, 0, "{err}");
        let (code, out, err) = muon(&["pbes2bool", s(&pbes)]);
        assert_eq!(
            (code, out.trim()),
            (0, expect),
            "{formula} on {}: {err}",
            lts.display()
        );
    }
    // Equivalent LTSs: no file.
    let none = dir.path().join("none.mcf");
    let ce_file = format!("--counter-example-file={}", s(&none));
    let (code, _, _) = muon(&[
        "ltscompare",
        "-e",
        "bisim",
        "-c",
        &ce_file,
        s(&split),
        s(&split),
    ]);
    assert_eq!(code, 0);
    assert!(!none.exists());
}

#[test]
fn a_quotient_is_equivalent_to_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let chain = fixtures().join("tau_chain.aut");
    for eq in [
        "bisim",
        "branching-bisim",
        "dpbranching-bisim",
        "trace",
        "weak-trace",
    ] {
        let out = dir.path().join(format!("{eq}.lts"));
        let (code, _, err) = muon(&["ltsconvert", "-e", eq, s(&chain), s(&out)]);
        assert_eq!(code, 0, "{err}");
        let (code, out, err) = muon(&["ltscompare", "-e", eq, s(&chain), s(&out)]);
        assert_eq!((code, out.trim()), (0, "true"), "{eq}: {err}");
    }
    // Branching bisimilar but not divergence-preserving: the divergent state 5 of the chain.
    let q = dir.path().join("branching-bisim.lts");
    let (code, out, _) = muon(&["ltscompare", "-e", "dpbranching-bisim", s(&chain), s(&q)]);
    assert_eq!((code, out.trim()), (1, "false"));
}

#[test]
fn converts_formats_and_uses_standard_streams() {
    let dir = tempfile::tempdir().unwrap();
    let chain = fixtures().join("tau_chain.aut");
    let text = std::fs::read_to_string(&chain).unwrap();
    let lts = dir.path().join("chain.lts");
    assert_eq!(muon(&["ltsconvert", s(&chain), s(&lts)]).0, 0);
    let (code, out, _) = muon(&["ltsconvert", s(&lts)]);
    assert_eq!((code, out.as_str()), (0, text.as_str()));
    // Standard input to standard output, reduced, with statistics on standard error.
    let mut child = Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(["ltsconvert", "-v", "-e", "branching-bisim", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(header_counts(&String::from_utf8_lossy(&out.stdout)), (5, 5));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("8 states") && err.contains("5 blocks"),
        "{err}"
    );
}

#[test]
fn unreachable_states_are_removed_unless_no_reach() {
    let unr = fixtures().join("unreachable.aut");
    let (code, out, _) = muon(&["ltsconvert", s(&unr)]);
    assert_eq!((code, header_counts(&out)), (0, (1, 2)));
    let (code, out, _) = muon(&["ltsconvert", "--no-reach", s(&unr)]);
    assert_eq!((code, header_counts(&out)), (0, (3, 5)));
    // mCRL2 keeps one state per block of the unreachable part too.
    let (code, out, _) = muon(&["ltsconvert", "--no-reach", "-e", "bisim", s(&unr)]);
    assert_eq!((code, header_counts(&out)), (0, (2, 3)));
}

#[test]
fn bad_input_is_a_clear_error_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let bad = fixtures().join("bad.aut");
    let out = dir.path().join("out.aut");
    let (code, _, err) = muon(&["ltsconvert", "-e", "bisim", s(&bad), s(&out)]);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.aut:3") && err.contains("target state 5"),
        "{err}"
    );
    assert!(!out.exists());
    let good = fixtures().join("coffee_choice.aut");
    let (code, stdout, err) = muon(&["ltscompare", "-e", "bisim", s(&good), s(&bad)]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(err.contains("target state 5"), "{err}");
    let (code, _, _) = muon(&["ltscompare", "-e", "bisim", s(&good)]);
    assert_eq!(code, 2, "a usage error");
    let (code, _, err) = muon(&["ltsconvert", s(&good), s(&dir.path().join("out.txt"))]);
    assert_eq!(code, 1, "{err}");
}

/// `-p trace` and `-p weak-trace`: inclusion in one direction only, exit codes, and the
/// shortest counterexample trace of `-c`.
#[test]
fn preorders_and_their_counterexample_traces() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small.aut");
    let big = dir.path().join("big.aut");
    // small: tau . a . b; big: a . (tau . b + c)
    std::fs::write(
        &small,
        "des (0,3,4)\n(0,\"tau\",1)\n(1,\"a\",2)\n(2,\"b\",3)\n",
    )
    .unwrap();
    std::fs::write(
        &big,
        "des (0,4,5)\n(0,\"a\",1)\n(1,\"tau\",2)\n(2,\"b\",3)\n(1,\"c\",4)\n",
    )
    .unwrap();
    for (p, x, y, holds, trace) in [
        ("weak-trace", &small, &big, true, ""),
        ("weak-trace", &big, &small, false, "a . c"),
        ("trace", &small, &big, false, "tau"),
        ("trace", &big, &small, false, "a"),
        ("trace", &big, &big, true, ""),
    ] {
        let (code, out, err) = muon(&["ltscompare", "-p", p, "-c", s(x), s(y)]);
        assert_eq!(
            (code, out.trim()),
            (
                if holds { 0 } else { 1 },
                if holds { "true" } else { "false" }
            ),
            "{p}: {err}"
        );
        if !holds {
            assert!(
                err.contains(&format!("does not have: {trace}\n")),
                "{p}: {err}"
            );
        }
    }
    // -e and -p exclude each other; one of them is needed.
    let (code, _, _) = muon(&["ltscompare", "-p", "trace", "-e", "bisim", s(&big), s(&big)]);
    assert_eq!(code, 2);
    let (code, _, _) = muon(&["ltscompare", s(&big), s(&big)]);
    assert_eq!(code, 2);
}

/// The failures preorders, the antichain trace preorders and simulation: mCRL2's verdicts
/// (recorded from mCRL2 202607.0 `ltscompare -pNAME`) on four small LTSs, and the
/// counterexamples of `-c`.
#[test]
fn failures_and_simulation_preorders() {
    let dir = tempfile::tempdir().unwrap();
    let lts = [
        (
            "small",
            "des (0,3,4)\n(0,\"tau\",1)\n(1,\"a\",2)\n(2,\"b\",3)\n",
        ),
        (
            "big",
            "des (0,4,5)\n(0,\"a\",1)\n(1,\"tau\",2)\n(2,\"b\",3)\n(1,\"c\",4)\n",
        ),
        (
            "div",
            "des (0,3,3)\n(0,\"a\",1)\n(1,\"tau\",1)\n(1,\"b\",2)\n",
        ),
        ("ab", "des (0,2,3)\n(0,\"a\",1)\n(1,\"b\",2)\n"),
    ];
    let path = |name: &str| dir.path().join(format!("{name}.aut"));
    for (name, text) in lts {
        std::fs::write(path(name), text).unwrap();
    }
    // Per preorder, the verdicts for (first, second) over small, big, div, ab row by row.
    let expected = [
        ("sim", "1000 0100 0010 0011"),
        ("trace-ac", "1000 0100 0010 0011"),
        ("weak-trace-ac", "1111 0100 1111 1111"),
        ("failures", "1000 0100 0010 0001"),
        ("weak-failures", "1101 0100 1111 1101"),
        ("failures-divergence", "1111 0110 0010 1111"),
    ];
    for (p, table) in expected {
        for (i, row) in table.split(' ').enumerate() {
            for (j, v) in row.chars().enumerate() {
                let (x, y) = (path(lts[i].0), path(lts[j].0));
                let (code, out, err) = muon(&["ltscompare", "-q", "-p", p, s(&x), s(&y)]);
                let holds = v == '1';
                assert_eq!(
                    (code, out.trim()),
                    (
                        if holds { 0 } else { 1 },
                        if holds { "true" } else { "false" }
                    ),
                    "{p} {} {}: {err}",
                    lts[i].0,
                    lts[j].0
                );
            }
        }
    }
    for (p, x, y, says) in [
        (
            "failures",
            "ab",
            "small",
            "after (empty) it refuses {b, tau}",
        ),
        ("weak-failures", "ab", "div", "after a it refuses {a}"),
        (
            "failures-divergence",
            "div",
            "ab",
            "after a the first LTS can diverge",
        ),
        ("weak-trace-ac", "big", "ab", "does not have: a . c\n"),
    ] {
        let (code, _, err) = muon(&["ltscompare", "-c", "-p", p, s(&path(x)), s(&path(y))]);
        assert_eq!(code, 1, "{p}: {err}");
        assert!(err.contains(says), "{p} {x} {y}: {err}");
    }
    // Simulation equivalence: mutual simulation, which `ab` and `div` are not.
    let (code, out, _) = muon(&["ltscompare", "-e", "sim", s(&path("ab")), s(&path("div"))]);
    assert_eq!((code, out.trim()), (1, "false"));
}

/// `check --reduce`: the same verdicts as the LPS route for the formulas each bisimulation
/// preserves, a clear refusal (exit 2, naming the modality and the equivalence that would
/// do) for the others. Labels carry lists (`d([])`, `d([1, 2])`), whose sort only the
/// action's declaration decides.
#[test]
fn check_on_the_quotient() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("m.mcrl2");
    std::fs::write(
        &spec,
        "act a, b, c: Nat; d: List(Nat);\n\
         proc P(n: Nat) = (n < 3) -> tau . a(n) . P(n + 1) + b(n) . Q(n)\n\
                          + (n == 1) -> d([]) . d([n, 2]) . P(n + 1);\n\
              Q(n: Nat) = tau . Q(n) + tau . c(n) . delta;\n\
         init P(0);\n",
    )
    .unwrap();
    let formulas = [
        ("[true* . c(2)] false", true),
        ("<true* . b(1) . true*> <c(1)> true", true),
        (
            "[true*] forall n: Nat . [a(n)] <true* . b(n + 1)> true",
            true,
        ),
        ("[true* . d([1, 2])] false", true),
        ("[true*] <true> true", false),
        ("mu X . ([!(exists n: Nat . c(n))] X && <true> true)", false),
    ];
    for (i, (text, tau_blind)) in formulas.iter().enumerate() {
        let f = dir.path().join(format!("f{i}.mcf"));
        std::fs::write(&f, text).unwrap();
        let (code, lps_route, err) = muon(&["check", "-q", s(&spec), "-f", s(&f)]);
        assert!(code == 0 || code == 1, "{text}: {err}");
        for eq in ["bisim", "branching-bisim", "dpbranching-bisim"] {
            let (rc, out, err) = muon(&["check", "-q", "--reduce", eq, s(&spec), "-f", s(&f)]);
            if eq == "bisim" || *tau_blind {
                assert_eq!(
                    (rc, out.trim()),
                    (code, lps_route.trim()),
                    "{text} modulo {eq}: {err}"
                );
            } else {
                assert_eq!(rc, 2, "{text} modulo {eq}: {out}");
                assert!(err.contains("muon::check::not_preserved"), "{err}");
            }
        }
    }
    // The route gives verdicts only.
    let f = dir.path().join("f0.mcf");
    let (code, _, _) = muon(&[
        "check",
        "--reduce",
        "bisim",
        "--evidence-dir",
        s(dir.path()),
        s(&spec),
        "-f",
        s(&f),
    ]);
    assert_eq!(code, 2);
}
