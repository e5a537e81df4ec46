//! The term store: hash-consed (maximally shared) data terms with compact ids.
//!
//! See the module documentation of [`crate::data`] for the ownership and concurrency design.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::ToPrimitive;
use rustc_hash::{FxHashMap, FxHasher};

use super::ir::{Binder, Func, Sort, Var};

/// A term in a [`TermStore`]. Two ids of one store are equal iff the terms are equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TermId(pub u32);

/// An interned function symbol (name and sort) of a [`TermStore`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

/// An interned data variable (name and sort) of a [`TermStore`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// The integral number sorts, whose values are stored as machine words when they fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NumSort {
    /// `Pos`.
    Pos,
    /// `Nat`.
    Nat,
    /// `Int`.
    Int,
}

impl NumSort {
    /// The IR sort.
    pub fn sort(self) -> Sort {
        match self {
            NumSort::Pos => Sort::Pos,
            NumSort::Nat => Sort::Nat,
            NumSort::Int => Sort::Int,
        }
    }

    /// The number sort of an IR sort, if it is `Pos`, `Nat` or `Int`.
    pub fn of(sort: &Sort) -> Option<NumSort> {
        match sort {
            Sort::Pos => Some(NumSort::Pos),
            Sort::Nat => Some(NumSort::Nat),
            Sort::Int => Some(NumSort::Int),
            _ => None,
        }
    }
}

/// The shape of a term. Values of `Pos`, `Nat` and `Int` are machine words ([`Term::Num`])
/// and only become [`Term::BigNum`] when they do not fit in an `i64`; the store keeps this
/// canonical so that id equality stays value equality.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// A variable.
    Var(VarId),
    /// A function symbol or constant.
    Func(FuncId),
    /// An application `head(args…)` (at least one argument, except for internal variadic
    /// constructors of finite sets and bags, which may have none).
    App(TermId, Box<[TermId]>),
    /// A `Pos`, `Nat` or `Int` value that fits in an `i64`.
    Num(NumSort, i64),
    /// A `Pos`, `Nat` or `Int` value that does not fit in an `i64`.
    BigNum(NumSort, Box<BigInt>),
    /// A `Real` value: an exact rational in lowest terms.
    Real(Box<BigRational>),
    /// `lambda`, `forall`, `exists` or a comprehension, with its bound variables and body.
    Binder(Binder, Box<[VarId]>, TermId),
}

