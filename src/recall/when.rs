//! The dates `--since` / `--until` (and the MCP tools' `since` / `until`) take: a day
//! (`2026-11-30`, midnight UTC), a day and time as recall prints them (`2026-11-30 10:15`), an
//! RFC 3339 time (`2026-11-30T10:15:00Z`, any offset), or an age (`30m`, `12h`, `7d`, `2w`),
//! `today`, `yesterday`. Anything else is a usage error that lists these.

use crate::core::error::{Error, Result};
use crate::core::time;
use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, Utc};

/// `value` as a time; `what` names the option in the error.
pub(crate) fn parse(value: &str, now: DateTime<Utc>, what: &str) -> Result<DateTime<Utc>> {
    let v = value.trim();
    let bad = || {
        Error::Usage(format!(
            "{what} {:?} is not a date: use YYYY-MM-DD, an RFC 3339 time like 2026-11-30T10:15:00Z, or an age like 30m, 12h, 7d, 2w",
            crate::core::text::clip(value, 60)
        ))
    };
    if let Some(t) = time::parse(v) {
        return Ok(t);
    }
    if let Ok(d) = NaiveDate::parse_from_str(v, "%Y-%m-%d") {
        return d.and_hms_opt(0, 0, 0).map(|t| t.and_utc()).ok_or_else(bad);
    }
    if let Ok(t) = NaiveDateTime::parse_from_str(v, "%Y-%m-%d %H:%M") {
        return Ok(t.and_utc());
    }
    let midnight = now.date_naive().and_hms_opt(0, 0, 0).map(|t| t.and_utc());
    match v.to_ascii_lowercase().as_str() {
        "today" => return midnight.ok_or_else(bad),
        "yesterday" => return midnight.map(|m| m - Duration::days(1)).ok_or_else(bad),
        _ => {}
    }
    let split = v.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let (n, unit) = v.split_at(split);
    let n: i64 = n.parse().map_err(|_| bad())?;
    let age = match unit {
        "m" | "min" => Duration::try_minutes(n),
        "h" => Duration::try_hours(n),
        "d" => Duration::try_days(n),
        "w" => Duration::try_weeks(n),
        _ => None,
    }
    .ok_or_else(bad)?;
    now.checked_sub_signed(age).ok_or_else(bad)
}

/// Checks that `since` comes before `until`.
pub(crate) fn check_range(
    since: Option<DateTime<Utc>>,
    until: Option<DateTime<Utc>>,
) -> Result<()> {
    match (since, until) {
        (Some(s), Some(u)) if s >= u => Err(Error::Usage(format!(
            "--since {} is not before --until {}: nothing can match",
            time::rfc3339(s),
            time::rfc3339(u)
        ))),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        time::parse("2026-11-30T10:15:00Z").unwrap()
    }

    #[test]
    fn days_times_and_ages() {
        let p = |v: &str| time::rfc3339(parse(v, now(), "--since").unwrap());
        assert_eq!(p("2026-11-28"), "2026-11-28T00:00:00Z");
        assert_eq!(p("2026-11-28 09:30"), "2026-11-28T09:30:00Z");
        assert_eq!(p("2026-11-28T10:00:00+01:00"), "2026-11-28T09:00:00Z");
        assert_eq!(p("7d"), "2026-11-23T10:15:00Z");
        assert_eq!(p("12h"), "2026-11-29T22:15:00Z");
        assert_eq!(p("2w"), "2026-11-16T10:15:00Z");
        assert_eq!(p("30m"), "2026-11-30T09:45:00Z");
        assert_eq!(p("today"), "2026-11-30T00:00:00Z");
        assert_eq!(p("Yesterday"), "2026-11-29T00:00:00Z");
    }

    #[test]
    fn other_formats_are_clear_errors() {
        for bad in [
            "28/11/2026",
            "Nov 28",
            "last week",
            "7",
            "7y",
            "99999999999999999999d",
            "9999999999999w",
            "2026-13-01",
            "",
        ] {
            let e = parse(bad, now(), "--since").unwrap_err();
            assert!(
                e.to_string().contains("is not a date: use YYYY-MM-DD"),
                "{bad}: {e}"
            );
            assert_eq!(e.exit_code(), 2);
        }
    }

    #[test]
    fn since_must_come_before_until() {
        let t = |s| time::parse(s);
        assert!(check_range(t("2026-11-30T00:00:00Z"), t("2026-11-29T00:00:00Z")).is_err());
        assert!(check_range(t("2026-11-28T00:00:00Z"), t("2026-11-29T00:00:00Z")).is_ok());
        assert!(check_range(None, t("2026-11-29T00:00:00Z")).is_ok());
    }
}
