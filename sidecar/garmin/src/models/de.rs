//! Lenient field readers for what Garmin really sends: ids as `1.0E10` or `"3900000006"`, zone
//! numbers as `"2"`, placeholders such as `"user_id: int"`, `null` where a list is expected, and
//! series cells that mix numbers with labels (`[ts, "charging", 45, 1.0]`).
//!
//! Every reader turns an unreadable value into "absent" (`None`, empty) instead of failing the
//! whole body: one odd field must never hide a night's sleep. They are used through
//! `#[serde(deserialize_with = "de::…")]` on models whose container has `#[serde(default)]`.

use std::collections::BTreeMap;
use std::fmt;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::de::{Deserialize, DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::units;

/// Any JSON value, reduced to what the readers need.
#[derive(Debug)]
enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Text(String),
    /// An array or object (consumed and ignored).
    Nested,
}

impl Scalar {
    fn as_f64(&self) -> Option<f64> {
        let v = match self {
            Scalar::Int(i) => *i as f64,
            Scalar::Uint(u) => *u as f64,
            Scalar::Float(f) => *f,
            Scalar::Text(s) => s.trim().parse::<f64>().ok()?,
            Scalar::Null | Scalar::Bool(_) | Scalar::Nested => return None,
        };
        v.is_finite().then_some(v)
    }

    fn as_i64(&self) -> Option<i64> {
        match self {
            Scalar::Int(i) => return Some(*i),
            Scalar::Uint(u) => return i64::try_from(*u).ok(),
            Scalar::Text(s) => {
                if let Ok(i) = s.trim().parse() {
                    return Some(i);
                }
            }
            _ => {}
        }
        let f = self.as_f64()?;
        (f.fract() == 0.0 && f.abs() < 9.2e18).then_some(f as i64)
    }

    fn as_u64(&self) -> Option<u64> {
        match self {
            Scalar::Uint(u) => return Some(*u),
            Scalar::Int(i) => return u64::try_from(*i).ok(),
            Scalar::Text(s) => {
                if let Ok(u) = s.trim().parse() {
                    return Some(u);
                }
            }
            _ => {}
        }
        let f = self.as_f64()?;
        (f.fract() == 0.0 && (0.0..1.8e19).contains(&f)).then_some(f as u64)
    }
}

struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
        Ok(Scalar::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
        Ok(Scalar::Uint(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
        Ok(Scalar::Text(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Scalar, E> {
        Ok(Scalar::Text(v))
    }
    fn visit_none<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_unit<E>(self) -> Result<Scalar, E> {
        Ok(Scalar::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Scalar, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Scalar::Nested)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Scalar, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Scalar::Nested)
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

/// An id: integer, integral float (`1.0E10`) or numeric string; anything else is `None`.
pub(crate) fn id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    Ok(Scalar::deserialize(d)?.as_u64())
}

/// A whole number sent as int, integral float or numeric string (`"2"` zone numbers).
pub(crate) fn int<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    Ok(Scalar::deserialize(d)?.as_i64())
}

/// A measure sent as number or numeric string.
pub(crate) fn num<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Ok(Scalar::deserialize(d)?.as_f64())
}

/// Text that Garmin sometimes sends as a number (`feedbackPhrase: 30`); numbers become their
/// decimal form.
pub(crate) fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Text(s) => Some(s),
        Scalar::Int(i) => Some(i.to_string()),
        Scalar::Uint(u) => Some(u.to_string()),
        Scalar::Float(f) => Some(f.to_string()),
        Scalar::Bool(b) => Some(b.to_string()),
        Scalar::Null | Scalar::Nested => None,
    })
}

/// A flag sent as bool, `0`/`1` or `"true"`/`"false"`.
pub(crate) fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Bool(b) => Some(b),
        Scalar::Text(s) => s.trim().parse().ok(),
        other => other.as_i64().map(|i| i != 0),
    })
}

/// A calendar date: `"2025-06-14"`, the date part of a timestamp, or epoch milliseconds.
pub(crate) fn date<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveDate>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Text(s) => units::parse_date(&s),
        other => other.as_i64().and_then(units::from_epoch_ms).map(|t| t.date_naive()),
    })
}

/// A GMT instant: any Garmin timestamp text read as UTC, or epoch milliseconds.
pub(crate) fn utc<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DateTime<Utc>>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Text(s) => units::parse_timestamp(&s).map(|t| t.and_utc()),
        other => other.as_i64().and_then(units::from_epoch_ms),
    })
}

/// A local wall-clock time: any Garmin timestamp text, or epoch milliseconds of the wall time
/// (how Garmin encodes `…TimestampLocal` numbers).
pub(crate) fn local<'de, D: Deserializer<'de>>(d: D) -> Result<Option<NaiveDateTime>, D::Error> {
    Ok(match Scalar::deserialize(d)? {
        Scalar::Text(s) => units::parse_timestamp(&s),
        other => other.as_i64().and_then(units::local_from_epoch_ms),
    })
}

