//! `muon rewrite`: normal forms of closed data expressions.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use miette::{miette, IntoDiagnostic};

use super::Global;
use crate::artifact::{display_path, read_text};
use crate::data::ir::{Binder, DataExpr, DataSpec};
use crate::data::typecheck::check_data_expr;
use crate::data::{sort_to_string, Rewriter};
use crate::process::typecheck::check_specification;
use crate::syntax::SourceFile;

/// Arguments of `muon rewrite`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A specification whose sorts, maps and equations are in scope.
    #[arg(long)]
    pub spec: Option<PathBuf>,
    /// Closed data expressions to rewrite.
    #[arg(required = true, allow_hyphen_values = true)]
    pub exprs: Vec<String>,
}

/// Stack of the rewriting thread: deep recursion in user equations needs it, and the
/// rewriter measures its own use against a limit just below it (an error, never a crash).
const STACK: usize = 1 << 30;

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
    let mut rw =
        Rewriter::new(data).map_err(|e| miette!("in the specification's equations: {e}"))?;
    rw.set_stack_limit(STACK - (64 << 20));
    for (i, text) in exprs.iter().enumerate() {
        let src = SourceFile::new(format!("<expression {}>", i + 1), text.as_str());
        let e = check_data_expr(&src, data, &[]).map_err(miette::Report::new)?;
        let start = Instant::now();
        let t = rw.term(&e).map_err(|e| miette!("{text}: {e}"))?;
        let n = rw
            .rewrite(t)
            .map_err(|e| miette!(help = "the expression was `{text}`", "{e}"))?;
        let out = print(&rw.expr(n));
        println!("{out}");
        if g.verbose {
            eprintln!(
                "rewrote expression {} in {:.3} s ({} terms in the store)",
                i + 1,
                start.elapsed().as_secs_f64(),
                rw.store().len()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a data expression as mCRL2's pretty printer does (minimal parentheses).
pub fn print(e: &DataExpr) -> String {
    let mut s = String::new();
    pp(e, 0, &mut s);
    s
}

/// Binding strength of infix operators (higher binds tighter) and whether they are
/// right-associative, following mCRL2's grammar.
fn infix(name: &str) -> Option<(u8, bool)> {
    Some(match name {
        "=>" => (2, true),
        "||" => (3, true),
        "&&" => (4, true),
        "==" | "!=" => (5, false),
        "<" | "<=" | ">" | ">=" | "in" => (6, false),
        "|>" => (7, true),
        "<|" => (8, false),
        "++" => (9, false),
        "+" | "-" => (10, false),
        "*" | "/" | "div" | "mod" | "." => (11, false),
        _ => return None,
    })
}

const PREFIX: u8 = 12;

fn name_of(e: &DataExpr) -> Option<&str> {
    match e {
        DataExpr::Func(f) => Some(&f.name),
        _ => None,
    }
}

fn list(items: &[DataExpr], out: &mut String) {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        pp(x, 0, out);
    }
}

fn pp(e: &DataExpr, ctx: u8, out: &mut String) {
    match e {
        DataExpr::Var(v) => out.push_str(&v.name),
        DataExpr::Func(f) => out.push_str(&f.name),
        DataExpr::Number { value, .. } => out.push_str(&value.to_string()),
        DataExpr::ListEnum { elems, .. } => {
            out.push('[');
            list(elems, out);
            out.push(']');
        }
        DataExpr::SetEnum { elems, .. } => {
            out.push('{');
            list(elems, out);
            out.push('}');
        }
        DataExpr::BagEnum { elems, .. } => {
            if elems.is_empty() {
                out.push_str("{:}");
                return;
            }
            out.push('{');
            for (i, (x, n)) in elems.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                pp(x, 0, out);
                out.push_str(": ");
                pp(n, 0, out);
            }
            out.push('}');
        }
        DataExpr::Binder { kind, vars, body } => {
            let vs = vars
                .iter()
                .map(|v| format!("{}: {}", v.name, sort_to_string(&v.sort)))
                .collect::<Vec<_>>()
                .join(", ");
            match kind {
                Binder::SetComprehension | Binder::BagComprehension => {
                    out.push_str(&format!("{{ {vs} | "));
                    pp(body, 0, out);
                    out.push_str(" }");
                }
                _ => {
                    let kw = match kind {
                        Binder::Lambda => "lambda",
                        Binder::Forall => "forall",
                        _ => "exists",
                    };
                    let paren = ctx > 1;
                    if paren {
                        out.push('(');
                    }
                    out.push_str(&format!("{kw} {vs}. "));
                    pp(body, 1, out);
                    if paren {
                        out.push(')');
                    }
                }
            }
        }
        DataExpr::Whr { body, defs } => {
            let paren = ctx > 0;
            if paren {
                out.push('(');
            }
            pp(body, 1, out);
            out.push_str(" whr ");
            for (i, (v, x)) in defs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&format!("{} = ", v.name));
                pp(x, 0, out);
            }
            out.push_str(" end");
            if paren {
                out.push(')');
            }
        }
        DataExpr::App { head, args } => {
            let name = name_of(head);
            if let (Some(n), 2) = (name, args.len()) {
                if let Some((p, right)) = infix(n) {
                    let paren = ctx > p;
                    if paren {
                        out.push('(');
                    }
                    pp(&args[0], if right { p + 1 } else { p }, out);
                    out.push_str(&format!(" {n} "));
                    pp(&args[1], if right { p } else { p + 1 }, out);
                    if paren {
                        out.push(')');
                    }
                    return;
                }
            }
            if let (Some(n @ ("-" | "!" | "#")), 1) = (name, args.len()) {
                let paren = ctx > PREFIX;
                if paren {
                    out.push('(');
                }
                out.push_str(n);
                pp(&args[0], PREFIX, out);
                if paren {
                    out.push(')');
                }
                return;
            }
            if let (Some("@func_update"), 3) = (name, args.len()) {
                pp(&args[0], PREFIX + 1, out);
                out.push('[');
                pp(&args[1], 0, out);
                out.push_str(" -> ");
                pp(&args[2], 0, out);
                out.push(']');
                return;
            }
            pp(head, PREFIX + 1, out);
            out.push('(');
            list(args, out);
            out.push(')');
        }
    }
}
