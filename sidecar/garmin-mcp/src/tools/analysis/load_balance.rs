//! `get_load_balance`: acute:chronic workload ratio both ways, monotony and strain, week by week.

use super::*;

/// A band's key, from the one table of band words (`crate::domain::load::band_words`).
fn band_word(band: Option<analytics::acwr::AcwrBand>) -> Option<String> {
    band.map(|b| crate::domain::load::band_words(b).key.to_owned())
}

fn monotony_word(level: Option<analytics::acwr::MonotonyLevel>) -> Option<String> {
    use analytics::acwr::MonotonyLevel;
    level.map(|l| {
        match l {
            MonotonyLevel::Varied => "varied",
            MonotonyLevel::Warn => "warn",
            MonotonyLevel::High => "high",
        }
        .to_owned()
    })
}

// ---------------------------------------------------------------------------------------------
// get_load_balance

/// Arguments of `get_load_balance`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct LoadBalanceArgs {
    /// First day, `YYYY-MM-DD` (default: 84 days before `end_date`; at most 182 days).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub start_date: Option<Day<arg::StartDate>>,
    /// Last day, `YYYY-MM-DD` (default: yesterday, the last day the history holds).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub end_date: Option<Day<arg::EndDate>>,
    /// Which load per session, as in `get_fitness_trend`: `auto` (default, best available, never
    /// mixed), `garmin`, `hr` or `power`.
    #[serde(default)]
    #[schemars(extend("enum" = ["auto", "garmin", "hr", "power"]))]
    pub load: Option<String>,
}

/// The 7 days ending on `week_end`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct BalanceWeek {
    /// Last day of the week (weeks end on `end_date`).
    pub week_end: String,
    /// The 7 days' load, on `load_scale`.
    pub load: f64,
    /// Rolling ACWR (7-day sum / (28-day sum / 4)); absent before 28 days of data or without chronic load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acwr_rolling: Option<f64>,
    /// Its band: `under`, `productive`, `caution` or `high_risk`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_band: Option<String>,
    /// EWMA ACWR (λ 2/8 acute, 2/29 chronic).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acwr_ewma: Option<f64>,
    /// Its band.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ewma_band: Option<String>,
    /// Foster monotony of the 7 days (capped at 10); absent for a week without load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monotony: Option<f64>,
    /// `varied`, `warn` (≥ 1.5) or `high` (≥ 2.0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monotony_level: Option<String>,
    /// Strain = the week's load × monotony.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strain: Option<f64>,
    /// True within the first 28 days of the history: ratios are rough.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub settling: bool,
}

/// The answer of `get_load_balance`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct LoadBalance {
    /// First day asked.
    pub start_date: String,
    /// Last day asked.
    pub end_date: String,
    /// The load asked for.
    pub load: String,
    /// `tss`, `garmin` or `none` (no session with a load of that kind).
    pub load_scale: String,
    /// What was counted as each day's load.
    pub load_convention: String,
    /// The ACWR convention.
    pub acwr_convention: String,
    /// The monotony and strain convention.
    pub monotony_convention: String,
    /// One line: where the balance stands at the end of the range.
    pub reading: String,
    /// One entry per 7 days ending on `end_date`, oldest first.
    pub weeks: Vec<BalanceWeek>,
    /// What is missing or left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from (absent when the history does not cover the range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

