//! Training plan reads (web session only): the plans the athlete follows, each with its detail
//! (scheduled workouts, phases), and the goal race's calendar event (its distance and goal time,
//! which the plan does not carry).

use chrono::NaiveDate;

use super::{Garmin, Read, Served};
use crate::Result;
use crate::models::events::Event;
use crate::models::training_plans::TrainingPlan;

/// Why these reads are asked (only seen without a web session).
const PLANS: &str = "training plans (Garmin Coach)";

impl Garmin {
    /// The plans the athlete follows (the list form: no scheduled workouts).
    pub async fn training_plans(&self) -> Result<Served<Vec<TrainingPlan>>> {
        self.serve(Read::new(PLANS).web(|w| Box::pin(async move { w.workouts().training_plans().await })))
            .await
    }

    /// One plan's detail (`fbt-adaptive/{id}` for Garmin Coach, `phased/{id}` otherwise); `None`
    /// when Garmin answers without a body. A 404 stays [`crate::Error::NotFound`].
    pub async fn training_plan(&self, plan_id: u64, adaptive: bool) -> Result<Served<Option<TrainingPlan>>> {
        self.serve(
            Read::new(PLANS)
                .web(move |w| Box::pin(async move { w.workouts().training_plan(plan_id, adaptive).await })),
        )
        .await
    }

    /// The calendar events of one day (a goal race's distance and goal time).
    pub async fn events_on(&self, day: NaiveDate) -> Result<Served<Vec<Event>>> {
        self.serve(
            Read::new(PLANS).web(move |w| Box::pin(async move { w.events().list(day, day, 20, 1).await })),
        )
        .await
    }
}
