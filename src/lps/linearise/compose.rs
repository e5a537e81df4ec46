//! Parallel composition: the tree of parallel and alphabet operators, communication, and the
//! operators applied to composed summands (clustering is in `cluster`).

use super::*;

impl Lin<'_> {
    // ----- parallel structure -------------------------------------------------------

    pub(super) fn is_mcrl_expr(&self, e: &ProcExpr) -> bool {
        if proc_has_parallel(e) {
            return true;
        }
        let mut calls = Vec::new();
        collect_calls(e, &mut calls);
        calls.iter().any(|c| self.mcrl[c.0 as usize])
    }

    pub(super) fn is_multiaction(e: &ProcExpr) -> bool {
        match e {
            ProcExpr::Action(_) | ProcExpr::Tau => true,
            ProcExpr::Sync(a, b) => Self::is_multiaction(a) && Self::is_multiaction(b),
            _ => false,
        }
    }

    pub(super) fn expand(
        &mut self,
        e: &ProcExpr,
        span: Span,
        stack: &mut Vec<ProcId>,
    ) -> Result<PNode, LinError> {
        if !self.is_mcrl_expr(e) {
            let is_sync_of_procs = matches!(e, ProcExpr::Sync(..)) && !Self::is_multiaction(e);
            if !is_sync_of_procs {
                return Ok(PNode::Leaf(e.clone(), span));
            }
        }
        Ok(match e {
            ProcExpr::Par(a, b) => {
                let mut kids = Vec::new();
                for x in [a, b] {
                    match self.expand(x, span, stack)? {
                        PNode::Par(k) => kids.extend(k),
                        n => kids.push(n),
                    }
                }
                PNode::Par(kids)
            }
            ProcExpr::Sync(a, b) => PNode::Sync(
                Box::new(self.expand(a, span, stack)?),
                Box::new(self.expand(b, span, stack)?),
            ),
            ProcExpr::Allow { set, body } => {
                PNode::Allow(set.clone(), Box::new(self.expand(body, span, stack)?))
            }
            ProcExpr::Block { set, body } => {
                PNode::Block(set.clone(), Box::new(self.expand(body, span, stack)?))
            }
            ProcExpr::Hide { set, body } => {
                PNode::Hide(set.clone(), Box::new(self.expand(body, span, stack)?))
            }
            ProcExpr::Rename { map, body } => {
                PNode::Rename(map.clone(), Box::new(self.expand(body, span, stack)?))
            }
            ProcExpr::Comm { rules, body } => {
                PNode::Comm(rules.clone(), Box::new(self.expand(body, span, stack)?))
            }
            ProcExpr::Call { proc, args } => {
                let decl = self.spec.proc(*proc);
                if stack.contains(proc) {
                    return Err(LinError::ParallelRecursion {
                        process: decl.name.clone(),
                        span: decl.span,
                    });
                }
                let sigma: Subst = decl.params.iter().cloned().zip(args.iter().cloned()).collect();
                let body = subst_proc(&decl.body, &sigma);
                stack.push(*proc);
                let r = self.expand(&body, decl.span, stack);
                stack.pop();
                r?
            }
            ProcExpr::LeftMerge(..) => {
                return Err(LinError::Unsupported {
                    what: "the left merge `||_`".into(),
                    span,
                })
            }
            _ => {
                return Err(LinError::Unsupported {
                    what: "a parallel operator (`||`, `allow`, `comm`, `hide`, …) under an action prefix, choice, sum or condition; mcrl22lps needs them at the top of `init` or of a process called there".into(),
                    span,
                })
            }
        })
    }
}

