//! Reading traces back: muon's trace files (the readable text behind [`HEADER`]), muon's
//! JSON traces (`tracepp -f json`, `check`'s `.json` evidence), and mCRL2's plain format
//! (one multi-action per line, no states). mCRL2's binary format (an mCRL2 `.lts` file,
//! which starts with a zero byte) gets an error that says how to convert it.
//!
//! Every malformed line is an error with its file, line and column; a read trace has passed
//! [`Trace::check`], and the old value of every change matches the state it leaves.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

use super::{Trace, TraceStep, CYCLE, HEADER, NO_CHANGES, NO_PARAMS, NO_STATES};
use crate::lts::label::parse_multi_action;
use crate::source::{SourceFile, WindowedSource};

/// Why a trace file cannot be read.
#[derive(Debug, Error, Diagnostic)]
pub enum TraceError {
    /// A line of the file is not what the format allows there.
    #[error("{}:{line}:{column}: {message}", .src.name())]
    #[diagnostic(code(muon::trace::syntax))]
    Syntax {
        /// The 1-based line.
        line: usize,
        /// The 1-based column (in characters).
        column: usize,
        /// What is wrong.
        message: String,
        /// What the format expects there.
        #[help]
        help: &'static str,
        /// The file's name and text, for the snippet (a window of a long line).
        #[source_code]
        src: WindowedSource,
        /// Where.
        #[label("here")]
        span: SourceSpan,
    },
    /// The file is in mCRL2's binary trace format.
    #[error("{path}: this is mCRL2's binary trace format (an mCRL2 .lts file), which muon does not read")]
    #[diagnostic(
        code(muon::trace::mcrl2_binary),
        help("convert it to mCRL2's plain format (the multi-actions, one per line) with mCRL2's `tracepp -fplain {path} OUT.trc`, and give muon OUT.trc; muon's `lps2lts -t` writes traces muon reads with their states")
    )]
    Mcrl2Binary {
        /// The file.
        path: String,
    },
    /// The file is not UTF-8 text.
    #[error("{path}:{line}:{column}: not UTF-8 text (byte {offset}); a trace file is text")]
    #[diagnostic(
        code(muon::trace::binary),
        help("give a trace written by muon's `lps2lts -t` or `tracepp`, or mCRL2's plain format (one multi-action per line)")
    )]
    NotText {
        /// The file.
        path: String,
        /// The 1-based line of the first byte that is not UTF-8.
        line: usize,
        /// Its 1-based column (in characters).
        column: usize,
        /// Its offset in the file.
        offset: usize,
    },
}

/// Help for a line of muon's trace file.
const FILE_HELP: &str = "a muon trace file is `muon trace 1`, `parameters: NAMES`, a heading `… (N steps):`, `  initial state: NAME = VALUE, …`, then per step `  I  ACTION   NAME: OLD → NEW, …` (as `lps2lts -t` writes it)";
/// Help for a JSON trace.
const JSON_HELP: &str = "a JSON trace has `parameters`, `initial` (or null) and `steps` (each with `action` and `state`), as `tracepp -f json` writes it";
/// Help for a line of a plain trace.
const PLAIN_HELP: &str =
    "a plain trace has one multi-action per line, as mCRL2 prints them: `a`, `a(1, true)|b`, `tau`";

/// Reads a trace from the bytes of file `path` (muon's trace file, JSON, or mCRL2's plain
/// format, told apart by their first bytes), with what its heading says it is a trace of
/// (`trace to deadlock state 3`) when it has a heading.
pub fn read(bytes: &[u8], path: &str) -> Result<(Trace, Option<String>), TraceError> {
    if bytes.first() == Some(&0) {
        return Err(TraceError::Mcrl2Binary { path: path.into() });
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let offset = e.valid_up_to();
        // The prefix before the first bad byte is valid UTF-8.
        let good = std::str::from_utf8(&bytes[..offset]).unwrap_or_default();
        let line_start = good.rfind('\n').map_or(0, |i| i + 1);
        TraceError::NotText {
            path: path.into(),
            line: good.matches('\n').count() + 1,
            column: good[line_start..].chars().count() + 1,
            offset,
        }
    })?;
    let r = Reader { text, path };
    let start = text.trim_start();
    if start.starts_with('{') {
        Ok((r.json()?, None))
    } else if start.starts_with("muon trace") {
        r.file().map(|(t, what)| (t, Some(what)))
    } else {
        Ok((r.plain()?, None))
    }
}

