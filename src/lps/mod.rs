//! Linear process specifications: linearisation (`mcrl22lps`), LPS simplifications
//! (sumelm, constelm, parelm), the LPS artifact and its pretty printer.
//!
//! # Public API
//! - [`Lps`], [`Summand`], [`SummandAction`], [`Origin`]: the linear process. Serialized with
//!   [`Artifact::write_artifact`]; read it back (invariants checked) with
//!   [`Artifact::read_artifact`].
//! - [`linearise()`]: [`ProcSpec`] → [`Lps`], with
//!   [`LineariseOptions`] (simplify or not); errors are [`LinError`].
//! - [`simplify::sumelm`], [`simplify::constelm`], [`simplify::parelm`],
//!   [`simplify::simplify_all`]: the LPS simplifications; every data decision goes through
//!   a [`Simplifier`](crate::data::ir_ops::Simplifier) (syntactic now; the data engine's
//!   rewriter plugs in there).
//! - [`crate::print::lps_to_string`]: mCRL2 text (`act`, data, `proc P(…) = sum … . c -> a . P(…)
//!   + …; init P(…);`) that mCRL2 and muon can parse back. [`Lps::info`] for `lpsinfo`.
//!
//! # The linear form
//! One process `P(d1: D1, …, dn: Dn)` and one initial vector. Every summand is
//! `sum e1: E1, … . c -> α . P(g1, …, gn)` with α a multi-action (the empty one is `tau`)
//! or `delta`. `next` holds one expression for every parameter (an unchanged parameter is the
//! parameter itself), so an explorer evaluates a summand by substituting the current state
//! and the sum variables into `condition`, `action` and `next` only. Summands never
//! terminate: successful termination of a component is a control state without summands
//! (mCRL2's LTS also has no special terminated state).
//!
//! # Linearisation (method "regular", as mCRL2's)
//! 1. **Parallel structure.** From `init`, operators `||`, `|`, `allow`, `block`, `hide`,
//!    `rename`, `comm` form a tree; calls to processes whose body contains these operators
//!    are inlined (with their arguments substituted). The leaves are sequential (pCRL)
//!    process expressions. Recursion through a parallel operator is reported as an error.
//! 2. **Greibach normal form per leaf.** A process parameter that occurs nowhere in its
//!    body (and in no other process's body under the same name and sort) is dropped with
//!    the matching call arguments, as mCRL2 drops it. The data in every body is then
//!    simplified by the data engine's rewriter on closed subterms (`next(d3)` is `d1` by the
//!    specification's equations) and the syntactic folds (`bb => (false => cc)` is `true`,
//!    `if(c, x, x)` is `x`), as mCRL2 rewrites before it linearises, so a tail's control
//!    state keeps only the variables the tail really uses. A closed action argument gets
//!    the folds alone: mCRL2 leaves it as written (a whole computation, in games/sudoku).
//!    Each reachable process body becomes a list of
//!    alternatives `sum e. c -> α . stack` where `stack` is a sequence of process calls (or
//!    empty: termination). In `p . q` with `p` unable to terminate (a least fixpoint over
//!    the equations, mCRL2's `canterminate`) `q` is dropped, and a stack is cut after its
//!    first such call. Unguarded calls are unfolded (an unguarded cycle is an error that
//!    names the process); a tail that is not a call becomes a fresh process whose parameters
//!    are the tail's free variables; a stack of several calls becomes a process of its own
//!    (regular processes need finitely many; a stack that keeps growing is reported as
//!    non-regular recursion naming the process). As in mCRL2's default method, a stack is
//!    keyed by its calls with their arguments (rewritten), and its parameters are the
//!    variables those arguments read; in a leaf that can terminate every stack that can
//!    terminate is followed by the leaf's `Terminate`, so even a lone call `P(false)` is a
//!    state of its own (unless it passes `P`'s parameters on unchanged: that is `P`'s own
//!    state). Where such keys would not end (`P(n) = a . P(n + 1) + b`: a state per `n`,
//!    and mCRL2's default does not terminate), linearisation starts again keying stacks
//!    by the called states alone, the arguments held in parameters (close to mCRL2's
//!    `-lregular2`).
//! 3. **One component per leaf.** A control-state parameter `s…: Pos` (omitted when a leaf
//!    has one state) plus the union of the parameters of its control states (merged by name
//!    and sort). A jump assigns the target's parameters and resets all other parameters of
//!    the component to a fixed default value (mCRL2's "don't care" values instantiated), so
//!    stale values never split states.
//! 4. **Composition, bottom-up.** `||` takes, per pair of components, the interleavings and
//!    the synchronisations (union multi-actions, conjoined conditions, both updates);
//!    `comm` rewrites multi-actions on open terms: a matching sub-multiset communicates
//!    under the condition that all parties' arguments are equal, and the remaining actions
//!    must not contain another matching group with equal data (maximal communication);
//!    `allow`/`block` filter by multi-action names, `hide` drops names, `rename` renames.
//!    Each component is simplified on its own right away (constant parameters substituted,
//!    conditions, updates and the action arguments a constant went into rewritten with the
//!    data engine; other action arguments stay as written, as in mCRL2, since a closed one
//!    can be a whole computation that exploration does anyway), so communication conditions between components
//!    such as `lf(p1) == f2` are decided before composing. A "don't care" reset does not
//!    break constancy (the parameter is meaningless in the target state).
//! 5. **Alphabet reasoning.** Every node passes down a downward-closed constraint on the
//!    multi-actions its child may usefully produce (from enclosing `allow`/`block`, inverted
//!    through `comm`, `rename` and `hide`); the composition discards every partial
//!    synchronisation that cannot grow into an allowed multi-action. Under `block` the
//!    constraint is computed from the components' alphabets (as mCRL2 turns `block` into an
//!    allow set), and a component below a `block` (with no `allow` between) keys its tails
//!    with the blocked actions as `delta` (`delta . p` is `delta`), as mCRL2 pushes the
//!    `block` into the equations: two tails that start with a blocked action are one
//!    `delta` state. Its process bodies keep their blocked alternatives until the
//!    component's summands are filtered: pruned earlier, they made a parameter constant
//!    within the component that mCRL2 keeps, and a sum variable went with it (random seed
//!    23 #138: 24 transitions against mCRL2's 29). Under `comm`, after each composition step a summand is dropped when an
//!    action that must communicate has no partner left whose arguments could be equal
//!    (in the summand itself or in the components still to come), and communication
//!    results the operators above would reject are never built.
//!    **Clustering**, as mCRL2 does by default: every sequential component gets one summand
//!    per list of action labels (under an `allow`, the empty list of `tau` summands too)
//!    before it is composed (summands in different control states
//!    merge into `c1 || c2` with values `if(c1, x1, x2)`; the rest over fresh Boolean
//!    selectors, sum variables merged by sort and fixed to a default value where a member
//!    does not have them; `Origin::clusters` records which member each selector value
//!    stands for and its own names, so traces show a step's sum variables as the model has
//!    them), so an n-party synchronisation composes one summand per component
//!    instead of the product of their alternatives (flexray: 0.3 s instead of running out of
//!    memory). For rules with 3 or more parties, composed components are clustered again.
//!    Final summands with at most 6 selectors are expanded back (`decluster`): flat summands
//!    are cheaper to explore and to instantiate. Every step keeps the transitions exactly.
//!    Under a `comm` that mCRL2's alphabet reduction keeps (under an `allow`: one of its
//!    rules' parties occur together, by name, in the components' syntactic alphabets,
//!    whatever their data and conditions), unused sum variables are dropped (mCRL2's sum
//!    elimination there), except selectors of cluster members that differed before the
//!    constants were substituted; elsewhere they stay, and each of their values is a
//!    transition of its own, as in mCRL2.
//! 6. **Simplification** (skippable): sumelm (a sum variable fixed by an equality in its
//!    condition is substituted away: this removes sums over `Nat` bound only by
//!    communication; unused ones go only when their sort is not finitely enumerable), constelm (parameters that keep their initial value in every reachable
//!    state; summands whose condition becomes `false` are removed). Data decisions use
//!    [`crate::data::simplify::best_simplifier`]: the data engine's rewriter on closed
//!    subterms plus syntactic folds. Both keep the state space isomorphic. parelm
//!    (parameters that influence no condition, action or relevant parameter) is not part of
//!    linearisation, as in mCRL2: it can merge states (the LTS stays strongly bisimilar), so
//!    it is the separate `lpsparelm` step.
//!
//! # Invariants
//! - `init.len() == params.len()`, and every summand has `next.len() == params.len()`.
//! - Free variables of a summand are among `params`, its `sum_vars` and `globals`; sum
//!   variable names never clash with parameter or global names.
//! - Actions in a multi-action are sorted (name, then arguments).

