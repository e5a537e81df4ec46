//! Instantiation of a PBES into a BES (`pbesinst`), and solving while instantiating.
//!
//! Starting from the initial instance, every reachable instance `X(v)` (closed data
//! values `v`) becomes one BES variable. Its right-hand side is the equation's, with the
//! parameters replaced by `v`, data rewritten to normal form by the data engine's rewriter,
//! quantifiers eliminated — by the one-point rule (`exists x. x == t && φ` is `φ[x := t]`,
//! dually for `forall` with `x == t => φ` or `x != t || φ`), by distribution, by guards, and
//! otherwise by enumerating the values of a finite sort — and `true`/`false` simplified on
//! the fly. Nested right-hand sides are flattened into auxiliary variables of the same rank
//! (their origin is `None`).
//!
//! Every BES variable can keep its origin (equation index and data instance), so witnesses
//! and counterexamples can be read off a solved BES without redoing the work.
//!
//! *Solving while instantiating*: a variable whose right-hand side becomes a constant is
//! decided, and decisions propagate backwards through the right-hand sides found so far
//! (an `||` with a true operand is true, an `&&` whose operands are all false is false, …).
//! With [`InstOptions::stop_when_decided`] instantiation stops as soon as the initial
//! variable is decided. Constant propagation is sound for every fixpoint, so the remaining
//! BES (when not stopped) has the same solution.
//!
//! One engine does this: [`instantiate`] (in `engine/`). [`naive`] is a deliberately simple
//! reference (enumerate everything, no early stop, no plans) that property tests hold the
//! engine against.

use miette::Diagnostic;
use thiserror::Error;

use crate::bes::distance::{forced_distances, ForcedGraph, UNREACHED};
use crate::bes::Bes;
use crate::data::ir::{DataExpr, Name, Sort};
use crate::data::{term_to_expr, TermId, TermStore};
use crate::pbes::ir::{Fixpoint, Pbes};

mod engine;
pub mod naive;

pub use engine::instantiate;

/// Options of [`instantiate`].
#[derive(Clone, Debug)]
pub struct InstOptions {
    /// Stop with [`InstError::TooManyVariables`] after this many BES variables.
    pub max_vars: usize,
    /// Refuse to enumerate a quantifier domain with more values than this.
    pub max_enumeration: usize,
    /// Stop as soon as the initial variable is decided by constant propagation.
    pub stop_when_decided: bool,
    /// Keep the data instance of every BES variable as IR ([`Instantiation::origin`]), for
    /// evidence (the IR engine always keeps them).
    pub keep_origins: bool,
    /// How the progress of instantiation (and of solving, in [`crate::pbes::solve`]) is
    /// shown on standard error.
    pub progress: crate::progress::Shown,
    /// Name the BES variables after their equations (`X_12`); off where the BES is only
    /// solved (`check`), since a name per variable costs more memory than the rest of it.
    pub names: bool,
}

impl Default for InstOptions {
    fn default() -> Self {
        InstOptions {
            max_vars: 100_000_000,
            max_enumeration: 100_000,
            stop_when_decided: false,
            keep_origins: false,
            progress: crate::progress::Shown::Off,
            names: true,
        }
    }
}

