//! Board Game Arena (BGA) Carcassonne replays for carc: [`read`] turns the replay JSON of a
//! BGA table (its notification packets) into our log model ([`carc_events::Log`]), so every
//! command that takes a log can take a BGA game.
//!
//! Every move is replayed through the rules engine as it is read, so an imported game is
//! legal by construction. BGA scores every feature itself; its stated scores become the log's
//! assertions (`expect_points` per seat and feature kind and `expect_scores` after each scoring
//! event, `expect_final_scores` at the end), so
//! checking the log compares BGA's scoring with ours.
//!
//! Only the base game (with farmers) is supported; a replay using anything else is refused with
//! [`BgaError::Unsupported`], which lists all of it. The importer keys on notification `type`s
//! and numeric ids only, never on display text, which BGA translates into the language of
//! whoever downloaded the replay. The mapping (tile types, orientations, coordinates, meeple
//! spots, seats) is documented in `docs/bga.md`.
//!
//! BGA's format is its own, not carc's wire format, so this crate parses JSON itself; it
//! produces our log model only through `carc-events`.

mod error;
mod expansions;
mod json;
mod read;
mod tiles;

pub use error::{BgaError, Place};
pub use read::{import, Imported, Source};

/// Our tile letter for a BGA tile type of the base game (`docs/bga.md` has the table).
pub fn letter_of(bga_type: i64) -> Option<&'static str> {
    tiles::by_type(bga_type).map(|t| t.letter)
}

/// Our meeple target, on the tile at rotation 0, for BGA's meeple spot `pos` of a tile type.
/// (On the board the target turns with the tile; the importer does that.)
pub fn spot_target(bga_type: i64, pos: i64) -> Option<&'static str> {
    tiles::spot(tiles::by_type(bga_type)?, pos)
}

/// Reads a BGA replay into our log; the game id is `bga-<table id>`.
pub fn read(bytes: &[u8]) -> Result<carc_events::Log, BgaError> {
    import(bytes).map(|imported| imported.log)
}

/// Whether a file's bytes look like a BGA replay: JSON whose list of packets (`data.data`,
/// or `data`, or the document itself) starts with a packet that has a `packet_id` and a list
/// of notifications. (Our logs are JSON Lines, a header first; JCloisterZone games have
/// `setup` and `replay`.)
///
/// A file that is not JSON as a whole (cut short, or damaged) is taken for a replay when its
/// first 64 KiB hold the keys every packet has (`packet_id`, `table_id`), so that reading it
/// as one reports where its JSON breaks, instead of our log's reader calling line 1 bad.
pub fn looks_like_bga(bytes: &[u8]) -> bool {
    let value = match serde_json::from_slice::<serde_json::Value>(bytes) {
        Ok(value) => value,
        Err(_) => {
            let head = &bytes[..bytes.len().min(64 * 1024)];
            let has = |key: &[u8]| head.windows(key.len()).any(|w| w == key);
            return has(b"\"packet_id\"") && has(b"\"table_id\"");
        }
    };
    let root = json::At::root(&value);
    let Ok(packets) = read::packets_of(&root) else {
        return false;
    };
    packets
        .value
        .as_array()
        .and_then(|p| p.first())
        .is_some_and(|p| {
            p.get("packet_id").is_some() && p.get("data").is_some_and(|d| d.is_array())
        })
}

#[cfg(test)]
mod tests {
    #[test]
    fn told_apart_by_content() {
        assert!(super::looks_like_bga(
            br#"{"status":1,"data":{"valid":1,"data":[{"packet_id":"1","data":[]}]}}"#
        ));
        assert!(!super::looks_like_bga(br#"{"setup":{},"replay":[]}"#));
        assert!(!super::looks_like_bga(
            b"{\"format\":\"carcassonne-log\"}\n{\"seq\":1}\n"
        ));
        assert!(!super::looks_like_bga(br#"{"data":{"data":[]}}"#));
        assert!(!super::looks_like_bga(b"not json"));
        // A replay cut short is still told apart by the keys of its packets
        let cut = br#"{"status":1,"data":{"valid":1,"data":[{"channel":"/table/t1","table_id":"1","packet_id":"1","data":[{"#;
        assert!(super::looks_like_bga(cut));
        assert!(super::looks_like_bga(br#"[{"packet_id":"1","data":[]}]"#));
        assert!(super::looks_like_bga(
            br#"{"data":[{"packet_id":"1","data":[]}]}"#
        ));
    }
}
