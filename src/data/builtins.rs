//! The catalog of mCRL2's built-in functions with their signatures, as mCRL2's data type
//! reference (the `.spec` files of its data library) gives them.
//!
//! Only names a user can write are listed (plus `@func_update`, the target of `f[x -> v]`);
//! mCRL2's internal helpers (`@cDub`, `@cNat`, …) are an implementation choice of its
//! rewriter, not part of the language. Container operations are generic in an element sort
//! `S` (and `@func_update` in a second sort `T`); [`BuiltinSig::instantiate`] turns a
//! signature into the concrete [`Func`] the type checker puts in the IR.
//!
//! The type checker resolves overloading against this table; the data engine gives every
//! entry its meaning, and a test checks that it does so for each one.

use std::sync::{Arc, OnceLock};

use crate::data::ir::{Func, Name, Sort};

/// A sort in a built-in signature: a [`Sort`] that may mention the sort parameters `S`
/// (index 0) and `T` (index 1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SortPat {
    /// `Bool`.
    Bool,
    /// `Pos`.
    Pos,
    /// `Nat`.
    Nat,
    /// `Int`.
    Int,
    /// `Real`.
    Real,
    /// Sort parameter: 0 is `S`, 1 is `T`.
    Param(u8),
    /// `List(_)`.
    List(Box<SortPat>),
    /// `Set(_)`.
    Set(Box<SortPat>),
    /// `FSet(_)`.
    FSet(Box<SortPat>),
    /// `Bag(_)`.
    Bag(Box<SortPat>),
    /// `FBag(_)`.
    FBag(Box<SortPat>),
    /// `D1 # … # Dn -> C`.
    Arrow(Vec<SortPat>, Box<SortPat>),
}

impl SortPat {
    /// The sort with every parameter `i` replaced by `params[i]` (a missing parameter
    /// becomes `Bool`, which never happens for a well-formed call).
    pub fn instantiate(&self, params: &[Sort]) -> Sort {
        match self {
            SortPat::Bool => Sort::Bool,
            SortPat::Pos => Sort::Pos,
            SortPat::Nat => Sort::Nat,
            SortPat::Int => Sort::Int,
            SortPat::Real => Sort::Real,
            SortPat::Param(i) => params.get(*i as usize).cloned().unwrap_or(Sort::Bool),
            SortPat::List(s) => Sort::List(Box::new(s.instantiate(params))),
            SortPat::Set(s) => Sort::Set(Box::new(s.instantiate(params))),
            SortPat::FSet(s) => Sort::FSet(Box::new(s.instantiate(params))),
            SortPat::Bag(s) => Sort::Bag(Box::new(s.instantiate(params))),
            SortPat::FBag(s) => Sort::FBag(Box::new(s.instantiate(params))),
            SortPat::Arrow(d, c) => Sort::Arrow(
                d.iter().map(|s| s.instantiate(params)).collect(),
                Box::new(c.instantiate(params)),
            ),
        }
    }

    /// Binds the parameters of this pattern so that it equals `sort`, extending `binding`;
    /// false when it cannot.
    pub fn matches(&self, sort: &Sort, binding: &mut Vec<Option<Sort>>) -> bool {
        match (self, sort) {
            (SortPat::Bool, Sort::Bool)
            | (SortPat::Pos, Sort::Pos)
            | (SortPat::Nat, Sort::Nat)
            | (SortPat::Int, Sort::Int)
            | (SortPat::Real, Sort::Real) => true,
            (SortPat::Param(i), s) => {
                let i = *i as usize;
                if binding.len() <= i {
                    binding.resize(i + 1, None);
                }
                match &binding[i] {
                    Some(b) => b == s,
                    None => {
                        binding[i] = Some(s.clone());
                        true
                    }
                }
            }
            (SortPat::List(p), Sort::List(s))
            | (SortPat::Set(p), Sort::Set(s))
            | (SortPat::FSet(p), Sort::FSet(s))
            | (SortPat::Bag(p), Sort::Bag(s))
            | (SortPat::FBag(p), Sort::FBag(s)) => p.matches(s, binding),
            (SortPat::Arrow(pd, pc), Sort::Arrow(sd, sc)) => {
                pd.len() == sd.len()
                    && pd.iter().zip(sd).all(|(p, s)| p.matches(s, binding))
                    && pc.matches(sc, binding)
            }
            _ => false,
        }
    }

