//! Chart text the `display` crate does not write: clock times of day, long spans in the chart's
//! language, and labels cut to fit. Paces, durations, distances and axis numbers come from
//! `display` (re-exported here in the chart's styles), the same as in the MCP answers.

use crate::i18n::Language;

pub(crate) use display::{amount, duration as hms, km_text as km};

/// Seconds as `m:ss` (paces on axes and labels): `299` → `4:59`.
pub(crate) fn mss(seconds: f64) -> String {
    display::pace(seconds, display::PaceStyle::Colon)
}

/// Minutes as `h:mm` (time axes).
pub(crate) fn h_mm(minutes: f64) -> String {
    display::duration_hm(minutes * 60.0)
}

/// Minutes after midnight as a clock time (`23:10`, wrapping past midnight).
pub(crate) fn clock(minutes: f64) -> String {
    let total = minutes.round().rem_euclid(1440.0) as u64;
    format!("{:02}:{:02}", total / 60, total % 60)
}

/// A span of minutes in words: `7 h 20 min` / `7 小时 20 分`.
pub(crate) fn span(minutes: f64, language: Language) -> String {
    let total = minutes.max(0.0).round() as u64;
    let (h, m) = (total / 60, total % 60);
    match (language, h) {
        (Language::En, 0) => format!("{m} min"),
        (Language::En, _) => format!("{h} h {m} min"),
        (Language::Zh, 0) => format!("{m} 分钟"),
        (Language::Zh, _) => format!("{h} 小时 {m} 分"),
    }
}

/// `text` cut to at most `max_chars` characters, with `…` when cut.
pub(crate) fn ellipsize(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max_chars.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paces_durations_and_clock_times_read_as_runners_write_them() {
        assert_eq!(mss(299.4), "4:59");
        assert_eq!(mss(59.6), "1:00");
        assert_eq!(hms(6312.0), "1:45:12");
        assert_eq!(hms(2712.0), "45:12");
        assert_eq!(h_mm(135.0), "2:15");
        assert_eq!(clock(1390.0), "23:10");
        assert_eq!(clock(1440.0 + 405.0), "06:45");
        assert_eq!(span(440.0, Language::En), "7 h 20 min");
        assert_eq!(span(440.0, Language::Zh), "7 小时 20 分");
        assert_eq!(km(21_097.5), "21.10 km");
        assert_eq!(amount(312.4), "312");
        assert_eq!(ellipsize("上海半程马拉松", 4), "上海半…");
        assert_eq!(ellipsize("short", 10), "short");
    }
}
