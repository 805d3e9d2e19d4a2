//! The data of the charts over a period of activities: volume per week or month by sport, time in
//! heart-rate zones summed over the activities of a period, and the daily training load with its
//! acute and chronic lines. Each reads the activity list of the period once (pages of
//! [`PAGE`](crate::domain::activity::PAGE)), never one request per day or per activity.

use std::collections::BTreeMap;

use chrono::{Datelike, Duration, NaiveDate};
use garmin::api::ActivitySearch;
use garmin::models::activities::ActivitySummary;
use garmin::models::metrics::HrZones;
use garmin_charts::{
    ChartOptions, HrZonesChart, LoadDay, Sport, TrainingLoadChart, VolumeBucket, VolumeChart, VolumeMetric,
    ZoneTime,
};

use super::activity::zone_sentence;
use super::{Drawn, VolumePeriod, draw_off_thread, span};
use crate::domain::activity::PAGE;
use crate::domain::activity::{Family, SportFilter, count_noun, distance_m, local_date};
use crate::domain::dates::monday_of as monday;
use crate::domain::load::{CHRONIC_DAYS, acwr, acwr_band, rolling_loads};
use crate::domain::words::thousands;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// `count` months before the month of `day` (0 = that month), as its first day.
fn months_back(day: NaiveDate, count: u32) -> NaiveDate {
    let index = day.year() * 12 + day.month0() as i32 - count as i32;
    NaiveDate::from_ymd_opt(index.div_euclid(12), index.rem_euclid(12) as u32 + 1, 1).unwrap_or(day)
}

/// The chart's sport group of an activity.
fn sport_of(a: &ActivitySummary) -> Sport {
    match Family::of_summary(a) {
        Family::Run => Sport::Running,
        Family::Ride => Sport::Cycling,
        Family::Swim => Sport::Swimming,
        Family::Walk => Sport::Walking,
        Family::Other if a.type_key() == Some("strength_training") => Sport::Strength,
        Family::Other => Sport::Other,
    }
}

fn sport_word(s: Sport) -> &'static str {
    match s {
        Sport::Running => "running",
        Sport::Cycling => "cycling",
        Sport::Swimming => "swimming",
        Sport::Walking => "walking/hiking",
        Sport::Strength => "strength",
        Sport::Other => "other",
    }
}

fn positive(v: Option<f64>) -> f64 {
    v.filter(|x| x.is_finite() && *x > 0.0).unwrap_or(0.0)
}

impl GarminMcp {
    /// Every activity from `start` to `end` (local days), optionally of one sport, oldest first.
    async fn activities_between(
        &self,
        start: NaiveDate,
        end: NaiveDate,
        filter: Option<&SportFilter>,
    ) -> Result<Vec<ActivitySummary>, ToolError> {
        let client = self.web_session().await?;
        let mut search = ActivitySearch::new().limit(PAGE).between(start, end);
        search.activity_type = filter.map(|f| f.type_key.clone());
        let mut items = client.activities().search_all(&search).await?;
        items.retain(|a| local_date(a).is_some_and(|d| d >= start && d <= end));
        items.sort_by_key(|a| a.start_time_local);
        Ok(items)
    }

