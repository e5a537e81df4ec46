//! Formula preprocessing for PBES generation: regular modalities become fixpoints, negations
//! and implications are pushed down to data and action formulas, fixpoint variables are
//! renamed apart, and every fixpoint variable is checked to occur positively.
//!
//! The result is in *positive normal form*: no `Not` or `Imp` at state-formula level, every
//! modality has a single-step regular formula `RegFormula::Action(α)`, fixpoint variable
//! names are unique and distinct from the names of the input's free fixpoint variables.

use std::collections::HashSet;

use miette::Diagnostic;
use thiserror::Error;

use crate::data::ir::{DataExpr, Func, Name, Sort, Var};
use crate::data::ir_ops::{fresh_name, substitute, Subst};
use crate::modal::ir::{ActionFormula, FixpointVar, RegFormula, StateFormula};
use crate::process::ir::Action;

/// Why a formula cannot be brought into positive normal form.
#[derive(Debug, Error, Diagnostic, PartialEq, Eq)]
pub enum PreprocessError {
    /// A fixpoint variable occurs under an odd number of negations.
    #[error("fixpoint variable `{name}` occurs negatively (under an odd number of negations or on the left of `=>`)")]
    #[diagnostic(
        code(muon::modal::not_monotone),
        help("a μ-calculus formula is only meaningful when every occurrence of a fixpoint variable is positive")
    )]
    NotMonotone {
        /// The variable as written.
        name: Name,
    },
    /// A fixpoint variable occurrence without an enclosing binder.
    #[error("fixpoint variable `{name}` is not bound by an enclosing `mu` or `nu`")]
    #[diagnostic(code(muon::modal::unbound))]
    Unbound {
        /// The variable as written.
        name: Name,
    },
}

/// Brings `f` into positive normal form (see the module docs).
pub fn preprocess(f: &StateFormula) -> Result<StateFormula, PreprocessError> {
    let mut names = NameSupply::default();
    collect_names(f, &mut names.used);
    // Renaming apart follows the regular translation: `[R1 + R2]φ` becomes
    // `[R1]φ && [R2]φ`, whose two copies of a fixpoint in φ must become two equations.
    let regular_free = translate_regular(f, &mut names);
    let regular_free = rename_apart(&regular_free, &mut Vec::new(), &mut names)?;
    let mut flipped = Vec::new();
    nnf(&regular_free, false, &mut flipped)
}

/// Fresh fixpoint variable names, avoiding every name seen so far.
#[derive(Default)]
struct NameSupply {
    /// Every fixpoint variable name in the formula or handed out since.
    used: HashSet<Name>,
    /// Names already claimed by a binder (a later binder of the same name is renamed).
    bound: HashSet<Name>,
}

impl NameSupply {
    fn fresh(&mut self, base: &str) -> Name {
        let base = base.trim_end_matches(|c: char| c.is_ascii_digit());
        let base = if base.is_empty() { "X" } else { base };
        let mut i = 0usize;
        loop {
            let candidate: Name = if i == 0 {
                base.into()
            } else {
                format!("{base}{i}").into()
            };
            if self.used.insert(candidate.clone()) {
                return candidate;
            }
            i += 1;
        }
    }
}

fn collect_names(f: &StateFormula, used: &mut HashSet<Name>) {
    match f {
        StateFormula::Mu(v, b) | StateFormula::Nu(v, b) => {
            used.insert(v.name.clone());
            collect_names(b, used);
        }
        StateFormula::Var { name, .. } => {
            used.insert(name.clone());
        }
        _ => for_each_child(f, |c| collect_names(c, used)),
    }
}

fn for_each_child(f: &StateFormula, mut g: impl FnMut(&StateFormula)) {
    match f {
        StateFormula::Not(a)
        | StateFormula::Forall(_, a)
        | StateFormula::Exists(_, a)
        | StateFormula::Must(_, a)
        | StateFormula::May(_, a)
        | StateFormula::Mu(_, a)
        | StateFormula::Nu(_, a) => g(a),
        StateFormula::And(a, b) | StateFormula::Or(a, b) | StateFormula::Imp(a, b) => {
            g(a);
            g(b)
        }
        StateFormula::True
        | StateFormula::False
        | StateFormula::Var { .. }
        | StateFormula::Val(_) => {}
    }
}

