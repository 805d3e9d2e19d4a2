//! Date arguments: one parser for every tool, bounded to the days Garmin can have, with one
//! friendly message naming the argument, what was expected and what was found.
//!
//! Tools take dates as [`Day`] arguments: a `Day<arg::StartDate>` decodes from `YYYY-MM-DD` and
//! its decoding error *is* the friendly sentence ("start_date must be YYYY-MM-DD, got `x`"), which
//! the server passes on unchanged (see `crate::tool_error::explain_decode_error`). The latest day
//! depends on today, which the server pins for the call in progress ([`with_today`]). Ranges are
//! checked once by [`DateRange`] and [`date_range`]; a named period is a [`Period`].

use std::fmt;
use std::marker::PhantomData;

use chrono::{Datelike as _, NaiveDate};
use rmcp::schemars;
use serde::{Deserialize, Deserializer};

use crate::tool_error::ToolError;

tokio::task_local! {
    /// Today for the tool call in progress (the server's, pinned in tests by
    /// `ServerOptions::today`), so a date argument's decoding knows the latest day it may name.
    static TODAY: NaiveDate;
}

/// Runs one tool call with `today` as the day its date arguments are checked against.
pub(crate) async fn with_today<F: std::future::Future>(today: NaiveDate, call: F) -> F::Output {
    TODAY.scope(today, call).await
}

/// Today for the call in progress; outside a tool call, the machine's local day (as the server's
/// own `today` without a pinned day).
fn today_of_call() -> NaiveDate {
    TODAY.try_with(|today| *today).unwrap_or_else(|_| chrono::Local::now().date_naive())
}

/// The name of a date argument, as the tool's schema spells it: the type parameter of [`Day`],
/// so its decoding error can name the argument.
pub trait ArgName {
    /// The argument's name.
    const NAME: &'static str;
}

/// The names of the tools' date arguments (one marker type each).
pub mod arg {
    macro_rules! arg_names {
        ($($ty:ident = $name:literal),* $(,)?) => {
            $(
                #[doc = concat!("The argument `", $name, "`.")]
                #[derive(Clone, Copy, Debug, PartialEq, Eq)]
                pub struct $ty;
                impl super::ArgName for $ty {
                    const NAME: &'static str = $name;
                }
            )*
        };
    }
    arg_names!(
        Date = "date",
        StartDate = "start_date",
        EndDate = "end_date",
        FirstStart = "first_start",
        FirstEnd = "first_end",
        SecondStart = "second_start",
        SecondEnd = "second_end",
    );
}

/// One calendar day given as a tool argument (`YYYY-MM-DD`, between [`EARLIEST_DAY`] and
/// [`latest_day`]); `N` names the argument in the error.
pub struct Day<N> {
    day: NaiveDate,
    name: PhantomData<N>,
}

impl<N> Day<N> {
    /// The day given.
    pub(crate) fn day(&self) -> NaiveDate {
        self.day
    }

    /// A day as if it had been given (for a tool calling another's computation, and tests).
    pub(crate) fn of(day: NaiveDate) -> Day<N> {
        Day { day, name: PhantomData }
    }
}

impl<N> Clone for Day<N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<N> Copy for Day<N> {}

impl<N> PartialEq for Day<N> {
    fn eq(&self, other: &Self) -> bool {
        self.day == other.day
    }
}

impl<N: ArgName> fmt::Debug for Day<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", N::NAME, self.day)
    }
}

/// Written as given (`YYYY-MM-DD`), so a schema can show an absent day's default (`null`).
impl<N> serde::Serialize for Day<N> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.day)
    }
}

impl<'de, N: ArgName> Deserialize<'de> for Day<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        parse_date(N::NAME, &text, today_of_call())
            .map(Day::of)
            .map_err(|e| serde::de::Error::custom(e.message()))
    }
}

impl<N> schemars::JsonSchema for Day<N> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Day".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "format": "date" })
    }
}

/// For `#[serde(default, deserialize_with = "blank_is_none")]` on an optional [`Day`]: a blank
/// string is the argument not given (as clients send for an untouched form field).
pub(crate) fn blank_is_none<'de, D, N>(deserializer: D) -> Result<Option<Day<N>>, D::Error>
where
    D: Deserializer<'de>,
    N: ArgName,
{
    let text = Option::<String>::deserialize(deserializer)?;
    text.filter(|t| !t.trim().is_empty())
        .map(|t| parse_date(N::NAME, &t, today_of_call()).map(Day::of))
        .transpose()
        .map_err(|e| serde::de::Error::custom(e.message()))
}

/// The day of an optional [`Day`] argument.
pub(crate) fn day_of<N>(arg: Option<Day<N>>) -> Option<NaiveDate> {
    arg.map(|d| d.day())
}

/// A named period (`get_period_stats`'s `period`): a calendar week (Monday to Sunday), month or
/// year, the whole account, or a custom range. Decoding refuses other words with one sentence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Period {
    /// Monday to Sunday.
    #[default]
    Week,
    /// A calendar month.
    Month,
    /// A calendar year.
    Year,
    /// The whole account.
    All,
    /// `start_date` to `end_date`.
    Custom,
}

