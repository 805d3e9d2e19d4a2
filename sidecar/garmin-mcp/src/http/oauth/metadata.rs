//! Discovery: the protected-resource metadata (RFC 9728) that a `401` points clients to, and the
//! authorization-server metadata (RFC 8414; the same document at the OpenID discovery path, which
//! some clients try first). Every URL is built from `--public-url`, never from request headers.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::{OAuth, READ_SCOPE, Urls, WRITE_SCOPE};

/// `GET /.well-known/oauth-protected-resource[/mcp]`.
pub(super) async fn protected_resource(State(oauth): State<Arc<OAuth>>) -> Response {
    let urls = &oauth.urls;
    cacheable(json!({
        "resource": urls.resource,
        "authorization_servers": [urls.issuer],
        "scopes_supported": [READ_SCOPE, WRITE_SCOPE],
        "bearer_methods_supported": ["header"],
        "resource_name": "Garmin MCP",
    }))
}

/// `GET /.well-known/oauth-authorization-server` and `/.well-known/openid-configuration`.
pub(super) async fn authorization_server(State(oauth): State<Arc<OAuth>>) -> Response {
    cacheable(document(&oauth.urls))
}

fn document(urls: &Urls) -> serde_json::Value {
    json!({
        "issuer": urls.issuer,
        "authorization_endpoint": urls.endpoint("/authorize"),
        "token_endpoint": urls.endpoint("/token"),
        "registration_endpoint": urls.endpoint("/register"),
        "revocation_endpoint": urls.endpoint("/revoke"),
        "scopes_supported": [READ_SCOPE, WRITE_SCOPE],
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "client_id_metadata_document_supported": true,
        "authorization_response_iss_parameter_supported": true,
    })
}

fn cacheable(body: serde_json::Value) -> Response {
    ([(header::CACHE_CONTROL, "public, max-age=300")], Json(body)).into_response()
}

/// The `WWW-Authenticate` value of a `401` at `/mcp`: where the metadata is, the scope to ask
/// for, and `error` when a token was presented.
pub(crate) fn challenge(urls: &Urls, error: Option<(&str, &str)>) -> String {
    let mut value = format!(r#"Bearer resource_metadata="{}", scope="{READ_SCOPE}""#, urls.resource_metadata);
    if let Some((code, description)) = error {
        value.push_str(&format!(r#", error="{code}", error_description="{description}""#));
    }
    value
}

/// The `WWW-Authenticate` value of a `403` for a write tool under a read-only grant (step-up).
pub(crate) fn insufficient_scope(urls: &Urls) -> String {
    format!(
        r#"Bearer error="insufficient_scope", scope="{READ_SCOPE} {WRITE_SCOPE}", resource_metadata="{}", error_description="this connection may only read; approve it again with write access to use write tools""#,
        urls.resource_metadata
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_names_the_public_url_s256_cimd_and_iss() {
        let urls = Urls::of(&super::super::PublicUrl::parse("https://pc.example").unwrap());
        let doc = document(&urls);
        assert_eq!(doc["issuer"], "https://pc.example");
        assert_eq!(doc["authorization_endpoint"], "https://pc.example/authorize");
        assert_eq!(doc["code_challenge_methods_supported"], json!(["S256"]));
        assert_eq!(doc["client_id_metadata_document_supported"], true);
        assert_eq!(doc["authorization_response_iss_parameter_supported"], true);
        let challenge = challenge(&urls, None);
        assert_eq!(
            challenge,
            r#"Bearer resource_metadata="https://pc.example/.well-known/oauth-protected-resource/mcp", scope="garmin:read""#
        );
    }
}