/// Gives every fixpoint binder a name used by no other binder, renaming its occurrences.
fn rename_apart(
    f: &StateFormula,
    scope: &mut Vec<(Name, Name)>,
    names: &mut NameSupply,
) -> Result<StateFormula, PreprocessError> {
    use StateFormula as S;
    let mut rec = |a: &StateFormula, scope: &mut Vec<(Name, Name)>| {
        rename_apart(a, scope, names).map(Box::new)
    };
    Ok(match f {
        S::True => S::True,
        S::False => S::False,
        S::Val(e) => S::Val(e.clone()),
        S::Var { name, args } => {
            let new = scope
                .iter()
                .rev()
                .find(|(old, _)| old == name)
                .map(|(_, new)| new.clone())
                .ok_or_else(|| PreprocessError::Unbound { name: name.clone() })?;
            S::Var {
                name: new,
                args: args.clone(),
            }
        }
        S::Not(a) => S::Not(rec(a, scope)?),
        S::And(a, b) => S::And(rec(a, scope)?, rec(b, scope)?),
        S::Or(a, b) => S::Or(rec(a, scope)?, rec(b, scope)?),
        S::Imp(a, b) => S::Imp(rec(a, scope)?, rec(b, scope)?),
        S::Forall(v, a) => S::Forall(v.clone(), rec(a, scope)?),
        S::Exists(v, a) => S::Exists(v.clone(), rec(a, scope)?),
        S::Must(r, a) => S::Must(r.clone(), rec(a, scope)?),
        S::May(r, a) => S::May(r.clone(), rec(a, scope)?),
        S::Mu(v, a) | S::Nu(v, a) => {
            // The first binder of a name keeps it; later ones get a fresh name.
            let new = if names.bound.insert(v.name.clone()) {
                v.name.clone()
            } else {
                names.fresh(&v.name)
            };
            scope.push((v.name.clone(), new.clone()));
            let body = rename_apart(a, scope, names);
            scope.pop();
            let var = FixpointVar {
                name: new,
                params: v.params.clone(),
            };
            match f {
                S::Mu(..) => S::Mu(var, Box::new(body?)),
                _ => S::Nu(var, Box::new(body?)),
            }
        }
    })
}

/// Replaces every regular modality by single-step modalities and fixpoints.
fn translate_regular(f: &StateFormula, names: &mut NameSupply) -> StateFormula {
    use StateFormula as S;
    match f {
        S::Must(r, a) => {
            let body = translate_regular(a, names);
            must(r, body, names)
        }
        S::May(r, a) => {
            let body = translate_regular(a, names);
            may(r, body, names)
        }
        S::True | S::False | S::Val(_) | S::Var { .. } => f.clone(),
        S::Not(a) => S::Not(Box::new(translate_regular(a, names))),
        S::And(a, b) => S::And(
            Box::new(translate_regular(a, names)),
            Box::new(translate_regular(b, names)),
        ),
        S::Or(a, b) => S::Or(
            Box::new(translate_regular(a, names)),
            Box::new(translate_regular(b, names)),
        ),
        S::Imp(a, b) => S::Imp(
            Box::new(translate_regular(a, names)),
            Box::new(translate_regular(b, names)),
        ),
        S::Forall(v, a) => S::Forall(v.clone(), Box::new(translate_regular(a, names))),
        S::Exists(v, a) => S::Exists(v.clone(), Box::new(translate_regular(a, names))),
        S::Mu(v, a) => S::Mu(v.clone(), Box::new(translate_regular(a, names))),
        S::Nu(v, a) => S::Nu(v.clone(), Box::new(translate_regular(a, names))),
    }
}

