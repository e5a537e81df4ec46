//! `muon bessolve` end to end: solve, write `paritysol`, re-check the written file with the
//! independent checker; errors carry file and line; BES text / artifact / stdin inputs.

#[path = "cli_common/mod.rs"]
mod cli_common;
use cli_common::s;

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn muon(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_muon"));
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or(b"")).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/bes")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn solve_write_and_recheck_paritysol() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("g.pg");
    let sol = dir.path().join("g.sol");
    let o = muon(
        &[
            "bessolve",
            "--generate",
            "random:3000:40",
            "--seed",
            "7",
            "-o",
            s(&game),
        ],
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = muon(&["bessolve", s(&game), "--verify", "-o", s(&sol)], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&sol).unwrap();
    assert!(text.starts_with("paritysol 2999;\n"));
    assert_eq!(text.lines().count(), 3001);
    let o = muon(&["bessolve", s(&game), "--check", s(&sol)], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("solution verified"));

    // Flip one winner in the file: the checker must refuse it.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let parts: Vec<&str> = lines[1].trim_end_matches(';').split(' ').collect();
    let flipped = if parts[1] == "0" { "1" } else { "0" };
    lines[1] = format!("{} {};", parts[0], flipped);
    let bad = dir.path().join("bad.sol");
    std::fs::write(&bad, lines.join("\n") + "\n").unwrap();
    let o = muon(&["bessolve", s(&game), "--check", s(&bad)], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the solution is wrong"));

    // Gauss on a small game agrees with Zielonka (its --verify compares them).
    let small = dir.path().join("small.pg");
    let o = muon(
        &["bessolve", "--generate", "random:40:6", "-o", s(&small)],
        None,
    );
    assert!(o.status.success());
    let o = muon(
        &["bessolve", s(&small), "--solver", "gauss", "--verify"],
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn errors_name_file_and_line_and_leave_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.sol");
    let f = fixture("bad_dangling.pg");
    let o = muon(&["bessolve", &f, "-o", s(&out)], None);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad_dangling.pg:4:9"), "{err}");
    assert!(err.contains("successor 7 of vertex 2"), "{err}");
    assert!(!out.exists());
    let o = muon(&["bessolve", &fixture("bad_undefined.bes")], None);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad_undefined.bes:3:15"));
}

/// A diagnostic written to a pipe is one message on one line, however long: wrapped at a
/// width nobody chose, where it splits would depend on the length of the checkout's path.
#[test]
fn long_diagnostics_to_a_pipe_are_not_wrapped() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir
        .path()
        .join("a-directory-whose-name-is-long-enough-to-push-the-message-past-any-width-".repeat(2))
        .join("and-one-more-level-of-the-same-so-the-path-alone-is-over-two-hundred-bytes");
    std::fs::create_dir_all(&deep).unwrap();
    let bad = deep.join("bad_dangling.pg");
    std::fs::copy(fixture("bad_dangling.pg"), &bad).unwrap();
    let o = muon(&["bessolve", s(&bad)], None);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    let message = format!(
        "{}:4:9: successor 7 of vertex 2 is not a vertex (the header's bound is 3)",
        bad.display()
    );
    assert!(message.len() > 200, "{message}");
    assert!(err.lines().any(|l| l.ends_with(&message)), "{err}");
}

#[test]
fn bes_text_stdin_and_artifact() {
    let good = fixture("good.bes");
    let o = muon(&["bessolve", &good, "--all", "--verify"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("X6 = false"), "{out}");
    assert!(out.ends_with("true\n"), "{out}");
    let o = muon(&["bessolve", &good, "--solver", "gauss", "--verify"], None);
    assert_eq!(String::from_utf8_lossy(&o.stdout), "true\n");

    // Standard input, sniffed as BES text.
    let o = muon(
        &["bessolve"],
        Some(b"pbes mu X = X || Y; nu Y = Y; init X;"),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "true\n");
    let o = muon(&["bessolve"], Some(b"bes mu X = X && Y; nu Y = Y; init X;"));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "false\n");

    // BES artifact: written by --convert, recognised by its header.
    let dir = tempfile::tempdir().unwrap();
    let art = dir.path().join("good.besa");
    let o = muon(
        &["bessolve", &good, "--convert", "artifact", "-o", s(&art)],
        None,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = muon(&["bessolve", s(&art), "--all"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("X6 = false"));

    // BES -> .pg -> solve: the initial vertex keeps its value.
    let pg = dir.path().join("good.pg");
    let o = muon(&["bessolve", &good, "--convert", "pg", "-o", s(&pg)], None);
    assert!(o.status.success());
    let o = muon(&["-v", "bessolve", s(&pg), "--verify"], None);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("start vertex 0 is won by player 0"));
}
