//! The report as PDF, drawn with krilla: embedded DejaVu Sans, charts as vectors
//! drawn straight onto the page ([`super::pdf_chart`]), A4 or Letter, tables that break across pages with their header
//! repeated, and "Page N of M" in every footer.
//!
//! Layout is a first pass that places text, rules, boxes and charts on pages; drawing is
//! a second pass, so the footer knows the page count.

use super::charts::Chart;
use super::html::cost_line;
use super::model::{ChartKind, Paper, Report, ReportError, TestPlan, exact, money, tib};
use super::pdf_chart::Recorded;
use crate::engine::trace::Num;
use krilla::Document;
use krilla::color::rgb;
use krilla::destination::XyzDestination;
use krilla::geom::{PathBuilder, Point, Rect, Transform};
use krilla::metadata::Metadata;
use krilla::outline::{Outline, OutlineNode};
use krilla::page::PageSettings;
use krilla::paint::{Fill, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use std::sync::{Arc, OnceLock};

mod chart_replay;

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rgb(u8, u8, u8);

const INK: Rgb = Rgb(0x1b, 0x1f, 0x24);
const MUTED: Rgb = Rgb(0x57, 0x60, 0x6a);
const RULE: Rgb = Rgb(0xd0, 0xd7, 0xde);
const BAND: Rgb = Rgb(0xf3, 0xf5, 0xf7);
const ACCENT: Rgb = Rgb(0x0b, 0x5c, 0xad);
const BINDING_BG: Rgb = Rgb(0xe3, 0xee, 0xfa);
const CHEAPEST_BG: Rgb = Rgb(0xe6, 0xf4, 0xea);
const OK: Rgb = Rgb(0x16, 0x65, 0x34);
const WARN: Rgb = Rgb(0x9a, 0x34, 0x12);

const MARGIN_X: f32 = 46.0;
const MARGIN_TOP: f32 = 50.0;
const MARGIN_BOTTOM: f32 = 58.0;

/// The two faces, for drawing (krilla) and for measuring (ttf-parser).
struct Fonts {
    regular: Font,
    bold: Font,
    mono: Font,
    regular_face: ttf_parser::Face<'static>,
    bold_face: ttf_parser::Face<'static>,
    mono_face: ttf_parser::Face<'static>,
    /// Glyph and advance of every ASCII character, per face (read once; the report is
    /// nearly all ASCII, and the cmap lookup was a tenth of the PDF's time).
    ascii: [[(u16, u16); 128]; 3],
}

/// The face a piece of text is set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Face {
    Regular,
    Bold,
    /// DejaVu Sans Mono, for job files and command lines.
    Mono,
}

impl Face {
    fn of(bold: bool) -> Face {
        if bold { Face::Bold } else { Face::Regular }
    }
}

fn fonts() -> Result<&'static Fonts, ReportError> {
    static FONTS: OnceLock<Option<Fonts>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let regular = dejavu::sans::regular();
            let bold = dejavu::sans::bold();
            let mono = dejavu::sans_mono::regular();
            let regular_face = ttf_parser::Face::parse(regular, 0).ok()?;
            let bold_face = ttf_parser::Face::parse(bold, 0).ok()?;
            let mono_face = ttf_parser::Face::parse(mono, 0).ok()?;
            let ascii = [&regular_face, &bold_face, &mono_face]
                .map(|f| std::array::from_fn(|c| glyph_of(f, char::from(c as u8))));
            Some(Fonts {
                regular: Font::new(regular.into(), 0)?,
                bold: Font::new(bold.into(), 0)?,
                mono: Font::new(mono.into(), 0)?,
                regular_face,
                bold_face,
                mono_face,
                ascii,
            })
        })
        .as_ref()
        .ok_or_else(|| ReportError::Pdf("the embedded DejaVu fonts cannot be read".to_owned()))
}

/// The glyph of `c` and its advance in font units: the missing-glyph box (glyph 0) at
/// half an em for a character the face lacks.
fn glyph_of(f: &ttf_parser::Face<'_>, c: char) -> (u16, u16) {
    let g = f.glyph_index(c);
    let advance = g
        .and_then(|g| f.glyph_hor_advance(g))
        .unwrap_or(f.units_per_em() / 2);
    (g.map_or(0, |g| g.0), advance)
}

/// The font database usvg lays out chart text with: DejaVu Sans as `sans-serif`.
/// Without it, chart text would silently vanish from the PDF.
pub(crate) fn svg_fontdb() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(dejavu::sans::regular().to_vec());
        db.load_font_data(dejavu::sans::bold().to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        Arc::new(db)
    })
    .clone()
}

