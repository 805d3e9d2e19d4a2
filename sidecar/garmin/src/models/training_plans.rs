//! Training plans the athlete follows (`trainingplan-service/trainingplan/plans`) and one plan's
//! detail (`…/phased/{id}`, `…/fbt-adaptive/{id}` for Garmin Coach). Garmin's list answer is
//! `{trainingPlanList: [...], totalCount}`; older clients saw `{plans: [...]}` or a bare list, and
//! the names of a plan's fields vary (`name`/`trainingPlanName`/`planName`, a status as
//! `trainingStatus.statusKey`, `trainingStatus` text or `status`), so each is read and the first
//! present wins.
//!
//! The detail is the same object plus the plan's scheduled workouts (`taskList`) and its phases
//! (`adaptivePlanPhases`, or `planPhases` on a non-adaptive plan) — shape from a public design note
//! built on a HAR capture of the web app (2026, medium confidence). The goal race is
//! `trainingPlanDetailsDTO.athleteRace {raceDay, raceName, raceUrl}` beside `workoutsPerWeek`
//! (a garmin_mcp fork's test pinned to a live adaptive plan of 2026-09-19, high confidence;
//! Taxuspt/garmin_mcp#347). Garmin sends no distance or goal time there: those are on the race's
//! calendar event.

use chrono::NaiveDate;
use serde::de::{Deserializer, IgnoredAny};
use serde::{Deserialize, Serialize};

use super::de;

/// The plans of `trainingplan/plans`, in any of its shapes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TrainingPlans {
    /// The plans, as Garmin listed them.
    pub plans: Vec<TrainingPlan>,
}

impl<'de> Deserialize<'de> for TrainingPlans {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Shape {
            List(Vec<TrainingPlan>),
            Wrapped {
                #[serde(rename = "trainingPlanList", default, deserialize_with = "de::vec")]
                list: Vec<TrainingPlan>,
                #[serde(default, deserialize_with = "de::vec")]
                plans: Vec<TrainingPlan>,
            },
            Other(IgnoredAny),
        }
        Ok(TrainingPlans {
            plans: match Shape::deserialize(d)? {
                Shape::List(plans) => plans,
                Shape::Wrapped { list, plans } => {
                    if list.is_empty() {
                        plans
                    } else {
                        list
                    }
                }
                Shape::Other(_) => Vec::new(),
            },
        })
    }
}

/// One training plan.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrainingPlan {
    /// Plan id.
    #[serde(deserialize_with = "de::id")]
    pub training_plan_id: Option<u64>,
    /// Name (one of three keys).
    #[serde(deserialize_with = "de::text")]
    pub name: Option<String>,
    /// Name (one of three keys).
    #[serde(deserialize_with = "de::text")]
    pub training_plan_name: Option<String>,
    /// Name (one of three keys).
    #[serde(deserialize_with = "de::text")]
    pub plan_name: Option<String>,
    /// Status: `{statusKey}` or its text.
    #[serde(deserialize_with = "status_key")]
    pub training_status: Option<String>,
    /// Status, where `trainingStatus` is absent.
    #[serde(deserialize_with = "de::text")]
    pub status: Option<String>,
    /// First day (one of two keys).
    #[serde(deserialize_with = "de::date")]
    pub start_date: Option<NaiveDate>,
    /// First day (one of two keys).
    #[serde(deserialize_with = "de::date")]
    pub plan_start_date: Option<NaiveDate>,
    /// Last day (one of three keys).
    #[serde(deserialize_with = "de::date")]
    pub end_date: Option<NaiveDate>,
    /// Last day (one of three keys).
    #[serde(deserialize_with = "de::date")]
    pub plan_end_date: Option<NaiveDate>,
    /// The race day the plan leads to.
    #[serde(deserialize_with = "de::date")]
    pub target_event_date: Option<NaiveDate>,
    /// `FBT_ADAPTIVE` (Garmin Coach), `PHASED`… (list form).
    #[serde(deserialize_with = "de::text")]
    pub training_plan_category: Option<String>,
    /// `ATP`… (the GraphQL form's name for the category).
    #[serde(deserialize_with = "de::text")]
    pub training_plan_classification: Option<String>,
    /// Length in weeks.
    #[serde(deserialize_with = "de::int")]
    pub duration_in_weeks: Option<i64>,
    /// Workouts a week the catalogue plan averages.
    #[serde(deserialize_with = "de::num")]
    pub avg_weekly_workouts: Option<f64>,
    /// The athlete's enrolment: goal race and workouts per week.
    #[serde(rename = "trainingPlanDetailsDTO", deserialize_with = "details")]
    pub details: Option<PlanDetails>,
    /// The plan's scheduled workouts (detail form only).
    #[serde(deserialize_with = "de::vec")]
    pub task_list: Vec<PlanTask>,
    /// The phases of an adaptive plan (detail form only).
    #[serde(deserialize_with = "de::vec")]
    pub adaptive_plan_phases: Vec<PlanPhase>,
    /// The phases of a non-adaptive plan (detail form only).
    #[serde(deserialize_with = "de::vec")]
    pub plan_phases: Vec<PlanPhase>,
}

