//! The `workouts` toolset: `get_workouts`, the athlete's workout library and training plans, one
//! workout's steps in words, or (`find_exercise`) Garmin's exercise catalogue searched by name,
//! muscle or equipment (`garmin::exercises`, the names `create_workout` takes).
//!
//! One workout's steps are worded by `garmin::workout_spec::preview`, the same words the write
//! tools and the app show (reference §5 for how Garmin stores them); this module lays them out as
//! the tool's answer and adds the totals of the timed and the distance steps.

use chrono::NaiveDate;
use display::words;
use garmin::exercises::{self, ExerciseHit, ExerciseQuery};
use garmin::models::training_plans::{PlanPhase, PlanTask};
use garmin::models::workouts::Workout;
use garmin::workout_spec::{self, PreviewStep};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::coach_plan::{PlanRead, tasks_between};
use crate::output::{self, Answer};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Training plans path (the client has no typed method for it; reference §4.12).
/// JSON bytes the answer's data may use, leaving room for the summary.
const DATA_BUDGET: usize = output::BUDGET_BYTES - 1536;

fn json_len<T: Serialize>(value: &T) -> usize {
    serde_json::to_string(value).map_or(usize::MAX, |s| s.len())
}

/// Arguments of `get_workouts`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct GetWorkoutsArgs {
    /// One workout to show step by step (an id from the library list or the calendar). Without
    /// it, the library and training plans are listed.
    #[serde(default)]
    pub workout_id: Option<u64>,
    /// Most library workouts to list, newest first (default 30).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<u32>,
    /// Instead of workouts: search Garmin's exercise catalogue (for create_workout's `exercise`) by
    /// name, muscle and/or equipment, e.g. {"name": "bench press"}, {"muscle": "glutes",
    /// "equipment": "kettlebell"}, {"name": "warrior", "sport": "yoga"}.
    #[serde(default)]
    pub find_exercise: Option<ExerciseQuery>,
}

/// The workout library, or one workout.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct WorkoutsView {
    /// Library workouts (when no `workout_id` was given).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub library: Vec<WorkoutRow>,
    /// True when the library holds more than `limit` workouts.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub more_in_library: bool,
    /// Training plans Garmin returned (when no `workout_id` was given).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub training_plans: Vec<PlanRow>,
    /// Why training plans are missing, when they could not be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub training_plans_note: Option<String>,
    /// The workout asked for, step by step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workout: Option<WorkoutDetail>,
    /// Exercises found by `find_exercise`, best first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exercises: Vec<ExerciseHit>,
}

/// One library workout.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WorkoutRow {
    /// Workout id (for `workout_id`).
    pub workout_id: u64,
    /// Name.
    pub name: String,
    /// Sport, e.g. `running`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport: Option<String>,
    /// Created (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// Last changed (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated: Option<String>,
    /// Garmin's duration estimate (`h:mm:ss`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_duration: Option<String>,
    /// Garmin's distance estimate (km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_distance_km: Option<f64>,
}

/// A training plan.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlanRow {
    /// Plan id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan_id: Option<u64>,
    /// Name.
    pub name: String,
    /// `Garmin Coach (adaptive)` for Garmin's adaptive plans.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Status, e.g. `active`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Start (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    /// End (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
    /// The race the plan leads to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_race: Option<PlanGoalRow>,
    /// Today's phase, e.g. `base (2026-10-19 to 2026-11-22)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// Workouts a week.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workouts_per_week: Option<i64>,
    /// Plan workouts left this week (Garmin's count).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workouts_left_this_week: Option<i64>,
    /// The plan's own workouts on their days, from a week ago on (at most 21).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scheduled_workouts: Vec<PlanWorkoutRow>,
    /// What Garmin could not give for this plan, one sentence each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A plan's goal race.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlanGoalRow {
    /// The race.
    pub name: String,
    /// Race day (`YYYY-MM-DD`).
    pub date: String,
    /// Days from today.
    pub days_to_race: i64,
    /// Distance, km (from the race's calendar event).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Goal time, `h:mm:ss` (the event's goal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_time: Option<String>,
}

