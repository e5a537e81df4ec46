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

#[derive(pest_derive::Parser)]
#[grammar = "syntax/mcrl2.pest"]
struct Mcrl2Parser;

/// Deepest bracket nesting accepted (pest's recursive descent recurses per bracket).
pub const MAX_BRACKET_DEPTH: usize = 1000;
/// Deepest AST accepted (operator chains make trees deep without brackets); consumers that
/// recurse over the AST can rely on it.
pub const MAX_AST_DEPTH: usize = 10_000;
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

/// Parses `src` from `entry` on a thread with a large stack, with the depth guards.
pub(crate) fn parse(src: &SourceFile, entry: Entry) -> R<Parsed> {
    let run = || -> R<Parsed> {
        prescan_depth(src)?;
        let parsed = parse_inner(src, entry)?;
        check_depth(src, &parsed)?;
        Ok(parsed)
    };
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .name("muon-parse".into())
            .stack_size(PARSE_STACK)
            .spawn_scoped(s, run)
        {
            Ok(h) => match h.join() {
                Ok(r) => r,
                Err(p) => std::panic::resume_unwind(p),
            },
            // No thread available: parse here (the bracket guard still bounds recursion).
            Err(_) => run(),
        }
    })
}

fn parse_inner(src: &SourceFile, entry: Entry) -> R<Parsed> {
    let rule = match entry {
        Entry::Spec => Rule::spec,
        Entry::Formula => Rule::formula_spec,
        Entry::Pbes => Rule::pbes_spec,
        Entry::Data => Rule::lone_data_expr,
    };
    let text: &str = &src.text;
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

/// mCRL2's reserved words: never names.
const RESERVED: [&str; 38] = [
    "sort", "cons", "map", "var", "eqn", "act", "proc", "init", "glob", "struct", "Bool", "Pos",
    "Nat", "Int", "Real", "List", "Set", "Bag", "FSet", "FBag", "lambda", "forall", "exists",
    "whr", "end", "true", "false", "div", "mod", "in", "delta", "tau", "sum", "block", "allow",
    "hide", "rename", "comm",
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
// Depth guards
// -------------------------------------------------------------------------------------------

fn prescan_depth(src: &SourceFile) -> R<()> {
    let bytes = src.text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_BRACKET_DEPTH {
                    return Err(too_deep(src, Span::new(i, i + 1)));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

fn too_deep(src: &SourceFile, span: Span) -> SyntaxError {
    SyntaxError::new(
        SyntaxErrorKind::TooDeep,
        src,
        span,
        format!(
            "expression nested too deeply (more than {MAX_BRACKET_DEPTH} brackets or \
             {MAX_AST_DEPTH} operators deep)"
        ),
        "nesting limit exceeded here",
    )
    .with_help("split the expression, e.g. introduce auxiliary mappings or processes")
}

fn check_depth(src: &SourceFile, parsed: &Parsed) -> R<()> {
    let mut d = DepthCheck::default();
    match parsed {
        Parsed::Spec(s) => s.decls.iter().for_each(|x| d.decl(x, 0)),
        Parsed::Formula(f) => {
            f.decls.iter().for_each(|x| d.decl(x, 0));
            d.state(&f.formula, 0);
        }
        Parsed::Pbes(p) => {
            p.decls.iter().for_each(|x| d.decl(x, 0));
            for e in &p.equations {
                d.pbes(&e.rhs, 0);
            }
            p.init.args.iter().for_each(|a| d.data(a, 1));
        }
        Parsed::Data(e) => d.data(e, 0),
    }
    match d.deepest {
        Some(span) => Err(too_deep(src, span)),
        None => Ok(()),
    }
}

/// Finds the first node deeper than [`MAX_AST_DEPTH`].
#[derive(Default)]
struct DepthCheck {
    deepest: Option<Span>,
}

impl DepthCheck {
    fn over(&mut self, d: usize, span: Span) -> bool {
        if self.deepest.is_some() {
            return true;
        }
        if d > MAX_AST_DEPTH {
            self.deepest = Some(span);
            return true;
        }
        false
    }

    fn decl(&mut self, x: &Decl, d: usize) {
        match x {
            Decl::Eqns(s) => {
                for e in &s.eqns {
                    if let Some(c) = &e.condition {
                        self.data(c, d + 1);
                    }
                    self.data(&e.lhs, d + 1);
                    self.data(&e.rhs, d + 1);
                }
            }
            Decl::Proc(p) => self.proc(&p.body, d + 1),
            Decl::Init(i) => self.proc(&i.body, d + 1),
            _ => {}
        }
    }

    fn data(&mut self, e: &DataExpr, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            DataExprKind::Id(_)
            | DataExprKind::Number(_)
            | DataExprKind::True
            | DataExprKind::False => {}
            DataExprKind::App { head, args } => {
                self.data(head, d + 1);
                args.iter().for_each(|a| self.data(a, d + 1));
            }
            DataExprKind::Unary { arg, .. } => self.data(arg, d + 1),
            DataExprKind::Binary { lhs, rhs, .. } => {
                self.data(lhs, d + 1);
                self.data(rhs, d + 1);
            }
            DataExprKind::ListEnum(es) | DataExprKind::SetEnum(es) => {
                es.iter().for_each(|a| self.data(a, d + 1))
            }
            DataExprKind::BagEnum(es) => es.iter().for_each(|(a, b)| {
                self.data(a, d + 1);
                self.data(b, d + 1);
            }),
            DataExprKind::Comprehension { body, .. } | DataExprKind::Binder { body, .. } => {
                self.data(body, d + 1)
            }
            DataExprKind::Whr { body, defs } => {
                self.data(body, d + 1);
                defs.iter().for_each(|a| self.data(&a.value, d + 1));
            }
            DataExprKind::Update { func, arg, value } => {
                self.data(func, d + 1);
                self.data(arg, d + 1);
                self.data(value, d + 1);
            }
        }
    }

    fn proc(&mut self, e: &ProcExpr, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            ProcExprKind::Action { args, .. } => args.iter().for_each(|a| self.data(a, d + 1)),
            ProcExprKind::AssignCall { assignments, .. } => {
                assignments.iter().for_each(|a| self.data(&a.value, d + 1))
            }
            ProcExprKind::Delta | ProcExprKind::Tau => {}
            ProcExprKind::Sum { body, .. }
            | ProcExprKind::Allow { body, .. }
            | ProcExprKind::Block { body, .. }
            | ProcExprKind::Hide { body, .. }
            | ProcExprKind::Rename { body, .. }
            | ProcExprKind::Comm { body, .. } => self.proc(body, d + 1),
            ProcExprKind::Choice(a, b)
            | ProcExprKind::Seq(a, b)
            | ProcExprKind::Sync(a, b)
            | ProcExprKind::Par(a, b)
            | ProcExprKind::LeftMerge(a, b) => {
                self.proc(a, d + 1);
                self.proc(b, d + 1);
            }
            ProcExprKind::Cond { cond, then, else_ } => {
                self.data(cond, d + 1);
                self.proc(then, d + 1);
                if let Some(e) = else_ {
                    self.proc(e, d + 1);
                }
            }
        }
    }

    fn state(&mut self, e: &StateFormula, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            StateFormulaKind::True | StateFormulaKind::False => {}
            StateFormulaKind::Not(a)
            | StateFormulaKind::Forall(_, a)
            | StateFormulaKind::Exists(_, a) => self.state(a, d + 1),
            StateFormulaKind::And(a, b)
            | StateFormulaKind::Or(a, b)
            | StateFormulaKind::Imp(a, b) => {
                self.state(a, d + 1);
                self.state(b, d + 1);
            }
            StateFormulaKind::Must(r, a) | StateFormulaKind::May(r, a) => {
                self.reg(r, d + 1);
                self.state(a, d + 1);
            }
            StateFormulaKind::Mu(f, a) | StateFormulaKind::Nu(f, a) => {
                f.params.iter().for_each(|p| self.data(&p.init, d + 1));
                self.state(a, d + 1);
            }
            StateFormulaKind::Var { args, .. } => args.iter().for_each(|a| self.data(a, d + 1)),
            StateFormulaKind::Val(x) => self.data(x, d + 1),
        }
    }

    fn reg(&mut self, e: &RegFormula, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            RegFormulaKind::Action(a) => self.act(a, d + 1),
            RegFormulaKind::Nil => {}
            RegFormulaKind::Seq(a, b) | RegFormulaKind::Alt(a, b) => {
                self.reg(a, d + 1);
                self.reg(b, d + 1);
            }
            RegFormulaKind::Star(a) | RegFormulaKind::Plus(a) => self.reg(a, d + 1),
        }
    }

    fn act(&mut self, e: &ActionFormula, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            ActionFormulaKind::True | ActionFormulaKind::False => {}
            ActionFormulaKind::Not(a)
            | ActionFormulaKind::Forall(_, a)
            | ActionFormulaKind::Exists(_, a) => self.act(a, d + 1),
            ActionFormulaKind::And(a, b)
            | ActionFormulaKind::Or(a, b)
            | ActionFormulaKind::Imp(a, b) => {
                self.act(a, d + 1);
                self.act(b, d + 1);
            }
            ActionFormulaKind::MultiAction(acts) => acts
                .iter()
                .flat_map(|a| a.args.iter())
                .for_each(|a| self.data(a, d + 1)),
            ActionFormulaKind::Val(x) => self.data(x, d + 1),
        }
    }

    fn pbes(&mut self, e: &PbesExpr, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            PbesExprKind::True | PbesExprKind::False => {}
            PbesExprKind::Val(x) => self.data(x, d + 1),
            PbesExprKind::PropVar(v) => v.args.iter().for_each(|a| self.data(a, d + 1)),
            PbesExprKind::Not(a) | PbesExprKind::Forall(_, a) | PbesExprKind::Exists(_, a) => {
                self.pbes(a, d + 1)
            }
            PbesExprKind::And(a, b) | PbesExprKind::Or(a, b) | PbesExprKind::Imp(a, b) => {
                self.pbes(a, d + 1);
                self.pbes(b, d + 1);
            }
        }
    }
}

