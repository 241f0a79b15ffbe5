//! One game replayed into the rows of every table, as Arrow record batches.
//!
//! The replay is the rules engine's, event by event, as `carc-analysis` does it (one effects
//! buffer, nothing kept per step), so each score lands in `scores` with the explanation the
//! engine gives it. A log that turns illegal is exported up to its last legal event and says
//! why it stops (`games.stopped`), the message `carc replay` gives.

use std::collections::BTreeMap;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, Float64Builder, Int32Builder, ListBuilder, StringBuilder, UInt16Builder,
    UInt32Builder, UInt64Builder, UInt8Builder,
};
use arrow_array::{ArrayRef, RecordBatch, UInt64Array};
use arrow_schema::{ArrowError, DataType, Field};
use carc_events::{event_to_action, game_from_header, Event, Source};
use carc_replay::ReplayError;
use carc_rules::{Effects, Score, ScoreSource, ScoreTime};

use crate::input::{GameInput, JudgedMove};
use crate::schema::Table;

/// The rows of one game, one batch per table in [`Table::ALL`] order.
pub struct GameBatches {
    pub batches: Vec<RecordBatch>,
}

fn list_of<T: arrow_array::builder::ArrayBuilder>(values: T, item: DataType) -> ListBuilder<T> {
    ListBuilder::new(values).with_field(Arc::new(Field::new("item", item, false)))
}

fn strings() -> ListBuilder<StringBuilder> {
    list_of(StringBuilder::new(), DataType::Utf8)
}

/// The table's batch: `game_key` (the same on every row) and then `columns`.
fn finish(table: Table, key: u64, columns: Vec<ArrayRef>) -> Result<RecordBatch, ArrowError> {
    let rows = columns.first().map_or(0, |c| c.len());
    let mut all: Vec<ArrayRef> = vec![Arc::new(UInt64Array::from(vec![key; rows]))];
    all.extend(columns);
    RecordBatch::try_new(table.schema(), all)
}

/// The columns of a move, shared by `moves` and `variations`.
#[derive(Default)]
struct MoveColumns {
    seat: UInt8Builder,
    kind: StringBuilder,
    tile: StringBuilder,
    x: Int32Builder,
    y: Int32Builder,
    rotation: UInt16Builder,
    meeple: StringBuilder,
    figure: StringBuilder,
    arrow_symbol: StringBuilder,
    arrow_action: StringBuilder,
    gift_card: StringBuilder,
    gift_to: StringBuilder,
}

impl MoveColumns {
    fn push(&mut self, event: &Event) {
        self.seat.append_option(event.player());
        self.kind.append_value(event.type_name());
        let (mut tile, mut at, mut rotation, mut meeple) = (None, None, None, None);
        let (mut symbol, mut action, mut card, mut to) = (None, None, None, None);
        let mut figure = None;
        match event {
            Event::StartPlaced {
                tile: t,
                at: a,
                rotation: r,
            }
            | Event::TilePlaced {
                tile: t,
                at: a,
                rotation: r,
                ..
            } => {
                tile = Some(t.as_str());
                at = Some(*a);
                rotation = Some(r.degrees());
            }
            Event::TileDrawn { tile: t, .. }
            | Event::TileSetAside { tile: t, .. }
            | Event::TileReturned { tile: t, .. } => tile = Some(t.as_str()),
            Event::MeeplePlaced { on, figure: f, .. } => {
                meeple = Some(on.to_string());
                figure = (!f.is_meeple()).then(|| f.as_str());
            }
            // The abbot's spot is in `meeple` too; the `kind` says which figure it was.
            Event::AbbotPlaced { at: a, on, .. } => {
                at = Some(*a);
                meeple = Some(on.to_string());
            }
            Event::AbbotTakenBack { at: a, .. } => at = Some(*a),
            Event::MeepleSkipped { .. } | Event::GameEnded => {}
            Event::ArrowChosen {
                at: a, symbol: s, ..
            } => {
                at = Some(*a);
                symbol = Some(s.as_str());
            }
            Event::ArrowMeeplePlaced {
                action: act,
                at: a,
                on,
                ..
            } => {
                at = Some(*a);
                meeple = Some(on.to_string());
                action = Some(act.as_str());
            }
            Event::GiftReceived { card: c, .. } => card = Some(c.as_str()),
            Event::GiftOpened {
                card: c,
                at: a,
                on,
                to: t,
                ..
            } => {
                card = Some(c.as_str());
                at = *a;
                meeple = on.map(|on| on.to_string());
                to = t.map(|t| t.to_string());
            }
        }
        self.tile.append_option(tile);
        self.x.append_option(at.map(|p| p.x));
        self.y.append_option(at.map(|p| p.y));
        self.rotation.append_option(rotation);
        self.meeple.append_option(meeple);
        self.figure.append_option(figure);
        self.arrow_symbol.append_option(symbol);
        self.arrow_action.append_option(action);
        self.gift_card.append_option(card);
        self.gift_to.append_option(to);
    }

