//! Loading the model of a check: a specification linearised to an LPS, or an explicit LTS
//! with the declarations its labels are typed against.

use std::path::Path;
use std::time::Instant;

use crate::artifact::{display_path, read_text, Artifact};
use crate::lps::{linearise, LineariseOptions, Lps};
use crate::lts::typed::{label_declarations, typed_labels};
use crate::lts::Lts;
use crate::process::ir::ProcSpec;
use crate::process::typecheck::check_specification;
use crate::source::SourceFile;

use super::Model;

/// A specification read, type-checked and linearised.
pub struct LoadedSpec {
    /// The LPS, simplified as `mcrl22lps` does by default.
    pub lps: Lps,
    /// The name the specification is shown under.
    pub name: String,
    /// Seconds reading and linearising.
    pub seconds: f64,
    /// The specification's text, which the spans of the LPS's summand origins
    /// ([`crate::lps::Origin::spans`]) point into.
    pub source: SourceFile,
}

/// Reads the mCRL2 specification `path` (standard input for `-`), type-checks it and
/// linearises it.
pub fn load_spec(path: &Path) -> miette::Result<LoadedSpec> {
    let t = Instant::now();
    let name = display_path(Some(path), "<stdin>");
    let src = SourceFile::new(name.clone(), read_text(Some(path))?);
    let spec = check_specification(&src).map_err(miette::Report::new)?;
    let lps = linearise(&spec, LineariseOptions { simplify: true })
        .map_err(|e| miette::miette!("{name}: {e}"))?;
    Ok(LoadedSpec {
        lps,
        name,
        seconds: t.elapsed().as_secs_f64(),
        source: src,
    })
}

/// Reads the LTS `path` (`.aut` or LTS artifact) and types its labels against the
/// declarations of the specification `mcrl2` or the LPS `lps` (or, when neither is given,
/// against the action names of the labels, which must then carry no data).
pub fn load_lts(path: &Path, mcrl2: Option<&Path>, lps: Option<&Path>) -> miette::Result<Model> {
    let lts = Lts::read_file(Some(path))?;
    let decls = lts_declarations(mcrl2, lps, &lts)?;
    let labels = typed_labels(&lts, &decls)?;
    Ok(Model::Lts { lts, decls, labels })
}

/// The declarations an LTS's labels and formulas are typed against: from the specification
/// `mcrl2`, the LPS `lps`, or (for labels without data) the action names in the LTS itself.
pub fn lts_declarations(
    mcrl2: Option<&Path>,
    lps: Option<&Path>,
    lts: &Lts,
) -> miette::Result<ProcSpec> {
    if let Some(p) = mcrl2 {
        let src = SourceFile::new(display_path(Some(p), "<stdin>"), read_text(Some(p))?);
        return check_specification(&src).map_err(miette::Report::new);
    }
    if let Some(p) = lps {
        return Ok(Lps::read_artifact(Some(p))?.declarations());
    }
    Ok(label_declarations(lts)?)
}
