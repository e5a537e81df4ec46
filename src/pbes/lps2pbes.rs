//! `lps2pbes`: the standard translation of a linear process and a state formula into a PBES
//! (mCRL2's, untimed).
//!
//! The formula is first brought into positive normal form ([`crate::modal::preprocess`]):
//! regular modalities become fixpoints, negations are pushed to data and action formulas,
//! fixpoint variables are renamed apart, and the data variables the formula binds are
//! renamed apart from each other and from the process parameters, globals and sum
//! variables. A formula that is not a fixpoint at the top is wrapped in an extra `nu`.
//!
//! Then every fixpoint `σX(v: V = e). φ` becomes one equation
//! `σX(v: V, c: C, d: D) = RHS(φ)`, where `c` are the variables of enclosing quantifiers and
//! fixpoints that occur free in the fixpoint, and `d` the process parameters (always the
//! *last* parameters of every equation, in the LPS's order: evidence generation reads the
//! state of a BES variable from them). Equations come in the order of the fixpoints in the
//! formula, outermost first. Modalities over summand `i`
//! (`sum e_i . c_i -> a_i . P(g_i)`):
//! - `[α]φ` = `∧_i forall e_i . (c_i && sat(a_i, α)) => RHS(φ)[d := g_i]`
//! - `<α>φ` = `∨_i exists e_i . c_i && sat(a_i, α) && RHS(φ)[d := g_i]`
//!
//! `delta` summands match nothing; [`sat`] compares multi-actions as multisets.
//!
//! # Counter-example information (`lps2pbes -c`)
//! With [`Lps2PbesOptions::counter_example`], the right-hand side `RHS(φ)[d := g_i]` of each
//! modality over summand `i` becomes a fresh variable `EvStep<i>_<k>(c, e_i, d)` with its own
//! equation `σ EvStep<i>_<k>(c, e_i, d) = RHS(φ)[d := g_i]`, placed right after the equation of
//! the innermost enclosing fixpoint and with its sign `σ` (a definition inside one block of
//! equal sign, so every solution is unchanged). An instance of such an equation stands for
//! exactly one transition — summand `i` taken from state `d` with sum values `e_i` — so
//! the winner's strategy yields the transitions that prove the verdict ([`crate::evidence`]),
//! as mCRL2's `lps2pbes --counter-example` does. Instantiating for evidence records these
//! instances on the BES's edges instead of making them variables
//! ([`crate::pbes::inst::EdgeSteps`]). [`step_summand`] recognises these names.

use std::collections::HashSet;

use miette::Diagnostic;
use thiserror::Error;

use crate::data::ir::{DataExpr, Name, Var};
use crate::data::ir_ops::{substitute, Subst};
use crate::lps::{Lps, SummandAction};
use crate::modal::ir::formula_free_vars_into;
use crate::modal::ir::{FormulaSpec, RegFormula, StateFormula};
use crate::modal::preprocess::{collect_fixpoint_names, normalise_formula, PreprocessError};
use crate::pbes::ir::{Fixpoint, Pbes, PbesEquation, PbesExpr, PropVarDecl, PropVarInst};
use crate::pbes::matching::{and, data, imp, or, quantify, sat};
use crate::source::Span;

/// Why a formula cannot be translated.
#[derive(Debug, Error, Diagnostic)]
pub enum Lps2PbesError {
    /// The formula is not monotone or has an unbound fixpoint variable.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Preprocess(#[from] PreprocessError),
    /// A modality kept a regular formula after preprocessing (an internal invariant).
    #[error("internal error: modality with a regular formula after preprocessing")]
    #[diagnostic(code(muon::pbes::internal))]
    Internal,
}

/// Options of [`lps2pbes_with`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Lps2PbesOptions {
    /// Add the step equations that evidence is read from (see the module docs).
    pub counter_example: bool,
}

/// Translates `lps` and the formula into a PBES (see the module docs).
pub fn lps2pbes(lps: &Lps, formula: &FormulaSpec) -> Result<Pbes, Lps2PbesError> {
    lps2pbes_with(lps, formula, Lps2PbesOptions::default())
}

