//! Files (reference §4.4, `Accept: */*`): the original file of an activity (Garmin zips it; the
//! member is unpacked here: a `.fit`, or the `.gpx`/`.tcx` an uploaded activity came as),
//! GPX/TCX/KML/CSV exports (none when Garmin answers 204, as for a GPX of an activity without
//! GPS), a workout's FIT and a day's wellness zip. Each comes with a suggested file name.
//!
//! Real behaviour (docs/garmin-web-api.md §0, garmin-connect-export): a manual activity has no
//! original (404, left to the caller to explain); the TCX export of a GPX upload answers 500,
//! which the client does not repeat (see `Client`'s retry rules).

use std::io::{Cursor, Read};

use chrono::NaiveDate;

use super::ymd;
use crate::models::downloads::{DownloadedFile, ExportFormat, OriginalFile, OriginalFormat};
use crate::{Client, Error, Result};

/// Largest member unpacked (a guard against hostile archives; real activity files are a few MB).
const MAX_MEMBER_BYTES: u64 = 256 * 1024 * 1024;

/// File downloads (reference §4.4). Made by [`Client::downloads`].
#[derive(Clone, Copy, Debug)]
pub struct DownloadsApi<'a> {
    pub(crate) client: &'a Client,
}

impl DownloadsApi<'_> {
    /// `GET /gc-api/download-service/files/activity/{id}` — the original file as recorded or
    /// uploaded, unpacked from Garmin's zip: `{id}_ACTIVITY.fit`, or the `.gpx`/`.tcx` of an
    /// activity uploaded as one. A manual activity has none ([`Error::NotFound`]); a zip holding
    /// none of these is an [`Error::Decode`].
    pub async fn activity_original(&self, activity_id: u64) -> Result<OriginalFile> {
        let path = format!("/download-service/files/activity/{activity_id}");
        let endpoint = format!("GET /gc-api{path}");
        let bytes = self.fetch(&path, &endpoint).await?;
        let (name, format, content) = original_from_download(&bytes, &endpoint)?;
        let file_name = name.unwrap_or_else(|| format!("{activity_id}_ACTIVITY.{}", format.extension()));
        let file = DownloadedFile { file_name, content_type: format.content_type(), bytes: content };
        Ok(OriginalFile { format, file })
    }

    /// `GET /gc-api/download-service/export/{gpx|tcx|kml|csv}/activity/{id}` — the activity
    /// converted by Garmin (`{id}.gpx`…); `None` when Garmin answers 204, which it does for a GPX
    /// of an activity without GPS. Another athlete's activity is [`Error::Forbidden`]; a TCX of a
    /// GPX upload is [`Error::Server`] with status 500, asked once.
    pub async fn export(&self, activity_id: u64, format: ExportFormat) -> Result<Option<DownloadedFile>> {
        let path = export_path(activity_id, format);
        let (status, bytes) = self.client.get_file(&path, &[]).await?;
        if status == 204 {
            return Ok(None);
        }
        if bytes.is_empty() {
            return Err(decode(&format!("GET /gc-api{path}"), "empty file"));
        }
        Ok(Some(DownloadedFile {
            file_name: format!("{activity_id}.{}", format.as_str()),
            content_type: format.content_type(),
            bytes,
        }))
    }

    /// `GET /gc-api/workout-service/workout/FIT/{workoutId}` — the workout as a FIT file for a
    /// device (`{workoutId}_WORKOUT.fit`).
    pub async fn workout_fit(&self, workout_id: u64) -> Result<DownloadedFile> {
        let path = format!("/workout-service/workout/FIT/{workout_id}");
        let bytes = self.fetch(&path, &format!("GET /gc-api{path}")).await?;
        Ok(DownloadedFile {
            file_name: format!("{workout_id}_WORKOUT.fit"),
            content_type: OriginalFormat::Fit.content_type(),
            bytes,
        })
    }

    /// `GET /gc-api/download-service/files/wellness/{date}` — the day's wellness FIT files as
    /// Garmin zips them (`{date}_WELLNESS.zip`); `None` when the day has none.
    pub async fn wellness(&self, date: NaiveDate) -> Result<Option<DownloadedFile>> {
        let path = format!("/download-service/files/wellness/{}", ymd(date));
        let bytes = self.client.get_bytes(&path, &[]).await?;
        Ok(bytes.map(|bytes| DownloadedFile {
            file_name: format!("{}_WELLNESS.zip", ymd(date)),
            content_type: "application/zip",
            bytes,
        }))
    }

    async fn fetch(&self, path: &str, endpoint: &str) -> Result<Vec<u8>> {
        self.client.get_bytes(path, &[]).await?.ok_or_else(|| decode(endpoint, "empty file"))
    }
}

/// `/download-service/export/{format}/activity/{id}`.
fn export_path(activity_id: u64, format: ExportFormat) -> String {
    format!("/download-service/export/{}/activity/{activity_id}", format.as_str())
}

/// The method and path of an activity's export, as errors name it (`GET /gc-api/…`): for a caller
/// that finds the file unlike what was asked for.
pub fn export_endpoint(activity_id: u64, format: ExportFormat) -> String {
    format!("GET /gc-api{}", export_path(activity_id, format))
}

