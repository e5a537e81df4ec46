//! `muon ltscompare`: decide whether two LTSs are equivalent.
//!
//! Prints `true` or `false` and exits 0 when they are equivalent (with `-p`: the first is
//! included in the second), 1 when they are not and 2 on an error (unreadable input, a
//! determinisation over its bound). With `-c` and `-e bisim`, a distinguishing
//! Hennessy–Milner formula (true in the first LTS, false in the second) is written to a
//! `.mcf` file when they differ (with `-e branching-bisim` or `dpbranching-bisim`, a formula
//! with the branching until modality and divergence as fixpoints), after muon's own `lts2pbes` and solver confirm that it
//! holds in the first and not in the second; with `-c` and a trace or failures preorder, a shortest
//! counterexample is printed: a trace of the first LTS that the second lacks, or a trace
//! with a refusal (failures) or a divergence (failures-divergence) that the second lacks.

use std::path::PathBuf;
use std::process::ExitCode;

use super::ltsconvert::EqArg;
use super::Global;
use crate::artifact::{write_output, ArtifactError};
use crate::bes::SolverKind;
use crate::lts::typed::{label_declarations, type_labels, LabelArgParser};
use crate::lts::Lts;
use crate::modal::typecheck::check_formula;
use crate::pbes::inst::InstOptions;
use crate::pbes::lts2pbes::lts2pbes;
use crate::pbes::solve::solve_pbes;
use crate::progress::{time_stage, Meter, Shown};
use crate::reduce::branching_formula::branching_distinguishing_formula;
use crate::reduce::counterexample::distinguishing_formula;
use crate::reduce::preorder::{trace_inclusion, Preorder};
use crate::reduce::refinement::{refines_watched, Refinement, Violation};
use crate::reduce::simulation::simulation_preorder_watched;
use crate::reduce::{self, Equivalence, ReduceError, ReduceOptions};
use crate::source::SourceFile;

/// Arguments of `muon ltscompare`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's `--timings[=FILE]`.
    #[command(flatten)]
    pub timings: super::compat::Timings,
    /// The first LTS (`.aut` or `.lts`; `-` for standard input).
    pub infile1: PathBuf,
    /// The second LTS.
    pub infile2: PathBuf,
    /// Compare modulo this equivalence.
    #[arg(
        short = 'e',
        long = "equivalence",
        value_enum,
        required_unless_present = "preorder",
        conflicts_with = "preorder"
    )]
    pub equivalence: Option<EqArg>,
    /// Decide whether the first LTS is below the second in this preorder.
    #[arg(short = 'p', long = "preorder", value_enum)]
    pub preorder: Option<PreorderArg>,
    /// Treat the actions with these names as internal (tau), comma-separated.
    #[arg(long = "tau", value_name = "ACTNAMES", value_delimiter = ',')]
    pub tau: Vec<String>,
    /// When they are not equivalent, write a modal formula that holds in the first LTS and
    /// not in the second (with `-e bisim`, `branching-bisim`, `dpbranching-bisim`); when the first is not included in the second
    /// (the preorders other than `sim`), print a shortest counterexample: a trace of the
    /// first that the second lacks, for the failures preorders possibly with a refusal or a
    /// divergence.
    #[arg(short = 'c', long)]
    pub counter_example: bool,
    /// The file the counterexample formula goes to.
    #[arg(long, value_name = "FILE", default_value = "Counterexample.mcf")]
    pub counter_example_file: PathBuf,
    /// With `trace` or `weak-trace`: the most states each determinisation may build (by default as
    /// many as state numbers allow: --memory-limit is what bounds it).
    #[arg(long, value_name = "NUM", default_value_t = ReduceOptions::default().max_subsets)]
    pub max_states: u64,
}

/// The preorders of `-p`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreorderArg {
    /// Trace inclusion (tau is an ordinary action).
    Trace,
    /// Weak trace inclusion (traces of visible actions).
    WeakTrace,
    /// Strong simulation preorder (tau is an ordinary action).
    Sim,
    /// Trace inclusion by an antichain algorithm (the verdict of `trace`).
    TraceAc,
    /// Weak trace inclusion by an antichain algorithm (the verdict of `weak-trace`).
    WeakTraceAc,
    /// Failures refinement (tau is an ordinary action; every state is stable).
    Failures,
    /// Stable failures refinement (weak).
    WeakFailures,
    /// Failures-divergence refinement (always weak).
    FailuresDivergence,
}

