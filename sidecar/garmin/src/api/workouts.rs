//! Workouts (reference §4.12, §5): the library, create / full-replace update / delete, putting a
//! workout on the calendar (and taking it off again with the *schedule* id, never the workout id),
//! and sending it to a watch.

use chrono::NaiveDate;
use reqwest::Method;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::json;

use super::{required, ymd};
use crate::models::training_plans::TrainingPlan;
use crate::models::workouts::{
    DeviceMessage, DeviceMessageRequest, DeviceMessages, ScheduledWorkoutSummary, Workout, WorkoutSchedule,
};
use crate::{Client, Error, Result};

/// Longest workout name Garmin keeps whole (it cuts longer ones and appends `...`); longer names
/// are refused before sending.
pub const MAX_WORKOUT_NAME_CHARS: usize = 255;

/// Workouts (reference §4.12). Made by [`Client::workouts`].
#[derive(Clone, Copy, Debug)]
pub struct WorkoutsApi<'a> {
    pub(crate) client: &'a Client,
}

impl WorkoutsApi<'_> {
    /// `GET /gc-api/workout-service/workouts?start&limit&myWorkoutsOnly=true` — the athlete's own
    /// workouts (summaries without steps; `start` 0-based).
    pub async fn list(&self, start: u32, limit: u32) -> Result<Vec<Workout>> {
        let query = [
            ("start", start.to_string()),
            ("limit", limit.clamp(1, 1000).to_string()),
            ("myWorkoutsOnly", "true".to_owned()),
        ];
        Ok(self.client.get_json("/workout-service/workouts", &query).await?.unwrap_or_default())
    }

    /// `GET /gc-api/trainingplan-service/trainingplan/plans` — the training plans the athlete
    /// follows (empty when Garmin sends no body).
    pub async fn training_plans(&self) -> Result<Vec<TrainingPlan>> {
        let answer: Option<crate::models::training_plans::TrainingPlans> =
            self.client.get_json(super::paths::TRAINING_PLANS, &[]).await?;
        Ok(answer.map(|a| a.plans).unwrap_or_default())
    }

    /// `GET /gc-api/trainingplan-service/trainingplan/fbt-adaptive/{id}` (a Garmin Coach plan) or
    /// `…/phased/{id}` — the plan with its scheduled workouts and phases; `None` when Garmin
    /// answers without a body.
    pub async fn training_plan(&self, plan_id: u64, adaptive: bool) -> Result<Option<TrainingPlan>> {
        self.client.get_json(&super::paths::training_plan(plan_id, adaptive), &[]).await
    }

    /// `GET /gc-api/workout-service/workout/{workoutId}` — one workout with its steps.
    pub async fn get(&self, workout_id: u64) -> Result<Workout> {
        let path = format!("/workout-service/workout/{workout_id}");
        required(self.client.get_json(&path, &[]).await?, &format!("GET /gc-api{path}"))
    }

    /// `POST /gc-api/workout-service/workout` — creates a workout from `workout` (ids, owner and
    /// dates are left out, see [`Workout::for_create`]) and returns Garmin's copy with its
    /// `workoutId` and step ids.
    pub async fn create(&self, workout: &Workout) -> Result<Workout> {
        check_name(workout)?;
        let body = checked(workout.for_create())?;
        let path = "/workout-service/workout";
        let created: Workout = required(
            self.client.send_json(Method::POST, path, &body).await?,
            &format!("POST /gc-api{path}"),
        )?;
        if created.workout_id.is_none() {
            return Err(Error::Decode {
                endpoint: format!("POST /gc-api{path}"),
                field: "workoutId".into(),
                message: "missing".into(),
            });
        }
        Ok(created)
    }

    /// `PUT /gc-api/workout-service/workout/{workoutId}` — replaces the whole workout (send the full
    /// object: read it, change it, write it back). The body's `workoutId` is set to `workout_id`.
    pub async fn update(&self, workout_id: u64, workout: &Workout) -> Result<()> {
        check_name(workout)?;
        let mut body = checked(workout.clone())?;
        body.workout_id = Some(workout_id);
        let path = format!("/workout-service/workout/{workout_id}");
        self.client.send_json::<_, IgnoredAny>(Method::PUT, &path, &body).await.map(|_| ())
    }

    /// `DELETE /gc-api/workout-service/workout/{workoutId}` — deletes the workout (Garmin also
    /// drops its calendar entries, per one source).
    pub async fn delete(&self, workout_id: u64) -> Result<()> {
        self.client.delete(&format!("/workout-service/workout/{workout_id}")).await
    }

    /// `POST /gc-api/workout-service/schedule/{workoutId}` `{"date": "YYYY-MM-DD"}` — puts the
    /// workout on the calendar; the answer's `workout_schedule_id` is what unscheduling needs.
    pub async fn schedule(&self, workout_id: u64, date: NaiveDate) -> Result<WorkoutSchedule> {
        let path = format!("/workout-service/schedule/{workout_id}");
        let endpoint = format!("POST /gc-api{path}");
        let entry: WorkoutSchedule = required(
            self.client.send_json(Method::POST, &path, &json!({ "date": ymd(date) })).await?,
            &endpoint,
        )?;
        if entry.workout_schedule_id.is_none() {
            return Err(Error::Decode {
                endpoint,
                field: "workoutScheduleId".into(),
                message: "missing".into(),
            });
        }
        Ok(entry)
    }

    /// `GET /gc-api/workout-service/schedule/{workoutScheduleId}` — one calendar entry.
    pub async fn get_schedule(&self, schedule_id: u64) -> Result<WorkoutSchedule> {
        let path = format!("/workout-service/schedule/{schedule_id}");
        required(self.client.get_json(&path, &[]).await?, &format!("GET /gc-api{path}"))
    }

    /// `DELETE /gc-api/workout-service/schedule/{workoutScheduleId}` — takes the entry off the
    /// calendar (the workout stays in the library).
    pub async fn unschedule(&self, schedule_id: u64) -> Result<()> {
        self.client.delete(&format!("/workout-service/schedule/{schedule_id}")).await
    }

    /// `POST /gc-api/device-service/devicemessage/messages` `[{deviceId, messageUrl:
    /// "workout-service/workout/FIT/{id}", messageType: "workouts", messageName, groupName: null,
    /// priority: 1, fileType: "FIT", metaDataId}]` — queues the workout for the watch; it arrives
    /// at the next sync. Without `device_id` the last used device is the target (one more
    /// `GET …/deviceservice/mylastused`); the name comes from `GET …/workout/{workoutId}`.
    pub async fn send_to_device(
        &self,
        workout_id: u64,
        device_id: Option<u64>,
    ) -> Result<Vec<DeviceMessage>> {
        let device_id =
            match device_id {
                Some(id) => id,
                None => self.client.devices().last_used().await?.and_then(|d| d.user_device_id).ok_or_else(
                    || Error::InvalidInput("no device has synced yet: name the device to send to".into()),
                )?,
            };
        let workout = self.get(workout_id).await?;
        let name = workout.workout_name.unwrap_or_else(|| format!("Workout {workout_id}"));
        let body = [DeviceMessageRequest::workout(device_id, workout_id, &name)];
        let answer: Option<MessagesAnswer> =
            self.client.send_json(Method::POST, "/device-service/devicemessage/messages", &body).await?;
        Ok(match answer {
            Some(MessagesAnswer::List(items)) => items,
            Some(MessagesAnswer::Page(page)) => page.messages,
            Some(MessagesAnswer::Other(_)) | None => Vec::new(),
        })
    }

    /// `POST /gc-api/graphql-gateway/graphql` `workoutScheduleSummariesScalar(startDate, endDate)`
    /// — scheduled workouts of a range with their `scheduledWorkoutId` (the `workoutScheduleId`;
    /// null for training-plan entries), e.g. to skip scheduling a workout twice.
    pub async fn scheduled_between(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Vec<ScheduledWorkoutSummary>> {
        super::check_range(start, end)?;
        let query = format!(
            "query{{workoutScheduleSummariesScalar(startDate:\"{}\", endDate:\"{}\")}}",
            ymd(start),
            ymd(end)
        );
        Ok(super::graphql(self.client, &query, "workoutScheduleSummariesScalar").await?.unwrap_or_default())
    }

    /// `GET /gc-api/device-service/devicemessage/messages` — queued device messages and their
    /// status.
    pub async fn device_messages(&self) -> Result<DeviceMessages> {
        Ok(self.client.get_json("/device-service/devicemessage/messages", &[]).await?.unwrap_or_default())
    }
}

