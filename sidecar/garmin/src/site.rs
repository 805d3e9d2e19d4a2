//! Garmin's two sites (international and China) and the origins a session talks to.
//!
//! China accounts exist only in Garmin China's user database, so the site is chosen at sign-in and
//! stored with the session. `GARMIN_CONNECT_URL` / `GARMIN_SSO_URL` override the origins for tests,
//! the offline demo and proxies; the chosen origins are stored in the session too.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// `connectus.garmin.cn`: the in-China front end for *international* accounts. From mainland-China
/// networks `connect.garmin.com` answers 302 there; SSO stays `sso.garmin.com` and `/gc-api` is
/// served there too (docs/garmin-web-api.md §0 `[S]`).
pub const CONNECTUS_ORIGIN: &str = "https://connectus.garmin.cn";

/// Environment variable overriding the Connect origin (e.g. `http://127.0.0.1:8765`).
pub const CONNECT_URL_ENV: &str = "GARMIN_CONNECT_URL";
/// Environment variable overriding the SSO origin.
pub const SSO_URL_ENV: &str = "GARMIN_SSO_URL";

/// Which Garmin Connect the account lives on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Site {
    /// Garmin Connect international: connect.garmin.com, sso.garmin.com.
    Global,
    /// Garmin Connect China: connect.garmin.cn, sso.garmin.cn (+86 phone accounts).
    Cn,
}

impl Site {
    /// The site's public origins (no override applied).
    pub fn default_origins(self) -> Origins {
        match self {
            Site::Global => Origins {
                connect: "https://connect.garmin.com".to_owned(),
                sso: "https://sso.garmin.com".to_owned(),
            },
            Site::Cn => Origins {
                connect: "https://connect.garmin.cn".to_owned(),
                sso: "https://sso.garmin.cn".to_owned(),
            },
        }
    }

    /// Origins for this site with `GARMIN_CONNECT_URL` / `GARMIN_SSO_URL` applied.
    pub fn origins_from_env(self) -> Origins {
        let mut origins = self.default_origins();
        if let Some(connect) = non_empty_env(CONNECT_URL_ENV) {
            origins.connect = trim_origin(&connect);
            // A local fake serves both roles; the SSO origin follows unless set separately.
            origins.sso = origins.connect.clone();
        }
        if let Some(sso) = non_empty_env(SSO_URL_ENV) {
            origins.sso = trim_origin(&sso);
        }
        origins
    }

    /// The URL of Garmin's own sign-in page for this site, returning to the Connect app.
    pub fn sign_in_url(self, origins: &Origins) -> String {
        let service = match self {
            Site::Global => format!("{}/app/", origins.connect),
            Site::Cn => format!("{}/app", origins.connect),
        };
        self.sign_in_url_returning_to(origins, &service)
    }

    /// The URL of Garmin's own sign-in page for this site, returning to `service` (a page of the
    /// Connect app, e.g. the Personal API key page). A browser still holding the SSO's `CASTGC`
    /// is sent straight on to `service`, signed in.
    pub fn sign_in_url_returning_to(self, origins: &Origins, service: &str) -> String {
        let locale = match self {
            Site::Global => "en-US",
            Site::Cn => "zh-CN",
        };
        let service: String = url::form_urlencoded::byte_serialize(service.as_bytes()).collect();
        format!("{}/portal/sso/{locale}/sign-in?clientId=GarminConnect&service={service}", origins.sso)
    }

    /// Every Connect front end that serves this site's accounts: its own, and for international
    /// accounts the in-China one ([`CONNECTUS_ORIGIN`]).
    pub fn front_ends(self) -> Vec<String> {
        let mut ends = vec![self.default_origins().connect];
        if self == Site::Global {
            ends.push(CONNECTUS_ORIGIN.to_owned());
        }
        ends
    }

    /// The site a Connect origin belongs to, when it is one of Garmin's front ends.
    pub fn of_front_end(origin: &str) -> Option<Site> {
        let origin = trim_origin(origin).to_ascii_lowercase();
        [Site::Global, Site::Cn].into_iter().find(|site| site.front_ends().contains(&origin))
    }

