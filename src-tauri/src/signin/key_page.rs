//! Garmin's Personal API key page, opened signed in (issue #15 §2): where the sign-in window goes
//! when the person adds Garmin's official API key. Library code without a window: the page's
//! address and the cookies that sign the window in.
//!
//! The window does not get the saved session's Connect cookies: the Connect page in it would renew
//! them on its own, and Garmin's renewal credential is one-time, so `session.json` would be left
//! with a spent one. It gets only the SSO's ticket-granting cookie (`CASTGC`, kept from the app's
//! sign-in window) and opens the site's sign-in page returning to the key page: Garmin's SSO sends
//! a browser holding a live `CASTGC` straight on with a one-time ticket, and Connect makes the
//! window a session of its own (docs/garmin-web-api.md §2.7 B; the fake plays it in `sso.rs`).
//! Without a `CASTGC` (a session pasted from a browser) the person signs in on Garmin's page once.

use garmin::personal::KEY_PAGE_PATH;
use garmin::{Session, Site};
use tauri::Url;
use tauri::webview::Cookie;

use super::SignInError;

/// The SSO's ticket-granting cookie (CAS single sign-on).
const SSO_TICKET_COOKIE: &str = "CASTGC";

/// The sign-in page of `session`'s site returning to its Connect front end's key page. China
/// accounts have no Personal API ([`garmin::personal::CHINA_NOT_OFFERED`]): refused.
pub fn key_page_url(session: &Session) -> Result<Url, SignInError> {
    if session.site == Site::Cn {
        return Err(SignInError::InvalidInput(format!("{}.", garmin::personal::CHINA_NOT_OFFERED)));
    }
    let origins = &session.origins;
    let service = format!("{}{KEY_PAGE_PATH}", origins.connect.trim_end_matches('/'));
    let url = session.site.sign_in_url_returning_to(origins, &service);
    Url::parse(&url).map_err(|e| {
        SignInError::InvalidInput(format!(
            "the Garmin sign-in address `{}` is not a valid URL ({e}); check GARMIN_SSO_URL",
            origins.sso
        ))
    })
}

/// The cookies that sign the key-page window in: the session's `CASTGC`, for the SSO host (its
/// stored domain, else the SSO origin's host). Empty when the session has none.
pub fn sso_cookies(session: &Session) -> Vec<Cookie<'static>> {
    let sso_host = Url::parse(&session.origins.sso).ok().and_then(|u| u.host_str().map(str::to_owned));
    session
        .cookies
        .iter()
        .filter(|c| c.name == SSO_TICKET_COOKIE && !c.value.is_empty())
        .filter_map(|c| {
            let domain = c.domain.clone().or_else(|| sso_host.clone())?;
            let mut cookie = Cookie::build((c.name.clone(), c.value.clone()))
                .domain(domain)
                .path(c.path.clone().unwrap_or_else(|| "/".to_owned()))
                .secure(c.secure)
                .http_only(c.http_only)
                .build();
            if let Some(at) = c.expires.and_then(|t| {
                tauri::webview::cookie::time::OffsetDateTime::from_unix_timestamp(t.timestamp()).ok()
            }) {
                cookie.set_expires(at);
            }
            Some(cookie)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(site: Site, header: &str) -> Session {
        Session::from_cookie_header(site, site.default_origins(), header, "t", "UA").unwrap()
    }

    #[test]
    fn the_key_page_opens_through_the_sites_sign_in_returning_to_the_key_page() {
        let url = key_page_url(&session(Site::Global, "session=s; JWT_WEB=j")).unwrap();
        assert!(url.as_str().starts_with("https://sso.garmin.com/portal/sso/en-US/sign-in?"), "{url}");
        let service = url.query_pairs().find(|(k, _)| k == "service").unwrap().1.into_owned();
        assert_eq!(service, "https://connect.garmin.com/app/settings/personalApiToken");
    }

    #[test]
    fn china_accounts_are_told_the_personal_api_is_not_offered() {
        let refused = key_page_url(&session(Site::Cn, "session=s; JWT_WEB=j")).unwrap_err().to_string();
        assert!(refused.contains("connect.garmin.cn") && refused.contains("not offered"), "{refused}");
    }

    #[test]
    fn only_the_sso_ticket_cookie_goes_into_the_window_never_the_connect_session() {
        let mut s = session(Site::Global, "session=secret-s; JWT_WEB=secret-j; CASTGC=TGT-1");
        s.cookies[2].domain = Some("sso.garmin.com".into());
        let cookies = sso_cookies(&s);
        assert_eq!(cookies.len(), 1, "{cookies:?}");
        assert_eq!((cookies[0].name(), cookies[0].value()), ("CASTGC", "TGT-1"));
        assert_eq!(cookies[0].domain(), Some("sso.garmin.com"));
        assert_eq!(cookies[0].path(), Some("/"));
        // A session without the SSO cookie signs in on Garmin's page instead.
        assert!(sso_cookies(&session(Site::Global, "session=s; JWT_WEB=j")).is_empty());
        // No domain stored: the SSO origin's host.
        let mut host_only = session(Site::Global, "CASTGC=TGT-2; session=s; JWT_WEB=j");
        host_only.cookies[0].domain = None;
        assert_eq!(sso_cookies(&host_only)[0].domain(), Some("sso.garmin.com"));
    }
}
