//! `carc record`: enter a game move by move into the store. Every move is checked by folding
//! the effective log plus the new event before it is appended; `undo` appends a retraction
//! record and never deletes anything.

use std::process::ExitCode;

use anyhow::{bail, Result};
use carc_events::{
    write_event_line, write_header, ArrowMeepleAction, ArrowSymbol, Color, Event, Header, Log,
    MeepleTarget, Player, Pos, Rotation, RulesOptions, TileId,
};
use carc_replay::describe::describe_event;
use carc_replay::fold;
use carc_rules::{ArrowMeepleSpot, Game, MeepleSpot, Phase, PlacedArrow, Placement, TileSet};
use carc_store::{ExpectedVersion, NewEvent, Store};
use clap::{Args, Subcommand};

use crate::json::seat_name;
use crate::log_problem::replay_message;
use crate::store_context::Ctx;
use carc_archive::{check_game_id, event_id, read_game, retraction_payload, StoredGame};

/// The start tile of a recorded game, placed at (0,0) unrotated as event 1.
const START_TILE: &str = "D";

#[derive(Subcommand)]
pub enum RecordCmd {
    /// Start a game: writes the header and the start tile D at (0,0) as event 1.
    New(NewArgs),
    /// The current player drew TILE (a tile id such as V).
    Draw {
        /// The game id.
        game: String,
        /// The tile id drawn.
        tile: String,
    },
    /// The current player placed the drawn tile at (X, Y) rotated ROT degrees clockwise.
    #[command(allow_negative_numbers = true)]
    Place {
        /// The game id.
        game: String,
        /// Column, growing east.
        x: i32,
        /// Row, growing north.
        y: i32,
        /// Clockwise rotation: 0, 90, 180 or 270.
        rot: u16,
    },
    /// The current player put a meeple on the tile just placed ("city N", "road E",
    /// "field Sw", "monastery"), or `none`.
    Meeple {
        /// The game id.
        game: String,
        /// The feature, in board orientation, or `none`.
        on: String,
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
        /// The feature, in board orientation ("city N", "road E", "field Sw", "monastery").
        on: String,
    },
    /// Retract the last move by appending a retraction record (nothing is deleted).
    Undo {
        /// The game id.
        game: String,
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
    /// Expansions, comma-separated (supported: anniversary); their tile sets join the bag.
    #[arg(long, value_delimiter = ',')]
    expansions: Vec<String>,
}

pub fn record(ctx: &Ctx, cmd: RecordCmd, loaded: &[TileSet]) -> Result<ExitCode> {
    let store = ctx.open()?;
    match cmd {
        RecordCmd::New(args) => new_game(ctx, &store, args, loaded),
        RecordCmd::Draw { game, tile } => record_move(ctx, &store, &game, loaded, |g| {
            let tile = TileId::new(tile.clone()).map_err(anyhow::Error::msg)?;
            Ok(Event::TileDrawn {
                player: g.current_player(),
                tile,
            })
        }),
        RecordCmd::Place { game, x, y, rot } => record_move(ctx, &store, &game, loaded, |g| {
            let Some(rotation) = Rotation::from_degrees(i64::from(rot)) else {
                bail!("rotation {rot} is not one of 0, 90, 180, 270 (clockwise degrees)");
            };
            let Phase::Place { tile } = g.phase() else {
                bail!("no tile to place: {}", phase_text(g));
            };
            Ok(Event::TilePlaced {
                player: g.current_player(),
                tile: tile_id(g, tile),
                at: Pos::new(x, y),
                rotation,
            })
        }),
        RecordCmd::Meeple { game, on } => record_move(ctx, &store, &game, loaded, |g| {
            let player = g.current_player();
            if on == "none" {
                return Ok(Event::MeepleSkipped { player });
            }
            let on: MeepleTarget = on.parse()?;
            Ok(Event::MeeplePlaced { player, on })
        }),
        RecordCmd::SetAside { game } => record_move(ctx, &store, &game, loaded, |g| {
            let Phase::Place { tile } = g.phase() else {
                bail!("no tile to set aside: {}", phase_text(g));
            };
            Ok(Event::TileSetAside {
                player: g.current_player(),
                tile: tile_id(g, tile),
            })
        }),
        RecordCmd::Arrow { game, x, y } => record_move(ctx, &store, &game, loaded, |g| {
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
        } => record_move(ctx, &store, &game, loaded, |g| {
            let action = match action.as_str() {
                "companion" => ArrowMeepleAction::Companion,
                "portal" => ArrowMeepleAction::Portal,
                other => bail!("unknown arrow action {other:?}; expected companion or portal"),
            };
            let on: MeepleTarget = on.parse()?;
            Ok(Event::ArrowMeeplePlaced {
                player: g.current_player(),
                action,
                at: Pos::new(x, y),
                on,
            })
        }),
        RecordCmd::Undo { game } => undo(ctx, &store, &game, loaded),
    }
}

fn tile_id(game: &Game, tile: carc_rules::TileTypeId) -> TileId {
    TileId::new(game.tiles().get(tile).id.clone()).expect("tile ids are non-empty")
}

fn new_game(ctx: &Ctx, store: &Store, args: NewArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    check_game_id(&args.game).map_err(anyhow::Error::msg)?;
    if args.players.len() > Color::ALL.len() {
        bail!("at most {} players", Color::ALL.len());
    }
    // The Gifts needs verbs for gift cards received, opened and Take 2's returned tile, which
    // `record` does not have: refuse it plainly rather than start a game that would stall.
    if args.expansions.iter().any(|e| e == "gifts") {
        bail!("carc record cannot record The Gifts (no verbs for gift events); simulate or write the log instead");
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
            ..RulesOptions::default()
        },
        // Each expansion brings the tile set of its name (the bridge refuses unknown ones).
        tile_sets: std::iter::once("base".to_string())
            .chain(args.expansions.iter().cloned())
            .collect(),
        bag: None,
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
    let mut log = Log::new(header);
    log.push_event(Event::StartPlaced {
        tile: TileId::new(START_TILE).expect("non-empty"),
        at: Pos::new(0, 0),
        rotation: Rotation::R0,
    });
    let timeline = fold(log, loaded);
    if let Some(err) = &timeline.error {
        bail!("cannot start the game: {}", replay_message(err));
    }
    let lines = [
        format!("{}\n", write_header(&timeline.log.header)),
        format!("{}\n", write_event_line(&timeline.log.events[0].1)),
    ];
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
    println!(
        "started game {}: {}; event 1: {}",
        args.game,
        players.join(", "),
        describe_event(header, &timeline.log.events[0].1.event)
    );
    let game = timeline.state_at(timeline.steps.len())?;
    println!("{}", hint(&args.game, header, &game));
    Ok(ExitCode::SUCCESS)
}

/// The stored game, refusing sealed ones, and its effective log.
fn load(ctx: &Ctx, store: &Store, game: &str) -> Result<(StoredGame, Log)> {
    let Some(sg) = read_game(store, game)? else {
        bail!(
            "no game {game:?} in store {}; start one with `carc record new {game} --players A,B`",
            ctx.store_dir.display()
        );
    };
    if sg.sealed {
        bail!("game {game} is finished and sealed; it takes no further moves");
    }
    let log = sg.effective_log()?;
    Ok((sg, log))
}

/// Folds the effective log plus the event `make` builds; appends it only if it is legal.
fn record_move(
    ctx: &Ctx,
    store: &Store,
    game: &str,
    loaded: &[TileSet],
    make: impl FnOnce(&Game) -> Result<Event>,
) -> Result<ExitCode> {
    let (sg, log) = load(ctx, store, game)?;
    let before = fold(log, loaded);
    if let Some(err) = &before.error {
        bail!(
            "stored game {game} does not replay (line {}): {}",
            err.line(),
            replay_message(err)
        );
    }
    let state = before.state_at(before.steps.len())?;
    if state.is_over() {
        bail!("game {game} is over; no further moves");
    }
    let event = make(&state)?;
    let mut log = before.log;
    let seq = log.push_event(event);
    let after = fold(log, loaded);
    if let Some(err) = &after.error {
        eprintln!("carc: illegal move, not recorded: {}", replay_message(err));
        eprintln!("{}", hint(game, &after.log.header, &state));
        return Ok(ExitCode::from(1));
    }
    let (_, envelope) = after.log.events.last().expect("just pushed");
    let line = format!("{}\n", write_event_line(envelope));
    let version = sg.version();
    append_after(store, game, version, line.into_bytes())?;
    let header = &after.log.header;
    println!("event {seq}: {}", describe_event(header, &envelope.event));
    let now = after.state_at(after.steps.len())?;
    println!("{}", hint(game, header, &now));
    ctx.debug(format!("stored as stream event {}", version + 1));
    Ok(ExitCode::SUCCESS)
}

fn undo(ctx: &Ctx, store: &Store, game: &str, loaded: &[TileSet]) -> Result<ExitCode> {
    let (sg, log) = load(ctx, store, game)?;
    let effective = sg.effective_seqs();
    // The effective lines are the header, then the log's events and assertions in line order.
    if log.events.len() + log.assertions.len() <= 1 {
        bail!("nothing to undo in game {game}: only the start tile is recorded");
    }
    let retract = *effective.last().expect("more than the header");
    let last_line = effective.len(); // effective line number of the retracted line
    let what = match log.events.iter().find(|(line, _)| *line == last_line) {
        Some((_, envelope)) => format!(
            "event {}: {}",
            envelope.seq,
            describe_event(&log.header, &envelope.event)
        ),
        None => "an assertion line".to_string(),
    };
    let version = sg.version();
    append_after(store, game, version, retraction_payload(retract))?;
    println!(
        "retracted {what} (stored line {retract}; the retraction is stored line {})",
        version + 1
    );
    let sg = read_game(store, game)?.expect("just appended");
    let timeline = fold(sg.effective_log()?, loaded);
    if let Some(err) = &timeline.error {
        bail!(
            "after the undo the game does not replay: {}",
            replay_message(err)
        );
    }
    let now = timeline.state_at(timeline.steps.len())?;
    println!("{}", hint(game, &timeline.log.header, &now));
    Ok(ExitCode::SUCCESS)
}

fn phase_text(game: &Game) -> String {
    match game.phase() {
        Phase::Start => "the start tile is not placed yet".into(),
        Phase::Draw => "the current player must draw a tile first".into(),
        Phase::Place { tile } => format!("tile {} waits to be placed", game.tiles().get(tile).id),
        Phase::ChooseArrow { .. } => {
            "the current player must choose which arrow to activate".into()
        }
        Phase::Meeple { .. } => "a meeple (or none) is due for the tile just placed".into(),
        Phase::ReceiveGift { .. } => "the gift card the current player receives is due".into(),
        Phase::DrawSecond { .. } => "the second tile of Take 2 must be drawn".into(),
        Phase::ReturnTile { .. } => "one of the two Take 2 tiles must be returned".into(),
        Phase::Over => "the game is over".into(),
    }
}

/// What the next move can be: the legal moves hint printed after every recorded move.
fn hint(id: &str, header: &Header, game: &Game) -> String {
    let who = seat_name(header, game.current_player());
    match game.phase() {
        Phase::Start => "next: the start tile".into(),
        Phase::Draw => format!(
            "next: {who} draws a tile ({} in the bag): carc record draw {id} TILE",
            game.bag_left()
        ),
        Phase::Place { tile } => {
            let mut placements: Vec<Placement> = Vec::new();
            game.legal_placements(tile, &mut placements);
            let name = &game.tiles().get(tile).id;
            if placements.is_empty() {
                format!("next: tile {name} fits nowhere; {who} sets it aside: carc record set-aside {id}")
            } else {
                let mut squares: Vec<_> = placements.iter().map(|p| p.at).collect();
                squares.sort();
                squares.dedup();
                format!(
                    "next: {who} places tile {name}: {} legal placements on {} squares \
                     (`carc legal {id} --at N` lists them): carc record place {id} X Y ROT",
                    placements.len(),
                    squares.len()
                )
            }
        }
        Phase::ChooseArrow { .. } => {
            let mut choices: Vec<PlacedArrow> = Vec::new();
            game.legal_arrow_choices(&mut choices);
            let list: Vec<String> = choices
                .iter()
                .map(|a| format!("the {} arrow at {}", a.symbol, a.at))
                .collect();
            format!(
                "next: {who} chooses one arrow to activate ({}): carc record arrow {id} X Y",
                list.join(", ")
            )
        }
        Phase::Meeple { .. } => {
            let mut spots: Vec<MeepleSpot> = Vec::new();
            game.legal_meeples(&mut spots);
            let list: Vec<String> = spots.iter().map(|s| format!("\"{}\"", s.label)).collect();
            let mut text = format!(
                "next: {who} may place a meeple on {} or none: carc record meeple {id} TARGET|none",
                if list.is_empty() {
                    "nothing".to_string()
                } else {
                    list.join(", ")
                }
            );
            if let Some(action) = game.arrow_action() {
                let mut remote: Vec<ArrowMeepleSpot> = Vec::new();
                game.legal_arrow_meeples(&mut remote);
                text.push_str(&format!(
                    "; or through the {action} arrow on one of {} targets (`carc legal {id} --at N` lists them): carc record arrow-meeple {id} {} X Y TARGET",
                    remote.len(),
                    action.name()
                ));
            }
            text
        }
        // The Gifts: `carc record` has no verbs for gift events (yet); the hint says what is
        // due so that the user knows why no verb fits.
        Phase::ReceiveGift { .. } => format!("next: {who} receives a gift card (The Gifts)"),
        Phase::DrawSecond { .. } => {
            format!("next: {who} draws a second tile (Take 2): carc record draw {id} TILE")
        }
        Phase::ReturnTile { .. } => format!("next: {who} returns one of the two Take 2 tiles"),
        Phase::Over => {
            let scores: Vec<String> = game
                .scores()
                .iter()
                .enumerate()
                .map(|(seat, s)| format!("{} {s}", seat_name(header, seat as u8)))
                .collect();
            format!("the game is over; final scores: {}", scores.join(", "))
        }
    }
}

/// Appends one stored line right after stream version `version`; a concurrent writer that got
/// there first makes this a conflict error rather than an interleaving.
fn append_after(store: &Store, game: &str, version: u64, payload: Vec<u8>) -> Result<()> {
    store.append(
        game,
        ExpectedVersion::Exactly(version),
        &[NewEvent::new(event_id(game, version + 1), payload)],
    )?;
    Ok(())
}
