//! Conformance with Board Game Arena: every replay of `../shared/corpus/bga/` is imported and
//! replayed with our rules, and every score BGA stated (each scoring notification's running
//! totals and the final scores) is checked against our fold.

use std::path::PathBuf;

use carc_events::Assertion;
use carc_replay::{check_assertions, fold};

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/bga")
}

#[test]
fn every_bga_score_agrees_with_our_fold() {
    let dir = corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("skipped: no BGA corpus at {}", dir.display());
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let (mut claims, mut agreements, mut finals) = (0, 0, 0);
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(path).unwrap();
        assert!(carc_bga::looks_like_bga(&bytes), "{name}");
        let imported = carc_bga::import(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(imported.finished, "{name}: a complete game");
        let log = imported.log;
        let timeline = fold(log.clone(), &[]);
        assert!(timeline.error.is_none(), "{name}: {:?}", timeline.error);
        assert!(timeline.finished, "{name}");
        let failed = check_assertions(&timeline);
        claims += log.assertions.len();
        agreements += log.assertions.len() - failed.len();
        finals += log
            .assertions
            .iter()
            .filter(|(_, a)| matches!(a, Assertion::ExpectFinalScores { .. }))
            .count();
        println!(
            "{name}: {} events, {} score claims, {} agree; final {:?}",
            log.events.len(),
            log.assertions.len(),
            log.assertions.len() - failed.len(),
            timeline.final_scores()
        );
        failures.extend(failed.into_iter().map(|f| format!("{name}: {f}")));
    }
    println!(
        "BGA conformance: {} files, {claims} scoring claims checked ({finals} final), \
         {agreements} agreements",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(finals, files.len());
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
    let dir = corpus_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("skipped: no BGA corpus at {}", dir.display());
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
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
