//! The thin CLI around the type checker: `muon parse`, `txt2pbes`, `pbesinfo`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn muon() -> Command {
    Command::new(env!("CARGO_BIN_EXE_muon"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/typecheck")
        .join(name)
}

#[test]
fn parse_summarises_a_well_typed_spec_and_formula() {
    let out = muon()
        .arg("parse")
        .arg(fixture("model.mcrl2"))
        .arg("-f")
        .arg(fixture("../typecheck/model.mcrl2").with_file_name("unbound_fixpoint.mcf"))
        .output()
        .unwrap();
    // The formula is ill-typed: exit 1 with its diagnostic.
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is not a bound fixpoint variable"), "{err}");

    let out = muon()
        .arg("parse")
        .arg(fixture("well_typed.mcrl2"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("well_typed.mcrl2: 3 sorts"), "{text}");
    assert!(text.contains("2 processes"), "{text}");
}

#[test]
fn parse_reports_type_errors_with_position() {
    let out = muon()
        .arg("parse")
        .arg(fixture("multiple_errors.mcrl2"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown sort `Bol`"), "{err}");
    assert!(err.contains("multiple_errors.mcrl2:4:8"), "{err}");
    assert!(err.contains("did you mean `Bool`?"), "{err}");
}

#[test]
fn txt2pbes_writes_an_artifact_and_pbesinfo_reads_it() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("x.pbes");
    let st = muon()
        .arg("txt2pbes")
        .arg(fixture("pbes_ok.txt"))
        .arg(&out_path)
        .status()
        .unwrap();
    assert!(st.success());
    let out = muon().arg("pbesinfo").arg(&out_path).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Number of equations:     2"), "{text}");
    assert!(text.contains("nu X(n: Nat, d: D)"), "{text}");

    // pbespp prints it back in the textual format, which txt2pbes reads again.
    let txt = dir.path().join("x.txt");
    assert!(muon()
        .arg("pbespp")
        .arg(&out_path)
        .arg(&txt)
        .status()
        .unwrap()
        .success());
    let printed = std::fs::read_to_string(&txt).unwrap();
    assert!(printed.contains("nu X(n: Nat, d: D) ="), "{printed}");
    assert!(muon()
        .arg("txt2pbes")
        .arg(&txt)
        .arg(dir.path().join("y.pbes"))
        .status()
        .unwrap()
        .success());

    // An ill-typed PBES: exit 1 and no output file.
    let bad = dir.path().join("bad.pbes");
    let out = muon()
        .arg("txt2pbes")
        .arg(fixture("pbes_unknown_var.txt"))
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!bad.exists());
}
