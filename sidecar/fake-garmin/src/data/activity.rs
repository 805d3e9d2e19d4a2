//! One recorded activity of the fake athlete: what was planned (kind, laps, route) and what the
//! watch "measured" (statistics computed from the generated sample series).
//!
//! The series itself is not stored; [`super::series::samples`] regenerates it from the fields
//! here, so a year of 5-second samples costs no memory until an endpoint asks for it.

use chrono::NaiveDateTime;

/// What kind of session an activity was; decides pace, heart rate, laps and name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Easy aerobic run.
    Easy,
    /// Weekend long run.
    Long,
    /// Track-style repeats with jog recoveries.
    Intervals,
    /// Sustained threshold run.
    Tempo,
    /// A race (the past calendar event).
    Race,
    /// Road ride.
    Ride,
    /// Pool swim.
    Swim,
    /// Gym strength session.
    Strength,
}

/// The sport an activity belongs to, with Garmin's id tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sport {
    /// `running` (typeId 1).
    Running,
    /// `cycling` (typeId 2).
    Cycling,
    /// `lap_swimming` (typeId 27).
    Swimming,
    /// `strength_training` (typeId 13).
    Strength,
}

impl Kind {
    /// The sport of this kind of session.
    pub fn sport(self) -> Sport {
        match self {
            Kind::Easy | Kind::Long | Kind::Intervals | Kind::Tempo | Kind::Race => Sport::Running,
            Kind::Ride => Sport::Cycling,
            Kind::Swim => Sport::Swimming,
            Kind::Strength => Sport::Strength,
        }
    }
}

impl Sport {
    /// `activityType.typeId`.
    pub fn type_id(self) -> u32 {
        match self {
            Sport::Running => 1,
            Sport::Cycling => 2,
            Sport::Swimming => 27,
            Sport::Strength => 13,
        }
    }

    /// `activityType.typeKey`.
    pub fn type_key(self) -> &'static str {
        match self {
            Sport::Running => "running",
            Sport::Cycling => "cycling",
            Sport::Swimming => "lap_swimming",
            Sport::Strength => "strength_training",
        }
    }

    /// `activityType.parentTypeId` (17 = all, 26 = swimming, 29 = fitness_equipment).
    pub fn parent_type_id(self) -> u32 {
        match self {
            Sport::Running | Sport::Cycling => 17,
            Sport::Swimming => 26,
            Sport::Strength => 29,
        }
    }

    /// Parent `typeKey` (what `activityType=` filters also match).
    pub fn parent_type_key(self) -> &'static str {
        match self {
            Sport::Running | Sport::Cycling => "all",
            Sport::Swimming => "swimming",
            Sport::Strength => "fitness_equipment",
        }
    }

    /// FIT sport number, shown as `sportTypeId` in activity lists.
    pub fn fit_sport(self) -> u32 {
        match self {
            Sport::Running => 1,
            Sport::Cycling => 2,
            Sport::Swimming => 5,
            Sport::Strength => 10,
        }
    }

    /// True when the watch records a GPS track.
    pub fn has_gps(self) -> bool {
        matches!(self, Sport::Running | Sport::Cycling)
    }
}

/// How an activity reached Garmin Connect, which decides what its downloads answer
/// (docs/garmin-web-api.md §0, from garmin-connect-export): the "original" of a GPX or TCX upload
/// is a zip holding that file, not a `.fit`; a manual entry has no original (404); the TCX export
/// of a GPX upload fails with HTTP 500.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Origin {
    /// Recorded by the watch and synced: the original is a FIT file.
    #[default]
    Device,
    /// Uploaded as a GPX file.
    GpxUpload,
    /// Uploaded as a TCX file.
    TcxUpload,
    /// Entered by hand on the web (no file at all).
    Manual,
}

