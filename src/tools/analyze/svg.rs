//! The evaluation graph of an analysed game as an SVG picture: the value after each move from
//! Black's point of view (above the middle line Black leads), one point per move, the marked moves
//! as coloured rings (yellow an inaccuracy, orange a mistake, red a blunder), move numbers on the
//! horizontal axis. Plain SVG 1.1, no script or external resource.

use super::{GameReport, Mark};
use std::fmt::Write;

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 320.0;
const LEFT: f64 = 48.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 36.0;

/// Escapes text for an SVG text node or attribute.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The picture of `game`.
pub fn graph(game: &GameReport) -> String {
    let values: Vec<f64> = game.moves.iter().map(|m| m.black_after).collect();
    // The vertical scale: the largest value rounded up to a multiple of 8 discs, at least 8.
    let top = values.iter().fold(8.0f64, |m, v| m.max(v.abs()));
    let top = (top / 8.0).ceil() * 8.0;
    let last = game.moves.last().map_or(60, |m| m.number).max(1) as f64;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let x = |number: usize| LEFT + plot_w * number as f64 / last;
    let y = |v: f64| TOP + plot_h * (top - v.clamp(-top, top)) / (2.0 * top);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(
        s,
        r#"<title>{} (black) vs {} (white): evaluation after each move, Black's view</title>"#,
        escape(&game.black),
        escape(&game.white)
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="{LEFT}" y="16" fill="#222">{} (black) vs {} (white){}</text>"##,
        escape(&game.black),
        escape(&game.white),
        match game.result {
            Some(r) if game.ended_early => format!(", result {r:+} (as recorded)"),
            Some(r) => format!(", result {r:+}"),
            None => String::new(),
        }
    );
    // Grid: the zero line, the scale's ends and halves; move numbers every 10.
    for v in [-top, -top / 2.0, 0.0, top / 2.0, top] {
        let stroke = if v == 0.0 { "#888" } else { "#ddd" };
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="{stroke}"/><text x="{2:.1}" y="{3:.1}" text-anchor="end" fill="#555">{v:+}</text>"##,
            y(v),
            WIDTH - RIGHT,
            LEFT - 6.0,
            y(v) + 4.0
        );
    }
    let mut n = 0;
    while n as f64 <= last {
        let _ = writeln!(
            s,
            r##"<line x1="{0:.1}" y1="{TOP}" x2="{0:.1}" y2="{1:.1}" stroke="#eee"/><text x="{0:.1}" y="{2:.1}" text-anchor="middle" fill="#555">{n}</text>"##,
            x(n),
            HEIGHT - BOTTOM,
            HEIGHT - BOTTOM + 14.0
        );
        n += 10;
    }
    let _ = writeln!(
        s,
        r##"<text x="{0:.1}" y="{1:.1}" text-anchor="middle" fill="#555">move</text>"##,
        LEFT + plot_w / 2.0,
        HEIGHT - 4.0
    );
    // The line and one point per move.
    let points: Vec<String> = game
        .moves
        .iter()
        .map(|m| format!("{:.1},{:.1}", x(m.number), y(m.black_after)))
        .collect();
    let _ = writeln!(
        s,
        r##"<polyline fill="none" stroke="#1f5fbf" stroke-width="1.5" points="{}"/>"##,
        points.join(" ")
    );
    let _ = writeln!(s, r#"<g class="points">"#);
    for m in &game.moves {
        let fill = if m.colour == "black" { "#000" } else { "#fff" };
        let _ = writeln!(
            s,
            r##"<circle class="move" cx="{:.1}" cy="{:.1}" r="2.5" fill="{fill}" stroke="#1f5fbf"><title>{}. {} {} {:+.1}</title></circle>"##,
            x(m.number),
            y(m.black_after),
            m.number,
            m.colour,
            m.played,
            m.black_after
        );
    }
    let _ = writeln!(s, "</g>");
    for m in &game.moves {
        let Some(mark) = m.mark else { continue };
        let colour = match mark {
            Mark::Inaccuracy => "#e0b000",
            Mark::Mistake => "#f07000",
            Mark::Blunder => "#d00000",
        };
        let _ = writeln!(
            s,
            r#"<circle class="mark" cx="{:.1}" cy="{:.1}" r="6" fill="none" stroke="{colour}" stroke-width="2"><title>{}. {} {}{} loses {:.1}</title></circle>"#,
            x(m.number),
            y(m.black_after),
            m.number,
            m.colour,
            m.played,
            mark.symbol(),
            m.loss
        );
    }
    s.push_str("</svg>\n");
    s
}
