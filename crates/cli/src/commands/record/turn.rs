//! The events of a turn entered in one command (`record turn`, `record place` with a spot),
//! and the figure step the player's words name (a meeple, none, the abbot).

use anyhow::{bail, Result};
use carc_events::{Event, MeepleTarget, Pos, TileId};
use carc_rules::{Game, Phase, TileTypeId};

use crate::commands::record::parse::{drawn_tile, parse_figure, parse_rotation, Figure};
use crate::commands::record::phase::phase_text;

/// What is left to record of a turn entered in one command (`turn`, or `place` with a spot).
pub struct TurnPlan {
    /// The tile to draw first (`turn`); `None` for `place`, whose tile is drawn already.
    draw: Option<String>,
    at: (i32, i32),
    rot: String,
    spot: Option<String>,
    stage: TurnStage,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum TurnStage {
    Draw,
    Place,
    Figure,
    Done,
}

impl TurnPlan {
    pub fn new(draw: Option<String>, x: i32, y: i32, rot: String, spot: Option<String>) -> Self {
        let stage = if draw.is_some() {
            TurnStage::Draw
        } else {
            TurnStage::Place
        };
        TurnPlan {
            draw,
            at: (x, y),
            rot,
            spot,
            stage,
        }
    }

    /// The next event of the turn in the state `g`, or `None` when the turn is entered.
    pub fn next(&mut self, g: &Game) -> Result<Option<Event>> {
        match self.stage {
            TurnStage::Draw => {
                let wanted = self.draw.clone().unwrap_or_default();
                self.stage = TurnStage::Place;
                match g.phase() {
                    Phase::Draw => draw_event(g, &wanted).map(Some),
                    // Drawn already (with `record draw`): go on with the placement.
                    Phase::Place { tile }
                        if g.tiles().get(tile).id.eq_ignore_ascii_case(wanted.trim()) =>
                    {
                        self.next(g)
                    }
                    Phase::Place { tile } => bail!(
                        "tile {} is drawn already, not {wanted:?}",
                        g.tiles().get(tile).id
                    ),
                    // The Gifts: Take 2's second tile, then the one put back, come before the
                    // placement; `turn` does not enter them.
                    Phase::DrawSecond { .. } | Phase::ReturnTile { .. } => bail!(
                        "Take 2 is under way (The Gifts): enter `draw TILE` for the second tile, \
                         `return TILE` for the one put back, then `place X Y ROT [SPOT]`"
                    ),
                    _ => bail!("no tile to draw: {}", phase_text(g)),
                }
            }
            TurnStage::Place => {
                self.stage = TurnStage::Figure;
                let rotation = parse_rotation(&self.rot)?;
                let Phase::Place { tile } = g.phase() else {
                    bail!("no tile to place: {}", phase_text(g));
                };
                Ok(Some(Event::TilePlaced {
                    player: g.current_player(),
                    tile: tile_id(g, tile),
                    at: Pos::new(self.at.0, self.at.1),
                    rotation,
                }))
            }
            TurnStage::Figure => {
                self.stage = TurnStage::Done;
                match &self.spot {
                    None => Ok(None),
                    // The Gifts: the card earned comes before the meeple, and it is chance:
                    // one command cannot know it. `record turn` stays gift-free.
                    Some(_) if matches!(g.phase(), Phase::ReceiveGift { .. }) => bail!(
                        "this placement earns a gift card (The Gifts), which comes before the \
                         meeple: leave the spot out, then enter `gift CARD` and `meeple SPOT|none`"
                    ),
                    Some(spot) => figure_event(g, spot).map(Some),
                }
            }
            TurnStage::Done => Ok(None),
        }
    }
}

/// The current player drew the tile named `name` (its letter, either case).
pub fn draw_event(g: &Game, name: &str) -> Result<Event> {
    // Take 2's second tile (The Gifts) is drawn the same way.
    if !matches!(g.phase(), Phase::Draw | Phase::DrawSecond { .. }) {
        bail!("no tile to draw: {}", phase_text(g));
    }
    let tile = drawn_tile(g, name)?;
    Ok(Event::TileDrawn {
        player: g.current_player(),
        tile: tile_id(g, tile),
    })
}

/// The figure step: `none`, a meeple on a spot of the tile just placed ("road N"; "road-N"
/// too, which needs no quotes at the shell), or the abbot (`abbot`: on the monastery or garden
/// of the tile just placed; `abbot-back`: taken back), as `record abbot` and `record
/// abbot-back` enter them.
pub fn figure_event(g: &Game, spot: &str) -> Result<Event> {
    let Phase::Meeple { at } = g.phase() else {
        bail!("no meeple step now: {}", phase_text(g));
    };
    let player = g.current_player();
    Ok(match parse_figure(spot)? {
        Figure::None => Event::MeepleSkipped { player },
        Figure::Meeple(on) => Event::MeeplePlaced {
            player,
            on,
            figure: carc_events::Figure::Meeple,
        },
        Figure::Large(on) => Event::MeeplePlaced {
            player,
            on,
            figure: carc_events::Figure::Large,
        },
        Figure::Builder(on) => Event::MeeplePlaced {
            player,
            on,
            figure: carc_events::Figure::Builder,
        },
        Figure::Pig(on) => Event::MeeplePlaced {
            player,
            on,
            figure: carc_events::Figure::Pig,
        },
        Figure::AbbotBack => abbot_back_event(g)?,
        Figure::Abbot(on) => {
            let on = match on {
                Some(on) => on,
                None => {
                    let placed = g.tile_at(at).expect("the tile just placed is on the board");
                    let tile = g.tiles().get(placed.tile);
                    if tile.monastery_segment().is_some() {
                        MeepleTarget::monastery()
                    } else if tile.garden_segment().is_some() {
                        MeepleTarget::garden()
                    } else {
                        bail!(
                            "tile {} at {at} has no monastery or garden for the abbot",
                            tile.id
                        );
                    }
                }
            };
            Event::AbbotPlaced {
                player,
                at: Pos::new(at.x, at.y),
                on,
                portal: false,
            }
        }
    })
}

/// Instead of a meeple, the current player took their abbot back.
pub fn abbot_back_event(g: &Game) -> Result<Event> {
    if !matches!(g.phase(), Phase::Meeple { .. }) {
        bail!("no meeple step now: {}", phase_text(g));
    }
    let seat = g.current_player();
    let Some((at, _)) = g.abbot_of(seat) else {
        bail!("the player to move has no abbot on the board: there is nothing to take back");
    };
    Ok(Event::AbbotTakenBack {
        player: seat,
        at: Pos::new(at.x, at.y),
    })
}

pub fn tile_id(game: &Game, tile: TileTypeId) -> TileId {
    TileId::new(game.tiles().get(tile).id.clone()).expect("tile ids are non-empty")
}
