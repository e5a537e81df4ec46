//! `muon check`: the whole pipeline in one process, through the `check` stage
//! ([`crate::check::Checker`]); this file only turns the flags into its options and prints
//! what it returns: the verdict per formula and its evidence (a counterexample or witness
//! trace, checked), as text or JSON Lines, the evidence files asked for, and the page of
//! `--report` ([`super::report`]). Exit status: 0 when every formula holds, 1 when one does
//! not, 2 on an error, 3 when the budget stopped a formula before its verdict.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{report, Global};
use crate::bes::SolverKind;
use crate::check::{Checker, FormulaResult, Model, Options, Route, Verdict};
use crate::evidence::{text, Evidence};
use crate::reduce::Bisimulation;

/// Arguments of `muon check`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's `--timings[=FILE]`.
    #[command(flatten)]
    pub timings: super::compat::Timings,
    /// The mCRL2 specification, an LPS (`.lps`, from `muon mcrl22lps`), or an LTS (`.aut`,
    /// `.lts`) to check the formulas on.
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
    /// How to check: `auto` (the default) picks per formula: `explore` for regular safety
    /// formulas, else `product`, else `pbes` where the product does not take the formula's
    /// data (`-v` says which and why). `pbes`: lps2pbes, instantiation to a BES, solving
    /// (every formula, evidence for both verdicts). `explore`: regular safety formulas only
    /// (conjunctions of `[R] φ` with φ local, such as `[true*] <true> true` or
    /// `[true* . a] false`), checked while exploring, with no BES; a false formula gets a
    /// shortest counterexample, a true one no evidence, only the count of the states
    /// explored. `product`: every formula (fairness and other nested fixpoints included)
    /// as the parity game of the LPS and the formula built on the fly, no PBES; evidence
    /// for both verdicts, a lasso where the proof is infinite. Where one player alone
    /// chooses (no `||`, `<α>`, `exists`, or none of `&&`, `[α]`, `forall`: "eventually
    /// permanently" and other box formulas with nested fixpoints), the game is searched
    /// depth-first for that player's path or cycle instead of built, in a few bytes per
    /// vertex; the other player's verdict then has evidence only up to 1,000,000 vertices.
    #[arg(long, value_enum, default_value_t = Engine::Auto, conflicts_with = "reduce")]
    pub engine: Engine,
    /// Give up after this many BES variables (`pbes`) or game vertices (`product`, when it
    /// builds the game; its one-player search is bounded by --memory-limit alone) per
    /// formula.
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
    /// Write the results to FILE (`.html`) as one page for people that needs nothing beside
    /// it (no network, no other file): the verdicts in a table, and per formula its
    /// evidence as a picture beside its steps; selecting a step (a click, or the arrow keys
    /// and j/k) marks its state in the picture and shows the specification lines that made
    /// it.
    #[arg(long = "report", value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// Explore the state space, reduce it modulo this bisimulation and check the formulas
    /// on the quotient. Formulas the bisimulation may not preserve are refused (branching
    /// bisimulations: modalities that can see tau steps). Verdicts only, no evidence.
    #[arg(long, value_enum, value_name = "EQ", conflicts_with_all = ["evidence_dir", "evidence_file"])]
    pub reduce: Option<ReduceArg>,
    /// With --reduce or --engine explore: threads exploring the state space (default: all
    /// cores).
    #[arg(long, value_name = "NUM", default_value_t = 0)]
    pub threads: usize,
    /// With --engine explore: explore on several workers and processes (timely dataflow).
    /// Every process gets the same command line but for --process and exits with the same
    /// status; process 0 prints the results and writes the evidence, the others print
    /// nothing.
    #[command(flatten)]
    pub cluster: super::cluster::ClusterArgs,
}

/// How `muon check` decides a formula.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Per formula, by its shape (see `--engine`).
    Auto,
    /// Through a PBES and a BES (every formula).
    Pbes,
    /// The product game of the LPS and the formula, built on the fly (every formula).
    Product,
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

