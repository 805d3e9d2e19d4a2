//! The stdio transport AI clients start us with: one JSON-RPC message per line, in and out.
//!
//! rmcp's own line transport drops a line it cannot parse without a word, so a request nested
//! deeper than the JSON parser's limit (a workout spec with ~62 nested repeats), or a line that is
//! not JSON, left the client waiting forever. Here every line that could be a request gets an
//! answer: a JSON-RPC error naming what was wrong (`-32700` for unreadable JSON or too deep a
//! nesting, `-32600` for JSON that is not a JSON-RPC message), with the request's id when it can be
//! read and `null` otherwise, as JSON-RPC 2.0 says. Notifications that do not parse are dropped
//! (JSON-RPC never answers a notification), and a line longer than [`MAX_LINE_BYTES`] is refused
//! without being held in memory. A message naming a key twice is handled as `crate::protocol`
//! says, like over HTTP. `tools/list` is answered with the tools' embedded JSON, written as it is
//! (`crate::listing::to_line`).

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{
    AsyncBufReadExt as _, AsyncRead, AsyncReadExt as _, AsyncWrite, AsyncWriteExt as _, BufReader,
};
use tokio::sync::Mutex;

/// Longest line read (as rmcp's default): a request is never this large.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// A line-delimited JSON-RPC transport over a reader and a writer (stdin and stdout in production).
#[derive(Debug)]
pub struct LineTransport<R, W> {
    reader: BufReader<R>,
    writer: Arc<Mutex<W>>,
    /// The line being read (kept across a cancelled `receive`).
    line: Vec<u8>,
    /// True while the rest of a too-long line is being thrown away.
    skipping: bool,
}

/// Standard input as the runtime reads it.
pub type StdinReader = Box<dyn AsyncRead + Unpin + Send>;
/// Standard output as the runtime writes it.
pub type StdoutWriter = Box<dyn AsyncWrite + Unpin + Send>;

impl LineTransport<StdinReader, StdoutWriter> {
    /// Over this process's standard input and output.
    ///
    /// When they are pipes (as every MCP client starts us), they are read and written straight
    /// from the runtime's event loop, which is what makes a trivial call cost tens of
    /// microseconds; tokio's own `stdin()`/`stdout()` hand every read and write to a thread of
    /// the blocking pool and back. Anything else (a terminal, a file, a socket) goes through
    /// those.
    pub fn stdio() -> Self {
        let (reader, writer) = stdio_streams();
        LineTransport::new(reader, writer)
    }
}

/// Standard input and output for [`LineTransport::stdio`]: event-loop pipes where possible.
#[cfg(unix)]
fn stdio_streams() -> (StdinReader, StdoutWriter) {
    use std::os::fd::AsFd as _;
    use tokio::net::unix::pipe;
    // Our own duplicates of fds 0 and 1 (close-on-exec); `from_file` checks that each is a pipe
    // and makes it non-blocking. The pipes' other ends are the client's, and nothing we start
    // inherits these (children get null stdio), so no other process sees the non-blocking mode.
    let reader: StdinReader = match std::io::stdin().as_fd().try_clone_to_owned() {
        Ok(fd) => match pipe::Receiver::from_file(std::fs::File::from(fd)) {
            Ok(pipe) => Box::new(pipe),
            Err(_) => Box::new(tokio::io::stdin()),
        },
        Err(_) => Box::new(tokio::io::stdin()),
    };
    let writer: StdoutWriter = match std::io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => match pipe::Sender::from_file(std::fs::File::from(fd)) {
            Ok(pipe) => Box::new(pipe),
            Err(_) => Box::new(tokio::io::stdout()),
        },
        Err(_) => Box::new(tokio::io::stdout()),
    };
    (reader, writer)
}

