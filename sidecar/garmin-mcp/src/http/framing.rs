//! How answers are framed on the event stream, so that every real client reads them.
//!
//! rmcp writes each message as an SSE event with only `data:`/`id:` lines, and opens every stream
//! with a priming event (`data:` empty, `id: 0`, `retry: 3000`, SEP-1699). Both trip up real
//! clients: mcp-cli (chuk-mcp) drops events without an `event:` line and so lists no tools, and a
//! client of a protocol older than 2025-11-25 reads the empty priming event as a message that is not
//! JSON. rmcp has no setting for either, so this layer rewrites the body of `text/event-stream`
//! answers on the way out:
//!
//! * every event that carries data gets `event: message` (the SSE default name, spelled out);
//! * an event without data (the priming event, a bare `retry:`) goes only to clients of protocol
//!   2025-11-25 or later — known from the `MCP-Protocol-Version` header, or, on `initialize` (which
//!   has no header yet), from the version the server answers with; a client that sends no header is
//!   2025-03-26 (spec, "Protocol Version Header");
//! * comments (keep-alives) pass through unchanged.

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::header::CONTENT_TYPE;
use axum::middleware::Next;
use axum::response::Response;
use futures::StreamExt as _;

/// The first protocol version whose clients expect priming events (SEP-1699).
pub const PRIMING_SINCE: &str = "2025-11-25";

/// Rewrites the event stream of an answer (see the module doc); other answers pass untouched.
pub async fn frame_events(request: Request, next: Next) -> Response {
    let version =
        request.headers().get("mcp-protocol-version").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let response = next.run(request).await;
    let is_event_stream = response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim_start().starts_with("text/event-stream"));
    if !is_event_stream {
        return response;
    }
    let (parts, body) = response.into_parts();
    let reframer = Reframer::new(version.as_deref());
    let stream = futures::stream::unfold(
        (body.into_data_stream(), reframer, false),
        |(mut body, mut reframer, done)| async move {
            if done {
                return None;
            }
            loop {
                match body.next().await {
                    Some(Ok(chunk)) => {
                        let out = reframer.push(&chunk);
                        if !out.is_empty() {
                            return Some((Ok(Bytes::from(out)), (body, reframer, false)));
                        }
                    }
                    Some(Err(e)) => return Some((Err(e), (body, reframer, true))),
                    None => {
                        let out = reframer.finish();
                        return (!out.is_empty()).then(|| (Ok(Bytes::from(out)), (body, reframer, true)));
                    }
                }
            }
        },
    );
    Response::from_parts(parts, Body::from_stream(stream))
}

/// Whether events without data may be sent.
#[derive(Debug)]
enum Priming {
    Send,
    Drop,
    /// No version header: held back until the first message says (an `initialize` answer).
    Undecided(Vec<u8>),
}

/// Splits the byte stream into SSE events (rmcp ends lines with `\n` only) and rewrites them.
#[derive(Debug)]
pub struct Reframer {
    pending: Vec<u8>,
    priming: Priming,
}

impl Reframer {
    /// For a request that sent `MCP-Protocol-Version: version` (or none).
    pub fn new(version: Option<&str>) -> Self {
        let priming = match version {
            Some(v) if v.trim() >= PRIMING_SINCE => Priming::Send,
            Some(_) => Priming::Drop,
            None => Priming::Undecided(Vec::new()),
        };
        Reframer { pending: Vec::new(), priming }
    }

