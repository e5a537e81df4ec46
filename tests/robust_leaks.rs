//! No memory kept across runs of the library's pipeline: linearisation (whose simplifier
//! builds a rewriter), `lps2pbes`, instantiation and solving (a rewriter and an
//! enumerator), and a one-shot normal form, repeated many times, must give back every
//! byte they took. Each rewriter once leaked its term store and its compiled equations, so
//! the live memory grew by several hundred kilobytes per run; a counting global allocator
//! (no timing) pins that it no longer does.
//!
//! The allocator counts every allocation of this test binary, so the file holds this one
//! test alone.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use muon::bes::SolverKind;
use muon::lps::linearise::{linearise, LineariseOptions};
use muon::modal::typecheck::check_formula;
use muon::pbes::inst::InstOptions;
use muon::pbes::lps2pbes::lps2pbes;
use muon::pbes::solve::solve_pbes;
use muon::process::typecheck::check_specification;
use muon::source::SourceFile;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// A model with user equations (so compiled rules exist), sum variables and data actions.
const SPEC: &str = "\
sort Colour = struct red | green | blue;
map next: Colour -> Colour;
    double: Nat -> Nat;
var n: Nat;
eqn next(red) = green;
    next(green) = blue;
    next(blue) = red;
    double(n) = n + n;
act show: Colour # Nat;
    tick;
proc P(c: Colour, k: Nat) =
      (k < 4) -> show(c, double(k)) . P(next(c), k + 1)
    + sum m: Nat . (m < 2 && k == 4) -> tick . P(c, m);
init P(red, 0);
";

/// One run of the pipeline: every stage that builds a rewriter, with its result checked.
fn run_once() {
    let spec = check_specification(&SourceFile::new("leak.mcrl2", SPEC)).unwrap();
    let lps = linearise(&spec, LineariseOptions::default()).unwrap();
    let formula = check_formula(
        &SourceFile::new(
            "f.mcf",
            "nu X(n: Nat = 0). [show(red, 0)]<true>true && [true]X(n)",
        ),
        &spec,
    )
    .unwrap();
    let pbes = lps2pbes(&lps, &formula).unwrap();
    let solved = solve_pbes(&pbes, &InstOptions::default(), SolverKind::Zielonka, false).unwrap();
    assert!(solved.value);
    let src = SourceFile::new("e.txt", "next(next(red))");
    let e = muon::data::typecheck::check_data_expr(&src, &spec.data, &[])
        .unwrap_or_else(|_| panic!("next(next(red)) types"));
    let nf = muon::data::rewrite_expr(&spec.data, &e).unwrap();
    assert_eq!(muon::data::print::data_expr_to_string(&nf), "blue");
}

const RUNS: usize = 30;

#[test]
fn the_pipeline_run_many_times_returns_its_memory() {
    // The first run fills what lives for the process (interned names, lazily built tables).
    run_once();
    let before = LIVE.load(Ordering::Relaxed);
    for _ in 0..RUNS {
        run_once();
    }
    let after = LIVE.load(Ordering::Relaxed);
    let grown = after.saturating_sub(before);
    // A leaked store alone is tens of kilobytes (its first chunks and 32 shards); allow a
    // few kilobytes for process-wide tables that grow at most once.
    assert!(
        grown < 16 << 10,
        "{RUNS} runs of the pipeline kept {grown} bytes ({} per run)",
        grown / RUNS
    );
}