/// Translates `lps` and the formula into a PBES, with the given options.
pub fn lps2pbes_with(
    lps: &Lps,
    formula: &FormulaSpec,
    opts: Lps2PbesOptions,
) -> Result<Pbes, Lps2PbesError> {
    let _timer = crate::progress::time_stage("translation");
    let f = normalise_formula(&formula.formula, lps_names(lps))?;
    let mut used = HashSet::new();
    collect_fixpoint_names(&f, &mut used);
    let mut t = Translator {
        lps,
        equations: Vec::new(),
        steps: Vec::new(),
        open: Vec::new(),
        counter_example: opts.counter_example,
        used,
        next_step: 0,
    };
    let init = t.top(&f)?;
    // Each equation is followed by the step equations of its modalities (same block).
    let mut equations = Vec::with_capacity(t.equations.len());
    for (eq, steps) in t.equations.into_iter().zip(t.steps) {
        equations.push(eq);
        equations.extend(steps);
    }
    Ok(Pbes {
        data: formula.data_over(&lps.data),
        globals: lps.globals.clone(),
        equations,
        init,
    })
}

/// The prefix of the step equations' names.
const STEP_PREFIX: &str = "EvStep";

/// The summand a step equation of `lps2pbes -c` stands for, from its name
/// (`EvStep<i>_<k>`), or `None` for every other equation.
pub fn step_summand(name: &str) -> Option<usize> {
    let rest = name.strip_prefix(STEP_PREFIX)?;
    let (i, k) = rest.split_once('_')?;
    if i.is_empty() || k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    i.parse().ok()
}

/// Every data name of the LPS a formula binder must avoid.
fn lps_names(lps: &Lps) -> HashSet<Name> {
    let mut avoid: HashSet<Name> = HashSet::new();
    avoid.extend(lps.params.iter().map(|v| v.name.clone()));
    avoid.extend(lps.globals.iter().map(|v| v.name.clone()));
    for s in &lps.summands {
        avoid.extend(s.sum_vars.iter().map(|v| v.name.clone()));
    }
    avoid
}

/// For each fixpoint variable in scope: its name and the extra (context) parameters its
/// occurrences pass.
type Scope = Vec<(Name, Vec<Var>)>;

struct Translator<'a> {
    lps: &'a Lps,
    equations: Vec<PbesEquation>,
    /// The step equations that follow each equation (same index), with `counter_example`.
    steps: Vec<Vec<PbesEquation>>,
    /// Indices of the equations of the fixpoints being translated, innermost last.
    open: Vec<usize>,
    counter_example: bool,
    /// Every propositional variable name in use.
    used: HashSet<Name>,
    next_step: usize,
}