/// How a preorder is decided.
enum Check {
    Trace(Preorder),
    Sim,
    Refinement(Refinement),
}

impl PreorderArg {
    fn check(self) -> Check {
        match self {
            PreorderArg::Trace => Check::Trace(Preorder::Trace),
            PreorderArg::WeakTrace => Check::Trace(Preorder::WeakTrace),
            PreorderArg::Sim => Check::Sim,
            PreorderArg::TraceAc => Check::Refinement(Refinement::Trace),
            PreorderArg::WeakTraceAc => Check::Refinement(Refinement::WeakTrace),
            PreorderArg::Failures => Check::Refinement(Refinement::Failures),
            PreorderArg::WeakFailures => Check::Refinement(Refinement::WeakFailures),
            PreorderArg::FailuresDivergence => Check::Refinement(Refinement::FailuresDivergence),
        }
    }

    fn name(self) -> &'static str {
        match self.check() {
            Check::Trace(p) => p.name(),
            Check::Sim => "sim",
            Check::Refinement(r) => r.name(),
        }
    }
}

/// A trace as `a . b . c`, or `(empty)`.
fn show_trace(trace: &[String]) -> String {
    if trace.is_empty() {
        "(empty)".to_string()
    } else {
        trace.join(" . ")
    }
}

/// Decides a preorder, printing a counterexample when asked.
fn decide_preorder(
    args: &Args,
    p: PreorderArg,
    a: &Lts,
    b: &Lts,
    opts: &ReduceOptions,
    meter: &mut Meter,
) -> miette::Result<bool> {
    match p.check() {
        Check::Trace(pre) => {
            let missing = trace_inclusion(a, b, pre, opts)?;
            if let (true, Some(trace)) = (args.counter_example, &missing) {
                errln!(
                    "ltscompare: a trace of the first LTS that the second does not have: {}",
                    show_trace(trace)
                );
            }
            Ok(missing.is_none())
        }
        Check::Sim => {
            let (u, init_b) = reduce::disjoint_union(a, b);
            let included = simulation_preorder_watched(&u, meter)?.le(u.initial, init_b);
            if args.counter_example && !included {
                errln!("ltscompare: counterexamples are not generated for the simulation preorder");
            }
            Ok(included)
        }
        Check::Refinement(r) => {
            let violation = refines_watched(a, b, r, meter).map_err(ReduceError::from)?;
            if args.counter_example {
                match &violation {
                    None => {}
                    Some(Violation::Trace(t)) => errln!(
                        "ltscompare: a trace of the first LTS that the second does not have: {}",
                        show_trace(t)
                    ),
                    Some(Violation::Refusal {
                        trace,
                        accepts,
                        refuses,
                    }) => errln!(
                        "ltscompare: a failure of the first LTS that the second does not have: after {} it refuses {{{}}} (a stable state enabling only {{{}}}); no stable state of the second after this trace refuses them all",
                        show_trace(trace),
                        refuses.join(", "),
                        accepts.join(", ")
                    ),
                    Some(Violation::Divergence(t)) => errln!(
                        "ltscompare: after {} the first LTS can diverge (a tau-cycle) and the second cannot",
                        show_trace(t)
                    ),
                }
            }
            Ok(violation.is_none())
        }
    }
}

/// What was compared, for the message.
fn relation_name(args: &Args) -> String {
    match (args.preorder, args.equivalence.and_then(EqArg::equivalence)) {
        (Some(p), _) => format!("{} preorder", p.name()),
        (None, Some(eq)) => eq.name().to_string(),
        (None, None) => "none".into(),
    }
}

