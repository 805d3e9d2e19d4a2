//! The `profile` toolset: `get_profile` (who the athlete is, body data, fitness markers, zones and
//! lifetime totals), `get_devices` (watches and other Garmin devices) and `get_gear` (shoes and
//! bikes, their distance against the retire-at limit, and which to replace soon).
//!
//! Every tool fans its independent Garmin reads out at once. Reads whose path needs the account's
//! displayName or profile id learn it first, once ([`know_account`]), so a fresh session does not
//! ask `socialProfile` once per call.

use chrono::{Datelike, NaiveDate};
use display::{capitalise, words};
use garmin::models::devices::{Device, LastUsedDevice};
use garmin::models::gear::{Gear, GearStats};
use garmin::models::metrics::HrZones;
use garmin::models::profile::{LifetimeTotals, UserMetric};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

mod thresholds;

pub use self::thresholds::{FtpPoint, LactateThresholdPoint, SwimSpeedPart, ThresholdHistory};
use self::thresholds::{threshold_history, thresholds_sentence};
use crate::domain::parts::{part, with_missing};
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Share of the retire-at distance from which gear is flagged "replace soon" (9/10).
const REPLACE_SOON_TENTHS: f64 = 9.0;

// ---------------------------------------------------------------------------------------------
// get_profile

/// Arguments of `get_profile` (none).
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct GetProfileArgs {}

/// The athlete's profile.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ProfileView {
    /// displayName (the account's handle).
    pub display_name: String,
    /// Full name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_name: Option<String>,
    /// `male` / `female`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gender: Option<String>,
    /// Age in years.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age: Option<i64>,
    /// Birth year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub birth_year: Option<i32>,
    /// Height (cm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub height_cm: Option<f64>,
    /// Weight (kg) as set in the profile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_kg: Option<f64>,
    /// `metric`, `statute_us` or `statute_uk`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measurement_system: Option<String>,
    /// Running VO2max (ml/kg/min).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vo2max_running: Option<f64>,
    /// Cycling VO2max (ml/kg/min).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vo2max_cycling: Option<f64>,
    /// Maximum heart rate the zones use (bpm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_hr_bpm: Option<f64>,
    /// Resting heart rate the zones use (bpm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resting_hr_bpm: Option<f64>,
    /// Lactate-threshold heart rate (bpm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lactate_threshold_hr_bpm: Option<f64>,
    /// Lactate-threshold pace (`4'25"` per km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lactate_threshold_pace_per_km: Option<String>,
    /// Functional threshold power (W).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ftp_watts: Option<f64>,
    /// Lactate threshold and FTP over the last year, each value with its day, and the latest
    /// Critical Swim Speed.
    pub thresholds: ThresholdHistory,
    /// Heart-rate zones per sport.
    pub hr_zones: Vec<HrZoneSet>,
    /// Totals since the account began.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lifetime: Option<LifetimeView>,
    /// Totals per sport (from Garmin's user statistics).
    pub sports: Vec<SportTotals>,
    /// Parts Garmin could not give, with why (e.g. `heart-rate zones: Garmin has no such item…`);
    /// the rest of the profile is still shown.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// One sport's heart-rate zones.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct HrZoneSet {
    /// `default`, `running`, `cycling`…
    pub sport: String,
    /// How the zones are set, e.g. `hr max based`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Lower bound of zones 1–5 (bpm).
    pub zone_floors_bpm: Vec<f64>,
    /// Maximum heart rate used (bpm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_hr_bpm: Option<f64>,
}

/// Lifetime totals.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct LifetimeView {
    /// Activities.
    pub activities: i64,
    /// Distance (km).
    pub distance_km: f64,
    /// Duration (`312 h 5 min`).
    pub duration: String,
    /// Calories (kcal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calories_kcal: Option<f64>,
}

/// One sport's totals.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct SportTotals {
    /// Sport, e.g. `running`.
    pub sport: String,
    /// Activities.
    pub activities: i64,
    /// Distance (km).
    pub distance_km: f64,
    /// Duration (`312 h 5 min`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// get_devices