/// The 1-based line of each step of the trace in `bytes` as [`read`] reads it: for mCRL2's
/// plain format and muon's trace file, the line each step is written on (so that who
/// replays a trace can say where a step is); empty for JSON, whose steps have no line of
/// their own. Meant for a file [`read`] has read.
pub fn step_lines(bytes: &[u8]) -> Vec<usize> {
    let text = String::from_utf8_lossy(bytes);
    let start = text.trim_start();
    let lines = text.split('\n').enumerate().map(|(i, l)| (i + 1, l.trim()));
    if start.starts_with('{') {
        Vec::new()
    } else if start.starts_with("muon trace") {
        lines
            .skip_while(|(_, l)| !l.starts_with("initial state:"))
            .skip(1)
            .filter(|(_, l)| !l.is_empty())
            .map(|(n, _)| n)
            .collect()
    } else {
        lines
            .filter(|(_, l)| !l.is_empty())
            .map(|(n, _)| n)
            .collect()
    }
}

struct Reader<'a> {
    text: &'a str,
    path: &'a str,
}

/// A line of the text: its number and its byte offset in the text.
#[derive(Clone, Copy)]
struct Line<'a> {
    no: usize,
    at: usize,
    text: &'a str,
}

impl<'a> Reader<'a> {
    fn lines(&self) -> Vec<Line<'a>> {
        let mut at = 0;
        self.text
            .split('\n')
            .enumerate()
            .map(|(i, l)| {
                let line = Line {
                    no: i + 1,
                    at,
                    text: l.strip_suffix('\r').unwrap_or(l),
                };
                at += l.len() + 1;
                line
            })
            .collect()
    }

    /// An error at byte `col` of `line`, `len` bytes long.
    fn err(
        &self,
        line: Line<'_>,
        col: usize,
        len: usize,
        message: String,
        help: &'static str,
    ) -> TraceError {
        let col = col.min(line.text.len());
        TraceError::Syntax {
            line: line.no,
            column: line.text[..col].chars().count() + 1,
            message,
            help,
            src: SourceFile::new(self.path, self.text).named_source(),
            span: (line.at + col, len.min(line.text.len() - col)).into(),
        }
    }

    fn plain(&self) -> Result<Trace, TraceError> {
        let mut steps = Vec::new();
        for line in self.lines() {
            let action = line.text.trim_end_matches([' ', '\t']);
            let lead = action.len() - action.trim_start().len();
            let action = action.trim_start();
            if action.is_empty() {
                continue;
            }
            if let Err(e) = parse_multi_action(action) {
                // The readable text without the trace file's header (an evidence `.txt`).
                if heading_count(action).is_some() {
                    return Err(self.err(
                        line,
                        lead,
                        action.len(),
                        "a readable trace without the trace file's header `muon trace 1` and parameter names".into(),
                        "give tracepp a trace file of `lps2lts -t` or a JSON trace (`check --evidence-dir` writes one beside the `.txt`)",
                    ));
                }
                return Err(self.err(
                    line,
                    lead,
                    action.len(),
                    format!("not a multi-action: {e}"),
                    PLAIN_HELP,
                ));
            }
            steps.push(TraceStep {
                action: action.to_string(),
                sums: Vec::new(),
                state: None,
            });
        }
        Ok(Trace {
            params: Vec::new(),
            initial: None,
            steps,
            loop_start: None,
        })
    }

    fn json(&self) -> Result<Trace, TraceError> {
        let lines = self.lines();
        let at = |line: usize, column: usize| {
            let l = lines[line.saturating_sub(1).min(lines.len() - 1)];
            let col = l
                .text
                .char_indices()
                .nth(column.saturating_sub(1))
                .map_or(l.text.len(), |(b, _)| b);
            (l, col)
        };
        let bad = |e: serde_json::Error| {
            let (l, col) = at(e.line(), e.column());
            self.err(l, col, 1, format!("not a JSON trace: {e}"), JSON_HELP)
        };
        let j: JsonTrace = serde_json::from_str(self.text).map_err(bad)?;
        let trace = Trace {
            params: j.parameters,
            initial: j.initial,
            steps: j
                .steps
                .into_iter()
                .map(|s| TraceStep {
                    action: s.action,
                    sums: s.sum.into_iter().collect(),
                    state: s.state,
                })
                .collect(),
            loop_start: j.loop_start,
        };
        trace.check().map_err(|m| {
            let (l, col) = at(1, 1);
            self.err(l, col, 1, format!("not a trace: {m}"), JSON_HELP)
        })?;
        Ok(trace)
    }

    fn file(&self) -> Result<(Trace, String), TraceError> {
        let lines = self.lines();
        let mut it = lines
            .iter()
            .copied()
            .skip_while(|l| l.text.trim().is_empty());
        let missing = |what: &str| {
            let last = *lines.last().expect("split gives a line");
            self.err(
                last,
                last.text.len(),
                0,
                format!("the file ends before {what}"),
                FILE_HELP,
            )
        };
        // The header and its version.
        let head = it.next().ok_or_else(|| missing("the header"))?;
        if head.text.trim_end() != HEADER {
            let lead = head.text.len() - head.text.trim_start().len();
            return Err(self.err(
                head,
                lead,
                head.text.len(),
                format!(
                    "`{}` is not a trace format this muon reads (it reads `{HEADER}`)",
                    head.text.trim()
                ),
                "write the trace again with this muon's `lps2lts -t`, or give it in mCRL2's plain format",
            ));
        }
        // The parameter names.
        let pl = it.next().ok_or_else(|| missing("the parameter names"))?;
        let Some(names) = pl.text.strip_prefix("parameters:") else {
            return Err(self.err(
                pl,
                0,
                pl.text.len(),
                "expected `parameters:` and the parameter names".into(),
                FILE_HELP,
            ));
        };
        let mut params = Vec::new();
        let mut at = "parameters:".len();
        for n in names.split(',').filter(|_| !names.trim().is_empty()) {
            let name = n.trim();
            let col = at + (n.len() - n.trim_start().len());
            if !is_name(name) {
                return Err(self.err(
                    pl,
                    col,
                    name.len().max(1),
                    format!("`{name}` is not a parameter name"),
                    FILE_HELP,
                ));
            }
            params.push(name.to_string());
            at += n.len() + 1;
        }
        // The heading.
        let hl = it.next().ok_or_else(|| missing("the heading"))?;
        let (what, count) = heading_count(hl.text).ok_or_else(|| {
            self.err(
                hl,
                0,
                hl.text.len(),
                "expected the heading `… (N steps):`".into(),
                FILE_HELP,
            )
        })?;
        // The initial state.
        let il = it.next().ok_or_else(|| missing("the initial state"))?;
        let Some(init) = il.text.strip_prefix("  initial state: ") else {
            return Err(self.err(
                il,
                0,
                il.text.len(),
                "expected `  initial state: …`".into(),
                FILE_HELP,
            ));
        };
        let init_at = il.text.len() - init.len();
        let initial = if init == NO_STATES {
            None
        } else if init == NO_PARAMS && params.is_empty() {
            Some(Vec::new())
        } else {
            Some(self.assignments(il, init_at, &params)?)
        };
        let mut trace = Trace {
            params,
            initial,
            steps: Vec::new(),
            loop_start: None,
        };
        // The steps.
        for line in it {
            if line.text.trim().is_empty() {
                continue;
            }
            self.step(line, &mut trace)?;
        }
        if trace.steps.len() != count {
            return Err(self.err(
                hl,
                0,
                hl.text.len(),
                format!(
                    "the heading says {count} steps but {} follow",
                    trace.steps.len()
                ),
                FILE_HELP,
            ));
        }
        Ok((trace, what.to_string()))
    }

    /// `NAME = VALUE, …` with the names of `params`, in order (a value runs to the next
    /// `, NAME = ` outside brackets).
    fn assignments(
        &self,
        line: Line<'_>,
        at: usize,
        params: &[String],
    ) -> Result<Vec<String>, TraceError> {
        let text = &line.text[at..];
        let mut values = Vec::with_capacity(params.len());
        let mut pos = 0;
        for (i, p) in params.iter().enumerate() {
            let lead = format!("{p} = ");
            if !text[pos..].starts_with(&lead) {
                return Err(self.err(
                    line,
                    at + pos,
                    p.len(),
                    format!("expected `{p} = VALUE`"),
                    FILE_HELP,
                ));
            }
            pos += lead.len();
            let end = match params.get(i + 1) {
                Some(next) => find_top(&text[pos..], &format!(", {next} = "))
                    .map(|e| pos + e)
                    .ok_or_else(|| {
                        self.err(
                            line,
                            at + text.len(),
                            0,
                            format!("expected `, {next} = VALUE`"),
                            FILE_HELP,
                        )
                    })?,
                None => text.len(),
            };
            let v = &text[pos..end];
            if v.trim().is_empty() || !balanced(v) {
                return Err(self.err(
                    line,
                    at + pos,
                    v.len(),
                    format!("`{v}` is not a value of `{p}`"),
                    FILE_HELP,
                ));
            }
            values.push(v.to_string());
            pos = end + 2;
        }
        Ok(values)
    }

    /// One step line: `  I M  ACTION   CHANGES   [SUMS]`.
    fn step(&self, line: Line<'_>, trace: &mut Trace) -> Result<(), TraceError> {
        let t = line.text;
        let want = trace.steps.len() + 1;
        let digits_at = t.len() - t.trim_start().len();
        let digits_end = digits_at
            + t[digits_at..]
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
        if digits_at < 2 || t[digits_at..digits_end].parse::<usize>().ok() != Some(want) {
            return Err(self.err(
                line,
                digits_at,
                (digits_end - digits_at).max(1),
                format!("expected step {want}"),
                FILE_HELP,
            ));
        }
        let rest = &t[digits_end..];
        let (mark, after) = if let Some(r) = rest.strip_prefix(&format!(" {CYCLE}  ")) {
            (true, r)
        } else if let Some(r) = rest.strip_prefix("    ") {
            (false, r)
        } else {
            return Err(self.err(
                line,
                digits_end,
                1,
                "expected the multi-action after the step number".into(),
                FILE_HELP,
            ));
        };
        if mark {
            if trace.loop_start.is_some() {
                return Err(self.err(
                    line,
                    digits_end + 1,
                    CYCLE.len(),
                    format!("a second `{CYCLE}`: a lasso has one cycle"),
                    FILE_HELP,
                ));
            }
            trace.loop_start = Some(want - 1);
        }
        let act_at = t.len() - after.len();
        let act_end = find_top(after, "   ").unwrap_or(after.len());
        let action = &after[..act_end];
        if let Err(e) = parse_multi_action(action) {
            return Err(self.err(
                line,
                act_at,
                action.len(),
                format!("not a multi-action: {e}"),
                FILE_HELP,
            ));
        }
        let tail = after[act_end..].trim_start();
        let tail_at = t.len() - tail.len();
        let mut step = TraceStep {
            action: action.to_string(),
            sums: Vec::new(),
            state: None,
        };
        let Some(before) = trace
            .state_before(trace.steps.len())
            .map(<[String]>::to_vec)
        else {
            if !tail.is_empty() {
                return Err(self.err(
                    line,
                    tail_at,
                    tail.len(),
                    "a trace without states lists only the multi-action of each step".into(),
                    FILE_HELP,
                ));
            }
            trace.steps.push(step);
            return Ok(());
        };
        let (changes, sums) = match find_top(tail, "   [") {
            Some(e) => (&tail[..e], Some((tail_at + e + 4, &tail[e + 4..]))),
            None => (tail, None),
        };
        let mut state = before;
        if changes != NO_CHANGES {
            if changes.is_empty() {
                return Err(self.err(
                    line,
                    tail_at,
                    0,
                    format!("expected the changed parameters or `{NO_CHANGES}`"),
                    FILE_HELP,
                ));
            }
            self.changes(line, tail_at, changes, &trace.params, &mut state)?;
        }
        if let Some((at, s)) = sums {
            let Some(inner) = s.strip_suffix(']') else {
                return Err(self.err(
                    line,
                    at + s.len(),
                    0,
                    "expected `]` after the sum variables".into(),
                    FILE_HELP,
                ));
            };
            for part in split_top(inner) {
                let Some((v, e)) = part.split_once(" = ") else {
                    return Err(self.err(
                        line,
                        at,
                        inner.len(),
                        format!("`{part}` is not `VARIABLE = VALUE`"),
                        FILE_HELP,
                    ));
                };
                step.sums.push((v.trim().to_string(), e.trim().to_string()));
            }
        }
        step.state = Some(state);
        trace.steps.push(step);
        Ok(())
    }

    /// `NAME: OLD → NEW, …`, applied to `state` (each OLD must be the current value).
    fn changes(
        &self,
        line: Line<'_>,
        at: usize,
        text: &str,
        params: &[String],
        state: &mut [String],
    ) -> Result<(), TraceError> {
        let mut pos = 0;
        let mut last = None;
        while pos < text.len() {
            let here = &text[pos..];
            let Some((k, p)) = params
                .iter()
                .enumerate()
                .find(|(_, p)| here.starts_with(&format!("{p}: ")))
            else {
                return Err(self.err(
                    line,
                    at + pos,
                    here.len().min(1),
                    "expected `PARAMETER: OLD → NEW` with a parameter of the trace".into(),
                    FILE_HELP,
                ));
            };
            if last.is_some_and(|l| l >= k) {
                return Err(self.err(
                    line,
                    at + pos,
                    p.len(),
                    format!(
                        "`{p}` is out of order or repeated: changes are listed in parameter order"
                    ),
                    FILE_HELP,
                ));
            }
            last = Some(k);
            let body_at = pos + p.len() + 2;
            let body = &text[body_at..];
            // The change runs to the next `, NAME: ` of a later parameter outside brackets.
            let end = params[k + 1..]
                .iter()
                .filter_map(|n| find_top(body, &format!(", {n}: ")))
                .min()
                .unwrap_or(body.len());
            let change = &body[..end];
            let Some(arrow) = find_top(change, " → ") else {
                return Err(self.err(
                    line,
                    at + body_at,
                    change.len(),
                    format!("expected `OLD → NEW` for `{p}`"),
                    FILE_HELP,
                ));
            };
            let (old, new) = (&change[..arrow], &change[arrow + " → ".len()..]);
            let new_at = body_at + arrow + " → ".len();
            // A second arrow: the change of a parameter the trace does not have follows.
            if let Some(second) = find_top(new, " → ") {
                let extra = find_top(new, ", ")
                    .filter(|&c| c < second)
                    .unwrap_or(second);
                return Err(self.err(line, at + new_at + extra, second - extra, format!("expected `, PARAMETER: OLD → NEW` with a parameter of the trace after `{p}`'s change"), FILE_HELP));
            }
            if old != state[k] {
                return Err(self.err(
                    line,
                    at + body_at,
                    old.len(),
                    format!("`{p}` was `{}` before this step, not `{old}`", state[k]),
                    FILE_HELP,
                ));
            }
            if new.trim().is_empty() || !balanced(new) {
                return Err(self.err(
                    line,
                    at + body_at + arrow,
                    change.len() - arrow,
                    format!("`{new}` is not a value of `{p}`"),
                    FILE_HELP,
                ));
            }
            state[k] = new.to_string();
            pos = body_at + end + if end < body.len() { 2 } else { 0 };
        }
        Ok(())
    }
}

