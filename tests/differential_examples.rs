//! The fast rows of `fixtures/differential.tsv` (written by `scripts/differential`, which
//! runs muon beside mCRL2 202607.0's results on every untimed example of mCRL2), re-checked
//! without mCRL2: every model row where muon agreed within 2 s must still give mCRL2's
//! state, transition and label counts, and every such formula row mCRL2's verdict. A row
//! that fails is a regression; the table itself lists the known differences.
#![cfg(feature = "corpus")]

#[path = "shared_corpus/mod.rs"]
mod shared_corpus;

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

/// Rows whose muon time in the table is at most this are re-checked.
const FAST_S: f64 = 2.0;

fn muon(args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(args)
        .output()
        .expect("run muon");
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `states/transitions/labels` of an `.aut` file.
fn aut_counts(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("readable .aut");
    let mut lines = text.lines();
    let head = lines.next().unwrap_or("");
    let nums: Vec<&str> = head
        .trim_start_matches("des (")
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .collect();
    let mut labels = std::collections::HashSet::new();
    for l in lines {
        if let (Some(i), Some(j)) = (l.find('"'), l.rfind('"')) {
            if i < j {
                labels.insert(&l[i + 1..j]);
            }
        }
    }
    format!("{}/{}/{}", nums[2], nums[1], labels.len())
}

fn check_row(ex: &Path, dir: &Path, model: &str, formula: &str, want: &str) -> Option<String> {
    let spec = ex.join(model);
    if formula.is_empty() {
        let (lps, aut) = (dir.join("m.lps"), dir.join("m.aut"));
        let (c, _, e) = muon(&["mcrl22lps".as_ref(), spec.as_os_str(), lps.as_os_str()]);
        if c != Some(0) {
            return Some(format!("{model}: mcrl22lps failed: {}", e.trim()));
        }
        let (c, _, e) = muon(&["lps2lts".as_ref(), lps.as_os_str(), aut.as_os_str()]);
        if c != Some(0) {
            return Some(format!("{model}: lps2lts failed: {}", e.trim()));
        }
        let got = aut_counts(&aut);
        (got != want).then(|| format!("{model}: {got}, mCRL2 {want}"))
    } else {
        let f = ex.join(formula);
        let (c, out, e) = muon(&[
            "check".as_ref(),
            "-q".as_ref(),
            spec.as_os_str(),
            "-f".as_ref(),
            f.as_os_str(),
        ]);
        let got = out.split_whitespace().last().unwrap_or("");
        if !matches!(c, Some(0) | Some(1)) {
            return Some(format!("{model} {formula}: check failed: {}", e.trim()));
        }
        (got != want).then(|| format!("{model} {formula}: {got}, mCRL2 {want}"))
    }
}

#[test]
fn fast_agreeing_rows_still_agree() {
    let ex = shared_corpus::examples();
    let table = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/differential.tsv");
    let text = std::fs::read_to_string(&table).expect("fixtures/differential.tsv");
    let rows: Vec<Vec<String>> = text
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_string).collect::<Vec<_>>())
        .filter(|c| {
            c.len() >= 6 && c[4] == "agree" && c[5].parse::<f64>().is_ok_and(|t| t <= FAST_S)
        })
        .collect();
    assert!(rows.len() > 100, "only {} fast agreeing rows", rows.len());
    let tmp = tempfile::tempdir().unwrap();
    let next = Mutex::new(0usize);
    let problems = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for w in 0..2 {
            let (rows, next, problems, ex) = (&rows, &next, &problems, &ex);
            let dir = tmp.path().join(format!("w{w}"));
            std::fs::create_dir_all(&dir).unwrap();
            s.spawn(move || loop {
                let i = {
                    let mut n = next.lock().unwrap();
                    *n += 1;
                    *n - 1
                };
                let Some(r) = rows.get(i) else { break };
                if let Some(p) = check_row(ex, &dir, &r[0], &r[1], &r[2]) {
                    problems.lock().unwrap().push(p);
                }
            });
        }
    });
    let problems = problems.into_inner().unwrap();
    eprintln!("differential rows re-checked: {}", rows.len());
    assert!(
        problems.is_empty(),
        "{} regression(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