/// Standard input and output for [`LineTransport::stdio`] (tokio's, through its blocking pool).
#[cfg(not(unix))]
fn stdio_streams() -> (StdinReader, StdoutWriter) {
    (Box::new(tokio::io::stdin()), Box::new(tokio::io::stdout()))
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin + Send + 'static> LineTransport<R, W> {
    /// Over `reader` and `writer`.
    pub fn new(reader: R, writer: W) -> Self {
        LineTransport {
            reader: BufReader::new(reader),
            writer: Arc::new(Mutex::new(writer)),
            line: Vec::new(),
            skipping: false,
        }
    }

    /// Reads the next line into `self.line` (without its end); `None` at the end of input. A line
    /// over [`MAX_LINE_BYTES`] is skipped to its end and reported as `Some(false)`.
    ///
    /// Cancel-safe, as rmcp needs (it polls `receive` in a `select!`): bytes already read stay in
    /// `self.line` (or the skipping state) for the next call; the caller clears `self.line` once it
    /// has taken a whole line.
    async fn next_line(&mut self) -> Option<bool> {
        loop {
            if self.skipping {
                let chunk = match self.reader.fill_buf().await {
                    Ok(chunk) => chunk,
                    Err(e) => {
                        tracing::error!("reading standard input failed: {e}");
                        return None;
                    }
                };
                if chunk.is_empty() {
                    return None;
                }
                match chunk.iter().position(|b| *b == b'\n') {
                    Some(end) => {
                        self.reader.consume(end + 1);
                        self.skipping = false;
                        return Some(false);
                    }
                    None => {
                        let all = chunk.len();
                        self.reader.consume(all);
                        continue;
                    }
                }
            }
            let room = (MAX_LINE_BYTES + 1).saturating_sub(self.line.len());
            let room = u64::try_from(room).unwrap_or(u64::MAX);
            let read = (&mut self.reader).take(room).read_until(b'\n', &mut self.line).await;
            match read {
                Err(e) => {
                    tracing::error!("reading standard input failed: {e}");
                    return None;
                }
                Ok(0) if self.line.is_empty() => return None,
                Ok(_) if self.line.len() > MAX_LINE_BYTES && !self.line.ends_with(b"\n") => {
                    self.line.clear();
                    self.skipping = true;
                }
                // A whole line, or the last one without its end.
                Ok(_) => {
                    while matches!(self.line.last(), Some(b'\n' | b'\r')) {
                        self.line.pop();
                    }
                    return Some(true);
                }
            }
        }
    }

    /// Writes an answer of our own on a task of its own, so a cancelled `receive` never leaves
    /// half a line on the wire.
    fn answer(&self, answer: &Value) {
        let writer = Arc::clone(&self.writer);
        let bytes = answer.to_string().into_bytes();
        tokio::spawn(async move {
            if let Err(e) = Self::write_line(&writer, bytes).await {
                tracing::error!("writing to standard output failed: {e}");
            }
        });
    }

    async fn write_line(writer: &Mutex<W>, mut bytes: Vec<u8>) -> std::io::Result<()> {
        bytes.push(b'\n');
        let mut writer = writer.lock().await;
        writer.write_all(&bytes).await?;
        writer.flush().await
    }
}

/// The error answer for a line that is not a message we can read, or `None` for a notification
/// (which gets no answer).
pub fn refusal(line: &[u8], error: &serde_json::Error) -> Option<Value> {
    let parsed = serde_json::from_slice::<Value>(line).ok();
    if let Some(value) = &parsed
        && value.get("method").is_some()
        && value.get("id").is_none()
    {
        return None;
    }
    let id = parsed.as_ref().and_then(|v| v.get("id")).cloned().unwrap_or_else(|| shallow_id(line));
    let (code, message) = if error.to_string().contains("recursion limit") {
        (
            -32700,
            "The request is nested more than 128 levels deep, which this server does not read. A workout \
             spec nests at most two repeats; send a flatter request."
                .to_owned(),
        )
    } else if parsed.is_none() {
        (-32700, format!("The line is not valid JSON ({error}); send one JSON-RPC message per line."))
    } else {
        (-32600, format!("The line is JSON but not a JSON-RPC message this server understands ({error})."))
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}))
}

