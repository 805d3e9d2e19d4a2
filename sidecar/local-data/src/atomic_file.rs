//! The data folder's one lock and one atomic write, for every private file rewritten whole
//! (`session.json` in the `garmin` crate, `athlete.json` here): an exclusive OS lock that names its
//! holder, and a replace through a temp file, `fsync`, `rename`, `fsync` of the folder, so a reader
//! (or a crash) sees the old complete file or the new complete file, never a mix.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// Longest wait for a lock of the data folder by default. A session renewal holds `session.lock`
/// for one request to Garmin (with its retries); longer means the holder is stuck or stopped.
pub const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(20);
/// The suffix of every temp file [`write_atomically`] makes.
const TEMP_SUFFIX: &str = ".tmp";

/// A file operation the OS refused: what we were doing, on which path, and why.
#[derive(Debug)]
pub struct FileError {
    /// What we were doing ("replace", "open the lock file"…).
    pub action: &'static str,
    /// The file or folder.
    pub path: PathBuf,
    /// The OS error.
    pub source: io::Error,
}

fn file_err<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> FileError + 'a {
    move |source| FileError { action, path: path.to_path_buf(), source }
}

/// Why [`lock_exclusive`] gave up.
#[derive(Debug)]
pub enum LockError {
    /// The lock file could not be opened or locked.
    File(FileError),
    /// Another process held the lock for longer than we wait; its pid when it wrote one.
    Busy {
        /// The holder's process id.
        pid: Option<u32>,
    },
}

/// The data folder's one cross-process lock routine (used for `session.lock` and every other
/// private file rewritten whole): an exclusive OS lock on the regular file `path` (created 0600,
/// never through a link), waiting at most `wait`; the holder writes its pid in it so a waiter that
/// gives up can name it. Released when the returned file is dropped (or by the kernel on death).
///
/// The lock is std's `File::try_lock` (`flock` on Unix, `LockFileEx` on Windows; in std since Rust
/// 1.89, so no file-lock crate is needed). On Windows the lock is mandatory over the whole file, so
/// a waiter cannot read the holder's pid there and names no process.
pub fn lock_exclusive(path: &Path, wait: std::time::Duration) -> Result<File, LockError> {
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).read(true).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = crate::private_files::open_regular(path, &mut options)
        .map_err(|e| LockError::File(file_err("open the lock file", path)(e)))?;
    let started = std::time::Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(fs::TryLockError::WouldBlock) if started.elapsed() < wait => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(fs::TryLockError::WouldBlock) => {
                let pid = fs::read_to_string(path).ok().and_then(|t| t.trim().parse().ok());
                return Err(LockError::Busy { pid });
            }
            Err(fs::TryLockError::Error(e)) => return Err(LockError::File(file_err("lock", path)(e))),
        }
    }
    // Who holds it, for a waiter that gives up (best effort: the lock is what counts).
    let _ = file.set_len(0).and_then(|()| {
        use std::io::Seek as _;
        file.seek(io::SeekFrom::Start(0))?;
        write!(file, "{}", std::process::id())
    });
    Ok(file)
}

/// The data folder's one atomic-write routine: replaces `target` (in `dir`) with `bytes` through a
/// 0600 temp file named `{temp_prefix}…{TEMP_SUFFIX}` in the same folder, `fsync`, `rename`,
/// `fsync` of the folder, so a reader (or a crash) sees the old or the new file, never a mix.
/// Call it under the file's lock ([`lock_exclusive`]): it first removes temp files a writer killed
/// mid-write left behind, which only the lock holder may do.
pub fn write_atomically(dir: &Path, target: &Path, temp_prefix: &str, bytes: &[u8]) -> Result<(), FileError> {
    remove_stale_temp_files(dir, temp_prefix);
    // tempfile creates the file with mode 0600 on Unix.
    let mut temp = tempfile::Builder::new()
        .prefix(temp_prefix)
        .suffix(TEMP_SUFFIX)
        .tempfile_in(dir)
        .map_err(file_err("create a temporary file in", dir))?;
    temp.write_all(bytes).map_err(file_err("write", temp.path()))?;
    temp.as_file().sync_all().map_err(file_err("flush", dir))?;
    // Closed before the rename (Windows renames a closed file); removed again if the rename fails.
    let temp = temp.into_temp_path();
    crate::private_files::rename_over(&temp, target).map_err(file_err("replace", target))?;
    let _ = temp.keep();
    sync_dir(dir);
    Ok(())
}

/// A writer killed mid-write leaves its temp file behind; under the lock no one else is writing.
fn remove_stale_temp_files(dir: &Path, temp_prefix: &str) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(temp_prefix) && name.ends_with(TEMP_SUFFIX) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Makes the directory entry of a rename (or removal) durable. Best effort: not every OS allows
/// opening folders.
pub fn sync_dir(dir: &Path) {
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}
