//! A few helpers for writing SVG text by hand: numbers, escaping, dice and arrows.
//!
//! The drawings use presentation attributes only: no `<style>`, no `id`, no `<defs>`, because a
//! page that inlines several boards shares one id space and one style sheet between them.

use std::fmt::Write;

/// A coordinate written with at most one decimal, without a trailing `.0`.
pub(crate) fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// Text made safe inside an element or a double-quoted attribute.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 forbids (control characters) are dropped.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// Opens the root element: a picture `width` by `height` user units, drawn at that size unless
/// the page scales it (the `viewBox` lets it scale cleanly).
pub(crate) fn open(out: &mut String, class: &str, width: f64, height: f64, extra: &str, title: &str) {
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="{class}" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="sans-serif" role="img"{extra}><title>{title}</title>"#,
        w = num(width),
        h = num(height),
        title = escape(title),
    );
}

/// One die: `<g class="die" data-value="D">`, a rounded square of side `size` centred on
/// (`cx`, `cy`) with its pips (which are not checkers).
pub(crate) fn die(out: &mut String, value: u8, cx: f64, cy: f64, size: f64) {
    let h = size / 2.0;
    let _ = write!(
        out,
        r##"<g class="die" data-value="{value}"><rect x="{}" y="{}" width="{}" height="{}" rx="{}" fill="#fffdf7" stroke="#333" stroke-width="1.5"/>"##,
        num(cx - h),
        num(cy - h),
        num(size),
        num(size),
        num(size * 0.18),
    );
    let q = size * 0.27;
    let spots: &[(f64, f64)] = match value {
        1 => &[(0.0, 0.0)],
        2 => &[(-q, -q), (q, q)],
        3 => &[(-q, -q), (0.0, 0.0), (q, q)],
        4 => &[(-q, -q), (q, -q), (-q, q), (q, q)],
        5 => &[(-q, -q), (q, -q), (0.0, 0.0), (-q, q), (q, q)],
        _ => &[(-q, -q), (q, -q), (-q, 0.0), (q, 0.0), (-q, q), (q, q)],
    };
    for (dx, dy) in spots {
        let _ = write!(
            out,
            r##"<circle class="pip" cx="{}" cy="{}" r="{}" fill="#222"/>"##,
            num(cx + dx),
            num(cy + dy),
            num(size * 0.09)
        );
    }
    out.push_str("</g>");
}

/// An arrow from (`x1`, `y1`) to (`x2`, `y2`), its head drawn as a polygon (a marker would need
/// an `id`).
pub(crate) fn arrow(out: &mut String, attributes: &str, from: (f64, f64), to: (f64, f64), colour: &str) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / length, dy / length);
    let head = 12.0_f64.min(length * 0.6);
    let base = (to.0 - ux * head, to.1 - uy * head);
    let (px, py) = (-uy * head * 0.5, ux * head * 0.5);
    let _ = write!(
        out,
        r#"<g class="arrow"{attributes}><line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{colour}" stroke-width="3.5" stroke-linecap="round" stroke-opacity="0.85"/><polygon points="{},{} {},{} {},{}" fill="{colour}" fill-opacity="0.85"/></g>"#,
        num(from.0),
        num(from.1),
        num(base.0),
        num(base.1),
        num(to.0),
        num(to.1),
        num(base.0 + px),
        num(base.1 + py),
        num(base.0 - px),
        num(base.1 - py),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(num(3.0), "3");
        assert_eq!(num(2.25), "2.3");
        assert_eq!(num(-0.04), "0");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
    }
}
