//! `garmin-mcp` with Garmin's official Personal API key, as people run it: `login --api-key`
//! (validated, saved privately, a readable key file refused, China refused), `status` (expiry and
//! its 14-day warning), eight processes renewing the token at once, and the key never shown on
//! stdout or stderr at `-vv`.
//!
//! Run: `cargo test -p garmin-mcp --test personal_cli`

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use chrono::NaiveDate;
use fake_garmin::{FakeConfig, FakeGarmin};
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_garmin-mcp");

async fn fake() -> FakeGarmin {
    let today = NaiveDate::from_ymd_opt(2026, 11, 15).unwrap();
    FakeGarmin::start(FakeConfig { today, ..FakeConfig::default() }).await.unwrap()
}

fn command(fake: &FakeGarmin, data_dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("--data-dir").arg(data_dir).args(args);
    cmd.env_remove("GARMIN_MCP_HOME").env_remove("GARMIN_CONNECT_URL").env_remove("GARMIN_PERSONAL_API_KEY");
    cmd.env("GARMIN_PERSONAL_API_URL", fake.base_url());
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::piped());
    cmd
}

async fn run(mut cmd: Command, stdin: &str) -> (Output, String, String) {
    let mut child = cmd.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.as_bytes()).await.unwrap();
    drop(pipe);
    let output = child.wait_with_output().await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output, stdout, stderr)
}

#[tokio::test]
async fn login_api_key_validates_saves_privately_and_status_shows_the_expiry_with_a_warning() {
    use std::os::unix::fs::PermissionsExt;
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let key = fake.mint_personal_api_key(Duration::from_secs(10 * 86_400)).key;
    let expires = (chrono::Utc::now() + chrono::TimeDelta::days(10)).format("%Y-%m-%d").to_string();
    let login = command(&fake, dir.path(), &["-vv", "login", "--api-key", "--key-expires", &expires]);
    let (out, stdout, stderr) = run(login, &format!("{key}\n")).await;
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("accepted") && stdout.contains(&expires), "{stdout}");
    assert!(stdout.contains("login --manual"), "says what needs the web sign-in: {stdout}");
    let session = dir.path().join("session.json");
    assert_eq!(std::fs::metadata(&session).unwrap().permissions().mode() & 0o777, 0o600);
    assert!(std::fs::read_to_string(&session).unwrap().contains(&key));

    let (out, status_out, status_err) = run(command(&fake, dir.path(), &["-vv", "status"]), "").await;
    assert!(out.status.success(), "{status_out}{status_err}");
    assert!(status_out.contains("Personal API key: works") && status_out.contains(&expires), "{status_out}");
    assert!(
        status_out.contains("expires on") && status_out.contains("make a new one"),
        "14-day warning: {status_out}"
    );
    assert!(status_out.contains("list_activities"), "{status_out}");
    let (_, json, _) = run(command(&fake, dir.path(), &["status", "--json"]), "").await;
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["personal_api"]["ok"], true, "{json}");
    assert!(json["personal_api"]["warning"].is_string());
    // The token saved at login served status: one exchange in all.
    assert_eq!(fake.personal_api_exchanges().values().sum::<u32>(), 1);
    for text in [&stdout, &stderr, &status_out, &status_err] {
        assert!(!text.contains(&key), "the key leaked: {text}");
    }
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path != session {
            assert!(!std::fs::read_to_string(&path).unwrap_or_default().contains(&key), "{}", path.display());
        }
    }
}

#[tokio::test]
async fn login_api_key_refuses_a_key_file_others_can_read_a_key_garmin_refuses_and_china() {
    use std::os::unix::fs::PermissionsExt;
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("key.txt");
    std::fs::write(&file, "wrong-key\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let file_arg = file.to_str().unwrap();
    let (out, _, stderr) =
        run(command(&fake, dir.path(), &["login", "--api-key", "--api-key-file", file_arg]), "").await;
    assert!(!out.status.success());
    assert!(stderr.contains("chmod 600"), "{stderr}");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (out, _, stderr) =
        run(command(&fake, dir.path(), &["login", "--api-key", "--api-key-file", file_arg]), "").await;
    assert!(!out.status.success());
    assert!(
        stderr.contains("refused your Personal API key") && stderr.contains("personalApiToken"),
        "{stderr}"
    );
    assert!(!dir.path().join("session.json").exists(), "nothing saved");
    let (out, _, stderr) =
        run(command(&fake, dir.path(), &["login", "--api-key", "--site", "cn"]), "k\n").await;
    assert!(!out.status.success());
    assert!(stderr.contains("not offered for Garmin Connect China"), "{stderr}");
}

#[tokio::test]
async fn eight_processes_needing_a_token_at_once_present_the_key_exactly_once() {
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let key = fake.mint_personal_api_key(Duration::from_secs(90 * 86_400)).key;
    let store = garmin::SessionStore::new(dir.path());
    store.lock().unwrap().write_personal(Some(&garmin::PersonalApiKey::new(key.clone(), None))).unwrap();
    let runs = (0..8).map(|_| run(command(&fake, dir.path(), &["status"]), ""));
    for (out, stdout, stderr) in futures::future::join_all(runs).await {
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(stdout.contains("Personal API key: works"), "{stdout}");
    }
    assert_eq!(fake.personal_api_exchanges().values().copied().collect::<Vec<_>>(), vec![1]);
    // Once Garmin's 24 hours are over, eight more processes renew it once again.
    fake.expire_personal_api_tokens();
    let runs = (0..8).map(|_| run(command(&fake, dir.path(), &["status"]), ""));
    for (out, stdout, stderr) in futures::future::join_all(runs).await {
        assert!(out.status.success(), "{stdout}{stderr}");
    }
    assert_eq!(fake.personal_api_exchanges().values().copied().collect::<Vec<_>>(), vec![2]);
}
