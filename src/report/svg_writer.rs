//! The charts' SVG writer: a plotters backend that writes the same document as
//! plotters' own SVG backend (`plotters-svg`, element for element and attribute for
//! attribute), without a formatted string per attribute. Coordinates are integers and
//! colours bytes, so both are written digit by digit; that backend's `format!` calls
//! took most of a chart's time.

use plotters::prelude::DrawingBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontStyle,
    FontTransform,
};
use std::convert::Infallible;
use std::fmt::Write;

type Drawn = Result<(), DrawingErrorKind<Infallible>>;

/// The plotters backend that appends an SVG document to a string.
pub struct SvgWriter<'a> {
    out: &'a mut String,
    size: (u32, u32),
    open: bool,
    /// The last font size written and its text (a chart uses a handful of sizes).
    font_size: (f64, String),
}

impl<'a> SvgWriter<'a> {
    /// A backend of `size` pixels writing into `out`.
    pub fn new(out: &'a mut String, size: (u32, u32)) -> Self {
        out.push_str("<svg width=\"");
        int(out, size.0 as i64);
        out.push_str("\" height=\"");
        int(out, size.1 as i64);
        out.push_str("\" viewBox=\"0 0 ");
        int(out, size.0 as i64);
        out.push(' ');
        int(out, size.1 as i64);
        out.push_str("\" xmlns=\"http://www.w3.org/2000/svg\">\n");
        SvgWriter {
            out,
            size,
            open: true,
            font_size: (f64::NAN, String::new()),
        }
    }

    /// ` name="value"` for an integer.
    fn attr_int(&mut self, name: &str, v: i64) {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        int(self.out, v);
        self.out.push('"');
    }

    fn attr(&mut self, name: &str, v: &str) {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        escape(self.out, v);
        self.out.push('"');
    }

    fn opacity(&mut self, c: BackendColor) {
        self.out.push_str(" opacity=\"");
        if c.alpha == 1.0 {
            self.out.push('1');
        } else {
            let _ = write!(self.out, "{}", c.alpha);
        }
        self.out.push('"');
    }

    fn colour(&mut self, name: &str, c: BackendColor) {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        hex(self.out, c.rgb);
        self.out.push('"');
    }

    fn points(&mut self, path: impl IntoIterator<Item = BackendCoord>) {
        self.out.push_str(" points=\"");
        for (x, y) in path {
            int(self.out, x.into());
            self.out.push(',');
            int(self.out, y.into());
            self.out.push(' ');
        }
        self.out.push('"');
    }
}

/// Writes an integer without the formatter.
fn int(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    // Writing to a `String` cannot fail.
    let _ = crate::engine::trace::write_int(out, v.unsigned_abs());
}

/// `#RRGGBB` in capitals, as plotters writes it.
fn hex(out: &mut String, (r, g, b): (u8, u8, u8)) {
    const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
    out.push('#');
    for v in [r, g, b] {
        out.push(char::from(DIGITS[usize::from(v >> 4)]));
        out.push(char::from(DIGITS[usize::from(v & 15)]));
    }
}

/// Appends `s` with the five XML special characters escaped, as plotters writes text.
pub(crate) fn escape(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
}

