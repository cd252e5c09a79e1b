//! The PDF's fonts: DejaVu Sans (regular and bold) for text and DejaVu Sans Mono for
//! code, embedded from the `dejavu` crate; measured with ttf-parser and set glyph by
//! glyph (the report's text is Latin with symbols, which DejaVu sets without shaping).

use crate::report::ReportError;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use std::sync::{Arc, OnceLock};

/// The three faces, for drawing (krilla) and for measuring (ttf-parser).
pub(super) struct Fonts {
    pub regular: Font,
    pub bold: Font,
    pub mono: Font,
    regular_face: ttf_parser::Face<'static>,
    bold_face: ttf_parser::Face<'static>,
    mono_face: ttf_parser::Face<'static>,
    /// Glyph and advance of every ASCII character, per face (read once; the report is
    /// nearly all ASCII, and the cmap lookup was a tenth of the PDF's time).
    ascii: [[(u16, u16); 128]; 3],
}

/// The face a piece of text is set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Face {
    Regular,
    Bold,
    /// DejaVu Sans Mono, for job files and command lines.
    Mono,
}

impl Face {
    pub fn of(bold: bool) -> Face {
        if bold { Face::Bold } else { Face::Regular }
    }
}

pub(super) fn fonts() -> Result<&'static Fonts, ReportError> {
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

/// The font database usvg lays out chart text with: DejaVu Sans as `sans-serif`.
/// Without it, chart text would silently vanish from the PDF.
pub(super) fn svg_fontdb() -> Arc<usvg::fontdb::Database> {
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

/// The glyph of `c` and its advance in font units: the missing-glyph box (glyph 0) at
/// half an em for a character the face lacks.
fn glyph_of(f: &ttf_parser::Face<'_>, c: char) -> (u16, u16) {
    let g = f.glyph_index(c);
    let advance = g
        .and_then(|g| f.glyph_hor_advance(g))
        .unwrap_or(f.units_per_em() / 2);
    (g.map_or(0, |g| g.0), advance)
}

impl Fonts {
    fn face(&self, face: Face) -> &ttf_parser::Face<'static> {
        match face {
            Face::Regular => &self.regular_face,
            Face::Bold => &self.bold_face,
            Face::Mono => &self.mono_face,
        }
    }

    /// The krilla font of a face.
    pub fn font(&self, face: Face) -> &Font {
        match face {
            Face::Regular => &self.regular,
            Face::Bold => &self.bold,
            Face::Mono => &self.mono,
        }
    }

    /// The glyphs of `text`, left to right, one per character at its advance (skipping
    /// the shaper, which re-reads the font on every call, halves the PDF's time).
    /// Characters the font lacks get its missing-glyph box.
    pub fn glyphs(&self, face: Face, text: &str) -> Vec<KrillaGlyph> {
        let em = f32::from(self.face(face).units_per_em());
        text.char_indices()
            .map(|(i, c)| {
                // The same advance as `width`, so measured and drawn text agree.
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

    /// Width of `text` at `size` points in `face`.
    pub fn width(&self, face: Face, text: &str, size: f32) -> f32 {
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
    /// between words (paths and source names), and inside pieces too long on their own.
    /// One pass, so a command line of tens of thousands of characters costs no more per
    /// character than a sentence.
    pub fn wrap(&self, text: &str, size: f32, face: Face, max: f32) -> Vec<String> {
        let clean: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        // Advances add up, so widths are summed piece by piece instead of re-measured.
        let space = self.width(face, " ", size);
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        let mut line_w = 0.0; // width of `line` without its trailing space
        let mut pending_space = false; // `line` ends with a space
        for piece in pieces(clean.trim()) {
            let word = piece.trim_end_matches(' ');
            let trailing = word.len() < piece.len();
            let word_w = self.width(face, word, size);
            let joined_w = if line.is_empty() {
                word_w
            } else {
                line_w + if pending_space { space } else { 0.0 } + word_w
            };
            if joined_w <= max {
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
            if word_w <= max {
                line.push_str(piece);
                line_w = word_w;
                pending_space = trailing;
                continue;
            }
            // A piece longer than the line is cut where it overflows.
            for ch in word.chars() {
                let w = self.width(face, ch.encode_utf8(&mut [0; 4]), size);
                if line_w + w > max && !line.is_empty() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_spaces_and_inside_long_words() {
        let f = fonts().unwrap();
        let lines = f.wrap("alpha beta gamma delta", 10.0, Face::Regular, 60.0);
        assert!(lines.len() > 1);
        assert!(
            lines
                .iter()
                .all(|l| f.width(Face::Regular, l, 10.0) <= 60.0)
        );
        let long = f.wrap(&"x".repeat(200), 10.0, Face::Regular, 100.0);
        assert!(long.len() > 5);
        assert_eq!(long.concat(), "x".repeat(200));
        let path = f.wrap(
            "see LEARN-ANF/performance-benchmarks-azure",
            8.0,
            Face::Regular,
            90.0,
        );
        assert!(path.iter().all(|l| f.width(Face::Regular, l, 8.0) <= 90.0));
        assert!(path[1..].iter().all(|l| !l.starts_with(' ')), "{path:?}");
        assert_eq!(pieces("a b/cde-fgh"), vec!["a ", "b/", "cde-", "fgh"]);
        assert_eq!(pieces("8 MiB/s"), vec!["8 ", "MiB/s"]);
        assert_eq!(pieces("12/03/2024 x-1"), vec!["12/03/2024 ", "x-1"]);
        assert_eq!(f.wrap("", 10.0, Face::Regular, 50.0), vec![String::new()]);
    }

    #[test]
    fn a_very_long_line_wraps_in_one_pass_without_losing_text() {
        let f = fonts().unwrap();
        // A DiskSpd command line for 1,024 volumes: tens of thousands of characters.
        let text = (1..=1024)
            .map(|i| format!("\\\\anf-{i}.example\\share{i}\\file.dat"))
            .collect::<Vec<_>>()
            .join(" ");
        let lines = f.wrap(&text, 7.0, Face::Mono, 300.0);
        assert!(lines.len() > 100);
        assert!(lines.iter().all(|l| f.width(Face::Mono, l, 7.0) <= 300.0));
        assert_eq!(lines.join(" "), text, "no text lost");
    }
}
