//! The intraday timelines of a day in `get_daily_health` (`detail=full`): the night's sleep stages,
//! merged down to a readable number of segments, and the hour-by-hour stress and Body Battery.

use chrono::{Duration, NaiveDate, Timelike};
use garmin::models::wellness::{DailyStress, Sleep};

use super::MAX_SLEEP_SEGMENTS;
use super::answer::{SleepSegment, StressHour};
use crate::domain::sleep::sleep_stage_spans;
use crate::domain::words::whole;

/// The night's stage timeline: consecutive same-stage stretches merged, then the shortest
/// segments folded into their longer neighbour until at most [`MAX_SLEEP_SEGMENTS`] remain.
pub fn sleep_timeline(sleep: &Sleep, offset: Duration) -> Vec<SleepSegment> {
    sleep_stage_spans(sleep, offset, MAX_SLEEP_SEGMENTS)
        .into_iter()
        .map(|(start, end, level)| SleepSegment {
            start: start.format("%H:%M").to_string(),
            stage: stage_name(level).to_owned(),
            min: ((end - start).num_seconds() as f64 / 60.0).round() as u64,
        })
        .collect()
}

/// Hour-by-hour stress and Body Battery of `date` from the day's 3-minute series.
pub(super) fn hourly(series: &DailyStress, date: NaiveDate, offset: Duration) -> Vec<StressHour> {
    let mut hours: Vec<(Vec<f64>, Option<f64>)> = vec![(Vec::new(), None); 24];
    let hour_of = |at: chrono::DateTime<chrono::Utc>| {
        let local = at.naive_utc() + offset;
        (local.date() == date).then(|| local.hour() as usize)
    };
    for p in series.stress_points() {
        if let Some(h) = hour_of(p.at) {
            hours[h].0.push(p.value);
        }
    }
    let mut battery = series.body_battery_points();
    battery.sort_by_key(|p| p.at);
    for p in battery {
        if let Some(h) = hour_of(p.at) {
            hours[h].1 = Some(p.value);
        }
    }
    hours
        .into_iter()
        .enumerate()
        .filter(|(_, (stress, bb))| !stress.is_empty() || bb.is_some())
        .map(|(h, (stress, bb))| StressHour {
            hour: format!("{h:02}:00"),
            avg: (!stress.is_empty())
                .then(|| stress.iter().sum::<f64>() / stress.len() as f64)
                .and_then(whole),
            max: stress.iter().copied().reduce(f64::max).and_then(whole),
            body_battery: bb.and_then(whole),
        })
        .collect()
}

fn stage_name(level: u8) -> &'static str {
    match level {
        0 => "deep",
        1 => "light",
        2 => "rem",
        _ => "awake",
    }
}
