//! Printing a linear process as an mCRL2 specification (`lpspp`).
//!
//! The output is a complete mCRL2 specification (data declarations, `act`, `glob`, one
//! `proc` equation and `init`) that mCRL2 and muon parse back. Data expressions are printed
//! fully parenthesised where mCRL2 uses infix notation, so no precedence can go wrong.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::data::ir::{Binder, DataExpr, DataSpec, Sort, SortDef, Var};
use crate::process::ir::Action;

use super::{Lps, Summand, SummandAction};

/// The name of the linear process in printed output.
pub const PROC_NAME: &str = "P";

/// mCRL2 text of a sort.
pub fn sort_to_string(s: &Sort) -> String {
    match s {
        Sort::Bool => "Bool".into(),
        Sort::Pos => "Pos".into(),
        Sort::Nat => "Nat".into(),
        Sort::Int => "Int".into(),
        Sort::Real => "Real".into(),
        Sort::List(e) => format!("List({})", sort_to_string(e)),
        Sort::Set(e) => format!("Set({})", sort_to_string(e)),
        Sort::FSet(e) => format!("FSet({})", sort_to_string(e)),
        Sort::Bag(e) => format!("Bag({})", sort_to_string(e)),
        Sort::FBag(e) => format!("FBag({})", sort_to_string(e)),
        Sort::Arrow(d, c) => {
            let dom: Vec<String> = d
                .iter()
                .map(|x| {
                    let t = sort_to_string(x);
                    if matches!(x, Sort::Arrow(..)) {
                        format!("({t})")
                    } else {
                        t
                    }
                })
                .collect();
            let cod = sort_to_string(c);
            if matches!(**c, Sort::Arrow(..)) {
                format!("{} -> ({cod})", dom.join(" # "))
            } else {
                format!("{} -> {cod}", dom.join(" # "))
            }
        }
        Sort::Named(n) => n.to_string(),
    }
}

const INFIX: &[&str] = &[
    "==", "!=", "<", "<=", ">", ">=", "&&", "||", "=>", "+", "-", "*", "/", "div", "mod", "in",
    "|>", "<|", "++", ".",
];

