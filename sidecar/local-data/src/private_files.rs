//! The data folder's files, handled as only their owner may: the one place that decides whether the
//! folder is safe to use and how its files are opened.
//!
//! * The folder must belong to the person running us and be private (0700). One we own but others
//!   can write (e.g. left 0777) is repaired to 0700 with a warning; one owned by someone else is
//!   refused with the fix, because its owner could delete `session.json` or swap it for a link.
//! * Files are opened without following links (`O_NOFOLLOW`) and must be regular files: a link
//!   planted at `session.json` or `changes.jsonl` is refused instead of reading (or appending to,
//!   or changing the mode of) the file it points at, and a FIFO or a device never blocks a read.
//! * Reads are capped ([`read_regular`]), so `/dev/zero` or a huge file cannot eat the memory.
//! * On Windows, "private" is an owner-only access list instead of mode bits ([`acl`] decides,
//!   `windows` talks to the OS): a new folder gets a protected DACL that lets only us in (and is
//!   inherited by every file created in it); an existing one that lets others in is repaired; one
//!   owned by someone else is refused with the `takeown`/`icacls` fix.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read as _};
use std::path::Path;

pub mod acl;
#[cfg(windows)]
pub mod windows;

/// Checks `dir` before use (nothing to check when it does not exist yet): ours, and private.
pub fn check_folder(dir: &Path) -> io::Result<()> {
    let meta = match fs::metadata(dir) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if !meta.is_dir() {
        return Err(io::Error::other(format!(
            "{} is not a folder; point --data-dir (or GARMIN_MCP_HOME) at a folder of your own",
            dir.display()
        )));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
        let me = rustix::process::geteuid().as_raw();
        if meta.uid() != me {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "the data folder {} belongs to another user (uid {}), who could replace the session in it; \
                     use a folder of your own (--data-dir or GARMIN_MCP_HOME), or, if it is yours, fix it with \
                     `sudo chown -R $(id -u) '{}' && chmod 700 '{}'`",
                    dir.display(),
                    meta.uid(),
                    dir.display(),
                    dir.display()
                ),
            ));
        }
        if meta.mode() & 0o077 != 0 {
            tracing::warn!(folder = %dir.display(), "the data folder was open to other users; setting mode 0700");
            fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
        }
    }
    #[cfg(windows)]
    check_folder_acl(dir)?;
    Ok(())
}

/// Windows: the folder's owner must be us (or the machine's own accounts) and its DACL must let
/// no one else in; an open one is made owner-only.
#[cfg(windows)]
fn check_folder_acl(dir: &Path) -> io::Result<()> {
    let me = windows::current_user_sid()?;
    match acl::judge(&windows::path_sddl(dir)?, &me) {
        acl::AclVerdict::Private => Ok(()),
        acl::AclVerdict::Open { others } => {
            tracing::warn!(folder = %dir.display(), ?others, "the data folder was open to other users; making it private to you");
            windows::set_path_dacl(dir, &acl::owner_only_sddl(&me, true))
        }
        acl::AclVerdict::ForeignOwner { owner } => Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "the data folder {} belongs to another user ({owner}), who could replace the session in it; \
                 use a folder of your own (--data-dir or GARMIN_MCP_HOME), or, if it is yours, fix it from an \
                 administrator's Command Prompt with `{}`",
                dir.display(),
                acl::repair_command(&dir.display().to_string())
            ),
        )),
    }
}

/// Makes the regular file `path` private to us when others may open it (Unix: mode 0600; Windows:
/// an owner-only DACL). Never through a link: its target is not ours to change. Best effort, with a
/// warning: the folder's own protection is what keeps others out.
pub fn tighten_file(path: &Path) {
    let Ok(meta) = fs::symlink_metadata(path) else { return };
    if !meta.is_file() {
        return;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        if meta.permissions().mode() & 0o077 != 0 {
            tracing::warn!(path = %path.display(), "a private file was readable by others; setting mode 0600");
            let _ = fs::set_permissions(path, fs::Permissions::from_mode(0o600));
        }
    }
    #[cfg(windows)]
    {
        let Ok(me) = windows::current_user_sid() else { return };
        if let Ok(sddl) = windows::path_sddl(path)
            && matches!(acl::judge(&sddl, &me), acl::AclVerdict::Open { .. })
        {
            tracing::warn!(path = %path.display(), "a private file was readable by others; making it private to you");
            let _ = windows::set_path_dacl(path, &acl::owner_only_sddl(&me, false));
        }
    }
}

