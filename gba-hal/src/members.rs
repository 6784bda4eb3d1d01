//! Sets of members (switch ports), in MEMBER_MASK's layout: member m is bit m % 64 of word
//! m / 64.

use core::fmt;

use gba_pac::group::Group;

/// Words of a member set: the elements of MEMBER_MASK.
pub const WORDS: usize = Group::MEMBER_MASK_COUNT;

/// A set of members: the one type for it in the HAL, the barrier and the simulator. Holds
/// any member below `WORDS * 64`, as MEMBER_MASK's words (public: every bit pattern is a
/// set); whether a member is valid for a device (below its MAX_MEMBERS) is checked by
/// [`GroupConfig`](crate::GroupConfig).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct MemberSet(pub [u64; WORDS]);

impl MemberSet {
    /// Members a set can hold: the switch's MAX_MEMBERS rounded up to whole words.
    pub const CAPACITY: usize = WORDS * 64;

    /// The empty set.
    pub const fn new() -> Self {
        MemberSet([0; WORDS])
    }

    /// The set whose bit m is bit m % 64 of `words[m / 64]` (MEMBER_MASK's layout).
    pub const fn from_words(words: [u64; WORDS]) -> Self {
        MemberSet(words)
    }

    /// The set as MEMBER_MASK words.
    pub const fn words(&self) -> &[u64; WORDS] {
        &self.0
    }

    /// Adds member `m`; returns false (and changes nothing) when `m >= CAPACITY`.
    pub fn insert(&mut self, m: usize) -> bool {
        if m >= Self::CAPACITY {
            return false;
        }
        self.0[m / 64] |= 1 << (m % 64);
        true
    }

    /// Whether `m` is in the set.
    pub fn contains(&self, m: usize) -> bool {
        m < Self::CAPACITY && self.0[m / 64] & (1 << (m % 64)) != 0
    }

    /// Members in the set.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set has no member.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// The highest member, if any.
    pub fn max(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .rev()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + 63 - w.leading_zeros() as usize)
    }

    /// Removes member `m` (nothing happens when it is not in the set).
    pub fn remove(&mut self, m: usize) {
        if m < Self::CAPACITY {
            self.0[m / 64] &= !(1 << (m % 64));
        }
    }

    /// The number of members, as MEMBER_COUNT holds it.
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether a member at or above `limit` is in the set (reserved bits, or ports a switch
    /// does not have).
    pub fn any_at_or_above(&self, limit: usize) -> bool {
        self.max().is_some_and(|m| m >= limit)
    }

    /// Members of `self` that are not in `other`.
    pub fn difference(&self, other: &MemberSet) -> MemberSet {
        let mut out = *self;
        for (w, o) in out.0.iter_mut().zip(other.0) {
            *w &= !o;
        }
        out
    }

    /// The same as [`difference`](Self::difference) (the simulator's name for it).
    pub fn minus(&self, other: &MemberSet) -> MemberSet {
        self.difference(other)
    }

    /// The members in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            core::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    i * 64 + bit
                })
            })
        })
    }
}

impl FromIterator<usize> for MemberSet {
    /// A member at or above [`MemberSet::CAPACITY`] cannot be stored; it marks the set with
    /// the highest member instead, so that validation refuses the set as out of range rather
    /// than losing the member silently.
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        let mut set = MemberSet::new();
        for m in iter {
            if !set.insert(m) {
                set.insert(Self::CAPACITY - 1);
            }
        }
        set
    }
}

/// Compact ranges: `{0-3, 7, 9-10}`.
impl fmt::Display for MemberSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        let mut first = true;
        let mut members = self.iter().peekable();
        while let Some(start) = members.next() {
            let mut end = start;
            while members.peek() == Some(&(end + 1)) {
                end = members.next().unwrap_or(end);
            }
            if !first {
                f.write_str(", ")?;
            }
            first = false;
            if start == end {
                write!(f, "{start}")?;
            } else {
                write!(f, "{start}-{end}")?;
            }
        }
        f.write_str("}")
    }
}

impl fmt::Debug for MemberSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MemberSet{self}")
    }
}

/// A set of group ids (bit g: group g), as GROUPS_BUSY and GROUP_ENABLED hold them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GroupSet(pub u32);

impl GroupSet {
    /// Whether group `g` is in the set.
    pub fn contains(self, g: usize) -> bool {
        g < 32 && self.0 & (1 << g) != 0
    }

    /// The lowest group in the set: the agreed id when every member contributed its free
    /// set and the sets were intersected (docs/datasheet.md section 4).
    pub fn lowest(self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }

    /// Groups in both sets.
    pub fn intersection(self, other: GroupSet) -> GroupSet {
        GroupSet(self.0 & other.0)
    }

    /// The set without group `g`.
    pub fn without(self, g: usize) -> GroupSet {
        GroupSet(self.0 & !(1u32.checked_shl(g as u32).unwrap_or(0)))
    }

    /// The groups in the set, ascending.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..32).filter(move |g| self.contains(*g))
    }
}
