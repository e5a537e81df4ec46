//! Overload resolution: the candidates for a name and the most specific signature whose
//! sorts the arguments fit (possibly after upcasts), for functions, actions and processes.

use super::*;

impl<'s> Checker<'s> {
    // -----------------------------------------------------------------------------------
    // Expressions: candidates and overload resolution
    // -----------------------------------------------------------------------------------

    /// All candidates for name `name` applied to `arity` arguments (`None`: not applied).
    pub(super) fn candidates(&self, name: &str, arity: Option<usize>) -> Vec<Cand> {
        if let Some(v) = self.lookup_var(name) {
            // A variable hides functions of the same name, except where it cannot be meant:
            // applied to arguments it does not take (mCRL2 then falls back to the functions,
            // e.g. a projection `fset(p)` next to a variable `fset: Set(D)`).
            let applicable = match arity {
                Some(n) => v.sort.domain().len() == n,
                None => true,
            };
            if applicable || !self.funcs.contains_key(name) && !builtins::is_builtin(name) {
                return vec![Cand::Var(v.clone())];
            }
        }
        let mut out = Vec::new();
        if let Some(fs) = self.funcs.get(name) {
            for f in fs {
                match arity {
                    Some(n) if f.sort.domain().len() != n => {}
                    _ => out.push(Cand::User(f.clone())),
                }
            }
        }
        for s in builtins::signatures(name) {
            match arity {
                Some(n) if s.params.len() != n => {}
                None if s.name == "[]" || s.name == "{}" || s.name == "{:}" => {}
                _ => out.push(Cand::Builtin(s)),
            }
        }
        out
    }

    /// Instantiates a built-in candidate by solving its sort parameters from the expected
    /// result sort alone; `None` unless every parameter is fixed and the arguments fit.
    pub(super) fn instantiate_for_result(
        &self,
        cand: &Cand,
        args: &[Vec<Ty>],
        exp: &Sort,
    ) -> Option<Inst> {
        let Cand::Builtin(s) = cand else { return None };
        if s.params.len() != args.len() || s.sort_params() == 0 {
            return None;
        }
        let mut cs = Vec::new();
        if !gather(&s.result, &Ty::of(exp), true, false, &mut cs) {
            return None;
        }
        let sp = solve(&cs, s.sort_params(), false)?;
        if sp.iter().any(Ty::has_hole) {
            return None;
        }
        let params: Vec<Ty> = s.params.iter().map(|p| inst_pat(p, &sp)).collect();
        // Numbers may widen inside containers here: the arguments are checked top-down
        // against `params` afterwards, which accepts only what can be re-typed (literals).
        let fits_all = params
            .iter()
            .zip(args)
            .all(|(p, alts)| alts.iter().any(|a| fits_widened(a, p)));
        fits_all.then(|| Inst {
            cand: cand.clone(),
            result: inst_pat(&s.result, &sp),
            sort_params: sp,
            params,
        })
    }

    /// Instantiates a candidate against argument sorts (alternatives per argument): one
    /// instance per distinct way the arguments fix a built-in's sort parameters. `loose`
    /// lets numbers widen inside containers (for choosing an instance whose arguments are
    /// then checked top-down, which re-types literals and rejects the rest).
    pub(super) fn instantiate(
        &self,
        cand: &Cand,
        args: &[Vec<Ty>],
        compat: bool,
        loose: bool,
    ) -> Vec<Inst> {
        let fits_all = |params: &[Ty]| {
            params.len() == args.len()
                && params.iter().zip(args).all(|(p, alts)| {
                    alts.iter().any(|a| {
                        if loose {
                            fits_widened(a, p)
                        } else {
                            fits(a, p, compat)
                        }
                    })
                })
        };
        let concrete = |sort: &Sort| {
            let params: Vec<Ty> = sort.domain().iter().map(Ty::of).collect();
            let result = Ty::of(sort.codomain());
            fits_all(&params).then(|| Inst {
                cand: cand.clone(),
                sort_params: Vec::new(),
                params,
                result,
            })
        };
        match cand {
            Cand::User(f) => concrete(&f.sort).into_iter().collect(),
            Cand::Var(v) => concrete(&v.sort).into_iter().collect(),
            Cand::Builtin(s) => {
                if s.params.len() != args.len() {
                    return Vec::new();
                }
                let n = s.sort_params();
                let mut out: Vec<Inst> = Vec::new();
                for choice in alternatives_product(args) {
                    let mut cs = Vec::new();
                    if !s
                        .params
                        .iter()
                        .zip(&choice)
                        .all(|(p, t)| gather(p, t, false, loose, &mut cs))
                    {
                        continue;
                    }
                    let Some(sp) = solve(&cs, n, loose) else {
                        continue;
                    };
                    if out.iter().any(|i| i.sort_params == sp) {
                        continue;
                    }
                    let params: Vec<Ty> = s.params.iter().map(|p| inst_pat(p, &sp)).collect();
                    if !fits_all(&params) {
                        continue;
                    }
                    let result = inst_pat(&s.result, &sp);
                    out.push(Inst {
                        cand: cand.clone(),
                        sort_params: sp,
                        params,
                        result,
                    });
                }
                out
            }
        }
    }

