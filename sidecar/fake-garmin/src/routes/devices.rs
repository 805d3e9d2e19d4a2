//! Devices (reference §4.1, §4.12): registered devices, per-device product info
//! (`device_app_info.json`) and settings, the last used device, the primary training device,
//! solar data, and the device message queue a workout push goes through (`POST` an array of
//! messages; unknown devices are refused).

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::{Obj, bad_request, body_json, id, not_found, ok, put, read, write};
use crate::data::kit::{Device, WATCH_ID};
use crate::data::{Dataset, DeviceMessage, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/device-service/deviceregistration/devices", get(devices))
        .route("/device-service/deviceregistration/devices/historical", get(devices))
        .route("/device-service/deviceservice/app-info/{id}", get(app_info))
        .route("/device-service/deviceservice/device-info/settings/{id}", get(device_settings))
        .route("/device-service/deviceservice/mylastused", get(last_used))
        .route("/web-gateway/device-info/primary-training-device", get(primary))
        .route("/web-gateway/solar/{id}/{start}/{end}", get(solar))
        .route("/device-service/devicemessage/messages", get(messages).post(send_messages))
}

fn device(d: &Dataset, raw: &str) -> Option<Device> {
    id(raw).ok().and_then(|i| d.devices.iter().find(|x| x.id == i).cloned())
}

fn registration(x: &Device) -> Value {
    let watch = x.id == WATCH_ID;
    let mut o = Obj::new()
        .set("deviceId", x.id)
        .set("unitId", x.id)
        .set("displayName", x.product)
        .set("productDisplayName", x.product)
        .set("shortName", Value::Null)
        .set("applicationKey", x.app_key)
        .set("deviceTypePk", x.type_pk)
        .set("partNumber", x.part_number)
        .set("productSku", x.sku)
        .set("actualProductSku", x.sku)
        .set("serialNumber", x.serial)
        .set("currentFirmwareVersion", x.firmware)
        .set("currentFirmwareVersionMajor", x.firmware.split('.').next().and_then(|v| v.parse::<u32>().ok()))
        .set("currentFirmwareVersionMinor", x.firmware.split('.').nth(1).and_then(|v| v.parse::<u32>().ok()))
        .set("imageUrl", x.image_url)
        .set("deviceStatus", "active")
        .set("registeredDate", clock::local_ms(x.registered.and_hms_opt(12, 0, 0).unwrap_or_default()))
        .set("primaryActivityTrackerIndicator", x.primary)
        .set("isPrimaryUser", true)
        .set("activeInd", true)
        .set("wifi", watch)
        .set("bluetoothLowEnergyDevice", true)
        .set("hasOpticalHeartRate", watch)
        .set("wellness", watch)
        .set("weightScale", !watch)
        .set("primary", x.primary);
    for flag in [
        "runningWorkoutCapable",
        "cyclingWorkoutCapable",
        "swimWorkoutCapable",
        "strengthWorkoutCapable",
        "workoutCapable",
        "scheduleCapable",
        "trainingStatusCapable",
        "trainingReadinessCapable",
        "hrvStatusCapable",
        "vo2MaxRunCapable",
        "bodyBatteryCapable",
        "sleepScoreCapable",
        "racePredictionsRunCapable",
        "personalRecordCapable",
    ] {
        o = o.set(flag, watch);
    }
    o.build()
}

/// `GET /device-service/deviceregistration/devices` (also `/historical`).
async fn devices(State(state): State<AppState>) -> Response {
    let d = read(&state);
    ok(Value::Array(d.devices.iter().map(registration).collect()))
}

/// `GET /device-service/deviceservice/app-info/{deviceId}` (`device_app_info.json`).
async fn app_info(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    let Some(x) = device(&d, &raw) else { return not_found() };
    let mut v = fixture!("device_app_info.json");
    let (major, minor) = x.firmware.split_once('.').unwrap_or((x.firmware, "0"));
    for (k, val) in [
        ("applicationKey", Value::from(x.app_key)),
        ("partNumber", x.part_number.into()),
        ("productDisplayName", x.product.into()),
        ("productSku", x.sku.into()),
        ("imageUrl", x.image_url.into()),
        ("unitId", x.id.into()),
        ("primary", x.primary.into()),
        ("hasOpticalHeartRate", (x.id == WATCH_ID).into()),
        ("weightScale", (x.id != WATCH_ID).into()),
        ("wifi", (x.id == WATCH_ID).into()),
        ("versionMajor", major.into()),
        ("versionMinor", minor.into()),
        ("versionString", format!("{major}.{minor}.0.0").into()),
    ] {
        put(&mut v, k, val);
    }
    ok(v)
}

/// `GET /device-service/deviceservice/device-info/settings/{deviceId}`
async fn device_settings(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    let Some(x) = device(&d, &raw) else { return not_found() };
    ok(json!({
        "deviceId": x.id, "timeFormat": "time_twenty_four_hr", "dateFormat": "date_day_month",
        "measurementUnits": "metric", "allUnits": null, "language": 0, "startOfWeek": "MONDAY",
        "distanceUnit": "metric", "paceSpeedUnit": "metric", "elevationUnit": "metric", "weightUnit": "metric",
        "heightUnit": "metric", "temperatureUnit": "metric", "autoSyncFrequency": "medium",
        "opticalHeartRateEnabled": x.id == WATCH_ID, "autoUploadEnabled": true, "wiFiAutoUploadEnabled": true,
        "blueToothEnabled": true, "backlightTimeout": "EIGHT_SECONDS", "screenOrientation": "landscape",
        "autoActivityDetect": {"autoActivityStartEnabled": false}, "nickname": null,
        "supportedLanguages": [{"id": 0, "name": "English"}, {"id": 28, "name": "Chinese (Simplified)"}],
        "intensityMinutesCalcMethod": "AUTO", "moderateIntensityMinutesHrZone": 3, "vigorousIntensityMinutesHrZone": 4
    }))
}

