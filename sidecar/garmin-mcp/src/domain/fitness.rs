//! The fitness trend (the performance management chart): fitness (CTL), fatigue (ATL) and form
//! (TSB) day by day from each session's load, read from the local history with the days since
//! its last sync read live (or everything live without a history). `get_fitness_trend` answers
//! with it and `render_chart` kind `fitness` draws it: both call [`fitness_trend`].

use ::history::read::ActivityLoad;
use analytics::load::{LoadChoice, LoadScale, daily_loads};
use analytics::pmc::{PmcConstants, PmcDay, performance_management_until};
use chrono::{Duration, NaiveDate};
use rmcp::schemars;
use serde::Serialize;

use crate::domain::dates::DateRange;
use crate::domain::reading::Reading;
use crate::domain::session_load::{athlete, load_choice, round1};
use crate::history::DataSource;
use crate::tool_error::ToolError;
use ::history::load::session_loads;

/// Default span of `get_fitness_trend` (days before the end date).
pub(crate) const TREND_DEFAULT_DAYS: i64 = 90;
/// Longest span of `get_fitness_trend`, so the daily series fits the answer budget.
pub(crate) const TREND_MAX_DAYS: i64 = 140;
/// Days after the history's last covered day that are read live (today and a few before).
pub(crate) const TREND_LIVE_DAYS: i64 = 14;
/// Without the history: days before the range read live, so fitness has weeks to build on (three
/// CTL time constants: the starting value then weighs e^(-3), about 5 %).
pub(crate) const TREND_LIVE_LEAD_DAYS: i64 = 126;

/// One day of the fitness trend.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct TrendDay {
    /// The day.
    pub date: String,
    /// The day's load (0 on rest days), on `load_scale`.
    pub load: f64,
    /// Fitness: chronic training load (42-day).
    pub ctl: f64,
    /// Fatigue: acute training load (7-day).
    pub atl: f64,
    /// Form: training stress balance (see `convention` for which day it is shown on).
    pub tsb: f64,
    /// CTL minus CTL 7 days earlier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ramp: Option<f64>,
    /// True while the model is still settling (the first 42 days of the history): rough numbers.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub settling: bool,
}

/// The answer of `get_fitness_trend`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct FitnessTrend {
    /// First day shown.
    pub start_date: String,
    /// Last day shown.
    pub end_date: String,
    /// The load asked for: `auto`, `garmin`, `hr` or `power`.
    pub load: String,
    /// The scale of every load, CTL, ATL and TSB here: `tss` (100 = one hour at threshold) or
    /// `garmin` (Garmin's training load, not comparable with TSS).
    pub load_scale: String,
    /// What was counted as each day's load, in one sentence.
    pub load_convention: String,
    /// The model, in one sentence (time constants, which day TSB is shown on, ramp, settling).
    pub convention: String,
    /// One line: where fitness, fatigue and form stand at the end of the range, and what it means.
    pub reading: String,
    /// Sessions counted with power TSS, hrTSS and Garmin's load.
    pub sessions: SessionCounts,
    /// Sessions left out because they had no load of the chosen kind.
    pub sessions_without_load: usize,
    /// One entry per day, oldest first.
    pub days: Vec<TrendDay>,
    /// Why some loads are not available (no FTP, no heart-rate profile…).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from and how fresh they are.
    pub source: DataSource,
}

/// Sessions counted per kind of load.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct SessionCounts {
    /// With power TSS.
    pub power: usize,
    /// With hrTSS.
    pub heart_rate: usize,
    /// With Garmin's training load.
    pub garmin: usize,
}

/// A weekly ramp of fitness (CTL gained over 7 days) above this is rising fast: watch for
/// overreaching (the common coaching cut, as intervals.icu and TrainingPeaks warn around 5–8).
pub(crate) const FAST_RAMP: f64 = 8.0;

/// Intervals.icu's form bands, in words.
fn form_words(tsb: f64) -> &'static str {
    if tsb > 25.0 {
        "very fresh (transition: fitness is being lost)"
    } else if tsb > 5.0 {
        "fresh (ready to race)"
    } else if tsb >= -10.0 {
        "neutral (grey zone)"
    } else if tsb >= -30.0 {
        "tired from productive training (optimal zone)"
    } else {
        "very tired (high risk of overreaching)"
    }
}

