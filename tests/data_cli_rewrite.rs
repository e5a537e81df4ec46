//! End-to-end tests of `muon rewrite`: parser + type checker + data engine + printer.

#[cfg(feature = "corpus")]
#[path = "shared_corpus/mod.rs"]
mod shared_corpus;

use std::io::Write;
use std::process::Command;

fn muon(spec: Option<&str>, exprs: &[&str]) -> (bool, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_muon"));
    cmd.arg("rewrite");
    let file;
    if let Some(text) = spec {
        file = {
            let mut f = tempfile::Builder::new()
                .suffix(".mcrl2")
                .tempfile()
                .unwrap();
            f.write_all(text.as_bytes()).unwrap();
            f
        };
        cmd.arg("--spec").arg(file.path());
    }
    cmd.arg("--");
    cmd.args(exprs);
    let out = cmd.output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn lines(spec: Option<&str>, exprs: &[&str]) -> Vec<String> {
    let (ok, out, err) = muon(spec, exprs);
    assert!(ok, "muon rewrite failed: {err}");
    out.lines().map(str::to_string).collect()
}

#[test]
fn builtins_print_like_mcrl2() {
    let got = lines(
        None,
        &[
            "[1, 2] ++ [3]",
            "{3, 1, 3}",
            "{1: 3, 3: 1}",
            "-7 div 2",
            "-7 mod 2",
            "1/2 + 1/3",
            "2 - 5",
            "true && !false",
            "head(tail([1]))",
            "exp(2, 70)",
            "Nat2Pos(0)",
            "{x: Nat | x < 3}",
            "(lambda n: Nat. n * n)(12)",
            "x + y whr x = 2, y = 3 end",
        ],
    );
    assert_eq!(
        got,
        [
            "[1, 2, 3]",
            "{1, 3}",
            "{1: 3, 3: 1}",
            "-4",
            "1",
            "5 / 6",
            "-3",
            "true",
            "head([])",
            "1180591620717411303424",
            "Nat2Pos(0)",
            "{ x: Nat | x < 3 }",
            "144",
            "5",
        ]
    );
}

const SPEC: &str = r#"
sort Colour = struct red | green | blue;
     Pair = struct pair(fst: Nat, snd: Colour) ? is_pair;
     Tree = struct leaf | node(left: Tree, key: Nat, right: Tree);
map  fact: Nat -> Nat;
     same: Nat # Nat -> Bool;
     depth: Tree -> Nat;
     grow: Nat -> Tree;
     f: Nat -> Nat;
var  n, m: Nat;
     l, r: Tree;
eqn  fact(0) = 1;
     n > 0 -> fact(n) = n * fact(Int2Nat(n - 1));
     same(n, n) = true;
     depth(leaf) = 0;
     depth(node(l, n, r)) = 1 + max(depth(l), depth(r));
     grow(0) = leaf;
     n > 0 -> grow(n) = node(grow(Int2Nat(n - 1)), n, leaf);
     f(n) = n + 1;
act  a;
init a;
"#;

#[test]
fn user_specification() {
    let got = lines(
        Some(SPEC),
        &[
            "fact(25)",
            "same(2, 2)",
            "same(2, 3)",
            "red < blue",
            "pair(1, blue) < pair(2, red)",
            "pair(1, blue) < pair(1, green)",
            "snd(pair(1, blue))",
            "is_pair(pair(3, red))",
            "depth(grow(30))",
            "f[3 -> 7](3) + f[3 -> 7](4)",
            "exists c: Colour . c != red && c > green",
            "forall c: Colour . c == red || c == green",
            "exists n: Nat . n < 100 && fact(n) > 1000000",
        ],
    );
    assert_eq!(
        got,
        [
            "15511210043330985984000000",
            "true",
            "same(2, 3)",
            "true",
            "true",
            "false",
            "blue",
            "true",
            "30",
            "12",
            "true",
            "false",
            "true",
        ]
    );
}

#[test]
fn errors_are_reported_not_crashes() {
    // Over `Nat`, mCRL2's first values are tried (7 is among them) or the term stays; over
    // `Real`, which mCRL2 cannot enumerate, it stays (mcrl2i 202607.0 prints the same).
    let (ok, out, err) = muon(
        None,
        &[
            "exists n: Nat . n * n == 49",
            "exists n: Nat . n * n == 144",
            "exists r: Real . r < 0",
        ],
    );
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "true\nexists n: Nat. n * n == 144\nexists r: Real. r < 0\n"
    );
    // A type error in the expression.
    let (ok, _, err) = muon(None, &["1 + true"]);
    assert!(!ok);
    assert!(!err.is_empty());
    // Non-terminating equations: an error, not a stack overflow.
    let spec = "map loop: Nat -> Nat; var n: Nat; eqn loop(n) = loop(n + 1); act a; init a;";
    let (ok, _, err) = muon(Some(spec), &["loop(0)"]);
    assert!(!ok);
    assert!(err.contains("recursion limit"), "{err}");
}

