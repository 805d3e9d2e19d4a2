//! The events of each MCP event stream, kept a short while so a client whose connection broke can
//! pick up where it left off (`GET` with `Last-Event-ID`, the Streamable HTTP resume).
//!
//! rmcp's own per-stream cache forgets a call's stream the moment the answer is written to it:
//! an answer that went out while the client was reconnecting (a proxy cut the connection, a phone
//! changed network) was lost, and the client asked to resume in vain every few seconds. This store
//! keeps every stream's events, answers included, so a resume replays what the client missed:
//!
//! * **Only to its own session.** An event id names its stream by rmcp's random stream id (a UUID,
//!   or the session's own random id for the session's common stream) and a sequence number, and a
//!   call's stream is claimed by its session when its first event goes out ([`Replay::claim`]): a
//!   resume on another session replays nothing, even with a stolen id.
//! * **Bounded.** At most [`MAX_EVENTS_PER_STREAM`] events per stream (the oldest go first), at
//!   most [`MAX_STREAMS`] streams and [`MAX_BYTES`] of events in all (the oldest streams go first),
//!   and nothing older than [`KEPT_FOR`].
//! * **Finite replays.** A resume gets the events after the one named, then its stream ends; a call
//!   still running is polled again by the client (rmcp sends each stream a `retry` interval).

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::store::{EventStore, EventStoreError, EventStream};

/// Events kept per stream: far more than a call sends (progress, a question, its answer).
pub(super) const MAX_EVENTS_PER_STREAM: usize = 64;
/// Streams kept in all.
pub(super) const MAX_STREAMS: usize = 2048;
/// Bytes of events kept in all (a chart's image is the largest answer, a few hundred KiB).
pub(super) const MAX_BYTES: usize = 32 * 1024 * 1024;
/// How long a stream's events are kept after its first event.
pub(super) const KEPT_FOR: Duration = Duration::from_secs(10 * 60);

/// Separates the stream from the sequence number in an event id (neither rmcp's UUIDs nor its
/// `<session>:common` names contain it).
const SEPARATOR: char = '#';

/// The streams' recent events (see the module docs).
#[derive(Debug, Default)]
pub(super) struct Replay {
    log: Mutex<Log>,
}

#[derive(Debug, Default)]
struct Log {
    streams: HashMap<String, Kept>,
    /// Streams by age, oldest first.
    order: VecDeque<(Instant, String)>,
    bytes: usize,
}

#[derive(Debug)]
struct Kept {
    /// The session the stream belongs to, once claimed.
    session: Option<String>,
    /// Events with their sequence numbers, oldest first.
    events: VecDeque<(u64, ServerSseMessage, usize)>,
    next: u64,
    bytes: usize,
}

/// The stream an event id belongs to (`None`: not one of ours).
pub(super) fn stream_of(event_id: &str) -> Option<&str> {
    event_id.rsplit_once(SEPARATOR).map(|(stream, _)| stream)
}

fn parse(event_id: &str) -> Option<(&str, u64)> {
    let (stream, seq) = event_id.rsplit_once(SEPARATOR)?;
    Some((stream, seq.parse().ok()?))
}

/// An event's weight against [`MAX_BYTES`].
fn size_of(event: &ServerSseMessage) -> usize {
    let message = event.message.as_deref().and_then(|m| serde_json::to_vec(m).ok()).map_or(0, |m| m.len());
    message + 64
}

impl Replay {
    fn log(&self) -> std::sync::MutexGuard<'_, Log> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `event` of `stream`; its id.
    pub(super) fn keep(&self, stream: &str, event: &ServerSseMessage) -> String {
        let size = size_of(event);
        let mut log = self.log();
        log.forget_expired(Instant::now());
        if !log.streams.contains_key(stream) {
            while log.streams.len() >= MAX_STREAMS {
                log.forget_oldest();
            }
            log.order.push_back((Instant::now(), stream.to_owned()));
            log.streams.insert(
                stream.to_owned(),
                Kept { session: None, events: VecDeque::new(), next: 0, bytes: 0 },
            );
        }
        let Log { streams, bytes, .. } = &mut *log;
        let Some(kept) = streams.get_mut(stream) else { unreachable!("inserted above") };
        let seq = kept.next;
        kept.next += 1;
        let mut event = event.clone();
        let id = format!("{stream}{SEPARATOR}{seq}");
        event.event_id = Some(id.clone());
        kept.events.push_back((seq, event, size));
        kept.bytes += size;
        *bytes += size;
        if kept.events.len() > MAX_EVENTS_PER_STREAM
            && let Some((_, _, gone)) = kept.events.pop_front()
        {
            kept.bytes -= gone;
            *bytes -= gone;
        }
        // Over the byte budget: older streams go first, this one last.
        while log.bytes > MAX_BYTES && log.order.len() > 1 {
            log.forget_oldest();
        }
        id
    }

    /// Marks `stream` as `session`'s (the first claim holds).
    pub(super) fn claim(&self, stream: &str, session: &str) {
        if let Some(kept) = self.log().streams.get_mut(stream) {
            kept.session.get_or_insert_with(|| session.to_owned());
        }
    }

