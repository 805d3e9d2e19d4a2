//! Renewing a Garmin web session: the calls, in order, and how their answers become a new session.
//!
//! 1. `POST {connect}/services/auth/token/di-oauth/refresh` — what the web app calls; answers
//!    200/201 with `encryptedToken` (the new `JWT_WEB`) and `csrfToken`.
//! 2. `POST {connect}/modern/di-oauth/refreshToken` — an older path, tried when 1 is missing.
//! 3. `GET {connect}/app/` with the stored cookies — the page renews cookies by `Set-Cookie` and
//!    carries the current CSRF token in a meta tag.
//!
//! The caller (see `client.rs`) holds the session lock while this runs and persists the result
//! before releasing it: the credential presented here is one-time. A response that lacks either
//! token never overwrites what we have. A transport failure stops at once: the server may already
//! have spent the credential, and presenting it again would look like a replay and end the session.

use chrono::Utc;
use reqwest::header::{ACCEPT, CONTENT_TYPE, COOKIE, HeaderMap, ORIGIN, REFERER, SET_COOKIE, USER_AGENT};
use serde::Deserialize;

use crate::session::{ACCESS_COOKIE, Session, StoredCookie};
use crate::{Error, Result, cookies, html};

const REFRESH_PATH: &str = "/services/auth/token/di-oauth/refresh";
const LEGACY_REFRESH_PATH: &str = "/modern/di-oauth/refreshToken";
const APP_PATH: &str = "/app/";

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RefreshAnswer {
    encrypted_token: Option<String>,
    csrf_token: Option<String>,
}

/// Renews `session` and returns the renewed copy (not yet saved).
pub(crate) async fn renew(http: &reqwest::Client, session: &Session) -> Result<Session> {
    let mut refused = Vec::new();
    for path in [REFRESH_PATH, LEGACY_REFRESH_PATH] {
        match token_refresh(http, session, path).await? {
            Ok(renewed) => return Ok(renewed),
            Err(why) => refused.push(why),
        }
    }
    match app_page_refresh(http, session).await? {
        Ok(renewed) => Ok(renewed),
        Err(why) => {
            refused.push(why);
            Err(Error::SessionExpired { site: session.site, detail: refused.join("; ") })
        }
    }
}

/// `Ok(Ok(session))` renewed, `Ok(Err(reason))` this path did not work, `Err` stop trying.
async fn token_refresh(
    http: &reqwest::Client,
    session: &Session,
    path: &str,
) -> Result<std::result::Result<Session, String>> {
    let url = format!("{}{path}", session.origins.connect);
    let request = http
        .post(&url)
        .headers(browser_headers(session, &url))
        .header(ACCEPT, "application/json")
        .header(CONTENT_TYPE, "application/json")
        .header("NK", "NT")
        .header("Connect-Csrf-Token", &session.csrf_token)
        .header("Sec-Fetch-Site", "same-origin")
        .body("{}");
    let response = request.send().await.map_err(|e| network("POST", path, &e))?;
    let status = response.status();
    let set_cookies = set_cookie_headers(response.headers());
    let body = response.bytes().await.map_err(|e| network("POST", path, &e))?;
    if !(status == 200 || status == 201) {
        return Ok(Err(format!("{path} answered HTTP {}", status.as_u16())));
    }
    let answer: Option<RefreshAnswer> = serde_json::from_slice(&body).ok();
    let (Some(token), Some(csrf)) = answer
        .map(|a| (a.encrypted_token.filter(|t| !t.is_empty()), a.csrf_token.filter(|t| !t.is_empty())))
        .unwrap_or((None, None))
    else {
        // Never overwrite stored tokens with an answer that lacks them.
        return Ok(Err(format!("{path} answered HTTP {} without new tokens", status.as_u16())));
    };
    let mut renewed = session.clone();
    apply_set_cookies(&mut renewed, &set_cookies);
    set_access_cookie(&mut renewed, token);
    renewed.csrf_token = csrf;
    Ok(Ok(stamp(renewed)))
}

