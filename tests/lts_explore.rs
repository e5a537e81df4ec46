//! The generic explorer on small hand-written transition systems with known state spaces.

use std::convert::Infallible;
use std::fmt;

use muon::lts::table::StoreKind;
use muon::lts::{
    aut, generate, ActionPart, ExploreError, ExploreOptions, Explorer, GenerateOptions, Label,
    LabelId, Lts, StateId, Strategy, Transition, TransitionSystem,
};

/// `k` counters modulo `n`; action `tick(i)` increments counter `i`.
/// States n^k, transitions k·n^k.
struct Counters {
    k: usize,
    n: u32,
}

impl TransitionSystem for Counters {
    type Label = u32;
    type Error = Infallible;
    type Worker = Vec<u32>;
    fn state_width(&self) -> usize {
        self.k
    }
    fn worker(&self) -> Vec<u32> {
        Vec::new()
    }
    fn initial_state(&self, _: &mut Vec<u32>, out: &mut Vec<u32>) -> Result<(), Infallible> {
        out.resize(self.k, 0);
        Ok(())
    }
    fn successors(
        &self,
        w: &mut Vec<u32>,
        s: &[u32],
        emit: &mut dyn FnMut(&u32, &[u32]),
    ) -> Result<(), Infallible> {
        for i in 0..self.k {
            w.clear();
            w.extend_from_slice(s);
            w[i] = (w[i] + 1) % self.n;
            emit(&(i as u32), w);
        }
        Ok(())
    }
    fn label(&self, l: &u32) -> Label {
        Label::from_parts(vec![ActionPart::new("tick", vec![l.to_string()])])
    }
}

/// A line 0..=10: `step` to x+1, `jump(x)` to x+5; state 10 is the only deadlock, and the
/// shortest path to it is jump(0), jump(5).
struct Line;

impl TransitionSystem for Line {
    type Label = (bool, u32);
    type Error = Infallible;
    type Worker = ();
    fn state_width(&self) -> usize {
        1
    }
    fn worker(&self) {}
    fn initial_state(&self, _: &mut (), out: &mut Vec<u32>) -> Result<(), Infallible> {
        out.push(0);
        Ok(())
    }
    fn successors(
        &self,
        _: &mut (),
        s: &[u32],
        emit: &mut dyn FnMut(&(bool, u32), &[u32]),
    ) -> Result<(), Infallible> {
        let x = s[0];
        if x < 10 {
            emit(&(false, x), &[x + 1]);
        }
        if x + 5 <= 10 {
            emit(&(true, x), &[x + 5]);
        }
        Ok(())
    }
    fn label(&self, l: &(bool, u32)) -> Label {
        if l.0 {
            Label::from_parts(vec![ActionPart::new("jump", vec![l.1.to_string()])])
        } else {
            Label::from_parts(vec![ActionPart::new("step", vec![])])
        }
    }
    fn format_state(&self, s: &[u32]) -> String {
        format!("(x = {})", s[0])
    }
}

#[derive(Debug)]
struct Boom(u32);
impl fmt::Display for Boom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot rewrite the condition for x = {}", self.0)
    }
}
impl std::error::Error for Boom {}

/// Like a counter modulo 1000, but computing the successors of 37 fails halfway.
struct Failing;

impl TransitionSystem for Failing {
    type Label = ();
    type Error = Boom;
    type Worker = ();
    fn state_width(&self) -> usize {
        1
    }
    fn worker(&self) {}
    fn initial_state(&self, _: &mut (), out: &mut Vec<u32>) -> Result<(), Boom> {
        out.push(0);
        Ok(())
    }
    fn successors(
        &self,
        _: &mut (),
        s: &[u32],
        emit: &mut dyn FnMut(&(), &[u32]),
    ) -> Result<(), Boom> {
        emit(&(), &[(s[0] + 1) % 1000]);
        if s[0] == 37 {
            return Err(Boom(37));
        }
        emit(&(), &[(s[0] + 2) % 1000]);
        Ok(())
    }
    fn label(&self, _: &()) -> Label {
        Label::tau()
    }
}

/// Emits a row of the wrong width from state 3 on.
struct BadWidth;

