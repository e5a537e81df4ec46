//! The type checker never panics: corpus models with identifiers swapped (which keeps them
//! parseable but ill-typed in many ways) are checked, and every failure carries at least one
//! positioned message.

#[cfg(feature = "corpus")]
#[path = "shared_corpus/mod.rs"]
mod shared_corpus;

use std::path::{Path, PathBuf};

use muon::process::typecheck::check_specification;
use muon::source::SourceFile;

fn models() -> Vec<PathBuf> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "mcrl2") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    #[cfg(feature = "corpus")]
    walk(&shared_corpus::dir(), &mut out);
    walk(&root.join("fixtures/typecheck"), &mut out);
    out.sort();
    out
}

/// The identifiers of `text` with their byte ranges (comments skipped).
fn identifiers(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'\'') {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

#[test]
fn swapped_identifiers_never_panic() {
    let mut seed: u64 = 0x5eed_1234;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let mut checked = 0;
    for m in models() {
        let text = std::fs::read_to_string(&m).unwrap();
        let ids = identifiers(&text);
        if ids.len() < 2 {
            continue;
        }
        for _ in 0..8 {
            let (s, e) = ids[next() % ids.len()];
            let (s2, e2) = ids[next() % ids.len()];
            let mut mutated = String::new();
            mutated.push_str(&text[..s]);
            mutated.push_str(&text[s2..e2]);
            mutated.push_str(&text[e..]);
            let src = SourceFile::new(m.display().to_string(), mutated);
            let r = std::panic::catch_unwind(|| check_specification(&src).map(|_| ()));
            match r {
                Err(_) => panic!(
                    "type checker panicked on {} with `{}` at byte {s} replaced by `{}`",
                    m.display(),
                    &text[s..e],
                    &text[s2..e2]
                ),
                Ok(Err(d)) => assert!(!d.messages().is_empty()),
                Ok(Ok(())) => {}
            }
            checked += 1;
        }
    }
    assert!(checked > 0);
}
