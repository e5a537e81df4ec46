//! Evidence for people and tools: the trace as text (one step per line, the parameters that
//! changed by name, a lasso's cycle marked) and as JSON, and [`write_evidence`], which
//! writes the evidence in the format an output file's extension names.

use std::fmt::Write as _;
use std::path::Path;

use super::{Evidence, Model};
use crate::data::ir::DataExpr;
use crate::data::print::data_expr_to_string;

/// The mark of the step a lasso's cycle starts at.
const CYCLE: &str = "↻";

/// A state as `name = value` pairs: `n = 1, q = [2]`.
fn state_text(names: &[String], values: &[DataExpr]) -> String {
    names
        .iter()
        .zip(values)
        .map(|(p, v)| format!("{p} = {}", data_expr_to_string(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The parameters step `i` of the trace changes, as `name: old → new`.
fn changes(names: &[String], ev: &Evidence, i: usize) -> Vec<String> {
    let step = &ev.trace.steps[i];
    names
        .iter()
        .zip(step.from.iter().zip(&step.to))
        .filter(|(_, (a, b))| a != b)
        .map(|(p, (a, b))| {
            format!(
                "{p}: {} → {}",
                data_expr_to_string(a),
                data_expr_to_string(b)
            )
        })
        .collect()
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
/// parameters it changes and its sum variables' values.
pub fn trace_text<'a>(model: impl Into<Model<'a>>, ev: &Evidence) -> String {
    let model = model.into();
    let names = model.param_names();
    let t = &ev.trace;
    let n = t.steps.len();
    let mut head = format!("{} ({n} step{}", ev.kind(), if n == 1 { "" } else { "s" });
    if t.loop_start.is_some() {
        let _ = write!(head, ", a lasso: the steps from {CYCLE} on repeat forever");
    }
    let linear = is_linear(ev);
    if !linear {
        let _ = write!(
            head,
            "; the evidence branches: {} states, {} transitions",
            ev.lts.num_states,
            ev.lts.transitions.len()
        );
    }
    let width = t
        .steps
        .iter()
        .map(|s| s.action.chars().count())
        .max()
        .unwrap_or(0);
    let num = n.to_string().len();
    let mut out = format!("{head}):\n");
    let init = if names.is_empty() {
        "(no parameters)".to_string()
    } else {
        state_text(&names, &t.initial)
    };
    let _ = writeln!(out, "  initial state: {init}");
    for (i, s) in t.steps.iter().enumerate() {
        let mark = if t.loop_start == Some(i) { CYCLE } else { " " };
        let mut rest = changes(&names, ev, i).join(", ");
        if rest.is_empty() {
            rest = "(no parameter changes)".to_string();
        }
        let sums: Vec<String> = model
            .model_sums(s)
            .into_iter()
            .map(|(v, e)| format!("{v} = {}", data_expr_to_string(e)))
            .collect();
        if !sums.is_empty() {
            let _ = write!(rest, "   [{}]", sums.join(", "));
        }
        let _ = writeln!(
            out,
            "  {:>num$} {mark}  {:<width$}   {rest}",
            i + 1,
            s.action
        );
    }
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

/// The trace as JSON for tools: the verdict, the parameter names, the initial state, per
/// step its action, summand, sum values, state reached and changes, the lasso's start, and
/// the size of the evidence LTS.
pub fn trace_json<'a>(model: impl Into<Model<'a>>, ev: &Evidence) -> serde_json::Value {
    use serde_json::{json, Map, Value};
    let model = model.into();
    let names = model.param_names();
    let show = |vals: &[crate::data::ir::DataExpr]| -> Vec<String> {
        vals.iter().map(data_expr_to_string).collect()
    };
    let steps: Vec<Value> = ev
        .trace
        .steps
        .iter()
        .map(|s| {
            let mut changed = Map::new();
            for (p, (a, b)) in names.iter().zip(s.from.iter().zip(&s.to)) {
                if a != b {
                    changed.insert(
                        p.clone(),
                        json!([data_expr_to_string(a), data_expr_to_string(b)]),
                    );
                }
            }
            let sums: Map<String, Value> = model
                .model_sums(s)
                .into_iter()
                .map(|(v, e)| (v.to_string(), Value::from(data_expr_to_string(e))))
                .collect();
            let mut step = json!({
                "action": s.action,
                "sum": sums,
                "state": show(&s.to),
                "changed": changed,
            });
            step[model.step_kind()] = Value::from(s.summand);
            step
        })
        .collect();
    json!({
        "verdict": ev.value,
        "kind": ev.kind(),
        "parameters": names,
        "initial": show(&ev.trace.initial),
        "steps": steps,
        "loop_start": ev.trace.loop_start,
        "linear": is_linear(ev),
        "evidence_lts": { "states": ev.lts.num_states, "transitions": ev.lts.transitions.len() },
    })
}

/// Writes the evidence to `path` in the format its extension names: `.json` (the trace,
/// [`trace_json`]), `.txt` (the trace, [`trace_text`]), or an LTS format (`.aut`, `.dot`,
/// `.svg`, `.lts`) for the evidence LTS.
pub fn write_evidence<'a>(
    model: impl Into<Model<'a>>,
    ev: &Evidence,
    path: &Path,
) -> miette::Result<()> {
    let model = model.into();
    let text = match path.extension().and_then(|e| e.to_str()) {
        Some("json") => format!("{:#}\n", trace_json(model, ev)),
        Some("txt") => trace_text(model, ev),
        _ => return Ok(crate::lts::generate::write_lts(&ev.lts, path)?),
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
