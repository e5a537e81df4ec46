//! Equations compiled ahead of use: when a specification is loaded, every (uncurried)
//! equation becomes a flat matching program over registers plus code trees for its
//! condition and right-hand side, with the head symbols' kinds resolved and variables
//! turned into register numbers.
//!
//! Why: the interpreter ([`Rewriter::try_rules_interp`]) matches patterns recursively,
//! looks variables up in the substitution by a linear search, binds them in an environment
//! with undo records, and then walks the right-hand side term through the store, asking for
//! every node its shape, closedness and the kind of its head. The compiled form does that
//! work once: matching is a straight-line program that loads the arguments of the matched
//! applications into registers (no recursion, no search; a non-linear variable is one
//! register comparison), the condition is only evaluated once the pattern matched, and the
//! right-hand side reads the registers directly (a right-hand-side subterm equal to a
//! matched application pattern is that register, not rebuilt). Which equations are tried
//! at all is narrowed first by the head symbol's switch (`switch.rs`). Only what the code
//! tree does not cover (binders, applications of non-symbol heads, variables the left-hand
//! side does not bind) is handed to the interpreter under the rule's bindings, so both
//! paths share one semantics. The interpreter stays the reference ([`Rewriter::set_compiled`]) and the
//! property tests in `tests/data_rewrite_compiled.rs` check that both agree.

use super::switch::Switch;
use super::*;

/// One instruction of a matching program; registers `0..arity` hold the arguments.
#[derive(Debug, Clone, Copy)]
pub(super) enum MatchOp {
    /// Register `reg` must hold `head(…)` with `len` arguments; they are loaded into the
    /// registers `dst..dst + len`.
    App {
        reg: u16,
        head: TermId,
        len: u16,
        dst: u16,
    },
    /// Register `reg` must hold exactly `term` (a closed normal form).
    Eq { reg: u16, term: TermId },
    /// Registers `reg` and `other` must be equal (a non-linear variable).
    Same { reg: u16, other: u16 },
}

/// A compiled right-hand side or condition.
#[derive(Debug)]
pub(super) enum Code {
    /// The value of a register: a matched normal form.
    Reg(u16),
    /// The value of an argument register that may hold an argument the strategy has not
    /// rewritten (bit `r` of the call's raw mask): rewritten here if so.
    RawReg(u16),
    /// A closed subterm, rewritten by the interpreter (its normal form is memoised there).
    Closed(TermId),
    /// A subterm the code tree does not cover, rewritten by the interpreter under the
    /// rule's bindings.
    Interp(TermId),
    /// `f(args…)` for a symbol `f` (not a lazy operator): arguments first, then `f`;
    /// the arguments in `delay` (bits) are passed as terms, not rewritten (see [`lazy`]).
    App {
        f: FuncId,
        head: TermId,
        args: Box<[Code]>,
        delay: u64,
        /// `f` is a user mapping with equations and none without arguments: the call goes
        /// straight to its equations, as [`Rewriter::apply_func`] would after looking up
        /// what `f` is (resolved here once, not at every call).
        user: bool,
        /// The source term (for the recursion-limit message).
        term: TermId,
    },
    /// `c(args…)` for a constructor `c` without equations: the application of the
    /// arguments' normal forms is the normal form (no built-in or equation to try).
    Ctor { head: TermId, args: Box<[Code]> },
    /// A built-in arithmetic operation or comparison (`words.rs`), computed on machine words
    /// when its operands are; `sort` is its result sort if that is `Pos`, `Nat` or `Int`.
    Word {
        op: Op,
        f: FuncId,
        head: TermId,
        args: Box<[Code]>,
        sort: Option<NumSort>,
    },
    /// `if`, `&&`, `||` or `=>`: condition / left operand first, then what is needed.
    Lazy {
        op: Op,
        head: TermId,
        args: Box<[Code]>,
    },
}

/// One compiled equation.
#[derive(Debug)]
pub(super) struct CompiledRule {
    /// The number of arguments of the left-hand side.
    arity: usize,
    prog: Box<[MatchOp]>,
    /// Registers used by the program (at least `arity`).
    regs: usize,
    /// The left-hand side's variables and their registers.
    pub(super) vars: Box<[(VarId, u16)]>,
    cond: Option<Code>,
    rhs: Code,
}