/// One plan workout on its day.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlanWorkoutRow {
    /// The day (`YYYY-MM-DD`).
    pub date: String,
    /// Name, e.g. `Intervals`.
    pub name: String,
    /// Sport, e.g. `running`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport: Option<String>,
    /// Garmin's short description, e.g. `6x3:00@4:20/km`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Garmin's duration estimate (`h:mm:ss`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_duration: Option<String>,
    /// Garmin's distance estimate (km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_distance_km: Option<f64>,
    /// Garmin Coach's status, e.g. `complete`, `not complete`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub garmin_status: Option<String>,
}

/// One workout in words.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WorkoutDetail {
    /// Workout id.
    pub workout_id: u64,
    /// Name.
    pub name: String,
    /// Sport, e.g. `running`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport: Option<String>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Pool length (`25 m`), swim workouts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool_length: Option<String>,
    /// Garmin's duration estimate (`h:mm:ss`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_duration: Option<String>,
    /// Garmin's distance estimate (km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_distance_km: Option<f64>,
    /// Sum of the time-based steps, repeats counted (`h:mm:ss`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timed_steps_total: Option<String>,
    /// Sum of the distance-based steps, repeats counted (km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_steps_total_km: Option<f64>,
    /// Exercise workouts: sets, reps and volume, e.g. `9 sets, 72 reps, 2,880 kg`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sets_reps_volume: Option<String>,
    /// The whole workout on one line, e.g. `Warm-up 10:00 / Repeat 4×: Run 800 m @ 4'55"-5'05"/km ·
    /// Recover 2:00 / Cool-down 10:00`.
    pub outline: String,
    /// The steps; a repeat holds its own steps.
    pub steps: Vec<StepView>,
}

/// One step.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct StepView {
    /// `warmup`, `interval`, `recovery`, `rest`, `cooldown`, `repeat`…
    #[serde(rename = "type")]
    pub kind: String,
    /// The step in words, e.g. `Run 800 m @ 4'55"-5'05"/km`, `Repeat 4×`.
    pub text: String,
    /// When it ends, e.g. `10:00`, `800 m`, `until lap button`, `until HR below 150 bpm`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    /// Target, e.g. `4'55"-5'05"/km`, `HR zone 2`, `120-140 bpm`, `200-250 W`, `85-95 rpm`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Second target, same forms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secondary_target: Option<String>,
    /// Swim stroke, e.g. `freestyle`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stroke: Option<String>,
    /// Swim equipment, e.g. `pull buoy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equipment: Option<String>,
    /// Exercise, e.g. `Barbell back squat`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exercise: Option<String>,
    /// Weight in the unit Garmin keeps it in, e.g. `60 kg`, `135 lb`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight: Option<String>,
    /// Note shown on the watch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Times to repeat (repeat groups).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<i64>,
    /// The repeated steps (repeat groups).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<StepView>,
}

