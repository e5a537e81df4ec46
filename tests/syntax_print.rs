//! Printing the typed IR: mCRL2's formatting of values, minimal parentheses, and round trips
//! through the parser (the printed text must parse back to the same structure).

use std::sync::Arc;

use muon::data::ir::{Binder, DataExpr, DataSpec, Equation, Func, FuncDecl, Sort, Var};
use muon::data::print::*;
use muon::modal::ir::{ActionFormula, FixpointVar, RegFormula, StateFormula};
use muon::pbes::ir::{Fixpoint, Pbes, PbesEquation, PbesExpr, PropVarDecl, PropVarInst};
use muon::print::*;
use muon::process::ir::{
    Action, ActionDecl, CommRule, MultiActionName, ProcDecl, ProcExpr, ProcId, ProcSpec,
};
use muon::source::{SourceFile, Span};
use muon::syntax::ast::{self, DataExprKind};
use muon::syntax::*;
use num_bigint::BigInt;
use proptest::prelude::*;

fn n(s: &str) -> Arc<str> {
    Arc::from(s)
}

fn var(x: &str, s: Sort) -> DataExpr {
    DataExpr::Var(Var {
        name: n(x),
        sort: s,
    })
}

fn num(v: i64, s: Sort) -> DataExpr {
    DataExpr::Number {
        value: BigInt::from(v),
        sort: s,
    }
}

fn func(name: &str, sort: Sort) -> DataExpr {
    DataExpr::Func(Func {
        name: n(name),
        sort,
    })
}

/// `name(args)`, the function's sort made up from the argument sorts.
fn app(name: &str, args: Vec<DataExpr>, result: Sort) -> DataExpr {
    let sort = Sort::Arrow(args.iter().map(|a| a.sort()).collect(), Box::new(result));
    DataExpr::App {
        head: Box::new(func(name, sort)),
        args,
    }
}

fn bin(op: &str, a: DataExpr, b: DataExpr) -> DataExpr {
    app(op, vec![a, b], Sort::Nat)
}

fn boolean(b: bool) -> DataExpr {
    func(if b { "true" } else { "false" }, Sort::Bool)
}

#[test]
fn values_print_as_mcrl2_prints_them() {
    let list = DataExpr::ListEnum {
        elems: vec![num(1, Sort::Pos), num(2, Sort::Pos), num(3, Sort::Pos)],
        sort: Sort::List(Box::new(Sort::Pos)),
    };
    assert_eq!(data_expr_to_string(&list), "[1, 2, 3]");
    let set = DataExpr::SetEnum {
        elems: vec![num(1, Sort::Pos), num(2, Sort::Pos)],
        sort: Sort::FSet(Box::new(Sort::Pos)),
    };
    assert_eq!(data_expr_to_string(&set), "{1, 2}");
    let bag = DataExpr::BagEnum {
        elems: vec![
            (num(1, Sort::Pos), num(3, Sort::Nat)),
            (num(3, Sort::Pos), num(1, Sort::Nat)),
        ],
        sort: Sort::FBag(Box::new(Sort::Pos)),
    };
    assert_eq!(data_expr_to_string(&bag), "{1: 3, 3: 1}");
    let empty_bag = DataExpr::BagEnum {
        elems: vec![],
        sort: Sort::FBag(Box::new(Sort::Pos)),
    };
    assert_eq!(data_expr_to_string(&empty_bag), "{:}");
    assert_eq!(
        data_expr_to_string(&app("-", vec![num(4, Sort::Pos)], Sort::Int)),
        "-4"
    );
    assert_eq!(
        data_expr_to_string(&app(
            "/",
            vec![num(5, Sort::Pos), num(6, Sort::Pos)],
            Sort::Real
        )),
        "5 / 6"
    );
    assert_eq!(data_expr_to_string(&boolean(true)), "true");
}

#[test]
fn upcasts_updates_and_if() {
    let x = var("x", Sort::Pos);
    let e = bin(
        "+",
        app("Pos2Nat", vec![x.clone()], Sort::Nat),
        var("y", Sort::Nat),
    );
    assert_eq!(data_expr_to_string(&e), "x + y");
    let f = var("f", Sort::Arrow(vec![Sort::Nat], Box::new(Sort::Bool)));
    let upd = app(
        "@func_update",
        vec![f, var("n", Sort::Nat), boolean(false)],
        Sort::Arrow(vec![Sort::Nat], Box::new(Sort::Bool)),
    );
    assert_eq!(data_expr_to_string(&upd), "f[n -> false]");
    let upd_app = DataExpr::App {
        head: Box::new(upd),
        args: vec![num(0, Sort::Nat)],
    };
    assert_eq!(data_expr_to_string(&upd_app), "f[n -> false](0)");
    let ite = app(
        "if",
        vec![var("c", Sort::Bool), num(1, Sort::Nat), num(2, Sort::Nat)],
        Sort::Nat,
    );
    assert_eq!(data_expr_to_string(&ite), "if(c, 1, 2)");
}

