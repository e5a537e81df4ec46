//! Parser behaviour: mCRL2's priorities and associativities, special forms, spans, limits.

use muon::source::SourceFile;
use muon::syntax::ast::*;
use muon::syntax::{parse_data_expr, parse_formula_spec, parse_pbes, parse_spec, SyntaxErrorKind};

fn src(t: &str) -> SourceFile {
    SourceFile::new("test", t.to_string())
}

/// Fully parenthesised rendering of the AST, to check grouping.
fn d(e: &DataExpr) -> String {
    match &e.kind {
        DataExprKind::Id(n) | DataExprKind::Number(n) => n.to_string(),
        DataExprKind::True => "true".into(),
        DataExprKind::False => "false".into(),
        DataExprKind::App { head, args } => format!("{}({})", d(head), list(args)),
        DataExprKind::Unary { op, arg } => format!("({}{})", op.symbol(), d(arg)),
        DataExprKind::Binary { op, lhs, rhs } => {
            format!("({} {} {})", d(lhs), op.symbol(), d(rhs))
        }
        DataExprKind::ListEnum(es) => format!("[{}]", list(es)),
        DataExprKind::SetEnum(es) => format!("{{{}}}", list(es)),
        DataExprKind::BagEnum(es) => format!(
            "{{{}}}",
            es.iter()
                .map(|(a, b)| format!("{}: {}", d(a), d(b)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        DataExprKind::Comprehension { var, body } => {
            format!("{{{}: {} | {}}}", var.name.name, s(&var.sort), d(body))
        }
        DataExprKind::Binder { kind, vars, body } => format!(
            "({:?} {} . {})",
            kind,
            vars.iter()
                .map(|v| format!("{}: {}", v.name.name, s(&v.sort)))
                .collect::<Vec<_>>()
                .join(", "),
            d(body)
        ),
        DataExprKind::Whr { body, defs } => format!(
            "({} whr {} end)",
            d(body),
            defs.iter()
                .map(|a| format!("{} = {}", a.name.name, d(&a.value)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        DataExprKind::Update { func, arg, value } => {
            format!("{}[{} -> {}]", d(func), d(arg), d(value))
        }
    }
}

fn list(es: &[DataExpr]) -> String {
    es.iter().map(d).collect::<Vec<_>>().join(", ")
}

fn s(e: &SortExpr) -> String {
    match &e.kind {
        SortExprKind::Bool => "Bool".into(),
        SortExprKind::Pos => "Pos".into(),
        SortExprKind::Nat => "Nat".into(),
        SortExprKind::Int => "Int".into(),
        SortExprKind::Real => "Real".into(),
        SortExprKind::Id(n) => n.to_string(),
        SortExprKind::List(x) => format!("List({})", s(x)),
        SortExprKind::Set(x) => format!("Set({})", s(x)),
        SortExprKind::FSet(x) => format!("FSet({})", s(x)),
        SortExprKind::Bag(x) => format!("Bag({})", s(x)),
        SortExprKind::FBag(x) => format!("FBag({})", s(x)),
        SortExprKind::Arrow(dom, cod) => format!(
            "({} -> {})",
            dom.iter().map(s).collect::<Vec<_>>().join(" # "),
            s(cod)
        ),
        SortExprKind::Struct(cs) => format!(
            "struct {}",
            cs.iter()
                .map(|c| {
                    let fields = c
                        .fields
                        .iter()
                        .map(|f| match &f.projection {
                            Some(p) => format!("{}: {}", p.name, s(&f.sort)),
                            None => s(&f.sort),
                        })
                        .collect::<Vec<_>>()
                        .join(", ");
                    let rec = c
                        .recogniser
                        .as_ref()
                        .map(|r| format!("?{}", r.name))
                        .unwrap_or_default();
                    format!("{}({fields}){rec}", c.name.name)
                })
                .collect::<Vec<_>>()
                .join(" | ")
        ),
    }
}

fn p(e: &ProcExpr) -> String {
    let bin = |a: &ProcExpr, op: &str, b: &ProcExpr| format!("({} {op} {})", p(a), p(b));
    match &e.kind {
        ProcExprKind::Action { name, args } if args.is_empty() => name.name.to_string(),
        ProcExprKind::Action { name, args } => format!("{}({})", name.name, list(args)),
        ProcExprKind::AssignCall { name, assignments } => format!(
            "{}({})",
            name.name,
            assignments
                .iter()
                .map(|a| format!("{} = {}", a.name.name, d(&a.value)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        ProcExprKind::Delta => "delta".into(),
        ProcExprKind::Tau => "tau".into(),
        ProcExprKind::Sum { vars, body } => format!(
            "(sum {} . {})",
            vars.iter()
                .map(|v| format!("{}: {}", v.name.name, s(&v.sort)))
                .collect::<Vec<_>>()
                .join(", "),
            p(body)
        ),
        ProcExprKind::Choice(a, b) => bin(a, "+", b),
        ProcExprKind::Seq(a, b) => bin(a, ".", b),
        ProcExprKind::Sync(a, b) => bin(a, "|", b),
        ProcExprKind::Par(a, b) => bin(a, "||", b),
        ProcExprKind::LeftMerge(a, b) => bin(a, "||_", b),
        ProcExprKind::Cond { cond, then, else_ } => match else_ {
            Some(q) => format!("({} -> {} <> {})", d(cond), p(then), p(q)),
            None => format!("({} -> {})", d(cond), p(then)),
        },
        ProcExprKind::Allow { set, body } => format!(
            "allow({{{}}}, {})",
            set.iter()
                .map(|m| m
                    .names
                    .iter()
                    .map(|n| n.name.to_string())
                    .collect::<Vec<_>>()
                    .join("|"))
                .collect::<Vec<_>>()
                .join(", "),
            p(body)
        ),
        ProcExprKind::Block { set, body } => format!("block({}, {})", names(set), p(body)),
        ProcExprKind::Hide { set, body } => format!("hide({}, {})", names(set), p(body)),
        ProcExprKind::Rename { rules, body } => format!(
            "rename({{{}}}, {})",
            rules
                .iter()
                .map(|r| format!("{} -> {}", r.from.name, r.to.name))
                .collect::<Vec<_>>()
                .join(", "),
            p(body)
        ),
        ProcExprKind::Comm { rules, body } => format!(
            "comm({{{}}}, {})",
            rules
                .iter()
                .map(|r| format!(
                    "{} -> {}",
                    r.lhs
                        .iter()
                        .map(|n| n.name.to_string())
                        .collect::<Vec<_>>()
                        .join("|"),
                    r.rhs
                        .as_ref()
                        .map_or("tau".to_string(), |n| n.name.to_string())
                ))
                .collect::<Vec<_>>()
                .join(", "),
            p(body)
        ),
    }
}

fn names(ns: &[Ident]) -> String {
    format!(
        "{{{}}}",
        ns.iter()
            .map(|n| n.name.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn sf(e: &StateFormula) -> String {
    match &e.kind {
        StateFormulaKind::True => "true".into(),
        StateFormulaKind::False => "false".into(),
        StateFormulaKind::Not(a) => format!("(!{})", sf(a)),
        StateFormulaKind::And(a, b) => format!("({} && {})", sf(a), sf(b)),
        StateFormulaKind::Or(a, b) => format!("({} || {})", sf(a), sf(b)),
        StateFormulaKind::Imp(a, b) => format!("({} => {})", sf(a), sf(b)),
        StateFormulaKind::Forall(vs, a) => format!("(forall {} . {})", vs.len(), sf(a)),
        StateFormulaKind::Exists(vs, a) => format!("(exists {} . {})", vs.len(), sf(a)),
        StateFormulaKind::Must(r, a) => format!("([{}]{})", rf(r), sf(a)),
        StateFormulaKind::May(r, a) => format!("(<{}>{})", rf(r), sf(a)),
        StateFormulaKind::Mu(x, a) => format!("(mu {}({}) . {})", x.name.name, fp(x), sf(a)),
        StateFormulaKind::Nu(x, a) => format!("(nu {}({}) . {})", x.name.name, fp(x), sf(a)),
        StateFormulaKind::Var { name, args } => format!("{}({})", name.name, list(args)),
        StateFormulaKind::Val(x) => format!("val({})", d(x)),
    }
}

fn fp(x: &FixpointDecl) -> String {
    x.params
        .iter()
        .map(|q| format!("{}: {} = {}", q.var.name.name, s(&q.var.sort), d(&q.init)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn rf(e: &RegFormula) -> String {
    match &e.kind {
        RegFormulaKind::Action(a) => af(a),
        RegFormulaKind::Nil => "nil".into(),
        RegFormulaKind::Seq(a, b) => format!("({} . {})", rf(a), rf(b)),
        RegFormulaKind::Alt(a, b) => format!("({} + {})", rf(a), rf(b)),
        RegFormulaKind::Star(a) => format!("({})*", rf(a)),
        RegFormulaKind::Plus(a) => format!("({})+", rf(a)),
    }
}

fn af(e: &ActionFormula) -> String {
    match &e.kind {
        ActionFormulaKind::True => "true".into(),
        ActionFormulaKind::False => "false".into(),
        ActionFormulaKind::Not(a) => format!("(!{})", af(a)),
        ActionFormulaKind::And(a, b) => format!("({} && {})", af(a), af(b)),
        ActionFormulaKind::Or(a, b) => format!("({} || {})", af(a), af(b)),
        ActionFormulaKind::Imp(a, b) => format!("({} => {})", af(a), af(b)),
        ActionFormulaKind::Forall(vs, a) => format!("(forall {} . {})", vs.len(), af(a)),
        ActionFormulaKind::Exists(vs, a) => format!("(exists {} . {})", vs.len(), af(a)),
        ActionFormulaKind::MultiAction(acts) if acts.is_empty() => "tau".into(),
        ActionFormulaKind::MultiAction(acts) => acts
            .iter()
            .map(|a| {
                if a.args.is_empty() {
                    a.name.name.to_string()
                } else {
                    format!("{}({})", a.name.name, list(&a.args))
                }
            })
            .collect::<Vec<_>>()
            .join("|"),
        ActionFormulaKind::Val(x) => format!("val({})", d(x)),
    }
}

fn data(t: &str) -> String {
    match parse_data_expr(&src(t)) {
        Ok(e) => d(&e),
        Err(e) => panic!("{t:?}: {}", e.message()),
    }
}

fn init(t: &str) -> String {
    let spec = parse_spec(&src(&format!("init {t};")))
        .unwrap_or_else(|e| panic!("{t:?}: {}", e.message()));
    p(&spec.init().expect("init").body)
}

fn form(t: &str) -> String {
    let f = parse_formula_spec(&src(t)).unwrap_or_else(|e| panic!("{t:?}: {}", e.message()));
    sf(&f.formula)
}

#[test]
fn data_priorities_follow_mcrl2() {
    assert_eq!(data("x - y - z"), "((x - y) - z)");
    assert_eq!(data("a => b => c"), "(a => (b => c))");
    assert_eq!(data("a || b && c"), "(a || (b && c))");
    assert_eq!(data("a && b || c"), "((a && b) || c)");
    assert_eq!(data("x + y * z == 3"), "((x + (y * z)) == 3)");
    assert_eq!(data("x < y == y > z"), "((x < y) == (y > z))");
    assert_eq!(data("a |> b |> l"), "(a |> (b |> l))");
    assert_eq!(data("l <| a <| b"), "((l <| a) <| b)");
    assert_eq!(data("a |> l ++ m"), "(a |> (l ++ m))");
    assert_eq!(data("x div 2 mod 3"), "((x div 2) mod 3)");
    assert_eq!(data("l . 2 * 3"), "((l . 2) * 3)");
    assert_eq!(data("x / y + z"), "((x / y) + z)");
    assert_eq!(data("-x + y"), "((-x) + y)");
    assert_eq!(data("!f(x) && b"), "((!f(x)) && b)");
    assert_eq!(data("#l + 1"), "((#l) + 1)");
    assert_eq!(data("x in s && y in t"), "((x in s) && (y in t))");
    assert_eq!(data("f(x)(y)"), "f(x)(y)");
    assert_eq!(data("(a => b) => c"), "((a => b) => c)");
}

#[test]
fn data_binders_whr_and_update() {
    assert_eq!(
        data("forall x: Nat . x < 3 => b"),
        "(Forall x: Nat . ((x < 3) => b))"
    );
    assert_eq!(
        data("b && exists x, y: Nat, z: Bool . z"),
        "(b && (Exists x: Nat, y: Nat, z: Bool . z))"
    );
    assert_eq!(data("lambda n: Nat . n + 1"), "(Lambda n: Nat . (n + 1))");
    assert_eq!(
        data("x + y whr x = 1, y = 2 end"),
        "((x + y) whr x = 1, y = 2 end)"
    );
    assert_eq!(
        data("forall x: Nat . p whr p = true end"),
        "((Forall x: Nat . p) whr p = true end)"
    );
    assert_eq!(data("f[x -> v]"), "f[x -> v]");
    assert_eq!(data("f[x -> v][y -> w](z)"), "f[x -> v][y -> w](z)");
    assert_eq!(data("f[x - 1 -> v + 1]"), "f[(x - 1) -> (v + 1)]");
    assert_eq!(
        data("lambda f: Nat -> Bool . f(0)"),
        "(Lambda f: (Nat -> Bool) . f(0))"
    );
}

#[test]
fn data_collections() {
    assert_eq!(data("[]"), "[]");
    assert_eq!(data("[1, 2, 3]"), "[1, 2, 3]");
    assert_eq!(data("{}"), "{}");
    assert_eq!(data("{:}"), "{}");
    assert!(matches!(
        parse_data_expr(&src("{:}")).unwrap().kind,
        DataExprKind::BagEnum(_)
    ));
    assert_eq!(data("{1, 2}"), "{1, 2}");
    assert_eq!(data("{a: 2, b: 1}"), "{a: 2, b: 1}");
    assert!(matches!(
        parse_data_expr(&src("{a: 2}")).unwrap().kind,
        DataExprKind::BagEnum(_)
    ));
    assert_eq!(data("{x: Nat | x < 3}"), "{x: Nat | (x < 3)}");
    assert_eq!(data("{ {1}, {2, 3} }"), "{{1}, {2, 3}}");
    assert_eq!(data("s + {x} - t * u"), "((s + {x}) - (t * u))");
    assert_eq!(data("!s"), "(!s)");
    assert_eq!(data("count(x, b)"), "count(x, b)");
    assert_eq!(data("Int2Nat(-3)"), "Int2Nat((-3))");
}

#[test]
fn identifiers_and_keywords() {
    assert_eq!(data("summary + sum'"), "(summary + sum')");
    assert_eq!(data("x' + x''"), "(x' + x'')");
    assert_eq!(data("_a1 + endx + index"), "((_a1 + endx) + index)");
    assert_eq!(data("trueish"), "trueish");
    assert!(parse_data_expr(&src("sum + 1")).is_err());
    assert_eq!(data("a in b"), "(a in b)");
}

#[test]
fn process_priorities_follow_mcrl2() {
    assert_eq!(init("a . c -> p <> q"), "(a . (c -> p <> q))");
    assert_eq!(init("sum x: D . p + q"), "((sum x: D . p) + q)");
    assert_eq!(init("sum x: D . a || b"), "(sum x: D . (a || b))");
    assert_eq!(init("a . b + c . d"), "((a . b) + (c . d))");
    assert_eq!(init("a | b . c"), "((a | b) . c)");
    assert_eq!(init("a || b || c"), "(a || (b || c))");
    assert_eq!(init("a ||_ b || c"), "((a ||_ b) || c)");
    assert_eq!(init("c -> a . b"), "(c -> (a . b))");
    assert_eq!(init("c -> a + b"), "((c -> a) + b)");
    assert_eq!(init("c -> a <> b + d"), "((c -> a <> b) + d)");
    assert_eq!(init("c -> d -> p <> q"), "(c -> (d -> p <> q))");
    assert_eq!(init("c -> d -> p <> q <> r"), "(c -> (d -> p <> q) <> r)");
    assert_eq!(init("c -> p <> d -> q <> r"), "(c -> p <> (d -> q <> r))");
    assert_eq!(init("a + c -> p <> q"), "(a + (c -> p <> q))");
    assert_eq!(init("sum x: D . c -> p <> q"), "(sum x: D . (c -> p <> q))");
    assert_eq!(init("(x > 3) -> a <> b"), "((x > 3) -> a <> b)");
    assert_eq!(init("!b -> a"), "((!b) -> a)");
    assert_eq!(
        init("f(x, y) -> a(x + 1) . P(x)"),
        "(f(x, y) -> (a((x + 1)) . P(x)))"
    );
    assert_eq!(init("(a . b) . c"), "((a . b) . c)");
}

/// mCRL2 reads `c -> sum x: D . p <> q` as if-then-else with `sum x: D . p` as the then
/// branch (the only parse: `<>` needs a condition), also deeper in the then branch.
#[test]
fn else_after_sum_in_then_branch() {
    assert_eq!(init("c -> sum x: D . p <> q"), "(c -> (sum x: D . p) <> q)");
    assert_eq!(
        init("c -> sum x: D . a . P(x) <> b . Q"),
        "(c -> (sum x: D . (a . P(x))) <> (b . Q))"
    );
    assert_eq!(
        init("c -> a . sum x: D . p <> q"),
        "(c -> (a . (sum x: D . p)) <> q)"
    );
    assert_eq!(
        init("c -> sum x: D . sum y: E . p <> q"),
        "(c -> (sum x: D . (sum y: E . p)) <> q)"
    );
    assert_eq!(
        init("c -> sum x: D . d -> p <> q <> r"),
        "(c -> (sum x: D . (d -> p <> q)) <> r)"
    );
    assert_eq!(
        init("c -> d -> sum x: D . p <> q"),
        "(c -> (d -> (sum x: D . p) <> q))"
    );
    assert_eq!(
        init("c -> sum x: D . p <> q + r"),
        "((c -> (sum x: D . p) <> q) + r)"
    );
    // Still no condition to attach to: a clear error, not a silent regrouping.
    for bad in [
        "sum x: D . p <> q",
        "(sum x: D . p <> q) . r",
        "c -> a + sum x: D . p <> q",
        "c -> sum x: D . p <> q <> r",
    ] {
        let e = parse_spec(&src(&format!("init {bad};"))).expect_err(bad);
        assert!(
            e.message().contains("`<>` without a matching condition"),
            "{bad}: {}",
            e.message()
        );
    }
}

#[test]
fn process_operators_and_calls() {
    assert_eq!(init("P(x = 1, y = x == 2)"), "P(x = 1, y = (x == 2))");
    assert_eq!(init("P()"), "P()");
    assert!(matches!(
        parse_spec(&src("init P();"))
            .unwrap()
            .init()
            .unwrap()
            .body
            .kind,
        ProcExprKind::AssignCall { .. }
    ));
    assert_eq!(init("a(x == 1)"), "a((x == 1))");
    assert_eq!(init("delta + tau"), "(delta + tau)");
    assert_eq!(
        init("allow({a|b, c, a|a}, comm({a|b -> c, a|a|b -> d, e|f -> tau}, P || Q))"),
        "allow({a|b, c, a|a}, comm({a|b -> c, a|a|b -> d, e|f -> tau}, (P || Q)))"
    );
    assert_eq!(
        init("hide({a, b}, block({c}, rename({a -> b}, P)))"),
        "hide({a, b}, block({c}, rename({a -> b}, P)))"
    );
    assert_eq!(init("allow({}, P)"), "allow({}, P)");
}

#[test]
fn declarations() {
    let spec = parse_spec(&src(
        "sort S = struct c1(p: Nat, List(S)) ? is_c1 | c2; A = List(Nat); B, C;\n\
         cons z: S; map f, g: Nat # Bool -> Nat; h: Nat -> Nat -> Bool;\n\
         var x: Nat; b: Bool;\n\
         eqn b -> f(x, b) = x; g(x, b) = x + 1;\n\
         act a, b: Nat # Bool; c; d: Nat;\n\
         glob gx: Nat;\n\
         proc P(n: Nat, m: Nat) = a(n, true) . P(n = n + 1); Q = delta;\n\
         init P(0, 1);",
    ))
    .unwrap();
    let sorts: Vec<String> = spec
        .decls
        .iter()
        .filter_map(|x| match x {
            Decl::Sort(sd) => Some(format!(
                "{}{}",
                sd.name.name,
                sd.def
                    .as_ref()
                    .map(|e| format!(" = {}", s(e)))
                    .unwrap_or_default()
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        sorts,
        [
            "S = struct c1(p: Nat, List(S))?is_c1 | c2()",
            "A = List(Nat)",
            "B",
            "C"
        ]
    );
    let maps: Vec<String> = spec
        .decls
        .iter()
        .filter_map(|x| match x {
            Decl::Map(f) => Some(format!("{}: {}", f.name.name, s(&f.sort))),
            _ => None,
        })
        .collect();
    assert_eq!(
        maps,
        [
            "f: (Nat # Bool -> Nat)",
            "g: (Nat # Bool -> Nat)",
            "h: (Nat -> (Nat -> Bool))"
        ]
    );
    let eqns: Vec<String> = spec
        .decls
        .iter()
        .flat_map(|x| match x {
            Decl::Eqns(e) => {
                assert_eq!(e.vars.len(), 2);
                e.eqns
                    .iter()
                    .map(|q| {
                        format!(
                            "{}{} = {}",
                            q.condition
                                .as_ref()
                                .map(|c| format!("{} -> ", d(c)))
                                .unwrap_or_default(),
                            d(&q.lhs),
                            d(&q.rhs)
                        )
                    })
                    .collect()
            }
            _ => vec![],
        })
        .collect();
    assert_eq!(eqns, ["b -> f(x, b) = x", "g(x, b) = (x + 1)"]);
    let acts: Vec<String> = spec
        .decls
        .iter()
        .filter_map(|x| match x {
            Decl::Act(a) => Some(format!(
                "{}: {}",
                a.name.name,
                a.sorts.iter().map(s).collect::<Vec<_>>().join(" # ")
            )),
            _ => None,
        })
        .collect();
    assert_eq!(acts, ["a: Nat # Bool", "b: Nat # Bool", "c: ", "d: Nat"]);
    let procs: Vec<String> = spec
        .decls
        .iter()
        .filter_map(|x| match x {
            Decl::Proc(q) => Some(format!(
                "{}/{} = {}",
                q.name.name,
                q.params.len(),
                p(&q.body)
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        procs,
        ["P/2 = (a(n, true) . P(n = (n + 1)))", "Q/0 = delta"]
    );
    assert!(spec
        .decls
        .iter()
        .any(|x| matches!(x, Decl::Glob(v) if &*v.name.name == "gx")));
}

#[test]
fn conditional_equation_with_full_condition() {
    let spec = parse_spec(&src(
        "map f: Nat -> Nat; var x: Nat; eqn x > 0 && x < 9 -> f(x) = 1; init delta;",
    ))
    .unwrap();
    let Decl::Eqns(sec) = &spec.decls[1] else {
        panic!("equation section expected")
    };
    assert_eq!(
        d(sec.eqns[0].condition.as_ref().unwrap()),
        "((x > 0) && (x < 9))"
    );
}

#[test]
fn state_formula_priorities() {
    assert_eq!(form("[a . b*]false"), "([(a . (b)*)]false)");
    assert_eq!(form("<a+>true"), "(<(a)+>true)");
    assert_eq!(form("<a + b>true"), "(<(a + b)>true)");
    assert_eq!(form("<a+ . b>true"), "(<((a)+ . b)>true)");
    assert_eq!(form("[a . b . c]false"), "([(a . (b . c))]false)");
    assert_eq!(form("[a + b + c]false"), "([((a + b) + c)]false)");
    assert_eq!(form("[nil + a]false"), "([(nil + a)]false)");
    assert_eq!(form("[true*]<true>true"), "([(true)*](<true>true))");
    assert_eq!(form("[a]X && Y"), "(([a]X()) && Y())");
    assert_eq!(form("!X && Y"), "((!X()) && Y())");
    assert_eq!(form("X => Y => Z"), "(X() => (Y() => Z()))");
    assert_eq!(form("X || Y && Z"), "(X() || (Y() && Z()))");
    assert_eq!(form("mu X . Y && X"), "(mu X() . (Y() && X()))");
    assert_eq!(
        form("nu X(n: Nat = 0, b: Bool = true) . [a(n)]X(n + 1, !b)"),
        "(nu X(n: Nat = 0, b: Bool = true) . ([a(n)]X((n + 1), (!b))))"
    );
    assert_eq!(
        form("forall d: D . [r(d)]mu Y . val(d > 1) || Y"),
        "(forall 1 . ([r(d)](mu Y() . (val((d > 1)) || Y()))))"
    );
    assert_eq!(
        form("[!(exists i: Nat . leave(i))*]false"),
        "([((!(exists 1 . leave(i))))*]false)"
    );
    assert_eq!(
        form("<exists b: Bool . wish(i)|set_flag(i, b) || tau>true"),
        "(<(exists 1 . (wish(i)|set_flag(i, b) || tau))>true)"
    );
    assert_eq!(form("[(a . b)+]false"), "([((a . b))+]false)");
    assert_eq!(
        form("[val(x < 3) && !a => b]false"),
        "([((val((x < 3)) && (!a)) => b)]false)"
    );
}

#[test]
fn formula_files_with_declarations() {
    let f = parse_formula_spec(&src(
        "sort S = struct s1 | s2; map m: S -> Bool; act a: S;\nform [a(s1)]val(m(s2));\n",
    ))
    .unwrap();
    assert_eq!(f.decls.len(), 3);
    assert_eq!(sf(&f.formula), "([a(s1)]val(m(s2)))");
    // A lone formula may end with `;`.
    assert_eq!(form("true;"), "true");
}

#[test]
fn textual_pbes() {
    let pb = parse_pbes(&src("sort D = struct d1 | d2;\nglob g: Nat;\n\
         pbes nu X(n: Nat, b: Bool) = (val(n < 3) && X(n + 1, !b)) || forall d: D . Y(d);\n\
         mu Y(d: D) = Y(d) || b(d) => !val(d == d1);\n\
         init X(0, true);"))
    .unwrap();
    assert_eq!(pb.equations.len(), 2);
    assert_eq!(pb.equations[0].fixpoint, FixpointKind::Nu);
    assert_eq!(pb.equations[0].var.params.len(), 2);
    assert_eq!(pb.equations[1].fixpoint, FixpointKind::Mu);
    assert!(matches!(pb.equations[1].rhs.kind, PbesExprKind::Imp(..)));
    assert_eq!(&*pb.init.name.name, "X");
    assert_eq!(pb.init.args.len(), 2);
    assert_eq!(pb.decls.len(), 2);
    assert!(parse_pbes(&src("pbes mu X = X; init X;")).is_ok());
}

#[test]
fn spans_cover_constructs() {
    let t = "init a . (b + c);";
    let spec = parse_spec(&src(t)).unwrap();
    let body = &spec.init().unwrap().body;
    assert_eq!(
        &t[body.span.start as usize..body.span.end as usize],
        "a . (b + c)"
    );
    let ProcExprKind::Seq(_, rhs) = &body.kind else {
        panic!("sequence expected")
    };
    assert_eq!(&t[rhs.span.start as usize..rhs.span.end as usize], "b + c");
}

#[test]
fn unsupported_constructs_have_their_own_kind() {
    for t in [
        "act a; init a @ 3;",
        "act a; init a << a;",
        "act a; init dist x: Bool [1/2] . a;",
    ] {
        let e = parse_spec(&src(t)).unwrap_err();
        assert_eq!(e.kind(), SyntaxErrorKind::Unsupported, "{t}");
    }
    for t in [
        "delay",
        "[a]yaled@3",
        "<a@2>true",
        "sup x: Nat . val(x < 2)",
    ] {
        let e = parse_formula_spec(&src(t)).unwrap_err();
        assert_eq!(e.kind(), SyntaxErrorKind::Unsupported, "{t}");
        assert!(
            e.message().contains("not supported"),
            "{t}: {}",
            e.message()
        );
    }
}

#[test]
fn deep_nesting_is_rejected_not_overflowing() {
    let n = 100_000;
    let deep = format!("{}x{}", "(".repeat(n), ")".repeat(n));
    let e = parse_data_expr(&src(&deep)).unwrap_err();
    assert_eq!(e.kind(), SyntaxErrorKind::TooDeep);
    let bangs = format!("{}x", "!".repeat(n));
    let e = parse_data_expr(&src(&bangs)).unwrap_err();
    assert_eq!(e.kind(), SyntaxErrorKind::TooDeep);
    let chain = format!("init {}a;", "a . ".repeat(n));
    let e = parse_spec(&src(&chain)).unwrap_err();
    assert_eq!(e.kind(), SyntaxErrorKind::TooDeep);
    let imp = format!("{}b", "b => ".repeat(n));
    let e = parse_data_expr(&src(&imp)).unwrap_err();
    assert_eq!(e.kind(), SyntaxErrorKind::TooDeep);
    // Moderate nesting is fine.
    let ok = format!("{}x{}", "(".repeat(500), ")".repeat(500));
    assert!(parse_data_expr(&src(&ok)).is_ok());
    let ok = format!("init {}a;", "a + ".repeat(5000));
    assert!(parse_spec(&src(&ok)).is_ok());
}
