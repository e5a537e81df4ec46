//! SVG pictures of small LTSs, laid out and drawn in-process (the `layout-rs` crate), so a
//! picture needs no external program. Layout is super-linear in the size of the graph, so
//! pictures are refused above [`MAX_SVG_STATES`] states or [`MAX_SVG_TRANSITIONS`]
//! transitions with a message that says how to get a smaller LTS (or a `.dot` file for
//! Graphviz instead).
//!
//! With `--layout=graphviz` ([`set_layout`]) the picture is Graphviz's instead: the LTS's DOT
//! text ([`super::dot`]) piped through `dot -Tsvg`, for LTSs up to [`MAX_GRAPHVIZ_STATES`]
//! states; a missing or failing `dot` is an error that says so.

use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::geometry::Point;
use layout::core::style::StyleAttr;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use super::Lts;

/// Who lays out SVG pictures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Layout {
    /// In-process (no external program; small LTSs).
    #[default]
    InProcess,
    /// Graphviz's `dot -Tsvg` (must be installed; larger LTSs).
    Graphviz,
}

/// Whether Graphviz lays out the pictures of this run.
static GRAPHVIZ: AtomicBool = AtomicBool::new(false);

/// Chooses who lays out the SVG pictures of this run (the command line's `--layout`).
pub fn set_layout(layout: Layout) {
    GRAPHVIZ.store(layout == Layout::Graphviz, Ordering::Relaxed);
}

/// Who lays out the SVG pictures of this run.
pub fn layout() -> Layout {
    if GRAPHVIZ.load(Ordering::Relaxed) {
        Layout::Graphviz
    } else {
        Layout::InProcess
    }
}

/// The most states Graphviz is asked to draw (its layout takes minutes beyond).
pub const MAX_GRAPHVIZ_STATES: usize = 5000;
/// The most transitions Graphviz is asked to draw.
pub const MAX_GRAPHVIZ_TRANSITIONS: usize = 20000;

/// The most states and transitions drawn with the current [`layout()`].
pub fn max_drawn() -> (usize, usize) {
    match layout() {
        Layout::InProcess => (MAX_SVG_STATES, MAX_SVG_TRANSITIONS),
        Layout::Graphviz => (MAX_GRAPHVIZ_STATES, MAX_GRAPHVIZ_TRANSITIONS),
    }
}

/// Why a picture was not drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SvgError {
    /// Too large for the layout.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// `--layout=graphviz`, but `dot` could not be run.
    #[error(
        "--layout=graphviz needs Graphviz's `dot` program, which could not be run ({0}): \
         install Graphviz (e.g. `apt-get install graphviz`) or drop --layout=graphviz to lay \
         the picture out in-process"
    )]
    NoGraphviz(String),
    /// `dot` ran but failed.
    #[error("Graphviz's `dot -Tsvg` failed: {0}")]
    GraphvizFailed(String),
}

/// The most states drawn as SVG (about a second of layout at this size).
pub const MAX_SVG_STATES: usize = 60;
/// The most transitions drawn as SVG.
pub const MAX_SVG_TRANSITIONS: usize = 200;
/// Above this many states the layout skips its edge-crossing optimisation, whose cost
/// grows fastest.
const OPTIMISE_UP_TO: usize = 30;

/// Why an LTS was not drawn.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}{states} states and {transitions} transitions are too many to draw as SVG (at most \
     {} states and {} transitions{}): {}",
    if *.at_least { "at least " } else { "" },
    max_drawn().0,
    max_drawn().1,
    if layout() == Layout::Graphviz { " with Graphviz" } else { " in-process" },
    if layout() == Layout::Graphviz {
        "reduce the LTS first (e.g. `muon ltsconvert -e branching-bisim`)"
    } else {
        "add --layout=graphviz (Graphviz's `dot` draws larger pictures), write `.dot` and \
         draw it with Graphviz (`dot -Tsvg`), or reduce the LTS first"
    }
)]
pub struct TooLarge {
    /// The LTS's states.
    pub states: usize,
    /// The LTS's transitions.
    pub transitions: usize,
    /// Whether exploration stopped early, so that the LTS has more than these.
    pub at_least: bool,
}

/// Whether `lts` is small enough to draw with the current [`layout()`].
pub fn drawable(lts: &Lts) -> Result<(), TooLarge> {
    let (states, transitions) = (lts.num_states as usize, lts.transitions.len());
    let (max_states, max_transitions) = max_drawn();
    if states > max_states || transitions > max_transitions {
        return Err(TooLarge {
            states,
            transitions,
            at_least: false,
        });
    }
    Ok(())
}

/// The SVG picture of `lts`: states are circles named by their number (the initial state
/// doubly outlined), transitions arrows labelled with their multi-action; laid out as
/// [`layout()`] says.
pub fn svg_string(lts: &Lts) -> Result<String, SvgError> {
    drawable(lts)?;
    match layout() {
        Layout::InProcess => Ok(in_process(lts)),
        Layout::Graphviz => graphviz(lts),
    }
}

/// The picture as Graphviz's `dot -Tsvg` draws the LTS's DOT text.
fn graphviz(lts: &Lts) -> Result<String, SvgError> {
    let mut text = Vec::new();
    super::dot::write_dot(lts, "lts", &mut text)
        .map_err(|e| SvgError::GraphvizFailed(e.to_string()))?;
    let mut child = std::process::Command::new("dot")
        .arg("-Tsvg")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| SvgError::NoGraphviz(e.to_string()))?;
    // Written from a thread: `dot` may fill its output pipe before it has read all input.
    let mut stdin = child.stdin.take().expect("stdin was piped");
    let writer = std::thread::spawn(move || stdin.write_all(&text));
    let out = child
        .wait_with_output()
        .map_err(|e| SvgError::GraphvizFailed(e.to_string()))?;
    let written = writer.join();
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(SvgError::GraphvizFailed(format!(
            "{} {}",
            out.status,
            err.trim()
        )));
    }
    if let Ok(Err(e)) = written {
        return Err(SvgError::GraphvizFailed(e.to_string()));
    }
    String::from_utf8(out.stdout).map_err(|e| SvgError::GraphvizFailed(e.to_string()))
}

