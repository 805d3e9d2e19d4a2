//! Garmin's public race catalogue as the fake serves it at `race-search/events` (reference §4.10):
//! about 150 races from the first day of the data set to six months after "today", in ~25 cities
//! (a few named in Chinese), from 5K to ultras, trail runs, triathlons and gran fondos, some virtual.
//!
//! It exists so `search_events` can be tested against a catalogue instead of the athlete's own
//! calendar. It is a pure function of seed and "today" ([`catalogue`]) rather than part of
//! [`super::Dataset`]: nothing writes to it, and tests rebuild it to filter it independently.
//!
//! Facts tests can rely on: exactly [`RACE_COUNT`] races, sorted by (date, name); every race on a
//! Saturday or Sunday inside `today-364 ..= today+183`; every kind of race at least ten times;
//! virtual-only races have no city and no start point; every tenth race is `UNVERIFIED`; every
//! thirteenth has no start time.
//!
//! Rows have the real shape docs/garmin-web-api.md §0 lists from a 2024 capture of a Go calendar
//! client (`provider` as a string key, `eventRef`, `eventStartTime`, `administrativeArea{countryCode,
//! cityEn, stateEn, cityNative, stateNative, nativeLocale}`, `locationStartPoint`, `isOfficial`…):
//! see `routes/races.rs`.

use chrono::{Datelike, Duration, NaiveDate, Weekday};

use super::rng::Rng;

/// Races in the catalogue.
pub const RACE_COUNT: usize = 150;
/// Days after "today" the catalogue reaches.
pub const DAYS_AHEAD: i64 = 183;
/// Mean Earth radius used for distances, metres.
pub const EARTH_RADIUS_M: f64 = 6_371_008.8;

/// A place races start from: what Garmin's `administrativeArea` says of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct City {
    /// `cityEn`.
    pub name: &'static str,
    /// Chinese name (`cityNative`), for cities whose races are sometimes named in Chinese.
    pub zh: Option<&'static str>,
    /// `stateEn`: state, province or region, in English.
    pub state: &'static str,
    /// `stateNative`, when it is not written as in English.
    pub state_native: Option<&'static str>,
    /// Country, in English (not in Garmin's answer; for tests that want words).
    pub country: &'static str,
    /// `countryCode` (ISO 3166-1 alpha-2).
    pub country_code: &'static str,
    /// `nativeLocale`, e.g. `zh_CN`.
    pub locale: &'static str,
    /// Latitude of the usual start, °.
    pub lat: f64,
    /// Longitude of the usual start, °.
    pub lon: f64,
    /// IANA time zone.
    pub zone: &'static str,
}

impl City {
    /// `cityNative`: the Chinese name when there is one, else the English one.
    pub fn native(&self) -> &'static str {
        self.zh.unwrap_or(self.name)
    }
}

