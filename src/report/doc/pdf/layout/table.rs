//! Tables on pages: columns in proportion to their share of the width, titles and
//! cells wrapped inside their column, rows that never split, and the header repeated
//! on every page a table spans.

use super::{
    BAND, BEST_BG, CELL_PAD, HEAD_SIZE, INK, KEY_BG, Layout, MARGIN_X, MUTED, RULE, TABLE_LINE,
    TABLE_SIZE,
};
use crate::report::doc::pdf::fonts::Face;
use crate::report::doc::{Mark, Table};

impl Layout<'_> {
    /// Each column's left edge and width.
    pub(super) fn columns(&self, t: &Table) -> Vec<(f32, f32)> {
        let total: f32 = t.columns.iter().map(|c| c.width).sum::<f32>().max(0.01);
        let mut x = MARGIN_X;
        t.columns
            .iter()
            .map(|c| {
                let w = self.content_width() * c.width / total;
                let at = (x, w);
                x += w;
                at
            })
            .collect()
    }

    /// Height of a table's header row: titles wrap inside their column.
    pub(super) fn header_height(&self, t: &Table, xs: &[(f32, f32)]) -> f32 {
        let lines = t
            .columns
            .iter()
            .zip(xs)
            .map(|(c, &(_, w))| {
                self.fonts
                    .wrap(&c.title, HEAD_SIZE, Face::Bold, w - 2.0 * CELL_PAD)
                    .len()
            })
            .max()
            .unwrap_or(1);
        lines as f32 * 9.0 + 2.0 * CELL_PAD + 1.0
    }

    fn table_header(&mut self, t: &Table, xs: &[(f32, f32)]) {
        let h = self.header_height(t, xs);
        self.rect(MARGIN_X, self.y, self.content_width(), h, BAND);
        for (c, &(x, cw)) in t.columns.iter().zip(xs) {
            let lines = self
                .fonts
                .wrap(&c.title, HEAD_SIZE, Face::Bold, cw - 2.0 * CELL_PAD);
            for (i, line) in lines.iter().enumerate() {
                let tx = if c.numeric {
                    x + cw - CELL_PAD - self.fonts.width(Face::Bold, line, HEAD_SIZE)
                } else {
                    x + CELL_PAD
                };
                let ty = self.y + CELL_PAD + (i as f32 + 1.0) * 9.0 - 1.5;
                self.text(tx, ty, HEAD_SIZE, Face::Bold, MUTED, line);
            }
        }
        self.y += h;
        self.rule(self.y, 0.8, MUTED);
    }

    /// A table: rows never split, and the header repeats on every page it spans.
    pub(super) fn table(&mut self, t: &Table) {
        let xs = self.columns(t);
        let header_h = self.header_height(t, &xs);
        let laid: Vec<(Vec<Vec<String>>, f32, Face)> = t
            .rows
            .iter()
            .map(|row| {
                let face = Face::of(row.mark != Mark::None);
                let wrapped: Vec<Vec<String>> = row
                    .cells
                    .iter()
                    .zip(&xs)
                    .map(|(cell, &(_, w))| {
                        self.fonts
                            .wrap(&cell.text, TABLE_SIZE, face, w - 2.0 * CELL_PAD)
                    })
                    .collect();
                let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1);
                (wrapped, lines as f32 * TABLE_LINE + 2.0 * CELL_PAD, face)
            })
            .collect();
        // The header starts where at least two rows (or the whole table) fit under it;
        // a table of up to four rows is kept together.
        let keep = if laid.len() <= 4 { laid.len() } else { 2 };
        let first_h: f32 = laid.iter().take(keep).map(|(_, h, _)| h).sum();
        self.ensure((header_h + first_h).min(self.usable()));
        self.table_header(t, &xs);
        for (row, (wrapped, h, face)) in t.rows.iter().zip(laid) {
            if self.y + h > self.bottom() {
                self.new_page();
                self.table_header(t, &xs);
            }
            let fill = match row.mark {
                Mark::None => None,
                Mark::Key => Some(KEY_BG),
                Mark::Best => Some(BEST_BG),
            };
            if let Some(color) = fill {
                self.rect(MARGIN_X, self.y, self.content_width(), h, color);
            }
            for ((c, &(x, w)), cell_lines) in t.columns.iter().zip(&xs).zip(&wrapped) {
                for (i, line) in cell_lines.iter().enumerate() {
                    let ty = self.y + CELL_PAD + (i as f32 + 1.0) * TABLE_LINE - 2.5;
                    let tx = if c.numeric {
                        x + w - CELL_PAD - self.fonts.width(face, line, TABLE_SIZE)
                    } else {
                        x + CELL_PAD
                    };
                    self.text(tx, ty, TABLE_SIZE, face, INK, line);
                }
            }
            self.y += h;
            self.rule(self.y, 0.4, RULE);
        }
        self.y += 6.0;
    }
}
