//! One-click install links: the URLs that open VS Code, Cursor, Goose or LM Studio on their own
//! "add this MCP server" dialog (each asks the person to confirm), filled with a [`ServerEntry`]
//! (the absolute `garmin-mcp` path, its arguments and variables). The desktop app can open these
//! instead of writing the client's config file. Formats, as each host documents them
//! (`remote-oauth-apps-bundles.md` §3.3):
//!
//! * VS Code: `vscode:mcp/install?<percent-encoded JSON {name, type: "stdio", command, args, env}>`.
//! * Cursor: `cursor://anysphere.cursor-deeplink/mcp/install?name=<name>&config=<base64 of the
//!   mcp.json entry {command, args, env}>`.
//! * Goose: `goose://extension?cmd=<command>&arg=<each argument>&id=<id>&name=<name>&description=…`
//!   (Goose's links carry no variable values, only `env=KEY%3DLabel` prompts; ours need none).
//! * LM Studio: `lmstudio://add_mcp?name=<name>&config=<base64 of {command, args, env}>`.
//!
//! Every value is percent-encoded as a URL component, base64 included (its `+`, `/`, `=`).

use base64::Engine as _;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::{Value, json};

use crate::ServerEntry;

/// What a URL component keeps as is: RFC 3986's unreserved characters.
const COMPONENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// The hosts with an install link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkHost {
    /// Visual Studio Code (GitHub Copilot's agent mode).
    VsCode,
    /// Cursor.
    Cursor,
    /// Goose (desktop).
    Goose,
    /// LM Studio.
    LmStudio,
}

impl LinkHost {
    /// Every host with a link, in the order the app shows them.
    pub const ALL: [LinkHost; 4] = [LinkHost::VsCode, LinkHost::Cursor, LinkHost::Goose, LinkHost::LmStudio];

    /// The stable id the app passes around (`vscode`, `cursor`, `goose`, `lmstudio`).
    pub fn id(self) -> &'static str {
        match self {
            LinkHost::VsCode => "vscode",
            LinkHost::Cursor => "cursor",
            LinkHost::Goose => "goose",
            LinkHost::LmStudio => "lmstudio",
        }
    }

    /// The host's name as people know it.
    pub fn display_name(self) -> &'static str {
        match self {
            LinkHost::VsCode => "VS Code",
            LinkHost::Cursor => "Cursor",
            LinkHost::Goose => "Goose",
            LinkHost::LmStudio => "LM Studio",
        }
    }

    /// The host with `id`, or `None`.
    pub fn from_id(id: &str) -> Option<LinkHost> {
        LinkHost::ALL.into_iter().find(|host| host.id() == id)
    }
}

fn encode(text: &str) -> String {
    utf8_percent_encode(text, COMPONENT).to_string()
}

/// The entry as a stdio server definition: command, arguments and (when any) variables.
fn definition(entry: &ServerEntry) -> Value {
    let mut definition = json!({ "command": entry.command.to_string_lossy(), "args": entry.args });
    if !entry.env.is_empty() {
        definition["env"] = json!(entry.env);
    }
    definition
}

fn base64_of(value: &Value) -> String {
    base64::engine::general_purpose::STANDARD.encode(value.to_string())
}

