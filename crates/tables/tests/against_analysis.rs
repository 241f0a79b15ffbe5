//! The tables read back with the Parquet reader agree with `carc analyze` (the `carc-analysis`
//! counts behind `carc analyze --json`) on the sample logs and on simulated games of every
//! expansion: points by source per seat, final scores, events, turns, winners. Also: the
//! output is the same on any number of threads, large tables are split into parts, hostile
//! text round-trips as data, and an illegal log is exported up to its last legal event.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, UInt32Type, UInt64Type, UInt8Type};
use arrow_array::{Array, RecordBatch};
use carc_events::annotation::{Annotation, Glyph};
use carc_events::variation::Variation;
use carc_events::{
    read_log, record_actions, setup_from_header, Color, Envelope, Event, Header, Log, MapRules,
    Player, RulesOptions, Source, TownVariant,
};
use carc_rules::Game;
use carc_sim::Strategy;
use carc_tables::{export_games, ExportOptions, GameInput, Table, WriteOptions};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

fn logs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../logs")
}

fn sample_logs() -> Vec<Log> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(logs_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "the sample logs are missing");
    files
        .iter()
        .map(|f| read_log(&std::fs::read(f).unwrap()).unwrap())
        .collect()
}

/// A simulated game: `expansions` on, optionally on the Germany map with every town variant.
fn simulated(seed: u64, players: usize, expansions: &[&str], germany: bool) -> Log {
    let mut header = Header {
        game: format!("tables-sim-{seed}"),
        players: (0..players)
            .map(|i| Player {
                name: format!("P{i}"),
                color: Color::ALL[i],
            })
            .collect(),
        rules: RulesOptions::default(),
        tile_sets: vec!["base".into()],
        bag: None,
        source: Some(Source::Simulated {
            seed,
            strategies: vec!["greedy".into(), "random".into()],
        }),
        comment: None,
    };
    for e in expansions {
        header.rules.expansions.push((*e).into());
        if *e == "anniversary" {
            header.tile_sets.push("anniversary".into());
        }
    }
    if germany {
        header.rules.meeples = 9;
        header.rules.map = Some(MapRules {
            name: "germany".into(),
            start_squares: 2,
            town_variants: TownVariant::ALL.to_vec(),
        });
    }
    let setup = || setup_from_header(&header, &[]).unwrap();
    let sim = carc_sim::play(setup(), seed, &[Strategy::Greedy, Strategy::Random]).unwrap();
    record_actions(header.clone(), Game::new(setup()).unwrap(), &sim.actions)
        .unwrap()
        .0
}

fn games() -> Vec<GameInput> {
    let mut logs = sample_logs();
    logs.push(simulated(101, 2, &[], false));
    logs.push(simulated(102, 4, &["anniversary"], false));
    logs.push(simulated(103, 3, &["gifts"], false));
    logs.push(simulated(104, 3, &["anniversary", "gifts"], true));
    logs.into_iter().map(GameInput::new).collect()
}

fn read_table(out: &Path, table: Table) -> Vec<RecordBatch> {
    let mut parts: Vec<PathBuf> = std::fs::read_dir(out.join(table.name()))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    parts.sort();
    let mut batches = Vec::new();
    for part in parts {
        let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&part).unwrap())
            .unwrap()
            .build()
            .unwrap();
        for batch in reader {
            let batch = batch.unwrap();
            assert_eq!(batch.schema().fields(), table.schema().fields());
            batches.push(batch);
        }
    }
    batches
}

fn u64s(b: &RecordBatch, name: &str) -> Vec<u64> {
    let c = b.column_by_name(name).unwrap().as_primitive::<UInt64Type>();
    c.values().to_vec()
}

fn u8s(b: &RecordBatch, name: &str) -> Vec<u8> {
    let c = b.column_by_name(name).unwrap().as_primitive::<UInt8Type>();
    c.values().to_vec()
}

fn u32s(b: &RecordBatch, name: &str) -> Vec<u32> {
    let c = b.column_by_name(name).unwrap().as_primitive::<UInt32Type>();
    c.values().to_vec()
}

fn i32s(b: &RecordBatch, name: &str) -> Vec<i32> {
    let c = b.column_by_name(name).unwrap().as_primitive::<Int32Type>();
    c.values().to_vec()
}

fn strs(b: &RecordBatch, name: &str) -> Vec<Option<String>> {
    let c = b.column_by_name(name).unwrap().as_string::<i32>();
    (0..c.len())
        .map(|i| c.is_valid(i).then(|| c.value(i).to_string()))
        .collect()
}

