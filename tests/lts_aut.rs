//! The `.aut` reader and writer, the LTS artifact, and `muon ltsinfo`.

#[path = "cli_common/mod.rs"]
mod cli_common;
use cli_common::muon;

use muon::artifact::Artifact;
use muon::lts::{aut, Lts, StateId};

fn parse(text: &str) -> Result<Lts, aut::AutError> {
    aut::parse_aut(text, "t.aut")
}

fn err(text: &str) -> (usize, String) {
    let e = parse(text).unwrap_err();
    (e.line, e.message)
}

#[test]
fn lenient_whitespace_and_unquoted_labels() {
    let lts =
        parse("\n  des ( 1 , 3 , 2 )  \r\n( 0 , \"a (x)\" , 1 )\r\n\n(1, b , 0)\n(1,\"a (x)\",1)")
            .unwrap();
    assert_eq!(lts.initial, StateId(1));
    assert_eq!(lts.num_states, 2);
    assert_eq!(lts.labels.len(), 2);
    assert_eq!(lts.label_text(lts.transitions[0].label), "a (x)");
    assert_eq!(lts.label_text(lts.transitions[1].label), "b");
    assert_eq!(lts.transitions[2].label, lts.transitions[0].label);
    // Unquoted labels lose their whitespace, as in mCRL2.
    let l = parse("des (0,1,1)\n(0, a( 1, 2) ,0)\n").unwrap();
    assert_eq!(l.label_text(l.transitions[0].label), "a(1,2)");
    assert_eq!(l.labels[0].parts().unwrap()[0].args, vec!["1", "2"]);
}

#[test]
fn malformed_input_errors_name_the_line() {
    assert_eq!(err("").1, "the file is empty; expected `des (...)`");
    assert_eq!(err("hello").0, 1);
    assert!(err("des 0,1,1)").1.contains("`(`"));
    assert!(err("des (0,1)\n")
        .1
        .contains("`,` after the number of transitions"));
    assert!(err("des (0,0,0)\n").1.contains("no states"));
    assert!(err("des (3,0,2)\n").1.contains("initial state 3"));
    assert!(err("des (0,0,1) x\n").1.contains("after the header"));
    assert_eq!(
        err("des (0,2,2)\n(0,\"a\",1)\n(1,\"a\",2)\n"),
        (
            3,
            "target state 2 is not below the number of states 2 in the header".to_string()
        )
    );
    assert_eq!(err("des (0,1,2)\n\n(0,\"a,1)\n").0, 3);
    assert!(err("des (0,1,2)\n(0,\"a\",1\n").1.contains("`)`"));
    assert!(err("des (0,1,2)\n(0,\"a\",1) junk\n")
        .1
        .contains("after the transition"));
    assert!(err("des (0,1,2)\n(x,\"a\",1)\n")
        .1
        .contains("source state number"));
    assert!(err("des (0,1,2)\n(999999999999999999999999,\"a\",1)\n")
        .1
        .contains("too large"));
    let (line, msg) = err("des (0,3,2)\n(0,\"a\",1)\n(1,\"a\",0)\n");
    assert_eq!(line, 4);
    assert!(
        msg.contains("announces 3 transitions but the file has 2"),
        "{msg}"
    );
    assert!(err("des (0,1,2)\n(0,\"a\",1)\n(1,\"a\",0)\n")
        .1
        .contains("announces 1"));
    // The error text carries file and line.
    let e = parse("des (0,1,2)\n(0,\"a\",7)\n").unwrap_err();
    assert!(e.to_string().starts_with("t.aut:2: "), "{e}");
}

#[test]
fn artifact_round_trip_and_corruption() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string("fixtures/lts/small.aut").unwrap();
    let lts = parse(&text).unwrap();
    let p = dir.path().join("small.lts");
    lts.write_artifact(Some(&p)).unwrap();
    assert_eq!(Lts::read_file(Some(&p)).unwrap(), lts);
    let mut out = Vec::new();
    aut::write_aut(&lts, &mut out).unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), text);
    // A truncated artifact is an error, not a panic.
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() - 3]).unwrap();
    assert!(Lts::read_file(Some(&p)).is_err());
    // An artifact whose transitions leave the state range fails validation.
    let mut bad = lts.clone();
    bad.num_states = 2;
    bad.write_artifact(Some(&p)).unwrap();
    let e = Lts::read_file(Some(&p)).unwrap_err().to_string();
    assert!(
        e.contains("corrupt") && e.contains("leaves the 2 states"),
        "{e}"
    );
}

#[test]
fn ltsinfo_reports_counts() {
    let (code, out, _) = muon(&["ltsinfo", "fixtures/lts/small.aut", "-l"]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "Number of states: 4\nNumber of transitions: 5\nNumber of action labels: 4\n\
         Initial state: 0\nNumber of deadlock states: 0\nAction labels (transitions):\n  \
         r1(d1) (1)\n  tau (2)\n  s4(d1)|c (1)\n  r1(d2) (1)\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.aut");
    std::fs::write(&bad, "des (0,1,2)\n(0,\"a\",5)\n").unwrap();
    let (code, _, err) = muon(&["ltsinfo", bad.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("bad.aut:2"), "{err}");
    assert!(err.contains("target state 5"), "{err}");
    let dl = dir.path().join("dl.aut");
    std::fs::write(&dl, "des (0,1,3)\n(0,\"a\",1)\n").unwrap();
    let (code, out, _) = muon(&["ltsinfo", dl.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("Number of deadlock states: 2 (1, 2)"), "{out}");
}

#[test]
fn lps2lts_checks_its_options() {
    let (code, _, err) = muon(&["lps2lts", "x.lps", "x.txt"]);
    assert_eq!(code, 1);
    assert!(err.contains("output format"), "{err}");
    let (code, _, err) = muon(&["lps2lts", "x.lps", "x.aut", "-t"]);
    assert_eq!(code, 1);
    assert!(err.contains("--trace needs"), "{err}");
    let (code, _, err) = muon(&["lps2lts", "x.lps", "x.aut", "--todo-max", "5"]);
    assert_eq!(code, 1);
    assert!(err.contains("only apply to highway"), "{err}");
    let (code, _, err) = muon(&["lps2lts", "does-not-exist.lps", "x.aut"]);
    assert_eq!(code, 1);
    assert!(err.contains("does-not-exist.lps"), "{err}");
}
