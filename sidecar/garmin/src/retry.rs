//! When and how long to wait before repeating a read that Garmin answered with 429 or 5xx.
//!
//! Reads (GET) are retried a bounded number of times with exponential, jittered backoff, honouring
//! `Retry-After` when Garmin sends one (unless it asks for longer than we are willing to wait, in
//! which case the caller gets `RateLimited` with the delay at once). Writes are never retried
//! blindly: a write that timed out may have happened.

use std::time::Duration;

use chrono::{DateTime, Utc};

/// Retry settings for reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (0 disables retrying).
    pub max_retries: u32,
    /// Delay before the first retry; doubles each time.
    pub base_delay: Duration,
    /// Upper bound of one backoff delay.
    pub max_delay: Duration,
    /// The longest `Retry-After` we wait for; longer requests fail fast as `RateLimited`.
    pub max_retry_after: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    /// The wait before retry number `retry` (0-based): `base × 2^retry`, capped, with ±50 % jitter
    /// so that many processes backing off together do not retry in lockstep.
    pub fn backoff(&self, retry: u32) -> Duration {
        let exp = self.base_delay.saturating_mul(2u32.saturating_pow(retry.min(16)));
        let capped = exp.min(self.max_delay);
        let jitter = 0.5 + fastrand::f64();
        capped.mul_f64(jitter).min(self.max_delay)
    }

    /// The wait before retry number `retry`, or `None` to give up, given Garmin's `Retry-After`.
    pub(crate) fn wait_before(&self, retry: u32, retry_after: Option<Duration>) -> Option<Duration> {
        if retry >= self.max_retries {
            return None;
        }
        match retry_after {
            Some(asked) if asked > self.max_retry_after => None,
            Some(asked) => Some(asked.max(self.backoff(retry).min(asked + Duration::from_millis(250)))),
            None => Some(self.backoff(retry)),
        }
    }
}

/// Parses `Retry-After`: delta-seconds or an HTTP date.
pub(crate) fn parse_retry_after(value: &str, now: DateTime<Utc>) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = DateTime::parse_from_rfc2822(value).ok()?.with_timezone(&Utc);
    Some((when - now).to_std().unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_is_capped_and_jittered() {
        let p = RetryPolicy::default();
        for retry in 0..10 {
            let d = p.backoff(retry);
            let nominal = p.base_delay.saturating_mul(1 << retry).min(p.max_delay);
            assert!(d >= nominal / 2 && d <= p.max_delay, "retry {retry}: {d:?}");
        }
        let spread: std::collections::HashSet<_> = (0..20).map(|_| p.backoff(1)).collect();
        assert!(spread.len() > 1, "jitter should vary the delay");
    }

    #[test]
    fn retry_after_is_honoured_up_to_the_limit_and_retries_are_bounded() {
        let p = RetryPolicy::default();
        assert!(p.wait_before(0, Some(Duration::from_secs(2))).unwrap() >= Duration::from_secs(2));
        assert_eq!(p.wait_before(0, Some(Duration::from_secs(3600))), None);
        assert_eq!(p.wait_before(p.max_retries, None), None);
    }

    #[test]
    fn retry_after_parses_seconds_and_http_dates() {
        let now = DateTime::parse_from_rfc3339("2026-11-29T10:00:00Z").unwrap().with_timezone(&Utc);
        assert_eq!(parse_retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        assert_eq!(parse_retry_after("Sun, 29 Nov 2026 10:00:30 GMT", now), Some(Duration::from_secs(30)));
        assert_eq!(parse_retry_after("soon", now), None);
    }
}
