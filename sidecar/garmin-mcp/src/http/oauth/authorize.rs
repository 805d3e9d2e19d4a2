//! `/authorize`: the code flow, with the owner in the loop.
//!
//! `GET` checks the request in an order that never redirects to a place the client did not
//! declare: first the client and its redirect URI (an error page otherwise), then response type,
//! PKCE S256 and the `resource` (errors redirected back, with `state` and `iss`). It then keeps a
//! pending request and shows the consent page; the browser gets a cookie and the form a CSRF
//! token, both checked on `POST`. The owner approves by typing a pairing code on the page or by
//! clicking Allow in the desktop app (which the page notices through `/authorize/status`). The
//! code that goes back is single-use and lives [`super::CODE_LIFETIME`].

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use axum::Extension;
use axum::Form;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::clients::{Client, ClientKind, redirect_target};
use super::net::{AUTHORIZE_RATE, client_address};
use super::pairing::Verdict;
use super::{
    CODE_LIFETIME, CONSENT_LIFETIME, OAuth, WRITE_SCOPE, hash, lock, page, random_secret, same_secret,
};
use crate::http::Peer;

/// The consent cookie (ties a form to the browser that opened the page).
const COOKIE: &str = "gm_consent";
/// Consent pages waiting at once; the oldest goes first.
const MAX_PENDING: usize = 20;
/// Codes remembered (issued or spent) at once.
const MAX_CODES: usize = 50;
/// A spent code is remembered this long, to revoke the grant if it comes back.
const SPENT_CODE_MEMORY: std::time::Duration = std::time::Duration::from_secs(600);

/// The owner's decision from the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Allowed, with write access or not.
    Allow {
        /// Write tools too.
        write: bool,
    },
    /// Refused.
    Deny,
}

/// A consent page waiting for the owner.
#[derive(Debug)]
pub(crate) struct Pending {
    pub(crate) id: String,
    browser: String,
    csrf: String,
    pub(crate) tag: String,
    pub(crate) client: Client,
    pub(crate) redirect_uri: String,
    state: Option<String>,
    challenge: String,
    resource: String,
    pub(crate) asks_write: bool,
    pub(crate) created: Instant,
    pub(crate) decision: Option<Decision>,
}

/// An authorization code (by hash).
#[derive(Debug)]
pub(crate) struct Code {
    hash: String,
    pub(crate) client: Client,
    pub(crate) redirect_uri: String,
    pub(crate) challenge: String,
    pub(crate) resource: String,
    pub(crate) write: bool,
    issued: Instant,
    pub(crate) spent: bool,
    /// The grant made with it, to revoke if the code comes back.
    pub(crate) grant: Option<String>,
}

impl Code {
    pub(crate) fn expired(&self) -> bool {
        self.issued.elapsed() >= CODE_LIFETIME
    }
}

/// Consent pages and codes in flight.
#[derive(Debug, Default)]
pub(crate) struct Flows {
    pub(crate) pending: Vec<Pending>,
    codes: Vec<Code>,
}

impl Flows {
    pub(crate) fn prune(&mut self) {
        self.pending.retain(|p| p.created.elapsed() < CONSENT_LIFETIME);
        self.codes.retain(|c| (c.spent || !c.expired()) && c.issued.elapsed() < SPENT_CODE_MEMORY);
    }

    /// Records the owner's decision from the app; false when no such request waits.
    pub(crate) fn decide(&mut self, id: &str, decision: Decision) -> bool {
        self.prune();
        match self.pending.iter_mut().find(|p| p.id == id) {
            Some(pending) => {
                pending.decision = Some(decision);
                true
            }
            None => false,
        }
    }

    /// The code with this value, to exchange (see [`super::token`]).
    pub(crate) fn code(&mut self, code: &str) -> Option<&mut Code> {
        self.prune();
        let presented = hash(code);
        self.codes.iter_mut().find(|c| c.hash == presented)
    }
}