/// `[r]body` with `r` translated: `[R1.R2]φ = [R1][R2]φ`, `[R1+R2]φ = [R1]φ && [R2]φ`,
/// `[R*]φ = nu X. φ && [R]X`, `[R+]φ = [R][R*]φ`, `[nil]φ = φ`.
fn must(r: &RegFormula, body: StateFormula, names: &mut NameSupply) -> StateFormula {
    use StateFormula as S;
    match r {
        RegFormula::Action(a) => S::Must(RegFormula::Action(a.clone()), Box::new(body)),
        RegFormula::Nil => body,
        RegFormula::Seq(r1, r2) => {
            let inner = must(r2, body, names);
            must(r1, inner, names)
        }
        RegFormula::Alt(r1, r2) => {
            let left = must(r1, body.clone(), names);
            let right = must(r2, body, names);
            S::And(Box::new(left), Box::new(right))
        }
        RegFormula::Star(r1) => {
            let x = names.fresh("X");
            let step = must(r1, var(&x), names);
            S::Nu(fix(&x), Box::new(S::And(Box::new(body), Box::new(step))))
        }
        RegFormula::Plus(r1) => {
            let star = must(&RegFormula::Star(r1.clone()), body, names);
            must(r1, star, names)
        }
    }
}

/// `<r>body`, dual to [`must`]: `<R*>φ = mu X. φ || <R>X`.
fn may(r: &RegFormula, body: StateFormula, names: &mut NameSupply) -> StateFormula {
    use StateFormula as S;
    match r {
        RegFormula::Action(a) => S::May(RegFormula::Action(a.clone()), Box::new(body)),
        RegFormula::Nil => body,
        RegFormula::Seq(r1, r2) => {
            let inner = may(r2, body, names);
            may(r1, inner, names)
        }
        RegFormula::Alt(r1, r2) => {
            let left = may(r1, body.clone(), names);
            let right = may(r2, body, names);
            S::Or(Box::new(left), Box::new(right))
        }
        RegFormula::Star(r1) => {
            let x = names.fresh("X");
            let step = may(r1, var(&x), names);
            S::Mu(fix(&x), Box::new(S::Or(Box::new(body), Box::new(step))))
        }
        RegFormula::Plus(r1) => {
            let star = may(&RegFormula::Star(r1.clone()), body, names);
            may(r1, star, names)
        }
    }
}

fn var(name: &Name) -> StateFormula {
    StateFormula::Var {
        name: name.clone(),
        args: Vec::new(),
    }
}

fn fix(name: &Name) -> FixpointVar {
    FixpointVar {
        name: name.clone(),
        params: Vec::new(),
    }
}

/// The Boolean negation `!b` of a data expression.
fn data_not(b: &DataExpr) -> DataExpr {
    if let DataExpr::App { head, args } = b {
        if let DataExpr::Func(f) = head.as_ref() {
            if &*f.name == "!"
                && args.len() == 1
                && f.sort == Sort::Arrow(vec![Sort::Bool], Box::new(Sort::Bool))
            {
                return args[0].clone();
            }
        }
    }
    DataExpr::App {
        head: Box::new(DataExpr::Func(Func {
            name: "!".into(),
            sort: Sort::Arrow(vec![Sort::Bool], Box::new(Sort::Bool)),
        })),
        args: vec![b.clone()],
    }
}

