//! Diagnostics for malformed `.pg`, `paritysol` and textual BES input.

use miette::{Diagnostic, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use thiserror::Error;

/// A syntax or well-formedness error in a textual input, with its position.
///
/// `line` and `column` are 1-based. The attached source is only the offending line (so that
/// a huge input is not copied into the error); the message carries the real position.
#[derive(Debug, Error, Diagnostic)]
#[error("{}:{}:{}: {}", .src.name, .line, .column, .message)]
#[diagnostic(code(muon::bes::parse))]
pub struct ParseError {
    /// What is wrong.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in bytes).
    pub column: usize,
    #[source_code]
    src: LineSource,
    #[label("{label}")]
    span: SourceSpan,
    label: String,
    /// How to fix it, if there is an obvious way.
    #[help]
    pub help: Option<String>,
}

impl ParseError {
    /// The input's name (file name or `<stdin>`).
    pub fn file(&self) -> &str {
        &self.src.name
    }

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
            line,
            column,
            src: LineSource(Box::new(LineInner {
                name: file.to_string(),
                text: snippet,
                line: line - 1,
            })),
            span: (rel, len).into(),
            label: label.into(),
            help,
        }
    }
}

/// The offending line of an input, rendered by miette with its real line number (so a
/// huge input is never copied into an error).
#[derive(Debug)]
struct LineSource(Box<LineInner>);

impl std::ops::Deref for LineSource {
    type Target = LineInner;
    fn deref(&self) -> &LineInner {
        &self.0
    }
}

#[derive(Debug)]
struct LineInner {
    name: String,
    text: String,
    /// 0-based line index of `text` in the input.
    line: usize,
}

impl SourceCode for LineSource {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        _before: usize,
        _after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        if span.offset() + span.len() > self.text.len().max(1) {
            return Err(MietteError::OutOfBounds);
        }
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            self.text.as_bytes(),
            (0, self.text.len()).into(),
            self.line,
            0,
            1,
        )))
    }
}
