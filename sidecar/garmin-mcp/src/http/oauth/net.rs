//! Who is asking, as far as rate limits go, and the limits themselves.
//!
//! Behind a tunnel every request arrives from 127.0.0.1, so the tunnel's `X-Forwarded-For` (or
//! `Forwarded: for=`) names the real client; it is believed only when the connection itself comes
//! from loopback (a tunnel on this computer), and then only its last entry (what the tunnel saw;
//! earlier entries are whatever the client wrote). From anywhere else the headers are ignored.
//! [`is_direct_local`] tells the owner's own programs (loopback, no forwarding headers) from
//! anything that came through a tunnel.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::http::HeaderMap;

use super::lock;

/// Headers a reverse proxy or tunnel adds to say who the client was.
const FORWARDING_HEADERS: &[&str] = &[
    "forwarded",
    "x-forwarded-for",
    "x-real-ip",
    "cf-connecting-ip",
    "x-forwarded-host",
    "tailscale-user-login",
];

/// The address to rate-limit on: the peer, or the forwarded client when the peer is loopback.
pub(crate) fn client_address(peer: Option<SocketAddr>, headers: &HeaderMap) -> IpAddr {
    let Some(peer) = peer else { return IpAddr::from([0, 0, 0, 0]) };
    if !peer.ip().is_loopback() {
        return peer.ip();
    }
    forwarded_for(headers).unwrap_or(peer.ip())
}

/// Whether the request came straight from a program on this computer (not through a tunnel).
pub(crate) fn is_direct_local(peer: Option<SocketAddr>, headers: &HeaderMap) -> bool {
    peer.is_some_and(|p| p.ip().is_loopback()) && FORWARDING_HEADERS.iter().all(|h| !headers.contains_key(*h))
}

fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    if let Some(last) = headers.get_all("x-forwarded-for").iter().next_back()
        && let Some(entry) = last.to_str().ok().and_then(|v| v.rsplit(',').next())
    {
        return parse_node(entry);
    }
    let forwarded = headers.get_all("forwarded").iter().next_back()?.to_str().ok()?;
    let element = forwarded.rsplit(',').next()?;
    element.split(';').find_map(|pair| {
        let (key, value) = pair.split_once('=')?;
        key.trim().eq_ignore_ascii_case("for").then(|| parse_node(value)).flatten()
    })
}

/// `1.2.3.4`, `1.2.3.4:5678`, `[::1]:80`, `"[2001:db8::1]"`.
fn parse_node(value: &str) -> Option<IpAddr> {
    let value = value.trim().trim_matches('"');
    if let Ok(ip) = value.parse() {
        return Some(ip);
    }
    if let Ok(socket) = value.parse::<SocketAddr>() {
        return Some(socket.ip());
    }
    value.trim_start_matches('[').split(']').next()?.parse().ok()
}

/// What a limit allows: `count` events per `window` per client address.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rate {
    pub(crate) count: u32,
    pub(crate) window: Duration,
}

/// `/register` per address.
pub(crate) const REGISTER_RATE: Rate = Rate { count: 10, window: Duration::from_secs(600) };
/// `/authorize` page views per address.
pub(crate) const AUTHORIZE_RATE: Rate = Rate { count: 30, window: Duration::from_secs(600) };
/// `/token` and `/revoke` per address.
pub(crate) const TOKEN_RATE: Rate = Rate { count: 60, window: Duration::from_secs(60) };
/// Addresses remembered per limit; past it the counts start over (bounded memory).
const MAX_TRACKED: usize = 10_000;

/// (limit, address) → (start of the window, events in it).
type Windows = HashMap<(&'static str, IpAddr), (Instant, u32)>;

/// Fixed-window counters per (limit, address).
#[derive(Debug, Default)]
pub(crate) struct Throttle {
    windows: Mutex<Windows>,
}

impl Throttle {
    /// Counts one event; `Err(retry after)` when the address is over `rate`.
    pub(crate) fn check(&self, name: &'static str, rate: Rate, address: IpAddr) -> Result<(), Duration> {
        let now = Instant::now();
        let mut windows = lock(&self.windows);
        if windows.len() >= MAX_TRACKED {
            windows.retain(|_, (start, _)| now.duration_since(*start) < rate.window);
            if windows.len() >= MAX_TRACKED {
                windows.clear();
            }
        }
        let entry = windows.entry((name, address)).or_insert((now, 0));
        if now.duration_since(entry.0) >= rate.window {
            *entry = (now, 0);
        }
        if entry.1 >= rate.count {
            return Err(rate.window.saturating_sub(now.duration_since(entry.0)));
        }
        entry.1 += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.append(axum::http::HeaderName::from_bytes(k.as_bytes()).unwrap(), v.parse().unwrap());
        }
        map
    }

    #[test]
    fn forwarded_headers_are_believed_only_from_loopback_and_only_their_last_entry() {
        let tunnel: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let stranger: SocketAddr = "203.0.113.9:5000".parse().unwrap();
        let spoofed = headers(&[("x-forwarded-for", "10.9.9.9, 198.51.100.7")]);
        assert_eq!(client_address(Some(tunnel), &spoofed), "198.51.100.7".parse::<IpAddr>().unwrap());
        assert_eq!(client_address(Some(stranger), &spoofed), stranger.ip());
        let rfc = headers(&[("forwarded", r#"for=1.1.1.1, for="[2001:db8::7]:443";proto=https"#)]);
        assert_eq!(client_address(Some(tunnel), &rfc), "2001:db8::7".parse::<IpAddr>().unwrap());
        assert_eq!(client_address(Some(tunnel), &HeaderMap::new()), tunnel.ip());
        assert!(is_direct_local(Some(tunnel), &HeaderMap::new()));
        assert!(!is_direct_local(Some(tunnel), &spoofed));
        assert!(!is_direct_local(Some(stranger), &HeaderMap::new()));
    }

    #[test]
    fn a_rate_counts_per_address_and_says_when_to_retry() {
        let throttle = Throttle::default();
        let rate = Rate { count: 2, window: Duration::from_secs(60) };
        let a: IpAddr = "198.51.100.1".parse().unwrap();
        let b: IpAddr = "198.51.100.2".parse().unwrap();
        assert!(throttle.check("t", rate, a).is_ok() && throttle.check("t", rate, a).is_ok());
        let retry = throttle.check("t", rate, a).unwrap_err();
        assert!(retry > Duration::from_secs(58) && retry <= Duration::from_secs(60));
        assert!(throttle.check("t", rate, b).is_ok());
        assert!(throttle.check("other", rate, a).is_ok());
    }
}
