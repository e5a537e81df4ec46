//! Which formulas a bisimulation quotient answers correctly (`muon check --reduce`). It
//! lives with the formulas, not with the reductions: it reads formulas only, and the
//! partitioners know none.
//!
//! Strong bisimulation preserves every formula of the modal mu-calculus. Branching
//! bisimulation (and so its divergence-preserving variant, which is finer) preserves the
//! formulas accepted by [`check_preserved`], a syntactic fragment in which no modality can
//! observe a tau step:
//!
//! - A regular formula is *tau-closed* when its language is closed under inserting and
//!   deleting taus anywhere: `true*`, `α*` with `α` matching tau (such as `(!a)*`), and
//!   sequences and choices of tau-closed formulas. `<R>φ`/`[R]φ` with `R` tau-closed is
//!   preserved when `φ` is: two branching-bisimilar states reach related states by paths of
//!   the same visible trace.
//! - A regular formula is *visible-ended* when it is a tau-closed formula (or a
//!   visible-ended one) followed by one step of visible actions (an action formula that no
//!   tau matches, such as `decide(p, v)`), or by more visible-ended formulas: `true*. a`,
//!   `true*. a . true*. b`. Branching bisimulation matches a visible step after inert taus
//!   with a related target, so these modalities are preserved too.
//! - A single visible step `[a]φ` (or `<a>φ`) is preserved right under a tau-closed
//!   modality of the same kind (box under box, diamond under diamond, counting negations),
//!   with only `&&`, `forall` (boxes) or `||`, `exists` (diamonds) between, or a `||`
//!   (boxes) / `&&` (diamonds) whose other operand is preserved by itself:
//!   `[true*] forall p, v: Nat . [decide(p, v)] φ` is accepted. The tau-closed modality can
//!   walk the inert taus to the state that takes the visible step directly.
//! - Booleans, data quantifiers, `val`, and fixpoints over accepted bodies are preserved
//!   (every approximant of the fixpoint is a union of equivalence classes). Fixpoint bodies
//!   start afresh: a single step right under a fixpoint binder is not accepted.
//!
//! Everything else is refused, in particular single steps that may be tau (`[true]X`,
//! `<true>true`, `[!a]X`): they tell apart `tau.0` and `0`, which branching bisimulation
//! identifies. The fragment is sound, not complete; strong bisimulation answers the rest.

use crate::modal::ir::{ActionFormula, RegFormula, StateFormula};

/// Why a formula is not preserved, with the sub-formula at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotPreserved {
    /// The modality (or quantifier/junction) at fault.
    pub at: StateFormula,
    /// What is wrong with it.
    pub reason: Reason,
}

/// The ways a formula leaves the fragment of [`check_preserved`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A modality whose regular formula can see tau steps (neither tau-closed nor
    /// visible-ended nor a visible step).
    SeesTau,
    /// A single visible step that no tau-closed modality of the same kind encloses.
    UnguardedStep,
    /// Two operands that each take a guarded visible step, under a junction that needs
    /// both to hold in one state (`||` under a box, `&&` under a diamond), or a quantifier
    /// of that kind (`exists` under a box, `forall` under a diamond).
    SplitSteps,
}

impl Reason {
    /// A sentence saying what is wrong.
    pub fn text(self) -> &'static str {
        match self {
            Reason::SeesTau => "this modality can observe tau steps",
            Reason::UnguardedStep => {
                "this single step is not right under a modality that lets it skip tau steps"
            }
            Reason::SplitSteps => {
                "its operands take visible steps that need not be enabled in one state"
            }
        }
    }
}

/// The class of a regular formula's language (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// Closed under inserting and deleting taus.
    Closed,
    /// A tau-closed prefix and a final visible step.
    Visible,
    /// One step of visible actions only.
    Step,
    /// Anything else.
    Other,
}

/// Whether the empty multi-action (tau) satisfies `a`: `None` when it depends on data.
fn tau_matches(a: &ActionFormula) -> Option<bool> {
    match a {
        ActionFormula::True => Some(true),
        ActionFormula::False => Some(false),
        ActionFormula::MultiAction(acts) => Some(acts.is_empty()),
        ActionFormula::Val(_) => None,
        ActionFormula::Not(x) => tau_matches(x).map(|b| !b),
        ActionFormula::And(x, y) => match (tau_matches(x), tau_matches(y)) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        },
        ActionFormula::Or(x, y) => match (tau_matches(x), tau_matches(y)) {
            (Some(true), _) | (_, Some(true)) => Some(true),
            (Some(false), Some(false)) => Some(false),
            _ => None,
        },
        ActionFormula::Imp(x, y) => match (tau_matches(x), tau_matches(y)) {
            (Some(false), _) | (_, Some(true)) => Some(true),
            (Some(true), Some(false)) => Some(false),
            _ => None,
        },
        // The value on tau does not depend on the bound variables when it is known
        // without data, and sorts are never empty.
        ActionFormula::Forall(_, x) | ActionFormula::Exists(_, x) => tau_matches(x),
    }
}

/// For a choice of single steps: `(every step is visible, some step surely matches tau)`.
fn step_set(r: &RegFormula) -> Option<(bool, bool)> {
    match r {
        RegFormula::Action(a) => {
            let t = tau_matches(a);
            Some((t == Some(false), t == Some(true)))
        }
        RegFormula::Alt(x, y) => {
            let (v1, t1) = step_set(x)?;
            let (v2, t2) = step_set(y)?;
            Some((v1 && v2, t1 || t2))
        }
        _ => None,
    }
}