impl TransitionSystem for BadWidth {
    type Label = ();
    type Error = Infallible;
    type Worker = ();
    fn state_width(&self) -> usize {
        1
    }
    fn worker(&self) {}
    fn initial_state(&self, _: &mut (), out: &mut Vec<u32>) -> Result<(), Infallible> {
        out.push(0);
        Ok(())
    }
    fn successors(
        &self,
        _: &mut (),
        s: &[u32],
        emit: &mut dyn FnMut(&(), &[u32]),
    ) -> Result<(), Infallible> {
        if s[0] < 3 {
            emit(&(), &[s[0] + 1]);
        } else {
            emit(&(), &[1, 2]);
        }
        Ok(())
    }
    fn label(&self, _: &()) -> Label {
        Label::tau()
    }
}

/// A tiny system with tau and a multi-action with data: 0 -a(1)|b-> 1 -tau-> 0, 1 -c-> 2.
struct Tiny;

impl TransitionSystem for Tiny {
    type Label = u8;
    type Error = Infallible;
    type Worker = ();
    fn state_width(&self) -> usize {
        1
    }
    fn worker(&self) {}
    fn initial_state(&self, _: &mut (), out: &mut Vec<u32>) -> Result<(), Infallible> {
        out.push(100);
        Ok(())
    }
    fn successors(
        &self,
        _: &mut (),
        s: &[u32],
        emit: &mut dyn FnMut(&u8, &[u32]),
    ) -> Result<(), Infallible> {
        match s[0] {
            100 => emit(&0, &[200]),
            200 => {
                emit(&1, &[100]);
                emit(&2, &[300]);
            }
            _ => {}
        }
        Ok(())
    }
    fn label(&self, l: &u8) -> Label {
        match l {
            0 => Label::from_parts(vec![
                ActionPart::new("a", vec!["1".into()]),
                ActionPart::new("b", vec![]),
            ]),
            1 => Label::tau(),
            _ => Label::from_parts(vec![ActionPart::new("c", vec![])]),
        }
    }
}

fn explore_all<S: TransitionSystem>(
    sys: &S,
    opts: ExploreOptions,
) -> (muon::lts::ExploreSummary, Vec<Transition>, Vec<Label>) {
    let mut ex = Explorer::new(sys, opts);
    let mut ts = Vec::new();
    let sum = ex.run(&mut ts).expect("exploration succeeds");
    (sum, ts, ex.labels().to_vec())
}

fn opts(threads: usize) -> ExploreOptions {
    ExploreOptions {
        threads,
        ..ExploreOptions::default()
    }
}

/// The reference: one state at a time on the calling thread, each successor looked up as
/// it comes (the plain sequential search every thread count must reproduce).
fn reference() -> ExploreOptions {
    ExploreOptions {
        reference_loop: true,
        ..ExploreOptions::default()
    }
}

#[test]
fn counter_counts() {
    let (s, ts, labels) = explore_all(&Counters { k: 1, n: 17 }, opts(1));
    assert_eq!((s.states, s.transitions, s.levels), (17, 17, 17));
    assert_eq!(labels.len(), 1);
    assert_eq!(labels[0].text(), "tick(0)");
    // BFS numbering: state i is counter value i.
    for (i, t) in ts.iter().enumerate() {
        assert_eq!(t.from, StateId(i as u32));
        assert_eq!(t.to, StateId(((i + 1) % 17) as u32));
    }
}

#[test]
fn product_counts_and_parallel_equals_sequential() {
    let sys = Counters { k: 3, n: 13 };
    let (s1, t1, l1) = explore_all(&sys, reference());
    assert_eq!(s1.states, 13 * 13 * 13);
    assert_eq!(s1.transitions, 3 * 13 * 13 * 13);
    assert_eq!(s1.levels, 3 * 12 + 1);
    assert_eq!(s1.explored, s1.states);
    for threads in [1, 2, 4] {
        let (s, t, l) = explore_all(&sys, opts(threads));
        assert_eq!(
            (s.states, s.transitions, s.levels),
            (s1.states, s1.transitions, s1.levels)
        );
        assert_eq!(t, t1, "parallel run numbers states differently");
        assert_eq!(l, l1);
    }
}

