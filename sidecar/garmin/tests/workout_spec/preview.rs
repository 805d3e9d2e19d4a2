//! Run: `cargo test -p garmin --test workout_spec preview::`.
//!
//! The plain-words preview on the issue's example and on real workouts read back from Garmin,
//! with totals checked against Garmin's own estimates where the fixtures carry them.

use garmin::workout_spec::{Preview, parse_spec, preview};

use super::common::{fixture_json, fixture_workout, issue_example, spec};

fn contains_all(preview: &Preview, pieces: &[&str]) {
    for piece in pieces {
        assert!(preview.text.contains(piece), "missing {piece:?} in\n{}", preview.text);
    }
}

#[test]
fn issue_example_reads_as_the_issue_describes() {
    let shown = preview(&spec(issue_example()).to_garmin());
    // Time: 10:00 + 4 × (800 m at 5:00/km = 4:00, + 2:00) + 10:00 = 44:00, approximate because
    // the intervals' time comes from their pace. Distance: 4 × 800 m plus 28 min at the assumed
    // easy 7:00/km = 7.2 km, approximate too.
    assert_eq!(
        shown.text,
        "Warm-up 10:00 / Repeat 4×: Run 800 m @ 4'55\"-5'05\"/km · Recover 2:00 / Cool-down 10:00 — total ≈ 7.2 km · \
         ≈ 0:44:00"
    );
    assert_eq!(shown.lines.len(), 3);
    assert_eq!(shown.lines[1], "Repeat 4×: Run 800 m @ 4'55\"-5'05\"/km · Recover 2:00");
    assert_eq!(shown.duration_s, Some(2640.0));
    assert!((shown.distance_m.unwrap() - 7200.0).abs() < 1e-6);
    assert!(shown.estimated, "the warm-up's distance rests on an assumed pace");
}

#[test]
fn fully_specified_steps_are_not_called_estimates() {
    // Every step has a distance and a pace: the distance is exact, the time follows from paces.
    let shown = preview(
        &spec(serde_json::json!({"name": "Tempo", "sport": "run", "steps": [
            {"type": "interval", "distance_km": 5, "pace_range": "4:50-5:10"}]}))
        .to_garmin(),
    );
    assert_eq!(shown.text, "Run 5 km @ 4'50\"-5'10\"/km — total 5.0 km · ≈ 0:25:00");
    assert!(!shown.estimated);
}

#[test]
fn garmin_2018_workout_totals_match_garmins_own_estimate() {
    let workout = fixture_workout("workout_get.json");
    let shown = preview(&workout);
    assert_eq!(
        shown.lines,
        [
            "Warm-up 3:00",
            "Repeat 6×: Run 1:00 · Recover 1:00",
            "Repeat 3×: Run 0:30 · Recover 0:30",
            "Cool-down 2:00",
        ]
    );
    // Every step is timed, so the time is exact and equals Garmin's estimatedDurationInSecs.
    assert_eq!(shown.duration_s, workout.estimated_duration_in_secs);
    assert!(shown.text.ends_with(" · 0:20:00"), "{}", shown.text);
    assert!(shown.text.contains("total ≈ "), "distance rests on the assumed pace: {}", shown.text);
    assert!(shown.estimated);
}

#[test]
fn nested_repeats_read_back_from_garmin_show_every_end_and_target() {
    let shown = preview(&fixture_workout("workout_create_response_running_nested_repeats.json"));
    contains_all(
        &shown,
        &[
            "Warm-up until lap button / ",
            "Run 10:00 @ HR zone 4 / ",
            "Recover 400 m @ 120-140 bpm / ",
            "Run 50 kcal @ 4'10\"-4'46\"/km, 160-175 bpm / ",
            "Repeat 3×: (Repeat 4×: Run 400 m @ 3'20\"-3'42\"/km · Recover 200 m) · Rest 3:00 / ",
            "Cool-down until lap button — total ≈ ",
        ],
    );
    // 3 × 4 × (400 + 200) m are fixed; lap-button steps and the timed interval add more.
    assert!(shown.distance_m.unwrap() > 7200.0 + 400.0);
    assert!(shown.estimated);
}

#[test]
fn cycling_read_back_shows_power_cadence_and_speed() {
    let shown = preview(&fixture_workout("workout_create_response_cycling_power_cadence.json"));
    contains_all(
        &shown,
        &[
            "Warm-up 10:00 @ power zone 2",
            "Ride 20:00 @ 200-250 W, 85-95 rpm",
            "Ride 100 kcal @ 25.2-30.6 km/h",
            "Repeat 5×: Ride 5:00 @ 280-320 W, 165-180 bpm · Recover 3:00 @ 100-150 W",
            "Ride 10:00 @ 95-105 rpm",
            "Cool-down until lap button",
        ],
    );
}

#[test]
fn swim_read_back_has_exact_distance_strokes_and_kit() {
    let workout = fixture_workout("workout_create_response_swimming_all_strokes.json");
    let shown = preview(&workout);
    contains_all(
        &shown,
        &[
            "Warm-up 200 m / Swim 100 m butterfly / Swim 100 m backstroke / Swim 100 m breaststroke / Swim 100 m / ",
            "Swim 200 m drill with kickboard / Swim 200 m with pull buoy / Swim 200 m with fins / ",
            "Swim 200 m with paddles / Repeat 4×: Swim 100 m · Rest 0:20 / Cool-down 100 m",
        ],
    );
    // 200 + 4 × 100 + 4 × 200 + 4 × 100 + 100 m, all fixed by the steps.
    assert_eq!(shown.distance_m, Some(1900.0));
    assert!(shown.text.contains("total 1900 m · ≈ "), "{}", shown.text);
    // Time at the workout's avgTrainingSpeed (1.2 m/s) plus the 4 × 20 s rests.
    let expected = 1900.0 / workout.avg_training_speed.unwrap() + 80.0;
    assert!((shown.duration_s.unwrap() - expected).abs() < 1e-6, "{:?} vs {expected}", shown.duration_s);
}

