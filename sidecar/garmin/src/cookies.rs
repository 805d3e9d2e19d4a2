//! Cookie bookkeeping for the session: which stored cookies go to which host, and how a
//! `Set-Cookie` answer is merged (Garmin re-issues `JWT_WEB` this way, Cloudflare its own).
//!
//! We keep our own jar instead of reqwest's so that the jar lives in the shared session file with
//! every cookie's metadata, and so that each merge can be done under the cross-process lock.

use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// One cookie of the session jar.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredCookie {
    /// Cookie name.
    pub name: String,
    /// Cookie value (a secret).
    pub value: String,
    /// `Domain` attribute (leading dot kept); `None` means host-only for the Connect host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub domain: Option<String>,
    /// `Path` attribute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Expiry, when the server gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<DateTime<Utc>>,
    /// `Secure` flag.
    #[serde(default)]
    pub secure: bool,
    /// `HttpOnly` flag.
    #[serde(default)]
    pub http_only: bool,
}

impl fmt::Debug for StoredCookie {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StoredCookie")
            .field("name", &self.name)
            .field("value", &"<redacted>")
            .field("domain", &self.domain)
            .field("expires", &self.expires)
            .finish_non_exhaustive()
    }
}

/// Does a cookie stored for `cookie_domain` (None = host-only for the connect host) go to `host`?
pub(crate) fn domain_matches(cookie_domain: Option<&str>, host: &str, connect_host: &str) -> bool {
    let host = host.to_ascii_lowercase();
    match cookie_domain {
        None => host == connect_host.to_ascii_lowercase(),
        Some(domain) => {
            let domain = domain.trim_start_matches('.').to_ascii_lowercase();
            host == domain || host.ends_with(&format!(".{domain}"))
        }
    }
}

/// The `Cookie` header value for `host`: every stored cookie whose domain matches, in stored order.
pub(crate) fn header_for(cookies: &[StoredCookie], host: &str, connect_host: &str) -> String {
    cookies
        .iter()
        .filter(|c| domain_matches(c.domain.as_deref(), host, connect_host))
        .map(|c| format!("{}={}", c.name, c.value))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Parses one `Set-Cookie` header into a stored cookie; `removal` is true when the server deletes it
/// (Max-Age ≤ 0 or an Expires in the past). Unparseable headers are ignored (returns None).
pub(crate) fn parse_set_cookie(header: &str, now: DateTime<Utc>) -> Option<(StoredCookie, bool)> {
    let parsed = cookie::Cookie::parse(header.to_owned()).ok()?;
    let mut expires =
        parsed.expires_datetime().and_then(|t| DateTime::<Utc>::from_timestamp(t.unix_timestamp(), 0));
    if let Some(max_age) = parsed.max_age() {
        let secs = max_age.whole_seconds();
        expires = Some(now + chrono::Duration::seconds(secs));
    }
    let removal = expires.is_some_and(|e| e <= now);
    let cookie = StoredCookie {
        name: parsed.name().to_owned(),
        value: parsed.value().to_owned(),
        domain: parsed.domain().map(|d| d.trim_start_matches('.').to_owned()).map(|d| format!(".{d}")),
        path: Some(parsed.path().unwrap_or("/").to_owned()),
        expires,
        secure: parsed.secure().unwrap_or(false),
        http_only: parsed.http_only().unwrap_or(false),
    };
    Some((cookie, removal))
}

/// Merges `incoming` into `jar` (same name + domain + path replaces). Returns true if anything changed.
pub(crate) fn merge(jar: &mut Vec<StoredCookie>, incoming: StoredCookie, removal: bool) -> bool {
    let same = |c: &StoredCookie| {
        c.name == incoming.name
            && norm(c.domain.as_deref()) == norm(incoming.domain.as_deref())
            && norm_path(c.path.as_deref()) == norm_path(incoming.path.as_deref())
    };
    if removal {
        let before = jar.len();
        jar.retain(|c| !same(c));
        return jar.len() != before;
    }
    match jar.iter_mut().find(|c| same(c)) {
        Some(existing) if *existing == incoming => false,
        Some(existing) => {
            *existing = incoming;
            true
        }
        None => {
            jar.push(incoming);
            true
        }
    }
}

fn norm(domain: Option<&str>) -> String {
    domain.unwrap_or("").trim_start_matches('.').to_ascii_lowercase()
}

fn norm_path(path: Option<&str>) -> &str {
    match path {
        None | Some("") => "/",
        Some(p) => p,
    }
}

/// Splits a browser `Cookie` request header (`a=1; b=2`) into host-only cookies for the connect host.
pub(crate) fn parse_cookie_header(header: &str) -> Vec<StoredCookie> {
    header
        .split(';')
        .filter_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            let name = name.trim();
            (!name.is_empty()).then(|| StoredCookie {
                name: name.to_owned(),
                value: value.trim().to_owned(),
                domain: None,
                path: Some("/".to_owned()),
                expires: None,
                secure: true,
                http_only: true,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cookie(name: &str, value: &str, domain: Option<&str>) -> StoredCookie {
        StoredCookie {
            name: name.into(),
            value: value.into(),
            domain: domain.map(Into::into),
            path: Some("/".into()),
            expires: None,
            secure: true,
            http_only: true,
        }
    }

    #[test]
    fn header_sends_parent_domain_and_host_only_cookies_but_not_sso_ones() {
        let jar = vec![
            cookie("session", "s", None),
            cookie("JWT_WEB", "j", Some(".garmin.com")),
            cookie("CASTGC", "t", Some("sso.garmin.com")),
        ];
        let header = header_for(&jar, "connect.garmin.com", "connect.garmin.com");
        assert_eq!(header, "session=s; JWT_WEB=j");
    }

    #[test]
    fn set_cookie_replaces_same_cookie_and_max_age_zero_removes_it() {
        let now = Utc::now();
        let mut jar = vec![cookie("JWT_WEB", "old", Some(".garmin.com"))];
        let (c, removal) =
            parse_set_cookie("JWT_WEB=new; Domain=.garmin.com; Path=/; Secure; HttpOnly", now).unwrap();
        assert!(merge(&mut jar, c, removal));
        assert_eq!(jar.len(), 1);
        assert_eq!(jar[0].value, "new");
        let (c, removal) = parse_set_cookie("JWT_WEB=; Domain=garmin.com; Path=/; Max-Age=0", now).unwrap();
        assert!(removal);
        assert!(merge(&mut jar, c, removal));
        assert!(jar.is_empty());
    }

    #[test]
    fn unchanged_set_cookie_reports_no_change() {
        let now = Utc::now();
        let mut jar = Vec::new();
        let (c, r) = parse_set_cookie("__cf_bm=abc; Path=/; HttpOnly", now).unwrap();
        assert!(merge(&mut jar, c.clone(), r));
        assert!(!merge(&mut jar, c, r));
    }

    #[test]
    fn cookie_header_paste_is_split_into_cookies() {
        let jar = parse_cookie_header(" session=a=b ; JWT_WEB=xyz;;SESSIONID=1 ");
        let names: Vec<_> = jar.iter().map(|c| (c.name.as_str(), c.value.as_str())).collect();
        assert_eq!(names, [("session", "a=b"), ("JWT_WEB", "xyz"), ("SESSIONID", "1")]);
    }
}
