//! The demo athlete's Garmin Coach plan: an adaptive marathon plan leading to the calendar's
//! primary race ("Example Big City Marathon", [`super::events::seeded`]), begun three weeks before
//! the current week, with four plan workouts a week (intervals Tuesday, base run Wednesday, tempo
//! Friday, long run Sunday) on the days the athlete runs ([`super::plan`]), from its first day to
//! the end of next week.
//!
//! Consistent with the activities: a plan workout is done when the athlete ran that day; the
//! days the year skipped (about one in ten) are missed, and so is the first week's extra
//! "Benchmark Run" on Thursday (Garmin Coach opens with benchmark runs, per the live plan below;
//! the athlete swam that day and ran no other free day that week); and in the plan's second week
//! the long run was planned on Saturday (the athlete rides on Saturdays and ran long on Sunday as
//! always: a workout done on another day than planned).
//!
//! Shapes (`routes/workouts.rs`): the list entry and the `fbt-adaptive/{id}` detail follow a
//! public design note built on a HAR capture of the web app (2026, medium confidence);
//! `trainingPlanDetailsDTO {athleteRace {raceDay, raceName, raceUrl}, workoutsPerWeek,
//! remainingAtpWorkoutsForWeek, registrationDate, planCompleted, workoutPlanTypeId}` follows a
//! live adaptive plan of 2026-09-19 pinned in a garmin_mcp fork's tests (high confidence).

use chrono::{Datelike, Duration, NaiveDate, Weekday};

use super::rng::Rng;

/// The plan's id (`trainingPlanId`, also `athletePlanId`).
pub const PLAN_ID: u64 = 71_000_001;

/// The plan's first week begins this many weeks before the current week's Monday.
pub const WEEKS_BEFORE: i64 = 3;

/// One plan workout on its day.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// The day it is planned on.
    pub date: NaiveDate,
    /// Plan week, 1-based.
    pub week: i64,
    /// `workoutUuid`.
    pub uuid: String,
    /// `workoutName`.
    pub name: &'static str,
    /// `workoutDescription`.
    pub description: &'static str,
    /// Garmin's estimates: seconds, metres.
    pub duration_s: f64,
    /// Distance, m.
    pub distance_m: f64,
    /// `trainingEffectLabel`.
    pub effect: &'static str,
}

/// The plan.
#[derive(Clone, Debug, PartialEq)]
pub struct CoachPlan {
    /// First day (a Monday).
    pub start: NaiveDate,
    /// Race day (the plan's last day).
    pub race_day: NaiveDate,
    /// The race's name.
    pub race_name: String,
    /// `registrationDate`.
    pub registered: NaiveDate,
    /// The plan workouts, by day.
    pub tasks: Vec<Task>,
}

/// The plan for a data set whose "today" is `today` and whose goal race is `race_name` on
/// `race_day`.
pub fn plan(seed: u64, today: NaiveDate, race_day: NaiveDate, race_name: &str) -> CoachPlan {
    let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
    let start = monday - Duration::weeks(WEEKS_BEFORE);
    let last = monday + Duration::days(13);
    let mut rng = Rng::derive(seed, 0xC0AC);
    let mut tasks = Vec::new();
    for day in super::clock::days(start, last) {
        let week = (day - start).num_days() / 7 + 1;
        let Some((name, description, duration_s, distance_m, effect)) = workout_on(day, week) else {
            continue;
        };
        tasks.push(Task {
            date: day,
            week,
            uuid: rng.uuid(),
            name,
            description,
            duration_s,
            distance_m,
            effect,
        });
    }
    CoachPlan {
        start,
        race_day,
        race_name: race_name.to_owned(),
        registered: start - Duration::days(1),
        tasks,
    }
}

/// The plan workout of `day` in plan week `week`, if any.
fn workout_on(day: NaiveDate, week: i64) -> Option<(&'static str, &'static str, f64, f64, &'static str)> {
    const INTERVALS: (&str, &str, f64, f64, &str) = ("Intervals", "6x3:00@4:20/km", 3300.0, 9000.0, "VO2MAX");
    const BASE: (&str, &str, f64, f64, &str) = ("Base", "6:00/km", 2400.0, 6000.0, "AEROBIC_BASE");
    const TEMPO: (&str, &str, f64, f64, &str) = ("Tempo", "25:00@4:45/km", 3000.0, 8500.0, "TEMPO");
    const LONG: (&str, &str, f64, f64, &str) =
        ("Long Run", "16 km@6:10/km", 5400.0, 16_000.0, "AEROBIC_BASE");
    const BENCHMARK: (&str, &str, f64, f64, &str) =
        ("Benchmark Run", "20:00 steady", 1800.0, 5000.0, "AEROBIC_BASE");
    let long_on_saturday = week == 2;
    Some(match day.weekday() {
        Weekday::Thu if week == 1 => BENCHMARK,
        Weekday::Tue => INTERVALS,
        Weekday::Wed => BASE,
        Weekday::Fri => TEMPO,
        Weekday::Sat if long_on_saturday => LONG,
        Weekday::Sun if !long_on_saturday => LONG,
        _ => return None,
    })
}

impl CoachPlan {
    /// The phases: base to the end of the current week, build, peak (five to three weeks out),
    /// taper (the last two weeks) and the race day; `today` marks the current one.
    pub fn phases(&self, today: NaiveDate) -> Vec<(NaiveDate, NaiveDate, &'static str)> {
        let base_end = today + Duration::days(6 - i64::from(today.weekday().num_days_from_monday()));
        let taper = self.race_day - Duration::days(14);
        let peak = self.race_day - Duration::days(35);
        vec![
            (self.start, base_end, "BASE"),
            (base_end + Duration::days(1), peak - Duration::days(1), "BUILD"),
            (peak, taper - Duration::days(1), "PEAK"),
            (taper, self.race_day - Duration::days(1), "TAPER"),
            (self.race_day, self.race_day, "TARGET_EVENT_DAY"),
        ]
    }
}
