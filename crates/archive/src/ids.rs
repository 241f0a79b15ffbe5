//! Which store streams are games: a game's stream id is its game id, and the companion
//! streams of what is written about a game (`@annotations/G`, `@variations/G`) take ids with a
//! reserved prefix, so no game id may begin with one. Both the game streams ([`crate::stream`])
//! and the companion streams ([`crate::companions`]) are named here, below them both.

use carc_store::StoreError;

/// A kind of record kept beside a game, in a stream of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Companion {
    /// Comments and glyphs on events.
    Annotations,
    /// What-if variations.
    Variations,
}

impl Companion {
    /// Every kind; stream ids that begin with one of their prefixes are not games.
    pub const ALL: [Companion; 2] = [Companion::Annotations, Companion::Variations];

    /// The prefix of this kind's stream ids.
    pub fn prefix(self) -> &'static str {
        match self {
            Companion::Annotations => ANNOTATIONS_PREFIX,
            Companion::Variations => VARIATIONS_PREFIX,
        }
    }

    /// What the records are, for messages.
    pub fn what(self) -> &'static str {
        match self {
            Companion::Annotations => "annotations",
            Companion::Variations => "variations",
        }
    }

    /// The stream that holds `game`'s records of this kind.
    pub fn stream(self, game: &str) -> String {
        format!("{}{game}", self.prefix())
    }

    /// The kind whose prefix `stream` begins with, if any.
    pub fn of_stream(stream: &str) -> Option<Companion> {
        Companion::ALL
            .into_iter()
            .find(|c| stream.starts_with(c.prefix()))
    }
}

/// Stream ids that begin with this hold annotations; game ids may not begin with it.
pub const ANNOTATIONS_PREFIX: &str = "@annotations/";

/// Stream ids that begin with this hold variations; game ids may not begin with it.
pub const VARIATIONS_PREFIX: &str = "@variations/";

/// Whether `game` can be a stream id, with the store's reason if not. Ids that begin with
/// a companion stream's prefix (`@annotations/`, `@variations/`) are reserved.
pub fn check_game_id(game: &str) -> std::result::Result<(), String> {
    if let Some(kind) = Companion::of_stream(game) {
        return Err(format!(
            "game id {game:?} cannot be stored: ids beginning with {:?} are reserved for {}",
            kind.prefix(),
            kind.what()
        ));
    }
    carc_store::layout::validate_stream_id(game).map_err(|e| match e {
        StoreError::InvalidStreamId { reason, .. } => {
            format!("game id {game:?} cannot be stored: {reason} (1 to 128 bytes of printable ASCII without spaces)")
        }
        other => other.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefixes_are_reserved() {
        let err = check_game_id("@annotations/x").unwrap_err();
        assert!(err.contains("reserved for annotations"), "{err}");
        let err = check_game_id("@variations/x").unwrap_err();
        assert!(err.contains("reserved for variations"), "{err}");
    }

    #[test]
    fn a_stream_is_a_companion_by_its_prefix_alone() {
        assert_eq!(
            Companion::of_stream("@variations/g1"),
            Some(Companion::Variations)
        );
        assert_eq!(Companion::Annotations.stream("g1"), "@annotations/g1");
        assert_eq!(Companion::of_stream("g1"), None);
        assert!(check_game_id("g1").is_ok());
    }
}
