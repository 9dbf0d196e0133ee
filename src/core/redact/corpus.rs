//! The red-team corpus: each kind of secret the rules know, in each encoding a secret turns
//! up in (plain, glued to a word, wrapped onto the next line, %-escaped, base64, hex), and
//! the benign texts that must come out as they went in.
//!
//! Secrets are generated at run time from a fixed seed, so this file holds nothing a secret
//! scanner would flag. `cargo test --lib redaction_matrix -- --nocapture` prints the matrix.

use super::{redact, MARK};
use std::ops::Range;

/// A deterministic generator (`clock::Xorshift`), for random-looking token bodies.
struct Gen(crate::core::clock::Xorshift);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// `n` characters of `alphabet`, with an upper-case letter, a lower-case letter and a
    /// digit among them when the alphabet has them (as a generated key has).
    fn body(&mut self, alphabet: &str, n: usize) -> String {
        let a = alphabet.as_bytes();
        loop {
            let s: String = (0..n)
                .map(|_| char::from(a[usize::try_from(self.next() % a.len() as u64).unwrap()]))
                .collect();
            let has = |f: fn(&u8) -> bool| s.as_bytes().iter().any(f) || !a.iter().any(f);
            if has(u8::is_ascii_uppercase) && has(u8::is_ascii_lowercase) && has(u8::is_ascii_digit)
            {
                return s;
            }
        }
    }
}

const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_DIGIT: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const WORD_DASH: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

/// One secret as it appears in a text.
pub(super) struct Sample {
    pub(super) kind: &'static str,
    pub(super) text: String,
    /// The secret itself: none of it may survive.
    pub(super) secret: Range<usize>,
    /// Where a word glued to the secret goes (before the token, or before its label);
    /// `None` when gluing makes no sense (`Bearer` is a word of a header).
    pub(super) glue_at: Option<usize>,
    /// How many characters of the secret come before a line break at the earliest: a
    /// token is known by its prefix, a value after a label only once it is long enough
    /// not to be a short word (`SORT_KEY=name` on one line and anything on the next).
    pub(super) split_from: usize,
}

impl Sample {
    /// A token standing on its own.
    fn token(kind: &'static str, prefix: &str, body: &str) -> Self {
        Sample::labelled(kind, "", prefix, body, "", 1)
    }

    /// `label`, then the secret (`prefix` + `body`, where the prefix is public), then
    /// `after`.
    fn labelled(
        kind: &'static str,
        label: &str,
        prefix: &str,
        body: &str,
        after: &str,
        split_from: usize,
    ) -> Self {
        let start = label.len() + prefix.len();
        Sample {
            kind,
            text: [label, prefix, body, after].concat(),
            secret: start..start + body.len(),
            glue_at: Some(0),
            split_from,
        }
    }
}

/// Tokens known by their prefix: kind, prefix, body alphabet and length.
const TOKENS: &[(&str, &str, &str, usize)] = &[
    ("aws-access-key", "AKIA", UPPER_DIGIT, 16),
    ("github-ghp", "ghp_", ALNUM, 36),
    ("github-gho", "gho_", ALNUM, 36),
    ("github-ghu", "ghu_", ALNUM, 36),
    ("github-ghs", "ghs_", ALNUM, 36),
    ("github-ghr", "ghr_", ALNUM, 36),
    ("gitlab-pat", "glpat-", WORD_DASH, 20),
    ("google-api-key", "AIza", WORD_DASH, 35),
    ("stripe-live", "sk_live_", ALNUM, 24),
    ("stripe-rk-test", "rk_test_", ALNUM, 24),
    ("openai-project", "sk-proj-", WORD_DASH, 64),
    ("openai-legacy-sk", "sk-", ALNUM, 48),
    ("client-secret", "client_secret_", ALNUM, 24),
    ("npm", "npm_", ALNUM, 36),
];

/// Every kind of secret the rules cover.
pub(super) fn samples() -> Vec<Sample> {
    samples_from(0x9e37_79b9_7f4a_7c15)
}

