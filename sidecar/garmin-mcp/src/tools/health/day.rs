//! One day of `get_daily_health`: every wellness endpoint once, concurrently, shaped into the
//! day's parts (naming those Garmin has nothing for) and summed up in a sentence or two.

use chrono::{Duration, NaiveDate, NaiveDateTime};
use garmin::models::metrics::HealthStatus;
use garmin::models::wellness::{
    BloodPressureRange, DailySleep, DailyStress, DailySummary, Hrv, Hydration, IntensityMinutesDay, Sleep,
    Spo2, StressDay, WeightEntry, WeightRange,
};
use garmin::reads::ServedFuture;

use super::Detail;
use super::answer::*;
use super::format::{kg, parse_hm, round1};
use super::status::{health_status_part, health_status_sentence};
use super::timeline::{hourly, sleep_timeline};
use crate::domain::words::{thousands, whole, words};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use display::duration_hm as hm;

/// How far back the latest weigh-in may lie, in days.
const WEIGHT_LOOKBACK_DAYS: i64 = 30;

impl GarminMcp {
    /// One day: every endpoint once, concurrently. Each request is one part of the answer: one
    /// that fails is named in `missing` with why, and the rest still answers; only when every
    /// request failed does the day fail (with the first failure).
    pub(super) async fn health_day(
        &self,
        date: NaiveDate,
        detail: Detail,
    ) -> Result<(String, DailyHealth), ToolError> {
        let w = self.reads().await?;
        let full = detail == Detail::Full;
        let series = async { if full { Some(w.stress(date).value().await) } else { None } };
        let spo2 = async { if full { Some(w.spo2(date).value().await) } else { None } };
        let (summary, sleep, hrv, im, weight, bp, hydration, stress_day, series, spo2, health_status) = tokio::join!(
            w.daily_summary(date).value(),
            w.sleep(date, full).value(),
            w.hrv(date).value(),
            w.intensity_minutes(date).value(),
            w.weight_range(date - Duration::days(WEIGHT_LOOKBACK_DAYS), date).value(),
            w.blood_pressure(date, date).value(),
            w.hydration(date).value(),
            w.stress_daily(date, date).value(),
            series,
            spo2,
            w.health_status(date).value(),
        );
        let mut failures = Failures::default();
        let summary = failures.take(Request::Summary, summary).flatten();
        let sleep = failures.take(Request::Sleep, sleep).flatten();
        let hrv = failures.take(Request::Hrv, hrv).flatten();
        let im = failures.take(Request::IntensityMinutes, im).flatten();
        let weight = failures.take(Request::Weight, weight).unwrap_or_default();
        let bp = failures.take(Request::BloodPressure, bp).unwrap_or_default();
        let hydration = failures.take(Request::Hydration, hydration).flatten();
        let stress_day = failures.take(Request::StressStats, stress_day).unwrap_or_default();
        if failures.all_failed(8) {
            return Err(failures
                .first
                .unwrap_or_else(|| ToolError::NoData(format!("No health data recorded for {date}"))));
        }
        // Without a daily summary Garmin still keeps the day's stress and Body Battery series
        // (docs/garmin-web-api.md, "Sparse answers and real recordings"): read them instead.
        let series = match series {
            Some(result) => failures.take(Request::StressSeries, result).flatten(),
            None if summary.is_none() => {
                failures.take(Request::StressSeries, w.stress(date).value().await).flatten()
            }
            None => None,
        };
        let stress_day = stress_day.into_iter().find(|d| d.calendar_date == Some(date));
        let spo2 = spo2.and_then(|r| failures.take(Request::Spo2, r)).flatten();
        let not_recorded = self.health_status_absence(&w, health_status.as_ref().err()).await;
        let health_status = match health_status {
            Err(_) if !not_recorded.is_empty() => None,
            result => failures.take(Request::HealthStatus, result).flatten(),
        };
        let parts = DayParts {
            date,
            summary,
            sleep,
            hrv,
            im,
            weight,
            bp,
            hydration,
            stress_day,
            series,
            spo2,
            health_status,
            full,
        };
        day_answer(parts, &failures, not_recorded)
    }
}

