//! The tree-compressed and the flat state store explore identically: the same numbering, so
//! byte-identical `.aut` files, for one and two threads, on the corpus and seed models.

#[path = "cli_common/mod.rs"]
mod cli_common;
use cli_common::s;

#[cfg(feature = "corpus")]
#[path = "shared_corpus/mod.rs"]
mod shared_corpus;

use std::path::{Path, PathBuf};
use std::process::Command;

use muon::lts::table::StoreKind;
use muon::lts::{ExploreOptions, Explorer, Strategy, Transition, TransitionSystem};

fn muon(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn linearise(spec: &Path, dir: &Path) -> PathBuf {
    let lps = dir.join(spec.file_stem().unwrap()).with_extension("lps");
    let (code, err) = muon(&["mcrl22lps", s(spec), s(&lps)]);
    assert_eq!(code, 0, "mcrl22lps {}: {err}", spec.display());
    lps
}

/// Runs `lps2lts` with both stores and 1 and 2 threads (plus `extra` options) and checks
/// that all four `.aut` files are the same; returns it.
fn same_aut_for_all_stores(lps: &Path, dir: &Path, extra: &[&str]) -> String {
    let mut first: Option<(String, String)> = None;
    for store in ["table", "tree"] {
        for threads in ["1", "2"] {
            let aut = dir.join(format!("out_{store}_{threads}.aut"));
            let mut args = vec![
                "lps2lts",
                s(lps),
                s(&aut),
                "-q",
                "--state-store",
                store,
                "--threads",
                threads,
            ];
            args.extend_from_slice(extra);
            let (code, err) = muon(&args);
            assert_eq!(code, 0, "{} {store} {threads}: {err}", lps.display());
            let text = std::fs::read_to_string(&aut).unwrap();
            let run = format!("--state-store {store} --threads {threads} {extra:?}");
            match &first {
                None => first = Some((run, text)),
                Some((r0, t0)) => assert!(
                    *t0 == text,
                    "{}: `{run}` and `{r0}` give different .aut files",
                    lps.display()
                ),
            }
        }
    }
    first.unwrap().1
}

#[cfg(feature = "corpus")]
#[test]
fn stores_give_identical_aut_on_corpus_models() {
    let corpus = shared_corpus::dir();
    let oracle = std::fs::read_to_string(corpus.join("oracle.tsv")).expect("readable oracle.tsv");
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for line in oracle.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        // Finite models with at least 5 parameters (tree compression has work to do), small
        // enough for a debug build.
        if f.len() < 8 || !f[1].is_empty() || f[7] != "finite" {
            continue;
        }
        let (states, params): (usize, usize) = (f[2].parse().unwrap(), f[6].parse().unwrap());
        if params < 5 || states > 2000 {
            continue;
        }
        let lps = linearise(&corpus.join(f[0]), dir.path());
        let aut = same_aut_for_all_stores(&lps, dir.path(), &[]);
        assert!(
            aut.starts_with("des (0,")
                && aut
                    .lines()
                    .next()
                    .unwrap()
                    .ends_with(&format!(",{states})")),
            "{}: {}",
            f[0],
            aut.lines().next().unwrap()
        );
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} corpus models compared");
}

#[test]
fn stores_give_identical_aut_on_seed_models() {
    let dir = tempfile::tempdir().unwrap();
    // A.1 in full (24,484 states, as mCRL2), and the first
    // states of D.1 type B (36 parameters) and B.1 up to a bound, which exercises the bound
    // on keys from the parallel phase.
    let a1 = linearise(Path::new("lps/A1_binary_heartbeat.mcrl2"), dir.path());
    let aut = same_aut_for_all_stores(&a1, dir.path(), &[]);
    assert!(aut.starts_with("des (0,39907,24484)\n"), "{}", &aut[..40]);
    let d1 = linearise(Path::new("lps/D1_failure_detector_typeB.mcrl2"), dir.path());
    let aut = same_aut_for_all_stores(&d1, dir.path(), &["--max", "3000"]);
    assert!(aut.lines().next().unwrap().ends_with(",3000)"));
    let b1 = linearise(Path::new("lps/B1_consensus.mcrl2"), dir.path());
    same_aut_for_all_stores(&b1, dir.path(), &["--max", "1500"]);
    // Depth-first numbering does not depend on the store either.
    same_aut_for_all_stores(&d1, dir.path(), &["--max", "1000", "-s", "dfs"]);
}

/// Bit vectors of `k` bits where step `i` flips bit `i`: `2^k` states whose sub-vectors
/// are shared as much as possible, the case tree compression is made for.
struct Bits {
    k: usize,
}

impl TransitionSystem for Bits {
    type Label = u32;
    type Error = std::convert::Infallible;
    type Worker = Vec<u32>;
    fn state_width(&self) -> usize {
        self.k
    }
    fn worker(&self) -> Vec<u32> {
        Vec::new()
    }
    fn initial_state(&self, _: &mut Vec<u32>, out: &mut Vec<u32>) -> Result<(), Self::Error> {
        out.resize(self.k, 0);
        Ok(())
    }
    fn successors(
        &self,
        w: &mut Vec<u32>,
        s: &[u32],
        emit: &mut dyn FnMut(&u32, &[u32]),
    ) -> Result<(), Self::Error> {
        for i in 0..self.k {
            w.clear();
            w.extend_from_slice(s);
            w[i] ^= 1;
            emit(&(i as u32), w);
        }
        Ok(())
    }
    fn label(&self, l: &u32) -> muon::lts::Label {
        muon::lts::Label::from_parts(vec![muon::lts::ActionPart::new(
            "flip",
            vec![l.to_string()],
        )])
    }
}

