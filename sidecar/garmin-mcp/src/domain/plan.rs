//! Plan against actual: the workouts scheduled on Garmin's calendar matched with the activities
//! done on the same days, each match coloured by `analytics::compare::plan_vs_actual` (issue #16
//! §4: 80–120 % of the planned time green, 50–79 % or 121–150 % yellow, otherwise red).
//!
//! Matching, per day: a scheduled workout takes an activity of the same sport family done that
//! day (`Family`: a run workout takes a trail or treadmill run, never a ride); with several
//! candidates, the one whose time is closest to the plan; the workouts with the longest plan
//! choose first. What no workout takes is *unplanned*; a past workout nothing took is *missed*
//! (red, 0 %); one planned for today and not done yet is *pending* (no colour). The comparison is
//! on time when the workout's preview gives a planned time, on distance otherwise.

use analytics::compare::{Compliance, PlanCheck, plan_vs_actual};
use chrono::NaiveDate;

use crate::domain::activity::Family;
use crate::domain::reading::Reading;

/// A workout on the calendar, with its planned totals (from the workout preview).
#[derive(Clone, Debug, PartialEq)]
pub struct Planned {
    /// The day it is scheduled on.
    pub date: NaiveDate,
    /// Garmin's `workoutScheduleId` (the calendar item id), when known.
    pub schedule_id: Option<u64>,
    /// The library workout, when known.
    pub workout_id: Option<u64>,
    /// Its name.
    pub name: String,
    /// Its sport family.
    pub family: Family,
    /// Planned time, s (estimated by the preview when the steps need it).
    pub duration_s: Option<f64>,
    /// Planned distance, m.
    pub distance_m: Option<f64>,
    /// Whether the preview's totals lean on assumptions.
    pub estimated: bool,
}

/// An activity done.
#[derive(Clone, Debug, PartialEq)]
pub struct Done {
    /// The local day it started.
    pub date: NaiveDate,
    /// Garmin's activity id.
    pub activity_id: u64,
    /// Its name.
    pub name: String,
    /// Garmin's type key, e.g. `trail_running`.
    pub type_key: Option<String>,
    /// Its sport family.
    pub family: Family,
    /// Time, s.
    pub duration_s: f64,
    /// Distance, m.
    pub distance_m: Option<f64>,
}

/// What became of a planned workout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// An activity of its sport was done that day.
    Done,
    /// Nothing of its sport was done on a day that is over.
    Missed,
    /// Planned for today and not done yet.
    Pending,
    /// Not done on its day but on another day of the same week (Garmin Coach plans,
    /// [`crate::domain::coach_plan::mark_moved`]).
    Moved,
}

/// What the comparison is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Basis {
    /// Planned time against the activity's time.
    Time,
    /// Planned distance against the activity's distance (the workout has no planned time).
    Distance,
}

/// One planned workout and what was done for it.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The workout.
    pub planned: Planned,
    /// The activity that took it, if any.
    pub done: Option<Done>,
    /// Done, missed or pending.
    pub outcome: Outcome,
    /// What the percentage compares, when the workout has a planned amount.
    pub basis: Option<Basis>,
    /// The percentage and colour (none while pending or without a planned amount).
    pub check: Option<PlanCheck>,
}

/// The whole comparison of a range.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlanComparison {
    /// Every planned workout, by day (then as scheduled).
    pub workouts: Vec<Checked>,
    /// Activities no workout took, by day.
    pub unplanned: Vec<Done>,
}

impl PlanComparison {
    /// Workouts of each colour: (green, yellow, red), missed ones counted red.
    pub fn colours(&self) -> (usize, usize, usize) {
        let count = |c: Compliance| {
            self.workouts.iter().filter(|w| w.check.as_ref().is_some_and(|k| k.compliance == c)).count()
        };
        (count(Compliance::Green), count(Compliance::Yellow), count(Compliance::Red))
    }

