//! The model's parameters, each with its source. `scale/README.md` tables the same values;
//! a parameter marked *assumption* has no published figure behind it and is exposed as an
//! option of `gba scale` so that its effect can be seen.

use serde::Serialize;

use super::Contender;

/// One link's latency in the fat tree, and of each host's link to the GBA: about 10 ns of
/// cable (2 m at 5 ns/m) plus a share of the switches' forwarding. NVIDIA's Quantum HDR switch
/// (QM8700, 40 ports) forwards port to port in 130 ns (product brief), so a route through one
/// switch (two links) models 200 ns against ~150 ns, and one through three (four links)
/// 400 ns against ~410 ns.
pub const LINK_LATENCY_NS: f64 = 100.0;
/// HDR InfiniBand, 200 Gb/s per port. Barrier messages carry 0 (MPI) or 8 (GBA) bytes, so the
/// bandwidth adds under a nanosecond.
pub const LINK_BANDWIDTH_BPS: f64 = 25e9;
/// Switch radix of the fat tree: 40-port HDR switches; a two-level tree with 20 hosts and 20
/// up-links per leaf and 40 leaves holds 800 hosts at full bisection.
pub const TWO_LEVEL_HOSTS: usize = 800;
/// SimGrid's `topo_parameters` of the two-level tree (levels; down-links; up-links; parallel).
pub const TWO_LEVEL_TREE: &str = "2;20,40;1,20;1,1";
/// Beyond 800 hosts: three levels of the same switches, the core using 11 of its 40 ports
/// (20 × 20 × 11 = 4,400 hosts).
pub const THREE_LEVEL_TREE: &str = "3;20,20,11;1,20,20;1,1,1";
pub const THREE_LEVEL_HOSTS: usize = 4400;
/// The largest host count `gba scale` accepts (a two-level tree of GBAs, see `scale/README.md`).
pub const MAX_HOSTS: usize = 4096;

/// Host software overheads of one MPI message, SMPI's `smpi/os` and `smpi/ois` (sender) and
/// `smpi/or` (receiver). Calibrated: a one-way small message through one switch comes to
/// 0.4 + 0.2 + 0.4 = 1.0 µs, the osu_latency figure of MPI over EDR/HDR InfiniBand (verbs alone,
/// `ib_send_lat`, measure ~0.83 µs at 32 bytes; MPI's matching adds the rest). The even split
/// between sender and receiver is an assumption; a barrier round pays both.
pub const SEND_OVERHEAD_NS: f64 = 400.0;
pub const RECV_OVERHEAD_NS: f64 = 400.0;

/// The GBA's own parameters.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Gba {
    /// One PCIe crossing: the arrival store to the adapter, and the release DMA write into
    /// host memory. *Assumption* from Neugebauer et al., "Understanding PCIe performance for
    /// end host networking" (SIGCOMM 2018): small-transfer round trips of about 0.5 µs, so
    /// ~250 ns for a one-way posted write.
    pub pcie_ns: f64,
    /// The switch pipeline from the last arrival to the first release write. *Assumption*:
    /// as long as forwarding one packet (130 ns, QM8700).
    pub switch_ns: f64,
    /// Per arrival, serialised through one aggregation unit. *Assumption*: one clock at 1 GHz.
    pub arrival_ns: f64,
    /// Per release write, issued one after another by one DMA engine. *Assumption*: one clock.
    pub release_ns: f64,
    /// Ports of one GBA (members of one group): `gba.yaml`'s MAX_MEMBERS.
    pub ports: usize,
}

impl Default for Gba {
    fn default() -> Self {
        Gba {
            pcie_ns: 250.0,
            switch_ns: 130.0,
            arrival_ns: 1.0,
            release_ns: 1.0,
            ports: gba_pac::MAX_MEMBERS,
        }
    }
}

/// A published measurement the model is held against.
#[derive(Clone, Copy, Debug)]
pub struct Reference {
    pub hosts: usize,
    pub latency_ns: f64,
    /// What was measured, and where it was published.
    pub what: &'static str,
    /// A few words for the plot.
    pub label: &'static str,
    /// The contender of the model it is compared with.
    pub compare_with: Contender,
}

pub const REFERENCES: &[Reference] = &[
    Reference {
        hosts: 8,
        latency_ns: 3270.0,
        what: "osu_barrier, 8 nodes x 1 ppn, UCC tl/ucp (openucx/ucc PR #915)",
        label: "UCC tl/ucp barrier",
        compare_with: Contender::OmpiDefault,
    },
    Reference {
        hosts: 8,
        latency_ns: 3570.0,
        what: "osu_barrier, 8 nodes x 1 ppn, hcoll (openucx/ucc PR #915)",
        label: "hcoll barrier",
        compare_with: Contender::OmpiDefault,
    },
    Reference {
        hosts: 128,
        latency_ns: 6010.0,
        what: "8-byte MPI_Allreduce in software, 128 nodes (Graham et al., SHArP, COMHPC 2016)",
        label: "software allreduce",
        compare_with: Contender::OmpiDefault,
    },
    Reference {
        hosts: 128,
        latency_ns: 2830.0,
        what: "8-byte MPI_Allreduce on SHArP in-network aggregation, 128 nodes (Graham et al., 2016)",
        label: "SHArP allreduce",
        compare_with: Contender::Gba,
    },
];
