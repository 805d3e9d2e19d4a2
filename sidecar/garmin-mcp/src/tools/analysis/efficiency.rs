//! `get_efficiency_trend`: efficiency factor per activity and by month, decoupling, speed at a
//! heart rate.

use super::*;

/// Arguments of `get_efficiency_trend`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct EfficiencyArgs {
    /// First day, `YYYY-MM-DD` (default: 182 days before `end_date`; at most 366 days).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub start_date: Option<Day<arg::StartDate>>,
    /// Last day, `YYYY-MM-DD` (default: yesterday).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub end_date: Option<Day<arg::EndDate>>,
    /// `running` (default: EF from speed, and speed at a heart rate per month) or `cycling` (EF
    /// from Garmin's normalized power).
    #[serde(default)]
    #[schemars(extend("enum" = ["running", "cycling"]))]
    pub sport: Option<String>,
    /// Heart rate for the monthly speed at a heart rate, bpm (running; default: the median
    /// average heart rate of the runs in the range).
    #[serde(default)]
    #[schemars(range(min = 60, max = 230))]
    pub heart_rate: Option<u32>,
}

/// One activity's efficiency.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ActivityEfficiency {
    /// The day.
    pub date: String,
    /// Garmin's id.
    pub activity_id: u64,
    /// EF in `unit`.
    pub ef: f64,
    /// Output used: mean speed (m/min) or NP (W).
    pub output: f64,
    /// Average heart rate, bpm.
    pub avg_hr: f64,
    /// Passed the steadiness test (≥ 20 min, lap-to-lap variation within the limit).
    pub steady: bool,
    /// Aerobic decoupling, percent (steady efforts only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decoupling_percent: Option<f64>,
}

/// One month's efficiency.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct MonthEfficiency {
    /// `YYYY-MM`.
    pub month: String,
    /// Activities with an EF.
    pub activities: usize,
    /// Duration-weighted mean EF.
    pub ef: f64,
    /// Speed at the heart rate asked (running), min/km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_at_hr: Option<String>,
    /// Runs within ±5 bpm of that heart rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs_at_hr: Option<usize>,
}

/// The answer of `get_efficiency_trend`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct EfficiencyTrend {
    /// First day asked.
    pub start_date: String,
    /// Last day asked.
    pub end_date: String,
    /// `running` or `cycling`.
    pub sport: String,
    /// EF unit: `(m/min)/bpm` or `W/bpm`.
    pub unit: String,
    /// The heart rate of `pace_at_hr` (running).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heart_rate: Option<f64>,
    /// The EF and decoupling convention.
    pub convention: String,
    /// How the history's data were used (laps, not seconds).
    pub method: String,
    /// The speed-at-heart-rate convention (running).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_convention: Option<String>,
    /// One line on the trend.
    pub reading: String,
    /// One entry per month with an EF, oldest first.
    pub months: Vec<MonthEfficiency>,
    /// The newest activities (at most 25), newest first.
    pub activities: Vec<ActivityEfficiency>,
    /// Activities with an EF in the range.
    pub activities_total: usize,
    /// What is missing or left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from (absent when the history does not cover the range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

/// How `get_efficiency_trend` uses the history.
pub const EFFICIENCY_METHOD: &str = "the history keeps lap averages, not second-by-second series: each activity is laid out \
     second by second at its laps' average speed (or power) and heart rate (one lap from the summary when there are none), \
     halves split by time; the steadiness test then measures lap-to-lap variation; cycling EF uses Garmin's normalized power";

/// `m/s` as `m:ss/km` (the `display` crate's clock style); `None` for a standstill or bad input.
fn pace(speed_mps: f64) -> Option<String> {
    (speed_mps.is_finite() && speed_mps > 0.0)
        .then(|| format!("{}/km", display::pace(1000.0 / speed_mps, display::PaceStyle::Colon)))
}