async fn app_page_refresh(
    http: &reqwest::Client,
    session: &Session,
) -> Result<std::result::Result<Session, String>> {
    let url = format!("{}{APP_PATH}", session.origins.connect);
    let response = http
        .get(&url)
        .headers(browser_headers(session, &url))
        .header(ACCEPT, "text/html,application/xhtml+xml")
        .header("Sec-Fetch-Site", "none")
        .header("Sec-Fetch-Mode", "navigate")
        .send()
        .await
        .map_err(|e| network("GET", APP_PATH, &e))?;
    let status = response.status();
    let set_cookies = set_cookie_headers(response.headers());
    let body = response.text().await.map_err(|e| network("GET", APP_PATH, &e))?;
    if status.is_redirection() {
        return Ok(Err("the Connect app page redirected to sign-in".into()));
    }
    if !status.is_success() {
        return Ok(Err(format!("the Connect app page answered HTTP {}", status.as_u16())));
    }
    let page = html::parse_app_page(&body);
    let Some(csrf) = page.csrf_token else {
        return Ok(Err("the Connect app page carried no CSRF token (not signed in)".into()));
    };
    let mut renewed = session.clone();
    apply_set_cookies(&mut renewed, &set_cookies);
    renewed.csrf_token = csrf;
    if renewed.display_name.is_none() {
        renewed.display_name = page.display_name;
    }
    if renewed.profile_id.is_none() {
        renewed.profile_id = page.profile_id;
    }
    Ok(Ok(stamp(renewed)))
}

fn stamp(mut session: Session) -> Session {
    session.last_refresh_at = Some(Utc::now());
    session.refresh_count += 1;
    session
}

/// Headers a browser on the Connect site sends with everything: cookies, its User-Agent, origin.
pub(crate) fn browser_headers(session: &Session, url: &str) -> HeaderMap {
    let mut headers = HeaderMap::new();
    let host = url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_default();
    let connect_host = url::Url::parse(&session.origins.connect)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_default();
    let cookie = cookies::header_for(&session.cookies, &host, &connect_host);
    let pairs = [
        (COOKIE, cookie),
        (USER_AGENT, session.user_agent.clone()),
        (ORIGIN, session.origins.connect.clone()),
        (REFERER, format!("{}/app/home", session.origins.connect)),
    ];
    for (name, value) in pairs {
        // Values that are not valid header text (a corrupt paste) are left out; Garmin then says 403.
        if let Ok(value) = reqwest::header::HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
    headers
}

pub(crate) fn set_cookie_headers(headers: &HeaderMap) -> Vec<String> {
    headers.get_all(SET_COOKIE).iter().filter_map(|v| v.to_str().ok().map(str::to_owned)).collect()
}

/// Merges `Set-Cookie` values into the session jar. Returns true if anything changed.
pub(crate) fn apply_set_cookies(session: &mut Session, set_cookies: &[String]) -> bool {
    let now = Utc::now();
    let mut changed = false;
    for header in set_cookies {
        if let Some((cookie, removal)) = cookies::parse_set_cookie(header, now) {
            changed |= cookies::merge(&mut session.cookies, cookie, removal);
        }
    }
    changed
}

fn set_access_cookie(session: &mut Session, token: String) {
    if let Some(existing) = session.cookies.iter_mut().find(|c| c.name == ACCESS_COOKIE) {
        existing.value = token;
        existing.expires = None;
        return;
    }
    let domain = url::Url::parse(&session.origins.connect)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .and_then(|host| {
            ["garmin.com", "garmin.cn"].into_iter().find(|d| host.ends_with(d)).map(|d| format!(".{d}"))
        });
    session.cookies.push(StoredCookie {
        name: ACCESS_COOKIE.to_owned(),
        value: token,
        domain,
        path: Some("/".to_owned()),
        expires: None,
        secure: true,
        http_only: true,
    });
}

pub(crate) fn network(method: &str, path: &str, e: &reqwest::Error) -> Error {
    Error::Network {
        endpoint: format!("{method} {path}"),
        message: describe_transport_error(e),
        maybe_sent: !e.is_connect(),
    }
}

/// A transport error in words, without the URL (which can carry a displayName in its path).
pub(crate) fn describe_transport_error(e: &reqwest::Error) -> String {
    let what = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else if e.is_body() || e.is_decode() {
        "the answer was cut off"
    } else {
        "request failed"
    };
    let mut cause = String::new();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        cause = s.to_string();
        source = s.source();
    }
    if cause.is_empty() { what.to_owned() } else { format!("{what} ({cause})") }
}
