//! Terms as values another term store can rebuild: what distributed exploration sends
//! between processes, where a [`TermId`] of one store means nothing in another.
//!
//! A term is written in prefix order as `u32` words. The first word of each node is a tag
//! (top 4 bits) and a payload (low 28 bits):
//!
//! - `FUNC f`: the function symbol with id `f`, for ids below the *frontier*, the number of
//!   symbols the stores had when they were built from the same input (every process
//!   compiles the same specification the same way, so these ids agree; [`fingerprint`]
//!   lets the processes confirm it before they exchange anything);
//! - `APP n`: an application with `n` arguments, followed by its head and arguments;
//! - `SMALL s v`: a number of sort `s` (2 bits) with value `v < 2^26`;
//! - `EXT k`: anything else (a symbol interned after the frontier, a large or negative
//!   number, a real, a variable, a binder), followed by the byte length and the words of
//!   its `postcard` encoding; a binder's body follows as a term.
//!
//! Most state values are constructors and small numbers, one word each; the rare `EXT`
//! nodes cost their serialised size.

use num_bigint::BigInt;
use num_rational::BigRational;
use serde::{Deserialize, Serialize};

use super::ir::{Binder, Func, Var};
use super::store::{FuncId, NumSort, Term, TermId, TermStore};

const TAG_FUNC: u32 = 0;
const TAG_APP: u32 = 1;
const TAG_SMALL: u32 = 2;
const TAG_EXT: u32 = 3;
const PAYLOAD: u32 = (1 << 28) - 1;
const SMALL_LIMIT: i64 = 1 << 26;

/// A node that has no one-word form.
#[derive(Serialize, Deserialize)]
enum Ext {
    Func(Func),
    Num(u8, BigInt),
    Real(BigRational),
    Var(Var),
    Binder(Binder, Vec<Var>),
}

/// Words that do not decode as a term: a process sent something this one cannot read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a term sent by another process cannot be read: {0}")]
pub struct PortableError(pub String);

fn sort_code(s: NumSort) -> u32 {
    match s {
        NumSort::Pos => 0,
        NumSort::Nat => 1,
        NumSort::Int => 2,
    }
}

fn sort_of_code(c: u32) -> Result<NumSort, PortableError> {
    match c {
        0 => Ok(NumSort::Pos),
        1 => Ok(NumSort::Nat),
        2 => Ok(NumSort::Int),
        _ => Err(PortableError(format!("number sort code {c}"))),
    }
}

/// Appends the words of term `t` of `store` to `out`; function symbols with ids below
/// `frontier` are written by id.
pub fn encode(store: &TermStore, frontier: u32, t: TermId, out: &mut Vec<u32>) {
    match store.get(t) {
        Term::Func(f) if f.0 < frontier && f.0 <= PAYLOAD => out.push(TAG_FUNC << 28 | f.0),
        Term::Func(f) => ext(out, &Ext::Func(store.func_of(*f).clone())),
        Term::App(head, args) => {
            out.push(TAG_APP << 28 | args.len() as u32);
            encode(store, frontier, *head, out);
            for &a in args.iter() {
                encode(store, frontier, a, out);
            }
        }
        Term::Num(s, v) if (0..SMALL_LIMIT).contains(v) => {
            out.push(TAG_SMALL << 28 | sort_code(*s) << 26 | *v as u32)
        }
        Term::Num(s, v) => ext(out, &Ext::Num(sort_code(*s) as u8, BigInt::from(*v))),
        Term::BigNum(s, v) => ext(out, &Ext::Num(sort_code(*s) as u8, (**v).clone())),
        Term::Real(r) => ext(out, &Ext::Real((**r).clone())),
        Term::Var(v) => ext(out, &Ext::Var(store.var_of(*v).clone())),
        Term::Binder(k, vars, body) => {
            let vars = vars.iter().map(|&v| store.var_of(v).clone()).collect();
            ext(out, &Ext::Binder(*k, vars));
            encode(store, frontier, *body, out);
        }
    }
}

fn ext(out: &mut Vec<u32>, e: &Ext) {
    let bytes = postcard::to_allocvec(e).expect("serialising to memory does not fail");
    out.push(TAG_EXT << 28);
    out.push(bytes.len() as u32);
    for chunk in bytes.chunks(4) {
        let mut w = [0u8; 4];
        w[..chunk.len()].copy_from_slice(chunk);
        out.push(u32::from_le_bytes(w));
    }
}