pub mod linearise;
pub mod simplify;
pub mod terminate;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::artifact::{Artifact, ArtifactKind};
use crate::data::ir::{DataExpr, DataSpec, Name, Var};
use crate::process::ir::{Action, ActionDecl, ProcExpr, ProcSpec};
use crate::source::Span;

pub use linearise::{linearise, LinError, LineariseOptions};

/// The name of the linear process in printed output (`lpspp`); linearisation keeps user
/// process names clear of it.
pub const PROC_NAME: &str = "P";

/// A linear process specification.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lps {
    /// The data specification (unchanged from the input).
    pub data: DataSpec,
    /// Action declarations (from the input, plus those introduced by `comm`/`rename`).
    pub actions: Vec<ActionDecl>,
    /// Global variables (free in `init` and summands: any value may be chosen).
    pub globals: Vec<Var>,
    /// Process parameters.
    pub params: Vec<Var>,
    /// Initial values, one per parameter.
    pub init: Vec<DataExpr>,
    /// The summands.
    pub summands: Vec<Summand>,
}

/// What a summand does when it fires.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SummandAction {
    /// A multi-action, its actions sorted; empty for `tau`.
    Multi(Vec<Action>),
    /// `delta`: no transition (kept only when the input says so explicitly).
    Delta,
}

