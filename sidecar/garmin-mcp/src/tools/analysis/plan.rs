//! `get_plan_vs_actual`: scheduled workouts against what was done on the same days.

use super::*;

/// Default range of `get_plan_vs_actual`: the last 7 days ending yesterday.
const PLAN_DEFAULT_DAYS: i64 = 7;
/// Longest range of `get_plan_vs_actual` (the calendar is read a month per request).
const PLAN_MAX_DAYS: i64 = 92;
/// Planned workouts and unplanned activities listed one by one (the counts cover all).
const PLAN_LISTED: usize = 60;

/// Arguments of `get_plan_vs_actual`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct PlanVsActualArgs {
    /// First day, `YYYY-MM-DD` (default: 6 days before `end_date`, a week in all; at most 92 days).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub start_date: Option<Day<arg::StartDate>>,
    /// Last day, `YYYY-MM-DD` (default: yesterday; today counts too when asked, its workouts not
    /// yet done shown as pending).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub end_date: Option<Day<arg::EndDate>>,
}

/// One scheduled workout and what was done for it.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlannedWorkoutRow {
    /// The day it was scheduled on.
    pub date: String,
    /// Workout name.
    pub name: String,
    /// Sport family: `running`, `cycling`, `swimming`, `walking/hiking` or `other`.
    pub sport: String,
    /// The library workout (for `get_workouts`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workout_id: Option<u64>,
    /// The calendar entry (`workoutScheduleId`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule_id: Option<u64>,
    /// Planned time, `h:mm:ss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned_duration: Option<String>,
    /// Planned distance, km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned_distance_km: Option<f64>,
    /// True when the planned totals are the preview's estimate (an easy pace, a typical length
    /// for an open step) rather than the steps' own numbers.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub planned_estimated: bool,
    /// `done`, `missed` (a day that is over with nothing of its sport), `pending` (today, not
    /// done yet) or, for a training plan's workouts, `moved` (done on another day of its week).
    pub status: String,
    /// The day it was done on, when moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done_on: Option<String>,
    /// The activity that did it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_id: Option<u64>,
    /// Its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_name: Option<String>,
    /// Its time, `h:mm:ss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual_duration: Option<String>,
    /// Its distance, km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual_distance_km: Option<f64>,
    /// What the percentage compares: `time`, or `distance` when the workout has no planned time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compared_on: Option<String>,
    /// 100 × actual / planned, whole percent (0 when missed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent: Option<i64>,
    /// `green` (80–120 %), `yellow` (50–79 % or 121–150 %) or `red` (otherwise, missed included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// A done calendar workout's steps with the laps Garmin recorded under each (the most recent
    /// done workouts of the range only; see `steps_note` when they are missing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<crate::domain::plan_steps::StepRow>,
    /// Where the laps of `steps` came from: `history` or `garmin`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps_from: Option<String>,
    /// Why a done workout has no `steps`, in one sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps_note: Option<String>,
}

/// An activity no workout was planned for.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct UnplannedRow {
    /// The day.
    pub date: String,
    /// Activity id (for `get_activity`).
    pub activity_id: u64,
    /// Name.
    pub name: String,
    /// Activity type, e.g. `running`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Time, `h:mm:ss`.
    pub duration: String,
    /// Distance, km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
}

/// Counts of `get_plan_vs_actual`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlanCounts {
    /// Workouts scheduled in the range.
    pub planned: usize,
    /// Green (within ±20 % of the plan).
    pub green: usize,
    /// Yellow.
    pub yellow: usize,
    /// Red, missed ones included.
    pub red: usize,
    /// Missed (nothing of the workout's sport that day).
    pub missed: usize,
    /// Scheduled for today and not done yet.
    pub pending: usize,
    /// Activities with no workout planned.
    pub unplanned: usize,
}

