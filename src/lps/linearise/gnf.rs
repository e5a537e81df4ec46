//! The sequential part: process bodies in Greibach normal form, control states for the
//! remaining stacks of calls, and tail calls.

use super::*;
use std::sync::Arc;

impl Lin<'_> {
    // ----- GNF -------------------------------------------------------------------------

    pub(super) fn new_ctrl(
        &mut self,
        name: String,
        params: Vec<Var>,
        kind: CtrlKind,
        span: Span,
    ) -> Result<CtrlId, LinError> {
        if self.ctrls.len() >= MAX_CTRL {
            return Err(LinError::TooLarge {
                what: format!("more than {MAX_CTRL} control states"),
                span,
            });
        }
        let id = CtrlId(self.ctrls.len() as u32);
        let owner: Name = match &kind {
            CtrlKind::Proc(p) => self.proc_name(*p),
            CtrlKind::Expr(_) => name.rsplit_once('_').map_or(name.as_str(), |x| x.0).into(),
            CtrlKind::Stack(ids) => self.ctrls[ids[0].0 as usize].owner.clone(),
        };
        self.ctrls.push(Ctrl {
            name,
            owner,
            params,
            kind,
            span,
            alts: None,
        });
        Ok(id)
    }

    pub(super) fn ctrl_of_proc(&mut self, p: ProcId) -> Result<CtrlId, LinError> {
        if let Some(c) = self.proc_ctrl.get(&p) {
            return Ok(*c);
        }
        let d = self.spec.proc(p);
        let id = self.new_ctrl(
            d.name.to_string(),
            d.params.clone(),
            CtrlKind::Proc(p),
            d.span,
        )?;
        self.proc_ctrl.insert(p, id);
        Ok(id)
    }

    /// The call continuing with process expression `q` (a fresh control state unless `q`
    /// is a call of a sequential process).
    pub(super) fn tail_call(
        &mut self,
        q: &Arc<ProcExpr>,
        owner: &str,
        span: Span,
    ) -> Result<Call, LinError> {
        if let ProcExpr::Call { proc, args } = &**q {
            if !self.mcrl[proc.0 as usize] {
                let ctrl = self.ctrl_of_proc(*proc)?;
                return Ok(Call {
                    ctrl,
                    args: args.clone(),
                });
            }
        }
        // A sequence of calls `X(..) . Y(..)` is the same continuation as the stack that
        // recursion builds (X running with Y pending): one control state for both, keyed by
        // the sequence of process identifiers, the arguments kept in parameters. Otherwise
        // Lamport_queue's `Push(v) . Producer` and the stack `[Push, Producer]` would be two
        // states with the same behaviour. mCRL2's default (`create_regular_invocation`
        // without `-lregular2`) keys by the whole instances instead and keeps constant
        // arguments in the new process's body; the two are strongly bisimilar, but muon
        // counts more states on abp_bw (97 against 70; its receiver `R = R(b1).R(b0).R`
        // alone: 11 against 8). Two differences cause it: mCRL2 turns an action inside a
        // tail into a call of a process for that action with its (rewritten) arguments, so
        // `s5(invert(b)) . R(b0) . R` at `b = b1` and `s5(b) . R(b) . R` at `b = b0` are the
        // same sequence of instances and one state, where muon has two tail shapes; and the
        // process `R`, whose body is a sequence of calls, is the same state as the stack
        // that sequence builds, where muon has `R` and the stack `[R(b), R(b), R]` apart.
        if let Some(calls) = self.call_sequence(q)? {
            if calls.len() > 1 {
                return self.stack_target(&calls);
            }
        }
        let params = (*self.shapes.free_vars(q)).clone();
        let key = self.shapes.key(q, params.clone());
        if let Some(c) = self.expr_ctrl.get(&key) {
            return Ok(Call {
                ctrl: *c,
                args: params.into_iter().map(DataExpr::Var).collect(),
            });
        }
        self.tail_counter += 1;
        let name = format!("{owner}_{}", self.tail_counter);
        let id = self.new_ctrl(name, params.clone(), CtrlKind::Expr(q.clone()), span)?;
        self.expr_ctrl.insert(key, id);
        Ok(Call {
            ctrl: id,
            args: params.into_iter().map(DataExpr::Var).collect(),
        })
    }

    /// The calls of `q` when `q` is a sequence of calls of sequential processes only (in
    /// order), else `None`. Stops at the first part that is not such a call, so a tail of a
    /// long `.` chain of actions costs O(1) here, not a walk of the chain.
    fn call_sequence(&mut self, q: &ProcExpr) -> Result<Option<Vec<Call>>, LinError> {
        let mut calls = Vec::new();
        let mut todo = vec![q];
        while let Some(e) = todo.pop() {
            match e {
                ProcExpr::Seq(a, b) => {
                    todo.push(b);
                    todo.push(a);
                }
                ProcExpr::Call { proc, args } if !self.mcrl[proc.0 as usize] => {
                    let ctrl = self.ctrl_of_proc(*proc)?;
                    calls.push(Call {
                        ctrl,
                        args: args.clone(),
                    });
                }
                _ => return Ok(None),
            }
        }
        Ok(Some(calls))
    }

    /// GNF alternatives of `e`; `scope` holds the variables in scope and the reserved names
    /// (sum variables are renamed away from them), `owner` names the process for diagnostics.
    pub(super) fn gnf(
        &mut self,
        e: &ProcExpr,
        scope: &HashSet<Name>,
        owner: &str,
        span: Span,
    ) -> Result<Vec<Alt>, LinError> {
        Ok(match e {
            ProcExpr::Action(a) => vec![Alt {
                sum_vars: vec![],
                cond: true_(),
                acts: vec![a.clone()],
                stack: vec![],
            }],
            ProcExpr::Tau => vec![Alt {
                sum_vars: vec![],
                cond: true_(),
                acts: vec![],
                stack: vec![],
            }],
            ProcExpr::Delta => vec![],
            ProcExpr::Call { proc, args } => {
                if self.mcrl[proc.0 as usize] {
                    return Err(LinError::Unsupported {
                        what: format!(
                            "process {} contains parallel operators but is called inside the sequential process {owner}",
                            self.proc_name(*proc)
                        ),
                        span,
                    });
                }
                let alts = self.proc_alts(*proc)?;
                let decl = self.spec.proc(*proc);
                let sigma: Subst = decl
                    .params
                    .iter()
                    .cloned()
                    .zip(args.iter().cloned())
                    .collect();
                // The callee's sum variables are renamed apart from everything in scope at
                // the call, not only from the arguments: an enclosing `c -> X(..)` conjoins
                // `c` with these alternatives, and a sum variable of `X` named like a
                // variable of `c` would capture it (leader.mcrl2: `sum w. rN(i,w). (... <>
                // M(i,v))` tested the *next* received `w`). mCRL2 renames apart likewise.
                alts.iter()
                    .map(|a| {
                        let a = subst_alt(a, &sigma);
                        let (sv, ren) = rename_sum_vars(&a.sum_vars, scope);
                        let mut a = subst_alt(
                            &Alt {
                                sum_vars: vec![],
                                ..a
                            },
                            &ren,
                        );
                        a.sum_vars = sv;
                        a
                    })
                    .collect()
            }
            ProcExpr::Sum { vars, body } => {
                let (nvars, ren) = rename_sum_vars(vars, scope);
                let body = subst_proc(body, &ren);
                let mut sc = scope.clone();
                sc.extend(nvars.iter().map(|v| v.name.clone()));
                let mut alts = self.gnf(&body, &sc, owner, span)?;
                for a in &mut alts {
                    let mut sv = nvars.clone();
                    sv.append(&mut a.sum_vars);
                    a.sum_vars = sv;
                }
                alts
            }
            ProcExpr::Choice(p, q) => {
                let mut a = self.gnf(p, scope, owner, span)?;
                a.extend(self.gnf(q, scope, owner, span)?);
                a
            }
            ProcExpr::If { cond, then, else_ } => {
                let mut out = Vec::new();
                for mut a in self.gnf(then, scope, owner, span)? {
                    a.cond = and(cond.clone(), a.cond);
                    out.push(a);
                }
                if let Some(q) = else_ {
                    for mut a in self.gnf(q, scope, owner, span)? {
                        a.cond = and(not(cond.clone()), a.cond);
                        out.push(a);
                    }
                }
                out
            }
            ProcExpr::Seq(p, q) if matches!(**p, ProcExpr::Seq(..)) => {
                // `(p1 . p2) . q` = `p1 . (p2 . q)`: keeps tails single processes.
                let ProcExpr::Seq(p1, p2) = &**p else {
                    unreachable!()
                };
                let e = ProcExpr::Seq(p1.clone(), Arc::new(ProcExpr::Seq(p2.clone(), q.clone())));
                self.gnf(&e, scope, owner, span)?
            }
            ProcExpr::Seq(p, q) => {
                let mut alts = self.gnf(p, scope, owner, span)?;
                // `p . q` is `p` when `p` cannot terminate (mCRL2 drops `q` likewise): `q`
                // gets no control state and is never pushed on a stack.
                if alts.is_empty() || !expr_terminates(&self.term, p) {
                    return Ok(alts);
                }
                let cont = self.tail_call(q, owner, span)?;
                for a in &mut alts {
                    a.stack.push(cont.clone());
                }
                alts
            }
            ProcExpr::Sync(p, q) => {
                let ap = self.gnf(p, scope, owner, span)?;
                let aq = self.gnf(q, scope, owner, span)?;
                let mut out = Vec::new();
                for x in &ap {
                    // `y`'s sum variables are renamed apart from `x`'s and from the scope
                    // (fresh names must not capture a variable free in `x` either).
                    let mut avoid: HashSet<Name> = scope.clone();
                    avoid.extend(x.sum_vars.iter().map(|v| v.name.clone()));
                    for y in &aq {
                        if !x.stack.is_empty() || !y.stack.is_empty() {
                            return Err(LinError::Unsupported {
                                what: format!("`|` between processes that do more than one action (in {owner})"),
                                span,
                            });
                        }
                        let (ysv, ren) = rename_sum_vars(&y.sum_vars, &avoid);
                        let y2 = subst_alt(
                            &Alt {
                                sum_vars: vec![],
                                ..y.clone()
                            },
                            &ren,
                        );
                        let mut acts = x.acts.clone();
                        acts.extend(y2.acts);
                        let mut sv = x.sum_vars.clone();
                        sv.extend(ysv);
                        out.push(Alt {
                            sum_vars: sv,
                            cond: and(x.cond.clone(), y2.cond),
                            acts,
                            stack: vec![],
                        });
                    }
                }
                out
            }
            ProcExpr::Par(..)
            | ProcExpr::LeftMerge(..)
            | ProcExpr::Allow { .. }
            | ProcExpr::Block { .. }
            | ProcExpr::Hide { .. }
            | ProcExpr::Rename { .. }
            | ProcExpr::Comm { .. } => {
                return Err(LinError::Unsupported {
                    what: format!("a parallel operator inside the sequential process {owner}"),
                    span,
                })
            }
        })
    }

    /// GNF of process `p`'s body in terms of its parameters (memoised).
    pub(super) fn proc_alts(&mut self, p: ProcId) -> Result<Vec<Alt>, LinError> {
        if let Some(a) = self.proc_alts.get(&p) {
            return Ok(a.clone());
        }
        let decl = self.spec.proc(p);
        if self.in_progress.contains(&p) {
            return Err(LinError::UnguardedRecursion {
                process: decl.name.clone(),
                span: decl.span,
            });
        }
        self.in_progress.push(p);
        let mut scope: HashSet<Name> = decl.params.iter().map(|v| v.name.clone()).collect();
        scope.extend(self.reserved.iter().cloned());
        let body = distribute_prefix_over_conditions(&self.term, &decl.body);
        let r = self.gnf(&body, &scope, &decl.name.clone(), decl.span);
        self.in_progress.pop();
        let alts = r?;
        self.proc_alts.insert(p, alts.clone());
        Ok(alts)
    }

    /// The alternatives of control state `c` in terms of its parameters.
    pub(super) fn ctrl_alts(&mut self, c: CtrlId) -> Result<Vec<Alt>, LinError> {
        if let Some(a) = &self.ctrls[c.0 as usize].alts {
            return Ok(a.clone());
        }
        let ctrl = self.ctrls[c.0 as usize].clone();
        let alts = match &ctrl.kind {
            CtrlKind::Proc(p) => self.proc_alts(*p)?,
            CtrlKind::Expr(e) => {
                let mut scope: HashSet<Name> = ctrl.params.iter().map(|v| v.name.clone()).collect();
                scope.extend(self.reserved.iter().cloned());
                // A tail `b . (c -> ..)` stays a sequence (mCRL2's `seq_state`); any other
                // tail is a new process body and gets the distribution, as in mCRL2.
                let body = if matches!(**e, ProcExpr::Seq(..)) {
                    (**e).clone()
                } else {
                    distribute_prefix_over_conditions(&self.term, e)
                };
                self.gnf(&body, &scope, &ctrl.owner, ctrl.span)?
            }
            CtrlKind::Stack(ids) => {
                // Parameters of the stack state are the renamed parameters of its parts.
                let mut off = 0;
                let mut parts: Vec<Vec<DataExpr>> = Vec::new();
                for id in ids {
                    let n = self.ctrls[id.0 as usize].params.len();
                    parts.push(
                        ctrl.params[off..off + n]
                            .iter()
                            .cloned()
                            .map(DataExpr::Var)
                            .collect(),
                    );
                    off += n;
                }
                let head = ids[0];
                let head_params = self.ctrls[head.0 as usize].params.clone();
                let sigma: Subst = head_params
                    .into_iter()
                    .zip(parts[0].iter().cloned())
                    .collect();
                let rest: Vec<Call> = ids[1..]
                    .iter()
                    .zip(parts[1..].iter())
                    .map(|(id, args)| Call {
                        ctrl: *id,
                        args: args.clone(),
                    })
                    .collect();
                let mut out = Vec::new();
                for a in self.ctrl_alts(head)? {
                    let mut a = subst_alt(&a, &sigma);
                    // Rename sum variables away from the stack's other parameters.
                    let avoid: HashSet<Name> = ctrl.params.iter().map(|v| v.name.clone()).collect();
                    let (sv, ren) = rename_sum_vars(&a.sum_vars, &avoid);
                    a.sum_vars = vec![];
                    let mut a = subst_alt(&a, &ren);
                    a.sum_vars = sv;
                    a.stack.extend(rest.iter().cloned());
                    out.push(a);
                }
                out
            }
        };
        self.ctrls[c.0 as usize].alts = Some(alts.clone());
        Ok(alts)
    }

    /// Whether base control state `c` (not a stack) can terminate successfully.
    fn ctrl_terminates(&self, c: CtrlId) -> bool {
        match &self.ctrls[c.0 as usize].kind {
            CtrlKind::Proc(p) => self.term[p.0 as usize],
            CtrlKind::Expr(e) => expr_terminates(&self.term, e),
            CtrlKind::Stack(ids) => ids.iter().all(|id| self.ctrl_terminates(*id)),
        }
    }

    /// The control state and arguments that a non-empty stack jumps to.
    pub(super) fn stack_target(&mut self, stack: &[Call]) -> Result<Call, LinError> {
        if stack.len() == 1 {
            return Ok(stack[0].clone());
        }
        // Flatten nested stack states so the key is a sequence of base states, and cut the
        // stack after the first state that cannot terminate: what lies below it is never
        // reached (mCRL2's `cut_off_unreachable_tail`), and keeping it would store dead
        // arguments and let stacks grow (WMS).
        let mut ids = Vec::new();
        let mut args = Vec::new();
        'calls: for c in stack {
            let inner = match &self.ctrls[c.ctrl.0 as usize].kind {
                CtrlKind::Stack(inner) => inner.clone(),
                _ => vec![c.ctrl],
            };
            let mut off = 0;
            for id in inner {
                let n = self.ctrls[id.0 as usize].params.len();
                ids.push(id);
                args.extend(c.args[off..off + n].iter().cloned());
                off += n;
                if !self.ctrl_terminates(id) {
                    break 'calls;
                }
            }
        }
        if ids.len() == 1 {
            return Ok(Call { ctrl: ids[0], args });
        }
        if ids.len() > MAX_STACK {
            // Name the process that repeats most.
            let mut best = ids[0];
            let mut best_n = 0;
            for id in &ids {
                let n = ids.iter().filter(|x| *x == id).count();
                if n > best_n {
                    best = *id;
                    best_n = n;
                }
            }
            let c = &self.ctrls[best.0 as usize];
            let (process, span) = match &c.kind {
                CtrlKind::Proc(p) => (self.proc_name(*p), c.span),
                _ => (c.owner.clone(), c.span),
            };
            return Err(LinError::NonRegular { process, span });
        }
        if let Some(id) = self.stack_ctrl.get(&ids) {
            return Ok(Call { ctrl: *id, args });
        }
        let mut used: HashSet<Name> = HashSet::new();
        let mut params = Vec::new();
        let mut names = Vec::new();
        for id in &ids {
            let c = &self.ctrls[id.0 as usize];
            names.push(c.name.clone());
            for p in &c.params {
                params.push(Var {
                    name: fresh_name(&p.name, &mut used),
                    sort: p.sort.clone(),
                });
            }
        }
        let span = self.ctrls[ids[0].0 as usize].span;
        let id = self.new_ctrl(names.join("."), params, CtrlKind::Stack(ids.clone()), span)?;
        self.stack_ctrl.insert(ids, id);
        Ok(Call { ctrl: id, args })
    }
}
