//! `muon check --engine explore`: each formula, a regular safety formula, is checked while
//! the state space is explored (`monitor`), with no PBES. A false formula prints its
//! shortest counterexample as `check` prints evidence (confirmed by the same independent
//! checker); a true one says that every reachable state was explored. A stop by the budget
//! or Ctrl-C gives no verdict: "unknown", exit status 3 (as every stop by the budget).

use std::process::ExitCode;

use super::check::{emit_evidence, print_verdict, Args, EvidencePlan, TraceFormat};
use super::Global;
use crate::evidence::check::check_evidence;
use crate::lps::Lps;
use crate::modal::read_formula;
use crate::monitor::{check, refuse_outside, MonitorOptions, Verdict};
use crate::pbes::front::proc_spec_of_lps;
use crate::progress::Progress;

/// Stack of the exploring threads (as `lps2lts`: deep user equations need it).
const STACK: usize = 256 << 20;

/// Runs `check --engine explore` on `lps` (see the module documentation).
pub fn check_explore(args: &Args, g: Global, lps: &Lps) -> miette::Result<ExitCode> {
    let scope = proc_spec_of_lps(lps);
    // Every formula is read and refused if outside the fragment before anything is
    // explored.
    let mut formulas = Vec::with_capacity(args.formulas.len());
    for f in &args.formulas {
        let formula = read_formula(f, &scope)?;
        refuse_outside(&formula)
            .map_err(|e| miette::Report::new(e).wrap_err(f.display().to_string()))?;
        formulas.push(formula);
    }
    let plan = EvidencePlan::new(args, g)?;
    let mut all_true = true;
    for (f, formula) in args.formulas.iter().zip(&formulas) {
        let progress = Progress::new("check", g.quiet, g.verbose);
        let opts = MonitorOptions {
            threads: args.threads,
            thread_stack: Some(STACK),
            evidence: plan.evidence,
            progress: progress.active().then(|| progress.clone()),
        };
        let outcome = std::thread::scope(|s| {
            std::thread::Builder::new()
                .name("check-explore".into())
                .stack_size(STACK)
                .spawn_scoped(s, || check(lps, formula, &opts))
                .map_err(|e| miette::miette!("cannot start the exploring thread: {e}"))?
                .join()
                .map_err(|_| miette::miette!("internal error: the exploring thread panicked"))
        })??;
        progress.finish();
        let shown = f.display();
        match outcome.verdict {
            Verdict::Holds => {
                if plan.print_trace && args.format == TraceFormat::Json {
                    let v = serde_json::json!({
                        "formula": shown.to_string(),
                        "verdict": true,
                        "engine": "explore",
                        "explored": { "states": outcome.states, "transitions": outcome.transitions },
                    });
                    outln!("{v}");
                } else {
                    print_verdict(args, g, &plan, f, true);
                    if !g.quiet {
                        outln!(
                            "{shown}: explored the whole state space ({} states, {} transitions{}): every reachable state satisfies the formula; no evidence for a true formula with --engine explore",
                            outcome.states,
                            outcome.transitions,
                            if outcome.class_word {
                                ", states paired with the formula's automaton"
                            } else {
                                ""
                            }
                        );
                    }
                }
            }
            Verdict::Violated { evidence, .. } => {
                all_true = false;
                print_verdict(args, g, &plan, f, false);
                if let Some(ev) = evidence {
                    if !args.no_verify {
                        check_evidence(lps, formula, &ev, args.solver)?;
                    }
                    emit_evidence(args, g, &plan, lps.into(), f, &ev)?;
                }
            }
            Verdict::Stopped(reason) => {
                outln!(
                    "{shown}: unknown, stopped after {} states ({})",
                    outcome.states,
                    reason.describe()
                );
                return Ok(ExitCode::from(3));
            }
        }
        if g.verbose {
            errln!(
                "check: {shown}: explored {} states, {} transitions in {:.3} s",
                outcome.states,
                outcome.transitions,
                outcome.seconds
            );
        }
    }
    Ok(if all_true {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
