//! Subsorting, upcasts, overload resolution and literal typing of the data type checker.

use muon::data::ir::{Binder, DataExpr, Func, Sort, Var};
use muon::data::typecheck::check_data_expr;
use muon::process::ir::ProcSpec;
use muon::process::typecheck::check_specification;
use muon::source::SourceFile;

const SPEC: &str = "
sort D = struct d1 | d2;
map f: Nat -> Nat;
    g: Pos # Nat -> Bool;
    g: Nat # Pos -> Bool;
    h: Int -> Bool;
    h: Nat -> Bool;
act a;
init a;
";

fn spec() -> ProcSpec {
    check_specification(&SourceFile::new("units.mcrl2", SPEC)).expect("unit spec type-checks")
}

fn var(name: &str, sort: Sort) -> Var {
    Var {
        name: name.into(),
        sort,
    }
}

fn vars() -> Vec<Var> {
    vec![
        var("n", Sort::Nat),
        var("p", Sort::Pos),
        var("i", Sort::Int),
        var("r", Sort::Real),
        var("b", Sort::Bool),
        var("l", Sort::List(Box::new(Sort::Nat))),
        var("s", Sort::Set(Box::new(Sort::Nat))),
        var("fs", Sort::FSet(Box::new(Sort::Nat))),
        var("bg", Sort::Bag(Box::new(Sort::Nat))),
        var("fn_", Sort::Arrow(vec![Sort::Nat], Box::new(Sort::Bool))),
    ]
}

fn check(text: &str) -> DataExpr {
    let spec = spec();
    check_data_expr(&SourceFile::new("<expr>", text), &spec.data, &vars())
        .unwrap_or_else(|d| panic!("`{text}` should type-check: {:?}", d.messages()))
}

fn check_err(text: &str) -> String {
    let spec = spec();
    match check_data_expr(&SourceFile::new("<expr>", text), &spec.data, &vars()) {
        Ok(e) => panic!("`{text}` should not type-check, got {e:?}"),
        Err(d) => d
            .messages()
            .into_iter()
            .map(|(_, _, m)| m)
            .collect::<Vec<_>>()
            .join("; "),
    }
}

/// The head function of an application.
fn head(e: &DataExpr) -> &Func {
    match e {
        DataExpr::App { head, .. } => match &**head {
            DataExpr::Func(f) => f,
            h => panic!("head is not a function: {h:?}"),
        },
        e => panic!("not an application: {e:?}"),
    }
}

fn args(e: &DataExpr) -> &[DataExpr] {
    match e {
        DataExpr::App { args, .. } => args,
        e => panic!("not an application: {e:?}"),
    }
}

fn arrow(d: &[Sort], c: Sort) -> Sort {
    Sort::Arrow(d.to_vec(), Box::new(c))
}

#[test]
fn nat_plus_one_is_the_most_specific_plus() {
    // mCRL2 picks `+: Nat # Pos -> Pos`: the sum of a Nat and a positive literal is positive.
    let e = check("n + 1");
    assert_eq!(head(&e).sort, arrow(&[Sort::Nat, Sort::Pos], Sort::Pos));
    assert_eq!(e.sort(), Sort::Pos);
}

#[test]
fn nat_minus_one_is_an_int() {
    let e = check("n - 1");
    assert_eq!(head(&e).sort, arrow(&[Sort::Nat, Sort::Nat], Sort::Int));
    // The literal gets the sort the signature needs, without a Pos2Nat.
    assert!(matches!(
        &args(&e)[1],
        DataExpr::Number {
            sort: Sort::Nat,
            ..
        }
    ));
}

#[test]
fn negative_literal_is_an_int() {
    let e = check("-1");
    assert_eq!(head(&e).sort, arrow(&[Sort::Pos], Sort::Int));
    assert_eq!(e.sort(), Sort::Int);
}