impl GarminMcp {
    /// The sentence that stands in for Health Status when Garmin's refusal says the watch does not
    /// record it or the account lacks Garmin Connect+ (the watch is named from the device list:
    /// one more request, only then); empty otherwise.
    pub(super) async fn health_status_absence(
        &self,
        w: &garmin::reads::Garmin,
        error: Option<&garmin::Error>,
    ) -> Vec<String> {
        let Some(error) = error else { return Vec::new() };
        // A sentence that does not name the watch (Garmin Connect+) needs no device list.
        const UNNAMED: &str = "\u{0}";
        match crate::domain::watch::absence(UNNAMED, "Health Status", Some(error)) {
            None => return Vec::new(),
            Some(sentence) if !sentence.contains(UNNAMED) => return vec![sentence],
            Some(_) => {}
        }
        let devices = w.devices().await.map(garmin::Served::into_value).unwrap_or_default();
        let watch = crate::domain::watch::watch_words(None, &devices);
        crate::domain::watch::absence(&watch, "Health Status", Some(error)).into_iter().collect()
    }
}

/// The requests of one day, for saying why a part is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Request {
    Summary,
    Sleep,
    Hrv,
    IntensityMinutes,
    Weight,
    BloodPressure,
    Hydration,
    StressStats,
    StressSeries,
    Spo2,
    HealthStatus,
}

impl Request {
    /// The parts (of [`PART_NAMES`]) this request feeds.
    fn feeds(self, part: &str) -> bool {
        match self {
            Request::Summary => {
                ["activity", "heart_rate", "stress", "body_battery", "respiration", "spo2"].contains(&part)
            }
            Request::Sleep => ["sleep", "heart_rate", "respiration", "spo2"].contains(&part),
            Request::Hrv => part == "hrv",
            Request::IntensityMinutes => part == "intensity_minutes",
            Request::Weight => part == "body_composition",
            Request::BloodPressure => part == "blood_pressure",
            Request::Hydration => part == "hydration",
            Request::StressStats => part == "stress",
            Request::StressSeries => ["stress", "body_battery"].contains(&part),
            Request::Spo2 => part == "spo2",
            Request::HealthStatus => part == "health_status",
        }
    }
}

/// The requests of a day that failed, and why.
#[derive(Default)]
struct Failures {
    reasons: Vec<(Request, String)>,
    first: Option<ToolError>,
}

impl Failures {
    /// The value of a request, or `None` with its failure kept.
    fn take<T>(&mut self, request: Request, result: Result<T, garmin::Error>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(e) => {
                let error = ToolError::from(e);
                self.reasons.push((request, error.message()));
                self.first.get_or_insert(error);
                None
            }
        }
    }

    fn all_failed(&self, requests: usize) -> bool {
        self.reasons.len() >= requests
    }

    /// `missing`: each absent part by name, as `part: why` when a request it needs failed.
    fn explain(&self, absent: &[String]) -> Vec<String> {
        absent
            .iter()
            .map(|part| match self.reasons.iter().find(|(r, _)| r.feeds(part)) {
                Some((_, why)) => format!("{part}: {why}"),
                None => part.clone(),
            })
            .collect()
    }
}

/// Every part of a day, in the order `missing` lists them.
const PART_NAMES: [&str; 13] = [
    "activity",
    "heart_rate",
    "sleep",
    "stress",
    "body_battery",
    "respiration",
    "spo2",
    "hrv",
    "intensity_minutes",
    "body_composition",
    "blood_pressure",
    "hydration",
    "health_status",
];

