//! FNV-1a (64 bit): a small, stable, non-cryptographic hash for ids and cache keys that must
//! come out the same in every version of baton (std's hasher may change between releases).

/// The state FNV-1a starts from.
pub const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_on(FNV_START, bytes)
}

/// FNV-1a going on from `h` (the hash of what came before) over `bytes`; usable in a
/// constant, so a hash of fixed texts can be taken when baton is compiled.
pub const fn fnv1a_on(mut h: u64, bytes: &[u8]) -> u64 {
    let mut i = 0;
    while i < bytes.len() {
        h = step(h, bytes[i]);
        i += 1;
    }
    h
}

/// FNV-1a of `parts`, each followed by a zero byte (so `["ab","c"]` and `["a","bc"]` differ).
pub fn fnv1a_parts(parts: &[&str]) -> u64 {
    parts.iter().fold(FNV_START, |h, p| {
        p.bytes().chain(std::iter::once(0)).fold(h, step)
    })
}

/// A quick, non-cryptographic hash of a few bytes, eight at a time: for a decision made of
/// every line of a large text (where runs of a memory file split), where FNV-1a's byte at a
/// time costs milliseconds. Where it splits decides speed only, never a verdict.
pub fn words_hash(bytes: &[u8]) -> u64 {
    let mix = |h: u64, word: u64| {
        let h = (h ^ word).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^ (h >> 32)
    };
    // Whole words read in place; the last piece, if any, padded with zeros.
    let chunks = bytes.chunks_exact(8);
    let rest = chunks.remainder();
    let mut h = chunks.fold(0x9E37_79B9_7F4A_7C15, |h, c| {
        let mut word = [0u8; 8];
        word.copy_from_slice(c);
        mix(h, u64::from_le_bytes(word))
    });
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = mix(h, u64::from_le_bytes(word));
    }
    h
}

/// SHA-1 of `bytes` as 40 hex digits (libgit2's collision-detecting SHA-1, as git uses):
/// for digests that must not be forgeable, unlike FNV, by someone who can choose the text
/// (the bridge's provenance ledger).
pub fn sha1_hex(bytes: &[u8]) -> String {
    git2::Oid::hash_object(git2::ObjectType::Blob, bytes)
        .map_or_else(|_| format!("fnv-{:016x}", fnv1a(bytes)), |o| o.to_string())
}

/// SHA-256 of `bytes` as 64 hex digits, and of its first `prefix` bytes too when there are
/// that many: one pass over them (a file that grew is checked to begin with what it held,
/// and its new digest kept, at once). For digests that must not be forgeable and are not
/// part of a format git or an older baton wrote (those are `sha1_hex`): SHA-256 is not
/// open to SHA-1's collision attacks, and with the CPU's SHA instructions it is many times
/// faster than the collision-detecting SHA-1.
pub fn sha256_hex_with_prefix(bytes: &[u8], prefix: usize) -> (String, Option<String>) {
    use sha2::{Digest, Sha256};
    let hex = |d: &[u8]| {
        d.iter().fold(String::with_capacity(64), |mut s, b| {
            s.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
            s.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
            s
        })
    };
    let mut h = Sha256::new();
    let Some((head, rest)) = bytes.split_at_checked(prefix) else {
        h.update(bytes);
        return (hex(&h.finalize()), None);
    };
    h.update(head);
    let of_head = hex(&h.clone().finalize());
    h.update(rest);
    (hex(&h.finalize()), Some(of_head))
}

/// FNV-1a as a `Hasher`, for maps of short keys built on a hot path (std's SipHash costs more
/// per key than the work around it); not for keys an attacker chooses to collide.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(FNV_START)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = fnv1a_on(self.0, bytes);
    }

    // An integer (a key of hashes or of addresses) in one multiply-and-shift step rather than
    // eight of FNV's: the map's buckets and tags read its high and low bits alike.
    fn write_u64(&mut self, n: u64) {
        let h = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 32);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

const fn step(h: u64, b: u8) -> u64 {
    (h ^ b as u64).wrapping_mul(PRIME)
}

/// A set of 20-byte digests (SHA-1s): their own bytes are already evenly spread, so the set
/// hashes a digest by its first 8 bytes instead of running std's SipHash over all 20 (a
/// ledger of tens of thousands of digests is read into one at a session start).
pub type DigestSet =
    std::collections::HashSet<[u8; 20], std::hash::BuildHasherDefault<DigestHasher>>;

/// The hasher of `DigestSet`: the first 8 bytes written, as they are.
#[derive(Debug, Default, Clone, Copy)]
pub struct DigestHasher(u64);

impl std::hash::Hasher for DigestHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut first = [0u8; 8];
        let n = bytes.len().min(8);
        first[..n].copy_from_slice(&bytes[..n]);
        self.0 ^= u64::from_le_bytes(first);
    }

    // The length an array writes before its bytes.
    fn write_usize(&mut self, _: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `words_hash` decides where the runs of a memory file split, kept between starts: its
    /// values must not change (these are of the byte-at-a-time padded form it was written in).
    #[test]
    fn words_hash_keeps_its_values() {
        assert_eq!(words_hash(b""), 0x9e37_79b9_7f4a_7c15);
        assert_eq!(words_hash(b"a"), 0xedc2_f586_8cfb_ed62);
        assert_eq!(words_hash(b"12345678"), 0x49e4_0579_4537_47ad);
        assert_eq!(
            words_hash(b"**Context:** The module grew.\n"),
            0xd64b_3ed8_7287_8843
        );
    }

    #[test]
    fn known_values() {
        // The reference values of FNV-1a 64.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(fnv1a_parts(&["ab", "c"]), fnv1a_parts(&["a", "bc"]));
        assert_eq!(fnv1a_parts(&["a"]), fnv1a(b"a\0"));
        // `git hash-object` of "hello\n".
        assert_eq!(
            sha1_hex(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
    }

    #[test]
    fn sha256_of_a_text_and_of_its_beginning_in_one_pass() {
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let whole = |b: &[u8]| sha256_hex_with_prefix(b, usize::MAX);
        assert_eq!(whole(b"abc"), (abc.to_string(), None));
        let (of_all, head) = sha256_hex_with_prefix(b"abcdef", 3);
        let abcdef = "bef57ec7f53a6d40beb640a780a639c83bc29ac8a9816f1fc6c5c6dcd93c4721";
        assert_eq!((of_all.as_str(), head.as_deref()), (abcdef, Some(abc)));
        assert_eq!(whole(b"abcdef").0, abcdef);
        assert_eq!(sha256_hex_with_prefix(b"ab", 3).1, None);
        assert_eq!(sha256_hex_with_prefix(b"abc", 3).1.as_deref(), Some(abc));
    }
}
