//! The words a move is entered in at the table: a tile's letter (either case), a rotation
//! (0, 90, 180, 270, or turned the other way: -90, -180, -270), and what the player put on
//! the tile just placed (a meeple spot, `none`, the abbot).

use anyhow::{bail, Result};
use carc_events::{MeepleTarget, Rotation};
use carc_rules::{Game, TileTypeId};

use crate::commands::record::tile_words::{tile_layout, tile_words};

/// The rotations taken, as messages name them.
pub const ROTATIONS: &str = "0, 90, 180, 270 (or -90, -180, -270)";

/// A rotation in clockwise degrees from the letter's own orientation; a negative one turns
/// the other way (-90 is 270).
pub fn parse_rotation(text: &str) -> Result<Rotation> {
    let Ok(degrees) = text.trim().parse::<i64>() else {
        // Not a number: quoted, so that odd characters show as escapes.
        bail!("rotation {text:?} is not one of {ROTATIONS}");
    };
    if degrees % 90 != 0 || !(-270..=270).contains(&degrees) {
        bail!("rotation {degrees} is not one of {ROTATIONS}");
    }
    Ok(Rotation::from_degrees(degrees.rem_euclid(360)).expect("a multiple of 90 in 0..360"))
}

/// The tile a player drew, named by its letter in either case (`v` is V; `e+garden` is
/// E+garden). A name the tile set lacks, or a tile the bag no longer holds, is refused with
/// the letters the bag still holds, each with a word of what it shows.
pub fn drawn_tile(game: &Game, name: &str) -> Result<TileTypeId> {
    let tiles = game.tiles();
    let name = name.trim();
    let found = tiles.find(name).or_else(|| {
        tiles
            .ids()
            .find(|&t| tiles.get(t).id.eq_ignore_ascii_case(name))
    });
    match found {
        Some(tile) if game.bag_count(tile) > 0 => Ok(tile),
        Some(tile) => bail!(
            "no tile {} is left in the bag; {}",
            tiles.get(tile).id,
            bag_list(game)
        ),
        None => bail!("there is no tile {name:?}; {}", bag_list(game)),
    }
}

/// The letters still in the bag, a word of each and how many are left; tiles whose words are
/// the same also say where their cities and roads are at rotation 0.
pub fn bag_list(game: &Game) -> String {
    let tiles = game.tiles();
    let left: Vec<(TileTypeId, String)> = tiles
        .ids()
        .filter(|&t| game.bag_count(t) > 0)
        .map(|t| (t, tile_words(tiles.get(t))))
        .collect();
    if left.is_empty() {
        return "the bag is empty".into();
    }
    let lines: Vec<String> = left
        .iter()
        .map(|(t, words)| {
            let tile = tiles.get(*t);
            let twin = left.iter().filter(|(_, w)| w == words).count() > 1;
            let layout = if twin {
                format!(" (at 0°: {})", tile_layout(tile))
            } else {
                String::new()
            };
            format!(
                "  {}: {words}{layout}, {} left",
                tile.id,
                game.bag_count(*t)
            )
        })
        .collect();
    format!(
        "the bag holds (letter, in either case: what it shows):\n{}",
        lines.join("\n")
    )
}

/// What a player put on the tile just placed.
#[derive(Debug, PartialEq, Eq)]
pub enum Figure {
    None,
    Meeple(MeepleTarget),
    /// Inns & Cathedrals: the large meeple on a spot of the tile just placed.
    Large(MeepleTarget),
    /// Traders & Builders: the builder or the pig on a spot of the tile just placed.
    Builder(MeepleTarget),
    Pig(MeepleTarget),
    /// The abbot on the monastery or garden of the tile just placed; `None`: whichever the
    /// tile has.
    Abbot(Option<MeepleTarget>),
    AbbotBack,
}

