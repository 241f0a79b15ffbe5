//! `carc record`: enter a game move by move into the store. Every move is checked by folding
//! the effective log plus the new event before it is appended; `undo` appends a retraction
//! record and never deletes anything. The sub-verbs share the modules under `record/`: the
//! words a move is written in (`parse`, `tile_words`), the turn's events (`turn`), folding and
//! storing them (`moves`, `stored`), the hints (`hint`), the step a game waits for in words
//! (`phase`), `undo` and the start tiles of a game
//! on a map board (`start`). `carc record GAME` with no
//! verb opens the record shell (`shell`): the same verbs, run by [`run_verb`] against the
//! store it keeps open, with Tab completion of the legal moves (`complete`) and a picture of
//! the drawn tile's legal placements (`picture`).

mod complete;
mod gifts;
mod hint;
mod moves;
mod parse;
mod phase;
mod picture;
mod shell;
mod start;
mod stored;
mod tile_words;
mod turn;
mod undo;

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Result};
use carc_events::{
    write_event_line, write_header, ArrowMeepleAction, ArrowSymbol, Color, Event, Header, Log,
    MapRules, MeepleTarget, Player, Pos, Rotation, RulesOptions, TileId, TownVariant,
};
use carc_replay::describe::describe_event;
use carc_replay::fold;
use carc_rules::{MapBoard, Phase, TileSet};
use carc_store::{ExpectedVersion, NewEvent, Store};
use clap::{Args, Subcommand};

/// `carc record VERB GAME …`, or `carc record GAME`: the record shell on GAME.
#[derive(Args)]
#[command(
    args_conflicts_with_subcommands = true,
    arg_required_else_help = true,
    subcommand_value_name = "VERB",
    subcommand_help_heading = "Verbs (each also a line of the record shell, without the game)"
)]
pub struct RecordArgs {
    #[command(subcommand)]
    verb: Option<RecordCmd>,
    /// With no VERB: open the record shell on this game, a prompt that keeps the store open
    /// and takes the verbs' lines without the game (`draw V`, `place 1 0 90 city N`, `undo`),
    /// with Tab completion of the legal moves, `show`, `legal`, `help` and `quit`
    /// (docs/cli.md, "The record shell"). Lines piped in are run one by one (exit 1 at the end
    /// if any was refused).
    game: Option<String>,
}

use crate::commands::record::hint::hint;
use crate::commands::record::moves::{record_move, record_moves};
use crate::commands::record::phase::phase_text;
use crate::commands::record::turn::{
    abbot_back_event, draw_event, figure_event, tile_id, TurnPlan,
};
use crate::commands::record::undo::undo;
use crate::log_problem::replay_message;
use crate::store_context::Ctx;
use carc_archive::{check_game_id, event_id};

/// The start tile of a recorded game, placed at (0,0) unrotated as event 1 (with The River:
/// the spring, which the rules name).
const START_TILE: &str = "D";

