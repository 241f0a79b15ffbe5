//! Companion streams: what is written about a stored game (annotations, what-if variations),
//! kept beside it and never inside its stream (a game's events stay exactly as imported).
//!
//! The annotations of game `G` live in the stream `@annotations/G`, its variations in
//! `@variations/G`. Each store event is one record, the same JSON line written beside a log
//! file (`carc_events::annotation`, `carc_events::variation`); the archive does not read
//! inside it. Appending is the only way to change them: readers keep, per event or per name,
//! the last record.

use carc_store::{ExpectedVersion, NewEvent, Store};

use crate::error::ArchiveError;
use crate::ids::{check_game_id, Companion};

/// The stream that holds `game`'s annotations.
pub fn annotation_stream(game: &str) -> String {
    Companion::Annotations.stream(game)
}

/// Every record of this kind stored for `game`, oldest first (empty when there are none).
pub fn read_records(
    store: &Store,
    kind: Companion,
    game: &str,
) -> Result<Vec<Vec<u8>>, ArchiveError> {
    check_game_id(game).map_err(|reason| ArchiveError::GameId { reason })?;
    Ok(store
        .read_stream(&kind.stream(game), 1)?
        .into_iter()
        .map(|e| e.payload)
        .collect())
}

/// Appends one record (one JSON line, without its `\n`) of this kind for `game`.
///
/// The record is appended right after the version read here: if another writer got there
/// first the store reports a conflict instead of interleaving, and the caller may retry.
pub fn append_record(
    store: &Store,
    kind: Companion,
    game: &str,
    record: &[u8],
) -> Result<u64, ArchiveError> {
    check_game_id(game).map_err(|reason| ArchiveError::GameId { reason })?;
    let stream = kind.stream(game);
    let version = store.version(&stream)?.unwrap_or(0);
    let appended = store.append(
        &stream,
        ExpectedVersion::Exactly(version),
        &[NewEvent::new(format!("{stream}#{}", version + 1), record)],
    )?;
    Ok(appended.last_seq)
}

/// Every annotation record stored for `game`, oldest first.
pub fn read_annotation_records(store: &Store, game: &str) -> Result<Vec<Vec<u8>>, ArchiveError> {
    read_records(store, Companion::Annotations, game)
}

/// Appends one annotation record for `game`.
pub fn append_annotation_record(
    store: &Store,
    game: &str,
    record: &[u8],
) -> Result<u64, ArchiveError> {
    append_record(store, Companion::Annotations, game, record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::game_ids;

    #[test]
    fn records_are_kept_in_order_beside_the_game_and_not_listed_as_games() {
        // Given an empty store
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        // When two records are appended for game g1
        append_annotation_record(
            &store,
            "g1",
            br#"{"game":"g1","seq":3,"glyph":"?","text":"a"}"#,
        )
        .unwrap();
        append_annotation_record(
            &store,
            "g1",
            br#"{"game":"g1","seq":3,"glyph":null,"text":""}"#,
        )
        .unwrap();
        // Then both are read back in order, another game has none, and no game is listed
        let records = read_annotation_records(&store, "g1").unwrap();
        assert_eq!(records.len(), 2);
        assert!(records[1].starts_with(br#"{"game":"g1","seq":3,"glyph":null"#));
        assert!(read_annotation_records(&store, "g2").unwrap().is_empty());
        assert_eq!(game_ids(&store).unwrap(), Vec::<String>::new());
    }

    #[test]
    fn variations_have_a_stream_of_their_own() {
        // Given a store with one variation record and one annotation record for g1
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        append_record(&store, Companion::Variations, "g1", b"{\"v\":1}").unwrap();
        append_annotation_record(&store, "g1", b"{\"a\":1}").unwrap();
        // Then each kind reads back only its own record, and no stream is listed as a game
        assert_eq!(
            read_records(&store, Companion::Variations, "g1").unwrap(),
            vec![b"{\"v\":1}".to_vec()]
        );
        assert_eq!(
            read_annotation_records(&store, "g1").unwrap(),
            vec![b"{\"a\":1}".to_vec()]
        );
        assert!(game_ids(&store).unwrap().is_empty());
        assert_eq!(
            Companion::of_stream("@variations/g1"),
            Some(Companion::Variations)
        );
        assert_eq!(Companion::of_stream("g1"), None);
    }
}
