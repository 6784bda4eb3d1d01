//! A team's key: 128 random bits that say which processes are one team (docs/design/trust.md
//! "Team keys"). Every rank of a team agrees on rank 0's; the host segment and the kernel driver
//! let a process join a claim only with the claim's key (and, unless the driver's
//! `join_policy=1`, the holder's uid).

use core::fmt;

/// A team's key: 128 bits, never all zero, the same on every rank of the team. Drawn from the
/// kernel's random source ([`TeamKey::random`]), never derived from pids, times or counters: the
/// kernel driver's `join_policy=1` lets any uid that holds the key join, so it must not be
/// guessable. Kept as the two 64-bit words every consumer stores it in (the vote's and the team
/// cache's bytes, little-endian; the host segment's two record words; the driver's `key[2]`).
///
/// `Debug` does not print it (a key in a log is a key handed out); [`LowerHex`](fmt::LowerHex)
/// does, for the administrator's views (`gba dump` of a host segment).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TeamKey([u64; 2]);

impl TeamKey {
    /// Bytes of a key in the vote and the team cache.
    pub const BYTES: usize = 16;

    /// The key of words `words` (word 0 first), `None` for all zeros (no key: a free record,
    /// an empty slot).
    pub const fn from_words(words: [u64; 2]) -> Option<TeamKey> {
        if words[0] == 0 && words[1] == 0 {
            None
        } else {
            Some(TeamKey(words))
        }
    }

    /// The key's two words, word 0 first.
    pub const fn words(self) -> [u64; 2] {
        self.0
    }

    /// The key as 16 little-endian bytes: word 0's, then word 1's.
    pub fn to_le_bytes(self) -> [u8; Self::BYTES] {
        let mut out = [0; Self::BYTES];
        out[..8].copy_from_slice(&self.0[0].to_le_bytes());
        out[8..].copy_from_slice(&self.0[1].to_le_bytes());
        out
    }

    /// The key of 16 little-endian bytes ([`to_le_bytes`](Self::to_le_bytes)'s), `None` for
    /// all zeros.
    pub fn from_le_bytes(bytes: [u8; Self::BYTES]) -> Option<TeamKey> {
        let word = |i: usize| {
            let mut w = [0; 8];
            w.copy_from_slice(&bytes[i * 8..i * 8 + 8]);
            u64::from_le_bytes(w)
        };
        Self::from_words([word(0), word(1)])
    }

    /// 128 bits from the kernel's random source (`getrandom`), `None` when it fails (a kernel
    /// before 3.17, or a seccomp filter refusing the call).
    #[cfg(feature = "std")]
    pub fn random() -> Option<TeamKey> {
        let mut words = [0u64; 2];
        let len = size_of_val(&words);
        // SAFETY: `words` is writable for `len` bytes, which is all getrandom writes.
        let got = unsafe { libc::getrandom(words.as_mut_ptr().cast(), len, 0) };
        if usize::try_from(got) != Ok(len) {
            return None;
        }
        Self::from_words(words)
    }

    /// [`random`](Self::random), or should getrandom fail, two hashes under the standard
    /// library's per-process random hasher keys (which it reads from `/dev/urandom` where
    /// getrandom is missing): a key every time.
    #[cfg(feature = "std")]
    pub fn draw() -> TeamKey {
        use std::hash::{BuildHasher, RandomState};
        Self::random().unwrap_or_else(|| {
            let pid = std::process::id();
            let hash = || RandomState::new().hash_one(pid);
            TeamKey([hash(), hash() | 1])
        })
    }
}

/// `TeamKey(..)`: the key itself is not printed.
impl fmt::Debug for TeamKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TeamKey(..)")
    }
}

/// 32 hex digits, word 1's then word 0's (the 128-bit number the words make).
impl fmt::LowerHex for TeamKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str("0x")?;
        }
        write!(f, "{:016x}{:016x}", self.0[1], self.0[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_and_words_round_trip_and_zero_is_no_key() {
        let key = TeamKey::from_words([0x0807_0605_0403_0201, 0x100f_0e0d_0c0b_0a09]).unwrap();
        let bytes = key.to_le_bytes();
        assert_eq!(bytes, core::array::from_fn(|i| i as u8 + 1));
        assert_eq!(TeamKey::from_le_bytes(bytes), Some(key));
        assert_eq!(TeamKey::from_words([0, 0]), None);
        assert_eq!(TeamKey::from_le_bytes([0; 16]), None);
        assert!(TeamKey::from_words([0, 1]).is_some() && TeamKey::from_words([1, 0]).is_some());
        assert_eq!(format!("{key:#x}"), "0x100f0e0d0c0b0a090807060504030201");
        assert_eq!(format!("{key:?}"), "TeamKey(..)", "Debug hides the key");
    }

    #[cfg(all(feature = "std", not(miri)))]
    #[test]
    fn random_keys_differ_in_both_words() {
        let (a, b) = (TeamKey::random().unwrap(), TeamKey::random().unwrap());
        assert_ne!(a, b);
        // Two 64-bit draws equal by chance: 2^-64; a word left zero would be a 64-bit key.
        assert!(a.words()[0] != b.words()[0] && a.words()[1] != b.words()[1]);
    }
}
