//! Words for what happened: the sentences the CLI and the viewer both show for events, the
//! step the game waits for, and seat names. One place, so both say the same thing.

use carc_events::{ArrowMeepleAction, ArrowSymbol, Event, Header};
use carc_rules::{Effects, Game, Note, Phase, Score, ScoreSource, ScoreTime};

/// A seat's player name from the header, or `seat N` if the header has none for it.
pub fn seat_name(header: &Header, seat: u8) -> String {
    header
        .players
        .get(seat as usize)
        .map_or_else(|| format!("seat {seat}"), |p| p.name.clone())
}

/// What the game waits for, in words.
pub fn describe_phase(header: &Header, game: &Game) -> String {
    let who = seat_name(header, game.current_player());
    match game.phase() {
        Phase::Start => match game.map() {
            Some(map) if game.starts_placed() > 0 => format!(
                "waiting for a drawn tile on another start square of {} ({} of {} placed)",
                map.title,
                game.starts_placed(),
                game.options().map.start_squares
            ),
            _ => "waiting for the start tile".into(),
        },
        Phase::Draw => format!("{who} draws next; {} tiles in the bag", game.bag_left()),
        Phase::Place { tile } => format!("{who} places tile {}", game.tiles().get(tile).id),
        Phase::ChooseArrow { at } => {
            format!("{who} chooses which arrow the tile at {at} activates (at most one per turn)")
        }
        Phase::Meeple { at } => match game.arrow_action() {
            Some(action) => format!(
                "{who} may place a meeple on the tile at {at}, or one through the {action} arrow"
            ),
            None => format!("{who} may place a meeple on the tile at {at}"),
        },
        Phase::Over => "the game is over".into(),
    }
}

/// A sentence for an event.
pub fn describe_event(header: &Header, e: &Event) -> String {
    let who = |p: &u8| seat_name(header, *p);
    let deg = |r: &carc_events::Rotation| r.degrees();
    match e {
        Event::StartPlaced { tile, at, rotation } => {
            format!(
                "start tile {} placed at ({},{}) rotated {}°",
                tile.as_str(),
                at.x,
                at.y,
                deg(rotation)
            )
        }
        Event::TileDrawn { player, tile } => format!("{} drew tile {}", who(player), tile.as_str()),
        Event::TilePlaced {
            player,
            tile,
            at,
            rotation,
        } => format!(
            "{} placed tile {} at ({},{}) rotated {}°",
            who(player),
            tile.as_str(),
            at.x,
            at.y,
            deg(rotation)
        ),
        Event::MeeplePlaced { player, on } => format!("{} placed a meeple on {on}", who(player)),
        Event::MeepleSkipped { player } => format!("{} placed no meeple", who(player)),
        Event::TileSetAside { player, tile } => {
            format!(
                "{} set tile {} aside (it fits nowhere)",
                who(player),
                tile.as_str()
            )
        }
        Event::ArrowChosen { player, at, symbol } => format!(
            "{} chose to activate the {} arrow of the tile at ({},{})",
            who(player),
            symbol_words(*symbol),
            at.x,
            at.y
        ),
        Event::ArrowMeeplePlaced {
            player,
            action,
            at,
            on,
        } => match action {
            ArrowMeepleAction::Companion => format!(
                "{} placed a meeple from supply beside their own on {on} at ({},{}) (companion arrow)",
                who(player),
                at.x,
                at.y
            ),
            ArrowMeepleAction::Portal => format!(
                "{} placed a meeple on {on} at ({},{}) through the portal arrow",
                who(player),
                at.x,
                at.y
            ),
        },
    }
}

fn symbol_words(s: ArrowSymbol) -> &'static str {
    match s {
        ArrowSymbol::Companion => "companion",
        ArrowSymbol::Portal => "portal",
        ArrowSymbol::ExtraTurn => "extra turn",
    }
}

