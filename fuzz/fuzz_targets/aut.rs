//! Fuzzes the Aldebaran (`.aut`) reader, labels included.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(lts) = muon::lts::aut::parse_aut(text, "fuzz.aut") {
        for l in &lts.labels {
            let _ = l.parts();
        }
    }
});
