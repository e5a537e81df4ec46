//! Process expressions before linearisation: free variables, substitution, expansion of
//! trivial calls, prefixes distributed over conditions, and renaming of sum variables.

use super::*;
use std::sync::Arc;

pub(super) fn proc_has_parallel(e: &ProcExpr) -> bool {
    match e {
        ProcExpr::Par(..)
        | ProcExpr::LeftMerge(..)
        | ProcExpr::Allow { .. }
        | ProcExpr::Block { .. }
        | ProcExpr::Hide { .. }
        | ProcExpr::Rename { .. }
        | ProcExpr::Comm { .. } => true,
        ProcExpr::Sync(a, b) | ProcExpr::Choice(a, b) | ProcExpr::Seq(a, b) => {
            proc_has_parallel(a) || proc_has_parallel(b)
        }
        ProcExpr::Sum { body, .. } => proc_has_parallel(body),
        ProcExpr::If { then, else_, .. } => {
            proc_has_parallel(then) || else_.as_ref().is_some_and(|e| proc_has_parallel(e))
        }
        ProcExpr::Action(_) | ProcExpr::Tau | ProcExpr::Delta | ProcExpr::Call { .. } => false,
    }
}

pub(super) fn collect_calls(e: &ProcExpr, out: &mut Vec<ProcId>) {
    match e {
        ProcExpr::Call { proc, .. } => out.push(*proc),
        ProcExpr::Sync(a, b)
        | ProcExpr::Choice(a, b)
        | ProcExpr::Seq(a, b)
        | ProcExpr::Par(a, b)
        | ProcExpr::LeftMerge(a, b) => {
            collect_calls(a, out);
            collect_calls(b, out);
        }
        ProcExpr::Sum { body, .. }
        | ProcExpr::Allow { body, .. }
        | ProcExpr::Block { body, .. }
        | ProcExpr::Hide { body, .. }
        | ProcExpr::Rename { body, .. }
        | ProcExpr::Comm { body, .. } => collect_calls(body, out),
        ProcExpr::If { then, else_, .. } => {
            collect_calls(then, out);
            if let Some(e) = else_ {
                collect_calls(e, out);
            }
        }
        ProcExpr::Action(_) | ProcExpr::Tau | ProcExpr::Delta => {}
    }
}

/// Free data variables of a process expression, in order of first occurrence.
pub(crate) fn proc_free_vars(e: &ProcExpr) -> Vec<Var> {
    fn go(e: &ProcExpr, bound: &mut Vec<Var>, out: &mut Vec<Var>) {
        let add = |d: &DataExpr, bound: &Vec<Var>, out: &mut Vec<Var>| {
            for v in ir_ops::free_vars(d) {
                if !bound.contains(&v) && !out.contains(&v) {
                    out.push(v);
                }
            }
        };
        match e {
            ProcExpr::Action(a) => a.args.iter().for_each(|d| add(d, bound, out)),
            ProcExpr::Call { args, .. } => args.iter().for_each(|d| add(d, bound, out)),
            ProcExpr::Tau | ProcExpr::Delta => {}
            ProcExpr::Sum { vars, body } => {
                let n = bound.len();
                bound.extend(vars.iter().cloned());
                go(body, bound, out);
                bound.truncate(n);
            }
            ProcExpr::Sync(a, b)
            | ProcExpr::Choice(a, b)
            | ProcExpr::Seq(a, b)
            | ProcExpr::Par(a, b)
            | ProcExpr::LeftMerge(a, b) => {
                go(a, bound, out);
                go(b, bound, out);
            }
            ProcExpr::If { cond, then, else_ } => {
                add(cond, bound, out);
                go(then, bound, out);
                if let Some(e) = else_ {
                    go(e, bound, out);
                }
            }
            ProcExpr::Allow { body, .. }
            | ProcExpr::Block { body, .. }
            | ProcExpr::Hide { body, .. }
            | ProcExpr::Rename { body, .. }
            | ProcExpr::Comm { body, .. } => go(body, bound, out),
        }
    }
    let mut out = Vec::new();
    go(e, &mut Vec::new(), &mut out);
    out
}

