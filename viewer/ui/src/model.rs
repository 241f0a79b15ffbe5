//! The view-model: where the replay stands, the commands that move it, and playback.
//!
//! Plain Rust, no egui: every key press, button and click becomes a [`Command`], and the
//! commands of a frame are applied once, at the end of the frame, by [`ViewModel::apply`].
//!
//! Positions: the cursor is a number of applied events. `0` is before the first event; `n`
//! is the state after the `n`-th legal event, whose step is `steps[n - 1]`.

use carc_events::Event;
use carc_replay::Timeline;

/// Everything that moves the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// One event forward.
    Next,
    /// One event back.
    Prev,
    /// To the end of the next turn (after its meeple decision and scoring).
    NextTurn,
    /// To the end of the previous turn (or the start).
    PrevTurn,
    /// Before the first event.
    First,
    /// After the last legal event.
    Last,
    /// Start or stop automatic stepping.
    TogglePlay,
    /// To the next event that scored something.
    NextScoring,
    /// To the previous event that scored something.
    PrevScoring,
    /// To position `n` (clamped to the legal part of the log).
    JumpTo(usize),
}

/// What navigation needs to know about a timeline: its length, where turns end and which
/// events score.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Nav {
    len: usize,
    /// Positions (1..=len) after the last event of a turn, ascending.
    turn_ends: Vec<usize>,
    /// Positions (1..=len) after an event that scored, ascending.
    scoring: Vec<usize>,
}

impl Nav {
    /// From, for every step in order, whether it ends a turn and whether it scored. The
    /// last position always counts as a turn end.
    pub fn from_parts(ends_turn: &[bool], scored: &[bool]) -> Nav {
        assert_eq!(ends_turn.len(), scored.len(), "one entry per step");
        let len = ends_turn.len();
        let turn_ends = (1..=len)
            .filter(|&n| n == len || ends_turn[n - 1])
            .collect();
        let scoring = (1..=len).filter(|&n| scored[n - 1]).collect();
        Nav {
            len,
            turn_ends,
            scoring,
        }
    }

    /// A step ends a turn when the next step belongs to another turn, and the start tile is a
    /// turn of its own (the engine counts it in turn 0 with the first player's turn).
    pub fn from_timeline(timeline: &Timeline) -> Nav {
        let steps = &timeline.steps;
        let ends_turn: Vec<bool> = (0..steps.len())
            .map(|i| {
                matches!(steps[i].event, Event::StartPlaced { .. })
                    || steps
                        .get(i + 1)
                        .is_some_and(|next| next.turn != steps[i].turn)
            })
            .collect();
        let scored: Vec<bool> = steps.iter().map(|s| !s.effects.scores.is_empty()).collect();
        Nav::from_parts(&ends_turn, &scored)
    }

    /// Number of legal events (the last position).
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Positions after an event that scored.
    pub fn scoring(&self) -> &[usize] {
        &self.scoring
    }

    fn next_in(list: &[usize], after: usize) -> Option<usize> {
        list.iter().copied().find(|&p| p > after)
    }

    fn prev_in(list: &[usize], before: usize) -> Option<usize> {
        list.iter().rev().copied().find(|&p| p < before)
    }
}

/// The one replay position of the viewer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayCursor {
    index: usize,
}

impl ReplayCursor {
    pub fn at(index: usize) -> ReplayCursor {
        ReplayCursor { index }
    }

    /// Events applied (0 = before the first event).
    pub fn index(self) -> usize {
        self.index
    }

    /// The index into `steps` of the current event, if any.
    pub fn step(self) -> Option<usize> {
        self.index.checked_sub(1)
    }

