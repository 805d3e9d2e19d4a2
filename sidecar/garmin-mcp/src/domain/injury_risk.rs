//! "Am I doing too much?" in one verdict (`get_injury_risk`, issue #29 item 2): the watch's
//! mechanical load (Running Tolerance and impact load), the cardiovascular load we compute (ACWR
//! both ways, monotony and strain, ramp of fitness — `analytics`, on the `load` scale of
//! `get_fitness_trend`), the recovery signals (HRV status, resting heart rate against its 7-day
//! average, sleep against sleep need, the morning readiness, Health Status against the athlete's
//! own baseline) and the injuries and weekly caps of
//! the athlete memory, each scored in points; the verdict, the reasons ranked with their numbers,
//! the conventions and what would change it (the most running this week keeps).
//!
//! [`assess`] is a pure function of [`RiskInputs`] (no Garmin, no clock): the tool gathers the
//! inputs, this module judges them. Thresholds live here once ([`CONVENTIONS`]); the ACWR bands
//! are `analytics::acwr`'s.

use analytics::DailyLoad;
use analytics::acwr::{
    AcwrBand, MonotonyLevel, PRODUCTIVE_HIGH, acute_chronic, coupled_week_limit, monotony_strain,
};
use analytics::pmc::{PmcConstants, performance_management_until};
use chrono::{Datelike, Duration, NaiveDate};
use rmcp::schemars;
use serde::Serialize;

use crate::domain::fitness::FAST_RAMP;
use crate::domain::load::band_words;
use crate::domain::session_load::round1;
use crate::history::DataSource;

/// How the verdict and each reason are judged, quoted in every answer.
pub const CONVENTIONS: [&str; 5] = [
    "Verdict: each reason scores 0 (ok), 1 (mild), 2 (moderate) or 3 (high); high when any reason scores 3 or the points add up to 5 or more, moderate from 2 points, else low.",
    "Running Tolerance (Garmin's weekly impact load the legs can take, reset each Monday): impact load of the week over the tolerance scores 3 (Garmin: above tolerance), over 80 % of it 2 (high load; the 80 % cut is ours, Garmin does not publish its own).",
    "Cardiovascular load: the worse of the rolling and EWMA ACWR bands scores 3 above 1.5 and 2 above 1.3 (Gabbett 2016); Foster monotony 2 at 2.0 or more, 1 from 1.5; a ramp of fitness (CTL gained in 7 days) above 8 scores 2.",
    "Recovery: sleep under 70 % of Garmin's sleep need scores 2, under 85 % 1; resting heart rate 5 bpm or more over its 7-day average 2, 3 bpm or more 1; HRV status low or poor 2, unbalanced 1; morning Training Readiness under 25 (Garmin: poor) 2, under 50 (low) 1; Health Status (the night's HRV, resting heart rate, respiration, skin temperature and SpO2 against the athlete's own baseline range, as the watch judges it) with two or more metrics outside that range 2, one 1 (its HRV and resting heart rate may also score above: a metric out of its baseline range is a reason of its own).",
    "Athlete memory: a remembered injury scores 2; running past a remembered weekly cap 3, past 90 % of it 1. This week's limit is the smallest of: the km that fill the Running Tolerance at this week's impact load per km, the km that keep the rolling ACWR of running distance at or under 1.3 on Sunday (1.3 × the 21 days before Monday / 2.7), and the cap.",
];

/// Running Tolerance as the watch gave it on the day (latest row on or before it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToleranceNow {
    /// The row's day.
    pub as_of: NaiveDate,
    /// This week's tolerance (impact load).
    pub weekly_tolerance: Option<f64>,
    /// Impact load of the training week so far (Monday on).
    pub weekly_impact_load: Option<f64>,
    /// Impact load of the last 7 days.
    pub acute_impact_load: Option<f64>,
    /// Garmin's verdict key (`ABOVE_TOLERANCE`, `HIGH_LOAD`…).
    pub verdict: Option<String>,
}

/// Running distance around the day: the training week so far, the last 7 days, the 21 days
/// before the week's Monday.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunningKm {
    /// Monday of the day's training week.
    pub week_start: NaiveDate,
    /// Km run from Monday to the day.
    pub week_km: f64,
    /// Km run in the 7 days ending on the day.
    pub last_7_days_km: f64,
    /// Km run in the 21 days before Monday.
    pub prior_three_weeks_km: f64,
}

impl RunningKm {
    /// The km of `runs` (`(day, km)`) around `date`.
    pub fn around(date: NaiveDate, runs: &[(NaiveDate, f64)]) -> RunningKm {
        let week_start = date - Duration::days(i64::from(date.weekday().num_days_from_monday()));
        let sum = |from: NaiveDate, to: NaiveDate| -> f64 {
            runs.iter()
                .filter(|(d, km)| (from..=to).contains(d) && km.is_finite() && *km > 0.0)
                .map(|r| r.1)
                .sum()
        };
        RunningKm {
            week_start,
            week_km: sum(week_start, date),
            last_7_days_km: sum(date - Duration::days(6), date),
            prior_three_weeks_km: sum(week_start - Duration::days(21), week_start - Duration::days(1)),
        }
    }
}

/// The recovery signals of the day; each may be missing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Recovery {
    /// Garmin's HRV status key (`BALANCED`, `UNBALANCED`, `LOW`, `POOR`).
    pub hrv_status: Option<String>,
    /// Last night's HRV, ms.
    pub hrv_last_night_ms: Option<f64>,
    /// Resting heart rate, bpm.
    pub resting_hr: Option<f64>,
    /// Its 7-day average, bpm.
    pub resting_hr_7d: Option<f64>,
    /// Last night's sleep, hours.
    pub sleep_hours: Option<f64>,
    /// Garmin's sleep need for it, hours.
    pub sleep_need_hours: Option<f64>,
    /// The morning Training Readiness score.
    pub readiness: Option<f64>,
    /// Health Status: how many of the night's metrics Garmin judged (`None` when it gave none).
    pub health_status_metrics: Option<usize>,
    /// Its metrics outside the athlete's baseline range, with their numbers (`resting heart rate
    /// above baseline (58 bpm, baseline 48–54)`).
    pub health_status_out: Vec<String>,
}

