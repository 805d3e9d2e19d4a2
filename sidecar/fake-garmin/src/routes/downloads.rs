//! File downloads (reference §4.4, `Accept: */*`): the original FIT of an activity zipped as
//! `{id}_ACTIVITY.fit` (written from the activity's samples by [`crate::data::fit`], so it holds the
//! figures the web endpoints serve; the oldest run's is the real fēnix 5 recording, see
//! [`crate::data::Dataset::real_recording`]), GPX/TCX/KML/CSV exports generated from the activity's
//! series, a day's wellness zip, and a workout's FIT file.
//!
//! What garmin-connect-export learned from the live service (docs/garmin-web-api.md §0), reproduced
//! for the activities the data set marks with an [`Origin`]: the original of a GPX or TCX upload is
//! a zip holding that file (`{id}_ACTIVITY.gpx` / `.tcx`), not a `.fit`; a manual entry has no
//! original (404); the GPX export of an activity without GPS answers 204 with no body; the TCX
//! export of a GPX upload fails with HTTP 500.

use std::io::{Cursor, Write};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::{Datelike, NaiveDateTime, Timelike};

use super::{date, export, id, not_found, read};
use crate::data::activity::Origin;
use crate::data::fit;
use crate::state::AppState;

/// Real recorded running FIT (fēnix 5), the original of [`crate::data::Dataset::real_recording`].
pub(super) const RUN_FIT: &[u8] = include_bytes!("../../fixtures/fit/activity_run_fenix5.fit");
/// FIT SDK workout file with a repeat step.
pub(super) const WORKOUT_FIT: &[u8] = include_bytes!("../../fixtures/fit/workout_repeat_steps.fit");
/// Overnight wellness/sleep FIT.
const SLEEP_FIT: &[u8] = include_bytes!("../../fixtures/fit/wellness_sleep_overnight.fit");

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/download-service/files/activity/{id}", get(activity_zip))
        .route("/download-service/export/{format}/activity/{id}", get(activity_export))
        .route("/download-service/files/wellness/{date}", get(wellness_zip))
        .route("/workout-service/workout/FIT/{id}", get(workout_fit))
}

/// A zip with one stored file.
fn zip_one(name: &str, bytes: &[u8], modified: NaiveDateTime) -> Result<Vec<u8>, zip::result::ZipError> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let mut options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let when = zip::DateTime::from_date_and_time(
        u16::try_from(modified.year()).unwrap_or(1980),
        modified.month() as u8,
        modified.day() as u8,
        modified.hour() as u8,
        modified.minute() as u8,
        modified.second() as u8,
    );
    if let Ok(when) = when {
        options = options.last_modified_time(when);
    }
    w.start_file(name, options)?;
    w.write_all(bytes)?;
    Ok(w.finish()?.into_inner())
}

fn file(content_type: &str, filename: &str, body: Vec<u8>) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, content_type.to_owned()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{filename}\"")),
        ],
        body,
    )
        .into_response()
}

fn zipped(name: &str, bytes: &[u8], modified: NaiveDateTime, filename: &str) -> Response {
    match zip_one(name, bytes, modified) {
        Ok(z) => file("application/zip", filename, z),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, format!("zip failed: {e}")).into_response(),
    }
}

/// `GET /download-service/files/activity/{id}` → zip with `{id}_ACTIVITY.fit`, or with the
/// uploaded `.gpx`/`.tcx`; 404 for a manual entry (garmin-connect-export).
pub(super) async fn activity_zip(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    let Some(a) = id(&raw).ok().and_then(|i| d.activity(i)) else { return not_found() };
    let zip_name = format!("{}.zip", a.id);
    match a.origin {
        Origin::Manual => not_found(),
        Origin::GpxUpload => {
            zipped(&format!("{}_ACTIVITY.gpx", a.id), export::gpx(a).as_bytes(), a.start_local, &zip_name)
        }
        Origin::TcxUpload => {
            zipped(&format!("{}_ACTIVITY.tcx", a.id), export::tcx(a).as_bytes(), a.start_local, &zip_name)
        }
        Origin::Device if d.real_recording() == Some(a.id) => {
            zipped(&format!("{}_ACTIVITY.fit", a.id), RUN_FIT, a.start_local, &zip_name)
        }
        Origin::Device => match fit::original(a) {
            Ok(bytes) => zipped(&format!("{}_ACTIVITY.fit", a.id), &bytes, a.start_local, &zip_name),
            Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e).into_response(),
        },
    }
}

/// `GET /download-service/export/{gpx|tcx|kml|csv}/activity/{id}`
async fn activity_export(
    State(state): State<AppState>,
    Path((format, raw)): Path<(String, String)>,
) -> Response {
    let d = read(&state);
    let Some(a) = id(&raw).ok().and_then(|i| d.activity(i)) else { return not_found() };
    // garmin-connect-export: "for activities without GPS coordinates there is no GPX download"
    // (204, no body), and a TCX of a GPX upload is an internal server error.
    if format == "gpx" && (!a.sport().has_gps() || a.origin == Origin::Manual) {
        return StatusCode::NO_CONTENT.into_response();
    }
    if format == "tcx" && a.origin == Origin::GpxUpload {
        return (StatusCode::INTERNAL_SERVER_ERROR, "").into_response();
    }
    let (body, content_type) = match format.as_str() {
        "gpx" => (export::gpx(a), "application/gpx+xml"),
        "tcx" => (export::tcx(a), "application/vnd.garmin.tcx+xml"),
        "kml" => (export::kml(a), "application/vnd.google-earth.kml+xml"),
        "csv" => (export::csv(a), "text/csv"),
        _ => return not_found(),
    };
    file(content_type, &format!("activity_{}.{format}", a.id), body.into_bytes())
}

/// `GET /download-service/files/wellness/{date}` → zip with the night's sleep FIT.
async fn wellness_zip(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(d) => d,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let Some(record) = d.day(day) else { return not_found() };
    zipped(
        &format!("{}_{}_SLEEP_DATA.fit", d.profile_id, raw),
        SLEEP_FIT,
        record.sleep.end_gmt,
        &format!("{raw}.zip"),
    )
}

/// `GET /workout-service/workout/FIT/{workoutId}` → a workout FIT file.
async fn workout_fit(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    match id(&raw).ok().filter(|i| d.workouts.contains_key(i)) {
        Some(i) => file("application/octet-stream", &format!("{i}_workout.fit"), WORKOUT_FIT.to_vec()),
        None => not_found(),
    }
}
