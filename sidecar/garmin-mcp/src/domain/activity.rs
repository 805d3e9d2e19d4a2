//! Activities as the tools read them: friendly sport words to Garmin type keys, the sport family
//! that decides how speed reads (pace per km, km/h, pace per 100 m), the activity list's page
//! size, and the compact one-line row of an activity (activities, stats, calendar and charts).

use chrono::NaiveDate;
use garmin::models::activities::ActivitySummary;
use rmcp::schemars;
use serde::Serialize;

use crate::domain::words::whole_u32;
use crate::tool_error::ToolError;

/// How an activity's speed reads best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Family {
    /// Runs of every kind: pace per km.
    Run,
    /// Walks and hikes: pace per km.
    Walk,
    /// Rides: km/h.
    Ride,
    /// Swims: pace per 100 m.
    Swim,
    /// Strength and everything else: no speed.
    Other,
}

impl Family {
    /// The family of a Garmin type key (parent type id as a fallback: 1 running, 2 cycling,
    /// 26 swimming).
    pub fn of(type_key: Option<&str>, parent_type_id: Option<i64>) -> Family {
        let key = type_key.unwrap_or_default();
        if key.contains("swim") {
            Family::Swim
        } else if key.contains("run") {
            Family::Run
        } else if key.contains("cycl") || key.contains("bik") || key.contains("ride") || key == "bmx" {
            Family::Ride
        } else if key.contains("walk") || key.contains("hik") || key == "mountaineering" {
            Family::Walk
        } else {
            match parent_type_id {
                Some(1) => Family::Run,
                Some(2) => Family::Ride,
                Some(26) => Family::Swim,
                _ => Family::Other,
            }
        }
    }

    /// Garmin's activity type id of the family's parent type (running 1, cycling 2, swimming 26;
    /// `activity_types.json`), which names its heart-rate zone set ([`HrZones::sport_of_type`]).
    ///
    /// [`HrZones::sport_of_type`]: garmin::models::metrics::HrZones::sport_of_type
    pub fn garmin_type_id(self) -> Option<i64> {
        match self {
            Family::Run => Some(1),
            Family::Ride => Some(2),
            Family::Swim => Some(26),
            Family::Walk | Family::Other => None,
        }
    }

    /// The family of a list row.
    pub fn of_summary(a: &ActivitySummary) -> Family {
        let parent = a.activity_type.as_ref().and_then(|t| t.parent_type_id);
        Family::of(a.type_key(), parent)
    }

    /// Distance-based sports (splits, pace and speed make sense).
    pub fn has_distance(self) -> bool {
        self != Family::Other
    }

    /// A short sport name for breakdowns (`running`, `cycling`…).
    pub fn sport_name(self) -> &'static str {
        match self {
            Family::Run => "running",
            Family::Walk => "walking/hiking",
            Family::Ride => "cycling",
            Family::Swim => "swimming",
            Family::Other => "other",
        }
    }
}

/// Speed fields in the unit a family reads best; at most one is set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Speed {
    /// Pace per km, `5'12"` (runs, walks, hikes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_per_km: Option<String>,
    /// Speed in km/h (rides).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed_kmh: Option<f64>,
    /// Pace per 100 m, `1'52"` (swims).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_per_100m: Option<String>,
}

impl Speed {
    /// The speed of `meters` in `seconds` for `family` (nothing for strength or no distance).
    pub fn of(family: Family, meters: f64, seconds: f64) -> Speed {
        if !(meters > 0.0 && seconds > 0.0) {
            return Speed::default();
        }
        Speed::from_mps(family, meters / seconds)
    }

    /// The speed `mps` (m/s) for `family`.
    pub fn from_mps(family: Family, mps: f64) -> Speed {
        match family {
            Family::Run | Family::Walk => {
                Speed { pace_per_km: display::pace_per_km(mps), ..Speed::default() }
            }
            Family::Ride if mps > 0.0 => Speed { speed_kmh: Some(display::kmh(mps)), ..Speed::default() },
            Family::Swim => Speed { pace_per_100m: display::pace_per_100m(mps), ..Speed::default() },
            _ => Speed::default(),
        }
    }

    /// `5'12"/km`, `28.4 km/h` or `1'52"/100 m`, for summaries.
    pub fn text(&self) -> Option<String> {
        if let Some(p) = &self.pace_per_km {
            return Some(format!("{p}/km"));
        }
        if let Some(s) = self.speed_kmh {
            return Some(format!("{s:.1} km/h"));
        }
        self.pace_per_100m.as_ref().map(|p| format!("{p}/100 m"))
    }
}

/// A sport word resolved to a Garmin type key, with the nouns for summaries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SportFilter {
    /// Garmin `activityType` key (`running`, `cycling`, `lap_swimming`…); parents include children.
    pub type_key: String,
    /// Singular noun, e.g. `run`.
    pub one: String,
    /// Plural noun, e.g. `runs`.
    pub many: String,
}

