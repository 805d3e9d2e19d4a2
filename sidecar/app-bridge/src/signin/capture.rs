//! From what the sign-in webview holds to a `garmin::Session`: its cookies (read natively, HttpOnly
//! ones included) and what the Connect page says once it has loaded — the `csrf-token` meta tag,
//! the signed-in account, and the browser's User-Agent, which Garmin may tie the session to. The app
//! copies each webview cookie into a [`BrowserCookie`] (plain values, so this needs no webview).

use std::fmt;

use chrono::DateTime;
use garmin::{Session, StoredCookie};
use serde::Deserialize;

use super::{SignInError, Target};

/// Run in the sign-in window once the Connect page has loaded. Returns one object (never throws:
/// exceptions would be swallowed on Windows) that [`PageReading::from_script_result`] reads.
pub const READ_PAGE_SCRIPT: &str = r#"(function () {
  try {
    var meta = document.querySelector('meta[name="csrf-token"]');
    var profile = window.VIEWER_SOCIAL_PROFILE || {};
    return {
      csrfToken: meta ? meta.getAttribute("content") : null,
      userAgent: navigator.userAgent,
      displayName: typeof profile.displayName === "string" ? profile.displayName : null,
      profileId: profile.profileId == null ? null : String(profile.profileId),
      fullName: typeof profile.fullName === "string" ? profile.fullName : null
    };
  } catch (e) {
    return { error: String(e) };
  }
})()"#;

/// One cookie of the sign-in webview, as the webview reported it (HttpOnly ones included).
#[derive(Clone, PartialEq, Eq)]
pub struct BrowserCookie {
    pub name: String,
    /// The cookie's value (a secret).
    pub value: String,
    /// Its `Domain`, if the webview reported one (with or without a leading dot).
    pub domain: Option<String>,
    /// Its `Path`, if any.
    pub path: Option<String>,
    /// When it expires, in seconds since the Unix epoch (`None`: a session cookie).
    pub expires_unix: Option<i64>,
    pub secure: bool,
    pub http_only: bool,
}

impl BrowserCookie {
    /// A cookie with a name and value only (tests and the app's copy start here).
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Self {
        BrowserCookie {
            name: name.into(),
            value: value.into(),
            domain: None,
            path: None,
            expires_unix: None,
            secure: false,
            http_only: false,
        }
    }
}

impl fmt::Debug for BrowserCookie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BrowserCookie")
            .field("name", &self.name)
            .field("value", &"<redacted>")
            .field("domain", &self.domain)
            .finish_non_exhaustive()
    }
}

/// What the Connect page told the sign-in window's script.
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PageReading {
    /// The `csrf-token` meta tag's content (a secret).
    pub csrf_token: Option<String>,
    /// `navigator.userAgent` of the sign-in webview.
    pub user_agent: Option<String>,
    /// `VIEWER_SOCIAL_PROFILE.displayName`.
    pub display_name: Option<String>,
    /// `VIEWER_SOCIAL_PROFILE.profileId`, as text.
    pub profile_id: Option<String>,
    /// `VIEWER_SOCIAL_PROFILE.fullName`.
    pub full_name: Option<String>,
    /// The script's own failure, if it had one.
    pub error: Option<String>,
}

impl fmt::Debug for PageReading {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PageReading")
            .field("csrf_token", &self.csrf_token.as_ref().map(|_| "<redacted>"))
            .field("display_name", &self.display_name)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

impl PageReading {
    /// Reads the script's result as the webview hands it over: JSON text of the returned object
    /// (some engines wrap it once more as a JSON string).
    pub fn from_script_result(json: &str) -> Result<PageReading, SignInError> {
        let unreadable =
            |e: serde_json::Error| SignInError::Window(format!("the Connect page could not be read ({e})"));
        let mut value: serde_json::Value = serde_json::from_str(json).map_err(unreadable)?;
        if let serde_json::Value::String(inner) = &value {
            value = serde_json::from_str(inner).map_err(unreadable)?;
        }
        serde_json::from_value(value).map_err(unreadable)
    }

    /// The CSRF token, when the page carried a usable one.
    pub fn csrf(&self) -> Option<&str> {
        self.csrf_token
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty() && !t.contains(char::is_whitespace))
    }
}

