//! Explicit successful termination, as mCRL2 202607.0 linearises it: when every sequential
//! component of the initial process can terminate, the LPS gets the action `Terminate` and
//! one summand `terminated -> Terminate . delta`, enabled when every component is in its
//! terminated control state and leading to a deadlock state. So `init a;` has the three
//! states `a`, `Terminate` pass through, and `init a || b;` terminates once, after both.
//! The summand sits above every `allow`, `block`, `hide`, `rename` and `comm`: termination
//! is no action of the specification, so none of them applies to it.

use crate::data::ir::{DataExpr, Sort};
use crate::data::ir_ops::{and, eq, number, true_};
use crate::lps::{Lps, Origin, Summand, SummandAction};
use crate::process::ir::{Action, ActionDecl};
use crate::source::Span;

/// The name of the termination action.
pub const TERMINATE: &str = "Terminate";

/// How one sequential component terminates.
#[derive(Clone, Debug)]
pub struct Termination {
    /// The index of its control parameter (`None` when it has a single control state and
    /// cannot terminate).
    pub ctrl: Option<usize>,
    /// The control value of its terminated state.
    pub term_state: u32,
    /// The control value `Terminate` leads to: its `delta` state, or an unused value.
    pub delta_state: u32,
    /// Whether some alternative of it terminates successfully.
    pub terminates: bool,
}

/// Adds `Terminate` to `lps` when every component of `components` can terminate.
pub fn add_terminate(lps: &mut Lps, components: &[Termination]) {
    if components.is_empty() || !components.iter().all(|c| c.terminates) {
        return;
    }
    let mut condition = true_();
    let mut next: Vec<DataExpr> = lps.params.iter().cloned().map(DataExpr::Var).collect();
    for c in components {
        let Some(i) = c.ctrl else {
            return;
        };
        let s = DataExpr::Var(lps.params[i].clone());
        let here = eq(s, number(c.term_state, Sort::Pos));
        condition = and(condition, here); // `and` drops the leading `true`
        next[i] = number(c.delta_state, Sort::Pos);
    }
    if !lps.actions.iter().any(|a| &*a.name == TERMINATE) {
        lps.actions.push(ActionDecl {
            name: TERMINATE.into(),
            sorts: Vec::new(),
            span: Span::default(),
        });
    }
    lps.summands.push(Summand {
        sum_vars: Vec::new(),
        condition,
        action: SummandAction::Multi(vec![Action {
            name: TERMINATE.into(),
            sorts: Vec::new(),
            args: Vec::new(),
        }]),
        next,
        origin: Origin {
            spans: Vec::new(),
            description: "successful termination".into(),
            synthetic: Vec::new(),
            clusters: Vec::new(),
            sum_names: Vec::new(),
        },
    });
}
