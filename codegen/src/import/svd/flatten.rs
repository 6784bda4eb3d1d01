//! Clusters flattened into their peripheral: `CLUSTER_REGISTER` at the cluster's offset plus
//! the register's, with cluster and register arrays kept as register arrays where they can be
//! and expanded element by element where not.

use svd_rs as svd;

use super::warnings::Warnings;
use super::{MAX_ELEMENTS, strip_dim};

/// One register with its place in the block, clusters flattened away.
pub(super) struct Flat {
    pub name: String,
    /// `PERIPHERAL.CLUSTER.REGISTER`, for messages.
    pub at: String,
    pub offset: u64,
    pub array: Option<(u64, u64)>,
    pub info: svd::RegisterInfo,
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
                if let Some(alternate) = &c.alternate_cluster {
                    warnings.warn(
                        &cat,
                        format!("alternateCluster `{alternate}` not represented"),
                    );
                }
                match c {
                    svd::Cluster::Single(info) => {
                        let prefix = format!("{prefix}{}_", info.name);
                        let base = base + u64::from(info.address_offset);
                        flatten(warnings, &info.children, &prefix, &cat, base, outer, out);
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
                    }
                    svd::Cluster::Array(info, dim) => {
                        if u64::from(dim.dim) > MAX_ELEMENTS {
                            warnings.warn(&cat, "cluster array too large to expand: left out");
                            continue;
                        }
                        for element in svd::cluster::expand(info, dim) {
                            let prefix = format!("{prefix}{}_", element.name);
                            let base = base + u64::from(element.address_offset);
                            flatten(warnings, &element.children, &prefix, &cat, base, outer, out);
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