impl Period {
    /// Every period, in the order the schema lists them.
    const ALL: [Period; 5] = [Period::Week, Period::Month, Period::Year, Period::All, Period::Custom];

    /// The period a word names (any case, spaces around ignored).
    pub(crate) fn parse(text: &str) -> Result<Period, ToolError> {
        let word = text.trim().to_lowercase();
        Period::ALL.into_iter().find(|p| p.name() == word).ok_or_else(|| {
            ToolError::invalid(format!("period must be week, month, year, all or custom, got `{text}`"))
        })
    }

    /// Its word.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Period::Week => "week",
            Period::Month => "month",
            Period::Year => "year",
            Period::All => "all",
            Period::Custom => "custom",
        }
    }
}

impl serde::Serialize for Period {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Period {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Period::parse(&text).map_err(|e| serde::de::Error::custom(e.message()))
    }
}

impl schemars::JsonSchema for Period {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Period".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let words: Vec<&str> = Period::ALL.iter().map(|p| p.name()).collect();
        schemars::json_schema!({ "type": "string", "enum": words })
    }
}

/// The Monday of the calendar week (Monday to Sunday, as Garmin Connect's weekly views count it)
/// holding `day`: the one home of "the week's first day" for weekly buckets, charts and prompts.
pub(crate) fn monday_of(day: NaiveDate) -> NaiveDate {
    day - chrono::Duration::days(i64::from(day.weekday().num_days_from_monday()))
}

/// The earliest day a date argument may name: Garmin has nothing recorded before 1990.
pub(crate) const EARLIEST_DAY: NaiveDate = match NaiveDate::from_ymd_opt(1990, 1, 1) {
    Some(day) => day,
    None => NaiveDate::MIN,
};

/// The latest day a date argument may name: 31 December of next year (Garmin has nothing later,
/// and nothing can be planned further ahead).
pub(crate) fn latest_day(today: NaiveDate) -> NaiveDate {
    NaiveDate::from_ymd_opt(today.year().saturating_add(1), 12, 31).unwrap_or(today)
}

/// The one parser of every date argument: `YYYY-MM-DD` between [`EARLIEST_DAY`] and
/// [`latest_day`], so no date arithmetic downstream can overflow. The error names the argument,
/// what was expected and what was found.
pub(crate) fn parse_date(name: &str, text: &str, today: NaiveDate) -> Result<NaiveDate, ToolError> {
    let shown: String = text.chars().take(40).collect();
    let day = NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
        .map_err(|_| ToolError::invalid(format!("{name} must be YYYY-MM-DD, got `{shown}`")))?;
    let latest = latest_day(today);
    if day < EARLIEST_DAY || day > latest {
        return Err(ToolError::invalid(format!(
            "{name} must be a day between {EARLIEST_DAY} and {latest} (Garmin has nothing outside those \
             dates), got `{shown}`"
        )));
    }
    Ok(day)
}

/// An optional date argument (absent or blank: `None`), parsed as [`parse_date`] does.
pub(crate) fn parse_opt_date(
    name: &str,
    text: Option<&str>,
    today: NaiveDate,
) -> Result<Option<NaiveDate>, ToolError> {
    text.filter(|t| !t.trim().is_empty()).map(|t| parse_date(name, t, today)).transpose()
}

/// A checked range of days from `start` to `end`, both included: the one place that refuses an
/// end before the start, with the same sentence for every tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DateRange {
    /// The first day.
    pub start: NaiveDate,
    /// The last day (on or after `start`).
    pub end: NaiveDate,
}

impl DateRange {
    /// The range from `start` to `end`; an error naming both when `end` is before `start`.
    pub(crate) fn new(start: NaiveDate, end: NaiveDate) -> Result<DateRange, ToolError> {
        if end < start {
            return Err(ToolError::invalid(format!("end_date {end} is before start_date {start}")));
        }
        Ok(DateRange { start, end })
    }

    /// How many days it covers, both ends included.
    pub(crate) fn days(self) -> i64 {
        (self.end - self.start).num_days() + 1
    }
}