/// Why instantiation failed.
#[derive(Debug, Error, Diagnostic)]
pub enum InstError {
    /// The bound on BES variables was reached.
    #[error("instantiation stopped after {0} BES variables (bound of --max-vars)")]
    #[diagnostic(
        code(muon::pbesinst::too_many),
        help("the PBES may have infinitely many reachable instances (e.g. an unbounded counter); raise --max-vars if it is just large")
    )]
    TooManyVariables(usize),
    /// The run's budget (memory limit, timeout, Ctrl-C) stopped instantiation.
    #[error("instantiation stopped after {vars} BES variables ({} still to expand): {}", .pending, .reason.describe())]
    #[diagnostic(code(muon::pbesinst::stopped), help("{}", .reason.advice()))]
    Stopped {
        /// BES variables made so far.
        vars: usize,
        /// Variables found but not yet expanded.
        pending: usize,
        /// Why.
        reason: crate::budget::StopReason,
    },
    /// A quantifier over an infinite (or too large) sort that the one-point rule cannot
    /// remove.
    #[error(
        "cannot eliminate the quantifier over `{var}: {sort}` in equation `{equation}`: {reason}"
    )]
    #[diagnostic(
        code(muon::pbesinst::quantifier),
        help("the quantified variable must be fixed by an equality (`x == e`) or range over a finite sort")
    )]
    Quantifier {
        /// The equation.
        equation: Name,
        /// The variable.
        var: Name,
        /// Its sort, printed.
        sort: String,
        /// Why.
        reason: String,
    },
    /// A Boolean data expression did not rewrite to `true` or `false`.
    #[error("in equation `{equation}`: the condition `{expr}` does not rewrite to true or false")]
    #[diagnostic(
        code(muon::pbesinst::undecided),
        help("it probably uses a mapping without equations for these arguments, or needs the data rewriter")
    )]
    Undecided {
        /// The equation.
        equation: Name,
        /// The expression after rewriting, printed.
        expr: String,
    },
    /// A propositional variable argument did not rewrite to a closed value.
    #[error("in equation `{equation}`: argument `{expr}` of `{target}` is not a closed value after rewriting")]
    #[diagnostic(code(muon::pbesinst::open_argument))]
    OpenArgument {
        /// The equation.
        equation: Name,
        /// The referenced variable.
        target: Name,
        /// The argument.
        expr: String,
    },
    /// A reference to an undeclared propositional variable or with the wrong arity.
    #[error(
        "`{0}` is not a propositional variable of the PBES (or has the wrong number of arguments)"
    )]
    #[diagnostic(code(muon::pbesinst::unknown_variable))]
    UnknownVariable(Name),
    /// A negated propositional variable (the PBES is not in positive form).
    #[error("in equation `{0}`: a propositional variable occurs under a negation or on the left of `=>`")]
    #[diagnostic(
        code(muon::pbesinst::not_positive),
        help("pbesinst needs every propositional variable to occur positively")
    )]
    NotPositive(Name),
    /// A global variable without a default value.
    #[error("global variable `{0}` has a sort without a known value")]
    #[diagnostic(code(muon::pbesinst::global))]
    Global(Name),
    /// The data engine rejected the data specification or an expression.
    #[error("data engine: {0}")]
    #[diagnostic(code(muon::pbesinst::data))]
    Data(String),
    /// Building the BES failed (an internal invariant).
    #[error("internal error building the BES: {0}")]
    #[diagnostic(code(muon::pbesinst::internal))]
    Bes(String),
}

/// Where a BES variable came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarOrigin {
    /// Index of the PBES equation.
    pub equation: u32,
    /// The data instance (closed values of the equation's parameters).
    pub args: Vec<DataExpr>,
}

/// The instance key of each BES variable (`[equation, argument term ids…]`, or a step's
/// compact key, see [`Origins`]), flat: a key met through the instance table is shared
/// with it, and the others (the steps evaluated in place, millions of them in evidence of a
/// big model) are stored one after another in one arena instead of one allocation each.
#[derive(Default)]
pub(crate) struct Keys {
    /// Per BES variable: [`NO_KEY`] (auxiliary), an index into `shared`, or (with
    /// [`FLAT_KEY`]) the offset in `flat` of the key's length, followed by the key.
    slot: Vec<u64>,
    shared: Vec<std::rc::Rc<[u32]>>,
    flat: Vec<u32>,
}

/// [`Keys::slot`] of an auxiliary variable.
const NO_KEY: u64 = u64::MAX;
/// Marks a [`Keys::slot`] that is an offset in [`Keys::flat`].
const FLAT_KEY: u64 = 1 << 63;

impl Keys {
    /// Appends a variable without a key.
    pub(crate) fn push_none(&mut self) {
        self.slot.push(NO_KEY);
    }

    /// Appends a variable whose key the instance table shares.
    pub(crate) fn push_shared(&mut self, key: std::rc::Rc<[u32]>) {
        self.slot.push(self.shared.len() as u64);
        self.shared.push(key);
    }