impl Fonts {
    fn face(&self, face: Face) -> &ttf_parser::Face<'static> {
        match face {
            Face::Regular => &self.regular_face,
            Face::Bold => &self.bold_face,
            Face::Mono => &self.mono_face,
        }
    }

    /// The glyphs of `text`, left to right, one per character at its advance: the
    /// report's text is Latin with symbols, which DejaVu sets without shaping, and
    /// skipping the shaper (which re-reads the font on every call) halves the time the
    /// PDF takes. Characters the font lacks get its missing-glyph box.
    fn glyphs(&self, face: Face, text: &str) -> Vec<KrillaGlyph> {
        let em = f32::from(self.face(face).units_per_em());
        text.char_indices()
            .map(|(i, c)| {
                // The same advance as `width_in`, so measured and drawn text agree.
                let (g, advance) = self.glyph(face, c);
                KrillaGlyph::new(
                    GlyphId::new(u32::from(g)),
                    f32::from(advance) / em,
                    0.0,
                    0.0,
                    0.0,
                    i..i + c.len_utf8(),
                    None,
                )
            })
            .collect()
    }

    /// Width of `text` at `size` points.
    fn width(&self, text: &str, size: f32, bold: bool) -> f32 {
        self.width_in(Face::of(bold), text, size)
    }

    /// Width of `text` at `size` points in `face`.
    fn width_in(&self, face: Face, text: &str, size: f32) -> f32 {
        let units: u32 = text.chars().map(|c| u32::from(self.glyph(face, c).1)).sum();
        units as f32 * size / f32::from(self.face(face).units_per_em())
    }

    /// The glyph of `c` in `face` and its advance in font units (ASCII from the table).
    fn glyph(&self, face: Face, c: char) -> (u16, u16) {
        match self.ascii[face as usize].get(c as usize) {
            Some(&g) => g,
            None => glyph_of(self.face(face), c),
        }
    }

    /// Breaks `text` into lines no wider than `max` points: at spaces, after `/` and `-`
    /// (paths and source names), and inside pieces that are too long on their own.
    fn wrap(&self, text: &str, size: f32, bold: bool, max: f32) -> Vec<String> {
        self.wrap_hanging(text, size, Face::of(bold), max, max)
    }

    /// Like [`Fonts::wrap`], with the first line at most `first` points wide and the
    /// others at most `rest` (continuation lines that are indented). One pass over the
    /// text, so a command line of tens of thousands of characters costs no more per
    /// character than a sentence.
    fn wrap_hanging(
        &self,
        text: &str,
        size: f32,
        face: Face,
        first: f32,
        rest: f32,
    ) -> Vec<String> {
        let clean: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        // Advances add up, so widths are summed piece by piece instead of re-measured.
        let space = self.width_in(face, " ", size);
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        let mut line_w = 0.0; // width of `line` without its trailing space
        let mut pending_space = false; // `line` ends with a space
        let limit = |done: usize| if done == 0 { first } else { rest };
        for piece in pieces(clean.trim()) {
            let word = piece.trim_end_matches(' ');
            let trailing = word.len() < piece.len();
            let word_w = self.width_in(face, word, size);
            let joined_w = if line.is_empty() {
                word_w
            } else {
                line_w + if pending_space { space } else { 0.0 } + word_w
            };
            if joined_w <= limit(lines.len()) {
                line.push_str(piece);
                line_w = joined_w;
                pending_space = trailing;
                continue;
            }
            if !line.trim().is_empty() {
                lines.push(line.trim_end().to_owned());
            }
            line = String::new();
            line_w = 0.0;
            pending_space = false;
            if word_w <= limit(lines.len()) {
                line.push_str(piece);
                line_w = word_w;
                pending_space = trailing;
                continue;
            }
            // A piece longer than the line is cut where it overflows.
            for ch in word.chars() {
                let w = self.width_in(face, ch.encode_utf8(&mut [0; 4]), size);
                if line_w + w > limit(lines.len()) && !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                    line_w = 0.0;
                }
                line.push(ch);
                line_w += w;
            }
            if trailing {
                line.push(' ');
                pending_space = true;
            }
        }
        if !line.trim().is_empty() || lines.is_empty() {
            lines.push(line.trim_end().to_owned());
        }
        lines
    }
}

/// Splits text after each space, and after `/` or `-` between words (not inside dates,
/// numbers or units), keeping the separators.
fn pieces(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        // A letter before, and a word of three or more letters after ("MiB/s" stays whole).
        let between_letters = || {
            k > 0
                && chars[k - 1].1.is_alphabetic()
                && chars[k + 1..]
                    .iter()
                    .take_while(|&&(_, n)| n.is_alphabetic())
                    .count()
                    >= 3
        };
        if c == ' ' || (matches!(c, '/' | '-') && between_letters()) {
            let end = i + c.len_utf8();
            out.push(&text[start..end]);
            start = end;
        }
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// One thing to draw; y grows downwards, text y is the baseline.
#[derive(Debug, Clone)]
enum Op {
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
    /// A recorded chart at `scale` points per chart pixel.
    Chart {
        chart: usize,
        x: f32,
        y: f32,
        scale: f32,
    },
}

/// A table column: title, share of the content width, alignment.
struct Col {
    title: &'static str,
    share: f32,
    right: bool,
}

const fn col(title: &'static str, share: f32, right: bool) -> Col {
    Col {
        title,
        share,
        right,
    }
}

/// A table row: one text per column, an optional background and bold text.
struct Row {
    cells: Vec<String>,
    fill: Option<Rgb>,
    bold: bool,
}

impl Row {
    fn plain(cells: Vec<String>) -> Row {
        Row {
            cells,
            fill: None,
            bold: false,
        }
    }
}

/// The first pass: places content on pages.
struct Layout<'a> {
    fonts: &'a Fonts,
    width: f32,
    height: f32,
    pages: Vec<Vec<Op>>,
    y: f32,
    /// Section headings for the PDF outline: title, page index, y.
    outline: Vec<(String, usize, f32)>,
}

const TABLE_SIZE: f32 = 8.0;
const TABLE_LINE: f32 = 10.0;
const CELL_PAD: f32 = 4.0;
const BODY_SIZE: f32 = 9.5;
const BODY_LINE: f32 = 13.0;
/// Preformatted text: size, line height, inner padding and continuation indent.
const PRE_SIZE: f32 = 7.0;
const PRE_LINE: f32 = 9.0;
const PRE_PAD: f32 = 6.0;
const PRE_CONTINUE: f32 = 14.0;

impl<'a> Layout<'a> {
    fn new(fonts: &'a Fonts, paper: Paper) -> Self {
        let (width, height) = paper.size_pt();
        Layout {
            fonts,
            width,
            height,
            pages: vec![Vec::new()],
            y: MARGIN_TOP,
            outline: Vec::new(),
        }
    }

