//! Linearisation of small specifications whose LTS is known by hand, built as typed IR.

mod lps_common;

use lps_common::*;
use muon::artifact::Artifact;
use muon::data::ir::{DataSpec, Sort};
use muon::lps::{linearise, LinError, LineariseOptions, SummandAction};

fn lin(spec: &muon::process::ir::ProcSpec) -> muon::lps::Lps {
    linearise(spec, LineariseOptions::default()).expect("linearises")
}

fn lin_raw(spec: &muon::process::ir::ProcSpec) -> muon::lps::Lps {
    linearise(spec, LineariseOptions { simplify: false }).expect("linearises")
}

fn both(spec: &muon::process::ir::ProcSpec) -> (usize, usize) {
    let a = explore(&lin(spec));
    let b = explore(&lin_raw(spec));
    assert_eq!(a, b, "simplification changed the state space");
    a
}

#[test]
fn sequence_terminates_in_its_own_state() {
    // init a . b;  -> s0 -a-> s1 -b-> s2 -Terminate-> s3 (mCRL2 202607.0 makes successful
    // termination an explicit `Terminate` into a deadlock state)
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b"]),
        vec![],
        seq(act("a", vec![]), act("b", vec![])),
    );
    assert_eq!(both(&s), (4, 3));
}

#[test]
fn interleaving_and_synchronisation() {
    // init a || b;  -> 4 states; a, b, a|b from the start, then b resp. a; then one
    // `Terminate` once both have terminated
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b"]),
        vec![],
        par(act("a", vec![]), act("b", vec![])),
    );
    assert_eq!(both(&s), (5, 6));
}

#[test]
fn recursion_and_choice_with_data() {
    // P(n: Nat) = (n < 3) -> up . P(n + 1) + (n > 0) -> down . P(n - 1)... with Int2Nat avoided:
    // P(n) = (n < 3) -> up . P(n+1) + (n == 3) -> reset . P(0)
    let n = var("n", Sort::Nat);
    let body = alt(
        cond(
            app("<", vec![v("n", Sort::Nat), nat(3)], Sort::Bool),
            seq(
                act("up", vec![]),
                call(
                    0,
                    vec![app("+", vec![v("n", Sort::Nat), nat(1)], Sort::Nat)],
                ),
            ),
        ),
        cond(
            app("==", vec![v("n", Sort::Nat), nat(3)], Sort::Bool),
            seq(act("reset", vec![]), call(0, vec![nat(0)])),
        ),
    );
    let s = spec(
        DataSpec::default(),
        &plain(&["up", "reset"]),
        vec![("P", vec![n], body)],
        call(0, vec![nat(0)]),
    );
    assert_eq!(both(&s), (4, 4));
}

#[test]
fn two_party_comm_with_allow() {
    // allow({c}, comm({a|b -> c}, a || b)) -> one c step, then `Terminate` (allow does
    // not apply to it)
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b", "c"]),
        vec![],
        allow(
            &[&["c"]],
            comm(
                &[(&["a", "b"], Some("c"))],
                par(act("a", vec![]), act("b", vec![])),
            ),
        ),
    );
    let l = lin(&s);
    assert_eq!(l.summands.len(), 2);
    assert_eq!(explore(&l), (3, 2));
}

#[test]
fn comm_with_data_eliminates_sums_over_nat() {
    // P = s(1) . s(2) . delta;  Q = sum m: Nat . r(m) . out(m) . Q;
    // allow({c, out}, comm({s|r -> c}, P || Q))
    let m = var("m", Sort::Nat);
    let nat1 = vec![Sort::Nat];
    let s = spec(
        DataSpec::default(),
        &[
            ("s", nat1.clone()),
            ("r", nat1.clone()),
            ("c", nat1.clone()),
            ("out", nat1.clone()),
        ],
        vec![
            (
                "P",
                vec![],
                seq(
                    act("s", vec![nat(1)]),
                    seq(act("s", vec![nat(2)]), muon::process::ir::ProcExpr::Delta),
                ),
            ),
            (
                "Q",
                vec![],
                sum(
                    vec![m.clone()],
                    seq(
                        act("r", vec![v("m", Sort::Nat)]),
                        seq(act("out", vec![v("m", Sort::Nat)]), call(1, vec![])),
                    ),
                ),
            ),
        ],
        allow(
            &[&["c"], &["out"]],
            comm(
                &[(&["r", "s"], Some("c"))],
                par(call(0, vec![]), call(1, vec![])),
            ),
        ),
    );
    let l = lin(&s);
    for sm in &l.summands {
        assert!(
            sm.sum_vars.iter().all(|x| x.sort != Sort::Nat),
            "sum over Nat left: {sm:?}"
        );
    }
    // (P0,Q) -c(1)-> (P1,Q'1) -out(1)-> (P1,Q) -c(2)-> (P2,Q'2) -out(2)-> (P2,Q)
    assert_eq!(explore(&l), (5, 4));
}

