//! The `stats` toolset: `get_period_stats`, totals and trends of a week, month, year, the whole
//! account or any range — count, distance, time, elevation, average pace or speed, the longest
//! activity, a per-day/week/month/year breakdown and the change against the previous period.
//!
//! One walk over the activity list covers the period and the one before it (pages of
//! [`PAGE`](crate::domain::activity::PAGE) activities, one range request per page; never a request per day).

use std::collections::BTreeMap;

use chrono::{Datelike, Duration, NaiveDate};
use garmin::api::ActivitySearch;
use garmin::models::activities::ActivitySummary;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::activity::{
    ActivityRow, Family, PAGE, Speed, SportFilter, count_noun, distance_m, local_date,
};
use crate::domain::dates::monday_of as monday;
use crate::domain::dates::{DateRange, Day, Period as Kind, arg, day_of};
use crate::domain::words::whole_u32;
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Custom ranges up to this many days break down per week (longer ones per month).
const WEEKLY_UP_TO_DAYS: i64 = 93;
/// Breakdowns switch from months to years beyond this many months.
const MONTHLY_UP_TO_MONTHS: i64 = 24;

/// Arguments of `get_period_stats`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct PeriodStatsArgs {
    /// `week` (Monday to Sunday), `month`, `year`, `all` (the whole account) or `custom`
    /// (`start_date` to `end_date`).
    pub period: Kind,
    /// For week/month/year: any day inside the wanted period, `YYYY-MM-DD` (default today, so
    /// "this week/month/year").
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub date: Option<Day<arg::Date>>,
    /// For custom: first day, `YYYY-MM-DD`.
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub start_date: Option<Day<arg::StartDate>>,
    /// For custom: last day (inclusive), `YYYY-MM-DD`.
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub end_date: Option<Day<arg::EndDate>>,
    /// Only this sport: run, ride, swim, strength, walking, hiking or a Garmin type key
    /// (running includes trail and treadmill runs). Default: every activity.
    #[serde(default)]
    pub sport: Option<String>,
}

/// Totals of a period.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Totals {
    /// Number of activities.
    pub count: u32,
    /// Distance, km.
    pub distance_km: f64,
    /// Timer time, `h:mm:ss`.
    pub duration: String,
    /// Moving time, `h:mm:ss`.
    pub moving_time: String,
    /// Ascent, m.
    pub elevation_gain_m: u32,
    /// Sum of Garmin's training load.
    pub training_load: u32,
    /// Average pace (runs, walks, swims) or speed (rides) over the distance, when one sport.
    #[serde(flatten)]
    pub speed: Speed,
}

/// Totals of one sport inside the period.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct SportRow {
    /// `running`, `cycling`, `swimming`, `walking/hiking` or another Garmin type key.
    pub sport: String,
    /// Number of activities.
    pub count: u32,
    /// Distance, km (absent without distance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Timer time, `h:mm:ss`.
    pub duration: String,
    /// Average pace or speed.
    #[serde(flatten)]
    pub speed: Speed,
}

/// One row of the breakdown.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct BucketRow {
    /// The day (`2026-11-10 Tue`), week (`2026-11-09 to 2026-11-15`), month (`2026-11`) or year.
    pub period: String,
    /// Number of activities.
    pub count: u32,
    /// Distance, km.
    pub distance_km: f64,
    /// Timer time, `h:mm:ss`.
    pub duration: String,
}

/// Change against the previous period of the same length.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Change {
    /// First day compared with.
    pub previous_start: String,
    /// Last day compared with.
    pub previous_end: String,
    /// Activities then.
    pub previous_count: u32,
    /// Distance then, km.
    pub previous_distance_km: f64,
    /// Timer time then, `h:mm:ss`.
    pub previous_duration: String,
    /// Activities now minus then.
    pub count_change: i64,
    /// Distance now minus then, km.
    pub distance_change_km: f64,
    /// Distance change in % (absent when nothing was done then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_change_pct: Option<f64>,
    /// Timer time now minus then, minutes.
    pub duration_change_min: i64,
    /// Timer time change in % (absent when nothing was done then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_change_pct: Option<f64>,
}

