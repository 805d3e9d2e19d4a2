//! The fake's shared state: one value every handler and middleware sees.
//!
//! Split by owner so that the auth/fault/log machinery (`auth`, `faults`, `log`) and the data set
//! with its endpoints (`data`, `routes`) can change independently.

use std::sync::{Arc, Mutex, MutexGuard, RwLock};

use crate::{FakeConfig, auth, data, faults, log, personal};

/// Cheap to clone; handed to axum as router state.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Everything shared between requests.
    pub inner: Arc<Shared>,
}

/// The fake's whole world.
#[derive(Debug)]
pub struct Shared {
    /// How this fake was started (identity, session lifetime, anchor date, seed).
    pub config: FakeConfig,
    /// Session families, one-time refresh credentials, CSRF tokens.
    pub auth: Mutex<auth::AuthState>,
    /// Switchable faults (latency, 429, 5xx, malformed bodies…).
    pub faults: Mutex<faults::Faults>,
    /// Every request seen, in order, for tests to assert on.
    pub log: Mutex<Vec<log::RecordedRequest>>,
    /// The generated account data plus everything written through the write endpoints.
    pub data: RwLock<data::Dataset>,
    /// Which Connect front end answers (the mainland-China redirect to a "connectus" origin).
    pub front_ends: Mutex<FrontEnds>,
    /// The Personal API's keys, tokens and load behaviour.
    pub personal: Mutex<personal::PersonalState>,
}

/// The Connect front ends this fake plays. From mainland-China networks `connect.garmin.com`
/// answers 302 to `connectus.garmin.cn`, the in-China front end for international accounts, which
/// serves `/app` and `/gc-api` too while SSO stays put (docs/garmin-web-api.md §0 `[S]`). The fake
/// plays connectus on a second port of the same server ([`crate::FakeGarmin::start_connectus`]).
#[derive(Clone, Debug, Default)]
pub struct FrontEnds {
    /// `host:port` of the connectus origin, once started.
    pub connectus_host: Option<String>,
    /// The client is "on a mainland-China network": the first origin redirects to connectus.
    pub mainland: bool,
}

impl AppState {
    /// Builds the whole world for `config`: no sessions, no faults, an empty log and the generated
    /// data set.
    pub fn new(config: FakeConfig) -> Self {
        let data = data::Dataset::generate(&config);
        Self {
            inner: Arc::new(Shared {
                auth: Mutex::new(auth::AuthState::new()),
                faults: Mutex::new(faults::Faults::default()),
                log: Mutex::new(Vec::new()),
                data: RwLock::new(data),
                front_ends: Mutex::new(FrontEnds::default()),
                personal: Mutex::new(personal::PersonalState::default()),
                config,
            }),
        }
    }

    /// How this fake was started.
    pub fn config(&self) -> &FakeConfig {
        &self.inner.config
    }
}

/// Locks `mutex`, shrugging off poisoning: a panicking handler must not turn every later request
/// into a panic too. Never hold the guard across an `.await`.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
