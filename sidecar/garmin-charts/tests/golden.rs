//! Golden images of every chart kind, drawn from deterministic synthetic data: each PNG is decoded
//! and must have the requested size, be far from blank, and match `tests/golden/<name>.png` within
//! a tolerance (at most 0.5 % of pixels may differ by more than a small threshold, so a different
//! rounding in a dependency does not fail the build but a moved axis or a missing line does).
//! One chart is drawn in Chinese and its CJK title must really be ink, not missing-glyph boxes.
//!
//! Run: `cargo test -p garmin-charts --test golden`; `UPDATE_GOLDEN=1` rewrites the images (look
//! at them before committing).

mod synthetic;

use std::path::PathBuf;

use garmin_charts::{ChartError, ChartOptions, Language, Png};

/// Largest share of pixels allowed to differ from the golden image.
const MAX_DIFFERING_SHARE: f64 = 0.005;
/// A pixel differs when one of its channels differs by more than this.
const CHANNEL_THRESHOLD: u8 = 48;

/// A decoded PNG, 8-bit RGB.
struct Image {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Image {
    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = (y as usize * self.width as usize + x as usize) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }
}

fn decode(bytes: &[u8]) -> Image {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a readable PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a sane PNG size")];
    let info = reader.next_frame(&mut buf).expect("PNG pixel data");
    assert_eq!(info.color_type, png::ColorType::Rgb, "charts are RGB");
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    buf.truncate(info.buffer_size());
    Image { width: info.width, height: info.height, rgb: buf }
}

/// Far from blank: many distinct colours (lines, fills, anti-aliased text) and a fair share of
/// pixels that are not the white background.
fn assert_not_blank(name: &str, image: &Image) {
    let mut colours = std::collections::HashSet::new();
    let mut inked = 0usize;
    for px in image.rgb.chunks_exact(3) {
        colours.insert([px[0], px[1], px[2]]);
        if px != [255, 255, 255] {
            inked += 1;
        }
    }
    let share = inked as f64 / (image.width * image.height) as f64;
    assert!(colours.len() >= 40, "{name}: only {} distinct colours — is the chart blank?", colours.len());
    assert!(share >= 0.03, "{name}: only {:.2} % of pixels are drawn", share * 100.0);
}

fn golden_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(format!("{name}.png"))
}

/// Checks size and ink, then compares with (or, with `UPDATE_GOLDEN=1`, rewrites) the golden image.
fn check(name: &str, png: &Png, width: u32, height: u32) -> Image {
    let image = decode(&png.bytes);
    assert_eq!((image.width, image.height), (width, height), "{name}: wrong size");
    assert_eq!((png.width, png.height), (width, height), "{name}: wrong reported size");
    assert_not_blank(name, &image);
    let path = golden_path(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &png.bytes).expect("write the golden image");
        return image;
    }
    let golden = std::fs::read(&path).unwrap_or_else(|_| {
        panic!(
            "{} is missing: run `UPDATE_GOLDEN=1 cargo test -p garmin-charts --test golden`",
            path.display()
        )
    });
    let golden = decode(&golden);
    assert_eq!((golden.width, golden.height), (width, height), "{name}: golden image has another size");
    let differing = image
        .rgb
        .chunks_exact(3)
        .zip(golden.rgb.chunks_exact(3))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > CHANNEL_THRESHOLD))
        .count();
    let share = differing as f64 / (width * height) as f64;
    assert!(
        share <= MAX_DIFFERING_SHARE,
        "{name}: {:.2} % of pixels differ from {} (allowed {:.1} %); if the change is intended, \
         rerun with UPDATE_GOLDEN=1 and look at the new image",
        share * 100.0,
        path.display(),
        MAX_DIFFERING_SHARE * 100.0
    );
    image
}

fn default_options() -> ChartOptions {
    ChartOptions::default()
}

