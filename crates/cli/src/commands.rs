//! The verbs. Each returns the process exit code; errors that stop a verb are `anyhow`
//! errors printed by `main` with exit code 2.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use carc_events::{
    record_actions, write_log, Assertion, Color, Header, Log, MapRules, Player, RulesOptions,
    TownVariant,
};
use carc_replay::{check_assertions, fold, Timeline};
use carc_rules::{
    ArrowMeepleSpot, Game, GiftAction, MapBoard, MapOptions, MeepleSpot, Options, Phase,
    PlacedArrow, Placement, Setup, TileSet,
};
use carc_sim::Strategy;
use clap::Args;
use serde_json::json;

pub use carc_replay::describe::describe_event;
use carc_replay::describe::{
    describe_arrows, describe_event_as, describe_gifts, describe_hands, describe_phase,
    score_details, score_headline, View,
};

use crate::board_text;
use crate::json;

pub fn load_tile_sets(paths: &[PathBuf]) -> Result<Vec<TileSet>> {
    paths
        .iter()
        .map(|p| {
            let text = fs::read_to_string(p)
                .with_context(|| format!("cannot read tile-set file {}", p.display()))?;
            TileSet::from_json(&text).with_context(|| format!("{}", p.display()))
        })
        .collect()
}

/// The `--map` values: built-in names are taken as they are; anything else is a map file,
/// loaded, validated and registered so that every log naming its map uses it. Returns the
/// map the last value names (the one `simulate` plays on).
pub fn load_maps(values: &[String]) -> Result<Option<Arc<MapBoard>>> {
    let mut last = None;
    for value in values {
        if let Some(map) = MapBoard::builtin_shared(value) {
            last = Some(map);
            continue;
        }
        let text = fs::read_to_string(value).with_context(|| {
            format!(
                "--map {value}: not a built-in map ({}) and not a readable map file",
                MapBoard::BUILTIN.join(", ")
            )
        })?;
        let map = MapBoard::from_json(&text).with_context(|| value.clone())?;
        carc_events::register_map(map.clone());
        last = Some(Arc::new(map));
    }
    Ok(last)
}

/// A log file or a JCloisterZone saved game, as our log.
pub fn load_log(path: &Path) -> Result<Log> {
    let bytes = fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    crate::input::read_game_file(path, &bytes)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

const NAMES: [&str; 6] = ["Ada", "Brandt", "Cleo", "Dario", "Ela", "Finn"];

// ---- simulate ---------------------------------------------------------------------------------

#[derive(Args)]
pub struct SimulateArgs {
    /// Seed of the first game; game i of a batch uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Number of players (2 to 6).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=6))]
    players: u8,
    /// Number of games; with more than one, --out is a folder.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Output file (one game) or folder (several games).
    #[arg(long)]
    out: PathBuf,
    /// Strategy per seat, comma-separated, cycled: random, greedy.
    #[arg(long, value_delimiter = ',', default_value = "random")]
    strategy: Vec<String>,
    /// Play without farmers.
    #[arg(long)]
    no_farmers: bool,
    /// Points of a two-tile city: 4 (current rules) or 2 (old rules).
    #[arg(long, default_value_t = 4)]
    two_tile_city: u8,
    /// Expansions, comma-separated (supported: anniversary, gifts). Their tile sets (if any)
    /// join the bag.
    #[arg(long, value_delimiter = ',')]
    expansions: Vec<String>,
    /// Meeples per player (default 7; 9 on a map, as the Maps rules recommend).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=20))]
    meeples: Option<u8>,
    /// On a map (--map): start squares in use (the start tile on one, a drawn tile on each other).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=8))]
    start_squares: u8,
    /// On a map (--map): town variants, comma-separated: extra_turn, cost, road_bonus.
    #[arg(long, value_delimiter = ',')]
    town_variants: Vec<String>,
}

/// The expansions this program plays, with the tile set each adds to the bag (The Gifts
/// adds cards, no tiles).
const EXPANSIONS: [(&str, Option<&str>); 2] =
    [("anniversary", Some("anniversary")), ("gifts", None)];

/// Checks a list of expansion names; returns them in the given order.
fn check_expansions(names: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if !EXPANSIONS.iter().any(|(e, _)| e == name) {
            let known: Vec<&str> = EXPANSIONS.iter().map(|(e, _)| *e).collect();
            bail!(
                "unknown expansion {name:?}; supported: {}",
                known.join(", ")
            );
        }
        if out.contains(name) {
            bail!("expansion {name:?} is listed twice");
        }
        out.push(name.clone());
    }
    Ok(out)
}

