//! Fetching a client's metadata document without being turned against the owner's network (SSRF):
//! HTTPS only, no redirects, no proxy, at most [`MAX_DOCUMENT_BYTES`] within [`FETCH_TIMEOUT`], and
//! only from public addresses. The host name is resolved here, every address is checked, and the
//! connection is made to exactly those addresses (reqwest's resolver override), so a name that
//! resolves to a public address when checked cannot be re-pointed at 127.0.0.1 for the connection.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// Largest metadata document accepted (real ones are a few hundred bytes).
pub(crate) const MAX_DOCUMENT_BYTES: usize = 64 * 1024;
/// The whole fetch (resolution, connection, TLS, body) must finish within this time.
pub(crate) const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// Why a document was not fetched.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum FetchError {
    /// Not an `https://` URL.
    NotHttps,
    /// The host is (or resolves to) an address that is not public.
    PrivateAddress(IpAddr),
    /// The name did not resolve.
    Unresolved(String),
    /// Larger than [`MAX_DOCUMENT_BYTES`].
    TooLarge,
    /// Took longer than allowed.
    TooSlow,
    /// Any other failure (status, TLS, connection).
    Failed(String),
}

impl std::fmt::Display for FetchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FetchError::NotHttps => f.write_str("client metadata documents are fetched over https:// only"),
            FetchError::PrivateAddress(ip) => write!(
                f,
                "its address {ip} is loopback, private, link-local or otherwise not public, and this server \
                 does not fetch from such addresses"
            ),
            FetchError::Unresolved(why) => write!(f, "its host name did not resolve ({why})"),
            FetchError::TooLarge => write!(f, "it is larger than {MAX_DOCUMENT_BYTES} bytes"),
            FetchError::TooSlow => write!(f, "it did not arrive within {} seconds", FETCH_TIMEOUT.as_secs()),
            FetchError::Failed(why) => write!(f, "fetching it failed ({why})"),
        }
    }
}

/// The metadata fetcher and its exceptions.
#[derive(Clone, Debug)]
pub(crate) struct Fetcher {
    /// `host` or `host:port` entries allowed although not public (the owner said so).
    exempt: Vec<String>,
    timeout: Duration,
    max_bytes: usize,
    /// Unit tests only: plain HTTP to an exempt host.
    #[cfg(test)]
    allow_http: bool,
}

impl Fetcher {
    pub(crate) fn new(exempt: Vec<String>) -> Fetcher {
        Fetcher {
            exempt: exempt.into_iter().map(|h| h.to_ascii_lowercase()).collect(),
            timeout: FETCH_TIMEOUT,
            max_bytes: MAX_DOCUMENT_BYTES,
            #[cfg(test)]
            allow_http: false,
        }
    }

    fn is_exempt(&self, host: &str, port: u16) -> bool {
        let host = host.trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
        self.exempt.iter().any(|e| {
            let e = e.trim_start_matches('[');
            *e == host || *e == format!("{host}:{port}") || *e == format!("{host}]:{port}")
        })
    }

    fn scheme_allowed(&self, url: &url::Url) -> bool {
        #[cfg(test)]
        if self.allow_http && url.scheme() == "http" {
            return true;
        }
        url.scheme() == "https"
    }

    /// The document's bytes, or why not.
    pub(crate) async fn fetch(&self, url: &url::Url) -> Result<Vec<u8>, FetchError> {
        match tokio::time::timeout(self.timeout, self.fetch_unbounded(url)).await {
            Ok(result) => result,
            Err(_) => Err(FetchError::TooSlow),
        }
    }

