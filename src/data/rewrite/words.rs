//! Integer arithmetic and comparisons of a compiled right-hand side evaluated on machine
//! words, without interning the intermediate numbers.
//!
//! Why: in `remove(p, x |> l) = if(x mod p == 0, …)` the built-in path interns the number
//! `x mod p` (a hash-table look-up under a shard lock), only for `== 0` to read it back and
//! answer `true` or `false`; with the per-call overhead of `apply_func` and the built-in
//! dispatch this was a quarter of the sieve's instructions. A code tree of built-in
//! operations on `Pos`/`Nat`/`Int` (`Code::Word`, chosen when equations are compiled) is
//! evaluated here to a [`Word`]; a number is interned only where a term needs it.
//!
//! Semantics: [`word_op`] answers only where the built-in ([`Rewriter::builtin`]) surely
//! gives a number or Boolean for these machine-word operands, with the same value; in
//! every other case (an operand that is not a machine word, an overflow, a result outside
//! the result sort) the operands are interned and the ordinary application runs, so the
//! normal forms are those of the interpreter, the reference (`tests/data_rewrite_compiled.rs`
//! checks both agree, including on arithmetic at the edges of the machine words).

use super::compiled::Code;
use super::*;

/// A value computed by a code tree: a machine-word number, a Boolean, or any other term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Word {
    Num(NumSort, i64),
    Bool(bool),
    Term(TermId),
}

/// `v` as a number of sort `s`, if it is one (`Pos` is positive, `Nat` non-negative).
fn in_sort(s: NumSort, v: i64) -> Option<Word> {
    let ok = match s {
        NumSort::Pos => v > 0,
        NumSort::Nat => v >= 0,
        NumSort::Int => true,
    };
    ok.then_some(Word::Num(s, v))
}

/// Whether the built-in `op` of sort `sort` is one [`word_op`] may evaluate: its operands
/// are integral numbers (or Booleans, for `==` and `!=`), and so is its result unless it
/// is a comparison. Elsewhere (`Real`, lists, struct values) the machine words would never
/// answer, and trying would only cost.
pub(super) fn is_word_op(op: Op, sort: &Sort) -> bool {
    use Op::*;
    let dom = sort.domain();
    let int = |s: &Sort| NumSort::of(s).is_some();
    let n = match op {
        Eq | Neq | Lt | Le | Gt | Ge | Add | Sub | Mul | Div | Mod | Min | Max => 2,
        Conv | Succ | Pred | Neg | Abs => 1,
        _ => return false,
    };
    let operands = match op {
        Eq | Neq => dom.iter().all(|s| int(s) || *s == Sort::Bool),
        _ => dom.iter().all(int),
    };
    let result = matches!(op, Eq | Neq | Lt | Le | Gt | Ge) || int(sort.codomain());
    dom.len() == n && operands && result
}

/// The built-in `op` with result sort `sort` (`None`: not `Pos`/`Nat`/`Int`) on machine-word
/// operands, or `None` when the built-in must decide (its answer may not be a machine word).
pub(super) fn word_op(op: Op, sort: Option<NumSort>, args: &[Word]) -> Option<Word> {
    use Word::{Bool, Num};
    match (op, args) {
        // Equal numbers are equal terms: same sort and value (as `decide_eq` sees them).
        (Op::Eq, [Num(s, a), Num(t, b)]) => Some(Bool(s == t && a == b)),
        (Op::Neq, [Num(s, a), Num(t, b)]) => Some(Bool(!(s == t && a == b))),
        (Op::Eq, [Bool(a), Bool(b)]) => Some(Bool(a == b)),
        (Op::Neq, [Bool(a), Bool(b)]) => Some(Bool(a != b)),
        (Op::Lt, [Num(_, a), Num(_, b)]) => Some(Bool(a < b)),
        (Op::Le, [Num(_, a), Num(_, b)]) => Some(Bool(a <= b)),
        (Op::Gt, [Num(_, a), Num(_, b)]) => Some(Bool(a > b)),
        (Op::Ge, [Num(_, a), Num(_, b)]) => Some(Bool(a >= b)),
        (_, [Num(_, a), Num(_, b)]) => {
            let (a, b) = (*a, *b);
            let v = match op {
                Op::Add => a.checked_add(b)?,
                Op::Sub => a.checked_sub(b)?,
                Op::Mul => a.checked_mul(b)?,
                // Floor division and modulus by a positive divisor are the Euclidean ones.
                Op::Div if b > 0 => a.checked_div_euclid(b)?,
                Op::Mod if b > 0 => a.checked_rem_euclid(b)?,
                Op::Min => a.min(b),
                Op::Max => a.max(b),
                _ => return None,
            };
            in_sort(sort?, v)
        }
        (_, [Num(_, a)]) => {
            let v = match op {
                Op::Conv => *a,
                Op::Succ => a.checked_add(1)?,
                Op::Pred => a.checked_sub(1)?,
                Op::Neg => a.checked_neg()?,
                Op::Abs => a.checked_abs()?,
                _ => return None,
            };
            in_sort(sort?, v)
        }
        _ => None,
    }
}

