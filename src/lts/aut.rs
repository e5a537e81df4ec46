//! The Aldebaran `.aut` format, as mCRL2 reads and writes it.
//!
//! ```text
//! des (0,3,2)
//! (0,"a(1)",1)
//! (1,"tau",0)
//! (1,"b|c",1)
//! ```
//!
//! The header gives the initial state, the number of transitions and the number of states.
//! The writer prints exactly this layout (no spaces, one transition per line, `\n` line ends),
//! as mCRL2 does. The reader is lenient about whitespace and `\r\n` line ends, accepts
//! unquoted labels (whose whitespace is dropped, as mCRL2 does), and checks every state
//! number against the header and the transition count at the end.

use std::io::{self, Write};

use miette::Diagnostic;
use rustc_hash::FxHashMap;
use thiserror::Error;

use super::{Label, LabelId, Lts, StateId, Transition};

/// A malformed `.aut` file.
#[derive(Debug, Error, Diagnostic)]
#[error("{path}:{line}: {message}")]
#[diagnostic(
    code(muon::lts::aut),
    help("an .aut file starts with `des (INITIAL,TRANSITIONS,STATES)` followed by one `(FROM,\"LABEL\",TO)` per line")
)]
pub struct AutError {
    /// The file.
    pub path: String,
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Appends the decimal digits of `n`.
#[inline]
pub(crate) fn push_u32(out: &mut Vec<u8>, mut n: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Writes the header line `des (initial,transitions,states)`.
pub fn write_header(
    w: &mut dyn Write,
    initial: StateId,
    transitions: u64,
    states: u64,
) -> io::Result<()> {
    writeln!(w, "des ({},{},{})", initial.0, transitions, states)
}

/// Appends one transition line `(from,"label",to)` to `out`.
#[inline]
pub fn push_transition(out: &mut Vec<u8>, from: StateId, label: &str, to: StateId) {
    out.push(b'(');
    push_u32(out, from.0);
    out.extend_from_slice(b",\"");
    out.extend_from_slice(label.as_bytes());
    out.extend_from_slice(b"\",");
    push_u32(out, to.0);
    out.extend_from_slice(b")\n");
}

/// Writes a whole LTS in `.aut` format.
pub fn write_aut(lts: &Lts, w: &mut dyn Write) -> io::Result<()> {
    write_header(
        w,
        lts.initial,
        lts.transitions.len() as u64,
        u64::from(lts.num_states),
    )?;
    let mut buf = Vec::with_capacity(1 << 16);
    for t in &lts.transitions {
        push_transition(&mut buf, t.from, lts.label_text(t.label), t.to);
        if buf.len() >= 1 << 16 {
            w.write_all(&buf)?;
            buf.clear();
        }
    }
    w.write_all(&buf)
}

struct Cursor<'t> {
    s: &'t [u8],
    pos: usize,
}

impl<'t> Cursor<'t> {
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && (self.s[self.pos] as char).is_ascii_whitespace() {
            self.pos += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.s.get(self.pos) == Some(&c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn number(&mut self) -> Option<Result<u64, ()>> {
        self.skip_ws();
        let start = self.pos;
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_digit() {
            self.pos += 1;
        }
        if start == self.pos {
            return None;
        }
        let digits = std::str::from_utf8(&self.s[start..self.pos]).expect("ASCII digits");
        Some(digits.parse::<u64>().map_err(|_| ()))
    }
    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos == self.s.len()
    }
}

/// Parses an `.aut` text; `path` names the source in errors.
pub fn parse_aut(text: &str, path: &str) -> Result<Lts, AutError> {
    let err = |line: usize, message: String| AutError {
        path: path.to_string(),
        line,
        message,
    };
    let mut lines = text.split('\n').enumerate().map(|(i, l)| (i + 1, l));
    // The header: the first non-blank line.
    let (hline, header) = loop {
        match lines.next() {
            Some((n, l)) if l.trim().is_empty() => {
                let _ = n;
                continue;
            }
            Some(x) => break x,
            None => return Err(err(1, "the file is empty; expected `des (...)`".into())),
        }
    };
    let mut c = Cursor {
        s: header.as_bytes(),
        pos: 0,
    };
    c.skip_ws();
    if !c.s[c.pos..].starts_with(b"des") {
        return Err(err(
            hline,
            "expected the header `des (INITIAL,TRANSITIONS,STATES)`".into(),
        ));
    }
    c.pos += 3;
    if !c.eat(b'(') {
        return Err(err(hline, "expected `(` after `des`".into()));
    }
    let header_num = |c: &mut Cursor<'_>, what: &str| -> Result<u64, AutError> {
        match c.number() {
            Some(Ok(n)) => Ok(n),
            Some(Err(())) => Err(err(hline, format!("the {what} in the header is too large"))),
            None => Err(err(hline, format!("expected the {what} in the header"))),
        }
    };
    let initial = header_num(&mut c, "initial state")?;
    if !c.eat(b',') {
        return Err(err(
            hline,
            "expected `,` after the initial state in the header".into(),
        ));
    }
    let ntrans = header_num(&mut c, "number of transitions")?;
    if !c.eat(b',') {
        return Err(err(
            hline,
            "expected `,` after the number of transitions in the header".into(),
        ));
    }
    let nstates = header_num(&mut c, "number of states")?;
    if !c.eat(b')') {
        return Err(err(hline, "expected `)` at the end of the header".into()));
    }
    if !c.at_end() {
        return Err(err(hline, "unexpected text after the header".into()));
    }
    if nstates == 0 {
        return Err(err(
            hline,
            "the header declares no states; at least the initial state is needed".into(),
        ));
    }
    if nstates > u64::from(u32::MAX) {
        return Err(err(
            hline,
            format!("{nstates} states is more than muon supports"),
        ));
    }
    if initial >= nstates {
        return Err(err(
            hline,
            format!("the initial state {initial} is not below the number of states {nstates}"),
        ));
    }

