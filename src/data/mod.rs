//! Data: sorts, the typed data IR, hash-consed terms, the rewriter and the enumerator.

pub mod ir;
pub mod ir_ops;
