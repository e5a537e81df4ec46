//! Explicit labelled transition systems: state-space generation from an LPS (`lps2lts`),
//! the `.aut` format, the binary LTS artifact, and DOT output.
