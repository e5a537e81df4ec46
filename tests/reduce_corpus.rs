//! Quotient sizes against mCRL2 on the corpora: every row of `fixtures/reduce/mcrl2_counts.tsv`
//! (measured with mCRL2's `ltsconvert` on the `.aut` files muon generates) is reproduced by
//! `muon ltsconvert`, and every quotient is equivalent to its input by `muon ltscompare`.
//! Needs `../shared` (cargo feature `corpus`); fails, never skips, without it.

#![cfg(feature = "corpus")]

#[path = "cli_common/mod.rs"]
mod cli_common;
use cli_common::{muon, s};

#[path = "shared_corpus/mod.rs"]
mod shared_corpus;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `(states, transitions)` from an `.aut` header.
fn counts(aut: &Path) -> (String, String) {
    let text = std::fs::read_to_string(aut).unwrap();
    let h = text.lines().next().unwrap();
    let f: Vec<&str> = h
        .trim_start_matches("des (")
        .trim_end_matches(')')
        .split(',')
        .collect();
    (f[2].to_string(), f[1].to_string())
}

fn model_path(model: &str) -> PathBuf {
    let (root, rel) = model.split_once(':').unwrap();
    match root {
        "corpus" => shared_corpus::dir().join(rel),
        "examples" => shared_corpus::examples().join(rel),
        other => panic!("unknown root {other}"),
    }
}

#[test]
fn quotient_sizes_equal_mcrl2s() {
    let table = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/reduce/mcrl2_counts.tsv"),
    )
    .unwrap();
    let mut by_model: BTreeMap<&str, Vec<Vec<&str>>> = BTreeMap::new();
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 7, "{line}");
        by_model.entry(f[0]).or_default().push(f);
    }
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (model, rows) in &by_model {
        let spec = model_path(model);
        let lps = dir.path().join("m.lps");
        let aut = dir.path().join("m.aut");
        let (code, _, err) = muon(&["mcrl22lps", s(&spec), s(&lps)]);
        assert_eq!(code, 0, "{model}: {err}");
        let (code, _, err) = muon(&["lps2lts", s(&lps), s(&aut)]);
        assert_eq!(code, 0, "{model}: {err}");
        let input = counts(&aut);
        for f in rows {
            assert_eq!(
                (input.0.as_str(), input.1.as_str()),
                (f[3], f[4]),
                "{model}: the generated LTS is not the one mCRL2 reduced"
            );
            let out = dir.path().join("q.aut");
            let tau = format!("--tau={}", f[1]);
            let mut args = vec!["ltsconvert", "-e", f[2], s(&aut), s(&out)];
            if f[1] != "-" {
                args.push(&tau);
            }
            let (code, _, err) = muon(&args);
            assert_eq!(code, 0, "{model} {}: {err}", f[2]);
            let got = counts(&out);
            if (got.0.as_str(), got.1.as_str()) != (f[5], f[6]) {
                failures.push(format!(
                    "{model} --tau={} -e {}: muon {}/{}, mCRL2 {}/{}",
                    f[1], f[2], got.0, got.1, f[5], f[6]
                ));
            }
            // tau-star is a reduction, not an equivalence: it keeps weak traces.
            let eq = if f[2] == "tau-star" {
                "weak-trace"
            } else {
                f[2]
            };
            let mut args = vec!["ltscompare", "-q", "-e", eq, s(&aut), s(&out)];
            if f[1] != "-" {
                args.push(&tau);
            }
            let (code, stdout, err) = muon(&args);
            assert_eq!(
                (code, stdout.trim()),
                (0, "true"),
                "{model} {}: the quotient is not equivalent to its input: {err}",
                f[2]
            );
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 150);
}