#[test]
fn minimal_parentheses() {
    let (x, y, z) = (
        var("x", Sort::Int),
        var("y", Sort::Int),
        var("z", Sort::Int),
    );
    assert_eq!(
        data_expr_to_string(&bin("-", bin("-", x.clone(), y.clone()), z.clone())),
        "x - y - z"
    );
    assert_eq!(
        data_expr_to_string(&bin("-", x.clone(), bin("-", y.clone(), z.clone()))),
        "x - (y - z)"
    );
    assert_eq!(
        data_expr_to_string(&bin("*", bin("+", x.clone(), y.clone()), z.clone())),
        "(x + y) * z"
    );
    let (a, b, c) = (
        var("a", Sort::Bool),
        var("b", Sort::Bool),
        var("c", Sort::Bool),
    );
    assert_eq!(
        data_expr_to_string(&bin("=>", a.clone(), bin("=>", b.clone(), c.clone()))),
        "a => b => c"
    );
    assert_eq!(
        data_expr_to_string(&bin("=>", bin("=>", a.clone(), b.clone()), c.clone())),
        "(a => b) => c"
    );
    assert_eq!(
        data_expr_to_string(&bin("&&", bin("||", a.clone(), b.clone()), c.clone())),
        "(a || b) && c"
    );
    assert_eq!(
        data_expr_to_string(&app(
            "-",
            vec![app("-", vec![x.clone()], Sort::Int)],
            Sort::Int
        )),
        // As mCRL2 prints it; both parse it back.
        "--x"
    );
    assert_eq!(
        data_expr_to_string(&app("!", vec![bin("&&", a.clone(), b.clone())], Sort::Bool)),
        "!(a && b)"
    );
    let fa = DataExpr::Binder {
        kind: Binder::Forall,
        vars: vec![Var {
            name: n("n"),
            sort: Sort::Nat,
        }],
        body: Box::new(bin("&&", a.clone(), b.clone())),
    };
    assert_eq!(data_expr_to_string(&fa), "forall n: Nat. a && b");
    assert_eq!(
        data_expr_to_string(&bin("&&", fa.clone(), c.clone())),
        "(forall n: Nat. a && b) && c"
    );
    let whr = DataExpr::Whr {
        body: Box::new(bin("+", x.clone(), y.clone())),
        defs: vec![(
            Var {
                name: n("y"),
                sort: Sort::Int,
            },
            num(1, Sort::Int),
        )],
    };
    assert_eq!(data_expr_to_string(&whr), "x + y whr y = 1 end");
    assert_eq!(
        data_expr_to_string(&bin("*", whr, z)),
        "(x + y whr y = 1 end) * z"
    );
    let compr = DataExpr::Binder {
        kind: Binder::SetComprehension,
        vars: vec![Var {
            name: n("m"),
            sort: Sort::Nat,
        }],
        body: Box::new(bin("<", var("m", Sort::Nat), num(3, Sort::Pos))),
    };
    assert_eq!(data_expr_to_string(&compr), "{ m: Nat | m < 3 }");
}

#[test]
fn sorts() {
    let s = Sort::Arrow(
        vec![
            Sort::Arrow(vec![Sort::Nat], Box::new(Sort::Bool)),
            Sort::List(Box::new(Sort::Named(n("D")))),
        ],
        Box::new(Sort::Arrow(vec![Sort::Int], Box::new(Sort::Real))),
    );
    assert_eq!(sort_to_string(&s), "(Nat -> Bool) # List(D) -> Int -> Real");
    assert_eq!(
        sort_to_string(&Sort::FBag(Box::new(Sort::Set(Box::new(Sort::Pos))))),
        "FBag(Set(Pos))"
    );
}

fn act(name: &str, args: Vec<DataExpr>) -> Action {
    Action {
        name: n(name),
        sorts: args.iter().map(|a| a.sort()).collect(),
        args,
    }
}