#[test]
fn activity_chart_matches_its_golden_image() {
    let png = garmin_charts::activity(&synthetic::half_marathon("Half marathon tune-up"), &default_options())
        .unwrap();
    check("activity", &png, 1200, 700);
}

#[test]
fn volume_chart_matches_its_golden_image() {
    let png = garmin_charts::volume(&synthetic::weekly_volume(), &default_options()).unwrap();
    check("volume", &png, 1200, 700);
}

#[test]
fn grouped_monthly_time_volume_chart_matches_its_golden_image() {
    let mut data = synthetic::weekly_volume();
    data.stacked = false;
    data.weekly = false;
    data.metric = garmin_charts::VolumeMetric::Time;
    data.buckets.truncate(6);
    for (i, b) in data.buckets.iter_mut().enumerate() {
        b.label = format!("2026-{:02}", i + 6);
        b.values = b.values.iter().map(|km| km / 10.0).collect();
    }
    data.span = "2026-06 – 2026-11".to_owned();
    let png = garmin_charts::volume(&data, &default_options()).unwrap();
    check("volume_grouped", &png, 1200, 700);
}

#[test]
fn hr_zones_chart_matches_its_golden_image() {
    let png = garmin_charts::hr_zones(&synthetic::zones(), &default_options()).unwrap();
    check("hr_zones", &png, 1200, 700);
}

#[test]
fn sleep_chart_matches_its_golden_image() {
    let png = garmin_charts::sleep(&synthetic::night(), &default_options()).unwrap();
    check("sleep", &png, 1200, 700);
}

#[test]
fn health_trend_charts_match_their_golden_images() {
    for (name, data) in [
        ("health_resting_hr", synthetic::resting_hr()),
        ("health_hrv", synthetic::hrv()),
        ("health_body_battery", synthetic::body_battery()),
        ("health_stress", synthetic::stress()),
    ] {
        let png = garmin_charts::health_trend(&data, &default_options()).unwrap();
        check(name, &png, 1200, 700);
    }
}

#[test]
fn training_load_chart_matches_its_golden_image() {
    let png = garmin_charts::training_load(&synthetic::load(), &default_options()).unwrap();
    check("training_load", &png, 1200, 700);
}

#[test]
fn load_vs_tolerance_chart_matches_its_golden_image() {
    let data = synthetic::load_tolerance();
    let png = garmin_charts::load_vs_tolerance(&data, &default_options()).unwrap();
    let image = check("load_tolerance", &png, 1200, 700);
    // The spike week (410 over a tolerance of 316) is drawn in the warning colour: its bar puts
    // hundreds of red-dominant pixels on the chart (nothing else there is red).
    let reddish = |x0: u32, x1: u32| {
        (x0..x1)
            .flat_map(|x| (300..640).map(move |y| (x, y)))
            .filter(|&(x, y)| {
                let [r, g, b] = image.pixel(x, y);
                r > 180 && g < 90 && b < 130
            })
            .count()
    };
    let total = reddish(0, 1200);
    assert!(total > 500, "the week above its tolerance is drawn in red ({total} pixels)");
    // Empty weeks are refused with a reason.
    let empty = garmin_charts::LoadToleranceChart {
        weeks: vec![garmin_charts::ToleranceWeek {
            label: "2026-11-09".into(),
            load: f64::NAN,
            ..Default::default()
        }],
    };
    assert!(matches!(
        garmin_charts::load_vs_tolerance(&empty, &default_options()),
        Err(ChartError::NoData(_))
    ));
}

#[test]
fn fitness_chart_matches_its_golden_image() {
    let png = garmin_charts::fitness(&synthetic::fitness(150), &default_options()).unwrap();
    check("fitness", &png, 1200, 700);
}

#[test]
fn a_year_of_fitness_is_drawn_with_month_labels_and_in_chinese() {
    for options in [default_options(), ChartOptions::in_language(Language::Zh)] {
        let png = garmin_charts::fitness(&synthetic::fitness(400), &options).unwrap();
        assert_not_blank("fitness 400 days", &decode(&png.bytes));
    }
}

