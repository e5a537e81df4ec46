//! Linearisation: a typed process specification becomes one linear process.
//! See the module documentation of [`crate::lps`] for the algorithm.

use std::collections::{BTreeSet, HashMap, HashSet};

use miette::Diagnostic;
use thiserror::Error;

use crate::data::ir::{DataExpr, Name, Sort, Var};
use crate::data::ir_ops::{
    self, and, and_all, default_value, eq, fresh_name, is_closed, is_false, not, number,
    substitute, true_, Simplifier, Subst,
};
use crate::process::ir::{
    Action, ActionDecl, CommRule, MultiActionName, ProcExpr, ProcId, ProcSpec,
};
use crate::source::Span;

use super::{Lps, Origin, Summand, SummandAction};

/// Options of [`linearise`].
#[derive(Clone, Copy, Debug)]
pub struct LineariseOptions {
    /// Apply sumelm, constelm and parelm to the result (the default).
    pub simplify: bool,
}

impl Default for LineariseOptions {
    fn default() -> Self {
        LineariseOptions { simplify: true }
    }
}

/// Why a specification cannot be linearised.
#[derive(Debug, Error, Diagnostic)]
pub enum LinError {
    /// `P = P + a`: a process can reach a call of itself without doing an action first.
    #[error(
        "unguarded recursion: process {process} can call itself without doing an action first"
    )]
    #[diagnostic(
        code(muon::lps::unguarded),
        help("put an action before the recursive call, e.g. `P = a . P`")
    )]
    UnguardedRecursion {
        /// The process.
        process: Name,
        /// Its declaration.
        span: Span,
    },
    /// `P = a . P . b`: the process needs an unbounded stack.
    #[error("process {process} is not regular: its recursion `… {process} . …` builds an unbounded sequence of pending processes")]
    #[diagnostic(
        code(muon::lps::nonregular),
        help("rewrite the recursion so that the recursive call is the last thing the process does (tail recursion), using a parameter to count pending work")
    )]
    NonRegular {
        /// The process.
        process: Name,
        /// Its declaration.
        span: Span,
    },
    /// A process containing parallel operators calls itself through them.
    #[error("process {process} calls itself through a parallel composition; this needs an unbounded number of components")]
    #[diagnostic(code(muon::lps::parallel_recursion))]
    ParallelRecursion {
        /// The process.
        process: Name,
        /// Its declaration.
        span: Span,
    },
    /// A construct this lineariser does not handle.
    #[error("not supported by mcrl22lps: {what}")]
    #[diagnostic(code(muon::lps::unsupported))]
    Unsupported {
        /// What and where.
        what: String,
        /// The process (or `init`) it occurs in.
        span: Span,
    },
    /// The result would be too large.
    #[error("linearisation stopped: {what}")]
    #[diagnostic(code(muon::lps::too_large))]
    TooLarge {
        /// What grew too large.
        what: String,
        /// Where.
        span: Span,
    },
}

impl LinError {
    /// The source span the error refers to.
    pub fn span(&self) -> Span {
        match self {
            LinError::UnguardedRecursion { span, .. }
            | LinError::NonRegular { span, .. }
            | LinError::ParallelRecursion { span, .. }
            | LinError::Unsupported { span, .. }
            | LinError::TooLarge { span, .. } => *span,
        }
    }
}

/// Longest stack of pending processes a regular process may build.
const MAX_STACK: usize = 24;
/// Most control states over all components.
const MAX_CTRL: usize = 200_000;
/// Most summands of any intermediate result.
const MAX_SUMMANDS: usize = 2_000_000;

/// Linearises `spec` into a linear process.
pub fn linearise(spec: &ProcSpec, opts: LineariseOptions) -> Result<Lps, LinError> {
    let expanded = expand_trivial_calls(spec);
    let spec = &expanded;
    let mut l = Lin::new(spec);
    let tree = l.expand(&spec.init, spec.init_span, &mut Vec::new())?;
    let sums = l.lin_node(&tree, &Constraint::any())?;
    let simp = std::mem::replace(
        &mut l.simp,
        Box::new(crate::data::ir_ops::SyntacticSimplifier::default()),
    );
    let terminations = std::mem::take(&mut l.terminations);
    let mut lps = l.finish(sums);
    super::terminate::add_terminate(&mut lps, &terminations);
    if opts.simplify {
        super::simplify::simplify_all(&mut lps, &*simp);
    }
    Ok(lps)
}

// ---------------------------------------------------------------------------------------
// Sequential part: Greibach normal form.

