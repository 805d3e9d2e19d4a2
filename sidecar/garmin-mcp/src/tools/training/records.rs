//! Personal records for `get_personal_records`: Garmin's record type ids as names and sports, each
//! record's value as people write it, which activity names to fetch, and the summary.

use std::collections::BTreeSet;

use garmin::models::records::PersonalRecord;

use super::answer::RecordRow;
use crate::domain::words::thousands;

/// `(name, sport, kind, distance m)` of Garmin's record type ids. 1–4 are documented by the
/// reference; 5–8 and 12 match the fake and other clients; the rest follow Garmin's `prtypes`
/// numbering as other clients report it.
fn record_type(type_id: i64) -> Option<(&'static str, &'static str, Kind, Option<f64>)> {
    use Kind::{Count, Days, Distance, Elevation, Power, Time};
    Some(match type_id {
        1 => ("1 km", "running", Time, Some(1000.0)),
        2 => ("1 mile", "running", Time, Some(1609.344)),
        3 => ("5 km", "running", Time, Some(5000.0)),
        4 => ("10 km", "running", Time, Some(10_000.0)),
        5 => ("half marathon", "running", Time, Some(21_097.5)),
        6 => ("marathon", "running", Time, Some(42_195.0)),
        7 => ("longest run", "running", Distance, None),
        8 => ("longest ride", "cycling", Distance, None),
        9 => ("biggest climb", "cycling", Elevation, None),
        10 => ("best 20 min power", "cycling", Power, None),
        11 => ("40 km ride", "cycling", Time, Some(40_000.0)),
        12 => ("most steps in a day", "steps", Count, None),
        13 => ("most steps in a week", "steps", Count, None),
        14 => ("most steps in a month", "steps", Count, None),
        15 => ("longest goal streak", "steps", Days, None),
        16 => ("current goal streak", "steps", Days, None),
        17 => ("longest swim", "swimming", Distance, None),
        18 => ("100 m swim", "swimming", Time, Some(100.0)),
        19 => ("100 yd swim", "swimming", Time, Some(91.44)),
        20 => ("400 m swim", "swimming", Time, Some(400.0)),
        21 => ("500 yd swim", "swimming", Time, Some(457.2)),
        22 => ("750 m swim", "swimming", Time, Some(750.0)),
        23 => ("1000 m swim", "swimming", Time, Some(1000.0)),
        24 => ("1500 m swim", "swimming", Time, Some(1500.0)),
        25 => ("1 mile swim (1650 yd)", "swimming", Time, Some(1508.76)),
        _ => return None,
    })
}

/// What a record's value measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Time,
    Distance,
    Elevation,
    Power,
    Count,
    Days,
}

/// The sport of an activity type key (`trail_running` → `running`).
fn sport_of_activity_type(key: &str) -> &'static str {
    let key = key.to_lowercase();
    if key.contains("run") {
        "running"
    } else if key.contains("cycl") || key.contains("bik") || key.contains("ride") {
        "cycling"
    } else if key.contains("swim") {
        "swimming"
    } else if key.contains("strength") {
        "strength"
    } else {
        "other"
    }
}

pub(super) fn record_row(pr: &PersonalRecord) -> Option<RecordRow> {
    let type_id = pr.type_id?;
    let value = pr.value.filter(|v| v.is_finite())?;
    let known = record_type(type_id);
    let sport = match known {
        Some((_, sport, _, _)) => sport.to_owned(),
        None => pr.activity_type.as_deref().map_or("other", sport_of_activity_type).to_owned(),
    };
    let mut row = RecordRow {
        record: known.map_or_else(|| format!("record type {type_id}"), |k| k.0.to_owned()),
        type_id,
        sport,
        date: pr.pr_start_time_local.map(|t| t.date()).or_else(|| pr.date()).map(|d| d.to_string()),
        activity_id: pr.activity_id.filter(|id| *id > 0),
        activity_name: pr.activity_name.clone().filter(|n| !n.trim().is_empty()),
        ..RecordRow::default()
    };
    match known.map(|k| (k.2, k.3)) {
        Some((Kind::Time, metres)) => {
            row.value = display::duration(value);
            row.time_s = Some((value * 10.0).round() / 10.0);
            row.pace = metres.filter(|_| value > 0.0).and_then(|m| {
                if row.sport == "swimming" {
                    display::pace_per_100m(m / value).map(|p| format!("{p}/100m"))
                } else {
                    display::pace_per_km(m / value).map(|p| format!("{p}/km"))
                }
            });
        }
        Some((Kind::Distance, _)) => {
            let km = display::km(value);
            row.value = format!("{km:.2} km");
            row.distance_km = Some(km);
        }
        Some((Kind::Elevation, _)) => row.value = format!("{value:.0} m"),
        Some((Kind::Power, _)) => row.value = format!("{value:.0} W"),
        Some((Kind::Count, _)) => row.value = format!("{} steps", thousands(value.max(0.0).round() as u64)),
        Some((Kind::Days, _)) => row.value = format!("{value:.0} days"),
        None => row.value = format!("{}", (value * 1000.0).round() / 1000.0),
    }
    Some(row)
}

/// Activity ids whose names Garmin left out, each once.
pub fn names_to_fetch(rows: &[RecordRow]) -> BTreeSet<u64> {
    rows.iter().filter(|r| r.activity_name.is_none()).filter_map(|r| r.activity_id).collect()
}

pub(super) fn sport_rank(sport: &str) -> u8 {
    match sport {
        "running" => 0,
        "cycling" => 1,
        "swimming" => 2,
        "strength" => 3,
        "steps" => 4,
        _ => 5,
    }
}

pub(super) fn records_summary(rows: &[RecordRow]) -> String {
    let mut by_sport: Vec<(String, Vec<String>)> = Vec::new();
    for r in rows {
        let item = match &r.date {
            Some(d) => format!("{} {} ({d})", r.record, r.value),
            None => format!("{} {}", r.record, r.value),
        };
        match by_sport.last_mut() {
            Some((sport, items)) if *sport == r.sport => items.push(item),
            _ => by_sport.push((r.sport.clone(), vec![item])),
        }
    }
    let parts: Vec<String> = by_sport
        .into_iter()
        .map(|(sport, items)| {
            let mut name = sport;
            if let Some(first) = name.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            format!("{name}: {}", items.join(", "))
        })
        .collect();
    format!("{} personal records. {}.", rows.len(), parts.join(". "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_record_types_are_kept_and_names_are_fetched_once_per_activity() {
        let pr = |type_id: i64, activity: u64, name: Option<&str>| PersonalRecord {
            type_id: Some(type_id),
            activity_id: Some(activity),
            activity_name: name.map(str::to_owned),
            value: Some(1234.5),
            ..PersonalRecord::default()
        };
        let rows: Vec<RecordRow> = [pr(3, 7, None), pr(4, 7, None), pr(99, 8, Some("Ride")), pr(12, 0, None)]
            .iter()
            .filter_map(record_row)
            .collect();
        assert_eq!(rows[2].record, "record type 99");
        assert_eq!(rows[0].value, "20:35");
        assert_eq!(rows[3].activity_id, None, "day-based records have no activity");
        assert_eq!(names_to_fetch(&rows).into_iter().collect::<Vec<_>>(), vec![7]);
    }
}
