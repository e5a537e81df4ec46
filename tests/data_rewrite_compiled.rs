//! The compiled equations against the interpreter (the reference): random closed terms over
//! the data specifications of the seed models and the rewriting benchmarks get the same
//! normal form (the same `TermId` in the shared store) both ways.

use std::path::Path;

use muon::data::ir::{DataExpr, DataSpec, Func, Sort, SortDef};
use muon::data::{RewriteErrorKind, Rewriter};
use muon::process::typecheck::check_specification;
use muon::source::SourceFile;
use num_bigint::BigInt;
use proptest::prelude::*;

/// A small deterministic generator (the case's seed comes from proptest).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

/// The user symbols of a specification that random terms are built from.
struct Symbols {
    funcs: Vec<Func>,
    sorts: Vec<Sort>,
}

fn symbols(data: &DataSpec) -> Symbols {
    let mut funcs: Vec<Func> = data.mappings.iter().map(|d| d.func.clone()).collect();
    funcs.extend(data.constructors.iter().map(|d| d.func.clone()));
    let mut sorts = vec![Sort::Bool, Sort::Pos, Sort::Nat, Sort::Int];
    for d in &data.sorts {
        let sort = Sort::Named(d.name.clone());
        if matches!(d.def, SortDef::Struct(_)) {
            funcs.extend(data.constructors_of(&sort));
        }
        sorts.push(sort);
    }
    for f in &funcs {
        for s in f.sort.domain().iter().chain([f.sort.codomain()]) {
            if !sorts.contains(s) {
                sorts.push(s.clone());
            }
        }
    }
    Symbols { funcs, sorts }
}

/// A leaf of `sort` that needs no symbol of the specification.
fn literal(sort: &Sort, rng: &mut Rng) -> Option<DataExpr> {
    let number = |v: usize| DataExpr::Number {
        value: BigInt::from(v),
        sort: sort.clone(),
    };
    Some(match sort {
        Sort::Bool => DataExpr::Func(Func {
            name: if rng.below(2) == 0 { "true" } else { "false" }.into(),
            sort: Sort::Bool,
        }),
        Sort::Pos => number(1 + rng.below(3)),
        Sort::Nat | Sort::Int => number(rng.below(5)),
        Sort::List(_) => DataExpr::Func(Func {
            name: "[]".into(),
            sort: sort.clone(),
        }),
        _ => return None,
    })
}

/// A random closed, well-sorted term of `sort` of at most `depth` applications.
fn term(sy: &Symbols, sort: &Sort, depth: usize, rng: &mut Rng) -> Option<DataExpr> {
    let mut cands: Vec<&Func> = sy
        .funcs
        .iter()
        .filter(|f| f.sort.codomain() == sort)
        .collect();
    if depth == 0 {
        cands.retain(|f| f.sort.domain().is_empty());
    }
    let lit = literal(sort, rng);
    // Lists: `e |> l` besides the user's symbols.
    if let (Sort::List(el), true) = (sort, depth > 0) {
        if rng.below(3) == 0 {
            let h = term(sy, el, depth - 1, rng)?;
            let t = term(sy, sort, depth - 1, rng)?;
            let cons = Func {
                name: "|>".into(),
                sort: Sort::Arrow(vec![(**el).clone(), sort.clone()], Box::new(sort.clone())),
            };
            return Some(DataExpr::App {
                head: Box::new(DataExpr::Func(cons)),
                args: vec![h, t],
            });
        }
    }
    if cands.is_empty() || (lit.is_some() && rng.below(4) == 0) {
        return lit;
    }
    let f = cands[rng.below(cands.len())].clone();
    if f.sort.domain().is_empty() {
        return Some(DataExpr::Func(f));
    }
    let mut args = Vec::new();
    for s in f.sort.domain() {
        match term(sy, s, depth.saturating_sub(1), rng) {
            Some(a) => args.push(a),
            None => return lit,
        }
    }
    Some(DataExpr::App {
        head: Box::new(DataExpr::Func(f)),
        args,
    })
}

