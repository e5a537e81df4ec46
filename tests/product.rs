//! `check --engine product` (`muon::product`): the parity game of the LPS and the formula,
//! built on the fly, gives the PBES route's verdict on random LPSs and random formulas
//! (alternating fixpoints, fixpoints with data parameters, quantifiers bound by labels and
//! by data guards), and evidence for both verdicts that the independent checker confirms:
//! shortest counterexamples for safety, lassos where the proof is infinite.

#[path = "cli_common/mod.rs"]
mod cli_common;
mod evidence_common;
use evidence_common::{pbes_evidence, random_spec, spec_of};

use muon::bes::SolverKind;
use muon::evidence::check::check_evidence;
use muon::lps::{linearise, LineariseOptions, Lps};
use muon::modal::ir::FormulaSpec;
use muon::process::ir::ProcSpec;
use muon::product::{check, Outcome, ProductError, ProductOptions, Search};
use muon::source::SourceFile;
use proptest::prelude::*;

fn formula_of(spec: &ProcSpec, text: &str) -> FormulaSpec {
    muon::modal::typecheck::check_formula(&SourceFile::new("f.mcf", text), spec)
        .unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

fn product(lps: &Lps, f: &FormulaSpec) -> Result<Outcome, ProductError> {
    check(lps, f, &ProductOptions::default())
}

/// The product with constant propagation looking from the fourth vertex on, so that the
/// small random games stop early too when their verdict is forced.
fn product_early(lps: &Lps, f: &FormulaSpec) -> Result<Outcome, ProductError> {
    let opts = ProductOptions {
        first_check: 4,
        ..ProductOptions::default()
    };
    check(lps, f, &opts)
}

/// Random state formulas over the random specifications' actions, from a list of choices.
struct Gen<'a> {
    choices: &'a [u8],
    at: usize,
    fresh: usize,
    /// Only boxes, `&&` and `forall` (`Some(true)`), or only their duals: formulas in which
    /// one player alone chooses.
    only: Option<bool>,
}

