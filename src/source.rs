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

    /// The text as a miette source with its name, for `#[source_code]` fields.
    pub fn named_source(&self) -> miette::NamedSource<std::sync::Arc<str>> {
        miette::NamedSource::new(self.name.clone(), self.text.clone())
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
