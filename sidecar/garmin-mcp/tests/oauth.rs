//! Remote access through OAuth (`garmin-mcp --http --public-url`): the real binary on a free
//! loopback port, addressed as its public name `garmin.test` (as a tunnel would), driven over raw
//! HTTP the way a hosted assistant and the owner's phone browser would — and the way an attacker
//! would: one test per attack, named after it. Tokens come only from the real flow (registration,
//! consent with the pairing code the server printed, token endpoint).
//!
//! Run: `cargo test -p garmin-mcp --test oauth`

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use chrono::NaiveDate;
use fake_garmin::{FakeConfig, FakeGarmin};
use garmin::SessionStore;
use serde_json::{Value, json};
use sha2::Digest as _;
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::process::{Child, Command};

const BIN: &str = env!("CARGO_BIN_EXE_garmin-mcp");
const UA: &str = "Mozilla/5.0 (X11; Linux x86_64) GarminMcpOAuthTests/1.0";
const TOKEN: &str = "static-token-7d1e0c5b9a2f4e6d8c3b";
const PUBLIC: &str = "https://garmin.test";
const RESOURCE: &str = "https://garmin.test/mcp";
const REDIRECT: &str = "http://127.0.0.1:43111/callback";
const ACCEPT: &str = "application/json, text/event-stream";

/// A signed-in account on a fake Garmin, and its data folder.
struct Account {
    _fake: FakeGarmin,
    dir: tempfile::TempDir,
}

async fn account() -> Account {
    let fake = FakeGarmin::start(FakeConfig {
        today: NaiveDate::from_ymd_opt(2026, 11, 15).unwrap(),
        ..FakeConfig::default()
    })
    .await
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    garmin_mcp::demo::sign_in(&fake, UA, &SessionStore::new(dir.path())).unwrap();
    Account { _fake: fake, dir }
}

/// A running `garmin-mcp --http --public-url …` and its stderr.
struct Server {
    child: Child,
    origin: String,
    stderr: Arc<Mutex<String>>,
    pairing: String,
    http: reqwest::Client,
    dir: std::path::PathBuf,
}

impl Server {
    async fn start(dir: &Path, public: &str, extra: &[&str]) -> Server {
        let token_file = dir.join("token");
        std::fs::write(&token_file, TOKEN).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&token_file, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let mut child = Command::new(BIN)
            .arg("--data-dir")
            .arg(dir)
            .args(["--http", "--port", "0", "--public-url", public, "--token-file"])
            .arg(&token_file)
            .args(extra)
            .env_remove("GARMIN_MCP_HOME")
            .env_remove("GARMIN_MCP_LOG")
            .env("GARMIN_MCP_TODAY", "2026-11-15")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = tokio::sync::oneshot::channel();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let collected = stderr.clone();
        tokio::spawn(async move {
            let mut url = None;
            let mut tx = Some(tx);
            while let Ok(Some(line)) = lines.next_line().await {
                collected.lock().unwrap().push_str(&format!("{line}\n"));
                if let Some(served) = app_bridge::sidecar::served_url(&line) {
                    url = Some(served.to_owned());
                }
                if let Some(rest) = line.strip_prefix("garmin-mcp: pairing code ")
                    && let (Some(url), Some(tx)) = (url.clone(), tx.take())
                {
                    let code: String = rest.chars().take(7).filter(char::is_ascii_digit).collect();
                    let _ = tx.send((url, code));
                }
            }
        });
        let (url, pairing) = tokio::time::timeout(Duration::from_secs(60), rx)
            .await
            .unwrap_or_else(|_| panic!("no start-up lines; stderr:\n{}", stderr.lock().unwrap()))
            .unwrap_or_else(|_| panic!("the server exited; stderr:\n{}", stderr.lock().unwrap()));
        let http = garmin::https::client_builder()
            .unwrap()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .build()
            .unwrap();
        Server {
            child,
            origin: url.trim_end_matches("/mcp").to_owned(),
            stderr,
            pairing,
            http,
            dir: dir.to_path_buf(),
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// A request to `path`, addressed to the public name (as through the tunnel).
    fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.http.request(method, format!("{}{path}", self.origin)).header("host", "garmin.test")
    }

    async fn stop(mut self) -> String {
        let pid = self.child.id().unwrap();
        let _ = std::process::Command::new("kill").args(["-s", "TERM", &pid.to_string()]).status();
        let _ = tokio::time::timeout(Duration::from_secs(30), self.child.wait()).await;
        self.stderr()
    }
}

/// `application/x-www-form-urlencoded` bodies (reqwest's `form` feature is not enabled here).
trait FormEncoded {
    fn form_encoded(self, pairs: &[(&str, &str)]) -> Self;
}

impl FormEncoded for reqwest::RequestBuilder {
    fn form_encoded(self, pairs: &[(&str, &str)]) -> Self {
        let mut body = url::form_urlencoded::Serializer::new(String::new());
        for (name, value) in pairs {
            body.append_pair(name, value);
        }
        self.header("content-type", "application/x-www-form-urlencoded").body(body.finish())
    }
}

/// A PKCE verifier and its S256 challenge.
fn pkce() -> (String, String) {
    let verifier = format!("verifier-{}", "x".repeat(40));
    let challenge =
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier.as_bytes()));
    (verifier, challenge)
}

