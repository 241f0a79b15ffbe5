//! Tab completion in the record shell, from the current legal state: the verbs, the letters
//! still in the bag, the legal squares of the drawn tile, the rotations legal at a square and
//! the spots legal for a placement (`city N`, `none`, `abbot`), the abbot's squares and
//! features (`abbot X Y monastery [--portal]`), the arrows to choose (`arrow X Y`), the
//! targets of an activated companion or portal arrow (`arrow-meeple portal X Y city-N`) and a
//! map's start tiles (`start TILE X Y ROT`); with Inns & Cathedrals the large meeple's spots
//! (`large road N`); with The Gifts the cards the deck can deal, the
//! gifts that can be opened with their targets, and Take 2's two tiles. The legal moves come
//! from the rules (`Game::legal_placements`, `legal_meeples`, `legal_abbot_moves`,
//! `legal_arrow_choices`, `legal_arrow_meeples`; `carc_replay::gifts`), the ones `legal` and
//! the hints list; a placement's spots are those of a copy of the game it is applied to.

use carc_replay::gifts::{opening_words, openings, receivable_cards};
use carc_rules::{
    AbbotMove, Action, ArrowMeepleSpot, Effects, Game, MeepleSpot, Phase, PlacedArrow, Placement,
    Pos, Rotation,
};

/// The shell's own words, beside the verbs.
pub const SHELL_WORDS: [&str; 5] = ["help", "show", "legal", "quit", "exit"];

/// The candidates for the word under the cursor at the end of `before` (the line up to the
/// cursor): where that word starts, and the words or phrases (`1 0`, `city N`) it may become.
pub fn complete(game: Option<&Game>, verbs: &[String], before: &str) -> (usize, Vec<String>) {
    let current_len = before.len() - before.trim_end_matches(|c: char| !c.is_whitespace()).len();
    let start = before.len() - current_len;
    let current = &before[start..];
    let typed: Vec<&str> = before[..start].split_whitespace().collect();
    let mut found: Vec<String> = match typed.split_first() {
        None => verbs
            .iter()
            .map(String::as_str)
            .chain(SHELL_WORDS)
            .map(str::to_string)
            .collect(),
        Some((verb, rest)) => game.map_or_else(Vec::new, |g| arguments(g, verb, rest)),
    };
    found.retain(|c| c.starts_with(current));
    found.sort();
    found.dedup();
    (start, found)
}

/// What may follow `rest`, the arguments typed after `verb`, in the state `g`.
fn arguments(g: &Game, verb: &str, rest: &[&str]) -> Vec<String> {
    match (verb, g.phase()) {
        ("draw", Phase::Draw | Phase::DrawSecond { .. }) if rest.is_empty() => bag_letters(g),
        ("turn", Phase::Draw) => match rest.split_first() {
            None => bag_letters(g),
            Some((letter, rest)) => match drawn(g, letter) {
                Some(after) => placement_words(&after, rest),
                None => Vec::new(),
            },
        },
        ("place", Phase::Place { .. }) => placement_words(g, rest),
        ("meeple", Phase::Meeple { .. }) => spot_words(g, rest),
        ("gift", Phase::ReceiveGift { .. }) if rest.is_empty() => receivable_cards(g)
            .iter()
            .map(|c| c.name().into())
            .collect(),
        ("open", Phase::Place { .. }) => opening_phrases(g, rest),
        ("return", Phase::ReturnTile { first, second }) if rest.is_empty() => {
            vec![
                g.tiles().get(first).id.clone(),
                g.tiles().get(second).id.clone(),
            ]
        }
        ("abbot", Phase::Meeple { .. }) => abbot_words(g, rest),
        ("start", Phase::Start) if g.map().is_some() => match rest.split_first() {
            None => bag_letters(g),
            Some((letter, rest)) => {
                let legal = super::start::start_placements(g, letter);
                if rest.len() == 2 {
                    let at = typed_square(rest);
                    legal
                        .iter()
                        .filter(|p| Some(p.at) == at)
                        .map(|p| p.rotation.degrees().to_string())
                        .collect()
                } else {
                    let squares: Vec<Pos> = legal.iter().map(|p| p.at).collect();
                    square_words(&squares, rest)
                }
            }
        },
        ("arrow", Phase::ChooseArrow { .. }) => {
            let mut arrows: Vec<PlacedArrow> = Vec::new();
            g.legal_arrow_choices(&mut arrows);
            let squares: Vec<Pos> = arrows.iter().map(|a| a.at).collect();
            square_words(&squares, rest)
        }
        ("arrow-meeple", Phase::Meeple { .. }) => arrow_meeple_words(g, rest),
        ("undo", _) if rest.is_empty() => vec!["--turn".into()],
        _ => Vec::new(),
    }
}

