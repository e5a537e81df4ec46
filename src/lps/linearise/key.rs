//! Keys of the linearizer's table of expression control states: a
//! process expression and its parameters, hashed by a structural hash computed once per
//! shared node. Why: a `.` chain of n actions has n suffixes that each become a key, and the
//! derived `Hash` walks a whole suffix, so filling the table took O(n²) time (20,000 actions:
//! 25 s). The hash is a function of the structure alone, so equal expressions get equal
//! hashes; equality stays structural (and shared sub-expressions compare by pointer first).
//! The free variables of a tail (its parameters) are memoised per shared node likewise:
//! `expr::proc_free_vars` walks the whole suffix, again O(n²) over a chain; it stays the naive
//! reference the memo is checked against.

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::data::ir::Var;
use crate::data::ir_ops;
use crate::process::ir::ProcExpr;

#[cfg(test)]
use super::expr::proc_free_vars;

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
    /// Free variables per node, in order of first occurrence (same keeping-alive rule).
    free: HashMap<usize, (Arc<ProcExpr>, Arc<Vec<Var>>)>,
}

/// Appends the variables of `add` that are not in `out` (nor in `bound`) to `out`.
fn union_into(out: &mut Vec<Var>, add: &[Var], bound: &[Var]) {
    for v in add {
        if !bound.contains(v) && !out.contains(v) {
            out.push(v.clone());
        }
    }
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

    /// The free data variables of `e` in order of first occurrence (as
    /// `expr::proc_free_vars`), computed once per shared node.
    pub(super) fn free_vars(&mut self, e: &Arc<ProcExpr>) -> Arc<Vec<Var>> {
        let addr = Arc::as_ptr(e) as usize;
        if let Some((_, fv)) = self.free.get(&addr) {
            return fv.clone();
        }
        let mut out: Vec<Var> = Vec::new();
        let data = |out: &mut Vec<Var>, d: &crate::data::ir::DataExpr| {
            union_into(out, &ir_ops::free_vars(d), &[]);
        };
        match &**e {
            ProcExpr::Action(a) => a.args.iter().for_each(|d| data(&mut out, d)),
            ProcExpr::Call { args, .. } => args.iter().for_each(|d| data(&mut out, d)),
            ProcExpr::Tau | ProcExpr::Delta => {}
            ProcExpr::Sum { vars, body } => {
                let inner = self.free_vars(body);
                union_into(&mut out, &inner, vars);
            }
            ProcExpr::Sync(a, b)
            | ProcExpr::Choice(a, b)
            | ProcExpr::Seq(a, b)
            | ProcExpr::Par(a, b)
            | ProcExpr::LeftMerge(a, b) => {
                let fa = self.free_vars(a);
                // Shared with a chain's suffix: the common case costs no copy.
                let fb = self.free_vars(b);
                if fa.is_empty() {
                    self.free.insert(addr, (e.clone(), fb.clone()));
                    return fb;
                }
                out.extend(fa.iter().cloned());
                union_into(&mut out, &fb, &[]);
            }
            ProcExpr::If { cond, then, else_ } => {
                data(&mut out, cond);
                let ft = self.free_vars(then);
                union_into(&mut out, &ft, &[]);
                if let Some(x) = else_ {
                    let fe = self.free_vars(x);
                    union_into(&mut out, &fe, &[]);
                }
            }
            ProcExpr::Allow { body, .. }
            | ProcExpr::Block { body, .. }
            | ProcExpr::Hide { body, .. }
            | ProcExpr::Rename { body, .. }
            | ProcExpr::Comm { body, .. } => {
                let fb = self.free_vars(body);
                self.free.insert(addr, (e.clone(), fb.clone()));
                return fb;
            }
        }
        let out = Arc::new(out);
        self.free.insert(addr, (e.clone(), out.clone()));
        out
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

    /// The memoised free variables equal the naive walk's, order included, also on shared
    /// nodes reached under different binders.
    #[test]
    fn free_vars_match_the_naive_walk() {
        use crate::data::ir::{DataExpr, Sort};
        let var = |n: &str| Var {
            name: n.into(),
            sort: Sort::Nat,
        };
        let act_on = |n: &str, vs: &[&str]| {
            Arc::new(ProcExpr::Action(Action {
                name: n.into(),
                sorts: vs.iter().map(|_| Sort::Nat).collect(),
                args: vs.iter().map(|v| DataExpr::Var(var(v))).collect(),
            }))
        };
        let shared = Arc::new(ProcExpr::Seq(act_on("a", &["y", "x"]), act_on("b", &["z"])));
        let summed = Arc::new(ProcExpr::Sum {
            vars: vec![var("x")],
            body: shared.clone(),
        });
        let cond = Arc::new(ProcExpr::If {
            cond: DataExpr::Var(var("w")),
            then: summed.clone(),
            else_: Some(shared.clone()),
        });
        let all = Arc::new(ProcExpr::Choice(
            Arc::new(ProcExpr::Seq(act("c"), cond.clone())),
            Arc::new(ProcExpr::Sync(act_on("d", &["z", "v"]), summed.clone())),
        ));
        let mut h = ShapeHashes::default();
        for e in [&shared, &summed, &cond, &all] {
            assert_eq!(*h.free_vars(e), proc_free_vars(e), "{e:?}");
        }
    }
}
