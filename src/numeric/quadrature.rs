//! Definite integrals in floating point: adaptive Gauss–Kronrod quadrature (7-point Gauss,
//! 15-point Kronrod), the interval with the largest error estimate bisected until the total
//! estimate is below [`RELATIVE_TOLERANCE`] of the integral (or [`ABSOLUTE_TOLERANCE`]).
//! Infinite limits are mapped onto a finite interval (x = a + t/(1−t), x = t/(1−t²)), whose
//! end points are never evaluated.
//!
//! Takes: an integrand as a function of one float, two limits. Gives: the integral and its
//! error estimate, or why there is none (a non-finite value, no convergence within
//! [`MAX_INTERVALS`]).

/// Stop when the estimated error is below this fraction of the integral's magnitude.
pub const RELATIVE_TOLERANCE: f64 = 1e-10;
/// … or below this, for integrals near zero.
pub const ABSOLUTE_TOLERANCE: f64 = 1e-12;
/// Intervals the bisection may make before it gives up.
pub const MAX_INTERVALS: usize = 400;

/// Gauss–Kronrod 7–15 nodes on [−1, 1] (the non-negative half; symmetric).
const KRONROD_NODES: [f64; 8] = [
    0.991_455_371_120_812_6,
    0.949_107_912_342_758_5,
    0.864_864_423_359_769_1,
    0.741_531_185_599_394_4,
    0.586_087_235_467_691_1,
    0.405_845_151_377_397_2,
    0.207_784_955_007_898_5,
    0.0,
];
const KRONROD_WEIGHTS: [f64; 8] = [
    0.022_935_322_010_529_22,
    0.063_092_092_629_978_55,
    0.104_790_010_322_250_2,
    0.140_653_259_715_525_9,
    0.169_004_726_639_267_9,
    0.190_350_578_064_785_4,
    0.204_432_940_075_298_9,
    0.209_482_141_084_727_8,
];
/// Weights of the 7-point Gauss rule at the Kronrod nodes 1, 3, 5, 7 (odd positions).
const GAUSS_WEIGHTS: [f64; 4] =
    [0.129_484_966_168_869_7, 0.279_705_391_489_276_7, 0.381_830_050_505_118_9, 0.417_959_183_673_469_4];

/// An integral's limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum End {
    At(f64),
    PlusInfinity,
    MinusInfinity,
}

/// Why there is no value.
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The integrand was not finite at `x`.
    NotFinite { x: f64 },
    /// The error estimate stayed above the tolerance (`estimate` of `value`).
    NoConvergence { value: f64, estimate: f64 },
    /// The integrand could not be evaluated (its error, passed through).
    Integrand(String),
}

/// ∫ f from `lower` to `upper`, with its error estimate.
pub fn integrate(f: &mut dyn FnMut(f64) -> Result<f64, String>, lower: End, upper: End) -> Result<(f64, f64), Failure> {
    match (lower, upper) {
        (End::At(a), End::At(b)) => adaptive(&mut |x| f(x).map(|v| (v, x)), a, b),
        (End::At(a), End::PlusInfinity) => {
            // x = a + t/(1−t), dx = dt/(1−t)², t ∈ [0, 1).
            let mut mapped = |t: f64| {
                let x = a + t / (1.0 - t);
                f(x).map(|v| (v / ((1.0 - t) * (1.0 - t)), x))
            };
            adaptive(&mut mapped, 0.0, 1.0)
        }
        (End::MinusInfinity, End::At(b)) => {
            // x = b − t/(1−t).
            let mut mapped = |t: f64| {
                let x = b - t / (1.0 - t);
                f(x).map(|v| (v / ((1.0 - t) * (1.0 - t)), x))
            };
            adaptive(&mut mapped, 0.0, 1.0)
        }
        (End::MinusInfinity, End::PlusInfinity) => {
            // x = t/(1−t²), dx = (1+t²)/(1−t²)² dt, t ∈ (−1, 1).
            adaptive(
                &mut |t| {
                    let d = 1.0 - t * t;
                    let x = t / d;
                    f(x).map(|v| (v * (1.0 + t * t) / (d * d), x))
                },
                -1.0,
                1.0,
            )
        }
        (End::PlusInfinity, End::PlusInfinity) | (End::MinusInfinity, End::MinusInfinity) => Ok((0.0, 0.0)),
        (End::PlusInfinity, _) | (_, End::MinusInfinity) => {
            // ∫_b^a = −∫_a^b.
            integrate(f, upper, lower).map(|(v, e)| (-v, e))
        }
    }
}