/// `trainingPlanDetailsDTO`: the athlete's enrolment in a plan.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PlanDetails {
    /// The goal race.
    #[serde(deserialize_with = "race")]
    pub athlete_race: Option<AthleteRace>,
    /// Workouts a week the athlete chose.
    #[serde(deserialize_with = "de::int")]
    pub workouts_per_week: Option<i64>,
    /// Plan workouts left this week.
    #[serde(deserialize_with = "de::int")]
    pub remaining_atp_workouts_for_week: Option<i64>,
    /// True once the plan is over.
    #[serde(deserialize_with = "de::flag")]
    pub plan_completed: Option<bool>,
}

/// `athleteRace`: the race a plan leads to.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AthleteRace {
    /// Race day.
    #[serde(deserialize_with = "de::date")]
    pub race_day: Option<NaiveDate>,
    /// Its name.
    #[serde(deserialize_with = "de::text")]
    pub race_name: Option<String>,
    /// Its web page.
    #[serde(deserialize_with = "de::text")]
    pub race_url: Option<String>,
}

/// One entry of `taskList`: a plan workout (or a rest day) on its day.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PlanTask {
    /// The day it is planned on.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Plan week (1-based).
    #[serde(deserialize_with = "de::int")]
    pub week_id: Option<i64>,
    /// The workout.
    #[serde(deserialize_with = "task_workout")]
    pub task_workout: Option<TaskWorkout>,
}

/// `taskWorkout`: what a plan day asks for.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TaskWorkout {
    /// Garmin Coach workouts are named by uuid (`/workout-service/fbt-adaptive/{uuid}`).
    #[serde(deserialize_with = "de::text")]
    pub workout_uuid: Option<String>,
    /// Name, e.g. `Base`, `Sprint`.
    #[serde(deserialize_with = "de::text")]
    pub workout_name: Option<String>,
    /// Garmin's short description, e.g. `2x3x0:15@2:45/km`.
    #[serde(deserialize_with = "de::text")]
    pub workout_description: Option<String>,
    /// `{sportTypeKey}`, null on a rest day.
    #[serde(deserialize_with = "sport_key")]
    pub sport_type: Option<String>,
    /// Garmin's duration estimate (s).
    #[serde(deserialize_with = "de::num")]
    pub estimated_duration_in_secs: Option<f64>,
    /// Garmin's distance estimate (m).
    #[serde(deserialize_with = "de::num")]
    pub estimated_distance_in_meters: Option<f64>,
    /// True on a rest day.
    #[serde(deserialize_with = "de::flag")]
    pub rest_day: Option<bool>,
    /// `COMPLETE`, `NOT_COMPLETE`…
    #[serde(deserialize_with = "de::text")]
    pub adaptive_coaching_workout_status: Option<String>,
}

