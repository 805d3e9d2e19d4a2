//! The 6-digit pairing codes that prove, on the consent page, that the person approving holds the
//! owner's computer: the desktop app shows one, `garmin-mcp` prints one when it starts and
//! `garmin-mcp remote pair` prints a fresh one. Each is random, single-use and lives
//! [`CODE_LIFETIME`]; only hashes are kept.
//!
//! Brute force: after [`MAX_FAILURES`] wrong codes in a row every code is void and pairing is locked
//! for [`FIRST_LOCKOUT`], doubling with each lockout up to [`MAX_LOCKOUT`]. A guesser thus gets
//! [`MAX_FAILURES`] tries in a million per code the owner makes; a new code from the owner lifts
//! the lock (the owner is at the computer). Approving with a click in the app is never locked.

use std::time::{Duration, Instant};

use super::{hash, same_secret};

/// A code is valid this long.
pub(crate) const CODE_LIFETIME: Duration = Duration::from_secs(15 * 60);
/// Codes valid at once (the app's, the terminal's, `remote pair`'s).
const MAX_ACTIVE: usize = 3;
/// Wrong codes in a row before the lockout.
pub(crate) const MAX_FAILURES: u32 = 5;
/// The first lockout.
const FIRST_LOCKOUT: Duration = Duration::from_secs(5 * 60);
/// The longest lockout.
const MAX_LOCKOUT: Duration = Duration::from_secs(3600);

#[derive(Debug)]
struct Active {
    hash: String,
    expires: Instant,
    /// The code itself, kept only for the first one (printed once at start; the app asks again).
    shown: Option<String>,
}

/// The codes in force and the failure count.
#[derive(Debug, Default)]
pub(crate) struct Pairing {
    active: Vec<Active>,
    failures: u32,
    lockouts: u32,
    locked_until: Option<Instant>,
}

/// What a typed code got.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Right: the code is now spent.
    Accepted,
    /// Wrong; this many tries are left before the lockout.
    Wrong { left: u32 },
    /// Locked: no code is accepted for this long.
    Locked { for_secs: u64 },
}

impl Pairing {
    /// A new code (and the end of any lockout).
    pub(crate) fn issue(&mut self, now: Instant) -> String {
        let code = random_code();
        self.active.retain(|a| a.expires > now);
        if self.active.len() >= MAX_ACTIVE {
            self.active.remove(0);
        }
        let shown = self.active.is_empty().then(|| code.clone());
        self.active.push(Active { hash: hash(&code), expires: now + CODE_LIFETIME, shown });
        self.failures = 0;
        self.locked_until = None;
        code
    }

    /// The code made at start, while it is still valid and unused.
    pub(crate) fn first_code(&self) -> Option<String> {
        let now = Instant::now();
        self.active.iter().filter(|a| a.expires > now).find_map(|a| a.shown.clone())
    }

    /// Checks a typed code (spaces and dashes ignored).
    pub(crate) fn verify(&mut self, typed: &str, now: Instant) -> Verdict {
        if let Some(until) = self.locked_until {
            if until > now {
                return Verdict::Locked { for_secs: (until - now).as_secs().max(1) };
            }
            self.locked_until = None;
        }
        let digits: String = typed.chars().filter(|c| !c.is_whitespace() && *c != '-').collect();
        let presented = hash(&digits);
        self.active.retain(|a| a.expires > now);
        // Every active code is compared (no early exit), in constant time.
        let mut matched = None;
        for (i, active) in self.active.iter().enumerate() {
            if same_secret(&active.hash, &presented) && digits.len() == 6 {
                matched = Some(i);
            }
        }
        if let Some(i) = matched {
            self.active.remove(i);
            self.failures = 0;
            return Verdict::Accepted;
        }
        self.failures += 1;
        if self.failures >= MAX_FAILURES {
            let lockout = FIRST_LOCKOUT.saturating_mul(1 << self.lockouts.min(10)).min(MAX_LOCKOUT);
            self.lockouts += 1;
            self.failures = 0;
            self.active.clear();
            self.locked_until = Some(now + lockout);
            tracing::warn!("pairing locked for {} s after {MAX_FAILURES} wrong codes", lockout.as_secs());
            return Verdict::Locked { for_secs: lockout.as_secs() };
        }
        Verdict::Wrong { left: MAX_FAILURES - self.failures }
    }
}

/// Six random digits, uniformly (rejection sampling, no modulo bias).
fn random_code() -> String {
    loop {
        let mut bytes = [0u8; 4];
        getrandom::fill(&mut bytes).unwrap_or_else(|e| panic!("the system's random source failed: {e}"));
        let n = u32::from_le_bytes(bytes);
        if n < 4_294_000_000 {
            return format!("{:06}", n % 1_000_000);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_works_once_with_or_without_spaces() {
        let mut pairing = Pairing::default();
        let now = Instant::now();
        let code = pairing.issue(now);
        assert_eq!(code.len(), 6);
        let spaced = format!("{} {}", &code[..3], &code[3..]);
        assert_eq!(pairing.verify(&spaced, now), Verdict::Accepted);
        assert_eq!(pairing.verify(&code, now), Verdict::Wrong { left: MAX_FAILURES - 1 });
    }

    #[test]
    fn pairing_code_brute_force_is_locked_out() {
        let mut pairing = Pairing::default();
        let now = Instant::now();
        let code = pairing.issue(now);
        let wrong = if code == "000000" { "000001" } else { "000000" };
        for left in (1..MAX_FAILURES).rev() {
            assert_eq!(pairing.verify(wrong, now), Verdict::Wrong { left });
        }
        assert_eq!(pairing.verify(wrong, now), Verdict::Locked { for_secs: 300 });
        // Locked: even the right code is refused, and it is void afterwards too.
        assert!(matches!(pairing.verify(&code, now), Verdict::Locked { .. }));
        let later = now + Duration::from_secs(301);
        assert!(matches!(pairing.verify(&code, later), Verdict::Wrong { .. }));
        // The next lockout is twice as long; a new code from the owner lifts it.
        for _ in 0..MAX_FAILURES {
            pairing.verify(wrong, later);
        }
        assert_eq!(pairing.verify(wrong, later), Verdict::Locked { for_secs: 600 });
        let fresh = pairing.issue(later);
        assert_eq!(pairing.verify(&fresh, later), Verdict::Accepted);
    }

    #[test]
    fn codes_expire_and_only_three_live_at_once() {
        let mut pairing = Pairing::default();
        let now = Instant::now();
        let first = pairing.issue(now);
        assert_eq!(pairing.first_code().as_deref(), Some(first.as_str()));
        let codes: Vec<String> = (0..3).map(|_| pairing.issue(now)).collect();
        // The first was pushed out by the three newer ones (unless a random repeat).
        if !codes.contains(&first) {
            assert!(matches!(pairing.verify(&first, now), Verdict::Wrong { .. }));
        }
        assert_eq!(pairing.verify(&codes[1], now), Verdict::Accepted);
        assert!(matches!(pairing.verify(&codes[2], now + CODE_LIFETIME), Verdict::Wrong { .. }));
    }
}