/// What Garmin answered for one day.
struct DayParts {
    date: NaiveDate,
    summary: Option<DailySummary>,
    sleep: Option<Sleep>,
    hrv: Option<Hrv>,
    im: Option<IntensityMinutesDay>,
    weight: WeightRange,
    bp: BloodPressureRange,
    hydration: Option<Hydration>,
    stress_day: Option<StressDay>,
    series: Option<DailyStress>,
    /// The day's blood-oxygen read (full detail only).
    spo2: Option<Spo2>,
    /// Health Status (recent watches).
    health_status: Option<HealthStatus>,
    full: bool,
}

impl DayParts {
    /// The day's parts and the names of those Garmin has nothing for.
    fn build(self) -> (HealthDay, Vec<String>) {
        let (offset_for_day, offset_for_sleep) = self.offsets();
        let day = HealthDay {
            activity: self.activity(),
            heart_rate: self.heart_rate(),
            sleep: self.sleep(offset_for_sleep),
            stress: self.stress(offset_for_day),
            body_battery: self.body_battery(),
            respiration: self.respiration(),
            spo2: self.spo2(),
            hrv: self.hrv(),
            intensity_minutes: self.intensity(),
            body_composition: self.body(),
            blood_pressure: self.blood_pressure(),
            hydration: self.hydration(),
            health_status: self.health_status.as_ref().and_then(health_status_part),
        };
        let missing = absent_parts(&day);
        (day, missing)
    }

    /// One of the daily summary's values.
    fn field(&self, f: fn(&DailySummary) -> Option<f64>) -> Option<f64> {
        self.summary.as_ref().and_then(f)
    }

    /// The night's sleep record, if Garmin has one.
    fn sleep_dto(&self) -> Option<&DailySleep> {
        self.sleep.as_ref().and_then(|x| x.daily_sleep.as_ref())
    }

    /// The offsets of local wall time from GMT for the day's times and for the night's (local =
    /// GMT + offset): the day's own bounds give one, the night's the other, each standing in for
    /// the other when missing (zero when both are).
    fn offsets(&self) -> (Duration, Duration) {
        let day_offset = self
            .summary
            .as_ref()
            .and_then(|x| x.wellness_start_time_gmt)
            .map(|gmt| self.date.and_time(chrono::NaiveTime::MIN) - gmt.naive_utc());
        let sleep_offset =
            self.sleep_dto().and_then(|d| Some(d.sleep_start_local? - d.sleep_start_gmt?.naive_utc()));
        (
            day_offset.or(sleep_offset).unwrap_or_else(Duration::zero),
            sleep_offset.or(day_offset).unwrap_or_else(Duration::zero),
        )
    }

    /// Steps, distance, floors and calories (when there are steps or a distance).
    fn activity(&self) -> Option<DayActivity> {
        let activity = DayActivity {
            steps: self.field(|x| x.total_steps).and_then(whole),
            step_goal: self.field(|x| x.daily_step_goal).and_then(whole),
            distance_km: self.field(|x| x.total_distance_meters).map(display::km),
            floors_climbed: self.field(|x| x.floors_ascended).and_then(whole),
            calories_kcal: self.field(|x| x.total_kilocalories).and_then(whole),
            active_calories_kcal: self.field(|x| x.active_kilocalories).and_then(whole),
        };
        (activity.steps.is_some() || activity.distance_km.is_some()).then_some(activity)
    }

    /// Resting (from the day, else the night), lowest and highest heart rate.
    fn heart_rate(&self) -> Option<DayHeartRate> {
        let heart_rate = DayHeartRate {
            resting_bpm: self
                .field(|x| x.resting_heart_rate)
                .or_else(|| self.sleep.as_ref().and_then(|x| x.resting_heart_rate))
                .and_then(whole),
            min_bpm: self.field(|x| x.min_heart_rate).and_then(whole),
            max_bpm: self.field(|x| x.max_heart_rate).and_then(whole),
            resting_7d_avg_bpm: self.field(|x| x.last_seven_days_avg_resting_heart_rate).and_then(whole),
        };
        (heart_rate.resting_bpm.is_some() || heart_rate.max_bpm.is_some()).then_some(heart_rate)
    }

