//! The athlete's training at a glance, from the local history alone (the desktop app's Training
//! view, issue #30 item 3): the fitness chart's days (CTL, ATL and TSB of the analytics crate's PMC)
//! and the most recent activities. Nothing here asks Garmin: an empty history gives an empty
//! overview, and the app says to sync.
//!
//! The load is counted as the MCP server's `get_fitness_trend` counts it by default (`auto`, through
//! [`crate::load`]): power TSS, else hrTSS, against the athlete's heart-rate profile and FTP as the
//! last sync kept them, and Garmin's own training load only when no session has either. So the app
//! and the AI client show the same fitness for the same history. The PMC runs over every day the
//! history holds, so CTL has settled by the days shown.

use analytics::load::{LoadChoice, LoadScale, daily_loads};
use analytics::pmc::{PmcConstants, PmcDay, performance_management_until};
use chrono::{Duration, NaiveDate};
use rusqlite::params;

use crate::load::{LoadProfile, session_loads};
use crate::store::parse_ymd;
use crate::{History, HistoryError, Result};

/// The fitness chart's days, as columns.
#[derive(Clone, Debug, PartialEq)]
pub struct FitnessSeries {
    /// One date per day, oldest first, without gaps; the last is the `today` asked.
    pub dates: Vec<NaiveDate>,
    /// Chronic training load ("fitness") per day.
    pub ctl: Vec<f64>,
    /// Acute training load ("fatigue") per day.
    pub atl: Vec<f64>,
    /// Training stress balance ("form") per day.
    pub tsb: Vec<f64>,
    /// The PMC's convention in one sentence (time constants, TSB day).
    pub convention: String,
    /// What load was counted, in one sentence.
    pub load_convention: String,
    /// The scale of CTL, ATL and TSB: `tss` (100 = one hour at threshold) or `garmin` (Garmin's
    /// training load, not comparable with TSS), as `get_fitness_trend` names it.
    pub load_scale: String,
    /// Why a load could not be counted (no heart-rate profile, no FTP, none kept yet), one
    /// sentence each.
    pub notes: Vec<String>,
    /// Some day shown is within the first 42 days of the history: its numbers are rough.
    pub settling: bool,
}

/// One recent activity, as the Training view lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct RecentActivity {
    /// Garmin's id.
    pub activity_id: u64,
    /// Local date of the start.
    pub date: NaiveDate,
    /// The activity's name, as Garmin keeps it.
    pub name: Option<String>,
    /// Garmin's type key (`running`, `cycling`, …).
    pub type_key: Option<String>,
    /// Distance, m.
    pub distance_m: Option<f64>,
    /// Timer time, s.
    pub duration_s: Option<f64>,
    /// Average heart rate, bpm.
    pub avg_hr: Option<f64>,
    /// Garmin's activity training load.
    pub training_load: Option<f64>,
}

/// What the Training view shows.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingOverview {
    /// The fitness chart's last `days` days up to `today`; `None` when no activity in the history
    /// has a training load.
    pub fitness: Option<FitnessSeries>,
    /// The newest activities, newest first.
    pub recent: Vec<RecentActivity>,
}

impl History {
    /// The fitness chart over the `days` days ending on `today` and the `recent` newest activities
    /// (up to `today`). `days` must be at least 1.
    pub fn training_overview(&self, today: NaiveDate, days: u32, recent: u32) -> Result<TrainingOverview> {
        if days == 0 {
            return Err(HistoryError::Invalid("the fitness chart needs at least one day".to_owned()));
        }
        Ok(TrainingOverview {
            fitness: self.fitness_series(today, days)?,
            recent: self.recent_activities(today, recent)?,
        })
    }

