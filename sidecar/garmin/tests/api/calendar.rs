//! Run: `cargo test -p garmin --test api calendar::`.
//!
//! Calendar feed (1–12 months in, 0-based on the wire, deduplicated) and calendar events.

use std::collections::HashSet;

use chrono::Datelike;

use garmin::Error;
use garmin::models::events::{CompletionTarget, Event, EventCustomization};

use super::support::{day, start, today};

#[tokio::test]
async fn a_month_is_asked_for_zero_based_and_items_are_unique() {
    let env = start().await;
    let api = env.client.calendar();
    env.fake.clear_requests();
    let november = api.month(2026, 11).await.unwrap();
    assert_eq!(env.fake.requests().last().unwrap().path, "/gc-api/calendar-service/year/2026/month/10");
    assert_eq!(november.month, Some(10));
    let ids: Vec<_> = november.calendar_items.iter().filter_map(|i| i.id).collect();
    assert_eq!(ids.len(), ids.iter().collect::<HashSet<_>>().len());
    assert!(november.calendar_items.iter().any(|i| i.item_type.as_deref() == Some("activity")));
    assert!(november.calendar_items.windows(2).all(|w| w[0].date <= w[1].date));
    assert!(matches!(api.month(2026, 0).await, Err(Error::InvalidInput(_))));
    assert!(matches!(api.month(2026, 13).await, Err(Error::InvalidInput(_))));

    let week = api.week(today()).await.unwrap();
    assert!(week.calendar_items.iter().all(|i| {
        let d = i.date.unwrap();
        (today() - chrono::Days::new(6)..=today() + chrono::Days::new(6)).contains(&d)
    }));
}

#[tokio::test]
async fn a_range_over_two_months_merges_the_overlapping_weeks_once() {
    let env = start().await;
    let api = env.client.calendar();
    // September's feed runs to Sat 3 Oct, October's starts Sun 27 Sep: the feeds overlap.
    let september = api.month(2026, 9).await.unwrap().calendar_items;
    let october = api.month(2026, 10).await.unwrap().calendar_items;
    let overlap = september.iter().filter(|s| october.iter().any(|o| o.id == s.id)).count();
    assert!(overlap > 0, "the fake's feeds share the boundary weeks");

    let items = api.items_between(day(2026, 9, 1), day(2026, 10, 31)).await.unwrap();
    let ids: Vec<_> = items.iter().filter_map(|i| i.id).collect();
    assert_eq!(ids.len(), ids.iter().collect::<HashSet<_>>().len(), "each id once");
    let in_range = september
        .iter()
        .chain(&october)
        .filter(|i| i.date.is_some_and(|d| d.month() >= 9 && d.month() <= 10));
    assert_eq!(items.len(), in_range.filter_map(|i| i.id).collect::<HashSet<_>>().len());
    assert!(items.windows(2).all(|w| w[0].date <= w[1].date));
}

#[tokio::test]
async fn events_list_create_update_delete() {
    let env = start().await;
    let api = env.client.events();
    let all = api.list(day(2026, 1, 1), day(2027, 12, 31), 20, 1).await.unwrap();
    assert!(all.len() >= 2);
    let upcoming = api.upcoming(365, 20).await.unwrap();
    assert!(upcoming.iter().all(|e| e.date.unwrap() >= today()));
    assert!(upcoming.iter().any(|e| e.distance_meters().is_some()));

    let new = Event {
        event_name: Some("Club 10K".into()),
        date: Some(day(2026, 12, 20)),
        event_type: Some("running".into()),
        race: Some(true),
        completion_target: Some(CompletionTarget {
            value: Some(10.0),
            unit: Some("kilometer".into()),
            unit_type: Some("distance".into()),
        }),
        event_customization: Some(EventCustomization {
            custom_goal: Some(CompletionTarget {
                value: Some(2700.0),
                unit: Some("second".into()),
                unit_type: Some("time".into()),
            }),
            is_primary_event: Some(false),
            ..Default::default()
        }),
        ..Default::default()
    };
    let created = api.create(&new).await.unwrap();
    let id = created.id.unwrap();
    let read = api.get(id).await.unwrap();
    assert_eq!(read.event_name.as_deref(), Some("Club 10K"));
    assert_eq!(read.distance_meters(), Some(10_000.0));
    assert_eq!(read.goal_seconds(), Some(2700.0));

    let mut changed = read.clone();
    changed.note = Some("bring gels".into());
    api.update(id, &changed).await.unwrap();
    assert_eq!(api.get(id).await.unwrap().note.as_deref(), Some("bring gels"));

    api.delete(id).await.unwrap();
    assert!(matches!(api.get(id).await, Err(Error::NotFound { .. })));
    assert!(matches!(api.create(&Event::default()).await, Err(Error::InvalidInput(_))));
}
