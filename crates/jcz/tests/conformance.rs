//! Conformance with JCloisterZone: every saved game of `../shared/corpus/jcz/` is imported and
//! replayed with our rules, and every assertion the JCloisterZone engine makes about it is
//! checked: points per player, points per scored feature, and the meeple spots offered (checked
//! against `legal_meeples`). Assertions about JCloisterZone's user interface (phase, available
//! actions, undo) have no counterpart here; they are printed and counted as skipped.

mod common;

use carc_rules::{FeatureKind, MeepleSpot, Phase};
use serde_json::Value;

/// What happened to the assertions of one file.
#[derive(Default)]
struct Tally {
    checked: Vec<String>,
    skipped: Vec<String>,
    failed: Vec<String>,
}

fn feature_kind(word: &str) -> Option<FeatureKind> {
    match word {
        "city" => Some(FeatureKind::City),
        "road" => Some(FeatureKind::Road),
        "field" | "farm" => Some(FeatureKind::Field),
        "monastery" | "cloister" => Some(FeatureKind::Monastery),
        "garden" => Some(FeatureKind::Garden),
        _ => None,
    }
}

fn check_file(name: &str, text: &str) -> Tally {
    let log = carc_jcz::read(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let (game, scores) = common::replay(&log);
    let seat_of = |player: &str| {
        log.header
            .players
            .iter()
            .position(|p| p.name == player)
            .unwrap_or_else(|| panic!("{name}: no player {player:?}"))
    };
    let doc: Value = serde_json::from_str(text).unwrap();
    let assertions = doc["test"]["assertions"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut tally = Tally::default();
    for a in assertions {
        let sentence = a.as_str().unwrap().trim_end_matches('.').to_string();
        let words: Vec<&str> = sentence.split(' ').collect();
        let outcome: Option<Result<(), String>> = match words.as_slice() {
            [player, "has", n, "points"] => {
                let want: u32 = n.parse().unwrap();
                let got = game.scores()[seat_of(player)];
                Some(if got == want {
                    Ok(())
                } else {
                    Err(format!("we give {player} {got} points"))
                })
            }
            [player, "scored", feature, "for", n, "points"] => {
                let want: u32 = n.parse().unwrap();
                let kind = feature_kind(feature).unwrap();
                let seat = seat_of(player) as u8;
                let found = scores
                    .iter()
                    .any(|s| s.kind == kind && s.points == want && s.winners.contains(&seat));
                Some(if found {
                    Ok(())
                } else {
                    let theirs: Vec<String> = scores
                        .iter()
                        .filter(|s| s.winners.contains(&seat))
                        .map(|s| format!("{} {}", s.kind, s.points))
                        .collect();
                    Err(format!("our scores for {player}: {theirs:?}"))
                })
            }
            ["Meeple", "SmallFollower", "options:", ..] => {
                let listed = sentence.split_once("options: ").unwrap().1;
                let mut want: Vec<String> = listed.split("; ").map(str::to_string).collect();
                want.sort();
                let Phase::Meeple { at } = game.phase() else {
                    panic!(
                        "{name}: JCloisterZone offers meeples, our game is at {:?}",
                        game.phase()
                    );
                };
                let mut spots: Vec<MeepleSpot> = Vec::new();
                game.legal_meeples(&mut spots);
                let mut got: Vec<String> = spots
                    .iter()
                    .map(|s| {
                        carc_jcz::pointer_of(&game, at, s.segment)
                            .unwrap()
                            .to_string()
                    })
                    .collect();
                got.sort();
                Some(if got == want {
                    Ok(())
                } else {
                    Err(format!("our legal_meeples: {}", got.join("; ")))
                })
            }
            _ => None,
        };
        match outcome {
            Some(Ok(())) => tally.checked.push(sentence),
            Some(Err(why)) => tally.failed.push(format!("{sentence:?}: {why}")),
            None => tally.skipped.push(sentence),
        }
    }
    tally
}

#[test]
fn every_corpus_game_replays_to_the_outcome_jcloisterzone_asserts() {
    let mut checked = 0;
    let mut skipped = 0;
    let mut failures = Vec::new();
    for (name, text) in common::corpus_files() {
        let tally = check_file(&name, &text);
        println!(
            "{name}: {} assertions checked, {} skipped",
            tally.checked.len(),
            tally.skipped.len()
        );
        for s in &tally.checked {
            println!("  checked: {s}");
        }
        for s in &tally.skipped {
            println!("  skipped (JCloisterZone user interface): {s}");
        }
        checked += tally.checked.len();
        skipped += tally.skipped.len();
        failures.extend(tally.failed.iter().map(|f| format!("{name}: {f}")));
    }
    println!("corpus: {checked} assertions checked, {skipped} skipped");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 0, "no assertion was checked");
}