/// Negation normal form of `f` (of `!f` when `neg`). `flipped` records, for each enclosing
/// binder, whether its occurrences stand for the negated variable (a binder under negation is
/// dualised: `!mu X.φ = nu X.!φ[X := !X]`). An occurrence that ends up negated is exactly a
/// non-monotone one.
fn nnf(
    f: &StateFormula,
    neg: bool,
    flipped: &mut Vec<(Name, bool)>,
) -> Result<StateFormula, PreprocessError> {
    use StateFormula as S;
    let b = Box::new;
    Ok(match f {
        S::True => {
            if neg {
                S::False
            } else {
                S::True
            }
        }
        S::False => {
            if neg {
                S::True
            } else {
                S::False
            }
        }
        S::Val(e) => S::Val(if neg { data_not(e) } else { e.clone() }),
        S::Var { name, .. } => {
            let flip = flipped
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, fl)| *fl)
                .ok_or_else(|| PreprocessError::Unbound { name: name.clone() })?;
            if neg != flip {
                return Err(PreprocessError::NotMonotone { name: name.clone() });
            }
            f.clone()
        }
        S::Not(a) => nnf(a, !neg, flipped)?,
        S::And(x, y) => {
            let (x, y) = (b(nnf(x, neg, flipped)?), b(nnf(y, neg, flipped)?));
            if neg {
                S::Or(x, y)
            } else {
                S::And(x, y)
            }
        }
        S::Or(x, y) => {
            let (x, y) = (b(nnf(x, neg, flipped)?), b(nnf(y, neg, flipped)?));
            if neg {
                S::And(x, y)
            } else {
                S::Or(x, y)
            }
        }
        S::Imp(x, y) => {
            let (x, y) = (b(nnf(x, !neg, flipped)?), b(nnf(y, neg, flipped)?));
            if neg {
                S::And(x, y)
            } else {
                S::Or(x, y)
            }
        }
        S::Forall(v, a) => {
            let a = b(nnf(a, neg, flipped)?);
            if neg {
                S::Exists(v.clone(), a)
            } else {
                S::Forall(v.clone(), a)
            }
        }
        S::Exists(v, a) => {
            let a = b(nnf(a, neg, flipped)?);
            if neg {
                S::Forall(v.clone(), a)
            } else {
                S::Exists(v.clone(), a)
            }
        }
        S::Must(r, a) => {
            let a = b(nnf(a, neg, flipped)?);
            if neg {
                S::May(r.clone(), a)
            } else {
                S::Must(r.clone(), a)
            }
        }
        S::May(r, a) => {
            let a = b(nnf(a, neg, flipped)?);
            if neg {
                S::Must(r.clone(), a)
            } else {
                S::May(r.clone(), a)
            }
        }
        S::Mu(v, a) | S::Nu(v, a) => {
            flipped.push((v.name.clone(), neg));
            let body = nnf(a, neg, flipped);
            flipped.pop();
            let body = b(body?);
            let is_mu = matches!(f, S::Mu(..));
            if is_mu != neg {
                S::Mu(v.clone(), body)
            } else {
                S::Nu(v.clone(), body)
            }
        }
    })
}

/// Renames every data variable bound in `f` — by a state-formula quantifier, an
/// action-formula quantifier or a fixpoint parameter — apart from each other and from the
/// names in `avoid` (process parameters, sum variables, globals), so that PBES generation
/// can substitute next-state expressions and introduce sum variables without capture.
/// Free variables of `f` keep their names.
pub fn rename_data_apart(f: &StateFormula, avoid: &HashSet<Name>) -> StateFormula {
    let mut used: HashSet<Name> = avoid.clone();
    let mut r = DataRenamer {
        used: &mut used,
        seen: HashSet::new(),
    };
    r.state(f, &Subst::new())
}

struct DataRenamer<'a> {
    /// Names that a binder may not take: `avoid` and every binder's name so far.
    used: &'a mut HashSet<Name>,
    /// Binder names already given out (a second binder of the same name is renamed).
    seen: HashSet<Name>,
}

