//! Renewing a Garmin web session: the calls, in order, and how their answers become a new session.
//!
//! 1. `POST {connect}/services/auth/token/di-oauth/refresh` — what the web app calls; answers
//!    200/201 with `encryptedToken` (the new `JWT_WEB`) and `csrfToken`, or (docs/garmin-web-api.md
//!    §0 `[1]`) a 2xx whose new `JWT_WEB` comes only in `Set-Cookie`, with an empty or token-less
//!    body: that is absorbed too (the CSRF token then stays what it was).
//! 2. `GET {connect}/app/` with the stored cookies — the page renews cookies by `Set-Cookie` and
//!    carries the current CSRF token in a meta tag. It presents no refresh credential.
//! 3. Garmin's SSO with its `CASTGC` cookie (python-garminconnect's last fallback): the sign-in
//!    page answers a browser that still holds a live ticket-granting cookie with a redirect back to
//!    Connect carrying a one-time ticket, which Connect turns into fresh session cookies. Also
//!    presents no refresh credential; only after it fails is the person asked to sign in.
//!
//! There is no other refresh path: no public client uses `/modern/di-oauth/refreshToken`, and
//! presenting a credential a second time, anywhere, is the replay that ends the session.
//!
//! The caller (see `client.rs`) holds the session lock while this runs and persists the result
//! before releasing it: the credential presented in step 1 is one-time. An answer without a new
//! `JWT_WEB` (in the body or a cookie) never overwrites what we have. A transport failure stops at
//! once: the server may already have spent the credential, and presenting it again would look like
//! a replay and end the session.

use chrono::Utc;
use reqwest::header::{
    ACCEPT, CONTENT_TYPE, COOKIE, HeaderMap, LOCATION, ORIGIN, REFERER, SET_COOKIE, USER_AGENT,
};
use serde::Deserialize;

use crate::error::network;
use crate::session::{ACCESS_COOKIE, Session, StoredCookie};
use crate::{Error, Result, cookies, html};

const REFRESH_PATH: &str = "/services/auth/token/di-oauth/refresh";
const APP_PATH: &str = "/app/";
/// The SSO's ticket-granting cookie, which lets the sign-in page sign a browser in silently.
const SSO_TICKET_COOKIE: &str = "CASTGC";
/// Most redirects followed through a silent SSO sign-in (SSO → Connect with ticket → page).
const MAX_SSO_HOPS: usize = 6;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RefreshAnswer {
    encrypted_token: Option<String>,
    csrf_token: Option<String>,
}

/// How a renewal went, and whether its one-time credential may be gone without a replacement.
pub(crate) struct Renewed {
    /// The renewed session (not yet saved), or why no path worked.
    pub result: Result<Session>,
    /// Garmin may have taken the credential without us getting the new one (the answer was lost,
    /// or a 2xx came without a new `JWT_WEB`): never present it again.
    pub credential_maybe_spent: bool,
}

/// Renews `session`: the refresh call, then the paths that present no refresh credential.
pub(crate) async fn renew(http: &reqwest::Client, session: &Session) -> Renewed {
    let (why, credential_maybe_spent) = match token_refresh(http, session).await {
        Ok(Ok(renewed)) => return Renewed { result: Ok(renewed), credential_maybe_spent: false },
        Ok(Err(refused)) => refused,
        Err(e) => return Renewed { result: Err(e), credential_maybe_spent: true },
    };
    Renewed { result: recover_without_refresh(http, session, vec![why]).await, credential_maybe_spent }
}

/// The renewal paths that present no refresh credential: the Connect app page, then the SSO's
/// silent sign-in. `refused` holds what was already tried; all of it ends up in the error.
pub(crate) async fn recover_without_refresh(
    http: &reqwest::Client,
    session: &Session,
    mut refused: Vec<String>,
) -> Result<Session> {
    match app_page_refresh(http, session).await? {
        Ok(renewed) => return Ok(renewed),
        Err(why) => refused.push(why),
    }
    match sso_silent_sign_in(http, session).await? {
        Ok(renewed) => Ok(renewed),
        Err(why) => {
            refused.push(why);
            Err(Error::SessionExpired { site: session.site, detail: refused.join("; ") })
        }
    }
}

