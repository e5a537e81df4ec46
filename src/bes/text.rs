//! mCRL2's textual BES: `pbes nu X1 = X2 && X3; mu X2 = X1 || true; init X1;`.
//!
//! Accepted: an optional leading `pbes` or `bes`; equations `mu X = φ;` / `nu X = φ;` with
//! `φ ::= true | false | X | φ && φ | φ || φ | (φ)` (`&&` binds tighter than `||`); then
//! `init X;`. `%` starts a comment. Negation and implication are rejected (a BES must be
//! monotone). Nested right-hand sides are flattened with auxiliary variables in the same
//! block, which preserves the solution of every original variable.

use std::io::{self, Write};

use rustc_hash::{FxHashMap, FxHashSet};

use super::besys::{Bes, BesBuilder, BesVarId, Fixpoint, RhsKind};
use super::error::ParseError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    Ident(&'a str),
    Eq,
    Semi,
    And,
    Or,
    LParen,
    RParen,
    Not,
    Implies,
    Eof,
}

struct Lexer<'a> {
    t: &'a str,
    i: usize,
    file: &'a str,
    /// Offset and length of the last token.
    at: (usize, usize),
    /// Current parenthesis nesting (bounded, so deep input cannot overflow the stack).
    depth: u32,
}

/// Deepest parenthesis nesting accepted in a right-hand side.
const MAX_DEPTH: u32 = 500;

impl<'a> Lexer<'a> {
    fn err(&self, msg: impl Into<String>, label: &str, help: Option<String>) -> ParseError {
        ParseError::at(
            self.file,
            self.t.as_bytes(),
            self.at.0,
            self.at.1,
            msg,
            label,
            help,
        )
    }

    fn next(&mut self) -> Result<Tok<'a>, ParseError> {
        let b = self.t.as_bytes();
        loop {
            while self.i < b.len() && b[self.i].is_ascii_whitespace() {
                self.i += 1;
            }
            if self.i < b.len() && b[self.i] == b'%' {
                while self.i < b.len() && b[self.i] != b'\n' {
                    self.i += 1;
                }
                continue;
            }
            break;
        }
        let s = self.i;
        if s >= b.len() {
            self.at = (s, 1);
            return Ok(Tok::Eof);
        }
        let two = |c: &[u8]| b[s..].starts_with(c);
        let (tok, len) = if two(b"&&") {
            (Tok::And, 2)
        } else if two(b"||") {
            (Tok::Or, 2)
        } else if two(b"=>") {
            (Tok::Implies, 2)
        } else {
            match b[s] {
                b'=' => (Tok::Eq, 1),
                b';' => (Tok::Semi, 1),
                b'(' => (Tok::LParen, 1),
                b')' => (Tok::RParen, 1),
                b'!' => (Tok::Not, 1),
                c if c.is_ascii_alphabetic() || c == b'_' => {
                    let mut e = s + 1;
                    while e < b.len()
                        && (b[e].is_ascii_alphanumeric() || b[e] == b'_' || b[e] == b'\'')
                    {
                        e += 1;
                    }
                    (Tok::Ident(&self.t[s..e]), e - s)
                }
                _ => {
                    let ch = self.t[s..].chars().next().expect("not at end");
                    self.at = (s, ch.len_utf8());
                    return Err(self.err(
                        format!("unexpected character `{ch}`"),
                        "not allowed here",
                        None,
                    ));
                }
            }
        };
        self.i = s + len;
        self.at = (s, len);
        Ok(tok)
    }

    fn peek(&mut self) -> Result<Tok<'a>, ParseError> {
        let (i, at) = (self.i, self.at);
        let t = self.next();
        self.i = i;
        self.at = at;
        t
    }
}

