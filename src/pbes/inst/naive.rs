//! A deliberately simple reference for [`super::instantiate`]: every reachable instance is
//! instantiated in full (no constant propagation, no early stop, no quantifier plans),
//! quantifiers only over finite sorts by enumerating all values, and the BES is solved by
//! the textbook solver [`crate::bes::solve_naive`]. Slow; for cross-checking on small PBESs.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use super::{equation_ranks, show, show_sort, InstError};
use crate::bes::{bes_to_game, solve_naive, BesBuilder, BesVarId, Player, RhsKind};
use crate::data::ir_ops::default_value;
use crate::data::{Rewriter, Substitution, TermId, TermStore};
use crate::pbes::ir::{Pbes, PbesExpr};

/// A right-hand side after data is evaluated: constants, instances and junctions.
enum Rhs {
    Const(bool),
    Var(u32),
    Junction(bool, Vec<Rhs>), // (is a conjunction, operands)
}

struct Naive<'a> {
    pbes: &'a Pbes,
    rw: Rewriter<'a>,
    ids: FxHashMap<(usize, Vec<TermId>), u32>,
    keys: Vec<(usize, Vec<TermId>)>,
    queue: VecDeque<u32>,
    max_vars: usize,
    eq: usize,
}

/// The value of the initial instance of `pbes`, computed the slow, obvious way; at most
/// `max_vars` instances.
pub fn solve(pbes: &Pbes, max_vars: usize) -> Result<bool, InstError> {
    let store = TermStore::new();
    let rw = Rewriter::new(&pbes.data, &store).map_err(|e| InstError::Data(e.to_string()))?;
    let mut n = Naive {
        pbes,
        rw,
        ids: FxHashMap::default(),
        keys: Vec::new(),
        queue: VecDeque::new(),
        max_vars,
        eq: 0,
    };
    let mut sigma = Substitution::default();
    for g in &pbes.globals {
        let v = crate::data::ir_ops::representative(&g.sort, &pbes.data)
            .or_else(|| default_value(&g.sort, &pbes.data))
            .ok_or_else(|| InstError::Global(g.name.clone()))?;
        let t = n.term(&v)?;
        sigma.insert(n.rw.store().intern_var(g), t);
    }
    let init = n.instance(&pbes.init, &sigma)?;
    let mut rhs: Vec<Rhs> = Vec::new();
    while let Some(x) = n.queue.pop_front() {
        let (eq, args) = n.keys[x as usize].clone();
        n.eq = eq;
        let e = &pbes.equations[eq];
        let mut s = sigma.clone();
        for (p, a) in e.var.params.iter().zip(&args) {
            s.insert(n.rw.store().intern_var(p), *a);
        }
        rhs.push(n.rhs(&e.rhs, &mut s, false)?);
    }
    // Flatten into a BES (auxiliary variables take the rank of their equation) and solve.
    let ranks = equation_ranks(pbes);
    let mut b = BesBuilder::new();
    let vars: Vec<BesVarId> = (0..rhs.len())
        .map(|i| b.add_variable(&format!("X{i}")))
        .collect();
    for (i, r) in rhs.iter().enumerate() {
        define(&mut b, vars[i], ranks[n.keys[i].0], r, &vars);
    }
    b.set_init(vars[init as usize]);
    let bes = b.freeze().map_err(|e| InstError::Bes(e.to_string()))?;
    let winners = solve_naive(&bes_to_game(&bes));
    Ok(winners[bes.init().index()] == Player::Even)
}

fn define(b: &mut BesBuilder, x: BesVarId, rank: u32, r: &Rhs, vars: &[BesVarId]) {
    let (kind, ops) = match r {
        Rhs::Const(v) => (if *v { RhsKind::True } else { RhsKind::False }, Vec::new()),
        Rhs::Var(y) => (RhsKind::Or, vec![vars[*y as usize]]),
        Rhs::Junction(conj, rs) if rs.is_empty() => (
            if *conj { RhsKind::True } else { RhsKind::False },
            Vec::new(),
        ),
        Rhs::Junction(conj, rs) => {
            let ops = rs
                .iter()
                .map(|r| match r {
                    Rhs::Var(y) => vars[*y as usize],
                    _ => {
                        let aux = b.add_auxiliary("aux");
                        define(b, aux, rank, r, vars);
                        aux
                    }
                })
                .collect();
            (if *conj { RhsKind::And } else { RhsKind::Or }, ops)
        }
    };
    b.define(x, rank, kind, &ops)
        .expect("operands are declared");
}