impl Lin<'_> {
    // ----- composition ---------------------------------------------------------------

    pub(super) fn lin_node(&mut self, n: &PNode, k: &Constraint) -> Result<Vec<CSum>, LinError> {
        let r = match n {
            PNode::Leaf(e, span) => {
                let first = self.params.len();
                let (s, dcs) = self.component(e, *span, k)?;
                let (s, before) = self.component_constelm(s, &dcs, first);
                let (s, before): (Vec<CSum>, Vec<u64>) = s
                    .into_iter()
                    .zip(before)
                    .filter(|(x, _)| k.possible(&x.names()))
                    .unzip();
                // As mCRL2 does with every sequential component before composing: one summand
                // per list of action labels (exact; see `cluster`), `tau` summands included,
                // so that a sum variable one member has and another lacks is fixed in the
                // other's branch and survives sum elimination under a `comm`, as in mCRL2
                // (random seeds 3129, 25 and 7: 546 of 578 state spaces exact while `tau`
                // summands were clustered only under an `allow`). Selectors of members that
                // differed before the constants were substituted are pinned (see `cluster`).
                let names: BTreeSet<Name> = s.iter().flat_map(|x| x.names()).collect();
                self.cluster(s, &names, true, Some(&before))
            }
            PNode::Par(kids) => {
                let mut results = Vec::new();
                for kid in kids {
                    results.push(self.lin_node(kid, k)?);
                }
                self.fold_par(results, k)?
            }
            PNode::Sync(a, b) => {
                let x = self.lin_node(a, k)?;
                let y = self.lin_node(b, k)?;
                self.compose(x, y, k, false)?
            }
            PNode::Allow(set, body) => {
                let sets: Vec<Vec<Name>> = set
                    .iter()
                    .map(|m| {
                        let mut s = m.0.clone();
                        s.sort();
                        s
                    })
                    .collect();
                let mut r = self.lin_node(body, &k.allow(set))?;
                r.retain(|x| x.acts.is_empty() || sets.contains(&x.names()));
                r
            }
            PNode::Block(set, body) => {
                let mut r = self.lin_node(body, &k.block(set))?;
                r.retain(|x| !x.acts.iter().any(|a| set.contains(&a.name)));
                r
            }
            PNode::Hide(set, body) => {
                let mut r = self.lin_node(body, &k.hide(set))?;
                for x in &mut r {
                    x.acts.retain(|a| !set.contains(&a.name));
                }
                r
            }
            PNode::Rename(map, body) => {
                let mut r = self.lin_node(body, &k.rename(map))?;
                for x in &mut r {
                    for a in &mut x.acts {
                        if let Some((_, b)) = map.iter().find(|(f, _)| *f == a.name) {
                            a.name = b.clone();
                        }
                    }
                    sort_acts(&mut x.acts);
                }
                for (_, b) in map {
                    self.declare_like(
                        b,
                        map.iter()
                            .filter(|(_, t)| t == b)
                            .map(|(f, _)| f.clone())
                            .collect(),
                    );
                }
                r
            }
            PNode::Comm(rules, body) => {
                // The name lists of each parallel component's summands, before composing
                // them prunes synchronisations whose data cannot match.
                let mut kid_names: Option<Vec<Vec<Vec<Name>>>> = None;
                let r = match (&**body, k) {
                    (PNode::Par(kids), Constraint::Any { blocked }) if !blocked.is_empty() => {
                        self.lin_par_alphabet(kids, rules, k)?
                    }
                    (PNode::Par(kids), _) => {
                        let kc = k.comm(rules);
                        let mut results = Vec::new();
                        for kid in kids {
                            results.push(self.lin_node(kid, &kc)?);
                        }
                        kid_names = Some(
                            results
                                .iter()
                                .zip(kids)
                                .map(|(sums, kid)| {
                                    let mut l: Vec<Vec<Name>> =
                                        sums.iter().map(|s| s.names()).collect();
                                    // mCRL2's alphabet is syntactic: an action under a false
                                    // condition, which linearisation drops, still counts.
                                    if let PNode::Leaf(e, _) = kid {
                                        let mut seen = HashSet::new();
                                        let mut names = BTreeSet::new();
                                        syntactic_names(self.spec, e, &mut seen, &mut names);
                                        l.extend(names.into_iter().map(|n| vec![n]));
                                    }
                                    l.sort();
                                    l.dedup();
                                    l
                                })
                                .collect(),
                        );
                        self.fold_par_comm(results, &kc, rules, k)?
                    }
                    _ => self.lin_node(body, &k.comm(rules))?,
                };
                // mCRL2 runs sum elimination on every summand under `comm`, which drops the
                // unused sum variables (elsewhere each of their values is a transition) -- unless
                // its alphabet reduction removed the `comm`: under an `allow`, rules whose
                // parties never occur together in the operand's alphabet are dropped (by
                // names: parties whose data never match still count), and no rule left
                // means no communication step.
                let effective = !matches!(k, Constraint::Finite { .. })
                    || rules.iter().any(|rule| {
                        let mut lhs = rule.lhs.0.clone();
                        lhs.sort();
                        match &kid_names {
                            Some(kids) => may_meet(&lhs, kids),
                            None => r.iter().any(|s| sub_multiset(&lhs, &s.names())),
                        }
                    });
                let mut out = Vec::new();
                for s in r {
                    out.extend(self.apply_comm(s, rules, k)?);
                }
                if effective {
                    for s in &mut out {
                        drop_unused_sum_vars(s, &self.pinned);
                    }
                }
                for rule in rules {
                    if let Some(b) = &rule.rhs {
                        self.declare_like(b, rule.lhs.0.clone());
                    }
                }
                out
            }
        };
        if std::env::var_os("MUON_LIN_TRACE").is_some() {
            let kind = match n {
                PNode::Leaf(..) => "leaf",
                PNode::Par(_) => "par",
                PNode::Sync(..) => "sync",
                PNode::Allow(..) => "allow",
                PNode::Block(..) => "block",
                PNode::Hide(..) => "hide",
                PNode::Rename(..) => "rename",
                PNode::Comm(..) => "comm",
            };
            errln!("lin: {kind}: {} summands", r.len());
        }
        if r.len() > MAX_SUMMANDS {
            return Err(LinError::TooLarge {
                what: format!("more than {MAX_SUMMANDS} summands"),
                span: self.spec.init_span,
            });
        }
        Ok(r)
    }

    /// The interleaving fold over the components' summands.
    pub(super) fn fold_par(
        &mut self,
        results: Vec<Vec<CSum>>,
        k: &Constraint,
    ) -> Result<Vec<CSum>, LinError> {
        let mut acc: Option<Vec<CSum>> = None;
        for r in results {
            acc = Some(match acc {
                None => r,
                Some(a) => self.compose(a, r, k, true)?,
            });
        }
        Ok(acc.unwrap_or_default())
    }

    /// `comm(rules, kids…)` under a block-style constraint `outer`: computes the alphabet of
    /// the composition (name multisets, at most one summand per component) and keeps only
    /// those whose communication can satisfy `outer` as the constraint for composing, the
    /// way mCRL2 turns `block` into an allow set by alphabet reasoning.
    pub(super) fn lin_par_alphabet(
        &mut self,
        kids: &[PNode],
        rules: &[CommRule],
        outer: &Constraint,
    ) -> Result<Vec<CSum>, LinError> {
        let kc = outer.comm(rules);
        let mut results = Vec::new();
        for kid in kids {
            results.push(self.lin_node(kid, &kc)?);
        }
        let mut u: BTreeSet<Vec<Name>> = BTreeSet::new();
        let mut overflow = false;
        for r in &results {
            let alph: BTreeSet<Vec<Name>> = r
                .iter()
                .map(|s| s.names())
                .filter(|n| !n.is_empty())
                .collect();
            let mut next = u.clone();
            for m in &alph {
                next.insert(m.clone());
                for x in &u {
                    let mut y = x.clone();
                    y.extend(m.iter().cloned());
                    y.sort();
                    next.insert(y);
                }
            }
            u = next;
            if u.len() > MAX_CONSTRAINT_SETS {
                overflow = true;
                break;
            }
        }
        if overflow {
            return self.fold_par(results, &kc);
        }
        let useful: Vec<Vec<Name>> = u
            .into_iter()
            .filter(|m| {
                let mut budget = 10_000usize;
                comm_can_satisfy(m, &[], rules, outer, &mut budget)
            })
            .collect();
        let k2 = Constraint::Finite {
            sets: useful,
            free: BTreeSet::new(),
        };
        for r in results.iter_mut() {
            r.retain(|s| k2.possible(&s.names()));
        }
        self.fold_par_comm(results, &k2, rules, outer)
    }

    /// The interleaving fold under `comm(rules, …)` whose result must satisfy `outer`: after
    /// each step, a summand is dropped when one of its actions can never appear in an
    /// accepted multi-action un-communicated and has no possible partner (same name as a
    /// rule's other parties, arguments not provably different) in the summand itself or in
    /// the components still to come.
    pub(super) fn fold_par_comm(
        &mut self,
        results: Vec<Vec<CSum>>,
        k: &Constraint,
        rules: &[CommRule],
        outer: &Constraint,
    ) -> Result<Vec<CSum>, LinError> {
        // Names that must communicate: not acceptable on their own above the comm.
        let lhs_names: BTreeSet<Name> =
            rules.iter().flat_map(|r| r.lhs.0.iter().cloned()).collect();
        let must: BTreeSet<Name> = lhs_names
            .into_iter()
            .filter(|n| !outer.possible(std::slice::from_ref(n)))
            .collect();
        if must.is_empty() {
            return self.fold_par(results, k);
        }
        // Multi-party synchronisations (3 or more parties, e.g. a global tick) multiply the
        // number of summands of every component that takes part: cluster each component's
        // summands for those actions over its control states first.
        let big: BTreeSet<Name> = rules
            .iter()
            .filter(|r| r.lhs.0.len() >= 3)
            .flat_map(|r| r.lhs.0.iter().cloned())
            .collect();
        let results: Vec<Vec<CSum>> = if big.is_empty() {
            results
        } else {
            results
                .into_iter()
                .map(|r| self.cluster(r, &big, false, None))
                .collect()
        };
        // Future actions (distinct) per suffix of components.
        let n = results.len();
        let mut future: Vec<Vec<Action>> = vec![Vec::new(); n + 1];
        for i in (0..n).rev() {
            let mut f = future[i + 1].clone();
            for s in &results[i] {
                for a in &s.acts {
                    if !f.contains(a) {
                        f.push(a.clone());
                    }
                }
            }
            future[i] = f;
        }
        let mut acc: Option<Vec<CSum>> = None;
        for (i, r) in results.into_iter().enumerate() {
            let mut next = match acc {
                None => r,
                Some(a) => self.compose(a, r, k, true)?,
            };
            let fut = &future[i + 1];
            next.retain(|s| self.completable(s, fut, rules, &must));
            if std::env::var_os("MUON_LIN_TRACE").is_some() {
                errln!("lin: par step {i}: {} summands", next.len());
            }
            acc = Some(next);
        }
        Ok(acc.unwrap_or_default())
    }

    /// Whether every must-communicate action of `s` has, for some rule, candidate partners
    /// in `s` itself or in `future`.
    pub(super) fn completable(
        &self,
        s: &CSum,
        future: &[Action],
        rules: &[CommRule],
        must: &BTreeSet<Name>,
    ) -> bool {
        let simp = &*self.simp;
        let may_match = |a: &Action, b: &Action| -> bool {
            a.sorts == b.sorts
                && a.args.iter().zip(&b.args).all(|(x, y)| {
                    x == y || !ir_ops::is_false(&simp.simplify(&eq(x.clone(), y.clone())))
                })
        };
        for (ai, a) in s.acts.iter().enumerate() {
            if !must.contains(&a.name) {
                continue;
            }
            let ok = rules.iter().any(|r| {
                if !r.lhs.0.contains(&a.name) {
                    return false;
                }
                // every other party of the rule needs a candidate
                let mut others: Vec<&Name> = r.lhs.0.iter().collect();
                let pos = others.iter().position(|x| **x == a.name).expect("contains");
                others.remove(pos);
                others.iter().all(|o| {
                    s.acts
                        .iter()
                        .enumerate()
                        .any(|(j, b)| j != ai && b.name == **o && may_match(a, b))
                        || future.iter().any(|b| b.name == **o && may_match(a, b))
                })
            });
            if !ok {
                return false;
            }
        }
        true
    }

    /// Declares action `b` with the sorts of the actions in `from` if it is not declared
    /// with those sorts yet.
    pub(super) fn declare_like(&mut self, b: &Name, from: Vec<Name>) {
        let sorts: Vec<Vec<Sort>> = self
            .spec
            .actions
            .iter()
            .filter(|d| from.contains(&d.name))
            .map(|d| d.sorts.clone())
            .collect();
        for s in sorts {
            if !self.actions.iter().any(|d| d.name == *b && d.sorts == s) {
                self.actions.push(ActionDecl {
                    name: b.clone(),
                    sorts: s,
                    span: Span::default(),
                });
            }
        }
    }

    /// Names of the parameters (sum variables must avoid them).
    pub(super) fn param_names(&self) -> HashSet<Name> {
        let mut s: HashSet<Name> = self.params.iter().map(|v| v.name.clone()).collect();
        s.extend(self.globals.iter().map(|v| v.name.clone()));
        s
    }

    /// Parallel composition (`interleave`) or synchronous product of two summand sets.
    pub(super) fn compose(
        &mut self,
        a: Vec<CSum>,
        b: Vec<CSum>,
        k: &Constraint,
        interleave: bool,
    ) -> Result<Vec<CSum>, LinError> {
        let pnames = self.param_names();
        // Sum variables must not capture parameters of the other side.
        let fix = |v: Vec<CSum>| -> Vec<CSum> {
            v.into_iter()
                .map(|s| {
                    if s.sum_vars.iter().any(|x| pnames.contains(&x.name)) {
                        subst_csum(&s, &Subst::new(), &pnames)
                    } else {
                        s
                    }
                })
                .collect()
        };
        let a = fix(a);
        let b = fix(b);
        let mut out = Vec::new();
        let bn: Vec<Vec<Name>> = b.iter().map(|x| x.names()).collect();
        for x in &a {
            let xn = x.names();
            let xav: HashSet<Name> = x
                .sum_vars
                .iter()
                .map(|v| v.name.clone())
                .chain(pnames.iter().cloned())
                .collect();
            for (y, yn) in b.iter().zip(&bn) {
                let mut names = xn.clone();
                names.extend(yn.iter().cloned());
                names.sort();
                if !k.possible(&names) {
                    continue;
                }
                let y2 = if y.sum_vars.iter().any(|v| xav.contains(&v.name)) {
                    subst_csum(y, &Subst::new(), &xav)
                } else {
                    y.clone()
                };
                let mut acts = x.acts.clone();
                acts.extend(y2.acts);
                sort_acts(&mut acts);
                let mut assign = x.assign.clone();
                assign.extend(y2.assign);
                assign.sort_by_key(|p| p.0);
                let mut sv = x.sum_vars.clone();
                sv.extend(y2.sum_vars);
                out.push(CSum {
                    sum_vars: sv,
                    cond: and(x.cond.clone(), y2.cond),
                    acts,
                    assign,
                    origin: merge_origin(&x.origin, &y2.origin, " | "),
                });
                if out.len() > MAX_SUMMANDS {
                    return Err(LinError::TooLarge {
                        what: format!(
                            "more than {MAX_SUMMANDS} summands in a parallel composition"
                        ),
                        span: self.spec.init_span,
                    });
                }
            }
        }
        if interleave {
            let mut r = a;
            r.extend(b);
            r.extend(out);
            Ok(r)
        } else {
            Ok(out)
        }
    }

    /// Applies communication rules to one summand (maximal communication on open terms).
    pub(super) fn apply_comm(
        &mut self,
        s: CSum,
        rules: &[CommRule],
        outer: &Constraint,
    ) -> Result<Vec<CSum>, LinError> {
        // Candidate groups: (rule, action indices) whose names match the rule's lhs and
        // whose sorts agree.
        let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
        for (ri, r) in rules.iter().enumerate() {
            let lhs = &r.lhs.0;
            let mut chosen = Vec::new();
            find_groups(&s.acts, lhs, 0, 0, &mut chosen, &mut |g| {
                groups.push((ri, g.to_vec()))
            });
        }
        if groups.is_empty() {
            return Ok(vec![s]);
        }
        let data_eq = |g: &[usize]| -> DataExpr {
            let first = &s.acts[g[0]];
            and_all(g[1..].iter().flat_map(|j| {
                first
                    .args
                    .iter()
                    .zip(&s.acts[*j].args)
                    .map(|(x, y)| {
                        if x == y {
                            true_()
                        } else {
                            eq(x.clone(), y.clone())
                        }
                    })
                    .collect::<Vec<_>>()
            }))
        };
        let syn = &*self.simp;
        let eqs: Vec<DataExpr> = groups
            .iter()
            .map(|(_, g)| syn.simplify(&data_eq(g)))
            .collect();
        let mut out = Vec::new();
        let mut sel: Vec<usize> = Vec::new();
        let mut count = 0usize;
        enumerate_selections(
            &groups,
            0,
            &mut sel,
            &mut vec![false; s.acts.len()],
            &mut |sel, used| {
                count += 1;
                if count > 100_000 {
                    return false;
                }
                // Results the operators above can never accept are not built at all.
                let mut names: Vec<Name> = s
                    .acts
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| !used[*j])
                    .map(|(_, a)| a.name.clone())
                    .collect();
                for gi in sel {
                    names.extend(rules[groups[*gi].0].rhs.iter().cloned());
                }
                names.sort();
                if !outer.possible(&names) {
                    return true;
                }
                let mut conds = Vec::new();
                for gi in sel {
                    conds.push(eqs[*gi].clone());
                }
                // Maximality: no other group within the remaining actions can communicate.
                for (gi, (_, g)) in groups.iter().enumerate() {
                    if g.iter().all(|j| !used[*j]) {
                        if ir_ops::is_true(&eqs[gi]) {
                            return true; // this selection is not maximal
                        }
                        conds.push(not(eqs[gi].clone()));
                    }
                }
                let mut acts = Vec::new();
                let mut desc = Vec::new();
                for gi in sel {
                    let (ri, g) = &groups[*gi];
                    let r = &rules[*ri];
                    desc.push(format!(
                        "{} -> {}",
                        r.lhs.0.join("|"),
                        r.rhs.as_deref().unwrap_or("tau")
                    ));
                    if let Some(rhs) = &r.rhs {
                        let first = &s.acts[g[0]];
                        acts.push(Action {
                            name: rhs.clone(),
                            sorts: first.sorts.clone(),
                            args: first.args.clone(),
                        });
                    }
                }
                for (j, a) in s.acts.iter().enumerate() {
                    if !used[j] {
                        acts.push(a.clone());
                    }
                }
                sort_acts(&mut acts);
                let mut origin = s.origin.clone();
                if !desc.is_empty() {
                    origin.description =
                        format!("{} (comm {})", origin.description, desc.join(", "));
                }
                // The summand's own condition is already simplified; only the new conjuncts
                // (already simplified equalities and their negations) can make it false.
                if conds.iter().any(ir_ops::is_false) {
                    return true;
                }
                let mut cond = s.cond.clone();
                for c in conds {
                    cond = and(cond, c);
                }
                out.push(CSum {
                    sum_vars: s.sum_vars.clone(),
                    cond,
                    acts,
                    assign: s.assign.clone(),
                    origin,
                });
                true
            },
        );
        if count > 100_000 {
            return Err(LinError::TooLarge {
                what: format!(
                    "too many ways to apply the communications to the multi-action of {}",
                    s.origin.description
                ),
                span: self.spec.init_span,
            });
        }
        Ok(out)
    }
}