/// One summand `sum vars . condition -> action . P(next)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summand {
    /// The sum variables.
    pub sum_vars: Vec<Var>,
    /// The condition (sort `Bool`).
    pub condition: DataExpr,
    /// The multi-action or `delta`.
    pub action: SummandAction,
    /// The next state: one expression per process parameter.
    pub next: Vec<DataExpr>,
    /// Where the summand came from, for diagnostics.
    pub origin: Origin,
}

/// Where a summand came from: the source spans of the process equations involved and a
/// short description (e.g. `P0 | P1 (comm a|b -> c)`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// Spans of the process equations (or `init`) that contributed.
    pub spans: Vec<Span>,
    /// Names of the contributing processes and operators.
    pub description: String,
    /// The sum variables the lineariser introduced (the Boolean selectors of a cluster):
    /// they choose among the summands merged here and mean nothing in the model, so traces
    /// leave them out.
    pub synthetic: Vec<Name>,
    /// The clusters merged into this summand: which member fired, and so which sum variables
    /// mean something and under which of the model's names ([`Origin::model_sums`]).
    pub clusters: Vec<Cluster>,
    /// The sum variables the lineariser renamed (apart from parameters, from other
    /// processes' variables, from each other): their name here and the name the model gives
    /// them, so traces show the model's names ([`Origin::model_name`]).
    pub sum_names: Vec<(Name, Name)>,
}

/// Summands of one component merged by the lineariser's clustering: their sum variables
/// merged by sort (a merged variable a member does not use is fixed to a default value in
/// that member's branch), chosen among by Boolean selectors.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cluster {
    /// The selector sum variables, most significant first: member `i` fires when their values
    /// spell `i` in binary (none once the summand was expanded back to one member).
    pub selectors: Vec<Name>,
    /// The merged sum variables.
    pub merged: Vec<Name>,
    /// Per member: the merged sum variables it uses, each with the model's name for it.
    pub members: Vec<Vec<(Name, Name)>>,
}

impl Origin {
    /// The model's name of this summand's sum variable `name` (`name` itself unless the
    /// lineariser renamed it).
    pub fn model_name<'a>(&'a self, name: &'a Name) -> &'a Name {
        self.sum_names
            .iter()
            .find(|(here, _)| here == name)
            .map_or(name, |(_, model)| model)
    }

    /// Records that the lineariser renamed sum variable `old` of this summand to `new`.
    pub fn renamed(&mut self, old: &Name, new: &Name) {
        record_rename(&mut self.sum_names, old, new);
    }

