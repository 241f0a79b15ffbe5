//! Move quality on the sample games: exact where chance is gone, deterministic for a seed,
//! and never failing on any kind of game the engine plays.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use carc_analysis::quality::{move_quality, Mark, QualityOptions};
use carc_events::read_log;
use carc_replay::{fold, Timeline};
use carc_rules::{Action, Effects, Phase};
use carc_sim::Strategy;

fn timeline(name: &str) -> Timeline {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    fold(read_log(&std::fs::read(path).unwrap()).unwrap(), &[])
}

fn options(playouts: u32, seed: u64, threads: usize) -> QualityOptions {
    QualityOptions {
        playouts,
        seed,
        threads,
        judge: carc_analysis::Judge::Playouts,
        ..QualityOptions::default()
    }
}

#[test]
fn the_last_turn_is_judged_exactly_since_no_chance_is_left() {
    // Given the hand-written game: at event 33 Ada places the last tile (E) beside her
    // monastery with no meeple, and the game ends 20-11 (a margin of 9)
    let t = timeline("short-game-rulings.jsonl");
    // When its moves are judged
    let q = move_quality(&t, &options(5, 1, 1), &|_, _| {}).unwrap();
    let last = q.turn_at(33).expect("event 33 is judged");
    // Then the move played is worth exactly its margin, whatever the playouts
    assert_eq!(last.seat, 0);
    assert_eq!(last.played.value, 9.0);
    assert!(last.best.value > last.played.value, "{last:?}");
    assert_eq!(last.loss, last.best.value - last.played.value);
    // And the best move, replayed with the rules, ends the game with that margin
    let step = t.index_of_seq(33).unwrap();
    let mut game = t.state_at(step).unwrap();
    assert!(matches!(game.phase(), Phase::Place { .. }));
    let mut fx = Effects::default();
    let m = last.best.mv;
    game.apply(
        &Action::Place {
            at: m.placement.at,
            rotation: m.placement.rotation,
        },
        &mut fx,
    )
    .unwrap();
    game.apply(&m.meeple, &mut fx).unwrap();
    assert!(game.is_over());
    let margin = f64::from(game.scores()[0]) - f64::from(game.scores()[1]);
    assert_eq!(margin, last.best.value);
    assert_eq!(last.mark, Mark::for_loss(last.loss));
}

#[test]
fn an_empty_monastery_is_marked_as_a_mistake() {
    // Given event 24: Brandt places the monastery tile A on the edge of the board and keeps
    // his meeple, where a monastery with a meeple in the middle of the tiles was worth more
    let t = timeline("short-game-rulings.jsonl");
    // When the moves are judged with two seeds
    for seed in [1, 2] {
        let q = move_quality(&t, &options(40, seed, 0), &|_, _| {}).unwrap();
        let turn = q.turn_at(24).unwrap();
        // Then the move is marked at least a mistake, and the best keeps the monastery
        assert!(turn.mark >= Some(Mark::Mistake), "seed {seed}: {turn:?}");
        assert!(turn.best.text.contains("meeple on monastery"), "{turn:?}");
        assert_eq!(q.players[1].name, "Brandt");
        assert!(q.players[1].mistakes + q.players[1].blunders >= 1);
    }
}

#[test]
fn the_same_seed_gives_the_same_report_whatever_the_number_of_threads() {
    let t = timeline("short-game-rulings.jsonl");
    // Given the same options on one thread and on three
    let one = move_quality(&t, &options(6, 7, 1), &|_, _| {}).unwrap();
    let three = move_quality(&t, &options(6, 7, 3), &|_, _| {}).unwrap();
    // Then the turns are the same, value for value
    assert_eq!(one.turns, three.turns);
    assert_eq!(one.players, three.players);
    // And another seed gives other estimates
    let other = move_quality(&t, &options(6, 8, 1), &|_, _| {}).unwrap();
    assert_ne!(one.turns, other.turns);
}

#[test]
fn judging_one_seat_gives_its_turns_the_verdicts_of_a_whole_review() {
    let t = timeline("short-game-rulings.jsonl");
    // Given a whole review with the engine judge, and one of Brandt's (seat 1) turns only
    let engine = |seats| QualityOptions {
        nodes: 300,
        seed: 3,
        threads: 2,
        seats,
        ..QualityOptions::default()
    };
    let all = move_quality(&t, &engine(None), &|_, _| {}).unwrap();
    let brandt = move_quality(&t, &engine(Some(vec![1])), &|_, _| {}).unwrap();
    // Then only Brandt's turns are judged, each exactly as in the whole review
    let of_brandt: Vec<_> = all.turns.iter().filter(|t| t.seat == 1).cloned().collect();
    assert!(!of_brandt.is_empty() && of_brandt.len() < all.turns.len());
    assert_eq!(brandt.turns, of_brandt);
}

