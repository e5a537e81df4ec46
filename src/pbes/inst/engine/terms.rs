//! Shapes of right-hand sides: negation normal form, pulling quantifiers out of junctions,
//! bound and free variables, substitution, and the data parts of a junction.

use super::*;

impl Eng<'_> {
    /// `e` in negation normal form: implications removed, negations pushed to data atoms
    /// (and propositional variables), the Boolean junctions of data terms lifted.
    pub(super) fn nnf(&self, e: &T, neg: bool) -> T {
        let b = |x: &T, n: bool| Rc::new(self.nnf(x, n));
        match e {
            T::True | T::False => {
                if matches!(e, T::True) != neg {
                    T::True
                } else {
                    T::False
                }
            }
            T::Data(t) => self.nnf_data(*t, neg),
            T::Not(a) => self.nnf(a, !neg),
            T::And(x, y) if neg => T::Or(b(x, true), b(y, true)),
            T::And(x, y) => T::And(b(x, false), b(y, false)),
            T::Or(x, y) if neg => T::And(b(x, true), b(y, true)),
            T::Or(x, y) => T::Or(b(x, false), b(y, false)),
            T::Imp(x, y) if neg => T::And(b(x, false), b(y, true)),
            T::Imp(x, y) => T::Or(b(x, true), b(y, false)),
            T::Forall(vs, a) if neg => T::Exists(vs.clone(), b(a, true)),
            T::Forall(vs, a) => T::Forall(vs.clone(), b(a, false)),
            T::Exists(vs, a) if neg => T::Forall(vs.clone(), b(a, true)),
            T::Exists(vs, a) => T::Exists(vs.clone(), b(a, false)),
            T::Prop(..) if neg => T::Not(Rc::new(e.clone())),
            T::Prop(..) => e.clone(),
        }
    }

    pub(super) fn nnf_data(&self, t: TermId, neg: bool) -> T {
        let b = |x: TermId, n: bool| Rc::new(self.nnf_data(x, n));
        match self.app(t) {
            Some(("&&", [x, y])) if neg => T::Or(b(*x, true), b(*y, true)),
            Some(("&&", [x, y])) => T::And(b(*x, false), b(*y, false)),
            Some(("||", [x, y])) if neg => T::And(b(*x, true), b(*y, true)),
            Some(("||", [x, y])) => T::Or(b(*x, false), b(*y, false)),
            Some(("!", [x])) => self.nnf_data(*x, !neg),
            _ if t == self.tt || t == self.ff => {
                if (t == self.tt) != neg {
                    T::True
                } else {
                    T::False
                }
            }
            _ if neg => T::Data(self.rw.store().app_func(self.not_f, &[t])),
            _ => T::Data(t),
        }
    }

    /// The operands of nested conjunctions (`conj`) or disjunctions of `e`.
    pub(super) fn junction_parts<'t>(e: &'t T, conj: bool, out: &mut Vec<&'t T>) {
        match (e, conj) {
            (T::And(a, b), true) | (T::Or(a, b), false) => {
                Self::junction_parts(a, conj, out);
                Self::junction_parts(b, conj, out);
            }
            _ => out.push(e),
        }
    }

    /// `e` (in NNF) as `Q ds. core` with the quantifiers `Q` (`exists` when `conj`, else
    /// `forall`) pulled out of its conjunction (disjunction). `None` if a variable would be
    /// bound twice.
    pub(super) fn pull(&self, e: &T, conj: bool, ds: &mut Vec<VarId>) -> Option<T> {
        let mut parts = Vec::new();
        Self::junction_parts(e, conj, &mut parts);
        let mut out: Option<T> = None;
        for p in parts {
            let q = match (p, conj) {
                (T::Exists(vs, a), true) | (T::Forall(vs, a), false) => {
                    if vs.iter().any(|v| ds.contains(v)) {
                        return None;
                    }
                    ds.extend(vs.iter().copied());
                    self.pull(a, conj, ds)?
                }
                _ => p.clone(),
            };
            out = Some(match out {
                None => q,
                Some(o) if conj => T::And(Rc::new(o), Rc::new(q)),
                Some(o) => T::Or(Rc::new(o), Rc::new(q)),
            });
        }
        out
    }

    /// Every variable occurring in `e` (free or bound): an over-approximation of its free
    /// variables.
    pub(super) fn vars_of(&self, e: &T) -> rustc_hash::FxHashSet<VarId> {
        fn go(eng: &Eng<'_>, e: &T, out: &mut rustc_hash::FxHashSet<VarId>) {
            let store = eng.rw.store();
            match e {
                T::True | T::False => {}
                T::Data(t) => out.extend(store.free_vars(*t)),
                T::Prop(_, args) => {
                    for t in args.iter() {
                        out.extend(store.free_vars(*t));
                    }
                }
                T::Not(a) => go(eng, a, out),
                T::And(a, b) | T::Or(a, b) | T::Imp(a, b) => {
                    go(eng, a, out);
                    go(eng, b, out);
                }
                T::Forall(vs, a) | T::Exists(vs, a) => {
                    out.extend(vs.iter().copied());
                    go(eng, a, out);
                }
            }
        }
        let mut out = rustc_hash::FxHashSet::default();
        go(self, e, &mut out);
        out
    }
}