/// A list column of unsigned integers, row by row.
fn lists<T: arrow_array::types::ArrowPrimitiveType>(
    b: &RecordBatch,
    name: &str,
) -> Vec<Vec<T::Native>> {
    let c = b.column_by_name(name).unwrap().as_list::<i32>();
    (0..c.len())
        .map(|i| c.value(i).as_primitive::<T>().values().to_vec())
        .collect()
}

fn export(inputs: &[GameInput], out: &Path, threads: usize, write: WriteOptions) {
    let options = ExportOptions {
        threads: Some(threads),
        write,
        ..Default::default()
    };
    let summary = export_games(
        inputs.len(),
        |i| Ok(inputs[i].clone()),
        &[],
        out,
        &options,
        || {},
    )
    .unwrap();
    assert_eq!(summary.games, inputs.len());
    assert!(summary.skipped.is_empty(), "{:?}", summary.skipped);
}

fn small_parts() -> WriteOptions {
    WriteOptions {
        row_group_rows: 100,
        part_rows: 1000,
    }
}

#[test]
fn points_by_source_scores_turns_and_winners_agree_with_analyze() {
    // Given the sample logs and simulated games of every expansion
    let inputs = games();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tables");
    // When they are exported (small row groups and parts, so both are exercised) and read back
    export(&inputs, &out, 3, small_parts());
    let games = read_table(&out, Table::Games);
    let players = read_table(&out, Table::Players);
    let moves = read_table(&out, Table::Moves);
    let scores = read_table(&out, Table::Scores);

    // Then every game has its row, in input order, keyed by its position
    let keys: Vec<u64> = games.iter().flat_map(|b| u64s(b, "game_key")).collect();
    assert_eq!(keys, (0..inputs.len() as u64).collect::<Vec<_>>());

    // … and the points each seat scored by source are those `carc analyze` counts
    let mut points: BTreeMap<(u64, u8, String), i64> = BTreeMap::new();
    for b in &scores {
        let (k, seat, source, p) = (
            u64s(b, "game_key"),
            u8s(b, "seat"),
            strs(b, "source"),
            i32s(b, "points"),
        );
        for i in 0..b.num_rows() {
            *points
                .entry((k[i], seat[i], source[i].clone().unwrap()))
                .or_default() += i64::from(p[i]);
        }
    }
    let mut moves_per_game: BTreeMap<u64, (u32, u32)> = BTreeMap::new();
    for b in &moves {
        for (k, t) in u64s(b, "game_key").into_iter().zip(u32s(b, "turn")) {
            let e = moves_per_game.entry(k).or_default();
            e.0 += 1;
            e.1 = e.1.max(t);
        }
    }
    let (mut final_scores, mut winners, mut events, mut turns, mut finished) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for b in &games {
        final_scores.extend(lists::<UInt32Type>(b, "final_scores"));
        winners.extend(lists::<UInt8Type>(b, "winners"));
        events.extend(u32s(b, "events"));
        turns.extend(u32s(b, "turns"));
        let f = b.column_by_name("finished").unwrap().as_boolean();
        finished.extend((0..f.len()).map(|i| f.value(i)));
    }
    let player_scores: Vec<(u64, u8, u32)> = players
        .iter()
        .flat_map(|b| {
            let (k, s, f) = (u64s(b, "game_key"), u8s(b, "seat"), u32s(b, "final_score"));
            (0..b.num_rows())
                .map(|i| (k[i], s[i], f[i]))
                .collect::<Vec<_>>()
        })
        .collect();
    let mut checked_sources = 0;
    for (key, input) in inputs.iter().enumerate() {
        let key = key as u64;
        let a = carc_analysis::analyze(&input.log, &[]);
        let timeline = carc_replay::fold(input.log.clone(), &[]);
        let game = &a.game;
        assert_eq!(events[key as usize] as usize, a.events, "{game}: events");
        assert_eq!(finished[key as usize], a.finished, "{game}: finished");
        assert_eq!(winners[key as usize], a.winners, "{game}: winners");
        let last_turn = timeline.steps.last().map_or(0, |s| s.turn);
        assert_eq!(turns[key as usize], last_turn, "{game}: turns");
        assert_eq!(
            moves_per_game.get(&key).copied().unwrap_or_default(),
            (a.events as u32, last_turn),
            "{game}: one move per legal event"
        );
        for (seat, p) in a.players.iter().enumerate() {
            let seat8 = seat as u8;
            assert_eq!(final_scores[key as usize][seat], p.points, "{game}: score");
            assert!(player_scores.contains(&(key, seat8, p.points)), "{game}");
            for (source, &want) in &p.points_by_source {
                let name = if source == "unopened gifts" {
                    "unopened_gifts"
                } else {
                    source.as_str()
                };
                let got = points
                    .get(&(key, seat8, name.to_string()))
                    .copied()
                    .unwrap_or(0);
                assert_eq!(got, i64::from(want), "{game} seat {seat}: {source}");
                checked_sources += 1;
            }
            let costs = points
                .get(&(key, seat8, "town_cost".to_string()))
                .copied()
                .unwrap_or(0);
            assert_eq!(
                -costs,
                i64::from(p.town_costs),
                "{game} seat {seat}: town costs"
            );
        }
        // Every source in the table is one analyze knows (and counted above).
        for ((k, seat, source), &got) in
            points.range((key, 0, String::new())..(key + 1, 0, String::new()))
        {
            let want = match source.as_str() {
                "town_cost" => continue,
                "unopened_gifts" => a.players[usize::from(*seat)]
                    .points_by_source
                    .get("unopened gifts"),
                s => a.players[usize::from(*seat)].points_by_source.get(s),
            };
            assert_eq!(
                i64::from(want.copied().unwrap_or(0)),
                got,
                "game {k} seat {seat}: {source}"
            );
        }
    }
    assert!(
        checked_sources > 50,
        "only {checked_sources} sources compared"
    );
    // The expansions' own sources are among them.
    let sources: std::collections::BTreeSet<&str> =
        points.keys().map(|(_, _, s)| s.as_str()).collect();
    for s in [
        "road",
        "city",
        "monastery",
        "field",
        "arrow",
        "unopened_gifts",
    ] {
        assert!(sources.contains(s), "no {s} scores in {sources:?}");
    }
    // And the large tables were split into parts of about the size asked for
    let parts = std::fs::read_dir(out.join("moves")).unwrap().count();
    assert!(parts > 3, "moves in {parts} parts");
}

