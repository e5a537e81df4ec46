//! Integer arithmetic on machine words with an exact big-integer fallback on overflow.

use std::cmp::Ordering;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

/// An integer value: a machine word when it fits, otherwise a big integer. Never wraps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IntVal {
    /// Fits in an `i64`.
    Small(i64),
    /// Does not fit in an `i64` (kept canonical by [`IntVal::from_big`]).
    Big(BigInt),
}

impl IntVal {
    /// Canonical form of a big integer.
    pub fn from_big(b: BigInt) -> IntVal {
        match b.to_i64() {
            Some(v) => IntVal::Small(v),
            None => IntVal::Big(b),
        }
    }

    /// As a big integer.
    pub fn to_big(&self) -> BigInt {
        match self {
            IntVal::Small(v) => BigInt::from(*v),
            IntVal::Big(b) => b.clone(),
        }
    }

    /// The sign: -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match self {
            IntVal::Small(v) => v.signum() as i32,
            IntVal::Big(b) => {
                if b.is_negative() {
                    -1
                } else if b.is_zero() {
                    0
                } else {
                    1
                }
            }
        }
    }

    fn bin(
        &self,
        o: &IntVal,
        small: impl Fn(i64, i64) -> Option<i64>,
        big: impl Fn(&BigInt, &BigInt) -> BigInt,
    ) -> IntVal {
        if let (IntVal::Small(a), IntVal::Small(b)) = (self, o) {
            if let Some(r) = small(*a, *b) {
                return IntVal::Small(r);
            }
        }
        IntVal::from_big(big(&self.to_big(), &o.to_big()))
    }

    /// `self + o`.
    pub fn add(&self, o: &IntVal) -> IntVal {
        self.bin(o, i64::checked_add, |a, b| a + b)
    }

    /// `self - o`.
    pub fn sub(&self, o: &IntVal) -> IntVal {
        self.bin(o, i64::checked_sub, |a, b| a - b)
    }

    /// `self * o`.
    pub fn mul(&self, o: &IntVal) -> IntVal {
        self.bin(o, i64::checked_mul, |a, b| a * b)
    }

    /// Floor division (`o` must be non-zero).
    pub fn div_floor(&self, o: &IntVal) -> IntVal {
        self.bin(
            o,
            |a, b| {
                if b == 0 || (a == i64::MIN && b == -1) {
                    None
                } else {
                    Some(Integer::div_floor(&a, &b))
                }
            },
            |a, b| Integer::div_floor(a, b),
        )
    }

    /// Floor modulus (`o` must be non-zero): non-negative for positive `o`.
    pub fn mod_floor(&self, o: &IntVal) -> IntVal {
        self.bin(
            o,
            |a, b| {
                if b == 0 || (a == i64::MIN && b == -1) {
                    None
                } else {
                    Some(Integer::mod_floor(&a, &b))
                }
            },
            |a, b| Integer::mod_floor(a, b),
        )
    }

    /// `-self`.
    pub fn neg(&self) -> IntVal {
        match self {
            IntVal::Small(v) => match v.checked_neg() {
                Some(r) => IntVal::Small(r),
                None => IntVal::from_big(-BigInt::from(*v)),
            },
            IntVal::Big(b) => IntVal::from_big(-b),
        }
    }

    /// `|self|`.
    pub fn abs(&self) -> IntVal {
        if self.signum() < 0 {
            self.neg()
        } else {
            self.clone()
        }
    }

    /// `self ^ e` for a non-negative exponent; `None` if the exponent exceeds `u32`.
    pub fn pow(&self, e: &IntVal) -> Option<IntVal> {
        let e = match e {
            IntVal::Small(e) if *e >= 0 => u32::try_from(*e).ok()?,
            _ => {
                // Huge exponents are only computable for bases 0, 1 and -1.
                return match self {
                    IntVal::Small(0) | IntVal::Small(1) => Some(self.clone()),
                    _ => None,
                };
            }
        };
        if let IntVal::Small(b) = self {
            if let Some(r) = b.checked_pow(e) {
                return Some(IntVal::Small(r));
            }
        }
        Some(IntVal::from_big(num_traits::pow(self.to_big(), e as usize)))
    }

    /// Whether the value is at least 1.
    pub fn is_positive(&self) -> bool {
        self.signum() > 0
    }
}

impl PartialOrd for IntVal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for IntVal {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (IntVal::Small(a), IntVal::Small(b)) => a.cmp(b),
            _ => self.to_big().cmp(&other.to_big()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_falls_back_to_big() {
        let a = IntVal::Small(i64::MAX);
        let r = a.add(&IntVal::Small(1));
        assert_eq!(r, IntVal::Big(BigInt::from(i64::MAX) + 1));
        assert_eq!(r.sub(&IntVal::Small(1)), IntVal::Small(i64::MAX));
        assert_eq!(
            IntVal::Small(i64::MIN).neg().to_big(),
            -BigInt::from(i64::MIN)
        );
        assert_eq!(
            IntVal::Small(-7).div_floor(&IntVal::Small(2)),
            IntVal::Small(-4)
        );
        assert_eq!(
            IntVal::Small(-7).mod_floor(&IntVal::Small(2)),
            IntVal::Small(1)
        );
        assert_eq!(
            IntVal::Small(2).pow(&IntVal::Small(100)).unwrap().to_big(),
            BigInt::from(1) << 100
        );
    }
}