/// Rewrites `terms` random terms of `spec` both ways; returns how many both decided.
fn agree(spec: &Path, seed: u64, terms: usize, max_depth: usize) -> usize {
    let text = std::fs::read_to_string(spec).expect("readable specification");
    let src = SourceFile::new(spec.display().to_string(), text);
    let data = check_specification(&src).expect("well-typed").data;
    let sy = symbols(&data);
    let store = muon::data::TermStore::new();
    let mut compiled = Rewriter::new(&data, &store).expect("equations compile");
    let mut interp = compiled.clone();
    interp.set_compiled(false);
    let mut rng = Rng(seed | 1);
    let mut decided = 0;
    for _ in 0..terms {
        let sort = sy.sorts[rng.below(sy.sorts.len())].clone();
        let Some(e) = term(&sy, &sort, 1 + rng.below(max_depth), &mut rng) else {
            continue;
        };
        let t = compiled.term(&e).expect("converts");
        let (a, b) = (compiled.rewrite(t), interp.rewrite(t));
        // The two paths use different stack frames: a term at the recursion limit may
        // exceed it one way only.
        if !too_deep(&a) && !too_deep(&b) {
            assert_eq!(a, b, "{}: {e:?}", spec.display());
            decided += 1;
        }
    }
    decided
}

/// Whether rewriting stopped at the recursion limit.
fn too_deep<T>(r: &Result<T, muon::data::RewriteError>) -> bool {
    let limit = |e: &muon::data::RewriteError| matches!(e.kind(), RewriteErrorKind::TooDeep { .. });
    r.as_ref().err().is_some_and(limit)
}

/// The specifications with user equations that ship with the repository.
fn specs() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["lps", "scripts/rewrite-specs"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("directory exists")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "mcrl2"))
            .collect();
        files.sort();
        out.extend(files);
    }
    assert!(
        out.len() >= 10,
        "the seed models and rewrite specs are present"
    );
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    /// Every spec: random terms have one normal form, compiled or interpreted.
    #[test]
    fn compiled_equations_agree_with_the_interpreter(seed in any::<u64>()) {
        let mut decided = 0;
        for spec in specs() {
            // The rewriting benchmarks are meant to be expensive: nested, their arguments
            // grow (`full(next(4))` is a tree of 2^224 nodes), so they get one level of
            // application over literals (`full(4)`, `fib(3)`); the models' data gets three.
            let benchmark = spec.parent().is_some_and(|d| d.ends_with("rewrite-specs"));
            decided += agree(&spec, seed, 25, if benchmark { 1 } else { 3 });
        }
        prop_assert!(decided > 60, "too few terms decided: {}", decided);
    }
}

/// mCRL2's normal forms of `fixtures/data/jitty_lazy.mcrl2` (terms whose innermost
/// rewriting does not terminate) by the compiled equations and by the interpreter: both
/// follow the strategy that leaves arguments alone until they are needed.
#[test]
fn lazy_arguments_both_ways() {
    expectations_both_ways("fixtures/data/jitty_lazy.mcrl2", 12);
}

/// mCRL2's normal forms of `fixtures/data/compiled_calls.mcrl2` (calls of user functions
/// from right-hand sides, resolved when the equations are compiled) both ways.
#[test]
fn direct_calls_both_ways() {
    expectations_both_ways("fixtures/data/compiled_calls.mcrl2", 8);
}

/// The `% expect: EXPR = VALUE` lines of the fixture at `fixture` (at least `min`), by the
/// compiled equations and by the interpreter.
fn expectations_both_ways(fixture: &str, min: usize) {
    use muon::data::print::data_expr_to_string;
    use muon::data::typecheck::check_data_expr;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture);
    let text = std::fs::read_to_string(&path).expect("the fixture");
    let src = SourceFile::new(path.display().to_string(), text.clone());
    let data = check_specification(&src).expect("well-typed").data;
    let store = muon::data::TermStore::new();
    let mut compiled = Rewriter::new(&data, &store).expect("equations compile");
    let mut interp = compiled.clone();
    interp.set_compiled(false);
    let mut checked = 0;
    for line in text.lines().filter_map(|l| l.strip_prefix("% expect: ")) {
        let (expr, want) = line.rsplit_once(" = ").expect("EXPR = VALUE");
        let e = check_data_expr(&SourceFile::new("<expr>", expr), &data, &[]).expect("typed");
        for rw in [&mut compiled, &mut interp] {
            let t = rw.term(&e).expect("converts");
            let n = rw.rewrite(t).unwrap_or_else(|err| panic!("{expr}: {err}"));
            assert_eq!(data_expr_to_string(&rw.expr(n)), want, "{expr}");
        }
        checked += 1;
    }
    assert!(checked >= min, "the fixture's expectations");
}
