//! Which integrity rules could match a text, decided without compiling any of them
//! (`core::needles`): a scan of a small changed file compiled every rule, a few milliseconds
//! per process that every session start after a memory change and every PreCompact paid.
//! The rules' needles are a table here rather than derived at run time because parsing the
//! rules alone costs a millisecond; a test derives them from the patterns and fails, with the
//! table to paste, when a rule changes without them.

use crate::core::needles::{Finder, Needles as Derived};
use std::sync::OnceLock;

/// Per rule (in `integrity::RULES` order): alternatives → clauses → words; `None`: always run.
pub(super) type Needles = Option<&'static [&'static [&'static [&'static str]]]>;

/// The needles of each rule, as `core::needles::derive` gives them.
#[rustfmt::skip]
pub(super) const NEEDLES: &[Needles] = &[
    // instruction-override
    Some(&[
        &[&["above", "earlier", "former", "original", "preceding", "previous", "prior", "safety", "system"], &["all", "any", "every", "these", "those", "your"], &["bypass", "disregard", "forget", "ignore", "override"], &["constraints", "context", "guidelines", "rules"]],
        &[&["above", "earlier", "former", "original", "preceding", "previous", "prior", "safety", "system"], &["bypass", "disregard", "forget", "ignore", "override"], &["directive", "guardrails", "guidance", "instruction", "prompt"]],
        &[&["all", "your"], &["bypass", "disregard", "forget", "ignore", "override"], &["directive", "guardrails", "guidelines", "instruction", "prompt", "rules"]],
    ]),
    // instruction-override
    Some(&[
        &[&[":"], &["actual", "hidden", "new", "real", "secret", "updated"], &["instruction"]],
        &[&["above"], &["all", "everything"], &["disregard", "forget", "ignore"]],
        &[&["above"], &["any", "the", "these", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"]],
        &[&["above"], &["disregard", "ignore"], &["the"]],
        &[&["alert", "inform", "tell", "warn"], &["do"], &["not"], &["the"], &["user"]],
        &[&["alert", "inform", "tell", "warn"], &["don't"], &["the"], &["user"]],
        &[&["alert", "inform", "tell", "warn"], &["never"], &["the"], &["user"]],
        &[&["alerting", "informing", "telling"], &["the"], &["user"], &["without"]],
        &[&["all", "everything"], &["before"], &["disregard", "forget", "ignore"]],
        &[&["all", "everything"], &["disregard", "forget", "ignore"], &["previously"], &["said"]],
        &[&["always", "ignore", "never", "you"], &["from"], &["now"], &["on"]],
        &[&["any", "the", "these", "those", "your"], &["before"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"]],
        &[&["any", "the", "these", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"], &["earlier"]],
        &[&["any", "the", "these", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"], &["given"], &["previously"]],
        &[&["any", "the", "these", "those", "your"], &["directive", "guidance", "instruction", "prompt", "rules"], &["disregard", "forget", "ignore"], &["given"], &["were"], &["you"]],
        &[&["bound"], &["by"], &["longer"], &["no"]],
        &[&["everything"], &["forget"]],
    ]),
    // role-impersonation
    Some(&[
        &[&[":"], &["assistant"]],
        &[&[":"], &["developer", "system"]],
        &[&["<"], &[">"], &["endoftext", "im_end", "im_start", "system"]],
        &[&["<"], &[">"], &["instructions", "system", "system-prompt", "system-reminder", "system_prompt"]],
        &[&["["], &["]"], &["inst", "system"]],
        &[&["a", "an", "dan", "in", "my", "the"], &["are"], &["now"], &["you"]],
        &[&["a", "an", "my", "not", "the"], &["are"], &["pretend"], &["you"]],
        &[&["act"], &["as"], &["dan", "jailbroken", "unfiltered", "unrestricted"]],
        &[&["activate", "enable", "enter"], &["dan", "developer", "god", "jailbreak"], &["mode"]],
    ]),
    // html-comment-instruction
    Some(&[
        &[&["<!--"], &["agent"], &["the"]],
        &[&["<!--"], &["agent", "ai", "assistant", "llm", "model"]],
        &[&["<!--"], &["are"], &["you"]],
        &[&["<!--"], &["asking"], &["without"]],
        &[&["<!--"], &["claude"]],
        &[&["<!--"], &["disregard"]],
        &[&["<!--"], &["do"], &["not"], &["tell"]],
        &[&["<!--"], &["ignore"]],
        &[&["<!--"], &["model"], &["the"]],
        &[&["<!--"], &["must"], &["you"]],
        &[&["<!--"], &["prompt"], &["system"]],
        &[&["<!--"], &["secretly"]],
        &[&["<!--"], &["silently"]],
    ]),
    // download-to-shell
    Some(&[
        &[&["("], &["curl", "wget"], &["sh"]],
        &[&["curl", "fetch", "invoke-webrequest", "iwr", "wget"], &["sh"], &["|"]],
        &[&["curl", "wget"], &["node", "perl", "php", "python", "ruby"], &["|"]],
        &[&["downloadstring", "invoke-webrequest", "iwr"], &["iex"]],
    ]),
    // exfiltration
    Some(&[
        &[&["$(", "`"], &[".aws", ".env", ".git-credentials", ".netrc", ".npmrc", ".ssh", "credentials", "id_ed25519", "id_rsa"], &["base64", "cat", "gzip", "head", "tail", "tar", "xxd"], &["curl", "wget"]],
        &[&["--data", "--form", "--post-file", "--upload-file", "-d", "-f", "-t"], &["@"], &["curl", "wget"]],
        &[&["."], &["<"], &["c", "cat", "etcat"], &["n"]],
        &[&[".aws", ".env", ".netrc", ".npmrc", ".ssh", "credentials", "id_ed25519", "id_rsa"], &["base64", "cat", "tar", "zip"], &["curl", "nc", "ncat", "netcat", "wget"], &["|"]],
        &[&[".aws", ".env", ".ssh", "id_rsa"], &["@"], &["scp"]],
    ]),
    // base64-run
    None,
];

/// The rules' needles as a finder, built once per process.
fn finder() -> &'static Finder {
    static FINDER: OnceLock<Finder> = OnceLock::new();
    FINDER.get_or_init(|| Finder::new(NEEDLES.iter().map(|n| n.map(owned)).collect()))
}

fn owned(alts: &[&[&[&str]]]) -> Derived {
    alts.iter()
        .map(|clauses| {
            clauses
                .iter()
                .map(|words| words.iter().map(|w| (*w).to_string()).collect())
                .collect()
        })
        .collect()
}

/// Which of the `rules` rules may match `text` (`true`: run it); rules beyond the table run.
pub(super) fn candidates(text: &str, rules: usize) -> Vec<bool> {
    let mut may = finder().candidates(text);
    may.resize(rules, true);
    may
}
