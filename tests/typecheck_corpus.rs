//! Every model and formula of the shared corpus (`../shared/corpus`) type-checks: each
//! `.mcrl2` on its own, each `.mcf` against its model as paired in `oracle.tsv`.
#![cfg(feature = "corpus")]

#[path = "shared_corpus/mod.rs"]
mod shared_corpus;

use std::path::{Path, PathBuf};

use muon::modal::typecheck::check_formula;
use muon::process::typecheck::check_specification;
use muon::source::SourceFile;

fn corpus() -> PathBuf {
    shared_corpus::dir()
}

/// The files under `dir` whose name ends in `.ext`; a folder that cannot be read fails the
/// test, as a missing corpus must not pass with nothing checked.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let rd = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read the corpus folder {}: {e}", dir.display()));
    for e in rd {
        let p = e
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
            .path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().and_then(|x| x.to_str()) == Some(ext) {
            out.push(p);
        }
    }
}

/// Fails unless `checked` covers every row of `oracle.tsv` that pairs a model with a formula
/// (and there is one): a loop that skipped rows must not pass for having checked fewer.
fn assert_every_formula_row_checked(oracle: &str, checked: usize) {
    let rows = oracle
        .lines()
        .skip(1)
        .filter(|l| l.split('\t').nth(1).is_some_and(|f| !f.is_empty()))
        .count();
    assert!(rows > 0, "oracle.tsv pairs no model with a formula");
    assert!(
        checked >= rows,
        "checked {checked} of the {rows} formula rows of oracle.tsv"
    );
}

fn load(root: &Path, rel: &str) -> SourceFile {
    let path = root.join(rel);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the corpus file {}: {e}", path.display()));
    SourceFile::new(rel, text)
}

