//! Shared helpers for the LPS tests: building typed specifications in Rust and a tiny
//! reference explorer for small finite LPSs (Bool, Nat/Pos/Int, struct constants).

#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::Arc;

use muon::data::ir::{DataExpr, DataSpec, Func, Sort, Var};
use muon::data::ir_ops;
use muon::lps::{Lps, SummandAction};
use muon::process::ir::{
    Action, ActionDecl, CommRule, MultiActionName, ProcDecl, ProcExpr, ProcId, ProcSpec,
};
use muon::source::Span;

pub fn var(n: &str, s: Sort) -> Var {
    Var {
        name: n.into(),
        sort: s,
    }
}
pub fn v(n: &str, s: Sort) -> DataExpr {
    DataExpr::Var(var(n, s))
}
pub fn nat(k: u32) -> DataExpr {
    ir_ops::number(k, Sort::Nat)
}
pub fn act(n: &str, args: Vec<DataExpr>) -> ProcExpr {
    ProcExpr::Action(Action {
        name: n.into(),
        sorts: args.iter().map(|a| a.sort()).collect(),
        args,
    })
}
pub fn seq(a: ProcExpr, b: ProcExpr) -> ProcExpr {
    ProcExpr::Seq(Arc::new(a), Arc::new(b))
}
pub fn alt(a: ProcExpr, b: ProcExpr) -> ProcExpr {
    ProcExpr::Choice(Arc::new(a), Arc::new(b))
}
pub fn par(a: ProcExpr, b: ProcExpr) -> ProcExpr {
    ProcExpr::Par(Arc::new(a), Arc::new(b))
}
pub fn par_all(mut v: Vec<ProcExpr>) -> ProcExpr {
    let last = v.pop().unwrap();
    v.into_iter().rev().fold(last, |acc, x| par(x, acc))
}
pub fn call(p: u32, args: Vec<DataExpr>) -> ProcExpr {
    ProcExpr::Call {
        proc: ProcId(p),
        args,
    }
}
pub fn cond(c: DataExpr, p: ProcExpr) -> ProcExpr {
    ProcExpr::If {
        cond: c,
        then: Arc::new(p),
        else_: None,
    }
}
pub fn ite(c: DataExpr, p: ProcExpr, q: ProcExpr) -> ProcExpr {
    ProcExpr::If {
        cond: c,
        then: Arc::new(p),
        else_: Some(Arc::new(q)),
    }
}
pub fn sum(vars: Vec<Var>, p: ProcExpr) -> ProcExpr {
    ProcExpr::Sum {
        vars,
        body: Arc::new(p),
    }
}
pub fn mset(names: &[&str]) -> MultiActionName {
    let mut v: Vec<muon::source::Name> = names.iter().map(|n| (*n).into()).collect();
    v.sort();
    MultiActionName(v)
}
pub fn allow(sets: &[&[&str]], p: ProcExpr) -> ProcExpr {
    ProcExpr::Allow {
        set: sets.iter().map(|s| mset(s)).collect(),
        body: Arc::new(p),
    }
}
pub fn comm(rules: &[(&[&str], Option<&str>)], p: ProcExpr) -> ProcExpr {
    ProcExpr::Comm {
        rules: rules
            .iter()
            .map(|(l, r)| CommRule {
                lhs: mset(l),
                rhs: r.map(|x| x.into()),
            })
            .collect(),
        body: Arc::new(p),
    }
}
pub fn hide(names: &[&str], p: ProcExpr) -> ProcExpr {
    ProcExpr::Hide {
        set: names.iter().map(|n| (*n).into()).collect(),
        body: Arc::new(p),
    }
}
pub fn block(names: &[&str], p: ProcExpr) -> ProcExpr {
    ProcExpr::Block {
        set: names.iter().map(|n| (*n).into()).collect(),
        body: Arc::new(p),
    }
}
pub fn rename(map: &[(&str, &str)], p: ProcExpr) -> ProcExpr {
    ProcExpr::Rename {
        map: map
            .iter()
            .map(|(a, b)| ((*a).into(), (*b).into()))
            .collect(),
        body: Arc::new(p),
    }
}
pub fn app(n: &str, args: Vec<DataExpr>, res: Sort) -> DataExpr {
    ir_ops::app(n, args, res)
}

/// A specification with the given actions (name, sorts), processes (name, params, body)
/// and init; span of process i is i..i+1 so errors can be located.
pub fn spec(
    data: DataSpec,
    actions: &[(&str, Vec<Sort>)],
    procs: Vec<(&str, Vec<Var>, ProcExpr)>,
    init: ProcExpr,
) -> ProcSpec {
    ProcSpec {
        data,
        actions: actions
            .iter()
            .map(|(n, s)| ActionDecl {
                name: (*n).into(),
                sorts: s.clone(),
                span: Span::default(),
            })
            .collect(),
        globals: vec![],
        procs: procs
            .into_iter()
            .enumerate()
            .map(|(i, (n, params, body))| ProcDecl {
                name: n.into(),
                params,
                body,
                span: Span::new(i * 10, i * 10 + 1),
            })
            .collect(),
        init,
        init_span: Span::new(1000, 1001),
    }
}

pub fn plain(names: &[&str]) -> Vec<(&'static str, Vec<Sort>)> {
    names
        .iter()
        .map(|n| (&*Box::leak(n.to_string().into_boxed_str()), vec![]))
        .collect()
}

// ----- a tiny evaluator and explorer ---------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Val {
    B(bool),
    I(i64),
    C(String),
    A(String, Vec<Val>),
}

