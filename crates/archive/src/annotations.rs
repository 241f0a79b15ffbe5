//! Annotation streams: the comments and glyphs written on a stored game, kept beside it and
//! never inside its stream (a game's events stay exactly as imported).
//!
//! The annotations of game `G` live in the stream `@annotations/G`. Each store event is one
//! annotation record, the same JSON line the viewer writes beside a log file
//! (`{"game":…,"seq":N,"glyph":…,"text":…}`, see `docs/viewer.md`); the archive does not read
//! inside it. Appending is the only way to change annotations: the reader keeps, per event,
//! the last record, and a record with no glyph and no text removes the annotation.

use carc_store::{ExpectedVersion, NewEvent, Store};

use crate::error::ArchiveError;
use crate::stream::check_game_id;

/// Stream ids that begin with this hold annotations; game ids may not begin with it.
pub const ANNOTATIONS_PREFIX: &str = "@annotations/";

/// The stream that holds `game`'s annotations.
pub fn annotation_stream(game: &str) -> String {
    format!("{ANNOTATIONS_PREFIX}{game}")
}

/// Every annotation record stored for `game`, oldest first (empty when there are none).
pub fn read_annotation_records(store: &Store, game: &str) -> Result<Vec<Vec<u8>>, ArchiveError> {
    check_game_id(game).map_err(|reason| ArchiveError::GameId { reason })?;
    Ok(store
        .read_stream(&annotation_stream(game), 1)?
        .into_iter()
        .map(|e| e.payload)
        .collect())
}

/// Appends one annotation record (one JSON line, without its `\n`) for `game`.
///
/// The record is appended right after the version read here: if another writer got there
/// first the store reports a conflict instead of interleaving, and the caller may retry.
pub fn append_annotation_record(
    store: &Store,
    game: &str,
    record: &[u8],
) -> Result<u64, ArchiveError> {
    check_game_id(game).map_err(|reason| ArchiveError::GameId { reason })?;
    let stream = annotation_stream(game);
    let version = store.version(&stream)?.unwrap_or(0);
    let appended = store.append(
        &stream,
        ExpectedVersion::Exactly(version),
        &[NewEvent::new(format!("{stream}#{}", version + 1), record)],
    )?;
    Ok(appended.last_seq)
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
    fn the_prefix_is_reserved() {
        let err = check_game_id("@annotations/x").unwrap_err();
        assert!(err.contains("reserved for annotations"), "{err}");
    }
}
