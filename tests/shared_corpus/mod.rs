//! The corpus beside the checkout (`../shared/corpus`: mCRL2's example models, formulas and
//! `oracle.tsv` of mCRL2's results), for the tests behind the `corpus` feature
//! (`make test-corpus`). Those tests fail, never skip, when the corpus is missing.

use std::path::PathBuf;

/// The corpus directory; panics with what to do when it is not there.
pub fn dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(
        dir.join("oracle.tsv").is_file(),
        "the corpus tests need the shared corpus at {} (with oracle.tsv); \
         CI checks it out beside the repository. Without it, run `make test`, \
         which needs nothing beside the checkout.",
        dir.display()
    );
    dir
}