/// A call on the pending stack: control state and arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Call {
    ctrl: CtrlId,
    args: Vec<DataExpr>,
}

/// One alternative of a sequential process in Greibach normal form.
#[derive(Clone, Debug)]
struct Alt {
    sum_vars: Vec<Var>,
    cond: DataExpr,
    acts: Vec<Action>,
    /// Pending calls, innermost first; empty means successful termination.
    stack: Vec<Call>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct CtrlId(u32);

#[derive(Clone, Debug)]
enum CtrlKind {
    Proc(ProcId),
    Expr(ProcExpr),
    Stack(Vec<CtrlId>),
}

#[derive(Clone, Debug)]
struct Ctrl {
    name: String,
    /// The process equation this state comes from (for diagnostics).
    owner: Name,
    params: Vec<Var>,
    kind: CtrlKind,
    span: Span,
    alts: Option<Vec<Alt>>,
}

/// The parallel structure above the sequential leaves.
#[derive(Clone, Debug)]
enum PNode {
    Leaf(ProcExpr, Span),
    Par(Vec<PNode>),
    Sync(Box<PNode>, Box<PNode>),
    Allow(Vec<MultiActionName>, Box<PNode>),
    Block(Vec<Name>, Box<PNode>),
    Hide(Vec<Name>, Box<PNode>),
    Rename(Vec<(Name, Name)>, Box<PNode>),
    Comm(Vec<CommRule>, Box<PNode>),
}

/// A summand of a partial composition: assignments only for changed parameters (global
/// parameter indices, sorted).
#[derive(Clone, Debug)]
struct CSum {
    sum_vars: Vec<Var>,
    cond: DataExpr,
    acts: Vec<Action>,
    assign: Vec<(u32, DataExpr)>,
    origin: Origin,
}

impl CSum {
    fn names(&self) -> Vec<Name> {
        self.acts.iter().map(|a| a.name.clone()).collect()
    }
}

/// A downward-closed set of multi-action name multisets: the multi-actions a subprocess may
/// usefully produce given the operators above it.
#[derive(Clone, Debug)]
enum Constraint {
    /// Anything without these names.
    Any { blocked: BTreeSet<Name> },
    /// Sub-multisets of one of `sets` after removing the `free` names (any number of them).
    Finite {
        sets: Vec<Vec<Name>>,
        free: BTreeSet<Name>,
    },
}

const MAX_CONSTRAINT_SETS: usize = 20_000;

fn sub_multiset(small: &[Name], big: &[Name]) -> bool {
    // both sorted
    let mut j = 0;
    for x in small {
        while j < big.len() && big[j] < *x {
            j += 1;
        }
        if j < big.len() && big[j] == *x {
            j += 1;
        } else {
            return false;
        }
    }
    true
}

impl Constraint {
    fn any() -> Constraint {
        Constraint::Any {
            blocked: BTreeSet::new(),
        }
    }

    /// Whether a multi-action with these (sorted) names can still grow into a useful one.
    fn possible(&self, names: &[Name]) -> bool {
        match self {
            Constraint::Any { blocked } => !names.iter().any(|n| blocked.contains(n)),
            Constraint::Finite { sets, free } => {
                let m: Vec<Name> = names
                    .iter()
                    .filter(|n| !free.contains(*n))
                    .cloned()
                    .collect();
                m.is_empty() || sets.iter().any(|s| sub_multiset(&m, s))
            }
        }
    }

    fn allow(&self, v: &[MultiActionName]) -> Constraint {
        let sets = v
            .iter()
            .map(|m| {
                let mut s = m.0.clone();
                s.sort();
                s
            })
            .filter(|s| self.possible(s))
            .collect();
        Constraint::Finite {
            sets,
            free: BTreeSet::new(),
        }
    }

    fn block(&self, b: &[Name]) -> Constraint {
        match self {
            Constraint::Any { blocked } => {
                let mut blocked = blocked.clone();
                blocked.extend(b.iter().cloned());
                Constraint::Any { blocked }
            }
            Constraint::Finite { sets, free } => Constraint::Finite {
                sets: sets
                    .iter()
                    .filter(|s| !s.iter().any(|n| b.contains(n)))
                    .cloned()
                    .collect(),
                free: free.iter().filter(|n| !b.contains(n)).cloned().collect(),
            },
        }
    }

    fn hide(&self, h: &[Name]) -> Constraint {
        match self {
            Constraint::Any { blocked } => Constraint::Any {
                blocked: blocked.iter().filter(|n| !h.contains(n)).cloned().collect(),
            },
            Constraint::Finite { sets, free } => {
                let mut free = free.clone();
                free.extend(h.iter().cloned());
                Constraint::Finite {
                    sets: sets.clone(),
                    free,
                }
            }
        }
    }

