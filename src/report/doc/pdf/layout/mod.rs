//! The layouter: places a document's blocks on pages (the first pass; drawing is the
//! second, so each footer knows the page count).
//!
//! Its rules, the same for every report: a heading stays with the start of what follows
//! it; tables break between rows and repeat their header; paragraphs, lists and code
//! break between lines; a chart stays whole, shrinking (down to [`MIN_CHART_SCALE`] of
//! its width) rather than leaving a page half empty; tables are in [`table`], code in
//! [`code`].

mod code;
mod table;

use super::fonts::{Face, Fonts};
use crate::report::Paper;
use crate::report::doc::{Block, Bullet, Doc, Kpi, Tone};

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Rgb(pub u8, pub u8, pub u8);

pub(super) const INK: Rgb = Rgb(0x1b, 0x1f, 0x24);
pub(super) const MUTED: Rgb = Rgb(0x57, 0x60, 0x6a);
pub(super) const RULE: Rgb = Rgb(0xd0, 0xd7, 0xde);
const BAND: Rgb = Rgb(0xf3, 0xf5, 0xf7);
const ACCENT: Rgb = Rgb(0x0b, 0x5c, 0xad);
const KEY_BG: Rgb = Rgb(0xe3, 0xee, 0xfa);
const BEST_BG: Rgb = Rgb(0xe6, 0xf4, 0xea);
const OK: Rgb = Rgb(0x16, 0x65, 0x34);
const WARN: Rgb = Rgb(0x9a, 0x34, 0x12);

pub(super) const MARGIN_X: f32 = 46.0;
pub(super) const MARGIN_TOP: f32 = 50.0;
pub(super) const MARGIN_BOTTOM: f32 = 58.0;

const BODY_SIZE: f32 = 9.5;
const BODY_LINE: f32 = 13.0;
const CALLOUT_SIZE: f32 = 10.0;
const CALLOUT_LINE: f32 = 14.0;
const TABLE_SIZE: f32 = 8.0;
const TABLE_LINE: f32 = 10.0;
const HEAD_SIZE: f32 = 7.5;
const CELL_PAD: f32 = 4.0;
/// Smallest share of its natural size a chart is drawn at to fit a page.
pub(super) const MIN_CHART_SCALE: f32 = 0.62;

/// One thing to draw; y grows downwards, text y is the baseline.
#[derive(Debug, Clone)]
pub(super) enum Op {
    Text {
        x: f32,
        y: f32,
        size: f32,
        face: Face,
        color: Rgb,
        text: String,
    },
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        color: Rgb,
    },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
        color: Rgb,
    },
    /// The `index`-th chart of the document, scaled to `w` x `h` points.
    Chart {
        index: usize,
        x: f32,
        y: f32,
        w: f32,
        h: f32,
    },
}

/// The pages as laid out.
pub(super) struct Layout<'a> {
    fonts: &'a Fonts,
    /// Each chart's size in pixels, in document order.
    charts: &'a [(f32, f32)],
    next_chart: usize,
    width: f32,
    height: f32,
    pub pages: Vec<Vec<Op>>,
    y: f32,
    /// How far down each page is filled, points from the top margin.
    pub filled: Vec<f32>,
    /// Section headings for the PDF outline: title, page index, y.
    pub outline: Vec<(String, usize, f32)>,
}

impl<'a> Layout<'a> {
    pub fn new(fonts: &'a Fonts, paper: Paper, charts: &'a [(f32, f32)]) -> Self {
        let (width, height) = paper.size_pt();
        Layout {
            fonts,
            charts,
            next_chart: 0,
            width,
            height,
            pages: vec![Vec::new()],
            y: MARGIN_TOP,
            filled: vec![0.0],
            outline: Vec::new(),
        }
    }

    fn content_width(&self) -> f32 {
        self.width - 2.0 * MARGIN_X
    }

    fn bottom(&self) -> f32 {
        self.height - MARGIN_BOTTOM
    }

    /// Height of a page's content area.
    pub fn usable(&self) -> f32 {
        self.bottom() - MARGIN_TOP
    }

    fn room(&self) -> f32 {
        self.bottom() - self.y
    }

