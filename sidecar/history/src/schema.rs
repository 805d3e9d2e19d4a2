//! The history database's schema, as an ordered list of migrations (never edit a released one; add
//! the next). `rusqlite_migration` keeps the version in SQLite's `user_version`, so opening a file
//! made by an older build upgrades it in place and a file from a newer build is refused, not damaged.
//!
//! Every record keeps the JSON Garmin returned (`*_json`, so nothing is lost when we learn to read
//! more) beside typed columns for what tools query. Times: `*_at` are Unix seconds (UTC) of when we
//! read Garmin; `synced_on` is the athlete's local date at that moment (what decides whether a day
//! was over when it was read).
//!
//! Size decision (issue #16 §1): neither the original FIT file nor a second-by-second series is
//! stored. A FIT file is 100–300 KB per hour of recording; at ~300 activities a year that is
//! 30–90 MB a year and one more request per activity, for samples the current tools never read.
//! What the analytics need per activity — the summary (Garmin's load, average/max heart rate,
//! average/normalised power, durations), the laps and the seconds in each heart-rate zone — is kept
//! here (a few KB per activity with its raw JSON; `cargo bench -p garmin-mcp --bench history`
//! measures a year). The second-by-second series is read once at sync (one `details` request per
//! activity) and reduced to mean-max curves for power, speed and heart rate on
//! `analytics::mean_max::STANDARD_DURATIONS` (34 durations, 1 s to 5 h) and best times over
//! `all_standard_distances` (migration 2): at most 34 × 3 + 17 typed rows. Measured by the bench on
//! the fake's year (333 activities, 2026-12-01): the curves add 2,263 bytes per activity (0.75 MB a
//! year, the database 11.85 MB in all), while the series the sync read was 26.6 MB of JSON (5 s
//! rows; a 1 Hz recording is about five times that), which is not kept. The FIT file stays one
//! `export_activity` away.

use rusqlite_migration::{M, Migrations};

/// Migration 1: activities with laps and zones, days, training status, activity types, checkpoints.
const V1: &str = r"
CREATE TABLE activities (
    activity_id      INTEGER PRIMARY KEY,
    local_date       TEXT NOT NULL,          -- YYYY-MM-DD of the local start
    start_local      TEXT,                   -- YYYY-MM-DDTHH:MM:SS, local time
    start_gmt        TEXT,                   -- RFC 3339, UTC
    type_key         TEXT,
    type_id          INTEGER,
    parent_type_id   INTEGER,
    sport_type_id    INTEGER,
    name             TEXT,
    distance_m       REAL,
    duration_s       REAL,
    moving_s         REAL,
    elevation_gain_m REAL,
    avg_hr           REAL,
    max_hr           REAL,
    avg_power        REAL,
    norm_power       REAL,
    training_load    REAL,
    calories         REAL,
    aerobic_te       REAL,
    summary_json     TEXT NOT NULL,          -- the activity-list row Garmin returned
    splits_json      TEXT,                   -- GET …/activity/{id}/splits
    hr_zones_json    TEXT,                   -- GET …/activity/{id}/hrTimeInZones
    details_at       INTEGER,                -- when laps and zones were read (NULL: not yet)
    synced_at        INTEGER NOT NULL
);
CREATE INDEX activities_by_date ON activities(local_date);

CREATE TABLE activity_laps (
    activity_id   INTEGER NOT NULL REFERENCES activities(activity_id) ON DELETE CASCADE,
    lap_index     INTEGER NOT NULL,
    distance_m    REAL,
    duration_s    REAL,
    moving_s      REAL,
    avg_speed_mps REAL,
    avg_hr        REAL,
    max_hr        REAL,
    avg_power     REAL,
    PRIMARY KEY (activity_id, lap_index)
);