    /// The night: times in local wall time, stages, score (and the stage timeline in full
    /// detail). A night without a total sleep time can still have its stages (and SpO2,
    /// respiration).
    fn sleep(&self, offset_for_sleep: Duration) -> Option<DaySleep> {
        self.sleep_dto().filter(|d| d.has_data() || d.has_stages()).map(|d| {
            let overall = d.sleep_scores.as_ref().and_then(|x| x.overall.as_ref());
            let local = |gmt: Option<chrono::DateTime<chrono::Utc>>, local: Option<NaiveDateTime>| {
                local
                    .or_else(|| gmt.map(|g| g.naive_utc() + offset_for_sleep))
                    .map(|t| t.format("%H:%M").to_string())
            };
            DaySleep {
                start: local(d.sleep_start_gmt, d.sleep_start_local),
                end: local(d.sleep_end_gmt, d.sleep_end_local),
                total: d.sleep_time_seconds.filter(|t| *t > 0.0).map(hm),
                deep: d.deep_sleep_seconds.map(hm),
                light: d.light_sleep_seconds.map(hm),
                rem: d.rem_sleep_seconds.map(hm),
                awake: d.awake_sleep_seconds.map(hm),
                score: overall.and_then(|o| o.value).and_then(whole),
                quality: overall.and_then(|o| o.qualifier_key.as_deref()).map(words),
                need: d.sleep_need.as_ref().and_then(sleep_need_part),
                stages: if self.full {
                    self.sleep.as_ref().map(|x| sleep_timeline(x, offset_for_sleep)).unwrap_or_default()
                } else {
                    Vec::new()
                },
            }
        })
    }

    /// The day's stress and Body Battery series, standing in for a missing daily summary.
    fn stand_in_series(&self) -> Option<&DailyStress> {
        self.series.as_ref().filter(|_| self.summary.is_none())
    }

    /// Stress: average and highest (from the summary, else the stress stats, else the series),
    /// minutes per level, and the hourly levels when the series was read.
    fn stress(&self, offset_for_day: Duration) -> Option<DayStress> {
        let levels = self.stress_day.as_ref().and_then(|d| d.values.as_ref());
        let series = self.stand_in_series();
        let points: Vec<f64> =
            series.map(|x| x.stress_points().iter().map(|p| p.value).collect()).unwrap_or_default();
        let mean = (!points.is_empty()).then(|| points.iter().sum::<f64>() / points.len() as f64);
        let minutes = |secs: Option<f64>| secs.map(|x| (x / 60.0).round() as u64);
        let stress = DayStress {
            avg: self
                .field(|x| x.average_stress_level)
                .or_else(|| levels.and_then(|v| v.overall_stress_level))
                .or_else(|| series.and_then(|x| x.avg_stress_level).filter(|v| *v >= 0.0))
                .or(mean)
                .and_then(whole),
            max: self
                .field(|x| x.max_stress_level)
                .or_else(|| series.and_then(|x| x.max_stress_level).filter(|v| *v >= 0.0))
                .or_else(|| points.iter().copied().reduce(f64::max))
                .and_then(whole),
            qualifier: self.summary.as_ref().and_then(|x| x.stress_qualifier.as_deref()).map(words),
            rest_min: minutes(levels.and_then(|v| v.rest_stress_duration)),
            low_min: minutes(levels.and_then(|v| v.low_stress_duration)),
            medium_min: minutes(levels.and_then(|v| v.medium_stress_duration)),
            high_min: minutes(levels.and_then(|v| v.high_stress_duration)),
            hourly: self.series.as_ref().map(|x| hourly(x, self.date, offset_for_day)).unwrap_or_default(),
        };
        (stress.avg.is_some() || stress.rest_min.is_some() || stress.max.is_some()).then_some(stress)
    }