/// `none`; a meeple spot as `legal` shows it (`road N`) or with a dash (`road-N`); the large
/// meeple (Inns & Cathedrals) as `large` before the spot (`large road N`, `large-road-N`), the
/// builder and the pig (Traders & Builders) likewise (`builder road N`, `pig-field-Sw`);
/// `abbot` (or `abbot monastery`, `abbot-garden`), `abbot-back`: the words of `record abbot`
/// and `record abbot-back`.
pub fn parse_figure(text: &str) -> Result<Figure> {
    let text = text.trim().replacen('-', " ", 1);
    Ok(match text.split_once(' ') {
        None if text == "none" => Figure::None,
        None if text == "abbot" => Figure::Abbot(None),
        Some(("abbot", "back")) => Figure::AbbotBack,
        Some(("abbot", on @ ("monastery" | "garden"))) => Figure::Abbot(Some(on.parse()?)),
        Some(("abbot", other)) => {
            bail!("the abbot goes on a monastery or a garden, not {other:?} (or `abbot-back`)")
        }
        Some(("large", spot)) => Figure::Large(spot.trim().replacen('-', " ", 1).parse()?),
        Some(("builder", spot)) => Figure::Builder(spot.trim().replacen('-', " ", 1).parse()?),
        Some(("pig", spot)) => Figure::Pig(spot.trim().replacen('-', " ", 1).parse()?),
        _ => Figure::Meeple(text.parse()?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotations_both_ways_and_a_plain_refusal() {
        for (text, degrees) in [
            ("0", 0),
            ("90", 90),
            ("180", 180),
            ("270", 270),
            ("-90", 270),
            ("-180", 180),
            ("-270", 90),
            (" 90", 90),
        ] {
            assert_eq!(parse_rotation(text).unwrap().degrees(), degrees, "{text}");
        }
        for bad in ["45", "360", "-360", "65536", "9999999999999999999999"] {
            let e = parse_rotation(bad).unwrap_err().to_string();
            assert!(
                e.ends_with("is not one of 0, 90, 180, 270 (or -90, -180, -270)"),
                "{e}"
            );
        }
        assert_eq!(
            parse_rotation("45").unwrap_err().to_string(),
            "rotation 45 is not one of 0, 90, 180, 270 (or -90, -180, -270)"
        );
        assert_eq!(
            parse_rotation("ninety").unwrap_err().to_string(),
            "rotation \"ninety\" is not one of 0, 90, 180, 270 (or -90, -180, -270)"
        );
    }

    #[test]
    fn figures_in_the_words_of_the_abbot_verbs() {
        assert_eq!(parse_figure("none").unwrap(), Figure::None);
        assert_eq!(parse_figure("abbot").unwrap(), Figure::Abbot(None));
        assert_eq!(parse_figure("abbot-back").unwrap(), Figure::AbbotBack);
        assert_eq!(parse_figure("abbot back").unwrap(), Figure::AbbotBack);
        assert_eq!(
            parse_figure("abbot-garden").unwrap(),
            Figure::Abbot(Some(MeepleTarget::garden()))
        );
        assert_eq!(
            parse_figure("abbot monastery").unwrap(),
            Figure::Abbot(Some(MeepleTarget::monastery()))
        );
        assert_eq!(
            parse_figure("road-N").unwrap(),
            Figure::Meeple("road N".parse().unwrap())
        );
        assert!(parse_figure("abbot-city").is_err());
        // The large meeple (Inns & Cathedrals): `large` before the spot, dashed or not
        let road_n: MeepleTarget = "road N".parse().unwrap();
        assert_eq!(parse_figure("large road N").unwrap(), Figure::Large(road_n));
        assert_eq!(parse_figure("large-road-N").unwrap(), Figure::Large(road_n));
        assert!(parse_figure("large").is_err(), "a spot is needed");
        assert!(parse_figure("large city Q").is_err());
        // The builder and the pig (Traders & Builders): their word before the spot
        assert_eq!(
            parse_figure("builder road N").unwrap(),
            Figure::Builder(road_n)
        );
        let field_sw: MeepleTarget = "field Sw".parse().unwrap();
        assert_eq!(parse_figure("pig-field-Sw").unwrap(), Figure::Pig(field_sw));
        assert!(parse_figure("pig").is_err(), "a spot is needed");
        assert!(parse_figure("abbott").is_err());
    }
}
