//! `garmin::reads`: the one way to read Garmin. The MCP tools, their domain layer, the history sync
//! and the desktop app all read through a [`Garmin`] reader built from the session store
//! ([`Garmin::from_store`]); nothing outside this crate names a Garmin path, a page size or a page
//! walk, and nothing outside this module chooses between the sources.
//!
//! # The sources and the one policy
//!
//! A reader holds the Garmin Connect web session ([`Client`]), Garmin's official Personal API key
//! ([`PersonalClient`], `docs/garmin-personal-api.md`), or both. Each read says which of them can
//! serve it, and [`Garmin`] applies one policy to every read (`Garmin::serve`):
//!
//! 1. **The Personal API first**, where it serves the read, then the web session. A read whose
//!    Personal API answer is thinner than the web's (a night's sleep stages) asks the web first.
//! 2. **An activity's FIT file is a Personal API read**: with a key, an activity's laps, time in
//!    heart-rate zones and recorded series are derived from its original FIT file first, and
//!    Garmin's JSON through the web session answers when the file cannot (no file, an upload
//!    that is no FIT). Two reads declare the other order: one whose answer the history *keeps*
//!    (an activity's laps and zones: Garmin's own JSON is what it stores), and one whose Personal
//!    API answer is thinner than the web's (a night's sleep stages).
//! 3. **A failure falls to the next source**, except one the person must act on — a refused key
//!    ([`Error::ApiKeyRejected`]) or a session that needs a new sign-in — which is answered at
//!    once, never papered over, and Garmin's answer that it has nothing here (404, no content),
//!    which is about the data, not the source (unless the answer was to be derived from another
//!    read, such as the FIT file: then the next source may have it). After the Personal API answers 429, the web session answers the
//!    rest of this reader's reads ([`Garmin::fresh`] starts over).
//! 4. **No source for a read** is a typed failure: [`Error::WebSignInNeeded`] for what only the web
//!    session serves.
//!
//! Which source served a read comes back **as a value**, [`Served`], and is also kept in the
//! reader's log ([`Garmin::served`]) for answers that name every source they used. Failures stay
//! typed ([`Error::NotFound`], [`Error::NoContent`], [`Error::Forbidden`] with its kind,
//! [`Error::RateLimited`] with `retry_after`…): nobody reads an error's words to decide anything
//! ([`Error::means_nothing_there`] is "Garmin has nothing here", an answer rather than a failure).
//!
//! A caller that keeps a request budget (the history sync) gives the reader a [`RequestHook`]
//! ([`Garmin::with_hook`]): it is told before each request and may hold it back
//! ([`Error::HeldBack`]); the reader knows nothing of budgets.
//!
//! # The reads
//!
//! * `typed.rs`: the tools' reads, typed ([`crate::models`]).
//! * `activity.rs`: one activity's parts (summary, laps, zones, weather, series)
//!   from whichever source serves each, the FIT file read by [`crate::fit_series`].
//! * [`kept`]: what the history keeps — Garmin's raw JSON beside the typed value
//!   ([`Raw`]) — over one block of days, the activity list walked page by page.
//!
//! # Adding a read
//!
//! A new read (an activity's strength sets, a newest metric) is three small steps:
//!
//! 1. The endpoint in the typed API: a method in `api/<area>.rs` whose doc names the verb and
//!    path, answering a model in `models/<area>.rs` (and, if the Personal API serves it too, a
//!    method in `personal/reads.rs`).
//! 2. A method on [`Garmin`] in the file of its kind (`typed.rs` for the tools, `kept.rs` when the
//!    history stores it) that says which sources serve it:
//!    ```ignore
//!    /// An activity's strength sets (web session only).
//!    pub async fn exercise_sets(&self, id: u64) -> Result<Served<Option<ExerciseSets>>> {
//!        self.serve(Read::new("an activity's strength sets").web(move |w| {
//!            Box::pin(async move { w.activities().exercise_sets(id).await })
//!        }))
//!        .await
//!    }
//!    ```
//!    `.personal(…)` adds the Personal API (asked first), `.web_first()` reverses the order, and
//!    `.cost(n)` declares a read that sends `n` requests.
//! 3. A test against the fake Garmin (`tests/api/reads.rs`, or the area's file under `tests/api/`),
//!    which must answer the endpoint as Garmin does (same shapes, same refusals, marked with their
//!    source).
//!
//! A read the history keeps returns [`Raw`] rows (Garmin's JSON beside the typed value) and lets
//! "nothing here" stay an error ([`Error::NotFound`], [`Error::NoContent`]) for the history to read
//! as an answer; a tool's read returns the typed value. Newest metrics (training status parts,
//! health status, plans) follow the same steps, a GraphQL query being one more `api/` method.

