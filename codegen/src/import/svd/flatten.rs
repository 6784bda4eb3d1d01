//! Clusters flattened into their peripheral: `CLUSTER_REGISTER` at the cluster's offset plus
//! the register's, with cluster and register arrays kept as register arrays where they can be
//! and expanded element by element where not. A cluster's `<alternateCluster>` is kept on its
//! registers, for `overlaps.rs`: each is an alternate of what it overlaps, preferably its
//! counterpart in the named cluster.

use svd_rs as svd;

use super::warnings::Warnings;
use super::{MAX_ELEMENTS, strip_dim};
use crate::import::Treatment;

/// One register with its place in the block, clusters flattened away.
pub(super) struct Flat {
    pub name: String,
    /// `PERIPHERAL.CLUSTER.REGISTER`, for messages.
    pub at: String,
    pub offset: u64,
    pub array: Option<(u64, u64)>,
    pub info: svd::RegisterInfo,
    /// In a cluster that declares `<alternateCluster>`: the register of the named cluster
    /// that this one is most likely a view of (same place in it, flattened:
    /// `MODE1_CTRL` → `MODE0_CTRL`); the innermost such cluster decides.
    pub cluster_alternate: Option<String>,
}

/// Registers of `children`, clusters flattened: `CLUSTER_REGISTER` at the cluster's
/// offset plus the register's. A `[%s]` cluster array whose contents hold no array
/// becomes register arrays; any other cluster array is expanded element by element.
pub(super) fn flatten(
    warnings: &mut Warnings,
    children: &[svd::RegisterCluster],
    prefix: &str,
    at: &str,
    base: u64,
    outer: Option<(u64, u64)>,
    out: &mut Vec<Flat>,
) {
    for child in children {
        match child {
            svd::RegisterCluster::Register(r) => {
                flat_register(warnings, r, prefix, at, base, outer, out);
            }
            svd::RegisterCluster::Cluster(c) => {
                let cat = format!("{at}.{}", strip_dim(&c.name));
                // The registers of a cluster that is another view of a sibling cluster:
                // each names its counterpart there, by the place within the cluster.
                let mark = |out: &mut Vec<Flat>, first: usize, own: &str| {
                    let Some(alternate) = &c.alternate_cluster else {
                        return;
                    };
                    let named = format!("{prefix}{}_", strip_dim(alternate));
                    for flat in &mut out[first..] {
                        if flat.cluster_alternate.is_none()
                            && let Some(rest) = flat.name.strip_prefix(own)
                        {
                            flat.cluster_alternate = Some(format!("{named}{rest}"));
                        }
                    }
                };
                let first = out.len();
                match c {
                    svd::Cluster::Single(info) => {
                        let prefix = format!("{prefix}{}_", info.name);
                        let base = base + u64::from(info.address_offset);
                        flatten(warnings, &info.children, &prefix, &cat, base, outer, out);
                        mark(out, first, &prefix);
                    }
                    svd::Cluster::Array(info, dim)
                        if outer.is_none()
                            && info.name.contains("[%s]")
                            && !has_arrays(&info.children) =>
                    {
                        let prefix = format!("{prefix}{}_", strip_dim(&info.name));
                        let base = base + u64::from(info.address_offset);
                        let outer = Some((u64::from(dim.dim), u64::from(dim.dim_increment)));
                        flatten(warnings, &info.children, &prefix, &cat, base, outer, out);
                        mark(out, first, &prefix);
                    }
                    svd::Cluster::Array(info, dim) => {
                        if u64::from(dim.dim) > MAX_ELEMENTS {
                            warnings.warn(
                                Treatment::LeftOut,
                                &cat,
                                "cluster array too large to expand: left out",
                            );
                            continue;
                        }
                        for element in svd::cluster::expand(info, dim) {
                            let prefix = format!("{prefix}{}_", element.name);
                            let base = base + u64::from(element.address_offset);
                            let first = out.len();
                            flatten(warnings, &element.children, &prefix, &cat, base, outer, out);
                            mark(out, first, &prefix);
                        }
                    }
                }
            }
        }
    }
}

fn flat_register(
    warnings: &mut Warnings,
    r: &svd::Register,
    prefix: &str,
    at: &str,
    base: u64,
    outer: Option<(u64, u64)>,
    out: &mut Vec<Flat>,
) {
    let push = |out: &mut Vec<Flat>, info: &svd::RegisterInfo, array| {
        let name = format!("{prefix}{}", strip_dim(&info.name));
        out.push(Flat {
            at: format!("{at}.{}", strip_dim(&info.name)),
            name,
            offset: base + u64::from(info.address_offset),
            array,
            info: info.clone(),
            cluster_alternate: None,
        });
    };
    match r {
        svd::Register::Single(info) => push(out, info, outer),
        // `flatten` only passes an outer array down to contents without arrays.
        svd::Register::Array(info, dim) if info.name.contains("[%s]") && outer.is_none() => {
            push(
                out,
                info,
                Some((u64::from(dim.dim), u64::from(dim.dim_increment))),
            );
        }
        svd::Register::Array(info, dim) => {
            if u64::from(dim.dim) > MAX_ELEMENTS {
                warnings.warn(
                    Treatment::LeftOut,
                    format!("{at}.{}", info.name),
                    "register array too large: left out",
                );
                return;
            }
            for element in svd::register::expand(info, dim) {
                push(out, &element, outer);
            }
        }
    }
}

fn has_arrays(children: &[svd::RegisterCluster]) -> bool {
    children.iter().any(|c| match c {
        svd::RegisterCluster::Register(r) => r.is_array(),
        svd::RegisterCluster::Cluster(c) => c.is_array() || has_arrays(&c.children),
    })
}
