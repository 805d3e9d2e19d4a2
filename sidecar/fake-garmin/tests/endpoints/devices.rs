//! Run: `cargo test -p fake-garmin --test endpoints devices::`.
//!
//! Devices and the device message queue a workout push uses (reference §4.12).

use reqwest::StatusCode;
use serde_json::json;

use crate::support::Api;

#[tokio::test]
async fn the_primary_watch_is_registered_and_last_used() {
    let api = Api::start().await;
    let devices = api.get("/device-service/deviceregistration/devices").await;
    let primary = devices
        .as_array()
        .and_then(|l| l.iter().find(|d| d["primaryActivityTrackerIndicator"] == true))
        .cloned()
        .expect("primary");
    assert_eq!(primary["deviceId"], 3_900_000_001u64);
    let last = api.get("/device-service/deviceservice/mylastused").await;
    assert_eq!(last["userDeviceId"], primary["deviceId"]);
    assert!(last["lastUsedDeviceUploadTime"].as_i64().is_some_and(|t| t > 0));
    assert_eq!(
        api.get("/device-service/deviceservice/device-info/settings/3900000001").await["deviceId"],
        3_900_000_001u64
    );
}

#[tokio::test]
async fn device_messages_queue_for_known_devices_only() {
    let api = Api::start().await;
    let message = json!([{
        "deviceId": 3_900_000_001u64, "messageUrl": "workout-service/workout/FIT/800000001", "messageType": "workouts",
        "messageName": "Track Intervals 6x800m", "groupName": null, "priority": 1, "fileType": "FIT", "metaDataId": 800_000_001
    }]);
    let (status, queued) = api.post("/device-service/devicemessage/messages", &message).await;
    assert_eq!(status, StatusCode::OK, "{queued}");
    let id = queued[0]["messageId"].as_u64().expect("messageId");
    let listed = api.get("/device-service/devicemessage/messages").await;
    assert_eq!(listed["numOfMessages"], 1);
    assert_eq!(listed["messages"][0]["messageId"], id);
    assert_eq!(listed["messages"][0]["metaData"]["messageUrl"], "workout-service/workout/FIT/800000001");
    let mut unknown = message.clone();
    unknown[0]["deviceId"] = json!(42);
    assert_eq!(api.post("/device-service/devicemessage/messages", &unknown).await.0, StatusCode::NOT_FOUND);
    assert_eq!(
        api.post("/device-service/devicemessage/messages", &message[0]).await.0,
        StatusCode::BAD_REQUEST,
        "body must be an array"
    );
    assert_eq!(api.get("/device-service/devicemessage/messages").await["numOfMessages"], 1);
}
