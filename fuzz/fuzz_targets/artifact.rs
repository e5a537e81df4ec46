//! Fuzzes every binary artifact reader (LPS, LTS, PBES, BES): header, payload and the
//! invariants checked on reading. The first byte picks the reader.
#![no_main]

use libfuzzer_sys::fuzz_target;
use muon::artifact::Artifact;

fuzz_target!(|data: &[u8]| {
    let Some((&which, bytes)) = data.split_first() else {
        return;
    };
    match which % 4 {
        0 => drop(muon::lps::Lps::decode_artifact(bytes, "fuzz.lps")),
        1 => drop(muon::lts::Lts::decode_artifact(bytes, "fuzz.lts")),
        2 => drop(muon::pbes::io::PbesFile::decode_artifact(bytes, "fuzz.pbes")),
        _ => drop(muon::bes::Bes::decode_artifact(bytes, "fuzz.bes")),
    }
});
