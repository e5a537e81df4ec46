//! `muon check --report FILE.html`: the results of a check as one self-contained page for
//! people, built from the same [`FormulaResult`]s the text and JSON are printed from.
//!
//! The page needs nothing beside itself (no network, no other file): its style and script
//! are inlined (`page.css`, `page.js`), the pictures are inline SVG laid out in-process
//! ([`crate::lts::svg::tagged_svg`]), and the specification lines the steps come from are
//! embedded. It has a verdict table (formula file, formula, verdict, engine, time, model)
//! and, per formula with evidence, the evidence as a picture beside its trace as a step
//! table ([`evidence`]); selecting a step (a click, or the arrow keys and `j`/`k`) marks its
//! state in the picture and shows the specification lines of the summand that made it. The
//! page's address then names the step (`FILE.html#f2.5`: formula 2, step 5), so that a link
//! or a reload opens it.
//!
//! Opened as `FILE.html#selftest`, the page selects every step through its own handlers and
//! writes what it marked into the element `#selftest-result` (JSON), so a headless browser
//! can check the page as a person would use it (`tests/check_report.rs`).

mod evidence;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use crate::check::{FormulaResult, Model, Route, Verdict};
use crate::source::SourceFile;

/// The page's style sheet.
const CSS: &str = include_str!("page.css");
/// The page's script: selecting steps, the keyboard, the self-test.
const JS: &str = include_str!("page.js");

/// The model as the page names and describes it.
pub struct ModelInfo {
    /// The model's file as the user gave it.
    name: String,
    /// What it is, in a few words (`a specification, linearised to …`).
    what: String,
    /// The specification's text, for the source lines of steps (none for an LTS).
    source: Option<SourceFile>,
}

impl ModelInfo {
    /// The model read from `path`: a specification with its text `source`, or an LTS whose
    /// actions `declared_by` declares.
    pub fn new(
        path: &Path,
        model: &Model,
        declared_by: Option<&Path>,
        source: Option<SourceFile>,
    ) -> ModelInfo {
        let what = match model {
            Model::Lps(lps) => format!(
                "a specification, linearised to {} summands over {} parameters",
                count(lps.summands.len() as u64),
                count(lps.params.len() as u64)
            ),
            Model::Lts { lts, .. } => format!(
                "an LTS of {} states and {} transitions{}",
                count(lts.num_states.into()),
                count(lts.transitions.len() as u64),
                match declared_by {
                    Some(p) => format!(", its actions declared by {}", p.display()),
                    None => String::new(),
                }
            ),
        };
        ModelInfo {
            name: source
                .as_ref()
                .map_or_else(|| path.display().to_string(), |s| s.name.clone()),
            what,
            source,
        }
    }
}

/// A report being built: one entry per formula, added as each is decided
/// ([`Report::add`]), written at the end ([`Report::write`]).
pub struct Report {
    model: ModelInfo,
    /// The verdict table's rows (HTML).
    rows: Vec<String>,
    /// One section per formula (HTML).
    sections: Vec<String>,
    /// The specification lines the steps refer to (1-based), embedded in the page.
    lines: BTreeSet<usize>,
    /// How many formulas are true, false and unknown.
    verdicts: [usize; 3],
}

impl Report {
    /// An empty report about `model`.
    pub fn new(model: ModelInfo) -> Report {
        Report {
            model,
            rows: Vec::new(),
            sections: Vec::new(),
            lines: BTreeSet::new(),
            verdicts: [0; 3],
        }
    }