    /// Workouts with `outcome`.
    pub fn count(&self, outcome: Outcome) -> usize {
        self.workouts.iter().filter(|w| w.outcome == outcome).count()
    }
}

/// Matches `planned` workouts with the activities `done` (see the module doc); `today`'s
/// workouts without an activity are pending, not missed.
pub fn compare_plan(mut planned: Vec<Planned>, mut done: Vec<Done>, today: NaiveDate) -> PlanComparison {
    planned.sort_by_key(|p| p.date);
    done.sort_by_key(|d| d.date);
    let mut taken = vec![false; done.len()];
    // Longest plans choose first; ties keep the calendar's order.
    let mut order: Vec<usize> = (0..planned.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |p: &Planned| p.duration_s.unwrap_or(0.0);
        planned[a].date.cmp(&planned[b].date).then(key(&planned[b]).total_cmp(&key(&planned[a])))
    });
    let mut chosen: Vec<Option<usize>> = vec![None; planned.len()];
    for i in order {
        let p = &planned[i];
        let best = done
            .iter()
            .enumerate()
            .filter(|(j, d)| !taken[*j] && d.date == p.date && d.family == p.family)
            .min_by(|(_, a), (_, b)| {
                let off = |d: &Done| p.duration_s.map_or(0.0, |s| (d.duration_s - s).abs());
                off(a).total_cmp(&off(b))
            })
            .map(|(j, _)| j);
        if let Some(j) = best {
            taken[j] = true;
            chosen[i] = Some(j);
        }
    }
    let workouts = planned
        .into_iter()
        .zip(chosen)
        .map(|(p, j)| {
            let activity = j.and_then(|j| done.get(j)).cloned();
            checked(p, activity, today)
        })
        .collect();
    let unplanned = done.into_iter().zip(taken).filter(|(_, t)| !t).map(|(d, _)| d).collect();
    PlanComparison { workouts, unplanned }
}

pub(crate) fn checked(planned: Planned, done: Option<Done>, today: NaiveDate) -> Checked {
    let outcome = match &done {
        Some(_) => Outcome::Done,
        None if planned.date >= today => Outcome::Pending,
        None => Outcome::Missed,
    };
    let (basis, amounts) = match (planned.duration_s, planned.distance_m) {
        (Some(s), _) if s > 0.0 => {
            (Some(Basis::Time), Some((s, done.as_ref().map_or(0.0, |d| d.duration_s))))
        }
        (_, Some(m)) if m > 0.0 => {
            (Some(Basis::Distance), Some((m, done.as_ref().and_then(|d| d.distance_m).unwrap_or(0.0))))
        }
        _ => (None, None),
    };
    let check = match (outcome, amounts) {
        (Outcome::Pending, _) | (_, None) => None,
        (_, Some((plan, actual))) => plan_vs_actual(plan, actual).ok(),
    };
    Checked { planned, done, outcome, basis, check }
}

/// Most workouts read from the library for one comparison (one request each).
const MAX_WORKOUTS_READ: usize = 30;

/// What Garmin holds for a range: the planned workouts, the activities done, where the
/// activities came from, and the parts that could not be read.
pub(crate) struct PlanInputs {
    pub planned: Vec<Planned>,
    pub done: Vec<Done>,
    pub source: crate::history::DataSource,
    pub missing: Vec<String>,
    /// The library workouts read, by id (their steps, for matching laps to them).
    pub workouts: std::collections::HashMap<u64, garmin::models::workouts::Workout>,
}