    fn content_width(&self) -> f32 {
        self.width - 2.0 * MARGIN_X
    }

    fn bottom(&self) -> f32 {
        self.height - MARGIN_BOTTOM
    }

    fn push(&mut self, op: Op) {
        if let Some(page) = self.pages.last_mut() {
            page.push(op);
        }
    }

    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = MARGIN_TOP;
    }

    /// Starts a new page unless `h` more points fit on this one.
    fn ensure(&mut self, h: f32) {
        if self.y + h > self.bottom() && self.y > MARGIN_TOP {
            self.new_page();
        }
    }

    fn text(&mut self, x: f32, y: f32, size: f32, bold: bool, color: Rgb, text: &str) {
        self.push(Op::Text {
            x,
            y,
            size,
            face: Face::of(bold),
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

    /// A wrapped paragraph at the left margin, indented by `indent`.
    fn paragraph(&mut self, text: &str, size: f32, bold: bool, color: Rgb, indent: f32) {
        let line_h = size * 1.37;
        let lines = self
            .fonts
            .wrap(text, size, bold, self.content_width() - indent);
        for line in lines {
            self.ensure(line_h);
            self.y += line_h;
            self.text(
                MARGIN_X + indent,
                self.y - line_h * 0.27,
                size,
                bold,
                color,
                &line,
            );
        }
        self.y += size * 0.4;
    }

    /// A section heading, kept with at least `keep` points of what follows.
    fn heading(&mut self, title: &str, keep: f32) {
        self.y += 10.0;
        self.ensure(28.0 + keep);
        self.outline
            .push((title.to_owned(), self.pages.len() - 1, self.y));
        self.y += 16.0;
        self.text(MARGIN_X, self.y, 13.0, true, ACCENT, title);
        self.y += 5.0;
        self.rule(self.y, 0.6, RULE);
        self.y += 8.0;
    }

    fn title_block(&mut self, r: &Report) {
        self.y += 4.0;
        self.text(MARGIN_X, self.y + 6.0, 8.5, true, ACCENT, "SIZING REPORT");
        self.y += 12.0;
        let lines = self.fonts.wrap(&r.title, 20.0, true, self.content_width());
        for line in lines {
            self.y += 24.0;
            self.text(MARGIN_X, self.y - 5.0, 20.0, true, INK, &line);
        }
        self.y += 4.0;
        self.paragraph(&r.subtitle, 11.0, false, INK, 0.0);
        let meta = format!(
            "Generated {} · Catalog {} · Prices as of {}",
            r.date, r.catalog_version, r.price_date
        );
        self.paragraph(&meta, 8.5, false, MUTED, 0.0);
        if let Some(m) = &r.meta {
            for (label, value) in [
                ("Customer", &m.customer),
                ("Project", &m.project),
                ("Prepared by", &m.author),
            ] {
                if !value.is_empty() {
                    self.paragraph(&format!("{label}: {value}"), 10.0, true, INK, 0.0);
                }
            }
        }
        self.y += 2.0;
        self.rule(self.y, 2.0, ACCENT);
        self.y += 6.0;
    }

    /// Headline figures as a grid of boxes, three per row.
    fn figures(&mut self, r: &Report) {
        let per_row = 3;
        let gap = 8.0;
        let box_w = (self.content_width() - gap * (per_row as f32 - 1.0)) / per_row as f32;
        let box_h = 40.0;
        for chunk in r.headline.chunks(per_row) {
            self.ensure(box_h + gap);
            for (i, f) in chunk.iter().enumerate() {
                let x = MARGIN_X + i as f32 * (box_w + gap);
                self.push(Op::Rect {
                    x,
                    y: self.y,
                    w: box_w,
                    h: box_h,
                    color: BAND,
                });
                self.text(x + 8.0, self.y + 13.0, 7.5, false, MUTED, f.label);
                let value = f.text();
                self.text(x + 8.0, self.y + 31.0, 14.0, true, INK, &value);
                let vw = self.fonts.width(&value, 14.0, true);
                self.text(x + 12.0 + vw, self.y + 31.0, 8.0, false, MUTED, f.unit);
            }
            self.y += box_h + gap;
        }
        if let Some(t) = &r.targets {
            let (mark, color) = if t.met { ("✔", OK) } else { ("✘", WARN) };
            self.paragraph(&format!("{mark} {}", t.text), 10.0, true, color, 0.0);
        }
    }

    /// The binding sentence in a box with an accent bar.
    fn callout(&mut self, text: &str) {
        let size = 10.0;
        let line_h = 14.0;
        let lines = self
            .fonts
            .wrap(text, size, false, self.content_width() - 24.0);
        let h = lines.len() as f32 * line_h + 12.0;
        self.ensure(h);
        let w = self.content_width();
        self.push(Op::Rect {
            x: MARGIN_X,
            y: self.y,
            w,
            h,
            color: BAND,
        });
        self.push(Op::Rect {
            x: MARGIN_X,
            y: self.y,
            w: 3.5,
            h,
            color: ACCENT,
        });
        let mut y = self.y + 6.0;
        for line in lines {
            y += line_h;
            self.text(MARGIN_X + 14.0, y - 4.0, size, false, INK, &line);
        }
        self.y += h + 6.0;
    }

    /// A bulleted list of wrapped items.
    fn bullets(&mut self, items: &[(Option<(&str, Rgb)>, String)]) {
        for (tag, item) in items {
            let indent = 12.0;
            let mut text = item.clone();
            let mut first_x = MARGIN_X + indent;
            self.ensure(BODY_LINE);
            self.text(
                MARGIN_X + 2.0,
                self.y + BODY_LINE - 3.5,
                BODY_SIZE,
                true,
                MUTED,
                "•",
            );
            if let Some((label, color)) = tag {
                let label = label.to_uppercase();
                self.text(first_x, self.y + BODY_LINE - 3.5, 7.5, true, *color, &label);
                first_x += self.fonts.width(&label, 7.5, true) + 5.0;
                // Keep the first line clear of the tag by padding with spaces.
                let pad = ((first_x - MARGIN_X - indent) / self.fonts.width(" ", BODY_SIZE, false))
                    .ceil() as usize;
                text = format!("{}{text}", " ".repeat(pad));
            }
            let lines =
                self.fonts
                    .wrap_keep_leading(&text, BODY_SIZE, self.content_width() - indent);
            for line in lines {
                self.ensure(BODY_LINE);
                self.y += BODY_LINE;
                self.text(
                    MARGIN_X + indent,
                    self.y - 3.5,
                    BODY_SIZE,
                    false,
                    INK,
                    &line,
                );
            }
            self.y += 3.0;
        }
    }

    /// Height of a table's header row: titles wrap inside their column.
    fn header_height(&self, cols: &[Col], xs: &[(f32, f32)]) -> f32 {
        let lines = cols
            .iter()
            .zip(xs)
            .map(|(c, &(_, w))| {
                self.fonts
                    .wrap(c.title, 7.5, true, w - 2.0 * CELL_PAD)
                    .len()
            })
            .max()
            .unwrap_or(1);
        lines as f32 * 9.0 + 2.0 * CELL_PAD + 1.0
    }

    fn table_header(&mut self, cols: &[Col], xs: &[(f32, f32)]) {
        let h = self.header_height(cols, xs);
        let w = self.content_width();
        self.push(Op::Rect {
            x: MARGIN_X,
            y: self.y,
            w,
            h,
            color: BAND,
        });
        for (c, &(x, cw)) in cols.iter().zip(xs) {
            let lines = self.fonts.wrap(c.title, 7.5, true, cw - 2.0 * CELL_PAD);
            for (i, line) in lines.iter().enumerate() {
                let tx = if c.right {
                    x + cw - CELL_PAD - self.fonts.width(line, 7.5, true)
                } else {
                    x + CELL_PAD
                };
                let ty = self.y + CELL_PAD + (i as f32 + 1.0) * 9.0 - 1.5;
                self.text(tx, ty, 7.5, true, MUTED, line);
            }
        }
        self.y += h;
        self.rule(self.y, 0.8, MUTED);
    }

    /// A table; rows never split, and the header repeats on every page it spans.
    fn table(&mut self, cols: &[Col], rows: &[Row]) {
        let total: f32 = cols.iter().map(|c| c.share).sum();
        let mut xs = Vec::with_capacity(cols.len());
        let mut x = MARGIN_X;
        for c in cols {
            let w = self.content_width() * c.share / total;
            xs.push((x, w));
            x += w;
        }
        let header_h = self.header_height(cols, &xs);
        let laid: Vec<(Vec<Vec<String>>, f32)> = rows
            .iter()
            .map(|row| {
                let wrapped: Vec<Vec<String>> = row
                    .cells
                    .iter()
                    .zip(&xs)
                    .map(|(cell, &(_, w))| {
                        self.fonts
                            .wrap(cell, TABLE_SIZE, row.bold, w - 2.0 * CELL_PAD)
                    })
                    .collect();
                let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1);
                (wrapped, lines as f32 * TABLE_LINE + 2.0 * CELL_PAD)
            })
            .collect();
        // The header starts where at least two rows (or the whole table) fit under it;
        // a table of up to four rows is kept together.
        let keep = if laid.len() <= 4 { laid.len() } else { 2 };
        let first_h: f32 = laid.iter().take(keep).map(|(_, h)| h).sum();
        self.ensure(header_h + first_h);
        self.table_header(cols, &xs);
        for (row, (wrapped, h)) in rows.iter().zip(laid) {
            if self.y + h > self.bottom() {
                self.new_page();
                self.table_header(cols, &xs);
            }
            if let Some(color) = row.fill {
                let w = self.content_width();
                self.push(Op::Rect {
                    x: MARGIN_X,
                    y: self.y,
                    w,
                    h,
                    color,
                });
            }
            for ((c, &(x, w)), cell_lines) in cols.iter().zip(&xs).zip(&wrapped) {
                for (i, line) in cell_lines.iter().enumerate() {
                    let ty = self.y + CELL_PAD + (i as f32 + 1.0) * TABLE_LINE - 2.5;
                    let tx = if c.right {
                        x + w - CELL_PAD - self.fonts.width(line, TABLE_SIZE, row.bold)
                    } else {
                        x + CELL_PAD
                    };
                    self.text(tx, ty, TABLE_SIZE, row.bold, INK, line);
                }
            }
            self.y += h;
            self.rule(self.y, 0.4, RULE);
        }
        self.y += 6.0;
    }

    /// Preformatted text (a job file, a command line) at a small size on a shaded band:
    /// one drawn line per text line, leading spaces kept, and a line too wide for the
    /// page wrapped onto indented continuation lines. Breaks across pages line by line.
    fn preformatted(&mut self, text: &str) {
        let w = self.content_width();
        let inner = w - 2.0 * PRE_PAD;
        let space = self.fonts.width_in(Face::Mono, " ", PRE_SIZE);
        self.y += 2.0;
        for raw in text.trim_end().lines() {
            let raw = raw.replace('\t', "    ");
            let body = raw.trim_start_matches(' ');
            let lead = (raw.len() - body.len()) as f32 * space;
            // Continuation lines are indented, so a wrap reads as one.
            let lines = self.fonts.wrap_hanging(
                body,
                PRE_SIZE,
                Face::Mono,
                inner - lead,
                inner - lead - PRE_CONTINUE,
            );
            for (i, line) in lines.iter().enumerate() {
                self.ensure(PRE_LINE);
                self.push(Op::Rect {
                    x: MARGIN_X,
                    y: self.y,
                    w,
                    h: PRE_LINE,
                    color: BAND,
                });
                let x = MARGIN_X + PRE_PAD + lead + if i == 0 { 0.0 } else { PRE_CONTINUE };
                self.push(Op::Text {
                    x,
                    y: self.y + PRE_LINE - 2.5,
                    size: PRE_SIZE,
                    face: Face::Mono,
                    color: INK,
                    text: line.clone(),
                });
                self.y += PRE_LINE;
            }
        }
        self.y += 8.0;
    }

    fn chart(&mut self, index: usize, size: (f32, f32), caption: &str) {
        let max_w = self.content_width();
        let scale = (max_w / size.0).min(1.6);
        let h = size.1 * scale;
        let caption_lines = self.fonts.wrap(caption, 8.0, false, max_w).len() as f32;
        self.ensure(h + 8.0 + caption_lines * 11.0);
        let x = MARGIN_X + (max_w - size.0 * scale) / 2.0;
        self.push(Op::Chart {
            chart: index,
            x,
            y: self.y,
            scale,
        });
        self.y += h + 2.0;
        self.paragraph(caption, 8.0, false, MUTED, 0.0);
        self.y += 6.0;
    }
}

impl Fonts {
    /// Like [`Fonts::wrap`] for regular text, but keeps leading spaces on the first line.
    fn wrap_keep_leading(&self, text: &str, size: f32, max: f32) -> Vec<String> {
        let lead = text.len() - text.trim_start_matches(' ').len();
        let mut lines = self.wrap(
            text,
            size,
            false,
            max - self.width(" ", size, false) * lead as f32,
        );
        if let Some(first) = lines.first_mut() {
            first.insert_str(0, &" ".repeat(lead));
        }
        lines
    }
}

fn pct(v: f64) -> String {
    format!("{}%", Num(v, 1))
}

fn yes(b: bool) -> String {
    if b { "yes" } else { "no" }.to_owned()
}

/// A parsed chart as the layout places it: its kind, caption and size in points.
type ChartSize = (ChartKind, String, (f32, f32));

/// Places the whole report on pages; `charts` are the parsed charts, in report order: the
/// ceilings chart goes under the binding limit, the latency chart in its section, the
/// rest at the end.
fn lay_out<'a>(fonts: &'a Fonts, r: &Report, paper: Paper, charts: &[ChartSize]) -> Layout<'a> {
    let mut l = Layout::new(fonts, paper);
    l.title_block(r);

    l.heading("Executive summary", 60.0);
    for p in &r.summary {
        l.paragraph(p, BODY_SIZE + 0.5, false, INK, 0.0);
    }
    if let Some(m) = r.meta.as_ref().filter(|m| !m.notes.is_empty()) {
        l.paragraph("Notes", BODY_SIZE, true, INK, 0.0);
        for line in m.notes.lines() {
            l.paragraph(line, BODY_SIZE, false, INK, 0.0);
        }
    }

    l.heading("Results", 100.0);
    l.figures(r);

    l.heading("Bound by", 40.0);
    l.callout(&r.binding.sentence);

    let of_kind = |kind: ChartKind| charts.iter().enumerate().filter(move |(_, c)| c.0 == kind);
    for (i, (_, caption, size)) in of_kind(ChartKind::Ceilings) {
        l.chart(i, *size, caption);
    }

    l.heading("Latency", 40.0);
    l.paragraph(&r.latency, BODY_SIZE, false, INK, 0.0);
    for (i, (_, caption, size)) in of_kind(ChartKind::Latency) {
        l.chart(i, *size, caption);
    }

    l.heading("Limits", 60.0);
    let rows: Vec<Row> = r
        .limits
        .iter()
        .map(|x| {
            let mut label = x.label.clone();
            if x.binding {
                label = format!("◆ {label} (binding)");
            }
            if x.assumption {
                label.push_str(" [assumption]");
            }
            Row {
                cells: vec![
                    label,
                    x.applies.to_owned(),
                    exact(x.mibps),
                    exact(x.iops),
                    pct(x.headroom_pct),
                    x.source.to_owned(),
                ],
                fill: x.binding.then_some(BINDING_BG),
                bold: x.binding,
            }
        })
        .collect();
    l.table(
        &[
            col("Limit", 3.2, false),
            col("Applies", 0.9, false),
            col("MiB/s", 1.1, true),
            col("IOPS", 1.1, true),
            col("Headroom", 1.2, true),
            col("Source", 2.6, false),
        ],
        &rows,
    );

    // Keep the cost paragraph with the start of the sizing table.
    l.heading(
        "Cost and sizing",
        70.0 + 22.0 * r.sizing.len().min(4) as f32,
    );
    l.paragraph(&cost_line(r), BODY_SIZE, false, INK, 0.0);
    if !r.sizing.is_empty() {
        l.paragraph(r.sizing_basis, 8.5, false, MUTED, 0.0);
        let rows: Vec<Row> = r
            .sizing
            .iter()
            .map(|z| {
                let mut name = z.name.clone();
                if z.cheapest {
                    name = format!("★ {name} (cheapest)");
                }
                if z.current {
                    name.push_str(" (this scenario)");
                }
                Row {
                    cells: vec![
                        name,
                        tib(z.quota_tib),
                        tib(z.pool_tib),
                        z.throughput_mibps
                            .map(exact)
                            .unwrap_or_else(|| "-".to_owned()),
                        money(z.monthly_usd),
                        yes(z.meets),
                    ],
                    fill: z.cheapest.then_some(CHEAPEST_BG),
                    bold: z.cheapest,
                }
            })
            .collect();
        l.table(
            &[
                col("Level", 3.4, false),
                col("Quota TiB", 1.1, true),
                col("Pool TiB", 1.1, true),
                col("Throughput MiB/s", 1.5, true),
                col("Monthly USD", 1.4, true),
                col("Meets targets", 1.2, false),
            ],
            &rows,
        );
    }

    l.heading("Advice", 30.0);
    if r.advice.is_empty() {
        l.paragraph("No advice for this scenario.", BODY_SIZE, false, MUTED, 0.0);
    } else {
        let items: Vec<_> = r
            .advice
            .iter()
            .map(|a| {
                let color = if a.severity == "warn" { WARN } else { ACCENT };
                (
                    Some((a.severity, color)),
                    format!("{} ({})", a.message, a.code),
                )
            })
            .collect();
        l.bullets(&items);
    }

    l.heading("Assumptions", 30.0);
    l.paragraph(&r.provenance, BODY_SIZE, false, MUTED, 0.0);
    if !r.assumptions.is_empty() {
        let items: Vec<_> = r.assumptions.iter().map(|a| (None, a.clone())).collect();
        l.bullets(&items);
    }

    if !r.sources.is_empty() {
        l.heading("Sources", 30.0);
        let items: Vec<_> = r
            .sources
            .iter()
            .map(|d| (None, format!("{}: {}", d.title, d.url)))
            .collect();
        l.bullets(&items);
    }

    l.heading("Inputs", 60.0);
    let rows: Vec<Row> = r
        .inputs
        .iter()
        .map(|i| {
            let value = if i.unit.is_empty() {
                i.value.clone()
            } else {
                format!("{} {}", i.value, i.unit)
            };
            Row::plain(vec![i.section.to_owned(), i.label.clone(), value])
        })
        .collect();
    l.table(
        &[
            col("Section", 1.0, false),
            col("Input", 2.0, false),
            col("Value", 3.0, false),
        ],
        &rows,
    );

    if let Some(cmp) = &r.comparison {
        l.heading("Comparison", 60.0);
        let rows: Vec<Row> = cmp
            .iter()
            .enumerate()
            .map(|(i, c)| Row {
                cells: vec![
                    c.name.clone(),
                    c.storage.clone(),
                    exact(c.throughput_mibps),
                    exact(c.iops),
                    c.binding_label.clone(),
                    money(c.monthly_usd),
                    yes(c.met),
                ],
                fill: (i == 0).then_some(BINDING_BG),
                bold: false,
            })
            .collect();
        l.table(
            &[
                col("Scenario", 2.0, false),
                col("Storage", 2.0, false),
                col("MiB/s", 1.1, true),
                col("IOPS", 1.1, true),
                col("Bound by", 2.4, false),
                col("Monthly USD", 1.2, true),
                col("Met", 0.6, false),
            ],
            &rows,
        );
    }

    if let Some(layouts) = &r.layouts {
        l.heading("Volume layouts", 60.0);
        let rows: Vec<Row> = layouts
            .iter()
            .map(|x| {
                Row::plain(vec![
                    x.count.to_string(),
                    tib(x.quota_tib),
                    exact(x.throughput_mibps),
                    exact(x.iops),
                    x.connections.to_string(),
                    x.binding_label.clone(),
                    money(x.monthly_usd),
                    yes(x.met),
                ])
            })
            .collect();
        l.table(
            &[
                col("Volumes", 0.9, true),
                col("TiB each", 1.0, true),
                col("MiB/s", 1.1, true),
                col("IOPS", 1.1, true),
                col("Conns", 0.8, true),
                col("Bound by", 2.8, false),
                col("Monthly USD", 1.2, true),
                col("Met", 0.6, false),
            ],
            &rows,
        );
    }

    l.heading(TestPlan::TITLE, 40.0);
    l.paragraph(r.test_plan.note(), BODY_SIZE, false, INK, 0.0);
    for (title, text) in r.test_plan.parts() {
        l.y += 4.0;
        l.ensure(BODY_LINE + 3.0 * PRE_LINE);
        l.paragraph(title, BODY_SIZE, true, INK, 0.0);
        l.preformatted(text);
    }

    let rest: Vec<_> = charts
        .iter()
        .enumerate()
        .filter(|(_, c)| !matches!(c.0, ChartKind::Ceilings | ChartKind::Latency))
        .collect();
    if let Some((_, (_, _, size))) = rest.first() {
        // Keep the heading with the whole first chart.
        let scale = (l.content_width() / size.0).min(1.6);
        l.heading("Charts", size.1 * scale + 40.0);
        for (i, (_, caption, size)) in rest {
            l.chart(i, *size, caption);
        }
    }
    l
}