impl Gen<'_> {
    fn pick(&mut self, n: usize) -> usize {
        let c = self.choices.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        c as usize % n
    }

    fn action(&mut self, data: &[String]) -> String {
        let mut options: Vec<String> = [
            "true",
            "a",
            "b",
            "!a",
            "e(0)",
            "e(1)",
            "a|b",
            "exists d: Nat . e(d)",
            "!(exists d: Nat . e(d))",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for d in data {
            options.push(format!("e({d})"));
            options.push(format!("!e({d})"));
        }
        let i = self.pick(options.len());
        options.swap_remove(i)
    }

    /// A quantifier over a fresh `d: Nat`, in scope in its body (a state formula of at most
    /// `depth - 1` operators), `forall` or `exists` at random, as `write(d, body, forall)`
    /// writes it.
    fn nat_quantifier(
        &mut self,
        depth: u32,
        fix: &mut Vec<(String, bool)>,
        data: &mut Vec<String>,
        write: fn(&str, &str, bool) -> String,
    ) -> String {
        let d = format!("d{}", self.fresh);
        self.fresh += 1;
        data.push(d.clone());
        let body = self.state(depth - 1, fix, data);
        data.pop();
        let forall = self.pick(2) == 0;
        write(&d, &body, self.only.unwrap_or(forall))
    }

    /// A state formula of at most `depth` operators with the fixpoint variables `fix` (name,
    /// has a parameter) and the data variables `data` in scope.
    fn state(
        &mut self,
        depth: u32,
        fix: &mut Vec<(String, bool)>,
        data: &mut Vec<String>,
    ) -> String {
        if depth == 0 {
            let mut leaves = vec!["true".to_string(), "false".to_string()];
            for (x, param) in fix.iter() {
                if *param {
                    leaves.push(format!("{x}((k + 1) mod 3)"));
                    leaves.push(format!("{x}(0)"));
                } else {
                    leaves.push(x.clone());
                    leaves.push(x.clone());
                }
            }
            for d in data.iter() {
                leaves.push(format!("val({d} < 1)"));
            }
            if data.contains(&"k".to_string()) {
                leaves.push("val(k == 2)".to_string());
            }
            let i = self.pick(leaves.len());
            return leaves.swap_remove(i);
        }
        let mut choice = self.pick(9);
        // Keep to one player's operators: `&&`/`||` (0/1), `[α]`/`<α>` (2/3), and the
        // quantifiers' kind (`write`'s flag, by `only`).
        if let Some(universal) = self.only {
            if choice <= 3 {
                choice = (choice & !1) | usize::from(!universal);
            }
        }
        match choice {
            0 => format!(
                "({} && {})",
                self.state(depth - 1, fix, data),
                self.state(depth - 1, fix, data)
            ),
            1 => format!(
                "({} || {})",
                self.state(depth - 1, fix, data),
                self.state(depth - 1, fix, data)
            ),
            2 => {
                let a = self.action(data);
                format!("[{a}]{}", self.state(depth - 1, fix, data))
            }
            3 => {
                let a = self.action(data);
                format!("<{a}>{}", self.state(depth - 1, fix, data))
            }
            4 | 5 => {
                let sigma = if self.pick(2) == 0 { "mu" } else { "nu" };
                let x = format!("X{}", self.fresh);
                self.fresh += 1;
                // A parameter once per formula (`k` is its only name).
                let param = !data.contains(&"k".to_string()) && self.pick(3) == 0;
                fix.push((x.clone(), param));
                if param {
                    data.push("k".to_string());
                }
                let body = self.state(depth - 1, fix, data);
                fix.pop();
                if param {
                    data.pop();
                    format!("({sigma} {x}(k: Nat = 0) . {body})")
                } else {
                    format!("({sigma} {x} . {body})")
                }
            }
            // Bound by the labels of the state's own transitions.
            6 => self.nat_quantifier(depth, fix, data, |d, body, forall| {
                if forall {
                    format!("(forall {d}: Nat . [e({d})]{body})")
                } else {
                    format!("(exists {d}: Nat . <e({d})>{body})")
                }
            }),
            // Bound by a data guard.
            7 => self.nat_quantifier(depth, fix, data, |d, body, forall| {
                if forall {
                    format!("(forall {d}: Nat . val({d} < 2) => {body})")
                } else {
                    format!("(exists {d}: Nat . val({d} < 2) && {body})")
                }
            }),
            _ => {
                // A quantifier over a finite sort.
                let d = format!("d{}", self.fresh);
                self.fresh += 1;
                let body = self.state(depth - 1, fix, data);
                let forall = self.pick(2) == 0;
                match self.only {
                    Some(true) => format!("(forall {d}: Bool . val({d}) || {body})"),
                    Some(false) => format!("(exists {d}: Bool . val({d}) && {body})"),
                    None if forall => format!("(forall {d}: Bool . val({d}) || {body})"),
                    None => format!("(exists {d}: Bool . val({d}) || {body})"),
                }
            }
        }
    }
}

/// Checks the product on `src` and `text` against the PBES route; `Err` for a refusal.
fn agrees(src: &str, text: &str) -> Result<(), TestCaseError> {
    let spec = spec_of(src);
    let lps = linearise(&spec, LineariseOptions { simplify: true }).unwrap();
    let f = formula_of(&spec, text);
    let (_, out, _) = pbes_evidence(&lps, &f);
    let p = match product(&lps, &f) {
        Ok(p) => p,
        Err(e) => {
            prop_assert!(false, "{}\n{}: {}", src, text, e);
            unreachable!()
        }
    };
    prop_assert_eq!(p.value, out.value, "{}\n{}", src, text);
    let ev = p.evidence.expect("asked for");
    prop_assert_eq!(ev.value, p.value);
    check_evidence(&lps, &f, &ev, SolverKind::Zielonka)
        .unwrap_or_else(|e| panic!("{src}\n{text}: {e}"));
    // Stopping as soon as the verdict is forced gives the same verdict, with evidence.
    let e = product_early(&lps, &f).unwrap_or_else(|e| panic!("{src}\n{text}: {e}"));
    prop_assert_eq!(e.value, out.value, "{}\n{}: early stop", src, text);
    check_evidence(
        &lps,
        &f,
        &e.evidence.expect("asked for"),
        SolverKind::Zielonka,
    )
    .unwrap_or_else(|e| panic!("{src}\n{text}: early stop: {e}"));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn the_product_gives_the_pbes_verdict_with_confirmed_evidence(
        src in random_spec(),
        choices in prop::collection::vec(any::<u8>(), 40),
        depth in 1u32..5,
    ) {
        let text = Gen { choices: &choices, at: 0, fresh: 0, only: None }.state(depth, &mut Vec::new(), &mut Vec::new());
        agrees(&src, &text)?;
    }
}