/// A live activity as the history would keep it (for the days after the history's last sync).
fn live_load(
    summary: &garmin::models::activities::ActivitySummary,
    zones: &[garmin::models::activities::TimeInZone],
) -> Option<ActivityLoad> {
    Some(ActivityLoad {
        activity_id: summary.activity_id?,
        date: summary.start_time_local?.date(),
        type_key: summary.activity_type.as_ref().and_then(|t| t.type_key.clone()),
        duration_s: summary.duration,
        training_load: summary.activity_training_load,
        avg_hr: summary.average_hr,
        max_hr: summary.max_hr,
        avg_power: summary.avg_power,
        norm_power: summary.norm_power,
        hr_zones: zones
            .iter()
            .filter_map(|z| Some((z.zone_number?, z.secs_in_zone?, z.zone_low_boundary)))
            .collect(),
    })
}

/// The range of a fitness trend: the end defaults to today (never later: fitness is known up to
/// today), the start to [`TREND_DEFAULT_DAYS`] before it; at most [`TREND_MAX_DAYS`] days.
pub(crate) fn trend_range(
    today: NaiveDate,
    start: Option<NaiveDate>,
    end: Option<NaiveDate>,
) -> Result<DateRange, ToolError> {
    let end = end.unwrap_or(today);
    if end > today {
        return Err(ToolError::invalid(format!(
            "end_date {end} is after today ({today}): fitness is known up to today"
        )));
    }
    let start = start.unwrap_or(end - Duration::days(TREND_DEFAULT_DAYS));
    let range = DateRange::new(start, end)?;
    if range.days() > TREND_MAX_DAYS {
        return Err(ToolError::invalid(format!(
            "ask for at most {TREND_MAX_DAYS} days at a time (got {start} to {end}); for a longer view, call it for consecutive ranges"
        )));
    }
    Ok(range)
}

/// One line on where fitness, fatigue and form stand on the last day shown.
fn reading(shown: &[PmcDay], end: NaiveDate, load_word: &str) -> String {
    let Some(last) = shown.last() else {
        return format!("No session with a {load_word} load up to {end} in the history.");
    };
    let ramp = last.ramp.map(|r| format!(" ({r:+.1} over 7 days)")).unwrap_or_default();
    let mut line = format!(
        "On {}: fitness (CTL) {:.0}{ramp}, fatigue (ATL) {:.0}, form (TSB) {:+.0} — {}.",
        last.date,
        last.ctl,
        last.atl,
        last.tsb,
        form_words(last.tsb)
    );
    if last.ramp.is_some_and(|r| r > FAST_RAMP) {
        line.push_str(" Fitness is rising fast (ramp above 8 a week): watch for overreaching.");
    }
    if shown.iter().any(|d| d.settling) {
        line.push_str(" The first 42 days of the history are still settling: read those numbers as rough (sync further back for firmer ones).");
    }
    line
}

/// The word of a load scale, as the answer names it.
pub(crate) fn scale_word(scale: Option<LoadScale>) -> &'static str {
    match scale {
        Some(LoadScale::Tss) => "tss",
        Some(LoadScale::Garmin) => "garmin",
        None => "none",
    }
}

/// The sessions a trend counts, where they came from, and what was missing.
struct TrendSessions {
    activities: Vec<ActivityLoad>,
    source: DataSource,
    notes: Vec<String>,
}

/// The fitness trend over `range` on the `load` asked (`auto`, `garmin`, `hr`, `power`).
pub(crate) async fn fitness_trend(
    inputs: &Reading,
    range: DateRange,
    load: Option<&str>,
) -> Result<FitnessTrend, ToolError> {
    let TrendLoads { loads, load_word, notes, source } = trend_loads(inputs, range, load).await?;
    let pmc = performance_management_until(&loads.days, &PmcConstants::default(), range.end)
        .map_err(|e| ToolError::Local(e.to_string()))?;
    let shown = pmc.between(range.start, range.end);
    Ok(FitnessTrend {
        start_date: range.start.to_string(),
        end_date: range.end.to_string(),
        reading: reading(shown, range.end, &load_word),
        load: load_word,
        load_scale: scale_word(loads.scale).to_owned(),
        load_convention: loads.convention.clone(),
        convention: pmc.convention.clone(),
        sessions: SessionCounts {
            power: loads.sessions.power,
            heart_rate: loads.sessions.heart_rate,
            garmin: loads.sessions.garmin,
        },
        sessions_without_load: loads.sessions_without_load,
        days: shown.iter().map(trend_day).collect(),
        notes,
        source,
    })
}

