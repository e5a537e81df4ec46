//! Conformance: for every (model, formula) pair of the corpus oracle with a definite verdict,
//! muon must give mCRL2's verdict through both routes:
//! - A: `muon check MODEL -f FORMULA` (parse, type-check, linearise, then the engine `auto`
//!   picks: the monitor, the product game or the PBES route, all in one process);
//! - P: the same by the PBES route alone (`--engine pbes`: lps2pbes, instantiate, solve);
//! - B: `mcrl22lps`, `lps2lts` (to `.aut`), `lts2pbes --lps`, `pbes2bool`;
//! - E: `muon check MODEL -f FORMULA` with evidence: the verdict with its counterexample or
//!   witness, which the independent evidence checker must confirm (an unconfirmed evidence
//!   is an error, so it fails the route).
//!
//! A wrong verdict always fails the test. A route that does not finish (an error of some
//! stage, or the time limit) fails it too, unless the pair and route are listed in
//! [`EXPECTED_FAILURES`] with the reason; listed pairs are printed, and a listed pair that
//! now passes fails the test so that the list stays exact. Skipped (with a message) only
//! when the corpus is absent.
#![cfg(feature = "corpus")]

#[path = "cli_common/mod.rs"]
mod cli_common;
#[path = "shared_corpus/mod.rs"]
mod shared_corpus;
use cli_common::wait_limited;

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

/// Pairs and routes known not to finish yet, with the stage that stops them.
/// (`model`, `formula`, route `'A'`, `'P'`, `'B'` or `'E'`, reason). Never a wrong verdict.
const EXPECTED_FAILURES: &[(&str, &str, char, &str)] = &[];

/// Time limit of one command for a pair that is expected to pass.
const LIMIT: Duration = Duration::from_secs(30);
/// Time limit of one command for a pair listed as an expected failure.
const LIMIT_EXPECTED: Duration = Duration::from_secs(5);

#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Verdict(bool),
    /// The stage that failed and its message.
    Failed(String),
}

fn muon() -> &'static str {
    env!("CARGO_BIN_EXE_muon")
}

/// Runs `muon args…` with a time limit; `Ok(stdout)` on success.
fn run(args: &[&std::ffi::OsStr], limit: Duration) -> Result<String, String> {
    let child = Command::new(muon())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start muon: {e}"))?;
    let Ok(output) = wait_limited(child, limit) else {
        return Err(format!("time limit of {} s", limit.as_secs()));
    };
    let out = String::from_utf8_lossy(&output.stdout).into_owned();
    let err = String::from_utf8_lossy(&output.stderr);
    // `check` exits 1 when the formula is false: a verdict, not an error.
    let says_false = out
        .lines()
        .next()
        .is_some_and(|l| l.split_whitespace().last() == Some("false"));
    if output.status.success() || (output.status.code() == Some(1) && says_false) {
        return Ok(out);
    }
    let msg: String = err
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    Err(msg)
}

fn verdict(stdout: &str) -> Outcome {
    match stdout.split_whitespace().last() {
        Some("true") => Outcome::Verdict(true),
        Some("false") => Outcome::Verdict(false),
        _ => Outcome::Failed(format!("unexpected output `{}`", stdout.trim())),
    }
}

fn route_a(model: &Path, formula: &Path, limit: Duration, engine: &str) -> Outcome {
    match run(
        &[
            "check".as_ref(),
            "-q".as_ref(),
            "--engine".as_ref(),
            engine.as_ref(),
            model.as_os_str(),
            "-f".as_ref(),
            formula.as_os_str(),
        ],
        limit,
    ) {
        Ok(out) => verdict(&out),
        Err(e) => Outcome::Failed(format!("check: {e}")),
    }
}

fn route_e(model: &Path, formula: &Path, limit: Duration) -> Outcome {
    match run(
        &[
            "check".as_ref(),
            model.as_os_str(),
            "-f".as_ref(),
            formula.as_os_str(),
        ],
        limit,
    ) {
        // The verdict is the first line; the evidence follows.
        Ok(out) => verdict(out.lines().next().unwrap_or("")),
        Err(e) => Outcome::Failed(format!("check with evidence: {e}")),
    }
}

