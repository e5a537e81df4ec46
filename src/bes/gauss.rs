//! Gauss elimination (Mader) on BESs: an independent second solver for small systems.
//!
//! Right-hand sides are kept as minimal disjunctive normal forms over variables (a set of
//! clauses, none a subset of another) — a canonical form of monotone Boolean functions, so
//! simplification is absorption. Backward pass, last equation first: solve `X = φ` locally
//! (`φ[true/X]` for `nu`, `φ[false/X]` for `mu`), then substitute the result into the earlier
//! equations that mention `X`. Forward pass: each right-hand side then only mentions earlier
//! variables, whose values are known.

use thiserror::Error;

use super::besys::{Bes, Fixpoint, RhsKind};
use crate::progress::{grouped, Halted, Unwatched, Watch};

/// Why Gauss elimination gave up.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GaussError {
    /// The normal forms grew beyond the limit (Gauss elimination is exponential in general).
    #[error("Gauss elimination blew up ({clauses} clauses in one equation); use the Zielonka solver for this system")]
    TooLarge {
        /// Clauses in the equation that exceeded the limit.
        clauses: usize,
    },
    /// Simplification took more work than the budget allows.
    #[error("Gauss elimination is taking too long on this system; use the Zielonka solver")]
    TooSlow,
    /// The run's budget (memory limit, timeout, Ctrl-C) stopped the elimination.
    #[error(transparent)]
    Stopped(#[from] Halted),
}

impl From<std::convert::Infallible> for GaussError {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

/// Clauses allowed in one right-hand side before giving up.
const LIMIT: usize = 1 << 13;

/// Clause comparisons allowed in total before giving up (keeps the run time bounded).
const BUDGET: u64 = 1 << 31;

type Clause = Vec<u32>;

fn is_subset(a: &[u32], b: &[u32]) -> bool {
    let mut j = 0;
    for &x in a {
        while j < b.len() && b[j] < x {
            j += 1;
        }
        if j == b.len() || b[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

fn minimise(mut d: Vec<Clause>, budget: &mut u64) -> Result<Vec<Clause>, GaussError> {
    d.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    d.dedup();
    let mut out: Vec<Clause> = Vec::with_capacity(d.len());
    for c in d {
        *budget = budget
            .checked_sub(out.len() as u64 + 1)
            .ok_or(GaussError::TooSlow)?;
        if !out.iter().any(|k| is_subset(k, &c)) {
            out.push(c);
        }
    }
    Ok(out)
}

fn union(a: &[u32], b: &[u32]) -> Clause {
    let mut u = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            u.push(a[i]);
            i += 1;
        } else if b[j] < a[i] {
            u.push(b[j]);
            j += 1;
        } else {
            u.push(a[i]);
            i += 1;
            j += 1;
        }
    }
    u.extend_from_slice(&a[i..]);
    u.extend_from_slice(&b[j..]);
    u
}

/// Solves `bes` by Gauss elimination; returns the value of every variable by index.
pub fn solve_gauss(bes: &Bes) -> Result<Vec<bool>, GaussError> {
    solve_gauss_watched(bes, &mut Unwatched)
}

/// [`solve_gauss`] under `watch`: one tick per variable eliminated.
pub fn solve_gauss_watched<W: Watch>(bes: &Bes, watch: &mut W) -> Result<Vec<bool>, GaussError>
where
    GaussError: From<W::Stop>,
{
    let order = bes.equation_order();
    let n = order.len();
    // Work with positions in equation order.
    let mut pos = vec![0u32; n];
    for (i, x) in order.iter().enumerate() {
        pos[x.index()] = i as u32;
    }
    let mut budget = BUDGET;
    let mut phi: Vec<Vec<Clause>> = Vec::with_capacity(n);
    let mut occ: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (i, &x) in order.iter().enumerate() {
        let ops: Vec<u32> = bes.operands(x).iter().map(|o| pos[o.index()]).collect();
        let d = match bes.kind(x) {
            RhsKind::True => vec![vec![]],
            RhsKind::False => vec![],
            RhsKind::And => {
                let mut c = ops.clone();
                c.sort_unstable();
                c.dedup();
                vec![c]
            }
            RhsKind::Or => minimise(ops.iter().map(|&o| vec![o]).collect(), &mut budget)?,
        };
        for &o in &ops {
            occ[o as usize].push(i as u32);
        }
        phi.push(d);
    }
    for i in (0..n).rev() {
        let done = (n - 1 - i) as u64;
        watch.tick(done, || {
            format!(
                "{} of {} variables eliminated (Gauss)",
                grouped(done),
                grouped(n as u64)
            )
        })?;
        let xi = i as u32;
        let nu = bes.fixpoint(order[i]) == Fixpoint::Nu;
        let local: Vec<Clause> = std::mem::take(&mut phi[i])
            .into_iter()
            .filter_map(|mut c| match c.binary_search(&xi) {
                Ok(k) if nu => {
                    c.remove(k);
                    Some(c)
                }
                Ok(_) => None,
                Err(_) => Some(c),
            })
            .collect();
        let local = minimise(local, &mut budget)?;
        let mut users = std::mem::take(&mut occ[i]);
        users.sort_unstable();
        users.dedup();
        for &j in &users {
            let j = j as usize;
            if j >= i {
                continue;
            }
            if !phi[j].iter().any(|c| c.binary_search(&xi).is_ok()) {
                continue;
            }
            let mut next = Vec::new();
            for c in std::mem::take(&mut phi[j]) {
                match c.binary_search(&xi) {
                    Ok(k) => {
                        let mut rest = c;
                        rest.remove(k);
                        for d in &local {
                            next.push(union(&rest, d));
                        }
                    }
                    Err(_) => next.push(c),
                }
                if next.len() > LIMIT {
                    return Err(GaussError::TooLarge {
                        clauses: next.len(),
                    });
                }
            }
            let next = minimise(next, &mut budget)?;
            for c in &local {
                for &v in c {
                    occ[v as usize].push(j as u32);
                }
            }
            phi[j] = next;
        }
        phi[i] = local;
    }
    let mut val = vec![false; n];
    for i in 0..n {
        val[i] = phi[i]
            .iter()
            .any(|c| c.iter().all(|&v| (v as usize) < i && val[v as usize]));
    }
    let mut out = vec![false; n];
    for (i, x) in order.iter().enumerate() {
        out[x.index()] = val[i];
    }
    Ok(out)
}

/// The value of the initial variable, by Gauss elimination.
pub fn solve_gauss_init(bes: &Bes) -> Result<bool, GaussError> {
    Ok(solve_gauss(bes)?[bes.init().index()])
}
