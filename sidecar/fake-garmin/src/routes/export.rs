//! Text exports of one activity, generated from its full sample series: GPX 1.1 (one `trkpt`
//! per sample with Garmin's TrackPointExtension HR/cadence), TCX (laps with tracks), KML (one
//! LineString) and Garmin's CSV split table. Pool swims and strength have no positions, so their
//! GPX/KML carry an empty track.

use std::fmt::Write;

use chrono::{Duration, NaiveDateTime};

use crate::data::activity::{Activity, Sport};
use crate::data::series::{self, Sample};

/// `2026-01-08T14:10:21.000Z`
fn zulu(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

fn at(a: &Activity, secs: f64) -> NaiveDateTime {
    a.start_gmt + Duration::milliseconds((secs * 1000.0) as i64)
}

/// Escapes text for XML content and attributes.
pub(super) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

fn with_gps(a: &Activity) -> Vec<Sample> {
    if a.sport().has_gps() { series::samples(a) } else { Vec::new() }
}

/// GPX 1.1 track.
pub(super) fn gpx(a: &Activity) -> String {
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(
        "<gpx creator=\"Garmin Connect\" version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\" ",
    );
    out.push_str("xmlns:ns3=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\">\n");
    let _ = writeln!(
        out,
        "  <metadata>\n    <link href=\"connect.garmin.com\">\n      <text>Garmin Connect</text>\n    </link>\n    <time>{}</time>\n  </metadata>",
        zulu(a.start_gmt)
    );
    let _ = writeln!(
        out,
        "  <trk>\n    <name>{}</name>\n    <type>{}</type>\n    <trkseg>",
        esc(&a.name),
        a.sport().type_key()
    );
    for p in with_gps(a) {
        let _ = writeln!(
            out,
            "      <trkpt lat=\"{:.7}\" lon=\"{:.7}\">\n        <ele>{:.1}</ele>\n        <time>{}</time>\n        <extensions>\n          <ns3:TrackPointExtension>\n            <ns3:hr>{}</ns3:hr>\n            <ns3:cad>{}</ns3:cad>\n          </ns3:TrackPointExtension>\n        </extensions>\n      </trkpt>",
            p.lat,
            p.lon,
            p.elev,
            zulu(at(a, p.t)),
            p.hr.round(),
            (p.cadence / 2.0).round()
        );
    }
    out.push_str("    </trkseg>\n  </trk>\n</gpx>\n");
    out
}

/// Training Center XML with one `Lap` per lap.
pub(super) fn tcx(a: &Activity) -> String {
    let sport = match a.sport() {
        Sport::Running => "Running",
        Sport::Cycling => "Biking",
        _ => "Other",
    };
    let samples = series::samples(a);
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">\n  <Activities>\n");
    let _ = writeln!(out, "    <Activity Sport=\"{sport}\">\n      <Id>{}</Id>", zulu(a.start_gmt));
    for lap in &a.laps {
        let s = &lap.stats;
        let _ = writeln!(
            out,
            "      <Lap StartTime=\"{}\">\n        <TotalTimeSeconds>{:.1}</TotalTimeSeconds>\n        <DistanceMeters>{:.1}</DistanceMeters>\n        <MaximumSpeed>{:.3}</MaximumSpeed>\n        <Calories>{}</Calories>\n        <AverageHeartRateBpm><Value>{}</Value></AverageHeartRateBpm>\n        <MaximumHeartRateBpm><Value>{}</Value></MaximumHeartRateBpm>\n        <Intensity>{}</Intensity>\n        <TriggerMethod>Manual</TriggerMethod>\n        <Track>",
            zulu(at(a, lap.start_s)),
            s.duration,
            s.distance,
            s.max_speed,
            (a.calories * s.duration / a.stats.duration.max(1.0)).round(),
            s.avg_hr.round(),
            s.max_hr.round(),
            if lap.intensity == "REST" || lap.intensity == "RECOVERY" { "Resting" } else { "Active" }
        );
        for p in series::lap_slice(&samples, lap) {
            let _ = write!(out, "          <Trackpoint>\n            <Time>{}</Time>\n", zulu(at(a, p.t)));
            if a.sport().has_gps() {
                let _ = write!(
                    out,
                    "            <Position><LatitudeDegrees>{:.7}</LatitudeDegrees><LongitudeDegrees>{:.7}</LongitudeDegrees></Position>\n            <AltitudeMeters>{:.1}</AltitudeMeters>\n",
                    p.lat, p.lon, p.elev
                );
            }
            let _ = write!(
                out,
                "            <DistanceMeters>{:.1}</DistanceMeters>\n            <HeartRateBpm><Value>{}</Value></HeartRateBpm>\n          </Trackpoint>\n",
                p.dist,
                p.hr.round()
            );
        }
        out.push_str("        </Track>\n      </Lap>\n");
    }
    out.push_str("      <Creator xsi:type=\"Device_t\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n        <Name>Forerunner 965</Name>\n      </Creator>\n");
    out.push_str("    </Activity>\n  </Activities>\n</TrainingCenterDatabase>\n");
    out
}

/// KML with the track as one LineString.
pub(super) fn kml(a: &Activity) -> String {
    let coords: Vec<String> =
        with_gps(a).iter().map(|p| format!("{:.7},{:.7},{:.1}", p.lon, p.lat, p.elev)).collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\">\n  <Document>\n    <name>{}</name>\n    <Placemark>\n      <name>{}</name>\n      <LineString>\n        <tessellate>1</tessellate>\n        <coordinates>{}</coordinates>\n      </LineString>\n    </Placemark>\n  </Document>\n</kml>\n",
        esc(&a.name),
        esc(&a.name),
        coords.join(" ")
    )
}

fn clock_time(secs: f64) -> String {
    let s = secs.round() as i64;
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

fn pace(speed: f64) -> String {
    if speed <= 0.0 {
        return "--".into();
    }
    let s = (1000.0 / speed).round() as i64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// Garmin's CSV split table: one row per lap, then `Summary`.
pub(super) fn csv(a: &Activity) -> String {
    let mut out = String::from(
        "Laps,Time,Cumulative Time,Distance,Avg Pace,Avg HR,Max HR,Total Ascent,Total Descent,Calories,Avg Run Cadence\n",
    );
    let mut cumulative = 0.0;
    for (i, lap) in a.laps.iter().enumerate() {
        let s = &lap.stats;
        cumulative += s.duration;
        let _ = writeln!(
            out,
            "{},{},{},{:.2},{},{},{},{},{},{},{}",
            i + 1,
            clock_time(s.duration),
            clock_time(cumulative),
            s.distance / 1000.0,
            pace(s.avg_speed),
            s.avg_hr.round(),
            s.max_hr.round(),
            s.elev_gain.round(),
            s.elev_loss.round(),
            (a.calories * s.duration / a.stats.duration.max(1.0)).round(),
            s.avg_cadence.round()
        );
    }
    let s = &a.stats;
    let _ = writeln!(
        out,
        "Summary,{},{},{:.2},{},{},{},{},{},{},{}",
        clock_time(s.duration),
        clock_time(s.duration),
        s.distance / 1000.0,
        pace(s.avg_speed),
        s.avg_hr.round(),
        s.max_hr.round(),
        s.elev_gain.round(),
        s.elev_loss.round(),
        a.calories,
        s.avg_cadence.round()
    );
    out
}
