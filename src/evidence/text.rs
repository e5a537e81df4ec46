//! Evidence for people and tools: the trace as text (one step per line, the parameters that
//! changed by name, a lasso's cycle marked) and as JSON, both printed by the one trace
//! renderer ([`crate::lts::trace`]) with what only evidence has (verdict, branches, summand
//! numbers) around it, and [`write_evidence`], which writes the evidence in the format an
//! output file's extension names (a linear trace's `.txt` is a trace file `tracepp` reads).

use std::fmt::Write as _;
use std::path::Path;

use super::{Evidence, Model};
use crate::data::ir::DataExpr;
use crate::data::print::data_expr_to_string;
use crate::lts::trace::{Trace, TraceFormat, TraceStep};

/// The evidence's trace as [`crate::lts::trace::Trace`], the one form every trace is printed
/// from: states and sum values printed by [`data_expr_to_string`], sum variables as the
/// model names them ([`Model::model_sums`]).
pub fn shown_trace(model: Model<'_>, ev: &Evidence) -> Trace {
    let show = |vals: &[DataExpr]| vals.iter().map(data_expr_to_string).collect();
    Trace {
        params: model.param_names(),
        initial: Some(show(&ev.trace.initial)),
        steps: ev
            .trace
            .steps
            .iter()
            .map(|s| TraceStep {
                action: s.action.clone(),
                sums: model
                    .model_sums(s)
                    .into_iter()
                    .map(|(v, e)| (v.to_string(), data_expr_to_string(e)))
                    .collect(),
                state: Some(show(&s.to)),
            })
            .collect(),
        loop_start: ev.trace.loop_start,
    }
}

/// Whether the evidence LTS is one path or lasso (at most one transition per state).
pub fn is_linear(ev: &Evidence) -> bool {
    let mut out = vec![0u8; ev.lts.num_states as usize];
    ev.lts.transitions.iter().all(|t| {
        let c = &mut out[t.from.index()];
        *c += 1;
        *c <= 1
    })
}

/// The trace as text for people: a heading (kind, length, lasso, whether the full evidence
/// branches), the initial state, then one line per step with its multi-action, the
/// parameters it changes and its sum variables' values ([`Trace::body_text`]), then the
/// other branches of evidence that branches.
pub fn trace_text<'a>(model: impl Into<Model<'a>>, ev: &Evidence) -> String {
    let trace = shown_trace(model.into(), ev);
    let linear = is_linear(ev);
    let extra = if linear {
        String::new()
    } else {
        format!(
            "; the evidence branches: {} states, {} transitions",
            ev.lts.num_states,
            ev.lts.transitions.len()
        )
    };
    let mut out = format!(
        "{}\n{}",
        trace.heading(ev.kind(), &extra),
        trace.body_text()
    );
    if !linear {
        branches(ev, &mut out);
    }
    out
}

/// At most this many other branches are listed per state.
const MAX_BRANCHES: usize = 8;

/// For evidence that branches: per state of the trace, the evidence transitions that leave
/// it besides the trace's own (every one of them is part of the proof).
fn branches(ev: &Evidence, out: &mut String) {
    let t = &ev.trace;
    let at = |i: usize| ev.trace_states.get(i).map(|s| s.index() as u32);
    // The transitions leaving the trace's states, in one pass over the evidence LTS.
    let mut leaving: std::collections::HashMap<u32, Vec<&crate::lts::Transition>> =
        (0..=t.steps.len())
            .filter_map(|i| at(i).map(|s| (s, Vec::new())))
            .collect();
    for tr in &ev.lts.transitions {
        if let Some(v) = leaving.get_mut(&(tr.from.index() as u32)) {
            v.push(tr);
        }
    }
    let mut listed = std::collections::HashSet::new();
    for i in 0..=t.steps.len() {
        let Some(here) = at(i) else {
            continue;
        };
        if !listed.insert(here) {
            continue;
        }
        let taken = t.steps.get(i).map(|s| (s.action.as_str(), at(i + 1)));
        let mut others: Vec<&str> = leaving[&here]
            .iter()
            .map(|tr| {
                (
                    ev.lts.labels[tr.label.index()].text(),
                    Some(tr.to.index() as u32),
                )
            })
            .filter(|&tr| Some(tr) != taken)
            .map(|(l, _)| l)
            .collect();
        others.sort_unstable();
        others.dedup();
        if others.is_empty() {
            continue;
        }
        let more = others.len().saturating_sub(MAX_BRANCHES);
        others.truncate(MAX_BRANCHES);
        let mut list = others.join(", ");
        if more > 0 {
            let _ = write!(list, " and {more} more");
        }
        let at = match i {
            0 => "the initial state".to_string(),
            _ => format!("the state after step {i}"),
        };
        let _ = writeln!(out, "  the evidence also takes, from {at}: {list}");
    }
}

