//! From text to the untyped AST: the pest grammar (`mcrl2.pest`), operator precedence with
//! pest's Pratt parser (mCRL2's priorities), readable syntax errors, and the depth guard.

use std::sync::{Arc, LazyLock};

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;

use crate::source::Name;
use crate::source::{SourceFile, Span};
use crate::syntax::ast::*;
use crate::syntax::error::{SyntaxError, SyntaxErrorKind};

mod data;
mod decls;
mod depth;
mod diagnose;
mod formula;
mod parens;
mod pbes;
mod process;
use depth::*;
use diagnose::*;

#[derive(pest_derive::Parser)]
#[grammar = "syntax/mcrl2.pest"]
struct Mcrl2Parser;

/// Deepest bracket nesting accepted (pest's recursive descent recurses per bracket); mCRL2
/// accepts 20,000 nested brackets in a data expression.
pub const MAX_BRACKET_DEPTH: usize = 50_000;
/// Deepest AST accepted (operator chains make trees deep without brackets); consumers that
/// recurse over the AST can rely on it.
pub const MAX_AST_DEPTH: usize = 50_000;
/// Stack of the thread that parses: pest and the Pratt parser recurse per nesting level.
const PARSE_STACK: usize = 512 << 20;

type R<T> = Result<T, SyntaxError>;

/// Which top-level grammar rule to parse.
#[derive(Clone, Copy)]
pub(crate) enum Entry {
    Spec,
    Formula,
    Pbes,
    Data,
}

/// What a parse produces.
pub(crate) enum Parsed {
    Spec(Spec),
    Formula(FormulaSpec),
    Pbes(PbesSpec),
    Data(DataExpr),
}

/// Parses `src` from `entry` with the depth guards, on a large stack: the caller's when
/// enough of it is left (the CLI runs on a thread with a large stack), else on a stack
/// segment grown for the parse (`stacker`), so that parsing many small texts (LTS labels)
/// costs no thread or stack per text.
pub(crate) fn parse(src: &SourceFile, entry: Entry) -> R<Parsed> {
    stacker::maybe_grow(PARSE_STACK / 2, PARSE_STACK, || {
        prescan_depth(src)?;
        let parsed = parse_inner(src, entry)?;
        check_depth(src, &parsed)?;
        Ok(parsed)
    })
}

fn parse_inner(src: &SourceFile, entry: Entry) -> R<Parsed> {
    let rule = match entry {
        Entry::Spec => Rule::spec,
        Entry::Formula => Rule::formula_spec,
        Entry::Pbes => Rule::pbes_spec,
        Entry::Data => Rule::lone_data_expr,
    };
    // Only specifications have process expressions; every text is checked for the marker.
    let marked = parens::mark_parens(src, matches!(entry, Entry::Spec))?;
    let text: &str = &marked;
    let mut pairs = match Mcrl2Parser::parse(rule, text) {
        Ok(p) => p,
        Err(e) => {
            // Literal tokens (`;`, `)`) are only reported with pest's error detail, which
            // makes parsing several times slower: parse again with it to explain the error.
            // (The switch is process-wide; a concurrent parse may briefly run with detail,
            // which only costs it time.)
            pest::set_error_detail(true);
            let detailed = Mcrl2Parser::parse(rule, text);
            pest::set_error_detail(false);
            return Err(pest_error(src, detailed.err().unwrap_or(e)));
        }
    };
    let top = pairs.next().expect("the entry rule matched");
    check_reserved(src, &top)?;
    let b = Builder { src };
    Ok(match entry {
        Entry::Spec => Parsed::Spec(b.spec(top)?),
        Entry::Formula => Parsed::Formula(b.formula_spec(top)?),
        Entry::Pbes => Parsed::Pbes(b.pbes_spec(top)?),
        Entry::Data => {
            let e = kids(top).next().expect("lone_data_expr has a data_expr");
            Parsed::Data(b.data_expr(e)?)
        }
    })
}

