//! YAML input and markdown front matter.
//!
//! Save-type commands take their content as YAML on stdin (one call for the model instead of
//! many); an error names the key that is wrong. Relay packets and handoff artefacts are
//! markdown with a YAML front matter block between `---` lines.

use super::error::{Error, Result};
use super::redact::Redactor;
use serde::de::DeserializeOwned;

/// Parses `text` as YAML into `T`; `what` names the input in the error ("stdin", a path).
/// Empty input is the empty mapping, so every-key-optional inputs accept it. The error
/// (`Error::Yaml`: the key's path, `.` for the top level, `None` for a syntax error) is one
/// line.
pub fn parse<T: DeserializeOwned>(text: &str, what: &str) -> Result<T> {
    parse_value(value_of(text, what)?, what)
}

/// Like `parse`, with every string of the input redacted first, as it came (its line breaks
/// in place): a writer may fold a value onto one line, join it, clip it or encode it, and a
/// secret split by a line break is only recognised before that (DESIGN.md, "Trust":
/// redaction runs before any transformation).
pub fn parse_redacted<T: DeserializeOwned>(text: &str, what: &str, red: &Redactor) -> Result<T> {
    let mut value = value_of(text, what)?;
    redact_strings(&mut value, red);
    parse_value(value, what)
}

/// Every string scalar of `value` (keys aside) redacted in place.
fn redact_strings(value: &mut serde_yaml_ng::Value, red: &Redactor) {
    use serde_yaml_ng::Value;
    match value {
        Value::String(s) => {
            let r = red.redact(s);
            if r.count > 0 {
                *s = r.text;
            }
        }
        Value::Sequence(items) => items.iter_mut().for_each(|v| redact_strings(v, red)),
        Value::Mapping(m) => m.iter_mut().for_each(|(_, v)| redact_strings(v, red)),
        Value::Tagged(t) => redact_strings(&mut t.value, red),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

fn yaml_error(key: Option<String>, message: &str) -> Error {
    Error::Yaml {
        key,
        message: message.replace(['\n', '\r'], " "),
    }
}

/// `text` as a YAML value (empty input: the empty mapping).
fn value_of(text: &str, what: &str) -> Result<serde_yaml_ng::Value> {
    if text.trim().is_empty() {
        return Ok(serde_yaml_ng::Value::Mapping(serde_yaml_ng::Mapping::new()));
    }
    serde_yaml_ng::from_str(text)
        .map_err(|e| yaml_error(None, &format!("{what}: not valid YAML: {e}")))
}

fn parse_value<T: DeserializeOwned>(value: serde_yaml_ng::Value, what: &str) -> Result<T> {
    let error = |key: Option<String>, message: String| yaml_error(key, &message);
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let line = match path.as_str() {
            "." => format!("{what}: {}", e.inner()),
            key => format!("{what}: key `{key}`: {}", e.inner()),
        };
        error(Some(path), line)
    })
}

/// Splits a markdown text into its front matter (without the `---` lines) and its body.
/// `None` when the text does not start with a front matter block.
pub fn split_front_matter(text: &str) -> Option<(&str, &str)> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            let yaml = &rest[..offset];
            let body = &rest[offset + line.len()..];
            return Some((yaml, body));
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq, Default)]
    #[serde(default, deny_unknown_fields)]
    struct Input {
        doing: String,
        left: Vec<String>,
    }

    #[test]
    fn parses_and_names_the_bad_key() {
        let ok: Input = parse("doing: x\nleft: [a, b]\n", "stdin").unwrap();
        assert_eq!(ok.left, vec!["a", "b"]);
        let empty: Input = parse("", "stdin").unwrap();
        assert_eq!(empty, Input::default());
        let key = |text: &str| match parse::<Input>(text, "stdin") {
            Err(Error::Yaml { key, .. }) => key,
            other => panic!("{other:?}"),
        };
        assert_eq!(key("doing: x\nleft: 3\n").as_deref(), Some("left"));
        assert_eq!(key("doign: x\n").as_deref(), Some("doign"));
        assert_eq!(key("[1]").as_deref(), Some("."));
        assert_eq!(key("a: [\n"), None);
    }

    #[test]
    fn front_matter_split() {
        let (fm, body) = split_front_matter("---\na: 1\nb: 2\n---\n# Title\n").unwrap();
        assert_eq!(fm, "a: 1\nb: 2\n");
        assert_eq!(body, "# Title\n");
        assert!(split_front_matter("# no front matter\n").is_none());
        assert!(split_front_matter("---\nunterminated: 1\n").is_none());
        let (fm, body) = split_front_matter("---\n---\nbody").unwrap();
        assert_eq!((fm, body), ("", "body"));
    }
}