mod activity;
mod hook;
pub mod kept;
mod plans;
mod typed;

pub use kept::{FitParts, KeptLaps, NewestMetricRanges};

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use futures::future::BoxFuture;
use serde::Serialize;

pub use activity::{ActivityParts, FitMiss, Recording, Wanted, parts_family, records_sets};
pub use hook::RequestHook;
pub use kept::Raw;

use crate::models::metrics::HrZones;
use crate::{Client, Error, PersonalClient, Result, RetryPolicy, SessionStore};

/// A source of Garmin data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Garmin's official Personal API, through the saved key.
    PersonalApi,
    /// The Garmin Connect web session.
    WebSession,
}

impl Source {
    /// The stored and serialized key: `personal_api`, `web_session`.
    pub fn key(self) -> &'static str {
        match self {
            Source::PersonalApi => "personal_api",
            Source::WebSession => "web_session",
        }
    }

    /// In words, for a person.
    pub fn words(self) -> &'static str {
        match self {
            Source::PersonalApi => "Garmin's official Personal API",
            Source::WebSession => "the Garmin Connect web session",
        }
    }

    /// "Served by A and B." for a set of sources, `None` when empty.
    pub fn phrase(sources: &BTreeSet<Source>) -> Option<String> {
        if sources.is_empty() {
            return None;
        }
        let words: Vec<&str> = sources.iter().map(|s| s.words()).collect();
        Some(format!("Served by {}.", words.join(" and ")))
    }
}

/// A read's value with the source that served it.
#[derive(Clone, Debug, PartialEq)]
pub struct Served<T> {
    /// What Garmin answered.
    pub value: T,
    /// Who answered it.
    pub source: Source,
}

impl<T> Served<T> {
    /// The value, for callers that need only it (the source is in the reader's log too).
    pub fn into_value(self) -> T {
        self.value
    }

    /// The same source with the value changed.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Served<U> {
        Served { value: f(self.value), source: self.source }
    }
}

/// `result.value()` on a served read: its value, the source dropped (it is in the reader's log).
pub trait ServedValue<T> {
    /// The value of a served read.
    fn value(self) -> Result<T>;
}

impl<T> ServedValue<T> for Result<Served<T>> {
    fn value(self) -> Result<T> {
        self.map(Served::into_value)
    }
}

/// Keeps a served read's value, dropping its source.
type KeepValue<T> = fn(Result<Served<T>>) -> Result<T>;

/// A served read's future mapped to its value alone ([`ServedFuture::value`]).
pub type ValueFuture<F, T> = futures::future::Map<F, KeepValue<T>>;

/// `future.value()` on a served read: a future of its value alone (the source is in the reader's
/// log), for code that joins several reads and keeps only what they answered.
pub trait ServedFuture<T>: Future<Output = Result<Served<T>>> + Sized {
    /// The read's value.
    fn value(self) -> ValueFuture<Self, T> {
        futures::FutureExt::map(self, value_of::<T> as KeepValue<T>)
    }
}

impl<T, F: Future<Output = Result<Served<T>>>> ServedFuture<T> for F {}

fn value_of<T>(read: Result<Served<T>>) -> Result<T> {
    read.map(Served::into_value)
}

/// One read asked of a source: a closure given the source's client, answering a future.
pub(crate) type Ask<'a, C, T> = Box<dyn FnOnce(&'a C) -> BoxFuture<'a, Result<T>> + Send + 'a>;

/// One read: what it is (for "needs the web sign-in"), which sources serve it, in which order, and
/// how many requests one attempt sends.
pub(crate) struct Read<'a, T> {
    what: &'a str,
    personal: Option<Ask<'a, PersonalClient, T>>,
    web: Option<Ask<'a, Client, T>>,
    web_first: bool,
    personal_cost: u32,
    web_cost: u32,
}

impl<'a, T> Read<'a, T> {
    /// A read of `what` (in words: "the blood-pressure log") that no source serves yet.
    pub(crate) fn new(what: &'a str) -> Self {
        Read { what, personal: None, web: None, web_first: false, personal_cost: 1, web_cost: 1 }
    }