/// The answer of `get_period_stats`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PeriodStats {
    /// `week`, `month`, `year`, `all` or `custom`.
    pub period: String,
    /// The period in words, e.g. `November 2026`.
    pub label: String,
    /// First day.
    pub start_date: String,
    /// Last day.
    pub end_date: String,
    /// The period is still running: figures are up to this day (today).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub so_far_to: Option<String>,
    /// Garmin type key filtered on, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport: Option<String>,
    /// Totals.
    pub totals: Totals,
    /// The longest activity (by distance, else by time).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest: Option<ActivityRow>,
    /// Totals per sport (when several sports are mixed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_sport: Vec<SportRow>,
    /// `day`, `week`, `month` or `year`.
    pub breakdown_by: String,
    /// Totals per day, week, month or year (empty ones included; a running period stops at today).
    pub breakdown: Vec<BucketRow>,
    /// Change against the previous period of the same length (none for `all`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<Change>,
    /// Where these numbers came from (the local history or Garmin live) and how fresh they are.
    pub source: crate::history::DataSource,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Bucket {
    Day,
    Week,
    Month,
    Year,
}

impl Bucket {
    fn name(self) -> &'static str {
        match self {
            Bucket::Day => "day",
            Bucket::Week => "week",
            Bucket::Month => "month",
            Bucket::Year => "year",
        }
    }

    /// First day of the bucket holding `day`.
    fn start_of(self, day: NaiveDate) -> NaiveDate {
        match self {
            Bucket::Day => day,
            Bucket::Week => monday(day),
            Bucket::Month => day.with_day(1).unwrap_or(day),
            Bucket::Year => NaiveDate::from_ymd_opt(day.year(), 1, 1).unwrap_or(day),
        }
    }

    /// First day of the bucket after the one starting on `start`.
    fn next(self, start: NaiveDate) -> NaiveDate {
        match self {
            Bucket::Day => start + Duration::days(1),
            Bucket::Week => start + Duration::days(7),
            Bucket::Month => next_month(start),
            Bucket::Year => {
                NaiveDate::from_ymd_opt(start.year() + 1, 1, 1).unwrap_or(start + Duration::days(366))
            }
        }
    }
}

fn next_month(day: NaiveDate) -> NaiveDate {
    let (y, m) = if day.month() == 12 { (day.year() + 1, 1) } else { (day.year(), day.month() + 1) };
    NaiveDate::from_ymd_opt(y, m, 1).unwrap_or(day + Duration::days(31))
}

fn months_between(start: NaiveDate, end: NaiveDate) -> i64 {
    i64::from(end.year() - start.year()) * 12 + i64::from(end.month()) - i64::from(start.month()) + 1
}

/// Sums over a set of activities.
#[derive(Clone, Debug, Default)]
struct Sum {
    count: u32,
    meters: f64,
    seconds: f64,
    moving: f64,
    gain: f64,
    load: f64,
}

fn finite(v: Option<f64>) -> f64 {
    v.filter(|x| x.is_finite() && *x > 0.0).unwrap_or(0.0)
}

impl Sum {
    fn add(&mut self, a: &ActivitySummary) {
        self.count += 1;
        self.meters += distance_m(a).unwrap_or(0.0);
        let seconds = finite(a.duration);
        self.seconds += seconds;
        self.moving += a.moving_duration.filter(|m| m.is_finite() && *m > 0.0).unwrap_or(seconds);
        self.gain += finite(a.elevation_gain);
        self.load += finite(a.activity_training_load);
    }

    fn of<'a>(items: impl IntoIterator<Item = &'a ActivitySummary>) -> Sum {
        let mut sum = Sum::default();
        for a in items {
            sum.add(a);
        }
        sum
    }

    fn speed(&self, family: Option<Family>) -> Speed {
        match family {
            Some(f) if f.has_distance() => Speed::of(f, self.meters, self.seconds),
            _ => Speed::default(),
        }
    }
}

fn pct(now: f64, then: f64) -> Option<f64> {
    (then > 0.0).then(|| ((now - then) / then * 1000.0).round() / 10.0)
}