fn decode(endpoint: &str, message: impl Into<String>) -> Error {
    Error::Decode { endpoint: endpoint.to_owned(), field: ".".into(), message: message.into() }
}

/// The original file (its member name, format and bytes) from what the download answered: a zip
/// holding a `.fit` member (preferred), else a `.gpx` or `.tcx` one; or — tolerated — a bare FIT.
pub(crate) fn original_from_download(
    bytes: &[u8],
    endpoint: &str,
) -> Result<(Option<String>, OriginalFormat, Vec<u8>)> {
    if is_fit(bytes) {
        return Ok((None, OriginalFormat::Fit, bytes.to_vec()));
    }
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| decode(endpoint, format!("not a zip or FIT file ({e})")))?;
    let mut best: Option<(usize, OriginalFormat)> = None;
    for index in 0..archive.len() {
        let member =
            archive.by_index(index).map_err(|e| decode(endpoint, format!("unreadable zip ({e})")))?;
        let name = member.name().map(|n| n.into_owned()).unwrap_or_default();
        let Some(format) = OriginalFormat::of_name(&name).filter(|_| member.is_file()) else { continue };
        if best.is_none_or(|(_, f)| rank(format) < rank(f)) {
            best = Some((index, format));
        }
    }
    let Some((index, format)) = best else {
        return Err(decode(endpoint, "the zip holds no .fit, .gpx or .tcx file"));
    };
    let mut member =
        archive.by_index(index).map_err(|e| decode(endpoint, format!("unreadable zip ({e})")))?;
    let name = member.name().map(|n| n.into_owned()).unwrap_or_default();
    if member.size() > MAX_MEMBER_BYTES {
        return Err(decode(endpoint, format!("the file `{name}` is too large ({} bytes)", member.size())));
    }
    let mut content = Vec::with_capacity(usize::try_from(member.size()).unwrap_or(0));
    (&mut member)
        .take(MAX_MEMBER_BYTES)
        .read_to_end(&mut content)
        .map_err(|e| decode(endpoint, format!("could not unpack `{name}` ({e})")))?;
    let base = name.rsplit(['/', '\\']).next().unwrap_or(&name).to_owned();
    Ok((Some(base).filter(|b| !b.is_empty()), format, content))
}

/// Which member wins when a zip holds several: the FIT recording first.
fn rank(format: OriginalFormat) -> u8 {
    match format {
        OriginalFormat::Fit => 0,
        OriginalFormat::Gpx => 1,
        OriginalFormat::Tcx => 2,
    }
}

/// A FIT file starts with a header whose bytes 8..12 are `.FIT`.
fn is_fit(bytes: &[u8]) -> bool {
    bytes.get(8..12) == Some(b".FIT")
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn zip_of(members: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = Cursor::new(Vec::new());
        let mut writer = zip::ZipWriter::new(&mut out);
        for (name, data) in members {
            writer.start_file(*name, zip::write::SimpleFileOptions::default()).unwrap();
            writer.write_all(data).unwrap();
        }
        writer.finish().unwrap();
        out.into_inner()
    }

    const FIT: &[u8] = b"\x0e\x10\x00\x00\x00\x00\x00\x00.FIT\x00\x00";

    #[test]
    fn the_fit_member_is_unpacked_with_its_name() {
        let zip = zip_of(&[("readme.txt", b"hi"), ("x.gpx", b"<gpx/>"), ("dir/123_ACTIVITY.fit", FIT)]);
        let (name, format, bytes) = original_from_download(&zip, "GET /x").unwrap();
        assert_eq!((name.as_deref(), format), (Some("123_ACTIVITY.fit"), OriginalFormat::Fit));
        assert_eq!(bytes, FIT);
    }

    #[test]
    fn a_gpx_or_tcx_upload_is_unpacked_as_what_it_is() {
        let zip = zip_of(&[("123_ACTIVITY.GPX", b"<gpx/>")]);
        let (name, format, bytes) = original_from_download(&zip, "GET /x").unwrap();
        assert_eq!(
            (name.as_deref(), format, bytes.as_slice()),
            (Some("123_ACTIVITY.GPX"), OriginalFormat::Gpx, b"<gpx/>".as_slice())
        );
        let zip = zip_of(&[("123.tcx", b"<TrainingCenterDatabase/>")]);
        assert_eq!(original_from_download(&zip, "GET /x").unwrap().1, OriginalFormat::Tcx);
    }

    #[test]
    fn a_zip_without_an_activity_file_or_garbage_is_a_decode_error() {
        let zip = zip_of(&[("readme.txt", b"hi")]);
        assert!(matches!(original_from_download(&zip, "GET /x"), Err(Error::Decode { .. })));
        assert!(matches!(original_from_download(b"<html>", "GET /x"), Err(Error::Decode { .. })));
        assert!(matches!(original_from_download(b"", "GET /x"), Err(Error::Decode { .. })));
    }

    #[test]
    fn a_bare_fit_file_is_accepted() {
        let (name, format, bytes) = original_from_download(FIT, "GET /x").unwrap();
        assert_eq!((name, format, bytes.as_slice()), (None, OriginalFormat::Fit, FIT));
    }
}