    fn finish(mut self) -> Vec<ArrayRef> {
        vec![
            Arc::new(self.seat.finish()),
            Arc::new(self.kind.finish()),
            Arc::new(self.tile.finish()),
            Arc::new(self.x.finish()),
            Arc::new(self.y.finish()),
            Arc::new(self.rotation.finish()),
            Arc::new(self.meeple.finish()),
            Arc::new(self.figure.finish()),
            Arc::new(self.arrow_symbol.finish()),
            Arc::new(self.arrow_action.finish()),
            Arc::new(self.gift_card.finish()),
            Arc::new(self.gift_to.finish()),
        ]
    }
}

/// The `moves` table being filled.
struct Moves {
    game: StringBuilder,
    seq: UInt64Builder,
    turn: UInt32Builder,
    what: MoveColumns,
    points: Int32Builder,
    scores_after: ListBuilder<UInt32Builder>,
    supply_after: ListBuilder<UInt8Builder>,
    mark: StringBuilder,
    win_lost: Float64Builder,
    margin_lost: Float64Builder,
}

impl Moves {
    fn new() -> Moves {
        Moves {
            game: StringBuilder::new(),
            seq: UInt64Builder::new(),
            turn: UInt32Builder::new(),
            what: MoveColumns::default(),
            points: Int32Builder::new(),
            scores_after: list_of(UInt32Builder::new(), DataType::UInt32),
            supply_after: list_of(UInt8Builder::new(), DataType::UInt8),
            mark: StringBuilder::new(),
            win_lost: Float64Builder::new(),
            margin_lost: Float64Builder::new(),
        }
    }

    /// The quality columns of the row of event `seq`: null unless it placed a judged turn.
    fn push_quality(&mut self, judged: Option<&JudgedMove>) {
        self.mark.append_option(judged.and_then(|j| j.mark));
        self.win_lost.append_option(judged.and_then(|j| j.win_lost));
        self.margin_lost
            .append_option(judged.map(|j| j.margin_lost));
    }

    fn finish(mut self, key: u64) -> Result<RecordBatch, ArrowError> {
        let mut columns: Vec<ArrayRef> = vec![
            Arc::new(self.game.finish()),
            Arc::new(self.seq.finish()),
            Arc::new(self.turn.finish()),
        ];
        columns.extend(self.what.finish());
        columns.push(Arc::new(self.points.finish()));
        columns.push(Arc::new(self.scores_after.finish()));
        columns.push(Arc::new(self.supply_after.finish()));
        columns.push(Arc::new(self.mark.finish()));
        columns.push(Arc::new(self.win_lost.finish()));
        columns.push(Arc::new(self.margin_lost.finish()));
        finish(Table::Moves, key, columns)
    }
}

/// The `scores` table being filled.
struct Scores {
    game: StringBuilder,
    seq: UInt64Builder,
    turn: UInt32Builder,
    seat: UInt8Builder,
    source: StringBuilder,
    feature_kind: StringBuilder,
    time: StringBuilder,
    points: Int32Builder,
    tiles: UInt32Builder,
    coats_of_arms: UInt32Builder,
    cities: UInt32Builder,
    meeples: ListBuilder<UInt8Builder>,
    shared: BooleanBuilder,
    feature_x: Int32Builder,
    feature_y: Int32Builder,
    feature: StringBuilder,
    detail: StringBuilder,
    rule: StringBuilder,
    formula: StringBuilder,
}

