//! Exact endings (`solve_ending`), checked against a plain expectimax written here over the
//! rules' own move list and actions (no pruning, no shared code with the solver), on the last
//! turns of simulated games.

mod common;

use carc_engine::{
    analyse, compare, solve_ending, Budget, EngineError, ExactMove, SearchOptions, MAX_EXACT_TILES,
};
use carc_rules::{Action, Effects, Game, Move, Phase, Setup};
use carc_sim::{play, Strategy, TurnMove};

use common::{decisions, every_kind_of_game};

/// Each seat's (chance to win, margin) of `game`, every seat playing for itself: the plain
/// definition the solver must agree with.
fn brute_force(game: &Game) -> Vec<(f64, f64)> {
    let players = usize::from(game.players());
    let mut fx = Effects::default();
    match game.phase() {
        Phase::Over => {
            let s = game.scores();
            let margins: Vec<f64> = (0..players)
                .map(|p| {
                    let best_other = (0..players)
                        .filter(|&q| q != p)
                        .map(|q| s[q])
                        .max()
                        .unwrap();
                    f64::from(s[p]) - f64::from(best_other)
                })
                .collect();
            let winners = margins.iter().filter(|&&m| m >= 0.0).count() as f64;
            margins
                .iter()
                .map(|&m| (if m >= 0.0 { 1.0 / winners } else { 0.0 }, m))
                .collect()
        }
        Phase::Draw => {
            let left = f64::from(game.bag_left());
            let mut sum = vec![(0.0, 0.0); players];
            for id in game.tiles().ids() {
                let n = game.bag_count(id);
                if n == 0 {
                    continue;
                }
                let mut drawn = game.clone();
                drawn.apply(&Action::Draw { tile: id }, &mut fx).unwrap();
                for (s, v) in sum.iter_mut().zip(brute_force(&drawn)) {
                    s.0 += f64::from(n) / left * v.0;
                    s.1 += f64::from(n) / left * v.1;
                }
            }
            sum
        }
        Phase::Place { .. } => {
            let mut moves: Vec<Move> = Vec::new();
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                let mut aside = game.clone();
                aside.apply(&Action::SetAside, &mut fx).unwrap();
                return brute_force(&aside);
            }
            let me = usize::from(game.current_player());
            moves
                .iter()
                .map(|m| brute_force(&after(game, m)))
                .reduce(|best, v| if better(v[me], best[me]) { v } else { best })
                .unwrap()
        }
        phase => panic!("no such phase in a base game's ending: {phase:?}"),
    }
}

fn better(a: (f64, f64), b: (f64, f64)) -> bool {
    if (a.0 - b.0).abs() > 1e-9 {
        a.0 > b.0
    } else {
        a.1 > b.1 + 1e-9
    }
}

/// `game` after the current seat plays `m`.
fn after(game: &Game, m: &Move) -> Game {
    let mut g = game.clone();
    let mut fx = Effects::default();
    for a in m.actions() {
        g.apply(&a, &mut fx).unwrap();
    }
    g
}

/// The first position of each simulated game (greedy seats, seeds from `seed`) with `left`
/// tiles in the bag and a drawn tile that fits.
fn endings(players: u8, seed: u64, games: u64, left: u32) -> Vec<Game> {
    (seed..seed + games)
        .filter_map(|s| {
            decisions(&Setup::base(players), s, &[Strategy::Greedy])
                .into_iter()
                .find(|g| g.bag_left() == left)
        })
        .collect()
}

/// Checks every move of `game`'s solution against the brute force.
fn agrees(game: &Game) -> usize {
    let ending = solve_ending(game, MAX_EXACT_TILES, u64::MAX)
        .unwrap()
        .expect("solved within an unlimited budget");
    let me = usize::from(game.current_player());
    assert_eq!(ending.seat, game.current_player());
    let mut moves: Vec<Move> = Vec::new();
    game.legal_moves(&mut moves);
    assert_eq!(
        ending.moves.len(),
        moves.len(),
        "every legal move is valued"
    );
    for m in &moves {
        let (win, margin) = brute_force(&after(game, m))[me];
        let solved: &ExactMove = ending
            .moves
            .iter()
            .find(|e| e.mv == TurnMove::from(*m))
            .expect("the move is in the solution");
        assert!(
            (solved.win - win).abs() < 1e-9 && (solved.margin - margin).abs() < 1e-6,
            "turn {}, {m:?}: solved {} / {:+}, brute force {win} / {margin:+}",
            game.turn(),
            solved.win,
            solved.margin
        );
    }
    // Best first
    for pair in ending.moves.windows(2) {
        assert!(!better(
            (pair[1].win, pair[1].margin),
            (pair[0].win, pair[0].margin)
        ));
    }
    moves.len()
}

#[test]
fn the_last_tile_is_valued_by_the_final_scores_each_move_ends_the_game_with() {
    // Given the last tile of 2- and 3-player base games
    let mut checked = 0;
    for (players, seed) in [(2, 900), (3, 920)] {
        for game in endings(players, seed, 4, 0) {
            // When it is solved, then each move's chance and margin are those of the game it
            // ends (a win, a share of a tie, or a loss), best first
            checked += agrees(&game);
        }
    }
    assert!(checked >= 40, "{checked} moves checked");
}