    /// The `volume` chart: the activities of the buckets summed per sport, drawn, and described.
    #[allow(clippy::too_many_arguments, reason = "the volume chart's arguments as the tool takes them")]
    pub(super) async fn volume_chart(
        &self,
        end: NaiveDate,
        by: VolumePeriod,
        count: u32,
        metric: VolumeMetric,
        stacked: bool,
        sport: Option<&str>,
        options: ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let filter = sport_filter(sport)?;
        let starts = bucket_starts(end, by, count);
        let start = starts.first().copied().unwrap_or(end);
        let items = self.activities_between(start, end, filter.as_ref()).await?;
        let volume = Volume::sum(&items, &starts, metric);
        if volume.sports.is_empty() {
            let what = filter.as_ref().map_or("activities".to_owned(), |f| f.many.clone());
            let measured = if metric == VolumeMetric::Distance { " with a distance" } else { "" };
            return Err(ToolError::NoData(format!("No {what}{measured} from {start} to {end}.")));
        }
        let words = VolumeWords::of(metric, by);
        let period_text = span(start, end);
        let of_sport = filter.as_ref().map(|f| format!(" of {}", f.many)).unwrap_or_default();
        let summary = format!(
            "{}{of_sport} for the {count} {}s {period_text}: {}",
            words.noun,
            words.per,
            volume.summary(&words, count, &starts, filter.as_ref())
        );
        let chart = VolumeChart {
            weekly: by == VolumePeriod::Week,
            metric,
            sports: volume.sports.clone(),
            buckets: volume.buckets(&starts, by),
            stacked,
            span: format!("{start} – {end}"),
        };
        let view = crate::apps::view::tagged(
            "period",
            &crate::apps::view::period(&chart, &starts, end, filter.as_ref().map(|f| f.type_key.clone())),
        );
        let png =
            draw_off_thread("the volume chart", move || garmin_charts::volume(&chart, &options)).await?;
        let what_file = format!(
            "{}-{count}{}",
            words.noun.to_lowercase().replace(' ', "-"),
            if by == VolumePeriod::Week { "w" } else { "m" }
        );
        Ok(Drawn {
            png,
            summary,
            title: format!("{}{of_sport}, {period_text}", words.noun),
            file_parts: vec![end.to_string(), what_file],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(volume.counted).unwrap_or(u32::MAX)),
            view: Some(view),
        })
    }

    /// The `hr_zones` chart summed over the activities of the `days` days ending on `end`.
    pub(super) async fn zones_over_period(
        &self,
        end: NaiveDate,
        days: u32,
        sport: Option<&str>,
        options: ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let filter = sport_filter(sport)?;
        let start = end - Duration::days(i64::from(days) - 1);
        let client = self.web_session().await?;
        let metrics = client.metrics();
        let (items, zones) =
            futures::join!(self.activities_between(start, end, filter.as_ref()), metrics.hr_zones());
        let (seconds, with_hr) = zone_seconds(&items?);
        let total: f64 = seconds.iter().sum();
        if total <= 0.0 {
            let what = filter.as_ref().map_or("activities".to_owned(), |f| f.many.clone());
            return Err(ToolError::NoData(format!("No {what} with heart rate from {start} to {end}.")));
        }
        // The athlete's zone floors: the sport's own set when there is one, else the default.
        let family = filter.as_ref().map(|f| Family::of(Some(&f.type_key), None));
        let rows = zone_time_rows(seconds, zones.ok().and_then(|sets| pick_zone_set(&sets, family)));
        let period_text = span(start, end);
        let chart =
            HrZonesChart { name: String::new(), period: format!("{start} – {end}"), zones: rows.clone() };
        let png = draw_off_thread("the heart-rate zones", move || garmin_charts::hr_zones(&chart, &options))
            .await?;
        let summary = format!(
            "Time in heart-rate zones over the {days} days {period_text} ({} with heart rate): {}.",
            count_noun(with_hr, filter.as_ref()),
            zone_sentence(&rows, total)
        );
        Ok(Drawn {
            png,
            summary,
            title: format!("Time in heart-rate zones, {period_text}"),
            file_parts: vec![end.to_string(), format!("hr-zones-{days}d")],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(with_hr).unwrap_or(u32::MAX)),
            view: None,
        })
    }

    /// The `training_load` chart of the `weeks` weeks ending on `end`.
    pub(super) async fn training_load_chart(
        &self,
        end: NaiveDate,
        weeks: u32,
        options: ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let start = end - Duration::days(i64::from(weeks) * 7 - 1);
        let warm_up = start - Duration::days(CHRONIC_DAYS - 1);
        let items = self.activities_between(warm_up, end, None).await?;
        let days = load_days(&items, start, end);
        let total: f64 = days.iter().map(|d| d.load).sum();
        if total <= 0.0 {
            return Err(ToolError::NoData(format!("No training load recorded from {start} to {end}.")));
        }
        let in_range = items.iter().filter(|a| local_date(a).is_some_and(|d| d >= start)).count();
        let period_text = span(start, end);
        let summary = format!(
            "Training load over the {weeks} weeks {period_text}: {}",
            load_sentence(&days, total, in_range, end)
        );
        let chart = TrainingLoadChart { days };
        let png =
            draw_off_thread("the training load", move || garmin_charts::training_load(&chart, &options))
                .await?;
        Ok(Drawn {
            png,
            summary,
            title: format!("Training load, {period_text}"),
            file_parts: vec![end.to_string(), format!("training-load-{weeks}w")],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(in_range).unwrap_or(u32::MAX)),
            view: None,
        })
    }
}