/// `spec` with only the arguments of process calls simplified by `simp`: the bodies by
/// which mCRL2 decides which parameters a process keeps. It rewrites the arguments it
/// passes on (`P(bb && false)` does not use `bb`), not conditions or action arguments
/// (`if(true, eb, eb) == eb -> c . P2()` uses `eb`;
/// `fixtures/lts/simplified_argument_drops_parameter.mcrl2`).
pub(super) fn simplify_call_args(spec: &ProcSpec, simp: &dyn Simplifier) -> ProcSpec {
    fn go(e: &ProcExpr, simp: &dyn Simplifier) -> ProcExpr {
        match e {
            ProcExpr::Call { proc, args } => ProcExpr::Call {
                proc: *proc,
                args: args.iter().map(|d| simp.normalise(d)).collect(),
            },
            _ => e.map_children(|x| go(x, simp)),
        }
    }
    let mut out = spec.clone();
    for p in out.procs.iter_mut() {
        p.body = go(&p.body, simp);
    }
    out
}

/// `e` with every data expression in it (arguments, conditions) simplified by `simp`.
/// `e` with its data simplified by `simp`, except closed action arguments, which only get
/// the syntactic folds `syn`: mCRL2 leaves a closed action argument as written
/// (games/sudoku: `a(solve_sudo(hard_sudoku))` is a whole search that exploration does
/// anyway) but rewrites open ones (`c(if(v && bb, next(d3), d1))` is `c(d1)` by
/// `next(d3) = d1`, so a tail holding it does not keep `v`).
fn simplify_proc(e: &ProcExpr, simp: &dyn Simplifier, syn: &dyn Simplifier) -> ProcExpr {
    match e {
        ProcExpr::Action(a) => ProcExpr::Action(Action {
            name: a.name.clone(),
            sorts: a.sorts.clone(),
            args: a
                .args
                .iter()
                .map(|d| {
                    if is_closed(d) {
                        syn.simplify(d)
                    } else {
                        simp.normalise(d)
                    }
                })
                .collect(),
        }),
        ProcExpr::Call { proc, args } => ProcExpr::Call {
            proc: *proc,
            args: args.iter().map(|d| simp.normalise(d)).collect(),
        },
        ProcExpr::If { cond, then, else_ } => ProcExpr::If {
            cond: simp.normalise(cond),
            then: Arc::new(simplify_proc(then, simp, syn)),
            else_: else_
                .as_ref()
                .map(|x| Arc::new(simplify_proc(x, simp, syn))),
        },
        _ => e.map_children(|x| simplify_proc(x, simp, syn)),
    }
}

/// `spec` with the data of every body and of `init` simplified by `simp` (closed action
/// arguments by `syn` alone, see [`simplify_proc`]). mCRL2 simplifies before linearising
/// too: a tail `a . P(bb => (false => cc))` then has no free variables, so its control
/// state does not keep `bb` and `cc` (and the state space has mCRL2's size).
pub(super) fn simplify_bodies(
    spec: &ProcSpec,
    simp: &dyn Simplifier,
    syn: &dyn Simplifier,
) -> ProcSpec {
    let mut out = spec.clone();
    for p in out.procs.iter_mut() {
        p.body = simplify_proc(&p.body, simp, syn);
    }
    out.init = simplify_proc(&spec.init, simp, syn);
    out
}