#[test]
fn n_party_comm_with_repeated_names() {
    // A = a . A; B = b . B;  allow({c}, comm({a|a|b -> c}, A || A || B)) -> one c loop
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b", "c"]),
        vec![
            ("A", vec![], seq(act("a", vec![]), call(0, vec![]))),
            ("B", vec![], seq(act("b", vec![]), call(1, vec![]))),
        ],
        allow(
            &[&["c"]],
            comm(
                &[(&["a", "a", "b"], Some("c"))],
                par_all(vec![call(0, vec![]), call(0, vec![]), call(1, vec![])]),
            ),
        ),
    );
    let l = lin(&s);
    assert_eq!(explore(&l), (1, 1));
    // With a third A: a|a|a|b communicates to c|a, which is not allowed; a|a|b (any two
    // of the three A's) gives c.
    let s3 = spec(
        s.data.clone(),
        &plain(&["a", "b", "c"]),
        s.procs
            .iter()
            .map(|p| {
                (
                    &*Box::leak(p.name.to_string().into_boxed_str()),
                    p.params.clone(),
                    p.body.clone(),
                )
            })
            .collect(),
        allow(
            &[&["c"], &["a", "c"]],
            comm(
                &[(&["a", "a", "b"], Some("c"))],
                par_all(vec![
                    call(0, vec![]),
                    call(0, vec![]),
                    call(0, vec![]),
                    call(1, vec![]),
                ]),
            ),
        ),
    );
    let l3 = lin(&s3);
    let labels: std::collections::BTreeSet<String> = l3
        .summands
        .iter()
        .map(|s| match &s.action {
            SummandAction::Multi(a) => a
                .iter()
                .map(|x| x.name.to_string())
                .collect::<Vec<_>>()
                .join("|"),
            SummandAction::Delta => "delta".into(),
        })
        .collect();
    assert_eq!(labels, ["a|c", "c"].iter().map(|s| s.to_string()).collect());
    assert_eq!(explore(&l3), (1, 2));
}

#[test]
fn comm_with_data_mismatch_keeps_parties_apart() {
    // a(1) || b(2) under comm a|b -> c: data differ, no communication; allow {a|b} sees it
    let nat1 = vec![Sort::Nat];
    let s = spec(
        DataSpec::default(),
        &[
            ("a", nat1.clone()),
            ("b", nat1.clone()),
            ("c", nat1.clone()),
        ],
        vec![],
        allow(
            &[&["c"], &["a", "b"]],
            comm(
                &[(&["a", "b"], Some("c"))],
                par(act("a", vec![nat(1)]), act("b", vec![nat(2)])),
            ),
        ),
    );
    assert_eq!(both(&s), (3, 2));
    let s2 = spec(
        DataSpec::default(),
        &[
            ("a", nat1.clone()),
            ("b", nat1.clone()),
            ("c", nat1.clone()),
        ],
        vec![],
        allow(
            &[&["c"], &["a", "b"]],
            comm(
                &[(&["a", "b"], Some("c"))],
                par(act("a", vec![nat(1)]), act("b", vec![nat(1)])),
            ),
        ),
    );
    let l = lin(&s2);
    assert!(l.summands.iter().all(|s| matches!(&s.action,
        SummandAction::Multi(a) if a.len() == 1 && (&*a[0].name == "c" || &*a[0].name == "Terminate"))));
    assert_eq!(explore(&l), (3, 2));
}

