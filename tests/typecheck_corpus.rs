//! Every model and formula of the shared corpus (`../shared/corpus`) type-checks: each
//! `.mcrl2` on its own, each `.mcf` against its model as paired in `oracle.tsv`.

use std::path::{Path, PathBuf};

use muon::modal::typecheck::check_formula;
use muon::process::typecheck::check_specification;
use muon::syntax::SourceFile;

fn corpus() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if p.is_dir() {
        Some(p)
    } else {
        eprintln!("skipping: corpus not found at {}", p.display());
        None
    }
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().and_then(|x| x.to_str()) == Some(ext) {
            out.push(p);
        }
    }
}

fn load(root: &Path, rel: &str) -> SourceFile {
    let text = std::fs::read_to_string(root.join(rel)).expect("corpus file readable");
    SourceFile::new(rel, text)
}

#[test]
fn every_corpus_model_type_checks() {
    let Some(root) = corpus() else { return };
    let mut models = Vec::new();
    files(&root, "mcrl2", &mut models);
    models.sort();
    assert!(!models.is_empty());
    let mut failures = Vec::new();
    for m in &models {
        let rel = m.strip_prefix(&root).unwrap().to_string_lossy().to_string();
        if let Err(d) = check_specification(&load(&root, &rel)) {
            failures.push(format!("{rel}: {:?}", d.messages()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_corpus_formula_type_checks_against_its_model() {
    let Some(root) = corpus() else { return };
    let oracle = std::fs::read_to_string(root.join("oracle.tsv")).expect("oracle.tsv");
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut spec_cache = std::collections::HashMap::new();
    for line in oracle.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (model, formula) = (cols[0], cols.get(1).copied().unwrap_or(""));
        if formula.is_empty() {
            continue;
        }
        let spec = spec_cache
            .entry(model.to_string())
            .or_insert_with(|| check_specification(&load(&root, model)).ok());
        let Some(spec) = spec else {
            failures.push(format!("{model}: model does not type-check"));
            continue;
        };
        checked += 1;
        if let Err(d) = check_formula(&load(&root, formula), spec) {
            failures.push(format!("{formula}: {:?}", d.messages()));
        }
    }
    assert!(checked > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
