//! Who holds the server's connections. A connection belongs to its peer address until a request on
//! it has been let through by authentication, and to that authenticated client afterwards:
//!
//! * **Per peer, before authentication.** One address may hold at most
//!   [`MAX_UNAUTHENTICATED_PER_PEER`] connections that have not yet carried an authenticated
//!   request — a slowloris dripping headers, or a stranger without the token. Past that, its new
//!   connections get `503` at once and are closed, so the server's other connections stay free for
//!   other peers (600 half-open connections from one address once took all of them). How long
//!   unfinished headers may hold a connection is [`super::HEADER_READ_TIMEOUT`].
//! * **Per client, after.** Once a request on it passed authentication, a connection counts for its
//!   client — the authenticated caller ([`crate::caller::ClientKey`]: the token, an OAuth grant), or
//!   the peer address without a token — at most [`MAX_CONNECTIONS_PER_CLIENT`] each. Behind a
//!   reverse proxy or tunnel every remote client shares one address, so caps on a client never key
//!   on the address when the caller is known.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// Connections one address may hold before any of them carried an authenticated request.
pub const MAX_UNAUTHENTICATED_PER_PEER: usize = 64;
/// Connections one authenticated client may hold.
pub const MAX_CONNECTIONS_PER_CLIENT: usize = 256;

/// The connections of the server, by peer and by client.
#[derive(Debug, Default)]
pub(super) struct Connections {
    book: Mutex<Book>,
}

#[derive(Debug, Default)]
struct Book {
    unauthenticated: HashMap<IpAddr, usize>,
    per_client: HashMap<String, usize>,
}

/// One open connection; its place is given back when dropped (the connection ended).
#[derive(Debug)]
pub(crate) struct Connection {
    connections: Arc<Connections>,
    peer: IpAddr,
    /// `None` until a request passed authentication; then its client.
    client: Mutex<Option<String>>,
}

/// The client of a connection holds [`MAX_CONNECTIONS_PER_CLIENT`] already.
#[derive(Debug)]
pub(super) struct ClientFull;

impl Connections {
    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A new connection from `peer`, or `None` when that address holds
    /// [`MAX_UNAUTHENTICATED_PER_PEER`] unauthenticated connections already.
    pub(super) fn open(self: &Arc<Self>, peer: IpAddr) -> Option<Arc<Connection>> {
        let mut book = self.book();
        let count = book.unauthenticated.entry(peer).or_insert(0);
        if *count >= MAX_UNAUTHENTICATED_PER_PEER {
            return None;
        }
        *count += 1;
        Some(Arc::new(Connection { connections: self.clone(), peer, client: Mutex::new(None) }))
    }
}

impl Connection {
    /// A request on this connection passed authentication as `client`: the first one moves the
    /// connection from its peer's unauthenticated ones to `client`'s; refused when `client` holds
    /// [`MAX_CONNECTIONS_PER_CLIENT`] already (the connection stays its peer's).
    pub(super) fn authenticated(&self, client: &str) -> Result<(), ClientFull> {
        let mut mine = self.client.lock().unwrap_or_else(PoisonError::into_inner);
        if mine.is_some() {
            return Ok(());
        }
        let mut book = self.connections.book();
        let count = book.per_client.entry(client.to_owned()).or_insert(0);
        if *count >= MAX_CONNECTIONS_PER_CLIENT {
            return Err(ClientFull);
        }
        *count += 1;
        lower(&mut book.unauthenticated, &self.peer);
        *mine = Some(client.to_owned());
        Ok(())
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        let client = self.client.lock().unwrap_or_else(PoisonError::into_inner).take();
        let mut book = self.connections.book();
        match client {
            Some(client) => lower(&mut book.per_client, &client),
            None => lower(&mut book.unauthenticated, &self.peer),
        }
    }
}

fn lower<K: std::hash::Hash + Eq>(counts: &mut HashMap<K, usize>, key: &K) {
    if let Some(count) = counts.get_mut(key) {
        *count = count.saturating_sub(1);
        if *count == 0 {
            counts.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_address_holds_a_few_unauthenticated_connections_and_an_authenticated_one_moves_to_its_client() {
        let connections = Arc::new(Connections::default());
        let attacker: IpAddr = "127.0.0.2".parse().unwrap();
        let held: Vec<_> =
            (0..MAX_UNAUTHENTICATED_PER_PEER).map(|_| connections.open(attacker).unwrap()).collect();
        assert!(connections.open(attacker).is_none(), "one address past its share");
        let other = connections.open("127.0.0.1".parse().unwrap()).expect("another peer still gets in");
        drop(other);
        held[0].authenticated("token").unwrap();
        assert!(
            connections.open(attacker).is_some(),
            "an authenticated connection no longer counts for its peer"
        );
        drop(held);
        assert!(connections.book().per_client.is_empty() && connections.book().unauthenticated.is_empty());
    }
}