impl Origin {
    /// `metadataDTO.fileFormat` as `(formatId, formatKey)`; `None` for a manual entry.
    pub fn file_format(self) -> Option<(u64, &'static str)> {
        match self {
            Origin::Device => Some((7, "fit")),
            Origin::GpxUpload => Some((1, "gpx")),
            Origin::TcxUpload => Some((4, "tcx")),
            Origin::Manual => None,
        }
    }
}

/// Where an activity goes: a closed loop around a start point with a rolling elevation profile.
#[derive(Clone, Debug, Default)]
pub struct Route {
    /// Start latitude.
    pub lat: f64,
    /// Start longitude.
    pub lon: f64,
    /// Loop length in metres (the track closes after this distance).
    pub loop_m: f64,
    /// Phase of the loop (radians), so different activities head off differently.
    pub heading: f64,
    /// Elevation at the start, metres.
    pub elev_base: f64,
    /// Amplitude of the long hill wave, metres.
    pub elev_amp: f64,
    /// Wavelength of the long hill wave, metres.
    pub elev_wave: f64,
}

/// Measured statistics over a span of samples (a lap or the whole activity).
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Metres.
    pub distance: f64,
    /// Seconds.
    pub duration: f64,
    /// m/s.
    pub avg_speed: f64,
    /// m/s.
    pub max_speed: f64,
    /// bpm.
    pub avg_hr: f64,
    /// bpm.
    pub max_hr: f64,
    /// bpm.
    pub min_hr: f64,
    /// Steps, revolutions or strokes per minute.
    pub avg_cadence: f64,
    /// Peak cadence.
    pub max_cadence: f64,
    /// Watts.
    pub avg_power: f64,
    /// Watts.
    pub max_power: f64,
    /// Metres climbed.
    pub elev_gain: f64,
    /// Metres descended.
    pub elev_loss: f64,
    /// Metres.
    pub min_elev: f64,
    /// Metres.
    pub max_elev: f64,
    /// First position (lat, lon).
    pub start: (f64, f64),
    /// Last position (lat, lon).
    pub end: (f64, f64),
    /// Seconds in heart-rate zones 1..5.
    pub hr_zones: [f64; 5],
    /// Seconds in power zones 1..5.
    pub power_zones: [f64; 5],
}

/// One lap as planned: the series generator follows it, the splits endpoint reports it.
#[derive(Clone, Debug, Default)]
pub struct Lap {
    /// Seconds from the activity start.
    pub start_s: f64,
    /// Seconds.
    pub duration_s: f64,
    /// Metres (0 for strength sets).
    pub distance_m: f64,
    /// Heart rate the lap settles toward.
    pub target_hr: f64,
    /// Garmin's `intensityType` (`WARMUP`, `ACTIVE`, `REST`, `RECOVERY`, `COOLDOWN`).
    pub intensity: &'static str,
    /// Relative speed wobble inside the lap (0.0–0.1).
    pub wobble: f64,
    /// The workout step the lap was run under (`wktStepIndex`), for a run that followed a
    /// workout ([`super::workouts::lap_step_indexes`]); `None` otherwise.
    pub step_index: Option<usize>,
    /// Measured over the lap's samples.
    pub stats: Stats,
}

/// One strength set (exerciseSets endpoint); rest sets have no exercise.
#[derive(Clone, Debug)]
pub struct ExerciseSet {
    /// Garmin exercise category of the watch's best guess, e.g. `SQUAT`.
    pub category: &'static str,
    /// Garmin exercise name of the watch's best guess, e.g. `BARBELL_BACK_SQUAT`.
    pub name: &'static str,
    /// The watch's guesses, best first: `(category, name, probability 0-100)`; the first is
    /// `category`/`name`. Empty for rests.
    pub guesses: Vec<(&'static str, &'static str, f64)>,
    /// Repetitions (0 for rest and for timed sets such as a plank).
    pub reps: u32,
    /// Grams.
    pub weight_g: f64,
    /// Seconds from the activity start.
    pub start_s: f64,
    /// Seconds.
    pub duration_s: f64,
    /// `ACTIVE` or `REST`.
    pub set_type: &'static str,
}

