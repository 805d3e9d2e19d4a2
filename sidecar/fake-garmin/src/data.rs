//! The fake athlete's account: a deterministic year of data ending at `config.today` (same seed
//! and date → identical bytes), plus everything the write endpoints change afterwards.
//!
//! | module | what |
//! |---|---|
//! | [`plan`], [`sessions`], [`activity`], [`series`] | the training year: activities, laps, 5-second samples |
//! | [`fit`] | each watch-recorded activity's original FIT file, written from the same samples |
//! | [`health`], [`intraday`], [`sleep`] | every day's wellness numbers, series and nights |
//! | [`fitness`], [`records`] | training load/status/readiness, VO2max, personal records |
//! | [`kit`] | gear and devices |
//! | [`events`], [`library`], [`workouts`] | calendar events, workout library, workout normalisation |
//! | [`coach`] | the Garmin Coach plan leading to the primary race, its workouts and phases |
//! | [`races`] | the public race catalogue of the race search (a pure function, not stored) |
//!
//! Facts tests can rely on: activity ids count up from 90000000001 in start order; about a year
//! of days (`first..=today`); four runs a week (Tue intervals, Wed easy, Fri tempo/easy, Sun long),
//! Monday strength, Thursday pool swim, Saturday ride, ~10 % skipped; always a run yesterday and
//! no activity today; a half-marathon race about ten weeks ago; every activity was recorded by the
//! watch except three from 120 days back on (the first easy run, ride and strength session): a GPX
//! upload, a TCX upload and a manual entry ([`activity::Origin`], for the download quirks). The
//! original FIT of a watch-recorded activity is generated from its samples ([`fit`]), except the
//! oldest run's, which is a real fēnix 5 recording ([`Dataset::real_recording`]).

pub mod activity;
pub mod clock;
pub mod coach;
pub mod events;
pub mod fit;
pub mod fitness;
pub mod health;
pub mod intraday;
pub mod kit;
pub mod library;
pub mod plan;
pub mod races;
pub mod records;
pub mod rng;
pub mod series;
pub mod sessions;
pub mod sleep;
pub mod workouts;

use std::collections::{BTreeMap, BTreeSet};

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, Weekday};
use serde_json::Value;

use crate::FakeConfig;
use activity::Activity;
use clock::Zone;
use events::Event;
use health::Day;
use kit::{Device, Gear};

/// A workout placed on the calendar (`workoutScheduleId`).
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// `workoutScheduleId`.
    pub id: u64,
    /// Scheduled library workout.
    pub workout_id: u64,
    /// Calendar day.
    pub date: NaiveDate,
    /// `createdDate`.
    pub created: String,
}

/// A message queued for a device (`/device-service/devicemessage/messages`).
#[derive(Clone, Debug, PartialEq)]
pub struct DeviceMessage {
    /// `messageId`.
    pub id: u64,
    /// Target device.
    pub device_id: u64,
    /// `messageUrl` as sent.
    pub url: String,
    /// `messageType`.
    pub kind: String,
    /// `messageName`.
    pub name: String,
    /// `metaDataId`.
    pub meta_data_id: Option<u64>,
    /// `fileType`.
    pub file_type: String,
    /// `priority` (normalised to 1–10).
    pub priority: u64,
    /// `createdTimeStamp`.
    pub created: String,
}

/// Why a write was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum WriteError {
    /// The id does not exist (404).
    NotFound,
    /// The body is invalid (400 with this text).
    Invalid(String),
}

/// Next free ids of written objects.
#[derive(Clone, Debug, Default)]
pub struct NextIds {
    /// Next `workoutId`.
    pub workout: u64,
    /// Next workout `stepId`.
    pub step: u64,
    /// Next `workoutScheduleId`.
    pub schedule: u64,
    /// Next calendar event id.
    pub event: u64,
    /// Next device `messageId`.
    pub message: u64,
}