    /// Appends a variable with its own key.
    pub(crate) fn push_flat(&mut self, key: impl IntoIterator<Item = u32>) {
        let at = self.flat.len();
        self.flat.push(0);
        self.flat.extend(key);
        self.flat[at] = (self.flat.len() - at - 1) as u32;
        self.slot.push(at as u64 | FLAT_KEY);
    }

    /// The number of variables.
    pub(crate) fn len(&self) -> usize {
        self.slot.len()
    }

    /// The key of variable `v` (`None` for an auxiliary variable or one out of range).
    pub(crate) fn get(&self, v: usize) -> Option<&[u32]> {
        match *self.slot.get(v)? {
            NO_KEY => None,
            s if s & FLAT_KEY != 0 => {
                let at = (s & !FLAT_KEY) as usize;
                Some(&self.flat[at + 1..at + 1 + self.flat[at] as usize])
            }
            s => Some(&self.shared[s as usize]),
        }
    }

    /// The shared key of variable `v`, when it has one.
    pub(crate) fn shared(&self, v: usize) -> Option<std::rc::Rc<[u32]>> {
        match *self.slot.get(v)? {
            s if s & FLAT_KEY != 0 => None,
            s => self.shared.get(s as usize).cloned(),
        }
    }
}

/// The evidence steps recorded on the edges of the BES (`lps2pbes -c`/`lts2pbes -c`): per
/// variable, its operands reached through a step and the step (an index of
/// [`Origins::step_instance`]), sorted by operand. A step is a transition, so it labels the
/// edge from the instance whose right-hand side takes it to the variable it leads to; the
/// BES keeps the vertices of the verdict's.
#[derive(Debug, Default)]
pub struct EdgeSteps {
    pub(crate) start: Vec<u64>,
    pub(crate) edges: Vec<(u32, u32)>,
}

impl EdgeSteps {
    /// The steps on the edges from `x` to `y` (none when the edge is a plain one).
    pub fn steps(&self, x: u32, y: u32) -> impl Iterator<Item = u32> + '_ {
        let x = x as usize;
        let list: &[(u32, u32)] = match (self.start.get(x), self.start.get(x + 1)) {
            (Some(&a), Some(&b)) => &self.edges[a as usize..b as usize],
            _ => &[],
        };
        let from = list.partition_point(|e| e.0 < y);
        list[from..]
            .iter()
            .take_while(move |e| e.0 == y)
            .map(|e| e.1)
    }

    /// The first step on an edge from `x` to `y`, if any.
    pub fn first(&self, x: u32, y: u32) -> Option<u32> {
        self.steps(x, y).next()
    }

    /// How many edges record a step.
    pub fn len(&self) -> usize {
        self.edges.len()
    }

    /// Whether no edge records a step.
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }
}

/// Marks the key of a step instance evaluated in place (see [`Origins`]).
pub(crate) const STEP_BIT: u32 = 1 << 31;

/// Marks a step key's parent that is a step itself (a step taken inside a step's
/// right-hand side, as in `[a][b]false`), not a BES variable.
pub(crate) const PARENT_STEP: u32 = 1 << 31;

/// The origins of BES variables, kept as the engine's term ids and converted to the IR
/// only for the variables asked about (evidence reads a few of many).
///
/// An instance of a step equation of `lps2pbes -c`/`lts2pbes -c` (one per transition the
/// proof may take) is no BES variable: it is evaluated in place, in the right-hand side of
/// the instance that refers to it (its *parent*), and recorded on the edge to what it leads
/// to ([`EdgeSteps`]). Its key is compact: `[equation | STEP_BIT, parent, values of the
/// parameters the parent does not have…]`; the other values are the parent's (matched by
/// parameter name), so a step does not store the whole source state again. The parent is a
/// BES variable, or a step (marked by the top bit) for a step inside a step.
#[derive(Default)]
pub struct Origins {
    store: Option<std::sync::Arc<TermStore>>,
    /// Per BES variable: `[equation, argument term ids…]`, none for auxiliary ones.
    keys: Keys,
    /// Per step: its compact key (or `[equation, argument term ids…]` when a value the
    /// parent has differs).
    steps: Keys,
    /// Per (step equation, parent's equation): per parameter of the step equation, the
    /// position of the parent's parameter of that name, `u32::MAX` for none.
    inherit: rustc_hash::FxHashMap<(u32, u32), std::rc::Rc<[u32]>>,
}

