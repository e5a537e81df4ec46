//! Type checking of textual PBESs (`pbes … init X(…);`, as `txt2pbes` reads them).

use std::collections::HashMap;

use crate::data::ir::{Name, Sort, Var};
use crate::data::typecheck::{did_you_mean, sorts_str, Checker, Diagnostics, Reported, Res};
use crate::modal::typecheck::data_app;
use crate::pbes::ir::{Fixpoint, Pbes, PbesEquation, PbesExpr, PropVarDecl, PropVarInst};
use crate::source::{SourceFile, Span};
use crate::syntax::{self, ast};

/// Parses and type-checks a textual PBES.
pub fn check_pbes(src: &SourceFile) -> Result<Pbes, Diagnostics> {
    let p = syntax::parse_pbes(src).map_err(|e| Diagnostics::from_syntax(src, e))?;
    check_pbes_ast(src, &p)
}

/// Type-checks a parsed textual PBES.
pub fn check_pbes_ast(src: &SourceFile, p: &ast::PbesSpec) -> Result<Pbes, Diagnostics> {
    let mut c = Checker::new(src);
    c.declare_data(&p.decls);
    let mut globals: Vec<Var> = Vec::new();
    for d in &p.decls {
        if let ast::Decl::Glob(v) = d {
            if let Ok(mut vs) = c.resolve_vars(std::slice::from_ref(v)) {
                if globals.iter().any(|g| g.name == v.name.name) {
                    c.error(
                        v.name.span,
                        format!("global variable `{}` is declared twice", v.name.name),
                        "declared again here",
                        None,
                    );
                } else {
                    globals.append(&mut vs);
                }
            }
        }
    }
    // Declarations first: right-hand sides refer to variables defined later.
    let mut vars: HashMap<Name, Vec<Sort>> = HashMap::new();
    let mut decls: Vec<Option<PropVarDecl>> = Vec::new();
    for eq in &p.equations {
        let name = &eq.var.name.name;
        let params = match c.binder_vars(&eq.var.params) {
            Ok(v) => v,
            Err(_) => {
                decls.push(None);
                continue;
            }
        };
        if vars.contains_key(name) {
            c.error(
                eq.var.name.span,
                format!("propositional variable `{name}` is defined by two equations"),
                "defined again here",
                None,
            );
            decls.push(None);
            continue;
        }
        if c.is_data_name(name) {
            c.error(
                eq.var.name.span,
                format!(
                    "propositional variable `{name}` has the name of a data function or variable"
                ),
                "name clash",
                None,
            );
        }
        vars.insert(
            name.clone(),
            params.iter().map(|v| v.sort.clone()).collect(),
        );
        decls.push(Some(PropVarDecl {
            name: name.clone(),
            params,
        }));
    }
    let mut pc = PbesChecker {
        c: &mut c,
        vars: &vars,
    };
    let mut equations = Vec::new();
    for (eq, decl) in p.equations.iter().zip(decls) {
        let Some(decl) = decl else { continue };
        let d = pc.c.push_vars(&globals);
        pc.c.push_vars(&decl.params);
        let rhs = pc.expr(&eq.rhs);
        pc.c.pop_vars(d);
        if let Ok(rhs) = rhs {
            equations.push(PbesEquation {
                fixpoint: match eq.fixpoint {
                    ast::FixpointKind::Mu => Fixpoint::Mu,
                    ast::FixpointKind::Nu => Fixpoint::Nu,
                },
                var: decl,
                rhs,
                span: eq.span,
            });
        }
    }
    let d = pc.c.push_vars(&globals);
    let init = pc.inst(&p.init.name, &p.init.args, p.init.span, true);
    pc.c.pop_vars(d);
    let data = std::mem::take(&mut c.data);
    let value = init.ok().map(|init| Pbes {
        data,
        globals,
        equations,
        init,
    });
    c.finish(value)
}

struct PbesChecker<'a, 's> {
    c: &'a mut Checker<'s>,
    vars: &'a HashMap<Name, Vec<Sort>>,
}

impl PbesChecker<'_, '_> {
    fn expr(&mut self, e: &ast::PbesExpr) -> Res<PbesExpr> {
        use ast::PbesExprKind as K;
        Ok(match &e.kind {
            K::True => PbesExpr::True,
            K::False => PbesExpr::False,
            K::Val(d) => PbesExpr::Data(self.c.check(d, Some(&Sort::Bool))?),
            K::PropVar(inst) => {
                // A bound data variable is closer than the equations' propositional variables.
                let local = inst.args.is_empty() && self.c.lookup_var(&inst.name.name).is_some();
                if self.vars.contains_key(&inst.name.name) && !local {
                    PbesExpr::PropVar(self.inst(&inst.name, &inst.args, inst.span, false)?)
                } else if self.c.is_data_name(&inst.name.name) {
                    let d = data_app(&inst.name, &inst.args, inst.span);
                    let r = self.c.check(&d, Some(&Sort::Bool));
                    // The temporary node's address may be reused: forget what was learnt.
                    self.c.clear_cache();
                    PbesExpr::Data(r?)
                } else {
                    return Err(self.unknown(&inst.name));
                }
            }
            K::Not(a) => PbesExpr::Not(Box::new(self.expr(a)?)),
            K::And(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                PbesExpr::And(Box::new(a?), Box::new(b?))
            }
            K::Or(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                PbesExpr::Or(Box::new(a?), Box::new(b?))
            }
            K::Imp(a, b) => {
                let (a, b) = (self.expr(a), self.expr(b));
                PbesExpr::Imp(Box::new(a?), Box::new(b?))
            }
            K::Forall(vars, body) | K::Exists(vars, body) => {
                let vars = self.c.binder_vars(vars)?;
                let d = self.c.push_vars(&vars);
                let b = self.expr(body);
                self.c.pop_vars(d);
                let b = Box::new(b?);
                if matches!(e.kind, K::Forall(..)) {
                    PbesExpr::Forall(vars, b)
                } else {
                    PbesExpr::Exists(vars, b)
                }
            }
        })
    }

    fn unknown(&mut self, name: &ast::Ident) -> Reported {
        let help = did_you_mean(&name.name, self.vars.keys().map(|k| &**k));
        self.c.error(
            name.span,
            format!("unknown propositional variable `{}`", name.name),
            "not defined by an equation",
            help,
        )
    }

    fn inst(
        &mut self,
        name: &ast::Ident,
        args: &[ast::DataExpr],
        span: Span,
        is_init: bool,
    ) -> Res<PropVarInst> {
        let Some(sorts) = self.vars.get(&name.name) else {
            return Err(self.unknown(name));
        };
        if sorts.len() != args.len() {
            return Err(self.c.error(
                span,
                format!(
                    "`{}` has {} parameter{}, but {} argument{} given{}",
                    name.name,
                    sorts.len(),
                    if sorts.len() == 1 { "" } else { "s" },
                    args.len(),
                    if args.len() == 1 { " is" } else { "s are" },
                    if is_init { " in `init`" } else { "" }
                ),
                "wrong number of arguments",
                Some(format!("`{}` takes {}", name.name, sorts_str(sorts))),
            ));
        }
        let mut out = Vec::new();
        let mut bad = false;
        for (a, s) in args.iter().zip(sorts) {
            match self.c.check(a, Some(s)) {
                Ok(x) => out.push(x),
                Err(_) => bad = true,
            }
        }
        if bad {
            return Err(Reported);
        }
        Ok(PropVarInst {
            name: name.name.clone(),
            args: out,
        })
    }
}