/// Where a score's points come from: `points_by_source` of `carc analyze` uses the same
/// words, except `unopened_gifts` (analyze: `unopened gifts`) and `town_cost` (analyze:
/// `town_costs`, a count of its own), which are identifiers here.
/// `by_abbot`: the points were earned by an abbot (`Effects::scored_by_abbot`), counted as
/// `abbot` as `carc analyze` does.
pub fn score_source(score: &Score, by_abbot: bool) -> &'static str {
    match score.source {
        _ if by_abbot => "abbot",
        ScoreSource::AbbotTakenBack => "abbot",
        ScoreSource::Feature => score.kind.word(),
        ScoreSource::Arrow { .. } => "arrow",
        ScoreSource::TownCost { .. } => "town_cost",
        ScoreSource::Gift { .. } => "gift",
        ScoreSource::UnopenedGifts { .. } => "unopened_gifts",
        ScoreSource::Goods { .. } => "goods",
        ScoreSource::Pig => "pig",
    }
}

impl Scores {
    fn new() -> Scores {
        Scores {
            game: StringBuilder::new(),
            seq: UInt64Builder::new(),
            turn: UInt32Builder::new(),
            seat: UInt8Builder::new(),
            source: StringBuilder::new(),
            feature_kind: StringBuilder::new(),
            time: StringBuilder::new(),
            points: Int32Builder::new(),
            tiles: UInt32Builder::new(),
            coats_of_arms: UInt32Builder::new(),
            cities: UInt32Builder::new(),
            meeples: list_of(UInt8Builder::new(), DataType::UInt8),
            shared: BooleanBuilder::new(),
            feature_x: Int32Builder::new(),
            feature_y: Int32Builder::new(),
            feature: StringBuilder::new(),
            detail: StringBuilder::new(),
            rule: StringBuilder::new(),
            formula: StringBuilder::new(),
        }
    }

    /// One row per seat the score is awarded to (a feature nobody held gives no row).
    fn push(
        &mut self,
        game: &str,
        seq: u64,
        turn: u32,
        seats: usize,
        score: &Score,
        by_abbot: bool,
    ) {
        let points = i32::try_from(score.points).unwrap_or(i32::MAX);
        let points = if score.is_penalty() { -points } else { points };
        let detail = match score.source {
            ScoreSource::Feature => None,
            ScoreSource::Arrow { symbol, .. } => Some(symbol.to_string()),
            ScoreSource::TownCost { town } => Some(town.to_string()),
            ScoreSource::Gift { card } => Some(card.to_string()),
            ScoreSource::UnopenedGifts { cards } => Some(cards.to_string()),
            ScoreSource::AbbotTakenBack => None,
            ScoreSource::Goods { good } => Some(good.to_string()),
            ScoreSource::Pig => None,
        };
        let mut meeples = vec![0u8; seats];
        for &(seat, count) in &score.meeples {
            if let Some(m) = meeples.get_mut(usize::from(seat)) {
                *m = count;
            }
        }
        for &seat in &score.winners {
            self.game.append_value(game);
            self.seq.append_value(seq);
            self.turn.append_value(turn);
            self.seat.append_value(seat);
            self.source.append_value(score_source(score, by_abbot));
            self.feature_kind.append_value(score.kind.word());
            self.time.append_value(match score.time {
                ScoreTime::Completed => "completed",
                ScoreTime::Final => "final",
            });
            self.points.append_value(points);
            self.tiles.append_value(score.tiles.len() as u32);
            self.coats_of_arms.append_value(score.coats_of_arms);
            self.cities.append_value(score.cities.len() as u32);
            self.meeples.append_value(meeples.iter().map(|&m| Some(m)));
            self.shared.append_value(score.winners.len() > 1);
            self.feature_x.append_value(score.feature.at.x);
            self.feature_y.append_value(score.feature.at.y);
            self.feature.append_value(score.feature.label.code());
            self.detail.append_option(detail.as_deref());
            self.rule.append_value(score.rule);
            self.formula.append_value(&score.formula);
        }
    }