impl Naive<'_> {
    fn name(&self) -> crate::source::Name {
        self.pbes.equations[self.eq].var.name.clone()
    }

    fn term(&self, e: &crate::data::ir::DataExpr) -> Result<TermId, InstError> {
        self.rw.term(e).map_err(|e| InstError::Data(e.to_string()))
    }

    fn eval(
        &mut self,
        e: &crate::data::ir::DataExpr,
        s: &Substitution,
    ) -> Result<TermId, InstError> {
        let t = self.term(e)?;
        self.rw
            .rewrite_subst(t, s)
            .map_err(|e| InstError::Data(e.to_string()))
    }

    /// The BES variable of an instance, queued when new.
    fn instance(
        &mut self,
        x: &crate::pbes::ir::PropVarInst,
        s: &Substitution,
    ) -> Result<u32, InstError> {
        let eq = (self.pbes.equations.iter())
            .position(|e| e.var.name == x.name)
            .ok_or_else(|| InstError::UnknownVariable(x.name.clone()))?;
        let args = (x.args.iter())
            .map(|a| self.eval(a, s))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(&id) = self.ids.get(&(eq, args.clone())) {
            return Ok(id);
        }
        if self.keys.len() >= self.max_vars {
            return Err(InstError::TooManyVariables(self.max_vars));
        }
        let id = self.keys.len() as u32;
        self.ids.insert((eq, args.clone()), id);
        self.keys.push((eq, args));
        self.queue.push_back(id);
        Ok(id)
    }

    /// `e` (negated when `neg`) under `s`.
    fn rhs(&mut self, e: &PbesExpr, s: &mut Substitution, neg: bool) -> Result<Rhs, InstError> {
        Ok(match e {
            PbesExpr::True => Rhs::Const(!neg),
            PbesExpr::False => Rhs::Const(neg),
            PbesExpr::Data(d) => {
                let t = self.eval(d, s)?;
                let store = self.rw.store();
                if t == store.true_term() || t == store.false_term() {
                    Rhs::Const((t == store.true_term()) != neg)
                } else {
                    let expr = show(&self.rw.expr(t));
                    return Err(InstError::Undecided {
                        equation: self.name(),
                        expr,
                    });
                }
            }
            PbesExpr::Not(a) => self.rhs(a, s, !neg)?,
            PbesExpr::And(a, b) | PbesExpr::Or(a, b) => {
                let conj = matches!(e, PbesExpr::And(..)) != neg;
                Rhs::Junction(conj, vec![self.rhs(a, s, neg)?, self.rhs(b, s, neg)?])
            }
            PbesExpr::Imp(a, b) => {
                Rhs::Junction(neg, vec![self.rhs(a, s, !neg)?, self.rhs(b, s, neg)?])
            }
            PbesExpr::Forall(vs, a) | PbesExpr::Exists(vs, a) => {
                let conj = matches!(e, PbesExpr::Forall(..)) != neg;
                // All combinations of values of the bound variables.
                let mut combos: Vec<Vec<TermId>> = vec![Vec::new()];
                for v in vs {
                    let values = self.rw.sort_values(&v.sort, 10_000).map_err(|e| {
                        InstError::Quantifier {
                            equation: self.name(),
                            var: v.name.clone(),
                            sort: show_sort(&v.sort),
                            reason: e.to_string(),
                        }
                    })?;
                    combos = (combos.iter())
                        .flat_map(|c| values.iter().map(move |x| [c.as_slice(), &[*x]].concat()))
                        .collect();
                }
                let ids: Vec<_> = vs.iter().map(|v| self.rw.store().intern_var(v)).collect();
                let mut ops = Vec::new();
                for c in combos {
                    let mut inner = s.clone();
                    inner.extend(ids.iter().copied().zip(c));
                    ops.push(self.rhs(a, &mut inner, neg)?);
                }
                Rhs::Junction(conj, ops)
            }
            PbesExpr::PropVar(_) if neg => return Err(InstError::NotPositive(self.name())),
            PbesExpr::PropVar(x) => Rhs::Var(self.instance(x, s)?),
        })
    }
}
