//! Explicit labelled transition systems: state-space generation (`lps2lts`), the `.aut`
//! format, the binary LTS artifact, and DOT output.
//!
//! # Public API
//!
//! - [`TransitionSystem`]: the trait a state-space generator explores. Whatever implements it
//!   (the LPS via the data engine, or a hand-written system in a test) encodes each state as a
//!   fixed-width row of `u32` words ([`TransitionSystem::state_width`]; for an LPS one
//!   `TermId` per process parameter) and reports successors through a callback; the
//!   explorer stores rows tree-compressed (or flat), see *Memory layout*. Mutable
//!   per-thread scratch (rewriter caches, enumerator stacks) lives in a
//!   [`TransitionSystem::Worker`], one per exploring thread, so the system itself only
//!   needs `&self` (`Sync`).
//! - [`Explorer`]: explores a [`TransitionSystem`] with a [`Strategy`] (`bfs`, `dfs`,
//!   `highway`), an optional state bound, deadlock and action detection, parent pointers for
//!   shortest traces, and rayon-parallel level expansion; transitions go to a
//!   [`TransitionSink`] as they are found.
//! - [`generate()`]: the whole `lps2lts` back end over any system: picks the output format
//!   from the file extension, streams transitions, writes traces and statistics, prints
//!   progress. `muon lps2lts` is this function applied to the LPS.
//! - [`lps::LpsSystem`]: an LPS as a [`TransitionSystem`] (states = parameter values as
//!   data-engine `TermId`s; labels = action names + argument `TermId`s), over the data
//!   engine's `Rewriter` (one clone per thread) and `Enumerator` for sum variables.
//! - [`Lts`]: an explicit LTS (states `0..num_states`, interned [`Label`]s, a flat transition
//!   array), stored as the binary artifact ([`Artifact::write_artifact`], [`Artifact::read_artifact`]),
//!   read and written as `.aut` ([`aut`]), and written as DOT ([`dot`]).
//! - [`Label`] / [`ActionPart`]: a multi-action both as mCRL2 prints it (`a(1, true)|b`,
//!   `tau` for the empty multi-action) and as structured parts (action name + printed data
//!   arguments) so that `lts2pbes` can match action formulas with data against labels.
//!
//! # State numbering invariant
//!
//! States are numbered densely, `StateId(0)` is the initial state, and every other state gets
//! the next number when it is first *discovered* (not when it is expanded). With `bfs` the
//! states are expanded in number order, so the state table itself is the BFS queue and the
//! numbering is exactly that of a sequential FIFO breadth-first search that expands each
//! state's successors in the order the system reports them — as mCRL2's `lps2lts` numbers
//! them. Transitions are reported grouped by source state in expansion order.
//!
//! Parallel exploration keeps this numbering bit for bit. It is level-synchronous, in batches
//! of states of the current BFS level, each in two phases (one thread takes the same path,
//! in a pool of one thread, for the batched look-ups; the loop that expands one state at a
//! time and looks each successor up as it comes is kept only as the tests' reference,
//! [`ExploreOptions::reference_loop`], and for `dfs`):
//!
//! 1. *Expansion* (rayon, one `Worker` per thread): each thread computes its states'
//!    successors and looks them up in the state store, which it may extend concurrently
//!    but never renumber: with the tree store a thread interns the missing internal nodes
//!    of a new successor itself (node numbers are internal) and the new successor's root
//!    pair in a per-batch table of new states (`lts/fresh.rs`) whose slot is the state's
//!    *provisional* number (equal rows, equal numbers; lock-free compare-and-swap, no
//!    shared counter). Each such look-up also notes its *position* (chunk, successor) as an
//!    atomic minimum beside the slot. The look-ups of a few states' successors run
//!    together (`lts/batch.rs`), one tree level at a time with the table slots prefetched,
//!    so that their cache misses overlap.
//! 2. *Numbering* (`lts/number.rs`, rayon): a new state gets its number from the first
//!    transition to it in the order of a sequential search (states in order, successors in
//!    the order the system reports them), which is the look-up whose position is the noted
//!    minimum. Each chunk counts the states it numbers, a prefix sum over the chunks gives
//!    each its range of numbers, and the chunks write and index their new roots (and parent
//!    pointers) at once. Left on one thread: the prefix sum, the per-state counts and, when
//!    the sink keeps transitions (an output file), handing them on in order. Numbers depend
//!    only on the order of states and successors, never on thread timing: any `--threads`
//!    gives the same states, transitions and `.aut` file as one thread.
//!
//! A batch that numbering in parallel cannot number as the sequential search would (the
//! state bound falls in it, a label seen for the first time, a successor whose tree nodes
//! did not fit in the node index, an error or a stop, `highway` sampling, `--trace=NUM`, or
//! the flat store) takes the *ordered insertion pass* instead: one thread walks the batch in
//! order, numbers provisional states as it meets them and interns labels; the threads then
//! index the new roots.
//!
//! What determinism costs is the atomic minimum per look-up of a new state and a second
//! walk over the batch's successors, in parallel; see ARCHITECTURE.md (state spaces) for
//! the figures. A numbering in order of discovery by the threads would save no more than
//! that, so there is no such mode. Rewriting, enumeration, the summand memo and the tree
//! lookups, which are the cost of generating an LPS state space, are all in phase 1.
//!
//! `highway` search (Engels, Groote, van Weerdenburg, Willemse) explores, per level, a random
//! subset of at most `todo_max` of the newly discovered states (reservoir sampling with a
//! fixed seed, so runs are reproducible); the others are numbered but not expanded.
//! `dfs` numbers states in discovery order with an explicit stack and runs sequentially.
//!
//! # Transitions and labels
//!
//! Every transition the system reports is kept, duplicates included (two summands that
//! produce the same `(from, label, to)` give two transitions), as mCRL2's `lps2lts` writes
//! them. Label ids are dense in order of first use; `tau` gets an id only when it occurs, so
//! the label count is that of the labels used (what `ltsinfo` reports for mCRL2's `.aut`
//! files). Labels are identified by their printed text.
//!
//! # Trace files
//!
//! `-t[N]` writes up to N traces as muon's readable trace files ([`trace`]: the initial
//! state by parameter name, then per step the multi-action and the parameters it changes;
//! `tracepp` reads them) to `<prefix>_dlk_<n>.trc` (n-th deadlock) and
//! `<prefix>_act_<n>_<action>.trc` (n-th detected action, ending with that action), where
//! `<prefix>` is the input path, as mCRL2 names them. With `bfs` they are shortest traces.
//!
//! # Memory layout
//!
//! States live in a [`table::StateStore`], chosen with [`ExploreOptions::store`]
//! (`--state-store`); both number states identically, so the choice changes memory and
//! speed, never an output.
//!
//! - `tree` (the default; [`tree::TreeTable`], LTSmin's tree compression): a state row of
//!   `k` words is the leaf sequence of a fixed binary tree whose internal nodes are
//!   `(left, right)` pairs of `u32`s interned in a table of pairs (a paged arena of 8-byte
//!   pairs plus an open-addressing index of pair numbers, at most 3/4 full). The root pairs
//!   have their own table, whose dense pair numbers are the state numbers. A state whose
//!   sub-vectors already occur costs one root pair, ≈ 8 + 4/load ≈ 13–19 bytes; new
//!   sub-vectors add node pairs. A state being expanded is decoded once into its tree
//!   array, and its successors' lookups reuse the nodes whose children did not change, so
//!   a successor that changes few parameters costs a few pair lookups, not `k - 1`.
//! - `table` ([`table::StateTable`]): fixed-width `u32` rows in one arena, allocated in
//!   pages of [`table::PAGE_ROWS`] rows so growth never copies (or doubles) the arena; state
//!   `i` is row `i`. The hash index is an open-addressing (linear probing) array of `u32`
//!   state numbers, kept at most 3/4 full; it stores no keys or hashes (the row in the arena
//!   is the key), so it costs 4/load ≈ 5.3–10.7 bytes per state: ≈ 40 bytes per state for
//!   8 parameters, `4k + 8` for `k`.
//! - In the parallel phase a new successor is buffered as its provisional number (tree
//!   store), or as a store *key* (its row for the flat table; the tree array when the node
//!   index had no room for a node, which the insertion pass then interns): 4 or `2k` bytes
//!   per buffered successor for one batch. The per-batch table of new states (20 bytes a
//!   slot, at most half full when sized) is cleared after each batch; the pair tables'
//!   atomics cost no memory over plain words, and a node interned twice in a race leaves
//!   one unused 8-byte hole.
//! - With traces (`-t`) or deadlock/action traces, one `u32` parent pointer per state; a
//!   trace is rebuilt by re-expanding the states on the parent path (its length, not the
//!   state space) to find the labels, so no label is stored per state.
//! - Transitions are not kept in memory unless the output format needs them all at once
//!   (`.lts`, `.dot`): `.aut` bodies are streamed to an anonymous temporary file and copied
//!   behind the header (the header needs the final counts); without an output file only the
//!   counts are kept. A kept transition costs 12 bytes (`from`, `label`, `to`).
//! - BFS needs no separate queue (the table is the queue); `dfs` keeps a stack of state
//!   numbers and `highway` a vector of the next level's sampled state numbers.

