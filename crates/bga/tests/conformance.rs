//! Conformance with Board Game Arena: every replay of `../shared/corpus/bga/` is imported and
//! replayed with our rules, and every score BGA stated is checked against our fold: the points
//! of each scoring notification (per seat and feature kind), the running totals after it and
//! the final scores. The meeple spots BGA offers after each placement are compared with ours,
//! and each game with all its display text replaced must import to the same log.

use std::collections::BTreeMap;
use std::path::PathBuf;

use carc_replay::{check_assertions, fold};

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/bga")
}

fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("skipped: no BGA corpus at {}", dir.display());
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    Some(files)
}

/// How many notifications of a type the replay holds.
fn count_notes(doc: &serde_json::Value, kind: &str) -> usize {
    doc["data"]["data"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["data"].as_array().unwrap())
        .filter(|n| n["type"] == kind)
        .count()
}

#[test]
fn every_bga_score_agrees_with_our_fold() {
    let Some(files) = corpus_files() else {
        return;
    };
    // (claims, agreements) per assertion type.
    let mut tally: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    let (mut realizations, mut wins) = (0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        realizations += count_notes(&doc, "realizationAchieved");
        wins += count_notes(&doc, "winPoints");
        assert!(carc_bga::looks_like_bga(&bytes), "{name}");
        let imported = carc_bga::import(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(imported.finished, "{name}: a complete game");
        let log = imported.log;
        assert_eq!(
            log.events
                .iter()
                .filter(|(_, e)| matches!(e.event, carc_events::Event::TilePlaced { .. }))
                .count(),
            71,
            "{name}: every tile but the start tile"
        );
        // Every point BGA gave is in a feature claim: none was left without its feature.
        let stated: i64 = doc["data"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| p["data"].as_array().unwrap())
            .filter(|n| n["type"] == "winPoints")
            .map(|n| {
                let points = &n["args"]["points"];
                points
                    .as_i64()
                    .or_else(|| points.as_str().and_then(|s| s.parse().ok()))
                    .unwrap()
            })
            .sum();
        let claimed: i64 = log
            .assertions
            .iter()
            .filter_map(|(_, a)| match a {
                carc_events::Assertion::ExpectPoints { points, .. } => Some(i64::from(*points)),
                _ => None,
            })
            .sum();
        assert_eq!(claimed, stated, "{name}");
        let timeline = fold(log.clone(), &[]);
        assert!(timeline.error.is_none(), "{name}: {:?}", timeline.error);
        assert!(timeline.finished, "{name}");
        let failed = check_assertions(&timeline);
        for (line, assertion) in &log.assertions {
            let entry = tally.entry(assertion.type_name()).or_default();
            entry.0 += 1;
            if !failed.iter().any(|f| f.line == *line) {
                entry.1 += 1;
            }
        }
        println!(
            "{name}: {} events, {} claims, {} agree; final scores {:?}",
            log.events.len(),
            log.assertions.len(),
            log.assertions.len() - failed.len(),
            timeline.final_scores()
        );
        failures.extend(failed.into_iter().map(|f| format!("{name}: {f}")));
    }
    let claims: usize = tally.values().map(|t| t.0).sum();
    let agreements: usize = tally.values().map(|t| t.1).sum();
    println!(
        "BGA conformance: {} files ({realizations} realizationAchieved and {wins} winPoints \
         notifications), {claims} scoring claims checked, {agreements} agreements",
        files.len()
    );
    for (kind, (n, ok)) in &tally {
        println!("  {kind}: {n} checked, {ok} agree");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(tally["expect_final_scores"], (files.len(), files.len()));
}

/// Replaces every display text of a replay (templates, names in notifications, translated
/// words, labels) with other words, as another language's download would have them.
fn translate(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match (key.as_str(), &*v) {
                    (
                        "log" | "player_name" | "real_type" | "target" | "piece" | "players"
                        | "description" | "label",
                        Value::String(s),
                    ) => {
                        *v = Value::String(format!("«{}» (traduit)", s.len()));
                    }
                    _ => translate(v),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(translate),
        _ => {}
    }
}

#[test]
fn a_translated_corpus_game_imports_to_the_same_log() {
    let Some(files) = corpus_files() else {
        return;
    };
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let mut doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        translate(&mut doc);
        let translated = carc_bga::read(doc.to_string().as_bytes()).unwrap();
        assert_eq!(
            translated,
            carc_bga::read(&bytes).unwrap(),
            "{}",
            path.display()
        );
    }
    println!(
        "BGA translation: {} files import to the same log",
        files.len()
    );
}

/// BGA's meeple spots offered after each placement (`gameStateChange` 3), as tile-local
/// segments, in placement order: `(bga type, [segments])`.
fn offered_spots(doc: &serde_json::Value) -> Vec<(i64, Vec<u8>)> {
    let base = carc_rules::TileSet::base();
    let int = |v: &serde_json::Value| {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            .unwrap()
    };
    let mut out = Vec::new();
    let mut last_type = None;
    for packet in doc["data"]["data"].as_array().unwrap() {
        for note in packet["data"].as_array().unwrap() {
            let args = &note["args"];
            match note["type"].as_str().unwrap() {
                "playTile" => last_type = Some(int(&args["type"])),
                "gameStateChange" if args["id"] == 3 => {
                    let bga_type = last_type.take().unwrap();
                    let tile = base.get(base.find(carc_bga::letter_of(bga_type).unwrap()).unwrap());
                    let mut segments: Vec<u8> = args["args"]["spots"]
                        .as_array()
                        .map(Vec::as_slice)
                        .unwrap_or_default()
                        .iter()
                        .map(|spot| {
                            let pos = int(&spot["pos"]);
                            let label = carc_bga::spot_target(bga_type, pos)
                                .unwrap_or_else(|| panic!("type {bga_type} has no spot {pos}"));
                            let target: carc_events::MeepleTarget = label.parse().unwrap();
                            tile.find_segment(
                                carc_rules::Rotation::default(),
                                &carc_events::label_of(&target),
                            )
                            .unwrap()
                        })
                        .collect();
                    segments.sort_unstable();
                    out.push((bga_type, segments));
                }
                _ => {}
            }
        }
    }
    out
}

#[test]
fn every_meeple_spot_bga_offers_is_one_our_rules_offer() {
    let Some(files) = corpus_files() else {
        return;
    };
    let (mut turns, mut agreements) = (0, 0);
    let mut failures = Vec::new();
    let mut spots = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let offered = offered_spots(&doc);
        let timeline = fold(carc_bga::read(&bytes).unwrap(), &[]);
        let placed: Vec<usize> = timeline
            .steps
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.event, carc_events::Event::TilePlaced { .. }))
            .map(|(i, _)| i + 1)
            .collect();
        assert_eq!(placed.len(), offered.len(), "{name}");
        for (n, ((bga_type, theirs), after)) in offered.iter().zip(placed).enumerate() {
            let game = timeline.state_at(after).unwrap();
            game.legal_meeples(&mut spots);
            let mut ours: Vec<u8> = spots.iter().map(|s| s.segment).collect();
            ours.sort_unstable();
            turns += 1;
            if &ours == theirs {
                agreements += 1;
            } else {
                failures.push(format!(
                    "{name}: placement {n} (type {bga_type}): BGA offers segments {theirs:?}, we {ours:?}"
                ));
            }
        }
    }
    println!(
        "BGA meeple spots: {} files, {turns} placements checked, {agreements} agreements",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