/// A borrowed term used for look-ups without allocating.
enum TermRef<'a> {
    Var(VarId),
    Func(FuncId),
    App(TermId, &'a [TermId]),
    Num(NumSort, i64),
    BigNum(NumSort, &'a BigInt),
    Real(&'a BigRational),
    Binder(Binder, &'a [VarId], TermId),
}

impl TermRef<'_> {
    fn hash64(&self) -> u64 {
        let mut h = FxHasher::default();
        match self {
            TermRef::Var(v) => (0u8, v).hash(&mut h),
            TermRef::Func(f) => (1u8, f).hash(&mut h),
            TermRef::App(hd, args) => (2u8, hd, *args).hash(&mut h),
            TermRef::Num(s, n) => (3u8, s, n).hash(&mut h),
            TermRef::BigNum(s, n) => (4u8, s, *n).hash(&mut h),
            TermRef::Real(r) => (5u8, *r).hash(&mut h),
            TermRef::Binder(b, vs, body) => (6u8, b, *vs, body).hash(&mut h),
        }
        // FxHash is weak on short integer sequences: finish with a full avalanche
        // (murmur3's fmix64) so both the shard index and the table probe are well spread.
        let mut x = h.finish();
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }

    fn matches(&self, t: &Term) -> bool {
        match (self, t) {
            (TermRef::Var(a), Term::Var(b)) => a == b,
            (TermRef::Func(a), Term::Func(b)) => a == b,
            (TermRef::App(h, a), Term::App(h2, b)) => h == h2 && *a == &**b,
            (TermRef::Num(s, a), Term::Num(s2, b)) => s == s2 && a == b,
            (TermRef::BigNum(s, a), Term::BigNum(s2, b)) => s == s2 && *a == &**b,
            (TermRef::Real(a), Term::Real(b)) => *a == &**b,
            (TermRef::Binder(k, v, b), Term::Binder(k2, v2, b2)) => {
                k == k2 && *v == &**v2 && b == b2
            }
            _ => false,
        }
    }

    fn to_owned(&self) -> Term {
        match *self {
            TermRef::Var(v) => Term::Var(v),
            TermRef::Func(f) => Term::Func(f),
            TermRef::App(h, a) => Term::App(h, a.into()),
            TermRef::Num(s, n) => Term::Num(s, n),
            TermRef::BigNum(s, n) => Term::BigNum(s, Box::new(n.clone())),
            TermRef::Real(r) => Term::Real(Box::new(r.clone())),
            TermRef::Binder(k, v, b) => Term::Binder(k, v.into(), b),
        }
    }
}

/// A stored term with facts computed once at interning time.
#[derive(Debug)]
struct Node {
    term: Term,
    /// No free variables.
    closed: bool,
}

/// Chunks grow geometrically (1024, 2048, …) so the first allocation is small and the table
/// can hold 2^32 entries; slots are `OnceLock`s so that readers never take a lock.
const MIN_BITS: u32 = 10;
const NUM_CHUNKS: usize = 33 - MIN_BITS as usize;

/// A chunk of slots, allocated once.
type Chunk<T> = OnceLock<Box<[OnceLock<T>]>>;

/// An append-only table with lock-free reads: an index, once published, never moves.
struct Table<T> {
    chunks: Box<[Chunk<T>]>,
    len: AtomicU32,
}

impl<T> Table<T> {
    fn new() -> Self {
        Table {
            chunks: (0..NUM_CHUNKS).map(|_| OnceLock::new()).collect(),
            len: AtomicU32::new(0),
        }
    }

    #[inline]
    fn locate(i: u32) -> (usize, usize) {
        let v = i as u64 + (1u64 << MIN_BITS);
        let bit = 63 - v.leading_zeros();
        ((bit - MIN_BITS) as usize, (v - (1u64 << bit)) as usize)
    }

    /// Appends `value`; the caller holds the lock that makes the index unique for its key.
    fn push(&self, value: T) -> Option<u32> {
        let i = self.len.fetch_add(1, Ordering::Relaxed);
        if i == u32::MAX {
            return None;
        }
        let (c, o) = Self::locate(i);
        let chunk = self.chunks[c].get_or_init(|| {
            (0..(1usize << (c as u32 + MIN_BITS)))
                .map(|_| OnceLock::new())
                .collect()
        });
        // The slot is fresh: `i` came from the atomic counter.
        let _ = chunk[o].set(value);
        Some(i)
    }

    #[inline]
    fn get(&self, i: u32) -> &T {
        let (c, o) = Self::locate(i);
        self.chunks[c]
            .get()
            .and_then(|ch| ch[o].get())
            .expect("term id of another store or not yet published")
    }

    fn len(&self) -> u32 {
        self.len.load(Ordering::Acquire)
    }
}

const SHARDS: usize = 32;

/// Numbers below this have their ids cached per sort ([`TermStore::num`]).
const SMALL_NUMS: usize = 1024;

/// Hasher for keys that are already well-mixed 64-bit hashes.
#[derive(Default, Clone, Copy)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type IdMap<V> = std::collections::HashMap<u64, V, std::hash::BuildHasherDefault<IdHasher>>;

/// One shard of the interning table: hash → id (compact entries, so probing stays in
/// cache); the rare second term with the same 64-bit hash goes to `overflow`.
#[derive(Default)]
struct Shard {
    map: IdMap<TermId>,
    overflow: IdMap<Vec<TermId>>,
}

/// Errors of the term store.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// More than 2^32 - 1 distinct terms.
    #[error("the term store is full (2^32 distinct terms)")]
    Full,
}

/// The shared store of hash-consed terms, function symbols and variables.
///
/// It is `Send + Sync`: interning takes `&self` and locks one of 32 shards chosen by the
/// term's hash; reading a term ([`TermStore::get`]) takes no lock at all. Terms are never
/// freed while the store lives (see the module documentation of [`crate::data`]).
pub struct TermStore {
    nodes: Table<Node>,
    shards: Box<[Mutex<Shard>]>,
    funcs: Table<Func>,
    func_ids: Mutex<FxHashMap<Func, FuncId>>,
    vars: Table<Var>,
    var_ids: Mutex<FxHashMap<Var, VarId>>,
    /// The ids of the numbers `0..SMALL_NUMS` of each [`NumSort`], filled at first use
    /// (`u32::MAX`: not yet): counters and indices are interned over and over, and a hash
    /// look-up under a shard lock costs some 150 instructions where this is one load.
    small: Box<[AtomicU32]>,
    /// Values that live as long as the store ([`TermStore::keep`]).
    kept: Table<Box<dyn std::any::Any + Send + Sync>>,
    true_: TermId,
    false_: TermId,
}

impl Default for TermStore {
    fn default() -> Self {
        TermStore::new()
    }
}

impl std::fmt::Debug for TermStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TermStore({} terms)", self.len())
    }
}

