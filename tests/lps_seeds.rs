//! The thesis seed models linearise (D.1, A.1, B.1 and variants). How fast is measured by
//! `scripts/`, not here: a wall-clock bound fails on a loaded machine.

use std::path::PathBuf;

use muon::lps::{linearise, LineariseOptions};
use muon::process::typecheck::check_specification;
use muon::source::SourceFile;

fn lin(name: &str) -> muon::lps::Lps {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("lps")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let spec = match check_specification(&SourceFile::new(name, text)) {
        Ok(s) => s,
        Err(d) => panic!("{name}: {:?}", miette::Report::new(d)),
    };
    linearise(&spec, LineariseOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn d1_failure_detector_linearises_without_sums_over_nat() {
    for name in [
        "D1_failure_detector_typeI.mcrl2",
        "D1_failure_detector_typeB.mcrl2",
        "D1_failure_detector_typeR.mcrl2",
    ] {
        let lps = lin(name);
        assert!(!lps.summands.is_empty());
        for s in &lps.summands {
            assert!(
                s.sum_vars
                    .iter()
                    .all(|v| v.sort != muon::data::ir::Sort::Nat),
                "{name}: sum over Nat left in {}",
                s.origin.description
            );
        }
    }
}

#[test]
fn a1_binary_heartbeat_linearises() {
    let lps = lin("A1_binary_heartbeat.mcrl2");
    // every summand's multi-action is allowed: single actions only (the allow set has no
    // multi-actions), tick_123 among them
    assert!(lps.summands.iter().any(|s| matches!(&s.action,
        muon::lps::SummandAction::Multi(a) if a.len() == 1 && &*a[0].name == "tick_123")));
    assert!(lps.summands.iter().all(|s| matches!(&s.action,
        muon::lps::SummandAction::Multi(a) if a.len() <= 1)));
}

#[test]
fn b1_consensus_linearises() {
    let lps = lin("B1_consensus.mcrl2");
    for s in &lps.summands {
        assert!(
            s.sum_vars.iter().all(|v| !matches!(
                v.sort,
                muon::data::ir::Sort::Nat | muon::data::ir::Sort::List(_)
            )),
            "sum over an infinite sort left in {}",
            s.origin.description
        );
    }
}