    fn finish(mut self, key: u64) -> Result<RecordBatch, ArrowError> {
        finish(
            Table::Scores,
            key,
            vec![
                Arc::new(self.game.finish()),
                Arc::new(self.seq.finish()),
                Arc::new(self.turn.finish()),
                Arc::new(self.seat.finish()),
                Arc::new(self.source.finish()),
                Arc::new(self.feature_kind.finish()),
                Arc::new(self.time.finish()),
                Arc::new(self.points.finish()),
                Arc::new(self.tiles.finish()),
                Arc::new(self.coats_of_arms.finish()),
                Arc::new(self.cities.finish()),
                Arc::new(self.meeples.finish()),
                Arc::new(self.shared.finish()),
                Arc::new(self.feature_x.finish()),
                Arc::new(self.feature_y.finish()),
                Arc::new(self.feature.finish()),
                Arc::new(self.detail.finish()),
                Arc::new(self.rule.finish()),
                Arc::new(self.formula.finish()),
            ],
        )
    }
}

/// What the replay found, for the `games` and `players` rows.
struct Outcome {
    events: u32,
    turns: u32,
    finished: bool,
    stopped: Option<String>,
    final_scores: Vec<u32>,
    /// Event seq → (turn, seat), for the annotations.
    turn_of: BTreeMap<u64, (u32, Option<u8>)>,
}

/// Replays the game, filling `moves` and `scores`.
fn replay(
    input: &GameInput,
    loaded: &[carc_rules::TileSet],
    moves: &mut Moves,
    scores: &mut Scores,
) -> Outcome {
    let header = &input.log.header;
    let seats = header.players.len();
    let mut out = Outcome {
        events: 0,
        turns: 0,
        finished: false,
        stopped: None,
        final_scores: vec![0; seats],
        turn_of: BTreeMap::new(),
    };
    let mut game = match game_from_header(header, loaded) {
        Ok(game) => game,
        Err(e) => {
            out.stopped = Some(ReplayError::Setup(e).to_string());
            return out;
        }
    };
    let mut fx = Effects::default();
    for (line, envelope) in &input.log.events {
        let turn = game.turn();
        let event = &envelope.event;
        let applied = event_to_action(&game, event).and_then(|a| game.apply(&a, &mut fx));
        if let Err(violation) = applied {
            out.stopped = Some(
                ReplayError::Rule {
                    line: *line,
                    seq: envelope.seq,
                    event: event.type_name(),
                    rule: violation.rule(),
                    violation: Box::new(violation),
                }
                .to_string(),
            );
            break;
        }
        out.events += 1;
        out.turns = turn;
        out.turn_of.insert(envelope.seq, (turn, event.player()));
        moves.game.append_value(&header.game);
        moves.seq.append_value(envelope.seq);
        moves.turn.append_value(turn);
        moves.what.push(event);
        let mut points = 0i64;
        for score in &fx.scores {
            let each = i64::from(score.points) * score.winners.len() as i64;
            points += if score.is_penalty() { -each } else { each };
            scores.push(
                &header.game,
                envelope.seq,
                turn,
                seats,
                score,
                fx.scored_by_abbot(score),
            );
        }
        moves
            .points
            .append_value(i32::try_from(points).unwrap_or(i32::MAX));
        moves
            .scores_after
            .append_value(game.scores().iter().map(|&s| Some(s)));
        moves
            .supply_after
            .append_value(game.supply().iter().map(|&s| Some(s)));
        let judged = input
            .quality
            .as_ref()
            .and_then(|q| q.moves.get(&envelope.seq));
        moves.push_quality(judged);
    }
    out.final_scores = game.scores().to_vec();
    out.finished = game.is_over() && out.stopped.is_none();
    out
}

/// The winning seats of a finished game (every seat with the top score); none otherwise.
fn winners(outcome: &Outcome) -> Vec<u8> {
    if !outcome.finished {
        return Vec::new();
    }
    let best = outcome.final_scores.iter().copied().max().unwrap_or(0);
    (0..outcome.final_scores.len())
        .filter(|&s| outcome.final_scores[s] == best)
        .map(|s| s as u8)
        .collect()
}

