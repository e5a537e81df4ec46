//! Constructs found in mCRL2's own example models (the front-end sweep over `examples/`), each
//! reduced to a small fixture in `fixtures/frontend/` whose state space is counted by hand in
//! its header: parse, type check, linearise and explore end to end through the CLI.

#[path = "cli_common/mod.rs"]
mod cli_common;
use cli_common::muon;

use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/frontend")
        .join(name)
}

/// `(states, transitions)` of the fixture's state space, via `mcrl22lps` and `lps2lts`.
fn states_and_transitions(name: &str) -> (usize, usize) {
    let spec = fixture(name);
    let dir = std::env::temp_dir().join(format!("muon-frontend-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lps = dir.join("x.lps");
    let (code, _, err) = muon(&["mcrl22lps", spec.to_str().unwrap(), lps.to_str().unwrap()]);
    assert_eq!(code, 0, "{name}: mcrl22lps failed: {err}");
    let (code, out, err) = muon(&["lps2lts", lps.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(code, 0, "{name}: lps2lts failed: {err}");
    let text = format!("{out}{err}");
    let line = text
        .lines()
        .find(|l| l.starts_with("lps2lts:"))
        .unwrap_or_else(|| panic!("{name}: no summary in {text}"));
    let nums: Vec<usize> = line["lps2lts:".len()..]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    (nums[0], nums[1])
}

#[test]
fn else_branch_after_a_sum_in_the_then_branch() {
    assert_eq!(states_and_transitions("else_after_sum.mcrl2"), (4, 8));
}

#[test]
fn empty_set_literal_as_a_bag_argument_of_a_process() {
    assert_eq!(states_and_transitions("empty_set_as_bag.mcrl2"), (4, 8));
}

#[test]
fn builtins_over_literals_take_the_expected_element_sort() {
    assert_eq!(
        states_and_transitions("literal_containers_widen.mcrl2"),
        (4, 4)
    );
    // Only literals are re-typed: a List(Pos) variable is still not a List(Nat).
    let dir = std::env::temp_dir().join(format!("muon-frontend-{}-widen", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in [
        (
            "action.mcrl2",
            "act a: List(Nat);\nproc P(l: List(Pos)) = a(l ++ [1]) . P(l);\ninit P([1]);\n",
        ),
        (
            "eqn.mcrl2",
            "map f: List(Pos) -> List(Nat);\nvar l: List(Pos);\neqn f(l) = l ++ [1];\ninit delta;\n",
        ),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let (code, _, err) = muon(&["parse", p.to_str().unwrap()]);
        assert_ne!(code, 0, "{name} must not type-check");
        assert!(err.contains("List(Nat)"), "{name}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
