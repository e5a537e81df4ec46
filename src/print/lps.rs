//! Printing a linear process as an mCRL2 specification (`lpspp`): the data specification,
//! `act`, `glob`, one `proc` equation with one summand per line, and `init`, which mCRL2 and
//! muon parse back.

use std::collections::BTreeSet;

use crate::data::ir_ops::is_true;
use crate::lps::{Lps, Summand, SummandAction, PROC_NAME};

use super::Printer;

/// The whole LPS as an mCRL2 specification.
pub fn lps_to_string(lps: &Lps) -> String {
    let pr = Printer::for_data(&lps.data);
    let mut out = String::new();
    pr.d.data_spec(&lps.data, &mut out);
    // An action may be declared once per sort list; the LPS keeps one entry per use.
    let mut seen = BTreeSet::new();
    let decls: Vec<_> = lps
        .actions
        .iter()
        .filter(|a| seen.insert((a.name.clone(), a.sorts.clone())))
        .collect();
    if !decls.is_empty() {
        out.push_str("act\n");
        for a in decls {
            out.push_str("  ");
            out.push_str(&a.name);
            if !a.sorts.is_empty() {
                out.push_str(": ");
                for (i, s) in a.sorts.iter().enumerate() {
                    if i > 0 {
                        out.push_str(" # ");
                    }
                    pr.d.sort_prec(s, 1, &mut out);
                }
            }
            out.push_str(";\n");
        }
        out.push('\n');
    }
    pr.d.globals(&lps.globals, &mut out);
    out.push_str("proc ");
    out.push_str(PROC_NAME);
    if !lps.params.is_empty() {
        out.push('(');
        pr.d.var_list(&lps.params, &mut out);
        out.push(')');
    }
    out.push_str(" =\n");
    if lps.summands.is_empty() {
        out.push_str("       delta;\n");
    }
    for (i, s) in lps.summands.iter().enumerate() {
        out.push_str(if i == 0 { "       " } else { "     + " });
        summand(&pr, lps, s, &mut out);
        out.push_str(if i + 1 == lps.summands.len() {
            ";\n"
        } else {
            "\n"
        });
    }
    out.push_str("\ninit ");
    out.push_str(PROC_NAME);
    if !lps.init.is_empty() {
        out.push('(');
        pr.d.data_list(&lps.init, &mut out);
        out.push(')');
    }
    out.push_str(";\n");
    out
}

/// `sum d: D . c -> a(d) . P(x = e)`: only changed parameters are assigned, as mCRL2 prints.
fn summand(pr: &Printer, lps: &Lps, s: &Summand, out: &mut String) {
    if !s.sum_vars.is_empty() {
        out.push_str("sum ");
        pr.d.var_list(&s.sum_vars, out);
        out.push_str(" . ");
    }
    if !is_true(&s.condition) {
        // A condition is a data unit before `->` or needs brackets.
        if crate::data::print::DataPrinter::is_unit(&s.condition) {
            pr.d.expr(&s.condition, out);
        } else {
            out.push('(');
            pr.d.expr(&s.condition, out);
            out.push(')');
        }
        out.push_str(" -> ");
    }
    match &s.action {
        SummandAction::Delta => {
            out.push_str("delta");
            return;
        }
        SummandAction::Multi(acts) if acts.is_empty() => out.push_str("tau"),
        SummandAction::Multi(acts) => {
            for (i, a) in acts.iter().enumerate() {
                if i > 0 {
                    out.push_str(" | ");
                }
                pr.action(a, out);
            }
        }
    }
    out.push_str(" . ");
    out.push_str(PROC_NAME);
    if !lps.params.is_empty() {
        out.push('(');
        for (k, i) in s.changed(&lps.params).into_iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            out.push_str(&lps.params[i].name);
            out.push_str(" = ");
            pr.d.expr(&s.next[i], out);
        }
        out.push(')');
    }
}