pub mod aut;
mod batch;
pub mod dot;
mod expand;
pub mod explore;
mod fresh;
pub mod fsm;
pub mod generate;
mod guard;
pub mod label;
pub mod lps;
mod memo;
mod number;
mod prefetch;
pub mod svg;
pub mod table;
pub mod trace;
pub mod tree;
pub mod typed;

use std::path::Path;

use miette::Diagnostic;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::artifact::{self, Artifact, ArtifactError, ArtifactKind};

pub use batch::BatchInsert;
pub use explore::{
    ExploreError, ExploreOptions, ExploreSummary, Explorer, PhaseSeconds, Progress, Strategy,
    TransitionSink, TransitionSystem,
};
pub use generate::{
    explore_lts, generate, GenerateError, GenerateOptions, GenerateReport, OutputFormat,
};
pub use label::{ActionPart, Label, LabelParseError};

/// A state of an LTS: states are numbered densely from 0 in discovery order; 0 is initial.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct StateId(pub u32);

impl StateId {
    /// The state number as an index into per-state arrays.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl std::fmt::Display for StateId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An interned transition label (an index into [`Lts::labels`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct LabelId(pub u32);

impl LabelId {
    /// The label number as an index into the label table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// One transition `from --label--> to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Transition {
    /// Source state.
    pub from: StateId,
    /// Label.
    pub label: LabelId,
    /// Target state.
    pub to: StateId,
}

/// An explicit labelled transition system.
///
/// Invariants (checked by its [`Artifact::check_invariants`], which every reader calls): `initial` and every
/// transition endpoint are `< num_states`, every label id is `< labels.len()`, and label texts
/// are pairwise distinct.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lts {
    /// The initial state.
    pub initial: StateId,
    /// The number of states; the states are `0..num_states`.
    pub num_states: u32,
    /// The label table, indexed by [`LabelId`].
    pub labels: Vec<Label>,
    /// The transitions, in the order they were generated or read.
    pub transitions: Vec<Transition>,
}

