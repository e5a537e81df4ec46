//! A deliberately simple reference solver: textbook recursive Zielonka with copied subgames
//! and fixpoint-iteration attractors. Quadratic or worse; for cross-checking on tiny games.

use super::game::{Game, Player, VertexId};

fn attractor(g: &Game, set: &[bool], pl: Player, target: &[bool]) -> Vec<bool> {
    let mut x = target.to_vec();
    let mut changed = true;
    while changed {
        changed = false;
        for v in g.vertices() {
            let i = v.index();
            if !set[i] || x[i] {
                continue;
            }
            let mut in_set = g.successors(v).iter().filter(|w| set[w.index()]);
            let add = if g.owner(v) == pl {
                in_set.any(|w| x[w.index()])
            } else {
                in_set.all(|w| x[w.index()])
            };
            if add {
                x[i] = true;
                changed = true;
            }
        }
    }
    x
}

fn zielonka(g: &Game, set: &[bool]) -> [Vec<bool>; 2] {
    let n = set.len();
    let Some(p) = g
        .vertices()
        .filter(|v| set[v.index()])
        .map(|v| g.priority(v))
        .max()
    else {
        return [vec![false; n], vec![false; n]];
    };
    let pl = Player::of_priority(p);
    let (a, b) = (pl as usize, 1 - pl as usize);
    let u: Vec<bool> = (0..n)
        .map(|i| set[i] && g.priority(VertexId(i as u32)) == p)
        .collect();
    let attr = attractor(g, set, pl, &u);
    let sub: Vec<bool> = (0..n).map(|i| set[i] && !attr[i]).collect();
    let w1 = zielonka(g, &sub);
    if !w1[b].iter().any(|&x| x) {
        let mut w = [vec![false; n], vec![false; n]];
        w[a] = set.to_vec();
        return w;
    }
    let battr = attractor(g, set, pl.opponent(), &w1[b]);
    let sub2: Vec<bool> = (0..n).map(|i| set[i] && !battr[i]).collect();
    let mut w2 = zielonka(g, &sub2);
    for i in 0..n {
        if battr[i] {
            w2[b][i] = true;
        }
    }
    w2
}

/// Winners of all vertices by textbook Zielonka (reference implementation for tests).
pub fn solve_naive(game: &Game) -> Vec<Player> {
    let set = vec![true; game.num_vertices()];
    let w = zielonka(game, &set);
    (0..game.num_vertices())
        .map(|i| if w[0][i] { Player::Even } else { Player::Odd })
        .collect()
}
