//! The replay entries of a saved game, typed: placements, deployments, the abbot's return,
//! passes, commits and UNDO, which is resolved before anything is replayed.

use carc_rules::FeatureKind;

use super::findings::Findings;
use super::setup::{rotation_turns, square, tile, Tile};
use crate::error::JczError;
use crate::json::At;
use crate::location::{self, Location};
use crate::names::{BIG_FIGURE, BUILDER_FIGURE, PIG_FIGURE};
use crate::tiles;

/// The figure a `DEPLOY_MEEPLE` deploys, by the name in its meeple id.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Deployed {
    /// A small follower (`small`): our meeple.
    Meeple,
    /// The big follower (`big`, Inns & Cathedrals): our large meeple.
    Large,
    /// The abbot (`abbot`, The Abbot).
    Abbot,
    /// The builder and the pig (`builder`, `pig`, Traders & Builders).
    Builder,
    Pig,
}

impl Deployed {
    fn of(figure: &str) -> Option<Deployed> {
        Some(match figure {
            "small" => Deployed::Meeple,
            BIG_FIGURE => Deployed::Large,
            "abbot" => Deployed::Abbot,
            BUILDER_FIGURE => Deployed::Builder,
            PIG_FIGURE => Deployed::Pig,
            _ => return None,
        })
    }
}

/// One replay entry, typed.
pub(super) enum Move {
    Place {
        tile: Tile,
        /// Our quarter turns.
        turns: u8,
        at: carc_rules::Pos,
    },
    Deploy {
        at: carc_rules::Pos,
        kind: FeatureKind,
        location: Location,
        location_text: String,
        meeple: String,
        owner: i64,
        figure: Deployed,
    },
    /// The Abbot: the abbot taken back (`RETURN_MEEPLE` with source `ABBOT_RETURN`) from `at`.
    ReturnAbbot {
        at: carc_rules::Pos,
        meeple: String,
        owner: i64,
    },
    Pass,
    Commit,
    Undo,
}

pub(super) struct Entry {
    pub(super) index: usize,
    pub(super) kind: String,
    /// The acting player's index, when the entry says.
    pub(super) player: Option<i64>,
    pub(super) mv: Move,
}

pub(super) fn replay(root: &At<'_>, found: &mut Findings) -> Result<Vec<Entry>, JczError> {
    let mut entries = Vec::new();
    for (index, item) in root.get("replay")?.array()?.into_iter().enumerate() {
        let entry = entry(index, &item, found);
        if let Some(Some(entry)) = found.defer(entry) {
            entries.push(entry);
        }
    }
    Ok(entries)
}

/// JCloisterZone's named locations that only other expansions use (a monk placed as abbot,
/// the quarters of Carcassonne city, a tile's second to fourth inner feature): unsupported
/// content, not a malformed location.
pub(super) fn is_other_expansions_location(text: &str) -> bool {
    matches!(text, "AS_ABBOT" | "II" | "III" | "IV") || text.starts_with("QUARTER_")
}

