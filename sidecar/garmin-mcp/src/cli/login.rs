//! `garmin-mcp login --manual`: save a session copied from a browser that is signed in to Garmin
//! Connect, for machines without the desktop app. The values are validated with one cheap
//! authenticated call before anything is saved, and are never echoed back.
//!
//! Input: the `Cookie` request header of any request to `/gc-api/…`, then the value of its
//! `connect-csrf-token` header. On a terminal both are prompted for; otherwise they are read from
//! stdin, one per line. With `--cookies-file`, the cookies come from a file instead, in any form
//! `garmin::Session::from_cookie_export` reads (the header, a browser extension's JSON export, a
//! Netscape `cookies.txt`), and only the CSRF token is read.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use garmin::{Client, Error, Session, SessionStore, Site};

use super::output::fail;

/// Linux terminals cut a typed line at 4095 bytes; Garmin cookie headers can be longer.
const TERMINAL_LINE_LIMIT: usize = 4095;
/// Largest cookie file read: a whole browser's export is far smaller.
const COOKIES_FILE_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// Options of `login`.
#[derive(Debug, Args)]
pub struct LoginArgs {
    /// Paste cookies from a signed-in browser (the desktop app signs in on Garmin's own page instead).
    #[arg(long, required_unless_present = "api_key", conflicts_with = "api_key")]
    pub manual: bool,

    /// Which Garmin Connect the account lives on: `global` (connect.garmin.com) or `cn` (connect.garmin.cn).
    #[arg(long, value_name = "global|cn", required_unless_present = "api_key")]
    pub site: Option<Site>,

    /// Add Garmin's official Personal API key instead (made on Garmin Connect web: Settings →
    /// Personal API). Read from --api-key-file, else the GARMIN_PERSONAL_API_KEY environment
    /// variable, else asked on the terminal (or read from stdin). Checked with Garmin before saving.
    #[arg(long)]
    pub api_key: bool,

    /// File holding the Personal API key (must be private: chmod 600).
    #[arg(long, value_name = "FILE", requires = "api_key")]
    pub api_key_file: Option<PathBuf>,

    /// When the key expires, as chosen on Garmin's key page: a date (YYYY-MM-DD) or 30, 90, 180 or
    /// 365 days from today. Lets `status` and the tools warn 14 days ahead.
    #[arg(long, value_name = "YYYY-MM-DD|DAYS", requires = "api_key")]
    pub key_expires: Option<String>,

    /// User-Agent of the browser the cookies come from (Garmin may refuse a session used with another).
    #[arg(long, value_name = "UA", default_value = garmin::DEFAULT_USER_AGENT)]
    pub user_agent: String,

    /// Read the cookies from this file: the `Cookie` header, a cookie extension's JSON export or a
    /// Netscape cookies.txt (cookies of other sites are ignored). Only the CSRF token is then asked.
    #[arg(long, value_name = "FILE")]
    pub cookies_file: Option<PathBuf>,
}

