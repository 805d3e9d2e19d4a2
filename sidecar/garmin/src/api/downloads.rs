//! Files (reference §4.4, `Accept: */*`): the original FIT of an activity (Garmin zips it; the
//! `.fit` member is unpacked here), GPX/TCX/KML/CSV exports, a workout's FIT and a day's wellness
//! zip. Each comes with a suggested file name.

use std::io::{Cursor, Read};

use chrono::NaiveDate;

use super::ymd;
use crate::models::downloads::{DownloadedFile, ExportFormat};
use crate::{Client, Error, Result};

/// Largest `.fit` member unpacked (a guard against hostile archives; real activity FITs are a few
/// MB).
const MAX_FIT_BYTES: u64 = 256 * 1024 * 1024;
const FIT_TYPE: &str = "application/vnd.ant.fit";

/// File downloads (reference §4.4). Made by [`Client::downloads`].
#[derive(Clone, Copy, Debug)]
pub struct DownloadsApi<'a> {
    pub(crate) client: &'a Client,
}

impl DownloadsApi<'_> {
    /// `GET /gc-api/download-service/files/activity/{id}` — the original FIT file as recorded,
    /// unpacked from Garmin's zip (`{id}_ACTIVITY.fit`). A zip without a `.fit` member is a
    /// [`Error::Decode`].
    pub async fn activity_fit(&self, activity_id: u64) -> Result<DownloadedFile> {
        let path = format!("/download-service/files/activity/{activity_id}");
        let endpoint = format!("GET /gc-api{path}");
        let bytes = self.fetch(&path, &endpoint).await?;
        let (name, fit) = fit_from_download(&bytes, &endpoint)?;
        let file_name = name.unwrap_or_else(|| format!("{activity_id}_ACTIVITY.fit"));
        Ok(DownloadedFile { file_name, content_type: FIT_TYPE, bytes: fit })
    }

    /// `GET /gc-api/download-service/export/{gpx|tcx|kml|csv}/activity/{id}` — the activity
    /// converted by Garmin (`{id}.gpx`…). Another athlete's activity is [`Error::Forbidden`].
    pub async fn export(&self, activity_id: u64, format: ExportFormat) -> Result<DownloadedFile> {
        let path = format!("/download-service/export/{}/activity/{activity_id}", format.as_str());
        let bytes = self.fetch(&path, &format!("GET /gc-api{path}")).await?;
        Ok(DownloadedFile {
            file_name: format!("{activity_id}.{}", format.as_str()),
            content_type: format.content_type(),
            bytes,
        })
    }

    /// `GET /gc-api/workout-service/workout/FIT/{workoutId}` — the workout as a FIT file for a
    /// device (`{workoutId}_WORKOUT.fit`).
    pub async fn workout_fit(&self, workout_id: u64) -> Result<DownloadedFile> {
        let path = format!("/workout-service/workout/FIT/{workout_id}");
        let bytes = self.fetch(&path, &format!("GET /gc-api{path}")).await?;
        Ok(DownloadedFile { file_name: format!("{workout_id}_WORKOUT.fit"), content_type: FIT_TYPE, bytes })
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

fn decode(endpoint: &str, message: impl Into<String>) -> Error {
    Error::Decode { endpoint: endpoint.to_owned(), field: ".".into(), message: message.into() }
}

/// The FIT bytes (and the member's file name) from what the download answered: a zip holding a
/// `.fit` member, or — tolerated — a bare FIT file.
fn fit_from_download(bytes: &[u8], endpoint: &str) -> Result<(Option<String>, Vec<u8>)> {
    if is_fit(bytes) {
        return Ok((None, bytes.to_vec()));
    }
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| decode(endpoint, format!("not a zip or FIT file ({e})")))?;
    for index in 0..archive.len() {
        let mut member =
            archive.by_index(index).map_err(|e| decode(endpoint, format!("unreadable zip ({e})")))?;
        let name = member.name().map(|n| n.into_owned()).unwrap_or_default();
        if !member.is_file() || !name.to_ascii_lowercase().ends_with(".fit") {
            continue;
        }
        if member.size() > MAX_FIT_BYTES {
            return Err(decode(
                endpoint,
                format!("the FIT file `{name}` is too large ({} bytes)", member.size()),
            ));
        }
        let mut fit = Vec::with_capacity(usize::try_from(member.size()).unwrap_or(0));
        (&mut member)
            .take(MAX_FIT_BYTES)
            .read_to_end(&mut fit)
            .map_err(|e| decode(endpoint, format!("could not unpack `{name}` ({e})")))?;
        let base = name.rsplit(['/', '\\']).next().unwrap_or(&name).to_owned();
        return Ok((Some(base).filter(|b| !b.is_empty()), fit));
    }
    Err(decode(endpoint, "the zip holds no .fit file"))
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
        let zip = zip_of(&[("readme.txt", b"hi"), ("dir/123_ACTIVITY.fit", FIT)]);
        let (name, bytes) = fit_from_download(&zip, "GET /x").unwrap();
        assert_eq!(name.as_deref(), Some("123_ACTIVITY.fit"));
        assert_eq!(bytes, FIT);
    }

    #[test]
    fn a_zip_without_fit_or_garbage_is_a_decode_error() {
        let zip = zip_of(&[("readme.txt", b"hi")]);
        assert!(matches!(fit_from_download(&zip, "GET /x"), Err(Error::Decode { .. })));
        assert!(matches!(fit_from_download(b"<html>", "GET /x"), Err(Error::Decode { .. })));
        assert!(matches!(fit_from_download(b"", "GET /x"), Err(Error::Decode { .. })));
    }

    #[test]
    fn a_bare_fit_file_is_accepted() {
        let (name, bytes) = fit_from_download(FIT, "GET /x").unwrap();
        assert_eq!((name, bytes.as_slice()), (None, FIT));
    }
}