    /// Moves the cursor; returns whether it moved. [`Command::TogglePlay`] does not move it.
    pub fn apply(&mut self, command: Command, nav: &Nav) -> bool {
        let n = self.index.min(nav.len);
        let target = match command {
            Command::Next => (n + 1).min(nav.len),
            Command::Prev => n.saturating_sub(1),
            Command::First => 0,
            Command::Last => nav.len,
            Command::JumpTo(m) => m.min(nav.len),
            Command::NextTurn => Nav::next_in(&nav.turn_ends, n).unwrap_or(nav.len),
            Command::PrevTurn => Nav::prev_in(&nav.turn_ends, n).unwrap_or(0),
            Command::NextScoring => Nav::next_in(&nav.scoring, n).unwrap_or(n),
            Command::PrevScoring => Nav::prev_in(&nav.scoring, n).unwrap_or(n),
            Command::TogglePlay => n,
        };
        let moved = target != self.index;
        self.index = target;
        moved
    }
}

/// Playback speeds offered, in events per second.
pub const SPEEDS: [f32; 5] = [1.0, 2.0, 5.0, 10.0, 25.0];

/// Automatic stepping.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    pub playing: bool,
    /// Events per second.
    pub speed: f32,
    /// Fraction of an event accumulated since the last step.
    carry: f32,
}

impl Default for Playback {
    fn default() -> Playback {
        Playback {
            playing: false,
            speed: 5.0,
            carry: 0.0,
        }
    }
}

impl Playback {
    /// How many events to step after `dt` seconds (0 when paused).
    pub fn tick(&mut self, dt: f32) -> usize {
        if !self.playing {
            return 0;
        }
        self.carry += dt.max(0.0) * self.speed;
        let whole = self.carry.floor();
        self.carry -= whole;
        whole as usize
    }

    pub fn stop(&mut self) {
        self.playing = false;
        self.carry = 0.0;
    }
}

/// Cursor, navigation data and playback for one open game.
#[derive(Clone, Debug, Default)]
pub struct ViewModel {
    pub cursor: ReplayCursor,
    pub nav: Nav,
    pub playback: Playback,
}

impl ViewModel {
    pub fn new(nav: Nav) -> ViewModel {
        ViewModel {
            cursor: ReplayCursor::default(),
            nav,
            playback: Playback::default(),
        }
    }

    /// Applies one command; returns whether the cursor moved. Any navigation pauses playback;
    /// playing from the end starts again from the beginning.
    pub fn apply(&mut self, command: Command) -> bool {
        if command == Command::TogglePlay {
            if self.playback.playing {
                self.playback.stop();
                return false;
            }
            self.playback.playing = true;
            if self.cursor.index() >= self.nav.len() {
                return self.cursor.apply(Command::First, &self.nav);
            }
            return false;
        }
        self.playback.stop();
        self.cursor.apply(command, &self.nav)
    }