/// The compiled equations of a system: per head symbol ([`FuncId`]) and equation index,
/// `None` where the equation stays interpreted (curried left-hand sides, curried patterns).
#[derive(Debug, Default)]
pub(super) struct Compiled {
    pub(super) rules: Vec<Vec<Option<CompiledRule>>>,
    /// Per head symbol: the switch that selects the equations that can match (`switch.rs`).
    switches: Vec<Option<Switch>>,
}

/// The compiled form of a system without equations.
pub(super) static NO_RULES: Compiled = Compiled {
    rules: Vec::new(),
    switches: Vec::new(),
};

/// A matching program, the registers it uses, the variables' registers, and the registers
/// that hold an instance of an application pattern (the pattern as a term).
type MatchProgram = (Vec<MatchOp>, usize, Vec<(VarId, u16)>, Vec<(TermId, u16)>);

/// Compiles the patterns `pats` (registers `0..pats.len()`) into a matching program; `None`
/// when a pattern has a curried head.
fn compile_match(store: &TermStore, pats: &[Pat]) -> Option<MatchProgram> {
    struct Out {
        prog: Vec<MatchOp>,
        next: usize,
        vars: Vec<(VarId, u16)>,
        known: Vec<(TermId, u16)>,
    }
    /// Emits the tests of `p` on register `reg`; the pattern as a term.
    fn emit(store: &TermStore, p: &Pat, reg: u16, out: &mut Out) -> Option<TermId> {
        Some(match p {
            Pat::Var(v) => {
                match out.vars.iter().find(|(w, _)| w == v) {
                    Some(&(_, other)) => out.prog.push(MatchOp::Same { reg, other }),
                    None => out.vars.push((*v, reg)),
                }
                store.var(*v)
            }
            Pat::Term(t) => {
                out.prog.push(MatchOp::Eq { reg, term: *t });
                *t
            }
            Pat::App(h, ps) => {
                let dst = out.next;
                out.next += ps.len();
                out.prog.push(MatchOp::App {
                    reg,
                    head: *h,
                    len: u16::try_from(ps.len()).ok()?,
                    dst: u16::try_from(dst).ok()?,
                });
                let mut args = Vec::with_capacity(ps.len());
                for (j, q) in ps.iter().enumerate() {
                    args.push(emit(store, q, u16::try_from(dst + j).ok()?, out)?);
                }
                let t = store.app(*h, &args);
                out.known.push((t, reg));
                t
            }
            Pat::AppOf(..) => return None,
        })
    }
    let mut out = Out {
        prog: Vec::new(),
        next: pats.len(),
        vars: Vec::new(),
        known: Vec::new(),
    };
    for (i, p) in pats.iter().enumerate() {
        emit(store, p, u16::try_from(i).ok()?, &mut out)?;
    }
    u16::try_from(out.next).ok()?;
    Some((out.prog, out.next, out.vars, out.known))
}

/// Runs a matching program on the registers `regs` (the arguments loaded first).
fn run_match(store: &TermStore, prog: &[MatchOp], regs: &mut [TermId]) -> bool {
    for op in prog {
        match *op {
            MatchOp::App {
                reg,
                head,
                len,
                dst,
            } => match store.get(regs[reg as usize]) {
                Term::App(th, targs) if *th == head && targs.len() == len as usize => {
                    let d = dst as usize;
                    regs[d..d + targs.len()].copy_from_slice(targs);
                }
                _ => return false,
            },
            MatchOp::Eq { reg, term } => {
                if regs[reg as usize] != term {
                    return false;
                }
            }
            MatchOp::Same { reg, other } => {
                if regs[reg as usize] != regs[other as usize] {
                    return false;
                }
            }
        }
    }
    true
}

/// Where the arguments of a lazy operator come from: terms for the interpreter, or code
/// trees under a rule's registers. One implementation of the lazy operators serves both.
pub(super) trait LazyArgs {
    /// The normal form of argument `i`.
    fn eval_arg(&self, rw: &mut Rewriter<'_>, i: usize) -> Result<TermId, RewriteError>;
}

impl LazyArgs for [TermId] {
    fn eval_arg(&self, rw: &mut Rewriter<'_>, i: usize) -> Result<TermId, RewriteError> {
        rw.eval(self[i])
    }
}

/// Code-tree arguments with the register base, variables and raw mask of their rule.
struct CodeArgs<'c> {
    args: &'c [Code],
    base: usize,
    vars: &'c [(VarId, u16)],
    raw: u64,
}

