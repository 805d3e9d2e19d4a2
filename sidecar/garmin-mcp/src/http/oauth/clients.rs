//! Who a `client_id` is and where it may be sent back to.
//!
//! * An HTTPS URL is a Client ID Metadata Document. The big hosts' documents are pinned here
//!   ([`pinned`]), because some of them answer server-side fetches with a bot challenge; any other
//!   is fetched by [`super::fetch`] (public addresses only, small, quick) and cached for an hour.
//! * Anything else is a client registered here by `/register` (RFC 7591): kept in memory until
//!   the owner approves it (bounded, see [`super::register`]), then with its grant.
//!
//! A redirect URI must be one the client declared, compared exactly; a loopback `http://` one may
//! use any port (RFC 8252 §7.3: native apps listen on a free port). Nothing else is ever a target:
//! an unknown client or redirect gets an error page, never a redirect (no open redirector).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::fetch::{FetchError, Fetcher};
use super::lock;

/// How long a fetched metadata document is trusted before it is fetched again.
const DOCUMENT_CACHE_LIFETIME: Duration = Duration::from_secs(3600);
/// Fetched documents kept at most.
const MAX_CACHED_DOCUMENTS: usize = 50;
/// Longest client name kept (the page and the app shorten it further).
const MAX_NAME_CHARS: usize = 100;
/// Redirect URIs a client may declare.
pub(crate) const MAX_REDIRECT_URIS: usize = 10;

/// How a client came to be known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ClientKind {
    /// One of the documents shipped in [`pinned`].
    Pinned,
    /// A metadata document fetched from its URL.
    MetadataDocument,
    /// Registered through `/register`.
    Registered,
}

/// A client: its id, the name it gives itself and its redirect URIs (for pinned clients, an entry
/// ending in `/*` stands for any one more path segment).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Client {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) redirect_uris: Vec<String>,
    pub(crate) kind: ClientKind,
}

impl Client {
    /// Whether `uri` is one of this client's redirect URIs.
    pub(crate) fn accepts_redirect(&self, uri: &str) -> bool {
        let Ok(presented) = url::Url::parse(uri) else { return false };
        if presented.fragment().is_some() {
            return false;
        }
        self.redirect_uris.iter().any(|declared| redirect_matches(declared, uri, &presented))
    }

    /// The redirect URI to use when the request names none: only when the client declared exactly
    /// one plain URI.
    pub(crate) fn only_redirect(&self) -> Option<&str> {
        match self.redirect_uris.as_slice() {
            [one] if !one.ends_with("/*") => Some(one),
            _ => None,
        }
    }
}

fn redirect_matches(declared: &str, uri: &str, presented: &url::Url) -> bool {
    if declared == uri {
        return true;
    }
    if let Some(prefix) = declared.strip_suffix('*') {
        return uri.strip_prefix(prefix).is_some_and(|rest| {
            !rest.is_empty()
                && rest.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        });
    }
    let Ok(declared) = url::Url::parse(declared) else { return false };
    // RFC 8252 §7.3: a loopback redirect matches on any port.
    is_loopback_http(&declared)
        && is_loopback_http(presented)
        && declared.host() == presented.host()
        && declared.path() == presented.path()
        && declared.query() == presented.query()
}

/// `http://127.0.0.1…`, `http://[::1]…` or `http://localhost…`.
pub(crate) fn is_loopback_http(url: &url::Url) -> bool {
    url.scheme() == "http"
        && match url.host() {
            Some(url::Host::Domain(name)) => name == "localhost",
            Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
            Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
            None => false,
        }
}

/// Whether a client may declare `uri` as a redirect: HTTPS, loopback HTTP, or an app's own
/// scheme (`cursor://…`, `com.example.app:/…`); never `javascript:`, `data:`, `file:` or plain
/// HTTP to another machine.
pub(crate) fn acceptable_redirect(uri: &str) -> bool {
    let Ok(url) = url::Url::parse(uri) else { return false };
    if url.fragment().is_some() {
        return false;
    }
    match url.scheme() {
        "https" => url.host().is_some(),
        "http" => is_loopback_http(&url),
        "javascript" | "data" | "file" | "blob" | "about" | "ftp" | "ws" | "wss" | "vbscript" => false,
        _ => true,
    }
}

