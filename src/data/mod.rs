//! Data: sorts, the typed data IR, hash-consed terms, the rewriter and the enumerator.

pub mod builtins;
pub mod ir;
pub mod ir_ops;
pub mod typecheck;