/// The one-player search (`product::cycles`) against the PBES route and the game, on
/// formulas where one player alone chooses (alternating fixpoints included); its own
/// evidence (a path or a lasso) confirmed by the independent checker.
fn one_player_agrees(src: &str, text: &str) -> Result<(), TestCaseError> {
    let spec = spec_of(src);
    let lps = linearise(&spec, LineariseOptions { simplify: true }).unwrap();
    let f = formula_of(&spec, text);
    let (_, out, _) = pbes_evidence(&lps, &f);
    let p = product(&lps, &f).unwrap_or_else(|e| panic!("{src}\n{text}: {e}"));
    prop_assert!(p.one_player, "{}: not searched by one player", text);
    prop_assert_eq!(p.value, out.value, "{}\n{}", src, text);
    let game = check(
        &lps,
        &f,
        &ProductOptions {
            search: Search::Game,
            ..ProductOptions::default()
        },
    )
    .unwrap_or_else(|e| panic!("{src}\n{text}: {e}"));
    prop_assert!(!game.one_player);
    prop_assert_eq!(game.value, p.value, "{}\n{}: the game", src, text);
    let ev = p.evidence.expect("asked for");
    prop_assert_eq!(ev.value, p.value);
    check_evidence(&lps, &f, &ev, SolverKind::Zielonka)
        .unwrap_or_else(|e| panic!("{src}\n{text}: {e}"));
    // Rings of one and two successor lists: frames leave them at once, spilling their
    // successors or generating them again; the verdict and the checked evidence stay.
    for (lists, spill) in [(1, true), (2, true), (2, false)] {
        let opts = ProductOptions {
            search: Search::Ring { lists, spill },
            ..ProductOptions::default()
        };
        let r = check(&lps, &f, &opts).unwrap_or_else(|e| panic!("{src}\n{text}: {e}"));
        prop_assert!(r.one_player);
        prop_assert_eq!(
            r.value,
            p.value,
            "{}\n{}: ring {} spill {}",
            src,
            text,
            lists,
            spill
        );
        let ev = r.evidence.expect("asked for");
        check_evidence(&lps, &f, &ev, SolverKind::Zielonka)
            .unwrap_or_else(|e| panic!("{src}\n{text}: ring {lists} spill {spill}: {e}"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn the_one_player_search_gives_the_game_verdict_with_confirmed_evidence(
        src in random_spec(),
        choices in prop::collection::vec(any::<u8>(), 40),
        depth in 1u32..6,
        universal in any::<bool>(),
    ) {
        let text = Gen { choices: &choices, at: 0, fresh: 0, only: Some(universal) }
            .state(depth, &mut Vec::new(), &mut Vec::new());
        one_player_agrees(&src, &text)?;
    }
}

const ONE_PLAYER: &[&str] = &[
    "nu X . mu Y . [a]X && [!a]Y",
    "mu X . nu Y . [a]X && [!a]Y",
    "nu X . mu Y . <a>X || <!a>Y",
    "mu X . nu Y . <a>X || <!a>Y",
    "[true*.e(1)](mu X . nu Y . ([b]X && [!b]Y))",
    "<true*.e(1)>(nu X . mu Y . (<b>X || <!b>Y))",
    "nu X . mu Y . nu Z . [a]X && [b]Y && [!(a || b)]Z",
    "mu X . nu Y . mu Z . <a>X || <b>Y || <!(a || b)>Z",
    "[true*]mu X . [!b]X",
    "forall k: Nat . val(k < 2) => [true*.e(k)]false",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, .. ProptestConfig::default() })]

    #[test]
    fn the_one_player_search_decides_nested_fixpoints(
        src in random_spec(),
        fi in 0..ONE_PLAYER.len(),
    ) {
        one_player_agrees(&src, ONE_PLAYER[fi])?;
    }
}

