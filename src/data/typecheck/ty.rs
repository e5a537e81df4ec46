//! Sorts with holes (`Ty`): what bottom-up inference knows about an expression, with
//! subsorting, unification and the solving of sort-parameter constraints of built-ins.

use super::*;

// ---------------------------------------------------------------------------------------
// Sorts with holes: what bottom-up inference knows about an expression
// ---------------------------------------------------------------------------------------

/// A sort as inferred bottom-up: like [`Sort`], but parts may still be open (`Hole`) and
/// literals (`[…]`, `{…}`) may still choose their container and element sorts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Ty {
    Bool,
    Pos,
    Nat,
    Int,
    Real,
    Named(Name),
    List(Box<Ty>),
    Set(Box<Ty>),
    FSet(Box<Ty>),
    Bag(Box<Ty>),
    FBag(Box<Ty>),
    Arrow(Vec<Ty>, Box<Ty>),
    /// Any sort.
    Hole,
    /// A list enumeration or `[]`: `List(T)` for any `T` its elements fit.
    ListLit(Box<Ty>),
    /// A set enumeration or `{}` (`true` when empty): `Set(T)` or `FSet(T)`; the empty one
    /// also a bag (older mCRL2 wrote `{}` for the empty bag).
    SetLit(Box<Ty>, bool),
    /// A bag enumeration or `{:}`: `Bag(T)` or `FBag(T)`.
    BagLit(Box<Ty>),
}

impl Ty {
    pub(crate) fn of(s: &Sort) -> Ty {
        match s {
            Sort::Bool => Ty::Bool,
            Sort::Pos => Ty::Pos,
            Sort::Nat => Ty::Nat,
            Sort::Int => Ty::Int,
            Sort::Real => Ty::Real,
            Sort::Named(n) => Ty::Named(n.clone()),
            Sort::List(s) => Ty::List(Box::new(Ty::of(s))),
            Sort::Set(s) => Ty::Set(Box::new(Ty::of(s))),
            Sort::FSet(s) => Ty::FSet(Box::new(Ty::of(s))),
            Sort::Bag(s) => Ty::Bag(Box::new(Ty::of(s))),
            Sort::FBag(s) => Ty::FBag(Box::new(Ty::of(s))),
            Sort::Arrow(d, c) => Ty::Arrow(d.iter().map(Ty::of).collect(), Box::new(Ty::of(c))),
        }
    }

    /// The sort, choosing defaults for literals (`FSet`, `FBag`); `None` if a hole remains.
    pub(crate) fn to_sort(&self) -> Option<Sort> {
        self.to_sort_with(None)
    }

    /// [`Ty::to_sort`], where a sort nothing fixes becomes `Bool`: the element sort of an
    /// empty container with no context (`#[]`, `[] == []`, `[] . 2`). mCRL2 types those
    /// with an untyped sort; which sort does not matter, as no element is ever there.
    pub(crate) fn to_sort_or_default(&self) -> Sort {
        self.to_sort_with(Some(&Sort::Bool))
            .expect("every hole has the default sort")
    }

    /// The sort with holes as `hole` (`None`: no sort).
    fn to_sort_with(&self, hole: Option<&Sort>) -> Option<Sort> {
        let part = |t: &Ty| t.to_sort_with(hole).map(Box::new);
        Some(match self {
            Ty::Bool => Sort::Bool,
            Ty::Pos => Sort::Pos,
            Ty::Nat => Sort::Nat,
            Ty::Int => Sort::Int,
            Ty::Real => Sort::Real,
            Ty::Named(n) => Sort::Named(n.clone()),
            Ty::List(s) | Ty::ListLit(s) => Sort::List(part(s)?),
            Ty::Set(s) => Sort::Set(part(s)?),
            Ty::FSet(s) | Ty::SetLit(s, _) => Sort::FSet(part(s)?),
            Ty::Bag(s) => Sort::Bag(part(s)?),
            Ty::FBag(s) | Ty::BagLit(s) => Sort::FBag(part(s)?),
            Ty::Arrow(d, c) => Sort::Arrow(
                d.iter()
                    .map(|t| t.to_sort_with(hole))
                    .collect::<Option<_>>()?,
                part(c)?,
            ),
            Ty::Hole => return hole.cloned(),
        })
    }

