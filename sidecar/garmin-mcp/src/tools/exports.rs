//! The `exports` toolset: files for the person's disk. `export_activity` saves an activity as FIT
//! (the original recording, unpacked from Garmin's zip), GPX, TCX, KML or CSV (Garmin's exports);
//! `export_workout_fit` saves a library workout as a FIT workout file for watches loaded by cable
//! and other apps (encoded here by `garmin::workout_fit`).
//!
//! What the real Garmin answers for the odd activities (docs/garmin-web-api.md §0, from
//! garmin-connect-export), and what the tool says: the original of a GPX/TCX upload is that file
//! (saved with its own extension, the answer says what it is); a GPX of an activity without GPS is
//! 204 ("no GPS track"); a TCX of a GPX upload is HTTP 500, asked once, explained with the upload
//! format from the activity's `metadataDTO.fileFormat`; a manual activity has no original (404).
//!
//! Both only read from Garmin and write to the local disk, through `crate::files`: the folder is
//! the `folder` argument, `GARMIN_MCP_EXPORT_DIR`, or the downloads folder's `Garmin` subfolder;
//! names are `{date}_{activity name}_{id}.{ext}` / `{workout name}_{id}.fit` made safe for every OS;
//! an existing different file is never replaced (the new one gets ` (2)`), an identical one is
//! reused, and nothing is written unless the whole download succeeded.

use chrono::{NaiveDateTime, TimeZone, Utc};
use display::capitalise;
use garmin::models::activities::Activity;
use garmin::models::downloads::{ExportFormat, OriginalFormat};
use garmin::models::workouts::Workout;
use garmin::workout_fit;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::files::{self, Saved};
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use garmin::Garmin;
use garmin::reads::ServedFuture;

/// File formats of `export_activity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ActivityFileFormat {
    /// The original FIT file as the device recorded it (every sensor, laps, events).
    Fit,
    /// GPS Exchange Format: the track with time, elevation, heart rate and cadence.
    Gpx,
    /// Training Center XML: laps and track points.
    Tcx,
    /// Google Earth track.
    Kml,
    /// Garmin's split table (one row per lap and a summary).
    Csv,
}

impl ActivityFileFormat {
    /// `fit`, `GPX`… (any case); anything else is a bad argument.
    fn parse(text: &str) -> Result<Self, ToolError> {
        match text.trim().to_ascii_lowercase().as_str() {
            "fit" => Ok(ActivityFileFormat::Fit),
            "gpx" => Ok(ActivityFileFormat::Gpx),
            "tcx" => Ok(ActivityFileFormat::Tcx),
            "kml" => Ok(ActivityFileFormat::Kml),
            "csv" => Ok(ActivityFileFormat::Csv),
            _ => Err(ToolError::invalid(format!("format must be fit, gpx, tcx, kml or csv; got `{text}`"))),
        }
    }

    fn extension(self) -> &'static str {
        match self {
            ActivityFileFormat::Fit => "fit",
            ActivityFileFormat::Gpx => "gpx",
            ActivityFileFormat::Tcx => "tcx",
            ActivityFileFormat::Kml => "kml",
            ActivityFileFormat::Csv => "csv",
        }
    }

    fn label(self) -> &'static str {
        match self {
            ActivityFileFormat::Fit => "FIT",
            ActivityFileFormat::Gpx => "GPX",
            ActivityFileFormat::Tcx => "TCX",
            ActivityFileFormat::Kml => "KML",
            ActivityFileFormat::Csv => "CSV",
        }
    }

    /// The format a downloaded original is saved as.
    fn of_original(format: OriginalFormat) -> Self {
        match format {
            OriginalFormat::Fit => ActivityFileFormat::Fit,
            OriginalFormat::Gpx => ActivityFileFormat::Gpx,
            OriginalFormat::Tcx => ActivityFileFormat::Tcx,
        }
    }

    /// Garmin's export endpoint for the text formats (`None` for FIT, the original download).
    fn garmin_export(self) -> Option<ExportFormat> {
        match self {
            ActivityFileFormat::Fit => None,
            ActivityFileFormat::Gpx => Some(ExportFormat::Gpx),
            ActivityFileFormat::Tcx => Some(ExportFormat::Tcx),
            ActivityFileFormat::Kml => Some(ExportFormat::Kml),
            ActivityFileFormat::Csv => Some(ExportFormat::Csv),
        }
    }
}

