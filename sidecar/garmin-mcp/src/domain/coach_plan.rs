//! Garmin Coach and other training plans, as the tools read them: each plan the athlete follows
//! with its detail (the scheduled plan workouts and phases, `garmin::reads`), and its goal race —
//! name and day from the plan's `athleteRace`, distance and goal time from that day's race event
//! on the calendar (Garmin keeps them there, not on the plan). Used by `get_workouts`,
//! `get_plan_vs_actual` (the plan's compliance) and the `race_readiness` prompt.
//!
//! Failing soft: a plan list or detail that answers 404/204 is "no plan"/"no detail", one plain
//! sentence, never a failed answer.

use chrono::{Datelike, NaiveDate};
use garmin::models::events::Event;
use garmin::models::training_plans::{PlanTask, TrainingPlan};
use garmin::reads::Garmin;

/// A plan with its detail and goal race.
#[derive(Clone, Debug, Default)]
pub struct PlanRead {
    /// The plan: its detail where Garmin gave it, the list entry otherwise.
    pub plan: TrainingPlan,
    /// The goal race, when the plan leads to one.
    pub goal: Option<PlanGoal>,
    /// What could not be read, in one sentence each.
    pub notes: Vec<String>,
}

/// A plan's goal race.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanGoal {
    /// The race's name.
    pub name: String,
    /// Race day.
    pub date: NaiveDate,
    /// Distance, m (from the race's calendar event).
    pub distance_m: Option<f64>,
    /// Goal time, s (the event's custom goal).
    pub goal_s: Option<f64>,
}

/// The plans and why any part is missing.
#[derive(Clone, Debug, Default)]
pub struct Plans {
    /// Each plan, as Garmin listed them.
    pub plans: Vec<PlanRead>,
    /// Why there are none (Garmin answered 404/204), or why they could not be read.
    pub note: Option<String>,
}

/// The plans the athlete follows with their details and goal races. A sign-in failure is an
/// error (the person must act); anything else is a sentence in [`Plans::note`].
pub async fn read_plans(reads: &Garmin) -> Result<Plans, garmin::Error> {
    let listed = match reads.training_plans().await {
        Ok(served) => served.value,
        Err(e) if e.needs_sign_in() => return Err(e),
        Err(e) if e.means_nothing_there() => {
            return Ok(Plans { plans: Vec::new(), note: Some(no_plans_sentence()) });
        }
        Err(e) => {
            return Ok(Plans {
                plans: Vec::new(),
                note: Some(format!("Training plans could not be read: {e}")),
            });
        }
    };
    if listed.is_empty() {
        return Ok(Plans { plans: Vec::new(), note: Some(no_plans_sentence()) });
    }
    let plans = futures::future::join_all(listed.into_iter().map(|p| with_detail(reads, p))).await;
    Ok(Plans { plans, note: None })
}

fn no_detail_sentence(name: &str) -> String {
    format!("Garmin gave no detail for {name} (its scheduled workouts and phases).")
}

/// What to say when Garmin has no plan list for the account.
pub fn no_plans_sentence() -> String {
    "Garmin has no training plan for this account.".to_owned()
}

async fn with_detail(reads: &Garmin, listed: TrainingPlan) -> PlanRead {
    let mut notes = Vec::new();
    let name = plan_name(&listed);
    let plan = match listed.training_plan_id {
        None => listed,
        Some(id) => match reads.training_plan(id, listed.is_adaptive()).await.map(|s| s.value) {
            Ok(Some(detail)) => merged(&listed, detail),
            Ok(None) => {
                notes.push(no_detail_sentence(&name));
                listed
            }
            Err(e) => {
                notes.push(if e.means_nothing_there() {
                    no_detail_sentence(&name)
                } else {
                    format!("The detail of {name} could not be read: {e}.")
                });
                listed
            }
        },
    };
    let goal = match plan.goal_race() {
        Some(race) => goal_of(reads, race.race_name.clone(), race.race_day, &mut notes).await,
        None => None,
    };
    PlanRead { plan, goal, notes }
}

/// The detail, with what only the list entry said kept.
fn merged(listed: &TrainingPlan, mut detail: TrainingPlan) -> TrainingPlan {
    detail.training_plan_id = detail.training_plan_id.or(listed.training_plan_id);
    detail.training_plan_category =
        detail.training_plan_category.or_else(|| listed.training_plan_category.clone());
    if detail.title().is_none() {
        detail.name = listed.title().map(str::to_owned);
    }
    if detail.details.is_none() {
        detail.details = listed.details.clone();
    }
    detail
}

