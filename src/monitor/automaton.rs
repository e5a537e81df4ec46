//! The automaton of the conjuncts' regular formulas: a Glushkov automaton per conjunct (one
//! position per action formula occurrence plus an initial one), all in one set of at most
//! 32 positions, determinised and minimised up front over *letters*: a letter is the set of
//! the distinct action formulas a label satisfies, so a label's successor class depends on
//! its letter alone and each label is matched once per worker.
//!
//! Why a minimal DFA rather than the raw position sets as the state word: `[true*] φ`'s
//! position sets are `{initial}` and then `{true}`, two words for one state of the
//! property; minimised they are one class, so `[true*] φ` adds no word to the state row at
//! all and explores exactly the model's states. Classes are numbered in breadth-first
//! order from the initial one over letters in increasing order, so the numbering, and with
//! it every state row, is the same on every run and thread count. The *dead* class (no
//! conjunct can accept any more) is not a class: a step into it is dropped.

use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;

use super::fragment::Conjunct;
use crate::modal::ir::{ActionFormula, RegFormula};

/// The most positions (action formula occurrences plus one initial position per conjunct).
pub const MAX_POSITIONS: usize = 32;

/// The most distinct action formulas in the regular formulas (the DFA has `2^k` letters).
pub const MAX_ACTION_FORMULAS: usize = 12;

/// The most classes the determinisation may reach before it gives up.
pub const MAX_SUBSETS: usize = 1 << 16;

/// Why no automaton was built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TooBig {
    /// More than [`MAX_POSITIONS`] positions.
    Positions(usize),
    /// More than [`MAX_ACTION_FORMULAS`] distinct action formulas.
    ActionFormulas(usize),
    /// More than [`MAX_SUBSETS`] subsets.
    Subsets,
}

impl std::fmt::Display for TooBig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TooBig::Positions(n) => write!(
                f,
                "the regular formulas have {n} positions (action formula occurrences plus one per conjunct), more than {MAX_POSITIONS}"
            ),
            TooBig::ActionFormulas(n) => write!(
                f,
                "the regular formulas have {n} distinct action formulas, more than {MAX_ACTION_FORMULAS}"
            ),
            TooBig::Subsets => write!(
                f,
                "the automaton of the regular formulas has more than {MAX_SUBSETS} states"
            ),
        }
    }
}

/// A class of the minimal DFA (the state word of the product).
pub type Class = u32;

/// The minimal DFA of the conjuncts' regular formulas over letters.
#[derive(Clone, Debug)]
pub struct Dfa {
    /// The distinct action formulas; bit `j` of a letter is `formulas[j]`.
    pub formulas: Vec<ActionFormula>,
    /// Per class and letter, the next class (`None`: the dead class), row-major.
    delta: Vec<Option<Class>>,
    /// Per class, the conjuncts (bit `i` for conjunct `i`) whose regular formula it accepts.
    pub accepts: Vec<u64>,
    /// The initial class, `None` when it is dead (the formula is `true`).
    pub initial: Option<Class>,
}

impl Dfa {
    /// The number of live classes.
    pub fn classes(&self) -> usize {
        self.accepts.len()
    }

    /// The number of letters.
    pub fn letters(&self) -> usize {
        1 << self.formulas.len()
    }

    /// The class after a label of letter `letter` from `class`.
    pub fn next(&self, class: Class, letter: u32) -> Option<Class> {
        self.delta[class as usize * self.letters() + letter as usize]
    }

    /// The letter every label has when no formula looks at the label (each is `true` or
    /// `false`), else `None`.
    pub fn constant_letter(&self) -> Option<u32> {
        let mut letter = 0;
        for (j, f) in self.formulas.iter().enumerate() {
            match f {
                ActionFormula::True => letter |= 1 << j,
                ActionFormula::False => {}
                _ => return None,
            }
        }
        Some(letter)
    }
}

/// Positions of the Glushkov automaton under construction.
struct Glushkov {
    /// Per position, its action formula's index in `formulas` (`None`: initial position).
    alpha: Vec<Option<usize>>,
    follow: Vec<u32>,
    formulas: Vec<ActionFormula>,
}

/// `(nullable, first, last)` of a regular formula.
type Sets = (bool, u32, u32);

impl Glushkov {
    fn position(&mut self, alpha: Option<usize>) -> Result<u32, TooBig> {
        self.alpha.push(alpha);
        self.follow.push(0);
        if self.alpha.len() > MAX_POSITIONS {
            return Err(TooBig::Positions(self.alpha.len()));
        }
        Ok(1 << (self.alpha.len() - 1))
    }

