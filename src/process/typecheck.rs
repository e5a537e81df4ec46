//! Type checking of mCRL2 specifications: data declarations, actions, process equations
//! and `init`, from the untyped AST to the typed [`ProcSpec`].

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::data::ir::{DataExpr, Name, Sort, Var};
use crate::data::typecheck::{did_you_mean, sorts_str, Checker, Diagnostics, Reported, Res};
use crate::process::ir::{
    Action, ActionDecl, CommRule, MultiActionName, ProcDecl, ProcExpr, ProcId, ProcSpec,
};
use crate::source::{SourceFile, Span};
use crate::syntax::{self, ast};

/// Parses and type-checks a specification.
pub fn check_specification(src: &SourceFile) -> Result<ProcSpec, Diagnostics> {
    let spec = syntax::parse_spec(src).map_err(|e| Diagnostics::from_syntax(src, e))?;
    check_spec_ast(src, &spec)
}

/// Type-checks a parsed specification.
pub fn check_spec_ast(src: &SourceFile, spec: &ast::Spec) -> Result<ProcSpec, Diagnostics> {
    let mut c = Checker::new(src);
    c.declare_data(&spec.decls);
    let actions = declare_actions(&mut c, &spec.decls);
    let mut globals = Vec::new();
    for d in &spec.decls {
        if let ast::Decl::Glob(v) = d {
            if let Ok(mut vs) = c.resolve_vars(std::slice::from_ref(v)) {
                if globals.iter().any(|g: &Var| g.name == v.name.name) {
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
    // Process headers first: bodies may call processes declared later.
    let mut procs: Vec<ProcDecl> = Vec::new();
    let mut bodies: Vec<(usize, &ast::ProcDecl)> = Vec::new();
    for d in &spec.decls {
        let ast::Decl::Proc(p) = d else { continue };
        let name = &p.name.name;
        if actions.names.contains_key(name) {
            c.error(
                p.name.span,
                format!("`{name}` is declared both as an action and as a process"),
                "process with an action's name",
                Some("rename the process or the action".into()),
            );
            continue;
        }
        let Ok(params) = c.resolve_vars(&p.params) else {
            c.broken.insert(name.clone());
            continue;
        };
        let mut seen = HashSet::new();
        for v in &p.params {
            if !seen.insert(&v.name.name) {
                c.error(
                    v.name.span,
                    format!("parameter `{}` is declared twice", v.name.name),
                    "declared again here",
                    None,
                );
            }
        }
        let sorts: Vec<Sort> = params.iter().map(|v| v.sort.clone()).collect();
        if procs
            .iter()
            .any(|q| q.name == *name && q.params.iter().map(|v| &v.sort).eq(sorts.iter()))
        {
            c.error(
                p.name.span,
                format!("process `{name}({})` is declared twice", sorts_str(&sorts)),
                "declared again here",
                None,
            );
            continue;
        }
        bodies.push((procs.len(), p));
        procs.push(ProcDecl {
            name: name.clone(),
            params,
            body: ProcExpr::Delta,
            span: p.span,
        });
    }
    let headers: Vec<(Name, Vec<Var>)> = procs
        .iter()
        .map(|p| (p.name.clone(), p.params.clone()))
        .collect();
    let mut pc = ProcChecker {
        c: &mut c,
        actions: &actions,
        procs: &headers,
    };
    for (i, p) in bodies {
        let d = pc.c.push_vars(&globals);
        pc.c.push_vars(&procs[i].params);
        let r = pc.check(&p.body);
        pc.c.pop_vars(d);
        if let Ok(b) = r {
            procs[i].body = b;
        }
    }
    let (init, init_span) = match spec.init() {
        Some(i) => {
            let d = pc.c.push_vars(&globals);
            let r = pc.check(&i.body);
            pc.c.pop_vars(d);
            (r.ok(), i.span)
        }
        None => {
            pc.c.error(
                spec.span,
                "the specification has no `init`",
                "no init",
                Some("add `init P;` naming the initial process".into()),
            );
            (None, spec.span)
        }
    };
    let data = std::mem::take(&mut c.data);
    let value = init.map(|init| ProcSpec {
        data,
        actions: actions.decls.clone(),
        globals,
        procs,
        init,
        init_span,
    });
    c.finish(value)
}

/// The declared actions: in order, and by name.
pub(crate) struct Actions {
    pub(crate) decls: Vec<ActionDecl>,
    pub(crate) names: HashMap<Name, Vec<Vec<Sort>>>,
}

impl Actions {
    /// Actions from already typed declarations.
    pub(crate) fn from_decls(decls: &[ActionDecl]) -> Actions {
        let mut a = Actions {
            decls: Vec::new(),
            names: HashMap::new(),
        };
        for d in decls {
            a.add(d.clone());
        }
        a
    }

    fn add(&mut self, d: ActionDecl) -> bool {
        let v = self.names.entry(d.name.clone()).or_default();
        if v.contains(&d.sorts) {
            return false;
        }
        v.push(d.sorts.clone());
        self.decls.push(d);
        true
    }

    /// Resolves an action occurrence `name(args)`.
    pub(crate) fn resolve(
        &self,
        c: &mut Checker<'_>,
        name: &ast::Ident,
        args: &[ast::DataExpr],
        span: Span,
    ) -> Res<Action> {
        let Some(sigs) = self.names.get(&name.name) else {
            if c.broken.contains(&name.name) {
                return Err(Reported);
            }
            let help = did_you_mean(&name.name, self.names.keys().map(|k| &**k));
            return Err(c.error(
                name.span,
                format!("unknown action `{}`", name.name),
                "not declared in an `act` section",
                help,
            ));
        };
        let (i, args) = c.resolve_overload("action", &name.name, sigs, args, span)?;
        Ok(Action {
            name: name.name.clone(),
            sorts: sigs[i].clone(),
            args,
        })
    }

    /// Checks that `id` names a declared action.
    pub(crate) fn known(&self, c: &mut Checker<'_>, id: &ast::Ident) -> Res<()> {
        if self.names.contains_key(&id.name) {
            return Ok(());
        }
        if c.broken.contains(&id.name) {
            return Err(Reported);
        }
        let help = did_you_mean(&id.name, self.names.keys().map(|k| &**k));
        Err(c.error(
            id.span,
            format!("unknown action `{}`", id.name),
            "not declared in an `act` section",
            help,
        ))
    }
}

/// Declares the `act` sections of `decls`.
pub(crate) fn declare_actions(c: &mut Checker<'_>, decls: &[ast::Decl]) -> Actions {
    let mut a = Actions {
        decls: Vec::new(),
        names: HashMap::new(),
    };
    for d in decls {
        let ast::Decl::Act(act) = d else { continue };
        let mut sorts = Vec::new();
        let mut bad = false;
        for s in &act.sorts {
            match c.resolve_sort(s) {
                Ok(s) => sorts.push(s),
                Err(_) => bad = true,
            }
        }
        if bad {
            c.broken.insert(act.name.name.clone());
            continue;
        }
        let decl = ActionDecl {
            name: act.name.name.clone(),
            sorts,
            span: act.span,
        };
        let msg = format!(
            "action `{}: {}` is declared twice",
            decl.name,
            sorts_str(&decl.sorts)
        );
        if !a.add(decl) {
            c.error(act.name.span, msg, "declared again here", None);
        }
    }
    a
}

struct ProcChecker<'a, 's> {
    c: &'a mut Checker<'s>,
    actions: &'a Actions,
    procs: &'a [(Name, Vec<Var>)],
}

impl ProcChecker<'_, '_> {
    fn check(&mut self, e: &ast::ProcExpr) -> Res<ProcExpr> {
        use ast::ProcExprKind as K;
        Ok(match &e.kind {
            K::Delta => ProcExpr::Delta,
            K::Tau => ProcExpr::Tau,
            K::Action { name, args } => {
                if self.actions.names.contains_key(&name.name) {
                    ProcExpr::Action(self.actions.resolve(self.c, name, args, e.span)?)
                } else if self.procs.iter().any(|(n, _)| *n == name.name) {
                    self.call(name, args, e.span)?
                } else if self.c.broken.contains(&name.name) {
                    return Err(Reported);
                } else {
                    let names = self
                        .actions
                        .names
                        .keys()
                        .map(|k| &**k)
                        .chain(self.procs.iter().map(|(n, _)| &**n));
                    let help = did_you_mean(&name.name, names);
                    return Err(self.c.error(
                        name.span,
                        format!("unknown action or process `{}`", name.name),
                        "not declared",
                        help,
                    ));
                }
            }
            K::AssignCall { name, assignments } => self.assign_call(name, assignments, e.span)?,
            K::Sum { vars, body } => {
                let vars = self.c.binder_vars(vars)?;
                let d = self.c.push_vars(&vars);
                let b = self.check(body);
                self.c.pop_vars(d);
                ProcExpr::Sum {
                    vars,
                    body: Arc::new(b?),
                }
            }
            K::Choice(p, q) => {
                let (p, q) = self.two(p, q)?;
                ProcExpr::Choice(p, q)
            }
            K::Seq(p, q) => {
                let (p, q) = self.two(p, q)?;
                ProcExpr::Seq(p, q)
            }
            K::Sync(p, q) => {
                let (p, q) = self.two(p, q)?;
                ProcExpr::Sync(p, q)
            }
            K::Par(p, q) => {
                let (p, q) = self.two(p, q)?;
                ProcExpr::Par(p, q)
            }
            K::LeftMerge(p, q) => {
                let (p, q) = self.two(p, q)?;
                ProcExpr::LeftMerge(p, q)
            }
            K::Cond { cond, then, else_ } => {
                let c = self.c.check(cond, Some(&Sort::Bool));
                let t = self.check(then);
                let el = else_.as_ref().map(|x| self.check(x).map(Arc::new));
                ProcExpr::If {
                    cond: c?,
                    then: Arc::new(t?),
                    else_: el.transpose()?,
                }
            }
            K::Allow { set, body } => {
                let mut out = Vec::new();
                let mut bad = false;
                for m in set {
                    let mut names = Vec::new();
                    for id in &m.names {
                        if self.actions.known(self.c, id).is_err() {
                            bad = true;
                        }
                        names.push(id.name.clone());
                    }
                    names.sort();
                    let m = MultiActionName(names);
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
                let b = self.check(body);
                if bad {
                    return Err(Reported);
                }
                ProcExpr::Allow {
                    set: out,
                    body: Arc::new(b?),
                }
            }
            K::Block { set, body } | K::Hide { set, body } => {
                let mut bad = false;
                let mut names = Vec::new();
                for id in set {
                    if self.actions.known(self.c, id).is_err() {
                        bad = true;
                    }
                    if !names.contains(&id.name) {
                        names.push(id.name.clone());
                    }
                }
                let b = self.check(body);
                if bad {
                    return Err(Reported);
                }
                let body = Arc::new(b?);
                if matches!(e.kind, K::Block { .. }) {
                    ProcExpr::Block { set: names, body }
                } else {
                    ProcExpr::Hide { set: names, body }
                }
            }
            K::Rename { rules, body } => {
                let mut bad = false;
                let mut map = Vec::new();
                let mut seen = HashSet::new();
                for r in rules {
                    let ok = self.actions.known(self.c, &r.from).is_ok()
                        & self.actions.known(self.c, &r.to).is_ok();
                    if !ok {
                        bad = true;
                        continue;
                    }
                    if !seen.insert(r.from.name.clone()) {
                        self.c.error(
                            r.from.span,
                            format!("action `{}` is renamed twice", r.from.name),
                            "renamed again here",
                            None,
                        );
                        bad = true;
                        continue;
                    }
                    let from = &self.actions.names[&r.from.name];
                    let to = &self.actions.names[&r.to.name];
                    if let Some(missing) = from.iter().find(|s| !to.contains(s)) {
                        self.c.error(
                            r.span,
                            format!(
                                "cannot rename `{}` to `{}`: `{}` has no declaration with {}",
                                r.from.name,
                                r.to.name,
                                r.to.name,
                                sorts_str(missing)
                            ),
                            "sorts differ",
                            Some(format!(
                                "declare `act {}: {};`",
                                r.to.name,
                                sorts_str(missing)
                            )),
                        );
                        bad = true;
                        continue;
                    }
                    map.push((r.from.name.clone(), r.to.name.clone()));
                }
                let b = self.check(body);
                if bad {
                    return Err(Reported);
                }
                ProcExpr::Rename {
                    map,
                    body: Arc::new(b?),
                }
            }
            K::Comm { rules, body } => {
                let mut bad = false;
                let mut out: Vec<CommRule> = Vec::new();
                for r in rules {
                    match self.comm_rule(r) {
                        Ok(rule) => {
                            if let Some(prev) = out.iter().find(|p| p.lhs == rule.lhs) {
                                if prev.rhs != rule.rhs {
                                    self.c.error(
                                        r.span,
                                        format!(
                                            "`{}` communicates twice with different results",
                                            rule.lhs.0.join("|")
                                        ),
                                        "second communication",
                                        None,
                                    );
                                    bad = true;
                                    continue;
                                }
                            }
                            // As mCRL2: an action synchronises in one way only.
                            if let Some((prev, name)) = out.iter().find_map(|p| {
                                p.lhs
                                    .0
                                    .iter()
                                    .find(|n| rule.lhs.0.contains(n))
                                    .map(|n| (p, n))
                            }) {
                                self.c.error(
                                    r.span,
                                    format!(
                                        "action `{name}` synchronises in two ways, in `{}` and in `{}`",
                                        prev.lhs.0.join("|"),
                                        rule.lhs.0.join("|")
                                    ),
                                    "second way",
                                    Some("mCRL2 allows each action in one communication only; rename one of the occurrences".into()),
                                );
                                bad = true;
                                continue;
                            }
                            out.push(rule);
                        }
                        Err(_) => bad = true,
                    }
                }
                let b = self.check(body);
                if bad {
                    return Err(Reported);
                }
                ProcExpr::Comm {
                    rules: out,
                    body: Arc::new(b?),
                }
            }
        })
    }

    fn two(&mut self, p: &ast::ProcExpr, q: &ast::ProcExpr) -> Res<(Arc<ProcExpr>, Arc<ProcExpr>)> {
        let p = self.check(p);
        let q = self.check(q);
        Ok((Arc::new(p?), Arc::new(q?)))
    }

    fn comm_rule(&mut self, r: &ast::CommRule) -> Res<CommRule> {
        let mut bad = false;
        for id in r.lhs.iter().chain(r.rhs.iter()) {
            if self.actions.known(self.c, id).is_err() {
                bad = true;
            }
        }
        if bad {
            return Err(Reported);
        }
        if r.lhs.len() < 2 {
            return Err(self.c.error(
                r.span,
                "a communication needs at least two actions on its left-hand side",
                "only one action",
                None,
            ));
        }
        // As mCRL2 (Groote/Mousavi 2014, p. 279, item 7): every sort signature of an action on
        // the left must be a signature of every action on the left and of the result, so
        // overloaded actions communicate only with actions overloaded the same way.
        let mut all: Vec<Vec<Sort>> = Vec::new();
        for id in &r.lhs {
            for s in &self.actions.names[&id.name] {
                if !all.contains(s) {
                    all.push(s.clone());
                }
            }
        }
        let lhs_text: Vec<&str> = r.lhs.iter().map(|i| &*i.name).collect();
        let missing = |have: &[Vec<Sort>]| -> Vec<String> {
            all.iter()
                .filter(|s| !have.contains(s))
                .map(|s| sorts_str(s))
                .collect()
        };
        for id in &r.lhs {
            let miss = missing(&self.actions.names[&id.name]);
            if !miss.is_empty() {
                return Err(self.c.error(
                    id.span,
                    format!(
                        "`{}` in `{}` lacks the sorts {} of another action on the left, so they cannot communicate",
                        id.name,
                        lhs_text.join(" | "),
                        miss.join(", ")
                    ),
                    "sorts differ",
                    Some("communicating actions must be declared with the same sort signatures; give the differently typed overloads their own names".into()),
                ));
            }
        }
        if let Some(rhs) = &r.rhs {
            let miss = missing(&self.actions.names[&rhs.name]);
            if !miss.is_empty() {
                return Err(self.c.error(
                    rhs.span,
                    format!(
                        "the result `{}` of `{}` lacks the sorts {} of an action on the left",
                        rhs.name,
                        lhs_text.join(" | "),
                        miss.join(", ")
                    ),
                    "sorts differ",
                    Some(format!(
                        "declare `{}` with every signature of the communicating actions, or give the differently typed overloads their own names",
                        rhs.name
                    )),
                ));
            }
        }
        let mut names: Vec<Name> = r.lhs.iter().map(|i| i.name.clone()).collect();
        names.sort();
        Ok(CommRule {
            lhs: MultiActionName(names),
            rhs: r.rhs.as_ref().map(|i| i.name.clone()),
        })
    }

    fn call(&mut self, name: &ast::Ident, args: &[ast::DataExpr], span: Span) -> Res<ProcExpr> {
        let ids: Vec<usize> = (0..self.procs.len())
            .filter(|&i| self.procs[i].0 == name.name)
            .collect();
        let sigs: Vec<Vec<Sort>> = ids
            .iter()
            .map(|&i| self.procs[i].1.iter().map(|v| v.sort.clone()).collect())
            .collect();
        let (k, args) = self
            .c
            .resolve_overload("process", &name.name, &sigs, args, span)?;
        Ok(ProcExpr::Call {
            proc: ProcId(ids[k] as u32),
            args,
        })
    }

    /// `P(x = e, …)` and `P()`: named arguments, the rest from same-named variables.
    fn assign_call(
        &mut self,
        name: &ast::Ident,
        assignments: &[ast::Assignment],
        span: Span,
    ) -> Res<ProcExpr> {
        let ids: Vec<usize> = (0..self.procs.len())
            .filter(|&i| self.procs[i].0 == name.name)
            .collect();
        if ids.is_empty() {
            if self.c.broken.contains(&name.name) {
                return Err(Reported);
            }
            let help = did_you_mean(&name.name, self.procs.iter().map(|(n, _)| &**n));
            return Err(self.c.error(
                name.span,
                format!("unknown process `{}`", name.name),
                "not declared in a `proc` section",
                help,
            ));
        }
        let mut seen = HashSet::new();
        for a in assignments {
            if !seen.insert(&a.name.name) {
                return Err(self.c.error(
                    a.name.span,
                    format!("parameter `{}` is assigned twice", a.name.name),
                    "assigned again here",
                    None,
                ));
            }
        }
        // Candidates: processes with every assigned parameter, whose values fit.
        let mut viable = Vec::new();
        for &i in &ids {
            let params = &self.procs[i].1;
            let mut ok = true;
            for a in assignments {
                match params.iter().find(|p| p.name == a.name.name) {
                    Some(p) => {
                        let s = p.sort.clone();
                        if !self.c.fits_sort(&a.value, &s)? {
                            ok = false;
                        }
                    }
                    None => ok = false,
                }
            }
            if ok {
                viable.push(i);
            }
        }
        let i = match viable.as_slice() {
            [i] => *i,
            [] => {
                let first = &self.procs[ids[0]].1;
                if let Some(a) = assignments
                    .iter()
                    .find(|a| !first.iter().any(|p| p.name == a.name.name))
                {
                    if ids.len() == 1 {
                        let help = did_you_mean(&a.name.name, first.iter().map(|p| &*p.name));
                        return Err(self.c.error(
                            a.name.span,
                            format!("process `{}` has no parameter `{}`", name.name, a.name.name),
                            "no such parameter",
                            help,
                        ));
                    }
                }
                return Err(self.c.error(
                    span,
                    format!(
                        "no declaration of process `{}` has parameters fitting these assignments",
                        name.name
                    ),
                    "no matching process",
                    None,
                ));
            }
            many => {
                let sigs: Vec<Vec<Sort>> = many
                    .iter()
                    .map(|&i| self.procs[i].1.iter().map(|v| v.sort.clone()).collect())
                    .collect();
                let best: Vec<usize> = (0..many.len())
                    .filter(|&a| {
                        (0..many.len()).all(|b| Checker::tuple_more_specific(&sigs[a], &sigs[b]))
                    })
                    .collect();
                match best.as_slice() {
                    [b] => many[*b],
                    _ => {
                        return Err(self.c.error(
                            span,
                            format!("ambiguous call of process `{}`", name.name),
                            "several declarations fit",
                            Some("assign more parameters to select one".into()),
                        ))
                    }
                }
            }
        };
        let params = self.procs[i].1.clone();
        let mut args = Vec::new();
        let mut bad = false;
        for p in &params {
            match assignments.iter().find(|a| a.name.name == p.name) {
                Some(a) => match self.c.check(&a.value, Some(&p.sort)) {
                    Ok(x) => args.push(x),
                    Err(_) => bad = true,
                },
                None => match self.c.lookup_var(&p.name) {
                    Some(v) if v.sort == p.sort => args.push(DataExpr::Var(v.clone())),
                    Some(v) => {
                        let msg = format!(
                            "parameter `{}` of `{}` is not assigned, and the variable `{}` in scope has sort {} instead of {}",
                            p.name,
                            name.name,
                            v.name,
                            crate::data::print::sort_to_string(&v.sort),
                            crate::data::print::sort_to_string(&p.sort)
                        );
                        self.c.error(
                            span,
                            msg,
                            "parameter not given",
                            Some(format!("assign it: `{} = …`", p.name)),
                        );
                        bad = true;
                    }
                    None => {
                        self.c.error(
                            span,
                            format!(
                                "parameter `{}` of `{}` is not assigned and no variable `{}` is in scope",
                                p.name, name.name, p.name
                            ),
                            "parameter not given",
                            Some(format!("assign it: `{}({} = …)`", name.name, p.name)),
                        );
                        bad = true;
                    }
                },
            }
        }
        if bad {
            return Err(Reported);
        }
        Ok(ProcExpr::Call {
            proc: ProcId(i as u32),
            args,
        })
    }
}