impl Translator<'_> {
    fn params_as_args(&self) -> Vec<DataExpr> {
        self.lps.params.iter().cloned().map(DataExpr::Var).collect()
    }

    /// The step variable for taking summand `i` into `next` (see the module docs): its
    /// equation joins the innermost open fixpoint's block; its parameters are the context
    /// variables free in `next`, the summand's sum variables and the process parameters.
    fn step(&mut self, i: usize, next: PbesExpr, ctx: &[Var]) -> Result<PbesExpr, Lps2PbesError> {
        let &parent = self.open.last().ok_or(Lps2PbesError::Internal)?;
        let mut free = Vec::new();
        crate::pbes::matching::pbes_free_vars_into(&next, &mut Vec::new(), &mut free);
        let s = &self.lps.summands[i];
        let mut params: Vec<Var> = ctx
            .iter()
            .filter(|c| free.contains(c) && !s.sum_vars.contains(c) && !self.lps.params.contains(c))
            .cloned()
            .collect();
        params.extend(s.sum_vars.iter().cloned());
        params.extend(self.lps.params.iter().cloned());
        self.next_step += 1;
        let name = crate::data::ir_ops::fresh_name(
            &format!("{STEP_PREFIX}{i}_{}", self.next_step),
            &mut self.used,
        );
        let args = params.iter().cloned().map(DataExpr::Var).collect();
        self.steps[parent].push(PbesEquation {
            fixpoint: self.equations[parent].fixpoint,
            var: PropVarDecl {
                name: name.clone(),
                params,
            },
            rhs: next,
            span: Span::default(),
        });
        Ok(PbesExpr::PropVar(PropVarInst { name, args }))
    }

    fn top(&mut self, f: &StateFormula) -> Result<PropVarInst, Lps2PbesError> {
        let (StateFormula::Mu(v, _) | StateFormula::Nu(v, _)) = f else {
            return Err(Lps2PbesError::Internal);
        };
        let mut scope = Scope::new();
        self.rhs(f, &mut Vec::new(), &mut scope)?;
        let mut args: Vec<DataExpr> = v.params.iter().map(|(_, e)| e.clone()).collect();
        args.extend(self.lps.init.iter().cloned());
        Ok(PropVarInst {
            name: v.name.clone(),
            args,
        })
    }

    /// `ctx`: data variables bound by enclosing quantifiers and fixpoints.
    fn rhs(
        &mut self,
        f: &StateFormula,
        ctx: &mut Vec<Var>,
        scope: &mut Scope,
    ) -> Result<PbesExpr, Lps2PbesError> {
        use StateFormula as S;
        Ok(match f {
            S::True => PbesExpr::True,
            S::False => PbesExpr::False,
            S::Val(d) => data(d.clone()),
            S::And(a, b) => and(self.rhs(a, ctx, scope)?, self.rhs(b, ctx, scope)?),
            S::Or(a, b) => or(self.rhs(a, ctx, scope)?, self.rhs(b, ctx, scope)?),
            S::Not(_) | S::Imp(..) => return Err(Lps2PbesError::Internal),
            S::Forall(vs, a) | S::Exists(vs, a) => {
                let n = ctx.len();
                ctx.extend(vs.iter().cloned());
                let body = self.rhs(a, ctx, scope);
                ctx.truncate(n);
                quantify(matches!(f, S::Forall(..)), vs, body?)
            }
            S::Must(r, a) | S::May(r, a) => {
                let RegFormula::Action(alpha) = r else {
                    return Err(Lps2PbesError::Internal);
                };
                let must = matches!(f, S::Must(..));
                let body = self.rhs(a, ctx, scope)?;
                let mut out = if must {
                    PbesExpr::True
                } else {
                    PbesExpr::False
                };
                for (i, s) in self.lps.summands.iter().enumerate() {
                    let SummandAction::Multi(acts) = &s.action else {
                        continue;
                    };
                    let m = sat(acts, alpha, true);
                    if matches!(m, PbesExpr::False) {
                        continue;
                    }
                    let cond = and(data(s.condition.clone()), m);
                    if matches!(cond, PbesExpr::False) {
                        continue;
                    }
                    let sigma: Subst = self
                        .lps
                        .params
                        .iter()
                        .cloned()
                        .zip(s.next.iter().cloned())
                        .filter(|(p, e)| !matches!(e, DataExpr::Var(v) if v == p))
                        .collect();
                    let mut next = substitute_pbes(&body, &sigma);
                    if self.counter_example {
                        next = self.step(i, next, ctx)?;
                    }
                    if must {
                        out = and(out, quantify(true, &s.sum_vars, imp(cond, next)));
                        if matches!(out, PbesExpr::False) {
                            break;
                        }
                    } else {
                        out = or(out, quantify(false, &s.sum_vars, and(cond, next)));
                        if matches!(out, PbesExpr::True) {
                            break;
                        }
                    }
                }
                out
            }
            S::Var { name, args } => {
                let extra = scope
                    .iter()
                    .rev()
                    .find(|(n, _)| n == name)
                    .map(|(_, c)| c.clone())
                    .ok_or(Lps2PbesError::Internal)?;
                let mut all = args.clone();
                all.extend(extra.into_iter().map(DataExpr::Var));
                all.extend(self.params_as_args());
                PbesExpr::PropVar(PropVarInst {
                    name: name.clone(),
                    args: all,
                })
            }
            S::Mu(v, a) | S::Nu(v, a) => {
                // Context variables the fixpoint needs: those free in it, and the context
                // parameters of every enclosing fixpoint it calls (`X(Py0)` inside `Y0`
                // passes on `X`'s context, though none of it occurs in `Y0`'s body).
                let mut fv = Vec::new();
                formula_free_vars_into(f, &mut Vec::new(), &mut fv);
                let mut called = Vec::new();
                crate::pbes::matching::prop_var_names(a, &mut called);
                for (n, extra) in scope.iter() {
                    if called.contains(n) {
                        for x in extra {
                            if !fv.contains(x) {
                                fv.push(x.clone());
                            }
                        }
                    }
                }
                let extra: Vec<Var> = ctx.iter().filter(|c| fv.contains(c)).cloned().collect();
                let own: Vec<Var> = v.params.iter().map(|(p, _)| p.clone()).collect();
                let mut params = own.clone();
                params.extend(extra.iter().cloned());
                params.extend(self.lps.params.iter().cloned());
                let index = self.equations.len();
                self.steps.push(Vec::new());
                self.equations.push(PbesEquation {
                    fixpoint: if matches!(f, S::Mu(..)) {
                        Fixpoint::Mu
                    } else {
                        Fixpoint::Nu
                    },
                    var: PropVarDecl {
                        name: v.name.clone(),
                        params,
                    },
                    rhs: PbesExpr::True,
                    span: Span::default(),
                });
                scope.push((v.name.clone(), extra.clone()));
                self.open.push(index);
                let n = ctx.len();
                ctx.extend(own);
                let body = self.rhs(a, ctx, scope);
                ctx.truncate(n);
                self.open.pop();
                scope.pop();
                self.equations[index].rhs = body?;
                let mut args: Vec<DataExpr> = v.params.iter().map(|(_, e)| e.clone()).collect();
                args.extend(extra.into_iter().map(DataExpr::Var));
                args.extend(self.params_as_args());
                PbesExpr::PropVar(PropVarInst {
                    name: v.name.clone(),
                    args,
                })
            }
        })
    }
}

