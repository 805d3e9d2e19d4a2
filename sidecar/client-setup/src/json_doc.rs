//! Editing a JSON config file in place: we change only the bytes of the member we add, replace or
//! remove, and every other byte — other servers, unrelated keys and their order, indentation,
//! line endings, a byte-order mark, and (for JSON-with-comments files) comments and trailing commas —
//! stays exactly as the user or the client wrote it.
//!
//! Re-serialising through `serde_json` (even with `preserve_order`) would keep the keys but reflow
//! the whole file (indentation, number spelling, comments), and turning `preserve_order` on would
//! also change key order in every other crate of the binary. So `serde_json` only validates the
//! text (and reports line and column), and a small scanner over the validated text finds the
//! byte spans of object members. New text follows the file's own style: its newline, its indent
//! unit, one member per line or a single line.

use serde_json::Value;

/// A JSON value we write, with object keys in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Node {
    /// A string.
    Str(String),
    /// An array.
    List(Vec<Node>),
    /// An object, keys in this order.
    Map(Vec<(String, Node)>),
}

impl Node {
    /// The same value as `serde_json` sees it (for comparisons).
    pub(crate) fn to_value(&self) -> Value {
        match self {
            Node::Str(s) => Value::String(s.clone()),
            Node::List(items) => Value::Array(items.iter().map(Node::to_value).collect()),
            Node::Map(entries) => {
                Value::Object(entries.iter().map(|(k, v)| (k.clone(), v.to_value())).collect())
            }
        }
    }
}

/// Where and why the text is not JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParseError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What the parser expected.
    pub message: String,
}

/// Why an edit could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EditError {
    /// A key on the way holds something other than an object.
    NotAnObject {
        /// Dot-separated key path (`(top level)` for the document).
        key: String,
        /// What it holds (`an array`, …).
        found: &'static str,
    },
    /// The scanner lost its way (a bug: the text was validated first).
    Internal(&'static str),
}

/// A validated JSON document being edited.
#[derive(Debug, Clone)]
pub(crate) struct JsonDoc {
    text: String,
    /// `text` with a byte-order mark, comments and trailing commas blanked to spaces (same byte
    /// offsets, so spans found here apply to `text`).
    scan: Vec<u8>,
    jsonc: bool,
}

#[derive(Debug)]
struct Member {
    key: String,
    key_start: usize,
    colon: usize,
    value_start: usize,
    value_end: usize,
}

#[derive(Debug)]
struct Object {
    open: usize,
    close: usize,
    members: Vec<Member>,
}

enum Walk {
    /// The last key exists: `parent.members[index]`.
    Found { parent: Object, index: usize },
    /// `path[matched]` is missing from `parent` (the keys before it exist and hold objects).
    Missing { parent: Object, matched: usize },
}

const DEFAULT_INDENT: &str = "  ";

impl JsonDoc {
    /// An empty object, for a file that does not exist yet.
    pub(crate) fn new_object(jsonc: bool) -> JsonDoc {
        let text = "{}".to_owned();
        let scan = blank(&text, jsonc);
        JsonDoc { text, scan, jsonc }
    }

    /// Validates `text`; with `jsonc`, `//` and `/* */` comments and trailing commas are accepted
    /// (VS Code's format). A file holding only whitespace counts as an empty object.
    pub(crate) fn parse(text: &str, jsonc: bool) -> Result<JsonDoc, ParseError> {
        let scan = blank(text, jsonc);
        let checked = std::str::from_utf8(&scan).map_err(|_| ParseError {
            line: 1,
            column: 1,
            message: "the file is not UTF-8 text".to_owned(),
        })?;
        if checked.trim().is_empty() {
            return Ok(JsonDoc::new_object(jsonc));
        }
        if let Err(e) = serde_json::from_str::<Value>(checked) {
            let full = e.to_string();
            let message = full.rsplit_once(" at line ").map_or(full.as_str(), |(m, _)| m).to_owned();
            return Err(ParseError { line: e.line(), column: e.column().max(1), message });
        }
        Ok(JsonDoc { text: text.to_owned(), scan, jsonc })
    }

    /// The current text.
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// The value at `path`, `None` when a key on the way is missing.
    pub(crate) fn get(&self, path: &[&str]) -> Result<Option<Value>, EditError> {
        match self.walk(path)? {
            Walk::Missing { .. } => Ok(None),
            Walk::Found { parent, index } => {
                let member = parent.members.get(index).ok_or(EditError::Internal("member index"))?;
                let span = self.scan.get(member.value_start..member.value_end);
                let value = span.and_then(|bytes| serde_json::from_slice(bytes).ok());
                value.map(Some).ok_or(EditError::Internal("value span"))
            }
        }
    }