#[test]
fn product_bigger_than_a_batch_parallel_equals_sequential() {
    // 4·10^4 states: several parallel batches per level, labels first seen in parallel.
    let sys = Counters { k: 4, n: 14 };
    let (s1, t1, _) = explore_all(&sys, reference());
    assert_eq!(s1.states, 14u64.pow(4));
    for threads in [1, 3] {
        let (s2, t2, _) = explore_all(&sys, opts(threads));
        assert_eq!(s1.states, s2.states);
        assert!(t1 == t2, "{threads} threads");
    }
}

#[test]
fn dfs_finds_the_same_state_space() {
    let sys = Counters { k: 2, n: 9 };
    let o = ExploreOptions {
        strategy: Strategy::Dfs,
        threads: 4,
        ..ExploreOptions::default()
    };
    let (s, ts, _) = explore_all(&sys, o);
    assert_eq!((s.states, s.transitions), (81, 162));
    // Depth-first: the first successor of the initial state is expanded last among its
    // siblings, so the second state found (tick(1)) is expanded right after the initial one.
    assert_eq!(ts[0].from, StateId(0));
    assert_eq!(ts[2].from, StateId(2));
}

#[test]
fn highway_is_bounded_and_reproducible() {
    let sys = Counters { k: 3, n: 10 };
    let o = |threads, reference_loop| ExploreOptions {
        strategy: Strategy::Highway {
            todo_max: 5,
            seed: 7,
        },
        threads,
        reference_loop,
        ..ExploreOptions::default()
    };
    let (s1, t1, _) = explore_all(&sys, o(1, true));
    for threads in [1, 4] {
        let (s2, t2, _) = explore_all(&sys, o(threads, false));
        assert_eq!(t1, t2);
        assert_eq!(s1.states, s2.states);
    }
    assert!(s1.states < 1000);
    // At most 5 states per level are expanded (level 1 has only the initial state).
    assert!(s1.explored <= 1 + 5 * u64::from(s1.levels - 1));
    assert_eq!(s1.transitions, 3 * s1.explored);
    // A large enough todo bound makes highway search plain BFS.
    let full = ExploreOptions {
        strategy: Strategy::Highway {
            todo_max: 10_000,
            seed: 1,
        },
        ..ExploreOptions::default()
    };
    let (s3, t3, _) = explore_all(&sys, full);
    let (_, t4, _) = explore_all(&sys, reference());
    assert_eq!(s3.states, 1000);
    assert_eq!(t3, t4);
}

#[test]
fn max_states_stops_cleanly() {
    let sys = Counters { k: 2, n: 10 };
    for threads in [1, 3] {
        let o = ExploreOptions {
            max_states: Some(37),
            threads,
            ..ExploreOptions::default()
        };
        let (s, ts, _) = explore_all(&sys, o);
        // mCRL2's rule: the state that finds the 37th state is expanded in full, then the
        // exploration stops; the result is a prefix of the full exploration.
        let (_, full_ts, _) = explore_all(&sys, ExploreOptions::default());
        let finder = full_ts.iter().find(|t| t.to.0 == 36).unwrap().from.0;
        assert_eq!(s.explored, u64::from(finder) + 1);
        let prefix: Vec<_> = full_ts
            .iter()
            .filter(|t| t.from.0 <= finder)
            .copied()
            .collect();
        assert_eq!(ts, prefix);
        assert!(s.states >= 37);
        assert_eq!(
            s.states,
            prefix.iter().map(|t| u64::from(t.to.0) + 1).max().unwrap()
        );
        assert!(s.stopped_at_max);
        assert_eq!(s.transitions, ts.len() as u64);
    }
    let (a, ta, _) = explore_all(
        &sys,
        ExploreOptions {
            max_states: Some(37),
            ..reference()
        },
    );
    let (b, tb, _) = explore_all(
        &sys,
        ExploreOptions {
            max_states: Some(37),
            threads: 2,
            ..ExploreOptions::default()
        },
    );
    assert_eq!((a.explored, a.transitions), (b.explored, b.transitions));
    assert_eq!(ta, tb);
    // A bound above the state space (100 states) changes nothing; a bound equal to it
    // stops once the last state is found, as mCRL2 does, leaving later states unexplored.
    let bounded = |max| {
        explore_all(
            &sys,
            ExploreOptions {
                max_states: Some(max),
                ..ExploreOptions::default()
            },
        )
        .0
    };
    let c = bounded(101);
    assert!(!c.stopped_at_max);
    assert_eq!((c.states, c.explored), (100, 100));
    let d = bounded(100);
    assert!(d.stopped_at_max);
    assert_eq!(d.states, 100);
    assert!(d.explored < 100);
}

