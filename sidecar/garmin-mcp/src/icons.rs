//! The icons hosts show beside the server and each tool (MCP 2025-11-25 `icons`), and the tool
//! titles they show (`Tool.title`, 2025-06-18: hosts prefer it to `annotations.title`, which older
//! ones read, so both say the same). One small SVG per toolset, drawn for this project in the app
//! icon's colours (a white glyph on the teal tile) and sent as a `data:` URI: no host has to fetch
//! anything, and the list stays small (about 400 bytes a tool, cached by clients for a day, see
//! `LIST_TTL_MS` in `crate::server`).

use std::sync::LazyLock;

use base64::Engine as _;
use rmcp::model::{Icon, Tool};

use crate::toolsets::TOOLSETS;

/// The glyph of each toolset: one path of 24 × 24 strokes.
const GLYPHS: [(&str, &str); 16] = [
    ("activities", "M3 13h4l2-5 3 9 2-6 1 2h6"),
    ("stats", "M6 18v-5M12 18V7M18 18v-9"),
    ("calendar", "M5 7h14v12H5zM5 11h14M9 4v4M15 4v4"),
    ("training", "M5 16a7 7 0 1 1 14 0M12 16l3-5"),
    ("health", "M12 19s-7-4.5-7-9a4 4 0 0 1 7-2.5A4 4 0 0 1 19 10c0 4.5-7 9-7 9z"),
    ("profile", "M12 12a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM5 20a7 7 0 0 1 14 0"),
    ("workouts", "M6 7h12M6 12h9M6 17h6"),
    ("events", "M7 20V4M7 5h10l-2 3 2 3H7"),
    (
        "social",
        "M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM3 19a6 6 0 0 1 12 0M16 11a2.5 2.5 0 1 0 0-5M17 14a5 5 0 0 1 4 5",
    ),
    ("charts", "M4 19V5M4 19h16M7 15l4-4 3 3 5-6"),
    ("exports", "M12 4v11M7 10l5 5 5-5M5 20h14"),
    ("changes", "M9 7 5 11l4 4M5 11h9a4.5 4.5 0 0 1 0 9h-2"),
    ("athlete", "M7 4h10v16l-5-3-5 3z"),
    (
        "history",
        "M5 6c0-1.7 3.1-3 7-3s7 1.3 7 3-3.1 3-7 3-7-1.3-7-3zM5 6v12c0 1.7 3.1 3 7 3s7-1.3 7-3V6M5 12c0 1.7 3.1 3 7 3s7-1.3 7-3",
    ),
    ("analysis", "M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM15.5 15.5 20 20M7.5 12l2-2 2 2 2-3"),
    ("session", "M14 10a4 4 0 1 0-4 4m0 0-5 5m2-2 2 2"),
];

/// The server's own glyph: a watch face with a heart-rate trace, as on the app icon.
const SERVER_GLYPH: &str = "M12 19a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM7 12h2l1.5-3 2 6 1.5-3h3";

/// `glyph` on the app's tile, as a base64 `data:` URI.
fn data_uri(glyph: &str) -> String {
    let svg = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="24" height="24" rx="5" fill="#127c80"/><path d="{glyph}" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/></svg>"##
    );
    format!("data:image/svg+xml;base64,{}", base64::engine::general_purpose::STANDARD.encode(svg))
}

fn icon(glyph: &str) -> Icon {
    let mut icon = Icon::new(data_uri(glyph));
    icon.mime_type = Some("image/svg+xml".to_owned());
    icon.sizes = Some(vec!["any".to_owned()]);
    icon
}

/// Each toolset's icon, made once.
static TOOLSET_ICONS: LazyLock<Vec<(&'static str, Icon)>> =
    LazyLock::new(|| GLYPHS.iter().map(|(set, glyph)| (*set, icon(glyph))).collect());

/// The server's icons (`serverInfo.icons`).
pub fn server() -> Vec<Icon> {
    vec![icon(SERVER_GLYPH)]
}

/// The icon of the toolset `tool` belongs to.
pub fn of_tool(tool: &str) -> Option<Icon> {
    let set = TOOLSETS.iter().find(|set| set.tools.contains(&tool))?;
    TOOLSET_ICONS.iter().find(|(id, _)| *id == set.id).map(|(_, icon)| icon.clone())
}

/// Gives `tool` its toolset's icon and, as its top-level `title`, the title of its annotations.
pub fn adorn(tool: &mut Tool) {
    if tool.title.is_none() {
        tool.title = tool.annotations.as_ref().and_then(|a| a.title.clone());
    }
    if let Some(icon) = of_tool(&tool.name) {
        tool.icons = Some(vec![icon]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_toolset_has_a_glyph_and_every_icon_is_a_small_svg_data_uri() {
        for set in TOOLSETS {
            assert!(GLYPHS.iter().any(|(id, _)| *id == set.id), "toolset {} has no icon", set.id);
            for tool in set.tools {
                let icon = of_tool(tool).unwrap();
                assert!(icon.src.starts_with("data:image/svg+xml;base64,"), "{tool}");
                assert!(icon.src.len() < 700, "{tool}'s icon is {} bytes", icon.src.len());
            }
        }
        let svg = base64::engine::general_purpose::STANDARD
            .decode(server()[0].src.trim_start_matches("data:image/svg+xml;base64,"))
            .unwrap();
        assert!(String::from_utf8(svg).unwrap().starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    }
}