/// Builds the session from the sign-in window's cookies (for the Connect host the sign-in landed
/// on) and its Connect page. No cookie is required by name — only one 2026 source shows `session`
/// (docs/garmin-web-api.md §0) — so whether the jar works is for the check before saving to say;
/// fails only when the window held no cookies at all or the page had no CSRF token.
pub fn session_from_browser(
    target: &Target,
    cookies: &[BrowserCookie],
    page: &PageReading,
) -> Result<Session, SignInError> {
    let mut jar: Vec<StoredCookie> = Vec::new();
    for cookie in cookies.iter().filter(|c| !c.name.is_empty()) {
        let stored = stored_cookie(cookie, target.connect_host());
        let same =
            |c: &StoredCookie| c.name == stored.name && c.domain == stored.domain && c.path == stored.path;
        if !jar.iter().any(same) {
            jar.push(stored);
        }
    }
    if !jar.iter().any(|c| !c.value.is_empty()) {
        return Err(SignInError::MissingCookies {
            missing: "the sign-in window held no cookies at all".into(),
            connect: target.origins().connect.clone(),
            detail: "nothing to check".into(),
        });
    }
    let csrf =
        page.csrf().ok_or_else(|| SignInError::NoCsrfToken { connect: target.origins().connect.clone() })?;
    let user_agent = page
        .user_agent
        .as_deref()
        .map(str::trim)
        .filter(|ua| !ua.is_empty())
        .unwrap_or(garmin::DEFAULT_USER_AGENT);
    let mut session =
        Session::new(target.site(), target.origins().clone(), jar, csrf.to_owned(), user_agent.to_owned());
    session.display_name = page.display_name.clone().filter(|n| !n.is_empty());
    session.profile_id = page.profile_id.as_deref().and_then(|id| id.trim().parse().ok());
    session.full_name = page.full_name.clone().filter(|n| !n.is_empty());
    Ok(session)
}

/// One webview cookie as the session stores it: a cookie for the Connect host itself is host-only
/// (`domain: None`), any other domain keeps a leading dot so it also matches subdomains.
fn stored_cookie(cookie: &BrowserCookie, connect_host: &str) -> StoredCookie {
    let domain = cookie
        .domain
        .as_deref()
        .map(|d| d.trim_start_matches('.'))
        .filter(|d| !d.is_empty() && !d.eq_ignore_ascii_case(connect_host))
        .map(|d| format!(".{d}"));
    StoredCookie {
        name: cookie.name.clone(),
        value: cookie.value.clone(),
        domain,
        path: Some(cookie.path.as_deref().filter(|p| !p.is_empty()).unwrap_or("/").to_owned()),
        expires: cookie.expires_unix.and_then(|t| DateTime::from_timestamp(t, 0)),
        secure: cookie.secure,
        http_only: cookie.http_only,
    }
}

#[cfg(test)]
mod tests {
    use garmin::{Origins, Site};

    use super::*;

    fn target() -> Target {
        Target::garmin(Site::Global, Site::Global.default_origins()).unwrap()
    }

