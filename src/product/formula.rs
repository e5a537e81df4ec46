//! The formula as the product game walks it: the positive normal form (`modal::preprocess`)
//! flattened into a table of nodes, each with the data variables in scope at it (the
//! quantified variables and fixpoint parameters around it, outermost first), its data as
//! terms of the exploring store, and per fixpoint its priority in the game.
//!
//! Priorities follow mCRL2's ranks of the equations `lps2pbes` would make: fixpoints in the
//! order of the formula (outermost first), the rank going up by one at each change of sign,
//! even for `nu`; a game priority is the largest rank rounded up to even minus the rank
//! (PGSolver's max-parity convention of `crate::bes`), so an outer fixpoint dominates.

use crate::data::ir::{DataExpr, Var};
use crate::data::{Rewriter, TermId, VarId};
use crate::evidence::explicit::{data_parts, holds_var, state_const_unless};
use crate::modal::ir::{ActionFormula, RegFormula, StateFormula};
use crate::print::state_formula_to_string;

use super::ProductError;

/// A node's number in [`Formula::nodes`].
pub type NodeId = u32;

/// One node of the formula.
#[derive(Clone, Debug)]
pub enum Node {
    /// `true`.
    True,
    /// `false`.
    False,
    /// `val(b)`, `b` over the node's scope.
    Val(TermId),
    /// `a && b`.
    And(NodeId, NodeId),
    /// `a || b`.
    Or(NodeId, NodeId),
    /// `[α] φ` (`must`) or `<α> φ`, `α` an index into [`Formula::actions`].
    Modal {
        /// Box (`true`) or diamond.
        must: bool,
        /// The action formula.
        alpha: usize,
        /// `φ`.
        body: NodeId,
    },
    /// `forall vs . φ` (`forall`) or `exists vs . φ`, an index into [`Formula::quants`].
    Quant(usize),
    /// `σX(params = inits) . φ` entered from outside: an index into [`Formula::fixes`].
    Fix(usize),
    /// An occurrence `X(args)` of the fixpoint [`Formula::fixes`]`[fix]`.
    Var {
        /// The fixpoint.
        fix: usize,
        /// The arguments, over the occurrence's scope.
        args: Vec<TermId>,
    },
}

/// A quantifier and how its values are found.
#[derive(Clone, Debug)]
pub struct Quant {
    /// `forall` (`true`) or `exists`.
    pub forall: bool,
    /// The variables that occur in the body, with whether each is bound by the labels of
    /// the state's own transitions: outside those values the body is constant (`true` under
    /// `forall`), as `forall p, v: Nat . [decide(p, v)] φ`.
    pub vars: Vec<(VarId, Var, bool)>,
    /// Whether a label binds some variable below a constructor (`data(d)`): then the
    /// candidates are the labels' parts, not only their arguments.
    pub deep: bool,
    /// The data guard of the other variables (over the scope and those variables): their
    /// values are its solutions; `true` when there is none (finite sorts only then).
    pub guard: TermId,
    /// The body.
    pub body: NodeId,
}

/// A fixpoint.
#[derive(Clone, Debug)]
pub struct Fix {
    /// Its name, for messages.
    pub name: String,
    /// Least (`true`) or greatest.
    pub mu: bool,
    /// Its parameters' variables.
    pub params: Vec<VarId>,
    /// The initial values of the parameters, over the scope of the fixpoint.
    pub inits: Vec<TermId>,
    /// How many scope variables the fixpoint itself has (its body's scope is those, then
    /// the parameters).
    pub scope_len: usize,
    /// The body.
    pub body: NodeId,
    /// The priority of its occurrences in the game.
    pub priority: u32,
}

/// The formula compiled (see the module documentation).
#[derive(Clone, Debug)]
pub struct Formula {
    /// The nodes; the root is [`Formula::root`].
    pub nodes: Vec<Node>,
    /// The scope of each node: the data variables in scope, outermost first.
    pub scopes: Vec<Vec<VarId>>,
    /// The action formulas of the modalities (with their free variables in their node's
    /// scope).
    pub actions: Vec<ActionFormula>,
    /// The quantifiers.
    pub quants: Vec<Quant>,
    /// The fixpoints.
    pub fixes: Vec<Fix>,
    /// Per node, when it is a fixpoint's body, that fixpoint's priority (read per game
    /// vertex, so a table rather than a search of the fixpoints).
    pub bodies: Vec<Option<u32>>,
    /// The root.
    pub root: NodeId,
}