    async fn fetch_unbounded(&self, url: &url::Url) -> Result<Vec<u8>, FetchError> {
        if !self.scheme_allowed(url) {
            return Err(FetchError::NotHttps);
        }
        let port = url.port_or_known_default().unwrap_or(443);
        let host = url.host_str().ok_or(FetchError::NotHttps)?.to_owned();
        let exempt = self.is_exempt(&host, port);
        let mut client = garmin::https::client_builder()
            .map_err(|e| FetchError::Failed(e.to_string()))?
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .timeout(self.timeout)
            .user_agent(concat!("garmin-mcp/", env!("CARGO_PKG_VERSION")));
        match url.host() {
            Some(url::Host::Ipv4(ip)) => check_address(IpAddr::V4(ip), exempt)?,
            Some(url::Host::Ipv6(ip)) => check_address(IpAddr::V6(ip), exempt)?,
            _ => {
                let addresses: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), port))
                    .await
                    .map_err(|e| FetchError::Unresolved(e.to_string()))?
                    .collect();
                if addresses.is_empty() {
                    return Err(FetchError::Unresolved("no address".into()));
                }
                for address in &addresses {
                    check_address(address.ip(), exempt)?;
                }
                client = client.resolve_to_addrs(&host, &addresses);
            }
        }
        let client = client.build().map_err(|e| FetchError::Failed(e.to_string()))?;
        let mut response = client
            .get(url.as_str())
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| {
                if e.is_timeout() {
                    FetchError::TooSlow
                } else {
                    FetchError::Failed(e.without_url().to_string())
                }
            })?;
        if response.status() != reqwest::StatusCode::OK {
            return Err(FetchError::Failed(format!("HTTP status {}", response.status().as_u16())));
        }
        if response.content_length().is_some_and(|n| n > self.max_bytes as u64) {
            return Err(FetchError::TooLarge);
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| {
            if e.is_timeout() { FetchError::TooSlow } else { FetchError::Failed(e.without_url().to_string()) }
        })? {
            if body.len() + chunk.len() > self.max_bytes {
                return Err(FetchError::TooLarge);
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }
}

fn check_address(ip: IpAddr, exempt: bool) -> Result<(), FetchError> {
    if exempt || is_public(ip) { Ok(()) } else { Err(FetchError::PrivateAddress(ip)) }
}