CREATE TABLE activity_hr_zones (
    activity_id INTEGER NOT NULL REFERENCES activities(activity_id) ON DELETE CASCADE,
    zone        INTEGER NOT NULL,
    seconds     REAL NOT NULL,
    low_bpm     REAL,
    PRIMARY KEY (activity_id, zone)
);

CREATE TABLE days (
    date               TEXT PRIMARY KEY,    -- YYYY-MM-DD
    steps              INTEGER,
    resting_hr         REAL,
    total_kcal         REAL,
    avg_stress         REAL,
    body_battery_high  REAL,
    body_battery_low   REAL,
    intensity_minutes  REAL,
    sleep_s            REAL,
    sleep_score        REAL,
    hrv_last_night_ms  REAL,
    hrv_weekly_avg_ms  REAL,
    hrv_status         TEXT,
    weight_g           REAL,
    summary_json       TEXT,                -- GET usersummary/daily/{name}?calendarDate
    sleep_json         TEXT,                -- this night's row of sleep-service/stats/sleep/daily
    hrv_json           TEXT,                -- this night's row of hrv-service/hrv/daily
    weight_json        TEXT,                -- this day's row of weight-service/weight/range
    summary_at         INTEGER,             -- when the daily summary was read
    summary_on         TEXT,                -- the athlete's date then
    ranges_at          INTEGER              -- when sleep/HRV/weight were read
);

CREATE TABLE training_status (
    date          TEXT PRIMARY KEY,
    status        INTEGER,
    feedback      TEXT,
    acute_load    REAL,
    chronic_load  REAL,
    acwr          REAL,
    raw_json      TEXT NOT NULL,
    synced_at     INTEGER NOT NULL
);

CREATE TABLE activity_types (
    type_id        INTEGER PRIMARY KEY,
    type_key       TEXT NOT NULL,
    parent_type_id INTEGER
);
CREATE INDEX activity_types_by_key ON activity_types(type_key);

-- One row per finished unit of sync work (a 28-day block): a block is read again only while it
-- holds days Garmin may still revise, or with --full.
CREATE TABLE sync_blocks (
    block_start TEXT PRIMARY KEY,           -- YYYY-MM-DD
    block_end   TEXT NOT NULL,
    covered_to  TEXT NOT NULL,              -- last day that was over when the block was read
    synced_on   TEXT NOT NULL,              -- the athlete's date then
    synced_at   INTEGER NOT NULL
);
";

/// Migration 2: per-activity mean-max curves and best times, computed at sync from the activity's
/// series (read once, then dropped). `curves_at` marks an activity whose series was read, so a
/// killed or rate-limited sync does not read it again; a database made before this migration has it
/// NULL everywhere, so its activities get their curves on the next sync.
const V2: &str = r"
ALTER TABLE activities ADD COLUMN curves_at INTEGER;  -- when the series was read and reduced (NULL: not yet)

CREATE TABLE activity_curves (
    activity_id  INTEGER NOT NULL REFERENCES activities(activity_id) ON DELETE CASCADE,
    metric       TEXT NOT NULL,                 -- power (W) | speed (m/s) | hr (bpm)
    seconds      INTEGER NOT NULL,              -- a duration of analytics::mean_max::STANDARD_DURATIONS
    value        REAL NOT NULL,                 -- the best mean over that duration
    start_second INTEGER NOT NULL,              -- where it starts, s from the first sample
    PRIMARY KEY (activity_id, metric, seconds)
) WITHOUT ROWID;

CREATE TABLE activity_best_times (
    activity_id  INTEGER NOT NULL REFERENCES activities(activity_id) ON DELETE CASCADE,
    meters       REAL NOT NULL,                 -- one of analytics::mean_max::all_standard_distances
    label        TEXT NOT NULL,
    seconds      REAL NOT NULL,
    start_second REAL NOT NULL,
    PRIMARY KEY (activity_id, meters)
) WITHOUT ROWID;
";