/// The arguments of `open` (The Gifts) after `rest`: the legal openings' words in phrases,
/// the card, the square `X Y`, each spot (`road E`); a phrase is offered whole at its start,
/// else its words still to type.
fn opening_phrases(g: &Game, rest: &[&str]) -> Vec<String> {
    openings(g)
        .iter()
        .filter_map(|o| opening_words(&o.event))
        .filter_map(|words| {
            // The phrases of an opening: card, square, then each spot (`road E`, two words).
            let mut phrases: Vec<Vec<String>> = vec![vec![words[0].clone()]];
            if words.len() > 1 {
                phrases.push(words[1..3].to_vec());
            }
            phrases.extend(
                words
                    .iter()
                    .skip(3)
                    .map(|spot| spot.split_whitespace().map(String::from).collect()),
            );
            // The typed words must be this opening's first words, the card in either spelling.
            let flat: Vec<&String> = phrases.iter().flatten().collect();
            let typed_card = rest
                .first()
                .map(|c| c.to_ascii_lowercase().replace('-', "_"));
            let same = rest.len() <= flat.len()
                && rest.iter().zip(&flat).enumerate().all(|(i, (t, w))| {
                    if i == 0 {
                        typed_card.as_deref() == Some(w.as_str())
                    } else {
                        *t == w.as_str()
                    }
                });
            if !same {
                return None;
            }
            // The phrase the next word is in, and how much of it is typed.
            let mut start = 0;
            for phrase in &phrases {
                if rest.len() < start + phrase.len() {
                    return Some(phrase[rest.len() - start..].join(" "));
                }
                start += phrase.len();
            }
            None
        })
        .collect()
}

/// A square `X Y` of `squares` (whole, or its Y after X); empty once both are typed.
fn square_words(squares: &[Pos], rest: &[&str]) -> Vec<String> {
    let x = rest.first().and_then(|w| w.parse::<i32>().ok());
    match rest.len() {
        0 => squares.iter().map(|p| format!("{} {}", p.x, p.y)).collect(),
        1 => squares
            .iter()
            .filter(|p| Some(p.x) == x)
            .map(|p| p.y.to_string())
            .collect(),
        _ => Vec::new(),
    }
}

/// The square `X Y` typed as the first two of `rest`, if both are numbers.
fn typed_square(rest: &[&str]) -> Option<Pos> {
    match rest {
        [x, y, ..] => Some(Pos::new(x.parse().ok()?, y.parse().ok()?)),
        _ => None,
    }
}

/// `abbot X Y ON [--portal]`: the squares the abbot may go to, the feature there
/// (`monastery`, `garden`), and `--portal` where it goes through the portal arrow.
fn abbot_words(g: &Game, rest: &[&str]) -> Vec<String> {
    let mut moves: Vec<AbbotMove> = Vec::new();
    g.legal_abbot_moves(&mut moves);
    let places: Vec<(Pos, String, bool)> = moves
        .iter()
        .filter_map(|m| match m {
            AbbotMove::Place {
                at, label, portal, ..
            } => Some((*at, label.code(), *portal)),
            AbbotMove::TakeBack { .. } => None,
        })
        .collect();
    if rest.len() < 2 {
        let squares: Vec<Pos> = places.iter().map(|p| p.0).collect();
        return square_words(&squares, rest);
    }
    let at = typed_square(rest);
    let here = places.iter().filter(|p| Some(p.0) == at);
    match rest.len() {
        2 => here.map(|p| p.1.clone()).collect(),
        3 => here
            .filter(|p| p.1 == rest[2] && p.2)
            .map(|_| "--portal".to_string())
            .collect(),
        _ => Vec::new(),
    }
}