/// Everything the verdict is made of.
#[derive(Clone, Debug, Default)]
pub struct RiskInputs {
    /// The day judged.
    pub date: NaiveDate,
    /// Each day's cardiovascular load up to the day (empty when unknown).
    pub loads: Vec<DailyLoad>,
    /// The load asked for (`auto`, `garmin`, `hr`, `power`).
    pub load_word: String,
    /// `tss`, `garmin` or `none`.
    pub load_scale: String,
    /// What was counted as each day's load.
    pub load_convention: String,
    /// Running Tolerance, when the watch gave it.
    pub tolerance: Option<ToleranceNow>,
    /// Running distance, when the activities were read.
    pub running: Option<RunningKm>,
    /// Recovery signals.
    pub recovery: Recovery,
    /// Remembered injuries, described (`injury: "sore left Achilles" (since 2026-11-01)`).
    pub injuries: Vec<String>,
    /// The smallest remembered weekly cap, km.
    pub weekly_km_cap: Option<f64>,
}

/// One reason of the verdict.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RiskReason {
    /// `running_tolerance`, `acwr`, `volume_cap`, `injury`, `monotony`, `ramp`, `sleep`,
    /// `resting_hr`, `hrv`, `readiness`, `health_status`.
    pub factor: String,
    /// `high`, `moderate`, `mild` or `ok`.
    pub level: String,
    /// 0–3 (see `conventions`).
    pub points: u32,
    /// What it is, with its numbers.
    pub says: String,
    /// What would bring it down.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_change: Option<String>,
}

/// The cardiovascular load on the day.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct CardioLoad {
    /// The load asked for: `auto`, `garmin`, `hr` or `power`.
    pub load: String,
    /// `tss` or `garmin` (as `get_fitness_trend`).
    pub load_scale: String,
    /// What was counted as each day's load.
    pub load_convention: String,
    /// The 7 days' load.
    pub week_load: f64,
    /// Rolling ACWR (absent before 28 days of data).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acwr_rolling: Option<f64>,
    /// Its band: `under`, `productive`, `caution`, `high_risk`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_band: Option<String>,
    /// EWMA ACWR.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acwr_ewma: Option<f64>,
    /// Its band.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ewma_band: Option<String>,
    /// Foster monotony of the 7 days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monotony: Option<f64>,
    /// Strain = the 7 days' load × monotony.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strain: Option<f64>,
    /// Fitness (CTL) gained in the last 7 days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ramp: Option<f64>,
    /// True within the first 28 days of data: the ratios are rough.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub settling: bool,
}

/// Running distance and Running Tolerance on the day.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RunningLoad {
    /// Monday of the training week.
    pub week_start: String,
    /// Km run this week so far.
    pub km_this_week: f64,
    /// Km run in the last 7 days.
    pub km_last_7_days: f64,
    /// Km run in the 21 days before Monday.
    pub km_prior_3_weeks: f64,
    /// Garmin's weekly tolerance (impact load).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weekly_tolerance: Option<f64>,
    /// Impact load of the week so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weekly_impact_load: Option<f64>,
    /// Impact load of the last 7 days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acute_impact_load: Option<f64>,
    /// Garmin's verdict in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub garmin_verdict: Option<String>,
    /// The day of the tolerance row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance_as_of: Option<String>,
}

/// One bound on this week's running.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LimitBound {
    /// `running_tolerance`, `acwr` or `volume_cap`.
    pub by: String,
    /// Km for the whole training week.
    pub km: f64,
}

/// The most running this training week should hold.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct WeekLimit {
    /// Monday.
    pub week_start: String,
    /// Sunday.
    pub week_end: String,
    /// The smallest bound, km.
    pub km: f64,
    /// Which bound it is.
    pub limited_by: String,
    /// Km already run this week.
    pub km_so_far: f64,
    /// Every bound that could be computed.
    pub bounds: Vec<LimitBound>,
}

/// The answer of `get_injury_risk`.
#[derive(Clone, Debug, Default, Serialize, schemars::JsonSchema)]
pub struct InjuryRisk {
    /// The day judged.
    pub date: String,
    /// `low`, `moderate` or `high`.
    pub verdict: String,
    /// The reasons' points added up.
    pub points: u32,
    /// Every reason judged, the most important first, each with its numbers.
    pub reasons: Vec<RiskReason>,
    /// The most running this week should hold, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub week_limit: Option<WeekLimit>,
    /// What would change the verdict, the most useful first.
    pub what_would_change: Vec<String>,
    /// The cardiovascular load (absent without sessions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<CardioLoad>,
    /// Running distance and tolerance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<RunningLoad>,
    /// The athlete memory's injuries and weekly caps, as remembered (the athlete's words, quoted).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub remembered: Vec<String>,
    /// The conventions: ACWR, monotony, load scale, thresholds and their sources.
    pub conventions: Vec<String>,
    /// One sentence per metric the watch does not record.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_recorded: Vec<String>,
    /// Parts that could not be read or that Garmin has nothing for, with why; the verdict uses
    /// what is left.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// How the load was read (the history, or Garmin live) and what it lacked (no FTP…).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the loads came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

/// The level word of a reason's points.
fn level(points: u32) -> &'static str {
    match points {
        0 => "ok",
        1 => "mild",
        2 => "moderate",
        _ => "high",
    }
}