fn explore(
    sys: &Bits,
    store: StoreKind,
    threads: usize,
    strategy: Strategy,
) -> (Vec<Transition>, u64, Vec<Vec<u32>>) {
    let mut ex = Explorer::new(
        sys,
        ExploreOptions {
            store,
            threads,
            strategy,
            ..ExploreOptions::default()
        },
    );
    let mut ts = Vec::new();
    let sum = ex.run(&mut ts).unwrap();
    let rows = (0..sum.states as u32)
        .map(|i| ex.state(muon::lts::StateId(i)))
        .collect();
    (ts, sum.table_bytes, rows)
}

#[test]
fn tree_store_numbers_like_the_table_and_is_smaller() {
    let sys = Bits { k: 16 };
    let (t_table, bytes_table, rows_table) = explore(&sys, StoreKind::Table, 1, Strategy::Bfs);
    assert_eq!(rows_table.len(), 1 << 16);
    assert_eq!(t_table.len(), 16 << 16);
    for (store, threads, strategy) in [
        (StoreKind::Tree, 1, Strategy::Bfs),
        (StoreKind::Tree, 3, Strategy::Bfs),
        (
            StoreKind::Tree,
            2,
            Strategy::Highway {
                todo_max: 1 << 20,
                seed: 5,
            },
        ),
    ] {
        let (t, bytes, rows) = explore(&sys, store, threads, strategy);
        assert!(t == t_table, "{store:?} {threads} {strategy:?}");
        assert!(rows == rows_table, "decoded rows differ");
        // 65,536 states of 16 words: 64 bytes of row each in the table; the tree needs one
        // root pair per state plus few shared nodes.
        assert!(
            bytes * 2 < bytes_table,
            "tree {bytes} B, table {bytes_table} B"
        );
    }
    // Depth-first: the same numbering with both stores.
    let (d_table, _, _) = explore(&sys, StoreKind::Table, 1, Strategy::Dfs);
    let (d_tree, _, _) = explore(&sys, StoreKind::Tree, 1, Strategy::Dfs);
    assert!(d_table == d_tree);
}

/// A random process over `x: Nat` (mod 40), `y: Nat` (mod 30) and `b: Bool`: guarded
/// updates, a sum with data in the action, tau steps and multi-actions, up to 2,400 states.
fn random_spec() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let summand = (0u8..5, 0u32..40, 1u32..7, 0u32..30).prop_map(|(kind, c, d, e)| match kind {
        0 => format!("(x != {c}) -> a(y) . P(x = (x + {d}) mod 40)"),
        1 => format!("sum k: Nat . (k < {d} && y != {e}) -> f(k) . P(y = (y + k) mod 30, b = !b)"),
        2 => format!("b -> tau . P(x = (x * {d} + y) mod 40, b = false)"),
        3 => format!("(y < {e}) -> a(x) | g . P(y = y + 1, b = x > {c})"),
        _ => format!("(x + y > {c}) -> g . P(x = {e}, y = y div 2)"),
    });
    prop::collection::vec(summand, 1..6).prop_map(|ss| {
        format!(
            "act a, f: Nat; g;\nproc P(x: Nat, y: Nat, b: Bool) =\n    {};\ninit P(0, 0, true);\n",
            ss.join("\n  + ")
        )
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]

    /// Random specifications, through linearisation and the LPS system (rewriter, summand
    /// memo, labels with data): one, two and three threads and both stores give the numbered
    /// transitions and labels of the reference loop, and so does exploring without the
    /// summand guards.
    #[test]
    fn random_specs_explore_identically_with_threads(src in random_spec()) {
        use muon::lts::lps::LpsSystem;
        let file = muon::source::SourceFile::new("random.mcrl2", src.as_str());
        let spec = muon::process::typecheck::check_specification(&file)
            .unwrap_or_else(|e| panic!("{src}\n{e:?}"));
        let lps = muon::lps::linearise(&spec, muon::lps::LineariseOptions::default())
            .unwrap_or_else(|e| panic!("{src}\n{e:?}"));
        let terms = muon::data::TermStore::new();
        let sys = LpsSystem::new(&lps, &terms, None).unwrap();
        let run = |threads: usize, store: StoreKind, reference_loop: bool| {
            let mut ex = Explorer::new(
                &sys,
                ExploreOptions { threads, store, reference_loop, detect_deadlocks: true, ..ExploreOptions::default() },
            );
            let mut ts: Vec<Transition> = Vec::new();
            let sum = ex.run(&mut ts).unwrap();
            let labels: Vec<String> = ex.labels().iter().map(|l| l.text().to_string()).collect();
            (sum.states, sum.deadlocks, ts, labels)
        };
        // The reference loop against the batched look-ups of every thread count.
        let one = run(1, StoreKind::Tree, true);
        proptest::prop_assert!(one.0 >= 1);
        for (threads, store) in [(1, StoreKind::Tree), (2, StoreKind::Tree), (2, StoreKind::Table), (3, StoreKind::Tree)] {
            proptest::prop_assert!(run(threads, store, false) == one, "{} threads, {:?}:\n{}", threads, store, src);
        }
        // The summand guards (`x != c`, `y < e`, `b`, ...) against evaluating every summand.
        let mut plain = LpsSystem::new(&lps, &terms, None).unwrap();
        plain.set_guards(false);
        let mut ex = Explorer::new(&plain, ExploreOptions { detect_deadlocks: true, ..ExploreOptions::default() });
        let mut ts: Vec<Transition> = Vec::new();
        let sum = ex.run(&mut ts).unwrap();
        let labels: Vec<String> = ex.labels().iter().map(|l| l.text().to_string()).collect();
        proptest::prop_assert!((sum.states, sum.deadlocks, ts, labels) == one, "without guards:\n{}", src);
    }
}