    /// The number of sort parameters mentioned (highest index + 1).
    pub fn param_count(&self) -> usize {
        match self {
            SortPat::Param(i) => *i as usize + 1,
            SortPat::List(s)
            | SortPat::Set(s)
            | SortPat::FSet(s)
            | SortPat::Bag(s)
            | SortPat::FBag(s) => s.param_count(),
            SortPat::Arrow(d, c) => d
                .iter()
                .map(SortPat::param_count)
                .chain(std::iter::once(c.param_count()))
                .max()
                .unwrap_or(0),
            _ => 0,
        }
    }
}

impl std::fmt::Display for SortPat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SortPat::Bool => f.write_str("Bool"),
            SortPat::Pos => f.write_str("Pos"),
            SortPat::Nat => f.write_str("Nat"),
            SortPat::Int => f.write_str("Int"),
            SortPat::Real => f.write_str("Real"),
            SortPat::Param(0) => f.write_str("S"),
            SortPat::Param(_) => f.write_str("T"),
            SortPat::List(s) => write!(f, "List({s})"),
            SortPat::Set(s) => write!(f, "Set({s})"),
            SortPat::FSet(s) => write!(f, "FSet({s})"),
            SortPat::Bag(s) => write!(f, "Bag({s})"),
            SortPat::FBag(s) => write!(f, "FBag({s})"),
            SortPat::Arrow(d, c) => {
                f.write_str("(")?;
                for (i, s) in d.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" # ")?;
                    }
                    write!(f, "{s}")?;
                }
                write!(f, " -> {c})")
            }
        }
    }
}

/// Which family of the data type reference an entry belongs to (for documentation and for
/// grouping in the data engine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Defined on every sort: `==`, `!=`, `<`, `<=`, `>`, `>=`, `if`.
    Generic,
    /// `Bool`.
    Bool,
    /// `Pos`, `Nat`, `Int`, `Real` and the conversions between them.
    Number,
    /// `List(S)`.
    List,
    /// `Set(S)`.
    Set,
    /// `FSet(S)`.
    FSet,
    /// `Bag(S)`.
    Bag,
    /// `FBag(S)`.
    FBag,
    /// Function sorts: `@func_update`.
    Function,
}

/// One signature of a built-in function or constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BuiltinSig {
    /// mCRL2's surface name (`+`, `div`, `head`, `[]`, …).
    pub name: &'static str,
    /// Argument sorts; empty for a constant.
    pub params: Vec<SortPat>,
    /// Result sort.
    pub result: SortPat,
    /// The family it belongs to.
    pub family: Family,
}

impl BuiltinSig {
    /// The number of sort parameters (`S`, `T`) the signature is generic in.
    pub fn sort_params(&self) -> usize {
        self.params
            .iter()
            .map(SortPat::param_count)
            .chain(std::iter::once(self.result.param_count()))
            .max()
            .unwrap_or(0)
    }

    /// The signature's sort as a pattern: an arrow, or the result sort for a constant.
    pub fn sort_pattern(&self) -> SortPat {
        if self.params.is_empty() {
            self.result.clone()
        } else {
            SortPat::Arrow(self.params.clone(), Box::new(self.result.clone()))
        }
    }

    /// The function symbol for sort parameters `params` (`S`, then `T`).
    pub fn instantiate(&self, params: &[Sort]) -> Func {
        Func {
            name: Name::from(self.name),
            sort: self.sort_pattern().instantiate(params),
        }
    }

