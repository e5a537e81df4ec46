//! `muon check`: the whole pipeline in one process — parse, type-check, linearise,
//! lps2pbes, instantiate and solve — printing the verdict per formula and its evidence (a
//! counterexample or witness trace, checked). Exit status: 0 when every formula holds, 1
//! when one does not, 2 on an error. With `--reduce`, the formulas are checked on a
//! bisimulation quotient of the state space instead (`check_reduced`); given an LTS
//! (`.aut`, `.lts`) instead of a specification, on that LTS (`check_lts`). With `--engine
//! explore`, regular safety formulas are checked while exploring, with no PBES
//! (`check_explore`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use super::check_reduced::{check_reduced, ReduceArg};
use super::Global;
use crate::artifact::{display_path, read_text};
use crate::evidence::{text, Evidence, Model};
use crate::lps::{linearise, LineariseOptions};
use crate::modal::read_formula;
use crate::pbes::front::proc_spec_of_lps;
use crate::pbes::inst::InstOptions;
use crate::pbes::lps2pbes::{lps2pbes_with, Lps2PbesOptions};
use crate::pbes::solve::{solve_pbes, SolverKind};
use crate::process::typecheck::check_specification;
use crate::progress::time_stage;
use crate::source::SourceFile;

/// Arguments of `muon check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's `--timings[=FILE]`.
    #[command(flatten)]
    pub timings: super::compat::Timings,
    /// The mCRL2 specification, or an LTS (`.aut`, `.lts`) to check the formulas on.
    pub spec: PathBuf,
    /// With an LTS: the mCRL2 specification declaring its actions and data (else the
    /// actions are read off the labels, which then carry no data).
    #[arg(
        short = 'm',
        long = "mcrl2",
        value_name = "SPEC",
        conflicts_with = "lps"
    )]
    pub mcrl2: Option<PathBuf>,
    /// With an LTS: the LPS declaring its actions and data.
    #[arg(short = 'l', long = "lps", value_name = "LPS")]
    pub lps: Option<PathBuf>,
    /// The formula files (`.mcf`) to check.
    #[arg(short = 'f', long = "formula", required = true)]
    pub formulas: Vec<PathBuf>,
    /// The BES solver.
    #[arg(long, value_enum, default_value_t = SolverKind::Zielonka)]
    pub solver: SolverKind,
    /// How to check: `pbes` (lps2pbes, instantiation to a BES, solving; every formula,
    /// evidence for both verdicts) or `explore` (regular safety formulas only, conjunctions
    /// of `[R] φ` with φ local, such as `[true*] <true> true` or `[true* . a] false`:
    /// checked while exploring the state space, with no BES; a false formula gets a
    /// shortest counterexample, confirmed by the independent checker; a true one gets no
    /// evidence, only the count of the states explored in full).
    #[arg(long, value_enum, default_value_t = Engine::Pbes, conflicts_with = "reduce")]
    pub engine: Engine,
    /// Give up after this many BES variables per formula (`--engine pbes`).
    #[arg(long = "max-vars", default_value_t = 100_000_000)]
    pub max_vars: usize,
    /// Print only the verdicts (also under `-q`), without evidence.
    #[arg(long = "no-evidence")]
    pub no_evidence: bool,
    /// Do not confirm the evidence with the independent checker (replaying the trace on
    /// the LPS and re-checking the formula on the evidence LTS).
    #[arg(long = "no-verify", conflicts_with = "no_evidence")]
    pub no_verify: bool,
    /// How to print each verdict and trace: `text` for people, `json` for tools (one JSON
    /// object per formula and line, its verdict included).
    #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
    pub format: TraceFormat,
    /// Write each formula's evidence to DIR as `<formula>.aut`, `<formula>.dot` and
    /// `<formula>.svg` (the evidence LTS; the picture when it is small enough to draw) and
    /// `<formula>.json` and `<formula>.txt` (the trace; a trace file `tracepp` reads when
    /// the evidence is one trace or lasso).
    #[arg(
        long = "evidence-dir",
        value_name = "DIR",
        conflicts_with = "no_evidence"
    )]
    pub evidence_dir: Option<PathBuf>,
    /// Write the evidence of each formula to OUT (one formula) or to OUT with the formula's
    /// name inserted before the extension (several), in the format of the extension:
    /// `.aut`, `.dot`, `.svg`, `.lts` (the evidence LTS), `.json` or `.txt` (the trace).
    #[arg(
        long = "evidence-file",
        value_name = "OUT",
        conflicts_with = "no_evidence"
    )]
    pub evidence_file: Option<PathBuf>,
    /// Explore the state space, reduce it modulo this bisimulation and check the formulas
    /// on the quotient. Formulas the bisimulation may not preserve are refused (branching
    /// bisimulations: modalities that can see tau steps). Verdicts only, no evidence.
    #[arg(long, value_enum, value_name = "EQ", conflicts_with_all = ["evidence_dir", "evidence_file"])]
    pub reduce: Option<ReduceArg>,
    /// With --reduce or --engine explore: threads exploring the state space (default: all
    /// cores).
    #[arg(long, value_name = "NUM", default_value_t = 0)]
    pub threads: usize,
}

