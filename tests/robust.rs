//! Robustness under bad input and big work, through the binary: deep nesting that mCRL2
//! accepts is accepted, diagnostics in huge lines stay short, and the run's budget
//! (`--memory-limit`, `--timeout`, Ctrl-C) ends a run cleanly: partial statistics, exit
//! status 3, no output file (complete or partial) left behind.

#[path = "cli_common/mod.rs"]
mod cli_common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use cli_common::{muon, s};

const DEPTH: usize = 20_000;

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn twenty_thousand_nested_brackets_parse_and_linearise() {
    let dir = tempfile::tempdir().unwrap();
    let spec = format!(
        "map f: Nat -> Nat;\neqn f(0) = {}1{};\nact a: Nat;\ninit a(f(0));\n",
        "(".repeat(DEPTH),
        ")".repeat(DEPTH)
    );
    let p = write(dir.path(), "deep.mcrl2", &spec);
    let (code, _, err) = muon(&["parse", s(&p)]);
    assert_eq!(code, 0, "{err}");
    let lps = dir.path().join("deep.lps");
    let (code, _, err) = muon(&["mcrl22lps", s(&p), s(&lps)]);
    assert_eq!(code, 0, "{err}");
    assert!(lps.exists());
}

#[test]
fn twenty_thousand_nested_process_brackets_parse_and_linearise() {
    // Each `(` of a process may begin a condition `(c) -> p`; trying one at every level
    // made this quadratic (minutes), which `syntax::parser::parens` prevents.
    let dir = tempfile::tempdir().unwrap();
    let spec = format!(
        "act a;\ninit {}a . a{};\n",
        "(".repeat(DEPTH),
        ")".repeat(DEPTH)
    );
    let p = write(dir.path(), "deep.mcrl2", &spec);
    let (lps, aut) = (dir.path().join("deep.lps"), dir.path().join("deep.aut"));
    let (code, _, err) = muon(&["mcrl22lps", s(&p), s(&lps)]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = muon(&["lps2lts", s(&lps), s(&aut)]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&aut).unwrap();
    assert!(text.starts_with("des (0,3,4)"), "{text}");
}

#[test]
fn bracketed_conditions_keep_their_meaning() {
    // Brackets that do begin a condition, nested brackets inside one, argument groups
    // between the bracket and `->`, and a bracket inside a comment.
    let dir = tempfile::tempdir().unwrap();
    let spec = "map f: Nat -> Nat -> Bool;\nvar n, m: Nat;\neqn f(n)(m) = n < m;\n\
                act a, b;\n\
                proc P(n: Nat) = ((n > 0)) -> (a . P(Int2Nat(n - 1))) <> ((b . delta))\n\
                + (f)(n)(2) -> (b . delta) % ( unbalanced in a comment\n\
                + (((n == 1))) % comment between\n -> a . delta;\n\
                init ((P(2)));\n";
    let p = write(dir.path(), "cond.mcrl2", spec);
    let (lps, aut) = (dir.path().join("cond.lps"), dir.path().join("cond.aut"));
    let (code, _, err) = muon(&["mcrl22lps", s(&p), s(&lps)]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = muon(&["lps2lts", s(&lps), s(&aut)]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&aut).unwrap();
    // mCRL2 202607.0 gives 4 states and 6 transitions, three of them `b` into the deadlock.
    assert!(text.starts_with("des (0,6,4)"), "{text}");
    assert_eq!(text.matches("\"b\"").count(), 3, "{text}");
    // The marker byte of the pre-pass is refused where it stands, not taken for `(`.
    let bad = write(dir.path(), "bad.mcrl2", "act a;\ninit \u{1}a);\n");
    let (code, _, err) = muon(&["parse", s(&bad)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("bad.mcrl2:2:6") && err.contains("U+0001"),
        "{err}"
    );
}

#[test]
fn long_chains_and_lists_parse() {
    let dir = tempfile::tempdir().unwrap();
    let list: Vec<String> = (0..DEPTH).map(|i| i.to_string()).collect();
    let cases = [
        (
            "list",
            format!("act a: List(Nat);\ninit a([{}]);\n", list.join(", ")),
        ),
        (
            "choice",
            format!(
                "act a;\ninit {};\n",
                std::iter::repeat_n("a", DEPTH)
                    .collect::<Vec<_>>()
                    .join(" + ")
            ),
        ),
        (
            "sequence",
            format!(
                "act a;\ninit {};\n",
                std::iter::repeat_n("a", DEPTH)
                    .collect::<Vec<_>>()
                    .join(" . ")
            ),
        ),
    ];
    for (name, text) in cases {
        let p = write(dir.path(), &format!("{name}.mcrl2"), &text);
        let (code, _, err) = muon(&["parse", s(&p)]);
        assert_eq!(code, 0, "{name}: {err}");
    }
}

#[test]
fn an_error_in_a_huge_line_shows_a_window_not_the_line() {
    let dir = tempfile::tempdir().unwrap();
    // One closing bracket short, on a 40,000-character line.
    let spec = format!(
        "map f: Nat -> Nat;\neqn f(0) = {}1{};\nact a;\ninit a;\n",
        "(".repeat(DEPTH),
        ")".repeat(DEPTH - 1)
    );
    let p = write(dir.path(), "bad.mcrl2", &spec);
    let (code, _, err) = muon(&["parse", s(&p)]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(&format!("bad.mcrl2:2:{}", 2 * DEPTH + 12)),
        "{err}"
    );
    assert!(err.len() < 2_000, "the diagnostic has {} bytes", err.len());
}

/// A model whose state space grows without bound and whose states grow too (lists), so
/// that memory fills quickly.
const RUNAWAY: &str = "act a: Nat;\n\
    proc P(l: List(Nat)) = sum i: Nat . (i < 3) -> a(i) . P(i |> l);\n\
    init P([]);\n";

fn runaway_lps(dir: &Path) -> std::path::PathBuf {
    let spec = write(dir, "runaway.mcrl2", RUNAWAY);
    let lps = dir.join("runaway.lps");
    let (code, _, err) = muon(&["mcrl22lps", s(&spec), s(&lps)]);
    assert_eq!(code, 0, "{err}");
    lps
}

/// The files of `dir` other than the given ones (no output, no temporary file).
fn others(dir: &Path, keep: &[&str]) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !keep.contains(&n.as_str()))
        .collect()
}

#[test]
fn memory_limit_stops_exploration_with_statistics_and_exit_3() {
    let dir = tempfile::tempdir().unwrap();
    let lps = runaway_lps(dir.path());
    let out = dir.path().join("out.aut");
    let (code, _, err) = muon(&["lps2lts", "--memory-limit", "48M", s(&lps), s(&out)]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("memory limit"), "{err}");
    assert!(err.contains("states found"), "{err}");
    assert!(err.contains("--memory-limit"), "{err}");
    assert!(!out.exists());
    assert_eq!(
        others(dir.path(), &["runaway.mcrl2", "runaway.lps"]),
        Vec::<String>::new()
    );
}

/// The statistics of a stopped run are whole (they say how far it got), so `--stats-json`
/// is written after a stop, marked incomplete with the reason; the LTS output is not.
#[test]
fn stopped_exploration_still_writes_its_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let lps = runaway_lps(dir.path());
    let out = dir.path().join("out.aut");
    let stats = dir.path().join("stats.json");
    let (code, _, err) = muon(&[
        "lps2lts",
        "--timeout",
        "1",
        "--stats-json",
        s(&stats),
        s(&lps),
        s(&out),
    ]);
    assert_eq!(code, 3, "{err}");
    assert!(!out.exists());
    let json = std::fs::read_to_string(&stats).expect("statistics written");
    assert!(json.contains("\"complete\": false"), "{json}");
    assert!(
        json.contains("\"stopped_by\": \"the time limit of 1 s passed\""),
        "{json}"
    );
}