#[tool_router(router = workouts_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// The athlete's Garmin workout library and training plans, one workout step by step, or
    /// (find_exercise) Garmin's exercise catalogue searched by name, muscle or equipment.
    /// Without workout_id: library workouts (id, name, sport, dates, estimates) and training plans
    /// (Garmin Coach included) with their goal race (name, date, distance, goal time), today's
    /// phase, workouts per week and the plan's own workouts on their days.
    /// With workout_id: the steps in words — warm-up, intervals, recoveries, cool-down, with end
    /// conditions (time, distance, lap button, heart rate), targets (pace per km, HR zone or bpm,
    /// power, cadence), swim strokes and equipment, exercises with reps and weights, and nested
    /// repeats. Use it for "what's in my Tuesday intervals?" or "which workouts do I have?";
    /// get_calendar shows when they are scheduled. With find_exercise: Garmin's exercise catalogue
    /// (strength, cardio, HIIT, yoga, pilates, mobility) searched by name (English or Chinese),
    /// muscle or equipment, each row with the `exercise` value create_workout takes and the muscles
    /// it works.
    #[tool(
        name = "get_workouts",
        annotations(
            title = "Workouts and training plans",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WorkoutsView>()
    )]
    async fn get_workouts(
        &self,
        Parameters(args): Parameters<GetWorkoutsArgs>,
    ) -> Result<Answer<WorkoutsView>, ToolError> {
        if let Some(query) = &args.find_exercise {
            if args.workout_id.is_some() {
                return Err(ToolError::invalid("give either workout_id or find_exercise, not both"));
            }
            let found = exercises::search(query).map_err(|e| ToolError::invalid(e.to_string()))?;
            let summary = exercise_summary(query, &found);
            return Ok(self.answer(summary, WorkoutsView { exercises: found, ..WorkoutsView::default() }));
        }
        let limit = args.limit.unwrap_or(30);
        if !(1..=100).contains(&limit) {
            return Err(ToolError::invalid(format!("limit must be 1–100, got {limit}")));
        }
        let client = self.web_session().await?;
        if let Some(id) = args.workout_id {
            let workout = match client.workouts().get(id).await {
                Ok(w) => w,
                Err(garmin::Error::NotFound { .. }) => {
                    return Err(ToolError::NoData(format!("No workout {id} in your library.")));
                }
                Err(e) => return Err(e.into()),
            };
            let detail = workout_detail(id, &workout);
            let summary = detail_summary(&detail);
            return Ok(
                self.answer(summary, WorkoutsView { workout: Some(detail), ..WorkoutsView::default() })
            );
        }
        // One more than asked tells whether the library holds more.
        let reads = self.reads().await?;
        let (list, plans) = futures::join!(
            async { client.workouts().list(0, limit + 1).await },
            crate::domain::coach_plan::read_plans(&reads)
        );
        let mut list = list?;
        let more_in_library = list.len() > limit as usize;
        list.truncate(limit as usize);
        let plans = plans?;
        let training_plans = plans.plans.iter().filter_map(|p| plan_row(p, self.today())).collect();
        let training_plans_note = plans.note;
        let library: Vec<WorkoutRow> = list.iter().filter_map(workout_row).collect();
        let mut view = WorkoutsView {
            library,
            more_in_library,
            training_plans,
            training_plans_note,
            workout: None,
            exercises: Vec::new(),
        };
        // A large `limit` must not blow the budget: list fewer and say there are more.
        while json_len(&view) > DATA_BUDGET && view.library.pop().is_some() {
            view.more_in_library = true;
        }
        let summary = library_summary(&view);
        Ok(self.answer(summary, view))
    }
}

// ---------------------------------------------------------------------------------------------
// library and plans

fn workout_row(w: &Workout) -> Option<WorkoutRow> {
    Some(WorkoutRow {
        workout_id: w.workout_id?,
        name: w.workout_name.clone().unwrap_or_else(|| "Workout".to_owned()),
        sport: w.sport_key().map(words),
        created: w.created_date.as_deref().and_then(day_of),
        updated: w.updated_date.as_deref().and_then(day_of),
        estimated_duration: w.estimated_duration_in_secs.filter(|s| *s > 0.0).map(display::duration),
        estimated_distance_km: w.estimated_distance_in_meters.filter(|m| *m > 0.0).map(display::km),
    })
}

/// `2026-02-08T00:57:16.0` → `2026-02-08` (Garmin's date reader, `units::parse_date`).
fn day_of(text: &str) -> Option<String> {
    garmin::models::units::parse_date(text).map(|d| d.to_string())
}

/// Plan workouts listed from this many days before today.
const PLAN_WORKOUTS_FROM_DAYS: i64 = 7;
/// Most plan workouts listed per plan.
const PLAN_WORKOUTS_LISTED: usize = 21;

