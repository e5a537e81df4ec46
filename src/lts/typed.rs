//! Labels typed against declarations: an explicit LTS's labels carry printed data
//! (`send(1, [true])`), and every route that matches them against action formulas
//! (`lts2pbes`, `check` on an LTS or a quotient, `ltscompare -c`) first types them as
//! multi-actions of the declared actions with closed data expressions of the declared sorts.

use miette::Diagnostic;
use thiserror::Error;

use crate::data::ir::{DataExpr, DataSpec, Sort};
use crate::data::ir_ops::Simplifier;
use crate::lts::Lts;
use crate::process::ir::{Action, ActionDecl, ProcExpr, ProcSpec};
use crate::source::{SourceFile, Span};

/// Why the labels of an LTS cannot be typed.
#[derive(Debug, Error, Diagnostic)]
pub enum LabelError {
    /// A label is not a multi-action.
    #[error("transition label `{0}` is not an mCRL2 multi-action")]
    #[diagnostic(code(muon::lts2pbes::label))]
    NotMultiAction(String),
    /// A label uses an action that is not declared.
    #[error("label `{label}`: action `{action}` with {arity} argument(s) is not declared")]
    #[diagnostic(
        code(muon::lts2pbes::undeclared),
        help("give the specification or LPS the LTS came from with `--spec` or `--lps`")
    )]
    UndeclaredAction {
        /// The label.
        label: String,
        /// The action name.
        action: String,
        /// Its number of arguments.
        arity: usize,
    },
    /// A label argument is not a data expression of the declared sort.
    #[error("label `{label}`: argument `{arg}` is not a value of sort {sort}: {reason}")]
    #[diagnostic(code(muon::lts2pbes::argument))]
    BadArgument {
        /// The label.
        label: String,
        /// The argument text.
        arg: String,
        /// The expected sort, printed.
        sort: String,
        /// Why it was rejected.
        reason: String,
    },
    /// A label carries data but no declarations were given to type it.
    #[error("label `{0}` carries data; its sorts are unknown")]
    #[diagnostic(
        code(muon::lts2pbes::untyped_data),
        help("give the specification with --spec (-m) or the LPS with --lps")
    )]
    UntypedData(String),
}

/// Types the labels of `lts` against action declarations: every label becomes a
/// multi-action (empty for `tau`), its actions sorted. `parse_arg` turns a printed argument
/// into a data expression of the given sort ([`LabelArgParser::parse`], or a test double).
pub fn type_labels(
    lts: &Lts,
    actions: &[ActionDecl],
    parse_arg: &mut dyn FnMut(&str, &Sort) -> Result<DataExpr, String>,
) -> Result<Vec<Vec<Action>>, LabelError> {
    let mut out = Vec::with_capacity(lts.labels.len());
    for label in &lts.labels {
        let parts = label
            .parts()
            .ok_or_else(|| LabelError::NotMultiAction(label.text().to_string()))?;
        let mut acts = Vec::with_capacity(parts.len());
        for p in parts {
            let mut last_err = None;
            let mut found = None;
            // Overloaded actions: the first declaration whose sorts all parse wins.
            for d in actions
                .iter()
                .filter(|d| *d.name == *p.name && d.sorts.len() == p.args.len())
            {
                let mut args = Vec::with_capacity(p.args.len());
                let mut ok = true;
                for (a, s) in p.args.iter().zip(&d.sorts) {
                    match parse_arg(a, s) {
                        Ok(e) => args.push(e),
                        Err(reason) => {
                            last_err = Some(LabelError::BadArgument {
                                label: label.text().to_string(),
                                arg: a.clone(),
                                sort: crate::data::print::sort_to_string(s),
                                reason,
                            });
                            ok = false;
                            break;
                        }
                    }
                }
                if ok {
                    found = Some(Action {
                        name: d.name.clone(),
                        sorts: d.sorts.clone(),
                        args,
                    });
                    break;
                }
            }
            match (found, last_err) {
                (Some(a), _) => acts.push(a),
                (None, Some(e)) => return Err(e),
                (None, None) => {
                    return Err(LabelError::UndeclaredAction {
                        label: label.text().to_string(),
                        action: p.name.clone(),
                        arity: p.args.len(),
                    })
                }
            }
        }
        acts.sort();
        out.push(acts);
    }
    Ok(out)
}