/// The request id of a line too deep to parse: a top-level `"id": <number or string>` found by
/// scanning, else `null`.
fn shallow_id(line: &[u8]) -> Value {
    let text = String::from_utf8_lossy(line);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth = depth.saturating_sub(1),
            '"' if depth == 1 && text[i..].starts_with("\"id\"") => {
                let rest = text[i + 4..].trim_start();
                if let Some(rest) = rest.strip_prefix(':') {
                    let mut stream =
                        serde_json::Deserializer::from_str(rest.trim_start()).into_iter::<Value>();
                    if let Some(Ok(id @ (Value::Number(_) | Value::String(_)))) = stream.next() {
                        return id;
                    }
                }
                in_string = true;
            }
            '"' => in_string = true,
            _ => {}
        }
    }
    Value::Null
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let writer = Arc::clone(&self.writer);
        async move {
            let bytes = crate::listing::to_line(item).map_err(std::io::Error::other)?;
            Self::write_line(&writer, bytes).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let whole = self.next_line().await?;
            let line = std::mem::take(&mut self.line);
            if !whole {
                self.answer(&json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message":
                    format!("The request is larger than {} MiB; this server reads no larger line.", MAX_LINE_BYTES >> 20)}}));
                continue;
            }
            let line = line.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(&line);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let replaced;
            let line = match crate::protocol::screen(line) {
                crate::protocol::Screened::Pass => line,
                crate::protocol::Screened::Replace(bytes) => {
                    replaced = bytes;
                    replaced.as_slice()
                }
                crate::protocol::Screened::Refuse(answer) => {
                    self.answer(&answer);
                    continue;
                }
                crate::protocol::Screened::Drop => continue,
            };
            match serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line) {
                Ok(mut message) => {
                    crate::listing::mark_list_request(&mut message);
                    return Some(message);
                }
                Err(error) => match refusal(line, &error) {
                    Some(answer) => {
                        tracing::debug!("refusing an unreadable line: {error}");
                        self.answer(&answer);
                    }
                    None => tracing::debug!("ignoring a notification that does not parse: {error}"),
                },
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.writer.lock().await.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deep(levels: usize) -> String {
        let mut step = r#"{"type":"interval","distance_m":400}"#.to_owned();
        for _ in 0..levels {
            step = format!(r#"{{"type":"repeat","times":2,"steps":[{step}]}}"#);
        }
        format!(
            r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"create_workout","arguments":{{"name":"x","sport":"run","steps":[{step}]}}}}}}"#
        )
    }

    #[test]
    fn a_request_nested_past_the_parser_limit_is_refused_with_its_id() {
        let line = deep(100);
        let error = serde_json::from_str::<Value>(&line).unwrap_err();
        let answer = refusal(line.as_bytes(), &error).expect("an answer");
        assert_eq!(answer["id"], 7);
        assert_eq!(answer["error"]["code"], -32700);
        assert!(answer["error"]["message"].as_str().unwrap().contains("128 levels"), "{answer}");
    }

    #[test]
    fn garbage_gets_a_parse_error_with_a_null_id_and_notifications_get_nothing() {
        let error = serde_json::from_str::<Value>("not json").unwrap_err();
        let answer = refusal(b"not json", &error).expect("an answer");
        assert_eq!(answer["id"], Value::Null);
        assert_eq!(answer["error"]["code"], -32700);
        let notification = br#"{"jsonrpc":"2.0","method":"notifications/unknown","params":5}"#;
        let error = serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(notification).err();
        if let Some(error) = error {
            assert!(refusal(notification, &error).is_none());
        }
    }

    /// The answers a server with `options` gives to `lines` (one per line with an id), served
    /// over this transport (`ours`) or rmcp's own line transport.
    async fn answers(options: crate::server::ServerOptions, lines: &[String], ours: bool) -> Vec<Value> {
        use rmcp::ServiceExt as _;
        let (client, server_end) = tokio::io::duplex(4 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        let server = crate::GarminMcp::new(options).unwrap();
        let running = tokio::spawn(async move {
            let service = if ours {
                server.serve(LineTransport::new(server_read, server_write)).await
            } else {
                server.serve((server_read, server_write)).await
            };
            if let Ok(service) = service {
                let _ = service.waiting().await;
            }
        });
        let (read, mut write) = tokio::io::split(client);
        let mut read = BufReader::new(read).lines();
        let mut answers = Vec::new();
        for line in lines {
            write.write_all(format!("{line}\n").as_bytes()).await.unwrap();
            let Some(id) = serde_json::from_str::<Value>(line).unwrap().get("id").cloned() else { continue };
            loop {
                let next = tokio::time::timeout(std::time::Duration::from_secs(30), read.next_line()).await;
                let answer: Value = serde_json::from_str(&next.expect(line).unwrap().unwrap()).unwrap();
                if answer["id"] == id {
                    answers.push(answer);
                    break;
                }
            }
        }
        write.shutdown().await.unwrap();
        running.await.unwrap();
        answers
    }

    #[tokio::test]
    async fn tools_list_written_from_the_embedded_json_equals_rmcps_answer_for_every_toolset_and_version() {
        let dir = tempfile::tempdir().unwrap();
        let initialize = |version: &str| {
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": version,
                "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}})
            .to_string()
        };
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
        let list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).to_string();
        // From 2026-07-28 on there is no `initialize`: each request names its version.
        let stateless_list = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}}})
        .to_string();
        let sessions = [
            ("2025-11-25", vec![initialize("2025-11-25"), initialized, list]),
            ("2026-07-28", vec![stateless_list]),
        ];
        let toolsets = std::iter::once(None)
            .chain(crate::toolsets::TOOLSETS.iter().map(|set| Some(vec![set.id.to_owned()])));
        for toolsets in toolsets {
            for read_only in [false, true] {
                let mut options = crate::server::ServerOptions::new(garmin::SessionStore::new(dir.path()));
                options.toolsets.clone_from(&toolsets);
                options.read_only = read_only;
                for (version, lines) in &sessions {
                    let setup = format!("toolsets {toolsets:?}, --readonly {read_only}, protocol {version}");
                    let ours = answers(options.clone(), lines, true).await;
                    let rmcps = answers(options.clone(), lines, false).await;
                    let listed = ours.last().unwrap();
                    let tools =
                        listed["result"]["tools"].as_array().unwrap_or_else(|| panic!("{setup}: {listed}"));
                    assert!(
                        !tools.is_empty() && tools.iter().all(|tool| tool["inputSchema"]["type"] == "object"),
                        "{setup}"
                    );
                    assert_eq!(listed["result"].get("ttlMs").is_some(), *version == "2026-07-28", "{setup}");
                    assert!(ours == rmcps, "{setup}: the answers differ");
                }
            }
        }
    }

    #[test]
    fn the_id_of_a_deep_line_is_found_only_at_the_top_level() {
        assert_eq!(shallow_id(br#"{"params":{"id":3},"id":"abc","x":[[[["#), json!("abc"));
        assert_eq!(shallow_id(br#"{"params":{"id":3},"x":[[[["#), Value::Null);
        assert_eq!(shallow_id(br#"{"name":"\"id\"","id":12,"#), json!(12));
    }
}
