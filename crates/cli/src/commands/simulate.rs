//! `carc simulate`: games played by seeded simulated players (`carc-sim`), written as logs
//! with their final scores as an assertion.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use carc_events::{
    record_actions, write_header, write_log, Assertion, Color, Header, MapRules, Player,
    RulesOptions, Source, TownVariant,
};
use carc_rules::{Game, MapBoard, MapOptions, Options, Setup, TileSet};
use carc_sim::Strategy;
use clap::Args;

const NAMES: [&str; 6] = ["Ada", "Brandt", "Cleo", "Dario", "Ela", "Finn"];

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
    /// Expansions, comma-separated (supported: anniversary, gifts, abbot). Their tile sets (if any)
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
const EXPANSIONS: [(&str, Option<&str>); 3] = [
    ("anniversary", Some("anniversary")),
    ("gifts", None),
    ("abbot", None),
];

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
    quiet: bool,
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
    let tiles = if sets.len() == 1 {
        sets.into_iter().next().expect("one set")
    } else {
        TileSet::combine(&sets)?
    };
    let abbot = expansions.iter().any(|e| e == "abbot");
    // The Abbot: garden copies are tiles of their own (as the header's reader builds them).
    let tiles = Arc::new(if abbot { tiles.with_gardens() } else { tiles });
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
        abbot,
    };
    if args.games > 1 {
        fs::create_dir_all(&args.out)
            .with_context(|| format!("cannot create folder {}", args.out.display()))?;
    }
    // File names carry the seed padded with zeros to the widest seed of the run, so that a
    // folder lists (and `import` reads) the games in seed order: game-s0999 before game-s1000.
    let width = (0..args.games)
        .map(|i| args.seed.wrapping_add(u64::from(i)).to_string().len())
        .max()
        .unwrap_or(1);
    let bar = crate::progress::bar(quiet || args.games < 2, u64::from(args.games), "games");
    for i in 0..args.games {
        bar.inc(1);
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
            args.out.join(format!("game-s{seed:0width$}.jsonl"))
        } else {
            args.out.clone()
        };
        fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    bar.finish_and_clear();
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
    let mut header = Header {
        game: String::new(),
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
        // The seed and each seat's strategy (the list is cycled over the seats) as fields, for
        // tools; the comment says it in words.
        source: Some(Source::Simulated {
            seed,
            strategies: strategies
                .iter()
                .cycle()
                .take(usize::from(setup.players))
                .map(|s| s.name().to_string())
                .collect(),
        }),
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
    header.game = simulated_game_id(&header, seed);
    let sim = carc_sim::play(setup.clone(), seed, strategies)?;
    let (mut log, game) = record_actions(header, Game::new(setup)?, &sim.actions)?;
    log.push_assertion(Assertion::ExpectFinalScores {
        scores: game.scores().to_vec(),
    });
    Ok(write_log(&log))
}

/// The id of a simulated game: `sim-s<seed>-<setup>`, where `<setup>` is 8 hexadecimal digits
/// that tell the set-ups apart: the first 8 of the 64-bit FNV-1a hash of the header line as
/// written with an empty game id and no comment (players, colours, rules, expansions, map,
/// tile sets, the seed and each seat's strategy). Two simulations that differ in anything
/// but the seed get different digits; the same simulation always gets the same id
/// (`docs/log-format.md`, "Game ids of simulated games").
pub fn simulated_game_id(header: &Header, seed: u64) -> String {
    let setup = Header {
        game: String::new(),
        comment: None,
        ..header.clone()
    };
    let hash = write_header(&setup)
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    format!("sim-s{seed}-{:08x}", hash >> 32)
}