    /// Body Battery: charged, drained, highest and lowest (from the summary, else the series).
    fn body_battery(&self) -> Option<DayBodyBattery> {
        let points: Vec<f64> = self
            .stand_in_series()
            .map(|x| x.body_battery_points().iter().map(|p| p.value).collect())
            .unwrap_or_default();
        let body_battery = DayBodyBattery {
            charged: self.field(|x| x.body_battery_charged_value).and_then(whole),
            drained: self.field(|x| x.body_battery_drained_value).and_then(whole),
            highest: self
                .field(|x| x.body_battery_highest_value)
                .or_else(|| points.iter().copied().reduce(f64::max))
                .and_then(whole),
            lowest: self
                .field(|x| x.body_battery_lowest_value)
                .or_else(|| points.iter().copied().reduce(f64::min))
                .and_then(whole),
            at_wake: self.field(|x| x.body_battery_at_wake_time).and_then(whole),
        };
        (body_battery.highest.is_some() || body_battery.charged.is_some()).then_some(body_battery)
    }

    /// Breaths per minute awake (the day) and asleep (the night).
    fn respiration(&self) -> Option<DayRespiration> {
        let respiration = DayRespiration {
            avg_waking_brpm: self.field(|x| x.avg_waking_respiration_value).filter(|v| *v > 0.0),
            avg_sleeping_brpm: self
                .sleep_dto()
                .and_then(|d| d.average_respiration_value)
                .filter(|v| *v > 0.0),
        };
        (respiration.avg_waking_brpm.is_some() || respiration.avg_sleeping_brpm.is_some())
            .then_some(respiration)
    }

    /// Blood oxygen: the summary's, else the SpO2 read's, else the night's.
    fn spo2(&self) -> Option<DaySpo2> {
        let day_spo2 = self.spo2.as_ref();
        let sleep_dto = self.sleep_dto();
        let spo2 = DaySpo2 {
            avg_pct: self
                .field(|x| x.average_spo2)
                .or_else(|| day_spo2.and_then(|x| x.average_spo2))
                .or_else(|| sleep_dto.and_then(|d| d.average_spo2_value)),
            lowest_pct: self
                .field(|x| x.lowest_spo2)
                .or_else(|| day_spo2.and_then(|x| x.lowest_spo2))
                .or_else(|| sleep_dto.and_then(|d| d.lowest_spo2_value)),
            latest_pct: day_spo2.and_then(|x| x.latest_spo2),
            seven_day_avg_pct: day_spo2.and_then(|x| x.last_seven_days_avg_spo2),
        };
        (spo2.avg_pct.is_some() || spo2.lowest_pct.is_some()).then_some(spo2)
    }

    /// Last night's HRV with the weekly average, baseline and status.
    fn hrv(&self) -> Option<DayHrv> {
        self.hrv.as_ref().and_then(|h| h.hrv_summary.as_ref()).filter(|x| x.has_data()).map(|x| {
            let baseline = x.baseline.as_ref();
            DayHrv {
                last_night_avg_ms: x.last_night_avg,
                weekly_avg_ms: x.weekly_avg,
                baseline_low_ms: baseline.and_then(|b| b.balanced_low),
                baseline_high_ms: baseline.and_then(|b| b.balanced_upper),
                status: x.status.as_deref().map(words),
            }
        })
    }

    /// Intensity minutes of the day and the week (the intensity read's, else the summary's).
    fn intensity(&self) -> Option<DayIntensity> {
        let im = self.im.as_ref();
        let intensity = DayIntensity {
            moderate: im
                .and_then(|x| x.moderate_minutes)
                .or_else(|| self.field(|x| x.moderate_intensity_minutes))
                .and_then(whole),
            vigorous: im
                .and_then(|x| x.vigorous_minutes)
                .or_else(|| self.field(|x| x.vigorous_intensity_minutes))
                .and_then(whole),
            week_total: im.and_then(|x| x.end_day_minutes).and_then(whole),
            week_goal: im
                .and_then(|x| x.weekly_goal)
                .or_else(|| self.field(|x| x.intensity_minutes_goal))
                .and_then(whole),
        };
        (intensity.moderate.is_some() || intensity.vigorous.is_some()).then_some(intensity)
    }

