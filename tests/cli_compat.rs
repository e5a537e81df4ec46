//! mCRL2 users' command lines run unchanged: every command line of mCRL2's example scripts
//! and tool documentation (`fixtures/compat/mcrl2_command_lines.tsv`) is accepted with
//! mCRL2's meaning or refused with one line that says what muon does instead; and the shared
//! options (`-r`, `--timings`) do what they say on a real run.

#[path = "cli_common/mod.rs"]
mod cli_common;

use cli_common::{linearise_text, muon, muon_in, s};
use std::path::Path;

const LINES: &str = include_str!("../fixtures/compat/mcrl2_command_lines.tsv");

/// Splits shell words as `scripts/mcrl2-command-lines` quotes them (`shlex.quote`: plain
/// words, or single-quoted words with `'"'"'` for a quote inside).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                in_word = true;
            }
            ' ' if !quoted => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            _ => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

#[test]
fn shell_words_follow_python_quoting() {
    assert_eq!(shell_words("-v a.lps"), ["-v", "a.lps"]);
    assert_eq!(shell_words("'-f\"*(*:Bool)\"' x"), ["-f\"*(*:Bool)\"", "x"]);
    assert_eq!(shell_words("'a b'"), ["a b"]);
}

/// What muon did with one command line, judged from its exit code and standard error.
fn outcome(tool: &str, code: i32, err: &str) -> &'static str {
    if err.contains("Usage:") {
        "rejected" // clap's usage error: an option muon does not know
    } else if code == 2 && err.starts_with(&format!("muon {tool}: ")) && err.lines().count() == 1 {
        "refused"
    } else {
        // Accepted: the run then fails on the example's files, which are not here (or
        // succeeds on an empty standard input); either way not on the command line.
        "runs"
    }
}

#[test]
fn every_mcrl2_command_line_runs_or_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut counts = std::collections::BTreeMap::<&str, usize>::new();
    let mut wrong = Vec::new();
    for row in LINES
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = row.split('\t').collect();
        let [src, tool, args, expected] = cols[..] else {
            panic!("malformed row: {row}");
        };
        let words = shell_words(args);
        let mut argv: Vec<&str> = vec![tool];
        argv.extend(words.iter().map(String::as_str));
        let (code, _, err) = muon_in(dir.path(), &argv);
        assert_ne!(code, -1, "{tool} {args} was killed (from {src})");
        assert!(!err.contains("panicked"), "{tool} {args} panicked: {err}");
        let got = outcome(tool, code, &err);
        *counts.entry(got).or_default() += 1;
        if got != expected {
            wrong.push(format!(
                "{tool} {args} ({src}): expected {expected}, got {got}: {}",
                err.lines().next().unwrap_or("")
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The list is the whole point: it must not shrink unnoticed.
    let total: usize = counts.values().sum();
    assert!(total >= 409, "only {total} command lines: {counts:?}");
    assert_eq!(counts.get("rejected"), Some(&2), "{counts:?}");
}

/// A specification to run the shared options on.
fn spec(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("s.mcrl2");
    std::fs::write(
        &p,
        "act a, b;\nproc P(n: Nat) = (n < 3) -> a . P(n + 1) + b . P(0);\ninit P(0);\n",
    )
    .unwrap();
    p
}

#[test]
fn rewriter_choice_is_accepted_and_said_under_verbose() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(dir.path());
    let lps = dir.path().join("s.lps");
    let (code, _, err) = muon(&["mcrl22lps", "-vnfrjittyc", s(&spec), s(&lps)]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("-r jittyc: muon has one rewriter"), "{err}");
    assert!(
        err.contains("-n: muon's LPS has mCRL2's default form"),
        "{err}"
    );
    let (code, _, err) = muon(&["lps2lts", "-q", "-rjittyc", "--cached", s(&lps)]);
    assert_eq!(
        (code, err.as_str()),
        (0, ""),
        "-q prints nothing but results"
    );
    let (code, _, err) = muon(&["lps2lts", "-rinnermost", s(&lps)]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("unknown rewriter `innermost`"), "{err}");
}

#[test]
fn qlimit_bounds_quantifiers_over_numbers_as_in_mcrl2() {
    // `exists x: Nat . x > n + 3` needs x = n + 4: mCRL2 202607.0's lps2lts finds it for
    // n <= 5 with its default -Q10 (and stops at the state n = 6), and for every n < 12
    // with -Q20: 13 states, 12 transitions.
    let dir = tempfile::tempdir().unwrap();
    let lps = linearise_text(
        dir.path(),
        "q",
        "act a: Nat;\nproc P(n: Nat) = (n < 12 && exists x: Nat . x > n + 3) -> a(n) . P(n + 1);\ninit P(0);\n",
    );
    let aut = dir.path().join("q.aut");
    let (code, _, err) = muon(&["lps2lts", s(&lps), s(&aut)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("state 6 (n = 6)"), "{err}");
    assert!(!aut.exists(), "no half-written output");
    let (code, _, err) = muon(&["lps2lts", "-Q20", s(&lps), s(&aut)]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&aut).unwrap();
    assert!(text.starts_with("des (0,12,13)"), "{text}");
}

#[test]
fn timings_are_appended_in_mcrl2s_format() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(dir.path());
    let lps = dir.path().join("s.lps");
    let times = dir.path().join("times.txt");
    let arg = format!("--timings={}", s(&times));
    assert_eq!(muon(&["mcrl22lps", &arg, s(&spec), s(&lps)]).0, 0);
    assert_eq!(muon(&["lps2lts", &arg, s(&lps)]).0, 0);
    let text = std::fs::read_to_string(&times).unwrap();
    let tools: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("- tool: "))
        .collect();
    assert_eq!(tools, ["mcrl22lps", "lps2lts"], "{text}");
    // mCRL2's form: `    total: 0.123s (user: 0.120s)`.
    for total in text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("total: "))
    {
        let (wall, user) = total
            .strip_suffix("s)")
            .and_then(|t| t.split_once("s (user: "))
            .unwrap_or_else(|| panic!("not mCRL2's form: {text}"));
        assert!(wall.parse::<f64>().unwrap() >= 0.0, "{text}");
        assert!(user.parse::<f64>().unwrap() >= 0.0, "{text}");
    }
    // Without FILE the table goes to standard error: the stage, then the total.
    let (code, _, err) = muon(&["lps2lts", "-q", "--timings", s(&lps)]);
    assert_eq!(code, 0);
    assert!(
        err.starts_with("- tool: lps2lts\n  timing:\n    exploration: ")
            && err.contains("\n    total: "),
        "{err}"
    );
}

