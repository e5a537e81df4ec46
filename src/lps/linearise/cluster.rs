//! Clustering: the summands of one component that do the same action labels become one
//! summand, so that a multi-party synchronisation composes one summand per component instead
//! of the product of all their alternatives (mCRL2 clusters every sequential component the
//! same way before composing).
//!
//! Two steps, both exact (the clustered summand has precisely the transitions of its members):
//! 1. **Layers.** Members without sum variables that sit in different values of one control
//!    parameter (`s == k` as first conjunct) exclude each other: they merge into one summand
//!    with condition `c1 || c2 || …` and values `if(c1, x1, if(c2, x2, …))`, no new variable.
//! 2. **Selector.** Several layers become one summand over fresh Boolean selector variables
//!    (a balanced case tree; leaves past the last member are `false`). Sum variables of the
//!    members are merged by sort, as mCRL2's `merge_var` does; a merged variable that a member
//!    does not use is fixed to its sort's default value in that member's branch, so no member
//!    gets duplicate transitions. The selectors come first among the sum variables: the
//!    enumerator decides them first, and the case trees then rewrite to one member's terms.

use super::*;

/// What summands must share to be clustered: their action labels (names and sorts), in order.
type Labels = Vec<(Name, Vec<Sort>)>;

/// Members of one layer: the control parameter they are split on, and per member its value
/// (as text) and the summand.
struct Layer {
    ctrl: Option<Var>,
    members: Vec<(String, CSum)>,
    /// The members' hashes before constant parameters were substituted, sorted; empty
    /// when unknown or when a member has sum variables.
    before: Vec<u64>,
}