/// Friendly words (English and Chinese) for Garmin type keys.
const SYNONYMS: &[(&[&str], &str)] = &[
    (&["run", "runs", "running", "jog", "jogging", "跑步", "跑"], "running"),
    (&["trail", "trail_run", "trail_runs", "trail_running", "越野跑", "越野"], "trail_running"),
    (&["treadmill", "treadmill_run", "treadmill_runs", "treadmill_running", "跑步机"], "treadmill_running"),
    (&["track", "track_run", "track_running", "操场"], "track_running"),
    (
        &[
            "ride",
            "rides",
            "bike",
            "bikes",
            "biking",
            "cycle",
            "cycling",
            "bicycle",
            "骑行",
            "骑车",
            "自行车",
        ],
        "cycling",
    ),
    (&["road_ride", "road_bike", "road_biking", "road_cycling", "公路车"], "road_biking"),
    (&["mtb", "mountain_bike", "mountain_biking", "山地车"], "mountain_biking"),
    (&["gravel", "gravel_ride", "gravel_cycling"], "gravel_cycling"),
    (
        &[
            "indoor_ride",
            "indoor_cycling",
            "indoor_bike",
            "spin",
            "spinning",
            "trainer",
            "室内骑行",
            "动感单车",
        ],
        "indoor_cycling",
    ),
    (&["virtual_ride", "zwift"], "virtual_ride"),
    (&["swim", "swims", "swimming", "游泳"], "swimming"),
    (
        &["pool", "pool_swim", "pool_swims", "pool_swimming", "lap_swim", "lap_swimming", "泳池"],
        "lap_swimming",
    ),
    (&["open_water", "open_water_swim", "open_water_swimming", "公开水域"], "open_water_swimming"),
    (
        &[
            "strength",
            "strength_training",
            "gym",
            "weights",
            "weight_training",
            "lifting",
            "力量",
            "力量训练",
            "健身",
        ],
        "strength_training",
    ),
    (&["walk", "walks", "walking", "走路", "步行", "散步"], "walking"),
    (&["hike", "hikes", "hiking", "徒步", "登山"], "hiking"),
    (&["yoga", "瑜伽"], "yoga"),
    (&["cardio", "hiit"], "indoor_cardio"),
    (&["row", "rowing", "划船"], "rowing"),
    (&["elliptical", "椭圆机"], "elliptical"),
];

/// Words meaning "no filter".
const ANY: &[&str] = &["all", "any", "every", "everything", "activities", "全部", "所有"];

impl SportFilter {
    /// Resolves a sport word (`run`, `ride`, `swim`, `strength`, `跑步`, or a Garmin type key such as
    /// `trail_running`); `Ok(None)` for "all"; an argument error for text that cannot be a type.
    pub fn parse(argument: &str, text: &str) -> Result<Option<SportFilter>, ToolError> {
        let norm: String =
            text.trim().to_lowercase().chars().map(|c| if c == ' ' || c == '-' { '_' } else { c }).collect();
        if norm.is_empty() || ANY.contains(&norm.as_str()) {
            return Ok(None);
        }
        let key = SYNONYMS
            .iter()
            .find(|(words, key)| words.contains(&norm.as_str()) || *key == norm)
            .map(|(_, key)| (*key).to_owned());
        let key = match key {
            Some(k) => k,
            None if norm.len() <= 40 && norm.chars().all(|c| c.is_ascii_lowercase() || c == '_') => norm,
            None => {
                return Err(ToolError::invalid(format!(
                    "{argument} `{text}` is not an activity type; use e.g. running, trail_running, treadmill_running, cycling, swimming, lap_swimming, open_water_swimming, strength_training, walking, hiking (or run, ride, swim, strength)"
                )));
            }
        };
        let (one, many) = nouns(&key);
        Ok(Some(SportFilter { type_key: key, one, many }))
    }
}

/// Singular and plural nouns for a type key (`run`/`runs`).
fn nouns(key: &str) -> (String, String) {
    let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    match key {
        "running" => pair("run", "runs"),
        "trail_running" => pair("trail run", "trail runs"),
        "treadmill_running" => pair("treadmill run", "treadmill runs"),
        "track_running" => pair("track run", "track runs"),
        "cycling" => pair("ride", "rides"),
        "road_biking" => pair("road ride", "road rides"),
        "mountain_biking" => pair("mountain-bike ride", "mountain-bike rides"),
        "gravel_cycling" => pair("gravel ride", "gravel rides"),
        "indoor_cycling" | "virtual_ride" => pair("indoor ride", "indoor rides"),
        "swimming" => pair("swim", "swims"),
        "lap_swimming" => pair("pool swim", "pool swims"),
        "open_water_swimming" => pair("open-water swim", "open-water swims"),
        "strength_training" => pair("strength session", "strength sessions"),
        "walking" => pair("walk", "walks"),
        "hiking" => pair("hike", "hikes"),
        other => {
            let words = other.replace('_', " ");
            (format!("{words} activity"), format!("{words} activities"))
        }
    }
}

/// `1 run` / `8 runs`.
pub fn count_noun(n: usize, filter: Option<&SportFilter>) -> String {
    match filter {
        Some(f) if n == 1 => format!("1 {}", f.one),
        Some(f) => format!("{n} {}", f.many),
        None if n == 1 => "1 activity".to_owned(),
        None => format!("{n} activities"),
    }
}

