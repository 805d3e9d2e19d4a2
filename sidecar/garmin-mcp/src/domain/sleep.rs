//! A night's sleep stages as spans of local time, merged down to a readable number: shared by the
//! health answer's timeline and the sleep chart.

use chrono::{Duration, NaiveDateTime};
use garmin::models::wellness::Sleep;

/// The night's stages as `(start, end, level)` in local time (level 0 deep … 3 awake), sorted,
/// with unusable rows dropped and merged down to at most `max` spans. Shared by the health answer
/// and the sleep chart.
pub fn sleep_stage_spans(
    sleep: &Sleep,
    offset: Duration,
    max: usize,
) -> Vec<(NaiveDateTime, NaiveDateTime, u8)> {
    let mut segs: Vec<(NaiveDateTime, NaiveDateTime, u8)> = sleep
        .sleep_levels
        .iter()
        .filter_map(|l| {
            let start = l.start_gmt?.naive_utc() + offset;
            let end = l.end_gmt?.naive_utc() + offset;
            let level = l.activity_level?.round();
            ((0.0..=3.0).contains(&level) && end > start).then_some((start, end, level as u8))
        })
        .collect();
    segs.sort_by_key(|s| s.0);
    merge_segments(&mut segs, max);
    segs
}

/// Merges equal neighbours, then folds the shortest segment into its longer neighbour until at
/// most `max` remain. Segments are `(start, end, level)`, sorted by start.
pub fn merge_segments<T: Copy + Ord + std::ops::Sub<Output = Duration>>(
    segs: &mut Vec<(T, T, u8)>,
    max: usize,
) {
    fn coalesce<T: Copy>(segs: &mut Vec<(T, T, u8)>) {
        let mut out: Vec<(T, T, u8)> = Vec::with_capacity(segs.len());
        for s in segs.drain(..) {
            match out.last_mut() {
                Some(last) if last.2 == s.2 => last.1 = s.1,
                _ => out.push(s),
            }
        }
        *segs = out;
    }
    coalesce(segs);
    while segs.len() > max.max(1) {
        let Some(i) = (0..segs.len()).min_by_key(|&i| segs[i].1 - segs[i].0) else { break };
        let len = |j: usize| segs[j].1 - segs[j].0;
        let into_prev = match (i.checked_sub(1), (i + 1 < segs.len()).then_some(i + 1)) {
            (Some(p), Some(n)) => len(p) >= len(n),
            (Some(_), None) => true,
            _ => false,
        };
        let removed = segs.remove(i);
        if into_prev {
            segs[i - 1].1 = removed.1;
        } else {
            segs[i].0 = removed.0;
        }
        coalesce(segs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    /// The health answer's limit (`tools::health::MAX_SLEEP_SEGMENTS`).
    const MAX_SLEEP_SEGMENTS: usize = 40;

    fn t(min: i64) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 15).unwrap().and_hms_opt(0, 0, 0).unwrap() + Duration::minutes(min)
    }

    #[test]
    fn a_long_night_folds_into_at_most_forty_segments_covering_the_whole_night() {
        // 120 alternating 3-minute segments with a few long ones.
        let mut segs: Vec<(NaiveDateTime, NaiveDateTime, u8)> =
            (0..120).map(|i| (t(i * 3), t(i * 3 + 3), (i % 4) as u8)).collect();
        segs[10].1 = t(33);
        merge_segments(&mut segs, MAX_SLEEP_SEGMENTS);
        assert!(segs.len() <= MAX_SLEEP_SEGMENTS, "{}", segs.len());
        assert_eq!(segs.first().unwrap().0, t(0));
        assert_eq!(segs.last().unwrap().1, t(360));
        for pair in segs.windows(2) {
            assert_eq!(pair[0].1, pair[1].0, "segments stay contiguous");
            assert_ne!(pair[0].2, pair[1].2, "equal neighbours are merged");
        }
    }

    #[test]
    fn equal_neighbours_merge_and_short_nights_stay_as_they_are() {
        let mut segs = vec![(t(0), t(10), 1), (t(10), t(20), 1), (t(20), t(50), 0)];
        merge_segments(&mut segs, MAX_SLEEP_SEGMENTS);
        assert_eq!(segs, vec![(t(0), t(20), 1), (t(20), t(50), 0)]);
    }
}
