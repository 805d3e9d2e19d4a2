//! `garmin-mcp status`: proves the saved session works with one cheap authenticated call (renewing
//! it when needed, like any call) and says whose it is and which Connect front end serves it, or
//! names the problem and its fix — for a 403, which kind (Cloudflare's edge, refused for the
//! account, a missing feature), since none of them is a reason to sign in again. A saved Personal
//! API key is checked too (one read through it): whether it works, when it expires (a warning 14
//! days ahead) and which tools it serves; China accounts are told it is not offered there.

use std::process::ExitCode;

use chrono::{DateTime, Utc};
use clap::Args;
use garmin::{Client, Error, PersonalApiKey, PersonalClient, SessionStore};
use serde::Serialize;

/// Options of `status`.
#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Print one JSON object instead of sentences.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Healthy {
    ok: bool,
    site: garmin::Site,
    connect_url: String,
    front_end: String,
    display_name: String,
    full_name: Option<String>,
    profile_id: Option<u64>,
    captured_at: DateTime<Utc>,
    session_age_secs: i64,
    last_refresh_at: Option<DateTime<Utc>>,
    refresh_count: u64,
    access_expires_at: Option<DateTime<Utc>>,
    /// When the sign-in is expected to end (the `session` cookie's expiry, else an estimate).
    sign_in_expires_at: DateTime<Utc>,
    /// True when Garmin stated `sign_in_expires_at`.
    sign_in_expiry_stated: bool,
    session_file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    personal_api: Option<PersonalStatus>,
}

#[derive(Serialize)]
struct Unhealthy<'a> {
    ok: bool,
    error: Problem<'a>,
    session_file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    personal_api: Option<PersonalStatus>,
}

/// The Personal API key's state.
#[derive(Serialize)]
struct PersonalStatus {
    ok: bool,
    origin: String,
    key_expires_at: Option<DateTime<Utc>>,
    days_left: Option<i64>,
    /// Set within 14 days of the expiry (or after it).
    warning: Option<String>,
    token_expires_at: Option<DateTime<Utc>>,
    exchanges: u64,
    /// Why the key did not work.
    error: Option<String>,
    /// The tools it serves.
    serves: Vec<&'static str>,
}

/// Checks the saved key with one read; `None` without a key.
async fn check_personal(store: &SessionStore) -> Option<PersonalStatus> {
    let key = store.load_personal().ok().flatten()?;
    let client = match PersonalClient::from_store(store.clone()) {
        Ok(Some(client)) => client,
        Ok(None) => return Some(unusable_key(&key, format!("{}.", garmin::personal::CHINA_NOT_OFFERED))),
        Err(e) => return Some(unusable_key(&key, e.to_string())),
    };
    let checked = client.daily_summary(Utc::now().date_naive()).await;
    let key = client.key().ok().flatten().unwrap_or(key);
    let now = Utc::now();
    Some(PersonalStatus {
        ok: checked.is_ok(),
        origin: client.origin().to_owned(),
        key_expires_at: key.key_expires_at,
        days_left: key.days_left(now),
        warning: key.expiry_warning(now),
        token_expires_at: key.token_expires_at,
        exchanges: key.exchanges,
        error: checked.err().map(|e| e.to_string()),
        serves: crate::sources::PERSONAL_API_TOOLS.to_vec(),
    })
}

/// The status of a saved key that no client can be made with: not working, and why.
fn unusable_key(key: &PersonalApiKey, error: String) -> PersonalStatus {
    PersonalStatus {
        ok: false,
        origin: garmin::personal::origin_from_env(),
        key_expires_at: key.key_expires_at,
        days_left: None,
        warning: None,
        token_expires_at: None,
        exchanges: key.exchanges,
        error: Some(error),
        serves: Vec::new(),
    }
}

fn print_personal(p: &PersonalStatus) {
    if p.ok {
        let expiry = match (p.key_expires_at, p.days_left) {
            (Some(at), Some(days)) => format!("expires on {} (in {days} days)", at.format("%Y-%m-%d")),
            _ => "expiry not known (add it with `login --api-key --key-expires …`)".to_owned(),
        };
        println!("Garmin Personal API key: works; {expiry}.");
        println!("Served through the Personal API first: {}.", p.serves.join(", "));
    } else {
        println!("Garmin Personal API key: not working: {}", p.error.as_deref().unwrap_or("unknown problem"));
    }
    if let Some(warning) = &p.warning {
        println!("{warning}");
    }
}

