//! Thinning long series for drawing without changing their shape. A 4-hour activity has ~15,000
//! samples but a chart is ~1,100 pixels wide: drawing every sample costs time and shows nothing
//! more. [`min_max`] cuts the series into equal buckets and keeps each bucket's lowest and highest
//! point (in their original order), plus the first and last point, so every peak and trough — a
//! sprint, a heart-rate spike, a stop — survives. [`indices`] does the same for several aligned
//! columns at once (the answers' and the interactive view's time series).

/// At most `max_points` of `points` (sorted by x): the first and last point and, for each of
/// `(max_points - 2) / 2` buckets of the points between them, the bucket's lowest and highest
/// point in x order. Series already short enough are returned whole. Non-finite values should be
/// removed first (they are never chosen as extremes but may be kept as bucket members otherwise).
pub fn min_max(points: &[(f64, f64)], max_points: usize) -> Vec<(f64, f64)> {
    let n = points.len();
    if n <= max_points {
        return points.to_vec();
    }
    if max_points < 4 {
        // Too small a budget for buckets: the ends, then the global extremes if room allows.
        let mut keep: Vec<usize> = vec![0, n - 1];
        if max_points >= 3
            && let Some(i) = extreme(points, 1..n - 1, true)
        {
            keep.insert(1, i);
        }
        keep.truncate(max_points);
        return keep.into_iter().map(|i| points[i]).collect();
    }
    let inner = n - 2;
    let buckets = (max_points - 2) / 2;
    let mut out = Vec::with_capacity(max_points);
    out.push(points[0]);
    for b in 0..buckets {
        let from = 1 + b * inner / buckets;
        let to = 1 + (b + 1) * inner / buckets;
        if from >= to {
            continue;
        }
        let lo = extreme(points, from..to, false);
        let hi = extreme(points, from..to, true);
        match (lo, hi) {
            (Some(a), Some(b)) if a == b => out.push(points[a]),
            (Some(a), Some(b)) => {
                let (first, second) = if a < b { (a, b) } else { (b, a) };
                out.push(points[first]);
                out.push(points[second]);
            }
            (Some(a), None) | (None, Some(a)) => out.push(points[a]),
            (None, None) => out.push(points[from + (to - from) / 2]),
        }
    }
    out.push(points[n - 1]);
    out
}

/// Indices to keep when thinning `n` samples of several aligned signals to at most `max`: first,
/// last, the global extremes of every signal, then the lowest and highest `primary` value of each
/// bucket (so peaks survive), in order. For tables of several columns (an activity's time series),
/// where [`min_max`] thins one `(x, y)` line.
pub fn indices(n: usize, max: usize, primary: &[Option<f64>], extremes: &[&[Option<f64>]]) -> Vec<usize> {
    if n <= max {
        return (0..n).collect();
    }
    let arg = |values: &[Option<f64>], range: std::ops::Range<usize>, highest: bool| -> Option<usize> {
        range
            .filter_map(|i| values.get(i).copied().flatten().filter(|v| v.is_finite()).map(|v| (i, v)))
            .reduce(|best, cur| {
                let better = if highest { cur.1 > best.1 } else { cur.1 < best.1 };
                if better { cur } else { best }
            })
            .map(|(i, _)| i)
    };
    let mut keep: std::collections::BTreeSet<usize> = std::collections::BTreeSet::new();
    keep.insert(0);
    keep.insert(n - 1);
    for values in std::iter::once(primary).chain(extremes.iter().copied()) {
        for highest in [true, false] {
            if keep.len() < max
                && let Some(i) = arg(values, 0..n, highest)
            {
                keep.insert(i);
            }
        }
    }
    let room = max.saturating_sub(keep.len());
    let buckets = room / 2;
    if buckets > 0 {
        let inner = n - 2;
        for b in 0..buckets {
            let from = 1 + b * inner / buckets;
            let to = 1 + (b + 1) * inner / buckets;
            if from >= to {
                continue;
            }
            let hi = arg(primary, from..to, true);
            let lo = arg(primary, from..to, false);
            match (hi, lo) {
                (None, None) => {
                    keep.insert(from + (to - from) / 2);
                }
                (a, b) => {
                    keep.extend(a);
                    keep.extend(b);
                }
            }
        }
    }
    keep.into_iter().take(max).collect()
}