/// mCRL2's reserved words: never names. Its parser makes every word of its grammar a
/// keyword, also those of features muon leaves out (time, probabilities, equation systems
/// over reals), so `map val: Nat;` is an error there and here.
const RESERVED: [&str; 53] = [
    "sort", "cons", "map", "var", "eqn", "act", "proc", "init", "glob", "struct", "Bool", "Pos",
    "Nat", "Int", "Real", "List", "Set", "Bag", "FSet", "FBag", "lambda", "forall", "exists",
    "whr", "end", "true", "false", "div", "mod", "in", "delta", "tau", "sum", "block", "allow",
    "hide", "rename", "comm", "mu", "nu", "val", "form", "pbes", "pres", "inf", "sup", "delay",
    "yaled", "dist", "condeq", "condsm", "eqinf", "eqninf",
];

/// Rejects identifiers that are reserved words (the grammar lets them through; see
/// `mcrl2.pest`).
fn check_reserved(src: &SourceFile, top: &Pair<Rule>) -> R<()> {
    for p in top.clone().into_inner().flatten() {
        if p.as_rule() == Rule::ident && RESERVED.contains(&p.as_str()) {
            let w = p.as_str();
            return Err(SyntaxError::new(
                SyntaxErrorKind::Syntax,
                src,
                sp(&p),
                format!("unexpected `{w}`; expected an identifier"),
                "reserved word",
            )
            .with_help(format!(
                "`{w}` is a reserved word of mCRL2 and cannot be a name"
            )));
        }
    }
    Ok(())
}

// -------------------------------------------------------------------------------------------
// Building the AST
// -------------------------------------------------------------------------------------------

fn sp(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

fn is_kw(r: Rule) -> bool {
    use Rule::*;
    matches!(
        r,
        kw_sort
            | kw_cons
            | kw_map
            | kw_var
            | kw_eqn
            | kw_act
            | kw_proc
            | kw_init
            | kw_glob
            | kw_struct
            | kw_forall
            | kw_exists
            | kw_lambda
            | kw_whr
            | kw_end
            | kw_sum
            | kw_block
            | kw_allow
            | kw_hide
            | kw_rename
            | kw_tau
            | kw_comm
            | kw_dist
            | kw_val
            | kw_form
            | kw_pbes
            | kw_mu
            | kw_nu
            | kw_inf
            | kw_sup
            | kw_delay
            | kw_yaled
            | EOI
    )
}

/// The meaningful children of a pair (keywords and end of input left out).
fn kids<'i>(p: Pair<'i, Rule>) -> impl Iterator<Item = Pair<'i, Rule>> {
    p.into_inner().filter(|c| !is_kw(c.as_rule()))
}

fn name(p: &Pair<Rule>) -> Name {
    Arc::from(p.as_str())
}

fn ident(p: Pair<Rule>) -> Ident {
    debug_assert_eq!(p.as_rule(), Rule::ident);
    Ident {
        name: name(&p),
        span: sp(&p),
    }
}

/// An operand during Pratt folding: the node and its span including parentheses.
struct Node<E> {
    e: E,
    outer: Span,
}

/// A process operand during Pratt folding. `pending` is an else branch `<> q` (with the
/// span of `<>`) that found no open condition in its left operand; the nearest enclosing
/// `c ->` prefix claims it (mCRL2 reads `c -> sum x: D. p <> q` as `c -> (sum x: D. p) <> q`).
struct PNode {
    e: ProcExpr,
    outer: Span,
    pending: Option<(Span, ProcExpr)>,
}

impl From<Node<ProcExpr>> for PNode {
    fn from(n: Node<ProcExpr>) -> Self {
        PNode {
            e: n.e,
            outer: n.outer,
            pending: None,
        }
    }
}

/// The span of an expression whose trailing `<> q` is still pending: it ends where its last
/// operand `last` (never parenthesised then) ends, before `<>`.
fn span_before(span: Span, last: Span, pending: &Option<(Span, ProcExpr)>) -> Span {
    match pending {
        Some(_) => Span::new(span.start as usize, last.end as usize),
        None => span,
    }
}