/// The generated account data plus writes.
#[derive(Debug, Default)]
pub struct Dataset {
    /// Generator seed.
    pub seed: u64,
    /// Anchor date (last day with data).
    pub today: NaiveDate,
    /// First day with data.
    pub first: NaiveDate,
    /// Home time zone and start area.
    pub zone: Zone,
    /// `displayName`.
    pub display_name: String,
    /// `userProfilePk`.
    pub profile_id: u64,
    /// Full name.
    pub full_name: String,
    /// Every generated activity, oldest first (deleted ones stay here, listed in `deleted`).
    pub activities: Vec<Activity>,
    /// Ids deleted through `DELETE /activity-service/activity/{id}`.
    pub deleted: BTreeSet<u64>,
    /// One entry per day, `first..=today`.
    pub days: Vec<Day>,
    /// Gear.
    pub gear: Vec<Gear>,
    /// Devices.
    pub devices: Vec<Device>,
    /// Workout library by id (stored in Garmin's response shape).
    pub workouts: BTreeMap<u64, Value>,
    /// Scheduled workouts by `workoutScheduleId`.
    pub schedules: BTreeMap<u64, Schedule>,
    /// Calendar events by id.
    pub events: BTreeMap<u64, Event>,
    /// Messages queued for devices.
    pub messages: Vec<DeviceMessage>,
    /// Strength sets replaced through `PUT /activity-service/activity/{id}/exerciseSets`, by
    /// activity id, stored as sent (Garmin's GET then answers with them).
    pub exercise_sets: BTreeMap<u64, Value>,
    /// Day of the past half marathon.
    pub race_day: NaiveDate,
    /// The Garmin Coach plan the athlete follows, leading to the primary race ([`coach`]).
    pub coach: Option<coach::CoachPlan>,
    /// Next free ids.
    pub next: NextIds,
}

/// Generates the data set for `config` (free-function form of [`Dataset::generate`]).
pub fn generate(config: &FakeConfig) -> Dataset {
    Dataset::generate(config)
}

impl Dataset {
    /// Generates the data set for `config`.
    pub fn generate(config: &FakeConfig) -> Self {
        let seed = config.seed;
        let today = config.today;
        let first = today - Duration::days(364);
        let zone = Zone::for_site(config.site);
        let mut race_day = today - Duration::days(70);
        while race_day.weekday() != Weekday::Sun {
            race_day -= Duration::days(1);
        }
        let switch = first + Duration::days(180);
        let gear = kit::gear(seed, first, switch);
        let activities = plan::year(&plan::Inputs {
            seed,
            zone: &zone,
            first,
            today,
            race_day,
            watch_id: kit::WATCH_ID,
            old_shoe: &gear[0].uuid,
            daily_shoe: &gear[1].uuid,
            race_shoe: &gear[2].uuid,
            bike: &gear[3].uuid,
            shoe_switch: switch,
            interval_workout: library::INTERVALS_ID,
            tempo_workout: library::TEMPO_ID,
        });
        let mut days = health::year(seed, &zone, first, today, &activities);
        fitness::fill(&mut days, &activities);
        // What the account's devices do not record is not there (drawn all the same, so every other
        // figure of the data set stays as it is).
        for day in &mut days {
            if config.untracked.hrv {
                day.hrv = None;
            }
            if config.untracked.weight {
                day.weight = None;
            }
        }
        let mut rng = rng::Rng::derive(seed, 0xE7E7);
        let race_activity = activities.iter().find(|a| a.kind == activity::Kind::Race).map(|a| a.id);
        let events = events::seeded(
            today,
            race_day,
            race_activity,
            [rng.uuid(), rng.uuid(), rng.uuid()],
            (zone.lat, zone.lon),
        );
        let mut data = Dataset {
            seed,
            today,
            first,
            display_name: config.display_name.clone(),
            profile_id: config.profile_id,
            full_name: config.full_name.clone(),
            activities,
            days,
            devices: kit::devices(first, config.untracked.newest_metrics),
            gear,
            events: events.into_iter().map(|e| (e.id, e)).collect(),
            race_day,
            zone,
            next: NextIds {
                workout: 900_000_001,
                step: 12_400_000_001,
                schedule: 500_000_001,
                event: 20_000_101,
                message: 70_000_001,
            },
            ..Dataset::default()
        };
        data.coach = data
            .events
            .values()
            .find(|e| e.primary && e.race && e.date > today)
            .map(|e| coach::plan(seed, today, e.date, &e.name));
        for (id, days_ago, body) in library::seeds() {
            let at = today - Duration::days(days_ago);
            let stamp = data.stamp(id, clock::t1(at.and_hms_opt(19, 12, 5).unwrap_or_default()));
            if let Ok(w) = workouts::normalize(&body, &stamp, data.next.step) {
                data.next.step += workouts::step_ids(&w).len() as u64;
                data.workouts.insert(id, w);
            }
        }
        for d in clock::days(today - Duration::days(14), today + Duration::days(13)) {
            let workout_id = match d.weekday() {
                Weekday::Tue => library::INTERVALS_ID,
                Weekday::Fri if d.iso_week().week().is_multiple_of(2) => library::TEMPO_ID,
                _ => continue,
            };
            let created = clock::t1((d - Duration::days(20)).and_hms_opt(20, 0, 0).unwrap_or_default());
            let id = data.next.schedule;
            data.next.schedule += 1;
            data.schedules.insert(id, Schedule { id, workout_id, date: d, created });
        }
        let followed: Vec<u64> =
            data.activities.iter().filter(|a| a.workout_id.is_some()).map(|a| a.id).collect();
        for id in followed {
            data.follow_workout(id);
        }
        data
    }