impl Eng<'_> {
    /// Whether a binder inside `e` binds one of `vs`.
    pub(super) fn binds_any(&self, e: &T, vs: &[VarId]) -> bool {
        match e {
            T::Forall(b, a) | T::Exists(b, a) => {
                b.iter().any(|x| vs.contains(x)) || self.binds_any(a, vs)
            }
            T::Not(a) => self.binds_any(a, vs),
            T::And(a, b) | T::Or(a, b) | T::Imp(a, b) => {
                self.binds_any(a, vs) || self.binds_any(b, vs)
            }
            T::Data(t) => {
                // Data binders inside terms are renamed by the store's substitution.
                let _ = t;
                false
            }
            T::True | T::False | T::Prop(..) => false,
        }
    }

    pub(super) fn subst(&self, e: &T, sigma: &Substitution) -> T {
        let b = |x: &T| Rc::new(self.subst(x, sigma));
        match e {
            T::True => T::True,
            T::False => T::False,
            T::Data(t) => T::Data(self.rw.substitute(*t, sigma)),
            T::Not(a) => T::Not(b(a)),
            T::And(x, y) => T::And(b(x), b(y)),
            T::Or(x, y) => T::Or(b(x), b(y)),
            T::Imp(x, y) => T::Imp(b(x), b(y)),
            T::Forall(vs, a) | T::Exists(vs, a) => {
                let mut inner = sigma.clone();
                for v in vs {
                    inner.remove(v);
                }
                let body = Rc::new(self.subst(a, &inner));
                if matches!(e, T::Forall(..)) {
                    T::Forall(vs.clone(), body)
                } else {
                    T::Exists(vs.clone(), body)
                }
            }
            T::Prop(eq, args) => T::Prop(
                *eq,
                args.iter().map(|t| self.rw.substitute(*t, sigma)).collect(),
            ),
        }
    }

    /// The name and arguments of an application of a function symbol.
    pub(super) fn app(&self, t: TermId) -> Option<(&str, &[TermId])> {
        let store = self.rw.store();
        match store.get(t) {
            Term::App(h, args) => match store.get(*h) {
                Term::Func(f) => Some((&*store.func_of(*f).name, &args[..])),
                _ => None,
            },
            _ => None,
        }
    }

    pub(super) fn data_parts(&self, t: TermId, conj: bool, out: &mut Vec<TermId>) {
        match self.app(t) {
            Some(("&&", [a, b])) if conj => {
                self.data_parts(*a, conj, out);
                self.data_parts(*b, conj, out);
            }
            Some(("||", [a, b])) if !conj => {
                self.data_parts(*a, conj, out);
                self.data_parts(*b, conj, out);
            }
            _ => out.push(t),
        }
    }

    /// The conjuncts (`conj`) or disjuncts of `e`, data terms split further, looking through
    /// `exists` (conjuncts) and `forall` (disjuncts) that do not bind `keep`: a conjunct of
    /// `exists y. c && d` is implied by it as well. The variables of the binders looked
    /// through go to `bound`; a part that mentions one of them says nothing outside.
    pub(super) fn parts(
        &self,
        e: &T,
        conj: bool,
        keep: VarId,
        out: &mut Vec<TermId>,
        bound: &mut Vec<VarId>,
    ) {
        match (e, conj) {
            (T::And(a, b), true) | (T::Or(a, b), false) => {
                self.parts(a, conj, keep, out, bound);
                self.parts(b, conj, keep, out, bound);
            }
            (T::Exists(vs, a), true) | (T::Forall(vs, a), false) if !vs.contains(&keep) => {
                bound.extend(vs.iter().copied());
                self.parts(a, conj, keep, out, bound);
            }
            (T::Data(t), _) => self.data_parts(*t, conj, out),
            _ => {}
        }
    }
}

/// Whether `e` contains a propositional variable.
pub(super) fn has_prop(e: &T) -> bool {
    match e {
        T::True | T::False | T::Data(_) => false,
        T::Prop(..) => true,
        T::Not(a) | T::Forall(_, a) | T::Exists(_, a) => has_prop(a),
        T::And(a, b) | T::Or(a, b) | T::Imp(a, b) => has_prop(a) || has_prop(b),
    }
}

/// The operands of a junction in evaluation order: a side without propositional variables
/// first, so that when it decides the junction the other side's instances are never
/// created (`X(n + 1) && val(n < 3)` must not create `X(4)` from `X(3)`, or instantiation
/// never ends; mCRL2 simplifies such a junction before it collects instances). Swapping
/// changes no BES: the data side folds to a constant either way.
pub(super) fn data_first(a: Rc<T>, b: Rc<T>) -> (Rc<T>, Rc<T>) {
    if has_prop(&a) && !has_prop(&b) {
        (b, a)
    } else {
        (a, b)
    }
}
