//! A tile described in a few words ("V: road curve"), derived from the tile set's features so
//! that a corrected or new tile-set file describes itself: no table of words per letter.

use carc_rules::tileset::SegmentDef;
use carc_rules::{FeatureKind, Side, TileType};

/// The tile's features in words: its monastery, its cities (how many sides, opposite or
/// adjacent), coats of arms, its roads (an end, straight, a curve, a junction), a garden (or
/// only a field) and an arrow. "J: city on 1 side, road curve".
pub fn tile_words(tile: &TileType) -> String {
    let of =
        |kind| -> Vec<&SegmentDef> { tile.segments.iter().filter(|s| s.kind == kind).collect() };
    let cities = of(FeatureKind::City);
    let roads = of(FeatureKind::Road);
    let mut parts: Vec<String> = Vec::new();
    if tile.monastery_segment().is_some() {
        parts.push("monastery".into());
    }
    match cities.as_slice() {
        [] => {}
        [city] => parts.push(match city.sides.count_ones() {
            1 => "city on 1 side".into(),
            2 if opposite(city.sides) => "city across 2 opposite sides".into(),
            2 => "city on 2 adjacent sides".into(),
            n => format!("city on {n} sides"),
        }),
        many => {
            let all = many.iter().fold(0, |m, c| m | c.sides);
            parts.push(match (many.len(), all.count_ones()) {
                (2, 2) if opposite(all) => "2 cities on opposite sides".into(),
                (2, 2) => "2 cities on adjacent sides".into(),
                (n, _) => format!("{n} separate cities"),
            });
        }
    }
    match cities
        .iter()
        .map(|c| u32::from(c.coats_of_arms))
        .sum::<u32>()
    {
        0 => {}
        1 => parts.push("coat of arms".into()),
        n => parts.push(format!("{n} coats of arms")),
    }
    match roads.as_slice() {
        [] => {}
        [road] => parts.push(match road.sides.count_ones() {
            1 => "road end".into(),
            2 if opposite(road.sides) => "straight road".into(),
            2 => "road curve".into(),
            n => format!("road to {n} sides"),
        }),
        // Roads that each reach one side meet in the middle: a village or a crossing.
        many if many.iter().all(|r| r.sides.count_ones() == 1) => {
            parts.push(format!("junction of {} roads", many.len()));
        }
        many => parts.push(format!("{} roads", many.len())),
    }
    if tile.garden_segment().is_some() {
        parts.push("garden".into());
    }
    if parts.is_empty() {
        parts.push("field".into());
    }
    if let Some(arrow) = tile.arrow {
        parts.push(format!("{} arrow", arrow.symbol.word()));
    }
    parts.join(", ")
}

/// Where the tile's cities and roads are as its letter shows it (rotation 0): "city N,
/// road E-S". Tells apart tiles whose words are the same (J and K).
pub fn tile_layout(tile: &TileType) -> String {
    tile.segments
        .iter()
        .filter(|s| matches!(s.kind, FeatureKind::City | FeatureKind::Road))
        .map(|s| {
            let sides: Vec<String> = Side::ALL
                .into_iter()
                .filter(|side| s.sides & (1 << side.index()) != 0)
                .map(|side| side.name().to_string())
                .collect();
            format!("{} {}", s.kind, sides.join("-"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A 4-bit side mask of two sides facing each other (N and S, or E and W).
fn opposite(sides: u8) -> bool {
    sides & 0xF == 0b0101 || sides & 0xF == 0b1010
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_rules::TileSet;

    fn words(set: &TileSet, id: &str) -> String {
        tile_words(set.get(set.find(id).unwrap()))
    }

    #[test]
    fn base_tiles_in_words() {
        let base = TileSet::base();
        for (id, expected) in [
            ("A", "monastery, road end"),
            ("B", "monastery"),
            ("C", "city on 4 sides, coat of arms"),
            ("D", "city on 1 side, straight road"),
            ("E", "city on 1 side"),
            ("F", "city across 2 opposite sides, coat of arms"),
            ("H", "2 cities on opposite sides"),
            ("I", "2 cities on adjacent sides"),
            ("J", "city on 1 side, road curve"),
            ("L", "city on 1 side, junction of 3 roads"),
            ("N", "city on 2 adjacent sides"),
            ("Q", "city on 3 sides, coat of arms"),
            ("T", "city on 3 sides, road end"),
            ("U", "straight road"),
            ("V", "road curve"),
            ("W", "junction of 3 roads"),
            ("X", "junction of 4 roads"),
        ] {
            assert_eq!(words(&base, id), expected, "{id}");
        }
        let abbot = base.with_gardens();
        assert_eq!(words(&abbot, "E+garden"), "city on 1 side, garden");
        let anniversary = TileSet::anniversary();
        assert_eq!(words(&anniversary, "20O"), "field, extra turn arrow");
        assert_eq!(words(&anniversary, "20F"), "road curve, portal arrow");
    }

    #[test]
    fn the_layout_tells_j_from_k() {
        let base = TileSet::base();
        let layout = |id| tile_layout(base.get(base.find(id).unwrap()));
        assert_eq!(layout("J"), "city N, road E-S");
        assert_eq!(layout("K"), "city N, road S-W");
    }
}