    /// Marks each lap of activity `id` with the step of its workout (as the library holds it now)
    /// the lap was run under ([`workouts::lap_step_indexes`]); laps of an activity without a
    /// workout, or whose workout is gone, have none. A test that changes a workout calls it again
    /// so the run followed the workout as it now is.
    pub fn follow_workout(&mut self, id: u64) {
        let Some(index) = self.activities.iter().position(|a| a.id == id) else { return };
        let workout = self.activities[index].workout_id.and_then(|w| self.workouts.get(&w));
        let intensities: Vec<&str> = self.activities[index].laps.iter().map(|l| l.intensity).collect();
        let steps = match workout {
            Some(w) => workouts::lap_step_indexes(w, &intensities),
            None => vec![None; intensities.len()],
        };
        for (lap, step) in self.activities[index].laps.iter_mut().zip(steps) {
            lap.step_index = step;
        }
    }

    /// Activities not deleted, oldest first.
    pub fn live(&self) -> impl DoubleEndedIterator<Item = &Activity> + Clone {
        self.activities.iter().filter(|a| !self.deleted.contains(&a.id))
    }

    /// The activity whose original FIT is the real fēnix 5 recording
    /// (`fixtures/fit/activity_run_fenix5.fit`) rather than a file generated from its samples: the
    /// oldest watch-recorded run, so the FIT reader keeps meeting a real file (with its HRV,
    /// running-dynamics and developer messages) while every recent activity's file matches its web data.
    pub fn real_recording(&self) -> Option<u64> {
        self.activities
            .iter()
            .find(|a| a.sport() == activity::Sport::Running && a.origin == activity::Origin::Device)
            .map(|a| a.id)
    }

    /// A live activity by id.
    pub fn activity(&self, id: u64) -> Option<&Activity> {
        self.activities.iter().find(|a| a.id == id && !self.deleted.contains(&id))
    }

    /// Whether a device of the account records Garmin's newest metrics (#29).
    pub fn records_newest_metrics(&self) -> bool {
        self.devices.iter().any(|d| d.newest_metrics)
    }

    /// The day record of `date`, if inside the data set.
    pub fn day(&self, date: NaiveDate) -> Option<&Day> {
        let i = usize::try_from((date - self.first).num_days()).ok()?;
        self.days.get(i)
    }

