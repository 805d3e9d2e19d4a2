//! Reading and replacing a client's config file safely: refuse symbolic links, keep one backup of
//! the original, write atomically (temp file in the same folder, fsync, rename) with the original's
//! permissions, and notice when the client rewrote the file while we were editing it.

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use crate::SetupError;

/// Suffix of the one backup kept next to a config file: `<file>.garmin-mcp.bak`.
pub const BACKUP_SUFFIX: &str = ".garmin-mcp.bak";

fn io_err<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> SetupError + 'a {
    move |source| SetupError::Io { action, path: path.to_path_buf(), source }
}

/// The backup of `path`: the same name with [`BACKUP_SUFFIX`] appended.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(BACKUP_SUFFIX);
    path.with_file_name(name)
}

/// The file's text, `None` when it does not exist. Invalid UTF-8 is reported like a parse error.
pub(crate) fn read(path: &Path, format: &'static str) -> Result<Option<String>, SetupError> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err("read", path)(e)),
    };
    String::from_utf8(bytes).map(Some).map_err(|e| {
        let valid = e.as_bytes().get(..e.utf8_error().valid_up_to()).unwrap_or_default();
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = valid.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let column = String::from_utf8_lossy(valid.get(line_start..).unwrap_or_default()).chars().count() + 1;
        SetupError::Malformed {
            path: path.to_path_buf(),
            format,
            line,
            column,
            message: "the file is not UTF-8 text".to_owned(),
        }
    })
}

/// Fails when `path` is a symbolic link (writing would replace the link with a plain file).
pub(crate) fn refuse_symlink(path: &Path) -> Result<(), SetupError> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(SetupError::Symlink { path: path.to_path_buf() }),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(io_err("inspect", path)(e)),
    }
}

/// Copies `path` to its backup unless a backup already exists, so the backup always holds the file
/// as it was before garmin-mcp first changed it. Returns the backup's path.
pub(crate) fn ensure_backup(path: &Path) -> Result<PathBuf, SetupError> {
    let backup = backup_path(path);
    match fs::symlink_metadata(&backup) {
        Ok(_) => return Ok(backup),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_err("inspect", &backup)(e)),
    }
    // `fs::copy` also copies the permission bits: a private config keeps a private backup.
    fs::copy(path, &backup).map_err(io_err("back up the config to", &backup))?;
    Ok(backup)
}

/// Whether [`replace`] wrote the file.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Written {
    /// The new content is in place.
    Yes,
    /// The file no longer held `expected` when we were about to replace it; nothing was written.
    FileChangedMeanwhile,
}

/// Atomically replaces (or creates) `path` with `contents`, provided the file still holds
/// `expected` (`None`: still absent). Keeps an existing file's permissions; a new file is private
/// to the user (0600 on Unix). Creates missing parent folders.
pub(crate) fn replace(path: &Path, contents: &str, expected: Option<&str>) -> Result<Written, SetupError> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir).map_err(io_err("create the folder", dir))?;
    let mut temp = tempfile::Builder::new()
        .prefix(".garmin-mcp-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(io_err("create a temporary file in", dir))?;
    temp.write_all(contents.as_bytes()).map_err(io_err("write", temp.path()))?;
    match fs::metadata(path) {
        Ok(meta) => {
            temp.as_file().set_permissions(meta.permissions()).map_err(io_err("set permissions on", path))?
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_err("inspect", path)(e)),
    }
    temp.as_file().sync_all().map_err(io_err("flush", temp.path()))?;

    // Last look before the rename: a client that rewrote its file since we read it wins, and the
    // caller starts over from the new content.
    let now = match fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_err("read", path)(e)),
    };
    if now.as_deref() != expected.map(str::as_bytes) {
        return Ok(Written::FileChangedMeanwhile);
    }
    // std's rename, not tempfile's `persist` (`MoveFileExW`): on Windows it replaces a file the
    // client holds open (POSIX rename semantics, Windows 10 1607 and later); the temporary file is
    // closed first and removed again if the rename fails.
    let temp = temp.into_temp_path();
    fs::rename(&temp, path).map_err(io_err("replace", path))?;
    let _ = temp.keep();
    if let Ok(folder) = fs::File::open(dir) {
        // Makes the rename durable on Unix; folders cannot be opened this way on Windows.
        let _ = folder.sync_all();
    }
    Ok(Written::Yes)
}