/// `GET /device-service/deviceservice/mylastused`
async fn last_used(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let Some(w) = d.devices.iter().find(|x| x.id == WATCH_ID) else { return not_found() };
    let upload = d.live().last().map_or(0, |a| clock::ms(a.end_gmt()) + 420_000);
    ok(Obj::new()
        .set("userDeviceId", w.id)
        .set("userProfileNumber", d.profile_id)
        .set("applicationNumber", w.type_pk)
        .set("lastUsedDeviceApplicationKey", w.app_key)
        .set("lastUsedDeviceName", w.product)
        .set("lastUsedDeviceUploadTime", upload)
        .set("imageUrl", w.image_url)
        .set("released", true)
        .build())
}

/// `GET /web-gateway/device-info/primary-training-device`
async fn primary(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let registered: Vec<Value> = d.devices.iter().map(registration).collect();
    let watch = registered.first().cloned().unwrap_or_default();
    ok(json!({
        "PrimaryTrainingDevice": {"deviceId": WATCH_ID, "deviceName": watch["productDisplayName"], "imageUrl": watch["imageUrl"]},
        "PrimaryWearableDevice": {"deviceId": WATCH_ID, "deviceName": watch["productDisplayName"], "imageUrl": watch["imageUrl"]},
        "RegisteredDevices": registered,
        "WearableDevices": {"deviceWeights": [{"deviceId": WATCH_ID, "weight": 1}]}
    }))
}

/// `GET /web-gateway/solar/{deviceId}/{start}/{end}` (the watch has no solar panel).
async fn solar(State(state): State<AppState>, Path((raw, s, e)): Path<(String, String, String)>) -> Response {
    if let Err(r) = super::range(&s, &e) {
        return r.into();
    }
    let d = read(&state);
    match device(&d, &raw) {
        Some(x) => ok(json!({"deviceId": x.id, "solarDailyDataDTOs": []})),
        None => not_found(),
    }
}

fn message_json(d: &Dataset, m: &DeviceMessage) -> Value {
    let x = d.devices.iter().find(|x| x.id == m.device_id);
    Obj::new()
        .set("messageId", m.id)
        .set("messageType", m.kind.clone())
        .set("messageStatus", "new")
        .set("deviceId", m.device_id)
        .set("deviceName", x.map(|x| x.product))
        .set("applicationKey", x.map(|x| x.app_key))
        .set("firmwareVersion", x.map(|x| x.firmware))
        .set("wifiSetup", false)
        .set("deviceXmlDataType", Value::Null)
        .set("hidden", false)
        .set("createdTimeStamp", m.created.clone())
        .set("updatedTimeStamp", m.created.clone())
        .set(
            "metaData",
            json!({"type": m.kind, "fileType": m.file_type, "messageUrl": m.url, "absolute": false, "messageName": m.name,
                   "groupName": null, "priority": m.priority, "metaDataId": m.meta_data_id}),
        )
        .build()
}

/// `GET /device-service/devicemessage/messages` → `{serviceHost, numOfMessages, messages}`.
async fn messages(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let list: Vec<Value> = d.messages.iter().map(|m| message_json(&d, m)).collect();
    ok(Obj::new()
        .set("serviceHost", "https://connect.garmin.com")
        .set("numOfMessages", list.len())
        .set("messages", list)
        .build())
}

/// `POST /device-service/devicemessage/messages` with a JSON array of messages → the queued messages.
async fn send_messages(State(state): State<AppState>, body: Bytes) -> Response {
    let body = match body_json(&body) {
        Ok(b) => b,
        Err(e) => return e.into(),
    };
    let Some(items) = body.as_array().filter(|a| !a.is_empty()) else {
        return bad_request("body must be a non-empty JSON array of messages");
    };
    let mut d = write(&state);
    let mut parsed = Vec::new();
    for item in items {
        let Some(device_id) =
            item.get("deviceId").and_then(|v| v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok())))
        else {
            return bad_request("each message needs a numeric deviceId");
        };
        if !d.devices.iter().any(|x| x.id == device_id) {
            return not_found();
        }
        let Some(url) = item.get("messageUrl").and_then(Value::as_str) else {
            return bad_request("each message needs messageUrl");
        };
        let text = |k: &str, default: &str| item.get(k).and_then(Value::as_str).unwrap_or(default).to_owned();
        parsed.push(DeviceMessage {
            id: 0,
            device_id,
            url: url.to_owned(),
            kind: text("messageType", "workouts"),
            name: text("messageName", ""),
            meta_data_id: item
                .get("metaDataId")
                .and_then(|v| v.as_u64().or_else(|| v.as_str().and_then(|s| s.parse().ok()))),
            file_type: text("fileType", "FIT"),
            priority: item.get("priority").and_then(Value::as_u64).unwrap_or(1).clamp(1, 10),
            created: clock::t1(d.now()),
        });
    }
    let mut out = Vec::new();
    for mut m in parsed {
        m.id = d.next.message;
        d.next.message += 1;
        out.push(message_json(&d, &m));
        d.messages.push(m);
    }
    ok(Value::Array(out))
}