    let mut labels: Vec<Label> = Vec::new();
    let mut label_ids: FxHashMap<String, LabelId> = FxHashMap::default();
    let mut transitions = Vec::with_capacity(ntrans.min(1 << 24) as usize);
    let mut unquoted = String::new();
    for (n, line) in lines {
        let mut c = Cursor {
            s: line.as_bytes(),
            pos: 0,
        };
        if c.at_end() {
            continue;
        }
        if !c.eat(b'(') {
            return Err(err(n, "expected `(` at the start of a transition".into()));
        }
        let state = |c: &mut Cursor<'_>, what: &str| -> Result<StateId, AutError> {
            match c.number() {
                Some(Ok(s)) if s < nstates => Ok(StateId(s as u32)),
                Some(Ok(s)) => Err(err(
                    n,
                    format!("{what} state {s} is not below the number of states {nstates} in the header"),
                )),
                Some(Err(())) => Err(err(n, format!("the {what} state number is too large"))),
                None => Err(err(n, format!("expected the {what} state number"))),
            }
        };
        let from = state(&mut c, "source")?;
        if !c.eat(b',') {
            return Err(err(n, "expected `,` after the source state".into()));
        }
        c.skip_ws();
        let label: &str = if c.eat(b'"') {
            let start = c.pos;
            let Some(len) = line[start..].find('"') else {
                return Err(err(n, "the label has no closing `\"`".into()));
            };
            c.pos = start + len + 1;
            &line[start..start + len]
        } else {
            // Unquoted: up to the last comma, whitespace removed (as mCRL2 reads it).
            let Some(comma) = line.rfind(',').filter(|&i| i >= c.pos) else {
                return Err(err(n, "expected `,` after the label".into()));
            };
            unquoted.clear();
            unquoted.extend(line[c.pos..comma].chars().filter(|ch| !ch.is_whitespace()));
            c.pos = comma;
            if unquoted.is_empty() {
                return Err(err(n, "expected a label".into()));
            }
            &unquoted
        };
        if !c.eat(b',') {
            return Err(err(n, "expected `,` after the label".into()));
        }
        let to = state(&mut c, "target")?;
        if !c.eat(b')') {
            return Err(err(n, "expected `)` at the end of the transition".into()));
        }
        if !c.at_end() {
            return Err(err(n, "unexpected text after the transition".into()));
        }
        let id = match label_ids.get(label) {
            Some(&id) => id,
            None => {
                let id = LabelId(labels.len() as u32);
                labels.push(Label::from_text(label));
                label_ids.insert(label.to_string(), id);
                id
            }
        };
        transitions.push(Transition {
            from,
            label: id,
            to,
        });
    }
    if transitions.len() as u64 != ntrans {
        let last = text.split('\n').count();
        return Err(err(
            last,
            format!(
                "the header announces {ntrans} transitions but the file has {}",
                transitions.len()
            ),
        ));
    }
    Ok(Lts {
        initial: StateId(initial as u32),
        num_states: nstates as u32,
        labels,
        transitions,
    })
}