/// Arguments of `export_activity`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ExportActivityArgs {
    /// The Garmin activity id (from `list_activities`, `get_calendar`…).
    pub activity_id: u64,
    /// `fit` (the original recording), `gpx`, `tcx`, `kml` or `csv`.
    // Text with the enum's schema, so an unknown format gets this tool's own sentence (an
    // `isError` result naming the formats) rather than serde's.
    #[schemars(with = "ActivityFileFormat")]
    pub format: String,
    /// Folder to save in, as an absolute path (`~/…` works). Default: `GARMIN_MCP_EXPORT_DIR`, else
    /// the Downloads folder's `Garmin` subfolder.
    #[serde(default)]
    pub folder: Option<String>,
}

/// Arguments of `export_workout_fit`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct ExportWorkoutFitArgs {
    /// The workout id (from `get_workouts` or the calendar).
    pub workout_id: u64,
    /// Folder to save in, as an absolute path (`~/…` works). Default: `GARMIN_MCP_EXPORT_DIR`, else
    /// the Downloads folder's `Garmin` subfolder.
    #[serde(default)]
    pub folder: Option<String>,
}

/// A saved activity file.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ActivityExport {
    /// Absolute path of the file.
    pub path: String,
    /// File name.
    pub file_name: String,
    /// Size in bytes.
    pub size_bytes: u64,
    /// The format of the saved file: `fit`, `gpx`, `tcx`, `kml` or `csv`. Asking for `fit` of an
    /// activity uploaded as GPX or TCX saves that uploaded file (its original), so this says `gpx`
    /// or `tcx` then.
    pub format: ActivityFileFormat,
    /// What the file is when it is not what was asked for (e.g. the original of a GPX upload).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// True when an identical file was already there and was kept as it was.
    pub already_saved: bool,
    /// Activity id.
    pub activity_id: u64,
    /// Activity name.
    pub activity_name: String,
    /// Start day (`YYYY-MM-DD`, local).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Distance (km), when the activity has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
}

/// A saved FIT workout file.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WorkoutExport {
    /// Absolute path of the file.
    pub path: String,
    /// File name.
    pub file_name: String,
    /// Size in bytes.
    pub size_bytes: u64,
    /// True when an identical file was already there and was kept as it was.
    pub already_saved: bool,
    /// Workout id.
    pub workout_id: u64,
    /// Workout name.
    pub workout_name: String,
    /// Sport, e.g. `running`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport: Option<String>,
    /// FIT workout steps written (a repeat counts as one step after the steps it repeats).
    pub fit_steps: u16,
    /// What the file holds differently from the workout in Garmin (e.g. a name cut to FIT's length).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

