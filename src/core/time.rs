//! How baton writes a time: RFC 3339 in UTC with a `Z`, to the second (state files, front
//! matter) or to the millisecond (audit records, which several hooks may write in one
//! second). Reading goes through chrono (`DateTime::parse_from_rfc3339`), which takes any
//! offset.

use chrono::{DateTime, SecondsFormat, Utc};

/// `2026-11-30T10:15:00Z`.
pub fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// `2026-11-30T10:15:00.123Z`.
pub fn rfc3339_millis(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// Parses an RFC 3339 time with any offset into UTC.
pub fn parse(text: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(text.trim())
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// How old an entry is, for people: `just now`, `5 hours ago`, `1 day ago`, `12 days ago`;
/// an entry stamped with a day only is `today` on that day. One stamped after now (a clock
/// that is off) is `just now` within the hour, else `dated in the future`, never "yesterday".
pub fn age(then: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let since = now - then;
    let day_only = then.time() == chrono::NaiveTime::MIN;
    if since < chrono::Duration::zero() {
        return if since > -chrono::Duration::hours(1) {
            "just now".into()
        } else {
            "dated in the future".into()
        };
    }
    match (since.num_days(), since.num_hours()) {
        (d, _) if d >= 2 => format!("{d} days ago"),
        (1, _) => "1 day ago".into(),
        _ if day_only || since.num_hours() < 1 => {
            if then.date_naive() == now.date_naive() {
                if day_only {
                    "today".into()
                } else {
                    "just now".into()
                }
            } else {
                "yesterday".into()
            }
        }
        (_, 1) => "1 hour ago".into(),
        (_, h) => format!("{h} hours ago"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_parses() {
        let t = parse("2026-11-30T11:15:00.5+01:00").unwrap();
        assert_eq!(rfc3339(t), "2026-11-30T10:15:00Z");
        assert_eq!(rfc3339_millis(t), "2026-11-30T10:15:00.500Z");
        assert!(parse("yesterday").is_none());
    }

    #[test]
    fn a_stamp_after_now_is_never_yesterday() {
        let now = parse("2026-11-30T23:00:00Z").unwrap();
        let at = |s: &str| age(parse(s).unwrap(), now);
        assert_eq!(at("2026-11-30T23:30:00Z"), "just now");
        assert_eq!(at("2026-12-01T01:00:00Z"), "dated in the future");
        assert_eq!(at("2026-12-05T01:00:00Z"), "dated in the future");
        assert_eq!(at("2026-11-30T21:00:00Z"), "2 hours ago");
        assert_eq!(at("2026-11-29T22:30:00Z"), "1 day ago");
    }
}