#[derive(Subcommand)]
pub enum RecordCmd {
    /// Start a game: writes the header and the start tile D at (0,0) as event 1 (on a map
    /// board, --map germany: the header alone; `start` places the start tiles).
    New(NewArgs),
    /// On a map board: a start tile TILE put on the start square (X, Y) rotated ROT; the
    /// set's start tile first, then the tile drawn for each other start square in use.
    #[command(allow_negative_numbers = true)]
    Start {
        /// The game id.
        game: String,
        /// The tile's letter, in either case.
        tile: String,
        /// Column of the start square, growing east.
        x: i32,
        /// Row of the start square, growing north.
        y: i32,
        /// Rotation in degrees from the letter's own orientation: 0, 90, 180 or 270
        /// clockwise (-90, -180, -270: the other way).
        rot: String,
    },
    /// The current player drew TILE (its letter, such as V or v; an unknown one lists the
    /// letters still in the bag, each with a word of what it shows).
    Draw {
        /// The game id.
        game: String,
        /// The tile's letter, in either case (the viewer's Tiles window draws each letter at
        /// rotation 0).
        tile: String,
    },
    /// The current player placed the drawn tile at (X, Y) rotated ROT degrees clockwise, and
    /// optionally then a meeple on SPOT (or `none`, or the abbot), as `meeple` does.
    #[command(allow_negative_numbers = true)]
    Place {
        /// The game id.
        game: String,
        /// Column, growing east.
        x: i32,
        /// Row, growing north.
        y: i32,
        /// Rotation in degrees from the letter's own orientation: 0, 90, 180 or 270
        /// clockwise (-90, -180, -270: the other way).
        rot: String,
        /// The meeple's spot ("road N" or road-N, "field Sw", monastery) or `none`, or
        /// `abbot` (on the tile's monastery or garden), `abbot-back`; left out, the meeple
        /// step stays open for `carc record meeple`.
        #[arg(value_name = "SPOT")]
        spot: Vec<String>,
    },
    /// A whole turn in one command: the current player drew TILE, placed it at (X, Y) rotated
    /// ROT, and put a meeple on SPOT (or `none`, or the abbot). Recorded whole or not at all.
    /// If TILE is already drawn, the draw is not recorded again.
    #[command(allow_negative_numbers = true)]
    Turn {
        /// The game id.
        game: String,
        /// The tile's letter (such as V or v; an unknown one lists the letters still in the
        /// bag, each with a word of what it shows; the viewer's Tiles window draws them).
        tile: String,
        /// Column, growing east.
        x: i32,
        /// Row, growing north.
        y: i32,
        /// Rotation in degrees from the letter's own orientation: 0, 90, 180 or 270
        /// clockwise (-90, -180, -270: the other way).
        rot: String,
        /// The meeple's spot ("road N" or road-N, "field Sw", monastery) or `none`, or
        /// `abbot` (on the tile's monastery or garden), `abbot-back`; left out, the meeple
        /// step stays open (for an arrow, or `carc record meeple`).
        #[arg(value_name = "SPOT")]
        spot: Vec<String>,
    },
    /// The current player put a meeple on the tile just placed ("city N", "road E",
    /// "field Sw", "monastery"), or `none`, or the abbot (`abbot`, `abbot-back`).
    Meeple {
        /// The game id.
        game: String,
        /// The feature, in board orientation, or `none`, `abbot`, `abbot-back` (`city N` in
        /// one argument or two).
        #[arg(value_name = "ON", required = true)]
        on: Vec<String>,
    },
    /// The drawn tile fits nowhere: the current player sets it aside.
    SetAside {
        /// The game id.
        game: String,
    },
    /// 20th Anniversary: of several arrows the tile just placed activates, the current player
    /// chose the one on the tile at (X, Y).
    #[command(allow_negative_numbers = true)]
    Arrow {
        /// The game id.
        game: String,
        /// Column of the tile carrying the chosen arrow.
        x: i32,
        /// Row of the tile carrying the chosen arrow.
        y: i32,
    },
    /// 20th Anniversary: instead of the normal meeple, the current player put one through the
    /// activated companion or portal arrow on a feature of the tile at (X, Y).
    #[command(allow_negative_numbers = true)]
    ArrowMeeple {
        /// The game id.
        game: String,
        /// `companion` or `portal`.
        action: String,
        /// Column of the target tile.
        x: i32,
        /// Row of the target tile.
        y: i32,
        /// The feature, in board orientation ("city N" or city-N, "road E", "field Sw",
        /// "monastery").
        on: String,
    },
    /// The Abbot: instead of a meeple, the current player put their abbot on the monastery or
    /// garden of the tile at (X, Y): the tile just placed, or (--portal) any tile through the
    /// activated portal arrow.
    #[command(allow_negative_numbers = true)]
    Abbot {
        /// The game id.
        game: String,
        /// Column of the tile.
        x: i32,
        /// Row of the tile.
        y: i32,
        /// `monastery` or `garden`.
        on: String,
        /// Through the portal arrow activated this turn (20th Anniversary).
        #[arg(long)]
        portal: bool,
    },
    /// The Abbot: instead of a meeple, the current player took their abbot back (it scores at
    /// once: 1 + the tiles around it).
    AbbotBack {
        /// The game id.
        game: String,
    },
    /// The Gifts: the gift card the current player received (the hint says when one is due),
    /// by its name: synod, road_sweeper, change_position, cash_out or take_2.
    Gift {
        /// The game id.
        game: String,
        /// The card, as the log names it (`take-2` and other cases are taken too).
        card: String,
    },
    /// The Gifts: after drawing and before placing, the current player opened CARD from
    /// their hand, with its target: `synod X Y` (a meeple on the monastery there),
    /// `road_sweeper X Y road SIDE`, `cash_out X Y SPOT` (one of their meeples),
    /// `change_position X Y FROM TO` (one of their meeples stands up or lies down), `take_2`
    /// (then `draw` the second tile and `return` one).
    #[command(allow_negative_numbers = true)]
    Open {
        /// The game id.
        game: String,
        /// The card: synod, road_sweeper, change_position, cash_out or take_2.
        card: String,
        /// The target: the square X Y, then the spot(s) ("road E" or road-E).
        #[arg(value_name = "TARGET")]
        target: Vec<String>,
    },
    /// The Gifts, Take 2: of the two tiles drawn, the current player put TILE back into the
    /// bag (the other is the one to place).
    Return {
        /// The game id.
        game: String,
        /// The tile's letter, in either case.
        tile: String,
    },
    /// The players end the game here, between turns, with tiles still in the bag (a game
    /// abandoned at the table): final scoring now, recorded as the event `game_ended`.
    End {
        /// The game id.
        game: String,
    },
    /// Retract the last move by appending a retraction record (nothing is deleted); with
    /// --turn, every event of the last turn in one append.
    Undo {
        /// The game id.
        game: String,
        /// Take back the whole last turn (its draw, placement and figure), not one event.
        #[arg(long)]
        turn: bool,
    },
}

