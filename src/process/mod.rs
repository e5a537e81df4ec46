//! Process specifications: the typed process IR (actions, process equations, `init`).

pub mod ir;
pub mod typecheck;
