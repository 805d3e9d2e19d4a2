//! What the app and every `garmin-mcp` process keep on this computer beside Garmin's session, and
//! the file rules they all follow. Nothing here talks to Garmin.
//!
//! * [`private_files`] decides whether the data folder is safe to use and opens its files as only
//!   their owner may (0700/0600 or an owner-only Windows access list, no links, capped reads).
//! * [`atomic_file`] is the folder's one lock and one atomic write, for every file rewritten whole:
//!   `session.json` (the `garmin` crate's session store) and `athlete.json`.
//! * [`athlete`] is the athlete memory (`athlete.json`: goal races, injuries, constraints,
//!   preferences, volume caps), which the MCP tools, prompts and the desktop app share.
#![deny(missing_docs)]

pub mod athlete;
pub mod atomic_file;
pub mod private_files;