/// Per process and parameter, whether its control state keeps it. A parameter that occurs
/// nowhere in its process's body is dropped, with the matching argument of every call that
/// jumps there, as mCRL2 does (`P(n: Nat, b: Bool) = a . P(n, false)` has states `P(n)`):
/// it cannot influence behaviour, and keeping it would split states mCRL2 does not split.
/// The expressions themselves keep those arguments: a tail `r . P(v, n + 1)` still holds
/// `v` in mCRL2 when `P`'s first parameter is dropped
/// (`fixtures/lts/tail_keeps_dropped_argument.mcrl2`). One pass on the bodies as written
/// but with call arguments rewritten ([`simplify_call_args`]), as mCRL2's (a parameter
/// only passed on to a dropped one stays). It stays too when a
/// process that `P` calls, directly or not, uses a parameter of that name and sort, as
/// mCRL2 keeps it then (`fixtures/lts/unread_parameter_reset.mcrl2`); other processes do
/// not count (`fixtures/lts/unused_parameter_same_name.mcrl2`: a process `P` never calls
/// reads one).
pub(super) fn kept_params(spec: &ProcSpec) -> Vec<Vec<bool>> {
    let used: Vec<HashSet<Var>> = spec
        .procs
        .iter()
        .map(|p| proc_free_vars(&p.body).into_iter().collect())
        .collect();
    // The parameters each process uses, and the processes each one calls.
    let uses: Vec<Vec<&Var>> = spec
        .procs
        .iter()
        .zip(&used)
        .map(|(p, u)| p.params.iter().filter(|v| u.contains(*v)).collect())
        .collect();
    let callees: Vec<Vec<ProcId>> = spec
        .procs
        .iter()
        .map(|p| {
            let mut v = Vec::new();
            collect_calls(&p.body, &mut v);
            v
        })
        .collect();
    let keep: Vec<Vec<bool>> = (0..spec.procs.len())
        .map(|i| {
            // Every process reachable from `i` through calls.
            let mut seen: HashSet<usize> = HashSet::new();
            let mut todo: Vec<usize> = callees[i].iter().map(|c| c.0 as usize).collect();
            while let Some(j) = todo.pop() {
                if seen.insert(j) {
                    todo.extend(callees[j].iter().map(|c| c.0 as usize));
                }
            }
            let p = &spec.procs[i];
            p.params
                .iter()
                .map(|v| {
                    used[i].contains(v) || seen.iter().any(|&j| j != i && uses[j].contains(&v))
                })
                .collect()
        })
        .collect();
    keep
}

/// `spec` without the parameters `keep` drops and without the matching arguments of the
/// calls in first position: the bodies by which mCRL2 decides which parameters a process
/// state reads.
pub(super) fn strip_dropped(spec: &ProcSpec, keep: &[Vec<bool>]) -> ProcSpec {
    if keep.iter().all(|k| k.iter().all(|&b| b)) {
        return spec.clone();
    }
    // Only calls in first position lose those arguments: mCRL2 substitutes the body of
    // such a call, where the dropped parameter does not occur, while a call after a `.`
    // stays an instance with all its arguments (`a . Q(n, false)` reads `n` though `Q`
    // drops its first parameter; `L(if(bb, e1, e1)) . P(true)` does not read `bb`).
    fn strip(e: &ProcExpr, keep: &[Vec<bool>]) -> ProcExpr {
        match e {
            ProcExpr::Seq(a, b) => ProcExpr::Seq(Arc::new(strip(a, keep)), b.clone()),
            ProcExpr::Call { proc, args } => ProcExpr::Call {
                proc: *proc,
                args: args
                    .iter()
                    .zip(&keep[proc.0 as usize])
                    .filter(|(_, &k)| k)
                    .map(|(a, _)| a.clone())
                    .collect(),
            },
            _ => e.map_children(|x| strip(x, keep)),
        }
    }
    let mut out = spec.clone();
    for (p, k) in out.procs.iter_mut().zip(keep) {
        p.params = p
            .params
            .iter()
            .zip(k)
            .filter(|(_, &k)| k)
            .map(|(v, _)| v.clone())
            .collect();
        p.body = strip(&p.body, keep);
    }
    out.init = strip(&spec.init, keep);
    out
}