// -------------------------------------------------------------------------------------------
// Syntax errors from pest
// -------------------------------------------------------------------------------------------

/// A readable description of what a rule stands for when it is expected; `None` for
/// operators (always possible after an operand, listing them only adds noise).
fn describe(rule: Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match rule {
        EOI => "end of input",
        ident | id_list => "an identifier",
        number => "a number",
        sort_expr | sort_product | basic_sort | container_sort | container_kw | struct_sort => {
            "a sort"
        }
        data_expr | data_expr_list | d_forall | d_exists | d_lambda | d_not | d_neg | d_size
        | d_true | d_false | d_list | d_empty_bag | d_compr | d_braces | d_paren | brace_elt
        | lone_data_expr => "a data expression",
        // Units only stand before `->` in processes (and after `@`).
        data_unit | u_not | u_neg | u_size | u_true | u_false | u_number | u_paren | u_ident => {
            "a process expression"
        }
        proc_expr | p_sum | p_dist | p_cond | p_delta | p_tau | p_block | p_hide | p_allow
        | p_rename | p_comm | p_assign_call | p_action | p_paren => "a process expression",
        act_frm | a_forall | a_exists | a_not | a_val | a_true | a_false | a_multact | a_paren
        | action_occ => "an action formula",
        reg_frm | r_nil | r_paren => "a regular formula",
        state_frm | s_mu | s_nu | s_forall | s_exists | s_quant_unsupported | s_must | s_may
        | s_not | s_minus_unsupported | s_val | s_true | s_false | s_delay | s_var | s_paren => {
            "a state formula"
        }
        pbes_expr | b_forall | b_exists | b_not | b_val | b_true | b_false | prop_var_inst
        | b_paren => "a PBES expression",
        sort_spec | cons_spec | map_spec | eqn_spec | glob_spec | act_spec | proc_spec
        | var_spec => {
            "a declaration section (`sort`, `cons`, `map`, `var`, `eqn`, `act`, `proc`, `glob`)"
        }
        init_decl => "`init`",
        sort_decl | sort_alias => "a sort declaration",
        ids_decl => "a declaration `name: Sort`",
        vars_decl | vars_decl_list | var_decl => "a variable declaration `x: Sort`",
        eqn_decl => "an equation",
        act_decl => "an action declaration",
        proc_decl => "a process declaration",
        assignment => "an assignment `x = e`",
        constr_decl => "a constructor",
        proj_decl => "a constructor argument",
        recogniser => "`?`",
        fixpoint_decl => "a fixpoint variable",
        fixpoint_param => "a fixpoint parameter `x: Sort = e`",
        fixpoint_kw => "`mu` or `nu`",
        pbes_eqn => "a PBES equation",
        prop_var_decl => "a PBES variable",
        pbes_init => "`init`",
        form_decl => "`form`",
        act_id_set | mult_act_id_set => "a set of action names",
        mult_act_id => "an action name",
        ren_expr => "a renaming `a -> b`",
        comm_expr => "a communication `a|b -> c`",
        kw_sort => "`sort`",
        kw_cons => "`cons`",
        kw_map => "`map`",
        kw_var => "`var`",
        kw_eqn => "`eqn`",
        kw_act => "`act`",
        kw_proc => "`proc`",
        kw_init => "`init`",
        kw_glob => "`glob`",
        kw_struct => "`struct`",
        kw_end => "`end`",
        kw_sum | kw_block | kw_allow | kw_hide | kw_rename | kw_comm | kw_tau | kw_dist => {
            "a process expression"
        }
        kw_mu | kw_nu | kw_delay | kw_yaled | kw_inf | kw_sup => "a state formula",
        kw_form => "`form`",
        kw_pbes => "`pbes`",
        _ => return None,
    })
}

/// Punctuation worth naming when it is expected (operators are left out).
fn describe_literal(tok: &str) -> Option<String> {
    const STRUCTURAL: [&str; 11] = [";", ")", "]", "}", ",", ":", "=", "->", ".", ">", "end"];
    STRUCTURAL.contains(&tok).then(|| format!("`{tok}`"))
}

/// The token at byte `pos`, for "unexpected …".
fn token_at(text: &str, pos: usize) -> (String, Span) {
    let rest = &text[pos.min(text.len())..];
    let rest = if rest.trim().is_empty() { "" } else { rest };
    let Some(c) = rest.chars().next() else {
        // Point just after the last text rather than at trailing blank lines.
        let end = text.trim_end().len();
        return ("end of input".to_string(), Span::new(end, end));
    };
    let len = if c.is_ascii_alphanumeric() || c == '_' {
        rest.find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '\''))
            .unwrap_or(rest.len())
    } else {
        const OPS: [&str; 19] = [
            "||_", "->", "<>", "=>", "==", "!=", "<=", ">=", "&&", "||", "|>", "<|", "++", "<<",
            "[", "]", "(", ")", ":",
        ];
        OPS.iter()
            .find(|o| rest.starts_with(**o))
            .map_or(c.len_utf8(), |o| o.len())
    };
    (format!("`{}`", &rest[..len]), Span::new(pos, pos + len))
}