    /// Takes the next bytes of the body; returns the rewritten complete events among them.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<u8> {
        self.pending.extend_from_slice(chunk);
        let mut out = Vec::new();
        while let Some(end) = self.pending.windows(2).position(|w| w == b"\n\n") {
            let event: Vec<u8> = self.pending.drain(..end + 2).collect();
            self.rewrite(&event[..end], &mut out);
        }
        out
    }

    /// The end of the body: whatever is left (an unterminated event) goes out as it came.
    pub fn finish(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.pending)
    }

    fn rewrite(&mut self, event: &[u8], out: &mut Vec<u8>) {
        let text = String::from_utf8_lossy(event);
        let lines: Vec<&str> = text.split('\n').collect();
        if lines.iter().all(|l| l.starts_with(':')) {
            push_event(out, event);
            return;
        }
        let data: String = lines
            .iter()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(|d| d.strip_prefix(' ').unwrap_or(d))
            .collect::<Vec<_>>()
            .join("\n");
        if data.is_empty() {
            match &mut self.priming {
                Priming::Send => push_event(out, event),
                Priming::Drop => {}
                Priming::Undecided(held) => {
                    held.extend_from_slice(event);
                    held.extend_from_slice(b"\n\n");
                }
            }
            return;
        }
        if let Priming::Undecided(held) = &mut self.priming {
            let held = std::mem::take(held);
            if negotiated_version(&data).is_some_and(|v| v.as_str() >= PRIMING_SINCE) {
                out.extend_from_slice(&held);
                self.priming = Priming::Send;
            } else {
                self.priming = Priming::Drop;
            }
        }
        if !lines.iter().any(|l| l.starts_with("event:")) {
            out.extend_from_slice(b"event: message\n");
        }
        push_event(out, event);
    }
}

fn push_event(out: &mut Vec<u8>, event: &[u8]) {
    out.extend_from_slice(event);
    out.extend_from_slice(b"\n\n");
}

/// `result.protocolVersion` of an `initialize` answer.
fn negotiated_version(data: &str) -> Option<String> {
    let message: serde_json::Value = serde_json::from_str(data).ok()?;
    message.pointer("/result/protocolVersion")?.as_str().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRIMING: &[u8] = b"data: \nid: 0\nretry: 3000\n\n";
    const INIT_OLD: &[u8] =
        b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\"}}\n\n";
    const INIT_NEW: &[u8] =
        b"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\"}}\n\n";

    fn run(version: Option<&str>, chunks: &[&[u8]]) -> String {
        let mut reframer = Reframer::new(version);
        let mut out = Vec::new();
        for chunk in chunks {
            out.extend(reframer.push(chunk));
        }
        out.extend(reframer.finish());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn every_message_gets_an_event_name_even_when_split_across_chunks() {
        let body = b"data: {\"a\":1}\nid: 3\n\n:\n\ndata: {\"b\":2}\n\n";
        let (a, b) = body.split_at(7);
        let out = run(Some("2025-06-18"), &[a, b]);
        assert_eq!(out, "event: message\ndata: {\"a\":1}\nid: 3\n\n:\n\nevent: message\ndata: {\"b\":2}\n\n");
    }

    #[test]
    fn an_existing_event_name_is_kept() {
        assert_eq!(run(Some("2025-06-18"), &[b"event: x\ndata: 1\n\n"]), "event: x\ndata: 1\n\n");
    }

    #[test]
    fn priming_goes_only_to_clients_of_2025_11_25_or_later() {
        let msg: &[u8] = b"data: {}\n\n";
        assert_eq!(run(Some("2025-06-18"), &[PRIMING, msg]), "event: message\ndata: {}\n\n");
        assert_eq!(run(Some("2025-03-26"), &[PRIMING]), "");
        let modern = run(Some("2025-11-25"), &[PRIMING, msg]);
        assert!(modern.starts_with("data: \nid: 0\nretry: 3000\n\nevent: message\n"), "{modern}");
        assert!(run(Some("2026-07-28"), &[PRIMING]).contains("retry: 3000"));
    }

    #[test]
    fn without_a_header_the_initialize_answer_decides_about_priming() {
        assert_eq!(
            run(None, &[PRIMING, INIT_OLD]),
            format!("event: message\n{}", String::from_utf8_lossy(INIT_OLD))
        );
        let modern = run(None, &[PRIMING, INIT_NEW]);
        assert!(modern.starts_with("data: \nid: 0\nretry: 3000\n\nevent: message\ndata: {"), "{modern}");
        // Not an initialize answer and no header: a 2025-03-26 client.
        assert_eq!(run(None, &[PRIMING, b"data: {\"id\":2,\"result\":{}}\n\n"]).matches("retry").count(), 0);
    }
}
