//! `gba scale --plot`: latency against host count, both axes logarithmic, one line per
//! contender, and the published measurements as labelled markers.

use std::path::Path;

use plotters::prelude::*;

use super::params::REFERENCES;
use super::{Contender, Table};

pub fn draw(path: &Path, table: &Table) -> Result<(), String> {
    let values = table
        .latency_ns
        .iter()
        .flatten()
        .copied()
        .chain(REFERENCES.iter().map(|r| r.latency_ns));
    let (low, high) = values.fold((f64::MAX, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (low, high) = (low.max(1.0) / 1e3, high.max(1.0) / 1e3);
    let max_hosts = table.hosts.iter().copied().max().unwrap_or(2).max(128) as f64;
    let root = SVGBackend::new(path, (900, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "barrier latency against host count (SimGrid model)",
            ("sans-serif", 20),
        )
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (1.5f64..max_hosts * 1.3).log_scale(),
            (low * 0.7..high * 1.4).log_scale(),
        )
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("hosts (log scale)")
        .y_desc("µs per barrier (log scale)")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y}"))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(|e| e.to_string())?;
    for (c, contender) in table.contenders.iter().enumerate() {
        let (color, dashed) = style(*contender);
        let color = color.stroke_width(2);
        let points: Vec<(f64, f64)> = table
            .hosts
            .iter()
            .zip(&table.latency_ns)
            .map(|(&hosts, row)| (hosts as f64, row[c] / 1e3))
            .collect();
        let legend = move |(x, y): (i32, i32)| PathElement::new(vec![(x, y), (x + 20, y)], color);
        if dashed {
            chart
                .draw_series(DashedLineSeries::new(points.clone(), 8, 6, color))
                .map_err(|e| e.to_string())?
                .label(contender.name())
                .legend(legend);
        } else {
            chart
                .draw_series(LineSeries::new(points.clone(), color))
                .map_err(|e| e.to_string())?
                .label(contender.name())
                .legend(legend);
        }
        chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 3, color.filled())),
            )
            .map_err(|e| e.to_string())?;
    }
    let marker = BLACK.stroke_width(2);
    chart
        .draw_series(REFERENCES.iter().enumerate().map(|(i, r)| {
            let at = (r.hosts as f64, r.latency_ns / 1e3);
            EmptyElement::at(at)
                + Cross::new((0, 0), 6, marker)
                + Text::new(
                    format!("{:.2} µs {}", r.latency_ns / 1e3, r.label),
                    // Alternately below and above: two measurements share a host count.
                    (8, if i % 2 == 0 { 2 } else { -14 }),
                    ("sans-serif", 12),
                )
        }))
        .map_err(|e| e.to_string())?
        .label("published measurements")
        .legend(move |(x, y)| Cross::new((x + 10, y), 5, marker));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}

/// Each contender's colour, and whether its line is dashed: the dissemination barrier is the
/// same algorithm as Bruck's barrier, so its line lies on Bruck's and is dashed to show both.
fn style(contender: Contender) -> (RGBColor, bool) {
    match contender {
        Contender::Gba => (RGBColor(214, 39, 40), false),
        Contender::OmpiDefault => (RGBColor(44, 160, 44), false),
        Contender::OmpiBruck => (RGBColor(31, 119, 180), false),
        Contender::OmpiRecursiveDoubling => (RGBColor(148, 103, 189), false),
        Contender::Dissemination => (RGBColor(255, 127, 14), true),
    }
}