/// A list that may come as `null`.
pub(crate) fn vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

/// A list of ids, each read like [`id`]; unreadable entries are dropped.
pub(crate) fn ids<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u64>, D::Error> {
    let items = Option::<Vec<Scalar>>::deserialize(d)?.unwrap_or_default();
    Ok(items.iter().filter_map(Scalar::as_u64).collect())
}

/// An object keyed by ids or dates that may come as `null`.
pub(crate) fn map<'de, D, T>(d: D) -> Result<BTreeMap<String, T>, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned,
{
    Ok(Option::<BTreeMap<String, T>>::deserialize(d)?.unwrap_or_default())
}

/// One row of a series; a row that is not an array reads as empty.
struct Row(Vec<Option<f64>>);

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RowVisitor;
        impl<'de> Visitor<'de> for RowVisitor {
            type Value = Row;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a series row")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Row, A::Error> {
                let mut cells = Vec::with_capacity(seq.size_hint().unwrap_or(4));
                while let Some(cell) = seq.next_element::<Scalar>()? {
                    cells.push(cell.as_f64());
                }
                Ok(Row(cells))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Row, A::Error> {
                ScalarVisitor.visit_map(map).map(|_| Row(Vec::new()))
            }
            fn visit_unit<E>(self) -> Result<Row, E> {
                Ok(Row(Vec::new()))
            }
            fn visit_none<E>(self) -> Result<Row, E> {
                Ok(Row(Vec::new()))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Row, E> {
                Ok(Row(Vec::new()))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Row, E> {
                Ok(Row(Vec::new()))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Row, E> {
                Ok(Row(Vec::new()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Row, E> {
                Ok(Row(Vec::new()))
            }
            fn visit_str<E>(self, _: &str) -> Result<Row, E> {
                Ok(Row(Vec::new()))
            }
        }
        d.deserialize_any(RowVisitor)
    }
}

/// A series `[[epochMs, v1, v2…], …]`: numbers (or numeric strings) become `Some`, labels such as
/// `"charging"`/`"MEASURED"` and nulls become `None`; `null` reads as no rows.
pub(crate) fn series<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<Option<f64>>>, D::Error> {
    let rows = Option::<Vec<Row>>::deserialize(d)?.unwrap_or_default();
    Ok(rows.into_iter().map(|r| r.0).collect())
}

/// A single row of numbers (an activity chart row's `metrics`), read like a series row.
pub(crate) fn row<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Option<f64>>, D::Error> {
    Ok(Row::deserialize(d)?.0)
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    #[derive(Debug, Default, Deserialize)]
    #[serde(default)]
    struct T {
        #[serde(deserialize_with = "super::id")]
        id: Option<u64>,
        #[serde(deserialize_with = "super::int")]
        n: Option<i64>,
        #[serde(deserialize_with = "super::text")]
        t: Option<String>,
        #[serde(deserialize_with = "super::vec")]
        v: Vec<u8>,
        #[serde(deserialize_with = "super::series")]
        s: Vec<Vec<Option<f64>>>,
    }

    fn t(json: &str) -> T {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn ids_accept_floats_strings_and_placeholders() {
        assert_eq!(t(r#"{"id": 1.0E10}"#).id, Some(10_000_000_000));
        assert_eq!(t(r#"{"id": "3900000006"}"#).id, Some(3_900_000_006));
        assert_eq!(t(r#"{"id": "user_id: int"}"#).id, None);
        assert_eq!(t(r#"{"id": 1.5}"#).id, None);
        assert_eq!(t(r#"{"id": {"a": 1}}"#).id, None);
        assert_eq!(t(r#"{"id": [1, 2]}"#).id, None);
    }

    #[test]
    fn numbers_and_text_cross_over() {
        assert_eq!(t(r#"{"n": "2"}"#).n, Some(2));
        assert_eq!(t(r#"{"n": 4.0}"#).n, Some(4));
        assert_eq!(t(r#"{"t": 30}"#).t.as_deref(), Some("30"));
    }

    #[test]
    fn nulls_and_odd_rows_never_fail() {
        let v = t(r#"{"v": null, "s": null}"#);
        assert!(v.v.is_empty() && v.s.is_empty());
        let s = t(r#"{"s": [[1, "charging", 45, 1.0], null, 7, [2, null]]}"#).s;
        assert_eq!(s[0], vec![Some(1.0), None, Some(45.0), Some(1.0)]);
        assert!(s[1].is_empty() && s[2].is_empty());
        assert_eq!(s[3], vec![Some(2.0), None]);
    }
}
