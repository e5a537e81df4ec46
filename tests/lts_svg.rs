//! Pictures: `lps2lts` and the evidence of `check` written as SVG, laid out in-process, and
//! rendered here (resvg, with the system's fonts) the way a person would look at them: a
//! picture that renders empty or does not parse fails, and so does one whose labels do not
//! become glyphs inside the canvas. The fonts are the machine's (CI installs
//! `fonts-dejavu-core`); without any the test fails, since it could not see text.
//! `--layout=graphviz` is checked with a stand-in `dot` on `PATH` and without one.

use std::path::Path;
use std::process::{Command, Output};

fn muon(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run muon")
}

/// The system's fonts, with the generic families resolved the way fontconfig resolves them
/// on a Debian system with DejaVu (the pictures ask for `serif`).
fn options() -> resvg::usvg::Options<'static> {
    let mut opt = resvg::usvg::Options::default();
    let db = opt.fontdb_mut();
    db.load_system_fonts();
    assert!(
        !db.is_empty(),
        "no system font found: install one (Debian: apt-get install fonts-dejavu-core) so \
         that the pictures' text can be rendered and seen"
    );
    for (family, set) in [
        ("DejaVu Serif", 0),
        ("DejaVu Sans", 1),
        ("DejaVu Sans Mono", 2),
    ] {
        let known = db
            .faces()
            .any(|f| f.families.iter().any(|(n, _)| n == family));
        if known {
            match set {
                0 => db.set_serif_family(family),
                1 => db.set_sans_serif_family(family),
                _ => db.set_monospace_family(family),
            }
        }
    }
    opt
}

/// Whether a pixel is ink: opaque and darker than the white fill of the nodes.
fn is_ink(p: &resvg::tiny_skia::PremultipliedColorU8) -> bool {
    p.alpha() > 128 && (p.red() as u32 + p.green() as u32 + p.blue() as u32) < 384
}

/// The text nodes of a parsed picture, depth first.
fn texts(g: &resvg::usvg::Group, out: &mut Vec<resvg::usvg::Rect>) {
    for n in g.children() {
        match n {
            resvg::usvg::Node::Group(g) => texts(g, out),
            resvg::usvg::Node::Text(t) => out.push(t.abs_bounding_box()),
            _ => {}
        }
    }
}

/// Renders `svg` with the system's fonts and checks what a person would see: the picture is
/// not empty, every `<text>` of the SVG (`labels` of them at least) became glyphs that leave
/// ink inside their own box, and nothing is drawn outside the canvas. Returns the rendered
/// picture.
fn see(svg: &str, labels: usize) -> resvg::tiny_skia::Pixmap {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_data(svg.as_bytes(), &options())
        .unwrap_or_else(|e| panic!("the SVG does not parse: {e}\n{svg}"));
    let size = tree.size().to_int_size();
    let (w, h) = (size.width() as f32, size.height() as f32);
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).expect("a non-empty size");
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    let ink = pixmap.pixels().iter().filter(|p| is_ink(p)).count();
    assert!(ink > 500, "the picture is nearly empty: {ink} drawn pixels");
    // Every label became text with glyphs (a font was found for it).
    let mut boxes = Vec::new();
    texts(tree.root(), &mut boxes);
    let in_svg = svg.matches("<text").count();
    assert!(
        in_svg >= labels,
        "{in_svg} <text> elements, expected {labels}"
    );
    assert_eq!(
        boxes.len(),
        in_svg,
        "some labels were dropped: no font for them?"
    );
    for b in &boxes {
        assert!(
            b.width() > 2.0 && b.height() > 4.0,
            "a label is laid out as {b:?}: no glyphs"
        );
        assert!(
            b.left() >= 0.0 && b.top() >= 0.0 && b.right() <= w && b.bottom() <= h,
            "a label at {b:?} is clipped by the {w}x{h} canvas"
        );
        let mut glyph_ink = 0;
        for y in b.top() as u32..(b.bottom().ceil() as u32).min(size.height()) {
            for x in b.left() as u32..(b.right().ceil() as u32).min(size.width()) {
                if is_ink(&pixmap.pixels()[(y * size.width() + x) as usize]) {
                    glyph_ink += 1;
                }
            }
        }
        let area = b.width() * b.height();
        assert!(
            glyph_ink as f32 > area * 0.05,
            "the label at {b:?} left {glyph_ink} dark pixels in its box of {area} px²"
        );
    }
    // Nothing outside the canvas.
    let all = tree.root().abs_stroke_bounding_box();
    assert!(
        all.left() >= -0.5
            && all.top() >= -0.5
            && all.right() <= w + 0.5
            && all.bottom() <= h + 0.5,
        "the drawing {all:?} reaches outside the {w}x{h} canvas"
    );
    pixmap
}

