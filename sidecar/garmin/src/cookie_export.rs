//! Cookies copied out of a browser signed in to Garmin Connect, in the forms people can get them,
//! become a [`Session`]: the desktop app's "paste cookies" fallback (for when Garmin's sign-in page
//! will not load in the app) and `garmin-mcp login --manual --cookies-file` both use this.
//!
//! Accepted forms of the cookies:
//! * the `Cookie` request header (`session=…; JWT_WEB=…`, with or without the `Cookie:` prefix);
//! * a JSON cookie list as browser cookie extensions export it (`[{"name", "value", "domain",
//!   "path", "expirationDate", "secure", "httpOnly"}]`, or `{"cookies": [...]}` with `expires`);
//! * a Netscape `cookies.txt` (tab-separated; `#HttpOnly_` marks HttpOnly cookies).
//!
//! A list keeps each cookie's metadata; cookies for other hosts than Garmin Connect are dropped.

use chrono::DateTime;

use crate::{Origins, Session, Site, StoredCookie};

impl Session {
    /// Builds a session from cookies copied out of a browser (any of the forms above) and the CSRF
    /// token. `user_agent` is the browser's (Garmin may tie the session to it); empty means a
    /// common desktop browser's. Which cookies Garmin needs is for a validating call to decide.
    pub fn from_cookie_export(
        site: Site,
        origins: Origins,
        pasted: &str,
        csrf_token: &str,
        user_agent: &str,
    ) -> crate::Result<Session> {
        let text = pasted.trim();
        if text.is_empty() {
            return Err(crate::Error::InvalidInput(
                "nothing was pasted: paste the `Cookie` header (or a cookie list) of a request to Garmin Connect"
                    .into(),
            ));
        }
        let user_agent = match user_agent.trim() {
            "" => crate::DEFAULT_USER_AGENT,
            ua => ua,
        };
        let connect_host = url_host(&origins.connect);
        let listed = if text.starts_with('[') || text.starts_with('{') {
            Some(json_list(text)?)
        } else if text.contains('\t') {
            Some(netscape_list(text)?)
        } else {
            None
        };
        let from_header = |header: &str, origins: Origins| {
            Session::from_cookie_header(site, origins, header, csrf_token, user_agent)
        };
        let Some(list) = listed else {
            return from_header(text, origins);
        };
        let kept: Vec<StoredCookie> =
            list.into_iter().filter(|c| applies_to(c.domain.as_deref(), &connect_host)).collect();
        if kept.is_empty() {
            return Err(crate::Error::InvalidInput(format!(
                "the pasted list has no cookies for {connect_host}: export the cookies of {} while signed in",
                origins.connect
            )));
        }
        let header = kept.iter().map(|c| format!("{}={}", c.name, c.value)).collect::<Vec<_>>().join("; ");
        // The header checks the required cookies and the CSRF token; the list keeps the metadata.
        let mut session = from_header(&header, origins)?;
        session.cookies = kept
            .into_iter()
            .map(|mut c| {
                if c.domain.as_deref().map(|d| d.trim_start_matches('.')) == Some(connect_host.as_str()) {
                    c.domain = None;
                }
                c
            })
            .collect();
        Ok(session)
    }
}

fn url_host(origin: &str) -> String {
    url::Url::parse(origin).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase)).unwrap_or_default()
}

/// Would a browser send a cookie of `domain` (None: host-only, assumed to be the Connect host) to
/// `host`?
fn applies_to(domain: Option<&str>, host: &str) -> bool {
    match domain.map(|d| d.trim_start_matches('.').to_ascii_lowercase()) {
        None => true,
        Some(d) => d.is_empty() || host == d || host.ends_with(&format!(".{d}")),
    }
}

fn json_list(text: &str) -> crate::Result<Vec<StoredCookie>> {
    let bad = |why: String| {
        crate::Error::InvalidInput(format!(
            "the pasted cookie list is not in a known form ({why}); paste the `Cookie` request header instead"
        ))
    };
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| bad(format!("not JSON: {e}")))?;
    let items = match &value {
        serde_json::Value::Array(items) => items,
        serde_json::Value::Object(o) => match o.get("cookies") {
            Some(serde_json::Value::Array(items)) => items,
            _ => return Err(bad("an object without a \"cookies\" list".into())),
        },
        _ => return Err(bad("neither a list nor an object".into())),
    };
    let mut cookies = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let text = |key: &str| item.get(key).and_then(serde_json::Value::as_str).map(str::to_owned);
        let flag = |key: &str| item.get(key).and_then(serde_json::Value::as_bool).unwrap_or(false);
        let name = text("name")
            .filter(|n| !n.is_empty())
            .ok_or_else(|| bad(format!("entry {} has no name", i + 1)))?;
        let expires = ["expirationDate", "expires"]
            .iter()
            .find_map(|key| item.get(*key).and_then(serde_json::Value::as_f64))
            .filter(|secs| *secs > 0.0)
            // Seconds since 1970 fit an i64 with room to spare; fractions are dropped.
            .and_then(|secs| DateTime::from_timestamp(secs as i64, 0));
        cookies.push(StoredCookie {
            name,
            value: text("value").unwrap_or_default(),
            domain: text("domain").filter(|d| !d.is_empty()),
            path: Some(text("path").filter(|p| !p.is_empty()).unwrap_or_else(|| "/".into())),
            expires,
            secure: flag("secure"),
            http_only: flag("httpOnly"),
        });
    }
    Ok(cookies)
}

