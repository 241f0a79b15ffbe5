//! `carc record`: enter a game move by move into the store. Every move is checked by folding
//! the effective log plus the new event before it is appended; `undo` appends a retraction
//! record and never deletes anything.

use std::process::ExitCode;

use anyhow::{bail, Result};
use carc_events::{
    write_event_line, write_header, ArrowMeepleAction, ArrowSymbol, Color, Event, Header, Log,
    MeepleTarget, Player, Pos, Rotation, RulesOptions, TileId,
};
use carc_replay::describe::{describe_event, describe_step, score_headline};
use carc_replay::fold;
use carc_rules::{ArrowMeepleSpot, Game, MeepleSpot, Phase, PlacedArrow, Placement, TileSet};
use carc_store::{AppendOptions, ExpectedVersion, NewEvent, Store};
use clap::{Args, Subcommand};

use crate::exit_code;
use crate::log_problem::replay_message;
use crate::store_context::Ctx;
use carc_archive::{check_game_id, event_id, read_game, retraction_payload, StoredGame};
use carc_replay::describe::shown_name as seat_name;

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
    /// The current player placed the drawn tile at (X, Y) rotated ROT degrees clockwise, and
    /// optionally then a meeple on SPOT (or `none`), as `meeple` does.
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
        /// The meeple's spot ("road N" or road-N, "field Sw", monastery) or `none`; left out,
        /// the meeple step stays open for `carc record meeple`.
        spot: Option<String>,
    },
    /// A whole turn in one command: the current player drew TILE, placed it at (X, Y) rotated
    /// ROT, and put a meeple on SPOT (or `none`). Recorded whole or not at all. If TILE is
    /// already drawn, the draw is not recorded again.
    #[command(allow_negative_numbers = true)]
    Turn {
        /// The game id.
        game: String,
        /// The tile id drawn (such as V).
        tile: String,
        /// Column, growing east.
        x: i32,
        /// Row, growing north.
        y: i32,
        /// Clockwise rotation: 0, 90, 180 or 270.
        rot: u16,
        /// The meeple's spot ("road N" or road-N, "field Sw", monastery) or `none`; left out,
        /// the meeple step stays open (for an arrow, or `carc record meeple`).
        spot: Option<String>,
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
    /// The players end the game here, between turns, with tiles still in the bag (a game
    /// abandoned at the table): final scoring now, recorded as the event `game_ended`.
    End {
        /// The game id.
        game: String,
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
    /// Expansions, comma-separated (supported: anniversary, abbot); the anniversary's tiles
    /// join the bag, the abbot's garden copies of base tiles are tiles of their own.
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
        RecordCmd::Place {
            game,
            x,
            y,
            rot,
            spot,
        } => {
            let mut turn = TurnPlan::new(None, x, y, rot, spot);
            record_moves(ctx, &store, &game, loaded, |g| turn.next(g))
        }
        RecordCmd::Turn {
            game,
            tile,
            x,
            y,
            rot,
            spot,
        } => {
            let mut turn = TurnPlan::new(Some(tile), x, y, rot, spot);
            record_moves(ctx, &store, &game, loaded, |g| turn.next(g))
        }
        RecordCmd::Meeple { game, on } => {
            record_move(ctx, &store, &game, loaded, |g| meeple_event(g, &on))
        }
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
        RecordCmd::End { game } => {
            record_move(ctx, &store, &game, loaded, |_| Ok(Event::GameEnded))
        }
        RecordCmd::Abbot {
            game,
            x,
            y,
            on,
            portal,
        } => record_move(ctx, &store, &game, loaded, |g| {
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
        RecordCmd::AbbotBack { game } => {
            record_move(ctx, &store, &game, loaded, |g| {
                if !matches!(g.phase(), Phase::Meeple { .. }) {
                    bail!("no meeple step now: {}", phase_text(g));
                }
                let seat = g.current_player();
                let Some((at, _)) = g.abbot_of(seat) else {
                    bail!("the player to move has no abbot on the board: there is nothing to take back");
                };
                Ok(Event::AbbotTakenBack {
                    player: seat,
                    at: Pos::new(at.x, at.y),
                })
            })
        }
        RecordCmd::Undo { game } => undo(ctx, &store, &game, loaded),
    }
}

/// What is left to record of a turn entered in one command (`turn`, or `place` with a spot).
struct TurnPlan {
    /// The tile to draw first (`turn`); `None` for `place`, whose tile is drawn already.
    draw: Option<String>,
    at: (i32, i32),
    rot: u16,
    spot: Option<String>,
    stage: TurnStage,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TurnStage {
    Draw,
    Place,
    Meeple,
    Done,
}

impl TurnPlan {
    fn new(draw: Option<String>, x: i32, y: i32, rot: u16, spot: Option<String>) -> Self {
        let stage = if draw.is_some() {
            TurnStage::Draw
        } else {
            TurnStage::Place
        };
        TurnPlan {
            draw,
            at: (x, y),
            rot,
            spot,
            stage,
        }
    }

    /// The next event of the turn in the state `g`, or `None` when the turn is entered.
    fn next(&mut self, g: &Game) -> Result<Option<Event>> {
        match self.stage {
            TurnStage::Draw => {
                let wanted = self.draw.clone().unwrap_or_default();
                self.stage = TurnStage::Place;
                match g.phase() {
                    Phase::Draw => Ok(Some(Event::TileDrawn {
                        player: g.current_player(),
                        tile: TileId::new(wanted).map_err(anyhow::Error::msg)?,
                    })),
                    // Drawn already (with `record draw`): go on with the placement.
                    Phase::Place { tile } if g.tiles().get(tile).id == wanted => self.next(g),
                    Phase::Place { tile } => bail!(
                        "tile {} is drawn already, not {wanted}",
                        g.tiles().get(tile).id
                    ),
                    _ => bail!("no tile to draw: {}", phase_text(g)),
                }
            }
            TurnStage::Place => {
                self.stage = TurnStage::Meeple;
                let Some(rotation) = Rotation::from_degrees(i64::from(self.rot)) else {
                    bail!(
                        "rotation {} is not one of 0, 90, 180, 270 (clockwise degrees)",
                        self.rot
                    );
                };
                let Phase::Place { tile } = g.phase() else {
                    bail!("no tile to place: {}", phase_text(g));
                };
                Ok(Some(Event::TilePlaced {
                    player: g.current_player(),
                    tile: tile_id(g, tile),
                    at: Pos::new(self.at.0, self.at.1),
                    rotation,
                }))
            }
            TurnStage::Meeple => {
                self.stage = TurnStage::Done;
                match &self.spot {
                    None => Ok(None),
                    Some(spot) => meeple_event(g, spot).map(Some),
                }
            }
            TurnStage::Done => Ok(None),
        }
    }
}

/// The meeple step: `none`, or a spot on the tile just placed ("road N"; "road-N" too, which
/// needs no quotes at the shell).
fn meeple_event(g: &Game, spot: &str) -> Result<Event> {
    if !matches!(g.phase(), Phase::Meeple { .. }) {
        bail!("no meeple step now: {}", phase_text(g));
    }
    let player = g.current_player();
    let spot = spot.trim();
    if spot == "none" {
        return Ok(Event::MeepleSkipped { player });
    }
    let on: MeepleTarget = spot.replacen('-', " ", 1).parse()?;
    Ok(Event::MeeplePlaced { player, on })
}

fn tile_id(game: &Game, tile: carc_rules::TileTypeId) -> TileId {
    TileId::new(game.tiles().get(tile).id.clone()).expect("tile ids are non-empty")
}

fn new_game(ctx: &Ctx, store: &Store, args: NewArgs, loaded: &[TileSet]) -> Result<ExitCode> {
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
        // Each expansion brings the tile set of its name (the bridge refuses unknown ones),
        // except the abbot, whose garden copies are the base set's own.
        tile_sets: std::iter::once("base".to_string())
            .chain(args.expansions.iter().filter(|e| *e != "abbot").cloned())
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
    let mut log = Log::new(header);
    log.push_event(Event::StartPlaced {
        tile: TileId::new(START_TILE).expect("non-empty"),
        at: Pos::new(0, 0),
        rotation: Rotation::R0,
    });
    let timeline = fold(log, loaded);
    if let Some(err) = &timeline.error {
        bail!(
            "cannot start the game: {}",
            replay_message(err, &timeline.log.header)
        );
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
    println!("{}", hint(&args.game, 1, header, &game));
    Ok(ExitCode::SUCCESS)
}

/// The stored game, refusing sealed ones and finished ones, and its effective log.
fn load(ctx: &Ctx, store: &Store, game: &str, loaded: &[TileSet]) -> Result<(StoredGame, Log)> {
    let Some(sg) = read_game(store, game)? else {
        bail!(
            "no game {game:?} in store {}; start one with `carc record new {game} --players A,B`",
            ctx.store_dir.display()
        );
    };
    // A move on a game that is over is an illegal move (exit 1), as when the fold finds it.
    if sg.sealed {
        return Err(exit_code::IllegalInput(format!(
            "game {game} is over; no further moves (it is finished and sealed)"
        ))
        .into());
    }
    let log = sg.effective_log()?;
    // A finished game is sealed when it is stored (by `import`, and by the move that ends a
    // recorded game). One that is not was left so by an interrupted import of an older
    // release: it was imported finished, and `record` (undo included) never changes it.
    if fold(log.clone(), loaded).finished {
        // Not the move's fault but the store's state (exit 2): the message says what to run.
        bail!(
            "game {game} is finished but not sealed (an import was interrupted before sealing \
             it); it takes no further moves or undo; `carc verify --repair` seals it"
        );
    }
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
    let mut make = Some(make);
    record_moves(ctx, store, game, loaded, |g| {
        make.take().map(|m| m(g)).transpose()
    })
}

/// Folds the effective log plus the events `next` builds, one at a time (each from the state
/// after the ones before it, until it returns `None`), and appends them in one batch only if
/// all are legal: a turn entered in one command is recorded whole or not at all. Prints each
/// event with what it scored and the meeples it returned, then the hint for the next move.
fn record_moves(
    ctx: &Ctx,
    store: &Store,
    game: &str,
    loaded: &[TileSet],
    mut next: impl FnMut(&Game) -> Result<Option<Event>>,
) -> Result<ExitCode> {
    let (sg, log) = load(ctx, store, game, loaded)?;
    let mut timeline = fold(log, loaded);
    if let Some(err) = &timeline.error {
        bail!(
            "stored game {game} does not replay (line {}): {}",
            err.line(),
            replay_message(err, &timeline.log.header)
        );
    }
    let recorded = timeline.steps.len();
    loop {
        let state = timeline.state_at(timeline.steps.len())?;
        if state.is_over() && timeline.steps.len() == recorded {
            eprintln!("carc: game {game} is over; no further moves");
            return Ok(ExitCode::from(exit_code::ILLEGAL));
        }
        let event = match next(&state) {
            Ok(Some(event)) => event,
            Ok(None) => break,
            Err(e) => {
                // A move that makes no sense in this state is refused like an illegal one.
                eprintln!("carc: move refused, not recorded: {e:#}");
                let at = timeline.steps.len() as u64;
                eprintln!("{}", hint(game, at, &timeline.log.header, &state));
                eprintln!("{}", nothing_recorded(game, &timeline, recorded));
                return Ok(ExitCode::from(exit_code::ILLEGAL));
            }
        };
        let mut log = timeline.log;
        log.push_event(event);
        timeline = fold(log, loaded);
        if let Some(err) = &timeline.error {
            let header = &timeline.log.header;
            eprintln!(
                "carc: illegal move, not recorded: {}",
                replay_message(err, header)
            );
            eprintln!(
                "{}",
                hint(game, timeline.steps.len() as u64, header, &state)
            );
            eprintln!("{}", nothing_recorded(game, &timeline, recorded));
            return Ok(ExitCode::from(exit_code::ILLEGAL));
        }
    }
    if timeline.steps.len() == recorded {
        bail!("nothing to record");
    }
    let version = sg.version();
    let new_events = &timeline.log.events[recorded..];
    let batch: Vec<NewEvent> = new_events
        .iter()
        .enumerate()
        .map(|(i, (_, envelope))| {
            let line = format!("{}\n", write_event_line(envelope));
            NewEvent::new(event_id(game, version + 1 + i as u64), line.into_bytes())
        })
        .collect();
    // The move that ends the game seals it in the same step: a finished game is never left
    // open (see `load`).
    store.append_with(
        game,
        ExpectedVersion::Exactly(version),
        &batch,
        AppendOptions {
            seal: timeline.finished,
            ..AppendOptions::default()
        },
    )?;
    let header = &timeline.log.header;
    for step in &timeline.steps[recorded..] {
        println!("event {}: {}", step.seq, describe_step(header, step));
        for score in &step.effects.scores {
            println!("  scores: {}", score_headline(header, score));
        }
        for r in &step.effects.returned {
            println!(
                "  {} back to {}: from {} at {}",
                if r.abbot { "abbot" } else { "meeple" },
                seat_name(header, r.player),
                r.label,
                r.at
            );
        }
    }
    let now = timeline.state_at(timeline.steps.len())?;
    let scored = timeline.steps[recorded..]
        .iter()
        .any(|s| !s.effects.scores.is_empty());
    if scored && !now.is_over() {
        let totals: Vec<String> = now
            .scores()
            .iter()
            .enumerate()
            .map(|(seat, points)| format!("{} {points}", seat_name(header, seat as u8)))
            .collect();
        println!("  score now: {}", totals.join(", "));
    }
    println!("{}", hint(game, timeline.log.last_seq(), header, &now));
    ctx.debug(format!(
        "stored as stream events {} to {}",
        version + 1,
        version + batch.len() as u64
    ));
    Ok(ExitCode::SUCCESS)
}

/// After a refused move: nothing was stored, so `undo` would take back the last move that was,
/// not the refused one. Saying which keeps a player from undoing a good move by mistake.
fn nothing_recorded(game: &str, timeline: &carc_replay::Timeline, recorded: usize) -> String {
    let header = &timeline.log.header;
    // Event 1, the start tile, is no move `undo` takes back.
    match recorded.checked_sub(1).and_then(|i| timeline.steps.get(i)).filter(|s| s.seq > 1) {
        Some(last) => format!(
            "nothing was recorded; the last recorded move is still event {}: {} (`carc record undo {game}` would retract that one)",
            last.seq,
            describe_step(header, last)
        ),
        None => "nothing was recorded".to_string(),
    }
}

fn undo(ctx: &Ctx, store: &Store, game: &str, loaded: &[TileSet]) -> Result<ExitCode> {
    let (sg, log) = load(ctx, store, game, loaded)?;
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
        "retracted the last recorded move, {what} (stored line {retract}; the retraction is stored line {})",
        version + 1
    );
    let sg = read_game(store, game)?.expect("just appended");
    let timeline = fold(sg.effective_log()?, loaded);
    if let Some(err) = &timeline.error {
        bail!(
            "after the undo the game does not replay: {}",
            replay_message(err, &timeline.log.header)
        );
    }
    let now = timeline.state_at(timeline.steps.len())?;
    let at = timeline.log.last_seq();
    println!("{}", hint(game, at, &timeline.log.header, &now));
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
/// `at` is the number of the last event recorded (for the `carc legal` it names).
fn hint(id: &str, at: u64, header: &Header, game: &Game) -> String {
    let who = seat_name(header, game.current_player());
    match game.phase() {
        Phase::Start => "next: the start tile".into(),
        Phase::Draw => format!(
            "next: {who} draws a tile ({} in the bag): carc record turn {id} TILE X Y ROT SPOT|none \
             (the whole turn), or carc record draw {id} TILE",
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
                // One legal placement, filled in, shows the order of the arguments.
                let example = placements[0];
                format!(
                    "next: {who} places tile {name}: {} legal placements on {} squares \
                     (`carc legal {id} --at {at}` lists them): carc record place {id} X Y ROT [SPOT|none], \
                     e.g. carc record place {id} {} {} {}",
                    placements.len(),
                    squares.len(),
                    example.at.x,
                    example.at.y,
                    example.rotation.degrees()
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
            // Spelled as the command takes them without quotes ("road S" as road-S).
            let list: Vec<String> = spots
                .iter()
                .map(|s| s.label.code().replacen(' ', "-", 1))
                .collect();
            let mut text = match list.first() {
                Some(first) => format!(
                    "next: {who} may place a meeple on {} or none: carc record meeple {id} SPOT|none, \
                     e.g. carc record meeple {id} {first}",
                    list.join(", ")
                ),
                None => format!(
                    "next: {who} has no spot for a meeple on this tile: carc record meeple {id} none"
                ),
            };
            let mut abbot: Vec<carc_rules::AbbotMove> = Vec::new();
            game.legal_abbot_moves(&mut abbot);
            for m in &abbot {
                text.push_str(&match m {
                    carc_rules::AbbotMove::Place {
                        at,
                        label,
                        portal,
                        ..
                    } => format!(
                        "; or the abbot on the {label} at {at}: carc record abbot {id} {} {} {label}{}",
                        at.x,
                        at.y,
                        if *portal { " --portal" } else { "" }
                    ),
                    carc_rules::AbbotMove::TakeBack { at, label } => format!(
                        "; or take the abbot back from the {label} at {at}: carc record abbot-back {id}"
                    ),
                });
            }
            if let Some(action) = game.arrow_action() {
                let mut remote: Vec<ArrowMeepleSpot> = Vec::new();
                game.legal_arrow_meeples(&mut remote);
                text.push_str(&format!(
                    "; or through the {action} arrow on one of {} targets (`carc legal {id} --at {at}` lists them): carc record arrow-meeple {id} {} X Y TARGET",
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
            format!(
                "{}; final scores: {}",
                carc_replay::describe::describe_phase(header, game),
                scores.join(", ")
            )
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