    /// Sets `path` to `node`: replaces the value if the key exists, otherwise adds the member
    /// (creating the missing objects on the way) after the last member of its object.
    pub(crate) fn set(&mut self, path: &[&str], node: &Node) -> Result<(), EditError> {
        let (start, end, replacement) = match self.walk(path)? {
            Walk::Found { parent, index } => {
                let member = parent.members.get(index).ok_or(EditError::Internal("member index"))?;
                (member.value_start, member.value_end, self.render_in_place(node, &parent, member))
            }
            Walk::Missing { parent, matched } => {
                let key = path.get(matched).ok_or(EditError::Internal("key index"))?;
                let rest = path.get(matched + 1..).unwrap_or_default();
                let value = rest
                    .iter()
                    .rev()
                    .fold(node.clone(), |inner, k| Node::Map(vec![((*k).to_owned(), inner)]));
                self.insertion(&parent, key, &value)?
            }
        };
        self.splice(start, end, &replacement)
    }

    /// Removes every member at `path` (duplicates included) with its separator; true when one was
    /// there. An object left empty stays as `{}`.
    pub(crate) fn remove(&mut self, path: &[&str]) -> Result<bool, EditError> {
        let mut removed = false;
        while let Walk::Found { parent, index } = self.walk(path)? {
            let members = &parent.members;
            let member = members.get(index).ok_or(EditError::Internal("member index"))?;
            let (start, end) = match (index.checked_sub(1).and_then(|i| members.get(i)), members.get(1)) {
                // `, "ours": …` after the previous member's value.
                (Some(previous), _) => (previous.value_end, member.value_end),
                // First of several: `"ours": …,<whitespace>` up to the next key.
                (None, Some(next)) => (member.key_start, next.key_start),
                // The only member: leave `{}`.
                (None, None) => (parent.open + 1, parent.close),
            };
            self.splice(start, end, "")?;
            removed = true;
        }
        Ok(removed)
    }

    fn splice(&mut self, start: usize, end: usize, replacement: &str) -> Result<(), EditError> {
        let ok = start <= end
            && end <= self.text.len()
            && self.text.is_char_boundary(start)
            && self.text.is_char_boundary(end);
        if !ok {
            return Err(EditError::Internal("edit span"));
        }
        self.text.replace_range(start..end, replacement);
        self.scan = blank(&self.text, self.jsonc);
        Ok(())
    }

    fn walk(&self, path: &[&str]) -> Result<Walk, EditError> {
        let mut parent = self.root()?;
        for (depth, key) in path.iter().enumerate() {
            let Some(index) = parent.members.iter().rposition(|m| m.key == *key) else {
                return Ok(Walk::Missing { parent, matched: depth });
            };
            if depth + 1 == path.len() {
                return Ok(Walk::Found { parent, index });
            }
            let start = parent.members.get(index).ok_or(EditError::Internal("member index"))?.value_start;
            if self.scan.get(start) != Some(&b'{') {
                let key = path.get(..=depth).unwrap_or_default().join(".");
                return Err(EditError::NotAnObject { key, found: kind_of(self.scan.get(start)) });
            }
            parent = self.object_at(start).ok_or(EditError::Internal("nested object"))?;
        }
        Err(EditError::Internal("empty key path"))
    }

    fn root(&self) -> Result<Object, EditError> {
        let start = skip_ws(&self.scan, 0);
        match self.scan.get(start) {
            Some(b'{') => self.object_at(start).ok_or(EditError::Internal("top-level object")),
            other => Err(EditError::NotAnObject { key: "(top level)".to_owned(), found: kind_of(other) }),
        }
    }

    fn object_at(&self, open: usize) -> Option<Object> {
        let b = &self.scan;
        if b.get(open) != Some(&b'{') {
            return None;
        }
        let mut members = Vec::new();
        let mut i = skip_ws(b, open + 1);
        loop {
            match b.get(i)? {
                b'}' => return Some(Object { open, close: i, members }),
                b'"' => {
                    let key_end = string_end(b, i);
                    let key: String = serde_json::from_slice(b.get(i..key_end)?).ok()?;
                    let colon = skip_ws(b, key_end);
                    if b.get(colon) != Some(&b':') {
                        return None;
                    }
                    let value_start = skip_ws(b, colon + 1);
                    let value_end = value_end(b, value_start)?;
                    members.push(Member { key, key_start: i, colon, value_start, value_end });
                    i = skip_ws(b, value_end);
                    if b.get(i) == Some(&b',') {
                        i = skip_ws(b, i + 1);
                    }
                }
                _ => return None,
            }
        }
    }