/// Migration 3: the athlete's heart-rate profile and FTP as the load analytics use them, one row,
/// read at each sync and at most once a day by the tools (`profile.rs`), so a second analysis asks
/// Garmin nothing.
const V3: &str = r"
CREATE TABLE athlete_profile (
    id                 INTEGER PRIMARY KEY CHECK (id = 1),
    max_hr             REAL,                -- from the first zone entry with max, resting and threshold
    resting_hr         REAL,
    threshold_hr       REAL,
    sex                TEXT,                -- MALE / FEMALE as Garmin writes it, NULL unknown
    ftp                REAL,                -- functional threshold power, W
    hr_zones_json      TEXT,                -- GET …/biometric-service/heartRateZones
    user_settings_json TEXT,                -- GET …/userprofile/user-settings
    personal_json      TEXT,                -- GET …/userprofile/personal-information/{name}
    read_on            TEXT NOT NULL,       -- the athlete's local date when read
    read_at            INTEGER NOT NULL     -- Unix seconds when read
);
";

/// Migration 4: which source served each kept record (`personal_api` or `web_session`, NULL when
/// read before sources existed, i.e. the web session), since the raw JSON of the two differs
/// (issue #16 §2, #15 §3): the activity summary, its laps and zone times (`fit_file` when derived
/// from the original FIT file the Personal API serves), the day's summary and its night's sleep.
const V4: &str = r"
ALTER TABLE activities ADD COLUMN summary_source TEXT;
ALTER TABLE activities ADD COLUMN details_source TEXT;  -- web_session, or fit_file (laps and zones from the FIT file)
ALTER TABLE days ADD COLUMN summary_source TEXT;
ALTER TABLE days ADD COLUMN sleep_source TEXT;          -- personal_api: sleep_json is the E11 night, else the web's sleep-stats day
";

/// Migration 5: every set of each strength activity (issue #28 §4), as Garmin keeps them with the
/// person's corrections (`exerciseSets`, web session only), read once per activity after the blocks
/// and committed with its `sets_at` mark, so a killed sync never stores an activity's sets twice
/// and never reads a finished one again, except while the person may still be correcting them
/// (read within the sync's `REVISE_DAYS` of the session, `sets_on`); a database made before this
/// migration has `sets_at` NULL, so its strength activities get their sets on the next sync. Units as the strength log reads
/// them (`garmin::strength_log`): kg (Garmin sends grams), seconds; the exercise is the set's most
/// probable guess, by Garmin's keys (the catalogue names it and its muscles when read).
const V5: &str = r"
ALTER TABLE activities ADD COLUMN sets_json TEXT;     -- GET …/activity/{id}/exerciseSets
ALTER TABLE activities ADD COLUMN sets_at INTEGER;    -- when the sets were read (NULL: not yet)
ALTER TABLE activities ADD COLUMN sets_on TEXT;       -- the athlete's date then (read again while within REVISE_DAYS of the session)

CREATE TABLE activity_sets (
    activity_id   INTEGER NOT NULL REFERENCES activities(activity_id) ON DELETE CASCADE,
    set_index     INTEGER NOT NULL,               -- position among the activity's sets, rests included
    set_type      TEXT NOT NULL,                  -- ACTIVE | REST
    category      TEXT,                           -- Garmin's exercise category, e.g. SQUAT
    exercise_name TEXT,                           -- Garmin's exercise name, e.g. BARBELL_BACK_SQUAT
    reps          INTEGER,
    weight_kg     REAL,
    duration_s    REAL,
    PRIMARY KEY (activity_id, set_index)
) WITHOUT ROWID;
";

