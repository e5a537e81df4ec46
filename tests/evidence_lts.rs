//! Evidence on the LTS route (`lts2pbes -c`, `pbessolve --file=M.aut`, `check M.aut`): the
//! trace names LTS states and the model's own labels, the evidence LTS is a part of the
//! model, and the independent checker (replay on the LTS, the formula re-checked on the
//! evidence LTS) confirms it. Through the binary for the user's view, and through the
//! library for a property test over random LTSs and formulas, with corrupted traces. The
//! explicit-state re-check of the formula on an evidence LTS is held against the route
//! through `lts2pbes` and a solver on random LTSs with data in labels and random formulas.

use std::path::Path;
use std::process::{Command, Output};

use muon::bes::SolverKind;
use muon::evidence::check::verdict_by_pbes;
use muon::evidence::explicit::check_explicit;
use muon::evidence::lts::{check_lts_evidence, check_lts_trace, state};
use muon::evidence::{read_lts, Evidence};
use muon::lts::typed::type_labels;
use muon::lts::Lts;
use muon::modal::ir::FormulaSpec;
use muon::pbes::inst::InstOptions;
use muon::pbes::lts2pbes::{lts2pbes, lts2pbes_with};
use muon::pbes::solve::solve_pbes;
use muon::process::ir::{Action, ProcSpec};
use muon::source::SourceFile;
use proptest::prelude::*;

mod reduce_common;
use reduce_common::Shape;

fn muon(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run muon")
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// A model with data in its labels: `r(d)` for d < 3 from 0, then `done` when d was 2.
const SPEC: &str = "act r: Nat; done;
proc P(n: Nat, k: Nat) = sum d: Nat . (d < 3 && n == 0) -> r(d) . P(1, d)
  + (n == 1 && k == 2) -> done . P(2, k) + (n == 1 && k != 2) -> r(k) . P(0, 0);
init P(0, 0);
";

/// Writes SPEC's LPS and LTS (`m.lps`, `m.aut`) into `dir`.
fn model(dir: &Path) {
    std::fs::write(dir.join("m.mcrl2"), SPEC).unwrap();
    ok(&muon(&["mcrl22lps", "m.mcrl2", "m.lps"], dir));
    ok(&muon(&["lps2lts", "m.lps", "m.aut"], dir));
}

/// The lines of a printed trace that are steps.
fn step_lines(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .map(str::to_string)
        .collect()
}

#[test]
fn lts2pbes_c_and_pbessolve_give_evidence_in_the_models_labels() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    model(dir);
    std::fs::write(dir.join("f.mcf"), "[true*.done]false").unwrap();
    ok(&muon(
        &[
            "lts2pbes", "-c", "-l", "m.lps", "-f", "f.mcf", "m.aut", "p.pbes",
        ],
        dir,
    ));
    let out = ok(&muon(
        &[
            "pbessolve",
            "--file=m.aut",
            "--evidence-file=e.aut",
            "p.pbes",
        ],
        dir,
    ));
    assert!(out.starts_with("false\ncounterexample (2 steps):"), "{out}");
    let steps = step_lines(&out);
    assert_eq!(steps.len(), 2, "{out}");
    assert!(
        steps[0].contains("r(2)") && steps[1].contains("done"),
        "{out}"
    );
    assert!(out.contains("initial state: state = 0"), "{out}");
    // The evidence LTS: the model's own labels, and the verdict again when checked afresh.
    let aut = std::fs::read_to_string(dir.join("e.aut")).unwrap();
    assert!(
        aut.contains("\"r(2)\"") && aut.contains("\"done\""),
        "{aut}"
    );
    ok(&muon(
        &["lts2pbes", "-l", "m.lps", "-f", "f.mcf", "e.aut", "e.pbes"],
        dir,
    ));
    assert_eq!(ok(&muon(&["pbessolve", "e.pbes"], dir)), "false\n");
    // The trace as JSON names transitions of the LTS.
    ok(&muon(
        &[
            "pbessolve",
            "--file=m.aut",
            "--evidence-file=e.json",
            "p.pbes",
        ],
        dir,
    ));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("e.json")).unwrap()).unwrap();
    assert_eq!(json["parameters"], serde_json::json!(["state"]));
    assert!(json["steps"][0]["transition"].is_u64(), "{json}");
}

