//! Every formula construct on small hand-checked LTSs and LPSs, through both routes:
//! lts2pbes (explicit LTS) and lps2pbes (a linear process with the same behaviour), each
//! instantiated and solved with Zielonka and Gauss, with and without early stopping.

use muon::bes::SolverKind;
use muon::data::ir::{DataExpr, DataSpec, Sort, Var};
use muon::data::ir_ops::{app, bool_lit, number};
use muon::lps::{Lps, Origin, Summand, SummandAction};
use muon::lts::{Label, LabelId, Lts, StateId, Transition};
use muon::modal::ir::{ActionFormula, FixpointVar, FormulaSpec, RegFormula, StateFormula};
use muon::pbes::inst::{InstError, InstOptions};
use muon::pbes::lps2pbes::lps2pbes;
use muon::pbes::lts2pbes::lts2pbes;
use muon::pbes::solve::solve_pbes;
use muon::process::ir::Action;

type F = StateFormula;

fn act(name: &str, args: Vec<DataExpr>) -> Action {
    Action {
        name: name.into(),
        sorts: args.iter().map(|a| a.sort()).collect(),
        args,
    }
}
fn a(name: &str) -> ActionFormula {
    ActionFormula::MultiAction(vec![act(name, vec![])])
}
fn ad(name: &str, arg: DataExpr) -> ActionFormula {
    ActionFormula::MultiAction(vec![act(name, vec![arg])])
}
fn must(r: RegFormula, f: F) -> F {
    F::Must(r, Box::new(f))
}
fn may(r: RegFormula, f: F) -> F {
    F::May(r, Box::new(f))
}
fn step(af: ActionFormula) -> RegFormula {
    RegFormula::Action(af)
}
fn star(r: RegFormula) -> RegFormula {
    RegFormula::Star(Box::new(r))
}
fn seq(r: RegFormula, s: RegFormula) -> RegFormula {
    RegFormula::Seq(Box::new(r), Box::new(s))
}
fn tt() -> RegFormula {
    step(ActionFormula::True)
}
fn and(x: F, y: F) -> F {
    F::And(Box::new(x), Box::new(y))
}
fn or(x: F, y: F) -> F {
    F::Or(Box::new(x), Box::new(y))
}
fn not(x: F) -> F {
    F::Not(Box::new(x))
}
fn fix(name: &str, params: Vec<(Var, DataExpr)>) -> FixpointVar {
    FixpointVar {
        name: name.into(),
        params,
    }
}
fn nu(name: &str, body: F) -> F {
    F::Nu(fix(name, vec![]), Box::new(body))
}
fn mu(name: &str, body: F) -> F {
    F::Mu(fix(name, vec![]), Box::new(body))
}
fn x(name: &str) -> F {
    F::Var {
        name: name.into(),
        args: vec![],
    }
}
fn nat_var(n: &str) -> Var {
    Var {
        name: n.into(),
        sort: Sort::Nat,
    }
}
fn bool_var(n: &str) -> Var {
    Var {
        name: n.into(),
        sort: Sort::Bool,
    }
}
fn v(var: &Var) -> DataExpr {
    DataExpr::Var(var.clone())
}

/// An LTS from `(from, label, to)` triples; labels are multi-actions.
fn lts(n: u32, trans: &[(u32, Vec<Action>, u32)]) -> (Lts, Vec<Vec<Action>>) {
    let mut labels: Vec<Vec<Action>> = Vec::new();
    let mut ts = Vec::new();
    for (f, l, t) in trans {
        let mut l = l.clone();
        l.sort();
        let id = match labels.iter().position(|x| *x == l) {
            Some(i) => i,
            None => {
                labels.push(l.clone());
                labels.len() - 1
            }
        };
        ts.push(Transition {
            from: StateId(*f),
            label: LabelId(id as u32),
            to: StateId(*t),
        });
    }
    let texts = labels
        .iter()
        .enumerate()
        .map(|(i, _)| Label::from_text(format!("l{i}")))
        .collect();
    (
        Lts {
            initial: StateId(0),
            num_states: n,
            labels: texts,
            transitions: ts,
        },
        labels,
    )
}

/// The same LTS as a linear process `P(s: Nat)` with one summand per transition.
fn lps_of(trans: &[(u32, Vec<Action>, u32)]) -> Lps {
    let s = nat_var("s");
    Lps {
        data: DataSpec::default(),
        actions: vec![],
        globals: vec![],
        params: vec![s.clone()],
        init: vec![number(0, Sort::Nat)],
        summands: trans
            .iter()
            .map(|(f, l, t)| {
                let mut l = l.clone();
                l.sort();
                Summand {
                    sum_vars: vec![],
                    condition: app("==", vec![v(&s), number(*f, Sort::Nat)], Sort::Bool),
                    action: SummandAction::Multi(l),
                    next: vec![number(*t, Sort::Nat)],
                    origin: Origin::default(),
                }
            })
            .collect(),
    }
}

