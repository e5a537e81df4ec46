//! `lts2pbes`: a state formula on an explicit LTS, as a PBES with one equation per fixpoint
//! and state (as mCRL2's `lts2pbes`).
//!
//! After the same formula normalisation as [`super::lps2pbes`], a fixpoint
//! `σX(v: V = e). φ` with context variables `c` (enclosing quantifier and fixpoint variables
//! that occur free in it) becomes, for every state `s`, the equation
//! `σX'<s>(v: V, c: C) = RHS_s(φ)`; the equations of one fixpoint are consecutive, and
//! fixpoints come outermost first. Modalities look at the outgoing transitions of `s`:
//! `[α]φ` at `s` is `∧_{s -a-> t} sat(a, α) => RHS_t(φ)`, `<α>φ` the dual disjunction.
//! Labels must be typed first ([`crate::lts::typed::type_labels`]) so that data in action formulas can be
//! compared with the data in labels.
//!
//! # Counter-example information (`lts2pbes -c`)
//! As with [`super::lps2pbes`]'s `-c`, [`lts2pbes_with`] can wrap the right-hand side
//! `RHS_t(φ)` of each modality over transition `k` (`s -a-> t`) in a fresh variable
//! `EvTrans<k>_<j>(c)` (`c` the data variables free in it) with its own equation
//! `σ EvTrans<k>_<j>(c) = RHS_t(φ)` in the block of state `s`'s equation, with its sign (a
//! definition inside one block of equal sign, so every solution is unchanged). An instance
//! of such an equation stands for exactly transition `k` (recorded on a BES edge when
//! instantiating for evidence), so the winner's strategy yields the
//! transitions that prove the verdict ([`crate::evidence::read_lts`]). [`step_transition`]
//! recognises these names.

use std::collections::HashSet;

use miette::Diagnostic;
use thiserror::Error;

use crate::data::ir::{DataExpr, DataSpec, Name, Var};
use crate::lts::Lts;
use crate::modal::ir::{formula_free_vars_into, FormulaSpec, RegFormula, StateFormula};
use crate::modal::preprocess::normalise_formula;
use crate::modal::preprocess::PreprocessError;
use crate::pbes::ir::{Fixpoint, Pbes, PbesEquation, PbesExpr, PropVarDecl, PropVarInst};
use crate::pbes::matching::{and, data, imp, or, prop_var_names, quantify, sat};
use crate::process::ir::Action;
use crate::source::Span;

/// Why an LTS and a formula cannot be translated.
#[derive(Debug, Error, Diagnostic)]
pub enum Lts2PbesError {
    /// The formula is not monotone or has an unbound fixpoint variable.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Preprocess(#[from] PreprocessError),
    /// The labels could not be typed against the declarations.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Labels(#[from] crate::lts::typed::LabelError),
    /// Fewer typed labels than the LTS has labels.
    #[error("internal error: {given} typed labels for {needed} labels")]
    #[diagnostic(code(muon::lts2pbes::internal))]
    LabelCount {
        /// Typed labels given.
        given: usize,
        /// Labels in the LTS.
        needed: usize,
    },
    /// An internal invariant of the normal form was violated.
    #[error("internal error: unexpected formula shape after preprocessing")]
    #[diagnostic(code(muon::lts2pbes::internal))]
    Internal,
}

/// The prefix of the step equations' names.
const STEP_PREFIX: &str = "EvTrans";

/// The transition (an index into [`Lts::transitions`]) a step equation of `lts2pbes -c`
/// stands for, from its name (`EvTrans<k>_<j>`), or `None` for every other equation.
pub fn step_transition(name: &str) -> Option<usize> {
    let rest = name.strip_prefix(STEP_PREFIX)?;
    let (k, j) = rest.split_once('_')?;
    if k.is_empty() || j.is_empty() || !j.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    k.parse().ok()
}

/// Translates `lts` (with `labels` from [`crate::lts::typed::type_labels`]) and the formula into a PBES.
/// `data` is the data specification the labels' data come from.
pub fn lts2pbes(
    lts: &Lts,
    labels: &[Vec<Action>],
    data_spec: &DataSpec,
    formula: &FormulaSpec,
) -> Result<Pbes, Lts2PbesError> {
    lts2pbes_with(lts, labels, data_spec, formula, false)
}