/// Whether `ip` is a public unicast address: not loopback, private (RFC 1918, unique local),
/// link-local (which includes the cloud metadata address 169.254.169.254), shared (CGNAT),
/// documentation, benchmarking, multicast, reserved or unspecified; IPv4 inside IPv6 (mapped,
/// NAT64, 6to4) is judged by its IPv4 address.
pub(crate) fn is_public(ip: IpAddr) -> bool {
    const V4_BLOCKED: &[&str] = &[
        "0.0.0.0/8",
        "10.0.0.0/8",
        "100.64.0.0/10",
        "127.0.0.0/8",
        "169.254.0.0/16",
        "172.16.0.0/12",
        "192.0.0.0/24",
        "192.0.2.0/24",
        "192.88.99.0/24",
        "192.168.0.0/16",
        "198.18.0.0/15",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "224.0.0.0/3",
    ];
    const V6_BLOCKED: &[&str] = &[
        "::/127",
        "64:ff9b:1::/48",
        "100::/64",
        "2001::/23",
        "2001:db8::/32",
        "fc00::/7",
        "fe80::/10",
        "ff00::/8",
    ];
    let blocked = |list: &[&str], ip: IpAddr| {
        list.iter().filter_map(|net| net.parse::<ipnet::IpNet>().ok()).any(|net| net.contains(&ip))
    };
    match ip {
        IpAddr::V4(v4) => !blocked(V4_BLOCKED, IpAddr::V4(v4)),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let segments = v6.segments();
            // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) carry an IPv4 address.
            if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                let [a, b] = segments[6].to_be_bytes();
                let [c, d] = segments[7].to_be_bytes();
                return is_public(IpAddr::V4(std::net::Ipv4Addr::new(a, b, c, d)));
            }
            if segments[0] == 0x2002 {
                let [a, b] = segments[1].to_be_bytes();
                let [c, d] = segments[2].to_be_bytes();
                return is_public(IpAddr::V4(std::net::Ipv4Addr::new(a, b, c, d)));
            }
            // IPv4-compatible (::a.b.c.d, deprecated) addresses are refused outright.
            if segments[..6] == [0; 6] {
                return false;
            }
            !blocked(V6_BLOCKED, IpAddr::V6(v6))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    #[test]
    fn only_public_addresses_count_as_public() {
        for public in ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.20.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.100.100.100",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "::7f00:1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
    }

    /// A plain-HTTP server on loopback that answers every connection with `answer` after `delay`.
    async fn serve_once(answer: Vec<u8>, delay: Duration) -> (u16, tokio::task::JoinHandle<usize>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let task = tokio::spawn(async move {
            let mut served = 0;
            while let Ok(Ok((mut stream, _))) =
                tokio::time::timeout(Duration::from_secs(5), listener.accept()).await
            {
                served += 1;
                let mut request = [0u8; 2048];
                let _ = stream.read(&mut request).await;
                tokio::time::sleep(delay).await;
                let _ = stream.write_all(&answer).await;
            }
            served
        });
        (port, task)
    }

    fn test_fetcher(port: u16) -> Fetcher {
        let mut fetcher = Fetcher::new(vec![format!("127.0.0.1:{port}")]);
        fetcher.allow_http = true;
        fetcher.timeout = Duration::from_millis(500);
        fetcher
    }

    #[tokio::test]
    async fn metadata_url_pointing_at_loopback_metadata_or_private_addresses_is_refused() {
        let (port, _server) =
            serve_once(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}".to_vec(), Duration::ZERO).await;
        let fetcher = Fetcher::new(Vec::new());
        for url in [
            format!("https://127.0.0.1:{port}/client.json"),
            "https://169.254.169.254/latest/meta-data/".to_owned(),
            "https://10.0.0.1/client.json".to_owned(),
            "https://[::1]/client.json".to_owned(),
            format!("https://localhost:{port}/client.json"),
        ] {
            let err = fetcher.fetch(&url::Url::parse(&url).unwrap()).await.unwrap_err();
            assert!(matches!(err, FetchError::PrivateAddress(_)), "{url}: {err:?}");
        }
        assert_eq!(
            fetcher.fetch(&url::Url::parse("http://example.com/c.json").unwrap()).await.unwrap_err(),
            FetchError::NotHttps
        );
    }

    #[tokio::test]
    async fn oversized_client_metadata_is_refused() {
        let mut declared = b"HTTP/1.1 200 OK\r\ncontent-length: 70000\r\n\r\n".to_vec();
        declared.extend(std::iter::repeat_n(b' ', 70_000));
        let (port, _server) = serve_once(declared, Duration::ZERO).await;
        let url = url::Url::parse(&format!("http://127.0.0.1:{port}/c.json")).unwrap();
        assert_eq!(test_fetcher(port).fetch(&url).await.unwrap_err(), FetchError::TooLarge);
        // Without a length: streamed until the limit is passed.
        let mut chunked = b"HTTP/1.1 200 OK\r\nconnection: close\r\n\r\n".to_vec();
        chunked.extend(std::iter::repeat_n(b' ', 70_000));
        let (port, _server) = serve_once(chunked, Duration::ZERO).await;
        let url = url::Url::parse(&format!("http://127.0.0.1:{port}/c.json")).unwrap();
        assert_eq!(test_fetcher(port).fetch(&url).await.unwrap_err(), FetchError::TooLarge);
    }

    #[tokio::test]
    async fn slow_client_metadata_is_refused() {
        let answer = b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}".to_vec();
        let (port, _server) = serve_once(answer, Duration::from_secs(3)).await;
        let url = url::Url::parse(&format!("http://127.0.0.1:{port}/c.json")).unwrap();
        let started = std::time::Instant::now();
        assert_eq!(test_fetcher(port).fetch(&url).await.unwrap_err(), FetchError::TooSlow);
        assert!(started.elapsed() < Duration::from_secs(3), "the fetch gave up at its limit");
    }

    #[tokio::test]
    async fn an_exempt_host_is_fetched_and_redirects_are_not_followed() {
        let (port, _server) =
            serve_once(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}".to_vec(), Duration::ZERO).await;
        let url = url::Url::parse(&format!("http://127.0.0.1:{port}/c.json")).unwrap();
        assert_eq!(test_fetcher(port).fetch(&url).await.unwrap(), b"{}");
        let redirect =
            format!("HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:{port}/x\r\ncontent-length: 0\r\n\r\n");
        let (port, _server) = serve_once(redirect.into_bytes(), Duration::ZERO).await;
        let url = url::Url::parse(&format!("http://127.0.0.1:{port}/c.json")).unwrap();
        assert!(matches!(test_fetcher(port).fetch(&url).await.unwrap_err(), FetchError::Failed(_)));
    }
}
