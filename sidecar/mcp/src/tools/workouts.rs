//! The `workouts` toolset: `get_workouts`, the athlete's workout library and training plans, or
//! one workout's steps in words.
//!
//! Steps are read the way Garmin stores them (reference §5): end conditions in s / m / kcal / bpm,
//! pace targets in m/s (faster bound first by convention, but read with min/max because the
//! order is not guaranteed), heart-rate targets as a zone number or a bpm range, power and
//! cadence low→high, repeat groups holding their own steps (nested repeats too).

use garmin::models::workouts::{TargetType, Workout, WorkoutStep};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::output::{self, Answer};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Training plans path (the client has no typed method for it; reference §4.12).
const PLANS_PATH: &str = "/trainingplan-service/trainingplan/plans";
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
    /// Status, e.g. `active`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Start (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    /// End (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
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
    /// Strength exercise, e.g. `barbell back squat`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exercise: Option<String>,
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
    /// The athlete's Garmin workout library and training plans, or one workout step by step.
    /// Without workout_id: library workouts (id, name, sport, dates, estimates) and training plans.
    /// With workout_id: the steps in words — warm-up, intervals, recoveries, cool-down, with end
    /// conditions (time, distance, lap button, heart rate), targets (pace per km, HR zone or bpm,
    /// power, cadence), swim strokes and equipment, and nested repeats. Use it for "what's in my
    /// Tuesday intervals?" or "which workouts do I have?"; get_calendar shows when they are scheduled.
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
        let limit = args.limit.unwrap_or(30);
        if !(1..=100).contains(&limit) {
            return Err(ToolError::invalid(format!("limit must be 1–100, got {limit}")));
        }
        let client = self.garmin().await?;
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
        let (list, plans) = futures::join!(async { client.workouts().list(0, limit + 1).await }, async {
            client.get_value(PLANS_PATH, &[]).await
        },);
        let mut list = list?;
        let more_in_library = list.len() > limit as usize;
        list.truncate(limit as usize);
        let (training_plans, training_plans_note) = match plans {
            Ok(value) => (value.as_ref().map(plan_rows).unwrap_or_default(), None),
            Err(e) if e.needs_sign_in() => return Err(e.into()),
            Err(e) => (Vec::new(), Some(format!("Training plans could not be read: {e}"))),
        };
        let library: Vec<WorkoutRow> = list.iter().filter_map(workout_row).collect();
        let mut view =
            WorkoutsView { library, more_in_library, training_plans, training_plans_note, workout: None };
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
        estimated_duration: w.estimated_duration_in_secs.filter(|s| *s > 0.0).map(output::duration),
        estimated_distance_km: w.estimated_distance_in_meters.filter(|m| *m > 0.0).map(output::km),
    })
}

/// `2026-02-08T00:57:16.0` → `2026-02-08`.
fn day_of(text: &str) -> Option<String> {
    let head = text.get(..10)?;
    chrono::NaiveDate::parse_from_str(head, "%Y-%m-%d").ok().map(|d| d.to_string())
}

/// Plans from `trainingplan/plans` (`{trainingPlanList: [...]}` or a bare list; field names
/// vary, so the likely ones are tried).
fn plan_rows(value: &Value) -> Vec<PlanRow> {
    let list = value.get("trainingPlanList").or_else(|| value.get("plans")).unwrap_or(value);
    let text = |p: &Value, keys: &[&str]| {
        keys.iter()
            .find_map(|k| p.get(*k).and_then(Value::as_str))
            .map(str::to_owned)
            .filter(|s| !s.is_empty())
    };
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let name = text(p, &["name", "trainingPlanName", "planName"])?;
            let status = p
                .get("trainingStatus")
                .and_then(|s| s.get("statusKey").and_then(Value::as_str).or(s.as_str()))
                .or_else(|| p.get("status").and_then(Value::as_str))
                .map(words);
            Some(PlanRow {
                plan_id: p.get("trainingPlanId").and_then(Value::as_u64),
                name,
                status,
                start_date: text(p, &["startDate", "planStartDate"]).as_deref().and_then(day_of),
                end_date: text(p, &["endDate", "planEndDate", "targetEventDate"]).as_deref().and_then(day_of),
            })
        })
        .collect()
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
        (Some(note), _) => text.push_str(&format!(" {note}.")),
        (None, 0) => text.push_str(" No training plan."),
        (None, _) => {
            let plans: Vec<String> = view
                .training_plans
                .iter()
                .map(|p| match &p.status {
                    Some(s) => format!("{} ({s})", p.name),
                    None => p.name.clone(),
                })
                .collect();
            text.push_str(&format!(" Training plans: {}.", plans.join(", ")));
        }
    }
    text
}

// ---------------------------------------------------------------------------------------------
// one workout

