//! Words for what happened: the sentences the CLI and the viewer both show for events, the
//! step the game waits for, and seat names. One place, so both say the same thing.

use carc_events::{ArrowMeepleAction, ArrowSymbol, Event, Figure, GiftCard, Header};
use carc_rules::{Effects, Game, Note, Phase, RuleViolation, Score, ScoreSource, ScoreTime};

/// A seat's player name from the header, exactly as the log has it (for JSON and other
/// data), or `seat N` if the header has none for it. Sentences use [`shown_name`].
pub fn seat_name(header: &Header, seat: u8) -> String {
    header
        .players
        .get(seat as usize)
        .map_or_else(|| format!("seat {seat}"), |p| p.name.clone())
}

/// A seat's player name as text shows it: [`seat_name`] with its control characters made
/// [`visible`]. Every sentence of this module names players this way, so a name from a shared
/// log can neither drive a terminal nor break a line.
pub fn shown_name(header: &Header, seat: u8) -> String {
    visible(&seat_name(header, seat)).into_owned()
}

/// `text` with every control character (C0, DEL and C1, line breaks and tabs included) and
/// every hidden format character (bidi controls, U+2028/U+2029:
/// `carc_events::text::is_hidden_format`) written as Rust writes a char escape, `\u{1b}`: names, ids, comments and annotations from a
/// log are one line of inert text wherever they are shown (a terminal, a label). Text without
/// control characters comes back borrowed.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    use carc_events::text::is_hazard;
    if !text.chars().any(is_hazard) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hazard(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `text` with only its hidden format characters (bidi controls, U+2028/U+2029) written as
/// [`visible`] writes them, line breaks and other control characters left as they are: for
/// surfaces that keep a comment's lines, or escape control characters in their own way.
pub fn visible_format(text: &str) -> std::borrow::Cow<'_, str> {
    use carc_events::text::is_hidden_format;
    if !text.chars().any(is_hidden_format) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hidden_format(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A note of the ruling trace in words, naming the players ([`shown_name`]).
pub fn note_text(header: &Header, n: &Note) -> String {
    n.text_with(&|seat| shown_name(header, seat))
}

/// Why an action was refused, in words, naming the players ([`shown_name`]).
pub fn violation_text(header: &Header, v: &RuleViolation) -> String {
    v.message_with(&|seat| shown_name(header, seat))
}

/// A replay error's message (without its line), naming the players ([`shown_name`]).
pub fn error_message(header: &Header, e: &crate::ReplayError) -> String {
    e.message_with(&|seat| shown_name(header, seat))
}

/// What the game waits for, in words.
pub fn describe_phase(header: &Header, game: &Game) -> String {
    let who = shown_name(header, game.current_player());
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
        Phase::ReceiveGift { at } => {
            format!("{who} receives a gift for the tile at {at} (the card is drawn next)")
        }
        Phase::DrawSecond { .. } => format!("{who} draws a second tile (Take 2)"),
        Phase::ReturnTile { first, second } => format!(
            "{who} returns tile {} or tile {} to the bag (Take 2) and places the other",
            game.tiles().get(first).id,
            game.tiles().get(second).id
        ),
        // Only `game_ended` leaves tiles in the bag: say so, the scores are not a full game's.
        Phase::Over if game.bag_left() > 0 => format!(
            "the game is over: ended early with {} tile{} still in the bag",
            game.bag_left(),
            if game.bag_left() == 1 { "" } else { "s" }
        ),
        Phase::Over => "the game is over".into(),
    }
}

/// Whose point of view a description takes (The Gifts hides the cards in other hands).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum View {
    /// Everything the log records, every card face up.
    #[default]
    Full,
    /// What this seat sees: its own cards face up, everyone else's face down until opened.
    Seat(u8),
}

impl View {
    /// Whether `seat`'s cards in hand are shown face up.
    pub fn sees_hand_of(self, seat: u8) -> bool {
        match self {
            View::Full => true,
            View::Seat(me) => me == seat,
        }
    }
}

/// A sentence for a replayed step, from a point of view: its event as [`describe_event_as`]
/// says it, with the feature a meeple went on named as the rules name it everywhere else
/// (its first side or port: `city S`), whichever of its names the log used (`city W` of the
/// same city). So the placement, the ruling trace, the score and the meeple going home all
/// call one feature by one name.
pub fn describe_step_as(header: &Header, step: &crate::Step, view: View) -> String {
    describe_event_as(header, &event_with_rules_names(step), view)
}

