//! FNV-1a (64 bit): a small, stable, non-cryptographic hash for ids and cache keys that must
//! come out the same in every version of baton (std's hasher may change between releases).

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// FNV-1a of `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(OFFSET, |h, b| step(h, *b))
}

/// FNV-1a of `parts`, each followed by a zero byte (so `["ab","c"]` and `["a","bc"]` differ).
pub fn fnv1a_parts(parts: &[&str]) -> u64 {
    parts.iter().fold(OFFSET, |h, p| {
        p.bytes().chain(std::iter::once(0)).fold(h, step)
    })
}

/// SHA-1 of `bytes` as 40 hex digits (libgit2's collision-detecting SHA-1, as git uses):
/// for digests that must not be forgeable, unlike FNV, by someone who can choose the text
/// (the bridge's provenance ledger).
pub fn sha1_hex(bytes: &[u8]) -> String {
    git2::Oid::hash_object(git2::ObjectType::Blob, bytes)
        .map_or_else(|_| format!("fnv-{:016x}", fnv1a(bytes)), |o| o.to_string())
}

/// FNV-1a as a `Hasher`, for maps of short keys built on a hot path (std's SipHash costs more
/// per key than the work around it); not for keys an attacker chooses to collide.
#[derive(Debug, Clone, Copy)]
pub struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(OFFSET)
    }
}

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        self.0 = bytes.iter().fold(self.0, |h, b| step(h, *b));
    }
}

fn step(h: u64, b: u8) -> u64 {
    (h ^ u64::from(b)).wrapping_mul(PRIME)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
