//! The row groups encoded on worker threads (`carc_tables::encode`) make the very files that
//! one `parquet::arrow::ArrowWriter` per part makes from the same rows: same row groups, same
//! pages, same footer, byte for byte, on any number of threads.

use std::fs::File;
use std::path::Path;

use carc_events::{record_actions, setup_from_header, Color, Header, Log, Player, RulesOptions};
use carc_rules::Game;
use carc_sim::Strategy;
use carc_tables::{
    export_games, game_batches, part_name, ExportOptions, GameInput, Skipped, Table, WriteOptions,
    GAMES_PER_TASK,
};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

fn simulated(seed: u64, players: usize) -> Log {
    let header = Header {
        game: format!("row-groups-{seed}"),
        players: (0..players)
            .map(|i| Player {
                name: format!("P{i}"),
                color: Color::ALL[i],
            })
            .collect(),
        rules: RulesOptions::default(),
        tile_sets: vec!["base".into()],
        bag: None,
        source: None,
        comment: None,
    };
    let setup = || setup_from_header(&header, &[]).unwrap();
    let sim = carc_sim::play(setup(), seed, &[Strategy::Greedy, Strategy::Random]).unwrap();
    record_actions(header.clone(), Game::new(setup()).unwrap(), &sim.actions)
        .unwrap()
        .0
}

/// What the writer did before row groups were encoded elsewhere: one `ArrowWriter` per part,
/// each game's batch written whole, a new part once a part holds `part_rows` rows. The
/// games are given with their index in the export (a skipped game has none here).
fn reference(inputs: &[(usize, &GameInput)], out: &Path, write: WriteOptions) {
    let props = || {
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(write.row_group_rows))
            .build()
    };
    let batches: Vec<_> = inputs
        .iter()
        .map(|&(i, input)| game_batches(i as u64, input, &[]).unwrap().batches)
        .collect();
    for (t, table) in Table::ALL.iter().enumerate() {
        let dir = out.join(table.name());
        std::fs::create_dir_all(&dir).unwrap();
        let (mut parts, mut rows_in_part, mut current) = (0, 0, None);
        for game in &batches {
            let batch = &game[t];
            if batch.num_rows() == 0 {
                continue;
            }
            let writer = current.get_or_insert_with(|| {
                let file = File::create(dir.join(part_name(parts))).unwrap();
                parts += 1;
                rows_in_part = 0;
                ArrowWriter::try_new(file, table.schema(), Some(props())).unwrap()
            });
            writer.write(batch).unwrap();
            rows_in_part += batch.num_rows() as u64;
            if rows_in_part >= write.part_rows {
                current.take().unwrap().close().unwrap();
            }
        }
        if parts == 0 {
            let file = File::create(dir.join(part_name(0))).unwrap();
            current = Some(ArrowWriter::try_new(file, table.schema(), Some(props())).unwrap());
        }
        if let Some(writer) = current {
            writer.close().unwrap();
        }
    }
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for table in Table::ALL {
        let mut names: Vec<_> = std::fs::read_dir(dir.join(table.name()))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for f in names {
            let name = format!(
                "{}/{}",
                table.name(),
                f.file_name().unwrap().to_string_lossy()
            );
            out.push((name, std::fs::read(&f).unwrap()));
        }
    }
    out
}

#[test]
fn encoded_row_groups_give_the_files_one_arrow_writer_per_part_gives() {
    // Given simulated games (about 200 moves each), enough for four workers to replay a task
    // each of `GAMES_PER_TASK` games (whose rows are joined into one batch per table), one in
    // the middle of the first task that cannot be read, and one whose loading panics (a bug;
    // the task's other games must still be written)
    let count = 3 * GAMES_PER_TASK + 4;
    let (unreadable, panics) = (5, GAMES_PER_TASK - 1);
    let inputs: Vec<GameInput> = (1..=count as u64)
        .map(|seed| GameInput::new(simulated(seed, 2 + seed as usize % 3)))
        .collect();
    let readable: Vec<(usize, &GameInput)> = inputs
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != unreadable && i != panics)
        .collect();
    // … and row groups and parts that cut through games, parts not a whole number of groups
    for (write, several_parts) in [
        (
            WriteOptions {
                row_group_rows: 150,
                part_rows: 700,
            },
            true,
        ),
        (WriteOptions::default(), false),
    ] {
        let dir = tempfile::tempdir().unwrap();
        reference(&readable, &dir.path().join("reference"), write);
        let want = files(&dir.path().join("reference"));
        assert_eq!(
            want.len() > Table::ALL.len(),
            several_parts,
            "{}",
            want.len()
        );
        // (tasks of `GAMES_PER_TASK` games, and as many as the export chooses: 6 games on one
        // thread, 1 on four)
        let runs = [1, 4]
            .into_iter()
            .flat_map(|t| [(t, Some(GAMES_PER_TASK)), (t, None)]);
        for (threads, games_per_task) in runs {
            // When they are exported with the row groups encoded on worker threads
            let out = dir
                .path()
                .join(format!("threads-{threads}-{games_per_task:?}"));
            let options = ExportOptions {
                threads: Some(threads),
                write,
                games_per_task,
            };
            let summary = export_games(
                inputs.len(),
                |i| match i {
                    i if i == unreadable => Err("unreadable".to_string()),
                    i if i == panics => panic!("a bug in loading game {i}"),
                    i => Ok(inputs[i].clone()),
                },
                &[],
                &out,
                &options,
                || {},
            )
            .unwrap();
            assert_eq!(summary.games, inputs.len() - 2);
            assert_eq!(
                summary.skipped,
                [
                    Skipped {
                        index: unreadable,
                        why: "unreadable".into()
                    },
                    Skipped {
                        index: panics,
                        why: "internal error: the replay panicked".into()
                    }
                ]
            );
            // Then every file is the one `ArrowWriter` writes, byte for byte
            let got = files(&out);
            let names = |f: &[(String, Vec<u8>)]| f.iter().map(|x| x.0.clone()).collect::<Vec<_>>();
            assert_eq!(names(&got), names(&want), "{write:?}");
            for ((name, a), (_, b)) in got.iter().zip(&want) {
                assert!(
                    a == b,
                    "{name} differs ({write:?}, {threads} threads, {games_per_task:?} a task)"
                );
            }
        }
    }
}