/// The row of a plan Garmin listed (one without a name or goal race is named by its id).
fn plan_row(read: &PlanRead, today: NaiveDate) -> Option<PlanRow> {
    let p = &read.plan;
    let name = p
        .title()
        .map(str::to_owned)
        .or_else(|| read.goal.as_ref().map(|g| format!("Plan for {}", g.name)))?;
    let from = today - chrono::Duration::days(PLAN_WORKOUTS_FROM_DAYS);
    let scheduled = tasks_between(p, from, NaiveDate::MAX).into_iter().take(PLAN_WORKOUTS_LISTED);
    Some(PlanRow {
        plan_id: p.training_plan_id,
        name,
        kind: p.is_adaptive().then(|| "Garmin Coach (adaptive)".to_owned()),
        status: p.status_key().map(words),
        start_date: p.first_day().map(|d| d.to_string()),
        end_date: p.last_day().map(|d| d.to_string()),
        goal_race: read.goal.as_ref().map(|g| PlanGoalRow {
            name: g.name.clone(),
            date: g.date.to_string(),
            days_to_race: (g.date - today).num_days(),
            distance_km: g.distance_m.map(display::km),
            goal_time: g.goal_s.map(display::duration),
        }),
        phase: p.phase_on(today).and_then(phase_words),
        workouts_per_week: p.details.as_ref().and_then(|d| d.workouts_per_week),
        workouts_left_this_week: p.details.as_ref().and_then(|d| d.remaining_atp_workouts_for_week),
        scheduled_workouts: scheduled.filter_map(plan_workout_row).collect(),
        notes: read.notes.clone(),
    })
}

/// `base (2026-10-19 to 2026-11-22)`.
fn phase_words(phase: &PlanPhase) -> Option<String> {
    let name = words(phase.training_phase.as_deref()?);
    Some(match (phase.start_date, phase.end_date) {
        (Some(s), Some(e)) => format!("{name} ({s} to {e})"),
        _ => name,
    })
}

fn plan_workout_row(t: &PlanTask) -> Option<PlanWorkoutRow> {
    let w = t.task_workout.as_ref()?;
    Some(PlanWorkoutRow {
        date: t.calendar_date?.to_string(),
        name: w.workout_name.clone().unwrap_or_else(|| "Plan workout".to_owned()),
        sport: w.sport_type.as_deref().map(words),
        description: w.workout_description.clone().filter(|d| !d.trim().is_empty()),
        estimated_duration: w.estimated_duration_in_secs.filter(|s| *s > 0.0).map(display::duration),
        estimated_distance_km: w.estimated_distance_in_meters.filter(|m| *m > 0.0).map(display::km),
        garmin_status: w.adaptive_coaching_workout_status.as_deref().map(words),
    })
}

/// "3 exercises for name "bench press": Barbell bench press (BENCH_PRESS/BARBELL_BENCH_PRESS), …".
fn exercise_summary(query: &ExerciseQuery, found: &[ExerciseHit]) -> String {
    let asked: Vec<String> =
        [("name", &query.name), ("muscle", &query.muscle), ("equipment", &query.equipment)]
            .into_iter()
            .filter_map(|(what, v)| v.as_deref().map(|v| format!("{what} \"{v}\"")))
            .collect();
    let asked = if asked.is_empty() { "the whole list".to_owned() } else { asked.join(", ") };
    if found.is_empty() {
        return format!("No exercise in Garmin's catalogue matches {asked}; try a shorter name or a muscle.");
    }
    let rows: Vec<String> = found.iter().take(8).map(|h| format!("{} ({})", h.name, h.exercise)).collect();
    let more = if found.len() > 8 { ", …" } else { "" };
    format!(
        "{} {} for {asked}: {}{more}. Use the key in parentheses as create_workout's \"exercise\".",
        found.len(),
        if found.len() == 1 { "exercise" } else { "exercises" },
        rows.join(", ")
    )
}