/// Capture-avoiding substitution in a process expression.
pub(crate) fn subst_proc(e: &ProcExpr, sigma: &Subst) -> ProcExpr {
    if sigma.is_empty() {
        return e.clone();
    }
    let sd = |d: &DataExpr| substitute(d, sigma);
    let sp = |p: &ProcExpr| Arc::new(subst_proc(p, sigma));
    match e {
        ProcExpr::Action(a) => ProcExpr::Action(Action {
            name: a.name.clone(),
            sorts: a.sorts.clone(),
            args: a.args.iter().map(sd).collect(),
        }),
        ProcExpr::Tau => ProcExpr::Tau,
        ProcExpr::Delta => ProcExpr::Delta,
        ProcExpr::Call { proc, args } => ProcExpr::Call {
            proc: *proc,
            args: args.iter().map(sd).collect(),
        },
        ProcExpr::Sum { vars, body } => {
            let mut inner = sigma.clone();
            for v in vars {
                inner.remove(v);
            }
            let mut danger: HashSet<Name> = HashSet::new();
            for val in inner.values() {
                for v in ir_ops::free_vars(val) {
                    danger.insert(v.name.clone());
                }
            }
            let mut used = danger.clone();
            for v in proc_free_vars(body) {
                used.insert(v.name.clone());
            }
            let mut nvars = Vec::new();
            for v in vars {
                if danger.contains(&v.name) {
                    let nv = Var {
                        name: fresh_name(&v.name, &mut used),
                        sort: v.sort.clone(),
                    };
                    inner.insert(v.clone(), DataExpr::Var(nv.clone()));
                    nvars.push(nv);
                } else {
                    nvars.push(v.clone());
                }
            }
            ProcExpr::Sum {
                vars: nvars,
                body: Arc::new(subst_proc(body, &inner)),
            }
        }
        ProcExpr::Choice(a, b) => ProcExpr::Choice(sp(a), sp(b)),
        ProcExpr::Seq(a, b) => ProcExpr::Seq(sp(a), sp(b)),
        ProcExpr::Sync(a, b) => ProcExpr::Sync(sp(a), sp(b)),
        ProcExpr::Par(a, b) => ProcExpr::Par(sp(a), sp(b)),
        ProcExpr::LeftMerge(a, b) => ProcExpr::LeftMerge(sp(a), sp(b)),
        ProcExpr::If { cond, then, else_ } => ProcExpr::If {
            cond: sd(cond),
            then: sp(then),
            else_: else_.as_ref().map(|x| sp(x)),
        },
        ProcExpr::Allow { set, body } => ProcExpr::Allow {
            set: set.clone(),
            body: sp(body),
        },
        ProcExpr::Block { set, body } => ProcExpr::Block {
            set: set.clone(),
            body: sp(body),
        },
        ProcExpr::Hide { set, body } => ProcExpr::Hide {
            set: set.clone(),
            body: sp(body),
        },
        ProcExpr::Rename { map, body } => ProcExpr::Rename {
            map: map.clone(),
            body: sp(body),
        },
        ProcExpr::Comm { rules, body } => ProcExpr::Comm {
            rules: rules.clone(),
            body: sp(body),
        },
    }
}

/// The final call of a chain of trivial equations starting with `proc(args)`.
///
/// mCRL2 (`expand_process_instance_assignment` in `linearise.cpp`, run on `init` and every
/// reachable body before linearising) replaces a call of `X` where `X = X1(..)`,
/// `X1 = X2(..)`, …, `Xn-1 = Xn(..)` by the call of `Xn` with the arguments substituted, so
/// that only `Xn` gets a control state; otherwise `X` and `Xn` would be different states with
/// the same behaviour (cabp: `S = RM(bit0)` doubled the sender's states). The chain is
/// followed until a process repeats, so a cycle `X = Y, Y = X` terminates here and is left
/// as a call, as in mCRL2; linearising it then reports the unguarded recursion.
pub(super) fn final_trivial_call(spec: &ProcSpec, proc: ProcId, args: &[DataExpr]) -> ProcExpr {
    let mut cur = proc;
    let mut cur_args = args.to_vec();
    let mut seen = vec![proc];
    loop {
        let d = spec.proc(cur);
        match &d.body {
            ProcExpr::Call {
                proc: next,
                args: next_args,
            } if !seen.contains(next) => {
                let sigma: Subst = d.params.iter().cloned().zip(cur_args).collect();
                cur_args = next_args.iter().map(|a| substitute(a, &sigma)).collect();
                cur = *next;
                seen.push(cur);
            }
            _ => {
                return ProcExpr::Call {
                    proc: cur,
                    args: cur_args,
                }
            }
        }
    }
}

