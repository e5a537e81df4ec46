//! An LPS as a [`TransitionSystem`]: what `muon lps2lts` explores.
//!
//! A state is the vector of the process parameters' values as hash-consed normal-form
//! `TermId`s of the data engine's shared store (so equal states have equal rows, whichever
//! thread built them). For a state, every summand `sum e. c -> α . P(g)` is evaluated by
//! rewriting `c` with the parameters bound, enumerating the sum variables that make the
//! result true, and rewriting the action arguments and next-state expressions under the
//! parameters and the sum variables' values. Summands are tried in LPS order and solutions
//! in the enumerator's order, which fixes the state numbering.

use rustc_hash::FxHashMap;
use thiserror::Error;

use super::{ActionPart, Label, TransitionSystem};
use crate::data::ir::Name;
use crate::data::{ConvertError, EnumError, RewriteError, Rewriter, TermId, VarId};
use crate::lps::print::data_expr_to_string;
use crate::lps::{Lps, SummandAction};

/// What can go wrong exploring an LPS.
#[derive(Debug, Error)]
pub enum LpsError {
    /// The LPS's data could not be compiled or converted.
    #[error("in the LPS's data: {0}")]
    Convert(#[from] ConvertError),
    /// Rewriting failed.
    #[error(transparent)]
    Rewrite(#[from] RewriteError),
    /// The sum variables of a summand could not be enumerated.
    #[error("in summand {summand} ({origin}): {source}")]
    Enumerate {
        /// The summand's number (from 1, in LPS order).
        summand: usize,
        /// Where it came from.
        origin: String,
        /// The enumerator's error.
        #[source]
        source: EnumError,
    },
    /// A condition did not rewrite to `true` or `false`.
    #[error("in summand {summand} ({origin}): the condition does not rewrite to true or false but to `{residual}`")]
    Undecided {
        /// The summand's number (from 1).
        summand: usize,
        /// Where it came from.
        origin: String,
        /// The normal form it reached.
        residual: String,
    },
    /// The LPS has global (free) variables, which lps2lts cannot give values.
    #[error("the LPS has global variables ({0}); lps2lts needs every value to be determined")]
    Globals(String),
    /// A data value is not a closed normal form (a free variable survived rewriting).
    #[error("the initial value of parameter `{param}` is not a closed value: `{value}`")]
    OpenInit {
        /// The parameter.
        param: String,
        /// Its value.
        value: String,
    },
}

struct CompiledSummand {
    sum_vars: Vec<VarId>,
    condition: TermId,
    /// Per action: the index of its name in `names`, and its argument terms.
    actions: Vec<(u32, Vec<TermId>)>,
    /// Per parameter: `None` when the parameter keeps its value, else the expression.
    next: Vec<Option<TermId>>,
    origin: String,
}

/// An LPS compiled for exploration.
pub struct LpsSystem {
    rw: Rewriter,
    params: Vec<VarId>,
    param_names: Vec<Name>,
    init: Vec<TermId>,
    names: Vec<Name>,
    summands: Vec<CompiledSummand>,
}

/// Per-thread scratch: a rewriting context and buffers.
pub struct LpsWorker {
    rw: Rewriter,
    sigma: Vec<(VarId, TermId)>,
    next: Vec<u32>,
    label: Vec<u32>,
    parts: Vec<(u32, Vec<TermId>)>,
}

impl LpsSystem {
    /// Compiles `lps`; `stack_limit` is the rewriter's stack budget in bytes (the exploring
    /// threads' stacks must be bigger).
    pub fn new(lps: &Lps, stack_limit: Option<usize>) -> Result<LpsSystem, LpsError> {
        if !lps.globals.is_empty() {
            let names: Vec<String> = lps.globals.iter().map(|v| v.name.to_string()).collect();
            return Err(LpsError::Globals(names.join(", ")));
        }
        let mut rw = Rewriter::new(&lps.data)?;
        if let Some(l) = stack_limit {
            rw.set_stack_limit(l);
        }
        let store = rw.store();
        let params: Vec<VarId> = lps.params.iter().map(|v| store.intern_var(v)).collect();
        let mut init = Vec::with_capacity(lps.init.len());
        for (p, e) in lps.params.iter().zip(&lps.init) {
            let t = rw.term(e)?;
            let n = rw.rewrite(t)?;
            if !store.is_closed(n) {
                return Err(LpsError::OpenInit {
                    param: p.name.to_string(),
                    value: data_expr_to_string(&rw.expr(n)),
                });
            }
            init.push(n);
        }
        let mut names: Vec<Name> = Vec::new();
        let mut name_ids: FxHashMap<Name, u32> = FxHashMap::default();
        let mut summands = Vec::new();
        for s in &lps.summands {
            let SummandAction::Multi(acts) = &s.action else {
                continue; // delta: no transitions
            };
            let mut actions = Vec::with_capacity(acts.len());
            for a in acts {
                let id = *name_ids.entry(a.name.clone()).or_insert_with(|| {
                    names.push(a.name.clone());
                    (names.len() - 1) as u32
                });
                let args = a
                    .args
                    .iter()
                    .map(|e| rw.term(e))
                    .collect::<Result<Vec<_>, _>>()?;
                actions.push((id, args));
            }
            let mut next = Vec::with_capacity(s.next.len());
            for (i, e) in s.next.iter().enumerate() {
                let t = rw.term(e)?;
                next.push(if t == store.var(params[i]) {
                    None
                } else {
                    Some(t)
                });
            }
            summands.push(CompiledSummand {
                sum_vars: s.sum_vars.iter().map(|v| store.intern_var(v)).collect(),
                condition: rw.term(&s.condition)?,
                actions,
                next,
                origin: s.origin.description.clone(),
            });
        }
        Ok(LpsSystem {
            rw,
            params,
            param_names: lps.params.iter().map(|v| v.name.clone()).collect(),
            init,
            names,
            summands,
        })
    }

    fn print(&self, t: TermId) -> String {
        data_expr_to_string(&self.rw.expr(t))
    }
}

/// Fires one solution of a summand: rewrites action arguments and next state under `sigma`.
fn fire(
    w: &mut LpsWorker,
    s: &CompiledSummand,
    state: &[u32],
    emit: &mut dyn FnMut(&Vec<u32>, &[u32]),
) -> Result<(), LpsError> {
    w.next.clear();
    for (i, n) in s.next.iter().enumerate() {
        match n {
            None => w.next.push(state[i]),
            Some(t) => {
                let v = w.rw.rewrite_with(*t, &w.sigma)?;
                w.next.push(v.0);
            }
        }
    }
    // The label key: actions sorted by (name, argument ids), each as name, args.
    w.parts.clear();
    for (name, args) in &s.actions {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(w.rw.rewrite_with(*a, &w.sigma)?);
        }
        w.parts.push((*name, vals));
    }
    w.parts.sort_unstable();
    w.label.clear();
    for (name, vals) in &w.parts {
        w.label.push(*name);
        w.label.push(vals.len() as u32);
        w.label.extend(vals.iter().map(|v| v.0));
    }
    emit(&w.label, &w.next);
    Ok(())
}

impl TransitionSystem for LpsSystem {
    /// Encoded multi-action: per action its name index, arity and argument `TermId`s.
    type Label = Vec<u32>;
    type Error = LpsError;
    type Worker = LpsWorker;