    fn page(csrf: &str) -> PageReading {
        PageReading {
            csrf_token: Some(csrf.into()),
            user_agent: Some(
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko)".into(),
            ),
            display_name: Some("runner_1".into()),
            profile_id: Some("1000001".into()),
            full_name: Some("Alex Rivera".into()),
            error: None,
        }
    }

    /// A cookie as a webview reports it.
    fn cookie(name: &str, value: &str, domain: &str, secure: bool, http_only: bool) -> BrowserCookie {
        BrowserCookie {
            domain: Some(domain.into()),
            path: Some("/".into()),
            secure,
            http_only,
            ..BrowserCookie::new(name, value)
        }
    }

    fn webview_cookies() -> Vec<BrowserCookie> {
        vec![
            BrowserCookie {
                expires_unix: Some(1_900_000_000),
                ..cookie("session", "sealed", "connect.garmin.com", true, true)
            },
            cookie("JWT_WEB", "jwt", ".garmin.com", true, true),
            cookie("GARMIN-SSO", "1", ".garmin.com", true, false),
            // The same cookie seen again through the SSO host's URL.
            cookie("GARMIN-SSO", "1", ".garmin.com", true, false),
            cookie("CASTGC", "TGT-1", "sso.garmin.com", false, true),
        ]
    }

    #[test]
    fn webview_cookies_become_the_session_jar_with_their_httponly_metadata() {
        let session = session_from_browser(&target(), &webview_cookies(), &page("csrf-1")).unwrap();
        let names: Vec<&str> = session.cookies.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["session", "JWT_WEB", "GARMIN-SSO", "CASTGC"], "deduplicated, in order");
        let sealed = &session.cookies[0];
        assert_eq!(sealed.domain, None, "a cookie of the Connect host is host-only");
        assert!(sealed.http_only && sealed.secure);
        assert_eq!(sealed.expires.map(|e| e.timestamp()), Some(1_900_000_000));
        assert_eq!(session.cookies[1].domain.as_deref(), Some(".garmin.com"));
        assert_eq!(session.cookies[3].domain.as_deref(), Some(".sso.garmin.com"));
        assert_eq!(session.csrf_token, "csrf-1");
        assert!(session.user_agent.contains("AppleWebKit/605"), "the webview's own User-Agent is kept");
        assert_eq!(session.display_name.as_deref(), Some("runner_1"));
        assert_eq!(session.profile_id, Some(1_000_001));
        assert_eq!(session.site, Site::Global);
    }

    #[test]
    fn no_cookie_is_required_by_name_but_an_empty_window_is_an_error() {
        let without_session: Vec<BrowserCookie> = webview_cookies().into_iter().skip(1).collect();
        let session = session_from_browser(&target(), &without_session, &page("csrf-1")).unwrap();
        assert!(!session.cookies.iter().any(|c| c.name == "session"), "Garmin decides, not this check");
        let err = session_from_browser(&target(), &[], &page("csrf-1")).unwrap_err();
        assert!(matches!(err, SignInError::MissingCookies { .. }), "{err:?}");
        assert!(err.to_string().contains("no cookies at all") && err.to_string().contains("Paste cookies"));
    }

    #[test]
    fn a_sign_in_that_landed_on_connectus_keeps_its_cookies_and_origin() {
        let landed = target().landed_on("https://connectus.garmin.cn").unwrap();
        let cookies = vec![
            cookie("SESSIONID", "s", "connectus.garmin.cn", false, false),
            cookie("JWT_WEB", "j", ".garmin.cn", false, false),
            cookie("CASTGC", "TGT-1", "sso.garmin.com", false, false),
        ];
        let session = session_from_browser(&landed, &cookies, &page("csrf-1")).unwrap();
        assert_eq!(session.site, Site::Global, "connectus serves international accounts");
        assert_eq!(session.origins.connect, "https://connectus.garmin.cn");
        assert_eq!(session.origins.sso, "https://sso.garmin.com", "SSO stays");
        assert_eq!(session.cookies[0].domain, None, "host-only for the connectus host");
        assert!(session.info().front_end.contains("in-China front end for international accounts"));
    }

    #[test]
    fn a_page_without_csrf_token_is_not_a_signed_in_page() {
        for csrf in ["", "  ", "two words"] {
            let err = session_from_browser(&target(), &webview_cookies(), &page(csrf)).unwrap_err();
            assert!(matches!(err, SignInError::NoCsrfToken { .. }), "{csrf:?}: {err:?}");
        }
    }

    #[test]
    fn a_browser_cookie_never_shows_its_value() {
        let shown = format!("{:?}", cookie("JWT_WEB", "secret-jwt", ".garmin.com", true, true));
        assert!(shown.contains("JWT_WEB") && !shown.contains("secret-jwt"), "{shown}");
    }

    #[test]
    fn the_script_result_is_read_plain_or_quoted_and_never_shows_the_token() {
        let plain =
            r#"{"csrfToken":"abc","userAgent":"UA","displayName":"d","profileId":"7","fullName":null}"#;
        let reading = PageReading::from_script_result(plain).unwrap();
        assert_eq!(reading.csrf(), Some("abc"));
        assert_eq!(reading.profile_id.as_deref(), Some("7"));
        let quoted = serde_json::to_string(plain).unwrap();
        assert_eq!(PageReading::from_script_result(&quoted).unwrap(), reading);
        assert!(!format!("{reading:?}").contains("abc"));
        let failed = PageReading::from_script_result(r#"{"error":"TypeError"}"#).unwrap();
        assert_eq!((failed.csrf(), failed.error.as_deref()), (None, Some("TypeError")));
        assert!(matches!(PageReading::from_script_result("undefined"), Err(SignInError::Window(_))));
    }

    #[test]
    fn without_a_user_agent_the_session_uses_the_browser_like_default() {
        let origins = Origins { connect: "http://127.0.0.1:9".into(), sso: "http://127.0.0.1:9".into() };
        let demo = Target::demo(origins, "http://127.0.0.1:9/portal/sso/en-US/sign-in").unwrap();
        let cookies = vec![
            BrowserCookie { domain: Some("127.0.0.1".into()), ..BrowserCookie::new("session", "s") },
            BrowserCookie { domain: Some("127.0.0.1".into()), ..BrowserCookie::new("JWT_WEB", "j") },
        ];
        let reading = PageReading { csrf_token: Some("t".into()), ..PageReading::default() };
        let session = session_from_browser(&demo, &cookies, &reading).unwrap();
        assert_eq!(session.user_agent, garmin::DEFAULT_USER_AGENT);
        assert!(session.cookies.iter().all(|c| c.domain.is_none()), "loopback cookies are host-only");
        assert_eq!(session.display_name, None);
    }
}