    /// Adds one formula's result: its row of the verdict table and its section.
    pub fn add(&mut self, model: &Model, r: &FormulaResult<'_>) {
        let n = self.sections.len() + 1;
        let id = format!("f{n}");
        let file = r.formula.path.display().to_string();
        let formula = formula_text(r);
        // The verdict's word is also its style's class name.
        let (verdict, slot) = match &r.verdict {
            Verdict::Decided(true) => ("true", 0),
            Verdict::Decided(false) => ("false", 1),
            Verdict::Stopped(_) => ("unknown", 2),
        };
        self.verdicts[slot] += 1;
        let class = verdict;
        let engine = route_text(&r.route);
        let why = match &r.fallback {
            Some(f) => format!(
                "{}; the chosen engine could not decide it ({f}), so the PBES route did",
                r.formula.why
            ),
            None => r.formula.why.clone(),
        };
        self.rows.push(format!(
            "<tr><td><a href=\"#{id}\"><code>{}</code></a></td><td><pre class=\"formula\">{}</pre></td>\
             <td><span class=\"verdict {class}\">{verdict}</span></td><td title=\"{}\">{}</td>\
             <td class=\"num\">{}</td><td><code>{}</code></td></tr>",
            esc(&file),
            esc(&formula),
            esc(&why),
            esc(&engine),
            seconds(r.seconds),
            esc(&self.model.name),
        ));
        let mut s = String::new();
        let _ = write!(
            s,
            "<section class=\"formula-result\" id=\"{id}\"><h2><code>{}</code>: <span class=\"verdict {class}\">{verdict}</span></h2>\
             <pre class=\"formula\">{}</pre><p class=\"meaning\">{}</p>\
             <p class=\"route\">Engine: {}, {}. Why this engine: {}.</p>",
            esc(&file),
            esc(&formula),
            esc(&meaning(r)),
            esc(&engine),
            seconds(r.seconds),
            esc(&why),
        );
        if let Some(ev) = &r.evidence {
            let source = self.model.source.as_ref();
            s.push_str(&evidence::section(model, ev, source, &mut self.lines));
        }
        s.push_str("</section>\n");
        self.sections.push(s);
    }

    /// The whole page.
    pub fn html(&self) -> String {
        let title = format!("muon check: {}", self.model.name);
        let [t, f, u] = self.verdicts;
        let mut counts = vec![format!("{t} true"), format!("{f} false")];
        if u > 0 {
            counts.push(format!("{u} unknown"));
        }
        let mut out = format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{}</title><style>{CSS}</style></head><body>\n\
             <header><h1>Model check of <code>{}</code></h1><p>{} · {} formula{}: {}</p></header>\n",
            esc(&title),
            esc(&self.model.name),
            esc(&self.model.what),
            self.sections.len(),
            if self.sections.len() == 1 { "" } else { "s" },
            counts.join(", ")
        );
        out.push_str(INTRO);
        out.push_str(
            "<h2>Verdicts</h2><table class=\"verdicts\"><thead><tr><th>Formula file</th>\
             <th>Formula</th><th>Verdict</th><th>Engine</th><th>Time</th><th>Model</th></tr>\
             </thead><tbody>\n",
        );
        for r in &self.rows {
            out.push_str(r);
            out.push('\n');
        }
        out.push_str("</tbody></table>\n");
        for s in &self.sections {
            out.push_str(s);
        }
        let source = match &self.model.source {
            Some(src) => {
                let text: Vec<&str> = src.text.split('\n').collect();
                let lines: serde_json::Map<String, serde_json::Value> = self
                    .lines
                    .iter()
                    .filter_map(|&l| {
                        let t = text.get(l - 1)?.trim_end_matches('\r');
                        Some((l.to_string(), serde_json::Value::from(t)))
                    })
                    .collect();
                serde_json::json!({ "file": src.name, "lines": lines })
            }
            None => serde_json::Value::Null,
        };
        let data = serde_json::json!({ "model": self.model.name, "source": source });
        let _ = write!(
            out,
            "<pre id=\"selftest-result\" hidden></pre>\n{}<script>{JS}</script>\n</body></html>\n",
            json_script("page-data", &data)
        );
        out
    }

    /// Writes the page to `path` atomically (also after a stop, whose formulas it shows as
    /// unknown).
    pub fn write(&self, path: &Path) -> miette::Result<()> {
        let html = self.html();
        crate::artifact::write_report(Some(path), |w| {
            w.write_all(html.as_bytes())
                .map_err(|source| crate::artifact::ArtifactError::Write {
                    path: path.display().to_string(),
                    source,
                })
        })?;
        Ok(())
    }
}