impl Origins {
    /// Origins given by instance keys in `store`.
    pub(crate) fn new(
        store: std::sync::Arc<TermStore>,
        keys: Keys,
        steps: Keys,
        inherit: rustc_hash::FxHashMap<(u32, u32), std::rc::Rc<[u32]>>,
    ) -> Self {
        Origins {
            store: Some(store),
            keys,
            steps,
            inherit,
        }
    }

    /// How many BES variables have a recorded origin entry (0 when origins were not kept).
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether no origins were kept.
    pub fn is_empty(&self) -> bool {
        self.keys.len() == 0
    }

    /// The equation of variable `v`, when it is an instance (not auxiliary).
    pub fn equation(&self, v: usize) -> Option<u32> {
        self.keys.get(v).map(|k| k[0] & !STEP_BIT)
    }

    /// The number of recorded steps.
    pub fn num_steps(&self) -> usize {
        self.steps.len()
    }

    /// The (step) equation of step `s`.
    pub fn step_equation(&self, s: u32) -> Option<u32> {
        self.steps.get(s as usize).map(|k| k[0] & !STEP_BIT)
    }

    /// The data instance of step `s` (its step equation's parameters: context, sum values,
    /// source state) as term ids, written to `out`, and its equation.
    pub fn step_instance(&self, s: u32, out: &mut Vec<u32>) -> Option<u32> {
        let key = self.steps.get(s as usize)?;
        self.resolve(key, out)
    }

    /// The term store the instances' values live in (`None` when origins were not kept).
    pub fn store(&self) -> Option<&TermStore> {
        self.store.as_deref()
    }

    /// The data instance of variable `v` as term ids in [`Origins::store`], written to
    /// `out` (cleared first), and its equation; `None` for an auxiliary variable. Evidence
    /// reads these directly, so a state is compared and hashed as ids, never as expressions.
    pub fn instance(&self, v: usize, out: &mut Vec<u32>) -> Option<u32> {
        let key = self.keys.get(v)?;
        self.resolve(key, out)
    }

    /// The instance of a key (see [`Origins`]) into `out`, and its equation.
    fn resolve(&self, key: &[u32], out: &mut Vec<u32>) -> Option<u32> {
        out.clear();
        if key[0] & STEP_BIT == 0 {
            out.extend_from_slice(&key[1..]);
            return Some(key[0]);
        }
        let eq = key[0] & !STEP_BIT;
        // An ordinary parent's key is read in place (no copy per step: B.1 reads 8.6
        // million); a step nested in a step puts its parent's instance together first.
        let mut nested = Vec::new();
        let (peq, parent): (u32, &[u32]) = if key[1] & PARENT_STEP != 0 {
            let s = key[1] & !PARENT_STEP;
            (self.step_instance(s, &mut nested)?, &nested)
        } else {
            match self.keys.get(key[1] as usize)? {
                pk if pk[0] & STEP_BIT == 0 => (pk[0], &pk[1..]),
                _ => return None,
            }
        };
        let map = self.inherit.get(&(eq, peq))?;
        let mut own = key[2..].iter();
        for &j in map.iter() {
            out.push(if j == u32::MAX {
                *own.next()?
            } else {
                *parent.get(j as usize)?
            });
        }
        Some(eq)
    }

    /// The origin of variable `v` (its equation and data instance), when it is an instance.
    pub fn get(&self, v: usize) -> Option<VarOrigin> {
        let store = self.store.as_deref()?;
        let mut args = Vec::new();
        let equation = self.instance(v, &mut args)?;
        Some(VarOrigin {
            equation,
            args: args
                .iter()
                .map(|t| term_to_expr(store, TermId(*t)))
                .collect(),
        })
    }
}

