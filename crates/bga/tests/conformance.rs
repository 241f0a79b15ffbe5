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

/// The base game's physical tile ids (`playTile`'s `id`, a draw's `tile_id`) by picture, as
/// the public BGA tile counter `johanpoirier/chrome-custom-extensions` (MIT,
/// `carcassonne-counter/tiles.js`, commit d65bbc3) lists them. That source also gives the ids
/// of Inns & Cathedrals (73-90) and Traders & Builders (91-114), which the importer uses to
/// name those expansions when it refuses them; this test is what grounds it: its base ids
/// agree with every tile of the corpus.
const COUNTER_BASE_IDS: [(&str, &[i64]); 24] = [
    ("T", &[1]),
    ("S", &[2, 3]),
    ("N", &[4, 5, 6]),
    ("M", &[7, 8]),
    ("P", &[9, 10, 11]),
    ("O", &[12, 13]),
    ("G", &[14]),
    ("F", &[15, 16]),
    ("I", &[17, 18]),
    ("H", &[19, 20, 21]),
    ("E", &[22, 23, 24, 25, 26]),
    ("K", &[27, 28, 29]),
    ("J", &[30, 31, 32]),
    ("L", &[33, 34, 35]),
    ("D", &[36, 37, 38, 39]),
    ("U", &[40, 41, 42, 43, 44, 45, 46, 47]),
    ("V", &[48, 49, 50, 51, 52, 53, 54, 55, 56]),
    ("W", &[57, 58, 59, 60]),
    ("X", &[61]),
    ("B", &[62, 63, 64, 65]),
    ("A", &[66, 67]),
    ("C", &[68]),
    ("R", &[69, 70, 71]),
    ("Q", &[72]),
];

#[test]
fn every_corpus_tile_id_is_a_base_id_with_the_picture_the_tile_counter_gives() {
    let Some(files) = corpus_files() else {
        return;
    };
    let int = |v: &serde_json::Value| -> i64 {
        v.as_i64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            .unwrap_or_else(|| panic!("not a number: {v}"))
    };
    let letter_of_id = |id: i64| {
        COUNTER_BASE_IDS
            .iter()
            .find(|(_, ids)| ids.contains(&id))
            .map(|(letter, _)| *letter)
    };
    let (mut checked, mut failures) = (0, Vec::new());
    let mut seen = std::collections::BTreeSet::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
        for note in doc["data"]["data"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| p["data"].as_array().unwrap())
        {
            let args = &note["args"];
            let (id, bga_type) = match note["type"].as_str() {
                Some("playTile") => (int(&args["id"]), int(&args["type"])),
                Some("gameStateChange") if !args["id"].is_null() && int(&args["id"]) == 2 => (
                    int(&args["args"]["tile_id"]),
                    int(&args["args"]["tile_type"]),
                ),
                _ => continue,
            };
            checked += 1;
            seen.insert(id);
            if !(1..=72).contains(&id) || letter_of_id(id) != carc_bga::letter_of(bga_type) {
                failures.push(format!(
                    "{name}: tile id {id} has type {bga_type} ({:?}), the counter gives {:?}",
                    carc_bga::letter_of(bga_type),
                    letter_of_id(id)
                ));
            }
        }
    }
    println!(
        "BGA tile ids: {checked} draws and placements, {} distinct ids, {} disagreements",
        seen.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The table covers 72 ids, each once.
    let mut all: Vec<i64> = COUNTER_BASE_IDS
        .iter()
        .flat_map(|(_, ids)| ids.iter().copied())
        .collect();
    all.sort_unstable();
    assert_eq!(all, (1..=72).collect::<Vec<_>>());
}