/// `e` with every call replaced by the final call of its chain of trivial equations
/// ([`final_trivial_call`]).
pub(super) fn expand_trivial_calls_in(spec: &ProcSpec, e: &ProcExpr) -> ProcExpr {
    match e {
        ProcExpr::Call { proc, args } => final_trivial_call(spec, *proc, args),
        _ => e.map_children(|x| expand_trivial_calls_in(spec, x)),
    }
}

/// `spec` with trivial equations expanded away in `init` and in every body (see
/// [`final_trivial_call`]). Runs before the parallel structure is analysed, so an `init X`
/// with `X = Y(..)` and `Y = P || Q` still reaches the parallel body.
pub(super) fn expand_trivial_calls(spec: &ProcSpec) -> ProcSpec {
    let mut out = spec.clone();
    for (i, p) in out.procs.iter_mut().enumerate() {
        p.body = expand_trivial_calls_in(spec, &spec.procs[i].body);
    }
    out.init = expand_trivial_calls_in(spec, &spec.init);
    out
}

/// Which processes can terminate successfully (mCRL2's `canterminate`): the least fixpoint
/// of [`expr_terminates`] over all equations, so a process that can only call itself again
/// (`X = a . X`) cannot. Why: `X . Y` with `X` unable to terminate is `X`, and keeping `Y`
/// on the stack of pending processes makes stacks grow without need (WMS: `JobAgent`'s
/// branches that restart `JobAgent` inside a sequence) and stores dead arguments.
pub(super) fn terminating_procs(spec: &ProcSpec) -> Vec<bool> {
    let mut term = vec![false; spec.procs.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (i, p) in spec.procs.iter().enumerate() {
            if !term[i] && expr_terminates(&term, &p.body) {
                term[i] = true;
                changed = true;
            }
        }
    }
    term
}

/// Whether `e` can terminate successfully (mCRL2's `canterminatebody`), given which
/// processes can ([`terminating_procs`]). Conditions are not evaluated.
pub(super) fn expr_terminates(term: &[bool], e: &ProcExpr) -> bool {
    match e {
        ProcExpr::Action(_) | ProcExpr::Tau => true,
        ProcExpr::Delta => false,
        ProcExpr::Seq(a, b)
        | ProcExpr::Sync(a, b)
        | ProcExpr::Par(a, b)
        | ProcExpr::LeftMerge(a, b) => expr_terminates(term, a) && expr_terminates(term, b),
        ProcExpr::Choice(a, b) => expr_terminates(term, a) || expr_terminates(term, b),
        ProcExpr::If { then, else_, .. } => {
            expr_terminates(term, then) || else_.as_ref().is_some_and(|x| expr_terminates(term, x))
        }
        ProcExpr::Sum { body, .. }
        | ProcExpr::Allow { body, .. }
        | ProcExpr::Block { body, .. }
        | ProcExpr::Hide { body, .. }
        | ProcExpr::Rename { body, .. }
        | ProcExpr::Comm { body, .. } => expr_terminates(term, body),
        ProcExpr::Call { proc, .. } => term[proc.0 as usize],
    }
}

