//! The sync against the fake Garmin (pinned to 2026-11-15, its deterministic year of data): a year
//! synced, a sync killed half-way and resumed, a 429 in the middle, two syncs at once (threads and
//! processes), Garmin revising a recent day, a broken database file, an account whose devices record
//! no sleep, HRV or weight, and the request counts that prove finished work is never read twice
//! (the fake's request log).
//!
//! Run: `cargo test -p history --test sync`

use std::sync::Arc;
use std::time::Duration;

use chrono::NaiveDate;
use fake_garmin::faults::{Fault, FaultRule};
use fake_garmin::{FakeConfig, FakeGarmin, Untracked};
use garmin::{Client, RetryPolicy, SessionStore};
use garmin::{Garmin, Source};
use history::History;
use history::sync::{ProblemKind, Stopped, SyncOptions, SyncReport, sync};

const USER_AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64) GarminMcpHistoryTests/1.0";

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 15).unwrap()
}

fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        max_retries: 2,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
        max_retry_after: Duration::from_secs(2),
    }
}

/// A fake Garmin and a data folder holding a session for it.
struct Rig {
    fake: FakeGarmin,
    dir: tempfile::TempDir,
}

impl Rig {
    async fn start() -> Rig {
        let fake = FakeGarmin::start(FakeConfig { today: today(), ..FakeConfig::default() }).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        save_session(&fake, dir.path());
        Rig { fake, dir }
    }

    fn client(&self) -> Client {
        client_in(self.dir.path())
    }

    fn history(&self) -> History {
        History::open(self.dir.path()).unwrap()
    }

    async fn sync(&self, options: &SyncOptions) -> SyncReport {
        sync(&self.history(), &self.client().into(), options, &|_| {}).await.unwrap()
    }

    /// `(path, query)` of the `/gc-api` requests the fake saw, in order.
    fn api_requests(&self) -> Vec<(String, String)> {
        self.fake
            .requests()
            .into_iter()
            .filter(|r| r.path.starts_with("/gc-api"))
            .map(|r| (r.path, r.query.unwrap_or_default()))
            .collect()
    }
}

fn save_session(fake: &FakeGarmin, dir: &std::path::Path) {
    garmin::fake::sign_in(fake, USER_AGENT, &SessionStore::new(dir)).unwrap();
}

fn client_in(dir: &std::path::Path) -> Client {
    Client::builder().store(SessionStore::new(dir)).retry(fast_retry()).build().unwrap()
}

/// Days whose daily summary was requested, from a request log.
fn summary_days(requests: &[(String, String)]) -> Vec<String> {
    requests
        .iter()
        .filter(|(p, _)| p.contains("/usersummary/daily/"))
        .filter_map(|(_, q)| q.strip_prefix("calendarDate=").map(str::to_owned))
        .collect()
}

/// Days the history holds a daily summary for.
fn stored_summary_days(dir: &std::path::Path) -> Vec<String> {
    let conn = rusqlite_open(dir);
    let mut stmt = conn.prepare("SELECT date FROM days WHERE summary_at IS NOT NULL ORDER BY date").unwrap();
    stmt.query_map([], |r| r.get::<_, String>(0)).unwrap().map(Result::unwrap).collect()
}

fn rusqlite_open(dir: &std::path::Path) -> rusqlite::Connection {
    rusqlite::Connection::open(History::path_in(dir)).unwrap()
}

fn year_ago() -> NaiveDate {
    today() - chrono::Duration::days(365)
}