    /// Preimage under a name map `f` given as, per output name, its possible sources.
    fn preimage(
        &self,
        sources: &dyn Fn(&Name) -> Vec<Vec<Name>>,
        extra_free: &BTreeSet<Name>,
    ) -> Constraint {
        match self {
            Constraint::Any { .. } => unreachable!("handled by callers"),
            Constraint::Finite { sets, free } => {
                let mut out: BTreeSet<Vec<Name>> = BTreeSet::new();
                for s in sets {
                    let mut partial: Vec<Vec<Name>> = vec![vec![]];
                    for n in s {
                        let opts = sources(n);
                        // A name with no source cannot occur in an image: the sets are
                        // downward closed, so the rest of the set still counts (dropping
                        // the whole set lost `r2` of `{r2, s2}` under `rename({s2->s4}, …)`).
                        if opts.is_empty() {
                            continue;
                        }
                        let mut next = Vec::new();
                        for p in &partial {
                            for o in &opts {
                                let mut q = p.clone();
                                q.extend(o.iter().cloned());
                                next.push(q);
                            }
                        }
                        partial = next;
                        if partial.len() > MAX_CONSTRAINT_SETS {
                            return Constraint::any();
                        }
                    }
                    for mut p in partial {
                        p.sort();
                        out.insert(p);
                    }
                    if out.len() > MAX_CONSTRAINT_SETS {
                        return Constraint::any();
                    }
                }
                let mut fr: BTreeSet<Name> = BTreeSet::new();
                for n in free {
                    for o in sources(n) {
                        fr.extend(o);
                    }
                }
                fr.extend(extra_free.iter().cloned());
                Constraint::Finite {
                    sets: out.into_iter().collect(),
                    free: fr,
                }
            }
        }
    }

    fn rename(&self, map: &[(Name, Name)]) -> Constraint {
        let target = |n: &Name| -> Name {
            map.iter()
                .find(|(a, _)| a == n)
                .map(|(_, b)| b.clone())
                .unwrap_or_else(|| n.clone())
        };
        match self {
            Constraint::Any { blocked } => {
                let mut b: BTreeSet<Name> = blocked
                    .iter()
                    .filter(|n| !map.iter().any(|(a, _)| a == *n))
                    .cloned()
                    .collect();
                for (a, _) in map {
                    if blocked.contains(&target(a)) {
                        b.insert(a.clone());
                    }
                }
                Constraint::Any { blocked: b }
            }
            Constraint::Finite { .. } => {
                let sources = |x: &Name| -> Vec<Vec<Name>> {
                    let mut v: Vec<Vec<Name>> = map
                        .iter()
                        .filter(|(_, b)| b == x)
                        .map(|(a, _)| vec![a.clone()])
                        .collect();
                    if !map.iter().any(|(a, _)| a == x) {
                        v.push(vec![x.clone()]);
                    }
                    v
                };
                self.preimage(&sources, &BTreeSet::new())
            }
        }
    }

    fn comm(&self, rules: &[CommRule]) -> Constraint {
        match self {
            Constraint::Any { blocked } => {
                let lhs: BTreeSet<&Name> = rules.iter().flat_map(|r| r.lhs.0.iter()).collect();
                Constraint::Any {
                    blocked: blocked
                        .iter()
                        .filter(|n| !lhs.contains(n))
                        .cloned()
                        .collect(),
                }
            }
            Constraint::Finite { .. } => {
                let sources = |x: &Name| -> Vec<Vec<Name>> {
                    let mut v = vec![vec![x.clone()]];
                    for r in rules {
                        if r.rhs.as_ref() == Some(x) {
                            v.push(r.lhs.0.clone());
                        }
                    }
                    v
                };
                // Communications to tau may happen any number of times.
                let extra: BTreeSet<Name> = rules
                    .iter()
                    .filter(|r| r.rhs.is_none())
                    .flat_map(|r| r.lhs.0.iter().cloned())
                    .collect();
                self.preimage(&sources, &extra)
            }
        }
    }
}

/// The linearisation state.
struct Lin<'a> {
    spec: &'a ProcSpec,
    /// Which processes contain parallel operators (directly or through calls).
    mcrl: Vec<bool>,
    ctrls: Vec<Ctrl>,
    proc_ctrl: HashMap<ProcId, CtrlId>,
    expr_ctrl: HashMap<(ProcExpr, Vec<Var>), CtrlId>,
    stack_ctrl: HashMap<Vec<CtrlId>, CtrlId>,
    /// GNF of process bodies in terms of their parameters (memo), and those in progress.
    proc_alts: HashMap<ProcId, Vec<Alt>>,
    in_progress: Vec<ProcId>,
    tail_counter: usize,
    /// Global parameters and initial values.
    params: Vec<Var>,
    init: Vec<DataExpr>,
    globals: Vec<Var>,
    used_names: HashSet<Name>,
    /// Names of data symbols, sorts, actions and processes: fresh sum variables avoid them
    /// so that the printed LPS does not confuse a variable `d1` with a constructor `d1`.
    reserved: HashSet<Name>,
    actions: Vec<ActionDecl>,
    /// Decides data equalities (the data engine's rewriter when available).
    simp: Box<dyn Simplifier>,
    /// How each sequential component terminates, for the explicit `Terminate`.
    terminations: Vec<super::terminate::Termination>,
}

