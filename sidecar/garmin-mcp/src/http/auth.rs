//! Who may call `--http`, and as whom.
//!
//! * The static bearer token: from `--token`, `--token-file` that only its owner may read, or by
//!   default [`TOKEN_FILE_NAME`] in the data folder, generated on first start. It is compared in
//!   constant time and never printed: its `Debug` is redacted and no message here quotes it. It
//!   keeps working for local clients when OAuth is on.
//! * With `--public-url`, OAuth access tokens of [`super::oauth`] too: a `401` then points to the
//!   protected-resource metadata (`WWW-Authenticate: Bearer resource_metadata=…, scope=…`), and a
//!   grant without `garmin:write` that calls a write tool gets `403 insufficient_scope` (the server
//!   also hides those tools from its `tools/list`, see [`Scopes`]). Tokens in the query string are
//!   never accepted.
//! * Without OAuth, discovery and registration paths get a plain 404 ([`no_oauth`]): a 401 there
//!   makes clients attempt OAuth.
//!
//! Every authenticated request carries a [`ClientKey`] naming its caller, which the per-client
//! caps key on.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq as _;

use super::oauth::{self, OAuth};
use crate::caller::{ClientKey, Peer, Scopes};

/// Shortest token accepted: anything shorter could be guessed over the network.
pub const MIN_TOKEN_LEN: usize = 16;
/// The default token file in the data folder. The desktop app's remote access uses the same file
/// and format (64 hex digits, mode 0600), so either can create it and both agree on the token.
pub const TOKEN_FILE_NAME: &str = "remote-token";
/// Random bytes in a generated token.
const TOKEN_BYTES: usize = 32;

/// A bearer token. Built unchecked from the command line (so clap never echoes it in an error);
/// [`Token::validated`] checks it before use.
#[derive(Clone)]
pub struct Token(Arc<str>);

impl From<String> for Token {
    fn from(value: String) -> Self {
        Token(value.into())
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

impl Token {
    /// The token with surrounding white space removed, if it is long enough and fits in an HTTP
    /// header; the error says what is wrong without quoting it.
    pub fn validated(self) -> Result<Token, String> {
        let trimmed = self.0.trim();
        if trimmed.chars().count() < MIN_TOKEN_LEN {
            return Err(format!(
                "the token is too short: use at least {MIN_TOKEN_LEN} random characters (for example \
                 the output of `openssl rand -hex 32`)"
            ));
        }
        if !trimmed.bytes().all(|b| b.is_ascii_graphic()) {
            return Err("the token may only contain visible ASCII characters (no spaces): for example \
                        the output of `openssl rand -hex 32`"
                .to_owned());
        }
        Ok(Token(trimmed.into()))
    }

    /// Reads and checks the token file; refuses a file other users could read.
    pub fn from_file(path: &Path) -> Result<Token, String> {
        let shown = path.display();
        let metadata =
            std::fs::metadata(path).map_err(|e| format!("cannot read the token file {shown}: {e}"))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = metadata.permissions().mode() & 0o777;
            if mode & 0o077 != 0 {
                return Err(format!(
                    "the token file {shown} can be read by other users (mode {mode:o}); make it private \
                     with `chmod 600 {shown}` and start again"
                ));
            }
        }
        #[cfg(not(unix))]
        let _ = metadata;
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read the token file {shown}: {e}"))?;
        Token::from(text).validated().map_err(|e| format!("{shown}: {e}"))
    }

    /// The token in `dir`'s [`TOKEN_FILE_NAME`], generated (32 random bytes as hex, file mode
    /// 0600, folder created 0700) when the file does not exist yet. An existing file must be
    /// private and hold a usable token, like `--token-file`. Returns the file and the token.
    pub fn load_or_create(dir: &Path) -> Result<(std::path::PathBuf, Token), String> {
        let path = dir.join(TOKEN_FILE_NAME);
        if !path.exists() {
            create_private(dir, &path)?;
        }
        let token = Token::from_file(&path)?;
        Ok((path, token))
    }

    /// Constant-time comparison with what a client presented.
    fn matches(&self, presented: &str) -> bool {
        bool::from(self.0.as_bytes().ct_eq(presented.as_bytes()))
    }
}

fn create_private(dir: &Path, path: &Path) -> Result<(), String> {
    use std::io::Write as _;
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes)
        .map_err(|e| format!("cannot generate a token: the system's random source failed ({e})"))?;
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let mut folder = std::fs::DirBuilder::new();
    folder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut folder, 0o700);
    folder.create(dir).map_err(|e| format!("cannot create the data folder {}: {e}", dir.display()))?;
    let partial = dir.join(format!("{TOKEN_FILE_NAME}.new"));
    let _ = std::fs::remove_file(&partial);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options.open(&partial).and_then(|mut file| {
        file.write_all(format!("{token}\n").as_bytes())?;
        file.sync_all()
    });
    written
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|e| format!("cannot save the token in {}: {e}", path.display()))
}

