//! `carc record` with The Gifts (issue 36): a sample game with gifts entered through the
//! verbs (as record-shell lines) is stored event for event as the sample; the hints name the
//! gift verbs when a card is due, can be opened, or Take 2 waits for its returned tile; wrong
//! gift moves are refused plainly and store nothing; `undo --turn` takes a gift back with its
//! turn.

mod common;

use std::path::Path;
use std::process::Output;

use common::{carc_with_store, logs_dir, stderr, stdout};
use serde_json::Value;

const SAMPLE: &str = "sim-3p-anniversary-gifts-mixed.jsonl";

/// The record shell on game `g` with `input` on its stdin.
fn shell(store: &Path, input: &str) -> Output {
    common::record_shell(store, "g", input)
}

fn verb(store: &Path, args: &[&str]) -> Output {
    let mut all = vec!["record"];
    all.extend_from_slice(args);
    carc_with_store(store, &all)
}

fn refused(store: &Path, args: &[&str]) -> String {
    let o = verb(store, args);
    assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stdout(&o));
    stderr(&o)
}

fn raw(store: &Path) -> Vec<u8> {
    let o = carc_with_store(store, &["export", "--raw", "g"]);
    assert!(o.status.success(), "{}", stderr(&o));
    o.stdout
}

/// The sample's header and its events (the assertion lines left out).
fn sample() -> (Value, Vec<Value>) {
    let text = std::fs::read_to_string(logs_dir().join(SAMPLE)).unwrap();
    let mut lines = text.lines().map(|l| serde_json::from_str(l).unwrap());
    let header: Value = lines.next().unwrap();
    let events = lines.filter(|e: &Value| e.get("seq").is_some()).collect();
    (header, events)
}

/// The record-shell line that enters `event` (a move after the start tile).
fn line_of(e: &Value) -> String {
    let s = |k: &str| e[k].as_str().unwrap().to_string();
    let at = |k: &str| format!("{} {}", e[k][0], e[k][1]);
    match e["type"].as_str().unwrap() {
        "tile_drawn" => format!("draw {}", s("tile")),
        "tile_placed" => format!("place {} {}", at("at"), e["rotation"]),
        "meeple_placed" => format!("meeple '{}'", s("on")),
        "meeple_skipped" => "meeple none".into(),
        "arrow_meeple_placed" => format!("arrow-meeple {} {} '{}'", s("action"), at("at"), s("on")),
        "gift_received" => format!("gift {}", s("card")),
        // The target as the verb takes it: the square, then the spots; Synod's square names
        // its monastery.
        "gift_opened" => {
            let mut words = vec![s("card")];
            if e.get("at").is_some() {
                words.push(at("at"));
            }
            if s("card") != "synod" {
                words.extend(e.get("on").map(|_| format!("'{}'", s("on"))));
            }
            words.extend(e.get("to").map(|_| format!("'{}'", s("to"))));
            format!("open {}", words.join(" "))
        }
        "tile_returned" => format!("return {}", s("tile")),
        other => panic!("the sample has a {other} event this test does not enter"),
    }
}

