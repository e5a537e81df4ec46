//! The random LTSs of the reduction property tests (`reduce_props`, `reduce_preorder`,
//! `modal_preserve`): small systems over tau and a few visible actions, tau drawn more
//! often so that tau-paths and tau-cycles are common.

use muon::lts::{Label, LabelId, Lts, StateId, Transition};
use proptest::prelude::*;

/// How the random LTSs of a test are drawn.
#[derive(Clone, Copy)]
pub struct Shape {
    /// At most this many states (at least one).
    pub max_states: u32,
    /// At most this many transitions.
    pub max_transitions: usize,
    /// Weight of tau (at least 1) against weight 1 for each visible action.
    pub tau_weight: u32,
    /// The visible actions (each drawn with weight 1).
    pub actions: &'static [&'static str],
    /// Whether the initial state is drawn too (else it is state 0).
    pub random_initial: bool,
}

/// An LTS of `shape`.
pub fn arb_lts(shape: Shape) -> impl Strategy<Value = Lts> {
    (1..=shape.max_states).prop_flat_map(move |n| {
        let trans = prop::collection::vec(
            (
                0..n,
                // Below `tau_weight`: tau (label 0); above: visible action x - tau_weight + 1.
                (0..shape.tau_weight + shape.actions.len() as u32)
                    .prop_map(move |x| x.saturating_sub(shape.tau_weight - 1)),
                0..n,
            ),
            0..=shape.max_transitions,
        );
        let init = if shape.random_initial { 0..n } else { 0..1 };
        (Just(n), init, trans).prop_map(move |(n, init, ts)| Lts {
            initial: StateId(init),
            num_states: n,
            labels: std::iter::once(Label::tau())
                .chain(shape.actions.iter().map(|a| Label::from_text(*a)))
                .collect(),
            transitions: ts
                .into_iter()
                .map(|(f, a, t)| Transition {
                    from: StateId(f),
                    label: LabelId(a),
                    to: StateId(t),
                })
                .collect(),
        })
    })
}
