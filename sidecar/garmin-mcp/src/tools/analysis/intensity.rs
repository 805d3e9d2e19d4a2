//! `get_intensity_distribution`: weekly time in heart-rate zones and the polarization index; and
//! the `render_chart` kind `intensity` drawn from the same sums.

use super::*;

/// Arguments of `get_intensity_distribution`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct IntensityArgs {
    /// First day, `YYYY-MM-DD` (default: 84 days before `end_date`; at most 182 days).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub start_date: Option<Day<arg::StartDate>>,
    /// Last day, `YYYY-MM-DD` (default: yesterday).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub end_date: Option<Day<arg::EndDate>>,
}

/// Time in heart-rate zones over some days.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ZoneWeek {
    /// Monday of the week (the period's first day for the whole-period entry).
    pub from: String,
    /// Activities with zone times.
    pub activities: usize,
    /// Minutes in heart-rate zones 1–5.
    pub zone_minutes: Vec<f64>,
    /// Percent of the zone time in zones 1–2.
    pub low_share_percent: f64,
    /// Treff polarization index; absent when undefined (see `pi_note`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polarization_index: Option<f64>,
    /// PI > 2.0.
    pub polarized: bool,
    /// Why the index is undefined or floored.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub pi_note: String,
}

/// The answer of `get_intensity_distribution`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct IntensityDistribution {
    /// First day asked.
    pub start_date: String,
    /// Last day asked.
    pub end_date: String,
    /// The zone convention.
    pub zone_convention: String,
    /// The polarization index convention (with its edge cases).
    pub pi_convention: String,
    /// One line on the whole period.
    pub reading: String,
    /// The whole period.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<ZoneWeek>,
    /// One entry per calendar week (Monday to Sunday) touching the range, oldest first.
    pub weeks: Vec<ZoneWeek>,
    /// Activities in the range without stored zone times.
    pub activities_without_zones: usize,
    /// What is missing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from (absent when the history does not cover the range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

/// Seconds in zones 1–5 per calendar week (Monday first) from `start`'s week to `end`, the whole
/// range's, and the activities without zone times.
type WeekZones = (NaiveDate, usize, [f64; 5]);
fn weekly_zones(
    activities: &[ActivityLoad],
    start: NaiveDate,
    end: NaiveDate,
) -> (Vec<WeekZones>, (usize, [f64; 5]), usize) {
    let monday = crate::domain::dates::monday_of;
    let mut weeks: std::collections::BTreeMap<NaiveDate, (usize, [f64; 5])> = Default::default();
    let mut total = (0usize, [0.0f64; 5]);
    let mut without = 0;
    for a in activities {
        let Some(zones) = five_zones(a) else {
            without += 1;
            continue;
        };
        let week = weeks.entry(monday(a.date)).or_default();
        week.0 += 1;
        total.0 += 1;
        for (i, seconds) in zones.iter().enumerate() {
            week.1[i] += seconds;
            total.1[i] += seconds;
        }
    }
    let mut out = Vec::new();
    let mut week = monday(start);
    while week <= end {
        let (count, seconds) = weeks.get(&week).copied().unwrap_or_default();
        out.push((week, count, seconds));
        week += Duration::days(7);
    }
    (out, total, without)
}

fn zone_week(from: NaiveDate, activities: usize, seconds: [f64; 5]) -> ZoneWeek {
    use analytics::intensity::{polarization_index, three_zones_from_five, zone_distribution};
    let dist = zone_distribution(&seconds, 2);
    let pi = polarization_index(three_zones_from_five(seconds));
    ZoneWeek {
        from: from.to_string(),
        activities,
        zone_minutes: dist.seconds.iter().map(|s| round1(s / 60.0)).collect(),
        low_share_percent: round1(dist.low_share * 100.0),
        polarization_index: pi.value.map(round2),
        polarized: pi.polarized,
        pi_note: pi.note.to_owned(),
    }
}

