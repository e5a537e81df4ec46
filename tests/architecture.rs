//! The architecture invariants of ARCHITECTURE.md, checked on the source tree:
//! - the dependency order between the top-level modules of `src/` (a module uses only
//!   modules before it in [`ORDER`]), read from every `crate::` path in the code;
//! - every source file starts with a `//!` comment saying what it owns;
//! - every source file stays within [`LINE_BUDGET`] lines unless [`OVERSIZE`] lists it with a
//!   reason.
//!
//! The exception tables fail when stale, so they shrink as the code is fixed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The top-level modules, lowest first: each may use only those before it.
const ORDER: &[&str] = &[
    "budget", "source", "artifact", "progress", "bes", "syntax", "data", "process", "modal", "lps",
    "lts", "distrib", "reduce", "pbes", "print", "evidence", "monitor", "product", "check", "sim",
    "cli",
];

/// Uses the order would allow but that may never be: (module, module it must not use, why).
/// They keep a stage free of knowledge that belongs to another, which a linear order
/// alone cannot say.
const NEVER: &[(&str, &str, &str)] = &[
    (
        "monitor",
        "pbes",
        "the monitor builds no PBES; formula normalisation lives in modal",
    ),
    (
        "reduce",
        "modal",
        "reduction knows no formulas; which formulas a quotient preserves is modal's",
    ),
];

/// Files exempt from the order: the crate root and the binary's entry point.
const ROOTS: &[&str] = &["lib.rs", "main.rs"];

/// Lines per file beyond which a file must be split or listed in [`OVERSIZE`].
const LINE_BUDGET: usize = 1000;

/// Uses that break the order today: (file under `src/`, module it uses, why it is still so).
const KNOWN_VIOLATIONS: &[(&str, &str, &str)] = &[];

/// Files over [`LINE_BUDGET`] today: (file under `src/`, why it is not split yet).
const OVERSIZE: &[(&str, &str)] = &[];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `src/`-relative path with `/` separators.
fn rel(p: &Path) -> String {
    p.strip_prefix(src())
        .expect("under src/")
        .to_string_lossy()
        .replace('\\', "/")
}

/// The top-level module a file belongs to (`data` for `data/rewrite.rs` and `data.rs`).
fn module_of(rel: &str) -> &str {
    let first = rel.split('/').next().expect("non-empty path");
    first.strip_suffix(".rs").unwrap_or(first)
}

/// The code of a file without comments and string literals, so that `crate::` in a doc
/// comment or a message is not taken for a use.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if b[i] == b'\'' && b.get(i + 2) == Some(&b'\'') {
            i += 3; // a char literal such as '"'
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// The top-level modules a file names through `crate::X` (also `crate::{X, …}`).
fn uses(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        if i > 0 {
            let prev = code.as_bytes()[i - 1];
            if prev.is_ascii_alphanumeric() || prev == b'_' || prev == b'$' {
                continue; // `$crate::` in a macro or part of a longer name
            }
        }
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for part in group[..end].split(',') {
                let name = ident(part.trim());
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn rank(module: &str) -> Option<usize> {
    ORDER.iter().position(|m| *m == module)
}

#[test]
fn modules_use_only_modules_below_them() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut broken = Vec::new();
    let mut seen_known = BTreeSet::new();
    for f in &files {
        let r = rel(f);
        if ROOTS.contains(&r.as_str()) {
            continue;
        }
        let from = module_of(&r);
        let Some(from_rank) = rank(from) else {
            broken.push(format!(
                "{r}: module `{from}` has no place in ORDER; add it (and to ARCHITECTURE.md)"
            ));
            continue;
        };
        let text = std::fs::read_to_string(f).expect("readable source");
        for to in uses(&code_only(&text)) {
            if to == from {
                continue;
            }
            let Some(to_rank) = rank(&to) else {
                broken.push(format!(
                    "{r}: uses `crate::{to}`, which has no place in ORDER"
                ));
                continue;
            };
            if let Some((_, _, why)) = NEVER.iter().find(|(a, b, _)| *a == from && *b == to) {
                broken.push(format!(
                    "{r}: `{from}` uses `{to}`, which it never may: {why}"
                ));
                continue;
            }
            if to_rank < from_rank {
                continue;
            }
            if KNOWN_VIOLATIONS
                .iter()
                .any(|(file, m, _)| *file == r && *m == to)
            {
                seen_known.insert((r.clone(), to.clone()));
                continue;
            }
            broken.push(format!(
                "{r}: `{from}` uses `{to}`, which stands above it in ORDER ({})",
                ORDER.join(" < ")
            ));
        }
    }
    for (file, m, _) in KNOWN_VIOLATIONS {
        if !seen_known.contains(&(file.to_string(), m.to_string())) {
            broken.push(format!(
                "KNOWN_VIOLATIONS lists {file} -> {m}, which no longer occurs: remove the entry"
            ));
        }
    }
    assert!(broken.is_empty(), "\n{}", broken.join("\n"));
}

#[test]
fn every_file_says_what_it_owns_and_stays_within_budget() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut broken = Vec::new();
    let mut listed = BTreeSet::new();
    for f in &files {
        let r = rel(f);
        let text = std::fs::read_to_string(f).expect("readable source");
        if !text.trim_start().starts_with("//!") {
            broken.push(format!(
                "{r}: starts without a `//!` comment saying what it owns"
            ));
        }
        let lines = text.lines().count();
        let exempt = OVERSIZE.iter().any(|(file, _)| *file == r);
        if exempt {
            listed.insert(r.clone());
            if lines <= LINE_BUDGET {
                broken.push(format!(
                    "{r}: {lines} lines, within the budget now: remove it from OVERSIZE"
                ));
            }
        } else if lines > LINE_BUDGET {
            broken.push(format!(
                "{r}: {lines} lines, over the budget of {LINE_BUDGET}: split it along its seams \
                 (or list it in OVERSIZE with a reason)"
            ));
        }
    }
    for (file, _) in OVERSIZE {
        if !listed.contains(*file) {
            broken.push(format!(
                "OVERSIZE lists {file}, which does not exist: remove it"
            ));
        }
    }
    assert!(broken.is_empty(), "\n{}", broken.join("\n"));
}

#[test]
fn architecture_md_states_the_same_order() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .expect("ARCHITECTURE.md");
    let line = ORDER.join(" < ");
    assert!(
        doc.contains(&line),
        "ARCHITECTURE.md must state the dependency order `{line}`"
    );
}
