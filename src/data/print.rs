//! Printing sorts and data expressions in mCRL2 syntax: the one printer of the data
//! language, used for messages, LTS labels, state values and (through `crate::print`) every
//! specification muon writes. Expressions get the fewest parentheses mCRL2's priorities
//! allow and are formatted as mCRL2's own pretty printer formats values (`[1, 2]`, `{1: 3}`,
//! `-4`, `5 / 6`). The output re-parses to the same structure; after type checking it gives
//! the same IR, because what the printer leaves out — implicit upcasts (`Pos2Nat(e)` prints
//! as `e`) and sorts — is exactly what the type checker re-infers.

use std::fmt::Write as _;

use rustc_hash::FxHashMap;

use super::ir::{Binder, DataExpr, DataSpec, Func, Name, Sort, SortDef, StructCons, Var};

/// `Nat`, `List(Pos)`, `Nat # Bool -> Real`, …
pub fn sort_to_string(s: &Sort) -> String {
    let mut out = String::new();
    DataPrinter::default().sort(s, &mut out);
    out
}

/// A data expression in mCRL2 syntax.
pub fn data_expr_to_string(e: &DataExpr) -> String {
    let mut out = String::new();
    DataPrinter::default().expr(e, &mut out);
    out
}

/// The user part of a data specification: `sort`, `cons`, `map`, `var`/`eqn` sections.
pub fn data_spec_to_string(d: &DataSpec) -> String {
    let mut out = String::new();
    DataPrinter::for_data(d).data_spec(d, &mut out);
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

/// Associativity of an infix operator.
#[derive(Clone, Copy, PartialEq)]
pub enum Assoc {
    /// `a - b - c` is `(a - b) - c`.
    Left,
    /// `a => b => c` is `a => (b => c)`.
    Right,
}

/// Infix data operators: (priority, associativity).
pub fn data_infix(name: &str) -> Option<(u8, Assoc)> {
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
pub fn is_upcast(name: &str) -> bool {
    matches!(
        name,
        "Pos2Nat" | "Pos2Int" | "Nat2Int" | "Pos2Real" | "Nat2Real" | "Int2Real"
    )
}

/// Binary operators over one operand type: left/right operand contexts for priority `p`.
pub fn sides(p: u8, assoc: Assoc) -> (u8, u8) {
    match assoc {
        Assoc::Left => (p, p + 1),
        Assoc::Right => (p + 1, p),
    }
}

/// The printer of sorts and data expressions; `crate::print` builds the printers of the
/// other languages on it.
#[derive(Default)]
pub struct DataPrinter<'a> {
    /// Anonymous struct sorts (`@…` names) are printed inline as their definition.
    anon: FxHashMap<Name, &'a [StructCons]>,
}

impl<'a> DataPrinter<'a> {
    /// A printer for expressions over `d`: anonymous struct sorts (`@…` names, from
    /// `struct` written inline in a declaration) print inline as their definition.
    pub fn for_data(d: &'a DataSpec) -> DataPrinter<'a> {
        let mut anon = FxHashMap::default();
        for s in &d.sorts {
            if let SortDef::Struct(cs) = &s.def {
                if s.name.starts_with('@') {
                    anon.insert(s.name.clone(), cs.as_slice());
                }
            }
        }
        DataPrinter { anon }
    }

    /// A data expression where any expression may stand (no enclosing operator).
    pub fn expr(&self, e: &DataExpr, out: &mut String) {
        self.data(e, 0, out)
    }

    // ----- sorts -----

    /// A sort.
    pub fn sort(&self, s: &Sort, out: &mut String) {
        self.sort_prec(s, 0, out)
    }

    /// `ctx` 0: anything; 1: a domain component (arrows need parentheses).
    pub fn sort_prec(&self, s: &Sort, ctx: u8, out: &mut String) {
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
                out.push('?');
                out.push_str(r);
            }
        }
    }

    // ----- data -----

    /// The user part of a data specification: `sort`, `cons`, `map`, `var`/`eqn` sections.
    pub fn data_spec(&self, d: &DataSpec, out: &mut String) {
        let named: Vec<_> = d
            .sorts
            .iter()
            .filter(|s| !s.name.starts_with('@'))
            .collect();
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

    /// A `glob` section (nothing when there are no globals).
    pub fn globals(&self, globals: &[Var], out: &mut String) {
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

    /// `x: Nat, b: Bool`.
    pub fn var_list(&self, vars: &[Var], out: &mut String) {
        for (i, v) in vars.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&v.name);
            out.push_str(": ");
            self.sort(&v.sort, out);
        }
    }

    /// The variables of a quantifier or lambda as mCRL2 prints them: consecutive variables
    /// of one sort share it (`x,y: Nat, b: Bool`).
    pub fn binder_vars(&self, vars: &[Var], out: &mut String) {
        for (i, v) in vars.iter().enumerate() {
            if i > 0 {
                out.push_str(if vars[i - 1].sort == v.sort {
                    ","
                } else {
                    ", "
                });
            }
            out.push_str(&v.name);
            if vars.get(i + 1).is_none_or(|w| w.sort != v.sort) {
                out.push_str(": ");
                self.sort(&v.sort, out);
            }
        }
    }

    /// `e1, e2, …`.
    pub fn data_list(&self, es: &[DataExpr], out: &mut String) {
        for (i, e) in es.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.data(e, 0, out);
        }
    }

    /// Drops inserted upcasts: `Pos2Nat(e)` is written `e`.
    fn strip(e: &DataExpr) -> &DataExpr {
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
                    self.binder_vars(vars, out);
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
                    // `--x` and `!!b`, as mCRL2 prints them (both parse back).
                    out.push_str(op);
                    self.data(&args[0], D_PREFIX, out);
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
    pub fn is_unit(e: &DataExpr) -> bool {
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
}
