//! The moves of a saved game replayed through the rules engine while their events are
//! recorded, so an imported log is legal by construction.

use carc_events::{event_to_action, Event, Log, MeepleTarget, Pos, Rotation, TileId};
use carc_rules::{Effects, FeatureKind, Game, Phase};

use super::entries::{Deployed, Entry, Move};
use super::setup::{Deal, Seat, Start, Tile};
use crate::error::JczError;
use crate::location::{self, Location};
use crate::tiles;

/// Where the replay of the moves is: what the turn expects next.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    Place,
    Meeple,
    Commit,
}

pub(super) struct Replayer<'a> {
    pub(super) game: Game,
    pub(super) log: Log,
    pub(super) fx: Effects,
    pub(super) seats: &'a [Seat],
    pub(super) deal: &'a Deal,
    /// How many tiles of the draw order have been drawn.
    pub(super) drawn: usize,
    /// How many tiles have been drawn in all (the draw order's, then those at random).
    pub(super) draws: usize,
}

pub(super) fn events_pos(p: carc_rules::Pos) -> Pos {
    Pos::new(p.x, p.y)
}

pub(super) fn events_rotation(turns: u8) -> Rotation {
    Rotation::ALL[usize::from(turns % 4)]
}

pub(super) fn tile_id(letter: &str) -> TileId {
    TileId::new(letter).expect("letters are non-empty")
}

