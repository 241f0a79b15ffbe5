//! The tables and their columns: one Arrow schema per table. `docs/tables.md` describes every
//! column; a test there checks that the page names every column of these schemas.

use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema, SchemaRef};

/// One table of the export, written to its own folder of Parquet files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Table {
    /// One row per game.
    Games,
    /// One row per seat of a game.
    Players,
    /// One row per legal event.
    Moves,
    /// One row per score awarded to a seat.
    Scores,
    /// One row per annotation in force.
    Annotations,
    /// One row per move of a what-if variation.
    Variations,
}

impl Table {
    /// Every table, in the order they are written and documented.
    pub const ALL: [Table; 6] = [
        Table::Games,
        Table::Players,
        Table::Moves,
        Table::Scores,
        Table::Annotations,
        Table::Variations,
    ];

    /// The table's name: its folder under the output folder.
    pub fn name(self) -> &'static str {
        match self {
            Table::Games => "games",
            Table::Players => "players",
            Table::Moves => "moves",
            Table::Scores => "scores",
            Table::Annotations => "annotations",
            Table::Variations => "variations",
        }
    }

    /// The table's Arrow schema. Every table begins with `game_key`, the game's position in
    /// the export (0, 1, …): the join key, unique even when two files hold games with the
    /// same id.
    pub fn schema(self) -> SchemaRef {
        let mut fields = vec![Field::new("game_key", DataType::UInt64, false)];
        fields.extend(match self {
            Table::Games => games_fields(),
            Table::Players => players_fields(),
            Table::Moves => moves_fields(),
            Table::Scores => scores_fields(),
            Table::Annotations => annotations_fields(),
            Table::Variations => variations_fields(),
        });
        Arc::new(Schema::new(fields))
    }
}

fn text(name: &str, nullable: bool) -> Field {
    Field::new(name, DataType::Utf8, nullable)
}

/// A list column. Its items are never null; the list itself may be (`nullable`).
fn list(name: &str, item: DataType, nullable: bool) -> Field {
    Field::new(
        name,
        DataType::List(Arc::new(Field::new("item", item, false))),
        nullable,
    )
}

fn games_fields() -> Vec<Field> {
    vec![
        text("game", false),
        text("source", false),
        text("file", true),
        Field::new("seats", DataType::UInt8, false),
        list("players", DataType::Utf8, false),
        list("expansions", DataType::Utf8, false),
        list("tile_sets", DataType::Utf8, false),
        text("map", true),
        Field::new("start_squares", DataType::UInt8, true),
        list("town_variants", DataType::Utf8, false),
        Field::new("farmers", DataType::Boolean, false),
        Field::new("two_tile_city", DataType::UInt8, false),
        Field::new("meeples", DataType::UInt8, false),
        Field::new("seed", DataType::UInt64, true),
        list("strategies", DataType::Utf8, true),
        Field::new("bga_table", DataType::UInt64, true),
        text("comment", true),
        Field::new("events", DataType::UInt32, false),
        Field::new("turns", DataType::UInt32, false),
        Field::new("finished", DataType::Boolean, false),
        text("stopped", true),
        list("winners", DataType::UInt8, false),
        list("final_scores", DataType::UInt32, false),
    ]
}

fn players_fields() -> Vec<Field> {
    vec![
        text("game", false),
        Field::new("seat", DataType::UInt8, false),
        text("name", false),
        text("color", false),
        text("strategy", true),
        Field::new("bga_player", DataType::UInt64, true),
        Field::new("final_score", DataType::UInt32, false),
        Field::new("winner", DataType::Boolean, false),
        // The move quality (`--quality`); null without it.
        Field::new("accuracy", DataType::Float64, true),
    ]
}

/// The columns that say what a move was: shared by `moves` and `variations`.
fn move_fields() -> Vec<Field> {
    vec![
        Field::new("seat", DataType::UInt8, true),
        text("kind", false),
        text("tile", true),
        Field::new("x", DataType::Int32, true),
        Field::new("y", DataType::Int32, true),
        Field::new("rotation", DataType::UInt16, true),
        text("meeple", true),
        // Inns & Cathedrals: `large` for the large meeple; null for every other event.
        text("figure", true),
        text("arrow_symbol", true),
        text("arrow_action", true),
        text("gift_card", true),
        text("gift_to", true),
    ]
}

fn moves_fields() -> Vec<Field> {
    let mut fields = vec![
        text("game", false),
        Field::new("seq", DataType::UInt64, false),
        Field::new("turn", DataType::UInt32, false),
    ];
    fields.extend(move_fields());
    fields.extend([
        Field::new("points", DataType::Int32, false),
        list("scores_after", DataType::UInt32, false),
        list("supply_after", DataType::UInt8, false),
        // The move quality (`--quality`), on the placement event of each judged turn.
        text("mark", true),
        Field::new("win_lost", DataType::Float64, true),
        Field::new("margin_lost", DataType::Float64, true),
    ]);
    fields
}

fn scores_fields() -> Vec<Field> {
    vec![
        text("game", false),
        Field::new("seq", DataType::UInt64, false),
        Field::new("turn", DataType::UInt32, false),
        Field::new("seat", DataType::UInt8, false),
        text("source", false),
        text("feature_kind", false),
        text("time", false),
        Field::new("points", DataType::Int32, false),
        Field::new("tiles", DataType::UInt32, false),
        Field::new("coats_of_arms", DataType::UInt32, false),
        Field::new("cities", DataType::UInt32, false),
        list("meeples", DataType::UInt8, false),
        Field::new("shared", DataType::Boolean, false),
        Field::new("feature_x", DataType::Int32, false),
        Field::new("feature_y", DataType::Int32, false),
        text("feature", false),
        text("detail", true),
        text("rule", false),
        text("formula", false),
    ]
}

fn annotations_fields() -> Vec<Field> {
    vec![
        text("game", false),
        Field::new("seq", DataType::UInt64, false),
        Field::new("turn", DataType::UInt32, true),
        Field::new("seat", DataType::UInt8, true),
        text("glyph", true),
        text("text", false),
    ]
}

fn variations_fields() -> Vec<Field> {
    let mut fields = vec![
        text("game", false),
        text("variation", false),
        text("parent", true),
        Field::new("after", DataType::UInt64, false),
        Field::new("seq", DataType::UInt64, false),
    ];
    fields.extend(move_fields());
    fields
}