/// Arguments of `get_devices` (none).
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct GetDevicesArgs {}

/// The athlete's devices.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct DeviceList {
    /// Registered devices, the primary one first.
    pub devices: Vec<DeviceView>,
    /// Parts Garmin could not give, with why (the list is still shown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// One device.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct DeviceView {
    /// Device id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device_id: Option<u64>,
    /// Name shown for it.
    pub name: String,
    /// Product model, e.g. `Forerunner 965`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Firmware version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub firmware: Option<String>,
    /// Serial number (the athlete's own device).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub serial_number: Option<String>,
    /// Last upload to Garmin Connect (`YYYY-MM-DD HH:MM UTC`), known for the last used device.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_sync_utc: Option<String>,
    /// The primary activity tracker.
    pub primary: bool,
    /// The device that synced last (where workouts are sent by default).
    pub last_used: bool,
    /// Notable features, e.g. `workouts`, `music`, `wifi`.
    pub capabilities: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// get_gear

/// Arguments of `get_gear`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct GetGearArgs {
    /// Also list retired gear (default false).
    #[serde(default)]
    pub include_retired: Option<bool>,
}

/// The athlete's gear.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct GearList {
    /// Shoes, bikes and other gear, active first.
    pub gear: Vec<GearView>,
    /// Retired items not listed (ask with `include_retired`).
    pub retired_not_listed: usize,
    /// Items past 90 % of their retire-at distance, in words.
    pub replace_soon: Vec<String>,
    /// Parts Garmin could not give, with why (e.g. one item's totals; the rest is still shown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// One piece of gear.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct GearView {
    /// Gear uuid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gear_uuid: Option<String>,
    /// Name (nickname, else make and model).
    pub name: String,
    /// Make and model, e.g. `Nike Pegasus 41`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub brand_model: Option<String>,
    /// `shoes`, `bike`…
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// `active` or `retired`.
    pub status: String,
    /// Distance covered (km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Retire-at distance (km), when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit_km: Option<f64>,
    /// Distance left before the limit (km; negative past it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remaining_km: Option<f64>,
    /// Share of the limit used (%).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub used_pct: Option<f64>,
    /// Activities that used it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uses: Option<u64>,
    /// First use (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_use: Option<String>,
    /// Retired on (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retired_on: Option<String>,
    /// "replace soon" note past 90 % of the limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The profile from Garmin's answers: the settings first, the other reads completing them (a
/// value Garmin stores in two places is taken from the first that has it).
#[allow(clippy::too_many_arguments, reason = "one argument per Garmin answer the profile is made of")]
fn profile_view(
    (display_name, full_name): (String, Option<String>),
    settings: garmin::models::profile::UserSettings,
    personal: garmin::models::profile::PersonalInformation,
    zones: &[garmin::models::metrics::HrZones],
    threshold: Option<&garmin::models::metrics::LactateThreshold>,
    stats: &garmin::models::profile::UserStatistics,
    totals: &garmin::models::profile::LifetimeTotals,
    missing: Vec<String>,
) -> ProfileView {
    let data = settings.user_data.unwrap_or_default();
    let info = personal.user_info.unwrap_or_default();
    let bio = personal.biometric_profile.unwrap_or_default();
    let main_zones = zones
        .iter()
        .find(|z| z.sport.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("default")))
        .or_else(|| zones.first());
    let lt_hr = threshold
        .as_ref()
        .and_then(|t| t.heart_rate)
        .or(data.lactate_threshold_heart_rate)
        .or(bio.lactate_threshold_heart_rate)
        .filter(|v| *v > 0.0);
    // Garmin stores the threshold speed as m/s ÷ 10 (reference §3.4).
    let lt_speed = threshold.as_ref().and_then(|t| t.speed).or(data.lactate_threshold_speed);
    ProfileView {
        display_name,
        full_name,
        gender: data.gender.clone().or(info.gender_type.clone()).map(|g| g.to_lowercase()),
        age: info.age,
        birth_year: info.birth_date.or(data.birth_date).map(|d| d.year()),
        height_cm: data.height.or(bio.height).filter(|v| *v > 0.0),
        weight_kg: data.weight.or(bio.weight).filter(|v| *v > 0.0).map(|g| round1(g / 1000.0)),
        measurement_system: data.measurement_system.clone(),
        vo2max_running: data.vo2_max_running.or(bio.vo2_max).filter(|v| *v > 0.0),
        vo2max_cycling: data.vo2_max_cycling.or(bio.vo2_max_cycling).filter(|v| *v > 0.0),
        max_hr_bpm: main_zones.and_then(|z| z.max_heart_rate_used),
        resting_hr_bpm: main_zones
            .and_then(|z| z.resting_heart_rate_used)
            .or(totals.average_resting_heart_rate.map(f64::round)),
        lactate_threshold_hr_bpm: lt_hr,
        lactate_threshold_pace_per_km: lt_speed.and_then(|v| display::pace_per_km(v * 10.0)),
        ftp_watts: bio.functional_threshold_power.filter(|v| *v > 0.0),
        thresholds: ThresholdHistory::default(),
        hr_zones: zones.iter().filter_map(zone_set).collect(),
        lifetime: lifetime(totals),
        sports: stats.user_metrics.iter().filter_map(sport_totals).collect(),
        missing,
    }
}