const FORMULAS: &[&str] = &[
    "[true*.a]false",
    "[true*]<true>true",
    "mu X . [true]X",
    "mu X . [!a]X && <true>true",
    "nu X . <true>X",
    "nu X . mu Y . [a]X && [!a]Y",
    "nu X . mu Y . <a>X || <!a>Y",
    "mu X . nu Y . [a]X && [!a]Y",
    "[true*.e(1)](mu X . nu Y . ([b]X && [!b]Y))",
    "forall k: Nat . val(k < 2) => [true*.e(k)]false",
    "exists k: Nat . val(k < 2) && <true*.e(k).true*.a>true",
    "[true*] forall p: Nat . [e(p)] val(p < 1)",
    "nu X(k: Nat = 0) . [a]X((k + 1) mod 2) && (val(k == 1) => <true>true)",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, .. ProptestConfig::default() })]

    #[test]
    fn the_product_decides_the_classic_properties(src in random_spec(), fi in 0..FORMULAS.len()) {
        agrees(&src, FORMULAS[fi])?;
    }
}

/// Random processes whose labels carry values under constructors (`data(n)`, and
/// `req(m)` also as `Wrap(m)`, a mapping whose equation makes it `req(m)`).
fn constructor_spec() -> impl Strategy<Value = String> {
    let summand = (0u8..5, 1u32..4).prop_map(|(kind, k)| match kind {
        0 => format!("(n < {k}) -> send(data(n)) . P(n = n + 1)"),
        1 => format!("(m < {k}) -> recv(Wrap(m)) . P(m = m + 1)"),
        2 => "send(ack) . P(n = 0)".to_string(),
        3 => format!("(n == {k}) -> tick . P(m = 0)"),
        _ => format!("(m > {k}) -> recv(data(m)) | send(req(n)) . P(n = m, m = 0)"),
    });
    prop::collection::vec(summand, 1..5).prop_map(|ss| {
        format!(
            "sort Msg = struct data(load: Nat) | ack | req(id: Nat);\n\
             map Wrap: Nat -> Msg;\n\
             var x: Nat;\n\
             eqn Wrap(x) = req(x);\n\
             act send, recv: Msg; tick;\n\
             proc P(n: Nat, m: Nat) =\n    {};\n\
             init P(0, 0);\n",
            ss.join("\n  + ")
        )
    })
}

/// Quantifiers that labels bind through constructors and through a mapping that rewrites
/// to one: the product takes them (no refusal) and agrees with the PBES route.
const CONSTRUCTOR_FORMULAS: &[&str] = &[
    "exists d: Nat . <send(data(d))>true",
    "[true*] forall d: Nat . [send(data(d))] val(d < 2)",
    "[true*] forall d: Nat . [recv(Wrap(d))] val(d < 2)",
    "<exists d: Nat . send(data(d)) && val(d > 0)>true",
    "[true*] <exists d: Nat . recv(req(d))>true",
    "mu X . [!(exists d: Nat . send(data(d)))]X && <true>true",
    "nu X . mu Y . [exists d: Nat . recv(Wrap(d)) && val(d > 0)]X && [!(exists d: Nat . recv(Wrap(d)) && val(d > 0))]Y",
    "[true* . (exists d: Nat . recv(data(d)) | send(req(d)))]false",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, .. ProptestConfig::default() })]

    #[test]
    fn labels_bind_quantifiers_through_constructors(
        src in constructor_spec(),
        fi in 0..CONSTRUCTOR_FORMULAS.len(),
    ) {
        agrees(&src, CONSTRUCTOR_FORMULAS[fi])?;
    }
}

#[test]
fn a_liveness_violation_is_a_lasso_the_checker_confirms() {
    // `a` forever, never `b`: "eventually b" fails on the cycle.
    let src =
        "act a, b;\nproc P(n: Nat) = (n < 2) -> a . P(n + 1) + (n == 2) -> a . P(1);\ninit P(0);\n";
    let spec = spec_of(src);
    let lps = linearise(&spec, LineariseOptions { simplify: true }).unwrap();
    let f = formula_of(&spec, "mu X . [!b]X && <true>true");
    let p = product(&lps, &f).unwrap();
    assert!(!p.value);
    let ev = p.evidence.unwrap();
    let k = ev.trace.loop_start.expect("a lasso");
    assert_eq!(ev.trace.steps.len(), 3, "{:?}", ev.trace.actions());
    assert_eq!(k, 1, "the cycle is P(1) -a-> P(2) -a-> P(1)");
    check_evidence(&lps, &f, &ev, SolverKind::Zielonka).unwrap();
}