#[test]
fn mixed_arithmetic_upcasts_explicitly() {
    let e = check("p + i");
    assert_eq!(head(&e).sort, arrow(&[Sort::Int, Sort::Int], Sort::Int));
    assert_eq!(head(&args(&e)[0]).name.as_ref(), "Pos2Int");
    let e = check("n * r");
    assert_eq!(head(&e).sort, arrow(&[Sort::Real, Sort::Real], Sort::Real));
    assert_eq!(head(&args(&e)[0]).name.as_ref(), "Nat2Real");
}

#[test]
fn equality_joins_the_argument_sorts() {
    let e = check("p == 0");
    assert_eq!(head(&e).sort, arrow(&[Sort::Nat, Sort::Nat], Sort::Bool));
    assert_eq!(head(&args(&e)[0]).name.as_ref(), "Pos2Nat");
    let e = check("n == -1");
    assert_eq!(head(&e).sort, arrow(&[Sort::Int, Sort::Int], Sort::Bool));
}

#[test]
fn division_signatures_follow_mcrl2() {
    let e = check("1 / 2");
    assert_eq!(head(&e).sort, arrow(&[Sort::Pos, Sort::Pos], Sort::Real));
    let e = check("i div 2");
    assert_eq!(head(&e).sort, arrow(&[Sort::Int, Sort::Pos], Sort::Int));
    let e = check("i mod 2");
    assert_eq!(e.sort(), Sort::Nat);
    let e = check("max(p, n)");
    assert_eq!(head(&e).sort, arrow(&[Sort::Pos, Sort::Nat], Sort::Pos));
}

#[test]
fn literal_takes_the_parameter_sort() {
    let e = check("f(3)");
    assert!(matches!(
        &args(&e)[0],
        DataExpr::Number {
            sort: Sort::Nat,
            ..
        }
    ));
}

#[test]
fn user_overloads_pick_the_most_specific() {
    let e = check("h(3)");
    assert_eq!(head(&e).sort, arrow(&[Sort::Nat], Sort::Bool));
    let e = check("h(-3)");
    assert_eq!(head(&e).sort, arrow(&[Sort::Int], Sort::Bool));
    let e = check("g(p, n)");
    assert_eq!(head(&e).sort, arrow(&[Sort::Pos, Sort::Nat], Sort::Bool));
}

#[test]
fn incomparable_overloads_are_ambiguous() {
    let m = check_err("g(1, 1)");
    assert!(m.contains("ambiguous"), "{m}");
}

#[test]
fn empty_list_takes_its_sort_from_the_other_argument() {
    let e = check("l ++ []");
    let nat_list = Sort::List(Box::new(Sort::Nat));
    assert_eq!(
        args(&e)[1],
        DataExpr::Func(Func {
            name: "[]".into(),
            sort: nat_list.clone()
        })
    );
    assert_eq!(e.sort(), nat_list);
    let e = check("[] ++ l");
    assert_eq!(e.sort(), Sort::List(Box::new(Sort::Nat)));
}

#[test]
fn list_enumeration_elements_take_the_needed_sort() {
    let e = check("n in [1, 2]");
    assert_eq!(
        head(&e).sort,
        arrow(&[Sort::Nat, Sort::List(Box::new(Sort::Nat))], Sort::Bool)
    );
    match &args(&e)[1] {
        DataExpr::ListEnum { elems, .. } => {
            assert!(elems.iter().all(|x| matches!(
                x,
                DataExpr::Number {
                    sort: Sort::Nat,
                    ..
                }
            )))
        }
        x => panic!("{x:?}"),
    }
    assert_eq!(check("[1, 2]").sort(), Sort::List(Box::new(Sort::Pos)));
    assert_eq!(check("[1, -2]").sort(), Sort::List(Box::new(Sort::Int)));
}