/// [`describe_step_as`] with every card face up.
pub fn describe_step(header: &Header, step: &crate::Step) -> String {
    describe_step_as(header, step, View::Full)
}

/// The step's event with its meeple target replaced by the rules' name of the feature, taken
/// from the ruling trace (unchanged when the trace names none), for anyone who words events
/// their own way (the viewer's move list).
pub fn event_with_rules_names(step: &crate::Step) -> Event {
    let mut event = step.event.clone();
    let named = step.effects.notes.iter().find_map(|n| match *n {
        Note::MeepleOnFreeFeature { label } => Some(label),
        Note::CompanionPlaced { label, .. } | Note::PortalPlaced { label, .. } => Some(label),
        _ => None,
    });
    let Some(target) = named.and_then(|l| l.code().parse::<carc_events::MeepleTarget>().ok())
    else {
        return event;
    };
    match &mut event {
        Event::MeeplePlaced { on, .. } | Event::ArrowMeeplePlaced { on, .. } => *on = target,
        _ => {}
    }
    event
}

/// A card's printed name.
pub fn card_words(c: GiftCard) -> &'static str {
    carc_events::rules_card(c).word()
}

/// A sentence for an event from a point of view: a gift another seat receives is face down.
pub fn describe_event_as(header: &Header, e: &Event, view: View) -> String {
    match e {
        Event::GiftReceived { player, .. } if !view.sees_hand_of(*player) => format!(
            "{} received a gift card (face down)",
            shown_name(header, *player)
        ),
        _ => describe_event(header, e),
    }
}

/// Each seat's gifts in hand as words, from a point of view: `Synod, Take 2` face up or
/// `2 cards, face down`; `none` for an empty hand. Empty without the expansion.
pub fn describe_hands(header: &Header, game: &Game, view: View) -> Vec<String> {
    if !game.options().gifts {
        return Vec::new();
    }
    (0..game.players())
        .map(|seat| {
            let hand = game.hand(seat);
            let n = game.hand_size(seat);
            let what = if n == 0 {
                "none".to_string()
            } else if view.sees_hand_of(seat) {
                let cards: Vec<String> = carc_rules::GiftCard::ALL
                    .iter()
                    .filter(|c| hand[c.index()] > 0)
                    .map(|c| match hand[c.index()] {
                        1 => c.word().to_string(),
                        k => format!("{k}× {}", c.word()),
                    })
                    .collect();
                cards.join(", ")
            } else {
                format!("{n} card{}, face down", if n == 1 { "" } else { "s" })
            };
            format!("{}: {what}", shown_name(header, seat))
        })
        .collect()
}