fn workout_detail(id: u64, w: &Workout) -> WorkoutDetail {
    let sport = w.sport_key().map(str::to_owned);
    let mut steps = Vec::new();
    let mut parts = Vec::new();
    let multisport = w.workout_segments.len() > 1;
    let mut totals = Totals::default();
    for segment in &w.workout_segments {
        let seg_sport = segment
            .sport_type
            .as_ref()
            .and_then(|s| s.sport_type_key.clone())
            .or_else(|| sport.clone())
            .unwrap_or_default();
        let views: Vec<StepView> = segment.workout_steps.iter().map(|s| step_view(s, &seg_sport)).collect();
        add_totals(&segment.workout_steps, 1.0, &mut totals);
        let line = views.iter().map(|v| outline_of(v, 0)).collect::<Vec<_>>().join(" / ");
        parts.push(if multisport { format!("{}: {line}", capitalise(&words(&seg_sport))) } else { line });
        steps.extend(views);
    }
    let pool = w.pool_length.filter(|l| *l > 0.0).map(|l| {
        let unit = w.pool_length_unit.as_ref().and_then(|u| u.unit_key.as_deref()).unwrap_or("meter");
        format!("{} {}", trim_number(l), if unit == "yard" { "yd" } else { "m" })
    });
    WorkoutDetail {
        workout_id: w.workout_id.unwrap_or(id),
        name: w.workout_name.clone().unwrap_or_else(|| format!("Workout {id}")),
        sport: sport.as_deref().map(words),
        description: w.description.clone().filter(|d| !d.trim().is_empty()),
        pool_length: pool,
        estimated_duration: w.estimated_duration_in_secs.filter(|s| *s > 0.0).map(output::duration),
        estimated_distance_km: w.estimated_distance_in_meters.filter(|m| *m > 0.0).map(output::km),
        timed_steps_total: (totals.seconds > 0.0).then(|| output::duration(totals.seconds)),
        distance_steps_total_km: (totals.meters > 0.0).then(|| output::km(totals.meters)),
        outline: parts.join(" // "),
        steps,
    }
}

#[derive(Default)]
struct Totals {
    seconds: f64,
    meters: f64,
}

fn add_totals(steps: &[WorkoutStep], times: f64, totals: &mut Totals) {
    for s in steps {
        if s.is_repeat() {
            let n = s.number_of_iterations.map(|n| n as f64).or(s.end_condition_value).unwrap_or(1.0);
            add_totals(&s.workout_steps, times * n.max(0.0), totals);
            continue;
        }
        let value = s.end_condition_value.unwrap_or(0.0).max(0.0);
        match s.end_condition_key() {
            Some("time") => totals.seconds += value * times,
            Some("distance") => totals.meters += value * times,
            _ => {}
        }
    }
}

fn step_view(s: &WorkoutStep, sport: &str) -> StepView {
    let kind =
        s.type_key().map_or_else(|| if s.is_repeat() { "repeat".into() } else { "step".into() }, words);
    if s.is_repeat() {
        let n =
            s.number_of_iterations.or_else(|| s.end_condition_value.map(|v| v.round() as i64)).unwrap_or(1);
        return StepView {
            kind: "repeat".to_owned(),
            text: format!("Repeat {n}×"),
            end: None,
            target: None,
            secondary_target: None,
            stroke: None,
            equipment: None,
            exercise: None,
            note: s.description.clone().filter(|d| !d.trim().is_empty()),
            repeat: Some(n),
            steps: s.workout_steps.iter().map(|c| step_view(c, sport)).collect(),
        };
    }
    let end = end_text(s, sport);
    let target =
        target_text(s.target_type.as_ref(), s.target_value_one, s.target_value_two, s.zone_number, sport);
    let secondary_target = target_text(
        s.secondary_target_type.as_ref(),
        s.secondary_target_value_one,
        s.secondary_target_value_two,
        s.secondary_zone_number,
        sport,
    );
    let stroke = s
        .stroke_type
        .as_ref()
        .and_then(|t| t.stroke_type_key.as_deref())
        .filter(|k| !k.is_empty() && *k != "none")
        .map(stroke_words);
    let equipment = s
        .equipment_type
        .as_ref()
        .and_then(|t| t.equipment_type_key.as_deref())
        .filter(|k| !k.is_empty() && *k != "none")
        .map(words);
    let exercise = s.exercise_name.as_deref().or(s.category.as_deref()).map(words);
    let weight = s
        .weight_value
        .filter(|w| *w > 0.0)
        .map(|g| format!("{} kg", trim_number((g / 100.0).round() / 10.0)));

    // "Run 800 m @ 4'55"-5'05"/km", "Warm-up until lap button", "Barbell back squat 10 reps @ 60 kg".
    let label = match (kind.as_str(), &exercise) {
        ("interval", Some(ex)) => capitalise(ex),
        _ => step_label(&kind, sport),
    };
    let mut text = label;
    if let Some(e) = &end {
        text.push(' ');
        text.push_str(e);
    }
    if let Some(st) = &stroke {
        text.push(' ');
        text.push_str(st);
    }
    if let Some(eq) = &equipment {
        text.push_str(&format!(" with {eq}"));
    }
    let targets: Vec<&str> =
        [target.as_deref(), secondary_target.as_deref(), weight.as_deref()].into_iter().flatten().collect();
    if !targets.is_empty() {
        text.push_str(&format!(" @ {}", targets.join(", ")));
    }
    StepView {
        kind,
        text,
        end,
        target,
        secondary_target,
        stroke,
        equipment,
        exercise,
        note: s.description.clone().filter(|d| !d.trim().is_empty()),
        repeat: None,
        steps: Vec::new(),
    }
}

