//! Alphabet constraints: the multi-action names a subprocess may usefully produce under the
//! `allow`, `block`, `comm`, `rename` and `hide` operators above it; and a sequential
//! component's syntactic alphabet (`syntactic_names`), by which mCRL2 decides whether a
//! `comm` rule's parties meet.

use super::*;
use std::borrow::Cow;

/// A downward-closed set of multi-action name multisets: the multi-actions a subprocess may
/// usefully produce given the operators above it.
#[derive(Clone, Debug)]
pub(super) enum Constraint {
    /// Anything without these names.
    Any { blocked: BTreeSet<Name> },
    /// Sub-multisets of one of `sets` after removing the `free` names (any number of them).
    Finite {
        sets: Vec<Vec<Name>>,
        free: BTreeSet<Name>,
    },
}

pub(super) const MAX_CONSTRAINT_SETS: usize = 20_000;

/// Each element of `small` with whether it is matched by its own element of `big` (both
/// sorted): the one scan behind [`sub_multiset`] and [`may_meet`].
fn matched<'a>(small: &'a [Name], big: &'a [Name]) -> impl Iterator<Item = (&'a Name, bool)> {
    let mut j = 0;
    small.iter().map(move |x| {
        while j < big.len() && big[j] < *x {
            j += 1;
        }
        let hit = j < big.len() && big[j] == *x;
        j += usize::from(hit);
        (x, hit)
    })
}

/// Whether the sorted multiset `small` is contained in the sorted multiset `big`.
pub(super) fn sub_multiset(small: &[Name], big: &[Name]) -> bool {
    matched(small, big).all(|(_, hit)| hit)
}

/// Whether the parties `lhs` (sorted) of a communication rule can occur together in a
/// multi-action of a parallel composition whose components' summands do the name lists
/// `kids` (per component, sorted lists): one summand or none per component, their names
/// together containing `lhs`. By names alone, as mCRL2's alphabet reduction decides which
/// rules of a `comm` to keep (data that makes the parties' arguments differ does not count).
pub(super) fn may_meet(lhs: &[Name], kids: &[Vec<Vec<Name>>]) -> bool {
    if lhs.is_empty() {
        return true;
    }
    let Some((first, rest)) = kids.split_first() else {
        return false;
    };
    if may_meet(lhs, rest) {
        return true;
    }
    first.iter().any(|names| {
        // The parties this summand supplies, taken out of `lhs`.
        let left: Vec<Name> = matched(lhs, names)
            .filter(|(_, hit)| !hit)
            .map(|(x, _)| x.clone())
            .collect();
        left.len() < lhs.len() && may_meet(&left, rest)
    })
}

impl Constraint {
    pub(super) fn any() -> Constraint {
        Constraint::Any {
            blocked: BTreeSet::new(),
        }
    }

    /// Whether a multi-action with these (sorted) names can still grow into a useful one.
    pub(super) fn possible(&self, names: &[Name]) -> bool {
        match self {
            Constraint::Any { blocked } => !names.iter().any(|n| blocked.contains(n)),
            Constraint::Finite { sets, free } => {
                let m: Vec<Name> = names
                    .iter()
                    .filter(|n| !free.contains(*n))
                    .cloned()
                    .collect();
                m.is_empty() || sets.iter().any(|s| sub_multiset(&m, s))
            }
        }
    }

    pub(super) fn allow(&self, v: &[MultiActionName]) -> Constraint {
        let sets = v
            .iter()
            .map(|m| {
                let mut s = m.0.clone();
                s.sort();
                s
            })
            .filter(|s| self.possible(s))
            .collect();
        Constraint::Finite {
            sets,
            free: BTreeSet::new(),
        }
    }

    pub(super) fn block(&self, b: &[Name]) -> Constraint {
        match self {
            Constraint::Any { blocked } => {
                let mut blocked = blocked.clone();
                blocked.extend(b.iter().cloned());
                Constraint::Any { blocked }
            }
            Constraint::Finite { sets, free } => Constraint::Finite {
                sets: sets
                    .iter()
                    .filter(|s| !s.iter().any(|n| b.contains(n)))
                    .cloned()
                    .collect(),
                free: free.iter().filter(|n| !b.contains(n)).cloned().collect(),
            },
        }
    }

    pub(super) fn hide(&self, h: &[Name]) -> Constraint {
        match self {
            Constraint::Any { blocked } => Constraint::Any {
                blocked: blocked.iter().filter(|n| !h.contains(n)).cloned().collect(),
            },
            Constraint::Finite { sets, free } => {
                let mut free = free.clone();
                free.extend(h.iter().cloned());
                Constraint::Finite {
                    sets: sets.clone(),
                    free,
                }
            }
        }
    }