/// A range from optional `start_name`/`end_name` arguments: the end defaults to yesterday (the
/// last day the history can hold), the start to `default_days` before it; at most `max_days`.
pub(crate) fn date_range(
    today: NaiveDate,
    (start_name, start): (&str, Option<NaiveDate>),
    (end_name, end): (&str, Option<NaiveDate>),
    default_days: i64,
    max_days: i64,
) -> Result<(NaiveDate, NaiveDate), ToolError> {
    let end = end.unwrap_or(today - chrono::Duration::days(1));
    if end > today {
        return Err(ToolError::invalid(format!(
            "{end_name} {end} is after today ({today}): the history holds past days only"
        )));
    }
    let start = start.unwrap_or(end - chrono::Duration::days(default_days - 1));
    if end < start {
        return Err(ToolError::invalid(format!("{end_name} {end} is before {start_name} {start}")));
    }
    if (end - start).num_days() + 1 > max_days {
        return Err(ToolError::invalid(format!(
            "{start_name} to {end_name} spans more than {max_days} days ({start} to {end}); ask for a shorter range"
        )));
    }
    Ok((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn the_week_starts_on_the_monday_at_or_before_the_day_across_a_year_end() {
        assert_eq!(monday_of(d("2026-11-30")), d("2026-11-30")); // a Monday
        assert_eq!(monday_of(d("2026-12-06")), d("2026-11-30")); // its Sunday
        assert_eq!(monday_of(d("2027-01-01")), d("2026-12-28")); // a Friday after New Year
    }

    #[test]
    fn a_range_ending_before_it_starts_is_refused_naming_both_days() {
        let err = DateRange::new(d("2026-11-10"), d("2026-11-09")).unwrap_err();
        assert_eq!(err.message(), "end_date 2026-11-09 is before start_date 2026-11-10");
        let one_day = DateRange::new(d("2026-11-10"), d("2026-11-10")).unwrap();
        assert_eq!(one_day.days(), 1);
    }

    #[test]
    fn dates_outside_what_garmin_can_have_are_refused_with_the_argument_named() {
        let today = d("2026-12-01");
        assert_eq!(parse_date("date", "2026-12-31", today).unwrap(), d("2026-12-31"));
        let err = parse_date("start_date", "1989-12-31", today).unwrap_err();
        assert!(
            err.message().starts_with("start_date must be a day between 1990-01-01 and 2027-12-31"),
            "{}",
            err.message()
        );
        let err = parse_date("date", "yesterday", today).unwrap_err();
        assert_eq!(err.message(), "date must be YYYY-MM-DD, got `yesterday`");
        assert_eq!(parse_opt_date("date", Some("  "), today).unwrap(), None);
    }

    #[derive(Debug, Deserialize)]
    struct Args {
        #[serde(default, deserialize_with = "blank_is_none")]
        start_date: Option<Day<arg::StartDate>>,
        #[serde(default)]
        date: Option<Day<arg::Date>>,
    }

    fn decode(value: serde_json::Value) -> Result<Args, String> {
        serde_json::from_value::<Args>(value).map_err(|e| e.to_string())
    }

    #[tokio::test]
    async fn a_day_argument_decodes_with_the_friendly_sentence_naming_it() {
        let today = d("2026-12-01");
        let args = with_today(today, async { decode(serde_json::json!({"start_date": "2026-11-03"})) }).await;
        assert_eq!(args.unwrap().start_date.map(|d| d.day()), Some(d("2026-11-03")));
        let err = with_today(today, async { decode(serde_json::json!({"start_date": "next week"})) }).await;
        assert_eq!(err.unwrap_err(), "start_date must be YYYY-MM-DD, got `next week`");
        let args = with_today(today, async { decode(serde_json::json!({"date": "2027-12-31"})) }).await;
        assert_eq!(args.unwrap().date.map(|d| d.day()), Some(d("2027-12-31")));
        let err = with_today(today, async { decode(serde_json::json!({"date": "2028-01-01"})) }).await;
        assert_eq!(
            err.unwrap_err(),
            "date must be a day between 1990-01-01 and 2027-12-31 (Garmin has nothing outside those dates), got `2028-01-01`"
        );
    }

    #[tokio::test]
    async fn the_latest_day_follows_the_calls_today_not_the_machines() {
        let pinned =
            with_today(d("2020-06-01"), async { decode(serde_json::json!({"date": "2022-01-01"})) }).await;
        assert!(pinned.unwrap_err().contains("between 1990-01-01 and 2021-12-31"));
    }

    #[tokio::test]
    async fn a_blank_optional_day_is_not_given_but_a_blank_strict_one_is_refused() {
        let today = d("2026-12-01");
        let args = with_today(today, async { decode(serde_json::json!({"start_date": "  "})) }).await;
        assert!(args.unwrap().start_date.is_none());
        let err = with_today(today, async { decode(serde_json::json!({"date": ""})) }).await;
        assert_eq!(err.unwrap_err(), "date must be YYYY-MM-DD, got ``");
    }

    #[test]
    fn a_day_argument_is_a_string_of_format_date_in_the_schema() {
        let schema = schemars::schema_for!(Option<Day<arg::Date>>);
        let value = schema.as_value();
        assert_eq!(value["format"], "date", "{value}");
        assert_eq!(value["type"], serde_json::json!(["string", "null"]), "{value}");
    }

    #[test]
    fn a_period_decodes_from_its_word_in_any_case_and_refuses_others_with_the_list() {
        let week: Period = serde_json::from_value(serde_json::json!(" Week ")).unwrap();
        assert_eq!(week, Period::Week);
        let err = serde_json::from_value::<Period>(serde_json::json!("fortnight")).unwrap_err();
        assert_eq!(err.to_string(), "period must be week, month, year, all or custom, got `fortnight`");
        let schema = schemars::schema_for!(Period);
        assert_eq!(schema.as_value()["enum"], serde_json::json!(["week", "month", "year", "all", "custom"]));
    }
}