/// Index of the highest (or lowest) finite y in `range`.
fn extreme(points: &[(f64, f64)], range: std::ops::Range<usize>, highest: bool) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for i in range {
        let y = points[i].1;
        if !y.is_finite() {
            continue;
        }
        let better = match best {
            None => true,
            Some((_, b)) => {
                if highest {
                    y > b
                } else {
                    y < b
                }
            }
        };
        if better {
            best = Some((i, y));
        }
    }
    best.map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic wavy series with a spike and a dip placed mid-bucket.
    fn series(n: usize) -> Vec<(f64, f64)> {
        let mut points: Vec<(f64, f64)> =
            (0..n).map(|i| (i as f64, 150.0 + 10.0 * (i as f64 / 37.0).sin() + (i % 7) as f64)).collect();
        points[n / 3 + 5].1 = 199.0;
        points[2 * n / 3 + 11].1 = 80.0;
        points
    }

    #[test]
    fn keeps_the_global_extremes_the_ends_and_the_bound() {
        let points = series(15_000);
        for max in [4, 10, 100, 1_000, 2_400] {
            let thin = min_max(&points, max);
            assert!(thin.len() <= max, "{} points for a budget of {max}", thin.len());
            assert!(thin.len() >= max - 2, "the budget should be used: {} of {max}", thin.len());
            assert_eq!(thin.first(), points.first());
            assert_eq!(thin.last(), points.last());
            assert!(thin.iter().any(|p| p.1 == 199.0), "the spike was lost at {max}");
            assert!(thin.iter().any(|p| p.1 == 80.0), "the dip was lost at {max}");
            assert!(thin.windows(2).all(|w| w[0].0 < w[1].0), "x order must be kept");
            assert!(thin.iter().all(|p| points.contains(p)), "only original points are kept");
        }
    }

    #[test]
    fn every_bucket_keeps_its_own_peak_and_trough() {
        let points = series(10_000);
        let thin = min_max(&points, 202);
        // 100 buckets of 99.98 points each: each bucket's max and min must be present.
        let inner = points.len() - 2;
        for b in 0..100 {
            let (from, to) = (1 + b * inner / 100, 1 + (b + 1) * inner / 100);
            let slice = &points[from..to];
            let hi = slice.iter().map(|p| p.1).fold(f64::MIN, f64::max);
            let lo = slice.iter().map(|p| p.1).fold(f64::MAX, f64::min);
            let kept: Vec<f64> =
                thin.iter().filter(|p| p.0 >= from as f64 && p.0 < to as f64).map(|p| p.1).collect();
            assert!(kept.contains(&hi) && kept.contains(&lo), "bucket {b} lost an extreme");
        }
    }

    #[test]
    fn short_series_and_tiny_budgets() {
        let points = series(50);
        assert_eq!(min_max(&points, 100), points);
        assert_eq!(min_max(&points, 2), vec![points[0], points[49]]);
        let three = min_max(&points, 3);
        assert_eq!(three.len(), 3);
        assert_eq!(three[1].1, 199.0);
        assert!(min_max(&[], 10).is_empty());
    }

    #[test]
    fn indices_keep_the_peaks_the_ends_and_the_cap() {
        let mut hr: Vec<Option<f64>> = (0..5000).map(|i| Some(140.0 + f64::from(i % 97) / 10.0)).collect();
        hr[3333] = Some(199.0);
        let keep = indices(5000, 100, &hr, &[]);
        assert!(keep.len() <= 100 && keep.len() >= 90, "{}", keep.len());
        assert!(keep.contains(&3333) && keep.contains(&0) && keep.contains(&4999));
        assert!(keep.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(indices(10, 100, &hr[..10], &[]), (0..10).collect::<Vec<_>>(), "short tables stay whole");
    }
}