/// The link that makes `host` offer to add `entry`; `description` is shown by hosts that show one.
pub fn install_link(host: LinkHost, entry: &ServerEntry, description: &str) -> String {
    let name = &entry.name;
    match host {
        LinkHost::VsCode => {
            let mut config = definition(entry);
            config["name"] = json!(name);
            config["type"] = json!("stdio");
            format!("vscode:mcp/install?{}", encode(&config.to_string()))
        }
        LinkHost::Cursor => format!(
            "cursor://anysphere.cursor-deeplink/mcp/install?name={}&config={}",
            encode(name),
            encode(&base64_of(&definition(entry)))
        ),
        LinkHost::Goose => {
            let mut link = format!("goose://extension?cmd={}", encode(&entry.command.to_string_lossy()));
            for arg in &entry.args {
                link.push_str(&format!("&arg={}", encode(arg)));
            }
            link.push_str(&format!(
                "&id={}&name={}&description={}",
                encode(name),
                encode(name),
                encode(description)
            ));
            link
        }
        LinkHost::LmStudio => {
            format!(
                "lmstudio://add_mcp?name={}&config={}",
                encode(name),
                encode(&base64_of(&definition(entry)))
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use percent_encoding::percent_decode_str;

    use super::*;

    fn entry() -> ServerEntry {
        let data = if cfg!(windows) {
            Path::new(r"C:\Users\Zoë Li\AppData\Garmin MCP")
        } else {
            Path::new("/home/zoë li/.local/share/Garmin MCP")
        };
        let mut entry = ServerEntry::new("/opt/Garmin MCP/garmin-mcp", data).unwrap();
        entry.args.push("--readonly".to_owned());
        entry
    }

    fn decode(text: &str) -> String {
        percent_decode_str(text).decode_utf8().unwrap().into_owned()
    }

    /// The query's `key=value` pairs, decoded, in order.
    fn query(link: &str) -> Vec<(String, String)> {
        let (_, query) = link.split_once('?').unwrap();
        query
            .split('&')
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap();
                (decode(k), decode(v))
            })
            .collect()
    }

    #[test]
    fn every_host_is_found_again_by_its_id_and_an_unknown_id_is_none() {
        for host in LinkHost::ALL {
            assert_eq!(LinkHost::from_id(host.id()), Some(host));
            assert!(!host.display_name().is_empty());
        }
        assert_eq!(LinkHost::from_id("claude"), None);
    }

    fn base64_json(text: &str) -> Value {
        serde_json::from_slice(&base64::engine::general_purpose::STANDARD.decode(text).unwrap()).unwrap()
    }

    #[test]
    fn vs_code_gets_the_entry_as_percent_encoded_json_with_name_and_type() {
        let entry = entry();
        let link = install_link(LinkHost::VsCode, &entry, "");
        let config: Value =
            serde_json::from_str(&decode(link.strip_prefix("vscode:mcp/install?").unwrap())).unwrap();
        assert_eq!(config["name"], "garmin");
        assert_eq!(config["type"], "stdio");
        assert_eq!(config["command"], "/opt/Garmin MCP/garmin-mcp");
        assert_eq!(config["args"], json!(entry.args));
        assert!(config.get("env").is_none(), "no empty env");
        assert!(!link.contains(' ') && !link.contains('"'), "{link}");
    }

    #[test]
    fn cursor_and_lm_studio_get_the_mcp_json_entry_in_base64() {
        let entry = entry();
        for (host, prefix) in [
            (LinkHost::Cursor, "cursor://anysphere.cursor-deeplink/mcp/install?"),
            (LinkHost::LmStudio, "lmstudio://add_mcp?"),
        ] {
            let link = install_link(host, &entry, "");
            assert!(link.starts_with(prefix), "{link}");
            let pairs = query(&link);
            assert_eq!(pairs[0], ("name".to_owned(), "garmin".to_owned()));
            assert_eq!(pairs[1].0, "config");
            let config = base64_json(&pairs[1].1);
            assert_eq!(config, json!({ "command": "/opt/Garmin MCP/garmin-mcp", "args": entry.args }));
        }
    }

    #[test]
    fn goose_gets_the_command_and_each_argument_in_order() {
        let mut entry = entry();
        entry.args.push("a&b=c d".to_owned());
        let link = install_link(LinkHost::Goose, &entry, "Garmin Connect data & charts");
        assert!(link.starts_with("goose://extension?"), "{link}");
        let pairs = query(&link);
        assert_eq!(pairs[0], ("cmd".to_owned(), "/opt/Garmin MCP/garmin-mcp".to_owned()));
        let args: Vec<&str> = pairs.iter().filter(|(k, _)| k == "arg").map(|(_, v)| v.as_str()).collect();
        assert_eq!(
            args,
            entry.args.iter().map(String::as_str).collect::<Vec<_>>(),
            "a value with & and = survives"
        );
        let value = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        assert_eq!(value("id").as_deref(), Some("garmin"));
        assert_eq!(value("description").as_deref(), Some("Garmin Connect data & charts"));
    }

    #[test]
    fn variables_travel_where_the_format_has_room_for_them() {
        let mut entry = entry();
        entry.env.insert("GARMIN_MCP_EXPORT_DIR".to_owned(), "/tmp/x".to_owned());
        let cursor = query(&install_link(LinkHost::Cursor, &entry, ""));
        assert_eq!(base64_json(&cursor[1].1)["env"]["GARMIN_MCP_EXPORT_DIR"], "/tmp/x");
        let vscode = install_link(LinkHost::VsCode, &entry, "");
        let config: Value =
            serde_json::from_str(&decode(vscode.strip_prefix("vscode:mcp/install?").unwrap())).unwrap();
        assert_eq!(config["env"]["GARMIN_MCP_EXPORT_DIR"], "/tmp/x");
        assert_eq!(LinkHost::ALL.len(), 4);
    }
}