/// The query's parameters; a parameter given twice is an error (RFC 6749 §3.1).
fn parameters(query: Option<&str>) -> Result<HashMap<String, String>, String> {
    let mut map = HashMap::new();
    for (name, value) in url::form_urlencoded::parse(query.unwrap_or_default().as_bytes()) {
        if map.insert(name.to_string(), value.to_string()).is_some() {
            return Err(format!("the parameter `{name}` is given more than once"));
        }
    }
    Ok(map)
}

/// `GET /authorize`.
pub(super) async fn show(
    State(oauth): State<Arc<OAuth>>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let address = client_address(peer.map(|p| p.0.0), &headers);
    if let Err(retry) = oauth.throttle.check("authorize", AUTHORIZE_RATE, address) {
        return page::error(
            StatusCode::TOO_MANY_REQUESTS,
            "Too many requests",
            &format!(
                "Too many authorization requests from your address; try again in {} s.",
                retry.as_secs().max(1)
            ),
        );
    }
    let params = match parameters(query.as_deref()) {
        Ok(params) => params,
        Err(why) => {
            return page::error(StatusCode::BAD_REQUEST, "This authorization request is malformed", &why);
        }
    };
    let (client, redirect_uri) = match client_and_redirect(&oauth, &params).await {
        Ok(found) => found,
        Err(response) => return *response,
    };
    let state = params.get("state").cloned();
    let fail = |error: &str, description: &str| {
        redirect_error(&oauth, &redirect_uri, state.as_deref(), error, description)
    };
    if params.get("response_type").map(String::as_str) != Some("code") {
        return fail("unsupported_response_type", "only response_type=code is supported");
    }
    let challenge = params.get("code_challenge").map(String::as_str).unwrap_or_default();
    if params.get("code_challenge_method").map(String::as_str) != Some("S256") || !valid_pkce_value(challenge)
    {
        return fail("invalid_request", "PKCE is required: code_challenge with code_challenge_method=S256");
    }
    let Some(resource) = params.get("resource").filter(|r| same_resource(r, &oauth.urls.resource)) else {
        return fail("invalid_target", "the resource parameter must name this server's MCP endpoint");
    };
    let asks_write = params.get("scope").is_some_and(|s| s.split(' ').any(|s| s == WRITE_SCOPE));
    let browser = cookie(&headers).filter(|c| c.len() == 43).unwrap_or_else(|| random_secret("", 32));
    let pending = Pending {
        id: random_secret("", 16),
        browser: browser.clone(),
        csrf: random_secret("", 32),
        tag: random_tag(),
        client,
        redirect_uri,
        state,
        challenge: challenge.to_owned(),
        resource: resource.clone(),
        asks_write,
        created: Instant::now(),
        decision: None,
    };
    tracing::info!(client = %pending.client.name, tag = %pending.tag, "a client asks for access; waiting for the owner");
    let response = consent_page(&pending, None, Some(set_cookie(&oauth, &browser)));
    let mut flows = lock(&oauth.flows);
    flows.prune();
    if flows.pending.len() >= MAX_PENDING {
        flows.pending.remove(0);
    }
    flows.pending.push(pending);
    response
}

/// The client and the redirect URI of a request, or the error page (never a redirect).
async fn client_and_redirect(
    oauth: &OAuth,
    params: &HashMap<String, String>,
) -> Result<(Client, String), Box<Response>> {
    let bad =
        |title: &str, detail: String| Err(Box::new(page::error(StatusCode::BAD_REQUEST, title, &detail)));
    let Some(client_id) = params.get("client_id") else {
        return bad("This authorization request has no client", "The client_id parameter is missing.".into());
    };
    let client = match oauth.clients.resolve(client_id, |id| oauth.grants.client(id)).await {
        Ok(client) => client,
        Err(e) => return bad("This client cannot be used", format!("{e}.")),
    };
    let redirect = match params.get("redirect_uri") {
        Some(uri) if client.accepts_redirect(uri) => uri.clone(),
        Some(_) => {
            return bad(
                "This redirect is not allowed",
                format!(
                    "The request asks to send the answer to an address that {} did not register, so it is refused \
                     (it could send your access to someone else).",
                    client.name
                ),
            );
        }
        None => match client.only_redirect() {
            Some(uri) => uri.to_owned(),
            None => {
                return bad(
                    "This authorization request is malformed",
                    "The redirect_uri parameter is missing.".into(),
                );
            }
        },
    };
    Ok((client, redirect))
}