/// Creates `dir` (and its parents) private, or checks it when it exists.
pub fn ensure_folder(dir: &Path) -> io::Result<()> {
    if !dir.is_dir() {
        let mut builder = fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir)?;
        // Windows has no mode to create with: the new folder gets its owner-only DACL at once,
        // before any file is put in it (files inherit it).
        #[cfg(windows)]
        windows::set_path_dacl(dir, &acl::owner_only_sddl(&windows::current_user_sid()?, true))?;
    }
    check_folder(dir)
}

/// Options that never follow a link at the last component (and never block on a FIFO).
pub fn no_follow(options: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        options.custom_flags(i32::try_from(flags.bits()).unwrap_or(0));
    }
    options
}

/// Opens `path` with `options` made [`no_follow`], and checks it is a regular file. A link gives a
/// clear error naming it.
pub fn open_regular(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    let file = no_follow(options).open(path).map_err(|e| explain_link(path, e))?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other(format!(
            "{} is not a regular file (a pipe, device or folder is there); remove it",
            path.display()
        )));
    }
    Ok(file)
}

/// Reads the regular file at `path` (`None` when absent), refusing links, non-files and anything
/// over `max_bytes`.
pub fn read_regular(path: &Path, max_bytes: u64) -> io::Result<Option<Vec<u8>>> {
    let file = match open_regular(path, OpenOptions::new().read(true)) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1)).read_to_end(&mut bytes)?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > max_bytes {
        return Err(io::Error::other(format!(
            "{} is larger than {max_bytes} bytes, which no file of ours is; move it away",
            path.display()
        )));
    }
    Ok(Some(bytes))
}

/// Replaces `target` with the file at `from` in one step (the data folder's atomic replace, after
/// the new content is flushed). std's `rename` is `rename(2)` on Unix and, on Windows, a POSIX-style
/// rename (`FileRenameInfoEx`, Windows 10 1607 and later) that replaces a target other processes
/// hold open, as long as they opened it sharing delete (every Rust and most other programs do).
/// A program that holds it open without that (a virus scanner, a backup tool) makes Windows refuse
/// for a moment: the rename is tried again for up to two seconds before the error is returned.
pub fn rename_over(from: &Path, target: &Path) -> io::Result<()> {
    let started = std::time::Instant::now();
    loop {
        match fs::rename(from, target) {
            Ok(()) => return Ok(()),
            Err(e) if cfg!(windows) && is_transient_sharing_error(&e) && started.elapsed() < RENAME_RETRY => {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Err(e) => return Err(e),
        }
    }
}

/// How long [`rename_over`] keeps trying while another program holds the target.
const RENAME_RETRY: std::time::Duration = std::time::Duration::from_secs(2);

/// Windows' "in use" refusals: access denied (5), sharing violation (32), lock violation (33).
fn is_transient_sharing_error(error: &io::Error) -> bool {
    matches!(error.raw_os_error(), Some(5 | 32 | 33))
}

/// A refused link, said as such.
fn explain_link(path: &Path, error: io::Error) -> io::Error {
    #[cfg(unix)]
    if error.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) {
        return io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("{} is a link, which this program never follows there; remove it", path.display()),
        );
    }
    let _ = path;
    error
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn an_open_folder_of_ours_is_made_private() {
        let dir = tempfile::tempdir().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o777)).unwrap();
        check_folder(dir.path()).unwrap();
        assert_eq!(fs::metadata(dir.path()).unwrap().permissions().mode() & 0o777, 0o700);
    }

    #[test]
    fn a_folder_owned_by_another_user_is_refused_with_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        // Only root can give a folder away; elsewhere there is nothing to prove here.
        if std::os::unix::fs::chown(dir.path(), Some(65534), Some(65534)).is_err() {
            return;
        }
        let e = check_folder(dir.path()).unwrap_err();
        assert!(e.to_string().contains("belongs to another user (uid 65534)"), "{e}");
        assert!(e.to_string().contains("chmod 700"), "{e}");
    }

    #[test]
    fn a_link_a_fifo_and_dev_zero_are_refused_without_blocking_or_reading_forever() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("someone-elses-file");
        fs::write(&target, b"secret").unwrap();
        let link = dir.path().join("session.json");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = read_regular(&link, 1024).unwrap_err();
        assert!(e.to_string().contains("is a link"), "{e}");
        fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(read_regular(&link, 1024).is_err());
        fs::remove_file(&link).unwrap();
        let status = std::process::Command::new("mkfifo").arg(&link).status().unwrap();
        assert!(status.success());
        let e = read_regular(&link, 1024).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        fs::remove_file(&link).unwrap();
        fs::write(&link, vec![b'x'; 2048]).unwrap();
        assert!(read_regular(&link, 1024).unwrap_err().to_string().contains("larger than 1024"));
        assert_eq!(read_regular(&dir.path().join("absent"), 10).unwrap(), None);
    }
}
