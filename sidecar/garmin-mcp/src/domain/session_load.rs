//! The athlete's load profile and the loads of each session, as the analyses need them: the
//! heart-rate profile (max, resting, threshold heart rate, sex) and FTP (kept in the local history,
//! read from Garmin at most once a day), and per
//! stored activity its power TSS, heart-rate TSS and Garmin's load (`analytics::load`). Shared by
//! `get_fitness_trend` and the analysis tools, so neither imports the other.

use ::history::profile::AthleteProfile;

use crate::domain::reading::Reading;

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

/// The athlete's heart-rate profile (zones' max, resting and threshold heart rate, sex) and FTP;
/// what is missing is said in `notes`. Nothing is read when neither is needed.
pub(crate) async fn athlete(reading: &Reading, need_hr: bool, need_power: bool) -> Athlete {
    if !need_hr && !need_power {
        return Athlete::default();
    }
    Athlete::of(athlete_profile(reading).await.as_ref(), need_hr, need_power)
}

/// The profile kept in the local history when it was read today (at a sync or by an earlier tool);
/// otherwise read live through the web session (three requests) and kept for the rest of the day.
/// With `--no-cache` or without a history, always live.
async fn athlete_profile(reading: &Reading) -> Option<AthleteProfile> {
    let today = reading.today;
    if let Some(history) = &reading.history {
        match history.athlete_profile() {
            Ok(Some(stored)) if stored.read_on >= today => return Some(stored),
            Ok(_) => {}
            Err(e) => tracing::warn!("reading the stored athlete profile failed, reading Garmin: {e}"),
        }
    }
    let read = match reading.reads.web("the athlete's heart-rate profile and FTP") {
        Ok(web) => ::history::profile::read_athlete_profile(web, today).await,
        Err(e) => Err(e),
    };
    match read {
        Ok(read) => {
            if let Some(history) = &reading.history
                && let Err(e) = history.save_athlete_profile(&read)
            {
                tracing::warn!("could not keep the athlete profile in the local history: {e}");
            }
            Some(read.profile)
        }
        Err(e) => {
            tracing::warn!("reading the athlete profile from Garmin failed: {e}");
            None
        }
    }
}

impl Athlete {
    /// The load profile in `profile`, with a note for each part needed and missing.
    fn of(profile: Option<&AthleteProfile>, need_hr: bool, need_power: bool) -> Athlete {
        let mut athlete = Athlete::default();
        if need_hr {
            let sex = match profile.and_then(|p| p.sex.as_deref()) {
                Some("MALE") => analytics::load::Sex::Male,
                Some("FEMALE") => analytics::load::Sex::Female,
                _ => analytics::load::Sex::Unknown,
            };
            match profile.and_then(|p| Some((p.resting_hr?, p.max_hr?, p.threshold_hr?))) {
                Some((resting_bpm, max_bpm, threshold_bpm)) => {
                    athlete.hr = Some(analytics::load::HrProfile { resting_bpm, max_bpm, threshold_bpm, sex });
                }
                None => athlete.notes.push(
                    "no heart-rate profile (maximum, resting and threshold heart rate) in Garmin's zones, so no hrTSS"
                        .to_owned(),
                ),
            }
        }
        if need_power {
            athlete.ftp = profile.and_then(|p| p.ftp);
            if athlete.ftp.is_none() {
                athlete.notes.push("no FTP in Garmin's profile, so no power TSS".to_owned());
            }
        }
        athlete
    }
}

/// The `load` argument of `get_fitness_trend` and the analyses: the word (lower case, `auto` when
/// absent) and the choice; anything else is refused naming the four words.
pub(crate) fn load_choice(
    load: Option<&str>,
) -> Result<(String, analytics::load::LoadChoice), crate::tool_error::ToolError> {
    use analytics::load::LoadChoice;
    let word = load.map(str::trim).filter(|l| !l.is_empty()).unwrap_or("auto").to_lowercase();
    let choice = match word.as_str() {
        "auto" => LoadChoice::Auto,
        "garmin" => LoadChoice::Garmin,
        "hr" => LoadChoice::HeartRate,
        "power" => LoadChoice::Power,
        other => {
            return Err(crate::tool_error::ToolError::invalid(format!(
                "load must be auto, garmin, hr or power, got `{other}`"
            )));
        }
    };
    Ok((word, choice))
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