/// One phase of a plan.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PlanPhase {
    /// First day.
    #[serde(deserialize_with = "de::date")]
    pub start_date: Option<NaiveDate>,
    /// Last day.
    #[serde(deserialize_with = "de::date")]
    pub end_date: Option<NaiveDate>,
    /// `BASE`, `BUILD`, `PEAK`, `TAPER`, `TARGET_EVENT_DAY`.
    #[serde(deserialize_with = "de::text")]
    pub training_phase: Option<String>,
    /// True for the phase the athlete is in.
    #[serde(deserialize_with = "de::flag")]
    pub current_phase: Option<bool>,
}

impl TrainingPlan {
    /// The plan's name, whichever key held it (blank is none).
    pub fn title(&self) -> Option<&str> {
        [&self.name, &self.training_plan_name, &self.plan_name]
            .into_iter()
            .find_map(|n| n.as_deref().filter(|n| !n.trim().is_empty()))
    }

    /// Its status key (`ACTIVE`…), whichever key held it.
    pub fn status_key(&self) -> Option<&str> {
        self.training_status.as_deref().or(self.status.as_deref())
    }

    /// Its first day.
    pub fn first_day(&self) -> Option<NaiveDate> {
        self.start_date.or(self.plan_start_date)
    }

    /// Its last day (or the race day it leads to).
    pub fn last_day(&self) -> Option<NaiveDate> {
        self.end_date.or(self.plan_end_date).or(self.target_event_date)
    }

    /// True for a Garmin Coach (adaptive) plan, whose detail is `fbt-adaptive/{id}`.
    pub fn is_adaptive(&self) -> bool {
        let adaptive = |c: &Option<String>| {
            c.as_deref()
                .is_some_and(|c| c.eq_ignore_ascii_case("FBT_ADAPTIVE") || c.eq_ignore_ascii_case("ATP"))
        };
        adaptive(&self.training_plan_category) || adaptive(&self.training_plan_classification)
    }

    /// The goal race, when the plan leads to one.
    pub fn goal_race(&self) -> Option<&AthleteRace> {
        self.details.as_ref()?.athlete_race.as_ref()
    }

    /// The phases, adaptive ones first.
    pub fn phases(&self) -> &[PlanPhase] {
        if self.adaptive_plan_phases.is_empty() { &self.plan_phases } else { &self.adaptive_plan_phases }
    }

    /// The phase `day` falls in (Garmin's `currentPhase` when no phase covers it).
    pub fn phase_on(&self, day: NaiveDate) -> Option<&PlanPhase> {
        let covers =
            |p: &&PlanPhase| p.start_date.is_some_and(|s| s <= day) && p.end_date.is_some_and(|e| day <= e);
        self.phases()
            .iter()
            .find(covers)
            .or_else(|| self.phases().iter().find(|p| p.current_phase == Some(true)))
    }
}

fn details<'de, D: Deserializer<'de>>(d: D) -> Result<Option<PlanDetails>, D::Error> {
    Ok(Option::<serde_json::Value>::deserialize(d)?.and_then(|v| serde_json::from_value(v).ok()))
}

fn race<'de, D: Deserializer<'de>>(d: D) -> Result<Option<AthleteRace>, D::Error> {
    Ok(Option::<serde_json::Value>::deserialize(d)?.and_then(|v| serde_json::from_value(v).ok()))
}

fn task_workout<'de, D: Deserializer<'de>>(d: D) -> Result<Option<TaskWorkout>, D::Error> {
    Ok(Option::<serde_json::Value>::deserialize(d)?.and_then(|v| serde_json::from_value(v).ok()))
}

/// `{"sportTypeKey": "running"}` or null.
fn sport_key<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let v = Option::<serde_json::Value>::deserialize(d)?;
    Ok(v.as_ref().and_then(|v| v.get("sportTypeKey")).and_then(|k| k.as_str()).map(str::to_owned))
}

/// `trainingStatus` as `{"statusKey": "ACTIVE", …}` or as text; anything else is absent.
fn status_key<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Status {
        Text(String),
        Keyed {
            #[serde(rename = "statusKey", default, deserialize_with = "de::text")]
            key: Option<String>,
        },
        Other(IgnoredAny),
    }
    Ok(match Status::deserialize(d)? {
        Status::Text(text) => Some(text),
        Status::Keyed { key } => key,
        Status::Other(_) => None,
    })
}
