//! Malformed inputs: every file in `fixtures/syntax/` must be rejected with the position and
//! message its header states:
//!
//! ```text
//! % expect: LINE:COLUMN message substring
//! % kind: syntax | unsupported | too_deep      (optional, default syntax)
//! ```

use std::path::Path;

use muon::source::SourceFile;
use muon::syntax::{parse_formula_spec, parse_pbes, parse_spec, SyntaxErrorKind};

struct Expectation {
    line: usize,
    column: usize,
    message: String,
    kind: SyntaxErrorKind,
}

fn expectation(text: &str, file: &str) -> Expectation {
    let mut exp = None;
    let mut kind = SyntaxErrorKind::Syntax;
    for l in text.lines().take_while(|l| l.starts_with('%')) {
        if let Some(rest) = l.strip_prefix("% expect:") {
            let rest = rest.trim();
            let (pos, message) = rest.split_once(' ').unwrap_or((rest, ""));
            let (line, column) = pos
                .split_once(':')
                .unwrap_or_else(|| panic!("{file}: `% expect: LINE:COL message`"));
            exp = Some((
                line.parse().expect("line number"),
                column.parse().expect("column number"),
                message.trim().to_string(),
            ));
        } else if let Some(k) = l.strip_prefix("% kind:") {
            kind = match k.trim() {
                "syntax" => SyntaxErrorKind::Syntax,
                "unsupported" => SyntaxErrorKind::Unsupported,
                "too_deep" => SyntaxErrorKind::TooDeep,
                other => panic!("{file}: unknown kind {other}"),
            };
        }
    }
    let (line, column, message) = exp.unwrap_or_else(|| panic!("{file}: no `% expect:` header"));
    Expectation {
        line,
        column,
        message,
        kind,
    }
}

#[test]
fn malformed_fixtures_report_position_and_message() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/syntax");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/syntax exists")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let mut checked = 0;
    let mut failures = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(f).expect("readable fixture");
        let exp = expectation(&text, &name);
        let src = SourceFile::new(name.clone(), text);
        let result = match f.extension().and_then(|e| e.to_str()) {
            Some("mcrl2") => parse_spec(&src).map(|_| ()),
            Some("mcf") => parse_formula_spec(&src).map(|_| ()),
            Some("pbes") => parse_pbes(&src).map(|_| ()),
            _ => continue,
        };
        checked += 1;
        match result {
            Ok(()) => failures.push(format!("{name}: parsed, but should fail")),
            Err(e) => {
                let (l, c) = e.line_col();
                if (l, c) != (exp.line, exp.column)
                    || !e.message().contains(&exp.message)
                    || e.kind() != exp.kind
                {
                    failures.push(format!(
                        "{name}: got {l}:{c} {:?} {:?}, expected {}:{} {:?} containing {:?}",
                        e.kind(),
                        e.message(),
                        exp.line,
                        exp.column,
                        exp.kind,
                        exp.message
                    ));
                }
            }
        }
    }
    assert!(checked >= 25, "only {checked} malformed fixtures");
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A syntax error just after a multi-byte character is reported, not a panic (found by the
/// `pbes_text` fuzz target: a comment ending in `ğ` at the end of the input).
#[test]
fn an_error_after_a_multibyte_character_is_reported() {
    for text in [
        "% expect: 3:1 unexpected `init`; expected\u{5df}\u{11f}",
        "% ğ",
        "init ğ",
        "pbes ğinit",
        "ğ",
    ] {
        let src = SourceFile::new("fuzz.txt".to_string(), text.to_string());
        assert!(parse_pbes(&src).is_err(), "{text:?}");
        assert!(parse_spec(&src).is_err(), "{text:?}");
        assert!(parse_formula_spec(&src).is_err(), "{text:?}");
    }
}
