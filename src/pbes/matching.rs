//! Shared pieces of PBES generation: whether a multi-action satisfies an action formula
//! (mCRL2's `sat_top`), free data variables of formulas, and PBES expression builders that
//! simplify `true`/`false` on the fly.

use crate::data::ir::{DataExpr, Func, Sort, Var};
use crate::data::ir_ops::{free_vars_outside_into, is_false, is_true};
use crate::modal::ir::{ActionFormula, StateFormula};
use crate::pbes::ir::PbesExpr;
use crate::process::ir::Action;

/// `a && b`, simplified when either side is a constant.
pub fn and(a: PbesExpr, b: PbesExpr) -> PbesExpr {
    match (a, b) {
        (PbesExpr::False, _) | (_, PbesExpr::False) => PbesExpr::False,
        (PbesExpr::True, x) | (x, PbesExpr::True) => x,
        (a, b) => PbesExpr::And(Box::new(a), Box::new(b)),
    }
}

/// `a || b`, simplified when either side is a constant.
pub fn or(a: PbesExpr, b: PbesExpr) -> PbesExpr {
    match (a, b) {
        (PbesExpr::True, _) | (_, PbesExpr::True) => PbesExpr::True,
        (PbesExpr::False, x) | (x, PbesExpr::False) => x,
        (a, b) => PbesExpr::Or(Box::new(a), Box::new(b)),
    }
}

/// `a => b`, simplified when either side is a constant.
pub fn imp(a: PbesExpr, b: PbesExpr) -> PbesExpr {
    match (a, b) {
        (PbesExpr::False, _) | (_, PbesExpr::True) => PbesExpr::True,
        (PbesExpr::True, x) => x,
        (a, PbesExpr::False) => negate(&a),
        (a, b) => PbesExpr::Imp(Box::new(a), Box::new(b)),
    }
}

/// A data expression as a PBES expression (`true`/`false` literals become constants).
pub fn data(e: DataExpr) -> PbesExpr {
    if is_true(&e) {
        PbesExpr::True
    } else if is_false(&e) {
        PbesExpr::False
    } else {
        PbesExpr::Data(e)
    }
}

/// Quantifies `body` over those of `vars` that occur free in it (unused variables of a
/// non-empty sort change nothing).
pub fn quantify(forall: bool, vars: &[Var], body: PbesExpr) -> PbesExpr {
    if matches!(body, PbesExpr::True | PbesExpr::False) {
        return body;
    }
    let mut fv = Vec::new();
    pbes_free_vars_into(&body, &mut Vec::new(), &mut fv);
    let used: Vec<Var> = vars.iter().filter(|v| fv.contains(v)).cloned().collect();
    if used.is_empty() {
        body
    } else if forall {
        PbesExpr::Forall(used, Box::new(body))
    } else {
        PbesExpr::Exists(used, Box::new(body))
    }
}

/// The negation of a PBES expression without propositional variables, pushed down to data.
pub fn negate(e: &PbesExpr) -> PbesExpr {
    match e {
        PbesExpr::True => PbesExpr::False,
        PbesExpr::False => PbesExpr::True,
        PbesExpr::Data(d) => data(data_not(d)),
        PbesExpr::Not(a) => (**a).clone(),
        PbesExpr::And(a, b) => or(negate(a), negate(b)),
        PbesExpr::Or(a, b) => and(negate(a), negate(b)),
        PbesExpr::Imp(a, b) => and((**a).clone(), negate(b)),
        PbesExpr::Forall(v, a) => PbesExpr::Exists(v.clone(), Box::new(negate(a))),
        PbesExpr::Exists(v, a) => PbesExpr::Forall(v.clone(), Box::new(negate(a))),
        PbesExpr::PropVar(_) => PbesExpr::Not(Box::new(e.clone())),
    }
}

fn bool_fn(name: &str, arity: usize) -> DataExpr {
    DataExpr::Func(Func {
        name: name.into(),
        sort: Sort::Arrow(vec![Sort::Bool; arity], Box::new(Sort::Bool)),
    })
}

/// `!d` on data, removing a double negation.
pub fn data_not(d: &DataExpr) -> DataExpr {
    if is_true(d) {
        return crate::data::ir_ops::false_();
    }
    if is_false(d) {
        return crate::data::ir_ops::true_();
    }
    if let DataExpr::App { head, args } = d {
        if let DataExpr::Func(f) = head.as_ref() {
            if &*f.name == "!" && args.len() == 1 {
                return args[0].clone();
            }
        }
    }
    DataExpr::App {
        head: Box::new(bool_fn("!", 1)),
        args: vec![d.clone()],
    }
}

/// `a == b` on data of the same sort; `true` when syntactically equal.
pub fn data_eq(a: &DataExpr, b: &DataExpr) -> PbesExpr {
    if a == b {
        return PbesExpr::True;
    }
    let s = a.sort();
    PbesExpr::Data(DataExpr::App {
        head: Box::new(DataExpr::Func(Func {
            name: "==".into(),
            sort: Sort::Arrow(vec![s.clone(), s], Box::new(Sort::Bool)),
        })),
        args: vec![a.clone(), b.clone()],
    })
}

