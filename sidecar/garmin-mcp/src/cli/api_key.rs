//! `garmin-mcp login --api-key`: add Garmin's official Personal API key (docs/garmin-personal-api.md)
//! for machines without the desktop app. The key comes from `--api-key-file` (refused when other
//! users can read it), else `GARMIN_PERSONAL_API_KEY`, else the terminal (or stdin); it is checked
//! with one token exchange before it is saved in the session file (`garmin::personal::add_key`,
//! shared with the desktop app), and never echoed back: typed at a terminal it is read with echo
//! off (rustix's termios), piped on stdin it is read as a line.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use chrono::{DateTime, NaiveDate, Utc};
use garmin::personal::{CHINA_NOT_OFFERED, KEY_PAGE_URL, PERSONAL_API_KEY_ENV, origin_from_env};
use garmin::{Error, SessionStore, Site};

use super::output::fail;

/// Largest key file read: a key is well under a kilobyte.
const KEY_FILE_MAX_BYTES: u64 = 64 * 1024;

/// What `login --api-key` was given: the site asked for (`--site`), the key's file
/// (`--api-key-file`) and when it expires (`--key-expires`).
#[derive(Debug)]
pub struct KeyArgs<'a> {
    /// `--site`, when given.
    pub site: Option<Site>,
    /// `--api-key-file`, when given.
    pub api_key_file: Option<&'a Path>,
    /// `--key-expires`, when given.
    pub key_expires: Option<&'a str>,
}

/// Runs `login --api-key`.
pub async fn run(args: &KeyArgs<'_>, store: &SessionStore) -> ExitCode {
    let web_site = store.load().ok().flatten().map(|s| s.site);
    if args.site == Some(Site::Cn) || web_site == Some(Site::Cn) {
        return fail(&Error::InvalidInput(format!("{CHINA_NOT_OFFERED}.")));
    }
    let key_expires_at = match args.key_expires.map(parse_expiry).transpose() {
        Ok(at) => at,
        Err(message) => return fail(&Error::InvalidInput(message)),
    };
    let key = match read_key(args.api_key_file).await {
        Ok(key) => key,
        Err(message) => return fail(&Error::InvalidInput(message)),
    };
    let record = match garmin::personal::add_key(store, &origin_from_env(), &key, key_expires_at).await {
        Ok(record) => record,
        Err(e) => return fail(&e),
    };
    let expiry = match record.key_expires_at {
        Some(at) => format!("It expires on {}.", at.format("%Y-%m-%d")),
        None => "Its expiry is not known: pass --key-expires to be warned 14 days ahead.".to_owned(),
    };
    println!("Garmin accepted the Personal API key; saved to {}. {expiry}", store.path().display());
    if let Some(warning) = record.expiry_warning(Utc::now()) {
        println!("{warning}");
    }
    if web_site.is_none() {
        println!(
            "Without the web sign-in, training status, records, gear, devices, workouts, the calendar and every write need `garmin-mcp login --manual` or the desktop app."
        );
    }
    ExitCode::SUCCESS
}

/// Longest life of a Garmin key in days (the key page offers 30, 90, 180 or 365), plus a day for
/// time zones.
const MAX_KEY_DAYS: i64 = 366;

/// `--key-expires`: a date from today to [`MAX_KEY_DAYS`] ahead, or 30/90/180/365 days from today.
fn parse_expiry(text: &str) -> Result<DateTime<Utc>, String> {
    parse_expiry_on(text, Utc::now())
}

/// [`parse_expiry`] as of `now`.
fn parse_expiry_on(text: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>, String> {
    let text = text.trim();
    let shown = crate::output::echo(text);
    if let Ok(days) = text.parse::<i64>() {
        if !(1..=MAX_KEY_DAYS).contains(&days) {
            return Err(format!("--key-expires {days}: Garmin keys last 30, 90, 180 or 365 days"));
        }
        return Ok(now + chrono::TimeDelta::days(days));
    }
    let well_formed = text.len() == 10 && text.as_bytes()[4] == b'-' && text.as_bytes()[7] == b'-';
    let date = NaiveDate::parse_from_str(text, "%Y-%m-%d").ok().filter(|_| well_formed).ok_or_else(|| {
        format!("--key-expires must be a date (YYYY-MM-DD) or a number of days, got `{shown}`")
    })?;
    let today = now.date_naive();
    let last = today + chrono::TimeDelta::days(MAX_KEY_DAYS);
    if date < today || date > last {
        return Err(format!(
            "--key-expires {shown} is not a day a Garmin key can expire on: keys last at most 365 days, so give a day from {today} to {last} (the date shown on Garmin's key page)"
        ));
    }
    date.and_hms_opt(0, 0, 0)
        .map(|t| t.and_utc())
        .ok_or_else(|| format!("--key-expires {shown} is not a day"))
}

/// The key from the file, the environment, or the terminal / stdin.
async fn read_key(file: Option<&Path>) -> Result<String, String> {
    let key = if let Some(path) = file {
        read_key_file(path)?
    } else if let Some(key) = std::env::var(PERSONAL_API_KEY_ENV).ok().filter(|k| !k.trim().is_empty()) {
        key
    } else {
        let read = if std::io::stdin().is_terminal() {
            read_hidden_line(&format!(
                "Create a key on Garmin Connect (signed in at {KEY_PAGE_URL}: Create Key, accept the terms, choose how long it lasts, copy it).\nPaste the key: "
            ))
            .await
        } else {
            read_line()
        };
        read.map_err(|e| format!("could not read the key: {e}"))?
    };
    let key = key.trim().to_owned();
    if key.is_empty() {
        return Err(format!(
            "no Personal API key given: pass --api-key-file FILE, set {PERSONAL_API_KEY_ENV}, or paste it when asked"
        ));
    }
    Ok(key)
}

/// One line of stdin.
fn read_line() -> std::io::Result<String> {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line)?;
    Ok(line)
}