impl std::fmt::Debug for Origins {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Origins({} variables)", self.keys.len())
    }
}

/// Statistics of an instantiation.
#[derive(Clone, Debug, Default)]
pub struct InstStats {
    /// BES variables for PBES instances.
    pub instances: usize,
    /// Auxiliary BES variables (flattened nested right-hand sides).
    pub auxiliary: usize,
    /// Variables decided by constant propagation during instantiation.
    pub decided: usize,
    /// Time spent, in seconds.
    pub seconds: f64,
}

/// A finite proof of a value decided by constant propagation. From `init`, each decided
/// variable's value follows from its successors ([`Justification::succ`]): from any one of
/// them where `decisive` (a conjunction decided false, a disjunction decided true), from
/// all of them otherwise. The successors of a decisive variable may include operands
/// decided after it (and so lead back to it); [`Justification::shortest`] picks
/// well-founded choices, so that every path of its proof ends in a constant.
///
/// The successor lists are one flat vector with per-variable starts: a justification of
/// evidence has millions of variables, and a vector per variable cost more than the lists
/// themselves.
#[derive(Debug, Clone)]
pub struct Justification {
    /// The initial BES variable.
    pub init: u32,
    /// Per BES variable: whether one of its successors suffices.
    pub decisive: Vec<bool>,
    /// Per BES variable `x`: its successors are `succ[start[x]..start[x + 1]]`.
    start: Vec<u64>,
    succ: Vec<u32>,
    /// Per BES variable: when it was decided (`u32::MAX` if never).
    pub order: Vec<u32>,
}

impl Justification {
    pub(crate) fn new(
        init: u32,
        (decisive, start, succ, order): (Vec<bool>, Vec<u64>, Vec<u32>, Vec<u32>),
    ) -> Self {
        debug_assert_eq!(start.len(), decisive.len() + 1);
        Justification {
            init,
            decisive,
            start,
            succ,
            order,
        }
    }

    /// The number of BES variables.
    pub fn len(&self) -> usize {
        self.decisive.len()
    }

    /// Whether there are no BES variables.
    pub fn is_empty(&self) -> bool {
        self.decisive.is_empty()
    }

    /// The variables the value of `x` may follow from (decided, with its value; none for
    /// a constant or an undecided variable).
    pub fn succ(&self, x: u32) -> &[u32] {
        let x = x as usize;
        &self.succ[self.start[x] as usize..self.start[x + 1] as usize]
    }

    /// A proof whose longest-needed path is shortest: per variable, at a decisive one the
    /// successor with the fewest `cost`s to a constant in the worst case ([`UNREACHED`]
    /// where none leads to one); [`Justification::kept`] gives the successors the proof
    /// keeps from these choices (at the other variables all). `cost(x, y)` is what the
    /// edge from `x` to `y` costs (1 for an evidence step, else 0). Every decided operand with the
    /// variable's value counts, whenever it was decided: [`forced_distances`] keeps the
    /// proof well-founded by itself, and an operand decided after the variable may give a
    /// shorter proof than the first one found.
    pub fn shortest(&self, cost: &dyn Fn(u32, u32) -> u32) -> Vec<u32> {
        let n = self.len() as u32;
        let chooses: Vec<bool> = self.decisive.clone();
        let decided = |x: u32| self.order[x as usize] != u32::MAX;
        let g = ForcedGraph::new(chooses, &mut |x, out| {
            if decided(x) {
                out.extend(
                    self.succ(x)
                        .iter()
                        .copied()
                        .filter(|&y| decided(y))
                        .map(|y| (y, cost(x, y))),
                );
            }
        });
        let ends: Vec<u32> = (0..n)
            .filter(|&x| decided(x) && self.succ(x).is_empty())
            .collect();
        forced_distances(&g, &ends).1
    }

    /// The successors of `x` the proof of [`Justification::shortest`]'s `choice` keeps,
    /// appended to `out`: the chosen one at a decisive variable, all at the others, none at
    /// an undecided one.
    pub fn kept(&self, choice: &[u32], x: u32, out: &mut Vec<u32>) {
        if self.order[x as usize] == u32::MAX {
            return;
        }
        if self.decisive[x as usize] {
            match choice[x as usize] {
                UNREACHED => {}
                y => out.push(y),
            }
        } else {
            out.extend_from_slice(self.succ(x));
        }
    }
}

