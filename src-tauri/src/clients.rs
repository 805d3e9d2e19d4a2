//! The "AI clients" panel's commands: which clients are installed and whether they start our server,
//! and the one-click Configure / Remove plus the manual snippet. Thin over the `client-setup` crate,
//! the same code as `garmin-mcp configure`; this module only decides *what* the clients should
//! start — the bundled sidecar by absolute path ([`bundled_sidecar`], through
//! `app_bridge::sidecar::locate_sidecar`) with `--data-dir` the real
//! account's data folder (never the demo folder), plus the row's `--demo` / `--readonly` boxes —
//! and turns the library's answers into views. Hosts with an install link (VS Code, Cursor, Goose,
//! LM Studio) get "Add to …" instead: the link is built here from the same entry (the UI never
//! supplies a URL) and handed to the system, which opens the host's own confirmation dialog.
//! Claude Desktop installs an MCP Bundle instead of a link: "Add to Claude Desktop" writes one
//! (`client_setup::bundle`: the bundled sidecar, the account's data folder as the option's default)
//! into the data folder and hands the file to the system, which opens Claude Desktop's install
//! dialog.

use std::path::{Path, PathBuf};

use app_bridge::sidecar::{SidecarSearch, locate_sidecar};
use client_setup::bundle::{BundleOptions, Platform};
use client_setup::{ClientId, ClientStatus, Configured, Env, LinkHost, Outcome, ServerEntry, SetupError};
use serde::Serialize;
use tauri::State;

use crate::error::{Error, ErrorCode, Result};
use crate::state::Accounts;

/// The `garmin-mcp` bundled beside this executable ([`locate_sidecar`]; the development locations
/// only in debug builds). The AI clients panel, the tool check and remote access all start this one.
pub fn bundled_sidecar() -> SidecarSearch {
    let dev_tree = cfg!(debug_assertions).then(|| Path::new(env!("CARGO_MANIFEST_DIR")));
    match std::env::current_exe() {
        Ok(exe) => {
            locate_sidecar(&exe, dev_tree, env!("GARMIN_DESKTOP_TARGET"), std::env::consts::EXE_SUFFIX)
        }
        Err(_) => SidecarSearch { found: None, looked_in: Vec::new() },
    }
}

/// The host that installs an MCP Bundle rather than opening a link: the id the app passes around.
pub const CLAUDE_DESKTOP: &str = "claude-desktop";
/// Where "Add to Claude Desktop" writes its bundle, inside the account's data folder.
const BUNDLE_FOLDER: &str = "claude-desktop";
/// The app icon the bundle shows in Claude Desktop.
const BUNDLE_ICON: &[u8] = include_bytes!("../../icons/icon.png");

/// The AI clients' side of the app (managed state): where client config files are (the user's
/// environment) and which `garmin-mcp` the entries start.
pub struct AiClients {
    /// `None`: this process's environment, read at each command ([`Env::current`]).
    env: Option<Env>,
    sidecar: SidecarSearch,
    /// The app runs from an AppImage, whose mount vanishes when it quits.
    from_appimage: bool,
    /// Hands an install link to the system (tests record it instead).
    open_link: LinkOpener,
}

/// What opens an install link: the system's URL handler, or a test's recorder.
pub type LinkOpener = Box<dyn Fn(&str) -> std::io::Result<()> + Send + Sync>;

impl std::fmt::Debug for AiClients {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AiClients")
            .field("env", &self.env)
            .field("sidecar", &self.sidecar)
            .field("from_appimage", &self.from_appimage)
            .finish_non_exhaustive()
    }
}

/// The system's handler for `url` (xdg-open, `open`, the Windows shell), not waited for.
fn open_with_system(url: &str) -> std::io::Result<()> {
    open::that_detached(url)
}

impl AiClients {
    /// Clients found through `env`, configured to start the sidecar `sidecar` found (tests use a
    /// temporary home).
    pub fn new(env: Env, sidecar: SidecarSearch) -> Self {
        AiClients { env: Some(env), sidecar, from_appimage: false, open_link: Box::new(open_with_system) }
    }

    /// The same, with install links handed to `open_link` instead of the system (tests).
    pub fn with_link_opener(mut self, open_link: LinkOpener) -> Self {
        self.open_link = open_link;
        self
    }

