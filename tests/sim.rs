//! `muon sim --script`: commands on standard input, the state and its transitions printed
//! after each. Choosing, undoing, going back and forward; a search for a deadlock walks a
//! shortest path; a trace saved in mCRL2's plain format loads back to the same states; the
//! trace files of `lps2lts -t` and `check --evidence-dir` load and replay; every bad input
//! (command, file, trace) is an error with its line and a non-zero exit, never a panic.

#[path = "cli_common/mod.rs"]
mod cli_common;
use cli_common::{muon, s};

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Counts to 3, resets to 0 with `k` raised (twice at most); with `k == 1` it may pick a
/// value (a sum variable) or do `done` at `n == 2`, which leads to the nearest deadlock, 7
/// steps away (`step(0) step(1) step(2) reset step(0) step(1) done`; the others are 8 and
/// more away). The screen's test (`sim_terminal.rs`) drives the same model.
const SPEC: &str = include_str!("../fixtures/sim/deadlock_seven_steps.mcrl2");

/// The spec written to `dir/m.mcrl2`.
fn spec(dir: &Path) -> PathBuf {
    let p = dir.join("m.mcrl2");
    std::fs::write(&p, SPEC).unwrap();
    p
}

/// Runs `muon sim --script ARGS…` in `dir` with `input` on standard input: (exit code,
/// stdout, stderr).
fn sim(dir: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_muon"))
        .current_dir(dir)
        .arg("sim")
        .arg("--script")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("muon runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let (out_s, err_s) = (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    assert!(!err_s.contains("panicked"), "{err_s}");
    (out.status.code().unwrap_or(-1), out_s, err_s)
}

/// A script that must succeed: its standard output.
fn ok(dir: &Path, args: &[&str], input: &str) -> String {
    let (code, out, err) = sim(dir, args, input);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    out
}

/// The output of each command: the text after each `> COMMAND` line (index 0: before the
/// first command).
fn blocks(out: &str) -> Vec<String> {
    let mut v = vec![String::new()];
    for line in out.lines() {
        if line.starts_with("> ") {
            v.push(String::new());
        }
        let last = v.last_mut().unwrap();
        last.push_str(line);
        last.push('\n');
    }
    v
}

#[test]
fn choose_undo_back_and_forward() {
    let dir = tempfile::tempdir().unwrap();
    let m = spec(dir.path());
    let out = ok(
        dir.path(),
        &[s(&m)],
        "take 1\ntake step(1)\nundo\nback\nforward\nforward\ntake 1\nstate\n",
    );
    let b = blocks(&out);
    assert_eq!(b.len(), 9, "{out}");
    assert!(
        b[0].starts_with(
            "at the initial state (0 of 0 steps): n = 0, k = 0\ntransitions (1):\n  1  step(0)   n: 0 → 1\n"
        ),
        "{out}"
    );
    assert!(
        b[1].contains("took step(0)\nafter step 1 of 1 step (step(0)): n = 1, k = 0\n"),
        "{out}"
    );
    assert!(
        b[2].contains("after step 2 of 2 steps (step(1)): n = 2, k = 0\n"),
        "{out}"
    );
    // Undo forgets the step: one step left.
    assert!(
        b[3].contains("undid the last step\nafter step 1 of 1 step (step(0)): n = 1, k = 0"),
        "{out}"
    );
    // Back keeps it: forward goes to it again.
    assert!(
        b[4].contains("at the initial state (0 of 1 step): n = 0, k = 0"),
        "{out}"
    );
    assert!(
        b[5].contains("forward: step(0)\nafter step 1 of 1 step (step(0)): n = 1, k = 0"),
        "{out}"
    );
    assert!(b[6].contains("already at the end of the history"), "{out}");
    assert!(
        b[7].contains("after step 2 of 2 steps (step(1)): n = 2, k = 0"),
        "{out}"
    );
    assert_eq!(
        b[8],
        format!("> state\n{}", &b[7][b[7].find("after").unwrap()..])
    );
}

#[test]
fn going_back_then_choosing_another_step_replaces_the_history_ahead() {
    let dir = tempfile::tempdir().unwrap();
    let m = spec(dir.path());
    // To (0, 1), where step(0), pick(0) and pick(1) are enabled; then back and forward.
    let out = ok(
        dir.path(),
        &[s(&m)],
        "take 1\ntake 1\ntake 1\ntake reset\ntake 2\nback\ntake pick(1)\ngoto 0\ngoto 5\n",
    );
    let b = blocks(&out);
    assert!(
        b[4].contains(
            "after step 4 of 4 steps (reset): n = 0, k = 1\ntransitions (3):\n  1  step(0)   n: 0 → 1\n  2  pick(0)   k: 1 → 10   [v = 0]\n  3  pick(1)   k: 1 → 11   [v = 1]\n"
        ),
        "{out}"
    );
    assert!(
        b[5].contains("after step 5 of 5 steps (pick(0)): n = 0, k = 10"),
        "{out}"
    );
    assert!(b[6].contains("after step 4 of 5 steps (reset)"), "{out}");
    assert!(
        b[7].contains("after step 5 of 5 steps (pick(1)): n = 0, k = 11"),
        "{out}"
    );
    assert!(
        b[8].contains("at the initial state (0 of 5 steps)"),
        "{out}"
    );
    assert!(b[9].contains("after step 5 of 5 steps (pick(1))"), "{out}");
}

#[test]
fn find_walks_a_shortest_path() {
    let dir = tempfile::tempdir().unwrap();
    let m = spec(dir.path());
    let out = ok(
        dir.path(),
        &[s(&m)],
        "find deadlock\ntrace\nfind deadlock\n",
    );
    let b = blocks(&out);
    assert!(
        b[1].contains("found a deadlock 7 steps away (a shortest path), walked to it\nafter step 7 of 7 steps (done): n = 7, k = 1\ntransitions: none (a deadlock)\n"),
        "{out}"
    );
    let steps: Vec<&str> = b[2]
        .lines()
        .skip(3)
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(
        steps,
        ["step(0)", "step(1)", "step(2)", "reset", "step(0)", "step(1)", "done"],
        "{out}"
    );
    assert!(b[3].contains("the current state is a deadlock"), "{out}");
    // An action by name: `pick`, five steps away; by its multi-action: `pick(1)`.
    let out = ok(dir.path(), &[s(&m)], "find pick\nundo\nfind pick(1)\n");
    let b = blocks(&out);
    assert!(b[1].contains("found action `pick` 5 steps away"), "{out}");
    assert!(b[1].contains("(pick(0)): n = 0, k = 10"), "{out}");
    assert!(b[3].contains("found action `pick(1)` 1 step away"), "{out}");
    assert!(b[3].contains("(pick(1)): n = 0, k = 11"), "{out}");
    // Nothing to find: every state looked at.
    let (code, _, err) = sim(dir.path(), &[s(&m)], "find nothing\n");
    assert_eq!(code, 1);
    assert!(err.contains("line 1 (`find nothing`)"), "{err}");
    assert!(
        err.contains("no action `nothing` is reachable from the current state"),
        "{err}"
    );
    // The search's bound.
    let (code, _, err) = sim(
        dir.path(),
        &[s(&m), "--search-limit", "3"],
        "find deadlock\n",
    );
    assert_eq!(code, 1);
    assert!(err.contains("the search stopped there"), "{err}");
}

#[test]
fn a_plain_trace_saved_loads_back_to_the_same_states() {
    let dir = tempfile::tempdir().unwrap();
    let m = spec(dir.path());
    let out = ok(
        dir.path(),
        &[s(&m)],
        "find pick\ntake 1\nsave p.trc plain\nsave t.trc\nsave t.json\ntrace\n",
    );
    assert!(
        out.contains("saved 6 steps to p.trc (mCRL2's plain format)"),
        "{out}"
    );
    let plain = std::fs::read_to_string(dir.path().join("p.trc")).unwrap();
    assert_eq!(
        plain,
        "step(0)\nstep(1)\nstep(2)\nreset\npick(0)\nstep(0)\n"
    );
    let trace = blocks(&out).pop().unwrap();
    // Each file loads back to the same history, states and all.
    for f in ["p.trc", "t.trc", "t.json"] {
        let out = ok(
            dir.path(),
            &[s(&m)],
            &format!("load {f}\ngoto 6\ntrace\nsave again.trc\n"),
        );
        let b = blocks(&out);
        assert!(b[1].contains(&format!("loaded 6 steps from {f}")), "{out}");
        assert!(
            b[1].contains("at the initial state (0 of 6 steps)"),
            "{out}"
        );
        assert!(
            b[2].contains("after step 6 of 6 steps (step(0)): n = 1, k = 10"),
            "{out}"
        );
        assert_eq!(b[3], trace, "{f}");
        assert_eq!(
            std::fs::read(dir.path().join("again.trc")).unwrap(),
            std::fs::read(dir.path().join("t.trc")).unwrap(),
            "{f}"
        );
    }
    // muon's own trace reader agrees: `tracepp` prints the plain file back.
    let (code, printed, err) = muon(&["tracepp", "-f", "plain", s(&dir.path().join("t.trc"))]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(printed, plain);
    // `--trace FILE` opens one at the start.
    let out = ok(dir.path(), &[s(&m), "--trace", "p.trc"], "goto 6\n");
    assert!(
        out.starts_with("at the initial state (0 of 6 steps)"),
        "{out}"
    );
    assert!(
        out.contains("after step 6 of 6 steps (step(0)): n = 1, k = 10"),
        "{out}"
    );
}

#[test]
fn a_plain_trace_replays_where_a_label_alone_does_not_say_which_transition() {
    // Two `a` transitions from the initial state; only the second leads on to `b`.
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("two.mcrl2");
    std::fs::write(
        &m,
        "act a, b;\nproc P(n: Nat) = (n == 0) -> a . P(1) + (n == 0) -> a . P(2) + (n == 2) -> b . P(3);\ninit P(0);\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("ab.trc"), "a\n\nb\n").unwrap();
    let out = ok(dir.path(), &[s(&m)], "load ab.trc\nforward\nforward\n");
    let b = blocks(&out);
    assert!(b[2].contains("after step 1 of 2 steps (a): n = 2"), "{out}");
    assert!(b[3].contains("after step 2 of 2 steps (b): n = 3"), "{out}");
    // `take a` is ambiguous here: two transitions to different states.
    let (code, _, err) = sim(dir.path(), &[s(&m)], "take a\n");
    assert_eq!(code, 1);
    assert!(
        err.contains("transitions 1, 2 all have the multi-action `a` but lead to different states"),
        "{err}"
    );
}

#[test]
fn traces_of_lps2lts_and_check_load() {
    let dir = tempfile::tempdir().unwrap();
    let m = spec(dir.path());
    let lps = dir.path().join("m.lps");
    assert_eq!(muon(&["mcrl22lps", s(&m), s(&lps)]).0, 0);
    let (code, _, err) = muon(&["lps2lts", "-D", "-t", s(&lps)]);
    assert_eq!(code, 0, "{err}");
    let dlk = dir.path().join("m.lps_dlk_0.trc");
    assert!(dlk.exists(), "{err}");
    // On the LPS and on the specification.
    for model in [s(&lps), s(&m)] {
        let out = ok(dir.path(), &[model], "load m.lps_dlk_0.trc\ngoto 7\n");
        let b = blocks(&out);
        assert!(
            b[1].contains("loaded 7 steps from m.lps_dlk_0.trc, states matched"),
            "{out}"
        );
        assert!(
            b[2].contains(
                "after step 7 of 7 steps (done): n = 7, k = 1\ntransitions: none (a deadlock)"
            ),
            "{out}"
        );
    }
    // `check --evidence-dir`: the counterexample to deadlock freedom, as .txt and .json.
    let f = dir.path().join("nodeadlock.mcf");
    std::fs::write(&f, "[true*] <true> true\n").unwrap();
    let ev = dir.path().join("ev");
    let (code, out, err) = muon(&["check", s(&m), "-f", s(&f), "--evidence-dir", s(&ev)]);
    assert_eq!(code, 1, "{out}{err}");
    for file in ["ev/nodeadlock.txt", "ev/nodeadlock.json"] {
        let out = ok(dir.path(), &[s(&m)], &format!("load {file}\ngoto 7\n"));
        let b = blocks(&out);
        assert!(
            b[1].contains(&format!("loaded 7 steps from {file}, states matched")),
            "{out}"
        );
        assert!(
            b[2].contains("(done): n = 7, k = 1\ntransitions: none (a deadlock)"),
            "{out}"
        );
    }
}

#[test]
fn bad_commands_are_reported_with_their_line_and_the_script_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let m = spec(dir.path());
    let (code, out, err) = sim(
        dir.path(),
        &[s(&m)],
        "# a comment\n\ntkae 1\ntake 9\ntake 0\ntake 1\nundo 3\ngoto 5\nsave\nfind\ntake nothing\nstate\n",
    );
    assert_eq!(code, 1, "{out}");
    for want in [
        "line 3: unknown command `tkae`; the commands are: take N, take ACTION, undo",
        "line 4 (`take 9`): ",
        "there is no transition 9: the state has 1 (numbered from 1)",
        "line 5: transitions are numbered from 1",
        "line 7: `undo` takes no argument, but `3` follows",
        "line 8 (`goto 5`): ",
        "there is no position 5: the history has 1 step (positions 0 to 1)",
        "line 9: `save` needs a file name",
        "line 10: `find` needs `deadlock` or an action",
        "line 11 (`take nothing`): ",
        "no transition of the current state has the multi-action `nothing`; its transitions are: step(1)",
        "muon sim: 8 commands failed",
    ] {
        assert!(err.contains(want), "missing `{want}` in:\n{err}");
    }
    // The good commands ran.
    assert!(out.ends_with("> state\nafter step 1 of 1 step (step(0)): n = 1, k = 0\ntransitions (1):\n  1  step(1)   n: 1 → 2\n"), "{out}");
}

#[test]
fn bad_trace_files_are_errors_with_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let m = spec(dir.path());
    let write = |name: &str, text: &[u8]| std::fs::write(dir.path().join(name), text).unwrap();
    let states = "muon trace 1\nparameters: n, k\ntrace (1 step):\n  initial state: n = 0, k = 0\n  1    step(0)   n: 0 → 2\n";
    write("wrong.trc", b"step(0)\nstep(1)\n\nreset\n");
    write("notaction.trc", b"step(0)\nstep(1\n");
    write("binary.trc", b"\0\x01mcrl2");
    write("states.trc", states.as_bytes());
    write(
        "start.trc",
        b"muon trace 1\nparameters: n, k\ntrace (0 steps):\n  initial state: n = 3, k = 0\n",
    );
    let cases = [
        ("load wrong.trc", "wrong.trc:4: step 3 `reset` is no transition of the state after step 2; the transitions there are: step(2)"),
        ("load notaction.trc", "notaction.trc:2:1: not a multi-action"),
        ("load binary.trc", "this is mCRL2's binary trace format"),
        ("load states.trc", "states.trc:5: step 1 `step(0)` leads from the initial state to n = 1, k = 0, not to the trace's state n = 2, k = 0"),
        ("load start.trc", "the trace starts in n = 3, k = 0, but the model's initial state is n = 0, k = 0"),
        ("load missing.trc", "cannot read missing.trc"),
        ("save nodir/x.trc", "nodir/x.trc"),
    ];
    for (cmd, want) in cases {
        let (code, out, err) = sim(dir.path(), &[s(&m)], &format!("take 1\n{cmd}\nstate\n"));
        assert_eq!(code, 1, "{cmd}: {out}{err}");
        assert!(err.contains(&format!("line 2 (`{cmd}`)")), "{cmd}: {err}");
        assert!(err.contains(want), "{cmd}: missing `{want}` in:\n{err}");
        // A failed load leaves the simulation as it was.
        assert!(out.ends_with("> state\nafter step 1 of 1 step (step(0)): n = 1, k = 0\ntransitions (1):\n  1  step(1)   n: 1 → 2\n"), "{cmd}: {out}");
    }
    // A trace given with --trace that does not replay: exit 1 before any command.
    let (code, out, err) = sim(dir.path(), &[s(&m), "--trace", "wrong.trc"], "");
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("wrong.trc:4: step 3"), "{err}");
}

