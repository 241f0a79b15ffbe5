//! The 20th Anniversary additions to the log format and the bridge: the two arrow events
//! decode strictly with line numbers and write back byte-identically; base-game samples are
//! untouched; the header's `"anniversary"` expansion reaches the rules setup.

use std::path::PathBuf;

use carc_events::{
    event_to_action, game_from_header, read_log, setup_from_header, write_log, ArrowMeepleAction,
    ArrowSymbol, Event, Pos, SetupError,
};
use carc_rules::{Action, Effects, RuleViolation};

const HEADER: &str = r#"{"format":"carcassonne-log","version":1,"game":"a1","players":[{"name":"Ada","color":"red"},{"name":"Bo","color":"blue"}],"rules":{"expansions":["anniversary"],"farmers":true,"two_tile_city":4,"meeples":7},"tile_sets":["base","anniversary"],"bag":{"20H":1,"20O":1,"B":1,"D":1}}"#;

/// Seat 0 lays 20H south of D (its portal arrow points east at the empty (1,-1): 2 points);
/// seat 1 fills (1,-1) with 20O turned so its extra-turn arrow points back west at 20H, chooses
/// the portal and sends a meeple to D's city.
const BODY: &str = r#"{"seq":1,"type":"start_placed","tile":"D","at":[0,0],"rotation":0}
{"seq":2,"type":"tile_drawn","player":0,"tile":"20H"}
{"seq":3,"type":"tile_placed","player":0,"tile":"20H","at":[0,-1],"rotation":0}
{"seq":4,"type":"meeple_skipped","player":0}
{"seq":5,"type":"tile_drawn","player":1,"tile":"20O"}
{"seq":6,"type":"tile_placed","player":1,"tile":"20O","at":[1,-1],"rotation":180}
{"seq":7,"type":"arrow_chosen","player":1,"at":[0,-1],"symbol":"portal"}
{"seq":8,"type":"arrow_meeple_placed","player":1,"action":"portal","at":[0,0],"on":"city N"}
"#;

fn log_text() -> String {
    format!("{HEADER}\n{BODY}")
}

fn logs_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../logs")
}

#[test]
fn arrow_events_decode_and_write_back_byte_identically() {
    let text = log_text();
    let log = read_log(text.as_bytes()).unwrap();
    assert_eq!(
        log.events[6].1.event,
        Event::ArrowChosen {
            player: 1,
            at: Pos::new(0, -1),
            symbol: ArrowSymbol::Portal
        }
    );
    assert_eq!(
        log.events[7].1.event,
        Event::ArrowMeeplePlaced {
            player: 1,
            action: ArrowMeepleAction::Portal,
            at: Pos::new(0, 0),
            on: "city N".parse().unwrap()
        }
    );
    assert_eq!(write_log(&log), text);
}