fn proc_has_parallel(e: &ProcExpr) -> bool {
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

fn collect_calls(e: &ProcExpr, out: &mut Vec<ProcId>) {
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

/// The operands of a (nested) sequential composition, in execution order.
fn flatten_seq<'e>(e: &'e ProcExpr, out: &mut Vec<&'e ProcExpr>) {
    match e {
        ProcExpr::Seq(a, b) => {
            flatten_seq(a, out);
            flatten_seq(b, out);
        }
        _ => out.push(e),
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

/// Capture-avoiding substitution in a process expression.
pub(crate) fn subst_proc(e: &ProcExpr, sigma: &Subst) -> ProcExpr {
    if sigma.is_empty() {
        return e.clone();
    }
    let sd = |d: &DataExpr| substitute(d, sigma);
    let sp = |p: &ProcExpr| Box::new(subst_proc(p, sigma));
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
                body: Box::new(subst_proc(body, &inner)),
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
fn final_trivial_call(spec: &ProcSpec, proc: ProcId, args: &[DataExpr]) -> ProcExpr {
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
fn expand_trivial_calls_in(spec: &ProcSpec, e: &ProcExpr) -> ProcExpr {
    match e {
        ProcExpr::Call { proc, args } => final_trivial_call(spec, *proc, args),
        _ => e.map_children(|x| expand_trivial_calls_in(spec, x)),
    }
}

/// `spec` with trivial equations expanded away in `init` and in every body (see
/// [`final_trivial_call`]). Runs before the parallel structure is analysed, so an `init X`
/// with `X = Y(..)` and `Y = P || Q` still reaches the parallel body.
fn expand_trivial_calls(spec: &ProcSpec) -> ProcSpec {
    let mut out = spec.clone();
    for (i, p) in out.procs.iter_mut().enumerate() {
        p.body = expand_trivial_calls_in(spec, &spec.procs[i].body);
    }
    out.init = expand_trivial_calls_in(spec, &spec.init);
    out
}

/// Whether `e` can terminate successfully (mCRL2's `canterminatebody`); `visiting` holds
/// the processes being examined, and a call back into one of them is taken not to terminate
/// (its other alternatives decide).
fn can_terminate(spec: &ProcSpec, e: &ProcExpr, visiting: &mut Vec<ProcId>) -> bool {
    match e {
        ProcExpr::Action(_) | ProcExpr::Tau => true,
        ProcExpr::Delta => false,
        ProcExpr::Seq(a, b)
        | ProcExpr::Sync(a, b)
        | ProcExpr::Par(a, b)
        | ProcExpr::LeftMerge(a, b) => {
            can_terminate(spec, a, visiting) && can_terminate(spec, b, visiting)
        }
        ProcExpr::Choice(a, b) => {
            can_terminate(spec, a, visiting) || can_terminate(spec, b, visiting)
        }
        ProcExpr::If { then, else_, .. } => {
            can_terminate(spec, then, visiting)
                || else_
                    .as_ref()
                    .is_some_and(|x| can_terminate(spec, x, visiting))
        }
        ProcExpr::Sum { body, .. }
        | ProcExpr::Allow { body, .. }
        | ProcExpr::Block { body, .. }
        | ProcExpr::Hide { body, .. }
        | ProcExpr::Rename { body, .. }
        | ProcExpr::Comm { body, .. } => can_terminate(spec, body, visiting),
        ProcExpr::Call { proc, .. } => {
            if visiting.contains(proc) {
                return false;
            }
            visiting.push(*proc);
            let r = can_terminate(spec, &spec.proc(*proc).body, visiting);
            visiting.pop();
            r
        }
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
/// terminates; `can_terminate` stops at the first repeated process.
fn distribute_prefix_over_conditions(spec: &ProcSpec, e: &ProcExpr) -> ProcExpr {
    let r = |x: &ProcExpr| Box::new(distribute_prefix_over_conditions(spec, x));
    match e {
        ProcExpr::Choice(a, b) => ProcExpr::Choice(r(a), r(b)),
        ProcExpr::Sum { vars, body } => ProcExpr::Sum {
            vars: vars.clone(),
            body: r(body),
        },
        ProcExpr::If { cond, then, else_ } => {
            let branch = |x: &ProcExpr| match x {
                ProcExpr::Choice(..) | ProcExpr::Sum { .. } => r(x),
                _ => Box::new(x.clone()),
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
                && can_terminate(spec, p, &mut Vec::new()) =>
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
                        then: Box::new(ProcExpr::Seq(Box::new(p.clone()), Box::new(rest.clone()))),
                        else_: None,
                    }),
                }
            }
            let mut out = Vec::new();
            leaves(p, true_(), q, &mut out);
            let mut it = out.into_iter();
            let first = it.next().expect("a condition has at least two leaves");
            it.fold(first, |a, b| ProcExpr::Choice(Box::new(a), Box::new(b)))
        }
        _ => e.clone(),
    }
}

fn subst_action(a: &Action, sigma: &Subst) -> Action {
    Action {
        name: a.name.clone(),
        sorts: a.sorts.clone(),
        args: a.args.iter().map(|d| substitute(d, sigma)).collect(),
    }
}

/// Renames the sum variables `vars` away from `avoid` (names) and from each other;
/// returns the new variables and the renaming (empty if nothing changed).
fn rename_sum_vars(vars: &[Var], avoid: &HashSet<Name>) -> (Vec<Var>, Subst) {
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

fn range_names(sigma: &Subst) -> HashSet<Name> {
    let mut out = HashSet::new();
    for val in sigma.values() {
        for v in ir_ops::free_vars(val) {
            out.insert(v.name.clone());
        }
    }
    out
}

fn subst_alt(alt: &Alt, sigma: &Subst) -> Alt {
    let mut sigma = sigma.clone();
    for v in &alt.sum_vars {
        sigma.remove(v);
    }
    let (sum_vars, ren) = rename_sum_vars(&alt.sum_vars, &range_names(&sigma));
    sigma.extend(ren);
    Alt {
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

fn subst_csum(s: &CSum, sigma: &Subst, avoid: &HashSet<Name>) -> CSum {
    let mut sigma = sigma.clone();
    for v in &s.sum_vars {
        sigma.remove(v);
    }
    let mut av = range_names(&sigma);
    av.extend(avoid.iter().cloned());
    let (sum_vars, ren) = rename_sum_vars(&s.sum_vars, &av);
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
        origin: s.origin.clone(),
    }
}

fn sort_acts(acts: &mut [Action]) {
    acts.sort();
}

fn merge_origin(a: &Origin, b: &Origin, sep: &str) -> Origin {
    let mut spans = a.spans.clone();
    for s in &b.spans {
        if !spans.contains(s) {
            spans.push(*s);
        }
    }
    Origin {
        spans,
        description: format!("{}{sep}{}", a.description, b.description),
    }
}

impl<'a> Lin<'a> {
    fn new(spec: &'a ProcSpec) -> Lin<'a> {
        // Fixpoint: a process is "mCRL" when its body has a parallel operator or calls one.
        let n = spec.procs.len();
        let mut mcrl: Vec<bool> = spec
            .procs
            .iter()
            .map(|p| proc_has_parallel(&p.body))
            .collect();
        let calls: Vec<Vec<ProcId>> = spec
            .procs
            .iter()
            .map(|p| {
                let mut v = Vec::new();
                collect_calls(&p.body, &mut v);
                v
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                if !mcrl[i] && calls[i].iter().any(|c| mcrl[c.0 as usize]) {
                    mcrl[i] = true;
                    changed = true;
                }
            }
        }
        let mut used_names: HashSet<Name> = HashSet::new();
        for g in &spec.globals {
            used_names.insert(g.name.clone());
        }
        // Generated names must not look like data symbols, sorts or actions when printed.
        let d = &spec.data;
        used_names.extend(d.constructors.iter().map(|f| f.func.name.clone()));
        used_names.extend(d.mappings.iter().map(|f| f.func.name.clone()));
        used_names.extend(d.aliases.iter().map(|a| a.0.clone()));
        for s in &d.sorts {
            used_names.insert(s.name.clone());
            if let crate::data::ir::SortDef::Struct(cs) = &s.def {
                for c in cs {
                    used_names.insert(c.name.clone());
                    used_names.extend(c.recogniser.iter().cloned());
                    used_names.extend(c.fields.iter().filter_map(|f| f.projection.clone()));
                }
            }
        }
        used_names.extend(spec.actions.iter().map(|a| a.name.clone()));
        used_names.extend(spec.procs.iter().map(|p| p.name.clone()));
        used_names.insert(super::PROC_NAME.into());
        for kw in [
            "true", "false", "if", "min", "max", "succ", "pred", "abs", "div", "mod", "in", "head",
            "tail", "rhead", "rtail", "count",
        ] {
            used_names.insert(kw.into());
        }
        Lin {
            spec,
            mcrl,
            ctrls: Vec::new(),
            proc_ctrl: HashMap::new(),
            expr_ctrl: HashMap::new(),
            stack_ctrl: HashMap::new(),
            proc_alts: HashMap::new(),
            in_progress: Vec::new(),
            tail_counter: 0,
            params: Vec::new(),
            init: Vec::new(),
            globals: spec.globals.clone(),
            reserved: used_names.clone(),
            used_names,
            actions: spec.actions.clone(),
            simp: super::simplify::best_simplifier(&spec.data),
            terminations: Vec::new(),
        }
    }

    fn proc_name(&self, id: ProcId) -> Name {
        self.spec.proc(id).name.clone()
    }

    // ----- parallel structure -------------------------------------------------------

    fn is_mcrl_expr(&self, e: &ProcExpr) -> bool {
        if proc_has_parallel(e) {
            return true;
        }
        let mut calls = Vec::new();
        collect_calls(e, &mut calls);
        calls.iter().any(|c| self.mcrl[c.0 as usize])
    }

    fn is_multiaction(e: &ProcExpr) -> bool {
        match e {
            ProcExpr::Action(_) | ProcExpr::Tau => true,
            ProcExpr::Sync(a, b) => Self::is_multiaction(a) && Self::is_multiaction(b),
            _ => false,
        }
    }

    fn expand(
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

    // ----- GNF -------------------------------------------------------------------------

    fn new_ctrl(
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

    fn ctrl_of_proc(&mut self, p: ProcId) -> Result<CtrlId, LinError> {
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
    fn tail_call(&mut self, q: &ProcExpr, owner: &str, span: Span) -> Result<Call, LinError> {
        if let ProcExpr::Call { proc, args } = q {
            if !self.mcrl[proc.0 as usize] {
                let ctrl = self.ctrl_of_proc(*proc)?;
                return Ok(Call {
                    ctrl,
                    args: args.clone(),
                });
            }
        }
        // A sequence of calls `X(..) . Y(..)` is the same continuation as the stack that
        // recursion builds (X running with Y pending): one control state for both, as in
        // mCRL2, which keys such processes by the sequence of process identifiers
        // (`create_regular_invocation`). Otherwise Lamport_queue's `Push(v) . Producer`
        // and the stack `[Push, Producer]` would be two states with the same behaviour.
        let mut parts = Vec::new();
        flatten_seq(q, &mut parts);
        if parts.len() > 1 {
            let mut calls = Vec::with_capacity(parts.len());
            for part in &parts {
                match part {
                    ProcExpr::Call { proc, args } if !self.mcrl[proc.0 as usize] => {
                        let ctrl = self.ctrl_of_proc(*proc)?;
                        calls.push(Call {
                            ctrl,
                            args: args.clone(),
                        });
                    }
                    _ => break,
                }
            }
            if calls.len() == parts.len() {
                return self.stack_target(&calls);
            }
        }
        let params = proc_free_vars(q);
        let key = (q.clone(), params.clone());
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

    /// GNF alternatives of `e`; `scope` holds the variables in scope and the reserved names
    /// (sum variables are renamed away from them), `owner` names the process for diagnostics.
    fn gnf(
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
                let e = ProcExpr::Seq(p1.clone(), Box::new(ProcExpr::Seq(p2.clone(), q.clone())));
                self.gnf(&e, scope, owner, span)?
            }
            ProcExpr::Seq(p, q) => {
                let mut alts = self.gnf(p, scope, owner, span)?;
                if alts.is_empty() {
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
    fn proc_alts(&mut self, p: ProcId) -> Result<Vec<Alt>, LinError> {
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
        let body = distribute_prefix_over_conditions(self.spec, &decl.body);
        let r = self.gnf(&body, &scope, &decl.name.clone(), decl.span);
        self.in_progress.pop();
        let alts = r?;
        self.proc_alts.insert(p, alts.clone());
        Ok(alts)
    }

    /// The alternatives of control state `c` in terms of its parameters.
    fn ctrl_alts(&mut self, c: CtrlId) -> Result<Vec<Alt>, LinError> {
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
                let body = if matches!(e, ProcExpr::Seq(..)) {
                    e.clone()
                } else {
                    distribute_prefix_over_conditions(self.spec, e)
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

    /// The control state and arguments that a non-empty stack jumps to.
    fn stack_target(&mut self, stack: &[Call]) -> Result<Call, LinError> {
        if stack.len() == 1 {
            return Ok(stack[0].clone());
        }
        // Flatten nested stack states so the key is a sequence of base states.
        let mut ids = Vec::new();
        let mut args = Vec::new();
        for c in stack {
            match &self.ctrls[c.ctrl.0 as usize].kind {
                CtrlKind::Stack(inner) => ids.extend(inner.iter().copied()),
                _ => ids.push(c.ctrl),
            }
            args.extend(c.args.iter().cloned());
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

    // ----- components ----------------------------------------------------------------

    fn default_for(&mut self, sort: &Sort) -> DataExpr {
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
    fn component(
        &mut self,
        e: &ProcExpr,
        span: Span,
    ) -> Result<(Vec<CSum>, Vec<Vec<u32>>), LinError> {
        let start = self.tail_call(e, "init", span)?;
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
                    let t = self.stack_target(&a.stack)?;
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
                matches!(
                    self.ctrls[c.0 as usize].kind,
                    CtrlKind::Expr(ProcExpr::Delta)
                )
            })
            .map_or(term_state + 1, |i| i as u32 + 1);
        self.terminations.push(super::terminate::Termination {
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
                            vals[*k] = Some(arg(&t.args[pos]));
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
    fn component_constelm(&mut self, sums: Vec<CSum>, dcs: &[Vec<u32>], first: usize) -> Vec<CSum> {
        let end = self.params.len();
        let simp = &*self.simp;
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
        sums.into_iter()
            .filter_map(|s| {
                let cond = simp.simplify(&substitute(&s.cond, &sigma));
                if is_false(&cond) {
                    return None;
                }
                Some(CSum {
                    cond,
                    acts: s
                        .acts
                        .iter()
                        .map(|a| {
                            let mut a = subst_action(a, &sigma);
                            a.args = a.args.iter().map(|d| simp.simplify(d)).collect();
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
            .collect()
    }

    // ----- composition ---------------------------------------------------------------

    fn lin_node(&mut self, n: &PNode, k: &Constraint) -> Result<Vec<CSum>, LinError> {
        let r = match n {
            PNode::Leaf(e, span) => {
                let first = self.params.len();
                let (s, dcs) = self.component(e, *span)?;
                let mut s = self.component_constelm(s, &dcs, first);
                s.retain(|x| k.possible(&x.names()));
                s
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
                        self.fold_par_comm(results, &kc, rules, k)?
                    }
                    _ => self.lin_node(body, &k.comm(rules))?,
                };
                let mut out = Vec::new();
                for s in r {
                    out.extend(self.apply_comm(s, rules, k)?);
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
            eprintln!("lin: {kind}: {} summands", r.len());
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
    fn fold_par(&mut self, results: Vec<Vec<CSum>>, k: &Constraint) -> Result<Vec<CSum>, LinError> {
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
    fn lin_par_alphabet(
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
    fn fold_par_comm(
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
            results.into_iter().map(|r| self.cluster(r, &big)).collect()
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
                eprintln!("lin: par step {i}: {} summands", next.len());
            }
            acc = Some(next);
        }
        Ok(acc.unwrap_or_default())
    }

    /// Merges summands of one component that do the same action names (all in `names`),
    /// have no sum variables and sit in different control states (`s == k` with distinct
    /// `k` as first conjunct) into one summand per layer: condition `c1 || c2 || …`,
    /// arguments and next values `if(c1, x1, if(c2, x2, …))`. The control conditions
    /// exclude each other, so the transitions are exactly those of the separate summands.
    fn cluster(&self, sums: Vec<CSum>, names: &BTreeSet<Name>) -> Vec<CSum> {
        let ctrl_of = |c: &DataExpr| -> Option<(Var, String)> {
            let first = ir_ops::conjuncts(c).into_iter().next()?;
            match ir_ops::as_app(&first) {
                Some(("==", [DataExpr::Var(v), DataExpr::Number { value, .. }])) => {
                    Some((v.clone(), value.to_string()))
                }
                _ => None,
            }
        };
        let mut out = Vec::new();
        // key: (action names and sorts, control variable) -> layers
        let mut groups: Vec<(ClusterKey, Vec<Layer>)> = Vec::new();
        for s in sums {
            let eligible = !s.acts.is_empty()
                && s.sum_vars.is_empty()
                && s.acts.iter().all(|a| names.contains(&a.name));
            let ctrl = if eligible { ctrl_of(&s.cond) } else { None };
            let Some((cv, val)) = ctrl else {
                out.push(s);
                continue;
            };
            let key = (
                s.acts
                    .iter()
                    .map(|a| (a.name.clone(), a.sorts.clone()))
                    .collect::<Vec<_>>(),
                cv,
            );
            let gi = match groups.iter().position(|g| g.0 == key) {
                Some(i) => i,
                None => {
                    groups.push((key, Vec::new()));
                    groups.len() - 1
                }
            };
            let layers = &mut groups[gi].1;
            match layers
                .iter_mut()
                .find(|l| !l.iter().any(|(v, _)| *v == val))
            {
                Some(l) => l.push((val, s)),
                None => layers.push(vec![(val, s)]),
            }
        }
        for (_, layers) in groups {
            for layer in layers {
                if layer.len() == 1 {
                    out.extend(layer.into_iter().map(|x| x.1));
                    continue;
                }
                let members: Vec<CSum> = layer.into_iter().map(|x| x.1).collect();
                out.push(merge_layer(&self.params, members));
            }
        }
        out
    }

    /// Whether every must-communicate action of `s` has, for some rule, candidate partners
    /// in `s` itself or in `future`.
    fn completable(
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
    fn declare_like(&mut self, b: &Name, from: Vec<Name>) {
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
    fn param_names(&self) -> HashSet<Name> {
        let mut s: HashSet<Name> = self.params.iter().map(|v| v.name.clone()).collect();
        s.extend(self.globals.iter().map(|v| v.name.clone()));
        s
    }

    /// Parallel composition (`interleave`) or synchronous product of two summand sets.
    fn compose(
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
                    origin: merge_origin(&x.origin, &y.origin, " | "),
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
    fn apply_comm(
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

    fn finish(self, sums: Vec<CSum>) -> Lps {
        let n = self.params.len();
        let identity: Vec<DataExpr> = self.params.iter().cloned().map(DataExpr::Var).collect();
        let avoid = {
            let mut s: HashSet<Name> = self.params.iter().map(|v| v.name.clone()).collect();
            s.extend(self.globals.iter().map(|v| v.name.clone()));
            // Renamed sum variables must not print like a data symbol (cabp: `d1`).
            s.extend(self.reserved.iter().cloned());
            s
        };
        let summands = sums
            .into_iter()
            .map(|s| {
                let s = if s.sum_vars.iter().any(|v| avoid.contains(&v.name)) {
                    subst_csum(&s, &Subst::new(), &avoid)
                } else {
                    s
                };
                let mut next = identity.clone();
                for (i, d) in s.assign {
                    next[i as usize] = d;
                }
                debug_assert_eq!(next.len(), n);
                Summand {
                    sum_vars: s.sum_vars,
                    condition: s.cond,
                    action: SummandAction::Multi(s.acts),
                    next,
                    origin: s.origin,
                }
            })
            .collect();
        Lps {
            data: self.spec.data.clone(),
            actions: self.actions,
            globals: self.globals,
            params: self.params,
            init: self.init,
            summands,
        }
    }
}

/// Summands clustered together: same action names and sorts, same control variable.
type ClusterKey = (Vec<(Name, Vec<Sort>)>, Var);
/// Summands with pairwise different control values (value as text, summand).
type Layer = Vec<(String, CSum)>;

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
    let mut acts = members[0].acts.clone();
    for (ai, a) in acts.iter_mut().enumerate() {
        for (k, arg) in a.args.iter_mut().enumerate() {
            *arg = choose(members.iter().map(|m| m.acts[ai].args[k].clone()).collect());
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
            (i, choose(vals))
        })
        .collect();
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

/// Whether some choice of communications (names only, data ignored) turns the multiset
/// `rem` (+ already produced names) into a multi-action `outer` accepts. Over-approximates
/// (answers `true`) when the search budget runs out.
fn comm_can_satisfy(
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
fn find_groups(
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
fn enumerate_selections(
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