impl TermStore {
    /// An empty store (with `true` and `false` pre-interned).
    pub fn new() -> TermStore {
        let mut s = TermStore {
            nodes: Table::new(),
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
            funcs: Table::new(),
            func_ids: Mutex::new(FxHashMap::default()),
            vars: Table::new(),
            var_ids: Mutex::new(FxHashMap::default()),
            small: (0..3 * SMALL_NUMS)
                .map(|_| AtomicU32::new(u32::MAX))
                .collect(),
            kept: Table::new(),
            true_: TermId(0),
            false_: TermId(0),
        };
        let t = s.intern_func(&Func {
            name: "true".into(),
            sort: Sort::Bool,
        });
        let f = s.intern_func(&Func {
            name: "false".into(),
            sort: Sort::Bool,
        });
        s.true_ = s.func(t);
        s.false_ = s.func(f);
        s
    }

    /// Keeps `value` for as long as the store lives and lends it out for that long: what is
    /// built over the store's terms and shared by every context using it (a rewriter's
    /// compiled equations) is freed with the store, not leaked, and read without reference
    /// counting.
    pub fn keep<T: std::any::Any + Send + Sync>(&self, value: T) -> &T {
        let i = self
            .kept
            .push(Box::new(value))
            .expect("fewer than 2^32 values kept");
        self.kept
            .get(i)
            .downcast_ref::<T>()
            .expect("the value just kept")
    }

    /// Number of distinct terms interned so far.
    pub fn len(&self) -> usize {
        self.nodes.len() as usize
    }

    /// Whether no term was interned (never true: `true` and `false` always exist).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The term `true`.
    pub fn true_term(&self) -> TermId {
        self.true_
    }

    /// The term `false`.
    pub fn false_term(&self) -> TermId {
        self.false_
    }

    /// The Boolean constant for `b`.
    pub fn bool_term(&self, b: bool) -> TermId {
        if b {
            self.true_
        } else {
            self.false_
        }
    }

    /// The shape of term `t`.
    #[inline]
    pub fn get(&self, t: TermId) -> &Term {
        &self.nodes.get(t.0).term
    }

    /// Whether `t` has no free variables.
    #[inline]
    pub fn is_closed(&self, t: TermId) -> bool {
        self.nodes.get(t.0).closed
    }

    /// Interns a function symbol.
    pub fn intern_func(&self, f: &Func) -> FuncId {
        let mut map = self.func_ids.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = map.get(f) {
            return id;
        }
        let id = FuncId(
            self.funcs
                .push(f.clone())
                .expect("too many function symbols"),
        );
        map.insert(f.clone(), id);
        id
    }

    /// The function symbol with id `f`.
    pub fn func_of(&self, f: FuncId) -> &Func {
        self.funcs.get(f.0)
    }

    /// Interns a variable.
    pub fn intern_var(&self, v: &Var) -> VarId {
        let mut map = self.var_ids.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = map.get(v) {
            return id;
        }
        let id = VarId(self.vars.push(v.clone()).expect("too many variables"));
        map.insert(v.clone(), id);
        id
    }

    /// The variable with id `v`.
    pub fn var_of(&self, v: VarId) -> &Var {
        self.vars.get(v.0)
    }

    /// Number of interned variables (ids are `0..n`).
    pub fn var_count(&self) -> usize {
        self.vars.len() as usize
    }

    /// Number of interned function symbols (ids are `0..n`).
    pub fn func_count(&self) -> usize {
        self.funcs.len() as usize
    }

    fn intern(&self, key: TermRef<'_>) -> TermId {
        let h = key.hash64();
        let shard = &self.shards[(h >> 59) as usize % SHARDS];
        let mut guard = shard.lock().unwrap_or_else(|e| e.into_inner());
        let sh = &mut *guard;
        let collision = match sh.map.get(&h) {
            None => false,
            Some(&id) => {
                if key.matches(&self.nodes.get(id.0).term) {
                    return id;
                }
                if let Some(ids) = sh.overflow.get(&h) {
                    for &id in ids {
                        if key.matches(&self.nodes.get(id.0).term) {
                            return id;
                        }
                    }
                }
                true
            }
        };
        let closed = match &key {
            TermRef::Var(_) => false,
            TermRef::Func(_) | TermRef::Num(..) | TermRef::BigNum(..) | TermRef::Real(_) => true,
            TermRef::App(hd, args) => {
                self.is_closed(*hd) && args.iter().all(|a| self.is_closed(*a))
            }
            TermRef::Binder(_, vs, body) => {
                self.is_closed(*body) || self.free_vars(*body).iter().all(|v| vs.contains(v))
            }
        };
        let node = Node {
            term: key.to_owned(),
            closed,
        };
        // Publishing the slot before the shard lock is released guarantees that whoever
        // finds this id in the map can read its node.
        let id = TermId(
            self.nodes
                .push(node)
                .expect("the term store is full (2^32 terms)"),
        );
        if collision {
            sh.overflow.entry(h).or_default().push(id);
        } else {
            sh.map.insert(h, id);
        }
        id
    }