fn fill(color: Rgb) -> Fill {
    Fill {
        paint: rgb::Color::new(color.0, color.1, color.2).into(),
        ..Fill::default()
    }
}

fn draw_op(s: &mut Surface<'_>, fonts: &Fonts, charts: &[&Recorded], op: &Op) {
    match op {
        Op::Text {
            x,
            y,
            size,
            face,
            color,
            text,
        } => {
            s.set_stroke(None);
            s.set_fill(Some(fill(*color)));
            let font = match face {
                Face::Regular => &fonts.regular,
                Face::Bold => &fonts.bold,
                Face::Mono => &fonts.mono,
            };
            let glyphs = fonts.glyphs(*face, text);
            s.draw_glyphs(
                Point::from_xy(*x, *y),
                &glyphs,
                font.clone(),
                text,
                *size,
                false,
            );
        }
        Op::Rect { x, y, w, h, color } => {
            if let Some(rect) = Rect::from_xywh(*x, *y, *w, *h) {
                let mut pb = PathBuilder::new();
                pb.push_rect(rect);
                if let Some(path) = pb.finish() {
                    s.set_stroke(None);
                    s.set_fill(Some(fill(*color)));
                    s.draw_path(&path);
                }
            }
        }
        Op::Line {
            x1,
            y1,
            x2,
            y2,
            width,
            color,
        } => {
            let mut pb = PathBuilder::new();
            pb.move_to(*x1, *y1);
            pb.line_to(*x2, *y2);
            if let Some(path) = pb.finish() {
                s.set_fill(None);
                s.set_stroke(Some(Stroke {
                    paint: rgb::Color::new(color.0, color.1, color.2).into(),
                    width: *width,
                    ..Stroke::default()
                }));
                s.draw_path(&path);
                s.set_stroke(None);
            }
        }
        Op::Chart { chart, x, y, scale } => {
            if let Some(c) = charts.get(*chart) {
                s.push_transform(&Transform::from_row(*scale, 0.0, 0.0, *scale, *x, *y));
                chart_replay::draw(s, fonts, c);
                s.pop();
            }
        }
    }
}