/// `g` returns the integrand's value (already multiplied by the map's Jacobian) and the point
/// of the original variable it was taken at (for the report of a non-finite value).
fn adaptive(g: &mut dyn FnMut(f64) -> Result<(f64, f64), String>, a: f64, b: f64) -> Result<(f64, f64), Failure> {
    if a == b {
        return Ok((0.0, 0.0));
    }
    let mut intervals = vec![kronrod(g, a, b)?];
    loop {
        let value: f64 = intervals.iter().map(|i| i.value).sum();
        let estimate: f64 = intervals.iter().map(|i| i.error).sum();
        if estimate <= (RELATIVE_TOLERANCE * value.abs()).max(ABSOLUTE_TOLERANCE) {
            return Ok((value, estimate));
        }
        if intervals.len() >= MAX_INTERVALS {
            return Err(Failure::NoConvergence { value, estimate });
        }
        let worst = (0..intervals.len())
            .max_by(|&i, &j| intervals[i].error.total_cmp(&intervals[j].error))
            .expect("at least one interval");
        let Interval { a, b, .. } = intervals.swap_remove(worst);
        let middle = 0.5 * (a + b);
        intervals.push(kronrod(g, a, middle)?);
        intervals.push(kronrod(g, middle, b)?);
    }
}

struct Interval {
    a: f64,
    b: f64,
    value: f64,
    error: f64,
}

fn kronrod(g: &mut dyn FnMut(f64) -> Result<(f64, f64), String>, a: f64, b: f64) -> Result<Interval, Failure> {
    let (center, half) = (0.5 * (a + b), 0.5 * (b - a));
    let mut at = |x: f64| -> Result<f64, Failure> {
        let (v, original) = g(x).map_err(Failure::Integrand)?;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(Failure::NotFinite { x: original })
        }
    };
    let middle = at(center)?;
    let (mut kronrod, mut gauss) = (KRONROD_WEIGHTS[7] * middle, GAUSS_WEIGHTS[3] * middle);
    for k in 0..7 {
        let dx = half * KRONROD_NODES[k];
        let pair = at(center - dx)? + at(center + dx)?;
        kronrod += KRONROD_WEIGHTS[k] * pair;
        if k % 2 == 1 {
            gauss += GAUSS_WEIGHTS[k / 2] * pair;
        }
    }
    let (value, coarse) = (kronrod * half, gauss * half);
    Ok(Interval { a, b, value, error: (value - coarse).abs() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(f: fn(f64) -> f64, a: End, b: End) -> f64 {
        integrate(&mut |x| Ok(f(x)), a, b).unwrap().0
    }

    #[test]
    fn integrals_known_in_closed_form() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b.abs().max(1.0);
        assert!(close(of(|y| y * (-y * y).exp(), End::At(0.0), End::At(1.0)), (1.0 - (-1.0f64).exp()) / 2.0));
        assert!(close(of(|_| -1.0, End::At(0.0), End::At(1.0)), -1.0));
        assert!(close(of(|_| 1.0, End::At(0.0), End::At(-1.0)), -1.0));
        assert!(close(of(|r| r * (-r * r).exp(), End::At(0.0), End::PlusInfinity), 0.5));
        assert!(close(of(|x| (-x * x).exp(), End::MinusInfinity, End::PlusInfinity), std::f64::consts::PI.sqrt()));
        assert!(close(of(|x| x.exp(), End::MinusInfinity, End::At(0.0)), 1.0));
        assert!(close(of(|x| 1.0 / (1.0 + x * x), End::PlusInfinity, End::MinusInfinity), -std::f64::consts::PI));
        // An integrable singularity at an end point: ∫_0^1 x^{-1/2} dx = 2.
        assert!(close(of(|x| x.powf(-0.5), End::At(0.0), End::At(1.0)), 2.0));
    }

    #[test]
    fn no_value_where_there_is_none() {
        // ∫_0^∞ 1/(1+x) diverges: no convergence, never a number.
        let diverges = integrate(&mut |x| Ok(1.0 / (1.0 + x)), End::At(0.0), End::PlusInfinity);
        assert!(
            matches!(diverges, Err(Failure::NoConvergence { .. }) | Err(Failure::NotFinite { .. })),
            "{diverges:?}"
        );
        let pole = integrate(&mut |x| Ok(1.0 / x), End::At(-1.0), End::At(1.0));
        assert!(pole.is_err(), "{pole:?}");
    }
}
