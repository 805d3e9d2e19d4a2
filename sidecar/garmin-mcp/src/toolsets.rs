//! The catalogue of toolsets: which tools exist, grouped so people can shrink the tool list with
//! `--toolsets a,b`. Every tool belongs to exactly one toolset (a test checks it); `session` is
//! always on so an assistant can always help the person sign in.

/// One group of tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Toolset {
    /// Name used on the command line.
    pub id: &'static str,
    /// What the toolset answers.
    pub description: &'static str,
    /// Tool names in this toolset.
    pub tools: &'static [&'static str],
}

/// Every toolset, in the order the README lists them.
pub const TOOLSETS: &[Toolset] = &[
    Toolset {
        id: "activities",
        description: "runs, rides, swims and other activities: lists, one activity in depth; correct a strength session's sets",
        tools: &["list_activities", "get_activity", "correct_strength_sets"],
    },
    Toolset {
        id: "stats",
        description: "totals and trends over a week, month, year or any range",
        tools: &["get_period_stats"],
    },
    Toolset {
        id: "calendar",
        description: "a month's activities, scheduled workouts and races; add or remove races and events",
        tools: &["get_calendar", "add_calendar_event", "remove_calendar_event"],
    },
    Toolset {
        id: "training",
        description: "training status, load, readiness, VO2max, race predictions, personal records and injury risk",
        tools: &["get_training_status", "get_personal_records", "get_injury_risk"],
    },
    Toolset {
        id: "health",
        description: "daily health: sleep, heart rate, HRV, stress, Body Battery, steps, weight",
        tools: &["get_daily_health"],
    },
    Toolset {
        id: "profile",
        description: "the athlete's profile, zones and totals, devices and gear",
        tools: &["get_profile", "get_devices", "get_gear"],
    },
    Toolset {
        id: "workouts",
        description: "the workout library and training plans; create, schedule, send and delete workouts",
        tools: &[
            "get_workouts",
            "create_workout",
            "schedule_workout",
            "unschedule_workout",
            "push_workout_to_device",
            "delete_workout",
        ],
    },
    Toolset { id: "events", description: "Garmin's race and event search", tools: &["search_events"] },
    Toolset {
        id: "social",
        description: "badges, goals, challenges, followers and groups",
        tools: &["get_achievements", "get_challenges", "get_social"],
    },
    Toolset {
        id: "charts",
        description: "charts drawn as PNG images: an activity, volume, HR zones, sleep, health and load trends",
        tools: &["render_chart"],
    },
    Toolset {
        id: "exports",
        description: "files saved to your disk: an activity as FIT/GPX/TCX/KML/CSV, a workout as a FIT file",
        tools: &["export_activity", "export_workout_fit"],
    },
    Toolset {
        id: "changes",
        description: "the journal of changes made to your Garmin account, and undo",
        tools: &["list_changes", "undo_change"],
    },
    Toolset {
        id: "athlete",
        description: "the athlete memory on this computer: goal races, injuries, constraints, preferences",
        tools: &["remember_athlete_fact", "update_athlete_fact", "list_athlete_facts", "forget_athlete_fact"],
    },
    Toolset {
        id: "history",
        description: "the local training history on this computer: sync it from Garmin, fitness and fatigue from it",
        tools: &["sync_history", "get_fitness_trend"],
    },
    Toolset {
        id: "analysis",
        description: "training analyses from the local history: load balance (ACWR, monotony), intensity distribution, period comparison, efficiency, best efforts and critical power, plan vs actual, strength progress",
        tools: &[
            "get_load_balance",
            "get_intensity_distribution",
            "compare_periods",
            "get_efficiency_trend",
            "get_best_efforts",
            "get_plan_vs_actual",
            "get_strength_progress",
        ],
    },
    Toolset { id: "session", description: "signing in (always on)", tools: &["login"] },
];

/// The toolset that can never be switched off.
pub const ALWAYS_ON: &str = "session";

/// Resolves `--toolsets` names; an unknown name is an error listing the valid ones.
pub fn select(names: &[String]) -> Result<Vec<&'static Toolset>, String> {
    let mut chosen: Vec<&'static Toolset> = Vec::new();
    for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
        let Some(set) = TOOLSETS.iter().find(|t| t.id.eq_ignore_ascii_case(name)) else {
            let valid: Vec<&str> = TOOLSETS.iter().map(|t| t.id).collect();
            return Err(format!("unknown toolset `{name}`; choose from: {}", valid.join(", ")));
        };
        if !chosen.contains(&set) {
            chosen.push(set);
        }
    }
    if let Some(session) = TOOLSETS.iter().find(|t| t.id == ALWAYS_ON)
        && !chosen.contains(&session)
    {
        chosen.push(session);
    }
    Ok(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_toolset_names_list_the_valid_ones_and_session_is_always_added() {
        let err = select(&["activities".into(), "sleep".into()]).unwrap_err();
        assert!(err.contains("`sleep`") && err.contains("health"), "{err}");
        let chosen = select(&["Health".into()]).unwrap();
        let ids: Vec<&str> = chosen.iter().map(|t| t.id).collect();
        assert_eq!(ids, ["health", "session"]);
    }
}