/// The period asked for, before the data is read.
struct Span {
    start: NaiveDate,
    end: NaiveDate,
    label: String,
    /// The previous period of the same length (none for `all`).
    previous: Option<(NaiveDate, NaiveDate)>,
    previous_label: String,
    /// Today, when the period is still running.
    so_far: Option<NaiveDate>,
}

fn span(kind: Kind, date: NaiveDate, custom: Option<(NaiveDate, NaiveDate)>, today: NaiveDate) -> Span {
    let (start, end, label) = match kind {
        Kind::Week => {
            let start = monday(date);
            let end = start + Duration::days(6);
            (start, end, format!("the week of {start} to {end}"))
        }
        Kind::Month => {
            let start = date.with_day(1).unwrap_or(date);
            (start, next_month(start) - Duration::days(1), start.format("%B %Y").to_string())
        }
        Kind::Year => {
            let start = NaiveDate::from_ymd_opt(date.year(), 1, 1).unwrap_or(date);
            let end = NaiveDate::from_ymd_opt(date.year(), 12, 31).unwrap_or(date);
            (start, end, date.year().to_string())
        }
        Kind::Custom | Kind::All => {
            let (s, e) = custom.unwrap_or((date, date));
            (s, e, format!("{s} to {e}"))
        }
    };
    let so_far = (matches!(kind, Kind::Week | Kind::Month | Kind::Year) && start <= today && today < end)
        .then_some(today);
    let elapsed = so_far.map(|t| t - start);
    let previous = match kind {
        Kind::All => None,
        Kind::Week => {
            let s = start - Duration::days(7);
            Some((s, elapsed.map_or(start - Duration::days(1), |e| s + e)))
        }
        Kind::Month => {
            let last = start - Duration::days(1);
            let s = last.with_day(1).unwrap_or(last);
            Some((s, elapsed.map_or(last, |e| (s + e).min(last))))
        }
        Kind::Year => {
            let s = NaiveDate::from_ymd_opt(start.year() - 1, 1, 1).unwrap_or(start - Duration::days(365));
            let last = start - Duration::days(1);
            Some((s, elapsed.map_or(last, |e| (s + e).min(last))))
        }
        Kind::Custom => {
            let len = end - start + Duration::days(1);
            Some((start - len, start - Duration::days(1)))
        }
    };
    let previous_label = match (kind, previous) {
        (_, None) => String::new(),
        (Kind::Month, Some((s, _))) if so_far.is_none() => s.format("%B %Y").to_string(),
        (Kind::Year, Some((s, _))) if so_far.is_none() => s.year().to_string(),
        (Kind::Week, Some((s, e))) if so_far.is_none() => format!("the week of {s} to {e}"),
        (_, Some((s, e))) => format!("{s} to {e}"),
    };
    Span { start, end, label, previous, previous_label, so_far }
}

#[tool_router(router = stats_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Totals and trends over a period: count, distance, time, moving time, elevation, average pace
    /// (runs) or speed (rides), the longest activity, a breakdown (per day for a week, per week for
    /// a month, per month for a year) and the change against the previous period of the same
    /// length. Use it for "how did I run this month?", "how many km this year?", "compare this week
    /// with last week", "my cycling since March". A running week/month/year is compared with the
    /// same days of the one before. Filter with `sport` (run, ride, swim…).
    #[tool(
        name = "get_period_stats",
        annotations(
            title = "Period totals and trends",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<PeriodStats>()
    )]
    async fn get_period_stats(
        &self,
        Parameters(args): Parameters<PeriodStatsArgs>,
    ) -> Result<Answer<PeriodStats>, ToolError> {
        let today = self.today();
        let query = Period::parse(&args)?;
        let reading = self.reading().await?;
        let mut span = span(query.kind, query.date.unwrap_or(today), query.custom, today);
        let (items, source) = period_activities(&reading, &query, &span).await?;
        let what = query.filter.as_ref().map_or("activities".to_owned(), |f| f.many.clone());
        let mut nothing_note =
            (query.kind == Kind::All).then(|| all_time(&mut span, &items, today, &what)).flatten();
        let inside = |a: &&ActivitySummary, s: NaiveDate, e: NaiveDate| {
            local_date(a).is_some_and(|d| d >= s && d <= e)
        };
        let current: Vec<&ActivitySummary> =
            items.iter().filter(|a| inside(a, span.start, span.end)).collect();
        let previous: Option<Vec<&ActivitySummary>> =
            span.previous.map(|(s, e)| items.iter().filter(|a| inside(a, s, e)).collect());
        // A period with nothing in it (yet) is an answer, not an error: zero totals, and the
        // previous period for comparison. On the 1st of a month "this month" is such a period.
        if nothing_note.is_none() && current.is_empty() && previous.as_ref().is_none_or(Vec::is_empty) {
            nothing_note = Some(nothing_in(&span, &what));
        }
        let stats = period_stats(&query, &span, &current, previous.as_deref(), source);
        let summary = nothing_note.unwrap_or_else(|| {
            let sum = Sum::of(current.iter().copied());
            describe(
                &span,
                query.filter.as_ref(),
                &sum,
                &stats.totals,
                stats.change.as_ref(),
                stats.longest.as_ref(),
            )
        });
        let summary = format!("{summary} {}", stats.source.phrase());
        Ok(self.answer(summary, stats))
    }
}

