//! The five gift cards of The Gifts: the vocabulary that the rules (`game/gifts.rs`, which
//! re-exports [`GiftCard`] as `game::GiftCard`), the refusals and notes of the ruling trace
//! and the score sources share. Only names here, no rules: it depends on nothing, so
//! `ruling` and `score` need not import `game` (which imports them).

use std::fmt;

/// A gift card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GiftCard {
    /// Synod: a meeple from supply on any incomplete monastery, occupied or not.
    Synod,
    /// Road Sweeper: an incomplete road scores now as at the end; every meeple on it returns.
    RoadSweeper,
    /// Change Position: one of your meeples on the same tile, standing ↔ lying (farmer).
    ChangePosition,
    /// Cash Out: one of your meeples back, 2 points per meeple on its feature (it included).
    CashOut,
    /// Take 2: a second tile drawn; one of the two is placed, the other goes back to the bag.
    TakeTwo,
}

impl GiftCard {
    /// The five cards, in [`GiftCard::index`] order.
    pub const ALL: [GiftCard; 5] = [
        GiftCard::Synod,
        GiftCard::RoadSweeper,
        GiftCard::ChangePosition,
        GiftCard::CashOut,
        GiftCard::TakeTwo,
    ];

    /// Position in [`GiftCard::ALL`] (and in the per-kind counts of decks and hands).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The machine name, e.g. `road_sweeper`.
    pub fn name(self) -> &'static str {
        match self {
            GiftCard::Synod => "synod",
            GiftCard::RoadSweeper => "road_sweeper",
            GiftCard::ChangePosition => "change_position",
            GiftCard::CashOut => "cash_out",
            GiftCard::TakeTwo => "take_2",
        }
    }

    /// The card's printed name, e.g. `Road Sweeper`.
    pub fn word(self) -> &'static str {
        match self {
            GiftCard::Synod => "Synod",
            GiftCard::RoadSweeper => "Road Sweeper",
            GiftCard::ChangePosition => "Change Position",
            GiftCard::CashOut => "Cash Out",
            GiftCard::TakeTwo => "Take 2",
        }
    }

    /// The card with this machine name ([`GiftCard::name`], e.g. `take_2`), or `None`.
    pub fn from_name(name: &str) -> Option<GiftCard> {
        GiftCard::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for GiftCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}