    /// How people recognise the site.
    pub fn label(self) -> &'static str {
        match self {
            Site::Global => "Garmin Connect (international, connect.garmin.com)",
            Site::Cn => "Garmin Connect China (connect.garmin.cn)",
        }
    }
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Site::Global => "global",
            Site::Cn => "cn",
        })
    }
}

impl FromStr for Site {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "global" | "com" | "international" | "intl" => Ok(Site::Global),
            "cn" | "china" => Ok(Site::Cn),
            other => Err(format!(
                "unknown Garmin site `{other}`: use `global` (connect.garmin.com) or `cn` (connect.garmin.cn)"
            )),
        }
    }
}

/// The two origins a session uses, without trailing slash (e.g. `https://connect.garmin.com`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origins {
    /// Web app and JSON API origin; the API lives under `{connect}/gc-api`.
    pub connect: String,
    /// Single sign-on origin.
    pub sso: String,
}

/// The host (and port, if any) of an origin, for messages: `connectus.garmin.cn`.
pub(crate) fn host_of(origin: &str) -> String {
    url::Url::parse(origin)
        .ok()
        .and_then(|u| u.host_str().map(|h| u.port().map_or_else(|| h.to_owned(), |p| format!("{h}:{p}"))))
        .unwrap_or_else(|| origin.to_owned())
}

/// A Connect front end in plain words: which one, and for whom, e.g.
/// "connectus.garmin.cn (Garmin's in-China front end for international accounts, used from
/// mainland-China networks)".
pub fn describe_front_end(origin: &str) -> String {
    let host = host_of(origin);
    let what = match trim_origin(origin).to_ascii_lowercase().as_str() {
        CONNECTUS_ORIGIN => {
            "Garmin's in-China front end for international accounts, used from mainland-China networks"
        }
        "https://connect.garmin.com" => "Garmin Connect international",
        "https://connect.garmin.cn" => "Garmin Connect China",
        _ => return host,
    };
    format!("{host} ({what})")
}

/// True when the origin's host is this computer (the fake Garmin and the demo run there).
pub(crate) fn is_loopback(origin: &str) -> bool {
    url::Url::parse(origin).ok().is_some_and(|u| match u.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        None => false,
    })
}

fn non_empty_env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

fn trim_origin(value: &str) -> String {
    value.trim().trim_end_matches('/').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_in_url_uses_site_locale_and_app_service() {
        let url = Site::Cn.sign_in_url(&Site::Cn.default_origins());
        assert_eq!(
            url,
            "https://sso.garmin.cn/portal/sso/zh-CN/sign-in?clientId=GarminConnect&service=https%3A%2F%2Fconnect.garmin.cn%2Fapp"
        );
        let url = Site::Global.sign_in_url(&Site::Global.default_origins());
        assert!(url.starts_with("https://sso.garmin.com/portal/sso/en-US/sign-in?"));
        assert!(url.ends_with("service=https%3A%2F%2Fconnect.garmin.com%2Fapp%2F"));
    }

    #[test]
    fn connectus_is_a_front_end_of_international_accounts_and_is_described_in_plain_words() {
        assert_eq!(Site::of_front_end("https://connectus.garmin.cn/"), Some(Site::Global));
        assert_eq!(Site::of_front_end("https://connect.garmin.cn"), Some(Site::Cn));
        assert_eq!(Site::of_front_end("https://evil.example"), None);
        let words = describe_front_end("https://connectus.garmin.cn");
        assert!(
            words.starts_with("connectus.garmin.cn (") && words.contains("international accounts"),
            "{words}"
        );
        assert_eq!(describe_front_end("http://127.0.0.1:9"), "127.0.0.1:9");
        assert!(is_loopback("http://127.0.0.1:9") && !is_loopback("https://connect.garmin.com"));
    }

    #[test]
    fn site_parses_common_spellings_and_explains_unknown_ones() {
        assert_eq!("CN".parse::<Site>(), Ok(Site::Cn));
        assert_eq!("global".parse::<Site>(), Ok(Site::Global));
        let err = "eu".parse::<Site>().unwrap_err();
        assert!(err.contains("`global`") && err.contains("`cn`"), "{err}");
    }
}