impl Lin<'_> {
    /// Clusters the summands of `sums` whose actions are all in `names`: one summand per
    /// list of action labels (names and sorts); the `tau` summands too when `tau` (mCRL2
    /// clusters them with the rest: under a `comm` its sum elimination then drops a selector
    /// that identical members leave unused, so `tau . P + tau . P` can be one transition).
    /// Other summands are returned unchanged.
    ///
    /// `before` has per summand a hash of it before the component's constant parameters
    /// were substituted. mCRL2 clusters before it substitutes them, so its selector of
    /// members that differed only there stays in the clustered summand's terms and sum
    /// elimination under a `comm` keeps it (each member a transition of its own, though
    /// they are now the same): such selectors are pinned (random seed 25 #65). This is not
    /// yet mCRL2's rule: it drops parameters no step reads before it clusters, so members
    /// that differed only in one of those are the same to it (seed 4242 #286: 3/33 for
    /// mCRL2's 3/24); telling the two apart needs its instances of processes with constant
    /// arguments (issue 38's control states).
    pub(super) fn cluster(
        &mut self,
        sums: Vec<CSum>,
        names: &BTreeSet<Name>,
        tau: bool,
        before: Option<&[u64]>,
    ) -> Vec<CSum> {
        let mut out = Vec::new();
        let mut groups: Vec<(Labels, Vec<Layer>)> = Vec::new();
        for (si, s) in sums.into_iter().enumerate() {
            // Only members without sum variables: mCRL2 compares members after renaming
            // theirs onto the merged ones, which a hash of names cannot.
            let hash = before
                .filter(|_| s.sum_vars.is_empty())
                .and_then(|b| b.get(si).copied());
            let eligible = if s.acts.is_empty() {
                tau
            } else {
                s.acts.iter().all(|a| names.contains(&a.name))
            };
            if !eligible {
                out.push(s);
                continue;
            }
            let key: Labels = s
                .acts
                .iter()
                .map(|a| (a.name.clone(), a.sorts.clone()))
                .collect();
            let gi = match groups.iter().position(|g| g.0 == key) {
                Some(i) => i,
                None => {
                    groups.push((key, Vec::new()));
                    groups.len() - 1
                }
            };
            let layers = &mut groups[gi].1;
            let ctrl = if s.sum_vars.is_empty() {
                control_of(&s.cond)
            } else {
                None
            };
            match ctrl {
                Some((cv, val)) => {
                    let fits = |l: &Layer| {
                        l.ctrl.as_ref() == Some(&cv) && !l.members.iter().any(|(v, _)| *v == val)
                    };
                    match layers.iter_mut().find(|l| fits(l)) {
                        Some(l) => {
                            l.members.push((val, s));
                            l.before.extend(hash);
                        }
                        None => layers.push(Layer {
                            ctrl: Some(cv),
                            members: vec![(val, s)],
                            before: hash.into_iter().collect(),
                        }),
                    }
                }
                None => layers.push(Layer {
                    ctrl: None,
                    members: vec![(String::new(), s)],
                    before: hash.into_iter().collect(),
                }),
            }
        }
        for (_, layers) in groups {
            // The layers differed before substitution, though they may be the same now.
            let differed = {
                let mut b: Vec<Vec<u64>> = layers
                    .iter()
                    .map(|l| {
                        let mut v = l.before.clone();
                        v.sort_unstable();
                        v
                    })
                    .collect();
                let complete = layers.iter().all(|l| l.before.len() == l.members.len());
                b.sort();
                b.dedup();
                complete && b.len() > 1
            };
            let merged: Vec<CSum> = layers
                .into_iter()
                .map(|l| {
                    let mut members: Vec<CSum> = l.members.into_iter().map(|x| x.1).collect();
                    if members.len() == 1 {
                        members.pop().expect("one member")
                    } else {
                        merge_layer(&self.params, members)
                    }
                })
                .collect();
            if merged.len() == 1 {
                out.extend(merged);
            } else {
                match self.merge_selector(merged) {
                    Ok(s) => {
                        if differed {
                            if let Some(c) = s.origin.clusters.last() {
                                self.pinned.extend(c.selectors.iter().cloned());
                            }
                        }
                        out.push(s)
                    }
                    Err(members) => out.extend(members),
                }
            }
        }
        out
    }

    /// One summand for `members` (same action labels) over fresh Boolean selectors; gives
    /// the members back when a merged sum variable has no default value to fix it to.
    fn merge_selector(&mut self, members: Vec<CSum>) -> Result<CSum, Vec<CSum>> {
        // Merge the sum variables by sort (the first unused merged variable of the sort).
        let mut merged: Vec<Var> = Vec::new();
        let mut renames: Vec<Subst> = Vec::new();
        let mut uses: Vec<Vec<bool>> = Vec::new();
        for m in &members {
            let mut used = vec![false; merged.len()];
            let mut sigma = Subst::new();
            for v in &m.sum_vars {
                let hit = (0..merged.len()).find(|&i| !used[i] && merged[i].sort == v.sort);
                match hit {
                    Some(i) => {
                        used[i] = true;
                        if merged[i] != *v {
                            sigma.insert(v.clone(), DataExpr::Var(merged[i].clone()));
                        }
                    }
                    None => {
                        let mut w = v.clone();
                        if merged.iter().any(|x| x.name == w.name) {
                            let mut taken: HashSet<Name> =
                                merged.iter().map(|x| x.name.clone()).collect();
                            taken.extend(self.used_names.iter().cloned());
                            for o in &members {
                                taken.extend(o.sum_vars.iter().map(|x| x.name.clone()));
                            }
                            w.name = fresh_name(&v.name, &mut taken);
                            sigma.insert(v.clone(), DataExpr::Var(w.clone()));
                        }
                        merged.push(w);
                        used.push(true);
                    }
                }
            }
            renames.push(sigma);
            uses.push(used);
        }
        let mut defaults = Vec::with_capacity(merged.len());
        for (i, w) in merged.iter().enumerate() {
            let needed = uses.iter().any(|u| !u.get(i).copied().unwrap_or(false));
            match default_value(&w.sort, &self.spec.data) {
                Some(d) => defaults.push(d),
                None if !needed => defaults.push(DataExpr::Var(w.clone())),
                None => return Err(members),
            }
        }
        // Fresh selectors, clear of every name in sight.
        let bits = usize::BITS - (members.len() - 1).leading_zeros();
        let mut taken: HashSet<Name> = self.used_names.clone();
        taken.extend(merged.iter().map(|x| x.name.clone()));
        for m in &members {
            taken.extend(m.sum_vars.iter().map(|x| x.name.clone()));
        }
        let selectors: Vec<Var> = (0..bits)
            .map(|_| {
                let name = fresh_name("sel", &mut taken);
                self.used_names.insert(name.clone());
                self.selectors.insert(name.clone());
                Var {
                    name,
                    sort: Sort::Bool,
                }
            })
            .collect();
        // Per member: each merged variable it uses, with the model's name for it.
        let own_names: Vec<Vec<(Name, Name)>> = members
            .iter()
            .zip(&renames)
            .map(|(m, sigma)| {
                m.sum_vars
                    .iter()
                    .map(|v| {
                        let model = m.origin.model_name(&v.name).clone();
                        match sigma.get(v) {
                            Some(DataExpr::Var(w)) => (w.name.clone(), model),
                            _ => (v.name.clone(), model),
                        }
                    })
                    .collect()
            })
            .collect();
        // Each member renamed onto the merged variables, unused ones fixed to defaults.
        let members: Vec<CSum> = members
            .iter()
            .zip(&renames)
            .zip(&uses)
            .map(|((m, sigma), used)| {
                // `sigma` renames the member's own sum variables onto merged ones of the same
                // sorts: apply it with the binder lifted, as `component` does for renamings.
                let mut bare = m.clone();
                bare.sum_vars = vec![];
                let mut r = subst_csum(&bare, sigma, &HashSet::new());
                for (i, w) in merged.iter().enumerate() {
                    if !used.get(i).copied().unwrap_or(false) {
                        r.cond = and(r.cond, eq(DataExpr::Var(w.clone()), defaults[i].clone()));
                    }
                }
                r
            })
            .collect();
        let cond = case_tree(
            &selectors,
            &members.iter().map(|m| m.cond.clone()).collect::<Vec<_>>(),
            Some(&ir_ops::false_()),
        );
        let (acts, assign) = merge_terms(&self.params, &members, |vals| {
            case_tree(&selectors, &vals, None)
        });
        let mut origin = members[0].origin.clone();
        for m in &members[1..] {
            origin = merge_origin(&origin, &m.origin, " + ");
        }
        origin
            .synthetic
            .extend(selectors.iter().map(|v| v.name.clone()));
        // Which member fired and the names it gives its variables, for traces.
        origin.clusters.push(Cluster {
            selectors: selectors.iter().map(|v| v.name.clone()).collect(),
            merged: merged.iter().map(|v| v.name.clone()).collect(),
            members: own_names,
        });
        let mut sum_vars = selectors;
        sum_vars.extend(merged);
        Ok(CSum {
            sum_vars,
            cond,
            acts,
            assign,
            origin,
        })
    }
}

