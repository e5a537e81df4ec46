//! Semantics of the data engine's built-in functions, user equations and the enumerator,
//! on IR expressions built directly (independent of the parser and type checker).

use muon::data::ir::Sort;
use muon::data::ir::{
    Binder, DataExpr, DataSpec, Equation, Func, FuncDecl, SortDecl, SortDef, StructCons,
    StructField, Var,
};
use muon::data::{rewrite_expr, EngineError, RewriteErrorKind, Rewriter};
use num_bigint::BigInt;

use Sort::{Bool, Int, Nat, Pos, Real};

fn arrow(d: &[Sort], c: Sort) -> Sort {
    Sort::Arrow(d.to_vec(), Box::new(c))
}
fn func(name: &str, sort: Sort) -> DataExpr {
    DataExpr::Func(Func {
        name: name.into(),
        sort,
    })
}
fn ap(name: &str, dom: &[Sort], cod: Sort, args: Vec<DataExpr>) -> DataExpr {
    DataExpr::App {
        head: Box::new(func(name, arrow(dom, cod))),
        args,
    }
}
fn n(v: i64, sort: Sort) -> DataExpr {
    if v < 0 {
        ap("-", &[Pos], sort.clone(), vec![n(-v, Pos)])
    } else {
        DataExpr::Number {
            value: BigInt::from(v),
            sort,
        }
    }
}
fn var(name: &str, sort: Sort) -> Var {
    Var {
        name: name.into(),
        sort,
    }
}
fn v(name: &str, sort: Sort) -> DataExpr {
    DataExpr::Var(var(name, sort))
}
fn t() -> DataExpr {
    func("true", Bool)
}
fn f() -> DataExpr {
    func("false", Bool)
}
fn bin(op: &str, a: DataExpr, b: DataExpr) -> DataExpr {
    let (sa, sb) = (a.sort(), b.sort());
    let cod = match op {
        "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||" | "=>" | "in" => Bool,
        "-" if matches!(sa, Pos | Nat) => Int,
        "/" => Real,
        "mod" => Nat,
        "div" => {
            if sa == Int {
                Int
            } else {
                Nat
            }
        }
        "." => match &sa {
            Sort::List(e) => (**e).clone(),
            _ => unreachable!(),
        },
        "|>" => sb.clone(),
        "count" => Nat,
        _ => {
            if sa == Real || sb == Real {
                Real
            } else if sa == Int || sb == Int {
                Int
            } else if sa == Nat || sb == Nat {
                Nat
            } else {
                sa.clone()
            }
        }
    };
    ap(op, &[sa, sb], cod, vec![a, b])
}
fn un(op: &str, a: DataExpr, cod: Sort) -> DataExpr {
    let s = a.sort();
    ap(op, &[s], cod, vec![a])
}
fn list(elems: Vec<DataExpr>, el: Sort) -> DataExpr {
    DataExpr::ListEnum {
        elems,
        sort: Sort::List(Box::new(el)),
    }
}
fn set(elems: Vec<DataExpr>, el: Sort) -> DataExpr {
    DataExpr::SetEnum {
        elems,
        sort: Sort::Set(Box::new(el)),
    }
}
fn fset(elems: Vec<DataExpr>, el: Sort) -> DataExpr {
    DataExpr::SetEnum {
        elems,
        sort: Sort::FSet(Box::new(el)),
    }
}
fn bag(elems: Vec<(DataExpr, i64)>, el: Sort) -> DataExpr {
    DataExpr::BagEnum {
        elems: elems.into_iter().map(|(e, c)| (e, n(c, Nat))).collect(),
        sort: Sort::Bag(Box::new(el)),
    }
}