#[test]
fn power_curve_matches_its_golden_image() {
    let png = garmin_charts::best_efforts(&synthetic::power_curves(), &default_options()).unwrap();
    check("best_efforts_power", &png, 1200, 700);
}

#[test]
fn pace_curve_matches_its_golden_image() {
    let png = garmin_charts::best_efforts(&synthetic::pace_curves(), &default_options()).unwrap();
    check("best_efforts_pace", &png, 1200, 700);
}

#[test]
fn intensity_chart_matches_its_golden_image() {
    let png = garmin_charts::intensity(&synthetic::intensity_weeks(), &default_options()).unwrap();
    check("intensity", &png, 1200, 700);
}

#[test]
fn three_zone_intensity_and_a_single_curve_point_are_drawn() {
    let mut data = synthetic::intensity_weeks();
    for w in &mut data.weeks {
        let z = &w.zone_seconds;
        w.zone_seconds = vec![z[0] + z[1], z[2], z[3] + z[4]];
    }
    data.low_zones = 1;
    let png = garmin_charts::intensity(&data, &ChartOptions { width: 600, height: 350, ..default_options() })
        .unwrap();
    assert_not_blank("intensity 3 zones", &decode(&png.bytes));
    let one = garmin_charts::BestEffortsChart {
        metric: garmin_charts::CurveMetric::HeartRate,
        series: vec![garmin_charts::CurveSeries { label: String::new(), points: vec![(1200, 172.0)] }],
    };
    // One point is a dot, not a line: the chart is drawn (header, axes, the dot) but sparse.
    let image = decode(&garmin_charts::best_efforts(&one, &default_options()).unwrap().bytes);
    let heart = image.rgb.chunks_exact(3).filter(|p| p[0] > 200 && p[1] < 60 && p[2] < 60).count();
    assert!(heart > 20, "the heart-rate dot is missing ({heart} red pixels)");
}

#[test]
fn analytics_charts_without_data_are_refused_with_a_reason() {
    let err =
        garmin_charts::fitness(&garmin_charts::FitnessChart::default(), &default_options()).unwrap_err();
    assert!(matches!(&err, ChartError::NoData(m) if m.contains("two days")), "{err}");
    let nan_days = garmin_charts::FitnessChart {
        days: vec![garmin_charts::FitnessDay { ctl: f64::NAN, ..Default::default() }; 3],
        load_label: String::new(),
    };
    assert!(matches!(garmin_charts::fitness(&nan_days, &default_options()), Err(ChartError::NoData(_))));
    let bad_curve = garmin_charts::BestEffortsChart {
        metric: garmin_charts::CurveMetric::Pace,
        series: vec![garmin_charts::CurveSeries {
            label: "x".into(),
            points: vec![(0, 3.0), (60, f64::NAN), (60, -1.0)],
        }],
    };
    assert!(matches!(
        garmin_charts::best_efforts(&bad_curve, &default_options()),
        Err(ChartError::NoData(_))
    ));
    let no_time = garmin_charts::IntensityChart {
        weeks: vec![garmin_charts::IntensityWeek {
            label: "W1".into(),
            zone_seconds: vec![0.0, f64::NAN, -5.0],
        }],
        low_zones: 1,
    };
    assert!(matches!(garmin_charts::intensity(&no_time, &default_options()), Err(ChartError::NoData(_))));
    let six = garmin_charts::IntensityChart {
        weeks: vec![garmin_charts::IntensityWeek { label: "W1".into(), zone_seconds: vec![60.0; 6] }],
        low_zones: 2,
    };
    let err = garmin_charts::intensity(&six, &default_options()).unwrap_err();
    assert!(err.to_string().contains("got 6"), "{err}");
}

