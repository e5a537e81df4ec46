//! Linearisation: a typed process specification becomes one linear process.
//! See the module documentation of [`crate::lps`] for the algorithm.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

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

use super::{Cluster, Lps, Origin, Summand, SummandAction};

mod alphabet;
mod cluster;
mod component;
mod compose;
mod expr;
mod gnf;
mod key;
use alphabet::*;
use expr::*;

/// Options of [`linearise`].
#[derive(Clone, Copy, Debug)]
pub struct LineariseOptions {
    /// Apply sumelm and constelm to the result (the default).
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
    /// Keying sequences by instances made more than `MAX_SEQ` states; linearisation
    /// starts again keying them by states (never reported to a user).
    #[error("sequences keyed by instances do not settle")]
    Diverges,
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
            LinError::Diverges => Span::default(),
        }
    }
}

/// Longest stack of pending processes a regular process may build.
const MAX_STACK: usize = 24;
/// The infix of the names of an action's process and its parameters (`e_act`, `e_act1`).
const ACTION_PARAM: &str = "act";
/// Most control states over all components.
const MAX_CTRL: usize = 200_000;
/// Most sequence states keyed by instances before linearisation falls back to keying by
/// states ([`Keying`]): mCRL2 warns at 25 new processes that its default may not end.
const MAX_SEQ: usize = 500;
/// Largest argument (in nodes) of a sequence keyed by instances: beyond it, arguments are
/// taken to grow without end and linearisation falls back likewise.
const MAX_SEQ_ARG: usize = 400;
/// Most summands of any intermediate result.
const MAX_SUMMANDS: usize = 2_000_000;

/// Linearises `spec` into a linear process.
pub fn linearise(spec: &ProcSpec, opts: LineariseOptions) -> Result<Lps, LinError> {
    let _timer = crate::progress::time_stage("linearisation");
    match linearise_with(spec, opts, Keying::Instances) {
        Err(LinError::Diverges) => linearise_with(spec, opts, Keying::States),
        r => r,
    }
}

fn linearise_with(
    spec: &ProcSpec,
    opts: LineariseOptions,
    keying: Keying,
) -> Result<Lps, LinError> {
    // Parameters are dropped by their occurrences as written, call arguments rewritten
    // (see [`simplify_call_args`]), and only then is the rest of the data simplified.
    let written = expand_trivial_calls(spec);
    let simp = crate::data::ir_ops::SyntacticSimplifier::new(&spec.data);
    let store = crate::data::TermStore::new();
    // One data engine (its equations compiled once) for the bodies and the lineariser.
    let rewrite = crate::data::simplify::best_simplifier(&spec.data, &store);
    let expanded = simplify_bodies(&written, &*rewrite, &simp);
    let keep = kept_params(&simplify_call_args(&written, &*rewrite));
    let spec = &expanded;
    let mut l = Lin::new(spec, rewrite);
    l.keying = keying;
    // Which parameters a process state reads is decided on its body without the dropped
    // arguments of calls in first position (`L(if(bb, e1, e1)) . P(true)` with `L`'s
    // parameter dropped does not read `bb`; `a . Q(n)` reads `n` whatever `Q` keeps),
    // while tails keep those arguments' variables (see [`kept_params`]).
    l.written = strip_dropped(&written, &keep)
        .procs
        .into_iter()
        .map(|p| rewrite_substituted_parts(&p.body, &*l.simp))
        .collect();
    l.keep = keep;
    let tree = l.expand(&spec.init, spec.init_span, &mut Vec::new())?;
    let sums = l.lin_node(&tree, &Constraint::any())?;
    let sums = l.decluster(sums);
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
///
/// A call of a process state (`CtrlKind::Proc`) carries the declaration's whole argument
/// list while it is pending, also for the parameters the state drops: a sequence state
/// made from it reads every argument as written, as mCRL2's does (the tail
/// `c . P1(cc, true)` keeps `cc` though `P1` never reads its first parameter).
/// [`Lin::jump`] drops those arguments when the call becomes a jump.
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
    /// The sum variables renamed so far: name here, name in the model
    /// ([`crate::lps::Origin::sum_names`]).
    names: Vec<(Name, Name)>,
}

impl Alt {
    /// Records the renaming `ren` of sum variables in [`Alt::names`].
    fn renamed(&mut self, ren: &Subst) {
        record_renames(&mut self.names, ren);
    }
}