#[test]
fn the_output_is_the_same_on_any_number_of_threads() {
    // Given the same games
    let inputs = games();
    let dir = tempfile::tempdir().unwrap();
    // When they are exported on one thread and on four
    export(&inputs, &dir.path().join("one"), 1, small_parts());
    export(&inputs, &dir.path().join("four"), 4, small_parts());
    // Then every file has the same bytes
    for table in Table::ALL {
        let list = |d: &str| -> Vec<(String, Vec<u8>)> {
            let mut files: Vec<_> = std::fs::read_dir(dir.path().join(d).join(table.name()))
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            files.sort();
            files
                .into_iter()
                .map(|f| {
                    (
                        f.file_name().unwrap().to_string_lossy().to_string(),
                        std::fs::read(&f).unwrap(),
                    )
                })
                .collect()
        };
        let (one, four) = (list("one"), list("four"));
        assert!(!one.is_empty(), "{}: no file", table.name());
        assert!(
            one == four,
            "{} differs between 1 and 4 threads",
            table.name()
        );
    }
}

#[test]
fn hostile_names_and_annotations_round_trip_exactly() {
    // Given a game whose player name and annotation hold control characters and markup
    let name = "\u{1b}[31mEve\u{0}\u{7}\r\n\t'; DROP TABLE games; --\u{202e}";
    let text = "<script>alert(1)</script>\u{0}\u{1b}]0;title\u{7}\nline two";
    let mut log = simulated(7, 2, &[], false);
    log.header.players[1].name = name.to_string();
    let mut input = GameInput::new(log);
    input.annotations.insert(
        5,
        Annotation {
            game: input.log.header.game.clone(),
            seq: 5,
            glyph: Some(Glyph::Dubious),
            text: text.to_string(),
        },
    );
    let branch = input.log.events[6].1.clone();
    input.variations.insert(
        "what if\u{0}".to_string(),
        Variation {
            game: input.log.header.game.clone(),
            name: "what if\u{0}".to_string(),
            parent: None,
            after: branch.seq - 1,
            events: vec![Envelope {
                seq: branch.seq,
                event: Event::MeepleSkipped { player: 0 },
            }],
        },
    );
    let dir = tempfile::tempdir().unwrap();
    // When it is exported and read back
    export(
        std::slice::from_ref(&input),
        dir.path(),
        1,
        WriteOptions::default(),
    );
    // Then the texts come back byte for byte, as data
    let players = read_table(dir.path(), Table::Players);
    assert_eq!(strs(&players[0], "name")[1].as_deref(), Some(name));
    let games = read_table(dir.path(), Table::Games);
    let listed = games[0]
        .column_by_name("players")
        .unwrap()
        .as_list::<i32>()
        .value(0);
    assert_eq!(listed.as_string::<i32>().value(1), name);
    let annotations = read_table(dir.path(), Table::Annotations);
    assert_eq!(strs(&annotations[0], "text")[0].as_deref(), Some(text));
    assert_eq!(strs(&annotations[0], "glyph")[0].as_deref(), Some("?!"));
    assert_eq!(u64s(&annotations[0], "seq"), vec![5]);
    let variations = read_table(dir.path(), Table::Variations);
    assert_eq!(
        strs(&variations[0], "variation")[0].as_deref(),
        Some("what if\u{0}")
    );
    assert_eq!(
        strs(&variations[0], "kind")[0].as_deref(),
        Some("meeple_skipped")
    );
}

