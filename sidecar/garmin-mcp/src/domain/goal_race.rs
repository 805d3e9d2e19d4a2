//! The next goal race from the athlete memory, as the analyses mention it (`get_training_status`)
//! and `list_athlete_facts` shows it: one home for the note, so no tool imports another's type.

use chrono::NaiveDate;
use local_data::athlete::{self, Fact};
use rmcp::schemars;
use serde::Serialize;

/// The next goal race, as analyses mention it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct GoalRaceNote {
    /// The fact's number in the athlete memory.
    pub fact_id: u64,
    /// The race, in the athlete's words.
    pub race: String,
    /// Race day, `YYYY-MM-DD`.
    pub date: String,
    /// Days from today to race day.
    pub days_to_race: i64,
    /// Distance, km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Target time, `h:mm:ss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_time: Option<String>,
}

impl GoalRaceNote {
    /// The next goal race in `facts` on or after `today`.
    pub fn next(facts: &[Fact], today: NaiveDate) -> Option<Self> {
        let race = athlete::next_goal_race(facts, today)?;
        Some(GoalRaceNote {
            fact_id: race.id,
            race: race.text.clone(),
            date: race.date?.to_string(),
            days_to_race: race.days_from(today)?,
            distance_km: race.distance_km,
            target_time: race.target_time.clone(),
        })
    }

    /// "Goal race (remembered): Berlin Marathon on 2027-09-26, in 315 days (target 3:15:00)."
    pub fn sentence(&self) -> String {
        let target = self.target_time.as_ref().map(|t| format!(" (target {t})")).unwrap_or_default();
        format!(
            "Goal race (athlete memory): {} on {}, {}{target}.",
            self.race,
            self.date,
            athlete::days_phrase(self.days_to_race)
        )
    }
}