/// Applies a data substitution to every data expression in `e`. Binders of `e` shadow;
/// capture cannot happen because the formula's binders were renamed apart from every LPS
/// name; binders that would still capture a variable of `sigma`'s terms are renamed.
pub fn substitute_pbes(e: &PbesExpr, sigma: &Subst) -> PbesExpr {
    if sigma.is_empty() {
        return e.clone();
    }
    match e {
        PbesExpr::True | PbesExpr::False => e.clone(),
        PbesExpr::Data(d) => data(substitute(d, sigma)),
        PbesExpr::Not(a) => PbesExpr::Not(Box::new(substitute_pbes(a, sigma))),
        PbesExpr::And(a, b) => PbesExpr::And(
            Box::new(substitute_pbes(a, sigma)),
            Box::new(substitute_pbes(b, sigma)),
        ),
        PbesExpr::Or(a, b) => PbesExpr::Or(
            Box::new(substitute_pbes(a, sigma)),
            Box::new(substitute_pbes(b, sigma)),
        ),
        PbesExpr::Imp(a, b) => PbesExpr::Imp(
            Box::new(substitute_pbes(a, sigma)),
            Box::new(substitute_pbes(b, sigma)),
        ),
        PbesExpr::Forall(vs, a) | PbesExpr::Exists(vs, a) => {
            let mut inner = sigma.clone();
            for v in vs {
                inner.remove(v);
            }
            // Rename binders that would capture a variable of the substituted terms.
            let mut danger: HashSet<Name> = HashSet::new();
            for val in inner.values() {
                for v in crate::data::ir_ops::free_vars(val) {
                    danger.insert(v.name.clone());
                }
            }
            let mut vs = vs.clone();
            if vs.iter().any(|v| danger.contains(&v.name)) {
                let mut used = danger.clone();
                let mut fv = Vec::new();
                crate::pbes::matching::pbes_free_vars_into(a, &mut Vec::new(), &mut fv);
                used.extend(fv.into_iter().map(|v| v.name));
                used.extend(vs.iter().map(|v| v.name.clone()));
                for v in vs.iter_mut() {
                    if danger.contains(&v.name) {
                        let nv = Var {
                            name: crate::data::ir_ops::fresh_name(&v.name, &mut used),
                            sort: v.sort.clone(),
                        };
                        inner.insert(v.clone(), DataExpr::Var(nv.clone()));
                        *v = nv;
                    }
                }
            }
            let body = Box::new(substitute_pbes(a, &inner));
            if matches!(e, PbesExpr::Forall(..)) {
                PbesExpr::Forall(vs, body)
            } else {
                PbesExpr::Exists(vs, body)
            }
        }
        PbesExpr::PropVar(x) => PbesExpr::PropVar(PropVarInst {
            name: x.name.clone(),
            args: x.args.iter().map(|a| substitute(a, sigma)).collect(),
        }),
    }
}