/// The daily loads behind a trend, on the scale `load` asks for, with where they came from.
pub(crate) struct TrendLoads {
    /// Each day's load (every session up to the range's end).
    pub loads: analytics::load::DailyLoadSeries,
    /// The load asked for: `auto`, `garmin`, `hr` or `power`.
    pub load_word: String,
    /// What was missing (no FTP, no heart-rate profile, no history…).
    pub notes: Vec<String>,
    /// Where the sessions came from.
    pub source: DataSource,
}

/// The daily loads of every session up to `range.end` on the `load` asked (`auto`, `garmin`, `hr`,
/// `power`), as `get_fitness_trend` counts them: the one way the tools turn sessions into loads.
pub(crate) async fn trend_loads(
    inputs: &Reading,
    range: DateRange,
    load: Option<&str>,
) -> Result<TrendLoads, ToolError> {
    let (load_word, choice) = load_choice(load)?;
    let need_hr = matches!(choice, LoadChoice::Auto | LoadChoice::HeartRate);
    let need_power = matches!(choice, LoadChoice::Auto | LoadChoice::Power);
    // The sessions and the athlete's profile do not depend on each other: read both at once.
    let (sessions, athlete) =
        tokio::join!(trend_sessions(inputs, range), athlete(inputs, need_hr, need_power));
    let TrendSessions { activities, source, mut notes } = sessions?;
    let sessions = session_loads(&activities, &athlete);
    let loads = daily_loads(&sessions, choice);
    notes.extend(athlete.notes);
    if loads.scale == Some(LoadScale::Garmin) && choice == LoadChoice::Auto {
        notes.push(
            "no session had power TSS or hrTSS, so Garmin's training load is used (its own scale, not TSS)"
                .to_owned(),
        );
    }
    Ok(TrendLoads { loads, load_word, notes, source })
}

/// The sessions of a trend: from the history when it covers the range (the days after its last
/// sync live); otherwise everything live, the sessions of the range and the weeks before.
async fn trend_sessions(reading: &Reading, range: DateRange) -> Result<TrendSessions, ToolError> {
    let (start, end) = (range.start, range.end);
    let (mut activities, live_from, source, notes) = match trend_history(reading, range) {
        Some((loads, covered_to, synced_at)) => {
            let live_after = covered_to < end;
            let source = DataSource::history(covered_to.min(end), synced_at, live_after);
            (loads, live_after.then(|| covered_to + Duration::days(1)), source, Vec::new())
        }
        None => {
            let from = start - Duration::days(TREND_LIVE_LEAD_DAYS);
            let note = format!(
                "the local history does not cover {start} to {end}, so Garmin was read live from {from} (hrTSS from each session's average heart rate): run sync_history for zone-based hrTSS and an instant answer"
            );
            (Vec::new(), Some(from), DataSource::live(), vec![note])
        }
    };
    if let Some(from) = live_from {
        // Zone times only for the few days after the history (one request per session).
        activities.extend(live_loads(&reading.reads, from, end, source.from != "garmin").await?);
    }
    Ok(TrendSessions { activities, source, notes })
}

