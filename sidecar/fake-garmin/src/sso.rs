//! The browser-facing pages: a clearly labelled FAKE Garmin SSO sign-in page (the app's login
//! window can be pointed at it) and the Connect SPA shell under `/app/`, which carries what a client
//! scrapes after sign-in — the `csrf-token` meta tag and `window.VIEWER_SOCIAL_PROFILE` (reference
//! §2.1–2.4) — and renews an expired `JWT_WEB` on load ("alternative A" of §2.7).
//!
//! [`BrowserOptions`](crate::BrowserOptions) adapt both to an app's webview: cookies without `Secure`
//! over plain http, and a sign-in form that fills in demo credentials and submits itself.

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
    let mut cookies = connect_cookies(s.session, s.session_id, s.jwt);
    cookies.push(("__cf_bm".to_owned(), hex64(fastrand::u64(..))));
    IssuedSession {
        cookies,
        csrf_token: s.csrf,
        display_name: config.display_name.clone(),
        profile_id: config.profile_id,
        user_agent: user_agent.to_owned(),
    }
}

/// The Connect-host cookies a sign-in sets: `session` (when the sign-in hands one out),
/// `SESSIONID`, `JWT_WEB`.
fn connect_cookies(session: Option<String>, session_id: String, jwt: String) -> Vec<(String, String)> {
    let mut cookies: Vec<(String, String)> = session.map(|s| ("session".to_owned(), s)).into_iter().collect();
    cookies.push(("SESSIONID".to_owned(), session_id));
    cookies.push(("JWT_WEB".to_owned(), jwt));
    cookies
}

