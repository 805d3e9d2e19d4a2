//! Each kept session's loads on every scale the fitness chart can count — power TSS (against FTP),
//! hrTSS (against the heart-rate profile) and Garmin's own training load — from what the history
//! keeps per activity and the athlete's stored profile. One home for it, so the desktop app's
//! Training view and the MCP server's `get_fitness_trend` (and the analyses built on it) turn the
//! same history into the same loads and the same fitness chart (issue #29).

use analytics::load::{
    HrBin, HrProfile, SessionLoads, Sex, garmin_load, hr_bins_from_zones, hr_load, power_load_from_np,
};

use crate::profile::AthleteProfile;
use crate::read::ActivityLoad;

/// What heart-rate and power loads are computed against, and what was missing for them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadProfile {
    hr: Option<HrProfile>,
    ftp: Option<f64>,
    /// One sentence per load asked for that the profile cannot give ("…, so no hrTSS").
    pub notes: Vec<String>,
}

impl LoadProfile {
    /// The load profile in `profile` for the loads asked (`need_hr`, `need_power`), with a note for
    /// each one asked and missing. Nothing asked, nothing noted.
    pub fn of(profile: Option<&AthleteProfile>, need_hr: bool, need_power: bool) -> LoadProfile {
        let mut out = LoadProfile::default();
        if need_hr {
            let sex = match profile.and_then(|p| p.sex.as_deref()) {
                Some("MALE") => Sex::Male,
                Some("FEMALE") => Sex::Female,
                _ => Sex::Unknown,
            };
            match profile.and_then(|p| Some((p.resting_hr?, p.max_hr?, p.threshold_hr?))) {
                Some((resting_bpm, max_bpm, threshold_bpm)) => {
                    out.hr = Some(HrProfile { resting_bpm, max_bpm, threshold_bpm, sex });
                }
                None => out.notes.push(
                    "no heart-rate profile (maximum, resting and threshold heart rate) in Garmin's zones, so no hrTSS"
                        .to_owned(),
                ),
            }
        }
        if need_power {
            out.ftp = profile.and_then(|p| p.ftp);
            if out.ftp.is_none() {
                out.notes.push("no FTP in Garmin's profile, so no power TSS".to_owned());
            }
        }
        out
    }
}

/// The loads each session has: hrTSS from TRIMP over its time in heart-rate zones (without zone
/// times, a session read live, over its average heart rate for its whole duration), power TSS from
/// Garmin's normalised power, and Garmin's training load.
pub fn session_loads(activities: &[ActivityLoad], profile: &LoadProfile) -> Vec<SessionLoads> {
    activities
        .iter()
        .map(|a| {
            let hr_tss = profile.hr.as_ref().and_then(|hr| {
                let pairs: Vec<(f64, f64)> = a
                    .hr_zones
                    .iter()
                    .filter_map(|(_, seconds, floor)| floor.map(|f| (f, *seconds)))
                    .collect();
                let bins = if pairs.is_empty() {
                    vec![HrBin { bpm: a.avg_hr?, seconds: a.duration_s? }]
                } else {
                    hr_bins_from_zones(&pairs, hr.max_bpm)
                };
                hr_load(&bins, hr).ok().map(|l| l.hr_tss)
            });
            let power_tss = match (profile.ftp, a.norm_power, a.duration_s) {
                (Some(ftp), Some(np), Some(seconds)) if np > 0.0 => {
                    power_load_from_np(seconds, np, ftp).ok().map(|p| p.tss)
                }
                _ => None,
            };
            SessionLoads {
                date: a.date,
                power_tss,
                hr_tss,
                garmin: a.training_load.and_then(garmin_load).map(|l| l.value),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! Run: `cargo test -p history --lib load::`
    use super::*;
    use chrono::NaiveDate;

    fn profile(ftp: Option<f64>, hr: bool) -> AthleteProfile {
        AthleteProfile {
            max_hr: hr.then_some(190.0),
            resting_hr: hr.then_some(50.0),
            threshold_hr: hr.then_some(170.0),
            sex: Some("FEMALE".to_owned()),
            ftp,
            read_on: NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
        }
    }

    fn ride(zones: Vec<(i64, f64, Option<f64>)>) -> ActivityLoad {
        ActivityLoad {
            activity_id: 1,
            date: NaiveDate::from_ymd_opt(2026, 11, 2).unwrap(),
            type_key: Some("cycling".to_owned()),
            duration_s: Some(3600.0),
            training_load: Some(120.0),
            avg_hr: Some(150.0),
            max_hr: Some(172.0),
            avg_power: Some(190.0),
            norm_power: Some(200.0),
            hr_zones: zones,
        }
    }

    #[test]
    fn an_hour_at_ftp_is_100_power_tss_and_garmins_load_is_kept_as_it_is() {
        let loads = session_loads(
            &[ride(Vec::new())],
            &LoadProfile::of(Some(&profile(Some(200.0), false)), false, true),
        );
        assert_eq!(loads[0].power_tss.map(|t| t.round()), Some(100.0));
        assert_eq!(loads[0].hr_tss, None, "hrTSS was not asked for");
        assert_eq!(loads[0].garmin, Some(120.0));
    }

    #[test]
    fn hr_tss_comes_from_the_zone_times_when_the_history_has_them_and_from_the_average_otherwise() {
        let profile = LoadProfile::of(Some(&profile(None, true)), true, false);
        let easy_zones = vec![(1, 3600.0, Some(100.0)), (2, 0.0, Some(130.0))];
        let from_zones = session_loads(&[ride(easy_zones)], &profile)[0].hr_tss.unwrap();
        let from_average = session_loads(&[ride(Vec::new())], &profile)[0].hr_tss.unwrap();
        assert!(from_zones > 0.0 && from_average > 0.0);
        assert!(
            from_zones < from_average,
            "an hour in zone 1 ({from_zones}) is easier than an hour at 150 bpm ({from_average})"
        );
    }

    #[test]
    fn each_load_asked_for_and_missing_from_the_profile_is_named_once() {
        let none = LoadProfile::of(None, true, true);
        assert_eq!(none.notes.len(), 2, "{:?}", none.notes);
        assert!(none.notes[0].contains("no hrTSS") && none.notes[1].contains("no power TSS"));
        let loads = session_loads(&[ride(Vec::new())], &none);
        assert_eq!((loads[0].hr_tss, loads[0].power_tss, loads[0].garmin), (None, None, Some(120.0)));
        assert!(LoadProfile::of(None, false, false).notes.is_empty(), "nothing asked, nothing noted");
    }
}