impl Formula {
    /// Whether `node` is a fixpoint's body.
    pub fn is_body(&self, node: NodeId) -> bool {
        self.bodies[node as usize].is_some()
    }

    /// The priority of `node` when it is a fixpoint's body (its vertices stand for that
    /// fixpoint's unfoldings), else 0.
    pub fn body_priority(&self, node: NodeId) -> u32 {
        self.bodies[node as usize].unwrap_or(0)
    }
}

/// Compiles `f` (in positive normal form, fixpoint at the top, as
/// `modal::preprocess::normalise_formula` gives it) over `rw`'s store.
pub fn compile(f: &StateFormula, rw: &Rewriter<'_>) -> Result<Formula, ProductError> {
    let mut c = Compiler {
        rw,
        out: Formula {
            nodes: Vec::new(),
            scopes: Vec::new(),
            actions: Vec::new(),
            quants: Vec::new(),
            fixes: Vec::new(),
            bodies: Vec::new(),
            root: 0,
        },
        scope: Vec::new(),
        fix_scope: Vec::new(),
        ranks: Vec::new(),
    };
    c.out.root = c.node(f)?;
    // mCRL2's ranks, in the order the fixpoints were met (outermost first), then the
    // priorities.
    let mut rank = 0u32;
    let mut prev: Option<bool> = None;
    let mut ranks = Vec::with_capacity(c.ranks.len());
    for &mu in &c.ranks {
        rank = match prev {
            None => u32::from(mu),
            Some(p) if p != mu => rank + 1,
            Some(_) => rank,
        };
        prev = Some(mu);
        ranks.push(rank);
    }
    let top = ranks.iter().copied().max().unwrap_or(0);
    let top = top + top % 2;
    for (fix, r) in c.out.fixes.iter_mut().zip(ranks) {
        fix.priority = top - r;
    }
    c.out.bodies = vec![None; c.out.nodes.len()];
    // Each fixpoint has a body of its own (compiled once, under it), so no node is the body
    // of two.
    for fix in &c.out.fixes {
        c.out.bodies[fix.body as usize] = Some(fix.priority);
    }
    Ok(c.out)
}

struct Compiler<'a, 's> {
    rw: &'a Rewriter<'s>,
    out: Formula,
    /// The data variables in scope.
    scope: Vec<Var>,
    /// The fixpoints in scope: name and index.
    fix_scope: Vec<(String, usize)>,
    /// The sign of each fixpoint in order of the formula (`true` for `mu`).
    ranks: Vec<bool>,
}

impl Compiler<'_, '_> {
    fn outside(&self, f: &StateFormula, why: &str) -> ProductError {
        ProductError::Outside {
            at: state_formula_to_string(f),
            reason: why.to_string(),
        }
    }

    fn term(&self, e: &DataExpr) -> Result<TermId, ProductError> {
        self.rw
            .term(e)
            .map_err(|e| ProductError::Data(e.to_string()))
    }

    fn push(&mut self, n: Node) -> NodeId {
        let store = self.rw.store();
        let scope = self.scope.iter().map(|v| store.intern_var(v)).collect();
        self.out.nodes.push(n);
        self.out.scopes.push(scope);
        (self.out.nodes.len() - 1) as NodeId
    }

