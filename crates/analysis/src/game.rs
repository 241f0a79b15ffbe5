//! The analysis of one game.

use std::collections::BTreeMap;

use carc_events::{event_to_action, game_from_header, Event, Log};
use carc_replay::describe::seat_name;
use carc_rules::{Effects, FeatureKind, Note, Pos, Score, ScoreSource, ScoreTime, TileSet};

/// What one player did and scored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerStats {
    pub name: String,
    pub points: u32,
    /// Points by source: `road`, `city`, `monastery`, `field`, `abbot` (The Abbot: its
    /// monastery or garden, completed, taken back or at the end), `arrow` (the +2 of an arrow
    /// pointing at no tile), `gift` (Road Sweeper, Cash Out), `unopened gifts`. Sources that
    /// gave nothing are absent.
    pub points_by_source: BTreeMap<String, u32>,
    pub meeples_placed: u32,
    /// Meeples that came back to the supply (scored features, and the end of the game).
    pub meeples_returned: u32,
    /// Meeples on the board after the last legal event.
    pub meeples_out_at_end: u32,
    /// Average turns (of the whole table) a returned meeple stayed on the board.
    pub average_turns_out: Option<f64>,
    /// Features completed during play that scored for this player.
    pub features_completed: u32,
    /// Scores this player shared with another player (tied majority).
    pub features_shared: u32,
    pub arrows_activated: u32,
    pub tiles_set_aside: u32,
    /// Points taken away for covering towns (Carcassonne Maps, town variant 2).
    pub town_costs: u32,
    pub gifts_received: u32,
    pub gifts_opened: u32,
}

/// Why a moment is notable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MomentKind {
    /// One of the largest single scores.
    BigScore,
    /// Another player took the lead alone.
    LeadChange,
    /// A feature scored for two or more players (a shared majority).
    Shared,
    /// A drawn tile fitted nowhere.
    SetAside,
}

impl MomentKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MomentKind::BigScore => "big score",
            MomentKind::LeadChange => "lead change",
            MomentKind::Shared => "shared feature",
            MomentKind::SetAside => "tile set aside",
        }
    }
}

/// A notable event.
#[derive(Clone, Debug, PartialEq)]
pub struct Moment {
    pub seq: u64,
    pub kind: MomentKind,
    pub text: String,
    /// For ordering within a kind: points scored, or the new leader's margin.
    pub weight: u32,
}

/// The analysis of a game, up to its last legal event.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    pub game: String,
    pub players: Vec<PlayerStats>,
    /// The legal events analysed.
    pub events: usize,
    pub finished: bool,
    /// Why the analysis stops before the end of the log (line and rule), if it does.
    pub stopped: Option<String>,
    /// Seats with the best score (of a finished game; empty otherwise).
    pub winners: Vec<u8>,
    /// Notable moments, in game order: the five largest scores, every change of the lead,
    /// shared features and tiles set aside.
    pub moments: Vec<Moment>,
}

/// How many of the largest single scores are notable.
const BIG_SCORES: usize = 5;