/// Shortens `text` with an ellipsis until it fits in `max` points.
fn fit(fonts: &Fonts, text: &str, size: f32, max: f32) -> String {
    if fonts.width(text, size, false) <= max {
        return text.to_owned();
    }
    let mut out: String = text.to_owned();
    while !out.is_empty() && fonts.width(&format!("{out}…"), size, false) > max {
        out.pop();
    }
    format!("{out}…")
}

/// A chart of the report as the PDF draws it.
pub struct PdfChart {
    pub kind: ChartKind,
    /// Title and summary, set under the chart.
    pub caption: String,
    pub drawn: Recorded,
}

/// Draws the report's charts for the PDF, in report order.
pub fn charts(r: &Report) -> Result<Vec<PdfChart>, ReportError> {
    r.charts
        .iter()
        .map(|&kind| {
            let err = |e: super::charts::ChartError| ReportError::Chart(kind.key(), e.to_string());
            let chart = Chart::of(kind.chart_name(), &r.scenario, &r.evaluation).map_err(err)?;
            Ok(PdfChart {
                kind,
                caption: format!("{}. {}", chart.title(), chart.summary()),
                drawn: chart.record().map_err(err)?,
            })
        })
        .collect()
}

/// Writes the PDF with the given charts (in report order).
pub fn render_with(r: &Report, paper: Paper, charts: &[PdfChart]) -> Result<Vec<u8>, ReportError> {
    let fonts = fonts()?;
    let sizes: Vec<ChartSize> = charts
        .iter()
        .map(|c| {
            let (w, h) = c.drawn.size;
            (c.kind, c.caption.clone(), (w as f32, h as f32))
        })
        .collect();
    let trees: Vec<&Recorded> = charts.iter().map(|c| &c.drawn).collect();
    let layout = lay_out(fonts, r, paper, &sizes);

    let mut doc = Document::new();
    doc.set_metadata(
        Metadata::new()
            .title(format!("{} · Sizing report", r.title))
            .creator("volplan".to_owned())
            .language("en".to_owned()),
    );
    let mut outline = Outline::new();
    for (title, page, y) in &layout.outline {
        outline.push_child(OutlineNode::new(
            title.clone(),
            XyzDestination::new(*page, Point::from_xy(0.0, *y)),
        ));
    }
    doc.set_outline(outline);
    let total = layout.pages.len();
    let (w, h) = paper.size_pt();
    let settings = PageSettings::from_wh(w, h)
        .ok_or_else(|| ReportError::Pdf("invalid page size".to_owned()))?;
    for (i, ops) in layout.pages.iter().enumerate() {
        let mut page = doc.start_page_with(settings.clone());
        let mut s = page.surface();
        for op in ops {
            draw_op(&mut s, fonts, &trees, op);
        }
        let footer_y = h - MARGIN_BOTTOM + 24.0;
        draw_op(
            &mut s,
            fonts,
            &trees,
            &Op::Line {
                x1: MARGIN_X,
                y1: footer_y - 11.0,
                x2: w - MARGIN_X,
                y2: footer_y - 11.0,
                width: 0.5,
                color: RULE,
            },
        );
        let page_no = format!("Page {} of {total}", i + 1);
        let pw = fonts.width(&page_no, 7.5, false);
        let left = fit(
            fonts,
            &format!("volplan sizing report · {} · {}", r.title, r.date),
            7.5,
            w - 2.0 * MARGIN_X - pw - 20.0,
        );
        for (x, text) in [(MARGIN_X, left), (w - MARGIN_X - pw, page_no)] {
            draw_op(
                &mut s,
                fonts,
                &trees,
                &Op::Text {
                    x,
                    y: footer_y,
                    size: 7.5,
                    face: Face::Regular,
                    color: MUTED,
                    text,
                },
            );
        }
        s.finish();
        page.finish();
    }
    doc.finish().map_err(|e| ReportError::Pdf(format!("{e:?}")))
}