#[tool_router(router = profile_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// The athlete's profile: name, gender, age, height, weight, VO2max (running, cycling), max and
    /// resting heart rate, heart-rate zones per sport (bpm floors), lactate threshold (heart rate
    /// and pace) and FTP with their history over the last year (each value with its day),
    /// Critical Swim Speed, unit system, lifetime totals and totals per sport. Use it to personalise
    /// advice ("what are my zones?", "what's my threshold pace?", "how many km have I ever run?").
    #[tool(
        name = "get_profile",
        annotations(
            title = "Athlete profile",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<ProfileView>()
    )]
    async fn get_profile(
        &self,
        Parameters(_args): Parameters<GetProfileArgs>,
    ) -> Result<Answer<ProfileView>, ToolError> {
        let client = self.web_session().await?;
        // Learning the displayName reads the social profile already; reuse it instead of asking twice.
        let account = if client.display_name().is_empty() { Some(client.verify().await?) } else { None };
        // The settings are the profile; every other request only completes it, so one that fails
        // is named in `missing` and the rest is still shown.
        let mut history_missing = Vec::new();
        let today = self.today();
        let (social, settings, personal, zones, threshold, stats, totals, history) = futures::join!(
            async {
                match &account {
                    Some(_) => Ok(None),
                    None => client.profile().social_profile().await.map(Some),
                }
            },
            async { client.profile().user_settings().await },
            async { client.profile().personal_information().await },
            async { client.metrics().hr_zones().await },
            async { client.metrics().lactate_threshold().await },
            async { client.profile().statistics().await },
            async { client.profile().lifetime_totals().await },
            threshold_history(&client, today, &mut history_missing),
        );
        let settings = settings?;
        let mut missing = Vec::new();
        let social = part(&mut missing, "social profile", social).flatten();
        let personal = part(&mut missing, "personal information", personal).unwrap_or_default();
        let zones = part(&mut missing, "heart-rate zones", zones).unwrap_or_default();
        let threshold = part(&mut missing, "lactate threshold", threshold).flatten();
        let stats = part(&mut missing, "totals per sport", stats).unwrap_or_default();
        let totals = part(&mut missing, "lifetime totals", totals).unwrap_or_default();
        let display_name = account
            .as_ref()
            .map(|a| a.display_name.clone())
            .or_else(|| social.as_ref().and_then(|s| s.display_name.clone()))
            .unwrap_or_else(|| client.display_name());
        let full_name = account
            .and_then(|a| a.full_name)
            .or_else(|| social.and_then(|s| s.full_name))
            .filter(|n| !n.trim().is_empty());
        let mut view = profile_view(
            (display_name, full_name),
            settings,
            personal,
            &zones,
            threshold.as_ref(),
            &stats,
            &totals,
            missing,
        );
        view.thresholds = history;
        view.missing.extend(history_missing);
        let mut summary = profile_summary(&view);
        if let Some(sentence) = thresholds_sentence(&view.thresholds) {
            summary.push_str(&sentence);
        }
        let summary = with_missing(summary, &view.missing);
        Ok(self.answer(summary, view))
    }

    /// The athlete's Garmin devices: name and model, firmware, serial number, last sync time,
    /// which is the primary tracker and which synced last (where workouts are sent), and notable
    /// capabilities (workouts, training plans, music, wifi, solar…). Use it for "which watch do I
    /// have?", "when did my watch last sync?", "is my firmware current?".
    #[tool(
        name = "get_devices",
        annotations(
            title = "Devices",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<DeviceList>()
    )]
    async fn get_devices(
        &self,
        Parameters(_args): Parameters<GetDevicesArgs>,
    ) -> Result<Answer<DeviceList>, ToolError> {
        let client = self.web_session().await?;
        let api = client.devices();
        let (devices, last) = futures::join!(api.list(), api.last_used());
        let devices = devices?;
        let mut missing = Vec::new();
        let last = match last {
            // No device has synced (Garmin may answer 404): nothing is "last used".
            Err(garmin::Error::NotFound { .. }) => None,
            other => part(&mut missing, "last used device", other).flatten(),
        };
        if devices.is_empty() {
            return Err(ToolError::NoData("No devices are registered on your Garmin account.".into()));
        }
        let mut views: Vec<DeviceView> = devices.iter().map(|d| device_view(d, last.as_ref())).collect();
        views.sort_by_key(|d| (!d.primary, !d.last_used));
        let summary = with_missing(devices_summary(&views), &missing);
        Ok(self.answer(summary, DeviceList { devices: views, missing }))
    }

    /// The athlete's shoes and bikes: distance used against the retire-at limit (km used, limit,
    /// remaining, %), number of activities, first use, and a plain "replace soon" note past 90 % of
    /// the limit. Use it for "how many km are on my shoes?" or "which shoes should I replace?".
    /// Retired gear is left out unless include_retired is true.
    #[tool(
        name = "get_gear",
        annotations(
            title = "Gear (shoes, bikes)",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<GearList>()
    )]
    async fn get_gear(
        &self,
        Parameters(args): Parameters<GetGearArgs>,
    ) -> Result<Answer<GearList>, ToolError> {
        let include_retired = args.include_retired.unwrap_or(false);
        let client = self.web_session().await?;
        let all = client.gear().list().await?;
        if all.is_empty() {
            return Err(ToolError::NoData("No gear (shoes, bikes) is set up on your Garmin account.".into()));
        }
        let (shown, hidden): (Vec<&Gear>, Vec<&Gear>) =
            all.iter().partition(|g| include_retired || !g.is_retired());
        if shown.is_empty() {
            return Err(ToolError::NoData(format!(
                "No active gear on your Garmin account; {} retired {} (ask with include_retired).",
                hidden.len(),
                if hidden.len() == 1 { "item" } else { "items" }
            )));
        }
        // Each item's totals are independent: one request per uuid, all at once, none repeated; an
        // item whose totals fail is still listed, and the failure named.
        let fetched = futures::future::join_all(shown.iter().map(|g| {
            let client = &client;
            async move {
                match g.uuid.as_deref() {
                    Some(uuid) => match client.gear().stats(uuid).await {
                        Err(garmin::Error::NotFound { .. }) => Ok(None),
                        other => other,
                    },
                    None => Ok(None),
                }
            }
        }))
        .await;
        let mut missing = Vec::new();
        let stats: Vec<Option<GearStats>> = shown
            .iter()
            .zip(fetched)
            .map(|(g, s)| {
                let name = format!("totals of {}", g.name());
                part(&mut missing, &name, s).flatten()
            })
            .collect();
        let mut gear: Vec<GearView> =
            shown.iter().zip(&stats).map(|(g, s)| gear_view(g, s.as_ref())).collect();
        gear.sort_by_key(|g| g.status != "active");
        let replace_soon =
            gear.iter().filter(|g| g.status == "active").filter_map(|g| g.note.clone()).collect();
        let list = GearList { gear, retired_not_listed: hidden.len(), replace_soon, missing };
        let summary = with_missing(gear_summary(&list), &list.missing);
        Ok(self.answer(summary, list))
    }
}