    /// The most specific viable instances (several when incomparable or differing only in
    /// their result sort).
    pub(super) fn resolve(
        &self,
        cands: &[Cand],
        args: &[Vec<Ty>],
        expected: Option<&Sort>,
    ) -> Vec<Inst> {
        let mut viable: Vec<Inst> = cands
            .iter()
            .flat_map(|c| self.instantiate(c, args, false, false))
            .collect();
        if viable.is_empty() {
            viable = cands
                .iter()
                .flat_map(|c| self.instantiate(c, args, true, false))
                .collect();
        }
        if viable.is_empty() {
            // As mCRL2: `([1] <| 2) <| 0` is a List(Nat), its left argument typed again.
            viable = cands
                .iter()
                .flat_map(|c| self.instantiate(c, args, false, true))
                .collect();
        }
        if let Some(exp) = expected {
            let e = Ty::of(exp);
            let matching: Vec<Inst> = viable
                .iter()
                .filter(|i| fits(&i.result, &e, false))
                .cloned()
                .collect();
            // A literal's sort is chosen by its context: `if(c, {1}, {2})` where an
            // FSet(Nat) is expected fixes `if`'s parameter to FSet(Nat), not FSet(Pos).
            let directed_first = !matching.is_empty()
                && matching
                    .iter()
                    .all(|i| i.result.has_literal() && i.result != e);
            let directed: Vec<Inst> = if directed_first {
                cands
                    .iter()
                    .filter_map(|c| self.instantiate_for_result(c, args, exp))
                    .collect()
            } else {
                Vec::new()
            };
            if !directed.is_empty() {
                viable = directed;
            } else if !matching.is_empty() {
                viable = matching;
            } else {
                // The arguments alone fixed a built-in's sort parameters to a sort that does
                // not fit (`[1, 2] ++ [3]` is a List(Pos)); as mCRL2, let the expected result
                // fix them instead when the arguments (literals) fit that instance too.
                let directed: Vec<Inst> = cands
                    .iter()
                    .filter_map(|c| self.instantiate_for_result(c, args, exp))
                    .collect();
                if !directed.is_empty() {
                    viable = directed;
                }
            }
        }
        let best: Vec<Inst> = viable
            .iter()
            .filter(|a| {
                viable.iter().all(|b| {
                    a.params
                        .iter()
                        .zip(&b.params)
                        .all(|(x, y)| more_specific(x, y))
                })
            })
            .cloned()
            .collect();
        if !best.is_empty() {
            // A user declaration of exactly a built-in's sort is the same function symbol.
            let mut uniq: Vec<Inst> = Vec::new();
            for i in best {
                if !uniq
                    .iter()
                    .any(|u| u.params == i.params && u.result == i.result && !i.result.has_hole())
                {
                    uniq.push(i);
                }
            }
            return uniq;
        }
        // No single most specific one: keep those not strictly dominated.
        viable
            .iter()
            .filter(|a| {
                !viable.iter().any(|b| {
                    b.params
                        .iter()
                        .zip(&a.params)
                        .all(|(x, y)| more_specific(x, y))
                        && !a
                            .params
                            .iter()
                            .zip(&b.params)
                            .all(|(x, y)| more_specific(x, y))
                })
            })
            .cloned()
            .collect()
    }
}