fn pest_error(src: &SourceFile, e: pest::error::Error<Rule>) -> SyntaxError {
    let loc = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let ErrorVariant::CustomError { message } = &e.variant {
        if message.contains("limit") {
            return too_deep(src, Span::new(loc, loc));
        }
        return SyntaxError::new(
            SyntaxErrorKind::Syntax,
            src,
            Span::new(loc, loc),
            message,
            "here",
        );
    }
    let positives: &[Rule] = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        _ => &[],
    };
    // The furthest attempts (with error detail on) also name literal tokens such as `;` and
    // `)`. A furthest position without expected tokens comes from a keyword's word-boundary
    // check (`in` inside `init`) and is not where the error is.
    let mut pos = loc;
    let mut tokens: Vec<String> = Vec::new();
    let mut rules: Vec<Rule> = Vec::new();
    if let Some(att) = e.parse_attempts() {
        let toks = att.expected_tokens();
        if att.max_position >= loc && !toks.is_empty() {
            pos = att.max_position;
            tokens = toks.iter().map(|t| t.to_string()).collect();
            for cs in att.call_stacks() {
                if let Some(r) = cs.deepest.get_rule().copied() {
                    rules.push(r);
                }
            }
            if pos == loc {
                rules.extend_from_slice(positives);
            }
        }
    }
    if tokens.is_empty() {
        rules = positives.to_vec();
    }
    // A reserved word where a name was expected: its word-boundary check is the furthest
    // attempt, one past the word; report the word itself.
    let mut reserved = None;
    if let Some(w) = reserved_word_before(&src.text, pos) {
        if loc == w.0 && w.0 < pos {
            pos = w.0;
            tokens.clear();
            rules = positives.to_vec();
            reserved = Some(w.1);
        }
    }
    let mut expected: Vec<String> = Vec::new();
    let mut push = |s: String| {
        if !expected.contains(&s) {
            expected.push(s);
        }
    };
    let (tok, span) = token_at(&src.text, pos);
    // A new section where more of the previous one was expected: a forgotten `;`.
    const SECTIONS: [&str; 11] = [
        "`sort`", "`cons`", "`map`", "`var`", "`eqn`", "`act`", "`proc`", "`init`", "`glob`",
        "`form`", "`pbes`",
    ];
    let after_semicolon = src.text[..pos].trim_end().ends_with(';');
    if SECTIONS.contains(&tok.as_str()) && !after_semicolon && !tokens.iter().any(|t| t == ";") {
        tokens.insert(0, ";".into());
    }
    // Structural punctuation first: it is what the user most likely forgot.
    for t in &tokens {
        if let Some(d) = describe_literal(t) {
            push(d);
        }
    }
    let mut has_operator = false;
    for r in &rules {
        match describe(*r) {
            Some(d) => push(d.to_string()),
            None => has_operator = true,
        }
    }
    simplify_expected(&mut expected);
    if expected.is_empty() && has_operator {
        expected.push("an operator".into());
    }
    let message = match expected.len() {
        0 => format!("unexpected {tok}"),
        1 => format!("unexpected {tok}; expected {}", expected[0]),
        n => {
            let shown: Vec<&str> = expected.iter().take(5).map(|s| s.as_str()).collect();
            let (last, init) = shown.split_last().expect("nonempty");
            let more = if n > 5 { ", …" } else { "" };
            format!(
                "unexpected {tok}; expected {}{more} or {last}",
                init.join(", ")
            )
        }
    };
    let label = if tok == "end of input" {
        "the input ends here".to_string()
    } else {
        format!("unexpected {tok}")
    };
    let mut err = SyntaxError::new(SyntaxErrorKind::Syntax, src, span, message, label);
    if let Some(w) = reserved {
        err = err.with_help(format!(
            "`{w}` is a reserved word of mCRL2 and cannot be a name"
        ));
    } else if let Some(h) = hint(&src.text, pos, &expected) {
        err = err.with_help(h);
    }
    err
}

/// The reserved word that ends exactly at `pos`, with its start.
fn reserved_word_before(text: &str, pos: usize) -> Option<(usize, &str)> {
    let before = text.get(..pos)?;
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '\''))
        .map_or(0, |i| i + 1);
    let word = &before[start..];
    if text[pos..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '\'') {
        return None;
    }
    RESERVED.contains(&word).then_some((start, word))
}

/// Drops expectations that are implied by others or that are noise in context.
fn simplify_expected(expected: &mut Vec<String>) {
    let has = |e: &Vec<String>, s: &str| e.iter().any(|x| x == s);
    const CATEGORIES: [&str; 7] = [
        "a process expression",
        "a state formula",
        "a regular formula",
        "an action formula",
        "a PBES expression",
        "a data expression",
        "a sort",
    ];
    if CATEGORIES.iter().any(|c| has(expected, c)) {
        expected.retain(|x| x != "an identifier" && x != "a number");
    }
    // Outer categories subsume the ones their operands may start with.
    if has(expected, "a process expression") {
        expected.retain(|x| x != "a data expression");
    }
    if has(expected, "a state formula") || has(expected, "a regular formula") {
        expected.retain(|x| x != "an action formula" && x != "a data expression");
    }
    if has(expected, "a regular formula") {
        expected.retain(|x| x != "an action formula");
    }
    // After a complete operand: a closing bracket or `;` is the structure that matters;
    // `->`, `.` and `>` are then operators of some enclosing language.
    if [";", ")", "]", "}"]
        .iter()
        .any(|t| has(expected, &format!("`{t}`")))
    {
        expected.retain(|x| x != "`->`" && x != "`.`" && x != "`>`");
    }
}