// ---------------------------------------------------------------------------------------------
// shaping

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

fn zone_set(z: &HrZones) -> Option<HrZoneSet> {
    let floors: Vec<f64> = [z.zone1_floor, z.zone2_floor, z.zone3_floor, z.zone4_floor, z.zone5_floor]
        .into_iter()
        .flatten()
        .collect();
    if floors.is_empty() {
        return None;
    }
    Some(HrZoneSet {
        sport: z.sport.as_deref().map_or_else(|| "default".to_owned(), words),
        method: z.training_method.as_deref().map(words),
        zone_floors_bpm: floors,
        max_hr_bpm: z.max_heart_rate_used,
    })
}

fn lifetime(t: &LifetimeTotals) -> Option<LifetimeView> {
    let activities = t.total_activities?;
    Some(LifetimeView {
        activities,
        distance_km: display::km(t.total_distance.unwrap_or(0.0)),
        duration: display::hours_minutes(t.total_duration.unwrap_or(0.0)),
        calories_kcal: t.total_calories.map(f64::round),
    })
}

fn sport_totals(m: &UserMetric) -> Option<SportTotals> {
    let key = m.activity_type.as_ref()?.type_key.as_deref()?;
    let activities = m.total_activities.filter(|n| *n > 0)?;
    if key == "all" {
        return None;
    }
    Some(SportTotals {
        sport: words(key),
        activities,
        distance_km: display::km(m.total_distance.unwrap_or(0.0)),
        duration: m.total_duration.filter(|d| *d > 0.0).map(display::hours_minutes),
    })
}

