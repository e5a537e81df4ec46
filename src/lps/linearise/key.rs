//! Keys of the linearizer's table of expression control states: a
//! process expression and its parameters, hashed by a structural hash computed once per
//! shared node. Why: a `.` chain of n actions has n suffixes that each become a key, and the
//! derived `Hash` walks a whole suffix, so filling the table took O(n²) time (20,000 actions:
//! 25 s). The hash is a function of the structure alone, so equal expressions get equal
//! hashes; equality stays structural (and shared sub-expressions compare by pointer first).

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::data::ir::Var;
use crate::process::ir::ProcExpr;

/// A key of the expression table: the expression, its parameters, and its structural hash.
#[derive(Clone, Debug)]
pub(super) struct ExprKey {
    hash: u64,
    expr: Arc<ProcExpr>,
    params: Vec<Var>,
}

impl PartialEq for ExprKey {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.params == other.params && self.expr == other.expr
    }
}

impl Eq for ExprKey {}

impl Hash for ExprKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
        self.params.hash(state);
    }
}

/// Structural hashes of process expressions, memoised per node (by address; the memo keeps
/// each node alive, so an address is never reused for another node while it is in the memo).
#[derive(Default)]
pub(super) struct ShapeHashes {
    memo: HashMap<usize, (Arc<ProcExpr>, u64)>,
}

impl ShapeHashes {
    /// The key of `expr` with `params`.
    pub(super) fn key(&mut self, expr: &Arc<ProcExpr>, params: Vec<Var>) -> ExprKey {
        ExprKey {
            hash: self.of(expr),
            expr: expr.clone(),
            params,
        }
    }

    /// The structural hash of `e`: its variant and own fields, and its sub-processes'
    /// hashes (each computed once).
    fn of(&mut self, e: &Arc<ProcExpr>) -> u64 {
        let addr = Arc::as_ptr(e) as usize;
        if let Some((_, h)) = self.memo.get(&addr) {
            return *h;
        }
        let mut st = DefaultHasher::new();
        std::mem::discriminant(&**e).hash(&mut st);
        match &**e {
            ProcExpr::Action(a) => a.hash(&mut st),
            ProcExpr::Tau | ProcExpr::Delta => {}
            ProcExpr::Call { proc, args } => {
                proc.hash(&mut st);
                args.hash(&mut st);
            }
            ProcExpr::Sum { vars, body } => {
                vars.hash(&mut st);
                st.write_u64(self.of(body));
            }
            ProcExpr::Choice(a, b)
            | ProcExpr::Seq(a, b)
            | ProcExpr::Sync(a, b)
            | ProcExpr::Par(a, b)
            | ProcExpr::LeftMerge(a, b) => {
                st.write_u64(self.of(a));
                st.write_u64(self.of(b));
            }
            ProcExpr::If { cond, then, else_ } => {
                cond.hash(&mut st);
                st.write_u64(self.of(then));
                match else_ {
                    Some(x) => {
                        st.write_u8(1);
                        st.write_u64(self.of(x));
                    }
                    None => st.write_u8(0),
                }
            }
            ProcExpr::Allow { set, body } => {
                set.hash(&mut st);
                st.write_u64(self.of(body));
            }
            ProcExpr::Block { set, body } | ProcExpr::Hide { set, body } => {
                set.hash(&mut st);
                st.write_u64(self.of(body));
            }
            ProcExpr::Rename { map, body } => {
                map.hash(&mut st);
                st.write_u64(self.of(body));
            }
            ProcExpr::Comm { rules, body } => {
                rules.hash(&mut st);
                st.write_u64(self.of(body));
            }
        }
        let h = st.finish();
        self.memo.insert(addr, (e.clone(), h));
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::process::ir::Action;

    fn act(name: &str) -> Arc<ProcExpr> {
        Arc::new(ProcExpr::Action(Action {
            name: name.into(),
            sorts: Vec::new(),
            args: Vec::new(),
        }))
    }

    /// Equal expressions built apart (no shared nodes) get equal keys; different ones differ.
    #[test]
    fn equal_structure_equal_key() {
        let mut h = ShapeHashes::default();
        let chain = |n: usize| {
            let mut e = act("a");
            for _ in 0..n {
                e = Arc::new(ProcExpr::Seq(act("a"), e));
            }
            e
        };
        let (x, y) = (chain(50), chain(50));
        assert!(!Arc::ptr_eq(&x, &y));
        assert_eq!(h.key(&x, vec![]), h.key(&y, vec![]));
        assert_ne!(h.key(&x, vec![]), h.key(&chain(49), vec![]));
        let b = Arc::new(ProcExpr::Seq(act("a"), act("b")));
        let a = Arc::new(ProcExpr::Seq(act("a"), act("a")));
        assert_ne!(h.key(&a, vec![]), h.key(&b, vec![]));
    }
}
