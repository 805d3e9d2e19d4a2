//! The Training view's data: the athlete's fitness chart and newest activities from the local
//! history on this computer (`history::training`), with what the history holds beside them. The
//! reading is library code (`History::training_overview`, tested there); this module only shapes
//! it for the window and runs it off the async threads. Nothing here asks Garmin.

use std::path::Path;

use chrono::NaiveDate;
use history::History;
use history::training::{FitnessSeries, RecentActivity, TrainingOverview};
use serde::Serialize;
use tauri::State;

use crate::error::{Error, ErrorCode, Result};
use crate::history_sync::{HistoryView, history_error, history_view, today};
use crate::state::Accounts;

/// Days the fitness chart shows (about three months, as the fitness charts of the MCP App).
pub const FITNESS_DAYS: u32 = 90;
/// Activities the recent list shows.
pub const RECENT_ACTIVITIES: u32 = 10;

/// The fitness chart's days as columns, the shape the chart component draws.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct FitnessView {
    /// One day each, oldest first, without gaps; the last is today.
    pub dates: Vec<NaiveDate>,
    /// Fitness (CTL) per day.
    pub ctl: Vec<f64>,
    /// Fatigue (ATL) per day.
    pub atl: Vec<f64>,
    /// Form (TSB) per day.
    pub tsb: Vec<f64>,
    /// How CTL, ATL and TSB are computed, in one sentence (English).
    pub convention: String,
    /// Which load was counted, in one sentence (English).
    pub load_convention: String,
    /// The scale of CTL, ATL and TSB: `tss` (100 = one hour at threshold) or `garmin` (Garmin's
    /// training load), as `get_fitness_trend` names it.
    pub load_scale: String,
    /// Why a load could not be counted (no heart-rate profile, no FTP), one sentence each (English).
    pub notes: Vec<String>,
    /// Some day shown is within the history's first 42 days: read those numbers as rough.
    pub settling: bool,
}

impl From<FitnessSeries> for FitnessView {
    fn from(f: FitnessSeries) -> Self {
        FitnessView {
            dates: f.dates,
            ctl: f.ctl,
            atl: f.atl,
            tsb: f.tsb,
            convention: f.convention,
            load_convention: f.load_convention,
            load_scale: f.load_scale,
            notes: f.notes,
            settling: f.settling,
        }
    }
}

/// One of the newest activities.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct RecentActivityView {
    /// Garmin's id.
    pub activity_id: u64,
    /// Local date of the start.
    pub date: NaiveDate,
    /// Its name as Garmin keeps it.
    pub name: Option<String>,
    /// Garmin's type key (`running`, `cycling`, …).
    pub type_key: Option<String>,
    /// Distance, m.
    pub distance_m: Option<f64>,
    /// Timer time, s.
    pub duration_s: Option<f64>,
    /// Average heart rate, bpm.
    pub avg_hr: Option<f64>,
    /// Garmin's training load.
    pub training_load: Option<f64>,
}

impl From<RecentActivity> for RecentActivityView {
    fn from(a: RecentActivity) -> Self {
        RecentActivityView {
            activity_id: a.activity_id,
            date: a.date,
            name: a.name,
            type_key: a.type_key,
            distance_m: a.distance_m,
            duration_s: a.duration_s,
            avg_hr: a.avg_hr,
            training_load: a.training_load,
        }
    }
}

/// What the Training view shows for the account shown.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct TrainingView {
    /// The demo account's (its data is the demo's, and the view says so).
    pub demo: bool,
    /// What the history holds (its days, counts, last sync).
    pub history: HistoryView,
    /// The fitness chart up to today; `None` when no synced activity has a training load.
    pub fitness: Option<FitnessView>,
    /// The newest activities, newest first.
    pub recent: Vec<RecentActivityView>,
}

/// The Training view of the history in `dir` on `today` (an absent history is an empty view;
/// nothing is created).
pub fn training_view(dir: &Path, demo: bool, today: NaiveDate) -> Result<TrainingView> {
    let history = history_view(dir)?;
    let overview = match History::open_existing(dir).map_err(history_error)? {
        Some(h) => h.training_overview(today, FITNESS_DAYS, RECENT_ACTIVITIES).map_err(history_error)?,
        None => TrainingOverview { fitness: None, recent: Vec::new() },
    };
    Ok(TrainingView {
        demo,
        history,
        fitness: overview.fitness.map(FitnessView::from),
        recent: overview.recent.into_iter().map(RecentActivityView::from).collect(),
    })
}

/// The Training view of the account shown, from its local history.
#[tauri::command]
pub async fn training_overview(accounts: State<'_, Accounts>) -> Result<TrainingView> {
    let (store, demo) = accounts.active();
    let dir = store.dir().to_path_buf();
    tauri::async_runtime::spawn_blocking(move || training_view(&dir, demo, today())).await.map_err(|e| {
        Error::new(ErrorCode::Other, format!("reading the local history stopped unexpectedly: {e}"))
    })?
}
