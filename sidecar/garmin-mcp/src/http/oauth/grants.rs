//! The grants the owner approved and their tokens, kept in [`GRANTS_FILE_NAME`] (0600, in the data
//! folder, written atomically) as SHA-256 hashes only: the file alone lets nobody in. One server
//! per data folder holds [`LOCK_FILE_NAME`] while it runs; `garmin-mcp remote …` edits the file
//! itself only when it can take that lock (no server), and otherwise asks the server.
//!
//! Rules: access tokens live [`super::ACCESS_TOKEN_LIFETIME`] and are bound to the resource they
//! were issued for; each refresh replaces the refresh token, and presenting a replaced one again
//! (someone copied it) revokes the whole grant; revoking a grant ends its tokens at once.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use app_bridge::remote::owner::RemoteClient;
use serde::{Deserialize, Serialize};

use super::clients::Client;
use super::{
    ACCESS_TOKEN_LIFETIME, READ_SCOPE, REFRESH_TOKEN_LIFETIME, WRITE_SCOPE, hash, lock, random_secret,
};

/// The grants file in the data folder.
pub const GRANTS_FILE_NAME: &str = "oauth-grants.json";
/// Held (an OS file lock) by the server that owns the grants file.
pub const LOCK_FILE_NAME: &str = "oauth-grants.lock";
/// Grants kept at most; past it the least recently used one goes.
const MAX_GRANTS: usize = 100;
/// Replaced refresh tokens remembered per grant (to notice one presented again).
const MAX_USED_REFRESH: usize = 50;
/// Access tokens alive at once per grant (each refresh makes one).
const MAX_ACCESS_TOKENS: usize = 10;
/// Last-use times are written at most this often (seconds) per grant.
const LAST_USE_RESOLUTION: u64 = 60;

/// One approved client's grant, as saved.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Grant {
    id: String,
    client: Client,
    scopes: Vec<String>,
    resource: String,
    created: u64,
    #[serde(default)]
    last_used: Option<u64>,
    #[serde(default)]
    access: Vec<Issued>,
    #[serde(default)]
    refresh: Option<Issued>,
    #[serde(default)]
    used_refresh: Vec<String>,
}

/// A token's hash and when it expires (Unix seconds).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Issued {
    hash: String,
    expires: u64,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Saved {
    version: u32,
    grants: Vec<Grant>,
}

/// A fresh pair of tokens, shown to the client once and never stored in clear.
#[derive(Debug)]
pub(crate) struct TokenPair {
    pub(crate) access: String,
    pub(crate) refresh: String,
    pub(crate) scopes: Vec<String>,
}

/// Why a refresh was refused.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RefreshError {
    /// Not a refresh token of this server (or revoked, or expired).
    Unknown,
    /// A replaced refresh token came back: the grant is now revoked.
    Reused,
    /// The token belongs to another client.
    OtherClient,
}

#[derive(Debug, Default)]
struct State {
    grants: Vec<Grant>,
    /// Last-use times not yet written.
    dirty: bool,
}

/// The grants of this data folder, owned by this process while it runs.
#[derive(Debug)]
pub(crate) struct Store {
    path: PathBuf,
    state: Mutex<State>,
    /// Serialises writes of the file (each writes the newest state).
    writing: Mutex<()>,
    _lock: Option<File>,
}

impl Store {
    /// Takes the data folder's lock and loads the grants; refuses when another server holds it.
    pub(crate) fn open(dir: &Path) -> Result<Store, String> {
        let lock = take_lock(dir)?.ok_or_else(|| {
            format!(
                "another garmin-mcp with remote access (--public-url) is running on the data folder {}; \
                 stop it first (one server per data folder)",
                dir.display()
            )
        })?;
        let mut store = Store::unlocked(dir)?;
        store._lock = Some(lock);
        Ok(store)
    }