/// `Set-Cookie`s for the Connect-host cookies of a sign-in (`session` kept for the session lifetime).
fn set_connect_cookies(h: &mut HeaderMap, cookies: &[(String, String)], max_age: u64, secure: &str) {
    for (name, value) in cookies {
        let keep = if name == "session" { format!("; Max-Age={max_age}") } else { String::new() };
        set_cookie(h, &format!("{name}={value}; Path=/{keep}; HttpOnly{secure}; SameSite=Lax"));
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

/// `GET /portal/sso/{locale}/sign-in`: the sign-in form; a browser that still holds a live
/// `CASTGC` is sent straight back to `service` with a one-time `ticket=ST-…`, the CAS single
/// sign-on that python-garminconnect's silent re-sign-in relies on (docs/garmin-web-api.md §2.7 B).
pub async fn sign_in_page(
    State(state): State<AppState>,
    Path(page_locale): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Response {
    let service = query_param(query.as_deref(), "service");
    if let Some(service) = service.as_deref().filter(|s| safe_location(s)) {
        let castgc = Cookies::from_headers(&headers).get("CASTGC").map(str::to_owned);
        if let Some(ticket) = lock(&state.inner.auth).service_ticket(castgc.as_deref()) {
            let joiner = if service.contains('?') { '&' } else { '?' };
            let mut res = StatusCode::FOUND.into_response();
            if let Ok(v) = HeaderValue::from_str(&format!("{service}{joiner}ticket={ticket}")) {
                res.headers_mut().insert(header::LOCATION, v);
            }
            return res;
        }
    }
    let auto_sign_in = lock(&state.inner.auth).browser_options().auto_sign_in;
    let form = SignInForm { site: state.config().site, page_locale: &page_locale, query: query.as_deref() };
    form.html(service.as_deref(), None, auto_sign_in).into_response()
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
        let form = SignInForm { site, page_locale: &page_locale, query: query.as_deref() };
        // Never resubmit on its own after an error: that would loop.
        return (status, form.html(service.as_deref(), Some(message), false)).into_response();
    }
    let secure = lock(&state.inner.auth).browser_options().secure_attribute();

    let issued = issue_session(&state, header_text(&headers, "user-agent").unwrap_or(""));
    let location = service.filter(|s| safe_location(s)).unwrap_or_else(|| "/app/".to_owned());
    let mut res = StatusCode::FOUND.into_response();
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&location) {
        h.insert(header::LOCATION, v);
    }
    let max_age = state.config().session_lifetime.as_secs();
    let connect: Vec<(String, String)> = issued.cookies.into_iter().filter(|(n, _)| n != "__cf_bm").collect();
    set_connect_cookies(h, &connect, max_age, secure);
    // SSO-host markers; on the real service they live on sso.garmin.* and .garmin.*.
    set_cookie(h, &format!("GARMIN-SSO=1; Path=/{secure}"));
    set_cookie(h, &format!("GARMIN-SSO-CUST-GUID={}; Path=/{secure}", garmin_guid(state.config())));
    let tgt = lock(&state.inner.auth).issue_tgt(header_text(&headers, "user-agent").unwrap_or(""));
    set_cookie(h, &format!("CASTGC={tgt}; Path=/; HttpOnly{secure}"));
    res
}

/// `GET /app/…` and `/modern/`: the SPA shell for a live session, else a redirect to sign-in.
/// With `?ticket=ST-…` from the SSO it first spends the ticket: a new session's cookies and a
/// redirect to the same page without the ticket, as a CAS service does.
pub async fn app_page(
    State(state): State<AppState>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
) -> Response {
    let config = state.config();
    if let Some(ticket) = query_param(uri.query(), "ticket") {
        let user_agent = header_text(&headers, "user-agent").unwrap_or("");
        let (signed_in, secure) = {
            let mut auth = lock(&state.inner.auth);
            (
                auth.redeem_ticket(&ticket, config, user_agent, now_ms()),
                auth.browser_options().secure_attribute(),
            )
        };
        let mut res = StatusCode::FOUND.into_response();
        if let Ok(v) = HeaderValue::from_str(uri.path()) {
            res.headers_mut().insert(header::LOCATION, v);
        }
        if let Some(s) = signed_in {
            let cookies = connect_cookies(s.session, s.session_id, s.jwt);
            set_connect_cookies(res.headers_mut(), &cookies, config.session_lifetime.as_secs(), secure);
        }
        return res;
    }
    let cookies = Cookies::from_headers(&headers);
    let (visit, secure) = {
        let mut auth = lock(&state.inner.auth);
        let visit = auth.visit_page(&presented(&cookies, &headers), config, now_ms());
        (visit, auth.browser_options().secure_attribute())
    };
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
    if uri.path() == crate::key_page::KEY_PAGE_PATH {
        let mut res = Html(crate::key_page::page(&visit.csrf, None, None)).into_response();
        if let Some(jwt) = visit.new_jwt {
            set_cookie(res.headers_mut(), &format!("JWT_WEB={jwt}; Path=/; HttpOnly{secure}"));
        }
        return res;
    }
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
        set_cookie(res.headers_mut(), &format!("JWT_WEB={jwt}; Path=/; HttpOnly{secure}"));
    }
    res
}

/// The sign-in form of one site and locale, posting back to the same URL.
struct SignInForm<'a> {
    site: FakeSite,
    page_locale: &'a str,
    query: Option<&'a str>,
}

impl SignInForm<'_> {
    /// The page; with `auto_sign_in` it arrives filled in with demo credentials and submits itself.
    fn html(&self, service: Option<&str>, error: Option<&str>, auto_sign_in: bool) -> Html<String> {
        let (title, user_label, user_hint, pass_label, button, demo_user, auto_note) = match self.site {
            FakeSite::Global => (
                "Sign In",
                "Email",
                "email@example.com",
                "Password",
                "Sign In",
                "demo@example.com",
                "Demo account: signing in by itself with sample credentials…",
            ),
            FakeSite::Cn => (
                "登录",
                "电子邮件或手机号",
                "+86 手机号或电子邮件",
                "密码",
                "登录",
                "+8613800000000",
                "演示账户：正在用示例凭据自动登录…",
            ),
        };
        let action = match self.query {
            Some(q) => format!("/portal/sso/{}/sign-in?{q}", self.page_locale),
            None => format!("/portal/sso/{}/sign-in", self.page_locale),
        };
        let error =
            error.map_or_else(String::new, |e| format!(r#"<p class="error" role="alert">{}</p>"#, escape(e)));
        let (user_value, pass_value, auto) = if auto_sign_in {
            (
                demo_user,
                "demo",
                format!(
                    r#"<p class="auto-sign-in" role="status">{auto_note}</p>
<script>setTimeout(function () {{ document.getElementById("login-form").submit(); }}, {AUTO_SIGN_IN_DELAY_MS});</script>
"#
                ),
            )
        } else {
            ("", "", String::new())
        };
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
<input id="username" name="username" type="text" autocomplete="username" placeholder="{user_hint}" value="{user_value}">
<label for="password">{pass_label}</label>
<input id="password" name="password" type="password" autocomplete="current-password" value="{pass_value}">
<input type="hidden" name="service" value="{service}">
<button id="login-btn-signin" type="submit">{button}</button>
</form>
{auto}</body>
</html>
"#,
            lang = escape(self.page_locale),
            action = escape(&action),
            service = escape(service.unwrap_or("")),
        ))
    }
}