/// Every kind of secret, with bodies generated from `seed`.
pub(super) fn samples_from(seed: u64) -> Vec<Sample> {
    let mut g = Gen(crate::core::clock::Xorshift::new(seed));
    let mut s: Vec<Sample> = TOKENS
        .iter()
        .map(|&(kind, prefix, alphabet, n)| Sample::token(kind, prefix, &g.body(alphabet, n)))
        .collect();
    let pat = [g.body(ALNUM, 22), g.body(ALNUM, 59)].join("_");
    s.push(Sample::token("github-pat", "github_pat_", &pat));
    let digits = "0123456789";
    let slack = [g.body(digits, 11), g.body(digits, 13), g.body(ALNUM, 24)].join("-");
    s.push(Sample::token("slack-bot", "xoxb-", &slack));
    let ant = format!("api03-{}AA", g.body(WORD_DASH, 93));
    s.push(Sample::token("anthropic", "sk-ant-", &ant));
    let jwt = format!(
        "{}.{}.{}",
        b64url(br#"{"alg":"HS256","typ":"JWT"}"#),
        b64url(br#"{"sub":"1234567890","name":"Ada","iat":1516239022}"#),
        g.body(WORD_DASH, 43)
    );
    s.push(Sample::token("jwt", "eyJ", &jwt[3..]));
    s.extend(labelled_samples(&mut g));
    s
}

/// Secrets known by the label before them.
fn labelled_samples(g: &mut Gen) -> Vec<Sample> {
    let mut s = Vec::new();
    let bearer = g.body(&format!("{ALNUM}._-"), 40);
    let mut b = Sample::labelled("bearer", "Authorization: Bearer ", "", &bearer, "", 1);
    b.glue_at = None;
    s.push(b);
    let pw = format!("p{}", g.body(&format!("{ALNUM}!$*"), 19));
    let after = "@example.com/repo.git";
    s.push(Sample::labelled(
        "url-password",
        "https://alice:",
        "",
        &pw,
        after,
        1,
    ));
    let value = g.body(ALNUM, 32);
    s.push(Sample::labelled(
        "env-assignment",
        "OPENAI_API_KEY=",
        "",
        &value,
        "",
        5,
    ));
    let value = g.body(ALNUM, 28);
    let mut json = Sample::labelled("kv-json", "{\"api_key\": \"", "", &value, "\"}", 8);
    json.glue_at = Some(2);
    s.push(json);
    let value = g.body(ALNUM, 24);
    s.push(Sample::labelled("kv-yaml", "password: ", "", &value, "", 8));
    let body: Vec<String> = (0..4).map(|_| g.body(&format!("{ALNUM}+/"), 64)).collect();
    s.push(Sample::labelled(
        "pem-private-key",
        "-----BEGIN RSA PRIVATE KEY-----\n",
        "",
        &body.join("\n"),
        "\n-----END RSA PRIVATE KEY-----",
        1,
    ));
    s
}

/// The ways a secret is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Encoding {
    Plain,
    Glued(&'static str),
    Split,
    Url,
    Base64,
    Base64Url,
    Hex,
    /// base64 as a folder name of a path (`/` is a base64 character too).
    PathBase64,
}

pub(super) const ENCODINGS: [Encoding; 9] = [
    Encoding::Plain,
    Encoding::Glued("id_"),
    Encoding::Glued("x"),
    Encoding::Split,
    Encoding::Url,
    Encoding::Base64,
    Encoding::Base64Url,
    Encoding::Hex,
    Encoding::PathBase64,
];

impl Encoding {
    pub(super) fn label(self) -> &'static str {
        match self {
            Encoding::Plain => "plain",
            Encoding::Glued("id_") => "glued id_",
            Encoding::Glued(_) => "glued x",
            Encoding::Split => "split \\n",
            Encoding::Url => "url-enc",
            Encoding::Base64 => "base64",
            Encoding::Base64Url => "b64url",
            Encoding::Hex => "hex",
            Encoding::PathBase64 => "b64 path",
        }
    }

    /// The texts that carry `s` in this encoding, each with what must not survive; empty
    /// when the encoding does not apply.
    pub(super) fn apply(self, s: &Sample) -> Vec<(String, Vec<String>)> {
        let secret = s.text[s.secret.clone()].to_string();
        match self {
            Encoding::Plain => vec![(format!("before {} after", s.text), vec![secret])],
            Encoding::Glued(glue) => s
                .glue_at
                .map(|at| {
                    let t = format!("{}{glue}{}", &s.text[..at], &s.text[at..]);
                    (format!("before {t} after"), vec![secret])
                })
                .into_iter()
                .collect(),
            Encoding::Split => split_points(s)
                .into_iter()
                .map(|p| {
                    let at = s.secret.start + p;
                    let t = format!("{}\n{}", &s.text[..at], &s.text[at..]);
                    (format!("before {t} after"), vec![secret.clone()])
                })
                .collect(),
            Encoding::Url => vec![(
                format!("GET /cb?state=1&data={}&x=2 HTTP/1.1", pct(&s.text)),
                vec![secret.clone(), pct(&secret)],
            )],
            Encoding::Base64 => {
                let e = b64(s.text.as_bytes());
                vec![(format!("echo {e} | base64 -d"), vec![e, secret])]
            }
            Encoding::Base64Url => {
                let e = b64url(s.text.as_bytes());
                vec![(format!("data: {e}\n"), vec![e, secret])]
            }
            Encoding::Hex => {
                let e = hex(s.text.as_bytes());
                vec![(format!("printf {e} | xxd -r -p"), vec![e, secret])]
            }
            Encoding::PathBase64 => {
                let e = b64(s.text.as_bytes());
                vec![(format!("wrote src/{e}/out.txt"), vec![e, secret])]
            }
        }
    }
}

/// Where a line break is put into the secret: near its start, at a third, a half and two
/// thirds, and near its end.
pub(super) fn split_points(s: &Sample) -> Vec<usize> {
    let n = s.secret.len();
    let mut p: Vec<usize> = [s.split_from, n / 3, n / 2, 2 * n / 3, n - 6]
        .into_iter()
        .filter(|&p| p >= s.split_from && p < n)
        .filter(|&p| {
            // A break next to one already in the secret (a PEM body) is no new case.
            let t = s.text.as_bytes();
            t[s.secret.start + p] != b'\n' && t[s.secret.start + p - 1] != b'\n'
        })
        .collect();
    p.sort_unstable();
    p.dedup();
    p
}

/// Whether redacting `input` caught the secret: something was counted, no 6-character
/// piece of any `forbidden` text survives (line breaks aside), the result is stable and no
/// mark is split.
pub(super) fn caught(input: &str, forbidden: &[String]) -> Result<(), String> {
    let r = redact(input);
    let flat = r.text.replace(['\n', '\r'], "");
    for f in forbidden {
        let f = f.replace(['\n', '\r'], "");
        let chars: Vec<char> = f.chars().collect();
        if let Some(w) = chars
            .windows(6.min(chars.len()))
            .map(|w| w.iter().collect::<String>())
            .find(|w| flat.contains(w.as_str()))
        {
            return Err(format!("{w:?} survives in {:?}", r.text));
        }
    }
    if r.count == 0 {
        return Err(format!("count 0 for {input:?}"));
    }
    let again = redact(&r.text);
    if again.text != r.text || again.count != 0 {
        return Err(format!("not idempotent: {:?} -> {again:?}", r.text));
    }
    if r.text.matches("REDACTED").count() != r.text.matches(MARK).count() {
        return Err(format!("a split mark in {:?}", r.text));
    }
    Ok(())
}

/// Standard base64, padded.
pub(super) fn b64(bytes: &[u8]) -> String {
    encode64(
        bytes,
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
        true,
    )
}

/// URL-safe base64, unpadded.
pub(super) fn b64url(bytes: &[u8]) -> String {
    encode64(
        bytes,
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
        false,
    )
}

fn encode64(bytes: &[u8], alphabet: &[u8], pad: bool) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let mut acc = [0u8; 3];
        acc[..chunk.len()].copy_from_slice(chunk);
        let n = u32::from(acc[0]) << 16 | u32::from(acc[1]) << 8 | u32::from(acc[2]);
        for i in 0..=chunk.len() {
            out.push(char::from(alphabet[(n >> (18 - 6 * i) & 63) as usize]));
        }
        if pad {
            out.push_str(&"=".repeat(3 - chunk.len()));
        }
    }
    out
}