#[test]
fn with_a_tile_or_two_left_every_seat_plays_its_best_reply_to_every_draw() {
    // Given 2-player base games with one and two tiles left in the bag (the two-player
    // solver prunes; the brute force does not), and 3-player games with one
    let mut checked = 0;
    for game in endings(2, 940, 3, 1)
        .into_iter()
        .chain(endings(2, 950, 1, 2))
        .chain(endings(3, 960, 2, 1))
    {
        // When it is solved, then every move's value is the expectimax over the draws and
        // every later seat's best reply
        checked += agrees(&game);
    }
    assert!(checked >= 40, "{checked} moves checked");
}

#[test]
fn every_kind_of_game_without_hidden_cards_is_solved_exactly() {
    // Given the last two tiles of a game of every kind we play but The Gifts (Traders &
    // Builders' second turns, the abbot, the large meeple, arrows, maps and the river's end)
    let mut kinds = 0;
    for (k, (name, setup)) in every_kind_of_game().into_iter().enumerate() {
        if setup.options.gifts {
            continue;
        }
        let games = decisions(&setup, 990 + k as u64, &[Strategy::Greedy]);
        for left in [0, 1] {
            let Some(game) = games.iter().find(|g| g.bag_left() == left) else {
                panic!("{name}: no position with {left} tiles left");
            };
            // When it is solved, then it agrees with the brute force on every move
            assert!(agrees(game) > 0, "{name}");
        }
        kinds += 1;
    }
    assert!(kinds >= 6, "{kinds} kinds of game");
}

#[test]
fn a_position_past_the_limits_is_left_to_the_search() {
    let game = &endings(2, 970, 1, 2)[0];
    // Given 2 tiles left: asked to solve with 1 tile at most, it does not
    assert_eq!(solve_ending(game, 1, u64::MAX).unwrap(), None);
    // Given a node budget far too small, it does not
    assert_eq!(solve_ending(game, 2, 10).unwrap(), None);
    // Given more tiles than the solver ever takes, it does not
    let early = &endings(2, 970, 1, MAX_EXACT_TILES + 1)[0];
    assert_eq!(solve_ending(early, 100, u64::MAX).unwrap(), None);
}

#[test]
fn the_gifts_hidden_hands_are_not_solved_and_a_non_decision_is_an_error() {
    // Given a game with The Gifts at its last tile
    let mut setup = Setup::base(2);
    setup.options.gifts = true;
    let games = decisions(&setup, 980, &[Strategy::Greedy]);
    let last = games.iter().find(|g| g.bag_left() == 0).unwrap();
    // Then the solver does not guess the hidden cards
    assert_eq!(solve_ending(last, 2, u64::MAX).unwrap(), None);
    // Given a finished game, it is an error, not a panic
    let over = play(Setup::base(2), 981, &[Strategy::Greedy]).unwrap().game;
    assert!(matches!(
        solve_ending(&over, 2, u64::MAX),
        Err(EngineError::NoDecision(_))
    ));
}

fn options(exact: u32) -> SearchOptions {
    SearchOptions {
        budget: Budget::Nodes(200),
        exact,
        ..SearchOptions::default()
    }
}

#[test]
fn the_search_solves_the_last_turns_instead_of_sampling_them() {
    // Given a 2-player game with 2 tiles left in the bag (3 to play) and the default options
    let game = &endings(2, 1010, 1, 2)[0];
    let solved = solve_ending(game, 2, u64::MAX).unwrap().unwrap();
    // When the engine analyses it, then the analysis is the exact solution, marked so
    let a = analyse(game, &SearchOptions::default()).unwrap();
    assert!(a.exact);
    assert_eq!(a.best, solved.best().mv);
    assert_eq!((a.win, a.margin), (solved.best().win, solved.best().margin));
    assert_eq!(a.moves.len(), solved.moves.len());
    assert!(a.moves.iter().all(|m| m.visits == 1));
    assert_eq!(a.line.len(), 1);
    // And two moves compared get their exact values
    let worst = solved.moves.last().unwrap();
    let c = compare(game, &[worst.mv, a.best], &options(3)).unwrap();
    assert!(c.exact);
    assert_eq!(c.stats(&worst.mv).unwrap().win, Some(worst.win));
    assert_eq!(c.best, a.best);
    // Given exact endings turned off, or a position one tile earlier, it searches
    assert!(!analyse(game, &options(0)).unwrap().exact);
    assert!(!analyse(game, &options(2)).unwrap().exact);
    let earlier = &endings(2, 1010, 1, 3)[0];
    assert!(!analyse(earlier, &options(3)).unwrap().exact);
    // Given three players, the ending is solved one tile later (its tree is not pruned)
    let three = endings(3, 1020, 1, 1);
    assert!(analyse(&three[0], &options(3)).unwrap().exact);
    let three = endings(3, 1020, 1, 2);
    assert!(!analyse(&three[0], &options(3)).unwrap().exact);
}
