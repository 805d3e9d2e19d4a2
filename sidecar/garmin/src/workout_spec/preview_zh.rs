//! The preview's words in Chinese: the same sentences `preview` builds in English, with step
//! names, ends, targets and totals in Chinese (`热身 10:00 / 重复 4×: 跑 800 m @ 4'55"-5'05"/km ·
//! 恢复 2:00 / 放松 10:00 — 总计 ≈ 7.2 km · ≈ 0:44:00`, `3× 杠铃卧推 8次 @ 60 kg · 休息 1:30 — 3组，
//! 24次，1,440 kg`). Numbers, paces and units stay as `display` writes them. One place for the
//! Chinese phrases, so the English preview is never touched by them.

use super::preview::{Language, StrengthTotals};

/// A fixed phrase in `lang` (`total`, `No steps`).
pub(super) fn phrase(lang: Language, english: &str) -> String {
    match (lang, english) {
        (Language::Zh, "total") => "总计".to_owned(),
        (Language::Zh, "No steps") => "没有步骤".to_owned(),
        _ => english.to_owned(),
    }
}

/// `Repeat 4×` / `重复 4×`.
pub(super) fn repeat_times(lang: Language, times: &str) -> String {
    match lang {
        Language::En => format!("Repeat {times}×"),
        Language::Zh => format!("重复 {times}×"),
    }
}

/// `Repeat until 20:00` / `重复直到 20:00`.
pub(super) fn repeat_until(lang: Language, time: &str) -> String {
    match lang {
        Language::En => format!("Repeat until {time}"),
        Language::Zh => format!("重复直到 {time}"),
    }
}

/// ` with pull buoy` / ` 使用浮板`.
pub(super) fn with_equipment(lang: Language, equipment: &str) -> String {
    match lang {
        Language::En => format!(" with {equipment}"),
        Language::Zh => format!(" 使用{equipment}"),
    }
}

/// `3 sets, 24 reps, 1,440 kg` / `3组，24次，1,440 kg` (volume left out without weights).
pub(super) fn sets_words(lang: Language, totals: &StrengthTotals) -> String {
    let unit = if totals.pounds { "lb" } else { "kg" };
    let volume_in_unit =
        if totals.pounds { totals.volume_kg * 1000.0 / super::GRAMS_PER_POUND } else { totals.volume_kg };
    let volume = (volume_in_unit > 0.0)
        .then(|| format!("{} {unit}", display::thousands(volume_in_unit.round() as i128)));
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let parts: Vec<String> = match lang {
        Language::En => {
            [Some(plural(totals.sets, "set", "sets")), Some(plural(totals.reps, "rep", "reps")), volume]
                .into_iter()
                .flatten()
                .collect()
        }
        Language::Zh => [Some(format!("{}组", totals.sets)), Some(format!("{}次", totals.reps)), volume]
            .into_iter()
            .flatten()
            .collect(),
    };
    parts.join(if lang == Language::Zh { "，" } else { ", " })
}

/// The name of a step of `kind` (in words) in `sport`, in Chinese.
pub(super) fn label(kind: &str, sport: &str) -> String {
    match kind {
        "warmup" => "热身".to_owned(),
        "cooldown" => "放松".to_owned(),
        "recovery" => "恢复".to_owned(),
        "rest" => "休息".to_owned(),
        "repeat" => "重复".to_owned(),
        "interval" => match sport {
            "running" | "trail_running" | "treadmill_running" => "跑".to_owned(),
            "cycling" | "road_biking" | "indoor_cycling" | "mountain_biking" => "骑行".to_owned(),
            "swimming" | "lap_swimming" | "open_water_swimming" => "游".to_owned(),
            "walking" | "hiking" => "走".to_owned(),
            _ => "训练".to_owned(),
        },
        "other" => "其他".to_owned(),
        "main" => "主训练".to_owned(),
        other => other.to_owned(),
    }
}

/// An end in words (`until lap button`, `8 reps`, `until HR below 150 bpm`), in Chinese.
pub(super) fn end(english: &str) -> String {
    if english == "until lap button" {
        return "直到按圈键".to_owned();
    }
    if let Some(n) = english.strip_suffix(" reps") {
        return format!("{n}次");
    }
    if let Some(rest) = english.strip_prefix("until HR ") {
        let (direction, bpm) = rest.split_once(' ').unwrap_or(("at", rest));
        let word = match direction {
            "below" => "低于",
            "above" => "高于",
            _ => "达到",
        };
        return format!("直到心率{word} {bpm}");
    }
    if let Some(rest) = english.strip_prefix("until power ") {
        return format!("直到功率 {rest}");
    }
    if let Some(rest) = english.strip_prefix("fixed rest") {
        return format!("固定休息{rest}");
    }
    english.to_owned()
}

/// A target in words (`HR zone 2`, `power zone 3`), in Chinese; ranges with units stay.
pub(super) fn target(english: &str) -> String {
    if let Some(zone) = english.strip_prefix("HR zone ") {
        return format!("心率区间 {zone}");
    }
    if let Some(zone) = english.strip_prefix("power zone ") {
        return format!("功率区间 {zone}");
    }
    english.to_owned()
}

/// A swim stroke or piece of swim equipment in words, in Chinese.
pub(super) fn swim(english: &str) -> String {
    match english {
        "any stroke" => "任意泳姿",
        "freestyle" => "自由泳",
        "backstroke" => "仰泳",
        "breaststroke" => "蛙泳",
        "butterfly" => "蝶泳",
        "drill" => "技术练习",
        "IM" => "混合泳",
        "fins" => "脚蹼",
        "kickboard" => "浮板",
        "paddles" => "划水掌",
        "pull buoy" => "夹腿浮板",
        "snorkel" => "呼吸管",
        other => other,
    }
    .to_owned()
}

/// A Garmin sport key in Chinese (a multisport leg's name).
pub(super) fn sport(key: &str) -> String {
    match key {
        "running" => "跑步",
        "cycling" => "骑行",
        "swimming" => "游泳",
        "strength_training" => "力量训练",
        "cardio_training" => "有氧训练",
        "hiit" => "HIIT",
        "yoga" => "瑜伽",
        "pilates" => "普拉提",
        "mobility" => "灵活性",
        "multi_sport" => "多项运动",
        other => other,
    }
    .to_owned()
}