impl LazyArgs for CodeArgs<'_> {
    fn eval_arg(&self, rw: &mut Rewriter<'_>, i: usize) -> Result<TermId, RewriteError> {
        rw.run(&self.args[i], self.base, self.vars, self.raw)
    }
}

impl<'s> Rewriter<'s> {
    /// Compiles the uncurried equations of the system (after `sys.rules` is complete).
    pub(super) fn compile_rules(&mut self) -> Compiled {
        let sys = self.sys.clone();
        let mut out = Compiled::default();
        for (f, rules) in sys.rules.iter().enumerate() {
            let lazy = self.strats.get(f).and_then(|l| l.as_deref());
            let mut per_head = Vec::with_capacity(rules.len());
            for (j, rule) in rules.iter().enumerate() {
                let raw = lazy.map_or(0, |l| l.raw_at[j]);
                per_head.push(if rule.curried {
                    None
                } else {
                    self.compile_rule_code(rule, raw)
                });
            }
            out.rules.push(per_head);
            out.switches.push(Switch::build(self.store, rules));
        }
        out
    }

    /// Compiles one equation; the argument registers in `raw` (bits) may hold arguments
    /// not rewritten yet when it is tried.
    fn compile_rule_code(&mut self, rule: &Rule, raw: u64) -> Option<CompiledRule> {
        let (prog, regs, vars, known) = compile_match(self.store, &rule.pats)?;
        let cond = rule.cond.map(|c| self.compile_code(c, &vars, &known, raw));
        let rhs = self.compile_code(rule.rhs, &vars, &known, raw);
        Some(CompiledRule {
            arity: rule.pats.len(),
            prog: prog.into(),
            regs,
            vars: vars.into(),
            cond,
            rhs,
        })
    }

    /// The code of `t` (a condition or right-hand side) under the registers of `vars`;
    /// a subterm equal to an application pattern of the left-hand side (`known`) is the
    /// register that matched it: a subterm of the normal-form arguments, so a normal form
    /// (`merge(x |> l, y |> m) = … merge(l, y |> m)` passes the matched `y |> m` on
    /// instead of rebuilding and re-interning it).
    fn compile_code(
        &mut self,
        t: TermId,
        vars: &[(VarId, u16)],
        known: &[(TermId, u16)],
        raw: u64,
    ) -> Code {
        let store = self.store;
        if store.is_closed(t) {
            return Code::Closed(t);
        }
        if let Some(&(_, r)) = known.iter().find(|(k, _)| *k == t) {
            return Code::Reg(r);
        }
        match store.get(t) {
            Term::Var(v) => match vars.iter().find(|(w, _)| w == v) {
                Some(&(_, r)) if r < 64 && raw & (1 << r) != 0 => Code::RawReg(r),
                Some(&(_, r)) => Code::Reg(r),
                None => Code::Interp(t),
            },
            Term::App(h, args) => {
                let Term::Func(f) = store.get(*h) else {
                    return Code::Interp(t);
                };
                let kind = self.kind(*f);
                let code: Box<[Code]> = args
                    .iter()
                    .map(|a| self.compile_code(*a, vars, known, raw))
                    .collect();
                match kind {
                    Kind::Op(op @ (Op::If | Op::And | Op::Or | Op::Imp))
                        if args.len() == if op == Op::If { 3 } else { 2 } =>
                    {
                        Code::Lazy {
                            op,
                            head: *h,
                            args: code,
                        }
                    }
                    Kind::Ctor(_) if !self.has_equations(*f) => Code::Ctor {
                        head: *h,
                        args: code,
                    },
                    Kind::Op(op) if words::is_word_op(op, &store.func_of(*f).sort) => Code::Word {
                        op,
                        f: *f,
                        head: *h,
                        args: code,
                        sort: NumSort::of(store.func_of(*f).sort.codomain()),
                    },
                    _ => {
                        // Arguments the strategy of `f` may leave alone are passed as terms,
                        // unless they are normal forms already or cheap and sure to finish.
                        let lazy = if kind == Kind::Map {
                            self.lazy_args(*f, args.len())
                        } else {
                            0
                        };
                        let mut delay = 0u64;
                        for (i, c) in code.iter().enumerate() {
                            if lazy & (1 << i) != 0
                                && !matches!(c, Code::Reg(_))
                                && !self.safe_term(args[i], vars, raw)
                            {
                                delay |= 1 << i;
                            }
                        }
                        Code::App {
                            f: *f,
                            head: *h,
                            args: code,
                            delay,
                            user: kind == Kind::Map
                                && self.has_equations(*f)
                                && !self.has_constant_rule(*f),
                            term: t,
                        }
                    }
                }
            }
            _ => Code::Interp(t),
        }
    }

