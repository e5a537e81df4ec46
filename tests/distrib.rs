//! `lps2lts --workers/--processes`: the distributed exploration on timely dataflow gives the
//! one-process search's results — the same `.aut` file byte for byte, the same counts under
//! `--max`, the same deadlocks and detected actions, the same trace files (`-t`, and
//! `-tN`'s stop after N of a kind) — for 1, 2 and 3 processes of 1 or 2
//! workers on loopback; a lost process, a wrong command line and a process that never
//! comes end with a clear error, never a hang or an output file.

#[path = "cli_common/mod.rs"]
mod cli_common;
use cli_common::{linearise_text, muon, s, wait_limited};

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `n` loopback addresses with ports that were free a moment ago, as a hosts file.
fn hosts_file(dir: &Path, n: usize) -> PathBuf {
    let listeners: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let lines: Vec<String> = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}", l.local_addr().unwrap().port()))
        .collect();
    let path = dir.join(format!("hosts{n}"));
    std::fs::write(&path, format!("# test cluster\n{}\n", lines.join("\n"))).unwrap();
    path
}

fn spawn(args: &[String]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` at most `limit`; kills it and fails the test when it hangs.
fn finish(child: Child, limit: Duration, what: &str) -> Output {
    wait_limited(child, limit).unwrap_or_else(|out| {
        panic!(
            "{what} hung for {limit:?}; stderr:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Runs `lps2lts` with `args` on `processes` processes of `workers` workers each;
/// returns process 0's exit code and standard error, after checking the others succeed
/// and write nothing.
fn cluster_run(dir: &Path, processes: usize, workers: usize, args: &[&str]) -> (i32, String) {
    let lead = cluster_exec(dir, processes, workers, "lps2lts", args, "");
    (
        lead.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&lead.stderr).into_owned(),
    )
}

/// Runs `muon tool args` on `processes` processes of `workers` workers each; returns
/// process 0's output after checking that the others end with the same status and print
/// nothing on standard output (nor on standard error when `quiet_err`, which says why, is
/// not empty).
fn cluster_exec(
    dir: &Path,
    processes: usize,
    workers: usize,
    tool: &str,
    args: &[&str],
    quiet_err: &str,
) -> Output {
    let hosts = hosts_file(dir, processes);
    let children: Vec<Child> = (0..processes)
        .map(|p| {
            let mut a: Vec<String> = vec![tool.into()];
            a.extend(args.iter().map(|x| x.to_string()));
            a.extend([
                "--workers".into(),
                workers.to_string(),
                "--processes".into(),
                processes.to_string(),
                "--process".into(),
                p.to_string(),
                "--hosts".into(),
                s(&hosts).into(),
            ]);
            spawn(&a)
        })
        .collect();
    let mut outs: Vec<Output> = children
        .into_iter()
        .enumerate()
        .map(|(p, c)| finish(c, Duration::from_secs(120), &format!("process {p}")))
        .collect();
    let lead = outs.remove(0);
    for (p, o) in outs.iter().enumerate() {
        let err = String::from_utf8_lossy(&o.stderr);
        let want = if tool == "lps2lts" {
            Some(0)
        } else {
            lead.status.code()
        };
        assert_eq!(o.status.code(), want, "process {}: {err}", p + 1);
        assert!(
            o.stdout.is_empty(),
            "process {} printed {:?}",
            p + 1,
            o.stdout
        );
        if !quiet_err.is_empty() {
            assert!(err.is_empty(), "process {}, {quiet_err}: {err}", p + 1);
        }
    }
    lead
}

/// The messages of a run without its progress lines and timely's connection chatter.
fn messages(err: &str) -> Vec<String> {
    err.lines()
        .filter(|l| l.starts_with("lps2lts:") || l.contains("-detect:"))
        .map(str::to_string)
        .collect()
}

/// A random process whose states hold structured values (lists, a structured sort, large
/// and negative numbers), so that values of every shape travel between processes.
fn random_spec() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let summand = (0u8..6, 1u32..5, 0u32..6).prop_map(|(kind, d, e)| match kind {
        0 => format!("(#q < {e}) -> put(n) . P(q = q <| n, n = (n + {d}) mod 7)"),
        1 => "(q != []) -> get(head(q)) . P(q = tail(q))".to_string(),
        2 => format!("sum k: Nat . (k < {d}) -> tag(k) . P(c = if(c == red, blue(k), red))"),
        3 => format!(
            "(n > {e} && z > -3000000000000) -> tau . P(z = z - {d} * 1000000000000, n = 0)"
        ),
        4 => "is_blue(c) -> tag(shade(c)) | put(n) . P(c = red)".to_string(),
        _ => format!("(z < 0) -> done . P(z = {e})"),
    });
    prop::collection::vec(summand, 1..6).prop_map(|ss| {
        format!(
            "sort Col = struct red | blue(shade: Nat)?is_blue;\n\
             act put, get, tag: Nat; done;\n\
             proc P(q: List(Nat), n: Nat, c: Col, z: Int) =\n    {};\n\
             init P([], 0, red, 0);\n",
            ss.join("\n  + ")
        )
    })
}

/// The trace files next to `lps` (name and contents), sorted, and the messages of `err`
/// with the folder of `lps` left out.
fn traces(lps: &Path, err: &str) -> (Vec<(String, String)>, Vec<String>) {
    let dir = lps.parent().unwrap();
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "trc"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    let folder = format!("{}/", dir.display());
    let said = messages(err)
        .into_iter()
        .map(|l| l.replace(&folder, ""))
        .collect();
    (files, said)
}

/// A copy of `lps` in its own new folder `name` beside it (trace files go next to the LPS).
fn copy_to(lps: &Path, name: &str) -> PathBuf {
    let dir = lps.parent().unwrap().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let to = dir.join(lps.file_name().unwrap());
    std::fs::copy(lps, &to).unwrap();
    to
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(8))]

    /// Random specifications: 1 process of 2 workers, 2 of 1 and 3 of 2 give the
    /// one-process `.aut` file byte for byte, the same deadlocks, detected actions and
    /// counts under a state bound, and the same trace files.
    #[test]
    fn clusters_explore_as_one_process(src in random_spec()) {
        let dir = tempfile::tempdir().unwrap();
        let lps = linearise_text(dir.path(), "m", &src);
        let reference = dir.path().join("ref.aut");
        let (code, _, err) = muon(&["lps2lts", "--threads", "1", s(&lps), s(&reference)]);
        proptest::prop_assert_eq!(code, 0, "{}", err);
        let want = std::fs::read(&reference).unwrap();
        let (_, _, one_max) = muon(&["lps2lts", "--max", "7", "--threads", "1", s(&lps)]);
        let (_, _, one_d) = muon(&["lps2lts", "-D", "-a", "get,done", "--threads", "1", s(&lps)]);
        // Every trace, and the first two of a kind (where the search stops, as mCRL2's).
        let mut one_t = Vec::new();
        for (k, t) in ["-t", "-t2"].iter().enumerate() {
            let at = copy_to(&lps, &format!("one{k}"));
            let (code, _, err) = muon(&["lps2lts", "-D", "-a", "get,done", t, "--threads", "1", s(&at)]);
            proptest::prop_assert_eq!(code, 0, "{}", err);
            one_t.push(traces(&at, &err));
        }
        for (p, w) in [(1, 2), (2, 1), (3, 2)] {
            let out = dir.path().join(format!("p{p}w{w}.aut"));
            let (code, err) = cluster_run(dir.path(), p, w, &[s(&lps), s(&out)]);
            proptest::prop_assert_eq!(code, 0, "{}", err);
            let got = std::fs::read(&out).unwrap();
            proptest::prop_assert!(got == want, "{} processes of {} workers: the .aut differs\n{}", p, w, src);
            let (code, err) = cluster_run(dir.path(), p, w, &["-D", "-a", "get,done", s(&lps)]);
            proptest::prop_assert_eq!(code, 0, "{}", err);
            proptest::prop_assert_eq!(messages(&err), messages(&one_d), "{} x {}: -D -a\n{}", p, w, src);
            let (code, err) = cluster_run(dir.path(), p, w, &["--max", "7", s(&lps)]);
            proptest::prop_assert_eq!(code, 0, "{}", err);
            proptest::prop_assert_eq!(messages(&err), messages(&one_max), "{} x {}: --max\n{}", p, w, src);
            for (k, t) in ["-t", "-t2"].iter().enumerate() {
                let at = copy_to(&lps, &format!("p{p}w{w}t{k}"));
                let (code, err) = cluster_run(dir.path(), p, w, &["-D", "-a", "get,done", t, s(&at)]);
                proptest::prop_assert_eq!(code, 0, "{}", err);
                let got = traces(&at, &err);
                proptest::prop_assert!(got == one_t[k], "{} x {}: {} gives other traces\n{:?}\n{:?}\n{}", p, w, t, got, one_t[k], src);
            }
        }
    }
}

/// A model with a few hundred thousand states: long enough to stop a process in the middle.
const LONG: &str = "act a, b: Nat;\n\
    proc P(x: Nat, y: Nat) = (x < 1500) -> a(x) . P(x = x + 1) + (y < 1500) -> b(y) . P(y = y + 1);\n\
    init P(0, 0);\n";

/// The A.1 seed model on one process and on three of two workers: the same `.aut`, and the
/// same summary line without an output.
#[test]
fn seed_model_on_three_processes() {
    let dir = tempfile::tempdir().unwrap();
    let lps = dir.path().join("a1.lps");
    let spec = Path::new(env!("CARGO_MANIFEST_DIR")).join("lps/A1_binary_heartbeat.mcrl2");
    let (code, _, err) = muon(&["mcrl22lps", s(&spec), s(&lps)]);
    assert_eq!(code, 0, "{err}");
    let reference = dir.path().join("ref.aut");
    let (code, _, one) = muon(&["lps2lts", s(&lps), s(&reference)]);
    assert_eq!(code, 0, "{one}");
    let out = dir.path().join("p3.aut");
    let (code, err) = cluster_run(dir.path(), 3, 2, &[s(&lps), s(&out)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&reference).unwrap()
    );
    let (_, _, one) = muon(&["lps2lts", s(&lps)]);
    let (code, err) = cluster_run(dir.path(), 3, 2, &[s(&lps)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(messages(&err), messages(&one));
    assert!(messages(&one)[0].contains("24484 states"), "{one}");
}

/// Traces to deadlocks and to detected actions on two processes of two workers: the
/// one-process trace files, one per report, paths of up to four steps, including a detected
/// action whose target lies off the path to its source.
#[test]
fn traces_on_two_processes() {
    let dir = tempfile::tempdir().unwrap();
    let lps = linearise_text(
        dir.path(),
        "t",
        "sort D = struct d1 | d2 | d3;\n\
         act a, b: D; c;\n\
         proc P(n: Nat, d: D) = (n < 6) -> (sum e: D . a(e) . P(n + 1, e) + b(d) . P(n + 2, d))\n\
             + (n == 3) -> c . P(n, d1);\n\
         init P(0, d1);\n",
    );
    let one = copy_to(&lps, "one");
    let (code, _, err) = muon(&["lps2lts", "-D", "-a", "c", "-t", s(&one)]);
    assert_eq!(code, 0, "{err}");
    let want = traces(&one, &err);
    assert_eq!(want.0.len(), 9, "{err}");
    assert!(
        want.0.iter().any(|(_, t)| t.contains("(4 steps)")),
        "{want:?}"
    );
    let two = copy_to(&lps, "two");
    let (code, err) = cluster_run(dir.path(), 2, 2, &["-D", "-a", "c", "-t", s(&two)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(traces(&two, &err), want);
}

/// A random specification's process and some regular safety formulas over its actions:
/// true and false ones, with and without the automaton's class word, data in the labels.
const FORMULAS: [&str; 6] = [
    "[true*.get(0)]false",
    "[true*]<true>true",
    "[true*.put(1).!put(2)*.tag(0)]false",
    "[true*](forall k: Nat . [tag(k)] val(k < 3))",
    "[true*.done]false",
    "[true*.tag(1).tag(1)]false",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4))]

    /// `check --engine explore` on 2 processes of 1 worker and 1 of 2: process 0 prints
    /// what one process prints (verdict, counterexample, counts under -v), every process
    /// exits with its status, and the others print nothing.
    #[test]
    fn clusters_check_as_one_process(src in random_spec()) {
        let dir = tempfile::tempdir().unwrap();
        let lps = linearise_text(dir.path(), "m", &src);
        for (k, f) in FORMULAS.iter().enumerate() {
            let mcf = dir.path().join(format!("f{k}.mcf"));
            std::fs::write(&mcf, f).unwrap();
            let args = ["--engine", "explore", s(&lps), "-f", s(&mcf)];
            let (code, out, err) = muon(&[&["check"][..], &args].concat());
            let (_, _, verbose) = muon(&[&["check", "-v", "--threads", "1"][..], &args].concat());
            // The counts of the verbose lines, not their times.
            let counts = |e: &str| {
                e.lines()
                    .filter(|l| l.contains("explored"))
                    .map(|l| l.split(" in ").next().unwrap_or(l).to_string())
                    .collect::<Vec<_>>()
            };
            for (p, w) in [(2, 1), (1, 2)] {
                let o = cluster_exec(dir.path(), p, w, "check", &args, "quiet");
                proptest::prop_assert_eq!(o.status.code(), Some(code), "{} x {}: {}\n{}", p, w, f, err);
                proptest::prop_assert_eq!(String::from_utf8_lossy(&o.stdout), out.as_str(), "{} x {}: {}\n{}", p, w, f, src);
                let mut v_args = vec!["-v"];
                v_args.extend_from_slice(&args);
                let o = cluster_exec(dir.path(), p, w, "check", &v_args, "");
                let got = counts(&String::from_utf8_lossy(&o.stderr));
                proptest::prop_assert_eq!(got, counts(&verbose), "{} x {}: {} under -v\n{}", p, w, f, src);
            }
        }
    }
}

/// `scripts/cluster --tool check` as the README shows it: process 0's lines are one
/// process's output, and the script exits with the verdict's status.
#[test]
fn the_cluster_script_checks_as_one_process() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = root.join("lps/A1_binary_heartbeat.mcrl2");
    let mcf = root.join("formulas/heartbeat_R1_no_error.mcf");
    let args = [s(&spec), "-f", s(&mcf), "--engine", "explore"];
    let (code, want, err) = muon(&[&["check"][..], &args].concat());
    assert_eq!(code, 1, "{err}");
    assert!(want.contains("counterexample (26 steps"), "{want}");
    let o = Command::new(root.join("scripts/cluster"))
        .args(["-P", "2", "--tool", "check", "--"])
        .args(args)
        .env("MUON", env!("CARGO_BIN_EXE_muon"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(String::from_utf8_lossy(&o.stdout), want, "{err}");
    assert!(err.contains("2 processes x 1 worker"), "{err}");
}

/// A process killed in the middle: the other ends with an error that says so, within
/// seconds, and writes no output file.
#[test]
fn a_killed_process_stops_the_others() {
    let dir = tempfile::tempdir().unwrap();
    let lps = linearise_text(dir.path(), "long", LONG);
    let hosts = hosts_file(dir.path(), 2);
    let out = dir.path().join("out.aut");
    let args = |p: usize| -> Vec<String> {
        [
            "lps2lts",
            s(&lps),
            s(&out),
            "--processes",
            "2",
            "--process",
            &p.to_string(),
            "--hosts",
            s(&hosts),
        ]
        .iter()
        .map(|x| x.to_string())
        .collect()
    };
    let lead = spawn(&args(0));
    let mut other = spawn(&args(1));
    std::thread::sleep(Duration::from_millis(2500));
    other.kill().unwrap();
    let _ = other.wait();
    let o = finish(
        lead,
        Duration::from_secs(60),
        "process 0 after its peer was killed",
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("connection to another process was lost"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert!(!out.exists(), "no output after a failed run");
}

/// A process whose peers never come gives up after --connect-timeout.
#[test]
fn a_missing_process_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let lps = linearise_text(dir.path(), "long", LONG);
    let hosts = hosts_file(dir.path(), 2);
    let child = spawn(
        &[
            "lps2lts",
            s(&lps),
            "--processes",
            "2",
            "--process",
            "0",
            "--hosts",
            s(&hosts),
            "--connect-timeout",
            "2",
        ]
        .map(String::from),
    );
    let start = Instant::now();
    let o = finish(child, Duration::from_secs(30), "a process without peers");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("could not connect"), "{err}");
    assert!(start.elapsed() < Duration::from_secs(10), "{err}");
    assert!(o.stdout.is_empty(), "{:?}", o.stdout);
}

/// Processes given different specifications refuse to explore.
#[test]
fn processes_on_different_inputs_refuse() {
    let dir = tempfile::tempdir().unwrap();
    let a = linearise_text(dir.path(), "a", LONG);
    let b = linearise_text(
        dir.path(),
        "b",
        "act c: Bool;\nproc Q(f: Bool) = c(f) . Q(!f);\ninit Q(true);\n",
    );
    let hosts = hosts_file(dir.path(), 2);
    let run = |lps: &Path, p: &str| {
        spawn(
            &[
                "lps2lts",
                s(lps),
                "--processes",
                "2",
                "--process",
                p,
                "--hosts",
                s(&hosts),
            ]
            .map(String::from),
        )
    };
    let (c0, c1) = (run(&a, "0"), run(&b, "1"));
    for (p, c) in [c0, c1].into_iter().enumerate() {
        let o = finish(c, Duration::from_secs(60), &format!("process {p}"));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_ne!(o.status.code(), Some(0), "{err}");
        assert!(
            err.contains("did not build the same specification"),
            "process {p}: {err}"
        );
    }
}

/// Wrong command lines: clear errors before anything runs.
#[test]
fn bad_cluster_options_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let lps = linearise_text(dir.path(), "long", LONG);
    let bad_hosts = dir.path().join("bad");
    std::fs::write(&bad_hosts, "127.0.0.1:2101\nnot an address\n").unwrap();
    let two = hosts_file(dir.path(), 2);
    let fsm = dir.path().join("x.fsm");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--process", "1"], "--process needs --processes"),
        (
            vec!["--workers", "2", "--threads", "2"],
            "--threads is the one-process search",
        ),
        (
            vec!["--workers", "0"],
            "--workers must be between 1 and 1024",
        ),
        (
            vec!["--workers", "2", "--strategy", "dfs"],
            "breadth-first only",
        ),
        (
            vec!["--workers", "2", s(&fsm)],
            "does not gather the state values",
        ),
        (
            vec!["--hosts", s(&bad_hosts), "--process", "0"],
            "bad:2:1: `not an address` is not `host:port`",
        ),
        (
            vec!["--processes", "3", "--hosts", s(&two), "--process", "0"],
            "--processes 3 but the hosts file names 2 processes",
        ),
        (vec!["--hosts", s(&two)], "needs --process I on each"),
        (
            vec!["--hosts", s(&two), "--process", "2"],
            "--process 2 is not below the 2 processes",
        ),
        (
            vec!["--hosts", s(&two), "--process", "0", "-"],
            "cannot write the LTS to standard output",
        ),
    ];
    for (extra, want) in cases {
        let mut args = vec!["lps2lts", s(&lps)];
        // The output file (if any) follows the input.
        args.extend(extra.iter().copied());
        let (code, _, err) = muon(&args);
        assert_ne!(code, 0, "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: expected `{want}` in\n{err}");
    }
    assert!(!fsm.exists());
}