/// The host or scheme a redirect URI leads to, as the page and the app show it.
pub(crate) fn redirect_target(uri: &str) -> String {
    match url::Url::parse(uri) {
        Ok(url) => match url.host_str() {
            Some(host) => match url.port() {
                Some(port) => format!("{host}:{port}"),
                None => host.to_owned(),
            },
            None => format!("{}:", url.scheme()),
        },
        Err(_) => uri.to_owned(),
    }
}

/// A client name fit for display and storage.
pub(crate) fn clean_name(name: Option<&str>, fallback: &str) -> String {
    let cleaned = name.and_then(app_bridge::clean_client_name).unwrap_or_default();
    let cleaned = app_bridge::clean_display_text(&cleaned, MAX_NAME_CHARS);
    if cleaned.is_empty() { fallback.to_owned() } else { cleaned }
}

/// The metadata documents of the big hosts, as they published them (source and date on each),
/// consulted before any fetch.
pub(crate) fn pinned(client_id: &str) -> Option<Client> {
    let client = |name: &str, redirects: &[&str]| Client {
        id: client_id.to_owned(),
        name: name.to_owned(),
        redirect_uris: redirects.iter().map(|r| (*r).to_owned()).collect(),
        kind: ClientKind::Pinned,
    };
    match client_id {
        // claude.ai, Claude Desktop and the Claude apps (document as served 2026-09-29; the callback
        // may move to claude.com, so both are accepted).
        "https://claude.ai/oauth/mcp-oauth-client-metadata" => Some(client(
            "Claude",
            &["https://claude.ai/api/mcp/auth_callback", "https://claude.com/api/mcp/auth_callback"],
        )),
        // Claude Code: loopback callbacks on any port.
        "https://claude.ai/oauth/claude-code-client-metadata" => {
            Some(client("Claude Code", &["http://localhost/callback", "http://127.0.0.1/callback"]))
        }
        // Codex: loopback callback on any port.
        "https://chatgpt.com/oauth/codex/client.json" => {
            Some(client("Codex", &["http://127.0.0.1/callback"]))
        }
        // ChatGPT: one callback per connector, and the legacy one.
        "https://chatgpt.com/oauth/client.json" => Some(client(
            "ChatGPT",
            &[
                "https://chatgpt.com/connector/oauth/*",
                "https://chatgpt.com/connector_platform_oauth_redirect",
            ],
        )),
        // VS Code: its web redirect and a loopback listener.
        "https://vscode.dev/oauth/client-metadata.json" => Some(client(
            "Visual Studio Code",
            &["https://vscode.dev/redirect", "http://127.0.0.1/", "http://localhost/"],
        )),
        _ => chatgpt_connector(client_id),
    }
}

/// ChatGPT's per-connector documents: `https://chatgpt.com/oauth/<callback id>/client.json`
/// redirect to `https://chatgpt.com/connector/oauth/<callback id>`.
fn chatgpt_connector(client_id: &str) -> Option<Client> {
    let callback = client_id.strip_prefix("https://chatgpt.com/oauth/")?.strip_suffix("/client.json")?;
    let plain = !callback.is_empty()
        && callback.len() <= 128
        && callback.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
    plain.then(|| Client {
        id: client_id.to_owned(),
        name: "ChatGPT".to_owned(),
        redirect_uris: vec![
            format!("https://chatgpt.com/connector/oauth/{callback}"),
            "https://chatgpt.com/connector_platform_oauth_redirect".to_owned(),
        ],
        kind: ClientKind::Pinned,
    })
}

