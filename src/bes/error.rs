//! Diagnostics for malformed `.pg`, `paritysol` and textual BES input.

use miette::{Diagnostic, NamedSource, SourceSpan};
use thiserror::Error;

/// A syntax or well-formedness error in a textual input, with its position.
///
/// `line` and `column` are 1-based. The attached source is only the offending line (so that
/// a huge input is not copied into the error); the message carries the real position.
#[derive(Debug, Error, Diagnostic)]
#[error("{file}:{line}:{column}: {message}")]
#[diagnostic(code(muon::bes::parse))]
pub struct ParseError {
    /// What is wrong.
    pub message: String,
    /// The input's name (file name or `<stdin>`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in bytes).
    pub column: usize,
    #[source_code]
    src: NamedSource<String>,
    #[label("{label}")]
    span: SourceSpan,
    label: String,
    /// How to fix it, if there is an obvious way.
    #[help]
    pub help: Option<String>,
}

impl ParseError {
    /// An error at byte `offset` of `text` covering `len` bytes.
    pub fn at(
        file: &str,
        text: &[u8],
        offset: usize,
        len: usize,
        message: impl Into<String>,
        label: impl Into<String>,
        help: Option<String>,
    ) -> ParseError {
        let offset = offset.min(text.len());
        let line_start = text[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line_end = text[offset..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |p| offset + p);
        let line = text[..line_start].iter().filter(|&&b| b == b'\n').count() + 1;
        let column = offset - line_start + 1;
        let snippet = String::from_utf8_lossy(&text[line_start..line_end]).into_owned();
        let rel = (offset - line_start).min(snippet.len());
        let len = len.max(1).min(snippet.len().saturating_sub(rel).max(1));
        ParseError {
            message: message.into(),
            file: file.to_string(),
            line,
            column,
            src: NamedSource::new(format!("{file}:{line}"), snippet),
            span: (rel, len).into(),
            label: label.into(),
            help,
        }
    }
}