/// The JSON form of a trace ([`Trace::to_json`]); other keys (evidence's) are ignored.
#[derive(serde::Deserialize)]
struct JsonTrace {
    parameters: Vec<String>,
    initial: Option<Vec<String>>,
    steps: Vec<JsonStep>,
    #[serde(default)]
    loop_start: Option<usize>,
}

#[derive(serde::Deserialize)]
struct JsonStep {
    action: String,
    #[serde(default)]
    sum: std::collections::BTreeMap<String, String>,
    state: Option<Vec<String>>,
}

/// What a heading `WHAT (N step[s]…):` says, and its step count.
fn heading_count(h: &str) -> Option<(&str, usize)> {
    let body = h.strip_suffix("):")?;
    let open = body.rfind(" (")?;
    let inner = &body[open + 2..];
    let inner = inner.split([',', ';']).next()?;
    let n = inner
        .strip_suffix(" steps")
        .or_else(|| inner.strip_suffix(" step"))?;
    Some((&body[..open], n.parse().ok()?))
}

fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '\'')
}

/// The byte offset of the first occurrence of `pat` outside brackets.
fn find_top(s: &str, pat: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ if depth == 0 && s[i..].starts_with(pat) => return Some(i),
            _ => {}
        }
    }
    None
}

/// Splits at `, ` outside brackets.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = find_top(rest, ", ") {
        out.push(&rest[..i]);
        rest = &rest[i + 2..];
    }
    out.push(rest);
    out
}

/// Whether the brackets of a printed value match.
fn balanced(s: &str) -> bool {
    let mut stack = Vec::new();
    for c in s.chars() {
        match c {
            '(' | '[' | '{' => stack.push(c),
            ')' | ']' | '}' => {
                let open = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if stack.pop() != Some(open) {
                    return false;
                }
            }
            _ => {}
        }
    }
    stack.is_empty()
}
