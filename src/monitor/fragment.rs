//! The fragment checked on the fly: a formula becomes a list of conjuncts `[R] φ` with `R` a
//! regular formula and `φ` *local* (its value in a state depends only on the state's
//! outgoing labels); anything else is refused with the construct and the reason.

use crate::modal::ir::{ActionFormula, RegFormula, StateFormula};

/// One conjunct `[reg] phi` of a formula in the fragment.
#[derive(Clone, Debug, PartialEq)]
pub struct Conjunct {
    /// The regular formula (`nil` for a `φ` at the top).
    pub reg: RegFormula,
    /// The local formula that must hold after every path `reg` matches.
    pub phi: StateFormula,
}

/// Why a formula is outside the fragment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A fixpoint (`mu`/`nu`) or a fixpoint variable.
    Fixpoint,
    /// A diamond of a regular formula with more than one step, `<R>φ`.
    RegularDiamond,
    /// A modality whose body is not data-only where the modality is not a box the
    /// decomposition can go through (`[a]<b>true` under a disjunction, negation, quantifier).
    DeepModality,
    /// A quantifier around a regular box (its variable would have to be carried along the
    /// path).
    QuantifiedBox,
    /// A disjunction, negation or implication around a regular box.
    BoxUnderConnective,
}

impl Refusal {
    /// The reason, for messages.
    pub fn text(self) -> &'static str {
        match self {
            Refusal::Fixpoint => {
                "a fixpoint (`mu`/`nu`): only regular safety formulas `[R] φ` are checked while exploring"
            }
            Refusal::RegularDiamond => {
                "a diamond `<R>` of a regular formula: it asks for a path to exist, which is not a safety property"
            }
            Refusal::DeepModality => {
                "a modality whose body is not data-only: after `[R]`, φ may look one step ahead only (`[a] val(..)`, `<a> true`)"
            }
            Refusal::QuantifiedBox => {
                "a quantifier around a regular box `[R]`: its variable would have to be carried along the path"
            }
            Refusal::BoxUnderConnective => {
                "a disjunction, negation or implication around a regular box `[R]`: only conjunctions of boxes are checked"
            }
        }
    }
}

/// The conjuncts of `f`, or why `f` is outside the fragment (with the offending
/// subformula).
pub fn conjuncts(f: &StateFormula) -> Result<Vec<Conjunct>, (Refusal, StateFormula)> {
    let mut out = Vec::new();
    decompose(f, RegFormula::Nil, &mut out)?;
    Ok(out)
}

fn seq(prefix: RegFormula, r: &RegFormula) -> RegFormula {
    match prefix {
        RegFormula::Nil => r.clone(),
        p => RegFormula::Seq(Box::new(p), Box::new(r.clone())),
    }
}

fn decompose(
    f: &StateFormula,
    prefix: RegFormula,
    out: &mut Vec<Conjunct>,
) -> Result<(), (Refusal, StateFormula)> {
    use StateFormula as S;
    if local(f).is_ok() {
        out.push(Conjunct {
            reg: prefix,
            phi: f.clone(),
        });
        return Ok(());
    }
    match f {
        S::And(a, b) => {
            decompose(a, prefix.clone(), out)?;
            decompose(b, prefix, out)
        }
        S::Must(r, g) => decompose(g, seq(prefix, r), out),
        _ => Err(local(f).expect_err("not local")),
    }
}

/// `Ok` when `f` is local: a Boolean combination (quantifiers included) of `true`,
/// `false`, `val(..)` and one-step modalities `[α]ψ`/`<α>ψ` with `ψ` data-only; else the
/// first construct that is not, with the reason.
pub fn local(f: &StateFormula) -> Result<(), (Refusal, StateFormula)> {
    use StateFormula as S;
    match f {
        S::True | S::False | S::Val(_) => Ok(()),
        S::Not(a) | S::Forall(_, a) | S::Exists(_, a) => local(a),
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => local(a).and_then(|()| local(b)),
        S::Must(RegFormula::Action(_), a) | S::May(RegFormula::Action(_), a) => {
            if data_only(a) {
                Ok(())
            } else if has_fixpoint(a) {
                Err((Refusal::Fixpoint, f.clone()))
            } else {
                Err((Refusal::DeepModality, f.clone()))
            }
        }
        S::Must(..) => Err((Refusal::BoxUnderConnective, f.clone())),
        S::May(..) => Err((Refusal::RegularDiamond, f.clone())),
        S::Mu(..) | S::Nu(..) | S::Var { .. } => Err((Refusal::Fixpoint, f.clone())),
    }
    .map_err(|(r, g)| {
        // A box under a quantifier is refused as such, not as the box itself.
        let quantified = matches!(f, S::Forall(..) | S::Exists(..));
        if r == Refusal::BoxUnderConnective && quantified && is_box(&g) {
            (Refusal::QuantifiedBox, f.clone())
        } else {
            (r, g)
        }
    })
}

fn is_box(f: &StateFormula) -> bool {
    matches!(f, StateFormula::Must(..))
}

/// Whether `f` has no modality and no fixpoint.
pub fn data_only(f: &StateFormula) -> bool {
    use StateFormula as S;
    match f {
        S::True | S::False | S::Val(_) => true,
        S::Not(a) | S::Forall(_, a) | S::Exists(_, a) => data_only(a),
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => data_only(a) && data_only(b),
        _ => false,
    }
}

fn has_fixpoint(f: &StateFormula) -> bool {
    use StateFormula as S;
    match f {
        S::Mu(..) | S::Nu(..) | S::Var { .. } => true,
        S::Not(a) | S::Forall(_, a) | S::Exists(_, a) | S::May(_, a) | S::Must(_, a) => {
            has_fixpoint(a)
        }
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => has_fixpoint(a) || has_fixpoint(b),
        _ => false,
    }
}

/// Whether some quantifier of `f` encloses a modality (then `φ`'s value depends on the
/// labels' data jointly, not on each modality alone).
pub fn quantifier_over_modality(f: &StateFormula) -> bool {
    use StateFormula as S;
    match f {
        S::Forall(_, a) | S::Exists(_, a) => !data_only(a),
        S::Not(a) | S::Must(_, a) | S::May(_, a) => quantifier_over_modality(a),
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => {
            quantifier_over_modality(a) || quantifier_over_modality(b)
        }
        _ => false,
    }
}

/// Calls `f` on the action formula of every modality of the local formula `phi`.
pub fn modality_actions<'f>(phi: &'f StateFormula, f: &mut dyn FnMut(&'f ActionFormula)) {
    use StateFormula as S;
    match phi {
        S::Must(RegFormula::Action(a), b) | S::May(RegFormula::Action(a), b) => {
            f(a);
            modality_actions(b, f)
        }
        S::Not(a) | S::Forall(_, a) | S::Exists(_, a) | S::Must(_, a) | S::May(_, a) => {
            modality_actions(a, f)
        }
        S::And(a, b) | S::Or(a, b) | S::Imp(a, b) => {
            modality_actions(a, f);
            modality_actions(b, f)
        }
        _ => {}
    }
}
