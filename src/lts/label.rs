//! Transition labels: multi-actions as text and as structured parts.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// One action of a multi-action: its name and its data arguments as mCRL2 prints closed data
/// terms (`1`, `true`, `[1, 2]`, `d1`). The printed form is what the `.aut` format carries, and
/// it is parseable as an mCRL2 data expression of the action's declared sort, which is how
/// `lts2pbes` can compare it with the data in an action formula.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ActionPart {
    /// The action name.
    pub name: String,
    /// The printed data arguments, in order.
    pub args: Vec<String>,
}

impl ActionPart {
    /// An action part from a name and printed arguments.
    pub fn new(name: impl Into<String>, args: Vec<String>) -> ActionPart {
        ActionPart {
            name: name.into(),
            args,
        }
    }

    fn write_to(&self, out: &mut String) {
        out.push_str(&self.name);
        if !self.args.is_empty() {
            out.push('(');
            for (i, a) in self.args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(a);
            }
            out.push(')');
        }
    }
}

/// A transition label: a multi-action, printed as mCRL2 prints it (`a(1, true)|b`; `tau` for
/// the empty multi-action), together with its structure when the text is a multi-action.
///
/// Two labels are the same label exactly when their texts are equal; the text is what `.aut`
/// files store. Labels made by a state-space generator always have their structure; labels
/// read from an `.aut` file get it by parsing the text, and a text that is no mCRL2
/// multi-action (files from other tools) keeps `parts == None`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Label {
    text: String,
    parts: Option<Vec<ActionPart>>,
}

/// Why a label text is not a multi-action.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum LabelParseError {
    /// The text is empty or an action in it has no name.
    #[error("an action in `{0}` has no name")]
    MissingName(String),
    /// An action name is not an mCRL2 identifier.
    #[error("`{0}` is not an action name (expected letters, digits, `_` and `'`)")]
    BadName(String),
    /// Brackets do not match.
    #[error("unbalanced brackets in `{0}`")]
    Unbalanced(String),
    /// Text follows the closing bracket of an action's arguments.
    #[error("unexpected text after the arguments of `{0}`")]
    Trailing(String),
}

impl Label {
    /// The internal action `tau` (the empty multi-action).
    pub fn tau() -> Label {
        Label {
            text: "tau".to_string(),
            parts: Some(Vec::new()),
        }
    }

    /// The label of the multi-action `parts` (in the given order; the producer orders the
    /// parts canonically, as mCRL2 sorts multi-actions). No parts is `tau`.
    pub fn from_parts(parts: Vec<ActionPart>) -> Label {
        if parts.is_empty() {
            return Label::tau();
        }
        let mut text = String::new();
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                text.push('|');
            }
            p.write_to(&mut text);
        }
        Label {
            text,
            parts: Some(parts),
        }
    }

    /// A label from its text; its structure is parsed from the text when the text is a
    /// multi-action, and absent otherwise. The text is kept verbatim.
    pub fn from_text(text: impl Into<String>) -> Label {
        let text = text.into();
        let parts = parse_multi_action(&text).ok();
        Label { text, parts }
    }

    /// The label text as mCRL2 prints it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The actions of the multi-action (empty for `tau`), or `None` when the text is not an
    /// mCRL2 multi-action.
    pub fn parts(&self) -> Option<&[ActionPart]> {
        self.parts.as_deref()
    }

    /// Whether this is the internal action `tau`.
    pub fn is_tau(&self) -> bool {
        matches!(&self.parts, Some(p) if p.is_empty())
    }

    /// Whether one of the actions of this label is called `name`.
    pub fn has_action(&self, name: &str) -> bool {
        match &self.parts {
            Some(parts) => parts.iter().any(|p| p.name == name),
            None => self.text == name,
        }
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '\'')
}

/// Splits `s` at the top-level (bracket depth 0) occurrences of `sep`.
fn split_top(s: &str, sep: char) -> Result<Vec<&str>, LabelParseError> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth < 0 {
                    return Err(LabelParseError::Unbalanced(s.to_string()));
                }
            }
            c if c == sep && depth == 0 => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(LabelParseError::Unbalanced(s.to_string()));
    }
    out.push(&s[start..]);
    Ok(out)
}

/// Parses an mCRL2 multi-action text (`tau`, `a`, `a(1, [2])|b(true)`) into its parts.
pub fn parse_multi_action(text: &str) -> Result<Vec<ActionPart>, LabelParseError> {
    let t = text.trim();
    if t == "tau" {
        return Ok(Vec::new());
    }
    let mut parts = Vec::new();
    for piece in split_top(t, '|')? {
        let piece = piece.trim();
        let (name, args) = match piece.find('(') {
            None => (piece, Vec::new()),
            Some(open) => {
                let name = piece[..open].trim();
                let rest = &piece[open + 1..];
                let Some(inner) = rest.strip_suffix(')') else {
                    return Err(if rest.contains(')') {
                        LabelParseError::Trailing(piece.to_string())
                    } else {
                        LabelParseError::Unbalanced(piece.to_string())
                    });
                };
                // `a(1)(2)` and `a(1) x` end in `)` or not; reject the former explicitly.
                if split_top(inner, ',').is_err() {
                    return Err(LabelParseError::Trailing(piece.to_string()));
                }
                let args = split_top(inner, ',')?
                    .into_iter()
                    .map(|a| a.trim().to_string())
                    .collect();
                (name, args)
            }
        };
        if name.is_empty() {
            return Err(LabelParseError::MissingName(text.to_string()));
        }
        if !is_ident(name) {
            return Err(LabelParseError::BadName(name.to_string()));
        }
        parts.push(ActionPart::new(name, args));
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_and_parse() {
        let l = Label::from_parts(vec![
            ActionPart::new("a", vec!["1".into(), "true".into()]),
            ActionPart::new("b", vec![]),
        ]);
        assert_eq!(l.text(), "a(1, true)|b");
        assert_eq!(Label::from_text("a(1, true)|b"), l);
        assert!(Label::tau().is_tau());
        assert_eq!(Label::from_parts(vec![]).text(), "tau");
        let nested = Label::from_text("s(f(1, 2), [1, 2], {3})|r'(x)");
        let p = nested.parts().unwrap();
        assert_eq!(p[0].args, vec!["f(1, 2)", "[1, 2]", "{3}"]);
        assert_eq!(p[1].name, "r'");
        assert!(nested.has_action("r'"));
        assert!(!nested.has_action("r"));
        assert!(Label::from_text("a b").parts().is_none());
        assert!(Label::from_text("a(1").parts().is_none());
        assert!(Label::from_text("a(1))").parts().is_none());
        assert!(Label::from_text("a(1)(2)").parts().is_none());
        assert!(Label::from_text("|a").parts().is_none());
    }
}
