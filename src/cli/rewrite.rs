//! `muon rewrite`: normal forms of closed data expressions.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use miette::{miette, IntoDiagnostic};

use super::Global;
use crate::artifact::{display_path, read_text};
use crate::data::ir::DataSpec;
use crate::data::print::data_expr_to_string;
use crate::data::typecheck::check_data_expr;
use crate::data::Rewriter;
use crate::process::typecheck::check_specification;
use crate::source::SourceFile;

/// Arguments of `muon rewrite`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// mCRL2's `--timings[=FILE]`.
    #[command(flatten)]
    pub timings: super::compat::Timings,
    /// A specification whose sorts, maps and equations are in scope.
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// Closed data expressions to rewrite.
    #[arg(required = true, allow_hyphen_values = true)]
    pub exprs: Vec<String>,
}

/// Stack of the rewriting thread: deep recursion in user equations needs it, and the
/// rewriter measures its own use against a limit just below it (an error, never a crash).
const STACK: usize = 256 << 20;

/// Runs `muon rewrite`: prints the normal form of each expression on its own line.
pub fn run(args: &Args, g: Global) -> miette::Result<ExitCode> {
    let data = match &args.spec {
        Some(p) => {
            let name = display_path(Some(p), "<stdin>");
            let src = SourceFile::new(name, read_text(Some(p))?);
            match check_specification(&src) {
                Ok(s) => s.data,
                Err(d) => return Err(miette::Report::new(d)),
            }
        }
        None => DataSpec::default(),
    };
    let exprs = args.exprs.clone();
    std::thread::Builder::new()
        .name("rewrite".into())
        .stack_size(STACK)
        .spawn(move || rewrite_all(&data, &exprs, g))
        .into_diagnostic()?
        .join()
        .map_err(|_| miette!("the rewriter crashed"))?
}

fn rewrite_all(data: &DataSpec, exprs: &[String], g: Global) -> miette::Result<ExitCode> {
    let store = crate::data::TermStore::new();
    let mut rw = Rewriter::new(data, &store)
        .map_err(|e| miette!("in the specification's equations: {e}"))?;
    rw.set_stack_limit(STACK - (16 << 20));
    for (i, text) in exprs.iter().enumerate() {
        let src = SourceFile::new(format!("<expression {}>", i + 1), text.as_str());
        let e = check_data_expr(&src, data, &[]).map_err(miette::Report::new)?;
        let start = Instant::now();
        let t = rw.term(&e).map_err(|e| miette!("{text}: {e}"))?;
        let n = rw
            .rewrite(t)
            .map_err(|e| miette!(help = format!("the expression was `{text}`"), "{e}"))?;
        let out = data_expr_to_string(&rw.expr(n));
        outln!("{out}");
        if g.verbose {
            errln!(
                "rewrote expression {} in {:.3} s ({} terms in the store)",
                i + 1,
                start.elapsed().as_secs_f64(),
                rw.store().len()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