#[test]
fn pbessolve_refuses_a_model_the_pbes_was_not_made_from() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    model(dir);
    std::fs::write(dir.join("f.mcf"), "[true*.done]false").unwrap();
    // A PBES of the LPS route with the LTS: another file, refused by identity.
    ok(&muon(
        &["lps2pbes", "-c", "-f", "f.mcf", "m.lps", "p.pbes"],
        dir,
    ));
    let o = muon(&["pbessolve", "--file=m.aut", "p.pbes"], dir);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("is not the LPS or LTS"), "{err}");
    // Without `-c` there is no evidence to read.
    ok(&muon(
        &["lts2pbes", "-l", "m.lps", "-f", "f.mcf", "m.aut", "q.pbes"],
        dir,
    ));
    let o = muon(&["pbessolve", "--file=m.aut", "q.pbes"], dir);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no counter-example information"), "{err}");
}

#[test]
fn check_on_an_lts_prints_checked_evidence() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    model(dir);
    std::fs::write(dir.join("f.mcf"), "[true*.done]false").unwrap();
    std::fs::write(dir.join("g.mcf"), "nu X . <true>X").unwrap();
    let o = muon(
        &[
            "check", "m.aut", "-l", "m.lps", "-f", "f.mcf", "-f", "g.mcf",
        ],
        dir,
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("f.mcf: false\ncounterexample (2 steps)"),
        "{out}"
    );
    assert!(out.contains("g.mcf: true\nwitness"), "{out}");
    assert!(out.contains("a lasso"), "{out}");
    // Labels without data need no declarations.
    std::fs::write(dir.join("s.aut"), "des (0,2,2)\n(0,\"a\",1)\n(1,\"b\",1)\n").unwrap();
    std::fs::write(dir.join("h.mcf"), "[true*.b]false").unwrap();
    let o = muon(
        &["check", "s.aut", "-f", "h.mcf", "--evidence-file", "e.aut"],
        dir,
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let steps = step_lines(&String::from_utf8_lossy(&o.stdout));
    assert_eq!(steps.len(), 2, "{steps:?}");
    assert!(steps[1].contains("state: 1 → 1") || steps[1].contains("no parameter changes"));
    let aut = std::fs::read_to_string(dir.join("e.aut")).unwrap();
    assert!(aut.contains("\"a\"") && aut.contains("\"b\""), "{aut}");
    // Declarations belong to an LTS only.
    let o = muon(&["check", "m.mcrl2", "-l", "m.lps", "-f", "h.mcf"], dir);
    assert_eq!(o.status.code(), Some(2));
}

// ---- property test over random LTSs and formulas (library level) ----

fn spec() -> ProcSpec {
    muon::process::typecheck::check_specification(&SourceFile::new(
        "m.mcrl2",
        "act c, d; init delta;",
    ))
    .unwrap()
}

fn formula(spec: &ProcSpec, text: &str) -> FormulaSpec {
    muon::modal::typecheck::check_formula(&SourceFile::new("f.mcf", text), spec)
        .unwrap_or_else(|e| panic!("{text}: {e:?}"))
}

const FORMULAS: &[&str] = &[
    "[true*.c]false",
    "[true*]<true>true",
    "[c][d]false",
    "<true*.d>true",
    "mu X . [true]X",
    "nu X . <true>X",
    "nu X . mu Y . [c]X && [!c]Y",
    "nu X . mu Y . <c>X || <!c>Y",
    "[true*](<c>true || <d>true)",
    "<c>[d]false || [true*.d.true*.c]false",
];

/// The fewest steps to a `c` transition, it included, by breadth-first search.
fn shortest_c(lts: &Lts) -> usize {
    let mut dist = vec![usize::MAX; lts.num_states as usize];
    dist[lts.initial.index()] = 0;
    let mut queue = std::collections::VecDeque::from([lts.initial]);
    let mut best = usize::MAX;
    while let Some(s) = queue.pop_front() {
        for t in lts.transitions.iter().filter(|t| t.from == s) {
            if lts.label_text(t.label) == "c" {
                best = best.min(dist[s.index()] + 1);
            }
            if dist[t.to.index()] == usize::MAX {
                dist[t.to.index()] = dist[s.index()] + 1;
                queue.push_back(t.to);
            }
        }
    }
    best
}