// ---------------------------------------------------------------------------------------------
// parse

/// What `get_period_stats` was asked, checked: the period's kind, the day inside it, a custom
/// range, and the sport filter. Every wrong combination is refused here with one sentence.
struct Period {
    kind: Kind,
    date: Option<NaiveDate>,
    custom: Option<(NaiveDate, NaiveDate)>,
    filter: Option<SportFilter>,
}

impl Period {
    fn parse(args: &PeriodStatsArgs) -> Result<Period, ToolError> {
        let kind = args.period;
        let date = day_of(args.date);
        let start_date = day_of(args.start_date);
        let end_date = day_of(args.end_date);
        let filter = match args.sport.as_deref() {
            Some(text) => SportFilter::parse("sport", text)?,
            None => None,
        };
        let custom = match kind {
            Kind::Custom => {
                if date.is_some() {
                    return Err(ToolError::invalid(
                        "date only applies to week, month or year; use start_date and end_date with period=custom",
                    ));
                }
                let (Some(s), Some(e)) = (start_date, end_date) else {
                    return Err(ToolError::invalid(
                        "period=custom needs both start_date and end_date (YYYY-MM-DD)",
                    ));
                };
                let range = DateRange::new(s, e)?;
                Some((range.start, range.end))
            }
            _ => {
                if start_date.is_some() || end_date.is_some() {
                    return Err(ToolError::invalid(format!(
                        "start_date and end_date only apply to period=custom; for period={} pass `date` (any day inside it)",
                        kind.name()
                    )));
                }
                if kind == Kind::All && date.is_some() {
                    return Err(ToolError::invalid("period=all takes no date"));
                }
                None
            }
        };
        Ok(Period { kind, date, custom, filter })
    }
}

// ---------------------------------------------------------------------------------------------
// call

/// The activities of the period and the one before it (all of them for `period=all`), oldest
/// first, each with a local date.
async fn period_activities(
    reading: &crate::domain::reading::Reading,
    query: &Period,
    span: &Span,
) -> Result<(Vec<ActivitySummary>, crate::history::DataSource), ToolError> {
    let mut search = ActivitySearch::new().limit(PAGE);
    search.activity_type = query.filter.as_ref().map(|f| f.type_key.clone());
    if query.kind != Kind::All {
        let from = span.previous.map_or(span.start, |(s, _)| s.min(span.start));
        search = search.between(from, span.end);
    }
    // Past days come from the local history when it covers them (today is always live).
    let cached = match (query.kind, search.start_date) {
        (Kind::All, _) | (_, None) => None,
        (_, Some(from)) => {
            crate::domain::reading::activities_cache_first(
                reading,
                from,
                span.end,
                search.activity_type.as_deref(),
            )
            .await?
        }
    };
    let (mut items, source) = match cached {
        Some(found) => found,
        None => (reading.reads.search_all(&search).await?.value, crate::history::DataSource::live()),
    };
    items.retain(|a| local_date(a).is_some());
    items.sort_by_key(|a| a.start_time_local);
    Ok((items, source))
}

// ---------------------------------------------------------------------------------------------
// shape