fn netscape_list(text: &str) -> crate::Result<Vec<StoredCookie>> {
    let mut cookies = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let (line, http_only) = match line.trim().strip_prefix("#HttpOnly_") {
            Some(rest) => (rest, true),
            None => (line.trim(), false),
        };
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [domain, _subdomains, path, secure, expires, name, value] = fields[..] else {
            return Err(crate::Error::InvalidInput(format!(
                "line {} of the pasted cookies.txt does not have 7 tab-separated fields; paste the `Cookie` request header instead",
                n + 1
            )));
        };
        cookies.push(StoredCookie {
            name: name.to_owned(),
            value: value.to_owned(),
            domain: Some(domain.to_owned()).filter(|d| !d.is_empty()),
            path: Some(if path.is_empty() { "/" } else { path }.to_owned()),
            expires: expires
                .parse::<i64>()
                .ok()
                .filter(|s| *s > 0)
                .and_then(|s| DateTime::from_timestamp(s, 0)),
            secure: secure.eq_ignore_ascii_case("TRUE"),
            http_only,
        });
    }
    Ok(cookies)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paste(text: &str) -> crate::Result<Session> {
        Session::from_cookie_export(Site::Cn, Site::Cn.default_origins(), text, "csrf-1", "")
    }

    #[test]
    fn a_cookie_header_is_accepted_with_or_without_its_name() {
        for text in ["session=s1; JWT_WEB=j1; SESSIONID=x", "Cookie: session=s1; JWT_WEB=j1; SESSIONID=x"] {
            let session = paste(text).unwrap();
            let names: Vec<&str> = session.cookies.iter().map(|c| c.name.as_str()).collect();
            assert_eq!(names, ["session", "JWT_WEB", "SESSIONID"]);
            assert_eq!(session.site, Site::Cn);
            assert_eq!(session.user_agent, crate::DEFAULT_USER_AGENT);
        }
    }

    #[test]
    fn an_extension_export_keeps_metadata_and_drops_other_hosts() {
        let export = r#"[
          {"name": "session", "value": "s1", "domain": "connect.garmin.cn", "path": "/", "httpOnly": true,
           "secure": true, "expirationDate": 1900000000.5, "hostOnly": true},
          {"name": "JWT_WEB", "value": "j1", "domain": ".garmin.cn", "httpOnly": true, "secure": true},
          {"name": "CASTGC", "value": "t", "domain": "sso.garmin.cn", "httpOnly": true},
          {"name": "_ga", "value": "x", "domain": ".example.com"}
        ]"#;
        let session = paste(export).unwrap();
        let names: Vec<&str> = session.cookies.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["session", "JWT_WEB"]);
        assert_eq!(session.cookies[0].domain, None);
        assert_eq!(session.cookies[0].expires.map(|e| e.timestamp()), Some(1_900_000_000));
        assert!(session.cookies[0].http_only && session.cookies[0].secure);
        assert_eq!(session.cookies[1].domain.as_deref(), Some(".garmin.cn"));
        let playwright = r#"{"cookies": [{"name": "session", "value": "s1", "domain": ".garmin.cn", "expires": -1},
                                          {"name": "JWT_WEB", "value": "j1", "domain": ".garmin.cn"}]}"#;
        assert_eq!(paste(playwright).unwrap().cookies[0].expires, None, "-1 means a session cookie");
    }

    #[test]
    fn a_netscape_cookies_txt_is_read_with_its_httponly_marks() {
        let txt = "# Netscape HTTP Cookie File\n\
                   #HttpOnly_connect.garmin.cn\tFALSE\t/\tTRUE\t1900000000\tsession\ts1\n\
                   .garmin.cn\tTRUE\t/\tTRUE\t0\tJWT_WEB\tj1\n\
                   .example.com\tTRUE\t/\tFALSE\t0\tother\tx\n";
        let session = paste(txt).unwrap();
        assert_eq!(session.cookies.len(), 2);
        assert!(session.cookies[0].http_only && !session.cookies[1].http_only);
        assert_eq!(session.cookies[1].expires, None);
        assert!(matches!(paste("a\tb\tc"), Err(crate::Error::InvalidInput(m)) if m.contains("line 1")));
    }

    #[test]
    fn what_cannot_become_a_session_says_what_to_paste() {
        // Which cookies a jar needs is Garmin's call (the check before saving): only afterwards is a
        // missing one named.
        let partial = paste("session=s1").expect("judged by Garmin, not here");
        assert!(partial.missing_cookie_hint().is_some_and(|h| h.contains("`JWT_WEB`")));
        let empty = paste("  ").unwrap_err().to_string();
        assert!(empty.contains("Cookie"), "{empty}");
        let broken = paste("[{\"value\": 1}]").unwrap_err().to_string();
        assert!(broken.contains("no name"), "{broken}");
        let elsewhere = paste(r#"[{"name": "session", "value": "s", "domain": "example.com"}]"#).unwrap_err();
        assert!(elsewhere.to_string().contains("connect.garmin.cn"), "{elsewhere}");
        let no_csrf = Session::from_cookie_export(
            Site::Cn,
            Site::Cn.default_origins(),
            "session=s; JWT_WEB=j",
            " ",
            "",
        );
        assert!(matches!(no_csrf, Err(crate::Error::InvalidInput(m)) if m.contains("CSRF")));
    }
}