fn flatten<'a>(r: &'a RegFormula, out: &mut Vec<&'a RegFormula>) {
    match r {
        RegFormula::Seq(x, y) => {
            flatten(x, out);
            flatten(y, out);
        }
        _ => out.push(r),
    }
}

fn classify(r: &RegFormula) -> Class {
    if let Some((visible, _)) = step_set(r) {
        if visible {
            return Class::Step;
        }
    }
    match r {
        RegFormula::Action(_) | RegFormula::Nil => Class::Other,
        RegFormula::Alt(x, y) => match (classify(x), classify(y)) {
            (a, b) if a == b && a != Class::Step => a,
            _ => Class::Other,
        },
        // `α*` with `α` matching tau contains every tau-path, as the guard argument needs.
        RegFormula::Star(x) => match step_set(x) {
            Some((_, true)) => Class::Closed,
            _ => Class::Other,
        },
        RegFormula::Plus(x) => match classify(x) {
            c @ (Class::Closed | Class::Visible) => c,
            _ => Class::Other,
        },
        RegFormula::Seq(..) => {
            let mut factors = Vec::new();
            flatten(r, &mut factors);
            let mut prefix: Option<Class> = None;
            for f in factors {
                let c = classify(f);
                prefix = Some(match (prefix, c) {
                    (None, c) => c,
                    (Some(Class::Closed), Class::Closed)
                    | (Some(Class::Visible), Class::Closed) => Class::Closed,
                    (Some(Class::Closed), Class::Visible | Class::Step)
                    | (Some(Class::Visible), Class::Visible) => Class::Visible,
                    _ => Class::Other,
                });
            }
            match prefix {
                // A sequence of one visible step is that step, handled above.
                Some(Class::Step) | None => Class::Other,
                Some(c) => c,
            }
        }
    }
}

/// The kind of a modality once negations are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Box,
    Diamond,
}

struct Walker;

impl Walker {
    /// Checks `f` at a position of polarity `positive`; `guard` is the kind of the
    /// tau-closed modality that directly encloses it, if any. Returns whether `f` takes a
    /// guarded visible step (so is preserved only thanks to its guard).
    fn walk(
        &self,
        f: &StateFormula,
        positive: bool,
        guard: Option<Kind>,
    ) -> Result<bool, NotPreserved> {
        let err = |reason| NotPreserved {
            at: f.clone(),
            reason,
        };
        // The junction that needs one state to satisfy both operands under this guard.
        let split = |is_and: bool| match guard {
            Some(Kind::Box) => is_and != positive,
            Some(Kind::Diamond) => is_and == positive,
            None => false,
        };
        match f {
            StateFormula::True
            | StateFormula::False
            | StateFormula::Val(_)
            | StateFormula::Var { .. } => Ok(false),
            StateFormula::Not(x) => self.walk(x, !positive, guard),
            StateFormula::And(x, y) | StateFormula::Or(x, y) | StateFormula::Imp(x, y) => {
                let ux = self.walk(x, positive != matches!(f, StateFormula::Imp(..)), guard)?;
                let uy = self.walk(y, positive, guard)?;
                // `x => y` is `!x || y`.
                let is_and = matches!(f, StateFormula::And(..));
                if ux && uy && split(is_and) {
                    return Err(err(Reason::SplitSteps));
                }
                Ok(ux || uy)
            }
            StateFormula::Forall(_, x) | StateFormula::Exists(_, x) => {
                let used = self.walk(x, positive, guard)?;
                let is_forall = matches!(f, StateFormula::Forall(..));
                // `exists` under a box (or `forall` under a diamond) needs one state for
                // every value.
                if used && split(is_forall) {
                    return Err(err(Reason::SplitSteps));
                }
                Ok(used)
            }
            StateFormula::Mu(_, x) | StateFormula::Nu(_, x) => {
                self.walk(x, positive, None)?;
                Ok(false)
            }
            StateFormula::Must(r, x) | StateFormula::May(r, x) => {
                let kind = match (matches!(f, StateFormula::Must(..)), positive) {
                    (true, true) | (false, false) => Kind::Box,
                    _ => Kind::Diamond,
                };
                match classify(r) {
                    Class::Closed => {
                        self.walk(x, positive, Some(kind))?;
                        Ok(false)
                    }
                    Class::Visible => {
                        self.walk(x, positive, None)?;
                        Ok(false)
                    }
                    Class::Step if guard == Some(kind) => {
                        self.walk(x, positive, None)?;
                        Ok(true)
                    }
                    Class::Step => Err(err(Reason::UnguardedStep)),
                    Class::Other => Err(err(Reason::SeesTau)),
                }
            }
        }
    }
}

/// The kind of bisimulation a quotient is taken modulo, as far as the formulas it preserves
/// go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quotient {
    /// Strong bisimulation: every formula is preserved.
    Strong,
    /// Branching bisimulation, or its divergence-preserving variant (finer, so it preserves
    /// at least the same formulas): the fragment of the module documentation.
    Branching,
}

/// `Ok` when every LTS and its quotient modulo `kind` give `f` the same verdict, by the
/// fragment of the module documentation; otherwise the first sub-formula at fault.
pub fn check_preserved(f: &StateFormula, kind: Quotient) -> Result<(), NotPreserved> {
    match kind {
        Quotient::Strong => Ok(()),
        Quotient::Branching => Walker.walk(f, true, None).map(|_| ()),
    }
}