/// [`lts2pbes`], with the step equations evidence is read from when `counter_example` (see
/// the module docs).
pub fn lts2pbes_with(
    lts: &Lts,
    labels: &[Vec<Action>],
    data_spec: &DataSpec,
    formula: &FormulaSpec,
    counter_example: bool,
) -> Result<Pbes, Lts2PbesError> {
    let _timer = crate::progress::time_stage("translation");
    if labels.len() < lts.labels.len() {
        return Err(Lts2PbesError::LabelCount {
            given: labels.len(),
            needed: lts.labels.len(),
        });
    }
    let f = normalise_formula(&formula.formula, HashSet::new())?;
    let n = lts.num_states as usize;
    // Outgoing transitions per state, CSR.
    let mut start = vec![0u32; n + 1];
    for t in &lts.transitions {
        start[t.from.index() + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut succ = vec![(0u32, 0u32, 0u32); lts.transitions.len()];
    for (i, t) in lts.transitions.iter().enumerate() {
        let k = &mut fill[t.from.index()];
        succ[*k as usize] = (t.label.0, t.to.0, i as u32);
        *k += 1;
    }
    let mut names = HashSet::new();
    collect_names(&f, &mut names);
    let mut sep = String::from("'");
    while names.iter().any(|n| n.contains(sep.as_str())) {
        sep.push('\'');
    }
    let mut t = Translator {
        labels,
        start,
        succ,
        sep,
        equations: Vec::new(),
        counter_example,
        steps: Vec::new(),
        current: 0,
        next_step: 0,
    };
    t.fixpoint(&f, &mut Vec::new(), &mut Scope::new(), n)?;
    let (StateFormula::Mu(v, _) | StateFormula::Nu(v, _)) = &f else {
        return Err(Lts2PbesError::Internal);
    };
    let init = PropVarInst {
        name: t.state_name(&v.name, lts.initial.0),
        args: v.params.iter().map(|(_, e)| e.clone()).collect(),
    };
    // Each equation is followed by the step equations of its modalities (same block).
    let mut equations = Vec::with_capacity(t.equations.len() + t.next_step);
    for (eq, steps) in t.equations.into_iter().zip(t.steps) {
        equations.push(eq);
        equations.extend(steps);
    }
    Ok(Pbes {
        data: formula.data_over(data_spec),
        globals: Vec::new(),
        equations,
        init,
    })
}

fn collect_names(f: &StateFormula, out: &mut HashSet<Name>) {
    use StateFormula as S;
    match f {
        S::Mu(v, a) | S::Nu(v, a) => {
            out.insert(v.name.clone());
            collect_names(a, out);
        }
        S::Not(a) | S::Forall(_, a) | S::Exists(_, a) | S::Must(_, a) | S::May(_, a) => {
            collect_names(a, out)
        }
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => {
            collect_names(a, out);
            collect_names(b, out);
        }
        S::True | S::False | S::Val(_) | S::Var { .. } => {}
    }
}

struct Translator<'a> {
    labels: &'a [Vec<Action>],
    start: Vec<u32>,
    /// Per outgoing transition (CSR by source state): label, target, index in the LTS.
    succ: Vec<(u32, u32, u32)>,
    sep: String,
    equations: Vec<PbesEquation>,
    counter_example: bool,
    /// The step equations that follow each equation (same index), with `counter_example`.
    steps: Vec<Vec<PbesEquation>>,
    /// The equation whose right-hand side is being built.
    current: usize,
    next_step: usize,
}

/// Context parameters per fixpoint variable (names are unique after normalisation).
type Scope = std::collections::HashMap<Name, Vec<Var>>;

impl Translator<'_> {
    fn state_name(&self, x: &Name, s: u32) -> Name {
        format!("{x}{}{s}", self.sep).into()
    }

    /// The step variable for taking transition `k` into `next` (see the module docs): its
    /// equation joins the block of the equation being built; its parameters are the data
    /// variables free in `next`.
    fn step(&mut self, k: u32, next: PbesExpr) -> PbesExpr {
        let mut params = Vec::new();
        crate::pbes::matching::pbes_free_vars_into(&next, &mut Vec::new(), &mut params);
        self.next_step += 1;
        // No clash with the state equations: their names all contain the separator `'`.
        let name: Name = format!("{STEP_PREFIX}{k}_{}", self.next_step).into();
        let args = params.iter().cloned().map(DataExpr::Var).collect();
        let fixpoint = self.equations[self.current].fixpoint;
        self.steps[self.current].push(PbesEquation {
            fixpoint,
            var: PropVarDecl {
                name: name.clone(),
                params,
            },
            rhs: next,
            span: Span::default(),
        });
        PbesExpr::PropVar(PropVarInst { name, args })
    }

    /// Generates the equations of fixpoint `f` (and, recursively, of the fixpoints inside it)
    /// for all `n` states.
    fn fixpoint(
        &mut self,
        f: &StateFormula,
        ctx: &mut Vec<Var>,
        scope: &mut Scope,
        n: usize,
    ) -> Result<Vec<Var>, Lts2PbesError> {
        let (StateFormula::Mu(v, body) | StateFormula::Nu(v, body)) = f else {
            return Err(Lts2PbesError::Internal);
        };
        // Context: the variables free in the fixpoint and the context parameters of every
        // enclosing fixpoint it calls.
        let mut fv = Vec::new();
        formula_free_vars_into(f, &mut Vec::new(), &mut fv);
        let mut called = Vec::new();
        prop_var_names(body, &mut called);
        for n in &called {
            for x in scope.get(n).into_iter().flatten() {
                if !fv.contains(x) {
                    fv.push(x.clone());
                }
            }
        }
        let extra: Vec<Var> = ctx.iter().filter(|c| fv.contains(c)).cloned().collect();
        let own: Vec<Var> = v.params.iter().map(|(p, _)| p.clone()).collect();
        let mut params = own.clone();
        params.extend(extra.iter().cloned());
        let first = self.equations.len();
        let fixpoint = if matches!(f, StateFormula::Mu(..)) {
            Fixpoint::Mu
        } else {
            Fixpoint::Nu
        };
        for s in 0..n as u32 {
            self.steps.push(Vec::new());
            self.equations.push(PbesEquation {
                fixpoint,
                var: PropVarDecl {
                    name: self.state_name(&v.name, s),
                    params: params.clone(),
                },
                rhs: PbesExpr::True,
                span: Span::default(),
            });
        }
        scope.insert(v.name.clone(), extra.clone());
        let k = ctx.len();
        ctx.extend(own);
        // Nested fixpoints first (their equations follow this block), then every state's rhs.
        let r = self.nested(body, ctx, scope, n).and_then(|_| {
            for s in 0..n as u32 {
                self.current = first + s as usize;
                let rhs = self.rhs(body, s, scope)?;
                self.equations[first + s as usize].rhs = rhs;
            }
            Ok(())
        });
        ctx.truncate(k);
        r?;
        Ok(extra)
    }

    /// Generates the equation blocks of the fixpoints directly or indirectly inside `f`,
    /// recording their context parameters in `scope` for the occurrences.
    fn nested(
        &mut self,
        f: &StateFormula,
        ctx: &mut Vec<Var>,
        scope: &mut Scope,
        n: usize,
    ) -> Result<(), Lts2PbesError> {
        use StateFormula as S;
        match f {
            S::Mu(..) | S::Nu(..) => {
                self.fixpoint(f, ctx, scope, n)?;
            }
            S::Forall(vs, a) | S::Exists(vs, a) => {
                let k = ctx.len();
                ctx.extend(vs.iter().cloned());
                let r = self.nested(a, ctx, scope, n);
                ctx.truncate(k);
                r?;
            }
            S::Must(_, a) | S::May(_, a) | S::Not(a) => self.nested(a, ctx, scope, n)?,
            S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => {
                self.nested(a, ctx, scope, n)?;
                self.nested(b, ctx, scope, n)?;
            }
            S::True | S::False | S::Val(_) | S::Var { .. } => {}
        }
        Ok(())
    }

    /// The context parameters of the fixpoint `name`: recorded when its block was made.
    fn extra_of(&self, name: &Name, scope: &Scope) -> Option<Vec<Var>> {
        scope.get(name).cloned()
    }

    fn rhs(&mut self, f: &StateFormula, s: u32, scope: &Scope) -> Result<PbesExpr, Lts2PbesError> {
        use StateFormula as S;
        Ok(match f {
            S::True => PbesExpr::True,
            S::False => PbesExpr::False,
            S::Val(d) => data(d.clone()),
            S::And(a, b) => and(self.rhs(a, s, scope)?, self.rhs(b, s, scope)?),
            S::Or(a, b) => or(self.rhs(a, s, scope)?, self.rhs(b, s, scope)?),
            S::Not(_) | S::Imp(..) => return Err(Lts2PbesError::Internal),
            S::Forall(vs, a) | S::Exists(vs, a) => {
                quantify(matches!(f, S::Forall(..)), vs, self.rhs(a, s, scope)?)
            }
            S::Must(r, a) | S::May(r, a) => {
                let RegFormula::Action(alpha) = r else {
                    return Err(Lts2PbesError::Internal);
                };
                let must = matches!(f, S::Must(..));
                let mut out = if must {
                    PbesExpr::True
                } else {
                    PbesExpr::False
                };
                let (lo, hi) = (self.start[s as usize], self.start[s as usize + 1]);
                for k in lo..hi {
                    let (label, to, index) = self.succ[k as usize];
                    let m = sat(&self.labels[label as usize], alpha, true);
                    if matches!(m, PbesExpr::False) {
                        continue;
                    }
                    let mut next = self.rhs(a, to, scope)?;
                    if self.counter_example {
                        next = self.step(index, next);
                    }
                    if must {
                        out = and(out, imp(m, next));
                        if matches!(out, PbesExpr::False) {
                            break;
                        }
                    } else {
                        out = or(out, and(m, next));
                        if matches!(out, PbesExpr::True) {
                            break;
                        }
                    }
                }
                out
            }
            S::Var { name, args } => {
                let extra = self.extra_of(name, scope).ok_or(Lts2PbesError::Internal)?;
                let mut all = args.clone();
                all.extend(extra.into_iter().map(DataExpr::Var));
                PbesExpr::PropVar(PropVarInst {
                    name: self.state_name(name, s),
                    args: all,
                })
            }
            S::Mu(v, _) | S::Nu(v, _) => {
                let extra = self
                    .extra_of(&v.name, scope)
                    .ok_or(Lts2PbesError::Internal)?;
                let mut args: Vec<DataExpr> = v.params.iter().map(|(_, e)| e.clone()).collect();
                args.extend(extra.into_iter().map(DataExpr::Var));
                PbesExpr::PropVar(PropVarInst {
                    name: self.state_name(&v.name, s),
                    args,
                })
            }
        })
    }
}