/// Whether some choice of communications (names only, data ignored) turns the multiset
/// `rem` (+ already produced names) into a multi-action `outer` accepts. Over-approximates
/// (answers `true`) when the search budget runs out.
pub(super) fn comm_can_satisfy(
    rem: &[Name],
    produced: &[Name],
    rules: &[CommRule],
    outer: &Constraint,
    budget: &mut usize,
) -> bool {
    if *budget == 0 {
        return true;
    }
    *budget -= 1;
    let mut all: Vec<Name> = rem.iter().chain(produced).cloned().collect();
    all.sort();
    if outer.possible(&all) {
        return true;
    }
    for r in rules {
        if sub_multiset(&r.lhs.0, rem) {
            let mut left = rem.to_vec();
            for n in &r.lhs.0 {
                let i = left.iter().position(|x| x == n).expect("sub-multiset");
                left.remove(i);
            }
            let mut prod = produced.to_vec();
            prod.extend(r.rhs.iter().cloned());
            if comm_can_satisfy(&left, &prod, rules, outer, budget) {
                return true;
            }
        }
    }
    false
}

/// Calls `found` with every increasing index tuple of `acts` whose names are `lhs` (sorted)
/// and whose sorts agree.
pub(super) fn find_groups(
    acts: &[Action],
    lhs: &[Name],
    pos: usize,
    from: usize,
    chosen: &mut Vec<usize>,
    found: &mut dyn FnMut(&[usize]),
) {
    if pos == lhs.len() {
        found(chosen);
        return;
    }
    // Repeated names take increasing indices so that each group is found once.
    let start = if pos > 0 && lhs[pos] == lhs[pos - 1] {
        chosen[pos - 1] + 1
    } else {
        0
    };
    let _ = from;
    for j in start..acts.len() {
        if acts[j].name != lhs[pos] || chosen.contains(&j) {
            continue;
        }
        if let Some(f) = chosen.first() {
            if acts[*f].sorts != acts[j].sorts {
                continue;
            }
        }
        chosen.push(j);
        find_groups(acts, lhs, pos + 1, j + 1, chosen, found);
        chosen.pop();
    }
}

