//! `carc_replay::gifts`, the gift moves both record paths offer: along the sample games with
//! gifts, every card the deck can deal is one the rules accept (and no other is), every
//! gift the log opens is among the openings offered, and each opening offered is legal and
//! spelled in words that name its event.

use std::path::PathBuf;

use carc_events::{event_to_action, read_log, Event};
use carc_replay::fold;
use carc_replay::gifts::{opening_words, openings, receivable_cards};
use carc_rules::{Action, Effects, GiftCard, Phase};

fn sample(name: &str) -> carc_events::Log {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../logs")
        .join(name);
    read_log(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn the_gift_moves_offered_are_the_legal_ones_along_the_samples() {
    for name in [
        "sim-3p-anniversary-gifts-mixed.jsonl",
        "sim-5p-anniversary-gifts-mixed.jsonl",
    ] {
        let timeline = fold(sample(name), &[]);
        assert!(timeline.error.is_none(), "{name}");
        let (mut dealt, mut opened, mut reshuffles) = (0, 0, 0);
        let mut game = timeline.state_at(0).unwrap();
        for step in &timeline.steps {
            let cards = receivable_cards(&game);
            if let Phase::ReceiveGift { .. } = game.phase() {
                // The kinds offered are exactly those the rules take now.
                for card in GiftCard::ALL {
                    let legal = game
                        .clone()
                        .apply(&Action::ReceiveGift { card }, &mut Effects::quiet())
                        .is_ok();
                    assert_eq!(cards.contains(&card), legal, "{name} event {}", step.seq);
                }
                if game.gift_deck().iter().all(|&n| n == 0) {
                    reshuffles += 1;
                }
                dealt += 1;
            } else {
                assert!(cards.is_empty(), "{name} event {}", step.seq);
            }
            let offered = openings(&game);
            for o in &offered {
                assert!(
                    game.clone().apply(&o.action, &mut Effects::quiet()).is_ok(),
                    "{name} event {}: {:?}",
                    step.seq,
                    o.event
                );
                let words = opening_words(&o.event).unwrap();
                let Event::GiftOpened { card, .. } = &o.event else {
                    panic!("an opening is a gift_opened event")
                };
                assert_eq!(words[0], card.as_str());
            }
            if let Event::GiftOpened { .. } = &step.event {
                assert!(
                    offered.iter().any(|o| o.event == step.event),
                    "{name} event {}: {:?} not offered",
                    step.seq,
                    step.event
                );
                opened += 1;
            }
            let action = event_to_action(&game, &step.event).unwrap();
            game.apply(&action, &mut Effects::quiet()).unwrap();
        }
        assert!(
            dealt > 20 && opened > 10,
            "{name}: {dealt} dealt, {opened} opened"
        );
        assert!(
            reshuffles > 0,
            "{name}: a card dealt from the reshuffled pile"
        );
    }
}

#[test]
fn opening_words_spell_each_card_as_the_record_verbs_take_it() {
    let text = [
        r#"{"seq":1,"type":"gift_opened","player":1,"card":"synod","at":[1,2],"on":"monastery"}"#,
        r#"{"seq":1,"type":"gift_opened","player":1,"card":"change_position","at":[0,-1],"on":"road E","to":"field Nw"}"#,
        r#"{"seq":1,"type":"gift_opened","player":1,"card":"take_2"}"#,
    ];
    let words: Vec<Vec<String>> = text
        .iter()
        .map(|t| {
            let e: carc_events::Envelope = event_line(t);
            opening_words(&e.event).unwrap()
        })
        .collect();
    assert_eq!(words[0], ["synod", "1", "2"]);
    assert_eq!(
        words[1],
        ["change_position", "0", "-1", "road E", "field Nw"]
    );
    assert_eq!(words[2], ["take_2"]);
    assert!(opening_words(&Event::GameEnded).is_none());
}

/// One event line parsed by the log reader (a header first).
fn event_line(line: &str) -> carc_events::Envelope {
    let header = r#"{"format":"carcassonne-log","version":1,"game":"g","players":[{"name":"A","color":"red"},{"name":"B","color":"blue"}],"rules":{"expansions":["gifts"]},"tile_sets":["base"]}"#;
    let log = read_log(format!("{header}\n{line}\n").as_bytes()).unwrap();
    log.events[0].1.clone()
}