impl GarminMcp {
    /// What `get_load_balance` answers (its description and schema are on the tool router's method).
    pub(super) async fn get_load_balance_answer(
        &self,
        args: LoadBalanceArgs,
    ) -> Result<Answer<LoadBalance>, ToolError> {
        use analytics::acwr::{ACWR_CONVENTION, MONOTONY_CONVENTION, acute_chronic, monotony_strain};
        let (start, end) = weekly_range(self.today(), args.start_date, args.end_date)?;
        let (load_word, choice) = load_choice(args.load.as_deref())?;
        let mut answer = LoadBalance {
            start_date: start.to_string(),
            end_date: end.to_string(),
            load: load_word.clone(),
            load_scale: "none".to_owned(),
            load_convention: String::new(),
            acwr_convention: ACWR_CONVENTION.to_owned(),
            monotony_convention: MONOTONY_CONVENTION.to_owned(),
            reading: String::new(),
            weeks: Vec::new(),
            notes: Vec::new(),
            source: None,
        };
        let covered = match self.covered(start, end).await {
            Ok(c) => c,
            Err(note) => {
                answer.reading = format!("No load balance: {note}.");
                let summary = format!("Load balance {start} to {end}: {note}.");
                answer.notes.push(note);
                return Ok(self.answer(summary, answer));
            }
        };
        let activities = covered
            .history
            .activity_loads(NaiveDate::MIN, end)
            .map_err(|e| ToolError::Local(e.to_string()))?;
        let (loads, notes) = daily_loads_of(self, &activities, choice).await?;
        let acwr = acute_chronic(&loads.days, Some(end)).map_err(|e| ToolError::Local(e.to_string()))?;
        let monotony =
            monotony_strain(&loads.days, Some(end)).map_err(|e| ToolError::Local(e.to_string()))?;
        answer.weeks = balance_weeks(&acwr, &monotony, start, end);
        answer.load_scale = scale_word(loads.scale).to_owned();
        answer.load_convention = loads.convention.clone();
        answer.reading = balance_reading(&answer.weeks, end, &load_word);
        answer.notes.extend(covered.notes);
        answer.notes.extend(notes);
        let summary = format!(
            "Load balance {start} to {end} ({}): {} Conventions: {ACWR_CONVENTION}. {MONOTONY_CONVENTION}. {}",
            loads.convention,
            answer.reading,
            covered.source.phrase()
        );
        answer.source = Some(covered.source);
        Ok(self.answer(summary, answer))
    }
}

/// One row per week ending on `end`, `end - 7`, … back to `start`, oldest first, where either
/// series has a value.
fn balance_weeks(
    acwr: &analytics::acwr::AcwrSeries,
    monotony: &analytics::acwr::MonotonySeries,
    start: NaiveDate,
    end: NaiveDate,
) -> Vec<BalanceWeek> {
    let mut weeks = Vec::new();
    let mut week_end = end;
    while week_end >= start {
        let a = acwr.days.iter().find(|d| d.date == week_end);
        let m = monotony.days.iter().find(|d| d.date == week_end);
        if a.is_some() || m.is_some() {
            weeks.push(BalanceWeek {
                week_end: week_end.to_string(),
                load: round1(m.map_or_else(
                    || a.map_or(0.0, |a| a.rolling.map_or(0.0, |r| r.acute)),
                    |m| m.weekly_load,
                )),
                acwr_rolling: a.and_then(|a| a.rolling).and_then(|r| r.ratio).map(round2),
                rolling_band: band_word(a.and_then(|a| a.rolling).and_then(|r| r.band)),
                acwr_ewma: a.and_then(|a| a.ewma.ratio).map(round2),
                ewma_band: band_word(a.and_then(|a| a.ewma.band)),
                monotony: m.and_then(|m| m.monotony).map(round2),
                monotony_level: monotony_word(m.and_then(|m| m.level)),
                strain: m.and_then(|m| m.strain).map(round1),
                settling: a.is_some_and(|a| a.settling),
            });
        }
        week_end -= Duration::days(7);
    }
    weeks.reverse();
    weeks
}

/// One line on the last week: its load, both ratios with their bands, monotony and strain.
fn balance_reading(weeks: &[BalanceWeek], end: NaiveDate, load_word: &str) -> String {
    match weeks.last() {
        None => format!("No session with a {load_word} load up to {end} in the history."),
        Some(w) => {
            let ratio = |r: Option<f64>, b: &Option<String>| match (r, b) {
                (Some(r), Some(b)) => format!("{r:.2} ({})", b.replace('_', " ")),
                _ => "n/a".to_owned(),
            };
            let mut line = format!(
                "Week to {}: load {:.0}, ACWR rolling {} / EWMA {}, monotony {}{}.",
                w.week_end,
                w.load,
                ratio(w.acwr_rolling, &w.rolling_band),
                ratio(w.acwr_ewma, &w.ewma_band),
                w.monotony.map_or("n/a".to_owned(), |m| format!("{m:.2}")),
                w.strain.map(|s| format!(", strain {s:.0}")).unwrap_or_default()
            );
            if w.settling {
                line.push_str(" The first 28 days of the history are settling: read the ratios as rough.");
            }
            line
        }
    }
}