    /// The latest weigh-in on or before the day, with its day.
    fn body(&self) -> Option<DayBody> {
        latest_weight(&self.weight, self.date).map(|(day, e)| DayBody {
            date: Some(day.to_string()),
            weight_kg: e.weight.map(kg),
            bmi: e.bmi.map(round1),
            body_fat_pct: e.body_fat.map(round1),
        })
    }

    /// The day's latest blood-pressure reading, with how many there were.
    fn blood_pressure(&self) -> Option<DayBloodPressure> {
        let readings: Vec<_> = self
            .bp
            .measurement_summaries
            .iter()
            .filter(|d| d.start_date.is_none_or(|x| x == self.date))
            .flat_map(|d| d.measurements.iter())
            .collect();
        readings.iter().max_by_key(|r| r.measurement_timestamp_gmt).map(|r| DayBloodPressure {
            systolic: r.systolic,
            diastolic: r.diastolic,
            pulse: r.pulse,
            category: r.category.as_deref().map(words),
            readings: readings.len(),
        })
    }

    /// Water drunk against the goal (when an intake is logged).
    fn hydration(&self) -> Option<DayHydration> {
        self.hydration
            .as_ref()
            .filter(|h| h.value_in_ml.is_some())
            .map(|h| DayHydration { intake_ml: h.value_in_ml, goal_ml: h.goal_in_ml })
    }
}

/// The names (of [`PART_NAMES`]) of the parts a day lacks.
fn absent_parts(day: &HealthDay) -> Vec<String> {
    let present = [
        day.activity.is_some(),
        day.heart_rate.is_some(),
        day.sleep.is_some(),
        day.stress.is_some(),
        day.body_battery.is_some(),
        day.respiration.is_some(),
        day.spo2.is_some(),
        day.hrv.is_some(),
        day.intensity_minutes.is_some(),
        day.body_composition.is_some(),
        day.blood_pressure.is_some(),
        day.hydration.is_some(),
        day.health_status.is_some(),
    ];
    PART_NAMES.iter().zip(present).filter(|(_, has)| !has).map(|(name, _)| (*name).to_owned()).collect()
}

/// The summary sentence(s) of one day.
fn day_summary(date: NaiveDate, day: &HealthDay, missing: &[String]) -> String {
    let mut parts = Vec::new();
    if let Some(s) = &day.sleep {
        let mut text = match s.total.as_deref().and_then(parse_hm) {
            Some(asleep) => format!("{date}: slept {}", display::hours_minutes(asleep)),
            None => format!("{date}: sleep stages recorded but no total sleep time"),
        };
        if let (Some(a), Some(b)) = (&s.start, &s.end) {
            text.push_str(&format!(" ({a}–{b})"));
        }
        if let Some(score) = s.score {
            text.push_str(&format!(", sleep score {score}"));
            if let Some(q) = &s.quality {
                text.push_str(&format!(" ({q})"));
            }
        }
        parts.push(text);
    } else {
        parts.push(format!("{date}: no sleep recorded for the night"));
    }
    if let Some(rhr) = day.heart_rate.as_ref().and_then(|h| h.resting_bpm) {
        parts.push(format!("resting HR {rhr} bpm"));
    }
    if let Some(h) = &day.hrv
        && let Some(avg) = h.last_night_avg_ms
    {
        let status = h.status.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
        parts.push(format!("HRV {avg:.0} ms{status}"));
    }
    if let Some(avg) = day.stress.as_ref().and_then(|s| s.avg) {
        parts.push(format!("stress avg {avg}"));
    }
    if let Some(b) = &day.body_battery
        && let (Some(hi), Some(lo)) = (b.highest, b.lowest)
    {
        parts.push(format!("Body Battery {lo}–{hi}"));
    }
    if let Some(steps) = day.activity.as_ref().and_then(|a| a.steps) {
        parts.push(format!("{} steps", thousands(steps)));
    }
    let mut text = parts.join(", ") + ".";
    if let Some(status) = &day.health_status {
        text.push(' ');
        text.push_str(&health_status_sentence(status));
    }
    if missing.iter().any(|m| m == "hrv") {
        text.push_str(&format!(" No HRV reading for {date}."));
    }
    // Bare names: nothing recorded; `part: why`: Garmin could not give it.
    let (failed, absent): (Vec<&String>, Vec<&String>) = missing.iter().partition(|m| m.contains(": "));
    let others: Vec<String> =
        absent.iter().filter(|m| m.as_str() != "hrv" && m.as_str() != "sleep").map(|m| words(m)).collect();
    if !others.is_empty() {
        text.push_str(&format!(" Not recorded: {}.", others.join(", ")));
    }
    if !failed.is_empty() {
        let failed: Vec<String> = failed.iter().map(|m| m.replacen('_', " ", 1)).collect();
        text.push_str(&format!(" Could not read: {}.", failed.join("; ")));
    }
    text
}

