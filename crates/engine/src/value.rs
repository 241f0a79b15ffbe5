//! The learned value of a position ([`crate::Evaluation::Outlook`]): each seat's potential
//! score plus a weighted sum of what the bag says about its position ([`crate::outlook`]) and
//! of its meeples. The weights are learned by self-play ([`crate::train`], TD(λ)) and
//! committed as a small JSON file with its provenance (`weights/outlook-2p-base.json`);
//! `docs/engine.md` ("Weights learned by self-play") argues the method and names the file's
//! origin.
//!
//! A seat's value is `potential + Σ wᵢ · xᵢ`; the potential score's own weight is 1, so the
//! value stays in points and, at the end of the game, where every other term is 0, it is the
//! final score.

use std::sync::OnceLock;

use carc_rules::Game;

use crate::error::EngineError;
use crate::outlook::Outlook;

/// How many learned terms a seat's value has.
pub const FEATURES: usize = 8;

/// The learned terms, in the order of [`Weights::weights`]:
/// the bag's expected gain from the seat's cities, roads, monasteries (and gardens) and
/// fields ([`crate::SeatOutlook`]); its meeples in supply while many tiles are left
/// (`supply × min(1, tiles left / 24)`) and in proportion to the tiles left (`supply × tiles
/// left / tiles in play`); its meeples stuck in dead features and its farmers, each `×
/// min(1, tiles left / 24)` (both cost nothing once the game is over).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "city_gain",
    "road_gain",
    "monastery_gain",
    "field_gain",
    "supply",
    "supply_by_tiles_left",
    "stuck",
    "farmers",
];

/// Tiles left at which a meeple's terms reach their full size (as the potential
/// evaluation's meeple value).
const FULL_BAG: f64 = 24.0;

/// The learned terms of `seat`'s value in `game`, read from `outlook` (`game`'s).
pub fn seat_features(game: &Game, outlook: &Outlook, seat: u8) -> [f64; FEATURES] {
    let left = f64::from(game.bag_left());
    let early = (left / FULL_BAG).min(1.0);
    let in_play = left + game.placed().len() as f64;
    let share = if in_play > 0.0 { left / in_play } else { 0.0 };
    let o = outlook.seats[usize::from(seat)];
    let supply = f64::from(game.supply()[usize::from(seat)]);
    [
        o.city_gain,
        o.road_gain,
        o.monastery_gain,
        o.field_gain,
        supply * early,
        supply * share,
        f64::from(o.stuck) * early,
        f64::from(o.farmers) * early,
    ]
}

/// Learned weights with where they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// One weight per [`FEATURE_NAMES`] entry (points per unit).
    pub weights: [f64; FEATURES],
    /// How they were made: the command, seeds, games, commit (free text, as the file has it).
    pub provenance: Vec<(String, String)>,
}

impl Weights {
    /// The weights before any learning: the bag's gains at face value, a meeple in supply
    /// worth 2 points while many tiles are left (the potential evaluation's value), nothing
    /// else.
    pub fn untrained() -> Weights {
        Weights {
            weights: [1.0, 1.0, 1.0, 1.0, 2.0, 0.0, 0.0, 0.0],
            provenance: Vec::new(),
        }
    }

    /// `seat`'s value: `potential` plus the weighted terms.
    pub fn value(&self, potential: f64, features: &[f64; FEATURES]) -> f64 {
        potential
            + self
                .weights
                .iter()
                .zip(features)
                .map(|(w, x)| w * x)
                .sum::<f64>()
    }

    /// The weights file's text: `{"features": [...], "weights": [...], "provenance": {...}}`.
    pub fn to_json(&self) -> String {
        let quote = |s: &str| format!("{s:?}");
        let names: Vec<String> = FEATURE_NAMES.iter().map(|n| quote(n)).collect();
        let weights: Vec<String> = self.weights.iter().map(|w| format!("{w:.6}")).collect();
        let provenance: Vec<String> = self
            .provenance
            .iter()
            .map(|(k, v)| format!("    {}: {}", quote(k), quote(v)))
            .collect();
        format!(
            "{{\n  \"features\": [{}],\n  \"weights\": [{}],\n  \"provenance\": {{\n{}\n  }}\n}}\n",
            names.join(", "),
            weights.join(", "),
            provenance.join(",\n")
        )
    }

    /// Reads a weights file's text ([`Weights::to_json`]'s form). The feature names must be
    /// this engine's, in its order: weights for other terms would be read as the wrong ones.
    pub fn from_json(text: &str) -> Result<Weights, EngineError> {
        let bad = |why: String| EngineError::Weights(why);
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| bad(format!("not JSON: {e}")))?;
        let names: Vec<&str> = v["features"]
            .as_array()
            .ok_or_else(|| bad("no \"features\" list".into()))?
            .iter()
            .map(|n| n.as_str().unwrap_or(""))
            .collect();
        if names != FEATURE_NAMES {
            return Err(bad(format!(
                "the features are {names:?}; this engine's are {FEATURE_NAMES:?}"
            )));
        }
        let list = v["weights"]
            .as_array()
            .ok_or_else(|| bad("no \"weights\" list".into()))?;
        if list.len() != FEATURES {
            return Err(bad(format!(
                "{} weights for {FEATURES} features",
                list.len()
            )));
        }
        let mut weights = [0.0; FEATURES];
        for (w, x) in weights.iter_mut().zip(list) {
            *w = x
                .as_f64()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(format!("weight {x} is not a finite number")))?;
        }
        let provenance = v["provenance"]
            .as_object()
            .map(|o| {
                o.iter()
                    .map(|(k, v)| (k.clone(), v.as_str().map_or(v.to_string(), str::to_string)))
                    .collect()
            })
            .unwrap_or_default();
        Ok(Weights {
            weights,
            provenance,
        })
    }
}

/// The committed weights file (2-player base games; used for every game until weights of
/// its own are trained for another player count or expansion set).
pub const COMMITTED_WEIGHTS: &str = include_str!("../weights/outlook-2p-base.json");

/// The committed weights, read once.
pub fn committed_weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        // A test reads the file (`committed_weights_load`): a broken file fails CI, not a game.
        Weights::from_json(COMMITTED_WEIGHTS).unwrap_or_else(|_| Weights::untrained())
    })
}