fn reason(factor: &str, points: u32, says: String, to_change: Option<String>) -> RiskReason {
    RiskReason { factor: factor.to_owned(), level: level(points).to_owned(), points, says, to_change }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The verdict of `inputs`: reasons scored and ranked, the week's limit, what would change it.
pub fn assess(inputs: &RiskInputs) -> InjuryRisk {
    let load = cardio_load(inputs);
    let mut reasons = Vec::new();
    reasons.extend(tolerance_reason(inputs.tolerance.as_ref()));
    if let Some((_, r)) = &load {
        reasons.extend(r.iter().cloned());
    }
    reasons.extend(memory_reasons(inputs));
    reasons.extend(recovery_reasons(&inputs.recovery));
    // Stable: ties keep the order above (mechanical, cardiovascular, memory, recovery).
    reasons.sort_by_key(|r| std::cmp::Reverse(r.points));
    let points: u32 = reasons.iter().map(|r| r.points).sum();
    let verdict = if reasons.iter().any(|r| r.points >= 3) || points >= 5 {
        "high"
    } else if points >= 2 {
        "moderate"
    } else {
        "low"
    };
    let week_limit = week_limit(inputs);
    let mut conventions: Vec<String> = CONVENTIONS.iter().map(|c| (*c).to_owned()).collect();
    if load.is_some() {
        conventions.push(format!("Load: {}", inputs.load_convention));
        conventions.push(analytics::acwr::ACWR_CONVENTION.to_owned());
        conventions.push(analytics::acwr::MONOTONY_CONVENTION.to_owned());
    }
    InjuryRisk {
        date: inputs.date.to_string(),
        verdict: verdict.to_owned(),
        points,
        what_would_change: what_would_change(verdict, &reasons, week_limit.as_ref()),
        reasons,
        week_limit,
        load: load.map(|(l, _)| l),
        running: inputs.running.map(|r| running_load(&r, inputs.tolerance.as_ref())),
        remembered: remembered(inputs),
        conventions,
        ..InjuryRisk::default()
    }
}

/// The running part of the answer.
fn running_load(r: &RunningKm, t: Option<&ToleranceNow>) -> RunningLoad {
    RunningLoad {
        week_start: r.week_start.to_string(),
        km_this_week: round1(r.week_km),
        km_last_7_days: round1(r.last_7_days_km),
        km_prior_3_weeks: round1(r.prior_three_weeks_km),
        weekly_tolerance: t.and_then(|t| t.weekly_tolerance).map(f64::round),
        weekly_impact_load: t.and_then(|t| t.weekly_impact_load).map(f64::round),
        acute_impact_load: t.and_then(|t| t.acute_impact_load).map(f64::round),
        garmin_verdict: t.and_then(|t| t.verdict.as_deref()).map(crate::domain::words::words),
        tolerance_as_of: t.map(|t| t.as_of.to_string()),
    }
}

/// Running Tolerance: the week's impact load against the tolerance.
fn tolerance_reason(t: Option<&ToleranceNow>) -> Option<RiskReason> {
    let t = t?;
    let (tolerance, impact) = (t.weekly_tolerance.filter(|x| *x > 0.0)?, t.weekly_impact_load?);
    let share = impact / tolerance;
    let points = if share > 1.0 {
        3
    } else if share > 0.8 {
        2
    } else {
        0
    };
    let garmin = t
        .verdict
        .as_deref()
        .map(|v| format!("; Garmin: {}", crate::domain::words::words(v)))
        .unwrap_or_default();
    let says = format!(
        "running impact load this week {impact:.0} against a tolerance of {tolerance:.0} ({:.0} %){garmin}",
        share * 100.0
    );
    let to_change = (points > 0).then(|| {
        if share > 1.0 {
            "no more running impact this week: the tolerance resets on Monday".to_owned()
        } else {
            format!("at most {:.0} more impact load this week", tolerance - impact)
        }
    });
    Some(reason("running_tolerance", points, says, to_change))
}

/// The cardiovascular part (`None` without loads): the numbers and their reasons.
fn cardio_load(inputs: &RiskInputs) -> Option<(CardioLoad, Vec<RiskReason>)> {
    let date = inputs.date;
    let acwr = acute_chronic(&inputs.loads, Some(date)).ok()?;
    let day = acwr.days.iter().rev().find(|d| d.date == date)?;
    let week = monotony_strain(&inputs.loads, Some(date))
        .ok()
        .and_then(|m| m.days.into_iter().rev().find(|d| d.date == date));
    let pmc = performance_management_until(&inputs.loads, &PmcConstants::default(), date).ok();
    let ramp = pmc.as_ref().and_then(|p| p.between(date, date).last().and_then(|d| d.ramp));
    let key = |b: Option<AcwrBand>| b.map(|b| band_words(b).key.to_owned());
    let load = CardioLoad {
        load: inputs.load_word.clone(),
        load_scale: inputs.load_scale.clone(),
        load_convention: inputs.load_convention.clone(),
        week_load: round1(week.map_or_else(|| day.rolling.map_or(0.0, |r| r.acute), |w| w.weekly_load)),
        acwr_rolling: day.rolling.and_then(|r| r.ratio).map(round2),
        rolling_band: key(day.rolling.and_then(|r| r.band)),
        acwr_ewma: day.ewma.ratio.map(round2),
        ewma_band: key(day.ewma.band),
        monotony: week.and_then(|w| w.monotony).map(round2),
        strain: week.and_then(|w| w.strain).map(round1),
        ramp: ramp.map(round1),
        settling: day.settling,
    };
    let prior: f64 = inputs
        .loads
        .iter()
        .filter(|l| (date - Duration::days(20)..=date).contains(&l.date))
        .map(|l| l.load.max(0.0))
        .sum();
    let mut reasons = vec![acwr_reason(&load, day.rolling.and_then(|r| r.band), day.ewma.band, prior)];
    if let Some(m) = load.monotony {
        let points = match MonotonyLevel::of(m) {
            MonotonyLevel::High => 2,
            MonotonyLevel::Warn => 1,
            MonotonyLevel::Varied => 0,
        };
        let strain = load.strain.map(|s| format!(", strain {s:.0}")).unwrap_or_default();
        let says = format!("monotony {m:.2} over the last 7 days (Foster{strain})");
        let change = (points > 0)
            .then(|| "vary the days: an easy or rest day between the harder ones lowers monotony".to_owned());
        reasons.push(reason("monotony", points, says, change));
    }
    if let Some(r) = load.ramp {
        let points = if r > FAST_RAMP { 2 } else { 0 };
        let says = format!("fitness (CTL) {r:+.1} over the last 7 days ({})", inputs.load_scale);
        let change =
            (points > 0).then(|| format!("build more slowly: a ramp of at most {FAST_RAMP:.0} a week"));
        reasons.push(reason("ramp", points, says, change));
    }
    Some((load, reasons))
}

/// The ACWR reason: the worse band of the two methods.
fn acwr_reason(
    load: &CardioLoad,
    rolling: Option<AcwrBand>,
    ewma: Option<AcwrBand>,
    prior_21: f64,
) -> RiskReason {
    let points = |b: Option<AcwrBand>| match b {
        Some(AcwrBand::HighRisk) => 3,
        Some(AcwrBand::Caution) => 2,
        _ => 0,
    };
    let worst = points(rolling).max(points(ewma));
    let show = |r: Option<f64>, b: &Option<String>| match (r, b) {
        (Some(r), Some(b)) => format!("{r:.2} ({})", b.replace('_', " ")),
        _ => "n/a".to_owned(),
    };
    let mut says = format!(
        "ACWR rolling {}, EWMA {}; 7-day load {:.0} ({})",
        show(load.acwr_rolling, &load.rolling_band),
        show(load.acwr_ewma, &load.ewma_band),
        load.week_load,
        load.load_scale
    );
    if load.settling {
        says.push_str("; fewer than 28 days of data, so the ratios are rough");
    }
    let to_change = (worst > 0).then(|| match coupled_week_limit(prior_21, PRODUCTIVE_HIGH) {
        Some(limit) => format!(
            "keep the next 7 days' load under {limit:.0} ({}) to bring the rolling ACWR back to {PRODUCTIVE_HIGH} or below",
            load.load_scale
        ),
        None => "ease off until the acute load is back near the chronic one".to_owned(),
    });
    reason("acwr", worst, says, to_change)
}

/// Remembered injuries and weekly caps.
fn memory_reasons(inputs: &RiskInputs) -> Vec<RiskReason> {
    let mut out = Vec::new();
    if let (Some(cap), Some(run)) = (inputs.weekly_km_cap, inputs.running) {
        let points = if run.week_km > cap {
            3
        } else if run.week_km >= 0.9 * cap {
            1
        } else {
            0
        };
        let says = format!("{:.1} km run this week against your remembered cap of {cap:.0} km", run.week_km);
        let change = (points > 0).then(|| format!("stay under your cap of {cap:.0} km a week"));
        out.push(reason("volume_cap", points, says, change));
    }
    if !inputs.injuries.is_empty() {
        let says = inputs.injuries.iter().map(|i| format!("remembered {i}")).collect::<Vec<_>>().join("; ");
        let change = "train around the remembered injury: only what it allows without pain, and forget it once healed (forget_athlete_fact)".to_owned();
        out.push(reason("injury", 2, says, Some(change)));
    }
    out
}

/// Sleep, resting heart rate, HRV status and readiness.
fn recovery_reasons(r: &Recovery) -> Vec<RiskReason> {
    let mut out = Vec::new();
    if let (Some(slept), Some(need)) = (r.sleep_hours, r.sleep_need_hours.filter(|n| *n > 0.0)) {
        let share = slept / need;
        let points = if share < 0.70 {
            2
        } else if share < 0.85 {
            1
        } else {
            0
        };
        let says =
            format!("slept {} against a need of {} ({:.0} %)", hours(slept), hours(need), share * 100.0);
        out.push(reason(
            "sleep",
            points,
            says,
            (points > 0).then(|| format!("sleep closer to your need of {}", hours(need))),
        ));
    }
    if let (Some(rhr), Some(avg)) = (r.resting_hr, r.resting_hr_7d) {
        let over = rhr - avg;
        let points = if over >= 5.0 {
            2
        } else if over >= 3.0 {
            1
        } else {
            0
        };
        let says =
            format!("resting heart rate {rhr:.0} bpm against a 7-day average of {avg:.0} ({over:+.0})");
        let change = (points > 0)
            .then(|| "keep it easy until the resting heart rate is back near its average".to_owned());
        out.push(reason("resting_hr", points, says, change));
    }
    if let Some(status) = r.hrv_status.as_deref() {
        let points = match status {
            "LOW" | "POOR" => 2,
            "UNBALANCED" => 1,
            _ => 0,
        };
        let night = r.hrv_last_night_ms.map(|ms| format!(", last night {ms:.0} ms")).unwrap_or_default();
        let says = format!("HRV status {}{night}", crate::domain::words::words(status));
        let change = (points > 0).then(|| "easy days until the HRV status is balanced again".to_owned());
        out.push(reason("hrv", points, says, change));
    }
    if let Some(score) = r.readiness {
        let points = if score < 25.0 {
            2
        } else if score < 50.0 {
            1
        } else {
            0
        };
        let change = (points > 0).then(|| "an easy day or rest today".to_owned());
        out.push(reason("readiness", points, format!("morning Training Readiness {score:.0}"), change));
    }
    out.extend(health_status_reason(r));
    out
}

/// Health Status: each metric outside the athlete's own baseline range is named; two or more
/// score 2, one 1.
fn health_status_reason(r: &Recovery) -> Option<RiskReason> {
    let judged = r.health_status_metrics?;
    let points = match r.health_status_out.len() {
        0 => 0,
        1 => 1,
        _ => 2,
    };
    let says = if points == 0 {
        format!("Health Status: all {judged} metrics within your baseline")
    } else {
        format!("Health Status: {}", r.health_status_out.join("; "))
    };
    let change =
        (points > 0).then(|| "easy days until Health Status is back within your baseline".to_owned());
    Some(reason("health_status", points, says, change))
}

/// The inputs Garmin had nothing for (no error, just no value), one entry each, so the answer
/// says what the verdict was made without.
pub fn absent_inputs(inputs: &RiskInputs) -> Vec<String> {
    let r = &inputs.recovery;
    let date = inputs.date;
    let mut out = Vec::new();
    if inputs.loads.is_empty() {
        out.push(format!("load: no session with a {} load up to {date}", inputs.load_word));
    }
    for (absent, what) in [
        (
            r.sleep_hours.is_none() || r.sleep_need_hours.is_none(),
            "sleep: no night with a sleep need recorded",
        ),
        (r.resting_hr.is_none() || r.resting_hr_7d.is_none(), "resting heart rate: none recorded"),
        (r.hrv_status.is_none(), "hrv: no HRV status recorded"),
        (r.readiness.is_none(), "readiness: no Training Readiness recorded"),
    ] {
        if absent {
            out.push(format!("{what} for {date}"));
        }
    }
    out
}

/// `7:30` from hours.
fn hours(h: f64) -> String {
    let minutes = (h * 60.0).round() as i64;
    format!("{}:{:02}", minutes / 60, minutes % 60)
}

/// The most running this week keeps: the smallest of the tolerance, ACWR and cap bounds.
pub fn week_limit(inputs: &RiskInputs) -> Option<WeekLimit> {
    let run = inputs.running?;
    let mut bounds = Vec::new();
    if let Some(t) = &inputs.tolerance
        && let (Some(tolerance), Some(impact)) = (t.weekly_tolerance, t.weekly_impact_load)
    {
        // Impact load per km: this week's, else the last 7 days'.
        let per_km = if run.week_km > 0.0 && impact > 0.0 {
            Some(impact / run.week_km)
        } else {
            t.acute_impact_load
                .filter(|a| *a > 0.0 && run.last_7_days_km > 0.0)
                .map(|a| a / run.last_7_days_km)
        };
        if let Some(per_km) = per_km {
            let km = (run.week_km + (tolerance - impact) / per_km).max(0.0);
            bounds.push(LimitBound { by: "running_tolerance".to_owned(), km: round1(km) });
        }
    }
    if let Some(km) = coupled_week_limit(run.prior_three_weeks_km, PRODUCTIVE_HIGH) {
        bounds.push(LimitBound { by: "acwr".to_owned(), km: round1(km) });
    }
    if let Some(cap) = inputs.weekly_km_cap {
        bounds.push(LimitBound { by: "volume_cap".to_owned(), km: round1(cap) });
    }
    let tightest = bounds.iter().min_by(|a, b| a.km.total_cmp(&b.km))?.clone();
    Some(WeekLimit {
        week_start: run.week_start.to_string(),
        week_end: (run.week_start + Duration::days(6)).to_string(),
        km: tightest.km,
        limited_by: tightest.by,
        km_so_far: round1(run.week_km),
        bounds,
    })
}

/// The week's limit in words, then each scoring reason's change, most important first.
fn what_would_change(verdict: &str, reasons: &[RiskReason], limit: Option<&WeekLimit>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(l) = limit {
        let by = match l.limited_by.as_str() {
            "running_tolerance" => "your Running Tolerance",
            "acwr" => "an ACWR of running distance at 1.3",
            _ => "your remembered cap",
        };
        out.push(if l.km_so_far < l.km {
            format!(
                "Keep this week ({} to {}) under {:.0} km of running ({by}): {:.1} km done, {:.0} km left.",
                l.week_start,
                l.week_end,
                l.km,
                l.km_so_far,
                l.km - l.km_so_far
            )
        } else {
            format!(
                "This week's {:.1} km already reaches {:.0} km ({by}): no more running until Monday.",
                l.km_so_far, l.km
            )
        });
    }
    out.extend(reasons.iter().filter(|r| r.points > 0).filter_map(|r| r.to_change.clone()));
    if verdict == "low" && out.len() <= 1 {
        out.push(
            "Nothing pressing: the load is within what you are used to and recovery looks normal.".to_owned(),
        );
    }
    out
}

/// The memory's injuries and caps as shown in the answer.
fn remembered(inputs: &RiskInputs) -> Vec<String> {
    let mut out = inputs.injuries.clone();
    if let Some(cap) = inputs.weekly_km_cap {
        out.push(format!("weekly volume cap: {cap:.0} km"));
    }
    out
}

/// One training week of the load-against-tolerance chart.
#[derive(Clone, Debug, PartialEq)]
pub struct ToleranceWeek {
    /// Its Monday.
    pub monday: NaiveDate,
    /// The week's running impact load (Garmin's weekly load on its last day known).
    pub load: f64,
    /// The week's Running Tolerance.
    pub tolerance: Option<f64>,
    /// The productive ACWR band (0.8–1.3 × the chronic load = the mean of the week and the three
    /// before it, Gabbett's coupled rolling ratio on the week's last day); `None` for the first
    /// three weeks of the rows.
    pub band: Option<(f64, f64)>,
}

/// The `weeks` training weeks ending with the one holding `end`, from Running Tolerance rows
/// `(day, tolerance, impact load of the week so far)`: each week's last row on or before `end`
/// gives its load and tolerance; a week without a row has load 0. Give three more weeks of rows
/// before the first shown for its band.
pub fn tolerance_weeks(
    rows: &[(NaiveDate, Option<f64>, Option<f64>)],
    end: NaiveDate,
    weeks: u32,
) -> Vec<ToleranceWeek> {
    use analytics::acwr::PRODUCTIVE_LOW;
    let this_monday = end - Duration::days(i64::from(end.weekday().num_days_from_monday()));
    let first = this_monday - Duration::weeks(i64::from(weeks) + 2);
    let all: Vec<(NaiveDate, f64, Option<f64>, bool)> = (0..i64::from(weeks) + 3)
        .map(|i| {
            let monday = first + Duration::weeks(i);
            let last = rows
                .iter()
                .filter(|(d, _, _)| (monday..=(monday + Duration::days(6)).min(end)).contains(d))
                .max_by_key(|(d, _, _)| *d);
            let known = rows.iter().any(|(d, _, _)| *d <= monday + Duration::days(6)) || last.is_some();
            (monday, last.and_then(|r| r.2).unwrap_or(0.0).max(0.0), last.and_then(|r| r.1), known)
        })
        .collect();
    all.iter()
        .enumerate()
        .skip(3)
        .map(|(i, &(monday, load, tolerance, _))| {
            let window = &all[i - 3..=i];
            let band = window.iter().all(|w| w.3).then(|| {
                let chronic = window.iter().map(|w| w.1).sum::<f64>() / 4.0;
                (PRODUCTIVE_LOW * chronic, PRODUCTIVE_HIGH * chronic)
            });
            ToleranceWeek { monday, load, tolerance, band: band.filter(|b| b.1 > 0.0) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    //! Golden cases computed by hand (issue #29): a safe build week, a spike above tolerance with
    //! ACWR > 1.5, a remembered injury plus poor sleep. Run: `cargo test -p garmin-mcp --lib
    //! injury_risk`.
    //!
    //! Every case ends on Sunday 2026-11-15 after 8 weeks (from Monday 2026-09-21) of a weekly
    //! pattern P = Mon 40, Tue 0, Wed 60, Thu 40, Fri 0, Sat 100, Sun 20 (sum 260, mean 260/7 =
    //! 37.143, population SD = √(17200/7 − 37.143²) = √1077.55 = 32.826, so Foster monotony =
    //! 37.143 / 32.826 = 1.1315 in every week, whatever its scale).

    use super::*;

    fn d(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    const P: [f64; 7] = [40.0, 0.0, 60.0, 40.0, 0.0, 100.0, 20.0];

    /// Seven weeks of P, then the last week P × `last_week_scale`.
    fn loads(last_week_scale: f64) -> Vec<DailyLoad> {
        (0..56)
            .map(|i| {
                let scale = if i >= 49 { last_week_scale } else { 1.0 };
                DailyLoad { date: d("2026-09-21") + Duration::days(i), load: P[(i % 7) as usize] * scale }
            })
            .collect()
    }

    /// Three runs a week (Mon, Thu, Sat): three weeks of 30 km, then this week's `km` (in 1 : 0.8 :
    /// 1.2 tenths of three).
    fn runs(this_week_km: f64) -> Vec<(NaiveDate, f64)> {
        let mut out = Vec::new();
        for week in 0..4 {
            let monday = d("2026-10-19") + Duration::days(7 * week);
            let total = if week == 3 { this_week_km } else { 30.0 };
            for (offset, share) in [(0, 1.0 / 3.0), (3, 0.8 / 3.0), (5, 1.2 / 3.0)] {
                out.push((monday + Duration::days(offset), total * share));
            }
        }
        out
    }

    fn rested() -> Recovery {
        Recovery {
            hrv_status: Some("BALANCED".to_owned()),
            hrv_last_night_ms: Some(62.0),
            resting_hr: Some(48.0),
            resting_hr_7d: Some(48.0),
            sleep_hours: Some(8.0),
            sleep_need_hours: Some(8.0),
            readiness: Some(72.0),
            health_status_metrics: Some(5),
            health_status_out: Vec::new(),
        }
    }

    fn inputs(last_week_scale: f64, this_week_km: f64, tolerance: Option<(f64, f64)>) -> RiskInputs {
        let date = d("2026-11-15");
        RiskInputs {
            date,
            loads: loads(last_week_scale),
            load_word: "auto".to_owned(),
            load_scale: "tss".to_owned(),
            load_convention: "hrTSS per session".to_owned(),
            tolerance: tolerance.map(|(tol, impact)| ToleranceNow {
                as_of: date,
                weekly_tolerance: Some(tol),
                weekly_impact_load: Some(impact),
                acute_impact_load: Some(impact),
                verdict: Some(if impact > tol { "ABOVE_TOLERANCE" } else { "WITHIN_TOLERANCE" }.to_owned()),
            }),
            running: Some(RunningKm::around(date, &runs(this_week_km))),
            recovery: rested(),
            injuries: Vec::new(),
            weekly_km_cap: None,
        }
    }

    fn reason_of<'a>(risk: &'a InjuryRisk, factor: &str) -> &'a RiskReason {
        risk.reasons.iter().find(|r| r.factor == factor).unwrap_or_else(|| panic!("no {factor}: {risk:#?}"))
    }

    /// The answer's ratios, monotony and ramp are analytics' own on the same loads.
    fn assert_numbers_are_analytics(risk: &InjuryRisk, input: &RiskInputs) {
        let date = input.date;
        let acwr = acute_chronic(&input.loads, Some(date)).unwrap();
        let day = acwr.days.last().unwrap();
        let load = risk.load.as_ref().unwrap();
        assert_eq!(load.acwr_ewma, day.ewma.ratio.map(round2));
        assert_eq!(load.acwr_rolling, day.rolling.and_then(|r| r.ratio).map(round2));
        let pmc = performance_management_until(&input.loads, &PmcConstants::default(), date).unwrap();
        assert_eq!(load.ramp, pmc.days.last().unwrap().ramp.map(round1));
        let week = monotony_strain(&input.loads, Some(date)).unwrap();
        assert_eq!(load.monotony, week.days.last().unwrap().monotony.map(round2));
    }

    #[test]
    fn a_safe_build_week_is_low_with_every_reason_ok_and_a_week_limit_from_the_acwr() {
        // Last week P × 1.1 = 286. Rolling ACWR = 286 / ((3 × 260 + 286) / 4) = 286 / 266.5 = 1.07
        // (productive). Monotony 1.13, strain 286 × 1.1315 = 323.6. Tolerance 300, impact 200 (67 %).
        // Runs: 30 km this week, 90 km in the three weeks before; sleep 8:00 of 8:00, resting HR
        // at its average, HRV balanced, readiness 72: no reason scores, 0 points, low.
        let input = inputs(1.1, 30.0, Some((300.0, 200.0)));
        let risk = assess(&input);
        assert_eq!((risk.verdict.as_str(), risk.points), ("low", 0), "{risk:#?}");
        assert!(risk.reasons.iter().all(|r| r.points == 0 && r.level == "ok"));
        let load = risk.load.as_ref().unwrap();
        assert_eq!(load.acwr_rolling, Some(1.07));
        assert_eq!(load.rolling_band.as_deref(), Some("productive"));
        assert_eq!(load.week_load, 286.0);
        assert_eq!(load.monotony, Some(1.13));
        assert_eq!(load.strain, Some(323.6));
        assert!(load.ramp.unwrap() < FAST_RAMP, "{load:?}");
        assert_numbers_are_analytics(&risk, &input);
        assert!(reason_of(&risk, "running_tolerance").says.contains("200 against a tolerance of 300 (67 %)"));
        // Week limit: tolerance 30 + (300 − 200) / (200 / 30) = 30 + 15 = 45 km; ACWR of distance
        // 1.3 × 90 / 2.7 = 43.3 km: the ACWR is the tighter.
        let limit = risk.week_limit.as_ref().unwrap();
        assert_eq!((limit.km, limit.limited_by.as_str(), limit.km_so_far), (43.3, "acwr", 30.0));
        assert_eq!(limit.bounds[0], LimitBound { by: "running_tolerance".to_owned(), km: 45.0 });
        assert_eq!((limit.week_start.as_str(), limit.week_end.as_str()), ("2026-11-09", "2026-11-15"));
        assert!(
            risk.what_would_change[0].starts_with("Keep this week (2026-11-09 to 2026-11-15) under 43 km")
        );
        assert!(
            risk.what_would_change[0].contains("30.0 km done, 13 km left"),
            "{:?}",
            risk.what_would_change
        );
    }

    #[test]
    fn a_spike_above_tolerance_with_acwr_above_1_5_is_high_with_both_reasons_first() {
        // Last week 2P = 520: rolling ACWR = 520 / ((780 + 520) / 4) = 520 / 325 = 1.60 (high risk,
        // 3 points). Impact 360 against a tolerance of 300 = 120 % (3 points). High.
        let input = inputs(2.0, 54.0, Some((300.0, 360.0)));
        let risk = assess(&input);
        assert_eq!(risk.verdict, "high", "{risk:#?}");
        assert_eq!(risk.load.as_ref().unwrap().acwr_rolling, Some(1.6));
        assert_eq!(risk.load.as_ref().unwrap().rolling_band.as_deref(), Some("high_risk"));
        assert_numbers_are_analytics(&risk, &input);
        let factors: Vec<&str> = risk.reasons.iter().take(2).map(|r| r.factor.as_str()).collect();
        assert_eq!(factors, ["running_tolerance", "acwr"], "mechanical first on a tie");
        assert_eq!(risk.reasons[0].points, 3);
        assert!(
            risk.reasons[0].says.contains("360 against a tolerance of 300 (120 %); Garmin: above tolerance")
        );
        assert_eq!(risk.reasons[1].points, 3);
        // The next 7 days' load that brings the rolling ACWR back to 1.3: the 21 days before them
        // hold 260 + 260 + 520 = 1040, so 1.3 × 1040 / 2.7 = 500.7.
        assert!(
            risk.reasons[1].to_change.as_deref().unwrap().contains("under 501 (tss)"),
            "{:?}",
            risk.reasons[1]
        );
        // 54 km run: tolerance bound 54 + (300 − 360) / (360 / 54) = 54 − 9 = 45; ACWR 43.3; both passed.
        let limit = risk.week_limit.as_ref().unwrap();
        assert_eq!((limit.km, limit.km_so_far), (43.3, 54.0));
        assert_eq!(limit.bounds[0].km, 45.0);
        assert!(risk.what_would_change[0].contains("already reaches 43 km"), "{:?}", risk.what_would_change);
        assert!(risk.what_would_change.iter().any(|c| c.contains("tolerance resets on Monday")));
    }

    #[test]
    fn a_remembered_injury_and_poor_sleep_are_moderate_without_running_tolerance() {
        // The safe week's load, no Running Tolerance (an older watch), a remembered injury (2
        // points) and 5:30 of sleep against a need of 8:00 = 68.75 % < 70 % (2 points): 4 points,
        // no reason at 3 → moderate. The injury ranks before the sleep on the tie (memory before
        // recovery). A remembered cap of 40 km is the week's limit (ACWR 43.3); 30 km < 90 % of 40.
        let mut input = inputs(1.1, 30.0, None);
        input.injuries = vec![r#"injury: "sore left Achilles" (since 2026-11-01)"#.to_owned()];
        input.recovery.sleep_hours = Some(5.5);
        input.weekly_km_cap = Some(40.0);
        let risk = assess(&input);
        assert_eq!((risk.verdict.as_str(), risk.points), ("moderate", 4), "{risk:#?}");
        let scoring: Vec<(&str, u32)> =
            risk.reasons.iter().filter(|r| r.points > 0).map(|r| (r.factor.as_str(), r.points)).collect();
        assert_eq!(scoring, [("injury", 2), ("sleep", 2)]);
        assert!(reason_of(&risk, "sleep").says.contains("slept 5:30 against a need of 8:00 (69 %)"));
        assert!(reason_of(&risk, "injury").says.contains("sore left Achilles"));
        assert_eq!(reason_of(&risk, "volume_cap").points, 0);
        assert!(risk.reasons.iter().all(|r| r.factor != "running_tolerance"), "nothing made up for it");
        let limit = risk.week_limit.as_ref().unwrap();
        assert_eq!((limit.km, limit.limited_by.as_str()), (40.0, "volume_cap"));
        assert!(risk.remembered.iter().any(|r| r == "weekly volume cap: 40 km"));
        assert!(risk.what_would_change.iter().any(|c| c.contains("sleep closer to your need of 8:00")));
    }

    #[test]
    fn health_status_metrics_out_of_their_baseline_rank_as_a_recovery_reason() {
        // The safe week (0 points) with two of the night's five metrics outside the athlete's
        // baseline: Health Status scores 2 → 2 points, moderate, and it is the first reason.
        let mut input = inputs(1.1, 30.0, Some((300.0, 200.0)));
        input.recovery.health_status_out = vec![
            "resting heart rate above baseline (56 bpm, baseline 46–51)".to_owned(),
            "respiration above baseline (16.2 breaths/min, baseline 13.8–15.1)".to_owned(),
        ];
        let risk = assess(&input);
        assert_eq!((risk.verdict.as_str(), risk.points), ("moderate", 2), "{risk:#?}");
        assert_eq!((risk.reasons[0].factor.as_str(), risk.reasons[0].points), ("health_status", 2));
        assert_eq!(
            risk.reasons[0].says,
            "Health Status: resting heart rate above baseline (56 bpm, baseline 46–51); respiration above baseline (16.2 breaths/min, baseline 13.8–15.1)"
        );
        assert!(
            risk.what_would_change
                .iter()
                .any(|c| c == "easy days until Health Status is back within your baseline")
        );
        // One metric out (skin temperature): 1 point, low.
        input.recovery.health_status_out =
            vec!["skin temperature above baseline (0.6 °C change, baseline -0.3–0.3)".to_owned()];
        let risk = assess(&input);
        assert_eq!((risk.verdict.as_str(), risk.points), ("low", 1), "{risk:#?}");
        assert_eq!(reason_of(&risk, "health_status").level, "mild");
        // All five within: ok, 0 points, and said with its count.
        input.recovery.health_status_out.clear();
        let risk = assess(&input);
        assert_eq!(reason_of(&risk, "health_status").points, 0);
        assert_eq!(
            reason_of(&risk, "health_status").says,
            "Health Status: all 5 metrics within your baseline"
        );
        // No Health Status (an older watch): no reason, nothing made up.
        input.recovery.health_status_metrics = None;
        assert!(assess(&input).reasons.iter().all(|r| r.factor != "health_status"));
        // The remembered injury and the poor night (2 + 2 = 4, moderate) with one metric out: 5
        // points → high without any reason at 3; the 1-point Health Status ranks after the 2s.
        let mut input = inputs(1.1, 30.0, None);
        input.injuries = vec![r#"injury: "sore left Achilles" (since 2026-11-01)"#.to_owned()];
        input.recovery.sleep_hours = Some(5.5);
        input.recovery.health_status_out = vec!["hrv below baseline (41 ms, baseline 48–66)".to_owned()];
        let risk = assess(&input);
        assert_eq!((risk.verdict.as_str(), risk.points), ("high", 5), "{risk:#?}");
        let scoring: Vec<(&str, u32)> =
            risk.reasons.iter().filter(|r| r.points > 0).map(|r| (r.factor.as_str(), r.points)).collect();
        assert_eq!(scoring, [("injury", 2), ("sleep", 2), ("health_status", 1)]);
    }

    #[test]
    fn the_verdict_bands_and_the_recovery_thresholds_follow_the_conventions() {
        // A 3 alone is high; 5 points are high; 2 are moderate; 1 is low.
        let mut input = inputs(1.1, 30.0, None);
        input.recovery = Recovery { resting_hr: Some(53.0), resting_hr_7d: Some(48.0), ..rested() };
        let risk = assess(&input);
        assert_eq!((reason_of(&risk, "resting_hr").points, risk.verdict.as_str()), (2, "moderate"));
        input.recovery = Recovery { hrv_status: Some("UNBALANCED".to_owned()), ..rested() };
        assert_eq!(assess(&input).verdict, "low", "1 point is low");
        input.recovery = Recovery {
            hrv_status: Some("LOW".to_owned()),
            readiness: Some(20.0),
            sleep_hours: Some(6.5),
            ..rested()
        };
        // HRV low 2 + readiness under 25 2 + sleep 81 % 1 = 5 → high without any 3.
        let risk = assess(&input);
        assert_eq!((risk.points, risk.verdict.as_str()), (5, "high"), "{risk:#?}");
        // Without loads, runs or recovery: low, and nothing is invented.
        let bare = RiskInputs { date: d("2026-11-15"), ..RiskInputs::default() };
        let risk = assess(&bare);
        assert_eq!((risk.verdict.as_str(), risk.reasons.len()), ("low", 0));
        assert!(risk.load.is_none() && risk.week_limit.is_none());
        // … and the answer says what the verdict was made without.
        let absent = absent_inputs(&bare);
        assert_eq!(absent.len(), 5, "{absent:?}");
        assert!(
            absent[1].starts_with("sleep: no night with a sleep need recorded for 2026-11-15"),
            "{absent:?}"
        );
        assert!(absent_inputs(&inputs(1.1, 30.0, None)).is_empty(), "nothing absent in the golden inputs");
    }

    #[test]
    fn running_km_sums_the_training_week_the_last_7_days_and_the_three_weeks_before() {
        let wed = d("2026-11-11");
        let runs = [
            (d("2026-11-10"), 10.0),
            (d("2026-11-05"), 8.0),
            (d("2026-10-19"), 5.0),
            (d("2026-10-18"), 99.0),
        ];
        let km = RunningKm::around(wed, &runs);
        assert_eq!(km.week_start, d("2026-11-09"));
        assert_eq!((km.week_km, km.last_7_days_km, km.prior_three_weeks_km), (10.0, 18.0, 13.0));
    }

    #[test]
    fn tolerance_weeks_take_each_weeks_last_row_and_band_the_coupled_chronic_load() {
        // Sundays' rows (week loads 100, 200, 300, 400; tolerance 350) and a Wednesday row of the
        // current week (load 50 so far, tolerance 360); two weeks shown, three more read for the band.
        let rows = [
            (d("2026-10-18"), Some(350.0), Some(100.0)),
            (d("2026-10-25"), Some(350.0), Some(200.0)),
            (d("2026-11-01"), Some(350.0), Some(300.0)),
            (d("2026-11-08"), Some(350.0), Some(400.0)),
            (d("2026-11-11"), Some(360.0), Some(50.0)),
        ];
        let weeks = tolerance_weeks(&rows, d("2026-11-11"), 2);
        assert_eq!(weeks.len(), 2);
        // Week of 11-02: load 400, tolerance 350; chronic (100 + 200 + 300 + 400) / 4 = 250,
        // band 0.8 × 250 = 200 to 1.3 × 250 = 325.
        assert_eq!(weeks[0].monday, d("2026-11-02"));
        assert_eq!((weeks[0].load, weeks[0].tolerance), (400.0, Some(350.0)));
        let close = |b: Option<(f64, f64)>, lo: f64, hi: f64| {
            b.is_some_and(|(l, h)| (l - lo).abs() < 1e-9 && (h - hi).abs() < 1e-9)
        };
        assert!(close(weeks[0].band, 200.0, 325.0), "{:?}", weeks[0]);
        // Week of 11-09 so far: 50; chronic (200 + 300 + 400 + 50) / 4 = 237.5 → 190 to 308.75.
        assert_eq!((weeks[1].load, weeks[1].tolerance), (50.0, Some(360.0)));
        assert!(close(weeks[1].band, 190.0, 308.75), "{:?}", weeks[1]);
        // Fewer rows than three weeks back: no band, never zeros made up for the tolerance.
        let short = tolerance_weeks(&rows[3..], d("2026-11-11"), 2);
        assert_eq!(short[0].band, None);
        assert_eq!(short[0].tolerance, Some(350.0));
    }
}
