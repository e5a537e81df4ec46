//! Syntax errors from pest: the rules pest expected, described in words, the token found, and
//! hints for common mistakes (reserved words, missing separators).

use super::*;

// -------------------------------------------------------------------------------------------
// Syntax errors from pest
// -------------------------------------------------------------------------------------------

/// A readable description of what a rule stands for when it is expected; `None` for
/// operators (always possible after an operand, listing them only adds noise).
pub(super) fn describe(rule: Rule) -> Option<&'static str> {
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
pub(super) fn describe_literal(tok: &str) -> Option<String> {
    const STRUCTURAL: [&str; 11] = [";", ")", "]", "}", ",", ":", "=", "->", ".", ">", "end"];
    STRUCTURAL.contains(&tok).then(|| format!("`{tok}`"))
}

/// The token at byte `pos`, for "unexpected …".
pub(super) fn token_at(text: &str, pos: usize) -> (String, Span) {
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

pub(super) fn pest_error(src: &SourceFile, e: pest::error::Error<Rule>) -> SyntaxError {
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
            // The marked bracket of `parens` is a `(` to the user.
            tokens = toks
                .iter()
                .map(|t| t.to_string())
                .filter(|t| !t.contains('\u{1}'))
                .collect();
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
pub(super) fn reserved_word_before(text: &str, pos: usize) -> Option<(usize, &str)> {
    let before = text.get(..pos)?;
    // The start of the word: just after the last character that is not part of one, which
    // may be a multi-byte character.
    let start = before
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '\''))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let word = &before[start..];
    if text
        .get(pos..)?
        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '\'')
    {
        return None;
    }
    RESERVED.contains(&word).then_some((start, word))
}

/// Drops expectations that are implied by others or that are noise in context.
pub(super) fn simplify_expected(expected: &mut Vec<String>) {
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

pub(super) fn hint(text: &str, pos: usize, expected: &[String]) -> Option<String> {
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