/// What is wrong with an LTS or its file.
#[derive(Debug, Error, Diagnostic)]
pub enum LtsError {
    /// Reading or writing a file failed.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Artifact(#[from] ArtifactError),
    /// A malformed `.aut` file.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Aut(#[from] aut::AutError),
    /// The input file's extension names no LTS format muon reads.
    #[error("{path}: cannot tell the LTS format from the file name")]
    #[diagnostic(
        code(muon::lts::format),
        help("use a file ending in .aut (Aldebaran text) or .lts (muon binary LTS)")
    )]
    UnknownFormat {
        /// The file.
        path: String,
    },
}

impl Lts {
    /// The text of a label as mCRL2 prints it.
    pub fn label_text(&self, id: LabelId) -> &str {
        self.labels[id.index()].text()
    }

    /// The states without outgoing transitions, in increasing order.
    pub fn deadlock_states(&self) -> Vec<StateId> {
        let mut has_out = vec![false; self.num_states as usize];
        for t in &self.transitions {
            has_out[t.from.index()] = true;
        }
        (0..self.num_states)
            .filter(|&s| !has_out[s as usize])
            .map(StateId)
            .collect()
    }

    /// How many transitions carry each label, indexed by [`LabelId`].
    pub fn label_counts(&self) -> Vec<u64> {
        let mut counts = vec![0u64; self.labels.len()];
        for t in &self.transitions {
            counts[t.label.index()] += 1;
        }
        counts
    }

    /// Reads an LTS in the format given by the file extension (`.aut` or `.lts`); a file
    /// with another extension (or standard input) is read as an artifact if it starts with
    /// the artifact header and as `.aut` otherwise.
    pub fn read_file(path: Option<&Path>) -> Result<Lts, LtsError> {
        let name = artifact::display_path(path, "<stdin>");
        let ext = path
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("aut") => {
                let text = artifact::read_text(path)?;
                Ok(aut::parse_aut(&text, &name)?)
            }
            Some("lts") => Ok(Lts::read_artifact(path)?),
            _ => {
                let bytes = artifact::read_bytes(path)?;
                if artifact::is_artifact(&bytes) {
                    Ok(Lts::decode_artifact(&bytes, &name)?)
                } else if let Ok(text) = std::str::from_utf8(&bytes) {
                    if text.trim_start().starts_with("des") {
                        Ok(aut::parse_aut(text, &name)?)
                    } else {
                        Err(LtsError::UnknownFormat { path: name })
                    }
                } else {
                    Err(LtsError::UnknownFormat { path: name })
                }
            }
        }
    }
}

/// The LTS artifact: read and written only through this implementation.
impl Artifact for Lts {
    const KIND: ArtifactKind = ArtifactKind::Lts;

    /// Checks the invariants listed on [`Lts`].
    fn check_invariants(&self) -> Result<(), String> {
        let bad = |detail: String| detail;
        if self.num_states == 0 {
            return Err(bad(
                "it has no states (at least the initial state is needed)".into(),
            ));
        }
        if self.initial.0 >= self.num_states {
            return Err(bad(format!(
                "initial state {} is not below the number of states {}",
                self.initial, self.num_states
            )));
        }
        for (i, t) in self.transitions.iter().enumerate() {
            if t.from.0 >= self.num_states || t.to.0 >= self.num_states {
                return Err(bad(format!(
                    "transition {i} ({} -> {}) leaves the {} states",
                    t.from, t.to, self.num_states
                )));
            }
            if t.label.index() >= self.labels.len() {
                return Err(bad(format!(
                    "transition {i} has label {} but there are {} labels",
                    t.label.0,
                    self.labels.len()
                )));
            }
        }
        let mut seen = rustc_hash::FxHashSet::default();
        for l in &self.labels {
            if !seen.insert(l.text()) {
                return Err(bad(format!("label `{}` occurs twice", l.text())));
            }
        }
        Ok(())
    }
}