    /// The sum values of a transition of this summand as the model has them: the
    /// lineariser's selectors left out, and of each cluster's merged variables only those
    /// the member that fired uses, under its own names (the others are fixed to a default
    /// that means nothing in the model); the others under their names in the model
    /// ([`Origin::model_name`]).
    pub fn model_sums<'a>(&self, values: &'a [(Var, DataExpr)]) -> Vec<(Name, &'a DataExpr)> {
        let mut hidden: Vec<&Name> = Vec::new();
        let mut renamed: Vec<(&Name, &Name)> = Vec::new();
        for c in &self.clusters {
            let mut index = 0usize;
            let mut known = true;
            for sel in &c.selectors {
                match values.iter().find(|(v, _)| v.name == *sel) {
                    Some((_, e)) => {
                        index = 2 * index + usize::from(crate::data::ir_ops::is_true(e))
                    }
                    None => known = false,
                }
            }
            let Some(member) = c.members.get(index).filter(|_| known) else {
                continue;
            };
            for m in &c.merged {
                match member.iter().find(|(merged, _)| merged == m) {
                    Some((_, own)) => renamed.push((m, own)),
                    None => hidden.push(m),
                }
            }
        }
        values
            .iter()
            .filter(|(v, _)| !self.synthetic.contains(&v.name) && !hidden.contains(&&v.name))
            .map(|(v, e)| {
                let name = renamed.iter().find(|(m, _)| **m == v.name).map_or_else(
                    || self.model_name(&v.name).clone(),
                    |(_, own)| (*own).clone(),
                );
                (name, e)
            })
            .collect()
    }
}

/// Records in `names` (pairs of a name in the LPS and the model's name, as
/// [`Origin::sum_names`]) that sum variable `old` was renamed to `new`.
pub fn record_rename(names: &mut Vec<(Name, Name)>, old: &Name, new: &Name) {
    match names.iter_mut().find(|(here, _)| here == old) {
        Some(entry) => entry.0 = new.clone(),
        None => names.push((new.clone(), old.clone())),
    }
}

impl Summand {
    /// Whether the summand is a `tau` step.
    pub fn is_tau(&self) -> bool {
        matches!(&self.action, SummandAction::Multi(a) if a.is_empty())
    }

    /// Indices of the parameters this summand changes (`next[i]` is not `params[i]`).
    pub fn changed(&self, params: &[Var]) -> Vec<usize> {
        params
            .iter()
            .enumerate()
            .filter(|(i, p)| !matches!(&self.next[*i], DataExpr::Var(v) if v == *p))
            .map(|(i, _)| i)
            .collect()
    }
}

/// Facts about an LPS, as `lpsinfo` prints them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LpsInfo {
    /// Number of summands.
    pub summands: usize,
    /// Number of `tau` summands.
    pub tau_summands: usize,
    /// Number of parameters.
    pub params: usize,
    /// Number of declared action labels.
    pub action_labels: usize,
    /// Action labels used in summands, with how many summands use each.
    pub used_labels: BTreeMap<Name, usize>,
}

impl Lps {
    /// Summary facts for `lpsinfo`.
    pub fn info(&self) -> LpsInfo {
        let mut used_labels = BTreeMap::new();
        for s in &self.summands {
            if let SummandAction::Multi(acts) = &s.action {
                let mut names: Vec<&Name> = acts.iter().map(|a| &a.name).collect();
                names.dedup();
                for n in names {
                    *used_labels.entry(n.clone()).or_insert(0) += 1;
                }
            }
        }
        let mut labels: Vec<&Name> = self.actions.iter().map(|a| &a.name).collect();
        labels.sort();
        labels.dedup();
        LpsInfo {
            summands: self.summands.len(),
            tau_summands: self.summands.iter().filter(|s| s.is_tau()).count(),
            params: self.params.len(),
            action_labels: labels.len(),
            used_labels,
        }
    }

    /// The declarations of this LPS as a (process-less) specification: its data, actions
    /// and globals, the scope formulas are type-checked in (as with mCRL2's `lps2pbes`,
    /// `Terminate` is there when linearisation added it).
    pub fn declarations(&self) -> ProcSpec {
        ProcSpec {
            data: self.data.clone(),
            actions: self.actions.clone(),
            globals: self.globals.clone(),
            procs: Vec::new(),
            init: ProcExpr::Delta,
            init_span: Span::default(),
        }
    }
}

/// The LPS artifact: read and written only through this implementation.
impl Artifact for Lps {
    const KIND: ArtifactKind = ArtifactKind::Lps;

    /// Checks the structural invariants (lengths of `init` and `next`).
    fn check_invariants(&self) -> Result<(), String> {
        if self.init.len() != self.params.len() {
            return Err(format!(
                "{} initial values for {} parameters",
                self.init.len(),
                self.params.len()
            ));
        }
        for (i, s) in self.summands.iter().enumerate() {
            if s.next.len() != self.params.len() {
                return Err(format!(
                    "summand {} has {} next-state expressions for {} parameters",
                    i + 1,
                    s.next.len(),
                    self.params.len()
                ));
            }
        }
        Ok(())
    }
}