    /// This user's clients and the sidecar beside this executable ([`locate_sidecar`]; the
    /// development locations only in debug builds).
    pub fn resolve() -> Self {
        let sidecar = bundled_sidecar();
        let from_appimage = std::env::var_os("APPIMAGE").is_some();
        AiClients { env: None, sidecar, from_appimage, open_link: Box::new(open_with_system) }
    }

    fn env(&self) -> Result<Env> {
        match &self.env {
            Some(env) => Ok(env.clone()),
            None => Env::current().map_err(setup_error),
        }
    }

    /// The entry "Configure" writes: the found sidecar, `--data-dir` the real account's folder.
    fn entry(&self, data_dir: &Path) -> Result<ServerEntry> {
        let Some(command) = &self.sidecar.found else {
            return Err(Error::new(ErrorCode::Other, self.missing_sidecar()));
        };
        ServerEntry::new(command, &absolute(data_dir)?).map_err(setup_error)
    }

    /// [`AiClients::entry`] with the row's switches: `Some(true)` puts `--demo` / `--readonly` in,
    /// `Some(false)` takes it out, `None` keeps what the client's entry has.
    fn entry_with(&self, data_dir: &Path, options: EntryOptions) -> Result<ServerEntry> {
        Ok(self.entry(data_dir)?.with_flags(options.demo, options.readonly))
    }

    /// The entry to compare configs with and to show: the one "Configure" writes, or — without a
    /// sidecar — one starting it where the app expected it.
    fn expected_entry(&self, data_dir: &Path) -> Result<ServerEntry> {
        if self.sidecar.found.is_some() {
            return self.entry(data_dir);
        }
        // Where the app expected it; with no known location at all (the app's own path is unknown)
        // a bare absolute name keeps the rows and snippets showable while Configure stays refused.
        let command = self.sidecar.looked_in.first().cloned().unwrap_or_else(|| PathBuf::from("/garmin-mcp"));
        ServerEntry::new(command, &absolute(data_dir)?).map_err(setup_error)
    }

    /// Writes the MCP Bundle "Add to Claude Desktop" opens: the found sidecar, the account's data
    /// folder and the row's switches as the install dialog's defaults. Answers the file.
    async fn write_bundle(&self, data_dir: &Path, options: EntryOptions) -> Result<PathBuf> {
        let Some(sidecar) = self.sidecar.found.clone() else {
            return Err(Error::new(ErrorCode::Other, self.missing_sidecar()));
        };
        let data_dir = absolute(data_dir)?;
        let platform = Platform::from_triple(env!("GARMIN_DESKTOP_TARGET"))
            .map_err(|e| Error::new(ErrorCode::Other, e))?;
        let options = BundleOptions {
            tools: Vec::new(),
            data_dir: Some(data_dir.to_str().map(str::to_owned).ok_or_else(|| {
                Error::new(
                    ErrorCode::Other,
                    format!("the data folder {} is not valid Unicode", data_dir.display()),
                )
            })?),
            demo: options.demo.unwrap_or(false),
            readonly: options.readonly.unwrap_or(false),
        };
        let manifest = client_setup::bundle::manifest(&platform, env!("CARGO_PKG_VERSION"), &options);
        let folder = data_dir.join(BUNDLE_FOLDER);
        let bundle = folder.join(platform.bundle_name());
        let out = bundle.clone();
        tokio::task::spawn_blocking(move || {
            std::fs::create_dir_all(&folder).map_err(|source| SetupError::Io {
                action: "create the folder",
                path: folder.clone(),
                source,
            })?;
            client_setup::bundle::write_bundle(&out, &manifest, &sidecar, BUNDLE_ICON)
        })
        .await
        .map_err(|e| Error::new(ErrorCode::Other, format!("writing the Claude Desktop bundle stopped: {e}")))?
        .map_err(setup_error)?;
        Ok(bundle)
    }

    fn missing_sidecar(&self) -> String {
        let places: Vec<String> = self.sidecar.looked_in.iter().map(|p| p.display().to_string()).collect();
        format!(
            "the garmin-mcp program that AI clients start was not found (looked in: {}). Reinstall the \
             app, which ships it; when running from source, build it with `cargo xtask sidecar`",
            if places.is_empty() {
                "nowhere: the app's own location is unknown".to_owned()
            } else {
                places.join(", ")
            }
        )
    }