/// Sets an all-time span from the first activity to today (or the last, if later); with no
/// activity at all, says so.
fn all_time(span: &mut Span, items: &[ActivitySummary], today: NaiveDate, what: &str) -> Option<String> {
    match (items.first().and_then(local_date), items.last().and_then(local_date)) {
        (Some(first), Some(last)) => {
            span.start = first;
            span.end = last.max(today);
            span.label = format!("all time ({first} to {})", span.end);
            None
        }
        _ => {
            (span.start, span.end) = (today, today);
            span.label = "all time".to_owned();
            Some(format!("No {what} recorded in your Garmin account."))
        }
    }
}

/// `No runs recorded in November 2026 so far (to …) (nor in October 2026).`
fn nothing_in(span: &Span, what: &str) -> String {
    let also =
        if span.previous.is_some() { format!(" (nor in {})", span.previous_label) } else { String::new() };
    let so_far = span.so_far.map(|d| format!(" so far (to {d})")).unwrap_or_default();
    format!("No {what} recorded in {}{so_far}{also}.", span.label)
}

/// The answer's data: totals, the longest activity, the breakdowns and the change against the
/// previous period.
fn period_stats(
    query: &Period,
    span: &Span,
    current: &[&ActivitySummary],
    previous: Option<&[&ActivitySummary]>,
    source: crate::history::DataSource,
) -> PeriodStats {
    let family = pace_family(query, current);
    let sum = Sum::of(current.iter().copied());
    let totals = Totals {
        count: sum.count,
        distance_km: display::km(sum.meters),
        duration: display::duration(sum.seconds),
        moving_time: display::duration(sum.moving),
        elevation_gain_m: whole_u32(Some(sum.gain)).unwrap_or(0),
        training_load: whole_u32(Some(sum.load)).unwrap_or(0),
        speed: sum.speed(family),
    };
    let longest = longest(current);
    let by_sport = if query.filter.is_none() && current.len() > 1 { sport_rows(current) } else { Vec::new() };
    let bucket = bucket_for(query.kind, span.start, span.end);
    // A running period stops at today: rows for days still to come would be noise.
    let breakdown = breakdown(bucket, span.start, span.so_far.unwrap_or(span.end), current);
    let change = match (previous, span.previous) {
        (Some(prev), Some((ps, pe))) => Some(change(&sum, &Sum::of(prev.iter().copied()), ps, pe)),
        _ => None,
    };
    PeriodStats {
        period: query.kind.name().to_owned(),
        label: span.label.clone(),
        start_date: span.start.to_string(),
        end_date: span.end.to_string(),
        so_far_to: span.so_far.map(|d| d.to_string()),
        sport: query.filter.as_ref().map(|f| f.type_key.clone()),
        totals,
        longest,
        by_sport,
        breakdown_by: bucket.name().to_owned(),
        breakdown,
        change,
        source,
    }
}

/// The one sport family whose pace or speed the totals show: the filter's, or the only one
/// present (none when sports are mixed).
fn pace_family(query: &Period, current: &[&ActivitySummary]) -> Option<Family> {
    let mut families: Vec<Family> = current.iter().map(|a| Family::of_summary(a)).collect();
    families.sort();
    families.dedup();
    match &query.filter {
        Some(f) => Some(Family::of(Some(&f.type_key), None)),
        None if families.len() == 1 => families.first().copied(),
        None => None,
    }
}

/// The longest activity: by distance, then by duration.
fn longest(current: &[&ActivitySummary]) -> Option<ActivityRow> {
    current
        .iter()
        .max_by(|a, b| {
            let key = |x: &ActivitySummary| (distance_m(x).unwrap_or(0.0), finite(x.duration));
            let (ka, kb) = (key(a), key(b));
            ka.0.total_cmp(&kb.0).then(ka.1.total_cmp(&kb.1))
        })
        .and_then(|a| ActivityRow::of(a))
}

/// The change from the previous period `p` (from `ps` to `pe`) to this one.
fn change(sum: &Sum, p: &Sum, ps: NaiveDate, pe: NaiveDate) -> Change {
    Change {
        previous_start: ps.to_string(),
        previous_end: pe.to_string(),
        previous_count: p.count,
        previous_distance_km: display::km(p.meters),
        previous_duration: display::duration(p.seconds),
        count_change: i64::from(sum.count) - i64::from(p.count),
        distance_change_km: display::km(sum.meters - p.meters),
        distance_change_pct: pct(sum.meters, p.meters),
        duration_change_min: ((sum.seconds - p.seconds) / 60.0).round() as i64,
        duration_change_pct: pct(sum.seconds, p.seconds),
    }
}