/// Dark pixels (luminance below 140) in a box.
fn ink(image: &Image, x0: u32, y0: u32, x1: u32, y1: u32) -> usize {
    let mut n = 0;
    for y in y0..y1.min(image.height) {
        for x in x0..x1.min(image.width) {
            let [r, g, b] = image.pixel(x, y);
            if 0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b) < 140.0 {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn a_chinese_activity_chart_draws_its_cjk_title_and_labels() {
    let title = "上海半程马拉松";
    assert!(title.chars().all(garmin_charts::font::covers), "the shipped font must cover {title}");
    let options = ChartOptions::in_language(Language::Zh);
    let png = garmin_charts::activity(&synthetic::half_marathon(title), &options).unwrap();
    let image = check("activity_zh", &png, 1200, 700);

    // The title sits at the top left (28 px in, 18 px down, 34 px high): seven CJK glyphs are
    // dense strokes, so the box holds a lot of ink.
    let title_ink = ink(&image, 28, 14, 28 + 7 * 36, 58);
    assert!(title_ink > 1_500, "only {title_ink} dark pixels where the Chinese title should be");

    // Drawn with characters the font lacks, the same box looks different: the ink really is the
    // glyphs of 上海半程马拉松, not a placeholder.
    let missing = ChartOptions { title: Some("\u{E000}".repeat(7)), ..options };
    let tofu = decode(&garmin_charts::activity(&synthetic::half_marathon(title), &missing).unwrap().bytes);
    let mut differing = 0;
    for y in 14..58 {
        for x in 28..(28 + 7 * 36) {
            if image.pixel(x, y) != tofu.pixel(x, y) {
                differing += 1;
            }
        }
    }
    assert!(differing > 1_000, "the Chinese title looks like missing glyphs ({differing} pixels differ)");
}

#[test]
fn other_sizes_are_drawn_at_exactly_that_size() {
    for (w, h) in [(600, 350), (1600, 900), (400, 300)] {
        let options = ChartOptions { width: w, height: h, ..ChartOptions::default() };
        let png = garmin_charts::activity(&synthetic::half_marathon("Half"), &options).unwrap();
        let image = decode(&png.bytes);
        assert_eq!((image.width, image.height), (w, h));
        assert_not_blank(&format!("activity {w}×{h}"), &image);
        let png = garmin_charts::sleep(&synthetic::night(), &options).unwrap();
        assert_not_blank(&format!("sleep {w}×{h}"), &decode(&png.bytes));
    }
}

#[test]
fn sizes_out_of_bounds_and_empty_data_are_refused_with_a_reason() {
    let tiny = ChartOptions { width: 100, height: 80, ..ChartOptions::default() };
    let err = garmin_charts::sleep(&synthetic::night(), &tiny).unwrap_err();
    assert!(matches!(&err, ChartError::InvalidSize(m) if m.contains("100×80")), "{err}");

    let empty = garmin_charts::ActivityChart::default();
    assert!(matches!(garmin_charts::activity(&empty, &default_options()), Err(ChartError::NoData(_))));
    let no_night = garmin_charts::SleepChart::default();
    assert!(matches!(garmin_charts::sleep(&no_night, &default_options()), Err(ChartError::NoData(_))));
    let no_zones = garmin_charts::HrZonesChart::default();
    assert!(matches!(garmin_charts::hr_zones(&no_zones, &default_options()), Err(ChartError::NoData(_))));
    let no_days = garmin_charts::HealthTrendChart {
        days: vec![garmin_charts::TrendDay::default()],
        ..Default::default()
    };
    assert!(matches!(garmin_charts::health_trend(&no_days, &default_options()), Err(ChartError::NoData(_))));
    assert!(matches!(
        garmin_charts::training_load(&garmin_charts::TrainingLoadChart::default(), &default_options()),
        Err(ChartError::NoData(_))
    ));
    assert!(matches!(
        garmin_charts::volume(&garmin_charts::VolumeChart::default(), &default_options()),
        Err(ChartError::NoData(_))
    ));
}