const fn city(
    (name, zh): (&'static str, Option<&'static str>),
    (state, state_native): (&'static str, Option<&'static str>),
    (country, country_code, locale): (&'static str, &'static str, &'static str),
    (lat, lon): (f64, f64),
    zone: &'static str,
) -> City {
    City { name, zh, state, state_native, country, country_code, locale, lat, lon, zone }
}

const CR: (&str, &str, &str) = ("Costa Rica", "CR", "es_CR");
const CN: (&str, &str, &str) = ("China", "CN", "zh_CN");
const US: (&str, &str, &str) = ("United States", "US", "en_US");

/// Every city of the catalogue. Sampletown and Bayside are the fake account's home towns.
pub const CITIES: &[City] = &[
    city(("Sampletown", None), ("San José", None), CR, (9.9355, -84.0775), "America/Costa_Rica"),
    city(("San José", None), ("San José", None), CR, (9.9281, -84.0907), "America/Costa_Rica"),
    city(("Bayside", None), ("Shanghai", Some("上海")), CN, (31.2243, 121.4690), "Asia/Shanghai"),
    city(("Shanghai", Some("上海")), ("Shanghai", Some("上海")), CN, (31.2304, 121.4737), "Asia/Shanghai"),
    city(("Suzhou", Some("苏州")), ("Jiangsu", Some("江苏")), CN, (31.2989, 120.5853), "Asia/Shanghai"),
    city(("Hangzhou", Some("杭州")), ("Zhejiang", Some("浙江")), CN, (30.2741, 120.1551), "Asia/Shanghai"),
    city(("Beijing", Some("北京")), ("Beijing", Some("北京")), CN, (39.9042, 116.4074), "Asia/Shanghai"),
    city(("Guangzhou", Some("广州")), ("Guangdong", Some("广东")), CN, (23.1291, 113.2644), "Asia/Shanghai"),
    city(("Shenzhen", Some("深圳")), ("Guangdong", Some("广东")), CN, (22.5431, 114.0579), "Asia/Shanghai"),
    city(("Xiamen", Some("厦门")), ("Fujian", Some("福建")), CN, (24.4798, 118.0894), "Asia/Shanghai"),
    city(("Chengdu", Some("成都")), ("Sichuan", Some("四川")), CN, (30.5728, 104.0668), "Asia/Shanghai"),
    city(("Tokyo", None), ("Tokyo", None), ("Japan", "JP", "ja_JP"), (35.6762, 139.6503), "Asia/Tokyo"),
    city(
        ("Sydney", None),
        ("New South Wales", None),
        ("Australia", "AU", "en_AU"),
        (-33.8688, 151.2093),
        "Australia/Sydney",
    ),
    city(("Berlin", None), ("Berlin", None), ("Germany", "DE", "de_DE"), (52.5163, 13.3777), "Europe/Berlin"),
    city(
        ("London", None),
        ("England", None),
        ("United Kingdom", "GB", "en_GB"),
        (51.5072, -0.1276),
        "Europe/London",
    ),
    city(
        ("Paris", None),
        ("Île-de-France", None),
        ("France", "FR", "fr_FR"),
        (48.8566, 2.3522),
        "Europe/Paris",
    ),
    city(
        ("Chamonix", None),
        ("Auvergne-Rhône-Alpes", None),
        ("France", "FR", "fr_FR"),
        (45.9237, 6.8694),
        "Europe/Paris",
    ),
    city(
        ("Valencia", None),
        ("Valencia", None),
        ("Spain", "ES", "es_ES"),
        (39.4699, -0.3763),
        "Europe/Madrid",
    ),
    city(
        ("Amsterdam", None),
        ("North Holland", None),
        ("Netherlands", "NL", "nl_NL"),
        (52.3676, 4.9041),
        "Europe/Amsterdam",
    ),
    city(
        ("Cape Town", None),
        ("Western Cape", None),
        ("South Africa", "ZA", "en_ZA"),
        (-33.9249, 18.4241),
        "Africa/Johannesburg",
    ),
    city(("Boston", None), ("Massachusetts", None), US, (42.3601, -71.0589), "America/New_York"),
    city(("New York", None), ("New York", None), US, (40.7128, -74.0060), "America/New_York"),
    city(("Chicago", None), ("Illinois", None), US, (41.8781, -87.6298), "America/Chicago"),
    city(("Boulder", None), ("Colorado", None), US, (40.0150, -105.2705), "America/Denver"),
    city(("Kona", None), ("Hawaii", None), US, (19.6400, -155.9969), "Pacific/Honolulu"),
];

/// What kind of race it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Road 5K.
    FiveK,
    /// Road 10K.
    TenK,
    /// Half marathon.
    Half,
    /// Marathon.
    Marathon,
    /// Trail run of 15–30 km.
    Trail,
    /// Trail ultra, 50 km to 100 miles.
    Ultra,
    /// Triathlon (three legs).
    Triathlon,
    /// Gran fondo (cycling).
    Cycling,
}

/// The kinds in the order races cycle through them (each at least 10 times in 150 races, even
/// though virtual-only races turn some into 10Ks).
const KINDS: [Kind; 12] = [
    Kind::TenK,
    Kind::Half,
    Kind::FiveK,
    Kind::Marathon,
    Kind::TenK,
    Kind::Trail,
    Kind::Half,
    Kind::Ultra,
    Kind::FiveK,
    Kind::Triathlon,
    Kind::Marathon,
    Kind::Cycling,
];