    /// The events of `session`'s stream named by `last_event_id`, after that one, or why there are
    /// none.
    pub(super) fn after(&self, session: &str, last_event_id: &str) -> Result<Vec<ServerSseMessage>, String> {
        let Some((stream, seq)) = parse(last_event_id) else {
            return Err("the Last-Event-ID is not one this server sent".to_owned());
        };
        let mut log = self.log();
        log.forget_expired(Instant::now());
        let Some(kept) = log.streams.get(stream) else {
            return Err("the stream of this Last-Event-ID is no longer kept".to_owned());
        };
        let common = stream.strip_suffix(":common") == Some(session);
        if !common && kept.session.as_deref() != Some(session) {
            return Err("the stream of this Last-Event-ID is not this session's".to_owned());
        }
        if kept.events.front().is_some_and(|(first, _, _)| *first > seq + 1) {
            return Err("events after this Last-Event-ID are no longer kept".to_owned());
        }
        Ok(kept.events.iter().filter(|(s, _, _)| *s > seq).map(|(_, event, _)| event.clone()).collect())
    }

    /// Streams and bytes kept now.
    #[cfg(test)]
    fn held(&self) -> (usize, usize) {
        let log = self.log();
        (log.streams.len(), log.bytes)
    }
}

impl Log {
    fn forget_oldest(&mut self) {
        if let Some((_, stream)) = self.order.pop_front()
            && let Some(kept) = self.streams.remove(&stream)
        {
            self.bytes -= kept.bytes;
        }
    }

    fn forget_expired(&mut self, now: Instant) {
        while self.order.front().is_some_and(|(since, _)| now.duration_since(*since) >= KEPT_FOR) {
            self.forget_oldest();
        }
    }
}

#[async_trait::async_trait]
impl EventStore for Replay {
    async fn store_event(
        &self,
        stream_id: &str,
        event: &ServerSseMessage,
    ) -> Result<String, EventStoreError> {
        Ok(self.keep(stream_id, event))
    }

    /// Not used: [`super::limits::Sessions`] serves resumes itself through [`Replay::after`], which
    /// knows the session (rmcp's call here does not).
    async fn replay_events_after(&self, _last_event_id: &str) -> Result<EventStream, EventStoreError> {
        Err("a resume is served with its session (Replay::after)".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::{
        EmptyResult, JsonRpcResponse, JsonRpcVersion2_0, RequestId, ServerJsonRpcMessage, ServerResult,
    };

    fn answer(id: i64) -> ServerSseMessage {
        let message = ServerJsonRpcMessage::Response(JsonRpcResponse {
            jsonrpc: JsonRpcVersion2_0,
            id: RequestId::Number(id),
            result: ServerResult::EmptyResult(EmptyResult {}),
        });
        ServerSseMessage::from_message(message)
    }

    fn ids(events: &[ServerSseMessage]) -> Vec<String> {
        events.iter().map(|e| e.event_id.clone().unwrap_or_default()).collect()
    }

    #[test]
    fn a_resume_replays_the_events_after_the_one_named_including_an_answer_sent_meanwhile() {
        let replay = Replay::default();
        let first = replay.keep("stream-a", &ServerSseMessage::priming("ignored", Duration::from_secs(3)));
        replay.claim("stream-a", "session-1");
        replay.keep("stream-b", &answer(9));
        let second = replay.keep("stream-a", &answer(1));
        let events = replay.after("session-1", &first).unwrap();
        assert_eq!(ids(&events), std::slice::from_ref(&second));
        assert!(events[0].message.is_some(), "the answer itself is replayed");
        assert!(replay.after("session-1", &second).unwrap().is_empty(), "nothing after the last event");
        assert_eq!(stream_of(&second), Some("stream-a"));
    }

    #[test]
    fn an_unknown_forged_or_other_sessions_event_id_replays_nothing() {
        let replay = Replay::default();
        let id = replay.keep("stream-a", &answer(1));
        assert!(replay.after("session-1", &id).is_err(), "an unclaimed stream is nobody's");
        replay.claim("stream-a", "session-1");
        replay.claim("stream-a", "session-2");
        assert!(replay.after("session-2", &id).is_err(), "the first claim holds");
        assert!(replay.after("session-1", "stream-b#0").is_err());
        assert!(replay.after("session-1", "not an id").is_err());
        assert!(replay.after("session-1", "stream-a#x").is_err());
        let common = replay.keep("session-1:common", &answer(2));
        assert!(replay.after("session-1", &common).is_ok(), "a session's common stream is its own");
        assert!(replay.after("session-2", &common).is_err());
    }

    #[test]
    fn a_long_stream_keeps_its_newest_events_and_says_when_the_named_one_is_gone() {
        let replay = Replay::default();
        let first = replay.keep("s", &answer(0));
        replay.claim("s", "session");
        let mut last = String::new();
        for i in 1..=MAX_EVENTS_PER_STREAM as i64 + 5 {
            last = replay.keep("s", &answer(i));
        }
        assert!(replay.after("session", &first).is_err(), "events right after the first were dropped");
        let recent = format!("s#{}", MAX_EVENTS_PER_STREAM);
        assert_eq!(ids(&replay.after("session", &recent).unwrap()).last(), Some(&last));
    }

    #[test]
    fn streams_past_the_cap_push_out_the_oldest_and_bytes_stay_accounted() {
        let replay = Replay::default();
        let oldest = replay.keep("stream-0", &answer(0));
        replay.claim("stream-0", "session");
        for i in 1..=MAX_STREAMS {
            replay.keep(&format!("stream-{i}"), &answer(i as i64));
        }
        let (streams, bytes) = replay.held();
        assert_eq!(streams, MAX_STREAMS);
        assert!(bytes > 0 && bytes < MAX_BYTES);
        assert!(replay.after("session", &oldest).is_err(), "the oldest stream made room");
    }
}