#[tool_router(router = exports_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Save one activity as a file on this computer: `fit` (the original recording from the
    /// watch, with every sensor), `gpx` (track for maps and other apps), `tcx` (laps and track),
    /// `kml` (Google Earth) or `csv` (the split table). Use it for "export this run as GPX" or "give
    /// me the FIT file of Sunday's ride". It writes only to the local disk (the Downloads folder's
    /// Garmin subfolder unless `folder` or GARMIN_MCP_EXPORT_DIR says otherwise), never changes
    /// anything in Garmin, and never replaces a different file: a name clash gets " (2)". Returns
    /// the absolute path, size and a one-line description. An activity uploaded as GPX or TCX has
    /// that file as its original, so `fit` saves it as it was uploaded (and says so); one entered
    /// by hand has no original, and one without GPS has no GPX.
    #[tool(
        name = "export_activity",
        annotations(
            title = "Export an activity file",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<ActivityExport>()
    )]
    async fn export_activity(
        &self,
        Parameters(args): Parameters<ExportActivityArgs>,
    ) -> Result<Answer<ActivityExport>, ToolError> {
        let format = ActivityFileFormat::parse(&args.format)?;
        let dir = export_folder(args.folder.as_deref())?;
        let id = args.activity_id;
        let reads = self.reads().await?;
        let (file, summary) = futures::join!(download(&reads, id, format), reads.activity(id).value());
        let mut original = Original::checked(id, format, file, summary)?;
        let file_name = files::safe_file_name(
            &[original.date.as_deref().unwrap_or_default(), &original.name, &id.to_string()],
            original.format.extension(),
        );
        let saved = save(dir, file_name, std::mem::take(&mut original.bytes)).await?;
        let (summary, data) = original.exported(id, format, saved);
        Ok(self.answer(summary, data))
    }

    /// Save a workout from the Garmin library as a FIT workout file on this computer, for watches
    /// loaded by USB cable (copy it to the watch's NewFiles or Workouts folder) and for other
    /// training apps. Steps, durations, targets (pace, heart rate, power, cadence, swim strokes) and
    /// repeats are kept; the answer notes anything FIT cannot hold exactly, and a workout FIT cannot
    /// express at all (e.g. multisport) is refused with the reason. It writes only to the local disk
    /// (the Downloads folder's Garmin subfolder unless `folder` or GARMIN_MCP_EXPORT_DIR says
    /// otherwise), never changes anything in Garmin, and never replaces a different file. Returns
    /// the absolute path, size and a one-line description.
    #[tool(
        name = "export_workout_fit",
        annotations(
            title = "Export a workout as a FIT file",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WorkoutExport>()
    )]
    async fn export_workout_fit(
        &self,
        Parameters(args): Parameters<ExportWorkoutFitArgs>,
    ) -> Result<Answer<WorkoutExport>, ToolError> {
        let dir = export_folder(args.folder.as_deref())?;
        let id = args.workout_id;
        let client = self.web_session().await?;
        let workout = client.workouts().get(id).await.map_err(|e| match e {
            garmin::Error::NotFound { .. } => {
                ToolError::NoData(format!("No workout {id} in your Garmin library; get_workouts lists them."))
            }
            other => other.into(),
        })?;
        let name = workout
            .workout_name
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map_or_else(|| format!("Workout {id}"), str::to_owned);
        let encoded = workout_fit::encode(&workout, version_time(&workout)).map_err(|e| {
            // Encoding happens on this machine; the workout itself is fine in Garmin.
            ToolError::Local(format!(
                "Workout '{name}' cannot be written as a FIT workout file: {e}. Nothing was saved."
            ))
        })?;
        let file_name = files::safe_file_name(&[&name, &id.to_string()], "fit");
        let saved = save(dir, file_name, encoded.bytes).await?;

        let sport = workout.sport_key().map(str::to_owned);
        let what = match &sport {
            Some(s) => format!("workout '{name}' ({}, {} FIT steps)", s.replace('_', " "), encoded.steps),
            None => format!("workout '{name}' ({} FIT steps)", encoded.steps),
        };
        let mut summary_line = describe(&saved, &what, "as a FIT workout file");
        for note in &encoded.notes {
            summary_line.push_str(&format!(" Note: {note}."));
        }
        let data = WorkoutExport {
            path: saved.path.display().to_string(),
            file_name: file_label(&saved),
            size_bytes: saved.size,
            already_saved: saved.already_there,
            workout_id: id,
            workout_name: name,
            sport,
            fit_steps: encoded.steps,
            notes: encoded.notes,
        };
        Ok(self.answer(summary_line, data))
    }
}

/// The folder to save in. A bad `folder` argument is the caller's mistake (an argument error); a bad
/// environment variable or no downloads folder is this machine's.
fn export_folder(requested: Option<&str>) -> Result<std::path::PathBuf, ToolError> {
    let given = requested.is_some_and(|f| !f.trim().is_empty());
    files::export_dir(requested).map_err(|e| {
        if given { ToolError::invalid(format!("folder: {e}")) } else { ToolError::Local(format!("{e}.")) }
    })
}

/// An activity's downloaded file with what its answer names: the activity's name, day and
/// distance, and the format the file really is.
struct Original {
    name: String,
    date: Option<String>,
    distance_km: Option<f64>,
    bytes: Vec<u8>,
    format: ActivityFileFormat,
}

