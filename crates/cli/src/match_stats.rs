//! The statistics of `carc match` (documented in `docs/cli.md`): the score fraction of player
//! A with a 95 % interval, the Elo difference it implies, and a sequential probability ratio
//! test. Games come in sets dealt from one seed (a pair in a 2-player match, with the seats
//! swapped); the variance is taken over the sets' mean scores (the pentanomial model of
//! fishtest for pairs), which counts the luck of the deal that both games of a set share
//! once instead of twice.

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// What a set of games gives, summed up.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Mean score of A (a draw counts half).
    pub score: f64,
    pub score_ci95: (f64, f64),
    pub elo: f64,
    pub elo_ci95: (f64, f64),
}

/// The Elo difference whose expected score is `p` (logistic; ±∞ at 1 and 0).
pub fn elo(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The expected score of an Elo difference (logistic).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The mean and the variance (divided by n) of the sets' mean scores.
fn mean_and_variance(sets: &[f64]) -> (f64, f64) {
    let n = sets.len() as f64;
    if sets.is_empty() {
        return (0.5, 0.0);
    }
    let mean = sets.iter().sum::<f64>() / n;
    let var = sets.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    (mean, var)
}

/// The summary of the sets' mean scores (each the mean of A's score over the set's games).
pub fn summarise(sets: &[f64]) -> Summary {
    let (mean, var) = mean_and_variance(sets);
    let se = (var / (sets.len().max(1) as f64)).sqrt();
    let lo = (mean - Z95 * se).clamp(0.0, 1.0);
    let hi = (mean + Z95 * se).clamp(0.0, 1.0);
    Summary {
        score: mean,
        score_ci95: (lo, hi),
        elo: elo(mean),
        elo_ci95: (elo(lo), elo(hi)),
    }
}

/// The SPRT's bounds on the log-likelihood ratio for α = β = 0.05: H0 is accepted at or below
/// the first, H1 at or above the second.
pub fn sprt_bounds() -> (f64, f64) {
    let (alpha, beta) = (0.05f64, 0.05f64);
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// The log-likelihood ratio of H1 (A is `elo1` stronger) against H0 (`elo0`), in the normal
/// approximation fishtest uses: `n (s1 − s0) (2 x̄ − s0 − s1) / (2 σ²)` over the sets' mean
/// scores, `s0`, `s1` the expected scores of the two Elo differences. The variance gets one
/// pseudo-set of variance 1/8 (a pair of coin flips), so that the first sets, often all
/// alike, cannot decide alone.
pub fn sprt_llr(sets: &[f64], elo0: f64, elo1: f64) -> f64 {
    if sets.is_empty() {
        return 0.0;
    }
    let n = sets.len() as f64;
    let (mean, var) = mean_and_variance(sets);
    let var = (var * n + 0.125) / (n + 1.0);
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_follows_the_logistic_curve() {
        assert_eq!(elo(0.5), 0.0);
        assert!((elo(0.75) - 190.848).abs() < 0.01);
        assert!((expected_score(elo(0.3)) - 0.3).abs() < 1e-12);
        assert_eq!(elo(1.0), f64::INFINITY);
    }

    #[test]
    fn the_interval_comes_from_the_variance_over_sets() {
        // Given pairs won 2-0, 1-1 and 0-2 alike: a mean of one half
        let s = summarise(&[1.0, 0.5, 0.0, 0.5]);
        assert_eq!(s.score, 0.5);
        assert!(s.score_ci95.0 < 0.5 && s.score_ci95.1 > 0.5);
        assert!((s.elo_ci95.0 + s.elo_ci95.1).abs() < 1e-9);
        // And sets all alike leave no doubt
        assert_eq!(summarise(&[0.5, 0.5]).score_ci95, (0.5, 0.5));
    }

    #[test]
    fn the_sprt_accepts_the_hypothesis_the_results_fit() {
        let (lower, upper) = sprt_bounds();
        assert!((upper - 2.944).abs() < 0.001 && (lower + upper).abs() < 1e-12);
        let strong = vec![1.0, 0.75, 1.0, 1.0, 0.75, 1.0, 1.0, 1.0];
        assert!(sprt_llr(&strong, 0.0, 100.0) > upper);
        let even = vec![0.5, 0.25, 0.75, 0.5, 0.5, 0.5, 0.25, 0.75, 0.5, 0.5];
        assert!(sprt_llr(&even, 100.0, 300.0) < lower);
        // One even pair alone decides nothing
        assert!(sprt_llr(&[0.5], 0.0, 10.0) > lower);
    }
}
