//! Searching from the simulator's current state: breadth-first for a deadlock or for a
//! transition whose multi-action is a given one or has an action of a given name, so the
//! path found is a shortest one; the simulator then walks it, each step taken as if chosen
//! by hand.

use rustc_hash::FxHashMap;

use super::{same_label, SimError, Simulator};
use crate::lts::{Label, TransitionSystem};

/// What a search looks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A state without transitions.
    Deadlock,
    /// A transition whose multi-action is this one (`a(1)`, `b|c(true, 3)`), or, for a bare
    /// name (`a`, `tau`), that has an action of this name.
    Action(String),
}

impl Target {
    /// Whether a transition labelled `label` is what an [`Target::Action`] looks for.
    fn matches(&self, label: &Label) -> bool {
        let Target::Action(query) = self else {
            return false;
        };
        let q = query.trim();
        if q.contains(['(', '|']) {
            same_label(q, label.text())
        } else if q == "tau" {
            label.is_tau()
        } else {
            label.has_action(q)
        }
    }

    /// The target in words.
    pub fn describe(&self) -> String {
        match self {
            Target::Deadlock => "a deadlock".into(),
            Target::Action(a) => format!("action `{a}`"),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// A shortest path from the current state: per step the label and the state reached.
    Path(Vec<(String, Vec<u32>)>),
    /// Every state reachable from the current one was looked at (this many); none is the
    /// target.
    Nowhere {
        /// The states looked at.
        states: usize,
    },
    /// The search stopped at its state limit, or when `tick` or the run's budget asked it
    /// to, after this many states without finding the target.
    Stopped {
        /// The states looked at.
        states: usize,
        /// Whether it stopped at [`Simulator::search_limit`] (else it was asked to).
        at_limit: bool,
    },
}

/// How often (in states) a search calls its `tick`.
const TICK: usize = 4096;

impl Simulator<'_> {
    /// Searches breadth-first from the current state for `target`, looking at no more than
    /// [`Simulator::search_limit`] states; `tick(states)` is called every few thousand
    /// states and stops the search when it returns false; a stop of the run's budget
    /// (`--timeout`, `--memory-limit`) stops it too, acknowledged. A path to a deadlock ends in it; a
    /// path to an action ends with a transition that has it.
    pub fn search(
        &mut self,
        target: &Target,
        tick: &mut dyn FnMut(usize) -> bool,
    ) -> Result<Found, SimError> {
        let start = self.history[self.pos].row.clone();
        // Per state: its row, its parent and the label key of the step from the parent.
        let mut states: Vec<(Vec<u32>, u32, Vec<u32>)> = vec![(start.clone(), u32::MAX, vec![])];
        let mut index: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        index.insert(start, 0);
        let mut matched: FxHashMap<Vec<u32>, bool> = FxHashMap::default();
        let mut next = 0usize;
        let mut succ: Vec<(Vec<u32>, Vec<u32>)> = Vec::new();
        while next < states.len() {
            if next % TICK == TICK - 1
                && (!tick(states.len()) || crate::budget::poll_stop().is_some())
            {
                return Ok(Found::Stopped {
                    states: states.len(),
                    at_limit: false,
                });
            }
            succ.clear();
            let row = states[next].0.clone();
            self.sys
                .successors(&mut self.worker, &row, &mut |key, to| {
                    succ.push((key.clone(), to.to_vec()))
                })?;
            if succ.is_empty() && *target == Target::Deadlock {
                return Ok(Found::Path(self.path_to(&states, next, None)));
            }
            for (key, to) in succ.drain(..) {
                let hit = match matched.get(&key) {
                    Some(&m) => m,
                    None => {
                        let m = target.matches(&self.sys.label(&key));
                        matched.insert(key.clone(), m);
                        m
                    }
                };
                if hit {
                    return Ok(Found::Path(self.path_to(&states, next, Some((key, to)))));
                }
                if index.contains_key(&to) {
                    continue;
                }
                if states.len() >= self.search_limit {
                    return Ok(Found::Stopped {
                        states: states.len(),
                        at_limit: true,
                    });
                }
                index.insert(to.clone(), states.len() as u32);
                states.push((to, next as u32, key));
            }
            next += 1;
        }
        Ok(Found::Nowhere {
            states: states.len(),
        })
    }

    /// The path from the search's first state to state `at`, then the step `last`.
    fn path_to(
        &self,
        states: &[(Vec<u32>, u32, Vec<u32>)],
        mut at: usize,
        last: Option<(Vec<u32>, Vec<u32>)>,
    ) -> Vec<(String, Vec<u32>)> {
        let mut path = Vec::new();
        if let Some((key, to)) = last {
            path.push((self.sys.label(&key).text().to_string(), to));
        }
        while at != 0 {
            let (row, parent, key) = &states[at];
            path.push((self.sys.label(key).text().to_string(), row.clone()));
            at = *parent as usize;
        }
        path.reverse();
        path
    }

    /// Takes the steps of `path` (from [`Simulator::search`]) one by one from the current
    /// state.
    pub fn walk(&mut self, path: &[(String, Vec<u32>)]) -> Result<(), SimError> {
        for (i, (label, row)) in path.iter().enumerate() {
            let Some(k) = self
                .enabled
                .iter()
                .position(|t| &t.row == row && &t.label == label)
            else {
                return Err(SimError::Command(format!(
                    "step {} of the path found ({label}) is no transition of the state reached",
                    i + 1
                )));
            };
            self.take(k)?;
        }
        Ok(())
    }
}