    /// Advances playback by `dt` seconds; returns whether the cursor moved. Stops at the end.
    pub fn tick(&mut self, dt: f32) -> bool {
        let steps = self.playback.tick(dt);
        if steps == 0 {
            return false;
        }
        let before = self.cursor.index();
        let target = (before + steps).min(self.nav.len());
        self.cursor.apply(Command::JumpTo(target), &self.nav);
        if target >= self.nav.len() {
            self.playback.stop();
        }
        target != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Start tile, then turns of draw/place/meeple; the meeple of the second turn scores.
    fn nav() -> Nav {
        let ends = [
            true, false, false, true, false, false, true, false, false, false,
        ];
        let scored = [
            false, false, false, false, false, false, true, false, false, true,
        ];
        Nav::from_parts(&ends, &scored)
    }

    #[test]
    fn turn_ends_and_scoring_positions() {
        let nav = nav();
        assert_eq!(nav.len(), 10);
        assert_eq!(nav.turn_ends, vec![1, 4, 7, 10]);
        assert_eq!(nav.scoring(), &[7, 10]);
    }

    #[test]
    fn the_start_tile_is_a_turn_of_its_own() {
        let g = crate::loaded::LoadedGame::open(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../logs/short-game-rulings.jsonl"),
        )
        .unwrap();
        assert_eq!(&g.nav.turn_ends[..4], &[1, 4, 7, 10]);
        assert_eq!(*g.nav.turn_ends.last().unwrap(), 34);
        assert_eq!(g.nav.scoring(), &[19, 34]);
    }

    #[test]
    fn stepping_is_clamped() {
        let nav = nav();
        let mut c = ReplayCursor::default();
        assert!(!c.apply(Command::Prev, &nav));
        assert_eq!(c.index(), 0);
        assert_eq!(c.step(), None);
        assert!(c.apply(Command::Next, &nav));
        assert_eq!(c.index(), 1);
        assert_eq!(c.step(), Some(0));
        assert!(c.apply(Command::Last, &nav));
        assert_eq!(c.index(), 10);
        assert!(!c.apply(Command::Next, &nav));
        assert!(c.apply(Command::First, &nav));
        assert_eq!(c.index(), 0);
        c.apply(Command::JumpTo(99), &nav);
        assert_eq!(c.index(), 10);
        c.apply(Command::JumpTo(3), &nav);
        assert_eq!(c.index(), 3);
    }

    #[test]
    fn turns_jump_to_turn_ends() {
        let nav = nav();
        let mut c = ReplayCursor::default();
        let mut seen = vec![];
        while c.apply(Command::NextTurn, &nav) {
            seen.push(c.index());
        }
        assert_eq!(seen, vec![1, 4, 7, 10]);
        c.apply(Command::JumpTo(5), &nav);
        c.apply(Command::PrevTurn, &nav);
        assert_eq!(c.index(), 4);
        c.apply(Command::JumpTo(5), &nav);
        c.apply(Command::NextTurn, &nav);
        assert_eq!(c.index(), 7);
        c.apply(Command::JumpTo(1), &nav);
        c.apply(Command::PrevTurn, &nav);
        assert_eq!(c.index(), 0);
    }

    #[test]
    fn scoring_jumps_stay_put_when_there_is_none() {
        let nav = nav();
        let mut c = ReplayCursor::default();
        c.apply(Command::NextScoring, &nav);
        assert_eq!(c.index(), 7);
        c.apply(Command::NextScoring, &nav);
        assert_eq!(c.index(), 10);
        assert!(!c.apply(Command::NextScoring, &nav));
        assert_eq!(c.index(), 10);
        c.apply(Command::PrevScoring, &nav);
        assert_eq!(c.index(), 7);
        assert!(!c.apply(Command::PrevScoring, &nav));
        assert_eq!(c.index(), 7);
    }

    #[test]
    fn empty_timeline_stays_at_zero() {
        let nav = Nav::from_parts(&[], &[]);
        let mut c = ReplayCursor::default();
        for cmd in [
            Command::Next,
            Command::Last,
            Command::NextTurn,
            Command::NextScoring,
            Command::JumpTo(4),
        ] {
            assert!(!c.apply(cmd, &nav));
            assert_eq!(c.index(), 0);
        }
    }

    #[test]
    fn playback_steps_by_speed_and_stops_at_the_end() {
        let mut vm = ViewModel::new(nav());
        assert!(!vm.tick(1.0), "paused: no step");
        vm.apply(Command::TogglePlay);
        assert!(vm.playback.playing);
        vm.playback.speed = 4.0;
        assert!(!vm.tick(0.1)); // 0.4 of an event
        assert!(vm.tick(0.2)); // 1.2 events
        assert_eq!(vm.cursor.index(), 1);
        assert!(vm.tick(1.0)); // +4
        assert_eq!(vm.cursor.index(), 5);
        assert!(vm.tick(10.0));
        assert_eq!(vm.cursor.index(), 10);
        assert!(!vm.playback.playing, "stops at the end");
    }

    #[test]
    fn play_at_the_end_restarts_and_navigation_pauses() {
        let mut vm = ViewModel::new(nav());
        vm.apply(Command::Last);
        assert!(vm.apply(Command::TogglePlay));
        assert_eq!(vm.cursor.index(), 0);
        assert!(vm.playback.playing);
        vm.apply(Command::Next);
        assert!(!vm.playback.playing);
        vm.apply(Command::TogglePlay);
        vm.apply(Command::TogglePlay);
        assert!(!vm.playback.playing);
    }
}
