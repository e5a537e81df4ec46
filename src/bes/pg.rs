//! PGSolver formats: games (`.pg`, read leniently, written strictly) and solutions
//! (`paritysol`).
//!
//! Game syntax: an optional header `parity N;` (N is read as the maximum vertex id or as the
//! vertex count, whichever fits), an optional `start V;`, then one entry per vertex
//! `id priority owner succ,succ,... ["name"];` — entries may span several lines and appear in
//! any order; ids must cover `0..n` exactly once. Solution syntax: `paritysol N;` then
//! `id winner [successor];` per vertex.

use std::io::{self, Write};

use super::error::ParseError;
use super::game::{Game, GameBuilder, Player, VertexId};
use super::solution::Solution;

struct Lexer<'a> {
    t: &'a [u8],
    i: usize,
    file: &'a str,
}

impl<'a> Lexer<'a> {
    fn err(&self, off: usize, len: usize, msg: impl Into<String>, label: &str) -> ParseError {
        ParseError::at(self.file, self.t, off, len, msg, label, None)
    }

    #[inline]
    fn skip_ws(&mut self) {
        while self.i < self.t.len() && self.t[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    #[inline]
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.t.get(self.i).copied()
    }

    fn token_len(&self, off: usize) -> usize {
        self.t[off..]
            .iter()
            .position(|b| b.is_ascii_whitespace() || matches!(b, b';' | b','))
            .unwrap_or(self.t.len() - off)
            .max(1)
    }

    /// A non-negative decimal number; `what` names it in errors. Returns (value, offset).
    #[inline]
    fn number(&mut self, what: &str) -> Result<(u32, usize), ParseError> {
        self.skip_ws();
        let start = self.i;
        let mut v: u64 = 0;
        while self.i < self.t.len() && self.t[self.i].is_ascii_digit() {
            v = v * 10 + (self.t[self.i] - b'0') as u64;
            if v > u32::MAX as u64 - 1 {
                let len = self.token_len(start);
                return Err(self.err(start, len, format!("{what} is too large"), "too large"));
            }
            self.i += 1;
        }
        if self.i == start {
            if self.t.get(self.i) == Some(&b'-') {
                let len = self.token_len(start);
                return Err(ParseError::at(
                    self.file,
                    self.t,
                    start,
                    len,
                    format!("negative {}", bare(what)),
                    "negative",
                    Some(format!("{what} must be a non-negative number")),
                ));
            }
            let found = match self.t.get(self.i) {
                None => "the end of the input".to_string(),
                Some(_) => format!(
                    "`{}`",
                    String::from_utf8_lossy(&self.t[start..start + self.token_len(start)])
                ),
            };
            let len = if self.i < self.t.len() {
                self.token_len(start)
            } else {
                1
            };
            return Err(self.err(
                start,
                len,
                format!("expected {what}, found {found}"),
                &format!("expected {what}"),
            ));
        }
        Ok((v as u32, start))
    }

    fn expect(&mut self, c: u8, context: &str) -> Result<(), ParseError> {
        match self.peek() {
            Some(b) if b == c => {
                self.i += 1;
                Ok(())
            }
            other => {
                let found = match other {
                    None => "the end of the input".to_string(),
                    Some(_) => format!(
                        "`{}`",
                        String::from_utf8_lossy(&self.t[self.i..self.i + self.token_len(self.i)])
                    ),
                };
                Err(self.err(
                    self.i,
                    1,
                    format!("expected `{}` {context}, found {found}", c as char),
                    &format!("expected `{}`", c as char),
                ))
            }
        }
    }

    fn keyword(&mut self, kw: &str) -> bool {
        self.skip_ws();
        let k = kw.as_bytes();
        if self.t[self.i..].starts_with(k)
            && !self
                .t
                .get(self.i + k.len())
                .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
        {
            self.i += k.len();
            true
        } else {
            false
        }
    }
}

/// `what` without its article (`a priority` -> `priority`).
fn bare(what: &str) -> &str {
    what.strip_prefix("a ")
        .or_else(|| what.strip_prefix("an "))
        .or_else(|| what.strip_prefix("the "))
        .unwrap_or(what)
}

enum Item<'a> {
    Start(u32, usize),
    Vertex {
        id: u32,
        id_off: usize,
        priority: u32,
        owner: Player,
        name: Option<&'a str>,
    },
}