    /// The Personal API serves it (asked first unless [`Read::web_first`]).
    pub(crate) fn personal(
        mut self,
        ask: impl FnOnce(&'a PersonalClient) -> BoxFuture<'a, Result<T>> + Send + 'a,
    ) -> Self {
        self.personal = Some(Box::new(ask));
        self
    }

    /// The web session serves it.
    pub(crate) fn web(
        mut self,
        ask: impl FnOnce(&'a Client) -> BoxFuture<'a, Result<T>> + Send + 'a,
    ) -> Self {
        self.web = Some(Box::new(ask));
        self
    }

    /// The web session's answer is the richer one: ask it first.
    pub(crate) fn web_first(mut self) -> Self {
        self.web_first = true;
        self
    }

    /// One attempt sends `n` requests (told to the [`RequestHook`]).
    pub(crate) fn cost(mut self, n: u32) -> Self {
        self.personal_cost = n;
        self.web_cost = n;
        self
    }

    /// The Personal API's answer is derived from other reads (an activity's FIT file), which tell
    /// the hook about their own requests.
    pub(crate) fn derived_personal(mut self) -> Self {
        self.personal_cost = 0;
        self
    }

    /// The web session's answer sends nothing itself (it hands the read on to other reads, which
    /// tell the hook about their own requests).
    pub(crate) fn derived_web(mut self) -> Self {
        self.web_cost = 0;
        self
    }
}

/// What one reader remembers while it lives: the sources it used, whether the Personal API is
/// paused after a 429, the hook, and the athlete's zone sets once read.
#[derive(Debug, Default)]
struct ReaderState {
    served: Mutex<BTreeSet<Source>>,
    personal_paused: AtomicBool,
    hook: Option<Arc<dyn RequestHook>>,
    zone_sets: tokio::sync::OnceCell<Vec<HrZones>>,
}

/// The reader: Garmin through whichever of the web session and the Personal API key are saved
/// (see the module doc). Cheap to clone; clones share the clients and this reader's state (its
/// log of sources, the pause after a 429, its hook).
#[derive(Clone, Debug)]
pub struct Garmin {
    web: Option<Client>,
    personal: Option<PersonalClient>,
    state: Arc<ReaderState>,
}

impl From<Client> for Garmin {
    /// A reader of the web session alone.
    fn from(web: Client) -> Garmin {
        Garmin { web: Some(web), personal: None, state: Arc::default() }
    }
}

impl Garmin {
    /// Reads through `web` and/or `personal`. Without either: [`Error::InvalidInput`] saying how to
    /// sign in or add a key.
    pub fn new(web: Option<Client>, personal: Option<PersonalClient>) -> Result<Garmin> {
        if web.is_none() && personal.is_none() {
            return Err(Error::InvalidInput(
                "reading Garmin needs a Garmin Connect web session or a Personal API key: sign in with `garmin-mcp login` or add a key with `garmin-mcp login --api-key`".into(),
            ));
        }
        Ok(Garmin { web, personal, state: Arc::default() })
    }

    /// The reader of the session file in `store`: the web session when one is saved, the Personal
    /// API when a key is (never on the China site). Fails as the web client does
    /// ([`Error::NotSignedIn`]) when neither is.
    pub fn from_store(store: &SessionStore) -> Result<Garmin> {
        Garmin::from_store_with(store, RetryPolicy::default())
    }

    /// [`Garmin::from_store`] with the web client's retry policy (tests shorten it).
    pub fn from_store_with(store: &SessionStore, retry: RetryPolicy) -> Result<Garmin> {
        let personal = PersonalClient::from_store(store.clone()).ok().flatten();
        match Client::builder().store(store.clone()).retry(retry).build() {
            Ok(web) => Garmin::new(Some(web), personal),
            Err(Error::NotSignedIn { .. }) if personal.is_some() => Garmin::new(None, personal),
            Err(e) => Err(e),
        }
    }

    /// The same clients with a fresh state: an empty log, the Personal API not paused, no hook.
    #[must_use]
    pub fn fresh(&self) -> Garmin {
        Garmin { web: self.web.clone(), personal: self.personal.clone(), state: Arc::default() }
    }

    /// The same clients with a fresh state told of every request by `hook` (see [`RequestHook`]).
    #[must_use]
    pub fn with_hook(&self, hook: Arc<dyn RequestHook>) -> Garmin {
        let state = ReaderState { hook: Some(hook), ..ReaderState::default() };
        Garmin { web: self.web.clone(), personal: self.personal.clone(), state: Arc::new(state) }
    }

    /// True when a Personal API key is saved: the reads it serves go there first.
    pub fn has_key(&self) -> bool {
        self.personal.is_some()
    }

    /// True when a web session is saved.
    pub fn has_web(&self) -> bool {
        self.web.is_some()
    }

    /// The Personal API client, when a key is saved (its key record: expiry, exchanges).
    pub fn personal_client(&self) -> Option<&PersonalClient> {
        self.personal.as_ref()
    }

    /// The web session, for what only it serves and for writes (which are not reads: see
    /// [`crate::apply`]); the web session is noted as a source. Without one:
    /// [`Error::WebSignInNeeded`] naming `what`.
    pub fn web(&self, what: &str) -> Result<&Client> {
        let client = self.web.as_ref().ok_or_else(|| Error::WebSignInNeeded { what: what.to_owned() })?;
        self.note(Source::WebSession);
        Ok(client)
    }

    /// Makes sure the web session knows the account's displayName and profile id (one
    /// `GET …/socialProfile` when it does not), before reads that put them in their paths fan out;
    /// nothing without a web session.
    pub async fn know_account(&self) -> Result<()> {
        if let Some(web) = &self.web
            && (web.display_name().is_empty() || web.profile_id().is_none())
        {
            web.verify().await?;
        }
        Ok(())
    }

    /// Requests in flight at once: the web client's cap, else the Personal API's.
    pub fn max_concurrency(&self) -> usize {
        match &self.web {
            Some(web) => web.max_concurrency(),
            None => crate::personal::MAX_IN_FLIGHT,
        }
    }

    /// Every source this reader's reads were served by.
    pub fn served(&self) -> BTreeSet<Source> {
        self.state.served.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Notes that `source` served something for this reader's caller (a sync run with its own
    /// reader, whose report names its sources).
    pub fn note(&self, source: Source) {
        self.state.served.lock().unwrap_or_else(PoisonError::into_inner).insert(source);
    }

    /// Tells the hook about `n` requests about to be sent; [`Error::HeldBack`] when it says no.
    fn before_sending(&self, n: u32) -> Result<()> {
        match &self.state.hook {
            Some(hook) => hook.before_sending(n).map_err(|reason| Error::HeldBack { reason }),
            None => Ok(()),
        }
    }

    /// The Personal API, unless this reader paused it after a 429.
    fn live_personal(&self) -> Option<&PersonalClient> {
        self.personal.as_ref().filter(|_| !self.state.personal_paused.load(Ordering::SeqCst))
    }

    /// Runs `read` under the policy of the module doc: its sources in order, each attempt told to
    /// the hook, the first answer kept with its source.
    pub(crate) async fn serve<'a, T>(&'a self, read: Read<'a, T>) -> Result<Served<T>> {
        let Read { what, personal, web, web_first, personal_cost, web_cost } = read;
        let offers_web = web.is_some();
        let mut tries: Vec<Attempt<'a, T>> = Vec::with_capacity(2);
        if let (Some(ask), Some(client)) = (personal, self.live_personal()) {
            tries.push(Attempt { source: Source::PersonalApi, run: ask(client) });
        }
        if let (Some(ask), Some(client)) = (web, self.web.as_ref()) {
            let attempt = Attempt { source: Source::WebSession, run: ask(client) };
            if web_first { tries.insert(0, attempt) } else { tries.push(attempt) }
        }
        if tries.is_empty() {
            return Err(if offers_web || self.personal.is_some() {
                Error::WebSignInNeeded { what: what.to_owned() }
            } else {
                Error::InvalidInput(format!(
                    "{what} comes only through Garmin's Personal API key: add one with `garmin-mcp login --api-key`"
                ))
            });
        }
        let last = tries.len() - 1;
        for (n, Attempt { source, run }) in tries.into_iter().enumerate() {
            self.before_sending(if source == Source::PersonalApi { personal_cost } else { web_cost })?;
            match run.await {
                Ok(value) => {
                    self.note(source);
                    return Ok(Served { value, source });
                }
                Err(e) if n == last || must_answer_at_once(&e) => return Err(e),
                // Garmin's "nothing here" is about the data, unless the answer was to be derived
                // from another read (an activity's FIT file): then the next source may have it.
                Err(e) if is_an_answer(&e) && !(source == Source::PersonalApi && personal_cost == 0) => {
                    return Err(e);
                }
                Err(e) => {
                    if source == Source::PersonalApi && matches!(e, Error::RateLimited { .. }) {
                        self.state.personal_paused.store(true, Ordering::SeqCst);
                    }
                    tracing::info!("{what}: {} failed ({e}); asking the next source", source.words());
                }
            }
        }
        Err(Error::InvalidInput(format!("{what}: no source answered")))
    }
}

/// One source's attempt at a read.
struct Attempt<'a, T> {
    source: Source,
    run: BoxFuture<'a, Result<T>>,
}

/// Garmin's answer that it has nothing here (404, no content): about the data, not the source, so
/// no other source is asked.
fn is_an_answer(e: &Error) -> bool {
    matches!(e, Error::NotFound { .. } | Error::NoContent { .. })
}

/// A failure the person must act on (a refused key, a new sign-in), or one that held the request
/// back: never papered over by another source.
fn must_answer_at_once(e: &Error) -> bool {
    matches!(e, Error::ApiKeyRejected { .. } | Error::HeldBack { .. }) || e.needs_sign_in()
}
