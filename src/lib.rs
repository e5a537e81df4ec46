//! muon: checks modal μ-calculus properties of mCRL2 process specifications.
//!
//! The crate is organised as one module per pipeline stage; see `ARCHITECTURE.md` for the
//! pipeline, the artifact types passed between stages, and the invariants each stage keeps.

// `unsafe` is denied everywhere but in the one prefetch hint of `lts::prefetch`, whose
// block proves itself sound.
#![deny(unsafe_code)]

/// `eprintln!` that cannot panic: when standard error is closed or fails (`muon … 2>&1 |
/// head -1`), the message is lost, not the run. Every diagnostic and note goes through it.
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($t)*);
    }};
}

/// `println!` for results that cannot panic: a closed standard output (`muon check … |
/// head -1`) ends the run at once and quietly, as it ends mCRL2's tools; another write
/// error ends it with a message (see [`budget::stdout_failed`]).
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout().lock(), $($t)*) {
            $crate::budget::stdout_failed(e);
        }
    }};
}

/// `print!` as [`outln!`]: no newline added.
macro_rules! out {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($t)*) {
            $crate::budget::stdout_failed(e);
        }
    }};
}

pub mod artifact;
pub mod bes;
pub mod budget;
pub mod check;
pub mod cli;
pub mod data;
pub mod distrib;
pub mod evidence;
pub mod lps;
pub mod lts;
pub mod modal;
pub mod monitor;
pub mod pbes;
pub mod print;
pub mod process;
pub mod product;
pub mod progress;
pub mod reduce;
pub mod sim;
pub mod source;
pub mod syntax;
