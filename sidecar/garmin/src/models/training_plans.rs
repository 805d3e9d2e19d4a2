//! Training plans the athlete follows (`trainingplan-service/trainingplan/plans`). Garmin's
//! answer is `{trainingPlanList: [...], totalCount}`; older clients saw `{plans: [...]}` or a bare
//! list, and the names of a plan's fields vary (`name`/`trainingPlanName`/`planName`, a status as
//! `trainingStatus.statusKey`, `trainingStatus` text or `status`), so each is read and the first
//! present wins.

use chrono::NaiveDate;
use serde::de::{Deserializer, IgnoredAny};
use serde::{Deserialize, Serialize};

use super::de;

/// The plans of `trainingplan/plans`, in any of its shapes.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TrainingPlans {
    /// The plans, as Garmin listed them.
    pub plans: Vec<TrainingPlan>,
}

impl<'de> Deserialize<'de> for TrainingPlans {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Shape {
            List(Vec<TrainingPlan>),
            Wrapped {
                #[serde(rename = "trainingPlanList", default, deserialize_with = "de::vec")]
                list: Vec<TrainingPlan>,
                #[serde(default, deserialize_with = "de::vec")]
                plans: Vec<TrainingPlan>,
            },
            Other(IgnoredAny),
        }
        Ok(TrainingPlans {
            plans: match Shape::deserialize(d)? {
                Shape::List(plans) => plans,
                Shape::Wrapped { list, plans } => {
                    if list.is_empty() {
                        plans
                    } else {
                        list
                    }
                }
                Shape::Other(_) => Vec::new(),
            },
        })
    }
}

/// One training plan.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrainingPlan {
    /// Plan id.
    #[serde(deserialize_with = "de::id")]
    pub training_plan_id: Option<u64>,
    /// Name (one of three keys).
    #[serde(deserialize_with = "de::text")]
    pub name: Option<String>,
    /// Name (one of three keys).
    #[serde(deserialize_with = "de::text")]
    pub training_plan_name: Option<String>,
    /// Name (one of three keys).
    #[serde(deserialize_with = "de::text")]
    pub plan_name: Option<String>,
    /// Status: `{statusKey}` or its text.
    #[serde(deserialize_with = "status_key")]
    pub training_status: Option<String>,
    /// Status, where `trainingStatus` is absent.
    #[serde(deserialize_with = "de::text")]
    pub status: Option<String>,
    /// First day (one of two keys).
    #[serde(deserialize_with = "de::date")]
    pub start_date: Option<NaiveDate>,
    /// First day (one of two keys).
    #[serde(deserialize_with = "de::date")]
    pub plan_start_date: Option<NaiveDate>,
    /// Last day (one of three keys).
    #[serde(deserialize_with = "de::date")]
    pub end_date: Option<NaiveDate>,
    /// Last day (one of three keys).
    #[serde(deserialize_with = "de::date")]
    pub plan_end_date: Option<NaiveDate>,
    /// The race day the plan leads to.
    #[serde(deserialize_with = "de::date")]
    pub target_event_date: Option<NaiveDate>,
}

impl TrainingPlan {
    /// The plan's name, whichever key held it (blank is none).
    pub fn title(&self) -> Option<&str> {
        [&self.name, &self.training_plan_name, &self.plan_name]
            .into_iter()
            .find_map(|n| n.as_deref().filter(|n| !n.trim().is_empty()))
    }

    /// Its status key (`ACTIVE`…), whichever key held it.
    pub fn status_key(&self) -> Option<&str> {
        self.training_status.as_deref().or(self.status.as_deref())
    }

    /// Its first day.
    pub fn first_day(&self) -> Option<NaiveDate> {
        self.start_date.or(self.plan_start_date)
    }

    /// Its last day (or the race day it leads to).
    pub fn last_day(&self) -> Option<NaiveDate> {
        self.end_date.or(self.plan_end_date).or(self.target_event_date)
    }
}

/// `trainingStatus` as `{"statusKey": "ACTIVE", …}` or as text; anything else is absent.
fn status_key<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Status {
        Text(String),
        Keyed {
            #[serde(rename = "statusKey", default, deserialize_with = "de::text")]
            key: Option<String>,
        },
        Other(IgnoredAny),
    }
    Ok(match Status::deserialize(d)? {
        Status::Text(text) => Some(text),
        Status::Keyed { key } => key,
        Status::Other(_) => None,
    })
}
