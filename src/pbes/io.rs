//! Reading and writing PBESs: the PBES artifact (one implementation of
//! [`Artifact`], checking the invariants every later stage relies on) and mCRL2's textual
//! format, told apart by the artifact header.

use std::collections::HashMap;
use std::path::Path;

use crate::artifact::{
    display_path, is_artifact, read_bytes, Artifact, ArtifactError, ArtifactKind,
};
use crate::pbes::ir::{Pbes, PbesExpr, PropVarInst};
use crate::source::SourceFile;

/// A PBES as its artifact stores it: with the identity ([`crate::artifact::identity`]) of
/// the LPS or LTS file it was generated from, so that `pbessolve --file` can refuse evidence
/// from another one (none for a PBES read from text).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone)]
pub struct PbesFile {
    /// The identity of the file the PBES was generated from.
    pub source: Option<u64>,
    /// The PBES.
    pub pbes: Pbes,
}

/// The PBES artifact: read and written only through this implementation.
impl Artifact for PbesFile {
    const KIND: ArtifactKind = ArtifactKind::Pbes;

    fn check_invariants(&self) -> Result<(), String> {
        self.pbes.check_invariants()
    }
}

impl Pbes {
    /// Equation names are unique, and the initial instance and every occurrence of a
    /// propositional variable name an equation and give it as many arguments as it has
    /// parameters.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut arity: HashMap<&str, usize> = HashMap::new();
        for eq in &self.equations {
            if arity
                .insert(eq.var.name.as_ref(), eq.var.params.len())
                .is_some()
            {
                return Err(format!("variable {} has two equations", eq.var.name));
            }
        }
        let check = |x: &PropVarInst, place: &dyn Fn() -> String| -> Result<(), String> {
            match arity.get(x.name.as_ref()) {
                None => Err(format!(
                    "{} uses {}, which has no equation",
                    place(),
                    x.name
                )),
                Some(&n) if n != x.args.len() => Err(format!(
                    "{} gives {} {} arguments, but it has {n} parameters",
                    place(),
                    x.name,
                    x.args.len()
                )),
                Some(_) => Ok(()),
            }
        };
        if !self.equations.is_empty() {
            check(&self.init, &|| "the initial instance".to_string())?;
        }
        for eq in &self.equations {
            let place = || format!("the equation of {}", eq.var.name);
            let mut stack = vec![&eq.rhs];
            while let Some(e) = stack.pop() {
                match e {
                    PbesExpr::True | PbesExpr::False | PbesExpr::Data(_) => {}
                    PbesExpr::Not(a) | PbesExpr::Forall(_, a) | PbesExpr::Exists(_, a) => {
                        stack.push(a)
                    }
                    PbesExpr::And(a, b) | PbesExpr::Or(a, b) | PbesExpr::Imp(a, b) => {
                        stack.push(a);
                        stack.push(b);
                    }
                    PbesExpr::PropVar(x) => check(x, &place)?,
                }
            }
        }
        Ok(())
    }
}

/// Reads a PBES from a file or standard input (`None`): a PBES artifact (invariants
/// checked), or else mCRL2's textual format, parsed and type-checked.
pub fn read_pbes(path: Option<&Path>) -> miette::Result<Pbes> {
    Ok(read_pbes_file(path)?.pbes)
}

/// [`read_pbes`] with the identity of the file the PBES was generated from (none for text).
pub fn read_pbes_file(path: Option<&Path>) -> miette::Result<PbesFile> {
    let name = display_path(path, "<stdin>");
    let bytes = read_bytes(path)?;
    if is_artifact(&bytes) {
        return Ok(PbesFile::decode_artifact(&bytes, &name)?);
    }
    let text = String::from_utf8(bytes).map_err(|e| ArtifactError::Read {
        path: name.clone(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })?;
    let pbes = crate::pbes::typecheck::check_pbes(&SourceFile::new(name, text))
        .map_err(miette::Report::new)?;
    Ok(PbesFile { source: None, pbes })
}

/// Writes `pbes` as an artifact to a file or standard output (`None`), recording the
/// identity of the file it was generated from.
pub fn write_pbes(
    pbes: Pbes,
    source: Option<u64>,
    path: Option<&Path>,
) -> Result<(), ArtifactError> {
    PbesFile { source, pbes }.write_artifact(path)
}