/// 43 to 128 characters of `[A-Za-z0-9-._~]` (RFC 7636 §4.1/§4.2).
pub(crate) fn valid_pkce_value(value: &str) -> bool {
    (43..=128).contains(&value.len())
        && value.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// The resource as requested equals ours (a trailing slash tolerated).
pub(crate) fn same_resource(requested: &str, ours: &str) -> bool {
    requested.strip_suffix('/').unwrap_or(requested) == ours
}

fn random_tag() -> String {
    const LETTERS: &[u8] = b"ACDEFHJKLMNPRTUVWXY3479";
    let mut bytes = [0u8; 4];
    getrandom::fill(&mut bytes).unwrap_or_else(|e| panic!("the system's random source failed: {e}"));
    bytes.iter().map(|b| LETTERS[usize::from(*b) % LETTERS.len()] as char).collect()
}

fn cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == COOKIE).then(|| value.to_owned())
        })
}

fn set_cookie(oauth: &OAuth, browser: &str) -> String {
    let secure = if oauth.urls.https { "; Secure" } else { "" };
    format!("{COOKIE}={browser}; Path=/authorize; HttpOnly; SameSite=Strict; Max-Age=600{secure}")
}

fn consent_page(pending: &Pending, problem: Option<&str>, cookie: Option<String>) -> Response {
    let redirect_origin = redirect_origin(&pending.redirect_uri);
    page::consent(
        &page::Consent {
            client_name: &pending.client.name,
            client_id: &pending.client.id,
            pinned: pending.client.kind == ClientKind::Pinned,
            redirect_target: &redirect_target(&pending.redirect_uri),
            asks_write: pending.asks_write,
            request: &pending.id,
            csrf: &pending.csrf,
            tag: &pending.tag,
            problem,
            redirect_origin: &redirect_origin,
        },
        cookie,
    )
}

/// The CSP source for a redirect URI (`https://host:port`, or `scheme:` for an app's scheme).
fn redirect_origin(uri: &str) -> String {
    match url::Url::parse(uri) {
        Ok(url) if matches!(url.scheme(), "http" | "https") => url.origin().ascii_serialization(),
        Ok(url) => format!("{}:", url.scheme()),
        Err(_) => "'none'".to_owned(),
    }
}

/// A redirect back to the client with `error`, `state` and `iss`.
fn redirect_error(
    oauth: &OAuth,
    redirect_uri: &str,
    state: Option<&str>,
    error: &str,
    description: &str,
) -> Response {
    redirect(redirect_uri, &[("error", error), ("error_description", description)], state, &oauth.urls.issuer)
}