fn games_row(key: u64, input: &GameInput, outcome: &Outcome) -> Result<RecordBatch, ArrowError> {
    let header = &input.log.header;
    let rules = &header.rules;
    let mut game = StringBuilder::new();
    let mut source = StringBuilder::new();
    let mut file = StringBuilder::new();
    let mut seats = UInt8Builder::new();
    let mut players = strings();
    let mut expansions = strings();
    let mut tile_sets = strings();
    let mut map = StringBuilder::new();
    let mut start_squares = UInt8Builder::new();
    let mut town_variants = strings();
    let mut farmers = BooleanBuilder::new();
    let mut two_tile_city = UInt8Builder::new();
    let mut meeples = UInt8Builder::new();
    let mut seed = UInt64Builder::new();
    let mut strategies = strings();
    let mut bga_table = UInt64Builder::new();
    let mut comment = StringBuilder::new();
    let mut events = UInt32Builder::new();
    let mut turns = UInt32Builder::new();
    let mut finished = BooleanBuilder::new();
    let mut stopped = StringBuilder::new();
    let mut winner_seats = list_of(UInt8Builder::new(), DataType::UInt8);
    let mut final_scores = list_of(UInt32Builder::new(), DataType::UInt32);

    game.append_value(&header.game);
    source.append_value(input.origin.as_str());
    file.append_option(input.file.as_deref());
    seats.append_value(header.players.len() as u8);
    players.append_value(header.players.iter().map(|p| Some(p.name.as_str())));
    expansions.append_value(rules.expansions.iter().map(|e| Some(e.as_str())));
    tile_sets.append_value(header.tile_sets.iter().map(|t| Some(t.as_str())));
    map.append_option(rules.map.as_ref().map(|m| m.name.as_str()));
    start_squares.append_option(rules.map.as_ref().map(|m| m.start_squares));
    town_variants.append_value(
        rules
            .map
            .iter()
            .flat_map(|m| m.town_variants.iter())
            .map(|v| Some(v.as_str())),
    );
    farmers.append_value(rules.farmers);
    two_tile_city.append_value(rules.two_tile_city);
    meeples.append_value(rules.meeples);
    match &header.source {
        Some(Source::Simulated {
            seed: s,
            strategies: st,
        }) => {
            seed.append_value(*s);
            strategies.append_value(st.iter().map(|s| Some(s.as_str())));
            bga_table.append_null();
        }
        Some(Source::Bga { table, .. }) => {
            seed.append_null();
            strategies.append_null();
            bga_table.append_value(*table);
        }
        None => {
            seed.append_null();
            strategies.append_null();
            bga_table.append_null();
        }
    }
    comment.append_option(header.comment.as_deref());
    events.append_value(outcome.events);
    turns.append_value(outcome.turns);
    finished.append_value(outcome.finished);
    stopped.append_option(outcome.stopped.as_deref());
    winner_seats.append_value(winners(outcome).into_iter().map(Some));
    final_scores.append_value(outcome.final_scores.iter().map(|&s| Some(s)));
    finish(
        Table::Games,
        key,
        vec![
            Arc::new(game.finish()),
            Arc::new(source.finish()),
            Arc::new(file.finish()),
            Arc::new(seats.finish()),
            Arc::new(players.finish()),
            Arc::new(expansions.finish()),
            Arc::new(tile_sets.finish()),
            Arc::new(map.finish()),
            Arc::new(start_squares.finish()),
            Arc::new(town_variants.finish()),
            Arc::new(farmers.finish()),
            Arc::new(two_tile_city.finish()),
            Arc::new(meeples.finish()),
            Arc::new(seed.finish()),
            Arc::new(strategies.finish()),
            Arc::new(bga_table.finish()),
            Arc::new(comment.finish()),
            Arc::new(events.finish()),
            Arc::new(turns.finish()),
            Arc::new(finished.finish()),
            Arc::new(stopped.finish()),
            Arc::new(winner_seats.finish()),
            Arc::new(final_scores.finish()),
        ],
    )
}