/// Whether the multi-action `acts` (of a summand or transition; empty = `tau`) satisfies
/// the action formula `alpha`, as a PBES expression over the data in both; `positive =
/// false` gives the negation. Multi-actions are compared as multisets: same action names
/// and sorts, and equal arguments under some pairing of equally named actions.
pub fn sat(acts: &[Action], alpha: &ActionFormula, positive: bool) -> PbesExpr {
    use ActionFormula as A;
    let konst = |b: bool| if b { PbesExpr::True } else { PbesExpr::False };
    match alpha {
        A::True => konst(positive),
        A::False => konst(!positive),
        A::Not(x) => sat(acts, x, !positive),
        A::And(x, y) => {
            let (x, y) = (sat(acts, x, positive), sat(acts, y, positive));
            if positive {
                and(x, y)
            } else {
                or(x, y)
            }
        }
        A::Or(x, y) => {
            let (x, y) = (sat(acts, x, positive), sat(acts, y, positive));
            if positive {
                or(x, y)
            } else {
                and(x, y)
            }
        }
        A::Imp(x, y) => {
            let (x, y) = (sat(acts, x, !positive), sat(acts, y, positive));
            if positive {
                or(x, y)
            } else {
                and(x, y)
            }
        }
        A::Forall(vs, x) | A::Exists(vs, x) => {
            let body = sat(acts, x, positive);
            let forall = matches!(alpha, A::Forall(..)) == positive;
            quantify(forall, vs, body)
        }
        A::Val(d) => {
            if positive {
                data(d.clone())
            } else {
                data(data_not(d))
            }
        }
        A::MultiAction(b) => {
            let m = equal_multi_actions(acts, b);
            if positive {
                m
            } else {
                negate(&m)
            }
        }
    }
}

/// The condition under which multi-actions `a` and `b` are equal.
pub fn equal_multi_actions(a: &[Action], b: &[Action]) -> PbesExpr {
    if a.len() != b.len() {
        return PbesExpr::False;
    }
    let key = |x: &Action| (x.name.clone(), x.sorts.clone());
    let mut ka: Vec<_> = a.iter().map(key).collect();
    let mut kb: Vec<_> = b.iter().map(key).collect();
    ka.sort();
    kb.sort();
    if ka != kb {
        return PbesExpr::False;
    }
    // Pair each action of `a` with an unused action of `b` of the same name and sorts;
    // the disjunction over all pairings (equally named actions are rare and few).
    fn go(a: &[Action], b: &[Action], used: &mut Vec<bool>) -> PbesExpr {
        let Some((first, rest)) = a.split_first() else {
            return PbesExpr::True;
        };
        let mut result = PbesExpr::False;
        for (j, y) in b.iter().enumerate() {
            if used[j] || y.name != first.name || y.sorts != first.sorts {
                continue;
            }
            let mut cond = PbesExpr::True;
            for (p, q) in first.args.iter().zip(&y.args) {
                cond = and(cond, data_eq(p, q));
            }
            if matches!(cond, PbesExpr::False) {
                continue;
            }
            used[j] = true;
            let tail = go(rest, b, used);
            used[j] = false;
            result = or(result, and(cond, tail));
            if matches!(result, PbesExpr::True) {
                break;
            }
        }
        result
    }
    go(a, b, &mut vec![false; b.len()])
}

/// Adds the free data variables of a PBES expression to `out`.
pub fn pbes_free_vars_into(e: &PbesExpr, bound: &mut Vec<Var>, out: &mut Vec<Var>) {
    let add = free_vars_outside_into;
    match e {
        PbesExpr::True | PbesExpr::False => {}
        PbesExpr::Data(d) => add(d, bound, out),
        PbesExpr::Not(a) => pbes_free_vars_into(a, bound, out),
        PbesExpr::And(a, b) | PbesExpr::Or(a, b) | PbesExpr::Imp(a, b) => {
            pbes_free_vars_into(a, bound, out);
            pbes_free_vars_into(b, bound, out);
        }
        PbesExpr::Forall(vs, a) | PbesExpr::Exists(vs, a) => {
            let n = bound.len();
            bound.extend(vs.iter().cloned());
            pbes_free_vars_into(a, bound, out);
            bound.truncate(n);
        }
        PbesExpr::PropVar(x) => {
            for d in &x.args {
                add(d, bound, out);
            }
        }
    }
}

/// The names of the fixpoint variables that occur in `f`.
pub fn prop_var_names(f: &StateFormula, out: &mut Vec<crate::source::Name>) {
    use StateFormula as S;
    match f {
        S::True | S::False | S::Val(_) => {}
        S::Var { name, .. } => {
            if !out.contains(name) {
                out.push(name.clone());
            }
        }
        S::Not(a) | S::Forall(_, a) | S::Exists(_, a) | S::Must(_, a) | S::May(_, a) => {
            prop_var_names(a, out)
        }
        S::Mu(_, a) | S::Nu(_, a) => prop_var_names(a, out),
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => {
            prop_var_names(a, out);
            prop_var_names(b, out);
        }
    }
}
