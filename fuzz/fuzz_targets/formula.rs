//! Fuzzes the formula reader and type checker against a fixed specification with data,
//! actions with parameters and a process (the corpus holds well-formed formulas).
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use muon::modal::typecheck::check_formula;
use muon::process::ir::ProcSpec;
use muon::process::typecheck::check_specification;
use muon::source::SourceFile;

const SPEC: &str = "sort D = struct d1 | d2;\n\
    map f: Nat -> Bool;\n\
    var n: Nat;\n\
    eqn f(n) = n < 3;\n\
    act a, b: Nat; c; r, s: D;\n\
    proc P(n: Nat) = a(n) . P(n + 1) + b(n) . c . P(0) + sum e: D . r(e) . s(e) . P(n);\n\
    init P(0);\n";

static CONTEXT: LazyLock<ProcSpec> = LazyLock::new(|| {
    check_specification(&SourceFile::new("spec.mcrl2".to_string(), SPEC.to_string()))
        .expect("the fixed specification type-checks")
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let src = SourceFile::new("fuzz.mcf".to_string(), text.to_string());
    let _ = check_formula(&src, &CONTEXT);
});