#[derive(Args)]
pub struct NewArgs {
    /// The game id (1 to 128 printable ASCII characters without spaces).
    game: String,
    /// Player names in seat order, comma-separated (colours: red, blue, green, yellow, black,
    /// gray).
    #[arg(long, value_delimiter = ',', required = true)]
    players: Vec<String>,
    /// Play without farmers (fields are not scored).
    #[arg(long)]
    no_farmers: bool,
    /// Expansions, comma-separated (supported: anniversary, abbot, river, gifts); the
    /// anniversary's tiles join the bag, the abbot's garden copies of base tiles are tiles of
    /// their own, The Gifts adds the gift deck (verbs `gift`, `open`, `return`).
    #[arg(long, value_delimiter = ',')]
    expansions: Vec<String>,
    /// On a map board (the global --map germany, or --map FILE): start squares in use, 2 to
    /// the map's count (default 2); `carc record start` places a tile on each.
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=8))]
    start_squares: Option<u8>,
    /// On a map board: town variants, comma-separated: extra_turn, cost, road_bonus.
    #[arg(long, value_delimiter = ',')]
    town_variants: Vec<String>,
    /// Meeples per player (default 7; 9 on a map board, as the Maps rules recommend and
    /// `carc simulate --map` plays).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=20))]
    meeples: Option<u8>,
}

/// `map` is the map board of the global `--map`: the board a new game is played on.
pub fn record(
    ctx: &Ctx,
    args: RecordArgs,
    loaded: &[TileSet],
    map: Option<&Arc<MapBoard>>,
) -> Result<ExitCode> {
    match (args.verb, args.game) {
        (Some(cmd), _) => {
            let store = ctx.open()?;
            run_verb(ctx, &store, cmd, loaded, map)
        }
        (None, Some(game)) => shell::shell(ctx, &game, loaded, map),
        (None, None) => bail!("name a verb, or a game to open the record shell on"),
    }
}

/// The words of a spot given as one argument or several (`city N`, `road-E`).
fn spot_words(words: Vec<String>) -> Option<String> {
    (!words.is_empty()).then(|| words.join(" "))
}

