//! Peak memory of `lts2pbes` on an LTS with 20,000 distinct data labels, measured by a
//! counting global allocator (no timing): typing the labels once made and leaked a term
//! store per label (2 GB); now one simplifier serves all labels.
//!
//! The allocator counts every allocation of this test binary, so the file holds this one
//! test alone.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use muon::lts::typed::type_labels;
use muon::lts::typed::LabelArgParser;
use muon::modal::typecheck::check_formula;
use muon::pbes::lts2pbes::lts2pbes;
use muon::process::typecheck::check_specification;
use muon::source::SourceFile;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
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

const LABELS: usize = 20_000;

#[test]
fn lts2pbes_with_20000_data_labels_stays_under_100_mb() {
    let spec_text = "act a: Nat;\nproc P(n: Nat) = (n < 20000) -> a(n) . P(n + 1);\ninit P(0);\n";
    let spec = check_specification(&SourceFile::new("labels.mcrl2", spec_text)).unwrap();
    let mut aut = format!("des (0,{LABELS},{})\n", LABELS + 1);
    for i in 0..LABELS {
        aut.push_str(&format!("({i},\"a({i})\",{})\n", i + 1));
    }
    let lts = muon::lts::aut::parse_aut(&aut, "labels.aut").unwrap();
    let formula = check_formula(&SourceFile::new("f.mcf", "[true*]<true>true"), &spec).unwrap();

    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let store = muon::data::TermStore::new();
    let parser = LabelArgParser::new(&spec.data, &store);
    let labels = type_labels(&lts, &spec.actions, &mut |t, s| parser.parse(t, s)).unwrap();
    assert_eq!(labels.len(), LABELS);
    let pbes = lts2pbes(&lts, &labels, &spec.data, &formula).unwrap();
    assert!(!pbes.equations.is_empty());
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert!(
        peak < 100 << 20,
        "typing 20,000 labels and building the PBES peaked at {} MB",
        peak >> 20
    );
}
