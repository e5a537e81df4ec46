//! The long stages under the run's budget, per-stage `--timings`, and exit codes as mCRL2's,
//! through the binary: reduction (`ltsconvert`, `ltscompare`) and solving (`bessolve`) stop on
//! `--timeout` or `--memory-limit` with what they did so far and exit status 3, leaving no
//! output file; `--timings` lists the stages in mCRL2's format; a usage error of a tool named
//! after mCRL2's exits with 1, as mCRL2's tools do.

#[path = "cli_common/mod.rs"]
mod cli_common;

use std::path::Path;

use cli_common::{muon, s};

/// An `.aut` LTS whose determinisation has 2^k subsets: from state 0 `a` and `b` loop and `a`
/// also starts a chain of `k` steps (either label) to the last state; a trace is
/// remembered for `k` steps, so the subset construction needs every set of chain positions.
fn blowup_aut(dir: &Path, k: u32) -> std::path::PathBuf {
    let mut t = vec![
        "(0,\"a\",0)".to_string(),
        "(0,\"b\",0)".to_string(),
        "(0,\"a\",1)".to_string(),
    ];
    for i in 1..=k {
        t.push(format!("({i},\"a\",{})", i + 1));
        t.push(format!("({i},\"b\",{})", i + 1));
    }
    let text = format!("des (0,{},{})\n{}\n", t.len(), k + 2, t.join("\n"));
    let p = dir.join("blowup.aut");
    std::fs::write(&p, text).unwrap();
    p
}

