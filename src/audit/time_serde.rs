//! RFC 3339 (`2026-03-20T14:00:00Z`) for `DateTime<Utc>` fields (chrono is built without its
//! serde feature).

use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Deserializer, Serializer};

fn parse<E: serde::de::Error>(s: &str) -> Result<DateTime<Utc>, E> {
    DateTime::parse_from_rfc3339(s)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| E::custom(format!("{s:?} is not an RFC 3339 time ({e})")))
}

/// A required time.
pub(crate) mod required {
    use super::{parse, DateTime, Deserialize, Deserializer, SecondsFormat, Serializer, Utc};

    pub(crate) fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&t.to_rfc3339_opts(SecondsFormat::Secs, true))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
        parse(&String::deserialize(d)?)
    }
}

/// An optional time.
pub(crate) mod optional {
    use super::{parse, DateTime, Deserialize, Deserializer, SecondsFormat, Serializer, Utc};

    #[allow(clippy::ref_option)]
    pub(crate) fn serialize<S: Serializer>(
        t: &Option<DateTime<Utc>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => s.serialize_str(&t.to_rfc3339_opts(SecondsFormat::Secs, true)),
            None => s.serialize_none(),
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<DateTime<Utc>>, D::Error> {
        match Option::<String>::deserialize(d)? {
            Some(s) => parse(&s).map(Some),
            None => Ok(None),
        }
    }
}
