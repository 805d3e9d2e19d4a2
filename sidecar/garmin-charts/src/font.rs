//! The one font every chart uses, compiled into the binary so charts look the same everywhere and
//! need no system fonts: a subset of Noto Sans CJK SC Regular (Latin, digits, punctuation, the
//! symbols the charts draw and the 3,755 common Chinese characters of GB 2312 level 1). How it was
//! made and its licence (SIL OFL 1.1) are in `assets/`; `text.rs` draws with it.

use std::sync::OnceLock;

use ab_glyph::Font as _;

/// The font file.
pub static FONT_BYTES: &[u8] = include_bytes!("../assets/NotoSansSC-ChartSubset.otf");

/// True when the shipped font has a glyph for `c` (spaces and controls count as covered).
/// Characters it lacks are drawn as nothing, so callers can check names before drawing them.
pub fn covers(c: char) -> bool {
    static FONT: OnceLock<Option<ab_glyph::FontRef<'static>>> = OnceLock::new();
    if c.is_whitespace() || c.is_control() {
        return true;
    }
    FONT.get_or_init(|| ab_glyph::FontRef::try_from_slice(FONT_BYTES).ok())
        .as_ref()
        .is_some_and(|font| font.glyph_id(c).0 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_font_covers_latin_symbols_and_common_chinese() {
        for c in "Pace 4:59/km · 21.10 km × 3 – 7 h 20 min … 4′59″ 12 °C ≥ é ü".chars() {
            assert!(covers(c), "{c:?} is missing from the shipped font");
        }
        for c in
            "上海半程马拉松配速心率距离每周跑步骑行游泳睡眠深浅快速眼动清醒训练负荷压力身体电量晨跑越野间歇"
                .chars()
        {
            assert!(covers(c), "{c:?} is missing from the shipped font");
        }
        assert!(!covers('\u{E000}'), "a private-use character should not be covered");
    }
}