/// One activity in a list: the compact row every list tool shows.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct ActivityRow {
    /// Garmin activity id (use with `get_activity`).
    pub activity_id: u64,
    /// Local start date, `YYYY-MM-DD`.
    pub date: String,
    /// Local start time, `HH:MM`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// Activity name.
    pub name: String,
    /// Garmin type key (`running`, `cycling`, `lap_swimming`, `strength_training`…).
    #[serde(rename = "type")]
    pub type_key: String,
    /// Distance in km (absent without distance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Timer duration, `h:mm:ss`.
    pub duration: String,
    /// Average speed in the sport's unit.
    #[serde(flatten)]
    pub speed: Speed,
    /// Average heart rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_hr_bpm: Option<u32>,
    /// Garmin's training load (EPOC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub training_load: Option<u32>,
}

/// Activities per page of the range walk.
pub const PAGE: u32 = 500;

/// Metres of an activity when it has a real distance.
pub fn distance_m(a: &ActivitySummary) -> Option<f64> {
    a.distance.filter(|d| d.is_finite() && *d > 0.0)
}

/// The local start date of a list row.
pub fn local_date(a: &ActivitySummary) -> Option<NaiveDate> {
    a.start_time_local.map(|t| t.date())
}

/// What to call an activity: its name, or for an unnamed one (Garmin sends `activityName: null`
/// for some uploads and manual entries) its type and place, e.g. `Backcountry skiing in Chamonix`.
pub fn activity_title(name: Option<&str>, type_key: Option<&str>, place: Option<&str>) -> String {
    if let Some(name) = name.map(str::trim).filter(|n| !n.is_empty()) {
        return name.to_owned();
    }
    let kind = type_key.map(str::trim).filter(|k| !k.is_empty() && *k != "uncategorized");
    let mut title = match kind {
        Some(k) => display::capitalise(&k.replace('_', " ")),
        None => "Activity".to_owned(),
    };
    if let Some(place) = place.map(str::trim).filter(|p| !p.is_empty()) {
        title.push_str(&format!(" in {place}"));
    }
    title
}

impl ActivityRow {
    /// The row of one list entry (`None` without an id).
    pub fn of(a: &ActivitySummary) -> Option<ActivityRow> {
        let family = Family::of_summary(a);
        let meters = distance_m(a);
        let seconds = a.duration.unwrap_or(0.0);
        let speed = match meters {
            Some(m) if family.has_distance() => Speed::of(family, m, seconds),
            _ => Speed::default(),
        };
        Some(ActivityRow {
            activity_id: a.activity_id?,
            date: a.start_time_local.map(|t| t.format("%Y-%m-%d").to_string()).unwrap_or_default(),
            time: a.start_time_local.map(|t| t.format("%H:%M").to_string()),
            name: activity_title(a.activity_name.as_deref(), a.type_key(), a.location_name.as_deref()),
            type_key: a.type_key().unwrap_or("other").to_owned(),
            distance_km: meters.map(display::km),
            duration: display::duration(seconds),
            speed,
            avg_hr_bpm: whole_u32(a.average_hr),
            training_load: whole_u32(a.activity_training_load),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn friendly_words_map_to_garmin_type_keys() {
        let key = |s: &str| SportFilter::parse("sport", s).unwrap().map(|f| f.type_key);
        assert_eq!(key("Run").as_deref(), Some("running"));
        assert_eq!(key("ride").as_deref(), Some("cycling"));
        assert_eq!(key("swim").as_deref(), Some("swimming"));
        assert_eq!(key("strength").as_deref(), Some("strength_training"));
        assert_eq!(key("Trail Running").as_deref(), Some("trail_running"));
        assert_eq!(key("游泳").as_deref(), Some("swimming"));
        assert_eq!(key("open-water swim").as_deref(), Some("open_water_swimming"));
        assert_eq!(key("all"), None);
        assert_eq!(key("backcountry_skiing").as_deref(), Some("backcountry_skiing"));
        assert!(SportFilter::parse("sport", "run; drop table").is_err());
    }

    #[test]
    fn families_decide_the_speed_unit() {
        assert_eq!(Family::of(Some("trail_running"), Some(1)), Family::Run);
        assert_eq!(Family::of(Some("lap_swimming"), Some(26)), Family::Swim);
        assert_eq!(Family::of(Some("virtual_ride"), None), Family::Ride);
        assert_eq!(Family::of(Some("strength_training"), Some(29)), Family::Other);
        assert_eq!(Speed::of(Family::Run, 1000.0, 312.0).pace_per_km.as_deref(), Some("5'12\""));
        assert_eq!(Speed::of(Family::Ride, 36_000.0, 3600.0).speed_kmh, Some(36.0));
        assert_eq!(Speed::of(Family::Swim, 100.0, 100.0).pace_per_100m.as_deref(), Some("1'40\""));
        assert_eq!(Speed::of(Family::Other, 100.0, 100.0), Speed::default());
    }
}