    fn sidecar_view(&self) -> SidecarView {
        SidecarView {
            path: self.sidecar.found.as_ref().map(|p| p.display().to_string()),
            looked_in: self.sidecar.looked_in.iter().map(|p| p.display().to_string()).collect(),
            from_appimage: self.from_appimage,
        }
    }
}

fn absolute(dir: &Path) -> Result<PathBuf> {
    std::path::absolute(dir).map_err(|e| {
        Error::new(ErrorCode::Other, format!("cannot make the data folder {} absolute: {e}", dir.display()))
    })
}

fn setup_error(e: SetupError) -> Error {
    Error::new(ErrorCode::Other, e.to_string())
}

/// The switches a row offers for the entry (the same as `garmin-mcp configure --demo --readonly`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EntryOptions {
    /// `--demo`: the client gets the offline demo account.
    pub demo: Option<bool>,
    /// `--readonly`: no tool writes to Garmin.
    pub readonly: Option<bool>,
}

fn parse_client(id: &str) -> Result<ClientId> {
    id.parse::<ClientId>().map_err(|e| Error::new(ErrorCode::InvalidInput, e.to_string()))
}

/// The panel: the sidecar the entries start, the data folder they pass, and every client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct ClientsView {
    /// Which `garmin-mcp` the entries start.
    pub sidecar: SidecarView,
    /// The `--data-dir` every entry passes: the real account's folder.
    pub data_dir: String,
    /// One row per client, in `ClientId::ALL` order.
    pub clients: Vec<ClientView>,
    /// The hosts that install our server from a link ("Add to VS Code"…), in the order shown.
    pub link_hosts: Vec<LinkHostView>,
}

/// A host with an install link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct LinkHostView {
    /// `vscode`, `cursor`, `goose` or `lmstudio`: what [`open_install_link`] takes.
    pub id: &'static str,
    /// Its name as people know it.
    pub name: &'static str,
}

/// The `garmin-mcp` the entries start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SidecarView {
    /// Its absolute path; `None` when it was not found (Configure is then refused).
    pub path: Option<String>,
    /// Where it was looked for, in order.
    pub looked_in: Vec<String>,
    /// The app runs from an AppImage: a path inside it breaks once the app quits.
    pub from_appimage: bool,
}

/// One client's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct ClientView {
    /// Stable id (`claude-code`, `codex`, …), what the other commands take.
    pub id: &'static str,
    /// The name people know.
    pub name: &'static str,
    /// Something of the client was found on this computer.
    pub installed: bool,
    /// How it was found, e.g. "found /home/ann/.codex".
    pub detected_by: Option<String>,
    /// The config file Configure writes; `None` when the client keeps servers inside the app.
    pub config_path: Option<String>,
    /// `yes`, `no`, `different` (an entry named `garmin` that starts something else) or `unknown`.
    #[ts(type = "\"yes\" | \"no\" | \"different\" | \"unknown\"")]
    pub configured: &'static str,
    /// For `different` and `unknown`: why, in plain words (with the file and what to do).
    pub configured_detail: Option<String>,
    /// Only a copyable snippet (Cherry Studio, a project's `.mcp.json`): no Configure / Remove.
    pub manual_only: bool,
    /// The client's entry passes `--demo` (the offline demo account).
    pub demo: bool,
    /// The client's entry passes `--readonly` (no tool writes to Garmin).
    pub readonly: bool,
}

impl From<ClientStatus> for ClientView {
    fn from(status: ClientStatus) -> Self {
        let (configured, configured_detail) = match status.configured {
            Configured::Yes => ("yes", None),
            Configured::No => ("no", None),
            Configured::Different(why) => ("different", Some(why)),
            Configured::Unknown(why) => ("unknown", Some(why)),
        };
        let has = |flag: &str| status.entry_flags.iter().any(|f| f == flag);
        ClientView {
            demo: has("--demo"),
            readonly: has("--readonly"),
            id: status.client.id(),
            name: status.client.display_name(),
            installed: status.installed,
            detected_by: status.detected_by,
            manual_only: status.config_path.is_none(),
            config_path: status.config_path.map(|p| p.display().to_string()),
            configured,
            configured_detail,
        }
    }
}

