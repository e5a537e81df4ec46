//! The evidence of one formula on the report page: the evidence LTS as a picture (the whole
//! of it when it is small enough to draw, else the trace's states with the evidence's steps
//! out of them, else the trace alone) beside the trace as a step table (the changed
//! parameters as [`crate::evidence::text::shown_trace`] computes them for the text trace), and
//! the data the page's script needs to mark a step's state and to show the specification
//! lines of the summand that made it ([`crate::lps::Origin::spans`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use serde_json::{json, Value};

use super::{count, esc, json_script};
use crate::check::Model;
use crate::evidence::text::{is_linear, shown_trace};
use crate::evidence::Evidence;
use crate::lps::Lps;
use crate::lts::svg::{tagged_svg, MAX_SVG_STATES, MAX_SVG_TRANSITIONS};
use crate::lts::{Lts, StateId, Transition};
use crate::source::{SourceFile, Span};

/// A span of more lines than this shows its first line and the lines around the step's
/// actions only.
const MAX_SPAN_LINES: usize = 24;
/// Lines shown around each line that names one of the step's actions, in a long span.
const CONTEXT: usize = 2;
/// The initial state's values are shown in its row up to this many parameters, else folded.
const FEW_PARAMETERS: usize = 4;

/// What of the evidence LTS is drawn, and how its states and transitions are numbered in
/// the picture.
struct Drawing {
    /// The SVG, or why there is none.
    svg: Result<String, String>,
    /// What the picture shows, in a sentence.
    caption: String,
    /// Per trace position (0 the initial state), its state's index in the picture.
    pos: Vec<Option<usize>>,
    /// Per step, the index of its transition in the picture.
    edge: Vec<Option<usize>>,
    /// Per trace position, the name of its state in the picture.
    names: Vec<String>,
}

/// The evidence section of one formula: picture, step table, source pane and data.
pub(super) fn section(
    model: &Model,
    ev: &Evidence,
    source: Option<&SourceFile>,
    lines: &mut BTreeSet<usize>,
) -> String {
    let shown = shown_trace(model.evidence_model(), ev);
    let drawing = draw(ev);
    let mut out = String::from("<div class=\"evidence\">");
    let _ = write!(
        out,
        "<div class=\"picture-pane\"><p class=\"caption\">{}</p>",
        esc(&drawing.caption)
    );
    match &drawing.svg {
        Ok(svg) => {
            // Inline SVG in HTML: the XML declaration before `<svg` has no place there.
            let svg = svg.find("<svg").map_or(svg.as_str(), |at| &svg[at..]);
            let _ = write!(out, "<div class=\"picture\">{svg}</div>");
        }
        Err(why) => {
            let _ = write!(out, "<p class=\"no-picture\">{}</p>", esc(why));
        }
    }
    out.push_str("</div><div class=\"steps-pane\"><div class=\"steps-scroll\">");
    out.push_str(&step_table(ev, &shown, &drawing));
    let hint = match model {
        Model::Lps(_) => "Select a step to see where the specification makes it.",
        Model::Lts { .. } => "Select a step to see which transition of the LTS it is.",
    };
    let _ = write!(
        out,
        "</div><div class=\"source-pane\"><p class=\"hint\">{hint}</p></div></div>"
    );
    let data = json!({
        "pos": drawing.pos,
        "edge": drawing.edge,
        "loop": ev.trace.loop_start,
        "steps": step_data(model, ev, source, lines),
    });
    out.push_str(&json_script("evidence-data", &data));
    out.push_str("</div>");
    out
}