static DATA_PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    use Rule::*;
    PrattParser::new()
        .op(Op::postfix(d_whr))
        .op(Op::prefix(d_forall) | Op::prefix(d_exists) | Op::prefix(d_lambda))
        .op(Op::infix(d_imp, Assoc::Right))
        .op(Op::infix(d_or, Assoc::Right))
        .op(Op::infix(d_and, Assoc::Right))
        .op(Op::infix(d_eq, Assoc::Left) | Op::infix(d_neq, Assoc::Left))
        .op(Op::infix(d_lt, Assoc::Left)
            | Op::infix(d_le, Assoc::Left)
            | Op::infix(d_ge, Assoc::Left)
            | Op::infix(d_gt, Assoc::Left)
            | Op::infix(d_in, Assoc::Left))
        .op(Op::infix(d_cons, Assoc::Right))
        .op(Op::infix(d_snoc, Assoc::Left))
        .op(Op::infix(d_concat, Assoc::Left))
        .op(Op::infix(d_add, Assoc::Left) | Op::infix(d_sub, Assoc::Left))
        .op(Op::infix(d_div, Assoc::Left)
            | Op::infix(d_intdiv, Assoc::Left)
            | Op::infix(d_mod, Assoc::Left))
        .op(Op::infix(d_mul, Assoc::Left) | Op::infix(d_at, Assoc::Left))
        .op(Op::prefix(d_not) | Op::prefix(d_neg) | Op::prefix(d_size))
        .op(Op::postfix(d_app) | Op::postfix(d_update))
});

static PROC_PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    use Rule::*;
    PrattParser::new()
        .op(Op::infix(p_choice, Assoc::Left))
        .op(Op::prefix(p_sum) | Op::prefix(p_dist))
        .op(Op::infix(p_par, Assoc::Right))
        .op(Op::infix(p_leftmerge, Assoc::Right))
        // `<>` binds below `->` so that the then-branch stops at it; see `attach_else`.
        .op(Op::infix(p_else, Assoc::Left))
        .op(Op::prefix(p_cond))
        .op(Op::infix(p_until, Assoc::Left))
        .op(Op::infix(p_seq, Assoc::Left))
        .op(Op::postfix(p_at))
        .op(Op::infix(p_sync, Assoc::Left) | Op::infix(p_cons_unsupported, Assoc::Left))
});

static STATE_PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    use Rule::*;
    PrattParser::new()
        .op(Op::prefix(s_mu) | Op::prefix(s_nu))
        .op(Op::prefix(s_forall) | Op::prefix(s_exists) | Op::prefix(s_quant_unsupported))
        .op(Op::infix(s_plus_unsupported, Assoc::Right))
        .op(Op::infix(s_times_unsupported, Assoc::Right))
        .op(Op::infix(s_imp, Assoc::Right))
        .op(Op::infix(s_or, Assoc::Right))
        .op(Op::infix(s_and, Assoc::Right))
        .op(Op::prefix(s_must)
            | Op::prefix(s_may)
            | Op::prefix(s_not)
            | Op::prefix(s_minus_unsupported))
});

static REG_PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    use Rule::*;
    PrattParser::new()
        .op(Op::infix(r_alt, Assoc::Left))
        .op(Op::infix(r_seq, Assoc::Right))
        .op(Op::postfix(r_star) | Op::postfix(r_plus))
});

static ACT_PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    use Rule::*;
    PrattParser::new()
        .op(Op::prefix(a_forall) | Op::prefix(a_exists))
        .op(Op::infix(a_imp, Assoc::Right))
        .op(Op::infix(a_or, Assoc::Right))
        .op(Op::infix(a_and, Assoc::Right))
        .op(Op::postfix(a_at))
        .op(Op::prefix(a_not))
});

static PBES_PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    use Rule::*;
    PrattParser::new()
        .op(Op::prefix(b_forall) | Op::prefix(b_exists))
        .op(Op::infix(b_imp, Assoc::Right))
        .op(Op::infix(b_or, Assoc::Right))
        .op(Op::infix(b_and, Assoc::Right))
        .op(Op::prefix(b_not))
});

struct Builder<'s> {
    src: &'s SourceFile,
}

impl Builder<'_> {
    fn err(&self, span: Span, message: impl Into<String>, label: impl Into<String>) -> SyntaxError {
        SyntaxError::new(SyntaxErrorKind::Syntax, self.src, span, message, label)
    }

    fn unsupported(&self, span: Span, message: impl Into<String>) -> SyntaxError {
        SyntaxError::new(
            SyntaxErrorKind::Unsupported,
            self.src,
            span,
            message,
            "not supported",
        )
        .with_help("muon checks untimed, non-probabilistic mCRL2 specifications and formulas")
    }
}