fn var_decls(vars: &[Var]) -> String {
    vars.iter()
        .map(|v| format!("{}: {}", v.name, sort_to_string(&v.sort)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn flatten_chain<'e>(e: &'e DataExpr, op: &str, out: &mut Vec<&'e DataExpr>) {
    match crate::data::ir_ops::as_app(e) {
        Some((n, [a, b])) if n == op => {
            flatten_chain(a, op, out);
            flatten_chain(b, op, out);
        }
        _ => out.push(e),
    }
}

/// mCRL2 text of a data expression.
pub fn data_expr_to_string(e: &DataExpr) -> String {
    match e {
        DataExpr::Var(v) => v.name.to_string(),
        DataExpr::Func(f) => f.name.to_string(),
        DataExpr::Number { value, .. } => value.to_string(),
        DataExpr::App { head, args } => {
            if let DataExpr::Func(f) = &**head {
                let n = &*f.name;
                if args.len() == 2 && (n == "&&" || n == "||") {
                    // Flatten chains: deep parenthesis nesting is hard on every parser.
                    let mut parts = Vec::new();
                    flatten_chain(e, n, &mut parts);
                    let ps: Vec<String> = parts.iter().map(|x| data_expr_to_string(x)).collect();
                    return format!("({})", ps.join(&format!(" {n} ")));
                }
                if args.len() == 2 && INFIX.contains(&n) {
                    return format!(
                        "({} {} {})",
                        data_expr_to_string(&args[0]),
                        n,
                        data_expr_to_string(&args[1])
                    );
                }
                if args.len() == 1 && matches!(n, "!" | "-" | "#") {
                    // `!{e1}` (a set's complement) as mCRL2 prints it: enumerations are atoms.
                    if matches!(
                        args[0],
                        DataExpr::SetEnum { .. }
                            | DataExpr::BagEnum { .. }
                            | DataExpr::ListEnum { .. }
                    ) {
                        return format!("{n}{}", data_expr_to_string(&args[0]));
                    }
                    return format!("{n}({})", data_expr_to_string(&args[0]));
                }
                if args.len() == 3 && n == "@func_update" {
                    return format!(
                        "{}[{} -> {}]",
                        data_expr_to_string(&args[0]),
                        data_expr_to_string(&args[1]),
                        data_expr_to_string(&args[2])
                    );
                }
            }
            let h = match &**head {
                // `f(a)(x)`: application is postfix, so an applied head needs no brackets.
                DataExpr::Func(_) | DataExpr::Var(_) | DataExpr::App { .. } => {
                    data_expr_to_string(head)
                }
                _ => format!("({})", data_expr_to_string(head)),
            };
            let a: Vec<String> = args.iter().map(data_expr_to_string).collect();
            format!("{h}({})", a.join(", "))
        }
        DataExpr::Binder { kind, vars, body } => {
            let b = data_expr_to_string(body);
            match kind {
                Binder::Lambda => format!("(lambda {} . {b})", var_decls(vars)),
                Binder::Forall => format!("(forall {} . {b})", var_decls(vars)),
                Binder::Exists => format!("(exists {} . {b})", var_decls(vars)),
                Binder::SetComprehension | Binder::BagComprehension => {
                    format!("{{ {} | {b} }}", var_decls(vars))
                }
            }
        }
        DataExpr::Whr { body, defs } => {
            let d: Vec<String> = defs
                .iter()
                .map(|(v, e)| format!("{} = {}", v.name, data_expr_to_string(e)))
                .collect();
            format!("({} whr {} end)", data_expr_to_string(body), d.join(", "))
        }
        DataExpr::ListEnum { elems, .. } => {
            let a: Vec<String> = elems.iter().map(data_expr_to_string).collect();
            format!("[{}]", a.join(", "))
        }
        DataExpr::SetEnum { elems, .. } => {
            let a: Vec<String> = elems.iter().map(data_expr_to_string).collect();
            format!("{{{}}}", a.join(", "))
        }
        DataExpr::BagEnum { elems, .. } => {
            if elems.is_empty() {
                return "{:}".into();
            }
            let a: Vec<String> = elems
                .iter()
                .map(|(x, n)| format!("{}: {}", data_expr_to_string(x), data_expr_to_string(n)))
                .collect();
            format!("{{{}}}", a.join(", "))
        }
    }
}

/// mCRL2 text of an action occurrence.
pub fn action_to_string(a: &Action) -> String {
    if a.args.is_empty() {
        a.name.to_string()
    } else {
        let args: Vec<String> = a.args.iter().map(data_expr_to_string).collect();
        format!("{}({})", a.name, args.join(", "))
    }
}

/// mCRL2 text of the data declarations.
pub fn data_spec_to_string(d: &DataSpec) -> String {
    let mut out = String::new();
    for (n, s) in &d.aliases {
        let _ = writeln!(out, "sort {n} = {};", sort_to_string(s));
    }
    for s in &d.sorts {
        match &s.def {
            SortDef::Basic => {
                let _ = writeln!(out, "sort {};", s.name);
            }
            SortDef::Struct(conss) => {
                let cs: Vec<String> = conss
                    .iter()
                    .map(|c| {
                        let mut t = c.name.to_string();
                        if !c.fields.is_empty() {
                            let fs: Vec<String> = c
                                .fields
                                .iter()
                                .map(|f| match &f.projection {
                                    Some(p) => format!("{p}: {}", sort_to_string(&f.sort)),
                                    None => sort_to_string(&f.sort),
                                })
                                .collect();
                            t = format!("{t}({})", fs.join(", "));
                        }
                        if let Some(r) = &c.recogniser {
                            t = format!("{t} ? {r}");
                        }
                        t
                    })
                    .collect();
                let _ = writeln!(out, "sort {} = struct {};", s.name, cs.join(" | "));
            }
        }
    }
    for c in &d.constructors {
        let _ = writeln!(
            out,
            "cons {}: {};",
            c.func.name,
            sort_to_string(&c.func.sort)
        );
    }
    for m in &d.mappings {
        let _ = writeln!(
            out,
            "map {}: {};",
            m.func.name,
            sort_to_string(&m.func.sort)
        );
    }
    for e in &d.equations {
        if !e.vars.is_empty() {
            let _ = writeln!(out, "var {};", var_decls(&e.vars));
        }
        let cond = match &e.condition {
            Some(c) => format!("{} -> ", data_expr_to_string(c)),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "eqn {cond}{} = {};",
            data_expr_to_string(&e.lhs),
            data_expr_to_string(&e.rhs)
        );
    }
    out
}

fn summand_to_string(lps: &Lps, s: &Summand) -> String {
    let mut t = String::new();
    if !s.sum_vars.is_empty() {
        let _ = write!(t, "sum {} . ", var_decls(&s.sum_vars));
    }
    if !crate::data::ir_ops::is_true(&s.condition) {
        let _ = write!(t, "{} -> ", data_expr_to_string(&s.condition));
    }
    match &s.action {
        SummandAction::Delta => {
            t.push_str("delta");
            return t;
        }
        SummandAction::Multi(acts) if acts.is_empty() => t.push_str("tau"),
        SummandAction::Multi(acts) => {
            let a: Vec<String> = acts.iter().map(action_to_string).collect();
            t.push_str(&a.join(" | "));
        }
    }
    let assigns: Vec<String> = s
        .changed(&lps.params)
        .into_iter()
        .map(|i| {
            format!(
                "{} = {}",
                lps.params[i].name,
                data_expr_to_string(&s.next[i])
            )
        })
        .collect();
    if lps.params.is_empty() {
        let _ = write!(t, " . {PROC_NAME}");
    } else {
        let _ = write!(t, " . {PROC_NAME}({})", assigns.join(", "));
    }
    t
}

/// The whole LPS as an mCRL2 specification.
pub fn lps_to_string(lps: &Lps) -> String {
    let mut out = data_spec_to_string(&lps.data);
    let mut seen = BTreeSet::new();
    let mut acts = Vec::new();
    for a in &lps.actions {
        if seen.insert((a.name.clone(), a.sorts.clone())) {
            if a.sorts.is_empty() {
                acts.push(format!("  {};", a.name));
            } else {
                let s: Vec<String> = a.sorts.iter().map(sort_to_string).collect();
                acts.push(format!("  {}: {};", a.name, s.join(" # ")));
            }
        }
    }
    if !acts.is_empty() {
        let _ = writeln!(out, "act\n{}", acts.join("\n"));
    }
    if !lps.globals.is_empty() {
        let _ = writeln!(out, "glob {};", var_decls(&lps.globals));
    }
    if lps.params.is_empty() {
        let _ = writeln!(out, "proc {PROC_NAME} =");
    } else {
        let _ = writeln!(out, "proc {PROC_NAME}({}) =", var_decls(&lps.params));
    }
    if lps.summands.is_empty() {
        let _ = writeln!(out, "       delta;");
    } else {
        let ss: Vec<String> = lps
            .summands
            .iter()
            .map(|s| summand_to_string(lps, s))
            .collect();
        let _ = writeln!(out, "       {};", ss.join("\n     + "));
    }
    let init: Vec<String> = lps.init.iter().map(data_expr_to_string).collect();
    if init.is_empty() {
        let _ = writeln!(out, "init {PROC_NAME};");
    } else {
        let _ = writeln!(out, "init {PROC_NAME}({});", init.join(", "));
    }
    out
}