    pub(super) fn num_rank(&self) -> Option<u8> {
        match self {
            Ty::Pos => Some(0),
            Ty::Nat => Some(1),
            Ty::Int => Some(2),
            Ty::Real => Some(3),
            _ => None,
        }
    }

    /// Whether a part is still a literal's open choice (`[…]`, `{…}`, `{…: …}`).
    pub(super) fn has_literal(&self) -> bool {
        match self {
            Ty::ListLit(_) | Ty::SetLit(..) | Ty::BagLit(_) => true,
            Ty::List(s) | Ty::Set(s) | Ty::FSet(s) | Ty::Bag(s) | Ty::FBag(s) => s.has_literal(),
            Ty::Arrow(d, c) => d.iter().any(Ty::has_literal) || c.has_literal(),
            _ => false,
        }
    }

    pub(super) fn has_hole(&self) -> bool {
        match self {
            Ty::Hole => true,
            Ty::List(s)
            | Ty::Set(s)
            | Ty::FSet(s)
            | Ty::Bag(s)
            | Ty::FBag(s)
            | Ty::ListLit(s)
            | Ty::SetLit(s, _)
            | Ty::BagLit(s) => s.has_hole(),
            Ty::Arrow(d, c) => d.iter().any(Ty::has_hole) || c.has_hole(),
            _ => false,
        }
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => f.write_str("Bool"),
            Ty::Pos => f.write_str("Pos"),
            Ty::Nat => f.write_str("Nat"),
            Ty::Int => f.write_str("Int"),
            Ty::Real => f.write_str("Real"),
            Ty::Named(n) => f.write_str(n),
            Ty::List(s) | Ty::ListLit(s) => write!(f, "List({s})"),
            Ty::Set(s) => write!(f, "Set({s})"),
            Ty::FSet(s) => write!(f, "FSet({s})"),
            Ty::SetLit(s, _) => write!(f, "FSet({s})"),
            Ty::Bag(s) => write!(f, "Bag({s})"),
            Ty::FBag(s) | Ty::BagLit(s) => write!(f, "FBag({s})"),
            Ty::Arrow(d, c) => {
                for (i, s) in d.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" # ")?;
                    }
                    if matches!(s, Ty::Arrow(..)) {
                        write!(f, "({s})")?;
                    } else {
                        write!(f, "{s}")?;
                    }
                }
                write!(f, " -> {c}")
            }
            Ty::Hole => f.write_str("?"),
        }
    }
}

/// Whether an expression of (inferred) sort `a` can be used where `b` is needed, possibly
/// after a numeric upcast or by choosing a literal's sort. `compat` also lets an empty `{}`
/// be a bag.
pub(super) fn fits(a: &Ty, b: &Ty, compat: bool) -> bool {
    match (a, b) {
        (Ty::Hole, _) | (_, Ty::Hole) => true,
        _ if a.num_rank().is_some() && b.num_rank().is_some() => a.num_rank() <= b.num_rank(),
        (Ty::ListLit(x), Ty::List(y) | Ty::ListLit(y)) => fits(x, y, compat),
        (Ty::SetLit(x, _), Ty::Set(y) | Ty::FSet(y) | Ty::SetLit(y, _)) => fits(x, y, compat),
        (Ty::SetLit(_, true), Ty::Bag(_) | Ty::FBag(_) | Ty::BagLit(_)) => compat,
        (Ty::BagLit(x), Ty::Bag(y) | Ty::FBag(y) | Ty::BagLit(y)) => fits(x, y, compat),
        // mCRL2 converts finite sets and bags where sets and bags are needed.
        (Ty::FSet(x), Ty::Set(y)) | (Ty::FBag(x), Ty::Bag(y)) => unify(x, y).is_some(),
        _ => unify(a, b).is_some(),
    }
}