/// Rebuilds in `store` the term that starts at `words[*pos]`, and moves `pos` past it.
pub fn decode(
    store: &TermStore,
    frontier: u32,
    words: &[u32],
    pos: &mut usize,
) -> Result<TermId, PortableError> {
    let word = |pos: &mut usize| -> Result<u32, PortableError> {
        let w = *words
            .get(*pos)
            .ok_or_else(|| PortableError("the words end inside a term".into()))?;
        *pos += 1;
        Ok(w)
    };
    let w = word(pos)?;
    let payload = w & PAYLOAD;
    match w >> 28 {
        TAG_FUNC if payload < frontier => Ok(store.func(FuncId(payload))),
        TAG_FUNC => Err(PortableError(format!(
            "function symbol {payload} beyond the shared {frontier}"
        ))),
        TAG_APP => {
            let head = decode(store, frontier, words, pos)?;
            let mut args = Vec::with_capacity(payload as usize);
            for _ in 0..payload {
                args.push(decode(store, frontier, words, pos)?);
            }
            Ok(store.app(head, &args))
        }
        TAG_SMALL => Ok(store.num(
            sort_of_code(payload >> 26)?,
            (payload & ((1 << 26) - 1)) as i64,
        )),
        TAG_EXT => {
            let len = word(pos)? as usize;
            let n = len.div_ceil(4);
            let slice = words
                .get(*pos..*pos + n)
                .ok_or_else(|| PortableError("the words end inside a value".into()))?;
            *pos += n;
            let bytes: Vec<u8> = slice
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .take(len)
                .collect();
            let e: Ext = postcard::from_bytes(&bytes).map_err(|e| PortableError(e.to_string()))?;
            Ok(match e {
                Ext::Func(f) => store.func(store.intern_func(&f)),
                Ext::Num(s, v) => store.big_num(sort_of_code(s as u32)?, &v),
                Ext::Real(r) => store.real(&r),
                Ext::Var(v) => store.var(store.intern_var(&v)),
                Ext::Binder(k, vars) => {
                    let vars: Vec<_> = vars.iter().map(|v| store.intern_var(v)).collect();
                    let body = decode(store, frontier, words, pos)?;
                    store.binder(k, &vars, body)
                }
            })
        }
        t => Err(PortableError(format!("unknown tag {t}"))),
    }
}

/// A hash of the first `frontier` function symbols of `store` (names and sorts): equal on
/// every process that built its store from the same input, so that symbol ids may travel.
pub fn fingerprint(store: &TermStore, frontier: u32) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    frontier.hash(&mut h);
    for f in 0..frontier {
        store.func_of(FuncId(f)).hash(&mut h);
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::ir::Sort;

    fn roundtrip(src: &TermStore, frontier: u32, dst: &TermStore, t: TermId) -> TermId {
        let mut words = Vec::new();
        encode(src, frontier, t, &mut words);
        let mut pos = 0;
        let back = decode(dst, frontier, &words, &mut pos).expect("decodes");
        assert_eq!(pos, words.len(), "the whole encoding is read");
        back
    }

    /// Two stores built the same way, then one extended: values of every kind cross.
    #[test]
    fn values_cross_between_stores() {
        let build = || {
            let s = TermStore::new();
            let f = s.intern_func(&Func {
                name: "f".into(),
                sort: Sort::Bool,
            });
            (s, f)
        };
        let (a, fa) = build();
        let (b, fb) = build();
        assert_eq!(fa, fb);
        let frontier = a.func_count() as u32;
        assert_eq!(fingerprint(&a, frontier), fingerprint(&b, frontier));
        let late = a.intern_func(&Func {
            name: "late".into(),
            sort: Sort::Nat,
        });
        let terms = [
            a.func(fa),
            a.num(NumSort::Nat, 5),
            a.num(NumSort::Int, -7),
            a.num(NumSort::Pos, i64::MAX),
            a.big_num(NumSort::Int, &(BigInt::from(i64::MAX) * 1000)),
            a.real(&BigRational::new(BigInt::from(1), BigInt::from(3))),
            a.app(a.func(late), &[a.true_term(), a.num(NumSort::Nat, 1 << 27)]),
        ];
        for &t in &terms {
            let back = roundtrip(&a, frontier, &b, t);
            // Rebuilt in `b`, printed equal: compare through a second trip home.
            let home = roundtrip(&b, frontier, &a, back);
            assert_eq!(home, t, "{:?}", a.get(t));
        }
    }

    #[test]
    fn truncated_words_are_an_error() {
        let a = TermStore::new();
        let t = a.app(a.true_term(), &[a.false_term()]);
        let mut words = Vec::new();
        encode(&a, a.func_count() as u32, t, &mut words);
        words.pop();
        let mut pos = 0;
        assert!(decode(&a, a.func_count() as u32, &words, &mut pos).is_err());
    }
}