    fn link(&mut self, from: u32, to: u32) {
        for p in 0..self.follow.len() {
            if from & (1 << p) != 0 {
                self.follow[p] |= to;
            }
        }
    }

    fn build(&mut self, r: &RegFormula) -> Result<Sets, TooBig> {
        Ok(match r {
            RegFormula::Nil => (true, 0, 0),
            RegFormula::Action(a) => {
                let j = match self.formulas.iter().position(|f| f == a) {
                    Some(j) => j,
                    None => {
                        self.formulas.push(a.clone());
                        self.formulas.len() - 1
                    }
                };
                let p = self.position(Some(j))?;
                (false, p, p)
            }
            RegFormula::Seq(a, b) => {
                let (na, fa, la) = self.build(a)?;
                let (nb, fb, lb) = self.build(b)?;
                self.link(la, fb);
                (
                    na && nb,
                    if na { fa | fb } else { fa },
                    if nb { la | lb } else { lb },
                )
            }
            RegFormula::Alt(a, b) => {
                let (na, fa, la) = self.build(a)?;
                let (nb, fb, lb) = self.build(b)?;
                (na || nb, fa | fb, la | lb)
            }
            RegFormula::Star(a) | RegFormula::Plus(a) => {
                let (na, fa, la) = self.build(a)?;
                self.link(la, fa);
                (na || matches!(r, RegFormula::Star(_)), fa, la)
            }
        })
    }
}

/// The minimal DFA of `conjuncts`' regular formulas (conjunct `i` accepts where its
/// formula does).
pub fn build(conjuncts: &[Conjunct]) -> Result<Dfa, TooBig> {
    let mut g = Glushkov {
        alpha: Vec::new(),
        follow: Vec::new(),
        formulas: Vec::new(),
    };
    let mut initial = 0u32;
    let mut accept: Vec<u32> = Vec::new();
    for c in conjuncts {
        let q = g.position(None)?;
        let (nullable, first, last) = g.build(&c.reg)?;
        g.follow[q.trailing_zeros() as usize] = first;
        initial |= q;
        accept.push(if nullable { last | q } else { last });
    }
    let k = g.formulas.len();
    if initial == 0 {
        // No conjunct: the formula is `true`.
        return Ok(Dfa {
            formulas: g.formulas,
            delta: Vec::new(),
            accepts: Vec::new(),
            initial: None,
        });
    }
    if k > MAX_ACTION_FORMULAS {
        return Err(TooBig::ActionFormulas(k));
    }
    let letters = 1usize << k;
    // A label satisfies `true` and not `false`: the other letters never occur, and left
    // in they would keep apart classes no path can tell apart (`[true* . e]`).
    let (mut must, mut never) = (0usize, 0usize);
    for (j, f) in g.formulas.iter().enumerate() {
        match f {
            ActionFormula::True => must |= 1 << j,
            ActionFormula::False => never |= 1 << j,
            _ => {}
        }
    }
    let is_valid = |l: usize| l & must == must && l & never == 0;
    let valid: Vec<usize> = (0..letters).filter(|&l| is_valid(l)).collect();
    // Per letter, the positions it may enter.
    let enter: Vec<u32> = (0..letters)
        .map(|l| {
            let mut m = 0;
            for (p, a) in g.alpha.iter().enumerate() {
                if a.is_some_and(|j| l & (1 << j) != 0) {
                    m |= 1 << p;
                }
            }
            m
        })
        .collect();
    let step = |m: u32, l: usize| {
        let mut next = 0;
        for p in 0..g.follow.len() {
            if m & (1 << p) != 0 {
                next |= g.follow[p];
            }
        }
        next & enter[l]
    };
    // Subset construction; subset 0 (no position) is the dead one.
    let mut ids: HashMap<u32, usize> = [(0, 0), (initial, 1)].into_iter().collect();
    let mut subsets = vec![0u32, initial];
    let mut table: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < subsets.len() {
        let m = subsets[i];
        for l in 0..letters {
            // An impossible letter leads to the dead subset.
            let n = if is_valid(l) { step(m, l) } else { 0 };
            let id = *ids.entry(n).or_insert_with(|| {
                subsets.push(n);
                subsets.len() - 1
            });
            table.push(id);
        }
        if subsets.len() > MAX_SUBSETS {
            return Err(TooBig::Subsets);
        }
        i += 1;
    }
    let sig = |m: u32| -> u64 {
        accept
            .iter()
            .enumerate()
            .filter(|(_, a)| m & **a != 0)
            .fold(0u64, |acc, (i, _)| acc | 1 << i)
    };
    // Moore refinement: blocks by acceptance, then by the blocks of the successors.
    let mut block: Vec<usize> = renumber(subsets.iter().map(|&m| vec![sig(m) as usize]));
    loop {
        let keys = (0..subsets.len()).map(|s| {
            let mut key = vec![block[s]];
            key.extend(valid.iter().map(|&l| block[table[s * letters + l]]));
            key
        });
        let next = renumber(keys);
        let same = next.iter().max() == block.iter().max();
        block = next;
        if same {
            break;
        }
    }
    // Classes in breadth-first order from the initial subset, the dead block left out.
    let dead = block[0];
    let mut class: Vec<Option<Class>> = vec![None; subsets.len()];
    let mut of_block: HashMap<usize, Class> = HashMap::default();
    let mut reps: Vec<usize> = Vec::new();
    let mut queue = VecDeque::new();
    if block[1] != dead {
        queue.push_back(1);
    }
    while let Some(s) = queue.pop_front() {
        if class[s].is_some() {
            continue;
        }
        let b = block[s];
        let c = *of_block.entry(b).or_insert_with(|| {
            reps.push(s);
            (reps.len() - 1) as Class
        });
        class[s] = Some(c);
        for l in 0..letters {
            let t = table[s * letters + l];
            if block[t] != dead && class[t].is_none() {
                queue.push_back(t);
            }
        }
    }
    let mut delta = Vec::with_capacity(reps.len() * letters);
    let mut accepts = Vec::with_capacity(reps.len());
    for &s in &reps {
        accepts.push(sig(subsets[s]));
        for l in 0..letters {
            let t = table[s * letters + l];
            delta.push(if block[t] == dead {
                None
            } else {
                of_block.get(&block[t]).copied()
            });
        }
    }
    Ok(Dfa {
        formulas: g.formulas,
        delta,
        accepts,
        initial: (!reps.is_empty()).then_some(0),
    })
}

