//! The product route: each formula decided by the parity game of the LPS and the formula,
//! built on the fly from the exploration engine (`crate::product`), its evidence (a
//! shortest trace, or a lasso) confirmed by the independent checker as every route's is.

use crate::lps::Lps;
use crate::product::{check, ProductError, ProductOptions};

use super::{
    attach_evidence, on_exploring_thread, Formula, FormulaResult, Options, Route, RouteError,
    Verdict, STACK,
};

/// Decides `f` on `lps` by the product game, on a thread with the exploring stack.
pub(super) fn decide<'f>(
    lps: &Lps,
    f: &'f Formula,
    opts: &Options,
) -> Result<FormulaResult<'f>, RouteError> {
    let popts = ProductOptions {
        evidence: opts.evidence,
        max_vertices: opts.max_vars,
        progress: opts.progress,
        stack: Some(STACK),
        ..ProductOptions::default()
    };
    let outcome = on_exploring_thread("check-product", "product's thread", || {
        check(lps, &f.spec, &popts)
    })
    .map_err(|e| ProductError::Data(e.to_string()))
    .and_then(|r| r)
    .map_err(|e| match e {
        ProductError::Unsupported(why) => RouteError::Unsupported(why),
        e => RouteError::Failed(e.into()),
    })?;
    let (built, solved, read) = outcome.seconds;
    let mut result = FormulaResult {
        formula: f,
        verdict: Verdict::Decided(outcome.value),
        route: Route::Product {
            vertices: outcome.vertices,
            edges: outcome.edges,
            states: outcome.states,
            transitions: outcome.transitions,
            early: outcome.early,
            one_player: outcome.one_player,
        },
        evidence: None,
        verified: false,
        seconds: built + solved + read,
        fallback: None,
        evidence_seconds: read,
        verify_seconds: 0.0,
    };
    if let Some(ev) = outcome.evidence {
        attach_evidence(&mut result, lps, ev, opts)?;
    }
    Ok(result)
}