/// mCRL2's distribution of an action prefix over a following condition ("Usenko's
/// optimisation" in `bodytovarheadGNF`, `linearise.cpp`; unconditional there): an
/// alternative `p . (c -> x <> y)` becomes `c -> p . x + !c -> p . y`, recursively over
/// nested conditions, where a missing else branch is `delta`. Without it the state after
/// `p` exists for every data valuation even where the condition only leads back to an
/// existing process, and state spaces differ from mCRL2's (mpsu: 90 states instead of 52).
///
/// As in mCRL2 it applies only to a sequential composition that is an alternative of a
/// body, reached from the root through `+` and `sum` (mCRL2's `alt_state`/`sum_state`), and
/// inside a branch of a condition when that branch is a `+` or a `sum` (mCRL2 makes such a
/// branch a new process whose body is again at alternative level). It does not apply to
/// `a . b . (c -> ..)` (mCRL2 parses `.` to the right, so the condition follows `b` in a
/// tail), nor when `p` cannot terminate. Both this function and its leaf collection recurse
/// only into proper subterms of their input (the produced `p . leaf` is not revisited), so it
/// terminates. `term` says which processes can terminate ([`terminating_procs`]).
pub(super) fn distribute_prefix_over_conditions(term: &[bool], e: &ProcExpr) -> ProcExpr {
    let r = |x: &ProcExpr| Arc::new(distribute_prefix_over_conditions(term, x));
    match e {
        ProcExpr::Choice(a, b) => ProcExpr::Choice(r(a), r(b)),
        ProcExpr::Sum { vars, body } => ProcExpr::Sum {
            vars: vars.clone(),
            body: r(body),
        },
        ProcExpr::If { cond, then, else_ } => {
            let branch = |x: &ProcExpr| match x {
                ProcExpr::Choice(..) | ProcExpr::Sum { .. } => r(x),
                _ => Arc::new(x.clone()),
            };
            ProcExpr::If {
                cond: cond.clone(),
                then: branch(then),
                else_: else_.as_ref().map(|x| branch(x)),
            }
        }
        ProcExpr::Seq(p, q)
            if matches!(**q, ProcExpr::If { .. })
                && !matches!(**p, ProcExpr::Seq(..))
                && expr_terminates(term, p) =>
        {
            fn leaves(p: &ProcExpr, c: DataExpr, rest: &ProcExpr, out: &mut Vec<ProcExpr>) {
                match rest {
                    ProcExpr::If { cond, then, else_ } => {
                        leaves(p, and(c.clone(), cond.clone()), then, out);
                        let other = else_.as_deref().unwrap_or(&ProcExpr::Delta);
                        leaves(p, and(c, not(cond.clone())), other, out);
                    }
                    _ => out.push(ProcExpr::If {
                        cond: c,
                        then: Arc::new(ProcExpr::Seq(Arc::new(p.clone()), Arc::new(rest.clone()))),
                        else_: None,
                    }),
                }
            }
            let mut out = Vec::new();
            leaves(p, true_(), q, &mut out);
            let mut it = out.into_iter();
            let first = it.next().expect("a condition has at least two leaves");
            it.fold(first, |a, b| ProcExpr::Choice(Arc::new(a), Arc::new(b)))
        }
        _ => e.clone(),
    }
}

pub(super) fn subst_action(a: &Action, sigma: &Subst) -> Action {
    Action {
        name: a.name.clone(),
        sorts: a.sorts.clone(),
        args: a.args.iter().map(|d| substitute(d, sigma)).collect(),
    }
}

/// Renames the sum variables `vars` away from `avoid` (names) and from each other;
/// returns the new variables and the renaming (empty if nothing changed).
pub(super) fn rename_sum_vars(vars: &[Var], avoid: &HashSet<Name>) -> (Vec<Var>, Subst) {
    let mut used = avoid.clone();
    let mut sigma = Subst::new();
    let mut out = Vec::with_capacity(vars.len());
    let mut seen: HashSet<Name> = HashSet::new();
    for v in vars {
        if avoid.contains(&v.name) || seen.contains(&v.name) {
            let nv = Var {
                name: fresh_name(&v.name, &mut used),
                sort: v.sort.clone(),
            };
            sigma.insert(v.clone(), DataExpr::Var(nv.clone()));
            seen.insert(nv.name.clone());
            out.push(nv);
        } else {
            used.insert(v.name.clone());
            seen.insert(v.name.clone());
            out.push(v.clone());
        }
    }
    (out, sigma)
}

pub(super) fn range_names(sigma: &Subst) -> HashSet<Name> {
    let mut out = HashSet::new();
    for val in sigma.values() {
        for v in ir_ops::free_vars(val) {
            out.insert(v.name.clone());
        }
    }
    out
}

