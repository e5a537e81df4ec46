//! Every model of the conformance corpus linearises; for models whose data needs no
//! rewriting (structs, Bool, numbers) the reference explorer checks mCRL2's state and
//! transition counts from `oracle.tsv`.
#![cfg(feature = "corpus")]

#[path = "shared_corpus/mod.rs"]
mod shared_corpus;

mod lps_common;

use std::path::PathBuf;

use muon::artifact::Artifact;
use muon::lps::{linearise, LineariseOptions};
use muon::process::typecheck::check_specification;
use muon::source::SourceFile;

fn corpus() -> PathBuf {
    shared_corpus::dir()
}

/// (model path, states, transitions) of the model rows of oracle.tsv.
fn oracle() -> Vec<(String, usize, usize)> {
    let text = std::fs::read_to_string(corpus().join("oracle.tsv")).expect("oracle.tsv");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            if f.len() > 3 && f[1].is_empty() {
                Some((f[0].to_string(), f[2].parse().ok()?, f[3].parse().ok()?))
            } else {
                None
            }
        })
        .collect()
}

fn load(path: &str) -> muon::process::ir::ProcSpec {
    let p = corpus().join(path);
    let text = std::fs::read_to_string(&p).unwrap();
    let src = SourceFile::new(path, text);
    match check_specification(&src) {
        Ok(s) => s,
        Err(d) => panic!("{path}: {:?}", miette::Report::new(d)),
    }
}

#[test]
fn every_corpus_model_linearises() {
    let rows = oracle();
    assert!(rows.len() >= 12);
    let mut failures = Vec::new();
    for (path, _, _) in &rows {
        let spec = load(path);
        for simplify in [true, false] {
            match linearise(&spec, LineariseOptions { simplify }) {
                Ok(lps) => lps.check_invariants().unwrap(),
                Err(e) => failures.push(format!("{path} (simplify {simplify}): {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn abp_state_space_matches_mcrl2() {
    let rows = oracle();
    let (path, states, transitions) = rows
        .iter()
        .find(|r| r.0.ends_with("abp/abp.mcrl2"))
        .unwrap()
        .clone();
    let spec = load(&path);
    for simplify in [true, false] {
        let lps = linearise(&spec, LineariseOptions { simplify }).unwrap();
        assert_eq!(
            lps_common::explore(&lps),
            (states, transitions),
            "simplify {simplify}"
        );
    }
}

#[test]
fn printed_lps_parses_back_and_linearises_to_the_same_state_space() {
    // Long conditions of composed summands nest deeply: parse on a big stack, as the CLI does.
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(printed_round_trip)
        .unwrap()
        .join()
        .unwrap();
}

fn printed_round_trip() {
    for (path, _, _) in oracle() {
        let spec = load(&path);
        let lps = linearise(&spec, LineariseOptions::default()).unwrap();
        let text = muon::print::lps_to_string(&lps);
        let src = SourceFile::new(format!("{path} (lpspp)"), text.clone());
        let back = match check_specification(&src) {
            Ok(s) => s,
            Err(d) => panic!(
                "{path}: printed LPS does not type-check: {:?}\n{text}",
                miette::Report::new(d)
            ),
        };
        let again = linearise(&back, LineariseOptions::default()).unwrap();
        assert_eq!(again.params.len(), lps.params.len(), "{path}");
        // Linearising again clusters the summands again (as mCRL2 does), so their number may
        // change; the state space may not.
        assert_eq!(counts(&again), counts(&lps), "{path}");
    }
}

/// States and transitions of `lps`, by muon's explorer.
fn counts(lps: &muon::lps::Lps) -> (u64, u64) {
    let store = muon::data::TermStore::new();
    let sys = muon::lts::lps::LpsSystem::new(lps, &store, None).expect("explorable");
    let mut ex = muon::lts::Explorer::new(&sys, muon::lts::ExploreOptions::default());
    let mut ts: Vec<muon::lts::Transition> = Vec::new();
    let sum = ex.run(&mut ts).expect("explored");
    (sum.states, ts.len() as u64)
}