pub(super) fn hex(bytes: &[u8]) -> String {
    let digits = b"0123456789abcdef";
    bytes
        .iter()
        .flat_map(|b| [digits[usize::from(b >> 4)], digits[usize::from(b & 15)]])
        .map(char::from)
        .collect()
}

/// Every byte but letters and digits %-escaped (`_` as `%5F`, `-` as `%2D`, space as
/// `%20`), as an aggressive URL encoder writes a form body.
pub(super) fn pct(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Texts with no secret in them, which must come out byte for byte.
pub(super) fn benign() -> Vec<String> {
    let mut v: Vec<String> = BENIGN.iter().map(|s| (*s).to_string()).collect();
    let prose = "The quick brown fox jumps over the lazy dog. Tokens, keys and passwords are \
        configured in the vault, never in this file. See docs/security.md for the rotation \
        schedule, and ask #infra if the API key for staging expires.";
    let fixtures: [&[u8]; 6] = [
        b"hello world, this is just base64",
        br#"{"name":"baton","version":"0.1.0","private":true}"#,
        b"MAX_TOKEN=4096\nSORT_KEY=name\nDEBUG=true\n",
        b"user:alice\nrole:admin\n",
        b"fn main() { println!(\"hi\"); }",
        prose.as_bytes(),
    ];
    for f in fixtures {
        v.push(format!("data: {}", b64(f)));
        v.push(format!("echo {} | base64 -d", b64url(f)));
        v.push(format!("xxd -p: {}", hex(f)));
    }
    // A long text base64'd and wrapped at 76 columns, as `base64` prints it, and hex-dumped
    // at 60 columns, as `xxd -p` prints it.
    let long = prose.repeat(3);
    let wrap = |s: String, w: usize| {
        s.as_bytes()
            .chunks(w)
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect::<Vec<_>>()
            .join("\n")
    };
    v.push(format!(
        "$ base64 notes.txt\n{}\n$ ",
        wrap(b64(long.as_bytes()), 76)
    ));
    v.push(format!(
        "$ xxd -p notes.txt\n{}\n",
        wrap(hex(long.as_bytes()), 60)
    ));
    v
}

const BENIGN: &[&str] = &[
    // Rust
    "fn secret_key(&self) -> &str { &self.key }\nlet max_token = tokens.len(); // the token budget",
    "struct Config { password: String, api_key: Option<String>, token_ttl: u64 }",
    "const API_KEY_HEADER: &str = \"x-api-key\";\nif password == \"\" { return Err(e) }",
    "impl Drop for Session { fn drop(&mut self) { self.token.take(); } }",
    "let secret = SecretString::new(read_env(\"DB_PASSWORD\")?);",
    "#[derive(Debug)]\nstruct TaskSk12 { mask_image_transition: bool }",
    "fn task_test_parse_http2_frames() { assert_eq!(parse(&buf), Ok(2)); }",
    // Python
    "def get_token(self):\n    return self._token  # cached for 300 s\n",
    "password = getpass.getpass('Password: ')\nif not password:\n    sys.exit(1)",
    "api_key = os.environ.get('API_KEY')\nheaders = {'Authorization': f'Bearer {api_key}'}",
    "for i, key in enumerate(sorted(d.keys())):\n    print(f'{i}: {key}')",
    // JavaScript / TypeScript
    "const token = await getAccessToken({ scopes: ['read'] });\nfetch(url, { headers });",
    "export const SECRET_NAME = process.env.SECRET_NAME ?? 'default';",
    "interface Props { apiKey?: string; onTokenRefresh: () => void }",
    "document.querySelector('.mask-image-transition').classList.add('task-sk-12');",
    // Go
    "func (c *Client) Token() (string, error) {\n\treturn c.token, nil\n}",
    "type Creds struct {\n\tAPIKey string `json:\"api_key\"`\n\tSecret string `json:\"secret\"`\n}",
    // Java / C#
    "private final String passwordHash = encoder.encode(rawPassword);",
    "public string ApiKey { get; set; } // set from configuration",
    // Shell
    "export PATH=\"$HOME/.cargo/bin:$PATH\"\nAPI_KEY=$API_KEY ./run.sh",
    "if [ -z \"$GITHUB_TOKEN\" ]; then echo 'GITHUB_TOKEN is not set' >&2; exit 1; fi",
    "MAX_TOKEN = 4096\nSORT_KEY=name\nPRIMARY_KEY = 'id'\nif API_KEY == \"\" { }",
    "    OP = token.OP\n    ERRORTOKEN = token.ERRORTOKEN\n    t = next(token_stream)",
    "SORT_KEY=name\nv2\nTOKEN_TTL=3600\n",
    "ls -la /usr/local/lib/python3.12/site-packages/requests-2.31.0.dist-info",
    // SQL
    "SELECT id, password_hash, api_key_id FROM users WHERE token_expires_at < now();",
    // YAML / JSON / TOML config
    "auth_token: null\nretries3: 5\npassword: ${DB_PASSWORD}\n",
    "apiVersion: v1\nkind: ConfigMap\ndata:\n  LOG_LEVEL: info\n  MAX_TOKENS: \"4096\"\n",
    "{\"max_tokens\": 4096, \"model\": \"claude-sonnet\", \"stream\": true}",
    "[server]\nport = 8080\nsecret_file = \"/run/secrets/app\"\n",
    "\"integrity\": \"sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+susLCxgyGfg\"",
    // git output
    "commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 (HEAD -> main)\nAuthor: Ada <ada@example.com>",
    "diff --git a/src/token.rs b/src/token.rs\nindex 83db48f..bf269f4 100644\n--- a/src/token.rs",
    "On branch safety-redact\nChanges not staged for commit:\n\tmodified:   src/core/redact/mod.rs",
    "f8ed355 core: names that say what they are\naae512f renovation: layering test",
    "Merge pull request #42 from baton-dev/fix-token-refresh",
    // build and test logs
    "   Compiling regex-automata v0.4.19\n    Finished `release` profile [optimized] in 25.77s",
    "test core::redact::tests::redaction_is_idempotent ... ok\ntest result: ok. 17 passed",
    "npm WARN deprecated inflight@1.0.6: This module is not supported\nadded 312 packages in 4s",
    "2026-11-30T10:15:00.000Z INFO request_id=7f3a2c token_count=1532 latency_ms=84",
    "E0425: cannot find value `api_token` in this scope\n  --> src/main.rs:12:5",
    "FAILED tests/test_auth.py::test_password_reset - AssertionError: 401 != 200",
    // digests and ids
    "id: 123e4567-e89b-12d3-a456-426614174000\nrequest: 9b2c6f0e-3d4a-4b5c-8e7f-0a1b2c3d4e5f",
    "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "docker pull ghcr.io/baton-dev/baton@sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945",
    "md5 (notes.txt) = d41d8cd98f00b204e9800998ecf8427e\nsha1: da39a3ee5e6b4b0d3255bfef95601890afd80709",
    "data: aGVsbG8gd29ybGQsIHRoaXMgaXMganVzdCBiYXNlNjQ=",
    "img src=\"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\"",
    "ULID 01ARZ3NDEKTSV4RRFFQ69G5FAV and ASIAN-FOOD-ORDER-2024",
    // CSS / HTML
    ".hero { mask-image-transition: opacity 200ms; -webkit-mask-image: linear-gradient(90deg, #000, transparent); }",
    ".task-sk-12, .risk-assessment-framework-v2 { color: var(--desk-lamp-color); }",
    "<input type=\"password\" name=\"password\" autocomplete=\"current-password\">",
    // URLs
    "See https://example.com/docs/api:v2 and task-sk-12 in the backlog.",
    "https://www.google.com/search?q=rust%20regex%20password%3A%20String&hl=en",
    "GET /oauth/callback?redirect_uri=https%3A%2F%2Fapp.example.com%2Fcb&state=xyz%2D42 HTTP/1.1",
    "mailto:alice%40example.com?subject=Token%20rotation%20next%20week",
    "Listening on http://localhost:3000\nContact: dev@example.com",
    "git clone ssh://git@github.com/baton-dev/baton.git && cd baton",
    "Progress: 100% done, 50%% of %s, %zz is not an escape",
    // prose and markdown
    "The PASSWORD field is required.\nBearer tokens are sent in the Authorization header.",
    "# Secrets\n\nNever commit a token. Rotate the API key monthly; the password policy needs 12 characters.",
    "| key | meaning |\n|-----------------|---------|\n| `api_key` | the provider key |",
    "GitHub tokens start with ghp_ or github_pat_, Slack ones with xoxb-, AWS keys with AKIA.",
    "- [ ] rotate the npm_ token\n- [x] remove the sk- prefix check\n- [ ] document client_secret handling",
    "A JWT has three parts: header.payload.signature, each base64url; eyJ is how `{\"` encodes.",
    "Set `OPENAI_API_KEY` in your shell, then run `baton doctor` to check it is picked up.",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Kinds × encodings caught: every applicable pair must be. Prints the matrix for the
    /// figures in docs/safety.md: `cargo test --lib redaction_matrix -- --nocapture`.
    #[test]
    #[allow(clippy::print_stdout)]
    fn redaction_matrix() {
        let mut failures = Vec::new();
        let mut table = format!("| {:<17} |", "kind");
        let mut rule = format!("|{}|", "-".repeat(19));
        for e in ENCODINGS {
            table.push_str(&format!(" {:<9} |", e.label()));
            rule.push_str(&format!("{}|", "-".repeat(11)));
        }
        table = format!("{table}\n{rule}\n");
        let (mut pairs, mut caught_pairs, mut na) = (0, 0, 0);
        let kinds = samples();
        for s in &kinds {
            table.push_str(&format!("| {:<17} |", s.kind));
            for e in ENCODINGS {
                let cases = e.apply(s);
                let ok = cases
                    .iter()
                    .filter(|(input, forbidden)| match caught(input, forbidden) {
                        Ok(()) => true,
                        Err(why) => {
                            failures.push(format!("{} / {}: {why}", s.kind, e.label()));
                            false
                        }
                    })
                    .count();
                let cell = if cases.is_empty() {
                    na += 1;
                    "n/a".to_string()
                } else {
                    pairs += 1;
                    if ok == cases.len() {
                        caught_pairs += 1;
                    }
                    match (e, ok == cases.len()) {
                        (Encoding::Split, _) => format!("{ok}/{}", cases.len()),
                        (_, true) => "yes".to_string(),
                        (_, false) => "NO".to_string(),
                    }
                };
                table.push_str(&format!(" {cell:<9} |"));
            }
            table.push('\n');
        }
        println!("{table}");
        println!(
            "{} kinds x {} encodings: {caught_pairs} of {pairs} applicable pairs caught, {na} not applicable",
            kinds.len(),
            ENCODINGS.len()
        );
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn the_benign_corpus_is_untouched() {
        let texts = benign();
        assert!(texts.len() >= 60, "{}", texts.len());
        for t in &texts {
            let r = redact(t);
            assert_eq!((r.text.as_str(), r.count), (t.as_str(), 0), "altered");
        }
    }

    /// The matrix over 300 other seeds, by hand: `cargo test --lib redaction_over_seeds --
    /// --ignored --nocapture`. Prints the cases missed; asserts nothing. What is left are
    /// wrapped tails of six characters in one case and no digit (`QJNDDY`, `tevaum`), which
    /// `scan::token_like` cannot tell from a word on the next line.
    #[test]
    #[ignore = "a measurement to run by hand"]
    #[allow(clippy::print_stdout)]
    fn redaction_over_seeds() {
        let mut fails = std::collections::BTreeMap::new();
        let mut total = 0;
        for seed in 1..=300u64 {
            for s in samples_from(seed.wrapping_mul(0x2545_f491_4f6c_dd1d)) {
                for e in ENCODINGS {
                    for (input, forbidden) in e.apply(&s) {
                        total += 1;
                        if let Err(why) = caught(&input, &forbidden) {
                            let k = format!("{} / {}", s.kind, e.label());
                            let entry = fails.entry(k).or_insert((0, String::new()));
                            entry.0 += 1;
                            entry.1 = why;
                        }
                    }
                }
            }
        }
        let missed: usize = fails.values().map(|(n, _)| n).sum();
        println!("{total} cases, {missed} missed");
        for (k, (n, why)) in fails {
            println!("{n:4} {k}: {}", &why[..why.len().min(300)]);
        }
    }
}