impl Replayer<'_> {
    /// Records `event` if the rules accept it; otherwise the rules' reason.
    pub(super) fn push(&mut self, event: Event) -> Result<(), String> {
        let action = event_to_action(&self.game, &event).map_err(|v| v.to_string())?;
        self.game
            .apply(&action, &mut self.fx)
            .map_err(|v| v.to_string())?;
        self.log.push_event(event);
        Ok(())
    }

    pub(super) fn start(&mut self, start: &Start) -> Result<(), JczError> {
        self.push(Event::StartPlaced {
            tile: tile_id(start.tile.letter),
            at: events_pos(start.at),
            rotation: events_rotation(tiles::ours_from_jcz(start.tile.letter, start.turns)),
        })
        .map_err(|why| JczError::Field {
            path: "setup.start[0]".into(),
            expected: "a start tile the rules accept".into(),
            found: why,
            position: None,
        })
    }

    pub(super) fn seat(&self) -> u8 {
        self.game.current_player()
    }

    pub(super) fn moves(&mut self, entries: &[Entry]) -> Result<(), JczError> {
        let mut step = Step::Place;
        for entry in entries {
            let fail = |message: String| JczError::Replay {
                index: entry.index,
                kind: entry.kind.clone(),
                message,
                position: None,
            };
            // The acting player, by index or slot. A COMMIT comes after our turn has passed on.
            if let Some(player) = entry.player {
                let seat = self.seat();
                let slot = self.seats[usize::from(seat)].slot;
                if player != i64::from(seat) && player != slot && !matches!(entry.mv, Move::Commit)
                {
                    return Err(fail(format!(
                        "the entry is player {player}'s, but it is player {seat}'s turn ({})",
                        self.seats[usize::from(seat)].name
                    )));
                }
            }
            step = match (step, &entry.mv) {
                (Step::Place, Move::Place { tile, turns, at }) => {
                    self.draw(tile).map_err(fail)?;
                    let seat = self.seat();
                    self.push(Event::TilePlaced {
                        player: seat,
                        tile: tile_id(tile.letter),
                        at: events_pos(*at),
                        rotation: events_rotation(*turns),
                    })
                    .map_err(fail)?;
                    Step::Meeple
                }
                (
                    Step::Meeple,
                    Move::Deploy {
                        at,
                        kind,
                        location,
                        location_text,
                        meeple,
                        owner,
                        figure,
                    },
                ) => {
                    let on = self
                        .meeple_target(*at, *kind, *location, location_text, meeple, *owner)
                        .map_err(fail)?;
                    let seat = self.seat();
                    let placed = |figure| Event::MeeplePlaced {
                        player: seat,
                        on,
                        figure,
                    };
                    let event = match figure {
                        Deployed::Abbot => Event::AbbotPlaced {
                            player: seat,
                            at: events_pos(*at),
                            on,
                            portal: false,
                        },
                        Deployed::Meeple => placed(carc_events::Figure::Meeple),
                        Deployed::Large => placed(carc_events::Figure::Large),
                        Deployed::Builder => placed(carc_events::Figure::Builder),
                        Deployed::Pig => placed(carc_events::Figure::Pig),
                    };
                    self.push(event).map_err(fail)?;
                    Step::Commit
                }
                (Step::Meeple, Move::ReturnAbbot { at, meeple, owner }) => {
                    let seat = self.seat();
                    let slot = self.seats[usize::from(seat)].slot;
                    if *owner != i64::from(seat) && *owner != slot {
                        return Err(fail(format!(
                            "abbot {meeple:?} is player {owner}'s, but it is player {seat}'s turn"
                        )));
                    }
                    self.push(Event::AbbotTakenBack {
                        player: seat,
                        at: events_pos(*at),
                    })
                    .map_err(fail)?;
                    Step::Commit
                }
                (Step::Meeple, Move::Pass) => {
                    let seat = self.seat();
                    self.push(Event::MeepleSkipped { player: seat })
                        .map_err(fail)?;
                    Step::Commit
                }
                // Committing without a word about the meeple means no meeple.
                (Step::Meeple, Move::Commit) => {
                    let seat = self.seat();
                    self.push(Event::MeepleSkipped { player: seat })
                        .map_err(fail)?;
                    Step::Place
                }
                (Step::Commit, Move::Commit) => Step::Place,
                (step, _) => {
                    let expected = match step {
                        Step::Place => "PLACE_TILE (a new turn)",
                        Step::Meeple => {
                            "DEPLOY_MEEPLE, RETURN_MEEPLE (the abbot), PASS or COMMIT after the tile"
                        }
                        Step::Commit => "COMMIT to end the turn",
                    };
                    return Err(fail(format!("out of order: expected {expected}")));
                }
            };
        }
        if step == Step::Place {
            self.draw_pending();
        }
        Ok(())
    }

    /// Whether the file's draw limit (or end marker) says no tile is drawn any more.
    pub(super) fn deal_is_over(&self) -> Option<(usize, &'static str)> {
        self.deal.total.filter(|&(total, _)| self.draws >= total)
    }

    /// Draws the tile a PLACE_TILE places: the next of the draw order while it lasts (tiles
    /// before it in the order must be ones JCloisterZone discarded because they fit nowhere),
    /// then the tile placed, which JCloisterZone drew at random.
    pub(super) fn draw(&mut self, tile: &Tile) -> Result<(), String> {
        let seat = self.seat();
        let order = &self.deal.order;
        loop {
            if let Some((total, why)) = self.deal_is_over() {
                return Err(format!(
                    "places {}, but the game ended after {total} tiles drawn ({why})",
                    tile.jcz
                ));
            }
            self.draws += 1;
            let Some(next) = order.get(self.drawn) else {
                return self.push(Event::TileDrawn {
                    player: seat,
                    tile: tile_id(tile.letter),
                });
            };
            self.drawn += 1;
            self.push(Event::TileDrawn {
                player: seat,
                tile: tile_id(next.letter),
            })?;
            if next.letter == tile.letter {
                return Ok(());
            }
            self.push(Event::TileSetAside {
                player: seat,
                tile: tile_id(next.letter),
            })
            .map_err(|why| {
                format!(
                    "places {}, but gameAnnotations.drawOrder[{}] says {} was drawn, and it \
                     was not discarded as fitting nowhere: {why}",
                    tile.jcz,
                    self.drawn - 1,
                    next.jcz
                )
            })?;
        }
    }

    /// After the last committed turn: the next tiles of the draw order are drawn, those
    /// that fit nowhere set aside, up to the first that the next player has to place. Once
    /// the order is used up the next tile would be drawn at random, so the log stops there.
    pub(super) fn draw_pending(&mut self) {
        let order = &self.deal.order;
        while let (Some(next), Phase::Draw, None) = (
            order.get(self.drawn),
            self.game.phase(),
            self.deal_is_over(),
        ) {
            let seat = self.seat();
            if self
                .push(Event::TileDrawn {
                    player: seat,
                    tile: tile_id(next.letter),
                })
                .is_err()
            {
                return;
            }
            self.drawn += 1;
            self.draws += 1;
            let Phase::Place { tile } = self.game.phase() else {
                return;
            };
            if self.game.first_placement(tile).is_some() {
                return;
            }
            if self
                .push(Event::TileSetAside {
                    player: seat,
                    tile: tile_id(next.letter),
                })
                .is_err()
            {
                return;
            }
        }
    }

    /// Our meeple target for a JCloisterZone pointer on the tile just placed.
    pub(super) fn meeple_target(
        &self,
        at: carc_rules::Pos,
        kind: FeatureKind,
        location: Location,
        location_text: &str,
        meeple: &str,
        owner: i64,
    ) -> Result<MeepleTarget, String> {
        let seat = self.seat();
        let slot = self.seats[usize::from(seat)].slot;
        if owner != i64::from(seat) && owner != slot {
            return Err(format!(
                "meeple {meeple:?} is player {owner}'s, but it is player {seat}'s turn ({})",
                self.seats[usize::from(seat)].name
            ));
        }
        let Phase::Meeple { at: placed_at } = self.game.phase() else {
            return Err("no tile was just placed".into());
        };
        if at != placed_at {
            let [x, y] = location::pos_to_jcz(at);
            let [px, py] = location::pos_to_jcz(placed_at);
            return Err(format!(
                "the meeple goes to [{x},{y}], but the tile just placed lies at [{px},{py}]"
            ));
        }
        let placed = self.game.tile_at(at).expect("the tile just placed");
        let tile = self.game.tiles().get(placed.tile);
        // JCloisterZone draws a small field in the middle of IC/CCCC and of four Traders &
        // Builders tiles, between their cities; carc's tiles have none there (a field there
        // reaches no side, which our tiles cannot hold), so a farmer on it is a game carc
        // cannot replay.
        if tiles::has_inner_field(&tile.id)
            && kind == FeatureKind::Field
            && location == Location::Monastery
        {
            let jcz = tiles::jcz_id_of(&tile.id).unwrap_or("?");
            return Err(format!(
                "a farmer on the inner field of {jcz} (location {location_text:?}): carc's {} \
                 has no field there (docs/jcz.md, Inns & Cathedrals and Traders & Builders)",
                tile.id
            ));
        }
        let Some(segment) = location::segment_at(tile, placed.rotation, kind, location) else {
            let features: Vec<String> = (0..tile.segments.len() as u8)
                .map(|s| {
                    format!(
                        "{} {}",
                        location::feature_name(tile.segments[usize::from(s)].kind),
                        location::location_of(tile, placed.rotation, s)
                    )
                })
                .collect();
            return Err(format!(
                "tile {} ({}) as placed has no {} at location {location_text:?}; its features \
                 are: {}",
                tiles::jcz_id_of(&tile.id).unwrap_or("?"),
                tile.id,
                location::feature_name(kind),
                features.join(", ")
            ));
        };
        let label = tile.segment_label(placed.rotation, segment);
        label
            .code()
            .parse()
            .map_err(|e: carc_events::InvalidMeepleTarget| e.to_string())
    }
}