/// Writes the PDF report with its charts.
pub fn render(r: &Report, paper: Paper) -> Result<Vec<u8>, ReportError> {
    render_with(r, paper, &charts(r)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::fixture;

    #[test]
    fn wraps_at_spaces_and_inside_long_words() {
        let f = fonts().unwrap();
        let lines = f.wrap("alpha beta gamma delta", 10.0, false, 60.0);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| f.width(l, 10.0, false) <= 60.0));
        let long = f.wrap(&"x".repeat(200), 10.0, false, 100.0);
        assert!(long.len() > 5);
        assert_eq!(long.concat(), "x".repeat(200));
        let path = f.wrap(
            "see LEARN-ANF/performance-benchmarks-azure",
            8.0,
            false,
            90.0,
        );
        assert!(path.iter().all(|l| f.width(l, 8.0, false) <= 90.0));
        assert!(path[1..].iter().all(|l| !l.starts_with(' ')), "{path:?}");
        assert_eq!(
            path.concat().replace(' ', ""),
            "seeLEARN-ANF/performance-benchmarks-azure"
        );
        assert_eq!(pieces("a b/cde-fgh"), vec!["a ", "b/", "cde-", "fgh"]);
        assert_eq!(pieces("8 MiB/s"), vec!["8 ", "MiB/s"]);
        assert_eq!(pieces("12/03/2024 x-1"), vec!["12/03/2024 ", "x-1"]);
        assert_eq!(f.wrap("", 10.0, false, 50.0), vec![String::new()]);
    }

    #[test]
    fn hanging_wrap_gives_the_first_line_its_own_width_in_one_pass() {
        let f = fonts().unwrap();
        // A DiskSpd command line for 1,024 volumes: tens of thousands of characters.
        let text = (1..=1024)
            .map(|i| format!("\\\\anf-{i}.example\\share{i}\\file.dat"))
            .collect::<Vec<_>>()
            .join(" ");
        let lines = f.wrap_hanging(&text, PRE_SIZE, Face::Regular, 600.0, 300.0);
        assert!(lines.len() > 100);
        assert!(f.width(&lines[0], PRE_SIZE, false) <= 600.0);
        assert!(
            f.width(&lines[0], PRE_SIZE, false) > 300.0,
            "the first line uses its width"
        );
        assert!(
            lines[1..]
                .iter()
                .all(|l| f.width(l, PRE_SIZE, false) <= 300.0)
        );
        assert_eq!(lines.join(" "), text, "no text lost");
    }

    #[test]
    fn preformatted_text_wraps_inside_the_page_and_breaks_across_pages() {
        let (s, e) = fixture::example();
        let mut r = Report::build(&s, &e, "2026-01-02");
        let long_line = format!("directory={}", "/mnt/volplan1:".repeat(40));
        r.test_plan.fio = format!("{long_line}\n{}", "    rw=read\n".repeat(200));
        r.test_plan.mount_options.clear();
        let fonts = fonts().unwrap();
        let layout = lay_out(fonts, &r, Paper::A4, &[]);
        let (w, h) = Paper::A4.size_pt();
        let pre: Vec<(usize, f32, f32, &str)> = layout
            .pages
            .iter()
            .enumerate()
            .flat_map(|(p, ops)| ops.iter().map(move |op| (p, op)))
            .filter_map(|(p, op)| match op {
                Op::Text {
                    x,
                    y,
                    size,
                    text,
                    face,
                    ..
                } if *size == PRE_SIZE => {
                    assert_eq!(*face, Face::Mono, "code is set monospaced: {text}");
                    Some((p, *x, *y, text.as_str()))
                }
                _ => None,
            })
            .collect();
        for (_, x, y, text) in &pre {
            assert!(
                x + fonts.width_in(Face::Mono, text, PRE_SIZE) <= w - MARGIN_X + 0.01,
                "{text}"
            );
            assert!(*y <= h - MARGIN_BOTTOM, "{text} at {y}");
        }
        let wrapped: String = pre
            .iter()
            .map(|p| p.3)
            .take_while(|t| !t.contains("rw=read"))
            .collect();
        assert_eq!(
            wrapped, long_line,
            "the long line wraps without losing text"
        );
        let pages: std::collections::HashSet<usize> = pre.iter().map(|p| p.0).collect();
        assert!(pages.len() >= 2, "200 lines break across pages");
        assert_eq!(pre.iter().filter(|p| p.3 == "rw=read").count(), 200);
    }

    #[test]
    fn long_tables_break_with_repeated_headers() {
        let (s, mut e) = fixture::example();
        let template = e.limits[0].clone();
        for _ in 0..120 {
            e.limits.push(template.clone());
        }
        let r = Report::build(&s, &e, "2026-01-02");
        let fonts = fonts().unwrap();
        let layout = lay_out(fonts, &r, Paper::A4, &[]);
        assert!(layout.pages.len() >= 3);
        let headers = layout
            .pages
            .iter()
            .filter(|ops| {
                ops.iter()
                    .any(|op| matches!(op, Op::Text { text, face: Face::Bold, .. } if text == "Headroom"))
            })
            .count();
        assert!(
            headers >= 2,
            "the limits header repeats on each page of the table"
        );
        for ops in &layout.pages {
            for op in ops {
                if let Op::Text { y, .. } = op {
                    assert!(*y <= Paper::A4.size_pt().1 - MARGIN_BOTTOM + 1.0);
                }
            }
        }
    }

    #[test]
    fn writes_a_pdf_on_letter() {
        let (s, e) = fixture::example();
        let pdf = render_with(&Report::build(&s, &e, "2026-01-02"), Paper::Letter, &[]).unwrap();
        assert!(pdf.starts_with(b"%PDF-"));
        let text = String::from_utf8_lossy(&pdf);
        assert!(text.contains("612"), "Letter width in the media box");
        assert!(text.contains("/Outlines"), "section bookmarks");
    }
}
