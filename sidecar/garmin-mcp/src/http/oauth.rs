//! The OAuth 2.1 authorization server of `garmin-mcp --http --public-url URL`, for one owner: how
//! claude.ai, ChatGPT and the other hosted assistants (which accept OAuth or nothing) reach this
//! computer's Garmin data through a tunnel, and only after the owner said yes on a device they hold.
//!
//! * Discovery ([`metadata`]): protected-resource metadata (RFC 9728) and authorization-server
//!   metadata (RFC 8414, also at the OpenID discovery path); the public URL is the issuer, and its
//!   `/mcp` the resource every token is bound to.
//! * Clients ([`clients`]): pinned metadata documents of the big hosts, other URL client ids
//!   fetched without reaching private addresses ([`fetch`]), dynamic registration as the bounded,
//!   rate-limited fallback ([`register`]).
//! * `/authorize` ([`authorize`], page in [`page`]): code flow with PKCE S256 only, `resource`
//!   required; the owner approves with a click in the desktop app or a 6-digit pairing code
//!   ([`pairing`]) the app and the terminal show; the redirect carries `iss` (RFC 9207).
//! * `/token` and `/revoke` ([`token`]): codes are single-use and live 60 s; access tokens an hour;
//!   refresh tokens rotate, and a used one presented again revokes its grant. Tokens are opaque and
//!   kept only as SHA-256 hashes in a 0600 file of the data folder ([`grants`]); none is logged.
//! * The owner's API ([`owner`]): what the app and `garmin-mcp remote …` use on this computer.
//!
//! Forwarded headers are believed only from a loopback peer (the tunnel) and only to tell clients
//! apart for rate limits ([`net`]); URLs always come from `--public-url`, never from headers.

mod authorize;
mod clients;
mod fetch;
pub(crate) mod grants;
pub(crate) mod metadata;
mod net;
mod owner;
mod page;
mod pairing;
mod register;
mod token;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};
use base64::Engine as _;
use sha2::Digest as _;

pub use grants::GRANTS_FILE_NAME;

/// The scope every grant has: read the athlete's data.
pub const READ_SCOPE: &str = "garmin:read";
/// The scope the owner may add on the consent page: write tools (still confirmed per write).
pub const WRITE_SCOPE: &str = "garmin:write";
/// Authorization codes live this long and are used once.
pub const CODE_LIFETIME: Duration = Duration::from_secs(60);
/// Access tokens live this long.
pub const ACCESS_TOKEN_LIFETIME: Duration = Duration::from_secs(3600);
/// A refresh token not used for this long expires (each use rotates it and starts again).
pub const REFRESH_TOKEN_LIFETIME: Duration = Duration::from_secs(30 * 24 * 3600);
/// A consent page must be answered within this time.
pub const CONSENT_LIFETIME: Duration = Duration::from_secs(600);

/// What `--public-url` and friends configure.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The origin hosts reach this server at (`https://name.example`), checked by [`PublicUrl`].
    pub public_url: PublicUrl,
    /// The data folder: grants, the lock and the owner's control file live there.
    pub data_dir: PathBuf,
    /// Hosts (`name` or `name:port`) whose client metadata documents may be fetched although they
    /// resolve to private or loopback addresses (hidden `--allow-client-metadata-host`, for tests
    /// and a metadata document served on the home network).
    pub metadata_hosts: Vec<String>,
}

/// The public origin: `https://host[:port]` (or `http://` for a loopback host, for trying it out on
/// this computer), without a path, query or user name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl {
    origin: String,
    host: String,
    port: Option<u16>,
    https: bool,
}

impl PublicUrl {
    /// Parses and checks `--public-url`; the error says what is wrong and what to give instead.
    pub fn parse(value: &str) -> Result<PublicUrl, String> {
        let url = url::Url::parse(value.trim()).map_err(|e| {
            format!("--public-url `{value}` is not a URL ({e}); give the tunnel's address, e.g. https://my-pc.tail1234.ts.net")
        })?;
        let host = url.host_str().unwrap_or_default().to_owned();
        let loopback = matches!(url.host(), Some(url::Host::Domain("localhost")))
            || match url.host() {
                Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
                Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
                _ => false,
            };
        let https = url.scheme() == "https";
        if !(https || (url.scheme() == "http" && loopback)) {
            return Err(format!(
                "--public-url `{value}` must start with https:// (hosted assistants only connect over HTTPS; \
                 http:// is accepted for localhost only)"
            ));
        }
        if host.is_empty() || !url.username().is_empty() || url.password().is_some() {
            return Err(format!("--public-url `{value}` needs a host name and no user name or password"));
        }
        if url.path() != "/" || url.query().is_some() || url.fragment().is_some() {
            return Err(format!(
                "--public-url `{value}` must be an origin only (like https://my-pc.tail1234.ts.net): MCP is \
                 served at its /mcp, which hosts require exactly"
            ));
        }
        let port = url.port();
        let origin = url.origin().ascii_serialization();
        Ok(PublicUrl { origin, host, port, https })
    }