    fn push(&mut self, op: Op) {
        let low = match &op {
            Op::Text { y, .. } => *y,
            Op::Rect { y, h, .. } | Op::Chart { y, h, .. } => y + h,
            Op::Line { y1, y2, .. } => y1.max(*y2),
        };
        if let (Some(page), Some(filled)) = (self.pages.last_mut(), self.filled.last_mut()) {
            page.push(op);
            *filled = filled.max(low - MARGIN_TOP);
        }
    }

    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.filled.push(0.0);
        self.y = MARGIN_TOP;
    }

    /// Starts a new page unless `h` more points fit on this one.
    fn ensure(&mut self, h: f32) {
        if self.y + h > self.bottom() && self.y > MARGIN_TOP {
            self.new_page();
        }
    }

    fn text(&mut self, x: f32, y: f32, size: f32, face: Face, color: Rgb, text: &str) {
        self.push(Op::Text {
            x,
            y,
            size,
            face,
            color,
            text: text.to_owned(),
        });
    }

    fn rule(&mut self, y: f32, width: f32, color: Rgb) {
        self.push(Op::Line {
            x1: MARGIN_X,
            y1: y,
            x2: self.width - MARGIN_X,
            y2: y,
            width,
            color,
        });
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, color: Rgb) {
        self.push(Op::Rect { x, y, w, h, color });
    }

    /// A wrapped paragraph at the left margin, indented by `indent`, breaking between
    /// lines across pages.
    fn paragraph(&mut self, text: &str, size: f32, face: Face, color: Rgb, indent: f32) {
        let line_h = size * 1.37;
        let lines = self
            .fonts
            .wrap(text, size, face, self.content_width() - indent);
        for line in lines {
            self.ensure(line_h);
            self.y += line_h;
            self.text(
                MARGIN_X + indent,
                self.y - line_h * 0.27,
                size,
                face,
                color,
                &line,
            );
        }
        self.y += size * 0.4;
    }

    /// Lays out the whole document.
    pub fn document(&mut self, d: &Doc) {
        self.title_block(d);
        for (i, b) in d.blocks.iter().enumerate() {
            match b {
                Block::Heading(t) => {
                    let keep = d.blocks.get(i + 1).map_or(0.0, |n| self.first_height(n));
                    self.heading(t, keep);
                }
                Block::Subheading(t) => {
                    let keep = d.blocks.get(i + 1).map_or(0.0, |n| self.first_height(n));
                    self.y += 4.0;
                    self.ensure(BODY_LINE + keep.min(self.usable() / 2.0));
                    self.paragraph(t, BODY_SIZE + 0.5, Face::Bold, INK, 0.0);
                }
                Block::Summary(ps) => self.summary(ps),
                Block::Para(t) => self.paragraph(t, BODY_SIZE, Face::Regular, INK, 0.0),
                Block::Note(t) => self.paragraph(t, 8.5, Face::Regular, MUTED, 0.0),
                Block::Verdict { met, text } => {
                    let (mark, color) = if *met { ("✔", OK) } else { ("✘", WARN) };
                    self.paragraph(&format!("{mark} {text}"), 10.0, Face::Bold, color, 0.0);
                }
                Block::Callout(t) => self.callout(t),
                Block::Figures(k) => self.figures(k),
                Block::Bullets(items) => self.bullets(items),
                Block::Table(t) => self.table(t),
                Block::Code { title, text, lang } => self.code(title, text, lang),
                Block::Chart(c) => {
                    let caption = c.alt();
                    self.chart(&caption);
                }
                Block::Links(ls) => {
                    let items: Vec<Bullet> = ls
                        .iter()
                        .enumerate()
                        .map(|(n, (t, u))| Bullet::plain(format!("{}. {t}: {u}", n + 1)))
                        .collect();
                    self.bullets(&items);
                }
            }
        }
    }

    /// The least of a block that must share a page with the heading before it.
    fn first_height(&self, b: &Block) -> f32 {
        match b {
            Block::Chart(_) => self
                .charts
                .get(self.next_chart)
                .map_or(0.0, |&(w, h)| self.chart_height(w, h, MIN_CHART_SCALE)),
            Block::Table(t) => {
                let xs = self.columns(t);
                self.header_height(t, &xs) + 2.0 * (TABLE_LINE + 2.0 * CELL_PAD)
            }
            Block::Figures(k) => figures_height(k) + 8.0,
            Block::Code { .. } => 4.0 * 9.0 + 20.0,
            Block::Callout(t) => self.callout_height(t),
            Block::Summary(_) => 3.0 * BODY_LINE + 12.0,
            _ => 2.0 * BODY_LINE,
        }
    }

    fn title_block(&mut self, d: &Doc) {
        self.y += 4.0;
        self.text(
            MARGIN_X,
            self.y + 6.0,
            8.5,
            Face::Bold,
            ACCENT,
            &d.kind.to_uppercase(),
        );
        self.y += 12.0;
        for line in self
            .fonts
            .wrap(&d.title, 20.0, Face::Bold, self.content_width())
        {
            self.y += 24.0;
            self.text(MARGIN_X, self.y - 5.0, 20.0, Face::Bold, INK, &line);
        }
        self.y += 4.0;
        if !d.subtitle.is_empty() {
            self.paragraph(&d.subtitle, 11.0, Face::Regular, INK, 0.0);
        }
        for (label, value) in &d.meta {
            self.paragraph(&format!("{label}: {value}"), 10.0, Face::Bold, INK, 0.0);
        }
        self.paragraph(&d.dateline, 8.5, Face::Regular, MUTED, 0.0);
        self.y += 2.0;
        self.rule(self.y, 2.0, ACCENT);
        self.y += 6.0;
    }

    /// A section heading, kept with at least `keep` points of what follows.
    fn heading(&mut self, title: &str, keep: f32) {
        self.y += 10.0;
        self.ensure(28.0 + keep);
        self.outline
            .push((title.to_owned(), self.pages.len() - 1, self.y));
        self.y += 16.0;
        self.text(MARGIN_X, self.y, 13.0, Face::Bold, ACCENT, title);
        self.y += 5.0;
        self.rule(self.y, 0.6, RULE);
        self.y += 8.0;
    }

    /// The executive summary: its paragraphs beside a green bar on a shaded band.
    fn summary(&mut self, ps: &[String]) {
        let size = BODY_SIZE + 0.5;
        let line_h = size * 1.37;
        let inner = self.content_width() - 20.0;
        for p in ps {
            let lines = self.fonts.wrap(p, size, Face::Regular, inner);
            for line in lines {
                self.ensure(line_h);
                self.rect(MARGIN_X, self.y, self.content_width(), line_h, BAND);
                self.rect(MARGIN_X, self.y, 3.5, line_h, OK);
                self.y += line_h;
                self.text(
                    MARGIN_X + 12.0,
                    self.y - line_h * 0.27,
                    size,
                    Face::Regular,
                    INK,
                    &line,
                );
            }
            self.rect(MARGIN_X, self.y, self.content_width(), 5.0, BAND);
            self.rect(MARGIN_X, self.y, 3.5, 5.0, OK);
            self.y += 5.0;
        }
        self.y += 6.0;
    }

    /// Headline figures as a grid of boxes, three per row.
    fn figures(&mut self, ks: &[Kpi]) {
        let per_row = 3;
        let gap = 8.0;
        let box_w = (self.content_width() - gap * (per_row as f32 - 1.0)) / per_row as f32;
        let box_h = figures_height(ks);
        for chunk in ks.chunks(per_row) {
            self.ensure(box_h + gap);
            for (i, k) in chunk.iter().enumerate() {
                let x = MARGIN_X + i as f32 * (box_w + gap);
                self.rect(x, self.y, box_w, box_h, BAND);
                self.text(x + 8.0, self.y + 13.0, 7.5, Face::Regular, MUTED, &k.label);
                let size = if self.fonts.width(Face::Bold, &k.value, 14.0) > box_w - 50.0 {
                    11.0
                } else {
                    14.0
                };
                self.text(x + 8.0, self.y + 31.0, size, Face::Bold, INK, &k.value);
                let vw = self.fonts.width(Face::Bold, &k.value, size);
                self.text(
                    x + 12.0 + vw,
                    self.y + 31.0,
                    8.0,
                    Face::Regular,
                    MUTED,
                    &k.unit,
                );
                if let Some(range) = &k.range {
                    self.text(x + 8.0, self.y + 43.0, 7.5, Face::Regular, MUTED, range);
                }
            }
            self.y += box_h + gap;
        }
    }

    /// The lines of a callout's text, and the height of its box.
    fn callout_lines(&self, text: &str) -> (Vec<String>, f32) {
        let lines = self.fonts.wrap(
            text,
            CALLOUT_SIZE,
            Face::Regular,
            self.content_width() - 24.0,
        );
        let h = lines.len() as f32 * CALLOUT_LINE + 12.0;
        (lines, h)
    }

    fn callout_height(&self, text: &str) -> f32 {
        self.callout_lines(text).1 + 6.0
    }

    /// One sentence in a box with an accent bar (kept whole).
    fn callout(&mut self, text: &str) {
        let (size, line_h) = (CALLOUT_SIZE, CALLOUT_LINE);
        let (lines, h) = self.callout_lines(text);
        self.ensure(h.min(self.usable()));
        self.rect(MARGIN_X, self.y, self.content_width(), h, BAND);
        self.rect(MARGIN_X, self.y, 3.5, h, ACCENT);
        let mut y = self.y + 6.0;
        for line in lines {
            y += line_h;
            self.text(MARGIN_X + 14.0, y - 4.0, size, Face::Regular, INK, &line);
        }
        self.y += h + 6.0;
    }

    /// A bulleted list of wrapped items, each optionally tagged.
    fn bullets(&mut self, items: &[Bullet]) {
        let indent = 12.0;
        for item in items {
            self.ensure(BODY_LINE);
            self.text(
                MARGIN_X + 2.0,
                self.y + BODY_LINE - 3.5,
                BODY_SIZE,
                Face::Bold,
                MUTED,
                "•",
            );
            let mut first = indent;
            if let Some((tag, tone)) = &item.tag {
                let color = if *tone == Tone::Warn { WARN } else { ACCENT };
                let tag = tag.to_uppercase();
                self.text(
                    MARGIN_X + indent,
                    self.y + BODY_LINE - 3.5,
                    7.5,
                    Face::Bold,
                    color,
                    &tag,
                );
                first += self.fonts.width(Face::Bold, &tag, 7.5) + 5.0;
            }
            let max = self.content_width() - indent;
            let lines =
                self.fonts
                    .wrap(&item.text, BODY_SIZE, Face::Regular, max - (first - indent));
            // Lines after the first use the full width under the tag.
            let rest: Vec<String> = if lines.len() > 1 {
                self.fonts
                    .wrap(&lines[1..].join(" "), BODY_SIZE, Face::Regular, max)
            } else {
                Vec::new()
            };
            for (k, line) in lines.iter().take(1).chain(&rest).enumerate() {
                self.ensure(BODY_LINE);
                self.y += BODY_LINE;
                let x = MARGIN_X + if k == 0 { first } else { indent };
                self.text(x, self.y - 3.5, BODY_SIZE, Face::Regular, INK, line);
            }
            self.y += 3.0;
        }
    }

    /// Points a chart of `w` x `h` pixels takes at `share` of the full width, caption
    /// included.
    fn chart_height(&self, w: f32, h: f32, share: f32) -> f32 {
        let scale = (self.content_width() / w).min(1.0) * share;
        h * scale + 8.0 + 3.0 * 11.0
    }

    /// The next chart, as large as the width allows, shrunk to fit the room left on the
    /// page when that keeps it at least [`MIN_CHART_SCALE`] of its size, else on the
    /// next page; its caption under it.
    fn chart(&mut self, caption: &str) {
        let index = self.next_chart;
        self.next_chart += 1;
        let Some(&(w, h)) = self.charts.get(index) else {
            return;
        };
        let caption_lines = self
            .fonts
            .wrap(caption, 8.0, Face::Regular, self.content_width())
            .len() as f32;
        let extra = 10.0 + caption_lines * 11.0;
        let full = (self.content_width() / w).min(1.0);
        // A chart taller than most of a page is drawn smaller.
        let cap = ((self.usable() * 0.8 - extra) / (h * full)).min(1.0);
        let mut share = cap;
        let need = |share: f32| h * full * share + extra;
        if need(share) > self.room() {
            let fit = (self.room() - extra) / (h * full);
            if fit >= MIN_CHART_SCALE {
                share = fit.min(cap);
            } else {
                self.new_page();
            }
        }
        let (cw, ch) = (w * full * share, h * full * share);
        let x = MARGIN_X + (self.content_width() - cw) / 2.0;
        self.push(Op::Chart {
            index,
            x,
            y: self.y,
            w: cw,
            h: ch,
        });
        self.y += ch + 2.0;
        self.paragraph(caption, 8.0, Face::Regular, MUTED, 0.0);
        self.y += 6.0;
    }
}

/// The height of a headline figure's box: taller when a likely range sits under the
/// value.
fn figures_height(ks: &[Kpi]) -> f32 {
    if ks.iter().any(|k| k.range.is_some()) {
        50.0
    } else {
        40.0
    }
}
