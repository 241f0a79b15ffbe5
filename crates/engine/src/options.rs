//! What a search may spend ([`Budget`]) and how it searches ([`SearchOptions`]).

use std::time::Duration;

/// How long a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Iterations of the search, over all threads (split evenly between them). The same
    /// position, seed, node budget and thread count give the same move on any machine.
    Nodes(u64),
    /// Wall-clock time; each thread stops at the deadline. Faster machines search more, so
    /// results are not reproducible.
    Time(Duration),
}

/// Default iterations: about 0.11 s a move on one core of the project's 2-core machine in a
/// 2-player base game (`docs/benchmarks.md`).
pub const DEFAULT_NODES: u64 = 2_000;

/// The most iterations a search runs: about three hours on one core at the default speed. A
/// larger [`Budget::Nodes`] is searched as this many (an untrusted caller of `carc engine`
/// cannot make a search that never ends); the spec and the CLI refuse it.
pub const MAX_NODES: u64 = 100_000_000;

/// The most time a search thinks: one hour. A longer [`Budget::Time`] is searched as this
/// long; the spec and the CLI refuse it.
pub const MAX_TIME: Duration = Duration::from_secs(3600);

impl SearchOptions {
    /// These options with [`Budget::capped`].
    pub(crate) fn with_capped_budget(&self) -> SearchOptions {
        SearchOptions {
            budget: self.budget.capped(),
            ..self.clone()
        }
    }
}

impl Budget {
    /// The budget within [`MAX_NODES`] and [`MAX_TIME`] (and at least one iteration).
    pub fn capped(self) -> Budget {
        match self {
            Budget::Nodes(n) => Budget::Nodes(n.clamp(1, MAX_NODES)),
            Budget::Time(d) => Budget::Time(d.min(MAX_TIME)),
        }
    }
}

/// How the engine searches. `Default` is the engine at its default strength.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    pub budget: Budget,
    /// Worker threads; 0 = every core. Each thread grows its own tree from its own seed
    /// (root parallelisation); their root statistics are added up.
    pub threads: usize,
    pub seed: u64,
    /// UCT's exploration constant (rewards are in 0..=1).
    pub exploration: f64,
    /// Progressive widening: a node visited n times considers its best
    /// `widen_base + widen_factor · n^widen_power` moves, in the greedy player's order.
    pub widen_base: f64,
    pub widen_factor: f64,
    pub widen_power: f64,
    /// The leaf value's points per meeple still in supply, while many tiles are left (it
    /// falls to 0 as the bag empties): a meeple kept is a move kept for later.
    pub meeple_value: f64,
    /// The win-probability estimate's spread: a virtual margin of `margin_scale ·
    /// sqrt(tiles left + 1)` points is a 73 % chance (logistic).
    pub margin_scale: f64,
    /// Turns played by a cheap policy after a leaf is reached, before it is valued (0 = none,
    /// the leaf is valued as it stands): the leaf value then sees what the next turns do with
    /// the position (`docs/engine.md`, "Rollouts").
    pub rollout: u32,
    /// The rollout's policy: 1 = the greedy player's move; n > 1 = one of its best n moves
    /// at random.
    pub rollout_top: u32,
    /// Traders & Builders only ([`crate::traders`]; no other game reads these): the spread
    /// of the goods majorities' estimate per square root of the tokens still to be taken
    /// (0 = the potential score's majorities as they stand), ...
    pub goods_spread: f64,
    /// ... the points of a builder on its owner's road or city while many tiles are left, ...
    pub builder_value: f64,
    /// ... and of a builder's second turn due at the leaf.
    pub second_turn_value: f64,
    /// Exact endings ([`crate::solve_ending`]): with at most this many tiles still to be
    /// played (the drawn one included), a two-player position is solved exactly instead of
    /// searched, whatever the budget; with more players, at one tile fewer (their tree is
    /// not pruned). 0 = never. A tree past [`EXACT_NODES`] positions is searched as usual.
    pub exact: u32,
    /// How a leaf is valued ([`Evaluation`]).
    pub evaluation: Evaluation,
}

/// How the position where an iteration stops is valued (`docs/engine.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The potential score (every feature scored as it stands) and the meeples in supply
    /// ([`SearchOptions::meeple_value`] each): the engine's value until issue 52, kept so
    /// that every older comparison can be rerun.
    Potential,
    /// The default: the learned value ([`crate::Weights`]), the potential score plus
    /// weighted terms of what the tiles left are expected to add to each unfinished feature
    /// ([`crate::read_outlook`]) and of the meeples.
    #[default]
    Outlook,
}

impl Evaluation {
    /// Every evaluation, in the order the spec lists them.
    pub const ALL: [Evaluation; 2] = [Evaluation::Potential, Evaluation::Outlook];

    /// Its name in a spec (`eval=potential`).
    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Potential => "potential",
            Evaluation::Outlook => "outlook",
        }
    }

    /// The evaluation named `name`, if any.
    pub fn parse(name: &str) -> Option<Evaluation> {
        Evaluation::ALL.into_iter().find(|e| e.name() == name)
    }
}

impl std::fmt::Display for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The most positions an exact ending visits before the engine gives up on it and searches
/// (about 1.5 s on one core of the project's machine; `docs/benchmarks.md`).
pub const EXACT_NODES: u64 = 1_000_000;

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            budget: Budget::Nodes(DEFAULT_NODES),
            threads: 1,
            seed: 0,
            exploration: 0.35,
            widen_base: 2.0,
            widen_factor: 1.0,
            widen_power: 0.5,
            meeple_value: 2.0,
            margin_scale: 1.5,
            rollout: 0,
            rollout_top: 1,
            goods_spread: 0.0,
            builder_value: 0.0,
            second_turn_value: 0.0,
            exact: 3,
            evaluation: Evaluation::Outlook,
        }
    }
}

impl SearchOptions {
    /// The most tiles left in the bag at which a game of `players` is solved exactly
    /// ([`SearchOptions::exact`]), `None` when it never is.
    pub(crate) fn exact_bag(&self, players: u8) -> Option<u32> {
        let to_play = if players == 2 {
            self.exact
        } else {
            self.exact.saturating_sub(1)
        };
        to_play.checked_sub(1)
    }

    /// The number of worker threads to run (0 becomes every core).
    pub fn worker_threads(&self) -> usize {
        if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        }
    }
}