/// The `sport` argument as a filter (`None`: every sport).
fn sport_filter(sport: Option<&str>) -> Result<Option<SportFilter>, ToolError> {
    match sport {
        Some(text) => SportFilter::parse("sport", text),
        None => Ok(None),
    }
}

/// The volume chart's bucket starts, oldest first: `count` Mondays or first days of the month, the
/// last one the bucket holding `end` (which stops at `end`).
fn bucket_starts(end: NaiveDate, by: VolumePeriod, count: u32) -> Vec<NaiveDate> {
    match by {
        VolumePeriod::Week => {
            let last = monday(end);
            (0..i64::from(count)).rev().map(|i| last - Duration::weeks(i)).collect()
        }
        VolumePeriod::Month => (0..count).rev().map(|i| months_back(end, i)).collect(),
    }
}

/// How the volume chart's answer names what it measures: one row per metric and bucket size.
struct VolumeWords {
    /// `km` or `h`.
    unit: &'static str,
    /// `week` or `month`.
    per: &'static str,
    /// `Weekly distance`…: the summary's subject and the title.
    noun: &'static str,
}

impl VolumeWords {
    fn of(metric: VolumeMetric, by: VolumePeriod) -> VolumeWords {
        let (unit, per, noun) = match (metric, by) {
            (VolumeMetric::Distance, VolumePeriod::Week) => ("km", "week", "Weekly distance"),
            (VolumeMetric::Distance, VolumePeriod::Month) => ("km", "month", "Monthly distance"),
            (VolumeMetric::Time, VolumePeriod::Week) => ("h", "week", "Weekly training time"),
            (VolumeMetric::Time, VolumePeriod::Month) => ("h", "month", "Monthly training time"),
        };
        VolumeWords { unit, per, noun }
    }
}

/// Kilometres or hours per bucket and sport.
struct Volume {
    /// One map per bucket start: sport → kilometres or hours.
    sums: Vec<BTreeMap<Sport, f64>>,
    /// Activities counted (with a positive value, in a bucket).
    counted: usize,
    /// The sports with any volume, in the chart's order.
    sports: Vec<Sport>,
}

impl Volume {
    /// Sums each activity's distance (km) or time (h) into the bucket its local day falls in.
    fn sum(items: &[ActivitySummary], starts: &[NaiveDate], metric: VolumeMetric) -> Volume {
        let value = |a: &ActivitySummary| match metric {
            VolumeMetric::Distance => distance_m(a).unwrap_or(0.0) / 1000.0,
            VolumeMetric::Time => positive(a.duration) / 3600.0,
        };
        let bucket_of = |day: NaiveDate| starts.iter().rposition(|s| *s <= day);
        let mut sums: Vec<BTreeMap<Sport, f64>> = vec![BTreeMap::new(); starts.len()];
        let mut counted = 0usize;
        for a in items {
            let (Some(day), v) = (local_date(a), value(a)) else { continue };
            if v <= 0.0 {
                continue;
            }
            if let Some(i) = bucket_of(day) {
                *sums[i].entry(sport_of(a)).or_default() += v;
                counted += 1;
            }
        }
        let mut sports: Vec<Sport> = sums.iter().flat_map(|m| m.keys().copied()).collect();
        sports.sort();
        sports.dedup();
        Volume { sums, counted, sports }
    }

