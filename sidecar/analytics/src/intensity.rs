//! Intensity distribution: time in zones as fractions, the share in the low zones, and Treff's
//! polarization index (issue #16 §4).
//!
//! Polarization index (Treff et al. 2019) on a three-zone model (Z1 below the first threshold, Z2
//! between the thresholds, Z3 above the second), zones as fractions of the total:
//! PI = log10(Z1 / Z2 × Z3 × 100); PI > 2.0 is polarised. Edge cases, as we state them:
//! - no time in zones, Z1 = 0 or Z3 = 0: PI undefined (`None`) and not polarised (without time both
//!   easy and hard a distribution cannot be polarised, and the logarithm of 0 has no value);
//! - Z2 = 0 with Z1 and Z3 > 0: Z2 is taken as 0.01 (1 %) so the index stays finite (such a
//!   distribution is as polarised as it gets), and the result says so.
//!
//! Garmin's five heart-rate zones map to the three as Z1 = zones 1–2, Z2 = zone 3, Z3 = zones 4–5
//! (the usual mapping of a 5-zone model onto Seiler's 3 zones).

use serde::Serialize;

use crate::usable;

/// PI above this is polarised.
pub const POLARIZED_ABOVE: f64 = 2.0;
/// The Z2 fraction used when Z2 is 0.
pub const Z2_FLOOR: f64 = 0.01;

/// Convention of [`PolarizationIndex`].
pub const PI_CONVENTION: &str = "Treff polarization index: PI = log10(Z1/Z2 × Z3 × 100) on 3-zone fractions (Z1 = zones 1–2, \
     Z2 = zone 3, Z3 = zones 4–5 of 5), > 2.0 polarised; Z2 = 0 → 0.01; Z1 or Z3 = 0 → undefined, not polarised";

/// Convention of [`ZoneDistribution`].
pub const ZONE_CONVENTION: &str = "time in zones as fractions of the total time in zones; low share = the first zones (e.g. 1–2 of 5 HR zones)";

/// Time in zones as fractions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ZoneDistribution {
    /// Seconds per zone as given (bad values as 0).
    pub seconds: Vec<f64>,
    /// Each zone's fraction of the total (all 0 without time).
    pub fractions: Vec<f64>,
    /// Total seconds.
    pub total_seconds: f64,
    /// Fraction of time in the first `low_zones` zones.
    pub low_share: f64,
    /// How many zones count as low.
    pub low_zones: usize,
    /// The convention in one sentence ([`ZONE_CONVENTION`]).
    pub convention: &'static str,
}

/// Fractions of time per zone and the share in the first `low_zones` zones (e.g. 2 of Garmin's 5
/// heart-rate zones, below the aerobic threshold). Non-finite or negative seconds count as 0.
pub fn zone_distribution(seconds_per_zone: &[f64], low_zones: usize) -> ZoneDistribution {
    let seconds: Vec<f64> = seconds_per_zone.iter().map(|&s| usable(s).unwrap_or(0.0)).collect();
    let total: f64 = seconds.iter().sum();
    let fractions: Vec<f64> = seconds.iter().map(|s| if total > 0.0 { s / total } else { 0.0 }).collect();
    let low_share = fractions.iter().take(low_zones).sum();
    let low_zones = low_zones.min(fractions.len());
    ZoneDistribution {
        seconds,
        fractions,
        total_seconds: total,
        low_share,
        low_zones,
        convention: ZONE_CONVENTION,
    }
}

/// Garmin's five zones (time in each) as the three of the polarization model: 1–2, 3, 4–5.
pub fn three_zones_from_five(five: [f64; 5]) -> [f64; 3] {
    let c = |x: f64| usable(x).unwrap_or(0.0);
    [c(five[0]) + c(five[1]), c(five[2]), c(five[3]) + c(five[4])]
}

/// A polarization index.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolarizationIndex {
    /// The three zones as fractions.
    pub fractions: [f64; 3],
    /// PI; `None` when undefined (see `note`).
    pub value: Option<f64>,
    /// PI > 2.0.
    pub polarized: bool,
    /// Z2 was 0 and was taken as 0.01.
    pub z2_floored: bool,
    /// Why the index is undefined or floored; empty otherwise.
    pub note: &'static str,
    /// The convention in one sentence ([`PI_CONVENTION`]).
    pub convention: &'static str,
}

/// Treff's polarization index of time in three zones (seconds or fractions). Edge cases as in the
/// module docs. Convention: [`PI_CONVENTION`].
pub fn polarization_index(zones: [f64; 3]) -> PolarizationIndex {
    let dist = zone_distribution(&zones, 1);
    let f = [dist.fractions[0], dist.fractions[1], dist.fractions[2]];
    let undefined = |note| PolarizationIndex {
        fractions: f,
        value: None,
        polarized: false,
        z2_floored: false,
        note,
        convention: PI_CONVENTION,
    };
    if dist.total_seconds <= 0.0 {
        return undefined("no time in zones");
    }
    if f[2] <= 0.0 {
        return undefined(
            "no time in zone 3 (hard): the index is undefined and the distribution is not polarised",
        );
    }
    if f[0] <= 0.0 {
        return undefined(
            "no time in zone 1 (easy): the index is undefined and the distribution is not polarised",
        );
    }
    let z2_floored = f[1] <= 0.0;
    let z2 = if z2_floored { Z2_FLOOR } else { f[1] };
    let value = (f[0] / z2 * f[2] * 100.0).log10();
    PolarizationIndex {
        fractions: f,
        value: Some(value),
        polarized: value > POLARIZED_ABOVE,
        z2_floored,
        note: if z2_floored { "no time in zone 2: Z2 taken as 0.01" } else { "" },
        convention: PI_CONVENTION,
    }
}