/// `fits`, but also with numeric widening inside container sorts (List(Pos) where
/// List(Nat) is needed): only for choosing an instance whose arguments are then checked
/// top-down, never to accept an expression by itself.
pub(super) fn fits_widened(a: &Ty, b: &Ty) -> bool {
    if fits(a, b, false) {
        return true;
    }
    match (a, b) {
        (Ty::List(x) | Ty::ListLit(x), Ty::List(y))
        | (Ty::Set(x) | Ty::FSet(x) | Ty::SetLit(x, _), Ty::Set(y) | Ty::FSet(y))
        | (Ty::Bag(x) | Ty::FBag(x) | Ty::BagLit(x), Ty::Bag(y) | Ty::FBag(y)) => {
            fits_widened(x, y)
        }
        // `lambda x: Nat . 2` (Nat -> Pos) where a Nat -> Nat is needed: its body is
        // typed again.
        (Ty::Arrow(d1, c1), Ty::Arrow(d2, c2)) => {
            d1.len() == d2.len()
                && d1.iter().zip(d2).all(|(x, y)| unify(x, y).is_some())
                && fits_widened(c1, c2)
        }
        _ => false,
    }
}

/// The common sort of two rigid positions (equal up to holes and literal choices).
pub(super) fn unify(a: &Ty, b: &Ty) -> Option<Ty> {
    Some(match (a, b) {
        (Ty::Hole, x) | (x, Ty::Hole) => x.clone(),
        (Ty::ListLit(x), Ty::List(y)) | (Ty::List(y), Ty::ListLit(x)) => {
            fits(x, y, false).then(|| Ty::List(y.clone()))?
        }
        (Ty::SetLit(x, _), Ty::Set(y)) | (Ty::Set(y), Ty::SetLit(x, _)) => {
            fits(x, y, false).then(|| Ty::Set(y.clone()))?
        }
        (Ty::SetLit(x, _), Ty::FSet(y)) | (Ty::FSet(y), Ty::SetLit(x, _)) => {
            fits(x, y, false).then(|| Ty::FSet(y.clone()))?
        }
        (Ty::BagLit(x), Ty::Bag(y)) | (Ty::Bag(y), Ty::BagLit(x)) => {
            fits(x, y, false).then(|| Ty::Bag(y.clone()))?
        }
        (Ty::BagLit(x), Ty::FBag(y)) | (Ty::FBag(y), Ty::BagLit(x)) => {
            fits(x, y, false).then(|| Ty::FBag(y.clone()))?
        }
        (Ty::ListLit(x), Ty::ListLit(y)) => Ty::ListLit(Box::new(join(x, y)?)),
        (Ty::SetLit(x, ex), Ty::SetLit(y, ey)) => Ty::SetLit(Box::new(join(x, y)?), *ex && *ey),
        (Ty::BagLit(x), Ty::BagLit(y)) => Ty::BagLit(Box::new(join(x, y)?)),
        (Ty::List(x), Ty::List(y)) => Ty::List(Box::new(unify(x, y)?)),
        (Ty::Set(x), Ty::Set(y)) => Ty::Set(Box::new(unify(x, y)?)),
        (Ty::FSet(x), Ty::FSet(y)) => Ty::FSet(Box::new(unify(x, y)?)),
        (Ty::Bag(x), Ty::Bag(y)) => Ty::Bag(Box::new(unify(x, y)?)),
        (Ty::FBag(x), Ty::FBag(y)) => Ty::FBag(Box::new(unify(x, y)?)),
        (Ty::Arrow(d1, c1), Ty::Arrow(d2, c2)) if d1.len() == d2.len() => Ty::Arrow(
            d1.iter()
                .zip(d2)
                .map(|(x, y)| unify(x, y))
                .collect::<Option<_>>()?,
            Box::new(unify(c1, c2)?),
        ),
        (x, y) if x == y => x.clone(),
        _ => return None,
    })
}