    /// Chooses between the compiled equations (the default) and the interpreter, which is
    /// the reference implementation the compiled form is tested against.
    pub fn set_compiled(&mut self, on: bool) {
        self.use_compiled = on;
    }

    /// Applies the first equation of `f` that matches `args` (normal forms) and whose
    /// condition holds; its right-hand side's normal form.
    pub(super) fn try_rules(
        &mut self,
        f: FuncId,
        args: &[TermId],
        curried: bool,
    ) -> Result<Option<TermId>, RewriteError> {
        let code: &'s Compiled = self.code;
        let compiled = match code.rules.get(f.0 as usize) {
            Some(rs) if self.use_compiled && !curried && !rs.is_empty() => rs,
            _ => return self.try_rules_interp(f, args, curried, None, 0),
        };
        let selected = match code.switches.get(f.0 as usize) {
            Some(Some(sw)) => sw.select(self.store, args),
            _ => None,
        };
        match selected {
            Some(ks) => {
                for &k in ks {
                    let r = self.try_compiled_at(f, compiled, k as usize, args, curried)?;
                    if r.is_some() {
                        return Ok(r);
                    }
                }
            }
            None => {
                for k in 0..compiled.len() {
                    let r = self.try_compiled_at(f, compiled, k, args, curried)?;
                    if r.is_some() {
                        return Ok(r);
                    }
                }
            }
        }
        Ok(None)
    }

    /// Tries equation `k` of `f` (all arguments normal forms): compiled, or interpreted
    /// alone in its place in the order.
    #[inline]
    fn try_compiled_at(
        &mut self,
        f: FuncId,
        compiled: &'s [Option<CompiledRule>],
        k: usize,
        args: &[TermId],
        curried: bool,
    ) -> Result<Option<TermId>, RewriteError> {
        match &compiled[k] {
            Some(rule) => self.try_compiled(rule, args, 0),
            None => self.try_rules_interp(f, args, curried, Some(k), 0),
        }
    }

    /// Tries equation `k` (in the order tried) of `f` on `args`, the arguments in `raw`
    /// (bits) not rewritten yet.
    pub(super) fn try_rule_at(
        &mut self,
        f: FuncId,
        k: usize,
        args: &[TermId],
        raw: u64,
    ) -> Result<Option<TermId>, RewriteError> {
        let code: &'s Compiled = self.code;
        match code.rules.get(f.0 as usize).and_then(|rs| rs.get(k)) {
            Some(Some(rule)) if self.use_compiled => self.try_compiled(rule, args, raw),
            _ => self.try_rules_interp(f, args, false, Some(k), raw),
        }
    }

    /// Applies one compiled equation to `args` if it matches and its condition holds.
    #[inline]
    fn try_compiled(
        &mut self,
        rule: &'s CompiledRule,
        args: &[TermId],
        raw: u64,
    ) -> Result<Option<TermId>, RewriteError> {
        if rule.arity != args.len() {
            return Ok(None);
        }
        let store = self.store;
        let base = self.slots.len();
        self.slots.extend_from_slice(args);
        self.slots.resize(base + rule.regs, TermId(0));
        if !run_match(store, &rule.prog, &mut self.slots[base..]) {
            self.slots.truncate(base);
            return Ok(None);
        }
        if let Some(c) = &rule.cond {
            match self.run(c, base, &rule.vars, raw) {
                Ok(cv) if cv == store.true_term() => {}
                Ok(_) => {
                    self.slots.truncate(base);
                    return Ok(None);
                }
                Err(e) => {
                    self.slots.truncate(base);
                    return Err(e);
                }
            }
        }
        let r = self.run(&rule.rhs, base, &rule.vars, raw);
        self.slots.truncate(base);
        r.map(Some)
    }