/// Migration 6: the daily series of Garmin's newest metrics (issue #29), so their trends come from
/// the local history: the hill and endurance scores of each day, each night's Health Status (its metrics against
/// their baselines, as read: Garmin's shape is *unverified*) and the load focus of the block's
/// training-status snapshot (its last day). One row per day that has any; a column is NULL where
/// Garmin had nothing, never 0.
const V6: &str = r"
CREATE TABLE daily_metrics (
    date                 TEXT PRIMARY KEY,      -- YYYY-MM-DD
    hill_score           REAL,                  -- GET …/metrics-service/metrics/hillscore/stats (daily)
    hill_class           INTEGER,               -- hillScoreClassificationId
    endurance_score      REAL,                  -- GET …/endurancescore/stats (daily groupAverage)
    health_status_json   TEXT,                  -- GET …/healthstatus-service/healthstatus/summary/{start}/{end}
    load_aerobic_low     REAL,                  -- mostRecentTrainingLoadBalance of the snapshot
    load_aerobic_high    REAL,
    load_anaerobic       REAL,
    load_focus_feedback  TEXT,                  -- trainingBalanceFeedbackPhrase
    synced_at            INTEGER NOT NULL
) WITHOUT ROWID;
";

/// Migration 7: the load focus kept for every day (issue #29), not only on each block's last day,
/// so its trend comes from the history like the scores'. The sync reads each day's
/// training-status snapshot and notes the day it read it, so a day is read again only while Garmin
/// may still revise it (as the daily summaries). A day read with no load focus (a watch without
/// it) keeps its load columns NULL, never 0, and is not asked again once settled. Rows kept by
/// migration 6 (a block's last day) keep their values; the other days of blocks already settled
/// stay empty until a `--full` sync.
const V7: &str = r"
ALTER TABLE daily_metrics ADD COLUMN load_focus_on TEXT;   -- the sync's today when the day's load focus was read
";

/// Migration 8: the morning Training Readiness kept for every day (issue #29), so
/// `get_training_status`'s trend reads it from the history instead of one request per day: the
/// score and acute load of the day's `AFTER_WAKEUP_RESET` entry (else its latest), and the day it
/// was read. The sync reads each day's readiness with its training-status snapshot, and again only
/// while Garmin may still revise it; a day read with no readiness (a watch without it) keeps NULL,
/// never 0. Days kept before this migration have `readiness_on` NULL: the next sync reads the
/// readiness of the days of the blocks it reads (without reading their snapshots again), a
/// `--full` sync the rest, and until then the trend reads those days live.
const V8: &str = r"
ALTER TABLE daily_metrics ADD COLUMN readiness_score REAL;         -- GET …/metrics-service/metrics/trainingreadiness/{date}: the morning entry's score
ALTER TABLE daily_metrics ADD COLUMN readiness_acute_load REAL;    -- its acuteLoad
ALTER TABLE daily_metrics ADD COLUMN readiness_on TEXT;            -- the sync's today when the day's readiness was read
";

/// Migration 9: the workout step each lap was run under (issue #29), so `get_plan_vs_actual`
/// matches a done workout's laps to its steps from the history. `wkt_step_index` is Garmin's
/// `lapDTOs[].wktStepIndex` (FIT `lap.wkt_step_index`; NULL: the lap belongs to no step);
/// `lap_steps_kept` marks an activity whose laps were stored by a build that keeps it, because in a
/// file synced before this migration every index is NULL without meaning "no step": those
/// activities are read live until a `--full` sync stores their laps again.
const V9: &str = r"
ALTER TABLE activity_laps ADD COLUMN wkt_step_index INTEGER;  -- lapDTOs[].wktStepIndex (NULL: no step)
ALTER TABLE activities ADD COLUMN lap_steps_kept INTEGER;     -- 1: laps stored with their step index; NULL: stored before migration 9
";