impl DataRenamer<'_> {
    /// Renames binder variables `vars`, extending `sigma` with the renamings.
    fn bind(&mut self, vars: &[Var], sigma: &Subst) -> (Vec<Var>, Subst) {
        let mut inner = sigma.clone();
        let mut out = Vec::with_capacity(vars.len());
        for v in vars {
            let name = if !self.used.contains(&v.name) && self.seen.insert(v.name.clone()) {
                self.used.insert(v.name.clone());
                v.name.clone()
            } else {
                let n = fresh_name(&v.name, self.used);
                self.seen.insert(n.clone());
                n
            };
            let nv = Var {
                name,
                sort: v.sort.clone(),
            };
            if nv != *v {
                inner.insert(v.clone(), DataExpr::Var(nv.clone()));
            } else {
                inner.remove(v);
            }
            out.push(nv);
        }
        (out, inner)
    }

    fn state(&mut self, f: &StateFormula, sigma: &Subst) -> StateFormula {
        use StateFormula as S;
        let b = Box::new;
        match f {
            S::True => S::True,
            S::False => S::False,
            S::Val(e) => S::Val(substitute(e, sigma)),
            S::Var { name, args } => S::Var {
                name: name.clone(),
                args: args.iter().map(|a| substitute(a, sigma)).collect(),
            },
            S::Not(a) => S::Not(b(self.state(a, sigma))),
            S::And(x, y) => S::And(b(self.state(x, sigma)), b(self.state(y, sigma))),
            S::Or(x, y) => S::Or(b(self.state(x, sigma)), b(self.state(y, sigma))),
            S::Imp(x, y) => S::Imp(b(self.state(x, sigma)), b(self.state(y, sigma))),
            S::Forall(vs, a) | S::Exists(vs, a) => {
                let (vs, inner) = self.bind(vs, sigma);
                let body = b(self.state(a, &inner));
                if matches!(f, S::Forall(..)) {
                    S::Forall(vs, body)
                } else {
                    S::Exists(vs, body)
                }
            }
            S::Must(r, a) => S::Must(self.reg(r, sigma), b(self.state(a, sigma))),
            S::May(r, a) => S::May(self.reg(r, sigma), b(self.state(a, sigma))),
            S::Mu(v, a) | S::Nu(v, a) => {
                // Initial values are evaluated outside the binder.
                let inits: Vec<DataExpr> =
                    v.params.iter().map(|(_, e)| substitute(e, sigma)).collect();
                let vars: Vec<Var> = v.params.iter().map(|(p, _)| p.clone()).collect();
                let (vars, inner) = self.bind(&vars, sigma);
                let var = FixpointVar {
                    name: v.name.clone(),
                    params: vars.into_iter().zip(inits).collect(),
                };
                let body = b(self.state(a, &inner));
                if matches!(f, S::Mu(..)) {
                    S::Mu(var, body)
                } else {
                    S::Nu(var, body)
                }
            }
        }
    }

    fn reg(&mut self, r: &RegFormula, sigma: &Subst) -> RegFormula {
        use RegFormula as R;
        let b = Box::new;
        match r {
            R::Action(a) => R::Action(self.action(a, sigma)),
            R::Nil => R::Nil,
            R::Seq(x, y) => R::Seq(b(self.reg(x, sigma)), b(self.reg(y, sigma))),
            R::Alt(x, y) => R::Alt(b(self.reg(x, sigma)), b(self.reg(y, sigma))),
            R::Star(x) => R::Star(b(self.reg(x, sigma))),
            R::Plus(x) => R::Plus(b(self.reg(x, sigma))),
        }
    }

    fn action(&mut self, a: &ActionFormula, sigma: &Subst) -> ActionFormula {
        use ActionFormula as A;
        let b = Box::new;
        match a {
            A::True => A::True,
            A::False => A::False,
            A::Val(e) => A::Val(substitute(e, sigma)),
            A::MultiAction(acts) => A::MultiAction(
                acts.iter()
                    .map(|x| Action {
                        name: x.name.clone(),
                        sorts: x.sorts.clone(),
                        args: x.args.iter().map(|e| substitute(e, sigma)).collect(),
                    })
                    .collect(),
            ),
            A::Not(x) => A::Not(b(self.action(x, sigma))),
            A::And(x, y) => A::And(b(self.action(x, sigma)), b(self.action(y, sigma))),
            A::Or(x, y) => A::Or(b(self.action(x, sigma)), b(self.action(y, sigma))),
            A::Imp(x, y) => A::Imp(b(self.action(x, sigma)), b(self.action(y, sigma))),
            A::Forall(vs, x) | A::Exists(vs, x) => {
                let (vs, inner) = self.bind(vs, sigma);
                let body = b(self.action(x, &inner));
                if matches!(a, A::Forall(..)) {
                    A::Forall(vs, body)
                } else {
                    A::Exists(vs, body)
                }
            }
        }
    }
}

/// A formula as every checking route needs it: positive normal form ([`preprocess`]),
/// data binders renamed apart from `avoid`, and a fixpoint at the top.
pub fn normalise_formula(
    f: &StateFormula,
    avoid: HashSet<Name>,
) -> Result<StateFormula, PreprocessError> {
    let f = preprocess(f)?;
    let f = rename_data_apart(&f, &avoid);
    Ok(match f {
        StateFormula::Mu(..) | StateFormula::Nu(..) => f,
        other => {
            let mut used = HashSet::new();
            collect_fixpoint_names(&other, &mut used);
            let name = fresh_name("X", &mut used);
            StateFormula::Nu(
                FixpointVar {
                    name,
                    params: Vec::new(),
                },
                Box::new(other),
            )
        }
    })
}