#[test]
fn empty_set_and_bag_from_context() {
    let e = check("s + {}");
    assert_eq!(args(&e)[1].sort(), Sort::Set(Box::new(Sort::Nat)));
    let e = check("fs + {}");
    assert_eq!(args(&e)[1].sort(), Sort::FSet(Box::new(Sort::Nat)));
    let e = check("bg + {:}");
    assert_eq!(args(&e)[1].sort(), Sort::Bag(Box::new(Sort::Nat)));
    // `{}` for an empty bag, as older mCRL2 versions wrote it.
    let e = check("bg + {}");
    assert_eq!(args(&e)[1].sort(), Sort::Bag(Box::new(Sort::Nat)));
    let e = check("s + {3}");
    assert_eq!(args(&e)[1].sort(), Sort::Set(Box::new(Sort::Nat)));
    assert_eq!(check("{1, 2}").sort(), Sort::FSet(Box::new(Sort::Pos)));
}

#[test]
fn comprehensions_binders_and_where() {
    let e = check("{ x: Nat | x < 3 }");
    assert!(matches!(
        e,
        DataExpr::Binder {
            kind: Binder::SetComprehension,
            ..
        }
    ));
    let e = check("{ x: D | 2 }");
    assert_eq!(e.sort(), Sort::Bag(Box::new(Sort::Named("D".into()))));
    let e = check("forall x: Nat . x + 1 > 0");
    assert_eq!(e.sort(), Sort::Bool);
    let e = check("lambda x: Nat . x + 1");
    assert_eq!(e.sort(), arrow(&[Sort::Nat], Sort::Pos));
    let e = check("y + 1 whr y = n end");
    assert_eq!(e.sort(), Sort::Pos);
    let m = check_err("exists x: Nat . x + 1");
    assert!(m.contains("Bool"), "{m}");
}

#[test]
fn function_update_and_application_of_variables() {
    let e = check("fn_[3 -> true]");
    assert_eq!(head(&e).name.as_ref(), "@func_update");
    assert_eq!(e.sort(), arrow(&[Sort::Nat], Sort::Bool));
    let e = check("fn_(2)");
    assert_eq!(e.sort(), Sort::Bool);
    let e = check("fn_[3 -> true](2)");
    assert_eq!(e.sort(), Sort::Bool);
}

#[test]
fn conditionals_and_struct_functions() {
    assert_eq!(check("if(b, 1, -1)").sort(), Sort::Int);
    assert_eq!(check("if(b, d1, d2)").sort(), Sort::Named("D".into()));
    assert_eq!(check("head(l) + 1").sort(), Sort::Pos);
    assert_eq!(check("#l").sort(), Sort::Nat);
    assert_eq!(check("l . 0").sort(), Sort::Nat);
}

#[test]
fn errors_name_the_problem() {
    assert!(check_err("n + true").contains("no `+` takes arguments of sorts Nat # Bool"));
    assert!(check_err("nn + 1").contains("unknown name `nn`"));
    assert!(check_err("f(1, 2)").contains("not a function of 2 arguments"));
}

#[test]
fn empty_containers_without_context_are_accepted_as_in_mcrl2() {
    // mCRL2 202607.0 gives them an untyped element sort; muon's default is Bool.
    for text in ["[] == []", "#{}", "{:} == {:}", "[] . 2"] {
        check(text);
    }
    let eq = check("[] == []");
    assert_eq!(
        head(&eq).sort,
        Sort::Arrow(
            vec![Sort::List(Box::new(Sort::Bool)); 2],
            Box::new(Sort::Bool)
        )
    );
}

#[test]
fn finite_containers_are_converted_where_sets_and_bags_are_needed() {
    let set = Sort::Set(Box::new(Sort::Nat));
    let e = check("s + fs");
    assert_eq!(
        head(&e).sort,
        arrow(&[set.clone(), set.clone()], set.clone())
    );
    assert_eq!(head(&args(&e)[1]).name.as_ref(), "@setfset");
    let e = check("fs + fs");
    assert_eq!(e.sort(), Sort::FSet(Box::new(Sort::Nat)));
    let e = check("Set2Bag(fs)");
    assert_eq!(e.sort(), Sort::Bag(Box::new(Sort::Nat)));
}