/// Every corpus specification gets a rewriter: all its equations compile. The corpus has no
/// ill-typed specification, so one that does not type-check fails the test rather than
/// leaving it with less to compile.
#[cfg(feature = "corpus")]
#[test]
fn corpus_specifications_compile_into_rewriters() {
    let root = shared_corpus::dir();
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("cannot read the corpus folder {}: {e}", d.display()));
        for e in entries {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "mcrl2") {
                files.push(p);
            }
        }
    }
    assert!(!files.is_empty(), "no .mcrl2 file in the corpus");
    let mut compiled = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let src = muon::source::SourceFile::new(f.display().to_string(), text);
        let spec = muon::process::typecheck::check_specification(&src)
            .unwrap_or_else(|d| panic!("{}: {:?}", f.display(), d.messages()));
        let store = muon::data::TermStore::new();
        let rw = muon::data::Rewriter::new(&spec.data, &store);
        assert!(rw.is_ok(), "{}: {:?}", f.display(), rw.err());
        compiled += 1;
    }
    assert!(compiled > 0);
}

/// Set and bag values print as mCRL2 prints its `@set(f, s)` / `@bag(f, b)` normal forms:
/// `s`, `!s`, a comprehension, or `{ x: S | @swap_zero(f(x), count(x, b)) }` for bags.
#[test]
fn sets_and_bags_print_like_mcrl2() {
    let spec = "sort E = struct e1 | e2 | e3;\nact a;\ninit a;\n";
    let cases = [
        ("!!{e1}", "{e1}"),
        ("!{e1}", "!{e1}"),
        ("{e1} + !{e1}", "!{}"),
        ("!{e1, e2, e3} == {}", "true"),
        ("!{e1, e2} == {}", "false"),
        ("{e1} * !{e2}", "{e1}"),
        ("!{} - {e2}", "!{e2}"),
        ("{e1} < !{e2}", "true"),
        ("!{e2} <= {e1}", "false"),
        ("{x: E | x != e1}", "{ x: E | x != e1 }"),
        ("{x: E | x != e1} == {e2, e3}", "true"),
        ("e1 in {x: E | x != e1}", "false"),
        (
            "!{x: E | x != e1}",
            "{ x1: E | @not_(lambda x: E. x != e1)(x1) }",
        ),
        (
            "{x: E | x != e1} + {e1}",
            "{ x1: E | (lambda x: E. x != e1)(x1) != x1 in {e1} }",
        ),
        ("{e1: 2, e2: 1} + {e1: 1, e3: 4}", "{e1: 3, e2: 1, e3: 4}"),
        ("{e1: 2, e2: 1} - {e1: 1, e3: 4}", "{e1: 1, e2: 1}"),
        ("{e1: 2, e2: 1} * {e1: 1, e3: 4}", "{e1: 1}"),
        ("Set2Bag({e1, e3})", "{e1: 1, e3: 1}"),
        ("Bag2Set({e1: 3})", "{e1}"),
        (
            "Set2Bag(!{e1})",
            "{ x: E | @swap_zero(1, count(x, {e1: 1})) }",
        ),
        (
            "Set2Bag(!{e1}) + Set2Bag(!{e1})",
            "{ x: E | @swap_zero(@add_(@one_, @one_)(x), count(x, {e1: 2})) }",
        ),
        ("count(e2, Set2Bag(!{e1}) + Set2Bag(!{e1}))", "2"),
        ("Bag2Set(Set2Bag(!{e1}))", "!{e1}"),
    ];
    let exprs: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let want: Vec<&str> = cases.iter().map(|c| c.1).collect();
    assert_eq!(lines(Some(spec), &exprs), want);
}

/// The `% expect: EXPR = VALUE` lines of a fixture.
fn expectations(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("% expect: "))
        .map(|l| {
            let (e, v) = l.rsplit_once(" = ").expect("EXPR = VALUE");
            (e.to_string(), v.to_string())
        })
        .collect()
}

