//! The estate timeline chart: monthly cost over the months of the timeline, with the
//! months of the resize schedule marked.

use super::super::charts::init_fonts;
use crate::estate::EstatePlan;
use plotters::prelude::*;

/// Width and height of the chart, px.
pub const SIZE: (u32, u32) = (860, 340);

/// The timeline chart as SVG.
pub fn svg(p: &EstatePlan) -> Result<String, String> {
    init_fonts();
    let mut out = String::with_capacity(16 * 1024);
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        draw(&root, p).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    p: &EstatePlan,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let months = p.timeline.len().max(1) as f64;
    let top = p
        .timeline
        .iter()
        .map(|m| m.monthly)
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max)
        .max(1.0)
        * 1.15;
    let mut chart = ChartBuilder::on(root)
        .caption("Monthly cost over the timeline (USD)", ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(72)
        .build_cartesian_2d(0.0..months, 0.0..top)?;
    chart
        .configure_mesh()
        .x_desc("Month")
        .y_desc("USD per month")
        .label_style(("sans-serif", 12))
        .draw()?;
    let blue = RGBColor(37, 99, 235);
    chart.draw_series(LineSeries::new(
        p.timeline
            .iter()
            .map(|m| (f64::from(m.month), m.monthly.clamp(0.0, top))),
        blue.stroke_width(2),
    ))?;
    let orange = RGBColor(234, 88, 12);
    chart.draw_series(p.events.iter().filter_map(|e| {
        let m = p.timeline.get(e.month as usize)?;
        Some(Circle::new(
            (f64::from(e.month), m.monthly.clamp(0.0, top)),
            4,
            orange.filled(),
        ))
    }))?;
    root.present()?;
    Ok(())
}
