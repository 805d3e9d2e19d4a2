//! The athlete's load profile as the analyses need it: the heart-rate profile (max, resting,
//! threshold heart rate, sex) and FTP, kept in the local history and read from Garmin at most once a
//! day, and the `load` argument. Each session's loads against that profile are the history's
//! (`history::load::session_loads`), which the desktop app's fitness chart counts too. Shared by
//! `get_fitness_trend` and the analysis tools, so neither imports the other.

use ::history::load::LoadProfile;
use ::history::profile::AthleteProfile;

use crate::domain::reading::Reading;

pub(crate) fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// The athlete's heart-rate profile (zones' max, resting and threshold heart rate, sex) and FTP;
/// what is missing is said in `notes`. Nothing is read when neither is needed.
pub(crate) async fn athlete(reading: &Reading, need_hr: bool, need_power: bool) -> LoadProfile {
    if !need_hr && !need_power {
        return LoadProfile::default();
    }
    LoadProfile::of(athlete_profile(reading).await.as_ref(), need_hr, need_power)
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
