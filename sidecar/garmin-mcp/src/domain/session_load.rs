//! The athlete's load profile and the loads of each session, as the analyses need them: the
//! heart-rate profile (max, resting, threshold heart rate, sex) and FTP read from Garmin, and per
//! stored activity its power TSS, heart-rate TSS and Garmin's load (`analytics::load`). Shared by
//! `get_fitness_trend` and the analysis tools, so neither imports the other.

use crate::server::GarminMcp;

/// What the athlete's heart-rate and power loads are computed against (from Garmin's profile).
#[derive(Debug, Default)]
pub(crate) struct Athlete {
    hr: Option<analytics::load::HrProfile>,
    ftp: Option<f64>,
    pub(crate) notes: Vec<String>,
}

pub(crate) fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl GarminMcp {
    /// The athlete's heart-rate profile (zones' max, resting and threshold heart rate, sex) and
    /// FTP, read live; what is missing is said in `notes`.
    pub(crate) async fn athlete(&self, client: &garmin::Client, need_hr: bool, need_power: bool) -> Athlete {
        let mut athlete = Athlete::default();
        let zones = async { if need_hr { Some(client.metrics().hr_zones().await) } else { None } };
        let settings = async { if need_hr { Some(client.profile().user_settings().await) } else { None } };
        let personal =
            async { if need_power { Some(client.profile().personal_information().await) } else { None } };
        let (zones, settings, personal) = tokio::join!(zones, settings, personal);
        if let Some(zones) = zones {
            let sex = match settings
                .and_then(Result::ok)
                .and_then(|s| s.user_data)
                .and_then(|d| d.gender)
                .map(|g| g.to_uppercase())
                .as_deref()
            {
                Some("MALE") => analytics::load::Sex::Male,
                Some("FEMALE") => analytics::load::Sex::Female,
                _ => analytics::load::Sex::Unknown,
            };
            let entry = zones.ok().and_then(|list| {
                list.into_iter().find(|z| {
                    z.max_heart_rate_used.is_some()
                        && z.resting_heart_rate_used.is_some()
                        && z.lactate_threshold_heart_rate_used.is_some()
                })
            });
            match entry {
                Some(z) => {
                    athlete.hr = Some(analytics::load::HrProfile {
                        resting_bpm: z.resting_heart_rate_used.unwrap_or(0.0),
                        max_bpm: z.max_heart_rate_used.unwrap_or(0.0),
                        threshold_bpm: z.lactate_threshold_heart_rate_used.unwrap_or(0.0),
                        sex,
                    });
                }
                None => athlete.notes.push(
                    "no heart-rate profile (maximum, resting and threshold heart rate) in Garmin's zones, so no hrTSS"
                        .to_owned(),
                ),
            }
        }
        if let Some(personal) = personal {
            athlete.ftp = personal
                .ok()
                .and_then(|p| p.biometric_profile)
                .and_then(|b| b.functional_threshold_power)
                .filter(|f| f.is_finite() && *f > 0.0);
            if athlete.ftp.is_none() {
                athlete.notes.push("no FTP in Garmin's profile, so no power TSS".to_owned());
            }
        }
        athlete
    }
}

/// The loads each session has, from what the history keeps per activity.
pub(crate) fn session_loads(
    activities: &[::history::read::ActivityLoad],
    athlete: &Athlete,
) -> Vec<analytics::load::SessionLoads> {
    use analytics::load::{
        HrBin, SessionLoads, garmin_load, hr_bins_from_zones, hr_load, power_load_from_np,
    };
    activities
        .iter()
        .map(|a| {
            // TRIMP over the time in heart-rate zones; without them (a session read live), over
            // the session's average heart rate for its whole duration.
            let hr_tss = athlete.hr.as_ref().and_then(|profile| {
                let pairs: Vec<(f64, f64)> = a
                    .hr_zones
                    .iter()
                    .filter_map(|(_, seconds, floor)| floor.map(|f| (f, *seconds)))
                    .collect();
                let bins = if pairs.is_empty() {
                    vec![HrBin { bpm: a.avg_hr?, seconds: a.duration_s? }]
                } else {
                    hr_bins_from_zones(&pairs, profile.max_bpm)
                };
                hr_load(&bins, profile).ok().map(|l| l.hr_tss)
            });
            let power_tss = match (athlete.ftp, a.norm_power, a.duration_s) {
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
