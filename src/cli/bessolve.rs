//! `muon bessolve`: solve a parity game or BES.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use miette::{miette, IntoDiagnostic};

use super::Global;
use crate::artifact::{self, Artifact};
use crate::bes::{self, Bes, Game, Player, Solution, SolverKind};
use crate::progress::{Meter, Shown};

/// Input formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InFormat {
    /// PGSolver parity game.
    Pg,
    /// mCRL2 textual BES.
    Bes,
    /// muon BES artifact.
    Artifact,
}

/// Arguments of `muon bessolve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's `--timings[=FILE]`.
    #[command(flatten)]
    pub timings: super::compat::Timings,
    /// Input: a PGSolver game (`.pg`), a textual BES (`.bes`, `.txt`) or a BES artifact
    /// (recognised by its header); standard input when omitted or `-`.
    pub infile: Option<PathBuf>,
    /// Write the result here instead of standard output: the `paritysol` solution for a
    /// game, `true`/`false` for a BES.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The solver.
    #[arg(long, value_enum, default_value = "zielonka")]
    pub solver: SolverKind,
    /// Check the solution independently before writing it (for Gauss: compare with
    /// Zielonka's checked solution).
    #[arg(long)]
    pub verify: bool,
    /// For a BES: print the value of every declared variable (in equation order), then the
    /// initial one's on the last line.
    #[arg(long)]
    pub all: bool,
    /// Input format, when the extension and content do not tell.
    #[arg(long, value_enum)]
    pub format: Option<InFormat>,
    /// Instead of solving, check this `paritysol` solution of the input game.
    #[arg(long, value_name = "SOLUTION")]
    pub check: Option<PathBuf>,
    /// Print timings, sizes and peak memory on standard error.
    #[arg(long)]
    pub stats: bool,
    /// Instead of solving, write the input converted to `pg` or `bes` (text) or `artifact`.
    #[arg(long, value_name = "FORMAT", hide = true)]
    pub convert: Option<String>,
    /// Instead of reading input, write a generated game (`random:N[:P[:MIN:MAX]]`,
    /// `ladder:N`, `mc:N`, `tc:BITS`) in PGSolver format (benchmarks).
    #[arg(long, value_name = "SPEC", hide = true)]
    pub generate: Option<String>,
    /// Seed for `--generate`.
    #[arg(long, default_value_t = 1, hide = true)]
    pub seed: u64,
}

enum Input {
    Game(Game),
    Bes(Bes),
}

fn peak_rss_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// CPU time of this process so far (from /proc/self/schedstat), in seconds.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}

fn detect(path: Option<&Path>, bytes: &[u8], forced: Option<InFormat>) -> InFormat {
    if let Some(f) = forced {
        return f;
    }
    if artifact::is_artifact(bytes) {
        return InFormat::Artifact;
    }
    match path.and_then(|p| p.extension()).and_then(|e| e.to_str()) {
        Some("pg" | "gm") => return InFormat::Pg,
        Some("bes" | "txt") => return InFormat::Bes,
        _ => {}
    }
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let rest = &bytes[start..];
    if rest.starts_with(b"parity") || rest.first().is_some_and(|b| b.is_ascii_digit()) {
        InFormat::Pg
    } else {
        InFormat::Bes
    }
}

fn read_input(args: &Args, name: &str) -> miette::Result<Input> {
    let path = args.infile.as_deref();
    let bytes = artifact::read_bytes(path)?;
    Ok(match detect(path, &bytes, args.format) {
        InFormat::Pg => Input::Game(bes::pg::parse_pg_owned(bytes, name)?),
        InFormat::Bes => {
            let text = String::from_utf8(bytes)
                .map_err(|_| miette!("{name}: the input is not valid UTF-8 text"))?;
            Input::Bes(bes::parse_bes_text(&text, name)?)
        }
        InFormat::Artifact => Input::Bes(bes::Bes::decode_artifact(&bytes, name)?),
    })
}