/// One step on the outline: top-level repeats read `Repeat 4×: a · b`, nested ones are bracketed.
fn outline_of(v: &StepView, depth: usize) -> String {
    if v.steps.is_empty() {
        return v.text.clone();
    }
    let inner = v.steps.iter().map(|c| outline_of(c, depth + 1)).collect::<Vec<_>>().join(" · ");
    let group = format!("{}: {inner}", v.text);
    if depth == 0 { group } else { format!("({group})") }
}

fn step_label(kind: &str, sport: &str) -> String {
    match kind {
        "warmup" => "Warm-up".to_owned(),
        "cooldown" => "Cool-down".to_owned(),
        "recovery" => "Recover".to_owned(),
        "rest" => "Rest".to_owned(),
        "interval" => match sport {
            "running" | "trail_running" | "treadmill_running" => "Run".to_owned(),
            "cycling" | "road_biking" | "indoor_cycling" | "mountain_biking" => "Ride".to_owned(),
            "swimming" | "lap_swimming" | "open_water_swimming" => "Swim".to_owned(),
            "walking" | "hiking" => "Walk".to_owned(),
            _ => "Interval".to_owned(),
        },
        other => capitalise(other),
    }
}

/// The end condition in words (`10:00`, `800 m`, `until lap button`, `until HR below 150 bpm`).
fn end_text(s: &WorkoutStep, sport: &str) -> Option<String> {
    let value = s.end_condition_value;
    let key = s.end_condition_key()?;
    Some(match key {
        "time" => output::duration(value?),
        "distance" => distance_text(value?, sport),
        "calories" => format!("{} kcal", trim_number(value?)),
        "lap.button" => "until lap button".to_owned(),
        "heart.rate" => {
            let dir = match s.end_condition_compare.as_deref() {
                Some("gt") => "above",
                Some("lt") => "below",
                _ => "at",
            };
            format!("until HR {dir} {} bpm", trim_number(value?))
        }
        "power" => format!("until power {} W", trim_number(value?)),
        "reps" => format!("{} reps", trim_number(value?)),
        "iterations" => format!("{}×", trim_number(value?)),
        "fixed.rest" => match value {
            Some(v) => format!("fixed rest {}", output::duration(v)),
            None => "fixed rest".to_owned(),
        },
        other => match value {
            Some(v) => format!("{} {}", words(other), trim_number(v)),
            None => words(other),
        },
    })
}

/// `800 m`, `2 km`, `1.5 km`; swims always in metres.
fn distance_text(meters: f64, sport: &str) -> String {
    if meters < 1000.0 || sport.contains("swim") {
        format!("{} m", trim_number(meters))
    } else {
        format!("{} km", trim_number((meters / 10.0).round() / 100.0))
    }
}