impl<'s> Rewriter<'s> {
    /// A normal form as a [`Word`].
    #[inline]
    pub(super) fn word_of(&self, t: TermId) -> Word {
        let store = self.store;
        if t == store.true_term() {
            return Word::Bool(true);
        }
        if t == store.false_term() {
            return Word::Bool(false);
        }
        match store.get(t) {
            Term::Num(s, v) => Word::Num(*s, *v),
            _ => Word::Term(t),
        }
    }

    /// The term of a [`Word`] (a number is interned here).
    #[inline]
    pub(super) fn word_term(&self, w: Word) -> TermId {
        match w {
            Word::Num(s, v) => self.store.num(s, v),
            Word::Bool(b) => self.store.bool_term(b),
            Word::Term(t) => t,
        }
    }

    /// The value of the usual operands, a matched normal form or a number literal, read
    /// without a call (`None` for other code).
    #[inline(always)]
    fn leaf_word(&self, code: &Code, base: usize, raw: u64) -> Option<Word> {
        match code {
            Code::Reg(r) => Some(self.word_of(self.slots[base + *r as usize])),
            // An argument the strategy left alone that was rewritten before the call.
            Code::RawReg(r) if raw & (1 << r) == 0 => {
                Some(self.word_of(self.slots[base + *r as usize]))
            }
            Code::Closed(t) => match self.store.get(*t) {
                Term::Num(s, v) => Some(Word::Num(*s, *v)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The normal form of a code tree under the registers from `base` on, as a [`Word`]:
    /// a `Code::Word` node computes on machine words when it can, else it applies its
    /// built-in to the interned operands as [`Rewriter::run`] does for `Code::App`.
    pub(super) fn run_word(
        &mut self,
        code: &Code,
        base: usize,
        vars: &[(VarId, u16)],
        raw: u64,
    ) -> Result<Word, RewriteError> {
        let (op, f, head, args, sort) = match code {
            Code::Word {
                op,
                f,
                head,
                args,
                sort,
            } => (op, f, head, args, sort),
            _ => {
                if let Some(w) = self.leaf_word(code, base, raw) {
                    return Ok(w);
                }
                let t = self.run(code, base, vars, raw)?;
                return Ok(self.word_of(t));
            }
        };
        let mut vals = [Word::Bool(false); 2];
        for (i, a) in args.iter().enumerate() {
            vals[i] = match self.leaf_word(a, base, raw) {
                Some(w) => w,
                None => self.run_word(a, base, vars, raw)?,
            };
        }
        let vals = &vals[..args.len()];
        if let Some(w) = word_op(*op, *sort, vals) {
            return Ok(w);
        }
        let mut terms = [TermId(0); 2];
        for (i, w) in vals.iter().enumerate() {
            terms[i] = self.word_term(*w);
        }
        let r = self.apply_func(*f, *head, &terms[..vals.len()])?;
        self.note_nf(r);
        Ok(self.word_of(r))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The built-in `op` (result sort `cod`) on the numbers `args`, by the ordinary path.
    fn by_builtin(
        rw: &mut Rewriter<'_>,
        op: Op,
        cod: &Sort,
        args: &[(NumSort, i64)],
    ) -> Option<TermId> {
        let store = rw.store();
        let name = match op {
            Op::Eq => "==",
            Op::Neq => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Add => "+",
            Op::Sub | Op::Neg => "-",
            Op::Mul => "*",
            Op::Div => "div",
            Op::Mod => "mod",
            Op::Min => "min",
            Op::Max => "max",
            Op::Succ => "succ",
            Op::Pred => "pred",
            Op::Abs => "abs",
            _ => match cod {
                Sort::Pos => "Int2Pos",
                Sort::Nat => "Int2Nat",
                _ => "Nat2Int",
            },
        };
        let dom: Vec<Sort> = args.iter().map(|(s, _)| s.sort()).collect();
        let f = store.intern_func(&Func {
            name: name.into(),
            sort: Sort::Arrow(dom, Box::new(cod.clone())),
        });
        assert_eq!(classify_builtin(store.func_of(f)), Kind::Op(op));
        let terms: Vec<TermId> = args.iter().map(|&(s, v)| store.num(s, v)).collect();
        rw.builtin(op, f, store.func(f), &terms).expect("no error")
    }

    fn num_sort() -> impl Strategy<Value = NumSort> {
        prop_oneof![Just(NumSort::Pos), Just(NumSort::Nat), Just(NumSort::Int)]
    }

    fn value() -> impl Strategy<Value = i64> {
        prop_oneof![
            -5i64..=5,
            Just(i64::MAX),
            Just(i64::MIN),
            Just(i64::MAX - 1),
            Just(i64::MIN + 1),
            any::<i64>(),
        ]
    }

    fn op() -> impl Strategy<Value = Op> {
        use Op::*;
        prop::sample::select(vec![
            Eq, Neq, Lt, Le, Gt, Ge, Add, Sub, Mul, Div, Mod, Min, Max, Conv, Succ, Pred, Neg, Abs,
        ])
    }

    /// Only operations on integral numbers (and Booleans for `==`/`!=`) are compiled so.
    #[test]
    fn word_ops_are_integral() {
        let arrow = |d: &[Sort], c: Sort| Sort::Arrow(d.to_vec(), Box::new(c));
        let (int, nat, real, b) = (Sort::Int, Sort::Nat, Sort::Real, Sort::Bool);
        let list = Sort::List(Box::new(Sort::Nat));
        assert!(is_word_op(
            Op::Add,
            &arrow(&[nat.clone(), nat.clone()], nat.clone())
        ));
        assert!(is_word_op(
            Op::Sub,
            &arrow(&[nat.clone(), nat.clone()], int.clone())
        ));
        assert!(is_word_op(
            Op::Lt,
            &arrow(&[int.clone(), int.clone()], b.clone())
        ));
        assert!(is_word_op(
            Op::Eq,
            &arrow(&[b.clone(), b.clone()], b.clone())
        ));
        assert!(is_word_op(
            Op::Conv,
            &arrow(std::slice::from_ref(&int), nat.clone())
        ));
        assert!(!is_word_op(
            Op::Add,
            &arrow(&[real.clone(), real.clone()], real.clone())
        ));
        assert!(!is_word_op(
            Op::Conv,
            &arrow(std::slice::from_ref(&int), real.clone())
        ));
        assert!(!is_word_op(
            Op::Eq,
            &arrow(&[list.clone(), list.clone()], b.clone())
        ));
        assert!(!is_word_op(
            Op::Lt,
            &arrow(&[b.clone(), b.clone()], b.clone())
        ));
        assert!(!is_word_op(
            Op::Neg,
            &arrow(&[int.clone(), int.clone()], int.clone())
        ));
        assert!(!is_word_op(
            Op::Not,
            &arrow(std::slice::from_ref(&b), b.clone())
        ));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Wherever the machine-word evaluation answers, the built-in gives the same term.
        #[test]
        fn word_op_agrees_with_the_builtin(
            op in op(),
            cod in num_sort(),
            a in (num_sort(), value()),
            b in (num_sort(), value()),
        ) {
            // Operands are numbers of their sort, as normal forms are.
            let fit = |(s, v): (NumSort, i64)| -> (NumSort, i64) {
                match s {
                    NumSort::Pos if v <= 0 => (s, v.saturating_neg().saturating_add(1)),
                    NumSort::Nat if v < 0 => (s, v.saturating_neg()),
                    _ => (s, v),
                }
            };
            let (a, b) = (fit(a), fit(b));
            let unary = matches!(op, Op::Conv | Op::Succ | Op::Pred | Op::Neg | Op::Abs);
            let args: &[(NumSort, i64)] = if unary { &[a] } else { &[a, b] };
            let compare = matches!(op, Op::Eq | Op::Neq | Op::Lt | Op::Le | Op::Gt | Op::Ge);
            let (cod_sort, sort) = if compare { (Sort::Bool, None) } else { (cod.sort(), Some(cod)) };
            let words: Vec<Word> = args.iter().map(|&(s, v)| Word::Num(s, v)).collect();
            let store = TermStore::new();
            let mut rw = Rewriter::new(&DataSpec::default(), &store).expect("empty spec");
            let want = by_builtin(&mut rw, op, &cod_sort, args);
            match word_op(op, sort, &words) {
                Some(w) => prop_assert_eq!(Some(rw.word_term(w)), want),
                // Declining is always safe, but not where the answer is a machine word.
                None => prop_assert!(
                    want.is_none_or(|t| !matches!(rw.word_of(t), Word::Num(..) | Word::Bool(_))),
                    "declined {:?} {:?} = {:?}", op, args, want
                ),
            }
        }
    }
}
