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

mod round_trip {
    //! Printing the typed IR and checking the text again gives the same IR (spans aside).

    use super::*;
    use muon::pbes::ir::Pbes;
    use muon::pbes::typecheck::check_pbes;
    use muon::process::ir::ProcSpec;
    use muon::syntax::print::{pbes_to_string, proc_spec_to_string, state_formula_to_string};
    use muon::syntax::Span;

    /// The specification with every source span reset, so that IRs from different texts
    /// compare equal when they mean the same.
    pub fn without_spans(mut s: ProcSpec) -> ProcSpec {
        for d in &mut s.data.sorts {
            d.span = Span::default();
        }
        for f in s.data.constructors.iter_mut().chain(&mut s.data.mappings) {
            f.span = Span::default();
        }
        for e in &mut s.data.equations {
            e.span = Span::default();
        }
        for a in &mut s.actions {
            a.span = Span::default();
        }
        for p in &mut s.procs {
            p.span = Span::default();
        }
        s.init_span = Span::default();
        s
    }

    pub fn pbes_without_spans(mut p: Pbes) -> Pbes {
        for d in &mut p.data.sorts {
            d.span = Span::default();
        }
        for f in p.data.constructors.iter_mut().chain(&mut p.data.mappings) {
            f.span = Span::default();
        }
        for e in &mut p.data.equations {
            e.span = Span::default();
        }
        for e in &mut p.equations {
            e.span = Span::default();
        }
        p
    }

    /// Checks, prints, re-checks: the typed specification survives unchanged.
    pub fn spec_round_trips(name: &str, text: &str) -> Result<ProcSpec, String> {
        let first = check_specification(&SourceFile::new(name, text))
            .map_err(|d| format!("{name}: {:?}", d.messages()))?;
        let printed = proc_spec_to_string(&first);
        let second = check_specification(&SourceFile::new(
            format!("{name} (printed)"),
            printed.clone(),
        ))
        .map_err(|d| {
            format!(
                "{name}: printed text does not check: {:?}\n{printed}",
                d.messages()
            )
        })?;
        let (a, b) = (without_spans(first.clone()), without_spans(second));
        if a != b {
            return Err(format!(
                "{name}: IR differs after printing and re-checking\n{printed}"
            ));
        }
        Ok(first)
    }

    #[test]
    fn corpus_models_and_formulas_round_trip() {
        let Some(root) = corpus() else { return };
        let mut models = Vec::new();
        files(&root, "mcrl2", &mut models);
        models.sort();
        let mut failures = Vec::new();
        let mut specs = std::collections::HashMap::new();
        for m in &models {
            let rel = m.strip_prefix(&root).unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(m).unwrap();
            match spec_round_trips(&rel, &text) {
                Ok(s) => {
                    specs.insert(rel, s);
                }
                Err(e) => failures.push(e),
            }
        }
        let oracle = std::fs::read_to_string(root.join("oracle.tsv")).unwrap();
        for line in oracle.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            let (model, formula) = (cols[0], cols.get(1).copied().unwrap_or(""));
            let (false, Some(spec)) = (formula.is_empty(), specs.get(model)) else {
                continue;
            };
            let first = match check_formula(&load(&root, formula), spec) {
                Ok(f) => f,
                Err(d) => {
                    failures.push(format!("{formula}: {:?}", d.messages()));
                    continue;
                }
            };
            let printed = state_formula_to_string(&first.formula);
            match check_formula(&SourceFile::new(formula, printed.clone()), spec) {
                Ok(second) if second == first => {}
                Ok(_) => failures.push(format!("{formula}: IR differs after printing\n{printed}")),
                Err(d) => failures.push(format!(
                    "{formula}: printed formula does not check: {:?}\n{printed}",
                    d.messages()
                )),
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/typecheck")
                .join(name),
        )
        .unwrap()
    }

    #[test]
    fn well_typed_fixtures_round_trip() {
        spec_round_trips("well_typed.mcrl2", &fixture("well_typed.mcrl2")).unwrap();
        spec_round_trips("model.mcrl2", &fixture("model.mcrl2")).unwrap();
        let first = check_pbes(&SourceFile::new("pbes_ok.txt", fixture("pbes_ok.txt"))).unwrap();
        let printed = pbes_to_string(&first);
        let second = check_pbes(&SourceFile::new("printed", printed.clone()))
            .unwrap_or_else(|d| panic!("{:?}\n{printed}", d.messages()));
        assert_eq!(
            pbes_without_spans(first),
            pbes_without_spans(second),
            "{printed}"
        );
    }
}