fn route_b(model: &Path, formula: &Path, dir: &Path, limit: Duration) -> Outcome {
    let lps = dir.join("m.lps");
    let aut = dir.join("m.aut");
    let pbes = dir.join("m.pbes");
    let steps: [(&str, Vec<&std::ffi::OsStr>); 3] = [
        (
            "mcrl22lps",
            vec!["mcrl22lps".as_ref(), model.as_os_str(), lps.as_os_str()],
        ),
        (
            "lps2lts",
            vec!["lps2lts".as_ref(), lps.as_os_str(), aut.as_os_str()],
        ),
        (
            "lts2pbes",
            vec![
                "lts2pbes".as_ref(),
                "--lps".as_ref(),
                lps.as_os_str(),
                "-f".as_ref(),
                formula.as_os_str(),
                aut.as_os_str(),
                pbes.as_os_str(),
            ],
        ),
    ];
    for (name, args) in &steps {
        if let Err(e) = run(args, limit) {
            return Outcome::Failed(format!("{name}: {e}"));
        }
    }
    match run(&["pbes2bool".as_ref(), pbes.as_os_str()], limit) {
        Ok(out) => verdict(&out),
        Err(e) => Outcome::Failed(format!("pbes2bool: {e}")),
    }
}

#[test]
fn corpus_verdicts_agree_with_mcrl2() {
    let corpus = shared_corpus::dir();
    let oracle = corpus.join("oracle.tsv");
    let text = std::fs::read_to_string(&oracle).expect("readable oracle.tsv");
    let mut pairs = Vec::new();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 8 || cols[1].is_empty() {
            continue;
        }
        let expected = match cols[7] {
            "true" => true,
            "false" => false,
            _ => continue,
        };
        pairs.push((cols[0].to_string(), cols[1].to_string(), expected));
    }
    assert!(
        !pairs.is_empty(),
        "no pairs with a verdict in {}",
        oracle.display()
    );

    let tmp = tempfile::tempdir().expect("temporary directory");
    let results = Mutex::new(Vec::new());
    let next = Mutex::new(0usize);
    std::thread::scope(|s| {
        for worker in 0..2 {
            let (pairs, results, next, tmp, corpus) = (&pairs, &results, &next, &tmp, &corpus);
            s.spawn(move || loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    let i = *n;
                    *n += 1;
                    i
                };
                let Some((m, f, expected)) = pairs.get(i) else {
                    break;
                };
                let dir = tmp.path().join(format!("w{worker}"));
                std::fs::create_dir_all(&dir).unwrap();
                let (model, formula) = (corpus.join(m), corpus.join(f));
                let listed = |r: char| {
                    EXPECTED_FAILURES
                        .iter()
                        .any(|(em, ef, er, _)| em == m && ef == f && *er == r)
                };
                let la = if listed('A') { LIMIT_EXPECTED } else { LIMIT };
                let lb = if listed('B') { LIMIT_EXPECTED } else { LIMIT };
                let le = if listed('E') { LIMIT_EXPECTED } else { LIMIT };
                let lp = if listed('P') { LIMIT_EXPECTED } else { LIMIT };
                let a = route_a(&model, &formula, la, "auto");
                let p = route_a(&model, &formula, lp, "pbes");
                let b = route_b(&model, &formula, &dir, lb);
                let e = route_e(&model, &formula, le);
                results
                    .lock()
                    .unwrap()
                    .push((m.clone(), f.clone(), *expected, a, b, e, p));
            });
        }
    });

    let mut results = results.into_inner().unwrap();
    results.sort_by(|x, y| (&x.0, &x.1).cmp(&(&y.0, &y.1)));
    let mut problems = Vec::new();
    let mut agree = [0usize; 4];
    let mut expected_failures = 0;
    for (m, f, expected, a, b, e, p) in &results {
        for (i, (route, out)) in [('A', a), ('B', b), ('E', e), ('P', p)]
            .into_iter()
            .enumerate()
        {
            let listed = EXPECTED_FAILURES
                .iter()
                .find(|(em, ef, er, _)| em == m && ef == f && *er == route);
            match (out, listed) {
                (Outcome::Verdict(v), _) if v != expected => problems.push(format!(
                    "WRONG VERDICT route {route}: {m} {f}: muon says {v}, mCRL2 says {expected}"
                )),
                (Outcome::Verdict(_), None) => {
                    agree[i] += 1;
                }
                (Outcome::Verdict(_), Some(_)) => problems.push(format!(
                    "route {route}: {m} {f} now passes: remove it from EXPECTED_FAILURES"
                )),
                (Outcome::Failed(why), Some((.., reason))) => {
                    expected_failures += 1;
                    eprintln!("expected failure, route {route}: {m} {f}: {reason} ({why})");
                }
                (Outcome::Failed(why), None) => {
                    problems.push(format!("route {route}: {m} {f}: failed: {why}"))
                }
            }
        }
    }
    eprintln!(
        "conformance: {} pairs; route A agrees on {}, route B on {}, route E on {}, route P on {}; {} expected failures",
        results.len(),
        agree[0],
        agree[1],
        agree[2],
        agree[3],
        expected_failures
    );
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