/// Sentences for what an event's arrows did (20th Anniversary), naming the player: points for
/// an arrow that points at no tile, the arrow activated (or the choice to make), arrows spent,
/// meeples sent through a companion or portal, extra turns granted, refused and begun; and
/// what the map did (Carcassonne Maps): start squares, large cities met and connected, roads
/// and cities ending at the border, towns covered. Empty for everything else, so base-game
/// events show nothing extra.
pub fn describe_arrows(header: &Header, seat: Option<u8>, fx: &Effects) -> Vec<String> {
    let who = seat.map_or_else(|| "the player".to_string(), |s| seat_name(header, s));
    fx.notes
        .iter()
        .filter_map(|n| {
            Some(match n {
                Note::ArrowNoTile {
                    symbol,
                    side,
                    off_board,
                } => format!(
                    "{who}'s new {symbol} arrow points {} at no tile{}: {who} scores 2",
                    side.word(),
                    if *off_board { " (off the board)" } else { "" }
                ),
                Note::ArrowActivated { symbol, at, .. } => {
                    let what = match symbol {
                        carc_rules::ArrowSymbol::Companion => {
                            "a meeple may join one of their own anywhere"
                        }
                        carc_rules::ArrowSymbol::Portal => {
                            "a meeple may go to any unoccupied, incomplete feature"
                        }
                        carc_rules::ArrowSymbol::ExtraTurn => "one more turn",
                    };
                    format!("{who} activates the {symbol} arrow of the tile at {at}: {what}")
                }
                Note::ArrowsToChoose { count } => {
                    format!("{count} arrows could be activated: {who} must choose one")
                }
                Note::ArrowSpent { symbol, at } => {
                    format!("the {symbol} arrow of the tile at {at} is spent: its square is filled")
                }
                Note::CompanionPlaced { at, label } => {
                    format!("{who}'s companion meeple joins their meeple on {label} at {at}")
                }
                Note::PortalPlaced { at, label } => {
                    format!("{who}'s meeple goes through the portal to {label} at {at}")
                }
                Note::ExtraTurnGranted => format!("{who} will take an extra turn after this one"),
                Note::ExtraTurnDenied => format!(
                    "the extra-turn arrow gives {who} nothing: this is already an extra turn"
                ),
                Note::ExtraTurnBegins { seat } => {
                    format!("{} takes an extra turn now", seat_name(header, *seat))
                }
                Note::StartSquare { .. }
                | Note::LargeCityEdge { .. }
                | Note::LargeCityConnected { .. }
                | Note::Border { .. }
                | Note::TownCovered { .. }
                | Note::TownCost { .. } => format!("{n}  [{}]", n.rule()),
                Note::TownExtraTurn => format!("{who} will take an extra turn: a town was covered"),
                Note::TownExtraTurnDenied => format!(
                    "covering the town gives {who} no extra turn: this is already an extra turn"
                ),
                _ => return None,
            })
        })
        .collect()
}

/// A score's headline: what scored, when, the formula and who gains, with the rule id.
pub fn score_headline(header: &Header, s: &Score) -> String {
    let who = if s.winners.is_empty() {
        "no meeple, nobody scores".to_string()
    } else {
        let names: Vec<String> = s.winners.iter().map(|w| seat_name(header, *w)).collect();
        format!("{} {}", names.join(" and "), s.signed_points())
    };
    match s.source {
        ScoreSource::TownCost { town } => format!(
            "covering the town {town} at {}: {}; {who}  [{}]",
            s.feature.at, s.formula, s.rule
        ),
        ScoreSource::Arrow { symbol, side } => format!(
            "{symbol} arrow of the tile at {} pointing {}: {}; {who}  [{}]",
            s.feature.at,
            side.word(),
            s.formula,
            s.rule
        ),
        ScoreSource::Feature => {
            let when = match s.time {
                ScoreTime::Completed => "completed",
                ScoreTime::Final => "final scoring",
            };
            format!(
                "{} ({when}) {}: {}; {who}  [{}]",
                s.kind, s.feature, s.formula, s.rule
            )
        }
    }
}

/// The breakdown of a score, one line each: tiles, coats of arms (if any), completed cities
/// (fields), meeples per player, and the majority (when someone scores). The CLI's `explain`
/// and the viewer's score boxes both show these lines.
pub fn score_details(header: &Header, s: &carc_rules::Score) -> Vec<String> {
    let join = |items: Vec<String>, sep: &str| items.join(sep);
    if let ScoreSource::TownCost { town } = s.source {
        let winners: Vec<String> = s.winners.iter().map(|w| seat_name(header, *w)).collect();
        return vec![
            format!("town: {town} at {}", s.feature.at),
            format!("paid by: {} ({})", winners.join(" and "), s.signed_points()),
        ];
    }
    if let ScoreSource::Arrow { .. } = s.source {
        let winners: Vec<String> = s.winners.iter().map(|w| seat_name(header, *w)).collect();
        return vec![
            format!("arrow tile: {}", s.feature.at),
            format!("scored by: {} (+{})", winners.join(" and "), s.points),
        ];
    }
    let mut lines = vec![format!(
        "tiles: {}",
        join(s.tiles.iter().map(|p| p.to_string()).collect(), " ")
    )];
    if s.coats_of_arms > 0 {
        lines.push(format!("coats of arms: {}", s.coats_of_arms));
    }
    if !s.cities.is_empty() {
        lines.push(format!(
            "completed cities: {}",
            join(s.cities.iter().map(|c| c.to_string()).collect(), "; ")
        ));
    }
    let meeples: Vec<String> = s
        .meeples
        .iter()
        .map(|(p, n)| format!("{} {n}", seat_name(header, *p)))
        .collect();
    lines.push(format!(
        "meeples: {}",
        if meeples.is_empty() {
            "none".to_string()
        } else {
            meeples.join(", ")
        }
    ));
    if !s.winners.is_empty() {
        let winners: Vec<String> = s.winners.iter().map(|w| seat_name(header, *w)).collect();
        let each = if winners.len() > 1 { " each" } else { "" };
        lines.push(format!(
            "majority: {} (+{}{each})",
            winners.join(" and "),
            s.points
        ));
    }
    lines
}
