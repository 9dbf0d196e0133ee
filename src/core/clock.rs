//! Time and randomness. Everything that stamps a record or picks a random suffix asks the
//! clock, so tests can pin both: `BATON_NOW` (RFC 3339) fixes the time for the binary, and
//! `Clock::fixed` does the same in unit tests.

use chrono::{DateTime, Utc};
use std::hash::{BuildHasher, Hasher};

/// A source of the current time and of random numbers.
#[derive(Debug, Clone)]
pub enum Clock {
    /// The system clock.
    System,
    /// A clock stopped at one instant (tests, `BATON_NOW`).
    Fixed(DateTime<Utc>),
}

impl Clock {
    /// A clock stopped at `at`.
    pub fn fixed(at: DateTime<Utc>) -> Self {
        Clock::Fixed(at)
    }

    /// Builds the clock from the value of `BATON_NOW`, if set and valid.
    pub fn from_env_value(value: Option<&str>) -> Self {
        match value.and_then(|v| DateTime::parse_from_rfc3339(v).ok()) {
            Some(at) => Clock::Fixed(at.with_timezone(&Utc)),
            None => Clock::System,
        }
    }

    /// The current time.
    #[allow(clippy::disallowed_methods)] // the one place baton reads the system clock
    pub fn now(&self) -> DateTime<Utc> {
        match self {
            Clock::System => Utc::now(),
            Clock::Fixed(at) => *at,
        }
    }

    /// A random 64-bit number (not cryptographic). A fixed clock gives a value derived from
    /// its instant, so tests stay deterministic.
    #[allow(clippy::disallowed_methods)] // a seed, not the session's time
    pub fn random_u64(&self) -> u64 {
        match self {
            Clock::System => {
                let mut h = std::collections::hash_map::RandomState::new().build_hasher();
                h.write_u128(
                    Utc::now()
                        .timestamp_nanos_opt()
                        .unwrap_or(0)
                        .unsigned_abs()
                        .into(),
                );
                h.write_u32(std::process::id());
                h.finish()
            }
            Clock::Fixed(at) => at.timestamp_nanos_opt().unwrap_or(0).unsigned_abs(),
        }
    }
}

/// A seeded xorshift sequence for tests that try many generated inputs (the same inputs at
/// every run).
#[cfg(test)]
pub(crate) struct Xorshift(u64);

#[cfg(test)]
impl Xorshift {
    pub(crate) fn new(seed: u64) -> Xorshift {
        Xorshift(seed.max(1))
    }

    /// The next number.
    pub(crate) fn next_u64(&mut self) -> u64 {
        let x = &mut self.0;
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// The next number below `n` (`n` > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next_u64() % n as u64).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_clock_from_env_is_stable() {
        let c = Clock::from_env_value(Some("2026-11-30T10:00:00Z"));
        assert_eq!(c.now().to_rfc3339(), "2026-11-30T10:00:00+00:00");
        assert_eq!(c.random_u64(), c.random_u64());
    }

    #[test]
    fn bad_or_missing_env_means_system_clock() {
        assert!(matches!(
            Clock::from_env_value(Some("yesterday")),
            Clock::System
        ));
        assert!(matches!(Clock::from_env_value(None), Clock::System));
    }
}