#[test]
fn every_sample_log_writes_back_byte_identically() {
    let mut n = 0;
    for entry in std::fs::read_dir(logs_dir()).unwrap() {
        let path = entry.unwrap().path();
        // Games only: logs/ also holds the tour's moves (`city-north.moves`), and the tour
        // writes annotations and variations beside a sample.
        let name = path.to_string_lossy();
        if !name.ends_with(".jsonl")
            || name.ends_with(".annotations.jsonl")
            || name.ends_with(".variations.jsonl")
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let log = read_log(text.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(write_log(&log), text, "{}", path.display());
        n += 1;
    }
    assert!(n >= 7);
}

#[track_caller]
fn decode_error(line8: &str) -> String {
    let text = log_text().replace(
        r#"{"seq":8,"type":"arrow_meeple_placed","player":1,"action":"portal","at":[0,0],"on":"city N"}"#,
        line8,
    );
    let err = read_log(text.as_bytes()).unwrap_err();
    assert_eq!(err.line, 9, "{err}");
    err.to_string()
}

#[test]
fn bad_arrow_lines_are_decoding_errors_with_their_line() {
    let e = decode_error(
        r#"{"seq":8,"type":"arrow_meeple_placed","player":1,"action":"extra_turn","at":[0,0],"on":"city N"}"#,
    );
    assert!(
        e.contains("unknown variant `extra_turn`, expected `companion` or `portal`"),
        "{e}"
    );
    let e = decode_error(
        r#"{"seq":8,"type":"arrow_chosen","player":1,"at":[0,-1],"symbol":"teleport"}"#,
    );
    assert!(
        e.contains(
            "unknown variant `teleport`, expected one of `companion`, `portal`, `extra_turn`"
        ),
        "{e}"
    );
    let e = decode_error(r#"{"seq":8,"type":"arrow_chosen","player":1,"at":[0,-1]}"#);
    assert!(e.contains("missing field `symbol`"), "{e}");
    let e = decode_error(
        r#"{"seq":8,"type":"arrow_meeple_placed","player":1,"action":"portal","at":[0,0],"on":"castle N"}"#,
    );
    assert!(e.contains("expected \"city <side>\""), "{e}");
    let e =
        decode_error(r#"{"seq":8,"type":"arrow_chosen","player":5,"at":[0,-1],"symbol":"portal"}"#);
    assert!(e.contains("player 5"), "{e}");
    let e = decode_error(
        r#"{"seq":8,"type":"arrow_chosen","player":1,"at":[0,-1],"symbol":"portal","why":1}"#,
    );
    assert!(e.contains("unknown field `why`"), "{e}");
}

#[test]
fn the_anniversary_expansion_reaches_the_rules_setup() {
    let log = read_log(log_text().as_bytes()).unwrap();
    let setup = setup_from_header(&log.header, &[]).unwrap();
    assert!(setup.options.anniversary);
    assert!(setup.tiles.find("20H").is_some());

    let mut header = log.header.clone();
    header.rules.expansions = vec!["anniversary".into(), "map".into()];
    assert_eq!(
        setup_from_header(&header, &[]).unwrap_err().to_string(),
        "expansion \"map\" is not supported by this version of carc (supported: abbot, anniversary, gifts, inns_cathedrals, river, traders_builders)"
    );
    header.rules.expansions = vec!["anniversary".into(), "anniversary".into()];
    assert!(matches!(
        setup_from_header(&header, &[]).unwrap_err(),
        SetupError::DuplicateExpansion(_)
    ));
    header.rules.expansions = vec!["anniversary".into()];
    header.tile_sets = vec!["base".into()];
    header.bag = None;
    assert_eq!(
        setup_from_header(&header, &[]).unwrap_err().to_string(),
        "expansion \"anniversary\" needs a tile set with arrow tiles in tile_sets, e.g. [\"base\",\"anniversary\"]"
    );
    // The arrow tiles without the expansion named: the rules refuse the setup.
    header.rules.expansions = vec![];
    header.tile_sets = vec!["base".into(), "anniversary".into()];
    let err = game_from_header(&header, &[]).unwrap_err();
    assert!(
        err.to_string()
            .contains("carries an arrow, but the anniversary expansion is not on"),
        "{err}"
    );
}

#[test]
fn the_bridge_checks_the_named_symbol_and_round_trips_arrow_actions() {
    let log = read_log(log_text().as_bytes()).unwrap();
    let mut game = game_from_header(&log.header, &[]).unwrap();
    let mut fx = Effects::default();
    for (_, env) in &log.events[..6] {
        let action = event_to_action(&game, &env.event).unwrap();
        game.apply(&action, &mut fx).unwrap();
    }
    // A choice that names the wrong symbol for the tile at (0,-1)
    let wrong = Event::ArrowChosen {
        player: 1,
        at: Pos::new(0, -1),
        symbol: ArrowSymbol::Companion,
    };
    let err = event_to_action(&game, &wrong).unwrap_err();
    assert_eq!(
        err,
        RuleViolation::ArrowSymbolMismatch {
            at: carc_rules::Pos::new(0, -1),
            named: carc_rules::ArrowSymbol::Companion,
            actual: carc_rules::ArrowSymbol::Portal
        }
    );
    assert_eq!(err.rule(), "anniversary.arrow.activated");
    // The recorded events become actions and back into the same events
    for (_, env) in &log.events[6..] {
        let action = event_to_action(&game, &env.event).unwrap();
        assert!(matches!(
            action,
            Action::ChooseArrow { .. } | Action::PlaceArrowMeeple { .. }
        ));
        assert_eq!(carc_events::action_to_event(&game, &action), env.event);
        game.apply(&action, &mut fx).unwrap();
    }
    assert_eq!(game.scores(), &[2, 0]);
    assert_eq!(game.supply(), &[7, 6]);
}
