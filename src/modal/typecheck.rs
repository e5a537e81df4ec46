//! Type checking of state formulas (`.mcf` files) against a typed specification: actions
//! and their data, quantifiers, fixpoint variables with parameters, `val`.

use crate::data::ir::{Sort, Var};
use crate::data::typecheck::{did_you_mean, sorts_str, Checker, Diagnostics, Reported, Res};
use crate::modal::ir::{ActionFormula, FixpointVar, FormulaSpec, RegFormula, StateFormula};
use crate::process::ir::ProcSpec;
use crate::process::typecheck::{declare_actions, Actions};
use crate::source::SourceFile;
use crate::syntax::{self, ast};

/// Parses and type-checks a formula file against `spec`.
pub fn check_formula(src: &SourceFile, spec: &ProcSpec) -> Result<FormulaSpec, Diagnostics> {
    let f = syntax::parse_formula_spec(src).map_err(|e| Diagnostics::from_syntax(src, e))?;
    check_formula_ast(src, &f, spec)
}

/// Type-checks a parsed formula file against `spec`.
pub fn check_formula_ast(
    src: &SourceFile,
    f: &ast::FormulaSpec,
    spec: &ProcSpec,
) -> Result<FormulaSpec, Diagnostics> {
    let mut c = Checker::with_data(src, &spec.data);
    c.declare_data(&f.decls);
    let extra = declare_actions(&mut c, &f.decls);
    let mut all = spec.actions.clone();
    all.extend(extra.decls.iter().cloned());
    let actions = Actions::from_decls(&all);
    let mut fc = FormulaChecker {
        c: &mut c,
        actions: &actions,
        fixpoints: Vec::new(),
    };
    let r = fc.state(&f.formula);
    let data = std::mem::take(&mut c.data);
    let value = r.ok().map(|formula| FormulaSpec { data, formula });
    c.finish(value)
}

struct FormulaChecker<'a, 's> {
    c: &'a mut Checker<'s>,
    actions: &'a Actions,
    /// Fixpoint variables in scope with their parameter sorts, innermost last.
    fixpoints: Vec<(crate::source::Name, Vec<Sort>)>,
}

impl FormulaChecker<'_, '_> {
    fn state(&mut self, f: &ast::StateFormula) -> Res<StateFormula> {
        use ast::StateFormulaKind as K;
        Ok(match &f.kind {
            K::True => StateFormula::True,
            K::False => StateFormula::False,
            K::Not(a) => StateFormula::Not(Box::new(self.state(a)?)),
            K::And(a, b) => {
                let (a, b) = (self.state(a), self.state(b));
                StateFormula::And(Box::new(a?), Box::new(b?))
            }
            K::Or(a, b) => {
                let (a, b) = (self.state(a), self.state(b));
                StateFormula::Or(Box::new(a?), Box::new(b?))
            }
            K::Imp(a, b) => {
                let (a, b) = (self.state(a), self.state(b));
                StateFormula::Imp(Box::new(a?), Box::new(b?))
            }
            K::Forall(vars, body) | K::Exists(vars, body) => {
                let vars = self.c.binder_vars(vars)?;
                let d = self.c.push_vars(&vars);
                let b = self.state(body);
                self.c.pop_vars(d);
                let b = Box::new(b?);
                if matches!(f.kind, K::Forall(..)) {
                    StateFormula::Forall(vars, b)
                } else {
                    StateFormula::Exists(vars, b)
                }
            }
            K::Must(r, body) | K::May(r, body) => {
                let r = self.reg(r);
                let b = self.state(body);
                let (r, b) = (r?, Box::new(b?));
                if matches!(f.kind, K::Must(..)) {
                    StateFormula::Must(r, b)
                } else {
                    StateFormula::May(r, b)
                }
            }
            K::Mu(decl, body) | K::Nu(decl, body) => {
                let mut params = Vec::new();
                let mut bad = false;
                for p in &decl.params {
                    let Ok(mut v) = self.c.resolve_vars(std::slice::from_ref(&p.var)) else {
                        bad = true;
                        continue;
                    };
                    let v: Var = v.remove(0);
                    match self.c.check(&p.init, Some(&v.sort)) {
                        Ok(init) => params.push((v, init)),
                        Err(_) => bad = true,
                    }
                }
                if bad {
                    return Err(Reported);
                }
                let vars: Vec<Var> = params.iter().map(|(v, _)| v.clone()).collect();
                self.fixpoints.push((
                    decl.name.name.clone(),
                    vars.iter().map(|v| v.sort.clone()).collect(),
                ));
                let d = self.c.push_vars(&vars);
                let b = self.state(body);
                self.c.pop_vars(d);
                self.fixpoints.pop();
                let fv = FixpointVar {
                    name: decl.name.name.clone(),
                    params,
                };
                if matches!(f.kind, K::Mu(..)) {
                    StateFormula::Mu(fv, Box::new(b?))
                } else {
                    StateFormula::Nu(fv, Box::new(b?))
                }
            }
            K::Var { name, args } => {
                if let Some((_, sorts)) = self
                    .fixpoints
                    .iter()
                    .rev()
                    .find(|(n, _)| *n == name.name)
                    .cloned()
                {
                    if sorts.len() != args.len() {
                        return Err(self.c.error(
                            f.span,
                            format!(
                                "fixpoint variable `{}` has {} parameter{}, but {} argument{} {} given",
                                name.name,
                                sorts.len(),
                                if sorts.len() == 1 { "" } else { "s" },
                                args.len(),
                                if args.len() == 1 { "" } else { "s" },
                                if args.len() == 1 { "is" } else { "are" }
                            ),
                            "wrong number of arguments",
                            Some(format!("`{}` takes {}", name.name, sorts_str(&sorts))),
                        ));
                    }
                    let mut out = Vec::new();
                    let mut bad = false;
                    for (a, s) in args.iter().zip(&sorts) {
                        match self.c.check(a, Some(s)) {
                            Ok(x) => out.push(x),
                            Err(_) => bad = true,
                        }
                    }
                    if bad {
                        return Err(Reported);
                    }
                    StateFormula::Var {
                        name: name.name.clone(),
                        args: out,
                    }
                } else if self.c.is_data_name(&name.name) {
                    let e = data_app(name, args, f.span);
                    let r = self.c.check(&e, Some(&Sort::Bool));
                    // The temporary node's address may be reused: forget what was learnt.
                    self.c.clear_cache();
                    StateFormula::Val(r?)
                } else {
                    let help = did_you_mean(&name.name, self.fixpoints.iter().map(|(n, _)| &**n));
                    return Err(self.c.error(
                        name.span,
                        format!("`{}` is not a bound fixpoint variable", name.name),
                        "unbound fixpoint variable",
                        help.or_else(|| {
                            Some(format!(
                                "bind it with `mu {0}. …` or `nu {0}. …` around this occurrence",
                                name.name
                            ))
                        }),
                    ));
                }
            }
            K::Val(d) => StateFormula::Val(self.c.check(d, Some(&Sort::Bool))?),
        })
    }

