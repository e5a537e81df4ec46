//! Traces: `lps2lts -t` writes readable trace files (the initial state by parameter name, per
//! step the multi-action with its data and the parameters it changes), `muon tracepp` prints
//! them in every format and reads back its own trace and JSON forms and mCRL2's plain
//! format; malformed trace files get file/line/column errors. A property test round-trips
//! random traces through the trace file and JSON.

#[path = "cli_common/mod.rs"]
mod cli_common;
use cli_common::{muon, s};

use muon::lts::trace::{read, Trace, TraceFormat, TraceStep};
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// Data, lists and a multi-action with data; two deadlocks, one of them after `b|c`.
const SPEC: &str = "act a: Nat; b; c: Bool # Nat;\n\
proc P(n: Nat, q: List(Nat)) = (n < 2) -> a(n) . P(n + 1, n |> q)\n\
  + (n == 1) -> c(true, 3)|b . P(5, []);\n\
init P(0, []);\n";

/// The trace file to the action `c`.
const ACT_C: &str = "muon trace 1\nparameters: n, q\ntrace to action b|c(true, 3) (2 steps):\n  \
initial state: n = 0, q = []\n  \
1    a(0)           n: 0 → 1, q: [] → [0]\n  \
2    b|c(true, 3)   n: 1 → 5, q: [0] → []\n";