/// The answer of `get_plan_vs_actual`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlanVsActual {
    /// First day.
    pub start_date: String,
    /// Last day.
    pub end_date: String,
    /// How workouts and activities are matched and coloured, in one sentence.
    pub convention: String,
    /// The counts.
    pub counts: PlanCounts,
    /// Each scheduled workout, by day.
    pub workouts: Vec<PlannedWorkoutRow>,
    /// Activities done without a planned workout, by day.
    pub unplanned: Vec<UnplannedRow>,
    /// Rows left out to keep the answer short (the counts cover them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows_left_out: Option<usize>,
    /// The training plan's own workouts (Garmin Coach) against the activities, apart from the
    /// calendar's workouts above.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub training_plans: Vec<PlanCompliance>,
    /// Parts Garmin could not give, with why; the rest is still compared.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// Where the activities came from (the calendar is always read live).
    pub source: DataSource,
}

/// One training plan's compliance over the range.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlanCompliance {
    /// The plan.
    pub plan: String,
    /// Its goal race, e.g. `Example Big City Marathon on 2027-02-18`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_race: Option<String>,
    /// How done, moved and missed are decided.
    pub convention: String,
    /// The counts.
    pub counts: PlanComplianceCounts,
    /// Each plan workout of the range, by day.
    pub workouts: Vec<PlannedWorkoutRow>,
    /// Whether laps are matched to the plan's steps, in one sentence.
    pub steps: String,
}

/// Counts of one plan's workouts.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlanComplianceCounts {
    /// Plan workouts in the range.
    pub planned: usize,
    /// Done on their day.
    pub done: usize,
    /// Done on another day of their week.
    pub moved: usize,
    /// Not done.
    pub missed: usize,
    /// Today's, not done yet.
    pub pending: usize,
}

/// Why laps are matched to the calendar's workouts' steps but not to a Garmin Coach plan's.
const PLAN_STEPS: &str = "laps are matched to steps for the calendar's workouts (their `steps`), not for \
     this plan's: a plan workout has no library workout id, and its steps are served only by Garmin's \
     workout-by-uuid (GraphQL) read, which this version does not make";

/// The compliance of each plan over `start..=end` against `done` (the activities of the range).
fn plans_compliance(
    plans: &[crate::domain::coach_plan::PlanRead],
    done: &[crate::domain::plan::Done],
    (start, end, today): (NaiveDate, NaiveDate, NaiveDate),
) -> Vec<PlanCompliance> {
    use crate::domain::coach_plan::{PLAN_COMPLIANCE, mark_moved, planned_of_plan};
    use crate::domain::plan::{Outcome, compare_plan};
    plans
        .iter()
        .filter_map(|read| {
            let planned = planned_of_plan(&read.plan, start, end);
            if planned.is_empty() {
                return None;
            }
            let mut compared = compare_plan(planned, done.to_vec(), today);
            mark_moved(&mut compared, today);
            Some(PlanCompliance {
                plan: read
                    .plan
                    .title()
                    .map_or_else(|| crate::domain::coach_plan::plan_name(&read.plan), str::to_owned),
                goal_race: read.goal.as_ref().map(|g| format!("{} on {}", g.name, g.date)),
                convention: PLAN_COMPLIANCE.to_owned(),
                counts: PlanComplianceCounts {
                    planned: compared.workouts.len(),
                    done: compared.count(Outcome::Done),
                    moved: compared.count(Outcome::Moved),
                    missed: compared.count(Outcome::Missed),
                    pending: compared.count(Outcome::Pending),
                },
                workouts: compared.workouts.iter().take(PLAN_LISTED).map(plan_row).collect(),
                steps: PLAN_STEPS.to_owned(),
            })
        })
        .collect()
}

/// `; plan "X": 14 workouts — 11 done, 1 moved, 2 missed`.
fn compliance_words(plans: &[PlanCompliance]) -> String {
    plans
        .iter()
        .map(|p| {
            let c = &p.counts;
            format!(
                " Plan \"{}\": {} workouts — {} done, {} moved, {} missed{}.",
                p.plan,
                c.planned,
                c.done,
                c.moved,
                c.missed,
                if c.pending > 0 { format!(", {} still to do today", c.pending) } else { String::new() }
            )
        })
        .collect()
}

/// How `get_plan_vs_actual` matches and colours.
pub const PLAN_MATCHING: &str = "each workout scheduled on Garmin's calendar is matched with an activity of the same sport \
     on the same day (the one closest to the planned time; longer plans choose first); planned time and distance \
     are the workout preview's totals; compared on time, or on distance when the workout has no planned time";