/// One replay entry; `Ok(None)` if it is unsupported (recorded in `found`).
pub(super) fn entry(
    index: usize,
    item: &At<'_>,
    found: &mut Findings,
) -> Result<Option<Entry>, JczError> {
    let kind = item.get("type")?.str()?.to_string();
    let player = item.opt("player")?.map(|p| p.int()).transpose()?;
    let payload = || item.get("payload");
    let mv = match kind.as_str() {
        "PLACE_TILE" => {
            let payload = payload()?;
            let tile = tile(&payload.get("tileId")?, found)?;
            let rotation = payload.get("rotation")?;
            let jcz_turns = rotation_turns(rotation.str()?)
                .ok_or_else(|| rotation.wrong("one of \"R0\", \"R90\", \"R180\", \"R270\""))?;
            let at = square(&payload.get("position")?)?;
            match tile {
                Some(tile) => Move::Place {
                    turns: tiles::ours_from_jcz(tile.letter, jcz_turns),
                    tile,
                    at,
                },
                None => return Ok(None),
            }
        }
        "DEPLOY_MEEPLE" => {
            let payload = payload()?;
            let pointer = payload.get("pointer")?;
            let meeple_at = payload.get("meepleId")?;
            let meeple = meeple_at.str()?.to_string();
            let mut parts = meeple.split('.');
            let (Some(owner), Some(figure), Some(_n), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(meeple_at.wrong("a meeple id \"<player>.<figure>.<n>\""));
            };
            let feature = pointer.get("feature")?;
            let kind_name = feature.str()?;
            let kind = location::parse_feature(kind_name);
            let location_at = pointer.get("location")?;
            let location_text = location_at.str()?.to_string();
            // What other expansions use is listed before anything is judged malformed.
            let mut other = false;
            if kind.is_none() {
                found.unsupported(format!("feature {kind_name:?}"), &feature.path);
                other = true;
            }
            let deployed = Deployed::of(figure);
            if deployed.is_none() {
                found.unsupported(format!("figure {figure:?}"), &meeple_at.path);
                other = true;
            }
            if is_other_expansions_location(&location_text) {
                found.unsupported(format!("location {location_text:?}"), &location_at.path);
                other = true;
            }
            if other {
                return Ok(None);
            }
            let owner: i64 = owner
                .parse()
                .map_err(|_| meeple_at.wrong("a meeple id \"<player>.<figure>.<n>\""))?;
            let at = square(&pointer.get("position")?)?;
            let location = Location::parse(&location_text).ok_or_else(|| {
                location_at.wrong(
                    "a location: sides such as \"N\", \"WE\", \"_S\", field ports such as \
                     \"NL.NR.EL\", or \"I\" for the monastery",
                )
            })?;
            let (Some(kind), Some(figure)) = (kind, deployed) else {
                return Ok(None);
            };
            Move::Deploy {
                at,
                kind,
                location,
                location_text,
                figure,
                meeple,
                owner,
            }
        }
        "RETURN_MEEPLE" => {
            let payload = payload()?;
            let source_at = payload.get("source")?;
            let source = source_at.str()?;
            let pointer = payload.get("pointer")?;
            let meeple_at = pointer.get("meepleId")?;
            let meeple = meeple_at.str()?.to_string();
            let mut parts = meeple.split('.');
            let (Some(owner), Some(figure), Some(_n), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(meeple_at.wrong("a meeple id \"<player>.<figure>.<n>\""));
            };
            if source != "ABBOT_RETURN" || figure != "abbot" {
                found.unsupported(
                    format!("RETURN_MEEPLE of figure {figure:?} by {source:?}"),
                    &item.path,
                );
                return Ok(None);
            }
            let owner: i64 = owner
                .parse()
                .map_err(|_| meeple_at.wrong("a meeple id \"<player>.<figure>.<n>\""))?;
            let at = square(&pointer.get("featurePointer")?.get("position")?)?;
            Move::ReturnAbbot { at, meeple, owner }
        }
        "PASS" => Move::Pass,
        "COMMIT" => Move::Commit,
        "UNDO" => Move::Undo,
        other => {
            found.unsupported(format!("move {other:?}"), &item.path);
            return Ok(None);
        }
    };
    Ok(Some(Entry {
        index,
        kind,
        player,
        mv,
    }))
}

/// Applies UNDO entries: each removes the entry before it within the same turn (JCloisterZone
/// offers undo only until the turn is committed). An UNDO with nothing to undo is an error.
pub(super) fn resolve_undo(entries: Vec<Entry>) -> Result<Vec<Entry>, JczError> {
    let mut kept: Vec<Entry> = Vec::with_capacity(entries.len());
    let mut turn_start = 0;
    for entry in entries {
        match entry.mv {
            Move::Undo => {
                if kept.len() > turn_start {
                    kept.pop();
                } else {
                    return Err(JczError::Replay {
                        index: entry.index,
                        kind: entry.kind,
                        message: "nothing to undo: the turn has no move yet (an UNDO cannot \
                                  reach back past a COMMIT)"
                            .into(),
                        position: None,
                    });
                }
            }
            Move::Commit => {
                kept.push(entry);
                turn_start = kept.len();
            }
            _ => kept.push(entry),
        }
    }
    Ok(kept)
}