/// Replays `log` with the rules and counts.
pub fn analyze(log: &Log, loaded: &[TileSet]) -> GameAnalysis {
    let header = &log.header;
    let n = header.players.len();
    let mut players: Vec<PlayerStats> = (0..n)
        .map(|seat| PlayerStats {
            name: seat_name(header, seat as u8),
            ..PlayerStats::default()
        })
        .collect();
    let mut out = GameAnalysis {
        game: header.game.clone(),
        players: Vec::new(),
        events: 0,
        finished: false,
        stopped: None,
        winners: Vec::new(),
        moments: Vec::new(),
    };
    let mut game = match game_from_header(header, loaded) {
        Ok(g) => g,
        Err(e) => {
            out.stopped = Some(format!("the header does not describe a playable game: {e}"));
            out.players = players;
            return out;
        }
    };
    let mut fx = Effects::default();
    // Meeples on the board: (seat, square, segment) -> the turns they were placed on.
    let mut out_since: BTreeMap<(u8, Pos, u8), Vec<u32>> = BTreeMap::new();
    let mut turns_out: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut big: Vec<Moment> = Vec::new();
    let mut leader: Option<u8> = None;
    for (line, envelope) in &log.events {
        let turn = game.turn();
        let applied = event_to_action(&game, &envelope.event).and_then(|a| game.apply(&a, &mut fx));
        if let Err(v) = applied {
            out.stopped = Some(format!(
                "line {line}: event {} is illegal [{}]: {v}",
                envelope.seq,
                v.rule()
            ));
            break;
        }
        out.events += 1;
        let seq = envelope.seq;
        match &envelope.event {
            Event::GiftReceived { player, .. } => {
                if let Some(p) = players.get_mut(usize::from(*player)) {
                    p.gifts_received += 1;
                }
            }
            Event::GiftOpened { player, .. } => {
                if let Some(p) = players.get_mut(usize::from(*player)) {
                    p.gifts_opened += 1;
                }
            }
            _ => {}
        }
        if let Event::TileSetAside { player, tile } = &envelope.event {
            if let Some(p) = players.get_mut(usize::from(*player)) {
                p.tiles_set_aside += 1;
            }
            out.moments.push(Moment {
                seq,
                kind: MomentKind::SetAside,
                text: format!(
                    "{} set {} aside: it fits nowhere",
                    seat_name(header, *player),
                    tile.as_str()
                ),
                weight: 0,
            });
        }
        for note in &fx.notes {
            if let (Note::ArrowActivated { .. }, Some(seat)) = (note, envelope.event.player()) {
                if let Some(p) = players.get_mut(usize::from(seat)) {
                    p.arrows_activated += 1;
                }
            }
        }
        for s in &fx.scores {
            count_score(&mut players, s, fx.scored_by_abbot(s));
            if s.winners.len() > 1 && s.points > 0 && !s.is_penalty() {
                let names: Vec<String> = s.winners.iter().map(|w| seat_name(header, *w)).collect();
                out.moments.push(Moment {
                    seq,
                    kind: MomentKind::Shared,
                    text: format!(
                        "{} shared by {}: +{} each",
                        what(s),
                        names.join(" and "),
                        s.points
                    ),
                    weight: s.points,
                });
            }
            if !s.winners.is_empty() && s.points > 0 && !s.is_penalty() {
                let names: Vec<String> = s.winners.iter().map(|w| seat_name(header, *w)).collect();
                big.push(Moment {
                    seq,
                    kind: MomentKind::BigScore,
                    text: format!("{} +{} for {}", names.join(" and "), s.points, what(s)),
                    weight: s.points,
                });
            }
        }
        // Meeples: what the board holds now against what it held.
        let mut now: BTreeMap<(u8, Pos, u8), usize> = BTreeMap::new();
        for (seat, at, segment, _) in game.meeples() {
            *now.entry((seat, at, segment)).or_default() += 1;
        }
        for (key, turns) in out_since.iter_mut() {
            let keep = now.get(key).copied().unwrap_or(0);
            while turns.len() > keep {
                let since = turns.remove(0);
                let seat = usize::from(key.0);
                players[seat].meeples_returned += 1;
                turns_out[seat].push(turn.saturating_sub(since));
            }
        }
        for (key, count) in &now {
            let turns = out_since.entry(*key).or_default();
            while turns.len() < *count {
                turns.push(turn);
                players[usize::from(key.0)].meeples_placed += 1;
            }
        }
        out_since.retain(|_, t| !t.is_empty());
        // The lead: a new sole leader is a moment.
        let scores = game.scores();
        let best = scores.iter().copied().max().unwrap_or(0);
        let leaders: Vec<u8> = (0..n as u8)
            .filter(|&s| scores[usize::from(s)] == best)
            .collect();
        if best > 0 && leaders.len() == 1 && leader != Some(leaders[0]) {
            let second = scores
                .iter()
                .copied()
                .filter(|&s| s < best)
                .max()
                .unwrap_or(0);
            let margin = best - second;
            let text = match leader {
                Some(old) => format!(
                    "{} takes the lead from {} ({best} points, {margin} ahead)",
                    seat_name(header, leaders[0]),
                    seat_name(header, old)
                ),
                None => format!(
                    "{} takes the lead ({best} points, {margin} ahead)",
                    seat_name(header, leaders[0])
                ),
            };
            out.moments.push(Moment {
                seq,
                kind: MomentKind::LeadChange,
                text,
                weight: margin,
            });
            leader = Some(leaders[0]);
        }
    }
    for (seat, p) in players.iter_mut().enumerate() {
        p.points = game.scores()[seat];
        p.meeples_out_at_end = out_since
            .iter()
            .filter(|(k, _)| usize::from(k.0) == seat)
            .map(|(_, t)| t.len() as u32)
            .sum();
        let t = &turns_out[seat];
        p.average_turns_out =
            (!t.is_empty()).then(|| t.iter().map(|&x| f64::from(x)).sum::<f64>() / t.len() as f64);
    }
    // The largest scores, kept in game order (ties: the earlier first).
    big.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.seq.cmp(&b.seq)));
    big.truncate(BIG_SCORES);
    out.moments.extend(big);
    out.moments
        .sort_by(|a, b| a.seq.cmp(&b.seq).then(a.kind.cmp(&b.kind)));
    out.finished = game.is_over() && out.stopped.is_none();
    if out.finished {
        let best = game.scores().iter().copied().max().unwrap_or(0);
        out.winners = (0..n as u8)
            .filter(|&s| game.scores()[usize::from(s)] == best)
            .collect();
    }
    out.players = players;
    out
}