impl<'s> Checker<'s> {
    /// Resolves `name(args)` against concrete overloads `sigs` (actions, processes):
    /// the most specific declaration whose sorts the arguments fit; returns its index and
    /// the typed arguments. `kind` names what is called in messages ("action", "process").
    pub fn resolve_overload(
        &mut self,
        kind: &str,
        name: &str,
        sigs: &[Vec<Sort>],
        args: &[ast::DataExpr],
        span: Span,
    ) -> Res<(usize, Vec<DataExpr>)> {
        let decls: Vec<String> = sigs.iter().map(|s| sorts_str(s)).collect();
        if !sigs.iter().any(|s| s.len() == args.len()) {
            let n = args.len();
            return Err(self.error(
                span,
                format!(
                    "{kind} `{name}` is not declared with {n} argument{}",
                    plural(n)
                ),
                format!("{n} argument{} given", plural(n)),
                Some(format!("`{name}` is declared with {}", decls.join(", "))),
            ));
        }
        let arg_tys = self.synth_args(args)?;
        let viable_with = |compat: bool| -> Vec<usize> {
            sigs.iter()
                .enumerate()
                .filter(|(_, s)| {
                    s.len() == args.len()
                        && s.iter()
                            .zip(&arg_tys)
                            .all(|(p, alts)| alts.iter().any(|a| fits(a, &Ty::of(p), compat)))
                })
                .map(|(i, _)| i)
                .collect()
        };
        // As for functions (`resolve`): an empty `{}` may stand for the empty bag, as in
        // mCRL2's own examples (`P_kl({})` with `P_kl(b: Bag(Nat))`), but only when no
        // declaration fits otherwise.
        let mut viable = viable_with(false);
        if viable.is_empty() {
            viable = viable_with(true);
        }
        if viable.is_empty() {
            // Bottom-up sorts are too rigid for built-ins over literals only (`[1, 2] ++ [3]`
            // is a List(Pos), but checking it against List(Nat) succeeds, as in mCRL2): try
            // each declaration top-down, keeping no diagnostics from the attempts.
            for (i, sig) in sigs.iter().enumerate() {
                if sig.len() != args.len() {
                    continue;
                }
                let before = self.errors.len();
                let ok = args
                    .iter()
                    .zip(sig)
                    .all(|(a, s)| self.check(a, Some(s)).is_ok());
                self.errors.truncate(before);
                if ok {
                    viable.push(i);
                }
            }
        }
        let found: Vec<String> = arg_tys.iter().map(|a| alts_str(a)).collect();
        if viable.is_empty() {
            let same_arity: Vec<&Vec<Sort>> =
                sigs.iter().filter(|s| s.len() == args.len()).collect();
            let mut help = format!("`{name}` is declared with {}", decls.join(", "));
            if let [sig] = same_arity.as_slice() {
                let hint = sig
                    .iter()
                    .zip(&arg_tys)
                    .filter(|(p, alts)| !alts.iter().any(|a| fits(a, &Ty::of(p), false)))
                    .find_map(|(p, alts)| alts.first().and_then(|a| conversion_hint(a, p)));
                if let Some(h) = hint {
                    help.push_str("; ");
                    help.push_str(&h);
                }
            }
            return Err(self.error(
                span,
                format!(
                    "no declaration of {kind} `{name}` accepts arguments of sort{} {}",
                    if found.len() == 1 { "" } else { "s" },
                    found.join(" # ")
                ),
                "sort mismatch",
                Some(help),
            ));
        }
        let best: Vec<usize> = viable
            .iter()
            .copied()
            .filter(|&a| {
                viable.iter().all(|&b| {
                    sigs[a]
                        .iter()
                        .zip(&sigs[b])
                        .all(|(x, y)| more_specific(&Ty::of(x), &Ty::of(y)))
                })
            })
            .collect();
        let [i] = best.as_slice() else {
            let c: Vec<String> = viable.iter().map(|&i| sorts_str(&sigs[i])).collect();
            return Err(self.error(
                span,
                format!(
                    "ambiguous {kind} `{name}` with arguments of sort {}",
                    found.join(" # ")
                ),
                "several declarations fit equally well",
                Some(format!("candidates: {}", c.join("; "))),
            ));
        };
        let i = *i;
        let mut out = Vec::new();
        let mut bad = false;
        for (a, s) in args.iter().zip(&sigs[i]) {
            match self.check(a, Some(s)) {
                Ok(x) => out.push(x),
                Err(_) => bad = true,
            }
        }
        if bad {
            return Err(Reported);
        }
        Ok((i, out))
    }

    /// The possible sorts of `e` as concrete sorts (those that are determined).
    pub fn possible_sorts(&mut self, e: &ast::DataExpr) -> Res<Vec<Sort>> {
        Ok(self.synth(e)?.iter().filter_map(Ty::to_sort).collect())
    }

    /// Whether an expression with possible sorts `alts` fits sort `s`.
    pub fn fits_sort(&mut self, e: &ast::DataExpr, s: &Sort) -> Res<bool> {
        let alts = self.synth(e)?;
        Ok(alts.iter().any(|a| fits(a, &Ty::of(s), false)))
    }

    /// Whether sort tuple `a` is at least as specific as `b` (pointwise subsorting).
    pub fn tuple_more_specific(a: &[Sort], b: &[Sort]) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(x, y)| more_specific(&Ty::of(x), &Ty::of(y)))
    }

    /// The names of everything in data scope, for "did you mean" hints.
    pub fn scope_names(&self) -> Vec<String> {
        self.data_names().into_iter().map(String::from).collect()
    }
}