/// Runs one verb against an open store: each `carc record VERB` process, and each line of the
/// record shell. `map`: the board of the global `--map`, for `new`.
pub fn run_verb(
    ctx: &Ctx,
    store: &Store,
    cmd: RecordCmd,
    loaded: &[TileSet],
    map: Option<&Arc<MapBoard>>,
) -> Result<ExitCode> {
    match cmd {
        RecordCmd::New(args) => new_game(ctx, store, args, loaded, map),
        RecordCmd::Start {
            game,
            tile,
            x,
            y,
            rot,
        } => record_move(ctx, store, &game, loaded, |g| {
            start::start_event(g, &tile, x, y, &rot)
        }),
        RecordCmd::Draw { game, tile } => {
            record_move(ctx, store, &game, loaded, |g| draw_event(g, &tile))
        }
        RecordCmd::Place {
            game,
            x,
            y,
            rot,
            spot,
        } => {
            let mut turn = TurnPlan::new(None, x, y, rot, spot_words(spot));
            record_moves(ctx, store, &game, loaded, |g| turn.next(g))
        }
        RecordCmd::Turn {
            game,
            tile,
            x,
            y,
            rot,
            spot,
        } => {
            let mut turn = TurnPlan::new(Some(tile), x, y, rot, spot_words(spot));
            record_moves(ctx, store, &game, loaded, |g| turn.next(g))
        }
        RecordCmd::Meeple { game, on } => {
            let on = on.join(" ");
            record_move(ctx, store, &game, loaded, |g| figure_event(g, &on))
        }
        RecordCmd::SetAside { game } => record_move(ctx, store, &game, loaded, |g| {
            let Phase::Place { tile } = g.phase() else {
                bail!("no tile to set aside: {}", phase_text(g));
            };
            Ok(Event::TileSetAside {
                player: g.current_player(),
                tile: tile_id(g, tile),
            })
        }),
        RecordCmd::Arrow { game, x, y } => record_move(ctx, store, &game, loaded, |g| {
            if !matches!(g.phase(), Phase::ChooseArrow { .. }) {
                bail!("no arrow to choose: {}", phase_text(g));
            }
            let at = carc_rules::Pos::new(x, y);
            let Some(arrow) = g.arrows().iter().find(|a| a.at == at) else {
                bail!("the tile at {at} carries no arrow");
            };
            Ok(Event::ArrowChosen {
                player: g.current_player(),
                at: Pos::new(x, y),
                symbol: match arrow.symbol {
                    carc_rules::ArrowSymbol::Companion => ArrowSymbol::Companion,
                    carc_rules::ArrowSymbol::Portal => ArrowSymbol::Portal,
                    carc_rules::ArrowSymbol::ExtraTurn => ArrowSymbol::ExtraTurn,
                },
            })
        }),
        RecordCmd::ArrowMeeple {
            game,
            action,
            x,
            y,
            on,
        } => record_move(ctx, store, &game, loaded, |g| {
            let action = match action.as_str() {
                "companion" => ArrowMeepleAction::Companion,
                "portal" => ArrowMeepleAction::Portal,
                other => bail!("unknown arrow action {other:?}; expected companion or portal"),
            };
            // `city-N` as one word too (no quotes at the shell), as `meeple` takes it.
            let on: MeepleTarget = on.trim().replacen('-', " ", 1).parse()?;
            Ok(Event::ArrowMeeplePlaced {
                player: g.current_player(),
                action,
                at: Pos::new(x, y),
                on,
            })
        }),
        RecordCmd::Gift { game, card } => record_move(ctx, store, &game, loaded, |g| {
            gifts::received_event(g, &card)
        }),
        RecordCmd::Open { game, card, target } => record_move(ctx, store, &game, loaded, |g| {
            gifts::opened_event(g, &card, &target)
        }),
        RecordCmd::Return { game, tile } => record_move(ctx, store, &game, loaded, |g| {
            gifts::returned_event(g, &tile)
        }),
        RecordCmd::End { game } => record_move(ctx, store, &game, loaded, |_| Ok(Event::GameEnded)),
        RecordCmd::Abbot {
            game,
            x,
            y,
            on,
            portal,
        } => record_move(ctx, store, &game, loaded, |g| {
            if !matches!(g.phase(), Phase::Meeple { .. }) {
                bail!("no meeple step now: {}", phase_text(g));
            }
            let on: MeepleTarget = on.parse()?;
            Ok(Event::AbbotPlaced {
                player: g.current_player(),
                at: Pos::new(x, y),
                on,
                portal,
            })
        }),
        RecordCmd::AbbotBack { game } => record_move(ctx, store, &game, loaded, abbot_back_event),
        RecordCmd::Undo { game, turn } => undo(ctx, store, &game, loaded, turn),
    }
}