/// The least sort both `a` and `b` fit (numeric maximum; literal choices; else unify).
pub(super) fn join(a: &Ty, b: &Ty) -> Option<Ty> {
    match (a.num_rank(), b.num_rank()) {
        (Some(x), Some(y)) => Some(if x >= y { a.clone() } else { b.clone() }),
        _ => unify(a, b),
    }
}

/// Whether `a` is at least as specific as `b` (for choosing among overloads).
pub(super) fn more_specific(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        _ if a.num_rank().is_some() && b.num_rank().is_some() => a.num_rank() <= b.num_rank(),
        (Ty::FSet(x), Ty::Set(y)) | (Ty::FBag(x), Ty::Bag(y)) => unify(x, y).is_some(),
        (Ty::Set(x) | Ty::FSet(x), Ty::Bag(y) | Ty::FBag(y)) => unify(x, y).is_some(),
        _ => unify(a, b).is_some(),
    }
}

/// Instantiates a built-in pattern with (possibly open) sort parameters.
pub(super) fn inst_pat(p: &SortPat, params: &[Ty]) -> Ty {
    match p {
        SortPat::Bool => Ty::Bool,
        SortPat::Pos => Ty::Pos,
        SortPat::Nat => Ty::Nat,
        SortPat::Int => Ty::Int,
        SortPat::Real => Ty::Real,
        SortPat::Param(i) => params.get(*i as usize).cloned().unwrap_or(Ty::Hole),
        SortPat::List(s) => Ty::List(Box::new(inst_pat(s, params))),
        SortPat::Set(s) => Ty::Set(Box::new(inst_pat(s, params))),
        SortPat::FSet(s) => Ty::FSet(Box::new(inst_pat(s, params))),
        SortPat::Bag(s) => Ty::Bag(Box::new(inst_pat(s, params))),
        SortPat::FBag(s) => Ty::FBag(Box::new(inst_pat(s, params))),
        SortPat::Arrow(d, c) => Ty::Arrow(
            d.iter().map(|s| inst_pat(s, params)).collect(),
            Box::new(inst_pat(c, params)),
        ),
    }
}

/// Constraints on one sort parameter gathered from the arguments.
#[derive(Default)]
pub(super) struct ParamConstraint {
    /// Sorts it must equal (positions inside non-literal containers).
    exact: Vec<Ty>,
    /// Sorts it must be at least (top-level arguments, literal elements).
    lower: Vec<Ty>,
}

/// Gathers constraints for the parameters of `pat` from an argument of sort `ty`; false if
/// the shapes cannot match.
///
/// `loose` lets numbers widen inside containers too (`List(Pos)` where `List(Nat)` is
/// needed): their elements give lower bounds instead of exact sorts.
pub(super) fn gather(
    pat: &SortPat,
    ty: &Ty,
    rigid: bool,
    loose: bool,
    cs: &mut Vec<ParamConstraint>,
) -> bool {
    let inner = !loose;
    match (pat, ty) {
        (SortPat::Param(i), t) => {
            let i = *i as usize;
            if cs.len() <= i {
                cs.resize_with(i + 1, ParamConstraint::default);
            }
            if *t != Ty::Hole {
                if rigid {
                    cs[i].exact.push(t.clone());
                } else {
                    cs[i].lower.push(t.clone());
                }
            }
            true
        }
        (_, Ty::Hole) => true,
        (SortPat::List(p), Ty::List(t)) => gather(p, t, inner, loose, cs),
        (SortPat::List(p), Ty::ListLit(t)) => gather(p, t, false, loose, cs),
        (SortPat::Set(p), Ty::Set(t) | Ty::FSet(t)) | (SortPat::FSet(p), Ty::FSet(t)) => {
            gather(p, t, inner, loose, cs)
        }
        (SortPat::Set(p) | SortPat::FSet(p), Ty::SetLit(t, _)) => gather(p, t, false, loose, cs),
        (SortPat::Bag(_) | SortPat::FBag(_), Ty::SetLit(_, true)) => true,
        (SortPat::Bag(p), Ty::Bag(t) | Ty::FBag(t)) | (SortPat::FBag(p), Ty::FBag(t)) => {
            gather(p, t, inner, loose, cs)
        }
        (SortPat::Bag(p) | SortPat::FBag(p), Ty::BagLit(t)) => gather(p, t, false, loose, cs),
        (SortPat::Arrow(pd, pc), Ty::Arrow(td, tc)) => {
            pd.len() == td.len()
                && pd
                    .iter()
                    .zip(td)
                    .all(|(p, t)| gather(p, t, true, false, cs))
                && gather(pc, tc, true, false, cs)
        }
        (SortPat::Bool, _)
        | (SortPat::Pos, _)
        | (SortPat::Nat, _)
        | (SortPat::Int, _)
        | (SortPat::Real, _) => true,
        _ => false,
    }
}

