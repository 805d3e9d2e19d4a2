//! `compare_periods`: two date ranges side by side (volume, load, intensity, efficiency).

use super::*;

/// Arguments of `compare_periods`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct ComparePeriodsArgs {
    /// First (reference) period's first day, `YYYY-MM-DD` (default: as long before `first_end` as the second period lasts).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub first_start: Option<Day<arg::FirstStart>>,
    /// First period's last day (default: the day before `second_start`).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub first_end: Option<Day<arg::FirstEnd>>,
    /// Second period's first day (default: 27 days before `second_end`).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub second_start: Option<Day<arg::SecondStart>>,
    /// Second period's last day (default: yesterday). Each period at most 366 days.
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub second_end: Option<Day<arg::SecondEnd>>,
    /// Which load per session: `auto` (default), `garmin`, `hr` or `power`; one scale for both periods.
    #[serde(default)]
    #[schemars(extend("enum" = ["auto", "garmin", "hr", "power"]))]
    pub load: Option<String>,
}

/// One period's totals.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PeriodSide {
    /// First day.
    pub from: String,
    /// Last day.
    pub to: String,
    /// Activities.
    pub activities: usize,
    /// Total timer time, hours.
    pub hours: f64,
    /// Total distance, km.
    pub distance_km: f64,
    /// Total load, on `load_scale`.
    pub load: f64,
    /// Percent of heart-rate zone time in zones 1–2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_intensity_percent: Option<f64>,
    /// Duration-weighted mean EF of the runs, (m/min)/bpm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_efficiency: Option<f64>,
}

/// A change, second minus first.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PeriodChange {
    /// Difference (in the side's unit; percentage points for the low-intensity share).
    pub difference: f64,
    /// Percent of the first; absent when the first is 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent: Option<f64>,
}

/// The changes from the first period to the second.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PeriodChanges {
    /// Activities.
    pub activities: PeriodChange,
    /// Hours.
    pub hours: PeriodChange,
    /// Kilometres.
    pub distance_km: PeriodChange,
    /// Load.
    pub load: PeriodChange,
    /// Low-intensity share, percentage points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_intensity_points: Option<f64>,
    /// Run efficiency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_efficiency: Option<PeriodChange>,
}

/// The answer of `compare_periods`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PeriodComparisonAnswer {
    /// The first (reference) period.
    pub first: PeriodSide,
    /// The second period.
    pub second: PeriodSide,
    /// Second minus first.
    pub change: PeriodChanges,
    /// The load asked for.
    pub load: String,
    /// `tss`, `garmin` or `none`.
    pub load_scale: String,
    /// What was counted as load.
    pub load_convention: String,
    /// The comparison convention.
    pub convention: String,
    /// One line on what changed.
    pub reading: String,
    /// What is missing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from (absent when the history does not cover the periods).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

fn change(c: analytics::compare::Delta, scale: f64) -> PeriodChange {
    PeriodChange { difference: round2(c.difference * scale), percent: c.percent.map(round1) }
}

impl GarminMcp {
    /// What `compare_periods` answers (its description and schema are on the tool router's method).
    pub(super) async fn compare_periods_answer(
        &self,
        args: ComparePeriodsArgs,
    ) -> Result<Answer<PeriodComparisonAnswer>, ToolError> {
        use analytics::compare::{COMPARE_CONVENTION, compare_periods};
        let periods = compared_ranges(self.today(), &args)?;
        let (load_word, choice) = load_choice(args.load.as_deref())?;
        let Compared { totals, scale, load_convention, notes, source } =
            self.compared(periods, choice).await?;
        let cmp = compare_periods(&totals[0], &totals[1], None);
        let first = side(periods[0], &cmp.first);
        let second = side(periods[1], &cmp.second);
        let changes = changes_of(&cmp);
        let reading = if source.is_none() {
            format!("No comparison: {}.", notes.join("; "))
        } else {
            comparison_reading(periods, &second, &changes)
        };
        let summary = format!(
            "Period comparison: {reading} Convention: {COMPARE_CONVENTION}; load: {}. {}",
            if load_convention.is_empty() { "none" } else { &load_convention },
            source.as_ref().map_or(String::new(), DataSource::phrase)
        );
        Ok(self.answer(
            summary.trim_end().to_owned(),
            PeriodComparisonAnswer {
                first,
                second,
                change: changes,
                load: load_word,
                load_scale: scale_word(scale).to_owned(),
                load_convention,
                convention: COMPARE_CONVENTION.to_owned(),
                reading,
                notes,
                source,
            },
        ))
    }

    /// Both periods' totals from the history, the load on one scale over both; when the history
    /// does not cover them, empty totals and the notes saying why.
    async fn compared(
        &self,
        periods: [(NaiveDate, NaiveDate); 2],
        choice: analytics::load::LoadChoice,
    ) -> Result<Compared, ToolError> {
        use analytics::compare::PeriodTotals;
        let mut compared = Compared::default();
        let mut missing = Vec::new();
        let mut covers = Vec::new();
        for (from, to) in periods {
            match self.covered(from, to).await {
                Ok(c) => covers.push(c),
                Err(note) => missing.push(note),
            }
        }
        if !missing.is_empty() {
            compared.notes = missing;
            return Ok(compared);
        }
        let history = covers[0].history.clone();
        let local = |e: ::history::HistoryError| ToolError::Local(e.to_string());
        let loads_all = [
            history.activity_loads(periods[0].0, periods[0].1).map_err(local)?,
            history.activity_loads(periods[1].0, periods[1].1).map_err(local)?,
        ];
        let both: Vec<ActivityLoad> = loads_all.iter().flatten().cloned().collect();
        let (daily, load_notes) = daily_loads_of(self, &both, choice).await?;
        compared.notes.extend(load_notes);
        compared.scale = daily.scale;
        compared.load_convention = daily.convention.clone();
        for (i, (from, to)) in periods.into_iter().enumerate() {
            let laps = history.activity_laps(from, to).map_err(local)?;
            let facts: Vec<_> = loads_all[i].iter().map(|a| activity_facts(a, &laps)).collect();
            let mut totals = PeriodTotals::from_activities(&facts);
            // The load on the one scale chosen over both periods.
            totals.load = daily.days.iter().filter(|d| d.date >= from && d.date <= to).map(|d| d.load).sum();
            compared.totals[i] = totals;
        }
        for c in &covers {
            compared.notes.extend(c.notes.iter().cloned());
        }
        compared.source = covers.pop().map(|c| c.source);
        Ok(compared)
    }
}

