//! Fuzzes mCRL2's textual BES reader.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let _ = muon::bes::parse_bes_text(text, "fuzz.bes");
});