fn redirect(redirect_uri: &str, pairs: &[(&str, &str)], state: Option<&str>, issuer: &str) -> Response {
    let Ok(mut url) = url::Url::parse(redirect_uri) else {
        return page::error(
            StatusCode::BAD_REQUEST,
            "Bad redirect",
            "The client's redirect URI is not a URL.",
        );
    };
    {
        let mut query = url.query_pairs_mut();
        for (name, value) in pairs {
            query.append_pair(name, value);
        }
        if let Some(state) = state {
            query.append_pair("state", state);
        }
        query.append_pair("iss", issuer);
    }
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(location) = HeaderValue::from_str(url.as_str()) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `POST /authorize`: the consent form.
pub(super) async fn decide(
    State(oauth): State<Arc<OAuth>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let framed = headers
        .get("sec-fetch-dest")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|d| matches!(d, "iframe" | "frame" | "embed" | "object"));
    if framed {
        return page::error(StatusCode::FORBIDDEN, "Refused", "This page may not be used inside a frame.");
    }
    let field = |name: &str| form.get(name).map(String::as_str).unwrap_or_default();
    let browser = cookie(&headers).unwrap_or_default();
    let mut flows = lock(&oauth.flows);
    flows.prune();
    let Some(index) = flows.pending.iter().position(|p| {
        p.id == field("request") && same_secret(&p.browser, &browser) && same_secret(&p.csrf, field("csrf"))
    }) else {
        return page::error(
            StatusCode::FORBIDDEN,
            "This form cannot be accepted",
            "It expired, was already answered, or was not sent from the page garmin-mcp showed in this browser. \
             Start again from your assistant.",
        );
    };
    if !field("deny").is_empty() {
        let pending = flows.pending.remove(index);
        return redirect_error(
            &oauth,
            &pending.redirect_uri,
            pending.state.as_deref(),
            "access_denied",
            "the owner refused",
        );
    }
    let write_ticked = field("write") == "on";
    let verdict = match flows.pending[index].decision {
        Some(Decision::Deny) => {
            let pending = flows.pending.remove(index);
            return redirect_error(
                &oauth,
                &pending.redirect_uri,
                pending.state.as_deref(),
                "access_denied",
                "the owner refused",
            );
        }
        Some(Decision::Allow { write }) => Ok(write),
        None => match lock(&oauth.pairing).verify(field("code"), Instant::now()) {
            Verdict::Accepted => Ok(write_ticked),
            Verdict::Wrong { left } => Err(format!(
                "That is not the pairing code, or it expired. {left} more tries before pairing is locked; the app \
                 shows the current code."
            )),
            Verdict::Locked { for_secs } => Err(format!(
                "Too many wrong codes: pairing is locked for {} min. Click Allow in the Garmin MCP app instead, or \
                 make a new code there (or with `garmin-mcp remote pair`).",
                for_secs.div_ceil(60)
            )),
        },
    };
    match verdict {
        Ok(write) => {
            let pending = flows.pending.remove(index);
            issue_code(&mut flows, &oauth, pending, write)
        }
        Err(problem) => consent_page(&flows.pending[index], Some(&problem), None),
    }
}

fn issue_code(flows: &mut Flows, oauth: &OAuth, pending: Pending, write: bool) -> Response {
    let code = random_secret("gmc_", 32);
    if flows.codes.len() >= MAX_CODES {
        flows.codes.remove(0);
    }
    tracing::info!(client = %pending.client.name, write, "the owner approved a client");
    flows.codes.push(Code {
        hash: hash(&code),
        client: pending.client,
        redirect_uri: pending.redirect_uri.clone(),
        challenge: pending.challenge,
        resource: pending.resource,
        write,
        issued: Instant::now(),
        spent: false,
        grant: None,
    });
    redirect(&pending.redirect_uri, &[("code", &code)], pending.state.as_deref(), &oauth.urls.issuer)
}

/// `GET /authorize/status?request=ID`: whether the owner decided in the app (for the page's script).
pub(super) async fn status(
    State(oauth): State<Arc<OAuth>>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Response {
    let params = parameters(query.as_deref()).unwrap_or_default();
    let browser = cookie(&headers).unwrap_or_default();
    let flows = lock(&oauth.flows);
    let pending = flows
        .pending
        .iter()
        .find(|p| Some(&p.id) == params.get("request") && same_secret(&p.browser, &browser));
    match pending {
        Some(p) => (
            [(header::CACHE_CONTROL, "no-store")],
            axum::Json(serde_json::json!({"decided": p.decision.is_some()})),
        )
            .into_response(),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_values_and_resources_are_checked_strictly() {
        assert!(valid_pkce_value(&"a".repeat(43)) && valid_pkce_value(&"Z9-._~".repeat(20)));
        assert!(!valid_pkce_value(&"a".repeat(42)) && !valid_pkce_value(&"a".repeat(129)));
        assert!(!valid_pkce_value(&format!("{}+", "a".repeat(43))));
        assert!(same_resource("https://pc.example/mcp", "https://pc.example/mcp"));
        assert!(same_resource("https://pc.example/mcp/", "https://pc.example/mcp"));
        assert!(!same_resource("https://pc.example", "https://pc.example/mcp"));
        assert!(!same_resource("https://evil.example/mcp", "https://pc.example/mcp"));
    }

    #[test]
    fn a_parameter_given_twice_is_refused() {
        assert!(parameters(Some("a=1&b=2")).is_ok());
        assert!(parameters(Some("a=1&a=2")).unwrap_err().contains("`a`"));
    }
}
