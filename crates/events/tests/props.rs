//! Property tests: no input makes the decoder panic, errors stay within the file, and
//! generated logs survive a write/read round trip.

use std::io::BufReader;

use carc_events::{
    read_log, read_log_from, read_log_prefix, write_log, write_log_to, Assertion, Color,
    DecodeError, Event, Figure, Header, Log, MeepleTarget, Player, Port, Pos, Rotation,
    RulesOptions, Side, TileId,
};
use proptest::prelude::*;
use proptest::sample::Index;

// ---- generators ---------------------------------------------------------------------------

fn text() -> impl Strategy<Value = String> {
    // Any characters, newlines and quotes included.
    prop_oneof![3 => "[A-Za-z0-9 -]{0,8}", 1 => any::<String>()]
}

fn non_empty_text() -> impl Strategy<Value = String> {
    text().prop_filter("non-empty", |s| !s.is_empty())
}

fn tile_id() -> impl Strategy<Value = TileId> {
    prop_oneof![3 => "[A-X]", 1 => non_empty_text()].prop_map(|s| TileId::new(s).unwrap())
}

fn color() -> impl Strategy<Value = Color> {
    prop::sample::select(Color::ALL.to_vec())
}

fn header() -> impl Strategy<Value = Header> {
    let players = prop::collection::vec((non_empty_text(), color()), 1..=6)
        .prop_filter("unique names", |ps| {
            ps.iter()
                .enumerate()
                .all(|(i, (name, _))| ps[..i].iter().all(|(n, _)| n != name))
        })
        .prop_map(|ps| {
            ps.into_iter()
                .map(|(name, color)| Player { name, color })
                .collect()
        });
    let rules = (
        prop::collection::vec(text(), 0..3),
        any::<bool>(),
        prop_oneof![Just(2u8), Just(4u8)],
        1u8..=20,
    )
        .prop_map(
            |(expansions, farmers, two_tile_city, meeples)| RulesOptions {
                expansions,
                farmers,
                two_tile_city,
                meeples,
                map: None,
            },
        );
    (
        non_empty_text(),
        players,
        rules,
        prop::collection::vec(non_empty_text(), 1..3),
        prop::option::of(prop::collection::btree_map(tile_id(), any::<u16>(), 0..5)),
        prop::option::of(text()),
    )
        .prop_map(|(game, players, rules, tile_sets, bag, comment)| Header {
            game,
            players,
            rules,
            tile_sets,
            bag,
            source: None,
            comment,
        })
}

fn target() -> impl Strategy<Value = MeepleTarget> {
    prop_oneof![
        prop::sample::select(Side::ALL.to_vec()).prop_map(MeepleTarget::city),
        prop::sample::select(Side::ALL.to_vec()).prop_map(MeepleTarget::road),
        prop::sample::select(Port::ALL.to_vec()).prop_map(MeepleTarget::field),
        Just(MeepleTarget::monastery()),
    ]
}

fn event(players: usize) -> impl Strategy<Value = Event> {
    let player = 0..players as u8;
    let pos = any::<(i32, i32)>().prop_map(|(x, y)| Pos { x, y });
    let rotation = prop::sample::select(Rotation::ALL.to_vec());
    prop_oneof![
        (tile_id(), pos.clone(), rotation.clone())
            .prop_map(|(tile, at, rotation)| Event::StartPlaced { tile, at, rotation }),
        (player.clone(), tile_id()).prop_map(|(player, tile)| Event::TileDrawn { player, tile }),
        (player.clone(), tile_id(), pos, rotation).prop_map(|(player, tile, at, rotation)| {
            Event::TilePlaced {
                player,
                tile,
                at,
                rotation,
            }
        }),
        (player.clone(), target(), any::<bool>()).prop_map(|(player, on, large)| {
            Event::MeeplePlaced {
                player,
                on,
                figure: if large { Figure::Large } else { Figure::Meeple },
            }
        }),
        player
            .clone()
            .prop_map(|player| Event::MeepleSkipped { player }),
        (player, tile_id()).prop_map(|(player, tile)| Event::TileSetAside { player, tile }),
    ]
}

fn assertion(players: usize) -> impl Strategy<Value = Assertion> {
    let scores = prop::collection::vec(any::<u32>(), players);
    prop_oneof![
        (any::<u64>(), scores.clone())
            .prop_map(|(after, scores)| Assertion::ExpectScores { after, scores }),
        scores.prop_map(|scores| Assertion::ExpectFinalScores { scores }),
    ]
}

fn log() -> impl Strategy<Value = Log> {
    header().prop_flat_map(|header| {
        let n = header.players.len();
        let item = prop_oneof![
            4 => event(n).prop_map(Ok),
            1 => assertion(n).prop_map(Err),
        ];
        prop::collection::vec(item, 0..25).prop_map(move |items| {
            let mut log = Log::new(header.clone());
            for item in items {
                match item {
                    Ok(event) => {
                        log.push_event(event);
                    }
                    Err(assertion) => log.push_assertion(assertion),
                }
            }
            log
        })
    })
}

// ---- checks -------------------------------------------------------------------------------

/// Lines in the file: a final `\n` ends the last line rather than starting one.
fn line_count(input: &[u8]) -> usize {
    let newlines = input.iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(!input.is_empty() && !input.ends_with(b"\n"))
}

