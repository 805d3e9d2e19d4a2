//! Every word a chart draws, in English and Simplified Chinese. Units stay in their international
//! form (km, bpm, ms, min/km) in both languages, as Chinese running apps write them.

/// The language of a chart's labels and titles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Language {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

macro_rules! phrases {
    ($($name:ident => $en:literal, $zh:literal;)*) => {
        /// A piece of chart text.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Phrase { $($name,)* }

        impl Phrase {
            /// Every phrase (the font-coverage test walks them).
            #[cfg(test)]
            pub(crate) const ALL: &'static [Phrase] = &[$(Phrase::$name,)*];

            /// The phrase in `language`.
            pub(crate) fn text(self, language: Language) -> &'static str {
                match (self, language) {
                    $((Phrase::$name, Language::En) => $en, (Phrase::$name, Language::Zh) => $zh,)*
                }
            }
        }
    };
}

phrases! {
    DistanceKm => "Distance (km)", "距离 (km)";
    ElapsedTime => "Time (h:mm)", "时间 (h:mm)";
    PacePerKm => "Pace (min/km)", "配速 (min/km)";
    PacePer100m => "Pace (min/100 m)", "配速 (min/100 m)";
    SpeedKmh => "Speed (km/h)", "速度 (km/h)";
    HeartRateBpm => "Heart rate (bpm)", "心率 (bpm)";
    Pace => "Pace", "配速";
    Speed => "Speed", "速度";
    HeartRate => "Heart rate", "心率";
    SplitsPerKm => "Split per km", "每公里分段";
    Splits => "Splits", "分段";
    Laps => "Laps", "圈";
    AvgHr => "avg HR", "平均心率";
    AvgPace => "avg", "平均";
    Activity => "Activity", "活动";

    WeeklyDistance => "Weekly distance", "每周距离";
    MonthlyDistance => "Monthly distance", "每月距离";
    WeeklyTime => "Weekly training time", "每周训练时长";
    MonthlyTime => "Monthly training time", "每月训练时长";
    TimeHours => "Time (h)", "时长 (h)";
    Total => "total", "合计";
    PerWeek => "per week", "每周";
    PerMonth => "per month", "每月";
    Running => "Running", "跑步";
    Cycling => "Cycling", "骑行";
    Swimming => "Swimming", "游泳";
    Walking => "Walking/hiking", "步行/徒步";
    Strength => "Strength", "力量训练";
    OtherSport => "Other", "其他";

    TimeInZones => "Time in heart-rate zones", "心率区间时间";
    TimeMinutes => "Time (min)", "时间 (min)";
    Zone => "Zone", "区间";

    Sleep => "Sleep", "睡眠";
    SleepScore => "Sleep score", "睡眠分数";
    Deep => "Deep", "深睡";
    Light => "Light", "浅睡";
    Rem => "REM", "快速眼动";
    Awake => "Awake", "清醒";
    ClockTime => "Time of night", "时间";

    RestingHr => "Resting heart rate", "静息心率";
    Hrv => "HRV (overnight average)", "HRV (夜间平均)";
    BodyBattery => "Body Battery", "身体电量";
    Stress => "Stress (daily average)", "压力 (日平均)";
    StressLevel => "Stress (0–100)", "压力 (0–100)";
    StressRest => "Rest", "休息";
    StressLow => "Low", "低";
    StressMedium => "Medium", "中";
    StressHigh => "High", "高";
    Baseline => "Baseline", "基线";
    DailyRange => "Daily high–low", "每日最高–最低";
    Average => "Average", "平均";
    Date => "Date", "日期";
    Days => "days", "天";

    TrainingLoad => "Training load", "训练负荷";
    DailyLoad => "Daily load", "每日负荷";
    AcuteLoad => "Acute load (7 d)", "急性负荷 (7 天)";
    ChronicLoad => "Chronic load (28 d)", "慢性负荷 (28 天)";
    OptimalRange => "Optimal acute range", "最佳急性负荷范围";
    SevenDayLoad => "7-day load", "7 天负荷";
    Acute => "acute", "急性";
    Chronic => "chronic", "慢性";
    Ratio => "ratio", "比值";

    LoadToleranceTitle => "Weekly running load against Running Tolerance", "每周跑步负荷 (Running Tolerance)";
    WeeklyRunLoad => "Weekly running load", "每周跑步负荷";
    AboveTolerance => "Above tolerance", "高于 Running Tolerance";
    ProductiveBand => "ACWR 0.8–1.3 (productive)", "最佳范围 (ACWR 0.8–1.3)";

    FitnessTitle => "Fitness, fatigue and form", "体能、疲劳与状态";
    Fitness => "Fitness (CTL)", "体能 (CTL)";
    Fatigue => "Fatigue (ATL)", "疲劳 (ATL)";
    FitnessWord => "fitness", "体能";
    FatigueWord => "fatigue", "疲劳";
    FormWord => "form", "状态";
    FormAxis => "Form (TSB)", "状态 (TSB)";
    FormFresh => "Fresh (form above 0)", "新鲜 (状态高于 0)";
    FormTired => "Tired (form below 0)", "疲劳 (状态低于 0)";
    LoadPerDay => "Load per day", "每日负荷";
    Settling => "Settling (too little history yet)", "起始期 (历史数据尚少)";

    PowerCurve => "Power curve (best efforts)", "功率曲线 (最佳表现)";
    PaceCurve => "Pace curve (best efforts)", "配速曲线 (最佳表现)";
    HeartRateCurve => "Heart-rate curve (best efforts)", "心率曲线 (最佳表现)";
    PowerW => "Power (W)", "功率 (W)";
    DurationLog => "Duration (log scale)", "时长 (对数刻度)";

    IntensityTitle => "Weekly intensity distribution", "每周强度分布";
    ShareOfTime => "Share of time (%)", "时间占比 (%)";
    LowShare => "low intensity", "低强度";
    ZoneEasy => "Easy (zone 1)", "低强度 (区间 1)";
    ZoneModerate => "Moderate (zone 2)", "中强度 (区间 2)";
    ZoneHard => "Hard (zone 3)", "高强度 (区间 3)";

    E1rmTitle => "estimated one-rep max", "力量 e1RM";
    E1rmKg => "e1RM (kg, Epley)", "e1RM (kg, Epley)";
    MuscleSetsTitle => "Weekly sets per muscle group", "每周力量训练 (sets)";
    SetsAxis => "Sets", "Sets";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phrase_is_drawable_with_the_shipped_font_in_both_languages() {
        for phrase in Phrase::ALL {
            for language in [Language::En, Language::Zh] {
                let text = phrase.text(language);
                assert!(!text.is_empty(), "{phrase:?} is empty in {language:?}");
                let missing: String = text.chars().filter(|c| !crate::font::covers(*c)).collect();
                assert!(
                    missing.is_empty(),
                    "{phrase:?} ({language:?}) needs glyphs the font lacks: {missing}"
                );
            }
        }
    }
}
