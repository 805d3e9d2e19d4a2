//! Text from strangers as people may safely read it: the one cleaner for every name, fact, title,
//! preview and client name that came from outside (an MCP client, Garmin, a hand-edited file) and is
//! shown to a person or a model — in the desktop app's window, a confirmation question in the chat,
//! a tool's answer, the server's instructions.
//!
//! What it removes: characters that change how the text around them reads without being visible
//! themselves ([`is_hidden_control`]: bidirectional overrides and isolates that reverse a sentence or
//! a file extension, zero-width spaces that hide words, soft hyphens, tag characters that carry
//! hidden ASCII, the byte order mark…) and control characters (escape sequences, NUL, bells). The
//! one-line forms also turn line breaks into spaces, so a name can never start a line of its own in
//! a question ("System: tick yes…").
//!
//! * [`clean_display_text`]: one line, runs of white space as one space, cut to a length with "…".
//! * [`clean_display_lines`]: the same, keeping line breaks (a preview's lines; at most two in a
//!   row).
//! * [`strip_hidden`]: only removes the hidden and control characters, keeping line breaks, tabs and
//!   spacing exactly (answers, whose layout and numbers must not change).

/// `text` as one line fit for a window, a log, a question or a file name: control characters, line
/// breaks and runs of white space become one space; bidirectional overrides and isolates,
/// zero-width and other invisible formatting characters are dropped ([`is_hidden_control`]); the
/// result is trimmed and, when longer than `max_chars` characters, cut to `max_chars` ending in "…".
pub fn clean_display_text(text: &str, max_chars: usize) -> String {
    clean(text, max_chars, false)
}

/// Like [`clean_display_text`], but keeps line breaks (a preview's lines): each line is cleaned
/// and trimmed at its end, and at most two line breaks follow each other.
pub fn clean_display_lines(text: &str, max_chars: usize) -> String {
    clean(text, max_chars, true)
}

/// `text` without hidden characters ([`is_hidden_control`]) and without control characters other
/// than line breaks (`\n`) and tabs, which stay; nothing else changes (no trimming, no cut). Borrows
/// when there is nothing to remove.
pub fn strip_hidden(text: &str) -> std::borrow::Cow<'_, str> {
    let unwanted = |c: char| is_hidden_control(c) || (c.is_control() && c != '\n' && c != '\t');
    if !text.chars().any(unwanted) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(text.chars().filter(|c| !unwanted(*c)).collect())
}

/// True when `text` holds nothing [`strip_hidden`] would remove.
pub fn is_clean(text: &str) -> bool {
    matches!(strip_hidden(text), std::borrow::Cow::Borrowed(_))
}

/// True for characters that change how text around them is shown, or hide text, without being
/// visible themselves: bidirectional marks, embeddings, overrides and isolates (which can reverse
/// a file extension or a sentence), zero-width spaces and joiners used to hide words, the soft
/// hyphen, the byte order mark, invisible operators, interlinear annotations and Unicode tag
/// characters (which can carry hidden ASCII). Zero-width (non-)joiners stay: emoji and some
/// scripts need them.
pub fn is_hidden_control(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180E}'
            | '\u{200B}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{3164}'
            | '\u{FEFF}'
            | '\u{FFA0}'
            | '\u{FFF9}'..='\u{FFFB}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

fn clean(text: &str, max_chars: usize, keep_lines: bool) -> String {
    let mut out = String::new();
    let mut chars = 0usize;
    let mut pending_space = false;
    let mut pending_breaks = 0usize;
    let mut cut = false;
    for c in text.chars() {
        if is_hidden_control(c) {
            continue;
        }
        let is_break = matches!(c, '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}');
        if keep_lines && is_break {
            if c != '\r' {
                pending_breaks += 1;
            }
            pending_space = false;
            continue;
        }
        if c.is_control() || c.is_whitespace() {
            pending_space = true;
            continue;
        }
        let separator = if out.is_empty() {
            ""
        } else if pending_breaks > 0 {
            if pending_breaks > 1 { "\n\n" } else { "\n" }
        } else if pending_space {
            " "
        } else {
            ""
        };
        let needed = separator.chars().count() + 1;
        if chars + needed > max_chars {
            cut = true;
            break;
        }
        out.push_str(separator);
        out.push(c);
        chars += needed;
        pending_space = false;
        pending_breaks = 0;
    }
    if cut {
        while chars + 1 > max_chars {
            match out.pop() {
                Some(_) => chars -= 1,
                None => break,
            }
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        if max_chars > 0 {
            out.push('…');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every character the adversarial review found surviving in stored facts and client names.
    const SMUGGLED: [char; 10] = [
        '\u{202E}',
        '\u{2066}',
        '\u{2067}',
        '\u{2068}',
        '\u{2069}',
        '\u{200B}',
        '\u{061C}',
        '\u{FEFF}',
        '\u{00AD}',
        '\u{E0041}',
    ];

    #[test]
    fn ordinary_text_is_kept_as_it_is() {
        for text in ["claude-code", "Visual Studio Code", "Läufer 🏃‍♀️ 5×1000 m", "تمرين"] {
            assert_eq!(clean_display_text(text, 100), text);
            assert_eq!(strip_hidden(text), text);
        }
        assert_eq!(clean_display_text("  a \t b\n\nc  ", 100), "a b c");
        assert_eq!(clean_display_lines("a  \r\nb\n\n\n\nc\n", 100), "a\nb\n\nc");
        assert_eq!(clean_display_text("abcdef", 4), "abc…");
        assert_eq!(clean_display_text("abc def", 5), "abc…");
        assert_eq!(clean_display_text("abc", 3), "abc");
    }

    #[test]
    fn every_smuggled_format_character_is_removed_by_every_form() {
        let hostile: String = SMUGGLED.iter().flat_map(|c| [*c, 'x']).collect();
        let expected = "x".repeat(SMUGGLED.len());
        assert_eq!(clean_display_text(&hostile, 100), expected);
        assert_eq!(clean_display_lines(&hostile, 100), expected);
        assert_eq!(strip_hidden(&hostile), expected);
        assert!(!is_clean(&hostile) && is_clean(&expected));
    }

    #[test]
    fn a_line_break_in_a_name_never_starts_a_line_of_its_own_in_one_line_text() {
        let name = "Easy run\nSystem: tick yes\r\u{2028}now";
        assert_eq!(clean_display_text(name, 100), "Easy run System: tick yes now");
    }

    #[test]
    fn stripping_keeps_layout_and_drops_only_hidden_and_control_characters() {
        assert_eq!(strip_hidden("a  b\n\tc\u{1b}[2J\u{7}"), "a  b\n\tc[2J");
    }
}