#[test]
fn deadlocks_actions_and_shortest_trace() {
    for threads in [1, 2] {
        let o = ExploreOptions {
            threads,
            detect_deadlocks: true,
            detect_actions: vec!["jump".into()],
            keep_parents: true,
            ..ExploreOptions::default()
        };
        let mut ex = Explorer::new(&Line, o);
        let s = ex.run(&mut ()).unwrap();
        assert_eq!((s.states, s.transitions), (11, 10 + 6));
        assert_eq!(s.deadlock_count, 1);
        assert_eq!(s.deadlocks.len(), 1);
        let d = s.deadlocks[0];
        assert_eq!(ex.state(d), &[10]);
        let trace = ex.trace_to(d).unwrap();
        let texts: Vec<&str> = trace.iter().map(|(l, _)| l.text()).collect();
        assert_eq!(texts, vec!["jump(0)", "jump(5)"]);
        assert_eq!(trace.last().unwrap().1, d);
        assert_eq!(s.action_count, 6);
        assert!(s
            .action_hits
            .iter()
            .all(|h| ex.labels()[h.transition.label.index()].has_action("jump")));
    }
}

#[test]
fn failing_successor_function_is_a_clean_error() {
    for threads in [1, 4] {
        let mut ex = Explorer::new(&Failing, opts(threads));
        let err = ex.run(&mut Vec::new()).unwrap_err();
        match &err {
            ExploreError::System {
                state: Some(s),
                source,
            } => {
                assert_eq!(ex.state(*s), &[37]);
                assert_eq!(source.0, 37);
            }
            e => panic!("unexpected error {e}"),
        }
        assert!(err.to_string().contains("cannot rewrite"));
    }
    // Through `generate`, no output file is left behind and the message shows the state.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fail.aut");
    let g = GenerateOptions {
        output: Some(out.clone()),
        ..GenerateOptions::default()
    };
    let e = generate(&Failing, &g, &mut Vec::new()).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("while exploring state"), "{msg}");
    assert!(msg.contains("[37]"), "{msg}");
    assert!(!out.exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn wrong_width_is_an_error_not_a_panic() {
    for threads in [1, 2] {
        let e = Explorer::new(&BadWidth, opts(threads))
            .run(&mut ())
            .unwrap_err();
        assert!(
            matches!(
                e,
                ExploreError::Width {
                    expected: 1,
                    found: 2
                }
            ),
            "{e}"
        );
    }
}

#[test]
fn aut_output_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tiny.aut");
    let g = GenerateOptions {
        output: Some(out.clone()),
        ..GenerateOptions::default()
    };
    let r = generate(&Tiny, &g, &mut Vec::new()).unwrap();
    assert_eq!(
        (r.summary.states, r.summary.transitions, r.labels),
        (3, 3, 3)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(
        text,
        "des (0,3,3)\n(0,\"a(1)|b\",1)\n(1,\"tau\",0)\n(1,\"c\",2)\n"
    );
    let lts = aut::parse_aut(&text, "tiny.aut").unwrap();
    assert_eq!(lts.labels[0].parts().unwrap()[0].args, vec!["1"]);
    assert!(lts.labels[1].is_tau());
    assert_eq!(lts.deadlock_states(), vec![StateId(2)]);
}

#[test]
fn output_formats_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let sys = Counters { k: 2, n: 7 };
    let run = |name: &str| {
        let p = dir.path().join(name);
        let g = GenerateOptions {
            output: Some(p.clone()),
            explore: opts(2),
            ..GenerateOptions::default()
        };
        generate(&sys, &g, &mut Vec::new()).unwrap();
        p
    };
    let aut_path = run("p.aut");
    let lts_path = run("p.lts");
    let dot_path = run("p.dot");
    let from_aut = Lts::read_file(Some(&aut_path)).unwrap();
    let from_lts = Lts::read_file(Some(&lts_path)).unwrap();
    assert_eq!(from_aut, from_lts);
    assert_eq!(from_aut.num_states, 49);
    assert_eq!(from_aut.transitions.len(), 98);
    assert_eq!(from_aut.label_text(LabelId(1)), "tick(1)");
    // Writing the parsed LTS again gives the same bytes.
    let mut again = Vec::new();
    aut::write_aut(&from_lts, &mut again).unwrap();
    assert_eq!(again, std::fs::read(&aut_path).unwrap());
    let dot = std::fs::read_to_string(&dot_path).unwrap();
    assert!(dot.starts_with("digraph \"p\" {"));
    assert!(dot.contains("0 -> 1 [label=\"tick(0)\"];"));
    // An unknown extension is refused before exploring.
    let g = GenerateOptions {
        output: Some(dir.path().join("p.txt")),
        ..GenerateOptions::default()
    };
    assert!(generate(&sys, &g, &mut Vec::new()).is_err());
    assert!(!dir.path().join("p.txt").exists());
}