/// A sentence for an event.
pub fn describe_event(header: &Header, e: &Event) -> String {
    let who = |p: &u8| shown_name(header, *p);
    // A meeple target in words for people (`field, north-east`), not the log's `field En`.
    let words = |on: &carc_events::MeepleTarget| carc_events::label_of(on).to_string();
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
        Event::MeeplePlaced {
            player,
            on,
            figure: Figure::Meeple,
        } => {
            format!("{} placed a meeple on {}", who(player), words(on))
        }
        Event::MeeplePlaced {
            player,
            on,
            figure: Figure::Large,
        } => {
            format!("{} placed the large meeple on {}", who(player), words(on))
        }
        Event::MeeplePlaced {
            player,
            on,
            figure: Figure::Builder,
        } => {
            format!("{} placed the builder on {}", who(player), words(on))
        }
        Event::MeeplePlaced {
            player,
            on,
            figure: Figure::Pig,
        } => {
            format!("{} placed the pig on {}", who(player), words(on))
        }
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
                "{} placed a meeple from supply beside their own on {} at ({},{}) (companion arrow)",
                who(player),
                words(on),
                at.x,
                at.y
            ),
            ArrowMeepleAction::Portal => format!(
                "{} placed a meeple on {} at ({},{}) through the portal arrow",
                who(player),
                words(on),
                at.x,
                at.y
            ),
        },
        Event::GiftReceived { player, card } => {
            format!("{} received a gift: {}", who(player), card_words(*card))
        }
        Event::GiftOpened {
            player,
            card,
            at,
            on,
            to,
        } => {
            let place = |on: &Option<carc_events::MeepleTarget>| {
                match (at, on) {
                    (Some(at), Some(on)) => format!("{} at ({},{})", words(on), at.x, at.y),
                    (Some(at), None) => format!("({},{})", at.x, at.y),
                    _ => "?".to_string(),
                }
            };
            let what = match card {
                GiftCard::Synod => format!(
                    "a meeple from supply joins the monastery at {}",
                    at.map_or("?".into(), |a| format!("({},{})", a.x, a.y))
                ),
                GiftCard::RoadSweeper => format!(
                    "the road through {} scores now and its meeples return",
                    place(on)
                ),
                GiftCard::ChangePosition => format!(
                    "their meeple on {} moves to {} of the same tile",
                    place(on),
                    to.as_ref().map_or("?".into(), words)
                ),
                GiftCard::CashOut => format!(
                    "their meeple on {} comes back for 2 points per meeple on its feature",
                    place(on)
                ),
                GiftCard::TakeTwo => "they draw a second tile and keep one of the two".into(),
            };
            format!("{} opened a gift, {}: {what}", who(player), card_words(*card))
        }
        Event::TileReturned { player, tile } => format!(
            "{} returned tile {} to the bag (Take 2)",
            who(player),
            tile.as_str()
        ),
        Event::GameEnded => {
            "the players ended the game before the bag was empty; final scoring follows".into()
        }
        Event::AbbotPlaced {
            player,
            at,
            on,
            portal,
        } => format!(
            "{} placed their abbot on the {on} at ({},{}){}",
            who(player),
            at.x,
            at.y,
            if *portal {
                " through the portal arrow"
            } else {
                ""
            }
        ),
        Event::AbbotTakenBack { player, at } => format!(
            "{} took their abbot back from ({},{}) instead of placing a meeple",
            who(player),
            at.x,
            at.y
        ),
    }
}

/// Sentences for what an event's gifts did (The Gifts), naming the player: a gift earned (or
/// none left), the reshuffle, the card taken, the card opened and its effect, Take 2's second
/// tile, unopened gifts at the end. Empty for everything else. The card a player receives is
/// named by the event (see [`describe_event_as`]), never here, so these lines suit any view.
pub fn describe_gifts(header: &Header, seat: Option<u8>, fx: &Effects) -> Vec<String> {
    let who = seat.map_or_else(|| "the player".to_string(), |s| shown_name(header, s));
    fx.notes
        .iter()
        .filter_map(|n| {
            Some(match n {
                Note::GiftEarned { kind, owner } => format!(
                    "{who}'s tile extends {}'s {kind}: {who} receives a gift",
                    shown_name(header, *owner)
                ),
                Note::GiftNoneLeft { kind, owner } => format!(
                    "{who}'s tile extends {}'s {kind}, but every gift card is in the players' hands: no gift",
                    shown_name(header, *owner)
                ),
                Note::GiftDeckReshuffled { cards } => format!(
                    "the gift deck ran out: the discard pile ({cards} cards) is shuffled into a new deck"
                ),
                Note::GiftReceived { left } => {
                    format!("{who} takes the top gift card; {left} left in the deck")
                }
                Note::GiftOpened { card } => format!("{who} opens {card}"),
                Note::SynodPlaced { at } => {
                    format!("Synod: {who}'s meeple joins the monastery at {at}")
                }
                Note::RoadSwept { at, label } => format!(
                    "Road Sweeper: the road through {label} at {at} scores now; every meeple on it returns"
                ),
                Note::PositionChanged { at, from, to } => format!(
                    "Change Position: {who}'s meeple at {at} goes from {from} to {to}"
                ),
                Note::CashedOut {
                    at,
                    label,
                    meeples,
                } => format!(
                    "Cash Out: {who} takes back the meeple on {label} at {at}: {meeples} meeple{} × 2 = {}",
                    if *meeples == 1 { "" } else { "s" },
                    2 * u32::from(*meeples)
                ),
                Note::TakeTwoDraw => format!("Take 2: {who} draws a second tile"),
                Note::TakeTwoNoTile => {
                    "Take 2: the bag is empty, no second tile; the card is used up".to_string()
                }
                Note::TileReturned { left } => {
                    format!("Take 2: the other tile goes back into the bag ({left} in the bag)")
                }
                Note::GiftsUnopened { seat, cards } => format!(
                    "{} holds {cards} unopened gift{}: +{}",
                    shown_name(header, *seat),
                    if *cards == 1 { "" } else { "s" },
                    2 * u32::from(*cards)
                ),
                _ => return None,
            })
        })
        .collect()
}