/// The token in an `Authorization: Bearer <token>` header (scheme name case-insensitive).
fn bearer(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// What the authentication layer checks against.
#[derive(Debug)]
pub(super) struct Auth {
    pub(super) token: Option<Token>,
    pub(super) oauth: Option<Arc<OAuth>>,
}

/// Middleware: 401 unless the request carries the static token or (with OAuth) a valid access
/// token for this server; OAuth's own paths pass (they check their own). With no token and no
/// OAuth (`--no-token`, loopback only) everything passes.
pub(super) async fn require_bearer(
    State(auth): State<Arc<Auth>>,
    mut request: Request,
    next: Next,
) -> Response {
    if auth.oauth.is_some() && oauth::is_own_path(request.uri().path()) {
        return next.run(request).await;
    }
    let Some(token) = &auth.token else {
        return next.run(request).await;
    };
    let presented =
        request.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(bearer);
    if presented.is_some_and(|p| token.matches(p)) {
        request.extensions_mut().insert(ClientKey("token".to_owned()));
        return next.run(request).await;
    }
    if let (Some(oauth), Some(presented)) = (&auth.oauth, presented)
        && let Some(verified) = oauth.verify(presented)
    {
        request.extensions_mut().insert(ClientKey(format!("oauth:{}", verified.grant)));
        request.extensions_mut().insert(Scopes { write: verified.write });
        if !verified.write {
            return within_scope(oauth, request, next).await;
        }
        return next.run(request).await;
    }
    let peer = request.extensions().get::<Peer>().map(|p| p.0.to_string()).unwrap_or_default();
    tracing::info!(%peer, token_presented = presented.is_some(), "refused a request without the right bearer token");
    let in_query = request
        .uri()
        .query()
        .is_some_and(|q| url::form_urlencoded::parse(q.as_bytes()).any(|(k, _)| k == "access_token"));
    unauthorized(auth.oauth.as_deref(), presented.is_some(), in_query)
}

fn unauthorized(oauth: Option<&OAuth>, presented: bool, in_query: bool) -> Response {
    let (error, message) = match (presented, in_query) {
        (_, true) => (
            Some(("invalid_request", "tokens in the URL are not accepted")),
            "Unauthorized: tokens are never accepted in the URL (they end up in logs); send the header \
             `Authorization: Bearer <token>`.",
        ),
        (true, false) => (
            Some(("invalid_token", "the token is wrong, expired or revoked")),
            "Unauthorized: the bearer token is wrong, expired or revoked.",
        ),
        (false, false) => (
            None,
            "Unauthorized: send the header `Authorization: Bearer <token>` with the token garmin-mcp was started with \
             (by default the file `remote-token` in its data folder).",
        ),
    };
    let challenge = match oauth {
        Some(oauth) => oauth::metadata::challenge(&oauth.urls, error),
        None => match error {
            Some((code, _)) => format!(r#"Bearer realm="garmin-mcp", error="{code}""#),
            None => r#"Bearer realm="garmin-mcp""#.to_owned(),
        },
    };
    let mut response =
        (StatusCode::UNAUTHORIZED, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], message)
            .into_response();
    if let Ok(value) = header::HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// For a read-only grant: a POST that calls a write tool gets `403 insufficient_scope` with a
/// scope challenge (the body is read here, within the same limits as everywhere, and handed on).
async fn within_scope(oauth: &OAuth, request: Request, next: Next) -> Response {
    if request.method() != axum::http::Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let limited = http_body_util::Limited::new(body, super::MAX_BODY_BYTES);
    let refused = |status: StatusCode, message: &'static str| {
        (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], message).into_response()
    };
    let read =
        tokio::time::timeout(super::BODY_READ_TIMEOUT, http_body_util::BodyExt::collect(limited)).await;
    let bytes = match read {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            return refused(
                StatusCode::PAYLOAD_TOO_LARGE,
                "Payload Too Large: request bodies are limited to 1 MiB",
            );
        }
        Ok(Err(_)) => return refused(StatusCode::BAD_REQUEST, "Bad Request: the request body is malformed"),
        Err(_) => {
            return refused(StatusCode::REQUEST_TIMEOUT, "Request Timeout: the body did not arrive in time");
        }
    };
    if let Some(tool) = called_tools(&bytes).into_iter().find(|t| oauth.is_write_tool(t)) {
        tracing::info!(tool = %tool, "a read-only grant called a write tool");
        let mut response = (
            StatusCode::FORBIDDEN,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!(
                "Forbidden: `{tool}` changes your Garmin data, and this connection was approved to read only. \
                 Reconnect the client and tick write access on the approval page to use it."
            ),
        )
            .into_response();
        if let Ok(value) = header::HeaderValue::from_str(&oauth::metadata::insufficient_scope(&oauth.urls)) {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, value);
        }
        return response;
    }
    next.run(Request::from_parts(parts, axum::body::Body::from(bytes))).await
}

