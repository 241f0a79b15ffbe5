//! Architecture invariants (ARCHITECTURE.md), checked on the source tree:
//! 1. dependencies between the project's crates point one way;
//! 2. `rules` does no IO, reads no clock, draws no random numbers, iterates no hash maps and
//!    uses no floating point;
//! 3. `store` knows nothing about Carcassonne;
//! 4. only `events` knows the wire format (serde_json) among the library crates below the
//!    binaries (rules reads JSON tile-set files only through its tile-set loader); `jcz` parses
//!    JSON too, but only JCloisterZone's own format: it reaches our log only through
//!    `carc-events` types and never spells our wire format;
//! 5. the viewer's UI crate knows no database, no command line and no window (sled, clap,
//!    eframe and the store stay in the `carc-viewer` shell);
//! 6. `draw` (the board as shapes, shared by the viewer, SVG, PNG and HTML) knows no GUI
//!    toolkit: no egui.
//! 7. the rules of each expansion live in its module of `crates/rules/src/game/`: what only
//!    that expansion's rules use appears in no other file of the game, except at a few named
//!    hook points.
//! 8. no two files of a crate import each other, directly or round a circle (`crate::` paths;
//!    a shared piece moves down instead);
//! 9. no Rust file is over 1,000 lines.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Project crates a manifest depends on in `[dependencies]` (not dev or build dependencies).
fn project_dependencies(manifest: &Path) -> Vec<String> {
    let mut deps: Vec<String> = all_dependencies(manifest)
        .into_iter()
        .filter(|d| d.starts_with("carc-"))
        .collect();
    deps.sort();
    deps
}

fn crate_manifests() -> BTreeMap<String, PathBuf> {
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        if dir.join("Cargo.toml").exists() {
            out.insert(
                format!("carc-{}", dir.file_name().unwrap().to_str().unwrap()),
                dir.join("Cargo.toml"),
            );
        }
    }
    for (name, path) in [
        ("carc-viewer", "viewer/Cargo.toml"),
        ("carc-viewer-ui", "viewer/ui/Cargo.toml"),
    ] {
        let manifest = root().join(path);
        if manifest.exists() {
            out.insert(name.into(), manifest);
        }
    }
    out
}

#[test]
fn dependencies_point_one_way() {
    let allowed: BTreeMap<&str, &[&str]> = [
        ("carc-rules", &[][..]),
        ("carc-events", &["carc-rules"][..]),
        ("carc-replay", &["carc-events", "carc-rules"][..]),
        ("carc-sim", &["carc-rules"][..]),
        ("carc-engine", &["carc-rules", "carc-sim"][..]),
        ("carc-draw", &["carc-rules"][..]),
        ("carc-store", &[][..]),
        ("carc-archive", &["carc-events", "carc-store"][..]),
        (
            "carc-report",
            &["carc-draw", "carc-events", "carc-replay", "carc-rules"][..],
        ),
        (
            "carc-analysis",
            &[
                "carc-engine",
                "carc-events",
                "carc-replay",
                "carc-rules",
                "carc-sim",
            ][..],
        ),
        ("carc-json-position", &[][..]),
        ("carc-in-order", &[][..]),
        (
            "carc-jcz",
            &["carc-events", "carc-json-position", "carc-rules"][..],
        ),
        (
            "carc-bga",
            &["carc-events", "carc-json-position", "carc-rules"][..],
        ),
        (
            "carc-formats",
            &["carc-bga", "carc-events", "carc-jcz", "carc-json-position"][..],
        ),
        (
            "carc-tables",
            &["carc-events", "carc-in-order", "carc-replay", "carc-rules"][..],
        ),
        (
            "carc-cli",
            &[
                "carc-analysis",
                "carc-archive",
                "carc-draw",
                "carc-engine",
                "carc-events",
                "carc-formats",
                "carc-in-order",
                "carc-jcz",
                "carc-report",
                "carc-replay",
                "carc-rules",
                "carc-sim",
                "carc-store",
                "carc-tables",
            ][..],
        ),
        (
            "carc-viewer-ui",
            &[
                "carc-analysis",
                "carc-draw",
                "carc-engine",
                "carc-events",
                "carc-formats",
                "carc-jcz",
                "carc-replay",
                "carc-rules",
                "carc-sim",
            ][..],
        ),
        (
            "carc-viewer",
            &[
                "carc-archive",
                "carc-events",
                "carc-replay",
                "carc-store",
                "carc-viewer-ui",
            ][..],
        ),
    ]
    .into_iter()
    .collect();
    let manifests = crate_manifests();
    assert!(manifests.len() >= 10, "{manifests:?}");
    for (name, manifest) in &manifests {
        let permitted = allowed
            .get(name.as_str())
            .unwrap_or_else(|| panic!("crate {name} is not in the architecture map: add it to ARCHITECTURE.md and this test"));
        for dep in project_dependencies(manifest) {
            assert!(
                permitted.contains(&dep.as_str()),
                "{name} must not depend on {dep} (see ARCHITECTURE.md)"
            );
        }
    }
}

fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(sources(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push((p.clone(), std::fs::read_to_string(&p).unwrap()));
        }
    }
    out
}

#[test]
fn rules_is_pure_and_deterministic() {
    let forbidden = [
        "std::fs",
        "std::io",
        "std::net",
        "std::env",
        "std::time",
        "SystemTime",
        "Instant",
        "rand::",
        "thread_rng",
        "HashMap",
        "HashSet",
        "f32",
        "f64",
        "println!",
        "eprintln!",
    ];
    for (path, text) in sources(&root().join("crates/rules/src")) {
        for word in forbidden {
            assert!(!text.contains(word), "{} uses {word}: rules does no IO, no clock, no randomness, no hash order, no floats", path.display());
        }
    }
}

#[test]
fn the_store_knows_nothing_about_carcassonne() {
    for (path, text) in sources(&root().join("crates/store/src")) {
        for word in [
            "carc_rules",
            "carc_events",
            "meeple",
            "Meeple",
            "tile_placed",
        ] {
            assert!(!text.contains(word), "{} mentions {word}", path.display());
        }
    }
    assert!(project_dependencies(&root().join("crates/store/Cargo.toml")).is_empty());
}

#[test]
fn sim_and_replay_do_not_do_their_own_wire_format() {
    for krate in ["sim", "replay"] {
        for (path, text) in sources(&root().join("crates").join(krate).join("src")) {
            assert!(
                !text.contains("serde_json"),
                "{} parses JSON itself; only events knows the wire format",
                path.display()
            );
        }
    }
}

/// Every crate named in a manifest's `[dependencies]` (project or not).
fn all_dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        let name = line.split(['=', '.', ' ']).next().unwrap_or("");
        if in_deps && !name.is_empty() && !name.starts_with('#') {
            deps.push(name.to_string());
        }
    }
    deps
}

#[test]
fn the_viewer_ui_knows_no_database_command_line_or_window() {
    let manifest = root().join("viewer/ui/Cargo.toml");
    let deps = all_dependencies(&manifest);
    assert!(deps.contains(&"egui".to_string()), "{deps:?}");
    for banned in ["sled", "clap", "eframe", "carc-store", "carc-archive"] {
        assert!(
            !deps.iter().any(|d| d == banned),
            "carc-viewer-ui depends on {banned}; it belongs in the carc-viewer shell (ARCHITECTURE.md)"
        );
    }
    for (path, text) in sources(&root().join("viewer/ui/src")) {
        for word in ["sled::", "clap::", "eframe::", "carc_store", "carc_archive"] {
            assert!(!text.contains(word), "{} uses {word}", path.display());
        }
    }
}

#[test]
fn jcz_and_bga_parse_only_their_own_json_and_not_our_wire_format() {
    // JCloisterZone's saved games and Board Game Arena's replays are JSON of their own, so `jcz`
    // and `bga` may use serde_json; our log's wire format stays in `events`: they build and
    // read `carc_events` values, never lines.
    let spelled = [
        "\"carcassonne-log\"",
        "\"seq\"",
        "\"tile_placed\"",
        "\"meeple_placed\"",
        "\"tile_drawn\"",
        "\"start_placed\"",
        "write_log",
        "read_log",
    ];
    let importers = [root().join("crates/jcz/src"), root().join("crates/bga/src")];
    for (path, text) in importers.iter().flat_map(|dir| sources(dir)) {
        for word in spelled {
            assert!(
                !text.contains(word),
                "{} spells our wire format ({word}); go through carc-events",
                path.display()
            );
        }
    }
}

