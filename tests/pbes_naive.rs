//! The instantiation engine against its naive reference ([`muon::pbes::inst::naive`]) on
//! random small PBESs: alternating fixpoints, Bool/Nat/struct parameters, data conditions,
//! implications and quantifiers over finite sorts (written to exercise the engine's
//! one-point rule, distribution and guards). Every solver and early-stop setting must give
//! the reference's value.

use muon::bes::SolverKind;
use muon::pbes::inst::{naive, InstOptions};
use muon::pbes::solve::solve_pbes;
use muon::source::SourceFile;
use proptest::prelude::*;

/// A small deterministic generator (xorshift), so a failing case is its seed.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// Variables in scope: Bool and D names (the parameters plus bound variables).
struct Scope {
    bools: Vec<String>,
    ds: Vec<String>,
    fresh: usize,
}

fn nat_arg(g: &mut Gen) -> String {
    g.pick(&[
        "n",
        "(n + 1) mod 3",
        "0",
        "2",
        "(n + 2) mod 3",
        "if(b, n, 1)",
    ])
    .to_string()
}

fn bool_expr(g: &mut Gen, s: &Scope) -> String {
    let b = &s.bools[g.below(s.bools.len())];
    let d = &s.ds[g.below(s.ds.len())];
    match g.below(6) {
        0 => b.clone(),
        1 => format!("!{b}"),
        2 => format!("n < {}", g.below(3)),
        3 => format!("{d} == {}", g.pick(&["d1", "d2", "d3"])),
        4 => format!("({b} && n == {})", g.below(3)),
        _ => format!("{d} != {}", s.ds[g.below(s.ds.len())]),
    }
}

fn prop_var(g: &mut Gen, s: &Scope, eqs: usize) -> String {
    let b = s.bools[g.below(s.bools.len())].clone();
    let d = s.ds[g.below(s.ds.len())].clone();
    let b = match g.below(3) {
        0 => format!("!{b}"),
        1 => g.pick(&["true", "false"]).to_string(),
        _ => b,
    };
    let d = if g.below(3) == 0 {
        g.pick(&["d1", "d2", "d3"]).to_string()
    } else {
        d
    };
    format!("X{}({}, {b}, {d})", g.below(eqs), nat_arg(g))
}

fn rhs(g: &mut Gen, s: &mut Scope, eqs: usize, depth: usize) -> String {
    let k = if depth == 0 { g.below(4) } else { g.below(11) };
    match k {
        0 => g.pick(&["true", "false"]).to_string(),
        1 => format!("val({})", bool_expr(g, s)),
        2 | 3 => prop_var(g, s, eqs),
        4 | 5 => {
            let op = g.pick(&["&&", "||"]);
            let a = rhs(g, s, eqs, depth - 1);
            let b = rhs(g, s, eqs, depth - 1);
            format!("({a} {op} {b})")
        }
        6 => {
            let c = bool_expr(g, s);
            let a = rhs(g, s, eqs, depth - 1);
            format!("(val({c}) => {a})")
        }
        7 => {
            let c = bool_expr(g, s);
            let a = rhs(g, s, eqs, depth - 1);
            format!("(!val({c}) || {a})")
        }
        _ => {
            // A quantifier over Bool or D; often with a guard that fixes its variable, so
            // the engine's one-point rule and distribution get exercised.
            s.fresh += 1;
            let forall = g.below(2) == 0;
            let q = if forall { "forall" } else { "exists" };
            let is_bool = g.below(2) == 0;
            let (v, sort) = if is_bool {
                (format!("c{}", s.fresh), "Bool")
            } else {
                (format!("e{}", s.fresh), "D")
            };
            let other = if is_bool {
                s.bools[g.below(s.bools.len())].clone()
            } else {
                s.ds[g.below(s.ds.len())].clone()
            };
            if is_bool {
                s.bools.push(v.clone());
            } else {
                s.ds.push(v.clone());
            }
            let body = rhs(g, s, eqs, depth - 1);
            if is_bool {
                s.bools.pop();
            } else {
                s.ds.pop();
            }
            let guard = match (g.below(3), forall) {
                (0, true) => format!("val({v} == {other}) => "),
                (0, false) => format!("val({v} == {other}) && "),
                (1, true) => format!("val({v} != {other}) || "),
                _ => String::new(),
            };
            format!("({q} {v}: {sort} . {guard}{body})")
        }
    }
}

