//! What `record` says about the state a game is in: the hint for the next move (with the
//! command filled in), the step that is due, and after a refused move which move is the last
//! one stored.

use carc_events::Header;
use carc_replay::describe::{describe_step, shown_name as seat_name};
use carc_replay::gifts::{opening_words, openings, receivable_cards};
use carc_rules::{ArrowMeepleSpot, Game, MeepleSpot, Phase, PlacedArrow, Placement};

/// After a refused move: nothing was stored, so `undo` would take back the last move that was,
/// not the refused one. Saying which keeps a player from undoing a good move by mistake.
pub fn nothing_recorded(game: &str, timeline: &carc_replay::Timeline, recorded: usize) -> String {
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

/// At the place step with The Gifts: the gifts the player may open first, if any (empty
/// otherwise, so that a game without gifts reads as before).
fn gift_openings_hint(id: &str, at: u64, who: &str, game: &Game) -> String {
    let open = openings(game);
    let Some(first) = open.first().and_then(|o| opening_words(&o.event)) else {
        return String::new();
    };
    let mut cards: Vec<String> = open
        .iter()
        .filter_map(|o| opening_words(&o.event).map(|w| w[0].clone()))
        .collect();
    cards.dedup();
    format!(
        "; or first {who} may open a gift ({}, {}; `carc legal {id} --at {at}` lists them): \
         carc record open {id} CARD [X Y SPOT [TO]], e.g. carc record open {id} {}",
        cards.join(", "),
        if open.len() == 1 {
            "1 way".to_string()
        } else {
            format!("{} ways", open.len())
        },
        first.join(" ")
    )
}

/// What the next move can be: the legal moves hint printed after every recorded move.
/// `at` is the number of the last event recorded (for the `carc legal` it names).
pub fn hint(id: &str, at: u64, header: &Header, game: &Game) -> String {
    let who = seat_name(header, game.current_player());
    match game.phase() {
        Phase::Start if game.map().is_some() => super::start::start_hint(id, game),
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
            let mut text = if placements.is_empty() {
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
            };
            text.push_str(&gift_openings_hint(id, at, &who, game));
            text
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
                    } if *portal => format!(
                        "; or the abbot through the portal on the {label} at {at}: carc record abbot {id} {} {} {label} --portal",
                        at.x,
                        at.y,
                    ),
                    // On the tile just placed: the short word, no square to type again.
                    carc_rules::AbbotMove::Place { at, label, .. } => format!(
                        "; or the abbot on the {label} at {at}: carc record meeple {id} abbot"
                    ),
                    carc_rules::AbbotMove::TakeBack { at, label } => format!(
                        "; or take the abbot back from the {label} at {at}: carc record meeple {id} abbot-back"
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
        // The Gifts: the card is chance, like a draw; the hint names the kinds the deck can
        // deal.
        Phase::ReceiveGift { .. } => {
            let cards: Vec<&str> = receivable_cards(game).iter().map(|c| c.name()).collect();
            format!(
                "next: the placement earns {who} a gift card (The Gifts), before the meeple step; \
                 the deck can deal {}: carc record gift {id} CARD, e.g. carc record gift {id} {}",
                cards.join(", "),
                cards.first().copied().unwrap_or("synod")
            )
        }
        Phase::DrawSecond { .. } => {
            format!("next: {who} draws a second tile (Take 2): carc record draw {id} TILE")
        }
        Phase::ReturnTile { first, second } => format!(
            "next: {who} puts one of the two Take 2 tiles, {} or {}, back into the bag: \
             carc record return {id} TILE",
            game.tiles().get(first).id,
            game.tiles().get(second).id
        ),
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