/// Overlapping equations are tried in mCRL2's JITty order (not declaration order): the
/// normal forms mCRL2's `lps2lts` gives, through `muon rewrite` and through `muon lps2lts`.
#[test]
fn overlapping_equations_follow_mcrl2_order() {
    normal_forms_as_mcrl2("fixtures/data/jitty_order.mcrl2", 15);
}

/// Arguments are rewritten only where mCRL2's JITty strategy rewrites them: terms whose
/// innermost rewriting does not terminate have mCRL2's normal forms, through `muon rewrite`
/// and through `muon lps2lts`, by the compiled equations and by the interpreter alike.
#[test]
fn lazy_arguments_follow_mcrl2_strategy() {
    normal_forms_as_mcrl2("fixtures/data/jitty_lazy.mcrl2", 12);
}

/// A call of a user function from a compiled right-hand side goes straight to the callee's
/// equations: mCRL2's normal forms where one applies, where none does, where the callee
/// is defined by an equation of its own (`k = lambda …`), and where an argument the strategy
/// leaves alone is passed on (rewritten before the call or not).
#[test]
fn calls_from_right_hand_sides_as_mcrl2() {
    normal_forms_as_mcrl2("fixtures/data/compiled_calls.mcrl2", 8);
}

/// Quantifiers over `FSet(S)`, `Set(S)`, function sorts and structs with such fields, `S`
/// finite, are decided by enumerating every value, as mCRL2's enumerator does; `pick` of a
/// finite set or bag is its least element.
#[test]
fn quantifiers_over_finite_sets_and_functions_and_pick_as_mcrl2() {
    normal_forms_as_mcrl2("fixtures/data/finite_sorts.mcrl2", 17);
    // `pick` of an empty set stays, as in mCRL2.
    let spec = "sort A = struct a1 | a2;\nact a;\ninit a;\n";
    assert_eq!(
        lines(Some(spec), &["pick({}) == a1", "pick({a2: 0})"]),
        ["pick({}) == a1", "pick({:})"]
    );
}

/// The normal forms pinned by the `% expect:` lines of the fixture at `path` (at least
/// `min` of them), by `muon rewrite` and as the labels of `muon lps2lts`.
fn normal_forms_as_mcrl2(path: &str, min: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let want = expectations(&text);
    assert!(want.len() >= min, "the fixture's expectations");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_muon"));
    cmd.args(["rewrite", "--spec", path, "--"]);
    cmd.args(want.iter().map(|(e, _)| e));
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    let values: Vec<String> = want.iter().map(|(_, v)| v.clone()).collect();
    assert_eq!(got, values, "normal forms of {want:?}");
    // The same through linearisation and exploration: the labels in the order of the trace.
    let dir = tempfile::tempdir().unwrap();
    let lps = dir.path().join("order.lps");
    let aut = dir.path().join("order.aut");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_muon"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(&["mcrl22lps", path, lps.to_str().unwrap()]);
    run(&["lps2lts", lps.to_str().unwrap(), aut.to_str().unwrap()]);
    let labels: Vec<String> = std::fs::read_to_string(&aut)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split('"').nth(1).unwrap().to_string())
        .filter(|l| l != "Terminate")
        .collect();
    let want_labels: Vec<String> = values.iter().map(|v| format!("o({v})")).collect();
    assert_eq!(labels, want_labels);
}

/// Every row of `fixtures/data/mcrl2i.tsv`: muon prints the normal form mCRL2's `mcrl2i`
/// printed (literals typed by their context, partial functions stuck in mCRL2's shape,
/// random expressions of every sort from `scripts/differential-data`).
#[test]
fn normal_forms_are_mcrl2i_s() {
    let root = env!("CARGO_MANIFEST_DIR");
    let spec = std::fs::read_to_string(format!("{root}/fixtures/data/mcrl2i_spec.mcrl2")).unwrap();
    let table = std::fs::read_to_string(format!("{root}/fixtures/data/mcrl2i.tsv")).unwrap();
    let rows: Vec<(&str, &str)> = table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split_once('\t').expect("expression TAB normal form"))
        .collect();
    assert!(rows.len() > 1000, "only {} rows", rows.len());
    let mut wrong = Vec::new();
    for chunk in rows.chunks(200) {
        let exprs: Vec<&str> = chunk.iter().map(|r| r.0).collect();
        let got = lines(Some(&spec), &exprs);
        assert_eq!(got.len(), chunk.len(), "one line per expression");
        for ((e, want), got) in chunk.iter().zip(&got) {
            if got != want {
                wrong.push(format!("{e}\n  mCRL2: {want}\n  muon:  {got}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} differ:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}