/// How `muon check` decides a formula.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Through a PBES and a BES (every formula).
    Pbes,
    /// On the fly while exploring (regular safety formulas).
    Explore,
}

/// How `muon check` prints traces.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceFormat {
    /// One step per line, for people.
    Text,
    /// JSON, for tools.
    Json,
}

/// Runs `muon check`; errors exit with status 2, so that 1 means "a formula is false".
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    match check(args, g) {
        Ok(code) => Ok(code),
        Err(report) => {
            errln!("{report:?}");
            Ok(ExitCode::from(2))
        }
    }
}

/// Where the evidence LTS of `formula` goes.
fn evidence_path(out: &std::path::Path, formula: &std::path::Path, several: bool) -> PathBuf {
    if !several {
        return out.to_path_buf();
    }
    let stem = out
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("evidence");
    let f = formula
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("formula");
    let name = match out.extension().and_then(|e| e.to_str()) {
        Some(ext) => format!("{stem}.{f}.{ext}"),
        None => format!("{stem}.{f}"),
    };
    out.with_file_name(name)
}

/// Whether `path` names an LTS file (by its extension) rather than a specification.
fn is_lts_file(path: &std::path::Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("aut" | "lts")
    )
}

/// What `check` does about evidence, from its flags and `-q`.
pub(super) struct EvidencePlan {
    /// Read (and write or print) evidence at all.
    pub evidence: bool,
    /// Print the trace on standard output.
    pub print_trace: bool,
}

impl EvidencePlan {
    pub(super) fn new(args: &Args, g: Global) -> miette::Result<EvidencePlan> {
        // Under `-q` no trace is printed, but evidence files asked for are still written.
        let wants_files = args.evidence_file.is_some() || args.evidence_dir.is_some();
        let evidence = !args.no_evidence && (!g.quiet || wants_files);
        if evidence && args.solver != SolverKind::Zielonka {
            // Gauss elimination gives values, not the strategies a proof is read from.
            miette::bail!(
                help = "use the default `--solver zielonka`, or add `--no-evidence` (or `-q`) for the verdict alone",
                "evidence needs the strategies of `--solver zielonka`"
            );
        }
        Ok(EvidencePlan {
            evidence,
            print_trace: evidence && !g.quiet,
        })
    }
}

/// Prints the verdict of formula `f` as `check` does.
pub(super) fn print_verdict(
    args: &Args,
    g: Global,
    plan: &EvidencePlan,
    f: &std::path::Path,
    value: bool,
) {
    if plan.print_trace && args.format == TraceFormat::Json {
        // JSON Lines: one object per formula, its verdict included.
    } else if args.formulas.len() == 1 && g.quiet {
        outln!("{value}");
    } else {
        outln!("{}: {value}", f.display());
    }
}

/// Prints the (checked) evidence `ev` of formula `f` and writes the files asked for.
pub(super) fn emit_evidence(
    args: &Args,
    g: Global,
    plan: &EvidencePlan,
    model: Model<'_>,
    f: &std::path::Path,
    ev: &Evidence,
) -> miette::Result<()> {
    match args.format {
        _ if !plan.print_trace => {}
        TraceFormat::Text => out!("{}", text::trace_text(model, ev)),
        TraceFormat::Json => {
            let mut v = text::trace_json(model, ev);
            v["formula"] = serde_json::Value::from(f.display().to_string());
            outln!("{v}");
        }
    }
    if let Some(path) = &args.evidence_file {
        let several = args.formulas.len() > 1;
        text::write_evidence(model, ev, &evidence_path(path, f, several))?;
    }
    if let Some(dir) = &args.evidence_dir {
        std::fs::create_dir_all(dir).map_err(|e| {
            miette::miette!(
                "cannot create the evidence directory {}: {e}",
                dir.display()
            )
        })?;
        let stem = f.file_stem().and_then(|s| s.to_str()).unwrap_or("formula");
        for ext in ["aut", "dot", "json", "txt"] {
            text::write_evidence(model, ev, &dir.join(format!("{stem}.{ext}")))?;
        }
        match crate::lts::svg::drawable(&ev.lts) {
            Ok(_) => text::write_evidence(model, ev, &dir.join(format!("{stem}.svg")))?,
            Err(e) if !g.quiet => errln!("check: no {stem}.svg: {e}"),
            Err(_) => {}
        }
    }
    if g.verbose {
        errln!(
            "check: evidence LTS of {} states and {} transitions",
            ev.lts.num_states,
            ev.lts.transitions.len()
        );
    }
    Ok(())
}