/// The trace as JSON for tools: [`Trace::to_json`] (the parameter names, the initial state,
/// per step its action, sum values, state reached and changes, the lasso's start) with the
/// verdict, each step's summand (or LTS transition), and the size of the evidence LTS.
pub fn trace_json<'a>(model: impl Into<Model<'a>>, ev: &Evidence) -> serde_json::Value {
    use serde_json::{json, Value};
    let model = model.into();
    let mut out = shown_trace(model, ev).to_json();
    if let Some(steps) = out["steps"].as_array_mut() {
        for (step, s) in steps.iter_mut().zip(&ev.trace.steps) {
            step[model.step_kind()] = Value::from(s.summand);
        }
    }
    out["verdict"] = Value::from(ev.value);
    out["kind"] = Value::from(ev.kind());
    out["linear"] = Value::from(is_linear(ev));
    out["evidence_lts"] =
        json!({ "states": ev.lts.num_states, "transitions": ev.lts.transitions.len() });
    out
}

/// The evidence's `.txt` file. Linear evidence (a trace or a lasso) is written as a trace
/// file ([`TraceFormat::File`]: [`trace_text`] behind the trace file's header and the
/// parameter names, as `lps2lts -t` writes traces), so `tracepp` reads it back; evidence
/// that branches is not one trace, so its file is the text for people, [`trace_text`] with
/// the other branches (its trace is in the `.json` beside it).
pub fn trace_file_text<'a>(model: impl Into<Model<'a>>, ev: &Evidence) -> String {
    let model = model.into();
    if is_linear(ev) {
        shown_trace(model, ev).render(TraceFormat::File, ev.kind())
    } else {
        trace_text(model, ev)
    }
}

/// The extension of `path` when it names a trace format of [`write_evidence`] (`json`,
/// `txt`); any other names an LTS format or none.
fn trace_extension(path: &Path) -> Option<&str> {
    path.extension()
        .and_then(|e| e.to_str())
        .filter(|e| matches!(*e, "json" | "txt"))
}

/// Whether [`write_evidence`] can tell a format from `path`'s extension, so that a caller
/// can refuse a file name before it checks anything.
pub fn evidence_format_known(path: &Path) -> bool {
    trace_extension(path).is_some() || crate::lts::generate::OutputFormat::from_path(path).is_ok()
}

/// Writes the evidence to `path` in the format its extension names: `.json` (the trace,
/// [`trace_json`]), `.txt` (the trace, [`trace_file_text`]), or an LTS format (`.aut`,
/// `.dot`, `.svg`, `.lts`) for the evidence LTS.
pub fn write_evidence<'a>(
    model: impl Into<Model<'a>>,
    ev: &Evidence,
    path: &Path,
) -> miette::Result<()> {
    let model = model.into();
    let text = match trace_extension(path) {
        Some("json") => format!("{:#}\n", trace_json(model, ev)),
        Some(_) => trace_file_text(model, ev),
        None => return Ok(crate::lts::generate::write_lts(&ev.lts, path)?),
    };
    crate::artifact::write_output(Some(path), |w| {
        w.write_all(text.as_bytes())
            .map_err(|source| crate::artifact::ArtifactError::Write {
                path: path.display().to_string(),
                source,
            })
    })?;
    Ok(())
}