impl GarminMcp {
    /// What `get_intensity_distribution` answers (its description and schema are on the tool router's method).
    pub(super) async fn get_intensity_distribution_answer(
        &self,
        args: IntensityArgs,
    ) -> Result<Answer<IntensityDistribution>, ToolError> {
        use analytics::intensity::{PI_CONVENTION, ZONE_CONVENTION};
        let (start, end) = weekly_range(self.today(), args.start_date, args.end_date)?;
        let mut answer = IntensityDistribution {
            start_date: start.to_string(),
            end_date: end.to_string(),
            zone_convention: ZONE_CONVENTION.to_owned(),
            pi_convention: PI_CONVENTION.to_owned(),
            reading: String::new(),
            period: None,
            weeks: Vec::new(),
            activities_without_zones: 0,
            notes: Vec::new(),
            source: None,
        };
        let covered = match self.covered(start, end).await {
            Ok(c) => c,
            Err(note) => {
                answer.reading = format!("No intensity distribution: {note}.");
                let summary = format!("Intensity distribution {start} to {end}: {note}.");
                answer.notes.push(note);
                return Ok(self.answer(summary, answer));
            }
        };
        let activities =
            covered.history.activity_loads(start, end).map_err(|e| ToolError::Local(e.to_string()))?;
        let (weeks, total, without) = weekly_zones(&activities, start, end);
        answer.activities_without_zones = without;
        answer.weeks = weeks.iter().map(|&(week, count, seconds)| zone_week(week, count, seconds)).collect();
        let period = zone_week(start, total.0, total.1);
        answer.reading = zones_reading(&period, total.0);
        answer.period = Some(period);
        answer.notes.extend(covered.notes);
        let summary = format!(
            "Intensity distribution {start} to {end}, {} weeks: {} Conventions: {ZONE_CONVENTION}. {PI_CONVENTION}. {}",
            answer.weeks.len(),
            answer.reading,
            covered.source.phrase()
        );
        answer.source = Some(covered.source);
        Ok(self.answer(summary, answer))
    }
}

impl GarminMcp {
    /// `render_chart` kind `intensity`: the `weeks` calendar weeks ending with `end`'s week, time
    /// in heart-rate zones from the local history (the same sums as `get_intensity_distribution`).
    pub(crate) async fn intensity_chart(
        &self,
        end: NaiveDate,
        weeks: u32,
        options: garmin_charts::ChartOptions,
    ) -> Result<crate::drawing::Drawn, ToolError> {
        use analytics::intensity::{PI_CONVENTION, ZONE_CONVENTION};
        let start = crate::domain::dates::monday_of(end) - Duration::days(7 * (i64::from(weeks) - 1));
        let covered = self
            .covered(start, end)
            .await
            .map_err(|note| ToolError::NoData(format!("No intensity chart: {note}.")))?;
        let activities =
            covered.history.activity_loads(start, end).map_err(|e| ToolError::Local(e.to_string()))?;
        let (weekly, total, _) = weekly_zones(&activities, start, end);
        if total.0 == 0 {
            return Err(ToolError::NoData(format!(
                "No activity with heart-rate zone times from {start} to {end} in the local history."
            )));
        }
        let period = zone_week(start, total.0, total.1);
        let chart = garmin_charts::IntensityChart {
            weeks: weekly
                .iter()
                .map(|(week, _, seconds)| garmin_charts::IntensityWeek {
                    label: week.to_string(),
                    zone_seconds: seconds.to_vec(),
                })
                .collect(),
            low_zones: 2,
        };
        let png = crate::drawing::draw_off_thread("the intensity distribution", move || {
            garmin_charts::intensity(&chart, &options)
        })
        .await?;
        let period_text = crate::drawing::span(start, end);
        let summary = format!(
            "Weekly intensity distribution {period_text} ({} activities): {:.0} % of the zone time in zones 1–2, polarization index {}. Conventions: {ZONE_CONVENTION}. {PI_CONVENTION}. {}",
            total.0,
            period.low_share_percent,
            period.polarization_index.map_or("undefined".to_owned(), |p| format!("{p:.2}")),
            covered.source.phrase()
        );
        Ok(crate::drawing::Drawn {
            png,
            summary,
            title: format!("Intensity distribution, {period_text}"),
            file_parts: vec![end.to_string(), format!("intensity-{weeks}w")],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(total.0).unwrap_or(u32::MAX)),
        })
    }
}

/// One line on the whole range: the low-zone share, the polarization index and its verdict.
fn zones_reading(period: &ZoneWeek, activities: usize) -> String {
    if activities == 0 {
        "No activity with heart-rate zone times in the range.".to_owned()
    } else {
        format!(
            "{:.0} % of the zone time in zones 1–2 over {} activities; polarization index {}{}.",
            period.low_share_percent,
            activities,
            period.polarization_index.map_or("undefined".to_owned(), |p| format!("{p:.2}")),
            if period.polarized {
                " (polarised)".to_owned()
            } else if period.pi_note.is_empty() {
                " (not polarised)".to_owned()
            } else {
                format!(" ({})", period.pi_note)
            }
        )
    }
}
