//! Text made safe for HTML, which every page writer uses.

use carc_draw::svg;

/// Text escaped for HTML content and attribute values. Everything from a log or an
/// annotation goes through here.
pub fn escape(text: &str) -> String {
    // Bidi controls and U+2028/U+2029 become the visible text `\u{202e}`, as in every other
    // report, so that no name reorders the line it is on
    let text = carc_replay::describe::visible_format(text);
    // The SVG writer's escaping covers the five characters that matter in HTML as well.
    svg::escape(&text)
}
