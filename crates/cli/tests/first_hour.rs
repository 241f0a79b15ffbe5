//! A new player's first hour (issue 32): what the README tells them to run works, and what the
//! program says is right and means something to a player.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use common::{carc, game_id, logs_dir, stderr, stdout};
use serde_json::Value;

fn sample_logs() -> Vec<std::path::PathBuf> {
    let mut logs: Vec<_> = fs::read_dir(logs_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    logs.sort();
    logs
}

#[test]
fn every_sample_log_has_a_game_id_of_its_own() {
    // Given the sample logs of the repository
    let logs = sample_logs();
    assert!(logs.len() >= 13, "{logs:?}");
    // When their game ids are read
    let mut seen = BTreeSet::new();
    for log in &logs {
        // Then no two share one
        let id = game_id(log);
        assert!(
            seen.insert(id.clone()),
            "{} reuses the id {id}",
            log.display()
        );
    }
}

#[test]
fn the_readmes_import_of_the_samples_then_games_succeeds() {
    // Given an empty store
    let tmp = tempfile::tempdir().unwrap();
    let logs = logs_dir();
    let logs = logs.to_str().unwrap();
    // When the README's `carc import logs/ && carc games` runs
    let import = carc(&["import", logs], tmp.path());
    // Then both succeed and every sample is listed once
    assert!(
        import.status.success(),
        "{}{}",
        stdout(&import),
        stderr(&import)
    );
    let games = carc(&["games"], tmp.path());
    assert!(games.status.success(), "{}", stderr(&games));
    assert_eq!(
        stdout(&games).lines().count(),
        sample_logs().len(),
        "{}",
        stdout(&games)
    );
}

#[test]
fn simulations_that_differ_in_anything_but_the_seed_get_different_ids() {
    // Given one seed and set-ups that differ in players, strategies, expansions, rules and map
    let tmp = tempfile::tempdir().unwrap();
    let setups: [&[&str]; 10] = [
        &[],
        &["--players", "3"],
        &["--strategy", "greedy"],
        &["--strategy", "greedy,random"],
        &["--expansions", "anniversary"],
        &["--expansions", "anniversary,gifts"],
        &["--no-farmers"],
        &["--two-tile-city", "2"],
        &["--map", "germany"],
        &["--map", "germany", "--start-squares", "3"],
    ];
    let mut ids = BTreeSet::new();
    for (i, extra) in setups.iter().enumerate() {
        // When each is simulated with seed 7
        let out = format!("g{i}.jsonl");
        let mut args = vec!["simulate", "--seed", "7", "--out", &out];
        args.extend_from_slice(extra);
        let o = carc(&args, tmp.path());
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        let id = game_id(&tmp.path().join(&out));
        // Then each id is new, names the seed, and the same simulation gets the same id again
        assert!(id.starts_with("sim-s7-"), "{id}");
        assert!(
            ids.insert(id.clone()),
            "{extra:?} got the id {id} of another set-up"
        );
        let o = carc(&[&args[..4], &["again.jsonl"], extra].concat(), tmp.path());
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(game_id(&tmp.path().join("again.jsonl")), id);
    }
}

const ABBOT: &str = "sim-3p-abbot-mixed.jsonl";

/// The text of a Markdown report's "Final scoring" section (empty when it has none).
fn final_scoring(md: &str) -> &str {
    md.split_once("\n## Final scoring\n")
        .map_or("", |(_, rest)| rest.split("\n## ").next().unwrap_or(""))
}

#[test]
fn the_abbot_taken_back_scores_during_play_on_every_surface() {
    // Given the Abbot sample, where Cleo takes the abbot back at event 46
    let dir = logs_dir();
    // When the event is explained as JSON
    let o = carc(&["explain", ABBOT, "--at", "46", "--json"], &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    // Then the take-back's score happened during play
    assert_eq!(v["scores"][0]["rule"], "abbot.take-back", "{v}");
    assert_eq!(v["scores"][0]["when"], "completed", "{v}");
    // And the Markdown report lists it under its turn, never under "Final scoring"
    let o = carc(&["export", ABBOT, "--format", "md"], &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = stdout(&o);
    assert!(md.contains("abbot taken back"), "{md}");
    assert!(!final_scoring(&md).is_empty(), "{md}");
    assert!(!final_scoring(&md).contains("abbot taken back"), "{md}");
    // And a game in progress just after the take-back has no final scoring at all
    let tmp = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(dir.join(ABBOT)).unwrap();
    let part: Vec<&str> = text.lines().take(47).collect();
    fs::write(tmp.path().join("part.jsonl"), part.join("\n") + "\n").unwrap();
    for format in [&["md"][..], &["html", "--static"]] {
        let o = carc(
            &[&["export", "part.jsonl", "--out", "r", "--format"], format].concat(),
            tmp.path(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let report = fs::read_to_string(tmp.path().join("r")).unwrap();
        assert!(report.contains("abbot taken back"), "{format:?}");
        assert!(!report.contains("Final scoring"), "{format:?}: {report}");
    }
}

#[test]
fn the_readme_names_the_abbot_and_its_sample() {
    // Given the README
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")).unwrap();
    // Then the list of what is implemented names The Abbot, and the sample table its log
    let implemented = readme
        .split_once("Implemented now:")
        .map(|(_, rest)| rest.split("\n\n").next().unwrap())
        .unwrap();
    assert!(implemented.contains("The Abbot"), "{implemented}");
    let samples = readme.split_once("## Sample logs").unwrap().1;
    assert!(samples.contains(ABBOT), "{samples}");
    // And every sample log is in the table
    for log in sample_logs() {
        let name = log.file_name().unwrap().to_str().unwrap().to_string();
        assert!(
            samples.contains(&name),
            "{name} is missing from the README's table"
        );
    }
}

#[test]
fn the_store_docs_list_every_expansion_record_new_takes() {
    // Given `carc record new --help`, which names the expansions it records
    let tmp = tempfile::tempdir().unwrap();
    let help = stdout(&carc(&["record", "new", "--help"], tmp.path()));
    assert!(help.contains("abbot"), "{help}");
    // Then docs/store-cli.md's synopsis of `record new` names them too
    let docs =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/store-cli.md"))
            .unwrap();
    let synopsis = docs
        .lines()
        .find(|l| l.starts_with("carc record new"))
        .unwrap();
    assert!(synopsis.contains("anniversary"), "{synopsis}");
    assert!(synopsis.contains("abbot"), "{synopsis}");
}

#[test]
fn games_names_the_map_of_a_game_on_a_map() {
    // Given a store with a base game and a game on the Germany map
    let tmp = tempfile::tempdir().unwrap();
    let dir = logs_dir();
    for log in [
        "sim-2p-germany-greedy-vs-random.jsonl",
        "sim-3p-greedy.jsonl",
    ] {
        let o = carc(&["import", dir.join(log).to_str().unwrap()], tmp.path());
        assert!(o.status.success(), "{}", stderr(&o));
    }
    // When the games are listed
    let o = carc(&["games"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let listed = stdout(&o);
    // Then the map game says its map, and only the game without one says it is the base game
    let map_game = listed
        .lines()
        .find(|l| l.contains("Ada, Brandt ["))
        .unwrap();
    assert!(map_game.contains("[germany map]"), "{listed}");
    let base = listed.lines().find(|l| l.contains("Cleo")).unwrap();
    assert!(base.contains("[base]"), "{listed}");
    // And --json carries the map's name for the map game only
    let o = carc(&["games", "--json"], tmp.path());
    let maps: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["map"].clone())
        .collect();
    assert!(maps.contains(&Value::from("germany")), "{maps:?}");
    assert!(maps.contains(&Value::Null), "{maps:?}");
}

#[test]
fn a_missing_file_says_its_os_error_once() {
    // Given a file name that names nothing
    let tmp = tempfile::tempdir().unwrap();
    for verb in ["check", "explain", "replay", "legal"] {
        // When a verb is asked to read it
        let o = carc(&[verb, "no-such.jsonl"], tmp.path());
        // Then it fails saying the OS error once
        assert!(!o.status.success(), "{verb}");
        let said = format!("{}{}", stdout(&o), stderr(&o));
        assert!(said.contains("no-such.jsonl"), "{verb}: {said}");
        assert_eq!(
            said.matches("No such file or directory").count(),
            1,
            "{verb}: {said}"
        );
    }
}

#[test]
fn html_is_not_poured_onto_a_terminal() {
    // Given a terminal for stdout: util-linux `script` runs carc in a pseudo-terminal (where it
    // is missing, there is nothing to run the check in)
    let log = logs_dir().join("short-game-rulings.jsonl");
    let command = format!(
        "{} export {} --format html",
        env!("CARGO_BIN_EXE_carc"),
        log.display()
    );
    let Ok(o) = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
    else {
        eprintln!("no `script` here: the terminal case is not checked");
        return;
    };
    // When the HTML report is exported without --out
    let shown = stdout(&o);
    // Then no page is written there, and the refusal says how to get one
    assert_eq!(o.status.code(), Some(2), "{shown}");
    assert!(
        !shown.contains("<html") && !shown.contains("<!DOCTYPE"),
        "{shown}"
    );
    assert!(shown.len() < 1000, "{} bytes", shown.len());
    assert!(shown.contains("--out"), "{shown}");
    // And piped (not a terminal), the page still goes to stdout
    let o = carc(
        &["export", log.to_str().unwrap(), "--format", "html"],
        Path::new("."),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("<html"));
}

#[test]
fn import_of_a_folder_names_the_sub_folders_it_skips() {
    // Given a folder holding only sub-folders of logs
    let tmp = tempfile::tempdir().unwrap();
    let games = tmp.path().join("games");
    fs::create_dir_all(games.join("2024")).unwrap();
    fs::copy(
        logs_dir().join("short-game-rulings.jsonl"),
        games.join("2024/g.jsonl"),
    )
    .unwrap();
    // When it is imported
    let o = carc(&["import", "games"], tmp.path());
    // Then it says that it looked at no sub-folder, naming it
    let said = format!("{}{}", stdout(&o), stderr(&o));
    assert!(said.contains("2024"), "{said}");
    assert!(said.contains("sub-folder"), "{said}");
}

/// The README's examples whose output it shows: each fenced block that opens with a line
/// `$ carc ARGS…`, as (ARGS, the lines shown after it).
fn readme_examples(readme: &str) -> Vec<(Vec<String>, String)> {
    let mut examples = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if !line.starts_with("```") {
            continue;
        }
        let block: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        if let Some(command) = block.first().and_then(|l| l.strip_prefix("$ carc ")) {
            let args = command.split_whitespace().map(str::to_string).collect();
            let shown = block[1..].iter().map(|l| format!("{l}\n")).collect();
            examples.push((args, shown));
        }
    }
    examples
}

#[test]
fn every_output_the_readme_shows_is_what_carc_prints() {
    // Given the README's examples that show their output, run from the repository's root
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let examples = readme_examples(&readme);
    // Then the score audit trail it shows is one of them (not an unchecked block)
    assert!(
        examples
            .iter()
            .any(|(_, shown)| shown.contains("why it is legal")),
        "the README's `carc explain` output is not shown as `$ carc …` and its output"
    );
    for (args, shown) in &examples {
        // When each is run
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = carc(&args, &root);
        // Then it succeeds and prints exactly what the README shows
        assert!(o.status.success(), "carc {args:?}: {}", stderr(&o));
        assert_eq!(&stdout(&o), shown, "carc {}", args.join(" "));
    }
}

#[test]
fn a_feature_has_one_name_from_its_meeple_placed_to_its_meeple_returned() {
    // Given the hand-written sample with Ada's meeple put on "city W", another name of the city
    // the rules call "city S" (tile N at (0,1) turned 180°: one city on its south and west)
    let tmp = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(logs_dir().join("short-game-rulings.jsonl")).unwrap();
    let placed = r#""seq":4,"type":"meeple_placed","player":0,"on":"city S""#;
    assert!(text.contains(placed));
    let alias = text.replace(placed, &placed.replace("city S", "city W"));
    fs::write(tmp.path().join("alias.jsonl"), alias).unwrap();
    // When the placement and the scoring that returns the meeple are explained
    let at = |n: &str| stdout(&carc(&["explain", "alias.jsonl", "--at", n], tmp.path()));
    let (placement, scoring) = (at("4"), at("19"));
    // Then both name the city the same way
    assert!(
        placement.contains("Ada placed a meeple on city S"),
        "{placement}"
    );
    assert!(scoring.contains("Ada from city S at (0,1)"), "{scoring}");
    // And so does the report, everywhere
    let o = carc(&["export", "alias.jsonl", "--format", "md"], tmp.path());
    let md = stdout(&o);
    assert!(md.contains("Ada placed a meeple on city S"), "{md}");
    assert!(!md.contains("city W"), "{md}");
}

#[test]
fn the_abbot_taken_back_has_no_majority() {
    // Given the Abbot sample, where Cleo takes the abbot back at event 46
    let o = carc(&["explain", ABBOT, "--at", "46"], &logs_dir());
    let text = stdout(&o);
    // Then the garden is called a garden, never a monastery
    assert!(
        text.contains("scored at once as an incomplete garden"),
        "{text}"
    );
    assert!(!text.contains("monastery"), "{text}");
    // And the score is Cleo's abbot's, with no majority among meeples
    assert!(!text.contains("majority"), "{text}");
    assert!(!text.contains("meeples: Cleo 1"), "{text}");
    assert!(text.contains("    abbot: Cleo\n"), "{text}");
    assert!(text.contains("    scored by: Cleo (+"), "{text}");
}

#[test]
fn a_field_is_named_by_its_corner_for_people_and_by_its_port_for_programs() {
    // Given the hand-written sample, where Brandt puts a farmer on the field the log spells
    // "field Nw" (event 13); the field, named by its first tile's "field En", scores at the end
    // (event 34)
    let dir = logs_dir();
    let log = "short-game-rulings.jsonl";
    assert!(fs::read_to_string(dir.join(log))
        .unwrap()
        .contains(r#""seq":13,"type":"meeple_placed","player":1,"on":"field Nw""#));
    // When the placement and the final scoring are explained, and the game is reported
    let placed = stdout(&carc(&["explain", log, "--at", "13"], &dir));
    let scored = stdout(&carc(&["explain", log, "--at", "34"], &dir));
    let md = stdout(&carc(&["export", log, "--format", "md"], &dir));
    // Then people read the field's corner, never a port's two letters
    assert!(
        placed.contains("Brandt placed a meeple on field, north-west"),
        "{placed}"
    );
    assert!(
        scored.contains("field (final scoring) field, north-east at (0,0)"),
        "{scored}"
    );
    assert!(
        scored.contains("Brandt from field, north-west at (1,0)"),
        "{scored}"
    );
    for text in [&placed, &scored, &md] {
        for port in ["Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"] {
            assert!(
                !text.contains(&format!("field {port}")),
                "field {port} in {text}"
            );
        }
    }
    // And programs keep the log's spelling: explain --json and legal --json
    let json = stdout(&carc(&["explain", log, "--at", "34", "--json"], &dir));
    assert!(json.contains(r#""on":"field Nw""#), "{json}");
    let legal = stdout(&carc(&["legal", log, "--at", "12", "--json"], &dir));
    assert!(legal.contains(r#""field Nw""#), "{legal}");
    // And the human list of legal spots gives the spelling `carc record meeple` takes
    let legal = stdout(&carc(&["legal", log, "--at", "12"], &dir));
    assert!(
        legal.contains("  field, north-west (field Nw)\n"),
        "{legal}"
    );
}

#[test]
fn one_simulated_game_says_who_played_it_and_how_it_ended() {
    // Given a three-player simulation with the strategies cycled over the seats
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "simulate",
        "--seed",
        "7",
        "--players",
        "3",
        "--strategy",
        "greedy,random",
        "--out",
        "g.jsonl",
    ];
    // When it runs
    let o = carc(&args, tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    // Then it prints the game's id and each seat with its strategy and final score
    let said = stdout(&o);
    let id = game_id(&tmp.path().join("g.jsonl"));
    let (before, scores) = said
        .trim_end()
        .split_once(": final scores ")
        .unwrap_or_else(|| panic!("{said}"));
    assert_eq!(before, id, "{said}");
    let seats: Vec<(&str, &str, u64)> = scores
        .split(", ")
        .map(|seat| {
            let (name, rest) = seat.split_once(" (").unwrap();
            let (strategy, score) = rest.split_once(") ").unwrap();
            (name, strategy, score.parse().unwrap())
        })
        .collect();
    let names: Vec<(&str, &str)> = seats.iter().map(|(n, s, _)| (*n, *s)).collect();
    assert_eq!(
        names,
        [("Ada", "greedy"), ("Brandt", "random"), ("Cleo", "greedy")]
    );
    // And the scores are the ones the log's check gives
    let o = carc(&["check", "--json", "g.jsonl"], tmp.path());
    let report: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let checked: Vec<u64> = report["final_scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_u64().unwrap())
        .collect();
    let printed: Vec<u64> = seats.iter().map(|(_, _, s)| *s).collect();
    assert_eq!(printed, checked);
    // And a batch prints no line per game (its results are in its files)
    let o = carc(&["simulate", "--games", "2", "--out", "batch"], tmp.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}