/// Activity weather as Garmin reports it (temperatures in °F).
#[derive(Clone, Debug, Default)]
pub struct Weather {
    /// °F.
    pub temp_f: f64,
    /// °F.
    pub apparent_f: f64,
    /// °F.
    pub dew_point_f: f64,
    /// Percent.
    pub humidity: f64,
    /// Degrees.
    pub wind_dir: f64,
    /// Garmin's wind speed (mph-like integer scale).
    pub wind_speed: f64,
    /// Gust, same scale; `None` when calm.
    pub wind_gust: Option<f64>,
    /// `(weatherTypePk, desc, image)`.
    pub kind: (u32, &'static str, &'static str),
}

/// One activity.
#[derive(Clone, Debug)]
pub struct Activity {
    /// 11-digit activity id.
    pub id: u64,
    /// Random seed of this activity's series.
    pub seed: u64,
    /// Session kind.
    pub kind: Kind,
    /// `activityName` (renames are written here).
    pub name: String,
    /// `description` (written by PUT).
    pub description: Option<String>,
    /// Start, local wall clock.
    pub start_local: NaiveDateTime,
    /// Start, GMT.
    pub start_gmt: NaiveDateTime,
    /// The route followed (runs and rides).
    pub route: Route,
    /// Laps (auto-lap per km, workout steps, swim intervals or strength sets).
    pub laps: Vec<Lap>,
    /// Whole-activity statistics, computed from the samples.
    pub stats: Stats,
    /// Seconds actually moving.
    pub moving_s: f64,
    /// Seconds from start to stop including pauses.
    pub elapsed_s: f64,
    /// Total kcal.
    pub calories: f64,
    /// Resting share of `calories`.
    pub bmr_calories: f64,
    /// Aerobic training effect 0–5.
    pub aerobic_te: f64,
    /// Anaerobic training effect 0–5.
    pub anaerobic_te: f64,
    /// EPOC-based training load.
    pub training_load: f64,
    /// VO2max estimate the watch gave after the activity (runs only).
    pub vo2max: Option<f64>,
    /// Steps (runs).
    pub steps: u32,
    /// Moderate intensity minutes earned.
    pub moderate_min: u32,
    /// Vigorous intensity minutes earned.
    pub vigorous_min: u32,
    /// Stride length, cm (runs).
    pub stride_cm: f64,
    /// Ground contact time, ms (runs).
    pub gct_ms: f64,
    /// Vertical oscillation, cm (runs).
    pub vo_cm: f64,
    /// Temperature recorded by the watch, °C.
    pub temp_c: f64,
    /// Weather from the nearest station.
    pub weather: Weather,
    /// Gear used (uuid).
    pub gear_uuid: Option<String>,
    /// Recording device.
    pub device_id: u64,
    /// How it reached Garmin (watch, GPX/TCX upload, manual entry).
    pub origin: Origin,
    /// Workout the activity followed, if any.
    pub workout_id: Option<u64>,
    /// Pool length in metres (swims).
    pub pool_m: Option<f64>,
    /// Strength sets.
    pub sets: Vec<ExerciseSet>,
    /// Body Battery change during the activity.
    pub body_battery_delta: i32,
    /// Fastest efforts over standard distances (runs): `(metres, seconds, start offset s)`.
    pub best_efforts: Vec<(f64, f64, f64)>,
}

impl Activity {
    /// The sport of this activity.
    pub fn sport(&self) -> Sport {
        self.kind.sport()
    }

    /// GMT end instant.
    pub fn end_gmt(&self) -> NaiveDateTime {
        self.start_gmt + chrono::Duration::milliseconds((self.elapsed_s * 1000.0) as i64)
    }

    /// True when `filter` (an `activityType` query value) names this activity's type or parent.
    pub fn matches_type(&self, filter: &str) -> bool {
        let s = self.sport();
        filter == "all" || filter == s.type_key() || filter == s.parent_type_key()
    }
}
