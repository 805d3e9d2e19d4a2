//! Files the tools leave on the person's disk (charts, exported activities, workout FIT files): where
//! they go, what they are called, and how they are written so nothing is clobbered or half-written.
//!
//! * Folder: the tool's `folder` argument, else `GARMIN_MCP_EXPORT_DIR`, else the OS downloads folder
//!   with a `Garmin` subfolder (`~/Downloads/Garmin` when the OS names none).
//! * Name: built by the caller from parts (`{date}_{activity name}_{id}.{ext}`), cleaned by
//!   [`safe_file_name`] so any activity name (Chinese included) gives a valid name on every OS.
//! * Write: bytes go to a temporary file in the same folder, are flushed, then linked to the final
//!   name only if that name is free. An existing file with the same bytes is reused; one with
//!   different bytes is kept and the new file gets ` (2)`, ` (3)`… A failure leaves no partial file.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Overrides the default export folder.
pub const EXPORT_DIR_ENV: &str = "GARMIN_MCP_EXPORT_DIR";

/// Longest file name we produce, in bytes (most file systems allow 255).
const MAX_NAME_BYTES: usize = 180;

/// How many ` (n)` variants to try before giving up.
const MAX_VARIANTS: u32 = 999;

/// A file written (or found already written) by [`save_new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// Absolute path of the file.
    pub path: PathBuf,
    /// Size in bytes.
    pub size: u64,
    /// True when an identical file was already there and nothing was written.
    pub already_there: bool,
}

/// The folder files go to: `requested` (a tool argument), else [`EXPORT_DIR_ENV`], else the OS
/// downloads folder's `Garmin` subfolder. Relative paths are refused: the server's working
/// directory means nothing to the person.
pub fn export_dir(requested: Option<&str>) -> Result<PathBuf, String> {
    let chosen = requested
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os(EXPORT_DIR_ENV).filter(|v| !v.is_empty()).map(PathBuf::from));
    if let Some(dir) = chosen {
        let dir = expand_home(&dir);
        if !dir.is_absolute() {
            return Err(format!(
                "the folder `{}` is not an absolute path; give a full path such as `{}`",
                dir.display(),
                default_dir()
                    .map_or_else(|| "/home/me/Downloads/Garmin".to_owned(), |d| d.display().to_string())
            ));
        }
        return Ok(dir);
    }
    default_dir().ok_or_else(|| {
        format!(
            "no downloads folder is known for this account; set {EXPORT_DIR_ENV} to a folder to save files in"
        )
    })
}

fn default_dir() -> Option<PathBuf> {
    export_dir_in(dirs::download_dir(), dirs::home_dir())
}

/// The default export folder from the OS's Downloads folder (`downloads`: Windows' Downloads known
/// folder, `FOLDERID_Downloads`, which a person may have moved to another drive; macOS
/// `~/Downloads`; Linux `XDG_DOWNLOAD_DIR` from `user-dirs.dirs`), else `<home>/Downloads`, with a
/// `Garmin` subfolder.
fn export_dir_in(downloads: Option<PathBuf>, home: Option<PathBuf>) -> Option<PathBuf> {
    downloads.or_else(|| home.map(|h| h.join("Downloads"))).map(|d| d.join("Garmin"))
}

/// `~/x` means the home folder, as people type it.
fn expand_home(path: &Path) -> PathBuf {
    if let Ok(rest) = path.strip_prefix("~")
        && let Some(home) = dirs::home_dir()
    {
        return home.join(rest);
    }
    path.to_path_buf()
}

