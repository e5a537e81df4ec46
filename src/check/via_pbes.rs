//! The PBES route: `lps2pbes` (or `lts2pbes` on an explicit LTS) with the step equations
//! evidence is read from, instantiation stopping as soon as the initial variable is
//! decided, solving, the evidence read off the finite proof or the solved game, and its
//! confirmation by the independent checker.

use std::time::Instant;

use crate::pbes::inst::InstOptions;
use crate::pbes::lps2pbes::{lps2pbes_with, Lps2PbesOptions};
use crate::pbes::lts2pbes::lts2pbes_with;
use crate::pbes::solve::solve_pbes;
use crate::progress::time_stage;

use super::{since, Formula, FormulaResult, Model, Options, Route, Verdict};

/// Decides `f` on `model` through a PBES (see the module documentation).
pub(super) fn decide<'f>(
    model: &Model,
    f: &'f Formula,
    opts: &Options,
) -> miette::Result<FormulaResult<'f>> {
    let inst = InstOptions {
        max_vars: opts.max_vars,
        keep_origins: opts.evidence,
        progress: opts.progress,
        // The BES is only solved: its variables need no names.
        names: false,
        ..InstOptions::default()
    };
    {
        let t = Instant::now();
        let pbes = match model {
            Model::Lps(lps) => lps2pbes_with(
                lps,
                &f.spec,
                Lps2PbesOptions {
                    counter_example: opts.evidence,
                },
            )?,
            Model::Lts {
                lts, decls, labels, ..
            } => lts2pbes_with(lts, labels, &decls.data, &f.spec, opts.evidence)?,
        };
        // Evidence comes from the finite proof of an early stop, or else from the solved
        // game, so solving may always stop as soon as the verdict is decided.
        let out = solve_pbes(&pbes, &inst, opts.solver, true)?;
        let value = out.value;
        let route = Route::Pbes {
            equations: pbes.equations.len(),
            bes_vars: out.inst.stats.instances + out.inst.stats.auxiliary,
            decided: out.inst.stats.decided,
        };
        let mut result = FormulaResult {
            formula: f,
            verdict: Verdict::Decided(value),
            route,
            evidence: None,
            verified: false,
            seconds: 0.0,
            fallback: None,
            evidence_seconds: 0.0,
            verify_seconds: 0.0,
        };
        if opts.evidence {
            let _timer = time_stage("evidence");
            let te = Instant::now();
            let game = out.game.as_ref().map(|(g, s)| (g, s));
            let ev = match model {
                Model::Lps(lps) => crate::evidence::read(lps, &pbes, &out.inst, game, value, true)?,
                Model::Lts { lts, labels, .. } => crate::evidence::read_lts(
                    lts,
                    Some(labels),
                    &pbes,
                    &out.inst,
                    game,
                    value,
                    true,
                )?,
            };
            result.evidence_seconds = since(te);
            // The solved BES (origins, justification, game) is not needed any more: the
            // check works on the evidence alone.
            drop(out);
            if opts.verify {
                let tv = Instant::now();
                match model {
                    Model::Lps(lps) => {
                        crate::evidence::check::check_evidence(lps, &f.spec, &ev, opts.solver)?
                    }
                    Model::Lts { lts, decls, .. } => crate::evidence::lts::check_lts_evidence(
                        lts,
                        &decls.data,
                        &f.spec,
                        &ev,
                        opts.solver,
                    )?,
                }
                result.verify_seconds = since(tv);
                result.verified = true;
            }
            result.evidence = Some(ev);
        }
        result.seconds = since(t);
        Ok(result)
    }
}