    /// If `func` is an instance of this signature, the binding of its sort parameters.
    pub fn match_func(&self, func: &Func) -> Option<Vec<Sort>> {
        if &*func.name != self.name {
            return None;
        }
        let mut binding = Vec::new();
        if !self.sort_pattern().matches(&func.sort, &mut binding) {
            return None;
        }
        let n = self.sort_params();
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            out.push(binding.get(i).cloned().flatten()?);
        }
        Some(out)
    }
}

impl std::fmt::Display for BuiltinSig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.name)?;
        for (i, p) in self.params.iter().enumerate() {
            if i > 0 {
                f.write_str(" # ")?;
            }
            write!(f, "{p}")?;
        }
        if !self.params.is_empty() {
            f.write_str(" -> ")?;
        }
        write!(f, "{}", self.result)
    }
}

/// The whole catalog: `(name, "D1 # … # Dn -> C")` per family, in mCRL2's order. Sorts are
/// written as in mCRL2 with `S` and `T` for the sort parameters.
const TABLE: &[(Family, &[(&str, &str)])] = &[
    (
        Family::Generic,
        &[
            ("==", "S # S -> Bool"),
            ("!=", "S # S -> Bool"),
            ("<", "S # S -> Bool"),
            ("<=", "S # S -> Bool"),
            (">", "S # S -> Bool"),
            (">=", "S # S -> Bool"),
            ("if", "Bool # S # S -> S"),
        ],
    ),
    (
        Family::Bool,
        &[
            ("true", "Bool"),
            ("false", "Bool"),
            ("!", "Bool -> Bool"),
            ("&&", "Bool # Bool -> Bool"),
            ("||", "Bool # Bool -> Bool"),
            ("=>", "Bool # Bool -> Bool"),
        ],
    ),
    (
        Family::Number,
        &[
            // Pos
            ("max", "Pos # Pos -> Pos"),
            ("min", "Pos # Pos -> Pos"),
            ("abs", "Pos -> Pos"),
            ("succ", "Pos -> Pos"),
            ("+", "Pos # Pos -> Pos"),
            ("*", "Pos # Pos -> Pos"),
            // Nat
            ("Pos2Nat", "Pos -> Nat"),
            ("Nat2Pos", "Nat -> Pos"),
            ("max", "Pos # Nat -> Pos"),
            ("max", "Nat # Pos -> Pos"),
            ("max", "Nat # Nat -> Nat"),
            ("min", "Nat # Nat -> Nat"),
            ("abs", "Nat -> Nat"),
            ("succ", "Nat -> Pos"),
            ("pred", "Pos -> Nat"),
            ("+", "Pos # Nat -> Pos"),
            ("+", "Nat # Pos -> Pos"),
            ("+", "Nat # Nat -> Nat"),
            ("*", "Nat # Nat -> Nat"),
            ("div", "Pos # Pos -> Nat"),
            ("div", "Nat # Pos -> Nat"),
            ("mod", "Pos # Pos -> Nat"),
            ("mod", "Nat # Pos -> Nat"),
            ("exp", "Pos # Nat -> Pos"),
            ("exp", "Nat # Nat -> Nat"),
            ("sqrt", "Nat -> Nat"),
            // Int
            ("Nat2Int", "Nat -> Int"),
            ("Int2Nat", "Int -> Nat"),
            ("Pos2Int", "Pos -> Int"),
            ("Int2Pos", "Int -> Pos"),
            ("max", "Pos # Int -> Pos"),
            ("max", "Int # Pos -> Pos"),
            ("max", "Nat # Int -> Nat"),
            ("max", "Int # Nat -> Nat"),
            ("max", "Int # Int -> Int"),
            ("min", "Int # Int -> Int"),
            ("abs", "Int -> Nat"),
            ("-", "Pos -> Int"),
            ("-", "Nat -> Int"),
            ("-", "Int -> Int"),
            ("succ", "Int -> Int"),
            ("pred", "Nat -> Int"),
            ("pred", "Int -> Int"),
            ("+", "Int # Int -> Int"),
            ("-", "Pos # Pos -> Int"),
            ("-", "Nat # Nat -> Int"),
            ("-", "Int # Int -> Int"),
            ("*", "Int # Int -> Int"),
            ("div", "Int # Pos -> Int"),
            ("mod", "Int # Pos -> Nat"),
            ("exp", "Int # Nat -> Int"),
            // Real
            ("Pos2Real", "Pos -> Real"),
            ("Nat2Real", "Nat -> Real"),
            ("Int2Real", "Int -> Real"),
            ("Real2Pos", "Real -> Pos"),
            ("Real2Nat", "Real -> Nat"),
            ("Real2Int", "Real -> Int"),
            ("max", "Real # Real -> Real"),
            ("min", "Real # Real -> Real"),
            ("abs", "Real -> Real"),
            ("-", "Real -> Real"),
            ("succ", "Real -> Real"),
            ("pred", "Real -> Real"),
            ("+", "Real # Real -> Real"),
            ("-", "Real # Real -> Real"),
            ("*", "Real # Real -> Real"),
            ("exp", "Real # Int -> Real"),
            ("/", "Pos # Pos -> Real"),
            ("/", "Nat # Nat -> Real"),
            ("/", "Int # Int -> Real"),
            ("/", "Real # Real -> Real"),
            ("floor", "Real -> Int"),
            ("ceil", "Real -> Int"),
            ("round", "Real -> Int"),
        ],
    ),
    (
        Family::List,
        &[
            ("[]", "List(S)"),
            ("|>", "S # List(S) -> List(S)"),
            ("in", "S # List(S) -> Bool"),
            ("#", "List(S) -> Nat"),
            ("<|", "List(S) # S -> List(S)"),
            ("++", "List(S) # List(S) -> List(S)"),
            (".", "List(S) # Nat -> S"),
            ("head", "List(S) -> S"),
            ("tail", "List(S) -> List(S)"),
            ("rhead", "List(S) -> S"),
            ("rtail", "List(S) -> List(S)"),
        ],
    ),
    (
        Family::Set,
        &[
            ("{}", "Set(S)"),
            ("in", "S # Set(S) -> Bool"),
            ("!", "Set(S) -> Set(S)"),
            ("+", "Set(S) # Set(S) -> Set(S)"),
            ("*", "Set(S) # Set(S) -> Set(S)"),
            ("-", "Set(S) # Set(S) -> Set(S)"),
            // The implicit conversion of a finite set where a set is needed (mCRL2 inserts it
            // as its `@set(@false_, s)`); not writable by users.
            ("@setfset", "FSet(S) -> Set(S)"),
        ],
    ),
    (
        Family::FSet,
        &[
            ("{}", "FSet(S)"),
            ("in", "S # FSet(S) -> Bool"),
            ("+", "FSet(S) # FSet(S) -> FSet(S)"),
            ("*", "FSet(S) # FSet(S) -> FSet(S)"),
            ("-", "FSet(S) # FSet(S) -> FSet(S)"),
            ("#", "FSet(S) -> Nat"),
            ("pick", "FSet(S) -> S"),
        ],
    ),
    (
        Family::Bag,
        &[
            ("{:}", "Bag(S)"),
            ("count", "S # Bag(S) -> Nat"),
            ("in", "S # Bag(S) -> Bool"),
            ("+", "Bag(S) # Bag(S) -> Bag(S)"),
            ("*", "Bag(S) # Bag(S) -> Bag(S)"),
            ("-", "Bag(S) # Bag(S) -> Bag(S)"),
            ("Bag2Set", "Bag(S) -> Set(S)"),
            ("Set2Bag", "Set(S) -> Bag(S)"),
            // The implicit conversion of a finite bag where a bag is needed.
            ("@bagfbag", "FBag(S) -> Bag(S)"),
        ],
    ),
    (
        Family::FBag,
        &[
            ("{:}", "FBag(S)"),
            ("count", "S # FBag(S) -> Nat"),
            ("in", "S # FBag(S) -> Bool"),
            ("+", "FBag(S) # FBag(S) -> FBag(S)"),
            ("*", "FBag(S) # FBag(S) -> FBag(S)"),
            ("-", "FBag(S) # FBag(S) -> FBag(S)"),
            ("#", "FBag(S) -> Nat"),
            ("pick", "FBag(S) -> S"),
        ],
    ),
    (
        Family::Function,
        &[("@func_update", "(S -> T) # S # T -> (S -> T)")],
    ),
];