#[test]
fn draw_knows_no_gui_toolkit() {
    // The board's shapes are shared by the egui viewer and the SVG/PNG/HTML pictures of the
    // command line; egui stays in the viewer, which converts the shapes.
    let manifest = root().join("crates/draw/Cargo.toml");
    let deps = all_dependencies(&manifest);
    assert!(deps.contains(&"carc-rules".to_string()), "{deps:?}");
    for banned in [
        "egui",
        "epaint",
        "ecolor",
        "eframe",
        "egui_plot",
        "winit",
        "glow",
        "wgpu",
    ] {
        assert!(
            !deps.iter().any(|d| d == banned),
            "carc-draw depends on {banned}; it must stay free of GUI toolkits (ARCHITECTURE.md)"
        );
    }
    for (path, text) in sources(&root().join("crates/draw/src")) {
        for word in ["egui::", "epaint::", "ecolor::", "eframe::"] {
            assert!(!text.contains(word), "{} uses {word}", path.display());
        }
    }
}

/// The function each line of `text` belongs to (the last `fn` declared above it, `""` before
/// the first); comment lines get `None` (a comment may name anything).
fn lines_with_function(text: &str) -> Vec<(Option<&str>, &str)> {
    let mut function = "";
    text.lines()
        .map(|line| {
            let code = line.trim_start();
            if code.starts_with("//") {
                return (None, line);
            }
            let mut declaration = code;
            for prefix in ["pub(crate) ", "pub(super) ", "pub ", "const "] {
                declaration = declaration.strip_prefix(prefix).unwrap_or(declaration);
            }
            if let Some(rest) = declaration.strip_prefix("fn ") {
                let end = rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                function = &rest[..end];
            }
            (Some(function), line)
        })
        .collect()
}

