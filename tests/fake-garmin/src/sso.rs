//! The browser-facing pages: a clearly labelled FAKE Garmin SSO sign-in page (the app's login
//! window can be pointed at it) and the Connect SPA shell under `/app/`, which carries what a client
//! scrapes after sign-in — the `csrf-token` meta tag and `window.VIEWER_SOCIAL_PROFILE` (reference
//! §2.1–2.4) — and renews an expired `JWT_WEB` on load ("alternative A" of §2.7).

use axum::body::Bytes;
use axum::extract::{OriginalUri, Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

use crate::auth::{Cookies, IssuedSession, hex64, now_ms};
use crate::server::{header_text, presented, set_cookie};
use crate::state::{AppState, lock};
use crate::{FakeConfig, FakeSite};

/// Creates a session family as if `user_agent` had just signed in on the sign-in page.
pub fn issue_session(state: &AppState, user_agent: &str) -> IssuedSession {
    let config = state.config();
    let s = lock(&state.inner.auth).sign_in(config, user_agent, now_ms());
    IssuedSession {
        cookies: vec![
            ("session".to_owned(), s.session),
            ("SESSIONID".to_owned(), s.session_id),
            ("JWT_WEB".to_owned(), s.jwt),
            ("__cf_bm".to_owned(), hex64(fastrand::u64(..))),
        ],
        csrf_token: s.csrf,
        display_name: config.display_name.clone(),
        profile_id: config.profile_id,
        user_agent: user_agent.to_owned(),
    }
}

/// SSO locale of the site: `en-US` (global) or `zh-CN` (China).
pub fn locale(site: FakeSite) -> &'static str {
    match site {
        FakeSite::Global => "en-US",
        FakeSite::Cn => "zh-CN",
    }
}

/// Path and query of the sign-in page that returns to `service`.
pub fn sign_in_path(site: FakeSite, service: &str) -> String {
    let service: String = url::form_urlencoded::byte_serialize(service.as_bytes()).collect();
    format!("/portal/sso/{}/sign-in?clientId=GarminConnect&service={service}", locale(site))
}

/// The account's GUID: the same derivation as `socialProfile` in `routes/profile.rs` (a test in
/// `tests/core/pages.rs` checks that the two agree).
pub fn garmin_guid(config: &FakeConfig) -> String {
    crate::data::rng::Rng::derive(config.seed, 0x6017).uuid()
}

/// `GET /portal/sso/{locale}/sign-in`: the sign-in form.
pub async fn sign_in_page(
    State(state): State<AppState>,
    Path(page_locale): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    let service = query_param(query.as_deref(), "service");
    sign_in_html(state.config().site, &page_locale, query.as_deref(), service.as_deref(), None)
        .into_response()
}

/// `POST /portal/sso/{locale}/sign-in`: any non-empty username and password sign in, except the
/// password `wrong`; success sets the Connect and SSO cookies and redirects to `service`.
pub async fn sign_in_submit(
    State(state): State<AppState>,
    Path(page_locale): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let form: Vec<(String, String)> = url::form_urlencoded::parse(&body).into_owned().collect();
    let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim().to_owned());
    let (username, password) = (field("username").unwrap_or_default(), field("password").unwrap_or_default());
    let service = query_param(query.as_deref(), "service").or_else(|| field("service"));
    let site = state.config().site;
    let error = if username.is_empty() || password.is_empty() {
        Some((StatusCode::BAD_REQUEST, "Enter your email and password."))
    } else if password == "wrong" {
        Some((StatusCode::UNAUTHORIZED, "Invalid sign in. (This fake refuses the password \"wrong\".)"))
    } else {
        None
    };
    if let Some((status, message)) = error {
        let page = sign_in_html(site, &page_locale, query.as_deref(), service.as_deref(), Some(message));
        return (status, page).into_response();
    }

    let issued = issue_session(&state, header_text(&headers, "user-agent").unwrap_or(""));
    let location = service.filter(|s| safe_location(s)).unwrap_or_else(|| "/app/".to_owned());
    let mut res = StatusCode::FOUND.into_response();
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&location) {
        h.insert(header::LOCATION, v);
    }
    let max_age = state.config().session_lifetime.as_secs();
    for (name, value) in issued.cookies.iter().filter(|(n, _)| n != "__cf_bm") {
        let keep = if name == "session" { format!("; Max-Age={max_age}") } else { String::new() };
        set_cookie(h, &format!("{name}={value}; Path=/{keep}; HttpOnly; Secure; SameSite=Lax"));
    }
    // SSO-host markers; on the real service they live on sso.garmin.* and .garmin.*.
    set_cookie(h, "GARMIN-SSO=1; Path=/; Secure");
    set_cookie(h, &format!("GARMIN-SSO-CUST-GUID={}; Path=/; Secure", garmin_guid(state.config())));
    set_cookie(h, &format!("CASTGC=TGT-fake-{}; Path=/; HttpOnly; Secure", hex64(fastrand::u64(..))));
    res
}

