//! The `health` toolset: `get_daily_health`, one day's health in numbers (steps, heart rate,
//! sleep, stress, Body Battery, respiration, SpO2, HRV, intensity minutes, body composition,
//! blood pressure, hydration) or a short range as one compact row per day.
//!
//! One request per Garmin endpoint, all fanned out at once; a range uses Garmin's range endpoints
//! (steps, resting heart rate, sleep stats, stress, Body Battery, HRV, weight), never per-day
//! loops. Parts Garmin has nothing for are named in `missing`; only a day (or range) with nothing
//! at all is a "no data" error.
//!
//! This file holds the tool method and its arguments; the answer types live in `answer`, one day in
//! `day`, a range in `range`, the sleep-stage and hourly timelines in `timeline`, number helpers in
//! `format`.

mod answer;
mod day;
mod format;
mod range;
mod status;
mod status_days;
mod timeline;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::Deserialize;

pub use self::answer::*;
pub(crate) use self::status::{health_status_part, health_status_row};
pub use self::timeline::sleep_timeline;
use crate::domain::dates::{DateRange, Day, arg};
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Longest range `get_daily_health` answers, in days.
pub const MAX_RANGE_DAYS: i64 = 14;
/// Most segments in a night's stage timeline.
pub const MAX_SLEEP_SEGMENTS: usize = 40;

/// How much of a day to report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Detail {
    /// The day's numbers (default).
    #[default]
    Summary,
    /// Also the night's sleep-stage timeline and an hourly stress and Body Battery summary.
    Full,
}

/// Arguments of `get_daily_health`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct DailyHealthArgs {
    /// The day, `YYYY-MM-DD` (default today). Its night is the sleep that ended that morning.
    #[serde(default)]
    pub date: Option<Day<arg::Date>>,
    /// First day of a range, `YYYY-MM-DD` (instead of `date`; at most 14 days).
    #[serde(default)]
    pub start_date: Option<Day<arg::StartDate>>,
    /// Last day of a range, `YYYY-MM-DD` (default today).
    #[serde(default)]
    pub end_date: Option<Day<arg::EndDate>>,
    /// `summary` (default) or `full` (adds the sleep-stage timeline and an hourly stress summary;
    /// one day only).
    #[serde(default)]
    pub detail: Option<Detail>,
}

#[tool_router(router = health_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Daily health from the watch: steps, resting heart rate, last night's sleep (times, stages,
    /// score, sleep need and why it moved), stress, Body Battery, respiration, SpO2, HRV,
    /// intensity minutes, weight and body composition, blood pressure, hydration and Health Status
    /// (HRV, resting heart rate, respiration, skin temperature and SpO2 against the athlete's own
    /// baseline, on recent watches) — for one day
    /// (`date`, default today) or, as one compact row per day plus averages, for up to 14 days
    /// (`start_date`/`end_date`; each night's Health Status and sleep need too, from the local
    /// history when it is synced). Use it for "how did I sleep?", "what's my resting heart rate?", "how stressed was
    /// I this week?", "how has my Health Status been lately?". Parts
    /// Garmin has no data for are listed in `missing`. `detail=full` adds the sleep-stage timeline
    /// and an hourly stress/Body Battery summary for one day.
    #[tool(
        name = "get_daily_health",
        annotations(
            title = "Daily health: sleep, HRV, stress, Body Battery, steps",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<DailyHealth>()
    )]
    async fn get_daily_health(
        &self,
        Parameters(args): Parameters<DailyHealthArgs>,
    ) -> Result<Answer<DailyHealth>, ToolError> {
        let today = self.today();
        let detail = args.detail.unwrap_or_default();
        match (&args.date, &args.start_date, &args.end_date) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => Err(ToolError::invalid(
                "give either `date` (one day) or `start_date`/`end_date` (a range), not both",
            )),
            (None, None, Some(_)) => Err(ToolError::invalid("`end_date` needs a `start_date`")),
            (_, Some(start), end) => {
                let start = start.day();
                let end = end.map_or(today, |end| end.day());
                let days = DateRange::new(start, end)?.days();
                if end > today {
                    return Err(ToolError::invalid(format!(
                        "end_date {end} is in the future (today is {today})"
                    )));
                }
                if days > MAX_RANGE_DAYS {
                    return Err(ToolError::invalid(format!(
                        "{start} to {end} is {days} days; get_daily_health takes at most {MAX_RANGE_DAYS} days: use a shorter range (or get_period_stats for longer periods)"
                    )));
                }
                if detail == Detail::Full {
                    return Err(ToolError::invalid(
                        "detail=full is for one day: pass `date` instead of a range",
                    ));
                }
                let (summary, data) = self.health_range(start, end).await?;
                Ok(self.answer(summary, data))
            }
            (date, None, None) => {
                let date = date.map_or(today, |date| date.day());
                if date > today {
                    return Err(ToolError::invalid(format!(
                        "date {date} is in the future (today is {today})"
                    )));
                }
                let (summary, data) = self.health_day(date, detail).await?;
                Ok(self.answer(summary, data))
            }
        }
    }
}