    fn reg(&mut self, r: &ast::RegFormula) -> Res<RegFormula> {
        use ast::RegFormulaKind as K;
        Ok(match &r.kind {
            K::Action(a) => RegFormula::Action(self.action(a)?),
            K::Nil => RegFormula::Nil,
            K::Seq(a, b) => {
                let (a, b) = (self.reg(a), self.reg(b));
                RegFormula::Seq(Box::new(a?), Box::new(b?))
            }
            K::Alt(a, b) => {
                let (a, b) = (self.reg(a), self.reg(b));
                RegFormula::Alt(Box::new(a?), Box::new(b?))
            }
            K::Star(a) => RegFormula::Star(Box::new(self.reg(a)?)),
            K::Plus(a) => RegFormula::Plus(Box::new(self.reg(a)?)),
        })
    }

    fn action(&mut self, a: &ast::ActionFormula) -> Res<ActionFormula> {
        use ast::ActionFormulaKind as K;
        Ok(match &a.kind {
            K::True => ActionFormula::True,
            K::False => ActionFormula::False,
            K::Not(x) => ActionFormula::Not(Box::new(self.action(x)?)),
            K::And(x, y) => {
                let (x, y) = (self.action(x), self.action(y));
                ActionFormula::And(Box::new(x?), Box::new(y?))
            }
            K::Or(x, y) => {
                let (x, y) = (self.action(x), self.action(y));
                ActionFormula::Or(Box::new(x?), Box::new(y?))
            }
            K::Imp(x, y) => {
                let (x, y) = (self.action(x), self.action(y));
                ActionFormula::Imp(Box::new(x?), Box::new(y?))
            }
            K::Forall(vars, body) | K::Exists(vars, body) => {
                let vars = self.c.binder_vars(vars)?;
                let d = self.c.push_vars(&vars);
                let b = self.action(body);
                self.c.pop_vars(d);
                let b = Box::new(b?);
                if matches!(a.kind, K::Forall(..)) {
                    ActionFormula::Forall(vars, b)
                } else {
                    ActionFormula::Exists(vars, b)
                }
            }
            K::MultiAction(occs) => {
                let mut out = Vec::new();
                let mut bad = false;
                for o in occs {
                    match self.actions.resolve(self.c, &o.name, &o.args, o.span) {
                        Ok(x) => out.push(x),
                        Err(_) => bad = true,
                    }
                }
                if bad {
                    return Err(Reported);
                }
                ActionFormula::MultiAction(out)
            }
            K::Val(d) => ActionFormula::Val(self.c.check(d, Some(&Sort::Bool))?),
        })
    }
}

/// The data expression `name` or `name(args)`, for names that turn out to be data.
pub(crate) fn data_app(
    name: &ast::Ident,
    args: &[ast::DataExpr],
    span: crate::source::Span,
) -> ast::DataExpr {
    let head = ast::DataExpr {
        kind: ast::DataExprKind::Id(name.name.clone()),
        span: name.span,
    };
    if args.is_empty() {
        head
    } else {
        ast::DataExpr {
            kind: ast::DataExprKind::App {
                head: Box::new(head),
                args: args.to_vec(),
            },
            span,
        }
    }
}
