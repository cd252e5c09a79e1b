//! The AVS plan as an A4 PDF of its Markdown lines.

use super::{PlanDoc, md};
use crate::report::model::ReportError;
use krilla::Document;
use krilla::geom::Point;
use krilla::page::PageSettings;
use krilla::text::{Font, TextDirection};

/// Characters per PDF line at 8 pt on A4.
const WRAP: usize = 120;

/// The plan as an A4 PDF of its Markdown lines.
pub fn render(doc: &PlanDoc) -> Result<Vec<u8>, ReportError> {
    let font = Font::new(dejavu::sans::regular().into(), 0)
        .ok_or_else(|| ReportError::Pdf("the embedded DejaVu font cannot be read".to_owned()))?;
    let bold = Font::new(dejavu::sans::bold().into(), 0)
        .ok_or_else(|| ReportError::Pdf("the embedded DejaVu font cannot be read".to_owned()))?;
    let mut lines: Vec<(bool, String)> = Vec::new();
    for l in md::lines(doc, str::to_owned) {
        let head = l.starts_with('#');
        let text = l.trim_start_matches('#').trim().to_owned();
        let chars: Vec<char> = text.chars().collect();
        if chars.is_empty() {
            lines.push((false, String::new()));
        }
        for chunk in chars.chunks(WRAP) {
            lines.push((head, chunk.iter().collect()));
        }
    }
    let (w, h) = (595.0, 842.0);
    let settings = PageSettings::from_wh(w, h)
        .ok_or_else(|| ReportError::Pdf("invalid page size".to_owned()))?;
    let per_page = 70;
    let mut doc = Document::new();
    for page_lines in lines.chunks(per_page) {
        let mut page = doc.start_page_with(settings.clone());
        let mut surface = page.surface();
        for (i, (head, text)) in page_lines.iter().enumerate() {
            if text.is_empty() {
                continue;
            }
            let (f, size) = if *head { (&bold, 11.0) } else { (&font, 8.0) };
            surface.draw_text(
                Point::from_xy(40.0, 50.0 + i as f32 * 10.8),
                f.clone(),
                size,
                text,
                false,
                TextDirection::Auto,
            );
        }
        surface.finish();
        page.finish();
    }
    doc.finish().map_err(|e| ReportError::Pdf(format!("{e:?}")))
}