    /// The chart's bars: one per bucket (`MM-DD` of the Monday, or `YYYY-MM`), a value per sport.
    fn buckets(&self, starts: &[NaiveDate], by: VolumePeriod) -> Vec<VolumeBucket> {
        let label = |s: NaiveDate| match by {
            VolumePeriod::Week => s.format("%m-%d").to_string(),
            VolumePeriod::Month => s.format("%Y-%m").to_string(),
        };
        starts
            .iter()
            .zip(&self.sums)
            .map(|(s, m)| VolumeBucket {
                label: label(*s),
                values: self.sports.iter().map(|sp| m.get(sp).copied().unwrap_or(0.0)).collect(),
            })
            .collect()
    }

    /// `412.3 km in total over 38 runs, 34.4 km per week on average; biggest week … . By sport: …`.
    fn summary(
        &self,
        words: &VolumeWords,
        count: u32,
        starts: &[NaiveDate],
        filter: Option<&SportFilter>,
    ) -> String {
        let VolumeWords { unit, per, .. } = words;
        let totals: Vec<f64> = self.sums.iter().map(|m| m.values().sum()).collect();
        let total: f64 = totals.iter().sum();
        let mut text = format!(
            "{total:.1} {unit} in total over {}, {:.1} {unit} per {per} on average",
            count_noun(self.counted, filter),
            total / f64::from(count.max(1)),
        );
        let best = totals.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1));
        let least = totals.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1));
        if let (Some((bi, bv)), Some((li, lv))) = (best, least) {
            text.push_str(&format!(
                "; biggest {per} {} ({bv:.1} {unit}), smallest {} ({lv:.1} {unit})",
                starts[bi], starts[li]
            ));
        }
        text.push('.');
        if self.sports.len() > 1 {
            let by_sport: Vec<String> = self
                .sports
                .iter()
                .map(|s| {
                    let sum = self.sums.iter().filter_map(|m| m.get(s)).sum::<f64>();
                    format!("{} {sum:.1} {unit}", sport_word(*s))
                })
                .collect();
            text.push_str(&format!(" By sport: {}.", by_sport.join(", ")));
        }
        text
    }
}

/// Seconds in zones 1–5 summed over `items`, and how many of them recorded heart rate.
fn zone_seconds(items: &[ActivitySummary]) -> ([f64; 5], usize) {
    let mut seconds = [0.0f64; 5];
    let mut with_hr = 0usize;
    for a in items {
        let z = a.hr_time_in_zones();
        if z.iter().any(|s| positive(*s) > 0.0) {
            with_hr += 1;
        }
        for (total, s) in seconds.iter_mut().zip(z) {
            *total += positive(s);
        }
    }
    (seconds, with_hr)
}

/// The chart's zone rows: each zone's seconds between its floor and the next (the top: max HR).
fn zone_time_rows(seconds: [f64; 5], floors: Option<[Option<f64>; 6]>) -> Vec<ZoneTime> {
    (0..5)
        .map(|i| ZoneTime {
            zone: i as u8 + 1,
            seconds: seconds[i],
            from_bpm: floors.and_then(|f| f[i]),
            to_bpm: floors.and_then(|f| f.get(i + 1).copied().flatten()),
        })
        .collect()
}