/// A tiny recursive-descent reader for the signature strings of [`TABLE`].
struct SigReader<'a> {
    toks: Vec<&'a str>,
    pos: usize,
}

impl<'a> SigReader<'a> {
    fn new(text: &'a str) -> Self {
        let mut toks = Vec::new();
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_whitespace() {
                i += 1;
            } else if c.is_ascii_alphabetic() {
                let s = i;
                while i < b.len() && b[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                toks.push(&text[s..i]);
            } else if text[i..].starts_with("->") {
                toks.push("->");
                i += 2;
            } else {
                toks.push(&text[i..i + 1]);
                i += 1;
            }
        }
        SigReader { toks, pos: 0 }
    }

    fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.pos).copied()
    }

    fn next(&mut self) -> Option<&'a str> {
        let t = self.peek();
        self.pos += 1;
        t
    }

    /// `sig := prim ('#' prim)* ('->' sig)?`
    fn sort(&mut self) -> Option<SortPat> {
        let mut dom = vec![self.prim()?];
        while self.peek() == Some("#") {
            self.next();
            dom.push(self.prim()?);
        }
        if self.peek() == Some("->") {
            self.next();
            let cod = self.sort()?;
            Some(SortPat::Arrow(dom, Box::new(cod)))
        } else if dom.len() == 1 {
            dom.pop()
        } else {
            None
        }
    }

    fn prim(&mut self) -> Option<SortPat> {
        let t = self.next()?;
        let inner = |r: &mut Self| -> Option<Box<SortPat>> {
            (r.next()? == "(").then_some(())?;
            let s = r.sort()?;
            (r.next()? == ")").then_some(())?;
            Some(Box::new(s))
        };
        Some(match t {
            "Bool" => SortPat::Bool,
            "Pos" => SortPat::Pos,
            "Nat" => SortPat::Nat,
            "Int" => SortPat::Int,
            "Real" => SortPat::Real,
            "S" => SortPat::Param(0),
            "T" => SortPat::Param(1),
            "List" => SortPat::List(inner(self)?),
            "Set" => SortPat::Set(inner(self)?),
            "FSet" => SortPat::FSet(inner(self)?),
            "Bag" => SortPat::Bag(inner(self)?),
            "FBag" => SortPat::FBag(inner(self)?),
            "(" => {
                let s = self.sort()?;
                (self.next()? == ")").then_some(())?;
                s
            }
            _ => return None,
        })
    }
}