#[test]
fn a_safety_counterexample_is_shortest() {
    let src =
        "act a, b;\nproc P(n: Nat) = (n < 5) -> b . P(n + 1) + (n == 3) -> a . P(0);\ninit P(0);\n";
    let spec = spec_of(src);
    let lps = linearise(&spec, LineariseOptions { simplify: true }).unwrap();
    let f = formula_of(&spec, "nu X . [a]false && [true]X");
    let p = product(&lps, &f).unwrap();
    assert!(!p.value);
    let ev = p.evidence.unwrap();
    assert_eq!(ev.trace.actions(), ["b", "b", "b", "a"]);
    assert_eq!(ev.trace.loop_start, None);
}

#[test]
fn a_quantifier_nothing_bounds_is_refused_while_exploring() {
    let src = "act a, b;\nproc P = a . P;\ninit P;\n";
    let spec = spec_of(src);
    let lps = linearise(&spec, LineariseOptions { simplify: true }).unwrap();
    let f = formula_of(&spec, "forall n: Nat . <a>val(n >= 0)");
    match product(&lps, &f) {
        Err(ProductError::Unsupported(why)) => assert!(why.contains("`n`"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn check_picks_the_engine_by_the_formula_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("m.mcrl2"),
        "act a, b;\nproc P(n: Nat) = (n < 2) -> a . P(n + 1) + (n == 2) -> b . P(0);\ninit P(0);\n",
    )
    .unwrap();
    std::fs::write(d.join("safe.mcf"), "[true*]<true>true").unwrap();
    std::fs::write(d.join("live.mcf"), "[true*](mu X . [!b]X && <true>true)").unwrap();
    std::fs::write(d.join("data.mcf"), "exists n: Nat . <a>val(n == 1)").unwrap();
    let (code, stdout, err) = cli_common::muon_in(
        d,
        // Without evidence: the PBES route decides `data.mcf` then (its `-c` equations
        // quantify over `n` where instantiation cannot).
        &[
            "check",
            "m.mcrl2",
            "-f",
            "safe.mcf",
            "-f",
            "live.mcf",
            "-f",
            "data.mcf",
            "-v",
            "--no-evidence",
        ],
    );
    assert_eq!(code, 0, "{stdout}\n{err}");
    assert!(err.contains("safe.mcf: engine explore"), "{err}");
    assert!(err.contains("live.mcf: engine product"), "{err}");
    assert!(
        err.contains("data.mcf: decided by the PBES route instead"),
        "{err}"
    );
    assert!(stdout.contains("live.mcf: true"), "{stdout}");
    assert!(stdout.contains("data.mcf: true"), "{stdout}");
    // JSON names the route.
    let (_, stdout, err) = cli_common::muon_in(
        d,
        &["check", "m.mcrl2", "-f", "live.mcf", "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_str(stdout.lines().next().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{err}"));
    assert_eq!(v["route"], "product");
    assert_eq!(v["verdict"], true);
    assert_eq!(v["verified"], true);
}

#[test]
fn a_verdict_forced_early_stops_the_game_and_keeps_its_evidence() {
    // 200,000 states in a line; `c` is possible at the tenth, so "eventually c is
    // possible" is decided long before the end, and "always eventually b" fails at the
    // deadlock of the line's end... which is far: that one is explored in full.
    let src = "act a, b, c;\nproc P(n: Nat) = (n < 200000) -> a . P(n + 1) + (n == 10) -> c . P(n);\ninit P(0);\n";
    let spec = spec_of(src);
    let lps = linearise(&spec, LineariseOptions { simplify: true }).unwrap();
    for (text, value) in [
        ("mu X . <c>true || <true>X", true),
        ("nu X . [c]false && [true]X", false),
    ] {
        let f = formula_of(&spec, text);
        let p = product(&lps, &f).unwrap();
        assert_eq!(p.value, value, "{text}");
        assert!(p.early, "{text}: {} states", p.states);
        assert!(p.states < 100_000, "{text}: {} states", p.states);
        let ev = p.evidence.unwrap();
        assert_eq!(ev.trace.steps.len(), 11, "{text}: {:?}", ev.trace.actions());
        check_evidence(&lps, &f, &ev, SolverKind::Zielonka).unwrap();
    }
}
