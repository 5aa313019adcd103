//! Arithmetic modulo a prime drawn at random from [2⁶¹, 2⁶²) — one prime per lane, each lane an
//! independent trial — and exact small rationals for constants.
//!
//! The prime is random so that no formula can be built to fool the test: a nonzero integer
//! polynomial vanishes modulo p only if p divides its coefficients, and a coefficient below
//! 2^h has at most h/61 prime factors of this size, out of about 2^55.4 primes in the range.

use rand::Rng;

/// Independent trials carried side by side in every value.
pub const LANES: usize = 3;
/// One value per trial.
pub type Lanes = [u64; LANES];
/// log₂ of the smallest prime that may be drawn.
pub const PRIME_BITS: i32 = 61;
/// log₂ of the number of primes in [2⁶¹, 2⁶²) (about 2⁶¹ / ln 2⁶² ≈ 2^55.46), rounded down.
pub const PRIMES_IN_RANGE_LOG2: f64 = 55.4;

pub fn add(a: u64, b: u64, p: u64) -> u64 {
    let s = a + b;
    if s >= p {
        s - p
    } else {
        s
    }
}

pub fn sub(a: u64, b: u64, p: u64) -> u64 {
    if a >= b {
        a - b
    } else {
        a + p - b
    }
}

pub fn neg(a: u64, p: u64) -> u64 {
    if a == 0 {
        0
    } else {
        p - a
    }
}

pub fn mul(a: u64, b: u64, p: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) % u128::from(p)) as u64
}

pub fn pow(mut base: u64, mut exponent: u64, p: u64) -> u64 {
    let mut result = 1 % p;
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = mul(result, base, p);
        }
        base = mul(base, base, p);
        exponent >>= 1;
    }
    result
}

/// a⁻¹ by the extended Euclidean algorithm; the caller makes sure a ≠ 0.
pub fn inverse(a: u64, p: u64) -> u64 {
    let (mut r0, mut r1) = (i128::from(p), i128::from(a));
    let (mut t0, mut t1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    t0.rem_euclid(i128::from(p)) as u64
}

pub fn of_i128(n: i128, p: u64) -> u64 {
    n.rem_euclid(i128::from(p)) as u64
}

pub fn lanes(f: impl FnMut(usize) -> u64) -> Lanes {
    std::array::from_fn(f)
}

/// Deterministic Miller–Rabin for 64-bit numbers.
pub fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for small in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        if n.is_multiple_of(small) {
            return n == small;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d % 2 == 0 {
        d /= 2;
        s += 1;
    }
    'witness: for a in [2u64, 325, 9375, 28178, 450775, 9780504, 1795265022] {
        let mut x = pow(a % n, d, n);
        if x == 0 || x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul(x, x, n);
            if x == n - 1 {
                continue 'witness;
            }
        }
        return false;
    }
    true
}

/// A prime drawn uniformly from the primes in [2⁶¹, 2⁶²): uniform integers until one is prime.
pub fn random_prime(rng: &mut impl Rng) -> u64 {
    loop {
        let candidate = rng.random_range(1u64 << 61..1u64 << 62);
        if is_prime(candidate) {
            return candidate;
        }
    }
}

/// An exact rational constant n/d (d > 0, lowest terms), kept while it fits in i128.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    pub numerator: i128,
    pub denominator: i128,
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

impl Ratio {
    /// n/d in lowest terms; `None` for d = 0 and for i128::MIN (whose negation overflows).
    pub fn new(numerator: i128, denominator: i128) -> Option<Ratio> {
        if denominator == 0 || numerator == i128::MIN || denominator == i128::MIN {
            return None;
        }
        let g = gcd(numerator, denominator).max(1);
        let sign = if denominator < 0 { -1 } else { 1 };
        Some(Ratio { numerator: sign * (numerator / g), denominator: sign * (denominator / g) })
    }

    pub fn int(n: i128) -> Ratio {
        Ratio { numerator: n, denominator: 1 }
    }

    pub fn is_integer(&self) -> bool {
        self.denominator == 1
    }

    pub fn is_zero(&self) -> bool {
        self.numerator == 0
    }

    /// n/d modulo p; `None` when p divides d.
    pub fn residue(&self, p: u64) -> Option<u64> {
        let d = of_i128(self.denominator, p);
        (d != 0).then(|| mul(of_i128(self.numerator, p), inverse(d, p), p))
    }