    /// `https://host[:port]`, the issuer.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The host name clients put in `Host` (for the Host/Origin allowlist).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The port in the URL, when it names one.
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The MCP endpoint hosts connect to, `https://host/mcp`: the resource every token is for.
    pub fn resource(&self) -> String {
        format!("{}{}", self.origin, super::MCP_PATH)
    }
}

/// The issuer and the URLs it publishes.
#[derive(Clone, Debug)]
pub(crate) struct Urls {
    pub(crate) issuer: String,
    pub(crate) resource: String,
    pub(crate) resource_metadata: String,
    pub(crate) https: bool,
}

impl Urls {
    fn of(public: &PublicUrl) -> Urls {
        Urls {
            issuer: public.origin.clone(),
            resource: public.resource(),
            resource_metadata: format!(
                "{}/.well-known/oauth-protected-resource{}",
                public.origin,
                super::MCP_PATH
            ),
            https: public.https,
        }
    }

    fn endpoint(&self, path: &str) -> String {
        format!("{}{path}", self.issuer)
    }
}

/// The authorization server's state: shared by its endpoints and the `/mcp` token check.
pub(crate) struct OAuth {
    pub(crate) urls: Urls,
    grants: grants::Store,
    clients: clients::Registry,
    flows: Mutex<authorize::Flows>,
    pairing: Mutex<pairing::Pairing>,
    throttle: net::Throttle,
    owner: owner::Owner,
    /// Tools that change Garmin data: a grant without [`WRITE_SCOPE`] may neither list nor call them.
    write_tools: HashSet<String>,
}

impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth").field("issuer", &self.urls.issuer).finish_non_exhaustive()
    }
}

/// What a valid access token is for.
#[derive(Clone, Debug)]
pub(crate) struct Verified {
    pub(crate) grant: String,
    pub(crate) write: bool,
}

impl OAuth {
    /// Opens the grants (taking the data folder's lock: one server per folder) and prepares the
    /// endpoints.
    pub(crate) fn open(settings: &Settings, write_tools: HashSet<String>) -> Result<OAuth, String> {
        let grants = grants::Store::open(&settings.data_dir)?;
        let fetcher = fetch::Fetcher::new(settings.metadata_hosts.clone());
        let mut pairing = pairing::Pairing::default();
        pairing.issue(std::time::Instant::now());
        Ok(OAuth {
            urls: Urls::of(&settings.public_url),
            grants,
            clients: clients::Registry::new(fetcher),
            flows: Mutex::default(),
            pairing: Mutex::new(pairing),
            throttle: net::Throttle::default(),
            owner: owner::Owner::new(&settings.data_dir)?,
            write_tools,
        })
    }

    /// Says where the owner's API listens (`http://127.0.0.1:PORT`), in the control file the app
    /// and `garmin-mcp remote …` read.
    pub(crate) fn publish_control(&self, local_origin: &str) -> Result<(), String> {
        self.owner.publish(local_origin)
    }

    /// The pairing code made at start, for the terminal (valid [`pairing::CODE_LIFETIME`]).
    pub(crate) fn startup_code(&self) -> Option<String> {
        lock(&self.pairing).first_code()
    }

    /// Checks an access token presented at `/mcp`.
    pub(crate) fn verify(&self, token: &str) -> Option<Verified> {
        self.grants.verify_access(token, &self.urls.resource, now())
    }

    /// Whether `tool` changes Garmin data.
    pub(crate) fn is_write_tool(&self, tool: &str) -> bool {
        self.write_tools.contains(tool)
    }