fn library_summary(view: &WorkoutsView) -> String {
    let n = view.library.len();
    let mut text = if n == 0 {
        "Your workout library is empty.".to_owned()
    } else {
        let names: Vec<&str> = view.library.iter().take(8).map(|w| w.name.as_str()).collect();
        let more = if view.more_in_library || n > 8 { ", …" } else { "" };
        format!(
            "{}{n} {} in your library: {}{more}.",
            if view.more_in_library { "The latest " } else { "" },
            if n == 1 { "workout" } else { "workouts" },
            names.join(", ")
        )
    };
    match (&view.training_plans_note, view.training_plans.len()) {
        (Some(note), _) => text.push_str(&format!(" {}.", note.trim_end_matches('.'))),
        (None, 0) => text.push_str(" No training plan."),
        (None, _) => {
            let plans: Vec<String> = view.training_plans.iter().map(plan_words).collect();
            text.push_str(&format!(" Training plans: {}.", plans.join("; ")));
        }
    }
    text
}

/// `Marathon (Garmin Coach) (scheduled), goal Example Big City Marathon on 2027-02-18 (95 days,
/// 42.2 km, goal 3:30:00), phase base (…), 4 workouts a week, next: Intervals on 2026-11-17`.
fn plan_words(p: &PlanRow) -> String {
    let mut text = match &p.status {
        Some(s) => format!("{} ({s})", p.name),
        None => p.name.clone(),
    };
    if let Some(g) = &p.goal_race {
        let mut about = vec![format!("{} days", g.days_to_race)];
        about.extend(g.distance_km.map(|km| format!("{km} km")));
        about.extend(g.goal_time.as_ref().map(|t| format!("goal {t}")));
        text.push_str(&format!(", goal {} on {} ({})", g.name, g.date, about.join(", ")));
    }
    if let Some(phase) = &p.phase {
        text.push_str(&format!(", phase {phase}"));
    }
    if let Some(n) = p.workouts_per_week {
        text.push_str(&format!(", {n} workouts a week"));
    }
    for note in &p.notes {
        text.push_str(&format!(" ({})", note.trim_end_matches('.')));
    }
    text
}

// ---------------------------------------------------------------------------------------------
// one workout: the steps as `garmin::workout_spec::preview` words them

fn workout_detail(id: u64, w: &Workout) -> WorkoutDetail {
    let preview = workout_spec::preview(w);
    let mut totals = Totals::default();
    add_totals(&preview.steps, 1.0, &mut totals);
    let pool = w.pool_length.filter(|l| *l > 0.0).map(|l| {
        let unit = w.pool_length_unit.as_ref().and_then(|u| u.unit_key.as_deref()).unwrap_or("meter");
        format!("{} {}", display::number(l), if unit == "yard" { "yd" } else { "m" })
    });
    WorkoutDetail {
        workout_id: w.workout_id.unwrap_or(id),
        name: w.workout_name.clone().unwrap_or_else(|| format!("Workout {id}")),
        sport: w.sport_key().map(words),
        description: w.description.clone().filter(|d| !d.trim().is_empty()),
        pool_length: pool,
        estimated_duration: w.estimated_duration_in_secs.filter(|s| *s > 0.0).map(display::duration),
        estimated_distance_km: w.estimated_distance_in_meters.filter(|m| *m > 0.0).map(display::km),
        timed_steps_total: (totals.seconds > 0.0).then(|| display::duration(totals.seconds)),
        distance_steps_total_km: (totals.meters > 0.0).then(|| display::km(totals.meters)),
        sets_reps_volume: preview.strength.as_ref().filter(|t| t.reps > 0).map(|_| preview.total.clone()),
        outline: preview.outline(),
        steps: preview.steps.iter().map(step_view).collect(),
    }
}

#[derive(Default)]
struct Totals {
    seconds: f64,
    meters: f64,
}

