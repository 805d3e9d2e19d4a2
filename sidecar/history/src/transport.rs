//! Where the sync reads Garmin from: the Garmin Connect web session, Garmin's official Personal API
//! (a saved key, docs/garmin-personal-api.md), or both. One home for the sync's choice, following
//! the policy of the MCP server's `sources.rs`:
//!
//! * with a key, what the Personal API serves (the activity list, daily summaries, sleep, HRV,
//!   weight, each activity's original FIT file) is read there first; when that fails for a reason
//!   other than a refused key and a web session exists, the web session answers (and after a 429
//!   from the Personal API, the web session answers for the rest of the run);
//! * only a key: the parts only the web serves (training status snapshots, the athlete profile,
//!   the activity types list, Garmin's own laps and zone times) are skipped or taken from the FIT
//!   file, with one plain note;
//! * only a web session: every read goes there, as before keys existed.
//!
//! The app and the sidecar build it the same way, from the shared session file
//! ([`Transport::from_store`]).

use garmin::{Client, Error, PersonalClient, SessionStore};
use serde::Serialize;

/// Which source served a part of the sync.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Served {
    /// Garmin's official Personal API, through the saved key.
    PersonalApi,
    /// The Garmin Connect web session.
    WebSession,
}

impl Served {
    /// As stored in the history's `*_source` columns.
    pub fn key(self) -> &'static str {
        match self {
            Served::PersonalApi => "personal_api",
            Served::WebSession => "web_session",
        }
    }

    /// In words, for a person.
    pub fn words(self) -> &'static str {
        match self {
            Served::PersonalApi => "Garmin's official Personal API",
            Served::WebSession => "the Garmin Connect web session",
        }
    }
}

/// The Garmin clients a sync reads through (at least one). Cheap to clone.
#[derive(Clone, Debug)]
pub struct Transport {
    web: Option<Client>,
    personal: Option<PersonalClient>,
}

impl From<Client> for Transport {
    fn from(web: Client) -> Transport {
        Transport { web: Some(web), personal: None }
    }
}

impl Transport {
    /// Reads through `web` and/or `personal` (at least one).
    pub fn new(web: Option<Client>, personal: Option<PersonalClient>) -> Result<Transport, Error> {
        if web.is_none() && personal.is_none() {
            return Err(Error::InvalidInput(
                "the sync needs a Garmin web session or a Personal API key: sign in with `garmin-mcp login` or add a key with `garmin-mcp login --api-key`".into(),
            ));
        }
        Ok(Transport { web, personal })
    }

    /// The clients of the session file in `store`: the web session when one is saved, the Personal
    /// API when a key is (never on the China site). Fails as the web client does when neither is.
    pub fn from_store(store: &SessionStore) -> Result<Transport, Error> {
        let personal = PersonalClient::from_store(store.clone()).ok().flatten();
        match Client::from_store(store.clone()) {
            Ok(web) => Ok(Transport { web: Some(web), personal }),
            Err(Error::NotSignedIn { .. }) if personal.is_some() => Ok(Transport { web: None, personal }),
            Err(e) => Err(e),
        }
    }

    /// The web session, when there is one.
    pub fn web(&self) -> Option<&Client> {
        self.web.as_ref()
    }

    /// The Personal API client, when a key is saved.
    pub fn personal(&self) -> Option<&PersonalClient> {
        self.personal.as_ref()
    }

    /// Requests in flight at once: the web client's cap, else the Personal API's.
    pub fn max_concurrency(&self) -> usize {
        match &self.web {
            Some(web) => web.max_concurrency(),
            None => garmin::personal::MAX_IN_FLIGHT,
        }
    }
}
