//! GraphViz DOT output, for looking at small systems (`dot -Tpdf out.dot`).

use std::io::{self, Write};

use super::Lts;

/// Escapes a label for a double-quoted DOT string.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes `lts` as a DOT digraph: states are nodes named by their number, the initial state
/// has a double border, and transitions are edges labelled with their multi-action.
pub fn write_dot(lts: &Lts, name: &str, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "digraph \"{}\" {{", escape(name))?;
    writeln!(w, "  node [shape=circle, width=0.3, fixedsize=false];")?;
    writeln!(w, "  {} [peripheries=2];", lts.initial.0)?;
    for s in 0..lts.num_states {
        if s != lts.initial.0 {
            writeln!(w, "  {s};")?;
        }
    }
    for t in &lts.transitions {
        writeln!(
            w,
            "  {} -> {} [label=\"{}\"];",
            t.from.0,
            t.to.0,
            escape(lts.label_text(t.label))
        )?;
    }
    writeln!(w, "}}")
}
