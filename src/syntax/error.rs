//! Syntax errors: one diagnostic per failed parse, with the source, the offending span
//! underlined, a message in mCRL2's terms and a hint where one helps.

use std::fmt;

use miette::{Diagnostic, LabeledSpan, SourceCode};

use crate::source::{SourceFile, Span};

/// What kind of syntax error this is (also its diagnostic code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyntaxErrorKind {
    /// The text does not follow the grammar.
    Syntax,
    /// A construct of mCRL2 that muon does not support (timed `@`/`<<`/`delay`/`yaled`,
    /// probabilistic `dist`, quantitative formulas).
    Unsupported,
    /// Nesting deeper than the parser accepts.
    TooDeep,
}

impl SyntaxErrorKind {
    /// The diagnostic code.
    pub fn code(self) -> &'static str {
        match self {
            SyntaxErrorKind::Syntax => "muon::syntax::error",
            SyntaxErrorKind::Unsupported => "muon::syntax::unsupported",
            SyntaxErrorKind::TooDeep => "muon::syntax::too_deep",
        }
    }
}

/// A syntax error in a named source text (boxed: results stay small on the happy path).
#[derive(Debug, Clone)]
pub struct SyntaxError(Box<Inner>);

#[derive(Debug, Clone)]
struct Inner {
    kind: SyntaxErrorKind,
    message: String,
    label: String,
    help: Option<String>,
    span: Span,
    line: usize,
    column: usize,
    source: crate::source::WindowedSource,
}

impl SyntaxError {
    /// A new error of `kind` at `span` of `src`; `label` is shown under the span.
    pub fn new(
        kind: SyntaxErrorKind,
        src: &SourceFile,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> SyntaxError {
        let (line, column) = span.line_col(&src.text);
        SyntaxError(Box::new(Inner {
            kind,
            message: message.into(),
            label: label.into(),
            help: None,
            span,
            line,
            column,
            source: src.named_source(),
        }))
    }

    /// The same error with a hint.
    pub fn with_help(mut self, help: impl Into<String>) -> SyntaxError {
        self.0.help = Some(help.into());
        self
    }

    /// What kind of error.
    pub fn kind(&self) -> SyntaxErrorKind {
        self.0.kind
    }

    /// The message (without position).
    pub fn message(&self) -> &str {
        &self.0.message
    }

    /// The hint, if any.
    pub fn help_text(&self) -> Option<&str> {
        self.0.help.as_deref()
    }

    /// The offending span.
    pub fn span(&self) -> Span {
        self.0.span
    }

    /// 1-based (line, column) of the offending span's start.
    pub fn line_col(&self) -> (usize, usize) {
        (self.0.line, self.0.column)
    }

    /// The source file's name.
    pub fn file_name(&self) -> &str {
        self.0.source.name()
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.message)
    }
}

impl std::error::Error for SyntaxError {}

impl Diagnostic for SyntaxError {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.0.kind.code()))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0
            .help
            .as_ref()
            .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.0.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            Some(self.0.label.clone()),
            self.0.span,
        ))))
    }
}
