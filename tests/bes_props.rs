//! Property tests: Zielonka, Gauss elimination and a textbook reference agree on thousands
//! of random games and BESs; the checker accepts every solution and rejects corrupted ones;
//! the text formats round-trip.

use muon::bes::{
    bes_to_game, game_to_bes, parse_bes_text, parse_pg, solve_gauss, solve_naive, solve_zielonka,
    verify, write_bes_text, write_pg, Bes, BesBuilder, BesVarId, Game, GameBuilder, Player,
    RhsKind, VerifyError, VertexId,
};
use proptest::prelude::*;

/// (owner, priority, successors) per vertex.
type RawGame = Vec<(bool, u32, Vec<u32>)>;

fn raw_game(max_n: usize, max_prio: u32) -> impl Strategy<Value = RawGame> {
    (1..=max_n).prop_flat_map(move |n| {
        prop::collection::vec(
            (
                any::<bool>(),
                0..=max_prio,
                prop::collection::vec(0..n as u32, 1..=3),
            ),
            n,
        )
    })
}

fn build(raw: &RawGame) -> Game {
    let mut b = GameBuilder::new();
    // Give successor lists in reverse order to exercise the out-of-order path too.
    let ids: Vec<VertexId> = raw
        .iter()
        .map(|(o, p, _)| b.add_vertex(if *o { Player::Odd } else { Player::Even }, *p))
        .collect();
    for (i, (_, _, s)) in raw.iter().enumerate().rev() {
        let succ: Vec<VertexId> = s.iter().map(|&w| VertexId(w)).collect();
        b.set_successors(ids[i], &succ);
    }
    b.set_initial(VertexId(0));
    b.freeze().unwrap()
}

/// (rank, kind 0..4, operands) per variable; ranks sorted so equation order = index order.
type RawBes = Vec<(u32, u8, Vec<u32>)>;

fn raw_bes(max_n: usize) -> impl Strategy<Value = RawBes> {
    (1..=max_n).prop_flat_map(|n| {
        prop::collection::vec(
            (0..5u32, 0..8u8, prop::collection::vec(0..n as u32, 1..=3)),
            n,
        )
        .prop_map(|mut v| {
            let mut ranks: Vec<u32> = v.iter().map(|e| e.0).collect();
            ranks.sort_unstable();
            for (e, r) in v.iter_mut().zip(ranks) {
                e.0 = r;
            }
            v
        })
    })
}

fn build_bes(raw: &RawBes) -> Bes {
    let mut b = BesBuilder::new();
    let ids: Vec<BesVarId> = (0..raw.len())
        .map(|i| b.add_variable(&format!("X{i}")))
        .collect();
    for (i, (rank, k, ops)) in raw.iter().enumerate() {
        // Constants are rarer than and/or.
        let kind = match k {
            0 => RhsKind::True,
            1 => RhsKind::False,
            2..=4 => RhsKind::And,
            _ => RhsKind::Or,
        };
        let ops: Vec<BesVarId> = ops.iter().map(|&o| BesVarId(o)).collect();
        b.define(ids[i], *rank, kind, &ops).unwrap();
    }
    b.set_init(ids[0]);
    b.freeze().unwrap()
}