    /// The variable term `v`.
    pub fn var(&self, v: VarId) -> TermId {
        self.intern(TermRef::Var(v))
    }

    /// The constant / function symbol term `f`.
    pub fn func(&self, f: FuncId) -> TermId {
        self.intern(TermRef::Func(f))
    }

    /// The application `head(args…)`.
    pub fn app(&self, head: TermId, args: &[TermId]) -> TermId {
        self.intern(TermRef::App(head, args))
    }

    /// The application of function symbol `f` to `args` (the constant `f` if `args` is empty).
    pub fn app_func(&self, f: FuncId, args: &[TermId]) -> TermId {
        let h = self.func(f);
        if args.is_empty() {
            h
        } else {
            self.app(h, args)
        }
    }

    /// An integral number of sort `sort` (canonical: a machine word when it fits).
    pub fn num(&self, sort: NumSort, value: i64) -> TermId {
        let slot = match usize::try_from(value) {
            Ok(i) if i < SMALL_NUMS => &self.small[sort as usize * SMALL_NUMS + i],
            _ => return self.intern(TermRef::Num(sort, value)),
        };
        // Acquire/release: whoever reads the id also sees the published node (interning
        // publishes it before returning; two threads that both miss store the same id).
        let id = slot.load(Ordering::Acquire);
        if id != u32::MAX {
            return TermId(id);
        }
        let t = self.intern(TermRef::Num(sort, value));
        slot.store(t.0, Ordering::Release);
        t
    }

    /// An integral number given as a big integer (stored as a machine word when it fits).
    pub fn big_num(&self, sort: NumSort, value: &BigInt) -> TermId {
        match value.to_i64() {
            Some(v) => self.num(sort, v),
            None => self.intern(TermRef::BigNum(sort, value)),
        }
    }

    /// A `Real` value (reduced to lowest terms by `BigRational`'s invariants).
    pub fn real(&self, value: &BigRational) -> TermId {
        self.intern(TermRef::Real(value))
    }

    /// A binder term.
    pub fn binder(&self, kind: Binder, vars: &[VarId], body: TermId) -> TermId {
        self.intern(TermRef::Binder(kind, vars, body))
    }

    /// The free variables of `t`, without duplicates, in order of first occurrence.
    pub fn free_vars(&self, t: TermId) -> Vec<VarId> {
        let mut out = Vec::new();
        self.collect_free(t, &mut Vec::new(), &mut out);
        out
    }

    fn collect_free(&self, t: TermId, bound: &mut Vec<VarId>, out: &mut Vec<VarId>) {
        if self.is_closed(t) {
            return;
        }
        match self.get(t) {
            Term::Var(v) if !bound.contains(v) && !out.contains(v) => {
                out.push(*v);
            }
            Term::App(h, args) => {
                self.collect_free(*h, bound, out);
                for a in args.iter() {
                    self.collect_free(*a, bound, out);
                }
            }
            Term::Binder(_, vs, body) => {
                let n = bound.len();
                bound.extend(vs.iter().copied());
                self.collect_free(*body, bound, out);
                bound.truncate(n);
            }
            _ => {}
        }
    }

    /// Whether variable `v` occurs free in `t`.
    pub fn occurs_free(&self, v: VarId, t: TermId) -> bool {
        if self.is_closed(t) {
            return false;
        }
        match self.get(t) {
            Term::Var(w) => *w == v,
            Term::App(h, args) => {
                self.occurs_free(v, *h) || args.iter().any(|a| self.occurs_free(v, *a))
            }
            Term::Binder(_, vs, body) => !vs.contains(&v) && self.occurs_free(v, *body),
            _ => false,
        }
    }

    /// The head function symbol of `t` and its arguments, if `t` is `f` or `f(args…)`.
    #[inline]
    pub fn as_func_app(&self, t: TermId) -> Option<(FuncId, &[TermId])> {
        match self.get(t) {
            Term::Func(f) => Some((*f, &[])),
            Term::App(h, args) => match self.get(*h) {
                Term::Func(f) => Some((*f, args)),
                _ => None,
            },
            _ => None,
        }
    }