impl DrawingBackend for SvgWriter<'_> {
    type ErrorType = Infallible;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Drawn {
        Ok(())
    }

    fn present(&mut self) -> Drawn {
        if self.open {
            self.out.push_str("</svg>\n");
            self.open = false;
        }
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Drawn {
        if color.alpha == 0.0 {
            return Ok(());
        }
        self.out.push_str("<rect");
        self.attr_int("x", point.0.into());
        self.attr_int("y", point.1.into());
        self.out
            .push_str(" width=\"1\" height=\"1\" stroke=\"none\"");
        self.opacity(color);
        self.colour("fill", color);
        self.out.push_str("/>\n");
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Drawn {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        self.out.push_str("<line");
        self.opacity(c);
        self.colour("stroke", c);
        self.attr_int("stroke-width", style.stroke_width().into());
        self.attr_int("x1", from.0.into());
        self.attr_int("y1", from.1.into());
        self.attr_int("x2", to.0.into());
        self.attr_int("y2", to.1.into());
        self.out.push_str("/>\n");
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Drawn {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        self.out.push_str("<rect");
        self.attr_int("x", upper_left.0.into());
        self.attr_int("y", upper_left.1.into());
        self.attr_int("width", i64::from(bottom_right.0) - i64::from(upper_left.0));
        self.attr_int(
            "height",
            i64::from(bottom_right.1) - i64::from(upper_left.1),
        );
        self.opacity(c);
        if fill {
            self.colour("fill", c);
            self.out.push_str(" stroke=\"none\"");
        } else {
            self.out.push_str(" fill=\"none\"");
            self.colour("stroke", c);
        }
        self.out.push_str("/>\n");
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        self.out.push_str("<polyline fill=\"none\"");
        self.opacity(c);
        self.colour("stroke", c);
        self.attr_int("stroke-width", style.stroke_width().into());
        self.points(path);
        self.out.push_str("/>\n");
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Drawn {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        self.out.push_str("<polygon");
        self.opacity(c);
        self.colour("fill", c);
        self.points(path);
        self.out.push_str("/>\n");
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Drawn {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        self.out.push_str("<circle");
        self.attr_int("cx", center.0.into());
        self.attr_int("cy", center.1.into());
        self.attr_int("r", radius.into());
        self.opacity(c);
        if fill {
            self.colour("fill", c);
            self.out.push_str(" stroke=\"none\"");
        } else {
            self.out.push_str(" fill=\"none\"");
            self.colour("stroke", c);
        }
        self.attr_int("stroke-width", style.stroke_width().into());
        self.out.push_str("/>\n");
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Drawn {
        let c = style.color();
        if c.alpha == 0.0 {
            return Ok(());
        }
        let (x, y) = pos;
        let anchor = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "middle",
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => "0.76em",
            VPos::Center => "0.5ex",
            VPos::Bottom => "-0.5ex",
        };
        self.out.push_str("<text");
        self.attr_int("x", x.into());
        self.attr_int("y", y.into());
        self.out.push_str(" dy=\"");
        self.out.push_str(dy);
        self.out.push_str("\" text-anchor=\"");
        self.out.push_str(anchor);
        self.out.push('"');
        self.attr("font-family", style.family().as_str());
        let size = style.size();
        if self.font_size.0 != size {
            self.font_size = (size, format!("{}", size / 1.24));
        }
        self.out.push_str(" font-size=\"");
        self.out.push_str(&self.font_size.1);
        self.out.push('"');
        self.opacity(c);
        self.colour("fill", c);
        match style.style() {
            FontStyle::Normal => {}
            FontStyle::Bold => self.out.push_str(" font-weight=\"bold\""),
            other => self.attr("font-style", other.as_str()),
        }
        let degrees = match style.transform() {
            FontTransform::Rotate90 => Some(90),
            FontTransform::Rotate180 => Some(180),
            FontTransform::Rotate270 => Some(270),
            _ => None,
        };
        if let Some(d) = degrees {
            self.out.push_str(" transform=\"rotate(");
            int(self.out, d);
            self.out.push_str(", ");
            int(self.out, x.into());
            self.out.push_str(", ");
            int(self.out, y.into());
            self.out.push_str(")\"");
        }
        self.out.push_str(">\n");
        escape(self.out, text);
        self.out.push_str("\n</text>\n");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::{Chart, ChartName};
    use crate::report::model::fixture;
    use plotters::prelude::*;

    /// Every chart of the fixture, drawn by both backends, gives the same document.
    #[test]
    fn writes_what_plotters_svg_writes() {
        crate::report::charts::init_fonts();
        let (s, e) = fixture::example();
        for name in ChartName::ALL {
            let chart = Chart::of(name, &s, &e).expect("chart");
            let mut ours = String::new();
            let mut theirs = String::new();
            {
                let root = SvgWriter::new(&mut ours, chart.size()).into_drawing_area();
                chart.draw(&root).expect("draws");
            }
            {
                let root = SVGBackend::with_string(&mut theirs, chart.size()).into_drawing_area();
                chart.draw(&root).expect("draws");
            }
            assert!(ours.len() > 1000, "{name:?} drew something");
            assert_eq!(ours, theirs, "{name:?}");
        }
    }

    #[test]
    fn integers_and_colours_are_written_as_the_formatter_would() {
        for v in [0i64, 7, -7, 10, 1234, -98765, i64::from(i32::MAX)] {
            let mut s = String::new();
            int(&mut s, v);
            assert_eq!(s, v.to_string());
        }
        let mut s = String::new();
        hex(&mut s, (0x0a, 0xb2, 0xff));
        assert_eq!(s, "#0AB2FF");
    }
}
