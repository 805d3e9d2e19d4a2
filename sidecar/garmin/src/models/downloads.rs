//! Files fetched from `download-service` and `workout-service`: the bytes plus a suggested file
//! name, and the export formats Garmin offers.

use std::fmt;

use serde::Serialize;

/// A downloaded file.
#[derive(Clone, PartialEq, Eq, Serialize)]
pub struct DownloadedFile {
    /// Suggested file name, e.g. `12345_ACTIVITY.fit`.
    pub file_name: String,
    /// MIME type to use when saving or serving it.
    pub content_type: &'static str,
    /// The content.
    #[serde(skip)]
    pub bytes: Vec<u8>,
}

impl fmt::Debug for DownloadedFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DownloadedFile")
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

/// What an activity's original file is. Activities recorded by a device have a FIT original; one
/// uploaded as GPX or TCX keeps that file as its original (docs/garmin-web-api.md §0, from
/// garmin-connect-export).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OriginalFormat {
    /// A FIT recording.
    Fit,
    /// An uploaded GPX track.
    Gpx,
    /// An uploaded TCX file.
    Tcx,
}

impl OriginalFormat {
    /// File extension: `fit`, `gpx`, `tcx`.
    pub fn extension(self) -> &'static str {
        match self {
            OriginalFormat::Fit => "fit",
            OriginalFormat::Gpx => "gpx",
            OriginalFormat::Tcx => "tcx",
        }
    }

    /// `FIT`, `GPX`, `TCX`.
    pub fn label(self) -> &'static str {
        match self {
            OriginalFormat::Fit => "FIT",
            OriginalFormat::Gpx => "GPX",
            OriginalFormat::Tcx => "TCX",
        }
    }

    /// MIME type.
    pub fn content_type(self) -> &'static str {
        match self {
            OriginalFormat::Fit => "application/vnd.ant.fit",
            OriginalFormat::Gpx => ExportFormat::Gpx.content_type(),
            OriginalFormat::Tcx => ExportFormat::Tcx.content_type(),
        }
    }

    /// The format a file name's extension names (`.fit`, `.gpx`, `.tcx`, any case).
    pub fn of_name(name: &str) -> Option<Self> {
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        match ext.as_str() {
            "fit" => Some(OriginalFormat::Fit),
            "gpx" => Some(OriginalFormat::Gpx),
            "tcx" => Some(OriginalFormat::Tcx),
            _ => None,
        }
    }
}

/// An activity's original file, unpacked from Garmin's zip, and what kind of file it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OriginalFile {
    /// FIT, or the GPX/TCX file the activity was uploaded as.
    pub format: OriginalFormat,
    /// The file itself.
    pub file: DownloadedFile,
}

/// Formats of `download-service/export/{format}/activity/{id}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// GPS Exchange Format (track).
    Gpx,
    /// Training Center XML (laps and samples).
    Tcx,
    /// Google Earth track.
    Kml,
    /// Laps as comma-separated values.
    Csv,
}

impl ExportFormat {
    /// Path segment and file extension: `gpx`, `tcx`, `kml`, `csv`.
    pub fn as_str(self) -> &'static str {
        match self {
            ExportFormat::Gpx => "gpx",
            ExportFormat::Tcx => "tcx",
            ExportFormat::Kml => "kml",
            ExportFormat::Csv => "csv",
        }
    }

    /// MIME type of the export.
    pub fn content_type(self) -> &'static str {
        match self {
            ExportFormat::Gpx => "application/gpx+xml",
            ExportFormat::Tcx => "application/vnd.garmin.tcx+xml",
            ExportFormat::Kml => "application/vnd.google-earth.kml+xml",
            ExportFormat::Csv => "text/csv",
        }
    }
}

impl std::str::FromStr for ExportFormat {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "gpx" => Ok(ExportFormat::Gpx),
            "tcx" => Ok(ExportFormat::Tcx),
            "kml" => Ok(ExportFormat::Kml),
            "csv" => Ok(ExportFormat::Csv),
            other => Err(crate::Error::InvalidInput(format!(
                "unknown export format `{other}`: use gpx, tcx, kml or csv"
            ))),
        }
    }
}