    /// The sort of `t`, borrowed from the interned symbol where possible (no allocation).
    pub fn sort_ref(&self, t: TermId) -> std::borrow::Cow<'_, Sort> {
        use std::borrow::Cow;
        static POS: Sort = Sort::Pos;
        static NAT: Sort = Sort::Nat;
        static INT: Sort = Sort::Int;
        static REAL: Sort = Sort::Real;
        match self.get(t) {
            Term::Var(v) => Cow::Borrowed(&self.var_of(*v).sort),
            Term::Func(f) => Cow::Borrowed(&self.func_of(*f).sort),
            Term::App(h, _) => match self.sort_ref(*h) {
                Cow::Borrowed(s) => Cow::Borrowed(s.codomain()),
                Cow::Owned(s) => Cow::Owned(s.codomain().clone()),
            },
            Term::Num(s, _) | Term::BigNum(s, _) => Cow::Borrowed(match s {
                NumSort::Pos => &POS,
                NumSort::Nat => &NAT,
                NumSort::Int => &INT,
            }),
            Term::Real(_) => Cow::Borrowed(&REAL),
            Term::Binder(..) => Cow::Owned(self.sort_of(t)),
        }
    }

    /// The sort of `t`.
    pub fn sort_of(&self, t: TermId) -> Sort {
        match self.get(t) {
            Term::Var(v) => self.var_of(*v).sort.clone(),
            Term::Func(f) => self.func_of(*f).sort.clone(),
            Term::App(h, _) => self.sort_of(*h).codomain().clone(),
            Term::Num(s, _) | Term::BigNum(s, _) => s.sort(),
            Term::Real(_) => Sort::Real,
            Term::Binder(kind, vs, body) => {
                let elem = || self.var_of(vs[0]).sort.clone();
                match kind {
                    Binder::Lambda => Sort::Arrow(
                        vs.iter().map(|v| self.var_of(*v).sort.clone()).collect(),
                        Box::new(self.sort_of(*body)),
                    ),
                    Binder::Forall | Binder::Exists => Sort::Bool,
                    Binder::SetComprehension => Sort::Set(Box::new(elem())),
                    Binder::BagComprehension => Sort::Bag(Box::new(elem())),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_consing_gives_equal_ids() {
        let s = TermStore::new();
        let f = s.intern_func(&Func {
            name: "f".into(),
            sort: Sort::Arrow(vec![Sort::Nat], Box::new(Sort::Nat)),
        });
        let a = s.num(NumSort::Nat, 3);
        let t1 = s.app_func(f, &[a]);
        let t2 = s.app_func(f, &[s.num(NumSort::Nat, 3)]);
        assert_eq!(t1, t2);
        assert_ne!(s.num(NumSort::Nat, 3), s.num(NumSort::Pos, 3));
        let big = BigInt::from(i64::MAX) * 4;
        assert_eq!(s.big_num(NumSort::Int, &big), s.big_num(NumSort::Int, &big));
        assert_eq!(
            s.big_num(NumSort::Int, &BigInt::from(7)),
            s.num(NumSort::Int, 7)
        );
        assert!(s.is_closed(t1));
    }

    /// The cached ids of small numbers are the interned ones, per sort, on a miss and a hit.
    #[test]
    fn small_numbers_are_cached_as_interned() {
        let s = TermStore::new();
        for sort in [NumSort::Pos, NumSort::Nat, NumSort::Int] {
            for v in [-1, 0, 1, 7, SMALL_NUMS as i64 - 1, SMALL_NUMS as i64] {
                let first = s.num(sort, v);
                assert_eq!(s.num(sort, v), first);
                assert_eq!(s.intern(TermRef::Num(sort, v)), first);
                assert_eq!(s.get(first), &Term::Num(sort, v));
            }
        }
        assert_ne!(s.num(NumSort::Nat, 7), s.num(NumSort::Int, 7));
    }

    #[test]
    fn table_grows_across_chunks_and_threads() {
        let s = TermStore::new();
        let ids: Vec<Vec<TermId>> = std::thread::scope(|sc| {
            let hs: Vec<_> = (0..4)
                .map(|_| sc.spawn(|| (0..5000).map(|i| s.num(NumSort::Nat, i)).collect()))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for v in &ids[1..] {
            assert_eq!(v, &ids[0]);
        }
        for (i, t) in ids[0].iter().enumerate() {
            assert_eq!(s.get(*t), &Term::Num(NumSort::Nat, i as i64));
        }
    }
}