/// The tool names of the `tools/call` requests in a JSON-RPC body (one message or a batch).
fn called_tools(body: &[u8]) -> Vec<String> {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else { return Vec::new() };
    let messages = match value {
        serde_json::Value::Array(items) => items,
        one => vec![one],
    };
    messages
        .iter()
        .filter(|m| m.get("method").and_then(serde_json::Value::as_str) == Some("tools/call"))
        .filter_map(|m| m.pointer("/params/name").and_then(serde_json::Value::as_str).map(str::to_owned))
        .collect()
}

/// Middleware: without OAuth, OAuth discovery (`/.well-known/oauth-*`,
/// `/.well-known/openid-configuration`) and dynamic client registration (`/register`) answer 404
/// with what to do instead, with or without a token, so a client does not report a failed OAuth
/// registration.
pub(super) async fn no_oauth(State(auth): State<Arc<Auth>>, request: Request, next: Next) -> Response {
    let path = request.uri().path();
    let oauth = path.starts_with("/.well-known/oauth")
        || path.starts_with("/.well-known/openid-configuration")
        || path == "/register";
    if !oauth || auth.oauth.is_some() {
        return next.run(request).await;
    }
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "Not found: garmin-mcp does not use OAuth here (start it with --public-url to let hosted assistants sign in). \
         Send the header `Authorization: Bearer <token>` with the token garmin-mcp was started with (by default in \
         the file `remote-token` of its data folder).",
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_must_be_long_visible_ascii_and_errors_never_quote_them() {
        let short = "abc123";
        let err = Token::from(short.to_owned()).validated().unwrap_err();
        assert!(err.contains("too short") && !err.contains(short), "{err}");
        let spaced = "correct horse battery staple";
        let err = Token::from(spaced.to_owned()).validated().unwrap_err();
        assert!(!err.contains(spaced), "{err}");
        let token = Token::from(" 0123456789abcdef0123\n".to_owned()).validated().unwrap();
        assert!(token.matches("0123456789abcdef0123"));
        assert!(!token.matches("0123456789abcdef012") && !token.matches("0123456789abcdef01234"));
        assert_eq!(format!("{token:?}"), "Token(<redacted>)");
    }

    #[test]
    fn write_tool_calls_are_found_in_single_messages_and_batches() {
        let one = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_workout"}}"#;
        assert_eq!(called_tools(one), ["delete_workout"]);
        let batch = br#"[{"method":"tools/list"},{"method":"tools/call","params":{"name":"get_profile"}}]"#;
        assert_eq!(called_tools(batch), ["get_profile"]);
        assert!(called_tools(b"not json").is_empty());
    }

    #[test]
    fn the_bearer_scheme_is_case_insensitive_and_other_schemes_do_not_count() {
        assert_eq!(bearer("Bearer abc"), Some("abc"));
        assert_eq!(bearer("bearer  abc "), Some("abc"));
        assert_eq!(bearer("Basic abc"), None);
        assert_eq!(bearer("Bearerabc"), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_other_users_can_read_is_refused_with_the_chmod_fix() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("token");
        std::fs::write(&path, "0123456789abcdef0123456789abcdef\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        let err = Token::from_file(&path).unwrap_err();
        assert!(err.contains("chmod 600") && !err.contains("0123456789abcdef"), "{err}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert!(Token::from_file(&path).unwrap().matches("0123456789abcdef0123456789abcdef"));
    }

    #[cfg(unix)]
    #[test]
    fn the_default_token_is_generated_once_private_and_then_reused() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("new-folder");
        let (path, first) = Token::load_or_create(&data).unwrap();
        assert_eq!(path, data.join(TOKEN_FILE_NAME));
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::metadata(&data).unwrap().permissions().mode() & 0o777, 0o700);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.trim().len(), 64);
        assert!(first.matches(text.trim()));
        let (_, again) = Token::load_or_create(&data).unwrap();
        assert!(again.matches(text.trim()), "the saved token is reused");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = Token::load_or_create(&data).unwrap_err();
        assert!(err.contains("chmod 600") && !err.contains(text.trim()), "{err}");
    }
}
