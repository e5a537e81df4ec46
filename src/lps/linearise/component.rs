//! One sequential component: its control states become a parameter, its alternatives become
//! summands, and constant parameters are eliminated within the component.

use super::*;
use std::hash::{Hash, Hasher};

/// An alternative of a reachable control state, with where it leads.
struct Reached {
    alt: Alt,
    /// The state and arguments it jumps to; `None` when it terminates.
    target: Option<Call>,
    /// Its condition rewritten, once: as mCRL2's substitution leaves it, which decides
    /// both which states are one ([`Lin::merge_equal_ctrls`]) and what a sequence state
    /// reads.
    cond: DataExpr,
}

impl Lin<'_> {
    // ----- components ----------------------------------------------------------------

    pub(super) fn default_for(&mut self, sort: &Sort) -> DataExpr {
        if let Some(d) = default_value(sort, &self.spec.data) {
            return d;
        }
        if let Some(g) = self
            .globals
            .iter()
            .find(|g| g.name.starts_with("dc") && g.sort == *sort)
        {
            return DataExpr::Var(g.clone());
        }
        let v = Var {
            name: fresh_name("dc", &mut self.used_names),
            sort: sort.clone(),
        };
        self.globals.push(v.clone());
        DataExpr::Var(v)
    }

    /// Linearises one sequential leaf into a component: allocates its parameters and
    /// returns its summands.
    /// Also returns, per summand, the parameters it resets to a "don't care" default
    /// because the target control state does not use them.
    pub(super) fn component(
        &mut self,
        e: &ProcExpr,
        span: Span,
        k: &Constraint,
    ) -> Result<(Vec<CSum>, Vec<Vec<u32>>), LinError> {
        // The component's first state: its process with `init`'s arguments (standing for
        // `P . Terminated` when it can terminate, see `instance_target`).
        // Under a `block`, termination only through blocked actions does not count: mCRL2
        // pushes the `block` into the processes first, and such a component is then not
        // followed by `Terminate`.
        let blocked = match k {
            Constraint::Any { blocked } => blocked.clone(),
            Constraint::Finite { .. } => BTreeSet::new(),
        };
        if blocked != self.blocked {
            // Process states and tails read under another set of blocked actions are other
            // processes (mCRL2 makes a copy of each equation per `block` set).
            self.proc_ctrl.clear();
            self.proc_alts.clear();
            self.expr_ctrl.clear();
            self.action_ctrl.clear();
            self.blocked = blocked;
        }
        self.root_terminates = match prune_blocked(e, k) {
            std::borrow::Cow::Borrowed(e) => expr_terminates(&self.term, e),
            std::borrow::Cow::Owned(pruned) => {
                let term = terminating_under(self.spec, k);
                expr_terminates(&term, &pruned)
            }
        };
        let first = self.tail_calls(&Arc::new(e.clone()), "init", span)?;
        let start = if first.len() == 1 {
            self.jump(first.into_iter().next().expect("one call"))
        } else {
            self.stack_target(&first, &[])?
        };
        // Explore reachable control states.
        let mut order: Vec<CtrlId> = vec![start.ctrl];
        let mut index: HashMap<CtrlId, usize> = HashMap::new();
        index.insert(start.ctrl, 0);
        let mut alts_of: Vec<Vec<Reached>> = Vec::new();
        let mut terminates = false;
        let mut i = 0;
        while i < order.len() {
            let c = order[i];
            let mut list = Vec::new();
            for a in self.ctrl_alts(c)? {
                let target = if a.stack.is_empty() {
                    terminates = true;
                    None
                } else {
                    let t = self.stack_target(&a.stack, &a.sum_vars)?;
                    if let std::collections::hash_map::Entry::Vacant(e) = index.entry(t.ctrl) {
                        e.insert(order.len());
                        order.push(t.ctrl);
                    }
                    Some(t)
                };
                let cond = self.simp.simplify(&a.cond);
                list.push(Reached {
                    alt: a,
                    target,
                    cond,
                });
            }
            alts_of.push(list);
            i += 1;
        }
        let (order, alts_of, index) = self.merge_equal_ctrls(order, alts_of);
        // Merge parameters by name and sort.
        let mut comp_vars: Vec<Var> = Vec::new();
        let mut maps: Vec<Vec<usize>> = Vec::new(); // per ctrl: param position -> comp var
        for c in &order {
            let ps = self.ctrls[c.0 as usize].params.clone();
            let mut m = Vec::new();
            let mut taken: Vec<usize> = Vec::new();
            for p in &ps {
                let pos = comp_vars
                    .iter()
                    .position(|v| v == p)
                    .filter(|k| !taken.contains(k));
                let k = match pos {
                    Some(k) => k,
                    None => {
                        comp_vars.push(p.clone());
                        comp_vars.len() - 1
                    }
                };
                taken.push(k);
                m.push(k);
            }
            maps.push(m);
        }
        // Per control state and parameter: does the state's body read it? A jump into a
        // process whose body never reads a parameter resets it to "don't care", whatever
        // the call passes, as mCRL2 202607.0 does (`find_dummy_arguments`: by the free
        // variables of the target's body, not by its parameter list). The initial state
        // still gets the value written in `init`. The body counts as written, before its
        // data is simplified (`a(if(p <= p, e1, e1))` reads `p`), but without what follows
        // an action blocked above it (`prune_blocked`). mCRL2 decides on its rewritten
        // copies of the equations, one per calling context (`P(4)` called from a tail is
        // a control state apart from `init`'s `P(1)`), which muon does not make; counting
        // as written gives mCRL2's counts on more random specifications than counting
        // after simplification (seeds 17 and 18: 245 against 242 of 285).
        // A sequence or tail state holds the variables its key reads, but mCRL2 decides
        // what a jump keeps on the state's body after substitution, where conditions are
        // rewritten and `false` alternatives gone: `[P1(v3)]` does not keep `v3` when `P1`
        // reads its parameter only in `false && (dd != dd)` (random seed 7373 #41).
        let read: Vec<Vec<bool>> = order
            .iter()
            .zip(&alts_of)
            .map(|(c, alts)| {
                let ctrl = &self.ctrls[c.0 as usize];
                match &ctrl.kind {
                    CtrlKind::Proc(p) => {
                        let fv = proc_free_vars(&prune_blocked(&self.written[p.0 as usize], k));
                        ctrl.params.iter().map(|v| fv.contains(v)).collect()
                    }
                    // A stack state (the fallback keying) holds its parts' parameters
                    // whole, as mCRL2's `regular2` passes them all on (seed 7373 #384).
                    CtrlKind::Stack(_) => vec![true; ctrl.params.len()],
                    _ => {
                        let mut fv: Vec<Var> = Vec::new();
                        for r in alts.iter().filter(|r| !ir_ops::is_false(&r.cond)) {
                            ir_ops::free_vars_into(&r.cond, &mut fv);
                            // The pending calls as written, with the arguments of dropped
                            // parameters: `c(2) . Q(n, false)` holds `n` when `Q` drops it.
                            let acts = r.alt.acts.iter().flat_map(|x| &x.args);
                            for d in acts.chain(r.alt.stack.iter().flat_map(|c| &c.args)) {
                                ir_ops::free_vars_into(d, &mut fv);
                            }
                        }
                        ctrl.params.iter().map(|v| fv.contains(v)).collect()
                    }
                }
            })
            .collect();
        // Global names: control parameter first.
        let need_ctrl = order.len() > 1 || terminates;
        let base = self.params.len() as u32;
        let ctrl_var = if need_ctrl {
            let v = Var {
                name: fresh_name("s", &mut self.used_names),
                sort: Sort::Pos,
            };
            self.params.push(v.clone());
            self.init.push(number(1, Sort::Pos));
            Some(v)
        } else {
            None
        };
        let first_data = self.params.len() as u32;
        let mut gvars: Vec<Var> = Vec::new();
        for v in &comp_vars {
            let g = Var {
                name: fresh_name(&v.name, &mut self.used_names),
                sort: v.sort.clone(),
            };
            gvars.push(g.clone());
            self.params.push(g);
        }
        let sorts: Vec<Sort> = comp_vars.iter().map(|v| v.sort.clone()).collect();
        let defaults: Vec<DataExpr> = sorts.iter().map(|s| self.default_for(s)).collect();
        // Initial values.
        let init_map = &maps[0];
        let mut init_vals = defaults.clone();
        for (pos, k) in init_map.iter().enumerate() {
            init_vals[*k] = start.args[pos].clone();
        }
        self.init.extend(init_vals);
        let term_state = order.len() as u32 + 1;
        // The deadlock state a `Terminate` leads to: the component's own `delta` state
        // when it has one (mCRL2 202607.0 shares it), else a fresh control value.
        let delta_state = order
            .iter()
            .position(|c| {
                matches!(&self.ctrls[c.0 as usize].kind,
                    CtrlKind::Expr(e) if matches!(**e, ProcExpr::Delta))
            })
            .map_or(term_state + 1, |i| i as u32 + 1);
        self.terminations.push(crate::lps::terminate::Termination {
            ctrl: ctrl_var.as_ref().map(|_| base as usize),
            term_state,
            delta_state,
            terminates,
        });
        let mut out = Vec::new();
        let mut dcs: Vec<Vec<u32>> = Vec::new();
        for (ci, c) in order.iter().enumerate() {
            let ctrl = self.ctrls[c.0 as usize].clone();
            let sigma: Subst = ctrl
                .params
                .iter()
                .cloned()
                .zip(maps[ci].iter().map(|k| DataExpr::Var(gvars[*k].clone())))
                .collect();
            for Reached { alt: a, target, .. } in &alts_of[ci] {
                // Sum variables must not share a name with any parameter: an argument that
                // is a sum variable would otherwise look like an unchanged parameter.
                let mut a = a.clone();
                let (sv, ren) = rename_sum_vars(&a.sum_vars, &self.used_names);
                a.sum_vars = vec![];
                let mut a = subst_alt(&a, &ren);
                a.renamed(&ren);
                a.sum_vars = sv;
                let a = subst_alt(&a, &sigma);
                let arg = |d: &DataExpr| substitute(&substitute(d, &ren), &sigma);
                let mut cond = a.cond.clone();
                if let Some(cv) = &ctrl_var {
                    cond = and(
                        eq(DataExpr::Var(cv.clone()), number(ci as u32 + 1, Sort::Pos)),
                        cond,
                    );
                }
                let mut assign: Vec<(u32, DataExpr)> = Vec::new();
                let mut vals: Vec<Option<DataExpr>> = vec![None; gvars.len()];
                let target_state = match target {
                    None => term_state,
                    Some(t) => {
                        let ti = index[&t.ctrl];
                        for (pos, k) in maps[ti].iter().enumerate() {
                            if read[ti][pos] {
                                vals[*k] = Some(arg(&t.args[pos]));
                            }
                        }
                        ti as u32 + 1
                    }
                };
                if ctrl_var.is_some() && target_state != ci as u32 + 1 {
                    assign.push((base, number(target_state, Sort::Pos)));
                }
                let mut dc = Vec::new();
                for (k, g) in gvars.iter().enumerate() {
                    let val = match vals[k].take() {
                        Some(v) => v,
                        None => {
                            dc.push(first_data + k as u32);
                            defaults[k].clone()
                        }
                    };
                    if val != DataExpr::Var(g.clone()) {
                        assign.push((first_data + k as u32, val));
                    }
                }
                dcs.push(dc);
                let mut acts = a.acts.clone();
                sort_acts(&mut acts);
                out.push(CSum {
                    sum_vars: a.sum_vars.clone(),
                    cond,
                    acts,
                    assign,
                    origin: Origin {
                        spans: vec![ctrl.span],
                        description: ctrl.name.clone(),
                        synthetic: Vec::new(),
                        clusters: Vec::new(),
                        sum_names: a.names.clone(),
                    },
                });
            }
        }
        Ok((out, dcs))
    }

    /// The reachable control states `order` (with their alternatives and targets) after
    /// identifying those with the same parameters and the same alternatives, where
    /// targets count as equal when they are identified, repeated until nothing more is
    /// identified. mCRL2 does this before it numbers a component's states
    /// (`minimize_set_of_reachable_process_identifiers`): `R = R(true) . R(false) . R`
    /// is then one state with the sequence `R(true) . R(false) . R` its first `R(true)`
    /// returns to (academic/abp_bw), and `P1 = a . P2`, `P3 = a . P4` with `P2 = b . Q`,
    /// `P4 = b . Q` are two states. The comparison is syntactic, as mCRL2's: it starts
    /// from equal states, not from a bisimulation, so `P = a . Q`, `Q = a . P` stay two.
    /// The first state stays first. Returns the kept states, their alternatives, and the
    /// position in the kept list of every reachable state.
    fn merge_equal_ctrls(
        &self,
        order: Vec<CtrlId>,
        alts_of: Vec<Vec<Reached>>,
    ) -> (Vec<CtrlId>, Vec<Vec<Reached>>, HashMap<CtrlId, usize>) {
        let pos: HashMap<CtrlId, usize> = order.iter().enumerate().map(|(i, c)| (*c, i)).collect();
        // mCRL2 compares bodies as its substitution leaves them: conditions rewritten (a
        // `false` alternative gone, a `true` condition dropped) and the arguments of the
        // calls after an action rewritten (`pCRLrewrite` of a sequence); action arguments
        // stay as they are. So `[P1(true)]` and `[P1(false)]` are one state when `P1` reads
        // its parameter only in a condition `bb => bb` (random seed 7373 #1).
        // The pending calls count with all their arguments: mCRL2's bodies call a process
        // with every argument, the dropped ones too, so `c(2) . Q(true, false)` and
        // `c(2) . Q(false, false)` stay two states when `Q` drops its first parameter.
        type AltKey<'r> = (&'r [Var], &'r DataExpr, &'r [Action], Vec<DataExpr>);
        // A state: its parameters, whether it is a stack state, its alternatives with
        // their targets' classes.
        type StateKey<'k, 'r> = (&'k [Var], bool, Vec<(&'k AltKey<'r>, Option<usize>)>);
        let keys: Vec<Vec<(AltKey, Option<usize>)>> = alts_of
            .iter()
            .map(|alts| {
                alts.iter()
                    .filter(|r| !ir_ops::is_false(&r.cond))
                    .map(|r| {
                        let a = &r.alt;
                        let args = a.stack.iter().flat_map(|c| &c.args);
                        let args = args.map(|d| self.simp.normalise(d)).collect();
                        let key = (a.sum_vars.as_slice(), &r.cond, a.acts.as_slice(), args);
                        (key, r.target.as_ref().map(|t| pos[&t.ctrl]))
                    })
                    .collect()
            })
            .collect();
        let mut rep: Vec<usize> = (0..order.len()).collect();
        loop {
            let before = rep.clone();
            let mut seen: HashMap<StateKey, usize> = HashMap::new();
            let mut changed = false;
            for i in 0..order.len() {
                if before[i] != i {
                    continue;
                }
                let alts: Vec<(&AltKey, Option<usize>)> = keys[i]
                    .iter()
                    .map(|(k, t)| (k, t.map(|t| before[t])))
                    .collect();
                // A process state counts with its declared parameters, the dropped ones
                // too: mCRL2 drops them only after this (`P0 = tau . Q0(true)` and
                // `Q0(bb) = tau . Q0(true)` stay two states, random seed 7373 #138). A
                // stack state (the fallback keying, mCRL2's `regular2`) has parameters
                // renamed apart from its parts' (`parscollect`): it never meets a process
                // state.
                let ctrl = &self.ctrls[order[i].0 as usize];
                let stack = matches!(ctrl.kind, CtrlKind::Stack(_));
                let params = match ctrl.kind {
                    CtrlKind::Proc(p) => self.spec.proc(p).params.as_slice(),
                    _ => ctrl.params.as_slice(),
                };
                let key = (params, stack, alts);
                match seen.entry(key) {
                    std::collections::hash_map::Entry::Occupied(e) => {
                        rep[i] = *e.get();
                        changed = true;
                    }
                    std::collections::hash_map::Entry::Vacant(e) => {
                        e.insert(i);
                    }
                }
            }
            if !changed {
                break;
            }
            // Earlier rounds' members follow their representative into its class.
            for i in 0..rep.len() {
                rep[i] = rep[rep[i]];
            }
        }
        let mut new_pos: Vec<usize> = vec![usize::MAX; order.len()];
        let mut kept = Vec::new();
        let mut kept_alts = Vec::new();
        for (i, (c, alts)) in order.iter().zip(alts_of).enumerate() {
            if rep[i] == i {
                new_pos[i] = kept.len();
                kept.push(*c);
                kept_alts.push(alts);
            }
        }
        let index = order
            .iter()
            .enumerate()
            .map(|(i, c)| (*c, new_pos[rep[i]]))
            .collect();
        (kept, kept_alts, index)
    }

    /// Constant elimination within one component (parameters `first..`): a parameter
    /// that keeps its initial value in every summand of the component keeps it in the
    /// composition too. Constants are substituted, summands with a `false` condition
    /// dropped, and all data simplified, so that communication conditions between
    /// components are decided early (mCRL2 does the same between linearisation steps).
    /// "Don't care" resets (`dcs`, per summand) do not break constancy: the parameter is
    /// meaningless in the target state, so it may as well keep its constant value.
    /// Substitutes the component's constant parameters. Also gives, per summand kept, a
    /// hash of its condition, actions and assignments as they were before (`cluster` tells
    /// members that differed then from members that were always the same).
    pub(super) fn component_constelm(
        &mut self,
        sums: Vec<CSum>,
        dcs: &[Vec<u32>],
        first: usize,
    ) -> (Vec<CSum>, Vec<u64>) {
        let end = self.params.len();
        let simp = &*self.simp;
        let syn = &self.syn;
        let mut constant: Vec<Option<DataExpr>> = (first..end)
            .map(|i| {
                let e = simp.simplify(&self.init[i]);
                is_closed(&e).then_some(e)
            })
            .collect();
        loop {
            let sigma: Subst = (first..end)
                .filter_map(|i| {
                    constant[i - first]
                        .clone()
                        .map(|c| (self.params[i].clone(), c))
                })
                .collect();
            let mut changed = false;
            for (s, dc) in sums.iter().zip(dcs) {
                if is_false(&simp.simplify(&substitute(&s.cond, &sigma))) {
                    continue;
                }
                for (i, val) in &s.assign {
                    if dc.contains(i) {
                        continue;
                    }
                    let k = *i as usize - first;
                    if let Some(c) = &constant[k] {
                        if simp.simplify(&substitute(val, &sigma)) != *c {
                            constant[k] = None;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        let sigma: Subst = (first..end)
            .filter_map(|i| {
                constant[i - first]
                    .clone()
                    .map(|c| (self.params[i].clone(), c))
            })
            .collect();
        for (k, c) in constant.iter().enumerate() {
            if let Some(c) = c {
                self.init[first + k] = c.clone();
            }
        }
        let mut before = Vec::with_capacity(sums.len());
        let kept = sums
            .into_iter()
            .filter_map(|s| {
                let cond = simp.simplify(&substitute(&s.cond, &sigma));
                if is_false(&cond) {
                    return None;
                }
                let mut h = std::collections::hash_map::DefaultHasher::new();
                (&s.cond, &s.acts, &s.assign).hash(&mut h);
                before.push(h.finish());
                Some(CSum {
                    cond,
                    acts: s
                        .acts
                        .iter()
                        .map(|a| {
                            // The data engine rewrites only arguments a constant went
                            // into; the others get the syntactic folds alone, which decide
                            // what open arguments need (`if(false, v, v) == v`, so an
                            // unused sum variable can go). A closed argument stays as
                            // written, as mCRL2 leaves sudoku's `a(solve_sudo(hard_sudoku))`
                            // (rewriting it solved the sudoku: 4 s); exploration evaluates
                            // it anyway, and a closed term holds no sum variable.
                            let mut a = a.clone();
                            for d in &mut a.args {
                                *d = if ir_ops::free_vars(d).iter().any(|v| sigma.contains_key(v)) {
                                    simp.simplify(&substitute(d, &sigma))
                                } else {
                                    syn.simplify(d)
                                };
                            }
                            a
                        })
                        .collect(),
                    assign: s
                        .assign
                        .iter()
                        .filter(|(i, _)| constant[*i as usize - first].is_none())
                        .map(|(i, d)| (*i, simp.simplify(&substitute(d, &sigma))))
                        .collect(),
                    ..s
                })
            })
            .collect();
        (kept, before)
    }
}