/// `Ok(Ok(session))` renewed, `Ok(Err((reason, maybe_spent)))` this path did not work (and
/// whether Garmin may have taken the credential anyway), `Err` stop trying.
async fn token_refresh(
    http: &reqwest::Client,
    session: &Session,
) -> Result<std::result::Result<Session, (String, bool)>> {
    let path = REFRESH_PATH;
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
    let body = crate::answer_cap::read(response, crate::answer_cap::MAX_PAGE_BYTES, "POST", path).await?;
    if !status.is_success() {
        // Refused: Garmin rotated nothing.
        return Ok(Err((format!("{path} answered HTTP {}", status.as_u16()), false)));
    }
    let answer: Option<RefreshAnswer> = serde_json::from_slice(&body).ok();
    let (body_token, csrf) = answer
        .map(|a| (a.encrypted_token.filter(|t| !t.is_empty()), a.csrf_token.filter(|t| !t.is_empty())))
        .unwrap_or((None, None));
    // The body's token, else the one in `Set-Cookie` (a cookie-only answer, §0 `[1]`).
    let current = session.cookie(ACCESS_COOKIE).unwrap_or_default();
    let Some(token) = body_token.or_else(|| access_from_set_cookies(&set_cookies)).filter(|t| t != current)
    else {
        // Never overwrite stored tokens with an answer that lacks a new one; Garmin may have
        // taken the credential all the same.
        return Ok(Err((
            format!(
                "{path} answered HTTP {} without a new JWT_WEB (neither in the body nor in Set-Cookie)",
                status.as_u16()
            ),
            true,
        )));
    };
    let mut renewed = session.clone();
    let others: Vec<String> = set_cookies.into_iter().filter(|h| cookie_name(h) != ACCESS_COOKIE).collect();
    apply_set_cookies(&mut renewed, &others);
    set_access_cookie(&mut renewed, token);
    if let Some(csrf) = csrf {
        renewed.csrf_token = csrf;
    }
    Ok(Ok(stamp(renewed)))
}

/// The name of a `Set-Cookie` header's cookie.
fn cookie_name(set_cookie: &str) -> &str {
    set_cookie.split('=').next().unwrap_or_default().trim()
}

/// The new `JWT_WEB` a `Set-Cookie` hands over (not a deletion, not empty).
fn access_from_set_cookies(set_cookies: &[String]) -> Option<String> {
    let now = Utc::now();
    set_cookies
        .iter()
        .filter_map(|h| cookies::parse_set_cookie(h, now))
        .filter(|(c, removal)| c.name == ACCESS_COOKIE && !removal && !c.value.is_empty())
        .map(|(c, _)| c.value)
        .next_back()
}