/// Reads the next entry; successors (and their offsets) go to the buffers.
fn next_item<'a>(
    lx: &mut Lexer<'a>,
    succ: &mut Vec<VertexId>,
    offs: &mut Vec<usize>,
) -> Result<Option<Item<'a>>, ParseError> {
    succ.clear();
    offs.clear();
    if lx.peek().is_none() {
        return Ok(None);
    }
    if lx.keyword("start") {
        let (v, off) = lx.number("a start vertex")?;
        lx.expect(b';', "after the start vertex")?;
        return Ok(Some(Item::Start(v, off)));
    }
    if lx.keyword("parity") {
        let off = lx.i;
        return Err(lx.err(
            off - 6,
            6,
            "a second `parity` header",
            "only one header is allowed",
        ));
    }
    let (id, id_off) = lx.number("a vertex id")?;
    let (priority, _) = lx.number("a priority")?;
    let (o, o_off) = lx.number("an owner (0 or 1)")?;
    let owner = Player::from_number(o).ok_or_else(|| {
        ParseError::at(
            lx.file,
            lx.t,
            o_off,
            lx.token_len(o_off),
            format!("owner of vertex {id} is {o}"),
            "not 0 or 1",
            Some("the owner is 0 (Even) or 1 (Odd)".into()),
        )
    })?;
    loop {
        let (w, off) = lx.number("a successor")?;
        succ.push(VertexId(w));
        offs.push(off);
        if lx.peek() == Some(b',') {
            lx.i += 1;
        } else {
            break;
        }
    }
    let mut name = None;
    if lx.peek() == Some(b'"') {
        let start = lx.i + 1;
        let Some(len) = lx.t[start..].iter().position(|&b| b == b'"') else {
            return Err(lx.err(
                start - 1,
                1,
                "unterminated name",
                "this quote is not closed",
            ));
        };
        name = Some(
            std::str::from_utf8(&lx.t[start..start + len])
                .map_err(|_| lx.err(start, len, "the name is not valid UTF-8", "invalid UTF-8"))?,
        );
        lx.i = start + len + 1;
    }
    lx.expect(b';', &format!("at the end of the entry of vertex {id}"))?;
    Ok(Some(Item::Vertex {
        id,
        id_off,
        priority,
        owner,
        name,
    }))
}

/// Finds the first successor occurrence satisfying `pred`: (offset, source vertex).
fn locate_successor(text: &[u8], file: &str, pred: impl Fn(u32) -> bool) -> Option<(usize, u32)> {
    let mut lx = Lexer {
        t: text,
        i: 0,
        file,
    };
    if lx.keyword("parity") {
        lx.number("").ok()?;
        lx.expect(b';', "").ok()?;
    }
    let (mut succ, mut offs) = (Vec::new(), Vec::new());
    while let Some(item) = next_item(&mut lx, &mut succ, &mut offs).ok()? {
        if let Item::Vertex { id, .. } = item {
            if let Some(k) = succ.iter().position(|w| pred(w.0)) {
                return Some((offs[k], id));
            }
        }
    }
    None
}

/// Parses a PGSolver game. `file` names the input in errors.
pub fn parse_pg(text: &[u8], file: &str) -> Result<Game, ParseError> {
    let b = parse_pg_builder(text, file)?;
    freeze_parsed(b, file)
}

/// Like [`parse_pg`], but frees the input text before building the reverse edges, which
/// lowers peak memory on large games.
pub fn parse_pg_owned(text: Vec<u8>, file: &str) -> Result<Game, ParseError> {
    let b = parse_pg_builder(&text, file)?;
    drop(text);
    freeze_parsed(b, file)
}

/// Freezes a builder whose input passed all checks of `parse_pg_builder` (which catch
/// every error `freeze` can report, with positions); this is a safety net.
fn freeze_parsed(b: GameBuilder, file: &str) -> Result<Game, ParseError> {
    b.freeze()
        .map_err(|e| ParseError::at(file, b"", 0, 1, e.to_string(), "here", None))
}

