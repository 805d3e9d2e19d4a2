//! DNS-rebinding protection for `--http`: a web page the person visits can make their browser send
//! requests to `localhost` (or a name it re-points at this machine), but the browser still writes the
//! page's own host into `Host` and `Origin`. So every request must name one of the hosts this
//! server answers to — the bound host, `localhost`, `127.0.0.1`, `::1` and any `--allow-host` — in
//! `Host`, and in `Origin` when it has one; anything else gets 403 before authentication runs.

use std::fmt;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::Token;
use crate::caller::Peer;

/// What the middleware layers check: allowed host names and the optional token.
#[derive(Debug)]
pub(super) struct Access {
    pub(super) allowed: Vec<AllowedHost>,
    pub(super) token: Option<Token>,
}

/// One host name clients may use, optionally tied to one port (`name` or `name:port`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowedHost {
    host: String,
    port: Option<u16>,
}

impl AllowedHost {
    /// Parses `name`, `name:port`, `1.2.3.4`, `::1`, `[::1]` or `[::1]:port`; `None` when it is not
    /// a plain host name or address (URLs, paths, wildcards and user-info are refused).
    pub fn parse(value: &str) -> Option<AllowedHost> {
        let value = value.trim();
        let (host, port) = if let Some(rest) = value.strip_prefix('[') {
            let (host, after) = rest.split_once(']')?;
            let port = match after {
                "" => None,
                _ => Some(after.strip_prefix(':')?.parse().ok()?),
            };
            (host, port)
        } else if value.matches(':').count() > 1 {
            (value, None)
        } else if let Some((host, port)) = value.split_once(':') {
            (host, Some(port.parse().ok()?))
        } else {
            (value, None)
        };
        let host = host.to_ascii_lowercase();
        let valid = !host.is_empty()
            && host.len() <= 253
            && host.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | ':'));
        valid.then_some(AllowedHost { host, port })
    }

    /// `host[:port]` as rmcp's `allowed_hosts` expects it.
    pub fn authority(&self) -> String {
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        match self.port {
            Some(port) => format!("{host}:{port}"),
            None => host,
        }
    }

    /// The browser origins (http and https) that name this host, as rmcp's `allowed_origins` expects.
    pub fn origins(&self) -> [String; 2] {
        let host = if self.host.contains(':') { format!("[{}]", self.host) } else { self.host.clone() };
        let port = self.port.map_or_else(|| "*".to_owned(), |p| p.to_string());
        [format!("http://{host}:{port}"), format!("https://{host}:{port}")]
    }

    fn matches(&self, host: &str, port: Option<u16>) -> bool {
        self.host == host && self.port.is_none_or(|allowed| Some(allowed) == port)
    }
}

impl fmt::Display for AllowedHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.authority())
    }
}

/// Host name (lower case, IPv6 without brackets) and port of an authority like `Host` carries.
fn split_authority(authority: &str) -> Option<(String, Option<u16>)> {
    let authority: axum::http::uri::Authority = authority.parse().ok()?;
    let host = authority.host().trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
    Some((host, authority.port_u16()))
}

/// The host the request is for. Only origin-form targets (`/mcp`) with exactly one `Host` are
/// served: with an absolute-form target (`http://other.example/mcp`) HTTP says the target's
/// authority wins over `Host`, and two `Host` headers are ambiguous, so checking `Host` alone
/// would let such a request through under a name it does not really use.
fn request_host(uri: &Uri, headers: &HeaderMap) -> Result<Option<(String, Option<u16>)>, &'static str> {
    if uri.scheme().is_some() || uri.authority().is_some() {
        return Err(
            "Bad Request: absolute-form request targets are not accepted (this is not a proxy); send the path only, e.g. `POST /mcp`",
        );
    }
    let mut hosts = headers.get_all(header::HOST).iter();
    let (Some(value), None) = (hosts.next(), hosts.next()) else {
        return match headers.get_all(header::HOST).iter().count() {
            0 => Ok(None),
            _ => Err("Bad Request: more than one Host header"),
        };
    };
    Ok(value.to_str().ok().and_then(split_authority))
}

fn origin_host(value: &str) -> Option<(String, Option<u16>)> {
    let uri: Uri = value.parse().ok()?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return None;
    }
    split_authority(uri.authority()?.as_str())
}

fn forbidden(message: &'static str) -> Response {
    (StatusCode::FORBIDDEN, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], message).into_response()
}

/// Middleware: 403 unless `Host` (and `Origin`, when present) name an allowed host.
pub(super) async fn check_host_and_origin(
    State(access): State<Arc<Access>>,
    request: Request,
    next: Next,
) -> Response {
    let allowed =
        |(host, port): &(String, Option<u16>)| access.allowed.iter().any(|a| a.matches(host, *port));
    let peer = request.extensions().get::<Peer>().map(|p| p.0.to_string()).unwrap_or_default();
    let host = match request_host(request.uri(), request.headers()) {
        Ok(host) => host,
        Err(message) => {
            tracing::info!(%peer, "refused a request with an ambiguous target host");
            return (StatusCode::BAD_REQUEST, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], message)
                .into_response();
        }
    };
    match host {
        Some(host) if allowed(&host) => {}
        host => {
            tracing::info!(%peer, host = ?host.map(|h| h.0), "refused a request for a host name this server does not answer to");
            return forbidden(
                "Forbidden: this server does not answer to that Host name. If clients reach it through a \
                 reverse proxy or another name, start garmin-mcp with --allow-host NAME.",
            );
        }
    }
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let ok = origin.to_str().ok().and_then(origin_host).is_some_and(|host| allowed(&host));
        if !ok {
            tracing::info!(%peer, origin = ?origin, "refused a request from a web page of another origin");
            return forbidden(
                "Forbidden: requests from this web page's Origin are not allowed (DNS-rebinding protection).",
            );
        }
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowed_hosts_parse_names_addresses_and_ports_and_refuse_anything_else() {
        let parsed = |v: &str| AllowedHost::parse(v).map(|h| h.to_string());
        assert_eq!(parsed("Garmin.Example.com").as_deref(), Some("garmin.example.com"));
        assert_eq!(parsed("phone.lan:8443").as_deref(), Some("phone.lan:8443"));
        assert_eq!(parsed("::1").as_deref(), Some("[::1]"));
        assert_eq!(parsed("[fe80::1]:8765").as_deref(), Some("[fe80::1]:8765"));
        for bad in ["", "http://x.example", "*", "a b", "user@host", "host:port", "x.example/path"] {
            assert_eq!(parsed(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_host_without_a_port_matches_any_port_and_one_with_a_port_only_that_port() {
        let any = AllowedHost::parse("proxy.example").unwrap();
        assert!(any.matches("proxy.example", None) && any.matches("proxy.example", Some(443)));
        let one = AllowedHost::parse("proxy.example:8443").unwrap();
        assert!(one.matches("proxy.example", Some(8443)) && !one.matches("proxy.example", Some(80)));
        assert!(!any.matches("proxy.example.evil.com", None));
    }

    #[test]
    fn origins_must_be_http_or_https_urls() {
        assert_eq!(origin_host("http://localhost:3000"), Some(("localhost".into(), Some(3000))));
        assert_eq!(origin_host("https://[::1]"), Some(("::1".into(), None)));
        assert_eq!(origin_host("null"), None);
        assert_eq!(origin_host("file:///etc/passwd"), None);
    }
}
