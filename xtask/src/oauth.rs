//! `cargo xtask oauth`: remote access end to end, as a hosted assistant meets it. Caddy (Debian's
//! `caddy`, `.ci/setup`) terminates TLS on loopback with its own internal CA — trusted only by this
//! run: the Python client and Node get the CA file, `garmin-mcp` gets it as `SSL_CERT_FILE` — and
//! forwards `https://localhost:P1` to `garmin-mcp --demo --http --port P0 --public-url
//! https://localhost:P1`, so the public URL differs from the address the server binds; it also
//! serves a client metadata document at `https://127.0.0.1:P2/client.json`. Then
//! `tests/interop/python_oauth.py` runs the official Python SDK's OAuth client through it (dynamic
//! registration, then the metadata document), the conformance suite's authorization-server
//! scenarios (`@modelcontextprotocol/conformance` 0.2.0-alpha.12 in `.ci/.conformance-auth`: 0.1.16
//! has authorization scenarios for clients only), and measures the dance. `test` runs it after
//! `interop`.

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the stage; `Err` says what failed or what is missing.
pub fn oauth(root: &Path) -> Result<(), String> {
    let python = root.join(".ci/.venv/bin/python");
    let conformance = root.join(".ci/.conformance-auth/node_modules/.bin/conformance");
    let node_bin = root.join(".ci/.node/node_modules/node/bin");
    if !python.exists() || !conformance.exists() || !super::on_path("caddy") {
        return Err(
            "the OAuth interop stage needs .ci/.venv, .ci/.conformance-auth and caddy: run .ci/setup".into(),
        );
    }
    let exe = super::built_garmin_mcp(root)?;
    let scratch = super::Scratch::new("oauth")?;
    let [upstream, public, documents] = free_ports()?;
    let caddy = Caddy::start(&scratch.0, upstream, public, documents)?;
    let token = super::random_token();
    let token_file = scratch.0.join("token");
    super::write_private(&token_file, &token)?;
    let data = scratch.0.join("data");
    std::fs::create_dir_all(&data).map_err(|e| format!("could not create {}: {e}", data.display()))?;
    let public_url = format!("https://localhost:{public}");
    let mut server = Spawned(
        Command::new(&exe)
            .arg("--data-dir")
            .arg(&data)
            .args(["--demo", "--http", "--host", "127.0.0.1", "--port", &upstream.to_string()])
            .args([
                "--public-url",
                &public_url,
                "--allow-client-metadata-host",
                &format!("127.0.0.1:{documents}"),
            ])
            .arg("--token-file")
            .arg(&token_file)
            .env("SSL_CERT_FILE", &caddy.ca)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start {}: {e}", exe.display()))?,
    );
    wait_for_line(server.0.stderr.take(), "garmin-mcp: pairing code", "garmin-mcp")?;
    println!("xtask: Python SDK OAuth client through Caddy at {public_url} (server on 127.0.0.1:{upstream})");
    super::run(
        Command::new(&python)
            .arg(root.join("tests/interop/python_oauth.py"))
            .args(["--public", &public_url, "--direct", &format!("http://127.0.0.1:{upstream}")])
            .arg("--ca")
            .arg(&caddy.ca)
            .arg("--garmin-mcp")
            .arg(&exe)
            .arg("--data-dir")
            .arg(&data)
            .args(["--cimd-url", &format!("https://127.0.0.1:{documents}/client.json")])
            .arg("--conformance")
            .arg(&conformance)
            .arg("--node-bin")
            .arg(&node_bin)
            // By file: a failing command is printed with its environment.
            .arg("--token-file")
            .arg(&token_file),
    )?;
    drop(server);
    drop(caddy);
    Ok(())
}

/// A child killed when dropped.
struct Spawned(Child);

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Three free loopback ports (bound, then released for the servers to take).
fn free_ports() -> Result<[u16; 3], String> {
    let bind = || std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"));
    let listeners = [bind()?, bind()?, bind()?];
    let port = |l: &std::net::TcpListener| l.local_addr().map(|a| a.port()).map_err(|e| e.to_string());
    Ok([port(&listeners[0])?, port(&listeners[1])?, port(&listeners[2])?])
}

/// Caddy with its internal CA, stopped when dropped.
struct Caddy {
    _child: Spawned,
    ca: PathBuf,
}

impl Caddy {
    fn start(dir: &Path, upstream: u16, public: u16, documents: u16) -> Result<Caddy, String> {
        let storage = dir.join("caddy");
        let document = format!(
            r#"{{"client_id":"https://127.0.0.1:{documents}/client.json","client_name":"Python SDK (metadata document)","redirect_uris":["http://127.0.0.1:43219/callback"],"token_endpoint_auth_method":"none","grant_types":["authorization_code","refresh_token"],"response_types":["code"]}}"#
        );
        let caddyfile = format!(
            "{{\n\tadmin off\n\tskip_install_trust\n\tlocal_certs\n\tauto_https disable_redirects\n\tstorage file_system {storage}\n}}\n\
             https://localhost:{public} {{\n\ttls internal\n\treverse_proxy 127.0.0.1:{upstream}\n}}\n\
             https://127.0.0.1:{documents} {{\n\ttls internal\n\theader Content-Type application/json\n\trespond /client.json `{document}` 200\n}}\n",
            storage = storage.display()
        );
        let config = dir.join("Caddyfile");
        std::fs::write(&config, caddyfile)
            .map_err(|e| format!("could not write {}: {e}", config.display()))?;
        let mut child = Spawned(
            Command::new("caddy")
                .args(["run", "--adapter", "caddyfile", "--config"])
                .arg(&config)
                .env("XDG_DATA_HOME", dir.join("xdg-data"))
                .env("XDG_CONFIG_HOME", dir.join("xdg-config"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .map_err(|e| format!("could not start caddy: {e}"))?,
        );
        wait_for_line(child.0.stderr.take(), "serving initial configuration", "caddy")?;
        let ca = storage.join("pki/authorities/local/root.crt");
        let deadline = Instant::now() + Duration::from_secs(30);
        // Caddy writes its CA before it serves; the certificate for each site follows at once.
        while !(ca.exists() && std::net::TcpStream::connect(("127.0.0.1", public)).is_ok()) {
            if Instant::now() > deadline {
                return Err(format!("caddy did not create its CA ({}) within 30 s", ca.display()));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(Caddy { _child: child, ca })
    }
}

/// Passes a child's stderr through and returns once a line contains `marker` (60 s at most).
fn wait_for_line(
    stderr: Option<std::process::ChildStderr>,
    marker: &'static str,
    name: &'static str,
) -> Result<(), String> {
    let stderr = stderr.ok_or("no stderr")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if !line.contains("\"level\":\"debug\"") {
                eprintln!("  [{name}] {line}");
            }
            if line.contains(marker) {
                let _ = tx.send(());
            }
        }
    });
    rx.recv_timeout(Duration::from_secs(60)).map_err(|_| format!("{name} did not say `{marker}` within 60 s"))
}