    fn fitness_series(&self, today: NaiveDate, days: u32) -> Result<Option<FitnessSeries>> {
        let first: Option<String> =
            self.conn().query_row("SELECT MIN(local_date) FROM activities", [], |r| r.get(0))?;
        let Some(first) = first.as_deref().and_then(parse_ymd).filter(|d| *d <= today) else {
            return Ok(None);
        };
        // The profile as the last sync (or a tool) kept it, whatever its age: the app reads no Garmin.
        let stored = self.athlete_profile()?;
        let profile = LoadProfile::of(stored.as_ref(), true, true);
        let sessions = session_loads(&self.activity_loads(first, today)?, &profile);
        let loads = daily_loads(&sessions, LoadChoice::Auto);
        if loads.days.is_empty() {
            return Ok(None);
        }
        let mut notes = if stored.is_none() {
            vec!["the athlete's heart-rate profile and FTP are not kept yet (a sync keeps them), so no hrTSS or power TSS".to_owned()]
        } else {
            profile.notes
        };
        if loads.scale == Some(LoadScale::Garmin) {
            notes.push(
                "no session had power TSS or hrTSS, so Garmin's training load is used (its own scale, not TSS)".to_owned(),
            );
        }
        let pmc = performance_management_until(&loads.days, &PmcConstants::default(), today)
            .map_err(|e| HistoryError::Invalid(format!("the fitness chart could not be computed: {e}")))?;
        let shown: &[PmcDay] = pmc.between(today - Duration::days(i64::from(days) - 1), today);
        Ok(Some(FitnessSeries {
            dates: shown.iter().map(|d| d.date).collect(),
            ctl: shown.iter().map(|d| d.ctl).collect(),
            atl: shown.iter().map(|d| d.atl).collect(),
            tsb: shown.iter().map(|d| d.tsb).collect(),
            convention: pmc.convention.clone(),
            load_convention: loads.convention,
            load_scale: match loads.scale {
                Some(LoadScale::Tss) => "tss",
                _ => "garmin",
            }
            .to_owned(),
            notes,
            settling: shown.iter().any(|d| d.settling),
        }))
    }

