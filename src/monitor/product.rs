//! The product of an LPS with the formula's automaton, as a [`TransitionSystem`] the
//! ordinary explorer explores: a state row is the LPS's row plus the automaton's class
//! (no extra word when the automaton has one live class, as for `[true*] φ`). Where the
//! class accepts a conjunct, its local `φ` is evaluated on the state's outgoing labels;
//! a state that violates one gets a self-loop labelled [`VIOLATION`], which the explorer's
//! action detection reports (the breadth-first search makes its parent path shortest).

use rustc_hash::FxHashMap;
use thiserror::Error;

use super::automaton::{Class, Dfa};
use super::fragment::Conjunct;
use crate::data::Rewriter;
use crate::distrib::Portable;
use crate::evidence::explicit::{label_view, local_holds, local_matches, LabelAction};
use crate::lts::lps::{KeyAction, LpsError, LpsSystem, LpsWorker};
use crate::lts::{ActionPart, Label, TransitionSystem};
use crate::modal::ir::StateFormula;

/// The action name of the violation self-loop (`@` keeps it apart from every user action).
pub const VIOLATION: &str = "@violation";

/// The label key of the violation self-loop: no action of the LPS has this name number.
const VIOLATION_KEY: [u32; 1] = [u32::MAX];

/// Bound on the entries of a worker's memo of `φ` by label set, before it is cleared.
const MEMO_ENTRIES: usize = 1 << 20;

/// How one conjunct's local `φ` is evaluated in a state.
#[derive(Clone, Debug)]
pub enum Local {
    /// `φ` has no modality: its value, decided once.
    Const(bool),
    /// Every modality of `φ` is over `true` and no quantifier encloses one: its value with
    /// and without outgoing transitions (as `<true> true`, deadlock freedom).
    Successors {
        /// The value in a state with a transition.
        with: bool,
        /// The value in a deadlock state.
        without: bool,
    },
    /// `φ` (positive normal form) on the labels, by the re-check's evaluator, memoised per
    /// set of labels.
    Labels(StateFormula),
}

/// A formula of the fragment compiled for monitoring.
#[derive(Clone, Debug)]
pub struct Monitor {
    /// The conjuncts `[R] φ`.
    pub conjuncts: Vec<Conjunct>,
    /// The minimal DFA of their regular formulas.
    pub dfa: Dfa,
    /// Per conjunct, how its `φ` is evaluated.
    pub locals: Vec<Local>,
}

/// What can go wrong expanding a product state.
#[derive(Debug, Error)]
pub enum ProductError {
    /// The LPS's own error.
    #[error(transparent)]
    Lps(#[from] LpsError),
    /// Matching a label or evaluating `φ` failed.
    #[error("cannot evaluate the formula on the labels: {0}")]
    Local(String),
}

/// The product system (see the module docs).
pub struct Product<'a, 's> {
    inner: &'a LpsSystem<'s>,
    m: &'a Monitor,
    /// The formula's data engine (the LPS's data and the formula's own), over the
    /// exploring store; cloned per worker.
    rw: Rewriter<'s>,
    width: usize,
    /// Whether the row carries the class word.
    word: bool,
    /// The letter of every label when no action formula of the automaton looks at labels.
    constant_letter: Option<u32>,
    /// The conjuncts whose `φ` needs the state's labels.
    label_conjuncts: u64,
}

/// A worker of the product: the LPS's worker, the formula's data engine, and per distinct
/// label its letter and typed actions.
pub struct ProductWorker<'s> {
    inner: LpsWorker<'s>,
    rw: Option<Rewriter<'s>>,
    ids: FxHashMap<Vec<u32>, u32>,
    labels: Vec<Known>,
    set: Vec<u32>,
    memo: FxHashMap<(usize, Box<[u32]>), bool>,
    row: Vec<u32>,
}

/// A label seen by a worker: its letter and its actions as terms.
struct Known {
    letter: u32,
    actions: Vec<KeyAction>,
}