#[test]
fn generate_writes_traces_and_stats() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("line");
    let stats = dir.path().join("stats.json");
    let g = GenerateOptions {
        explore: ExploreOptions {
            detect_deadlocks: true,
            detect_actions: vec!["jump".into()],
            threads: 2,
            ..ExploreOptions::default()
        },
        traces: Some(2),
        trace_prefix: prefix,
        stats_json: Some(stats.clone()),
        ..GenerateOptions::default()
    };
    let mut log = Vec::new();
    let r = generate(&Line, &g, &mut log).unwrap();
    let log = String::from_utf8(log).unwrap();
    assert!(log.contains("deadlock found (state index: 5)"), "{log}");
    assert_eq!(r.traces.len(), 3);
    // A system without parameters shows its state numbers as the parameter `state`.
    let dlk = std::fs::read_to_string(dir.path().join("line_dlk_0.trc")).unwrap();
    assert_eq!(
        dlk,
        "muon trace 1\nparameters: state\ntrace to deadlock state 5 (2 steps):\n  \
         initial state: state = 0\n  1    jump(0)   state: 0 → 2\n  2    jump(5)   state: 2 → 5\n"
    );
    // The first jump found is jump(0) itself; the second is jump(1) after one step.
    let act0 = std::fs::read_to_string(dir.path().join("line_act_0_jump.trc")).unwrap();
    assert!(
        act0.ends_with("(1 step):\n  initial state: state = 0\n  1    jump(0)   state: 0 → 2\n"),
        "{act0}"
    );
    let act1 = std::fs::read_to_string(dir.path().join("line_act_1_jump.trc")).unwrap();
    assert!(
        act1.ends_with("  1    step      state: 0 → 1\n  2    jump(1)   state: 1 → 4\n"),
        "{act1}"
    );
    let json = std::fs::read_to_string(&stats).unwrap();
    assert!(json.contains("\"states\": 11,"), "{json}");
    assert!(json.contains("\"transitions\": 16,"), "{json}");
    assert!(json.contains("\"deadlocks\": 1,"), "{json}");
    assert!(json.contains("\"complete\": true"), "{json}");
}

/// A random system over rows of `width` words in `0..m`: each state's successors (zero to
/// `branch`, changing one or two words) and labels are a hash of the state and `seed`, so
/// the state space is an arbitrary graph with duplicates, self-loops and deadlocks.
struct RandomSystem {
    width: usize,
    m: u32,
    branch: u64,
    seed: u64,
}

impl RandomSystem {
    fn mix(&self, state: &[u32], i: u64) -> u64 {
        let mut h = self.seed ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for &w in state {
            h = (h ^ u64::from(w))
                .wrapping_mul(0x100_0000_01B3)
                .rotate_left(29);
        }
        h ^= h >> 31;
        h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h ^ (h >> 29)
    }
}