fn profile_summary(p: &ProfileView) -> String {
    let who = match &p.full_name {
        Some(full) => format!("{full} ({})", p.display_name),
        None => p.display_name.clone(),
    };
    let mut body: Vec<String> = Vec::new();
    if let Some(g) = &p.gender {
        body.push(g.clone());
    }
    if let Some(age) = p.age {
        body.push(format!("{age} years"));
    }
    if let Some(h) = p.height_cm {
        body.push(format!("{h} cm"));
    }
    if let Some(w) = p.weight_kg {
        body.push(format!("{w} kg"));
    }
    let mut text = if body.is_empty() { format!("{who}.") } else { format!("{who}: {}.", body.join(", ")) };
    let mut fitness = Vec::new();
    match (p.vo2max_running, p.vo2max_cycling) {
        (Some(r), Some(c)) => fitness.push(format!("VO2max {r} running, {c} cycling")),
        (Some(r), None) => fitness.push(format!("VO2max {r}")),
        (None, Some(c)) => fitness.push(format!("cycling VO2max {c}")),
        (None, None) => {}
    }
    match (p.max_hr_bpm, p.resting_hr_bpm) {
        (Some(max), Some(rest)) => fitness.push(format!("max HR {max} bpm, resting {rest} bpm")),
        (Some(max), None) => fitness.push(format!("max HR {max} bpm")),
        (None, Some(rest)) => fitness.push(format!("resting HR {rest} bpm")),
        (None, None) => {}
    }
    match (p.lactate_threshold_hr_bpm, &p.lactate_threshold_pace_per_km) {
        (Some(hr), Some(pace)) => fitness.push(format!("lactate threshold {hr} bpm at {pace}/km")),
        (Some(hr), None) => fitness.push(format!("lactate threshold {hr} bpm")),
        (None, Some(pace)) => fitness.push(format!("threshold pace {pace}/km")),
        (None, None) => {}
    }
    if let Some(ftp) = p.ftp_watts {
        fitness.push(format!("FTP {ftp} W"));
    }
    if !fitness.is_empty() {
        text.push_str(&format!(" {}.", capitalise(&fitness.join("; "))));
    }
    if let Some(l) = &p.lifetime {
        text.push_str(&format!(
            " Lifetime: {} activities, {:.0} km, {}.",
            l.activities, l.distance_km, l.duration
        ));
    }
    text
}