fn parse_pg_builder(text: &[u8], file: &str) -> Result<GameBuilder, ParseError> {
    let mut lx = Lexer {
        t: text,
        i: 0,
        file,
    };
    let mut header: Option<(u32, usize)> = None;
    if lx.keyword("parity") {
        let h = lx.number("the number of vertices")?;
        lx.expect(b';', "after the header")?;
        header = Some(h);
    }
    // Every vertex entry takes at least 8 bytes (`0 0 0 0;`), so ids beyond that bound can
    // never be dense; checking it keeps a bogus header or id from allocating gigabytes.
    let id_bound = text.len() / 8 + 1;
    let cap = header.map_or(0, |h| (h.0 as usize + 1).min(id_bound));
    // A rough edge estimate from the file size keeps reallocation low.
    let mut b = GameBuilder::with_capacity(cap, (text.len() / 10).min(1 << 31));
    let mut defined: Vec<u64> = vec![0; cap.div_ceil(64)];
    let mut start: Option<(u32, usize)> = None;
    let mut max_id: Option<u32> = None;
    let mut max_ref: u32 = 0;
    let (mut succ, mut offs) = (Vec::new(), Vec::new());
    while let Some(item) = next_item(&mut lx, &mut succ, &mut offs)? {
        match item {
            Item::Start(v, off) => {
                if start.is_some() {
                    return Err(lx.err(off, 1, "a second `start` declaration", "duplicate"));
                }
                start = Some((v, off));
            }
            Item::Vertex {
                id,
                id_off,
                priority,
                owner,
                name,
            } => {
                if let Some((h, _)) = header {
                    if id > h {
                        return Err(ParseError::at(
                            file,
                            text,
                            id_off,
                            lx.token_len(id_off),
                            format!("vertex id {id} exceeds the header's bound {h}"),
                            "out of range",
                            Some("the header `parity N;` gives the largest vertex id".into()),
                        ));
                    }
                    if let Some(k) = succ.iter().position(|w| w.0 > h) {
                        return Err(ParseError::at(
                            file,
                            text,
                            offs[k],
                            lx.token_len(offs[k]),
                            format!(
                                "successor {} of vertex {id} is not a vertex (the header's bound is {h})",
                                succ[k].0
                            ),
                            "dangling successor",
                            None,
                        ));
                    }
                }
                if id as usize > id_bound {
                    return Err(ParseError::at(
                        file,
                        text,
                        id_off,
                        lx.token_len(id_off),
                        format!("vertex id {id} is too large: the input is too short to define all vertices from 0 to {id}"),
                        "too large",
                        Some("vertex ids must run from 0 to the largest id without gaps".into()),
                    ));
                }
                let word = id as usize / 64;
                if word >= defined.len() {
                    defined.resize((word + 1).next_power_of_two(), 0);
                }
                if defined[word] & (1 << (id % 64)) != 0 {
                    return Err(ParseError::at(
                        file,
                        text,
                        id_off,
                        lx.token_len(id_off),
                        format!("vertex {id} is defined twice"),
                        "second definition",
                        None,
                    ));
                }
                defined[word] |= 1 << (id % 64);
                max_id = Some(max_id.map_or(id, |m| m.max(id)));
                for w in &succ {
                    max_ref = max_ref.max(w.0);
                }
                b.set_vertex(VertexId(id), owner, priority);
                if b.begin_successors(VertexId(id)) {
                    for &w in &succ {
                        b.push_successor(w);
                    }
                    b.end_successors();
                } else {
                    b.set_successors(VertexId(id), &succ);
                }
                if let Some(nm) = name {
                    b.set_name(VertexId(id), nm);
                }
            }
        }
    }
    let n = max_id.map_or(0, |m| m as usize + 1);
    if let Some((h, h_off)) = header {
        if (h as usize) > n {
            let missing = n;
            return Err(ParseError::at(
                file,
                text,
                h_off,
                lx.token_len(h_off),
                format!(
                    "the header declares vertices up to {h}, but vertex {missing} is not defined"
                ),
                "declared here",
                Some("define every vertex from 0 to the header's bound, or lower the bound".into()),
            ));
        }
    }
    if max_ref as usize >= n && n > 0 || (n == 0 && max_ref > 0) {
        let (off, from) = locate_successor(text, file, |w| w as usize >= n).unwrap_or((0, 0));
        return Err(ParseError::at(
            file,
            text,
            off,
            lx.token_len(off),
            format!(
                "vertex {from} has successor {max_ref}, which is not defined",
                max_ref = {
                    let mut lx2 = Lexer {
                        t: text,
                        i: off,
                        file,
                    };
                    lx2.number("").map(|x| x.0).unwrap_or(max_ref)
                }
            ),
            "dangling successor",
            None,
        ));
    }
    for v in 0..n {
        if defined[v / 64] & (1 << (v % 64)) == 0 {
            let v = v as u32;
            if let Some((off, from)) = locate_successor(text, file, |w| w == v) {
                return Err(ParseError::at(
                    file,
                    text,
                    off,
                    lx.token_len(off),
                    format!("vertex {from} has successor {v}, which is not defined"),
                    "dangling successor",
                    None,
                ));
            }
            return Err(ParseError::at(
                file,
                text,
                text.len(),
                1,
                format!(
                    "vertex {v} is missing (ids must run from 0 to the largest id without gaps)"
                ),
                "end of input",
                None,
            ));
        }
    }
    if let Some((s, off)) = start {
        if s as usize >= n {
            return Err(lx.err(
                off,
                lx.token_len(off),
                format!("start vertex {s} is not defined"),
                "not a vertex",
            ));
        }
        b.set_initial(VertexId(s));
    }
    Ok(b)
}

