//! `modal::preserve`, the formulas `muon check --reduce` accepts: the consensus formulas
//! and the textbook cases are classified as intended, and on random LTSs (with tau-cycles)
//! every random formula the fragment accepts has the same verdict on the LTS and on its
//! quotient modulo branching and divergence-preserving branching bisimulation (and every
//! formula, modulo strong bisimulation).

use muon::bes::SolverKind;
use muon::check::preserved_by;
use muon::lts::typed::type_labels;
use muon::lts::{Label, LabelId, Lts, StateId, Transition};
use muon::modal::ir::FormulaSpec;
use muon::modal::preserve::{check_preserved, Reason};
use muon::modal::typecheck::check_formula;
use muon::pbes::inst::InstOptions;
use muon::pbes::lts2pbes::lts2pbes;
use muon::pbes::solve::solve_pbes;
use muon::process::ir::ProcSpec;
use muon::process::typecheck::check_specification;
use muon::reduce::{partition, quotient, Bisimulation};
use muon::source::SourceFile;
use proptest::prelude::*;

mod reduce_common;
use reduce_common::Shape;

fn spec() -> ProcSpec {
    let src = SourceFile::new(
        String::from("spec.mcrl2"),
        String::from("act a, b: Nat # Nat; c, d; init delta;"),
    );
    check_specification(&src).expect("spec")
}

fn formula(spec: &ProcSpec, text: &str) -> FormulaSpec {
    check_formula(
        &SourceFile::new(String::from("f.mcf"), text.to_string()),
        spec,
    )
    .unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

fn verdict(spec: &ProcSpec, lts: &Lts, f: &FormulaSpec) -> bool {
    let labels = type_labels(lts, &spec.actions, &mut |_, _| Err("no data".into())).unwrap();
    let pbes = lts2pbes(lts, &labels, &spec.data, f).unwrap();
    solve_pbes(&pbes, &InstOptions::default(), SolverKind::Zielonka, false)
        .unwrap()
        .value
}

fn classify(text: &str) -> Result<(), Reason> {
    let s = spec();
    check_preserved(
        &formula(&s, text).formula,
        preserved_by(Bisimulation::Branching),
    )
    .map_err(|e| e.reason)
}

#[test]
fn consensus_formulas_are_classified() {
    // Agreement, validity and integrity (formulas/consensus_*): accepted.
    for f in [
        "[true*] forall p, v: Nat . [a(p, v)] [true*] forall p', v': Nat . [a(p', v')] val(v == v')",
        "[true*] forall p, v: Nat . [a(p, v)] val(v == 7 || v == 5)",
        "[true*] forall p, v: Nat . [a(p, v)] [true*] forall v': Nat . [a(p, v')] false",
        "[true* . c . true* . d] false",
        "<true* . c> <true*> <d> true",
        "nu X . [true* . c] X && [true*] (val(true) || [d] false)",
        "[(!c)*] <true* . d> true",
    ] {
        assert_eq!(classify(f), Ok(()), "{f}");
    }
    // Termination (a single step that may be tau, inside a fixpoint) and the like: refused.
    for (f, why) in [
        (
            "forall p: Nat . val(p < 3) => (mu X . ([!(c || d)] X && <true> true))",
            Reason::SeesTau,
        ),
        ("<true> true", Reason::SeesTau),
        ("[tau] false", Reason::SeesTau),
        ("[c] false", Reason::UnguardedStep),
        ("<true*> [c] false", Reason::UnguardedStep),
        ("[true* . c . d] false", Reason::SeesTau),
        ("<true*> (<c> true && <d> true)", Reason::SplitSteps),
        ("[true*] ([c] false || [d] false)", Reason::SplitSteps),
        ("[true*] nu X . [c] X", Reason::UnguardedStep),
    ] {
        assert_eq!(classify(f), Err(why), "{f}");
    }
}

/// `tau . 0` and `0` are branching bisimilar, and `<true>true` tells them apart: the
/// reason single steps that may be tau are refused.
#[test]
fn a_tau_step_is_observable() {
    let s = spec();
    let f = formula(&s, "<true> true");
    let lts = Lts {
        initial: StateId(0),
        num_states: 2,
        labels: vec![Label::tau()],
        transitions: vec![Transition {
            from: StateId(0),
            label: LabelId(0),
            to: StateId(1),
        }],
    };
    let q = quotient(
        &lts,
        &partition(&lts, Bisimulation::Branching),
        Bisimulation::Branching,
    );
    assert_eq!(q.num_states, 1);
    assert!(verdict(&s, &lts, &f));
    assert!(!verdict(&s, &q, &f));
}

/// An LTS over `tau`, `c`, `d` (tau drawn most often).
fn arb_lts() -> impl Strategy<Value = Lts> {
    reduce_common::arb_lts(Shape {
        max_states: 7,
        max_transitions: 14,
        tau_weight: 3,
        actions: &["c", "d"],
        random_initial: false,
    })
}

/// Builds a formula from `choices`: modalities over tau-closed, visible-ended and
/// single-step regular formulas (some of them tau-sensitive), junctions, negations and
/// fixpoints.
struct Gen<'a> {
    choices: &'a [u8],
    at: usize,
}

impl Gen<'_> {
    fn next(&mut self, n: u8) -> u8 {
        let c = self.choices.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        c % n
    }

    fn reg(&mut self) -> &'static str {
        const REGS: [&str; 12] = [
            "true*",
            "true* . c",
            "true* . d . true*",
            "(!c)*",
            "c",
            "d",
            "c + d",
            "true",
            "tau",
            "!c",
            "true* . c . d",
            "(c + tau)* . d",
        ];
        REGS[self.next(REGS.len() as u8) as usize]
    }

    /// A state formula; `vars` fixpoint variables are in scope (positively).
    fn state(&mut self, depth: u32, vars: u32, negatable: bool) -> String {
        let leaf = depth == 0;
        match self.next(if leaf { 3 } else { 9 }) {
            0 => "true".into(),
            1 => "false".into(),
            2 if vars > 0 => format!("X{}", self.next(vars as u8)),
            2 => "true".into(),
            3 => format!(
                "({} && {})",
                self.state(depth - 1, vars, negatable),
                self.state(depth - 1, vars, negatable)
            ),
            4 => format!(
                "({} || {})",
                self.state(depth - 1, vars, negatable),
                self.state(depth - 1, vars, negatable)
            ),
            5 => format!("[{}]{}", self.reg(), self.state(depth - 1, vars, negatable)),
            6 => format!("<{}>{}", self.reg(), self.state(depth - 1, vars, negatable)),
            7 if negatable && vars == 0 => {
                format!("!({})", self.state(depth - 1, 0, negatable))
            }
            _ => {
                let fix = if self.next(2) == 0 { "mu" } else { "nu" };
                format!(
                    "({fix} X{vars} . {})",
                    self.state(depth - 1, vars + 1, false)
                )
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn accepted_formulas_keep_their_verdict(
        lts in arb_lts(),
        choices in prop::collection::vec(any::<u8>(), 40),
    ) {
        let s = spec();
        let text = Gen { choices: &choices, at: 0 }.state(4, 0, true);
        let f = formula(&s, &text);
        let original = verdict(&s, &lts, &f);
        for kind in [Bisimulation::Strong, Bisimulation::Branching, Bisimulation::DivergenceBranching] {
            if check_preserved(&f.formula, preserved_by(kind)).is_ok() {
                let q = quotient(&lts, &partition(&lts, kind), kind);
                prop_assert_eq!(verdict(&s, &q, &f), original, "{:?} on {}", kind, text);
            }
        }
    }
}
