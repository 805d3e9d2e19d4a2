//! Typed client for Garmin Connect's web API (the `/gc-api` surface the Garmin website uses), and
//! the session store that the desktop app and every `garmin-mcp` process share.
//!
//! * [`Client`] sends every request the way the Garmin web app does (session cookies,
//!   `Connect-Csrf-Token`, `Sec-Fetch-Site`, the sign-in User-Agent), retries reads on 429/5xx with
//!   jittered backoff, runs independent requests with a bounded concurrency, merges every
//!   `Set-Cookie` into the shared session and refreshes it — proactively before expiry and once on
//!   401 — without ever losing Garmin's one-time refresh credential; a 403 that is not about the
//!   session (Cloudflare's edge, Garmin's `ForbiddenException`, a missing feature) is named, never renewed.
//! * [`SessionStore`] is the one `session.json` file (0600, in a 0700 folder) with atomic writes and
//!   a cross-process lock (the data folder's file rules live in the `local-data` crate, with the
//!   athlete memory); see its module doc for the rules every writer follows.
//! * [`reads`] is the one way to read Garmin for the MCP tools, the history sync and the app: a
//!   [`Garmin`] reader built from the session store chooses per read between the Personal API, the
//!   web session and the activity's original FIT file (one policy), owns every path, page size and
//!   page walk, answers with the source as a value ([`Served`]) and keeps failures typed; its
//!   module doc says how to add a read.
//! * [`api`] holds one module per Garmin API area (activities, wellness, metrics, profile, devices,
//!   gear, challenges, social, events, calendar, workouts, downloads), each method naming its HTTP
//!   verb and path; [`models`] mirrors the same areas with types that tolerate what Garmin really
//!   sends (nulls, missing and unknown fields, `204`, `[]`).
//!
//! * [`https`] makes every HTTP client of ours (TLS: rustls on *ring*, the platform's verifier).
//! * [`personal`] is Garmin's official, read-only Personal API (an API key instead of the web
//!   sign-in), stored in the same session file and answering with the same [`models`].
//! * [`fit_series`] reads an activity's original FIT file (samples, laps, totals) for the charts,
//!   `get_activity` through the Personal API and the history sync. It and [`workout_fit`] share one
//!   FIT library, `rustyfit` (its decoder here, its encoder there).
//! * Writing to the account: [`changes`] names each write a person can confirm (create a workout,
//!   schedule it, add a race…), [`apply`] performs one, and [`journal`] records it so it can be
//!   undone. [`workout_spec`] is the compact workout language the assistant and the app's editor
//!   write (parsed, checked, previewed in words and translated to Garmin's workout JSON);
//!   [`workout_fit`] encodes the same workout as a FIT file for a watch. They live here because a
//!   workout is only meaningful as Garmin's JSON: both are tested against recorded Garmin bodies.
//!
//! * [`exercises`] is Garmin's exercise catalogue compiled in (strength, yoga, pilates, mobility:
//!   names, muscles, equipment), which the workout spec checks every exercise against;
//!   [`strength_log`] reads a strength activity's sets with it (kg, rests, per-exercise volume and
//!   estimated one-rep max), and [`strength_edit`] corrects them (the sets in the shape Garmin's
//!   `PUT` takes, the corrections checked against the catalogue, the change in words).
//!
//! In one sentence: everything about *Garmin the service* — reading it, writing to it, and the
//! credentials that reach it — and nothing about MCP, the desktop window or analysis.
//!
//! The API reference this follows is `garmin-web-api.md` (kept with the project's shared notes).
#![deny(missing_docs)]

mod answer_cap;
pub mod api;
pub mod apply;
pub mod changes;
mod client;
mod cookie_export;
mod cookies;
mod error;
pub mod exercises;
#[cfg(feature = "fake")]
pub mod fake;
pub mod fit_series;
mod html;
pub mod https;
pub mod journal;
pub mod models;
mod paths;
pub mod personal;
pub mod reads;
mod refresh;
mod retry;
mod session;
mod site;
mod store;
pub mod strength_edit;
pub mod strength_log;
pub mod workout_fit;
pub mod workout_spec;

pub use client::{Client, ClientBuilder};
pub use error::{Error, ErrorKind, ForbiddenKind, Result};
pub use paths::{APP_IDENTIFIER, DATA_DIR_ENV, default_data_dir, resolve_data_dir};
pub use personal::{PersonalApiKey, PersonalClient};
pub use reads::{Garmin, Served, Source};
pub use retry::RetryPolicy;
pub use session::{Session, SessionInfo, StoredCookie};
pub use site::{CONNECT_URL_ENV, CONNECTUS_ORIGIN, Origins, SSO_URL_ENV, Site, describe_front_end};
pub use store::{SessionStore, StoreError};

/// A browser-like User-Agent for sessions captured outside a browser (manual login). Garmin may
/// reject a session whose calls come with a different User-Agent than the one it signed in with, so
/// a session always stores the User-Agent it was captured with and every request reuses it.
pub const DEFAULT_USER_AGENT: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36";