/// Linearises [`SPEC`] into `dir/m.lps` and runs `lps2lts -D -ac -t` on it.
fn traces(dir: &Path) -> PathBuf {
    let spec = dir.join("m.mcrl2");
    std::fs::write(&spec, SPEC).unwrap();
    let lps = dir.join("m.lps");
    assert_eq!(muon(&["mcrl22lps", s(&spec), s(&lps)]).0, 0);
    let (code, _, err) = muon(&["lps2lts", "-D", "-ac", "-t", s(&lps)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("trace written to"), "{err}");
    lps
}

#[test]
fn lps2lts_traces_show_states_by_name_under_mcrl2s_file_names() {
    let dir = tempfile::tempdir().unwrap();
    traces(dir.path());
    // mCRL2 keeps the input's extension in the name: `m.lps_act_0_c.trc`.
    let act = std::fs::read_to_string(dir.path().join("m.lps_act_0_c.trc")).unwrap();
    assert_eq!(act, ACT_C);
    let dlk = std::fs::read_to_string(dir.path().join("m.lps_dlk_0.trc")).unwrap();
    assert!(
        dlk.ends_with(
            "  1    a(0)   n: 0 → 1, q: [] → [0]\n  2    a(1)   n: 1 → 2, q: [0] → [1, 0]\n"
        ),
        "{dlk}"
    );
    assert!(dir.path().join("m.lps_dlk_1.trc").exists());
}

/// `muon tracepp ARGS`, which must succeed; its standard output.
fn tracepp(args: &[&str]) -> String {
    let mut argv = vec!["tracepp"];
    argv.extend_from_slice(args);
    let (code, out, err) = muon(&argv);
    assert_eq!(code, 0, "tracepp {args:?}: {err}");
    out
}

#[test]
fn tracepp_prints_every_format_and_reads_its_own_back() {
    let dir = tempfile::tempdir().unwrap();
    traces(dir.path());
    let act = dir.path().join("m.lps_act_0_c.trc");
    let a = s(&act);
    // Text (the default): the trace file without its header lines.
    let text = tracepp(&[a]);
    assert_eq!(text, ACT_C.split_once("parameters: n, q\n").unwrap().1);
    assert_eq!(tracepp(&["-f", "text", a]), text);
    // Its own trace format: the file, unchanged.
    assert_eq!(tracepp(&["--format=trace", a]), ACT_C);
    // JSON, read back to the same trace (the heading is the text's, not the trace's).
    let json_path = dir.path().join("t.json");
    tracepp(&["-f", "json", a, s(&json_path)]);
    let json = std::fs::read_to_string(&json_path).unwrap();
    assert!(json.contains("\"changed\""), "{json}");
    let back = tracepp(&["-f", "trace", s(&json_path)]);
    assert_eq!(back, ACT_C.replace("to action b|c(true, 3) ", ""));
    // mCRL2's plain and states formats: what mCRL2 202607.0's tracepp prints for mCRL2's own
    // trace file of this model (`tracepp`, `tracepp -fstates`).
    let plain = tracepp(&["-fplain", a]);
    assert_eq!(plain, "a(0)\nb|c(true, 3)\n");
    assert_eq!(
        tracepp(&["-fstates", a]),
        "(0,[]) -a(0)-> \n(1,[0]) -b|c(true, 3)-> \n(5,[])\n"
    );
    // Plain read back: the same actions, no states.
    let plain_path = dir.path().join("p.trc");
    std::fs::write(&plain_path, &plain).unwrap();
    assert_eq!(tracepp(&["-fplain", s(&plain_path)]), plain);
    // The path as an LTS, which muon's LTS tools read.
    let aut = dir.path().join("t.aut");
    tracepp(&["-f", "aut", a, s(&aut)]);
    assert_eq!(
        std::fs::read_to_string(&aut).unwrap(),
        "des (0,2,3)\n(0,\"a(0)\",1)\n(1,\"b|c(true, 3)\",2)\n"
    );
    let (code, info, _) = muon(&["ltsinfo", s(&aut)]);
    assert_eq!(code, 0);
    assert!(info.starts_with("Number of states: 3\n"), "{info}");
    // DOT: states as node labels, the initial one doubly framed.
    assert_eq!(
        tracepp(&["-f", "dot", a]),
        "digraph \"trace to action b|c(true, 3)\" {\n  node [shape=box];\n  \
         0 [label=\"n = 0, q = []\", peripheries=2];\n  1 [label=\"n = 1, q = [0]\"];\n  \
         2 [label=\"n = 5, q = []\"];\n  0 -> 1 [label=\"a(0)\"];\n  \
         1 -> 2 [label=\"b|c(true, 3)\"];\n}\n"
    );
    // `none` only reads.
    assert_eq!(tracepp(&["-f", "none", a]), "");
}

#[test]
fn tracepp_reads_mcrl2_plain_traces() {
    let dir = tempfile::tempdir().unwrap();
    // mCRL2's plain format: blank lines and trailing blanks are ignored, CRLF too.
    let p = dir.path().join("plain.trc");
    std::fs::write(&p, "a(0)\r\n\nb|c(true, 3)  \ntau\n").unwrap();
    assert_eq!(
        tracepp(&[s(&p)]),
        "trace (3 steps):\n  initial state: not recorded (the trace lists actions only)\n  \
         1    a(0)\n  2    b|c(true, 3)\n  3    tau\n"
    );
    assert_eq!(tracepp(&["-fplain", s(&p)]), "a(0)\nb|c(true, 3)\ntau\n");
    assert_eq!(
        tracepp(&["-fstates", s(&p)]),
        " -a(0)-> \n -b|c(true, 3)-> \n -tau-> \n\n"
    );
    // Read back from its trace form.
    let t = dir.path().join("t.trc");
    std::fs::write(&t, tracepp(&["-ftrace", s(&p)])).unwrap();
    assert_eq!(tracepp(&["-fplain", s(&t)]), "a(0)\nb|c(true, 3)\ntau\n");
}

/// Runs `tracepp` on `text` (written to a file), which must fail with exit 1 and an error
/// naming `at` (`file:line:column`) and containing `what`; no output file is written.
fn rejects(text: &[u8], at: &str, what: &str) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.trc");
    std::fs::write(&f, text).unwrap();
    let out = dir.path().join("out.txt");
    let (code, _, err) = muon(&["tracepp", s(&f), s(&out)]);
    assert_eq!(code, 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        err.contains(&format!("bad.trc{at}")),
        "expected `{at}` in: {err}"
    );
    // The message may be wrapped at the terminal's width.
    let flat = |t: &str| {
        t.split_whitespace()
            .filter(|w| *w != "│")
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(
        flat(&err).contains(&flat(what)),
        "expected `{what}` in: {err}"
    );
    assert!(!out.exists(), "a failed run writes no output");
}

#[test]
fn malformed_traces_get_file_line_column_errors() {
    // A changed value that does not follow from the state before.
    rejects(
        ACT_C.replace("n: 1 → 5", "n: 7 → 5").as_bytes(),
        ":6:26:",
        "`n` was `1` before this step, not `7`",
    );
    // Another version of the format.
    rejects(
        ACT_C.replace("trace 1", "trace 2").as_bytes(),
        ":1:1:",
        "`muon trace 2` is not a trace format this muon reads",
    );
    // Cut off: a step missing, and a line cut in the middle.
    let cut = &ACT_C[..ACT_C.rfind("  2 ").unwrap()];
    rejects(
        cut.as_bytes(),
        ":3:1:",
        "the heading says 2 steps but 1 follow",
    );
    let mid = &ACT_C[..ACT_C.len() - 8];
    rejects(mid.as_bytes(), ":6:36:", "expected `OLD → NEW` for `q`");
    // Steps out of order, a parameter that is not the trace's, a broken action.
    rejects(
        ACT_C.replace("  2    b|c", "  3    b|c").as_bytes(),
        ":6:3:",
        "expected step 2",
    );
    rejects(
        ACT_C.replace("q: [0] → []", "r: [0] → []").as_bytes(),
        ":6:31:",
        "with a parameter of the trace after `n`'s change",
    );
    rejects(
        ACT_C
            .replace("b|c(true, 3)   n", "b|c(true, 3   n")
            .as_bytes(),
        ":6:8:",
        "not a multi-action",
    );
    rejects(
        ACT_C.replace("n = 0, q = []", "n = 0; q = []").as_bytes(),
        ":4:",
        "expected `, q = VALUE`",
    );
    // The readable text without the file's header (an evidence `.txt`).
    let headless = ACT_C.split_once("parameters: n, q\n").unwrap().1;
    rejects(
        headless.as_bytes(),
        ":1:1:",
        "a readable trace without the trace file's header",
    );
    // A plain trace with a line that is no multi-action; JSON that is not a trace.
    rejects(b"a(0)\n  b(1\n", ":2:3:", "not a multi-action");
    rejects(
        b"{\"parameters\": [\"n\"], \"steps\": 3}",
        ":1:",
        "not a JSON trace",
    );
    // Not text at all.
    rejects(b"a\n\xff\xfe", ":2:1:", "not UTF-8 text");
}

#[test]
fn mcrl2s_binary_traces_say_how_to_convert_them() {
    let dir = tempfile::tempdir().unwrap();
    // mCRL2's binary trace is an mCRL2 `.lts` file, which starts with a zero byte.
    let f = dir.path().join("m.lps_dlk_0.trc");
    std::fs::write(&f, b"\x00\x8b\xaf\x83\x08\x06").unwrap();
    let (code, _, err) = muon(&["tracepp", s(&f)]);
    assert_eq!(code, 1);
    assert!(err.contains("mCRL2's binary trace format"), "{err}");
    assert!(err.contains("tracepp -fplain"), "{err}");
    // Writing it is refused in one line (exit 2), as every refused mCRL2 option.
    let (code, _, err) = muon(&["tracepp", "-fmcrl2", s(&f)]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("muon tracepp: -f mcrl2:"), "{err}");
}

/// Printed values as mCRL2 prints them, brackets and commas included.
fn value() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "0",
        "1",
        "true",
        "[]",
        "[1, 2]",
        "{3, 4}",
        "f(1, [2, 3])",
        "d1",
        "-1",
        "x |> []",
        "lambda x: Nat. x == 1",
    ])
    .prop_map(String::from)
}

