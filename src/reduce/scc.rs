//! Strongly connected components of the tau-transitions, by an iterative Tarjan (no
//! recursion: an LTS can have millions of states on one tau path).

/// The tau-SCCs of a graph with `n` nodes whose tau-successors of `v` are
/// `succ[start[v]..start[v + 1]]`: the component of each node, and the number of components.
///
/// Components are numbered in the order Tarjan's algorithm completes them, which is a reverse
/// topological order: if there is an edge from component `x` to a different component `y`,
/// then `y < x`.
pub fn tarjan(n: usize, start: &[u32], succ: &[u32]) -> (Vec<u32>, u32) {
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut comp = vec![NONE; n];
    let mut stack: Vec<u32> = Vec::new();
    // The call stack: (node, next successor position).
    let mut calls: Vec<(u32, u32)> = Vec::new();
    let mut next_index = 0u32;
    let mut ncomp = 0u32;
    for root in 0..n as u32 {
        if index[root as usize] != NONE {
            continue;
        }
        index[root as usize] = next_index;
        low[root as usize] = next_index;
        next_index += 1;
        stack.push(root);
        calls.push((root, start[root as usize]));
        while let Some(&(v, k)) = calls.last() {
            let vi = v as usize;
            if k < start[vi + 1] {
                let w = succ[k as usize];
                calls.last_mut().expect("non-empty").1 = k + 1;
                let wi = w as usize;
                if index[wi] == NONE {
                    index[wi] = next_index;
                    low[wi] = next_index;
                    next_index += 1;
                    stack.push(w);
                    calls.push((w, start[wi]));
                } else if comp[wi] == NONE {
                    low[vi] = low[vi].min(index[wi]);
                }
                continue;
            }
            calls.pop();
            if low[vi] == index[vi] {
                loop {
                    let w = stack.pop().expect("v is on the stack");
                    comp[w as usize] = ncomp;
                    if w == v {
                        break;
                    }
                }
                ncomp += 1;
            }
            if let Some(&(u, _)) = calls.last() {
                let ui = u as usize;
                low[ui] = low[ui].min(low[vi]);
            }
        }
    }
    (comp, ncomp)
}

/// Compressed adjacency (`start`, `succ`) of the edges `(from, to)` over `n` nodes.
pub fn adjacency(
    n: usize,
    edges: impl Iterator<Item = (u32, u32)> + Clone,
) -> (Vec<u32>, Vec<u32>) {
    let mut start = vec![0u32; n + 1];
    for (f, _) in edges.clone() {
        start[f as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut succ = vec![0u32; start[n] as usize];
    for (f, t) in edges {
        succ[fill[f as usize] as usize] = t;
        fill[f as usize] += 1;
    }
    (start, succ)
}