    /// The normal form of a code tree under the registers from `base` on, of which the
    /// argument registers in `raw` (bits) hold arguments not rewritten yet.
    pub(super) fn run(
        &mut self,
        code: &Code,
        base: usize,
        vars: &[(VarId, u16)],
        raw: u64,
    ) -> Result<TermId, RewriteError> {
        match code {
            Code::Reg(r) => Ok(self.slots[base + *r as usize]),
            Code::RawReg(r) => {
                let x = self.slots[base + *r as usize];
                if raw & (1 << r) == 0 {
                    return Ok(x);
                }
                let nf = self.eval_raw(x)?;
                self.slots[base + *r as usize] = nf;
                Ok(nf)
            }
            // A closed subterm is rewritten once per context and marked: later runs read
            // the mark without entering the interpreter.
            Code::Closed(t) if self.is_known_nf(*t) => Ok(*t),
            Code::Closed(t) => self.eval(*t),
            Code::Interp(t) => {
                let mark = self.enter();
                for &(v, r) in vars {
                    let x = self.slots[base + r as usize];
                    self.bind_as(v, x, r < 64 && raw & (1 << r) != 0);
                }
                let res = self.eval(*t);
                self.leave(mark);
                res
            }
            Code::App {
                f,
                head,
                args,
                delay,
                user,
                term,
            } => {
                let probe = 0u8;
                let here = std::hint::black_box(&probe) as *const u8 as usize;
                if self.stack_base != 0 && here.abs_diff(self.stack_base) > self.max_stack {
                    return Err(self.too_deep(*term));
                }
                let mut buf = [TermId(0); 6];
                let mut heap = Vec::new();
                if *delay != 0 {
                    return self.run_delayed(*f, *head, args, *delay, *user, (base, vars, raw));
                }
                let nargs = self.run_args(args, (base, vars, raw), &mut buf, &mut heap)?;
                let r = if *user {
                    match self.try_rules(*f, nargs, false)? {
                        Some(r) => r,
                        None => self.store.app(*head, nargs),
                    }
                } else {
                    self.apply_func(*f, *head, nargs)?
                };
                self.note_nf(r);
                Ok(r)
            }
            Code::Ctor { head, args } => {
                let mut buf = [TermId(0); 6];
                let mut heap = Vec::new();
                let nargs = self.run_args(args, (base, vars, raw), &mut buf, &mut heap)?;
                let r = self.store.app(*head, nargs);
                self.note_nf(r);
                Ok(r)
            }
            Code::Word { .. } => {
                let w = self.run_word(code, base, vars, raw)?;
                Ok(self.word_term(w))
            }
            Code::Lazy { op, head, args } => {
                let args = CodeArgs {
                    args,
                    base,
                    vars,
                    raw,
                };
                let r = self.eval_lazy(*op, *head, &args)?;
                self.note_nf(r);
                Ok(r)
            }
        }
    }

    /// The normal forms of the code trees `args` (in `buf`, or `heap` if they do not fit).
    fn run_args<'b>(
        &mut self,
        args: &[Code],
        (base, vars, raw): (usize, &[(VarId, u16)], u64),
        buf: &'b mut [TermId; 6],
        heap: &'b mut Vec<TermId>,
    ) -> Result<&'b [TermId], RewriteError> {
        if args.len() <= buf.len() {
            for (i, a) in args.iter().enumerate() {
                // A matched normal form (the usual argument) is read without a call.
                buf[i] = match a {
                    Code::Reg(r) => self.slots[base + *r as usize],
                    Code::RawReg(r) if raw & (1 << r) == 0 => self.slots[base + *r as usize],
                    _ => self.run(a, base, vars, raw)?,
                };
            }
            Ok(&buf[..args.len()])
        } else {
            for a in args {
                let x = self.run(a, base, vars, raw)?;
                heap.push(x);
            }
            Ok(heap)
        }
    }
}