/// Joins `parts` with `_` into a file name ending in `.ext`, keeping letters of any script, digits
/// and simple punctuation; path separators, characters Windows forbids, control characters and
/// leading dots are removed, runs of spaces collapse, and the stem is cut (on a character
/// boundary) to keep the name short. Empty parts are skipped.
pub fn safe_file_name(parts: &[&str], ext: &str) -> String {
    let cleaned: Vec<String> = parts.iter().map(|p| clean_part(p)).filter(|p| !p.is_empty()).collect();
    let mut stem = cleaned.join("_");
    if stem.is_empty() {
        stem = "garmin".to_owned();
    }
    let ext: String = ext.chars().filter(char::is_ascii_alphanumeric).collect();
    let budget = MAX_NAME_BYTES.saturating_sub(ext.len() + 1);
    if stem.len() > budget {
        let mut cut = budget;
        while !stem.is_char_boundary(cut) {
            cut -= 1;
        }
        stem.truncate(cut);
        stem = stem.trim_end_matches([' ', '.', '_', '-']).to_owned();
    }
    if is_reserved_on_windows(&stem) {
        stem.insert(0, '_');
    }
    if ext.is_empty() { stem } else { format!("{stem}.{ext}") }
}

fn clean_part(part: &str) -> String {
    let mut out = String::with_capacity(part.len());
    let mut last_space = true;
    for c in part.chars() {
        let c = if c.is_whitespace() { ' ' } else { c };
        let unsafe_char =
            is_invisible(c) || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|');
        if unsafe_char {
            continue;
        }
        if c == ' ' {
            if last_space {
                continue;
            }
            last_space = true;
        } else {
            last_space = false;
        }
        out.push(c);
    }
    out.trim_start_matches(['.', ' ']).trim_end_matches(['.', ' ']).to_owned()
}

/// True for characters a person cannot see but that change what they see: control characters and
/// [`app_bridge::is_hidden_control`] (bidi overrides, zero-width characters, tags…). An activity
/// named `\u{202e}gpj.exe` would otherwise show as `…exe.jpg` in a file manager.
pub fn is_invisible(c: char) -> bool {
    c.is_control() || app_bridge::is_hidden_control(c)
}

fn is_reserved_on_windows(stem: &str) -> bool {
    let base = stem.split('.').next().unwrap_or_default().to_ascii_uppercase();
    matches!(base.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (base.len() == 4
            && (base.starts_with("COM") || base.starts_with("LPT"))
            && base.as_bytes()[3].is_ascii_digit())
}

/// Writes `bytes` as `dir/file_name` without ever replacing a different file (see the module
/// docs). Creates `dir` if needed.
pub fn save_new(dir: &Path, file_name: &str, bytes: &[u8]) -> Result<Saved, String> {
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("could not create the folder {}: {e}; choose another folder", dir.display()))?;
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let (stem, ext) = match file_name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem, Some(ext)),
        _ => (file_name, None),
    };
    for n in 1..=MAX_VARIANTS {
        let name = match (n, ext) {
            (1, _) => file_name.to_owned(),
            (n, Some(ext)) => format!("{stem} ({n}).{ext}"),
            (n, None) => format!("{stem} ({n})"),
        };
        let path = dir.join(&name);
        match std::fs::read(&path) {
            Ok(existing) if existing == bytes => {
                return Ok(Saved { path, size: bytes.len() as u64, already_there: true });
            }
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(_) if path.exists() => continue,
            Err(e) => return Err(format!("could not check {}: {e}", path.display())),
        }
        match write_if_free(&dir, &path, bytes) {
            Ok(()) => return Ok(Saved { path, size: bytes.len() as u64, already_there: false }),
            // Another writer took the name between the check and the link: try the next one.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(format!(
                    "could not write {}: {e}; check the folder is writable and has free space",
                    path.display()
                ));
            }
        }
    }
    Err(format!("{} already holds {MAX_VARIANTS} files named like {file_name}; tidy it up", dir.display()))
}

