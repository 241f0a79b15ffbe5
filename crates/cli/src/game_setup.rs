//! The rules of a new game as `simulate` and `match` take them from the command line
//! (`--expansions`, `--map`, farmers, meeples, …): the flags ([`RulesArgs`]), the rules
//! ([`GameRules`]: options, tile sets and map) and a new log's header.

use std::sync::Arc;

use anyhow::{bail, Context, Result};
use carc_events::{Color, Header, MapRules, Player, RulesOptions, Source, TownVariant};
use carc_rules::{MapBoard, MapOptions, Options, Setup, TileSet};
use clap::Args;

/// The players' names in a new log, by seat.
pub const NAMES: [&str; 6] = ["Ada", "Brandt", "Cleo", "Dario", "Ela", "Finn"];

/// The rule flags of a new game.
#[derive(Args, Clone, Debug)]
pub struct RulesArgs {
    /// Play without farmers.
    #[arg(long)]
    no_farmers: bool,
    /// Points of a two-tile city: 4 (current rules) or 2 (old rules).
    #[arg(long, default_value_t = 4)]
    two_tile_city: u8,
    /// Expansions, comma-separated (supported: anniversary, gifts, abbot, river, inns_cathedrals, traders_builders). Their tile sets (if any)
    /// join the bag.
    #[arg(long, value_delimiter = ',')]
    pub expansions: Vec<String>,
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
const EXPANSIONS: [(&str, Option<&str>); 6] = [
    ("anniversary", Some("anniversary")),
    ("gifts", None),
    ("abbot", None),
    ("river", Some("river")),
    ("inns_cathedrals", Some("inns_cathedrals")),
    ("traders_builders", Some("traders_builders")),
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

/// The rules of the games to play: everything of a [`Setup`] but the number of players, and
/// what a header says of them.
#[derive(Clone)]
pub struct GameRules {
    pub options: Options,
    pub tiles: Arc<TileSet>,
    pub map: Option<Arc<MapBoard>>,
    /// The expansions, as the header lists them.
    pub expansions: Vec<String>,
    /// The tile sets, as the header lists them.
    pub tile_sets: Vec<String>,
    pub map_rules: Option<MapRules>,
}

impl GameRules {
    /// The rules the flags give; `loaded` are the tile sets of `--tiles` (each replaces the
    /// built-in set of its name), `map` the map of `--map`.
    pub fn build(
        args: &RulesArgs,
        loaded: &[TileSet],
        map: Option<&Arc<MapBoard>>,
    ) -> Result<GameRules> {
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
            if let Some((_, Some(tiles))) = EXPANSIONS.iter().find(|(name, _)| name == e) {
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
            river: expansions.iter().any(|e| e == "river"),
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
            inns_cathedrals: expansions.iter().any(|e| e == "inns_cathedrals"),
            traders_builders: expansions.iter().any(|e| e == "traders_builders"),
        };
        Ok(GameRules {
            options,
            tiles,
            map: map.cloned(),
            expansions,
            tile_sets,
            map_rules,
        })
    }

    /// A game of these rules for `players` seats.
    pub fn setup(&self, players: u8) -> Setup {
        Setup {
            players,
            options: self.options.clone(),
            tiles: Arc::clone(&self.tiles),
            bag: None,
            map: self.map.clone(),
        }
    }

    /// The header of a new log of these rules: `players` seats named [`NAMES`].
    pub fn header(
        &self,
        game: String,
        players: u8,
        source: Option<Source>,
        comment: Option<String>,
    ) -> Header {
        Header {
            game,
            players: (0..usize::from(players))
                .map(|i| Player {
                    name: NAMES[i].to_string(),
                    color: Color::ALL[i],
                })
                .collect(),
            rules: RulesOptions {
                expansions: self.expansions.clone(),
                farmers: self.options.farmers,
                two_tile_city: self.options.two_tile_city,
                meeples: self.options.meeples,
                map: self.map_rules.clone(),
            },
            tile_sets: self.tile_sets.clone(),
            bag: None,
            source,
            comment,
        }
    }
}

/// 8 hexadecimal digits that tell set-ups apart: the first 8 of the 64-bit FNV-1a hash of the
/// header line as written with an empty game id and no comment (players, colours, rules,
/// expansions, map, tile sets, the seed and each seat's strategy or player).
pub fn setup_digest(header: &Header) -> String {
    let setup = Header {
        game: String::new(),
        comment: None,
        ..header.clone()
    };
    let hash = carc_events::write_header(&setup)
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
    format!("{:08x}", hash >> 32)
}
