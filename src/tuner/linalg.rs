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

#[cfg(test)]
mod tests {
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