pub fn simulate(
    args: SimulateArgs,
    loaded: &[TileSet],
    map: Option<&Arc<MapBoard>>,
) -> Result<ExitCode> {
    let strategies = args
        .strategy
        .iter()
        .map(|s| {
            Strategy::parse(s)
                .with_context(|| format!("unknown strategy {s:?}; expected random or greedy"))
        })
        .collect::<Result<Vec<_>>>()?;
    let expansions = check_expansions(&args.expansions)?;
    // A set loaded with --tiles replaces the built-in set of the same name.
    let set = |name: &str| -> Result<TileSet> {
        loaded
            .iter()
            .find(|s| s.name == name)
            .cloned()
            .or_else(|| TileSet::builtin(name))
            .with_context(|| format!("no tile set named {name:?}"))
    };
    let mut tile_sets = vec!["base".to_string()];
    for e in &expansions {
        let (_, tiles) = EXPANSIONS
            .iter()
            .find(|(name, _)| name == e)
            .expect("checked");
        if let Some(tiles) = tiles {
            tile_sets.push((*tiles).to_string());
        }
    }
    let sets = tile_sets
        .iter()
        .map(|n| set(n))
        .collect::<Result<Vec<_>>>()?;
    let tiles = Arc::new(if sets.len() == 1 {
        sets.into_iter().next().expect("one set")
    } else {
        TileSet::combine(&sets)?
    });
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
    if map.is_none() && (!town_variants.is_empty() || args.start_squares != 2) {
        bail!(
            "--start-squares and --town-variants are options of a game on a map; add --map germany"
        );
    }
    let map_rules = map.map(|m| MapRules {
        name: m.name.clone(),
        start_squares: args.start_squares,
        town_variants: town_variants.clone(),
    });
    let options = Options {
        farmers: !args.no_farmers,
        two_tile_city: args.two_tile_city,
        meeples: args.meeples.unwrap_or(if map.is_some() { 9 } else { 7 }),
        anniversary: expansions.iter().any(|e| e == "anniversary"),
        map: if map.is_some() {
            MapOptions {
                start_squares: args.start_squares,
                town_extra_turn: town_variants.contains(&TownVariant::ExtraTurn),
                town_cost: town_variants.contains(&TownVariant::Cost),
                town_road_bonus: town_variants.contains(&TownVariant::RoadBonus),
            }
        } else {
            MapOptions::default()
        },
        gifts: expansions.iter().any(|e| e == "gifts"),
    };
    if args.games > 1 {
        fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create folder {}", args.out.display()))?;
    }
    for i in 0..args.games {
        let seed = args.seed.wrapping_add(u64::from(i));
        let setup = Setup {
            players: args.players,
            options: options.clone(),
            tiles: Arc::clone(&tiles),
            bag: None,
            map: map.cloned(),
        };
        let text = simulated_log(
            setup,
            seed,
            &strategies,
            &expansions,
            &tile_sets,
            map_rules.clone(),
        )?;
        let path = if args.games > 1 {
            args.out.join(format!("game-s{seed}.jsonl"))
        } else {
            args.out.clone()
        };
        fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    eprintln!(
        "carc: wrote {} game{} to {}",
        args.games,
        if args.games == 1 { "" } else { "s" },
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Plays one game and writes it as a log, with its final scores as an assertion.
pub fn simulated_log(
    setup: Setup,
    seed: u64,
    strategies: &[Strategy],
    expansions: &[String],
    tile_sets: &[String],
    map: Option<MapRules>,
) -> Result<String> {
    let header = Header {
        game: format!("sim-s{seed}"),
        players: (0..setup.players as usize)
            .map(|i| Player {
                name: NAMES[i].to_string(),
                color: Color::ALL[i],
            })
            .collect(),
        rules: RulesOptions {
            expansions: expansions.to_vec(),
            farmers: setup.options.farmers,
            two_tile_city: setup.options.two_tile_city,
            meeples: setup.options.meeples,
            map,
        },
        tile_sets: tile_sets.to_vec(),
        bag: None,
        comment: Some(format!(
            "simulated by carc {}: seed {seed}, strategies {}",
            env!("CARGO_PKG_VERSION"),
            strategies
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(",")
        )),
    };
    let sim = carc_sim::play(setup.clone(), seed, strategies)?;
    let (mut log, game) = record_actions(header, Game::new(setup)?, &sim.actions)?;
    log.push_assertion(Assertion::ExpectFinalScores {
        scores: game.scores().to_vec(),
    });
    Ok(write_log(&log))
}

// ---- check ------------------------------------------------------------------------------------

#[derive(Args)]
pub struct CheckArgs {
    /// Log files (JSON Lines).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// One JSON object per file on stdout.
    #[arg(long)]
    json: bool,
}

pub fn check(args: CheckArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let mut all_ok = true;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for file in &args.files {
        let report = check_file(file, loaded);
        all_ok &= report["ok"] == json!(true);
        if args.json {
            writeln!(out, "{report}")?;
        } else {
            writeln!(out, "{}", check_text(&report))?;
        }
    }
    Ok(if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn check_file(file: &Path, loaded: &[TileSet]) -> serde_json::Value {
    let name = file.display().to_string();
    let fail = |line: usize, event: Option<u64>, rule: &str, message: String| {
        json!({"file": name, "ok": false, "events": 0, "finished": false, "final_scores": [],
               "error": {"line": line, "event": event, "rule": rule, "message": message}})
    };
    let bytes = match fs::read(file) {
        Ok(b) => b,
        Err(e) => return fail(0, None, "io", format!("cannot read {name}: {e}")),
    };
    let log = match crate::input::read_game_file(file, &bytes) {
        Ok(log) => log,
        Err(e) => return fail(e.line(), None, e.rule(), e.message()),
    };
    let bundle_problem = crate::companions::bundle_problem(&log, loaded);
    let timeline = fold(log, loaded);
    let final_scores: Vec<serde_json::Value> = timeline
        .final_scores()
        .iter()
        .enumerate()
        .map(|(seat, s)| json!({"player": json::seat_name(&timeline.log.header, seat as u8), "score": s}))
        .collect();
    let mut report = json!({
        "file": name,
        "ok": true,
        "events": timeline.steps.len(),
        "finished": timeline.finished,
        "final_scores": final_scores,
    });
    if let Some(err) = &timeline.error {
        report["ok"] = json!(false);
        report["error"] = json!({"line": err.line(), "event": err.seq(), "rule": err.rule(), "message": err.message()});
    } else if let Some(f) = check_assertions(&timeline).first() {
        report["ok"] = json!(false);
        report["error"] = json!({"line": f.line, "event": null, "rule": "log.assertion",
                                 "message": format!("{} claims scores {:?}, but {}", f.assertion, f.claimed, f.actual)});
    } else if let Some((line, message)) = bundle_problem {
        report["ok"] = json!(false);
        report["error"] =
            json!({"line": line, "event": null, "rule": "log.companion", "message": message});
    }
    report
}

fn check_text(r: &serde_json::Value) -> String {
    let file = r["file"].as_str().unwrap_or("?");
    if r["ok"] == json!(true) {
        let scores: Vec<String> = r["final_scores"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|s| format!("{} {}", s["player"].as_str().unwrap_or("?"), s["score"]))
                    .collect()
            })
            .unwrap_or_default();
        let state = if r["finished"] == json!(true) {
            "final scores"
        } else {
            "in progress, scores"
        };
        format!(
            "{file}: ok, {} events; {state}: {}",
            r["events"],
            scores.join(", ")
        )
    } else {
        let e = &r["error"];
        let event = e["event"]
            .as_u64()
            .map(|s| format!(" event {s}:"))
            .unwrap_or_default();
        // Line 0: the file as a whole (unreadable, or a JCloisterZone game, which has no lines).
        let line = match e["line"].as_u64() {
            Some(0) | None => String::new(),
            Some(n) => format!("{n}:"),
        };
        format!(
            "{file}:{line}{event} [{}] {}",
            e["rule"].as_str().unwrap_or("?"),
            e["message"].as_str().unwrap_or("?")
        )
    }
}

// ---- replay / explain / legal -----------------------------------------------------------------

#[derive(Args)]
pub struct AtArgs {
    /// A log file (JSON Lines).
    file: PathBuf,
    /// Event number (seq); 0 means before the first event.
    #[arg(long)]
    at: u64,
    /// JSON on stdout instead of text.
    #[arg(long)]
    json: bool,
    /// The Gifts: show the game as this player sees it (seat number or name): other players'
    /// gift cards face down. Without it, every card is shown (the full view).
    #[arg(long = "as", value_name = "PLAYER")]
    as_player: Option<String>,
}

/// The point of view `--as` names, checked against the header's players.
fn view_of(args: &AtArgs, header: &Header) -> Result<View> {
    let Some(who) = &args.as_player else {
        return Ok(View::Full);
    };
    if let Some(seat) = header.players.iter().position(|p| &p.name == who) {
        return Ok(View::Seat(seat as u8));
    }
    match who.parse::<u8>() {
        Ok(seat) if usize::from(seat) < header.players.len() => Ok(View::Seat(seat)),
        _ => bail!(
            "--as {who:?}: no such player; expected a seat number 0 to {} or a name ({})",
            header.players.len() - 1,
            header
                .players
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// The timeline of a file and the number of legal steps up to `at`, or an error saying why
/// the state after `at` cannot be shown.
fn timeline_at(args: &AtArgs, loaded: &[TileSet]) -> Result<(Timeline, usize)> {
    let log = load_log(&args.file)?;
    let last = log.last_seq();
    if args.at > last {
        bail!(
            "{}: there is no event {}; the log's last event is {last}",
            args.file.display(),
            args.at
        );
    }
    let timeline = fold(log, loaded);
    let n = args.at as usize;
    if n > timeline.steps.len() {
        let err = timeline
            .error
            .as_ref()
            .expect("steps stop early only at an error");
        bail!(
            "{}:{}: event {} is illegal [{}] {}; the last legal event is {}",
            args.file.display(),
            err.line(),
            err.seq().unwrap_or(0),
            err.rule(),
            err.message(),
            timeline.steps.len()
        );
    }
    Ok((timeline, n))
}

pub fn replay(args: AtArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let (timeline, n) = timeline_at(&args, loaded)?;
    let game = timeline.state_at(n)?;
    let header = &timeline.log.header;
    if args.json {
        let mut v = json::board(header, &game);
        v["at"] = json!(n);
        v["phase"] = json::phase(&game);
        v["scores"] = json::scores(header, &game);
        if game.options().gifts {
            v["gifts"] = json::gifts(header, &game, view_of(&args, header)?);
        }
        println!("{v}");
    } else {
        println!("after event {n} of {}:", timeline.log.last_seq());
        print!("{}", board_text::render(&game));
        println!("{}", describe_phase(header, &game));
        for (seat, (score, supply)) in game.scores().iter().zip(game.supply()).enumerate() {
            println!(
                "  {:<8} {score:>4} points, {supply} meeples in supply",
                json::seat_name(header, seat as u8)
            );
        }
        let hands = describe_hands(header, &game, view_of(&args, header)?);
        if !hands.is_empty() {
            println!("gifts in hand:");
            for line in hands {
                println!("  {line}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn explain(args: AtArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let log = load_log(&args.file)?;
    if args.at == 0 || args.at > log.last_seq() {
        bail!(
            "{}: there is no event {}; events are numbered 1 to {}",
            args.file.display(),
            args.at,
            log.last_seq()
        );
    }
    let timeline = fold(log, loaded);
    let header = &timeline.log.header;
    let index = (args.at - 1) as usize;
    let (line, envelope) = &timeline.log.events[index];
    let view = view_of(&args, header)?;
    let described = describe_event_as(header, &envelope.event, view);
    if index >= timeline.steps.len() {
        let err = timeline
            .error
            .as_ref()
            .expect("steps stop early only at an error");
        if index > timeline.steps.len() {
            bail!(
                "{}: event {} comes after the illegal event {} (line {}): {}",
                args.file.display(),
                args.at,
                err.seq().unwrap_or(0),
                err.line(),
                err.message()
            );
        }
        if args.json {
            println!(
                "{}",
                json!({"event": args.at, "line": line, "type": envelope.event.type_name(), "description": described,
                       "legal": false, "rule": err.rule(), "message": err.message()})
            );
        } else {
            println!("event {} (line {line}): {described}", args.at);
            println!("ILLEGAL [{}]: {}", err.rule(), err.message());
        }
        return Ok(ExitCode::from(1));
    }
    let step = &timeline.steps[index];
    if args.json {
        let mut v = json!({
            "event": step.seq, "line": step.line, "turn": step.turn, "type": step.event.type_name(),
            "description": described, "legal": true,
            "trace": step.effects.notes.iter().map(json::note).collect::<Vec<_>>(),
            "scores": step.effects.scores.iter().map(|s| json::score(header, s)).collect::<Vec<_>>(),
            "returned": step.effects.returned.iter().map(|r| json::returned(header, r)).collect::<Vec<_>>(),
            "scores_after": step.scores_after,
        });
        // Only events that touch arrows carry the field, so base-game output is unchanged.
        let arrows = describe_arrows(header, step.seat, &step.effects);
        if !arrows.is_empty() {
            v["arrows"] = json!(arrows);
        }
        let gifts = describe_gifts(header, step.seat, &step.effects);
        if !gifts.is_empty() {
            v["gifts"] = json!(gifts);
        }
        println!("{v}");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "event {} (line {}, turn {}): {described}",
        step.seq, step.line, step.turn
    );
    if !step.effects.notes.is_empty() {
        println!("why it is legal, and what followed:");
        for n in &step.effects.notes {
            println!("  - {n}  [{}]", n.rule());
        }
    }
    let arrows = describe_arrows(header, step.seat, &step.effects);
    if !arrows.is_empty() {
        println!("arrows (20th Anniversary):");
        for line in &arrows {
            println!("  - {line}");
        }
    }
    let gifts = describe_gifts(header, step.seat, &step.effects);
    if !gifts.is_empty() {
        println!("gifts (The Gifts):");
        for line in &gifts {
            println!("  - {line}");
        }
    }
    for s in &step.effects.scores {
        println!("score: {}", score_headline(header, s));
        for line in score_details(header, s) {
            println!("    {line}");
        }
    }
    for r in &step.effects.returned {
        println!(
            "meeple returned: {} from {} at {}",
            json::seat_name(header, r.player),
            r.label,
            r.at
        );
    }
    let after: Vec<String> = step
        .scores_after
        .iter()
        .enumerate()
        .map(|(seat, s)| format!("{} {s}", json::seat_name(header, seat as u8)))
        .collect();
    println!("scores after: {}", after.join(", "));
    Ok(ExitCode::SUCCESS)
}

pub fn legal(args: AtArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let (timeline, n) = timeline_at(&args, loaded)?;
    let game = timeline.state_at(n)?;
    let header = &timeline.log.header;
    let who = json::seat_name(header, game.current_player());
    match game.phase() {
        Phase::Start if game.map().is_some() => {
            // On a map the start tiles go on its free start squares: any tile still in the bag
            // whose edges fit what is printed around the square.
            let map = game.map().expect("matched");
            let free: Vec<&carc_rules::NamedSquare> = map
                .start_squares()
                .iter()
                .filter(|s| game.starts_placed() == 0 || game.tile_at(s.at).is_none())
                .collect();
            if args.json {
                let squares: Vec<serde_json::Value> = free
                    .iter()
                    .map(|s| json!({"name": s.name, "at": [s.at.x, s.at.y]}))
                    .collect();
                println!(
                    "{}",
                    json!({"at": n, "step": "start", "map": map.name, "start_squares": squares})
                );
            } else {
                let names: Vec<String> = free
                    .iter()
                    .map(|s| format!("{} {}", s.name, s.at))
                    .collect();
                println!(
                    "after event {n}: start tile {} of {} on the map {}; free start squares: {}",
                    game.starts_placed() + 1,
                    game.options().map.start_squares,
                    map.name,
                    names.join(", ")
                );
            }
        }
        Phase::Start => {
            let ids: Vec<&str> = game.tiles().tiles().iter().map(|t| t.id.as_str()).collect();
            if args.json {
                println!("{}", json!({"at": n, "step": "start", "tiles": ids}));
            } else {
                println!(
                    "after event {n}: the start tile is placed (any tile of the game, any square)"
                );
            }
        }
        Phase::Draw => {
            let bag: Vec<(String, u16)> = game
                .tiles()
                .tiles()
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    (
                        t.id.clone(),
                        game.bag_count(carc_rules::TileTypeId(i as u16)),
                    )
                })
                .filter(|(_, c)| *c > 0)
                .collect();
            if args.json {
                let b: Vec<_> = bag
                    .iter()
                    .map(|(t, c)| json!({"tile": t, "count": c}))
                    .collect();
                println!(
                    "{}",
                    json!({"at": n, "step": "draw", "seat": game.current_player(), "bag": b})
                );
            } else {
                println!(
                    "after event {n}: {who} draws (chance); the bag holds {} tiles:",
                    game.bag_left()
                );
                let list: Vec<String> = bag.iter().map(|(t, c)| format!("{t}×{c}")).collect();
                println!("  {}", list.join(" "));
            }
        }
        Phase::Place { tile } => {
            let mut placements: Vec<Placement> = Vec::new();
            game.legal_placements(tile, &mut placements);
            placements.sort();
            let id = &game.tiles().get(tile).id;
            let mut gifts: Vec<GiftAction> = Vec::new();
            game.legal_gifts(&mut gifts);
            if args.json {
                let p: Vec<_> = placements
                    .iter()
                    .map(|p| json!({"at": json::pos(p.at), "rotation": p.rotation.degrees()}))
                    .collect();
                let mut v = json!({"at": n, "step": "place", "seat": game.current_player(), "tile": id,
                                   "placements": p, "set_aside": placements.is_empty()});
                // Only with the expansion, so other games' output is unchanged.
                if game.options().gifts {
                    v["gifts"] = gifts.iter().map(|g| json::gift_action(&game, g)).collect();
                }
                println!("{v}");
                return Ok(ExitCode::SUCCESS);
            }
            if !gifts.is_empty() {
                println!(
                    "after event {n}: before placing, {who} may open one gift ({} ways):",
                    gifts.len()
                );
                for g in &gifts {
                    println!("  {}", json::gift_action_words(&game, g));
                }
            }
            if placements.is_empty() {
                println!("after event {n}: tile {id} fits nowhere; {who} must set it aside");
            } else {
                println!("after event {n}: {who} places tile {id}; {} legal placements (symmetric rotations listed once):", placements.len());
                for p in &placements {
                    println!("  {} rotated {}", p.at, p.rotation);
                }
            }
        }
        Phase::ChooseArrow { at } => {
            let mut choices: Vec<PlacedArrow> = Vec::new();
            game.legal_arrow_choices(&mut choices);
            if args.json {
                let c: Vec<_> = choices
                    .iter()
                    .map(|a| json!({"at": json::pos(a.at), "symbol": a.symbol.name(), "points": a.side.name()}))
                    .collect();
                println!(
                    "{}",
                    json!({"at": n, "step": "choose_arrow", "seat": game.current_player(), "tile_at": json::pos(at),
                           "arrows": c})
                );
            } else {
                println!(
                    "after event {n}: the tile at {at} activates {} arrows; {who} chooses one:",
                    choices.len()
                );
                for a in &choices {
                    println!(
                        "  the {} arrow of the tile at {} (points {})",
                        a.symbol,
                        a.at,
                        a.side.word()
                    );
                }
            }
        }
        Phase::Meeple { at } => {
            let mut spots: Vec<MeepleSpot> = Vec::new();
            game.legal_meeples(&mut spots);
            let mut remote: Vec<ArrowMeepleSpot> = Vec::new();
            game.legal_arrow_meeples(&mut remote);
            if args.json {
                let s: Vec<_> = spots.iter().map(|s| s.label.to_string()).collect();
                let mut v = json!({"at": n, "step": "meeple", "seat": game.current_player(), "tile_at": json::pos(at),
                                   "meeple_on": s, "skip": true});
                // Only with an activated companion or portal, so base-game output is unchanged.
                if let Some(action) = game.arrow_action() {
                    v["arrow_action"] = json!(action.name());
                    v["arrow_meeple_on"] = remote
                        .iter()
                        .map(|r| json!({"at": json::pos(r.at), "on": r.label.to_string()}))
                        .collect();
                }
                println!("{v}");
            } else {
                println!("after event {n}: {who} may place a meeple on the tile at {at}:");
                for s in &spots {
                    println!("  {}", s.label);
                }
                if let Some(action) = game.arrow_action() {
                    println!(
                        "  or, through the {action} arrow, {} target{}:",
                        remote.len(),
                        if remote.len() == 1 { "" } else { "s" }
                    );
                    for r in &remote {
                        println!("    {} at {}", r.label, r.at);
                    }
                }
                println!("  (or no meeple)");
            }
        }
        Phase::ReceiveGift { at } => {
            if args.json {
                println!(
                    "{}",
                    json!({"at": n, "step": "receive_gift", "seat": game.current_player(), "tile_at": json::pos(at),
                           "deck": json::cards(&game.gift_deck()), "discard": json::cards(&game.gift_discard())})
                );
            } else {
                println!(
                    "after event {n}: {who} receives a gift for the tile at {at} (chance: the top card of the gift deck)"
                );
            }
        }
        Phase::DrawSecond { .. } => {
            if args.json {
                println!(
                    "{}",
                    json!({"at": n, "step": "draw_second", "seat": game.current_player(), "bag_left": game.bag_left()})
                );
            } else {
                println!(
                    "after event {n}: {who} draws a second tile (Take 2; chance); the bag holds {} tiles",
                    game.bag_left()
                );
            }
        }
        Phase::ReturnTile { first, second } => {
            let (a, b) = (&game.tiles().get(first).id, &game.tiles().get(second).id);
            if args.json {
                println!(
                    "{}",
                    json!({"at": n, "step": "return_tile", "seat": game.current_player(), "tiles": [a, b]})
                );
            } else {
                println!(
                    "after event {n}: {who} returns tile {a} or tile {b} to the bag (Take 2) and places the other"
                );
            }
        }
        Phase::Over => {
            if args.json {
                println!("{}", json!({"at": n, "step": "over"}));
            } else {
                println!("after event {n}: the game is over; no moves");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

// ---- tiles check ------------------------------------------------------------------------------

#[derive(Args)]
pub struct TilesCheckArgs {
    /// A tile-set file (JSON).
    file: PathBuf,
}

/// Validates a tile-set file with the checks run on every load; prints a summary, or the
/// first problem and exit code 1.
pub fn tiles_check(args: TilesCheckArgs) -> Result<ExitCode> {
    let name = args.file.display().to_string();
    let text = fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read tile-set file {name}"))?;
    let set = match TileSet::from_json(&text) {
        Ok(set) => set,
        Err(e) => {
            println!("{name}: invalid: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let arrows: Vec<String> = carc_rules::ArrowSymbol::ALL
        .iter()
        .map(|&symbol| {
            let n: u32 = set
                .tiles()
                .iter()
                .filter(|t| t.arrow.map(|a| a.symbol) == Some(symbol))
                .map(|t| u32::from(t.count))
                .sum();
            format!("{n} {symbol}")
        })
        .collect();
    let builtin = if TileSet::BUILTIN.contains(&set.name.as_str()) {
        format!(
            " (replaces the built-in set {:?} when passed with --tiles)",
            set.name
        )
    } else {
        String::new()
    };
    println!(
        "{name}: ok, tile set {:?}{builtin}: {} tile types, {} tiles; arrows: {}",
        set.name,
        set.len(),
        set.total_count(),
        arrows.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}

// ---- map check --------------------------------------------------------------------------------

#[derive(Args)]
pub struct MapCheckArgs {
    /// A map file (JSON), or the name of a built-in map.
    file: String,
}

/// Validates a map file with the checks run on every load; prints a summary, or the first
/// problem and exit code 1.
pub fn map_check(args: MapCheckArgs) -> Result<ExitCode> {
    let name = args.file;
    let map = match MapBoard::builtin_shared(&name) {
        Some(map) => (*map).clone(),
        None => {
            let text = fs::read_to_string(&name)
                .with_context(|| format!("cannot read map file {name}"))?;
            match MapBoard::from_json(&text) {
                Ok(map) => map,
                Err(e) => {
                    println!("{name}: invalid: {e}");
                    return Ok(ExitCode::from(1));
                }
            }
        }
    };
    let names = |list: &[carc_rules::NamedSquare]| -> String {
        list.iter()
            .map(|s| format!("{} {}", s.name, s.at))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let cities: Vec<String> = map
        .large_cities()
        .iter()
        .map(|c| {
            format!(
                "{} ({} square{}, {} coat{} of arms)",
                c.name,
                c.squares.len(),
                if c.squares.len() == 1 { "" } else { "s" },
                c.coats_of_arms,
                if c.coats_of_arms == 1 { "" } else { "s" }
            )
        })
        .collect();
    println!(
        "{name}: ok, map {:?}: {} playable squares; start squares: {}; large cities: {}; towns: {}; {} printed segments abroad",
        map.name,
        map.playable_count(),
        names(map.start_squares()),
        cities.join(", "),
        names(map.towns()),
        map.prints().count()
    );
    Ok(ExitCode::SUCCESS)
}