/// How long the self-submitting sign-in page stays visible before it submits (long enough to see it).
const AUTO_SIGN_IN_DELAY_MS: u32 = 2000;

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
pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    //! The [`BrowserOptions`](crate::BrowserOptions) switches, seen through HTTP as a webview sees them.

    use crate::{BrowserOptions, FakeConfig, FakeGarmin};

    fn http() -> reqwest::Client {
        garmin::https::client_builder()
            .unwrap()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client")
    }

    async fn sign_in_post(fake: &FakeGarmin, password: &str) -> reqwest::Response {
        http()
            .post(fake.sign_in_url())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(format!("username=runner%40example.com&password={password}"))
            .send()
            .await
            .expect("request")
    }

    fn set_cookies(res: &reqwest::Response) -> Vec<String> {
        res.headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .map(str::to_owned)
            .collect()
    }

    #[tokio::test]
    async fn auto_sign_in_page_arrives_filled_in_and_submits_itself() {
        let fake = FakeGarmin::start(FakeConfig::default()).await.expect("fake starts");
        let plain = http().get(fake.sign_in_url()).send().await.expect("request").text().await.expect("html");
        assert!(!plain.contains(".submit()") && plain.contains(r#"value="""#), "{plain}");

        fake.set_browser_options(BrowserOptions { auto_sign_in: true, ..BrowserOptions::default() });
        let auto = http().get(fake.sign_in_url()).send().await.expect("request").text().await.expect("html");
        assert!(auto.contains(r#"value="demo@example.com""#), "{auto}");
        assert!(auto.contains(r#"document.getElementById("login-form").submit()"#), "{auto}");
        assert!(auto.contains("FAKE Garmin sign-in"), "the page stays labelled as fake: {auto}");
    }

    #[tokio::test]
    async fn a_refused_auto_sign_in_shows_the_error_instead_of_submitting_again() {
        let fake = FakeGarmin::start(FakeConfig::default()).await.expect("fake starts");
        fake.set_browser_options(BrowserOptions { auto_sign_in: true, ..BrowserOptions::default() });
        let res = sign_in_post(&fake, "wrong").await;
        assert_eq!(res.status(), 401);
        let html = res.text().await.expect("html");
        assert!(html.contains(r#"role="alert""#) && !html.contains(".submit()"), "{html}");
    }

    #[tokio::test]
    async fn cookies_lose_secure_only_when_switched_off() {
        let fake = FakeGarmin::start(FakeConfig::default()).await.expect("fake starts");
        let secure = set_cookies(&sign_in_post(&fake, "pw").await);
        let session = secure.iter().find(|c| c.starts_with("session=")).expect("session cookie");
        assert!(session.contains("; Secure") && session.contains("HttpOnly"), "{session}");

        fake.set_browser_options(BrowserOptions { secure_cookies: false, ..BrowserOptions::default() });
        let plain = set_cookies(&sign_in_post(&fake, "pw").await);
        for name in ["session=", "JWT_WEB=", "SESSIONID=", "CASTGC=", "GARMIN-SSO="] {
            let cookie = plain.iter().find(|c| c.starts_with(name)).expect(name);
            assert!(!cookie.contains("Secure"), "{cookie}");
        }
        let jwt = plain.iter().find(|c| c.starts_with("JWT_WEB=")).expect("JWT_WEB");
        assert!(jwt.contains("HttpOnly"), "still HttpOnly: {jwt}");
    }
}