impl GarminMcp {
    /// What `get_efficiency_trend` answers (its description and schema are on the tool router's method).
    pub(super) async fn get_efficiency_trend_answer(
        &self,
        args: EfficiencyArgs,
    ) -> Result<Answer<EfficiencyTrend>, ToolError> {
        use analytics::efficiency::{EFFICIENCY_CONVENTION, SPEED_AT_HR_CONVENTION};
        let (start, end) = date_range(
            self.today(),
            ("start_date", day_of(args.start_date)),
            ("end_date", day_of(args.end_date)),
            182,
            PERIOD_MAX_DAYS,
        )?;
        let sport = efficiency_sport(&args)?;
        let power = sport == "cycling";
        let mut answer = EfficiencyTrend {
            start_date: start.to_string(),
            end_date: end.to_string(),
            sport: sport.clone(),
            unit: if power { "W/bpm" } else { "(m/min)/bpm" }.to_owned(),
            heart_rate: None,
            convention: EFFICIENCY_CONVENTION.to_owned(),
            method: EFFICIENCY_METHOD.to_owned(),
            pace_convention: (!power).then(|| SPEED_AT_HR_CONVENTION.to_owned()),
            reading: String::new(),
            months: Vec::new(),
            activities: Vec::new(),
            activities_total: 0,
            notes: Vec::new(),
            source: None,
        };
        let covered = match self.covered(start, end).await {
            Ok(c) => c,
            Err(note) => {
                answer.reading = format!("No efficiency trend: {note}.");
                let summary = format!("Efficiency trend {start} to {end}: {note}.");
                answer.notes.push(note);
                return Ok(self.answer(summary, answer));
            }
        };
        let rows = covered.history.activity_laps(start, end).map_err(|e| ToolError::Local(e.to_string()))?;
        shape_efficiency(&mut answer, measure(&rows, &sport), args.heart_rate);
        answer.notes.extend(covered.notes);
        let summary = format!(
            "Efficiency trend ({sport}) {start} to {end}: {} Convention: {EFFICIENCY_CONVENTION}. Method: {EFFICIENCY_METHOD}. {}",
            answer.reading,
            covered.source.phrase()
        );
        answer.source = Some(covered.source);
        Ok(self.answer(summary, answer))
    }
}

/// The sport asked (`running` by default, or `cycling`), with the heart rate asked checked.
fn efficiency_sport(args: &EfficiencyArgs) -> Result<String, ToolError> {
    let sport =
        args.sport.as_deref().map(str::trim).filter(|s| !s.is_empty()).unwrap_or("running").to_lowercase();
    if sport != "running" && sport != "cycling" {
        return Err(ToolError::invalid(format!("sport must be running or cycling, got `{sport}`")));
    }
    if let Some(bpm) = args.heart_rate
        && !(60..=230).contains(&bpm)
    {
        return Err(ToolError::invalid(format!("heart_rate must be 60 to 230 bpm, got {bpm}")));
    }
    Ok(sport)
}

/// Each activity's efficiency, grouped by month, with the runs' speed and heart rate.
#[derive(Default)]
struct Measured {
    sport: String,
    power: bool,
    per_activity: Vec<ActivityEfficiency>,
    by_month: std::collections::BTreeMap<String, Vec<analytics::compare::ActivityFacts>>,
    speeds: Vec<analytics::efficiency::SpeedAndHr>,
    left_out: usize,
}

/// The activities of `sport` among `rows`, measured: EF (rides: Garmin's NP over the whole ride;
/// runs: the lap-laid speed), steadiness and decoupling; those without the data are counted out.
fn measure(rows: &[ActivityLaps], sport: &str) -> Measured {
    use analytics::efficiency::{Effort, OutputKind, decoupling, steadiness};
    let power = sport == "cycling";
    let mut m = Measured { sport: sport.to_owned(), power, ..Measured::default() };
    for row in rows.iter().filter(|r| of_sport(r, sport)) {
        let (lap_output, lap_hr) = lap_series(row, power);
        let Some(ef) = activity_ef(row, power, &lap_output, &lap_hr) else {
            m.left_out += 1;
            continue;
        };
        let effort = Effort {
            kind: if power { OutputKind::Power } else { OutputKind::Speed },
            output: &lap_output,
            heart_rate: &lap_hr,
            grade: None,
        };
        let steady = steadiness(&effort).steady;
        let decoupled =
            if steady { decoupling(&effort).ok().map(|d| round1(d.decoupling_percent)) } else { None };
        m.add(row, &ef, steady, decoupled);
    }
    m
}

/// One activity's efficiency factor: a ride's from Garmin's normalized power held over its
/// duration, a run's from its lap-laid speed and heart rate; `None` without the data.
fn activity_ef(
    row: &ActivityLaps,
    power: bool,
    lap_output: &[f64],
    lap_hr: &[f64],
) -> Option<analytics::efficiency::Efficiency> {
    use analytics::efficiency::{Effort, OutputKind, efficiency};
    if power {
        let (Some(np), Some(hr), Some(t)) = (row.norm_power, row.avg_hr, row.duration_s) else {
            return None;
        };
        let n = t.max(0.0).round().min(86_400.0) as usize;
        let output = vec![np; n];
        let hr = vec![hr; n];
        efficiency(&Effort { kind: OutputKind::Power, output: &output, heart_rate: &hr, grade: None }).ok()
    } else {
        efficiency(&Effort { kind: OutputKind::Speed, output: lap_output, heart_rate: lap_hr, grade: None })
            .ok()
    }
}