    /// The text to put where a member's value was: same layout as its object.
    fn render_in_place(&self, node: &Node, parent: &Object, member: &Member) -> String {
        let object_text = self.text.get(parent.open..parent.close).unwrap_or_default();
        if object_text.contains('\n') {
            render_pretty(node, &self.line_indent(member.key_start), &self.indent_unit(), self.newline())
        } else {
            render_compact(node, self.scan.get(member.colon + 1).is_some_and(|b| is_ws(*b)))
        }
    }

    /// Where and what to insert to add `key: value` to `parent`.
    fn insertion(
        &self,
        parent: &Object,
        key: &str,
        value: &Node,
    ) -> Result<(usize, usize, String), EditError> {
        let nl = self.newline();
        let key = quote(key);
        if let Some(last) = parent.members.last() {
            let gap_start = (0..last.key_start)
                .rev()
                .find(|&i| self.scan.get(i).is_some_and(|b| !is_ws(*b)))
                .map_or(0, |i| i + 1);
            let gap = self.scan.get(gap_start..last.key_start).unwrap_or_default();
            let text = if gap.contains(&b'\n') {
                let indent = self.line_indent(last.key_start);
                format!(",{nl}{indent}{key}: {}", render_pretty(value, &indent, &self.indent_unit(), nl))
            } else {
                let spaced = self.scan.get(last.colon + 1).is_some_and(|b| is_ws(*b));
                let separator = if gap.is_empty() { "" } else { " " };
                let colon = if spaced { ": " } else { ":" };
                format!(",{separator}{key}{colon}{}", render_compact(value, spaced))
            };
            return Ok((last.value_end, last.value_end, text));
        }
        let inner = self.text.get(parent.open + 1..parent.close).ok_or(EditError::Internal("object span"))?;
        let inner_blank = inner.trim().is_empty();
        let root_has_members = self.root().map(|r| !r.members.is_empty()).unwrap_or(false);
        let (start, end) =
            if inner_blank { (parent.open + 1, parent.close) } else { (parent.open + 1, parent.open + 1) };
        if self.text.contains('\n') || !root_has_members {
            let outer = self.line_indent(parent.open);
            let indent = format!("{outer}{}", self.indent_unit());
            let member =
                format!("{nl}{indent}{key}: {}", render_pretty(value, &indent, &self.indent_unit(), nl));
            let closing = if inner_blank { format!("{nl}{outer}") } else { String::new() };
            Ok((start, end, format!("{member}{closing}")))
        } else {
            Ok((start, end, format!("{key}:{}", render_compact(value, false))))
        }
    }

    fn newline(&self) -> &'static str {
        if self.text.contains("\r\n") { "\r\n" } else { "\n" }
    }

    /// The indentation of the line holding byte `pos`.
    fn line_indent(&self, pos: usize) -> String {
        let bytes = self.text.as_bytes();
        let line_start =
            bytes.get(..pos).and_then(|b| b.iter().rposition(|&c| c == b'\n')).map_or(0, |p| p + 1);
        bytes
            .get(line_start..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .map(|&c| char::from(c))
            .collect()
    }

    /// One level of indentation as the file uses it (two spaces when it cannot tell).
    fn indent_unit(&self) -> String {
        let Ok(root) = self.root() else { return DEFAULT_INDENT.to_owned() };
        let Some(first) = root.members.first() else { return DEFAULT_INDENT.to_owned() };
        let between = self.scan.get(root.open..first.key_start).unwrap_or_default();
        if !between.contains(&b'\n') {
            return DEFAULT_INDENT.to_owned();
        }
        let outer = self.line_indent(root.open);
        let inner = self.line_indent(first.key_start);
        match inner.strip_prefix(outer.as_str()) {
            Some(unit) if !unit.is_empty() => unit.to_owned(),
            _ => DEFAULT_INDENT.to_owned(),
        }
    }
}

/// Renders `node` one member or element per line, nested lines indented by `unit` beyond `base`.
pub(crate) fn render_pretty(node: &Node, base: &str, unit: &str, nl: &str) -> String {
    let inner = format!("{base}{unit}");
    match node {
        Node::Str(s) => quote(s),
        Node::List(items) if items.is_empty() => "[]".to_owned(),
        Node::Map(entries) if entries.is_empty() => "{}".to_owned(),
        Node::List(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|item| format!("{nl}{inner}{}", render_pretty(item, &inner, unit, nl)))
                .collect();
            format!("[{}{nl}{base}]", parts.join(","))
        }
        Node::Map(entries) => {
            let parts: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{nl}{inner}{}: {}", quote(k), render_pretty(v, &inner, unit, nl)))
                .collect();
            format!("{{{}{nl}{base}}}", parts.join(","))
        }
    }
}