    /// Writes what changed since the last save (last-use times), e.g. at shutdown.
    pub(crate) fn flush(&self) {
        self.grants.flush();
    }
}

/// The authorization server's routes (outside `/mcp`; no bearer needed, each checks its own).
pub(crate) fn routes(oauth: std::sync::Arc<OAuth>) -> Router {
    Router::new()
        .route("/.well-known/oauth-protected-resource", get(metadata::protected_resource))
        .route("/.well-known/oauth-protected-resource/mcp", get(metadata::protected_resource))
        .route("/.well-known/oauth-authorization-server", get(metadata::authorization_server))
        .route("/.well-known/oauth-authorization-server/mcp", get(metadata::authorization_server))
        .route("/.well-known/openid-configuration", get(metadata::authorization_server))
        .route("/.well-known/openid-configuration/mcp", get(metadata::authorization_server))
        .route("/authorize", get(authorize::show).post(authorize::decide))
        .route("/authorize/status", get(authorize::status))
        .route("/token", post(token::exchange))
        .route("/revoke", post(token::revoke))
        .route("/register", post(register::register))
        .with_state(oauth.clone())
        .merge(owner::routes(oauth))
}

/// Whether `path` belongs to the authorization server (the bearer check lets these through).
pub(crate) fn is_own_path(path: &str) -> bool {
    path.starts_with("/.well-known/oauth")
        || path.starts_with("/.well-known/openid-configuration")
        || matches!(path, "/authorize" | "/authorize/status" | "/token" | "/revoke" | "/register")
        || path.starts_with(owner::PREFIX)
}

/// Seconds since the Unix epoch (what the grants file records).
pub(crate) fn now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// `bytes` random bytes from the operating system, base64url without padding, after `prefix`.
pub(crate) fn random_secret(prefix: &str, bytes: usize) -> String {
    let mut buffer = vec![0u8; bytes];
    // The OS random source failing is not something a server can go on without.
    getrandom::fill(&mut buffer).unwrap_or_else(|e| panic!("the system's random source failed: {e}"));
    format!("{prefix}{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(buffer))
}

/// SHA-256 of a secret, as hex: how tokens and codes are kept.
pub(crate) fn hash(secret: &str) -> String {
    let digest = sha2::Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Constant-time equality of two secrets.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    use subtle::ConstantTimeEq as _;
    bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// A mutex's guard, also after a panic elsewhere (the data stays consistent: every change is one
/// assignment or one insert).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes `contents` to `path` atomically (a private temporary file in the same folder, flushed,
/// then renamed), mode 0600.
pub(crate) fn write_private(path: &Path, contents: &[u8]) -> Result<(), String> {
    use std::io::Write as _;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    let shown = path.display();
    let mut file = tempfile::NamedTempFile::new_in(dir).map_err(|e| format!("cannot write {shown}: {e}"))?;
    file.write_all(contents)
        .and_then(|()| file.as_file().sync_all())
        .map_err(|e| format!("cannot write {shown}: {e}"))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(file.path(), std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("cannot write {shown}: {e}"))?;
    }
    file.persist(path).map_err(|e| format!("cannot write {shown}: {}", e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_url_is_an_https_origin_or_a_loopback_http_one() {
        let url = PublicUrl::parse("https://My-PC.tail1234.ts.net").unwrap();
        assert_eq!(url.origin(), "https://my-pc.tail1234.ts.net");
        assert_eq!(url.resource(), "https://my-pc.tail1234.ts.net/mcp");
        assert_eq!(PublicUrl::parse("https://x.example:8443/").unwrap().port(), Some(8443));
        assert!(PublicUrl::parse("http://127.0.0.1:8765").is_ok());
        for bad in
            ["http://x.example", "https://x.example/mcp", "https://u:p@x.example", "ftp://x", "x.example"]
        {
            let err = PublicUrl::parse(bad).unwrap_err();
            assert!(err.contains(bad), "{err}");
        }
    }

    #[test]
    fn secrets_are_random_and_hashes_are_sha256_hex() {
        let a = random_secret("gma_", 32);
        assert!(a.starts_with("gma_") && a.len() == 4 + 43, "{a}");
        assert_ne!(a, random_secret("gma_", 32));
        assert_eq!(hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert!(same_secret("abc", "abc") && !same_secret("abc", "abd") && !same_secret("abc", "ab"));
    }
}
