//! What the evidence and monitor tests share: random specifications, and the PBES route's
//! verdict with the evidence of its early stop (the route `check` takes by default).

use muon::bes::SolverKind;
use muon::evidence::Evidence;
use muon::lps::Lps;
use muon::modal::ir::FormulaSpec;
use muon::pbes::inst::InstOptions;
use muon::pbes::ir::Pbes;
use muon::pbes::lps2pbes::{lps2pbes_with, Lps2PbesOptions};
use muon::pbes::solve::{solve_pbes, SolveOutcome};
use muon::process::ir::ProcSpec;
use muon::source::SourceFile;
use proptest::prelude::*;

/// The type-checked specification of `src` (panics with the diagnostic).
pub fn spec_of(src: &str) -> ProcSpec {
    muon::process::typecheck::check_specification(&SourceFile::new("m.mcrl2", src))
        .unwrap_or_else(|e| panic!("{e:?}\n{src}"))
}

/// A random process over `n: Nat` in 0..4 with actions a, b and e(Nat), deadlocks
/// possible.
pub fn random_spec() -> impl Strategy<Value = String> {
    let summand = (0u8..4, 0u8..3, 0u8..4, any::<bool>()).prop_map(|(from, act, to, sum)| {
        if sum {
            format!("sum d: Nat . (d < 2 && n == {from}) -> e(d) . P((d + {to}) mod 4)")
        } else {
            let a = ["a", "b", "a|b"][act as usize];
            format!("(n == {from}) -> {a} . P({to})")
        }
    });
    prop::collection::vec(summand, 1..6).prop_map(|ss| {
        format!(
            "act a, b; e: Nat;\nproc P(n: Nat) = {};\ninit P(0);\n",
            ss.join("\n  + ")
        )
    })
}

/// The PBES of `f` on `lps` with counterexample information, solved with the early stop
/// as `check` solves it, and the evidence read off it.
pub fn pbes_evidence(lps: &Lps, f: &FormulaSpec) -> (Pbes, SolveOutcome, Evidence) {
    let pbes = lps2pbes_with(
        lps,
        f,
        Lps2PbesOptions {
            counter_example: true,
        },
    )
    .unwrap();
    let opts = InstOptions {
        keep_origins: true,
        ..InstOptions::default()
    };
    let out = solve_pbes(&pbes, &opts, SolverKind::Zielonka, true).unwrap();
    let ev = muon::evidence::read(
        lps,
        &pbes,
        &out.inst,
        out.game.as_ref().map(|(g, s)| (g, s)),
        out.value,
        true,
    )
    .unwrap_or_else(|e| panic!("evidence of the early stop: {e}"));
    (pbes, out, ev)
}