/// What Configure or Remove did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct ConfigEditView {
    /// The client's id.
    pub client: &'static str,
    /// `created`, `added`, `updated`, `unchanged`, `removed` or `not_present`.
    #[ts(type = "\"created\" | \"added\" | \"updated\" | \"unchanged\" | \"removed\" | \"not_present\"")]
    pub outcome: &'static str,
    /// The config file.
    pub path: String,
    /// Where the file as it was before garmin-mcp first changed it is kept, if it existed.
    pub backup: Option<String>,
    /// The whole outcome in words (file, backup, restart the client).
    pub message: String,
}

impl From<client_setup::ConfigEdit> for ConfigEditView {
    fn from(change: client_setup::ConfigEdit) -> Self {
        let outcome = match change.outcome {
            Outcome::Created => "created",
            Outcome::Added => "added",
            Outcome::Updated => "updated",
            Outcome::Unchanged => "unchanged",
            Outcome::Removed => "removed",
            Outcome::NotPresent => "not_present",
        };
        ConfigEditView {
            client: change.client.id(),
            outcome,
            path: change.path.display().to_string(),
            backup: change.backup.as_ref().map(|p| p.display().to_string()),
            message: change.to_string(),
        }
    }
}

/// The text for setting a client up by hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SnippetView {
    /// A whole config file holding only our server (JSON, or TOML for Codex).
    pub snippet: String,
    /// Where it goes and what to restart.
    pub where_to_put: String,
}

/// Every known client: installed?, configured?, its config file; and the sidecar the entries start.
#[tauri::command]
pub async fn list_clients(
    accounts: State<'_, Accounts>,
    clients: State<'_, AiClients>,
) -> Result<ClientsView> {
    let env = clients.env()?;
    let entry = clients.expected_entry(accounts.data_dir())?;
    let rows =
        ClientId::ALL.iter().map(|client| client_setup::status(*client, &env, &entry).into()).collect();
    Ok(ClientsView {
        sidecar: clients.sidecar_view(),
        data_dir: entry.args.get(1).cloned().unwrap_or_default(),
        clients: rows,
        link_hosts: std::iter::once(LinkHostView { id: CLAUDE_DESKTOP, name: "Claude Desktop" })
            .chain(LinkHost::ALL.iter().map(|h| LinkHostView { id: h.id(), name: h.display_name() }))
            .collect(),
    })
}

/// Opens host `host`'s "add this MCP server" dialog through its install link, filled with the
/// bundled sidecar, the account's data folder and `--demo` / `--readonly` as asked; the host asks the
/// person to confirm. Answers what happened, in words.
#[tauri::command]
pub async fn open_install_link(
    accounts: State<'_, Accounts>,
    clients: State<'_, AiClients>,
    host: String,
    demo: Option<bool>,
    readonly: Option<bool>,
) -> Result<String> {
    if host == CLAUDE_DESKTOP {
        return open_claude_desktop_bundle(&accounts, &clients, EntryOptions { demo, readonly }).await;
    }
    let Some(link_host) = LinkHost::from_id(&host) else {
        return Err(Error::new(
            ErrorCode::InvalidInput,
            format!("no install link for `{host}` (claude-desktop, vscode, cursor, goose or lmstudio)"),
        ));
    };
    let entry = clients.entry_with(accounts.data_dir(), EntryOptions { demo, readonly })?;
    let link = client_setup::install_link(link_host, &entry, "Your Garmin Connect data, charts and workouts");
    let name = link_host.display_name();
    (clients.open_link)(&link).map_err(|e| {
        Error::new(
            ErrorCode::Other,
            format!(
                "could not open {name} ({e}). Is {name} installed? Otherwise use Configure or the setup text."
            ),
        )
    })?;
    Ok(format!("Opened {name}: confirm adding the garmin server there."))
}

/// "Add to Claude Desktop": writes the bundle ([`AiClients::write_bundle`]) and hands it to the
/// system, which opens Claude Desktop's install dialog.
async fn open_claude_desktop_bundle(
    accounts: &Accounts,
    clients: &AiClients,
    options: EntryOptions,
) -> Result<String> {
    let bundle = clients.write_bundle(accounts.data_dir(), options).await?;
    let path = bundle.display().to_string();
    (clients.open_link)(&path).map_err(|e| {
        Error::new(
            ErrorCode::Other,
            format!(
                "could not open Claude Desktop ({e}). Is it installed? The extension is saved at {path}: \
                 drag it onto Claude Desktop's Settings → Extensions, or use Configure or the setup text."
            ),
        )
    })?;
    Ok(format!("Opened Claude Desktop: confirm installing the Garmin Connect extension there ({path})."))
}

