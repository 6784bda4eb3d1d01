//! The table, as text or JSON, with the calibration against published measurements.

use std::fmt::Write;

use super::Table;
use super::params::{self, REFERENCES};

const NOTE: &str = "Simulated time (SimGrid 3.32), one rank per host, deterministic. Software: real MPI code under SMPI on an HDR InfiniBand fat tree, host overheads calibrated to ~1 us one-way MPI latency. GBA: a model whose PCIe, pipeline, per-arrival and per-release costs are assumptions (scale/README.md).";

/// One calibration line: the model against a published figure at the same host count.
struct Check {
    reference: &'static params::Reference,
    model_ns: f64,
}

impl Check {
    fn ratio(&self) -> f64 {
        self.model_ns / self.reference.latency_ns
    }
}

fn checks(table: &Table) -> Vec<Check> {
    REFERENCES
        .iter()
        .filter_map(|reference| {
            let model_ns = table.at(reference.hosts, reference.compare_with)?;
            Some(Check {
                reference,
                model_ns,
            })
        })
        .collect()
}

pub fn text(table: &Table) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "barrier latency in simulated ns (ratio to the GBA in parentheses)"
    );
    let _ = write!(out, "{:>6}", "hosts");
    for contender in &table.contenders {
        let _ = write!(out, "  {:>24}", contender.name());
    }
    out.push('\n');
    for (h, hosts) in table.hosts.iter().enumerate() {
        let _ = write!(out, "{hosts:>6}");
        let gba = table.gba_at(h);
        for latency in &table.latency_ns[h] {
            let cell = match gba {
                Some(gba) if gba > 0.0 => format!("{latency:.0} ({:.2})", latency / gba),
                _ => format!("{latency:.0}"),
            };
            let _ = write!(out, "  {cell:>24}");
        }
        out.push('\n');
    }
    let checks = checks(table);
    if !checks.is_empty() {
        let _ = writeln!(
            out,
            "\ncalibration: the model against published measurements"
        );
        for check in &checks {
            let _ = writeln!(
                out,
                "  {:>4} hosts  {:<13} {:>7.0} ns  vs {:>5.0} ns  ({:.2}x)  {}",
                check.reference.hosts,
                check.reference.compare_with.name(),
                check.model_ns,
                check.reference.latency_ns,
                check.ratio(),
                check.reference.what
            );
        }
    }
    let _ = writeln!(out, "\n{NOTE}");
    out
}

pub fn json(table: &Table) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = table
        .hosts
        .iter()
        .enumerate()
        .map(|(h, hosts)| {
            let gba = table.gba_at(h);
            let results: Vec<serde_json::Value> = table
                .contenders
                .iter()
                .zip(&table.latency_ns[h])
                .map(|(contender, latency)| {
                    serde_json::json!({
                        "name": contender.name(),
                        "latency_ns": latency,
                        "ratio_to_gba": gba.filter(|g| *g > 0.0).map(|g| latency / g),
                    })
                })
                .collect();
            serde_json::json!({ "hosts": hosts, "results": results })
        })
        .collect();
    let calibration: Vec<serde_json::Value> = checks(table)
        .iter()
        .map(|check| {
            serde_json::json!({
                "hosts": check.reference.hosts,
                "measured_ns": check.reference.latency_ns,
                "what": check.reference.what,
                "model": check.reference.compare_with.name(),
                "model_ns": check.model_ns,
                "ratio": check.ratio(),
            })
        })
        .collect();
    serde_json::json!({
        "hosts": table.hosts,
        "contenders": table.contenders.iter().map(|c| c.name()).collect::<Vec<_>>(),
        "rows": rows,
        "calibration": calibration,
        "parameters": {
            "link_latency_ns": params::LINK_LATENCY_NS,
            "link_bandwidth_bps": params::LINK_BANDWIDTH_BPS,
            "send_overhead_ns": params::SEND_OVERHEAD_NS,
            "recv_overhead_ns": params::RECV_OVERHEAD_NS,
            "gba": table.gba,
        },
        "note": NOTE,
    })
}