#[derive(Debug)]
enum Expr<'a> {
    T,
    F,
    Var(&'a str, usize),
    And(Vec<Expr<'a>>),
    Or(Vec<Expr<'a>>),
}

fn describe(t: Tok) -> String {
    match t {
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Eq => "`=`".into(),
        Tok::Semi => "`;`".into(),
        Tok::And => "`&&`".into(),
        Tok::Or => "`||`".into(),
        Tok::LParen => "`(`".into(),
        Tok::RParen => "`)`".into(),
        Tok::Not => "`!`".into(),
        Tok::Implies => "`=>`".into(),
        Tok::Eof => "the end of the input".into(),
    }
}

fn parse_or<'a>(lx: &mut Lexer<'a>) -> Result<Expr<'a>, ParseError> {
    let mut parts = vec![parse_and(lx)?];
    while lx.peek()? == Tok::Or {
        lx.next()?;
        parts.push(parse_and(lx)?);
    }
    if lx.peek()? == Tok::Implies {
        lx.next()?;
        return Err(lx.err(
            "implication is not supported in a BES",
            "implication",
            Some("a BES must be monotone: rewrite `a => b` without negation".into()),
        ));
    }
    Ok(if parts.len() == 1 {
        parts.pop().expect("one part")
    } else {
        Expr::Or(parts)
    })
}

fn parse_and<'a>(lx: &mut Lexer<'a>) -> Result<Expr<'a>, ParseError> {
    let mut parts = vec![parse_unit(lx)?];
    while lx.peek()? == Tok::And {
        lx.next()?;
        parts.push(parse_unit(lx)?);
    }
    Ok(if parts.len() == 1 {
        parts.pop().expect("one part")
    } else {
        Expr::And(parts)
    })
}

fn parse_unit<'a>(lx: &mut Lexer<'a>) -> Result<Expr<'a>, ParseError> {
    match lx.next()? {
        Tok::Ident("true") => Ok(Expr::T),
        Tok::Ident("false") => Ok(Expr::F),
        Tok::Ident(kw @ ("mu" | "nu" | "init" | "pbes" | "bes")) => Err(lx.err(
            format!("expected a formula, found the keyword `{kw}`"),
            "keyword",
            Some("is a `;` missing at the end of the previous equation?".into()),
        )),
        Tok::Ident(x) => {
            if lx.peek()? == Tok::LParen {
                lx.next()?;
                return Err(lx.err(
                    format!("`{x}(` — BES variables have no parameters"),
                    "parameter list",
                    Some("this is a PBES; instantiate it with `muon pbesinst` first".into()),
                ));
            }
            Ok(Expr::Var(x, lx.at.0))
        }
        Tok::LParen => {
            lx.depth += 1;
            if lx.depth > MAX_DEPTH {
                return Err(lx.err(
                    format!("parentheses nested deeper than {MAX_DEPTH}"),
                    "too deep",
                    Some("split the formula into several equations".into()),
                ));
            }
            let e = parse_or(lx)?;
            lx.depth -= 1;
            match lx.next()? {
                Tok::RParen => Ok(e),
                t => Err(lx.err(
                    format!("expected `)`, found {}", describe(t)),
                    "expected `)`",
                    None,
                )),
            }
        }
        Tok::Not => Err(lx.err(
            "negation is not supported in a BES",
            "negation",
            Some("a BES must be monotone: push negations into the equations by duality".into()),
        )),
        t => Err(lx.err(
            format!("expected a formula, found {}", describe(t)),
            "expected `true`, `false`, a variable or `(`",
            None,
        )),
    }
}