/// `arrow-meeple ACTION X Y ON`: the activated arrow's action (`companion`, `portal`), the
/// squares of its targets, and the features there, dashed (`city-N`) as one word.
fn arrow_meeple_words(g: &Game, rest: &[&str]) -> Vec<String> {
    let Some(action) = g.arrow_action() else {
        return Vec::new();
    };
    let mut spots: Vec<ArrowMeepleSpot> = Vec::new();
    g.legal_arrow_meeples(&mut spots);
    let Some((typed, rest)) = rest.split_first() else {
        return if spots.is_empty() {
            Vec::new()
        } else {
            vec![action.name().to_string()]
        };
    };
    if *typed != action.name() {
        return Vec::new();
    }
    if rest.len() < 2 {
        let squares: Vec<Pos> = spots.iter().map(|s| s.at).collect();
        return square_words(&squares, rest);
    }
    let at = typed_square(rest);
    match rest.len() {
        2 => spots
            .iter()
            .filter(|s| Some(s.at) == at)
            .map(|s| s.label.code().replacen(' ', "-", 1))
            .collect(),
        _ => Vec::new(),
    }
}

/// The letters of the tiles still in the bag.
pub fn bag_letters(g: &Game) -> Vec<String> {
    let tiles = g.tiles();
    tiles
        .ids()
        .filter(|&t| g.bag_count(t) > 0)
        .map(|t| tiles.get(t).id.clone())
        .collect()
}

/// A copy of `g` after the current player drew the tile of letter `letter` (either case).
fn drawn(g: &Game, letter: &str) -> Option<Game> {
    let tiles = g.tiles();
    let tile = tiles
        .ids()
        .find(|&t| g.bag_count(t) > 0 && tiles.get(t).id.eq_ignore_ascii_case(letter))?;
    let mut after = g.clone();
    after
        .apply(&Action::Draw { tile }, &mut Effects::default())
        .ok()?;
    Some(after)
}

/// The legal placements of the tile waiting in `g`.
pub fn placements(g: &Game) -> Vec<Placement> {
    let Phase::Place { tile } = g.phase() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    g.legal_placements(tile, &mut out);
    out
}

/// The arguments of a placement: the square `X Y` (whole, or its Y after X), the rotations
/// legal there, then the spots legal after it.
fn placement_words(g: &Game, rest: &[&str]) -> Vec<String> {
    let legal = placements(g);
    let number = |i: usize| rest.get(i).and_then(|w| w.parse::<i32>().ok());
    match rest.len() {
        0 => legal
            .iter()
            .map(|p| format!("{} {}", p.at.x, p.at.y))
            .collect(),
        1 => legal
            .iter()
            .filter(|p| Some(p.at.x) == number(0))
            .map(|p| p.at.y.to_string())
            .collect(),
        2 => legal
            .iter()
            .filter(|p| Some(p.at.x) == number(0) && Some(p.at.y) == number(1))
            .map(|p| p.rotation.degrees().to_string())
            .collect(),
        _ => {
            let (Some(x), Some(y)) = (number(0), number(1)) else {
                return Vec::new();
            };
            let rotation = super::parse::parse_rotation(rest[2])
                .ok()
                .and_then(|r| Rotation::from_degrees(u32::from(r.degrees())));
            let Some(rotation) = rotation else {
                return Vec::new();
            };
            match placed(g, Pos::new(x, y), rotation) {
                Some(after) => spot_words(&after, &rest[3..]),
                None => Vec::new(),
            }
        }
    }
}

/// A copy of `g` after the waiting tile is placed at `at` rotated `rotation`, if that is legal.
fn placed(g: &Game, at: Pos, rotation: Rotation) -> Option<Game> {
    let mut after = g.clone();
    after
        .apply(&Action::Place { at, rotation }, &mut Effects::default())
        .ok()?;
    Some(after)
}

/// The figure step's words in `g` (whose tile is just placed): each legal phrase (`city N`,
/// `large road N`, `none`, the abbot's words) whole, or what is left of it after the words
/// already typed (`N` after `city`, `road N` after `large`).
fn spot_words(g: &Game, rest: &[&str]) -> Vec<String> {
    spot_phrases(g)
        .iter()
        .filter_map(|phrase| {
            let words: Vec<&str> = phrase.split(' ').collect();
            (words.len() > rest.len() && words[..rest.len()] == *rest)
                .then(|| words[rest.len()..].join(" "))
        })
        .collect()
}