/// What the device-message POST answers (shape unverified: a list, a page, or something else).
#[derive(Deserialize)]
#[serde(untagged)]
enum MessagesAnswer {
    List(Vec<DeviceMessage>),
    Page(DeviceMessages),
    Other(IgnoredAny),
}

/// The body to send: steps numbered with one global `stepOrder` (the form Garmin takes in every
/// kind of workout), then checked against Garmin's own rules (repeat ends, valid exercise
/// categories and names, weight units, multisport layouts, caps), which Garmin refuses or silently
/// corrupts otherwise.
fn checked(mut workout: Workout) -> Result<Workout> {
    crate::workout_spec::number_steps(&mut workout);
    crate::workout_spec::check_garmin_rules(&workout).map_err(|problems| {
        Error::InvalidInput(format!("Garmin would refuse or corrupt this workout: {}", problems.join("; ")))
    })?;
    Ok(workout)
}

fn check_name(workout: &Workout) -> Result<()> {
    match workout.workout_name.as_deref().map(str::trim) {
        None | Some("") => Err(Error::InvalidInput("a workout needs a name".into())),
        Some(name) if name.chars().count() > MAX_WORKOUT_NAME_CHARS => Err(Error::InvalidInput(format!(
            "a workout name can have at most {MAX_WORKOUT_NAME_CHARS} characters (Garmin cuts longer ones)"
        ))),
        Some(_) => Ok(()),
    }
}