async fn register(server: &Server, redirect: &str) -> String {
    let response = server
        .request(reqwest::Method::POST, "/register")
        .json(&json!({"client_name": "Test Assistant", "redirect_uris": [redirect], "application_type": "native"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["token_endpoint_auth_method"], "none");
    body["client_id"].as_str().unwrap().to_owned()
}

fn authorize_query(client_id: &str, challenge: &str, extra: &[(&str, &str)]) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    query.append_pair("response_type", "code");
    query.append_pair("client_id", client_id);
    query.append_pair("redirect_uri", REDIRECT);
    query.append_pair("state", "st-123");
    query.append_pair("code_challenge", challenge);
    query.append_pair("code_challenge_method", "S256");
    query.append_pair("resource", RESOURCE);
    for (k, v) in extra {
        query.append_pair(k, v);
    }
    query.finish()
}

/// The consent page's hidden fields and cookie.
struct Consent {
    request: String,
    csrf: String,
    cookie: String,
    html: String,
}

fn field(html: &str, name: &str) -> String {
    let marker = format!("name=\"{name}\" value=\"");
    let start = html.find(&marker).unwrap_or_else(|| panic!("no {name} in {html}")) + marker.len();
    html[start..].split('"').next().unwrap().to_owned()
}

async fn open_consent(server: &Server, query: &str) -> Consent {
    let response = server.request(reqwest::Method::GET, &format!("/authorize?{query}")).send().await.unwrap();
    assert_eq!(response.status(), 200, "{:?}", response.headers().get("location"));
    let cookie = response.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_owned();
    let html = response.text().await.unwrap();
    Consent { request: field(&html, "request"), csrf: field(&html, "csrf"), cookie, html }
}

async fn submit(server: &Server, consent: &Consent, fields: &[(&str, &str)]) -> reqwest::Response {
    let mut form: Vec<(&str, &str)> = vec![("request", &consent.request), ("csrf", &consent.csrf)];
    form.extend_from_slice(fields);
    server
        .request(reqwest::Method::POST, "/authorize")
        .header("cookie", &consent.cookie)
        .header("origin", PUBLIC)
        .form_encoded(&form)
        .send()
        .await
        .unwrap()
}

/// The redirect's query parameters.
fn redirected(response: &reqwest::Response) -> std::collections::HashMap<String, String> {
    assert_eq!(response.status(), 303, "expected a redirect back to the client");
    let location = response.headers()["location"].to_str().unwrap();
    assert!(location.starts_with(REDIRECT), "{location}");
    url::Url::parse(location).unwrap().query_pairs().into_owned().collect()
}

async fn token_request(server: &Server, form: &[(&str, &str)]) -> (u16, Value) {
    let response = server.request(reqwest::Method::POST, "/token").form_encoded(form).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The whole approval with the pairing code; returns the client id, the code and the verifier.
async fn approved_code(server: &Server, code: &str, write: bool) -> (String, String, String) {
    let client_id = register(server, REDIRECT).await;
    let (verifier, challenge) = pkce();
    let consent =
        open_consent(server, &authorize_query(&client_id, &challenge, &[("scope", "garmin:read")])).await;
    let mut fields = vec![("code", code)];
    if write {
        fields.push(("write", "on"));
    }
    let params = redirected(&submit(server, &consent, &fields).await);
    assert_eq!(params["state"], "st-123");
    assert_eq!(params["iss"], PUBLIC);
    (client_id, params["code"].clone(), verifier)
}

async fn tokens(server: &Server, write: bool) -> (String, Value) {
    let code = new_pairing_code(server).await;
    let (client_id, code, verifier) = approved_code(server, &code, write).await;
    let (status, body) = token_request(
        server,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", REDIRECT),
            ("code_verifier", &verifier),
            ("client_id", &client_id),
            ("resource", RESOURCE),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    (client_id, body)
}

/// A pairing code from the owner's API (as the app and `remote pair` get one).
async fn new_pairing_code(server: &Server) -> String {
    let output = std::process::Command::new(BIN)
        .arg("--data-dir")
        .arg(&server.dir)
        .args(["remote", "pair"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout).unwrap();
    text.lines().next().unwrap().chars().filter(char::is_ascii_digit).collect()
}

async fn started(account: &Account) -> Server {
    Server::start(account.dir.path(), PUBLIC, &[]).await
}

/// Posts an MCP message to `/mcp` with `token`.
async fn mcp(server: &Server, token: &str, session: Option<&str>, body: Value) -> reqwest::Response {
    let mut request = server
        .request(reqwest::Method::POST, "/mcp")
        .header("authorization", format!("Bearer {token}"))
        .header("accept", ACCEPT)
        .header("content-type", "application/json")
        .header("mcp-protocol-version", "2025-06-18")
        .json(&body);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request.send().await.unwrap()
}

/// Opens a session with `token`; returns its id.
async fn session(server: &Server, token: &str) -> String {
    let response = mcp(
        server,
        token,
        None,
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
    )
    .await;
    assert_eq!(response.status(), 200);
    let id = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let _ = response.text().await;
    let note =
        mcp(server, token, Some(&id), json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    assert!(note.status().is_success());
    id
}

/// The JSON-RPC message in a response body (plain JSON or one SSE event).
async fn message(response: reqwest::Response) -> Value {
    let text = response.text().await.unwrap();
    let data = text.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).find(|d| !d.is_empty());
    serde_json::from_str(data.unwrap_or(&text)).unwrap_or_else(|_| panic!("not JSON-RPC: {text}"))
}

async fn tool_names(server: &Server, token: &str) -> Vec<String> {
    let id = session(server, token).await;
    let list = message(
        mcp(server, token, Some(&id), json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})).await,
    )
    .await;
    list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn discovery_names_the_public_url_and_a_401_points_to_it() {
    let account = account().await;
    let server = started(&account).await;
    let prm: Value = server
        .request(reqwest::Method::GET, "/.well-known/oauth-protected-resource/mcp")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(prm["resource"], RESOURCE);
    assert_eq!(prm["authorization_servers"], json!([PUBLIC]));
    for path in ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] {
        let meta: Value =
            server.request(reqwest::Method::GET, path).send().await.unwrap().json().await.unwrap();
        assert_eq!(meta["issuer"], PUBLIC, "{path}");
        assert_eq!(meta["code_challenge_methods_supported"], json!(["S256"]));
        assert_eq!(meta["client_id_metadata_document_supported"], true);
        assert_eq!(meta["authorization_response_iss_parameter_supported"], true);
    }
    let response = server.request(reqwest::Method::POST, "/mcp").body("{}").send().await.unwrap();
    assert_eq!(response.status(), 401);
    let challenge = response.headers()["www-authenticate"].to_str().unwrap();
    assert!(
        challenge
            .contains(r#"resource_metadata="https://garmin.test/.well-known/oauth-protected-resource/mcp""#)
            && challenge.contains(r#"scope="garmin:read""#),
        "{challenge}"
    );
    server.stop().await;
}

#[tokio::test]
async fn the_whole_flow_works_and_the_static_token_keeps_working_beside_it() {
    let account = account().await;
    let server = started(&account).await;
    let (client_id, body) = tokens(&server, false).await;
    assert_eq!(body["token_type"], "Bearer");
    assert_eq!(body["scope"], "garmin:read");
    assert!(body["expires_in"].as_u64().unwrap() <= 3600);
    let access = body["access_token"].as_str().unwrap();
    assert!(tool_names(&server, access).await.contains(&"get_profile".to_owned()));
    assert!(
        tool_names(&server, TOKEN).await.contains(&"create_workout".to_owned()),
        "static token: everything"
    );
    // Refresh rotates.
    let refresh = body["refresh_token"].as_str().unwrap();
    let (status, renewed) = token_request(
        &server,
        &[("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", &client_id)],
    )
    .await;
    assert_eq!(status, 200, "{renewed}");
    assert_ne!(renewed["refresh_token"], body["refresh_token"]);
    // The server printed the pairing code but never a token.
    let log = server.stop().await;
    assert!(!log.contains(access) && !log.contains(refresh) && !log.contains(TOKEN), "{log}");
    let file = std::fs::read_to_string(account.dir.path().join("oauth-grants.json")).unwrap();
    assert!(!file.contains(access) && !file.contains(refresh));
}

#[tokio::test]
async fn authorization_without_pkce_or_with_plain_pkce_is_refused() {
    let account = account().await;
    let server = started(&account).await;
    let client_id = register(&server, REDIRECT).await;
    let (_, challenge) = pkce();
    let plain = authorize_query(&client_id, &challenge, &[])
        .replace("code_challenge_method=S256", "code_challenge_method=plain");
    let no_pkce = format!(
        "response_type=code&client_id={client_id}&redirect_uri={}&state=s&resource={}",
        urlencode(REDIRECT),
        urlencode(RESOURCE)
    );
    for query in [plain, no_pkce] {
        let response =
            server.request(reqwest::Method::GET, &format!("/authorize?{query}")).send().await.unwrap();
        let params = redirected(&response);
        assert_eq!(params["error"], "invalid_request", "{query}");
        assert!(!params.contains_key("code"));
    }
    server.stop().await;
}

fn urlencode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

#[tokio::test]
async fn a_wrong_code_verifier_is_refused_and_spends_the_code() {
    let account = account().await;
    let server = started(&account).await;
    let (client_id, code, verifier) = approved_code(&server, &server.pairing.clone(), false).await;
    let wrong = format!("{verifier}-but-not-quite");
    let exchange = |v: String| {
        let (code, client_id) = (code.clone(), client_id.clone());
        let server = &server;
        async move {
            token_request(
                server,
                &[
                    ("grant_type", "authorization_code"),
                    ("code", &code),
                    ("redirect_uri", REDIRECT),
                    ("code_verifier", &v),
                    ("client_id", &client_id),
                ],
            )
            .await
        }
    };
    let (status, body) = exchange(wrong).await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_grant")), "{body}");
    let (status, _) = exchange(verifier).await;
    assert_eq!(status, 400, "the code was spent by the failed attempt");
    server.stop().await;
}

#[tokio::test]
async fn a_reused_authorization_code_is_refused_and_revokes_the_tokens_it_gave() {
    let account = account().await;
    let server = started(&account).await;
    let (client_id, code, verifier) = approved_code(&server, &server.pairing.clone(), false).await;
    let form = [
        ("grant_type", "authorization_code"),
        ("code", code.as_str()),
        ("redirect_uri", REDIRECT),
        ("code_verifier", verifier.as_str()),
        ("client_id", client_id.as_str()),
    ];
    let (status, first) = token_request(&server, &form).await;
    assert_eq!(status, 200);
    let access = first["access_token"].as_str().unwrap();
    assert_eq!(mcp_status(&server, access).await, 200);
    let (status, second) = token_request(&server, &form).await;
    assert_eq!((status, second["error"].as_str()), (400, Some("invalid_grant")));
    assert_eq!(mcp_status(&server, access).await, 401, "the tokens of a replayed code are revoked");
    server.stop().await;
}

async fn mcp_status(server: &Server, token: &str) -> u16 {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    mcp(server, token, None, body).await.status().as_u16()
}

#[tokio::test]
async fn a_code_issued_to_another_client_is_refused() {
    let account = account().await;
    let server = started(&account).await;
    let (_, code, verifier) = approved_code(&server, &server.pairing.clone(), false).await;
    let thief = register(&server, REDIRECT).await;
    let (status, body) = token_request(
        &server,
        &[
            ("grant_type", "authorization_code"),
            ("code", &code),
            ("redirect_uri", REDIRECT),
            ("code_verifier", &verifier),
            ("client_id", &thief),
        ],
    )
    .await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_grant")), "{body}");
    assert!(body["error_description"].as_str().unwrap().contains("another client"));
    server.stop().await;
}

#[tokio::test]
async fn an_unregistered_redirect_uri_gets_an_error_page_never_a_redirect() {
    let account = account().await;
    let server = started(&account).await;
    let client_id = register(&server, REDIRECT).await;
    let (_, challenge) = pkce();
    for evil in ["https://evil.example/steal", "http://127.0.0.1:43111/other"] {
        let query =
            authorize_query(&client_id, &challenge, &[]).replace(&urlencode(REDIRECT), &urlencode(evil));
        let response =
            server.request(reqwest::Method::GET, &format!("/authorize?{query}")).send().await.unwrap();
        assert_eq!(response.status(), 400, "{evil}");
        assert!(response.headers().get("location").is_none(), "no open redirect to {evil}");
        assert!(response.text().await.unwrap().contains("redirect is not allowed"));
    }
    // A pinned host's client id with someone else's callback is refused the same way.
    let claude = urlencode("https://claude.ai/oauth/mcp-oauth-client-metadata");
    let response = server
        .request(
            reqwest::Method::GET,
            &format!("/authorize?client_id={claude}&redirect_uri={}", urlencode("https://evil.example/cb")),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    server.stop().await;
}

#[tokio::test]
async fn a_missing_or_foreign_resource_is_refused() {
    let account = account().await;
    let server = started(&account).await;
    let client_id = register(&server, REDIRECT).await;
    let (_, challenge) = pkce();
    let good = authorize_query(&client_id, &challenge, &[]);
    let foreign = good.replace(&urlencode(RESOURCE), &urlencode("https://other.example/mcp"));
    let missing = good.replace(&format!("&resource={}", urlencode(RESOURCE)), "");
    assert!(!missing.contains("resource"));
    for query in [foreign, missing] {
        let response =
            server.request(reqwest::Method::GET, &format!("/authorize?{query}")).send().await.unwrap();
        assert_eq!(redirected(&response)["error"], "invalid_target");
    }
    // And at the token endpoint.
    let (status, body) = token_request(
        &server,
        &[
            ("grant_type", "refresh_token"),
            ("refresh_token", "x"),
            ("client_id", &client_id),
            ("resource", "https://other.example/mcp"),
        ],
    )
    .await;
    assert_eq!((status, body["error"].as_str()), (400, Some("invalid_target")));
    server.stop().await;
}

#[tokio::test]
async fn a_token_for_another_audience_is_refused() {
    let account = account().await;
    let server = started(&account).await;
    let (_, body) = tokens(&server, false).await;
    let access = body["access_token"].as_str().unwrap().to_owned();
    server.stop().await;
    // The same grants, now served under another public URL: the token was not issued for it.
    let moved = Server::start(account.dir.path(), "https://other.test", &[]).await;
    let response = moved
        .http
        .post(format!("{}/mcp", moved.origin))
        .header("host", "other.test")
        .header("authorization", format!("Bearer {access}"))
        .header("accept", ACCEPT)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    moved.stop().await;
}

#[tokio::test]
async fn a_token_in_the_query_string_is_refused() {
    let account = account().await;
    let server = started(&account).await;
    let (_, body) = tokens(&server, false).await;
    let access = body["access_token"].as_str().unwrap();
    let response = server
        .request(reqwest::Method::POST, &format!("/mcp?access_token={access}"))
        .header("accept", ACCEPT)
        .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 401);
    assert!(response.headers()["www-authenticate"].to_str().unwrap().contains("invalid_request"));
    server.stop().await;
}

#[tokio::test]
async fn a_used_refresh_token_presented_again_revokes_the_grant() {
    let account = account().await;
    let server = started(&account).await;
    let (client_id, body) = tokens(&server, false).await;
    let stolen = body["refresh_token"].as_str().unwrap().to_owned();
    let refresh = |token: String| {
        let client_id = client_id.clone();
        let server = &server;
        async move {
            token_request(
                server,
                &[("grant_type", "refresh_token"), ("refresh_token", &token), ("client_id", &client_id)],
            )
            .await
        }
    };
    let (status, fresh) = refresh(stolen.clone()).await;
    assert_eq!(status, 200);
    let (status, replay) = refresh(stolen).await;
    assert_eq!((status, replay["error"].as_str()), (400, Some("invalid_grant")));
    // The legitimate client's newest tokens died with the grant.
    assert_eq!(mcp_status(&server, fresh["access_token"].as_str().unwrap()).await, 401);
    let (status, _) = refresh(fresh["refresh_token"].as_str().unwrap().to_owned()).await;
    assert_eq!(status, 400);
    server.stop().await;
}

#[tokio::test]
async fn a_read_only_token_never_sees_or_runs_a_write_tool() {
    let account = account().await;
    let server = started(&account).await;
    let (_, body) = tokens(&server, false).await;
    let access = body["access_token"].as_str().unwrap();
    let names = tool_names(&server, access).await;
    assert!(!names.iter().any(|n| n == "create_workout" || n == "delete_workout"), "{names:?}");
    let id = session(&server, access).await;
    let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "delete_workout", "arguments": {"workout_id": 1}}});
    let response = mcp(&server, access, Some(&id), call).await;
    assert_eq!(response.status(), 403);
    let challenge = response.headers()["www-authenticate"].to_str().unwrap().to_owned();
    assert!(
        challenge.contains(r#"error="insufficient_scope""#) && challenge.contains("garmin:write"),
        "{challenge}"
    );
    // With write ticked by the owner, the tools are there.
    let (_, write) = tokens(&server, true).await;
    assert_eq!(write["scope"], "garmin:read garmin:write");
    assert!(
        tool_names(&server, write["access_token"].as_str().unwrap())
            .await
            .contains(&"create_workout".to_owned())
    );
    server.stop().await;
}

#[tokio::test]
async fn a_consent_form_posted_without_its_csrf_token_or_framed_is_refused() {
    let account = account().await;
    let server = started(&account).await;
    let client_id = register(&server, REDIRECT).await;
    let (_, challenge) = pkce();
    let consent = open_consent(&server, &authorize_query(&client_id, &challenge, &[])).await;
    let page = server
        .request(
            reqwest::Method::GET,
            &format!("/authorize?{}", authorize_query(&client_id, &challenge, &[])),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(page.headers()["x-frame-options"], "DENY");
    assert!(page.headers()["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));
    let code = server.pairing.clone();
    // No CSRF token, a wrong one, or no cookie: refused.
    let forged = Consent { csrf: "forged".into(), ..consent_copy(&consent) };
    assert_eq!(submit(&server, &forged, &[("code", &code)]).await.status(), 403);
    let cookieless = Consent { cookie: "gm_consent=someone-else".into(), ..consent_copy(&consent) };
    assert_eq!(submit(&server, &cookieless, &[("code", &code)]).await.status(), 403);
    let no_csrf = server
        .request(reqwest::Method::POST, "/authorize")
        .header("cookie", &consent.cookie)
        .form_encoded(&[("request", consent.request.as_str()), ("code", code.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(no_csrf.status(), 403);
    // Posted from inside a frame.
    let framed = server
        .request(reqwest::Method::POST, "/authorize")
        .header("cookie", &consent.cookie)
        .header("sec-fetch-dest", "iframe")
        .form_encoded(&[
            ("request", consent.request.as_str()),
            ("csrf", consent.csrf.as_str()),
            ("code", code.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(framed.status(), 403);
    // The genuine form still works (nothing above spent the code).
    assert!(redirected(&submit(&server, &consent, &[("code", &code)]).await).contains_key("code"));
    server.stop().await;
}

fn consent_copy(c: &Consent) -> Consent {
    Consent {
        request: c.request.clone(),
        csrf: c.csrf.clone(),
        cookie: c.cookie.clone(),
        html: c.html.clone(),
    }
}

#[tokio::test]
async fn pairing_code_brute_force_is_locked_out() {
    let account = account().await;
    let server = started(&account).await;
    let client_id = register(&server, REDIRECT).await;
    let (_, challenge) = pkce();
    let consent = open_consent(&server, &authorize_query(&client_id, &challenge, &[])).await;
    let right = server.pairing.clone();
    let wrong = if right == "000000" { "000001" } else { "000000" };
    for _ in 0..5 {
        let page = submit(&server, &consent, &[("code", wrong)]).await;
        assert_eq!(page.status(), 200, "the page comes back with the problem");
    }
    let locked = submit(&server, &consent, &[("code", &right)]).await;
    assert_eq!(locked.status(), 200, "even the right code is refused while locked");
    assert!(locked.text().await.unwrap().contains("locked"));
    // The owner makes a new code: it works.
    let fresh = new_pairing_code(&server).await;
    assert!(redirected(&submit(&server, &consent, &[("code", &fresh)]).await).contains_key("code"));
    server.stop().await;
}

#[tokio::test]
async fn a_dcr_flood_is_bounded_per_address_and_in_all() {
    let account = account().await;
    let server = started(&account).await;
    let mut statuses = Vec::new();
    for i in 0..12 {
        let response = server
            .request(reqwest::Method::POST, "/register")
            .json(&json!({"client_name": format!("flood {i}"), "redirect_uris": [REDIRECT]}))
            .send()
            .await
            .unwrap();
        statuses.push(response.status().as_u16());
    }
    assert_eq!(statuses.iter().filter(|s| **s == 201).count(), 10, "{statuses:?}");
    assert_eq!(statuses.last(), Some(&429));
    // Through the tunnel from many addresses (the forwarded address is believed from loopback):
    // the waiting registrations are capped.
    let mut accepted = 10;
    for i in 0..120 {
        let response = server
            .request(reqwest::Method::POST, "/register")
            .header("x-forwarded-for", format!("198.51.100.{}", i % 250))
            .json(&json!({"client_name": "flood", "redirect_uris": [REDIRECT]}))
            .send()
            .await
            .unwrap();
        if response.status() == 201 {
            accepted += 1;
        } else {
            assert_eq!(response.status(), 429);
            assert!(response.headers().contains_key("retry-after"));
        }
    }
    assert_eq!(accepted, 100, "at most 100 registrations wait for approval");
    server.stop().await;
}

#[tokio::test]
async fn a_metadata_document_url_pointing_at_loopback_metadata_or_private_addresses_is_refused() {
    let account = account().await;
    let server = started(&account).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (_, challenge) = pkce();
    for client_id in [
        format!("https://127.0.0.1:{port}/client.json"),
        format!("https://localhost:{port}/client.json"),
        "https://169.254.169.254/latest/meta-data/client.json".to_owned(),
        "https://10.0.0.7/client.json".to_owned(),
        "https://[fd00::1]/client.json".to_owned(),
    ] {
        let query = authorize_query(&client_id, &challenge, &[]);
        let response =
            server.request(reqwest::Method::GET, &format!("/authorize?{query}")).send().await.unwrap();
        assert_eq!(response.status(), 400, "{client_id}");
        assert!(response.text().await.unwrap().contains("not public"), "{client_id}");
    }
    // Nothing ever connected to the loopback listener.
    let connected = tokio::time::timeout(Duration::from_millis(200), listener.accept()).await;
    assert!(connected.is_err(), "the server connected to a loopback address");
    server.stop().await;
}

#[tokio::test]
async fn revoking_ends_access_at_once_and_the_cli_lists_clients() {
    let account = account().await;
    let server = started(&account).await;
    let (_, body) = tokens(&server, false).await;
    let access = body["access_token"].as_str().unwrap();
    assert_eq!(mcp_status(&server, access).await, 200);
    let run = |args: &[&str]| {
        let output = std::process::Command::new(BIN)
            .arg("--data-dir")
            .arg(account.dir.path())
            .arg("remote")
            .args(args)
            .output()
            .unwrap();
        (output.status.success(), String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let (ok, list) = run(&["clients"]);
    assert!(ok && list.contains("Test Assistant") && list.contains("read only"), "{list}");
    let id = list.lines().nth(1).unwrap().split_whitespace().next().unwrap().to_owned();
    let (ok, said) = run(&["revoke", &id]);
    assert!(ok && said.contains("Revoked 1"), "{said}");
    assert_eq!(mcp_status(&server, access).await, 401, "revocation is immediate");
    server.stop().await;
    // Without a server the CLI edits the file itself.
    let (ok, list) = run(&["clients"]);
    assert!(ok && list.contains("No client"), "{list}");
}

#[tokio::test]
async fn the_owner_api_is_not_reachable_through_the_tunnel() {
    let account = account().await;
    let server = started(&account).await;
    let control: Value =
        serde_json::from_slice(&std::fs::read(account.dir.path().join("remote-control.json")).unwrap())
            .unwrap();
    let secret = control["secret"].as_str().unwrap();
    let ask = |forwarded: bool, secret: String| {
        let mut request = server
            .http
            .get(format!("{}/owner/clients", server.origin))
            .header("authorization", format!("Bearer {secret}"));
        if forwarded {
            request = request.header("x-forwarded-for", "203.0.113.5");
        }
        request.send()
    };
    assert_eq!(ask(false, secret.to_owned()).await.unwrap().status(), 200);
    assert_eq!(ask(true, secret.to_owned()).await.unwrap().status(), 404, "through the tunnel");
    assert_eq!(
        ask(false, TOKEN.to_owned()).await.unwrap().status(),
        404,
        "the static token is not the owner's secret"
    );
    server.stop().await;
    assert!(!account.dir.path().join("remote-control.json").exists(), "removed at shutdown");
}
