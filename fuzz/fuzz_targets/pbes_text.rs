//! Fuzzes the textual PBES reader and the PBES type checker (`txt2pbes`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use muon::pbes::typecheck::check_pbes;
use muon::source::SourceFile;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = check_pbes(&SourceFile::new("fuzz.txt".to_string(), text.to_string()));
});
