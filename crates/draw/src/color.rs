//! The palette: tiles, map boards, arrows, overlays and players.

use carc_rules::ArrowSymbol;

/// An sRGB colour with **straight** (not premultiplied) alpha, as SVG and CSS write colours.
/// The viewer premultiplies when it hands a colour to egui.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgba {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Rgba {
    pub const WHITE: Rgba = Rgba::rgb(255, 255, 255);
    pub const BLACK: Rgba = Rgba::rgb(0, 0, 0);

    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba { r, g, b, a: 255 }
    }

    pub const fn new(r: u8, g: u8, b: u8, a: u8) -> Rgba {
        Rgba { r, g, b, a }
    }

    /// An opaque grey.
    pub const fn gray(l: u8) -> Rgba {
        Rgba::rgb(l, l, l)
    }

    /// `#rrggbb`, the colour without its alpha.
    pub fn hex(&self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }

    /// Whether every channel is dark (a black meeple gets a white outline).
    pub fn is_dark(&self) -> bool {
        self.r < 60 && self.g < 60 && self.b < 60
    }
}

pub const BACKGROUND: Rgba = Rgba::rgb(40, 44, 40);
pub const FIELD: Rgba = Rgba::rgb(104, 160, 72);
pub const FIELD_EDGE: Rgba = Rgba::rgb(70, 115, 50);
pub const CITY: Rgba = Rgba::rgb(196, 150, 92);
pub const WALL: Rgba = Rgba::rgb(110, 72, 38);
pub const ROAD: Rgba = Rgba::rgb(238, 232, 210);
pub const ROAD_EDGE: Rgba = Rgba::rgb(120, 110, 90);
/// The River: the water of river tiles.
pub const RIVER: Rgba = Rgba::rgb(70, 130, 200);
/// Inns & Cathedrals: the inn's roof (beside its road, on its small lake) and the cathedral.
pub const INN: Rgba = Rgba::rgb(180, 40, 40);
pub const INN_LAKE: Rgba = Rgba::rgb(120, 180, 230);
pub const CATHEDRAL: Rgba = Rgba::rgb(150, 150, 170);
/// Traders & Builders: the goods in cities (a bunch of grapes, a sheaf, a bolt of cloth).
pub const WINE: Rgba = Rgba::rgb(120, 30, 110);
pub const GRAIN: Rgba = Rgba::rgb(235, 195, 60);
pub const CLOTH: Rgba = Rgba::rgb(60, 150, 200);
pub const MONASTERY: Rgba = Rgba::rgb(200, 80, 60);
pub const MONASTERY_WALL: Rgba = Rgba::rgb(240, 225, 200);
pub const SHIELD: Rgba = Rgba::rgb(40, 70, 170);
pub const LAST_PLACED: Rgba = Rgba::rgb(255, 140, 0);
pub const HIGHLIGHT: Rgba = Rgba::rgb(255, 240, 60);
/// The highlight's wash over a square: 35 % of the highlight colour.
pub const HIGHLIGHT_FILL: Rgba = Rgba::new(255, 240, 60, 89);
/// Squares where the drawn tile could go: a faint white frame.
pub const LEGAL: Rgba = Rgba::new(255, 255, 255, 90);
/// Arrow colours (20th Anniversary), one per symbol.
pub const COMPANION: Rgba = Rgba::rgb(150, 70, 200);
pub const PORTAL: Rgba = Rgba::rgb(30, 190, 210);
pub const EXTRA_TURN: Rgba = Rgba::rgb(235, 120, 20);
/// Map boards (Carcassonne Maps): playable land, sea, foreign land, towns and prints.
pub const MAP_LAND: Rgba = Rgba::rgb(72, 96, 62);
pub const MAP_SEA: Rgba = Rgba::rgb(44, 70, 110);
pub const MAP_ABROAD: Rgba = Rgba::rgb(86, 84, 70);
pub const MAP_OUTLINE: Rgba = Rgba::rgb(20, 26, 20);
pub const TOWN: Rgba = Rgba::rgb(200, 60, 50);
/// A spent arrow is greyed over.
pub const SPENT: Rgba = Rgba::new(89, 89, 89, 200);
/// A meeple's outline when the meeple is not dark.
pub const MEEPLE_OUTLINE: Rgba = Rgba::rgb(20, 20, 20);

/// The colour of an arrow's symbol.
pub fn arrow_color(symbol: ArrowSymbol) -> Rgba {
    match symbol {
        ArrowSymbol::Companion => COMPANION,
        ArrowSymbol::Portal => PORTAL,
        ArrowSymbol::ExtraTurn => EXTRA_TURN,
    }
}

/// The meeple colour of a player's colour, by its log name (`red`, `blue`, `green`,
/// `yellow`, `black`, `gray`); `None` for any other name. The names are the log's (this crate
/// does not know the log format, so it takes the name rather than the type).
pub fn player_color(name: &str) -> Option<Rgba> {
    Some(match name {
        "red" => Rgba::rgb(214, 40, 40),
        "blue" => Rgba::rgb(40, 90, 220),
        "green" => Rgba::rgb(40, 170, 70),
        "yellow" => Rgba::rgb(245, 205, 30),
        "black" => Rgba::rgb(25, 25, 25),
        "gray" => Rgba::rgb(150, 150, 150),
        _ => return None,
    })
}

/// A player's colour for text and plot lines: the meeple colour, changed where it would vanish
/// against a dark or a light background.
pub fn player_text_color(name: &str, dark_background: bool) -> Option<Rgba> {
    Some(match (name, dark_background) {
        ("red", true) => Rgba::rgb(255, 100, 100),
        ("blue", true) => Rgba::rgb(110, 160, 255),
        ("black", true) => Rgba::rgb(235, 235, 235),
        ("yellow", false) => Rgba::rgb(170, 130, 0),
        ("gray", false) => Rgba::rgb(110, 110, 110),
        _ => return player_color(name),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_writes_two_lowercase_digits_per_channel() {
        assert_eq!(Rgba::rgb(1, 171, 255).hex(), "#01abff");
    }

    #[test]
    fn every_player_colour_has_a_meeple_and_text_colour_and_others_have_none() {
        for name in ["red", "blue", "green", "yellow", "black", "gray"] {
            assert!(player_color(name).is_some(), "{name}");
            for dark in [false, true] {
                assert!(player_text_color(name, dark).is_some(), "{name}");
            }
        }
        assert_eq!(player_color("purple"), None);
        assert_eq!(player_text_color("Red", true), None);
        // Black text on a dark background is lightened; on a light one it stays.
        assert_ne!(player_text_color("black", true), player_color("black"));
        assert_eq!(player_text_color("black", false), player_color("black"));
    }
}