fn parse_sig(name: &'static str, text: &str, family: Family) -> Option<BuiltinSig> {
    let mut r = SigReader::new(text);
    let s = r.sort()?;
    if r.pos != r.toks.len() {
        return None;
    }
    // A top-level arrow is the function's own sort; the only arrow-valued result
    // (`@func_update`) is written in parentheses, which `prim` keeps as one unit.
    let (params, result) = match s {
        SortPat::Arrow(d, c) => (d, *c),
        s => (Vec::new(), s),
    };
    Some(BuiltinSig {
        name,
        params,
        result,
        family,
    })
}

/// Every built-in signature, in catalog order.
pub fn all() -> &'static [BuiltinSig] {
    static ALL: OnceLock<Vec<BuiltinSig>> = OnceLock::new();
    ALL.get_or_init(|| {
        TABLE
            .iter()
            .flat_map(|(fam, entries)| {
                entries
                    .iter()
                    .filter_map(move |(n, s)| parse_sig(n, s, *fam))
            })
            .collect()
    })
}

/// The signatures of built-in `name` (empty if it is not a built-in).
pub fn signatures(name: &str) -> impl Iterator<Item = &'static BuiltinSig> + '_ {
    all().iter().filter(move |s| s.name == name)
}

/// Whether `name` is the name of a built-in function or constant.
pub fn is_builtin(name: &str) -> bool {
    signatures(name).next().is_some()
}