pub(super) fn subst_alt(alt: &Alt, sigma: &Subst) -> Alt {
    let mut sigma = sigma.clone();
    for v in &alt.sum_vars {
        sigma.remove(v);
    }
    let (sum_vars, ren) = rename_sum_vars(&alt.sum_vars, &range_names(&sigma));
    let mut names = alt.names.clone();
    super::record_renames(&mut names, &ren);
    sigma.extend(ren);
    Alt {
        names,
        sum_vars,
        cond: substitute(&alt.cond, &sigma),
        acts: alt.acts.iter().map(|a| subst_action(a, &sigma)).collect(),
        stack: alt
            .stack
            .iter()
            .map(|c| Call {
                ctrl: c.ctrl,
                args: c.args.iter().map(|d| substitute(d, &sigma)).collect(),
            })
            .collect(),
    }
}

/// `alt` with `sigma` applied (capture-avoiding), then its sum variables renamed apart from
/// the names in `avoid`: an alternative of a called state, instantiated where those names
/// are in scope.
pub(super) fn instantiate_alt(alt: &Alt, sigma: &Subst, avoid: &HashSet<Name>) -> Alt {
    let a = subst_alt(alt, sigma);
    let (sv, ren) = rename_sum_vars(&a.sum_vars, avoid);
    let mut a = subst_alt(
        &Alt {
            sum_vars: vec![],
            ..a
        },
        &ren,
    );
    a.renamed(&ren);
    a.sum_vars = sv;
    a
}

pub(super) fn subst_csum(s: &CSum, sigma: &Subst, avoid: &HashSet<Name>) -> CSum {
    let mut sigma = sigma.clone();
    for v in &s.sum_vars {
        sigma.remove(v);
    }
    let mut av = range_names(&sigma);
    av.extend(avoid.iter().cloned());
    let (sum_vars, ren) = rename_sum_vars(&s.sum_vars, &av);
    let origin = rename_origin(&s.origin, &ren);
    sigma.extend(ren);
    CSum {
        sum_vars,
        cond: substitute(&s.cond, &sigma),
        acts: s.acts.iter().map(|a| subst_action(a, &sigma)).collect(),
        assign: s
            .assign
            .iter()
            .map(|(i, d)| (*i, substitute(d, &sigma)))
            .collect(),
        origin,
    }
}

/// The origin of a summand whose sum variables `ren` renamed: its selectors and clusters
/// follow the new names (each member keeps the model's names), and the renamed variables
/// keep the model's names ([`Origin::sum_names`]).
fn rename_origin(o: &Origin, ren: &Subst) -> Origin {
    if ren.is_empty() {
        return o.clone();
    }
    let new = |n: &Name| -> Name {
        match ren.iter().find(|(v, _)| v.name == *n) {
            Some((_, DataExpr::Var(w))) => w.name.clone(),
            _ => n.clone(),
        }
    };
    let mut o = o.clone();
    for n in &mut o.synthetic {
        *n = new(n);
    }
    for (v, w) in ren {
        if let DataExpr::Var(w) = w {
            if !o.synthetic.contains(&w.name) {
                o.renamed(&v.name, &w.name);
            }
        }
    }
    for c in &mut o.clusters {
        for n in c.selectors.iter_mut().chain(c.merged.iter_mut()) {
            *n = new(n);
        }
        for (merged, _) in c.members.iter_mut().flatten() {
            *merged = new(merged);
        }
    }
    o
}

pub(super) fn sort_acts(acts: &mut [Action]) {
    acts.sort();
}

pub(super) fn merge_origin(a: &Origin, b: &Origin, sep: &str) -> Origin {
    let mut spans = a.spans.clone();
    for s in &b.spans {
        if !spans.contains(s) {
            spans.push(*s);
        }
    }
    let mut synthetic = a.synthetic.clone();
    synthetic.extend(
        b.synthetic
            .iter()
            .filter(|n| !a.synthetic.contains(n))
            .cloned(),
    );
    let mut clusters = a.clusters.clone();
    clusters.extend(
        b.clusters
            .iter()
            .filter(|c| !a.clusters.contains(c))
            .cloned(),
    );
    let mut sum_names = a.sum_names.clone();
    sum_names.extend(b.sum_names.iter().cloned());
    Origin {
        spans,
        description: format!("{}{sep}{}", a.description, b.description),
        synthetic,
        clusters,
        sum_names,
    }
}

