//! SVG pictures of small LTSs, laid out and drawn in-process (the `layout-rs` crate), so a
//! picture needs no external program. Layout is super-linear in the size of the graph, so
//! pictures are refused above [`MAX_SVG_STATES`] states or [`MAX_SVG_TRANSITIONS`]
//! transitions with a message that says how to get a smaller LTS (or a `.dot` file for
//! Graphviz instead).

use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::geometry::Point;
use layout::core::style::StyleAttr;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;

use super::Lts;

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
     {MAX_SVG_STATES} states and {MAX_SVG_TRANSITIONS} transitions): write `.dot` and draw it \
     with Graphviz (`dot -Tsvg`), or reduce the LTS first",
    if *.at_least { "at least " } else { "" }
)]
pub struct TooLarge {
    /// The LTS's states.
    pub states: usize,
    /// The LTS's transitions.
    pub transitions: usize,
    /// Whether exploration stopped early, so that the LTS has more than these.
    pub at_least: bool,
}

/// Whether `lts` is small enough to draw.
pub fn drawable(lts: &Lts) -> Result<(), TooLarge> {
    let (states, transitions) = (lts.num_states as usize, lts.transitions.len());
    if states > MAX_SVG_STATES || transitions > MAX_SVG_TRANSITIONS {
        return Err(TooLarge {
            states,
            transitions,
            at_least: false,
        });
    }
    Ok(())
}

/// The SVG picture of `lts`: states are circles named by their number (the initial state
/// doubly outlined), transitions arrows labelled with their multi-action.
pub fn svg_string(lts: &Lts) -> Result<String, TooLarge> {
    drawable(lts)?;
    let states = lts.num_states as usize;
    let mut vg = VisualGraph::new(Orientation::TopToBottom);
    let nodes: Vec<_> = (0..lts.num_states)
        .map(|s| {
            let name = s.to_string();
            let shape = if s == lts.initial.0 {
                ShapeKind::new_double_circle(&name)
            } else {
                ShapeKind::new_circle(&name)
            };
            vg.add_node(Element::create(
                shape,
                StyleAttr::simple(),
                Orientation::TopToBottom,
                Point::new(40., 40.),
            ))
        })
        .collect();
    for t in &lts.transitions {
        let arrow = Arrow::simple(lts.label_text(t.label));
        vg.add_edge(arrow, nodes[t.from.0 as usize], nodes[t.to.0 as usize]);
    }
    let mut svg = SVGWriter::new();
    vg.do_it(false, states > OPTIMISE_UP_TO, false, &mut svg);
    Ok(with_margin(&svg.finalize()))
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
