//! Lists and function update: list spines, construction, and `f[x -> v]`.

use super::*;

impl<'s> Rewriter<'s> {
    // ----- lists -------------------------------------------------------------------------

    pub(super) fn is_nil(&mut self, t: TermId) -> bool {
        matches!(self.store.as_func_app(t), Some((f, [])) if self.kind(f) == Kind::Ctor(Ctor::Nil))
    }

    pub(super) fn cons_parts(&mut self, t: TermId) -> Option<(TermId, TermId)> {
        match self.store.as_func_app(t) {
            Some((f, [x, r])) if self.kind(f) == Kind::Ctor(Ctor::ListCons) => Some((*x, *r)),
            _ => None,
        }
    }

    /// The elements of a list whose spine is concrete, its `[]`, and its `|>` symbol.
    pub(super) fn list_spine(
        &mut self,
        mut t: TermId,
    ) -> Option<(Vec<TermId>, TermId, Option<TermId>)> {
        let store = self.store;
        let mut elems = Vec::new();
        let mut cons = None;
        loop {
            if self.is_nil(t) {
                return Some((elems, t, cons));
            }
            match store.get(t) {
                Term::App(h, a) if a.len() == 2 => {
                    let Term::Func(f) = store.get(*h) else {
                        return None;
                    };
                    if self.kind(*f) != Kind::Ctor(Ctor::ListCons) {
                        return None;
                    }
                    cons = Some(*h);
                    elems.push(a[0]);
                    t = a[1];
                }
                _ => return None,
            }
        }
    }

    pub(super) fn mk_list(
        &mut self,
        elems: &[TermId],
        tail: TermId,
        cons: Option<TermId>,
        list_sort: &Sort,
    ) -> TermId {
        let store = self.store;
        let cons = cons.unwrap_or_else(|| Internal::cons(store, &elem(list_sort)));
        let mut t = tail;
        for x in elems.iter().rev() {
            t = store.app(cons, &[*x, t]);
        }
        t
    }

    /// Normalises `f[x -> v]`: drops updates that change nothing, merges updates of one
    /// argument, and orders updates of distinct value arguments, so equal functions built
    /// by updates in different orders get one normal form.
    pub(super) fn func_update(
        &mut self,
        h: TermId,
        f: TermId,
        x: TermId,
        v: TermId,
    ) -> Result<Option<TermId>, RewriteError> {
        let store = self.store;
        if let Some((u, [g, y, w])) = store.as_func_app(f) {
            if self.kind(u) == Kind::Op(Op::FuncUpdate) {
                let (g, y, w) = (*g, *y, *w);
                match self.decide_eq(x, y) {
                    Some(true) => {
                        return Ok(Some(match self.func_update(h, g, x, v)? {
                            Some(r) => r,
                            None => store.app(h, &[g, x, v]),
                        }))
                    }
                    Some(false) if self.term_cmp(x, y) == Ordering::Less => {
                        let inner = match self.func_update(h, g, x, v)? {
                            Some(r) => r,
                            None => store.app(h, &[g, x, v]),
                        };
                        return Ok(Some(store.app(h, &[inner, y, w])));
                    }
                    _ => {}
                }
            }
        }
        if self.is_value(x) {
            let fx = self.apply(f, &[x])?;
            if fx == v {
                return Ok(Some(f));
            }
        }
        Ok(None)
    }
}

pub(super) fn elem(s: &Sort) -> Sort {
    match s {
        Sort::List(e) | Sort::Set(e) | Sort::FSet(e) | Sort::Bag(e) | Sort::FBag(e) => {
            (**e).clone()
        }
        other => other.clone(),
    }
}
