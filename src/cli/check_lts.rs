//! `muon check M.aut -f F.mcf` (or `M.lts`): the formulas checked on an explicit LTS
//! (`lts2pbes`, instantiation, solving), with evidence from the LTS route
//! ([`crate::evidence::read_lts`]): a trace of LTS states and the model's own labels, and
//! an evidence LTS that is a part of the model, confirmed by the independent checker
//! (replayed on the LTS, the formula re-checked on the evidence LTS).

use std::process::ExitCode;
use std::time::Instant;

use super::check::{emit_evidence, print_verdict, Args, EvidencePlan};
use super::lts2pbes::{declarations, typed_labels};
use super::Global;
use crate::lts::Lts;
use crate::modal::read_formula;
use crate::pbes::inst::InstOptions;
use crate::pbes::lts2pbes::lts2pbes_with;
use crate::pbes::solve::solve_pbes;

/// Runs `check` on the LTS `args.spec` (see the module documentation).
pub(super) fn check_lts(args: &Args, g: Global) -> miette::Result<ExitCode> {
    if args.reduce.is_some() {
        miette::bail!(
            help = "reduce the LTS with `muon ltsconvert -e EQ` first, then check the result",
            "--reduce explores a specification; {} is an LTS",
            args.spec.display()
        );
    }
    let lts = Lts::read_file(Some(&args.spec))?;
    let spec = declarations(args.mcrl2.as_deref(), args.lps.as_deref(), &lts)?;
    let labels = typed_labels(&lts, &spec)?;
    let plan = EvidencePlan::new(args, g)?;
    let opts = InstOptions {
        max_vars: args.max_vars,
        keep_origins: plan.evidence,
        // The BES is only solved: its variables need no names.
        names: false,
        ..InstOptions::default()
    };
    let mut all_true = true;
    for f in &args.formulas {
        let t = Instant::now();
        let formula = read_formula(f, &spec)?;
        let pbes = lts2pbes_with(&lts, &labels, &spec.data, &formula, plan.evidence)?;
        let out = solve_pbes(&pbes, &opts, args.solver, true)?;
        all_true &= out.value;
        print_verdict(args, g, &plan, f, out.value);
        let stats = out.inst.stats.clone();
        if plan.evidence {
            let game = out.game.as_ref().map(|(g, s)| (g, s));
            let ev = crate::evidence::read_lts(
                &lts,
                Some(&labels),
                &pbes,
                &out.inst,
                game,
                out.value,
                true,
            )?;
            // The solved BES (origins, justification, game) is not needed any more: the
            // check works on the evidence alone.
            drop(out);
            if !args.no_verify {
                crate::evidence::lts::check_lts_evidence(
                    &lts,
                    &spec.data,
                    &formula,
                    &ev,
                    args.solver,
                )?;
            }
            emit_evidence(args, g, &plan, (&lts).into(), f, &ev)?;
        }
        if g.verbose {
            super::check::print_stats(f, &pbes, &stats, t);
        }
    }
    Ok(if all_true {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