/// The built-in signature `func` is an instance of, with its sort-parameter binding.
pub fn lookup(func: &Func) -> Option<(&'static BuiltinSig, Vec<Sort>)> {
    signatures(&func.name).find_map(|s| s.match_func(func).map(|b| (s, b)))
}

/// The names of the implicit numeric upcasts (`Pos2Nat`, …) from `from` to `to`, if `from`
/// is a strict numeric subsort of `to`.
pub fn upcast_name(from: &Sort, to: &Sort) -> Option<&'static str> {
    Some(match (from, to) {
        (Sort::Pos, Sort::Nat) => "Pos2Nat",
        (Sort::Pos, Sort::Int) => "Pos2Int",
        (Sort::Pos, Sort::Real) => "Pos2Real",
        (Sort::Nat, Sort::Int) => "Nat2Int",
        (Sort::Nat, Sort::Real) => "Nat2Real",
        (Sort::Int, Sort::Real) => "Int2Real",
        _ => return None,
    })
}

/// The function symbol of the implicit upcast from `from` to `to`, if any: numeric
/// (`Pos2Nat`, …) or finite container to container (`@setfset`, `@bagfbag`).
pub fn upcast_func(from: &Sort, to: &Sort) -> Option<Func> {
    let name = match (from, to) {
        (Sort::FSet(a), Sort::Set(b)) if a == b => "@setfset",
        (Sort::FBag(a), Sort::Bag(b)) if a == b => "@bagfbag",
        _ => upcast_name(from, to)?,
    };
    Some(Func {
        name: Arc::from(name),
        sort: Sort::Arrow(vec![from.clone()], Box::new(to.clone())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_entry_parses() {
        let n: usize = TABLE.iter().map(|(_, e)| e.len()).sum();
        assert_eq!(all().len(), n, "a signature string in TABLE does not parse");
    }

    #[test]
    fn no_duplicate_signatures() {
        let mut seen = std::collections::HashSet::new();
        for s in all() {
            assert!(
                seen.insert((s.name, s.params.clone(), s.result.clone())),
                "duplicate {s}"
            );
        }
    }

    #[test]
    fn mcrl2_signatures_are_exact() {
        let has = |name: &str, sig: &str| signatures(name).any(|s| s.to_string() == sig);
        assert!(has("-", "-: Pos # Pos -> Int"));
        assert!(has("div", "div: Int # Pos -> Int"));
        assert!(has("/", "/: Int # Int -> Real"));
        assert!(has("mod", "mod: Int # Pos -> Nat"));
        assert!(has("#", "#: List(S) -> Nat"));
        assert!(has(
            "@func_update",
            "@func_update: (S -> T) # S # T -> (S -> T)"
        ));
        assert!(!is_builtin("frobnicate"));
    }

    #[test]
    fn instantiate_and_lookup_round_trip() {
        for s in all() {
            let params: Vec<Sort> = [Sort::Nat, Sort::Named("D".into())]
                .into_iter()
                .take(s.sort_params())
                .collect();
            let f = s.instantiate(&params);
            let (found, binding) = lookup(&f).expect("instance is found");
            assert_eq!(found, s);
            assert_eq!(binding, params);
        }
    }
}