/// Registration flags worth telling the athlete about, in the order they are listed.
const CAPABILITIES: &[(&str, &str)] = &[
    ("workoutCapable", "workouts"),
    ("trainingPlanCapable", "training plans"),
    ("scheduleCapable", "scheduled workouts"),
    ("musicCapable", "music"),
    ("wifi", "wifi"),
    ("solarCapable", "solar"),
    ("solarChargingCapable", "solar"),
    ("hasOpticalHeartRate", "wrist heart rate"),
    ("trainingStatusCapable", "training status"),
    ("trainingReadinessCapable", "training readiness"),
    ("hrvStatusCapable", "HRV status"),
    ("bodyBatteryCapable", "Body Battery"),
    ("sleepScoreCapable", "sleep score"),
    ("racePredictionsRunCapable", "race predictions"),
    ("garminPayCapable", "Garmin Pay"),
    ("weightScale", "weigh-ins"),
];

fn device_view(d: &Device, last: Option<&LastUsedDevice>) -> DeviceView {
    let last_used = last.is_some_and(|l| l.user_device_id.is_some() && l.user_device_id == d.device_id);
    let mut capabilities: Vec<String> = Vec::new();
    for (flag, label) in CAPABILITIES {
        let on = d.extra.get(*flag).and_then(serde_json::Value::as_bool).unwrap_or(false);
        if on && !capabilities.iter().any(|c| c == label) {
            capabilities.push((*label).to_owned());
        }
    }
    DeviceView {
        device_id: d.device_id,
        name: d.name().unwrap_or("Garmin device").to_owned(),
        model: d.product_display_name.clone(),
        firmware: d.current_firmware_version.clone(),
        serial_number: d.serial_number.clone(),
        last_sync_utc: last
            .filter(|_| last_used)
            .and_then(|l| l.last_used_device_upload_time)
            .map(|t| t.format("%Y-%m-%d %H:%M UTC").to_string()),
        primary: d.primary_activity_tracker_indicator.unwrap_or(false),
        last_used,
        capabilities,
    }
}

fn devices_summary(devices: &[DeviceView]) -> String {
    let parts: Vec<String> = devices
        .iter()
        .map(|d| {
            let mut notes = Vec::new();
            if d.primary {
                notes.push("primary".to_owned());
            }
            if let Some(sync) = &d.last_sync_utc {
                notes.push(format!("last synced {sync}"));
            }
            if let Some(fw) = &d.firmware {
                notes.push(format!("firmware {fw}"));
            }
            if notes.is_empty() { d.name.clone() } else { format!("{} ({})", d.name, notes.join(", ")) }
        })
        .collect();
    let n = devices.len();
    format!("{n} {}: {}.", if n == 1 { "device" } else { "devices" }, parts.join("; "))
}