/// The latest weigh-in on or before `date` in a weight range, with its day.
fn latest_weight(range: &WeightRange, date: NaiveDate) -> Option<(NaiveDate, &WeightEntry)> {
    range
        .daily_weight_summaries
        .iter()
        .filter_map(|d| {
            let day = d.summary_date?;
            let entry = d.latest_weight.as_ref().filter(|e| e.weight.is_some()).or_else(|| {
                d.all_weight_metrics.iter().filter(|e| e.weight.is_some()).max_by_key(|e| e.timestamp_gmt)
            })?;
            (day <= date).then_some((day, entry))
        })
        .max_by_key(|(day, e)| (*day, e.timestamp_gmt))
}

/// The weigh-in of exactly `date`, if any.
pub(super) fn weight_on(range: &WeightRange, date: NaiveDate) -> Option<&WeightEntry> {
    latest_weight(range, date).filter(|(day, _)| *day == date).map(|(_, e)| e)
}

/// The night's sleep need in words (minutes → `h:mm`), with the reasons it moved.
fn sleep_need_part(n: &garmin::models::wellness::SleepNeed) -> Option<super::answer::SleepNeedPart> {
    Some(super::answer::SleepNeedPart {
        need: hm(n.actual.filter(|m| *m > 0.0)? * 60.0),
        baseline: n.baseline.filter(|m| *m > 0.0).map(|m| hm(m * 60.0)),
        reasons: n.reasons().into_iter().map(|(why, key)| format!("{why}: {}", words(key))).collect(),
    })
}

/// The day's answer: its summary with what is missing and not recorded, or `NoData` when Garmin
/// had nothing at all for the day.
fn day_answer(
    parts: DayParts,
    failures: &Failures,
    not_recorded: Vec<String>,
) -> Result<(String, DailyHealth), ToolError> {
    let date = parts.date;
    let (day, mut absent) = parts.build();
    if absent.len() == PART_NAMES.len() && failures.reasons.is_empty() {
        return Err(ToolError::NoData(format!("No health data recorded for {date}")));
    }
    if !not_recorded.is_empty() {
        absent.retain(|part| part != "health_status");
    }
    let missing = failures.explain(&absent);
    let mut text = day_summary(date, &day, &missing);
    for sentence in &not_recorded {
        text.push(' ');
        text.push_str(sentence);
    }
    Ok((
        text,
        DailyHealth {
            date: Some(date.to_string()),
            day: Some(day),
            missing,
            not_recorded,
            ..DailyHealth::default()
        },
    ))
}
