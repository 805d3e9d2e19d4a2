//! Who a call comes from: the marks the HTTP layer puts on each request ([`ClientKey`], [`Scopes`],
//! [`Peer`]) and the rules that read them ([`client_of`], [`client_of_call`],
//! [`is_read_only_grant`]). One home for both sides, so the HTTP layer (which sets the marks) and the
//! MCP server (which reads them during a call) depend on this module, not on each other.
//!
//! Over stdio no request carries marks: the caller is the person's own client (`local`), which may
//! do everything the server offers.

use std::net::SocketAddr;

use rmcp::RoleServer;
use rmcp::service::RequestContext;

/// The authenticated caller of a request (a request extension): `"token"` for the static token,
/// `"oauth:<grant id>"` for an OAuth grant. Absent on requests without authentication.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(pub String);

/// What an OAuth grant may do (a request extension; absent for the static token, which may do
/// everything the server offers). The MCP server reads it to hide write tools from `tools/list`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scopes {
    /// The grant includes `garmin:write`.
    pub write: bool,
}

/// The remote address of the connection a request came on (a request extension; for logs and for
/// the callers that are not authenticated).
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub SocketAddr);

/// The client a request counts for, from its extensions: its authenticated caller ([`ClientKey`]),
/// else its peer address (`--no-token`, or a request whose authentication was refused). The one
/// home of this rule for every per-client cap.
pub(crate) fn client_of(extensions: &axum::http::Extensions) -> String {
    match (extensions.get::<ClientKey>(), extensions.get::<Peer>()) {
        (Some(key), _) => key.0.clone(),
        (None, Some(peer)) => format!("peer:{}", peer.0.ip()),
        (None, None) => "peer:unknown".to_owned(),
    }
}

/// The client a call counts for in per-client caps kept by the server (subscriptions): over HTTP
/// as [`client_of`] keys it; `local` over stdio (the person's own client).
pub(crate) fn client_of_call(context: &RequestContext<RoleServer>) -> String {
    match context.extensions.get::<axum::http::request::Parts>() {
        Some(parts) => client_of(&parts.extensions),
        None => "local".to_owned(),
    }
}

/// Whether this call comes with an OAuth grant that may only read ([`Scopes`] without `write`):
/// write tools are then neither listed nor run.
pub(crate) fn is_read_only_grant(context: &RequestContext<RoleServer>) -> bool {
    context
        .extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Scopes>())
        .is_some_and(|scopes| !scopes.write)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_counts_for_its_authenticated_caller_else_its_address() {
        let mut request = axum::http::Request::new(());
        assert_eq!(client_of(request.extensions()), "peer:unknown", "no marks at all");
        request.extensions_mut().insert(Peer("127.0.0.1:5000".parse().unwrap()));
        assert_eq!(client_of(request.extensions()), "peer:127.0.0.1", "without authentication: the address");
        request.extensions_mut().insert(ClientKey("oauth:grant-7".to_owned()));
        assert_eq!(
            client_of(request.extensions()),
            "oauth:grant-7",
            "authenticated: the caller, whatever its address"
        );
    }
}
