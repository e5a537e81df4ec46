//! `muon ltscompare`: decide whether two LTSs are equivalent.
//!
//! Prints `true` or `false` and exits 0 when they are equivalent, 1 when they are not and
//! 2 on an error (unreadable input, a determinisation over its bound). With `-c` and
//! `-e bisim`, a distinguishing Hennessy–Milner formula (true in the first LTS, false in the
//! second) is written to a `.mcf` file when they differ.

use std::path::PathBuf;
use std::process::ExitCode;

use super::ltsconvert::EqArg;
use super::Global;
use crate::artifact::{write_output, ArtifactError};
use crate::lts::Lts;
use crate::reduce::counterexample::distinguishing_formula;
use crate::reduce::{self, Equivalence, ReduceOptions};

/// Arguments of `muon ltscompare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The first LTS (`.aut` or `.lts`; `-` for standard input).
    pub infile1: PathBuf,
    /// The second LTS.
    pub infile2: PathBuf,
    /// Compare modulo this equivalence.
    #[arg(short = 'e', long = "equivalence", value_enum, required = true)]
    pub equivalence: EqArg,
    /// Treat the actions with these names as internal (tau), comma-separated.
    #[arg(long = "tau", value_name = "ACTNAMES", value_delimiter = ',')]
    pub tau: Vec<String>,
    /// When they are not equivalent, write a modal formula that holds in the first LTS and
    /// not in the second (only with `-e bisim`).
    #[arg(short = 'c', long)]
    pub counter_example: bool,
    /// The file the counterexample formula goes to.
    #[arg(long, value_name = "FILE", default_value = "Counterexample.mcf")]
    pub counter_example_file: PathBuf,
    /// With `trace` or `weak-trace`: the most states each determinisation may build.
    #[arg(long, value_name = "NUM", default_value_t = ReduceOptions::default().max_subsets)]
    pub max_states: u64,
}

fn decide(args: &Args) -> miette::Result<Option<bool>> {
    let a = Lts::read_file(Some(&args.infile1))?;
    let b = Lts::read_file(Some(&args.infile2))?;
    let Some(eq) = args.equivalence.equivalence() else {
        return Ok(None);
    };
    let a = reduce::hide_actions(&a, &args.tau);
    let b = reduce::hide_actions(&b, &args.tau);
    let opts = ReduceOptions {
        max_subsets: args.max_states,
    };
    let same = reduce::compare(&a, &b, eq, &opts)?;
    if args.counter_example && !same {
        if eq != Equivalence::Bisim {
            eprintln!(
                "ltscompare: counterexamples are only generated for bisim; none for {}",
                eq.name()
            );
        } else if let Some(f) = distinguishing_formula(&a, &b)? {
            let path = &args.counter_example_file;
            write_output(Some(path), |w| {
                writeln!(w, "{f}").map_err(|source| ArtifactError::Write {
                    path: path.display().to_string(),
                    source,
                })
            })?;
            eprintln!("ltscompare: saved the counterexample to {}", path.display());
        }
    }
    Ok(Some(same))
}

/// Runs `muon ltscompare`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    match decide(args) {
        Ok(Some(same)) => {
            if !g.quiet {
                let eq = args.equivalence.equivalence().expect("decided");
                eprintln!(
                    "ltscompare: the LTSs are {}equivalent modulo {}",
                    if same { "" } else { "not " },
                    eq.name()
                );
            }
            println!("{same}");
            Ok(ExitCode::from(if same { 0 } else { 1 }))
        }
        Ok(None) => {
            eprintln!("Error: ltscompare needs an equivalence other than `none` (-e)");
            Ok(ExitCode::from(2))
        }
        Err(report) => {
            eprintln!("{report:?}");
            Ok(ExitCode::from(2))
        }
    }
}
