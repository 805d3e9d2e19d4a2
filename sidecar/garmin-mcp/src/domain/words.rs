//! Garmin's measurements as whole numbers, with its -1/-2 "none" markers dropped; keys and counts
//! as words (`some key`, `12,345`) come from the `display` crate.

pub(crate) use display::{thousands, words};

/// A non-negative measurement as a whole number (Garmin uses -1/-2 for "none"); `None` for
/// negative and non-finite values.
pub(crate) fn whole(x: f64) -> Option<u64> {
    (x.is_finite() && x >= 0.0).then(|| x.round() as u64)
}

/// [`whole`] of an optional measurement as `u32`, capped at `u32::MAX` (answer fields that are
/// counts, beats per minute, watts, metres).
pub(crate) fn whole_u32(value: Option<f64>) -> Option<u32> {
    value.and_then(whole).map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}