/// A target in words: pace ranges (fast-slow, per km or per 100 m for swims), speed, HR zone or
/// bpm, power zone or watts, cadence.
fn target_text(
    kind: Option<&TargetType>,
    one: Option<f64>,
    two: Option<f64>,
    zone: Option<i64>,
    sport: &str,
) -> Option<String> {
    let key = kind?.workout_target_type_key.as_deref()?;
    let values: Vec<f64> = [one, two].into_iter().flatten().filter(|v| v.is_finite() && *v > 0.0).collect();
    let low = values.iter().copied().reduce(f64::min);
    let high = values.iter().copied().reduce(f64::max);
    let range = |f: &dyn Fn(f64) -> String, unit: &str| -> Option<String> {
        match (low, high) {
            (Some(l), Some(h)) if f(l) != f(h) => Some(format!("{}-{}{unit}", f(l), f(h))),
            (Some(l), _) => Some(format!("{}{unit}", f(l))),
            _ => None,
        }
    };
    let swim = sport.contains("swim");
    Some(match key {
        "no.target" => return None,
        "pace.zone" => {
            // m/s: the higher speed is the faster pace; written fast-slow.
            let pace = |v: f64| if swim { output::pace_per_100m(v) } else { output::pace_per_km(v) };
            let (fast, slow) = (high.and_then(pace), low.and_then(pace));
            let unit = if swim { "/100 m" } else { "/km" };
            match (fast, slow) {
                (Some(f), Some(s)) if f != s => format!("{f}-{s}{unit}"),
                (Some(f), _) => format!("{f}{unit}"),
                _ => return None,
            }
        }
        "speed.zone" => range(&|v| format!("{:.1}", output::kmh(v)), " km/h")?,
        "heart.rate.zone" => match zone.filter(|z| *z > 0) {
            Some(z) => format!("HR zone {z}"),
            None => range(&trim_number, " bpm")?,
        },
        "power.zone" => match zone.filter(|z| *z > 0) {
            Some(z) => format!("power zone {z}"),
            None => range(&trim_number, " W")?,
        },
        "cadence" | "cadence.zone" => {
            let unit = if sport.contains("cycl") || sport.contains("bik") { " rpm" } else { " spm" };
            range(&trim_number, unit)?
        }
        other => match zone.filter(|z| *z > 0) {
            Some(z) => format!("{} {z}", words(other)),
            None => match range(&trim_number, "") {
                Some(r) => format!("{} {r}", words(other)),
                None => words(other),
            },
        },
    })
}

fn stroke_words(key: &str) -> String {
    match key {
        "any_stroke" => "any stroke".to_owned(),
        "free" => "freestyle".to_owned(),
        "fly" => "butterfly".to_owned(),
        "individual_medley" => "IM".to_owned(),
        other => words(other),
    }
}

/// `150.0` → `150`, `1.5` → `1.5`.
fn trim_number(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{}", (v * 100.0).round() / 100.0)
    }
}

/// `strength_training` → `strength training`, `BARBELL_BACK_SQUAT` → `barbell back squat`,
/// `pace.zone` → `pace zone`.
fn words(key: &str) -> String {
    key.replace(['_', '.'], " ").to_lowercase()
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().collect::<String>() + chars.as_str())
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
    if !totals.is_empty() {
        text.push_str(&format!(" About {}.", totals.join(" plus ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(value: Value) -> WorkoutStep {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn pace_targets_read_fast_to_slow_whatever_order_garmin_stored() {
        let pace = TargetType {
            workout_target_type_id: Some(6),
            workout_target_type_key: Some("pace.zone".into()),
            display_order: None,
        };
        let fast_first =
            target_text(Some(&pace), Some(1000.0 / 295.0), Some(1000.0 / 305.0), None, "running");
        let slow_first =
            target_text(Some(&pace), Some(1000.0 / 305.0), Some(1000.0 / 295.0), None, "running");
        assert_eq!(fast_first.as_deref(), Some("4'55\"-5'05\"/km"));
        assert_eq!(slow_first, fast_first);
        let swim = target_text(Some(&pace), Some(1.0), Some(1.0), None, "swimming");
        assert_eq!(swim.as_deref(), Some("1'40\"/100 m"));
    }

    #[test]
    fn heart_rate_targets_are_a_zone_or_a_bpm_range() {
        let hr =
            TargetType { workout_target_type_key: Some("heart.rate.zone".into()), ..TargetType::default() };
        assert_eq!(target_text(Some(&hr), None, None, Some(2), "running").as_deref(), Some("HR zone 2"));
        assert_eq!(
            target_text(Some(&hr), Some(140.0), Some(120.0), None, "running").as_deref(),
            Some("120-140 bpm")
        );
        let cadence = TargetType { workout_target_type_key: Some("cadence".into()), ..TargetType::default() };
        assert_eq!(
            target_text(Some(&cadence), Some(85.0), Some(95.0), None, "cycling").as_deref(),
            Some("85-95 rpm")
        );
        let none = TargetType { workout_target_type_key: Some("no.target".into()), ..TargetType::default() };
        assert_eq!(target_text(Some(&none), None, None, None, "running"), None);
    }

    #[test]
    fn end_conditions_read_in_words() {
        let hr_end = step(json!({"type": "ExecutableStepDTO", "stepType": {"stepTypeKey": "interval"},
            "endCondition": {"conditionTypeKey": "heart.rate"}, "endConditionValue": 150, "endConditionCompare": "lt"}));
        assert_eq!(end_text(&hr_end, "running").as_deref(), Some("until HR below 150 bpm"));
        let lap =
            step(json!({"endCondition": {"conditionTypeKey": "lap.button"}, "endConditionValue": 1000}));
        assert_eq!(end_text(&lap, "running").as_deref(), Some("until lap button"));
        assert_eq!(distance_text(1500.0, "running"), "1.5 km");
        assert_eq!(distance_text(2000.0, "running"), "2 km");
        assert_eq!(distance_text(1500.0, "swimming"), "1500 m");
    }

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
