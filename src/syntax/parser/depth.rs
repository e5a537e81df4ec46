//! Depth guards: nesting that would overflow the parser's stack is found by a pre-scan of the
//! text and a walk over the parse tree, and reported as an error at the deepest point.

use super::*;

// -------------------------------------------------------------------------------------------
// Depth guards
// -------------------------------------------------------------------------------------------

pub(super) fn prescan_depth(src: &SourceFile) -> R<()> {
    let bytes = src.text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_BRACKET_DEPTH {
                    return Err(too_deep(src, Span::new(i, i + 1)));
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    Ok(())
}

pub(super) fn too_deep(src: &SourceFile, span: Span) -> SyntaxError {
    SyntaxError::new(
        SyntaxErrorKind::TooDeep,
        src,
        span,
        format!(
            "expression nested too deeply (more than {MAX_BRACKET_DEPTH} brackets or \
             {MAX_AST_DEPTH} operators deep)"
        ),
        "nesting limit exceeded here",
    )
    .with_help("split the expression, e.g. introduce auxiliary mappings or processes")
}

pub(super) fn check_depth(src: &SourceFile, parsed: &Parsed) -> R<()> {
    let mut d = DepthCheck::default();
    match parsed {
        Parsed::Spec(s) => s.decls.iter().for_each(|x| d.decl(x, 0)),
        Parsed::Formula(f) => {
            f.decls.iter().for_each(|x| d.decl(x, 0));
            d.state(&f.formula, 0);
        }
        Parsed::Pbes(p) => {
            p.decls.iter().for_each(|x| d.decl(x, 0));
            for e in &p.equations {
                d.pbes(&e.rhs, 0);
            }
            p.init.args.iter().for_each(|a| d.data(a, 1));
        }
        Parsed::Data(e) => d.data(e, 0),
    }
    match d.deepest {
        Some(span) => Err(too_deep(src, span)),
        None => Ok(()),
    }
}

/// Finds the first node deeper than [`MAX_AST_DEPTH`].
#[derive(Default)]
pub(super) struct DepthCheck {
    deepest: Option<Span>,
}

impl DepthCheck {
    pub(super) fn over(&mut self, d: usize, span: Span) -> bool {
        if self.deepest.is_some() {
            return true;
        }
        if d > MAX_AST_DEPTH {
            self.deepest = Some(span);
            return true;
        }
        false
    }

    pub(super) fn decl(&mut self, x: &Decl, d: usize) {
        match x {
            Decl::Eqns(s) => {
                for e in &s.eqns {
                    if let Some(c) = &e.condition {
                        self.data(c, d + 1);
                    }
                    self.data(&e.lhs, d + 1);
                    self.data(&e.rhs, d + 1);
                }
            }
            Decl::Proc(p) => self.proc(&p.body, d + 1),
            Decl::Init(i) => self.proc(&i.body, d + 1),
            _ => {}
        }
    }

    pub(super) fn data(&mut self, e: &DataExpr, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            DataExprKind::Id(_)
            | DataExprKind::Number(_)
            | DataExprKind::True
            | DataExprKind::False => {}
            DataExprKind::App { head, args } => {
                self.data(head, d + 1);
                args.iter().for_each(|a| self.data(a, d + 1));
            }
            DataExprKind::Unary { arg, .. } => self.data(arg, d + 1),
            DataExprKind::Binary { lhs, rhs, .. } => {
                self.data(lhs, d + 1);
                self.data(rhs, d + 1);
            }
            DataExprKind::ListEnum(es) | DataExprKind::SetEnum(es) => {
                es.iter().for_each(|a| self.data(a, d + 1))
            }
            DataExprKind::BagEnum(es) => es.iter().for_each(|(a, b)| {
                self.data(a, d + 1);
                self.data(b, d + 1);
            }),
            DataExprKind::Comprehension { body, .. } | DataExprKind::Binder { body, .. } => {
                self.data(body, d + 1)
            }
            DataExprKind::Whr { body, defs } => {
                self.data(body, d + 1);
                defs.iter().for_each(|a| self.data(&a.value, d + 1));
            }
            DataExprKind::Update { func, arg, value } => {
                self.data(func, d + 1);
                self.data(arg, d + 1);
                self.data(value, d + 1);
            }
        }
    }

    pub(super) fn proc(&mut self, e: &ProcExpr, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            ProcExprKind::Action { args, .. } => args.iter().for_each(|a| self.data(a, d + 1)),
            ProcExprKind::AssignCall { assignments, .. } => {
                assignments.iter().for_each(|a| self.data(&a.value, d + 1))
            }
            ProcExprKind::Delta | ProcExprKind::Tau => {}
            ProcExprKind::Sum { body, .. }
            | ProcExprKind::Allow { body, .. }
            | ProcExprKind::Block { body, .. }
            | ProcExprKind::Hide { body, .. }
            | ProcExprKind::Rename { body, .. }
            | ProcExprKind::Comm { body, .. } => self.proc(body, d + 1),
            ProcExprKind::Choice(a, b)
            | ProcExprKind::Seq(a, b)
            | ProcExprKind::Sync(a, b)
            | ProcExprKind::Par(a, b)
            | ProcExprKind::LeftMerge(a, b) => {
                self.proc(a, d + 1);
                self.proc(b, d + 1);
            }
            ProcExprKind::Cond { cond, then, else_ } => {
                self.data(cond, d + 1);
                self.proc(then, d + 1);
                if let Some(e) = else_ {
                    self.proc(e, d + 1);
                }
            }
        }
    }

    pub(super) fn state(&mut self, e: &StateFormula, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            StateFormulaKind::True | StateFormulaKind::False => {}
            StateFormulaKind::Not(a)
            | StateFormulaKind::Forall(_, a)
            | StateFormulaKind::Exists(_, a) => self.state(a, d + 1),
            StateFormulaKind::And(a, b)
            | StateFormulaKind::Or(a, b)
            | StateFormulaKind::Imp(a, b) => {
                self.state(a, d + 1);
                self.state(b, d + 1);
            }
            StateFormulaKind::Must(r, a) | StateFormulaKind::May(r, a) => {
                self.reg(r, d + 1);
                self.state(a, d + 1);
            }
            StateFormulaKind::Mu(f, a) | StateFormulaKind::Nu(f, a) => {
                f.params.iter().for_each(|p| self.data(&p.init, d + 1));
                self.state(a, d + 1);
            }
            StateFormulaKind::Var { args, .. } => args.iter().for_each(|a| self.data(a, d + 1)),
            StateFormulaKind::Val(x) => self.data(x, d + 1),
        }
    }

    pub(super) fn reg(&mut self, e: &RegFormula, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            RegFormulaKind::Action(a) => self.act(a, d + 1),
            RegFormulaKind::Nil => {}
            RegFormulaKind::Seq(a, b) | RegFormulaKind::Alt(a, b) => {
                self.reg(a, d + 1);
                self.reg(b, d + 1);
            }
            RegFormulaKind::Star(a) | RegFormulaKind::Plus(a) => self.reg(a, d + 1),
        }
    }

    pub(super) fn act(&mut self, e: &ActionFormula, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            ActionFormulaKind::True | ActionFormulaKind::False => {}
            ActionFormulaKind::Not(a)
            | ActionFormulaKind::Forall(_, a)
            | ActionFormulaKind::Exists(_, a) => self.act(a, d + 1),
            ActionFormulaKind::And(a, b)
            | ActionFormulaKind::Or(a, b)
            | ActionFormulaKind::Imp(a, b) => {
                self.act(a, d + 1);
                self.act(b, d + 1);
            }
            ActionFormulaKind::MultiAction(acts) => acts
                .iter()
                .flat_map(|a| a.args.iter())
                .for_each(|a| self.data(a, d + 1)),
            ActionFormulaKind::Val(x) => self.data(x, d + 1),
        }
    }

    pub(super) fn pbes(&mut self, e: &PbesExpr, d: usize) {
        if self.over(d, e.span) {
            return;
        }
        match &e.kind {
            PbesExprKind::True | PbesExprKind::False => {}
            PbesExprKind::Val(x) => self.data(x, d + 1),
            PbesExprKind::PropVar(v) => v.args.iter().for_each(|a| self.data(a, d + 1)),
            PbesExprKind::Not(a) | PbesExprKind::Forall(_, a) | PbesExprKind::Exists(_, a) => {
                self.pbes(a, d + 1)
            }
            PbesExprKind::And(a, b) | PbesExprKind::Or(a, b) | PbesExprKind::Imp(a, b) => {
                self.pbes(a, d + 1);
                self.pbes(b, d + 1);
            }
        }
    }
}
