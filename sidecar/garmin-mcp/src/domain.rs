//! The domain layer under the tools: what Garmin's data means, independent of how a tool is asked
//! or answers. Tools are *parse → call → shape*: they parse their arguments with [`dates`], call
//! Garmin through the `garmin` client, and shape the answer with these modules; several tools and
//! the charts share them. This layer never depends on `crate::tools`, and no tool module imports
//! another tool module: what two tools share lives here.
//!
//! - [`activity`]: sport families and filters, activity rows and titles, the list's page size.
//! - [`best_efforts`]: a range's best curve, best times and their sources from the history's
//!   per-activity curves, in the sport's units.
//! - [`dates`]: the date argument types ([`dates::Day`]) and ranges, with their friendly message.
//! - `garmin::fit_series` (in the `garmin` crate, shared with the history sync): the one reader of an activity's original FIT file (samples, laps, totals),
//!   and what is derived from it (time in heart-rate zones, chart rows) where Garmin's JSON is
//!   not available (the Personal API has no splits, series or zone times).
//! - [`fitness`]: the fitness trend (CTL, ATL, TSB) from the sessions' loads, for
//!   `get_fitness_trend` and the fitness chart.
//! - [`goal_race`]: the next goal race from the athlete memory, as the analyses mention it.
//! - [`injury_risk`]: "am I doing too much?" judged from the mechanical and cardiovascular load,
//!   recovery and the athlete memory, for `get_injury_risk` and the `load_vs_tolerance` chart.
//! - [`watch`]: the morning readiness and the sentence for a metric the watch does not record.
//! - [`load`]: the acute:chronic workload ratio and its bands, and the rolling acute and chronic
//!   loads of the load chart.
//! - [`session_load`]: the athlete's load profile and each stored session's loads (TSS, hrTSS,
//!   Garmin's), for the fitness trend and the analyses.
//! - [`plan`]: scheduled workouts against the activities done (plan vs actual).
//! - [`plan_steps`]: a done workout's laps matched to its steps by Garmin's step index.
//! - [`coach_plan`]: Garmin Coach and other training plans with their goal races and workouts.
//! - `reading`: what a domain computation reads from (the call's Garmin reader, the local history,
//!   today), handed over by the server instead of the domain reaching into it.
//! - [`sleep`]: a night's sleep stages as merged spans.
//! - [`strength`]: strength progress from the history's sets (muscle volume, e1RM trends, days
//!   since each muscle group was trained), for `get_strength_progress` and the strength chart.
//! - [`parts`]: one failing part of an answer never sinks the rest.
//! - [`words`]: Garmin's keys, counts and whole numbers as people write them.
//! - [`account`]: what the session must know about the account before calls fan out.
//!
//! Numbers in words (durations, paces, distances) are the `display` crate's.

pub mod account;
pub mod activity;
pub mod best_efforts;
pub mod coach_plan;
pub mod dates;
pub mod fitness;
pub mod goal_race;
pub mod injury_risk;
pub mod load;
pub mod parts;
pub mod plan;
pub mod plan_steps;
pub(crate) mod reading;
pub mod session_load;
pub mod sleep;
pub mod strength;
pub mod watch;
pub mod words;