/// Why a client id could not be used.
#[derive(Debug)]
pub(crate) enum ClientError {
    /// Not registered here and not a URL.
    Unknown,
    /// Its metadata document could not be used.
    Document(String),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Unknown => f.write_str(
                "this client is not known to this server (its registration expired or never happened); \
                 remove the connector in your assistant and add it again",
            ),
            ClientError::Document(why) => write!(f, "the client's metadata document was refused: {why}"),
        }
    }
}

/// Clients known to this server: registrations waiting for approval and fetched documents.
#[derive(Debug)]
pub(crate) struct Registry {
    pub(crate) registered: Mutex<HashMap<String, (Client, Instant)>>,
    documents: Mutex<HashMap<String, (Client, Instant)>>,
    fetcher: Fetcher,
}

impl Registry {
    pub(crate) fn new(fetcher: Fetcher) -> Registry {
        Registry { registered: Mutex::default(), documents: Mutex::default(), fetcher }
    }

    /// The client behind `client_id`: pinned, registered, known from a grant (`from_grants`, which
    /// looks a client id up in the saved grants), or fetched.
    pub(crate) async fn resolve(
        &self,
        client_id: &str,
        from_grants: impl FnOnce(&str) -> Option<Client>,
    ) -> Result<Client, ClientError> {
        if let Some(client) = pinned(client_id) {
            return Ok(client);
        }
        if let Some((client, _)) = lock(&self.registered).get(client_id) {
            return Ok(client.clone());
        }
        if !client_id.starts_with("https://") {
            return from_grants(client_id)
                .filter(|c| c.kind == ClientKind::Registered)
                .ok_or(ClientError::Unknown);
        }
        if let Some((client, fetched)) = lock(&self.documents).get(client_id)
            && fetched.elapsed() < DOCUMENT_CACHE_LIFETIME
        {
            return Ok(client.clone());
        }
        let client = self.fetch_document(client_id).await?;
        let mut documents = lock(&self.documents);
        documents.retain(|_, (_, fetched)| fetched.elapsed() < DOCUMENT_CACHE_LIFETIME);
        if documents.len() >= MAX_CACHED_DOCUMENTS {
            documents.clear();
        }
        documents.insert(client_id.to_owned(), (client.clone(), Instant::now()));
        Ok(client)
    }

    async fn fetch_document(&self, client_id: &str) -> Result<Client, ClientError> {
        let url =
            url::Url::parse(client_id).map_err(|e| ClientError::Document(format!("not a URL ({e})")))?;
        if url.path() == "/" || url.fragment().is_some() || !url.username().is_empty() {
            return Err(ClientError::Document(
                "a client id URL needs a path and no fragment or user name".into(),
            ));
        }
        let body =
            self.fetcher.fetch(&url).await.map_err(|e: FetchError| ClientError::Document(e.to_string()))?;
        parse_document(client_id, &body).map_err(ClientError::Document)
    }
}

#[derive(Deserialize)]
struct Document {
    client_id: String,
    #[serde(default)]
    client_name: Option<String>,
    #[serde(default)]
    redirect_uris: Vec<String>,
    #[serde(default)]
    token_endpoint_auth_method: Option<String>,
}

