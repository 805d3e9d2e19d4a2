//! The fake's "Personal API Key page" on the Connect host (`/app/settings/personalApiToken`,
//! docs/garmin-personal-api.md §1 `[S]`): signed in, the person picks how long the key lasts, accepts
//! the terms and presses *Create Key*; the page then shows the new key once (`[G]`: "displayed a
//! single time"). The key works at once against the fake's Personal API on the same listener.
//!
//! Garmin's real page is a part of the Connect single-page app whose requests are not recorded
//! anywhere we read (`[I]`); the fake plays it as a plain HTML form posting back to the same path,
//! guarded by the session cookies and the page's CSRF token like the rest of the Connect host.
//! Expiry choices are Garmin's: 30, 90, 180 days or a year (reference §1 `[S]`).

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

use crate::auth::{Cookies, now_ms};
use crate::personal::MintedKey;
use crate::server::{presented, set_cookie};
use crate::sso::{escape, sign_in_path};
use crate::state::{AppState, lock};

/// Where the key page lives on the Connect host (reference §1 `[S]`).
pub const KEY_PAGE_PATH: &str = "/app/settings/personalApiToken";
/// The lifetimes Garmin offers, in days (reference §1 `[S]`).
pub const KEY_DAYS: [u64; 4] = [30, 90, 180, 365];

/// The key page's HTML: the creation form, or the key just made (shown once), or a refusal.
pub fn page(csrf: &str, minted: Option<&MintedKey>, error: Option<&str>) -> String {
    let options: String = KEY_DAYS
        .iter()
        .map(|d| {
            let label = if *d == 365 { "1 year".to_owned() } else { format!("{d} days") };
            let selected = if *d == 90 { " selected" } else { "" };
            format!(r#"<option value="{d}"{selected}>{label}</option>"#)
        })
        .collect();
    let shown = match minted {
        Some(key) => format!(
            r#"<div role="status" data-testid="new-key">
<p>Your new Personal API key (copy it now: it is shown only once):</p>
<p><code id="personal-api-key" data-testid="personal-api-key">{key}</code></p>
<p>It expires on <span data-testid="key-expires-ms" data-ms="{ms}">{ms}</span> (milliseconds since 1970).</p>
</div>"#,
            key = escape(&key.key),
            ms = key.expires_at_ms,
        ),
        None => String::new(),
    };
    let error = error.map(|e| format!(r#"<p role="alert">{}</p>"#, escape(e))).unwrap_or_default();
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="csrf-token" content="{csrf}">
<title>Personal API Key (FAKE: fake-garmin)</title>
</head>
<body>
<h1>Personal API Key <small>(FAKE Garmin Connect)</small></h1>
{error}{shown}
<form method="post" action="{KEY_PAGE_PATH}">
<input type="hidden" name="csrf" value="{csrf}">
<label>Expiration <select name="days" id="key-days">{options}</select></label>
<label><input type="checkbox" name="accept" id="key-accept"> I accept the Personal API terms</label>
<button type="submit" id="create-key">Create Key</button>
</form>
</body>
</html>
"#,
        csrf = escape(csrf),
    )
}

/// `POST /app/settings/personalApiToken` (form `csrf`, `days`, `accept`): mints a key for a
/// signed-in browser and shows it once. Not signed in: off to the sign-in page, as for any
/// Connect page; a wrong CSRF token: 403; terms not accepted or another lifetime: 400 with the form.
pub async fn create(
    State(state): State<AppState>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let config = state.config();
    let cookies = Cookies::from_headers(&headers);
    let visit = lock(&state.inner.auth).visit_page(&presented(&cookies, &headers), config, now_ms());
    let Some(visit) = visit else {
        let mut res = StatusCode::FOUND.into_response();
        if let Ok(v) = HeaderValue::from_str(&sign_in_path(config.site, uri.path())) {
            res.headers_mut().insert(header::LOCATION, v);
        }
        return res;
    };
    let form: Vec<(String, String)> = url::form_urlencoded::parse(&body).into_owned().collect();
    let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim().to_owned());
    let days = field("days").and_then(|d| d.parse::<u64>().ok()).filter(|d| KEY_DAYS.contains(d));
    let (status, minted, error) = if field("csrf").as_deref() != Some(visit.csrf.as_str()) {
        (StatusCode::FORBIDDEN, None, Some("The page was out of date (CSRF token): reload it."))
    } else if field("accept").is_none() {
        (StatusCode::BAD_REQUEST, None, Some("Accept the Personal API terms to create a key."))
    } else if let Some(days) = days {
        let key = lock(&state.inner.personal).mint(Duration::from_secs(days * 24 * 3600));
        (StatusCode::OK, Some(key), None)
    } else {
        (StatusCode::BAD_REQUEST, None, Some("Choose 30, 90, 180 days or 1 year."))
    };
    let mut res = (status, Html(page(&visit.csrf, minted.as_ref(), error))).into_response();
    if let Some(jwt) = visit.new_jwt {
        let secure = lock(&state.inner.auth).browser_options().secure_attribute();
        set_cookie(res.headers_mut(), &format!("JWT_WEB={jwt}; Path=/; HttpOnly{secure}"));
    }
    res
}
