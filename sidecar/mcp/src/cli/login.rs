//! `garmin-mcp login --manual`: save a session copied from a browser that is signed in to Garmin
//! Connect, for machines without the desktop app. The values are validated with one cheap
//! authenticated call before anything is saved, and are never echoed back.
//!
//! Input: the `Cookie` request header of any request to `/gc-api/…`, then the value of its
//! `connect-csrf-token` header. On a terminal both are prompted for; otherwise they are read from
//! stdin, one per line.

use std::io::{BufRead, IsTerminal, Write};
use std::process::ExitCode;

use clap::Args;
use garmin::{Client, Error, Session, SessionStore, Site};

use super::output::fail;

/// Linux terminals cut a typed line at 4095 bytes; Garmin cookie headers can be longer.
const TERMINAL_LINE_LIMIT: usize = 4095;

/// Options of `login`.
#[derive(Debug, Args)]
pub struct LoginArgs {
    /// Paste cookies from a signed-in browser (the desktop app signs in on Garmin's own page instead).
    #[arg(long, required = true)]
    pub manual: bool,

    /// Which Garmin Connect the account lives on: `global` (connect.garmin.com) or `cn` (connect.garmin.cn).
    #[arg(long, value_name = "global|cn")]
    pub site: Site,

    /// User-Agent of the browser the cookies come from (Garmin may refuse a session used with another).
    #[arg(long, value_name = "UA", default_value = garmin::DEFAULT_USER_AGENT)]
    pub user_agent: String,
}

/// Runs `login --manual`.
pub async fn run(args: LoginArgs, store: &SessionStore) -> ExitCode {
    let origins = args.site.origins_from_env();
    let (cookie_header, csrf) = match read_inputs(&origins.connect) {
        Ok(values) => values,
        Err(message) => return fail(&Error::InvalidInput(message)),
    };
    let session =
        match Session::from_cookie_header(args.site, origins, &cookie_header, &csrf, &args.user_agent) {
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

fn read_inputs(connect: &str) -> Result<(String, String), String> {
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
    let cookie = next(&format!(
        "In the browser, open {connect}/app/ signed in, open developer tools → Network, pick a request to /gc-api/.\nPaste its `Cookie` request header value: "
    ))?;
    if interactive && cookie.len() >= TERMINAL_LINE_LIMIT {
        eprintln!(
            "garmin-mcp: warning: the terminal may have cut this long value; if sign-in fails, pipe the two lines instead: `garmin-mcp login --manual --site … < values.txt`"
        );
    }
    let csrf = next("Paste its `connect-csrf-token` request header value: ")?;
    Ok((cookie, csrf))
}
