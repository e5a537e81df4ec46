//! Printing the typed IR back in mCRL2 syntax, with the fewest parentheses mCRL2's
//! priorities allow, formatted as mCRL2's own pretty printer formats values (`[1, 2]`,
//! `{1: 3}`, `-4`, `5 / 6`). The output re-parses to the same structure; after type checking
//! it gives the same IR, because what the printer leaves out — implicit upcasts
//! (`Pos2Nat(e)` prints as `e`) and sorts — is exactly what the type checker re-infers.

use std::fmt::Write as _;

use rustc_hash::FxHashMap;

use crate::data::ir::{Binder, DataExpr, DataSpec, Func, Name, Sort, SortDef, StructCons, Var};
use crate::modal::ir::{ActionFormula, FixpointVar, RegFormula, StateFormula};
use crate::pbes::ir::{Fixpoint, Pbes, PbesExpr, PropVarInst};
use crate::process::ir::{Action, ProcExpr, ProcSpec};

/// `Nat`, `List(Pos)`, `Nat # Bool -> Real`, …
pub fn sort_to_string(s: &Sort) -> String {
    let mut out = String::new();
    Printer::default().sort(s, &mut out);
    out
}

/// A data expression in mCRL2 syntax.
pub fn data_expr_to_string(e: &DataExpr) -> String {
    let mut out = String::new();
    Printer::default().data(e, 0, &mut out);
    out
}

/// The user part of a data specification: `sort`, `cons`, `map`, `var`/`eqn` sections.
pub fn data_spec_to_string(d: &DataSpec) -> String {
    let mut out = String::new();
    Printer::for_data(d).data_spec(d, &mut out);
    out
}

