//! Levenberg-Marquardt least squares with box bounds, on a small dense problem.
//!
//! Minimises `sum r_i(x)^2` over `lo <= x <= hi`, with a forward-difference Jacobian
//! and Marquardt's diagonal scaling (Nocedal and Wright, "Numerical Optimization",
//! 2nd ed., section 10.3). Deterministic: the same inputs give the same iterates (the
//! Jacobian's columns are computed on several threads, each column on its own).

/// Consecutive steps that each gain less than 1e-7 of the cost before the fit stops.
const SMALL_STEPS: usize = 5;

/// How a fit ended.
#[derive(Debug, Clone)]
pub struct Solution {
    pub x: Vec<f64>,
    /// Sum of squared residuals at `x`.
    pub cost: f64,
    pub iterations: usize,
}

/// Fits `x` from `start` within `[lo, hi]`; `residuals` fills its output slice.
pub fn minimise(
    start: &[f64],
    lo: &[f64],
    hi: &[f64],
    max_iterations: usize,
    residuals: &(dyn Fn(&[f64], &mut Vec<f64>) + Sync),
) -> Solution {
    let n = start.len();
    let clamp = |x: &mut [f64]| {
        for i in 0..n {
            x[i] = x[i].clamp(lo[i], hi[i]);
        }
    };
    let mut x = start.to_vec();
    clamp(&mut x);
    let mut r = Vec::new();
    residuals(&x, &mut r);
    let mut cost = sq(&r);
    let m = r.len();
    let mut lambda = 1e-3;
    let mut jac = vec![0.0; m * n];
    let mut rh = Vec::with_capacity(m);
    let mut iterations = 0;
    let mut small = 0;
    let threads = std::thread::available_parallelism().map_or(1, |p| p.get().min(8));
    while iterations < max_iterations {
        iterations += 1;
        // Jacobian by forward (or, at the upper bound, backward) differences, the
        // columns shared out over the threads.
        let column = |j: usize, rh: &mut Vec<f64>| -> Vec<f64> {
            let h = 1e-6 * (1.0 + x[j].abs());
            let mut xh = x.clone();
            let step = if x[j] + h <= hi[j] { h } else { -h };
            xh[j] += step;
            residuals(&xh, rh);
            rh.iter().zip(&r).map(|(a, b)| (a - b) / step).collect()
        };
        let columns: Vec<(usize, Vec<f64>)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let column = &column;
                    scope.spawn(move || {
                        let mut rh = Vec::with_capacity(m);
                        (t..n)
                            .step_by(threads)
                            .map(|j| (j, column(j, &mut rh)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("a Jacobian thread panicked"))
                .collect()
        });
        for (j, col) in columns {
            for (i, v) in col.into_iter().enumerate() {
                jac[i * n + j] = v;
            }
        }
        let mut jtj = vec![0.0; n * n];
        let mut jtr = vec![0.0; n];
        for i in 0..m {
            let row = &jac[i * n..(i + 1) * n];
            for a in 0..n {
                jtr[a] += row[a] * r[i];
                for b in a..n {
                    jtj[a * n + b] += row[a] * row[b];
                }
            }
        }
        for a in 0..n {
            for b in 0..a {
                jtj[a * n + b] = jtj[b * n + a];
            }
        }
        let mut improved = false;
        for _ in 0..30 {
            let mut sys = jtj.clone();
            for a in 0..n {
                sys[a * n + a] += lambda * (jtj[a * n + a] + 1e-9);
            }
            let rhs: Vec<f64> = jtr.iter().map(|v| -v).collect();
            let Some(dx) = solve(&mut sys, rhs, n) else {
                lambda *= 10.0;
                continue;
            };
            let mut xn: Vec<f64> = x.iter().zip(&dx).map(|(a, d)| a + d).collect();
            clamp(&mut xn);
            residuals(&xn, &mut rh);
            let cn = sq(&rh);
            if cn < cost {
                let gain = cost - cn;
                x = xn;
                std::mem::swap(&mut r, &mut rh);
                cost = cn;
                lambda = (lambda / 3.0).max(1e-12);
                improved = true;
                // One tiny step can be a crawl along a valley of the piecewise
                // objective (min of ceilings, bands): stop only after several in a row.
                small = if gain <= 1e-7 * cost.max(1e-12) {
                    small + 1
                } else {
                    0
                };
                if small >= SMALL_STEPS {
                    return Solution {
                        x,
                        cost,
                        iterations,
                    };
                }
                break;
            }
            lambda *= 4.0;
            if lambda > 1e12 {
                break;
            }
        }
        if !improved {
            break;
        }
    }
    Solution {
        x,
        cost,
        iterations,
    }
}

fn sq(r: &[f64]) -> f64 {
    r.iter().map(|v| v * v).sum()
}

/// Solves `a x = b` (n x n, row-major) by Gaussian elimination with partial pivoting.
fn solve(a: &mut [f64], mut b: Vec<f64>, n: usize) -> Option<Vec<f64>> {
    for col in 0..n {
        let piv =
            (col..n).max_by(|&i, &j| a[i * n + col].abs().total_cmp(&a[j * n + col].abs()))?;
        if a[piv * n + col].abs() < 1e-300 {
            return None;
        }
        if piv != col {
            for k in 0..n {
                a.swap(piv * n + k, col * n + k);
            }
            b.swap(piv, col);
        }
        for row in col + 1..n {
            let f = a[row * n + col] / a[col * n + col];
            if f != 0.0 {
                for k in col..n {
                    a[row * n + k] -= f * a[col * n + k];
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let mut s = b[row];
        for k in row + 1..n {
            s -= a[row * n + k] * x[k];
        }
        x[row] = s / a[row * n + row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_a_known_curve_within_bounds() {
        // y = a exp(b t) through exact points: a = 2, b = 0.5.
        let ts = [0.0, 1.0, 2.0, 3.0, 4.0];
        let f = |x: &[f64], r: &mut Vec<f64>| {
            r.clear();
            r.extend(
                ts.iter()
                    .map(|&t| x[0] * (x[1] * t).exp() - 2.0 * (0.5 * t).exp()),
            );
        };
        let s = minimise(&[1.0, 0.1], &[0.0, 0.0], &[10.0, 10.0], 200, &f);
        assert!(
            (s.x[0] - 2.0).abs() < 1e-6 && (s.x[1] - 0.5).abs() < 1e-6,
            "{s:?}"
        );
        // The bound holds even when the optimum lies beyond it.
        let s = minimise(&[1.0, 0.1], &[0.0, 0.0], &[10.0, 0.4], 200, &f);
        assert!(s.x[1] <= 0.4 + 1e-12);
    }
}