/// Renders `svg` and returns (width, height, pixels that are not background).
fn render(svg: &str) -> (u32, u32, usize) {
    use resvg::{tiny_skia, usvg};
    let tree = usvg::Tree::from_data(svg.as_bytes(), &options())
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

/// Writes `name.svg` of `spec` with `lps2lts` in `dir` and returns the SVG text.
fn draw(dir: &Path, name: &str, spec: &str, extra: &[&str]) -> Output {
    std::fs::write(dir.join(format!("{name}.mcrl2")), spec).unwrap();
    let o = muon(
        &[
            "mcrl22lps",
            &format!("{name}.mcrl2"),
            &format!("{name}.lps"),
        ],
        dir,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut args = vec!["lps2lts", "-q"];
    args.extend_from_slice(extra);
    let (lps, svg) = (format!("{name}.lps"), format!("{name}.svg"));
    args.extend_from_slice(&[&lps, &svg]);
    muon(&args, dir)
}

/// A 50-state ring with shortcuts: 50 states, 57 labelled transitions.
const RING50: &str = "act step: Nat; back, skip;\n\
    proc P(n: Nat) = (n < 49) -> step(n) . P(n + 1) + (n == 49) -> back . P(0)\n\
    + (n mod 7 == 3) -> skip . P(n div 2);\ninit P(0);\n";

#[test]
fn a_50_state_picture_shows_every_label_inside_the_canvas() {
    let d = tempfile::tempdir().unwrap();
    let o = draw(d.path(), "ring", RING50, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(d.path().join("ring.svg")).unwrap();
    for label in ["step(0)", "step(48)", "back", "skip"] {
        assert!(svg.contains(&format!(">{label}<")), "label {label} missing");
    }
    // 50 state numbers and 57 transition labels.
    let pixmap = see(&svg, 50 + 57);
    if let Ok(out) = std::env::var("MUON_SVG_PNG_DIR") {
        pixmap
            .save_png(Path::new(&out).join("ring50.png"))
            .expect("write the PNG");
        let top = resvg::tiny_skia::IntRect::from_xywh(0, 0, pixmap.width(), 800).unwrap();
        let part = pixmap.clone_rect(top).expect("the top of the picture");
        part.save_png(Path::new(&out).join("ring50-top.png"))
            .expect("write the PNG");
    }
}

#[test]
fn an_evidence_picture_shows_its_labels() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    std::fs::write(
        p.join("e.mcrl2"),
        "act a, b, c;\nproc P(n: Nat) = (n == 0) -> (a . P(1) + c . P(1)) + (n == 1) -> b . P(1);\ninit P(0);\n",
    )
    .unwrap();
    std::fs::write(p.join("cb.mcf"), "[c . true*][b]false\n").unwrap();
    let o = muon(
        &[
            "check",
            "-q",
            "e.mcrl2",
            "-f",
            "cb.mcf",
            "--evidence-file",
            "ev.svg",
        ],
        p,
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let svg = std::fs::read_to_string(p.join("ev.svg")).unwrap();
    let pixmap = see(&svg, 3);
    if let Ok(out) = std::env::var("MUON_SVG_PNG_DIR") {
        pixmap
            .save_png(Path::new(&out).join("evidence.png"))
            .expect("write the PNG");
    }
}

#[test]
fn graphviz_layout_pipes_dot_through_dot_and_says_when_it_is_missing() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    let spec =
        "act a, b;\nproc P(n: Nat) = (n < 2) -> a . P(n + 1) + (n == 2) -> b . P(0);\ninit P(0);\n";
    std::fs::write(p.join("s.mcrl2"), spec).unwrap();
    assert!(muon(&["mcrl22lps", "s.mcrl2", "s.lps"], p).status.success());
    // No `dot` on PATH: a clear error, exit 1, no file.
    let empty = p.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(["lps2lts", "--layout=graphviz", "s.lps", "s.svg"])
        .current_dir(p)
        .env("PATH", &empty)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("Graphviz") && err.contains("install"), "{err}");
    assert!(!p.join("s.svg").exists());
    // A stand-in `dot` that checks its arguments and input and answers with a picture.
    let bin = p.join("bin");
    std::fs::create_dir(&bin).unwrap();
    let fake = bin.join("dot");
    std::fs::write(
        &fake,
        "#!/bin/sh\n[ \"$1\" = -Tsvg ] || exit 7\ngrep -q 'label=\"b\"' || exit 8\n\
         echo '<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>'\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(["lps2lts", "--layout=graphviz", "s.lps", "s.svg"])
        .current_dir(p)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = std::fs::read_to_string(p.join("s.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("width=\"10\""),
        "{svg}"
    );
}
