//! Fuzzes the specification reader through the type checker and the linearizer: the corpus
//! is seeded with well-formed models (`scripts/fuzz` copies fixtures and the shared corpus),
//! so each mutation is one step away from a valid specification.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muon::lps::linearise::{linearise, LineariseOptions};
use muon::process::typecheck::check_specification;
use muon::source::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = SourceFile::new("fuzz.mcrl2".to_string(), text.to_string());
    let Ok(spec) = check_specification(&src) else {
        return;
    };
    // Linearisation of a large input may legitimately take long; small ones must not.
    if text.len() <= 4096 {
        let _ = linearise(&spec, LineariseOptions::default());
    }
});