impl TransitionSystem for RandomSystem {
    type Label = u32;
    type Error = Infallible;
    type Worker = Vec<u32>;
    fn state_width(&self) -> usize {
        self.width
    }
    fn worker(&self) -> Vec<u32> {
        Vec::new()
    }
    fn initial_state(&self, _: &mut Vec<u32>, out: &mut Vec<u32>) -> Result<(), Infallible> {
        out.resize(self.width, 0);
        Ok(())
    }
    fn successors(
        &self,
        w: &mut Vec<u32>,
        s: &[u32],
        emit: &mut dyn FnMut(&u32, &[u32]),
    ) -> Result<(), Infallible> {
        let n = self.mix(s, u64::MAX) % (self.branch + 1);
        for i in 0..n {
            let h = self.mix(s, i);
            w.clear();
            w.extend_from_slice(s);
            let wd = self.width as u64;
            w[(h % wd) as usize] = ((h >> 8) % u64::from(self.m)) as u32;
            if (h >> 16) & 1 == 1 {
                w[((h >> 20) % wd) as usize] = ((h >> 28) % u64::from(self.m)) as u32;
            }
            emit(&(((h >> 40) % 5) as u32), w);
        }
        Ok(())
    }
    fn label(&self, l: &u32) -> Label {
        Label::from_parts(vec![ActionPart::new("r", vec![l.to_string()])])
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Every thread count and both stores number random state spaces as the reference loop
    /// does (the transitions in order, deadlocks, counts), explored in full and cut at a
    /// state bound.
    #[test]
    fn parallel_numbering_equals_sequential_on_random_systems(
        width in 1usize..8,
        m in 2u32..5,
        branch in 1u64..5,
        seed in proptest::prelude::any::<u64>(),
        bound in 1u64..3_000,
    ) {
        let sys = RandomSystem { width, m, branch, seed };
        for max_states in [None, Some(bound)] {
            let run = |threads: usize, store: StoreKind, reference_loop: bool| {
                explore_all(
                    &sys,
                    ExploreOptions {
                        threads,
                        reference_loop,
                        store,
                        max_states,
                        detect_deadlocks: true,
                        ..ExploreOptions::default()
                    },
                )
            };
            let (s1, t1, l1) = run(1, StoreKind::Tree, true);
            for (threads, store) in [
                (1, StoreKind::Tree),
                (2, StoreKind::Tree),
                (3, StoreKind::Tree),
                (1, StoreKind::Table),
                (2, StoreKind::Table),
            ] {
                let (s, t, l) = run(threads, store, false);
                proptest::prop_assert_eq!(
                    (s.states, s.explored, s.transitions, s.levels, s.stopped_at_max),
                    (s1.states, s1.explored, s1.transitions, s1.levels, s1.stopped_at_max)
                );
                proptest::prop_assert_eq!(&s.deadlocks, &s1.deadlocks);
                proptest::prop_assert!(t == t1, "{} threads, {:?}: other numbering", threads, store);
                proptest::prop_assert_eq!(&l, &l1);
            }
        }
    }

    /// A sink that keeps no transitions (the counting path of a batch) and the parent
    /// pointers of every state are the same for every thread count as for the reference
    /// loop.
    #[test]
    fn parallel_counts_and_parents_equal_sequential_on_random_systems(
        width in 1usize..8,
        m in 2u32..5,
        branch in 1u64..5,
        seed in proptest::prelude::any::<u64>(),
    ) {
        let sys = RandomSystem { width, m, branch, seed };
        let run = |threads: usize, reference_loop: bool| {
            let mut ex = Explorer::new(
                &sys,
                ExploreOptions {
                    threads,
                    reference_loop,
                    keep_parents: true,
                    detect_deadlocks: true,
                    ..ExploreOptions::default()
                },
            );
            let s = ex.run(&mut ()).expect("exploration succeeds");
            // The path to every state (at most 200 of them): parents decide it.
            let paths: Vec<Vec<(String, StateId)>> = (0..s.states.min(200) as u32)
                .map(|i| {
                    let step = StateId(((u64::from(i) * 7919) % s.states) as u32);
                    ex.trace_to(step)
                        .expect("a parent path")
                        .into_iter()
                        .map(|(l, t)| (l.text().to_string(), t))
                        .collect()
                })
                .collect();
            let rows: Vec<Vec<u32>> = (0..s.states as u32).map(|i| ex.state(StateId(i))).collect();
            ((s.states, s.explored, s.transitions, s.levels, s.deadlocks), paths, rows)
        };
        let one = run(1, true);
        for threads in [1, 2, 3] {
            let other = run(threads, false);
            proptest::prop_assert_eq!(&other.0, &one.0, "{} threads: other counts", threads);
            proptest::prop_assert!(other.1 == one.1, "{} threads: other parents", threads);
            proptest::prop_assert!(other.2 == one.2, "{} threads: other numbering", threads);
        }
    }
}
