//! Every `.mcrl2` and `.mcf` file of the shared corpus (mCRL2's own examples) must parse.
#![cfg(feature = "corpus")]

#[path = "shared_corpus/mod.rs"]
mod shared_corpus;

use std::path::{Path, PathBuf};

use muon::source::SourceFile;
use muon::syntax::{parse_formula_spec, parse_spec};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable corpus directory")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn every_corpus_file_parses() {
    let dir = shared_corpus::dir();
    let mut files = Vec::new();
    walk(&dir, &mut files);
    let (mut specs, mut formulas) = (0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
        if ext != "mcrl2" && ext != "mcf" {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("readable corpus file");
        let src = SourceFile::new(f.display().to_string(), text);
        let result = if ext == "mcrl2" {
            specs += 1;
            parse_spec(&src).map(|_| ())
        } else {
            formulas += 1;
            parse_formula_spec(&src).map(|_| ())
        };
        if let Err(e) = result {
            let (l, c) = e.line_col();
            failures.push(format!("{}:{l}:{c}: {}", f.display(), e.message()));
        }
    }
    assert!(
        specs > 0 && formulas > 0,
        "corpus has specifications and formulas"
    );
    assert!(
        failures.is_empty(),
        "parse failures:\n{}",
        failures.join("\n")
    );
}
