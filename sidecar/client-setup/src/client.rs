//! The AI clients we know how to connect, with the stable ids used on the command line
//! (`garmin-mcp configure <id>`), by the desktop app and in the golden test files, and the names
//! people know them by.

use std::fmt;
use std::str::FromStr;

/// An AI client that can start `garmin-mcp` as an MCP server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClientId {
    /// Anthropic's Claude Code CLI (`~/.claude.json`, user scope).
    ClaudeCode,
    /// The Claude desktop app (`claude_desktop_config.json`).
    ClaudeDesktop,
    /// OpenAI's Codex CLI (`~/.codex/config.toml`, TOML).
    Codex,
    /// Cursor (`~/.cursor/mcp.json`).
    Cursor,
    /// VS Code with Copilot (the user `mcp.json`, key `servers`).
    VsCode,
    /// Windsurf (`~/.codeium/windsurf/mcp_config.json`).
    Windsurf,
    /// Google's Gemini CLI (`~/.gemini/settings.json`).
    Gemini,
    /// Cherry Studio: servers live inside the app, so only a copyable snippet.
    CherryStudio,
    /// Tencent WorkBuddy, or CodeBuddy when only CodeBuddy is found.
    WorkBuddy,
    /// Z.ai's ZCode (`~/.zcode/cli/config.json`, nested `mcp.servers`).
    ZCode,
    /// DeepSeek Harness (`dsh`), or the community DeepSeek-TUI when only it is found.
    DeepSeek,
    /// Alibaba's Qwen Code (`~/.qwen/settings.json`, Gemini CLI's format).
    Qwen,
    /// GitHub Copilot CLI (`~/.copilot/mcp-config.json`).
    Copilot,
    /// opencode (`~/.config/opencode/opencode.json`, its own `mcp` shape).
    OpenCode,
    /// A project's `.mcp.json` (read by Claude Code, Copilot CLI and Qwen Code): a snippet only,
    /// since it lives in each project. (The id stays `generic`; no client reads `~/.agents/mcp.json`.)
    Generic,
}

impl ClientId {
    /// Every client, in the order the app and `configure --list` show them.
    pub const ALL: [ClientId; 15] = [
        ClientId::ClaudeCode,
        ClientId::ClaudeDesktop,
        ClientId::Codex,
        ClientId::Cursor,
        ClientId::VsCode,
        ClientId::Windsurf,
        ClientId::Gemini,
        ClientId::CherryStudio,
        ClientId::WorkBuddy,
        ClientId::ZCode,
        ClientId::DeepSeek,
        ClientId::Qwen,
        ClientId::Copilot,
        ClientId::OpenCode,
        ClientId::Generic,
    ];

    /// The stable id: lower-case, hyphenated, never changes once released.
    pub fn id(self) -> &'static str {
        match self {
            ClientId::ClaudeCode => "claude-code",
            ClientId::ClaudeDesktop => "claude-desktop",
            ClientId::Codex => "codex",
            ClientId::Cursor => "cursor",
            ClientId::VsCode => "vscode",
            ClientId::Windsurf => "windsurf",
            ClientId::Gemini => "gemini",
            ClientId::CherryStudio => "cherry-studio",
            ClientId::WorkBuddy => "workbuddy",
            ClientId::ZCode => "zcode",
            ClientId::DeepSeek => "deepseek",
            ClientId::Qwen => "qwen",
            ClientId::Copilot => "copilot",
            ClientId::OpenCode => "opencode",
            ClientId::Generic => "generic",
        }
    }

    /// The name to show people.
    pub fn display_name(self) -> &'static str {
        match self {
            ClientId::ClaudeCode => "Claude Code",
            ClientId::ClaudeDesktop => "Claude Desktop",
            ClientId::Codex => "Codex CLI",
            ClientId::Cursor => "Cursor",
            ClientId::VsCode => "VS Code",
            ClientId::Windsurf => "Windsurf",
            ClientId::Gemini => "Gemini CLI",
            ClientId::CherryStudio => "Cherry Studio",
            ClientId::WorkBuddy => "WorkBuddy / CodeBuddy",
            ClientId::ZCode => "ZCode",
            ClientId::DeepSeek => "DeepSeek (Harness / TUI)",
            ClientId::Qwen => "Qwen Code",
            ClientId::Copilot => "GitHub Copilot CLI",
            ClientId::OpenCode => "opencode",
            ClientId::Generic => "A project's .mcp.json (Claude Code, Copilot CLI, Qwen Code)",
        }
    }
}

impl fmt::Display for ClientId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.display_name())
    }
}

/// A client id nobody knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown AI client `{given}`; use one of: {}", known_ids())]
pub struct UnknownClient {
    /// What was asked for.
    pub given: String,
}

fn known_ids() -> String {
    ClientId::ALL.iter().map(|c| c.id()).collect::<Vec<_>>().join(", ")
}

impl FromStr for ClientId {
    type Err = UnknownClient;

    /// Parses a stable id, ignoring case and surrounding spaces.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim();
        ClientId::ALL
            .into_iter()
            .find(|c| c.id().eq_ignore_ascii_case(wanted))
            .ok_or_else(|| UnknownClient { given: s.to_owned() })
    }
}