/// The verdict, and the evidence read from the finite proof of the early stop and from the
/// solved game, each confirmed by the independent checker.
fn verdict_and_evidence(lts: &Lts, text: &str) -> (bool, Evidence, Evidence) {
    let spec = spec();
    let f = formula(&spec, text);
    let labels: Vec<Vec<Action>> =
        type_labels(lts, &spec.actions, &mut |_, _| Err("no data".into())).unwrap();
    let plain = lts2pbes(lts, &labels, &spec.data, &f).unwrap();
    let quick = solve_pbes(&plain, &InstOptions::default(), SolverKind::Zielonka, true)
        .unwrap()
        .value;
    let pbes = lts2pbes_with(lts, &labels, &spec.data, &f, true).unwrap();
    let opts = InstOptions {
        keep_origins: true,
        ..InstOptions::default()
    };
    let early = solve_pbes(&pbes, &opts, SolverKind::Zielonka, true).unwrap();
    assert_eq!(early.value, quick, "{text}: verdicts differ with -c");
    let game = early.game.as_ref().map(|(g, s)| (g, s));
    let ev_early = read_lts(
        lts,
        Some(&labels),
        &pbes,
        &early.inst,
        game,
        early.value,
        true,
    )
    .unwrap_or_else(|e| panic!("{text} (early stop): {e}"));
    check_lts_evidence(lts, &spec.data, &f, &ev_early, SolverKind::Zielonka)
        .unwrap_or_else(|e| panic!("{text} (early stop): {e}"));
    let mut out = solve_pbes(&pbes, &opts, SolverKind::Zielonka, false).unwrap();
    assert_eq!(out.value, quick, "{text}: verdicts differ with -c");
    out.inst.justification = None;
    let (game, sol) = out.game.as_ref().unwrap();
    let ev = read_lts(
        lts,
        Some(&labels),
        &pbes,
        &out.inst,
        Some((game, sol)),
        out.value,
        true,
    )
    .unwrap_or_else(|e| panic!("{text}: {e}"));
    for solver in [SolverKind::Zielonka, SolverKind::Gauss] {
        check_lts_evidence(lts, &spec.data, &f, &ev, solver)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    (out.value, ev, ev_early)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn every_verdict_on_an_lts_has_confirmed_evidence(
        lts in reduce_common::arb_lts(Shape {
            max_states: 6,
            max_transitions: 12,
            tau_weight: 1,
            actions: &["c", "d"],
            random_initial: true,
        }),
        fi in 0..FORMULAS.len(),
    ) {
        let text = FORMULAS[fi];
        let (value, ev, early) = verdict_and_evidence(&lts, text);
        // Every step of the evidence LTS carries a label of the model.
        for t in &ev.lts.transitions {
            let l = ev.lts.label_text(t.label);
            prop_assert!(lts.labels.iter().any(|m| m.text() == l), "{l}");
        }
        if !value && fi == 0 {
            prop_assert_eq!(ev.trace.loop_start, None);
            prop_assert_eq!(ev.trace.steps.len(), shortest_c(&lts), "{:?}", lts);
            prop_assert_eq!(early.trace.steps.len(), shortest_c(&lts), "{:?}", lts);
        }
        check_lts_trace(&lts, &ev.trace).unwrap();
        // Corruptions the checker must reject.
        let t = &ev.trace;
        if let Some(i) = t.steps.iter().position(|s| s.from != s.to) {
            let mut bad = t.clone();
            bad.steps[i].to = bad.steps[i].from.clone();
            prop_assert!(check_lts_trace(&lts, &bad).is_err(), "wrong target accepted");
        }
        if let Some(s) = t.steps.first() {
            let mut bad = t.clone();
            bad.steps[0].action = if s.action == "c" { "d".into() } else { "c".into() };
            prop_assert!(check_lts_trace(&lts, &bad).is_err(), "wrong label accepted");
        }
        if t.steps.len() >= 2 && t.steps[1].from != t.initial {
            let mut bad = t.clone();
            bad.steps.remove(0);
            bad.loop_start = None;
            prop_assert!(check_lts_trace(&lts, &bad).is_err(), "missing step accepted");
        }
        if t.loop_start.is_some() {
            let mut bad = t.clone();
            bad.loop_start = Some(t.steps.len());
            prop_assert!(check_lts_trace(&lts, &bad).is_err(), "open lasso accepted");
        }
        let mut bad = t.clone();
        bad.initial = state(lts.num_states);
        prop_assert!(check_lts_trace(&lts, &bad).is_err(), "wrong initial state accepted");
    }
}

// ---- the explicit-state re-check against the route through lts2pbes ----

/// Labels with data: `a: Nat`, `b: Bool`, and the plain `c`.
const DATA_LABELS: &[&str] = &["a(0)", "a(1)", "a(2)", "b(true)", "b(false)", "c", "a(1)|c"];

fn data_spec() -> ProcSpec {
    muon::process::typecheck::check_specification(&SourceFile::new(
        "m.mcrl2",
        "act a: Nat; b: Bool; c; init delta;",
    ))
    .unwrap()
}

/// A small deterministic generator of formula text (xorshift), over the actions of
/// [`data_spec`]: fixpoints (alternating), quantifiers bound by the labels and not, data in
/// `val` and in action formulas.
struct Gen {
    state: u64,
    next_name: usize,
}

impl Gen {
    fn pick(&mut self, n: usize) -> usize {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        (self.state % n as u64) as usize
    }

    fn fresh(&mut self, base: &str) -> String {
        self.next_name += 1;
        format!("{base}{}", self.next_name)
    }

    fn action(&mut self, nats: &[String], bools: &[String], depth: u32) -> String {
        let leaf = depth == 0 || self.pick(3) == 0;
        if leaf {
            return match self.pick(7) {
                0 => "true".into(),
                1 => "c".into(),
                2 => format!("a({})", self.pick(3)),
                3 if !nats.is_empty() => format!("a({})", nats[self.pick(nats.len())]),
                4 if !bools.is_empty() => format!("b({})", bools[self.pick(bools.len())]),
                5 => "b(false)".into(),
                _ => "tau".into(),
            };
        }
        match self.pick(5) {
            0 => format!("!({})", self.action(nats, bools, depth - 1)),
            1 => format!(
                "({} && {})",
                self.action(nats, bools, depth - 1),
                self.action(nats, bools, depth - 1)
            ),
            2 => format!(
                "({} || {})",
                self.action(nats, bools, depth - 1),
                self.action(nats, bools, depth - 1)
            ),
            3 => {
                let m = self.fresh("m");
                format!("(exists {m}: Nat . a({m}) && val({m} > 0))")
            }
            _ => {
                let m = self.fresh("m");
                format!("(forall {m}: Nat . !a({m}) || val({m} < 2))")
            }
        }
    }

    fn state(&mut self, nats: &[String], bools: &[String], fix: &[String], depth: u32) -> String {
        let leaf = depth == 0 || self.pick(4) == 0;
        if leaf {
            return match self.pick(6) {
                0 => "true".into(),
                1 => "false".into(),
                2 if !fix.is_empty() => fix[self.pick(fix.len())].clone(),
                3 if !nats.is_empty() => {
                    format!("val({} < {})", nats[self.pick(nats.len())], self.pick(3))
                }
                4 if nats.len() >= 2 => format!("val({} == {})", nats[0], nats[nats.len() - 1]),
                5 if !bools.is_empty() => format!("val({})", bools[self.pick(bools.len())]),
                _ => format!("<{}>true", self.action(nats, bools, 1)),
            };
        }
        let d = depth - 1;
        match self.pick(10) {
            0 => format!(
                "({} && {})",
                self.state(nats, bools, fix, d),
                self.state(nats, bools, fix, d)
            ),
            1 => format!(
                "({} || {})",
                self.state(nats, bools, fix, d),
                self.state(nats, bools, fix, d)
            ),
            2 => format!(
                "[{}]{}",
                self.action(nats, bools, 2),
                self.state(nats, bools, fix, d)
            ),
            3 => format!(
                "<{}>{}",
                self.action(nats, bools, 2),
                self.state(nats, bools, fix, d)
            ),
            4 | 5 => {
                let x = self.fresh("X");
                let kind = if self.pick(2) == 0 { "mu" } else { "nu" };
                let mut inner = fix.to_vec();
                inner.push(x.clone());
                format!("({kind} {x} . {})", self.state(nats, bools, &inner, d))
            }
            6 => {
                // Bound by the labels: the candidates are the labels' values.
                let n = self.fresh("n");
                let mut inner = nats.to_vec();
                inner.push(n.clone());
                let body = self.state(&inner, bools, fix, d);
                if self.pick(2) == 0 {
                    format!("(forall {n}: Nat . [a({n})]{body})")
                } else {
                    format!("(exists {n}: Nat . <a({n})>{body})")
                }
            }
            7 => {
                let v = self.fresh("v");
                let mut inner = bools.to_vec();
                inner.push(v.clone());
                let q = if self.pick(2) == 0 {
                    "forall"
                } else {
                    "exists"
                };
                format!("({q} {v}: Bool . {})", self.state(nats, &inner, fix, d))
            }
            8 => {
                // Not bound by the labels: bound by a data guard, or not at all (then the
                // explicit check falls back).
                let n = self.fresh("n");
                let mut inner = nats.to_vec();
                inner.push(n.clone());
                let body = self.state(&inner, bools, fix, d);
                match self.pick(3) {
                    0 => format!("(forall {n}: Nat . val({n} < 3) => {body})"),
                    1 => format!("(exists {n}: Nat . val(1 <= {n} && {n} <= 2) && {body})"),
                    _ => format!("(exists {n}: Nat . {body})"),
                }
            }
            _ => format!("[true*]{}", self.state(nats, bools, fix, d)),
        }
    }
}

/// The verdict of `text` by the explicit-state evaluator (`None` where it does not cover
/// the formula) and by `lts2pbes` with a solver (an error where instantiation cannot
/// eliminate a quantifier).
fn both_rechecks(lts: &Lts, text: &str) -> (Option<bool>, Result<bool, String>) {
    let spec = data_spec();
    let f = formula(&spec, text);
    let store = muon::data::TermStore::new();
    let parser = muon::lts::typed::LabelArgParser::new(&spec.data, &store);
    let labels = type_labels(lts, &spec.actions, &mut |t, s| parser.parse(t, s)).unwrap();
    let reference = verdict_by_pbes(lts, &labels, &spec.data, &f, SolverKind::Zielonka)
        .map_err(|e| e.to_string());
    let explicit = check_explicit(lts, &labels, &spec.data, &f).ok();
    (explicit, reference)
}

#[test]
fn the_explicit_recheck_covers_the_seed_formulas_shapes() {
    let lts = Lts {
        initial: muon::lts::StateId(0),
        num_states: 3,
        labels: std::iter::once(muon::lts::Label::tau())
            .chain(DATA_LABELS.iter().map(|a| muon::lts::Label::from_text(*a)))
            .collect(),
        transitions: [(0, 1, 1), (1, 2, 2), (2, 3, 0), (0, 6, 2)]
            .iter()
            .map(|&(f, l, t)| muon::lts::Transition {
                from: muon::lts::StateId(f),
                label: muon::lts::LabelId(l),
                to: muon::lts::StateId(t),
            })
            .collect(),
    };
    for text in [
        "[true*] forall p: Nat . [a(p)] [true*] forall q: Nat . [a(q)] val(p == q)",
        "[true*] forall p: Nat . [a(p)] val(p < 3)",
        "[true*] forall v: Bool . [b(v)] false",
        "mu X . <c>true || <true>X",
        "nu X . mu Y . [a(0)]X && [!a(0)]Y",
        "<exists m: Nat . a(m) && val(m > 1)>true",
        "[true*] forall p: Nat . [a(p)] [true*] forall v: Nat . [a(v)] false",
        "forall p: Nat . val(1 <= p && p <= 3) => mu X . ([!a(p)]X && <true>true)",
        "exists p: Nat . val(p < 2) && <a(p)>true",
    ] {
        let (explicit, reference) = both_rechecks(&lts, text);
        assert_eq!(explicit.map(Ok), Some(reference), "{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn the_explicit_recheck_agrees_with_lts2pbes(
        lts in reduce_common::arb_lts(Shape {
            max_states: 6,
            max_transitions: 12,
            tau_weight: 1,
            actions: DATA_LABELS,
            random_initial: true,
        }),
        seed in 1..u64::MAX,
    ) {
        let text = Gen { state: seed, next_name: 0 }.state(&[], &[], &[], 4);
        // Where both decide, they agree. (The explicit check also decides some formulas
        // whose quantifier instantiation cannot eliminate, such as `exists n: Nat . [true*]false`.)
        let (explicit, reference) = both_rechecks(&lts, &text);
        if let (Some(v), Ok(r)) = (explicit, reference) {
            prop_assert_eq!(v, r, "{}", text);
        }
    }
}