/// Where a part of a body stands for mCRL2's `bodytovarheadGNF`, in the order of its
/// `state`: a part past its state becomes a new process.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum GnfState {
    Alt,
    Sum,
    Seq,
    Name,
}

/// Body `e` as mCRL2's Greibach normal form leaves it for deciding which parameters a
/// process reads: a part in first position that `bodytovarheadGNF` makes a new process
/// (a `+`, `sum` or condition under a condition, a compound before a `.`) is substituted
/// back into the body (`procstorealGNFbody`), and that substitution rewrites its
/// conditions (`substitute_pCRLproc`): a `false` branch goes, a `true` condition with it.
/// Conditions at the top of the body and tails stay as written. So
/// `(1 > 0) -> ((false && bb) -> a . P(true) <> b . P(false))` does not read `bb`
/// (mCRL2: 1 state) where `(false && bb) -> a . P(true) <> b . P(false)` does (2 states),
/// and random seed 7373 #161's `Q0` does not read `dd` in its dead `else` branch.
pub(super) fn rewrite_substituted_parts(e: &ProcExpr, simp: &dyn Simplifier) -> ProcExpr {
    fn go(e: &ProcExpr, s: GnfState, simp: &dyn Simplifier) -> ProcExpr {
        let r = |x: &ProcExpr, s| Arc::new(go(x, s, simp));
        match e {
            ProcExpr::Choice(p, q) if s == GnfState::Alt => {
                ProcExpr::Choice(r(p, GnfState::Alt), r(q, GnfState::Alt))
            }
            ProcExpr::Sum { vars, body } if s <= GnfState::Sum => ProcExpr::Sum {
                vars: vars.clone(),
                body: r(body, GnfState::Sum),
            },
            ProcExpr::If { cond, then, else_ }
                if s == GnfState::Alt
                    || (s == GnfState::Sum
                        && else_.as_ref().is_none_or(|q| {
                            matches!(**q, ProcExpr::Delta) || matches!(**then, ProcExpr::Delta)
                        })) =>
            {
                ProcExpr::If {
                    cond: cond.clone(),
                    then: r(then, GnfState::Seq),
                    else_: else_.as_ref().map(|q| r(q, GnfState::Seq)),
                }
            }
            ProcExpr::Seq(p, q) if s <= GnfState::Seq => {
                ProcExpr::Seq(r(p, GnfState::Name), q.clone())
            }
            ProcExpr::Choice(..)
            | ProcExpr::Sum { .. }
            | ProcExpr::If { .. }
            | ProcExpr::Seq(..) => substituted(e, simp),
            _ => e.clone(),
        }
    }
    /// `e` with every condition rewritten, as a substituted body.
    fn substituted(e: &ProcExpr, simp: &dyn Simplifier) -> ProcExpr {
        match e {
            ProcExpr::If { cond, then, else_ } => {
                let c = simp.simplify(cond);
                if ir_ops::is_false(&c) {
                    return else_
                        .as_ref()
                        .map_or(ProcExpr::Delta, |q| substituted(q, simp));
                }
                if ir_ops::is_true(&c) {
                    return substituted(then, simp);
                }
                ProcExpr::If {
                    cond: c,
                    then: Arc::new(substituted(then, simp)),
                    else_: else_.as_ref().map(|q| Arc::new(substituted(q, simp))),
                }
            }
            ProcExpr::Choice(p, q) => {
                let (p, q) = (substituted(p, simp), substituted(q, simp));
                match (&p, &q) {
                    (ProcExpr::Delta, _) => q,
                    (_, ProcExpr::Delta) => p,
                    _ => ProcExpr::Choice(Arc::new(p), Arc::new(q)),
                }
            }
            ProcExpr::Sum { vars, body } => ProcExpr::Sum {
                vars: vars.clone(),
                body: Arc::new(substituted(body, simp)),
            },
            ProcExpr::Seq(p, q) => match substituted(p, simp) {
                ProcExpr::Delta => ProcExpr::Delta,
                p => ProcExpr::Seq(Arc::new(p), q.clone()),
            },
            _ => e.clone(),
        }
    }
    go(e, GnfState::Alt, simp)
}
