//! The `workouts` toolset's writes: `create_workout` (from the workout spec), `schedule_workout`,
//! `unschedule_workout`, `push_workout_to_device` and `delete_workout`.
//!
//! Each tool checks its arguments, reads what it needs to describe the change in words (the
//! workout's name, the device's name — a missing id fails here, before anyone is asked), and hands
//! the change to the safety model ([`crate::writes`]), which decides whether it is written.

use garmin::changes::Change;
use garmin::workout_spec::{SpecSegment, SpecSport, SpecStep, parse_spec, preview};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, schemars, tool, tool_router};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::domain::dates::parse_date;
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use crate::writes::{Proposed, WriteOutcome};

/// Arguments of `create_workout`: the workout spec's fields, plus `confirm`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CreateWorkoutArgs {
    /// Workout name shown in Garmin Connect and on the watch (1–255 characters), e.g. "800m x4".
    pub name: String,
    /// "run", "bike", "swim", "strength", "cardio", "hiit", "yoga", "pilates", "mobility" or
    /// "multisport".
    #[schemars(with = "SpecSport")]
    pub sport: Value,
    /// Notes for the whole workout.
    #[serde(default)]
    pub description: Option<String>,
    /// Pool length in metres (swims only; default 25).
    #[serde(default)]
    #[schemars(range(min = 10, max = 100))]
    pub pool_length_m: Option<f64>,
    /// The steps in order (multisport: [] and see `segments`). Each is an object with `type`
    /// (warmup, interval/run, recovery, rest, cooldown, or repeat with `times` and `steps`), one end
    /// (`distance_m`, `distance_km`, `duration_min`, `duration_s`, or none = lap button) and
    /// optional targets (`pace` "5:00" per km, `pace_range` "4:50-5:10", `hr_zone` 1-5, `hr_range`
    /// "150-165", `power_range`, `cadence_range`; swims: `stroke`, paces per 100 m). Example:
    /// [{"type":"warmup","duration_min":10},{"type":"repeat","times":4,"steps":[{"type":"interval",
    /// "distance_m":800,"pace":"5:00"},{"type":"recovery","duration_min":2}]},{"type":"cooldown",
    /// "duration_min":10}]. Strength, cardio, hiit, yoga, pilates, mobility: {"type":"exercise",
    /// "exercise":"barbell bench press","reps":8,"weight_kg":60} (names from Garmin's catalogue:
    /// get_workouts find_exercise searches it), sets and supersets as repeats; hiit also
    /// {"type":"emom","minutes":10,"steps":[...]}, {"type":"tabata","steps":[...]},
    /// {"type":"amrap","duration_min":12,"steps":[...]}, {"type":"repeat","until_min":20,...}.
    #[schemars(with = "Vec<SpecStep>")]
    pub steps: Vec<Value>,
    /// Multisport only: the legs in order, each {"sport": "run"|"bike"|"swim", "steps": [...]}
    /// (swim legs may give `pool_length_m`); a leg is one work step or one repeat, the first may
    /// start with a warmup, the last end with a cooldown.
    #[serde(default)]
    #[schemars(with = "Option<Vec<SpecSegment>>")]
    pub segments: Option<Value>,
    /// Multisport only: true to have the watch ask for a lap press between legs.
    #[serde(default)]
    pub transitions: Option<bool>,
    /// Write now (only honoured when the server allows direct writes; otherwise the person
    /// confirms in the Garmin MCP app or, when this client can ask them, in the chat). Leave false
    /// to get a preview.
    #[serde(default)]
    pub confirm: bool,
}

/// Arguments of `schedule_workout`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ScheduleWorkoutArgs {
    /// The library workout (an id from get_workouts or create_workout).
    pub workout_id: u64,
    /// The day, YYYY-MM-DD.
    pub date: String,
    /// Write now (see create_workout).
    #[serde(default)]
    pub confirm: bool,
}