fn decide(args: &Args, g: Global) -> miette::Result<Option<bool>> {
    let a = Lts::read_file(Some(&args.infile1))?;
    let b = Lts::read_file(Some(&args.infile2))?;
    let a = reduce::hide_actions(a, &args.tau);
    let b = reduce::hide_actions(b, &args.tau);
    let opts = ReduceOptions {
        max_subsets: args.max_states,
    };
    if let Some(p) = args.preorder {
        let _timer = time_stage("comparison");
        let mut meter = Meter::new("comparison", Shown::from_flags(g.quiet, g.verbose));
        let included = decide_preorder(args, p, &a, &b, &opts, &mut meter)?;
        meter.finish();
        return Ok(Some(included));
    }
    let Some(eq) = args.equivalence.and_then(EqArg::equivalence) else {
        return Ok(None);
    };
    let timer = time_stage("comparison");
    let mut meter = Meter::new("reduction", Shown::from_flags(g.quiet, g.verbose));
    let same = reduce::compare_watched(&a, &b, eq, &opts, &mut meter)?;
    meter.finish();
    drop(timer);
    if args.counter_example && !same {
        let formula = match eq {
            Equivalence::Bisim => distinguishing_formula(&a, &b)?.map(|f| f.to_string()),
            Equivalence::BranchingBisim | Equivalence::DpBranchingBisim => {
                let dp = eq == Equivalence::DpBranchingBisim;
                branching_distinguishing_formula(&a, &b, dp)?.map(|f| f.to_string())
            }
            _ => {
                errln!(
                    "ltscompare: counterexamples are generated for -e bisim, branching-bisim and dpbranching-bisim (a formula) and the preorders other than sim (a trace); none for {}",
                    eq.name()
                );
                return Ok(Some(same));
            }
        };
        let Some(text) = formula else {
            return Err(miette::miette!(
                "internal error: the LTSs are not equivalent modulo {} but no distinguishing formula was found; please report it",
                eq.name()
            ));
        };
        match confirm(&a, &b, &text) {
            Ok((true, false)) => {}
            Ok((in_a, in_b)) => {
                return Err(miette::miette!(
                    "internal error: the distinguishing formula {text} does not tell the LTSs apart by model checking (first: {in_a}, second: {in_b}); please report it"
                ))
            }
            // Labels with data have no declarations here: the formula stands unconfirmed.
            Err(e) => errln!(
                "ltscompare: warning: the counterexample formula was not confirmed by model checking: {e}"
            ),
        }
        let path = &args.counter_example_file;
        write_output(Some(path), |w| {
            writeln!(w, "{text}").map_err(|source| ArtifactError::Write {
                path: path.display().to_string(),
                source,
            })
        })?;
        errln!("ltscompare: saved the counterexample to {}", path.display());
    }
    Ok(Some(same))
}

/// The truth of the formula `text` in the initial states of `a` and `b`, by muon's own
/// `lts2pbes` and solver: a distinguishing formula is confirmed before it is written. The
/// actions are declared from the labels of both LTSs.
fn confirm(a: &Lts, b: &Lts, text: &str) -> miette::Result<(bool, bool)> {
    let spec = label_declarations(&reduce::disjoint_union(a, b).0)?;
    let formula = check_formula(&SourceFile::new("<counterexample>", text), &spec)
        .map_err(miette::Report::new)?;
    let store = crate::data::TermStore::new();
    let parser = LabelArgParser::new(&spec.data, &store);
    let holds = |lts: &Lts| -> miette::Result<bool> {
        let labels = type_labels(lts, &spec.actions, &mut |t, sort| parser.parse(t, sort))?;
        let pbes = lts2pbes(lts, &labels, &spec.data, &formula)?;
        Ok(solve_pbes(&pbes, &InstOptions::default(), SolverKind::Zielonka, true)?.value)
    };
    Ok((holds(a)?, holds(b)?))
}

/// Runs `muon ltscompare`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    match decide(args, g) {
        Ok(Some(same)) => {
            if !g.quiet {
                let verb = match (args.preorder.is_some(), same) {
                    (true, true) => "the first LTS is included in the second",
                    (true, false) => "the first LTS is not included in the second",
                    (false, true) => "the LTSs are equivalent",
                    (false, false) => "the LTSs are not equivalent",
                };
                errln!("ltscompare: {verb} modulo {}", relation_name(args));
            }
            outln!("{same}");
            Ok(ExitCode::from(if same { 0 } else { 1 }))
        }
        Ok(None) => {
            errln!("Error: ltscompare needs an equivalence other than `none` and `tau-star` (a reduction) (-e), or a preorder (-p)");
            Ok(ExitCode::from(2))
        }
        Err(report) => {
            errln!("{report:?}");
            Ok(ExitCode::from(2))
        }
    }
}