fn gear_view(g: &Gear, stats: Option<&GearStats>) -> GearView {
    let name = g.name();
    let used_m = stats.and_then(|s| s.total_distance);
    let limit_m = g.maximum_meters.filter(|m| *m > 0.0);
    let brand_model: Vec<&str> =
        [g.gear_make_name.as_deref(), g.gear_model_name.as_deref()].into_iter().flatten().collect();
    let retired = g.is_retired();
    GearView {
        gear_uuid: g.uuid.clone(),
        brand_model: (!brand_model.is_empty()).then(|| brand_model.join(" ")).filter(|b| *b != name),
        kind: g.gear_type_name.as_deref().map(words),
        status: if retired {
            "retired".to_owned()
        } else {
            g.gear_status_name.as_deref().map_or("active".into(), words)
        },
        distance_km: used_m.map(display::km),
        limit_km: limit_m.map(display::km),
        remaining_km: used_m.zip(limit_m).map(|(u, l)| display::km(l - u)),
        used_pct: used_m.zip(limit_m).map(|(u, l)| (u / l * 100.0).round()),
        uses: stats.and_then(|s| s.total_activities).map(|n| n.max(0.0).round() as u64),
        first_use: g.date_begin.map(|d| d.to_string()),
        retired_on: g.date_end.filter(|_| retired).map(|d: NaiveDate| d.to_string()),
        note: if retired { None } else { used_m.zip(limit_m).and_then(|(u, l)| wear_note(&name, u, l)) },
        name,
    }
}

/// The "replace soon" note for gear that has covered `used_m` of its `limit_m` retire-at
/// distance: none below 90 % (or without a limit), "replace soon" from 90 %, "past its limit"
/// beyond 100 %.
pub fn wear_note(name: &str, used_m: f64, limit_m: f64) -> Option<String> {
    if limit_m.is_nan() || limit_m <= 0.0 || !used_m.is_finite() {
        return None;
    }
    // Compared in metres (not rounded km) and without division, so 90 % exactly counts.
    if used_m * 10.0 < limit_m * REPLACE_SOON_TENTHS {
        return None;
    }
    let used = format!("{:.0} km of {:.0} km", used_m / 1000.0, limit_m / 1000.0);
    Some(if used_m > limit_m {
        format!("{name}: {used} — past its limit, replace")
    } else {
        format!("{name}: {used} — replace soon")
    })
}

fn gear_summary(list: &GearList) -> String {
    let lines: Vec<String> = list
        .gear
        .iter()
        .map(|g| {
            let mut line = g.name.clone();
            match (g.distance_km, g.limit_km) {
                (Some(d), Some(l)) => line.push_str(&format!(" {d:.0} km of {l:.0} km")),
                (Some(d), None) => line.push_str(&format!(" {d:.0} km")),
                _ => {}
            }
            if g.status != "active" {
                line.push_str(&format!(" ({})", g.status));
            }
            line
        })
        .collect();
    let active = list.gear.iter().filter(|g| g.status == "active").count();
    let mut text =
        format!("{active} active {}: {}.", if active == 1 { "item" } else { "items" }, lines.join("; "));
    if list.replace_soon.is_empty() {
        text.push_str(" Nothing needs replacing yet.");
    } else {
        text.push_str(&format!(" {}.", list.replace_soon.join("; ")));
    }
    if list.retired_not_listed > 0 {
        text.push_str(&format!(" {} retired not listed.", list.retired_not_listed));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replace_soon_starts_at_exactly_ninety_percent_of_the_limit() {
        assert_eq!(wear_note("Pegasus 40", 719_999.0, 800_000.0), None);
        assert_eq!(
            wear_note("Pegasus 40", 720_000.0, 800_000.0).as_deref(),
            Some("Pegasus 40: 720 km of 800 km — replace soon")
        );
        assert_eq!(
            wear_note("Pegasus 40", 800_000.0, 800_000.0).as_deref(),
            Some("Pegasus 40: 800 km of 800 km — replace soon")
        );
        assert_eq!(
            wear_note("Pegasus 40", 812_400.0, 800_000.0).as_deref(),
            Some("Pegasus 40: 812 km of 800 km — past its limit, replace")
        );
        // 712 km of 800 km is 89 %: not yet.
        assert_eq!(wear_note("Pegasus 40", 712_000.0, 800_000.0), None);
    }

    #[test]
    fn gear_without_a_limit_never_needs_replacing() {
        assert_eq!(wear_note("Road Bike", 9_000_000.0, 0.0), None);
        assert_eq!(wear_note("Road Bike", 9_000_000.0, f64::NAN), None);
        assert_eq!(wear_note("Shoe", f64::NAN, 800_000.0), None);
    }
}
