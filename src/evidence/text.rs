//! Evidence for people and tools: the trace as text (one step per line, the parameters that
//! changed by name, a lasso's cycle marked) and as JSON, and [`write_evidence`], which
//! writes the evidence in the format an output file's extension names.

use std::fmt::Write as _;
use std::path::Path;

use super::check::state_text;
use super::Evidence;
use crate::data::print::data_expr_to_string;
use crate::lps::Lps;

/// The mark of the step a lasso's cycle starts at.
const CYCLE: &str = "↻";

/// The parameters step `i` of the trace changes, as `name: old → new`.
fn changes(lps: &Lps, ev: &Evidence, i: usize) -> Vec<String> {
    let step = &ev.trace.steps[i];
    lps.params
        .iter()
        .zip(step.from.iter().zip(&step.to))
        .filter(|(_, (a, b))| a != b)
        .map(|(p, (a, b))| {
            format!(
                "{}: {} → {}",
                p.name,
                data_expr_to_string(a),
                data_expr_to_string(b)
            )
        })
        .collect()
}

/// The sum values of a step that mean something in the model: those of the lineariser's
/// selectors ([`crate::lps::Origin::synthetic`]) only say which clustered alternative fired,
/// which the action and the changes already show.
fn shown_sums<'a>(
    lps: &'a Lps,
    step: &'a super::Step,
) -> impl Iterator<Item = &'a (crate::data::ir::Var, crate::data::ir::DataExpr)> + 'a {
    let synthetic = lps
        .summands
        .get(step.summand)
        .map_or(&[][..], |s| s.origin.synthetic.as_slice());
    step.sum_values
        .iter()
        .filter(move |(v, _)| !synthetic.contains(&v.name))
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
pub fn trace_text(lps: &Lps, ev: &Evidence) -> String {
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
    let init = if lps.params.is_empty() {
        "(no parameters)".to_string()
    } else {
        state_text(lps, &t.initial)
    };
    let _ = writeln!(out, "  initial state: {init}");
    for (i, s) in t.steps.iter().enumerate() {
        let mark = if t.loop_start == Some(i) { CYCLE } else { " " };
        let mut rest = changes(lps, ev, i).join(", ");
        if rest.is_empty() {
            rest = "(no parameter changes)".to_string();
        }
        let sums: Vec<String> = shown_sums(lps, s)
            .map(|(v, e)| format!("{} = {}", v.name, data_expr_to_string(e)))
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
    let id: std::collections::HashMap<&[crate::data::ir::DataExpr], u32> = ev
        .states
        .iter()
        .enumerate()
        .map(|(i, s)| (s.as_slice(), i as u32))
        .collect();
    // The transitions leaving the trace's states, in one pass over the evidence LTS.
    let mut leaving: std::collections::HashMap<u32, Vec<&crate::lts::Transition>> =
        (0..=t.steps.len())
            .filter_map(|i| id.get(t.state_before(i)).map(|&s| (s, Vec::new())))
            .collect();
    for tr in &ev.lts.transitions {
        if let Some(v) = leaving.get_mut(&(tr.from.index() as u32)) {
            v.push(tr);
        }
    }
    let mut listed = std::collections::HashSet::new();
    for i in 0..=t.steps.len() {
        let Some(&here) = id.get(t.state_before(i)) else {
            continue;
        };
        if !listed.insert(here) {
            continue;
        }
        let taken = t
            .steps
            .get(i)
            .map(|s| (s.action.as_str(), id.get(s.to.as_slice()).copied()));
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
pub fn trace_json(lps: &Lps, ev: &Evidence) -> serde_json::Value {
    use serde_json::{json, Map, Value};
    let show = |vals: &[crate::data::ir::DataExpr]| -> Vec<String> {
        vals.iter().map(data_expr_to_string).collect()
    };
    let steps: Vec<Value> = ev
        .trace
        .steps
        .iter()
        .map(|s| {
            let mut changed = Map::new();
            for (p, (a, b)) in lps.params.iter().zip(s.from.iter().zip(&s.to)) {
                if a != b {
                    changed.insert(
                        p.name.to_string(),
                        json!([data_expr_to_string(a), data_expr_to_string(b)]),
                    );
                }
            }
            let sums: Map<String, Value> = shown_sums(lps, s)
                .map(|(v, e)| (v.name.to_string(), Value::from(data_expr_to_string(e))))
                .collect();
            json!({
                "action": s.action,
                "summand": s.summand,
                "sum": sums,
                "state": show(&s.to),
                "changed": changed,
            })
        })
        .collect();
    json!({
        "verdict": ev.value,
        "kind": ev.kind(),
        "parameters": lps.params.iter().map(|p| p.name.to_string()).collect::<Vec<_>>(),
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
pub fn write_evidence(lps: &Lps, ev: &Evidence, path: &Path) -> miette::Result<()> {
    let text = match path.extension().and_then(|e| e.to_str()) {
        Some("json") => format!("{:#}\n", trace_json(lps, ev)),
        Some("txt") => trace_text(lps, ev),
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