/// The names in `dir` (no output or temporary file may be left by a stopped run).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Runs a trace reduction of the 2^25-subset LTS under `limit` (the budget's option and
/// its value), which must stop it with exit status 3, its count, `reason`, and no output.
fn stopped_trace_reduction(limit: [&str; 2], reason: &str) {
    let dir = tempfile::tempdir().unwrap();
    let aut = blowup_aut(dir.path(), 24);
    let out = dir.path().join("min.aut");
    let (code, stdout, err) = muon(&[
        "ltsconvert",
        limit[0],
        limit[1],
        "-etrace",
        s(&aut),
        s(&out),
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("reduction stopped"), "{err}");
    assert!(err.contains("subsets determinised"), "{err}");
    assert!(err.contains(reason), "{err}");
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(names(dir.path()), ["blowup.aut"]);
}

#[test]
fn timeout_stops_a_trace_reduction_with_its_count_and_no_output() {
    stopped_trace_reduction(["--timeout", "1"], "time limit");
}

/// Determinisation has no bound of its own beyond state numbers: the memory limit is what
/// stops a subset construction that outgrows it.
#[test]
fn memory_limit_stops_a_trace_reduction_without_a_bound_of_its_own() {
    stopped_trace_reduction(["--memory-limit", "96M"], "memory limit");
}

#[test]
fn timeout_stops_a_comparison_without_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let aut = blowup_aut(dir.path(), 24);
    let (code, stdout, err) = muon(&[
        "ltscompare",
        "--timeout",
        "1",
        "-eweak-trace",
        "--max-states=100000000",
        s(&aut),
        s(&aut),
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("reduction stopped"), "{err}");
    assert!(stdout.is_empty(), "no verdict may be printed: {stdout}");
}

/// A small LTS whose branching bisimulation needs refinement: a tau-chain with different
/// actions at its ends.
const CHAIN: &str = "des (0,4,4)\n(0,\"tau\",1)\n(1,\"a\",2)\n(1,\"tau\",3)\n(3,\"b\",2)\n";

#[test]
fn memory_limit_stops_a_branching_reduction_at_its_first_round() {
    // Any process is larger than 1 MiB: the stop comes at the first polling point, in
    // refinement (reading the small file has none, and takes far less than the grace time).
    let dir = tempfile::tempdir().unwrap();
    let aut = dir.path().join("chain.aut");
    std::fs::write(&aut, CHAIN).unwrap();
    let out = dir.path().join("min.aut");
    let (code, _, err) = muon(&[
        "ltsconvert",
        "--memory-limit",
        "1M",
        "-ebranching-bisim",
        s(&aut),
        s(&out),
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("reduction stopped") && err.contains("constellations"),
        "{err}"
    );
    assert!(err.contains("memory limit"), "{err}");
    assert_eq!(names(dir.path()), ["chain.aut"]);
}

/// A parity game that preprocessing does not solve: a cycle through both players.
const GAME: &str = "parity 3;\n0 1 0 1;\n1 2 1 2;\n2 3 0 3;\n3 0 1 0;\n";

#[test]
fn memory_limit_stops_both_solvers_with_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let pg = dir.path().join("g.pg");
    std::fs::write(&pg, GAME).unwrap();
    let (code, out, _) = muon(&["bessolve", s(&pg)]);
    assert_eq!(code, 0, "the game solves without a limit: {out}");
    for (solver, work) in [("zielonka", "recursion steps"), ("gauss", "eliminated")] {
        let (code, stdout, err) = muon(&[
            "bessolve",
            "--memory-limit",
            "1M",
            "--solver",
            solver,
            s(&pg),
        ]);
        assert_eq!(code, 3, "{solver}: {err}");
        assert!(
            err.contains("solving stopped") && err.contains(work),
            "{solver}: {err}"
        );
        assert!(stdout.is_empty(), "{solver}: {stdout}");
    }
}

/// The `--timings` entries of `tool` in `text`: (stage, wall seconds, user seconds), in
/// mCRL2's form `    STAGE: W.WWWs (user: U.UUUs)`.
fn timings(text: &str, tool: &str) -> Vec<(String, f64, f64)> {
    let start = text
        .find(&format!("- tool: {tool}\n  timing:\n"))
        .unwrap_or_else(|| panic!("no timings of {tool} in:\n{text}"));
    text[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with("    "))
        .map(|l| {
            let (name, rest) = l.trim().split_once(": ").expect("STAGE: TIME");
            let (wall, user) = rest
                .strip_suffix("s)")
                .and_then(|r| r.split_once("s (user: "))
                .unwrap_or_else(|| panic!("not mCRL2's form: {l}"));
            (
                name.to_string(),
                wall.parse().unwrap(),
                user.parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn timings_list_each_stage_in_mcrl2s_format() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let aut = d.join("chain.aut");
    std::fs::write(&aut, CHAIN).unwrap();
    let times = d.join("times.txt");
    let arg = format!("--timings={}", s(&times));
    let (code, _, err) = muon(&["ltsconvert", &arg, "-ebisim", s(&aut), s(&d.join("m.aut"))]);
    assert_eq!(code, 0, "{err}");
    let spec = d.join("s.mcrl2");
    std::fs::write(
        &spec,
        "act a, b;\nproc P(n: Nat) = (n < 3) -> a . P(n + 1) + (n == 3) -> b . P(0);\ninit P(0);\n",
    )
    .unwrap();
    let mcf = d.join("f.mcf");
    std::fs::write(&mcf, "[true*][b]false\n").unwrap();
    let (code, _, err) = muon(&["check", &arg, "--engine", "pbes", s(&spec), "-f", s(&mcf)]);
    assert_eq!(code, 1, "{err}");
    let text = std::fs::read_to_string(&times).unwrap();
    let stages = |tool| {
        let t = timings(&text, tool);
        for (name, wall, user) in &t {
            assert!(*wall >= 0.0 && *user >= 0.0, "{name}: {text}");
        }
        let names: Vec<String> = t.into_iter().map(|(n, _, _)| n).collect();
        names
    };
    // Ordered by name, as mCRL2 orders them.
    assert_eq!(
        stages("ltsconvert"),
        ["reachability check", "reduction", "total"],
        "{text}"
    );
    // The verdict of `[true*][b]false` is decided while the BES is instantiated, so no game
    // is built and there is no solving stage (a stage is listed only when it ran).
    assert_eq!(
        stages("check"),
        [
            "evidence",
            "instantiation",
            "linearisation",
            "total",
            "translation"
        ],
        "{text}"
    );
}

#[test]
fn usage_errors_exit_as_mcrl2s_tools_do() {
    // mCRL2's tools exit with 1 on an unknown option or a missing file.
    for tool in [
        "mcrl22lps",
        "lps2lts",
        "ltsconvert",
        "pbessolve",
        "lps2pbes",
    ] {
        let (code, _, err) = muon(&[tool, "--no-such-option"]);
        assert_eq!(code, 1, "{tool}: {err}");
        assert!(err.contains("--no-such-option"), "{tool}: {err}");
        let (code, _, err) = muon(&[tool, "/nonexistent/in.file"]);
        assert_eq!(code, 1, "{tool}: {err}");
    }
    // Global options before the tool do not hide it.
    let (code, _, _) = muon(&["-q", "--timeout", "5", "lps2lts", "--no-such-option"]);
    assert_eq!(code, 1);
    // `ltscompare` and `check` keep 1 for "false": their usage errors exit with 2.
    for tool in ["ltscompare", "check", "parse"] {
        let (code, _, err) = muon(&[tool, "--no-such-option"]);
        assert_eq!(code, 2, "{tool}: {err}");
    }
    // Help is not an error.
    assert_eq!(muon(&["lps2lts", "--help"]).0, 0);
}

#[test]
fn memory_limit_stops_the_simulation_and_antichain_preorders_with_their_progress() {
    // As above, 1 MiB stops each at its first polling point: the simulation preorder in its
    // strong bisimulation or its matrix, the antichain preorders in the reduction of the
    // union they search (`tests/reduce_preorder.rs` stops their search at its first pair).
    let dir = tempfile::tempdir().unwrap();
    let aut = dir.path().join("chain.aut");
    std::fs::write(&aut, CHAIN).unwrap();
    let cases: [(&[&str], &str); 5] = [
        (&["ltscompare", "-psim"], "comparison"),
        (&["ltscompare", "-esim"], "reduction"),
        (&["ltscompare", "-pfailures"], "comparison"),
        (&["ltscompare", "-pfailures-divergence"], "comparison"),
        (&["ltscompare", "-pweak-trace-ac"], "comparison"),
    ];
    for (args, expect) in cases {
        let mut cmd: Vec<&str> = args.to_vec();
        cmd.extend(["--memory-limit", "1M", s(&aut), s(&aut)]);
        let (code, stdout, err) = muon(&cmd);
        assert_eq!(code, 3, "{args:?}: {err}");
        // Single words: the diagnostic may wrap the message anywhere between them.
        assert!(
            err.contains(expect) && err.contains("stopped"),
            "{args:?}: {err}"
        );
        assert!(err.contains("memory"), "{args:?}: {err}");
        assert!(
            stdout.is_empty(),
            "{args:?}: no verdict may be printed: {stdout}"
        );
    }
    let out = dir.path().join("min.aut");
    let (code, _, err) = muon(&[
        "ltsconvert",
        "--memory-limit",
        "1M",
        "-esim",
        s(&aut),
        s(&out),
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(
        err.contains("reduction") && err.contains("stopped"),
        "{err}"
    );
    assert_eq!(names(dir.path()), ["chain.aut"]);
}
