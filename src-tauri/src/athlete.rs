//! The athlete memory in the home window: thin commands over `local_data::athlete` (the same
//! `athlete.json` every `garmin-mcp` of the account reads and writes), so the person sees every fact
//! an assistant remembered and can change, add or delete any of them. The checks, the lock and the
//! file live in the `garmin` crate; facts changed here are marked as the app's ([`APP_SOURCE`]).

use chrono::{DateTime, NaiveDate, Utc};
use local_data::athlete::{AthleteMemory, Fact, FactInput, FactKind, MemoryError};
use serde::{Deserialize, Serialize};
use tauri::State;

use crate::error::{Error, ErrorCode, Result};
use crate::state::Accounts;

/// How facts made or changed in the app name their source.
pub const APP_SOURCE: &str = "Garmin MCP app";

/// One fact as the UI shows it.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct FactView {
    /// Its number.
    pub id: u64,
    /// `goal_race`, `injury`, `constraint`, `preference`, `volume_cap`, `equipment`, `other`.
    pub kind: FactKind,
    /// The fact in words.
    pub text: String,
    /// `YYYY-MM-DD`.
    pub date: Option<String>,
    /// For a goal race: days from today (negative once past).
    pub days_to_race: Option<i64>,
    /// km.
    pub distance_km: Option<f64>,
    /// `h:mm:ss`.
    pub target_time: Option<String>,
    /// km a week.
    pub weekly_km_cap: Option<f64>,
    /// When it was remembered (RFC 3339, UTC).
    pub created: DateTime<Utc>,
    /// When it last changed.
    pub updated: DateTime<Utc>,
    /// The client or the app that remembered it.
    pub source: String,
    /// Who changed it last.
    pub updated_by: Option<String>,
}

impl FactView {
    fn new(fact: Fact, today: NaiveDate) -> Self {
        let days_to_race = (fact.kind == FactKind::GoalRace).then(|| fact.days_from(today)).flatten();
        FactView {
            id: fact.id,
            kind: fact.kind,
            text: fact.text,
            date: fact.date.map(|d| d.to_string()),
            days_to_race,
            distance_km: fact.distance_km,
            target_time: fact.target_time,
            weekly_km_cap: fact.weekly_km_cap,
            created: fact.created,
            updated: fact.updated,
            source: fact.source,
            updated_by: fact.updated_by,
        }
    }
}

/// A fact as the UI's form sends it. For an edit every field is sent: an empty `date` or
/// `targetTime`, or a `0` distance or cap, removes that field.
#[derive(Clone, Debug, Default, Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct FactForm {
    /// The kind.
    pub kind: Option<FactKind>,
    /// The fact in words.
    pub text: Option<String>,
    /// `YYYY-MM-DD`.
    pub date: Option<String>,
    /// km.
    pub distance_km: Option<f64>,
    /// `h:mm:ss` or `h:mm`.
    pub target_time: Option<String>,
    /// km a week.
    pub weekly_km_cap: Option<f64>,
}

impl From<FactForm> for FactInput {
    fn from(form: FactForm) -> Self {
        FactInput {
            kind: form.kind,
            text: form.text,
            date: form.date,
            distance_km: form.distance_km,
            target_time: form.target_time,
            weekly_km_cap: form.weekly_km_cap,
        }
    }
}

/// A refusal the person can fix (a bad field, a fact deleted meanwhile, a full memory) is
/// `invalid_input`; file trouble is `other`. The message says what to do either way.
fn memory_error(e: MemoryError) -> Error {
    let code = match e {
        MemoryError::Invalid { .. } | MemoryError::NotFound { .. } | MemoryError::Full => {
            ErrorCode::InvalidInput
        }
        _ => ErrorCode::Other,
    };
    Error::new(code, e.to_string())
}

/// Runs memory work off the UI's threads (the lock may wait for another process).
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, MemoryError> + Send + 'static,
) -> Result<T> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .map_err(|e| Error::new(ErrorCode::Other, format!("the athlete memory stopped unexpectedly: {e}")))?
        .map_err(memory_error)
}

fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// Every fact of `memory`, goal races first (soonest first), then by kind and age.
pub fn list(memory: &AthleteMemory, today: NaiveDate) -> Result<Vec<FactView>> {
    let mut facts = memory.facts().map_err(memory_error)?;
    let rank = |k: FactKind| FactKind::ALL.iter().position(|x| *x == k).unwrap_or(usize::MAX);
    facts.sort_by_key(|f| (rank(f.kind), f.date, f.id));
    Ok(facts.into_iter().map(|f| FactView::new(f, today)).collect())
}

/// Everything remembered about the athlete of the account shown.
#[tauri::command]
pub async fn athlete_facts(accounts: State<'_, Accounts>) -> Result<Vec<FactView>> {
    let (store, _demo) = accounts.active();
    let memory = AthleteMemory::in_dir(store.dir());
    tauri::async_runtime::spawn_blocking(move || list(&memory, today()))
        .await
        .map_err(|e| Error::new(ErrorCode::Other, format!("the athlete memory stopped unexpectedly: {e}")))?
}

/// Remembers a fact typed in the app.
#[tauri::command]
pub async fn add_athlete_fact(accounts: State<'_, Accounts>, fact: FactForm) -> Result<FactView> {
    let (store, _demo) = accounts.active();
    let memory = AthleteMemory::in_dir(store.dir());
    let fact = blocking(move || memory.remember(fact.into(), APP_SOURCE, Utc::now())).await?;
    Ok(FactView::new(fact, today()))
}

/// Changes fact `id` to what the form holds.
#[tauri::command]
pub async fn edit_athlete_fact(accounts: State<'_, Accounts>, id: u64, fact: FactForm) -> Result<FactView> {
    let (store, _demo) = accounts.active();
    let memory = AthleteMemory::in_dir(store.dir());
    let fact = blocking(move || memory.update(id, fact.into(), APP_SOURCE, Utc::now())).await?;
    Ok(FactView::new(fact, today()))
}

/// Deletes fact `id`.
#[tauri::command]
pub async fn delete_athlete_fact(accounts: State<'_, Accounts>, id: u64) -> Result<FactView> {
    let (store, _demo) = accounts.active();
    let memory = AthleteMemory::in_dir(store.dir());
    let fact = blocking(move || memory.forget(id)).await?;
    Ok(FactView::new(fact, today()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ui_sees_facts_in_camel_case_with_the_days_to_a_race_and_refusals_as_invalid_input() {
        let dir = tempfile::tempdir().unwrap();
        let memory = AthleteMemory::in_dir(dir.path());
        let form: FactForm = serde_json::from_value(serde_json::json!({
            "kind": "goal_race", "text": "Berlin Marathon", "date": "2027-09-26", "targetTime": "3:15", "distanceKm": 42.195
        }))
        .unwrap();
        memory.remember(form.into(), APP_SOURCE, Utc::now()).unwrap();
        let today = NaiveDate::from_ymd_opt(2026, 11, 15).unwrap();
        let views = list(&memory, today).unwrap();
        let json = serde_json::to_value(&views).unwrap();
        assert_eq!(json[0]["daysToRace"], 315);
        assert_eq!(json[0]["targetTime"], "3:15:00");
        assert_eq!(json[0]["kind"], "goal_race");
        assert_eq!(json[0]["source"], APP_SOURCE);
        let refused = memory.update(
            1,
            FactInput { date: Some("26/09/2027".into()), ..FactInput::default() },
            APP_SOURCE,
            Utc::now(),
        );
        let e = memory_error(refused.unwrap_err());
        assert_eq!(e.code, ErrorCode::InvalidInput);
        assert!(e.message.contains("`date`"), "{}", e.message);
        assert_eq!(memory_error(memory.forget(9).unwrap_err()).code, ErrorCode::InvalidInput);
    }
}
