//! Raw throughput of the state-space explorer on a synthetic system: `k` counters modulo `n`
//! (n^k states, k·n^k transitions), each action `tick(i)` incrementing counter `i`. The
//! successor function is nearly free, so this measures the explorer itself: state table,
//! hashing, numbering, parallel batches and output. Used by `scripts/bench-lps2lts`.
//!
//! ```text
//! cargo run --release --example explore_bench -- [--k 8] [--n 7] [--threads 0]
//!     [--strategy bfs|dfs|highway] [--store tree|table] [--max N] [--out FILE.aut]
//!     [--stats-json FILE] [-v]
//! ```

use std::convert::Infallible;
use std::path::PathBuf;
use std::process::ExitCode;

use muon::lts::table::StoreKind;

use muon::lts::{
    generate, ActionPart, ExploreOptions, GenerateOptions, Label, Strategy, TransitionSystem,
};

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
        Vec::with_capacity(self.k)
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

fn main() -> ExitCode {
    let mut k = 8usize;
    let mut n = 7u32;
    let mut opts = GenerateOptions {
        explore: ExploreOptions {
            threads: 0,
            ..ExploreOptions::default()
        },
        ..GenerateOptions::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let value = |i: &mut usize| -> String {
        *i += 1;
        args.get(*i).cloned().unwrap_or_default()
    };
    while i < args.len() {
        let parsed: Result<(), String> = (|| {
            match args[i].as_str() {
                "--k" => k = value(&mut i).parse().map_err(|e| format!("--k: {e}"))?,
                "--n" => n = value(&mut i).parse().map_err(|e| format!("--n: {e}"))?,
                "--threads" => {
                    opts.explore.threads = value(&mut i)
                        .parse()
                        .map_err(|e| format!("--threads: {e}"))?
                }
                "--max" => {
                    opts.explore.max_states =
                        Some(value(&mut i).parse().map_err(|e| format!("--max: {e}"))?)
                }
                "--strategy" => {
                    opts.explore.strategy = match value(&mut i).as_str() {
                        "bfs" => Strategy::Bfs,
                        "dfs" => Strategy::Dfs,
                        "highway" => Strategy::Highway {
                            todo_max: 10_000,
                            seed: 0,
                        },
                        s => return Err(format!("unknown strategy {s}")),
                    }
                }
                "--store" => {
                    opts.explore.store = match value(&mut i).as_str() {
                        "tree" => StoreKind::Tree,
                        "table" => StoreKind::Table,
                        s => return Err(format!("unknown state store {s}")),
                    }
                }
                "--out" => opts.output = Some(PathBuf::from(value(&mut i))),
                "--stats-json" => opts.stats_json = Some(PathBuf::from(value(&mut i))),
                "-v" => opts.verbose = true,
                a => return Err(format!("unknown argument {a}")),
            }
            Ok(())
        })();
        if let Err(e) = parsed {
            eprintln!("explore_bench: {e}");
            return ExitCode::from(2);
        }
        i += 1;
    }
    if k == 0 || n == 0 {
        eprintln!("explore_bench: --k and --n must be positive");
        return ExitCode::from(2);
    }
    let sys = Counters { k, n };
    let mut log = std::io::stderr();
    match generate(&sys, &opts, &mut log) {
        Ok(r) => {
            let s = &r.summary;
            println!(
                "k={k} n={n} states={} transitions={} levels={} seconds={:.3} states/s={:.0} table_bytes/state={:.1} peak_bytes/state={}",
                s.states,
                s.transitions,
                s.levels,
                s.seconds,
                s.states as f64 / s.seconds.max(1e-9),
                s.table_bytes as f64 / s.states as f64,
                r.peak_memory_kib
                    .map(|p| format!("{:.1}", p as f64 * 1024.0 / s.states as f64))
                    .unwrap_or_else(|| "?".into())
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("explore_bench: {e}");
            ExitCode::from(1)
        }
    }
}