/// Whether `line` mentions `name`: a field (`self.…`) as a whole name, anything else as a
/// prefix.
fn mentions(line: &str, name: &str) -> bool {
    if !name.starts_with("self.") {
        return line.contains(name);
    }
    line.match_indices(name).any(|(i, _)| {
        !line[i + name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn expansion_rules_live_in_their_module() {
    let game = root().join("crates/rules/src");
    // What only one expansion's rules use: its state, its internal steps, its notes, rules
    // and scores. A field (`self.…`) is matched as a whole name (`self.map`, not
    // `self.map_constraint`); anything else as a prefix (`Note::Arrow` is every arrow note).
    // File names are relative to `crates/rules/src`.
    let owned: [(&str, &[&str]); 7] = [
        (
            "game/anniversary.rs",
            &[
                "self.arrows",
                "arrows_turn_over(",
                "ArrowState::",
                "activate_arrow(",
                "portal_refusal(",
                "activated_symbol(",
                ".paired",
                "ArrowSymbol::Companion",
                "ArrowSymbol::Portal",
                "Note::Arrow",
                "Note::Companion",
                "Note::Portal",
                "Note::ExtraTurnGranted",
                "Note::ExtraTurnDenied",
                "rule::ARROW",
                "side_label(",
            ],
        ),
        (
            "game/maps.rs",
            &[
                "self.map",
                "monastery_neighbour(",
                "large_city_at(",
                ".constraint(",
                ".border(",
                "town_at(",
                "start_squares()",
                "Square::",
                "Printed",
                "printed_parts(",
                "visible_towns_beside(",
                "LARGE_CITY_TILE",
                "Note::Town",
                "Note::LargeCity",
                "Note::Border",
                "Note::StartSquare",
                "rule::MAP_",
            ],
        ),
        (
            "game/gifts.rs",
            &[
                "self.gifts",
                "gifts_turn_over(",
                "GiftCard::",
                "Note::Gift",
                "rule::GIFT",
            ],
        ),
        (
            "game/abbot.rs",
            &[
                "self.abbot",
                "abbot_standing_on(",
                "return_abbot(",
                "abbot_on(",
                "garden_formula(",
                "Note::Abbot",
                "rule::ABBOT",
            ],
        ),
        (
            "game/river.rs",
            &[
                "self.river",
                "count_river_tile(",
                "river_continuation(",
                "Turn::",
                "Note::River",
            ],
        ),
        ("game/inns_cathedrals.rs", &["self.inns"]),
        (
            "game/traders_builders.rs",
            &["self.traders", "take_builder_turn("],
        ),
    ];
    // The hook points: (file, function, name, why it may appear there). Kept short: every
    // other use of an expansion's names belongs in its module.
    let hooks: [(&str, &str, &str, &str); 16] = [
        (
            "game.rs",
            "apply",
            "self.map",
            "the turn: a map game places its start tiles, and a placement may cover a town",
        ),
        (
            "game/placement.rs",
            "legal_placements",
            "self.map",
            "the hot path of move generation pays one branch without a map",
        ),
        (
            "game/placement.rs",
            "pick_placement",
            "self.map",
            "the random player's pick falls back to the full list on a map, one branch without",
        ),
        (
            "game/placement.rs",
            "put_tile",
            "self.map",
            "a monastery's open squares and the printed edges, one branch each without a map",
        ),
        (
            "game/scoring.rs",
            "score_feature",
            "self.map",
            "the points-only path serves games without a map only",
        ),
        (
            "game/scoring.rs",
            "points_of",
            "self.map",
            "the greedy player's points-only appraisal takes the same path, without a map only",
        ),
        (
            "game/scoring.rs",
            "evaluate",
            "self.map",
            "one branch per kind hands monasteries, roads and cities on a map to `maps`",
        ),
        (
            "game/meeples.rs",
            "return_meeples",
            "return_abbot(",
            "a scored feature sends its abbot home too, one flag test without the abbot",
        ),
        (
            "game/meeples.rs",
            "holder",
            "abbot_standing_on(",
            "the figure named in a refusal may be an abbot",
        ),
        (
            "game.rs",
            "take_from_bag",
            "count_river_tile(",
            "the river's draw check counts the river tiles left, one flag test without",
        ),
        (
            "game.rs",
            "put_back_in_bag",
            "count_river_tile(",
            "a Take 2 tile handed back may be a river tile",
        ),
        (
            "game.rs",
            "finish_turn",
            "arrows_turn_over(",
            "an activated arrow's action lasts the turn",
        ),
        (
            "game.rs",
            "finish_turn",
            "gifts_turn_over(",
            "one gift may be opened a turn",
        ),
        (
            "game.rs",
            "finish_turn",
            "take_builder_turn(",
            "the extra turn's note names the builder's rule when the builder gave it",
        ),
        (
            "game.rs",
            "end_early",
            "take_builder_turn(",
            "a game ended early forgets the pending second turn",
        ),
        (
            "game/scoring.rs",
            "evaluate",
            "garden_formula(",
            "a garden is valued like a monastery, with its own words and rule ids",
        ),
    ];
    // Where one expansion meets another: (file, function, name of the other expansion).
    let meetings: [(&str, &str, &str); 8] = [
        // An arrow on a map points at no square when that square cannot hold a tile.
        ("game/anniversary.rs", "arrows_after_placement", "self.map"),
        // Change Position breaks a companion pair: the moved meeple stands alone.
        ("game/gifts.rs", "open_gift", ".paired"),
        // Synod and Change Position never put a meeple beside an abbot (`abbot.unoccupied`).
        ("game/gifts.rs", "legal_gifts", "abbot_on("),
        ("game/gifts.rs", "plan_gift", "abbot_on("),
        // The portal may send the abbot anywhere (`shared/rules/abbot.md`).
        ("game/abbot.rs", "legal_abbot_moves", "ArrowSymbol::Portal"),
        (
            "game/abbot.rs",
            "resolve_abbot_target",
            "ArrowSymbol::Portal",
        ),
        ("game/abbot.rs", "place_abbot", "ArrowSymbol::Portal"),
        ("game/abbot.rs", "place_abbot", "activated_symbol("),
    ];

    let mut files = vec![(
        "game.rs".to_string(),
        std::fs::read_to_string(game.join("game.rs")).unwrap(),
    )];
    for (path, text) in sources(&game.join("game")) {
        let name = format!("game/{}", path.file_name().unwrap().to_string_lossy());
        files.push((name, text));
    }
    let mut used_hooks = vec![false; hooks.len() + meetings.len()];
    let mut found_in_module = Vec::new();
    for (module, names) in owned {
        for name in names {
            for (file, text) in &files {
                for (function, line) in lines_with_function(text) {
                    let Some(function) = function else { continue };
                    if !mentions(line, name) {
                        continue;
                    }
                    if file == module {
                        found_in_module.push(*name);
                        continue;
                    }
                    let allowed = hooks
                        .iter()
                        .map(|h| (h.0, h.1, h.2))
                        .chain(meetings)
                        .position(|(f, func, n)| f == file && func == function && n == *name);
                    assert!(
                        allowed.is_some(),
                        "{file}, fn {function}: `{name}` belongs to the rules in {module}:\n{line}\n\
                         move the rule into {module} and call it from here, or name this hook \
                         point in the test"
                    );
                    used_hooks[allowed.unwrap()] = true;
                }
            }
        }
    }
    // The lists stay true: every name is used by its module, and every hook point is used.
    for (module, names) in owned {
        for name in names {
            assert!(
                found_in_module.contains(name),
                "`{name}` is not used in {module}: update the list"
            );
        }
    }
    for (i, used) in used_hooks.iter().enumerate() {
        assert!(
            used,
            "hook point {i} of the list is no longer used: remove it"
        );
    }
}

#[test]
fn each_expansion_keeps_its_state_in_one_field_of_the_game() {
    // The game's state: the core's fields, then one field per expansion, of a type its own
    // module defines. A new expansion adds one line here and its state in its module, never
    // fields of its own to the game.
    let core = [
        "tiles",
        "options",
        "players",
        "board",
        "features",
        "meeples",
        "supply",
        "score",
        "bag",
        "in_game",
        "bag_total",
        "current",
        "phase",
        "turn",
        "pending",
        "set_aside",
        "extra_pending",
        "in_extra_turn",
        "pseudo",
    ];
    let expansions = [
        ("river", "river::RiverState"),
        ("abbot", "abbot::AbbotState"),
        ("inns", "inns_cathedrals::InnsState"),
        ("traders", "traders_builders::TradersState"),
        ("arrows", "anniversary::ArrowsState"),
        ("map", "maps::MapsState"),
        ("gifts", "gifts::GiftsState"),
    ];
    let text = std::fs::read_to_string(root().join("crates/rules/src/game.rs")).unwrap();
    let body = text
        .split_once("pub struct Game {")
        .and_then(|(_, rest)| rest.split_once("\n}"))
        .expect("game.rs declares `pub struct Game { … }`")
        .0;
    let fields: Vec<(&str, &str)> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .map(|l| {
            let (name, ty) = l.split_once(':').expect("a field line");
            (name.trim(), ty.trim().trim_end_matches(','))
        })
        .collect();
    for (name, ty) in &fields {
        let expansion = expansions.iter().find(|e| e.0 == *name);
        assert!(
            core.contains(name) || expansion.is_some_and(|e| e.1 == *ty),
            "Game has a field `{name}: {ty}` that is neither the core's nor an expansion's \
             state: put an expansion's state in its module's state type"
        );
    }
    let names: Vec<&str> = fields.iter().map(|f| f.0).collect();
    for name in core.iter().chain(expansions.iter().map(|e| &e.0)) {
        assert!(
            names.contains(name),
            "the list names `{name}`, which Game no longer has"
        );
    }
}

/// Every crate's source folder: the library crates' `src`, the viewer shell's and its UI's.
fn source_roots() -> Vec<PathBuf> {
    crate_manifests()
        .values()
        .map(|m| m.parent().unwrap().join("src"))
        .filter(|d| d.is_dir())
        .collect()
}

/// The module path of a source file under `src` (`a/b.rs` and `a/b/mod.rs` are `["a", "b"]`;
/// `lib.rs` and `main.rs` are the root, `[]`).
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The paths a text names through `crate::` (and `super::`, `self::`, relative to `module`,
/// the file's own module path), with `{…}` groups spread out
/// (`crate::{a::X, b::{c, d}}` gives `a::X`, `b::c`, `b::d`), each as its segments.
fn crate_paths(text: &str, module: &[String]) -> Vec<Vec<String>> {
    fn spread(prefix: &[String], rest: &str, out: &mut Vec<Vec<String>>) {
        let mut path = prefix.to_vec();
        let mut word = String::new();
        for (i, c) in rest.char_indices() {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
            } else if c == ':' {
                if !word.is_empty() {
                    path.push(std::mem::take(&mut word));
                }
            } else if c == '{' {
                if !word.is_empty() {
                    path.push(std::mem::take(&mut word));
                }
                // The group runs to its matching brace; its items split at top-level commas.
                let body = &rest[i + 1..];
                let (mut depth, mut start) = (0, 0);
                for (j, d) in body.char_indices() {
                    match d {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            spread(&path, &body[start..j], out);
                            return;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            spread(&path, &body[start..j], out);
                            start = j + 1;
                        }
                        _ => {}
                    }
                }
                return;
            } else if !c.is_whitespace() || !word.is_empty() {
                break;
            }
        }
        if !word.is_empty() {
            path.push(word);
        }
        out.push(path);
    }
    let mut out = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let before = text[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue; // `carc_crate::`, `$crate::`
        }
        spread(&[], &text[at + "crate::".len()..], &mut out);
    }
    // `super::` and `self::` paths are imports too, relative to the file's own module: a
    // circle through `super::x::f` is as much a circle as one through `crate::…::x::f`.
    for word in ["super::", "self::"] {
        for (at, _) in text.match_indices(word) {
            let before = text[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue; // `my_super::`, or the second `super::` of `super::super::`
            }
            let mut rest = &text[at..];
            let mut up = 0;
            while let Some(r) = rest.strip_prefix("super::") {
                up += 1;
                rest = r;
            }
            let rest = rest.strip_prefix("self::").unwrap_or(rest);
            let Some(base) = module.len().checked_sub(up) else {
                continue; // above the crate: not this crate's file
            };
            spread(&module[..base], rest, &mut out);
        }
    }
    out
}

#[test]
fn no_two_files_of_a_crate_import_each_other() {
    let mut circles = Vec::new();
    for src in source_roots() {
        // Files by module path; each file's imports, resolved to the longest module that
        // exists (`crate::a::b::X` is `a/b.rs` if there is one, else `a.rs`).
        let files: BTreeMap<Vec<String>, (PathBuf, String)> = sources(&src)
            .into_iter()
            .map(|(path, text)| {
                // Unit tests may import what they like: only the code above them counts, and
                // comments (doc links name modules without importing them) do not.
                let code: String = text
                    .split("#[cfg(test)]")
                    .next()
                    .unwrap_or("")
                    .lines()
                    .map(|l| l.split("//").next().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join("\n");
                (module_path(&src, &path), (path, code))
            })
            .collect();
        let mut edges: BTreeMap<&Vec<String>, Vec<&Vec<String>>> = BTreeMap::new();
        for (module, (_, code)) in &files {
            let targets = edges.entry(module).or_default();
            for path in crate_paths(code, module) {
                let target = (1..=path.len())
                    .rev()
                    .map(|n| path[..n].to_vec())
                    .find_map(|p| files.get_key_value(&p).map(|(k, _)| k));
                if let Some(target) = target.filter(|t| *t != module && !t.is_empty()) {
                    if !targets.contains(&target) {
                        targets.push(target);
                    }
                }
            }
        }
        // A circle is an edge a → b where a is reachable again from b.
        let reaches = |from: &Vec<String>, to: &Vec<String>| {
            let mut seen = vec![from];
            let mut stack = vec![from];
            while let Some(m) = stack.pop() {
                for next in edges.get(m).into_iter().flatten() {
                    if *next == to {
                        return true;
                    }
                    if !seen.contains(next) {
                        seen.push(next);
                        stack.push(next);
                    }
                }
            }
            false
        };
        for (from, targets) in &edges {
            for to in targets {
                if reaches(to, from) {
                    circles.push(format!(
                        "{}: {} -> {} and back",
                        src.strip_prefix(root()).unwrap_or(&src).display(),
                        files[*from].0.strip_prefix(&src).unwrap().display(),
                        files[*to].0.strip_prefix(&src).unwrap().display(),
                    ));
                }
            }
        }
    }
    assert!(
        circles.is_empty(),
        "files that import each other (move the shared piece down):\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_import_reader_sees_grouped_and_nested_paths() {
    // Given imports of every shape, then each path is read whole (so the circle check above
    // cannot pass by not seeing an import)
    let text = "use crate::a::X;\nuse crate::{b::Y, c::{d, e::Z}};\nlet v = crate::f::g(1);\n\
                use carc_crate::h;\nlet w = super::i::j(2);\nuse super::super::k;\n\
                use self::l::{m, n};\npub(super) fn o() {}";
    let module = ["p".to_string(), "q".to_string()];
    let seen: Vec<String> = crate_paths(text, &module)
        .iter()
        .map(|p| p.join("::"))
        .collect();
    assert_eq!(
        seen,
        [
            "a::X",
            "b::Y",
            "c::d",
            "c::e::Z",
            "f::g",
            "p::i::j",
            "k",
            "p::q::l::m",
            "p::q::l::n"
        ]
    );
}

#[test]
fn no_rust_file_is_over_a_thousand_lines() {
    let mut long = Vec::new();
    for dir in ["crates", "viewer"] {
        for (path, text) in sources(&root().join(dir)) {
            if path.components().any(|c| c.as_os_str() == "target") {
                continue;
            }
            let lines = text.lines().count();
            if lines > 1_000 {
                long.push(format!("{} ({lines} lines)", path.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "split these by concern (ARCHITECTURE.md):\n{}",
        long.join("\n")
    );
}
