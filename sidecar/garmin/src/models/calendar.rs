//! The calendar feed (`calendar-service/year/{Y}/month/{M0}`): activities, scheduled workouts,
//! events and plan entries by day.
//!
//! Garmin numbers months from 0 and includes the neighbouring weeks, so an item shows up in two
//! months' feeds: [`dedupe_items`] keeps each id once (Taxuspt/garmin_mcp #86).

use std::collections::HashSet;

use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};

use super::de;
use super::events::CompletionTarget;

/// A month (or week) of the calendar feed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CalendarMonth {
    /// Month as Garmin numbers it (0 = January).
    #[serde(deserialize_with = "de::int")]
    pub month: Option<i64>,
    /// Year.
    #[serde(deserialize_with = "de::int")]
    pub year: Option<i64>,
    /// First day shown (week feeds).
    #[serde(deserialize_with = "de::date")]
    pub start_date: Option<NaiveDate>,
    /// Last day shown (week feeds).
    #[serde(deserialize_with = "de::date")]
    pub end_date: Option<NaiveDate>,
    /// The items, neighbouring weeks included.
    #[serde(deserialize_with = "de::vec")]
    pub calendar_items: Vec<CalendarItem>,
}

/// One calendar entry.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CalendarItem {
    /// Item id: the activity id for activities, the `workoutScheduleId` for scheduled workouts,
    /// the event id for events.
    #[serde(deserialize_with = "de::id")]
    pub id: Option<u64>,
    /// `activity`, `workout`, `event`, `fbtAdaptiveWorkout`, `goal`…
    pub item_type: Option<String>,
    /// Title.
    pub title: Option<String>,
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub date: Option<NaiveDate>,
    /// Activity type id (activities).
    #[serde(deserialize_with = "de::int")]
    pub activity_type_id: Option<i64>,
    /// Sport key (workouts).
    #[serde(deserialize_with = "de::text")]
    pub sport_type_key: Option<String>,
    /// Library workout (scheduled workouts).
    #[serde(deserialize_with = "de::id")]
    pub workout_id: Option<u64>,
    /// Duration in **milliseconds** (as the month feed sends it for activities).
    pub duration: Option<f64>,
    /// Distance (m).
    pub distance: Option<f64>,
    /// Calories (kcal).
    pub calories: Option<f64>,
    /// Average heart rate (bpm).
    #[serde(rename = "averageHR")]
    pub average_hr: Option<f64>,
    /// Start (local).
    #[serde(deserialize_with = "de::local")]
    pub start_timestamp_local: Option<NaiveDateTime>,
    /// Whether the event is a race.
    #[serde(deserialize_with = "de::flag")]
    pub is_race: Option<bool>,
    /// Catalogue event uuid.
    pub shareable_event_uuid: Option<String>,
    /// Event distance.
    pub completion_target: Option<CompletionTarget>,
}

/// Keeps the first item of each id (items without an id are keyed by type, day and title), then
/// orders them by day (stable, undated last).
pub fn dedupe_items(items: impl IntoIterator<Item = CalendarItem>) -> Vec<CalendarItem> {
    let mut seen_ids = HashSet::new();
    let mut seen_keys = HashSet::new();
    let mut out: Vec<CalendarItem> = items
        .into_iter()
        .filter(|item| match item.id {
            Some(id) => seen_ids.insert(id),
            None => seen_keys.insert((item.item_type.clone(), item.date, item.title.clone())),
        })
        .collect();
    out.sort_by_key(|item| (item.date.is_none(), item.date));
    out
}

/// Garmin's 0-based month from a 1–12 month; `None` outside 1–12.
pub fn month0(month: u32) -> Option<u32> {
    (1..=12).contains(&month).then(|| month - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(id: Option<u64>, day: u32, title: &str) -> CalendarItem {
        CalendarItem {
            id,
            title: Some(title.into()),
            date: NaiveDate::from_ymd_opt(2026, 11, day),
            item_type: Some("workout".into()),
            ..Default::default()
        }
    }

    #[test]
    fn items_repeated_across_months_are_kept_once_in_day_order() {
        let october_feed = vec![item(Some(7), 2, "Tempo"), item(Some(5), 1, "Long run")];
        let november_feed = vec![item(Some(5), 1, "Long run"), item(None, 3, "Race"), item(None, 3, "Race")];
        let merged = dedupe_items(october_feed.into_iter().chain(november_feed));
        let titles: Vec<_> = merged.iter().map(|i| i.title.as_deref().unwrap_or_default()).collect();
        assert_eq!(titles, ["Long run", "Tempo", "Race"]);
    }

    #[test]
    fn months_become_zero_based() {
        assert_eq!(month0(1), Some(0));
        assert_eq!(month0(12), Some(11));
        assert_eq!(month0(0), None);
        assert_eq!(month0(13), None);
    }
}
