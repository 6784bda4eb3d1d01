//! Where a value came from in the spec file, so that every diagnostic can point at it.

use std::ops::Deref;

/// A position in the spec source: 1-based line and column, plus the byte range that the
/// value occupies (used to underline it in a diagnostic).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    /// 1-based line (0: not written in any file).
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// Byte offset of the value's first byte in the text.
    pub byte_start: usize,
    /// Length of the value's text in bytes.
    pub byte_len: usize,
}

impl Loc {
    /// Converts serde-saphyr's location. `source` is the parsed text: parser errors carry
    /// only character offsets (their byte offsets are a "not known" sentinel), which are
    /// turned into byte offsets here.
    pub(crate) fn from_saphyr(location: &serde_saphyr::Location, source: &str) -> Self {
        let span = location.span();
        let known = |value: Option<u64>| {
            value
                .filter(|v| *v < u64::from(u32::MAX))
                .and_then(|v| usize::try_from(v).ok())
        };
        let (byte_start, byte_len) = match (known(span.byte_offset()), known(span.byte_len())) {
            (Some(start), Some(len)) => (start, len),
            _ => {
                let chars = usize::try_from(span.offset()).unwrap_or(usize::MAX);
                let len = usize::try_from(span.len()).unwrap_or(0);
                let start = source
                    .char_indices()
                    .nth(chars)
                    .map_or(source.len(), |(i, _)| i);
                let end = source
                    .char_indices()
                    .nth(chars.saturating_add(len))
                    .map_or(source.len(), |(i, _)| i);
                (start, end.saturating_sub(start))
            }
        };
        Loc {
            line: u32::try_from(location.line()).unwrap_or(u32::MAX),
            column: u32::try_from(location.column()).unwrap_or(u32::MAX),
            byte_start,
            byte_len,
        }
    }
}

/// A value together with the place in the spec where it was written.
///
/// Equality and ordering ignore the location: two specs that say the same thing in different
/// places are equal (this is what round-trip tests and `gba diff` need).
#[derive(Clone, Copy, Debug, Default)]
pub struct Located<T> {
    /// The value.
    pub value: T,
    /// Where it was written ([`Loc::default`] for a value no file wrote).
    pub loc: Loc,
}

impl<T> Located<T> {
    /// A value written at `loc`.
    pub fn new(value: T, loc: Loc) -> Self {
        Located { value, loc }
    }

    /// A value that was not written in any file (defaults, values built by importers).
    pub fn synthetic(value: T) -> Self {
        Located {
            value,
            loc: Loc::default(),
        }
    }
}

impl<T> Deref for Located<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: PartialEq> PartialEq for Located<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: Eq> Eq for Located<T> {}