fn action() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a",
        "tau",
        "b(1, [2, 3])|c",
        "c(true, 3)",
        "a'(f(1, 2))",
    ])
    .prop_map(String::from)
}

prop_compose! {
    fn arb_trace()(
        k in 0usize..4,
        with_states in any::<bool>(),
        n in 0usize..6,
    )(
        states in prop::collection::vec(prop::collection::vec(value(), k), n + 1),
        actions in prop::collection::vec(action(), n),
        sums in prop::collection::vec(prop::collection::btree_map("[uvw]", value(), 0..2), n),
        lasso in prop::option::of(0..n.max(1)),
        k in Just(k),
        with_states in Just(with_states),
    ) -> Trace {
        let params: Vec<String> = ["n", "q", "s'", "x_1"][..k].iter().map(|p| p.to_string()).collect();
        Trace {
            params: if with_states { params } else { Vec::new() },
            initial: with_states.then(|| states[0].clone()),
            steps: actions
                .iter()
                .enumerate()
                .map(|(i, a)| TraceStep {
                    action: a.clone(),
                    sums: if with_states { sums[i].clone().into_iter().collect() } else { Vec::new() },
                    state: with_states.then(|| states[i + 1].clone()),
                })
                .collect(),
            loop_start: lasso.filter(|&l| l < actions.len()),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    /// A trace written as muon's trace file or as JSON reads back as the same trace.
    #[test]
    fn traces_round_trip_through_file_and_json(t in arb_trace()) {
        for format in [TraceFormat::File, TraceFormat::Json] {
            let text = t.render(format, "trace to somewhere");
            let (back, _) = read(text.as_bytes(), "t.trc")
                .unwrap_or_else(|e| panic!("{format:?} does not read back: {e}\n{text}"));
            prop_assert_eq!(&back, &t, "{:?}:\n{}", format, text);
        }
        // The plain form keeps the actions.
        let (plain, _) = read(t.render(TraceFormat::Plain, "").as_bytes(), "p.trc").unwrap();
        let actions: Vec<&str> = plain.steps.iter().map(|s| s.action.as_str()).collect();
        let want: Vec<&str> = t.steps.iter().map(|s| s.action.as_str()).collect();
        prop_assert_eq!(actions, want);
    }
}

/// The model: `[c . true*][b]false` is false, by the counterexample `c`, `b`.
const EVIDENCE_SPEC: &str =
    "act a, b, c;\nproc P(n: Nat) = (n == 0) -> (a . P(1) + c . P(1)) + (n == 1) -> b . P(1);\ninit P(0);\n";

/// Runs `muon check --engine pbes SPEC -f F --evidence-dir EV` (the PBES route's evidence,
/// whose trace takes the violating step too): (exit code, stdout, stderr).
fn check_into_evidence_dir(spec: &Path, f: &Path, ev: &Path) -> (i32, String, String) {
    muon(&[
        "check",
        "--engine",
        "pbes",
        s(spec),
        "-f",
        s(f),
        "--evidence-dir",
        s(ev),
    ])
}

#[test]
fn tracepp_reads_checks_json_evidence() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("e.mcrl2");
    std::fs::write(&spec, EVIDENCE_SPEC).unwrap();
    let f = dir.path().join("f.mcf");
    std::fs::write(&f, "[c . true*][b]false\n").unwrap();
    let ev = dir.path().join("ev");
    // The PBES route's evidence, whose trace takes the violating step too.
    let (code, out, err) = check_into_evidence_dir(&spec, &f, &ev);
    assert_eq!(code, 1, "{out}{err}");
    // The same steps as `check` printed, from the evidence's JSON.
    let body = "  initial state: n = 0\n  1    c   n: 0 → 1\n  2    b   (no parameter changes)\n";
    assert!(out.contains(body), "{out}");
    assert_eq!(
        tracepp(&[s(&ev.join("f.json"))]),
        format!("trace (2 steps):\n{body}")
    );
}

/// An infinite state space with a deadlock and an action `b` every fourth step.
const INFINITE: &str = "act a, b: Nat;\n\
proc P(n: Nat) = (n mod 4 == 3) -> (b(n) . delta + a(n) . P(n + 1)) <> a(n) . P(n + 1);\n\
init P(0);\n";

/// `lps2lts -t NUM` stops once NUM traces of one kind are written, and `--max N` once the
/// state that finds the N-th state is complete, as mCRL2 202607.0 does: the `.aut` headers
/// are mCRL2's on the same specification (its `lps2lts` run beside muon).
#[test]
fn trace_count_and_state_bound_stop_where_mcrl2_stops() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("m.mcrl2");
    std::fs::write(&spec, INFINITE).unwrap();
    let lps = dir.path().join("m.lps");
    assert_eq!(muon(&["mcrl22lps", s(&spec), s(&lps)]).0, 0);
    let aut = dir.path().join("m.aut");
    for (args, header, files) in [
        (&["-D", "--trace=1"][..], "des (0,5,6)", 1),
        (&["-ab", "--trace=2"][..], "des (0,10,10)", 2),
        (&["-ab", "-D", "--trace=3"][..], "des (0,15,14)", 4),
        (&["--max", "6"][..], "des (0,5,6)", 0),
    ] {
        for p in trc_files(dir.path()) {
            std::fs::remove_file(p).unwrap();
        }
        let mut argv = vec!["lps2lts", "-q", s(&lps), s(&aut)];
        argv.extend_from_slice(args);
        let (code, _, err) = muon(&argv);
        assert_eq!(code, 0, "{args:?}: {err}");
        let got = std::fs::read_to_string(&aut).unwrap();
        assert_eq!(got.lines().next().unwrap(), header, "{args:?}");
        assert_eq!(trc_files(dir.path()).len(), files, "{args:?}");
    }
    // Without -q the stop is reported.
    let (code, _, err) = muon(&["lps2lts", s(&lps), s(&aut), "-D", "--trace=1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("stopped after 1 trace of one kind (--trace=1"),
        "{err}"
    );
}

/// The trace files (`.trc`) in `dir`.
fn trc_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|f| f.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trc"))
        .collect()
}

#[test]
fn tracepp_reads_checks_txt_evidence_when_it_is_one_trace_or_lasso() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("e.mcrl2");
    std::fs::write(&spec, EVIDENCE_SPEC).unwrap();
    let ev = dir.path().join("ev");
    // A finite counterexample, a lasso (no path ends) and a witness that branches.
    let formulas = [
        ("trace.mcf", "[c . true*][b]false\n"),
        ("lasso.mcf", "mu X. [true]X\n"),
        ("branching.mcf", "[true*]<true>true\n"),
    ];
    for (name, text) in formulas {
        let f = dir.path().join(name);
        std::fs::write(&f, text).unwrap();
        let (code, out, err) = check_into_evidence_dir(&spec, &f, &ev);
        assert!(code <= 1, "{name}: {out}{err}");
    }
    let txt = |stem: &str| std::fs::read_to_string(ev.join(format!("{stem}.txt"))).unwrap();
    // The trace: a trace file as `lps2lts -t` writes them, read back as it is written.
    let body = "  initial state: n = 0\n  1    c   n: 0 → 1\n  2    b   (no parameter changes)\n";
    let trace = txt("trace");
    assert_eq!(
        trace,
        format!("muon trace 1\nparameters: n\ncounterexample (2 steps):\n{body}")
    );
    let path = ev.join("trace.txt");
    assert_eq!(tracepp(&["-f", "trace", s(&path)]), trace);
    assert_eq!(
        tracepp(&[s(&path)]),
        format!("counterexample (2 steps):\n{body}")
    );
    // The lasso keeps its cycle through tracepp.
    let path = ev.join("lasso.txt");
    let lasso = txt("lasso");
    assert!(
        lasso.starts_with("muon trace 1\nparameters: n\n"),
        "{lasso}"
    );
    assert!(lasso.contains("a lasso"), "{lasso}");
    assert_eq!(tracepp(&["-f", "trace", s(&path)]), lasso);
    let json: serde_json::Value =
        serde_json::from_str(&tracepp(&["-f", "json", s(&path)])).unwrap();
    assert!(json["loop_start"].is_u64(), "{json}");
    // Evidence that branches is not one trace: its text lists the other branches, and
    // tracepp points to the JSON trace beside it.
    let branching = txt("branching");
    assert!(!branching.starts_with("muon trace"), "{branching}");
    assert!(branching.contains("the evidence branches"), "{branching}");
    let (code, _, err) = muon(&["tracepp", s(&ev.join("branching.txt"))]);
    assert_eq!(code, 1);
    assert!(err.contains("JSON trace"), "{err}");
}