/// Records the renaming `ren` of sum variables in `names` ([`crate::lps::record_rename`]).
fn record_renames(names: &mut Vec<(Name, Name)>, ren: &Subst) {
    for (v, w) in ren {
        if let DataExpr::Var(w) = w {
            super::record_rename(names, &v.name, &w.name);
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct CtrlId(u32);

#[derive(Clone, Debug)]
enum CtrlKind {
    Proc(ProcId),
    Expr(Arc<ProcExpr>),
    /// A sequence of pending base states keyed by their identities alone, the arguments
    /// held in parameters (the fallback keying, see [`Keying`]).
    Stack(Vec<CtrlId>),
    /// A sequence of pending calls keyed by the calls themselves, arguments included (and
    /// by whether the component's final `Terminate` follows it, in `seq_ctrl`); its
    /// parameters are the variables the arguments read (mCRL2's
    /// `create_regular_invocation`).
    Seq(Vec<Call>),
}

/// How sequences of pending calls become control states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keying {
    /// By the calls with their arguments, as mCRL2 202607.0's default method (`regular`).
    Instances,
    /// By the called states alone, the arguments kept in parameters: what linearisation
    /// falls back to when keying by instances would not end (`P(n) = a . P(n + 1) + b`
    /// needs a state per `n`; mCRL2's default method does not terminate there).
    States,
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

/// The linearisation state.
struct Lin<'a> {
    spec: &'a ProcSpec,
    /// Which processes contain parallel operators (directly or through calls).
    mcrl: Vec<bool>,
    /// Which processes can terminate successfully ([`terminating_procs`]).
    term: Vec<bool>,
    ctrls: Vec<Ctrl>,
    proc_ctrl: HashMap<ProcId, CtrlId>,
    expr_ctrl: HashMap<key::ExprKey, CtrlId>,
    /// The control state of each action's process, by action name and sorts.
    action_ctrl: HashMap<(Name, Vec<Sort>), CtrlId>,
    /// Structural hashes of the expressions keyed in `expr_ctrl`, one per shared node.
    shapes: key::ShapeHashes,
    stack_ctrl: HashMap<(Vec<CtrlId>, bool), CtrlId>,
    seq_ctrl: HashMap<(Vec<Call>, bool, Vec<Var>), CtrlId>,
    keying: Keying,
    /// Whether the component being linearised can terminate: then every sequence of
    /// pending calls that can terminate is followed by its final `Terminate`, so a lone
    /// call with arguments is a sequence of two (mCRL2 wraps such a component's process
    /// as `P . Terminated`).
    root_terminates: bool,
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
    simp: Box<dyn Simplifier + 'a>,
    /// The syntactic folds alone, for closed action arguments (see `component_constelm`).
    syn: ir_ops::SyntacticSimplifier,
    /// How each sequential component terminates, for the explicit `Terminate`.
    terminations: Vec<super::terminate::Termination>,
    /// The Boolean selector variables clustering introduced (see `cluster`).
    selectors: HashSet<Name>,
    /// Selectors sum elimination under a `comm` keeps even where they are unused: their
    /// members differed before constant parameters were substituted, so mCRL2's clustered
    /// summand mentions them (see `cluster`).
    pinned: HashSet<Name>,
    /// Per process, its body as written, before the data is simplified: mCRL2 decides
    /// which parameters a jump resets by the variables this reads (see `component`).
    written: Vec<ProcExpr>,
    /// Per process and parameter, whether its control state keeps it ([`kept_params`]).
    keep: Vec<Vec<bool>>,
    /// The action names a `block` above the component being linearised blocks (empty
    /// under an `allow`, see [`prune_blocked`]): its tails are keyed with those actions as
    /// `delta`, as mCRL2 pushes a `block` into the equations. The memo tables of process
    /// states and tails hold for this set only.
    blocked: BTreeSet<Name>,
}

impl<'a> Lin<'a> {
    /// The linearisation state of `spec`, deciding data with `simp`.
    fn new(spec: &'a ProcSpec, simp: Box<dyn Simplifier + 'a>) -> Lin<'a> {
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
            term: terminating_procs(spec),
            ctrls: Vec::new(),
            proc_ctrl: HashMap::new(),
            expr_ctrl: HashMap::new(),
            action_ctrl: HashMap::new(),
            shapes: key::ShapeHashes::default(),
            stack_ctrl: HashMap::new(),
            seq_ctrl: HashMap::new(),
            keying: Keying::Instances,
            root_terminates: false,
            proc_alts: HashMap::new(),
            in_progress: Vec::new(),
            tail_counter: 0,
            params: Vec::new(),
            init: Vec::new(),
            globals: spec.globals.clone(),
            reserved: used_names.clone(),
            used_names,
            actions: spec.actions.clone(),
            simp,
            syn: ir_ops::SyntacticSimplifier::new(&spec.data),
            terminations: Vec::new(),
            selectors: HashSet::new(),
            pinned: HashSet::new(),
            written: Vec::new(),
            keep: Vec::new(),
            blocked: BTreeSet::new(),
        }
    }

    fn proc_name(&self, id: ProcId) -> Name {
        self.spec.proc(id).name.clone()
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