fn eval(e: &DataExpr, env: &HashMap<String, Val>) -> Val {
    match e {
        DataExpr::Var(x) => env
            .get(&*x.name)
            .cloned()
            .unwrap_or_else(|| panic!("unbound {}", x.name)),
        DataExpr::Number { value, .. } => Val::I(value.try_into().unwrap()),
        DataExpr::Func(f) => match &*f.name {
            "true" => Val::B(true),
            "false" => Val::B(false),
            n => Val::C(n.to_string()),
        },
        DataExpr::App { head, args } => {
            let DataExpr::Func(Func { name, .. }) = &**head else {
                panic!("unsupported head")
            };
            let a: Vec<Val> = args.iter().map(|x| eval(x, env)).collect();
            let i = |k: usize| match &a[k] {
                Val::I(x) => *x,
                o => panic!("not a number {o:?}"),
            };
            let b = |k: usize| match &a[k] {
                Val::B(x) => *x,
                o => panic!("not a bool {o:?}"),
            };
            match &**name {
                "==" => Val::B(a[0] == a[1]),
                "!=" => Val::B(a[0] != a[1]),
                "<" => Val::B(i(0) < i(1)),
                "<=" => Val::B(i(0) <= i(1)),
                ">" => Val::B(i(0) > i(1)),
                ">=" => Val::B(i(0) >= i(1)),
                "+" => Val::I(i(0) + i(1)),
                "-" if a.len() == 2 => Val::I(i(0) - i(1)),
                "*" => Val::I(i(0) * i(1)),
                "mod" => Val::I(i(0) % i(1)),
                "&&" => Val::B(b(0) && b(1)),
                "||" => Val::B(b(0) || b(1)),
                "!" => Val::B(!b(0)),
                "if" => {
                    if b(0) {
                        a[1].clone()
                    } else {
                        a[2].clone()
                    }
                }
                // Anything else is taken as a free constructor (callers only explore
                // specifications without user mappings).
                n => Val::A(n.to_string(), a),
            }
        }
        other => panic!("unsupported expression {other:?}"),
    }
}

fn domain(s: &Sort, data: &DataSpec) -> Vec<Val> {
    match s {
        Sort::Bool => vec![Val::B(false), Val::B(true)],
        Sort::Named(_) => {
            let mut out = Vec::new();
            for f in data.constructors_of(s) {
                let mut partial: Vec<Vec<Val>> = vec![vec![]];
                for d in f.sort.domain() {
                    let dom = domain(d, data);
                    partial = partial
                        .into_iter()
                        .flat_map(|p| {
                            dom.iter().map(move |x| {
                                let mut q = p.clone();
                                q.push(x.clone());
                                q
                            })
                        })
                        .collect();
                }
                for args in partial {
                    out.push(if args.is_empty() {
                        Val::C(f.name.to_string())
                    } else {
                        Val::A(f.name.to_string(), args)
                    });
                }
            }
            out
        }
        // Small finite stand-in: tests only sum over Nat where the values stay below 4.
        Sort::Nat => (0..4).map(Val::I).collect(),
        other => panic!("cannot enumerate {other:?}"),
    }
}

/// (states, transitions) of the LTS of `lps`: states = distinct parameter vectors,
/// transitions = distinct (source, label, target).
pub fn explore(lps: &Lps) -> (usize, usize) {
    let empty = HashMap::new();
    let init: Vec<Val> = lps.init.iter().map(|e| eval(e, &empty)).collect();
    let mut index: HashMap<Vec<Val>, usize> = HashMap::new();
    index.insert(init.clone(), 0);
    let mut queue = VecDeque::from([init]);
    let mut trans: BTreeSet<(usize, String, usize)> = BTreeSet::new();
    while let Some(st) = queue.pop_front() {
        let src = index[&st];
        let mut env: HashMap<String, Val> = HashMap::new();
        for (p, x) in lps.params.iter().zip(&st) {
            env.insert(p.name.to_string(), x.clone());
        }
        for s in &lps.summands {
            // enumerate sum variables
            let mut envs = vec![env.clone()];
            for sv in &s.sum_vars {
                let mut next = Vec::new();
                for e in &envs {
                    for x in domain(&sv.sort, &lps.data) {
                        let mut e2 = e.clone();
                        e2.insert(sv.name.to_string(), x);
                        next.push(e2);
                    }
                }
                envs = next;
            }
            for e in envs {
                if eval(&s.condition, &e) != Val::B(true) {
                    continue;
                }
                let label = match &s.action {
                    SummandAction::Delta => continue,
                    SummandAction::Multi(acts) if acts.is_empty() => "tau".to_string(),
                    SummandAction::Multi(acts) => {
                        let mut ls: Vec<String> = acts
                            .iter()
                            .map(|a| {
                                let args: Vec<String> = a
                                    .args
                                    .iter()
                                    .map(|x| format!("{:?}", eval(x, &e)))
                                    .collect();
                                format!("{}({})", a.name, args.join(","))
                            })
                            .collect();
                        ls.sort();
                        ls.join("|")
                    }
                };
                let tgt: Vec<Val> = s.next.iter().map(|x| eval(x, &e)).collect();
                let n = index.len();
                let t = *index.entry(tgt.clone()).or_insert_with(|| {
                    queue.push_back(tgt.clone());
                    n
                });
                trans.insert((src, label, t));
            }
        }
    }
    (index.len(), trans.len())
}