/// What scored, in words: the feature, or the arrow.
fn what(s: &Score) -> String {
    match s.source {
        ScoreSource::Arrow { symbol, .. } => {
            format!("the {symbol} arrow at {} pointing at no tile", s.feature.at)
        }
        ScoreSource::TownCost { town } => format!("covering the town {town}"),
        ScoreSource::Gift { card } => format!("{card} on {}", s.feature),
        ScoreSource::UnopenedGifts { cards } => format!("{cards} unopened gifts"),
        ScoreSource::AbbotTakenBack => format!("the abbot taken back from {}", s.feature),
        ScoreSource::Goods { good } => format!("the most {good}"),
        ScoreSource::Pig => format!("the pig on {}", s.feature),
        ScoreSource::Feature => s.feature.to_string(),
    }
}

/// Counts a score in the players' statistics; `by_abbot`: the figure scored was an abbot on a
/// monastery (counted as `abbot`, like gardens and take-backs).
fn count_score(players: &mut [PlayerStats], s: &Score, by_abbot: bool) {
    if s.is_penalty() {
        for &w in &s.winners {
            if let Some(p) = players.get_mut(usize::from(w)) {
                p.town_costs += s.points;
            }
        }
        return;
    }
    let source = match s.source {
        ScoreSource::TownCost { .. } => return,
        ScoreSource::Gift { .. } => "gift",
        ScoreSource::UnopenedGifts { .. } => "unopened gifts",
        ScoreSource::Arrow { .. } => "arrow",
        ScoreSource::AbbotTakenBack => "abbot",
        ScoreSource::Goods { .. } => "goods",
        ScoreSource::Pig => "pig",
        ScoreSource::Feature => match s.kind {
            FeatureKind::Road => "road",
            FeatureKind::City => "city",
            FeatureKind::Monastery if by_abbot => "abbot",
            FeatureKind::Monastery => "monastery",
            FeatureKind::Field => "field",
            FeatureKind::Garden => "abbot",
        },
    };
    for &w in &s.winners {
        let Some(p) = players.get_mut(usize::from(w)) else {
            continue;
        };
        if s.points > 0 {
            *p.points_by_source.entry(source.to_string()).or_default() += s.points;
        }
        if s.time == ScoreTime::Completed && matches!(s.source, ScoreSource::Feature) {
            p.features_completed += 1;
        }
        if s.winners.len() > 1 {
            p.features_shared += 1;
        }
    }
}
