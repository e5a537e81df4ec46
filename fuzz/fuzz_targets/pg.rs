//! Fuzzes the PGSolver parity-game (`.pg`) reader and the solution reader.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(game) = muon::bes::parse_pg(data, "fuzz.pg") {
        let _ = muon::bes::solve_zielonka(&game);
    }
    let _ = muon::bes::parse_paritysol(data, "fuzz.sol", 16);
});