/// Sums the time-based and the distance-based steps, repeats counted.
fn add_totals(steps: &[PreviewStep], times: f64, totals: &mut Totals) {
    for s in steps {
        if s.kind == "repeat" {
            add_totals(&s.steps, times * s.repeat.map_or(1.0, |n| n as f64), totals);
            continue;
        }
        let Some(end) = &s.end else { continue };
        let value = end.value.unwrap_or(0.0);
        match end.kind.as_str() {
            "time" => totals.seconds += value * times,
            "distance" => totals.meters += value * times,
            _ => {}
        }
    }
}

fn step_view(s: &PreviewStep) -> StepView {
    StepView {
        kind: s.kind.clone(),
        text: s.text.clone(),
        end: s.end.as_ref().map(|e| e.text.clone()),
        target: s.target.as_ref().map(|t| t.text.clone()),
        secondary_target: s.secondary_target.as_ref().map(|t| t.text.clone()),
        stroke: s.stroke.clone(),
        equipment: s.equipment.clone(),
        exercise: s.exercise.clone(),
        weight: s.weight.clone(),
        note: s.note.clone(),
        repeat: s.repeat.and_then(|n| i64::try_from(n).ok()),
        steps: s.steps.iter().map(step_view).collect(),
    }
}

fn detail_summary(d: &WorkoutDetail) -> String {
    let mut text = match &d.sport {
        Some(sport) => format!("{} ({sport}): {}.", d.name, d.outline),
        None => format!("{}: {}.", d.name, d.outline),
    };
    let mut totals = Vec::new();
    if let Some(t) = &d.timed_steps_total {
        totals.push(format!("{t} of timed steps"));
    }
    if let Some(km) = d.distance_steps_total_km {
        totals.push(format!("{km} km of distance steps"));
    }
    if let Some(sets) = &d.sets_reps_volume {
        text.push_str(&format!(" {sets}."));
    } else if !totals.is_empty() {
        text.push_str(&format!(" About {}.", totals.join(" plus ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_brief_example_reads_back_exactly() {
        let w: Workout = serde_json::from_value(json!({
            "workoutId": 1, "workoutName": "4x800", "sportType": {"sportTypeId": 1, "sportTypeKey": "running"},
            "workoutSegments": [{"segmentOrder": 1, "sportType": {"sportTypeKey": "running"}, "workoutSteps": [
                {"type": "ExecutableStepDTO", "stepType": {"stepTypeKey": "warmup"}, "endCondition": {"conditionTypeKey": "time"}, "endConditionValue": 600},
                {"type": "RepeatGroupDTO", "stepType": {"stepTypeKey": "repeat"}, "numberOfIterations": 4, "workoutSteps": [
                    {"type": "ExecutableStepDTO", "stepType": {"stepTypeKey": "interval"}, "endCondition": {"conditionTypeKey": "distance"},
                     "endConditionValue": 800, "targetType": {"workoutTargetTypeKey": "pace.zone"},
                     "targetValueOne": 1000.0 / 295.0, "targetValueTwo": 1000.0 / 305.0},
                    {"type": "ExecutableStepDTO", "stepType": {"stepTypeKey": "recovery"}, "endCondition": {"conditionTypeKey": "time"}, "endConditionValue": 120}
                ]},
                {"type": "ExecutableStepDTO", "stepType": {"stepTypeKey": "cooldown"}, "endCondition": {"conditionTypeKey": "time"}, "endConditionValue": 600}
            ]}]
        }))
        .unwrap();
        let d = workout_detail(1, &w);
        assert_eq!(
            d.outline,
            "Warm-up 10:00 / Repeat 4×: Run 800 m @ 4'55\"-5'05\"/km · Recover 2:00 / Cool-down 10:00"
        );
        assert_eq!(d.timed_steps_total.as_deref(), Some("28:00"));
        assert_eq!(d.distance_steps_total_km, Some(3.2));
    }
}