fn small_spec() -> ProcSpec {
    let nvar = Var {
        name: n("n"),
        sort: Sort::Nat,
    };
    let body = ProcExpr::Choice(
        Arc::new(ProcExpr::Sum {
            vars: vec![Var {
                name: n("m"),
                sort: Sort::Nat,
            }],
            body: Arc::new(ProcExpr::If {
                cond: bin("<", var("m", Sort::Nat), var("n", Sort::Nat)),
                then: Arc::new(ProcExpr::Seq(
                    Arc::new(ProcExpr::Action(act("a", vec![var("m", Sort::Nat)]))),
                    Arc::new(ProcExpr::Call {
                        proc: ProcId(0),
                        args: vec![var("m", Sort::Nat)],
                    }),
                )),
                else_: Some(Arc::new(ProcExpr::Delta)),
            }),
        }),
        Arc::new(ProcExpr::Seq(
            Arc::new(ProcExpr::Sync(
                Arc::new(ProcExpr::Action(act("b", vec![]))),
                Arc::new(ProcExpr::Action(act("c", vec![]))),
            )),
            Arc::new(ProcExpr::If {
                cond: var("flag", Sort::Bool),
                then: Arc::new(ProcExpr::Tau),
                else_: None,
            }),
        )),
    );
    let mut data = DataSpec::default();
    data.mappings.push(FuncDecl {
        func: Func {
            name: n("lim"),
            sort: Sort::Nat,
        },
        span: Span::default(),
    });
    data.equations.push(Equation {
        vars: vec![],
        condition: None,
        lhs: func("lim", Sort::Nat),
        rhs: num(3, Sort::Nat),
        span: Span::default(),
    });
    ProcSpec {
        data,
        actions: vec![
            ActionDecl {
                name: n("a"),
                sorts: vec![Sort::Nat],
                span: Span::default(),
            },
            ActionDecl {
                name: n("b"),
                sorts: vec![],
                span: Span::default(),
            },
            ActionDecl {
                name: n("c"),
                sorts: vec![],
                span: Span::default(),
            },
            ActionDecl {
                name: n("d"),
                sorts: vec![],
                span: Span::default(),
            },
        ],
        globals: vec![Var {
            name: n("flag"),
            sort: Sort::Bool,
        }],
        procs: vec![ProcDecl {
            name: n("P"),
            params: vec![nvar],
            body,
            span: Span::default(),
        }],
        init: ProcExpr::Allow {
            set: vec![MultiActionName(vec![n("a")]), MultiActionName(vec![n("d")])],
            body: Arc::new(ProcExpr::Comm {
                rules: vec![CommRule {
                    lhs: MultiActionName(vec![n("b"), n("c")]),
                    rhs: Some(n("d")),
                }],
                body: Arc::new(ProcExpr::Par(
                    Arc::new(ProcExpr::Call {
                        proc: ProcId(0),
                        args: vec![func("lim", Sort::Nat)],
                    }),
                    Arc::new(ProcExpr::Call {
                        proc: ProcId(0),
                        args: vec![num(0, Sort::Nat)],
                    }),
                )),
            }),
        },
        init_span: Span::default(),
    }
}

#[test]
fn processes_print_and_reparse() {
    let spec = small_spec();
    let body = &spec.procs[0].body;
    assert_eq!(
        proc_expr_to_string(body, &spec),
        "sum m: Nat. (m < n) -> a(m) . P(m) <> delta + b | c . (flag -> tau)"
    );
    let text = proc_spec_to_string(&spec);
    let ast = parse_spec(&SourceFile::new("printed", text.clone()))
        .unwrap_or_else(|e| panic!("{text}\n{}", e.message()));
    assert_eq!(ast.decls.len(), 1 + 1 + 4 + 1 + 1 + 1, "{text}");
    assert!(text.contains("comm({b|c -> d}, P(lim) || P(0))"), "{text}");
    assert!(text.contains("allow({a, d}, "), "{text}");
    assert_eq!(action_to_string(&act("a", vec![num(2, Sort::Nat)])), "a(2)");
}

