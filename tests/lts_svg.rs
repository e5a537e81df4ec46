//! Pictures: `lps2lts` and the evidence of `check` written as SVG, laid out in-process, and
//! rendered here (resvg) the way a person would look at them: a picture that renders empty
//! or does not parse fails.

use std::path::Path;
use std::process::{Command, Output};

fn muon(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run muon")
}

/// Renders `svg` and returns (width, height, pixels that are not background).
fn render(svg: &str) -> (u32, u32, usize) {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_data(svg.as_bytes(), &usvg::Options::default())
        .unwrap_or_else(|e| panic!("the SVG does not parse: {e}\n{svg}"));
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).expect("a non-empty size");
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    // Drawn pixels: opaque and darker than the white fill of the nodes.
    let ink = pixmap
        .pixels()
        .iter()
        .filter(|p| p.alpha() > 128 && (p.red() as u32 + p.green() as u32 + p.blue() as u32) < 384)
        .count();
    (size.width(), size.height(), ink)
}

#[test]
fn lps2lts_draws_a_small_state_space() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(
        p.join("s.mcrl2"),
        "act a: Nat; b;\nproc P(n: Nat) = (n < 3) -> a(n) . P(n + 1) + (n == 3) -> b . P(0);\ninit P(0);\n",
    )
    .unwrap();
    let o = muon(&["mcrl22lps", "s.mcrl2", "s.lps"], p);
    assert!(o.status.success());
    let o = muon(&["lps2lts", "s.lps", "s.svg"], p);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(p.join("s.svg")).unwrap();
    for label in ["a(0)", "a(2)", "b"] {
        assert!(
            svg.contains(&format!(">{label}<")),
            "label {label} missing:\n{svg}"
        );
    }
    let (w, h, ink) = render(&svg);
    assert!(w > 40 && h > 100, "a picture of 4 states is {w}x{h}");
    // 4 circles (one doubled) and 4 arrows: well over a few hundred dark pixels.
    assert!(ink > 500, "the picture is nearly empty: {ink} drawn pixels");
}

#[test]
fn a_state_space_too_large_to_draw_is_refused_without_a_file() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(
        p.join("big.mcrl2"),
        "act a;\nproc P(n: Nat) = (n < 100000) -> a . P(n + 1);\ninit P(0);\n",
    )
    .unwrap();
    assert!(muon(&["mcrl22lps", "big.mcrl2", "big.lps"], p)
        .status
        .success());
    let o = muon(&["lps2lts", "big.lps", "big.svg"], p);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("too many to draw") && err.contains(".dot"),
        "{err}"
    );
    assert!(!p.join("big.svg").exists());
}

#[test]
fn check_draws_its_evidence() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(
        p.join("e.mcrl2"),
        "act a, b, c;\nproc P(n: Nat) = (n == 0) -> (a . P(1) + c . P(1)) + (n == 1) -> b . P(1);\ninit P(0);\n",
    )
    .unwrap();
    std::fs::write(p.join("cb.mcf"), "[c . true*][b]false\n").unwrap();
    let o = muon(
        &["check", "e.mcrl2", "-f", "cb.mcf", "--evidence-dir", "ev"],
        p,
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let svg = std::fs::read_to_string(p.join("ev/cb.svg")).unwrap();
    assert!(svg.contains(">c<") && svg.contains(">b<"), "{svg}");
    let (_, _, ink) = render(&svg);
    assert!(
        ink > 300,
        "the evidence picture is nearly empty: {ink} drawn pixels"
    );
    // The same picture through --evidence-file.
    let o = muon(
        &[
            "check",
            "-q",
            "e.mcrl2",
            "-f",
            "cb.mcf",
            "--evidence-file",
            "one.svg",
        ],
        p,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(p.join("one.svg")).unwrap(), svg);
}
