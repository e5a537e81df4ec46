//! One sequential component: its control states become a parameter, its alternatives become
//! summands, and constant parameters are eliminated within the component.

use super::*;
use std::hash::{Hash, Hasher};

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
        let mut alts_of: Vec<Vec<(Alt, Option<Call>)>> = Vec::new();
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
                list.push((a, target));
            }
            alts_of.push(list);
            i += 1;
        }
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
        // after simplification (seeds 17 and 18: 245 against 242 of 285). Other control
        // states (tails, stacks) hold exactly the variables they read.
        let read: Vec<Vec<bool>> = order
            .iter()
            .map(|c| {
                let ctrl = &self.ctrls[c.0 as usize];
                match &ctrl.kind {
                    CtrlKind::Proc(p) => {
                        let fv = proc_free_vars(&prune_blocked(&self.written[p.0 as usize], k));
                        ctrl.params.iter().map(|v| fv.contains(v)).collect()
                    }
                    _ => vec![true; ctrl.params.len()],
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
            for (a, target) in &alts_of[ci] {
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