/// Checks `f` on the system through both routes, both solvers, early stop on and off.
fn check(n: u32, trans: &[(u32, Vec<Action>, u32)], f: &F, expected: bool) {
    let spec = FormulaSpec {
        data: DataSpec::default(),
        formula: f.clone(),
    };
    let (l, labels) = lts(n, trans);
    let p1 = lts2pbes(&l, &labels, &DataSpec::default(), &spec).expect("lts2pbes");
    let p2 = lps2pbes(&lps_of(trans), &spec).expect("lps2pbes");
    for (route, p) in [("lts2pbes", &p1), ("lps2pbes", &p2)] {
        // The naive reference where it reaches: finite quantifier domains, few instances.
        match muon::pbes::inst::naive::solve(p, 20_000) {
            Ok(v) => assert_eq!(v, expected, "{route} naive reference on {f:?}"),
            Err(InstError::Quantifier { .. } | InstError::TooManyVariables(_)) => {}
            Err(e) => panic!("{route} (naive reference): {e}"),
        }
        for solver in [SolverKind::Zielonka, SolverKind::Gauss] {
            for early in [false, true] {
                let out = solve_pbes(p, &InstOptions::default(), solver, early)
                    .unwrap_or_else(|e| panic!("{route}: {e}"));
                assert_eq!(
                    out.value, expected,
                    "{route} {solver:?} early={early} on {f:?}"
                );
                if let (Some(d), false) = (out.inst.decided, early) {
                    assert_eq!(d, expected, "{route}: propagation disagrees");
                }
            }
        }
    }
}

/// 0 -a-> 1 -b-> 0, 1 -c-> 2 (2 is a deadlock).
fn abc() -> Vec<(u32, Vec<Action>, u32)> {
    vec![
        (0, vec![act("a", vec![])], 1),
        (1, vec![act("b", vec![])], 0),
        (1, vec![act("c", vec![])], 2),
    ]
}

#[test]
fn boolean_constants_and_connectives() {
    check(3, &abc(), &F::True, true);
    check(3, &abc(), &F::False, false);
    check(3, &abc(), &and(F::True, F::False), false);
    check(3, &abc(), &or(F::True, F::False), true);
    check(
        3,
        &abc(),
        &F::Imp(Box::new(F::False), Box::new(F::False)),
        true,
    );
    check(3, &abc(), &not(may(step(a("a")), F::True)), false);
}

#[test]
fn single_step_modalities() {
    check(3, &abc(), &may(step(a("a")), F::True), true);
    check(3, &abc(), &may(step(a("b")), F::True), false);
    check(3, &abc(), &must(step(a("b")), F::False), true);
    check(
        3,
        &abc(),
        &must(step(a("a")), may(step(a("c")), F::True)),
        true,
    );
    check(3, &abc(), &must(tt(), may(step(a("b")), F::True)), true);
    // Action formula connectives: !a, a || b, a && !a, tau.
    let not_a = ActionFormula::Not(Box::new(a("a")));
    check(3, &abc(), &may(step(not_a), F::True), false);
    let a_or_b = ActionFormula::Or(Box::new(a("a")), Box::new(a("b")));
    check(3, &abc(), &may(step(a_or_b), F::True), true);
    check(
        3,
        &abc(),
        &may(step(ActionFormula::MultiAction(vec![])), F::True),
        false,
    );
}

#[test]
fn regular_modalities() {
    // Deadlock freedom fails (state 2); reaching c is possible; a is always followed by b-or-c.
    check(3, &abc(), &must(star(tt()), may(tt(), F::True)), false);
    check(
        3,
        &abc(),
        &may(seq(star(tt()), step(a("c"))), F::True),
        true,
    );
    check(
        3,
        &abc(),
        &must(seq(star(tt()), step(a("c"))), must(tt(), F::False)),
        true,
    );
    check(
        3,
        &abc(),
        &must(star(step(a("a"))), may(tt(), F::True)),
        true,
    );
    let plus = RegFormula::Plus(Box::new(step(a("a"))));
    check(3, &abc(), &may(plus, may(step(a("c")), F::True)), true);
    let alt = RegFormula::Alt(Box::new(step(a("b"))), Box::new(step(a("a"))));
    check(3, &abc(), &must(alt, may(step(a("c")), F::True)), true);
    check(3, &abc(), &must(RegFormula::Nil, F::False), false);
}