/// Migration 10: the rest of issue #29's daily series, so `get_training_status`'s trend and
/// `get_daily_health`'s range read them from the history:
///
/// * **heat and altitude acclimation** of each day, from the day's training-status snapshot the
///   sync already reads for the load focus (`mostRecentVO2Max.heatAltitudeAcclimation`: no request
///   of its own), with `acclimation_on` the day it was read;
/// * **Running Tolerance** of each day (tolerance, acute and weekly impact load, Garmin's verdict),
///   from one `runningtolerance/stats` range request per sync block, with `tolerance_on` the day
///   the block's range was read (a watch without it answers 404: the days are kept read, NULL);
/// * **sleep need** of each night (minutes), from the sleep range the sync already reads: the web
///   row's `values.sleepNeed`, the Personal API night's `sleepNeed.actual`.
///
/// A version-9 file: the acclimation and tolerance columns stay NULL with their `_on` NULL, so the
/// next sync reads the snapshots and tolerance of the blocks it reads (a `--full` sync every
/// block's) and until then the tools read those days live; the sleep need of nights already kept
/// is taken from their kept JSON here, without asking Garmin. A value Garmin did not have stays
/// NULL, never 0.
const V10: &str = r"
ALTER TABLE daily_metrics ADD COLUMN heat_acclimation_pct REAL;    -- heatAltitudeAcclimation.heatAcclimationPercentage
ALTER TABLE daily_metrics ADD COLUMN heat_trend TEXT;              -- heatTrend (ACCLIMATIZING, ACCLIMATIZED…)
ALTER TABLE daily_metrics ADD COLUMN altitude_acclimation_m REAL;  -- altitudeAcclimation (m acclimated to)
ALTER TABLE daily_metrics ADD COLUMN current_altitude_m REAL;      -- currentAltitude
ALTER TABLE daily_metrics ADD COLUMN altitude_trend TEXT;          -- altitudeTrend
ALTER TABLE daily_metrics ADD COLUMN acclimation_on TEXT;          -- the sync's today when the day's acclimation was read
ALTER TABLE daily_metrics ADD COLUMN running_tolerance REAL;        -- GET …/runningtolerance/stats (daily): runningTolerance
ALTER TABLE daily_metrics ADD COLUMN acute_impact_load REAL;       -- acuteRunningLoad
ALTER TABLE daily_metrics ADD COLUMN weekly_impact_load REAL;      -- weeklyRunningLoad
ALTER TABLE daily_metrics ADD COLUMN tolerance_feedback TEXT;      -- toleranceFeedback (ABOVE_TOLERANCE…)
ALTER TABLE daily_metrics ADD COLUMN tolerance_on TEXT;            -- the sync's today when the day's tolerance was read
ALTER TABLE days ADD COLUMN sleep_need_min REAL;                   -- the night's sleep need (min)
UPDATE days SET sleep_need_min = CASE
        WHEN sleep_source = 'personal_api' THEN json_extract(sleep_json, '$.sleepNeed.actual')
        ELSE json_extract(sleep_json, '$.values.sleepNeed')
    END
    WHERE sleep_json IS NOT NULL AND json_valid(sleep_json);
UPDATE days SET sleep_need_min = NULL WHERE typeof(sleep_need_min) NOT IN ('integer', 'real') OR sleep_need_min <= 0;
";

/// Every migration, oldest first.
pub fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(V1),
        M::up(V2),
        M::up(V3),
        M::up(V4),
        M::up(V5),
        M::up(V6),
        M::up(V7),
        M::up(V8),
        M::up(V9),
        M::up(V10),
    ])
}

/// The schema up to version `n` (at least 1), for tests that make a database as an older build did.
#[doc(hidden)]
pub fn up_to(n: usize) -> Migrations<'static> {
    let all = [V1, V2, V3, V4, V5, V6, V7, V8, V9, V10];
    Migrations::new(all.iter().take(n.max(1)).map(|sql| M::up(sql)).collect())
}

/// The schema's first version, for tests that make a database as an older build did.
#[doc(hidden)]
pub fn v1_only() -> Migrations<'static> {
    Migrations::new(vec![M::up(V1)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_migrations_are_valid() {
        assert!(migrations().validate().is_ok());
    }
}
