//! `gba bench --plot`: the latency distribution of every contender as an SVG, drawn with
//! plotters: one CDF per contender, log-scaled time axis, medians in the legend.

use std::path::Path;

use plotters::prelude::*;

use super::Contender;

pub fn cdf(path: &Path, contenders: &[Contender], title: &str) -> Result<(), String> {
    let samples: Vec<&Contender> = contenders
        .iter()
        .filter(|c| !c.samples.is_empty())
        .collect();
    let low = samples
        .iter()
        .filter_map(|c| c.samples.first())
        .min()
        .copied()
        .unwrap_or(1)
        .max(1) as f64;
    let high = samples
        .iter()
        .filter_map(|c| c.samples.last())
        .max()
        .copied()
        .unwrap_or(10) as f64;
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d((low * 0.9..high * 1.1).log_scale(), 0f64..1f64)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("ns per barrier (log scale)")
        .y_desc("fraction of barriers at or below")
        .draw()
        .map_err(|e| e.to_string())?;
    for (index, contender) in samples.iter().enumerate() {
        let color = Palette99::pick(index).stroke_width(2);
        let n = contender.samples.len() as f64;
        let points = contender
            .samples
            .iter()
            .enumerate()
            .map(|(i, &ns)| (ns.max(1) as f64, (i + 1) as f64 / n));
        chart
            .draw_series(LineSeries::new(points, color))
            .map_err(|e| e.to_string())?
            .label(format!(
                "{} (median {} ns)",
                contender.name,
                contender.median()
            ))
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