    fn state_width(&self) -> usize {
        self.params.len()
    }

    fn worker(&self) -> LpsWorker {
        LpsWorker {
            rw: self.rw.clone(),
            sigma: Vec::with_capacity(self.params.len() + 4),
            next: Vec::with_capacity(self.params.len()),
            label: Vec::new(),
            parts: Vec::new(),
        }
    }

    fn initial_state(&self, _w: &mut LpsWorker, out: &mut Vec<u32>) -> Result<(), LpsError> {
        out.extend(self.init.iter().map(|t| t.0));
        Ok(())
    }

    fn successors(
        &self,
        w: &mut LpsWorker,
        state: &[u32],
        emit: &mut dyn FnMut(&Vec<u32>, &[u32]),
    ) -> Result<(), LpsError> {
        let store = w.rw.store();
        let tt = store.true_term();
        let ff = store.false_term();
        for (k, s) in self.summands.iter().enumerate() {
            w.sigma.clear();
            w.sigma
                .extend(self.params.iter().zip(state).map(|(p, v)| (*p, TermId(*v))));
            let c = w.rw.rewrite_with(s.condition, &w.sigma)?;
            if c == ff {
                continue;
            }
            if s.sum_vars.is_empty() {
                if c != tt {
                    return Err(LpsError::Undecided {
                        summand: k + 1,
                        origin: s.origin.clone(),
                        residual: self.print(c),
                    });
                }
                fire(w, s, state, emit)?;
                continue;
            }
            // Enumerate the sum variables; collect solutions first (the enumerator borrows
            // the rewriter), then fire each.
            let mut solutions: Vec<Vec<TermId>> = Vec::new();
            let mut undecided = None;
            w.rw.enumerator()
                .enumerate(&s.sum_vars, c, &mut |vals, residual| {
                    if residual == tt {
                        solutions.push(vals.to_vec());
                        true
                    } else {
                        undecided = Some(residual);
                        false
                    }
                })
                .map_err(|source| LpsError::Enumerate {
                    summand: k + 1,
                    origin: s.origin.clone(),
                    source,
                })?;
            if let Some(r) = undecided {
                return Err(LpsError::Undecided {
                    summand: k + 1,
                    origin: s.origin.clone(),
                    residual: self.print(r),
                });
            }
            for vals in solutions {
                w.sigma.truncate(self.params.len());
                w.sigma.extend(s.sum_vars.iter().copied().zip(vals));
                fire(w, s, state, emit)?;
            }
        }
        Ok(())
    }

    fn label(&self, key: &Vec<u32>) -> Label {
        let mut parts = Vec::new();
        let mut i = 0;
        while i + 1 < key.len() {
            let name = self.names[key[i] as usize].to_string();
            let n = key[i + 1] as usize;
            let args = key[i + 2..i + 2 + n]
                .iter()
                .map(|t| self.print(TermId(*t)))
                .collect();
            parts.push(ActionPart::new(name, args));
            i += 2 + n;
        }
        // mCRL2 orders the actions of a multi-action by name, then by arguments.
        parts.sort();
        Label::from_parts(parts)
    }

    fn format_state(&self, state: &[u32]) -> String {
        let vals: Vec<String> = self
            .param_names
            .iter()
            .zip(state)
            .map(|(n, v)| format!("{n} = {}", self.print(TermId(*v))))
            .collect();
        format!("({})", vals.join(", "))
    }
}