impl Lin<'_> {
    /// Expands the clusters of the final summands back into one summand per selector value
    /// where that is cheap (at most [`MAX_DECLUSTER_BITS`] selectors): the transitions stay
    /// exactly the same, and the flat summands are cheaper for exploration and for the PBES
    /// instantiation, which would otherwise rewrite every member's terms for every member.
    /// Summands with more selectors (a synchronisation of many clustered components, where
    /// the expansion is their product) stay clustered.
    pub(super) fn decluster(&self, sums: Vec<CSum>) -> Vec<CSum> {
        let mut out = Vec::with_capacity(sums.len());
        for s in sums {
            let sels: Vec<Var> = s
                .sum_vars
                .iter()
                .filter(|v| self.selectors.contains(&v.name))
                .cloned()
                .collect();
            if sels.is_empty() || sels.len() > MAX_DECLUSTER_BITS {
                out.push(s);
                continue;
            }
            let simp = &*self.simp;
            for i in 0..1usize << sels.len() {
                let sigma: Subst = sels
                    .iter()
                    .enumerate()
                    .map(|(j, v)| {
                        let bit = (i >> (sels.len() - 1 - j)) & 1 == 1;
                        let value = if bit { true_() } else { ir_ops::false_() };
                        (v.clone(), value)
                    })
                    .collect();
                let cond = simp.simplify(&substitute(&s.cond, &sigma));
                if is_false(&cond) {
                    continue;
                }
                let one = |d: &DataExpr| simp.simplify(&substitute(d, &sigma));
                out.push(CSum {
                    sum_vars: s
                        .sum_vars
                        .iter()
                        .filter(|v| !sigma.contains_key(*v))
                        .cloned()
                        .collect(),
                    cond,
                    acts: s
                        .acts
                        .iter()
                        .map(|a| {
                            let mut a = a.clone();
                            for d in a.args.iter_mut() {
                                *d = one(d);
                            }
                            a
                        })
                        .collect(),
                    assign: s.assign.iter().map(|(k, d)| (*k, one(d))).collect(),
                    origin: fix_selectors(&s.origin, &sigma),
                });
            }
        }
        out
    }
}

/// The origin of one expansion of a clustered summand: each cluster whose selectors `sigma`
/// fixes keeps only the member they choose.
fn fix_selectors(origin: &Origin, sigma: &Subst) -> Origin {
    let mut o = origin.clone();
    for c in &mut o.clusters {
        let mut index = 0usize;
        let mut fixed = true;
        for sel in &c.selectors {
            match sigma.iter().find(|(v, _)| v.name == *sel) {
                Some((_, e)) => index = 2 * index + usize::from(ir_ops::is_true(e)),
                None => fixed = false,
            }
        }
        if fixed {
            c.selectors.clear();
            c.members = c.members.get(index).cloned().into_iter().collect();
        }
    }
    o
}

