//! Garmin's keys, counts and measurements as people write them: `SOME_KEY` as `some key`,
//! `12,345`, and -1/-2 "none" markers dropped from whole numbers.

/// Garmin's `SOME_KEY` as `some key`.
pub(crate) fn words(key: &str) -> String {
    key.trim().to_lowercase().replace('_', " ")
}

/// `12,345`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A non-negative measurement as a whole number (Garmin uses -1/-2 for "none").
pub(crate) fn whole(x: f64) -> Option<u64> {
    (x.is_finite() && x >= 0.0).then(|| x.round() as u64)
}