/// The whole phrases of the figure step legal in `g`: `city N`, …, the large meeple's `large
/// city N`, … (Inns & Cathedrals), `none`, `abbot`, `abbot-back`. Empty when no meeple step is
/// due.
pub fn spot_phrases(g: &Game) -> Vec<String> {
    if !matches!(g.phase(), Phase::Meeple { .. }) {
        return Vec::new();
    }
    let mut spots: Vec<MeepleSpot> = Vec::new();
    g.legal_meeples(&mut spots);
    let mut out: Vec<String> = spots.iter().map(|s| s.label.code()).collect();
    spots.clear();
    g.legal_large_meeples(&mut spots);
    out.extend(spots.iter().map(|s| format!("large {}", s.label.code())));
    out.push("none".into());
    let mut abbot: Vec<AbbotMove> = Vec::new();
    g.legal_abbot_moves(&mut abbot);
    for m in &abbot {
        match m {
            AbbotMove::Place { portal: false, .. } => out.push("abbot".into()),
            AbbotMove::TakeBack { .. } => out.push("abbot-back".into()),
            AbbotMove::Place { .. } => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use carc_rules::Setup;

    /// The start tile D at (0,0) (city N, road E-W) and, for the first player, `drawn`
    /// drawn.
    fn after_drawing(drawn: Option<&str>) -> Game {
        after_drawing_in(Setup::base(2), drawn)
    }

    /// [`after_drawing`] in a game set up by `setup`.
    fn after_drawing_in(setup: Setup, drawn: Option<&str>) -> Game {
        let mut g = Game::new(setup).unwrap();
        let id = |name: &str| g.tiles().find(name).unwrap();
        let (d, drawn) = (id("D"), drawn.map(id));
        let fx = &mut Effects::default();
        g.apply(
            &Action::PlaceStart {
                tile: d,
                at: Pos::new(0, 0),
                rotation: Rotation::default(),
            },
            fx,
        )
        .unwrap();
        if let Some(tile) = drawn {
            g.apply(&Action::Draw { tile }, fx).unwrap();
        }
        g
    }

    fn verbs() -> Vec<String> {
        [
            "draw",
            "place",
            "turn",
            "meeple",
            "undo",
            "abbot",
            "arrow",
            "arrow-meeple",
            "start",
        ]
        .map(String::from)
        .to_vec()
    }

    fn words(g: &Game, line: &str) -> Vec<String> {
        complete(Some(g), &verbs(), line).1
    }

    #[test]
    fn verbs_and_shell_words_complete_from_their_start() {
        let g = after_drawing(None);
        assert_eq!(complete(Some(&g), &verbs(), "dr"), (0, vec!["draw".into()]));
        assert_eq!(words(&g, "  q"), ["quit"]);
        assert_eq!(complete(Some(&g), &verbs(), "  q").0, 2);
        assert_eq!(words(&g, "un"), ["undo"]);
        assert_eq!(words(&g, "undo "), ["--turn"]);
    }

    #[test]
    fn draw_offers_the_letters_left_in_the_bag() {
        let g = after_drawing(None);
        // The base game's 24 letters A to X (D's other copies are still in the bag).
        let all: Vec<String> = ('A'..='X').map(String::from).collect();
        assert_eq!(words(&g, "draw "), all);
        assert_eq!(words(&g, "turn "), all);
        assert_eq!(words(&g, "draw V"), ["V"]);
        // Once a tile is drawn, nothing is left to draw.
        assert!(words(&after_drawing(Some("V")), "draw ").is_empty());
        // The bag's only X, drawn: no X left to offer.
        let mut g = after_drawing(Some("X"));
        let fx = &mut Effects::default();
        g.apply(
            &Action::Place {
                at: Pos::new(1, 0),
                rotation: Rotation::default(),
            },
            fx,
        )
        .unwrap();
        g.apply(&Action::SkipMeeple, fx).unwrap();
        assert!(!words(&g, "draw ").contains(&"X".to_string()));
        assert_eq!(words(&g, "draw ").len(), 23);
    }

    #[test]
    fn place_offers_the_legal_squares_then_rotations_then_spots() {
        // V (a road curve S-W) beside D (city N, road E-W): east and west its road meets
        // D's road; south it meets D's field; north D's city, which V has none of.
        let g = after_drawing(Some("V"));
        assert_eq!(words(&g, "place "), ["-1 0", "0 -1", "1 0"]);
        assert_eq!(words(&g, "place 1"), ["1 0"]);
        assert_eq!(words(&g, "place 1 "), ["0"]);
        assert_eq!(words(&g, "place 0 "), ["-1"]);
        // At (1,0) its west side must be road: the curve S-W as drawn, or turned 90° (W-N).
        assert_eq!(words(&g, "place 1 0 "), ["0", "90"]);
        assert!(words(&g, "place 0 1 ").is_empty());
        let spots = words(&g, "place 1 0 90 ");
        assert!(spots.contains(&"none".to_string()), "{spots:?}");
        assert!(spots.iter().any(|s| s.starts_with("road ")), "{spots:?}");
        assert!(spots.iter().any(|s| s.starts_with("field ")), "{spots:?}");
        assert!(!spots.iter().any(|s| s.contains("city")), "{spots:?}");
        // No abbot without The Abbot.
        assert!(!spots.iter().any(|s| s.starts_with("abbot")), "{spots:?}");
        // The second word of a spot after its first.
        let road: Vec<String> = spots
            .iter()
            .filter_map(|s| s.strip_prefix("road ").map(String::from))
            .collect();
        assert_eq!(words(&g, "place 1 0 90 road "), road);
        // An illegal rotation there has no spots.
        assert!(words(&g, "place 1 0 180 ").is_empty());
        // `turn` draws first, on a copy: the same squares for V.
        let fresh = after_drawing(None);
        assert_eq!(words(&fresh, "turn v "), ["-1 0", "0 -1", "1 0"]);
        assert_eq!(words(&fresh, "turn V 1 0 "), ["0", "90"]);
        assert_eq!(words(&fresh, "turn V 1 0 90 "), spots);
        // Out of turn: no squares to place before the draw.
        assert!(words(&fresh, "place ").is_empty());
    }

    #[test]
    fn the_large_meeple_is_offered_with_inns_and_cathedrals_only() {
        use carc_rules::{Options, TileSet};
        use std::sync::Arc;
        // Given V drawn beside the start tile D, with Inns & Cathedrals on
        let setup = Setup {
            players: 2,
            options: Options {
                inns_cathedrals: true,
                ..Options::default()
            },
            tiles: Arc::new(
                TileSet::combine(&[TileSet::base(), TileSet::inns_cathedrals()]).unwrap(),
            ),
            bag: None,
            map: None,
        };
        let g = after_drawing_in(setup, Some("V"));
        // When the spots after a placement are completed
        let spots = words(&g, "place 1 0 90 ");
        // Then the large meeple goes where a meeple may, each spot after `large`
        let meeple: Vec<&String> = spots.iter().filter(|s| s.starts_with("road ")).collect();
        assert!(!meeple.is_empty(), "{spots:?}");
        for spot in &meeple {
            assert!(spots.contains(&format!("large {spot}")), "{spots:?}");
        }
        let after_large = words(&g, "place 1 0 90 large ");
        assert!(
            after_large.iter().all(|s| !s.starts_with("large")),
            "{after_large:?}"
        );
        assert_eq!(
            after_large.len(),
            spots.iter().filter(|s| s.starts_with("large ")).count()
        );
        let roads: Vec<String> = meeple
            .iter()
            .map(|s| s.strip_prefix("road ").unwrap().to_string())
            .collect();
        assert_eq!(words(&g, "place 1 0 90 large road "), roads);
        // And without the expansion nothing is offered as `large`
        let base = after_drawing(Some("V"));
        assert!(!words(&base, "place 1 0 90 ")
            .iter()
            .any(|s| s.starts_with("large")));
    }

    /// The gifts sample (3 players, 20th Anniversary and The Gifts) replayed up to, not
    /// including, event `seq`.
    fn gifts_sample_before(seq: u64) -> Game {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../logs/sim-3p-anniversary-gifts-mixed.jsonl");
        let bytes = std::fs::read(path).unwrap();
        let mut log = carc_events::read_log_prefix(&bytes).unwrap().log;
        log.events.retain(|(_, e)| e.seq < seq);
        log.assertions.clear();
        let timeline = carc_replay::fold(log, &[]);
        assert!(timeline.error.is_none(), "{:?}", timeline.error);
        timeline.state_at(timeline.steps.len()).unwrap()
    }

    #[test]
    fn gifts_complete_the_cards_the_deck_deals_and_the_openings_with_their_targets() {
        let verbs = || {
            ["gift", "open", "return", "draw"]
                .map(String::from)
                .to_vec()
        };
        let words = |g: &Game, line: &str| complete(Some(g), &verbs(), line).1;
        // Event 10: Cleo's card is due; the full deck can deal every kind.
        let g = gifts_sample_before(10);
        assert_eq!(
            words(&g, "gift "),
            [
                "cash_out",
                "change_position",
                "road_sweeper",
                "synod",
                "take_2"
            ]
        );
        assert_eq!(words(&g, "gift s"), ["synod"]);
        assert!(words(&g, "open ").is_empty(), "no gift opens before a draw");
        // Event 52: Brandt, tile drawn, holds Synod and Take 2 (he opens Take 2).
        let g = gifts_sample_before(52);
        assert_eq!(words(&g, "open "), ["synod", "take_2"]);
        assert_eq!(words(&g, "open synod "), ["0 -1"]);
        assert_eq!(words(&g, "open Synod 0 "), ["-1"]);
        assert!(words(&g, "open take_2 ").is_empty());
        assert!(words(&g, "gift ").is_empty(), "no card is due");
        // Take 2: the second tile is drawn from the bag, then one of the two is returned.
        assert!(words(&gifts_sample_before(53), "draw ").contains(&"20H".to_string()));
        assert_eq!(words(&gifts_sample_before(54), "return "), ["20C", "20H"]);
        // Event 58: Cleo moves her farmer on (-3,0) onto the road: square, spot, new spot.
        let g = gifts_sample_before(58);
        assert!(words(&g, "open change_position ").contains(&"-3 0".to_string()));
        assert!(words(&g, "open change_position -3 0 ").contains(&"field Ne".to_string()));
        assert_eq!(words(&g, "open change_position -3 0 field "), ["Ne"]);
        assert!(words(&g, "open change_position -3 0 field Ne ").contains(&"road N".to_string()));
        assert_eq!(words(&g, "open change_position -3 0 field Ne road "), ["N"]);
        assert!(words(&g, "open change_position -3 0 field Ne road N ").is_empty());
    }

    /// The position before the first event of sample `log` that `pick` accepts, and it.
    fn before(log: &str, pick: impl Fn(&carc_events::Event) -> bool) -> (Game, carc_events::Event) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../logs")
            .join(log);
        let log = carc_events::read_log(&std::fs::read(path).unwrap()[..]).unwrap();
        let timeline = carc_replay::fold(log, &[]);
        assert!(timeline.error.is_none());
        let i = timeline
            .steps
            .iter()
            .position(|s| pick(&s.event))
            .expect("the sample has such an event");
        (
            timeline.state_at(i).unwrap(),
            timeline.steps[i].event.clone(),
        )
    }

    fn squares(words: Vec<String>) -> Vec<String> {
        let mut w = words;
        w.sort();
        w
    }

    #[test]
    fn arrow_offers_the_squares_of_the_arrows_to_choose_from() {
        use carc_events::Event;
        let (g, event) = before("sim-2p-anniversary-greedy.jsonl", |e| {
            matches!(e, Event::ArrowChosen { .. })
        });
        let Event::ArrowChosen { at, .. } = event else {
            unreachable!()
        };
        let mut arrows: Vec<PlacedArrow> = Vec::new();
        g.legal_arrow_choices(&mut arrows);
        assert!(arrows.len() >= 2, "a choice between arrows");
        let legal: Vec<String> = arrows
            .iter()
            .map(|a| format!("{} {}", a.at.x, a.at.y))
            .collect();
        assert_eq!(words(&g, "arrow "), squares(legal));
        assert!(words(&g, "arrow ").contains(&format!("{} {}", at.x, at.y)));
        assert!(words(&g, &format!("arrow {} ", at.x)).contains(&at.y.to_string()));
        assert!(words(&g, &format!("arrow {} {} ", at.x, at.y)).is_empty());
        // Out of turn: no arrow to choose at the meeple step of another position.
        assert!(words(&after_drawing(None), "arrow ").is_empty());
    }

    #[test]
    fn arrow_meeple_offers_the_action_then_the_targets_then_their_features() {
        use carc_events::Event;
        let (g, event) = before("sim-2p-anniversary-greedy.jsonl", |e| {
            matches!(e, Event::ArrowMeeplePlaced { .. })
        });
        let Event::ArrowMeeplePlaced { at, on, .. } = event else {
            unreachable!()
        };
        let action = g.arrow_action().unwrap().name();
        assert_eq!(words(&g, "arrow-meeple "), [action]);
        let mut spots: Vec<ArrowMeepleSpot> = Vec::new();
        g.legal_arrow_meeples(&mut spots);
        let targets = words(&g, &format!("arrow-meeple {action} "));
        let mut legal: Vec<String> = spots
            .iter()
            .map(|s| format!("{} {}", s.at.x, s.at.y))
            .collect();
        legal.dedup();
        assert_eq!(targets, {
            let mut l = squares(legal);
            l.dedup();
            l
        });
        assert!(
            targets.contains(&format!("{} {}", at.x, at.y)),
            "{targets:?}"
        );
        let features = words(&g, &format!("arrow-meeple {action} {} {} ", at.x, at.y));
        let dashed = on.to_string().replacen(' ', "-", 1);
        assert!(features.contains(&dashed), "{dashed} in {features:?}");
        assert!(features.iter().all(|f| !f.contains(' ')), "{features:?}");
        // The other action's word completes nothing.
        let other = if action == "portal" {
            "companion"
        } else {
            "portal"
        };
        assert!(words(&g, &format!("arrow-meeple {other} ")).is_empty());
    }

    #[test]
    fn abbot_offers_its_squares_then_the_feature_then_portal_where_it_goes_through_one() {
        use carc_events::Event;
        // Through the portal: any monastery or garden the portal reaches.
        let (g, event) = before("sim-3p-river-abbot-anniversary-gifts.jsonl", |e| {
            matches!(e, Event::AbbotPlaced { portal: true, .. })
        });
        let Event::AbbotPlaced { at, on, .. } = event else {
            unreachable!()
        };
        let square = format!("{} {}", at.x, at.y);
        assert!(
            words(&g, "abbot ").contains(&square),
            "{:?}",
            words(&g, "abbot ")
        );
        assert!(words(&g, &format!("abbot {} ", at.x)).contains(&at.y.to_string()));
        assert_eq!(words(&g, &format!("abbot {square} ")), [on.to_string()]);
        assert_eq!(words(&g, &format!("abbot {square} {on} ")), ["--portal"]);
        // On the tile just placed: no --portal.
        let (g, event) = before("sim-3p-abbot-mixed.jsonl", |e| {
            matches!(e, Event::AbbotPlaced { portal: false, .. })
        });
        let Event::AbbotPlaced { at, on, .. } = event else {
            unreachable!()
        };
        let square = format!("{} {}", at.x, at.y);
        assert_eq!(words(&g, "abbot "), std::slice::from_ref(&square));
        assert_eq!(words(&g, &format!("abbot {square} ")), [on.to_string()]);
        assert!(words(&g, &format!("abbot {square} {on} ")).is_empty());
    }

    #[test]
    fn start_offers_the_tiles_then_the_free_start_squares_then_their_rotations() {
        use carc_events::Event;
        // Germany: the start tile D at (-3,-4) turned 270, then J on another start square.
        let (g, event) = before("sim-2p-germany-greedy-vs-random.jsonl", |e| {
            matches!(e, Event::StartPlaced { .. })
        });
        let Event::StartPlaced { tile, at, rotation } = event else {
            unreachable!()
        };
        assert!(words(&g, "start ").contains(&tile.to_string()));
        let d = g.tiles().find(tile.as_str()).unwrap();
        let mut legal = Vec::new();
        g.legal_start_placements(d, &mut legal);
        let mut squares: Vec<String> = legal
            .iter()
            .map(|p| format!("{} {}", p.at.x, p.at.y))
            .collect();
        squares.sort();
        squares.dedup();
        assert!(squares.len() >= 2, "{squares:?}");
        assert_eq!(words(&g, "start d "), squares);
        let turns = words(&g, &format!("start D {} {} ", at.x, at.y));
        assert!(turns.contains(&rotation.degrees().to_string()), "{turns:?}");
        // A game without a map has no start verb to complete.
        assert!(words(&after_drawing(None), "start ").is_empty());
    }
}
