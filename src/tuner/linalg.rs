//! Small dense symmetric positive definite algebra (row-major `m × m`
//! slices): enough for rating fits of a few dozen players.

/// Lower Cholesky factor of a symmetric positive definite matrix, or `None`.
pub fn cholesky(a: &[f64], m: usize) -> Option<Vec<f64>> {
    debug_assert_eq!(a.len(), m * m);
    let mut l = vec![0.0; m * m];
    for i in 0..m {
        for j in 0..=i {
            let s: f64 = a[i * m + j] - (0..j).map(|k| l[i * m + k] * l[j * m + k]).sum::<f64>();
            if i == j {
                if s <= 0.0 || !s.is_finite() {
                    return None;
                }
                l[i * m + i] = s.sqrt();
            } else {
                l[i * m + j] = s / l[j * m + j];
            }
        }
    }
    Some(l)
}

/// Solves `L Lᵀ x = b` for a Cholesky factor `L`.
pub fn chol_solve(l: &[f64], m: usize, b: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; m];
    for i in 0..m {
        y[i] = (b[i] - (0..i).map(|k| l[i * m + k] * y[k]).sum::<f64>()) / l[i * m + i];
    }
    let mut x = vec![0.0; m];
    for i in (0..m).rev() {
        x[i] = (y[i] - (i + 1..m).map(|k| l[k * m + i] * x[k]).sum::<f64>()) / l[i * m + i];
    }
    x
}

/// The inverse from a Cholesky factor.
pub fn chol_inverse(l: &[f64], m: usize) -> Vec<f64> {
    let mut inv = vec![0.0; m * m];
    let mut e = vec![0.0; m];
    for c in 0..m {
        e.fill(0.0);
        e[c] = 1.0;
        let col = chol_solve(l, m, &e);
        for r in 0..m {
            inv[r * m + c] = col[r];
        }
    }
    inv
}

/// Eigenvalues and eigenvectors of a symmetric matrix by cyclic Jacobi
/// rotations: `(values, vectors)` with eigenvector `k` in column `k` of the
/// row-major `vectors`. Deterministic to the bit for the same input, which a
/// resumed run relies on.
pub fn symmetric_eigen(a: &[f64], m: usize) -> (Vec<f64>, Vec<f64>) {
    debug_assert_eq!(a.len(), m * m);
    let mut a = a.to_vec();
    let mut v: Vec<f64> = (0..m * m).map(|k| f64::from(u8::from(k / m == k % m))).collect();
    let scale: f64 = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    for _sweep in 0..64 {
        let off: f64 = (0..m)
            .flat_map(|i| (0..m).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i * m + j] * a[i * m + j])
            .sum::<f64>()
            .sqrt();
        if off.is_nan() || off <= 1e-15 * scale {
            break;
        }
        for p in 0..m {
            for q in p + 1..m {
                let apq = a[p * m + q];
                if apq == 0.0 {
                    continue;
                }
                // The rotation that zeroes a[p][q] (Numerical Recipes' jacobi).
                let theta = (a[q * m + q] - a[p * m + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..m {
                    let (akp, akq) = (a[k * m + p], a[k * m + q]);
                    a[k * m + p] = c * akp - s * akq;
                    a[k * m + q] = s * akp + c * akq;
                }
                for k in 0..m {
                    let (apk, aqk) = (a[p * m + k], a[q * m + k]);
                    a[p * m + k] = c * apk - s * aqk;
                    a[q * m + k] = s * apk + c * aqk;
                }
                for k in 0..m {
                    let (vkp, vkq) = (v[k * m + p], v[k * m + q]);
                    v[k * m + p] = c * vkp - s * vkq;
                    v[k * m + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    ((0..m).map(|i| a[i * m + i]).collect(), v)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_eigendecomposition_rebuilds_the_matrix() {
        let a = [4.0, 1.0, -2.0, 1.0, 3.0, 0.5, -2.0, 0.5, 5.0];
        let (values, v) = super::symmetric_eigen(&a, 3);
        for i in 0..3 {
            for j in 0..3 {
                let rebuilt: f64 = (0..3).map(|k| v[i * 3 + k] * values[k] * v[j * 3 + k]).sum();
                assert!((rebuilt - a[i * 3 + j]).abs() < 1e-12, "{i} {j}");
                let dot: f64 = (0..3).map(|k| v[k * 3 + i] * v[k * 3 + j]).sum();
                assert!((dot - f64::from(u8::from(i == j))).abs() < 1e-12);
            }
        }
        assert!((values.iter().sum::<f64>() - 12.0).abs() < 1e-12);
    }

    use super::*;

    #[test]
    fn cholesky_solves_and_inverts() {
        let a = [4.0, 2.0, 0.6, 2.0, 5.0, 1.0, 0.6, 1.0, 3.0];
        let l = cholesky(&a, 3).unwrap();
        let x = chol_solve(&l, 3, &[1.0, 2.0, 3.0]);
        for i in 0..3 {
            let ax: f64 = (0..3).map(|k| a[i * 3 + k] * x[k]).sum();
            assert!((ax - [1.0, 2.0, 3.0][i]).abs() < 1e-12);
        }
        let inv = chol_inverse(&l, 3);
        for i in 0..3 {
            for j in 0..3 {
                let p: f64 = (0..3).map(|k| a[i * 3 + k] * inv[k * 3 + j]).sum();
                assert!((p - (i == j) as u8 as f64).abs() < 1e-12);
            }
        }
        assert!(cholesky(&[1.0, 2.0, 2.0, 1.0], 2).is_none());
    }
}