/// Parses a textual BES. `file` names the input in errors.
pub fn parse_bes_text(text: &str, file: &str) -> Result<Bes, ParseError> {
    let mut lx = Lexer {
        t: text,
        i: 0,
        file,
        at: (0, 1),
        depth: 0,
    };
    if matches!(lx.peek()?, Tok::Ident("pbes" | "bes")) {
        lx.next()?;
    }
    let mut eqs: Vec<(Fixpoint, &str, usize, Expr)> = Vec::new();
    let init = loop {
        match lx.next()? {
            Tok::Ident(fx @ ("mu" | "nu")) => {
                let fix = if fx == "mu" {
                    Fixpoint::Mu
                } else {
                    Fixpoint::Nu
                };
                let (name, off) = match lx.next()? {
                    Tok::Ident(x) if !is_keyword(x) => (x, lx.at.0),
                    t => {
                        return Err(lx.err(
                            format!(
                                "expected a variable name after `{fx}`, found {}",
                                describe(t)
                            ),
                            "expected a name",
                            None,
                        ))
                    }
                };
                match lx.next()? {
                    Tok::Eq => {}
                    Tok::LParen => {
                        return Err(lx.err(
                            format!("`{name}(` — BES variables have no parameters"),
                            "parameter list",
                            Some(
                                "this is a PBES; instantiate it with `muon pbesinst` first".into(),
                            ),
                        ))
                    }
                    t => {
                        return Err(lx.err(
                            format!("expected `=` after `{fx} {name}`, found {}", describe(t)),
                            "expected `=`",
                            None,
                        ))
                    }
                }
                let e = parse_or(&mut lx)?;
                match lx.next()? {
                    Tok::Semi => {}
                    t => {
                        return Err(lx.err(
                            format!(
                                "expected `;` at the end of the equation of {name}, found {}",
                                describe(t)
                            ),
                            "expected `;`",
                            None,
                        ))
                    }
                }
                eqs.push((fix, name, off, e));
            }
            Tok::Ident("init") => {
                let (name, off) = match lx.next()? {
                    Tok::Ident(x) if !is_keyword(x) => (x, lx.at.0),
                    t => {
                        return Err(lx.err(
                            format!(
                                "expected the initial variable after `init`, found {}",
                                describe(t)
                            ),
                            "expected a name",
                            None,
                        ))
                    }
                };
                match lx.next()? {
                    Tok::Semi => {}
                    t => {
                        return Err(lx.err(
                            format!("expected `;` after `init {name}`, found {}", describe(t)),
                            "expected `;`",
                            None,
                        ))
                    }
                }
                match lx.next()? {
                    Tok::Eof => {}
                    t => {
                        return Err(lx.err(
                            format!("unexpected {} after `init`", describe(t)),
                            "the input should end here",
                            None,
                        ))
                    }
                }
                break (name, off);
            }
            Tok::Eof => {
                return Err(lx.err(
                    "the BES has no `init` declaration",
                    "end of input",
                    Some("end the system with `init X;`".into()),
                ))
            }
            t => {
                return Err(lx.err(
                    format!(
                        "expected an equation (`mu`/`nu`) or `init`, found {}",
                        describe(t)
                    ),
                    "expected `mu`, `nu` or `init`",
                    None,
                ))
            }
        }
    };
    let bytes = text.as_bytes();
    let perr = |off: usize, len: usize, msg: String, label: &str, help: Option<String>| {
        ParseError::at(file, bytes, off, len, msg, label, help)
    };
    // Number the declared variables in equation order; auxiliary ones come after.
    let mut ids: FxHashMap<&str, BesVarId> = FxHashMap::default();
    let mut b = BesBuilder::new();
    for (_, name, off, _) in &eqs {
        if ids.contains_key(name) {
            return Err(perr(
                *off,
                name.len(),
                format!("variable {name} has two equations"),
                "second equation",
                None,
            ));
        }
        ids.insert(name, b.add_variable(name));
    }
    let Some(&init_id) = ids.get(init.0) else {
        return Err(perr(
            init.1,
            init.0.len(),
            format!("the initial variable {} has no equation", init.0),
            "undefined",
            None,
        ));
    };
    let mut used: FxHashSet<String> = ids.keys().map(|s| s.to_string()).collect();
    let mut rank = 0u32;
    for (k, (fix, name, _, e)) in eqs.into_iter().enumerate() {
        let want = if fix == Fixpoint::Nu { 0 } else { 1 };
        if k == 0 {
            rank = want;
        } else if rank % 2 != want {
            rank += 1;
        }
        let x = ids[name];
        let mut fl = Flattener {
            b: &mut b,
            ids: &ids,
            used: &mut used,
            rank,
            base: name,
            counter: 0,
        };
        fl.define(x, e).map_err(|(off, v)| {
            perr(
                off,
                v.len(),
                format!("variable {v} has no equation"),
                "undefined",
                Some(format!(
                    "add an equation `mu {v} = ...;` or `nu {v} = ...;`"
                )),
            )
        })?;
    }
    b.set_init(init_id);
    Ok(b.freeze().expect("all variables defined by construction"))
}

fn is_keyword(x: &str) -> bool {
    matches!(x, "mu" | "nu" | "init" | "true" | "false" | "pbes" | "bes")
}

