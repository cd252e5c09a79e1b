//! Code on pages: set in the largest size (at most [`CODE_MAX`], at least
//! [`CODE_MIN`]) at which every line that may not wrap fits; a line still too long
//! continues on the next line in its language's own way (a comment as another comment,
//! PowerShell with a backtick, a shell command with a `\`, a job file's option after a
//! visible `↪`), so copied text runs.

use super::{BAND, BODY_LINE, BODY_SIZE, INK, Layout, MARGIN_X};
use crate::report::doc::pdf::fonts::{Face, Fonts};

/// Code: the largest and smallest size, and the padding inside its band.
const CODE_MAX: f32 = 7.0;
const CODE_MIN: f32 = 4.6;
const CODE_PAD: f32 = 6.0;
/// Fewest code lines a page break leaves on either side.
const KEEP_LINES: usize = 5;

/// Code lines as drawn: the size, and each drawn line with whether it continues the
/// line before.
struct CodeLines {
    size: f32,
    lines: Vec<(String, bool)>,
}

impl Layout<'_> {
    /// The size code is set in and its drawn lines: the largest size (at most
    /// [`CODE_MAX`], at least [`CODE_MIN`]) at which every line that may not wrap fits;
    /// a comment too long at that size continues as another comment, a PowerShell line
    /// with a backtick, a job file's option with a visible `↪` on the next line, and a
    /// shell command (any other line) with a `\`: at a space, the next line indented;
    /// inside a word, the next line flush, so the shell joins the word again.
    fn code_lines(&self, text: &str, lang: &str) -> CodeLines {
        let inner = self.content_width() - 2.0 * CODE_PAD;
        let lines: Vec<String> = text
            .trim_end()
            .lines()
            .map(|l| l.replace('\t', "    "))
            .collect();
        let comment = |l: &str| l.trim_start().starts_with('#');
        let widest = lines
            .iter()
            .filter(|l| !comment(l))
            .map(|l| self.fonts.width(Face::Mono, l, CODE_MAX))
            .fold(0.0, f32::max);
        let size = if widest > inner {
            (CODE_MAX * inner / widest * 0.99).max(CODE_MIN)
        } else {
            CODE_MAX
        };
        let mut out = Vec::with_capacity(lines.len());
        for line in lines {
            if self.fonts.width(Face::Mono, &line, size) <= inner {
                out.push((line, false));
                continue;
            }
            let shell = !comment(&line) && lang != "powershell" && lang != "ini";
            let (lead, cont) = if comment(&line) {
                ("", "#    ")
            } else if lang == "powershell" {
                (" `", "    ")
            } else if shell {
                (" \\", "    ")
            } else {
                ("", "↪ ")
            };
            let cont_w = self.fonts.width(Face::Mono, cont, size);
            let lead_w = self.fonts.width(Face::Mono, lead, size);
            let mut prefix = "";
            let mut first = true;
            let mut rest = line.as_str();
            while !rest.is_empty() {
                let room = inner - if first { 0.0 } else { cont_w } - lead_w;
                let at_space = comment(&line) || lang == "powershell" || shell;
                let piece = fit_piece(self.fonts, rest, size, room, at_space);
                let tail = &rest[piece.len()..];
                let mut drawn = format!("{prefix}{}", piece.trim_end());
                // A shell word cut in two joins again only with no space around the `\`.
                let in_word = shell && !tail.is_empty() && !piece.ends_with(' ');
                if in_word {
                    drawn.push('\\');
                } else if !tail.is_empty() {
                    drawn.push_str(lead);
                }
                out.push((drawn, !first));
                prefix = if in_word { "" } else { cont };
                rest = if in_word { tail } else { tail.trim_start() };
                first = false;
            }
        }
        CodeLines { size, lines: out }
    }

    /// Preformatted text on a shaded band, breaking across pages between lines; a page
    /// break never leaves fewer than [`KEEP_LINES`] lines on either side of it.
    pub(super) fn code(&mut self, title: &str, text: &str, lang: &str) {
        let code = self.code_lines(text, lang);
        let line_h = code.size * 1.3;
        let n = code.lines.len();
        if !title.is_empty() {
            self.y += 4.0;
            self.ensure(BODY_LINE + (KEEP_LINES.min(n) as f32) * line_h);
            self.paragraph(title, BODY_SIZE, Face::Bold, INK, 0.0);
        }
        self.y += 2.0;
        let w = self.content_width();
        for (i, (line, _)) in code.lines.iter().enumerate() {
            // Where the rest would leave a few lines alone on the next page, break here.
            let fit = ((self.room() / line_h) as usize).max(1);
            let left = n - i;
            if left > fit && left - fit < KEEP_LINES && fit <= KEEP_LINES && i > 0 {
                self.new_page();
            }
            self.ensure(line_h);
            self.rect(MARGIN_X, self.y, w, line_h, BAND);
            self.text(
                MARGIN_X + CODE_PAD,
                self.y + line_h - code.size * 0.35,
                code.size,
                Face::Mono,
                INK,
                line,
            );
            self.y += line_h;
        }
        self.y += 8.0;
    }
}

/// The longest start of `text` that fits `room` points, cut at a space when `at_space`
/// and one exists, else at a character (at least one character).
fn fit_piece<'t>(fonts: &Fonts, text: &'t str, size: f32, room: f32, at_space: bool) -> &'t str {
    let mut end = 0;
    let mut w = 0.0;
    let mut last_space = None;
    for (i, c) in text.char_indices() {
        let cw = fonts.width(Face::Mono, c.encode_utf8(&mut [0; 4]), size);
        if w + cw > room && end > 0 {
            break;
        }
        w += cw;
        end = i + c.len_utf8();
        if c == ' ' {
            last_space = Some(end);
        }
    }
    let cut = match last_space {
        Some(s) if at_space && end < text.len() => s,
        _ => end,
    };
    &text[..cut]
}
