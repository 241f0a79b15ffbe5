//! Replays using an expansion the importer does not map are refused, naming the expansion and
//! each notification that uses it. No replay with an expansion is in our corpus: these are
//! CONSTRUCTED from `tests/fixtures/short.json` (the first packets of a corpus base game) by
//! changing the tile of its first draw and placement, or the figure of its first meeple, into
//! what an expansion's would be by the ids `docs/bga.md` cites (BGA tile ids 73-90: Inns &
//! Cathedrals; 91-114: Traders & Builders; piece names `big`, `builder`, `pig`). The tile
//! `type`s used (27, 40, 60) are placeholders: BGA's types for these tiles are unknown, and
//! the importer must refuse whatever they are.

use carc_bga::BgaError;
use serde_json::{json, Value};

fn short() -> Value {
    let path = format!("{}/tests/fixtures/short.json", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The notification `n` of packet `p`.
fn note(v: &mut Value, p: usize, n: usize) -> &mut Value {
    &mut v["data"]["data"][p]["data"][n]
}

/// The fixture's first tile (drawn in packet 0, placed in packet 1) as tile `id` of `bga_type`.
fn first_tile_as(v: &mut Value, id: &str, bga_type: &str) {
    let draw = &mut note(v, 0, 5)["args"]["args"];
    assert_eq!(draw["tile_id"], "20", "the fixture's first draw");
    draw["tile_id"] = json!(id);
    draw["tile_type"] = json!(bga_type);
    let placed = &mut note(v, 1, 0)["args"];
    assert_eq!(placed["id"], "20", "the fixture's first placement");
    placed["id"] = json!(id);
    placed["type"] = json!(bga_type);
}

/// The refusal's items (one per unsupported thing, each with where it is used).
fn refused(v: &Value) -> Vec<String> {
    match carc_bga::import(v.to_string().as_bytes()) {
        Err(BgaError::Unsupported(items)) => items,
        Err(other) => panic!("refused for another reason: {other}"),
        Ok(_) => panic!("imported"),
    }
}

#[test]
fn the_fixture_itself_imports() {
    assert!(carc_bga::import(short().to_string().as_bytes()).is_ok());
}

#[test]
fn an_inns_and_cathedrals_game_is_refused_naming_the_expansion_its_tiles_and_large_meeple() {
    let mut v = short();
    // The cathedral (BGA tile 81) as the first tile, and the large meeple on it.
    first_tile_as(&mut v, "81", "27");
    note(&mut v, 3, 0)["args"]["ptype"] = json!("big");
    let items = refused(&v);
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(
        items[0],
        "Inns & Cathedrals tiles (BGA tile ids 73-90; carc's rules have the expansion, but \
         BGA's tile types, orientations and meeple spots for it are not mapped: no replay with \
         it was checked) (at packet 0 (gameStateChange), packet 1 (playTile))"
    );
    assert_eq!(
        items[1],
        "Inns & Cathedrals' large meeple (figure \"big\"; carc's rules have the expansion, but \
         BGA's tile types, orientations and meeple spots for it are not mapped: no replay with \
         it was checked) (at packet 3 (playPartisan))"
    );
    // The whole error says why it is not imported.
    let text = carc_bga::import(v.to_string().as_bytes())
        .unwrap_err()
        .to_string();
    assert!(text.starts_with(
        "the game uses what carc does not read from Board Game Arena (the base game only)"
    ));
}

#[test]
fn every_inns_and_cathedrals_tile_id_is_one_item_whatever_its_type() {
    let mut v = short();
    first_tile_as(&mut v, "73", "25");
    // The second tile (drawn in packet 3, placed in packet 4) is the last id, another type.
    let draw = &mut note(&mut v, 3, 7)["args"]["args"];
    assert_eq!(draw["tile_id"], "9");
    draw["tile_id"] = json!("90");
    draw["tile_type"] = json!("41");
    let items = refused(&v);
    assert_eq!(items.len(), 1, "{items:?}");
    assert!(items[0].starts_with("Inns & Cathedrals tiles (BGA tile ids 73-90;"));
    assert!(items[0].ends_with(
        "(at packet 0 (gameStateChange), packet 1 (playTile), packet 3 (gameStateChange))"
    ));
}

#[test]
fn a_large_meeple_in_a_base_game_is_refused_at_its_notification() {
    // Every tile a base one, but a meeple of the kind only Inns & Cathedrals has.
    let mut v = short();
    note(&mut v, 3, 0)["args"]["ptype"] = json!("big");
    let items = refused(&v);
    assert_eq!(items.len(), 1, "{items:?}");
    assert!(items[0].starts_with("Inns & Cathedrals' large meeple (figure \"big\";"));
    assert!(items[0].ends_with("(at packet 3 (playPartisan))"));

    // The large meeple coming back from a scored feature (BGA lists `big` with a count in
    // every scoring's `part_to_recover`; a count of 0 is the base game's).
    let mut v = short();
    let recover = &mut note(&mut v, 3, 3)["args"]["part_to_recover"];
    let player = recover.as_object().unwrap().keys().next().unwrap().clone();
    assert_eq!(
        recover[&player]["big"], 0,
        "the fixture lists the large meeple at 0"
    );
    recover[&player]["big"] = json!(1);
    let items = refused(&v);
    assert_eq!(items.len(), 1, "{items:?}");
    assert!(items[0].starts_with("Inns & Cathedrals' large meeple (figure \"big\";"));
    assert!(items[0].ends_with(&format!(
        "(of player {player}) (at packet 3 (realizationAchieved))"
    )));
}

#[test]
fn traders_and_builders_tiles_and_figures_are_named_not_mapped() {
    let mut v = short();
    first_tile_as(&mut v, "100", "40");
    let recover = &mut note(&mut v, 3, 3)["args"]["part_to_recover"];
    let player = recover.as_object().unwrap().keys().next().unwrap().clone();
    recover[&player]["pig"] = json!(1);
    let items = refused(&v);
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(
        items[0],
        "Traders & Builders tiles (BGA tile ids 91-114; not mapped) \
         (at packet 0 (gameStateChange), packet 1 (playTile))"
    );
    assert_eq!(
        items[1],
        format!(
            "Traders & Builders' pig (figure \"pig\"; not mapped) (of player {player}) \
             (at packet 3 (realizationAchieved))"
        )
    );
}

#[test]
fn a_tile_of_no_known_expansion_is_named_by_type_and_id_with_the_river_as_a_candidate() {
    // The River's tile ids and types are in no source we found; any tile outside the known
    // ranges is refused by its type, saying so.
    let mut v = short();
    first_tile_as(&mut v, "130", "60");
    let items = refused(&v);
    assert_eq!(
        items,
        vec![
            "tile type 60 (BGA tile id 130: not a base-game tile, nor an Inns & Cathedrals or \
             Traders & Builders one; The River's or another expansion's tiles are not mapped) \
             (at packet 0 (gameStateChange), packet 1 (playTile))"
                .to_string()
        ]
    );
}