#[test]
fn alternating_fixpoints() {
    // Some path with infinitely many a: nu X. mu Y. <a>X || <!a>Y.
    let not_a = ActionFormula::Not(Box::new(a("a")));
    let gf_a = nu(
        "X",
        mu(
            "Y",
            or(may(step(a("a")), x("X")), may(step(not_a.clone()), x("Y"))),
        ),
    );
    check(3, &abc(), &gf_a, true);
    // 0 -a-> 1, 1 -b-> 1: only finitely many a on every path.
    let trap = vec![
        (0, vec![act("a", vec![])], 1),
        (1, vec![act("b", vec![])], 1),
    ];
    check(2, &trap, &gf_a, false);
    // The dual: on all paths eventually always not a = mu X. nu Y. [a]X && [!a]Y.
    let fg_not_a = mu(
        "X",
        nu(
            "Y",
            and(must(step(a("a")), x("X")), must(step(not_a), x("Y"))),
        ),
    );
    check(2, &trap, &fg_not_a, true);
    check(3, &abc(), &fg_not_a, false);
    // Negation of a fixpoint dualises it.
    check(3, &abc(), &not(gf_a), false);
}

#[test]
fn non_monotone_formula_is_rejected() {
    let f = nu("X", not(x("X")));
    let spec = FormulaSpec {
        data: DataSpec::default(),
        formula: f,
    };
    let err = lps2pbes(&lps_of(&abc()), &spec).unwrap_err();
    assert!(err.to_string().contains("negatively"), "{err}");
}

fn data_system() -> Vec<(u32, Vec<Action>, u32)> {
    // 0 -d(true)-> 1, 0 -d(false)-> 2, 1 -e(1)-> 0, 2 -e(2)|f-> 2
    vec![
        (0, vec![act("d", vec![bool_lit(true)])], 1),
        (0, vec![act("d", vec![bool_lit(false)])], 2),
        (1, vec![act("e", vec![number(1, Sort::Nat)])], 0),
        (
            2,
            vec![act("e", vec![number(2, Sort::Nat)]), act("f", vec![])],
            2,
        ),
    ]
}

#[test]
fn data_in_action_formulas_and_quantifiers() {
    let ds = data_system();
    let b = bool_var("b");
    check(3, &ds, &may(step(ad("d", bool_lit(true))), F::True), true);
    // forall b: Bool . <d(b)>true
    check(
        3,
        &ds,
        &F::Forall(
            vec![b.clone()],
            Box::new(may(step(ad("d", v(&b))), F::True)),
        ),
        true,
    );
    // exists b: Bool . val(b) && <d(b)><e(1)>true
    check(
        3,
        &ds,
        &F::Exists(
            vec![b.clone()],
            Box::new(and(
                F::Val(v(&b)),
                may(
                    step(ad("d", v(&b))),
                    may(step(ad("e", number(1, Sort::Nat))), F::True),
                ),
            )),
        ),
        true,
    );
    // Quantifier inside an action formula: <exists b: Bool . d(b) && val(!b)> true
    let inner = ActionFormula::Exists(
        vec![b.clone()],
        Box::new(ActionFormula::And(
            Box::new(ad("d", v(&b))),
            Box::new(ActionFormula::Val(app("!", vec![v(&b)], Sort::Bool))),
        )),
    );
    check(3, &ds, &may(step(inner), F::True), true);
    // Multi-actions match exactly: e(2)|f is not e(2), and the order does not matter.
    let n = nat_var("n");
    let e_any = ActionFormula::Exists(vec![n.clone()], Box::new(ad("e", v(&n))));
    check(
        3,
        &ds,
        &must(
            star(tt()),
            must(step(ad("e", number(2, Sort::Nat))), F::False),
        ),
        true,
    );
    let ef =
        ActionFormula::MultiAction(vec![act("f", vec![]), act("e", vec![number(2, Sort::Nat)])]);
    check(3, &ds, &may(seq(star(tt()), step(ef)), F::True), true);
    // exists n: Nat in an action formula is removed by the one-point rule.
    check(
        3,
        &ds,
        &may(seq(step(ad("d", bool_lit(true))), step(e_any)), F::True),
        true,
    );
}