#[test]
fn partial_output_is_written_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let lps = runaway_lps(dir.path());
    let out = dir.path().join("part.aut");
    let (code, _, err) = muon(&["lps2lts", "--timeout", "1", "--partial", s(&lps), s(&out)]);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("time limit"), "{err}");
    let aut = std::fs::read_to_string(&out).unwrap();
    let lts = muon::lts::aut::parse_aut(&aut, "part.aut").unwrap();
    assert!(lts.num_states > 1);
}

#[test]
fn bad_limits_are_usage_errors() {
    for args in [
        ["--memory-limit", "lots", "parse", "x.mcrl2"],
        ["--timeout", "0", "parse", "x.mcrl2"],
    ] {
        let (code, _, err) = muon(&args);
        assert_eq!(code, 2, "{err}");
    }
}

#[test]
fn ctrl_c_leaves_no_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let lps = runaway_lps(dir.path());
    let out = dir.path().join("out.aut");
    let child = Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(["lps2lts", s(&lps), s(&out)])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let result = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&result.stderr);
    assert_eq!(result.status.code(), Some(3), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    assert!(err.contains("states found"), "{err}");
    assert!(!out.exists());
    assert_eq!(
        others(dir.path(), &["runaway.mcrl2", "runaway.lps"]),
        Vec::<String>::new()
    );
}

/// A pipe whose reading end is already closed: every write to it fails with EPIPE.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    writer
}

#[test]
fn closed_pipes_end_the_run_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let spec = write(dir.path(), "m.mcrl2", "act a, b;\ninit a . b . delta;\n");
    let bad = write(dir.path(), "bad.mcf", "[true*] <c> true\n");
    let good = write(dir.path(), "good.mcf", "[true*] <true> true\n");
    let run = |formula: &Path, stdout: Stdio, stderr: Stdio| {
        Command::new(env!("CARGO_BIN_EXE_muon"))
            .args(["check", s(&spec), "-f", s(formula)])
            .stdin(Stdio::null())
            .stdout(stdout)
            .stderr(stderr)
            .status()
            .expect("the muon binary runs")
    };
    // Standard error closed (`muon … 2>&1 | head -1`): the diagnostic is lost, the status
    // is still the error's (2), not a panic's (101).
    let status = run(&bad, Stdio::null(), closed_pipe().into());
    assert_eq!(status.code(), Some(2), "{status:?}");
    // Standard output closed while the verdict and the trace are printed: the run ends
    // quietly with 141, the status a shell shows for a tool ended by SIGPIPE.
    let status = run(&good, closed_pipe().into(), Stdio::null());
    assert_eq!(status.code(), Some(141), "{status:?}");
}
