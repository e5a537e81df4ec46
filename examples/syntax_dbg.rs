//! Parses its argument and prints the AST or the diagnostic: `syntax_dbg spec|form|pbes|data TEXT`.
fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let text = args.next().unwrap_or_default();
    let src = muon::source::SourceFile::new("arg", text);
    let out = match mode.as_str() {
        "spec" => muon::syntax::parse_spec(&src).map(|x| format!("{x:#?}")),
        "form" => muon::syntax::parse_formula_spec(&src).map(|x| format!("{x:#?}")),
        "pbes" => muon::syntax::parse_pbes(&src).map(|x| format!("{x:#?}")),
        _ => muon::syntax::parse_data_expr(&src).map(|x| format!("{x:#?}")),
    };
    match out {
        Ok(s) => println!("{s}"),
        Err(e) if std::env::var_os("BRIEF").is_some() => {
            let (l, c) = e.line_col();
            println!("{l}:{c} {:?} {}", e.kind(), e.message())
        }
        Err(e) => println!("{:?}", miette::Report::new(e)),
    }
}