async fn goal_of(
    reads: &Garmin,
    name: Option<String>,
    day: Option<NaiveDate>,
    notes: &mut Vec<String>,
) -> Option<PlanGoal> {
    let date = day?;
    let name = name.filter(|n| !n.trim().is_empty());
    let events = match reads.events_on(date).await {
        Ok(served) => served.value,
        Err(e) => {
            if !e.means_nothing_there() {
                notes.push(format!("The goal race's distance and goal time could not be read: {e}."));
            }
            Vec::new()
        }
    };
    let event = race_event(&events, name.as_deref());
    Some(PlanGoal {
        name: name
            .or_else(|| event.and_then(|e| e.event_name.clone()))
            .unwrap_or_else(|| "Goal race".to_owned()),
        date,
        distance_m: event.and_then(event_distance_m),
        goal_s: event
            .and_then(|e| e.event_customization.as_ref()?.custom_goal.as_ref()?.value)
            .filter(|s| *s > 0.0),
    })
}

/// The race event of the day: the one named like the plan's race, else the only race.
fn race_event<'a>(events: &'a [Event], name: Option<&str>) -> Option<&'a Event> {
    let named = |e: &&Event| {
        name.is_some_and(|n| e.event_name.as_deref().is_some_and(|m| m.trim().eq_ignore_ascii_case(n.trim())))
    };
    events.iter().find(named).or_else(|| {
        let races: Vec<&Event> = events.iter().filter(|e| e.race == Some(true)).collect();
        (races.len() == 1).then(|| races[0])
    })
}

/// The event's distance in metres (`completionTarget` in meter, kilometer, mile or yard).
fn event_distance_m(e: &Event) -> Option<f64> {
    let target = e.completion_target.as_ref()?;
    let per_unit = match target.unit.as_deref()? {
        "meter" => 1.0,
        "kilometer" => 1000.0,
        "mile" => 1609.344,
        "yard" => 0.9144,
        _ => return None,
    };
    target.value.filter(|v| *v > 0.0).map(|v| v * per_unit)
}

/// A plan's name for a sentence.
pub fn plan_name(p: &TrainingPlan) -> String {
    match p.title() {
        Some(t) => format!("the plan \"{t}\""),
        None => match p.training_plan_id {
            Some(id) => format!("plan {id}"),
            None => "a plan".to_owned(),
        },
    }
}

/// The plan workouts (rest days left out) of `start..=end`, by day.
pub fn tasks_between(plan: &TrainingPlan, start: NaiveDate, end: NaiveDate) -> Vec<&PlanTask> {
    let mut tasks: Vec<&PlanTask> = plan
        .task_list
        .iter()
        .filter(|t| t.calendar_date.is_some_and(|d| start <= d && d <= end))
        .filter(|t| {
            t.task_workout.as_ref().is_some_and(|w| w.rest_day != Some(true) && w.sport_type.is_some())
        })
        .collect();
    tasks.sort_by_key(|t| t.calendar_date);
    tasks
}

/// How plan compliance is counted.
pub const PLAN_COMPLIANCE: &str = "each plan workout takes an activity of its sport on its day (as for calendar \
     workouts); one not done on its day is moved when an activity of its sport that no plan workout took was \
     done in the same Monday–Sunday week within the range (the nearest day), missed otherwise; today's not yet \
     done is pending";

/// The plan's workouts of `start..=end` as planned workouts (Garmin's estimates as the plan).
pub fn planned_of_plan(
    plan: &TrainingPlan,
    start: NaiveDate,
    end: NaiveDate,
) -> Vec<crate::domain::plan::Planned> {
    tasks_between(plan, start, end)
        .into_iter()
        .filter_map(|t| {
            let w = t.task_workout.as_ref()?;
            Some(crate::domain::plan::Planned {
                date: t.calendar_date?,
                schedule_id: None,
                workout_id: None,
                name: w.workout_name.clone().unwrap_or_else(|| "Plan workout".to_owned()),
                family: crate::domain::activity::Family::of(w.sport_type.as_deref(), None),
                duration_s: w.estimated_duration_in_secs.filter(|s| *s > 0.0),
                distance_m: w.estimated_distance_in_meters.filter(|m| *m > 0.0),
                estimated: true,
            })
        })
        .collect()
}

/// Turns each missed plan workout into a moved one when an activity of its sport that nothing
/// took was done in the same Monday–Sunday week (the nearest day first, earlier plan workouts
/// choosing first); the activity leaves the unplanned list.
pub fn mark_moved(c: &mut crate::domain::plan::PlanComparison, today: NaiveDate) {
    use crate::domain::plan::{Outcome, checked};
    let week = |d: NaiveDate| d.iso_week();
    for w in c.workouts.iter_mut().filter(|w| w.outcome == Outcome::Missed) {
        let day = w.planned.date;
        let best = c
            .unplanned
            .iter()
            .enumerate()
            .filter(|(_, d)| d.family == w.planned.family && week(d.date) == week(day))
            .min_by_key(|(_, d)| ((d.date - day).num_days().abs(), d.date))
            .map(|(i, _)| i);
        if let Some(i) = best {
            let done = c.unplanned.remove(i);
            *w = checked(w.planned.clone(), Some(done), today);
            w.outcome = Outcome::Moved;
        }
    }
}
