//! `garmin-mcp status`: proves the saved session works with one cheap authenticated call (renewing
//! it when needed, like any call) and says whose it is and which Connect front end serves it, or
//! names the problem and its fix — for a 403, which kind (Cloudflare's edge, refused for the
//! account, a missing feature), since none of them is a reason to sign in again.

use std::process::ExitCode;

use chrono::{DateTime, Utc};
use clap::Args;
use garmin::{Client, Error, SessionStore};
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
}

#[derive(Serialize)]
struct Unhealthy<'a> {
    ok: bool,
    error: Problem<'a>,
    session_file: String,
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
    match check(store).await {
        Ok(healthy) => {
            if args.json {
                print_json(&healthy);
            } else {
                print_sentences(&healthy);
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
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
                });
                ExitCode::FAILURE
            } else {
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