impl Original {
    /// The download and the summary read beside it, checked: a missing activity, an empty export
    /// and a refused download each get their sentence (the summary's failure only matters when
    /// the download failed too, or the activity does not exist).
    fn checked(
        id: u64,
        asked: ActivityFileFormat,
        file: Result<Fetched, garmin::Error>,
        summary: Result<Activity, garmin::Error>,
    ) -> Result<Original, ToolError> {
        let summary = match (file.is_ok(), summary) {
            (_, Err(garmin::Error::NotFound { .. })) => return Err(no_activity(id)),
            (true, Err(other)) => return Err(other.into()),
            (_, summary) => summary.ok(),
        };
        let name = summary
            .as_ref()
            .and_then(|s| s.activity_name.as_deref())
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map_or_else(|| format!("Activity {id}"), str::to_owned);
        let (bytes, format) = match file {
            Ok(Fetched::File { bytes, format }) => (bytes, format),
            Ok(Fetched::Nothing) => return Err(nothing_to_export(id, &name, asked)),
            Err(e) => return Err(download_error(e, id, asked, summary.as_ref())),
        };
        let Some(summary) = summary else { return Err(no_activity(id)) };
        let distance_km = summary
            .summary
            .as_ref()
            .and_then(|s| s.distance)
            .filter(|d| d.is_finite() && *d > 0.0)
            .map(display::km);
        Ok(Original { date: activity_day(&summary), name, distance_km, bytes, format })
    }

    /// The answer for the file saved as `saved` (asked in `asked`).
    fn exported(self, id: u64, asked: ActivityFileFormat, saved: Saved) -> (String, ActivityExport) {
        let label = self.format.label();
        let note = (self.format != asked).then(|| {
            format!(
                "this activity was uploaded to Garmin as a {label} file, not recorded as FIT: its original is \
                 that {label} file, saved as it was uploaded"
            )
        });
        let mut facts: Vec<String> = self.date.iter().cloned().collect();
        if let Some(km) = self.distance_km {
            facts.push(format!("{km:.1} km"));
        }
        let name = &self.name;
        let what =
            if facts.is_empty() { format!("'{name}'") } else { format!("'{name}' ({})", facts.join(", ")) };
        let how = match &note {
            Some(n) => format!("as {label} ({n})"),
            None => format!("as {label}"),
        };
        let summary = describe(&saved, &what, &how);
        let data = ActivityExport {
            path: saved.path.display().to_string(),
            file_name: file_label(&saved),
            size_bytes: saved.size,
            format: self.format,
            note,
            already_saved: saved.already_there,
            activity_id: id,
            activity_name: self.name,
            date: self.date,
            distance_km: self.distance_km,
        };
        (summary, data)
    }
}

/// What a download brought.
enum Fetched {
    /// A file, in this format (the original of an uploaded activity is its GPX or TCX file).
    File { bytes: Vec<u8>, format: ActivityFileFormat },
    /// Garmin answered 204: nothing to export (a GPX of an activity without GPS).
    Nothing,
}

/// First bytes that mark an XML or JSON answer where a CSV file was asked for.
const NOT_CSV: &[u8] = b"<{";

/// The activity file: the original (unpacked by the client; a FIT, or the GPX/TCX an uploaded
/// activity came as) or Garmin's export, which must look like what was asked for.
async fn download(reads: &Garmin, id: u64, format: ActivityFileFormat) -> Result<Fetched, garmin::Error> {
    let Some(export) = format.garmin_export() else {
        let original = reads.original_file(id).await?.value;
        let format = ActivityFileFormat::of_original(original.format);
        return Ok(Fetched::File { bytes: original.file.bytes, format });
    };
    let Some(file) = reads.export(id, export).await?.value else { return Ok(Fetched::Nothing) };
    if !plausible(export, &file.bytes) {
        return Err(garmin::Error::Decode {
            endpoint: garmin::api::export_endpoint(id, export),
            field: ".".into(),
            message: format!("the answer is not a {} file", format.label()),
        });
    }
    Ok(Fetched::File { bytes: file.bytes, format })
}

/// Whether Garmin's export looks like the format asked for (after a byte-order mark and
/// blanks): XML for GPX, TCX and KML; for CSV, something that is neither XML nor JSON.
fn plausible(export: ExportFormat, bytes: &[u8]) -> bool {
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(bytes);
    let first = text.iter().find(|b| !b.is_ascii_whitespace());
    match export {
        ExportFormat::Csv => first.is_some_and(|b| !NOT_CSV.contains(b)),
        _ => first == Some(&b'<'),
    }
}

fn no_activity(id: u64) -> ToolError {
    ToolError::NoData(format!("No activity {id} in your Garmin account; list_activities shows the ids."))
}