/// Signs in again without the person, through Garmin's SSO and its `CASTGC` cookie: the site's
/// sign-in page, which redirects a browser with a live ticket-granting cookie back to Connect
/// with a one-time ticket; Connect answers with new session cookies, then its app page gives the
/// CSRF token. `Ok(Err(reason))` when the SSO asks for the password (or there is no `CASTGC`).
async fn sso_silent_sign_in(
    http: &reqwest::Client,
    session: &Session,
) -> Result<std::result::Result<Session, String>> {
    if session.cookie(SSO_TICKET_COOKIE).is_none_or(str::is_empty) {
        return Ok(Err("no SSO sign-in cookie (CASTGC) to sign in again silently".into()));
    }
    let mut renewed = session.clone();
    let mut url = session.site.sign_in_url(&session.origins);
    let connect = session.origins.connect.to_ascii_lowercase();
    let sso = session.origins.sso.to_ascii_lowercase();
    for _ in 0..MAX_SSO_HOPS {
        let Ok(parsed) = url::Url::parse(&url) else {
            return Ok(Err("the SSO sign-in led to an unreadable address".into()));
        };
        let origin = parsed.origin().ascii_serialization().to_ascii_lowercase();
        if origin != connect && origin != sso {
            return Ok(Err(format!(
                "the SSO sign-in led away from Garmin ({})",
                crate::site::host_of(&origin)
            )));
        }
        let response = http
            .get(parsed.as_str())
            .headers(browser_headers(&renewed, parsed.as_str()))
            .header(ACCEPT, "text/html,application/xhtml+xml")
            .header("Sec-Fetch-Site", "same-site")
            .header("Sec-Fetch-Mode", "navigate")
            .send()
            .await
            .map_err(|e| network("GET", parsed.path(), &e))?;
        let status = response.status();
        let set_cookies = set_cookie_headers(response.headers());
        let location = response.headers().get(LOCATION).and_then(|v| v.to_str().ok()).map(str::to_owned);
        let body =
            crate::answer_cap::read_text(response, crate::answer_cap::MAX_PAGE_BYTES, "GET", parsed.path())
                .await?;
        apply_set_cookies_from(&mut renewed, &set_cookies, parsed.host_str().unwrap_or_default());
        if status.is_redirection() {
            let Some(next) = location.and_then(|l| parsed.join(&l).ok()) else {
                return Ok(Err("the SSO sign-in redirected nowhere".into()));
            };
            url = next.to_string();
            continue;
        }
        if !status.is_success() {
            return Ok(Err(format!("the SSO sign-in answered HTTP {}", status.as_u16())));
        }
        if origin != connect {
            return Ok(Err(
                "Garmin's sign-in page asked for the password (no silent sign-in possible)".into()
            ));
        }
        let page = html::parse_app_page(&body);
        let Some(csrf) = page.csrf_token else {
            return Ok(Err("the Connect page after the SSO sign-in carried no CSRF token".into()));
        };
        renewed.csrf_token = csrf;
        renewed.display_name = renewed.display_name.or(page.display_name);
        renewed.profile_id = renewed.profile_id.or(page.profile_id);
        tracing::info!("signed in again silently through Garmin's SSO");
        return Ok(Ok(stamp(renewed)));
    }
    Ok(Err("the SSO sign-in redirected too many times".into()))
}

/// `GET {connect}/app/`: new cookies by `Set-Cookie` and the current CSRF token; presents no
/// refresh credential (also used to re-read the CSRF token after a bare 403 from Garmin).
pub(crate) async fn app_page_refresh(
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
    let body =
        crate::answer_cap::read_text(response, crate::answer_cap::MAX_PAGE_BYTES, "GET", APP_PATH).await?;
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

/// Marks a renewed session: when, how many renewals, and no renewal in flight any more.
fn stamp(mut session: Session) -> Session {
    session.last_refresh_at = Some(Utc::now());
    session.refresh_count += 1;
    session.renewal_in_flight = None;
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

/// [`apply_set_cookies`] for an answer from `host`: a host-only cookie of another host than the
/// Connect host (the SSO's) is kept for that host, not mistaken for a Connect one.
fn apply_set_cookies_from(session: &mut Session, set_cookies: &[String], host: &str) {
    let connect_host = crate::site::host_of(&session.origins.connect);
    let connect_host = connect_host.split(':').next().unwrap_or_default();
    let now = Utc::now();
    for header in set_cookies {
        if let Some((mut cookie, removal)) = cookies::parse_set_cookie(header, now) {
            if cookie.domain.is_none() && !host.eq_ignore_ascii_case(connect_host) {
                cookie.domain = Some(host.to_ascii_lowercase());
            }
            cookies::merge(&mut session.cookies, cookie, removal);
        }
    }
}

/// Puts the new `JWT_WEB` in the jar: one entry, wherever the old one was (never a second copy,
/// which Garmin would see as two different values).
fn set_access_cookie(session: &mut Session, token: String) {
    let mut seen = false;
    session.cookies.retain(|c| {
        let duplicate = c.name == ACCESS_COOKIE && seen;
        seen |= c.name == ACCESS_COOKIE;
        !duplicate
    });
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
