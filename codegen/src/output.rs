//! The kinds of output a target generates: their names only, which validation (a
//! [`Validated`](crate::Validated) records the outputs it was checked for), targets and the
//! command line share. What each one writes and checks is the emitters' (`crate::emit`).

/// One kind of output; a target generates some or all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Output {
    /// The Rust crate sources (`src/`).
    Rust,
    /// The C header (`include/<device>_regs.h`) and its self-test (`<device>_regs_test.c`).
    C,
    /// CMSIS-SVD (`<device>.svd`).
    Svd,
    /// `registers.md` and its diagrams.
    Docs,
    /// SystemRDL 2.0 (`<device>.rdl`).
    SystemRdl,
    /// IP-XACT 1685-2014 (`<device>.xml`).
    IpXact,
}

impl Output {
    /// Every output, in the order `gba gen` writes them.
    pub const ALL: [Output; 6] = [
        Output::Rust,
        Output::C,
        Output::Svd,
        Output::Docs,
        Output::SystemRdl,
        Output::IpXact,
    ];

    /// The spelling on the command line (`--emit rust,c`).
    pub fn keyword(self) -> &'static str {
        match self {
            Output::Rust => "rust",
            Output::C => "c",
            Output::Svd => "svd",
            Output::Docs => "docs",
            Output::SystemRdl => "systemrdl",
            Output::IpXact => "ipxact",
        }
    }
}

impl std::fmt::Display for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Output::Rust => "Rust",
            Output::C => "C",
            Output::Svd => "SVD",
            Output::Docs => "documentation",
            Output::SystemRdl => "SystemRDL",
            Output::IpXact => "IP-XACT",
        })
    }
}