/// Writes `game` in PGSolver format (`parity` header with the maximum id, `start` if the
/// game has an initial vertex, one entry per line, names quoted).
pub fn write_pg(game: &Game, w: &mut dyn Write) -> io::Result<()> {
    let n = game.num_vertices();
    writeln!(w, "parity {};", n.saturating_sub(1))?;
    if let Some(s) = game.initial() {
        writeln!(w, "start {};", s.0)?;
    }
    let mut line = Vec::with_capacity(256);
    for v in game.vertices() {
        line.clear();
        push_num(&mut line, v.0);
        line.push(b' ');
        push_num(&mut line, game.priority(v));
        line.push(b' ');
        push_num(&mut line, game.owner(v).number());
        line.push(b' ');
        for (k, s) in game.successors(v).iter().enumerate() {
            if k > 0 {
                line.push(b',');
            }
            push_num(&mut line, s.0);
        }
        if let Some(name) = game.name(v) {
            line.extend_from_slice(b" \"");
            line.extend(name.bytes().map(|b| if b == b'"' { b'\'' } else { b }));
            line.push(b'"');
        }
        line.extend_from_slice(b";\n");
        w.write_all(&line)?;
    }
    Ok(())
}

#[inline]
fn push_num(out: &mut Vec<u8>, mut x: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Writes a solution in PGSolver's `paritysol` format: every vertex with its winner, and the
/// strategy successor where one is recorded.
pub fn write_paritysol(sol: &Solution, w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "paritysol {};", sol.len().saturating_sub(1))?;
    let mut line = Vec::with_capacity(64);
    for v in 0..sol.len() as u32 {
        let v = VertexId(v);
        line.clear();
        push_num(&mut line, v.0);
        line.push(b' ');
        push_num(&mut line, sol.winner(v).number());
        if let Some(s) = sol.strategy(v) {
            line.push(b' ');
            push_num(&mut line, s.0);
        }
        line.extend_from_slice(b";\n");
        w.write_all(&line)?;
    }
    Ok(())
}

/// Reads a `paritysol` solution for a game of `n` vertices; every vertex must appear once.
pub fn parse_paritysol(text: &[u8], file: &str, n: usize) -> Result<Solution, ParseError> {
    let mut lx = Lexer {
        t: text,
        i: 0,
        file,
    };
    if lx.keyword("paritysol") {
        lx.number("the number of vertices")?;
        lx.expect(b';', "after the header")?;
    }
    let mut sol = Solution::new(n);
    let mut seen = vec![false; n];
    while lx.peek().is_some() {
        let (v, off) = lx.number("a vertex id")?;
        if v as usize >= n {
            return Err(lx.err(
                off,
                lx.token_len(off),
                format!("vertex {v} is not in the game ({n} vertices)"),
                "not a vertex",
            ));
        }
        if std::mem::replace(&mut seen[v as usize], true) {
            return Err(lx.err(
                off,
                lx.token_len(off),
                format!("vertex {v} appears twice"),
                "second entry",
            ));
        }
        let (p, p_off) = lx.number("a winner (0 or 1)")?;
        let p = Player::from_number(p).ok_or_else(|| {
            lx.err(
                p_off,
                lx.token_len(p_off),
                "the winner is 0 or 1",
                "not 0 or 1",
            )
        })?;
        sol.set_winner(VertexId(v), p);
        if lx.peek().is_some_and(|b| b.is_ascii_digit()) {
            let (s, s_off) = lx.number("a strategy successor")?;
            if s as usize >= n {
                return Err(lx.err(
                    s_off,
                    lx.token_len(s_off),
                    format!("strategy successor {s} is not in the game"),
                    "not a vertex",
                ));
            }
            sol.set_strategy(VertexId(v), Some(VertexId(s)));
        }
        lx.expect(b';', "at the end of the entry")?;
    }
    if let Some(v) = seen.iter().position(|&s| !s) {
        return Err(lx.err(
            text.len(),
            1,
            format!("vertex {v} has no entry in the solution"),
            "end of input",
        ));
    }
    Ok(sol)
}