/// Adds the name of every fixpoint variable of `f`, bound or free, to `used`.
pub fn collect_fixpoint_names(f: &StateFormula, used: &mut HashSet<Name>) {
    use StateFormula as S;
    match f {
        S::Mu(v, a) | S::Nu(v, a) => {
            used.insert(v.name.clone());
            collect_fixpoint_names(a, used);
        }
        S::Var { name, .. } => {
            used.insert(name.clone());
        }
        S::Not(a) | S::Forall(_, a) | S::Exists(_, a) | S::Must(_, a) | S::May(_, a) => {
            collect_fixpoint_names(a, used)
        }
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => {
            collect_fixpoint_names(a, used);
            collect_fixpoint_names(b, used);
        }
        S::True | S::False | S::Val(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn act(n: &str) -> ActionFormula {
        ActionFormula::MultiAction(vec![Action {
            name: n.into(),
            sorts: vec![],
            args: vec![],
        }])
    }
    fn step(n: &str) -> RegFormula {
        RegFormula::Action(act(n))
    }
    fn x(n: &str) -> StateFormula {
        var(&Name::from(n))
    }
    fn nu(n: &str, b: StateFormula) -> StateFormula {
        StateFormula::Nu(fix(&n.into()), Box::new(b))
    }
    fn mu(n: &str, b: StateFormula) -> StateFormula {
        StateFormula::Mu(fix(&n.into()), Box::new(b))
    }
    fn not(b: StateFormula) -> StateFormula {
        StateFormula::Not(Box::new(b))
    }
    fn and(a: StateFormula, b: StateFormula) -> StateFormula {
        StateFormula::And(Box::new(a), Box::new(b))
    }
    fn or(a: StateFormula, b: StateFormula) -> StateFormula {
        StateFormula::Or(Box::new(a), Box::new(b))
    }
    fn must_(r: RegFormula, b: StateFormula) -> StateFormula {
        StateFormula::Must(r, Box::new(b))
    }
    fn may_(r: RegFormula, b: StateFormula) -> StateFormula {
        StateFormula::May(r, Box::new(b))
    }

    #[test]
    fn box_star_becomes_greatest_fixpoint() {
        // [true* . error] false
        let f = must_(
            RegFormula::Seq(
                Box::new(RegFormula::Star(Box::new(RegFormula::Action(
                    ActionFormula::True,
                )))),
                Box::new(step("error")),
            ),
            StateFormula::False,
        );
        let expected = nu(
            "X",
            and(
                must_(step("error"), StateFormula::False),
                must_(RegFormula::Action(ActionFormula::True), x("X")),
            ),
        );
        assert_eq!(preprocess(&f).unwrap(), expected);
    }

    #[test]
    fn diamond_plus_and_alternatives() {
        // <(a + b)+> true = <a+b> mu X. true || <a+b> X, with alternatives split; the two
        // copies of the fixpoint get names of their own (each is one PBES equation).
        let ab = RegFormula::Alt(Box::new(step("a")), Box::new(step("b")));
        let f = may_(RegFormula::Plus(Box::new(ab)), StateFormula::True);
        let star = |name: &str| {
            mu(
                name,
                or(
                    StateFormula::True,
                    or(may_(step("a"), x(name)), may_(step("b"), x(name))),
                ),
            )
        };
        let expected = or(may_(step("a"), star("X")), may_(step("b"), star("X1")));
        assert_eq!(preprocess(&f).unwrap(), expected);
    }

    #[test]
    fn negation_dualises_fixpoints() {
        // !mu X. <a>X  ==  nu X. [a]X
        let f = not(mu("X", may_(step("a"), x("X"))));
        assert_eq!(preprocess(&f).unwrap(), nu("X", must_(step("a"), x("X"))));
        // !nu X. !X is not monotone; nu X. !!X is.
        assert_eq!(
            preprocess(&not(nu("X", not(x("X"))))),
            Err(PreprocessError::NotMonotone { name: "X".into() })
        );
        assert_eq!(
            preprocess(&nu("X", not(not(x("X"))))).unwrap(),
            nu("X", x("X"))
        );
        // X => false under nu X is negative.
        let imp = StateFormula::Imp(Box::new(x("X")), Box::new(StateFormula::False));
        assert!(matches!(
            preprocess(&nu("X", imp)),
            Err(PreprocessError::NotMonotone { .. })
        ));
    }

    #[test]
    fn binders_are_renamed_apart() {
        // nu X. ([a]X && mu X. <b>X)  ->  the inner X gets a fresh name.
        let f = nu(
            "X",
            and(must_(step("a"), x("X")), mu("X", may_(step("b"), x("X")))),
        );
        let got = preprocess(&f).unwrap();
        let expected = nu(
            "X",
            and(must_(step("a"), x("X")), mu("X1", may_(step("b"), x("X1")))),
        );
        assert_eq!(got, expected);
        // A star inside a formula that already uses X gets a fresh variable.
        let g = nu("X", must_(RegFormula::Star(Box::new(step("a"))), x("X")));
        let got = preprocess(&g).unwrap();
        let expected = nu("X", nu("X1", and(x("X"), must_(step("a"), x("X1")))));
        assert_eq!(got, expected);
    }

    #[test]
    fn unbound_variable_is_reported() {
        assert_eq!(
            preprocess(&must_(step("a"), x("Y"))),
            Err(PreprocessError::Unbound { name: "Y".into() })
        );
    }

    #[test]
    fn val_is_negated_in_data() {
        let b = DataExpr::Var(crate::data::ir::Var {
            name: "b".into(),
            sort: Sort::Bool,
        });
        let f = not(StateFormula::Val(b.clone()));
        let StateFormula::Val(nb) = preprocess(&f).unwrap() else {
            panic!("expected val")
        };
        assert_eq!(data_not(&nb), b);
    }

    #[test]
    fn data_binders_are_renamed_apart_from_each_other_and_the_process() {
        // forall n: Nat . [a(n)] exists n: Nat . val(n == n), with `n` a process parameter.
        let n = crate::data::ir::Var {
            name: "n".into(),
            sort: Sort::Nat,
        };
        let nv = DataExpr::Var(n.clone());
        let eq = |a: DataExpr, b: DataExpr| DataExpr::App {
            head: Box::new(DataExpr::Func(Func {
                name: "==".into(),
                sort: Sort::Arrow(vec![Sort::Nat, Sort::Nat], Box::new(Sort::Bool)),
            })),
            args: vec![a, b],
        };
        let a_n = ActionFormula::MultiAction(vec![Action {
            name: "a".into(),
            sorts: vec![Sort::Nat],
            args: vec![nv.clone()],
        }]);
        let f = StateFormula::Forall(
            vec![n.clone()],
            Box::new(must_(
                RegFormula::Action(a_n),
                StateFormula::Exists(
                    vec![n.clone()],
                    Box::new(StateFormula::Val(eq(nv.clone(), nv.clone()))),
                ),
            )),
        );
        let avoid: HashSet<Name> = ["n".into()].into_iter().collect();
        let StateFormula::Forall(v1, body) = rename_data_apart(&f, &avoid) else {
            panic!("forall expected")
        };
        let StateFormula::Must(RegFormula::Action(ActionFormula::MultiAction(acts)), inner) = *body
        else {
            panic!("box expected")
        };
        let StateFormula::Exists(v2, val) = *inner else {
            panic!("exists expected")
        };
        assert_ne!(v1[0].name, n.name);
        assert_ne!(v2[0].name, n.name);
        assert_ne!(v1[0].name, v2[0].name);
        assert_eq!(acts[0].args[0], DataExpr::Var(v1[0].clone()));
        let v2e = DataExpr::Var(v2[0].clone());
        assert_eq!(*val, StateFormula::Val(eq(v2e.clone(), v2e)));
    }
}