/// A compact mCRL2-like rendering of IR expressions for assertions.
fn show(e: &DataExpr) -> String {
    let join = |v: &[DataExpr]| v.iter().map(show).collect::<Vec<_>>().join(", ");
    match e {
        DataExpr::Var(v) => v.name.to_string(),
        DataExpr::Func(f) => f.name.to_string(),
        DataExpr::Number { value, .. } => value.to_string(),
        DataExpr::App { head, args } => {
            let h = show(head);
            if args.len() == 2
                && !h.chars().next().unwrap().is_alphanumeric()
                && !h.starts_with('@')
            {
                format!("({} {} {})", show(&args[0]), h, show(&args[1]))
            } else if args.len() == 1 && h == "-" {
                format!("-{}", show(&args[0]))
            } else {
                format!("{}({})", h, join(args))
            }
        }
        DataExpr::ListEnum { elems, .. } => format!("[{}]", join(elems)),
        DataExpr::SetEnum { elems, .. } => format!("{{{}}}", join(elems)),
        DataExpr::BagEnum { elems, .. } => format!(
            "{{{}}}",
            elems
                .iter()
                .map(|(a, b)| format!("{}: {}", show(a), show(b)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        DataExpr::Binder { kind, vars, body } => {
            let vs = vars
                .iter()
                .map(|v| v.name.to_string())
                .collect::<Vec<_>>()
                .join(", ");
            match kind {
                Binder::Lambda => format!("lambda {vs}. {}", show(body)),
                Binder::Forall => format!("forall {vs}. {}", show(body)),
                Binder::Exists => format!("exists {vs}. {}", show(body)),
                _ => format!("{{ {vs} | {} }}", show(body)),
            }
        }
        DataExpr::Whr { .. } => "whr".into(),
    }
}

fn nf_in(spec: &DataSpec, e: DataExpr) -> String {
    show(&rewrite_expr(spec, &e).expect("rewrite"))
}
fn nf(e: DataExpr) -> String {
    nf_in(&DataSpec::default(), e)
}

#[test]
fn booleans() {
    assert_eq!(nf(bin("&&", t(), f())), "false");
    assert_eq!(nf(bin("||", f(), t())), "true");
    assert_eq!(nf(bin("=>", f(), f())), "true");
    assert_eq!(nf(un("!", t(), Bool)), "false");
    assert_eq!(nf(bin("==", t(), f())), "false");
    assert_eq!(nf(bin("!=", t(), f())), "true");
    assert_eq!(nf(bin("<", f(), t())), "true");
    let b = v("b", Bool);
    assert_eq!(nf(bin("&&", t(), b.clone())), "b");
    assert_eq!(nf(bin("||", b.clone(), f())), "b");
    assert_eq!(nf(bin("==", b.clone(), b.clone())), "true");
    assert_eq!(nf(bin("=>", b.clone(), f())), "!(b)");
    assert_eq!(nf(un("!", un("!", b.clone(), Bool), Bool)), "b");
    // Unit laws on open numbers, as in mCRL2's equations.
    let k = v("k", Nat);
    assert_eq!(nf(bin("+", k.clone(), n(0, Nat))), "k");
    assert_eq!(nf(bin("*", n(1, Nat), k.clone())), "k");
    assert_eq!(nf(bin("*", k.clone(), n(0, Nat))), "0");
    assert_eq!(nf(bin("+", k.clone(), n(1, Nat))), "(k + 1)");
    assert_eq!(
        nf(ap(
            "if",
            &[Bool, Nat, Nat],
            Nat,
            vec![b.clone(), n(1, Nat), n(1, Nat)]
        )),
        "1"
    );
    assert_eq!(
        nf(ap(
            "if",
            &[Bool, Nat, Nat],
            Nat,
            vec![t(), n(1, Nat), n(2, Nat)]
        )),
        "1"
    );
}

#[test]
fn integer_arithmetic() {
    assert_eq!(nf(bin("+", n(2, Pos), n(3, Nat))), "5");
    assert_eq!(nf(bin("-", n(2, Nat), n(5, Nat))), "-3");
    assert_eq!(nf(bin("*", n(-4, Int), n(5, Int))), "-20");
    // div and mod round towards negative infinity; mod is never negative.
    assert_eq!(nf(bin("div", n(-7, Int), n(2, Pos))), "-4");
    assert_eq!(nf(bin("mod", n(-7, Int), n(2, Pos))), "1");
    assert_eq!(nf(bin("div", n(7, Nat), n(2, Pos))), "3");
    assert_eq!(nf(bin("mod", n(7, Nat), n(3, Pos))), "1");
    assert_eq!(
        nf(ap("exp", &[Int, Nat], Int, vec![n(-2, Int), n(3, Nat)])),
        "-8"
    );
    assert_eq!(
        nf(ap("exp", &[Pos, Nat], Pos, vec![n(2, Pos), n(0, Nat)])),
        "1"
    );
    assert_eq!(
        nf(ap("min", &[Int, Int], Int, vec![n(-2, Int), n(3, Int)])),
        "-2"
    );
    assert_eq!(
        nf(ap("max", &[Nat, Nat], Nat, vec![n(2, Nat), n(3, Nat)])),
        "3"
    );
    assert_eq!(nf(un("abs", n(-5, Int), Nat)), "5");
    assert_eq!(nf(un("-", n(5, Pos), Int)), "-5");
    assert_eq!(nf(un("succ", n(0, Nat), Pos)), "1");
    assert_eq!(nf(un("pred", n(0, Nat), Int)), "-1");
    assert_eq!(nf(un("pred", n(1, Pos), Nat)), "0");
    assert_eq!(nf(bin("<", n(-1, Int), n(0, Int))), "true");
    assert_eq!(nf(bin(">=", n(3, Nat), n(4, Nat))), "false");
    assert_eq!(nf(bin("==", n(3, Nat), n(3, Nat))), "true");
}

#[test]
fn conversions_and_partial_functions() {
    assert_eq!(nf(un("Int2Nat", n(4, Int), Nat)), "4");
    assert_eq!(nf(un("Int2Nat", n(-4, Int), Nat)), "Int2Nat(-4)");
    assert_eq!(nf(un("Nat2Pos", n(0, Nat), Pos)), "Nat2Pos(0)");
    assert_eq!(nf(un("Int2Pos", n(3, Int), Pos)), "3");
    assert_eq!(nf(un("Pos2Nat", n(3, Pos), Nat)), "3");
    // x div 0 (the divisor is a stuck Nat2Pos(0)) stays unevaluated.
    let zero_pos = un("Nat2Pos", n(0, Nat), Pos);
    assert_eq!(nf(bin("div", n(3, Nat), zero_pos)), "div(3, Nat2Pos(0))");
    let empty = list(vec![], Nat);
    assert_eq!(nf(un("head", empty.clone(), Nat)), "head([])");
    assert_eq!(
        nf(un("tail", empty.clone(), Sort::List(Box::new(Nat)))),
        "tail([])"
    );
    // Past the end: mCRL2's equations leave the empty list and the index less its length.
    assert_eq!(
        nf(bin(".", list(vec![n(1, Nat)], Nat), n(1, Nat))),
        "([] . 0)"
    );
}

#[test]
fn big_numbers_do_not_wrap() {
    let big = n(i64::MAX, Nat);
    assert_eq!(
        nf(bin("+", big.clone(), big.clone())),
        "18446744073709551614"
    );
    assert_eq!(
        nf(bin("*", big.clone(), big.clone())),
        "85070591730234615847396907784232501249"
    );
    assert_eq!(
        nf(ap("exp", &[Nat, Nat], Nat, vec![n(2, Nat), n(100, Nat)])),
        "1267650600228229401496703205376"
    );
    let huge = ap("exp", &[Nat, Nat], Nat, vec![n(2, Nat), n(70, Nat)]);
    assert_eq!(nf(bin("-", huge.clone(), huge.clone())), "0");
    assert_eq!(nf(bin("div", huge, n(1 << 20, Pos))), "1125899906842624");
    assert_eq!(nf(un("-", n(i64::MAX, Int), Int)), "-9223372036854775807");
    let min = bin("-", un("-", n(i64::MAX, Int), Int), n(1, Int));
    assert_eq!(nf(un("abs", min, Nat)), "9223372036854775808");
}

#[test]
fn exact_reals() {
    let r = |a: i64, b: i64| bin("/", n(a, Int), n(b, Int));
    assert_eq!(nf(bin("+", r(1, 2), r(1, 3))), "(5 / 6)");
    assert_eq!(nf(bin("*", r(2, 3), r(3, 2))), "1");
    assert_eq!(nf(bin("-", r(1, 2), n(1, Real))), "(-1 / 2)");
    assert_eq!(nf(r(4, 2)), "2");
    assert_eq!(nf(r(1, 0)), "(1 / 0)");
    assert_eq!(nf(un("floor", r(-7, 2), Int)), "-4");
    assert_eq!(nf(un("ceil", r(-7, 2), Int)), "-3");
    assert_eq!(nf(un("round", r(7, 2), Int)), "4");
    assert_eq!(nf(un("Real2Int", r(6, 3), Int)), "2");
    assert_eq!(nf(un("Real2Int", r(7, 3), Int)), "Real2Int((7 / 3))");
    assert_eq!(nf(bin("<", r(1, 3), r(1, 2))), "true");
    assert_eq!(
        nf(ap("exp", &[Real, Int], Real, vec![r(2, 3), n(-2, Int)])),
        "(9 / 4)"
    );
    assert_eq!(nf(un("abs", r(-1, 3), Real)), "(1 / 3)");
}

#[test]
fn lists() {
    let l = |xs: &[i64]| list(xs.iter().map(|x| n(*x, Nat)).collect(), Nat);
    let ls = Sort::List(Box::new(Nat));
    assert_eq!(nf(bin("|>", n(0, Nat), l(&[1, 2]))), "[0, 1, 2]");
    assert_eq!(
        nf(ap(
            "<|",
            &[ls.clone(), Nat],
            ls.clone(),
            vec![l(&[1]), n(2, Nat)]
        )),
        "[1, 2]"
    );
    assert_eq!(
        nf(ap(
            "++",
            &[ls.clone(), ls.clone()],
            ls.clone(),
            vec![l(&[1]), l(&[2, 3])]
        )),
        "[1, 2, 3]"
    );
    assert_eq!(nf(bin(".", l(&[5, 6, 7]), n(2, Nat))), "7");
    assert_eq!(nf(un("#", l(&[5, 6, 7]), Nat)), "3");
    assert_eq!(nf(un("#", l(&[]), Nat)), "0");
    assert_eq!(nf(un("head", l(&[5, 6]), Nat)), "5");
    assert_eq!(nf(un("tail", l(&[5, 6]), ls.clone())), "[6]");
    assert_eq!(nf(un("rhead", l(&[5, 6]), Nat)), "6");
    assert_eq!(nf(un("rtail", l(&[5, 6]), ls.clone())), "[5]");
    assert_eq!(nf(bin("in", n(6, Nat), l(&[5, 6]))), "true");
    assert_eq!(nf(bin("in", n(7, Nat), l(&[5, 6]))), "false");
    assert_eq!(nf(bin("==", l(&[1, 2]), l(&[1, 2]))), "true");
    assert_eq!(nf(bin("==", l(&[1, 2]), l(&[1]))), "false");
    assert_eq!(nf(bin("<", l(&[1, 2]), l(&[1, 3]))), "true");
    assert_eq!(nf(bin("<", l(&[]), l(&[0]))), "true");
    assert_eq!(nf(bin("<=", l(&[1, 2]), l(&[1, 2]))), "true");
    assert_eq!(nf(bin("<", l(&[1, 2]), l(&[1]))), "false");
    // Lists of sets: element order is inclusion, so incomparable heads decide `false`.
    let ls_ = |xs: &[i64]| set(xs.iter().map(|x| n(*x, Nat)).collect(), Nat);
    let lset = |e: Vec<DataExpr>| list(e, Sort::Set(Box::new(Nat)));
    assert_eq!(
        nf(bin("<", lset(vec![ls_(&[1])]), lset(vec![ls_(&[2])]))),
        "false"
    );
    assert_eq!(
        nf(bin("<", lset(vec![ls_(&[2])]), lset(vec![ls_(&[1])]))),
        "false"
    );
    assert_eq!(
        nf(bin("<", lset(vec![ls_(&[1])]), lset(vec![ls_(&[1, 2])]))),
        "true"
    );
    // A list with an open tail keeps its structure.
    let open = bin("|>", n(1, Nat), v("xs", ls.clone()));
    assert_eq!(nf(un("head", open.clone(), Nat)), "1");
    assert_eq!(nf(un("#", open, Nat)), "#((1 |> xs))");
}

#[test]
fn sets_and_bags() {
    let ss = Sort::Set(Box::new(Nat));
    let s = |xs: &[i64]| set(xs.iter().map(|x| n(*x, Nat)).collect(), Nat);
    assert_eq!(nf(s(&[3, 1, 3, 2])), "{1, 2, 3}");
    assert_eq!(nf(fset(vec![n(10, Nat), n(2, Nat)], Nat)), "{2, 10}");
    assert_eq!(
        nf(ap(
            "+",
            &[ss.clone(), ss.clone()],
            ss.clone(),
            vec![s(&[1, 3]), s(&[2])]
        )),
        "{1, 2, 3}"
    );
    assert_eq!(
        nf(ap(
            "*",
            &[ss.clone(), ss.clone()],
            ss.clone(),
            vec![s(&[1, 3]), s(&[3, 4])]
        )),
        "{3}"
    );
    assert_eq!(
        nf(ap(
            "-",
            &[ss.clone(), ss.clone()],
            ss.clone(),
            vec![s(&[1, 3]), s(&[3, 4])]
        )),
        "{1}"
    );
    assert_eq!(nf(bin("in", n(3, Nat), s(&[1, 3]))), "true");
    assert_eq!(nf(bin("in", n(2, Nat), s(&[1, 3]))), "false");
    assert_eq!(nf(bin("<=", s(&[1]), s(&[1, 3]))), "true");
    assert_eq!(nf(bin("<", s(&[1, 3]), s(&[1, 3]))), "false");
    assert_eq!(nf(bin("==", s(&[3, 1]), s(&[1, 3]))), "true");
    assert_eq!(nf(set(vec![], Nat)), "{}");
    // Complement and comprehension: membership is decided, the set prints as comprehension.
    let comp = un("!", s(&[1]), ss.clone());
    assert_eq!(nf(bin("in", n(1, Nat), comp.clone())), "false");
    assert_eq!(nf(bin("in", n(2, Nat), comp)), "true");
    let x = var("x", Nat);
    let evens = DataExpr::Binder {
        kind: Binder::SetComprehension,
        vars: vec![x.clone()],
        body: Box::new(bin(
            "==",
            bin("mod", DataExpr::Var(x.clone()), n(2, Pos)),
            n(0, Nat),
        )),
    };
    assert_eq!(nf(bin("in", n(4, Nat), evens.clone())), "true");
    assert_eq!(nf(bin("in", n(5, Nat), evens.clone())), "false");
    let both = ap(
        "*",
        &[ss.clone(), ss.clone()],
        ss.clone(),
        vec![evens.clone(), s(&[1, 2, 3, 4])],
    );
    assert_eq!(nf(bin("in", n(4, Nat), both.clone())), "true");
    assert_eq!(nf(bin("in", n(3, Nat), both)), "false");
    // Bags.
    let bs = Sort::Bag(Box::new(Nat));
    let b1 = bag(vec![(n(1, Nat), 2), (n(3, Nat), 1)], Nat);
    let b2 = bag(vec![(n(1, Nat), 1), (n(2, Nat), 5)], Nat);
    assert_eq!(nf(b1.clone()), "{1: 2, 3: 1}");
    assert_eq!(
        nf(ap(
            "+",
            &[bs.clone(), bs.clone()],
            bs.clone(),
            vec![b1.clone(), b2.clone()]
        )),
        "{1: 3, 2: 5, 3: 1}"
    );
    assert_eq!(
        nf(ap(
            "-",
            &[bs.clone(), bs.clone()],
            bs.clone(),
            vec![b1.clone(), b2.clone()]
        )),
        "{1: 1, 3: 1}"
    );
    assert_eq!(
        nf(ap(
            "*",
            &[bs.clone(), bs.clone()],
            bs.clone(),
            vec![b1.clone(), b2.clone()]
        )),
        "{1: 1}"
    );
    assert_eq!(nf(bin("count", n(1, Nat), b1.clone())), "2");
    assert_eq!(nf(bin("count", n(7, Nat), b1.clone())), "0");
    assert_eq!(nf(bin("in", n(3, Nat), b1.clone())), "true");
    assert_eq!(nf(un("Bag2Set", b1.clone(), ss.clone())), "{1, 3}");
    assert_eq!(nf(un("Set2Bag", s(&[2, 1]), bs.clone())), "{1: 1, 2: 1}");
    assert_eq!(nf(bag(vec![(n(1, Nat), 0)], Nat)), "{}");
    // Conversions of infinite sets and bags keep membership.
    let evens_bag = un("Set2Bag", evens.clone(), bs.clone());
    assert_eq!(nf(bin("count", n(6, Nat), evens_bag.clone())), "1");
    assert_eq!(nf(bin("count", n(7, Nat), evens_bag.clone())), "0");
    assert_eq!(
        nf(bin("in", n(8, Nat), un("Bag2Set", evens_bag, ss.clone()))),
        "true"
    );
}

fn struct_spec() -> DataSpec {
    // sort S = struct c(x: Nat) ? is_c | d(y: Nat, z: Bool) ? is_d | e;
    let s = Sort::Named("S".into());
    DataSpec {
        sorts: vec![SortDecl {
            name: "S".into(),
            def: SortDef::Struct(vec![
                StructCons {
                    name: "c".into(),
                    fields: vec![StructField {
                        projection: Some("x".into()),
                        sort: Nat,
                    }],
                    recogniser: Some("is_c".into()),
                },
                StructCons {
                    name: "d".into(),
                    fields: vec![
                        StructField {
                            projection: Some("y".into()),
                            sort: Nat,
                        },
                        StructField {
                            projection: Some("z".into()),
                            sort: Bool,
                        },
                    ],
                    recogniser: Some("is_d".into()),
                },
                StructCons {
                    name: "e".into(),
                    fields: vec![],
                    recogniser: None,
                },
            ]),
            span: Default::default(),
        }],
        ..Default::default()
    }
    .with_sort(s)
}

trait WithSort {
    fn with_sort(self, s: Sort) -> Self;
}
impl WithSort for DataSpec {
    fn with_sort(self, _s: Sort) -> Self {
        self
    }
}

#[test]
fn structs() {
    let spec = struct_spec();
    let s = Sort::Named("S".into());
    let c = |k: i64| ap("c", &[Nat], s.clone(), vec![n(k, Nat)]);
    let d = |k: i64, b: DataExpr| ap("d", &[Nat, Bool], s.clone(), vec![n(k, Nat), b]);
    let e = func("e", s.clone());
    assert_eq!(nf_in(&spec, un("x", c(3), Nat)), "3");
    assert_eq!(nf_in(&spec, un("z", d(1, t()), Bool)), "true");
    assert_eq!(nf_in(&spec, un("x", d(1, t()), Nat)), "x(d(1, true))");
    assert_eq!(nf_in(&spec, un("is_c", c(3), Bool)), "true");
    assert_eq!(nf_in(&spec, un("is_d", c(3), Bool)), "false");
    assert_eq!(nf_in(&spec, bin("==", c(3), c(3))), "true");
    assert_eq!(nf_in(&spec, bin("==", c(3), c(4))), "false");
    assert_eq!(nf_in(&spec, bin("==", c(3), e.clone())), "false");
    // Generated ordering: constructor order first, then fields lexicographically.
    assert_eq!(nf_in(&spec, bin("<", c(9), d(0, f()))), "true");
    assert_eq!(nf_in(&spec, bin("<", d(1, t()), d(1, f()))), "false");
    assert_eq!(nf_in(&spec, bin("<", d(1, f()), d(1, t()))), "true");
    assert_eq!(nf_in(&spec, bin("<", e.clone(), c(0))), "false");
    assert_eq!(nf_in(&spec, bin("<=", e.clone(), e.clone())), "true");
    // Open arguments: c(x) == c(3) is undecided but d(..) == e is not.
    let open = ap("c", &[Nat], s.clone(), vec![v("k", Nat)]);
    assert_eq!(nf_in(&spec, bin("==", open.clone(), e)), "false");
}

fn eqn(vars: Vec<Var>, cond: Option<DataExpr>, lhs: DataExpr, rhs: DataExpr) -> Equation {
    Equation {
        vars,
        condition: cond,
        lhs,
        rhs,
        span: Default::default(),
    }
}
fn map_decl(name: &str, sort: Sort) -> FuncDecl {
    FuncDecl {
        func: Func {
            name: name.into(),
            sort,
        },
        span: Default::default(),
    }
}

#[test]
fn user_equations_nonlinear_conditional_partial() {
    let nn = v("n", Nat);
    let mm = v("m", Nat);
    let spec = DataSpec {
        mappings: vec![
            map_decl("same", arrow(&[Nat, Nat], Bool)),
            map_decl("fib", arrow(&[Nat], Nat)),
            map_decl("half", arrow(&[Nat], Nat)),
        ],
        equations: vec![
            // Non-linear left-hand side; no rule for different arguments (partial).
            eqn(
                vec![var("n", Nat)],
                None,
                ap("same", &[Nat, Nat], Bool, vec![nn.clone(), nn.clone()]),
                t(),
            ),
            eqn(
                vec![],
                None,
                ap("fib", &[Nat], Nat, vec![n(0, Nat)]),
                n(0, Nat),
            ),
            eqn(
                vec![],
                None,
                ap("fib", &[Nat], Nat, vec![n(1, Nat)]),
                n(1, Nat),
            ),
            eqn(
                vec![var("n", Nat)],
                Some(bin(">", nn.clone(), n(1, Nat))),
                ap("fib", &[Nat], Nat, vec![nn.clone()]),
                bin(
                    "+",
                    ap(
                        "fib",
                        &[Nat],
                        Nat,
                        vec![un("Int2Nat", bin("-", nn.clone(), n(1, Nat)), Nat)],
                    ),
                    ap(
                        "fib",
                        &[Nat],
                        Nat,
                        vec![un("Int2Nat", bin("-", nn.clone(), n(2, Nat)), Nat)],
                    ),
                ),
            ),
            // Conditional, defined only on even numbers.
            eqn(
                vec![var("m", Nat)],
                Some(bin("==", bin("mod", mm.clone(), n(2, Pos)), n(0, Nat))),
                ap("half", &[Nat], Nat, vec![mm.clone()]),
                bin("div", mm.clone(), n(2, Pos)),
            ),
        ],
        ..Default::default()
    };
    assert_eq!(
        nf_in(
            &spec,
            ap("same", &[Nat, Nat], Bool, vec![n(3, Nat), n(3, Nat)])
        ),
        "true"
    );
    assert_eq!(
        nf_in(
            &spec,
            ap("same", &[Nat, Nat], Bool, vec![n(3, Nat), n(4, Nat)])
        ),
        "same(3, 4)"
    );
    assert_eq!(
        nf_in(&spec, ap("fib", &[Nat], Nat, vec![n(20, Nat)])),
        "6765"
    );
    assert_eq!(nf_in(&spec, ap("half", &[Nat], Nat, vec![n(8, Nat)])), "4");
    assert_eq!(
        nf_in(&spec, ap("half", &[Nat], Nat, vec![n(7, Nat)])),
        "half(7)"
    );
}

#[test]
fn lazy_if_makes_recursion_terminate() {
    // down(n) = if(n == 0, 0, down(Int2Nat(n - 1)))
    let nn = v("n", Nat);
    let down = |a: DataExpr| ap("down", &[Nat], Nat, vec![a]);
    let spec = DataSpec {
        mappings: vec![map_decl("down", arrow(&[Nat], Nat))],
        equations: vec![eqn(
            vec![var("n", Nat)],
            None,
            down(nn.clone()),
            ap(
                "if",
                &[Bool, Nat, Nat],
                Nat,
                vec![
                    bin("==", nn.clone(), n(0, Nat)),
                    n(0, Nat),
                    down(un("Int2Nat", bin("-", nn.clone(), n(1, Nat)), Nat)),
                ],
            ),
        )],
        ..Default::default()
    };
    assert_eq!(nf_in(&spec, down(n(500, Nat))), "0");
}

#[test]
fn non_termination_is_an_error_not_a_crash() {
    let nn = v("n", Nat);
    let loop_ = |a: DataExpr| ap("loop", &[Nat], Nat, vec![a]);
    let spec = DataSpec {
        mappings: vec![map_decl("loop", arrow(&[Nat], Nat))],
        equations: vec![eqn(
            vec![var("n", Nat)],
            None,
            loop_(nn.clone()),
            loop_(bin("+", nn.clone(), n(1, Nat))),
        )],
        ..Default::default()
    };
    let err = rewrite_expr(&spec, &loop_(n(0, Nat))).unwrap_err();
    assert!(
        matches!(&err, EngineError::Rewrite(e) if matches!(e.kind(), RewriteErrorKind::TooDeep { .. })),
        "{err}"
    );
}

#[test]
fn lambda_whr_and_function_update() {
    let x = var("x", Nat);
    let lam = DataExpr::Binder {
        kind: Binder::Lambda,
        vars: vec![x.clone()],
        body: Box::new(bin("*", DataExpr::Var(x.clone()), n(2, Nat))),
    };
    let app = DataExpr::App {
        head: Box::new(lam.clone()),
        args: vec![n(21, Nat)],
    };
    assert_eq!(nf(app), "42");
    let whr = DataExpr::Whr {
        body: Box::new(bin("+", v("a", Nat), v("b", Nat))),
        defs: vec![(var("a", Nat), n(1, Nat)), (var("b", Nat), n(2, Nat))],
    };
    assert_eq!(nf(whr), "3");
    // f[3 -> 7](3) = 7, f[3 -> 7](4) = f(4)
    let fs = arrow(&[Nat], Nat);
    let upd = ap(
        "@func_update",
        &[fs.clone(), Nat, Nat],
        fs.clone(),
        vec![lam.clone(), n(3, Nat), n(7, Nat)],
    );
    let at = |k: i64| DataExpr::App {
        head: Box::new(upd.clone()),
        args: vec![n(k, Nat)],
    };
    assert_eq!(nf(at(3)), "7");
    assert_eq!(nf(at(4)), "8");
    // Updates in different orders give the same normal form.
    let g = func("g", fs.clone());
    let u = |f: DataExpr, k: i64, val: i64| {
        ap(
            "@func_update",
            &[fs.clone(), Nat, Nat],
            fs.clone(),
            vec![f, n(k, Nat), n(val, Nat)],
        )
    };
    let a = u(u(g.clone(), 1, 10), 2, 20);
    let b = u(u(g.clone(), 2, 20), 1, 10);
    assert_eq!(nf(a.clone()), nf(b));
    assert_eq!(nf(u(a, 1, 11)), nf(u(u(g, 2, 20), 1, 11)));
}

#[test]
fn quantifiers_by_enumeration() {
    let b = var("b", Bool);
    let all = DataExpr::Binder {
        kind: Binder::Forall,
        vars: vec![b.clone()],
        body: Box::new(bin(
            "||",
            DataExpr::Var(b.clone()),
            un("!", DataExpr::Var(b.clone()), Bool),
        )),
    };
    assert_eq!(nf(all), "true");
    let k = var("k", Nat);
    let kv = DataExpr::Var(k.clone());
    // exists k: Nat . k < 10 && k * k == 49
    let ex = DataExpr::Binder {
        kind: Binder::Exists,
        vars: vec![k.clone()],
        body: Box::new(bin(
            "&&",
            bin("<", kv.clone(), n(10, Nat)),
            bin("==", bin("*", kv.clone(), kv.clone()), n(49, Nat)),
        )),
    };
    assert_eq!(nf(ex), "true");
    // forall k: Nat . k < 5 => k * k < 20  (bound taken from the implication)
    let fa = DataExpr::Binder {
        kind: Binder::Forall,
        vars: vec![k.clone()],
        body: Box::new(bin(
            "=>",
            bin("<", kv.clone(), n(5, Nat)),
            bin("<", bin("*", kv.clone(), kv.clone()), n(20, Nat)),
        )),
    };
    assert_eq!(nf(fa), "true");
    // exists k: Nat . k in [3, 5] && k > 4
    let inl = DataExpr::Binder {
        kind: Binder::Exists,
        vars: vec![k.clone()],
        body: Box::new(bin(
            "&&",
            bin("in", kv.clone(), list(vec![n(3, Nat), n(5, Nat)], Nat)),
            bin(">", kv.clone(), n(4, Nat)),
        )),
    };
    assert_eq!(nf(inl), "true");
    // Unbounded: mCRL2's first ten values are tried (7 is among them, 12 is not; mcrl2i
    // 202607.0 gives `true` and leaves the second as it is).
    let unb = |m: i64| DataExpr::Binder {
        kind: Binder::Exists,
        vars: vec![k.clone()],
        body: Box::new(bin("==", bin("*", kv.clone(), kv.clone()), n(m, Nat))),
    };
    assert_eq!(nf(unb(49)), "true");
    assert_eq!(nf(unb(144)), "exists k. ((k * k) == 144)");
}

#[test]
fn enumerator_api_sum_variables() {
    let spec = struct_spec();
    let store = muon::data::TermStore::new();
    let mut rw = Rewriter::new(&spec, &store).unwrap();
    let s = Sort::Named("S".into());
    let st = rw.store();
    let xv = var("x", s.clone());
    let kv = var("k", Nat);
    // sum x: S, k: Nat . k < 3 && (is_c(x) => x(x) == k)   — x ranges over c(_), d(_, _), e
    let cond = bin(
        "&&",
        bin("<", DataExpr::Var(kv.clone()), n(3, Nat)),
        bin("==", DataExpr::Var(xv.clone()), func("e", s.clone())),
    );
    let c = rw.term(&cond).unwrap();
    let vars = [st.intern_var(&xv), st.intern_var(&kv)];
    let mut sols = Vec::new();
    rw.enumerator()
        .enumerate(&vars, c, &mut |vals, res| {
            assert_eq!(res, st.true_term());
            sols.push(vals.to_vec());
            true
        })
        .unwrap();
    assert_eq!(sols.len(), 3);
    // One-point rule: k == 7 gives exactly one solution without a bound.
    let c2 = rw
        .term(&bin("==", DataExpr::Var(kv.clone()), n(7, Nat)))
        .unwrap();
    let mut count = 0;
    rw.enumerator()
        .enumerate(&vars[1..], c2, &mut |_, _| {
            count += 1;
            true
        })
        .unwrap();
    assert_eq!(count, 1);
    // Budget: a recursive infinite sort stops with an error instead of looping.
    let store2 = muon::data::TermStore::new();
    let mut rw2 = Rewriter::new(&DataSpec::default(), &store2).unwrap();
    rw2.set_enum_budget(1000);
    let c3 = rw2
        .term(&bin(">", DataExpr::Var(kv.clone()), n(3, Nat)))
        .unwrap();
    let kid = rw2.store().intern_var(&kv);
    let e = rw2
        .enumerator()
        .enumerate(&[kid], c3, &mut |_, _| true)
        .unwrap_err();
    assert!(e.to_string().contains("k: Nat"), "{e}");
}

#[test]
fn rewriter_contexts_share_one_store_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<muon::data::TermStore>();
    assert_send_sync::<Rewriter>();
    // sq(n) = n * n; every thread rewrites the same expressions with its own context and
    // must get the same term ids (one shared store).
    let nn = v("n", Nat);
    let spec = DataSpec {
        mappings: vec![map_decl("sq", arrow(&[Nat], Nat))],
        equations: vec![eqn(
            vec![var("n", Nat)],
            None,
            ap("sq", &[Nat], Nat, vec![nn.clone()]),
            bin("*", nn.clone(), nn),
        )],
        ..Default::default()
    };
    let store = muon::data::TermStore::new();
    let rw = Rewriter::new(&spec, &store).unwrap();
    let exprs: Vec<_> = (0..200)
        .map(|i| list(vec![ap("sq", &[Nat], Nat, vec![n(i, Nat)]), n(i, Nat)], Nat))
        .collect();
    let results: Vec<Vec<muon::data::TermId>> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..4)
            .map(|_| {
                let mut mine = rw.clone();
                let exprs = &exprs;
                s.spawn(move || {
                    exprs
                        .iter()
                        .map(|e| {
                            let t = mine.term(e).unwrap();
                            mine.rewrite(t).unwrap()
                        })
                        .collect()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for r in &results[1..] {
        assert_eq!(r, &results[0]);
    }
    assert_eq!(show(&rw.expr(results[0][12])), "[144, 12]");
}

#[test]
fn more_builtin_edge_cases() {
    let r = |a: i64, b: i64| bin("/", n(a, Int), n(b, Int));
    assert_eq!(nf(un("round", r(-5, 2), Int)), "-2");
    assert_eq!(nf(un("round", r(5, 2), Int)), "3");
    assert_eq!(nf(un("Real2Pos", r(6, 2), Pos)), "3");
    // As mcrl2i: an integral real goes through Int2Nat.
    assert_eq!(nf(un("Real2Nat", r(-6, 2), Nat)), "Int2Nat(-3)");
    assert_eq!(nf(un("Pos2Real", n(3, Pos), Real)), "3");
    assert_eq!(nf(un("Int2Real", n(-3, Int), Real)), "-3");
    assert_eq!(nf(un("succ", r(1, 2), Real)), "(3 / 2)");
    assert_eq!(nf(un("pred", n(-3, Int), Int)), "-4");
    assert_eq!(
        nf(ap("exp", &[Nat, Nat], Nat, vec![n(0, Nat), n(0, Nat)])),
        "1"
    );
    assert_eq!(nf(un("sqrt", n(99, Nat), Nat)), "9");
    assert_eq!(
        nf(ap("max", &[Pos, Nat], Pos, vec![n(2, Pos), n(0, Nat)])),
        "2"
    );
    // Sizes of finite sets and bags, sub-bag order.
    let fs = fset(vec![n(1, Nat), n(1, Nat), n(5, Nat)], Nat);
    assert_eq!(nf(un("#", fs, Nat)), "2");
    let fb = DataExpr::BagEnum {
        elems: vec![(n(1, Nat), n(2, Nat)), (n(4, Nat), n(3, Nat))],
        sort: Sort::FBag(Box::new(Nat)),
    };
    assert_eq!(nf(un("#", fb.clone(), Nat)), "5");
    let small = bag(vec![(n(1, Nat), 1)], Nat);
    let big = bag(vec![(n(1, Nat), 2), (n(4, Nat), 3)], Nat);
    assert_eq!(nf(bin("<=", small.clone(), big.clone())), "true");
    assert_eq!(nf(bin("<", big.clone(), small.clone())), "false");
    assert_eq!(nf(bin("==", big.clone(), big)), "true");
    // Equality of lists with open elements: undecided, or field by field (as mCRL2).
    let open = list(vec![v("a", Nat)], Nat);
    assert_eq!(nf(bin("==", open.clone(), list(vec![], Nat))), "false");
    assert_eq!(
        nf(bin("==", open.clone(), list(vec![n(1, Nat)], Nat))),
        "(a == 1)"
    );
}

#[test]
fn enumerator_bounds_for_pos_int_and_sets() {
    let k = var("k", Int);
    let kv = DataExpr::Var(k.clone());
    let ex = |body: DataExpr| DataExpr::Binder {
        kind: Binder::Exists,
        vars: vec![k.clone()],
        body: Box::new(body),
    };
    // Int needs both bounds.
    let both = bin(
        "&&",
        bin(">=", kv.clone(), n(-5, Int)),
        bin("<", kv.clone(), n(5, Int)),
    );
    assert_eq!(
        nf(ex(bin(
            "&&",
            both,
            bin("==", bin("*", kv.clone(), kv.clone()), n(16, Int))
        ))),
        "true"
    );
    let one_sided = bin(
        "&&",
        bin("<", kv.clone(), n(5, Int)),
        bin("==", bin("*", kv.clone(), kv.clone()), n(16, Int)),
    );
    // Bounded on one side only: mCRL2's enumeration reaches -4 within its limit.
    assert_eq!(nf(ex(one_sided)), "true");
    // Membership in a closed set bounds the variable.
    let p = var("p", Pos);
    let pv = DataExpr::Var(p.clone());
    let fa = DataExpr::Binder {
        kind: Binder::Forall,
        vars: vec![p.clone()],
        body: Box::new(bin(
            "=>",
            bin("in", pv.clone(), set(vec![n(2, Pos), n(4, Pos)], Pos)),
            bin("==", bin("mod", pv.clone(), n(2, Pos)), n(0, Nat)),
        )),
    };
    assert_eq!(nf(fa), "true");
    // No endless loop for a bound that is too large: past the enumeration budget, mCRL2's
    // first values are tried and the quantifier stays, as in mCRL2.
    let huge = ex(bin(
        "&&",
        bin(">=", kv.clone(), n(0, Int)),
        bin(
            "&&",
            bin("<", kv.clone(), n(1_000_000_000, Int)),
            bin("==", kv.clone(), bin("+", kv.clone(), n(1, Int))),
        ),
    ));
    assert!(nf(huge).starts_with("exists k. "));
}

#[test]
fn enumerator_reports_residual_conditions_of_open_terms() {
    // sum b: Bool . b && y   with y free: b = true leaves the residual `y`, b = false is pruned.
    let store = muon::data::TermStore::new();
    let mut rw = Rewriter::new(&DataSpec::default(), &store).unwrap();
    let cond = rw.term(&bin("&&", v("b", Bool), v("y", Bool))).unwrap();
    let st = rw.store();
    let b = st.intern_var(&var("b", Bool));
    let y = st.var(st.intern_var(&var("y", Bool)));
    let mut sols = Vec::new();
    rw.enumerator()
        .enumerate(&[b], cond, &mut |vals, residual| {
            sols.push((vals[0], residual));
            true
        })
        .unwrap();
    assert_eq!(sols, vec![(st.true_term(), y)]);
    // Rewriting under a substitution, and plain substitution.
    let t = rw.term(&bin("+", v("k", Nat), n(2, Nat))).unwrap();
    let k = st.intern_var(&var("k", Nat));
    let r = rw
        .rewrite_with(t, &[(k, st.num(muon::data::NumSort::Nat, 40))])
        .unwrap();
    assert_eq!(show(&rw.expr(r)), "42");
    let sigma: muon::data::Substitution = [(k, st.num(muon::data::NumSort::Nat, 1))]
        .into_iter()
        .collect();
    let s = rw.substitute(t, &sigma);
    assert_eq!(show(&rw.expr(s)), "(1 + 2)");
}

fn enum_spec() -> DataSpec {
    // sort E = struct e1 | e2 | e3;
    let c = |name: &str| StructCons {
        name: name.into(),
        fields: vec![],
        recogniser: None,
    };
    DataSpec {
        sorts: vec![SortDecl {
            name: "E".into(),
            def: SortDef::Struct(vec![c("e1"), c("e2"), c("e3")]),
            span: Default::default(),
        }],
        ..Default::default()
    }
    .with_sort(Sort::Named("E".into()))
}

/// Set and bag values take mCRL2's normal forms `@set(f, s)` / `@bag(f, b)` with symbolic
/// functions (hand-checked against mCRL2's set.spec, bag.spec, fset.spec, fbag.spec):
/// equal terms exactly where mCRL2's rules make them equal, semantic `==`, `<=`, `<`.
#[test]
fn sets_and_bags_follow_mcrl2_normal_forms() {
    let spec = enum_spec();
    let e = Sort::Named("E".into());
    let el = |name: &str| func(name, e.clone());
    let ss = Sort::Set(Box::new(e.clone()));
    let bs = Sort::Bag(Box::new(e.clone()));
    let s = |xs: &[&str]| set(xs.iter().map(|x| el(x)).collect(), e.clone());
    let compl = |x: DataExpr| un("!", x, ss.clone());
    let nf = |x: DataExpr| nf_in(&spec, x);
    // Complement: @not_(@false_) = @true_, @not_(@true_) = @false_.
    assert_eq!(nf(compl(s(&["e1"]))), "!({e1})");
    assert_eq!(nf(compl(compl(s(&["e1"])))), "{e1}");
    // Union with the complement: @or_(@false_, @true_) = @true_ and e1 is dropped from the
    // finite part, since @false_(e1) != @true_(e1).
    assert_eq!(nf(bin("+", s(&["e1"]), compl(s(&["e1"])))), "!({})");
    // The empty set written two ways: different terms (as in mCRL2), equal sets.
    assert_eq!(nf(compl(s(&["e1", "e2", "e3"]))), "!({e1, e2, e3})");
    assert_eq!(nf(bin("==", compl(s(&["e1", "e2", "e3"])), s(&[]))), "true");
    assert_eq!(nf(bin("!=", compl(s(&["e2", "e3"])), s(&[]))), "true");
    // Difference is intersection with the complement; intersection keeps what both decide.
    assert_eq!(
        nf(bin("-", compl(s(&["e1", "e2", "e3"])), s(&[]))),
        "!({e1, e2, e3})"
    );
    assert_eq!(nf(bin("*", s(&["e1"]), compl(s(&["e2"])))), "{e1}");
    assert_eq!(nf(bin("-", compl(s(&[])), s(&["e2"]))), "!({e2})");
    // Inclusion: x <= y iff x * y == x.
    assert_eq!(nf(bin("<", s(&["e1"]), compl(s(&["e2"])))), "true");
    assert_eq!(nf(bin("<=", compl(s(&["e2"])), s(&["e1"]))), "false");
    assert_eq!(nf(bin("<", compl(s(&["e1", "e2", "e3"])), s(&[]))), "false");
    assert_eq!(nf(bin("<=", compl(s(&["e1", "e2", "e3"])), s(&[]))), "true");
    // Comprehension: @set(lambda x. c, {}), membership through the lambda.
    let x = var("x", e.clone());
    let comp = DataExpr::Binder {
        kind: Binder::SetComprehension,
        vars: vec![x.clone()],
        body: Box::new(bin("!=", DataExpr::Var(x), el("e1"))),
    };
    assert_eq!(nf(bin("in", el("e2"), comp.clone())), "true");
    assert_eq!(nf(bin("in", el("e1"), comp.clone())), "false");
    assert_eq!(nf(bin("in", el("e1"), compl(comp.clone()))), "true");
    assert_eq!(nf(bin("==", comp.clone(), compl(s(&["e1"])))), "true");
    assert_eq!(nf(bin("==", comp, s(&["e2", "e3"]))), "true");
    // Bags: join, intersection, difference of finite bags.
    let b = |xs: &[(&str, i64)]| bag(xs.iter().map(|(x, c)| (el(x), *c)).collect(), e.clone());
    let b1 = b(&[("e1", 2), ("e2", 1)]);
    let b2 = b(&[("e1", 1), ("e3", 4)]);
    assert_eq!(
        nf(bin("+", b1.clone(), b2.clone())),
        "{e1: 3, e2: 1, e3: 4}"
    );
    assert_eq!(nf(bin("*", b1.clone(), b2.clone())), "{e1: 1}");
    assert_eq!(nf(bin("-", b1.clone(), b2.clone())), "{e1: 1, e2: 1}");
    assert_eq!(nf(bin("<", b(&[("e1", 1)]), b1.clone())), "true");
    assert_eq!(nf(bin("<=", b2.clone(), b1.clone())), "false");
    // Set2Bag / Bag2Set: @Bool2Nat_(@true_) = @one_, stored counts under @swap_zero.
    let s2b = |x: DataExpr| un("Set2Bag", x, bs.clone());
    let b2s = |x: DataExpr| un("Bag2Set", x, ss.clone());
    assert_eq!(nf(s2b(s(&["e1", "e2"]))), "{e1: 1, e2: 1}");
    assert_eq!(nf(b2s(b1.clone())), "{e1, e2}");
    let co = s2b(compl(s(&["e1"])));
    assert_eq!(nf(co.clone()), "{ x | @swap_zero(1, count(x, {e1: 1})) }");
    assert_eq!(nf(bin("count", el("e1"), co.clone())), "0");
    assert_eq!(nf(bin("count", el("e2"), co.clone())), "1");
    // @add_(@one_, @one_) stays symbolic; e1 (true count 0) is stored with count 2.
    let twice = bin("+", co.clone(), co.clone());
    assert_eq!(
        nf(twice.clone()),
        "{ x | @swap_zero(@add_(@one_, @one_)(x), count(x, {e1: 2})) }"
    );
    assert_eq!(nf(bin("count", el("e1"), twice.clone())), "0");
    assert_eq!(nf(bin("count", el("e3"), twice.clone())), "2");
    // No rule simplifies @monus_(@add_(f, f), f) or @min_(@add_(f, f), f) (nor in mCRL2).
    assert_eq!(
        nf(bin("-", twice.clone(), co.clone())),
        "{ x | @swap_zero(@monus_(@add_(@one_, @one_), @one_)(x), count(x, {e1: 1})) }"
    );
    assert_eq!(
        nf(bin("*", twice.clone(), co.clone())),
        "{ x | @swap_zero(@min_(@add_(@one_, @one_), @one_)(x), count(x, {e1: 1})) }"
    );
    assert_eq!(
        nf(bin("==", bin("-", twice.clone(), co.clone()), co.clone())),
        "true"
    );
    assert_eq!(
        nf(bin("==", bin("-", co.clone(), co.clone()), b(&[]))),
        "true"
    );
    assert_eq!(nf(b2s(co.clone())), "!({e1})");
    assert_eq!(
        nf(b2s(twice.clone())),
        "{ x | (@Nat2Bool_(@add_(@one_, @one_))(x) != in(x, {e1})) }"
    );
    assert_eq!(nf(bin("==", b2s(twice), compl(s(&["e1"])))), "true");
    // Over an infinite sort: @false_ and @true_ sets never coincide.
    let ns = |xs: &[i64]| set(xs.iter().map(|x| n(*x, Nat)).collect(), Nat);
    let nss = Sort::Set(Box::new(Nat));
    assert_eq!(
        nf(bin("==", ns(&[1]), un("!", ns(&[]), nss.clone()))),
        "false"
    );
    assert_eq!(
        nf(bin(
            "-",
            un("!", ns(&[]), nss.clone()),
            un("!", ns(&[1]), nss)
        )),
        "{1}"
    );
}