/// The scheduled workouts of `start..=end` from Garmin's calendar (one request per month, web
/// session only), their planned totals from each library workout's preview (one request per
/// distinct workout, concurrently; a failed read leaves that workout without totals), and the
/// activities of the range from the local history where it covers it, live otherwise.
pub(crate) async fn plan_inputs(
    reading: &Reading,
    start: NaiveDate,
    end: NaiveDate,
) -> Result<PlanInputs, crate::tool_error::ToolError> {
    let client = reading.reads.web("this tool's data")?.clone();
    let calendar =
        async { Ok::<_, crate::tool_error::ToolError>(client.calendar().items_between(start, end).await?) };
    let activities = async {
        match crate::domain::reading::activities_cache_first(reading, start, end, None).await? {
            Some(found) => Ok(found),
            None => Ok::<_, crate::tool_error::ToolError>((
                reading.reads.activities_between(start, end, None).await?.value,
                crate::history::DataSource::live(),
            )),
        }
    };
    let (items, (summaries, source)) = tokio::try_join!(calendar, activities)?;
    let items: Vec<_> = items.into_iter().filter(|i| i.item_type.as_deref() == Some("workout")).collect();
    let mut ids: Vec<u64> = items.iter().filter_map(|i| i.workout_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut missing = Vec::new();
    if ids.len() > MAX_WORKOUTS_READ {
        missing.push(format!(
                "planned totals: only the first {MAX_WORKOUTS_READ} of {} workouts were read; ask for a shorter range",
                ids.len()
            ));
        ids.truncate(MAX_WORKOUTS_READ);
    }
    let read = futures::future::join_all(ids.iter().map(|&id| {
        let client = client.clone();
        async move { (id, client.workouts().get(id).await) }
    }))
    .await;
    let mut workouts = std::collections::HashMap::new();
    for (id, result) in read {
        match result {
            Ok(w) => {
                workouts.insert(id, w);
            }
            Err(e) => missing.push(format!("workout {id}: {e}")),
        }
    }
    let planned =
        items.iter().filter_map(|i| planned_of(i, i.workout_id.and_then(|id| workouts.get(&id)))).collect();
    let done = summaries.iter().filter_map(done_of).collect();
    Ok(PlanInputs { planned, done, source, missing, workouts })
}

/// A calendar item as a planned workout (its totals from the library workout when read).
fn planned_of(
    item: &garmin::models::calendar::CalendarItem,
    workout: Option<&garmin::models::workouts::Workout>,
) -> Option<Planned> {
    let preview = workout.map(garmin::workout_spec::preview);
    let sport = workout.and_then(|w| w.sport_key()).or(item.sport_type_key.as_deref());
    Some(Planned {
        date: item.date?,
        schedule_id: item.id,
        workout_id: item.workout_id,
        name: item
            .title
            .clone()
            .or_else(|| workout.and_then(|w| w.workout_name.clone()))
            .unwrap_or_else(|| "Workout".to_owned()),
        family: Family::of(sport, None),
        duration_s: preview.as_ref().and_then(|p| p.duration_s),
        distance_m: preview.as_ref().and_then(|p| p.distance_m),
        estimated: preview.is_some_and(|p| p.estimated),
    })
}

/// An activity row as something done.
fn done_of(a: &garmin::models::activities::ActivitySummary) -> Option<Done> {
    Some(Done {
        date: a.start_time_local?.date(),
        activity_id: a.activity_id?,
        name: crate::domain::activity::activity_title(
            a.activity_name.as_deref(),
            a.type_key(),
            a.location_name.as_deref(),
        ),
        type_key: a.type_key().map(str::to_owned),
        family: Family::of_summary(a),
        duration_s: a.duration.unwrap_or(0.0),
        distance_m: a.distance,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    fn plan(d: u32, name: &str, family: Family, minutes: Option<f64>, km: Option<f64>) -> Planned {
        Planned {
            date: day(d),
            schedule_id: None,
            workout_id: None,
            name: name.into(),
            family,
            duration_s: minutes.map(|m| m * 60.0),
            distance_m: km.map(|k| k * 1000.0),
            estimated: false,
        }
    }

    fn did(d: u32, id: u64, family: Family, minutes: f64, km: Option<f64>) -> Done {
        Done {
            date: day(d),
            activity_id: id,
            name: format!("activity {id}"),
            type_key: None,
            family,
            duration_s: minutes * 60.0,
            distance_m: km.map(|k| k * 1000.0),
        }
    }

    #[test]
    fn each_workout_takes_the_same_sport_on_its_day_and_is_coloured_by_time() {
        // 50 min planned, 45 done = 90 % green; 50 planned, 30 done = 60 % yellow; 40 planned,
        // 70 done = 175 % red.
        let planned = vec![
            plan(2, "Tempo", Family::Run, Some(50.0), None),
            plan(3, "Easy", Family::Run, Some(50.0), None),
            plan(4, "Ride", Family::Ride, Some(40.0), None),
        ];
        let done = vec![
            did(2, 1, Family::Run, 45.0, Some(9.0)),
            did(3, 2, Family::Run, 30.0, Some(5.0)),
            did(4, 3, Family::Ride, 70.0, Some(30.0)),
        ];
        let c = compare_plan(planned, done, day(10));
        let percents: Vec<i64> = c.workouts.iter().map(|w| w.check.as_ref().unwrap().percent).collect();
        assert_eq!(percents, vec![90, 60, 175]);
        assert_eq!(c.colours(), (1, 1, 1));
        assert!(c.unplanned.is_empty());
        assert!(c.workouts.iter().all(|w| w.basis == Some(Basis::Time) && w.outcome == Outcome::Done));
    }

    #[test]
    fn a_missed_workout_is_red_at_zero_and_an_activity_of_another_sport_stays_unplanned() {
        let planned = vec![plan(5, "Intervals", Family::Run, Some(60.0), None)];
        let done = vec![did(5, 7, Family::Swim, 40.0, Some(2.0)), did(6, 8, Family::Run, 30.0, None)];
        let c = compare_plan(planned, done, day(10));
        let w = &c.workouts[0];
        assert_eq!(w.outcome, Outcome::Missed);
        assert_eq!(w.check.as_ref().map(|k| (k.percent, k.compliance)), Some((0, Compliance::Red)));
        assert_eq!(c.unplanned.iter().map(|d| d.activity_id).collect::<Vec<_>>(), vec![7, 8]);
        assert_eq!(c.count(Outcome::Missed), 1);
    }

    #[test]
    fn two_workouts_on_one_day_each_take_the_activity_closest_to_their_plan() {
        // A 90 min long run and a 20 min shake-out on the same day; a 25 min and an 85 min run
        // were done: 85/90 = 94 %, 25/20 = 125 % (yellow).
        let planned = vec![
            plan(8, "Shake-out", Family::Run, Some(20.0), None),
            plan(8, "Long run", Family::Run, Some(90.0), None),
        ];
        let done = vec![did(8, 1, Family::Run, 25.0, None), did(8, 2, Family::Run, 85.0, None)];
        let c = compare_plan(planned, done, day(10));
        let got: Vec<(&str, u64, i64)> = c
            .workouts
            .iter()
            .map(|w| {
                (
                    w.planned.name.as_str(),
                    w.done.as_ref().unwrap().activity_id,
                    w.check.as_ref().unwrap().percent,
                )
            })
            .collect();
        assert_eq!(got, vec![("Shake-out", 1, 125), ("Long run", 2, 94)]);
        assert_eq!(c.colours(), (1, 1, 0));
    }

    #[test]
    fn without_a_planned_time_the_distance_is_compared_and_today_is_pending_not_missed() {
        let planned = vec![
            plan(9, "Pool", Family::Swim, None, Some(2.0)),
            plan(10, "Tempo", Family::Run, Some(50.0), None),
        ];
        let done = vec![did(9, 3, Family::Swim, 50.0, Some(1.5))];
        let c = compare_plan(planned, done, day(10));
        assert_eq!(c.workouts[0].basis, Some(Basis::Distance));
        assert_eq!(c.workouts[0].check.as_ref().map(|k| k.percent), Some(75));
        assert_eq!(c.workouts[1].outcome, Outcome::Pending);
        assert!(c.workouts[1].check.is_none(), "a workout still to come today has no colour");
    }
}