fn check(args: &Args, g: Global) -> miette::Result<ExitCode> {
    if args.threads != 0 && args.reduce.is_none() && args.engine == Engine::Pbes {
        miette::bail!(
            help = "add `--engine explore` or `--reduce EQ`, which explore the state space",
            "--threads applies to exploring the state space, which `--engine pbes` does not do"
        );
    }
    if is_lts_file(&args.spec) && args.engine == Engine::Explore {
        miette::bail!(
            help = "give the specification (`.mcrl2`) to `--engine explore`, or check the LTS with the default `--engine pbes`",
            "--engine explore explores a specification; {} is an LTS",
            args.spec.display()
        );
    }
    if is_lts_file(&args.spec) {
        return super::check_lts::check_lts(args, g);
    }
    if args.mcrl2.is_some() || args.lps.is_some() {
        miette::bail!(
            help = "give --mcrl2 or --lps only with an LTS (`.aut`, `.lts`) to check",
            "--mcrl2 and --lps declare the actions of an LTS; {} is a specification",
            args.spec.display()
        );
    }
    let t = Instant::now();
    let name = display_path(Some(&args.spec), "<stdin>");
    let src = SourceFile::new(name.clone(), read_text(Some(&args.spec))?);
    let spec = check_specification(&src).map_err(miette::Report::new)?;
    let lps = linearise(&spec, LineariseOptions { simplify: true })
        .map_err(|e| miette::miette!("{name}: {e}"))?;
    if g.verbose {
        errln!(
            "check: linearised {name}: {} summands, {} parameters in {:.3} s",
            lps.summands.len(),
            lps.params.len(),
            t.elapsed().as_secs_f64()
        );
    }
    if let Some(eq) = args.reduce {
        return check_reduced(args, g, &lps, eq);
    }
    if args.engine == Engine::Explore {
        return super::check_explore::check_explore(args, g, &lps);
    }
    let plan = EvidencePlan::new(args, g)?;
    let evidence = plan.evidence;
    let opts = InstOptions {
        max_vars: args.max_vars,
        keep_origins: evidence,
        progress: crate::progress::Shown::from_flags(g.quiet, g.verbose),
        // The BES is only solved: its variables need no names.
        names: false,
        ..InstOptions::default()
    };
    let mut all_true = true;
    // Formulas see the LPS's actions, as with mCRL2's lps2pbes: `Terminate` included when
    // linearisation added it.
    let formula_scope = proc_spec_of_lps(&lps);
    for f in &args.formulas {
        let t = Instant::now();
        let formula = read_formula(f, &formula_scope)?;
        let lopts = Lps2PbesOptions {
            counter_example: evidence,
        };
        let pbes = lps2pbes_with(&lps, &formula, lopts)?;
        // Evidence comes from the finite proof of an early stop, or else from the solved
        // game, so solving may always stop as soon as the verdict is decided.
        let out = solve_pbes(&pbes, &opts, args.solver, true)?;
        all_true &= out.value;
        print_verdict(args, g, &plan, f, out.value);
        let stats = out.inst.stats.clone();
        if evidence {
            let _timer = time_stage("evidence");
            let game = out.game.as_ref().map(|(g, s)| (g, s));
            let ev = crate::evidence::read(&lps, &pbes, &out.inst, game, out.value, true)?;
            // The solved BES (origins, justification, game) is not needed any more: the
            // check works on the evidence alone.
            drop(out);
            if !args.no_verify {
                let t = Instant::now();
                crate::evidence::check::check_evidence(&lps, &formula, &ev, args.solver)?;
                if g.verbose {
                    errln!(
                        "check: evidence confirmed by the independent checker in {:.3} s",
                        t.elapsed().as_secs_f64()
                    );
                }
            }
            emit_evidence(args, g, &plan, (&lps).into(), f, &ev)?;
        }
        if g.verbose {
            print_stats(f, &pbes, &stats, t);
        }
    }
    Ok(if all_true {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The `-v` line of one formula: PBES and BES sizes and the time since `t`.
pub(super) fn print_stats(
    f: &std::path::Path,
    pbes: &crate::pbes::ir::Pbes,
    s: &crate::pbes::inst::InstStats,
    t: std::time::Instant,
) {
    errln!(
        "check: {}: {} equations, {} BES variables ({} decided on the fly), {:.3} s",
        f.display(),
        pbes.equations.len(),
        s.instances + s.auxiliary,
        s.decided,
        t.elapsed().as_secs_f64()
    );
}