/// Writes (or brings up to date) the `garmin` server in client `id`'s config, backing the file up
/// first; other servers stay as they were. `demo` / `readonly`: the row's boxes (absent: keep what
/// the entry has).
#[tauri::command]
pub async fn configure_client(
    accounts: State<'_, Accounts>,
    clients: State<'_, AiClients>,
    id: String,
    demo: Option<bool>,
    readonly: Option<bool>,
) -> Result<ConfigEditView> {
    let client = parse_client(&id)?;
    let entry = clients.entry_with(accounts.data_dir(), EntryOptions { demo, readonly })?;
    let change = client_setup::configure(client, &clients.env()?, &entry).map_err(setup_error)?;
    Ok(change.into())
}

/// Takes the `garmin` server out of client `id`'s config again; other servers stay.
#[tauri::command]
pub async fn remove_client(clients: State<'_, AiClients>, id: String) -> Result<ConfigEditView> {
    let client = parse_client(&id)?;
    let change = client_setup::remove(client, &clients.env()?, client_setup::DEFAULT_SERVER_NAME)
        .map_err(setup_error)?;
    Ok(change.into())
}

/// The exact text to set client `id` up by hand (with `--demo` / `--readonly` when asked), and
/// where it goes.
#[tauri::command]
pub async fn client_snippet(
    accounts: State<'_, Accounts>,
    clients: State<'_, AiClients>,
    id: String,
    demo: Option<bool>,
    readonly: Option<bool>,
) -> Result<SnippetView> {
    let client = parse_client(&id)?;
    let entry = clients.expected_entry(accounts.data_dir())?.with_flags(demo, readonly);
    Ok(SnippetView {
        snippet: client_setup::snippet(client, &entry),
        where_to_put: client_setup::where_to_put(client, &clients.env()?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b"").unwrap();
    }

    #[test]
    fn the_rows_boxes_go_into_the_entry_and_the_row_shows_what_the_entry_passes() {
        let home = tempfile::tempdir().unwrap();
        let sidecar = home.path().join("opt/garmin-mcp");
        touch(&sidecar);
        let search = SidecarSearch { found: Some(sidecar.clone()), looked_in: vec![sidecar] };
        let env = Env::for_os(client_setup::Os::Linux, home.path());
        let clients = AiClients::new(env.clone(), search);
        let data = home.path().join("data");
        let demo = clients.entry_with(&data, EntryOptions { demo: Some(true), readonly: None }).unwrap();
        client_setup::configure(ClientId::OpenCode, &env, &demo).unwrap();
        let plain = clients.entry(&data).unwrap();
        let row = ClientView::from(client_setup::status(ClientId::OpenCode, &env, &plain));
        assert_eq!((row.configured, row.demo, row.readonly), ("yes", true, false), "{row:?}");

        let off =
            clients.entry_with(&data, EntryOptions { demo: Some(false), readonly: Some(true) }).unwrap();
        client_setup::configure(ClientId::OpenCode, &env, &off).unwrap();
        let row = ClientView::from(client_setup::status(ClientId::OpenCode, &env, &plain));
        assert_eq!((row.demo, row.readonly), (false, true), "{row:?}");
    }

    #[test]
    fn a_release_build_looks_only_beside_itself_and_says_where_it_looked() {
        let root = tempfile::tempdir().unwrap();
        let exe = root.path().join("Garmin MCP.exe");
        touch(&root.path().join("garmin-mcp"));
        let search = locate_sidecar(&exe, None, "x86_64-pc-windows-msvc", ".exe");
        assert_eq!(search.found, None, "a file without .exe is not the Windows sidecar");
        assert_eq!(search.looked_in, vec![root.path().join("garmin-mcp.exe")]);

        let clients = AiClients::new(Env::for_os(client_setup::Os::Linux, root.path()), search);
        let error = clients.entry(root.path()).unwrap_err();
        assert!(error.message.contains("garmin-mcp.exe") && error.message.contains("cargo xtask sidecar"));
    }
}