/// Sentences for what an event did in Traders & Builders, naming the player: goods taken
/// from a completed city, the builder's second turn granted, refused and begun. Empty for
/// everything else, so other games' events show nothing extra.
pub fn describe_traders(header: &Header, seat: Option<u8>, fx: &Effects) -> Vec<String> {
    let who = seat.map_or_else(|| "the player".to_string(), |s| shown_name(header, s));
    fx.notes
        .iter()
        .filter_map(|n| {
            Some(match n {
                Note::GoodsTaken { at, goods } => format!(
                    "{who} completed the city at {at} and takes {}  [{}]",
                    carc_rules::goods_words(goods),
                    n.rule()
                ),
                Note::DoubleTurn { at } => format!(
                    "the tile extends the feature of {who}'s builder at {at}: {who} takes a second turn  [{}]",
                    n.rule()
                ),
                Note::DoubleTurnDenied { at } => format!(
                    "the tile extends the feature of {who}'s builder at {at}, but this is already a second turn: no third  [{}]",
                    n.rule()
                ),
                Note::SecondTurnBegins { seat } => format!(
                    "{} takes the builder's second turn now",
                    shown_name(header, *seat)
                ),
                _ => return None,
            })
        })
        .collect()
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
    let who = seat.map_or_else(|| "the player".to_string(), |s| shown_name(header, s));
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
                    format!("{} takes an extra turn now", shown_name(header, *seat))
                }
                Note::StartSquare { .. }
                | Note::LargeCityEdge { .. }
                | Note::LargeCityConnected { .. }
                | Note::Border { .. }
                | Note::TownCovered { .. }
                | Note::TownCost { .. } => format!("{}  [{}]", note_text(header, n), n.rule()),
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
        let names: Vec<String> = s.winners.iter().map(|w| shown_name(header, *w)).collect();
        format!("{} {}", names.join(" and "), s.signed_points())
    };
    match s.source {
        ScoreSource::TownCost { town } => format!(
            "covering the town {town} at {}: {}; {who}  [{}]",
            s.feature.at, s.formula, s.rule
        ),
        ScoreSource::Gift { card } => format!(
            "{card} on the {} {}: {}; {who}  [{}]",
            s.kind, s.feature, s.formula, s.rule
        ),
        ScoreSource::UnopenedGifts { .. } => {
            format!(
                "unopened gifts (final scoring): {}; {who}  [{}]",
                s.formula, s.rule
            )
        }
        ScoreSource::Arrow { symbol, side } => format!(
            "{symbol} arrow of the tile at {} pointing {}: {}; {who}  [{}]",
            s.feature.at,
            side.word(),
            s.formula,
            s.rule
        ),
        ScoreSource::AbbotTakenBack => format!(
            "abbot taken back from the {} at {}: {}; {who}  [{}]",
            s.kind, s.feature.at, s.formula, s.rule
        ),
        ScoreSource::Goods { good } => format!(
            "goods majority, {good} (final scoring): {}; {who}  [{}]",
            s.formula, s.rule
        ),
        ScoreSource::Pig => format!(
            "pig on the {} (final scoring): {}; {who}  [{}]",
            s.feature, s.formula, s.rule
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
        let winners: Vec<String> = s.winners.iter().map(|w| shown_name(header, *w)).collect();
        return vec![
            format!("town: {town} at {}", s.feature.at),
            format!("paid by: {} ({})", winners.join(" and "), s.signed_points()),
        ];
    }
    if let ScoreSource::Arrow { .. } = s.source {
        let winners: Vec<String> = s.winners.iter().map(|w| shown_name(header, *w)).collect();
        return vec![
            format!("arrow tile: {}", s.feature.at),
            format!("scored by: {} (+{})", winners.join(" and "), s.points),
        ];
    }
    if let ScoreSource::AbbotTakenBack = s.source {
        // The abbot alone stands there and its owner scores: no meeples, no majority.
        let owner: Vec<String> = s.winners.iter().map(|w| shown_name(header, *w)).collect();
        return vec![
            format!(
                "tiles: {}",
                join(s.tiles.iter().map(|p| p.to_string()).collect(), " ")
            ),
            format!("abbot: {}", owner.join(" and ")),
            format!("scored by: {} (+{})", owner.join(" and "), s.points),
        ];
    }
    if let ScoreSource::Goods { good } = s.source {
        let held: Vec<String> = s
            .meeples
            .iter()
            .map(|(p, n)| format!("{} {n}", shown_name(header, *p)))
            .collect();
        let winners: Vec<String> = s.winners.iter().map(|w| shown_name(header, *w)).collect();
        let each = if winners.len() > 1 { " each" } else { "" };
        return vec![
            format!("{good} tokens: {}", held.join(", ")),
            format!("majority: {} (+{}{each})", winners.join(" and "), s.points),
        ];
    }
    if let ScoreSource::Pig = s.source {
        let owners: Vec<String> = s.winners.iter().map(|w| shown_name(header, *w)).collect();
        return vec![
            format!(
                "completed cities: {}",
                join(s.cities.iter().map(|c| c.to_string()).collect(), "; ")
            ),
            format!(
                "pig of the field's winner: {} (+{})",
                owners.join(" and "),
                s.points
            ),
        ];
    }
    if let ScoreSource::UnopenedGifts { cards } = s.source {
        let winners: Vec<String> = s.winners.iter().map(|w| shown_name(header, *w)).collect();
        return vec![
            format!("unopened gifts: {cards}"),
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
        .map(|(p, n)| format!("{} {n}", shown_name(header, *p)))
        .collect();
    // Inns & Cathedrals: the counts are majority strengths, the large meeple's 2.
    let heading = if header
        .rules
        .expansions
        .iter()
        .any(|e| e == "inns_cathedrals")
    {
        "meeples (a large meeple counts 2)"
    } else {
        "meeples"
    };
    lines.push(format!(
        "{heading}: {}",
        if meeples.is_empty() {
            "none".to_string()
        } else {
            meeples.join(", ")
        }
    ));
    if !s.winners.is_empty() {
        let winners: Vec<String> = s.winners.iter().map(|w| shown_name(header, *w)).collect();
        let each = if winners.len() > 1 { " each" } else { "" };
        lines.push(format!(
            "majority: {} (+{}{each})",
            winners.join(" and "),
            s.points
        ));
    }
    lines
}

/// One row of the final scoring: a player, what scored for them (a feature, or their
/// unopened gifts) and the points it gave them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinalRow {
    pub seat: u8,
    /// `road E at (0,0)`, `field, north-east at (2,3)`, `unopened gifts`, `the most wine`,
    /// `the pig on field, north-west at (1,1)`.
    pub what: String,
    pub points: u32,
}

/// The final scoring among `scores` as rows per player and feature: seat by seat, each
/// final-scoring score the seat won, in the order it was scored. A feature shared by several
/// players gives each of them a row; one that nobody wins gives none. Reports and the viewer
/// list these rows apart from the last move, so the last move's points are its own and every
/// player's end points are on a row.
pub fn final_scoring_rows<'a>(scores: impl IntoIterator<Item = &'a Score>) -> Vec<FinalRow> {
    let finals: Vec<&Score> = scores
        .into_iter()
        .filter(|s| s.time == ScoreTime::Final)
        .collect();
    let mut seats: Vec<u8> = finals
        .iter()
        .flat_map(|s| s.winners.iter().copied())
        .collect();
    seats.sort_unstable();
    seats.dedup();
    let mut rows = Vec::new();
    for seat in seats {
        for s in finals.iter().filter(|s| s.winners.contains(&seat)) {
            let what = match s.source {
                ScoreSource::UnopenedGifts { .. } => "unopened gifts".to_string(),
                ScoreSource::Goods { good } => format!("the most {good}"),
                ScoreSource::Pig => format!("the pig on {}", s.feature),
                _ => s.feature.to_string(),
            };
            rows.push(FinalRow {
                seat,
                what,
                points: s.points,
            });
        }
    }
    rows
}

/// The points of the final scoring among `scores`, per seat (`players` long).
pub fn final_scoring_points(scores: &[Score], players: usize) -> Vec<u32> {
    let mut points = vec![0; players];
    for row in final_scoring_rows(scores) {
        if let Some(p) = points.get_mut(row.seat as usize) {
            *p += row.points;
        }
    }
    points
}