#[derive(Serialize)]
struct Problem<'a> {
    kind: garmin::ErrorKind,
    /// For a 403 that is not about the session: which kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    forbidden: Option<garmin::ForbiddenKind>,
    message: &'a str,
}

/// Runs `status`.
pub async fn run(args: StatusArgs, store: &SessionStore) -> ExitCode {
    let personal = check_personal(store).await;
    match check(store).await {
        Ok(mut healthy) => {
            if args.json {
                healthy.personal_api = personal;
                print_json(&healthy);
            } else {
                print_sentences(&healthy);
                if let Some(p) = &personal {
                    print_personal(p);
                    println!(
                        "Served by the web session: every other tool, and the ones above when the Personal API fails for a reason other than a refused key."
                    );
                }
            }
            ExitCode::SUCCESS
        }
        // Only a key: it is the status.
        Err(Error::NotSignedIn { .. }) if personal.as_ref().is_some_and(|p| p.ok) && !args.json => {
            if let Some(p) = &personal {
                print_personal(p);
            }
            println!(
                "Not signed in to the Garmin Connect web: the other tools (training status, records, gear, devices, workouts, calendar, writes) need the desktop app's sign-in or `garmin-mcp login --manual`."
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            let key_works = personal.as_ref().is_some_and(|p| p.ok);
            if args.json {
                let message = error.to_string();
                print_json(&Unhealthy {
                    ok: false,
                    error: Problem {
                        kind: error.kind(),
                        forbidden: error.forbidden_kind(),
                        message: &message,
                    },
                    session_file: store.path().display().to_string(),
                    personal_api: personal,
                });
                if key_works && matches!(error, Error::NotSignedIn { .. }) {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::FAILURE
                }
            } else {
                if let Some(p) = &personal {
                    print_personal(p);
                }
                if let Some(kind) = error.forbidden_kind() {
                    eprintln!(
                        "garmin-mcp: Garmin answered HTTP 403: {} (not a session problem).",
                        kind.label()
                    );
                }
                super::output::fail(&error)
            }
        }
    }
}

async fn check(store: &SessionStore) -> Result<Healthy, Error> {
    let client = Client::from_store(store.clone())?;
    let account = client.verify().await?;
    let info = client.info();
    Ok(Healthy {
        ok: true,
        site: info.site,
        connect_url: info.connect_url,
        front_end: info.front_end,
        display_name: account.display_name,
        full_name: account.full_name,
        profile_id: account.profile_id,
        captured_at: info.captured_at,
        session_age_secs: (Utc::now() - info.captured_at).num_seconds(),
        last_refresh_at: info.last_refresh_at,
        refresh_count: info.refresh_count,
        access_expires_at: info.access_expires_at,
        sign_in_expires_at: info.sign_in_expires_at,
        sign_in_expiry_stated: info.sign_in_expiry_stated,
        session_file: store.path().display().to_string(),
        personal_api: None,
    })
}

fn print_json<T: Serialize>(value: &T) {
    match serde_json::to_string_pretty(value) {
        Ok(text) => println!("{text}"),
        Err(e) => eprintln!("garmin-mcp: could not encode the status: {e}"),
    }
}

fn print_sentences(h: &Healthy) {
    let name = h.full_name.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
    println!("Signed in as {}{name} on {}.", h.display_name, h.site.label());
    println!("Connect front end in use: {}.", h.front_end);
    println!(
        "Session captured {} ago; {}.",
        human_age(h.session_age_secs),
        match h.last_refresh_at {
            Some(at) => format!(
                "last renewed {} ago ({} renewals)",
                human_age((Utc::now() - at).num_seconds()),
                h.refresh_count
            ),
            None => "not renewed yet".to_owned(),
        }
    );
    println!(
        "The sign-in {} {} (renewal is automatic until then).",
        if h.sign_in_expiry_stated { "ends on" } else { "is expected to last until about" },
        h.sign_in_expires_at.format("%Y-%m-%d")
    );
    println!("Session file: {}", h.session_file);
}

fn human_age(secs: i64) -> String {
    let secs = secs.max(0);
    match secs {
        0..=119 => format!("{secs} s"),
        120..=7199 => format!("{} min", secs / 60),
        7200..=172_799 => format!("{} h", secs / 3600),
        _ => format!("{} days", secs / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::human_age;

    #[test]
    fn ages_read_naturally() {
        assert_eq!(human_age(5), "5 s");
        assert_eq!(human_age(600), "10 min");
        assert_eq!(human_age(3 * 3600), "3 h");
        assert_eq!(human_age(9 * 86_400), "9 days");
    }
}
