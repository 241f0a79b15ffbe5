//! Words for what happened: the sentences the CLI and the viewer both show for events, the
//! step the game waits for, and seat names. One place, so both say the same thing.

use carc_events::{Event, Header};
use carc_rules::{Game, Phase};

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
        Phase::Start => "waiting for the start tile".into(),
        Phase::Draw => format!("{who} draws next; {} tiles in the bag", game.bag_left()),
        Phase::Place { tile } => format!("{who} places tile {}", game.tiles().get(tile).id),
        Phase::Meeple { at } => format!("{who} may place a meeple on the tile at {at}"),
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
    }
}

/// The breakdown of a score, one line each: tiles, coats of arms (if any), completed cities
/// (fields), meeples per player, and the majority (when someone scores). The CLI's `explain`
/// and the viewer's score boxes both show these lines.
pub fn score_details(header: &Header, s: &carc_rules::Score) -> Vec<String> {
    let join = |items: Vec<String>, sep: &str| items.join(sep);
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
