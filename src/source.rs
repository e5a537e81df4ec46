//! The ground every other module stands on: source positions ([`Span`]), named source texts
//! ([`SourceFile`]) and identifiers ([`Name`]). Shared by every textual language, kept on the
//! typed IRs for diagnostics; depends on no other module of the crate.

use serde::{Deserialize, Serialize};

/// An identifier. Cheap to clone; compared by content.
pub type Name = std::sync::Arc<str>;

/// A byte range `start..end` in one source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `start..end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    /// 1-based line and column (in characters) of the span's start in `text`.
    pub fn line_col(self, text: &str) -> (usize, usize) {
        let mut start = (self.start as usize).min(text.len());
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        let before = &text[..start];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(s: Span) -> miette::SourceSpan {
        (s.start as usize, (s.end - s.start) as usize).into()
    }
}

/// A named source text, as diagnostics need it.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The file name as the user gave it (or `<stdin>`, `<command line>`).
    pub name: String,
    /// The whole text.
    pub text: std::sync::Arc<str>,
}

impl SourceFile {
    /// A source file from a name and its text.
    pub fn new(name: impl Into<String>, text: impl Into<std::sync::Arc<str>>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
        }
    }

    /// The text as a miette source with its name, for `#[source_code]` fields; long lines
    /// are cut to a window around the error ([`WindowedSource`]).
    pub fn named_source(&self) -> WindowedSource {
        WindowedSource {
            name: self.name.clone(),
            text: self.text.clone(),
        }
    }
}

/// Longest source line a diagnostic shows whole; a longer one is cut to this many bytes
/// around the error.
pub const MAX_SHOWN_LINE: usize = 160;

/// A named source text for miette that never shows more than [`MAX_SHOWN_LINE`] bytes of a
/// line: a diagnostic in a 40,000-character line shows a window around the error, with its
/// real line and column.
#[derive(Clone, Debug)]
pub struct WindowedSource {
    name: String,
    text: std::sync::Arc<str>,
}

impl WindowedSource {
    /// The file name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl miette::SourceCode for WindowedSource {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let text: &str = &self.text;
        let (start, len) = (span.offset(), span.len());
        if start + len > text.len() {
            return Err(miette::MietteError::OutOfBounds);
        }
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let context =
            text.as_bytes()[line_start..line_end].len() > MAX_SHOWN_LINE || len > MAX_SHOWN_LINE;
        if !context {
            // Short lines: miette's own rendering of the lines around the span, unless one
            // of the context lines is long; then the span's line alone.
            let contents = text.read_span(span, before, after)?;
            if contents
                .data()
                .split(|&b| b == b'\n')
                .all(|l| l.len() <= MAX_SHOWN_LINE)
            {
                return Ok(Box::new(miette::MietteSpanContents::new_named(
                    self.name.clone(),
                    contents.data(),
                    *contents.span(),
                    contents.line(),
                    contents.column(),
                    contents.line_count(),
                )));
            }
        }
        // A window of the span's line around the span's start, on character boundaries.
        let mut ws = start.saturating_sub(MAX_SHOWN_LINE / 2).max(line_start);
        while !text.is_char_boundary(ws) {
            ws += 1;
        }
        let mut we = (ws + MAX_SHOWN_LINE).min(line_end).max(start.min(line_end));
        while !text.is_char_boundary(we) {
            we -= 1;
        }
        let line = text[..line_start].matches('\n').count();
        Ok(Box::new(miette::MietteSpanContents::new_named(
            self.name.clone(),
            &text.as_bytes()[ws..we],
            (ws, we - ws).into(),
            line,
            text[line_start..ws].chars().count(),
            1,
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_from_one() {
        let t = "ab\ncd\n  ef";
        assert_eq!(Span::new(0, 1).line_col(t), (1, 1));
        assert_eq!(Span::new(4, 5).line_col(t), (2, 2));
        assert_eq!(Span::new(8, 10).line_col(t), (3, 3));
    }
}
