//! Which line endings a config file is written with. Our edits produce `\n`; the file keeps the
//! endings it already has, and a new file gets the ones its client writes itself:
//!
//! * an existing file written with `\r\n` only (a Windows editor's) stays `\r\n`: the lines we add
//!   get `\r\n` too, so the file does not end up mixed; a file with `\n` or with both keeps every
//!   byte we do not change as it was;
//! * a new file gets `\n`, what Node's `JSON.stringify` + `fs.writeFile` (Claude Desktop, Claude
//!   Code, Cursor, Windsurf, Gemini CLI, Qwen Code, opencode, Copilot CLI…) and Codex's Rust TOML
//!   writer produce on every OS, except VS Code's `mcp.json` on Windows: VS Code's own editor writes
//!   `\r\n` there (its `files.eol` setting defaults to `auto`, the OS's ending).
//!
//! JSON and TOML read both endings the same, so this is about diffs and editors, not about parsing.

use crate::{ClientId, Os};

/// How to end the lines of the text we write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LineEnding {
    /// `\n` (our edits' own).
    Lf,
    /// `\r\n`.
    CrLf,
}

/// The ending for `client`'s file on `os`, given its current text (`None`: a new file).
pub(crate) fn for_file(os: Os, client: ClientId, existing: Option<&str>) -> LineEnding {
    match existing {
        Some(text) if only_crlf(text) => LineEnding::CrLf,
        Some(_) => LineEnding::Lf,
        None if os == Os::Windows && client == ClientId::VsCode => LineEnding::CrLf,
        None => LineEnding::Lf,
    }
}

/// `text` with its lone `\n` turned into `\r\n` for [`LineEnding::CrLf`]; unchanged for `Lf`.
pub(crate) fn apply(text: &str, ending: LineEnding) -> String {
    match ending {
        LineEnding::Lf => text.to_owned(),
        LineEnding::CrLf => {
            let mut out = String::with_capacity(text.len() + text.len() / 16);
            let mut previous = '\0';
            for c in text.chars() {
                if c == '\n' && previous != '\r' {
                    out.push('\r');
                }
                out.push(c);
                previous = c;
            }
            out
        }
    }
}

/// True when `text` has line breaks and every one is `\r\n`.
fn only_crlf(text: &str) -> bool {
    let breaks = text.matches('\n').count();
    breaks > 0 && text.matches("\r\n").count() == breaks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crlf_file_stays_crlf_and_an_lf_or_mixed_file_is_left_as_it_is() {
        assert_eq!(for_file(Os::Linux, ClientId::Cursor, Some("{\r\n}\r\n")), LineEnding::CrLf);
        assert_eq!(for_file(Os::Windows, ClientId::VsCode, Some("{\n}\n")), LineEnding::Lf);
        assert_eq!(for_file(Os::Windows, ClientId::Cursor, Some("{\r\n\n}")), LineEnding::Lf, "mixed");
        assert_eq!(for_file(Os::Windows, ClientId::Cursor, Some("{}")), LineEnding::Lf, "one line");
    }

    #[test]
    fn a_new_file_gets_its_clients_own_endings() {
        assert_eq!(for_file(Os::Windows, ClientId::VsCode, None), LineEnding::CrLf);
        for client in [ClientId::ClaudeDesktop, ClientId::Cursor, ClientId::Codex, ClientId::Gemini] {
            assert_eq!(for_file(Os::Windows, client, None), LineEnding::Lf, "{client}");
        }
        assert_eq!(for_file(Os::Mac, ClientId::VsCode, None), LineEnding::Lf);
        assert_eq!(for_file(Os::Linux, ClientId::VsCode, None), LineEnding::Lf);
    }

    #[test]
    fn crlf_is_added_only_where_missing() {
        assert_eq!(apply("a\r\nb\nc\n", LineEnding::CrLf), "a\r\nb\r\nc\r\n");
        assert_eq!(apply("a\nb", LineEnding::Lf), "a\nb");
    }
}