/// The explanation at the top of the page, for a reader who has not read the README.
const INTRO: &str = "<details class=\"intro\" open><summary>How to read this page</summary><ul>\
<li>Each <b>formula</b> (a modal μ-calculus property, from a <code>.mcf</code> file) was checked on the model. \
Its <b>verdict</b> is <span class=\"verdict true\">true</span> when the model satisfies it and \
<span class=\"verdict false\">false</span> when it does not.</li>\
<li>Where muon gives <b>evidence</b>, it is shown below the table: a <b>counterexample</b> for a false \
formula (a run of the model that breaks it) or a <b>witness</b> for a true one. The evidence was \
re-checked by an independent checker.</li>\
<li>The <b>picture</b> shows states as circles (the initial state has a double circle) and steps as \
arrows labelled with their action. The <b>trace</b>, the run the table lists step by step, is drawn \
in blue; a trace that ends in a cycle repeating forever (a <i>lasso</i>) has its cycle in orange. \
Grey parts belong to the evidence but not to the trace.</li>\
<li><b>Click a step</b> in the table (or a state in the picture) to mark its state and to see the \
lines of the specification that made the step (on an LTS: which of its transitions it is). The keys <kbd>↓</kbd>/<kbd>j</kbd> and \
<kbd>↑</kbd>/<kbd>k</kbd> move to the next and previous step.</li></ul></details>\n";

/// The formula as its file says it, comments left out; the printed formula when the file
/// cannot be read again.
fn formula_text(r: &FormulaResult<'_>) -> String {
    let from_file = std::fs::read_to_string(&r.formula.path).ok().map(|text| {
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.split('%').next().unwrap_or("").trim_end())
            .filter(|l| !l.trim().is_empty())
            .collect();
        lines.join("\n")
    });
    match from_file {
        Some(t) if !t.is_empty() => t,
        _ => crate::print::state_formula_to_string(&r.formula.spec.formula),
    }
}

/// The route in a few words: its name and its sizes.
fn route_text(route: &Route) -> String {
    match route {
        Route::Pbes { bes_vars, .. } => {
            format!("pbes ({} BES variables)", count(*bes_vars as u64))
        }
        Route::Product {
            vertices,
            states,
            one_player,
            ..
        } => format!(
            "product ({} game vertices over {} states{})",
            count(*vertices),
            count(*states),
            if *one_player {
                ", one-player search"
            } else {
                ""
            }
        ),
        Route::Explore { states, .. } => format!("explore ({} states explored)", count(*states)),
        Route::Reduced {
            modulo, quotient, ..
        } => format!(
            "reduce (modulo {}, {} states)",
            crate::check::bisimulation_name(*modulo),
            count(quotient.0)
        ),
    }
}

/// What the verdict means and what the section shows, in a sentence or two.
fn meaning(r: &FormulaResult<'_>) -> String {
    match (&r.verdict, &r.evidence) {
        (Verdict::Stopped(why), _) => format!("No verdict: the check was stopped ({why})."),
        (Verdict::Decided(v), Some(ev)) => {
            let what = if *v {
                "The formula holds. The witness below shows why: the steps the formula needs \
                 the model to be able to take"
            } else {
                "The formula does not hold. The counterexample below shows why: a run of the \
                 model that breaks it"
            };
            let checked = if r.verified {
                ", confirmed by the independent checker"
            } else {
                ""
            };
            let n = ev.trace.steps.len();
            let ends = match &r.route {
                Route::Explore { .. } => {
                    " The run ends in the first state that breaks the formula; the steps out of \
                     it that the formula looks at are part of the evidence (grey)."
                }
                _ => "",
            };
            format!(
                "{what}{checked}. Its trace has {n} step{}; select a step to follow it.{ends}",
                if n == 1 { "" } else { "s" }
            )
        }
        (Verdict::Decided(v), None) => {
            let base = if *v {
                "The formula holds."
            } else {
                "The formula does not hold."
            };
            let why = match &r.route {
                Route::Explore { states, .. } if *v => format!(
                    " Every reachable state ({}) was explored and satisfies it; this engine \
                     gives no witness for a true formula.",
                    count(*states)
                ),
                Route::Reduced { .. } => {
                    " Checked on a reduced state space, which gives no evidence.".to_string()
                }
                _ => " No evidence was asked for.".to_string(),
            };
            format!("{base}{why}")
        }
    }
}

/// `n` with its thousands separated by commas.
fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Seconds for people: milliseconds below a second.
fn seconds(s: f64) -> String {
    if s < 1.0 {
        format!("{:.0} ms", s * 1000.0)
    } else {
        format!("{s:.2} s")
    }
}

/// `text` escaped for HTML text and double-quoted attribute values.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// `value` as a JSON data block the script reads (`class` names it); `<` is escaped so that
/// no text in it can end the block.
fn json_script(class: &str, value: &serde_json::Value) -> String {
    format!(
        "<script type=\"application/json\" class=\"{class}\">{}</script>",
        value.to_string().replace('<', "\\u003c")
    )
}
