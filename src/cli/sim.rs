//! `muon sim`: simulate a specification or an LPS by hand, as mCRL2's `lpssim` and
//! `lpsxsim`: on a terminal screen, or with `--script` from commands on standard input.
//! The simulator is [`crate::sim`]; this file reads the model and picks the front end.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::artifact::Artifact;
use crate::data::TermStore;
use crate::lps::Lps;
use crate::sim::{script, ui, Simulator, DEFAULT_SEARCH_LIMIT};

use super::Global;

/// Arguments of `muon sim`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's options shared by its tools (`-r`, `--timings`, `-Q`).
    #[command(flatten)]
    pub common: super::compat::Common,
    /// The model: an mCRL2 specification (linearised as `muon check` does) or an LPS
    /// (`.lps`, made by `muon mcrl22lps`).
    pub spec: PathBuf,
    /// Read commands from standard input, one per line (`take N`, `take ACTION`, `undo`,
    /// `back`, `forward`, `goto N`, `find deadlock`, `find ACTION`, `save FILE
    /// [muon|plain|json]`, `load FILE`, `state`, `trace`, `quit`), printing the state and
    /// its transitions as plain text after each; exit 1 when a command failed.
    #[arg(long)]
    pub script: bool,
    /// Open this trace first (muon's trace file, `check`'s evidence `.txt` or `.json`, or
    /// mCRL2's plain format), replayed from the initial state.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// The most states a search (`find`) looks at.
    #[arg(long, value_name = "NUM", default_value_t = DEFAULT_SEARCH_LIMIT)]
    pub search_limit: usize,
}

/// Runs `muon sim`.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let lps = if is_lps_file(&args.spec) {
        Lps::read_artifact(Some(&args.spec))?
    } else {
        crate::check::load_spec(&args.spec)?.lps
    };
    let name = args.spec.display().to_string();
    let store = TermStore::new();
    let mut sim = Simulator::new(&lps, &store, Some(super::MAIN_STACK - (64 << 20)))?;
    sim.search_limit = args.search_limit.max(1);
    if let Some(t) = &args.trace {
        let bytes = crate::artifact::read_bytes(Some(t))?;
        let loaded = sim.load(&bytes, &t.display().to_string())?;
        if let Some(note) = loaded.note.filter(|_| !g.quiet) {
            errln!("muon sim: {note}");
        }
    }
    if !args.script {
        ui::run(&mut sim, &name)?;
        return Ok(ExitCode::SUCCESS);
    }
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let failed = script::run(
        &mut sim,
        &name,
        &mut stdin.lock(),
        &mut stdout.lock(),
        &mut std::io::stderr(),
    )
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::BrokenPipe => crate::budget::stdout_failed(e),
        _ => miette::miette!("cannot read the commands or print the state: {e}"),
    })?;
    if failed > 0 {
        errln!(
            "muon sim: {failed} command{} failed",
            if failed == 1 { "" } else { "s" }
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether `path` names an LPS file (by its extension).
fn is_lps_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("lps"))
}