fn winners_as_bool(w: &[Player]) -> Vec<bool> {
    w.iter().map(|&p| p == Player::Even).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn solvers_agree_on_games(raw in raw_game(10, 7)) {
        let g = build(&raw);
        let z = solve_zielonka(&g);
        prop_assert_eq!(verify(&g, &z), Ok(()));
        let proof = muon::bes::strategy_reachable(&g, &z, VertexId(0));
        prop_assert!(proof.iter().all(|&v| z.winner(v) == z.winner(VertexId(0))));
        let naive = solve_naive(&g);
        prop_assert_eq!(z.winners(), &naive[..]);
        let bes = game_to_bes(&g).unwrap();
        let gauss = solve_gauss(&bes).unwrap();
        prop_assert_eq!(winners_as_bool(z.winners()), gauss);
    }

    #[test]
    fn checker_rejects_flipped_winners(raw in raw_game(8, 5), pick in any::<prop::sample::Index>()) {
        let g = build(&raw);
        let mut s = solve_zielonka(&g);
        let v = VertexId(pick.index(g.num_vertices()) as u32);
        let flipped = s.winner(v).opponent();
        s.set_winner(v, flipped);
        // Give it a plausible strategy so the error is not just "missing strategy".
        s.set_strategy(v, if g.owner(v) == flipped { Some(g.successors(v)[0]) } else { None });
        prop_assert!(verify(&g, &s).is_err());
    }

    #[test]
    fn checker_rejects_bad_strategies(raw in raw_game(8, 5)) {
        let g = build(&raw);
        let s = solve_zielonka(&g);
        for v in g.vertices() {
            if s.winner(v) == g.owner(v) {
                // A vertex that is not a successor.
                if let Some(x) = g.vertices().find(|x| !g.successors(v).contains(x)) {
                    let mut bad = s.clone();
                    bad.set_strategy(v, Some(x));
                    prop_assert_eq!(verify(&g, &bad), Err(VerifyError::NotASuccessor { from: v.0, to: x.0 }));
                }
                let mut bad = s.clone();
                bad.set_strategy(v, None);
                prop_assert_eq!(verify(&g, &bad), Err(VerifyError::MissingStrategy(v.0)));
                // A successor won by the opponent.
                if let Some(&w) = g.successors(v).iter().find(|&&w| s.winner(w) != s.winner(v)) {
                    let mut bad = s.clone();
                    bad.set_strategy(v, Some(w));
                    let is_leave = matches!(verify(&g, &bad), Err(VerifyError::LeavesRegion { .. }));
                    prop_assert!(is_leave);
                }
            }
        }
    }

    #[test]
    fn solvers_agree_on_bes(raw in raw_bes(9)) {
        let bes = build_bes(&raw);
        let gauss = solve_gauss(&bes).unwrap();
        let g = bes_to_game(&bes);
        let z = solve_zielonka(&g);
        prop_assert_eq!(verify(&g, &z), Ok(()));
        prop_assert_eq!(&winners_as_bool(z.winners()), &gauss);
        prop_assert_eq!(&winners_as_bool(&solve_naive(&g)), &gauss);
    }

    #[test]
    fn bes_text_round_trips(raw in raw_bes(9)) {
        let bes = build_bes(&raw);
        let mut out = Vec::new();
        write_bes_text(&bes, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let back = parse_bes_text(&text, "rt.bes").unwrap();
        prop_assert_eq!(&back, &bes, "{}", text);
    }

    #[test]
    fn pg_round_trips(raw in raw_game(12, 9)) {
        let g = build(&raw);
        let mut out = Vec::new();
        write_pg(&g, &mut out).unwrap();
        let back = parse_pg(&out, "rt.pg").unwrap();
        prop_assert_eq!(back.num_vertices(), g.num_vertices());
        prop_assert_eq!(back.initial(), g.initial());
        for v in g.vertices() {
            prop_assert_eq!(back.priority(v), g.priority(v));
            prop_assert_eq!(back.owner(v), g.owner(v));
            prop_assert_eq!(back.successors(v), g.successors(v));
            let mut p1 = back.predecessors(v).to_vec();
            let mut p2 = g.predecessors(v).to_vec();
            p1.sort();
            p2.sort();
            prop_assert_eq!(p1, p2);
        }
    }
}

/// Larger random games: Zielonka's solutions always verify.
#[test]
fn zielonka_verifies_on_larger_games() {
    for seed in 0..40u64 {
        let g = muon::bes::gen::random_game(2000, 50 + seed as u32 * 20, 1, 4, seed);
        let s = solve_zielonka(&g);
        verify(&g, &s).unwrap();
        let g = muon::bes::gen::mc_game(3000, seed);
        let s = solve_zielonka(&g);
        verify(&g, &s).unwrap();
    }
    let g = muon::bes::gen::ladder_game(1001);
    verify(&g, &solve_zielonka(&g)).unwrap();
    // The exponential "two binary counters" family: solutions verify, and small ones agree
    // with the reference.
    for bits in 1..=9 {
        let g = muon::bes::gen::two_counters_game(bits);
        let s = solve_zielonka(&g);
        verify(&g, &s).unwrap();
        if bits <= 4 {
            assert_eq!(s.winners(), &solve_naive(&g)[..], "tc:{bits}");
        }
    }
}

/// Medium games: the reference agrees (it is slow, so few and small).
#[test]
fn zielonka_matches_reference_on_medium_games() {
    for seed in 0..20u64 {
        let g = muon::bes::gen::random_game(60, 12, 1, 3, 1000 + seed);
        assert_eq!(solve_zielonka(&g).winners(), &solve_naive(&g)[..]);
    }
}

// ---- forced distances (evidence's shortest proofs) against the naive fixpoint ----

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    #[test]
    fn forced_distances_match_the_naive_fixpoint(
        n in 1usize..12,
        edges in prop::collection::vec((0u32..12, 0u32..12, 0u32..2), 0..30),
        chooses in prop::collection::vec(any::<bool>(), 12),
        targets in prop::collection::vec(0u32..12, 0..3),
    ) {
        use muon::bes::distance::{forced_distances, forced_distances_naive, ForcedGraph, UNREACHED};
        let n32 = n as u32;
        // Edges carry their cost (an evidence step costs 1, a plain edge 0).
        let edges: Vec<(u32, u32, u32)> = edges.into_iter().filter(|&(a, b, _)| a < n32 && b < n32).collect();
        let mut targets: Vec<u32> = targets.into_iter().filter(|&t| t < n32).collect();
        targets.sort_unstable();
        targets.dedup();
        let g = ForcedGraph::new(chooses[..n].to_vec(), &mut |v, out| {
            out.extend(edges.iter().filter(|e| e.0 == v).map(|e| (e.1, e.2)));
        });
        let (dist, choice) = forced_distances(&g, &targets);
        prop_assert_eq!(&dist, &forced_distances_naive(&g, &targets));
        // Following the choices (all successors at max nodes) from a reached node ends in a
        // target within its distance.
        for v in 0..n32 {
            if dist[v as usize] == UNREACHED || targets.contains(&v) {
                continue;
            }
            let out: Vec<(u32, u32)> = g.successors(v).iter().copied().zip(g.costs(v).iter().copied()).collect();
            if chooses[v as usize] {
                let w = choice[v as usize];
                // The cheapest edge to the chosen successor achieves the distance.
                let c = out.iter().filter(|e| e.0 == w).map(|e| e.1).min();
                prop_assert!(c.is_some());
                prop_assert_eq!(dist[v as usize], dist[w as usize] + c.unwrap());
            } else {
                for &(w, c) in &out {
                    prop_assert!(dist[w as usize] != UNREACHED && dist[w as usize] + c <= dist[v as usize]);
                }
            }
        }
    }
}