/// The picture laid out in-process.
fn in_process(lts: &Lts) -> String {
    let names: Vec<String> = (0..lts.num_states).map(|s| s.to_string()).collect();
    laid_out(lts, &names, false)
}

/// The picture of a small LTS for a page that scripts it: laid out in-process whatever
/// [`layout()`] says, the states named by `names` (one per state) and every state's and
/// transition's shapes grouped and tagged with its index, `<g class="lts-state"
/// data-state="I" data-name="NAME">` and `<g class="lts-transition" data-transition="K">`
/// (`K` indexes [`Lts::transitions`]), so that a script can find and mark them.
pub fn tagged_svg(lts: &Lts, names: &[String]) -> Result<String, TooLarge> {
    let (states, transitions) = (lts.num_states as usize, lts.transitions.len());
    if states > MAX_SVG_STATES || transitions > MAX_SVG_TRANSITIONS {
        return Err(TooLarge {
            states,
            transitions,
            at_least: false,
        });
    }
    assert_eq!(names.len(), states, "one name per state");
    Ok(laid_out(lts, names, true))
}

/// The picture laid out in-process, the states named by `names`, the shapes tagged for
/// scripts when `tagged` ([`tagged_svg`]).
fn laid_out(lts: &Lts, names: &[String], tagged: bool) -> String {
    let states = lts.num_states as usize;
    let mut vg = VisualGraph::new(Orientation::TopToBottom);
    let nodes: Vec<_> = (0..lts.num_states)
        .map(|s| {
            let name = &names[s as usize];
            let shape = if s == lts.initial.0 {
                ShapeKind::new_double_circle(name)
            } else {
                ShapeKind::new_circle(name)
            };
            let size = Point::new(40., 40.);
            let look = StyleAttr::simple();
            vg.add_node(if tagged {
                let tag = format!(
                    "class=\"lts-state\" data-state=\"{s}\" data-name=\"{}\"",
                    attribute(name)
                );
                Element::create_with_properties(shape, look, Orientation::TopToBottom, size, tag)
            } else {
                Element::create(shape, look, Orientation::TopToBottom, size)
            })
        })
        .collect();
    for (k, t) in lts.transitions.iter().enumerate() {
        let label = lts.label_text(t.label);
        let arrow = if tagged {
            let tag = format!("class=\"lts-transition\" data-transition=\"{k}\"");
            Arrow::simple_with_properties(label, tag)
        } else {
            Arrow::simple(label)
        };
        vg.add_edge(arrow, nodes[t.from.0 as usize], nodes[t.to.0 as usize]);
    }
    let mut svg = SVGWriter::new();
    vg.do_it(false, states > OPTIMISE_UP_TO, false, &mut svg);
    tidy(&with_margin(&svg.finalize()))
}

/// The layout's SVG made readable everywhere: its font, `Times, serif`, is missing on many
/// systems (a renderer without it drew no labels at all), so labels ask for the common sans
/// fonts, with a white halo (a stroke painted under the glyphs) so that a label stays legible
/// where an edge runs through it; and the empty `<textPath>` it writes on every edge is
/// dropped.
fn tidy(svg: &str) -> String {
    let mut out = svg.replace(
        "font-family: Times, serif;",
        "font-family: 'DejaVu Sans', Helvetica, Arial, sans-serif; paint-order: stroke; \
         stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round;",
    );
    const CLOSE: &str = "</textPath></text>";
    let mut from = 0;
    while let Some(at) = out[from..].find("<text><textPath ") {
        let start = from + at;
        let Some(len) = out[start..].find(CLOSE) else {
            break;
        };
        // Only empty ones: the opening tag directly followed by the closing one.
        if out[start..start + len].ends_with('>') {
            out.replace_range(start..start + len + CLOSE.len(), "");
            from = start;
        } else {
            from = start + len;
        }
    }
    out
}

/// `text` as the value of an XML attribute in double quotes.
fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Room around the drawing: the layout sizes the picture by its nodes and edges, so a
/// label on the outermost edge was cut off at the border (seen on a rendered 50-state LTS).
const MARGIN: f64 = 60.0;

/// `svg` with [`MARGIN`] added on every side (its `width`, `height` and `viewBox` widened);
/// unchanged if its header is not the one the layout writes.
fn with_margin(svg: &str) -> String {
    let attr = |name: &str| -> Option<f64> {
        let start = svg.find(&format!(" {name}=\""))? + name.len() + 3;
        let end = start + svg[start..].find('"')?;
        svg[start..end].parse().ok()
    };
    let (Some(w), Some(h)) = (attr("width"), attr("height")) else {
        return svg.to_string();
    };
    let old = format!("width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\"");
    let new = format!(
        "width=\"{}\" height=\"{}\" viewBox=\"{} {} {} {}\"",
        w + 2.0 * MARGIN,
        h + 2.0 * MARGIN,
        -MARGIN,
        -MARGIN,
        w + 2.0 * MARGIN,
        h + 2.0 * MARGIN
    );
    svg.replacen(&old, &new, 1)
}