#[test]
fn parameterised_fixpoints() {
    // mu X(n: Nat = 0) . val(n == 3) || <true>X(n + 1): a path of 3 steps exists.
    let n = nat_var("n");
    let plus1 = app("+", vec![v(&n), number(1, Sort::Nat)], Sort::Nat);
    let f = F::Mu(
        fix("X", vec![(n.clone(), number(0, Sort::Nat))]),
        Box::new(or(
            F::Val(app("==", vec![v(&n), number(3, Sort::Nat)], Sort::Bool)),
            may(
                tt(),
                F::Var {
                    name: "X".into(),
                    args: vec![plus1.clone()],
                },
            ),
        )),
    );
    check(3, &abc(), &f, true);
    // nu X(n: Nat = 0) . val(n < 2) => [true] X(n + 1): at depth 2 ... always true (bounded).
    let g = F::Nu(
        fix("X", vec![(n.clone(), number(0, Sort::Nat))]),
        Box::new(F::Imp(
            Box::new(F::Val(app(
                "<",
                vec![v(&n), number(2, Sort::Nat)],
                Sort::Bool,
            ))),
            Box::new(must(
                tt(),
                F::Var {
                    name: "X".into(),
                    args: vec![plus1.clone()],
                },
            )),
        )),
    );
    check(3, &abc(), &g, true);
    // Within two steps from 0 a deadlock can be reached: mu X(n) . [true]false || (n < 2 && <true>X(n+1))
    let h = F::Mu(
        fix("X", vec![(n.clone(), number(0, Sort::Nat))]),
        Box::new(or(
            must(tt(), F::False),
            and(
                F::Val(app("<", vec![v(&n), number(2, Sort::Nat)], Sort::Bool)),
                may(
                    tt(),
                    F::Var {
                        name: "X".into(),
                        args: vec![plus1.clone()],
                    },
                ),
            ),
        )),
    );
    check(3, &abc(), &h, true);
    let h1 = F::Mu(
        fix("X", vec![(n.clone(), number(0, Sort::Nat))]),
        Box::new(or(
            must(tt(), F::False),
            and(
                F::Val(app("<", vec![v(&n), number(1, Sort::Nat)], Sort::Bool)),
                may(
                    tt(),
                    F::Var {
                        name: "X".into(),
                        args: vec![plus1],
                    },
                ),
            ),
        )),
    );
    check(3, &abc(), &h1, false);
}

#[test]
fn unbounded_instantiation_hits_the_bound() {
    // nu X(n: Nat = 0) . [true] X(n + 1) on a cycle never closes.
    let n = nat_var("n");
    let f = F::Nu(
        fix("X", vec![(n.clone(), number(0, Sort::Nat))]),
        Box::new(must(
            tt(),
            F::Var {
                name: "X".into(),
                args: vec![app("+", vec![v(&n), number(1, Sort::Nat)], Sort::Nat)],
            },
        )),
    );
    let spec = FormulaSpec {
        data: DataSpec::default(),
        formula: f,
    };
    let p = lps2pbes(&lps_of(&abc()), &spec).unwrap();
    let opts = InstOptions {
        max_vars: 1000,
        ..InstOptions::default()
    };
    let err = muon::pbes::inst::naive::solve(&p, 1000).unwrap_err();
    assert!(err.to_string().contains("1000"), "{err}");
    let err = solve_pbes(&p, &opts, SolverKind::Zielonka, false).unwrap_err();
    assert!(err.to_string().contains("1000"), "{err}");
}

/// Solves a textual PBES with the term engine (with and without early stopping); the
/// verdict, or the error message.
fn solve_text(text: &str) -> Result<bool, String> {
    let src = muon::source::SourceFile::new("test.pbes", text);
    let p = muon::pbes::typecheck::check_pbes(&src).map_err(|e| format!("{e:?}"))?;
    let mut verdict = None;
    for early in [false, true] {
        let out = solve_pbes(&p, &InstOptions::default(), SolverKind::Zielonka, early)
            .map_err(|e| e.to_string())?;
        if let Some(v) = verdict {
            assert_eq!(v, out.value, "early stop changes the verdict");
        }
        verdict = Some(out.value);
    }
    Ok(verdict.expect("solved"))
}

#[test]
fn one_point_through_negation_and_distribution() {
    // forall n. !(n == 3 || n == 5) || X(n): the disjunction of equations is distributed,
    // each branch loses n by the one-point rule; X(3) and X(5) hold, X(4) does not.
    let base = "pbes nu X(m: Nat) = val(m != 4);\n";
    let t = format!("{base}nu Y = forall n: Nat. !(val(n == 3) || val(n == 5)) || X(n);\ninit Y;");
    assert_eq!(solve_text(&t), Ok(true));
    let f = format!("{base}nu Y = forall n: Nat. !(val(n == 3) || val(4 == n)) || X(n);\ninit Y;");
    assert_eq!(solve_text(&f), Ok(false));
    // exists over a disjunction of equations with inner existentials.
    let e = format!(
        "{base}nu Y = exists n: Nat. (val(n == 4) || (exists k: Nat. val(k < 2) && val(n == k + 7))) && X(n);\ninit Y;"
    );
    assert_eq!(solve_text(&e), Ok(true));
}

