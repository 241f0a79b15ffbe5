//! The analysis of the hand-written sample game, worked out by hand from its log, and the
//! aggregate over the sample logs.

use std::path::Path;

use carc_analysis::{analyze, Aggregate, MomentKind};
use carc_events::read_log;

fn log(name: &str) -> carc_events::Log {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    read_log(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn the_short_game_counted_by_hand() {
    // Given the sample: Ada and Brandt share a city (8 each) at event 19, Ada's monastery
    // completes at event 34 (9), and a field scores 3 each at the end: 20-11.
    let a = analyze(&log("short-game-rulings.jsonl"), &[]);
    assert!(a.finished);
    assert_eq!(a.stopped, None);
    assert_eq!(a.events, 34);
    assert_eq!(a.winners, [0]);
    let (ada, brandt) = (&a.players[0], &a.players[1]);
    // Points by source
    assert_eq!(ada.points, 20);
    assert_eq!(
        ada.points_by_source
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect::<Vec<_>>(),
        [("city", 8), ("field", 3), ("monastery", 9)]
    );
    assert_eq!(brandt.points, 11);
    assert_eq!(
        brandt
            .points_by_source
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect::<Vec<_>>(),
        [("city", 8), ("field", 3)]
    );
    // Meeples: Ada put three (city, monastery, field), Brandt two (city, field); all came back
    assert_eq!(
        (
            ada.meeples_placed,
            ada.meeples_returned,
            ada.meeples_out_at_end
        ),
        (3, 3, 0)
    );
    assert_eq!(
        (
            brandt.meeples_placed,
            brandt.meeples_returned,
            brandt.meeples_out_at_end
        ),
        (2, 2, 0)
    );
    // Turns out: Ada's city 1 -> 6, monastery 3 -> 11, farmer 5 -> 11: (5 + 8 + 6) / 3
    assert!((ada.average_turns_out.unwrap() - 19.0 / 3.0).abs() < 1e-9);
    // Brandt's city 2 -> 6, farmer 4 -> 11: (4 + 7) / 2
    assert_eq!(brandt.average_turns_out, Some(5.5));
    // Features completed during play, and shared scores
    assert_eq!((ada.features_completed, ada.features_shared), (2, 2));
    assert_eq!((brandt.features_completed, brandt.features_shared), (1, 2));
    // Moments: the shared city, then at the last event Ada's lead, the shared field and the
    // three scores (there are only three)
    let kinds: Vec<(u64, MomentKind)> = a.moments.iter().map(|m| (m.seq, m.kind)).collect();
    assert_eq!(
        kinds,
        [
            (19, MomentKind::BigScore),
            (19, MomentKind::Shared),
            (34, MomentKind::BigScore),
            (34, MomentKind::BigScore),
            (34, MomentKind::LeadChange),
            (34, MomentKind::Shared),
        ]
    );
    let lead = a
        .moments
        .iter()
        .find(|m| m.kind == MomentKind::LeadChange)
        .unwrap();
    assert_eq!(lead.text, "Ada takes the lead (20 points, 9 ahead)");
}

#[test]
fn an_illegal_event_stops_the_analysis_and_says_where() {
    let mut l = log("short-game-rulings.jsonl");
    // Event 9 onto the start tile's square.
    let text = carc_events::write_log(&l).replace(
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,-1]",
        "{\"seq\":9,\"type\":\"tile_placed\",\"player\":0,\"tile\":\"B\",\"at\":[0,0]",
    );
    l = read_log(text.as_bytes()).unwrap();
    let a = analyze(&l, &[]);
    assert_eq!(a.events, 8);
    assert!(!a.finished);
    assert!(a.winners.is_empty());
    let why = a.stopped.unwrap();
    assert!(
        why.contains("line 10: event 9 is illegal [base.tile.empty-square]"),
        "{why}"
    );
}

#[test]
fn the_aggregate_over_the_sample_logs() {
    let mut agg = Aggregate::default();
    let names = [
        "sim-2p-greedy-vs-random.jsonl",
        "short-game-rulings.jsonl",
        "sim-3p-greedy.jsonl",
    ];
    let analyses: Vec<_> = names.iter().map(|n| analyze(&log(n), &[])).collect();
    for a in &analyses {
        agg.add(a);
    }
    assert_eq!((agg.games, agg.finished, agg.stopped), (3, 3, 0));
    let seats = agg.seats();
    assert_eq!(seats.len(), 3);
    assert_eq!(seats[0].games, 3);
    assert_eq!(seats[2].games, 1);
    let wins: u32 = seats.iter().map(|s| s.wins).sum();
    assert!(wins >= 3, "every finished game has a winner");
    let all = agg.overall();
    assert_eq!(all.count, 2 + 2 + 3);
    let best = analyses
        .iter()
        .flat_map(|a| a.players.iter().map(|p| p.points))
        .max()
        .unwrap();
    assert_eq!(all.max, best);
    // Merging two halves gives the whole
    let mut left = Aggregate::default();
    left.add(&analyses[0]);
    let mut right = Aggregate::default();
    right.add(&analyses[1]);
    right.add(&analyses[2]);
    left.merge(right);
    assert_eq!(left, agg);
}
