//! The names mCRL2 reserves, checked wherever a name is declared: a variable (process
//! parameter, sum or global variable, equation variable, formula or PBES parameter) may not
//! be named like a function — built-in or declared — and a declared function (map,
//! constructor, projection, recogniser) may not reuse a built-in function's name. mCRL2
//! 202607.0 rejects both ("The variable round:Nat clashes with the system defined function
//! round:Real -> Int", "Attempt to redeclare a system function with a projection pred"), so
//! muon does too, for every variable declaration, binders inside data expressions (`forall`,
//! `lambda`, `whr`, set comprehensions) included.

use super::builtins;
use super::ir::{DataSpec, SortDef};
use super::print::sort_to_string;
use super::typecheck::Checker;
use crate::syntax::ast;

/// The built-in function named `name`, printed with one of its signatures
/// (`round: Real -> Int`), if `name` is reserved by mCRL2.
pub fn builtin_named(name: &str) -> Option<String> {
    builtins::signatures(name).next().map(|sig| sig.to_string())
}

/// The declared function named `name` in `data` (map, constructor, projection or
/// recogniser), described for a message (`the projection fset: Payload -> Set(NodeID)`).
pub fn user_function_named(data: &DataSpec, name: &str) -> Option<String> {
    for (kind, decls) in [("constructor", &data.constructors), ("map", &data.mappings)] {
        if let Some(d) = decls.iter().find(|d| &*d.func.name == name) {
            return Some(format!(
                "the {kind} {name}: {}",
                sort_to_string(&d.func.sort)
            ));
        }
    }
    for s in &data.sorts {
        let SortDef::Struct(conss) = &s.def else {
            continue;
        };
        for c in conss {
            if &*c.name == name {
                return Some(format!("the constructor {name} of sort {}", s.name));
            }
            if c.recogniser.as_deref() == Some(name) {
                return Some(format!("the recogniser {name}: {} -> Bool", s.name));
            }
            for f in &c.fields {
                if f.projection.as_deref() == Some(name) {
                    return Some(format!(
                        "the projection {name}: {} -> {}",
                        s.name,
                        sort_to_string(&f.sort)
                    ));
                }
            }
        }
    }
    None
}

/// Why a variable may not be called `name` in the scope of `data`, or `None` when it may.
pub fn variable_clash(data: &DataSpec, name: &str) -> Option<String> {
    if let Some(b) = builtin_named(name) {
        return Some(format!("the built-in function {b}"));
    }
    user_function_named(data, name)
}

/// Reports every declared variable named like a function: mCRL2 rejects those; the
/// declaration is still used, so checking goes on.
pub(crate) fn check_var_names(c: &mut Checker<'_>, decls: &[ast::VarDecl]) {
    for v in decls {
        check_var_name(c, &v.name);
    }
}

/// Reports a variable named like a function (see [`check_var_names`]).
pub(crate) fn check_var_name(c: &mut Checker<'_>, name: &ast::Ident) {
    if let Some(why) = variable_clash(&c.data, &name.name) {
        c.error(
            name.span,
            format!("the variable `{}` clashes with {why}", name.name),
            "named like a function",
            Some(
                "rename the variable: mCRL2 does not let a variable share a function's name".into(),
            ),
        );
    }
}