#[test]
fn multisport_segments_use_their_own_training_speeds_like_garmin() {
    let answer = fixture_json("workout_create_response_multisport_triathlon.json");
    let shown = preview(&fixture_workout("workout_create_response_multisport_triathlon.json"));
    assert_eq!(shown.lines, ["Cycling: Ride 10:00", "Running: Run 1 km", "Swimming: Swim 500 m"]);
    // Garmin's own per-segment estimates: 600 s at 7 m/s = 4200 m; 1000 m at 2.5 m/s = 400 s.
    let segments = &answer["workoutSegments"];
    let bike_distance = segments[0]["estimatedDistanceInMeters"].as_f64().unwrap();
    let run_time = segments[1]["estimatedDurationInSecs"].as_f64().unwrap();
    let swim_time = 500.0 / segments[2]["avgTrainingSpeed"].as_f64().unwrap();
    assert!((shown.distance_m.unwrap() - (bike_distance + 1000.0 + 500.0)).abs() < 1e-6);
    assert!((shown.duration_s.unwrap() - (600.0 + run_time + swim_time)).abs() < 1e-6);
}

#[test]
fn strength_workouts_have_time_but_no_distance() {
    let shown = preview(&fixture_workout("workout_create_response_strength_reps.json"));
    // Sets read "3× …" with the rests inside in lower case (the recorded steps name no exercise).
    contains_all(&shown, &["3× Interval 10 reps · rest 1:00 · Interval 15 reps · rest 1:30"]);
    assert_eq!(shown.distance_m, None);
    // 5 + 5 min plus 3 × (1:00 + 1:30) are timed; 75 reps are estimated.
    let duration = shown.duration_s.unwrap();
    assert!(duration > 600.0 + 450.0, "{duration}");
    assert!(shown.estimated);
    assert!(!shown.text.contains(" km"), "{}", shown.text);
}

#[test]
fn a_workout_without_steps_says_so() {
    let list_row = garmin::models::workouts::Workout { workout_name: Some("x".into()), ..Default::default() };
    let shown = preview(&list_row);
    assert_eq!((shown.text.as_str(), shown.distance_m, shown.duration_s), ("No steps", None, None));
}

#[test]
fn swim_paces_are_per_100_m_in_spec_body_and_preview() {
    let parsed = parse_spec(&serde_json::json!({"name": "CSS", "sport": "swim", "steps": [
        {"type": "repeat", "times": 10, "steps": [
            {"type": "swim", "distance_m": 100, "pace": "1:45", "stroke": "free"},
            {"type": "rest", "duration_s": 15}]}]}))
    .unwrap();
    let body = parsed.to_garmin();
    let interval = &body.workout_segments[0].workout_steps[0].workout_steps[0];
    // "1:45" per 100 m widens by ±2 s: 1:43–1:47, i.e. 100/103 and 100/107 m/s.
    assert!((interval.target_value_one.unwrap() - 100.0 / 103.0).abs() < 1e-12);
    assert!((interval.target_value_two.unwrap() - 100.0 / 107.0).abs() < 1e-12);
    let shown = preview(&body);
    assert_eq!(
        shown.text,
        "Repeat 10×: Swim 100 m freestyle @ 1'43\"-1'47\"/100 m · Rest 0:15 — total 1000 m · ≈ 0:20:00"
    );
    assert!(!shown.estimated);
}

/// The next `f64` below `value` (one bit off, as Garmin may return a bound it was sent).
fn one_bit_below(value: f64) -> f64 {
    f64::from_bits(value.to_bits() - 1)
}

#[test]
fn a_target_read_back_a_bit_off_previews_the_same_totals_even_on_a_half() {
    // 6,276 s at the middle of 1:34–1:38/100 m (1:36) is exactly 6,537.5 m: the estimate sits on a
    // half, where one bit of noise in the bounds used to round it to 6,537 one way and 6,538 the
    // other (found by the round-trip property test).
    let swim = serde_json::json!({"name": "a", "sport": "swim",
        "steps": [{"type": "warmup", "duration_s": 6276, "pace": "1:36"}]});
    let ride = serde_json::json!({"name": "b", "sport": "ride",
        "steps": [{"type": "interval", "duration_s": 3599, "speed_range": "20-31"}]});
    for spec in [swim, ride] {
        let sent = parse_spec(&spec).unwrap().to_garmin();
        let mut body = serde_json::to_value(&sent).unwrap();
        let step = &mut body["workoutSegments"][0]["workoutSteps"][0];
        for bound in ["targetValueOne", "targetValueTwo"] {
            let value = step[bound].as_f64().unwrap_or_else(|| panic!("{bound} in {step}"));
            step[bound] = serde_json::json!(one_bit_below(value));
        }
        let read_back: garmin::models::workouts::Workout = serde_json::from_value(body).unwrap();
        assert_ne!(
            serde_json::to_value(&read_back).unwrap()["workoutSegments"][0]["workoutSteps"][0]["targetValueOne"],
            serde_json::to_value(&sent).unwrap()["workoutSegments"][0]["workoutSteps"][0]["targetValueOne"],
            "the bounds really differ"
        );
        assert_eq!(preview(&read_back).text, preview(&sent).text);
    }
}