fn write_if_free(dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut temp = tempfile::Builder::new().prefix(".garmin-mcp-").suffix(".part").tempfile_in(dir)?;
    temp.write_all(bytes)?;
    temp.as_file().sync_all()?;
    temp.persist_noclobber(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_go_to_the_downloads_known_folder_even_when_moved_else_to_home_downloads() {
        // Windows: the Downloads known folder moved to another drive; macOS and Linux: ~/Downloads.
        let moved = export_dir_in(Some(PathBuf::from(r"D:\Downloads")), Some(PathBuf::from(r"C:\Users\Ann")));
        assert_eq!(moved, Some(PathBuf::from(r"D:\Downloads").join("Garmin")));
        let mac =
            export_dir_in(Some(PathBuf::from("/Users/ann/Downloads")), Some(PathBuf::from("/Users/ann")));
        assert_eq!(mac, Some(PathBuf::from("/Users/ann/Downloads/Garmin")));
        // No Downloads folder known (a Linux without user-dirs): the home's.
        let bare = export_dir_in(None, Some(PathBuf::from("/home/ann")));
        assert_eq!(bare, Some(PathBuf::from("/home/ann/Downloads/Garmin")));
        assert_eq!(export_dir_in(None, None), None);
    }

    #[test]
    fn names_keep_chinese_and_drop_path_separators_and_windows_forbidden_characters() {
        let name = safe_file_name(&["2026-11-28", " 上海 / 半程:马拉松? <PB> ", "123"], "gpx");
        assert_eq!(name, "2026-11-28_上海 半程马拉松 PB_123.gpx");
        assert_eq!(safe_file_name(&["..", "../../etc/passwd"], "fit"), "etcpasswd.fit");
        assert_eq!(safe_file_name(&["", "\u{7}"], "csv"), "garmin.csv");
        assert_eq!(safe_file_name(&["CON"], "txt"), "_CON.txt");
    }

    #[test]
    fn bidi_overrides_and_invisible_characters_never_reach_a_file_name() {
        let name = safe_file_name(&["2026-11-28", "\u{202e}gpj.exe", "a\u{200b}b\u{2066}c\u{feff}"], "gpx");
        assert_eq!(name, "2026-11-28_gpj.exe_abc.gpx");
        assert!(!name.chars().any(is_invisible));
        assert_eq!(safe_file_name(&["\u{202e}\u{200f}"], "fit"), "garmin.fit", "nothing visible left");
    }

    #[test]
    fn long_names_are_cut_on_a_character_boundary_and_keep_the_extension() {
        let long = "长".repeat(200);
        let name = safe_file_name(&["2026-01-01", &long, "42"], "tcx");
        assert!(name.len() <= MAX_NAME_BYTES, "{}", name.len());
        assert!(name.ends_with(".tcx") && name.starts_with("2026-01-01_长"), "{name}");
    }

    #[test]
    fn an_existing_different_file_is_kept_and_the_new_one_gets_a_numbered_name() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("run.gpx"), b"older").unwrap();
        let saved = save_new(dir.path(), "run.gpx", b"newer").unwrap();
        assert_eq!(std::fs::read(dir.path().join("run.gpx")).unwrap(), b"older");
        assert_eq!(saved.path.file_name().unwrap(), "run (2).gpx");
        assert_eq!(std::fs::read(&saved.path).unwrap(), b"newer");
        assert!(!saved.already_there);
    }

    #[test]
    fn saving_the_same_bytes_twice_reuses_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let first = save_new(dir.path(), "a.fit", b"same").unwrap();
        let second = save_new(dir.path(), "a.fit", b"same").unwrap();
        assert_eq!(first.path, second.path);
        assert!(second.already_there);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temp file left behind");
    }

    #[test]
    fn a_folder_that_cannot_be_created_is_an_error_and_nothing_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let blocker = dir.path().join("file");
        std::fs::write(&blocker, b"x").unwrap();
        let err = save_new(&blocker.join("sub"), "a.csv", b"data").unwrap_err();
        assert!(err.contains("could not create the folder"), "{err}");
    }

    #[test]
    fn relative_folders_are_refused_with_an_example_of_a_full_path() {
        let err = export_dir(Some("exports")).unwrap_err();
        assert!(err.contains("not an absolute path"), "{err}");
        // An absolute path of this OS (`/tmp/x` is not one on Windows).
        let absolute = std::env::temp_dir().join("x");
        assert_eq!(export_dir(Some(absolute.to_str().unwrap())).unwrap(), absolute);
    }
}