fn generate(spec: &str, seed: u64) -> miette::Result<Game> {
    let parts: Vec<&str> = spec.split(':').collect();
    let num = |i: usize, default: Option<u32>| -> miette::Result<u32> {
        match parts.get(i) {
            Some(s) => s
                .parse()
                .map_err(|_| miette!("--generate {spec}: `{s}` is not a number")),
            None => default.ok_or_else(|| miette!("--generate {spec}: missing size")),
        }
    };
    let n = num(1, None)?;
    if n == 0 {
        return Err(miette!("--generate {spec}: the size must be positive"));
    }
    match parts[0] {
        "random" => {
            let p = num(2, Some(n))?.max(1);
            let lo = num(3, Some(1))?.max(1);
            let hi = num(4, Some(4))?.max(lo);
            Ok(bes::gen::random_game(n, p, lo, hi, seed))
        }
        "ladder" => Ok(bes::gen::ladder_game(n)),
        "mc" => Ok(bes::gen::mc_game(n, seed)),
        "tc" => {
            if n > 200 {
                return Err(miette!("--generate tc:{n}: at most 200 bits"));
            }
            Ok(bes::gen::two_counters_game(n))
        }
        k => Err(miette!(
            "--generate: unknown family `{k}` (random, ladder, mc, tc)"
        )),
    }
}

fn io_err(path: Option<&Path>) -> impl Fn(std::io::Error) -> artifact::ArtifactError + '_ {
    move |source| artifact::ArtifactError::Write {
        path: artifact::display_path(path, "<stdout>"),
        source,
    }
}