impl<'a, 's> Product<'a, 's> {
    /// The product of `inner` with `m`; `rw` is the formula's data engine over `inner`'s
    /// store.
    pub fn new(inner: &'a LpsSystem<'s>, m: &'a Monitor, rw: Rewriter<'s>) -> Self {
        let label_conjuncts = m
            .locals
            .iter()
            .enumerate()
            .filter(|(_, l)| matches!(l, Local::Labels(_)))
            .fold(0u64, |acc, (i, _)| acc | 1 << i);
        Product {
            inner,
            m,
            rw,
            width: inner.state_width(),
            word: m.dfa.classes() > 1,
            constant_letter: m.dfa.constant_letter(),
            label_conjuncts,
        }
    }

    /// The LPS part of a product row.
    pub fn inner_row<'r>(&self, row: &'r [u32]) -> &'r [u32] {
        &row[..self.width]
    }

    /// The class of a product row.
    fn class(&self, row: &[u32]) -> Class {
        if self.word {
            row[self.width]
        } else {
            0
        }
    }

    /// The worker-local number of `key`, its letter computed when first seen.
    fn known(&self, w: &mut KnownParts<'_, 's>, key: &Vec<u32>) -> Result<u32, ProductError> {
        if let Some(&id) = w.ids.get(key) {
            return Ok(id);
        }
        let actions = self.inner.label_actions(key);
        let letter = match self.constant_letter {
            Some(l) => l,
            None => {
                let rw = w.rw.take().expect("the worker's data engine is back");
                let (rw, r) = local_matches(rw, label_view(&actions), &self.m.dfa.formulas);
                *w.rw = Some(rw);
                r.map_err(|e| ProductError::Local(e.0))? as u32
            }
        };
        let id = w.labels.len() as u32;
        w.labels.push(Known { letter, actions });
        w.ids.insert(key.clone(), id);
        Ok(id)
    }

    /// Whether some conjunct accepted by `accepts` has a false `φ` in a state with
    /// outgoing transitions (`any`) whose distinct labels are `w.set`.
    fn violated(
        &self,
        w: &mut ProductWorker<'s>,
        accepts: u64,
        any: bool,
    ) -> Result<bool, ProductError> {
        if accepts & self.label_conjuncts != 0 {
            w.set.sort_unstable();
            w.set.dedup();
        }
        for (i, local) in self.m.locals.iter().enumerate() {
            if accepts & (1 << i) == 0 {
                continue;
            }
            let holds = match local {
                Local::Const(b) => *b,
                Local::Successors { with, without } => {
                    if any {
                        *with
                    } else {
                        *without
                    }
                }
                Local::Labels(phi) => {
                    let key = (i, w.set.as_slice().into());
                    if let Some(&v) = w.memo.get(&key) {
                        v
                    } else {
                        let labels: Vec<Vec<LabelAction<'_>>> = w
                            .set
                            .iter()
                            .map(|&id| label_view(&w.labels[id as usize].actions))
                            .collect();
                        let rw = w.rw.take().expect("the worker's data engine is back");
                        let (rw, r) = local_holds(rw, labels, phi);
                        w.rw = Some(rw);
                        let v = r.map_err(|e| ProductError::Local(e.0))?;
                        if w.memo.len() >= MEMO_ENTRIES {
                            w.memo.clear();
                        }
                        w.memo.insert(key, v);
                        v
                    }
                }
            };
            if !holds {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The parts of a worker [`Product::known`] needs (borrowed apart from the LPS worker).
struct KnownParts<'w, 's> {
    rw: &'w mut Option<Rewriter<'s>>,
    ids: &'w mut FxHashMap<Vec<u32>, u32>,
    labels: &'w mut Vec<Known>,
}

impl<'a, 's> TransitionSystem for Product<'a, 's> {
    type Label = Vec<u32>;
    type Error = ProductError;
    type Worker = ProductWorker<'s>;

    fn state_width(&self) -> usize {
        self.width + usize::from(self.word)
    }

    fn worker(&self) -> ProductWorker<'s> {
        ProductWorker {
            inner: self.inner.worker(),
            rw: Some(self.rw.clone()),
            ids: FxHashMap::default(),
            labels: Vec::new(),
            set: Vec::new(),
            memo: FxHashMap::default(),
            row: Vec::new(),
        }
    }

    fn initial_state(
        &self,
        w: &mut ProductWorker<'s>,
        out: &mut Vec<u32>,
    ) -> Result<(), ProductError> {
        self.inner.initial_state(&mut w.inner, out)?;
        if self.word {
            out.push(self.m.dfa.initial.unwrap_or(0));
        }
        Ok(())
    }

    fn successors(
        &self,
        w: &mut ProductWorker<'s>,
        state: &[u32],
        emit: &mut dyn FnMut(&Vec<u32>, &[u32]),
    ) -> Result<(), ProductError> {
        let class = self.class(state);
        let accepts = self.m.dfa.accepts[class as usize];
        let want_set = accepts & self.label_conjuncts != 0;
        let mut any = false;
        let mut err = None;
        w.set.clear();
        let ProductWorker {
            inner,
            rw,
            ids,
            labels,
            set,
            row,
            ..
        } = w;
        let mut parts = KnownParts { rw, ids, labels };
        let dfa = &self.m.dfa;
        self.inner
            .successors(inner, self.inner_row(state), &mut |lab, next| {
                any = true;
                let letter = match self.constant_letter {
                    Some(l) if !want_set => l,
                    _ => match self.known(&mut parts, lab) {
                        Ok(id) => {
                            if want_set {
                                set.push(id);
                            }
                            parts.labels[id as usize].letter
                        }
                        Err(e) => {
                            err.get_or_insert(e);
                            return;
                        }
                    },
                };
                // A step into the dead class is dropped: no conjunct can accept after it.
                let Some(c) = dfa.next(class, letter) else {
                    return;
                };
                if self.word {
                    row.clear();
                    row.extend_from_slice(next);
                    row.push(c);
                    emit(lab, row);
                } else {
                    emit(lab, next);
                }
            })?;
        if let Some(e) = err {
            return Err(e);
        }
        if accepts != 0 && self.violated(w, accepts, any)? {
            emit(&VIOLATION_KEY.to_vec(), state);
        }
        Ok(())
    }

    fn label(&self, key: &Vec<u32>) -> Label {
        if key.as_slice() == VIOLATION_KEY {
            return Label::from_parts(vec![ActionPart::new(VIOLATION, Vec::new())]);
        }
        self.inner.label(key)
    }

    fn format_state(&self, state: &[u32]) -> String {
        self.inner.format_state(self.inner_row(state))
    }

    fn parameters(&self) -> Vec<(String, String)> {
        self.inner.parameters()
    }

    fn state_values(&self, state: &[u32]) -> Vec<String> {
        self.inner.state_values(self.inner_row(state))
    }
}

/// A product state travels between processes as its LPS state's values and its class,
/// which every process numbers alike (the same formula gives the same automaton).
impl Portable for Product<'_, '_> {
    type Codec = crate::distrib::LpsCodec;

    fn encode_value(&self, codec: &mut Self::Codec, word: u32, out: &mut Vec<u32>) {
        self.inner.encode_value(codec, word, out)
    }

    fn decode_value(
        &self,
        codec: &mut Self::Codec,
        words: &[u32],
    ) -> Result<u32, crate::data::portable::PortableError> {
        self.inner.decode_value(codec, words)
    }

    fn value_hash(&self, codec: &mut Self::Codec, word: u32) -> u64 {
        self.inner.value_hash(codec, word)
    }

    fn fingerprint(&self) -> u64 {
        let classes = self.m.dfa.classes() as u64;
        let conjuncts = self.m.locals.len() as u64;
        self.inner.fingerprint() ^ (classes << 32 | conjuncts).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn literal(&self, pos: usize) -> bool {
        self.word && pos == self.width
    }
}