#[test]
fn redeclaring_a_builtin_function_is_rejected_as_in_mcrl2() {
    // mCRL2 202607.0: "Attempt to redeclare a system function with a function max."
    let d = check_specification(&SourceFile::new(
        "redecl.mcrl2",
        "map max: Nat # Nat -> Nat; head: List(Bool) -> Bool;\nact a: Nat;\ninit a(max(1, 2) + head([1, 2]));",
    ))
    .expect_err("mCRL2 rejects maps named like built-in functions");
    let msgs = d.messages();
    assert!(
        msgs.iter()
            .any(|(_, _, m)| m.contains("the map `max` redeclares the built-in function max")),
        "{msgs:?}"
    );
    assert!(
        msgs.iter()
            .any(|(_, _, m)| m.contains("the map `head` redeclares the built-in function head")),
        "{msgs:?}"
    );
}

#[test]
fn deeply_nested_binders_and_applications_stay_fast() {
    // Each level is typed bottom-up once and top-down once; without memoisation of the
    // bottom-up pass this nesting would take 2^depth steps.
    let depth = 30;
    let mut e = String::from("b");
    for k in 0..depth {
        e = format!("h(if(exists x{k}: Nat . x{k} == 1 && {e}, 1, 2))");
    }
    // A hang guard, not a speed test: 2^30 steps take hours, the memoised typing
    // milliseconds. (Speed is measured by scripts/, never here.)
    let start = std::time::Instant::now();
    assert_eq!(check(&e).sort(), Sort::Bool);
    assert!(
        start.elapsed().as_secs() < 120,
        "took {:?}",
        start.elapsed()
    );
    let mut sum = String::from("n");
    for _ in 0..300 {
        sum = format!("({sum} + 1)");
    }
    assert_eq!(check(&sum).sort(), Sort::Pos);
}

#[test]
fn declarations_repeated_identically_are_one_declaration() {
    // As mCRL2 202607.0 (software_models/Treiber_DCAS repeats a whole data section).
    let ok = |t: &str| {
        check_specification(&SourceFile::new("dup.mcrl2", t)).unwrap_or_else(|e| panic!("{e:?}"))
    };
    let errs = |t: &str| -> Vec<String> {
        match check_specification(&SourceFile::new("dup.mcrl2", t)) {
            Ok(_) => Vec::new(),
            Err(e) => vec![format!("{e:?}")],
        }
    };
    let spec = ok("sort ID = struct p1 | p2;
sort ID = struct p1 | p2;
sort S;
sort S;
map N: Nat;
map N: Nat;
cons c: S;
cons c: S;
eqn N = 2;
act a: ID;
init a(p1);
");
    assert_eq!(
        spec.data
            .mappings
            .iter()
            .filter(|m| &*m.func.name == "N")
            .count(),
        1
    );
    assert_eq!(
        spec.data
            .constructors
            .iter()
            .filter(|m| &*m.func.name == "c")
            .count(),
        1
    );
    assert_eq!(
        spec.data.sorts.iter().filter(|d| &*d.name == "ID").count(),
        1
    );
    // A different definition stays an error, as in mCRL2.
    assert!(errs(
        "sort ID = struct p1 | p2;\nsort ID = struct p1 | p3;\nact a: ID;\ninit a(p1);\n"
    )
    .iter()
    .any(|e| e.contains("declared twice")));
}

/// A `whr` definition whose value leaves its sort open is rejected, as mCRL2 202607.0
/// rejects `x whr x = [] end` (`List(untyped_sort)`), also where the context would fix it.
#[test]
fn where_definitions_of_open_sort_are_rejected() {
    for text in ["(x whr x = [] end) == []", "#(x whr x = {} end) == 0"] {
        let m = check_err(text);
        assert!(m.contains("cannot be determined"), "{text}: {m}");
    }
    let e = check("(x whr x = [1] end) == []");
    assert_eq!(e.sort(), Sort::Bool);
}
