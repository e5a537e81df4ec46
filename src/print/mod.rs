//! Printing the typed IRs above data — process expressions and specifications, state
//! formulas, PBESs and linear processes — in mCRL2 syntax, on top of [`crate::data::print`]
//! (the one printer of sorts and data expressions). The output re-parses to the same
//! structure; after type checking it gives the same IR.
//!
//! This module stands above every IR it prints; nothing below it may use it (LTS labels and
//! messages print data through `data::print`).

mod lps;

pub use lps::lps_to_string;

use std::fmt::Write as _;

use crate::data::ir::{DataExpr, DataSpec};
use crate::data::print::{data_infix, is_upcast, sides, Assoc, DataPrinter};
use crate::modal::ir::{ActionFormula, FixpointVar, RegFormula, StateFormula};
use crate::pbes::ir::{Fixpoint, Pbes, PbesExpr, PropVarInst};
use crate::process::ir::{Action, ProcExpr, ProcSpec};

pub fn action_to_string(a: &Action) -> String {
    let mut out = String::new();
    Printer::default().action(a, &mut out);
    out
}

/// A process expression of `spec` (calls are printed with the names of `spec`'s processes).
pub fn proc_expr_to_string(p: &ProcExpr, spec: &ProcSpec) -> String {
    let mut out = String::new();
    let mut pr = Printer::for_data(&spec.data);
    pr.procs = Some(spec);
    pr.proc(p, 0, &mut out);
    out
}

