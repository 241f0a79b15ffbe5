//! `carc legal`: every legal move after event N, for whatever step of the turn is due.

use std::process::ExitCode;

use anyhow::Result;
use carc_rules::{
    AbbotMove, ArrowMeepleSpot, GiftAction, MeepleSpot, Phase, PlacedArrow, Placement, TileSet,
};
use serde_json::json;

use crate::at_args::{timeline_at, AtArgs};
use crate::json;

pub fn legal(args: AtArgs, loaded: &[TileSet]) -> Result<ExitCode> {
    let (timeline, n) = timeline_at(&args, loaded)?;
    let game = timeline.state_at(n)?;
    let header = &timeline.log.header;
    let who = carc_replay::describe::shown_name(header, game.current_player());
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
                .zip(game.tiles().ids())
                .map(|(t, id)| (t.id.clone(), game.bag_count(id)))
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
            let mut abbot: Vec<AbbotMove> = Vec::new();
            game.legal_abbot_moves(&mut abbot);
            let mut large: Vec<MeepleSpot> = Vec::new();
            game.legal_large_meeples(&mut large);
            let (mut builder, mut pig): (Vec<MeepleSpot>, Vec<MeepleSpot>) =
                (Vec::new(), Vec::new());
            game.legal_specials(carc_rules::Special::Builder, &mut builder);
            game.legal_specials(carc_rules::Special::Pig, &mut pig);
            if args.json {
                let s: Vec<_> = spots.iter().map(|s| s.label.code()).collect();
                let mut v = json!({"at": n, "step": "meeple", "seat": game.current_player(), "tile_at": json::pos(at),
                                   "meeple_on": s, "skip": true});
                // Only with an activated companion or portal, so base-game output is unchanged.
                if let Some(action) = game.arrow_action() {
                    v["arrow_action"] = json!(action.name());
                    v["arrow_meeple_on"] = remote
                        .iter()
                        .map(|r| json!({"at": json::pos(r.at), "on": r.label.code()}))
                        .collect();
                }
                // Only with the abbot, so other games' output is unchanged.
                if game.options().abbot {
                    v["abbot"] = abbot
                        .iter()
                        .map(|m| match m {
                            AbbotMove::Place {
                                at, label, portal, ..
                            } => {
                                let mut p =
                                    json!({"place": {"at": json::pos(*at), "on": label.code()}});
                                if *portal {
                                    p["place"]["portal"] = json!(true);
                                }
                                p
                            }
                            AbbotMove::TakeBack { at, .. } => {
                                json!({"take_back": {"at": json::pos(*at)}})
                            }
                        })
                        .collect();
                }
                // Only with Inns & Cathedrals, so other games' output is unchanged.
                if game.options().inns_cathedrals {
                    v["large_meeple_on"] = large.iter().map(|s| s.label.code()).collect();
                }
                // Only with Traders & Builders, so other games' output is unchanged.
                if game.options().traders_builders {
                    v["builder_on"] = builder.iter().map(|s| s.label.code()).collect();
                    v["pig_on"] = pig.iter().map(|s| s.label.code()).collect();
                }
                println!("{v}");
            } else {
                println!("after event {n}: {who} may place a meeple on the tile at {at}:");
                // In words, with the spelling `record meeple` takes where it differs (fields).
                for s in &spots {
                    if s.label.to_string() == s.label.code() {
                        println!("  {}", s.label);
                    } else {
                        println!("  {} ({})", s.label, s.label.code());
                    }
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
                for m in &abbot {
                    match m {
                        AbbotMove::Place {
                            at,
                            label,
                            portal: false,
                            ..
                        } => println!("  or the abbot on the {label} at {at}"),
                        AbbotMove::Place { at, label, .. } => {
                            println!(
                                "  or, through the portal arrow, the abbot on the {label} at {at}"
                            )
                        }
                        AbbotMove::TakeBack { at, label } => println!(
                            "  or take the abbot back from the {label} at {at} (it scores at once)"
                        ),
                    }
                }
                if !large.is_empty() {
                    let on: Vec<String> = large.iter().map(|s| s.label.to_string()).collect();
                    println!("  or the large meeple on: {}", on.join("; "));
                }
                for (figure, spots) in [("builder", &builder), ("pig", &pig)] {
                    if !spots.is_empty() {
                        let on: Vec<String> = spots.iter().map(|s| s.label.to_string()).collect();
                        println!("  or the {figure} on: {}", on.join("; "));
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