#[test]
fn output_format_must_agree_with_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(dir.path());
    let lps = dir.path().join("s.lps");
    assert_eq!(muon(&["mcrl22lps", s(&spec), s(&lps)]).0, 0);
    let aut = dir.path().join("s.aut");
    assert_eq!(muon(&["lps2lts", "-oaut", s(&lps), s(&aut)]).0, 0);
    assert!(aut.exists());
    let other = dir.path().join("t.aut");
    let (code, _, err) = muon(&["lps2lts", "--out=dot", s(&lps), s(&other)]);
    assert_eq!(code, 2);
    assert!(err.contains("name it `NAME.dot`"), "{err}");
    assert!(!other.exists(), "a refused command line writes nothing");
}

/// `.fsm` is mCRL2's FSM format. The expected texts are what mCRL2 202607.0's `lps2lts`
/// and `ltsconvert` write for the same model, except that mCRL2's linearisation names the
/// parameters `n_P` and `c_P` where muon's keeps `n` and `c`.
#[test]
fn fsm_is_written_as_mcrl2_writes_it() {
    let dir = tempfile::tempdir().unwrap();
    let lps = linearise_text(
        dir.path(),
        "c",
        "act a: Nat;\nproc P(n: Nat, c: Bool) = (n < 2) -> a(n) . P(n + 1, !c);\ninit P(0, true);\n",
    );
    let fsm = dir.path().join("c.fsm");
    let (code, _, err) = muon(&["lps2lts", "-ofsm", s(&lps), s(&fsm)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&fsm).unwrap(),
        "n(3) Nat  \"0\" \"1\" \"2\"\nc(2) Bool  \"true\" \"false\"\n---\n0 0\n1 1\n2 0\n---\n\
         1 2 \"a(0)\"\n2 3 \"a(1)\"\n"
    );
    // From an LTS without state values: no parameters, no state lines.
    let aut = dir.path().join("c.aut");
    let fsm2 = dir.path().join("d.fsm");
    assert_eq!(muon(&["lps2lts", s(&lps), s(&aut)]).0, 0);
    assert_eq!(muon(&["ltsconvert", s(&aut), s(&fsm2)]).0, 0);
    assert_eq!(
        std::fs::read_to_string(&fsm2).unwrap(),
        "---\n---\n1 2 \"a(0)\"\n2 3 \"a(1)\"\n"
    );
    // mCRL2 refuses --no-info unless the output is `.lts`; so does muon.
    let (code, _, err) = muon(&["lps2lts", "--no-info", s(&lps), s(&fsm)]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--no-info requires that the output is in .lts format"),
        "{err}"
    );
}