/// The equivalences of `check --reduce`: those that preserve (a fragment of) the
/// mu-calculus.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduceArg {
    /// Strong bisimulation: every formula.
    Bisim,
    /// Branching bisimulation: formulas whose modalities cannot observe tau steps.
    BranchingBisim,
    /// Divergence-preserving branching bisimulation: the same formulas as branching.
    DpbranchingBisim,
}

impl ReduceArg {
    /// The bisimulation.
    pub fn bisimulation(self) -> Bisimulation {
        match self {
            ReduceArg::Bisim => Bisimulation::Strong,
            ReduceArg::BranchingBisim => Bisimulation::Branching,
            ReduceArg::DpbranchingBisim => Bisimulation::DivergenceBranching,
        }
    }
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

/// Where the evidence of `formula` goes under `--evidence-file OUT`.
fn evidence_path(out: &Path, formula: &Path, several: bool) -> PathBuf {
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
fn is_lts_file(path: &Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("aut" | "lts")
    )
}

/// Whether `path` names an LPS file (by its extension).
fn is_lps_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("lps"))
}

fn check(args: &Args, g: Global) -> miette::Result<ExitCode> {
    // Under `-q` no trace is printed, but evidence files asked for are still written.
    let wants_files =
        args.evidence_file.is_some() || args.evidence_dir.is_some() || args.report.is_some();
    let evidence = !args.no_evidence && (!g.quiet || wants_files) && args.reduce.is_none();
    let opts = Options {
        engine: match args.engine {
            Engine::Auto => crate::check::Engine::Auto,
            Engine::Pbes => crate::check::Engine::Pbes,
            Engine::Product => crate::check::Engine::Product,
            Engine::Explore => crate::check::Engine::Explore,
        },
        reduce: args.reduce.map(ReduceArg::bisimulation),
        solver: args.solver,
        max_vars: args.max_vars,
        evidence,
        verify: !args.no_verify,
        threads: args.threads,
        progress: crate::progress::Shown::from_flags(g.quiet, g.verbose),
        cluster: args.cluster.cluster("check")?,
    };
    // The other processes of a distributed run say nothing: process 0 reports for all.
    let helper = opts.cluster.as_ref().is_some_and(|c| c.process != 0);
    let g = if helper {
        Global {
            quiet: true,
            verbose: false,
            ..g
        }
    } else {
        g
    };
    let on_lts = is_lts_file(&args.spec);
    // Options that cannot go together are refused before the model is read.
    opts.validate(on_lts)?;
    if args.report.as_deref() == Some(Path::new("-")) {
        miette::bail!(
            help = "give a file name, e.g. `--report report.html`",
            "--report writes a page to a file, not to standard output"
        );
    }
    // The evidence file is written only once its formula is decided: a name that says no
    // format would otherwise end the whole run in an error.
    if let Some(out) = args.evidence_file.as_deref() {
        if !text::evidence_format_known(out) {
            miette::bail!(
                help = "name it with .aut, .dot, .svg, .lts or .fsm (the evidence LTS), or .json or .txt (the trace)",
                "--evidence-file {}: cannot tell the format from the file name",
                out.display()
            );
        }
    }
    let mut spec_source = None;
    let model = if on_lts {
        crate::check::load_lts(&args.spec, args.mcrl2.as_deref(), args.lps.as_deref())?
    } else if is_lps_file(&args.spec) {
        // An LPS made by `mcrl22lps` (muon's artifact), as mCRL2's `lps2pbes` takes it.
        if args.mcrl2.is_some() || args.lps.is_some() {
            miette::bail!(
                help = "give --mcrl2 or --lps only with an LTS (`.aut`, `.lts`) to check",
                "--mcrl2 and --lps declare the actions of an LTS; {} is an LPS",
                args.spec.display()
            );
        }
        use crate::artifact::Artifact;
        Model::Lps(crate::lps::Lps::read_artifact(Some(&args.spec))?)
    } else {
        if args.mcrl2.is_some() || args.lps.is_some() {
            miette::bail!(
                help = "give --mcrl2 or --lps only with an LTS (`.aut`, `.lts`) to check",
                "--mcrl2 and --lps declare the actions of an LTS; {} is a specification",
                args.spec.display()
            );
        }
        let loaded = crate::check::load_spec(&args.spec)?;
        if g.verbose {
            errln!(
                "check: linearised {}: {} summands, {} parameters in {:.3} s",
                loaded.name,
                loaded.lps.summands.len(),
                loaded.lps.params.len(),
                loaded.seconds
            );
        }
        spec_source = Some(loaded.source);
        Model::Lps(loaded.lps)
    };
    let checker = Checker::new(model, opts)?;
    let formulas = checker.read_formulas(&args.formulas)?;
    let mut report = args.report.as_ref().map(|_| {
        let declared_by = args.mcrl2.as_deref().or(args.lps.as_deref());
        let about = report::ModelInfo::new(&args.spec, checker.model(), declared_by, spec_source);
        report::Report::new(about)
    });
    let mut shown_reduction = false;
    let summary = checker.run(&formulas, &mut |model, r| {
        if g.verbose && !shown_reduction {
            if let Route::Reduced {
                modulo,
                explored,
                quotient,
                seconds,
                ..
            } = &r.route
            {
                shown_reduction = true;
                errln!(
                    "check: explored {} states, {} transitions in {:.3} s; reduced modulo {} to {} states, {} transitions in {:.3} s",
                    explored.0,
                    explored.1,
                    seconds.0,
                    crate::check::bisimulation_name(*modulo),
                    quotient.0,
                    quotient.1,
                    seconds.1
                );
            }
        }
        if helper {
            return Ok(());
        }
        present(args, g, model, &r)?;
        if let Some(report) = &mut report {
            report.add(model, &r);
        }
        Ok(())
    })?;
    if let (Some(path), Some(report), false) = (&args.report, &report, helper) {
        report.write(path)?;
    }
    if args.reduce.is_some() && !g.quiet && !args.no_evidence && args.format == TraceFormat::Text {
        errln!("check: no evidence with --reduce (it would name states of the quotient); check without --reduce for a trace");
    }
    Ok(if summary.stopped {
        ExitCode::from(3)
    } else if summary.all_true {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Prints one formula's result (and writes its evidence files) as the flags ask.
fn present(args: &Args, g: Global, model: &Model, r: &FormulaResult<'_>) -> miette::Result<()> {
    let f = &r.formula.path;
    let shown = f.display();
    let value = match &r.verdict {
        Verdict::Decided(v) => *v,
        Verdict::Stopped(reason) => {
            let states = match &r.route {
                Route::Explore { states, .. } => *states,
                _ => 0,
            };
            if args.format == TraceFormat::Json {
                let v = serde_json::json!({
                    "formula": shown.to_string(),
                    "verdict": serde_json::Value::Null,
                    "route": r.route.name(),
                    "stopped": reason,
                    "explored": { "states": states },
                });
                outln!("{v}");
            } else {
                outln!("{shown}: unknown, stopped after {states} states ({reason})");
            }
            return Ok(());
        }
    };
    if g.verbose {
        errln!(
            "check: {shown}: engine {} ({})",
            r.formula.engine.name(),
            r.formula.why
        );
    }
    if let Some(why) = &r.fallback {
        if !g.quiet {
            errln!("check: {shown}: decided by the PBES route instead: {why}");
        }
    }
    let print_trace = r.evidence.is_some() && !g.quiet;
    if args.format == TraceFormat::Json {
        outln!("{}", json_line(model, r, value, print_trace));
    } else {
        if args.formulas.len() == 1 && g.quiet {
            outln!("{value}");
        } else {
            outln!("{shown}: {value}");
        }
        if let Some(ev) = r.evidence.as_ref().filter(|_| print_trace) {
            out!("{}", text::trace_text(model.evidence_model(), ev));
        }
        if let (
            Route::Explore {
                states,
                transitions,
                with_automaton,
            },
            true,
        ) = (&r.route, value)
        {
            if !g.quiet {
                outln!(
                    "{shown}: explored the whole state space ({states} states, {transitions} transitions{}): every reachable state satisfies the formula; no evidence for a true formula with --engine explore",
                    if *with_automaton {
                        ", states paired with the formula's automaton"
                    } else {
                        ""
                    }
                );
            }
        }
    }
    if let Some(ev) = &r.evidence {
        write_evidence_files(args, g, model, f, ev)?;
        if g.verbose && r.verified {
            errln!(
                "check: evidence confirmed by the independent checker in {:.3} s",
                r.verify_seconds
            );
        }
        if g.verbose {
            errln!(
                "check: evidence LTS of {} states and {} transitions",
                ev.lts.num_states,
                ev.lts.transitions.len()
            );
        }
    }
    if g.verbose {
        match &r.route {
            Route::Pbes {
                equations,
                bes_vars,
                decided,
            } => errln!(
                "check: {shown}: {equations} equations, {bes_vars} BES variables ({decided} decided on the fly), {:.3} s",
                r.seconds
            ),
            Route::Explore {
                states,
                transitions,
                ..
            } => errln!(
                "check: {shown}: explored {states} states, {transitions} transitions in {:.3} s",
                r.seconds
            ),
            Route::Reduced { bes_vars, .. } => errln!(
                "check: {shown} on the quotient: {bes_vars} BES variables, {:.3} s",
                r.seconds
            ),
            Route::Product {
                vertices,
                edges,
                states,
                transitions,
                early,
                one_player,
            } => errln!(
                "check: {shown}: {} {vertices} vertices, {edges} edges over {states} states, {transitions} transitions{}, {:.3} s",
                if *one_player { "one player chooses; searched" } else { "a game of" },
                if *early { " (decided before it was explored in full)" } else { "" },
                r.seconds
            ),
        }
    }
    Ok(())
}

/// The JSON Lines object of one decided formula: the trace's fields when it is printed,
/// the verdict, the route and its sizes.
fn json_line(model: &Model, r: &FormulaResult<'_>, value: bool, trace: bool) -> serde_json::Value {
    use serde_json::json;
    let mut v = match r.evidence.as_ref().filter(|_| trace) {
        Some(ev) => text::trace_json(model.evidence_model(), ev),
        None => json!({ "verdict": value }),
    };
    v["formula"] = json!(r.formula.path.display().to_string());
    v["route"] = json!(r.route.name());
    v["seconds"] = json!(r.seconds);
    if r.evidence.is_some() {
        v["verified"] = json!(r.verified);
    }
    match &r.route {
        Route::Pbes {
            equations,
            bes_vars,
            decided,
        } => {
            v["pbes"] = json!({ "equations": equations, "bes_variables": bes_vars, "decided_on_the_fly": decided });
        }
        Route::Explore {
            states,
            transitions,
            ..
        } => {
            v["engine"] = json!("explore");
            v["explored"] = json!({ "states": states, "transitions": transitions });
        }
        Route::Reduced {
            modulo,
            explored,
            quotient,
            ..
        } => {
            v["reduced_modulo"] = json!(crate::check::bisimulation_name(*modulo));
            v["explored"] = json!({ "states": explored.0, "transitions": explored.1 });
            v["quotient"] = json!({ "states": quotient.0, "transitions": quotient.1 });
        }
        Route::Product {
            vertices,
            edges,
            states,
            transitions,
            early,
            one_player,
        } => {
            v["game"] = json!({ "vertices": vertices, "edges": edges, "decided_early": early, "one_player": one_player });
            v["explored"] = json!({ "states": states, "transitions": transitions });
        }
    }
    if let Some(why) = &r.fallback {
        v["fallback"] = json!(why);
    }
    v
}

/// Writes the evidence files of formula `f` that `--evidence-file` and `--evidence-dir`
/// ask for.
fn write_evidence_files(
    args: &Args,
    g: Global,
    model: &Model,
    f: &Path,
    ev: &Evidence,
) -> miette::Result<()> {
    let m = model.evidence_model();
    if let Some(path) = &args.evidence_file {
        let several = args.formulas.len() > 1;
        text::write_evidence(m, ev, &evidence_path(path, f, several))?;
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
            text::write_evidence(m, ev, &dir.join(format!("{stem}.{ext}")))?;
        }
        match crate::lts::svg::drawable(&ev.lts) {
            Ok(_) => text::write_evidence(m, ev, &dir.join(format!("{stem}.svg")))?,
            Err(e) if !g.quiet => errln!("check: no {stem}.svg: {e}"),
            Err(_) => {}
        }
    }
    Ok(())
}
