//! The corpora beside the checkout (`../shared/corpus` and `../shared/mcrl2-examples`:
//! mCRL2's example models, formulas and `oracle.tsv` of mCRL2's results), for the tests
//! behind the `corpus` feature (`make test-corpus`). Those tests fail, never skip, when a
//! corpus is missing.

use std::path::PathBuf;

/// The corpus directory; panics with what to do when it is not there.
#[allow(dead_code)] // each test crate uses one of the two
pub fn dir() -> PathBuf {
    shared("corpus")
}

/// Every untimed example of mCRL2 (`../shared/mcrl2-examples`); panics when it is missing.
#[allow(dead_code)]
pub fn examples() -> PathBuf {
    shared("mcrl2-examples")
}

fn shared(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(name);
    assert!(
        dir.join("oracle.tsv").is_file(),
        "the corpus tests need the shared corpus at {} (with oracle.tsv); \
         CI checks it out beside the repository. Without it, run `make test`, \
         which needs nothing beside the checkout.",
        dir.display()
    );
    dir
}
