//! The remote-access server, for real: `RemoteAccess` (what the app's panel runs) starts the workspace's own
//! `garmin-mcp` (`cargo build -p garmin-mcp --bin garmin-mcp`) on a temp data folder, reads its
//! start-up line, and the server then refuses a request without the token and accepts one with the
//! header the panel shows; stopping it ends the process.
//!
//! Run: `cargo test -p app-bridge --test remote`.

use std::path::PathBuf;

use app_bridge::remote::{RemoteAccess, RemoteSettings, RemoteView};
use app_bridge::sidecar::SidecarSearch;

fn workspace_garmin_mcp() -> RemoteAccess {
    let exe = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join("target")
        .join("debug")
        .join(format!("garmin-mcp{}", std::env::consts::EXE_SUFFIX));
    assert!(exe.is_file(), "{} is missing: run `cargo build -p garmin-mcp --bin garmin-mcp`", exe.display());
    RemoteAccess::new(SidecarSearch { found: Some(exe.clone()), looked_in: vec![exe] })
}

/// The served URL with the address a client on this computer uses.
fn local_url(view: &RemoteView) -> String {
    let url = view.client_url.clone().expect("the panel shows the URL once the server started");
    let port =
        url.rsplit(':').next().and_then(|rest| rest.strip_suffix("/mcp")).expect("URL ends in :PORT/mcp");
    format!("http://127.0.0.1:{port}/mcp")
}

async fn initialize(url: &str, header: Option<&str>) -> reqwest::StatusCode {
    let body = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    });
    let mut request = garmin::https::client()
        .unwrap()
        .post(url)
        .header("Accept", "application/json, text/event-stream")
        .json(&body);
    if let Some(header) = header {
        let value = header.strip_prefix("Authorization: ").expect("the header to copy names Authorization");
        request = request.header("Authorization", value);
    }
    request.send().await.expect("the server answers").status()
}

async fn check_serves_with_token_only(settings: RemoteSettings) {
    let data = tempfile::tempdir().expect("temp dir");
    let remote = workspace_garmin_mcp();
    let view = remote.start(settings.clone(), data.path()).await.expect("the server starts");
    assert!(view.running, "running after start: {view:?}");
    let line = view.startup_line.clone().expect("the start-up line is shown");
    assert!(line.contains("every request needs the bearer token"), "{line}");
    assert!(line.contains("read-only"), "{line}");
    assert!(data.path().join("remote-token").is_file(), "the token lives in the data folder");
    let header = view.authorization_header.clone().expect("the header to copy is shown");

    let url = local_url(&view);
    assert_eq!(initialize(&url, None).await, reqwest::StatusCode::UNAUTHORIZED);
    assert_eq!(initialize(&url, Some("Authorization: Bearer wrong-token-0123456789")).await, 401);
    assert_eq!(initialize(&url, Some(&header)).await, reqwest::StatusCode::OK);

    let again = remote.start(settings, data.path()).await;
    assert!(again.is_err(), "a second start while running is refused");

    let stopped = remote.stop().await.expect("stop");
    assert!(!stopped.running, "{stopped:?}");
    assert_eq!(stopped.exit.as_deref(), Some("stopped"), "SIGTERM ends it cleanly: {stopped:?}");
    assert!(stopped.authorization_header.is_none(), "no header once stopped");
    assert!(garmin::https::client().unwrap().post(&url).send().await.is_err(), "nothing listens any more");
}

#[tokio::test]
async fn loopback_server_requires_the_token_and_stops_on_request() {
    check_serves_with_token_only(RemoteSettings {
        network: false,
        port: 0,
        read_only: true,
        public_url: None,
    })
    .await;
}

#[tokio::test]
async fn network_server_requires_the_token_and_stops_on_request() {
    check_serves_with_token_only(RemoteSettings {
        network: true,
        port: 0,
        read_only: true,
        public_url: None,
    })
    .await;
}

#[tokio::test]
async fn a_server_that_cannot_start_reports_how_it_ended() {
    let data = tempfile::tempdir().expect("temp dir");
    let remote = workspace_garmin_mcp();
    let blocker = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = blocker.local_addr().expect("addr").port();
    let view = remote
        .start(RemoteSettings { network: false, port, read_only: true, public_url: None }, data.path())
        .await
        .expect("the process starts");
    assert!(!view.running, "{view:?}");
    assert!(view.exit.as_deref().is_some_and(|e| e.starts_with("exited with code")), "{view:?}");
    assert!(!view.output.is_empty(), "the server's own explanation is shown");
}