/// Enumerates sets of pairwise disjoint groups; `visit` returns false to stop.
pub(super) fn enumerate_selections(
    groups: &[(usize, Vec<usize>)],
    i: usize,
    sel: &mut Vec<usize>,
    used: &mut Vec<bool>,
    visit: &mut dyn FnMut(&[usize], &[bool]) -> bool,
) -> bool {
    if i == groups.len() {
        return visit(sel, used);
    }
    // Without group i.
    if !enumerate_selections(groups, i + 1, sel, used, visit) {
        return false;
    }
    let g = &groups[i].1;
    if g.iter().all(|j| !used[*j]) {
        for j in g {
            used[*j] = true;
        }
        sel.push(i);
        let ok = enumerate_selections(groups, i + 1, sel, used, visit);
        sel.pop();
        for j in g {
            used[*j] = false;
        }
        if !ok {
            return false;
        }
    }
    true
}

/// Removes the sum variables of `s` that occur nowhere in it.
fn drop_unused_sum_vars(s: &mut CSum, pinned: &HashSet<Name>) {
    if s.sum_vars.is_empty() {
        return;
    }
    let mut fv = Vec::new();
    ir_ops::free_vars_into(&s.cond, &mut fv);
    for a in &s.acts {
        for d in &a.args {
            ir_ops::free_vars_into(d, &mut fv);
        }
    }
    for (_, d) in &s.assign {
        ir_ops::free_vars_into(d, &mut fv);
    }
    s.sum_vars
        .retain(|v| fv.contains(v) || pinned.contains(&v.name));
}