/// Decodes with every entry point; checks that they agree and that an error names a line of
/// the file (line 1 for an empty file).
fn check_decoding(input: &[u8]) -> Result<Log, DecodeError> {
    let whole = read_log(input);
    let prefix = read_log_prefix(input);
    let from_reader = read_log_from(BufReader::with_capacity(16, input));
    assert_eq!(whole, from_reader);
    match (&whole, prefix) {
        (Ok(log), Ok(prefix)) => {
            assert_eq!(prefix.error, None);
            assert_eq!(&prefix.log, log);
        }
        (Err(err), Ok(prefix)) => {
            assert_eq!(prefix.error.as_ref(), Some(err));
            assert!(prefix.log.events.iter().all(|(line, _)| *line < err.line));
            assert!(prefix
                .log
                .assertions
                .iter()
                .all(|(line, _)| *line < err.line));
        }
        (Err(err), Err(prefix_err)) => {
            assert_eq!(&prefix_err, err);
            assert_eq!(err.line, 1);
        }
        (Ok(_), Err(e)) => panic!("prefix reader failed where read_log succeeded: {e}"),
    }
    if let Err(err) = &whole {
        assert!(
            err.line >= 1 && err.line <= line_count(input).max(1),
            "{err} with {} lines",
            line_count(input)
        );
        assert!(err.to_string().starts_with(&format!("line {}: ", err.line)));
    }
    whole
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete(Index),
    Duplicate(Index),
    Swap(Index, Index),
    FlipByte(Index, u8),
    Truncate(Index),
    InsertByte(Index, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<Index>().prop_map(Mutation::Delete),
        any::<Index>().prop_map(Mutation::Duplicate),
        any::<(Index, Index)>().prop_map(|(a, b)| Mutation::Swap(a, b)),
        (any::<Index>(), 1u8..=255).prop_map(|(i, x)| Mutation::FlipByte(i, x)),
        any::<Index>().prop_map(Mutation::Truncate),
        (
            any::<Index>(),
            prop_oneof![Just(b'\n'), Just(b' '), Just(b'"'), Just(b'{'), any::<u8>()]
        )
            .prop_map(|(i, b)| Mutation::InsertByte(i, b)),
    ]
}

fn apply(bytes: Vec<u8>, mutation: &Mutation) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = bytes.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
    let join = |lines: Vec<Vec<u8>>| lines.join(&b'\n');
    match mutation {
        Mutation::Delete(i) => {
            lines.remove(i.index(lines.len()));
            join(lines)
        }
        Mutation::Duplicate(i) => {
            let i = i.index(lines.len());
            lines.insert(i, lines[i].clone());
            join(lines)
        }
        Mutation::Swap(a, b) => {
            let (a, b) = (a.index(lines.len()), b.index(lines.len()));
            lines.swap(a, b);
            join(lines)
        }
        Mutation::FlipByte(i, x) => {
            let mut bytes = bytes;
            if !bytes.is_empty() {
                let i = i.index(bytes.len());
                bytes[i] ^= x;
            }
            bytes
        }
        Mutation::Truncate(i) => {
            let mut bytes = bytes;
            bytes.truncate(i.index(bytes.len() + 1));
            bytes
        }
        Mutation::InsertByte(i, b) => {
            let mut bytes = bytes;
            bytes.insert(i.index(bytes.len() + 1), *b);
            bytes
        }
    }
}

/// JSON-looking noise after a valid header reaches the body decoder.
fn json_noise() -> impl Strategy<Value = String> {
    let fragment = prop_oneof![
        Just("{".to_owned()),
        Just("}".to_owned()),
        Just("[".to_owned()),
        Just("]".to_owned()),
        Just(",".to_owned()),
        Just(":".to_owned()),
        Just("\n".to_owned()),
        Just("\"seq\":".to_owned()),
        Just("\"type\":".to_owned()),
        Just("\"format\":".to_owned()),
        Just("\"player\":".to_owned()),
        Just("\"rotation\":".to_owned()),
        Just("\"on\":".to_owned()),
        Just("\"scores\":".to_owned()),
        prop::sample::select(carc_events::EVENT_TYPES.to_vec()).prop_map(|t| format!("\"{t}\"")),
        Just("\"expect_scores\"".to_owned()),
        Just("\"road W\"".to_owned()),
        any::<i64>().prop_map(|n| n.to_string()),
        (0u64..4).prop_map(|n| n.to_string()),
        "\"[A-Za-z ]{0,4}\"",
    ];
    prop::collection::vec(fragment, 0..60).prop_map(|fs| fs.concat())
}

const HEADER: &str = r#"{"format":"carcassonne-log","version":1,"game":"g","players":[{"name":"Ada","color":"red"},{"name":"Bo","color":"blue"}],"rules":{"expansions":[]},"tile_sets":["base"]}"#;

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        check_decoding(&bytes).ok();
    }

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        check_decoding(s.as_bytes()).ok();
        check_decoding(format!("{HEADER}\n{s}").as_bytes()).ok();
    }

    #[test]
    fn json_noise_after_a_header_never_panics(noise in json_noise()) {
        check_decoding(format!("{HEADER}\n{noise}").as_bytes()).ok();
    }

    #[test]
    fn mutated_logs_decode_or_name_a_line_of_the_file(
        log in log(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let mut bytes = write_log(&log).into_bytes();
        for m in &mutations {
            bytes = apply(bytes, m);
        }
        check_decoding(&bytes).ok();
    }

    #[test]
    fn generated_logs_round_trip(log in log()) {
        prop_assert_eq!(log.header.validate(), Ok(()));
        let text = write_log(&log);
        prop_assert!(text.ends_with('\n'));
        prop_assert_eq!(text.lines().count(), 1 + log.events.len() + log.assertions.len());
        let mut via_writer = Vec::new();
        write_log_to(&log, &mut via_writer).unwrap();
        prop_assert_eq!(via_writer, text.as_bytes());
        prop_assert_eq!(check_decoding(text.as_bytes()), Ok(log));
    }
}
