//! Ill-typed inputs in `fixtures/typecheck/`: each file states in its header which errors the
//! type checker must report (`% expect: LINE:COL message substring`, optionally
//! `% help: substring`); `.mcf` files name their model with `% model: FILE`.

use std::path::{Path, PathBuf};

use muon::data::typecheck::Diagnostics;
use muon::modal::typecheck::check_formula;
use muon::pbes::typecheck::check_pbes;
use muon::process::typecheck::check_specification;
use muon::source::SourceFile;

struct Expect {
    line: usize,
    col: usize,
    message: String,
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/typecheck")
}

fn header(text: &str, key: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix(&format!("% {key}:")))
        .map(|s| s.trim().to_string())
        .collect()
}

fn parse_expect(s: &str) -> Expect {
    let (pos, message) = s.split_once(' ').expect("`L:C message`");
    let (l, c) = pos.split_once(':').expect("`L:C`");
    Expect {
        line: l.parse().expect("line"),
        col: c.parse().expect("column"),
        message: message.to_string(),
    }
}

fn load(path: &Path) -> SourceFile {
    let text = std::fs::read_to_string(path).expect("fixture readable");
    SourceFile::new(path.file_name().unwrap().to_string_lossy(), text)
}

fn run(path: &Path) -> Result<(), Diagnostics> {
    let src = load(path);
    match path.extension().and_then(|e| e.to_str()) {
        Some("mcrl2") => check_specification(&src).map(|_| ()),
        Some("mcf") => {
            let model = header(&src.text, "model");
            let model = fixtures().join(&model[0]);
            let spec = check_specification(&load(&model))
                .unwrap_or_else(|d| panic!("model {} must type-check: {d}", model.display()));
            check_formula(&src, &spec).map(|_| ())
        }
        Some("txt") => check_pbes(&src).map(|_| ()),
        _ => Ok(()),
    }
}

#[test]
fn every_fixture_reports_its_errors() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .expect("fixtures/typecheck exists")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut ill_typed = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let expects: Vec<Expect> = header(&text, "expect")
            .iter()
            .map(|s| parse_expect(s))
            .collect();
        let helps = header(&text, "help");
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let result = run(path);
        if expects.is_empty() {
            if let Err(d) = result {
                failures.push(format!(
                    "{name}: expected no errors, got {:?}",
                    d.messages()
                ));
            }
            continue;
        }
        ill_typed += 1;
        let d = match result {
            Ok(()) => {
                failures.push(format!("{name}: expected errors, but it type-checks"));
                continue;
            }
            Err(d) => d,
        };
        assert!(
            d.syntax_error().is_none(),
            "{name}: syntax error {:?}",
            d.messages()
        );
        let got = d.messages();
        for e in &expects {
            if !got
                .iter()
                .any(|(l, c, m)| *l == e.line && *c == e.col && m.contains(&e.message))
            {
                failures.push(format!(
                    "{name}: expected {}:{} `{}`, got {got:?}",
                    e.line, e.col, e.message
                ));
            }
        }
        for h in &helps {
            if !d
                .errors()
                .iter()
                .any(|e| e.help.as_deref().is_some_and(|x| x.contains(h.as_str())))
            {
                let all: Vec<_> = d.errors().iter().map(|e| e.help.clone()).collect();
                failures.push(format!("{name}: expected help `{h}`, got {all:?}"));
            }
        }
        // The diagnostic renders (file name, line, column) without panicking.
        let rendered = format!("{:?}", miette::Report::new(d));
        assert!(
            rendered.contains(&name),
            "{name}: rendering lacks the file name"
        );
    }
    assert!(ill_typed >= 20, "only {ill_typed} ill-typed fixtures");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