#[test]
fn hide_block_rename() {
    // hide({a}, a . b) -> tau then b
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b", "c"]),
        vec![],
        hide(
            &["a"],
            par(seq(act("a", vec![]), act("b", vec![])), act("c", vec![])),
        ),
    );
    let l = lin(&s);
    assert!(l.summands.iter().any(|s| s.is_tau()));
    // a.b || c: 3*2 states; transitions: a,b alone (3 states of c? ) computed: 6 states,
    // steps: 2 (c) * ... left: a.b has 3 states, c has 2: product 6 states; interleavings
    // 2*2 (a-part moves per c-state) + 3 (c moves per ab-state) + 2 (sync) = 9; then
    // `Terminate`: 7 states and 10 transitions, as mCRL2 202607.0.
    assert_eq!(explore(&l), (7, 10));
    // block({c}, …) removes c and every multi-action containing it, so nothing terminates.
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b", "c"]),
        vec![],
        block(
            &["c"],
            par(seq(act("a", vec![]), act("b", vec![])), act("c", vec![])),
        ),
    );
    assert_eq!(both(&s), (3, 2));
    // rename({a -> c}, a . b) then allow({c, b})
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b", "c"]),
        vec![],
        allow(
            &[&["c"], &["b"]],
            rename(&[("a", "c")], seq(act("a", vec![]), act("b", vec![]))),
        ),
    );
    let l = lin(&s);
    assert!(l.summands.iter().any(
        |s| matches!(&s.action, SummandAction::Multi(a) if a.len() == 1 && &*a[0].name == "c")
    ));
    assert_eq!(explore(&l), (4, 3));
}

#[test]
fn unguarded_calls_and_phases() {
    // Phase1 = a . Phase2; Phase2 = Phase3; Phase3 = b . Phase1 + c . Phase3
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b", "c"]),
        vec![
            ("Phase1", vec![], seq(act("a", vec![]), call(1, vec![]))),
            ("Phase2", vec![], call(2, vec![])),
            (
                "Phase3",
                vec![],
                alt(
                    seq(act("b", vec![]), call(0, vec![])),
                    seq(act("c", vec![]), call(2, vec![])),
                ),
            ),
        ],
        call(0, vec![]),
    );
    // Phase2 = Phase3 is a trivial equation: as mCRL2 (`expand_process_instance_assignment`)
    // the call of Phase2 is replaced by Phase3, so Phase2 gets no control state of its own:
    // Phase1 -a-> Phase3 -b-> Phase1, Phase3 -c-> Phase3.
    assert_eq!(both(&s), (2, 3));
}

#[test]
fn sequential_composition_of_calls() {
    // P = a . Q . P; Q = b . c;  -> a b c loop: 3 states, 3 transitions
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b", "c"]),
        vec![
            (
                "P",
                vec![],
                seq(act("a", vec![]), seq(call(1, vec![]), call(0, vec![]))),
            ),
            ("Q", vec![], seq(act("b", vec![]), act("c", vec![]))),
        ],
        call(0, vec![]),
    );
    assert_eq!(both(&s), (3, 3));
}

#[test]
fn unguarded_recursion_is_an_error_naming_the_process() {
    // P = P + a
    let s = spec(
        DataSpec::default(),
        &plain(&["a"]),
        vec![("P", vec![], alt(call(0, vec![]), act("a", vec![])))],
        call(0, vec![]),
    );
    match linearise(&s, LineariseOptions::default()) {
        Err(e @ LinError::UnguardedRecursion { .. }) => {
            assert!(e.to_string().contains("process P"), "{e}")
        }
        other => panic!("expected unguarded recursion, got {other:?}"),
    }
}

#[test]
fn non_regular_recursion_is_an_error_naming_the_process() {
    // P = a . P . b + c
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b", "c"]),
        vec![(
            "P",
            vec![],
            alt(
                seq(act("a", vec![]), seq(call(0, vec![]), act("b", vec![]))),
                act("c", vec![]),
            ),
        )],
        call(0, vec![]),
    );
    match linearise(&s, LineariseOptions::default()) {
        Err(e @ LinError::NonRegular { .. }) => assert!(e.to_string().contains("P"), "{e}"),
        other => panic!("expected non-regular error, got {other:?}"),
    }
}