/// Arguments of `unschedule_workout`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct UnscheduleWorkoutArgs {
    /// The calendar entry (`schedule_id` from schedule_workout, or a scheduled workout's id in
    /// get_calendar).
    pub schedule_id: u64,
    /// Write now (see create_workout).
    #[serde(default)]
    pub confirm: bool,
}

/// Arguments of `push_workout_to_device`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct PushWorkoutArgs {
    /// The library workout.
    pub workout_id: u64,
    /// The watch (a device id from get_devices); default: the device that synced last.
    #[serde(default)]
    pub device_id: Option<u64>,
    /// Write now (see create_workout).
    #[serde(default)]
    pub confirm: bool,
}

/// Arguments of `delete_workout`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct DeleteWorkoutArgs {
    /// The library workout to delete (its calendar entries go with it).
    pub workout_id: u64,
    /// Write now (see create_workout).
    #[serde(default)]
    pub confirm: bool,
}

#[tool_router(router = workout_writes_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Create a structured workout (run, bike, swim, strength, cardio, HIIT, yoga, pilates,
    /// mobility or multisport) in the person's Garmin library from a spec of steps, targets,
    /// exercises and repeats. Answers with a plain-words preview and totals (sets, reps and volume
    /// for exercise workouts); exercise names that are not exact are matched to Garmin's catalogue
    /// or refused with the closest ones. Nothing is
    /// written until the person confirms (in the Garmin MCP app, in the chat when this client can
    /// ask them, or by the server allowing direct writes with confirm: true); when asked in the
    /// chat they may also pick a day to schedule it and send it to the watch. Otherwise use
    /// schedule_workout / push_workout_to_device with the id.
    #[tool(
        name = "create_workout",
        annotations(
            title = "Create a workout",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WriteOutcome>()
    )]
    async fn create_workout(
        &self,
        Parameters(args): Parameters<CreateWorkoutArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let mut spec_json = Map::new();
        spec_json.insert("name".into(), Value::String(args.name));
        spec_json.insert("sport".into(), args.sport);
        if let Some(description) = args.description {
            spec_json.insert("description".into(), Value::String(description));
        }
        if let Some(pool) = args.pool_length_m {
            spec_json.insert("pool_length_m".into(), pool.into());
        }
        if !args.steps.is_empty() || args.segments.is_none() {
            spec_json.insert("steps".into(), Value::Array(args.steps));
        }
        if let Some(segments) = args.segments {
            spec_json.insert("segments".into(), segments);
        }
        if let Some(transitions) = args.transitions {
            spec_json.insert("transitions".into(), transitions.into());
        }
        let spec_json = Value::Object(spec_json);
        let spec = parse_spec(&spec_json).map_err(|errors| {
            ToolError::invalid(format!("The workout spec has {} problem(s):\n{errors}", errors.0.len()))
        })?;
        let workout = spec.to_garmin();
        let words = preview(&workout);
        let proposed = Proposed {
            preview: format!("'{}' ({}): {}", spec.name, spec.sport.as_str(), words.text),
            change: Change::CreateWorkout { workout: Box::new(workout) },
            spec: Some(spec_json),
            undoes: None,
        };
        self.writes().propose(proposed, args.confirm, &ctx).await
    }

    /// Put a workout from the library on the person's Garmin calendar on a day (it then shows on
    /// the watch that day). Confirmed like create_workout.
    #[tool(
        name = "schedule_workout",
        annotations(
            title = "Schedule a workout",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WriteOutcome>()
    )]
    async fn schedule_workout(
        &self,
        Parameters(args): Parameters<ScheduleWorkoutArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let date = parse_date("date", &args.date, self.today())?;
        let client = self.web_session().await?;
        let workout = client.workouts().get(args.workout_id).await?;
        let name = workout.workout_name.as_deref().unwrap_or("workout");
        let proposed = Proposed {
            preview: format!(
                "Schedule '{name}' (workout {}) on {}: {}",
                args.workout_id,
                date.format("%a %Y-%m-%d"),
                preview(&workout).text
            ),
            change: Change::ScheduleWorkout { workout_id: args.workout_id, date },
            spec: None,
            undoes: None,
        };
        self.writes().propose(proposed, args.confirm, &ctx).await
    }

    /// Take a scheduled workout off the calendar (the workout stays in the library). Confirmed
    /// like create_workout.
    #[tool(
        name = "unschedule_workout",
        annotations(
            title = "Unschedule a workout",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WriteOutcome>()
    )]
    async fn unschedule_workout(
        &self,
        Parameters(args): Parameters<UnscheduleWorkoutArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let client = self.web_session().await?;
        let entry = client.workouts().get_schedule(args.schedule_id).await?;
        let name = entry.workout.as_ref().and_then(|w| w.workout_name.clone());
        let proposed = Proposed {
            preview: format!(
                "Remove {} from the calendar{} (calendar entry {}; the workout stays in the library)",
                name.map_or_else(
                    || format!("workout {}", entry.workout_id().unwrap_or_default()),
                    |n| format!("'{n}'")
                ),
                entry.calendar_date.map_or_else(String::new, |d| format!(" on {d}")),
                args.schedule_id
            ),
            change: Change::UnscheduleWorkout { schedule_id: args.schedule_id },
            spec: None,
            undoes: None,
        };
        self.writes().propose(proposed, args.confirm, &ctx).await
    }

    /// Send a library workout to the person's watch (default: the device that synced last); it
    /// arrives at the watch's next sync. The answer names the device. Confirmed like
    /// create_workout.
    #[tool(
        name = "push_workout_to_device",
        annotations(
            title = "Send a workout to the watch",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WriteOutcome>()
    )]
    async fn push_workout_to_device(
        &self,
        Parameters(args): Parameters<PushWorkoutArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let client = self.web_session().await?;
        let workouts = client.workouts();
        let (workout, device) = tokio::join!(workouts.get(args.workout_id), async {
            match args.device_id {
                Some(id) => client.devices().list().await.map(|devices| {
                    devices.iter().find(|d| d.device_id == Some(id)).and_then(|d| d.name().map(str::to_owned))
                }),
                None => client.devices().last_used().await.map(|d| d.and_then(|d| d.last_used_device_name)),
            }
        });
        let workout = workout?;
        let device = match (device?, args.device_id) {
            (Some(name), Some(id)) => format!("{name} (device {id})"),
            (Some(name), None) => format!("{name}, the device that synced last"),
            (None, Some(id)) => {
                return Err(ToolError::invalid(format!(
                    "device {id} is not one of the person's devices; get_devices lists them"
                )));
            }
            (None, None) => "the device that synced last".to_owned(),
        };
        let name = workout.workout_name.as_deref().unwrap_or("workout");
        let proposed = Proposed {
            preview: format!(
                "Send '{name}' (workout {}) to {device}; it arrives at the next sync",
                args.workout_id
            ),
            change: Change::SendToDevice { workout_id: args.workout_id, device_id: args.device_id },
            spec: None,
            undoes: None,
        };
        self.writes().propose(proposed, args.confirm, &ctx).await
    }

    /// Delete a workout from the person's Garmin library (its calendar entries go too). A copy is
    /// kept in the change journal so undo_change can re-create it. Confirmed like create_workout.
    #[tool(
        name = "delete_workout",
        annotations(
            title = "Delete a workout",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WriteOutcome>()
    )]
    async fn delete_workout(
        &self,
        Parameters(args): Parameters<DeleteWorkoutArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let client = self.web_session().await?;
        let workout = client.workouts().get(args.workout_id).await?;
        let proposed = Proposed {
            preview: format!(
                "Delete '{}' (workout {}) from the library: {}",
                workout.workout_name.as_deref().unwrap_or("workout"),
                args.workout_id,
                preview(&workout).text
            ),
            change: Change::DeleteWorkout { workout_id: args.workout_id },
            spec: None,
            undoes: None,
        };
        self.writes().propose(proposed, args.confirm, &ctx).await
    }
}