/// Who lists races in the catalogue (`/calendar-service/race-events/providers`), in the shape
/// docs/garmin-web-api.md §0 gives from a 2024 capture of a Go calendar client:
/// `{eventsProviderKey, eventsProviderName, verifiedStatus, logoURL, canMakeOfficial}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Provider {
    /// `eventsProviderKey`, which races name in their `provider` field.
    pub key: &'static str,
    /// `eventsProviderName`.
    pub name: &'static str,
    /// `verifiedStatus`: how far Garmin trusts the provider's listings.
    pub status: &'static str,
    /// `logoURL` (`null` for some providers).
    pub logo_url: Option<&'static str>,
    /// `canMakeOfficial`.
    pub can_make_official: bool,
}

/// The catalogue's providers.
pub const PROVIDERS: &[Provider] = &[
    Provider {
        key: "GARMIN",
        name: "Garmin",
        status: "OFFICIAL",
        logo_url: Some("https://static.garmincdn.com/race-providers/garmin.png"),
        can_make_official: true,
    },
    Provider {
        key: "EXAMPLE_RACE_REGISTRY",
        name: "Example Race Registry",
        status: "VERIFIED",
        logo_url: Some("https://registry.example.org/logo.png"),
        can_make_official: true,
    },
    Provider {
        key: "SAMPLE_TIMING",
        name: "Sample Timing Co.",
        status: "VERIFIED",
        logo_url: None,
        can_make_official: false,
    },
    Provider {
        key: "EXAMPLE_CN_EVENTS",
        name: "示例赛事平台",
        status: "VERIFIED",
        logo_url: Some("https://races.example.cn/logo.png"),
        can_make_official: false,
    },
];

/// One race of the catalogue.
#[derive(Clone, Debug, PartialEq)]
pub struct Race {
    /// `garminEventUuid`.
    pub uuid: String,
    /// `eventRef`: the provider's own reference.
    pub event_ref: String,
    /// `eventName`.
    pub name: String,
    /// `eventDate`.
    pub date: NaiveDate,
    /// Start time, `HH:MM` local (`eventStartTime`); `None` when the listing has none (every
    /// thirteenth race).
    pub start_hhmm: Option<String>,
    /// IANA zone of the start.
    pub zone: &'static str,
    /// What kind of race.
    pub kind: Kind,
    /// `eventType`: `running`, `trail_running`, `triathlon` or `cycling`.
    pub event_type: &'static str,
    /// `completionTargets` as `(value, unit)`; unit ∈ meter, kilometer, mile. Three for triathlons.
    pub targets: Vec<(f64, &'static str)>,
    /// City (`None` for virtual-only races: no `administrativeArea`, no `locationStartPoint`).
    pub city: Option<&'static City>,
    /// Takes place somewhere (the `includeInPerson` filter; not a field of the row).
    pub in_person: bool,
    /// Can be run virtually (the `includeVirtual` filter; not a field of the row).
    pub is_virtual: bool,
    /// `eventUrl`.
    pub url: String,
    /// `provider`: the key of one of [`PROVIDERS`].
    pub provider: &'static str,
    /// `OFFICIAL`, `VERIFIED` or `UNVERIFIED`.
    pub status: &'static str,
    /// `hasCourse`.
    pub has_course: bool,
}

impl Race {
    /// `locationStartPoint` as `(lat, lon)`.
    pub fn start_point(&self) -> Option<(f64, f64)> {
        self.city.map(|c| (c.lat, c.lon))
    }

    /// Every completion target in metres.
    pub fn targets_m(&self) -> Vec<f64> {
        self.targets.iter().map(|(v, unit)| v * unit_m(unit)).collect()
    }