/// `join`, with numbers also widened inside containers (`List(Pos)` and `List(Nat)` join
/// to `List(Nat)`; a finite set and a set to a set): for the loose instances only.
pub(super) fn join_loose(a: &Ty, b: &Ty) -> Option<Ty> {
    if let Some(j) = join(a, b) {
        return Some(j);
    }
    let inner = |x: &Ty, y: &Ty| join_loose(x, y).map(Box::new);
    Some(match (a, b) {
        (Ty::ListLit(x), Ty::ListLit(y)) => Ty::ListLit(inner(x, y)?),
        (Ty::List(x) | Ty::ListLit(x), Ty::List(y) | Ty::ListLit(y)) => Ty::List(inner(x, y)?),
        (Ty::SetLit(x, ex), Ty::SetLit(y, ey)) => Ty::SetLit(inner(x, y)?, *ex && *ey),
        (Ty::FSet(x) | Ty::SetLit(x, _), Ty::FSet(y) | Ty::SetLit(y, _)) => Ty::FSet(inner(x, y)?),
        (
            Ty::Set(x) | Ty::FSet(x) | Ty::SetLit(x, _),
            Ty::Set(y) | Ty::FSet(y) | Ty::SetLit(y, _),
        ) => Ty::Set(inner(x, y)?),
        (Ty::BagLit(x), Ty::BagLit(y)) => Ty::BagLit(inner(x, y)?),
        (Ty::FBag(x) | Ty::BagLit(x), Ty::FBag(y) | Ty::BagLit(y)) => Ty::FBag(inner(x, y)?),
        (Ty::Bag(x) | Ty::FBag(x) | Ty::BagLit(x), Ty::Bag(y) | Ty::FBag(y) | Ty::BagLit(y)) => {
            Ty::Bag(inner(x, y)?)
        }
        _ => return None,
    })
}

/// Solves the gathered constraints: each parameter is the common exact sort, or the join of
/// its lower bounds (`join_loose` when `loose`), or open.
pub(super) fn solve(cs: &[ParamConstraint], n: usize, loose: bool) -> Option<Vec<Ty>> {
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let Some(c) = cs.get(i) else {
            out.push(Ty::Hole);
            continue;
        };
        let mut lower = Ty::Hole;
        for t in &c.lower {
            lower = if loose {
                join_loose(&lower, t)?
            } else {
                join(&lower, t)?
            };
        }
        if c.exact.is_empty() {
            out.push(lower);
        } else {
            let mut exact = Ty::Hole;
            for t in &c.exact {
                exact = unify(&exact, t)?;
            }
            if !fits(&lower, &exact, false) {
                return None;
            }
            out.push(exact);
        }
    }
    Some(out)
}