fn hint(text: &str, pos: usize, expected: &[String]) -> Option<String> {
    let rest = &text[pos.min(text.len())..];
    if expected.iter().any(|s| s == "`;`") {
        return Some("every declaration and equation ends with `;`".into());
    }
    if rest.starts_with('@') || rest.starts_with("<<") {
        return Some("timed specifications are not supported by muon".into());
    }
    if rest.is_empty() {
        return Some("the input ends early: is something missing at the end?".into());
    }
    None
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

    // ----- declarations -----

    fn spec(&self, top: Pair<Rule>) -> R<Spec> {
        let span = sp(&top);
        let mut decls = Vec::new();
        let mut init_span: Option<Span> = None;
        for p in kids(top) {
            if p.as_rule() == Rule::init_decl {
                let s = sp(&p);
                if let Some(first) = init_span {
                    let (l, c) = first.line_col(&self.src.text);
                    return Err(self
                        .err(
                            Span::new(s.start as usize, s.start as usize + 4),
                            "a specification has exactly one `init`",
                            "second `init`",
                        )
                        .with_help(format!("the first `init` is at line {l}, column {c}")));
                }
                init_span = Some(s);
            }
            self.decl_section(p, &mut decls)?;
        }
        if init_span.is_none() {
            let end = self.src.text.trim_end().len();
            return Err(self
                .err(
                    Span::new(end, end),
                    "the specification has no `init` declaration",
                    "end of the specification",
                )
                .with_help("add `init P;` naming the initial process"));
        }
        Ok(Spec { decls, span })
    }

    fn decl_section(&self, p: Pair<Rule>, out: &mut Vec<Decl>) -> R<()> {
        match p.as_rule() {
            Rule::sort_spec => {
                for d in kids(p) {
                    let d = d.into_inner().next().expect("sort_decl has a body");
                    match d.as_rule() {
                        Rule::sort_alias => {
                            let mut k = kids(d);
                            let name = ident(k.next().expect("alias name"));
                            let def = self.sort_expr(k.next().expect("alias sort"))?;
                            let span = name.span.join(def.span);
                            out.push(Decl::Sort(SortDecl {
                                name,
                                def: Some(def),
                                span,
                            }));
                        }
                        _ => {
                            for name in self.id_list(d) {
                                let span = name.span;
                                out.push(Decl::Sort(SortDecl {
                                    name,
                                    def: None,
                                    span,
                                }));
                            }
                        }
                    }
                }
            }
            Rule::cons_spec | Rule::map_spec => {
                let is_cons = p.as_rule() == Rule::cons_spec;
                for d in kids(p) {
                    let (names, sort) = self.ids_decl(d)?;
                    for name in names {
                        let f = FuncDecl {
                            span: name.span,
                            name,
                            sort: sort.clone(),
                        };
                        out.push(if is_cons { Decl::Cons(f) } else { Decl::Map(f) });
                    }
                }
            }
            Rule::glob_spec => {
                for l in kids(p) {
                    for v in self.vars_decl_list(l)? {
                        out.push(Decl::Glob(v));
                    }
                }
            }
            Rule::eqn_spec => {
                let span = sp(&p);
                let mut vars = Vec::new();
                let mut eqns = Vec::new();
                for c in kids(p) {
                    match c.as_rule() {
                        Rule::var_spec => {
                            for l in kids(c) {
                                vars.extend(self.vars_decl_list(l)?);
                            }
                        }
                        _ => eqns.push(self.eqn_decl(c)?),
                    }
                }
                out.push(Decl::Eqns(EqnSection { vars, eqns, span }));
            }
            Rule::act_spec => {
                for d in kids(p) {
                    let mut k = kids(d);
                    let names = self.id_list(k.next().expect("act names"));
                    let sorts = match k.next() {
                        Some(s) => self.sort_product(s)?,
                        None => Vec::new(),
                    };
                    for name in names {
                        out.push(Decl::Act(ActDecl {
                            span: name.span,
                            name,
                            sorts: sorts.clone(),
                        }));
                    }
                }
            }
            Rule::proc_spec => {
                for d in kids(p) {
                    let mut span = sp(&d);
                    span.end -= 1; // without the `;`
                    let mut k = kids(d);
                    let name = ident(k.next().expect("proc name"));
                    let mut params = Vec::new();
                    let mut body = None;
                    for c in k {
                        match c.as_rule() {
                            Rule::vars_decl_list => params = self.vars_decl_list(c)?,
                            _ => body = Some(self.proc_expr(c)?),
                        }
                    }
                    out.push(Decl::Proc(ProcDecl {
                        name,
                        params,
                        body: body.expect("proc body"),
                        span,
                    }));
                }
            }
            Rule::init_decl => {
                let mut span = sp(&p);
                span.end -= 1;
                let body = self.proc_expr(kids(p).next().expect("init body"))?;
                out.push(Decl::Init(InitDecl { body, span }));
            }
            r => unreachable!("not a declaration section: {r:?}"),
        }
        Ok(())
    }

    fn id_list(&self, p: Pair<Rule>) -> Vec<Ident> {
        kids(p).map(ident).collect()
    }

    fn ids_decl(&self, p: Pair<Rule>) -> R<(Vec<Ident>, SortExpr)> {
        let mut k = kids(p);
        let names = self.id_list(k.next().expect("names"));
        let sort = self.sort_expr(k.next().expect("sort"))?;
        Ok((names, sort))
    }

    fn vars_decl_list(&self, p: Pair<Rule>) -> R<Vec<VarDecl>> {
        let mut out = Vec::new();
        for vd in kids(p) {
            let (names, sort) = self.ids_decl(vd)?;
            for name in names {
                out.push(VarDecl {
                    span: name.span,
                    name,
                    sort: sort.clone(),
                });
            }
        }
        Ok(out)
    }

    fn var_decl(&self, p: Pair<Rule>) -> R<VarDecl> {
        let mut k = kids(p);
        let name = ident(k.next().expect("var name"));
        let sort = self.sort_expr(k.next().expect("var sort"))?;
        Ok(VarDecl {
            span: name.span,
            name,
            sort,
        })
    }

    fn eqn_decl(&self, p: Pair<Rule>) -> R<EqnDecl> {
        let mut span = sp(&p);
        span.end -= 1;
        let mut es = kids(p).map(|e| self.data_expr(e)).collect::<R<Vec<_>>>()?;
        let rhs = es.pop().expect("rhs");
        let lhs = es.pop().expect("lhs");
        let condition = es.pop();
        Ok(EqnDecl {
            condition,
            lhs,
            rhs,
            span,
        })
    }

    // ----- sorts -----

    fn sort_expr(&self, p: Pair<Rule>) -> R<SortExpr> {
        let span = sp(&p);
        let mut k = kids(p);
        let prod = k.next().expect("sort product");
        let prod_span = sp(&prod);
        let mut dom = self.sort_product(prod)?;
        match k.next() {
            Some(cod) => {
                let cod = self.sort_expr(cod)?;
                Ok(SortExpr {
                    kind: SortExprKind::Arrow(dom, Box::new(cod)),
                    span,
                })
            }
            None if dom.len() == 1 => Ok(dom.pop().expect("one sort")),
            None => Err(self
                .err(
                    prod_span,
                    "a product sort `A # B` is only allowed as the domain of a function sort",
                    "product without `->`",
                )
                .with_help("write `A # B -> C`, or use a struct sort for pairs")),
        }
    }

    fn sort_product(&self, p: Pair<Rule>) -> R<Vec<SortExpr>> {
        match p.as_rule() {
            // An action's sort: a product, or a single (possibly function) sort.
            Rule::sort_expr => {
                let span = sp(&p);
                let mut k = kids(p);
                let prod = k.next().expect("product");
                match k.next() {
                    None => self.sort_product(prod),
                    Some(cod) => {
                        let dom = self.sort_product(prod)?;
                        let cod = self.sort_expr(cod)?;
                        Ok(vec![SortExpr {
                            kind: SortExprKind::Arrow(dom, Box::new(cod)),
                            span,
                        }])
                    }
                }
            }
            _ => kids(p).map(|s| self.sort_primary(s)).collect(),
        }
    }

    fn sort_primary(&self, p: Pair<Rule>) -> R<SortExpr> {
        let span = sp(&p);
        let kind = match p.as_rule() {
            Rule::basic_sort => match p.as_str() {
                "Bool" => SortExprKind::Bool,
                "Pos" => SortExprKind::Pos,
                "Nat" => SortExprKind::Nat,
                "Int" => SortExprKind::Int,
                _ => SortExprKind::Real,
            },
            Rule::ident => SortExprKind::Id(name(&p)),
            Rule::sort_expr => return self.sort_expr(p),
            Rule::container_sort => {
                let mut k = kids(p);
                let c = k.next().expect("container");
                let inner = Box::new(self.sort_expr(k.next().expect("element sort"))?);
                match c.as_str() {
                    "List" => SortExprKind::List(inner),
                    "Set" => SortExprKind::Set(inner),
                    "FSet" => SortExprKind::FSet(inner),
                    "Bag" => SortExprKind::Bag(inner),
                    _ => SortExprKind::FBag(inner),
                }
            }
            Rule::struct_sort => {
                let mut conss = Vec::new();
                for c in kids(p) {
                    let cspan = sp(&c);
                    let mut name = None;
                    let mut fields = Vec::new();
                    let mut recogniser = None;
                    for x in kids(c) {
                        match x.as_rule() {
                            Rule::ident => name = Some(ident(x)),
                            Rule::proj_decl => {
                                let fspan = sp(&x);
                                let mut projection = None;
                                let mut sort = None;
                                for y in kids(x) {
                                    match y.as_rule() {
                                        Rule::ident => projection = Some(ident(y)),
                                        _ => sort = Some(self.sort_expr(y)?),
                                    }
                                }
                                fields.push(ProjDecl {
                                    projection,
                                    sort: sort.expect("field sort"),
                                    span: fspan,
                                });
                            }
                            _ => recogniser = Some(ident(kids(x).next().expect("recogniser"))),
                        }
                    }
                    conss.push(ConstrDecl {
                        name: name.expect("constructor name"),
                        fields,
                        recogniser,
                        span: cspan,
                    });
                }
                SortExprKind::Struct(conss)
            }
            r => unreachable!("not a sort: {r:?}"),
        };
        Ok(SortExpr { kind, span })
    }

    // ----- data expressions -----

    fn data_expr(&self, p: Pair<Rule>) -> R<DataExpr> {
        debug_assert!(matches!(p.as_rule(), Rule::data_expr));
        let n = DATA_PRATT
            .map_primary(|q| self.data_primary(q))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = sp(&op).join(rhs.outer);
                let kind = match op.as_rule() {
                    Rule::d_not => DataExprKind::Unary {
                        op: UnaryOp::Not,
                        arg: Box::new(rhs.e),
                    },
                    Rule::d_neg => DataExprKind::Unary {
                        op: UnaryOp::Neg,
                        arg: Box::new(rhs.e),
                    },
                    Rule::d_size => DataExprKind::Unary {
                        op: UnaryOp::Size,
                        arg: Box::new(rhs.e),
                    },
                    r => {
                        let kind = match r {
                            Rule::d_forall => BinderKind::Forall,
                            Rule::d_exists => BinderKind::Exists,
                            _ => BinderKind::Lambda,
                        };
                        let vars =
                            self.vars_decl_list(kids(op).next().expect("binder variables"))?;
                        DataExprKind::Binder {
                            kind,
                            vars,
                            body: Box::new(rhs.e),
                        }
                    }
                };
                Ok(Node {
                    e: DataExpr { kind, span },
                    outer: span,
                })
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                let span = lhs.outer.join(sp(&op));
                let kind = match op.as_rule() {
                    Rule::d_app => DataExprKind::App {
                        head: Box::new(lhs.e),
                        args: self.data_expr_list(kids(op).next().expect("arguments"))?,
                    },
                    Rule::d_update => {
                        let mut k = kids(op);
                        let arg = self.data_expr(k.next().expect("update argument"))?;
                        let value = self.data_expr(k.next().expect("update value"))?;
                        DataExprKind::Update {
                            func: Box::new(lhs.e),
                            arg: Box::new(arg),
                            value: Box::new(value),
                        }
                    }
                    _ => DataExprKind::Whr {
                        body: Box::new(lhs.e),
                        defs: kids(op)
                            .map(|a| self.assignment(a))
                            .collect::<R<Vec<_>>>()?,
                    },
                };
                Ok(Node {
                    e: DataExpr { kind, span },
                    outer: span,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.outer.join(rhs.outer);
                let op = match op.as_rule() {
                    Rule::d_imp => BinaryOp::Imp,
                    Rule::d_or => BinaryOp::Or,
                    Rule::d_and => BinaryOp::And,
                    Rule::d_eq => BinaryOp::Eq,
                    Rule::d_neq => BinaryOp::Neq,
                    Rule::d_lt => BinaryOp::Lt,
                    Rule::d_le => BinaryOp::Le,
                    Rule::d_ge => BinaryOp::Ge,
                    Rule::d_gt => BinaryOp::Gt,
                    Rule::d_in => BinaryOp::In,
                    Rule::d_cons => BinaryOp::Cons,
                    Rule::d_snoc => BinaryOp::Snoc,
                    Rule::d_concat => BinaryOp::Concat,
                    Rule::d_add => BinaryOp::Add,
                    Rule::d_sub => BinaryOp::Sub,
                    Rule::d_div => BinaryOp::Div,
                    Rule::d_intdiv => BinaryOp::IntDiv,
                    Rule::d_mod => BinaryOp::Mod,
                    Rule::d_mul => BinaryOp::Mul,
                    _ => BinaryOp::At,
                };
                Ok(Node {
                    e: DataExpr {
                        kind: DataExprKind::Binary {
                            op,
                            lhs: Box::new(lhs.e),
                            rhs: Box::new(rhs.e),
                        },
                        span,
                    },
                    outer: span,
                })
            })
            .parse(p.into_inner())?;
        Ok(n.e)
    }

    fn data_expr_list(&self, p: Pair<Rule>) -> R<Vec<DataExpr>> {
        kids(p).map(|e| self.data_expr(e)).collect()
    }

    fn assignment(&self, p: Pair<Rule>) -> R<Assignment> {
        let span = sp(&p);
        let mut k = kids(p);
        let name = ident(k.next().expect("assigned name"));
        let value = self.data_expr(k.next().expect("assigned value"))?;
        Ok(Assignment { name, value, span })
    }

    fn data_primary(&self, p: Pair<Rule>) -> R<Node<DataExpr>> {
        let span = sp(&p);
        let kind = match p.as_rule() {
            Rule::d_true => DataExprKind::True,
            Rule::d_false => DataExprKind::False,
            Rule::number => DataExprKind::Number(name(&p)),
            Rule::ident => DataExprKind::Id(name(&p)),
            Rule::d_paren => {
                let e = self.data_expr(kids(p).next().expect("parenthesised"))?;
                return Ok(Node { e, outer: span });
            }
            Rule::d_list => {
                DataExprKind::ListEnum(kids(p).map(|e| self.data_expr(e)).collect::<R<Vec<_>>>()?)
            }
            Rule::d_empty_bag => DataExprKind::BagEnum(Vec::new()),
            Rule::d_compr => {
                let mut k = kids(p);
                let var = self.var_decl(k.next().expect("comprehension variable"))?;
                let body = self.data_expr(k.next().expect("comprehension body"))?;
                DataExprKind::Comprehension {
                    var,
                    body: Box::new(body),
                }
            }
            Rule::d_braces => {
                let mut set = Vec::new();
                let mut bag = Vec::new();
                for elt in kids(p) {
                    let espan = sp(&elt);
                    let mut k = kids(elt);
                    let e = self.data_expr(k.next().expect("element"))?;
                    match k.next() {
                        Some(m) => {
                            if !set.is_empty() {
                                return Err(self.mixed_enum(espan));
                            }
                            bag.push((e, self.data_expr(m)?));
                        }
                        None => {
                            if !bag.is_empty() {
                                return Err(self.mixed_enum(espan));
                            }
                            set.push(e);
                        }
                    }
                }
                if bag.is_empty() {
                    DataExprKind::SetEnum(set)
                } else {
                    DataExprKind::BagEnum(bag)
                }
            }
            r => unreachable!("not a data primary: {r:?}"),
        };
        Ok(Node {
            e: DataExpr { kind, span },
            outer: span,
        })
    }

    fn mixed_enum(&self, span: Span) -> SyntaxError {
        self.err(
            span,
            "an enumeration mixes set elements `e` and bag elements `e: n`",
            "this element",
        )
        .with_help("a set is written `{a, b}`, a bag `{a: 2, b: 1}`")
    }

    /// A data unit (`data_unit`): prefix operators, a primary, applications.
    fn data_unit(&self, p: Pair<Rule>) -> R<DataExpr> {
        let mut prefixes = Vec::new();
        let mut head: Option<DataExpr> = None;
        for c in kids(p) {
            let cspan = sp(&c);
            match c.as_rule() {
                Rule::u_not | Rule::u_neg | Rule::u_size => prefixes.push(c),
                Rule::d_app => {
                    let h = head.take().expect("application head");
                    let span = h.span.join(sp(&c));
                    let args = self.data_expr_list(kids(c).next().expect("arguments"))?;
                    head = Some(DataExpr {
                        kind: DataExprKind::App {
                            head: Box::new(h),
                            args,
                        },
                        span,
                    });
                }
                Rule::u_paren => head = Some(self.data_expr(kids(c).next().expect("inner"))?),
                r => {
                    let kind = match r {
                        Rule::u_true => DataExprKind::True,
                        Rule::u_false => DataExprKind::False,
                        Rule::u_number => DataExprKind::Number(name(&c)),
                        _ => DataExprKind::Id(name(&c)),
                    };
                    head = Some(DataExpr { kind, span: cspan });
                }
            }
        }
        let mut e = head.expect("unit primary");
        for op in prefixes.into_iter().rev() {
            let span = sp(&op).join(e.span);
            let op = match op.as_rule() {
                Rule::u_not => UnaryOp::Not,
                Rule::u_neg => UnaryOp::Neg,
                _ => UnaryOp::Size,
            };
            e = DataExpr {
                kind: DataExprKind::Unary {
                    op,
                    arg: Box::new(e),
                },
                span,
            };
        }
        Ok(e)
    }

    // ----- process expressions -----

    fn proc_expr(&self, p: Pair<Rule>) -> R<ProcExpr> {
        debug_assert_eq!(p.as_rule(), Rule::proc_expr);
        let n = PROC_PRATT
            .map_primary(|q| self.proc_primary(q).map(PNode::from))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = sp(&op).join(rhs.outer);
                let last = rhs.e.span;
                let kind = match op.as_rule() {
                    Rule::p_sum => {
                        // `sum` binds weaker than `<>`, so in `c -> sum x: D. p <> q` the `<> q`
                        // ends up under the sum; it stays pending and goes to the condition.
                        let e = ProcExpr {
                            kind: ProcExprKind::Sum {
                                vars: self
                                    .vars_decl_list(kids(op).next().expect("sum variables"))?,
                                body: Box::new(rhs.e),
                            },
                            span: span_before(span, last, &rhs.pending),
                        };
                        return Ok(PNode {
                            e,
                            outer: span,
                            pending: rhs.pending,
                        });
                    }
                    Rule::p_cond => ProcExprKind::Cond {
                        cond: self.data_unit(kids(op).next().expect("condition"))?,
                        then: Box::new(rhs.e),
                        else_: rhs.pending.map(|(_, q)| Box::new(q)),
                    },
                    _ => {
                        let s = sp(&op);
                        return Err(self.unsupported(
                            Span::new(s.start as usize, s.start as usize + 4),
                            "probabilistic processes (`dist`) are not supported",
                        ));
                    }
                };
                Ok(PNode {
                    e: ProcExpr { kind, span },
                    outer: span,
                    pending: None,
                })
            })
            .map_postfix(|lhs, op| {
                let _ = lhs?;
                let s = sp(&op);
                Err(self.unsupported(
                    Span::new(s.start as usize, s.start as usize + 1),
                    "timed processes (the `@` operator) are not supported",
                ))
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let ospan = sp(&op);
                if let Some((else_span, _)) = &lhs.pending {
                    // `(… <> q) op r` without parentheses: the else branch was never claimed.
                    return Err(self.dangling_else(*else_span));
                }
                let span = lhs.outer.join(rhs.outer);
                let pending = rhs.pending;
                let inner = span_before(span, rhs.e.span, &pending);
                let (a, b) = (Box::new(lhs.e), Box::new(rhs.e));
                let kind = match op.as_rule() {
                    Rule::p_choice => ProcExprKind::Choice(a, b),
                    Rule::p_seq => ProcExprKind::Seq(a, b),
                    Rule::p_sync => ProcExprKind::Sync(a, b),
                    Rule::p_par => ProcExprKind::Par(a, b),
                    Rule::p_leftmerge => ProcExprKind::LeftMerge(a, b),
                    Rule::p_else => {
                        if let Some((else_span, _)) = &pending {
                            return Err(self.dangling_else(*else_span));
                        }
                        let outer = lhs.outer;
                        let mut then = *a;
                        if then.span.end == outer.end {
                            match attach_else(&mut then, *b) {
                                Ok(()) => {
                                    return Ok(PNode {
                                        e: ProcExpr {
                                            kind: then.kind,
                                            span,
                                        },
                                        outer: span,
                                        pending: None,
                                    })
                                }
                                // No open condition inside: an enclosing prefix (`sum`, then
                                // `c ->`) may still claim it.
                                Err(q) => {
                                    return Ok(PNode {
                                        e: then,
                                        outer: span,
                                        pending: Some((ospan, q)),
                                    })
                                }
                            }
                        }
                        return Err(self.dangling_else(ospan));
                    }
                    Rule::p_until => {
                        return Err(self.unsupported(
                            ospan,
                            "the until operator `<<` (timed processes) is not supported",
                        ))
                    }
                    _ => {
                        return Err(self
                            .err(
                                ospan,
                                "`|>` is a list operator, not a process operator",
                                "here",
                            )
                            .with_help(
                                "processes are composed with `.`, `+`, `|`, `||` and `||_`",
                            ))
                    }
                };
                Ok(PNode {
                    e: ProcExpr { kind, span: inner },
                    outer: span,
                    pending,
                })
            })
            .parse(p.into_inner())?;
        if let Some((else_span, _)) = n.pending {
            return Err(self.dangling_else(else_span));
        }
        Ok(n.e)
    }

    fn dangling_else(&self, span: Span) -> SyntaxError {
        self.err(
            span,
            "`<>` without a matching condition `c ->`",
            "this `<>`",
        )
        .with_help("the if-then-else operator is written `c -> p <> q`")
    }

    fn proc_primary(&self, p: Pair<Rule>) -> R<Node<ProcExpr>> {
        let span = sp(&p);
        let kind = match p.as_rule() {
            Rule::p_delta => ProcExprKind::Delta,
            Rule::p_tau => ProcExprKind::Tau,
            Rule::p_paren => {
                let e = self.proc_expr(kids(p).next().expect("parenthesised"))?;
                return Ok(Node { e, outer: span });
            }
            Rule::p_action => {
                let mut k = kids(p);
                let name = ident(k.next().expect("action name"));
                let args = match k.next() {
                    Some(l) => self.data_expr_list(l)?,
                    None => Vec::new(),
                };
                ProcExprKind::Action { name, args }
            }
            Rule::p_assign_call => {
                let mut k = kids(p);
                let name = ident(k.next().expect("process name"));
                let assignments = k.map(|a| self.assignment(a)).collect::<R<Vec<_>>>()?;
                ProcExprKind::AssignCall { name, assignments }
            }
            Rule::p_block | Rule::p_hide => {
                let is_block = p.as_rule() == Rule::p_block;
                let mut k = kids(p);
                let set = self.id_list(k.next().expect("action set"));
                let body = Box::new(self.proc_expr(k.next().expect("body"))?);
                if is_block {
                    ProcExprKind::Block { set, body }
                } else {
                    ProcExprKind::Hide { set, body }
                }
            }
            Rule::p_allow => {
                let mut k = kids(p);
                let set = kids(k.next().expect("multi-action set"))
                    .map(|m| MultiActName {
                        span: sp(&m),
                        names: self.id_list(m),
                    })
                    .collect();
                let body = Box::new(self.proc_expr(k.next().expect("body"))?);
                ProcExprKind::Allow { set, body }
            }
            Rule::p_rename => {
                let mut rules = Vec::new();
                let mut body = None;
                for c in kids(p) {
                    match c.as_rule() {
                        Rule::ren_expr => {
                            let rspan = sp(&c);
                            let mut k = kids(c);
                            let from = ident(k.next().expect("renamed action"));
                            let to = ident(k.next().expect("new name"));
                            rules.push(RenameRule {
                                from,
                                to,
                                span: rspan,
                            });
                        }
                        _ => body = Some(Box::new(self.proc_expr(c)?)),
                    }
                }
                ProcExprKind::Rename {
                    rules,
                    body: body.expect("rename body"),
                }
            }
            Rule::p_comm => {
                let mut rules = Vec::new();
                let mut body = None;
                for c in kids(p) {
                    match c.as_rule() {
                        Rule::comm_expr => {
                            let cspan = sp(&c);
                            let mut k = c.into_inner();
                            let lhs_pair = k.next().expect("communicating names");
                            let lhs_span = sp(&lhs_pair);
                            let lhs = self.id_list(lhs_pair);
                            if lhs.len() < 2 {
                                return Err(self
                                    .err(
                                        lhs_span,
                                        "a communication needs at least two actions, `a|b -> c`",
                                        "only one action",
                                    )
                                    .with_help("to rename a single action use `rename`"));
                            }
                            let r = k.next().expect("communication result");
                            let rhs = (r.as_rule() == Rule::ident).then(|| ident(r));
                            rules.push(CommRule {
                                lhs,
                                rhs,
                                span: cspan,
                            });
                        }
                        _ => body = Some(Box::new(self.proc_expr(c)?)),
                    }
                }
                ProcExprKind::Comm {
                    rules,
                    body: body.expect("comm body"),
                }
            }
            r => unreachable!("not a process primary: {r:?}"),
        };
        Ok(Node {
            e: ProcExpr { kind, span },
            outer: span,
        })
    }

    // ----- formulas -----

    fn formula_spec(&self, top: Pair<Rule>) -> R<FormulaSpec> {
        let span = sp(&top);
        let mut decls = Vec::new();
        let mut formula = None;
        for p in kids(top) {
            match p.as_rule() {
                Rule::form_decl => {
                    formula = Some(self.state_frm(kids(p).next().expect("formula"))?)
                }
                Rule::state_frm => formula = Some(self.state_frm(p)?),
                _ => self.decl_section(p, &mut decls)?,
            }
        }
        Ok(FormulaSpec {
            decls,
            formula: formula.expect("formula_spec has a formula"),
            span,
        })
    }

    fn fixpoint_decl(&self, p: Pair<Rule>) -> R<FixpointDecl> {
        let span = sp(&p);
        let mut k = kids(p);
        let name = ident(k.next().expect("fixpoint variable"));
        let mut params = Vec::new();
        for fp in k {
            let pspan = sp(&fp);
            let mut k = kids(fp);
            let vname = ident(k.next().expect("parameter"));
            let sort = self.sort_expr(k.next().expect("parameter sort"))?;
            let init = self.data_expr(k.next().expect("initial value"))?;
            params.push(FixpointParam {
                var: VarDecl {
                    span: vname.span,
                    name: vname,
                    sort,
                },
                init,
                span: pspan,
            });
        }
        Ok(FixpointDecl { name, params, span })
    }

    fn state_frm(&self, p: Pair<Rule>) -> R<StateFormula> {
        let quantitative = "quantitative formulas (`sum`, `inf`, `sup`, `+`, `*`, unary `-`) \
                            are not supported";
        let n = STATE_PRATT
            .map_primary(|q| {
                let span = sp(&q);
                let kind = match q.as_rule() {
                    Rule::s_true => StateFormulaKind::True,
                    Rule::s_false => StateFormulaKind::False,
                    Rule::s_val => StateFormulaKind::Val(
                        self.data_expr(kids(q).next().expect("val argument"))?,
                    ),
                    Rule::s_var => {
                        let mut k = kids(q);
                        let name = ident(k.next().expect("variable"));
                        let args = match k.next() {
                            Some(l) => self.data_expr_list(l)?,
                            None => Vec::new(),
                        };
                        StateFormulaKind::Var { name, args }
                    }
                    Rule::s_paren => {
                        let e = self.state_frm(kids(q).next().expect("parenthesised"))?;
                        return Ok(Node { e, outer: span });
                    }
                    _ => {
                        let word = q.into_inner().next().expect("delay/yaled");
                        return Err(self.unsupported(
                            sp(&word),
                            format!("timed formulas are not supported (`{}`)", word.as_str()),
                        ));
                    }
                };
                Ok(Node {
                    e: StateFormula { kind, span },
                    outer: span,
                })
            })
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let ospan = sp(&op);
                let span = ospan.join(rhs.outer);
                let body = Box::new(rhs.e);
                let kind = match op.as_rule() {
                    Rule::s_mu => {
                        StateFormulaKind::Mu(self.fixpoint_decl(kids(op).next().expect("X"))?, body)
                    }
                    Rule::s_nu => {
                        StateFormulaKind::Nu(self.fixpoint_decl(kids(op).next().expect("X"))?, body)
                    }
                    Rule::s_forall => StateFormulaKind::Forall(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                    Rule::s_exists => StateFormulaKind::Exists(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                    Rule::s_must => {
                        StateFormulaKind::Must(self.reg_frm(kids(op).next().expect("R"))?, body)
                    }
                    Rule::s_may => {
                        StateFormulaKind::May(self.reg_frm(kids(op).next().expect("R"))?, body)
                    }
                    Rule::s_not => StateFormulaKind::Not(body),
                    _ => return Err(self.unsupported(ospan, quantitative)),
                };
                Ok(Node {
                    e: StateFormula { kind, span },
                    outer: span,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.outer.join(rhs.outer);
                let (a, b) = (Box::new(lhs.e), Box::new(rhs.e));
                let kind = match op.as_rule() {
                    Rule::s_and => StateFormulaKind::And(a, b),
                    Rule::s_or => StateFormulaKind::Or(a, b),
                    Rule::s_imp => StateFormulaKind::Imp(a, b),
                    _ => return Err(self.unsupported(sp(&op), quantitative)),
                };
                Ok(Node {
                    e: StateFormula { kind, span },
                    outer: span,
                })
            })
            .parse(p.into_inner())?;
        Ok(n.e)
    }

    fn reg_frm(&self, p: Pair<Rule>) -> R<RegFormula> {
        let n = REG_PRATT
            .map_primary(|q| {
                let span = sp(&q);
                let kind = match q.as_rule() {
                    Rule::r_nil => RegFormulaKind::Nil,
                    Rule::act_frm => RegFormulaKind::Action(self.act_frm(q)?),
                    _ => {
                        let e = self.reg_frm(kids(q).next().expect("parenthesised"))?;
                        return Ok(Node { e, outer: span });
                    }
                };
                Ok(Node {
                    e: RegFormula { kind, span },
                    outer: span,
                })
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                let span = lhs.outer.join(sp(&op));
                let kind = match op.as_rule() {
                    Rule::r_star => RegFormulaKind::Star(Box::new(lhs.e)),
                    _ => RegFormulaKind::Plus(Box::new(lhs.e)),
                };
                Ok(Node {
                    e: RegFormula { kind, span },
                    outer: span,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.outer.join(rhs.outer);
                let (a, b) = (Box::new(lhs.e), Box::new(rhs.e));
                let kind = match op.as_rule() {
                    Rule::r_alt => RegFormulaKind::Alt(a, b),
                    _ => RegFormulaKind::Seq(a, b),
                };
                Ok(Node {
                    e: RegFormula { kind, span },
                    outer: span,
                })
            })
            .parse(p.into_inner())?;
        Ok(n.e)
    }

    fn act_frm(&self, p: Pair<Rule>) -> R<ActionFormula> {
        let n = ACT_PRATT
            .map_primary(|q| {
                let span = sp(&q);
                let kind = match q.as_rule() {
                    Rule::a_true => ActionFormulaKind::True,
                    Rule::a_false => ActionFormulaKind::False,
                    Rule::a_val => ActionFormulaKind::Val(
                        self.data_expr(kids(q).next().expect("val argument"))?,
                    ),
                    Rule::a_multact => {
                        let mut acts = Vec::new();
                        // `tau` is a keyword child (filtered out): no actions.
                        for a in kids(q) {
                            let aspan = sp(&a);
                            let mut k = kids(a);
                            let name = ident(k.next().expect("action name"));
                            let args = match k.next() {
                                Some(l) => self.data_expr_list(l)?,
                                None => Vec::new(),
                            };
                            acts.push(ActionOcc {
                                name,
                                args,
                                span: aspan,
                            });
                        }
                        ActionFormulaKind::MultiAction(acts)
                    }
                    _ => {
                        let e = self.act_frm(kids(q).next().expect("parenthesised"))?;
                        return Ok(Node { e, outer: span });
                    }
                };
                Ok(Node {
                    e: ActionFormula { kind, span },
                    outer: span,
                })
            })
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = sp(&op).join(rhs.outer);
                let body = Box::new(rhs.e);
                let kind = match op.as_rule() {
                    Rule::a_not => ActionFormulaKind::Not(body),
                    Rule::a_forall => ActionFormulaKind::Forall(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                    _ => ActionFormulaKind::Exists(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                };
                Ok(Node {
                    e: ActionFormula { kind, span },
                    outer: span,
                })
            })
            .map_postfix(|lhs, op| {
                let _ = lhs?;
                let s = sp(&op);
                Err(self.unsupported(
                    Span::new(s.start as usize, s.start as usize + 1),
                    "timed formulas are not supported (`@` in an action formula)",
                ))
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.outer.join(rhs.outer);
                let (a, b) = (Box::new(lhs.e), Box::new(rhs.e));
                let kind = match op.as_rule() {
                    Rule::a_and => ActionFormulaKind::And(a, b),
                    Rule::a_or => ActionFormulaKind::Or(a, b),
                    _ => ActionFormulaKind::Imp(a, b),
                };
                Ok(Node {
                    e: ActionFormula { kind, span },
                    outer: span,
                })
            })
            .parse(p.into_inner())?;
        Ok(n.e)
    }

    // ----- PBES -----

    fn pbes_spec(&self, top: Pair<Rule>) -> R<PbesSpec> {
        let span = sp(&top);
        let mut decls = Vec::new();
        let mut equations = Vec::new();
        let mut init = None;
        for p in kids(top) {
            match p.as_rule() {
                Rule::pbes_eqn => {
                    let mut espan = sp(&p);
                    espan.end -= 1;
                    let mut k = kids(p);
                    let fixpoint = match k.next().expect("fixpoint").as_str() {
                        "mu" => FixpointKind::Mu,
                        _ => FixpointKind::Nu,
                    };
                    let v = k.next().expect("variable");
                    let vspan = sp(&v);
                    let mut vk = kids(v);
                    let vname = ident(vk.next().expect("variable name"));
                    let params = match vk.next() {
                        Some(l) => self.vars_decl_list(l)?,
                        None => Vec::new(),
                    };
                    let rhs = self.pbes_expr(k.next().expect("right-hand side"))?;
                    equations.push(PbesEquation {
                        fixpoint,
                        var: PropVarDecl {
                            name: vname,
                            params,
                            span: vspan,
                        },
                        rhs,
                        span: espan,
                    });
                }
                Rule::pbes_init => {
                    init = Some(self.prop_var_inst(kids(p).next().expect("initial instance"))?)
                }
                _ => self.decl_section(p, &mut decls)?,
            }
        }
        Ok(PbesSpec {
            decls,
            equations,
            init: init.expect("pbes_spec has init"),
            span,
        })
    }

    fn prop_var_inst(&self, p: Pair<Rule>) -> R<PropVarInst> {
        let span = sp(&p);
        let mut k = kids(p);
        let name = ident(k.next().expect("name"));
        let args = match k.next() {
            Some(l) => self.data_expr_list(l)?,
            None => Vec::new(),
        };
        Ok(PropVarInst { name, args, span })
    }

    fn pbes_expr(&self, p: Pair<Rule>) -> R<PbesExpr> {
        let n = PBES_PRATT
            .map_primary(|q| {
                let span = sp(&q);
                let kind = match q.as_rule() {
                    Rule::b_true => PbesExprKind::True,
                    Rule::b_false => PbesExprKind::False,
                    Rule::b_val => {
                        PbesExprKind::Val(self.data_expr(kids(q).next().expect("val argument"))?)
                    }
                    Rule::prop_var_inst => PbesExprKind::PropVar(self.prop_var_inst(q)?),
                    _ => {
                        let e = self.pbes_expr(kids(q).next().expect("parenthesised"))?;
                        return Ok(Node { e, outer: span });
                    }
                };
                Ok(Node {
                    e: PbesExpr { kind, span },
                    outer: span,
                })
            })
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = sp(&op).join(rhs.outer);
                let body = Box::new(rhs.e);
                let kind = match op.as_rule() {
                    Rule::b_not => PbesExprKind::Not(body),
                    Rule::b_forall => PbesExprKind::Forall(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                    _ => PbesExprKind::Exists(
                        self.vars_decl_list(kids(op).next().expect("variables"))?,
                        body,
                    ),
                };
                Ok(Node {
                    e: PbesExpr { kind, span },
                    outer: span,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let span = lhs.outer.join(rhs.outer);
                let (a, b) = (Box::new(lhs.e), Box::new(rhs.e));
                let kind = match op.as_rule() {
                    Rule::b_and => PbesExprKind::And(a, b),
                    Rule::b_or => PbesExprKind::Or(a, b),
                    _ => PbesExprKind::Imp(a, b),
                };
                Ok(Node {
                    e: PbesExpr { kind, span },
                    outer: span,
                })
            })
            .parse(p.into_inner())?;
        Ok(n.e)
    }
}

/// Attaches `else_` to the innermost conditional without else-branch on the right spine of
/// `e` (the dangling `<>` binds to the nearest `->`), extending the spans along the way.
/// Children written in parentheses end before their parent does, so the walk never enters
/// them. Gives `else_` back when there is no such conditional.
fn attach_else(e: &mut ProcExpr, else_: ProcExpr) -> Result<(), ProcExpr> {
    let end = e.span.end;
    let new_end = else_.span.end.max(end);
    // Deeper first: the innermost open conditional wins.
    if let Some(c) = spine_child_mut(e) {
        if c.span.end == end && open_cond(c) {
            attach_else(c, else_)?;
            e.span.end = new_end;
            return Ok(());
        }
    }
    match &mut e.kind {
        ProcExprKind::Cond { else_: slot, .. } if slot.is_none() => {
            *slot = Some(Box::new(else_));
            e.span.end = new_end;
            Ok(())
        }
        _ => Err(else_),
    }
}

fn spine_child_mut(e: &mut ProcExpr) -> Option<&mut ProcExpr> {
    match &mut e.kind {
        ProcExprKind::Sum { body, .. } => Some(body),
        ProcExprKind::Choice(_, b)
        | ProcExprKind::Seq(_, b)
        | ProcExprKind::Sync(_, b)
        | ProcExprKind::Par(_, b)
        | ProcExprKind::LeftMerge(_, b) => Some(b),
        ProcExprKind::Cond { then, else_, .. } => match else_ {
            Some(x) => Some(x),
            None => Some(then),
        },
        _ => None,
    }
}

/// Whether the right spine of `e` (outside parentheses) has a conditional without else.
fn open_cond(e: &ProcExpr) -> bool {
    let end = e.span.end;
    let child: Option<&ProcExpr> = match &e.kind {
        ProcExprKind::Sum { body, .. } => Some(body),
        ProcExprKind::Choice(_, b)
        | ProcExprKind::Seq(_, b)
        | ProcExprKind::Sync(_, b)
        | ProcExprKind::Par(_, b)
        | ProcExprKind::LeftMerge(_, b) => Some(b),
        ProcExprKind::Cond { else_: None, .. } => return true,
        ProcExprKind::Cond { else_: Some(x), .. } => Some(x),
        _ => None,
    };
    child.is_some_and(|c| c.span.end == end && open_cond(c))
}
