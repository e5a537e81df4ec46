//! Bracket pre-pass that keeps process parsing linear: it marks every `(` that cannot begin
//! a condition `c -> p`, so the grammar does not try a condition there.
//!
//! Why: a process expression may start with a condition whose data part is bracketed,
//! `(x > 0) -> a`. The PEG grammar has no memo, so at each `(` of `((((a))))` it first
//! parses everything up to the matching `)` as data, sees no `->`, and backtracks. Parsing
//! 20,000 nested brackets then took minutes; mCRL2 takes a fraction of a second. Such a
//! condition can only succeed when the bracket group, after any argument groups `(..)` that
//! directly follow it, is followed by `->`. One linear scan decides that for every `(`.
//! The marked `(` becomes the byte `\x01`, which every bracket of the grammar (`lpar`)
//! accepts and a condition (`p_cond`) refuses. Byte offsets are unchanged, so spans and
//! diagnostics refer to the user's text.

use std::borrow::Cow;

use super::*;

/// The byte that stands for a `(` that cannot begin a condition.
pub(super) const MARK: u8 = 0x01;

/// The text handed to the grammar: `text` with the `(` that cannot begin a condition
/// marked when `processes` (a text without process expressions is passed unchanged).
/// Fails on a text that contains the marker byte itself (no mCRL2 text does), since the
/// grammar would take it for `(`.
pub(super) fn mark_parens(src: &SourceFile, processes: bool) -> R<Cow<'_, str>> {
    let bytes = src.text.as_bytes();
    if let Some(at) = bytes.iter().position(|&b| b == MARK) {
        return Err(SyntaxError::new(
            SyntaxErrorKind::Syntax,
            src,
            Span::new(at, at + 1),
            "unexpected control character U+0001",
            "here",
        )
        .with_help("remove the control character; mCRL2 text is printable"));
    }
    if !processes {
        return Ok(Cow::Borrowed(&src.text));
    }
    // Matching `)` of every `(` (comments skipped; unbalanced brackets stay unmarked, the
    // grammar reports them).
    let mut close = vec![usize::MAX; bytes.len()];
    let mut opens: Vec<usize> = Vec::new();
    let mut any = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => i = skip_comment(bytes, i),
            b'(' => {
                opens.push(i);
                i += 1;
            }
            b')' => {
                if let Some(o) = opens.pop() {
                    close[o] = i;
                    any = true;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    if !any {
        return Ok(Cow::Borrowed(&src.text));
    }
    // From the right: a group may begin a condition when the next token after it is `->`,
    // or another group (an application's arguments) that may.
    let mut may_begin = vec![false; bytes.len()];
    let mut marked = bytes.to_vec();
    let mut changed = false;
    for o in (0..bytes.len()).rev() {
        let c = close[o];
        if c == usize::MAX {
            continue;
        }
        let j = skip_blank(bytes, c + 1);
        let may = if j < bytes.len() && bytes[j] == b'(' && close[j] != usize::MAX {
            may_begin[j]
        } else {
            bytes[j..].starts_with(b"->")
        };
        may_begin[o] = may;
        if !may {
            marked[o] = MARK;
            changed = true;
        }
    }
    if !changed {
        return Ok(Cow::Borrowed(&src.text));
    }
    // Only ASCII `(` bytes were replaced by another ASCII byte.
    Ok(Cow::Owned(
        String::from_utf8(marked).expect("ASCII for ASCII keeps UTF-8"),
    ))
}

/// The position after a `%` comment that starts at `i`.
fn skip_comment(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i] != b'\n' && bytes[i] != b'\r' {
        i += 1;
    }
    i
}

/// The first position at or after `i` that is neither white space nor inside a comment
/// (the grammar's `WHITESPACE` and `COMMENT`).
fn skip_blank(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'%' => i = skip_comment(bytes, i),
            _ => break,
        }
    }
    i
}