/// A random PBES in mCRL2's textual format.
fn random_pbes(seed: u64) -> String {
    let mut g = Gen(seed | 1);
    let eqs = 1 + g.below(4);
    let mut text = String::from("sort D = struct d1 | d2 | d3;\n\npbes\n");
    for i in 0..eqs {
        let mut s = Scope {
            bools: vec!["b".into()],
            ds: vec!["d".into()],
            fresh: 0,
        };
        let fix = g.pick(&["mu", "nu"]);
        let r = rhs(&mut g, &mut s, eqs, 3);
        text.push_str(&format!("  {fix} X{i}(n: Nat, b: Bool, d: D) = {r};\n"));
    }
    text.push_str(&format!(
        "\ninit X0({}, {}, {});\n",
        g.below(3),
        g.pick(&["true", "false"]),
        g.pick(&["d1", "d2", "d3"])
    ));
    text
}

fn check(seed: u64) {
    let text = random_pbes(seed);
    let src = SourceFile::new("random.pbes", text.clone());
    let pbes = muon::pbes::typecheck::check_pbes(&src)
        .unwrap_or_else(|e| panic!("generated PBES does not type-check: {e:?}\n{text}"));
    let expected = naive::solve(&pbes, 100_000).unwrap_or_else(|e| panic!("naive: {e}\n{text}"));
    for solver in [SolverKind::Zielonka, SolverKind::Gauss] {
        for early in [false, true] {
            for keep_origins in [false, true] {
                let opts = InstOptions {
                    keep_origins,
                    ..InstOptions::default()
                };
                let out = solve_pbes(&pbes, &opts, solver, early)
                    .unwrap_or_else(|e| panic!("engine: {e}\n{text}"));
                assert_eq!(
                    out.value, expected,
                    "engine ({solver:?}, early stop {early}, origins {keep_origins}) disagrees \
                     with the naive reference on seed {seed}:\n{text}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn engine_agrees_with_the_naive_reference(seed in any::<u64>()) {
        check(seed);
    }
}

#[test]
fn a_fixed_example() {
    // nu X(n) = X((n + 1) mod 3) && val(n < 3): true; the reference and the engine agree.
    let text = "pbes nu X(n: Nat) = X((n + 1) mod 3) && val(n < 3);\ninit X(0);\n";
    let pbes = muon::pbes::typecheck::check_pbes(&SourceFile::new("x", text)).unwrap();
    assert!(naive::solve(&pbes, 100).unwrap());
    let text = "pbes mu X(n: Nat) = X((n + 1) mod 3);\ninit X(0);\n";
    let pbes = muon::pbes::typecheck::check_pbes(&SourceFile::new("x", text)).unwrap();
    assert!(!naive::solve(&pbes, 100).unwrap());
}

#[test]
fn the_generator_covers_both_verdicts_and_quantifiers() {
    let (mut t, mut f, mut q) = (0, 0, 0);
    for seed in 1..200u64 {
        let text = random_pbes(seed * 7919);
        q += usize::from(text.contains("forall") || text.contains("exists"));
        let pbes = muon::pbes::typecheck::check_pbes(&SourceFile::new("r", text)).unwrap();
        if naive::solve(&pbes, 100_000).unwrap() {
            t += 1;
        } else {
            f += 1;
        }
    }
    assert!(
        t >= 40 && f >= 40 && q >= 80,
        "true {t}, false {f}, with quantifiers {q}"
    );
}

#[test]
fn a_data_side_that_decides_stops_instantiation() {
    // Found by scripts/differential-random: evaluating `X(n + 1)` before the condition that
    // rules it out created X(4), X(5), … without end.
    let text = "pbes nu X(n: Nat) = X(n) || (exists v: Bool . val(n < 3 && v) && X(n + 1));\n\
                init X(0);\n";
    let pbes = muon::pbes::typecheck::check_pbes(&SourceFile::new("x", text)).unwrap();
    let opts = InstOptions {
        max_vars: 1000,
        ..InstOptions::default()
    };
    for early in [false, true] {
        let out = solve_pbes(&pbes, &opts, SolverKind::Zielonka, early).unwrap();
        assert!(out.value);
    }
    // The naive reference instantiates every occurrence, so it cannot end here.
    assert!(naive::solve(&pbes, 1000).is_err());
    // The same without a quantifier: mCRL2's pbesinst gives X(0) … X(3), so does muon.
    let text = "pbes nu X(n: Nat) = X(n + 1) && val(n < 3);\ninit X(0);\n";
    let pbes = muon::pbes::typecheck::check_pbes(&SourceFile::new("x", text)).unwrap();
    let out = solve_pbes(&pbes, &opts, SolverKind::Zielonka, false).unwrap();
    assert!(!out.value);
    assert_eq!(out.inst.stats.instances, 4);
}