/// An action `a(e1, …)` (just `a` without arguments).
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
    pr.data_spec(&spec.data, &mut out);
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
                    pr.sort_prec(s, 1, &mut out);
                }
            }
            out.push_str(";\n");
        }
        out.push('\n');
    }
    pr.globals(&spec.globals, &mut out);
    if !spec.procs.is_empty() {
        out.push_str("proc\n");
        for p in &spec.procs {
            out.push_str("  ");
            out.push_str(&p.name);
            if !p.params.is_empty() {
                out.push('(');
                pr.var_list(&p.params, &mut out);
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
    pr.data_spec(&p.data, &mut out);
    pr.globals(&p.globals, &mut out);
    out.push_str("pbes\n");
    for eq in &p.equations {
        out.push_str(match eq.fixpoint {
            Fixpoint::Mu => "  mu ",
            Fixpoint::Nu => "  nu ",
        });
        out.push_str(&eq.var.name);
        if !eq.var.params.is_empty() {
            out.push('(');
            pr.var_list(&eq.var.params, &mut out);
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

// ---------------------------------------------------------------------------------------
// Priorities (higher binds tighter), as in mCRL2's grammar.
// ---------------------------------------------------------------------------------------

/// Data: `whr` 0, binders 1, `=>` 2 … `* .` 12, prefix 13, postfix 14, atoms 15.
const D_WHR: u8 = 0;
const D_BINDER: u8 = 1;
const D_PREFIX: u8 = 13;
const D_POSTFIX: u8 = 14;
const D_ATOM: u8 = 15;

#[derive(Clone, Copy, PartialEq)]
enum Assoc {
    Left,
    Right,
}

/// Infix data operators: (priority, associativity).
fn data_infix(name: &str) -> Option<(u8, Assoc)> {
    Some(match name {
        "=>" => (2, Assoc::Right),
        "||" => (3, Assoc::Right),
        "&&" => (4, Assoc::Right),
        "==" | "!=" => (5, Assoc::Left),
        "<" | "<=" | ">=" | ">" | "in" => (6, Assoc::Left),
        "|>" => (7, Assoc::Right),
        "<|" => (8, Assoc::Left),
        "++" => (9, Assoc::Left),
        "+" | "-" => (10, Assoc::Left),
        "/" | "div" | "mod" => (11, Assoc::Left),
        "*" | "." => (12, Assoc::Left),
        _ => return None,
    })
}

/// The functions the type checker inserts for implicit numeric upcasts.
fn is_upcast(name: &str) -> bool {
    matches!(
        name,
        "Pos2Nat" | "Pos2Int" | "Nat2Int" | "Pos2Real" | "Nat2Real" | "Int2Real"
    )
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

/// Binary operators over one operand type: left/right operand contexts for priority `p`.
fn sides(p: u8, assoc: Assoc) -> (u8, u8) {
    match assoc {
        Assoc::Left => (p, p + 1),
        Assoc::Right => (p + 1, p),
    }
}

#[derive(Default)]
struct Printer<'a> {
    /// Anonymous struct sorts (`@…` names) are printed inline as their definition.
    anon: FxHashMap<Name, &'a [StructCons]>,
    procs: Option<&'a ProcSpec>,
}

impl<'a> Printer<'a> {
    fn for_data(d: &'a DataSpec) -> Printer<'a> {
        let mut anon = FxHashMap::default();
        for s in &d.sorts {
            if let SortDef::Struct(cs) = &s.def {
                if s.name.starts_with('@') {
                    anon.insert(s.name.clone(), cs.as_slice());
                }
            }
        }
        Printer { anon, procs: None }
    }

    // ----- sorts -----

    fn sort(&self, s: &Sort, out: &mut String) {
        self.sort_prec(s, 0, out)
    }

    /// `ctx` 0: anything; 1: a domain component (arrows need parentheses).
    fn sort_prec(&self, s: &Sort, ctx: u8, out: &mut String) {
        match s {
            Sort::Bool => out.push_str("Bool"),
            Sort::Pos => out.push_str("Pos"),
            Sort::Nat => out.push_str("Nat"),
            Sort::Int => out.push_str("Int"),
            Sort::Real => out.push_str("Real"),
            Sort::List(e) => self.container("List", e, out),
            Sort::Set(e) => self.container("Set", e, out),
            Sort::FSet(e) => self.container("FSet", e, out),
            Sort::Bag(e) => self.container("Bag", e, out),
            Sort::FBag(e) => self.container("FBag", e, out),
            Sort::Arrow(dom, cod) => {
                if ctx > 0 {
                    out.push('(');
                }
                for (i, d) in dom.iter().enumerate() {
                    if i > 0 {
                        out.push_str(" # ");
                    }
                    self.sort_prec(d, 1, out);
                }
                out.push_str(" -> ");
                self.sort_prec(cod, 0, out);
                if ctx > 0 {
                    out.push(')');
                }
            }
            Sort::Named(n) => match self.anon.get(n) {
                Some(cs) => {
                    out.push('(');
                    self.struct_def(cs, out);
                    out.push(')');
                }
                None => out.push_str(n),
            },
        }
    }

    fn container(&self, c: &str, e: &Sort, out: &mut String) {
        out.push_str(c);
        out.push('(');
        self.sort(e, out);
        out.push(')');
    }

    fn struct_def(&self, cs: &[StructCons], out: &mut String) {
        out.push_str("struct ");
        for (i, c) in cs.iter().enumerate() {
            if i > 0 {
                out.push_str(" | ");
            }
            out.push_str(&c.name);
            if !c.fields.is_empty() {
                out.push('(');
                for (j, f) in c.fields.iter().enumerate() {
                    if j > 0 {
                        out.push_str(", ");
                    }
                    if let Some(p) = &f.projection {
                        out.push_str(p);
                        out.push_str(": ");
                    }
                    self.sort(&f.sort, out);
                }
                out.push(')');
            }
            if let Some(r) = &c.recogniser {
                out.push_str("?");
                out.push_str(r);
            }
        }
    }

    // ----- data -----

    fn data_spec(&self, d: &DataSpec, out: &mut String) {
        let named: Vec<_> = d.sorts.iter().filter(|s| !s.name.starts_with('@')).collect();
        if !named.is_empty() || !d.aliases.is_empty() {
            out.push_str("sort\n");
            for s in named {
                out.push_str("  ");
                out.push_str(&s.name);
                if let SortDef::Struct(cs) = &s.def {
                    out.push_str(" = ");
                    self.struct_def(cs, out);
                }
                out.push_str(";\n");
            }
            for (n, s) in &d.aliases {
                out.push_str("  ");
                out.push_str(n);
                out.push_str(" = ");
                self.sort(s, out);
                out.push_str(";\n");
            }
            out.push('\n');
        }
        for (kw, decls) in [("cons", &d.constructors), ("map", &d.mappings)] {
            if decls.is_empty() {
                continue;
            }
            out.push_str(kw);
            out.push('\n');
            for f in decls.iter() {
                out.push_str("  ");
                out.push_str(&f.func.name);
                out.push_str(": ");
                self.sort(&f.func.sort, out);
                out.push_str(";\n");
            }
            out.push('\n');
        }
        // Equations sharing their variables share a `var`/`eqn` section; different sorts for
        // one variable name need separate sections.
        let mut i = 0;
        while i < d.equations.len() {
            let vars = &d.equations[i].vars;
            let mut j = i;
            while j < d.equations.len() && &d.equations[j].vars == vars {
                j += 1;
            }
            if !vars.is_empty() {
                out.push_str("var\n");
                for v in vars {
                    out.push_str("  ");
                    out.push_str(&v.name);
                    out.push_str(": ");
                    self.sort(&v.sort, out);
                    out.push_str(";\n");
                }
            }
            out.push_str("eqn\n");
            for eq in &d.equations[i..j] {
                out.push_str("  ");
                if let Some(c) = &eq.condition {
                    // Any expression may stand before `->` in an equation, but `->` is not a
                    // data operator, so only `whr` (priority 0) needs brackets.
                    self.data(c, D_BINDER, out);
                    out.push_str("  ->  ");
                }
                self.data(&eq.lhs, D_BINDER, out);
                out.push_str("  =  ");
                self.data(&eq.rhs, 0, out);
                out.push_str(";\n");
            }
            out.push('\n');
            i = j;
        }
    }

    fn globals(&self, globals: &[Var], out: &mut String) {
        if globals.is_empty() {
            return;
        }
        out.push_str("glob\n");
        for v in globals {
            out.push_str("  ");
            out.push_str(&v.name);
            out.push_str(": ");
            self.sort(&v.sort, out);
            out.push_str(";\n");
        }
        out.push('\n');
    }

    fn var_list(&self, vars: &[Var], out: &mut String) {
        for (i, v) in vars.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&v.name);
            out.push_str(": ");
            self.sort(&v.sort, out);
        }
    }

    fn data_list(&self, es: &[DataExpr], out: &mut String) {
        for (i, e) in es.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.data(e, 0, out);
        }
    }

    /// Drops inserted upcasts: `Pos2Nat(e)` is written `e`.
    fn strip<'e>(e: &'e DataExpr) -> &'e DataExpr {
        let mut e = e;
        while let DataExpr::App { head, args } = e {
            match &**head {
                DataExpr::Func(f) if args.len() == 1 && is_upcast(&f.name) => e = &args[0],
                _ => break,
            }
        }
        e
    }

    /// The priority of `e`'s outermost construct as printed.
    fn data_prec(e: &DataExpr) -> u8 {
        match Self::strip(e) {
            DataExpr::App { head, args } => match &**head {
                DataExpr::Func(f) => match (args.len(), &*f.name) {
                    (1, "!" | "-" | "#") => D_PREFIX,
                    (2, op) if data_infix(op).is_some() => data_infix(op).expect("infix").0,
                    _ => D_POSTFIX,
                },
                _ => D_POSTFIX,
            },
            DataExpr::Binder {
                kind: Binder::Lambda | Binder::Forall | Binder::Exists,
                ..
            } => D_BINDER,
            DataExpr::Whr { .. } => D_WHR,
            _ => D_ATOM,
        }
    }

    /// Prints `e` where an expression of priority at least `ctx` may stand unbracketed.
    fn data(&self, e: &DataExpr, ctx: u8, out: &mut String) {
        let e = Self::strip(e);
        let p = Self::data_prec(e);
        let paren = p < ctx;
        if paren {
            out.push('(');
        }
        match e {
            DataExpr::Var(v) => out.push_str(&v.name),
            DataExpr::Func(f) => out.push_str(&f.name),
            DataExpr::Number { value, .. } => {
                let _ = write!(out, "{value}");
            }
            DataExpr::App { head, args } => self.app(head, args, out),
            DataExpr::Binder { kind, vars, body } => match kind {
                Binder::SetComprehension | Binder::BagComprehension => {
                    out.push_str("{ ");
                    self.var_list(vars, out);
                    out.push_str(" | ");
                    self.data(body, 0, out);
                    out.push_str(" }");
                }
                _ => {
                    out.push_str(match kind {
                        Binder::Lambda => "lambda ",
                        Binder::Forall => "forall ",
                        _ => "exists ",
                    });
                    self.var_list(vars, out);
                    out.push_str(". ");
                    self.data(body, D_BINDER, out);
                }
            },
            DataExpr::Whr { body, defs } => {
                self.data(body, D_WHR, out);
                out.push_str(" whr ");
                for (i, (v, x)) in defs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&v.name);
                    out.push_str(" = ");
                    self.data(x, 0, out);
                }
                out.push_str(" end");
            }
            DataExpr::ListEnum { elems, .. } => {
                out.push('[');
                self.data_list(elems, out);
                out.push(']');
            }
            DataExpr::SetEnum { elems, .. } => {
                out.push('{');
                self.data_list(elems, out);
                out.push('}');
            }
            DataExpr::BagEnum { elems, .. } => {
                if elems.is_empty() {
                    out.push_str("{:}");
                } else {
                    out.push('{');
                    for (i, (x, n)) in elems.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        self.data(x, 0, out);
                        out.push_str(": ");
                        self.data(n, 0, out);
                    }
                    out.push('}');
                }
            }
        }
        if paren {
            out.push(')');
        }
    }

    fn app(&self, head: &DataExpr, args: &[DataExpr], out: &mut String) {
        if let DataExpr::Func(Func { name, .. }) = head {
            match (args.len(), &**name) {
                (1, op @ ("!" | "-" | "#")) => {
                    out.push_str(op);
                    let start = out.len();
                    self.data(&args[0], D_PREFIX, out);
                    // `- -x`, not `--x`; `!` and `#` are fine either way, keep them uniform.
                    if out[start..].starts_with(['-', '!', '#']) {
                        out.insert(start, ' ');
                    }
                    return;
                }
                (2, op) => {
                    if let Some((p, assoc)) = data_infix(op) {
                        let (l, r) = sides(p, assoc);
                        self.data(&args[0], l, out);
                        out.push(' ');
                        out.push_str(op);
                        out.push(' ');
                        self.data(&args[1], r, out);
                        return;
                    }
                }
                (3, "@func_update") => {
                    self.data(&args[0], D_POSTFIX, out);
                    out.push('[');
                    self.data(&args[1], 0, out);
                    out.push_str(" -> ");
                    self.data(&args[2], 0, out);
                    out.push(']');
                    return;
                }
                _ => {}
            }
        }
        self.data(head, D_POSTFIX, out);
        out.push('(');
        self.data_list(args, out);
        out.push(')');
    }

    /// Whether `e` prints as a data *unit* (allowed before `->` in a process).
    fn is_unit(e: &DataExpr) -> bool {
        match Self::strip(e) {
            DataExpr::Var(_) | DataExpr::Func(_) | DataExpr::Number { .. } => true,
            DataExpr::App { head, args } => match &**head {
                DataExpr::Func(f) => match (args.len(), &*f.name) {
                    (1, "!" | "-" | "#") => Self::is_unit(&args[0]),
                    (2, op) if data_infix(op).is_some() => false,
                    (3, "@func_update") => false,
                    _ => true,
                },
                h => Self::is_unit(h),
            },
            _ => false,
        }
    }

    // ----- processes -----

    fn action(&self, a: &Action, out: &mut String) {
        out.push_str(&a.name);
        if !a.args.is_empty() {
            out.push('(');
            self.data_list(&a.args, out);
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
                    self.data_list(args, out);
                    out.push(')');
                }
            }
            ProcExpr::Sum { vars, body } => {
                out.push_str("sum ");
                self.var_list(vars, out);
                out.push_str(". ");
                self.proc(body, P_SUM, out);
            }
            ProcExpr::Choice(a, b) => bin(a, " + ", b, P_CHOICE, Assoc::Left, out),
            ProcExpr::Seq(a, b) => bin(a, " . ", b, P_SEQ, Assoc::Left, out),
            ProcExpr::Sync(a, b) => bin(a, " | ", b, P_SYNC, Assoc::Left, out),
            ProcExpr::Par(a, b) => bin(a, " || ", b, P_PAR, Assoc::Right, out),
            ProcExpr::LeftMerge(a, b) => bin(a, " ||_ ", b, P_LEFTMERGE, Assoc::Right, out),
            ProcExpr::If { cond, then, else_ } => {
                if Self::is_unit(cond) {
                    self.data(cond, 0, out);
                } else {
                    out.push('(');
                    self.data(cond, 0, out);
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
                self.sort(&v.sort, out);
                out.push_str(" = ");
                self.data(e, 0, out);
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
                self.var_list(vs, out);
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
                    self.data_list(args, out);
                    out.push(')');
                }
            }
            StateFormula::Val(d) => {
                out.push_str("val(");
                self.data(d, 0, out);
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
                self.var_list(vs, out);
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
                self.data(d, 0, out);
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
            self.data_list(&v.args, out);
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
                    self.data(d, 0, out);
                } else {
                    out.push_str("val(");
                    self.data(d, 0, out);
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
                self.var_list(vs, out);
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