/// Garmin answered 204 No Content: for a GPX, the activity has no GPS track (garmin-connect-export).
fn nothing_to_export(id: u64, name: &str, format: ActivityFileFormat) -> ToolError {
    ToolError::NoData(match format {
        ActivityFileFormat::Gpx => format!(
            "Activity {id} ('{name}') has no GPS track (an indoor, pool or strength session, or one \
             entered by hand), so Garmin has no GPX of it (it answered 204 No Content). Ask for tcx or \
             csv for its laps, or fit for the original recording. Nothing was saved."
        ),
        other => format!(
            "Garmin has no {} file of activity {id} ('{name}') (it answered 204 No Content). Nothing \
             was saved.",
            other.label()
        ),
    })
}

/// A failed download in words; nothing was written. `activity` is the activity's summary when it
/// could be read, to say why Garmin refused.
fn download_error(
    error: garmin::Error,
    id: u64,
    format: ActivityFileFormat,
    activity: Option<&Activity>,
) -> ToolError {
    let metadata = activity.and_then(|a| a.metadata.as_ref());
    match error {
        // garmin-connect-export: "for manual activities (entered online without a file upload)
        // there is no original file" — Garmin answers 404 while the activity itself exists.
        garmin::Error::NotFound { .. } if format == ActivityFileFormat::Fit && activity.is_some() => {
            let manual = metadata.and_then(|m| m.manual_activity) == Some(true);
            ToolError::NoData(if manual {
                format!(
                    "Activity {id} was entered by hand in Garmin Connect, so it has no original file \
                     to download (Garmin answered 404): no device recorded it. get_activity shows \
                     what it holds. Nothing was saved."
                )
            } else {
                format!(
                    "Garmin has no original file of activity {id} (it answered 404), as for activities \
                     entered by hand. Ask for gpx, tcx or csv instead. Nothing was saved."
                )
            })
        }
        garmin::Error::NotFound { .. } => no_activity(id),
        // garmin-connect-export: Garmin's TCX export fails with HTTP 500 when the original was a
        // GPX upload; the client asks once, as repeating it does not help.
        garmin::Error::Server { status: 500, .. } if format == ActivityFileFormat::Tcx => {
            let gpx_upload = metadata.and_then(|m| m.upload_format()).as_deref() == Some("gpx");
            ToolError::NoData(if gpx_upload {
                format!(
                    "Garmin cannot make a TCX file of activity {id}: it was uploaded as a GPX file, \
                     and Garmin's TCX export fails for GPX uploads (HTTP 500; asked once, since asking \
                     again does not help). Ask for gpx, or fit to get the uploaded GPX file back. \
                     Nothing was saved."
                )
            } else {
                format!(
                    "Garmin's TCX export of activity {id} failed (HTTP 500; asked once). Garmin answers \
                     this way when it cannot convert an activity, e.g. one uploaded as GPX. Ask for \
                     gpx or fit instead. Nothing was saved."
                )
            })
        }
        garmin::Error::Forbidden { kind: garmin::ForbiddenKind::NotOwner, message, .. } => {
            ToolError::NoData(format!(
                "Garmin will not let this account download activity {id} ({message}): only the athlete who \
             recorded it can export it. Nothing was saved."
            ))
        }
        e if e.needs_sign_in() => e.into(),
        // Same words as any Garmin failure, plus what it means here.
        e => ToolError::NoData(format!("{e}. The {} file of activity {id} was not saved.", format.label())),
    }
}

/// The activity's local start day.
fn activity_day(activity: &Activity) -> Option<String> {
    let summary = activity.summary.as_ref()?;
    summary
        .start_time_local
        .map(|t| t.date().to_string())
        .or_else(|| summary.start_time_gmt.map(|t| t.date_naive().to_string()))
}

/// When this version of the workout was written (Garmin's `updatedDate`, else `createdDate`), so
/// exporting an unchanged workout again gives the same bytes and reuses the file; now when Garmin
/// sent neither.
fn version_time(workout: &Workout) -> chrono::DateTime<Utc> {
    [workout.updated_date.as_deref(), workout.created_date.as_deref()]
        .into_iter()
        .flatten()
        .find_map(|text| {
            ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M:%S"]
                .iter()
                .find_map(|f| NaiveDateTime::parse_from_str(text.trim(), f).ok())
        })
        .map_or_else(Utc::now, |t| Utc.from_utc_datetime(&t))
}