#[test]
fn formulas_print_and_reparse() {
    let x = FixpointVar {
        name: n("X"),
        params: vec![(
            Var {
                name: n("k"),
                sort: Sort::Nat,
            },
            num(0, Sort::Nat),
        )],
    };
    let must = StateFormula::Must(
        RegFormula::Seq(
            Box::new(RegFormula::Star(Box::new(RegFormula::Action(
                ActionFormula::True,
            )))),
            Box::new(RegFormula::Action(ActionFormula::Or(
                Box::new(ActionFormula::MultiAction(vec![
                    act("a", vec![var("k", Sort::Nat)]),
                    act("b", vec![]),
                ])),
                Box::new(ActionFormula::Not(Box::new(ActionFormula::MultiAction(
                    vec![],
                )))),
            ))),
        ),
        Box::new(StateFormula::Var {
            name: n("X"),
            args: vec![bin("+", var("k", Sort::Nat), num(1, Sort::Pos))],
        }),
    );
    let f = StateFormula::Nu(
        x,
        Box::new(StateFormula::And(
            Box::new(must),
            Box::new(StateFormula::May(
                RegFormula::Plus(Box::new(RegFormula::Action(ActionFormula::MultiAction(
                    vec![act("c", vec![])],
                )))),
                Box::new(StateFormula::Val(bin(
                    "<",
                    var("k", Sort::Nat),
                    num(3, Sort::Pos),
                ))),
            )),
        )),
    );
    let text = state_formula_to_string(&f);
    assert_eq!(
        text,
        "nu X(k: Nat = 0). [true* . (a(k)|b || !tau)]X(k + 1) && <c+>val(k < 3)"
    );
    parse_formula_spec(&SourceFile::new("printed", text.clone()))
        .unwrap_or_else(|e| panic!("{text}: {}", e.message()));
}

#[test]
fn pbes_prints_and_reparses() {
    let nv = Var {
        name: n("n"),
        sort: Sort::Nat,
    };
    let p = Pbes {
        data: DataSpec::default(),
        globals: vec![],
        equations: vec![
            PbesEquation {
                fixpoint: Fixpoint::Nu,
                var: PropVarDecl {
                    name: n("X"),
                    params: vec![nv.clone()],
                },
                rhs: PbesExpr::And(
                    Box::new(PbesExpr::Data(bin(
                        "<",
                        var("n", Sort::Nat),
                        num(3, Sort::Pos),
                    ))),
                    Box::new(PbesExpr::Forall(
                        vec![Var {
                            name: n("m"),
                            sort: Sort::Nat,
                        }],
                        Box::new(PbesExpr::Or(
                            Box::new(PbesExpr::PropVar(PropVarInst {
                                name: n("Y"),
                                args: vec![var("m", Sort::Nat)],
                            })),
                            Box::new(PbesExpr::Data(app(
                                "even",
                                vec![var("m", Sort::Nat)],
                                Sort::Bool,
                            ))),
                        )),
                    )),
                ),
                span: Span::default(),
            },
            PbesEquation {
                fixpoint: Fixpoint::Mu,
                var: PropVarDecl {
                    name: n("Y"),
                    params: vec![nv],
                },
                rhs: PbesExpr::Not(Box::new(PbesExpr::PropVar(PropVarInst {
                    name: n("X"),
                    args: vec![num(0, Sort::Nat)],
                }))),
                span: Span::default(),
            },
        ],
        init: PropVarInst {
            name: n("X"),
            args: vec![num(0, Sort::Nat)],
        },
    };
    let text = pbes_to_string(&p);
    assert_eq!(
        text,
        "pbes\n  nu X(n: Nat) =\n    val(n < 3) && (forall m: Nat. Y(m) || even(m));\n  \
         mu Y(n: Nat) =\n    !X(0);\n\ninit X(0);\n"
    );
    let ast = parse_pbes(&SourceFile::new("printed", text.clone())).unwrap();
    assert_eq!(ast.equations.len(), 2);
}

// ----- round trips of random data expressions -----

/// Fully bracketed structure of an IR expression as the printer should render it.
fn ir_shape(e: &DataExpr) -> String {
    match e {
        DataExpr::Var(v) => v.name.to_string(),
        DataExpr::Func(f) => f.name.to_string(),
        DataExpr::Number { value, .. } => value.to_string(),
        DataExpr::App { head, args } => {
            if let DataExpr::Func(f) = &**head {
                match (args.len(), &*f.name) {
                    (1, "Pos2Nat" | "Nat2Int") => return ir_shape(&args[0]),
                    (1, op @ ("!" | "-" | "#")) => return format!("({op}{})", ir_shape(&args[0])),
                    (3, "@func_update") => {
                        return format!(
                            "{}[{} -> {}]",
                            ir_shape(&args[0]),
                            ir_shape(&args[1]),
                            ir_shape(&args[2])
                        )
                    }
                    (2, op) if OPS.contains(&op) => {
                        return format!("({} {op} {})", ir_shape(&args[0]), ir_shape(&args[1]))
                    }
                    _ => {}
                }
            }
            format!(
                "{}({})",
                ir_shape(head),
                args.iter().map(ir_shape).collect::<Vec<_>>().join(", ")
            )
        }
        DataExpr::Binder { kind, vars, body } => {
            format!("({kind:?} {} . {})", vars[0].name, ir_shape(body))
        }
        DataExpr::Whr { body, defs } => format!(
            "({} whr {} = {} end)",
            ir_shape(body),
            defs[0].0.name,
            ir_shape(&defs[0].1)
        ),
        DataExpr::ListEnum { elems, .. } => format!(
            "[{}]",
            elems.iter().map(ir_shape).collect::<Vec<_>>().join(", ")
        ),
        _ => unreachable!("not generated"),
    }
}