    fn recent_activities(&self, today: NaiveDate, limit: u32) -> Result<Vec<RecentActivity>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT activity_id, local_date, name, type_key, distance_m, duration_s, avg_hr, training_load
             FROM activities WHERE local_date <= ?1
             ORDER BY local_date DESC, start_local DESC, activity_id DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![crate::store::ymd(today), limit], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                RecentActivity {
                    activity_id: 0,
                    date: NaiveDate::MIN,
                    name: r.get(2)?,
                    type_key: r.get(3)?,
                    distance_m: r.get(4)?,
                    duration_s: r.get(5)?,
                    avg_hr: r.get(6)?,
                    training_load: r.get(7)?,
                },
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, date, activity) = row?;
            // A row with an unusable id or date is left out, as every reader of the history does.
            let (Ok(activity_id), Some(date)) = (u64::try_from(id), parse_ymd(&date)) else { continue };
            out.push(RecentActivity { activity_id, date, ..activity });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    //! Run: `cargo test -p history --lib training::`
    use super::*;

    fn day(text: &str) -> NaiveDate {
        parse_ymd(text).unwrap()
    }

    /// Writes one activity row as the sync would keep it (only the columns the overview reads).
    fn add(history: &History, id: i64, date: &str, name: &str, load: Option<f64>) {
        history
            .conn()
            .execute(
                "INSERT INTO activities (activity_id, local_date, start_local, type_key, name, distance_m,
                 duration_s, avg_hr, training_load, summary_json, synced_at)
                 VALUES (?1, ?2, ?2 || 'T07:00:00', 'running', ?3, 10000.0, 3000.0, 150.0, ?4, '{}', 0)",
                params![id, date, name, load],
            )
            .unwrap();
    }

    #[test]
    fn an_empty_history_has_no_fitness_chart_and_no_recent_activity() {
        let dir = tempfile::tempdir().unwrap();
        let history = History::open(dir.path()).unwrap();
        let overview = history.training_overview(day("2026-11-15"), 90, 10).unwrap();
        assert_eq!(overview, TrainingOverview { fitness: None, recent: Vec::new() });
    }

    #[test]
    fn the_fitness_chart_ends_today_with_one_value_per_day_and_follows_the_pmc_of_garmin_loads() {
        let dir = tempfile::tempdir().unwrap();
        let history = History::open(dir.path()).unwrap();
        add(&history, 1, "2026-11-01", "Long run", Some(100.0));
        add(&history, 2, "2026-11-10", "Tempo", Some(60.0));
        add(&history, 3, "2026-11-10", "No load", None);
        let fitness = history.training_overview(day("2026-11-15"), 7, 10).unwrap().fitness.unwrap();

        let expected_dates: Vec<NaiveDate> = (9..=15).map(|d| day(&format!("2026-11-{d:02}"))).collect();
        assert_eq!(fitness.dates, expected_dates);
        assert_eq!((fitness.ctl.len(), fitness.atl.len(), fitness.tsb.len()), (7, 7, 7));
        // The same numbers as the analytics crate's PMC over the same daily loads, run on to today.
        let loads = [
            analytics::DailyLoad { date: day("2026-11-01"), load: 100.0 },
            analytics::DailyLoad { date: day("2026-11-10"), load: 60.0 },
        ];
        let pmc = performance_management_until(&loads, &PmcConstants::default(), day("2026-11-15")).unwrap();
        let last = pmc.on(day("2026-11-15")).unwrap();
        assert_eq!((fitness.ctl[6], fitness.atl[6], fitness.tsb[6]), (last.ctl, last.atl, last.tsb));
        // Fatigue jumps on the day of the tempo run and decays after it.
        assert!(fitness.atl[1] > fitness.atl[0] && fitness.atl[6] < fitness.atl[1], "{:?}", fitness.atl);
        assert!(
            fitness.convention.contains("CTL") && fitness.convention.contains("TSB"),
            "{}",
            fitness.convention
        );
        assert!(!fitness.load_convention.is_empty());
        assert!(fitness.settling, "two weeks of history are still settling");
        // Without a kept profile the chart says why it counts Garmin's load.
        assert_eq!(fitness.load_scale, "garmin");
        assert!(fitness.notes.iter().any(|n| n.contains("not kept yet")), "{:?}", fitness.notes);
    }

    #[test]
    fn with_a_kept_heart_rate_profile_the_chart_counts_hr_tss_as_get_fitness_trend_does_by_default() {
        let dir = tempfile::tempdir().unwrap();
        let history = History::open(dir.path()).unwrap();
        add(&history, 1, "2026-11-01", "Long run", Some(100.0));
        add(&history, 2, "2026-11-10", "Tempo", Some(60.0));
        history
            .conn()
            .execute(
                "INSERT INTO athlete_profile (id, max_hr, resting_hr, threshold_hr, sex, read_on, read_at)
                 VALUES (1, 190.0, 50.0, 170.0, 'MALE', '2026-10-01', 0)",
                [],
            )
            .unwrap();
        let fitness = history.training_overview(day("2026-11-15"), 7, 10).unwrap().fitness.unwrap();

        // The loads are the shared per-session hrTSS (the `auto` choice), not Garmin's 100 and 60.
        let stored = history.athlete_profile().unwrap();
        let sessions = crate::load::session_loads(
            &history.activity_loads(day("2026-11-01"), day("2026-11-15")).unwrap(),
            &LoadProfile::of(stored.as_ref(), true, true),
        );
        let loads: Vec<analytics::DailyLoad> =
            sessions.iter().map(|s| analytics::DailyLoad { date: s.date, load: s.hr_tss.unwrap() }).collect();
        assert!(loads.iter().all(|l| l.load != 100.0 && l.load != 60.0), "{loads:?}");
        let pmc = performance_management_until(&loads, &PmcConstants::default(), day("2026-11-15")).unwrap();
        let last = pmc.on(day("2026-11-15")).unwrap();
        assert_eq!((fitness.ctl[6], fitness.atl[6], fitness.tsb[6]), (last.ctl, last.atl, last.tsb));
        assert_eq!(fitness.load_scale, "tss");
        assert_eq!(fitness.notes, ["no FTP in Garmin's profile, so no power TSS"]);
    }

    #[test]
    fn recent_activities_are_newest_first_limited_and_leave_out_days_after_today() {
        let dir = tempfile::tempdir().unwrap();
        let history = History::open(dir.path()).unwrap();
        add(&history, 1, "2026-11-01", "Oldest", Some(50.0));
        add(&history, 2, "2026-11-12", "Middle", Some(50.0));
        add(&history, 3, "2026-11-14", "Newest", Some(50.0));
        add(&history, 4, "2026-11-20", "After today", Some(50.0));
        let recent = history.training_overview(day("2026-11-15"), 30, 2).unwrap().recent;
        let names: Vec<_> = recent.iter().map(|a| a.name.as_deref().unwrap()).collect();
        assert_eq!(names, ["Newest", "Middle"]);
        assert_eq!(recent[0].activity_id, 3);
        assert_eq!(recent[0].date, day("2026-11-14"));
        assert_eq!(
            (recent[0].distance_m, recent[0].duration_s, recent[0].avg_hr),
            (Some(10000.0), Some(3000.0), Some(150.0))
        );
    }

    #[test]
    fn activities_without_any_training_load_give_no_fitness_chart_but_still_list() {
        let dir = tempfile::tempdir().unwrap();
        let history = History::open(dir.path()).unwrap();
        add(&history, 1, "2026-11-14", "Walk", None);
        let overview = history.training_overview(day("2026-11-15"), 30, 5).unwrap();
        assert_eq!(overview.fitness, None);
        assert_eq!(overview.recent.len(), 1);
    }

    #[test]
    fn a_chart_of_zero_days_is_refused_with_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let history = History::open(dir.path()).unwrap();
        let error = history.training_overview(day("2026-11-15"), 0, 5).unwrap_err();
        assert!(error.to_string().contains("at least one day"), "{error}");
    }
}