/// Writes the file off the async threads.
async fn save(dir: std::path::PathBuf, file_name: String, bytes: Vec<u8>) -> Result<Saved, ToolError> {
    tokio::task::spawn_blocking(move || files::save_new(&dir, &file_name, &bytes))
        .await
        .map_err(|e| ToolError::Local(format!("saving the file stopped unexpectedly ({e}); try again")))?
        .map_err(|e| ToolError::Local(format!("{e}.")))
}

fn file_label(saved: &Saved) -> String {
    saved.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// `Saved 'Morning Run' (2026-11-28, 10.2 km) as GPX, 412 KB: /home/…/Downloads/Garmin/…gpx`.
fn describe(saved: &Saved, what: &str, how: &str) -> String {
    let size = human_size(saved.size);
    let path = saved.path.display();
    if saved.already_there {
        format!("{} was already saved {how} ({size}, identical): {path}", capitalise(what))
    } else {
        format!("Saved {what} {how}, {size}: {path}")
    }
}

/// `812 bytes`, `412 KB`, `3.4 MB` (1 KB = 1024 bytes).
fn human_size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    if bytes < KIB {
        format!("{bytes} bytes")
    } else if bytes < KIB * KIB {
        format!("{} KB", bytes.div_ceil(KIB))
    } else {
        format!("{:.1} MB", bytes as f64 / (KIB * KIB) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_the_way_file_managers_show_them() {
        assert_eq!(human_size(812), "812 bytes");
        assert_eq!(human_size(1024), "1 KB");
        assert_eq!(human_size(412 * 1024 - 100), "412 KB");
        assert_eq!(human_size(3_565_158), "3.4 MB");
    }

    #[test]
    fn another_athletes_activity_is_a_clear_error_that_says_nothing_was_saved() {
        let refused = garmin::Error::Forbidden {
            kind: garmin::ForbiddenKind::NotOwner,
            endpoint: "GET /gc-api/download-service/export/gpx/activity/7".into(),
            message: "Only owner of activity 7 can download it".into(),
        };
        let error = download_error(refused, 7, ActivityFileFormat::Gpx, None);
        let message = error.message();
        assert!(message.contains("only the athlete who recorded it"), "{message}");
        assert!(message.contains("Only owner of activity 7") && message.ends_with("Nothing was saved."));
        let Ok(rmcp::model::CallToolResponse::Complete(result)) =
            rmcp::handler::server::tool::IntoCallToolResult::into_call_tool_result(error)
        else {
            panic!("a tool result, not a protocol error")
        };
        assert_eq!(result.is_error, Some(true));
    }

    #[test]
    fn an_export_that_is_not_the_format_asked_for_is_not_plausible() {
        assert!(plausible(ExportFormat::Gpx, b"\xEF\xBB\xBF  <?xml version=\"1.0\"?><gpx/>"));
        assert!(!plausible(ExportFormat::Gpx, b"Laps,Time"));
        assert!(!plausible(ExportFormat::Tcx, b""));
        assert!(plausible(ExportFormat::Csv, b"\xEF\xBB\xBFLaps,Time\n1,5:00"));
        assert!(!plausible(ExportFormat::Csv, b"  <html>error</html>"));
        assert!(!plausible(ExportFormat::Csv, b"{\"error\":\"x\"}"));
        assert!(!plausible(ExportFormat::Csv, b" \n "));
    }

    #[test]
    fn formats_are_read_in_any_case_and_others_are_bad_arguments() {
        assert_eq!(ActivityFileFormat::parse(" GPX ").unwrap(), ActivityFileFormat::Gpx);
        assert_eq!(ActivityFileFormat::parse("fit").unwrap(), ActivityFileFormat::Fit);
        assert!(
            matches!(ActivityFileFormat::parse("pdf"), Err(ToolError::InvalidArgument(m)) if m.contains("`pdf`"))
        );
    }

    #[test]
    fn workout_versions_come_from_garmins_dates() {
        let workout = Workout { updated_date: Some("2026-02-08T00:57:16.0".into()), ..Workout::default() };
        assert_eq!(version_time(&workout), Utc.with_ymd_and_hms(2026, 2, 8, 0, 57, 16).unwrap());
        let only_created = Workout { created_date: Some("2025-10-01 07:00:00".into()), ..Workout::default() };
        assert_eq!(version_time(&only_created), Utc.with_ymd_and_hms(2025, 10, 1, 7, 0, 0).unwrap());
    }
}