/// The game's events as stored, as JSON values.
fn stored_events(store: &Path) -> Vec<Value> {
    let o = carc_with_store(store, &["export", "g", "--game-only"]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `new` with the sample's players and expansions, then the sample's moves up to (not
/// including) the event `until` (all when `None`).
fn entered(store: &Path, until: Option<u64>) -> Output {
    shell(store, &sample_lines(until, &[]))
}

/// The shell lines of [`entered`], with `extra` lines put in before the given events.
fn sample_lines(until: Option<u64>, extra: &[(u64, &str)]) -> String {
    let (header, events) = sample();
    let names: Vec<&str> = header["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let expansions: Vec<&str> = header["rules"]["expansions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    let mut input = format!(
        "new --players {} --expansions {}\n",
        names.join(","),
        expansions.join(",")
    );
    for e in &events[1..] {
        if until.is_some_and(|u| e["seq"].as_u64() == Some(u)) {
            break;
        }
        for (_, line) in extra
            .iter()
            .filter(|(seq, _)| e["seq"].as_u64() == Some(*seq))
        {
            input.push_str(line);
            input.push('\n');
        }
        input.push_str(&line_of(e));
        input.push('\n');
    }
    input
}

#[test]
fn a_gifts_sample_entered_through_the_verbs_is_the_sample_event_for_event() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    // Two wrong lines on the way, each refused with nothing stored: before event 183 the
    // deck holds no Take 2 (all five are out); during Take 2 (event 53), `turn` is no way on.
    let input = sample_lines(
        None,
        &[(183, "gift take_2"), (53, "turn 20H -2 1 270 none")],
    );
    let o = shell(&store, &input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(
            "move refused, not recorded: the gift deck holds no take_2 now; it can deal synod, \
             road_sweeper, change_position, cash_out"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "Take 2 is under way (The Gifts): enter `draw TILE` for the second tile, `return \
             TILE` for the one put back, then `place X Y ROT [SPOT]`"
        ),
        "{err}"
    );
    assert_eq!(err.matches("move refused").count(), 2, "{err}");
    let (_, want) = sample();
    // Every kind of card is received and opened in the sample, and Take 2 returns a tile.
    for card in [
        "synod",
        "road_sweeper",
        "change_position",
        "cash_out",
        "take_2",
    ] {
        for kind in ["gift_received", "gift_opened"] {
            assert!(
                want.iter().any(|e| e["type"] == kind && e["card"] == card),
                "{kind} {card}"
            );
        }
    }
    assert!(want.iter().any(|e| e["type"] == "tile_returned"));
    assert_eq!(stored_events(&store), want);
    let out = stdout(&o);
    // The hints named the gift verbs as they came due.
    for due in [
        "the placement earns Cleo a gift card (The Gifts), before the meeple step; the deck can \
         deal synod, road_sweeper, change_position, cash_out, take_2: carc record gift g CARD, \
         e.g. carc record gift g synod",
        "or first Brandt may open a gift (synod, take_2, 2 ways; `carc legal g --at 51` lists \
         them): carc record open g CARD [X Y SPOT [TO]], e.g. carc record open g synod 0 -1",
        "next: Brandt draws a second tile (Take 2): carc record draw g TILE",
        "next: Brandt puts one of the two Take 2 tiles, 20C or 20H, back into the bag: carc \
         record return g TILE",
    ] {
        assert!(out.contains(due), "{due}");
    }
    // The last tile ends the game: final scores (the unopened gifts among them), sealed.
    assert!(out.contains("final scores"), "{out}");
    let o = verb(&store, &["undo", "g"]);
    assert_ne!(o.status.code(), Some(0), "a sealed game takes no undo");
}

#[test]
fn wrong_gift_moves_are_refused_plainly_and_store_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    // Up to Cleo's C placed at (0,2) (event 9), which earns her a gift: the card is due.
    let o = entered(&store, Some(10));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let due = "next: the placement earns Cleo a gift card (The Gifts)";
    assert!(stdout(&o).lines().last().unwrap().starts_with(due));
    let before = raw(&store);
    for (args, says) in [
        (
            &["gift", "g", "tower"][..],
            "there is no gift card \"tower\"; the cards are synod, road_sweeper, \
             change_position, cash_out, take_2",
        ),
        (
            &["meeple", "g", "none"],
            "no meeple step now: the gift card the current player receives is due",
        ),
        (
            &["open", "g", "take_2"],
            "a gift is opened after drawing and before placing; the gift card the current \
             player receives is due",
        ),
        (
            &["return", "g", "A"],
            "no Take 2 tile to return: the gift card the current player receives is due",
        ),
        (&["draw", "g", "A"], "no tile to draw"),
    ] {
        let err = refused(&store, args);
        assert!(err.contains(says), "{args:?}: {err}");
        // The hint is the stored state's: the card is still due.
        assert!(err.contains(due), "{args:?}: {err}");
    }
    assert_eq!(raw(&store), before, "a refused move stores nothing");
    // Cleo receives Synod; the gift and the meeple step are her turn's.
    let o = verb(&store, &["gift", "g", "Synod"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("event 10: Cleo received a gift: Synod"));
    let o = verb(&store, &["meeple", "g", "none"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Ada draws: she holds no gift, so none opens.
    let o = verb(&store, &["draw", "g", "20O"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("open a gift"), "{}", stdout(&o));
    let err = refused(&store, &["open", "g", "take_2"]);
    assert!(
        err.contains("breaks rule gifts.open: Ada holds no Take 2 gift (their gifts: none)"),
        "{err}"
    );
    let o = verb(&store, &["place", "g", "-1", "1", "0", "none"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Ada's U at (-1,0) extends Brandt's road: `turn` with a spot cannot know the card.
    let err = refused(&store, &["turn", "g", "U", "-1", "0", "90", "none"]);
    assert!(
        err.contains(
            "this placement earns a gift card (The Gifts), which comes before the \
             meeple: leave the spot out, then enter `gift CARD` and `meeple SPOT|none`"
        ),
        "{err}"
    );
    // Without the spot the turn stops at the card due; the card, then undo --turn takes the
    // whole turn back: draw, placement and card.
    let o = verb(&store, &["turn", "g", "U", "-1", "0", "90"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o)
        .lines()
        .last()
        .unwrap()
        .contains("earns Ada a gift card"));
    let o = verb(&store, &["gift", "g", "cash-out"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = verb(&store, &["undo", "g", "--turn"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("3 events in one append"), "{out}");
    assert!(out.contains("Ada received a gift: Cash Out"), "{out}");
    assert!(out
        .lines()
        .last()
        .unwrap()
        .starts_with("next: Ada draws a tile"));
}

#[test]
fn new_takes_the_gifts_which_bring_cards_and_no_tiles() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let o = verb(
        &store,
        &["new", "g", "--players", "Ada,Bo", "--expansions", "gifts"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = carc_with_store(&store, &["export", "g", "--game-only"]);
    let header: Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    assert_eq!(header["rules"]["expansions"], serde_json::json!(["gifts"]));
    assert_eq!(header["tile_sets"], serde_json::json!(["base"]));
}