impl Measured {
    /// Counts one measured activity: in its month, among the runs' speeds, and as a row.
    fn add(
        &mut self,
        row: &ActivityLaps,
        ef: &analytics::efficiency::Efficiency,
        steady: bool,
        decoupled: Option<f64>,
    ) {
        self.by_month.entry(format!("{:04}-{:02}", row.date.year(), row.date.month())).or_default().push(
            analytics::compare::ActivityFacts {
                duration_s: row.duration_s.unwrap_or(0.0),
                ef: Some(ef.ef),
                ..Default::default()
            },
        );
        if !self.power {
            self.speeds.push(analytics::efficiency::SpeedAndHr {
                date: row.date,
                speed_mps: ef.output / 60.0,
                average_hr: ef.average_hr,
            });
        }
        self.per_activity.push(ActivityEfficiency {
            date: row.date.to_string(),
            activity_id: row.activity_id,
            ef: round3(ef.ef),
            output: round1(ef.output),
            avg_hr: round1(ef.average_hr),
            steady,
            decoupling_percent: decoupled,
        });
    }
}

/// Per month (`YYYY-MM`): the pace at the heart rate and the runs it was measured on.
type PaceMonths = std::collections::BTreeMap<String, (Option<String>, usize)>;

/// Speed at a heart rate per month (running): at the asked heart rate, else the median of the
/// runs' averages; the heart rate used and, per month, the pace and the runs counted.
fn pace_by_month(
    speeds: &[analytics::efficiency::SpeedAndHr],
    asked: Option<u32>,
) -> (Option<f64>, PaceMonths) {
    let mut months = std::collections::BTreeMap::new();
    if speeds.is_empty() {
        return (None, months);
    }
    let target = match asked {
        Some(bpm) => f64::from(bpm),
        None => {
            let mut hrs: Vec<f64> = speeds.iter().map(|s| s.average_hr).collect();
            hrs.sort_by(f64::total_cmp);
            hrs[hrs.len() / 2].round()
        }
    };
    if let Ok(at) = analytics::efficiency::speed_at_heart_rate(speeds, target, HR_TOLERANCE_BPM) {
        for m in at.months {
            months.insert(m.month.clone(), (pace(m.speed_mps), m.activities));
        }
    }
    (Some(target), months)
}

/// The answer's months, activities and reading from what was measured.
fn shape_efficiency(answer: &mut EfficiencyTrend, measured: Measured, heart_rate: Option<u32>) {
    let Measured { sport, power, mut per_activity, by_month, speeds, left_out } = measured;
    if left_out > 0 {
        answer.notes.push(format!(
            "{left_out} {sport} activit{} without heart rate or {} left out",
            if left_out == 1 { "y" } else { "ies" },
            if power { "normalized power" } else { "speed" }
        ));
    }
    answer.activities_total = per_activity.len();
    let (target, pace_months) =
        if power { (None, Default::default()) } else { pace_by_month(&speeds, heart_rate) };
    answer.heart_rate = target;
    for (month, facts) in &by_month {
        let totals = analytics::compare::PeriodTotals::from_activities(facts);
        let Some(ef) = totals.efficiency else { continue };
        let at = pace_months.get(month);
        answer.months.push(MonthEfficiency {
            month: month.clone(),
            activities: totals.activities,
            ef: round3(ef),
            pace_at_hr: at.and_then(|(p, _)| p.clone()),
            runs_at_hr: (!power).then(|| at.map_or(0, |(_, n)| *n)),
        });
    }
    per_activity.reverse();
    per_activity.truncate(EFFICIENCY_LISTED);
    answer.activities = per_activity;
    answer.reading = efficiency_reading(answer, &sport, power);
}

/// One line: the mean EF of the last month against the first (and the pace at the heart rate),
/// then the latest steady effort's decoupling.
fn efficiency_reading(answer: &EfficiencyTrend, sport: &str, power: bool) -> String {
    let mut reading = match (answer.months.first(), answer.months.last()) {
        (Some(first), Some(last)) if answer.months.len() > 1 => {
            let mut line = format!(
                "Mean EF {:.3} in {} against {:.3} in {} ({:+.1} %)",
                last.ef,
                last.month,
                first.ef,
                first.month,
                100.0 * (last.ef - first.ef) / first.ef
            );
            if let (Some(hr), Some(a), Some(b)) = (answer.heart_rate, &first.pace_at_hr, &last.pace_at_hr) {
                line.push_str(&format!("; pace at {hr:.0} bpm {b} against {a}"));
            }
            line.push('.');
            line
        }
        (Some(only), _) => {
            format!("Mean EF {:.3} in {} ({} activities).", only.ef, only.month, only.activities)
        }
        _ => format!(
            "No {sport} activity with heart rate and {} in the range.",
            if power { "power" } else { "speed" }
        ),
    };
    let decoupled = answer.activities.iter().filter(|a| a.decoupling_percent.is_some()).count();
    if let Some((date, d)) =
        answer.activities.iter().find_map(|a| a.decoupling_percent.map(|d| (a.date.clone(), d)))
    {
        reading.push_str(&format!(
            " Latest steady effort ({date}) decoupled {d:.1} % ({}); {decoupled} of the listed efforts were steady enough to measure.",
            if d < analytics::efficiency::GOOD_DECOUPLING_PERCENT { "good" } else { "heart rate drifted" },
        ));
    }
    reading
}
