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
            CtrlKind::Seq(calls) => self.ctrls[calls[0].ctrl.0 as usize].owner.clone(),
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
        let params = self.kept(p, &d.params);
        let id = self.new_ctrl(d.name.to_string(), params, CtrlKind::Proc(p), d.span)?;
        self.proc_ctrl.insert(p, id);
        Ok(id)
    }

    /// The items of `all` (a process's parameters, or a call's arguments) for the
    /// parameters that `p`'s control state keeps.
    fn kept<T: Clone>(&self, p: ProcId, all: &[T]) -> Vec<T> {
        match self.keep.get(p.0 as usize) {
            Some(k) => all
                .iter()
                .zip(k)
                .filter(|(_, &k)| k)
                .map(|(x, _)| x.clone())
                .collect(),
            None => all.to_vec(),
        }
    }

    /// `c` as a jump: a call of a process state with the declaration's whole argument list
    /// (see [`Call`]) keeps only the arguments of the parameters the state keeps. A call
    /// already in that form (taken apart from a fallback stack state) is left as it is:
    /// the two lengths differ unless the state keeps every parameter.
    pub(super) fn jump(&self, c: Call) -> Call {
        match &self.ctrls[c.ctrl.0 as usize].kind {
            CtrlKind::Proc(p) if c.args.len() == self.spec.proc(*p).params.len() => Call {
                args: self.kept(*p, &c.args),
                ctrl: c.ctrl,
            },
            _ => c,
        }
    }

    /// The pending calls continuing with process expression `q`, first to run first: the
    /// calls of `q` when it is a sequence of calls of sequential processes, else one call
    /// of a fresh control state for `q`.
    pub(super) fn tail_calls(
        &mut self,
        q: &Arc<ProcExpr>,
        owner: &str,
        span: Span,
    ) -> Result<Vec<Call>, LinError> {
        // A tail that starts with a blocked action is `delta`, one state whatever it held
        // (random seed 26 #43: `tau . b(ea) . P(e2)` and `e(e1) . b(ea) . P(e1)` under
        // `block({b}, ..)` lead to one state in mCRL2).
        let pruned;
        let q = match prune_names(q, &self.blocked) {
            std::borrow::Cow::Borrowed(_) => q,
            std::borrow::Cow::Owned(p) => {
                pruned = Arc::new(p);
                &pruned
            }
        };
        // mCRL2 names every part of a tail first (`bodytovarheadGNF` in a later position):
        // a call stays a call, an action `a(t)` becomes a call `Pa(t)` of one process per
        // action, and any other part one new process of its own; the sequence of names is
        // then keyed as a whole. So `e . e . P1` and `(a . e + c) . P1` share the state
        // `Pe . P1` after their first `e` and `a` (random seed 7373 #87), and `e(n mod 2)`
        // keeps the value, not `n`. Parts after one that cannot terminate are dropped.
        let mut parts: Vec<&Arc<ProcExpr>> = Vec::new();
        let mut todo = vec![q];
        while let Some(e) = todo.pop() {
            if let ProcExpr::Seq(a, b) = &**e {
                todo.push(b);
                todo.push(a);
                continue;
            }
            parts.push(e);
            if !expr_terminates(&self.term, e) {
                break;
            }
        }
        parts
            .into_iter()
            .map(|e| self.part_call(e, owner, span))
            .collect()
    }

    /// The call that stands for one part of a tail (see [`Lin::tail_calls`]).
    fn part_call(&mut self, q: &Arc<ProcExpr>, owner: &str, span: Span) -> Result<Call, LinError> {
        match &**q {
            ProcExpr::Call { proc, args } if !self.mcrl[proc.0 as usize] => {
                let ctrl = self.ctrl_of_proc(*proc)?;
                return Ok(Call {
                    ctrl,
                    args: args.clone(),
                });
            }
            ProcExpr::Action(a) => {
                let ctrl = self.action_ctrl(a, span)?;
                return Ok(Call {
                    ctrl,
                    args: a.args.clone(),
                });
            }
            _ => {}
        }
        let params = (*self.shapes.free_vars(q)).clone();
        let key = self.shapes.key(q, params.clone());
        let args = params.iter().cloned().map(DataExpr::Var).collect();
        if let Some(c) = self.expr_ctrl.get(&key) {
            return Ok(Call { ctrl: *c, args });
        }
        self.tail_counter += 1;
        let name = format!("{owner}_{}", self.tail_counter);
        let id = self.new_ctrl(name, params, CtrlKind::Expr(q.clone()), span)?;
        self.expr_ctrl.insert(key, id);
        Ok(Call { ctrl: id, args })
    }

    /// The control state of action `a`'s process (mCRL2's `process_representing_action`):
    /// one per action name and sorts, whose parameters are the action's arguments.
    fn action_ctrl(&mut self, a: &Action, span: Span) -> Result<CtrlId, LinError> {
        let key = (a.name.clone(), a.sorts.clone());
        if let Some(c) = self.action_ctrl.get(&key) {
            return Ok(*c);
        }
        let params: Vec<Var> = a
            .sorts
            .iter()
            .enumerate()
            .map(|(i, sort)| Var {
                name: format!("{}_{}{}", a.name, ACTION_PARAM, i + 1).into(),
                sort: sort.clone(),
            })
            .collect();
        let body = ProcExpr::Action(Action {
            name: a.name.clone(),
            sorts: a.sorts.clone(),
            args: params.iter().cloned().map(DataExpr::Var).collect(),
        });
        let id = self.new_ctrl(
            format!("{}_{}", a.name, ACTION_PARAM),
            params,
            CtrlKind::Expr(Arc::new(body)),
            span,
        )?;
        self.action_ctrl.insert(key, id);
        Ok(id)
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
                names: vec![],
            }],
            ProcExpr::Tau => vec![Alt {
                sum_vars: vec![],
                cond: true_(),
                acts: vec![],
                stack: vec![],
                names: vec![],
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
                self.live(alts.iter().map(|a| instantiate_alt(a, &sigma, scope)))
            }
            ProcExpr::Sum { vars, body } => {
                let (nvars, ren) = rename_sum_vars(vars, scope);
                let body = subst_proc(body, &ren);
                let mut sc = scope.clone();
                sc.extend(nvars.iter().map(|v| v.name.clone()));
                let mut alts = self.gnf(&body, &sc, owner, span)?;
                for a in &mut alts {
                    a.renamed(&ren);
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
                let cont = self.tail_calls(q, owner, span)?;
                for a in &mut alts {
                    a.stack.extend(cont.iter().cloned());
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
                        let mut names = x.names.clone();
                        names.extend(y2.names);
                        let mut alt = Alt {
                            sum_vars: sv,
                            cond: and(x.cond.clone(), y2.cond),
                            acts,
                            stack: vec![],
                            names,
                        };
                        alt.renamed(&ren);
                        out.push(alt);
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
        let alts = self.key_stacks(r?)?;
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
                // Sum variables are renamed away from the stack's other parameters.
                let avoid: HashSet<Name> = ctrl.params.iter().map(|v| v.name.clone()).collect();
                let alts = self.ctrl_alts(head)?;
                self.live(alts.iter().map(|a| {
                    let mut a = instantiate_alt(a, &sigma, &avoid);
                    a.stack.extend(rest.iter().cloned());
                    a
                }))
            }
            CtrlKind::Seq(calls) => {
                // The head's alternatives with its arguments, then the rest pending. The
                // arguments read the state's parameters, so the head's sum variables are
                // renamed apart from those (capture-avoiding substitution).
                let head = &calls[0];
                let sigma = self.binding(head);
                let avoid: HashSet<Name> = ctrl.params.iter().map(|v| v.name.clone()).collect();
                let alts = self.ctrl_alts(head.ctrl)?;
                self.live(alts.iter().map(|a| {
                    let mut a = instantiate_alt(a, &sigma, &avoid);
                    a.stack.extend(calls[1..].iter().cloned());
                    a
                }))
            }
        };
        let alts = match ctrl.kind {
            CtrlKind::Proc(_) => alts,
            _ => self.key_stacks(alts)?,
        };
        self.ctrls[c.0 as usize].alts = Some(alts.clone());
        Ok(alts)
    }

    /// `alts` with every stack of two or more calls made one call of its sequence state,
    /// keyed here, in the variables of the body they belong to: mCRL2 makes each body
    /// regular (`to_regular_form`) before a call substitutes its arguments, so `S1(l, ..)`
    /// and `S1(tail(l), ..)` reach one sequence state with other values, not two
    /// (industrial/brp), and a sequence state never holds another's parts.
    fn key_stacks(&mut self, mut alts: Vec<Alt>) -> Result<Vec<Alt>, LinError> {
        if self.keying != Keying::Instances {
            return Ok(alts);
        }
        for a in &mut alts {
            if a.stack.len() >= 2 {
                let (calls, _) = self.reachable_calls(&a.stack)?;
                a.stack = if calls.len() >= 2 {
                    vec![self.instance_target(calls, false, &a.sum_vars)?]
                } else {
                    calls
                };
            }
        }
        Ok(alts)
    }

    /// The instantiated alternatives `alts` without those whose condition rewrites to
    /// `false`. mCRL2 rewrites each condition when it substitutes a called body
    /// (`substitute_pCRLproc`) and drops such alternatives there, before their tails are
    /// keyed: a dead `false -> c . P(n mod 2)` then makes no sequence states (muon's keys
    /// grew `n mod 2 mod 2 ...` until the fallback keying took over).
    fn live(&self, alts: impl Iterator<Item = Alt>) -> Vec<Alt> {
        alts.filter(|a| !ir_ops::is_false(&self.simp.simplify(&a.cond)))
            .collect()
    }

    /// Whether base control state `c` (not a stack) can terminate successfully.
    fn ctrl_terminates(&self, c: CtrlId) -> bool {
        match &self.ctrls[c.0 as usize].kind {
            CtrlKind::Proc(p) => self.term[p.0 as usize],
            CtrlKind::Expr(e) => expr_terminates(&self.term, e),
            CtrlKind::Stack(ids) => ids.iter().all(|id| self.ctrl_terminates(*id)),
            CtrlKind::Seq(calls) => calls.iter().all(|c| self.ctrl_terminates(c.ctrl)),
        }
    }

    /// The calls of `stack` that can run, and whether any were cut. Nested stack states
    /// (the fallback keying) are flattened so a key is a sequence of base states; a
    /// sequence state keyed by instances stays one part, as mCRL2's sequence process does
    /// in a longer sequence. The stack is cut after the first state that cannot terminate:
    /// what lies below it is never reached (mCRL2's `cut_off_unreachable_tail`), and keeping
    /// it would store dead arguments and let stacks grow (WMS). A stack deeper than
    /// `MAX_STACK` is not regular.
    fn reachable_calls(&self, stack: &[Call]) -> Result<(Vec<Call>, bool), LinError> {
        let mut calls: Vec<Call> = Vec::new();
        let mut cut = false;
        'calls: for c in stack {
            for part in self.base_calls(c) {
                let terminates = self.ctrl_terminates(part.ctrl);
                calls.push(part);
                if !terminates {
                    cut = true;
                    break 'calls;
                }
            }
        }
        if calls.len() > MAX_STACK {
            return Err(self.non_regular(&calls));
        }
        Ok((calls, cut))
    }

    /// The control state and arguments that a non-empty stack jumps to; `bound` are the
    /// sum variables of the alternative it ends (see [`Lin::instance_target`]).
    pub(super) fn stack_target(&mut self, stack: &[Call], bound: &[Var]) -> Result<Call, LinError> {
        let (calls, cut) = self.reachable_calls(stack)?;
        match self.keying {
            Keying::Instances => self.instance_target(calls, !cut && self.root_terminates, bound),
            Keying::States => self.state_target(calls, !cut && self.root_terminates),
        }
    }

    /// The parameters of `c`'s state bound to `c`'s arguments.
    fn binding(&self, c: &Call) -> Subst {
        let params = match &self.ctrls[c.ctrl.0 as usize].kind {
            CtrlKind::Proc(p) if c.args.len() == self.spec.proc(*p).params.len() => {
                &self.spec.proc(*p).params
            }
            _ => &self.ctrls[c.ctrl.0 as usize].params,
        };
        params.iter().cloned().zip(c.args.iter().cloned()).collect()
    }

    /// `c` as a sequence of calls: the parts of a stack state (the fallback keying), else
    /// `c` itself.
    fn base_calls(&self, c: &Call) -> Vec<Call> {
        match &self.ctrls[c.ctrl.0 as usize].kind {
            CtrlKind::Stack(inner) => {
                let mut off = 0;
                inner
                    .iter()
                    .map(|id| {
                        let n = self.ctrls[id.0 as usize].params.len();
                        off += n;
                        Call {
                            ctrl: *id,
                            args: c.args[off - n..off].to_vec(),
                        }
                    })
                    .collect()
            }
            _ => vec![c.clone()],
        }
    }

    /// mCRL2's default: a sequence is keyed by its calls, arguments included (rewritten),
    /// and by whether the component's `Terminate` follows it (`terminated`); its state's
    /// parameters are the variables the arguments read. A lone call with nothing after it
    /// is a plain jump; so is a lone call passing every parameter on unchanged with the
    /// `Terminate` after it, as the called state itself stands for that sequence (the
    /// component's first state is `P . Terminated` with `init`'s values in `P`'s
    /// parameters). `P(b) = a . P(false) + a` from `init P(false)` thus has two states
    /// for `P`, as in mCRL2: the first, and `P(false) . Terminated`.
    fn instance_target(
        &mut self,
        calls: Vec<Call>,
        terminated: bool,
        bound: &[Var],
    ) -> Result<Call, LinError> {
        if calls.len() == 1 && !terminated {
            return Ok(self.jump(calls.into_iter().next().expect("one call")));
        }
        // Arguments that keep growing (`P(p, q) = tau . P(q, min(q, p)) + a` substitutes
        // each into the next: exponentially) mean the keying would not end either.
        if calls.iter().flat_map(|c| &c.args).any(too_big) {
            return Err(LinError::Diverges);
        }
        let calls: Vec<Call> = calls
            .into_iter()
            .map(|c| Call {
                ctrl: c.ctrl,
                args: c.args.iter().map(|d| self.simp.normalise(d)).collect(),
            })
            .collect();
        if calls.len() == 1 {
            let c = &calls[0];
            let sigma = self.binding(c);
            if sigma
                .iter()
                .all(|(p, a)| matches!(a, DataExpr::Var(v) if v == p))
            {
                return Ok(self.jump(calls.into_iter().next().expect("one call")));
            }
        }
        // The first call of a sequence is keyed by the arguments its state keeps: mCRL2
        // replaces it by its body, where a dropped parameter does not occur, so
        // `L1(2) . P0` and `L1(1) . P0` are one state when `L1` drops its parameter. The
        // variables of its other arguments stay parameters of the sequence, as in mCRL2
        // (`P1(cc, true) . Terminated` keeps `cc` when `P1` drops its first parameter).
        // Later calls stay as written, every argument counting (`c . Q(true, false)` and
        // `c . Q(false, false)` are two states).
        let full = calls;
        let mut calls = full.clone();
        calls[0] = self.jump(calls[0].clone());
        let read = seq_params(&calls);
        // A sum variable in a dropped argument is not held, though: mCRL2 assigns it to the
        // sequence's parameter, which the body does not read, so the jump resets it to a
        // don't-care value (random seed 7373 #219: `sum v5 . tau . P0(v5)` with `P0`'s
        // parameter dropped, in a component that terminates).
        let extra: Vec<Var> = seq_params(&full)
            .into_iter()
            .filter(|v| !read.contains(v) && !bound.contains(v))
            .collect();
        let mut params = read;
        params.extend(extra.iter().cloned());
        let key = (calls, terminated, extra);
        let args: Vec<DataExpr> = params.iter().cloned().map(DataExpr::Var).collect();
        if let Some(id) = self.seq_ctrl.get(&key) {
            return Ok(Call { ctrl: *id, args });
        }
        if self.seq_ctrl.len() >= MAX_SEQ {
            return Err(LinError::Diverges);
        }
        let names: Vec<String> = key
            .0
            .iter()
            .map(|c| self.ctrls[c.ctrl.0 as usize].name.clone())
            .collect();
        let span = self.ctrls[key.0[0].ctrl.0 as usize].span;
        let kind = CtrlKind::Seq(full);
        let id = self.new_ctrl(names.join("."), params, kind, span)?;
        self.seq_ctrl.insert(key, id);
        Ok(Call { ctrl: id, args })
    }

    /// The fallback, as mCRL2's `-lregular2`: a sequence is keyed by its states (and by
    /// whether `Terminate` follows it), the arguments held in parameters. Each part keeps
    /// its parameters' names unless a later part has one of them (mCRL2's `parscollect`).
    /// A lone call with `Terminate` after it is a state of its own here too, apart from
    /// the called state.
    fn state_target(&mut self, calls: Vec<Call>, terminated: bool) -> Result<Call, LinError> {
        // The arguments are held in the parts' parameters, so only the kept ones count.
        let calls: Vec<Call> = calls.into_iter().map(|c| self.jump(c)).collect();
        if calls.len() == 1 && !terminated {
            return Ok(calls.into_iter().next().expect("one call"));
        }
        let ids: Vec<CtrlId> = calls.iter().map(|c| c.ctrl).collect();
        let args: Vec<DataExpr> = calls.into_iter().flat_map(|c| c.args).collect();
        let key = (ids, terminated);
        if let Some(id) = self.stack_ctrl.get(&key) {
            return Ok(Call { ctrl: *id, args });
        }
        let mut used: HashSet<Name> = HashSet::new();
        let mut parts: Vec<Vec<Var>> = Vec::new();
        for id in key.0.iter().rev() {
            let mut part = Vec::new();
            for p in &self.ctrls[id.0 as usize].params {
                part.push(Var {
                    name: fresh_name(&p.name, &mut used),
                    sort: p.sort.clone(),
                });
            }
            parts.push(part);
        }
        let params: Vec<Var> = parts.into_iter().rev().flatten().collect();
        let names: Vec<String> = key
            .0
            .iter()
            .map(|id| self.ctrls[id.0 as usize].name.clone())
            .collect();
        let span = self.ctrls[key.0[0].0 as usize].span;
        let kind = CtrlKind::Stack(key.0.clone());
        let id = self.new_ctrl(names.join("."), params, kind, span)?;
        self.stack_ctrl.insert(key, id);
        Ok(Call { ctrl: id, args })
    }

    /// The error for a stack deeper than `MAX_STACK`, naming the process that repeats most.
    fn non_regular(&self, calls: &[Call]) -> LinError {
        // The process that repeats most names the recursion; an action's state repeats as
        // often, but names no equation (`P = a . P . b + c` stacks `P`, `Pb`, `Pb`, ..).
        let procs: Vec<CtrlId> = calls
            .iter()
            .map(|c| c.ctrl)
            .filter(|id| matches!(self.ctrls[id.0 as usize].kind, CtrlKind::Proc(_)))
            .collect();
        let ids: Vec<CtrlId> = if procs.is_empty() {
            calls.iter().map(|c| c.ctrl).collect()
        } else {
            procs
        };
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
        LinError::NonRegular { process, span }
    }
}