/// The breakdown rows of a period: days of a week, weeks of a month or a custom range up to
/// [`WEEKLY_UP_TO_DAYS`], months of a year or longer range, years beyond [`MONTHLY_UP_TO_MONTHS`].
fn bucket_for(kind: Kind, start: NaiveDate, end: NaiveDate) -> Bucket {
    match kind {
        Kind::Week => Bucket::Day,
        Kind::Month => Bucket::Week,
        Kind::Custom if (end - start).num_days() < WEEKLY_UP_TO_DAYS => Bucket::Week,
        _ if months_between(start, end) > MONTHLY_UP_TO_MONTHS => Bucket::Year,
        _ => Bucket::Month,
    }
}

/// Totals per sport: families for distance sports, the type key for the rest.
fn sport_rows(items: &[&ActivitySummary]) -> Vec<SportRow> {
    let mut groups: BTreeMap<(Family, String), Sum> = BTreeMap::new();
    for a in items {
        let family = Family::of_summary(a);
        let name = if family == Family::Other {
            a.type_key().unwrap_or("other").to_owned()
        } else {
            family.sport_name().to_owned()
        };
        groups.entry((family, name)).or_default().add(a);
    }
    if groups.len() < 2 {
        return Vec::new();
    }
    groups
        .into_iter()
        .map(|((family, sport), s)| SportRow {
            sport,
            count: s.count,
            distance_km: (s.meters > 0.0).then(|| display::km(s.meters)),
            duration: display::duration(s.seconds),
            speed: s.speed(Some(family)),
        })
        .collect()
}

fn breakdown(bucket: Bucket, start: NaiveDate, end: NaiveDate, items: &[&ActivitySummary]) -> Vec<BucketRow> {
    let mut rows = Vec::new();
    let mut from = bucket.start_of(start);
    while from <= end {
        let next = bucket.next(from);
        let (a, b) = (from.max(start), (next - Duration::days(1)).min(end));
        let sum = Sum::of(items.iter().copied().filter(|x| local_date(x).is_some_and(|d| d >= a && d <= b)));
        let period = match bucket {
            Bucket::Day => a.format("%Y-%m-%d %a").to_string(),
            Bucket::Week => format!("{a} to {b}"),
            Bucket::Month => a.format("%Y-%m").to_string(),
            Bucket::Year => a.year().to_string(),
        };
        rows.push(BucketRow {
            period,
            count: sum.count,
            distance_km: display::km(sum.meters),
            duration: display::duration(sum.seconds),
        });
        from = next;
    }
    rows
}

