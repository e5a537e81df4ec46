//! Evidence: witnesses and counterexamples extracted from solved BESs and explored LTSs.
//!
//! # Traces from a solved PBES of `lps2pbes`
//! [`trace`] follows, from the initial BES variable, the winner's strategy at the winner's
//! own vertices and the first successor elsewhere (every successor is lost by the opponent),
//! until a constant or a repeated vertex. Every BES variable that stands for a PBES instance
//! carries its data instance ([`crate::pbes::inst::VarOrigin`]); the process parameters are
//! the *last* parameters of every `lps2pbes` equation, so the walk yields a sequence of LPS
//! states. Between two consecutive different states the step is recovered by finding a
//! summand and values of its sum variables (with the data engine's enumerator) whose
//! condition holds and whose next state is the second state. For a violated `[R*]φ` this is
//! the trace of actions to a violating state; for a satisfied `<R*>φ` a witness path.

use crate::bes::{Game, Player, Solution, VertexId};
use crate::data::ir::DataExpr;
use crate::data::ir_ops::{and, eq, substitute, Subst};
use crate::data::print::data_expr_to_string;
use crate::data::{Rewriter, VarId};
use crate::lps::{Lps, SummandAction};
use crate::pbes::inst::Instantiation;

/// One step of a trace: the multi-action (printed, `tau` for the empty one) and the state
/// it leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// The multi-action as mCRL2 prints it, or `?` when no summand explains the step.
    pub action: String,
    /// The process parameter values after the step.
    pub state: Vec<DataExpr>,
}

/// A trace through the LPS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// The initial state.
    pub initial: Vec<DataExpr>,
    /// The steps.
    pub steps: Vec<TraceStep>,
    /// Whether the walk ended in a cycle (the last state repeats an earlier vertex).
    pub ends_in_cycle: bool,
}

impl Trace {
    /// The trace as text: one action per line.
    pub fn actions(&self) -> Vec<&str> {
        self.steps.iter().map(|s| s.action.as_str()).collect()
    }
}

/// The evidence trace of a solved `lps2pbes` PBES (see the module docs). `value` is the
/// verdict (the winner of the initial vertex is `Even` for true).
pub fn trace(lps: &Lps, inst: &Instantiation, game: &Game, sol: &Solution, value: bool) -> Trace {
    let k = lps.params.len();
    let winner = if value { Player::Even } else { Player::Odd };
    let Some(bes) = &inst.bes else {
        return Trace {
            initial: lps.init.clone(),
            steps: Vec::new(),
            ends_in_cycle: false,
        };
    };
    let mut v = bes.init().vertex();
    let mut seen = vec![false; game.num_vertices()];
    let mut states: Vec<Vec<DataExpr>> = Vec::new();
    let mut cycle = false;
    loop {
        if seen[v.0 as usize] {
            cycle = true;
            break;
        }
        seen[v.0 as usize] = true;
        if let Some(o) = &inst.origin[v.0 as usize] {
            let n = o.args.len();
            if n >= k {
                let s = o.args[n - k..].to_vec();
                if states.last() != Some(&s) {
                    states.push(s);
                }
            }
        }
        let succ = game.successors(v);
        if succ.len() == 1 && succ[0] == v {
            break; // a constant
        }
        let next: Option<VertexId> = if game.owner(v) == winner {
            sol.strategy(v)
        } else {
            succ.first().copied()
        };
        match next {
            Some(n) => v = n,
            None => break,
        }
    }
    let initial = states.first().cloned().unwrap_or_else(|| lps.init.clone());
    let mut steps = Vec::new();
    let mut rw = Rewriter::new(&lps.data).ok();
    for w in states.windows(2) {
        let action = match rw.as_mut() {
            Some(rw) => explain_step(lps, rw, &w[0], &w[1]).unwrap_or_else(|| "?".into()),
            None => "?".into(),
        };
        steps.push(TraceStep {
            action,
            state: w[1].clone(),
        });
    }
    Trace {
        initial,
        steps,
        ends_in_cycle: cycle,
    }
}

/// A multi-action of a summand that leads from `from` to `to`, printed.
fn explain_step(
    lps: &Lps,
    rw: &mut Rewriter,
    from: &[DataExpr],
    to: &[DataExpr],
) -> Option<String> {
    let sigma: Subst = lps
        .params
        .iter()
        .cloned()
        .zip(from.iter().cloned())
        .collect();
    for s in &lps.summands {
        let SummandAction::Multi(acts) = &s.action else {
            continue;
        };
        let mut cond = substitute(&s.condition, &sigma);
        for (n, t) in s.next.iter().zip(to) {
            cond = and(cond, eq(substitute(n, &sigma), t.clone()));
        }
        let Ok(c) = rw.term(&cond) else { continue };
        let vars: Vec<VarId> = s
            .sum_vars
            .iter()
            .map(|v| rw.store().intern_var(v))
            .collect();
        let mut found: Option<Vec<crate::data::TermId>> = None;
        let tt = rw.store().true_term();
        let r = rw.enumerator().enumerate(&vars, c, &mut |vals, residual| {
            if residual == tt {
                found = Some(vals.to_vec());
                false
            } else {
                true
            }
        });
        if r.is_err() {
            continue;
        }
        if let Some(vals) = found {
            let mut inner = sigma.clone();
            for (v, t) in s.sum_vars.iter().zip(vals) {
                inner.insert(v.clone(), rw.expr(t));
            }
            if acts.is_empty() {
                return Some("tau".into());
            }
            let parts: Vec<String> = acts
                .iter()
                .map(|a| {
                    if a.args.is_empty() {
                        a.name.to_string()
                    } else {
                        let args: Vec<String> = a
                            .args
                            .iter()
                            .map(|e| {
                                let e = substitute(e, &inner);
                                let e = rw
                                    .term(&e)
                                    .ok()
                                    .and_then(|t| rw.rewrite(t).ok())
                                    .map(|t| rw.expr(t))
                                    .unwrap_or(e);
                                data_expr_to_string(&e)
                            })
                            .collect();
                        format!("{}({})", a.name, args.join(", "))
                    }
                })
                .collect();
            return Some(parts.join("|"));
        }
    }
    None
}