/// Dense block numbers for the keys, in order of first occurrence.
fn renumber(keys: impl Iterator<Item = Vec<usize>>) -> Vec<usize> {
    let mut ids: HashMap<Vec<usize>, usize> = HashMap::default();
    keys.map(|k| {
        let n = ids.len();
        *ids.entry(k).or_insert(n)
    })
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modal::ir::StateFormula;

    fn act(name: &str) -> RegFormula {
        RegFormula::Action(ActionFormula::MultiAction(vec![
            crate::process::ir::Action {
                name: name.into(),
                sorts: Vec::new(),
                args: Vec::new(),
            },
        ]))
    }

    fn conj(reg: RegFormula) -> Conjunct {
        Conjunct {
            reg,
            phi: StateFormula::False,
        }
    }

    #[test]
    fn true_star_is_one_class() {
        let r = RegFormula::Star(Box::new(RegFormula::Action(ActionFormula::True)));
        let d = build(&[conj(r)]).unwrap();
        assert_eq!(d.classes(), 1);
        assert_eq!(d.accepts, vec![1]);
        assert_eq!(d.constant_letter(), Some(1));
        assert_eq!(d.next(0, 1), Some(0));
    }

    #[test]
    fn a_sequence_counts_its_steps_and_dies_off_the_path() {
        // `[a.b] φ`: initial, after a, after a.b (accepting); anything else is dead.
        let r = RegFormula::Seq(Box::new(act("a")), Box::new(act("b")));
        let d = build(&[conj(r)]).unwrap();
        assert_eq!(d.classes(), 3);
        assert_eq!(d.accepts, vec![0, 0, 1]);
        // Letters: bit 0 = a, bit 1 = b.
        assert_eq!(d.next(0, 0b01), Some(1));
        assert_eq!(d.next(0, 0b10), None);
        assert_eq!(d.next(1, 0b10), Some(2));
        assert_eq!(d.next(2, 0b11), None);
    }

    #[test]
    fn true_star_then_error_remembers_nothing_but_the_last_step() {
        // `[true*. e] φ`: two classes (the last step was `e` or not).
        let t = RegFormula::Star(Box::new(RegFormula::Action(ActionFormula::True)));
        let d = build(&[conj(RegFormula::Seq(Box::new(t), Box::new(act("e"))))]).unwrap();
        assert_eq!(d.classes(), 2);
        assert_eq!(d.accepts, vec![0, 1]);
    }

    #[test]
    fn too_many_positions_are_refused() {
        let mut r = act("a");
        for _ in 0..40 {
            r = RegFormula::Seq(Box::new(r), Box::new(act("a")));
        }
        assert!(matches!(build(&[conj(r)]), Err(TooBig::Positions(_))));
    }
}