#[test]
fn bad_models_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.mcrl2");
    std::fs::write(&bad, "act a;\nproc P = b . P;\ninit P;\n").unwrap();
    let (code, _, err) = sim(dir.path(), &[s(&bad)], "");
    assert_eq!(code, 1);
    assert!(err.contains("bad.mcrl2"), "{err}");
    let (code, _, err) = sim(dir.path(), &["missing.mcrl2"], "");
    assert_eq!(code, 1);
    assert!(err.contains("missing.mcrl2"), "{err}");
    let notlps = dir.path().join("x.lps");
    std::fs::write(&notlps, "not an lps").unwrap();
    let (code, _, err) = sim(dir.path(), &[s(&notlps)], "");
    assert_eq!(code, 1);
    assert!(err.contains("x.lps"), "{err}");
    // Without --script and without a terminal: a clear error, not a garbled screen.
    let (code, _, err) = muon(&["sim", s(&spec(dir.path()))]);
    assert_eq!(code, 1);
    assert!(err.contains("muon sim needs a terminal"), "{err}");
}

/// A replay that takes long (a plain trace whose actions allow many paths) ends at a stop of
/// the run's budget as a failed `load`, the stop acknowledged: exit 3 with the replay's step,
/// not the watchdog ending the process "in a stage that cannot report partial results"
/// (which on the screen would leave the terminal raw).
#[test]
fn a_long_replay_stops_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    // Each `a` may lead to 1,000 states: after two steps the replay keeps 100,000 states
    // apart, whose 1,000 transitions each the third step tries.
    std::fs::write(
        dir.path().join("wide.mcrl2"),
        "act a;\nproc P(n: Nat) = sum i: Nat . (i < 1000) -> a . P((n + i) mod 100000);\ninit P(0);\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("t.trc"), "a\na\na\na\n").unwrap();
    let (code, out, err) = sim(
        dir.path(),
        &["--timeout", "1", "wide.mcrl2"],
        "load t.trc\nstate\n",
    );
    assert_eq!(code, 3, "{out}{err}");
    assert!(err.contains("line 1 (`load t.trc`)"), "{err}");
    assert!(err.contains("the replay stopped at step"), "{err}");
    assert!(err.contains("the time limit of 1 s passed"), "{err}");
    assert!(!err.contains("cannot report partial results"), "{err}");
    // The script ends at the stop: the command after it is not run.
    assert!(!out.contains("> state"), "{out}");
}