/// The chart's days from `start` to `end`: each one's training load with the rolling acute and
/// chronic loads ([`rolling_loads`]) of `items` (which reach back far enough to warm them up).
fn load_days(items: &[ActivitySummary], start: NaiveDate, end: NaiveDate) -> Vec<LoadDay> {
    let loads = items.iter().filter_map(|a| Some((local_date(a)?, positive(a.activity_training_load))));
    rolling_loads(loads, start, end)
        .into_iter()
        .map(|d| LoadDay {
            date: d.date.to_string(),
            load: d.load,
            acute: Some(d.acute),
            chronic: Some(d.chronic),
        })
        .collect()
}

/// `1,234 in total from 18 activities, highest day … . On {end} the acute load … ratio 1.12,
/// optimal — …. Both are computed from your activities' training load.`
fn load_sentence(days: &[LoadDay], total: f64, in_range: usize, end: NaiveDate) -> String {
    let mut text =
        format!("{} in total from {}", thousands(total.round() as u64), count_noun(in_range, None));
    if let Some(p) = days.iter().max_by(|a, b| a.load.total_cmp(&b.load)) {
        text.push_str(&format!(", highest day {} ({:.0})", p.date, p.load));
    }
    text.push('.');
    if let Some(l) = days.last()
        && let (Some(a), Some(c)) = (l.acute, l.chronic)
    {
        text.push_str(&format!(
            " On {end} the acute load (last 7 days) is {a:.0} and the chronic load (last 28 days ÷ 4) {c:.0}"
        ));
        if c > 0.0 {
            let ratio = acwr(a, c);
            let (band, meaning) = acwr_band(ratio);
            text.push_str(&format!(": ratio {ratio:.2}, {band} — {meaning}"));
        }
        text.push_str(". Both are computed from your activities' training load.");
    }
    text
}

/// Zone floors 1–5 plus the top (max HR) from the athlete's zone sets: the set of `family`'s sport
/// when there is one, else `DEFAULT`, else the first.
fn pick_zone_set(sets: &[HrZones], family: Option<Family>) -> Option<[Option<f64>; 6]> {
    let sport = HrZones::sport_of_type(family.and_then(Family::garmin_type_id), None);
    let set = HrZones::set_for(sets, sport)?;
    let f = |v: Option<f64>| v.filter(|x| x.is_finite() && *x > 0.0);
    Some([
        f(set.zone1_floor),
        f(set.zone2_floor),
        f(set.zone3_floor),
        f(set.zone4_floor),
        f(set.zone5_floor),
        f(set.max_heart_rate_used),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn months_back_crosses_years() {
        assert_eq!(months_back(d("2026-11-15"), 0), d("2026-11-01"));
        assert_eq!(months_back(d("2026-02-28"), 3), d("2025-11-01"));
        assert_eq!(months_back(d("2026-01-31"), 12), d("2025-01-01"));
        assert_eq!(monday(d("2026-11-15")), d("2026-11-09"));
    }

    #[test]
    fn bucket_starts_run_oldest_first_up_to_the_bucket_holding_the_end() {
        assert_eq!(
            bucket_starts(d("2026-11-15"), VolumePeriod::Week, 3),
            [d("2026-10-26"), d("2026-11-02"), d("2026-11-09")]
        );
        assert_eq!(
            bucket_starts(d("2026-01-31"), VolumePeriod::Month, 2),
            [d("2025-12-01"), d("2026-01-01")]
        );
    }

    #[test]
    fn the_sports_own_zone_set_is_preferred() {
        let set = |sport: &str, z1: f64| HrZones {
            sport: Some(sport.into()),
            zone1_floor: Some(z1),
            ..HrZones::default()
        };
        let sets = vec![set("DEFAULT", 100.0), set("RUNNING", 110.0)];
        assert_eq!(pick_zone_set(&sets, Some(Family::Run)).unwrap()[0], Some(110.0));
        assert_eq!(pick_zone_set(&sets, Some(Family::Ride)).unwrap()[0], Some(100.0));
        assert_eq!(pick_zone_set(&sets, None).unwrap()[0], Some(100.0));
        assert!(pick_zone_set(&[], None).is_none());
    }
}