    /// `isOfficial`.
    pub fn is_official(&self) -> bool {
        self.status == "OFFICIAL"
    }
}

/// Metres in one `unit`.
pub fn unit_m(unit: &str) -> f64 {
    match unit {
        "kilometer" => 1000.0,
        "mile" => 1609.344,
        _ => 1.0,
    }
}

/// Great-circle distance between two `(lat, lon)` points, metres (haversine).
pub fn haversine_m(a: (f64, f64), b: (f64, f64)) -> f64 {
    let (la1, la2) = (a.0.to_radians(), b.0.to_radians());
    let (dla, dlo) = ((b.0 - a.0).to_radians(), (b.1 - a.1).to_radians());
    let h = (dla / 2.0).sin().powi(2) + la1.cos() * la2.cos() * (dlo / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_M * h.sqrt().min(1.0).asin()
}

/// The whole catalogue for `seed` and `today`, sorted by (date, name).
pub fn catalogue(seed: u64, today: NaiveDate) -> Vec<Race> {
    let first = today - Duration::days(364);
    // A week short of the end: moving a day to the weekend adds up to seven days.
    let span = (DAYS_AHEAD + 364 - 7) as usize;
    let mut races: Vec<Race> = (0..RACE_COUNT)
        .map(|i| {
            let mut rng = Rng::derive(seed, 0x4ACE_0000 + i as u64);
            let offset = i * span / (RACE_COUNT - 1);
            let date = weekend(first + Duration::days(offset as i64), rng.chance(0.6));
            race(i, date, &mut rng)
        })
        .collect();
    races.sort_by(|a, b| (a.date, &a.name).cmp(&(b.date, &b.name)));
    races
}

/// The first Saturday (or Sunday) on or after `day`.
fn weekend(day: NaiveDate, sunday: bool) -> NaiveDate {
    let mut d = day;
    while d.weekday() != Weekday::Sat {
        d += Duration::days(1);
    }
    if sunday { d + Duration::days(1) } else { d }
}

fn race(i: usize, date: NaiveDate, rng: &mut Rng) -> Race {
    let virtual_only = i % 11 == 5;
    let mut kind = KINDS[i % KINDS.len()];
    if virtual_only && !matches!(kind, Kind::FiveK | Kind::TenK | Kind::Half) {
        kind = Kind::TenK;
    }
    let city = (!virtual_only).then(|| rng.pick(CITIES));
    let targets = targets(kind, rng);
    let zh = city.and_then(|c| c.zh).filter(|_| rng.chance(0.5));
    let name = match (city, zh) {
        (None, _) => virtual_name(kind, rng),
        (Some(_), Some(zh)) => chinese_name(kind, zh, &targets),
        (Some(c), None) => english_name(kind, c.name, &targets, rng),
    };
    let uuid = rng.uuid();
    let hour = if kind == Kind::Cycling { 7 } else { rng.int(6, 8) };
    let status = if i % 10 == 7 {
        "UNVERIFIED"
    } else if rng.chance(0.5) {
        "OFFICIAL"
    } else {
        "VERIFIED"
    };
    let provider = if zh.is_some() { PROVIDERS[3].key } else { rng.pick(&PROVIDERS[..3]).key };
    let start_hhmm = format!("{hour:02}:{:02}", rng.pick(&[0, 15, 30]));
    Race {
        url: format!("https://races.example.org/{}", &uuid[..8]),
        event_ref: format!("{}-{}", &provider[..3], 10_000 + i * 37),
        uuid,
        name,
        date,
        start_hhmm: (i % 13 != 4).then_some(start_hhmm),
        zone: city.map_or("Etc/UTC", |c| c.zone),
        kind,
        event_type: match kind {
            Kind::Trail | Kind::Ultra => "trail_running",
            Kind::Triathlon => "triathlon",
            Kind::Cycling => "cycling",
            _ => "running",
        },
        targets,
        city,
        in_person: !virtual_only,
        is_virtual: virtual_only || rng.chance(0.15),
        provider,
        status,
        has_course: matches!(kind, Kind::Marathon | Kind::Half | Kind::Trail | Kind::Ultra)
            && !i.is_multiple_of(3),
    }
}

fn targets(kind: Kind, rng: &mut Rng) -> Vec<(f64, &'static str)> {
    match kind {
        Kind::FiveK if rng.chance(0.5) => vec![(5000.0, "meter")],
        Kind::FiveK => vec![(5.0, "kilometer")],
        Kind::TenK => vec![(10.0, "kilometer")],
        Kind::Half => vec![(21.0975, "kilometer")],
        Kind::Marathon => vec![(42.195, "kilometer")],
        Kind::Trail => vec![(*rng.pick(&[15.0, 25.0, 30.0]), "kilometer")],
        Kind::Ultra => {
            vec![*rng.pick(&[(50.0, "kilometer"), (100.0, "kilometer"), (50.0, "mile"), (100.0, "mile")])]
        }
        Kind::Triathlon => rng
            .pick(&[[0.75, 20.0, 5.0], [1.5, 40.0, 10.0], [1.9, 90.0, 21.0975]])
            .iter()
            .map(|km| (*km, "kilometer"))
            .collect(),
        Kind::Cycling => vec![(*rng.pick(&[100.0, 120.0, 160.0]), "kilometer")],
    }
}

/// `50` for 50 km, `100 Mile` style suffixes are handled by the callers.
fn whole(targets: &[(f64, &str)]) -> String {
    targets.first().map_or_else(String::new, |(v, _)| format!("{v:.0}"))
}

fn english_name(kind: Kind, city: &str, targets: &[(f64, &str)], rng: &mut Rng) -> String {
    let d = whole(targets);
    match kind {
        Kind::FiveK => format!("{city} {} 5K", rng.pick(&["Park", "Night", "Fun Run"])),
        Kind::TenK => format!("{city} {} 10K", rng.pick(&["City", "Riverside", "Harbour"])),
        Kind::Half => format!("{city} {}", rng.pick(&["Half Marathon", "City Half Marathon"])),
        Kind::Marathon => format!("{city} {}", rng.pick(&["Marathon", "International Marathon"])),
        Kind::Trail => format!("{city} Trail Run {d}K"),
        Kind::Ultra if targets.first().is_some_and(|(_, u)| *u == "mile") => format!("{city} {d} Mile Ultra"),
        Kind::Ultra => format!("{city} Ultra Trail {d}K"),
        Kind::Triathlon => {
            let distance = match targets.get(1).map(|(v, _)| *v as u32) {
                Some(20) => "Sprint",
                Some(40) => "Olympic",
                _ => "Half Distance",
            };
            format!("{city} {distance} Triathlon")
        }
        Kind::Cycling => format!("{city} Gran Fondo {d}K"),
    }
}

fn chinese_name(kind: Kind, zh: &str, targets: &[(f64, &str)]) -> String {
    let d = whole(targets);
    match kind {
        Kind::FiveK => format!("{zh}5公里欢乐跑"),
        Kind::TenK => format!("{zh}10公里路跑赛"),
        Kind::Half => format!("{zh}半程马拉松"),
        Kind::Marathon => format!("{zh}马拉松"),
        Kind::Trail => format!("{zh}越野跑{d}公里"),
        Kind::Ultra if targets.first().is_some_and(|(_, u)| *u == "mile") => format!("{zh}超级越野赛{d}英里"),
        Kind::Ultra => format!("{zh}超级越野赛{d}公里"),
        Kind::Triathlon => format!("{zh}铁人三项赛"),
        Kind::Cycling => format!("{zh}自行车骑行赛{d}公里"),
    }
}

fn virtual_name(kind: Kind, rng: &mut Rng) -> String {
    let distance = match kind {
        Kind::FiveK => "5K",
        Kind::Half => "Half Marathon",
        _ => "10K",
    };
    format!("{} Virtual {distance}", rng.pick(&["Global", "Worldwide", "Anywhere"]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, 15).unwrap_or_default()
    }

    #[test]
    fn the_catalogue_is_deterministic_and_spans_the_year_and_six_months() {
        let races = catalogue(42, today());
        assert_eq!(races, catalogue(42, today()));
        assert_eq!(races.len(), RACE_COUNT);
        let (first, last) = (today() - Duration::days(364), today() + Duration::days(DAYS_AHEAD));
        assert!(races.iter().all(|r| r.date >= first && r.date <= last));
        assert!(races.iter().all(|r| matches!(r.date.weekday(), Weekday::Sat | Weekday::Sun)));
        assert!(races.iter().filter(|r| r.date > today()).count() >= 40);
        for kind in KINDS {
            assert!(races.iter().filter(|r| r.kind == kind).count() >= 10, "{kind:?}");
        }
        assert!(races.iter().any(|r| r.name.contains("马拉松")));
        let untimed = races.iter().filter(|r| r.start_hhmm.is_none()).count();
        assert!((10..=15).contains(&untimed), "every thirteenth race has no start time: {untimed}");
        assert!(races.iter().all(|r| PROVIDERS.iter().any(|p| p.key == r.provider)));
        assert_ne!(catalogue(7, today()), races);
    }

    #[test]
    fn haversine_knows_shanghai_from_hangzhou() {
        let d = haversine_m((31.2304, 121.4737), (30.2741, 120.1551));
        assert!((160_000.0..170_000.0).contains(&d), "{d}");
        assert!(haversine_m((1.0, 2.0), (1.0, 2.0)) < 1e-6);
    }
}