/// Checks a fetched metadata document: it must name itself, declare usable redirect URIs and be a
/// public client.
fn parse_document(client_id: &str, body: &[u8]) -> Result<Client, String> {
    let document: Document =
        serde_json::from_slice(body).map_err(|e| format!("it is not a client metadata document ({e})"))?;
    if document.client_id != client_id {
        return Err("its client_id is not the URL it was fetched from".into());
    }
    if document.redirect_uris.is_empty() || document.redirect_uris.len() > MAX_REDIRECT_URIS {
        return Err(format!("it must declare 1 to {MAX_REDIRECT_URIS} redirect_uris"));
    }
    if let Some(bad) = document.redirect_uris.iter().find(|u| !acceptable_redirect(u)) {
        return Err(format!(
            "its redirect URI {bad:?} is not allowed (https, loopback http or an app scheme only)"
        ));
    }
    if document.token_endpoint_auth_method.as_deref().is_some_and(|m| m != "none") {
        return Err("it asks for client authentication; this server serves public clients (token_endpoint_auth_method none)".into());
    }
    let host =
        url::Url::parse(client_id).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_default();
    Ok(Client {
        id: client_id.to_owned(),
        name: clean_name(document.client_name.as_deref(), &host),
        redirect_uris: document.redirect_uris,
        kind: ClientKind::MetadataDocument,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_hosts_accept_only_their_callbacks() {
        let claude = pinned("https://claude.ai/oauth/mcp-oauth-client-metadata").unwrap();
        assert!(claude.accepts_redirect("https://claude.ai/api/mcp/auth_callback"));
        assert!(!claude.accepts_redirect("https://claude.ai/api/mcp/auth_callback/../x"));
        assert!(!claude.accepts_redirect("https://evil.example/api/mcp/auth_callback"));
        let code = pinned("https://claude.ai/oauth/claude-code-client-metadata").unwrap();
        assert!(code.accepts_redirect("http://127.0.0.1:53682/callback"));
        assert!(code.accepts_redirect("http://localhost:8080/callback"));
        assert!(!code.accepts_redirect("http://127.0.0.1:53682/other"));
        assert!(!code.accepts_redirect("https://127.0.0.1:53682/callback"));
        let chatgpt = pinned("https://chatgpt.com/oauth/client.json").unwrap();
        assert!(chatgpt.accepts_redirect("https://chatgpt.com/connector/oauth/abc_123"));
        assert!(!chatgpt.accepts_redirect("https://chatgpt.com/connector/oauth/abc/../../x"));
        assert!(!chatgpt.accepts_redirect("https://chatgpt.com/connector/oauth/"));
        let connector = pinned("https://chatgpt.com/oauth/xyz-9/client.json").unwrap();
        assert!(connector.accepts_redirect("https://chatgpt.com/connector/oauth/xyz-9"));
        assert!(!connector.accepts_redirect("https://chatgpt.com/connector/oauth/other"));
        assert!(pinned("https://chatgpt.com/oauth/a/b/client.json").is_none());
        assert!(pinned("https://example.com/client.json").is_none());
    }

    #[test]
    fn redirect_uris_must_be_https_loopback_or_an_app_scheme() {
        for good in
            ["https://x.example/cb", "http://127.0.0.1:3000/cb", "http://[::1]/cb", "cursor://anysphere/cb"]
        {
            assert!(acceptable_redirect(good), "{good}");
        }
        for bad in [
            "http://x.example/cb",
            "javascript:alert(1)",
            "data:text/html,x",
            "https://x.example/cb#f",
            "nope",
        ] {
            assert!(!acceptable_redirect(bad), "{bad}");
        }
        assert_eq!(redirect_target("https://claude.ai/api/mcp/auth_callback"), "claude.ai");
        assert_eq!(redirect_target("http://127.0.0.1:3000/cb"), "127.0.0.1:3000");
        assert_eq!(redirect_target("cursor://anysphere/cb"), "anysphere");
    }

    #[test]
    fn a_document_must_name_itself_and_be_a_public_client() {
        let id = "https://app.example/oauth/client.json";
        let ok = format!(
            r#"{{"client_id":"{id}","client_name":"App\u202e","redirect_uris":["https://app.example/cb"]}}"#
        );
        let client = parse_document(id, ok.as_bytes()).unwrap();
        assert_eq!(client.name, "App");
        let other =
            r#"{"client_id":"https://evil.example/c.json","redirect_uris":["https://app.example/cb"]}"#;
        assert!(parse_document(id, other.as_bytes()).unwrap_err().contains("client_id"));
        let secret = format!(
            r#"{{"client_id":"{id}","redirect_uris":["https://a.example/cb"],"token_endpoint_auth_method":"client_secret_basic"}}"#
        );
        assert!(parse_document(id, secret.as_bytes()).is_err());
        let bad_redirect = format!(r#"{{"client_id":"{id}","redirect_uris":["javascript:alert(1)"]}}"#);
        assert!(parse_document(id, bad_redirect.as_bytes()).is_err());
    }
}