/// Shows `prompt` on stderr once echo is off, then reads one line typed at the terminal (the
/// newline still shows); the terminal's modes are put back afterwards, also when reading fails and
/// when the person gives up with Ctrl-C (caught while the prompt waits, so the process does not die
/// with echo still off and leave the shell typing blind).
#[cfg(unix)]
async fn read_hidden_line(prompt: &str) -> std::io::Result<String> {
    use rustix::termios::{LocalModes, OptionalActions, tcgetattr, tcsetattr};
    use std::os::fd::AsFd;

    /// Puts the saved modes back when dropped.
    struct Restore<'a>(std::os::fd::BorrowedFd<'a>, rustix::termios::Termios);
    impl Drop for Restore<'_> {
        fn drop(&mut self) {
            let _ = tcsetattr(self.0, OptionalActions::Now, &self.1);
        }
    }

    let stdin = std::io::stdin();
    let fd = stdin.as_fd();
    let saved = tcgetattr(fd)?;
    let mut quiet = saved.clone();
    quiet.local_modes.remove(LocalModes::ECHO);
    quiet.local_modes.insert(LocalModes::ECHONL);
    // Listening for Ctrl-C before echo goes off: from here on it cannot kill the process.
    let mut interrupt = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())?;
    tcsetattr(fd, OptionalActions::Now, &quiet)?;
    let _restore = Restore(fd, saved);
    show_prompt(prompt);
    // A plain thread, not tokio's blocking pool: the runtime waits for its blocking tasks when it
    // shuts down, and this read never ends once the person has pressed Ctrl-C.
    let (tx, line) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || tx.send(read_line()));
    tokio::select! {
        read = line => read.map_err(std::io::Error::other)?,
        _ = interrupt.recv() => {
            eprintln!();
            Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "stopped with Ctrl-C; nothing was saved"))
        }
    }
}

/// Elsewhere the terminal's echo stays on.
#[cfg(not(unix))]
async fn read_hidden_line(prompt: &str) -> std::io::Result<String> {
    show_prompt(prompt);
    read_line()
}

fn show_prompt(prompt: &str) {
    eprint!("{prompt}");
    let _ = std::io::stderr().flush();
}

/// A key file's text, refused when group or others may read it.
fn read_key_file(path: &Path) -> Result<String, String> {
    let shown = path.display();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(path).map_err(|e| format!("cannot read --api-key-file {shown}: {e}"))?;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(format!(
                "--api-key-file {shown} can be read by other users (mode {mode:o}): run `chmod 600 {shown}` and try again"
            ));
        }
    }
    match local_data::private_files::read_regular(path, KEY_FILE_MAX_BYTES) {
        Ok(Some(bytes)) => {
            String::from_utf8(bytes).map_err(|_| format!("--api-key-file {shown} is not text"))
        }
        Ok(None) => Err(format!("--api-key-file {shown} does not exist")),
        Err(e) => Err(format!("cannot read --api-key-file {shown}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-15T08:00:00Z").map(|d| d.with_timezone(&Utc)).unwrap()
    }

    #[test]
    fn key_expiry_dates_from_1900_or_in_year_262142_are_refused_with_the_days_that_fit() {
        for bad in ["1900-01-01", "+262142-01-01", "262142-01-01", "2026-11-14", "2027-11-17", "0", "400"] {
            let e = parse_expiry_on(bad, now()).expect_err(bad);
            assert!(e.contains("--key-expires"), "{bad}: {e}");
        }
        let e = parse_expiry_on("1900-01-01", now()).unwrap_err();
        assert!(e.contains("from 2026-11-15 to 2027-11-16"), "{e}");
        assert_eq!(parse_expiry_on("2027-11-16", now()).unwrap().date_naive().to_string(), "2027-11-16");
        assert_eq!(parse_expiry_on("2026-11-15", now()).unwrap().date_naive().to_string(), "2026-11-15");
        assert_eq!(parse_expiry_on("90", now()).unwrap(), now() + chrono::TimeDelta::days(90));
    }
}
