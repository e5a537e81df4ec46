//! Type errors: collected diagnostics with spans, labels and hints, and "did you mean"
//! suggestions by edit distance.

use super::*;

// ---------------------------------------------------------------------------------------
// Diagnostics
// ---------------------------------------------------------------------------------------

/// One type error: a message, the offending span with a label, and an optional hint.
#[derive(Debug, Clone, Error, Diagnostic)]
#[error("{message}")]
#[diagnostic(code(muon::typecheck))]
pub struct TypeError {
    /// What is wrong.
    pub message: String,
    /// The label under the span.
    pub label: String,
    /// A hint such as "did you mean `x`?".
    #[help]
    pub help: Option<String>,
    /// The offending span (for miette).
    #[label("{label}")]
    pub at: miette::SourceSpan,
    /// The offending span.
    pub span: Span,
    /// 1-based line of the span's start.
    pub line: usize,
    /// 1-based column of the span's start.
    pub col: usize,
}

/// All errors found in one input file (or the syntax error that stopped parsing it).
#[derive(Debug)]
pub struct Diagnostics {
    inner: Box<DiagInner>,
}

#[derive(Debug)]
pub(super) struct DiagInner {
    file: String,
    src: crate::source::WindowedSource,
    errors: Vec<TypeError>,
    syntax: Option<SyntaxError>,
}

impl Diagnostics {
    /// Diagnostics for type errors in `src`.
    pub fn new(src: &SourceFile, errors: Vec<TypeError>) -> Diagnostics {
        Diagnostics {
            inner: Box::new(DiagInner {
                file: src.name.clone(),
                src: src.named_source(),
                errors,
                syntax: None,
            }),
        }
    }

    /// Diagnostics wrapping a syntax error.
    pub fn from_syntax(src: &SourceFile, e: SyntaxError) -> Diagnostics {
        Diagnostics {
            inner: Box::new(DiagInner {
                file: src.name.clone(),
                src: src.named_source(),
                errors: Vec::new(),
                syntax: Some(e),
            }),
        }
    }

    /// The type errors (empty for a syntax error).
    pub fn errors(&self) -> &[TypeError] {
        &self.inner.errors
    }

    /// The syntax error, if parsing failed.
    pub fn syntax_error(&self) -> Option<&SyntaxError> {
        self.inner.syntax.as_ref()
    }

    /// Every problem as `(line, column, message)`, for tests and terse output.
    pub fn messages(&self) -> Vec<(usize, usize, String)> {
        if let Some(s) = &self.inner.syntax {
            let (l, c) = s.line_col();
            return vec![(l, c, s.message().to_string())];
        }
        self.inner
            .errors
            .iter()
            .map(|e| (e.line, e.col, e.message.clone()))
            .collect()
    }

    /// The file the problems are in.
    pub fn file(&self) -> &str {
        &self.inner.file
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.inner.syntax {
            let (l, c) = s.line_col();
            return write!(f, "{}:{l}:{c}: {}", self.inner.file, s.message());
        }
        match self.inner.errors.as_slice() {
            [e] => write!(f, "{}:{}:{}: {}", self.inner.file, e.line, e.col, e.message),
            es => write!(f, "{}: {} type errors", self.inner.file, es.len()),
        }
    }
}

impl std::error::Error for Diagnostics {}

impl Diagnostic for Diagnostics {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match &self.inner.syntax {
            Some(s) => s.code(),
            None => Some(Box::new("muon::typecheck")),
        }
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        match (&self.inner.syntax, self.inner.errors.as_slice()) {
            (Some(s), _) => s.help(),
            (None, [e]) => e
                .help
                .as_ref()
                .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>),
            _ => None,
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        Some(&self.inner.src)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        match (&self.inner.syntax, self.inner.errors.as_slice()) {
            (Some(s), _) => s.labels(),
            (None, [e]) => Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
                Some(e.label.clone()),
                e.span,
            )))),
            _ => None,
        }
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.inner.syntax.is_some() || self.inner.errors.len() < 2 {
            return None;
        }
        Some(Box::new(
            self.inner.errors.iter().map(|e| e as &dyn Diagnostic),
        ))
    }
}

/// Marker: an error was recorded in the checker's error list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reported;

/// Result of a checking step whose errors are already recorded.
pub type Res<T> = Result<T, Reported>;

/// Edit distance (on characters) counting insertions, deletions, substitutions and swaps of
/// adjacent characters (optimal string alignment), for "did you mean" hints.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let w = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * w];
    for i in 0..=a.len() {
        d[i * w] = i;
    }
    for (j, x) in d.iter_mut().enumerate().take(w) {
        *x = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * w + j] + 1)
                .min(d[i * w + j - 1] + 1)
                .min(d[(i - 1) * w + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * w + j - 2] + 1);
            }
            d[i * w + j] = v;
        }
    }
    d[a.len() * w + b.len()]
}

/// The candidate closest to `name`, if it is close enough to be a plausible typo.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| {
            let d = if c.to_lowercase() == lower {
                0
            } else {
                edit_distance(name, c)
            };
            (d, c)
        })
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, c)| c.to_string())
}

/// "did you mean `x`?" for the closest candidate.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    closest(name, candidates).map(|c| format!("did you mean `{c}`?"))
}
