//! mCRL2's FSM format (`.fsm`, read by `ltsview`): the state parameters with the values
//! each takes, one line of value indices per state, then the transitions.
//!
//! ```text
//! n(3) Nat  "0" "1" "2"      name(number of values) sort, then the values
//! ---
//! 0                          per state (in state order) the index of each parameter's value
//! ---
//! 1 2 "a(0)"                 transitions between states numbered from 1
//! ```
//!
//! Values are numbered in order of first occurrence over the states, as mCRL2's `lps2lts`
//! numbers them. An LTS without state values (read from `.aut`) has no parameters and no
//! state lines, as mCRL2's `ltsconvert` writes it.

use std::io::{self, Write};

use rustc_hash::FxHashMap;

use super::Lts;

/// The state values of an LTS: its parameters and, per state, one printed value each.
#[derive(Debug, Clone, Default)]
pub struct StateValues {
    /// The parameters as (name, printed sort).
    pub params: Vec<(String, String)>,
    /// Per state (indexed by state number), one printed value per parameter.
    pub states: Vec<Vec<String>>,
}

/// Writes `lts` in FSM format, with `values` when it has them.
pub fn write_fsm(lts: &Lts, values: Option<&StateValues>, w: &mut dyn Write) -> io::Result<()> {
    if let Some(v) = values.filter(|v| !v.params.is_empty()) {
        // Per parameter: its distinct values in order of first occurrence, and their index.
        let mut seen: Vec<(Vec<&str>, FxHashMap<&str, usize>)> =
            vec![Default::default(); v.params.len()];
        let mut rows: Vec<Vec<usize>> = Vec::with_capacity(v.states.len());
        for state in &v.states {
            let row = state
                .iter()
                .zip(seen.iter_mut())
                .map(|(val, (order, index))| {
                    *index.entry(val.as_str()).or_insert_with(|| {
                        order.push(val.as_str());
                        order.len() - 1
                    })
                })
                .collect();
            rows.push(row);
        }
        for ((name, sort), (order, _)) in v.params.iter().zip(&seen) {
            write!(w, "{name}({}) {sort} ", order.len())?;
            for val in order {
                write!(w, " \"{val}\"")?;
            }
            writeln!(w)?;
        }
        writeln!(w, "---")?;
        for row in rows {
            let words: Vec<String> = row.iter().map(usize::to_string).collect();
            writeln!(w, "{}", words.join(" "))?;
        }
    } else {
        writeln!(w, "---")?;
    }
    writeln!(w, "---")?;
    for t in &lts.transitions {
        writeln!(
            w,
            "{} {} \"{}\"",
            t.from.0 + 1,
            t.to.0 + 1,
            lts.label_text(t.label)
        )?;
    }
    Ok(())
}