    /// Mutable day record of `date` (hydration logs write here).
    pub fn day_mut(&mut self, date: NaiveDate) -> Option<&mut Day> {
        let i = usize::try_from((date - self.first).num_days()).ok()?;
        self.days.get_mut(i)
    }

    /// Live activities that started on local `date`.
    pub fn activities_on(&self, date: NaiveDate) -> impl Iterator<Item = &Activity> {
        self.live().filter(move |a| a.start_local.date() == date)
    }

    /// "Now" for write timestamps: today's date with the wall-clock time of day.
    pub fn now(&self) -> NaiveDateTime {
        self.today.and_time(chrono::Utc::now().time())
    }

    fn stamp(&self, workout_id: u64, at: String) -> workouts::Stamp {
        workouts::Stamp {
            workout_id,
            owner: self.profile_id,
            display_name: self.display_name.clone(),
            full_name: self.full_name.clone(),
            created: at.clone(),
            updated: at,
        }
    }

    /// `POST /workout-service/workout`: stores a new workout and returns it.
    pub fn create_workout(&mut self, body: &Value) -> Result<Value, String> {
        let id = self.next.workout;
        let stamp = self.stamp(id, clock::t1(self.now()));
        let w = workouts::normalize(body, &stamp, self.next.step)?;
        self.next.workout += 1;
        self.next.step += workouts::step_ids(&w).len() as u64;
        self.workouts.insert(id, w.clone());
        Ok(w)
    }

    /// `PUT /workout-service/workout/{id}`: full replace, keeping id, owner and creation date.
    pub fn update_workout(&mut self, id: u64, body: &Value) -> Result<(), WriteError> {
        let created = self.workouts.get(&id).ok_or(WriteError::NotFound)?["createdDate"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let mut stamp = self.stamp(id, clock::t1(self.now()));
        stamp.created = created;
        let w = workouts::normalize(body, &stamp, self.next.step).map_err(WriteError::Invalid)?;
        self.next.step += workouts::step_ids(&w).len() as u64;
        self.workouts.insert(id, w);
        Ok(())
    }

    /// `DELETE /workout-service/workout/{id}`: also drops its schedules. False when unknown.
    pub fn delete_workout(&mut self, id: u64) -> bool {
        let found = self.workouts.remove(&id).is_some();
        if found {
            self.schedules.retain(|_, s| s.workout_id != id);
        }
        found
    }

    /// `POST /workout-service/schedule/{workoutId}`.
    pub fn schedule(&mut self, workout_id: u64, date: NaiveDate) -> Result<Schedule, WriteError> {
        if !self.workouts.contains_key(&workout_id) {
            return Err(WriteError::NotFound);
        }
        let id = self.next.schedule;
        self.next.schedule += 1;
        let s = Schedule { id, workout_id, date, created: clock::t1(self.now()) };
        self.schedules.insert(id, s.clone());
        Ok(s)
    }

    /// `POST /calendar-service/event`.
    pub fn create_event(&mut self, body: &Value) -> Result<Event, String> {
        let mut rng = rng::Rng::derive(self.seed, 0xE000 + self.next.event);
        let base = Event {
            id: self.next.event,
            uuid: rng.uuid(),
            name: String::new(),
            date: self.today,
            start_hhmm: None,
            time_zone: None,
            event_type: "running".into(),
            race: false,
            target: None,
            goal_s: None,
            primary: false,
            location: None,
            url: None,
            note: None,
            start_point: None,
            activity_id: None,
        };
        let e = events::apply(body, &base)?;
        self.next.event += 1;
        self.events.insert(e.id, e.clone());
        Ok(e)
    }

    /// `PUT /activity-service/activity/{id}`: rename and/or describe.
    pub fn update_activity(&mut self, id: u64, name: Option<String>, description: Option<String>) -> bool {
        if self.deleted.contains(&id) {
            return false;
        }
        let Some(a) = self.activities.iter_mut().find(|a| a.id == id) else { return false };
        if let Some(n) = name {
            a.name = n;
        }
        if description.is_some() {
            a.description = description;
        }
        true
    }
}