fn ast_shape(e: &ast::DataExpr) -> String {
    match &e.kind {
        DataExprKind::Id(x) | DataExprKind::Number(x) => x.to_string(),
        DataExprKind::True => "true".into(),
        DataExprKind::False => "false".into(),
        DataExprKind::App { head, args } => format!(
            "{}({})",
            ast_shape(head),
            args.iter().map(ast_shape).collect::<Vec<_>>().join(", ")
        ),
        DataExprKind::Unary { op, arg } => format!("({}{})", op.symbol(), ast_shape(arg)),
        DataExprKind::Binary { op, lhs, rhs } => {
            format!("({} {} {})", ast_shape(lhs), op.symbol(), ast_shape(rhs))
        }
        DataExprKind::Binder { kind, vars, body } => {
            let k = match kind {
                ast::BinderKind::Lambda => "Lambda",
                ast::BinderKind::Forall => "Forall",
                ast::BinderKind::Exists => "Exists",
            };
            format!("({k} {} . {})", vars[0].name.name, ast_shape(body))
        }
        DataExprKind::Whr { body, defs } => format!(
            "({} whr {} = {} end)",
            ast_shape(body),
            defs[0].name.name,
            ast_shape(&defs[0].value)
        ),
        DataExprKind::Update { func, arg, value } => format!(
            "{}[{} -> {}]",
            ast_shape(func),
            ast_shape(arg),
            ast_shape(value)
        ),
        DataExprKind::ListEnum(es) => format!(
            "[{}]",
            es.iter().map(ast_shape).collect::<Vec<_>>().join(", ")
        ),
        other => panic!("unexpected {other:?}"),
    }
}

const OPS: [&str; 20] = [
    "=>", "||", "&&", "==", "!=", "<", "<=", ">=", ">", "in", "|>", "<|", "++", "+", "-", "/",
    "div", "mod", "*", ".",
];

fn arb_data() -> impl Strategy<Value = DataExpr> {
    let leaf = prop_oneof![
        "[a-e]".prop_map(|x| var(&x, Sort::Nat)),
        (0i64..20).prop_map(|v| num(v, Sort::Nat)),
        Just(boolean(true)),
    ];
    leaf.prop_recursive(5, 40, 3, |inner| {
        prop_oneof![
            (0..OPS.len(), inner.clone(), inner.clone()).prop_map(|(i, a, b)| bin(OPS[i], a, b)),
            (0..3usize, inner.clone()).prop_map(|(i, a)| app(
                ["!", "-", "#"][i],
                vec![a],
                Sort::Int
            )),
            (inner.clone()).prop_map(|a| app("Pos2Nat", vec![a], Sort::Nat)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| app("f", vec![a, b], Sort::Nat)),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(a, b, c)| app(
                "@func_update",
                vec![a, b, c],
                Sort::Nat
            )),
            (0..3usize, inner.clone()).prop_map(|(k, b)| DataExpr::Binder {
                kind: [Binder::Lambda, Binder::Forall, Binder::Exists][k],
                vars: vec![Var {
                    name: n("v"),
                    sort: Sort::Nat
                }],
                body: Box::new(b),
            }),
            (inner.clone(), inner.clone()).prop_map(|(b, d)| DataExpr::Whr {
                body: Box::new(b),
                defs: vec![(
                    Var {
                        name: n("w"),
                        sort: Sort::Nat
                    },
                    d
                )],
            }),
            proptest::collection::vec(inner, 0..3).prop_map(|es| DataExpr::ListEnum {
                elems: es,
                sort: Sort::List(Box::new(Sort::Nat)),
            }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn printed_data_parses_back_to_the_same_structure(e in arb_data()) {
        let text = data_expr_to_string(&e);
        let parsed = parse_data_expr(&SourceFile::new("printed", text.clone()))
            .map_err(|err| TestCaseError::fail(format!("{text}: {}", err.message())))?;
        prop_assert_eq!(ast_shape(&parsed), ir_shape(&e), "printed: {}", text);
    }
}