    /// The grants file read without the lock: for `garmin-mcp remote …` after it took the lock
    /// itself ([`take_lock`]).
    pub(crate) fn unlocked(dir: &Path) -> Result<Store, String> {
        let path = dir.join(GRANTS_FILE_NAME);
        let saved = match std::fs::read(&path) {
            Ok(bytes) => serde_json::from_slice::<Saved>(&bytes).map_err(|e| {
                format!(
                    "{} is damaged ({e}); move it away to start with no remote clients (they will have to be \
                     approved again)",
                    path.display()
                )
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Saved::default(),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        Ok(Store {
            path,
            state: Mutex::new(State { grants: saved.grants, dirty: false }),
            writing: Mutex::new(()),
            _lock: None,
        })
    }

    /// Records a new grant for `client` and issues its first tokens.
    pub(crate) fn create(
        &self,
        client: Client,
        write: bool,
        resource: &str,
        now: u64,
    ) -> (String, TokenPair) {
        let id = random_secret("", 6).replace(['-', '_'], "x");
        let mut scopes = vec![READ_SCOPE.to_owned()];
        if write {
            scopes.push(WRITE_SCOPE.to_owned());
        }
        let mut grant = Grant {
            id: id.clone(),
            client,
            scopes,
            resource: resource.to_owned(),
            created: now,
            last_used: None,
            access: Vec::new(),
            refresh: None,
            used_refresh: Vec::new(),
        };
        let pair = issue(&mut grant, now);
        {
            let mut state = lock(&self.state);
            if state.grants.len() >= MAX_GRANTS
                && let Some(oldest) = (0..state.grants.len())
                    .min_by_key(|&i| state.grants[i].last_used.unwrap_or(state.grants[i].created))
            {
                state.grants.remove(oldest);
            }
            state.grants.push(grant);
        }
        self.save();
        (id, pair)
    }

    /// The grant an access token belongs to, when it is valid now and for `resource`.
    pub(crate) fn verify_access(&self, token: &str, resource: &str, now: u64) -> Option<super::Verified> {
        let presented = hash(token);
        let mut state = lock(&self.state);
        let grant = state.grants.iter_mut().find(|g| g.access.iter().any(|a| a.hash == presented))?;
        let issued = grant.access.iter().find(|a| a.hash == presented)?;
        if issued.expires <= now || grant.resource != resource {
            return None;
        }
        let verified =
            super::Verified { grant: grant.id.clone(), write: grant.scopes.iter().any(|s| s == WRITE_SCOPE) };
        let stale = grant.last_used.is_none_or(|t| now.saturating_sub(t) >= LAST_USE_RESOLUTION);
        if stale {
            grant.last_used = Some(now);
            state.dirty = true;
        }
        Some(verified)
    }

    /// Exchanges a refresh token for a new pair (the old refresh token is spent).
    pub(crate) fn refresh(&self, token: &str, client_id: &str, now: u64) -> Result<TokenPair, RefreshError> {
        let presented = hash(token);
        let result = {
            let mut state = lock(&self.state);
            if let Some(index) = state.grants.iter().position(|g| g.used_refresh.contains(&presented)) {
                let grant = state.grants.remove(index);
                tracing::warn!(grant = %grant.id, client = %grant.client.name, "a replaced refresh token was presented again: the grant is revoked");
                Err(RefreshError::Reused)
            } else {
                let grant = state
                    .grants
                    .iter_mut()
                    .find(|g| g.refresh.as_ref().is_some_and(|r| r.hash == presented && r.expires > now))
                    .ok_or(RefreshError::Unknown)?;
                if grant.client.id != client_id {
                    return Err(RefreshError::OtherClient);
                }
                grant.used_refresh.push(presented);
                if grant.used_refresh.len() > MAX_USED_REFRESH {
                    grant.used_refresh.remove(0);
                }
                grant.last_used = Some(now);
                Ok(issue(grant, now))
            }
        };
        self.save();
        result
    }

    /// Revokes the grant of a token (refresh token: the whole grant; access token: that token).
    /// Unknown tokens are ignored (RFC 7009).
    pub(crate) fn revoke_token(&self, token: &str) {
        let presented = hash(token);
        let changed = {
            let mut state = lock(&self.state);
            let before = state.grants.len();
            state.grants.retain(|g| {
                !(g.refresh.as_ref().is_some_and(|r| r.hash == presented)
                    || g.used_refresh.contains(&presented))
            });
            let mut changed = state.grants.len() != before;
            for grant in &mut state.grants {
                let count = grant.access.len();
                grant.access.retain(|a| a.hash != presented);
                changed |= grant.access.len() != count;
            }
            changed
        };
        if changed {
            self.save();
        }
    }

    /// Revokes one grant; false when there is none by that id.
    pub(crate) fn revoke(&self, id: &str) -> bool {
        let removed = {
            let mut state = lock(&self.state);
            let before = state.grants.len();
            state.grants.retain(|g| g.id != id);
            state.grants.len() != before
        };
        if removed {
            self.save();
        }
        removed
    }

    /// Revokes every grant; returns how many there were.
    pub(crate) fn revoke_all(&self) -> usize {
        let count = std::mem::take(&mut lock(&self.state).grants).len();
        self.save();
        count
    }

    /// The grants, oldest first.
    pub(crate) fn list(&self) -> Vec<RemoteClient> {
        lock(&self.state)
            .grants
            .iter()
            .map(|g| RemoteClient {
                id: g.id.clone(),
                name: g.client.name.clone(),
                client_id: g.client.id.clone(),
                scopes: g.scopes.clone(),
                created: g.created,
                last_used: g.last_used,
            })
            .collect()
    }

    /// A client that has a grant here (registered clients are known again after a restart).
    pub(crate) fn client(&self, client_id: &str) -> Option<Client> {
        lock(&self.state).grants.iter().rev().find(|g| g.client.id == client_id).map(|g| g.client.clone())
    }

    /// Writes the last-use times if they changed.
    pub(crate) fn flush(&self) {
        if lock(&self.state).dirty {
            self.save();
        }
    }

    /// Writes the file (atomically, 0600) with the current state; errors are logged, the state in
    /// memory stays authoritative.
    fn save(&self) {
        let _writing = lock(&self.writing);
        let bytes = {
            let mut state = lock(&self.state);
            state.dirty = false;
            let saved = Saved { version: 1, grants: state.grants.clone() };
            serde_json::to_vec_pretty(&saved).unwrap_or_default()
        };
        if let Err(e) = super::write_private(&self.path, &bytes) {
            tracing::warn!("could not save the remote clients: {e}");
        }
    }
}

/// New tokens for `grant` (the previous refresh token is no longer current).
fn issue(grant: &mut Grant, now: u64) -> TokenPair {
    let access = random_secret("gma_", 32);
    let refresh = random_secret("gmr_", 32);
    grant.access.retain(|a| a.expires > now);
    if grant.access.len() >= MAX_ACCESS_TOKENS {
        grant.access.remove(0);
    }
    grant.access.push(Issued { hash: hash(&access), expires: now + ACCESS_TOKEN_LIFETIME.as_secs() });
    grant.refresh = Some(Issued { hash: hash(&refresh), expires: now + REFRESH_TOKEN_LIFETIME.as_secs() });
    TokenPair { access, refresh, scopes: grant.scopes.clone() }
}

/// The data folder's grants lock, when nobody else holds it (`None`: a server runs).
pub(crate) fn take_lock(dir: &Path) -> Result<Option<File>, String> {
    let path = dir.join(LOCK_FILE_NAME);
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the data folder {}: {e}", dir.display()))?;
    let file = options.open(&path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(format!("cannot lock {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::oauth::clients::ClientKind;

    const RESOURCE: &str = "https://pc.example/mcp";

    fn client(id: &str) -> Client {
        Client {
            id: id.to_owned(),
            name: "Claude".to_owned(),
            redirect_uris: vec!["https://claude.ai/api/mcp/auth_callback".to_owned()],
            kind: ClientKind::Registered,
        }
    }

    fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        (dir, store)
    }

    #[test]
    fn expired_access_token_is_refused() {
        let (_dir, store) = store();
        let (_, pair) = store.create(client("c1"), false, RESOURCE, 1_000);
        assert!(store.verify_access(&pair.access, RESOURCE, 1_000 + 3_599).is_some());
        assert!(store.verify_access(&pair.access, RESOURCE, 1_000 + 3_600).is_none());
    }

    #[test]
    fn token_for_another_audience_is_refused() {
        let (_dir, store) = store();
        let (_, pair) = store.create(client("c1"), false, RESOURCE, 1_000);
        assert!(store.verify_access(&pair.access, "https://other.example/mcp", 1_001).is_none());
        assert!(store.verify_access(&pair.access, RESOURCE, 1_001).is_some());
    }

    #[test]
    fn used_refresh_token_presented_again_revokes_the_grant() {
        let (_dir, store) = store();
        let (_, first) = store.create(client("c1"), true, RESOURCE, 1_000);
        let second = store.refresh(&first.refresh, "c1", 1_010).unwrap();
        assert_eq!(second.scopes, ["garmin:read", "garmin:write"]);
        assert!(store.verify_access(&second.access, RESOURCE, 1_011).is_some());
        assert_eq!(store.refresh(&first.refresh, "c1", 1_020).unwrap_err(), RefreshError::Reused);
        // The thief's copy and the real client's tokens are both dead now.
        assert_eq!(store.refresh(&second.refresh, "c1", 1_021).unwrap_err(), RefreshError::Unknown);
        assert!(store.verify_access(&second.access, RESOURCE, 1_022).is_none());
        assert!(store.list().is_empty());
    }

    #[test]
    fn a_refresh_token_of_another_client_is_refused_and_unknown_ones_too() {
        let (_dir, store) = store();
        let (_, pair) = store.create(client("c1"), false, RESOURCE, 1_000);
        assert_eq!(store.refresh(&pair.refresh, "c2", 1_001).unwrap_err(), RefreshError::OtherClient);
        assert_eq!(store.refresh("gmr_nothing", "c1", 1_001).unwrap_err(), RefreshError::Unknown);
        assert!(store.refresh(&pair.refresh, "c1", 1_002).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn the_file_is_private_holds_no_token_and_survives_a_restart() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let pair = {
            let store = Store::open(dir.path()).unwrap();
            assert!(Store::open(dir.path()).unwrap_err().contains("another garmin-mcp"));
            store.create(client("c1"), false, RESOURCE, 1_000).1
        };
        let path = dir.path().join(GRANTS_FILE_NAME);
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains(&pair.access) && !text.contains(&pair.refresh));
        assert!(text.contains(&hash(&pair.access)));
        let again = Store::open(dir.path()).unwrap();
        assert!(again.verify_access(&pair.access, RESOURCE, 1_001).is_some());
        assert_eq!(again.list().len(), 1);
    }

    #[test]
    fn revoking_a_grant_ends_its_tokens_at_once() {
        let (_dir, store) = store();
        let (id, pair) = store.create(client("c1"), false, RESOURCE, 1_000);
        let (_, other) = store.create(client("c2"), false, RESOURCE, 1_000);
        assert!(store.revoke(&id));
        assert!(!store.revoke(&id));
        assert!(store.verify_access(&pair.access, RESOURCE, 1_001).is_none());
        assert_eq!(store.refresh(&pair.refresh, "c1", 1_001).unwrap_err(), RefreshError::Unknown);
        assert!(store.verify_access(&other.access, RESOURCE, 1_001).is_some());
        assert_eq!(store.revoke_all(), 1);
        assert!(store.verify_access(&other.access, RESOURCE, 1_001).is_none());
    }
}
