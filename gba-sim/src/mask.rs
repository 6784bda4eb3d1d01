//! A set of switch ports in MEMBER_MASK's layout: member m is bit m % 64 of word m / 64.

use crate::layout::MASK_WORDS;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mask(pub [u64; MASK_WORDS]);

impl Mask {
    pub fn contains(&self, m: usize) -> bool {
        m < MASK_WORDS * 64 && self.0[m / 64] & (1 << (m % 64)) != 0
    }

    pub fn insert(&mut self, m: usize) {
        self.0[m / 64] |= 1 << (m % 64);
    }

    pub fn remove(&mut self, m: usize) {
        self.0[m / 64] &= !(1 << (m % 64));
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Members at or above `limit` (reserved bits, or ports the switch does not have).
    pub fn any_at_or_above(&self, limit: usize) -> bool {
        (limit..MASK_WORDS * 64).any(|m| self.contains(m))
    }

    /// The members, in increasing order (set bits only: cheap for small groups).
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + bit
                })
            })
        })
    }

    /// Members of `self` that are not in `other`.
    pub fn minus(&self, other: &Mask) -> Mask {
        let mut out = *self;
        for (w, o) in out.0.iter_mut().zip(other.0) {
            *w &= !o;
        }
        out
    }
}