/// Runs `login --manual` or `login --api-key`.
pub async fn run(args: LoginArgs, store: &SessionStore) -> ExitCode {
    if args.api_key {
        let key = super::api_key::KeyArgs {
            site: args.site,
            api_key_file: args.api_key_file.as_deref(),
            key_expires: args.key_expires.as_deref(),
        };
        return super::api_key::run(&key, store).await;
    }
    let Some(site) = args.site else {
        return fail(&Error::InvalidInput("--manual needs --site global|cn".into()));
    };
    let args = ManualArgs { site, user_agent: args.user_agent, cookies_file: args.cookies_file };
    let origins = args.site.origins_from_env();
    let cookies_file = match args.cookies_file.as_deref().map(read_cookies_file).transpose() {
        Ok(text) => text,
        Err(message) => return fail(&Error::InvalidInput(message)),
    };
    let (cookies, csrf) = match read_inputs(&origins.connect, cookies_file) {
        Ok(values) => values,
        Err(message) => return fail(&Error::InvalidInput(message)),
    };
    let session = match Session::from_cookie_export(args.site, origins, &cookies, &csrf, &args.user_agent) {
        Ok(session) => session,
        Err(e) => return fail(&e),
    };
    // Validate in memory first: nothing is saved unless Garmin accepts the session.
    let client = match Client::builder().session(session).build() {
        Ok(client) => client,
        Err(e) => return fail(&e),
    };
    let account = match client.verify().await {
        Ok(account) => account,
        Err(e) if e.needs_sign_in() => {
            // Which cookie was missing is said only now that Garmin refused the jar.
            let said = e.to_string();
            let hint = client
                .session()
                .missing_cookie_hint()
                .filter(|h| !said.contains(h.as_str()))
                .map(|h| format!(" ({h})"))
                .unwrap_or_default();
            return fail(&Error::InvalidInput(format!(
                "Garmin did not accept these values ({said}){hint}. Copy them again from a request to /gc-api/ right after loading {}/app/ in the browser",
                args.site.origins_from_env().connect
            )));
        }
        Err(e) => return fail(&e),
    };
    if let Err(e) = store.save(&client.session()) {
        return fail(&e.into());
    }
    let name = account.full_name.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
    println!(
        "Signed in to {} as {}{name}. Session saved to {}",
        args.site.label(),
        account.display_name,
        store.path().display()
    );
    ExitCode::SUCCESS
}

/// What `login --manual` needs.
struct ManualArgs {
    site: Site,
    user_agent: String,
    cookies_file: Option<PathBuf>,
}

/// The text of `--cookies-file`, or what is wrong with it.
fn read_cookies_file(path: &std::path::Path) -> Result<String, String> {
    let shown = path.display();
    match local_data::private_files::read_regular(path, COOKIES_FILE_MAX_BYTES) {
        Ok(Some(bytes)) if bytes.len() as u64 > COOKIES_FILE_MAX_BYTES => {
            Err(format!("--cookies-file {shown} is over 4 MiB: export only Garmin Connect's cookies"))
        }
        Ok(Some(bytes)) => String::from_utf8(bytes).map_err(|_| {
            format!("--cookies-file {shown} is not text: export the cookies as JSON or cookies.txt")
        }),
        Ok(None) => Err(format!("--cookies-file {shown} does not exist")),
        Err(e) => Err(format!("cannot read --cookies-file {shown}: {e}")),
    }
}

/// The cookies (from the file when given, else the first line) and the CSRF token.
fn read_inputs(connect: &str, cookies_file: Option<String>) -> Result<(String, String), String> {
    let stdin = std::io::stdin();
    let interactive = stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    let mut next = |prompt: &str| -> Result<String, String> {
        if interactive {
            eprint!("{prompt}");
            let _ = std::io::stderr().flush();
        }
        loop {
            match lines.next() {
                Some(Ok(line)) if line.trim().is_empty() && !interactive => continue,
                Some(Ok(line)) => return Ok(line.trim().to_owned()),
                Some(Err(e)) => return Err(format!("could not read the input: {e}")),
                None => {
                    return Err(
                        "expected two lines on stdin: the Cookie header value, then the connect-csrf-token value".into()
                    );
                }
            }
        }
    };
    let typed = cookies_file.is_none();
    let cookie = match cookies_file {
        Some(text) => text,
        None => next(&format!(
            "In the browser, open {connect}/app/ signed in, open developer tools → Network, pick a request to /gc-api/.\nPaste its `Cookie` request header value: "
        ))?,
    };
    if typed && interactive && cookie.len() >= TERMINAL_LINE_LIMIT {
        eprintln!(
            "garmin-mcp: warning: the terminal may have cut this long value; if sign-in fails, pipe the two lines instead: `garmin-mcp login --manual --site … < values.txt`"
        );
    }
    let csrf = next("Paste its `connect-csrf-token` request header value: ")?;
    Ok((cookie, csrf))
}