#[tokio::test]
async fn a_year_is_synced_with_every_activity_day_laps_and_zones() {
    let rig = Rig::start().await;
    let report = rig.sync(&SyncOptions::new(today())).await;
    assert!(report.complete(), "{}", report.summary());
    assert!(report.problems.is_empty(), "{:?}", report.problems);

    // Every activity Garmin lists for the synced blocks is in the history, once.
    let history = rig.history();
    let first_block = history::sync::block_start(year_ago());
    let live = rig.client().activities().between(first_block, today(), None).await.unwrap();
    let counts = history.counts().unwrap();
    assert!(live.len() > 100, "the fake's year has hundreds of activities, got {}", live.len());
    assert_eq!(counts.activities, live.len() as u64);
    assert_eq!(report.activities_added as usize, live.len());
    let stored = history.activities(first_block, today(), None).unwrap();
    let mut live_ids: Vec<u64> = live.iter().filter_map(|a| a.activity_id).collect();
    let mut stored_ids: Vec<u64> = stored.iter().filter_map(|a| a.activity_id).collect();
    live_ids.sort_unstable();
    stored_ids.sort_unstable();
    assert_eq!(stored_ids, live_ids);
    // Laps and heart-rate zone times for the analytics.
    assert!(counts.laps >= counts.activities, "{counts:?}");
    assert!(counts.hr_zones >= counts.activities * 3, "{counts:?}");
    let loads = history.activity_loads(first_block, today()).unwrap();
    assert!(loads.iter().filter(|l| l.training_load.is_some()).count() > 100);
    assert!(loads.iter().all(|l| l.hr_zones.windows(2).all(|w| w[0].0 < w[1].0)));
    // Every day of the range has its summary; sleep, HRV and weight rows came from the ranges.
    let days = stored_summary_days(rig.dir.path());
    assert_eq!(days.first().map(String::as_str), Some(first_block.to_string().as_str()));
    assert_eq!(days.last().map(String::as_str), Some("2026-11-15"));
    assert_eq!(days.len() as i64, (today() - first_block).num_days() + 1);
    let conn = rusqlite_open(rig.dir.path());
    let with_sleep: i64 =
        conn.query_row("SELECT COUNT(*) FROM days WHERE sleep_s > 0", [], |r| r.get(0)).unwrap();
    let with_hrv: i64 =
        conn.query_row("SELECT COUNT(*) FROM days WHERE hrv_last_night_ms > 0", [], |r| r.get(0)).unwrap();
    let with_rhr: i64 =
        conn.query_row("SELECT COUNT(*) FROM days WHERE resting_hr > 0", [], |r| r.get(0)).unwrap();
    assert!(with_sleep > 300 && with_hrv > 300 && with_rhr > 300, "{with_sleep} {with_hrv} {with_rhr}");
    assert!(counts.training_status >= 13, "{counts:?}");
    // Every activity's series was read once and reduced: curves for the runs and rides with power.
    assert_eq!(report.curves_read as u64, counts.activities, "{}", report.summary());
    assert_eq!(history.curves_pending(first_block, today()).unwrap(), 0);
    let with_power =
        history.activity_curves(first_block, today(), Some("cycling"), history::Metric::Power).unwrap();
    assert!(with_power.iter().filter(|c| c.curve.at(1200).is_some()).count() > 10, "{}", with_power.len());
    let details = rig.api_requests().iter().filter(|(p, _)| p.ends_with("/details")).count();
    assert_eq!(details as u64, counts.activities, "one details request per activity");
    // Raw JSON is kept as Garmin sent it.
    let raw: String = conn
        .query_row("SELECT summary_json FROM activities ORDER BY start_local DESC LIMIT 1", [], |r| r.get(0))
        .unwrap();
    assert!(raw.contains("\"activityId\""), "{raw}");

    // The file is private.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(History::path_in(rig.dir.path())).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[tokio::test]
async fn a_second_sync_reads_only_the_recent_blocks_and_days_garmin_may_revise() {
    let rig = Rig::start().await;
    let first = rig.sync(&SyncOptions::new(today())).await;
    assert!(first.complete());
    rig.fake.clear_requests();
    let second = rig.sync(&SyncOptions::new(today())).await;
    assert!(second.complete(), "{}", second.summary());
    let requests = rig.api_requests();
    // One block (or two, when today is near a block's start) with the last few days only.
    assert!(second.blocks_skipped >= first.blocks - 2, "{}", second.summary());
    assert!(requests.len() < 30, "{} requests: {requests:?}", requests.len());
    let days = summary_days(&requests);
    assert!(days.iter().all(|d| d.as_str() >= "2026-11-12"), "{days:?}");
    assert!(!requests.iter().any(|(p, _)| p.ends_with("/splits")), "no activity is read twice: {requests:?}");
    assert_eq!(second.activities_added, 0);
}

#[tokio::test]
async fn a_sync_killed_half_way_resumes_without_duplicates_or_reading_finished_days_again() {
    let rig = Rig::start().await;
    rig.fake.push_fault(FaultRule::always(Fault::Latency(Duration::from_millis(3))));
    let history = rig.history();
    let client = rig.client();
    let task = tokio::spawn(async move {
        let _ = sync(&history, &client.clone().into(), &SyncOptions::new(today()), &|_| {}).await;
    });
    // Kill it (drop the future at whatever await it is in) once a good part is done: over 120 days
    // kept (about four blocks of the year's fourteen).
    let kept_days = || -> i64 {
        let conn = rusqlite_open(rig.dir.path());
        conn.busy_timeout(Duration::from_secs(5)).unwrap();
        conn.query_row("SELECT count(*) FROM days WHERE summary_at IS NOT NULL", [], |r| r.get(0))
            .unwrap_or(0)
    };
    loop {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if kept_days() > 120 {
            break;
        }
    }
    task.abort();
    let _ = task.await;
    rig.fake.clear_faults();
    let finished_days = stored_summary_days(rig.dir.path());
    let counts_then = rig.history().counts().unwrap();
    assert!(finished_days.len() > 100, "the first run got somewhere: {}", finished_days.len());
    assert!(counts_then.blocks < 14, "the first run did not finish: {counts_then:?}");
    let conn = rusqlite_open(rig.dir.path());
    let mut stmt = conn.prepare("SELECT activity_id FROM activities WHERE details_at IS NOT NULL").unwrap();
    let detailed: Vec<i64> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    drop(stmt);

    rig.fake.clear_requests();
    let report = rig.sync(&SyncOptions::new(today())).await;
    assert!(report.complete(), "{}", report.summary());
    let requests = rig.api_requests();
    // No finished day is read again, except the last few Garmin may still revise.
    let again: Vec<String> = summary_days(&requests)
        .into_iter()
        .filter(|d| finished_days.contains(d) && d.as_str() < "2026-11-12")
        .collect();
    assert!(again.is_empty(), "finished days read again: {again:?}");
    // No activity whose laps were read is read again.
    let reread: Vec<&(String, String)> = requests
        .iter()
        .filter(|(p, _)| detailed.iter().any(|id| p.ends_with(&format!("/activity/{id}/splits"))))
        .collect();
    assert!(reread.is_empty(), "{reread:?}");

    // The result is the same as one uninterrupted sync: no duplicate rows.
    let clean = Rig::start().await;
    clean.sync(&SyncOptions::new(today())).await;
    assert_eq!(rig.history().counts().unwrap(), clean.history().counts().unwrap());
}

#[tokio::test]
async fn a_429_mid_sync_stops_politely_with_when_to_resume_and_the_next_run_finishes() {
    let rig = Rig::start().await;
    // Garmin rate-limits from one day in the middle of the year on, asking for ten minutes.
    rig.fake.push_fault(
        FaultRule::always(Fault::RateLimited { retry_after_secs: Some(600) })
            .on_path("calendarDate=2026-05-20"),
    );
    let before = chrono::Utc::now();
    let report = rig.sync(&SyncOptions::new(today())).await;
    let Some(Stopped::RateLimited { resume_after }) = report.stopped.clone() else {
        panic!("expected a polite stop: {}", report.summary())
    };
    assert!(resume_after >= before + chrono::Duration::seconds(590), "{resume_after}");
    let text = report.summary();
    assert!(text.contains("rate limiting") && text.contains("Resume after"), "{text}");
    assert!(report.blocks_synced >= 5, "the newer blocks were finished first: {text}");
    // The client retried the 429 a bounded number of times only (it asked for more than we wait).
    let hits = rig.api_requests().iter().filter(|(_, q)| q.contains("2026-05-20")).count();
    assert!(hits <= 3, "{hits}");

    let finished = stored_summary_days(rig.dir.path());
    rig.fake.clear_faults();
    rig.fake.clear_requests();
    let resumed = rig.sync(&SyncOptions::new(today())).await;
    assert!(resumed.complete(), "{}", resumed.summary());
    let again: Vec<String> = summary_days(&rig.api_requests())
        .into_iter()
        .filter(|d| finished.contains(d) && d.as_str() < "2026-11-12")
        .collect();
    assert!(again.is_empty(), "{again:?}");
}

#[tokio::test]
async fn a_request_budget_stops_the_sync_and_the_next_run_continues() {
    let rig = Rig::start().await;
    let mut options = SyncOptions::new(today());
    options.request_budget = Some(120);
    let report = rig.sync(&options).await;
    assert_eq!(report.stopped, Some(Stopped::Budget { requests: 120 }));
    // Requests counted but not sent (in flight when the budget ran out) are dropped, never sent.
    let sent = rig.api_requests().len();
    assert!((110..=120).contains(&sent), "{sent}");
    options.request_budget = None;
    let report = rig.sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
}

#[tokio::test]
async fn two_syncs_at_once_on_two_connections_share_the_file_without_errors_or_duplicates() {
    let rig = Rig::start().await;
    let (a, b) = (rig.history(), rig.history());
    let (ca, cb) = (rig.client(), rig.client());
    let options = SyncOptions::new(today());
    let (ra, rb) = tokio::join!(async { sync(&a, &ca.clone().into(), &options, &|_| {}).await }, async {
        sync(&b, &cb.clone().into(), &options, &|_| {}).await
    },);
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    assert!(ra.complete() && rb.complete(), "{} / {}", ra.summary(), rb.summary());
    let clean = Rig::start().await;
    clean.sync(&options).await;
    assert_eq!(a.counts().unwrap(), clean.history().counts().unwrap());
}

/// The child of [`two_processes_sync_the_same_file_at_once`]: syncs the folder it is given.
#[tokio::test]
#[ignore = "run by two_processes_sync_the_same_file_at_once in child processes"]
async fn child_process_sync() {
    let Some(dir) = std::env::var_os("HISTORY_CHILD_DIR") else { return };
    let dir = std::path::PathBuf::from(dir);
    let history = History::open(&dir).unwrap();
    let report = sync(&history, &client_in(&dir).into(), &SyncOptions::new(today()), &|_| {}).await.unwrap();
    assert!(report.complete(), "{}", report.summary());
}

#[tokio::test]
async fn two_processes_sync_the_same_file_at_once() {
    let rig = Rig::start().await;
    let me = std::env::current_exe().unwrap();
    let spawn = || {
        tokio::process::Command::new(&me)
            .args(["--exact", "child_process_sync", "--ignored", "--nocapture"])
            .env("HISTORY_CHILD_DIR", rig.dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (one, two) = (spawn(), spawn());
    let (one, two) = tokio::join!(one.wait_with_output(), two.wait_with_output());
    for out in [one.unwrap(), two.unwrap()] {
        let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && text.contains("1 passed"), "{text}");
    }
    let clean = Rig::start().await;
    clean.sync(&SyncOptions::new(today())).await;
    assert_eq!(rig.history().counts().unwrap(), clean.history().counts().unwrap());
}

#[tokio::test]
async fn garmin_revising_a_recent_day_and_activity_is_picked_up_by_the_next_sync() {
    let rig = Rig::start().await;
    rig.sync(&SyncOptions::new(today())).await;
    let yesterday = today() - chrono::Duration::days(1);
    let history = rig.history();
    let recent = history.activities(today() - chrono::Duration::days(7), yesterday, None).unwrap();
    let renamed = recent.first().and_then(|a| a.activity_id).expect("an activity last week");

    // Garmin revises: yesterday's steps recomputed after a late upload, an activity renamed.
    rig.fake.push_fault(
        FaultRule::always(Fault::Overlay(serde_json::json!({"totalSteps": 23456})))
            .on_path(&format!("calendarDate={yesterday}")),
    );
    rig.client().activities().rename(renamed, "Renamed after the run").await.unwrap();
    let report = rig.sync(&SyncOptions::new(today())).await;
    assert!(report.complete(), "{}", report.summary());

    let conn = rusqlite_open(rig.dir.path());
    let steps: i64 = conn
        .query_row("SELECT steps FROM days WHERE date = ?1", [yesterday.to_string()], |r| r.get(0))
        .unwrap();
    assert_eq!(steps, 23456);
    let name: String = conn
        .query_row("SELECT name FROM activities WHERE activity_id = ?1", [renamed as i64], |r| r.get(0))
        .unwrap();
    assert_eq!(name, "Renamed after the run");
}

#[tokio::test]
async fn a_corrupt_database_file_is_moved_aside_and_a_fresh_one_is_synced() {
    let rig = Rig::start().await;
    let path = History::path_in(rig.dir.path());
    std::fs::write(&path, b"this is not a SQLite database, it was damaged on disk".repeat(200)).unwrap();
    let history = History::open(rig.dir.path()).unwrap();
    let aside = history.moved_aside().expect("the bad file was moved aside").to_path_buf();
    assert!(aside.exists() && aside.display().to_string().contains("history.sqlite3.broken-"));
    assert_eq!(history.counts().unwrap().activities, 0);
    let report = sync(&history, &rig.client().into(), &SyncOptions::new(today()), &|_| {}).await.unwrap();
    assert!(report.complete());
    assert!(history.counts().unwrap().activities > 100);

    // A file whose pages were damaged after a good sync is also rebuilt, never fatal.
    drop(history);
    let mut bytes = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_file(format!("{}-wal", path.display()));
    let _ = std::fs::remove_file(format!("{}-shm", path.display()));
    for b in bytes.iter_mut().skip(4096).step_by(7) {
        *b = 0xA5;
    }
    std::fs::write(&path, bytes).unwrap();
    let reopened = History::open(rig.dir.path()).unwrap();
    assert!(reopened.moved_aside().is_some());
    assert_eq!(reopened.counts().unwrap().activities, 0);
}

#[tokio::test]
async fn coverage_ends_yesterday_and_progress_is_reported_to_the_end() {
    let rig = Rig::start().await;
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let report = sync(&rig.history(), &rig.client().into(), &SyncOptions::new(today()), &move |p| {
        log.lock().unwrap().push(p.clone());
    })
    .await
    .unwrap();
    assert!(report.complete());
    let seen = seen.lock().unwrap();
    let last = seen.last().unwrap();
    assert_eq!(last.done, last.total);
    assert!(seen.windows(2).all(|w| w[0].done <= w[1].done));
    let coverage = rig.history().coverage(year_ago(), today()).unwrap();
    assert_eq!(coverage.covered_to, Some(today() - chrono::Duration::days(1)));
    assert!(coverage.synced_at.is_some());
    let before = rig.history().coverage(year_ago() - chrono::Duration::days(60), today()).unwrap();
    assert_eq!(before.covered_to, None, "nothing before the synced range is covered");
}

#[tokio::test]
async fn the_summary_gives_the_days_covered_the_counts_and_when_it_was_last_synced() {
    let rig = Rig::start().await;
    let empty = rig.history().summary().unwrap();
    assert_eq!(
        (empty.first_day, empty.last_day, empty.activities, empty.last_synced_at),
        (None, None, 0, None)
    );
    let before = chrono::Utc::now() - chrono::Duration::seconds(1);
    let report = rig.sync(&SyncOptions::new(today())).await;
    assert!(report.complete(), "{}", report.summary());
    let summary = rig.history().summary().unwrap();
    let first = summary.first_day.unwrap();
    assert!(first <= year_ago() && first > year_ago() - chrono::Duration::days(28), "{first}");
    assert_eq!(summary.last_day, Some(today() - chrono::Duration::days(1)), "today is never covered");
    let counts = rig.history().counts().unwrap();
    assert_eq!((summary.activities, summary.days), (counts.activities, counts.days));
    assert!(summary.activities > 100, "{summary:?}");
    assert!(summary.last_synced_at.unwrap() >= before, "{summary:?}");
}

/// Activities whose series was reduced (`curves_at` set).
fn reduced_ids(dir: &std::path::Path) -> Vec<i64> {
    let conn = rusqlite_open(dir);
    let mut stmt = conn
        .prepare("SELECT activity_id FROM activities WHERE curves_at IS NOT NULL ORDER BY activity_id")
        .unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

/// Ids whose `/details` were requested, from a request log.
fn details_ids(requests: &[(String, String)]) -> Vec<i64> {
    requests
        .iter()
        .filter_map(|(p, _)| p.strip_suffix("/details")?.rsplit('/').next()?.parse().ok())
        .collect()
}

/// The sync is cancelled in-process (its task aborted, as a server drops a cancelled call) while it
/// reads series: whatever its blocking-pool work was doing, nothing is written once the task is
/// gone, and the resumed sync reads exactly the series not finished. (A real kill of a
/// `garmin-mcp sync` process is `cli`'s `a_sync_process_killed_mid_series_…` test.)
#[tokio::test]
async fn a_sync_cancelled_while_reading_series_writes_nothing_more_and_resumes_where_it_was() {
    let rig = Rig::start().await;
    rig.fake.push_fault(FaultRule::always(Fault::Latency(Duration::from_millis(3))).on_path("/details"));
    let history = rig.history();
    let client = rig.client();
    // The sync's own runtime, so that dropping it below waits for its blocking pool to drain.
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let task = runtime.spawn(async move {
        sync(&history, &client.clone().into(), &SyncOptions::new(today()), &|_| {}).await.map(|r| r.summary())
    });
    loop {
        tokio::time::sleep(Duration::from_millis(10)).await;
        if details_ids(&rig.api_requests()).len() > 40 {
            break;
        }
        if task.is_finished() {
            let ended = task.await;
            panic!("the sync ended before it had read 40 series: {ended:?}");
        }
    }
    task.abort();
    let _ = task.await;
    let finished = reduced_ids(rig.dir.path());
    // Every blocking task the sync started has now returned: none of them wrote after the abort.
    tokio::task::spawn_blocking(move || drop(runtime)).await.unwrap();
    assert_eq!(reduced_ids(rig.dir.path()), finished, "curves were committed after the sync was cancelled");
    rig.fake.clear_faults();
    let total = rig.history().counts().unwrap().activities as usize;
    assert!(finished.len() >= 30 && finished.len() < total, "{} of {total}", finished.len());

    rig.fake.clear_requests();
    let report = rig.sync(&SyncOptions::new(today())).await;
    assert!(report.complete(), "{}", report.summary());
    let read_again: Vec<i64> =
        details_ids(&rig.api_requests()).into_iter().filter(|id| finished.contains(id)).collect();
    assert!(read_again.is_empty(), "finished series read again: {read_again:?}");
    assert_eq!(report.curves_read as usize, total - finished.len());
    let clean = Rig::start().await;
    clean.sync(&SyncOptions::new(today())).await;
    assert_eq!(rig.history().counts().unwrap(), clean.history().counts().unwrap());
}

#[tokio::test]
async fn a_version_1_database_upgrades_in_place_and_its_settled_activities_get_curves_on_the_next_sync() {
    // A database as the build before the curves made it: the same synced year in the version-1 tables.
    let synced = Rig::start().await;
    synced.sync(&SyncOptions::new(today())).await;
    let rig = Rig::start().await;
    history::create_v1_for_tests(rig.dir.path()).unwrap();
    {
        let conn = rusqlite_open(rig.dir.path());
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        assert_eq!(version, 1);
        conn.execute(
            "ATTACH DATABASE ?1 AS synced",
            [History::path_in(synced.dir.path()).display().to_string()],
        )
        .unwrap();
        let v1_activity_columns = "activity_id, local_date, start_local, start_gmt, type_key, type_id, parent_type_id, \
             sport_type_id, name, distance_m, duration_s, moving_s, elevation_gain_m, avg_hr, max_hr, avg_power, \
             norm_power, training_load, calories, aerobic_te, summary_json, splits_json, hr_zones_json, details_at, synced_at";
        let v1_lap_columns = "activity_id, lap_index, distance_m, duration_s, moving_s, avg_speed_mps, avg_hr, max_hr, avg_power";
        let v1_day_columns = "date, steps, resting_hr, total_kcal, avg_stress, body_battery_high, body_battery_low, \
             intensity_minutes, sleep_s, sleep_score, hrv_last_night_ms, hrv_weekly_avg_ms, hrv_status, weight_g, \
             summary_json, sleep_json, hrv_json, weight_json, summary_at, summary_on, ranges_at";
        conn.execute_batch(&format!(
            "INSERT INTO activities ({v1_activity_columns}) SELECT {v1_activity_columns} FROM synced.activities;
             INSERT INTO activity_laps SELECT {v1_lap_columns} FROM synced.activity_laps;
             INSERT INTO activity_hr_zones SELECT * FROM synced.activity_hr_zones;
             INSERT INTO days ({v1_day_columns}) SELECT {v1_day_columns} FROM synced.days;
             INSERT INTO training_status SELECT * FROM synced.training_status;
             INSERT INTO activity_types SELECT * FROM synced.activity_types;
             INSERT INTO sync_blocks SELECT * FROM synced.sync_blocks;"
        ))
        .unwrap();
    }
    // Opening upgrades it; nothing already there is lost.
    let history = rig.history();
    let counts = history.counts().unwrap();
    assert_eq!(counts.activities, synced.history().counts().unwrap().activities);
    assert_eq!(counts.curve_points, 0);
    let version: i64 =
        rusqlite_open(rig.dir.path()).query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(
        version, 10,
        "opened: upgraded to the newest schema (curves, the athlete profile, sources, strength sets, the newest metrics' daily series, the daily load focus, the daily readiness, then the laps' workout steps)"
    );
    // The next sync reads the series of every activity, though their blocks are settled, and no laps.
    rig.fake.clear_requests();
    let report = rig.sync(&SyncOptions::new(today())).await;
    assert!(report.complete(), "{}", report.summary());
    assert_eq!(report.curves_read as u64, counts.activities);
    assert!(report.strength_sets_read > 50, "every strength session gets its sets: {}", report.summary());
    let requests = rig.api_requests();
    assert!(!requests.iter().any(|(p, _)| p.ends_with("/splits")), "laps are not read again");
    assert_eq!(rig.history().counts().unwrap(), synced.history().counts().unwrap());
}

#[tokio::test]
async fn a_sync_keeps_the_athlete_profile_and_reads_it_again_only_on_a_new_day() {
    let rig = Rig::start().await;
    rig.sync(&SyncOptions::new(today())).await;
    let profile = rig.history().athlete_profile().unwrap().expect("the sync read the profile");
    assert_eq!(profile.read_on, today());
    assert!(
        profile.max_hr.is_some() && profile.resting_hr.is_some() && profile.threshold_hr.is_some(),
        "{profile:?}"
    );
    let reads = |rig: &Rig| {
        rig.api_requests()
            .iter()
            .filter(|(p, _)| {
                ["heartRateZones", "user-settings", "personal-information"].iter().any(|k| p.contains(k))
            })
            .count()
    };
    rig.fake.clear_requests();
    rig.sync(&SyncOptions::new(today())).await;
    assert_eq!(reads(&rig), 0, "read today already");
    // Read on an earlier day: the next sync reads it again (three requests).
    rusqlite_open(rig.dir.path())
        .execute("UPDATE athlete_profile SET read_on = '2026-11-01', ftp = NULL", [])
        .unwrap();
    rig.fake.clear_requests();
    rig.sync(&SyncOptions::new(today())).await;
    assert_eq!(reads(&rig), 3);
    assert_eq!(rig.history().athlete_profile().unwrap().unwrap().read_on, today());
}

// ---- Garmin's official Personal API (issue #16 §2 with #15 §3) ----

/// Saves a Personal API key for the fake (which plays the Personal API on the same listener).
fn save_key(fake: &FakeGarmin, dir: &std::path::Path) {
    let key = fake.mint_personal_api_key(Duration::from_secs(90 * 86_400)).key;
    let mut record = garmin::PersonalApiKey::new(key, None);
    record.origin = Some(fake.base_url());
    SessionStore::new(dir).lock().unwrap().write_personal(Some(&record)).unwrap();
}

/// A fake Garmin and a data folder holding a Personal API key, and a web session when `web`.
async fn key_rig(web: bool) -> Rig {
    let fake = FakeGarmin::start(FakeConfig { today: today(), ..FakeConfig::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    if web {
        save_session(&fake, dir.path());
    }
    save_key(&fake, dir.path());
    Rig { fake, dir }
}

impl Rig {
    /// The reader of this data folder: the key (fast retries), and the web session if saved.
    fn transport(&self) -> Garmin {
        let personal = garmin::PersonalClient::new(SessionStore::new(self.dir.path()), self.fake.base_url())
            .unwrap()
            .with_retry(fast_retry());
        let web =
            Client::builder().store(SessionStore::new(self.dir.path())).retry(fast_retry()).build().ok();
        Garmin::new(web, Some(personal)).unwrap()
    }

    async fn key_sync(&self, options: &SyncOptions) -> SyncReport {
        sync(&self.history(), &self.transport(), options, &|_| {}).await.unwrap()
    }

    /// `(path, query)` of the Personal API requests the fake saw (its paths are not under `/gc-api`).
    fn personal_requests(&self) -> Vec<(String, String)> {
        self.fake
            .requests()
            .into_iter()
            .filter(|r| !r.path.starts_with("/gc-api") && !r.path.contains("personal-api-key/token"))
            .map(|r| (r.path, r.query.unwrap_or_default()))
            .collect()
    }
}

/// The day range a request asked for: `startDate`/`endDate` in the query, or the path's last two
/// segments.
fn window(path: &str, query: &str) -> Option<(NaiveDate, NaiveDate)> {
    let date = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").ok();
    let param =
        |name: &str| query.split('&').find_map(|kv| kv.strip_prefix(&format!("{name}="))).and_then(date);
    if let (Some(s), Some(e)) = (param("startDate"), param("endDate")) {
        return Some((s, e));
    }
    let mut segments = path.rsplit('/');
    let (e, s) = (segments.next().and_then(date)?, segments.next().and_then(date)?);
    Some((s, e))
}

/// The Personal API cap (inclusive days) of a range path (reference §4.2, `garmin::personal::caps`).
fn cap_of(path: &str) -> u32 {
    use garmin::personal::caps;
    if path.contains("/v2/dailysummaries") {
        caps::DAILY_SUMMARIES
    } else if path.contains("dailySleepSummariesByDate") {
        caps::SLEEP
    } else if path.contains("/hrv-service/hrv/daily/") {
        caps::HRV
    } else if path.contains("/weight-service/weight/range/") {
        caps::WEIGHT
    } else {
        u32::MAX
    }
}

/// Asserts that no request asked a range beyond its endpoint's cap or beyond one block.
fn assert_windows_within_caps(requests: &[(String, String)]) {
    for (path, query) in requests {
        if let Some((s, e)) = window(path, query) {
            let days = u32::try_from((e - s).num_days() + 1).unwrap();
            assert!(days <= cap_of(path) && days <= 28, "{path}?{query}: {days} days");
        }
    }
}

/// Every row of a table as text, ordered, for comparing two histories' figures.
fn figures(dir: &std::path::Path, sql: &str) -> Vec<String> {
    let conn = rusqlite_open(dir);
    let mut stmt = conn.prepare(sql).unwrap();
    let n = stmt.column_count();
    stmt.query_map([], |r| {
        let cells: Vec<String> = (0..n)
            .map(|i| match r.get_ref(i).unwrap() {
                rusqlite::types::ValueRef::Null => "-".to_owned(),
                rusqlite::types::ValueRef::Integer(v) => v.to_string(),
                rusqlite::types::ValueRef::Real(v) => format!("{v:.3}"),
                rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                rusqlite::types::ValueRef::Blob(_) => "blob".to_owned(),
            })
            .collect();
        Ok(cells.join(" "))
    })
    .unwrap()
    .map(Result::unwrap)
    .collect()
}

/// The figures `list_activities` and `get_period_stats` read from the history.
const ACTIVITY_FIGURES: &str = "SELECT activity_id, local_date, start_local, type_key, name, distance_m, duration_s, \
     moving_s, elevation_gain_m, avg_hr, max_hr, avg_power, training_load, calories FROM activities ORDER BY activity_id";
const DAY_FIGURES: &str = "SELECT date, steps, resting_hr, total_kcal, sleep_s, hrv_last_night_ms, weight_g \
     FROM days ORDER BY date";

#[tokio::test]
async fn a_key_only_year_sync_asks_only_the_personal_api_within_its_caps_and_keeps_the_web_syncs_figures() {
    let keyed = key_rig(false).await;
    keyed.fake.clear_requests();
    let started = std::time::Instant::now();
    let report = keyed.key_sync(&SyncOptions::new(today())).await;
    let took = started.elapsed();
    assert!(report.complete(), "{}", report.summary());
    assert_eq!(report.served_by.iter().copied().collect::<Vec<_>>(), [Source::PersonalApi]);
    // One plain note on what only the web serves; nothing failed.
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert!(report.problems[0].starts_with("Only a Personal API key is saved"), "{:?}", report.problems);
    let text = report.summary();
    assert!(
        text.contains("Served by Garmin's official Personal API.") && text.contains("training status"),
        "{text}"
    );
    // Only Personal API paths, every answer a success, no window beyond its cap.
    let all = keyed.fake.requests();
    assert!(all.iter().all(|r| !r.path.starts_with("/gc-api")), "a web path was asked");
    // Every answer a success, but the original file of an activity that has none (a manual entry).
    let refused: Vec<_> = all
        .iter()
        .filter(|r| !(200..300).contains(&r.status))
        .filter(|r| !(r.status == 404 && r.path.starts_with("/download-service/")))
        .collect();
    assert!(refused.is_empty(), "{refused:?}");
    let requests = keyed.personal_requests();
    assert_windows_within_caps(&requests);
    assert_eq!(report.requests as usize, requests.len(), "every request counted");
    let blocks = report.blocks as usize;
    let count = |part: &str| requests.iter().filter(|(p, _)| p.contains(part)).count();
    assert_eq!(count("/v2/dailysummaries"), blocks, "one daily-summary range per block");
    assert_eq!(count("dailySleepSummariesByDate"), blocks);
    assert_eq!(
        count("/download-service/files/activity/"),
        report.activities_added as usize,
        "one FIT per activity"
    );

    // The same athlete and dates through the web session: the same activities and daily figures.
    let web = Rig::start().await;
    web.fake.clear_requests();
    let started = std::time::Instant::now();
    let web_report = web.sync(&SyncOptions::new(today())).await;
    let web_took = started.elapsed();
    assert!(web_report.complete(), "{}", web_report.summary());
    assert_eq!(figures(keyed.dir.path(), ACTIVITY_FIGURES), figures(web.dir.path(), ACTIVITY_FIGURES));
    assert_eq!(figures(keyed.dir.path(), DAY_FIGURES), figures(web.dir.path(), DAY_FIGURES));
    let (k, w) = (keyed.history(), web.history());
    let first_block = history::sync::block_start(year_ago());
    let (ka, wa) = (
        k.activities(first_block, today(), None).unwrap(),
        w.activities(first_block, today(), None).unwrap(),
    );
    assert_eq!(ka.len(), wa.len());
    // Laps, zone times and curves came from the FIT files (activities with one), so the analytics
    // have them.
    let counts = k.counts().unwrap();
    assert!(counts.laps > 0 && counts.hr_zones > 0 && counts.curve_points > 0, "{counts:?}");
    // Each row says where it came from.
    let sources = figures(
        keyed.dir.path(),
        "SELECT DISTINCT summary_source || ' ' || coalesce(details_source, '-') FROM activities",
    );
    assert_eq!(sources, ["personal_api fit_file"]);
    let day_sources =
        figures(keyed.dir.path(), "SELECT DISTINCT summary_source FROM days WHERE summary_at IS NOT NULL");
    assert_eq!(day_sources, ["personal_api"]);
    // Running Tolerance (migration 10) is one range request per block of the web sync.
    let tolerance = web.api_requests().iter().filter(|(p, _)| p.contains("/runningtolerance/")).count();
    assert_eq!(tolerance, blocks, "one Running Tolerance range per block");
    println!(
        "MEASURE a year, no added latency (debug build): key only {} requests in {:.1} s; web session {} requests in {:.1} s, {tolerance} of them Running Tolerance ranges",
        report.requests,
        took.as_secs_f64(),
        web_report.requests,
        web_took.as_secs_f64()
    );
}

#[tokio::test]
async fn with_both_credentials_the_personal_api_serves_what_it_has_and_the_web_session_the_rest() {
    let rig = key_rig(true).await;
    rig.fake.clear_requests();
    let mut options = SyncOptions::new(today());
    options.since = Some(today() - chrono::Duration::days(40));
    let report = rig.key_sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(
        report.served_by.iter().copied().collect::<Vec<_>>(),
        [Source::PersonalApi, Source::WebSession]
    );
    let all: Vec<(String, String)> =
        rig.fake.requests().into_iter().map(|r| (r.path, r.query.unwrap_or_default())).collect();
    let web = |part: &str| all.iter().any(|(p, _)| p.starts_with("/gc-api") && p.contains(part));
    let key = |part: &str| all.iter().any(|(p, _)| !p.starts_with("/gc-api") && p.contains(part));
    // What the Personal API serves went there, and not to the web session.
    for part in [
        "/activities/search/activities",
        "/v2/dailysummaries",
        "dailySleepSummariesByDate",
        "/hrv-service/hrv/daily/",
        "/weight-service/weight/range/",
        "/download-service/files/activity/",
    ] {
        assert!(key(part), "{part} through the Personal API");
    }
    for part in [
        "/activities/search/activities",
        "/usersummary/daily/",
        "/sleep-service/stats/",
        "/hrv-service/",
        "/weight-service/",
        "/details",
    ] {
        assert!(!web(part), "{part} not through the web session");
    }
    // The rest through the web session: Garmin's own laps and zones, status, types, the profile.
    for part in
        ["/splits", "/hrTimeInZones", "/trainingstatus/aggregated/", "/activityTypes", "heartRateZones"]
    {
        assert!(web(part), "{part} through the web session");
    }
    assert_windows_within_caps(&rig.personal_requests());
    let sources =
        figures(rig.dir.path(), "SELECT DISTINCT summary_source || ' ' || details_source FROM activities");
    assert_eq!(sources, ["personal_api web_session"]);

    // When the Personal API fails (not a refused key), the web session answers.
    rig.fake.push_fault(FaultRule::always(Fault::ServerError(503)).on_path("/v2/dailysummaries"));
    rig.fake.clear_requests();
    let mut again = options.clone();
    again.full = true;
    let report = rig.key_sync(&again).await;
    assert!(report.complete(), "{}", report.summary());
    assert!(
        web("/usersummary/daily/")
            || rig.fake.requests().iter().any(|r| r.path.contains("/usersummary/daily/"))
    );
}

#[tokio::test]
async fn a_key_only_sync_killed_half_way_resumes_without_reading_finished_work_again() {
    let rig = key_rig(false).await;
    rig.fake.push_fault(FaultRule::always(Fault::Latency(Duration::from_millis(3))));
    let (history, transport) = (rig.history(), rig.transport());
    let task = tokio::spawn(async move {
        let _ = sync(&history, &transport, &SyncOptions::new(today()), &|_| {}).await;
    });
    loop {
        tokio::time::sleep(Duration::from_millis(20)).await;
        if rig.personal_requests().len() > 150 {
            break;
        }
    }
    task.abort();
    let _ = task.await;
    rig.fake.clear_faults();
    let finished_days = stored_summary_days(rig.dir.path());
    assert!(!finished_days.is_empty() && rig.history().counts().unwrap().blocks < 14);
    let conn = rusqlite_open(rig.dir.path());
    let mut stmt = conn
        .prepare("SELECT activity_id FROM activities WHERE curves_at IS NOT NULL ORDER BY activity_id")
        .unwrap();
    let finished: Vec<i64> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    drop(stmt);
    assert!(!finished.is_empty(), "the first run read some FIT files");

    rig.fake.clear_requests();
    let report = rig.key_sync(&SyncOptions::new(today())).await;
    assert!(report.complete(), "{}", report.summary());
    let requests = rig.personal_requests();
    let reread: Vec<_> = requests
        .iter()
        .filter(|(p, _)| finished.iter().any(|id| p.ends_with(&format!("/files/activity/{id}"))))
        .collect();
    assert!(reread.is_empty(), "a finished activity's FIT file read again: {reread:?}");
    for (path, query) in requests.iter().filter(|(p, _)| p.contains("/v2/dailysummaries")) {
        let (s, e) = window(path, query).unwrap();
        let again = finished_days.iter().filter(|d| {
            let d = NaiveDate::parse_from_str(d, "%Y-%m-%d").unwrap();
            s <= d && d <= e && d < NaiveDate::from_ymd_opt(2026, 11, 12).unwrap()
        });
        assert_eq!(again.count(), 0, "finished days read again by {path}?{query}");
    }
    let clean = key_rig(false).await;
    clean.key_sync(&SyncOptions::new(today())).await;
    assert_eq!(rig.history().counts().unwrap(), clean.history().counts().unwrap());
}

#[tokio::test]
async fn a_key_only_sync_meeting_a_429_burst_stops_politely_and_the_next_run_finishes_the_rest() {
    let rig = key_rig(false).await;
    // The Personal API refuses bursts (reference §4.1): from one block in the middle of the year on,
    // asking for ten minutes.
    let block = history::sync::block_start(NaiveDate::from_ymd_opt(2026, 5, 20).unwrap());
    rig.fake.push_fault(
        FaultRule::always(Fault::RateLimited { retry_after_secs: Some(600) })
            .on_path(&format!("startDate={block}")),
    );
    let before = chrono::Utc::now();
    let report = rig.key_sync(&SyncOptions::new(today())).await;
    let Some(Stopped::RateLimited { resume_after }) = report.stopped.clone() else {
        panic!("expected a polite stop: {}", report.summary())
    };
    assert!(resume_after >= before + chrono::Duration::seconds(590), "{resume_after}");
    assert!(report.blocks_synced >= 5, "{}", report.summary());
    let hits =
        rig.personal_requests().iter().filter(|(_, q)| q.contains(&format!("startDate={block}"))).count();
    assert!(hits <= 3, "a bounded number of retries: {hits}");
    let finished = stored_summary_days(rig.dir.path());
    let conn = rusqlite_open(rig.dir.path());
    let mut stmt = conn
        .prepare("SELECT activity_id FROM activities WHERE curves_at IS NOT NULL ORDER BY activity_id")
        .unwrap();
    let done: Vec<i64> = stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect();
    drop(stmt);

    rig.fake.clear_faults();
    rig.fake.clear_requests();
    let resumed = rig.key_sync(&SyncOptions::new(today())).await;
    assert!(resumed.complete(), "{}", resumed.summary());
    let requests = rig.personal_requests();
    assert!(
        !requests.iter().any(|(p, _)| done.iter().any(|id| p.ends_with(&format!("/files/activity/{id}")))),
        "no finished FIT file is read again"
    );
    for (path, query) in requests.iter().filter(|(p, _)| p.contains("/v2/dailysummaries")) {
        let (s, e) = window(path, query).unwrap();
        assert!(
            !finished.iter().any(|d| {
                let d = NaiveDate::parse_from_str(d, "%Y-%m-%d").unwrap();
                s <= d && d <= e && d < NaiveDate::from_ymd_opt(2026, 11, 12).unwrap()
            }),
            "finished days read again by {path}?{query}"
        );
    }
}

// ---- An account whose devices record no sleep, HRV or weight (issue #25) ----

/// A fake Garmin playing an account with only a bike computer (no sleep, HRV or weigh-ins: Garmin
/// answers their ranges 404 and 204) and a data folder signed in to it.
async fn bike_computer_rig() -> Rig {
    let config = FakeConfig { today: today(), untracked: Untracked::BIKE_COMPUTER, ..FakeConfig::default() };
    let fake = FakeGarmin::start(config).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    save_session(&fake, dir.path());
    Rig { fake, dir }
}

#[tokio::test]
async fn a_sync_of_an_account_without_sleep_hrv_or_weight_finishes_says_so_once_and_reads_no_block_twice() {
    let rig = bike_computer_rig().await;
    let report = rig.sync(&SyncOptions::new(today())).await;
    assert!(report.complete(), "{}", report.summary());
    assert_eq!(report.blocks_synced, report.blocks, "every block is finished");
    // One plain note, no failure.
    assert_eq!(report.problems.len(), 1, "{:?}", report.problems);
    assert_eq!(report.problems[0].kind, ProblemKind::Note);
    let note = report.problems[0].text.clone();
    assert!(note.starts_with("Garmin keeps no sleep, HRV or weight records for this account"), "{note}");
    let summary = report.summary();
    assert_eq!(summary.matches("Garmin keeps no").count(), 1, "said once: {summary}");
    assert!(!summary.contains("could not be read") && !summary.contains("check the id or date"), "{summary}");
    // The rest of the history is there, and the days are kept as read with no sleep, HRV or weight.
    let counts = rig.history().counts().unwrap();
    assert!(counts.activities > 100 && counts.days > 300, "{counts:?}");
    let kept = figures(
        rig.dir.path(),
        "SELECT count(*), count(sleep_json), count(hrv_json), count(weight_json), count(ranges_at) FROM days \
         WHERE summary_at IS NOT NULL",
    );
    let cells: Vec<&str> = kept[0].split(' ').collect();
    assert_eq!(&cells[1..4], ["0", "0", "0"], "{kept:?}");
    assert_eq!(cells[0], cells[4], "every day's ranges are marked read: {kept:?}");

    // The next sync reads only the recent blocks Garmin may still revise, as for any account.
    rig.fake.clear_requests();
    let again = rig.sync(&SyncOptions::new(today())).await;
    assert!(again.complete(), "{}", again.summary());
    assert!(again.blocks_skipped >= again.blocks - 2, "{}", again.summary());
    let sleep_ranges =
        rig.api_requests().iter().filter(|(p, _)| p.contains("/sleep-service/stats/sleep/daily/")).count();
    assert!(sleep_ranges <= 2, "{sleep_ranges} sleep ranges asked again");
    assert!(again.requests < 40, "{}", again.summary());
}

#[tokio::test]
async fn the_same_account_through_the_personal_api_finishes_and_says_so_too() {
    let config = FakeConfig { today: today(), untracked: Untracked::BIKE_COMPUTER, ..FakeConfig::default() };
    let fake = FakeGarmin::start(config).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    save_key(&fake, dir.path());
    let rig = Rig { fake, dir };
    let mut options = SyncOptions::new(today());
    options.since = Some(today() - chrono::Duration::days(60));
    let report = rig.key_sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
    let notes: Vec<&str> = report.problems.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(notes.len(), 2, "the key-only note and the one on what the account lacks: {notes:?}");
    assert!(notes[0].starts_with("Only a Personal API key is saved"), "{notes:?}");
    assert!(notes[1].starts_with("Garmin keeps no sleep, HRV or weight records"), "{notes:?}");
    assert!(report.problems.iter().all(|p| p.kind == ProblemKind::Note));
}

/// `(activity, ACTIVE rows, REST rows, Σ kg of the active rows)` the history keeps, by activity.
fn stored_sets(dir: &std::path::Path) -> Vec<(i64, i64, i64, f64)> {
    let conn = rusqlite_open(dir);
    let mut stmt = conn
        .prepare(
            "SELECT activity_id, SUM(set_type = 'ACTIVE'), SUM(set_type = 'REST'), COALESCE(SUM(weight_kg), 0)
             FROM activity_sets GROUP BY activity_id ORDER BY activity_id",
        )
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// Strength activities whose sets were read (`sets_at` set).
fn sets_read_ids(dir: &std::path::Path) -> Vec<i64> {
    let conn = rusqlite_open(dir);
    let mut stmt = conn
        .prepare("SELECT activity_id FROM activities WHERE sets_at IS NOT NULL ORDER BY activity_id")
        .unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
}

/// Activities whose sets were requested, from a request log, each once (a request the stopped run
/// had in flight when it returned may reach the log after it was cleared).
fn sets_requested(requests: &[(String, String)]) -> Vec<i64> {
    let mut ids: Vec<i64> = requests
        .iter()
        .filter_map(|(p, _)| p.strip_suffix("/exerciseSets")?.rsplit('/').next()?.parse().ok())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

#[tokio::test]
async fn strength_sets_are_kept_once_per_activity_through_a_429_a_resumed_sync_and_a_full_one_and_recent_ones_read_again()
 {
    use fake_garmin::data::activity::Sport;
    let rig = Rig::start().await;
    let since = NaiveDate::from_ymd_opt(2026, 9, 1).unwrap();
    // The fake's strength sessions of the range, as its `exerciseSets` serves them.
    let expected: Vec<(i64, i64, i64, f64)> = {
        let d = rig.fake.state().inner.data.read().unwrap();
        let mut out: Vec<(i64, i64, i64, f64)> = d
            .live()
            .filter(|a| a.sport() == Sport::Strength && (since..=today()).contains(&a.start_local.date()))
            .map(|a| {
                let active = a.sets.iter().filter(|s| s.set_type == "ACTIVE");
                let kg: f64 = active.clone().map(|s| s.weight_g / 1000.0).sum();
                let rests = a.sets.iter().filter(|s| s.set_type == "REST").count();
                (a.id as i64, active.count() as i64, rests as i64, kg)
            })
            .collect();
        out.sort_by_key(|e| e.0);
        out
    };
    assert!(expected.len() >= 20, "two strength sessions a week: {}", expected.len());
    let ids: Vec<i64> = expected.iter().map(|e| e.0).collect();
    // Sessions read no more than REVISE_DAYS after their day are read again by every sync (people
    // correct the watch's guesses in the first days).
    let recent: Vec<i64> = {
        let d = rig.fake.state().inner.data.read().unwrap();
        let revise = chrono::Duration::days(history::sync::REVISE_DAYS);
        d.live()
            .filter(|a| a.sport() == Sport::Strength && a.start_local.date() + revise >= today())
            .map(|a| a.id as i64)
            .collect()
    };
    assert!(!recent.is_empty() && recent.len() < ids.len(), "{recent:?}");

    // Garmin rate-limits the sets of one session in the middle: the sync stops there politely.
    let middle = ids[ids.len() / 2];
    rig.fake.push_fault(
        FaultRule::always(Fault::RateLimited { retry_after_secs: Some(600) })
            .on_path(&format!("/activity/{middle}/exerciseSets")),
    );
    let mut options = SyncOptions::new(today());
    options.since = Some(since);
    let stopped = rig.sync(&options).await;
    assert!(matches!(stopped.stopped, Some(Stopped::RateLimited { .. })), "{}", stopped.summary());
    let kept = sets_read_ids(rig.dir.path());
    assert!(!kept.is_empty() && !kept.contains(&middle), "{kept:?}");
    assert_eq!(stored_sets(rig.dir.path()).len(), kept.len(), "sets only with their mark");

    // The next run reads the sets of the sessions not finished, and only those, once each (its own
    // count says how many it read).
    rig.fake.clear_faults();
    rig.fake.clear_requests();
    let resumed = rig.sync(&options).await;
    assert!(resumed.complete(), "{}", resumed.summary());
    let rest: Vec<i64> = ids.iter().copied().filter(|id| !kept.contains(id) || recent.contains(id)).collect();
    assert_eq!(sets_requested(&rig.api_requests()), rest);
    assert_eq!(resumed.strength_sets_read as usize, rest.len());
    // A settled session is not read again; a recent one is.
    rig.fake.clear_requests();
    let again = rig.sync(&options).await;
    let mut recent_sorted = recent.clone();
    recent_sorted.sort_unstable();
    assert_eq!(sets_requested(&rig.api_requests()), recent_sorted, "{}", again.summary());
    let stored = stored_sets(rig.dir.path());
    let close = |a: &[(i64, i64, i64, f64)], b: &[(i64, i64, i64, f64)]| {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| (x.0, x.1, x.2) == (y.0, y.1, y.2) && (x.3 - y.3).abs() < 1e-6)
    };
    assert!(close(&stored, &expected), "stored {stored:?}\nexpected {expected:?}");

    // A full sync reads every session's sets again and replaces them: no second row.
    rig.fake.clear_requests();
    options.full = true;
    let full = rig.sync(&options).await;
    assert_eq!(full.strength_sets_read as usize, ids.len(), "{}", full.summary());
    assert!(close(&stored_sets(rig.dir.path()), &expected));
    // And the reader gives the analysis every active set with its day, oldest first.
    let sets = rig.history().strength_sets(since, today()).unwrap();
    assert_eq!(sets.len() as i64, expected.iter().map(|e| e.1).sum::<i64>());
    assert!(sets.windows(2).all(|w| w[0].date <= w[1].date));
    assert!(
        sets.iter().any(|s| s.exercise_name.as_deref() == Some("BARBELL_BACK_SQUAT") && s.reps.is_some())
    );
}

#[tokio::test]
async fn a_session_corrected_from_this_computer_is_read_again_by_the_next_sync_whatever_its_age() {
    use fake_garmin::data::activity::Sport;
    use garmin::apply::{FollowUps, MadeBy, apply_and_journal};
    use garmin::changes::Change;
    use garmin::journal::{ConfirmedBy, Journal};
    let rig = Rig::start().await;
    let mut options = SyncOptions::new(today());
    options.since = Some(NaiveDate::from_ymd_opt(2026, 9, 1).unwrap());
    assert!(rig.sync(&options).await.complete());
    // A session long settled: later syncs no longer read its sets on their own.
    let old = {
        let d = rig.fake.state().inner.data.read().unwrap();
        let settled = today() - chrono::Duration::days(history::sync::REVISE_DAYS + 7);
        d.live()
            .filter(|a| a.sport() == Sport::Strength && a.start_local.date() <= settled)
            .map(|a| a.id)
            .max()
            .expect("an old strength session")
    };
    rig.fake.clear_requests();
    rig.sync(&options).await;
    assert!(
        !sets_requested(&rig.api_requests()).contains(&(old as i64)),
        "a settled session is not read again"
    );

    // The person corrects its first set to a barbell row, from this computer (journaled).
    let client = rig.client();
    let read = client.activities().exercise_sets(old).await.unwrap().expect("the session's sets");
    let mut sets = garmin::strength_edit::saved_sets(&read);
    let first = sets.iter().position(|s| s.set_type == "ACTIVE").unwrap();
    sets[first].exercises[0].category = "ROW".into();
    sets[first].exercises[0].name = Some("BARBELL_ROW".into());
    let change = Change::CorrectStrengthSets { activity_id: old, sets };
    let journal = Journal::in_dir(rig.dir.path());
    let made_by = MadeBy::Assistant(ConfirmedBy::App);
    apply_and_journal(&client, &journal, made_by, &change, None, &FollowUps::default()).await.unwrap();

    // The next sync reads that session again and keeps the corrected exercise; the one after does not.
    rig.fake.clear_requests();
    rig.sync(&options).await;
    assert!(
        sets_requested(&rig.api_requests()).contains(&(old as i64)),
        "the corrected session was not read again"
    );
    let first_exercise: String = rusqlite_open(rig.dir.path())
        .query_row(
            "SELECT exercise_name FROM activity_sets WHERE activity_id = ?1 AND set_type = 'ACTIVE'
             ORDER BY set_index LIMIT 1",
            [old as i64],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(first_exercise, "BARBELL_ROW");
    rig.fake.clear_requests();
    rig.sync(&options).await;
    assert!(!sets_requested(&rig.api_requests()).contains(&(old as i64)), "read again with nothing new");
}

// ---------------------------------------------------------------------------------------------
// The daily series of Garmin's newest metrics (#29 item 4, migration 6).

#[tokio::test]
async fn the_newest_metrics_daily_series_is_kept_as_garmin_gives_it_even_in_an_upgraded_version_1_file() {
    let rig = Rig::start().await;
    // A file as the first build made it: migration 6 adds the series' table in place.
    history::create_v1_for_tests(rig.dir.path()).unwrap();
    let since = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    let mut options = SyncOptions::new(today());
    options.since = Some(since);
    let report = rig.sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    let first = history::sync::block_start(since);
    // Running Tolerance is one range request per block, never one per day.
    let blocks = first.iter_days().take_while(|d| *d <= today()).step_by(28).count();
    let tolerance = rig.api_requests().into_iter().filter(|(p, _)| p.contains("/runningtolerance/")).count();
    assert_eq!(tolerance, blocks, "one Running Tolerance range per block");
    let kept = rig.history().daily_metrics(first, today()).unwrap();
    let g = rig.client();
    let hills = g.metrics().hill_score_range(first, today()).await.unwrap();
    let scores = g.metrics().endurance_score_range(first, today()).await.unwrap().averages();
    let nights = g.metrics().health_status_range(first, today()).await.unwrap();
    assert!(hills.hill_scores.len() > 28 && scores.len() > 28 && nights.len() > 28);
    for h in &hills.hill_scores {
        let day = kept.iter().find(|k| Some(k.date) == h.calendar_date).expect("each hill day is kept");
        assert_eq!(day.hill_score, h.overall_score);
        assert_eq!(day.hill_class, h.hill_score_classification_id);
    }
    for (date, score) in &scores {
        let day = kept.iter().find(|k| k.date == *date).expect("each endurance day is kept");
        assert_eq!(day.endurance_score, Some(*score));
    }
    for night in &nights {
        let day = kept.iter().find(|k| Some(k.date) == night.calendar_date).expect("each night is kept");
        assert_eq!(day.health_status.as_ref(), Some(night));
    }
    // The load focus of every day (migration 7), as each day's training-status snapshot gives it,
    // and its morning readiness (migration 8).
    assert_daily_load_focus_is_garmins(&rig, first, today()).await;
    assert_daily_readiness_is_garmins(&rig, first, today()).await;
    // Migration 10: each day's acclimation, Running Tolerance and sleep need, as Garmin gives them.
    assert_daily_acclimation_is_garmins(&rig, first, today()).await;
    assert_daily_tolerance_is_garmins(&rig, first, today()).await;
    assert_sleep_need_is_garmins(&rig, first, today()).await;
}

/// Each day of `first..=last` keeps the heat and altitude acclimation of that day's training-status
/// snapshot (read through a client of the same fake, not the sync).
async fn assert_daily_acclimation_is_garmins(rig: &Rig, first: NaiveDate, last: NaiveDate) {
    let kept = rig.history().daily_metrics(first, last).unwrap();
    let g = rig.client();
    let mut heat = std::collections::BTreeSet::new();
    for day in first.iter_days().take_while(|d| *d <= last) {
        let row = kept.iter().find(|k| k.date == day).unwrap_or_else(|| panic!("no row for {day}"));
        assert!(row.acclimation_read, "{day}: read");
        let status = g.metrics().training_status(day).await.unwrap().unwrap();
        let a = status.most_recent_vo2_max.unwrap().heat_altitude_acclimation.unwrap();
        assert_eq!(row.heat_acclimation_pct, a.heat_acclimation_percentage, "{day}");
        assert_eq!(row.heat_trend, a.heat_trend, "{day}");
        assert_eq!(row.altitude_acclimation_m, a.altitude_acclimation, "{day}");
        assert_eq!(row.current_altitude_m, a.current_altitude, "{day}");
        assert_eq!(row.altitude_trend, a.altitude_trend, "{day}");
        heat.insert(row.heat_acclimation_pct.map(|h| h as i64));
    }
    assert!(heat.len() > 2, "the fake's heat acclimation moves over the span: {heat:?}");
}

/// Each day of `first..=last` keeps Garmin's Running Tolerance row of that day (one range request
/// through a client of the same fake).
async fn assert_daily_tolerance_is_garmins(rig: &Rig, first: NaiveDate, last: NaiveDate) {
    let kept = rig.history().daily_metrics(first, last).unwrap();
    let rows = rig.client().metrics().running_tolerance(first, last).await.unwrap();
    assert_eq!(rows.len() as i64, (last - first).num_days() + 1, "the fake has a row every day");
    for r in &rows {
        let day = kept.iter().find(|k| Some(k.date) == r.calendar_date).expect("each day is kept");
        assert!(day.tolerance_read, "{}", day.date);
        assert_eq!(day.running_tolerance, r.running_tolerance, "{}", day.date);
        assert_eq!(day.acute_impact_load, r.acute_running_load, "{}", day.date);
        assert_eq!(day.weekly_impact_load, r.weekly_running_load, "{}", day.date);
        assert_eq!(day.tolerance_feedback, r.tolerance_feedback, "{}", day.date);
        assert_eq!(day.tolerance_row().as_ref().map(|t| t.running_tolerance), Some(r.running_tolerance));
    }
}

/// Each night of `first..=last` keeps the sleep need of Garmin's sleep stats (28-day requests
/// through a client of the same fake).
async fn assert_sleep_need_is_garmins(rig: &Rig, first: NaiveDate, last: NaiveDate) {
    let kept = rig.history().sleep_needs(first, last).unwrap();
    let g = rig.client();
    let mut garmin = Vec::new();
    let mut from = first;
    while from <= last {
        let to = (from + chrono::Duration::days(27)).min(last);
        for night in g.wellness().sleep_stats(from, to).await.unwrap() {
            let need = night.values.and_then(|v| v.sleep_need);
            garmin.extend(night.calendar_date.zip(need));
        }
        from = to + chrono::Duration::days(1);
    }
    assert_eq!(kept, garmin);
    let needs: std::collections::BTreeSet<i64> = kept.iter().map(|(_, m)| *m as i64).collect();
    assert!(needs.len() > 1, "the fake's need moves with training and HRV: {needs:?}");
}

/// Each day of `first..=last` keeps the score and acute load of Garmin's morning Training Readiness
/// of that day (read through a client of the same fake, not the sync).
async fn assert_daily_readiness_is_garmins(rig: &Rig, first: NaiveDate, last: NaiveDate) {
    use garmin::models::metrics::TrainingReadiness;
    let kept = rig.history().daily_metrics(first, last).unwrap();
    let g = rig.client();
    let mut scored = 0;
    for day in first.iter_days().take_while(|d| *d <= last) {
        let row = kept.iter().find(|k| k.date == day).unwrap_or_else(|| panic!("no row for {day}"));
        assert!(row.readiness_read, "{day}: read");
        let entries = g.metrics().training_readiness(day).await.unwrap();
        let morning = TrainingReadiness::morning(&entries);
        assert_eq!(row.readiness_score, morning.and_then(|m| m.score), "{day}");
        assert_eq!(row.readiness_acute_load, morning.and_then(|m| m.acute_load), "{day}");
        scored += usize::from(row.readiness_score.is_some());
    }
    assert!(scored > 0, "the fake gives readiness");
}

/// The days whose Training Readiness a sync asked for.
fn readiness_days_requested(rig: &Rig) -> Vec<String> {
    let mut days: Vec<String> = rig
        .api_requests()
        .into_iter()
        .filter_map(|(p, _)| p.split("/trainingreadiness/").nth(1).map(str::to_owned))
        .collect();
    days.sort();
    days
}

#[tokio::test]
async fn a_version_7_file_gets_the_daily_readiness_of_the_days_it_reads_and_their_snapshots_once_for_the_acclimation()
 {
    let rig = Rig::start().await;
    let since = today() - chrono::Duration::days(40);
    let first = history::sync::block_start(since);
    let mut options = SyncOptions::new(today());
    options.since = Some(since);
    assert!(rig.sync(&options).await.complete());
    // As a version-7 build left it: the load focus read, no readiness column.
    {
        let conn = rusqlite_open(rig.dir.path());
        conn.execute_batch(
            "ALTER TABLE daily_metrics DROP COLUMN readiness_score;
             ALTER TABLE daily_metrics DROP COLUMN readiness_acute_load;
             ALTER TABLE daily_metrics DROP COLUMN readiness_on;
             ALTER TABLE activity_laps DROP COLUMN wkt_step_index;
             ALTER TABLE activities DROP COLUMN lap_steps_kept;
             PRAGMA user_version = 7;",
        )
        .unwrap();
        drop_version_10_columns(&conn);
        conn.execute_batch("PRAGMA user_version = 7;").unwrap();
    }
    let history = rig.history();
    let version: i64 =
        rusqlite_open(rig.dir.path()).query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, 10, "opened: upgraded");
    let kept = history.daily_metrics(first, today()).unwrap();
    assert!(kept.iter().all(|d| !d.readiness_read && d.readiness_score.is_none()), "not read yet, not 0");
    assert!(kept.iter().any(|d| d.load_focus_feedback.is_some()), "the load focus stays");

    // The next sync reads the readiness of every day of the blocks it reads (the settled blocks
    // wait for a --full sync, as with migration 7), each once, and, for their acclimation
    // (migration 10), the snapshots of the same days once.
    rig.fake.clear_requests();
    let report = rig.sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
    let asked = readiness_days_requested(&rig);
    let mut once = asked.clone();
    once.dedup();
    assert_eq!(once, asked, "each day's readiness once");
    let current = history::sync::block_start(today());
    assert!(
        current.iter_days().take_while(|d| *d <= today()).all(|d| asked.contains(&d.to_string())),
        "every day of the block being read: {asked:?}"
    );
    let revise = history::sync::REVISE_DAYS;
    let recent: Vec<String> = (today() - chrono::Duration::days(revise))
        .iter_days()
        .take_while(|d| *d <= today())
        .map(|d| d.to_string())
        .collect();
    assert_eq!(status_days_requested(&rig), asked, "the snapshots of the days read, once each");
    for day in history.daily_metrics(first, today()).unwrap() {
        assert_eq!(day.readiness_read, asked.contains(&day.date.to_string()), "{}", day.date);
    }
    assert_daily_readiness_is_garmins(&rig, current, today()).await;
    assert_daily_load_focus_is_garmins(&rig, first, today()).await;

    // And then only the days Garmin may still revise.
    rig.fake.clear_requests();
    assert!(rig.sync(&options).await.complete());
    assert_eq!(readiness_days_requested(&rig), recent);
}

/// Each day of `first..=last` has its row with Garmin's load focus of that day (read through a
/// client of the same fake, not the sync).
async fn assert_daily_load_focus_is_garmins(rig: &Rig, first: NaiveDate, last: NaiveDate) {
    let kept = rig.history().daily_metrics(first, last).unwrap();
    let g = rig.client();
    let mut feedbacks = std::collections::BTreeSet::new();
    for day in first.iter_days().take_while(|d| *d <= last) {
        let row = kept.iter().find(|k| k.date == day).unwrap_or_else(|| panic!("no row for {day}"));
        let status = g.metrics().training_status(day).await.unwrap().unwrap();
        let b = status.primary_load_balance().unwrap();
        assert_eq!(row.load_aerobic_low, b.monthly_load_aerobic_low, "{day}");
        assert_eq!(row.load_aerobic_high, b.monthly_load_aerobic_high, "{day}");
        assert_eq!(row.load_anaerobic, b.monthly_load_anaerobic, "{day}");
        assert_eq!(row.load_focus_feedback, b.training_balance_feedback_phrase, "{day}");
        feedbacks.extend(row.load_focus_feedback.clone());
    }
    assert!(!feedbacks.is_empty(), "the fake gives a load focus");
}

/// Drops what migration 10 added, as a file made before it has none of it.
fn drop_version_10_columns(conn: &rusqlite::Connection) {
    for column in [
        "heat_acclimation_pct",
        "heat_trend",
        "altitude_acclimation_m",
        "current_altitude_m",
        "altitude_trend",
        "acclimation_on",
        "running_tolerance",
        "acute_impact_load",
        "weekly_impact_load",
        "tolerance_feedback",
        "tolerance_on",
    ] {
        conn.execute_batch(&format!("ALTER TABLE daily_metrics DROP COLUMN {column};")).unwrap();
    }
    conn.execute_batch("ALTER TABLE days DROP COLUMN sleep_need_min;").unwrap();
}

#[tokio::test]
async fn a_version_9_file_migrates_takes_its_sleep_need_from_the_kept_nights_and_reads_acclimation_and_tolerance_next_sync()
 {
    let rig = Rig::start().await;
    let since = today() - chrono::Duration::days(40);
    let first = history::sync::block_start(since);
    let mut options = SyncOptions::new(today());
    options.since = Some(since);
    assert!(rig.sync(&options).await.complete());
    // As a version-9 build left it: no acclimation, tolerance or sleep-need column.
    {
        let conn = rusqlite_open(rig.dir.path());
        drop_version_10_columns(&conn);
        conn.execute_batch("PRAGMA user_version = 9;").unwrap();
    }
    rig.fake.clear_requests();
    let history = rig.history();
    let version: i64 =
        rusqlite_open(rig.dir.path()).query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, 10, "opened: upgraded");
    let kept = history.daily_metrics(first, today()).unwrap();
    assert!(
        kept.iter().all(|d| !d.acclimation_read
            && d.heat_acclimation_pct.is_none()
            && !d.tolerance_read
            && d.running_tolerance.is_none()),
        "not read yet, not 0"
    );
    assert!(kept.iter().all(|d| d.readiness_read), "what was kept stays");
    // The sleep need of the nights already kept comes from their kept JSON, without asking Garmin.
    assert!(rig.api_requests().is_empty(), "{:?}", rig.api_requests());
    assert_sleep_need_is_garmins(&rig, first, today()).await;

    // The next sync reads the acclimation (each day's snapshot once) and the Running Tolerance (one
    // range) of the blocks it reads; the settled blocks wait for a --full sync.
    rig.fake.clear_requests();
    let report = rig.sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
    let current = history::sync::block_start(today());
    let days: Vec<String> =
        current.iter_days().take_while(|d| *d <= today()).map(|d| d.to_string()).collect();
    assert_eq!(status_days_requested(&rig), days, "each day of the block read, once");
    let tolerance: Vec<(String, String)> =
        rig.api_requests().into_iter().filter(|(p, _)| p.contains("/runningtolerance/")).collect();
    assert_eq!(tolerance.len(), 1, "{tolerance:?}");
    assert!(tolerance[0].1.contains(&format!("startDate={current}")), "{tolerance:?}");
    for day in history.daily_metrics(first, today()).unwrap() {
        let read = day.date >= current;
        assert_eq!((day.acclimation_read, day.tolerance_read), (read, read), "{}", day.date);
    }
    assert_daily_acclimation_is_garmins(&rig, current, today()).await;
    assert_daily_tolerance_is_garmins(&rig, current, today()).await;

    // A --full sync reads the rest.
    options.full = true;
    assert!(rig.sync(&options).await.complete());
    assert_daily_acclimation_is_garmins(&rig, first, today()).await;
    assert_daily_tolerance_is_garmins(&rig, first, today()).await;
}

/// The days whose training-status snapshot a sync asked for.
fn status_days_requested(rig: &Rig) -> Vec<String> {
    let mut days: Vec<String> = rig
        .api_requests()
        .into_iter()
        .filter_map(|(p, _)| p.split("/trainingstatus/aggregated/").nth(1).map(str::to_owned))
        .collect();
    days.sort();
    days
}

#[tokio::test]
async fn the_load_focus_is_kept_daily_and_a_version_6_file_upgrades_keeping_its_block_values_until_read_again()
 {
    let rig = Rig::start().await;
    // A file as migration 6 left it: the load focus on a block's last day only.
    history::create_version_for_tests(rig.dir.path(), 6).unwrap();
    let since = today() - chrono::Duration::days(20);
    let first = history::sync::block_start(since);
    let old_day = first - chrono::Duration::days(1);
    {
        let conn = rusqlite_open(rig.dir.path());
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        assert_eq!(version, 6);
        conn.execute(
            "INSERT INTO daily_metrics (date, load_aerobic_low, load_aerobic_high, load_anaerobic, load_focus_feedback, synced_at)
             VALUES (?1, 410.5, 220.25, 61.0, 'ANAEROBIC_SHORTAGE', 1)",
            [old_day.to_string()],
        )
        .unwrap();
    }
    // Opening upgrades it in place; the block value is kept, not yet marked as read.
    let history = rig.history();
    let version: i64 =
        rusqlite_open(rig.dir.path()).query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(
        version, 10,
        "opened: upgraded past the daily load focus (7) to the daily readiness (8) and the laps' workout steps (9)"
    );
    let kept = history.daily_metrics(old_day, old_day).unwrap();
    assert_eq!(kept[0].load_anaerobic, Some(61.0));
    assert_eq!(kept[0].load_focus_feedback.as_deref(), Some("ANAEROBIC_SHORTAGE"));
    let read_on: Option<String> = rusqlite_open(rig.dir.path())
        .query_row("SELECT load_focus_on FROM daily_metrics WHERE date = ?1", [old_day.to_string()], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(read_on, None);

    // The sync reads each day of its blocks once, and keeps each day's own load focus.
    let mut options = SyncOptions::new(today());
    options.since = Some(since);
    rig.fake.clear_requests();
    let report = rig.sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
    let asked = status_days_requested(&rig);
    let expected: Vec<String> =
        first.iter_days().take_while(|d| *d <= today()).map(|d| d.to_string()).collect();
    assert_eq!(asked, expected, "each day of the synced blocks once");
    assert_daily_load_focus_is_garmins(&rig, first, today()).await;
    assert_eq!(
        history.daily_metrics(old_day, old_day).unwrap()[0].load_anaerobic,
        Some(61.0),
        "outside: kept"
    );

    // The next sync asks only for the days Garmin may still revise (read no more than 3 days after).
    rig.fake.clear_requests();
    let report = rig.sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
    let revise = history::sync::REVISE_DAYS;
    let expected: Vec<String> = (today() - chrono::Duration::days(revise))
        .iter_days()
        .take_while(|d| *d <= today())
        .map(|d| d.to_string())
        .collect();
    assert_eq!(status_days_requested(&rig), expected, "settled days are not read again");
}

#[tokio::test]
async fn an_older_watch_syncs_completely_and_keeps_no_newest_metric_never_zeros() {
    let fake = FakeGarmin::start(FakeConfig::older_watch_account(today())).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    save_session(&fake, dir.path());
    let rig = Rig { fake, dir };
    let mut options = SyncOptions::new(today());
    options.since = Some(today() - chrono::Duration::days(30));
    let report = rig.sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
    assert!(report.problems.is_empty(), "404s are answers, not problems: {:?}", report.problems);
    let kept = rig.history().daily_metrics(today() - chrono::Duration::days(60), today()).unwrap();
    assert!(
        kept.iter()
            .all(|k| k.hill_score.is_none() && k.endurance_score.is_none() && k.health_status.is_none()),
        "{kept:?}"
    );
    // Acclimation and Running Tolerance: read (so the tools do not ask again), none kept, never 0.
    let read =
        rig.history().daily_metrics(first_synced(&options), today() - chrono::Duration::days(1)).unwrap();
    assert!(!read.is_empty());
    assert!(
        read.iter().all(|k| k.acclimation_read
            && k.tolerance_read
            && k.heat_acclimation_pct.is_none()
            && k.altitude_acclimation_m.is_none()
            && k.running_tolerance.is_none()
            && k.acute_impact_load.is_none()),
        "{read:?}"
    );
}

/// The first day a sync from `options.since` keeps (its block's start).
fn first_synced(options: &SyncOptions) -> NaiveDate {
    history::sync::block_start(options.since.unwrap())
}

#[tokio::test]
async fn a_version_7_files_laps_have_unknown_steps_until_a_full_sync_keeps_garmins_step_indexes() {
    let rig = Rig::start().await;
    let since = today() - chrono::Duration::days(20);
    // The fake's latest run that followed a workout, and the step each of its laps was run under.
    let (id, date, laps): (u64, NaiveDate, Vec<Option<i64>>) = {
        let d = rig.fake.state().inner.data.read().unwrap();
        let a = d.live().rev().find(|a| a.workout_id.is_some() && a.start_local.date() >= since).unwrap();
        (a.id, a.start_local.date(), a.laps.iter().map(|l| l.step_index.map(|i| i as i64)).collect())
    };
    assert!(laps.contains(&Some(0)) && laps.contains(&Some(1)), "{laps:?}");
    // A file as a version-7 build left it: the activity with its laps read, no step index kept.
    history::create_version_for_tests(rig.dir.path(), 7).unwrap();
    {
        let conn = rusqlite_open(rig.dir.path());
        conn.execute(
            "INSERT INTO activities (activity_id, local_date, summary_json, details_at, synced_at)
             VALUES (?1, ?2, '{}', 1, 1)",
            rusqlite::params![id as i64, date.to_string()],
        )
        .unwrap();
        for n in 0..laps.len() {
            conn.execute(
                "INSERT INTO activity_laps (activity_id, lap_index, duration_s) VALUES (?1, ?2, 60.0)",
                rusqlite::params![id as i64, n as i64 + 1],
            )
            .unwrap();
        }
    }
    let history = rig.history();
    let version: i64 =
        rusqlite_open(rig.dir.path()).query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
    assert_eq!(version, 10, "opened: upgraded");
    assert_eq!(
        history.laps_with_steps(id).unwrap(),
        None,
        "kept before the migration: unknown, not 'no step'"
    );

    // A sync reads no laps it already has, so they stay unknown.
    let mut options = SyncOptions::new(today());
    options.since = Some(since);
    let report = rig.sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
    assert_eq!(history.laps_with_steps(id).unwrap(), None);

    // A full sync reads them again and keeps Garmin's step index of each lap.
    options.full = true;
    let report = rig.sync(&options).await;
    assert!(report.complete(), "{}", report.summary());
    let kept = history.laps_with_steps(id).unwrap().expect("kept with their steps");
    assert_eq!(kept.iter().map(|l| l.step_index).collect::<Vec<_>>(), laps);
    assert_eq!(
        kept.iter().map(|l| l.lap_index).collect::<Vec<_>>(),
        (1..=laps.len() as i64).collect::<Vec<_>>()
    );

    // An activity that followed no workout is kept with its laps under no step.
    let free = {
        let d = rig.fake.state().inner.data.read().unwrap();
        d.live()
            .rev()
            .find(|a| a.workout_id.is_none() && a.start_local.date() >= since && a.laps.len() > 1)
            .unwrap()
            .id
    };
    let kept = history.laps_with_steps(free).unwrap().expect("kept");
    assert!(!kept.is_empty() && kept.iter().all(|l| l.step_index.is_none()), "{kept:?}");
}