fn plan_row(c: &crate::domain::plan::Checked) -> PlannedWorkoutRow {
    use crate::domain::plan::{Basis, Outcome};
    let p = &c.planned;
    PlannedWorkoutRow {
        date: p.date.to_string(),
        name: p.name.clone(),
        sport: p.family.sport_name().to_owned(),
        workout_id: p.workout_id,
        schedule_id: p.schedule_id,
        planned_duration: p.duration_s.map(display::duration_hms),
        planned_distance_km: p.distance_m.filter(|m| *m > 0.0).map(|m| round2(m / 1000.0)),
        planned_estimated: p.estimated,
        status: match c.outcome {
            Outcome::Done => "done",
            Outcome::Missed => "missed",
            Outcome::Pending => "pending",
            Outcome::Moved => "moved",
        }
        .to_owned(),
        done_on: c.done.as_ref().filter(|d| d.date != p.date).map(|d| d.date.to_string()),
        activity_id: c.done.as_ref().map(|d| d.activity_id),
        activity_name: c.done.as_ref().map(|d| d.name.clone()),
        actual_duration: c.done.as_ref().map(|d| display::duration_hms(d.duration_s)),
        actual_distance_km: c.done.as_ref().and_then(|d| d.distance_m).map(|m| round2(m / 1000.0)),
        compared_on: c.basis.map(|b| if b == Basis::Time { "time" } else { "distance" }.to_owned()),
        percent: c.check.as_ref().map(|k| k.percent),
        colour: c.check.as_ref().map(|k| {
            serde_json::to_value(k.compliance)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        }),
        steps: Vec::new(),
        steps_from: None,
        steps_note: None,
    }
}

/// The rows' steps: the [`STEPS_MATCHED`](crate::domain::plan_steps::STEPS_MATCHED) most recent
/// done workouts that have a library workout get their laps matched to its steps (all read at
/// once); the sentence on how many older ones were left out, if any.
async fn add_steps(
    reading: &crate::domain::reading::Reading,
    compared: &[crate::domain::plan::Checked],
    workouts: &std::collections::HashMap<u64, garmin::models::workouts::Workout>,
    rows: &mut [PlannedWorkoutRow],
) -> Option<String> {
    use crate::domain::plan::Outcome;
    use crate::domain::plan_steps::{STEPS_MATCHED, StepsRead, read_steps};
    let mut wanted: Vec<(usize, u64, &garmin::models::workouts::Workout)> = compared
        .iter()
        .enumerate()
        .take(rows.len())
        .filter(|(_, c)| matches!(c.outcome, Outcome::Done | Outcome::Moved))
        .filter_map(|(i, c)| {
            let workout = workouts.get(&c.planned.workout_id?)?;
            Some((i, c.done.as_ref()?.activity_id, workout))
        })
        .collect();
    wanted.sort_by_key(|(i, _, _)| std::cmp::Reverse(compared[*i].done.as_ref().map(|d| d.date)));
    let left_out = wanted.len().saturating_sub(STEPS_MATCHED);
    wanted.truncate(STEPS_MATCHED);
    let pairs: Vec<(u64, &garmin::models::workouts::Workout)> =
        wanted.iter().map(|(_, a, w)| (*a, *w)).collect();
    let read = read_steps(reading, &pairs).await;
    for ((i, _, _), steps) in wanted.iter().zip(read) {
        let row = &mut rows[*i];
        match steps {
            StepsRead::Matched(steps, from) => {
                row.steps = steps;
                row.steps_from = Some(from.to_owned());
            }
            StepsRead::Missing(note) => row.steps_note = Some(note),
        }
    }
    (left_out > 0).then(|| {
        format!(
            "steps: matched for the {STEPS_MATCHED} most recent done workouts; {left_out} older ones were left out \
             to keep the answer short (ask for a shorter range to see them)"
        )
    })
}