fn describe(
    span: &Span,
    filter: Option<&SportFilter>,
    sum: &Sum,
    totals: &Totals,
    change: Option<&Change>,
    longest: Option<&ActivityRow>,
) -> String {
    let count = usize::try_from(sum.count).unwrap_or(usize::MAX);
    let mut text = format!("{} in {}", count_noun(count, filter), span.label);
    if let Some(today) = span.so_far {
        text.push_str(&format!(" (so far, to {today})"));
    }
    text.push(':');
    if sum.meters > 0.0 {
        text.push_str(&format!(" {:.1} km,", sum.meters / 1000.0));
    }
    text.push_str(&format!(" {}", display::hours_minutes(sum.seconds)));
    if let Some(speed) = totals.speed.text() {
        let what = if totals.speed.speed_kmh.is_some() { "avg speed" } else { "avg pace" };
        text.push_str(&format!(", {what} {speed}"));
    }
    if totals.elevation_gain_m > 0 {
        text.push_str(&format!(", {} m climbed", totals.elevation_gain_m));
    }
    text.push('.');
    if let Some(c) = change {
        let then = &span.previous_label;
        let sentence = match (c.distance_change_pct, c.duration_change_pct) {
            _ if c.previous_count == 0 => format!(" Nothing was recorded in {then}."),
            (Some(p), _) if sum.meters > 0.0 || c.previous_distance_km > 0.0 => {
                let dir = if p >= 0.0 { "more" } else { "less" };
                format!(
                    " That is {:.0} % {dir} distance than {then} ({:.1} km in {}).",
                    p.abs(),
                    c.previous_distance_km,
                    count_noun(usize::try_from(c.previous_count).unwrap_or(usize::MAX), filter)
                )
            }
            (_, Some(p)) => {
                let dir = if p >= 0.0 { "more" } else { "less" };
                format!(
                    " That is {:.0} % {dir} time than {then} ({}).",
                    p.abs(),
                    count_noun(usize::try_from(c.previous_count).unwrap_or(usize::MAX), filter)
                )
            }
            _ => String::new(),
        };
        text.push_str(&sentence);
    }
    if let Some(l) = longest.filter(|_| count > 1) {
        text.push_str(&format!(" Longest: {} “{}”", l.date, l.name));
        match l.distance_km {
            Some(km) => text.push_str(&format!(", {km:.2} km.")),
            None => text.push_str(&format!(", {}.", l.duration)),
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn a_running_month_is_compared_with_the_same_days_of_the_month_before() {
        let s = span(Kind::Month, d("2026-11-15"), None, d("2026-11-15"));
        assert_eq!((s.start, s.end), (d("2026-11-01"), d("2026-11-30")));
        assert_eq!(s.previous, Some((d("2026-10-01"), d("2026-10-15"))));
        assert_eq!(s.so_far, Some(d("2026-11-15")));
        let done = span(Kind::Month, d("2026-10-09"), None, d("2026-11-15"));
        assert_eq!(done.previous, Some((d("2026-09-01"), d("2026-09-30"))));
        assert_eq!(done.previous_label, "September 2026");
        assert_eq!(done.so_far, None);
    }

    #[test]
    fn weeks_start_on_monday_and_custom_ranges_compare_with_the_days_before() {
        let w = span(Kind::Week, d("2026-11-12"), None, d("2026-11-15"));
        assert_eq!((w.start, w.end), (d("2026-11-09"), d("2026-11-15")));
        assert_eq!(w.previous, Some((d("2026-11-02"), d("2026-11-08"))));
        let c =
            span(Kind::Custom, d("2026-11-15"), Some((d("2026-10-01"), d("2026-10-10"))), d("2026-11-15"));
        assert_eq!(c.previous, Some((d("2026-09-21"), d("2026-09-30"))));
        let y = span(Kind::Year, d("2026-03-01"), None, d("2026-03-01"));
        assert_eq!(y.previous, Some((d("2025-01-01"), d("2025-03-01"))));
    }

    #[test]
    fn long_spans_break_down_per_year_to_stay_small() {
        assert_eq!(bucket_for(Kind::Custom, d("2026-08-01"), d("2026-10-31")), Bucket::Week);
        assert_eq!(bucket_for(Kind::Custom, d("2026-01-01"), d("2026-10-31")), Bucket::Month);
        assert_eq!(bucket_for(Kind::All, d("2024-12-01"), d("2026-11-15")), Bucket::Month);
        assert_eq!(bucket_for(Kind::All, d("2014-03-02"), d("2026-11-15")), Bucket::Year);
        let rows = breakdown(Bucket::Year, d("2014-03-02"), d("2026-11-15"), &[]);
        assert_eq!(rows.len(), 13);
        assert_eq!(rows[0].period, "2014");
    }

    #[test]
    fn breakdown_rows_cover_the_period_without_gaps() {
        let rows = breakdown(Bucket::Week, d("2026-11-01"), d("2026-11-30"), &[]);
        assert_eq!(rows.first().unwrap().period, "2026-11-01 to 2026-11-01");
        assert_eq!(rows.last().unwrap().period, "2026-11-30 to 2026-11-30");
        assert_eq!(rows.len(), 6);
        assert_eq!(breakdown(Bucket::Month, d("2025-11-16"), d("2026-11-15"), &[]).len(), 13);
        assert_eq!(breakdown(Bucket::Day, d("2026-11-09"), d("2026-11-15"), &[])[0].period, "2026-11-09 Mon");
    }
}