/// What the history gave for both periods.
#[derive(Default)]
struct Compared {
    totals: [analytics::compare::PeriodTotals; 2],
    scale: Option<analytics::load::LoadScale>,
    load_convention: String,
    notes: Vec<String>,
    source: Option<DataSource>,
}

/// The two periods asked: the second defaults to the 28 days ending yesterday, the first to as
/// many days ending the day before the second; each at most [`PERIOD_MAX_DAYS`].
fn compared_ranges(
    today: NaiveDate,
    args: &ComparePeriodsArgs,
) -> Result<[(NaiveDate, NaiveDate); 2], ToolError> {
    let second = date_range(
        today,
        ("second_start", day_of(args.second_start)),
        ("second_end", day_of(args.second_end)),
        28,
        PERIOD_MAX_DAYS,
    )?;
    let first_end = day_of(args.first_end).unwrap_or(second.0 - Duration::days(1));
    let length = (second.1 - second.0).num_days() + 1;
    let first_start = day_of(args.first_start).unwrap_or(first_end - Duration::days(length - 1));
    let first = date_range(
        today,
        ("first_start", Some(first_start)),
        ("first_end", Some(first_end)),
        length,
        PERIOD_MAX_DAYS,
    )?;
    Ok([first, second])
}

/// One activity's facts for the totals: time, distance, low-zone and zone time, and a run's EF
/// from its laps.
fn activity_facts(a: &ActivityLoad, laps: &[ActivityLaps]) -> analytics::compare::ActivityFacts {
    let row = laps.iter().find(|l| l.activity_id == a.activity_id);
    let zones = five_zones(a);
    let ef = row.filter(|r| of_sport(r, "running")).and_then(|r| {
        let (output, hr) = lap_series(r, false);
        analytics::efficiency::efficiency(&analytics::efficiency::Effort {
            kind: analytics::efficiency::OutputKind::Speed,
            output: &output,
            heart_rate: &hr,
            grade: None,
        })
        .ok()
        .map(|e| e.ef)
    });
    analytics::compare::ActivityFacts {
        duration_s: a.duration_s.unwrap_or(0.0),
        distance_m: row.and_then(|r| r.distance_m).unwrap_or(0.0),
        load: None,
        low_zone_s: zones.map(|z| z[0] + z[1]),
        zone_s: zones.map(|z| z.iter().sum()),
        ef,
    }
}

/// One side of the answer.
fn side((from, to): (NaiveDate, NaiveDate), t: &analytics::compare::PeriodTotals) -> PeriodSide {
    PeriodSide {
        from: from.to_string(),
        to: to.to_string(),
        activities: t.activities,
        hours: round2(t.duration_s / 3600.0),
        distance_km: round2(t.distance_m / 1000.0),
        load: round1(t.load),
        low_intensity_percent: t.low_intensity_share.map(|s| round1(s * 100.0)),
        run_efficiency: t.efficiency.map(round3),
    }
}

/// The changes from the first period to the second, in the answer's units.
fn changes_of(cmp: &analytics::compare::PeriodComparison) -> PeriodChanges {
    PeriodChanges {
        activities: change(cmp.activities, 1.0),
        hours: change(cmp.duration_s, 1.0 / 3600.0),
        distance_km: change(cmp.distance_m, 1.0 / 1000.0),
        load: change(cmp.load, 1.0),
        low_intensity_points: cmp.low_intensity_share_points.map(round1),
        run_efficiency: cmp
            .efficiency
            .map(|c| PeriodChange { difference: round3(c.difference), percent: c.percent.map(round1) }),
    }
}

/// One line: the second period's numbers with their change from the first.
fn comparison_reading(
    periods: [(NaiveDate, NaiveDate); 2],
    second: &PeriodSide,
    changes: &PeriodChanges,
) -> String {
    let [(first_start, first_end), (second_start, second_end)] = periods;
    let pct = |c: &PeriodChange| c.percent.map(|p| format!(" ({p:+.0} %)")).unwrap_or_default();
    let mut line = format!(
        "{second_start} to {second_end} against {first_start} to {first_end}: {} activities ({:+}), {:.1} h{}, {:.1} km{}, load {:.0}{}",
        second.activities,
        changes.activities.difference,
        second.hours,
        pct(&changes.hours),
        second.distance_km,
        pct(&changes.distance_km),
        second.load,
        pct(&changes.load)
    );
    if let Some(p) = changes.low_intensity_points {
        line.push_str(&format!(", low-intensity share {p:+.1} points"));
    }
    if let Some(e) = &changes.run_efficiency {
        line.push_str(&format!(", run efficiency{}", pct(e).trim_end()));
    }
    line.push('.');
    line
}