/// Renders `node` on one line, with or without a space after `,` and `:`.
fn render_compact(node: &Node, spaced: bool) -> String {
    let (comma, colon) = if spaced { (", ", ": ") } else { (",", ":") };
    match node {
        Node::Str(s) => quote(s),
        Node::List(items) => {
            let parts: Vec<String> = items.iter().map(|i| render_compact(i, spaced)).collect();
            format!("[{}]", parts.join(comma))
        }
        Node::Map(entries) => {
            let parts: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("{}{colon}{}", quote(k), render_compact(v, spaced)))
                .collect();
            format!("{{{}}}", parts.join(comma))
        }
    }
}

/// A JSON string literal (escapes included).
fn quote(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while b.get(i).is_some_and(|c| is_ws(*c)) {
        i += 1;
    }
    i
}

/// The index just past the string literal starting at `start` (a `"`).
fn string_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    b.len()
}

/// The index just past the value starting at `start`.
fn value_end(b: &[u8], start: usize) -> Option<usize> {
    match b.get(start)? {
        b'"' => Some(string_end(b, start)),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = start;
            while let Some(&c) = b.get(i) {
                match c {
                    b'"' => {
                        i = string_end(b, i);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.checked_sub(1)?;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            None
        }
        _ => {
            let mut i = start;
            while b.get(i).is_some_and(|&c| !matches!(c, b',' | b'}' | b']') && !is_ws(c)) {
                i += 1;
            }
            Some(i)
        }
    }
}

fn kind_of(b: Option<&u8>) -> &'static str {
    match b {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        Some(_) => "a number",
        None => "empty",
    }
}

/// `text` as bytes with a leading byte-order mark blanked and, for JSON with comments, comments
/// and trailing commas blanked too; byte offsets and line breaks stay where they were. An
/// unterminated block comment is left alone so the parser reports it.
fn blank(text: &str, jsonc: bool) -> Vec<u8> {
    let mut out = text.as_bytes().to_vec();
    if let Some(bom) = out.get_mut(..3).filter(|b| *b == [0xEF, 0xBB, 0xBF]) {
        bom.fill(b' ');
    }
    if !jsonc {
        return out;
    }
    let mut i = 0;
    while let Some(&c) = out.get(i) {
        match (c, out.get(i + 1)) {
            (b'"', _) => i = string_end(&out, i),
            (b'/', Some(b'/')) => {
                while let Some(b) = out.get_mut(i).filter(|b| **b != b'\n') {
                    *b = b' ';
                    i += 1;
                }
            }
            (b'/', Some(b'*')) => {
                let close = (i + 2..out.len().saturating_sub(1))
                    .find(|&j| out.get(j) == Some(&b'*') && out.get(j + 1) == Some(&b'/'));
                let Some(close) = close else { return out };
                for b in out.get_mut(i..close + 2).unwrap_or_default() {
                    if *b != b'\n' && *b != b'\r' {
                        *b = b' ';
                    }
                }
                i = close + 2;
            }
            _ => i += 1,
        }
    }
    let mut i = 0;
    while let Some(&c) = out.get(i) {
        match c {
            b'"' => i = string_end(&out, i),
            b',' => {
                if matches!(out.get(skip_ws(&out, i + 1)), Some(b'}' | b']'))
                    && let Some(b) = out.get_mut(i)
                {
                    *b = b' ';
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server() -> Node {
        Node::Map(vec![("command".into(), Node::Str("/bin/g".into()))])
    }

    #[test]
    fn adding_to_a_four_space_file_keeps_its_indent_and_every_other_byte() {
        let text = "{\n    \"a\": 1.50,\n    \"mcpServers\": {\n        \"x\": {}\n    }\n}\n";
        let mut doc = JsonDoc::parse(text, false).unwrap();
        doc.set(&["mcpServers", "garmin"], &server()).unwrap();
        assert_eq!(
            doc.text(),
            "{\n    \"a\": 1.50,\n    \"mcpServers\": {\n        \"x\": {},\n        \"garmin\": {\n            \"command\": \"/bin/g\"\n        }\n    }\n}\n"
        );
        doc.remove(&["mcpServers", "garmin"]).unwrap();
        assert_eq!(doc.text(), text);
    }

    #[test]
    fn a_byte_order_mark_and_windows_newlines_are_kept() {
        let text = "\u{feff}{\r\n  \"mcpServers\": {}\r\n}\r\n";
        let mut doc = JsonDoc::parse(text, false).unwrap();
        doc.set(&["mcpServers", "garmin"], &server()).unwrap();
        assert_eq!(
            doc.text(),
            "\u{feff}{\r\n  \"mcpServers\": {\r\n    \"garmin\": {\r\n      \"command\": \"/bin/g\"\r\n    }\r\n  }\r\n}\r\n"
        );
    }

    #[test]
    fn a_single_line_file_gets_a_single_line_member() {
        let mut doc = JsonDoc::parse(r#"{"mcpServers":{"x":{"command":"y"}}}"#, false).unwrap();
        doc.set(&["mcpServers", "garmin"], &server()).unwrap();
        assert_eq!(doc.text(), r#"{"mcpServers":{"x":{"command":"y"},"garmin":{"command":"/bin/g"}}}"#);
    }

    #[test]
    fn comments_and_trailing_commas_survive_when_allowed() {
        let text =
            "{\r\n\t// mine\r\n\t\"servers\": {\r\n\t\t\"x\": {\"command\": \"y\"}, /* keep */\r\n\t},\r\n}";
        assert!(JsonDoc::parse(text, false).is_err());
        let mut doc = JsonDoc::parse(text, true).unwrap();
        doc.set(&["servers", "garmin"], &server()).unwrap();
        assert_eq!(
            doc.text(),
            "{\r\n\t// mine\r\n\t\"servers\": {\r\n\t\t\"x\": {\"command\": \"y\"},\r\n\t\t\"garmin\": {\r\n\t\t\t\"command\": \"/bin/g\"\r\n\t\t}, /* keep */\r\n\t},\r\n}"
        );
        assert_eq!(doc.get(&["servers", "garmin", "command"]).unwrap(), Some(Value::from("/bin/g")));
    }

    #[test]
    fn first_and_only_members_are_removed_with_their_separators() {
        let mut doc = JsonDoc::parse("{\"s\": {\"garmin\": 1, \"b\": 2}}", false).unwrap();
        doc.remove(&["s", "garmin"]).unwrap();
        assert_eq!(doc.text(), "{\"s\": {\"b\": 2}}");
        doc.remove(&["s", "b"]).unwrap();
        assert_eq!(doc.text(), "{\"s\": {}}");
    }

    #[test]
    fn duplicate_keys_resolve_to_the_last_and_all_are_removed() {
        let mut doc = JsonDoc::parse("{\"g\": 1, \"x\": 0, \"g\": 2}", false).unwrap();
        assert_eq!(doc.get(&["g"]).unwrap(), Some(Value::from(2)));
        assert!(doc.remove(&["g"]).unwrap());
        assert_eq!(doc.text(), "{\"x\": 0}");
    }

    #[test]
    fn keys_with_escapes_and_strings_with_braces_do_not_confuse_the_scanner() {
        let text = "{\"a\\\"}\": \"}{,\\\\\", \"m\": {\"k\": [1, {\"z\": \"]\"}]}}";
        let mut doc = JsonDoc::parse(text, false).unwrap();
        assert_eq!(doc.get(&["a\"}"]).unwrap(), Some(Value::from("}{,\\")));
        doc.set(&["m", "new"], &Node::Str("v".into())).unwrap();
        assert_eq!(doc.get(&["m", "k"]).unwrap(), Some(serde_json::json!([1, {"z": "]"}])));
        assert_eq!(doc.get(&["m", "new"]).unwrap(), Some(Value::from("v")));
    }

    #[test]
    fn a_non_object_on_the_way_is_named() {
        let mut doc = JsonDoc::parse("{\"mcp\": {\"servers\": []}}", false).unwrap();
        let err = doc.set(&["mcp", "servers", "garmin"], &server()).unwrap_err();
        assert_eq!(err, EditError::NotAnObject { key: "mcp.servers".into(), found: "an array" });
        let top = JsonDoc::parse("[1]", false).unwrap();
        assert!(matches!(top.get(&["x"]), Err(EditError::NotAnObject { found: "an array", .. })));
    }

    #[test]
    fn parse_errors_carry_line_and_column() {
        let err = JsonDoc::parse("{\n  \"a\": 1,\n  oops\n}", false).unwrap_err();
        assert_eq!((err.line, err.column), (3, 3));
        assert!(!err.message.contains("at line"), "{}", err.message);
    }
}