/// Whether `e` has more than `MAX_SEQ_ARG` nodes (stops counting there).
fn too_big(e: &DataExpr) -> bool {
    fn count(e: &DataExpr, n: &mut usize) -> bool {
        *n += 1;
        if *n > MAX_SEQ_ARG {
            return true;
        }
        match e {
            DataExpr::App { head, args } => count(head, n) || args.iter().any(|a| count(a, n)),
            DataExpr::Binder { body, .. } => count(body, n),
            DataExpr::Whr { body, defs } => count(body, n) || defs.iter().any(|(_, d)| count(d, n)),
            DataExpr::ListEnum { elems, .. } | DataExpr::SetEnum { elems, .. } => {
                elems.iter().any(|a| count(a, n))
            }
            DataExpr::BagEnum { elems, .. } => {
                elems.iter().any(|(a, m)| count(a, n) || count(m, n))
            }
            DataExpr::Var(_) | DataExpr::Func(_) | DataExpr::Number { .. } => false,
        }
    }
    count(e, &mut 0)
}

/// The variables the arguments of `calls` read, in order of first occurrence.
fn seq_params(calls: &[Call]) -> Vec<Var> {
    let mut out: Vec<Var> = Vec::new();
    for c in calls {
        for a in &c.args {
            for v in ir_ops::free_vars(a) {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
    }
    out
}