#[test]
fn disjunctive_bounds_bound_the_enumeration() {
    // Each disjunct bounds n from above: n ranges over 0..=9 and 20..=22.
    let t = "pbes nu X = forall n: Nat. val((n < 10) || (20 <= n && n <= 22) || !(n >= 3)) => val(n != 15);\ninit X;";
    assert_eq!(solve_text(t), Ok(true));
    let f = "pbes nu X = forall n: Nat. val((n < 10) || (20 <= n && n <= 22)) => val(n != 21);\ninit X;";
    assert_eq!(solve_text(f), Ok(false));
    // Only comparisons with constants: decided by the values up to one past them.
    let c = "pbes nu X = forall n: Nat. val((n < 10) || (20 <= n)) => val(n != 15);\ninit X;";
    assert_eq!(solve_text(c), Ok(true));
    // One unbounded disjunct and a body that is not data: a clear error naming the
    // variable, not a verdict.
    let u = "pbes nu Y(m: Nat) = val(m != 15);\nnu X = forall n: Nat. val((n < 10) || (20 <= n)) => Y(n);\ninit X;";
    let err = solve_text(u).expect_err("unbounded");
    assert!(err.contains("`n: Nat`"), "{err}");
}

#[test]
fn early_termination_over_nat_and_pos() {
    // A witness beyond the constants decides an exists; a counterexample a forall.
    let e = "pbes nu X = exists c: Pos. val(!(c <= 3));\ninit X;";
    assert_eq!(solve_text(e), Ok(true));
    let f = "pbes nu X = forall c: Nat. val(c <= 100);\ninit X;";
    assert_eq!(solve_text(f), Ok(false));
    // Only comparisons with constants: the values up to one past them decide it all.
    let all = "pbes nu X = forall c: Nat. val(c <= 3 || c > 3 && c != 2);\ninit X;";
    assert_eq!(solve_text(all), Ok(true));
    let none = "pbes nu X = exists c: Int. val(c < -2 && c > 5);\ninit X;";
    assert_eq!(solve_text(none), Ok(false));
}

#[test]
fn stuck_term_in_a_decided_junction() {
    // Int2Pos(0) has no value: `stuck && false` is false, `stuck || true` is true …
    let f = "pbes nu X = !(val(2 == Int2Pos(0)) && val(false));\ninit X;";
    assert_eq!(solve_text(f), Ok(true));
    let t = "pbes nu X = val(2 == Int2Pos(0)) || val(1 < 2);\ninit X;";
    assert_eq!(solve_text(t), Ok(true));
    let q = "pbes nu X = forall n: Nat. val(n < 3) => (val(2 == Int2Pos(n - 1)) || val(n < 5));\ninit X;";
    assert_eq!(solve_text(q), Ok(true));
    // … but a verdict that depends on it is an error.
    let d = "pbes nu X = val(2 == Int2Pos(0)) || val(false);\ninit X;";
    assert!(solve_text(d).is_err());
}

#[test]
fn struct_with_nat_quantifier_bounded_by_a_modality() {
    // `forall a: L. <a>true => Y(a)` on a state with transitions l(1, 0) and m(4): after
    // lps2pbes/lts2pbes the modality is a disjunction of `a == label` equations.
    let spec = "sort L = struct l(x: Nat, y: Nat) | m(z: Nat);\n";
    let t = format!(
        "{spec}pbes nu Y(b: L) = val(b != l(2, 0));\n\
         nu X = forall a: L. !(val(a == l(1, 0)) || (exists k: Nat. val(k == 4) && val(a == m(k)))) || Y(a);\ninit X;"
    );
    assert_eq!(solve_text(&t), Ok(true));
    let f = format!(
        "{spec}pbes nu Y(b: L) = val(b != m(4));\n\
         nu X = forall a: L. !(val(a == l(1, 0)) || (exists k: Nat. val(k == 4) && val(a == m(k)))) || Y(a);\ninit X;"
    );
    assert_eq!(solve_text(&f), Ok(false));
    let e = format!(
        "{spec}pbes nu Y(b: L) = val(b == m(4));\n\
         nu X = exists a: L. (val(l(1, 0) == a) || val(m(4) == a)) && Y(a);\ninit X;"
    );
    assert_eq!(solve_text(&e), Ok(true));
}