struct Flattener<'a, 'b> {
    b: &'b mut BesBuilder,
    ids: &'b FxHashMap<&'a str, BesVarId>,
    used: &'b mut FxHashSet<String>,
    rank: u32,
    base: &'a str,
    counter: u32,
}

impl<'a> Flattener<'a, '_> {
    /// Defines `x` as `e`, introducing auxiliary variables for nested and/or of the other kind.
    fn define(&mut self, x: BesVarId, e: Expr<'a>) -> Result<(), (usize, &'a str)> {
        let e = simplify(e);
        let (kind, ops) = match e {
            Expr::T => (RhsKind::True, vec![]),
            Expr::F => (RhsKind::False, vec![]),
            Expr::Var(v, off) => (RhsKind::And, vec![self.var(v, off)?]),
            Expr::And(parts) => (RhsKind::And, self.operands(parts)?),
            Expr::Or(parts) => (RhsKind::Or, self.operands(parts)?),
        };
        self.b
            .define(x, self.rank, kind, &ops)
            .expect("fresh variable with operands");
        Ok(())
    }

    fn var(&self, v: &'a str, off: usize) -> Result<BesVarId, (usize, &'a str)> {
        self.ids.get(v).copied().ok_or((off, v))
    }

    fn operands(&mut self, parts: Vec<Expr<'a>>) -> Result<Vec<BesVarId>, (usize, &'a str)> {
        let mut ops = Vec::with_capacity(parts.len());
        for p in parts {
            match p {
                Expr::Var(v, off) => ops.push(self.var(v, off)?),
                other => {
                    let name = loop {
                        self.counter += 1;
                        let cand = format!("{}'{}", self.base, self.counter);
                        if self.used.insert(cand.clone()) {
                            break cand;
                        }
                    };
                    let aux = self.b.add_auxiliary(&name);
                    self.define(aux, other)?;
                    ops.push(aux);
                }
            }
        }
        Ok(ops)
    }
}

/// Removes constants below the top, and flattens nested operators of the same kind.
fn simplify(e: Expr) -> Expr {
    match e {
        Expr::And(parts) => {
            let mut out = Vec::new();
            for p in parts {
                match simplify(p) {
                    Expr::T => {}
                    Expr::F => return Expr::F,
                    Expr::And(q) => out.extend(q),
                    q => out.push(q),
                }
            }
            match out.len() {
                0 => Expr::T,
                1 => out.pop().expect("one"),
                _ => Expr::And(out),
            }
        }
        Expr::Or(parts) => {
            let mut out = Vec::new();
            for p in parts {
                match simplify(p) {
                    Expr::F => {}
                    Expr::T => return Expr::T,
                    Expr::Or(q) => out.extend(q),
                    q => out.push(q),
                }
            }
            match out.len() {
                0 => Expr::F,
                1 => out.pop().expect("one"),
                _ => Expr::Or(out),
            }
        }
        e => e,
    }
}

fn valid_ident(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_')
        && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '\'')
        && !is_keyword(s)
}

/// Writes `bes` in mCRL2's textual format (`pbes` keyword, equations in rank order). Names
/// are kept when they are distinct identifiers, else every variable is written `X<index>`.
pub fn write_bes_text(bes: &Bes, w: &mut dyn Write) -> io::Result<()> {
    let mut seen = FxHashSet::default();
    let keep = bes.vars().all(|x| {
        let n = bes.name(x);
        valid_ident(&n) && seen.insert(n)
    });
    let name = |x: BesVarId| {
        if keep {
            bes.name(x)
        } else {
            format!("X{}", x.0)
        }
    };
    writeln!(w, "pbes")?;
    for x in bes.equation_order() {
        let rhs = match bes.kind(x) {
            RhsKind::True => "true".to_string(),
            RhsKind::False => "false".to_string(),
            k => {
                let sep = if k == RhsKind::And { " && " } else { " || " };
                bes.operands(x)
                    .iter()
                    .map(|&o| name(o))
                    .collect::<Vec<_>>()
                    .join(sep)
            }
        };
        writeln!(w, "  {} {} = {};", bes.fixpoint(x).keyword(), name(x), rhs)?;
    }
    if bes.num_vars() > 0 {
        writeln!(w, "init {};", name(bes.init()))?;
    }
    Ok(())
}