/// Runs `muon bessolve`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let out = args.output.as_deref();
    if let Some(spec) = &args.generate {
        let game = generate(spec, args.seed)?;
        artifact::write_output(out, |w| bes::write_pg(&game, w).map_err(io_err(out)))?;
        return Ok(ExitCode::SUCCESS);
    }
    let name = artifact::display_path(args.infile.as_deref(), "<stdin>");
    let t0 = Instant::now();
    let c0 = cpu_seconds().unwrap_or(0.0);
    let input = read_input(args, &name)?;
    let t_parse = t0.elapsed();
    let c_parse = cpu_seconds().unwrap_or(0.0) - c0;
    if let Some(fmt) = &args.convert {
        return convert(input, fmt, out);
    }
    let (game, from_bes) = match input {
        Input::Game(game) => (game, None),
        Input::Bes(b) => (bes::bes_to_game(&b), Some(b)),
    };
    let (n, m) = (game.num_vertices(), game.num_edges());
    if args.stats {
        errln!(
            "parse: {:.3} s wall, {:.3} s cpu, {} vertices, {} edges, {:.2} M edges/s (cpu), game arrays {:.1} bytes/vertex",
            t_parse.as_secs_f64(),
            c_parse,
            n,
            m,
            m as f64 / c_parse.max(1e-9) / 1e6,
            game.heap_bytes() as f64 / n.max(1) as f64
        );
    }
    if let Some(sol_path) = &args.check {
        let text = artifact::read_bytes(Some(sol_path))?;
        let sol = bes::parse_paritysol(&text, &sol_path.display().to_string(), n)?;
        bes::verify(&game, &sol)
            .map_err(|e| miette!("{}: the solution is wrong: {e}", sol_path.display()))?;
        if !g.quiet {
            errln!("{}: solution verified", sol_path.display());
        }
        return Ok(ExitCode::SUCCESS);
    }
    let t1 = Instant::now();
    let c1 = cpu_seconds().unwrap_or(0.0);
    let _timer = crate::progress::time_stage("solving");
    let mut meter = Meter::new("solving", Shown::from_flags(g.quiet, g.verbose));
    let sol: Solution = match args.solver {
        SolverKind::Zielonka => {
            let s = bes::solve_zielonka_watched(&game, &mut meter).map_err(|h| miette!("{h}"))?;
            if args.verify {
                bes::verify(&game, &s).map_err(|e| {
                    miette!("internal error: Zielonka's solution failed verification: {e}")
                })?;
            }
            s
        }
        SolverKind::Gauss => {
            let owned;
            let b = match &from_bes {
                Some(b) => b,
                None => {
                    owned = bes::game_to_bes(&game).into_diagnostic()?;
                    &owned
                }
            };
            let vals = bes::solve_gauss_watched(b, &mut meter).map_err(|e| miette!("{e}"))?;
            let mut s = Solution::new(n);
            for (i, &v) in vals.iter().enumerate() {
                s.set_winner(
                    bes::VertexId(i as u32),
                    if v { Player::Even } else { Player::Odd },
                );
            }
            if args.verify {
                let z = bes::solve_zielonka(&game);
                bes::verify(&game, &z).map_err(|e| {
                    miette!("internal error: Zielonka's solution failed verification: {e}")
                })?;
                if let Some(v) = game.vertices().find(|&v| z.winner(v) != s.winner(v)) {
                    return Err(miette!(
                        "internal error: Gauss elimination and Zielonka disagree on vertex {}",
                        v.0
                    ));
                }
            }
            s
        }
    };
    let t_solve = t1.elapsed();
    let c_solve = cpu_seconds().unwrap_or(0.0) - c1;
    if args.stats {
        errln!(
            "solve ({:?}{}): {:.3} s wall, {:.3} s cpu, {:.2} M edges/s (cpu)",
            args.solver,
            if args.verify { " + verify" } else { "" },
            t_solve.as_secs_f64(),
            c_solve,
            m as f64 / c_solve.max(1e-9) / 1e6
        );
        if let Some(peak) = peak_rss_bytes() {
            errln!(
                "peak memory: {:.1} MB, {:.1} bytes/vertex",
                peak as f64 / 1e6,
                peak as f64 / n.max(1) as f64
            );
        }
    }
    if args.verify && !g.quiet {
        errln!("solution verified");
    }
    match from_bes {
        None => {
            if g.verbose {
                if let Some(s) = game.initial() {
                    errln!(
                        "start vertex {} is won by player {}",
                        s.0,
                        sol.winner(s).number()
                    );
                }
            }
            artifact::write_output(out, |w| bes::write_paritysol(&sol, w).map_err(io_err(out)))?;
        }
        Some(b) => {
            let vals = bes::bes_values(&sol);
            artifact::write_output(out, |w| {
                let mut body = || -> std::io::Result<()> {
                    if args.all {
                        for x in b
                            .equation_order()
                            .into_iter()
                            .filter(|&x| !b.is_auxiliary(x))
                        {
                            writeln!(w, "{} = {}", b.name(x), vals[x.index()])?;
                        }
                    }
                    if b.num_vars() > 0 {
                        writeln!(w, "{}", vals[b.init().index()])?;
                    }
                    Ok(())
                };
                body().map_err(io_err(out))
            })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn convert(input: Input, fmt: &str, out: Option<&Path>) -> miette::Result<ExitCode> {
    match (fmt, input) {
        ("pg", Input::Game(game)) => {
            artifact::write_output(out, |w| bes::write_pg(&game, w).map_err(io_err(out)))?
        }
        ("pg", Input::Bes(b)) => {
            let game = bes::bes_to_game(&b);
            artifact::write_output(out, |w| bes::write_pg(&game, w).map_err(io_err(out)))?
        }
        ("bes", input) => {
            let b = match input {
                Input::Bes(b) => b,
                Input::Game(g) => bes::game_to_bes(&g).into_diagnostic()?,
            };
            artifact::write_output(out, |w| bes::write_bes_text(&b, w).map_err(io_err(out)))?
        }
        ("artifact", input) => {
            let b = match input {
                Input::Bes(b) => b,
                Input::Game(g) => bes::game_to_bes(&g).into_diagnostic()?,
            };
            b.write_artifact(out)?
        }
        (f, _) => {
            return Err(miette!(
                "--convert: unknown format `{f}` (pg, bes, artifact)"
            ))
        }
    }
    Ok(ExitCode::SUCCESS)
}