/// The result of [`instantiate`].
#[derive(Debug)]
pub struct Instantiation {
    /// The BES (`None` when instantiation stopped early because the initial variable was
    /// decided: then [`Instantiation::decided`] holds the answer).
    pub bes: Option<Bes>,
    /// The value of the initial variable if constant propagation decided it.
    pub decided: Option<bool>,
    /// Per BES variable: its origin (`None` for auxiliary variables); empty unless kept
    /// ([`InstOptions::keep_origins`]).
    pub origin: Origins,
    /// Per BES variable: its value, when decided by constant propagation.
    pub value: Vec<Option<bool>>,
    /// The evidence steps on the BES's edges (empty unless origins are kept).
    pub steps: EdgeSteps,
    /// When origins are kept and constant propagation decided the initial variable: the
    /// finite proof of its value ([`Justification`]), so evidence needs no full BES.
    pub justification: Option<Justification>,
    /// Statistics.
    pub stats: InstStats,
}

/// mCRL2 ranks of the equations: 0 for a leading `nu` block (else 1), +1 at each change.
pub fn equation_ranks(pbes: &Pbes) -> Vec<u32> {
    let mut out = Vec::with_capacity(pbes.equations.len());
    let mut rank = 0u32;
    let mut prev: Option<Fixpoint> = None;
    for e in &pbes.equations {
        match prev {
            None => rank = if e.fixpoint == Fixpoint::Nu { 0 } else { 1 },
            Some(p) if p != e.fixpoint => rank += 1,
            _ => {}
        }
        prev = Some(e.fixpoint);
        out.push(rank);
    }
    out
}

/// A short printed form of a data expression for error messages.
pub fn show(e: &DataExpr) -> String {
    match e {
        DataExpr::Var(v) => v.name.to_string(),
        DataExpr::Func(f) => f.name.to_string(),
        DataExpr::Number { value, .. } => value.to_string(),
        DataExpr::App { head, args } => {
            let h = show(head);
            let a: Vec<String> = args.iter().map(show).collect();
            let infix = matches!(
                &*h,
                "==" | "!="
                    | "<"
                    | "<="
                    | ">"
                    | ">="
                    | "+"
                    | "-"
                    | "*"
                    | "&&"
                    | "||"
                    | "=>"
                    | "div"
                    | "mod"
                    | "in"
                    | "|>"
                    | "<|"
                    | "++"
            );
            if infix && a.len() == 2 {
                format!("({} {h} {})", a[0], a[1])
            } else {
                format!("{h}({})", a.join(", "))
            }
        }
        DataExpr::ListEnum { elems, .. } => {
            format!(
                "[{}]",
                elems.iter().map(show).collect::<Vec<_>>().join(", ")
            )
        }
        DataExpr::SetEnum { elems, .. } => {
            format!(
                "{{{}}}",
                elems.iter().map(show).collect::<Vec<_>>().join(", ")
            )
        }
        other => format!("{other:?}"),
    }
}

/// A printed sort.
pub fn show_sort(s: &Sort) -> String {
    match s {
        Sort::Bool => "Bool".into(),
        Sort::Pos => "Pos".into(),
        Sort::Nat => "Nat".into(),
        Sort::Int => "Int".into(),
        Sort::Real => "Real".into(),
        Sort::List(x) => format!("List({})", show_sort(x)),
        Sort::Set(x) => format!("Set({})", show_sort(x)),
        Sort::FSet(x) => format!("FSet({})", show_sort(x)),
        Sort::Bag(x) => format!("Bag({})", show_sort(x)),
        Sort::FBag(x) => format!("FBag({})", show_sort(x)),
        Sort::Arrow(d, c) => format!(
            "{} -> {}",
            d.iter().map(show_sort).collect::<Vec<_>>().join(" # "),
            show_sort(c)
        ),
        Sort::Named(n) => n.to_string(),
    }
}