    /// Preimage under a name map `f` given as, per output name, its possible sources.
    pub(super) fn preimage(
        &self,
        sources: &dyn Fn(&Name) -> Vec<Vec<Name>>,
        extra_free: &BTreeSet<Name>,
    ) -> Constraint {
        match self {
            Constraint::Any { .. } => unreachable!("handled by callers"),
            Constraint::Finite { sets, free } => {
                let mut out: BTreeSet<Vec<Name>> = BTreeSet::new();
                for s in sets {
                    let mut partial: Vec<Vec<Name>> = vec![vec![]];
                    for n in s {
                        let opts = sources(n);
                        // A name with no source cannot occur in an image: the sets are
                        // downward closed, so the rest of the set still counts (dropping
                        // the whole set lost `r2` of `{r2, s2}` under `rename({s2->s4}, …)`).
                        if opts.is_empty() {
                            continue;
                        }
                        let mut next = Vec::new();
                        for p in &partial {
                            for o in &opts {
                                let mut q = p.clone();
                                q.extend(o.iter().cloned());
                                next.push(q);
                            }
                        }
                        partial = next;
                        if partial.len() > MAX_CONSTRAINT_SETS {
                            return Constraint::any();
                        }
                    }
                    for mut p in partial {
                        p.sort();
                        out.insert(p);
                    }
                    if out.len() > MAX_CONSTRAINT_SETS {
                        return Constraint::any();
                    }
                }
                let mut fr: BTreeSet<Name> = BTreeSet::new();
                for n in free {
                    for o in sources(n) {
                        fr.extend(o);
                    }
                }
                fr.extend(extra_free.iter().cloned());
                Constraint::Finite {
                    sets: out.into_iter().collect(),
                    free: fr,
                }
            }
        }
    }

    pub(super) fn rename(&self, map: &[(Name, Name)]) -> Constraint {
        let target = |n: &Name| -> Name {
            map.iter()
                .find(|(a, _)| a == n)
                .map(|(_, b)| b.clone())
                .unwrap_or_else(|| n.clone())
        };
        match self {
            Constraint::Any { blocked } => {
                let mut b: BTreeSet<Name> = blocked
                    .iter()
                    .filter(|n| !map.iter().any(|(a, _)| a == *n))
                    .cloned()
                    .collect();
                for (a, _) in map {
                    if blocked.contains(&target(a)) {
                        b.insert(a.clone());
                    }
                }
                Constraint::Any { blocked: b }
            }
            Constraint::Finite { .. } => {
                let sources = |x: &Name| -> Vec<Vec<Name>> {
                    let mut v: Vec<Vec<Name>> = map
                        .iter()
                        .filter(|(_, b)| b == x)
                        .map(|(a, _)| vec![a.clone()])
                        .collect();
                    if !map.iter().any(|(a, _)| a == x) {
                        v.push(vec![x.clone()]);
                    }
                    v
                };
                self.preimage(&sources, &BTreeSet::new())
            }
        }
    }

    pub(super) fn comm(&self, rules: &[CommRule]) -> Constraint {
        match self {
            Constraint::Any { blocked } => {
                let lhs: BTreeSet<&Name> = rules.iter().flat_map(|r| r.lhs.0.iter()).collect();
                Constraint::Any {
                    blocked: blocked
                        .iter()
                        .filter(|n| !lhs.contains(n))
                        .cloned()
                        .collect(),
                }
            }
            Constraint::Finite { .. } => {
                let sources = |x: &Name| -> Vec<Vec<Name>> {
                    let mut v = vec![vec![x.clone()]];
                    for r in rules {
                        if r.rhs.as_ref() == Some(x) {
                            v.push(r.lhs.0.clone());
                        }
                    }
                    v
                };
                // Communications to tau may happen any number of times.
                let extra: BTreeSet<Name> = rules
                    .iter()
                    .filter(|r| r.rhs.is_none())
                    .flat_map(|r| r.lhs.0.iter().cloned())
                    .collect();
                self.preimage(&sources, &extra)
            }
        }
    }
}

/// `e` as written, with every multi-action that holds a name blocked above it replaced by
/// `delta` (and what follows dropped). mCRL2 pushes a `block` into the process definitions
/// below it before linearising, so a parameter read only after a blocked action counts as
/// unread there. It does not do so under an `allow` (a `block` above an `allow` merges into
/// it): then `e` is returned as it is.
pub(super) fn prune_blocked<'e>(e: &'e ProcExpr, k: &Constraint) -> Cow<'e, ProcExpr> {
    match k {
        Constraint::Any { blocked } => prune_names(e, blocked),
        Constraint::Finite { .. } => Cow::Borrowed(e),
    }
}