fn unplanned_row(d: &crate::domain::plan::Done) -> UnplannedRow {
    UnplannedRow {
        date: d.date.to_string(),
        activity_id: d.activity_id,
        name: d.name.clone(),
        kind: d.type_key.clone(),
        duration: display::duration_hms(d.duration_s),
        distance_km: d.distance_m.filter(|m| *m > 0.0).map(|m| round2(m / 1000.0)),
    }
}

/// The one-line reading of a comparison.
fn plan_reading(start: NaiveDate, end: NaiveDate, counts: &PlanCounts) -> String {
    if counts.planned == 0 {
        return format!(
            "No workout was scheduled on Garmin's calendar from {start} to {end}; {} activities were done.",
            counts.unplanned
        );
    }
    let mut line = format!(
        "{start} to {end}: {} workouts planned — {} green, {} yellow, {} red ({} missed)",
        counts.planned, counts.green, counts.yellow, counts.red, counts.missed
    );
    if counts.pending > 0 {
        line.push_str(&format!(", {} still to do today", counts.pending));
    }
    line.push_str(&format!("; {} unplanned activities.", counts.unplanned));
    line
}

impl GarminMcp {
    /// What `get_plan_vs_actual` answers (its description and schema are on the tool router's method).
    pub(super) async fn get_plan_vs_actual_answer(
        &self,
        args: PlanVsActualArgs,
    ) -> Result<Answer<PlanVsActual>, ToolError> {
        use crate::domain::plan::{Outcome, compare_plan};
        let today = self.today();
        let (start, end) = date_range(
            today,
            ("start_date", day_of(args.start_date)),
            ("end_date", day_of(args.end_date)),
            PLAN_DEFAULT_DAYS,
            PLAN_MAX_DAYS,
        )?;
        let reading = self.reading().await?;
        // The calendar's side (its workouts, the activities, then the done workouts' laps) runs
        // beside the training plans' reads, so the laps add no round trip after the plans'.
        let calendar_side = async {
            let mut inputs = crate::domain::plan::plan_inputs(&reading, start, end).await?;
            let compared = compare_plan(std::mem::take(&mut inputs.planned), inputs.done.clone(), today);
            let mut rows: Vec<PlannedWorkoutRow> =
                compared.workouts.iter().take(PLAN_LISTED).map(plan_row).collect();
            if let Some(note) = add_steps(&reading, &compared.workouts, &inputs.workouts, &mut rows).await {
                inputs.missing.push(note);
            }
            Ok::<_, ToolError>((inputs, compared, rows))
        };
        let (calendar_side, plans) =
            tokio::join!(calendar_side, crate::domain::coach_plan::read_plans(&reading.reads));
        let (mut inputs, compared, workouts) = calendar_side?;
        let plans = plans?;
        inputs.missing.extend(plans.plans.iter().flat_map(|p| p.notes.iter().cloned()));
        let training_plans = plans_compliance(&plans.plans, &inputs.done, (start, end, today));
        let (green, yellow, red) = compared.colours();
        let counts = PlanCounts {
            planned: compared.workouts.len(),
            green,
            yellow,
            red,
            missed: compared.count(Outcome::Missed),
            pending: compared.count(Outcome::Pending),
            unplanned: compared.unplanned.len(),
        };
        let line = plan_reading(start, end, &counts);
        let room = PLAN_LISTED.saturating_sub(workouts.len());
        let unplanned: Vec<UnplannedRow> = compared.unplanned.iter().take(room).map(unplanned_row).collect();
        let left_out = counts.planned + counts.unplanned - workouts.len() - unplanned.len();
        let summary = format!(
            "Plan vs actual {line}{} Convention: {}. {}",
            compliance_words(&training_plans),
            analytics::compare::PLAN_CONVENTION,
            inputs.source.phrase()
        );
        Ok(self.answer(
            summary,
            PlanVsActual {
                start_date: start.to_string(),
                end_date: end.to_string(),
                convention: format!("{PLAN_MATCHING}; {}", analytics::compare::PLAN_CONVENTION),
                counts,
                workouts,
                unplanned,
                rows_left_out: (left_out > 0).then_some(left_out),
                training_plans,
                missing: inputs.missing,
                source: inputs.source,
            },
        ))
    }
}
