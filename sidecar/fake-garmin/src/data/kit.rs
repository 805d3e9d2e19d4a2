//! The athlete's equipment: gear (three pairs of running shoes, one retired, and a road bike)
//! and devices (a Forerunner watch that records everything and an Index scale for weigh-ins).
//! Gear statistics are never stored; they are summed from the activities that name the gear.

use chrono::{Duration, NaiveDate};

use super::rng::Rng;

/// Primary watch device id (also its `unitId`).
pub const WATCH_ID: u64 = 3_900_000_001;
/// Scale device id.
pub const SCALE_ID: u64 = 3_900_000_002;

/// One piece of gear.
#[derive(Clone, Debug)]
pub struct Gear {
    /// 32-hex-digit uuid (path component of gear endpoints).
    pub uuid: String,
    /// Numeric primary key.
    pub pk: u64,
    /// `Shoes` or `Bike`.
    pub type_name: &'static str,
    /// Maker.
    pub make: &'static str,
    /// Model.
    pub model: &'static str,
    /// Nickname.
    pub display_name: &'static str,
    /// Retire-at distance in metres (0 = none).
    pub maximum_m: f64,
    /// `active` or `retired`.
    pub status: &'static str,
    /// First use.
    pub date_begin: NaiveDate,
    /// Retired on.
    pub date_end: Option<NaiveDate>,
}

/// One registered device.
#[derive(Clone, Debug)]
pub struct Device {
    /// Device id (= unit id).
    pub id: u64,
    /// Product name.
    pub product: &'static str,
    /// Application key.
    pub app_key: &'static str,
    /// Garmin part number.
    pub part_number: &'static str,
    /// Retail SKU.
    pub sku: &'static str,
    /// Serial number.
    pub serial: &'static str,
    /// Firmware version.
    pub firmware: &'static str,
    /// Image URL.
    pub image_url: &'static str,
    /// Primary activity tracker.
    pub primary: bool,
    /// Device type primary key.
    pub type_pk: u64,
    /// Registered on.
    pub registered: NaiveDate,
    /// Records Garmin's newest metrics (Running Tolerance, endurance and hill scores, acclimation:
    /// Forerunner 570/970 and fēnix 8 era watches; the demo's watch stands for one).
    pub newest_metrics: bool,
}

/// Gear of the account; the daily shoe replaced the old one on `switch`.
pub fn gear(seed: u64, first: NaiveDate, switch: NaiveDate) -> Vec<Gear> {
    let mut rng = Rng::derive(seed, 0x6EA2);
    let mut uuid = || rng.uuid().replace('-', "");
    vec![
        Gear {
            uuid: uuid(),
            pk: 41_000_001,
            type_name: "Shoes",
            make: "Nike",
            model: "Pegasus 39",
            display_name: "Old Pegasus",
            maximum_m: 800_000.0,
            status: "retired",
            date_begin: first - Duration::days(120),
            date_end: Some(switch - Duration::days(1)),
        },
        Gear {
            uuid: uuid(),
            pk: 41_000_002,
            type_name: "Shoes",
            make: "Nike",
            model: "Pegasus 41",
            display_name: "Daily Pegasus",
            maximum_m: 800_000.0,
            status: "active",
            date_begin: switch,
            date_end: None,
        },
        Gear {
            uuid: uuid(),
            pk: 41_000_003,
            type_name: "Shoes",
            make: "Asics",
            model: "Metaspeed Sky",
            display_name: "Race Day",
            maximum_m: 500_000.0,
            status: "active",
            date_begin: first - Duration::days(30),
            date_end: None,
        },
        Gear {
            uuid: uuid(),
            pk: 41_000_004,
            type_name: "Bike",
            make: "Canyon",
            model: "Endurace CF 7",
            display_name: "Road Bike",
            maximum_m: 0.0,
            status: "active",
            date_begin: first - Duration::days(400),
            date_end: None,
        },
    ]
}

/// Devices of the account: the demo athlete's Forerunner 965, or for an account with an older
/// watch (`older`, [`crate::config::Untracked::OLDER_WATCH`]) a Forerunner 255 in its place.
pub fn devices(first: NaiveDate, older: bool) -> Vec<Device> {
    vec![
        Device {
            id: WATCH_ID,
            product: if older { "Forerunner 255" } else { "Forerunner 965" },
            app_key: if older { "forerunner255" } else { "forerunner965" },
            part_number: "006-B4315-00",
            sku: "010-02809-00",
            serial: "3391234567",
            firmware: "22.26",
            image_url: "https://res.garmin.com/en/products/010-02809-00/v/c1_01_md.png",
            primary: true,
            type_pk: 38_066,
            registered: first - Duration::days(200),
            newest_metrics: !older,
        },
        Device {
            id: SCALE_ID,
            product: "Index S2",
            app_key: "indexs2",
            part_number: "006-B3835-00",
            sku: "010-02294-02",
            serial: "3351234567",
            firmware: "4.10",
            image_url: "https://res.garmin.com/en/products/010-02294-02/v/c1_01_md.png",
            primary: false,
            type_pk: 36_232,
            registered: first - Duration::days(500),
            newest_metrics: false,
        },
    ]
}
