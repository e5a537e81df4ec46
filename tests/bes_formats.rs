//! Malformed-input fixtures: each error names the right line and says what is wrong; the
//! lenient `.pg` reader and the textual BES reader accept their good fixtures.

use std::path::PathBuf;

use muon::bes::{
    parse_bes_text, parse_paritysol, parse_pg, solve_gauss, solve_zielonka, verify, Player,
    VertexId,
};

fn fixture(name: &str) -> (Vec<u8>, String) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/bes")
        .join(name);
    (std::fs::read(&p).unwrap(), name.to_string())
}

#[test]
fn malformed_pg_fixtures_report_line_and_cause() {
    let cases = [
        ("bad_negative_priority.pg", 3, 3, "negative priority"),
        (
            "bad_dangling.pg",
            4,
            9,
            "successor 7 of vertex 2 is not a vertex",
        ),
        (
            "bad_no_successors.pg",
            4,
            7,
            "expected a successor, found `;`",
        ),
        ("bad_owner.pg", 3, 5, "owner of vertex 1 is 2"),
        ("bad_duplicate.pg", 4, 1, "vertex 0 is defined twice"),
        (
            "bad_header.pg",
            1,
            8,
            "the header declares vertices up to 9, but vertex 3 is not defined",
        ),
        (
            "bad_missing_semicolon.pg",
            3,
            1,
            "expected `;` at the end of the entry of vertex 0",
        ),
        (
            "bad_garbage.pg",
            3,
            9,
            "expected `;` at the end of the entry of vertex 1",
        ),
        ("bad_hole.pg", 3, 1, "vertex 1 is missing"),
    ];
    for (file, line, column, msg) in cases {
        let (text, name) = fixture(file);
        let err = match parse_pg(&text, &name) {
            Ok(_) => panic!("{file} was accepted"),
            Err(e) => e,
        };
        assert_eq!((err.line, err.column), (line, column), "{file}: {err}");
        assert!(
            err.to_string().contains(msg),
            "{file}: `{err}` lacks `{msg}`"
        );
        assert!(
            err.to_string()
                .starts_with(&format!("{file}:{line}:{column}: ")),
            "{err}"
        );
    }
}

#[test]
fn hole_without_reference_is_reported() {
    let err = parse_pg(b"0 1 0 0;\n2 1 1 2;\n", "hole.pg").unwrap_err();
    assert!(err.message.contains("vertex 1 is missing"), "{err}");
    assert_eq!(err.line, 3);
}

#[test]
fn lenient_pg_is_read() {
    let (text, name) = fixture("good_lenient.pg");
    let g = parse_pg(&text, &name).unwrap();
    assert_eq!(g.num_vertices(), 4);
    assert_eq!(g.initial(), Some(VertexId(3)));
    assert_eq!(
        g.successors(VertexId(2)),
        &[VertexId(0), VertexId(1), VertexId(2)]
    );
    assert_eq!(g.successors(VertexId(1)), &[VertexId(2), VertexId(0)]);
    assert_eq!(g.name(VertexId(1)), Some("one"));
    assert_eq!(g.owner(VertexId(1)), Player::Odd);
    assert_eq!(g.priority(VertexId(1)), 3);
    // The header may also be the vertex count.
    let g2 = parse_pg(b"parity 2; 0 0 0 1; 1 1 1 0;", "count.pg").unwrap();
    assert_eq!(g2.num_vertices(), 2);
    let s = solve_zielonka(&g);
    verify(&g, &s).unwrap();
}

#[test]
fn malformed_bes_fixtures_report_line_and_cause() {
    let cases = [
        ("bad_undefined.bes", 3, 15, "variable W has no equation"),
        ("bad_negation.bes", 2, 10, "negation is not supported"),
        (
            "bad_missing_init.bes",
            3,
            1,
            "the BES has no `init` declaration",
        ),
        ("bad_params.bes", 1, 10, "BES variables have no parameters"),
        ("bad_duplicate.bes", 3, 6, "variable X has two equations"),
        (
            "bad_missing_semicolon.bes",
            2,
            3,
            "expected `;` at the end of the equation of X, found `mu`",
        ),
        ("bad_char.bes", 2, 12, "unexpected character `#`"),
    ];
    for (file, line, column, msg) in cases {
        let (text, name) = fixture(file);
        let err = match parse_bes_text(std::str::from_utf8(&text).unwrap(), &name) {
            Ok(_) => panic!("{file} was accepted"),
            Err(e) => e,
        };
        assert_eq!((err.line, err.column), (line, column), "{file}: {err}");
        assert!(
            err.to_string().contains(msg),
            "{file}: `{err}` lacks `{msg}`"
        );
    }
}

#[test]
fn good_bes_is_solved_by_both_solvers() {
    let (text, name) = fixture("good.bes");
    let bes = parse_bes_text(std::str::from_utf8(&text).unwrap(), &name).unwrap();
    let gauss = solve_gauss(&bes).unwrap();
    let (z, g, s) = muon::bes::solve_bes_zielonka(&bes);
    verify(&g, &s).unwrap();
    assert_eq!(gauss, z);
    let val = |n: &str| {
        let x = bes.vars().find(|&x| bes.name(x) == n).unwrap();
        z[x.index()]
    };
    for (n, v) in [
        ("X1", true),
        ("X2", true),
        ("X3", true),
        ("X4", true),
        ("X5", true),
        ("X6", false),
    ] {
        assert_eq!(val(n), v, "{n}");
    }
}

#[test]
fn paritysol_errors_have_positions() {
    let err = parse_paritysol(b"paritysol 1;\n0 0 1;\n0 1;\n", "s", 2).unwrap_err();
    assert_eq!(err.line, 3);
    assert!(err.message.contains("appears twice"));
    let err = parse_paritysol(b"paritysol 1;\n0 0 1;\n", "s", 2).unwrap_err();
    assert!(err.message.contains("vertex 1 has no entry"));
    let err = parse_paritysol(b"0 3;\n1 0;", "s", 2).unwrap_err();
    assert_eq!((err.line, err.column), (1, 3));
}

#[test]
fn fixpoint_semantics_and_rank_mapping() {
    let cases = [
        ("pbes mu X = X; init X;", false),
        ("pbes nu X = X; init X;", true),
        // The first equation dominates: X = nu X. (mu Y. X) = true.
        ("pbes nu X = Y; mu Y = X; init X;", true),
        ("pbes mu X = Y; nu Y = X; init X;", false),
        // Alternation: X = mu X. (nu Y. X || Y) is true via Y's greatest fixpoint.
        ("pbes mu X = Y; nu Y = X || Y; init X;", true),
        ("pbes nu X = Y; mu Y = X && Y; init X;", false),
        (
            "pbes nu X = Y && Z; mu Y = X || Y; nu Z = false || (Z && true); init X;",
            true,
        ),
    ];
    for (text, want) in cases {
        let bes = parse_bes_text(text, "t.bes").unwrap();
        let (vals, g, s) = muon::bes::solve_bes_zielonka(&bes);
        verify(&g, &s).unwrap();
        assert_eq!(vals[bes.init().index()], want, "{text}");
        assert_eq!(
            solve_gauss(&bes).unwrap()[bes.init().index()],
            want,
            "{text}"
        );
        // nu equations get even priorities and are won by Even when true.
        for x in bes.vars() {
            let v = x.vertex();
            if bes.kind(x) != muon::bes::RhsKind::True && bes.kind(x) != muon::bes::RhsKind::False {
                let even = g.priority(v) % 2 == 0;
                assert_eq!(even, bes.fixpoint(x) == muon::bes::Fixpoint::Nu);
            }
        }
    }
}