fn new_game(
    ctx: &Ctx,
    store: &Store,
    args: NewArgs,
    loaded: &[TileSet],
    map: Option<&Arc<MapBoard>>,
) -> Result<ExitCode> {
    check_game_id(&args.game).map_err(anyhow::Error::msg)?;
    if args.players.len() > Color::ALL.len() {
        bail!("at most {} players", Color::ALL.len());
    }
    // New logs name players in plain text: a control character (a line break, ESC) would act
    // on every terminal that shows the name (docs/cli.md, "Text from a log").
    if let Some(name) = args
        .players
        .iter()
        .find(|n| n.chars().any(char::is_control))
    {
        bail!("player name {name:?} holds a control character; names are plain text");
    }
    // Nor an invisible character that reorders or breaks the text around it (a bidi
    // override would reverse every line that names the player)
    if let Some((name, c)) = args.players.iter().find_map(|n| {
        n.chars()
            .find(|&c| carc_events::text::is_hidden_format(c))
            .map(|c| (n, c))
    }) {
        bail!(
            "player name {name:?} holds the invisible formatting character U+{:04X}; names are plain text",
            u32::from(c)
        );
    }
    let header = Header {
        game: args.game.clone(),
        players: args
            .players
            .iter()
            .zip(Color::ALL)
            .map(|(name, color)| Player {
                name: name.trim().to_string(),
                color,
            })
            .collect(),
        rules: RulesOptions {
            farmers: !args.no_farmers,
            expansions: args.expansions.clone(),
            // 9 on a map, as `carc simulate --map` writes it.
            meeples: args.meeples.unwrap_or(if map.is_some() { 9 } else { 7 }),
            map: map_rules(&args, map)?,
            ..RulesOptions::default()
        },
        // Each expansion brings the tile set of its name (the bridge refuses unknown ones),
        // except the abbot, whose garden copies are the base set's own, and The Gifts, which
        // brings cards and no tiles.
        tile_sets: std::iter::once("base".to_string())
            .chain(
                args.expansions
                    .iter()
                    .filter(|e| !matches!(e.as_str(), "abbot" | "gifts"))
                    .cloned(),
            )
            .collect(),
        bag: None,
        source: None,
        comment: Some(format!("recorded with carc {}", env!("CARGO_PKG_VERSION"))),
    };
    header.validate().map_err(anyhow::Error::msg)?;
    if store.version(&args.game)?.is_some() {
        bail!(
            "game {:?} already exists in store {}",
            args.game,
            ctx.store_dir.display()
        );
    }
    let on_map = header.rules.map.is_some();
    let mut log = Log::new(header);
    // On a map the start tiles are moves of their own (`carc record start`): the square each
    // goes on is chosen at the table.
    if !on_map {
        // The start tile is the set's (D), or the spring with The River.
        let start = carc_events::start_tile_of(&log.header, loaded)
            .unwrap_or_else(|| TileId::new(START_TILE).expect("non-empty"));
        log.push_event(Event::StartPlaced {
            tile: start,
            at: Pos::new(0, 0),
            rotation: Rotation::R0,
        });
    }
    let timeline = fold(log, loaded);
    if let Some(err) = &timeline.error {
        bail!(
            "cannot start the game: {}",
            replay_message(err, &timeline.log.header)
        );
    }
    let lines: Vec<String> = std::iter::once(write_header(&timeline.log.header))
        .chain(timeline.log.events.iter().map(|(_, e)| write_event_line(e)))
        .map(|l| format!("{l}\n"))
        .collect();
    let batch: Vec<NewEvent> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| NewEvent::new(event_id(&args.game, i as u64 + 1), l.as_bytes().to_vec()))
        .collect();
    store.append(&args.game, ExpectedVersion::NoStream, &batch)?;
    let header = &timeline.log.header;
    let players: Vec<String> = header
        .players
        .iter()
        .map(|p| format!("{} ({})", p.name, p.color))
        .collect();
    match timeline.log.events.first() {
        Some((_, first)) => println!(
            "started game {}: {}; event 1: {}",
            args.game,
            players.join(", "),
            describe_event(header, &first.event)
        ),
        None => println!(
            "started game {}: {}; on the map {}",
            args.game,
            players.join(", "),
            header.rules.map.as_ref().map_or("", |m| m.name.as_str())
        ),
    }
    let game = timeline.state_at(timeline.steps.len())?;
    println!(
        "{}",
        hint(&args.game, timeline.log.last_seq(), header, &game)
    );
    Ok(ExitCode::SUCCESS)
}

/// The header's `rules.map` for a new game: the board of `--map` with the start squares and
/// town variants asked for; those options without a map are refused.
fn map_rules(args: &NewArgs, map: Option<&Arc<MapBoard>>) -> Result<Option<MapRules>> {
    let mut town_variants: Vec<TownVariant> = Vec::new();
    for v in &args.town_variants {
        let Some(variant) = TownVariant::ALL.into_iter().find(|t| t.as_str() == v) else {
            bail!("unknown town variant {v:?}; expected extra_turn, cost or road_bonus");
        };
        if town_variants.contains(&variant) {
            bail!("town variant {v:?} is listed twice");
        }
        town_variants.push(variant);
    }
    let Some(map) = map else {
        if !town_variants.is_empty() || args.start_squares.is_some() {
            bail!(
                "--start-squares and --town-variants are options of a game on a map; add --map germany"
            );
        }
        return Ok(None);
    };
    Ok(Some(MapRules {
        name: map.name.clone(),
        start_squares: args.start_squares.unwrap_or(2),
        town_variants,
    }))
}