/// `GET /app/…` and `/modern/`: the SPA shell for a live session, else a redirect to sign-in.
pub async fn app_page(
    State(state): State<AppState>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
) -> Response {
    let config = state.config();
    let cookies = Cookies::from_headers(&headers);
    let visit = lock(&state.inner.auth).visit_page(&presented(&cookies, &headers), config, now_ms());
    let Some(visit) = visit else {
        let service = match header_text(&headers, "host") {
            Some(host) => format!("http://{host}{}", uri.path()),
            None => uri.path().to_owned(),
        };
        let mut res = StatusCode::FOUND.into_response();
        if let Ok(v) = HeaderValue::from_str(&sign_in_path(config.site, &service)) {
            res.headers_mut().insert(header::LOCATION, v);
        }
        return res;
    };
    let profile = serde_json::json!({
        "displayName": config.display_name,
        "profileId": config.profile_id,
        "garminGUID": garmin_guid(config),
        "fullName": config.full_name,
        "userName": config.display_name,
    });
    let page = format!(
        r#"<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="csrf-token" content="{csrf}">
<title>Garmin Connect (FAKE: fake-garmin)</title>
<script>
window.VIEWER_SOCIAL_PROFILE = {profile};
window.VIEWER_USERPREFERENCES = {{"userData":{{"measurementSystem":"metric"}}}};
window.URL_BUST_VALUE = "fake-garmin-1";
window.USE_DI_SESSION = true;
</script>
</head>
<body>
<p><strong>FAKE Garmin Connect</strong> (fake-garmin test server): signed in as {name}.</p>
</body>
</html>
"#,
        lang = locale(config.site),
        csrf = escape(&visit.csrf),
        profile = profile.to_string().replace("</", "<\\/"),
        name = escape(&config.full_name),
    );
    let mut res = Html(page).into_response();
    if let Some(jwt) = visit.new_jwt {
        set_cookie(res.headers_mut(), &format!("JWT_WEB={jwt}; Path=/; HttpOnly; Secure"));
    }
    res
}

fn sign_in_html(
    site: FakeSite,
    page_locale: &str,
    query: Option<&str>,
    service: Option<&str>,
    error: Option<&str>,
) -> Html<String> {
    let (title, user_label, user_hint, pass_label, button) = match site {
        FakeSite::Global => ("Sign In", "Email", "email@example.com", "Password", "Sign In"),
        FakeSite::Cn => ("登录", "电子邮件或手机号", "+86 手机号或电子邮件", "密码", "登录"),
    };
    let action = match query {
        Some(q) => format!("/portal/sso/{page_locale}/sign-in?{q}"),
        None => format!("/portal/sso/{page_locale}/sign-in"),
    };
    let error =
        error.map_or_else(String::new, |e| format!(r#"<p class="error" role="alert">{}</p>"#, escape(e)));
    Html(format!(
        r#"<!DOCTYPE html>
<html lang="{lang}">
<head><meta charset="utf-8"><title>{title} | Garmin (FAKE sign-in: fake-garmin demo)</title></head>
<body>
<p class="fake-banner"><strong>FAKE Garmin sign-in.</strong> This is fake-garmin, a test and demo
server: any username and password work (the password "wrong" is refused). Never enter real credentials.</p>
<h1>{title}</h1>
{error}
<form id="login-form" method="post" action="{action}">
<label for="username">{user_label}</label>
<input id="username" name="username" type="text" autocomplete="username" placeholder="{user_hint}">
<label for="password">{pass_label}</label>
<input id="password" name="password" type="password" autocomplete="current-password">
<input type="hidden" name="service" value="{service}">
<button id="login-btn-signin" type="submit">{button}</button>
</form>
</body>
</html>
"#,
        lang = escape(page_locale),
        action = escape(&action),
        service = escape(service.unwrap_or("")),
    ))
}

/// Only paths on this origin or http(s) URLs may be redirected to.
fn safe_location(s: &str) -> bool {
    (s.starts_with('/') && !s.starts_with("//")) || s.starts_with("http://") || s.starts_with("https://")
}

fn query_param(query: Option<&str>, name: &str) -> Option<String> {
    url::form_urlencoded::parse(query?.as_bytes())
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
        .filter(|v| !v.is_empty())
}

/// Minimal HTML escaping for text and attribute values.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}