/// A whole specification: data, `act`, `glob`, `proc` and `init`.
pub fn proc_spec_to_string(spec: &ProcSpec) -> String {
    let mut out = String::new();
    let mut pr = Printer::for_data(&spec.data);
    pr.procs = Some(spec);
    pr.d.data_spec(&spec.data, &mut out);
    if !spec.actions.is_empty() {
        out.push_str("act\n");
        for a in &spec.actions {
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
    pr.d.globals(&spec.globals, &mut out);
    if !spec.procs.is_empty() {
        out.push_str("proc\n");
        for p in &spec.procs {
            out.push_str("  ");
            out.push_str(&p.name);
            if !p.params.is_empty() {
                out.push('(');
                pr.d.var_list(&p.params, &mut out);
                out.push(')');
            }
            out.push_str(" =\n    ");
            pr.proc(&p.body, 0, &mut out);
            out.push_str(";\n");
        }
        out.push('\n');
    }
    out.push_str("init\n  ");
    pr.proc(&spec.init, 0, &mut out);
    out.push_str(";\n");
    out
}

/// A state formula in mCRL2 syntax.
pub fn state_formula_to_string(f: &StateFormula) -> String {
    let mut out = String::new();
    Printer::default().state(f, 0, &mut out);
    out
}

/// A PBES in the textual format of `txt2pbes`/`pbespp`.
pub fn pbes_to_string(p: &Pbes) -> String {
    let mut out = String::new();
    let pr = Printer::for_data(&p.data);
    pr.d.data_spec(&p.data, &mut out);
    pr.d.globals(&p.globals, &mut out);
    out.push_str("pbes\n");
    for eq in &p.equations {
        out.push_str(match eq.fixpoint {
            Fixpoint::Mu => "  mu ",
            Fixpoint::Nu => "  nu ",
        });
        out.push_str(&eq.var.name);
        if !eq.var.params.is_empty() {
            out.push('(');
            pr.d.var_list(&eq.var.params, &mut out);
            out.push(')');
        }
        out.push_str(" =\n    ");
        pr.pbes(&eq.rhs, 0, &mut out);
        out.push_str(";\n");
    }
    out.push_str("\ninit ");
    pr.prop_var_inst(&p.init, &mut out);
    out.push_str(";\n");
    out
}

/// Processes: `+` 1, `sum` 2, `||` 3, `||_` 4, `->` 5, `.` 9, `|` 11, atoms 12.
const P_CHOICE: u8 = 1;
const P_SUM: u8 = 2;
const P_PAR: u8 = 3;
const P_LEFTMERGE: u8 = 4;
const P_COND: u8 = 5;
const P_SEQ: u8 = 9;
const P_SYNC: u8 = 11;
const P_ATOM: u8 = 12;

/// The printer of the process, formula and PBES languages.
#[derive(Default)]
struct Printer<'a> {
    d: DataPrinter<'a>,
    /// The specification whose process names calls refer to.
    procs: Option<&'a ProcSpec>,
}

impl<'a> Printer<'a> {
    fn for_data(d: &'a DataSpec) -> Printer<'a> {
        Printer {
            d: DataPrinter::for_data(d),
            procs: None,
        }
    }

    // ----- processes -----

    fn action(&self, a: &Action, out: &mut String) {
        out.push_str(&a.name);
        if !a.args.is_empty() {
            out.push('(');
            self.d.data_list(&a.args, out);
            out.push(')');
        }
    }

    fn proc_prec(p: &ProcExpr) -> u8 {
        match p {
            ProcExpr::Choice(..) => P_CHOICE,
            ProcExpr::Sum { .. } => P_SUM,
            ProcExpr::Par(..) => P_PAR,
            ProcExpr::LeftMerge(..) => P_LEFTMERGE,
            ProcExpr::If { .. } => P_COND,
            ProcExpr::Seq(..) => P_SEQ,
            ProcExpr::Sync(..) => P_SYNC,
            _ => P_ATOM,
        }
    }

    fn proc(&self, p: &ProcExpr, ctx: u8, out: &mut String) {
        let prec = Self::proc_prec(p);
        let paren = prec < ctx;
        if paren {
            out.push('(');
        }
        let bin = |a: &ProcExpr, op: &str, b: &ProcExpr, pr: u8, assoc: Assoc, out: &mut String| {
            let (l, r) = sides(pr, assoc);
            self.proc(a, l, out);
            out.push_str(op);
            self.proc(b, r, out);
        };
        match p {
            ProcExpr::Action(a) => self.action(a, out),
            ProcExpr::Tau => out.push_str("tau"),
            ProcExpr::Delta => out.push_str("delta"),
            ProcExpr::Call { proc, args } => {
                match self.procs.and_then(|s| s.procs.get(proc.0 as usize)) {
                    Some(d) => out.push_str(&d.name),
                    // Without the specification there is no name to print.
                    None => {
                        let _ = write!(out, "@P{}", proc.0);
                    }
                }
                if !args.is_empty() {
                    out.push('(');
                    self.d.data_list(args, out);
                    out.push(')');
                }
            }
            ProcExpr::Sum { vars, body } => {
                out.push_str("sum ");
                self.d.var_list(vars, out);
                out.push_str(". ");
                self.proc(body, P_SUM, out);
            }
            ProcExpr::Choice(a, b) => bin(a, " + ", b, P_CHOICE, Assoc::Left, out),
            ProcExpr::Seq(a, b) => bin(a, " . ", b, P_SEQ, Assoc::Left, out),
            ProcExpr::Sync(a, b) => bin(a, " | ", b, P_SYNC, Assoc::Left, out),
            ProcExpr::Par(a, b) => bin(a, " || ", b, P_PAR, Assoc::Right, out),
            ProcExpr::LeftMerge(a, b) => bin(a, " ||_ ", b, P_LEFTMERGE, Assoc::Right, out),
            ProcExpr::If { cond, then, else_ } => {
                if DataPrinter::is_unit(cond) {
                    self.d.expr(cond, out);
                } else {
                    out.push('(');
                    self.d.expr(cond, out);
                    out.push(')');
                }
                out.push_str(" -> ");
                match else_ {
                    None => self.proc(then, P_COND, out),
                    Some(q) => {
                        // A conditional or `sum` in the then-branch would capture the `<>`.
                        self.proc(then, P_COND + 1, out);
                        out.push_str(" <> ");
                        self.proc(q, P_COND, out);
                    }
                }
            }
            ProcExpr::Allow { set, body } => {
                out.push_str("allow({");
                for (i, m) in set.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&m.0.join("|"));
                }
                out.push_str("}, ");
                self.proc(body, 0, out);
                out.push(')');
            }
            ProcExpr::Block { set, body } | ProcExpr::Hide { set, body } => {
                out.push_str(if matches!(p, ProcExpr::Block { .. }) {
                    "block({"
                } else {
                    "hide({"
                });
                out.push_str(&set.join(", "));
                out.push_str("}, ");
                self.proc(body, 0, out);
                out.push(')');
            }
            ProcExpr::Rename { map, body } => {
                out.push_str("rename({");
                for (i, (a, b)) in map.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(a);
                    out.push_str(" -> ");
                    out.push_str(b);
                }
                out.push_str("}, ");
                self.proc(body, 0, out);
                out.push(')');
            }
            ProcExpr::Comm { rules, body } => {
                out.push_str("comm({");
                for (i, r) in rules.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&r.lhs.0.join("|"));
                    out.push_str(" -> ");
                    out.push_str(r.rhs.as_deref().unwrap_or("tau"));
                }
                out.push_str("}, ");
                self.proc(body, 0, out);
                out.push(')');
            }
        }
        if paren {
            out.push(')');
        }
    }

    // ----- formulas -----

    fn fixpoint_var(&self, x: &FixpointVar, out: &mut String) {
        out.push_str(&x.name);
        if !x.params.is_empty() {
            out.push('(');
            for (i, (v, e)) in x.params.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&v.name);
                out.push_str(": ");
                self.d.sort(&v.sort, out);
                out.push_str(" = ");
                self.d.expr(e, out);
            }
            out.push(')');
        }
    }

    /// State formulas: `mu nu` 1, `forall exists` 2, `=>` 5, `||` 6, `&&` 7, prefix 8, atoms 9.
    fn state(&self, f: &StateFormula, ctx: u8, out: &mut String) {
        let prec = match f {
            StateFormula::Mu(..) | StateFormula::Nu(..) => 1,
            StateFormula::Forall(..) | StateFormula::Exists(..) => 2,
            StateFormula::Imp(..) => 5,
            StateFormula::Or(..) => 6,
            StateFormula::And(..) => 7,
            StateFormula::Not(_) | StateFormula::Must(..) | StateFormula::May(..) => 8,
            _ => 9,
        };
        let paren = prec < ctx;
        if paren {
            out.push('(');
        }
        let bin = |a: &StateFormula, op: &str, b: &StateFormula, out: &mut String| {
            // All binary state operators are right associative.
            self.state(a, prec + 1, out);
            out.push_str(op);
            self.state(b, prec, out);
        };
        match f {
            StateFormula::True => out.push_str("true"),
            StateFormula::False => out.push_str("false"),
            StateFormula::Not(a) => {
                out.push('!');
                self.state(a, 8, out);
            }
            StateFormula::And(a, b) => bin(a, " && ", b, out),
            StateFormula::Or(a, b) => bin(a, " || ", b, out),
            StateFormula::Imp(a, b) => bin(a, " => ", b, out),
            StateFormula::Forall(vs, a) | StateFormula::Exists(vs, a) => {
                out.push_str(if matches!(f, StateFormula::Forall(..)) {
                    "forall "
                } else {
                    "exists "
                });
                self.d.var_list(vs, out);
                out.push_str(". ");
                self.state(a, 2, out);
            }
            StateFormula::Must(r, a) => {
                out.push('[');
                self.reg(r, 0, out);
                out.push(']');
                self.state(a, 8, out);
            }
            StateFormula::May(r, a) => {
                out.push('<');
                self.reg(r, 0, out);
                out.push('>');
                self.state(a, 8, out);
            }
            StateFormula::Mu(x, a) | StateFormula::Nu(x, a) => {
                out.push_str(if matches!(f, StateFormula::Mu(..)) {
                    "mu "
                } else {
                    "nu "
                });
                self.fixpoint_var(x, out);
                out.push_str(". ");
                self.state(a, 1, out);
            }
            StateFormula::Var { name, args } => {
                out.push_str(name);
                if !args.is_empty() {
                    out.push('(');
                    self.d.data_list(args, out);
                    out.push(')');
                }
            }
            StateFormula::Val(d) => {
                out.push_str("val(");
                self.d.expr(d, out);
                out.push(')');
            }
        }
        if paren {
            out.push(')');
        }
    }

    /// Regular formulas: `+` 1 (left), `.` 2 (right), postfix `*`/`+` 3, atoms 4.
    fn reg(&self, r: &RegFormula, ctx: u8, out: &mut String) {
        let prec = match r {
            RegFormula::Alt(..) => 1,
            RegFormula::Seq(..) => 2,
            RegFormula::Star(_) | RegFormula::Plus(_) => 3,
            _ => 4,
        };
        let paren = prec < ctx;
        if paren {
            out.push('(');
        }
        match r {
            RegFormula::Action(a) => {
                // A compound action formula inside a compound regular formula is bracketed
                // for readability (`(a || b)*`); alone it needs none.
                let atomic = matches!(
                    a,
                    ActionFormula::True
                        | ActionFormula::False
                        | ActionFormula::MultiAction(_)
                        | ActionFormula::Val(_)
                        | ActionFormula::Not(_)
                );
                if ctx > 0 && !atomic {
                    out.push('(');
                    self.act(a, 0, out);
                    out.push(')');
                } else {
                    self.act(a, 0, out);
                }
            }
            RegFormula::Nil => out.push_str("nil"),
            RegFormula::Alt(a, b) => {
                self.reg(a, 1, out);
                out.push_str(" + ");
                self.reg(b, 2, out);
            }
            RegFormula::Seq(a, b) => {
                self.reg(a, 3, out);
                out.push_str(" . ");
                self.reg(b, 2, out);
            }
            RegFormula::Star(a) => {
                self.reg(a, 3, out);
                out.push('*');
            }
            RegFormula::Plus(a) => {
                self.reg(a, 3, out);
                out.push('+');
            }
        }
        if paren {
            out.push(')');
        }
    }

    /// Action formulas: `forall exists` 1, `=>` 2, `||` 3, `&&` 4, `!` 5, atoms 6.
    fn act(&self, a: &ActionFormula, ctx: u8, out: &mut String) {
        let prec = match a {
            ActionFormula::Forall(..) | ActionFormula::Exists(..) => 1,
            ActionFormula::Imp(..) => 2,
            ActionFormula::Or(..) => 3,
            ActionFormula::And(..) => 4,
            ActionFormula::Not(_) => 5,
            _ => 6,
        };
        let paren = prec < ctx;
        if paren {
            out.push('(');
        }
        let bin = |x: &ActionFormula, op: &str, y: &ActionFormula, out: &mut String| {
            self.act(x, prec + 1, out);
            out.push_str(op);
            self.act(y, prec, out);
        };
        match a {
            ActionFormula::True => out.push_str("true"),
            ActionFormula::False => out.push_str("false"),
            ActionFormula::Not(x) => {
                out.push('!');
                self.act(x, 5, out);
            }
            ActionFormula::And(x, y) => bin(x, " && ", y, out),
            ActionFormula::Or(x, y) => bin(x, " || ", y, out),
            ActionFormula::Imp(x, y) => bin(x, " => ", y, out),
            ActionFormula::Forall(vs, x) | ActionFormula::Exists(vs, x) => {
                out.push_str(if matches!(a, ActionFormula::Forall(..)) {
                    "forall "
                } else {
                    "exists "
                });
                self.d.var_list(vs, out);
                out.push_str(". ");
                self.act(x, 1, out);
            }
            ActionFormula::MultiAction(acts) => {
                if acts.is_empty() {
                    out.push_str("tau");
                }
                for (i, x) in acts.iter().enumerate() {
                    if i > 0 {
                        out.push('|');
                    }
                    self.action(x, out);
                }
            }
            ActionFormula::Val(d) => {
                out.push_str("val(");
                self.d.expr(d, out);
                out.push(')');
            }
        }
        if paren {
            out.push(')');
        }
    }

    // ----- PBES -----

    fn prop_var_inst(&self, v: &PropVarInst, out: &mut String) {
        out.push_str(&v.name);
        if !v.args.is_empty() {
            out.push('(');
            self.d.data_list(&v.args, out);
            out.push(')');
        }
    }

    /// Whether a Boolean data expression may appear in a PBES without `val(…)`: variables
    /// and applications of named functions, as mCRL2 prints them.
    fn plain_pbes_data(d: &DataExpr) -> bool {
        let plain_name = |n: &str| {
            n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && !matches!(n, "true" | "false" | "if")
                && data_infix(n).is_none()
        };
        match d {
            DataExpr::Var(v) => plain_name(&v.name),
            DataExpr::Func(f) => plain_name(&f.name),
            DataExpr::App { head, .. } => match &**head {
                DataExpr::Func(f) => plain_name(&f.name) && !is_upcast(&f.name),
                _ => false,
            },
            _ => false,
        }
    }

    /// PBES expressions: `forall exists` 1, `=>` 2, `||` 3, `&&` 4, `!` 5, atoms 6.
    fn pbes(&self, e: &PbesExpr, ctx: u8, out: &mut String) {
        let prec = match e {
            PbesExpr::Forall(..) | PbesExpr::Exists(..) => 1,
            PbesExpr::Imp(..) => 2,
            PbesExpr::Or(..) => 3,
            PbesExpr::And(..) => 4,
            PbesExpr::Not(_) => 5,
            _ => 6,
        };
        let paren = prec < ctx;
        if paren {
            out.push('(');
        }
        let bin = |x: &PbesExpr, op: &str, y: &PbesExpr, out: &mut String| {
            self.pbes(x, prec + 1, out);
            out.push_str(op);
            self.pbes(y, prec, out);
        };
        match e {
            PbesExpr::True => out.push_str("true"),
            PbesExpr::False => out.push_str("false"),
            PbesExpr::Data(d) => {
                if Self::plain_pbes_data(d) {
                    self.d.expr(d, out);
                } else {
                    out.push_str("val(");
                    self.d.expr(d, out);
                    out.push(')');
                }
            }
            PbesExpr::Not(x) => {
                out.push('!');
                self.pbes(x, 5, out);
            }
            PbesExpr::And(x, y) => bin(x, " && ", y, out),
            PbesExpr::Or(x, y) => bin(x, " || ", y, out),
            PbesExpr::Imp(x, y) => bin(x, " => ", y, out),
            PbesExpr::Forall(vs, x) | PbesExpr::Exists(vs, x) => {
                out.push_str(if matches!(e, PbesExpr::Forall(..)) {
                    "forall "
                } else {
                    "exists "
                });
                self.d.var_list(vs, out);
                out.push_str(". ");
                self.pbes(x, 1, out);
            }
            PbesExpr::PropVar(v) => self.prop_var_inst(v, out),
        }
        if paren {
            out.push(')');
        }
    }
}