fn players_rows(key: u64, input: &GameInput, outcome: &Outcome) -> Result<RecordBatch, ArrowError> {
    let header = &input.log.header;
    let won = winners(outcome);
    let mut game = StringBuilder::new();
    let mut seat = UInt8Builder::new();
    let mut name = StringBuilder::new();
    let mut color = StringBuilder::new();
    let mut strategy = StringBuilder::new();
    let mut bga_player = UInt64Builder::new();
    let mut final_score = UInt32Builder::new();
    let mut winner = BooleanBuilder::new();
    let mut accuracy = Float64Builder::new();
    for (s, player) in header.players.iter().enumerate() {
        game.append_value(&header.game);
        seat.append_value(s as u8);
        name.append_value(&player.name);
        color.append_value(player.color.as_str());
        match &header.source {
            Some(Source::Simulated { strategies, .. }) => {
                strategy.append_option(strategies.get(s).map(String::as_str));
                bga_player.append_null();
            }
            Some(Source::Bga { players, .. }) => {
                strategy.append_null();
                bga_player.append_option(players.get(s).copied());
            }
            None => {
                strategy.append_null();
                bga_player.append_null();
            }
        }
        final_score.append_value(outcome.final_scores.get(s).copied().unwrap_or(0));
        winner.append_value(won.contains(&(s as u8)));
        accuracy.append_option(
            input
                .quality
                .as_ref()
                .and_then(|q| q.accuracy.get(s).copied().flatten()),
        );
    }
    finish(
        Table::Players,
        key,
        vec![
            Arc::new(game.finish()),
            Arc::new(seat.finish()),
            Arc::new(name.finish()),
            Arc::new(color.finish()),
            Arc::new(strategy.finish()),
            Arc::new(bga_player.finish()),
            Arc::new(final_score.finish()),
            Arc::new(winner.finish()),
            Arc::new(accuracy.finish()),
        ],
    )
}

fn annotations_rows(
    key: u64,
    input: &GameInput,
    outcome: &Outcome,
) -> Result<RecordBatch, ArrowError> {
    let mut game = StringBuilder::new();
    let mut seq = UInt64Builder::new();
    let mut turn = UInt32Builder::new();
    let mut seat = UInt8Builder::new();
    let mut glyph = StringBuilder::new();
    let mut text = StringBuilder::new();
    for (s, annotation) in &input.annotations {
        let at = outcome.turn_of.get(s);
        game.append_value(&input.log.header.game);
        seq.append_value(*s);
        turn.append_option(at.map(|(t, _)| *t));
        seat.append_option(at.and_then(|(_, seat)| *seat));
        glyph.append_option(annotation.glyph.map(|g| g.as_str()));
        text.append_value(&annotation.text);
    }
    finish(
        Table::Annotations,
        key,
        vec![
            Arc::new(game.finish()),
            Arc::new(seq.finish()),
            Arc::new(turn.finish()),
            Arc::new(seat.finish()),
            Arc::new(glyph.finish()),
            Arc::new(text.finish()),
        ],
    )
}

fn variations_rows(key: u64, input: &GameInput) -> Result<RecordBatch, ArrowError> {
    let mut game = StringBuilder::new();
    let mut variation = StringBuilder::new();
    let mut parent = StringBuilder::new();
    let mut after = UInt64Builder::new();
    let mut seq = UInt64Builder::new();
    let mut what = MoveColumns::default();
    for v in input.variations.values() {
        for envelope in &v.events {
            game.append_value(&input.log.header.game);
            variation.append_value(&v.name);
            parent.append_option(v.parent.as_deref());
            after.append_value(v.after);
            seq.append_value(envelope.seq);
            what.push(&envelope.event);
        }
    }
    let mut columns: Vec<ArrayRef> = vec![
        Arc::new(game.finish()),
        Arc::new(variation.finish()),
        Arc::new(parent.finish()),
        Arc::new(after.finish()),
        Arc::new(seq.finish()),
    ];
    columns.extend(what.finish());
    finish(Table::Variations, key, columns)
}

/// Replays one game and builds its rows in every table; `key` is its `game_key`.
pub fn game_batches(
    key: u64,
    input: &GameInput,
    loaded: &[carc_rules::TileSet],
) -> Result<GameBatches, ArrowError> {
    let mut moves = Moves::new();
    let mut scores = Scores::new();
    let outcome = replay(input, loaded, &mut moves, &mut scores);
    let batches = vec![
        games_row(key, input, &outcome)?,
        players_rows(key, input, &outcome)?,
        moves.finish(key)?,
        scores.finish(key)?,
        annotations_rows(key, input, &outcome)?,
        variations_rows(key, input)?,
    ];
    Ok(GameBatches { batches })
}