/// The trace as a table: one row for the initial state, then one per step with its action
/// (and sum values), the parameters it changes and the state it reaches in the picture.
fn step_table(ev: &Evidence, shown: &crate::lts::trace::Trace, drawing: &Drawing) -> String {
    let t = &ev.trace;
    let mut out = String::from("<table class=\"steps\"><thead><tr>\
        <th>#</th><th>Action</th><th>Parameters changed by the step</th>\
        <th title=\"The state the step reaches, as numbered in the picture\">State</th></tr></thead><tbody>");
    let name = |i: usize| match drawing.pos.get(i).copied().flatten() {
        Some(_) => drawing.names[i].clone(),
        None => "—".to_string(),
    };
    let init = match &shown.initial {
        Some(vals) => shown
            .params
            .iter()
            .zip(vals)
            .map(|(p, v)| format!("{p} = {v}"))
            .collect::<Vec<_>>()
            .join(", "),
        None => String::new(),
    };
    // A few values are shown as they are, many folded away.
    let values = if shown.params.len() <= FEW_PARAMETERS {
        format!(": <code>{}</code>", esc(&init))
    } else {
        format!(
            "<details><summary>its {} parameter values</summary><code>{}</code></details>",
            shown.params.len(),
            esc(&init)
        )
    };
    let _ = write!(
        out,
        "<tr data-pos=\"0\"><td class=\"num\">0</td><td colspan=\"2\"><i>the initial state</i>{values}</td>\
         <td class=\"num\">{}</td></tr>",
        name(0)
    );
    for (i, s) in shown.steps.iter().enumerate() {
        let cycle = t.loop_start.is_some_and(|l| i >= l);
        let mark = if t.loop_start == Some(i) {
            " <span class=\"cycle-mark\" title=\"the cycle starts here: the steps from here on repeat forever\">↻</span>"
        } else {
            ""
        };
        let sums = if s.sums.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = s.sums.iter().map(|(v, e)| format!("{v} = {e}")).collect();
            format!(
                "<div class=\"sums\" title=\"values chosen for the summand's sum variables\">{}</div>",
                esc(&list.join(", "))
            )
        };
        let changes: Vec<String> = shown
            .changes(i)
            .iter()
            .map(|(p, a, b)| {
                format!(
                    "<div><code>{}: {} → {}</code></div>",
                    esc(p),
                    esc(a),
                    esc(b)
                )
            })
            .collect();
        let changes = if changes.is_empty() {
            "<i>none</i>".to_string()
        } else {
            changes.concat()
        };
        let _ = write!(
            out,
            "<tr data-pos=\"{}\"{}><td class=\"num\">{}{mark}</td><td><code>{}</code>{sums}</td><td>{changes}</td><td class=\"num\">{}</td></tr>",
            i + 1,
            if cycle { " class=\"in-cycle\"" } else { "" },
            i + 1,
            esc(&s.action),
            name(i + 1)
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// Per step, where it comes from: the summand with its origin's specification lines (an
/// LPS), or the transition of the LTS. The lines shown are added to `lines`.
fn step_data(
    model: &Model,
    ev: &Evidence,
    source: Option<&SourceFile>,
    lines: &mut BTreeSet<usize>,
) -> Value {
    match model {
        Model::Lps(lps) => {
            let mut summands: BTreeMap<usize, Value> = BTreeMap::new();
            let steps: Vec<Value> = ev
                .trace
                .steps
                .iter()
                .map(|s| {
                    summands
                        .entry(s.summand)
                        .or_insert_with(|| summand_data(lps, s.summand, source, lines));
                    json!({ "summand": s.summand })
                })
                .collect();
            let summands: serde_json::Map<String, Value> = summands
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            json!({ "kind": "lps", "steps": steps, "summands": summands })
        }
        Model::Lts { lts, .. } => {
            let steps: Vec<Value> = ev
                .trace
                .steps
                .iter()
                .map(|s| match lts.transitions.get(s.summand) {
                    Some(t) => json!({
                        "transition": s.summand,
                        "from": t.from.0,
                        "label": lts.label_text(t.label),
                        "to": t.to.0,
                    }),
                    None => json!({ "transition": s.summand }),
                })
                .collect();
            json!({ "kind": "lts", "steps": steps })
        }
    }
}

/// Summand `k`'s origin as the page shows it: a description, and per span of the process
/// equations that contributed its lines (all of them, or for a long equation its first line
/// and the lines around the ones naming the summand's actions), with those lines marked.
fn summand_data(
    lps: &Lps,
    k: usize,
    source: Option<&SourceFile>,
    lines: &mut BTreeSet<usize>,
) -> Value {
    let Some(summand) = lps.summands.get(k) else {
        return json!({ "what": format!("summand {k}"), "blocks": [] });
    };
    let origin = &summand.origin;
    let mut names: BTreeSet<String> = match &summand.action {
        crate::lps::SummandAction::Multi(acts) => acts.iter().map(|a| a.name.to_string()).collect(),
        crate::lps::SummandAction::Delta => BTreeSet::new(),
    };
    names.extend(communicated(&origin.description));
    let Some(src) = source else {
        return json!({ "what": origin.description, "blocks": [] });
    };
    let text: Vec<&str> = src.text.split('\n').collect();
    let mut blocks = Vec::new();
    let mut hits = Vec::new();
    for span in &origin.spans {
        let (first, last) = span_lines(*span, &src.text);
        let marked: Vec<usize> = (first..=last)
            .filter(|&l| text.get(l - 1).is_some_and(|t| names_any(t, &names)))
            .collect();
        let shown: BTreeSet<usize> =
            if last + 1 - first <= MAX_SPAN_LINES {
                (first..=last).collect()
            } else if marked.is_empty() {
                (first..first + MAX_SPAN_LINES).collect()
            } else {
                std::iter::once(first)
                    .chain(marked.iter().flat_map(|&l| {
                        l.saturating_sub(CONTEXT).max(first)..=(l + CONTEXT).min(last)
                    }))
                    .collect()
            };
        lines.extend(shown.iter().copied());
        hits.extend(marked);
        blocks.push(json!({ "from": first, "to": last, "shown": shown }));
    }
    json!({
        "what": origin.description,
        "blocks": blocks,
        "hit": hits,
    })
}

/// The first and last line (1-based) of `span` in `text`.
fn span_lines(span: Span, text: &str) -> (usize, usize) {
    let first = span.line_col(text).0;
    let end = span.end.max(span.start + 1) - 1;
    let last = Span { start: end, end }.line_col(text).0;
    (first, last.max(first))
}

/// The actions a summand's description says were communicated (`(comm a|b -> c)`): the
/// specification writes those, not the result.
fn communicated(description: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = description;
    while let Some(at) = rest.find("(comm ") {
        rest = &rest[at + "(comm ".len()..];
        let end = rest.find(')').unwrap_or(rest.len());
        let inner = &rest[..end];
        for part in inner.split(',') {
            let lhs = part.split("->").next().unwrap_or("");
            out.extend(
                lhs.split('|')
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty()),
            );
        }
        rest = &rest[end..];
    }
    out
}

/// Whether `line` names one of `names` as a whole identifier (comments left out).
fn names_any(line: &str, names: &BTreeSet<String>) -> bool {
    let code = line.split('%').next().unwrap_or("");
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '\'';
    code.split(|c: char| !is_ident(c))
        .any(|w| !w.is_empty() && names.contains(w))
}

/// What of `ev`'s LTS to draw (see the module docs).
fn draw(ev: &Evidence) -> Drawing {
    let lts = &ev.lts;
    let ts = &ev.trace_states;
    let n = ev.trace.steps.len();
    let at = |i: usize| ts.get(i).copied();
    // The evidence transition of each step: from its state to the next, with its label.
    let wanted: BTreeSet<(u32, u32)> = (0..n)
        .filter_map(|i| Some((at(i)?.0, at(i + 1)?.0)))
        .collect();
    let mut candidates: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for (k, t) in lts.transitions.iter().enumerate() {
        if wanted.contains(&(t.from.0, t.to.0)) {
            candidates.entry((t.from.0, t.to.0)).or_default().push(k);
        }
    }
    let trace_edges: Vec<Option<usize>> = (0..n)
        .map(|i| {
            let ks = candidates.get(&(at(i)?.0, at(i + 1)?.0))?;
            let label = &ev.trace.steps[i].action;
            ks.iter()
                .copied()
                .find(|&k| lts.label_text(lts.transitions[k].label) == label)
                .or(ks.first().copied())
        })
        .collect();
    // States are named by their number in the model where it has numbers (an LTS), else by
    // their number in the evidence.
    let name = |s: u32| match ev.model_states.get(s as usize) {
        Some(m) => m.to_string(),
        None => s.to_string(),
    };
    let names: Vec<String> = (0..=n)
        .map(|i| at(i).map_or_else(String::new, |s| name(s.0)))
        .collect();
    let size = format!(
        "{} state{} and {} transition{}",
        count(u64::from(lts.num_states)),
        if lts.num_states == 1 { "" } else { "s" },
        count(lts.transitions.len() as u64),
        if lts.transitions.len() == 1 { "" } else { "s" }
    );
    let branching = if is_linear(ev) {
        ""
    } else {
        " Where the formula speaks of every step (a box modality), the evidence holds all \
         of them; the trace is one path through it."
    };
    let small = |states: usize, transitions: usize| {
        states <= MAX_SVG_STATES && transitions <= MAX_SVG_TRANSITIONS
    };
    if small(lts.num_states as usize, lts.transitions.len()) {
        let all: Vec<String> = (0..lts.num_states).map(name).collect();
        let caption = if branching.is_empty() {
            format!("The evidence is the trace itself: {size}.")
        } else {
            format!("The whole evidence: {size}.{branching}")
        };
        return Drawing {
            svg: tagged_svg(lts, &all).map_err(|e| e.to_string()),
            caption,
            pos: (0..=n).map(|i| at(i).map(StateId::index)).collect(),
            edge: trace_edges,
            names,
        };
    }
    let too_many = format!(
        "The evidence has {size}, too many to draw (at most {MAX_SVG_STATES} states and \
         {MAX_SVG_TRANSITIONS} transitions)"
    );
    // The trace's states, and the evidence's transitions out of them.
    let on_trace: BTreeSet<u32> = ts.iter().map(|s| s.0).collect();
    let mut branches: Vec<usize> = lts
        .transitions
        .iter()
        .enumerate()
        .filter(|(_, t)| on_trace.contains(&t.from.0))
        .map(|(k, _)| k)
        .collect();
    let mut reached: BTreeSet<u32> = on_trace.clone();
    reached.extend(branches.iter().map(|&k| lts.transitions[k].to.0));
    let (caption, keep) = if small(reached.len(), branches.len()) {
        (
            format!(
                "{too_many}: drawn are the trace's states and every step of the evidence out \
                 of them.{branching}"
            ),
            std::mem::take(&mut branches),
        )
    } else {
        let mut only: Vec<usize> = trace_edges.iter().flatten().copied().collect();
        only.sort_unstable();
        only.dedup();
        if !small(on_trace.len(), only.len()) {
            return Drawing {
                svg: Err(format!(
                    "{too_many}, and so does the trace ({} states): the table lists its steps.",
                    count(on_trace.len() as u64)
                )),
                caption: String::new(),
                pos: vec![None; n + 1],
                edge: vec![None; n],
                names,
            };
        }
        (format!("{too_many}: drawn is the trace alone."), only)
    };
    // The part drawn, its states renumbered in order of first appearance (the initial state
    // first) and named by their numbers in the evidence.
    let mut index: HashMap<u32, usize> = HashMap::new();
    let mut order: Vec<u32> = Vec::new();
    let mut number = |s: u32, index: &mut HashMap<u32, usize>| -> usize {
        *index.entry(s).or_insert_with(|| {
            order.push(s);
            order.len() - 1
        })
    };
    for s in ts {
        number(s.0, &mut index);
    }
    let mut part_index: HashMap<usize, usize> = HashMap::new();
    let mut transitions = Vec::with_capacity(keep.len());
    for &k in &keep {
        let t = lts.transitions[k];
        let from = number(t.from.0, &mut index);
        let to = number(t.to.0, &mut index);
        part_index.insert(k, transitions.len());
        transitions.push(Transition {
            from: StateId(from as u32),
            label: t.label,
            to: StateId(to as u32),
        });
    }
    let part = Lts {
        initial: StateId(0),
        num_states: order.len() as u32,
        labels: lts.labels.clone(),
        transitions,
    };
    let shown: Vec<String> = order.iter().map(|&s| name(s)).collect();
    Drawing {
        svg: tagged_svg(&part, &shown).map_err(|e| e.to_string()),
        caption,
        pos: (0..=n)
            .map(|i| at(i).and_then(|s| index.get(&s.0).copied()))
            .collect(),
        edge: trace_edges
            .iter()
            .map(|k| k.and_then(|k| part_index.get(&k).copied()))
            .collect(),
        names,
    }
}