    fn node(&mut self, f: &StateFormula) -> Result<NodeId, ProductError> {
        use StateFormula as S;
        Ok(match f {
            S::True => self.push(Node::True),
            S::False => self.push(Node::False),
            S::Val(d) => {
                let t = self.term(d)?;
                self.push(Node::Val(t))
            }
            S::And(a, b) | S::Or(a, b) => {
                let (x, y) = (self.node(a)?, self.node(b)?);
                let n = if matches!(f, S::And(..)) {
                    Node::And(x, y)
                } else {
                    Node::Or(x, y)
                };
                self.push(n)
            }
            S::Must(r, a) | S::May(r, a) => {
                let RegFormula::Action(alpha) = r else {
                    return Err(self.outside(f, "a regular formula is left after normalising"));
                };
                let body = self.node(a)?;
                self.out.actions.push(alpha.clone());
                self.push(Node::Modal {
                    must: matches!(f, S::Must(..)),
                    alpha: self.out.actions.len() - 1,
                    body,
                })
            }
            S::Forall(vs, a) | S::Exists(vs, a) => {
                let forall = matches!(f, S::Forall(..));
                let mut fv = Vec::new();
                crate::modal::ir::formula_free_vars_into(a, &mut Vec::new(), &mut fv);
                let store = self.rw.store();
                let mut vars = Vec::new();
                let mut guarded = false;
                let mut deep = false;
                for v in vs.iter().filter(|v| fv.contains(v)) {
                    // Bound by the labels of the state's own transitions: a modality's body is
                    // about other states.
                    let mut rw = self.rw.clone();
                    let by_labels = state_const_unless(a, v, forall, false, &mut |e, x| {
                        let h = holds_var(&mut rw, e, x);
                        deep |= h && !matches!(e, crate::data::ir::DataExpr::Var(_));
                        h
                    });
                    guarded |= !by_labels;
                    vars.push((store.intern_var(v), v.clone(), by_labels));
                }
                // Outside the data guard the body is constant: `false` (exists) or `true`
                // (forall), so only its solutions matter.
                let guard = if guarded {
                    let mut parts = Vec::new();
                    data_parts(a, !forall, &mut parts);
                    let g = if parts.is_empty() {
                        None
                    } else if forall {
                        // `!(p || q)` as `!p && !q`: the enumerator bounds a variable by
                        // the conjuncts of a condition.
                        Some(crate::data::ir_ops::and_all(
                            parts.into_iter().cloned().map(crate::data::ir_ops::not),
                        ))
                    } else {
                        Some(crate::data::ir_ops::and_all(parts.into_iter().cloned()))
                    };
                    match g {
                        Some(g) => self.term(&g)?,
                        None => store.true_term(),
                    }
                } else {
                    store.true_term()
                };
                let n = self.scope.len();
                self.scope.extend(vars.iter().map(|(_, v, _)| v.clone()));
                let body = self.node(a);
                self.scope.truncate(n);
                self.out.quants.push(Quant {
                    forall,
                    vars,
                    deep,
                    guard,
                    body: body?,
                });
                self.push(Node::Quant(self.out.quants.len() - 1))
            }
            S::Mu(v, a) | S::Nu(v, a) => {
                let mu = matches!(f, S::Mu(..));
                self.ranks.push(mu);
                let inits = v
                    .params
                    .iter()
                    .map(|(_, e)| self.term(e))
                    .collect::<Result<Vec<_>, _>>()?;
                let store = self.rw.store();
                let params: Vec<VarId> =
                    v.params.iter().map(|(p, _)| store.intern_var(p)).collect();
                let idx = self.out.fixes.len();
                self.out.fixes.push(Fix {
                    name: v.name.to_string(),
                    mu,
                    params,
                    inits,
                    scope_len: self.scope.len(),
                    body: 0,
                    priority: 0,
                });
                let n = self.scope.len();
                self.scope.extend(v.params.iter().map(|(p, _)| p.clone()));
                self.fix_scope.push((v.name.to_string(), idx));
                let body = self.node(a);
                self.fix_scope.pop();
                self.scope.truncate(n);
                self.out.fixes[idx].body = body?;
                self.push(Node::Fix(idx))
            }
            S::Var { name, args } => {
                let Some(&(_, fix)) = self.fix_scope.iter().rev().find(|(x, _)| **x == **name)
                else {
                    return Err(self.outside(f, "the fixpoint variable is not bound"));
                };
                let args = args
                    .iter()
                    .map(|e| self.term(e))
                    .collect::<Result<Vec<_>, _>>()?;
                self.push(Node::Var { fix, args })
            }
            S::Not(_) | S::Imp(..) => {
                return Err(self.outside(f, "the formula is not in positive normal form"))
            }
        })
    }
}