    /// log₂ of |n| and of d (0 for 0): the heights of numerator and denominator.
    pub fn heights(&self) -> (f64, f64) {
        let bits = |x: i128| if x == 0 { 0.0 } else { (x.unsigned_abs() as f64).log2() };
        (bits(self.numerator), bits(self.denominator))
    }

    pub fn add(&self, o: &Ratio) -> Option<Ratio> {
        let n = self.numerator.checked_mul(o.denominator)?.checked_add(o.numerator.checked_mul(self.denominator)?)?;
        Ratio::new(n, self.denominator.checked_mul(o.denominator)?)
    }

    pub fn negate(&self) -> Option<Ratio> {
        Some(Ratio { numerator: self.numerator.checked_neg()?, denominator: self.denominator })
    }

    pub fn mul(&self, o: &Ratio) -> Option<Ratio> {
        Ratio::new(self.numerator.checked_mul(o.numerator)?, self.denominator.checked_mul(o.denominator)?)
    }

    pub fn reciprocal(&self) -> Option<Ratio> {
        Ratio::new(self.denominator, self.numerator)
    }

    pub fn pow(&self, k: i64) -> Option<Ratio> {
        let base = if k < 0 { self.reciprocal()? } else { *self };
        let e = u32::try_from(k.unsigned_abs()).ok()?;
        Ratio::new(base.numerator.checked_pow(e)?, base.denominator.checked_pow(e)?)
    }

    /// The exact t-th root of a non-negative rational, when it is rational (√4 = 2).
    pub fn root(&self, t: u32) -> Option<Ratio> {
        fn int_root(n: i128, t: u32) -> Option<i128> {
            if n < 0 || t == 0 {
                return None;
            }
            let guess = (n as f64).powf(1.0 / f64::from(t)).round() as i128;
            (guess.saturating_sub(1)..=guess.saturating_add(1)).find(|g| *g >= 0 && g.checked_pow(t) == Some(n))
        }
        Ratio::new(int_root(self.numerator, t)?, int_root(self.denominator, t)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const M61: u64 = (1 << 61) - 1;

    #[test]
    fn field_laws_hold_at_the_edges() {
        let big = M61 - 1;
        assert_eq!(mul(big, big, M61), 1); // (−1)² = 1
        assert_eq!(add(big, 1, M61), 0);
        assert_eq!(sub(0, 1, M61), big);
        for a in [1, 2, 12345, M61 - 2, 1 << 60] {
            assert_eq!(mul(a, inverse(a, M61), M61), 1, "{a}");
        }
        assert_eq!(of_i128(-1, M61), big);
    }

    #[test]
    fn primes_are_primes_and_drawn_in_range() {
        assert!(is_prime(M61));
        assert!(!is_prime(M61 - 2));
        assert!(!is_prime(3_215_031_751)); // a strong pseudoprime to bases 2, 3, 5, 7
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(1);
        let p = random_prime(&mut rng);
        assert!(is_prime(p) && (1 << 61..1 << 62).contains(&p));
        assert_eq!(mul(p - 1, inverse(p - 1, p), p), 1);
    }

    #[test]
    fn rationals_stay_exact_and_roots_are_found_only_when_rational() {
        let half = Ratio::new(2, 4).unwrap();
        assert_eq!(half, Ratio::new(-1, -2).unwrap());
        assert_eq!(mul(half.residue(M61).unwrap(), 2, M61), 1);
        assert_eq!(Ratio::int(i128::from(M61)).residue(M61), Some(0));
        assert_eq!(Ratio::new(1, i128::from(M61)).unwrap().residue(M61), None);
        assert_eq!(Ratio::int(4).root(2), Some(Ratio::int(2)));
        assert_eq!(Ratio::new(9, 4).unwrap().root(2), Ratio::new(3, 2));
        assert_eq!(Ratio::int(2).root(2), None);
        assert_eq!(Ratio::int(10).pow(40), None, "overflow is not a wrong value");
        assert_eq!(Ratio::int(2).pow(-2), Ratio::new(1, 4));
        assert_eq!(Ratio::new(i128::MIN, -1), None, "no overflow on the edge");
        assert_eq!(Ratio::int(-(1 << 63)).mul(&Ratio::int(1 << 64)), None);
    }
}