#[test]
fn an_illegal_log_is_exported_to_its_last_legal_event() {
    // Given a game whose 10th event is replaced by an illegal one
    let mut log = simulated(9, 2, &[], false);
    log.events[9].1.event = Event::MeepleSkipped { player: 1 };
    let dir = tempfile::tempdir().unwrap();
    // When it is exported
    export(
        &[GameInput::new(log)],
        dir.path(),
        1,
        WriteOptions::default(),
    );
    // Then its 9 legal events are there and the game says where and why it stops
    let games = read_table(dir.path(), Table::Games);
    assert_eq!(u32s(&games[0], "events"), vec![9]);
    let stopped = strs(&games[0], "stopped")[0].clone().unwrap();
    assert!(stopped.contains("event 10"), "{stopped}");
    let moves = read_table(dir.path(), Table::Moves);
    let rows: usize = moves.iter().map(|b| b.num_rows()).sum();
    assert_eq!(rows, 9);
}

#[test]
fn a_game_that_cannot_be_loaded_is_skipped_and_named_and_tables_without_rows_have_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let log = simulated(11, 2, &[], false);
    let summary = export_games(
        2,
        |i| {
            if i == 0 {
                Err("no such file".to_string())
            } else {
                Ok(GameInput::new(log.clone()))
            }
        },
        &[],
        dir.path(),
        &ExportOptions::default(),
        || {},
    )
    .unwrap();
    assert_eq!(summary.games, 1);
    assert_eq!(summary.skipped.len(), 1);
    assert_eq!(summary.skipped[0].index, 0);
    // The annotations table has no rows but a file with its columns.
    assert!(read_table(dir.path(), Table::Annotations).is_empty());
    assert!(dir.path().join("annotations/part-00000.parquet").is_file());
    // A folder that is not empty is refused.
    let again = export_games(
        0,
        |_| unreachable!(),
        &[],
        dir.path(),
        &ExportOptions::default(),
        || {},
    );
    assert!(again.unwrap_err().to_string().contains("not empty"));
}

#[test]
fn the_large_meeple_is_marked_in_the_figure_column() {
    // Given the two-player Inns & Cathedrals sample
    let log =
        read_log(&std::fs::read(logs_dir().join("sim-2p-inns-cathedrals-mixed.jsonl")).unwrap())
            .unwrap();
    let large = log
        .events
        .iter()
        .filter(|(_, e)| {
            matches!(
                e.event,
                carc_events::Event::MeeplePlaced {
                    figure: carc_events::Figure::Large,
                    ..
                }
            )
        })
        .count();
    assert!(large > 0);
    // When it is exported
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tables");
    export(&[GameInput::new(log)], &out, 1, small_parts());
    // Then `figure` says `large` on exactly the large meeples' rows, null elsewhere
    let moves = read_table(&out, Table::Moves);
    let rows: Vec<(Option<String>, Option<String>)> = moves
        .iter()
        .flat_map(|b| strs(b, "kind").into_iter().zip(strs(b, "figure")))
        .collect();
    let marked: Vec<_> = rows.iter().filter(|(_, f)| f.is_some()).collect();
    assert_eq!(marked.len(), large);
    assert!(marked
        .iter()
        .all(|(k, f)| k.as_deref() == Some("meeple_placed") && f.as_deref() == Some("large")));
}

