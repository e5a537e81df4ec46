//! The random specifications the evidence and monitor property tests share.

use proptest::prelude::*;

/// A random process over `n: Nat` in 0..4 with actions a, b and e(Nat), deadlocks
/// possible.
pub fn random_spec() -> impl Strategy<Value = String> {
    let summand = (0u8..4, 0u8..3, 0u8..4, any::<bool>()).prop_map(|(from, act, to, sum)| {
        if sum {
            format!("sum d: Nat . (d < 2 && n == {from}) -> e(d) . P((d + {to}) mod 4)")
        } else {
            let a = ["a", "b", "a|b"][act as usize];
            format!("(n == {from}) -> {a} . P({to})")
        }
    });
    prop::collection::vec(summand, 1..6).prop_map(|ss| {
        format!(
            "act a, b; e: Nat;\nproc P(n: Nat) = {};\ninit P(0);\n",
            ss.join("\n  + ")
        )
    })
}