#[test]
fn every_sample_game_is_judged_and_the_figures_add_up() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".jsonl") && !n.ends_with(".annotations.jsonl"))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "{names:?}");
    let mut arrows = 0;
    for name in &names {
        // Given any sample game (base, anniversary, maps, gifts, and their mixes)
        let t = timeline(name);
        let calls = AtomicUsize::new(0);
        let last = AtomicUsize::new(0);
        // (greedy playouts are slow: the short game only, one playout per candidate)
        let options = QualityOptions {
            playouts: 2,
            max_candidates: 4,
            ..options(2, 3, 0)
        };
        let options = if name == "short-game-rulings.jsonl" {
            QualityOptions {
                playouts: 1,
                strategy: Strategy::Greedy,
                ..options
            }
        } else {
            options
        };
        // When its moves are judged
        let q = move_quality(&t, &options, &|done, total| {
            calls.fetch_add(1, Ordering::Relaxed);
            last.fetch_max(done * 1000 + total, Ordering::Relaxed);
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        // Then every turn with a choice is judged, in game order, and the figures agree
        assert!(!q.turns.is_empty(), "{name}");
        assert!(q.turns.windows(2).all(|w| w[0].seq < w[1].seq), "{name}");
        let total = calls.load(Ordering::Relaxed);
        assert!(
            total >= q.turns.len(),
            "{name}: progress called {total} times"
        );
        assert_eq!(last.load(Ordering::Relaxed), total * 1000 + total, "{name}");
        for turn in &q.turns {
            assert!(turn.moves >= 2 && turn.screened <= 5, "{name}: {turn:?}");
            assert!(turn.loss >= 0.0, "{name}: {turn:?}");
            assert_eq!(turn.loss, turn.best.value - turn.played.value, "{name}");
            assert_eq!(turn.mark, Mark::for_loss(turn.loss));
            // The move played, when nothing beats it, is the best as played
            assert_eq!(
                turn.loss == 0.0,
                turn.best == turn.played,
                "{name}: {turn:?}"
            );
            assert!(!turn.played.text.is_empty() && !turn.best.text.is_empty());
            arrows += usize::from(turn.played.mv.arrow.is_some());
        }
        let judged: u32 = q.players.iter().map(|p| p.turns).sum();
        assert_eq!(judged as usize, q.turns.len(), "{name}");
        assert_eq!(q.players.len(), t.log.header.players.len());
    }
    assert!(arrows > 0, "no sample game chose among arrows");
}

#[test]
fn a_cancelled_analysis_stops_and_says_so() {
    use carc_analysis::quality::{move_quality_with, QualityError};
    use std::sync::atomic::AtomicBool;
    let t = timeline("sim-2p-greedy-vs-random.jsonl");
    let cancel = AtomicBool::new(false);
    let done = AtomicUsize::new(0);
    // Given a long analysis on one thread, cancelled after its third turn
    let r = move_quality_with(
        &t,
        &options(5, 1, 1),
        &|d, _| {
            done.store(d, Ordering::Relaxed);
            if d == 3 {
                cancel.store(true, Ordering::Relaxed);
            }
        },
        &cancel,
    );
    // Then it stops there with the cancellation
    assert_eq!(r.unwrap_err(), QualityError::Cancelled);
    assert_eq!(done.load(Ordering::Relaxed), 3);
}

#[test]
fn the_abbot_s_turns_are_judged_with_the_abbot_move_played() {
    // Given a 3-player game with the Abbot whose players placed and took back the abbot
    let t = timeline("sim-3p-abbot-mixed.jsonl");
    let abbot_events: Vec<u64> = t
        .steps
        .iter()
        .filter(|s| {
            matches!(
                s.event,
                carc_events::Event::AbbotPlaced { .. } | carc_events::Event::AbbotTakenBack { .. }
            )
        })
        .map(|s| s.seq)
        .collect();
    assert!(!abbot_events.is_empty());
    // When its moves are judged
    let q = move_quality(&t, &options(2, 1, 2), &|_, _| {}).unwrap();
    // Then every turn that moved the abbot is judged, its move played being that abbot move
    // (named in words)
    let abbot_turns: Vec<_> = q
        .turns
        .iter()
        .filter(|turn| {
            matches!(
                turn.played.mv.meeple,
                Action::PlaceAbbot { .. } | Action::TakeBackAbbot
            )
        })
        .collect();
    assert_eq!(abbot_turns.len(), abbot_events.len(), "{abbot_events:?}");
    for turn in abbot_turns {
        assert!(turn.played.text.contains("abbot"), "{}", turn.played.text);
    }
}
