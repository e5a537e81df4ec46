//! `muon lps2lts` end to end: mcrl22lps, then state-space generation of the LPS.

use std::path::{Path, PathBuf};
use std::process::Command;

fn muon(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn linearise(spec: &Path, dir: &Path) -> PathBuf {
    let lps = dir.join(spec.file_stem().unwrap()).with_extension("lps");
    let (code, _, err) = muon(&["mcrl22lps", s(spec), s(&lps)]);
    assert_eq!(code, 0, "mcrl22lps failed: {err}");
    lps
}

const COUNTER_AUT: &str = "des (0,7,5)\n(0,\"a(d1)\",1)\n(0,\"a(d2)\",1)\n(1,\"a(d1)\",2)\n\
(1,\"a(d2)\",2)\n(2,\"a(d1)\",3)\n(2,\"a(d2)\",3)\n(3,\"b|c(3)\",4)\n";

#[test]
fn counter_aut_deadlock_trace_threads_and_formats() {
    let dir = tempfile::tempdir().unwrap();
    let lps = linearise(Path::new("fixtures/lts/counter.mcrl2"), dir.path());
    let aut = dir.path().join("counter.aut");
    let (code, _, err) = muon(&["lps2lts", s(&lps), s(&aut), "-D", "-t", "--threads", "1"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&aut).unwrap(), COUNTER_AUT);
    assert!(err.contains("deadlock found (state index: 4)"), "{err}");
    let trace = std::fs::read_to_string(dir.path().join("counter_dlk_0.trc")).unwrap();
    assert_eq!(trace, "a(d1)\na(d1)\na(d1)\nb|c(3)\n");

    // Two threads: the same file.
    let aut2 = dir.path().join("counter2.aut");
    let (code, _, err) = muon(&["lps2lts", s(&lps), s(&aut2), "--threads", "2"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&aut2).unwrap(), COUNTER_AUT);

    // The binary LTS says the same through ltsinfo.
    let lts = dir.path().join("counter.lts");
    let (code, _, err) = muon(&["lps2lts", s(&lps), s(&lts), "-a", "c"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("action b|c(3) found (transition 3 -> 4)"),
        "{err}"
    );
    let (code, out, _) = muon(&["ltsinfo", s(&lts)]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(
            "Number of states: 5\nNumber of transitions: 7\nNumber of action labels: 3\n"
        ),
        "{out}"
    );
    assert!(out.contains("Number of deadlock states: 1 (4)"), "{out}");

    // A state bound stops cleanly and says so.
    let part = dir.path().join("part.aut");
    let (code, _, err) = muon(&["lps2lts", s(&lps), s(&part), "--max", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("stopped at the bound of 3 states"), "{err}");
    assert!(std::fs::read_to_string(&part)
        .unwrap()
        .starts_with("des (0,4,3)\n"));

    // Other strategies find the same (small, linear) state space.
    for strat in [
        &["-s", "dfs"][..],
        &["-s", "highway", "--todo-max", "1", "--seed", "3"][..],
    ] {
        let st = dir.path().join("strat.json");
        let mut a = vec!["lps2lts", s(&lps), "--stats-json", s(&st), "-q"];
        a.extend_from_slice(strat);
        let (code, _, err) = muon(&a);
        assert_eq!(code, 0, "{err}");
        let json = std::fs::read_to_string(&st).unwrap();
        assert!(json.contains("\"states\": 5,"), "{strat:?}: {json}");
    }

    // Statistics.
    let stats = dir.path().join("stats.json");
    let (code, _, err) = muon(&["lps2lts", s(&lps), "--stats-json", s(&stats), "-q"]);
    assert_eq!(code, 0, "{err}");
    let json = std::fs::read_to_string(&stats).unwrap();
    assert!(
        json.contains("\"states\": 5,") && json.contains("\"transitions\": 7,"),
        "{json}"
    );
}

#[test]
fn an_unbounded_sum_is_a_clean_error() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("unbounded.mcrl2");
    std::fs::write(
        &spec,
        "act a: Nat;\nproc P = sum n: Nat . a(n) . P;\ninit P;\n",
    )
    .unwrap();
    let lps = linearise(&spec, dir.path());
    let out = dir.path().join("u.aut");
    let (code, _, err) = muon(&["lps2lts", s(&lps), s(&out)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("while exploring state 0"), "{err}");
    assert!(err.contains("cannot enumerate"), "{err}");
    assert!(!out.exists());
}

/// Corpus models whose state spaces mCRL2 computed (shared/corpus/oracle.tsv).
#[test]
fn corpus_models_match_mcrl2_state_counts() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !corpus.join("oracle.tsv").exists() {
        eprintln!("skipping: no corpus at ../shared/corpus");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for (model, states, transitions) in [
        ("academic/abp/abp.mcrl2", 74, 92),
        ("games/quoridor/quoridor.mcrl2", 97, 220),
        (
            "academic/minepump_product_line/family_based_experiments/formula2/mp_fts_prop2.mcrl2",
            582,
            1375,
        ),
        (
            "software_models/Knuths_dancing_links/Dancing_links/Dancing_links_spec.mcrl2",
            65,
            386,
        ),
    ] {
        let lps = linearise(&corpus.join(model), dir.path());
        let stats = dir.path().join("stats.json");
        let (code, _, err) = muon(&["lps2lts", s(&lps), "--stats-json", s(&stats), "-q"]);
        assert_eq!(code, 0, "{model}: {err}");
        let json = std::fs::read_to_string(&stats).unwrap();
        assert!(
            json.contains(&format!("\"states\": {states},"))
                && json.contains(&format!("\"transitions\": {transitions},")),
            "{model}: {json}"
        );
    }
}