#[test]
fn every_corpus_model_type_checks() {
    let root = corpus();
    let mut models = Vec::new();
    files(&root, "mcrl2", &mut models);
    models.sort();
    assert!(!models.is_empty(), "no .mcrl2 file in {}", root.display());
    let mut failures = Vec::new();
    for m in &models {
        let rel = m.strip_prefix(&root).unwrap().to_string_lossy().to_string();
        if let Err(d) = check_specification(&load(&root, &rel)) {
            failures.push(format!("{rel}: {:?}", d.messages()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_corpus_formula_type_checks_against_its_model() {
    let root = corpus();
    let oracle = std::fs::read_to_string(root.join("oracle.tsv")).expect("oracle.tsv");
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut spec_cache = std::collections::HashMap::new();
    for line in oracle.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (model, formula) = (cols[0], cols.get(1).copied().unwrap_or(""));
        if formula.is_empty() {
            continue;
        }
        let spec = spec_cache
            .entry(model.to_string())
            .or_insert_with(|| check_specification(&load(&root, model)).ok());
        let Some(spec) = spec else {
            failures.push(format!("{model}: model does not type-check"));
            continue;
        };
        checked += 1;
        if let Err(d) = check_formula(&load(&root, formula), spec) {
            failures.push(format!("{formula}: {:?}", d.messages()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_every_formula_row_checked(&oracle, checked);
}

mod round_trip {
    //! Printing the typed IR and checking the text again gives the same IR (spans aside).

    use super::*;
    use muon::pbes::ir::Pbes;
    use muon::pbes::typecheck::check_pbes;
    use muon::print::{pbes_to_string, proc_spec_to_string, state_formula_to_string};
    use muon::process::ir::ProcSpec;
    use muon::source::Span;

    /// The specification with every source span reset, so that IRs from different texts
    /// compare equal when they mean the same.
    pub fn without_spans(mut s: ProcSpec) -> ProcSpec {
        for d in &mut s.data.sorts {
            d.span = Span::default();
        }
        for f in s.data.constructors.iter_mut().chain(&mut s.data.mappings) {
            f.span = Span::default();
        }
        for e in &mut s.data.equations {
            e.span = Span::default();
        }
        for a in &mut s.actions {
            a.span = Span::default();
        }
        for p in &mut s.procs {
            p.span = Span::default();
        }
        s.init_span = Span::default();
        s
    }

    pub fn pbes_without_spans(mut p: Pbes) -> Pbes {
        for d in &mut p.data.sorts {
            d.span = Span::default();
        }
        for f in p.data.constructors.iter_mut().chain(&mut p.data.mappings) {
            f.span = Span::default();
        }
        for e in &mut p.data.equations {
            e.span = Span::default();
        }
        for e in &mut p.equations {
            e.span = Span::default();
        }
        p
    }

    /// Checks, prints, re-checks: the typed specification survives unchanged.
    pub fn spec_round_trips(name: &str, text: &str) -> Result<ProcSpec, String> {
        let first = check_specification(&SourceFile::new(name, text))
            .map_err(|d| format!("{name}: {:?}", d.messages()))?;
        let printed = proc_spec_to_string(&first);
        let second = check_specification(&SourceFile::new(
            format!("{name} (printed)"),
            printed.clone(),
        ))
        .map_err(|d| {
            format!(
                "{name}: printed text does not check: {:?}\n{printed}",
                d.messages()
            )
        })?;
        let (a, b) = (without_spans(first.clone()), without_spans(second));
        if a != b {
            return Err(format!(
                "{name}: IR differs after printing and re-checking\n{printed}"
            ));
        }
        Ok(first)
    }

    #[test]
    fn corpus_models_and_formulas_round_trip() {
        let root = corpus();
        let mut models = Vec::new();
        files(&root, "mcrl2", &mut models);
        models.sort();
        let mut failures = Vec::new();
        let mut specs = std::collections::HashMap::new();
        for m in &models {
            let rel = m.strip_prefix(&root).unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(m).unwrap();
            match spec_round_trips(&rel, &text) {
                Ok(s) => {
                    specs.insert(rel, s);
                }
                Err(e) => failures.push(e),
            }
        }
        let oracle = std::fs::read_to_string(root.join("oracle.tsv")).unwrap();
        let mut checked = 0;
        for line in oracle.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            let (model, formula) = (cols[0], cols.get(1).copied().unwrap_or(""));
            let (false, Some(spec)) = (formula.is_empty(), specs.get(model)) else {
                continue;
            };
            checked += 1;
            let first = match check_formula(&load(&root, formula), spec) {
                Ok(f) => f,
                Err(d) => {
                    failures.push(format!("{formula}: {:?}", d.messages()));
                    continue;
                }
            };
            let printed = state_formula_to_string(&first.formula);
            match check_formula(&SourceFile::new(formula, printed.clone()), spec) {
                Ok(second) if second == first => {}
                Ok(_) => failures.push(format!("{formula}: IR differs after printing\n{printed}")),
                Err(d) => failures.push(format!(
                    "{formula}: printed formula does not check: {:?}\n{printed}",
                    d.messages()
                )),
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
        assert_every_formula_row_checked(&oracle, checked);
    }

    fn fixture(name: &str) -> String {
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/typecheck")
                .join(name),
        )
        .unwrap()
    }

    #[test]
    fn well_typed_fixtures_round_trip() {
        spec_round_trips("well_typed.mcrl2", &fixture("well_typed.mcrl2")).unwrap();
        spec_round_trips("model.mcrl2", &fixture("model.mcrl2")).unwrap();
        let first = check_pbes(&SourceFile::new("pbes_ok.txt", fixture("pbes_ok.txt"))).unwrap();
        let printed = pbes_to_string(&first);
        let second = check_pbes(&SourceFile::new("printed", printed.clone()))
            .unwrap_or_else(|d| panic!("{:?}\n{printed}", d.messages()));
        assert_eq!(
            pbes_without_spans(first),
            pbes_without_spans(second),
            "{printed}"
        );
    }
}

mod well_sorted {
    //! The IR the checker produces is well sorted: every application's arguments have
    //! exactly the sorts of its head's domain (all upcasts explicit), enumerations' elements
    //! the element sort, conditions are Bool, actions and calls match their declarations.

    use super::*;
    use muon::data::ir::{Binder, DataExpr, Sort};
    use muon::modal::ir::{ActionFormula, RegFormula, StateFormula};
    use muon::process::ir::{Action, ProcExpr, ProcSpec};

    fn data(e: &DataExpr, errs: &mut Vec<String>) {
        match e {
            DataExpr::App { head, args } => {
                let dom = head.sort().domain().to_vec();
                let got: Vec<Sort> = args.iter().map(|a| a.sort()).collect();
                if dom != got {
                    errs.push(format!(
                        "application {e:?}: domain {dom:?}, arguments {got:?}"
                    ));
                }
                data(head, errs);
                for a in args {
                    data(a, errs);
                }
            }
            DataExpr::Number { sort, .. } => {
                if !sort.is_numeric() {
                    errs.push(format!("number of sort {sort:?}"));
                }
            }
            DataExpr::Binder { kind, vars, body } => {
                let want = match kind {
                    Binder::Forall | Binder::Exists | Binder::SetComprehension => Some(Sort::Bool),
                    Binder::BagComprehension => Some(Sort::Nat),
                    Binder::Lambda => None,
                };
                if let Some(w) = want {
                    if body.sort() != w {
                        errs.push(format!("binder body of sort {:?}", body.sort()));
                    }
                }
                if vars.is_empty() {
                    errs.push("binder without variables".into());
                }
                data(body, errs);
            }
            DataExpr::Whr { body, defs } => {
                for (v, x) in defs {
                    if v.sort != x.sort() {
                        errs.push(format!("where-definition {v:?} = {x:?}"));
                    }
                    data(x, errs);
                }
                data(body, errs);
            }
            DataExpr::ListEnum { elems, sort } | DataExpr::SetEnum { elems, sort } => {
                let el = match sort {
                    Sort::List(s) | Sort::Set(s) | Sort::FSet(s) => (**s).clone(),
                    s => {
                        errs.push(format!("enumeration of sort {s:?}"));
                        return;
                    }
                };
                for x in elems {
                    if x.sort() != el {
                        errs.push(format!("element {x:?} of {sort:?}"));
                    }
                    data(x, errs);
                }
            }
            DataExpr::BagEnum { elems, sort } => {
                for (x, n) in elems {
                    if n.sort() != Sort::Nat
                        || !matches!(sort, Sort::Bag(s) | Sort::FBag(s) if **s == x.sort())
                    {
                        errs.push(format!("bag element {x:?}: {n:?} of {sort:?}"));
                    }
                    data(x, errs);
                    data(n, errs);
                }
            }
            DataExpr::Var(_) | DataExpr::Func(_) => {}
        }
    }

    fn bool_data(e: &DataExpr, errs: &mut Vec<String>) {
        if e.sort() != Sort::Bool {
            errs.push(format!("condition {e:?} is not Bool"));
        }
        data(e, errs);
    }

    fn action(a: &Action, spec: &ProcSpec, errs: &mut Vec<String>) {
        if !spec
            .actions
            .iter()
            .any(|d| d.name == a.name && d.sorts == a.sorts)
        {
            errs.push(format!("action {a:?} not declared"));
        }
        let got: Vec<Sort> = a.args.iter().map(|x| x.sort()).collect();
        if got != a.sorts {
            errs.push(format!("action {a:?} arguments {got:?}"));
        }
        for x in &a.args {
            data(x, errs);
        }
    }

    fn proc(p: &ProcExpr, spec: &ProcSpec, errs: &mut Vec<String>) {
        match p {
            ProcExpr::Action(a) => action(a, spec, errs),
            ProcExpr::Call { proc: id, args } => {
                let want: Vec<Sort> = spec
                    .proc(*id)
                    .params
                    .iter()
                    .map(|v| v.sort.clone())
                    .collect();
                let got: Vec<Sort> = args.iter().map(|x| x.sort()).collect();
                if want != got {
                    errs.push(format!(
                        "call of {:?}: {want:?} vs {got:?}",
                        spec.proc(*id).name
                    ));
                }
                for x in args {
                    data(x, errs);
                }
            }
            ProcExpr::Sum { body, .. }
            | ProcExpr::Allow { body, .. }
            | ProcExpr::Block { body, .. }
            | ProcExpr::Hide { body, .. }
            | ProcExpr::Rename { body, .. }
            | ProcExpr::Comm { body, .. } => proc(body, spec, errs),
            ProcExpr::Choice(a, b)
            | ProcExpr::Seq(a, b)
            | ProcExpr::Sync(a, b)
            | ProcExpr::Par(a, b)
            | ProcExpr::LeftMerge(a, b) => {
                proc(a, spec, errs);
                proc(b, spec, errs);
            }
            ProcExpr::If { cond, then, else_ } => {
                bool_data(cond, errs);
                proc(then, spec, errs);
                if let Some(e) = else_ {
                    proc(e, spec, errs);
                }
            }
            ProcExpr::Tau | ProcExpr::Delta => {}
        }
    }

    fn act_formula(a: &ActionFormula, spec: &ProcSpec, errs: &mut Vec<String>) {
        match a {
            ActionFormula::MultiAction(acts) => acts.iter().for_each(|x| action(x, spec, errs)),
            ActionFormula::Val(d) => bool_data(d, errs),
            ActionFormula::Not(x) | ActionFormula::Forall(_, x) | ActionFormula::Exists(_, x) => {
                act_formula(x, spec, errs)
            }
            ActionFormula::And(x, y) | ActionFormula::Or(x, y) | ActionFormula::Imp(x, y) => {
                act_formula(x, spec, errs);
                act_formula(y, spec, errs);
            }
            ActionFormula::True | ActionFormula::False => {}
        }
    }

    fn reg(r: &RegFormula, spec: &ProcSpec, errs: &mut Vec<String>) {
        match r {
            RegFormula::Action(a) => act_formula(a, spec, errs),
            RegFormula::Seq(x, y) | RegFormula::Alt(x, y) => {
                reg(x, spec, errs);
                reg(y, spec, errs);
            }
            RegFormula::Star(x) | RegFormula::Plus(x) => reg(x, spec, errs),
            RegFormula::Nil => {}
        }
    }

    fn state(f: &StateFormula, spec: &ProcSpec, errs: &mut Vec<String>) {
        match f {
            StateFormula::Val(d) => bool_data(d, errs),
            StateFormula::Var { args, .. } => args.iter().for_each(|x| data(x, errs)),
            StateFormula::Mu(fv, b) | StateFormula::Nu(fv, b) => {
                for (v, x) in &fv.params {
                    if v.sort != x.sort() {
                        errs.push(format!("fixpoint parameter {v:?} = {x:?}"));
                    }
                    data(x, errs);
                }
                state(b, spec, errs);
            }
            StateFormula::Must(r, b) | StateFormula::May(r, b) => {
                reg(r, spec, errs);
                state(b, spec, errs);
            }
            StateFormula::Not(x) | StateFormula::Forall(_, x) | StateFormula::Exists(_, x) => {
                state(x, spec, errs)
            }
            StateFormula::And(x, y) | StateFormula::Or(x, y) | StateFormula::Imp(x, y) => {
                state(x, spec, errs);
                state(y, spec, errs);
            }
            StateFormula::True | StateFormula::False => {}
        }
    }

    fn spec_errors(spec: &ProcSpec) -> Vec<String> {
        let mut errs = Vec::new();
        for e in &spec.data.equations {
            if e.lhs.sort() != e.rhs.sort() {
                errs.push(format!(
                    "equation sides {:?} / {:?}",
                    e.lhs.sort(),
                    e.rhs.sort()
                ));
            }
            data(&e.lhs, &mut errs);
            data(&e.rhs, &mut errs);
            if let Some(c) = &e.condition {
                bool_data(c, &mut errs);
            }
        }
        for p in &spec.procs {
            proc(&p.body, spec, &mut errs);
        }
        proc(&spec.init, spec, &mut errs);
        errs
    }

    #[test]
    fn corpus_ir_is_well_sorted() {
        let root = corpus();
        let oracle = std::fs::read_to_string(root.join("oracle.tsv")).unwrap();
        let mut errs = Vec::new();
        let mut specs = std::collections::HashMap::new();
        let mut checked = 0;
        for line in oracle.lines().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            let (model, formula) = (cols[0], cols.get(1).copied().unwrap_or(""));
            let spec = specs.entry(model.to_string()).or_insert_with(|| {
                let s = check_specification(&load(&root, model)).expect("model checks");
                errs.extend(spec_errors(&s).into_iter().map(|e| format!("{model}: {e}")));
                s
            });
            if !formula.is_empty() {
                let f = check_formula(&load(&root, formula), spec).expect("formula checks");
                let mut fe = Vec::new();
                state(&f.formula, spec, &mut fe);
                errs.extend(fe.into_iter().map(|e| format!("{formula}: {e}")));
                checked += 1;
            }
        }
        for name in ["well_typed.mcrl2", "model.mcrl2"] {
            let text = std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("fixtures/typecheck")
                    .join(name),
            )
            .unwrap();
            let s = check_specification(&SourceFile::new(name, text)).unwrap();
            errs.extend(spec_errors(&s).into_iter().map(|e| format!("{name}: {e}")));
        }
        assert!(errs.is_empty(), "{}", errs.join("\n"));
        assert_every_formula_row_checked(&oracle, checked);
    }
}