/// The labels of `lts` typed against the actions and data of `spec`, with one
/// [`LabelArgParser`] for all of them.
pub fn typed_labels(lts: &Lts, spec: &ProcSpec) -> Result<Vec<Vec<Action>>, LabelError> {
    let store = crate::data::TermStore::new();
    let arg_parser = LabelArgParser::new(&spec.data, &store);
    type_labels(lts, &spec.actions, &mut |text, sort| {
        arg_parser.parse(text, sort)
    })
}

/// Declarations of the action names in the labels of `lts`, for an LTS given without its
/// specification: the labels must then carry no data.
pub fn label_declarations(lts: &Lts) -> Result<ProcSpec, LabelError> {
    let mut actions: Vec<ActionDecl> = Vec::new();
    for l in &lts.labels {
        let parts = l
            .parts()
            .ok_or_else(|| LabelError::NotMultiAction(l.text().to_string()))?;
        for p in parts {
            if !p.args.is_empty() {
                return Err(LabelError::UntypedData(l.text().to_string()));
            }
            if !actions.iter().any(|a| *a.name == *p.name) {
                actions.push(ActionDecl {
                    name: p.name.as_str().into(),
                    sorts: Vec::new(),
                    span: Span::default(),
                });
            }
        }
    }
    Ok(ProcSpec {
        data: Default::default(),
        actions,
        globals: Vec::new(),
        procs: Vec::new(),
        init: ProcExpr::Delta,
        init_span: Span::default(),
    })
}

/// Types the printed arguments of LTS labels as closed data expressions (with the data
/// type checker and one simplifier for all labels: building the simplifier compiles the
/// data specification's rewrite rules and makes a term store, so it is made once per LTS,
/// never once per label).
pub struct LabelArgParser<'a> {
    data: &'a DataSpec,
    simp: Box<dyn Simplifier + 'a>,
}

impl<'a> LabelArgParser<'a> {
    /// A parser of label arguments against `data`; the simplifier's terms live in `store`.
    pub fn new(data: &'a DataSpec, store: &'a crate::data::TermStore) -> Self {
        LabelArgParser {
            data,
            simp: crate::data::simplify::best_simplifier(data, store),
        }
    }

    /// Parses a printed label argument as a closed data expression of sort `sort`.
    pub fn parse(&self, text: &str, sort: &Sort) -> Result<DataExpr, String> {
        let src = SourceFile::new("<label>".to_string(), text.to_string());
        let messages = |d: crate::data::typecheck::Diagnostics| {
            d.messages()
                .into_iter()
                .map(|(_, _, m)| m)
                .collect::<Vec<_>>()
                .join("; ")
        };
        // An expression whose sort the context decides (`[]`, `{}`, `[1]: List(Nat)`) is
        // checked again against the declared sort.
        let as_declared = || {
            crate::data::typecheck::check_data_expr_as(&src, self.data, sort)
                .map(|e| self.simp.simplify(&e))
                .ok()
                .filter(|e| e.sort() == *sort)
        };
        let e = match crate::data::typecheck::check_data_expr(&src, self.data, &[]) {
            Ok(e) => e,
            Err(d) => return as_declared().ok_or_else(|| messages(d)),
        };
        let e = self.simp.simplify(&e);
        if e.sort() == *sort {
            return Ok(e);
        }
        // Number literals are typed by their value (`1: Pos`); take the declared sort.
        match e {
            DataExpr::Number { value, .. } if sort.is_numeric() => Ok(DataExpr::Number {
                value,
                sort: sort.clone(),
            }),
            other => as_declared().ok_or_else(|| {
                format!(
                    "it has sort {}",
                    crate::data::print::sort_to_string(&other.sort())
                )
            }),
        }
    }
}