#[test]
fn fourteen_party_tick_stays_small() {
    // T_i = tick_i . T_i + x_i . T_i, 14 of them, all ticks synchronise into tick.
    let k = 14;
    let names: Vec<String> = (0..k).map(|i| format!("tick_{i}")).collect();
    let xs: Vec<String> = (0..k).map(|i| format!("x_{i}")).collect();
    let mut acts: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    acts.extend(xs.iter().map(|s| s.as_str()));
    acts.push("tick");
    let procs: Vec<(&str, Vec<muon::data::ir::Var>, muon::process::ir::ProcExpr)> = (0..k)
        .map(|i| {
            (
                &*Box::leak(format!("T{i}").into_boxed_str()),
                vec![],
                alt(
                    seq(act(&names[i], vec![]), call(i as u32, vec![])),
                    seq(act(&xs[i], vec![]), call(i as u32, vec![])),
                ),
            )
        })
        .collect();
    let lhs: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let mut allowed: Vec<Vec<&str>> = xs.iter().map(|s| vec![s.as_str()]).collect();
    allowed.push(vec!["tick"]);
    let allowed_refs: Vec<&[&str]> = allowed.iter().map(|v| v.as_slice()).collect();
    let s = spec(
        DataSpec::default(),
        &plain(&acts),
        procs,
        allow(
            &allowed_refs,
            comm(
                &[(&lhs, Some("tick"))],
                par_all((0..k).map(|i| call(i as u32, vec![])).collect()),
            ),
        ),
    );
    // A hang guard, not a speed test: the exponential unfolding this guards against takes
    // hours; the linear one milliseconds. (Speed is measured by scripts/, never here.)
    let t = std::time::Instant::now();
    let l = lin(&s);
    assert!(t.elapsed().as_secs() < 120, "exponential unfolding?");
    assert_eq!(l.summands.len(), k + 1);
    assert_eq!(explore(&l), (1, k + 1));
}

#[test]
fn constant_parameters_are_removed_and_parelm_removes_unused_ones() {
    // P(n: Nat, k: Nat) = a(k) . P(n + 1, k): k is constant (5), n is unobservable.
    // Linearisation removes k (constelm) but keeps n, as mCRL2's mcrl22lps does;
    // lpsparelm removes n.
    let n = var("n", Sort::Nat);
    let k = var("k", Sort::Nat);
    let s = spec(
        DataSpec::default(),
        &[("a", vec![Sort::Nat])],
        vec![(
            "P",
            vec![n, k],
            seq(
                act("a", vec![v("k", Sort::Nat)]),
                call(
                    0,
                    vec![
                        app("+", vec![v("n", Sort::Nat), nat(1)], Sort::Nat),
                        v("k", Sort::Nat),
                    ],
                ),
            ),
        )],
        call(0, vec![nat(0), nat(5)]),
    );
    let mut l = lin(&s);
    assert_eq!(l.params.len(), 1, "{:?}", l.params);
    assert_eq!(&*l.params[0].name, "n");
    muon::lps::simplify::parelm(&mut l);
    assert!(l.params.is_empty(), "{:?}", l.params);
    assert_eq!(explore(&l), (1, 1));
    let raw = lin_raw(&s);
    assert_eq!(raw.params.len(), 2);
}

#[test]
fn printer_writes_a_linear_process() {
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b"]),
        vec![],
        par(act("a", vec![]), act("b", vec![])),
    );
    let text = muon::print::lps_to_string(&lin(&s));
    assert!(text.contains("act\n  a;\n  b;"), "{text}");
    assert!(text.contains("proc P("), "{text}");
    assert!(text.contains("a | b . P("), "{text}");
    assert!(text.contains("init P("), "{text}");
}

#[test]
fn lps_artifact_round_trip_and_errors() {
    let s = spec(
        DataSpec::default(),
        &plain(&["a", "b"]),
        vec![],
        par(act("a", vec![]), act("b", vec![])),
    );
    let l = lin(&s);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.lps");
    l.write_artifact(Some(&p)).unwrap();
    let back = muon::lps::Lps::read_artifact(Some(&p)).unwrap();
    assert_eq!(back, l);
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() - 3]).unwrap();
    let e = muon::lps::Lps::read_artifact(Some(&p)).unwrap_err();
    assert!(e.to_string().contains("corrupt or truncated"), "{e}");
    let lts = muon::artifact::encode(muon::artifact::ArtifactKind::Lts, &vec![1u32]).unwrap();
    std::fs::write(&p, lts).unwrap();
    let e = muon::lps::Lps::read_artifact(Some(&p)).unwrap_err();
    assert!(e.to_string().contains("LTS artifact"), "{e}");
    std::fs::write(&p, "proc P = a . P;").unwrap();
    let e = muon::lps::Lps::read_artifact(Some(&p)).unwrap_err();
    assert!(e.to_string().contains("not a muon artifact"), "{e}");
}