/// `e` with every multi-action that holds a name of `blocked` replaced by `delta`, and
/// what follows it dropped (`delta . p` is `delta`).
pub(super) fn prune_names<'e>(e: &'e ProcExpr, blocked: &BTreeSet<Name>) -> Cow<'e, ProcExpr> {
    if blocked.is_empty() {
        return Cow::Borrowed(e);
    }
    fn go(e: &ProcExpr, blocked: &BTreeSet<Name>) -> ProcExpr {
        fn has_blocked(e: &ProcExpr, blocked: &BTreeSet<Name>) -> Option<bool> {
            match e {
                ProcExpr::Action(a) => Some(blocked.contains(&a.name)),
                ProcExpr::Tau => Some(false),
                ProcExpr::Sync(x, y) => Some(has_blocked(x, blocked)? || has_blocked(y, blocked)?),
                _ => None,
            }
        }
        if let Some(b) = has_blocked(e, blocked) {
            return if b { ProcExpr::Delta } else { e.clone() };
        }
        match e {
            ProcExpr::Seq(a, b) => match go(a, blocked) {
                ProcExpr::Delta => ProcExpr::Delta,
                pa => ProcExpr::Seq(Arc::new(pa), Arc::new(go(b, blocked))),
            },
            ProcExpr::Choice(..) | ProcExpr::Sum { .. } | ProcExpr::If { .. } => {
                e.map_children(|x| go(x, blocked))
            }
            _ => e.clone(),
        }
    }
    Cow::Owned(go(e, blocked))
}

/// The action names `e` can do as written, through the processes it calls (each body
/// once, `seen` holds those walked), whatever the conditions: mCRL2's alphabet of a
/// sequential component, which decides whether a `comm` rule's parties meet.
pub(super) fn syntactic_names(
    spec: &ProcSpec,
    e: &ProcExpr,
    seen: &mut HashSet<ProcId>,
    out: &mut BTreeSet<Name>,
) {
    // Below an operator that removes or renames names, its body's names are gathered
    // apart and then filtered or mapped.
    let inner = |seen: &mut HashSet<ProcId>, body: &ProcExpr| {
        let mut names = BTreeSet::new();
        syntactic_names(spec, body, seen, &mut names);
        names
    };
    match e {
        ProcExpr::Action(a) => {
            out.insert(a.name.clone());
        }
        ProcExpr::Call { proc, .. } => {
            if seen.insert(*proc) {
                syntactic_names(spec, &spec.procs[proc.0 as usize].body, seen, out);
            }
        }
        ProcExpr::Hide { set, body } | ProcExpr::Block { set, body } => {
            out.extend(inner(seen, body).into_iter().filter(|n| !set.contains(n)));
        }
        ProcExpr::Allow { set, body } => {
            let names = inner(seen, body);
            out.extend(
                names
                    .into_iter()
                    .filter(|n| set.iter().any(|m| m.0.contains(n))),
            );
        }
        ProcExpr::Rename { map, body } => {
            out.extend(inner(seen, body).into_iter().map(|n| {
                map.iter()
                    .find(|(from, _)| *from == n)
                    .map_or(n, |(_, to)| to.clone())
            }));
        }
        ProcExpr::Comm { rules, body } => {
            syntactic_names(spec, body, seen, out);
            out.extend(rules.iter().filter_map(|r| r.rhs.clone()));
        }
        _ => e.for_each_child(|x| syntactic_names(spec, x, seen, out)),
    }
}

/// Which processes can terminate once every action `k` blocks is `delta`
/// ([`terminating_procs`] on the bodies [`prune_blocked`] leaves).
pub(super) fn terminating_under(spec: &ProcSpec, k: &Constraint) -> Vec<bool> {
    let bodies: Vec<Cow<'_, ProcExpr>> = spec
        .procs
        .iter()
        .map(|p| prune_blocked(&p.body, k))
        .collect();
    let mut term = vec![false; bodies.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (i, b) in bodies.iter().enumerate() {
            if !term[i] && expr_terminates(&term, b) {
                term[i] = true;
                changed = true;
            }
        }
    }
    term
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(xs: &[&str]) -> Vec<Name> {
        xs.iter().map(|x| Name::from(*x)).collect()
    }

    /// Parties meet when different components (or one summand) supply them, each at most
    /// once per component.
    #[test]
    fn rule_parties_meet_by_names_across_components() {
        let lhs = names(&["r1", "s1"]);
        let kid = |ls: &[&[&str]]| -> Vec<Vec<Name>> { ls.iter().map(|l| names(l)).collect() };
        assert!(may_meet(&lhs, &[kid(&[&["r1"]]), kid(&[&["a"], &["s1"]])]));
        assert!(may_meet(&lhs, &[kid(&[&["r1", "s1"]])]));
        assert!(!may_meet(&lhs, &[kid(&[&["r1"]]), kid(&[&["r1"]])]));
        // One summand of a component at a time: `r1` and `s1` in different summands of one
        // component never occur together.
        assert!(!may_meet(&lhs, &[kid(&[&["r1"], &["s1"]])]));
        let twice = names(&["s1", "s1"]);
        assert!(!may_meet(&twice, &[kid(&[&["s1"]])]));
        assert!(may_meet(&twice, &[kid(&[&["s1"]]), kid(&[&["s1"]])]));
        assert!(may_meet(&twice, &[kid(&[&["s1", "s1"]])]));
    }
}