/// The history's sessions up to its last covered day, when it covers the range to within
/// [`TREND_LIVE_DAYS`] of its end: (sessions, last covered day, when it was synced).
fn trend_history(
    reading: &Reading,
    range: DateRange,
) -> Option<(Vec<ActivityLoad>, NaiveDate, Option<chrono::DateTime<chrono::Utc>>)> {
    let history = reading.history.as_ref()?;
    let yesterday = reading.yesterday();
    let covered = if range.start <= yesterday {
        history
            .coverage(range.start, range.end.min(yesterday))
            .map(|c| c.covered_to.map(|to| (to, c.synced_at)))
    } else {
        Ok(Some((yesterday, None)))
    };
    let read = match covered {
        Ok(Some((covered_to, synced_at))) if (range.end - covered_to).num_days() <= TREND_LIVE_DAYS => {
            history
                .activity_loads(NaiveDate::MIN, covered_to.min(range.end))
                .map(|loads| Some((loads, covered_to, synced_at)))
        }
        Ok(_) => Ok(None),
        Err(e) => Err(e),
    };
    read.unwrap_or_else(|e| {
        tracing::warn!("reading the local history failed, answering live: {e}");
        None
    })
}

/// Garmin's sessions from `from` to `end`, read live as the history would keep them, with their
/// time in zones when `with_zones` (one request per session).
async fn live_loads(
    reads: &garmin::Garmin,
    from: NaiveDate,
    end: NaiveDate,
    with_zones: bool,
) -> Result<Vec<ActivityLoad>, ToolError> {
    let newer = reads.activities_between(from, end, None).await?.value;
    let zones = futures::future::join_all(newer.iter().map(|a| {
        let id = a.activity_id.filter(|_| with_zones);
        async move {
            match id {
                Some(id) => reads.time_in_zones(id).await.map(|z| z.value).unwrap_or_default(),
                None => Vec::new(),
            }
        }
    }))
    .await;
    let mut live: Vec<ActivityLoad> =
        newer.iter().zip(zones.iter()).filter_map(|(a, z)| live_load(a, z)).collect();
    live.sort_by_key(|a| a.date);
    Ok(live)
}

/// One day of the chart, rounded for the answer.
fn trend_day(d: &PmcDay) -> TrendDay {
    TrendDay {
        date: d.date.to_string(),
        load: round1(d.load),
        ctl: round1(d.ctl),
        atl: round1(d.atl),
        tsb: round1(d.tsb),
        ramp: d.ramp.map(round1),
        settling: d.settling,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn a_trend_defaults_to_the_90_days_before_today_and_refuses_the_future_and_long_ranges() {
        let today = d("2026-12-01");
        let range = trend_range(today, None, None).unwrap();
        assert_eq!((range.start, range.end), (d("2026-09-02"), today));
        let err = trend_range(today, None, Some(d("2026-12-02"))).unwrap_err();
        assert_eq!(
            err.message(),
            "end_date 2026-12-02 is after today (2026-12-01): fitness is known up to today"
        );
        let err = trend_range(today, Some(d("2026-11-02")), Some(d("2026-11-01"))).unwrap_err();
        assert_eq!(err.message(), "end_date 2026-11-01 is before start_date 2026-11-02");
        assert!(trend_range(today, Some(d("2026-07-15")), None).unwrap().days() == TREND_MAX_DAYS);
        let err = trend_range(today, Some(d("2026-07-14")), None).unwrap_err();
        assert!(err.message().starts_with("ask for at most 140 days at a time"), "{}", err.message());
    }

    fn day(date: &str, ctl: f64, atl: f64, ramp: Option<f64>, settling: bool) -> PmcDay {
        PmcDay { date: d(date), load: 0.0, ctl, atl, tsb: ctl - atl, ramp, settling }
    }

    #[test]
    fn the_reading_names_the_last_days_numbers_the_form_band_and_its_warnings() {
        let end = d("2026-11-30");
        assert_eq!(reading(&[], end, "hr"), "No session with a hr load up to 2026-11-30 in the history.");
        let steady = [day("2026-11-30", 50.0, 45.0, Some(2.0), false)];
        assert_eq!(
            reading(&steady, end, "auto"),
            "On 2026-11-30: fitness (CTL) 50 (+2.0 over 7 days), fatigue (ATL) 45, form (TSB) +5 — neutral (grey zone)."
        );
        let ramping =
            [day("2026-11-29", 30.0, 30.0, None, true), day("2026-11-30", 60.0, 80.0, Some(9.5), false)];
        let text = reading(&ramping, end, "auto");
        assert!(text.contains("tired from productive training"), "{text}");
        assert!(text.contains("Fitness is rising fast"), "{text}");
        assert!(text.contains("still settling"), "{text}");
    }
}