#[test]
fn clustered_multi_party_sync_keeps_the_state_space() {
    // T_i = tick_i . U_i;  U_i = tick_i . T_i + x_i . T_i  (i = 0, 1, 2)
    // allow({tick, x_0, x_1, x_2}, comm({tick_0|tick_1|tick_2 -> tick}, T_0 || T_1 || T_2))
    // All 8 combinations of T/U are reachable; 8 tick steps and 12 x steps.
    let mut procs = Vec::new();
    let mut acts: Vec<String> = Vec::new();
    for i in 0..3u32 {
        let t = format!("tick_{i}");
        let x = format!("x_{i}");
        procs.push((
            &*Box::leak(format!("T{i}").into_boxed_str()),
            vec![],
            seq(act(&t, vec![]), call(2 * i + 1, vec![])),
        ));
        procs.push((
            &*Box::leak(format!("U{i}").into_boxed_str()),
            vec![],
            alt(
                seq(act(&t, vec![]), call(2 * i, vec![])),
                seq(act(&x, vec![]), call(2 * i, vec![])),
            ),
        ));
        acts.push(t);
        acts.push(x);
    }
    acts.push("tick".into());
    let names: Vec<&str> = acts.iter().map(|s| s.as_str()).collect();
    let s = spec(
        DataSpec::default(),
        &plain(&names),
        procs,
        allow(
            &[&["tick"], &["x_0"], &["x_1"], &["x_2"]],
            comm(
                &[(&["tick_0", "tick_1", "tick_2"], Some("tick"))],
                par_all(vec![call(0, vec![]), call(2, vec![]), call(4, vec![])]),
            ),
        ),
    );
    let l = lin(&s);
    // one clustered tick summand instead of 2^3
    let ticks = l
        .summands
        .iter()
        .filter(|s| matches!(&s.action, SummandAction::Multi(a) if a.len() == 1 && &*a[0].name == "tick"))
        .count();
    assert_eq!(ticks, 1);
    assert_eq!(both(&s), (8, 20));
}

fn from_text(src: &str) -> muon::process::ir::ProcSpec {
    muon::process::typecheck::check_specification(&muon::source::SourceFile::new("t.mcrl2", src))
        .unwrap_or_else(|e| panic!("{e:?}"))
}

#[test]
fn allow_through_comm_and_a_rename_that_removes_a_name() {
    // The allowed multi-action `r2|s2` (before `comm`) meets `rename({s2->s4, r4->r2}, S)`:
    // that side can never produce `s2`, but its `r2` (renamed `r4`) still takes part. The
    // shape of mCRL2's academic/onebit, where muon had lost c2 and c4 (144 states instead
    // of 81,920).
    let s = from_text(
        "sort Bit = struct e0 | e1;
act s2, r4, s4, r2, c2, c4: Bit;
proc S = sum b: Bit . r4(b) . S;
     C = s2(e0) . C;
init allow({c2, c4}, comm({r2|s2->c2, r4|s4->c4}, C || rename({s2->s4, r4->r2}, S)));
",
    );
    assert_eq!(both(&s), (1, 1));
    let s = from_text(
        "sort Bit = struct e0 | e1;
act s2, r4, s4, r2, c2, c4: Bit;
proc S = sum b: Bit . r4(b) . S;
     C = s2(e0) . C;
init allow({c2, c4}, comm({r2|s2->c2, r4|s4->c4},
  allow({s2, r4}, S || C) || rename({s2->s4, r4->r2}, allow({s2, r4}, S || C))));
",
    );
    // c2(e0) and c4(e0), each a self-loop of the single state.
    assert_eq!(both(&s), (1, 2));
}

#[test]
fn closed_action_arguments_stay_as_written() {
    // mCRL2 leaves a closed action argument unrewritten where muon used to evaluate it
    // (games/sudoku: `a(solve_sudo(hard_sudoku))` is a whole search, 4 s, that exploration
    // does anyway); arguments a constant parameter went into are rewritten, and so are
    // conditions.
    let s = from_text(
        "sort B = struct t | u;
map g: B -> B;
eqn g(t) = u;
    g(u) = t;
act a, b: B;
proc P(m: B) = (g(m) == t) -> a(g(t)) . b(g(m)) . P(m);
init P(u);
",
    );
    let full = muon::print::lps_to_string(&lin(&s));
    let text = &full[full.find("proc").expect("a process")..];
    assert!(text.contains("a(g(t))"), "{text}");
    assert!(text.contains("b(t)"), "{text}");
    assert!(!text.contains("g(u)"), "{text}");
    assert_eq!(both(&s), (2, 2));
}
