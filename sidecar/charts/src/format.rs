//! Numbers as chart text: paces as `m:ss`, durations as `h:mm:ss`, clock times, kilometres, and
//! long spans in the chart's language.

use crate::i18n::Language;

/// Seconds as `m:ss` (paces, short durations): `299` → `4:59`.
pub(crate) fn mss(seconds: f64) -> String {
    if !seconds.is_finite() || seconds < 0.0 {
        return "–".to_owned();
    }
    let total = seconds.round() as u64;
    format!("{}:{:02}", total / 60, total % 60)
}

/// Seconds as `h:mm:ss`, or `m:ss` under an hour.
pub(crate) fn hms(seconds: f64) -> String {
    if !seconds.is_finite() || seconds < 0.0 {
        return "0:00".to_owned();
    }
    let total = seconds.round() as u64;
    let (h, m, s) = (total / 3600, (total % 3600) / 60, total % 60);
    if h > 0 { format!("{h}:{m:02}:{s:02}") } else { format!("{m}:{s:02}") }
}

/// Minutes as `h:mm` (time axes).
pub(crate) fn h_mm(minutes: f64) -> String {
    let total = minutes.max(0.0).round() as u64;
    format!("{}:{:02}", total / 60, total % 60)
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

/// Kilometres from metres with two decimals: `21.10 km`.
pub(crate) fn km(meters: f64) -> String {
    format!("{:.2} km", meters / 1000.0)
}

/// A value with as many decimals as its size needs (`312`, `42`, `5.3`, `0.75`).
pub(crate) fn amount(value: f64) -> String {
    let a = value.abs();
    if a == 0.0 {
        "0".to_owned()
    } else if a >= 100.0 {
        format!("{value:.0}")
    } else if a >= 1.0 {
        let r = format!("{value:.1}");
        r.strip_suffix(".0").map(str::to_owned).unwrap_or(r)
    } else {
        format!("{value:.2}")
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
        assert_eq!(
            (amount(312.4), amount(42.0), amount(5.34), amount(0.754), amount(0.0)),
            ("312".into(), "42".into(), "5.3".into(), "0.75".into(), "0".into())
        );
        assert_eq!(ellipsize("上海半程马拉松", 4), "上海半…");
        assert_eq!(ellipsize("short", 10), "short");
    }
}