#[test]
fn the_builder_and_the_pig_are_marked_in_the_figure_column_and_goods_in_the_scores() {
    // Given the two-player Traders & Builders sample
    let log =
        read_log(&std::fs::read(logs_dir().join("sim-2p-traders-builders-mixed.jsonl")).unwrap())
            .unwrap();
    let count = |want: carc_events::Figure| {
        log.events
            .iter()
            .filter(|(_, e)| {
                matches!(e.event, carc_events::Event::MeeplePlaced { figure, .. } if figure == want)
            })
            .count()
    };
    let (builders, pigs) = (
        count(carc_events::Figure::Builder),
        count(carc_events::Figure::Pig),
    );
    assert!(builders > 0 && pigs > 0);
    // When it is exported
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tables");
    export(&[GameInput::new(log)], &out, 1, small_parts());
    // Then `figure` says `builder` and `pig` on exactly their rows
    let moves = read_table(&out, Table::Moves);
    let figures: Vec<Option<String>> = moves.iter().flat_map(|b| strs(b, "figure")).collect();
    let with = |w: &str| figures.iter().filter(|f| f.as_deref() == Some(w)).count();
    assert_eq!((with("builder"), with("pig")), (builders, pigs));
    // And the scores carry the goods majorities (the kind in `detail`) and the pig's points
    let scores = read_table(&out, Table::Scores);
    let rows: Vec<(Option<String>, Option<String>)> = scores
        .iter()
        .flat_map(|b| strs(b, "source").into_iter().zip(strs(b, "detail")))
        .collect();
    let goods: Vec<_> = rows
        .iter()
        .filter(|(s, _)| s.as_deref() == Some("goods"))
        .map(|(_, d)| d.clone().unwrap_or_default())
        .collect();
    assert_eq!(goods, ["wine", "grain", "cloth"]);
    assert!(rows.iter().any(|(s, _)| s.as_deref() == Some("pig")));
}

#[test]
fn the_documentation_describes_every_column() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/tables.md"))
            .unwrap();
    for table in Table::ALL {
        let heading = format!("### `{}`", table.name());
        let start = doc
            .find(&heading)
            .unwrap_or_else(|| panic!("docs/tables.md has no section {heading}"));
        let section = &doc[start + heading.len()..];
        let section = &section[..section.find("\n### ").unwrap_or(section.len())];
        for field in table.schema().fields() {
            assert!(
                section.contains(&format!("| `{}` |", field.name())),
                "docs/tables.md, {heading}: no row for column {}",
                field.name()
            );
        }
    }
}

#[test]
fn the_move_quality_given_fills_its_columns_and_leaves_them_null_otherwise() {
    use arrow_array::types::Float64Type;
    use carc_tables::{GameQuality, JudgedMove};
    // Given the short sample game twice: once with a judged turn (event 24, Brandt's edge
    // monastery) and each seat's accuracy, once with no quality
    let log = sample_logs()
        .into_iter()
        .find(|l| l.header.game == "short-game-rulings")
        .unwrap();
    let mut judged = GameInput::new(log.clone());
    judged.quality = Some(GameQuality {
        accuracy: vec![Some(91.5), None],
        moves: [(
            24,
            JudgedMove {
                mark: Some("??"),
                win_lost: Some(33.0),
                margin_lost: 13.9,
            },
        )]
        .into(),
    });
    let mut plain = GameInput::new(log);
    plain.log.header.game = "plain".into();
    // When both are exported
    let dir = tempfile::tempdir().unwrap();
    export(&[judged, plain], dir.path(), 2, WriteOptions::default());
    // Then the judged game's seats carry their accuracy, the other game's none
    let players = read_table(dir.path(), Table::Players);
    let accuracy: Vec<Option<f64>> = players
        .iter()
        .flat_map(|b| {
            let c = b
                .column_by_name("accuracy")
                .unwrap()
                .as_primitive::<Float64Type>();
            (0..c.len())
                .map(|i| c.is_valid(i).then(|| c.value(i)))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(accuracy, [Some(91.5), None, None, None]);
    // And only the row of event 24 of the judged game has a mark and what it gave away
    let moves = read_table(dir.path(), Table::Moves);
    let mut marked = Vec::new();
    for b in &moves {
        let games = strs(b, "game");
        let seqs = u64s(b, "seq");
        let marks = strs(b, "mark");
        let win = b
            .column_by_name("win_lost")
            .unwrap()
            .as_primitive::<Float64Type>();
        let margin = b
            .column_by_name("margin_lost")
            .unwrap()
            .as_primitive::<Float64Type>();
        for i in 0..b.num_rows() {
            if let Some(mark) = &marks[i] {
                marked.push((
                    games[i].clone().unwrap(),
                    seqs[i],
                    mark.clone(),
                    win.value(i),
                    margin.value(i),
                ));
            } else {
                assert!(win.is_null(i) && margin.is_null(i));
            }
        }
    }
    assert_eq!(
        marked,
        [(
            "short-game-rulings".to_string(),
            24,
            "??".to_string(),
            33.0,
            13.9
        )]
    );
}