/// Most selector variables of a summand [`Lin::decluster`] expands (64 summands).
const MAX_DECLUSTER_BITS: usize = 6;

/// The control parameter and value a summand's condition starts with (`s == k`).
fn control_of(c: &DataExpr) -> Option<(Var, String)> {
    let first = ir_ops::conjuncts(c).into_iter().next()?;
    match ir_ops::as_app(&first) {
        Some(("==", [DataExpr::Var(v), DataExpr::Number { value, .. }])) => {
            Some((v.clone(), value.to_string()))
        }
        _ => None,
    }
}

/// The balanced case tree over `sel` (most significant selector first) whose leaf `i` is
/// `vals[i]`; leaves past the end are `pad`, or repeat the last value when `pad` is `None`
/// (those leaves are unreachable: the condition tree pads with `false`). Equal subtrees
/// collapse to their value.
fn case_tree(sel: &[Var], vals: &[DataExpr], pad: Option<&DataExpr>) -> DataExpr {
    fn go(
        sel: &[Var],
        vals: &[DataExpr],
        pad: Option<&DataExpr>,
        lo: usize,
        width: usize,
    ) -> DataExpr {
        let leaf = |i: usize| -> DataExpr {
            match vals.get(i) {
                Some(v) => v.clone(),
                None => pad.cloned().unwrap_or_else(|| vals[vals.len() - 1].clone()),
            }
        };
        if width == 1 {
            return leaf(lo);
        }
        let half = width / 2;
        let depth = sel.len() - half.trailing_zeros() as usize - 1;
        let low = go(sel, vals, pad, lo, half);
        let high = go(sel, vals, pad, lo + half, half);
        if low == high {
            return low;
        }
        let b = DataExpr::Var(sel[depth].clone());
        if is_false(&high) {
            return and(not(b), low);
        }
        let sort = low.sort();
        ir_ops::app("if", vec![b, high, low], sort)
    }
    go(sel, vals, pad, 0, 1usize << sel.len())
}

/// One summand for summands with mutually exclusive conditions and the same action names.
fn merge_layer(params: &[Var], members: Vec<CSum>) -> CSum {
    let conds: Vec<DataExpr> = members.iter().map(|m| m.cond.clone()).collect();
    let choose = |vals: Vec<DataExpr>| -> DataExpr {
        let first = vals[0].clone();
        if vals.iter().all(|v| *v == first) {
            return first;
        }
        let sort = first.sort();
        let mut acc = vals[vals.len() - 1].clone();
        for i in (0..vals.len() - 1).rev() {
            acc = ir_ops::app(
                "if",
                vec![conds[i].clone(), vals[i].clone(), acc],
                sort.clone(),
            );
        }
        acc
    };
    let (acts, assign) = merge_terms(params, &members, choose);
    let mut cond = conds[0].clone();
    for c in &conds[1..] {
        cond = ir_ops::or(cond, c.clone());
    }
    let mut origin = members[0].origin.clone();
    for m in &members[1..] {
        origin = merge_origin(&origin, &m.origin, " + ");
    }
    CSum {
        sum_vars: vec![],
        cond,
        acts,
        assign,
        origin,
    }
}

/// The action arguments and next-state values of `members` (same action labels) merged by
/// `pick`, which gets one value per member (an unassigned parameter keeps its value).
fn merge_terms(
    params: &[Var],
    members: &[CSum],
    pick: impl Fn(Vec<DataExpr>) -> DataExpr,
) -> (Vec<Action>, Vec<(u32, DataExpr)>) {
    let mut acts = members[0].acts.clone();
    for (ai, a) in acts.iter_mut().enumerate() {
        for (k, arg) in a.args.iter_mut().enumerate() {
            *arg = pick(members.iter().map(|m| m.acts[ai].args[k].clone()).collect());
        }
    }
    let mut idx: Vec<u32> = members
        .iter()
        .flat_map(|m| m.assign.iter().map(|p| p.0))
        .collect();
    idx.sort();
    idx.dedup();
    let assign = idx
        .into_iter()
        .map(|i| {
            let vals = members
                .iter()
                .map(|m| {
                    m.assign
                        .iter()
                        .find(|p| p.0 == i)
                        .map(|p| p.1.clone())
                        .unwrap_or_else(|| DataExpr::Var(params[i as usize].clone()))
                })
                .collect();
            (i, pick(vals))
        })
        .collect();
    (acts, assign)
}
